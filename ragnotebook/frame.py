"""Long-form tables and the summary, read from a scored frame (no judge calls)."""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._textsafe import clean_value
from ragnotebook._warn import warn_user
from ragnotebook.scorers._common import STATUSES, is_blank

__all__ = [
    "SCORED_STATUSES",
    "chunks",
    "claims",
    "require_scored",
    "scored_mask",
    "scored_metrics",
    "summary",
    "update_scores",
]

_METRIC_ORDER = ("context_recall", "context_precision", "faithfulness")
#: Statuses whose score is a measurement (included in the mean). ``no_ground_truth``
#: and ``no_reference`` mean the metric could not be measured; ``error`` means it failed.
SCORED_STATUSES = ("ok", "no_context", "no_claims")
#: Run counters copied from ``attrs["ragnotebook"]["metrics"][m]`` into the summary.
_RUN_COUNTS = (
    "calls",
    "attempts",
    "requests",
    "retries",
    "rate_limited",
    "timeouts",
    "cache_hits",
    "explain_failures",
    "out_of_range_chunks",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
)


#: Columns the summary's short display shows whatever their values.
_ALWAYS_SHOWN = ("metric", "column", "mean", "scored", "coverage")
#: Columns it leaves out because ``scored`` (``"n_scored/n_total"``) already says them, and
#: ``n_error``, which is always the ``error`` status count shown beside it.
_SAID_BY_SCORED = ("n_total", "n_scored", "n_error")


class _Summary(pd.DataFrame):
    """The frame :func:`summary` returns: its display leaves out the counts that say nothing.

    A summary has about 25 columns, more than pandas prints side by side, so the status
    counts would hide behind ``...``. The display (``repr`` and the notebook's HTML) shows
    ``mean``, ``scored``, ``coverage`` and every count column that is not 0 or ``<NA>`` in
    every row, then names the columns it left out. Only the display changes:
    indexing, ``to_string()``, ``to_csv()`` and every operation see all the columns, and
    anything derived from it is a plain :class:`pandas.DataFrame`.
    """

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def _shown(self) -> tuple[pd.DataFrame, list[str]]:
        keep: list[str] = []
        hidden: list[str] = []
        for col in self.columns:
            values = self[col]
            quiet = col in _SAID_BY_SCORED or (
                col not in _ALWAYS_SHOWN
                and pd.api.types.is_numeric_dtype(values.dtype)
                and bool(values.fillna(0).eq(0).all())
            )
            (hidden if quiet else keep).append(col)
        shown = pd.DataFrame(self[keep])
        if "mean" in shown.columns:
            # shown half-up to 3 decimals, as scores and the command line's tables are
            # (pandas would show 0.48249999..., the mean of two-decimal scores, as 0.482)
            from ragnotebook.scorers._common import round_half_up

            shown["mean"] = [v if pd.isna(v) else round_half_up(float(v), 3) for v in shown["mean"]]
        if "cost_usd" in shown.columns:
            # USD to four significant digits: at three decimals a run's $0.008025 and
            # $0.0079998 both read 0.008, and a cheap model's cost reads 0.000
            shown["cost_usd"] = [
                "<NA>" if pd.isna(v) else f"{float(v):.4g}" for v in shown["cost_usd"]
            ]
        return shown, hidden

    def _note(self, shown: pd.DataFrame, hidden: list[str]) -> str:
        parts = []
        if "no_answer" in shown.columns:
            parts.append("no_answer: the no_claims rows with no answer at all, not averaged")
        if "not_run" in shown.columns:
            parts.append("not_run: rows this metric never scored (no status), not averaged")
        quiet = [c for c in hidden if c not in _SAID_BY_SCORED]
        # a count that is <NA> in every row was not measured (a summary per group has no
        # judge counters: calls are counted per run), which is not the same as 0
        unknown = [c for c in quiet if bool(self[c].isna().all())]
        zero = [c for c in quiet if c not in unknown]
        if zero:
            parts.append(f"not shown, all 0: {', '.join(zero)}")
        if unknown:
            parts.append(f"not counted for these rows (<NA>): {', '.join(unknown)}")
        if any(c in _SAID_BY_SCORED for c in hidden):
            parts.append("n_total and n_scored: see 'scored'; n_error: see 'error'")
        if hidden:
            parts.append(f"all {self.shape[1]} columns: .to_string()")
        return f"({'; '.join(parts)})" if parts else ""

    @staticmethod
    def _options() -> tuple[Any, ...]:
        # every shown column, wrapped at the terminal's width; means to 3 decimals
        width = shutil.get_terminal_size((int(pd.get_option("display.width")), 24)).columns
        return ("display.max_columns", None, "display.width", width, "display.precision", 3)

    def __repr__(self) -> str:
        shown, hidden = self._shown()
        with pd.option_context(*self._options()):
            text = repr(shown)
        note = self._note(shown, hidden)
        return f"{text}\n{note}" if note else text

    def _repr_html_(self) -> str | None:
        shown, hidden = self._shown()
        with pd.option_context(*self._options()):
            html = pd.DataFrame._repr_html_(shown)  # type: ignore[attr-defined]
        note = self._note(shown, hidden)
        if html is None or not note:
            return html
        return f"{html}<p><small>{escape(note)}</small></p>"


