"""Compare two scored frames row by row (e.g. retrieval strategy A against B).

Rows are paired by a key column (``on=``). For each metric, the paired difference
``B - A`` is taken over pairs scored in both frames, with a seeded bootstrap
confidence interval of its mean; pairs scored in only one frame are counted and
flagged, never silently dropped.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views import compare_table
>>> a = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> b = a.assign(context_recall=a["context_recall"] * 0.5)
>>> t = compare_table(a, b, on=None)   # pair by the index
>>> int(t.loc["context_recall", "n_pairs"])
32
>>> bool(t.loc["context_recall", "mean_diff"] == -t.loc["context_recall", "mean_a"] / 2)
True
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._warn import warn_user
from ragnotebook.comparison import (
    Pairing,
    metric_stats,
    no_pairs_message,
    pair_rows,
    row_changes,
    warn_coverage,
    warn_unshared,
)
from ragnotebook.frame import require_scored
from ragnotebook.views._data import METRIC_LABELS, check_count, check_level
from ragnotebook.views._html import hover_lines, hover_text, plotly_text
from ragnotebook.views._style import GREY, ORANGE, VERMILLION, check_theme, style_figure

__all__ = ["compare", "compare_table"]

#: Changes of the pairs scored in both frames (see :func:`ragnotebook.comparison.row_changes`).
_BOTH_SCORED = ("better", "worse", "same")

#: The columns of :func:`compare_table`, from :func:`ragnotebook.comparison.metric_stats`.
_TABLE_COLUMNS = {
    "n_pairs": "n_pairs",
    "mean_a": "mean_a",
    "mean_b": "mean_b",
    "mean_diff": "mean_diff",
    "ci_low": "ci_low",
    "ci_high": "ci_high",
    "n_lost": "scored_only_a",
    "n_gained": "scored_only_b",
    "n_only_a": "unmatched_a",
    "n_only_b": "unmatched_b",
}


def _paired(
    a: pd.DataFrame,
    b: pd.DataFrame,
    on: str | None,
    n_boot: int,
    ci: float,
    seed: int,
    who: str,
) -> tuple[Pairing, pd.DataFrame]:
    """Pair the rows and compute the table (pairing and statistics from ``ragnotebook.compare``).

    Warns as :func:`ragnotebook.compare` does (repeated keys, coverage differences, rows
    with no partner, metrics scored in only one frame and so left out), naming ``who``.
    """
    ci = check_level(ci, "ci")
    n_boot = int(check_count(n_boot, "n_boot", 0))  # type: ignore[arg-type]
    seed = int(check_count(seed, "seed", 0))  # type: ignore[arg-type]
    in_a, in_b = require_scored(a), require_scored(b)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pairing = pair_rows(a, b, on)
    for w in caught:  # re-emit, pointing at the user's line rather than at ours
        warn_user(str(w.message), w.category)
    if not pairing.matched:
        raise ValueError(no_pairs_message(on, (len(a), len(b))))
    metrics = [m for m in in_a if m in in_b]
    if not metrics:
        raise ValueError(
            f"the two frames have no scored metric in common (A: {', '.join(in_a)}; "
            f"B: {', '.join(in_b)})"
        )
    warn_unshared(in_a, in_b, who)
    rows = [metric_stats(a, b, m, pairing, n_boot=n_boot, seed=seed, alpha=1 - ci) for m in metrics]
    warn_coverage(rows, who)
    stats = pd.DataFrame(rows).set_index("metric")
    table = stats[list(_TABLE_COLUMNS)].rename(columns=_TABLE_COLUMNS)
    # as ragnotebook.compare's flag: pairs scored in one frame only, or rows with no partner
    table["coverage_flag"] = stats["flag"] != ""
    return pairing, table


def compare_table(
    a: pd.DataFrame,
    b: pd.DataFrame,
    *,
    on: str | None = "question",
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Per-metric paired differences ``B - A`` with bootstrap confidence intervals.

    Parameters
    ----------
    a, b : pandas.DataFrame
        Two scored frames (A is the baseline).
    on : str or None, default "question"
        Column pairing the rows, or ``None`` to pair by the index. A role name that is
        not a column is found as :func:`ragnotebook.compare` finds it. Repeated values
        are paired by row label where both frames give them the same labels, else in
        order of appearance (first with first, ...), with a warning; rows with a
        missing value have no partner.
    n_boot : int, default 2000
        Bootstrap resamples of the pairs (a whole number of at least 0; 0 draws none, so
        the interval is the mean itself, as in :func:`ragnotebook.compare`).
    ci : float, default 0.95
        Confidence level of the interval, between 0 and 1 (exclusive).
    seed : int, default 0
        Seed of the bootstrap, a whole number of at least 0 (results are reproducible).

    Returns
    -------
    pandas.DataFrame
        Index: metric (those scored in both). Columns: ``n_pairs`` (pairs scored in
        both), ``mean_a``, ``mean_b``, ``mean_diff`` (mean of ``B - A`` over those
        pairs), ``ci_low``, ``ci_high``, ``scored_only_a``, ``scored_only_b`` (pairs
        scored in one frame only), ``unmatched_a``, ``unmatched_b`` (rows with no
        partner), ``coverage_flag`` (True when coverage differs: a pair is scored in
        only one frame, or some row has no partner; :func:`ragnotebook.compare`'s
        ``flag`` is not empty). Pairing, bootstrap and coverage are those of
        :func:`ragnotebook.compare` (its ``n_pairs``, ..., ``n_lost``, ``n_gained``,
        ``n_only_a``, ``n_only_b``).

    Raises
    ------
    KeyError
        If ``on`` is missing from a frame.
    ValueError
        If the frames share no key (with ``on=None``: no index label) or no scored
        metric, or ``n_boot``, ``ci`` or ``seed`` is out of range or not a number (the
        message names the parameter).

    Warns
    -----
    UserWarning
        As :func:`ragnotebook.compare`: when coverage differs (rows scored in one frame
        only, rows only in A or only in B), when keys repeat, and when a metric is scored
        in only one frame (it is left out; the warning names it).

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> from ragnotebook.views import compare_table
    >>> df = pd.DataFrame({"question": ["q1", "q2"], "answer": ["Sky is blue.", "Grass is red."],
    ...                    "contexts": [["Sky is blue."], ["Grass is green."]]})
    >>> a = ragnotebook.faithfulness(df, model="offline", progress=False)
    >>> b = ragnotebook.faithfulness(df.assign(answer=["Sky is blue.", "Grass is green."]),
    ...                              model="offline", progress=False)
    >>> row = compare_table(a, b).loc["faithfulness"]
    >>> int(row["n_pairs"]), float(row["mean_diff"]), bool(row["coverage_flag"])
    (2, 0.5, False)
    """
    return _paired(a, b, on, n_boot, ci, seed, "compare_table()")[1]


