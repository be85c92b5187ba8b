"""Compare two scored frames row by row (e.g. retrieval strategy A against B).

Rows are paired by a key column (``on=``). For each metric, the paired difference
``B - A`` is taken over pairs scored in both frames, with a seeded bootstrap
confidence interval of its mean; pairs scored in only one frame are counted and
flagged, never silently dropped.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views.compare import compare_table
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

from ragnotebook.views._data import (
    METRIC_LABELS,
    SCORED_STATUSES,
    require_scored,
    score_table,
)
from ragnotebook.views._html import hover_lines, hover_text, plotly_text
from ragnotebook.views._style import GREY, ORANGE, VERMILLION, check_theme, style_figure

__all__ = ["compare", "compare_table"]


def _keyed(df: pd.DataFrame, on: str | None, side: str) -> pd.DataFrame:
    table = score_table(df)
    if on is None:
        keys = pd.Series(df.index.tolist(), dtype="object")
    elif on in df.columns:
        keys = pd.Series(df[on].tolist(), dtype="object")
    else:
        raise KeyError(f"on={on!r} is not a column of frame {side}")
    keep = keys.notna().to_numpy()
    table, keys = table[keep], keys[keep]
    if keys.duplicated().any():
        warnings.warn(
            f"{'the index' if on is None else repr(on)} repeats {int(keys.duplicated().sum())} "
            f"value(s) in frame {side}; repeated values are paired in order of appearance",
            UserWarning,
            stacklevel=4,
        )
    # (value, occurrence) keys: repeated values pair first-with-first, second-with-second
    occurrence = keys.groupby(keys.astype(str)).cumcount().tolist()
    table.index = pd.Index(list(zip(keys.tolist(), occurrence, strict=True)), tupleize_cols=False)
    return table


def _pairs(
    a: pd.DataFrame, b: pd.DataFrame, on: str | None
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    ta, tb = _keyed(a, on, "A"), _keyed(b, on, "B")
    common = ta.index.intersection(tb.index, sort=False)
    if not len(common):
        raise ValueError(f"the two frames share no value of {on!r}")
    extra = {"only_in_a": int(len(ta) - len(common)), "only_in_b": int(len(tb) - len(common))}
    return ta.loc[common], tb.loc[common], extra


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
        Column pairing the rows, or ``None`` to pair by the index. Repeated values are
        paired in order of appearance (first with first, ...), with a warning.
    n_boot : int, default 2000
        Bootstrap resamples of the pairs.
    ci : float, default 0.95
        Confidence level of the interval.
    seed : int, default 0
        Seed of the bootstrap (results are reproducible).

    Returns
    -------
    pandas.DataFrame
        Index: metric (those scored in both). Columns: ``n_pairs`` (pairs scored in
        both), ``mean_a``, ``mean_b``, ``mean_diff`` (mean of ``B - A`` over those
        pairs), ``ci_low``, ``ci_high``, ``scored_only_a``, ``scored_only_b`` (pairs
        scored in one frame only), ``unmatched_a``, ``unmatched_b`` (rows with no
        partner), ``coverage_flag`` (True when any pair is scored in only one frame).

    Raises
    ------
    KeyError
        If ``on`` is missing from a frame.
    ValueError
        If the frames share no key or no scored metric.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["q1", "q2"], "answer": ["Sky is blue.", "Grass is red."],
    ...                    "contexts": [["Sky is blue."], ["Grass is green."]]})
    >>> a = ragnotebook.faithfulness(df, model="offline", progress=False)
    >>> b = ragnotebook.faithfulness(df.assign(answer=["Sky is blue.", "Grass is green."]),
    ...                              model="offline", progress=False)
    >>> row = compare_table(a, b).loc["faithfulness"]
    >>> int(row["n_pairs"]), float(row["mean_diff"]), bool(row["coverage_flag"])
    (2, 0.5, False)
    """
    if not 0 < ci < 1:
        raise ValueError(f"ci must be between 0 and 1, got {ci}")
    return _stats(a, b, *_pairs(a, b, on), n_boot=n_boot, ci=ci, seed=seed)


