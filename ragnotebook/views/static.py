"""``explore()`` and its static fallback: HTML that needs neither widgets nor JavaScript.

:func:`explore` returns the :class:`~ragnotebook.views.explorer.Explorer` widget inside a
Jupyter kernel with ipywidgets installed, and a :class:`StaticExplorer` otherwise, so a
plain Python console or a notebook viewer without a widget front end shows a readable
view instead of a widget's text repr. The summary table and the per-row drill-down
built here are also the report's.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views.static import explore
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> view = explore(scored)            # not in a kernel: the static view
>>> view._repr_html_().count("<details class=\\"rnb-row\\"")
48
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook import frame
from ragnotebook._warn import warn_user
from ragnotebook.frame import require_scored
from ragnotebook.views._data import (
    METRIC_LABELS,
    MISSING_GROUP,
    STATUS_ORDER,
    ViewCall,
    check_count,
    group_keys,
    resolve_metric,
    row_gists,
    row_labels,
    row_names,
    score_at,
    score_table,
    with_columns,
)
from ragnotebook.views._detail import DETAIL_CSS, group_heading, row_detail_html, row_heading
from ragnotebook.views._html import escape, shorten, two_places
from ragnotebook.views._row import ROW_LEGEND, in_kernel, short_score

__all__ = [
    "ROW_LEGEND",
    "StaticExplorer",
    "explore",
    "rows_html",
    "summary_html",
    "widget_fallback_html",
]

#: Styles of the summary table and the collapsible rows (on top of ``DETAIL_CSS``).
STATIC_CSS = """
.rnb-sum{border-collapse:collapse;font-size:13.5px;margin:6px 0 12px}
.rnb-sum th,.rnb-sum td{padding:4px 10px;border-bottom:1px solid rgba(127,127,127,.3);
text-align:right}
.rnb-sum th:first-child,.rnb-sum td:first-child{text-align:left}
details.rnb-row{border:1px solid rgba(127,127,127,.35);border-radius:6px;margin:6px 0;
padding:4px 10px}
details.rnb-row>summary{cursor:pointer;padding:4px 0;font-size:14px;line-height:1.4}
details.rnb-row>summary .rnb-sc{font-family:ui-monospace,Menlo,Consolas,monospace;
font-size:12.5px;white-space:pre;opacity:.9}
details.rnb-row[open]>summary{border-bottom:1px solid rgba(127,127,127,.3);margin-bottom:6px}
"""


def summary_html(df: pd.DataFrame) -> str:
    """The per-metric summary (:func:`ragnotebook.summary`) as an HTML table.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.

    Returns
    -------
    str
        A ``<table class="rnb-sum">``: mean over scored rows, scored rows, and the
        count of each status that occurs. ``no answer`` counts the rows
        :func:`ragnotebook.summary` reports as ``no_answer`` (status ``no_claims``, answer
        missing, not scored), and ``no claims`` only the measured ones (summary()'s
        ``no_claims`` minus ``no_answer``), and ``not run`` (a column only when some
        metric has such rows) the rows the metric never scored (summary()'s ``not_run``),
        so the status columns add up to the rows.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> from ragnotebook.views.static import summary_html
    >>> df = pd.DataFrame({"question": ["q", "r", "s"],
    ...                    "answer": ["Sky is blue.", "I don't know.", None],
    ...                    "contexts": [["Sky is blue."]] * 3})
    >>> html = summary_html(ragnotebook.faithfulness(df, model="offline", progress=False))
    >>> "<td>faithfulness</td><td>0.50</td><td>2/3</td><td>1</td><td>1</td><td>1</td>" in html
    True
    >>> [h.split(">")[-1] for h in html.split("</th>")[3:6]]
    ['ok', 'no claims', 'no answer']
    """
    s = frame.summary(df).copy()
    # summary()'s no_claims counts the unanswered rows too; here they are a column of
    # their own, so the status columns add up to the rows and the scored count is ok + no
    # claims + no context (ok alone for context precision, whose no_context is unscored)
    s["no_claims"] = s["no_claims"] - s["no_answer"]
    statuses = [c for c in (*STATUS_ORDER, "missing_verdicts") if c in s.columns and s[c].sum()]
    head = "".join(
        f'<th title="{escape(_COLUMN_HELP[c])}">{escape(c.replace("_", " "))}</th>'
        if c in _COLUMN_HELP
        else f"<th>{escape(c.replace('_', ' '))}</th>"
        for c in statuses
    )
    rows = []
    for m, r in s.iterrows():
        mean = "—" if pd.isna(r["mean"]) else two_places(r["mean"])
        cells = "".join(f"<td>{int(r[c])}</td>" for c in statuses)
        rows.append(
            f"<tr><td>{METRIC_LABELS.get(str(m), escape(m))}</td><td>{mean}</td>"
            f"<td>{escape(r['scored'])}</td>{cells}</tr>"
        )
    return (
        '<table class="rnb-sum"><thead><tr><th>metric</th><th>mean (scored rows)</th>'
        f"<th>scored / rows</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def group_positions(keys: list[str]) -> list[tuple[str, list[int]]]:
    """``(group, row positions)`` in sorted order of the groups, the missing one last."""
    found: dict[str, list[int]] = {}
    for pos, key in enumerate(keys):
        found.setdefault(key, []).append(pos)
    order = sorted(found, key=lambda k: (k == MISSING_GROUP, k))
    return [(k, found[k]) for k in order]


def group_means(
    df: pd.DataFrame, keys: list[str]
) -> list[tuple[str, int, list[tuple[str, str, str]]]]:
    """(group, its rows, [(metric, mean as shown, scored)]) per group, in
    :func:`group_positions` order: :func:`ragnotebook.summary` on the group's rows, the
    mean with two decimals ("—" when no row was scored)."""
    out = []
    for key, positions in group_positions(keys):
        s = frame.summary(df.iloc[positions])
        means = [
            (str(m), "—" if pd.isna(r["mean"]) else two_places(r["mean"]), str(r["scored"]))
            for m, r in s.iterrows()
        ]
        out.append((key, len(positions), means))
    return out


def summary_by_html(df: pd.DataFrame, by: str, keys: list[str]) -> str:
    """One line per group of rows: each metric's mean over the group's scored rows.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    by : str
        The grouping column's name (the table's first heading).
    keys : list of str
        Each row's group (:func:`ragnotebook.views._data.group_keys`).

    Returns
    -------
    str
        A ``<table class="rnb-sum rnb-by">``: the group, its rows, and per metric
        ``mean (scored/rows)`` as :func:`ragnotebook.summary` computes them on the group's
        rows (``—`` when none was scored). Groups sorted, ``(missing)`` last.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> from ragnotebook.views.static import summary_by_html
    >>> df = pd.DataFrame({"question": ["q"] * 3, "system": ["B", "A", "A"],
    ...                    "answer": ["Sky is blue.", "Sky is blue.", "Grass is red."],
    ...                    "contexts": [["Sky is blue."]] * 3})
    >>> s = ragnotebook.faithfulness(df, model="offline", progress=False)
    >>> html = summary_by_html(s, "system", ["B", "A", "A"])
    >>> '>A</td><td>2</td><td>0.50 (2/2)</td></tr><tr><td dir="auto">B</td>' in html
    True
    """
    metrics = require_scored(df)
    head = "".join(f"<th>{METRIC_LABELS.get(m, escape(m))}</th>" for m in metrics)
    lines = []
    for key, n, means in group_means(df, keys):
        cells = "".join(f"<td>{mean} ({escape(scored)})</td>" for _, mean, scored in means)
        lines.append(f'<tr><td dir="auto">{escape(key)}</td><td>{n}</td>{cells}</tr>')
    return (
        f'<table class="rnb-sum rnb-by"><thead><tr><th dir="auto">{escape(by)}</th>'
        f"<th>rows</th>{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>"
    )


#: Hover help of the status columns that are easy to misread.
_COLUMN_HELP = {
    "no_context": "no chunks were retrieved: a measured 0 for context recall and "
    "faithfulness (scored); context precision is undefined without chunks, so not scored",
    "no_claims": "an answer with no claim to check (e.g. a refusal): a measured 0, scored",
    "no_answer": "status no_claims, but the answer is missing: not scored, left out of the "
    "mean (summary()'s no_answer; its no_claims counts these rows too)",
    "missing_verdicts": "items counted against because the judge gave no valid verdict",
    "not_run": "rows with no status for this metric: it never ran on them (a frame "
    "concatenated from runs of different metrics); not scored, not errors (summary()'s "
    "not_run)",
}


def rows_html(
    df: pd.DataFrame,
    positions: Any = None,
    *,
    curve: bool = True,
    groups: list[str] | None = None,
) -> str:
    """Collapsible ``<details>`` drill-down sections, one per row.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    positions : sequence of int, optional
        Row positions to include, in order (default: all).
    curve : bool, default True
        Include each row's inline SVG precision@k curve.
    groups : list of str, optional
        Each row's group (:func:`ragnotebook.views._data.group_keys`), shown on its
        summary line after its name and in its heading.

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["<b>q</b>"], "answer": ["Sky is blue."],
    ...                    "contexts": [["Sky is blue."]]})
    >>> html = rows_html(ragnotebook.faithfulness(df, model="offline", progress=False))
    >>> html.count("rnb-row"), "&lt;b&gt;q&lt;/b&gt;" in html
    (1, True)
    """
    metrics = require_scored(df)
    table = score_table(df)
    names, questions = row_names(df), row_gists(df)  # no question: "answer: ..."
    labels = row_labels(df)
    positions = range(len(df)) if positions is None else positions
    codes = {"context_recall": "R", "context_precision": "P", "faithfulness": "F"}
    tags = group_tags(groups, positions)
    parts = []
    for pos in positions:
        scores = "  ".join(
            f"{codes[m]} {short_score(*score_at(table, m, pos)):>5}" for m in metrics
        )
        pad = " " * max(0, 6 - len(names[pos]))
        heading = row_heading(pos, len(df), labels[pos]) + group_heading(groups, pos)
        parts.append(
            f'<details class="rnb-row" id="row-{pos}" data-row="{pos}"><summary>'
            f'<span class="rnb-sc"><span dir="auto" title="{escape(labels[pos])}">'
            f"{escape(names[pos])}</span>{pad}{tags.get(pos, '')} {escape(scores)}</span>  "
            f'<span dir="auto">{escape(shorten(questions[pos], 140))}</span></summary>'
            f'<div class="rnb"><h4>{heading}</h4></div>'
            f"{row_detail_html(df, pos, table=table, curve=curve)}</details>"
        )
    return "".join(parts)


def group_tags(groups: list[str] | None, positions: Any) -> dict[int, str]:
    """The group shown on each row's summary line: `` [A]`` padded to the widest of
    ``positions`` (the line is monospace; a long group is shortened, whole in the
    ``title``), by position; empty without groups."""
    if groups is None:
        return {}
    shown = {int(p): shorten(groups[int(p)], 24) for p in positions}
    width = max((len(g) for g in shown.values()), default=0)
    return {
        p: f' <span class="rnb-grp" dir="auto" title="{escape(groups[p])}">[{escape(g)}]</span>'
        + " " * (width - len(g))
        for p, g in shown.items()
    }


class StaticExplorer:
    """A read-only HTML view of a scored frame, shown where widgets cannot render.

    Displays the summary table and one collapsible section per row (the same detail as
    the explorer widget). Rows can be ordered worst first by a metric.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    max_rows : int or None, default 200
        Include at most this many rows (the page says how many were left out); ``0``
        shows the summary table only, ``None`` every row.
    sort_by : str, optional
        A metric (or an alias :func:`ragnotebook.evaluate` accepts, such as
        ``"recall"``): order rows by it, lowest first (unscored rows last).
    widgets_missing : bool, default False
        The page says ipywidgets is not installed and how to install it (set by
        :func:`explore` inside a Jupyter kernel without ipywidgets).
    by : str, optional
        A column whose values group the rows (the system, retriever or prompt of each
        row): the view adds a table of each group's means and shows every row's group.
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them.

    Raises
    ------
    ValueError
        If ``max_rows`` is negative or not a whole number, ``sort_by`` is not a
        metric scored in the frame ("unknown metric ..." for a name that is no metric),
        or ``by`` is not a column.

    Examples
    --------
    >>> import ragnotebook
    >>> from ragnotebook.views import StaticExplorer
    >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                        progress=False)
    >>> view = StaticExplorer(s, max_rows=5, sort_by="faithfulness")
    >>> html = view._repr_html_()
    >>> html.count('class="rnb-row"'), "first 5 of 48 rows" in html
    (5, True)
    """

    def __init__(
        self,
        df: pd.DataFrame,
        *,
        max_rows: int | None = 200,
        sort_by: str | None = None,
        widgets_missing: bool = False,
        columns: Mapping[str, str | None] | None = None,
        by: str | None = None,
    ) -> None:
        self._metrics = require_scored(df)
        self.by = by
        self._groups = group_keys(df, by, "StaticExplorer()")
        df = with_columns(df, columns, "StaticExplorer()")
        with ViewCall("StaticExplorer()", df):  # a frame that lost its column names: said
            pass
        self._df = df
        limit = check_count(max_rows, "max_rows", 0, allow_none=True)
        self.max_rows = len(df) if limit is None else limit
        order = np.arange(len(df))
        if sort_by is not None:
            sort_by = resolve_metric(sort_by, self._metrics, "sort_by")
            score = score_table(df)[sort_by].to_numpy()
            order = order[np.lexsort((order, score, np.isnan(score)))]
        self.positions = [int(p) for p in order[: self.max_rows]]
        self.sort_by = sort_by
        self.widgets_missing = bool(widgets_missing)
        self._stands_in = False  # the explorer widget's text/html copy (widget_fallback_html)

    def to_html(self) -> str:
        """The view as an HTML fragment (styles included, no scripts).

        Returns
        -------
        str

        Examples
        --------
        >>> import ragnotebook
        >>> from ragnotebook.views import StaticExplorer
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> "<script" in StaticExplorer(s).to_html()
        False
        """
        n = len(self._df)
        shown = len(self.positions)
        order = f", worst {METRIC_LABELS[self.sort_by]} first" if self.sort_by else ""
        if shown == 0 and n:
            note = f"no rows listed (max_rows=0) of {n} rows"
        elif shown < n:
            note = f"first {shown} of {n} rows{order}"
        else:
            note = f"all {n} rows{order}"
        if self.widgets_missing:
            why = (
                "ipywidgets is not installed, so this is a read-only view: click a row to "
                "open it. <code>pip install 'ragnotebook[widgets]'</code> and restart the "
                "kernel for the interactive explorer"
            )
        elif self._stands_in:
            why = (
                "This is the read-only copy of the explorer widget, shown where the widget "
                "cannot run (a saved notebook opened without its kernel or widget state, "
                "GitHub, a notebook converted to HTML): click a row to open it. Run the cell "
                "again for the interactive explorer, or "
                "<code>df.rag.explore(mode='static', max_rows=None)</code> for every row"
            )
        else:
            why = (
                "No widget front end was found, so this is a read-only view: click a row "
                "to open it. In Jupyter with ipywidgets, <code>df.rag.explore()</code> gives "
                "the interactive explorer"
            )
        return (
            f"<style>{DETAIL_CSS}{STATIC_CSS}</style><div class='rnb'>"
            "<h3 style='margin:4px 0'>ragnotebook explorer (static view)</h3>"
            f"<div class='rnb-meta'>{escape(note)}. {why}; "
            "<code>df.rag.report('report.html')</code> writes a shareable file.</div>"
            f"<div class='rnb-meta'>{escape(ROW_LEGEND)}</div>"
            f"{summary_html(self._df)}{self._by_html()}</div>"
            f"{rows_html(self._df, self.positions, groups=self._groups)}"
        )

    def _by_html(self) -> str:
        if self.by is None or self._groups is None:
            return ""
        return (
            f"<div class='rnb-meta'>By {escape(self.by)}:</div>"
            f"{summary_by_html(self._df, self.by, self._groups)}"
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        s = frame.summary(self._df)
        lines = [f"ragnotebook static explorer: {len(self._df)} rows"]
        for m, r in s.iterrows():
            mean = "—" if pd.isna(r["mean"]) else two_places(r["mean"])
            lines.append(f"  {METRIC_LABELS.get(str(m), m):<18} mean {mean}  scored {r['scored']}")
        if self.by is not None and self._groups is not None:
            lines.append(f"By {self.by} (mean, scored / rows):")
            for key, _, means in group_means(self._df, self._groups):
                cells = "  ".join(
                    f"{METRIC_LABELS.get(m, m)} {mean} ({scored})" for m, mean, scored in means
                )
                lines.append(f"  {shorten(key, 24):<24}  {cells}")
        lines.append("Display it in a notebook for the HTML view, or call .to_html().")
        return "\n".join(lines)


#: Rows the explorer widget's read-only copy lists (:func:`widget_fallback_html`): enough
#: to read, few enough to keep a saved notebook small (a row carries its chunks).
FALLBACK_ROWS = 10


def widget_fallback_html(
    df: pd.DataFrame, *, sort_by: str | None = None, by: str | None = None
) -> str:
    """The explorer widget's read-only copy, for the ``text/html`` entry of its display.

    A notebook keeps every entry of an output's display: where the widget cannot run (a
    saved notebook on GitHub, converted by nbconvert without widget state, opened without
    its kernel) the viewer shows this HTML instead of the widget's text repr; front ends
    that run the widget (JupyterLab, Notebook 7, VS Code) show the widget. It is the
    static view (:class:`StaticExplorer`) of the first :data:`FALLBACK_ROWS` rows, worst
    first by ``sort_by``, saying it stands in for the widget. Nothing is warned: the
    explorer warned when it was built.

    Parameters
    ----------
    df : pandas.DataFrame
        The explorer's frame (its ``columns=`` applied).
    sort_by : str, optional
        A scored metric: rows worst first by it.
    by : str, optional
        The explorer's grouping column.

    Returns
    -------
    str
        An HTML fragment (styles included, no scripts).

    Examples
    --------
    >>> import ragnotebook
    >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                        progress=False)
    >>> html = widget_fallback_html(s)
    >>> html.count('class="rnb-row"'), "read-only copy of the explorer widget" in html
    (10, True)
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        view = StaticExplorer(df, max_rows=FALLBACK_ROWS, sort_by=sort_by, by=by)
        view._stands_in = True
        return view.to_html()


