"""Reading RAG rows out of a pandas DataFrame.

The scoring API accepts whatever frame the user already has. This module finds
the columns that play the four roles (``question``, ``answer``, ``contexts``,
``ground_truth``), checks every cell and turns the frame into a list of
:class:`RagRow` objects, one per frame row, in frame order.

Column detection
----------------
A role is filled from an explicit ``columns={role: column}`` mapping when one
is given. Otherwise the frame's column names are compared with the role's
aliases in :data:`ALIASES` (case-insensitively). Two matching columns for one
role is an error, never a silent guess. A mapping that gives a role a column named as
another role's while a column named as this role's is left unused is warned about when
rows are read (``{"answer": "ground_truth"}`` beside an ``answer`` column).

Cell rules
----------
* Text roles (question, answer, ground truth): strings are kept as they are,
  missing values (``None``, ``NaN``, ``pd.NA``) become ``None`` and numbers
  are turned into strings. Anything else is an error naming the row and column.
* Contexts: a list, tuple or 1-D NumPy array of strings. A string that holds a
  JSON list, a Python list or tuple literal (what a list or tuple column looks like
  after a round trip through CSV), or a JSON string holding such a list (a column
  encoded twice) is parsed, with one :class:`UserWarning` per read. A string that
  opens like a list of strings but does not parse (cut off by a spreadsheet's cell
  limit, say) and one holding a list with no text item (``"[17, 42]"``) are each kept
  as one chunk, with one warning per kind. The texts ``"nan"``, ``"NaN"``, ``"None"``,
  ``"null"`` and ``"<NA>"`` (what ``str()`` makes of a missing cell, as
  ``df[col].map(str)`` or pandas 2's ``astype(str)`` do) are a missing value. Any
  other string is a single chunk; a missing value is an empty list.
* A lone surrogate in any text (``"\\ud83d"``, half of an emoji, as :func:`json.loads`
  returns for an escape cut in two) becomes U+FFFD, with one warning naming the first
  row and column: UTF-8 cannot encode it, so hashing or sending the text would fail.
"""

from __future__ import annotations

import ast
import io
import json
import math
import re
import tokenize
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pandas as pd

from ragnotebook._textsafe import has_surrogates, replace_surrogates
from ragnotebook._warn import warn_user

__all__ = [
    "ALIASES",
    "MISSING_TEXTS",
    "ROLES",
    "ContextParseState",
    "RagRow",
    "and_list",
    "is_missing_contexts",
    "mapped_elsewhere",
    "missing_columns_message",
    "normalize_contexts",
    "normalize_text",
    "read_rows",
    "resolve_columns",
]

#: The four roles a column can play, in the order they are reported.
ROLES: Final[tuple[str, ...]] = ("question", "answer", "contexts", "ground_truth")

#: Column names recognised for each role, most preferred first.
ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "question": ("question", "user_input", "input", "query"),
    "answer": ("answer", "response", "actual_output", "output"),
    "contexts": ("contexts", "retrieved_contexts", "retrieval_context"),
    "ground_truth": ("ground_truth", "reference", "expected_output"),
}

_MAX_LISTED_COLUMNS = 25


@dataclass(frozen=True, slots=True)
class RagRow:
    """One frame row, normalised for scoring.

    Parameters
    ----------
    label : Hashable
        The row's index label. Labels may repeat; ``position`` is always unique.
    position : int
        0-based position of the row in the frame.
    question : str or None
        The user question, or ``None`` when missing or when no column has the role.
    answer : str or None
        The generated answer being judged, or ``None``.
    contexts : tuple of str
        The retrieved chunks in retrieval order; empty when missing.
    ground_truth : str or None
        The reference answer, or ``None``.

    Examples
    --------
    >>> row = RagRow(label="q1", position=0, question="Is the pass open?",
    ...              answer="No.", contexts=("The pass is closed in winter.",),
    ...              ground_truth=None)
    >>> row.contexts
    ('The pass is closed in winter.',)
    """

    label: Hashable
    position: int
    question: str | None
    answer: str | None
    contexts: tuple[str, ...]
    ground_truth: str | None


@dataclass(slots=True)
class ContextParseState:
    """Tally of context cells that had to be parsed from strings during one read.

    :func:`read_rows` passes one instance to every :func:`normalize_contexts`
    call so that a single summary warning can be raised at the end of the read
    instead of one per row.

    Parameters
    ----------
    parsed_rows : int, default 0
        Number of cells parsed from a string holding a list so far.
    first_row : Hashable, optional
        Label of the first such row, quoted in the warning.
    unparsed_rows : int, default 0
        Number of cells that open like a list of strings written as text but do not
        parse (a quote or bracket missing; a cell cut off), each kept as one chunk.
    first_unparsed : Hashable, optional
        Label of the first such row.
    textless_rows : int, default 0
        Number of cells holding a list written as text none of whose items is a text
        (``"[17, 42]"``: chunk ids or scores, most likely), each kept as one chunk.
    first_textless : Hashable, optional
        Label of the first such row.

    Examples
    --------
    >>> state = ContextParseState()
    >>> normalize_contexts('["a", "b"]', row="q1", column="contexts", warn_state=state)
    ['a', 'b']
    >>> state.parsed_rows
    1
    """

    parsed_rows: int = 0
    first_row: Hashable | None = None
    #: cells that look like a list of strings written as text but do not parse
    unparsed_rows: int = 0
    first_unparsed: Hashable | None = None
    #: cells holding a list written as text with no text item ("[17, 42]")
    textless_rows: int = 0
    first_textless: Hashable | None = None

    def warn(self, column: Hashable) -> None:
        """Raise one :class:`UserWarning` per kind of cell counted, if any.

        Parameters
        ----------
        column : Hashable
            The contexts column the cells came from, named in the message.

        Returns
        -------
        None

        Warns
        -----
        UserWarning
            One for the cells that did not parse (``unparsed_rows``), one for those
            holding a list with no text (``textless_rows``) and one for those parsed
            (``parsed_rows``), each when its count is positive.

        Examples
        --------
        >>> import warnings
        >>> state = ContextParseState(parsed_rows=2, first_row="q1")
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     state.warn("contexts")
        >>> "2 rows" in str(caught[0].message)
        True
        """
        if self.unparsed_rows > 0:
            n = self.unparsed_rows
            rows = "1 row" if n == 1 else f"{n} rows"
            warn_user(
                f"the contexts of {rows} in column {column!r} (first: row "
                f"{self.first_unparsed!r}) look like a list of strings written as text but "
                "do not parse (a bracket or quote missing, perhaps cut off); each was kept as "
                "one chunk. Check those cells, or store contexts as lists of strings."
            )
        if self.textless_rows > 0:
            n = self.textless_rows
            rows = "1 row" if n == 1 else f"{n} rows"
            warn_user(
                f"the contexts of {rows} in column {column!r} (first: row "
                f"{self.first_textless!r}) hold a list written as text with no text in it "
                "(numbers such as chunk ids or scores, or None); each was kept as one chunk. "
                "Check that this column holds the chunk texts (columns={'contexts': ...})."
            )
        if self.parsed_rows <= 0:
            return
        n = self.parsed_rows
        rows = "1 row" if n == 1 else f"{n} rows"
        warn_user(
            f"the contexts of {rows} in column {column!r} (first: row {self.first_row!r}) "
            "were strings holding a list and were parsed into chunks. This usually means "
            "the frame was read back from CSV; store contexts as lists of strings (JSONL or "
            "Parquet keep them) to avoid the guesswork."
        )