def _summary_by(df: pd.DataFrame, by: Any) -> pd.DataFrame:
    """:func:`summary` per group of rows, stacked with the group before the metric."""
    require_scored(df)
    names = [by] if isinstance(by, str) else by
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        absent = [n for n in names if n not in df.columns]
        if absent:
            from ragnotebook.views._data import column_hint

            raise KeyError(
                f"summary(by=...): no column {', '.join(map(repr, absent))}; "
                + column_hint(df, absent[0])
            )
    parts: list[pd.DataFrame] = []
    tuples: list[tuple[Any, ...]] = []
    _warn_stale_scores(df, scored_metrics(df))  # once, not once per group
    for key, group in df.groupby(by, sort=True, dropna=False):
        part = pd.DataFrame(_summary_of(group))
        parts.append(part)
        head = key if isinstance(key, tuple) else (key,)
        tuples.extend((*head, m) for m in part.index)
    if not parts:
        raise ValueError("summary(by=...): the frame has no rows")
    out = pd.concat(parts)
    width = len(tuples[0]) - 1
    if isinstance(names, list) and len(names) == width:
        levels = [str(n) if isinstance(n, str) else getattr(n, "name", None) for n in names]
    else:
        levels = [getattr(by, "name", None) or "group"] if width == 1 else [None] * width
    out.index = pd.MultiIndex.from_tuples(tuples, names=[*levels, "metric"])
    return _Summary(out)


def scored_metrics(df: pd.DataFrame) -> list[str]:
    """Metrics present in a scored frame (those with ``m`` and ``m_status`` columns).

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    list of str
        In the order context_recall, context_precision, faithfulness.
    """
    return [m for m in _METRIC_ORDER if m in df.columns and f"{m}_status" in df.columns]


def require_scored(df: Any, metrics: list[str] | None = None) -> list[str]:
    """The scored metrics of ``df``; raise if it is not a scored DataFrame.

    Parameters
    ----------
    df : pandas.DataFrame
    metrics : list of str, optional
        Keep only these (those not scored are left out, without an error unless the
        frame has no scores at all).

    Returns
    -------
    list of str

    Raises
    ------
    TypeError
        If ``df`` is not a DataFrame.
    ValueError
        If it has no ragnotebook scores.

    Examples
    --------
    >>> import pandas as pd
    >>> require_scored(pd.DataFrame({"faithfulness": [1.0], "faithfulness_status": ["ok"]}))
    ['faithfulness']
    >>> require_scored(pd.DataFrame({"x": [1]}))
    Traceback (most recent call last):
    ...
    ValueError: this frame has no ragnotebook scores; run e.g. df.rag.evaluate(...) first
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    present = scored_metrics(df)
    if not present:
        raise ValueError(
            "this frame has no ragnotebook scores; run e.g. df.rag.evaluate(...) first"
        )
    return present if metrics is None else [m for m in metrics if m in present]


def _answer_column(df: pd.DataFrame) -> str | None:
    """The answer column: from the run metadata, else (a frame read back from JSONL or
    CSV has no ``attrs``) by the usual names; None when there is none or it is ambiguous."""
    mapped = ((df.attrs.get("ragnotebook", {}) or {}).get("columns", {}) or {}).get("answer")
    if mapped is not None:
        return mapped if mapped in df.columns else None
    from ragnotebook.intake import resolve_columns

    try:
        return resolve_columns(df, roles=("answer",))["answer"]
    except ValueError:
        return None


def _plain(value: Any) -> Any:
    """NumPy arrays and scalars inside a verdict turned back into lists and Python values."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def verdict_records(value: Any) -> list[dict[str, Any]] | None:
    """The verdict dicts of one ``m_verdicts`` cell, or None when the cell holds none.

    A scored frame read back from Parquet holds each cell as a NumPy array of dicts
    whose list values are arrays too (``supporting_chunks``); those are turned back
    into lists, so a frame read from a file is read like the one in memory.

    Parameters
    ----------
    value : list, tuple or numpy.ndarray of dict, or any other value
        The cell.

    Returns
    -------
    list of dict or None
        None for a missing value or any other type (a row not scored).

    Examples
    --------
    >>> import numpy as np
    >>> verdict_records(np.array([{"index": 0, "supporting_chunks": np.array([1])}]))
    [{'index': 0, 'supporting_chunks': [1]}]
    >>> verdict_records(None) is None
    True
    """
    if isinstance(value, np.ndarray):  # read back from Parquet: convert the nested arrays
        return [_plain(v) for v in value.tolist() if isinstance(v, dict)]
    if isinstance(value, str):  # read back from CSV: the list's Python repr
        value = _parse_verdict_text(value)
    if not isinstance(value, list | tuple):
        return None
    return [v for v in value if isinstance(v, dict)]  # in memory: the dicts as they are


