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
import re
import unicodedata
import warnings
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._textsafe import clean_value, replace_surrogates
from ragnotebook._warn import warn_user
from ragnotebook.frame import (
    SCORED_STATUSES,
    require_scored,
    scored_mask,
    scored_metrics,
    verdict_records,
    warn_text_verdicts,
)
from ragnotebook.intake import ALIASES, ROLES, _alias_form, _look_alikes, and_list, resolve_columns
from ragnotebook.views._html import two_places

__all__ = [
    "ANSWER_MARK",
    "METRIC_LABELS",
    "STATUS_ORDER",
    "TEXT_ROLES",
    "ViewCall",
    "check_count",
    "check_level",
    "chunk_texts",
    "empty_texts",
    "fmt_score",
    "resolve_metric",
    "roles",
    "row_gists",
    "row_labels",
    "row_names",
    "score_at",
    "score_table",
    "short_name",
    "short_names",
    "status_counts",
    "status_labels",
    "text_at",
    "text_values",
    "verdicts",
    "warn_missing_texts",
    "with_columns",
]

#: Display names of the metrics.
METRIC_LABELS = {
    "context_recall": "context recall",
    "context_precision": "context precision",
    "faithfulness": "faithfulness",
}
#: The roles whose text the views show (the contexts as the row's chunks).
TEXT_ROLES = ROLES
#: Where :func:`with_columns` keeps a view's ``columns=`` (on the view's own shallow copy).
_VIEW_COLUMNS = "view_columns"


def _meta(df: pd.DataFrame) -> dict[str, Any]:
    meta = df.attrs.get("ragnotebook", {}) if isinstance(df.attrs, dict) else {}
    return meta if isinstance(meta, dict) else {}


def _detect(df: pd.DataFrame, role: str, claimed: set[Any]) -> str | None:
    """The column named like ``role``, as the intake finds it (case, blanks, dashes ignored);
    the most preferred alias first."""
    by_form: dict[str, str] = {}
    for c in df.columns:
        if isinstance(c, str) and c not in claimed:
            by_form.setdefault(_alias_form(c), c)
    return next((by_form[a] for a in ALIASES[role] if a in by_form), None)


def roles(df: pd.DataFrame) -> dict[str, str | None]:
    """Role -> column mapping of a scored frame, as the views read it.

    In order: a view's ``columns=`` (:func:`with_columns`), then the run metadata
    (``attrs["ragnotebook"]["columns"]``, which JSON Lines and CSV do not keep), then the
    names the intake recognises (``question`` / ``user_input`` / ``input`` / ``query``,
    ...; case, outer blanks, spaces and dashes ignored).

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
    >>> roles(pd.DataFrame({"user_input": ["q"], "Ground Truth": ["g"]}))
    {'question': 'user_input', 'answer': None, 'contexts': None, 'ground_truth': 'Ground Truth'}
    """
    meta = _meta(df)
    chosen = meta.get(_VIEW_COLUMNS)
    chosen = chosen if isinstance(chosen, dict) else {}
    mapped = meta.get("columns")
    mapped = mapped if isinstance(mapped, dict) else {}
    out: dict[str, str | None] = {}
    for role in ROLES:
        col = chosen[role] if role in chosen else mapped.get(role)
        out[role] = col if isinstance(col, str) and col in df.columns else None
    claimed = {c for c in out.values() if c is not None}
    for role in ROLES:
        if out[role] is None and role not in chosen:
            found = _detect(df, role, claimed)
            if found is not None:
                out[role] = found
                claimed.add(found)
    return out