def compare(
    a: pd.DataFrame,
    b: pd.DataFrame,
    *,
    on: str | None = "question",
    labels: tuple[str, str] = ("A", "B"),
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
    theme: str = "light",
) -> Any:
    """Chart the paired differences ``B - A`` per metric, with bootstrap CIs.

    Grey dots are the individual pairs; the large marker is the mean difference with
    its confidence interval. Metrics whose coverage differs (some pairs scored in one
    frame only, or rows of one frame with no partner in the other) are marked with ⚠ and
    the counts are written under the axis; a warning says so too, as
    :func:`ragnotebook.compare` does.

    Parameters
    ----------
    a, b : pandas.DataFrame
        Two scored frames (A is the baseline).
    on : str or None, default "question"
        Column pairing the rows (``None``: the index); see :func:`compare_table`.
    labels : tuple of str, default ("A", "B")
        Names of the two frames in the title and hover.
    n_boot, ci, seed
        See :func:`compare_table`.
    theme : {"light", "dark"}, default "light"

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``pairs`` (one dot per pair and metric) and ``mean difference`` (one
        point per metric, ``error_y`` from the interval), for the metrics scored in both
        frames.

    Warns
    -----
    UserWarning
        As :func:`compare_table`: coverage differences, repeated keys, and metrics
        scored in only one frame, which are left out (named in the warning).

    Examples
    --------
    >>> import ragnotebook
    >>> from ragnotebook.views import compare
    >>> a = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    >>> fig = compare(a, a.assign(faithfulness=a["faithfulness"] * 0), on=None,
    ...               labels=("base", "zero"))
    >>> [t.name for t in fig.data]
    ['pairs', 'mean difference']
    >>> bool(fig.data[1].y[2] == -a.rag.summary().loc["faithfulness", "mean"])
    True
    """
    from ragnotebook.views._deps import plotly_go

    go = plotly_go()

    check_theme(theme)
    pairing, table = _paired(a, b, on, n_boot, ci, seed, "compare()")
    la, lb = plotly_text(labels[0]), plotly_text(labels[1])
    ticks = []
    for m, row in table.iterrows():
        flag = " ⚠" if row["coverage_flag"] else ""
        # short lines under a horizontal label: at a notebook's width (~800 px) one long
        # line per metric made plotly tilt the labels and drop the last one
        unmatched = (
            f"<br><sup>no partner: {la} {row['unmatched_a']} · {lb} {row['unmatched_b']}</sup>"
            if row["unmatched_a"] or row["unmatched_b"]
            else ""
        )
        ticks.append(
            f"{METRIC_LABELS[str(m)]}{flag}<br><sup>{row['n_pairs']} pairs</sup><br><sup>"
            f"scored only in {la} {row['scored_only_a']} · {lb} {row['scored_only_b']}</sup>"
            + unmatched
        )
    xs, ys, hovers = [], [], []
    rng = np.random.default_rng(seed)
    for i, m in enumerate(table.index):
        pairs = [r for r in row_changes(a, b, str(m), pairing) if r["change"] in _BOTH_SCORED]
        xs += (i + rng.uniform(-0.25, 0.25, len(pairs))).tolist()
        ys += [r["diff"] for r in pairs]
        hovers += [
            hover_lines(
                hover_text(r["key"], width=60, limit=160), f"{lb} − {la} = {r['diff']:+.2f}"
            )
            for r in pairs
        ]
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            name="pairs",
            hoverinfo="text",
            hovertext=hovers,
            marker={"color": GREY, "size": 6, "opacity": 0.55},
        )
    )
    colors = [ORANGE if f else VERMILLION for f in table["coverage_flag"]]
    fig.add_trace(
        go.Scatter(
            x=list(range(len(table))),
            y=table["mean_diff"].tolist(),
            mode="markers",
            name="mean difference",
            marker={
                "color": "#0072B2",
                "size": 14,
                "symbol": "diamond",
                "line": {"color": colors, "width": [3 if f else 0 for f in table["coverage_flag"]]},
            },
            error_y={
                "type": "data",
                "symmetric": False,
                "thickness": 2.5,
                "width": 10,
                "array": (table["ci_high"] - table["mean_diff"]).tolist(),
                "arrayminus": (table["mean_diff"] - table["ci_low"]).tolist(),
            },
            hoverinfo="text",
            hovertext=[
                f"{METRIC_LABELS[str(m)]}: mean {lb} − {la} = {r['mean_diff']:+.3f}<br>"
                f"{ci:.0%} bootstrap CI {r['ci_low']:+.3f} to {r['ci_high']:+.3f}<br>"
                f"{la} mean {r['mean_a']:.3f}, {lb} mean {r['mean_b']:.3f} "
                f"over {r['n_pairs']} pairs"
                for m, r in table.iterrows()
            ],
        )
    )
    fig.add_hline(y=0, line={"color": "rgba(128,128,128,0.8)", "width": 1, "dash": "dash"})
    title = (
        f"Paired differences {lb} − {la} per metric (rows paired by {plotly_text(on) if on else 'index'})"
        f"<br><sup>{ci:.0%} bootstrap CI of the mean ({n_boot} resamples, seed {seed})</sup>"
        "<br><sup>⚠ = coverage differs: pairs scored in one frame only, or rows with no "
        "partner</sup>"
    )
    style_figure(fig, title, theme, height=540)
    fig.update_xaxes(
        tickvals=list(range(len(table))),
        ticktext=ticks,
        tickangle=0,
        range=[-0.6, len(table) - 0.4],
        showgrid=False,
    )
    fig.update_yaxes(title_text=f"score difference<br>{lb} − {la}", range=[-1.05, 1.05])
    # the title block on top, the legend under it (beside it, a long subtitle ran into it)
    fig.update_layout(
        title={"y": 0.96, "yanchor": "top"},
        legend={"orientation": "h", "y": 1.01, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        margin={"t": 125, "b": 100},
    )
    return fig
