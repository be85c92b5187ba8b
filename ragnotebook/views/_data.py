"""Read a scored frame for the views: texts, row names, scores and statuses by position.

Rows are addressed by position (``df.iloc[pos]``) inside the views, so duplicate or
unhashable index labels do no harm; labels are only used for display and for
:meth:`Explorer.select`.

Examples
--------
>>> import pandas as pd, ragnotebook
>>> from ragnotebook.views._data import row_names, score_table
>>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4."],
...                    "contexts": [["The museum is on Pier 4."]]})
>>> out = ragnotebook.faithfulness(df, model="offline", progress=False)
>>> row_names(out)
['0']
>>> score_table(out)[["faithfulness", "faithfulness_status"]].values.tolist()
[[1.0, 'ok']]
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._textsafe import replace_surrogates
from ragnotebook.frame import (
    SCORED_STATUSES,
    require_scored,
    scored_mask,
    scored_metrics,
    verdict_records,
    warn_text_verdicts,
)

__all__ = [
    "METRIC_LABELS",
    "STATUS_ORDER",
    "ViewCall",
    "check_count",
    "chunk_texts",
    "fmt_score",
    "resolve_metric",
    "roles",
    "row_names",
    "score_at",
    "score_table",
    "status_counts",
    "text_at",
    "text_values",
    "verdicts",
]

#: Display names of the metrics.
METRIC_LABELS = {
    "context_recall": "context recall",
    "context_precision": "context precision",
    "faithfulness": "faithfulness",
}
_GUESS = {
    "question": ("question", "user_input", "input", "query"),
    "answer": ("answer", "response", "actual_output", "output"),
    "contexts": ("contexts", "retrieved_contexts", "retrieval_context"),
    "ground_truth": ("ground_truth", "reference", "expected_output"),
}


def roles(df: pd.DataFrame) -> dict[str, str | None]:
    """Role -> column mapping: from ``attrs["ragnotebook"]["columns"]``, else by usual names.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    dict
        Keys ``question``, ``answer``, ``contexts``, ``ground_truth``; ``None`` when absent.

    Examples
    --------
    >>> import pandas as pd
    >>> roles(pd.DataFrame({"user_input": ["q"]}))["question"]
    'user_input'
    """
    meta = df.attrs.get("ragnotebook", {}) if isinstance(df.attrs, dict) else {}
    mapped = meta.get("columns", {}) if isinstance(meta, dict) else {}
    out: dict[str, str | None] = {}
    for role, names in _GUESS.items():
        col = mapped.get(role) if isinstance(mapped, dict) else None
        if col is None or col not in df.columns:
            col = next((n for n in names if n in df.columns), None)
        out[role] = col
    return out


def _text(value: Any) -> str:
    """A cell as display text: ``""`` when missing, lone surrogates as U+FFFD."""
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return replace_surrogates(str(value))


def text_values(df: pd.DataFrame, role: str) -> list[str]:
    """The text of one role per row (``""`` where absent or missing).

    Parameters
    ----------
    df : pandas.DataFrame
    role : {"question", "answer", "ground_truth"}

    Returns
    -------
    list of str

    Examples
    --------
    >>> import pandas as pd
    >>> text_values(pd.DataFrame({"question": ["q", None]}), "question")
    ['q', '']
    """
    col = roles(df)[role]
    if col is None:
        return [""] * len(df)
    return [_text(v) for v in df[col].tolist()]


def text_at(df: pd.DataFrame, role: str, pos: int) -> str:
    """The text of one role for the row at ``pos`` (``""`` where absent or missing).

    Parameters
    ----------
    df : pandas.DataFrame
    role : {"question", "answer", "ground_truth"}
    pos : int

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd
    >>> text_at(pd.DataFrame({"answer": ["a", None]}), "answer", 1)
    ''
    """
    col = roles(df)[role]
    return "" if col is None else _text(df[col].iat[pos])


def row_names(df: pd.DataFrame) -> list[str]:
    """Short display names: the index label, or ``#pos`` when the label is long.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    list of str
        ``str(label)`` when at most 12 characters, else ``"#<position>"`` (the row is
        ``df.iloc[position]``).

    Examples
    --------
    >>> import pandas as pd
    >>> row_names(pd.DataFrame({"a": [1, 2]}, index=["q1", "a-very-long-row-id"]))
    ['q1', '#1']
    """
    names = []
    for pos, label in enumerate(df.index):
        text = str(label)
        names.append(text if len(text) <= 12 else f"#{pos}")
    return names


def score_table(df: pd.DataFrame) -> pd.DataFrame:
    """Scores and statuses of every metric, by position.

    A score is NaN when missing or when its status is not a scored one
    (``no_ground_truth``, ``no_reference``, ``error``), so unmeasured rows never sort
    or plot as 0.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.

    Returns
    -------
    pandas.DataFrame
        RangeIndex; columns ``m`` (float64) and ``m_status`` (str) for each scored
        metric.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"faithfulness": [0.5, 0.0], "faithfulness_status": ["ok", "error"]})
    >>> score_table(df)["faithfulness"].tolist()
    [0.5, nan]
    """
    out: dict[str, Any] = {}
    for m in require_scored(df):
        score = pd.to_numeric(df[m], errors="coerce").astype("float64").to_numpy()
        # a row whose status says "not measured" has no score, whatever the column holds
        out[m] = np.where(scored_mask(df, m), score, np.nan)
        out[f"{m}_status"] = [_text(s) or "error" for s in df[f"{m}_status"].astype("object")]
    return pd.DataFrame(out)


def verdicts(df: pd.DataFrame, metric: str, pos: int) -> list[dict[str, Any]]:
    """The verdict dicts of one metric for the row at ``pos`` (``[]`` when absent).

    Parameters
    ----------
    df : pandas.DataFrame
    metric : str
    pos : int
        Row position.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> import pandas as pd
    >>> verdicts(pd.DataFrame({"x": [1]}), "faithfulness", 0)
    []
    """
    col = f"{metric}_verdicts"
    if col not in df.columns:
        return []
    return verdict_records(df[col].iat[pos]) or []


def chunk_texts(df: pd.DataFrame, pos: int) -> list[str]:
    """The retrieved chunks of the row at ``pos``, in retrieval order.

    Read from the context-precision verdicts when present, else from the contexts column.

    Parameters
    ----------
    df : pandas.DataFrame
    pos : int

    Returns
    -------
    list of str

    Examples
    --------
    >>> import pandas as pd
    >>> chunk_texts(pd.DataFrame({"contexts": [["a", "b"]]}), 0)
    ['a', 'b']
    """
    prec = verdicts(df, "context_precision", pos)
    if prec:
        ordered = sorted(prec, key=lambda v: int(v.get("index", 0)))
        return [_text(v.get("chunk")) for v in ordered]
    col = roles(df)["contexts"]
    if col is None:
        return []
    value: Any = df[col].iat[pos]
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [_text(v) for v in value]
    if hasattr(value, "tolist"):
        return [_text(v) for v in value.tolist()]
    return []


def score_at(table: pd.DataFrame, metric: str, pos: int) -> tuple[float, str]:
    """One cell of a :func:`score_table`: ``(score, status)`` of ``metric`` at ``pos``.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`score_table`.
    metric : str
    pos : int

    Returns
    -------
    tuple of (float, str)

    Examples
    --------
    >>> import pandas as pd
    >>> t = score_table(pd.DataFrame({"faithfulness": [0.5], "faithfulness_status": ["ok"]}))
    >>> score_at(t, "faithfulness", 0)
    (0.5, 'ok')
    """
    score: Any = table[metric].iat[pos]
    status: Any = table[f"{metric}_status"].iat[pos]
    return float(score), str(status)


def fmt_score(score: float, status: str) -> str:
    """Show a score with its status: ``0.50``, ``0.00 (no claims)``, ``— (error)``.

    Parameters
    ----------
    score : float
        NaN when missing.
    status : str

    Returns
    -------
    str

    Examples
    --------
    >>> fmt_score(0.0, "no_claims"), fmt_score(float("nan"), "no_ground_truth")
    ('0.00 (no claims)', '— (no ground truth)')
    >>> fmt_score(float("nan"), "no_claims")   # faithfulness of a row with no answer
    '— (no answer, not scored)'
    """
    unmeasured = score is None or math.isnan(score) or status not in SCORED_STATUSES
    value = "—" if unmeasured else f"{score:.2f}"
    if status == "ok":
        return value
    if status == "no_claims" and unmeasured:
        return f"{value} (no answer, not scored)"
    return f"{value} ({status.replace('_', ' ')})"


#: Statuses in the order the views count them. ``no_answer`` is not a status of its own:
#: it is a ``no_claims`` faithfulness row whose answer is missing (not scored), counted
#: apart so ``no_claims`` counts only the measured 0s (:func:`status_counts`).
STATUS_ORDER = (
    "ok",
    "no_claims",
    "no_answer",
    "no_context",
    "no_ground_truth",
    "no_reference",
    "error",
)


def status_counts(table: pd.DataFrame, metric: str) -> dict[str, int]:
    """Rows per status of one metric, with the unscored ``no_claims`` rows as ``no_answer``.

    ``no_claims`` counts the measured 0s (an answer with no claim, e.g. a refusal) and
    ``no_answer`` the ``no_claims`` rows left out of the mean because the answer is missing,
    so the counts add up to the number of rows and ``ok + no_claims + no_context`` is the
    number of scored rows. :func:`ragnotebook.summary` has the same ``no_answer`` count;
    its ``no_claims`` column counts both kinds.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`score_table`.
    metric : str

    Returns
    -------
    dict of str to int
        Statuses that occur, in :data:`STATUS_ORDER` (other status values after them).

    Examples
    --------
    >>> import pandas as pd
    >>> from ragnotebook.views._data import score_table, status_counts
    >>> df = pd.DataFrame({"answer": ["I don't know.", None], "faithfulness": [0.0, 0.0],
    ...                    "faithfulness_status": ["no_claims", "no_claims"]})
    >>> status_counts(score_table(df), "faithfulness")
    {'no_claims': 1, 'no_answer': 1}
    """
    status = table[f"{metric}_status"].astype(str).to_numpy()
    unscored = np.isnan(table[metric].to_numpy(dtype=float))
    labels = np.where((status == "no_claims") & unscored, "no_answer", status)
    counts = pd.Series(labels).value_counts()
    order = [s for s in STATUS_ORDER if s in counts.index]
    order += sorted(str(s) for s in counts.index if s not in STATUS_ORDER)
    return {s: int(counts[s]) for s in order}


def resolve_metric(name: Any, present: Sequence[str], param: str = "metric") -> str:
    """The scored metric that ``name`` stands for, accepting ``evaluate()``'s aliases.

    Parameters
    ----------
    name : str
        A metric name or alias (``recall``, ``precision``, ``faithful``), as
        :func:`ragnotebook.evaluate` accepts in ``metrics=``.
    present : sequence of str
        The metrics scored in the frame.
    param : str, default "metric"
        The parameter named in the error.

    Returns
    -------
    str
        The full metric name.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        "unknown metric 'x'; expected one of ..." for a name that is no metric, or
        "... is not scored in this frame" for a metric the frame lacks.

    Examples
    --------
    >>> from ragnotebook.views._data import resolve_metric
    >>> resolve_metric("recall", ["context_recall", "faithfulness"])
    'context_recall'
    >>> resolve_metric("bogus", ["faithfulness"], "sort_by")
    Traceback (most recent call last):
    ...
    ValueError: sort_by: unknown metric 'bogus'; expected one of context_recall, ...
    """
    from ragnotebook.api import _metric_name

    if not isinstance(name, str):
        raise TypeError(f"{param} must be a metric name (str), got {type(name).__name__}")
    try:
        metric = _metric_name(name)
    except ValueError as exc:
        raise ValueError(f"{param}: {exc}") from None
    if metric not in present:
        raise ValueError(
            f"{param}: {metric!r} is not scored in this frame "
            f"(scored: {', '.join(present) or 'none'})"
        )
    return metric


def check_count(value: Any, param: str, minimum: int, *, allow_none: bool = False) -> int | None:
    """``value`` as an int when it is a whole number of at least ``minimum``.

    Parameters
    ----------
    value : int or None
    param : str
        The parameter named in the error.
    minimum : int
    allow_none : bool, default False
        Accept (and return) ``None``.

    Returns
    -------
    int or None

    Raises
    ------
    ValueError
        Naming ``param``, for a negative, too small, fractional or non-numeric value (a
        bool is not a number here).

    Examples
    --------
    >>> from ragnotebook.views._data import check_count
    >>> check_count(5, "max_rows", 0)
    5
    >>> check_count(-1, "max_rows", 0)
    Traceback (most recent call last):
    ...
    ValueError: max_rows must be a whole number of at least 0, got -1
    """
    if value is None and allow_none:
        return None
    ok = isinstance(value, int | np.integer | float) and not isinstance(value, bool | np.bool_)
    if not ok or value != value or int(value) != value or value < minimum:
        extra = " or None" if allow_none else ""
        raise ValueError(
            f"{param} must be a whole number of at least {minimum}{extra}, got {value!r}"
        )
    return int(value)


# ------------------------------------------------------------ one warning per user call

#: True while an outer view call runs (its warnings are already given).
_IN_VIEW: ContextVar[bool] = ContextVar("ragnotebook_in_view", default=False)
#: The frame's own notice about verdict text, which the views replace by one of theirs.
_FRAME_TEXT_NOTICE = r"(claims|chunks)\(\): columns? '"


class ViewCall:
    """The body of a public view: its warnings are given once, naming the user's call.

    On entering the outermost view call, one warning says when verdict cells of
    ``metrics`` are text (a frame read back from CSV), naming this view; the same notice from
    :func:`ragnotebook.claims` / :func:`ragnotebook.chunks`, which the views call inside,
    is silenced until the call returns. Nested view calls (the report draws the charts)
    warn nothing more.

    Parameters
    ----------
    name : str
        The view, as the user would call it (``"report()"``); ``df.rag.plot.x()`` runs
        the view ``x()`` and its warnings name that.
    df : pandas.DataFrame
    metrics : sequence of str, optional
        The metrics whose verdicts the view reads (default: every scored one).

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> from ragnotebook.views._data import ViewCall
    >>> df = pd.DataFrame({"faithfulness": [1.0], "faithfulness_status": ["ok"],
    ...                    "faithfulness_verdicts": ["[{'index': 0, 'verdict': 'yes'}]"]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with ViewCall("report()", df), ViewCall("missed_claims()", df):
    ...         pass
    >>> [str(w.message).split(":")[0] for w in caught]
    ['report()']
    """

    def __init__(self, name: str, df: Any, metrics: Sequence[str] | None = None) -> None:
        self.name = name
        self.df = df
        self.metrics = metrics
        self._token: Any = None
        self._catch: Any = None

    def __enter__(self) -> ViewCall:
        if _IN_VIEW.get():
            return self
        if isinstance(self.df, pd.DataFrame):
            present = scored_metrics(self.df)
            wanted = present if self.metrics is None else [m for m in self.metrics if m in present]
            warn_text_verdicts(self.df, wanted, self.name)
        self._token = _IN_VIEW.set(True)
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.filterwarnings("ignore", message=_FRAME_TEXT_NOTICE, category=UserWarning)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._token is None:
            return
        self._catch.__exit__(*exc)
        _IN_VIEW.reset(self._token)
        self._token = self._catch = None