def with_columns(df: pd.DataFrame, columns: Mapping[str, str | None] | None, who: str) -> Any:
    """``df`` as a view reads it with ``columns=``: a shallow copy naming the text columns.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame (never modified).
    columns : Mapping[str, str or None], optional
        ``{role: column}`` as given to :func:`ragnotebook.evaluate`; a role mapped to
        ``None`` has no column (its text shows as none). ``None`` returns ``df`` itself.
    who : str
        The view (``"report()"``), named in errors.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    TypeError
        If ``columns`` is not a mapping.
    ValueError
        For an unknown role or a column not in the frame (the message names the view).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"q": ["Where?"], "a": ["Pier 4."]})
    >>> roles(with_columns(df, {"question": "q", "answer": "a"}, "explore()"))["answer"]
    'a'
    >>> with_columns(df, {"answer": "reply"}, "report()")
    Traceback (most recent call last):
    ...
    ValueError: report(): columns maps role 'answer' to column 'reply', which is not in ...
    """
    if columns is None:
        return df
    if not isinstance(columns, Mapping):
        raise TypeError(
            f"{who}: columns must be a mapping {{role: column}} as for evaluate(), got "
            f"{type(columns).__name__}"
        )
    try:
        resolve_columns(df, columns, roles=())  # unknown roles, columns not in the frame
    except ValueError as exc:
        raise ValueError(f"{who}: {exc}") from None
    meta = dict(_meta(df))
    meta[_VIEW_COLUMNS] = dict(columns)
    mapped = meta.get("columns")
    mapped = dict(mapped) if isinstance(mapped, dict) else {}
    mapped.update({r: c for r, c in columns.items() if c is not None})
    meta["columns"] = mapped  # frame.summary() finds the answer column there too
    out = df.copy(deep=False)
    out.attrs = {**df.attrs, "ragnotebook": meta}
    return out


def missing_texts(df: pd.DataFrame, shown: Sequence[str]) -> dict[str, list[str]]:
    """Text roles a view shows that the frame has no column for, though it had one.

    Only a frame without run metadata naming its columns (read back from JSON Lines or
    CSV) and without a view's ``columns=`` is checked. A role counts when a scored metric
    needed its column (the answer for faithfulness, the ground truth for context recall,
    the contexts for either), or when a column's name looks like it (``q``, ``gold``).
    The contexts never count in a frame scored with context precision: its verdicts hold
    the chunks, which the views show from there.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    shown : sequence of str
        The roles whose text the view shows.

    Returns
    -------
    dict of str to list of str
        ``{role: look-alike columns}``, in :data:`TEXT_ROLES` order; empty when nothing
        is missing.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"q": ["Where?"], "said": ["Pier 4."], "docs": [["Pier 4."]],
    ...                    "faithfulness": [1.0], "faithfulness_status": ["ok"]})
    >>> missing_texts(df, TEXT_ROLES)      # 'said' is no name of an answer
    {'question': ['q'], 'answer': [], 'contexts': ['docs']}
    >>> missing_texts(df.rename(columns={"said": "reply"}), TEXT_ROLES)["answer"]
    ['reply']
    """
    meta = _meta(df)
    if _VIEW_COLUMNS in meta or (isinstance(meta.get("columns"), dict) and meta["columns"]):
        return {}
    from ragnotebook.api import _NEEDS

    metrics = scored_metrics(df)
    needed = {r for m in metrics for r in _NEEDS.get(m, ())}
    if "context_precision" in metrics:
        shown = [r for r in shown if r != "contexts"]  # its verdicts hold the chunks
    found = roles(df)
    outputs = {f"{m}{s}" for m in metrics for s in ("", *_OUTPUT_SUFFIXES)}
    used = {c for c in found.values() if c is not None} | outputs
    out: dict[str, list[str]] = {}
    for role in TEXT_ROLES:
        if role not in shown or found[role] is not None:
            continue
        likely = _look_alikes(df, role, used)
        if role in needed or likely:
            out[role] = likely
    return out


_OUTPUT_SUFFIXES = ("_reason", "_verdicts", "_status", "_error")


def empty_texts(df: pd.DataFrame, shown: Sequence[str]) -> dict[str, tuple[Any, list[str]]]:
    """Text roles read from a column with the role's usual name that is empty in every row
    while another column looks like the role.

    A frame scored with ``columns={"question": "q", ...}`` that also has an all-null
    ``question`` column (as many NLI and summary sets do) loses the mapping when read back
    from JSON Lines or CSV; the views then find the empty ``question`` column by its name
    and show every row's question as (none). Only a frame without run metadata naming its
    columns and without a view's ``columns=`` is checked, as in :func:`missing_texts`; a
    look-alike column (``q``) must hold some text, so a frame that simply has no questions
    says nothing.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    shown : sequence of str
        The roles whose text the view shows.

    Returns
    -------
    dict
        ``{role: (empty column, look-alike columns with text)}``, in :data:`TEXT_ROLES`
        order; empty when nothing is amiss.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"question": [None, None], "q": ["Is it true?", "Is it true?"],
    ...                    "answer": ["a", "b"]})
    >>> empty_texts(df, TEXT_ROLES)
    {'question': ('question', ['q'])}
    >>> empty_texts(df.drop(columns="q"), TEXT_ROLES)    # no other question: nothing to say
    {}
    """
    meta = _meta(df)
    if not len(df) or _VIEW_COLUMNS in meta:
        return {}
    if isinstance(meta.get("columns"), dict) and meta["columns"]:
        return {}
    found = roles(df)
    metrics = scored_metrics(df)
    outputs = {f"{m}{s}" for m in metrics for s in ("", *_OUTPUT_SUFFIXES)}
    used = {c for c in found.values() if c is not None} | outputs
    out: dict[str, tuple[Any, list[str]]] = {}
    for role in TEXT_ROLES:
        col = found[role]
        if role not in shown or role == "contexts" or col is None or _has_text(df[col]):
            continue
        likely = [c for c in _look_alikes(df, role, used) if _has_text(df[c])]
        if likely:
            out[role] = (col, likely)
    return out


