"""The missed-claims chart: per question, the claims the retrieval or the answer got wrong.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views.missed import missed_claims
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> [t.name for t in missed_claims(scored, top=5).data]
['ground-truth claim not found in chunks', 'answer claim contradicted', 'answer claim not verifiable']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook import frame
from ragnotebook.frame import require_scored
from ragnotebook.views._data import (
    ANSWER_MARK,
    METRIC_LABELS,
    ViewCall,
    check_count,
    group_keys,
    row_gists,
    row_labels,
    row_names,
    score_table,
    with_columns,
)
from ragnotebook.views._html import hover_lines, hover_text, isolate, plotly_text, shorten
from ragnotebook.views._style import ORANGE, PURPLE, VERMILLION, check_theme, style_figure

__all__ = ["empty_note", "missed_claims", "unchecked_lines"]

#: (metric, verdicts, legend name, colour) of each kind of problem claim.
_KINDS = (
    ("context_recall", ("no",), "ground-truth claim not found in chunks", VERMILLION),
    ("faithfulness", ("no",), "answer claim contradicted", PURPLE),
    ("faithfulness", ("unsure",), "answer claim not verifiable", ORANGE),
)


def _claim_list(claims: list[str], limit: int = 6) -> str:
    lines = [hover_text(f"• {c}", width=70, limit=160) for c in claims[:limit]]
    if len(claims) > limit:
        lines.append(f"… and {len(claims) - limit} more")
    return hover_lines(*lines)


def missed_claims(
    df: pd.DataFrame,
    *,
    top: int = 20,
    theme: str = "light",
    columns: Mapping[str, str | None] | None = None,
    by: str | None = None,
) -> Any:
    """Per question, the ground-truth claims not found and the answer claims not supported.

    One horizontal stacked bar per row with at least one problem claim: ground-truth
    claims the retrieved chunks do not support (context recall ``no``), answer claims
    the chunks contradict (faithfulness ``no``) and answer claims they do not mention
    (faithfulness ``unsure``). Rows are sorted worst first (most problem claims, then
    most missed ground-truth claims); hovering a bar lists its claims.

    Parameters
    ----------
    df : pandas.DataFrame
        A frame scored with context recall and/or faithfulness.
    top : int, default 20
        Show at most this many rows (a whole number of at least 1).
    theme : {"light", "dark"}, default "light"
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them.
    by : str, optional
        A column grouping the rows (``"system"``): each bar's label and hover name the
        row's group (``name · [B] · question``).

    Returns
    -------
    plotly.graph_objects.Figure
        Three bar traces (one per kind of problem, always present, possibly empty);
        ``y`` holds the row labels (``name · question``, with ``by`` ``name · [group] ·
        question``), top to bottom; a row without a question shows the start of its
        answer, ``name · answer: ...``, and one with neither only its name. The y axis
        title names what the labels show ("row · question", "row · question (or
        answer)", "row · answer" or "row", with ``by`` "group" after "row"). The subtitle counts the rows shown, and ends with a line
        per metric that did not check every row, counting those rows by why
        (:func:`unchecked_lines`: "faithfulness: 1 of 3 rows not checked (1 errored)"): no
        bar can show their claims. When no row
        has a problem claim, the figure is a short note instead (no axes, no legend): that
        every claim is supported, said only of the rows each metric checked, with the
        rows it did not check counted by why (errored, not run, no answer, no ground
        truth), or that no row could be checked (none scored, or no rows at all).

    Raises
    ------
    ValueError
        If the frame has no claim-level metric, ``top`` is not a whole number of at
        least 1, ``columns`` names
        an unknown role or a column not in the frame, or ``by`` is not a column.

    Warns
    -----
    UserWarning
        Once, when the verdict columns hold text (a scored frame read back from CSV): they
        are parsed, and the warning says how to keep the types.

    UserWarning
        Once, when the question or answer column (what the labels show) is not found in a
        frame without run metadata (read back from JSON Lines or CSV) though the scores
        need it or a column looks like it, or the column with the usual name is empty in
        every row while another column looks like it: it names them and the ``columns=``
        to pass.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> from ragnotebook.views import missed_claims
    >>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4. It has a cafe."],
    ...                    "contexts": [["The museum is on Pier 4."]]})
    >>> fig = missed_claims(ragnotebook.faithfulness(df, model="offline", progress=False))
    >>> [(t.name, list(t.x)) for t in fig.data if len(t.x)]
    [('answer claim not verifiable', [1])]
    """
    from ragnotebook.views._deps import plotly_go

    plotly_go()  # without plotly: the ImportError naming the extra, first

    check_theme(theme)
    top = int(check_count(top, "top", 1))  # type: ignore[arg-type]
    metrics = require_scored(df)
    if not {"context_recall", "faithfulness"} & set(metrics):
        raise ValueError("missed_claims needs context_recall or faithfulness scores")
    groups = group_keys(df, by, "missed_claims()")
    df = with_columns(df, columns, "missed_claims()")
    texts = ("question", "answer")  # a row without a question shows its answer
    with ViewCall("missed_claims()", df, ["context_recall", "faithfulness"], texts=texts):
        return _missed_figure(df, top, theme, groups)


def _missed_figure(df: pd.DataFrame, top: int, theme: str, groups: list[str] | None = None) -> Any:
    from ragnotebook.views._deps import plotly_go

    go = plotly_go()
    metrics = require_scored(df)
    plain = df.reset_index(drop=True)
    claims = frame.claims(plain)
    n = len(plain)
    per_kind: list[list[list[str]]] = []
    counts = np.zeros((len(_KINDS), n), dtype=int)
    for ki, (metric, verdicts, _, _) in enumerate(_KINDS):
        sel = claims[(claims["metric"] == metric) & claims["verdict"].isin(verdicts)]
        lists: list[list[str]] = [[] for _ in range(n)]
        for row, claim in zip(sel["row"].tolist(), sel["claim"].tolist(), strict=True):
            lists[int(row)].append(str(claim))
        per_kind.append(lists)
        counts[ki] = [len(x) for x in lists]
    total = counts.sum(axis=0)
    order = sorted(np.flatnonzero(total > 0), key=lambda r: (-total[r], -counts[0][r], r))
    shown = order[:top]
    # a row without a question shows the start of its answer, marked "answer: "
    names, questions = row_names(df), row_gists(df)
    full = row_labels(df)
    # an axis label is one line of plain text: each data field is isolated, so an override
    # or Arabic text in the row label cannot reorder the question after it; a row with
    # neither question nor answer shows no " · " after its name
    labels = [
        plotly_text(
            " · ".join(
                [isolate(names[r])]
                + ([] if groups is None else [f"[{isolate(shorten(groups[r], 24))}]"])
                + ([isolate(shorten(questions[r], 48))] if questions[r] else [])
            )
        )
        for r in shown
    ]
    # one bar per row: a label two rows share (a repeated index label and question, or two
    # long labels alike at both ends) gets the row's position
    repeated = {x for x in labels if labels.count(x) > 1}
    labels = [
        f"{x} (position {r})" if x in repeated else x for x, r in zip(labels, shown, strict=True)
    ]
    fig = go.Figure()
    for ki, (_, _, kind_name, color) in enumerate(_KINDS):
        keep = [i for i, r in enumerate(shown) if counts[ki][r]]
        fig.add_trace(
            go.Bar(
                orientation="h",
                x=[int(counts[ki][shown[i]]) for i in keep],
                y=[labels[i] for i in keep],
                name=kind_name,
                # the legend lists the kinds that occur, even one alone (plotly hides a
                # legend of one trace, and the colour's meaning was only in the hover)
                showlegend=bool(keep),
                marker={"color": color},
                hoverinfo="text",
                hovertext=[
                    hover_lines(
                        f"<b>{plotly_text(full[shown[i]])}</b>"
                        + ("" if groups is None else f" · {plotly_text(groups[shown[i]])}"),
                        hover_text(questions[shown[i]], width=70, limit=200),
                        f"{counts[ki][shown[i]]} × {kind_name}:",
                        _claim_list(per_kind[ki][shown[i]]),
                    )
                    for i in keep
                ],
            )
        )
    # the rows a metric could not check have no claims to show: the subtitle counts them
    unchecked = unchecked_lines(plain, metrics) if shown else []
    title = (
        "Missed and unsupported claims, worst rows first"
        f"<br><sup>{len(shown)} of {int((total > 0).sum())} rows with problem claims shown "
        f"({n} rows in all); hover a bar to read its claims"
        + "".join(f"<br>{line}" for line in unchecked)
        + "</sup>"
    )
    extra = 18 * len(unchecked)  # room for the subtitle's added lines
    style_figure(fig, title, theme, height=max(330, 190 + extra + 30 * len(shown)))
    fig.update_layout(
        barmode="stack",
        showlegend=True,
        legend={
            "orientation": "h",
            "y": 1.0,
            "yanchor": "bottom",
            "x": 0.0,
            "traceorder": "normal",
        },
        margin={"t": 150 + extra},
    )
    fig.update_yaxes(
        title_text=_axis_title([questions[r] for r in shown], groups is not None),
        autorange="reversed",
        categoryorder="array",
        categoryarray=labels,
        showgrid=False,
    )
    fig.update_xaxes(title_text="claims (count)", dtick=1 if total.max(initial=0) <= 12 else None)
    if not shown:
        # nothing to chart: a plain note, not empty axes
        lines = empty_note(plain, metrics)
        fig.update_layout(
            height=170 + 24 * len(lines),
            showlegend=False,
            margin={"t": 80, "b": 20},
            title_text=(
                f"Missed and unsupported claims<br><sup>{n} {'row' if n == 1 else 'rows'} "
                "in all</sup>"
            ),
        )
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
        fig.add_annotation(
            text="<br>".join(lines),
            showarrow=False,
            x=0.5,
            y=0.5,
            xref="paper",
            yref="paper",
            font={"size": 15},
        )
    return fig


def _axis_title(texts: list[str], grouped: bool) -> str:
    """The y axis title, naming what the bars' labels show after the row's name: the
    question, the answer (rows without a question, marked "answer: "), both, or
    neither."""
    asked = any(t and not t.startswith(ANSWER_MARK) for t in texts)
    answered = any(t.startswith(ANSWER_MARK) for t in texts)
    text = (
        "question (or answer)"
        if asked and answered
        else "question"
        if asked
        else "answer"
        if answered
        else ""
    )
    return " · ".join(["row"] + (["group"] if grouped else []) + ([text] if text else []))


#: What each claim-level metric checks, for the note of a chart with no problem claim.
_ALL_FINE = (
    ("context_recall", "every ground-truth claim was found in the chunks"),
    ("faithfulness", "every answer claim is supported by the chunks"),
)
#: How the note names rows a metric did not check, by status.
_UNCHECKED_WORDS = {
    "error": "errored",
    "not_run": "not run",
    "no_answer": "with no answer",
    "no_ground_truth": "with no ground truth",
    "no_reference": "with no reference",
}


def empty_note(df: pd.DataFrame, metrics: list[str]) -> list[str]:
    """The lines of the note :func:`missed_claims` shows when no row has a problem claim.

    "Every claim is supported" is said only of the rows a metric checked (scored: the rows
    :func:`ragnotebook.summary` counts in ``scored``); the rows it did not check are
    counted by why (errored, not run, no answer, no ground truth), and a frame with no
    rows, or none checked, says so instead.

    Parameters
    ----------
    df : pandas.DataFrame
        The scored frame.
    metrics : list of str
        Its scored metrics.

    Returns
    -------
    list of str
        Plotly pseudo-HTML lines (data-derived text escaped).

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["q"], "answer": ["Sky is blue."],
    ...                    "contexts": [["Sky is blue."]]})
    >>> empty_note(ragnotebook.faithfulness(df, model="offline", progress=False),
    ...            ["faithfulness"])
    ['No missed or unsupported claims: every answer claim is supported by the chunks.']
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # "the frame has no rows, so nothing was scored"
    ...     empty = ragnotebook.faithfulness(df.iloc[:0], model="offline", progress=False)
    >>> empty_note(empty, ["faithfulness"])
    ['The frame has no rows, so no claim was checked.']
    """
    n = len(df)
    if n == 0:
        return ["The frame has no rows, so no claim was checked."]
    table = score_table(df)
    claim_metrics = [m for m, _ in _ALL_FINE if m in metrics]
    checked = {m: int((~np.isnan(table[m].to_numpy(dtype=float))).sum()) for m in claim_metrics}
    fine = [what for m, what in _ALL_FINE if m in claim_metrics and checked[m]]
    partial = [m for m in claim_metrics if checked[m] < n]
    rows = "row" if n == 1 else "rows"
    # (one phrase per line: a plotly annotation does not wrap)
    if not fine:
        lines = [f"No claim could be checked: no row was scored by {_metric_names(claim_metrics)}."]
    elif partial:
        lines = [f"No missed or unsupported claims in the rows checked: {fine[0]}"]
    else:
        lines = [f"No missed or unsupported claims: {fine[0]}"]
    if fine:
        lines += [f"and {what}" for what in fine[1:]]
        lines[-1] += "."
    for m in partial:
        lines.append(f"{METRIC_LABELS[m]}: {checked[m]} of {n} {rows} checked ({_why(table, m)})")
    return lines


def _why(table: pd.DataFrame, metric: str) -> str:
    """The rows ``metric`` did not check (no score), counted by why: ``"1 errored, 2 with
    no answer"`` (plotly pseudo-HTML, status words escaped); ``""`` when it checked all."""
    status = table[f"{metric}_status"].to_numpy(dtype=object)
    unscored = np.isnan(table[metric].to_numpy(dtype=float))
    # a no_claims row without a score is one with no answer (summary()'s no_answer)
    kinds = pd.Series(np.where(status == "no_claims", "no_answer", status)[unscored])
    return ", ".join(
        f"{count} {plotly_text(_UNCHECKED_WORDS.get(str(kind), f'with status {kind}'))}"
        for kind, count in kinds.value_counts(sort=False).items()
    )