def _stats(
    a: pd.DataFrame,
    b: pd.DataFrame,
    ta: pd.DataFrame,
    tb: pd.DataFrame,
    extra: dict,
    *,
    n_boot: int,
    ci: float,
    seed: int,
) -> pd.DataFrame:
    metrics = [m for m in require_scored(a) if m in require_scored(b)]
    if not metrics:
        raise ValueError("the two frames have no scored metric in common")
    rng = np.random.default_rng(seed)
    rows = []
    for m in metrics:
        ok_a = ta[f"{m}_status"].isin(SCORED_STATUSES).to_numpy() & ta[m].notna().to_numpy()
        ok_b = tb[f"{m}_status"].isin(SCORED_STATUSES).to_numpy() & tb[m].notna().to_numpy()
        both = ok_a & ok_b
        va, vb = ta[m].to_numpy()[both], tb[m].to_numpy()[both]
        diff = vb - va
        lo = hi = float("nan")
        if len(diff):
            idx = rng.integers(0, len(diff), size=(n_boot, len(diff)))
            boot = diff[idx].mean(axis=1)
            lo, hi = np.quantile(boot, [(1 - ci) / 2, 1 - (1 - ci) / 2]).tolist()
        only_a, only_b = int((ok_a & ~ok_b).sum()), int((ok_b & ~ok_a).sum())
        rows.append(
            {
                "metric": m,
                "n_pairs": int(both.sum()),
                "mean_a": float(va.mean()) if len(va) else float("nan"),
                "mean_b": float(vb.mean()) if len(vb) else float("nan"),
                "mean_diff": float(diff.mean()) if len(diff) else float("nan"),
                "ci_low": float(lo),
                "ci_high": float(hi),
                "scored_only_a": only_a,
                "scored_only_b": only_b,
                "unmatched_a": extra["only_in_a"],
                "unmatched_b": extra["only_in_b"],
                "coverage_flag": bool(only_a or only_b),
            }
        )
    return pd.DataFrame(rows).set_index("metric")


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
    its confidence interval. Metrics where some pairs are scored in one frame only are
    marked with ⚠ and the counts are written under the axis.

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
        point per metric, ``error_y`` from the interval).

    Examples
    --------
    >>> import ragnotebook
    >>> a = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    >>> fig = compare(a, a.assign(faithfulness=a["faithfulness"] * 0), on=None,
    ...               labels=("base", "zero"))
    >>> [t.name for t in fig.data]
    ['pairs', 'mean difference']
    >>> bool(fig.data[1].y[2] == -a.rag.summary().loc["faithfulness", "mean"])
    True
    """
    import plotly.graph_objects as go

    check_theme(theme)
    if not 0 < ci < 1:
        raise ValueError(f"ci must be between 0 and 1, got {ci}")
    ta, tb, extra = _pairs(a, b, on)
    table = _stats(a, b, ta, tb, extra, n_boot=n_boot, ci=ci, seed=seed)
    la, lb = plotly_text(labels[0]), plotly_text(labels[1])
    ticks = []
    for m, row in table.iterrows():
        flag = " ⚠" if row["coverage_flag"] else ""
        ticks.append(
            f"{METRIC_LABELS[str(m)]}{flag}<br><sup>{row['n_pairs']} pairs; scored only in "
            f"{la}: {row['scored_only_a']}, only in {lb}: {row['scored_only_b']}</sup>"
        )
    xs, ys, hovers = [], [], []
    rng = np.random.default_rng(seed)
    for i, m in enumerate(table.index):
        both = (
            ta[f"{m}_status"].isin(SCORED_STATUSES).to_numpy()
            & tb[f"{m}_status"].isin(SCORED_STATUSES).to_numpy()
            & ta[m].notna().to_numpy()
            & tb[m].notna().to_numpy()
        )
        keys = ta.index[both].tolist()
        diff = tb[m].to_numpy()[both] - ta[m].to_numpy()[both]
        xs += (i + rng.uniform(-0.25, 0.25, len(diff))).tolist()
        ys += diff.tolist()
        hovers += [
            hover_lines(hover_text(k[0], width=60, limit=160), f"{lb} − {la} = {d:+.2f}")
            for k, d in zip(keys, diff, strict=True)
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
        f"<br><sup>{ci:.0%} bootstrap CI of the mean ({n_boot} resamples, seed {seed}); "
        "⚠ = some pairs scored in one frame only</sup>"
    )
    style_figure(fig, title, theme, height=480)
    fig.update_xaxes(
        tickvals=list(range(len(table))),
        ticktext=ticks,
        range=[-0.6, len(table) - 0.4],
        showgrid=False,
    )
    fig.update_yaxes(title_text=f"score difference {lb} − {la} (−1 to 1)", range=[-1.05, 1.05])
    fig.update_layout(
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        margin={"b": 90},
    )
    return fig
