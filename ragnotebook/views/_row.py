"""Small pieces shared by the explorer, the static view and the report.

Kernel detection, the row list's score codes, and the two renderings of one row's
precision@k curve: an inline SVG (no JavaScript) and a plotly figure.

Examples
--------
>>> from ragnotebook.views._row import short_score
>>> short_score(0.0, "no_claims")
'n/cl'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ragnotebook.views._html import plotly_text, two_places
from ragnotebook.views._style import VERDICT_COLORS, style_figure

__all__ = [
    "LIST_LEGEND",
    "ROW_LEGEND",
    "in_kernel",
    "precision_svg",
    "row_legend",
    "row_precision_figure",
    "short_score",
]

#: What each status code of a row's summary line means, in the legend's order.
_CODE_MEANINGS = {
    "n/gt": "n/gt no ground truth",
    "n/ref": "n/ref no reference",
    "n/cl": "n/cl no claims (a measured 0, e.g. a refusal)",
    "n/ans": "n/ans no answer (not scored)",
    "n/ctx": "n/ctx no context (nothing retrieved: a measured 0 for R and F, no score for P)",
    "ERR": "ERR error",
    "n/run": "n/run not run (the metric never scored the row: not an error)",
}


def row_legend(codes: Iterable[str] | None = None, metrics: Iterable[str] | None = None) -> str:
    """What the codes of a row's summary line mean, for the codes that occur.

    Parameters
    ----------
    codes : iterable of str, optional
        The row cells shown (``short_score`` values such as ``"0.50"``, ``"n/gt"``,
        ``"ERR"``); a status code among them is explained, a score is not. ``None``
        (default): every code.
    metrics : iterable of str, optional
        The metrics the rows show (``"context_recall"``, ...): only their letters are
        explained. ``None`` (default): all three.

    Returns
    -------
    str
        "R = context recall, P = context precision, F = faithfulness", then the meaning
        of each status code that occurs, in a fixed order.

    Examples
    --------
    >>> row_legend(["0.50", "ERR", "0.50"])
    'R = context recall, P = context precision, F = faithfulness; ERR error.'
    >>> row_legend(["1.00"])
    'R = context recall, P = context precision, F = faithfulness.'
    >>> row_legend(["1.00"], metrics=["context_precision"])
    'P = context precision.'
    """
    found = None if codes is None else set(codes)
    said = [text for code, text in _CODE_MEANINGS.items() if found is None or code in found]
    shown = set(_LETTERS) if metrics is None else set(metrics)
    head = ", ".join(f"{letter} = {name}" for m, (letter, name) in _LETTERS.items() if m in shown)
    return head + ("; " + ", ".join(said) if said else "") + "."


#: The letter of each metric in a row's summary line, and its name.
_LETTERS = {
    "context_recall": ("R", "context recall"),
    "context_precision": ("P", "context precision"),
    "faithfulness": ("F", "faithfulness"),
}

#: What the codes in a row's summary line mean (all of them: the explorer's rows change
#: with its filters).
ROW_LEGEND = row_legend()

_SHORT_STATUS = {
    "no_ground_truth": "n/gt",
    "no_reference": "n/ref",
    "no_claims": "n/cl",
    "no_context": "n/ctx",
    "error": "ERR",
    "not_run": "n/run",
}
#: The explorer's legend, one line each: the codes, then a keyboard hint.
LIST_LEGEND = (
    ROW_LEGEND,
    "Click a row, or use ◀ previous row / next row ▶ (Tab to them, then Enter or Space). "
    "In JupyterLab the arrow keys move the notebook's cells, not the list.",
)


def in_kernel() -> bool:
    """True inside a running IPython kernel (Jupyter, VS Code), where widgets can render.

    Returns
    -------
    bool

    Examples
    --------
    >>> in_kernel()
    False
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def short_score(score: float, status: str) -> str:
    """Four-character score for the row list: ``0.50``, or a status code when not ``ok``.

    Parameters
    ----------
    score : float
    status : str

    Returns
    -------
    str

    Examples
    --------
    >>> short_score(0.5, "ok"), short_score(float("nan"), "no_ground_truth")
    ('0.50', 'n/gt')
    >>> short_score(float("nan"), "no_claims")   # no answer at all: not scored
    'n/ans'
    >>> short_score(float("nan"), "not_run")     # the metric never ran on the row
    'n/run'
    """
    if status == "ok":
        return "—" if math.isnan(score) else two_places(score)
    if status == "no_claims" and math.isnan(score):
        return "n/ans"
    return _SHORT_STATUS.get(status, status)