def _parse_verdict_text(text: str) -> list[Any] | None:
    """A verdict list written as text by ``DataFrame.to_csv`` (its Python repr), or None.

    Only literals are read (:func:`ast.literal_eval`); ``nan`` (a float the repr writes
    bare) is read as None.
    """
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        try:
            value = ast.literal_eval(_BARE_NAN.sub("None", text))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return value if isinstance(value, list) else None


_BARE_NAN = re.compile(r"(?<![\w'\"])nan(?![\w'\"])")


def warn_text_verdicts(df: pd.DataFrame, metrics: Sequence[str], what: str) -> None:
    """Warn once when verdict cells are text (a scored frame read back from CSV).

    They are parsed (:func:`verdict_records`); the warning says how to keep the types.
    """
    text = [
        f"{m}_verdicts"
        for m in metrics
        if f"{m}_verdicts" in df.columns
        and any(isinstance(v, str) for v in df[f"{m}_verdicts"].tolist())
    ]
    if text:
        from ragnotebook.intake import and_list

        names = and_list(text)
        warn_user(
            f"{what}: {'columns' if len(text) > 1 else 'column'} {names} "
            f"{'hold' if len(text) > 1 else 'holds'} text, as in a scored frame read back "
            "from CSV; the verdict lists were parsed from that text. Save scored frames as "
            "Parquet or JSON lines to keep the types."
        )


def scored_mask(df: pd.DataFrame, column: str) -> np.ndarray:
    """Rows whose score in ``column`` is a measurement: a number with a scored status.

    Parameters
    ----------
    df : pandas.DataFrame
    column : str
        A score column ``m`` with its ``m_status`` next to it.

    Returns
    -------
    numpy.ndarray of bool
        True where ``m_status`` is one of :data:`SCORED_STATUSES` and ``m`` is not
        missing. For faithfulness, ``no_claims`` rows without an answer are not scored:
        the spec gives them 0, but that 0 is missing data. They are found by the
        scorer's reason for a blank answer (``m_reason``), or, where a row has no
        reason, by a missing or blank cell of the answer column (through
        ``attrs["ragnotebook"]["columns"]`` or the usual column names). A row scored on
        an answer stays scored whatever its answer cell reads after a round trip
        (``read_csv`` reads the answers "None" and "NA" as NaN).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"faithfulness": [0.5, 0.0, None],
    ...                    "faithfulness_status": ["ok", "error", "ok"]})
    >>> scored_mask(df, "faithfulness").tolist()
    [True, False, False]
    """
    status = df[f"{column}_status"].astype("string")
    scores = pd.to_numeric(df[column], errors="coerce").astype("float64")
    mask = status.isin(SCORED_STATUSES).fillna(False).to_numpy(bool) & scores.notna().to_numpy()
    if column == "context_precision":
        # a precision row without chunks has no score (the reference's NaN); a number next
        # to that status is a stale cell (a merge that kept the old score), not a measurement
        mask &= ~status.eq("no_context").fillna(False).to_numpy(bool)
    if column == "faithfulness":
        # the spec gives a missing answer 0 with status no_claims; that 0 is missing data,
        # not a measurement (a refusal, which also has no claims, stays in the mean). Only
        # no_claims rows can be such rows: one with claims had an answer when it was scored,
        # whatever its cell reads now (pandas' read_csv turns the answers "None" and "NA"
        # into NaN)
        no_claims = status.eq("no_claims").fillna(False).to_numpy(bool)
        said = known = np.zeros(len(df), dtype=bool)
        reasons = f"{column}_reason"
        if reasons in df.columns:
            # the scorer's own record of what it saw, first: found even when the answer
            # column is unknown (a file scored with columns={"answer": ...} and read back
            # without its attrs), and still right when a round trip blanked the answer
            from ragnotebook.scorers.faithfulness import BLANK_ANSWER_REASON

            text = df[reasons].astype("string")
            said = text.eq(BLANK_ANSWER_REASON).fillna(False).to_numpy(bool)
            known = text.str.strip().ne("").fillna(False).to_numpy(bool)
        blank = np.zeros(len(df), dtype=bool)
        answer_col = _answer_column(df)
        if answer_col is not None:
            answers = df[answer_col]
            blank = answers.isna().to_numpy() | answers.map(
                lambda a: isinstance(a, str) and is_blank(a)
            ).to_numpy(bool)
        mask &= ~(no_claims & (said | (blank & ~known)))
    return mask


