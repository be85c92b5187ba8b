"""The explorer widget: a filterable, sortable list of rows and the detail of one row.

Plain ipywidgets (``Text``, ``Dropdown``, ``FloatRangeSlider``, ``Select``, ``Button``,
``HTML`` in ``VBox``/``HBox``), so it works wherever ipywidgets render (JupyterLab,
Notebook 7, VS Code) without extra front-end extensions and without plotly: the row's
precision@k curve is the inline SVG the static view and the report draw (each dot's
tooltip gives its rank, verdict and precision@k). There is no ``Output`` widget, so
nothing the explorer shows is drawn by sending output from the kernel (tools that run
notebooks through nbclient answer each such output on the shell socket and can then
miss a cell's reply: jupyter/nbclient issue #312). Only one page of the list
(``page_size`` rows) and one row's detail are ever rendered, so large frames stay quick.
ipywidgets is imported when an :class:`Explorer` is built, not with this module.

Examples
--------
>>> import ragnotebook
>>> from ragnotebook.views.explorer import Explorer
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> ex = Explorer(scored)
>>> ex.search.value = "porterhouse"
>>> len(ex.rows)
2
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook.frame import require_scored
from ragnotebook.scorers._common import STATUSES
from ragnotebook.views._data import (
    METRIC_LABELS,
    MISSING_GROUP,
    ViewCall,
    check_count,
    group_keys,
    resolve_metric,
    row_gists,
    row_labels,
    row_names,
    score_at,
    score_table,
    status_labels,
    text_values,
    verdicts,
    with_columns,
)
from ragnotebook.views._detail import DETAIL_CSS, group_heading, row_detail_parts, row_heading
from ragnotebook.views._html import escape, isolate, replace_controls, shorten, text_width
from ragnotebook.views._row import (
    LIST_LEGEND,
    in_kernel,
    precision_svg,
    row_precision_figure,
    short_score,
)
from ragnotebook.views._style import STATUS_LABELS, check_theme

__all__ = ["Explorer", "in_kernel", "short_score"]

#: The **Status** filter's statuses: "no answer" (a ``no_claims`` row whose answer is
#: missing, not scored) right after "no claims" (the measured 0s), "not run" last.
_STATUS_OPTIONS = tuple(
    s for st in (*STATUSES, "not_run") for s in ((st, "no_answer") if st == "no_claims" else (st,))
)
_MAX_LIST_ROWS = 12
_MIN_LIST_ROWS = 2
_QUESTION_CHARS = 70
_NBSP = "\u00a0"
_GAP = _NBSP * 2
_SEP = f"{_NBSP}{_NBSP}│{_NBSP}{_NBSP}"


class _NoLabel:
    """``Explorer.select()`` called without a label (``None`` can be a real index label)."""

    def __repr__(self) -> str:
        return "<no label>"


_NO_LABEL: Any = _NoLabel()


#: A word of the text: letters, digits and underscores of any script (casefolded text).
_WORD = re.compile(r"\w+")
#: Scripts written without spaces between words (Chinese, Japanese, Korean, Thai, Lao,
#: Khmer, Myanmar): a search word in them matches inside the text, as there are no word
#: boundaries to match.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u1100-\u11ff\u3040-\u30ff\u3100-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
)

#: A letter or digit of a script written with spaces: what may not stand right before or
#: after a searched word ("pier-4" is found in "pier-4号", not in "pier-40").
_SPACED_WORD = "[^\\W" + _UNSPACED.pattern[1:]


def search_tests(query: str) -> list[Any]:
    """What each word of a search must match, all of them in one row.

    The query is read in Unicode NFKC form and casefolded (full-width ``１２０`` is
    ``120``), then split at whitespace; outer punctuation of a word is dropped
    (``"pallets."`` is ``pallets``). A plain word must be a whole word of the row (``"6"``
    is not found in ``"60"``); a word with inner punctuation (``"pier-4"``, ``"3.5"``)
    must occur with no letter or digit right before or after it; a word in a script
    written without spaces (Chinese, Japanese, Korean, Thai, ...) or made of punctuation
    only may occur anywhere. Such a script also ends a Latin word: ``"amazon"`` is a word
    of ``"amazonで"`` and ``"s24"`` one of ``"s24는"`` (see :func:`row_words`).

    Parameters
    ----------
    query : str
        The search box's text.

    Returns
    -------
    list
        Per word, a ``frozenset`` of words (all must be in :func:`row_words` of the row)
        or a predicate on the row's text as :func:`search_text` gives it.

    Examples
    --------
    >>> from ragnotebook.views.explorer import search_tests
    >>> tests = search_tests("Depot 6")
    >>> tests
    [frozenset({'depot'}), frozenset({'6'})]
    >>> text = "depot 6 ships 60 pallets"
    >>> [t <= set(text.split()) for t in tests]
    [True, True]
    >>> [t("東京の港") for t in search_tests("東京")], [t("pier-4 a") for t in search_tests("Pier-4")]
    ([True], [True])
    >>> search_tests("Amazon")[0] <= row_words(search_text("予約はAmazonで"))
    True
    >>> [t(search_text("価格は１２０円です")) for t in search_tests("120円")]
    [True]
    """
    tests: list[Any] = []
    for raw in search_text(query).split():
        word = _OUTER_PUNCT.sub("", raw) or raw
        if _UNSPACED.search(word) or not _WORD.search(word):
            tests.append(lambda text, w=word: w in text)
        elif _WORD.fullmatch(word):
            tests.append(frozenset({word}))
        else:
            bounded = re.compile(rf"(?<!{_SPACED_WORD}){re.escape(word)}(?!{_SPACED_WORD})")
            tests.append(lambda text, r=bounded: r.search(text) is not None)
    return tests


#: Invisible characters left out of searched text (and of the words searched for).
_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")


def search_text(text: str) -> str:
    """Text as the explorer's search compares it: Unicode NFKC form, casefolded, without
    zero-width characters (U+200B-U+200D, U+2060, U+FEFF: invisible, they would split a
    word a reader sees whole).

    Parameters
    ----------
    text : str

    Returns
    -------
    str

    Examples
    --------
    >>> from ragnotebook.views.explorer import search_text
    >>> search_text("Ｓ２４ Straße"), search_text("zero\u200bwidth")
    ('s24 strasse', 'zerowidth')
    """
    return _ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text)).casefold()


def row_words(text: str) -> frozenset[str]:
    """The whole words of a row's search text (:func:`search_text`).

    Words are runs of letters, digits and underscores; a character of a script written
    without spaces (Chinese, Japanese, Korean, Thai, ...) ends a word, so a Latin name
    written against it is a word of its own (those scripts are searched as substrings).

    Parameters
    ----------
    text : str
        Text already in :func:`search_text` form.

    Returns
    -------
    frozenset of str

    Examples
    --------
    >>> from ragnotebook.views.explorer import row_words
    >>> sorted(row_words("galaxy s24는 1월 31일에 amazonで"))
    ['1', '31', 'amazon', 'galaxy', 's24']
    """
    return frozenset(_WORD.findall(_UNSPACED.sub(" ", text)))


_OUTER_PUNCT = re.compile(r"^\W+|\W+$")


def _same_label(a: Any, b: Any) -> bool:
    """``a == b`` for index labels, with NaN matching NaN and NaT matching NaT."""
    if a is b:
        return True
    try:
        if bool(a == b):
            return True
    except (TypeError, ValueError):  # labels that do not compare to a bool
        return False
    if a is pd.NaT or b is pd.NaT:
        return a is pd.NaT and b is pd.NaT
    nan_a = isinstance(a, float | np.floating) and math.isnan(a)
    nan_b = isinstance(b, float | np.floating) and math.isnan(b)
    return nan_a and nan_b


def _pad(text: str) -> str:
    """Spaces to no-break spaces, so a ``<select>`` keeps the column widths."""
    return text.replace(" ", _NBSP)


class Explorer:
    """Browse a scored frame: filter, sort and page the rows; select one to see why.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame (never modified; no judge is called).
    page_size : int, default 50
        Rows rendered in the list at a time (at least 1).
    sort_by : str, optional
        A metric (or an alias :func:`ragnotebook.evaluate` accepts, such as ``"recall"``):
        the **Sort** control starts at "worst first" by it (unscored rows last).
    theme : {"light", "dark"}, default "light"
        Theme of ``curve_figure`` (the plotly figure). The curve the explorer shows
        follows the page's text colour by itself.
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them.
    by : str, optional
        A column whose values group the rows (``"system"`` for several systems' rows in
        one frame): each row of the list and its heading show its group, and the
        **Group** control shows one group's rows.

    Raises
    ------
    ValueError
        If ``page_size`` is below 1 or not a whole number, ``sort_by`` is not a metric
        scored in the frame ("unknown metric ..." for a name that is no metric),
        ``columns`` names an unknown role or a column not in the frame, or ``by`` is not
        a column.

    Attributes
    ----------
    search, sort_by, metric, score_range, status : ipywidgets
        The controls: words to find (whole words, any case, in the row's index label,
        question, answer and ground truth; see :func:`search_tests`), sort order, the metric
        the score range and status filters apply to, the range, the status: one of the
        metric's statuses, where ``"no_claims"`` is a measured 0 (an answer with no
        checkable claim) and ``"no_answer"`` a ``no_claims`` row left unscored because its
        answer is missing (:func:`ragnotebook.summary`'s ``no_answer``), or ``"not_run"``
        (no status: the metric never ran on the row).
    group : ipywidgets.Dropdown or None
        With ``by``: "every <by>" (value ``""``, ``Explorer.ALL_GROUPS``) or one group's name
        ("(missing)" for empty cells, as the report names them; :func:`summary` labels
        that group ``NaN``); its options say how
        many rows each group has. None without ``by``.
    listing : ipywidgets.Select
        The visible page of rows; its value is the selected row's position. Its height
        follows the number of rows on the page (at most 12 lines, then it scrolls). When
        the filters match no row, nothing is selected; the row selected before is selected
        again once the filters let it through (a search that matched nothing, cleared).
    prev_row_button, next_row_button : ipywidgets.Button
        Select the previous / next row of the filtered list (crossing pages). They are
        the keyboard way through the rows in JupyterLab, where arrow keys in the list
        move the notebook's cells instead: Tab to them, then Enter or Space.
    prev_button, next_button : ipywidgets.Button
        Page through the list.
    header, detail, chunk_list : ipywidgets.HTML
        The selected row's heading; its scores, texts and claims; its chunks.
    curve : ipywidgets.HTML
        The selected row's precision@k by rank as an inline SVG (filled dots: relevant
        chunks; hover a dot for its rank, verdict and precision@k), between the claims
        and the chunks; empty when no row is selected or the row has no precision
        verdicts.
    curve_figure : plotly.graph_objects.Figure or None
        The same curve as a plotly figure, built when read (needs plotly), to show or
        save elsewhere; ``None`` as ``curve`` is empty.
    widget : ipywidgets.VBox
        The whole explorer (what a notebook displays). Displaying the explorer also gives
        a ``text/html`` read-only copy (the static view of its first 10 rows), which a
        saved notebook shows where the widget cannot run (GitHub, nbconvert without widget
        state).

    Examples
    --------
    >>> import ragnotebook
    >>> from ragnotebook.views import Explorer
    >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                             progress=False)
    >>> ex = Explorer(scored)
    >>> ex.status.value = "no_ground_truth"      # filter on context recall's status
    >>> len(ex.rows)
    16
    >>> ex.select(ex.rows[3])
    >>> ex.selected == ex.rows[3] and "Ground truth" in ex.detail_html
    True
    """

    #: the **Group** control's value for "every group": the empty string, which is never
    #: a group's name (a blank cell's group is ``"''"``)
    ALL_GROUPS: str = ""

    def __init__(
        self,
        df: pd.DataFrame,
        *,
        page_size: int = 50,
        sort_by: str | None = None,
        theme: str = "light",
        columns: Mapping[str, str | None] | None = None,
        by: str | None = None,
    ) -> None:
        try:
            import ipywidgets as w
        except ImportError as exc:  # pragma: no cover - exercised without ipywidgets only
            raise ImportError(
                "the explorer needs ipywidgets: pip install 'ragnotebook[widgets]'"
            ) from exc
        self._metrics = require_scored(df)
        self._groups = group_keys(df, by, "Explorer()")
        self._by = by
        df = with_columns(df, columns, "Explorer()")
        with ViewCall("Explorer()", df):  # a frame that lost its column names: said
            pass
        self._df = df
        self._theme = check_theme(theme)
        self._page_size = int(check_count(page_size, "page_size", 1))  # type: ignore[arg-type]
        #: the metric the rows start sorted by, worst first (None: frame order)
        self._first_sort = (
            None if sort_by is None else resolve_metric(sort_by, self._metrics, "sort_by")
        )
        first_sort = "order" if self._first_sort is None else f"{self._first_sort}:asc"
        self._table = score_table(df)
        self._labels = list(df.index)
        self._names = row_names(df)
        self._full = row_labels(df)
        self._name_width = max((text_width(n) for n in self._names), default=1)
        self._questions = text_values(df, "question")
        self._gists = row_gists(df)
        haystack = zip(
            [str(label) for label in self._full],  # the row's label: "B:q04", "q7"
            self._questions,
            text_values(df, "answer"),
            text_values(df, "ground_truth"),
            strict=True,
        )
        self._haystack = [search_text(" \n".join(t)) for t in haystack]
        self._words: list[frozenset[str]] | None = None  # built on the first search
        self._order = np.arange(len(df))
        self._page = 0
        self._selected: int | None = None
        # the selection the filters dropped by matching no row, until another row is shown
        self._lost: int | None = None
        self._updating = False

        sorts: list[tuple[str, str]] = [("frame order", "order")]
        for m in self._metrics:
            sorts += [(f"{METRIC_LABELS[m]}, worst first", f"{m}:asc")]
            sorts += [(f"{METRIC_LABELS[m]}, best first", f"{m}:desc")]
        wide = {"description_width": "70px"}
        self.search = w.Text(
            description="Search",
            placeholder="words in question, answer or ground truth",
            continuous_update=True,
            style=wide,
            layout=w.Layout(width="420px"),
        )
        self.sort_by = w.Dropdown(description="Sort", options=sorts, value=first_sort, style=wide)
        self.metric = w.Dropdown(
            description="Filter on",
            options=[(METRIC_LABELS[m], m) for m in self._metrics],
            style=wide,
        )
        self.score_range = w.FloatRangeSlider(
            description="Score",
            value=(0.0, 1.0),
            min=0.0,
            max=1.0,
            step=0.05,
            readout_format=".2f",
            continuous_update=False,
            style=wide,
        )
        self.status = w.Dropdown(
            description="Status",
            # no answer: a no_claims row left unscored as its answer is missing (summary()'s
            # no_answer), apart from the measured 0s of "no claims"; not run: no status,
            # the metric never scored the row (summary()'s not_run)
            options=[("any status", "any")] + [(STATUS_LABELS[s], s) for s in _STATUS_OPTIONS],
            value="any",
            style=wide,
        )
        self.group: Any = None
        self._group_width = 0
        if self._groups is not None:
            counts: dict[str, int] = {}
            for key in self._groups:
                counts[key] = counts.get(key, 0) + 1
            order = sorted(counts, key=lambda k: (k == MISSING_GROUP, k))
            self.group = w.Dropdown(
                description="Group",
                # "every" is the empty string, never a group's name (a blank cell's
                # group is "''"): ipywidgets reads an option valued None as no selection
                # and would show an empty box
                options=[(f"every {by} ({len(self._groups)})", self.ALL_GROUPS)]
                + [(f"{isolate(shorten(k, 40))} ({counts[k]})", k) for k in order],
                value=self.ALL_GROUPS,
                style=wide,
            )
            self._group_width = max(text_width(shorten(k, 24)) for k in counts) if counts else 0
        self.listing = w.Select(options=[], rows=_MAX_LIST_ROWS, layout=w.Layout(width="100%"))
        self.prev_row_button = w.Button(
            description="◀ previous row",
            tooltip="select the previous row (Enter or Space)",
            layout=w.Layout(width="140px"),
        )
        self.next_row_button = w.Button(
            description="next row ▶",
            tooltip="select the next row (Enter or Space)",
            layout=w.Layout(width="140px"),
        )
        self.prev_button = w.Button(description="previous page", layout=w.Layout(width="130px"))
        self.next_button = w.Button(description="next page", layout=w.Layout(width="130px"))
        self.page_label = w.HTML()
        self.listing.add_class("rnb-list")
        self.header = w.HTML()
        self.detail = w.HTML()
        self.curve = w.HTML()
        self.chunk_list = w.HTML()
        controls = [self.search, self.sort_by, self.metric, self.score_range, self.status]
        for control in controls + ([self.group] if self.group is not None else []):
            control.observe(self._on_filter, names="value")
        self.listing.observe(self._on_select, names="value")
        self.prev_button.on_click(lambda _: self._set_page(self._page - 1))
        self.next_button.on_click(lambda _: self._set_page(self._page + 1))
        self.prev_row_button.on_click(lambda _: self.step(-1))
        self.next_row_button.on_click(lambda _: self.step(1))
        legend = w.HTML(
            '<div style="font-size:12px;line-height:1.35;opacity:.85;margin:2px 0 4px">'
            + "<br>".join(escape(line) for line in LIST_LEGEND)
            + "</div>"
        )
        self.page_label.layout = w.Layout(margin="0 12px")
        self.widget = w.VBox(
            [
                w.HBox([self.search, self.sort_by, *([self.group] if self.group else [])]),
                w.HBox([self.metric, self.score_range, self.status]),
                legend,
                self.listing,
                w.HBox(
                    [
                        self.prev_row_button,
                        self.next_row_button,
                        w.HTML("<span style='display:inline-block;width:24px'></span>"),
                        self.prev_button,
                        self.page_label,
                        self.next_button,
                    ]
                ),
                w.HTML(f"<style>{DETAIL_CSS}</style>"),
                self.header,
                self.detail,
                self.curve,
                self.chunk_list,
            ]
        )
        self._apply()

    # ------------------------------------------------------------------ state
    @property
    def rows(self) -> list[Any]:
        """Index labels of the rows passing the filters, in the current sort order."""
        return [self._labels[p] for p in self._order]

    @property
    def positions(self) -> list[int]:
        """Positions (``df.iloc``) of the rows passing the filters, in order."""
        return [int(p) for p in self._order]

    @property
    def page(self) -> int:
        """The visible page, 0-based."""
        return self._page

    @property
    def page_count(self) -> int:
        """Number of pages of the filtered list (at least 1)."""
        return max(1, math.ceil(len(self._order) / self._page_size))

    @property
    def selected(self) -> Any:
        """Index label of the selected row, or ``None``."""
        return None if self._selected is None else self._labels[self._selected]

    @property
    def curve_figure(self) -> Any:
        """The selected row's precision@k by rank as a plotly figure, or ``None``.

        The explorer itself shows the curve as an SVG (``curve``); this builds the
        same curve as a plotly figure when read, with the explorer's ``theme``, for a
        larger view (``ex.curve_figure.show()``) or a file (``write_html``).

        Returns
        -------
        plotly.graph_objects.Figure or None
            One ``precision@k`` trace: x the 1-based rank, y precision@k, dots for
            relevant chunks and crosses for the others. ``None`` when no row is
            selected or the row has no context-precision verdicts.

        Raises
        ------
        ImportError
            When a figure is to be built and plotly is not installed (``pip install
            'ragnotebook[plot]'``).

        Examples
        --------
        >>> import ragnotebook
        >>> from ragnotebook.views import Explorer
        >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                             progress=False)
        >>> ex = Explorer(scored)         # the first row of the list is selected
        >>> list(ex.curve_figure.data[0].x)[:3]
        [1, 2, 3]
        >>> ex.search.value = "no such words anywhere"
        >>> ex.curve_figure is None       # no row matches, none is selected
        True
        """
        if self._selected is None:
            return None
        return row_precision_figure(
            verdicts(self._df, "context_precision", self._selected),
            self._names[self._selected],
            self._theme,
        )

    @property
    def detail_html(self) -> str:
        """The HTML of the selected row's detail (heading, scores, texts, claims, chunks)."""
        return f"{self.header.value}{self.detail.value}{self.chunk_list.value}"

    # ---------------------------------------------------------------- actions
    def select(self, label: Any = _NO_LABEL, *, position: int | None = None) -> None:
        """Show the detail of a row, by index label (first match) or by position.

        Any row can be selected, also one the filters (search, score range, status,
        group) leave out of the list: its detail is shown all the same, no line of the
        list is highlighted (``listing.value`` is None), and the heading says "Hidden by
        the current filters" and which ones. The filters are left as they are; once they
        let the row through, the note goes and its line is highlighted; ``step()`` from a
        hidden row goes to the first (or last) row of the list.

        Parameters
        ----------
        label : hashable, optional
            Index label of the row (``None`` too, when the index holds ``None``; NaN
            finds a NaN label, ``pd.NaT`` a NaT one, though neither equals itself).
        position : int, optional
            Position of the row, as in ``df.iloc[position]``: ``0`` to ``len(df) - 1``,
            or negative to count from the end (``-1`` is the last row). Used when given.

        Raises
        ------
        TypeError
            If neither a label nor ``position`` is given, or the position is not an int.
        KeyError
            If no row has that label, or the position is out of range.

        Examples
        --------
        >>> import ragnotebook
        >>> from ragnotebook.views import Explorer
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> ex = Explorer(s)
        >>> ex.select(position=5)
        >>> ex.selected == s.index[5], ex.listing.value
        (True, 5)
        >>> ex.select(position=-1)          # like s.iloc[-1]
        >>> ex.selected == s.index[-1], ex.listing.value
        (True, 47)
        >>> ex.search.value = "porterhouse"    # rows 18 and 19 only
        >>> ex.select(position=0)           # hidden by the search: shown, with a note
        >>> ex.selected == s.index[0], ex.listing.value, "Hidden by the current filters" in ex.header.value
        (True, None, True)
        """
        n = len(self._labels)
        if position is None:
            if label is _NO_LABEL:
                raise TypeError(
                    "select() needs a row: pass its index label, ex.select(label), "
                    "or its position, ex.select(position=n)"
                )
            matches = [i for i, lab in enumerate(self._labels) if _same_label(lab, label)]
            if not matches:
                raise KeyError(f"no row with index label {label!r}")
            position = matches[0]
        if isinstance(position, bool) or not isinstance(position, int | np.integer):
            raise TypeError(f"position must be an int, got {type(position).__name__}")
        if not -n <= position < n:
            raise KeyError(f"row position {position} is out of range for {n} rows")
        position = int(position) % n
        where = np.flatnonzero(self._order == position)
        if len(where):
            self._set_page(int(where[0]) // self._page_size, keep=True)
            self.listing.value = position  # observed: shows the detail
        else:
            # hidden by the filters: shown with a note, and no line of the list highlighted
            self._updating = True
            try:
                self.listing.value = None
            finally:
                self._updating = False
        if self._selected != position:
            self._show(position)
        self._update_row_buttons()

    def step(self, delta: int) -> None:
        """Select the row ``delta`` places after the selected one in the filtered list.

        What the row buttons do; it moves to another page when needed and stops at the
        ends. With nothing selected it selects the first (or last) row.

        Parameters
        ----------
        delta : int
            ``1`` for the next row, ``-1`` for the previous one (any whole number).

        Raises
        ------
        ValueError
            If ``delta`` is not a whole number.

        Examples
        --------
        >>> import ragnotebook
        >>> from ragnotebook.views import Explorer
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> ex = Explorer(s, page_size=20)
        >>> ex.select(position=19)
        >>> ex.step(1)
        >>> ex.listing.value, ex.page
        (20, 1)
        """
        delta = int(check_count(delta, "delta", None))  # type: ignore[arg-type]
        n = len(self._order)
        if not n:
            return
        where: Any = (
            np.flatnonzero(self._order == self._selected) if self._selected is not None else []
        )
        if len(where):
            target = min(max(0, int(where[0]) + delta), n - 1)
        else:
            target = 0 if delta >= 0 else n - 1
        self.select(position=int(self._order[target]))

    def _update_row_buttons(self) -> None:
        where: Any = (
            np.flatnonzero(self._order == self._selected) if self._selected is not None else []
        )
        at = int(where[0]) if len(where) else None
        n = len(self._order)
        self.prev_row_button.disabled = n == 0 or at == 0
        self.next_row_button.disabled = n == 0 or at == n - 1

    def set_page(self, page: int, *, keep: bool = False) -> None:
        """Show page ``page`` of the filtered list.

        Parameters
        ----------
        page : int
            0-based page number, from 0 to ``page_count - 1``.
        keep : bool, default False
            Keep the current selection instead of selecting the page's first row.

        Raises
        ------
        ValueError
            If ``page`` is not a whole number from 0 to ``page_count - 1`` (the message
            gives the range).

        Examples
        --------
        >>> import ragnotebook
        >>> from ragnotebook.views import Explorer
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> ex = Explorer(s, page_size=20)
        >>> ex.set_page(2)
        >>> ex.page, len(ex.listing.options), ex.page_label.value
        (2, 8, 'rows 41–48 of 48')
        >>> ex.set_page(3)
        Traceback (most recent call last):
        ...
        ValueError: page must be a whole number from 0 to 2 (3 pages of 20 rows), got 3
        """
        last = self.page_count - 1
        ok = isinstance(page, int | np.integer) and not isinstance(page, bool | np.bool_)
        if not ok or not 0 <= page <= last:
            pages = f"{last + 1} page{'s' if last else ''} of {self._page_size} rows"
            raise ValueError(
                f"page must be a whole number from 0 to {last} ({pages}), got {page!r}"
            )
        self._set_page(int(page), keep=keep)

    def _set_page(self, page: int, *, keep: bool = False) -> None:
        """:meth:`set_page` for the explorer's own moves: ``page`` clipped to the range."""
        self._page = min(max(0, page), self.page_count - 1)
        start = self._page * self._page_size
        visible = self._order[start : start + self._page_size]
        options = [(self._option_text(int(p)), int(p)) for p in visible]
        if self._selected is not None and self._selected in visible:
            value = self._selected
        elif not keep and len(visible):
            value = int(visible[0])
        else:
            value = None
        self._updating = True
        try:
            self.listing.options = options
            self.listing.value = value
            self.listing.rows = min(_MAX_LIST_ROWS, max(_MIN_LIST_ROWS, len(options)))
        finally:
            self._updating = False
        n = len(self._order)
        self.page_label.value = (
            f"rows {start + 1}–{start + len(visible)} of {n}"
            if n
            else ("no rows match" if len(self._labels) else "no rows")
        )
        self.prev_button.disabled = self._page == 0
        self.next_button.disabled = self._page >= self.page_count - 1
        if value is not None and value != self._selected:
            self._show(value)
        self._update_row_buttons()

    # --------------------------------------------------------------- internals
    def _option_text(self, pos: int) -> str:
        # a <select> collapses runs of spaces, so the padding is no-break spaces (the list
        # is drawn in a monospace font, where they are as wide as a space); it lays the
        # line out itself, as one paragraph, so each data field is isolated: an override
        # or Arabic text in the label or the question cannot reorder the scores
        codes = {"context_recall": "R", "context_precision": "P", "faithfulness": "F"}
        scores = _GAP.join(
            f"{codes[m]}{_NBSP}{short_score(*score_at(self._table, m, pos)):<5}"
            for m in self._metrics
        )
        label = self._names[pos]
        name = isolate(replace_controls(label)) + " " * (self._name_width - text_width(label))
        # the question, or for a row without one the start of its answer ("answer: ...")
        question = isolate(shorten(self._gists[pos], _QUESTION_CHARS))
        if self._groups is not None:
            group = shorten(self._groups[pos], 24)
            pad = " " * (self._group_width - text_width(group))
            name = f"{name} [{isolate(group)}]{pad}"
        return f"{_pad(name)}{_SEP}{_pad(scores)}{_SEP}{question}"

    def _masks(self) -> dict[str, np.ndarray]:
        """Rows passing each active filter, by the filter's name in the hidden-row note."""
        n = len(self._labels)
        masks: dict[str, np.ndarray] = {}
        tests = search_tests(str(self.search.value or ""))
        if tests:
            mask = np.ones(n, dtype=bool)
            for test in tests:
                if isinstance(test, frozenset):  # a plain word: one of the row's words
                    if self._words is None:
                        self._words = [row_words(h) for h in self._haystack]
                    mask &= np.fromiter((test <= w for w in self._words), dtype=bool, count=n)
                else:
                    mask &= np.fromiter((test(h) for h in self._haystack), dtype=bool, count=n)
            masks[f"search {str(self.search.value).strip()!r}"] = mask
        m = self.metric.value
        label = METRIC_LABELS[m]
        lo, hi = self.score_range.value
        score = self._table[m].to_numpy()
        if (lo, hi) != (0.0, 1.0):
            with np.errstate(invalid="ignore"):
                masks[f"{label} score {lo:.2f}–{hi:.2f}"] = (score >= lo - 1e-9) & (
                    score <= hi + 1e-9
                )
        if self.status.value != "any":
            masks[f"{label} status {STATUS_LABELS[self.status.value]}"] = (
                status_labels(self._table, m) == self.status.value
            )
        if self.group is not None and self.group.value and self._groups is not None:
            masks[f"group {self.group.value}"] = np.array(
                [g == self.group.value for g in self._groups], dtype=bool
            )
        return masks

    def _mask(self) -> np.ndarray:
        mask = np.ones(len(self._labels), dtype=bool)
        for part in self._masks().values():
            mask &= part
        return mask

    def _hidden_note(self, pos: int) -> str:
        """The heading's note for a selected row that the filters leave out of the list."""
        if pos in self._order:
            return ""
        hiding = [name for name, mask in self._masks().items() if not mask[pos]]
        return (
            "<p class='rnb-meta' style='margin:0 0 4px'><b>Hidden by the current filters</b> ("
            f"{escape('; '.join(hiding))}): this row is not in the list above, so no line "
            "is highlighted; change the filters to see it there.</p>"
        )

    def _apply(self) -> None:
        positions = np.flatnonzero(self._mask())
        key = self.sort_by.value
        if key != "order":
            m, direction = key.split(":")
            score = self._table[m].to_numpy()[positions]
            ordered = -score if direction == "desc" else score
            # NaN (unscored) rows last, ties in frame order
            positions = positions[np.lexsort((positions, ordered, np.isnan(score)))]
        self._order = positions
        if self._selected is None and self._lost is not None and self._lost in positions:
            # the row selected before the filters matched nothing: selected again (a search
            # typed word by word can match nothing for a moment)
            self._show(self._lost)
        if self._selected is not None and self._selected in positions:
            where = int(np.flatnonzero(positions == self._selected)[0])
            self._set_page(where // self._page_size)
            self.header.value = self._heading(self._selected)  # no "hidden" note now
        else:
            if not len(positions) and self._selected is not None:
                self._lost = self._selected  # selected again once the filters let it through
            self._selected = None
            self._set_page(0)
            if not len(positions):
                empty = "This frame has no rows." if not len(self._labels) else ""
                self.header.value = f"<p><i>{empty or 'No rows match the filters.'}</i></p>"
                self.detail.value = self.chunk_list.value = self.curve.value = ""

    def _on_filter(self, _change: dict) -> None:
        self._apply()

    def _on_select(self, change: dict) -> None:
        if self._updating:
            return
        if change["new"] is not None and change["new"] != self._selected:
            self._show(int(change["new"]))

    def _heading(self, pos: int) -> str:
        # the position tells rows with the same label apart; the label is shown whole
        return (
            "<h3 style='margin:10px 0 4px'>"
            f"{row_heading(pos, len(self._labels), self._full[pos])}"
            f"{group_heading(self._groups, pos)}</h3>{self._hidden_note(pos)}"
        )

    def _show(self, pos: int) -> None:
        self._selected, self._lost = pos, None
        top, rest = row_detail_parts(self._df, pos, table=self._table, curve=False)
        self.header.value, self.detail.value = self._heading(pos), top
        self.chunk_list.value = rest
        svg = precision_svg(verdicts(self._df, "context_precision", pos))
        self.curve.value = f'<div class="rnb">{svg}</div>' if svg else ""  # DETAIL_CSS: text colour
        self._update_row_buttons()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget's display, with a read-only HTML copy for viewers without widgets.

        ipywidgets' bundle (the ``application/vnd.jupyter.widget-view+json`` reference to
        the widget, which front ends with a widget manager render) gets a ``text/html``
        entry: the static view of the first rows
        (:func:`ragnotebook.views.static.widget_fallback_html`), which a notebook shows
        where the widget cannot run (GitHub, nbconvert without widget state, a notebook
        opened without its kernel) instead of the widget's text repr; and a ``text/plain``
        entry saying what this is.
        """
        widget_bundle = self.widget._repr_mimebundle_  # None once the widget is closed
        bundle = widget_bundle(**kwargs) if widget_bundle is not None else None
        if not bundle:  # a closed widget: IPython shows the text repr
            return None
        bundle = dict(bundle)
        try:
            from ragnotebook.views.static import widget_fallback_html

            bundle["text/html"] = widget_fallback_html(
                self._df, sort_by=self._first_sort, by=self._by
            )
        except Exception:  # pragma: no cover - the copy must never stop the widget showing
            pass
        bundle["text/plain"] = (
            f"{self!r} (the interactive explorer: run the cell in Jupyter with ipywidgets)"
        )
        return bundle

    def __repr__(self) -> str:
        return f"<Explorer: {len(self._order)} of {len(self._labels)} rows shown>"
