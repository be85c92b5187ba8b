"""The public DataFrame functions: score rows, return a new frame.

``context_recall``, ``context_precision``, ``faithfulness`` and ``evaluate``
each take a DataFrame with one row per question and return a new frame (the
input is never mutated) with, per metric ``m``: ``m`` (Float64), ``m_reason``,
``m_verdicts`` (list of dicts), ``m_status`` and ``m_error``, and run metadata in
``attrs["ragnotebook"]``. Each has an ``a``-prefixed async twin.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._textsafe import clean_value
from ragnotebook._version import __version__
from ragnotebook._warn import warn_user
from ragnotebook.engine import CANCELLED_MESSAGE, Engine, Job, run_sync
from ragnotebook.intake import (
    ALIASES,
    ROLES,
    RagRow,
    _is_missing,
    _join_recipe,
    _list_alike,
    _look_alikes,
    and_list,
    is_missing_contexts,
    mapped_elsewhere,
    missing_columns_message,
    not_a_frame,
    read_rows,
    resolve_columns,
)
from ragnotebook.judges import resolve_judge
from ragnotebook.judges.base import LLM_JUDGE_OPTIONS, Judge
from ragnotebook.scorers._common import MetricResult, Plan, ScorerConfig, check_count, is_blank
from ragnotebook.scorers.plans import metric_plan

__all__ = [
    "METRICS",
    "acontext_precision",
    "acontext_recall",
    "aevaluate",
    "afaithfulness",
    "context_precision",
    "context_recall",
    "evaluate",
    "faithfulness",
    "get_default_model",
    "set_default_model",
]

#: The metrics, in the order columns are written.
METRICS: tuple[str, ...] = ("context_recall", "context_precision", "faithfulness")


class _AllMetrics(tuple[str, ...]):
    """``evaluate()``'s default: all three metrics, less those the frame has no input for.

    A distinct object, so that ``metrics=METRICS`` (or any explicit tuple) is an explicit
    choice that makes a missing column an error; it prints as the plain tuple.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(tuple(self))


_DEFAULT_METRICS = _AllMetrics(METRICS)

#: Input roles each metric reads (``contexts`` may be absent: then every row has no context).
_NEEDS: dict[str, tuple[str, ...]] = {
    "context_recall": ("ground_truth", "contexts"),
    "context_precision": ("contexts",),
    "faithfulness": ("answer", "contexts"),
}
#: Input roles each metric reads at all (ambiguity elsewhere is not the metric's concern).
_READS: dict[str, tuple[str, ...]] = {
    "context_recall": ("question", "ground_truth", "contexts"),
    "context_precision": ("question", "ground_truth", "answer", "contexts"),
    "faithfulness": ("question", "answer", "contexts"),
}


def _reads(metric: str, reference: str) -> tuple[str, ...]:
    """The roles ``metric`` reads; precision with a forced reference skips the other."""
    roles = _READS[metric]
    if metric == "context_precision" and reference in ("ground_truth", "answer"):
        other = "answer" if reference == "ground_truth" else "ground_truth"
        roles = tuple(r for r in roles if r != other)
    return roles


_ALIASES = {
    "recall": "context_recall",
    "precision": "context_precision",
    "faithful": "faithfulness",
}

#: Scorer options some single-metric functions do not name (they still configure the run).
_CONFIG_OPTIONS = ("reference", "max_chunks_per_call")
#: Options that configure the engine rather than the judge.
_ENGINE_OPTIONS = (
    "cache",
    "rpm",
    "tpm",
    "max_retries",
    "max_rate_limit_retries",
    "call_timeout",
    "workers",
)

#: The options of the scoring functions themselves, for a misspelt one's hint.
_API_OPTIONS = (
    "model",
    "columns",
    "metrics",
    "scale",
    "decimals",
    "reason",
    "concurrency",
    "progress",
    *_CONFIG_OPTIONS,
    *_ENGINE_OPTIONS,
)
#: The LLM judge's own options, never taken for a misspelling.
_JUDGE_OPTIONS = LLM_JUDGE_OPTIONS


def _check_misspelt_options(options: Mapping[str, Any]) -> None:
    """Raise when an option looks like a misspelt scoring option ("show_progress" for
    ``progress``): it would otherwise go to the judge (and litellm ignores what it does
    not know).

    Examples
    --------
    >>> _check_misspelt_options({"api_base": "http://127.0.0.1:8000/v1"})
    >>> _check_misspelt_options({"show_progress": False})
    Traceback (most recent call last):
    ...
    TypeError: unknown option 'show_progress': did you mean progress=?
    """
    import difflib

    for key in options:
        if key in _JUDGE_OPTIONS or key in _API_OPTIONS:
            continue
        close = difflib.get_close_matches(key, _API_OPTIONS, n=1, cutoff=0.75)
        if close:
            raise TypeError(f"unknown option {key!r}: did you mean {close[0]}=?")


_default_model: Any = None
_offline_notice_given = False


# --------------------------------------------------------------------------- default model


def set_default_model(model: Any) -> None:
    """Set the judge used when a call gives no ``model``.

    Parameters
    ----------
    model : str, Judge or None
        A litellm model string (``"openai/gpt-4o-mini"``), ``"offline"``, a judge
        object, or ``None`` to clear it.

    Raises
    ------
    TypeError
        For a ``model`` that is no string, judge object or None.
    ValueError
        For an empty string, or one close to ``"offline"`` (``"offlin"``) that litellm
        cannot tell the provider of.

    Warns
    -----
    UserWarning
        For another model string whose provider litellm cannot tell
        (``"bogus-model-xyz"``, ``"gpt4o"`` without ``openai/``): the same check
        :func:`evaluate` makes, said here, at the line that set it. It is a warning, not an
        error, because a call's own options (``custom_llm_provider=``, an ``api_base``
        of a known provider) can still make the model usable there.

    Examples
    --------
    >>> import ragnotebook
    >>> ragnotebook.set_default_model("offline")
    >>> ragnotebook.get_default_model()
    'offline'
    >>> ragnotebook.set_default_model("offlin")
    Traceback (most recent call last):
    ...
    ValueError: model 'offlin': litellm cannot tell its provider (LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=offlin); did you mean model='offline' (the offline judge)?
    >>> ragnotebook.set_default_model(None)
    """
    global _default_model
    if isinstance(model, str):
        name = model.strip()
        if not name:
            raise ValueError("model is an empty string")
        if name.lower() != "offline":
            # the check evaluate() makes when it builds the judge (litellm, no network)
            from ragnotebook.judges.llm import _check_provider

            try:
                _check_provider(name, None, {})
            except ValueError as exc:
                if "did you mean model='offline'" in str(exc):
                    raise
                warn_user(
                    f"set_default_model: {exc}; scoring with it fails unless each call "
                    "names the provider",
                    UserWarning,
                )
    elif model is not None and not (hasattr(model, "acomplete") and hasattr(model, "judge_id")):
        raise TypeError(
            "model must be a litellm model string, 'offline', a judge object or None, got "
            f"{type(model).__name__}"
        )
    _default_model = model