def claims(df: pd.DataFrame) -> pd.DataFrame:
    """One row per claim, from context recall (ground-truth claims) and faithfulness (answer claims).

    Parameters
    ----------
    df : pandas.DataFrame
        A frame returned by :func:`~ragnotebook.evaluate` (or a single-metric function).

    Returns
    -------
    pandas.DataFrame
        Columns: ``row`` (the source row's index label), ``metric`` (str),
        ``claim_index`` (int64, 0-based), ``claim`` (str), ``verdict`` (str: yes/no
        for recall, yes/no/unsure for faithfulness), ``reason`` (str),
        ``supporting_chunks`` (list of 0-based chunk indices), ``row_number`` (int64,
        the source row's 0-based position in the frame: it tells rows with the same
        index label apart). Rows in frame order, recall claims before faithfulness
        claims for each row.

    Raises
    ------
    ValueError
        If the frame has no ragnotebook scores.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4. It has a cafe."],
    ...                    "contexts": [["The museum is on Pier 4."]]})
    >>> out = ragnotebook.faithfulness(df, model="offline", progress=False)
    >>> ragnotebook.claims(out)[["claim", "verdict"]].values.tolist()
    [['It is on Pier 4.', 'yes'], ['It has a cafe.', 'unsure']]
    """
    metrics = [m for m in require_scored(df) if m in ("context_recall", "faithfulness")]
    warn_text_verdicts(df, metrics, "claims()")
    records: list[dict[str, Any]] = []
    cols = {m: df[f"{m}_verdicts"].tolist() for m in metrics}
    for pos, label in enumerate(df.index):
        for m in metrics:
            verdicts = verdict_records(cols[m][pos])
            if verdicts is None:
                continue
            for v in verdicts:
                records.append(
                    {
                        "row": label,
                        "metric": m,
                        "claim_index": int(v["index"]),
                        "claim": v.get("claim", ""),
                        "verdict": v.get("verdict"),
                        "reason": v.get("reason", ""),
                        "supporting_chunks": list(v.get("supporting_chunks", [])),
                        "row_number": pos,
                    }
                )
    out = _records_frame(
        records,
        [
            "row",
            "metric",
            "claim_index",
            "claim",
            "verdict",
            "reason",
            "supporting_chunks",
            "row_number",
        ],
    )
    return out.astype({"claim_index": "int64", "row_number": "int64"})