def _has_text(column: pd.Series) -> bool:
    """Whether any cell of a column holds text (not missing, not blank)."""
    return any(_text(v).strip() for v in column.tolist())


def warn_missing_texts(df: pd.DataFrame, shown: Sequence[str], who: str) -> None:
    """One warning naming the text columns :func:`missing_texts` finds, those
    :func:`empty_texts` finds empty, and the fix.

    Parameters
    ----------
    df : pandas.DataFrame
    shown : sequence of str
        The roles whose text the view shows.
    who : str
        The view (``"explore()"``), named in the warning.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> df = pd.DataFrame({"q": ["Where?"], "a": ["Pier 4."], "contexts": [["Pier 4."]],
    ...                    "faithfulness": [1.0], "faithfulness_status": ["ok"]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_missing_texts(df, TEXT_ROLES, "explore()")
    ...     warn_missing_texts(df.assign(question=None), TEXT_ROLES, "explore()")
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    explore(): no column was found for the 'question' and 'answer' roles, so their text
    shows as (none): this frame has no run metadata naming its columns (a scored frame read
    back from JSON Lines or CSV loses it) and no column has the usual name. 'q' looks like
    the question. Name them with columns=, as for evaluate(): explore(...,
    columns={'question': 'q', 'answer': '<column name>'}).
    >>> print(caught[1].message)  # doctest: +NORMALIZE_WHITESPACE
    explore(): no column was found for the 'answer' role, so its text shows as (none), and
    the 'question' column is empty in every row, so the question shows as (none) too: this
    frame has no run metadata naming its columns (a scored frame read back from JSON Lines
    or CSV loses it), so the column with the usual name was read, and no column has the
    usual name of the answer. 'q' looks like the question. Name them with columns=, as for
    evaluate(): explore(..., columns={'question': 'q', 'answer': '<column name>'}).
    """
    missing = missing_texts(df, shown)
    empty = empty_texts(df, shown)
    if not missing and not empty:
        return
    looks = {**{r: likely for r, (_, likely) in empty.items()}, **missing}
    looks = {r: looks[r] for r in TEXT_ROLES if r in looks}
    hints = "; ".join(
        f"{likely[0]!r}{f' (or {and_list(likely[1:3])})' if len(likely) > 1 else ''} looks "
        f"like the {role.replace('_', ' ')}"
        for role, likely in looks.items()
        if likely
    )
    mapping = {role: (likely[0] if likely else "<column name>") for role, likely in looks.items()}
    call = who.removesuffix("()")
    said = []
    if missing:
        said.append(
            f"no column was found for the {and_list(missing)} "
            f"{'role, so its' if len(missing) == 1 else 'roles, so their'} text shows as (none)"
        )
    if empty:
        columns = [col for col, _ in empty.values()]
        texts = and_list((r.replace("_", " ") for r in empty), quote=False)
        said.append(
            f"the {and_list(columns)} {'column is' if len(columns) == 1 else 'columns are'} "
            f"empty in every row, so the {texts} {'shows' if len(empty) == 1 else 'show'} "
            f"as (none){' too' if missing else ''}"
        )
    reason = (
        "this frame has no run metadata naming its columns (a scored frame read back from "
        "JSON Lines or CSV loses it)"
    )
    if empty:
        reason += (
            ", so the column with the usual name was read"
            if len(empty) == 1
            else ", so the columns with the usual names were read"
        )
    if missing:
        if empty:
            roles_missing = and_list((r.replace("_", " ") for r in missing), quote=False)
            reason += f", and no column has the usual name of the {roles_missing}"
        else:
            reason += " and no column has the usual name"
    them = "them" if len(mapping) > 1 else "it"
    warn_user(
        f"{who}: {', and '.join(said)}: {reason}."
        + (f" {hints}." if hints else "")
        + f" Name {them} with columns=, as for evaluate(): {call}(..., columns={mapping!r})."
    )


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