def get_default_model() -> Any:
    """The model used when a call gives none.

    Returns
    -------
    str or Judge
        The value set by :func:`set_default_model`, else the ``RAGNOTEBOOK_MODEL``
        environment variable, else ``"offline"``. Scoring without ``model=`` uses
        this and gives a one-time notice when it falls back to the offline judge
        (a heuristic, not an LLM).

    Examples
    --------
    >>> import ragnotebook
    >>> ragnotebook.set_default_model("offline"); ragnotebook.get_default_model()
    'offline'
    """
    if _default_model is not None:
        return _default_model
    env = os.environ.get("RAGNOTEBOOK_MODEL", "").strip()
    return env or "offline"


def model_or_default(model: Any) -> Any:
    """``model`` if given, else :func:`get_default_model`, with a one-time notice when
    that falls back to the offline judge (the notice points at the caller's line)."""
    global _offline_notice_given
    if model is not None:
        return model
    chosen = get_default_model()
    if (
        chosen == "offline"
        and _default_model is None
        and not os.environ.get("RAGNOTEBOOK_MODEL", "").strip()
        and not _offline_notice_given
    ):
        _offline_notice_given = True
        warn_user(
            "ragnotebook: no model given, using the offline judge (model='offline'). It is a "
            "deterministic word-overlap heuristic that needs no key or network, not an LLM. "
            "Pass model='openai/gpt-4o-mini' (or any litellm model), call "
            "ragnotebook.set_default_model(...), or set RAGNOTEBOOK_MODEL."
        )
    return chosen


def warn_if_offline_llm_reason(judge: Judge) -> None:
    """Warn that ``reason="llm"`` gives no LLM explanation with the offline judge.

    The offline judge answers the ``explain`` task itself, with the first sentence of
    the template reason: no model writes it, although ``attrs`` record the option given
    (``reason_mode: "llm"``).

    Parameters
    ----------
    judge : Judge
        The run's judge; nothing is said for any other than the offline judge.

    Examples
    --------
    >>> import warnings
    >>> from ragnotebook import OfflineJudge
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_offline_llm_reason(OfflineJudge())
    >>> "offline judge" in str(caught[0].message)
    True
    """
    from ragnotebook.judges.offline import OfflineJudge

    if isinstance(judge, OfflineJudge):
        warn_user(
            "ragnotebook: reason='llm' asks the judge to explain each score, but the offline "
            "judge is no LLM: its explanation is the first sentence of the template reason. "
            "Use reason='template' with it (the full template reason), or an LLM model.",
            UserWarning,
        )


def _resolve_cache(cache: Any, judge: Judge) -> Any:
    """The answer cache for a run: None for judges that gain nothing from one."""
    if cache is False or not getattr(judge, "cacheable", False):
        return None
    from ragnotebook.cache import resolve_cache

    return resolve_cache(True if cache is None else cache)


# --------------------------------------------------------------------------- plans


def _metric_name(metric: str) -> str:
    name = _ALIASES.get(metric, metric)
    if name not in METRICS:
        raise ValueError(
            f"unknown metric {metric!r}; expected one of {', '.join(METRICS)} "
            f"(or {', '.join(_ALIASES)})"
        )
    return name


def _check_columns(
    df: pd.DataFrame,
    columns: Mapping[str, str | None] | None,
    metrics: Sequence[str],
    left_out: Sequence[str],
    reference: str,
) -> None:
    """Raise one error naming every role without a column, before anything is said or run.

    A role is missing when a metric of ``metrics`` needs it (:data:`_NEEDS`); the error then
    also names the roles that ``left_out`` (metrics ``evaluate()`` dropped for a missing
    column) need and lack, so one message shows everything to map, each role with its
    ``columns=`` remedy and the metrics needing it. An ambiguous or unknown column is left
    to :func:`~ragnotebook.intake.read_rows`, whose error names it.
    """
    considered = [*metrics, *(m for m in left_out if m not in metrics)]
    wanted = [r for r in ROLES if any(r in _reads(m, reference) for m in considered)]
    try:
        found = resolve_columns(df, columns, roles=wanted)
    except ValueError:
        return
    needed_by = {r: [m for m in considered if r in _NEEDS[m]] for r in ROLES}
    missing = [r for r in ROLES if found[r] is None and any(r in _NEEDS[m] for m in metrics)]
    if not missing:
        return
    lacking = [r for r in ROLES if found[r] is None and needed_by[r]]
    rest = [m for m in metrics if not set(_NEEDS[m]) & set(lacking)]
    raise ValueError(
        missing_columns_message(
            df,
            lacking,
            dict(columns or {}),
            found,
            needed_by={r: needed_by[r] for r in lacking},
            rest=rest,
            optional=wanted,
        )
    )


def make_plan(metric: str, row: RagRow, config: ScorerConfig) -> Plan:
    """The scorer plan of ``metric`` for one normalised row."""
    return metric_plan(
        metric,
        question=row.question,
        answer=row.answer,
        ground_truth=row.ground_truth,
        contexts=row.contexts,
        config=config,
    )


#: Seconds between progress redraws when stderr is a file or pipe (a CI log).
_LOG_REDRAW_SECONDS = 30.0


def _stderr_is_a_terminal() -> bool:
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


