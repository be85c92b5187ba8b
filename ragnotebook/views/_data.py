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
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook.frame import SCORED_STATUSES, require_scored, scored_mask, verdict_records

__all__ = [
    "METRIC_LABELS",
    "chunk_texts",
    "fmt_score",
    "roles",
    "row_names",
    "score_at",
    "score_table",
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
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return str(value)


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