def _records_frame(records: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    """The frame of ``records``; a text holding a lone surrogate (which UTF-8, and so
    pandas' string columns, cannot hold) is written with U+FFFD in its place."""
    try:
        return pd.DataFrame.from_records(records, columns=columns)
    except UnicodeEncodeError:
        return pd.DataFrame.from_records([clean_value(r) for r in records], columns=columns)


def chunks(df: pd.DataFrame) -> pd.DataFrame:
    """One row per retrieved chunk, with its context-precision verdict.

    Parameters
    ----------
    df : pandas.DataFrame
        A frame scored with context precision.

    Returns
    -------
    pandas.DataFrame
        Columns: ``row`` (the source row's index label), ``position`` (int64,
        1-based rank; the verdict dicts carry the 0-based ``index`` as the
        reference does), ``chunk`` (str), ``verdict`` (str yes/no), ``reason``
        (str), ``precision_at_k`` (float64: relevant chunks in positions 1..k
        divided by k), ``row_number`` (int64, the source row's 0-based position in the
        frame, for frames whose index labels repeat).

    Raises
    ------
    ValueError
        If the frame was not scored with context precision.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> judge = ragnotebook.MockJudge(judge_chunks=[["no", "yes"]])
    >>> df = pd.DataFrame({"question": ["q"], "ground_truth": ["a"], "contexts": [["x", "y"]]})
    >>> out = ragnotebook.context_precision(df, model=judge, progress=False)
    >>> ragnotebook.chunks(out)[["position", "verdict", "precision_at_k"]].values.tolist()
    [[1, 'no', 0.0], [2, 'yes', 0.5]]
    """
    if "context_precision" not in require_scored(df, ["context_precision"]):
        raise ValueError("this frame was not scored with context_precision")
    warn_text_verdicts(df, ["context_precision"], "chunks()")
    records: list[dict[str, Any]] = []
    cells = df["context_precision_verdicts"].tolist()
    for pos, (label, cell) in enumerate(zip(df.index, cells, strict=True)):
        verdicts = verdict_records(cell)
        if verdicts is None:
            continue
        for v in verdicts:
            records.append(
                {
                    "row": label,
                    "position": int(v["index"]) + 1,
                    "chunk": v.get("chunk", ""),
                    "verdict": v.get("verdict"),
                    "reason": v.get("reason", ""),
                    "precision_at_k": float(v.get("precision_at_k", float("nan"))),
                    "row_number": pos,
                }
            )
    cols = ["row", "position", "chunk", "verdict", "reason", "precision_at_k", "row_number"]
    out = _records_frame(records, cols)
    return out.astype({"position": "int64", "precision_at_k": "float64", "row_number": "int64"})


def _warn_stale_scores(df: pd.DataFrame, metrics: Sequence[str]) -> None:
    """Warn when a score and its status disagree: a number where the status says the row
    has none (``error``, ``no_reference``, a precision row with ``no_context``; the spec's
    ``no_ground_truth`` is a 0 that is not averaged). The status wins (the row is not in
    the mean); such cells come from merging frames by hand (``DataFrame.update`` skips
    missing values)."""
    found = []
    for m in metrics:
        status = df[f"{m}_status"].astype("string")
        unscored = status.isin(("error", "no_reference")).fillna(False)
        if m == "context_precision":
            unscored |= status.eq("no_context").fillna(False)
        numbers = pd.to_numeric(df[m], errors="coerce").notna()
        stale = (unscored & numbers).to_numpy(bool)
        if stale.any():
            labels = df.index[stale].tolist()
            found.append(f"{m}: {len(labels)} row(s), first {labels[:3]}")
    if found:
        warn_user(
            "ragnotebook: these rows hold a score although their status says they have none, "
            f"so they are not averaged ({'; '.join(found)}). A frame merged with "
            "DataFrame.update keeps old scores where the new ones are missing; merge re-scored "
            "rows with ragnotebook.update_scores(scored, rescored) instead."
        )


def summary(df: pd.DataFrame, by: Any = None) -> pd.DataFrame:
    """Per-metric mean over scored rows, with coverage and counts per status.

    Rows with status ``ok``, ``no_context`` or ``no_claims`` are scored (their 0
    is a measurement); ``no_ground_truth``, ``no_reference`` and ``error`` rows
    are not, nor are faithfulness rows that have no answer at all (see
    :func:`scored_mask`). Nothing silently enters or leaves the mean: the
    ``scored`` column shows ``n_scored/n_total``.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    by : str, list of str, or array-like, optional
        Summarise each group of rows on its own: a column name (``"system"``), a list of
        them, or anything :meth:`pandas.DataFrame.groupby` takes. Rows whose group is
        missing form a group of their own (``NaN``), so every row is in one summary.

    Returns
    -------
    pandas.DataFrame
        Index: metric; with ``by``, the group's value(s) and then the metric (a
        MultiIndex, groups sorted). Columns: ``mean`` (float64 over scored rows), ``scored``
        (str ``"n_scored/n_total"``), ``coverage`` (float64, n_scored / n_total),
        ``n_total``, ``n_scored``, ``n_error`` (int64), then one int64 column per
        status (``ok``, ``no_ground_truth``, ``no_reference``, ``no_claims``,
        ``no_context``, ``error``) with ``no_answer`` right after ``no_claims`` (int64:
        of the ``no_claims`` rows, those not scored because the answer is missing or
        blank; the reference gives them 0, but that 0 is missing data; the rest are
        answers that make no claim, a measured 0), ``not_run`` (int64: rows with no
        status for the metric, never scored by it, as in a frame concatenated from runs of
        different metrics; with the status counts it adds up to ``n_total``),
        ``missing_verdicts`` (int64: items counted
        against because the judge never gave a valid verdict), ``positional_verdicts`` (int64:
        verdicts matched to their items by position, not by index, because the judge
        numbered them ``1..k`` or gave none), and the run's
        counters from ``attrs["ragnotebook"]`` (Int64; ``<NA>`` when the frame holds only
        part of the run's rows, a slice or a filter, since they cannot be split per
        row, or has no run metadata, as after a CSV or JSON round trip):
        ``calls`` (judge answers used),
        ``attempts`` (judge calls made, retries included, cache hits excluded),
        ``requests`` (HTTP requests sent),
        ``retries``, ``rate_limited`` (429 replies), ``timeouts``, ``cache_hits``,
        ``explain_failures`` (``reason="llm"`` explanations that failed; those rows keep
        their score and the template reason), ``out_of_range_chunks`` (supporting-chunk
        indices the judge cited that name no chunk of their row, dropped from the
        verdicts),
        ``prompt_tokens``, ``completion_tokens`` (tokens) and ``cost_usd`` (Float64,
        USD; ``<NA>`` when a price is unknown).
        Its display (``repr`` and the notebook's HTML) leaves out the count columns
        that are 0 or ``<NA>`` in every row, and ``n_total``/``n_scored`` (``scored``
        says both), and names them under the table; ``to_string()``, indexing and
        every operation see all the columns, and what is derived from it is a plain
        DataFrame.

    Raises
    ------
    ValueError
        If the frame has no ragnotebook scores.
    KeyError
        If ``by`` names a column the frame does not have.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4."],
    ...                    "contexts": [["The museum is on Pier 4."]]})
    >>> s = ragnotebook.summary(ragnotebook.faithfulness(df, model="offline", progress=False))
    >>> float(s.loc["faithfulness", "mean"]), s.loc["faithfulness", "scored"]
    (1.0, '1/1')

    Two systems in one long frame, one summary each:

    >>> two = pd.concat([df.assign(system="A"),
    ...                  df.assign(system="B", answer="It is on Pier 9.")], ignore_index=True)
    >>> scored = ragnotebook.faithfulness(two, model="offline", progress=False)
    >>> ragnotebook.summary(scored, by="system")["mean"].to_dict()
    {('A', 'faithfulness'): 1.0, ('B', 'faithfulness'): 0.0}
    """
    if by is not None:
        return _summary_by(df, by)
    _warn_stale_scores(df, require_scored(df))
    return _summary_of(df)


def _summary_of(df: pd.DataFrame) -> pd.DataFrame:
    """:func:`summary` without ``by`` and without the stale-score warning."""
    metrics = require_scored(df)
    rows = []
    for m in metrics:
        scores = pd.to_numeric(df[m], errors="coerce").astype("float64")
        mask = scored_mask(df, m)
        n_total = len(df)
        n_scored = int(mask.sum())
        counts = df[f"{m}_status"].astype("string").value_counts()
        missing = positional = 0
        for cell in df[f"{m}_verdicts"].tolist():
            verdicts = verdict_records(cell)
            if verdicts is not None:
                missing += sum(1 for v in verdicts if v.get("missing") or v.get("invalid"))
                positional += sum(1 for v in verdicts if v.get("aligned_by_position"))
        row: dict[str, Any] = {
            "metric": m,
            "mean": float(scores[mask].mean()) if n_scored else float("nan"),
            "scored": f"{n_scored}/{n_total}",
            "coverage": n_scored / n_total if n_total else float("nan"),
            "n_total": n_total,
            "n_scored": n_scored,
            "n_error": int(counts.get("error", 0)),
        }
        # no_claims rows left out because the answer itself is missing (see scored_mask)
        no_claims = df[f"{m}_status"].astype("string").eq("no_claims").fillna(False)
        for s in STATUSES:
            row[s] = int(counts.get(s, 0))
            if s == "no_claims":
                row["no_answer"] = int((no_claims.to_numpy(bool) & ~mask).sum())
        # rows with no status at all: never scored for this metric (a frame concatenated
        # from runs of other metrics, or unscored rows appended), so the counts add up
        row["not_run"] = int(df[f"{m}_status"].isna().sum())
        row["missing_verdicts"] = missing
        row["positional_verdicts"] = positional
        run = (df.attrs.get("ragnotebook", {}) or {}).get("metrics", {}).get(m, {}) or {}
        # the counters belong to the run; a frame holding part of its rows (a slice, a
        # filter) cannot split them per row, so they are left out rather than misread
        whole = bool(run) and run.get("rows") in (None, n_total)
        for key in _RUN_COUNTS:
            row[key] = run.get(key, 0 if key != "cost_usd" else None) if whole else None
        rows.append(row)
    out = pd.DataFrame(rows).set_index("metric")
    out.index.name = "metric"
    for key in _RUN_COUNTS:
        kind: Any = "Float64" if key == "cost_usd" else "Int64"
        values: list[Any] = [
            # (None becomes NaN in a column that also holds numbers: a metric re-scored
            # in this run next to ones read back without run metadata)
            pd.NA if v is None or pd.isna(v) else (float(v) if key == "cost_usd" else int(v))
            for v in out[key]
        ]
        out[key] = pd.array(values, dtype=kind)
    return _Summary(out)


def _warn_other_columns(before: Any, after: Any, metrics: Sequence[str], n_rows: int) -> None:
    """Warn when re-scored rows read a role from another column than the scored frame.

    ``before`` and ``after`` are the ``columns`` records (role -> column, or None) of the
    scored and the re-scored frame; only roles that ``metrics`` read and that both
    records name are compared (a frame without run metadata is not compared at all).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _warn_other_columns({"answer": "response"}, {"answer": "answer"},
    ...                         ["faithfulness"], 2)
    ...     _warn_other_columns({"answer": "response"}, {"answer": "answer"},
    ...                         ["context_recall"], 2)  # recall does not read the answer
    >>> [str(w.message)[:68] for w in caught]
    ['ragnotebook: update_scores: rescored was scored under another column']
    """
    from ragnotebook.api import _READS
    from ragnotebook.intake import and_list

    if not isinstance(before, dict) or not isinstance(after, dict):
        return
    read = {role for m in metrics for role in _READS.get(m, ())}
    changed = [
        (role, before[role], after[role])
        for role in ("question", "answer", "contexts", "ground_truth")
        if role in read
        and before.get(role) is not None
        and after.get(role) is not None
        and before[role] != after[role]
    ]
    if not changed:
        return
    now = {role: new for role, _, new in changed}
    kept = {role: old for role, old, _ in changed}
    fixes = and_list([f"rescored's {new!r} into {old!r}" for _, old, new in changed], quote=False)
    warn_user(
        "ragnotebook: update_scores: rescored was scored under another columns= mapping "
        f"than scored ({now} against {kept}): the new scores of its {n_rows} row(s) were "
        f"computed from rescored's column(s) {and_list(now.values())}, but the merged frame "
        f"keeps scored's mapping, and its column(s) {and_list(kept.values())} need not "
        f"hold that text. Copy {fixes} for those rows, or score them again with "
        f"columns={kept}; attrs['ragnotebook']['updates'] records the mapping of each merge."
    )


#: Columns a metric ``m`` writes besides ``m`` itself.
_METRIC_SUFFIXES = ("reason", "verdicts", "status", "error")
#: Counters of ``attrs["ragnotebook"]["metrics"][m]`` that add up over runs.
_SUMMED = (
    *_RUN_COUNTS,
    "shared",
    "errors",
    "missing_verdicts",
    "invalid_verdicts",
    "positional_verdicts",
    "saved_cost_usd",
    "seconds",
)


#: Counters that older versions did not record: missing from a frame's metadata, they were 0.
_COUNTED_LATER = frozenset({"out_of_range_chunks"})


def _metric_columns(df: pd.DataFrame, metric: str) -> list[str]:
    return [c for c in (metric, *(f"{metric}_{s}" for s in _METRIC_SUFFIXES)) if c in df.columns]


def _replaced(column: pd.Series, positions: np.ndarray, values: pd.Series) -> pd.Series:
    """``column`` with the cells at ``positions`` replaced by ``values``, missing ones
    included (``DataFrame.update`` skips them), in the column's dtype where it holds them."""
    cells = column.astype(object).tolist()
    for pos, value in zip(positions.tolist(), values.astype(object).tolist(), strict=True):
        cells[pos] = value
    try:
        return pd.Series(cells, index=column.index, name=column.name, dtype=column.dtype)
    except (TypeError, ValueError):
        return pd.Series(cells, index=column.index, name=column.name, dtype=object)


def _inherited(scored: pd.DataFrame, rescored: pd.DataFrame, metric: str) -> bool:
    """Whether ``rescored``'s metadata for ``metric`` came with its rows from another
    frame (the same record as ``scored``'s, or one counting another number of rows)
    rather than from a run on these rows."""
    mine = ((rescored.attrs.get("ragnotebook") or {}).get("metrics") or {}).get(metric)
    if not mine:
        return False  # no record: the columns are all there is to go by
    theirs = ((scored.attrs.get("ragnotebook") or {}).get("metrics") or {}).get(metric)
    rows = mine.get("rows")
    return mine == theirs or (isinstance(rows, int) and rows != len(rescored))


def update_scores(
    scored: pd.DataFrame, rescored: pd.DataFrame, *, metrics: Sequence[str] | None = None
) -> pd.DataFrame:
    """Put the scores of re-scored rows back into the full scored frame.

    After fixing the data of a few rows (a retriever bug, a blank answer), score only
    those rows and merge them back: every metric column of ``rescored`` (``m``,
    ``m_reason``, ``m_verdicts``, ``m_status``, ``m_error``) replaces the cells of the
    rows with the same labels, missing values included, and so do the input columns the
    two frames share (the fixed data). ``DataFrame.update`` is not a substitute: it skips
    missing values, so a row re-scored to ``NaN`` (``no_context``) keeps its old score
    next to its new status. The input frames are not changed.

    The run metadata (``attrs["ragnotebook"]``) is merged: the status counts are
    counted again on the merged frame, and the judge counters (calls, tokens, USD)
    add up both runs, so ``summary()`` shows what the frame cost in all; when either
    frame has no run metadata (read back from CSV or JSON) the counters are unknown
    (``<NA>`` in the summary). ``attrs["ragnotebook"]["updates"]`` lists each merge, with
    the ``columns=`` mapping its rows were scored under.

    The merged frame keeps ``scored``'s ``columns=`` mapping. When ``rescored`` was
    scored under another one for a role its metrics read (the answer taken from
    ``response`` before and from ``answer`` now), the column the merged frame names for
    that role need not hold the text the new scores were computed from. The merge then
    warns, naming both mappings and the columns concerned, but does not raise: the new
    scores are right for the text they came from (an LLM judge was paid for them), the
    two columns may hold the same text under two names, and copying the fixed column
    over is one line. Frames without run metadata (read back from CSV or JSON) cannot
    be compared, and are merged without a word.

    Parameters
    ----------
    scored : pandas.DataFrame
        The full scored frame, with unique row labels.
    rescored : pandas.DataFrame
        The re-scored rows: a ragnotebook result (``evaluate`` or a single metric) of a
        frame whose labels are all labels of ``scored`` (e.g. ``scored.loc[fixed]`` after
        the fix, scored again).
    metrics : sequence of str, optional
        The metrics to take from ``rescored``; default every metric scored on its rows.
        A metric whose run metadata came along with rows taken from ``scored`` (the same
        record, or one counting another number of rows) was not scored again and is
        left as it is in ``scored``.

    Returns
    -------
    pandas.DataFrame
        A copy of ``scored`` with those rows' cells replaced; a metric that ``scored``
        did not have gets its columns (missing for the other rows, which then have no
        status and are not counted as scored). Columns and dtypes are those of
        ``scored`` (``m`` stays Float64).

    Raises
    ------
    TypeError
        If either argument is not a DataFrame.
    ValueError
        If ``rescored`` has no ragnotebook scores (or none of ``metrics``), if a metric
        asked for was not scored on ``rescored``'s rows (its columns and metadata came
        with rows taken from ``scored``), if either frame repeats a row label, or if a
        label of ``rescored`` is not in ``scored`` (the first few are named).

    Warns
    -----
    UserWarning
        When the two frames were scored by different judges: the metric's column then
        mixes their verdicts, which its run metadata records (``"judge"`` names both).
        When they were scored under different ``columns=`` mappings for a role the merged
        metrics read: the warning names the role and both columns.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where?", "When?"],
    ...                    "answer": ["It is on Pier 4.", "It opened in 1998."],
    ...                    "contexts": [["The museum is on Pier 4."], []]})
    >>> scored = df.rag.faithfulness(model="offline", progress=False)
    >>> scored["faithfulness"].tolist()
    [1.0, 0.0]
    >>> fixed = df.loc[[1]].assign(contexts=[["The museum opened in 1998."]])
    >>> again = fixed.rag.faithfulness(model="offline", progress=False)
    >>> merged = ragnotebook.update_scores(scored, again)
    >>> merged["faithfulness"].tolist(), int(merged.rag.summary().loc["faithfulness", "calls"])
    ([1.0, 1.0], 5)

    (3 judge calls in the first run, 2 for the row scored again.)
    """
    for name, value in (("scored", scored), ("rescored", rescored)):
        if not isinstance(value, pd.DataFrame):
            raise TypeError(f"{name}: expected a pandas DataFrame, got {type(value).__name__}")
    taken = require_scored(rescored, None if metrics is None else list(metrics))
    if not taken:
        raise ValueError(
            f"rescored has none of the metrics {list(metrics or [])}; it has "
            f"{scored_metrics(rescored)}"
        )
    for name, value in (("scored", scored), ("rescored", rescored)):
        repeated = value.index[value.index.duplicated()].unique().tolist()
        if repeated:
            raise ValueError(
                f"{name} repeats the row label(s) {repeated[:5]}: rows are matched by "
                "label, so give every row its own (e.g. reset_index() before scoring both)"
            )
    unknown = rescored.index[~rescored.index.isin(scored.index)].tolist()
    if unknown:
        raise ValueError(
            f"{len(unknown)} row label(s) of rescored are not in scored (first: "
            f"{unknown[:5]}); score a selection of scored's own rows (scored.loc[labels])"
        )
    # rows taken from the scored frame (scored.loc[labels]) bring every metric's columns
    # and, through pandas' attrs, its run metadata; a metric the new run did not score
    # (evaluate() leaves out one whose column is empty) is not a re-score of these rows
    inherited = [m for m in taken if _inherited(scored, rescored, m)]
    if inherited and metrics is not None:
        raise ValueError(
            f"rescored was not scored on {inherited}: its columns and run metadata are the "
            "ones of the frame its rows were taken from; score those metrics again or leave "
            "them out of metrics="
        )
    taken = [m for m in taken if m not in inherited]
    if not taken:
        raise ValueError(
            "rescored holds no metric scored on its own rows: every metric's run metadata "
            "is the one of the frame its rows were taken from (score them again first)"
        )
    out = scored.copy()
    positions = scored.index.get_indexer(rescored.index)
    metric_columns = {c for m in _METRIC_ORDER for c in _metric_columns(rescored, m)}
    shared_inputs = [c for c in rescored.columns if c in out.columns and c not in metric_columns]
    for col in shared_inputs:
        out[col] = _replaced(out[col], positions, rescored[col])
    for m in taken:
        for col in _metric_columns(rescored, m):
            if col not in out.columns:
                dtype = "Float64" if col == m else object
                out[col] = pd.Series(pd.NA, index=out.index, dtype=dtype)
            out[col] = _replaced(out[col], positions, rescored[col])

    old = dict(scored.attrs.get("ragnotebook", {}) or {})
    new = dict(rescored.attrs.get("ragnotebook", {}) or {})
    old_metrics = dict(old.get("metrics", {}) or {})
    new_metrics = dict(new.get("metrics", {}) or {})
    judges: dict[str, str] = {}
    for m in taken:
        before = dict(old_metrics.get(m, {}) or {})
        after = dict(new_metrics.get(m, {}) or {})
        merged: dict[str, Any] = {**before, **{k: v for k, v in after.items() if k not in _SUMMED}}
        known = bool(before) and bool(after) and before.get("rows") in (None, len(scored))
        for key in _SUMMED:
            a, b = before.get(key), after.get(key)
            if key in _COUNTED_LATER:
                # a frame scored before this counter existed counted none of it
                a = 0 if key not in before else a
                b = 0 if key not in after else b
            if known and isinstance(a, int | float) and isinstance(b, int | float):
                merged[key] = a + b
            else:
                merged[key] = None
        merged["rows"] = len(out)
        counts = out[f"{m}_status"].astype("string").value_counts()
        merged["statuses"] = {str(k): int(v) for k, v in counts.items()}
        a_judge, b_judge = before.get("judge"), after.get("judge")
        if a_judge and b_judge and a_judge != b_judge:
            judges[m] = f"{a_judge} + {b_judge}"
            merged["judge"] = judges[m]
            merged["model"] = f"{before.get('model')} + {after.get('model')}"
        old_metrics[m] = merged
    if judges:
        warn_user(
            "ragnotebook: update_scores mixes judges in "
            + ", ".join(f"{m} ({j})" for m, j in judges.items())
            + "; their scores are not comparable row to row, and the run metadata says so"
        )
    _warn_other_columns(old.get("columns"), new.get("columns"), taken, len(rescored))
    meta = {**old, "metrics": old_metrics}
    meta["updates"] = [
        *list(old.get("updates", []) or []),
        {
            "rows": len(rescored),
            "metrics": list(taken),
            "judge": new.get("judge"),
            "started_at": (new.get("last_run") or {}).get("started_at"),
            "columns": dict(new.get("columns") or {}) or None,
        },
    ]
    out.attrs["ragnotebook"] = meta
    return out