class _Progress:
    """A ``tqdm.auto`` bar, always driven from the calling thread.

    Parameters
    ----------
    enabled : bool
        False (or ``total == 0``) draws nothing.
    total : int
        Units of work.
    desc, unit : str
        The bar's label and unit.
    count : callable
        ``count() -> int``: the units done so far (read by :meth:`update`).
    """

    def __init__(
        self, enabled: bool, total: int, desc: str, unit: str, count: Callable[[], int]
    ) -> None:
        self.enabled = enabled
        self.total = total
        self.desc = desc
        self.unit = unit
        self.count = count
        self._bar: Any = None

    def open(self) -> None:
        if self.enabled and self.total:
            from tqdm.auto import tqdm

            options: dict[str, Any] = {}
            if "notebook" not in tqdm.__module__ and not _stderr_is_a_terminal():
                # a CI log keeps every redraw as a line: one every 30 s, not five a second
                options["mininterval"] = _LOG_REDRAW_SECONDS
            self._bar = tqdm(total=self.total, desc=self.desc, unit=self.unit, **options)

    def update(self, done: int | None = None) -> None:
        if self._bar is not None:
            n = self.count() if done is None else done
            if n > self._bar.n:
                self._bar.update(n - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self.update()
            self._bar.close()
            self._bar = None


class _Run:
    """Everything one API call needs: rows, configs, judge, engine, progress."""

    def __init__(
        self,
        df: pd.DataFrame,
        metrics: Sequence[str],
        *,
        model: Any,
        columns: Mapping[str, str] | None,
        scale: float,
        decimals: int | None,
        reason: Any,
        reference: str = "auto",
        max_chunks_per_call: int = 20,
        concurrency: int,
        progress: bool,
        judge_options: Mapping[str, Any],
        left_out: Sequence[str] = (),
        left_out_note: str | None = None,
    ) -> None:
        if not isinstance(df, pd.DataFrame):
            raise TypeError(not_a_frame(df))
        if isinstance(metrics, str):
            metrics = (metrics,)
        names: list[str] = []
        for m in metrics:
            if not isinstance(m, str):
                raise TypeError(
                    f"metrics must hold metric names (any of {', '.join(map(repr, METRICS))}), "
                    f"got {m!r} in it"
                )
            name = _metric_name(m)
            if name not in names:
                names.append(name)
        if not names:
            raise ValueError("metrics is empty; pass at least one of " + ", ".join(METRICS))
        self.metrics = names
        self.df = df
        check_count(concurrency, "concurrency")
        config = ScorerConfig(
            scale=scale,
            decimals=decimals,
            reason=reason,
            reference=reference,
            max_chunks_per_call=max_chunks_per_call,
        )
        self.config = config
        # every missing column in one error, before any warning (left_out: metrics that
        # evaluate() dropped for a missing column, named there too)
        _check_columns(df, columns, names, left_out, reference)
        required = sorted(
            {role for m in names for role in _NEEDS[m]}
            # precision told what to judge chunks against needs that column
            | ({reference} if "context_precision" in names and reference != "auto" else set())
        )
        roles = sorted({role for m in names for role in _reads(m, reference)})
        self.rows, self.columns = read_rows(df, columns, required=required, roles=roles)
        if not self.rows:  # the command line refuses such input; Python returns 0 rows
            warn_user(
                f"the frame has no rows, so nothing was scored: the result has the columns "
                f"of {and_list(names)} and no rows (summary() shows 0/0). Check the filter "
                "or the file that built the frame.",
                UserWarning,
            )
        #: said once the run has scored the metrics it names (see _default_metrics)
        self.left_out_note = left_out_note
        _warn_empty_inputs(self.rows, self.columns, names, df, reference)
        if "context_precision" in names and reference == "auto":
            _warn_mixed_references(self.rows)
        chosen = model_or_default(model)
        options = dict(judge_options)
        _check_misspelt_options(options)
        engine_options = {k: options.pop(k) for k in _ENGINE_OPTIONS if k in options}
        self.judge: Judge = resolve_judge(chosen, **options)
        if reason == "llm":
            warn_if_offline_llm_reason(self.judge)
        self.model_label = chosen if isinstance(chosen, str) else self.judge.judge_id
        cache = _resolve_cache(engine_options.pop("cache", None), self.judge)
        self.engine = Engine(self.judge, concurrency=concurrency, cache=cache, **engine_options)
        self.jobs = [
            # row by row (every metric of a row, then the next row): the engine starts jobs
            # in this order, so rows finish whole and in order
            Job(row.position, m, partial(make_plan, m, row, config))
            for row in self.rows
            for m in names
        ]
        label = " + ".join(m.replace("context_", "") for m in names)
        self.bar = _Progress(
            progress, len(self.jobs), f"ragnotebook {label}", "row-metric", lambda: self.engine.done
        )
        self.started = time.time()

    def frame(self) -> pd.DataFrame:
        out = build_frame(self)
        if self.left_out_note is not None:
            warn_user(self.left_out_note, UserWarning)
        _warn_unjudged(self, out)
        _warn_out_of_range_chunks(self, out)
        if not out.attrs["ragnotebook"]["last_run"]["interrupted"]:
            _warn_failures(out, self.metrics)
        return out


class EmptyColumnWarning(UserWarning):
    """A metric named in ``metrics=`` reads a column that is empty in every row.

    Raised as a warning (once per call) when the answer column (faithfulness) or the
    ground-truth column (context recall) holds only missing or blank values: every row
    of that metric is then missing data (``no_claims`` counted in ``no_answer``, or
    ``no_ground_truth``) and none enters the mean. ``evaluate()`` without ``metrics=``
    leaves such a metric out instead, and the command line makes it an input error (a
    CI job must not pass on a column that lost its values).

    Examples
    --------
    >>> import warnings, pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where?"], "answer": [None],
    ...                    "contexts": [["It is on Pier 4."]]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     out = ragnotebook.faithfulness(df, model="offline", progress=False)
    >>> [w.category.__name__ for w in caught]
    ['EmptyColumnWarning']
    >>> str(out.loc[0, "faithfulness_status"])
    'no_claims'
    """


class MixedReferenceWarning(UserWarning):
    """Context precision judged some rows against the ground truth, others against the answer.

    With ``reference="auto"`` (the default) a row's chunks are judged against its ground
    truth, or against its answer where the ground truth is missing (the reference's
    fallback for that metric). When a frame holds both kinds of row, one mean then averages
    two different measures; this warning (once per call) says how many rows of each kind
    there are and names one row judged against its answer. Filter it by class when the mix
    is intended, e.g. ``warnings.filterwarnings("ignore",
    category=ragnotebook.MixedReferenceWarning)``; pass ``reference="ground_truth"`` to
    score only rows with a ground truth (the rest get status ``no_reference``).

    Examples
    --------
    >>> import warnings, pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where?", "When?"],
    ...                    "answer": ["On Pier 4.", "In 1998."],
    ...                    "contexts": [["It is on Pier 4."], ["It opened in 1998."]],
    ...                    "ground_truth": ["It is on Pier 4.", None]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     out = ragnotebook.context_precision(df, model="offline", progress=False)
    >>> [w.category.__name__ for w in caught]
    ['MixedReferenceWarning']
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    context_precision (reference='auto'): 1 row is judged against its ground truth and 1
    against its answer (no ground truth, e.g. row 1), and summary() averages both kinds.
    Pass reference='ground_truth' to score only the first (the rest are no_reference), or
    fill the missing ground truths.
    """


def _no_text(value: Any) -> bool:
    """A cell, raw or read, that holds no text: None, NaN, ``pd.NA`` or a blank string
    (blank as the scorers read it, so the rows it finds are the ones they leave unscored)."""
    return _is_missing(value) or (isinstance(value, str) and is_blank(value))


def _warn_empty_inputs(
    rows: Sequence[RagRow],
    columns: Mapping[str, str | None],
    metrics: Sequence[str],
    df: pd.DataFrame | None = None,
    reference: str = "auto",
) -> None:
    """Warn once when the answer or ground-truth column a metric needs has no value at all
    (context precision with ``reference="ground_truth"`` / ``"answer"`` needs that one;
    with ``"auto"``, one of the two),
    once when no row has a retrieved chunk, and once when some rows' contexts cell is
    missing (``None``/``NaN``, as a left merge with retrieval logs leaves it), which is
    scored as no chunks."""
    if not rows:
        return
    contexts = columns.get("contexts")
    measured = [m for m in metrics if m != "context_precision"]
    what = f"a measured 0 for {and_list(measured)}" if measured else "precision is undefined"
    if contexts is not None and all(_no_text(c) for r in rows for c in r.contexts):
        warn_user(
            f"no row has a retrieved chunk in the {contexts!r} column: every row is no_context "
            f"({what}). If your retriever did return chunks, check which column holds them "
            "(columns={'contexts': ...}).",
            UserWarning,
        )
    elif contexts is not None and df is not None:
        cells = df[contexts].tolist()
        missing = [
            (r.label, cell)
            for r, cell in zip(rows, cells, strict=True)
            if is_missing_contexts(cell)
        ]
        if missing:
            # the texts str() makes of a missing cell ("nan", "None") count too
            texts = sorted({cell.strip() for _, cell in missing if isinstance(cell, str)})
            kinds = "None or NaN"
            keep = "df[df[col].notna()]"
            if texts:
                said = (
                    f"the text {texts[0]!r}, which str() makes of a missing value"
                    if len(texts) == 1
                    else f"the texts {and_list(texts)}, which str() makes of missing values"
                )
                only_texts = all(isinstance(cell, str) for _, cell in missing)
                kinds = said if only_texts else f"{kinds}, or {said}"
                keep = f"df[df[col].notna() & ~df[col].isin({texts!r})]"
            warn_user(
                f"{len(missing)} of {len(rows)} rows have no value in the {contexts!r} column "
                f"({kinds}, not an empty list), e.g. row {missing[0][0]!r}: they are scored "
                f"with no chunks, status no_context ({what}). If their retrieval was not "
                f"logged rather than empty, leave them out ({keep}); an empty "
                "list [] says the retriever returned nothing and is not warned about.",
                UserWarning,
            )
    empty: dict[str, list[str]] = {}
    blank = {
        role: columns.get(role) is None or all(_no_text(getattr(r, role)) for r in rows)
        for role in ("answer", "ground_truth")
    }
    for role in ("answer", "ground_truth"):
        column = columns.get(role)
        needing = [m for m in metrics if role in _NEEDS[m]]
        if "context_precision" in metrics and (
            reference == role or (reference == "auto" and all(blank.values()))
        ):
            # what precision judges chunks against: with neither, every row is
            # no_reference (a CI job read a NaN mean and exit 0)
            needing.append("context_precision")
        if column is None or not needing:
            continue
        if blank[role]:
            empty[role] = needing
    if not empty:
        return
    hit = list(dict.fromkeys(m for ms in empty.values() for m in ms))
    rest = [m for m in metrics if m not in hit]
    said = "; ".join(
        f"the {_column_of(role, columns[role])} is empty in every row, so {and_list(ms)} "
        f"{'has' if len(ms) == 1 else 'have'} nothing to score: every row is missing data "
        f"({', '.join(_EMPTY_STATUS[m if m == 'context_precision' else role] for m in ms)}, "
        "none enters the mean)"
        for role, ms in empty.items()
    )
    tail = f"; score the rest with metrics={rest!r}" if rest else ""
    warn_user(f"{said}. Fill the column{tail}.", EmptyColumnWarning)


def _warn_mixed_references(rows: Sequence[RagRow]) -> None:
    """Warn once when ``reference="auto"`` makes context precision judge some rows'
    chunks against the ground truth and others' against the answer: one mean of two
    measures."""
    judged = [r for r in rows if any(not _no_text(c) for c in r.contexts)]
    truth = [r for r in judged if not _no_text(r.ground_truth)]
    answer = [r for r in judged if _no_text(r.ground_truth) and not _no_text(r.answer)]
    if truth and answer:
        one, lone = len(truth) == 1, len(answer) == 1
        warn_user(
            f"context_precision (reference='auto'): {len(truth)} "
            f"{'row is' if one else 'rows are'} judged against {'its' if one else 'their'} "
            f"ground truth and {len(answer)} against {'its' if lone else 'their'} answer (no "
            f"ground truth, e.g. row {answer[0].label!r}), and summary() averages both "
            "kinds. Pass reference='ground_truth' to score only the first (the rest are "
            "no_reference), or fill the missing ground truths.",
            MixedReferenceWarning,
        )


def _column_of(role: str, column: Any) -> str:
    """``"'answer' column"``, or ``"'response' column (the answer)"`` when named otherwise."""
    if column == role:
        return f"{column!r} column"
    return f"{column!r} column (the {role.replace('_', ' ')})"


#: The status a row gets when the role's text is missing.
_EMPTY_STATUS = {
    "answer": "status no_claims, counted in no_answer",
    "ground_truth": "no_ground_truth",
    "context_precision": "no_reference",
}


def _warn_failures(out: pd.DataFrame, metrics: Sequence[str]) -> None:
    """One warning when rows ended with status ``error``, naming the row label and metric
    of the first failure (the first row in frame order; its first failed metric)."""
    counts = []
    first: tuple[int, int, str] | None = None  # (position, metric order, metric)
    for k, m in enumerate(metrics):
        failed = (out[f"{m}_status"] == "error").fillna(False).to_numpy(bool)
        n = int(failed.sum())
        if n:
            counts.append(f"{n} of {len(out)} {m}")
            at = (int(failed.argmax()), k, m)
            first = at if first is None or at < first else first
    if first is not None:
        pos, _, metric = first
        error = out[f"{metric}_error"].iloc[pos]
        text = "" if pd.isna(error) else str(error)
        warn_user(
            f"ragnotebook: rows failed ({', '.join(counts)}); first error (row "
            f"{out.index.tolist()[pos]!r}, {metric}): "
            # (an error that ends its own sentence gets no second full stop)
            f"{text[:300] + '...' if len(text) > 300 else text.rstrip().rstrip('.')}. "
            "They have status 'error', are left out of the means, and summary() shows the "
            "coverage; the m_error columns say why."
        )


def write_results(out: pd.DataFrame, column: str, results: Sequence[MetricResult]) -> None:
    """Write one metric's five columns into ``out`` (in place), one result per row.

    ``column`` (Float64, <NA> where the score is NaN), ``column_reason`` (string),
    ``column_verdicts`` (object), ``column_status`` and ``column_error`` (string).
    """
    index = out.index
    levels = out.columns.nlevels

    def key(name: str) -> Any:
        # a frame with several column levels takes a full-length tuple ("m", "")
        return name if levels == 1 else (name, *([""] * (levels - 1)))

    # NaN from undefined scores must be <NA> for Float64 (a real missing value)
    out[key(column)] = pd.array(
        [None if math.isnan(r.score) else r.score for r in results], dtype="Float64"
    )
    out[key(f"{column}_reason")] = pd.array([r.reason for r in results], dtype="string")
    out[key(f"{column}_verdicts")] = pd.Series(
        [r.verdicts for r in results], index=index, dtype=object
    )
    out[key(f"{column}_status")] = pd.array([r.status for r in results], dtype="string")
    out[key(f"{column}_error")] = pd.array([r.error for r in results], dtype="string")


_SUFFIXES = ("reason", "verdicts", "status", "error")


def _clean_text_columns(out: pd.DataFrame, columns: Mapping[str, str | None]) -> None:
    """Replace lone surrogates in the text columns of ``out`` (in place), as the intake did.

    The rows were scored with U+FFFD in their place; the returned frame holds the same
    text, so printing, saving or viewing it does not fail where UTF-8 cannot encode it.
    """
    for col in dict.fromkeys(c for c in columns.values() if c is not None):
        values = out[col].tolist()
        cleaned = [clean_value(v) for v in values]
        if any(a is not b for a, b in zip(cleaned, values, strict=True)):
            out[col] = pd.Series(cleaned, index=out.index, dtype=object)


def build_frame(run: _Run) -> pd.DataFrame:
    """The scored copy of the input frame, with metadata in ``attrs``."""
    out = run.df.copy(deep=False)
    _clean_text_columns(out, run.columns)
    n = len(run.rows)
    results = run.engine.results
    interrupted = run.engine.stats.interrupted or len(results) < len(run.jobs)
    scored_before = set((run.df.attrs.get("ragnotebook", {}) or {}).get("metrics", {}) or {})
    clashes = {
        m: [c for c in (m, *(f"{m}_{s}" for s in _SUFFIXES)) if c in out.columns]
        for m in run.metrics
        if m not in scored_before
    }
    clashes = {m: cols for m, cols in clashes.items() if cols}
    if clashes:  # one warning for the run, however many metrics it re-scores
        names = [c for cols in clashes.values() for c in cols]
        shown = f"{names}" if len(names) <= 5 else f"{names[:5]} and {len(names) - 5} more"
        which = ", ".join(clashes)
        warn_user(
            f"ragnotebook: the frame already has column(s) {shown}, the names ragnotebook "
            f"writes for {which}, but no run metadata of this frame says it scored them (a "
            "scored frame read back from a file, or columns of your own); the result frame "
            f"replaces them with the new scores (the input frame is unchanged). Rename them "
            "to keep both."
        )
    written = {c for m in run.metrics for c in (m, *(f"{m}_{s}" for s in _SUFFIXES))}
    repeated = out.columns.duplicated() & np.array(
        [isinstance(c, str) and c in written for c in out.columns], dtype=bool
    )
    if repeated.any():  # two input columns of one name: one column of new scores
        out = out.loc[:, ~repeated]
    for m in run.metrics:
        res = [
            results.get((pos, m)) or MetricResult.failed(m, CANCELLED_MESSAGE) for pos in range(n)
        ]
        write_results(out, m, res)
    meta = dict(run.df.attrs.get("ragnotebook", {}) or {})
    metric_meta = dict(meta.get("metrics", {}) or {})
    stats = run.engine.stats
    for m in run.metrics:
        statuses = out[f"{m}_status"].value_counts().to_dict()
        ms = stats.for_metric(m)
        metric_meta[m] = {
            **ms.to_dict(),
            "statuses": {str(k): int(v) for k, v in statuses.items()},
            "scale": run.config.scale,
            "decimals": run.config.decimals,
            "reason_mode": run.config.reason,
            **({"reference": run.config.reference} if m == "context_precision" else {}),
            "model": str(run.model_label),
            "judge": run.judge.judge_id,
            # which run scored it: two runs of the same rows can agree on every count
            # and on the rounded seconds, and update_scores must still tell them apart
            "started_at": run.started,
        }
    identity = run.judge.identity()
    meta.update(
        {
            "version": __version__,
            "model": str(run.model_label),
            "judge": run.judge.judge_id,
            "judge_identity": _json_safe(identity),
            "judge_transport": getattr(run.judge, "transport", None),
            "prompt_versions": _json_safe(identity.get("prompt_versions", {})),
            "columns": {k: v for k, v in run.columns.items()},
            "metrics": metric_meta,
            "last_run": {
                "metrics": list(run.metrics),
                "rows": n,
                "started_at": run.started,
                "calls": stats.calls,
                "attempts": stats.attempts,
                "max_in_flight": stats.max_in_flight,
                "workers": stats.workers,
                "workers_failed": stats.workers_failed,
                "wall_seconds": round(stats.wall_seconds, 4),
                "interrupted": interrupted,
            },
        }
    )
    out.attrs["ragnotebook"] = meta
    return out


def _json_safe(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


#: What an item left without a valid verdict counts as, per metric (the scorers' rule).
_UNJUDGED_COUNTS_AS = {
    "context_recall": ("claim", "not found"),
    "context_precision": (
        "chunk",
        "not relevant, which can raise average precision (a missing verdict on an "
        "irrelevant chunk ranked early helps the score)",
    ),
    "faithfulness": ("claim", "not supported"),
}
#: The text claims are extracted from, per metric (RagRow attribute, noun for messages).
_CLAIMS_FROM = {
    "context_recall": ("ground_truth", "ground truths"),
    "faithfulness": ("answer", "answers"),
}


def _row_label(value: Any) -> Any:
    """A row label as a message shows it (NumPy scalars as plain Python values)."""
    return value.item() if hasattr(value, "item") else value


def _warn_unjudged(run: _Run, out: pd.DataFrame) -> None:
    """One warning when the judge's output was unusable for some rows, though they are ``ok``.

    Two signs, per metric: items still without a valid verdict after the re-ask (they
    count as not found / not supported / not relevant, and for context precision that
    can raise the score), and, for an LLM judge (``cacheable``), no claims extracted
    from at least half (and at least 2) of the non-blank texts sent for extraction.
    Nothing is said for an interrupted run. The warning names each metric, the number
    of items and rows, the first row's label, and where to look (``summary()``'s
    ``missing_verdicts``).
    """
    if out.attrs["ragnotebook"]["last_run"]["interrupted"]:
        return
    results = run.engine.results
    said: list[str] = []
    any_missing = any_empty = False
    for m in run.metrics:
        hit = [
            (row, res)
            for row in run.rows
            if (res := results.get((row.position, m))) is not None
            and res.status == "ok"  # (a row with no valid verdict at all is an error)
            and res.missing_verdicts + res.invalid_verdicts
        ]
        if hit:
            any_missing = True
            noun, counts_as = _UNJUDGED_COUNTS_AS[m]
            items = sum(res.missing_verdicts + res.invalid_verdicts for _, res in hit)
            said.append(
                f"{m}: {items} {noun} verdict(s) in {len(hit)} of {len(run.rows)} rows were "
                f"missing or not a valid word even after the re-ask (first: row "
                f"{_row_label(hit[0][0].label)!r}); they count as {counts_as}"
            )
        if m not in _CLAIMS_FROM or not getattr(run.judge, "cacheable", False):
            continue
        role, texts = _CLAIMS_FROM[m]
        sent = [row for row in run.rows if not is_blank(getattr(row, role))]
        empty = [
            row
            for row in sent
            if (res := results.get((row.position, m))) is not None and res.status == "no_claims"
        ]
        if len(empty) >= 2 and 2 * len(empty) >= len(sent):
            any_empty = True
            said.append(
                f"{m}: the judge extracted no claims from {len(empty)} of {len(sent)} non-blank "
                f"{texts} (first: row {_row_label(empty[0].label)!r}); those rows score 0 with "
                "status 'no_claims'"
            )
    if said:
        counted = (
            " summary() counts the verdicts in 'missing_verdicts' (the m_verdicts cells mark "
            "them 'missing' or 'invalid');"
            if any_missing
            else " summary() counts those rows under 'no_claims';"
        )
        # rows with unjudged items were judged (ok); rows with no claims extracted are no_claims
        statuses = " or ".join(
            f"'{status}'" for status, hit in (("ok", any_missing), ("no_claims", any_empty)) if hit
        )
        warn_user(
            "ragnotebook: the judge's output was unusable for some rows, which still have "
            f"status {statuses}: {'; '.join(said)}.{counted} check the judge's "
            "replies (model, prompt overrides, server)."
        )


def _warn_out_of_range_chunks(run: _Run, out: pd.DataFrame) -> None:
    """One warning when the judge cited supporting chunks that the rows do not have.

    A ``yes`` verdict citing chunk 7 of a row with 3 chunks (or a negative index) keeps
    its verdict, but the index is dropped from its ``supporting_chunks``
    (:func:`~ragnotebook.scorers._common.judge_claims`); the run counts those indices in
    ``attrs["ragnotebook"]["metrics"][m]["out_of_range_chunks"]`` and ``summary()``. The
    warning names, per metric, the number of indices and rows and the first row's label.
    Nothing is said for an interrupted run.
    """
    if out.attrs["ragnotebook"]["last_run"]["interrupted"]:
        return
    results = run.engine.results
    said: list[str] = []
    for m in run.metrics:
        hit = [
            (row, res)
            for row in run.rows
            if (res := results.get((row.position, m))) is not None and res.out_of_range_chunks
        ]
        if hit:
            cited = sum(res.out_of_range_chunks for _, res in hit)
            said.append(
                f"{m}: {cited} chunk index(es) in {len(hit)} of {len(run.rows)} rows (first: "
                f"row {_row_label(hit[0][0].label)!r})"
            )
    if said:
        warn_user(
            "ragnotebook: the judge cited supporting chunks that do not exist (an index past "
            f"the row's last chunk, or below 0): {'; '.join(said)}. Those indices were left "
            "out of the verdicts' supporting_chunks (the verdicts themselves stand) and are "
            "counted in summary()'s 'out_of_range_chunks'; a judge that numbers chunks from "
            "1 or makes them up is misreading the prompt, so check its replies."
        )


def _interrupted(run: _Run) -> pd.DataFrame:
    run.bar.close()
    done = len(run.engine.results)
    if done == len(run.jobs):
        # Ctrl-C after the last row-metric finished: the run is complete, not cancelled
        run.engine.stats.interrupted = False
        return run.frame()
    warn_user(
        f"ragnotebook: interrupted; {done} of {len(run.jobs)} row-metrics finished and are "
        "kept; the others have status 'error' (cancelled)."
    )
    run.engine.stats.interrupted = True
    return run.frame()


async def _score_async(run: _Run) -> pd.DataFrame:
    run.bar.open()
    try:
        await run.engine.arun(run.jobs, on_done=run.bar.update)
    finally:
        run.bar.close()
    return run.frame()


# --------------------------------------------------------------------------- public API

_COMMON_DOC = """
    Parameters
    ----------
    df : pandas.DataFrame
        One row per question. Columns are found by name (``question`` /
        ``user_input`` / ``input`` / ``query``; ``answer`` / ``response`` /
        ``actual_output`` / ``output``; ``contexts`` / ``retrieved_contexts`` /
        ``retrieval_context``; ``ground_truth`` / ``reference`` /
        ``expected_output``) or mapped with ``columns``.
    model : str or Judge, optional
        A litellm model string (``"openai/gpt-4o-mini"``, ``"ollama_chat/llama3"``),
        ``"offline"`` (deterministic heuristic, no key or network) or a judge
        object such as :class:`~ragnotebook.MockJudge`. Default: see
        :func:`get_default_model`.
    columns : mapping, optional
        ``{"question": ..., "answer": ..., "contexts": ..., "ground_truth": ...}``
        naming the frame's columns for each role.
    scale : float, default 1
        Scores lie in ``[0, scale]``; must be > 0.
    decimals : int or None, default 2
        Half-up rounding (the reference's rule); ``None`` keeps the exact ratio.
    reason : {"template", "llm", None}, default "template"
        Template reasons need no extra call; ``"llm"`` asks the judge (one more
        call per row and metric); ``None`` skips reasons.
    concurrency : int, default 16
        Judge calls in flight at once.
    progress : bool, default True
        Show a ``tqdm.auto`` progress bar (updated from the calling thread).
    **judge_options
        Engine options: ``cache`` (True: the default sqlite file under the user
        cache dir, or the ``RAGNOTEBOOK_CACHE`` environment variable; a path;
        or False), ``rpm`` / ``tpm`` (requests / tokens per minute),
        ``max_retries`` (retries of retryable errors), ``max_rate_limit_retries``
        (retries of a call answered 429, default 24, each after the server's
        ``Retry-After``, at most 60 s), ``call_timeout`` (seconds per judge call),
        ``workers`` (processes for the offline judge's rules: default
        ``RAGNOTEBOOK_WORKERS``, else up to 4 on Linux for runs of 200 row-metrics or
        more; 1 keeps the run in this process; scores are the same either way).
        Everything else goes to the judge built from
        a model string (``api_base``, ``api_key``, ``temperature``, ``timeout``,
        ``max_tokens``, ...).
"""

_RETURNS_DOC = """
    Returns
    -------
    pandas.DataFrame
        A copy of ``df`` (same index, same order) plus, per metric ``m``:
        ``m`` (Float64, <NA> when undefined or on error), ``m_reason`` (string),
        ``m_verdicts`` (object: list of dicts per claim or chunk), ``m_status``
        (string: ok, no_ground_truth, no_reference, no_claims, no_context,
        error) and ``m_error`` (string, <NA> unless status is error). Run
        metadata is in ``attrs["ragnotebook"]``. A lone surrogate in a text column
        (half of an emoji, which UTF-8 cannot encode) is U+FFFD there, as it was scored.

    Raises
    ------
    TypeError
        If ``df`` is not a DataFrame.
    ValueError
        For a missing or ambiguous column, a malformed ``contexts`` value (the
        message names the row and column), an unknown metric or option, or
        ``scale <= 0``.
"""


def _run_for(args: Mapping[str, Any], metric: str | None = None) -> _Run:
    """The run of a public scoring function, from its arguments.

    ``args`` is the function's ``locals()`` taken first thing, so exactly its
    parameters: ``df``, the options, ``judge_options`` and (for ``evaluate``)
    ``metrics``; ``metric`` names the metric of a single-metric function. The
    functions keep explicit signatures and docstrings for editors and ``help()``;
    only their bodies are shared.
    """
    options = dict(args)
    df = options.pop("df")
    judge_options = dict(options.pop("judge_options"))
    metrics = options.pop("metrics") if metric is None else metric
    for key in _CONFIG_OPTIONS:  # e.g. reference= given to context_recall: a scorer option
        if key in judge_options and key not in options:
            options[key] = judge_options.pop(key)
    left_out: tuple[str, ...] = ()
    note = None
    if metric is None and metrics is _DEFAULT_METRICS:  # evaluate() without metrics=
        metrics, note = _default_metrics(df, options.get("columns"))
        left_out = tuple(m for m in METRICS if m not in metrics)
    if not isinstance(metrics, str):
        if metrics is None or not isinstance(metrics, Iterable) or isinstance(metrics, Mapping):
            raise TypeError(
                "metrics must be a metric name or a list of them (any of "
                f"{', '.join(map(repr, METRICS))}), got {metrics!r}; leave metrics= out for "
                "the default (every metric the frame has the columns for)"
            )
        metrics = tuple(metrics)
    return _Run(
        df, metrics, judge_options=judge_options, left_out=left_out, left_out_note=note, **options
    )


def _default_metrics(
    df: Any, columns: Mapping[str, str | None] | None
) -> tuple[tuple[str, ...], str | None]:
    """``evaluate()``'s default metrics, less those whose input the frame does not have.

    A frame without references (most production logs) still gets context precision
    and faithfulness; a retrieval-only frame without answers gets recall and
    precision; so does a frame whose answer (or ground-truth) column is empty in every
    row. The returned note (a warning given once the kept metrics are scored) says what
    was left out and how to score it. A column whose name looks like the missing role
    (``"gold answer"``) keeps the metric, so the run stops with the error that names that
    column; so does an explicit ``metrics=``.
    """
    if not isinstance(df, pd.DataFrame):
        return METRICS, None  # the run reports it
    optional = ("answer", "ground_truth")
    # a problem with these columns (one named twice, two candidates for a role) is raised
    # here: the run would report a role missing elsewhere first and hide it
    found = resolve_columns(df, columns, roles=optional)
    explicit = dict(columns or {})
    used = {c for c in found.values() if c is not None}
    why: dict[str, str] = {}
    for role in optional:
        col = found[role]
        # a column named for this role that columns= gave to another one ("answer" mapped
        # to the ground truth, as in QA sets whose "answer" is the reference)
        taken = mapped_elsewhere(explicit, role)
        if col is None and role in explicit:
            why[role] = f"the frame has no {role!r} column (mapped to None)"
        elif col is None and taken:
            other, c = taken[0]
            why[role] = (
                f"no column is left for the {role!r} role: columns= maps the column {c!r} to "
                f"the role {other!r}"
            )
        elif col is None and not _look_alikes(df, role, used):
            tried = ", ".join(map(repr, ALIASES[role]))
            why[role] = (
                f"the frame has no {role!r} column (tried {tried}, ignoring case, spaces and dashes)"
            )
        elif col is not None and len(df) and all(map(_no_text, df[col].tolist())):
            why[role] = f"the {_column_of(role, col)} is empty in every row"
    absent = list(why)
    keep = tuple(m for m in METRICS if not set(_NEEDS[m]) & set(absent))
    if keep == METRICS or len(absent) == len(optional):
        # with neither answers nor references, precision has nothing to judge chunks
        # against (every row would be no_reference): the run's error says what to map
        return METRICS, None
    left = [m for m in METRICS if m not in keep]
    role = absent[0]
    remedy = (
        "fill it, or pass metrics=[...] to score it anyway (every row as missing data)"
        if found[role] is not None
        else f"name the column with columns={{{role!r}: '<column name>'}}; metrics=[...] "
        "chooses the metrics (and makes a missing column an error)"
    )
    plural = _list_alike(df, role, used) if found[role] is None else None
    if plural is not None:
        remedy = _join_recipe(role, plural)
    note = (
        f"evaluate() left out {and_list(left)}: {why[role]}. It scored {and_list(keep)}. "
        f"To score the rest, {remedy}."
    )
    return keep, note


def evaluate(
    df: pd.DataFrame,
    *,
    metrics: Iterable[str] = _DEFAULT_METRICS,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    reference: str = "auto",
    max_chunks_per_call: int = 20,
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return _run_sync(_run_for(locals()))


async def aevaluate(
    df: pd.DataFrame,
    *,
    metrics: Iterable[str] = _DEFAULT_METRICS,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    reference: str = "auto",
    max_chunks_per_call: int = 20,
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return await _score_async(_run_for(locals()))


def _run_sync(run: _Run) -> pd.DataFrame:
    run.bar.open()
    try:
        outcome = run_sync(
            lambda: run.engine.arun(run.jobs), poll=run.bar.update, on_interrupt=lambda: "stop"
        )
    finally:
        run.bar.close()
    if outcome == "stop":
        return _interrupted(run)
    return run.frame()


def _doc(summary: str, extra: str = "", example: str = "") -> Callable[[Any], Any]:
    def deco(fn: Any) -> Any:
        fn.__doc__ = summary + "\n" + _COMMON_DOC + extra + _RETURNS_DOC + example
        return fn

    return deco


_PRECISION_DOC = """    reference : {"auto", "ground_truth", "answer"}, default "auto"
        Context precision: the text each chunk is judged against. ``"auto"``
        uses the ground truth when the row has one, else the answer.
    max_chunks_per_call : int, default 20
        Context precision: chunks judged per call; longer lists are split.
"""

_EXAMPLE = """
    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({{
    ...     "question": ["When did the Harbor Museum open?"],
    ...     "answer": ["The Harbor Museum opened in 1998."],
    ...     "contexts": [["The Harbor Museum opened in 1998 on Pier 4."]],
    ...     "ground_truth": ["The Harbor Museum opened in 1998."]}})
    >>> out = ragnotebook.{name}(df, model="offline", progress=False)
    >>> out.loc[0, "{metric}_status"]
    'ok'
    >>> float(out.loc[0, "{metric}"])
    1.0
"""


@_doc(
    "Context recall per row: the share of ground-truth claims the retrieved context supports.",
    example=_EXAMPLE.format(name="context_recall", metric="context_recall"),
)
def context_recall(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return _run_sync(_run_for(locals(), "context_recall"))


@_doc(
    "Context precision per row: average precision of the relevant chunks by position.",
    extra=_PRECISION_DOC,
    example=_EXAMPLE.format(name="context_precision", metric="context_precision"),
)
def context_precision(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    reference: str = "auto",
    max_chunks_per_call: int = 20,
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return _run_sync(_run_for(locals(), "context_precision"))


@_doc(
    "Faithfulness per row: the share of the answer's claims the retrieved context supports.",
    example=_EXAMPLE.format(name="faithfulness", metric="faithfulness"),
)
def faithfulness(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return _run_sync(_run_for(locals(), "faithfulness"))


@_doc("Async twin of :func:`context_recall`, running on the caller's event loop.")
async def acontext_recall(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return await _score_async(_run_for(locals(), "context_recall"))


@_doc(
    "Async twin of :func:`context_precision`, running on the caller's event loop.",
    extra=_PRECISION_DOC,
)
async def acontext_precision(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    reference: str = "auto",
    max_chunks_per_call: int = 20,
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return await _score_async(_run_for(locals(), "context_precision"))


@_doc("Async twin of :func:`faithfulness`, running on the caller's event loop.")
async def afaithfulness(
    df: pd.DataFrame,
    *,
    model: Any = None,
    columns: Mapping[str, str] | None = None,
    scale: float = 1.0,
    decimals: int | None = 2,
    reason: Any = "template",
    concurrency: int = 16,
    progress: bool = True,
    **judge_options: Any,
) -> pd.DataFrame:
    return await _score_async(_run_for(locals(), "faithfulness"))


_METRICS_DOC = """    metrics : iterable of str, default all three
        Any of ``"context_recall"``, ``"context_precision"``, ``"faithfulness"``
        (or ``"recall"``, ``"precision"``). Left at its default, a metric whose
        input column the frame does not have is left out with one warning: no
        ground-truth column (production logs) scores precision and faithfulness, no
        answer column (retrieval only) recall and precision; a column empty in every
        row counts as missing. A column whose name looks like the missing one
        (``"gold answer"``), a frame with neither, or metrics named explicitly make a
        missing column a ``ValueError`` instead (an empty one an
        :class:`EmptyColumnWarning`).
"""

_EVALUATE_EXAMPLE = """
    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({
    ...     "question": ["When did the Harbor Museum open?"],
    ...     "answer": ["The Harbor Museum opened in 1998."],
    ...     "contexts": [["The Harbor Museum opened in 1998 on Pier 4."]],
    ...     "ground_truth": ["The Harbor Museum opened in 1998."]})
    >>> out = ragnotebook.evaluate(df, model="offline", progress=False)
    >>> out[["context_recall", "context_precision", "faithfulness"]].iloc[0].tolist()
    [1.0, 1.0, 1.0]
"""

_ASYNC_EXAMPLE = """
    Examples
    --------
    >>> import asyncio, pandas as pd, ragnotebook
    >>> df = pd.DataFrame({{"question": ["q"], "answer": ["The sky is blue."],
    ...                    "contexts": [["The sky is blue."]], "ground_truth": ["Blue sky."]}})
    >>> out = asyncio.run(ragnotebook.{name}(df, model="offline", progress=False))
    >>> out.loc[0, "{metric}_status"]
    'ok'
"""

_doc(
    "Score every row on several metrics at once (all three by default).\n\n"
    "    A row that fails gets status ``error`` and its message; the others finish.\n"
    "    Interrupting (Ctrl-C, or the kernel's stop button) returns the frame with\n"
    "    every finished row kept and the rest marked ``error`` (cancelled).",
    extra=_METRICS_DOC + _PRECISION_DOC,
    example=_EVALUATE_EXAMPLE,
)(evaluate)
_doc(
    "Async twin of :func:`evaluate`, running on the caller's event loop.\n\n"
    "    Cancelling the awaiting task cancels every judge call and re-raises\n"
    "    :class:`asyncio.CancelledError`.",
    extra=_METRICS_DOC + _PRECISION_DOC,
    example=_ASYNC_EXAMPLE.format(name="aevaluate", metric="faithfulness"),
)(aevaluate)
for _fn, _metric in (
    (acontext_recall, "context_recall"),
    (acontext_precision, "context_precision"),
    (afaithfulness, "faithfulness"),
):
    _fn.__doc__ = (_fn.__doc__ or "") + _ASYNC_EXAMPLE.format(name=_fn.__name__, metric=_metric)