#: What starts a row's one-line text when the row has no question and it shows the start of
#: the answer instead (:func:`row_gists`).
ANSWER_MARK = "answer: "


def row_gists(df: pd.DataFrame) -> list[str]:
    """The text that tells each row apart on one line: its question, or its answer.

    A row with no question (a summary, an NLI pair: ``question`` is None) gets its answer
    instead, marked ``"answer: "`` (:data:`ANSWER_MARK`), so the explorer's list, the
    static view and the missed-claims chart have something to recognise it by; ``""``
    when the row has neither. Callers shorten the text.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    list of str

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"question": ["Where?", None, None],
    ...                    "answer": ["On Pier 4.", "The sky is blue.", None]})
    >>> row_gists(df)
    ['Where?', 'answer: The sky is blue.', '']
    """
    answers = text_values(df, "answer")
    return [
        q if q.strip() else (f"{ANSWER_MARK}{a}" if a.strip() else "")
        for q, a in zip(text_values(df, "question"), answers, strict=True)
    ]


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


#: Longest row name shown in full; a longer label keeps its start and end around "…".
NAME_CHARS = 12


def _dates_only(labels: Sequence[Any]) -> bool:
    """True when the timestamps among ``labels`` are all dates: tz-naive and at midnight."""
    stamps = [x for x in labels if isinstance(x, pd.Timestamp) and x is not pd.NaT]
    return bool(stamps) and all(x.tz is None and x == x.normalize() for x in stamps)


def row_labels(df: pd.DataFrame) -> list[str]:
    """The full index label of every row, as text (what :func:`row_names` shortens).

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    list of str
        ``str(label)``, lone surrogates as U+FFFD. When every timestamp of the index is
        a date (tz-naive, at midnight), each shows as its date (``2024-01-01``), as
        pandas shows such an index.

    Examples
    --------
    >>> import pandas as pd
    >>> row_labels(pd.DataFrame({"a": [1]}, index=["5a8b57f25542995d1e6f1371"]))
    ['5a8b57f25542995d1e6f1371']
    >>> row_labels(pd.DataFrame({"a": [1, 2]}, index=pd.date_range("2024-01-01", periods=2)))
    ['2024-01-01', '2024-01-02']
    """
    labels = list(df.index)
    if _dates_only(labels):
        return [
            x.date().isoformat()
            if isinstance(x, pd.Timestamp) and x is not pd.NaT
            else replace_surrogates(str(x))
            for x in labels
        ]
    return [replace_surrogates(str(label)) for label in labels]


def short_name(label: str, limit: int = NAME_CHARS) -> str:
    """A label cut to ``limit`` characters, keeping its start and end around "…".

    Parameters
    ----------
    label : str
    limit : int, default NAME_CHARS

    Returns
    -------
    str
        ``label`` with runs of whitespace as one space, unchanged when it fits; else its
        first and last characters around an ellipsis (ids often differ at the end:
        ``question-000017``).

    Examples
    --------
    >>> short_name("q1"), short_name("5a8b57f25542995d1e6f1371"), short_name("question-000017")
    ('q1', '5a8b5…6f1371', 'quest…000017')
    """
    text = " ".join(label.split())
    if len(text) <= limit:
        return text
    tail = limit // 2
    return f"{text[: limit - 1 - tail]}…{text[-tail:]}"


def _common_prefix(texts: Sequence[str]) -> int:
    first, last = min(texts), max(texts)  # the prefix of all is that of the extremes
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return n


def _window_name(text: str, start: int, end: int, limit: int) -> str | None:
    """``text`` cut to ``limit`` characters keeping ``text[start:end]`` (the part that
    tells it from similar labels) and as much before it as fits, with "…" where something
    is left out; None when that part does not fit."""
    if end - start > limit - 2:
        return None
    if end <= limit - 1:  # the label's start, up to the part: "2024-01-01…"
        return f"{text[: limit - 1].rstrip()}…"
    if end == len(text):
        return f"…{text[len(text) - limit + 1 :].lstrip()}"
    return f"…{text[end - limit + 2 : end].strip()}…"


