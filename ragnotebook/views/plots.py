"""Charts of a scored frame: precision@k by rank and the score distributions.

Each function returns a :class:`plotly.graph_objects.Figure`; data strings in hover
text, tick labels and legend names are escaped (see :mod:`ragnotebook.views._html`).
:func:`missed_claims` lives in :mod:`ragnotebook.views.missed` and is re-exported here.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views.plots import scores
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> fig = scores(scored)
>>> fig.layout.title.text.startswith("Score distribution")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook import frame
from ragnotebook.frame import SCORED_STATUSES, require_scored
from ragnotebook.views._data import (
    METRIC_LABELS,
    ViewCall,
    check_count,
    column_hint,
    group_name,
    resolve_metric,
    score_table,
    status_counts,
    with_columns,
)
from ragnotebook.views._deps import plotly_go
from ragnotebook.views._html import hover_lines, isolate, plotly_text, shorten, two_places
from ragnotebook.views._style import (
    GREY,
    GROUP_COLORS,
    STATUS_COLORS,
    STATUS_LABELS,
    check_theme,
    style_figure,
)
from ragnotebook.views.missed import missed_claims

__all__ = ["missed_claims", "precision_at_k", "scores"]


def _rgba(hex_color: str, alpha: float) -> str:
    r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


#: Fill and edge of the share-relevant bars (a neutral grey, lighter than any line).
_BAR_NEUTRAL = {"light": "rgba(140,140,140,0.30)", "dark": "rgba(170,170,170,0.30)"}
_BAR_EDGE = {"light": "rgba(110,110,110,0.55)", "dark": "rgba(200,200,200,0.45)"}


def _plural(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"


def _bootstrap_ci(values: np.ndarray, rng: np.random.Generator, n_boot: int = 1000) -> tuple:
    if len(values) < 2:
        return float(values.mean()), float(values.mean())
    idx = rng.integers(0, len(values), size=(n_boot, len(values)))
    means = values[idx].mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def _groups(plain: pd.DataFrame, by: str | None) -> list[tuple[str, np.ndarray]]:
    if by is None:
        return [("", np.arange(len(plain)))]
    if by not in plain.columns:
        raise KeyError(f"by={by!r} is not a column of the frame; {column_hint(plain, by)}")
    # named as the report and explorer name groups: "(missing)", blank text quoted
    keys = np.array([group_name(v) for v in plain[by].tolist()], dtype=object)
    return [(name, np.flatnonzero(keys == name)) for name in pd.unique(keys)]


def precision_at_k(
    df: pd.DataFrame,
    *,
    by: str | None = None,
    band: str = "iqr",
    per_row: bool = False,
    max_k: int | None = None,
    theme: str = "light",
    seed: int = 0,
) -> Any:
    """Mean precision@k by rank, with a band and the share of relevant chunks per rank.

    At rank k, the mean is over rows that retrieved at least k chunks and have a context
    precision score (status ``ok``; a ``no_context`` row retrieved nothing and has no
    score, and ``no_reference``, ``error`` and not-run rows have none either).

    Parameters
    ----------
    df : pandas.DataFrame
        A frame scored with context precision.
    by : str, optional
        A column whose values split the rows into overlaid groups (e.g. the retriever).
    band : {"iqr", "ci"}, default "iqr"
        Shade the interquartile range of precision@k, or a 95% bootstrap confidence
        interval of its mean (seeded with ``seed``).
    per_row : bool, default False
        Also draw every row's curve as a thin grey line.
    max_k : int, optional
        Show ranks 1..max_k only (a whole number of at least 1); when some rows have more
        chunks, the subtitle says how many and how deep they go.
    theme : {"light", "dark"}, default "light"
    seed : int or None, default 0
        Seed of the bootstrap (a whole number of at least 0; None for an unseeded one).

    Returns
    -------
    plotly.graph_objects.Figure
        Per group: the band (a closed polygon), bars of the share of relevant chunks (a
        lighter, neutral colour, so they are not mistaken for the line), and the mean
        line; x is the rank k (1 = first retrieved chunk). With ``by``, the legend has
        one entry per group (its mean line; clicking it hides the group's band and bars
        too), and each group's line, band and bars sit side by side at each rank.

    Raises
    ------
    ValueError
        If the frame was not scored with context precision, ``band`` is unknown,
        ``max_k`` is not a whole number of at least 1, or ``seed`` not one of at least 0
        (the message names the parameter).
    KeyError
        If ``by`` is not a column of the frame.

    Warns
    -----
    UserWarning
        Once, when the verdict column holds text (a scored frame read back from CSV): it
        is parsed, and the warning says how to keep the types.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> from ragnotebook.views import precision_at_k
    >>> judge = ragnotebook.MockJudge(judge_chunks=[["no", "yes"], ["yes", "yes"]])
    >>> df = pd.DataFrame({"question": ["a", "b"], "ground_truth": ["a", "b"],
    ...                    "contexts": [["x", "y"], ["z", "w"]]})
    >>> scored = df.rag.context_precision(model=judge, progress=False)
    >>> line = precision_at_k(scored).data[-1]
    >>> line.name, list(line.x), list(line.y)
    ('mean precision@k', [1, 2], [0.5, 0.75])
    """
    plotly_go()  # without plotly: the ImportError naming the extra, first
    check_theme(theme)
    if band not in ("iqr", "ci"):
        raise ValueError(f"band must be 'iqr' or 'ci', got {band!r}")
    max_k = check_count(max_k, "max_k", 1, allow_none=True)
    seed = check_count(seed, "seed", 0, allow_none=True)  # type: ignore[assignment]
    if "context_precision" not in require_scored(df):
        raise ValueError("this frame was not scored with context_precision")
    if by is not None and by not in df.columns:
        raise KeyError(f"by={by!r} is not a column of the frame; {column_hint(df, by)}")
    with ViewCall("precision_at_k()", df, ["context_precision"], texts=()):
        return _precision_figure(df, by, band, per_row, max_k, theme, seed)


def _precision_figure(
    df: pd.DataFrame,
    by: str | None,
    band: str,
    per_row: bool,
    max_k: int | None,
    theme: str,
    seed: int,
) -> Any:
    go = plotly_go()
    plain = df.reset_index(drop=True)
    table = score_table(plain)
    # the rows with a precision score (frame.scored_mask): NaN for every other status
    scored_rows = np.flatnonzero(~np.isnan(table["context_precision"].to_numpy(dtype=float)))
    ch = frame.chunks(plain)
    ch = ch[ch["row"].isin(scored_rows)]
    deepest = int(ch["position"].max()) if len(ch) else 0
    beyond = 0  # rows with chunks past max_k, which the chart leaves out (said in the title)
    if max_k is not None:
        beyond = int(ch.loc[ch["position"] > max_k, "row"].nunique())
        ch = ch[ch["position"] <= max_k]
    rng = np.random.default_rng(seed)
    band_name = "interquartile range" if band == "iqr" else "95% bootstrap CI of the mean"
    fig = go.Figure()
    if per_row and len(ch):
        xs: list[Any] = []
        ys: list[Any] = []
        for _row, sub in ch.groupby("row", sort=True):
            xs += [*sub["position"].tolist(), None]
            ys += [*sub["precision_at_k"].tolist(), None]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                name="one row",
                hoverinfo="skip",
                line={"color": "rgba(140,140,140,0.35)", "width": 1},
            )
        )
    groups = [(g, rows) for g, rows in _groups(plain, by) if ch["row"].isin(rows).any()]
    dark = theme == "dark"
    # bars of grouped ranks sit side by side; each group's line and band follow its bars
    slot = 0.75 / max(1, len(groups))
    for gi, (gname, rows) in enumerate(groups):
        color = GROUP_COLORS[gi % len(GROUP_COLORS)]
        prefix = f"{plotly_text(gname)}: " if by is not None else ""
        shift = (gi - (len(groups) - 1) / 2) * slot if by is not None else 0.0
        sub = ch[ch["row"].isin(rows)]
        ks, means, lows, highs, shares, ns, n_rel = [], [], [], [], [], [], []
        for k, part in sub.groupby("position", sort=True):
            vals = part["precision_at_k"].to_numpy(dtype=float)
            vals = vals[~np.isnan(vals)]
            if not len(vals):
                continue
            lo, hi = (
                (float(np.quantile(vals, 0.25)), float(np.quantile(vals, 0.75)))
                if band == "iqr"
                else _bootstrap_ci(vals, rng)
            )
            rel = int((part["verdict"] == "yes").sum())
            ks.append(int(np.int64(k)))  # type: ignore[arg-type]
            means.append(round(float(vals.mean()), 6))
            lows.append(round(lo, 6))
            highs.append(round(hi, 6))
            ns.append(len(part))
            n_rel.append(rel)
            shares.append(round(rel / len(part), 6))
        xs_line = [round(k + shift, 6) for k in ks] if shift else ks
        head = f"<b>{plotly_text(gname)}</b>" if by is not None else ""
        grouped = by is not None
        fig.add_trace(
            go.Scatter(
                x=xs_line + xs_line[::-1],
                y=highs + lows[::-1],
                fill="toself",
                mode="lines",
                name=prefix + band_name,
                legendgroup=gname,
                showlegend=not grouped,
                hoverinfo="skip",
                fillcolor=_rgba(color, 0.34 if dark else 0.16),
                line={"width": 0, "color": color},
            )
        )
        # the bars are a lighter, neutral tone so they never read as the mean line
        bar_fill = _rgba(color, 0.22 if dark else 0.2) if grouped else _BAR_NEUTRAL[theme]
        bar_edge = _rgba(color, 0.6) if grouped else _BAR_EDGE[theme]
        fig.add_trace(
            go.Bar(
                x=ks,
                y=shares,
                name=prefix + "share of relevant chunks",
                legendgroup=gname,
                showlegend=not grouped,
                width=slot if grouped else 0.75,
                offset=(shift - slot / 2) if grouped else None,
                marker={"color": bar_fill, "line": {"color": bar_edge, "width": 1}},
                hoverinfo="text",
                hovertext=[
                    hover_lines(
                        head, f"rank {k}: {r} of {n} {_plural(n, 'chunk')} relevant ({s:.0%})"
                    )
                    for k, r, n, s in zip(ks, n_rel, ns, shares, strict=True)
                ],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=xs_line,
                y=means,
                mode="lines+markers",
                name=prefix + "mean precision@k",
                legendgroup=gname,
                line={"color": color, "width": 3},
                marker={"size": 7},
                hoverinfo="text",
                hovertext=[
                    hover_lines(
                        head,
                        f"rank {k}: mean precision@{k} = {two_places(m)}",
                        f"{band_name}: {lo:.2f}–{hi:.2f}",
                        f"rows with at least {k} {_plural(k, 'chunk')}: {n}",
                    )
                    for k, m, lo, hi, n in zip(ks, means, lows, highs, ns, strict=True)
                ],
            )
        )
    n_rows = int(ch["row"].nunique()) if len(ch) else 0
    title = (
        "Precision@k by rank"
        f"<br><sup>{n_rows} of {len(plain)} rows scored with context precision; "
        f"band: {band_name}"
        # its own line: at a notebook's width (~800 px) one line was cut off
        + ("<br>per group: line = mean, band, bars = share of relevant chunks" if by else "")
        + (
            f"<br>ranks 1–{max_k} shown: {beyond} {_plural(beyond, 'row')} "
            f"{'has' if beyond == 1 else 'have'} more chunks (up to {deepest}), left out "
            f"past rank {max_k}; max_k= shows more"
            if beyond
            else ""
        )
        + "</sup>"
    )
    style_figure(fig, title, theme, height=460)
    if beyond or by:
        fig.update_layout(margin={"t": 100 + 15 * bool(beyond and by)})  # more title lines
    if not n_rows:
        fig.add_annotation(
            text="No row could be scored with context precision: "
            "see the statuses in summary() or plot.scores()",
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
            showarrow=False,
            font={"size": 14, "color": GREY},
        )
    max_rank = int(ch["position"].max()) if len(ch) else 1
    legend: dict[str, Any] = {"orientation": "h", "y": -0.22}
    if by is not None:
        legend["title"] = {"text": f"{plotly_text(by)}: "}
    fig.update_layout(barmode="overlay", legend=legend)
    fig.update_xaxes(
        title_text="rank k (1 = first retrieved chunk)", dtick=1 if max_rank <= 20 else None
    )
    fig.update_yaxes(title_text="precision@k · share relevant (0–1)", range=[0, 1.05])
    return fig


def scores(
    df: pd.DataFrame,
    *,
    metrics: list[str] | None = None,
    kind: str = "histogram",
    bins: int = 10,
    theme: str = "light",
    columns: Mapping[str, str | None] | None = None,
) -> Any:
    """Distribution of each metric's scores, with statuses kept apart.

    The top row shows the scores of scored rows, stacked by status, so a 0 from
    ``no_claims`` or ``no_context`` is never mistaken for a 0 from a judged row; the
    bottom row counts rows by status, including those with no score at all
    (``no_ground_truth``, ``no_reference``, ``error``). Faithfulness rows whose answer is
    missing have status ``no_claims`` but are not scored (:func:`ragnotebook.summary`'s
    ``no_answer``): they get a bar of their own, "no answer", and "no claims" counts only
    the measured 0s (e.g. a refusal). Rows with no status, which the metric never scored
    (summary()'s ``not_run``: a frame concatenated from runs of different metrics), get a
    "not run" bar, never the "error" one.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    metrics : str or list of str, optional
        Metrics to show (default: all scored ones); the names or aliases
        :func:`ragnotebook.evaluate` accepts (``"recall"``, ``"precision"``, ...).
    kind : {"histogram", "strip"}, default "histogram"
        Bars of counts per score bin, or one dot per row (hover shows the question).
    bins : int, default 10
        Number of equal-width bins over 0–1 (a whole number of at least 1).
    theme : {"light", "dark"}, default "light"
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them (``kind="strip"``, whose hover shows
        the question).

    Returns
    -------
    plotly.graph_objects.Figure
        Subplots: one column per metric. Histogram traces are named by status.

    Raises
    ------
    ValueError
        If ``kind`` is unknown, a requested metric is unknown ("unknown metric 'x';
        expected one of ...") or not scored in the frame, ``metrics`` is empty, ``bins`` is
        not a whole number of at least 1 (the message names it), or ``columns`` names an
        unknown role or a column not in the frame.

    Examples
    --------
    >>> import ragnotebook
    >>> from ragnotebook.views import scores
    >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    >>> fig = scores(scored, metrics=["faithfulness"])
    >>> [(t.name, int(sum(t.y))) for t in fig.data if t.name != "rows by status"]
    [('ok', 32)]
    >>> status = next(t for t in fig.data if t.name == "rows by status")
    >>> list(status.x), list(status.y)   # the 16 rows without an answer are counted, not scored
    (['ok', 'no answer'], [32, 16])
    >>> len(scores(scored, metrics=["recall", "precision"]).layout.annotations)   # aliases
    2
    """
    plotly_go()  # without plotly: the ImportError naming the extra, first
    check_theme(theme)
    if kind not in ("histogram", "strip"):
        raise ValueError(f"kind must be 'histogram' or 'strip', got {kind!r}")
    bins = int(check_count(bins, "bins", 1))  # type: ignore[arg-type]
    present = require_scored(df)
    if metrics is None:
        metrics = present
    else:
        asked = [metrics] if isinstance(metrics, str) else list(metrics)
        if not asked:
            raise ValueError("metrics is empty; pass at least one of " + ", ".join(present))
        metrics = list(dict.fromkeys(resolve_metric(m, present, "metrics") for m in asked))
    df = with_columns(df, columns, "scores()")
    with ViewCall("scores()", df, [], texts=("question",) if kind == "strip" else ()):
        return _scores_figure(df, metrics, kind, bins, theme)


def _scores_figure(df: pd.DataFrame, metrics: list[str], kind: str, bins: int, theme: str) -> Any:
    go = plotly_go()
    from plotly.subplots import make_subplots

    table = score_table(df)
    names = [plotly_text(n) for n in _row_labels(df)]
    fig = make_subplots(
        rows=2,
        cols=len(metrics),
        row_heights=[0.7, 0.3],
        vertical_spacing=0.2,
        horizontal_spacing=0.08,
        subplot_titles=[METRIC_LABELS[m] for m in metrics],
    )
    edges = np.linspace(0.0, 1.0, bins + 1)
    shown: set[str] = set()
    for col, m in enumerate(metrics, start=1):
        score, status = table[m].to_numpy(), table[f"{m}_status"]
        # the strip's rows: the scored statuses this metric's rows hold ("ok" always),
        # not every scored status of any metric (precision is never "no claims")
        held = [
            s
            for s in SCORED_STATUSES
            if s == "ok" or ((status == s).to_numpy() & ~np.isnan(score)).any()
        ]
        if np.isnan(score).all():
            fig.add_annotation(
                text="no row scored:<br>see the statuses below",
                x=0.5,
                y=0.5 if kind == "histogram" else (len(held) - 1) / 2,
                showarrow=False,
                font={"size": 13, "color": GREY},
                row=1,
                col=col,
            )
        for si, s in enumerate(held):
            mask = (status == s).to_numpy() & ~np.isnan(score)
            if not mask.any():
                continue
            color = STATUS_COLORS[s]
            common = {"name": STATUS_LABELS[s], "legendgroup": s, "showlegend": s not in shown}
            shown.add(s)
            if kind == "histogram":
                counts = np.histogram(score[mask], bins=edges)[0]
                hover = [
                    f"{METRIC_LABELS[m]}, {STATUS_LABELS[s]}<br>score {lo:.2f}–{hi:.2f}: {c} rows"
                    for lo, hi, c in zip(edges[:-1], edges[1:], counts, strict=True)
                ]
                fig.add_trace(
                    go.Bar(
                        x=[round(float(c), 6) for c in (edges[:-1] + edges[1:]) / 2],
                        y=counts.tolist(),
                        width=1 / bins,
                        marker={"color": color, "line": {"width": 0.5, "color": color}},
                        hoverinfo="text",
                        hovertext=hover,
                        **common,
                    ),
                    row=1,
                    col=col,
                )
            else:
                rows = np.flatnonzero(mask)
                jitter = np.random.default_rng(si).uniform(-0.3, 0.3, len(rows))
                fig.add_trace(
                    go.Scatter(
                        x=score[rows],
                        y=si + jitter,
                        mode="markers",
                        marker={"color": color, "size": 7, "opacity": 0.8},
                        hoverinfo="text",
                        hovertext=[f"{names[r]}: {two_places(score[r])}" for r in rows],
                        **common,
                    ),
                    row=1,
                    col=col,
                )
        counts_by_status = status_counts(table, m)
        cats = list(counts_by_status)
        fig.add_trace(
            go.Bar(
                x=[STATUS_LABELS.get(s, s) for s in cats],
                y=[counts_by_status[s] for s in cats],
                marker={"color": [STATUS_COLORS.get(s, GREY) for s in cats]},
                name="rows by status",
                showlegend=False,
                text=[counts_by_status[s] for s in cats],
                textposition="outside",
                cliponaxis=False,
                hoverinfo="text",
                hovertext=[
                    f"{METRIC_LABELS[m]}: {_rows(counts_by_status[s])} "
                    f"{plotly_text(STATUS_LABELS.get(s, s))}{_status_note(s, m)}"
                    for s in cats
                ],
            ),
            row=2,
            col=col,
        )
        fig.update_xaxes(title_text="score (0–1)", range=[-0.03, 1.03], row=1, col=col)
        fig.update_xaxes(title_text="status", row=2, col=col)
        if kind == "strip":
            fig.update_yaxes(
                tickvals=list(range(len(held))),
                ticktext=[STATUS_LABELS[s] for s in held],
                range=[-0.6, len(held) - 0.4],
                row=1,
                col=col,
            )
        top = max(counts_by_status.values(), default=1)
        fig.update_yaxes(range=[0, top * 1.25 + 1], row=2, col=col)
    fig.update_yaxes(title_text="rows" if kind == "histogram" else "status", row=1, col=1)
    fig.update_yaxes(title_text="rows", row=2, col=1)
    title = (
        "Score distribution per metric"
        f"<br><sup>{len(df)} rows; top: scored rows by score, stacked by status; "
        "bottom: every row by status</sup>"
    )
    style_figure(fig, title, theme, height=560)
    fig.update_layout(barmode="stack", bargap=0.05, legend={"title": {"text": "status"}})
    fig.update_annotations(font={"size": 14})
    return fig


def _rows(n: int) -> str:
    return f"{n} {_plural(n, 'row')}"


def _status_note(status: str, metric: str) -> str:
    if status == "no_context" and metric == "context_precision":
        # precision is undefined without chunks: <NA>, not a 0 (frame.scored_mask)
        return " (nothing retrieved: precision is undefined, so not scored)"
    if status == "no_answer":
        return " (status no claims, but the answer is missing: not scored)"
    if status == "not_run":
        return " (no status: never scored by this metric; not an error)"
    if status in ("no_claims", "no_context"):
        return " (a measured 0)"
    if status not in SCORED_STATUSES:
        return " (not scored)"
    return ""


def _row_labels(df: pd.DataFrame) -> list[str]:
    """``label · question`` of each row for a hover (the full label: a hover has room);
    the answer where there is no question, the label alone where there is neither."""
    from ragnotebook.views._data import row_gists, row_labels

    return [
        f"{isolate(n)} · {isolate(shorten(q, 80))}" if q else isolate(n)
        for n, q in zip(row_labels(df), row_gists(df), strict=True)
    ]