def precision_svg(prec: list[dict[str, Any]], width: int = 360, height: int = 140) -> str:
    """A small inline SVG of one row's precision@k by rank (no JavaScript needed).

    Filled dots are relevant chunks, hollow dots not relevant ones.

    Parameters
    ----------
    prec : list of dict
        The row's context-precision verdicts.
    width, height : int
        Size in pixels.

    Returns
    -------
    str
        An ``<svg>`` element, or ``""`` when there are no verdicts.

    Examples
    --------
    >>> svg = precision_svg([{"index": 0, "verdict": "no", "precision_at_k": 0.0},
    ...                      {"index": 1, "verdict": "yes", "precision_at_k": 0.5}])
    >>> svg.count("<circle")
    2
    """
    items = sorted(prec, key=lambda v: int(v.get("index", 0)))
    if not items:
        return ""
    left, right, top, bottom = 44, 12, 12, 34
    w, h = width - left - right, height - top - bottom
    n = len(items)

    def x(k: int) -> float:
        return left + (w * (k - 1) / (n - 1) if n > 1 else w / 2)

    def y(p: float) -> float:
        return top + h * (1 - p)

    parts = [
        f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'xmlns="http://www.w3.org/2000/svg" style="overflow:visible">',
        "<title>precision@k by rank</title>",
    ]
    for tick in (0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{left + w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'stroke="currentColor" stroke-opacity="0.2"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{tick:.1f}</text>'
        )
    points = []
    for k, v in enumerate(items, start=1):
        p = v.get("precision_at_k")
        p = 0.0 if not isinstance(p, int | float) or math.isnan(p) else float(p)
        points.append((k, p, v.get("verdict") == "yes"))
    path = " ".join(f"{x(k):.1f},{y(p):.1f}" for k, p, _ in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#0072B2" stroke-width="2"/>')
    for k, p, rel in points:
        fill = "#0072B2" if rel else "none"
        label = "relevant" if rel else "not relevant"
        parts.append(
            f'<circle cx="{x(k):.1f}" cy="{y(p):.1f}" r="4" fill="{fill}" stroke="#0072B2" '
            f'stroke-width="2"><title>rank {k}: {label}, precision@{k} = {two_places(p)}</title></circle>'
        )
        if n <= 12 or k in (1, n) or k % 5 == 0:
            parts.append(
                f'<text x="{x(k):.1f}" y="{top + h + 17}" font-size="11" '
                f'text-anchor="middle">{k}</text>'
            )
    parts.append(
        f'<text x="{left + w / 2:.1f}" y="{height - 2}" font-size="11" text-anchor="middle">'
        "rank k (filled = relevant chunk)</text>"
        f'<text x="10" y="{top + h / 2:.1f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 10 {top + h / 2:.1f})">precision@k</text></svg>'
    )
    return "".join(parts)


def row_precision_figure(prec: list[dict[str, Any]], name: str, theme: str = "light") -> Any:
    """One row's precision@k by rank as a small plotly figure (the explorer draws it).

    Parameters
    ----------
    prec : list of dict
        The row's context-precision verdicts.
    name : str
        Row name for the title (escaped here).
    theme : {"light", "dark"}, default "light"

    Returns
    -------
    plotly.graph_objects.Figure or None
        One ``precision@k`` trace (dots for relevant chunks, crosses for the others), or
        ``None`` when the row has no verdicts.

    Examples
    --------
    >>> fig = row_precision_figure([{"index": 0, "verdict": "no", "precision_at_k": 0.0},
    ...                             {"index": 1, "verdict": "yes", "precision_at_k": 0.5}], "r1")
    >>> list(fig.data[0].y), list(fig.data[0].marker.symbol)
    ([0.0, 0.5], ['x', 'circle'])
    """
    items = sorted(prec, key=lambda v: int(v.get("index", 0)))
    if not items:
        return None
    from ragnotebook.views._deps import plotly_go

    go = plotly_go()

    ks = [int(v["index"]) + 1 for v in items]
    ps = [float(v.get("precision_at_k", float("nan"))) for v in items]
    rel = [v.get("verdict") == "yes" for v in items]
    fig = go.Figure(
        go.Scatter(
            x=ks,
            y=ps,
            mode="lines+markers",
            name="precision@k",
            line={"color": VERDICT_COLORS["yes"], "width": 2},
            marker={
                "size": 10,
                "color": [VERDICT_COLORS["yes"] if r else VERDICT_COLORS["no"] for r in rel],
                "symbol": ["circle" if r else "x" for r in rel],
            },
            hoverinfo="text",
            hovertext=[
                f"rank {k}: {'relevant' if r else 'not relevant'}, precision@{k} = {two_places(p)}"
                for k, p, r in zip(ks, ps, rel, strict=True)
            ],
        )
    )
    title = f"Precision@k of row {plotly_text(name)} (● relevant, ✕ not)"
    style_figure(fig, title, theme, height=240)
    fig.update_layout(width=720)
    fig.update_layout(margin={"t": 50, "b": 45})
    fig.update_xaxes(title_text="rank k", dtick=1 if len(ks) <= 20 else None)
    fig.update_yaxes(title_text="precision@k", range=[-0.05, 1.05])
    return fig