#: A timestamp label as ``str(pd.Timestamp)`` or ISO 8601 writes it: the date, the time
#: to the minute, then optional seconds, fraction of a second and time zone.
_STAMP = re.compile(
    r"(?P<year>\d{4})-(?P<day>\d{2}-\d{2})[ T](?P<minute>\d{2}:\d{2})"
    r"(?P<second>:\d{2})?(?P<fraction>\.\d+)?(?P<zone>Z|[+-]\d{2}(?::?\d{2})?)?"
)


def _clock_names(texts: Sequence[str]) -> dict[str, str]:
    """Readable short names of the timestamp labels among ``texts`` when they differ in
    their time of day: ``{label: "01-01 01:00"}``; empty when the generic rule applies.

    The name is the month and day (the year too when the labels span several years) and
    the time to the minute, or to the second when minutes do not tell the labels apart.
    Labels that differ in their time zone or below the second, or that all have the same
    time of day (a daily index: the dates alone tell them apart), get no such name.
    """
    found = {t: m for t in set(texts) if (m := _STAMP.fullmatch(t))}
    clocks = {m["minute"] + (m["second"] or "") + (m["fraction"] or "") for m in found.values()}
    if len(clocks) < 2 or len({m["zone"] for m in found.values()}) > 1:
        return {}
    one_year = len({m["year"] for m in found.values()}) == 1
    for seconds in (False, True):
        names = {
            t: ("" if one_year else f"{m['year']}-")
            + f"{m['day']} {m['minute']}"
            + ((m["second"] or ":00") if seconds else "")
            for t, m in found.items()
        }
        if len(set(names.values())) == len(names):
            return names
    return {}


def short_names(labels: Sequence[str], limit: int = NAME_CHARS) -> list[str]:
    """:func:`short_name` of each label, told apart where two distinct labels would look
    the same.

    Timestamp labels that differ in their time of day (an hourly or minute-level index)
    are named by their date and time without the year they share: ``2024-01-01
    01:00:00`` and ``2024-01-01 02:00:00`` become ``01-01 01:00`` and ``01-01 02:00``
    (seconds are kept when the minutes do not tell them apart, and the year when they
    span several; such a name may be longer than ``limit``). Other labels that share a
    short name keep the part where they differ instead: the text after their common
    start and before their common end, with as much before it as fits (``2024-01-01
    00:00:00+00:00`` and ``2024-01-02 ...`` become ``2024-01-01…`` and ``2024-01-02…``).
    A label still alike another after that is shown whole.

    Parameters
    ----------
    labels : sequence of str
        Full labels (:func:`row_labels`).
    limit : int, default NAME_CHARS

    Returns
    -------
    list of str
        Equal only where the labels are equal (after blanks are folded).

    Examples
    --------
    >>> short_names(["2024-01-01 00:00:00+00:00", "2024-01-02 00:00:00+00:00"])
    ['2024-01-01…', '2024-01-02…']
    >>> short_names(["pipeline-A-run-0001", "pipeline-B-run-0001", "q1"])
    ['pipeline-A-…', 'pipeline-B-…', 'q1']
    >>> short_names(["2024-01-01 23:00:00", "2024-01-02 00:00:00", "2024-01-02 00:30:00"])
    ['01-01 23:00', '01-02 00:00', '01-02 00:30']
    """
    texts = [" ".join(label.split()) for label in labels]
    clock = _clock_names(texts)
    names = [clock.get(t) or short_name(t, limit) for t in texts]

    def clashes() -> list[list[int]]:
        """Positions of each name that stands for more than one label."""
        rows: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            rows.setdefault(name, []).append(i)
        return [at for at in rows.values() if len({texts[i] for i in at}) > 1]

    for at in clashes():
        alike = sorted({texts[i] for i in at})
        head = _common_prefix(alike)
        tail = _common_prefix([t[::-1] for t in alike])
        for i in at:
            end = max(head + 1, len(texts[i]) - tail)
            names[i] = _window_name(texts[i], min(head, end - 1), end, limit) or texts[i]
    for _ in range(3):  # still alike another label: shown whole
        found = clashes()
        for at in found:
            for i in at:
                names[i] = texts[i]
        if not found:
            break
    return names


def row_names(df: pd.DataFrame) -> list[str]:
    """Short display names: the index label, shortened with "…" when long.

    The full label is in :func:`row_labels` (the report and the static view put it in a
    ``title`` attribute and in the row's detail header).

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    list of str
        :func:`short_names` of the labels: ``str(label)`` when at most 12 characters,
        else its start and end around "…", or the part that tells it from labels that
        would look the same.

    Examples
    --------
    >>> import pandas as pd
    >>> row_names(pd.DataFrame({"a": [1, 2]}, index=["q1", "a-very-long-row-id"]))
    ['q1', 'a-ver…row-id']
    """
    return short_names(row_labels(df))