def _widgets_available() -> bool:
    return importlib.util.find_spec("ipywidgets") is not None


def explore(
    df: pd.DataFrame,
    *,
    mode: str = "auto",
    page_size: int = 50,
    max_rows: int = 200,
    sort_by: str | None = None,
    theme: str = "light",
    columns: Mapping[str, str | None] | None = None,
    by: str | None = None,
) -> Any:
    """Browse a scored frame: the explorer widget, or a static HTML view.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    mode : {"auto", "widget", "static"}, default "auto"
        ``"auto"`` gives the widget inside a Jupyter kernel with ipywidgets importable,
        else the static view; the others force one.
    page_size : int, default 50
        Widget: rows rendered per page of the list (at least 1).
    max_rows : int or None, default 200
        Static view: rows included (``0``: the summary table only; ``None``: all).
    sort_by : str, optional
        Order the rows by this metric, lowest first, unscored rows last (the widget's
        **Sort** control starts there and can be changed). Metric names and the aliases
        :func:`ragnotebook.evaluate` accepts (``"recall"``, ``"precision"``, ...).
    theme : {"light", "dark"}, default "light"
        Widget: theme of its ``curve_figure`` (the plotly version of the row's
        precision@k curve; the curve shown is an SVG in the page's text colour).
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them.
    by : str, optional
        A column whose values group the rows (``"system"`` for several systems' rows in
        one frame): every row shows its group, the widget gets a **Group** filter, and
        the static view a table of each group's means.

    Returns
    -------
    Explorer or StaticExplorer

    Warns
    -----
    UserWarning
        With ``mode="auto"`` inside a Jupyter kernel where ipywidgets is not installed:
        the static view is returned, and the warning says how to install the extra.

    UserWarning
        Once, when the verdict columns hold text (a scored frame read back from CSV): they
        are parsed, and the warning says how to keep the types.

    UserWarning
        Once, when the question, answer, contexts or ground-truth column is not found in a
        frame without run metadata (read back from JSON Lines or CSV) though the scores
        need it or a column looks like it, or the column with the usual name is empty in
        every row while another column looks like it: it names them and the ``columns=``
        to pass.

    Raises
    ------
    ValueError
        If ``columns`` names an unknown role or a column not in the frame, ``mode`` is
        unknown, the frame has no scores, ``page_size`` is below 1,
        ``max_rows`` is negative, ``sort_by`` is not a metric scored in the frame, or
        ``by`` is not a column (whatever the mode).

    Examples
    --------
    >>> import ragnotebook
    >>> from ragnotebook.views import explore
    >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                        progress=False)
    >>> type(explore(s, mode="widget")).__name__, type(explore(s)).__name__
    ('Explorer', 'StaticExplorer')
    >>> explore(s, mode="widget", sort_by="recall").sort_by.value
    'context_recall:asc'
    """
    metrics = require_scored(df)
    if mode not in ("auto", "widget", "static"):
        raise ValueError(f"mode must be 'auto', 'widget' or 'static', got {mode!r}")
    check_count(page_size, "page_size", 1)
    check_count(max_rows, "max_rows", 0, allow_none=True)
    if sort_by is not None:
        sort_by = resolve_metric(sort_by, metrics, "sort_by")
    group_keys(df, by, "explore()")
    df = with_columns(df, columns, "explore()")
    with ViewCall("explore()", df):
        return _explore(df, mode, page_size, max_rows, sort_by, theme, by)


def _explore(
    df: pd.DataFrame,
    mode: str,
    page_size: int,
    max_rows: int | None,
    sort_by: str | None,
    theme: str,
    by: str | None = None,
) -> Any:
    if mode == "auto" and in_kernel() and not _widgets_available():
        warn_user(
            "ipywidgets is not installed, so explore() shows the static view; "
            "pip install 'ragnotebook[widgets]' and restart the kernel for the "
            "interactive explorer"
        )
        return StaticExplorer(df, max_rows=max_rows, sort_by=sort_by, widgets_missing=True, by=by)
    if mode == "static" or (mode == "auto" and not (_widgets_available() and in_kernel())):
        return StaticExplorer(df, max_rows=max_rows, sort_by=sort_by, by=by)
    from ragnotebook.views.explorer import Explorer

    return Explorer(df, page_size=page_size, sort_by=sort_by, theme=theme, by=by)