def unchecked_lines(df: pd.DataFrame, metrics: list[str]) -> list[str]:
    """One line per claim-level metric that did not check every row: how many it left
    unchecked, and why.

    The subtitle of a :func:`missed_claims` chart with bars ends with these lines, so
    that "worst rows" is read against the rows that could be checked; the rows are
    counted by why as in :func:`empty_note` (errored, not run, no answer, no ground truth,
    no reference).

    Parameters
    ----------
    df : pandas.DataFrame
        The scored frame.
    metrics : list of str
        Its scored metrics (only context recall and faithfulness have claims to check).

    Returns
    -------
    list of str
        ``"faithfulness: 1 of 3 rows not checked (1 errored)"`` per metric with unscored
        rows, in the order context recall, faithfulness; empty when every row was checked
        (plotly pseudo-HTML, data-derived text escaped).

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["q", "r"], "answer": ["Sky is blue.", None],
    ...                    "contexts": [["Sky is blue."]] * 2})
    >>> unchecked_lines(ragnotebook.faithfulness(df, model="offline", progress=False),
    ...                 ["faithfulness"])
    ['faithfulness: 1 of 2 rows not checked (1 with no answer)']
    """
    n = len(df)
    table = score_table(df)
    lines = []
    for m, _ in _ALL_FINE:
        if m not in metrics:
            continue
        missing = int(np.isnan(table[m].to_numpy(dtype=float)).sum())
        if missing:
            rows = "row" if n == 1 else "rows"
            lines.append(
                f"{METRIC_LABELS[m]}: {missing} of {n} {rows} not checked ({_why(table, m)})"
            )
    return lines


def _metric_names(metrics: list[str]) -> str:
    return " or ".join(METRIC_LABELS[m] for m in metrics)