def score_table(df: pd.DataFrame) -> pd.DataFrame:
    """Scores and statuses of every metric, by position.

    A score is NaN when missing or when its status is not a scored one
    (``no_ground_truth``, ``no_reference``, ``error``), so unmeasured rows never sort
    or plot as 0. A row with no status at all is ``not_run``: the metric never scored it
    (a frame concatenated from runs of different metrics), the rule by which
    :func:`ragnotebook.summary` counts its ``not_run`` column; an empty status is
    ``error``.

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
    >>> score_table(pd.DataFrame({"faithfulness": [1.0, None],
    ...                           "faithfulness_status": ["ok", None]}))["faithfulness_status"].tolist()
    ['ok', 'not_run']
    """
    out: dict[str, Any] = {}
    for m in require_scored(df):
        score = pd.to_numeric(df[m], errors="coerce").astype("float64").to_numpy()
        # a row whose status says "not measured" has no score, whatever the column holds
        out[m] = np.where(scored_mask(df, m), score, np.nan)
        # no status: never scored by this metric (summary()'s not_run); an empty one: error
        out[f"{m}_status"] = [
            "not_run" if _is_missing(s) else (_text(s) or "error")
            for s in df[f"{m}_status"].astype("object")
        ]
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
    # a lone surrogate in a claim or chunk would fail the sentence splitter and the page
    return [clean_value(v) for v in verdict_records(df[col].iat[pos]) or []]


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
    >>> fmt_score(float("nan"), "not_run")     # a metric that never ran on the row
    '— (not run)'
    """
    unmeasured = score is None or math.isnan(score) or status not in SCORED_STATUSES
    value = "—" if unmeasured else two_places(score)
    if status == "ok":
        return value
    if status == "no_claims" and unmeasured:
        return f"{value} (no answer, not scored)"
    return f"{value} ({status.replace('_', ' ')})"


#: Statuses in the order the views count them. ``no_answer`` is not a status of its own:
#: it is a ``no_claims`` faithfulness row whose answer is missing (not scored), counted
#: apart so ``no_claims`` counts only the measured 0s (:func:`status_counts`). Nor is
#: ``not_run``: a row with no status, which the metric never scored (summary()'s
#: ``not_run``), never an error.
STATUS_ORDER = (
    "ok",
    "no_claims",
    "no_answer",
    "no_context",
    "no_ground_truth",
    "no_reference",
    "error",
    "not_run",
)


def status_labels(table: pd.DataFrame, metric: str) -> np.ndarray:
    """Each row's status of one metric as the views name it: ``no_answer`` for a
    ``no_claims`` row left unscored because its answer is missing.

    ``no_claims`` is then only a measured 0 (an answer with no checkable claim, e.g. a
    refusal), as :func:`status_counts` counts it and the explorer's **Status** filter
    selects it; ``not_run`` is a row with no status (:func:`score_table`).

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`score_table`.
    metric : str

    Returns
    -------
    numpy.ndarray
        One status name (str) per row, by position.

    Examples
    --------
    >>> import pandas as pd
    >>> from ragnotebook.views._data import score_table, status_labels
    >>> df = pd.DataFrame({"answer": ["I don't know.", None], "faithfulness": [0.0, 0.0],
    ...                    "faithfulness_status": ["no_claims", "no_claims"]})
    >>> status_labels(score_table(df), "faithfulness").tolist()
    ['no_claims', 'no_answer']
    """
    status = table[f"{metric}_status"].astype(str).to_numpy()
    unscored = np.isnan(table[metric].to_numpy(dtype=float))
    return np.where((status == "no_claims") & unscored, "no_answer", status)


def status_counts(table: pd.DataFrame, metric: str) -> dict[str, int]:
    """Rows per status of one metric, with the unscored ``no_claims`` rows as ``no_answer``.

    ``no_claims`` counts the measured 0s (an answer with no claim, e.g. a refusal) and
    ``no_answer`` the ``no_claims`` rows left out of the mean because the answer is missing,
    so the counts add up to the number of rows (``not_run`` counts the rows with no status)
    and ``ok + no_claims + no_context`` is the number of scored rows (``ok`` alone for
    context precision, which gives ``no_context`` rows no score).
    :func:`ragnotebook.summary` has the same ``no_answer`` count; its ``no_claims`` column
    counts both kinds.

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
    counts = pd.Series(status_labels(table, metric)).value_counts()
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