def _is_missing(value: Any) -> bool:
    """Return True for None, NaN (any float kind), pd.NA and pd.NaT."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float | np.floating):
        return math.isnan(value)
    return False


#: Texts that stand for a missing contexts cell: what ``str()`` makes of NaN, None and
#: ``pd.NA`` (``df[col].map(str)``, or ``astype(str)`` in pandas 2), and JSON's null
#: written as a string. No retriever returns one of these as its only chunk.
MISSING_TEXTS: Final[frozenset[str]] = frozenset({"nan", "NaN", "None", "null", "<NA>"})


def is_missing_contexts(value: Any) -> bool:
    """Whether a contexts cell holds no value: a missing value or a text standing for one.

    Parameters
    ----------
    value : object
        The cell, as it is in the frame.

    Returns
    -------
    bool
        True for ``None``, ``NaN``, ``pd.NA``, ``pd.NaT`` and for a string that is one
        of :data:`MISSING_TEXTS` (outer blanks ignored); :func:`normalize_contexts`
        reads each as no chunks. False for anything else, an empty list included (the
        retriever returned nothing).

    Examples
    --------
    >>> from ragnotebook.intake import is_missing_contexts
    >>> [is_missing_contexts(v) for v in (None, float("nan"), "nan", " None ", [], "NaN.")]
    [True, True, True, True, False, False]
    """
    if isinstance(value, str):
        return value.strip() in MISSING_TEXTS
    return _is_missing(value)


#: A bad frame's error names its first bad row and up to this many in all.
_MAX_PROBLEMS: Final = 5


def _fail(row: Hashable, column: Hashable, position: int | None, problem: str) -> ValueError:
    """Build the error for a bad cell: ``row 'q7', column 'answer': <problem>``."""
    same = isinstance(row, int | np.integer) and not isinstance(row, bool) and row == position
    at = f" (row position {position})" if position is not None and not same else ""
    return ValueError(f"row {row!r}, column {column!r}: {problem}{at}")


#: NumPy's summarised print of a long array: "['a' 'b' 'c' ... 'x' 'y' 'z']"
_NUMPY_SHORTENED: Final = re.compile(r"""^\s*\[\s*(['"]).*\1\s+\.\.\.\s+(['"]).*\]\s*$""", re.S)
#: tokens that only lay out a printed list
_LAYOUT_TOKENS: Final = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
)
#: bare words NumPy prints for non-string items of an object array
_BARE_ITEMS: Final[dict[str, Any]] = {
    "None": None,
    "True": True,
    "False": False,
    "nan": float("nan"),
}


def not_a_frame(value: Any) -> str:
    """The error message for a non-DataFrame where a frame is expected, with the way to
    make one from records (a list of dicts, as ragas, deepeval or a JSON file give).

    Examples
    --------
    >>> from ragnotebook.intake import not_a_frame
    >>> not_a_frame([{"question": "Where?"}])
    'expected a pandas DataFrame, got list; make one first: pd.DataFrame(records)'
    """
    tip = ""
    if isinstance(value, list | tuple | Mapping):
        tip = "; make one first: pd.DataFrame(records)"
    return f"expected a pandas DataFrame, got {type(value).__name__}{tip}"


def _type_name(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _format_columns(df: pd.DataFrame) -> str:
    names = [repr(c) for c in df.columns[:_MAX_LISTED_COLUMNS]]
    extra = len(df.columns) - len(names)
    if extra > 0:
        names.append(f"... and {extra} more")
    return "[" + ", ".join(names) + "]" if names else "[] (the frame has no columns)"


def resolve_columns(
    df: pd.DataFrame,
    columns: Mapping[str, str | None] | None = None,
    *,
    required: Iterable[str] = (),
    roles: Iterable[str] | None = None,
    warn_near_misses: bool = False,
) -> dict[str, str | None]:
    """Decide which frame column plays each role.

    Parameters
    ----------
    df : pandas.DataFrame
        The user's frame.
    columns : Mapping[str, str or None], optional
        Explicit ``{role: column}`` choices. They win over alias detection; roles
        left out are still detected by alias. Mapping a role to ``None`` turns
        detection off for it (the role gets no column).
    required : Iterable[str], default ()
        Roles that must end up with a column.
    roles : Iterable[str], optional
        Only detect these roles (the others get ``None`` unless mapped), so that an
        ambiguity in a column the caller does not use is not an error. Default: all.
    warn_near_misses : bool, default False
        Warn (once) when a role in ``roles`` found no column but a column's name
        suggests it (``"user_question"``, ``"Gold answer"``), and (once) when
        ``columns`` maps a role to a column with another role's usual name while a
        column with this role's usual name is left unused (``{"answer":
        "ground_truth"}`` beside an ``answer`` column scores the reference as the
        answer); :func:`read_rows` turns this on for scoring.

    Returns
    -------
    dict[str, str or None]
        One entry per role in :data:`ROLES` order; ``None`` for roles that have
        no column.

    Raises
    ------
    TypeError
        If ``columns`` is not a mapping (a list of column names, say).
    ValueError
        If ``columns`` or ``required`` names an unknown role, a mapped column is
        not in the frame, ``columns`` maps one column to two roles, two columns match
        one role's aliases, the chosen
        column name is duplicated in the frame, or a required role has no column.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"user_input": ["Is the pass open?"], "Response": ["No."],
    ...                    "notes": ["x"]})
    >>> resolve_columns(df)
    {'question': 'user_input', 'answer': 'Response', 'contexts': None, 'ground_truth': None}
    >>> resolve_columns(df, {"ground_truth": "notes"})["ground_truth"]
    'notes'
    >>> resolve_columns(df, {"answer": None})["answer"] is None
    True
    >>> resolve_columns(pd.DataFrame({"Question ": ["q"], "Ground Truth": ["g"]}))
    {'question': 'Question ', 'answer': None, 'contexts': None, 'ground_truth': 'Ground Truth'}
    """
    if columns is not None and not isinstance(columns, Mapping):
        raise TypeError(
            "columns must be a mapping of role to column name, e.g. columns={'question': "
            "'prompt', 'contexts': 'docs'} "
            f"(the roles are {', '.join(map(repr, ROLES))}), "
            f"got {type(columns).__name__}"
        )
    explicit = dict(columns or {})
    required = tuple(required)
    for role in (*explicit, *required):
        if role not in ALIASES:
            raise ValueError(f"unknown role {role!r}; the roles are {', '.join(map(repr, ROLES))}")

    present = set(df.columns)
    result: dict[str, str | None] = {}
    for role, col in explicit.items():
        if col is not None and col not in present:
            raise ValueError(
                f"columns maps role {role!r} to column {col!r}, which is not in the frame; "
                f"the frame's columns are {_format_columns(df)}"
            )
        result[role] = col
    by_column: dict[Any, list[str]] = {}
    for role, col in explicit.items():
        if col is not None:
            by_column.setdefault(col, []).append(role)
    for col, both in by_column.items():
        if len(both) > 1:
            # one column as answer and ground truth scores the reference against itself
            # (faithfulness 1.0 for any bot): never what a user means
            raise ValueError(
                f"columns maps column {col!r} to the {and_list(both)} roles; a column plays "
                "one role: map each role to its own column (to judge a text against itself, "
                "copy the column first)"
            )

    claimed = {col for col in explicit.values() if col is not None}
    unique_columns = list(dict.fromkeys(df.columns))  # duplicates are reported below
    wanted = set(ROLES if roles is None else roles) | set(required)
    for role in ROLES:
        if role in result:
            continue
        if role not in wanted:
            result[role] = None
            continue
        aliases = ALIASES[role]
        candidates = [
            c
            for c in unique_columns
            if isinstance(c, str) and c not in claimed and _alias_form(c) in aliases
        ]
        if len(candidates) > 1:
            names = and_list(candidates)
            # suggest the one that holds text when the other does not (ids, scores)
            texty = [c for c in candidates if _holds_role(df, c, role)]
            pick = texty[0] if len(texty) == 1 else candidates[0]
            others = [c for c in candidates if c not in texty] if len(texty) == 1 else []
            note = (
                f" ({and_list(others)} hold{'s' if len(others) == 1 else ''} no text)"
                if others
                else ""
            )
            raise ValueError(
                f"columns {names} could both be the {role!r} column; pick one with "
                f"columns={{{role!r}: {pick!r}}}{note}"
            )
        result[role] = candidates[0] if candidates else None

    # a duplicated column is told before a missing role, whichever metrics were asked for
    duplicated = set(df.columns[df.columns.duplicated()])
    for role in ROLES:
        chosen = result[role]
        if chosen is not None and chosen in duplicated:
            raise ValueError(
                f"column {chosen!r} (used for {role!r}) appears more than once in the frame; "
                "rename the duplicates first"
            )
    missing = [role for role in ROLES if role in required and result[role] is None]
    if missing:
        # roles the call reads but does not require, whose column only looks like one
        # ("user_question"), are named in the same error: else the warning about them
        # comes only once the error is fixed
        raise ValueError(
            missing_columns_message(df, missing, explicit, result, optional=wanted - set(missing))
        )
    if warn_near_misses:
        _warn_near_misses(df, result, explicit, wanted)
        _warn_columns_left_unused(df, result, explicit, wanted)
    return {role: result[role] for role in ROLES}


def and_list(items: Iterable[Any], quote: bool = True) -> str:
    """``"'a', 'b' and 'c'"``: items for a message, quoted (``repr``) unless ``quote=False``.

    Parameters
    ----------
    items : iterable
    quote : bool, default True

    Returns
    -------
    str

    Examples
    --------
    >>> and_list(["context_recall", "faithfulness"]), and_list(["a"]), and_list([1, 2, 3], False)
    ("'context_recall' and 'faithfulness'", "'a'", '1, 2 and 3')
    """
    names = [repr(i) if quote else str(i) for i in items]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def missing_columns_message(
    df: pd.DataFrame,
    roles: Sequence[str],
    explicit: Mapping[str, str | None],
    found: Mapping[str, str | None],
    *,
    needed_by: Mapping[str, Sequence[str]] | None = None,
    rest: Sequence[str] = (),
    optional: Iterable[str] = (),
) -> str:
    """The one error for every role that found no column, each with its ``columns=`` remedy.

    Parameters
    ----------
    df : pandas.DataFrame
        The user's frame (its columns are listed).
    roles : sequence of str
        The roles without a column, in the order to report them (at least one).
    explicit : Mapping[str, str or None]
        The caller's ``columns=`` mapping.
    found : Mapping[str, str or None]
        The columns found for the other roles (not proposed as look-alikes).
    needed_by : Mapping[str, sequence of str], optional
        The metrics that need each role, named in the message (``'faithfulness' needs
        it``).
    rest : sequence of str, default ()
        Metrics whose columns are all there: ``score the rest with metrics=[...]``.
    optional : iterable of str, default ()
        Roles the call reads without needing them (the question, for most metrics): one
        without a column whose look-alike exists (``user_question``) is named at the end
        ("Also: ..."), so that one error shows every mapping to pass.

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"question": ["q"], "docs": [["c"]]})
    >>> print(missing_columns_message(df, ["answer", "contexts"], {}, {"question": "question"},
    ...                               needed_by={"answer": ["faithfulness"]}))
    ... # doctest: +NORMALIZE_WHITESPACE
    no column found for the 'answer' and 'contexts' roles; the frame's columns are
    ['question', 'docs']. 'answer' (tried 'answer', 'response', 'actual_output', 'output',
    ignoring case, spaces and dashes; 'faithfulness' needs it): rename a column or pass
    columns={'answer': '<column name>'}. 'contexts' (tried 'contexts', 'retrieved_contexts',
    'retrieval_context', ignoring case, spaces and dashes): 'docs' looks like it: rename a
    column or pass columns={'contexts': 'docs'}.
    """
    used = {c for c in found.values() if c is not None}
    listing = f"the frame's columns are {_format_columns(df)}"
    entries = []
    for role in roles:
        tried = "tried " + ", ".join(repr(a) for a in ALIASES[role])
        tried += ", ignoring case, spaces and dashes"
        taken = [
            f"column {col!r} is mapped to the {other!r} role"
            for other, col in mapped_elsewhere(explicit, role)
        ]
        metrics = list((needed_by or {}).get(role, ()))
        need = (
            f"{and_list(metrics)} {'needs' if len(metrics) == 1 else 'need'} it" if metrics else ""
        )
        likely = _look_alikes(df, role, used)
        pick = likely[0] if likely else "<column name>"
        remedy = f"rename a column or pass columns={{{role!r}: {pick!r}}}"
        plural = None if likely else _list_alike(df, role, used)
        if likely:
            shown = likely[:3]
            looks = "looks" if len(shown) == 1 else "look"
            remedy = f"{', '.join(map(repr, shown))} {looks} like it: {remedy}"
        elif plural is not None:
            remedy = _join_recipe(role, plural)
        entries.append((role, "; ".join([tried, *taken]), need, remedy))
    rest_hint = f"score the rest with metrics={list(rest)!r}" if rest else ""
    also = _near_miss_hints(df, found, explicit, set(optional) - set(roles))
    also_text = f" Also: {'; '.join(also)}." if also else ""
    if len(entries) == 1:
        role, tried, need, remedy = entries[0]
        tail = "; ".join(x for x in (need, rest_hint) if x)
        return (
            f"no column found for the {role!r} role ({tried}); {listing}. "
            + remedy[0].upper()
            + remedy[1:]
            + (f" ({tail})" if tail else "")
            + (f".{also_text}" if also_text else "")
        )
    said = " ".join(
        f"{role!r} ({'; '.join(x for x in (tried, need) if x)}): {remedy}."
        for role, tried, need, remedy in entries
    )
    return (
        f"no column found for the {and_list(r for r, *_ in entries)} roles; {listing}. {said}"
        + (f" Or {rest_hint}." if rest_hint else "")
        + also_text
    )


def mapped_elsewhere(explicit: Mapping[str, Any], role: str) -> list[tuple[str, str]]:
    """``(other role, column)`` for each column named as ``role`` is ("answer") that
    ``columns=`` gives to another role (a QA set whose "answer" is the reference).

    Parameters
    ----------
    explicit : Mapping[str, str or None]
        The caller's ``columns=`` mapping.
    role : str

    Returns
    -------
    list of (str, str)

    Examples
    --------
    >>> mapped_elsewhere({"ground_truth": "Answer"}, "answer")
    [('ground_truth', 'Answer')]
    """
    return [
        (other, col)
        for other, col in explicit.items()
        if other != role and isinstance(col, str) and _alias_form(col) in ALIASES[role]
    ]


def _alias_form(name: str) -> str:
    """A column name as aliases are matched: case, outer blanks and inner spaces or dashes
    ignored (``"Question "``, ``"Ground Truth"``, ``"ground-truth"``)."""
    return _NAME_SEPARATORS.sub("_", name.strip().casefold())


_NAME_SEPARATORS = re.compile(r"[\s\-]+")

#: words that suggest a column plays a role its name does not match exactly
_ROLE_HINTS: Final[dict[str, tuple[str, ...]]] = {
    "question": ("question", "query", "prompt"),
    "answer": ("answer", "response", "output", "generation", "reply", "completion"),
    "contexts": ("context", "chunk", "passage", "retriev", "document"),
    "ground_truth": ("ground_truth", "reference", "gold", "expected", "truth"),
}


#: short words that suggest a role only as a whole word of the name (``"answer_gt"``)
_ROLE_WORDS: Final[dict[str, frozenset[str]]] = {
    "question": frozenset({"q"}),
    "answer": frozenset({"pred", "prediction"}),
    "contexts": frozenset({"docs", "ctx", "ctxs"}),
    "ground_truth": frozenset({"gt", "ref", "refs"}),
}


#: Whole words of a column name that say it holds no text of a role even when another
#: word suggests one: ``reference_id``, ``truth_score``, ``gold_labels``, ``answer_len``.
_NOT_TEXT_WORDS: Final[frozenset[str]] = frozenset(
    {"id", "ids", "idx", "index", "score", "scores", "label", "labels", "rank", "ranks"}
    | {"count", "counts", "num", "len", "length", "flag", "flags", "url", "urls", "ts"}
    | {"token", "tokens", "cost", "latency"}  # completion_tokens, answer_cost
    # a class of the row, not its text: answer_kind ("right" / "hallucinated"), answer_type
    | {"kind", "type", "class", "category", "status", "verdict", "correct", "valid"}
)


def _holds_role(df: pd.DataFrame, column: Any, role: str) -> bool:
    """Whether what ``column`` holds could be ``role``'s: text (or numbers) for a question,
    answer or ground truth; chunks (lists, arrays or text) for contexts. Read on the first
    20 filled cells; a column of ints or lists is no ground truth (``gold_labels``)."""
    try:
        cells = df[column].dropna().head(20).tolist()
    except (TypeError, ValueError):  # a duplicated or unhashable label
        return True
    if not cells:
        return True  # empty: nothing says otherwise
    if role == "contexts":
        # a list of chunk ids or scores is no context ("contexts": [17, 42] beside
        # "retrieved_contexts"); an empty list says nothing
        return all(
            isinstance(v, str)
            or (isinstance(v, list | tuple | np.ndarray) and (not len(v) or isinstance(v[0], str)))
            for v in cells
        )
    if all(isinstance(v, bool | np.bool_) for v in cells):
        return False
    texts = [v for v in cells if isinstance(v, str)]
    if len(texts) >= 10 and len(set(texts)) <= 3 and all(len(v.split()) <= 2 for v in texts):
        return False  # a label column ("right" / "hallucinated"), not answers
    return all(isinstance(v, str | int | float | np.integer | np.floating) for v in cells) and (
        any(isinstance(v, str) for v in cells)
        # whole numbers may be answers ("1879"), fractions are scores
        or all(float(v).is_integer() for v in cells)
    )


def _look_alikes(df: pd.DataFrame, role: str, used: set[Any]) -> list[str]:
    """Columns not yet used whose name suggests ``role`` (``"gold answer"``, ``"answer_gt"``)
    and whose cells could be that role's (not ``reference_id`` or ``truth_score``)."""
    found = []
    for c in dict.fromkeys(df.columns):
        if c in used:
            continue
        # a column of a frame with several column levels is a tuple: its last text level
        # names it (``("system_a", "answer")``), and the tuple is what ``columns=`` takes
        name = c if isinstance(c, str) else _last_text_level(c)
        if name is None:
            continue
        form = _alias_form(name)
        words = set(re.split(r"[_.]+", form))
        if role == "answer" and _name_suggests("ground_truth", form, words):
            continue  # "gold answer", "reference_answer", "expected_response": the reference
        if _name_suggests(role, form, words) and (
            form in ALIASES[role] or (not (words & _NOT_TEXT_WORDS) and _holds_role(df, c, role))
        ):
            found.append(c)
    return found


def _name_suggests(role: str, form: str, words: set[str]) -> bool:
    """Whether a column name (in its alias form, and split into words) suggests ``role``:
    an alias, a hint inside it (``"gold_answer"`` for the ground truth) or a short word
    of it (``"answer_gt"``)."""
    return (
        form in ALIASES[role]
        or any(h in form for h in _ROLE_HINTS[role])
        or bool(_ROLE_WORDS[role] & words)
        or _misspelt(form, ALIASES[role])
    )


def _misspelt(form: str, names: Sequence[str]) -> bool:
    """Whether a column name is one of ``names`` with a letter or two wrong, left out or
    swapped (``"questoin"``, ``"answr"``, ``"contxts"``): a ratio of at least 0.85 in
    :class:`difflib.SequenceMatcher`, for names of five letters or more."""
    import difflib

    if len(form) < 5:
        return False
    return bool(difflib.get_close_matches(form, [n for n in names if len(n) >= 5], 1, 0.85))


def _list_alike(df: pd.DataFrame, role: str, used: set[Any]) -> Hashable | None:
    """A column named like a text role in the plural (``ground_truths``, ragas' older
    name) whose cells are lists of strings, or None. Joined, it would be that role."""
    if role == "contexts":
        return None
    for c in dict.fromkeys(df.columns):
        if c in used or not isinstance(c, str):
            continue
        form = _alias_form(c)
        if not (form.endswith("s") and form[:-1] in ALIASES[role]):
            continue
        try:
            cells = df[c].dropna().head(20).tolist()
        except (TypeError, ValueError):
            continue
        if cells and all(
            isinstance(v, list | tuple | np.ndarray) and all(isinstance(x, str) for x in v)
            for v in cells
        ):
            return c
    return None


def _join_recipe(role: str, column: Hashable) -> str:
    """The one-line recipe that joins a column of lists of texts into ``role``'s column."""
    return (
        f"{column!r} holds lists of texts (ragas' older plural form): join them first, e.g. "
        f"df[{role!r}] = df[{column!r}].map(' '.join)"
    )


def _last_text_level(column: Any) -> str | None:
    """The last non-empty text level of a multi-level column name, else ``None``."""
    if not isinstance(column, tuple):
        return None
    texts = [x for x in column if isinstance(x, str) and x.strip()]
    return texts[-1] if texts else None


def _warn_near_misses(
    df: pd.DataFrame,
    result: Mapping[str, str | None],
    explicit: Mapping[str, str | None],
    wanted: set[str],
) -> None:
    """Warn once when a role the call reads found no column but a column's name suggests it.

    ``"user_question"`` or ``"Gold answer"`` are not aliases; scoring without them would
    quietly drop the question or ground truth, so the user is told which column looks like
    it and how to map it.
    """
    hints = _near_miss_hints(df, result, explicit, wanted)
    if hints:
        warn_user("; ".join(hints) + ".", UserWarning)


#: how a message names a role after "the usual name of"
_ROLE_NAMES: Final[dict[str, str]] = {
    "question": "the question",
    "answer": "the answer",
    "contexts": "the contexts",
    "ground_truth": "the ground truth",
}


def _warn_columns_left_unused(
    df: pd.DataFrame,
    result: Mapping[str, str | None],
    explicit: Mapping[str, str | None],
    wanted: set[str],
) -> None:
    """Warn once when ``columns=`` gives a role a column named as another role's while a
    column named as this role's is in the frame and plays no role.

    ``columns={"answer": "ground_truth"}`` on a frame that also has an ``answer`` column
    judges the reference as if the system had written it, and the system's answers are
    never read: a swapped mapping, most likely.
    """
    used = {c for c in result.values() if c is not None}
    said: list[str] = []
    for role in ROLES:  # in the order roles are reported, whatever the mapping's order
        col = explicit.get(role)
        if role not in wanted or not isinstance(col, str):
            continue
        form = _alias_form(col)
        named_for = [other for other in ROLES if other != role and form in ALIASES[other]]
        if not named_for:
            continue
        idle = [
            c
            for c in dict.fromkeys(df.columns)
            if isinstance(c, str) and c not in used and _alias_form(c) in ALIASES[role]
        ]
        if not idle:
            continue
        what = (
            f"the column {idle[0]!r} is" if len(idle) == 1 else f"the columns {and_list(idle)} are"
        )
        said.append(
            f"{what} left unused: columns= maps the role {role!r} to the column {col!r}, the "
            f"usual name of {_ROLE_NAMES[named_for[0]]}, so that column's text is scored as "
            f"{_ROLE_NAMES[role]}"
        )
    if said:
        warn_user(
            "; ".join(said) + ". If that is not meant, fix columns= (a role left out of it "
            "is found by its usual name)."
        )


def _near_miss_hints(
    df: pd.DataFrame,
    result: Mapping[str, str | None],
    explicit: Mapping[str, str | None],
    wanted: set[str],
) -> list[str]:
    """One hint per role in ``wanted`` without a column whose look-alike column exists."""
    used = {c for c in result.values() if c is not None}
    hints: list[str] = []
    for role in ROLES:
        if role not in wanted or result.get(role) is not None or role in explicit:
            continue
        likely = _look_alikes(df, role, used)
        if likely:
            hints.append(
                f"no {role!r} column was found, but {', '.join(map(repr, likely[:3]))} looks "
                f"like one: pass columns={{{role!r}: {likely[0]!r}}} to use it"
            )
    return hints


def normalize_text(
    value: Any,
    *,
    row: Hashable,
    column: Hashable,
    position: int | None = None,
) -> str | None:
    """Normalise one question, answer or ground-truth cell.

    Parameters
    ----------
    value : object
        The cell value.
    row : Hashable
        The row's index label, used in error messages.
    column : Hashable
        The column name, used in error messages.
    position : int, optional
        The row's 0-based position, added to error messages when given.

    Returns
    -------
    str or None
        The string unchanged; ``None`` for ``None``, ``NaN``, ``pd.NA`` or
        ``pd.NaT``; ``str(value)`` for an int, float or NumPy number, a whole float
        without its ``.0`` (a numeric CSV column with a gap is read as floats).

    Raises
    ------
    ValueError
        For any other type, booleans included.

    Examples
    --------
    >>> normalize_text("Who wrote it?", row=0, column="question")
    'Who wrote it?'
    >>> normalize_text(float("nan"), row=0, column="question") is None
    True
    >>> normalize_text(42, row=0, column="answer")
    '42'
    >>> normalize_text(42.0, row=0, column="answer"), normalize_text(2.5, row=0, column="answer")
    ('42', '2.5')
    """
    if type(value) is str:
        return value
    if isinstance(value, str):  # str subclasses such as numpy.str_
        return str(value)
    if _is_missing(value):
        return None
    if isinstance(value, bool | np.bool_):
        raise _fail(row, column, position, f"expected a string, got a boolean ({value!r})")
    text = number_text(value)
    if text is not None:
        return text
    hint = ""
    if isinstance(value, list | tuple | np.ndarray):
        hint = "; one text per cell: join the items (df[col].map(' '.join)) or keep one"
    else:
        path = _text_path(value)  # a chat message object or dict (AIMessage, {"content": ...})
        if path is not None:
            hint = f"; take its text first, e.g. df[col] = df[col].map(lambda d: {path})"
    raise _fail(row, column, position, f"expected a string, got {_type_name(value)}{hint}")


def argument_text(value: Any, name: str) -> str | None:
    """One text given as an argument (a scorer's ``ground_truth``, an answer under
    ``output['answer']``): the same rule as a frame cell (:func:`normalize_text`), with the
    argument's name in the message instead of a row and column.

    Parameters
    ----------
    value : object
        The value given.
    name : str
        The argument, as the message names it (``"ground_truth"``, ``"output['answer']"``).

    Returns
    -------
    str or None
        The string; ``None`` for a missing value (``None``, NaN, ``pd.NA``); the text of
        a number.

    Raises
    ------
    ValueError
        For anything else: a list (or tuple, array) of texts, with the way to join them;
        a dict or document object, with the way to take its text; a boolean.

    Examples
    --------
    >>> from ragnotebook.intake import argument_text
    >>> argument_text("It is on Pier 4.", "ground_truth"), argument_text(1879, "ground_truth")
    ('It is on Pier 4.', '1879')
    >>> argument_text(["It is on Pier 4.", "Pier 4"], "ground_truth")
    Traceback (most recent call last):
    ...
    ValueError: ground_truth: expected a string, got list; one text per ground_truth: join the items (' '.join(items)) or keep one
    """
    if isinstance(value, str):
        return str(value)
    if _is_missing(value):
        return None
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name}: expected a string, got a boolean ({value!r})")
    text = number_text(value)
    if text is not None:
        return text
    hint = ""
    if isinstance(value, list | tuple | np.ndarray):
        hint = f"; one text per {name}: join the items (' '.join(items)) or keep one"
    else:
        path = _text_path(value)
        if path is not None:
            hint = f"; take its text first, e.g. {name}={path}"
    raise ValueError(f"{name}: expected a string, got {_type_name(value)}{hint}")


def number_text(value: Any) -> str | None:
    """The text of a number cell (a whole float without its ``.0``), or None if not a number.

    Booleans and missing values (NaN) are not numbers here.

    Parameters
    ----------
    value : object
        Any value.

    Returns
    -------
    str or None
        ``str(value)`` for an int, float or NumPy number; a whole float as an int
        (pandas stores a numeric column with a gap as floats: 42 reads back as 42.0);
        None for anything else, NaN and booleans included.

    Examples
    --------
    >>> from ragnotebook.intake import number_text
    >>> number_text(1879), number_text(42.0), number_text(2.5), number_text("42")
    ('1879', '42', '2.5', None)
    """
    if isinstance(value, bool | np.bool_) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        return None
    if isinstance(value, float | np.floating):
        if math.isnan(value):
            return None
        if float(value).is_integer():
            return str(int(value))
    return str(value)


def _ground_truth(value: Any, *, row: Hashable, column: Hashable, position: int) -> str | None:
    """A ground-truth cell: text, refused as a list whether a real one or written as text.

    A list read back from CSV arrives as ``"['The museum is on Pier 4.', 'Pier 4']"``;
    taking that as the reference would make its brackets and quotes claims, and the same
    frame before ``to_csv`` is an error, so both are.
    """
    text = normalize_text(value, row=row, column=column, position=position)
    if text is not None and text.lstrip().startswith("["):
        items = _parse_list_string(text)
        if items and all(isinstance(item, str) for item in items):
            raise _fail(
                row,
                column,
                position,
                f"this string holds a list of {len(items)} strings written as text (as "
                "to_csv writes a list); a ground truth is one text: join the items, e.g. "
                "df[col] = df[col].map(lambda xs: ' '.join(ast.literal_eval(xs))), or keep one",
            )
    return text


def _parse_list_string(text: str) -> list[Any] | None:
    """Return the items of a list written in ``text``, or None if it holds no list of chunks.

    Read: a JSON array, a Python list or tuple literal, NumPy's printed form of a 1-D
    array (``to_csv`` writes an array cell as ``['a' 'b']``, without commas; Python would
    join those adjacent string literals into one string, so that form is read token by
    token instead), and a JSON string whose value is one of these (a column encoded
    twice). A list none of whose items is a string (``"[1]"``, ``"[see 2]"``) is not a
    list of chunks: None, and the caller keeps the text as one chunk.
    """
    return _as_chunks(_list_in_text(text))


def _as_chunks(items: list[Any] | None) -> list[Any] | None:
    """``items`` when they may be chunks (empty, or one item at least is a text, a
    document dict or a ``(text, score)`` pair), else None."""
    if items is None or (items and not any(_could_be_a_chunk(item) for item in items)):
        return None
    return items


def _list_in_text(text: str, *, unwrap: bool = True) -> list[Any] | None:
    """The items of a list or tuple written in ``text`` (see :func:`_parse_list_string`),
    whatever they are, or None. ``unwrap``: also read a JSON string holding such a text,
    one level down only."""
    stripped = text.strip()
    if len(stripped) < 2:
        return None
    opens, closes = stripped[0], stripped[-1]
    parsed: Any = None
    if opens == "[" and closes == "]":
        try:
            parsed = json.loads(stripped)
        except ValueError:
            parsed = _python_list(stripped)
    elif opens == "(" and closes == ")":
        # what to_csv writes for a tuple: its repr, "('a', 'b')" or "('a',)"; a text in
        # parentheses ("(see 2)", "('a')", a string) is no tuple and stays text
        parsed = _python_tuple(stripped)
    elif unwrap and opens == '"' and closes == '"':
        try:
            inner = json.loads(stripped)
        except ValueError:
            return None
        return _list_in_text(inner, unwrap=False) if isinstance(inner, str) else None
    return list(parsed) if isinstance(parsed, list | tuple) else None


def _python_tuple(text: str) -> tuple[Any, ...] | None:
    """The items of a Python tuple literal (``"('a', 'b')"``, ``"('a',)"``, ``"('a', nan)"``),
    else None (a parenthesised text or string is no tuple)."""
    try:
        parsed = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        items = _list_with_bare_names(text)
        return tuple(items) if items is not None else None
    return parsed if isinstance(parsed, tuple) else None


def _could_be_a_chunk(item: Any) -> bool:
    """Whether a parsed list item is, or holds, a chunk's text: a string, a dict, or a
    ``(text, score)`` pair (what a list of numbers or words like ``"[see 2]"`` is not)."""
    if isinstance(item, str | dict) or _chunk_list(item):
        return True
    return (
        isinstance(item, tuple | list)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], int | float)
    )