def check_count(
    value: Any, param: str, minimum: int | None, *, allow_none: bool = False
) -> int | None:
    """``value`` as an int when it is a whole number of at least ``minimum``.

    Parameters
    ----------
    value : int or None
    param : str
        The parameter named in the error.
    minimum : int or None
        The smallest value allowed; None for any whole number.
    allow_none : bool, default False
        Accept (and return) ``None``.

    Returns
    -------
    int or None

    Raises
    ------
    ValueError
        Naming ``param``, for a negative, too small, fractional, infinite, NaN or
        non-numeric value (a bool is not a number here).

    Examples
    --------
    >>> from ragnotebook.views._data import check_count
    >>> check_count(5, "max_rows", 0), check_count(3.0, "bins", 1), check_count(-2, "delta", None)
    (5, 3, -2)
    >>> check_count(-1, "max_rows", 0)
    Traceback (most recent call last):
    ...
    ValueError: max_rows must be a whole number of at least 0, got -1
    >>> check_count(2.5, "bins", 1)
    Traceback (most recent call last):
    ...
    ValueError: bins must be a whole number of at least 1, got 2.5
    """
    if value is None and allow_none:
        return None
    ok = isinstance(value, int | np.integer | float | np.floating) and not isinstance(
        value, bool | np.bool_
    )
    if (
        not ok
        or not math.isfinite(value)
        or int(value) != value
        or (minimum is not None and value < minimum)
    ):
        least = "" if minimum is None else f" of at least {minimum}"
        extra = " or None" if allow_none else ""
        raise ValueError(f"{param} must be a whole number{least}{extra}, got {value!r}")
    return int(value)


def check_level(value: Any, param: str) -> float:
    """``value`` as a float when it is a number strictly between 0 and 1 (a confidence level).

    Parameters
    ----------
    value : float
    param : str
        The parameter named in the error.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``param``, for 0, 1, anything outside them, NaN, a bool or a non-number.

    Examples
    --------
    >>> from ragnotebook.views._data import check_level
    >>> check_level(0.9, "ci")
    0.9
    >>> check_level("95%", "ci")
    Traceback (most recent call last):
    ...
    ValueError: ci must be a number between 0 and 1 (exclusive), got '95%'
    """
    ok = isinstance(value, int | np.integer | float | np.floating) and not isinstance(
        value, bool | np.bool_
    )
    if not ok or not 0 < value < 1:
        raise ValueError(f"{param} must be a number between 0 and 1 (exclusive), got {value!r}")
    return float(value)


#: The group of a row whose ``by`` cell is empty (as :func:`group_keys` names it).
MISSING_GROUP = "(missing)"


def group_keys(df: pd.DataFrame, by: Any, who: str) -> list[str] | None:
    """Each row's group, as text, for the views' ``by=`` (e.g. the system or retriever).

    Parameters
    ----------
    df : pandas.DataFrame
    by : str or None
        A column of ``df``; None for no groups.
    who : str
        The call named in the error (``"report()"``).

    Returns
    -------
    list of str or None
        Each row's group name (:func:`group_name`); None when ``by`` is None.

    Raises
    ------
    ValueError
        When ``by`` is not a column of ``df`` (naming the frame's columns) or not a string.

    Examples
    --------
    >>> import pandas as pd
    >>> from ragnotebook.views._data import group_keys
    >>> group_keys(pd.DataFrame({"system": ["A", None, "B", "", "A "]}), "system", "report()")
    ['A', '(missing)', 'B', "''", "'A '"]
    """
    if by is None:
        return None
    if not isinstance(by, str):
        raise ValueError(f"{who}: by= must be a column name (a str), got {by!r}")
    if by not in df.columns:
        raise ValueError(f"{who}: by={by!r} is not a column; {column_hint(df, by)}")
    column = df[by]
    if isinstance(column, pd.DataFrame):
        raise ValueError(f"{who}: by={by!r} names {column.shape[1]} columns of the frame")
    return [group_name(v) for v in column.tolist()]


def column_hint(df: pd.DataFrame, name: str, holder: str = "the frame") -> str:
    """``"did you mean 'system'? the frame has 'question', …"`` for a column not found.

    Parameters
    ----------
    df : pandas.DataFrame
    name : str
        The column asked for.
    holder : str, default "the frame"
        What holds the columns, as the message names it (the command line says "the
        file": its users pass files, not frames).

    Returns
    -------
    str
        The closest column names (:func:`difflib.get_close_matches`, case ignored), if
        any, then the frame's first twelve columns.

    Examples
    --------
    >>> import pandas as pd
    >>> column_hint(pd.DataFrame(columns=["question", "System"]), "sytem")
    "did you mean 'System'? the frame has 'question', 'System'"
    >>> column_hint(pd.DataFrame(columns=["question"]), "sytem", "the file")
    "the file has 'question'"
    """
    import difflib

    columns = [str(c) for c in df.columns]
    lower = {c.lower(): c for c in columns}
    close = difflib.get_close_matches(name.lower(), list(lower), n=2, cutoff=0.6)
    names = ", ".join(repr(c) for c in columns[:12]) + (" …" if len(columns) > 12 else "")
    guess = " or ".join(repr(lower[c]) for c in close)
    return (f"did you mean {guess}? " if guess else "") + f"{holder} has {names}"


def group_name(value: Any) -> str:
    """How a group is named in the views and the command line's messages.

    Groups are the column's distinct values, as :func:`ragnotebook.summary` forms them
    (``by=``); the names keep them apart and visible: a missing value (None, NaN, NA) is
    :data:`MISSING_GROUP`, and a text that is empty, has outer blanks or is itself
    ``"(missing)"`` is quoted (``''``, ``'A '``), so it is not taken for another group;
    so is a text with control characters, written as escapes (``'A\\x00'``), which would
    otherwise show as nothing or a box and shift the columns of a report's row lines.

    Parameters
    ----------
    value : object
        A cell of the grouping column.

    Returns
    -------
    str
        Lone surrogates as U+FFFD.

    Examples
    --------
    >>> from ragnotebook.views._data import group_name
    >>> [group_name(v) for v in ("A", None, float("nan"), "", "  ", "(missing)", 3)]
    ['A', '(missing)', '(missing)', "''", "'  '", "'(missing)'", '3']
    >>> group_name("A\\x00\\x1b[31m")
    "'A\\\\x00\\\\x1b[31m'"
    """
    if _is_missing(value):
        return MISSING_GROUP
    text = replace_surrogates(str(value))
    if (
        not text
        or text != text.strip()
        or text == MISSING_GROUP
        or any(unicodedata.category(c) == "Cc" for c in text)
    ):
        return repr(text)
    return text


def _is_missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a list or array cell is a value
        return False


# ------------------------------------------------------------ one warning per user call

#: True while an outer view call runs (its warnings are already given).
_IN_VIEW: ContextVar[bool] = ContextVar("ragnotebook_in_view", default=False)
#: The frame's own notice about verdict text, which the views replace by one of theirs.
_FRAME_TEXT_NOTICE = r"(claims|chunks)\(\): columns? '"


class ViewCall:
    """The body of a public view: its warnings are given once, naming the user's call.

    On entering the outermost view call, one warning says when verdict cells of
    ``metrics`` are text (a frame read back from CSV), naming this view, and one names the
    text columns of ``texts`` the frame has no column for (:func:`warn_missing_texts`: a
    frame read back from a file without its run metadata); the same notice from
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
    texts : sequence of str, default TEXT_ROLES
        The roles whose text the view shows (``()``: none).

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> from ragnotebook.views._data import ViewCall
    >>> df = pd.DataFrame({"answer": ["x"], "contexts": [["c"]],
    ...                    "faithfulness": [1.0], "faithfulness_status": ["ok"],
    ...                    "faithfulness_verdicts": ["[{'index': 0, 'verdict': 'yes'}]"]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with ViewCall("report()", df), ViewCall("missed_claims()", df):
    ...         pass
    >>> [str(w.message).split(":")[0] for w in caught]
    ['report()']
    """

    def __init__(
        self,
        name: str,
        df: Any,
        metrics: Sequence[str] | None = None,
        texts: Sequence[str] = TEXT_ROLES,
    ) -> None:
        self.name = name
        self.df = df
        self.metrics = metrics
        self.texts = texts
        self._token: Any = None
        self._catch: Any = None

    def __enter__(self) -> ViewCall:
        if _IN_VIEW.get():
            return self
        if isinstance(self.df, pd.DataFrame):
            present = scored_metrics(self.df)
            wanted = present if self.metrics is None else [m for m in self.metrics if m in present]
            warn_text_verdicts(self.df, wanted, self.name)
            warn_missing_texts(self.df, self.texts, self.name)
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