def _chunk_list(item: Any) -> bool:
    """Whether ``item`` is a list (tuple, 1-D array) of texts: one retrieval's chunks in
    a list of them (multi-query retrieval), to be flattened."""
    if isinstance(item, np.ndarray):
        return item.ndim == 1 and len(item) > 0 and all(isinstance(x, str) for x in item)
    return (
        isinstance(item, list | tuple) and len(item) > 0 and all(isinstance(x, str) for x in item)
    )


def _printed_document(text: str) -> str | None:
    """The path to the text (``"d['text']"``) when ``text`` is a document-like dict written
    as text (``"{'text': '...'}"``, what ``to_csv`` writes for a dict cell, or its JSON),
    else None; a dict with no text field (a JSON record as a chunk) is no document."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        parsed = json.loads(stripped)
    except ValueError:
        try:
            parsed = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return _text_path(parsed) if isinstance(parsed, dict) else None


#: the start of a list of strings written as text: ``['``, ``["`` (blanks allowed)
_LIST_OF_STRINGS_START = re.compile(r"""^\s*\[\s*['"]""")
#: what matters to find where a list written as text ends: a quoted string (with its
#: backslash escapes), a bracket, or a quote that never closes
_LIST_SCAN = re.compile(r"""'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]'"]""", re.S)


def _looks_like_a_list(text: str) -> bool:
    """A list of strings written as text that did not parse: it opens like one (``['``,
    ``["``) and either never closes (``'["a", '``, ``"['unterminated"``, a cell cut off
    by a spreadsheet's size limit), closes like one, or separates items like one
    (``"['a', 'b'"``). A bracketed text followed by prose (``"['see' ... 'more'] and
    the rest"``) is no list."""
    if not _LIST_OF_STRINGS_START.match(text):
        return False
    body = text.rstrip()
    if body.endswith("]") or "', '" in body or '", "' in body:
        return True
    return not _closed_before_the_end(body)


def _closed_before_the_end(text: str) -> bool:
    """Whether the bracket ``text`` opens with closes before its end, with text after it
    (quoted brackets do not count). False when it never closes: a quote or a bracket is
    left open."""
    depth = 0
    for found in _LIST_SCAN.finditer(text):
        token = found.group()
        if token == "[":
            depth += 1
        elif token == "]":
            depth -= 1
            if depth == 0:
                return bool(text[found.end() :].strip())
        elif len(token) == 1:  # a quote that is never closed
            return False
    return False


#: keys under which document-like dicts (LangChain, LlamaIndex, Haystack, OpenInference
#: spans' ``retrieval.documents``) hold their text
_TEXT_KEYS: Final[tuple[str, ...]] = ("page_content", "content", "text", "document.content")


def _text_path(item: Any) -> str | None:
    """How to reach the text of a document-like ``item``: ``"d['page_content']"``,
    ``"d.page_content"``, ``"d.node.text"`` (a LlamaIndex ``NodeWithScore``), or None."""
    if isinstance(item, Mapping):
        key = next((k for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
        if key is not None:
            return f"d[{key!r}]"
        inner = item.get("node")
        if isinstance(inner, Mapping):
            key = next((k for k in _TEXT_KEYS if isinstance(inner.get(k), str)), None)
            if key is not None:
                return f"d['node'][{key!r}]"
        return None
    # a LangChain Document, a LlamaIndex node: the text is an attribute
    attr = next((k for k in _TEXT_KEYS if isinstance(getattr(item, k, None), str)), None)
    if attr is not None:
        return f"d.{attr}"
    inner = getattr(item, "node", None)
    if inner is not None:
        attr = next((k for k in _TEXT_KEYS if isinstance(getattr(inner, k, None), str)), None)
        if attr is not None:
            return f"d.node.{attr}"
    return None


def chunk_fix(item: Any) -> tuple[str, str] | None:
    """What a non-string chunk is and the list comprehension that takes its text, or None.

    Parameters
    ----------
    item : object
        One item of a contexts list that is not a string.

    Returns
    -------
    tuple of (str, str) or None
        ``("a pair of a chunk and its score", "[d for d, _ in pairs]")`` for
        ``(text, score)`` pairs (LangChain's ``similarity_search_with_score``, with the
        document's text path), ``("a document object", "[d.page_content for d in docs]")``
        for document objects and dicts (LangChain, LlamaIndex, Haystack, OpenInference),
        None for anything else.

    Examples
    --------
    >>> from ragnotebook.intake import chunk_fix
    >>> chunk_fix({"page_content": "It is on Pier 4.", "metadata": {}})
    ('a document object', "[d['page_content'] for d in docs]")
    >>> chunk_fix(("It is on Pier 4.", 0.91))
    ('a pair of a chunk and its score', '[d for d, _ in pairs]')
    """
    if isinstance(item, tuple | list) and len(item) == 2 and isinstance(item[1], int | float):
        path = "d" if isinstance(item[0], str) else _text_path(item[0])
        if path is not None:
            return "a pair of a chunk and its score", f"[{path} for d, _ in pairs]"
    path = _text_path(item)
    if path is not None:
        return "a document object", f"[{path} for d in docs]"
    return None


def _item_problem(item: Any, i: int, *, in_string: bool = False) -> str:
    """Why list item ``i`` is no chunk, with a recipe when it is a missing chunk, a
    document-like object or dict, or a (text, score) pair. ``in_string``: the list was
    read from a string (a CSV cell), so the recipe applies before the file is written."""
    where = " of the list in this string" if in_string else ""
    problem = f"chunk {i}{where} is {_type_name(item)}, expected str"
    fix = "before saving the file, " if in_string else ""
    if item is None or (isinstance(item, float) and math.isnan(item)):
        # a list with a null element, as Parquet and Arrow lists and to_csv can hold
        return problem + (
            f" (a missing chunk; {fix}drop them with df[col] = df[col].map(lambda c: [x for "
            "x in c if isinstance(x, str)]), or write '' to keep the other chunks' positions)"
        )
    found = chunk_fix(item)
    if found is not None:
        what, expr = found
        var = "pairs" if expr.endswith("in pairs]") else "docs"
        problem += (
            f" ({what}; {fix}take the text, e.g. df[col] = df[col].map(lambda {var}: {expr}))"
        )
    elif _chunk_list(item):
        problem += (
            f" (a list of chunk lists, as multi-query retrieval gives; {fix}flatten it, e.g. "
            "df[col] = df[col].map(lambda parts: [c for part in parts for c in part]))"
        )
    return problem


#: a list of printed objects: ``[Document(page_content='...'), ...]``
_PRINTED_OBJECT: Final = re.compile(r"^\s*[\[(]\s*\(?\s*([A-Za-z_][\w.]*)\(")


#: where the text of a printed object's class is (the recipe in the error message)
_PRINTED_TEXT: Final[dict[str, str]] = {
    "Document": "d.page_content",
    "NodeWithScore": "d.node.text",
    "TextNode": "d.text",
    "Node": "d.text",
}


def _printed_objects(text: str) -> str | None:
    """The class name when ``text`` is the printed form (``repr``) of a list of objects
    (what ``to_csv`` writes for LangChain ``Document`` or LlamaIndex ``NodeWithScore``
    items), else None."""
    found = _PRINTED_OBJECT.match(text)
    if found is None or not text.rstrip().endswith(("]", ")")):
        return None
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    body = tree.body
    if not isinstance(body, ast.List | ast.Tuple) or not body.elts:
        return None
    first = body.elts[0]
    if isinstance(first, ast.Tuple) and first.elts:  # (Document(...), 0.83) pairs
        first = first.elts[0]
    return found.group(1) if isinstance(first, ast.Call) else None


def _python_list(text: str) -> list[Any] | None:
    """Items of a Python list literal or of NumPy's comma-less print form, else None."""
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in _LAYOUT_TOKENS
        ]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    inner = tokens[1:-1]
    # NumPy's form: two or more items and not one comma ("['a' 'b']", "['a' None]"); a
    # dict item ("[{'page_content': 'x'}]") has no comma either, but a colon
    numpy_form = len(inner) >= 2 and not any(t.string in (",", ":", "{") for t in inner)
    if not numpy_form:
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return _list_with_bare_names(text)
        return list(parsed) if isinstance(parsed, list | tuple) else None
    # NumPy: items separated by blanks or line breaks; a non-string item prints bare
    items: list[Any] = []
    for t in inner:
        if t.type == tokenize.STRING:
            try:
                items.append(ast.literal_eval(t.string))
            except (ValueError, SyntaxError):
                return None
        elif t.type == tokenize.NAME and t.string in _BARE_ITEMS:
            items.append(_BARE_ITEMS[t.string])
        elif t.type == tokenize.NUMBER:
            items.append(float(t.string))
        else:
            return None
    return items


def _list_with_bare_names(text: str) -> list[Any] | None:
    """Items of a Python list literal whose items are literals or bare ``nan``/``None``
    (``to_csv`` writes a list holding NaN as ``"['a', nan]"``, which
    :func:`ast.literal_eval` refuses), else None."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(tree.body, ast.List | ast.Tuple):
        return None
    items: list[Any] = []
    for node in tree.body.elts:
        if isinstance(node, ast.Name) and node.id in _BARE_ITEMS:
            items.append(_BARE_ITEMS[node.id])
            continue
        try:
            items.append(ast.literal_eval(node))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return items


def normalize_contexts(
    value: Any,
    *,
    row: Hashable,
    column: Hashable,
    warn_state: ContextParseState | None = None,
    position: int | None = None,
    where: str | None = None,
) -> list[str]:
    """Normalise one contexts cell to a list of chunk strings.

    Parameters
    ----------
    value : object
        The cell value: a list, tuple or 1-D NumPy array of strings, a string,
        or a missing value.
    row : Hashable
        The row's index label, used in error messages.
    column : Hashable
        The column name, used in messages.
    warn_state : ContextParseState, optional
        Collects cells parsed from strings so the caller can warn once (see
        :func:`read_rows`). Without it, parsing a string warns immediately.
    position : int, optional
        The row's 0-based position, added to error messages when given.
    where : str, optional
        What the value is, in place of ``row ..., column ...`` at the start of an error
        message (``"context"`` for a scorer's ``context=`` argument).

    Returns
    -------
    list of str
        The chunks in order. A string holding a list of strings is parsed: a JSON
        array, a Python list or tuple literal (``"('a', 'b')"``, ``"('a',)"``, what
        ``to_csv`` writes for a tuple cell), NumPy's printed form of an array
        (``"['a' 'b']"``, what ``to_csv`` writes for an array cell), or a JSON string
        whose value is one of these (a column encoded twice). Any other string is a
        single chunk (it is never split into characters), including a bracketed text
        with no string item (``"[1]"``, with a warning) and one that opens like a list
        of strings but does not parse (a cell cut off, with a warning). Missing values
        give ``[]``, and so do the texts in :data:`MISSING_TEXTS` (``"nan"``,
        ``"None"``: what ``str()`` makes of them). Empty and blank chunks are kept.

    Raises
    ------
    ValueError
        If an item of a list is not a string (the message names the row, the
        column and the 0-based chunk index), the same for a list held in a string
        that has string items and others (``"['a', None]"``), if an array is not
        1-D, or if the cell is of any other type.

    Examples
    --------
    >>> normalize_contexts(["Snow chains are required."], row="q1", column="contexts")
    ['Snow chains are required.']
    >>> normalize_contexts("One plain chunk.", row="q1", column="contexts")
    ['One plain chunk.']
    >>> normalize_contexts(None, row="q1", column="contexts")
    []
    >>> normalize_contexts("nan", row="q1", column="contexts")
    []
    >>> state = ContextParseState()
    >>> normalize_contexts("['a', 'b']", row="q1", column="contexts", warn_state=state)
    ['a', 'b']
    >>> normalize_contexts("('a', 'b')", row="q2", column="contexts", warn_state=state)
    ['a', 'b']
    >>> normalize_contexts('["a", "b', row="q3", column="contexts", warn_state=state)
    ['["a", "b']
    >>> state.parsed_rows, state.unparsed_rows
    (2, 1)
    """

    def fail(problem: str) -> ValueError:
        if where is not None:
            return ValueError(f"{where}: {problem}")
        return _fail(row, column, position, problem)

    if isinstance(value, str):
        if value.strip() in MISSING_TEXTS:  # "nan" from map(str): a missing cell
            return []
        items = _list_in_text(value)
        parsed = _as_chunks(items)
        if items and parsed is None:  # "[17, 42]": a list, but of no text
            _tally(warn_state, "textless", row, column)
            return [str(value)]
        if parsed is None:
            if _NUMPY_SHORTENED.match(value):
                raise fail(
                    "this string is a NumPy array printed with '...' in place of most of its "
                    "items (more than 1,000 chunks), so the chunks are lost; write the file "
                    "from lists (df[col].map(list)) or as Parquet / JSON Lines",
                )
            printed = _printed_objects(value)
            if printed is not None:
                path = _PRINTED_TEXT.get(printed.rsplit(".", 1)[-1], "d.<its text>")
                raise fail(
                    f"this string is the printed form of a list of {printed} objects (what "
                    "to_csv writes for objects), not chunk texts, and cannot be read back "
                    "safely; take the texts before saving, e.g. df[col] = df[col].map(lambda "
                    f"docs: [{path} for d in docs]), or save as Parquet / JSON Lines",
                )
            doc = _printed_document(value)
            if doc is not None:
                raise fail(
                    "this string is a document dict written as text (what to_csv writes for a "
                    "dict), not a list of chunk texts (a document object; before saving the "
                    f"file, take the text, e.g. df[col] = df[col].map(lambda d: [{doc}]))"
                )
            if _looks_like_a_list(value):
                _tally(warn_state, "unparsed", row, column)
            return [str(value)]
        for i, item in enumerate(parsed):
            if not isinstance(item, str):
                problem = _item_problem(item, i, in_string=True)
                raise fail(problem)
        parsed = [str(item) for item in parsed]
        _tally(warn_state, "parsed", row, column)
        return parsed
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise fail(f"expected a 1-D array of strings, got {value.ndim}-D")
        value = value.tolist()
    elif isinstance(value, tuple):
        value = list(value)
    elif not isinstance(value, list):
        if _is_missing(value):
            return []
        problem = f"expected a list of strings, got {_type_name(value)}"
        cell_path = _text_path(value)  # one document object or dict where a list of them goes
        if cell_path is not None:
            problem += (
                f" (a document object; take the text, e.g. df[col] = df[col].map(lambda d: "
                f"[{cell_path}]))"
            )
        raise fail(problem)
    out: list[str] = []
    for i, item in enumerate(value):
        if type(item) is str:
            out.append(item)
        elif isinstance(item, str):
            out.append(str(item))
        else:
            raise fail(_item_problem(item, i))
    return out


def _tally(state: ContextParseState | None, kind: str, row: Hashable, column: Hashable) -> None:
    """Count a contexts cell of ``kind`` (``"parsed"``, ``"unparsed"``, ``"textless"``) in
    ``state`` for the read's one warning, or warn about it at once when there is none."""
    one = state is None
    if state is None:
        state = ContextParseState()
    first = "first_row" if kind == "parsed" else f"first_{kind}"
    if getattr(state, f"{kind}_rows") == 0:
        setattr(state, first, row)
    setattr(state, f"{kind}_rows", getattr(state, f"{kind}_rows") + 1)
    if one:
        state.warn(column)


def read_rows(
    df: pd.DataFrame,
    columns: Mapping[str, str | None] | None = None,
    *,
    required: Iterable[str] = (),
    roles: Iterable[str] | None = None,
) -> tuple[list[RagRow], dict[str, str | None]]:
    """Turn a frame into one :class:`RagRow` per row, in frame order.

    Parameters
    ----------
    df : pandas.DataFrame
        The user's frame. Index labels may repeat; each row is still read.
    columns : Mapping[str, str or None], optional
        Explicit ``{role: column}`` choices (see :func:`resolve_columns`).
    required : Iterable[str], default ()
        Roles that must have a column.

    roles : Iterable[str], optional
        Only these roles are detected (see :func:`resolve_columns`).
    Returns
    -------
    rows : list of RagRow
        One row per frame row, ``rows[i].position == i``. Roles without a column
        are ``None`` (text) or ``()`` (contexts).
    mapping : dict[str, str or None]
        The resolved ``{role: column}`` mapping.

    Raises
    ------
    TypeError
        If ``df`` is not a DataFrame.
    ValueError
        From :func:`resolve_columns`, or when a cell cannot be normalised; the
        message names the row label and the column of the first bad cell, then of
        up to four more bad rows and how many others there are.

    Warns
    -----
    UserWarning
        Once per call when any contexts cells were parsed from strings holding a
        list (typical after ``pd.read_csv``), once when some open like a list of
        strings but do not parse (cut off), and once when some hold a list with no
        text item (``"[17, 42]"``), each naming the first row and the column; once
        when texts held a lone surrogate (replaced by U+FFFD in the rows returned),
        naming the first row and column; once when ``columns=`` maps a role to a
        column named for another role while a column named for this role is left
        unused (see :func:`resolve_columns`).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame(
    ...     {"query": ["Is the pass open?", None],
    ...      "response": ["No, it is closed.", 7],
    ...      "retrieved_contexts": [["The pass is closed in winter."], []]},
    ...     index=["q7", "q7"])
    >>> rows, mapping = read_rows(df, required=["answer"])
    >>> mapping["contexts"]
    'retrieved_contexts'
    >>> [(r.label, r.position, r.question, r.answer) for r in rows]
    [('q7', 0, 'Is the pass open?', 'No, it is closed.'), ('q7', 1, None, '7')]
    >>> rows[0].contexts
    ('The pass is closed in winter.',)
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(not_a_frame(df))
    mapping = resolve_columns(df, columns, required=required, roles=roles, warn_near_misses=True)
    n = len(df)
    labels = df.index.tolist()

    def cells(role: str) -> list[Any] | None:
        col = mapping[role]
        return None if col is None else df[col].tolist()

    questions = cells("question")
    answers = cells("answer")
    contexts = cells("contexts")
    truths = cells("ground_truth")
    q_col, a_col, c_col, g_col = (mapping[r] for r in ROLES)
    state = ContextParseState()

    rows: list[RagRow] = []
    append = rows.append
    problems: list[str] = []
    cut = _SurrogateTally()
    for i in range(n):
        label = labels[i]
        try:
            row = RagRow(
                label=label,
                position=i,
                question=None
                if questions is None
                else normalize_text(questions[i], row=label, column=q_col, position=i),
                answer=None
                if answers is None
                else normalize_text(answers[i], row=label, column=a_col, position=i),
                contexts=()
                if contexts is None
                else tuple(
                    normalize_contexts(
                        contexts[i], row=label, column=c_col, warn_state=state, position=i
                    )
                ),
                ground_truth=None
                if truths is None
                else _ground_truth(truths[i], row=label, column=g_col, position=i),
            )
        except ValueError as exc:  # every bad row is named, not only the first
            problems.append(str(exc))
            continue
        append(cut.clean(row, mapping))
    if problems:
        more = problems[1:_MAX_PROBLEMS]
        extra = len(problems) - 1 - len(more)
        message = problems[0]
        if more:
            message += f"\n{len(problems) - 1} more rows have bad cells: " + "; ".join(more)
            message += f"; ... and {extra} more" if extra else ""
        raise ValueError(message)
    if state.parsed_rows or state.unparsed_rows or state.textless_rows:
        state.warn(c_col)
    cut.warn()
    return rows, mapping


class _SurrogateTally:
    """Replaces lone surrogates in the texts of the rows read, and counts the cells.

    A lone surrogate (``"\\ud83d"``: half of an emoji, what :func:`json.loads` gives for
    an escape cut in two) cannot be encoded as UTF-8, so hashing, sending or segmenting
    the text would fail; each becomes U+FFFD, and one warning names the first cell.
    """

    __slots__ = ("cells", "first")

    def __init__(self) -> None:
        self.cells = 0
        self.first: tuple[Hashable, Hashable] | None = None

    def _count(self, label: Hashable, column: Hashable) -> None:
        self.cells += 1
        if self.first is None:
            self.first = (label, column)

    def _text(self, text: str | None, label: Hashable, column: Hashable) -> str | None:
        if text is None or not has_surrogates(text):
            return text
        self._count(label, column)
        return replace_surrogates(text)

    def clean(self, row: RagRow, mapping: Mapping[str, str | None]) -> RagRow:
        """``row``, or a copy whose texts hold U+FFFD in place of lone surrogates."""
        texts = (row.question, row.answer, row.ground_truth, *row.contexts)
        if not any(t is not None and has_surrogates(t) for t in texts):
            return row
        label = row.label
        question = self._text(row.question, label, mapping["question"])
        answer = self._text(row.answer, label, mapping["answer"])
        chunks = tuple(replace_surrogates(c) for c in row.contexts)
        if chunks != row.contexts:  # one cell, however many of its chunks were cut
            self._count(label, mapping["contexts"])
        return RagRow(
            label=label,
            position=row.position,
            question=question,
            answer=answer,
            contexts=chunks,
            ground_truth=self._text(row.ground_truth, label, mapping["ground_truth"]),
        )

    def warn(self) -> None:
        if not self.cells or self.first is None:
            return
        label, column = self.first
        cells = "1 text cell holds" if self.cells == 1 else f"{self.cells} text cells hold"
        warn_user(
            f"ragnotebook: {cells} a lone surrogate, half of a character such as an emoji "
            f"cut in two (what json.loads gives for an escape like \\ud83d) (first: row "
            f"{label!r}, column {column!r}); UTF-8 cannot encode it, so each was replaced by "
            "U+FFFD (\ufffd) for scoring and in the returned frame."
        )
