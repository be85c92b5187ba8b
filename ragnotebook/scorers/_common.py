"""Shared scoring rules: rounding, verdict alignment, results and the step protocol.

A scorer's logic is a generator (a *plan*): it yields a list of
:class:`~ragnotebook.tasks.Task` objects, receives the list of answers in the
same order, and finally returns a :class:`MetricResult`. No I/O and no event
loop live here; the engine (or a test) drives the plan.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ragnotebook.tasks import (
    REASK,
    Answer,
    Claims,
    Explanation,
    Item,
    Task,
    TaskKind,
    Verdict,
    Verdicts,
    normalise_verdict_word,
)

__all__ = [
    "STATUSES",
    "MetricResult",
    "Plan",
    "ScorerConfig",
    "align_verdicts",
    "ask_verdicts",
    "normalise_verdict_word",
    "round_half_up",
]

#: Every status a metric result can carry.
STATUSES = ("ok", "no_ground_truth", "no_reference", "no_claims", "no_context", "error")

#: A scorer plan: yields task batches, receives answers, returns the result.
Plan = Generator[list[Task], list[Answer], "MetricResult"]

ReasonMode = Literal["template", "llm"] | None

_EPSILON = 2.220446049250313e-16  # Number.EPSILON, as in the reference's rounding


def round_half_up(x: float, decimals: int | None = 2) -> float:
    """Round half-up like the reference implementation (JavaScript ``Math.round``).

    The reference rounds with ``floor((x + EPSILON) * 10**d + 0.5) / 10**d``;
    Python's :func:`round` rounds half to even and would give 0.83 for 0.835.

    Parameters
    ----------
    x : float
        Value to round; NaN is returned unchanged.
    decimals : int or None, default 2
        Decimal places. ``None`` returns ``x`` unchanged (the exact ratio).

    Returns
    -------
    float

    Examples
    --------
    >>> [round_half_up(v) for v in (2 / 3, 1 / 3, 5 / 6, 0.835, 0.125, 7 / 12)]
    [0.67, 0.33, 0.83, 0.84, 0.13, 0.58]
    """
    if decimals is None or math.isnan(x):
        return x
    factor = 10.0**decimals
    return math.floor((x + _EPSILON) * factor + 0.5) / factor


def check_count(value: Any, name: str, *, minimum: int = 1, or_none: bool = False) -> int:
    """``value`` as a Python int, refused unless it is an integer >= ``minimum``.

    Parameters
    ----------
    value : object
        The option's value (a NumPy integer is accepted).
    name : str
        The option, named in the message.
    minimum : int, default 1
        The smallest value allowed.
    or_none : bool, default False
        Whether the message says None is allowed too (the caller handles None).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        For a value that is not an integer: a float (``2.5``, even ``2.0``), a string
        (``"4"``), a bool.
    ValueError
        For an integer below ``minimum``.

    Examples
    --------
    >>> from ragnotebook.scorers._common import check_count
    >>> check_count(4, "concurrency")
    4
    >>> check_count("4", "concurrency")
    Traceback (most recent call last):
    ...
    TypeError: concurrency must be an integer >= 1, got '4'
    """
    what = f"an integer >= {minimum}" + (" or None" if or_none else "")
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return int(value)


@dataclass(frozen=True, slots=True)
class ScorerConfig:
    """Options shared by the three scorers.

    Parameters
    ----------
    scale : float, default 1.0
        Scores lie in ``[0, scale]``. Must be > 0 (the reference silently turns 0
        into 1; we raise instead).
    decimals : int or None, default 2
        Half-up rounding of the score; ``None`` keeps the exact ratio.
    reason : {"template", "llm", None}, default "template"
        How the explanation is written: from the verdicts with no extra call,
        by the judge (one more call, as the reference does), or not at all.
    reference : {"auto", "ground_truth", "answer"}, default "auto"
        Context precision only: the text chunks are judged against.
    max_chunks_per_call : int, default 20
        Context precision only: chunks judged per call; longer lists are split.

    Raises
    ------
    TypeError
        For a ``scale`` that is not a real number (a bool, a string), or a ``decimals``
        or ``max_chunks_per_call`` that is not an integer (``1.5``, ``"2"``, ``True``);
        NumPy numbers are accepted and stored as Python ones.
    ValueError
        For ``scale <= 0``, an unknown ``reason`` or ``reference``,
        ``max_chunks_per_call < 1`` or ``decimals < 0``.

    Examples
    --------
    >>> from ragnotebook.scorers._common import ScorerConfig
    >>> ScorerConfig(decimals=3).decimals
    3
    >>> ScorerConfig(decimals=1.5)
    Traceback (most recent call last):
    ...
    TypeError: decimals must be an integer >= 0 or None, got 1.5
    """

    scale: float = 1.0
    decimals: int | None = 2
    reason: ReasonMode = "template"
    reference: str = "auto"
    max_chunks_per_call: int = 20

    def __post_init__(self) -> None:
        if isinstance(self.scale, bool) or not isinstance(self.scale, numbers.Real):
            raise TypeError(f"scale must be a number, got {self.scale!r}")
        # NumPy numbers (np.int64(5) from a frame) become Python ones, JSON-safe in attrs
        plain = int(self.scale) if isinstance(self.scale, numbers.Integral) else float(self.scale)
        object.__setattr__(self, "scale", plain)
        if not math.isfinite(self.scale) or self.scale <= 0:
            raise ValueError(f"scale must be a finite number > 0, got {self.scale!r}")
        if self.reason not in ("template", "llm", None):
            raise ValueError(f"reason must be 'template', 'llm' or None, got {self.reason!r}")
        if self.reference not in ("auto", "ground_truth", "answer"):
            raise ValueError(
                f"reference must be 'auto', 'ground_truth' or 'answer', got {self.reference!r}"
            )
        object.__setattr__(
            self,
            "max_chunks_per_call",
            check_count(self.max_chunks_per_call, "max_chunks_per_call"),
        )
        if self.decimals is not None:
            # 1.5 would scale by 10**1.5 and put a perfect score above 1; True is no count
            decimals = check_count(self.decimals, "decimals", minimum=0, or_none=True)
            object.__setattr__(self, "decimals", decimals)


@dataclass(slots=True)
class MetricResult:
    """The outcome of one metric on one row.

    Attributes
    ----------
    metric : str
        ``"context_recall"``, ``"context_precision"`` or ``"faithfulness"``.
    score : float
        In ``[0, scale]``, rounded; NaN when undefined (precision without
        chunks or reference) or on error.
    status : str
        One of :data:`STATUSES`.
    reason : str or None
        Explanation of the score.
    verdicts : list of dict
        One dict per claim (recall, faithfulness: ``index``, ``claim``,
        ``verdict``, ``reason``, ``supporting_chunks``) or per chunk (precision:
        ``index``, ``chunk``, ``verdict``, ``reason``, ``precision_at_k``).
        Items the judge never gave a valid verdict for carry ``"missing": True``
        or ``"invalid": True``.
    claims : list of str or None
        Extracted claims (recall, faithfulness); None when not extracted.
    error : str or None
        The error message when ``status == "error"``.
    missing_verdicts, invalid_verdicts : int
        Items still without a (valid) verdict after the one re-ask; counted
        against the score.
    positional_verdicts : int
        Verdicts matched to their items by position rather than by index, because
        the judge numbered them 1..k, or 0..k-1 on a re-ask of other items, or gave
        no index at all (each such verdict dict carries ``"aligned_by_position"``).
    exact : float
        The unrounded ratio times scale (NaN where the score is).
    out_of_range_chunks : int
        Supporting-chunk indices the judge cited for a ``yes`` that name no chunk of the
        row (7 for a row of 3 chunks, or a negative one); they are dropped from the
        verdicts' ``supporting_chunks`` and counted here.
    """

    metric: str
    score: float
    status: str
    reason: str | None = None
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    claims: list[str] | None = None
    error: str | None = None
    missing_verdicts: int = 0
    invalid_verdicts: int = 0
    exact: float = math.nan
    positional_verdicts: int = 0
    out_of_range_chunks: int = 0

    @classmethod
    def failed(cls, metric: str, message: str) -> MetricResult:
        """A result with status ``error``, NaN score and ``message``."""
        return cls(metric=metric, score=math.nan, status="error", error=message)

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form (JSON-safe apart from NaN floats)."""
        return {
            "metric": self.metric,
            "score": self.score,
            "status": self.status,
            "reason": self.reason,
            "verdicts": self.verdicts,
            "claims": self.claims,
            "error": self.error,
            "missing_verdicts": self.missing_verdicts,
            "invalid_verdicts": self.invalid_verdicts,
            "positional_verdicts": self.positional_verdicts,
            "out_of_range_chunks": self.out_of_range_chunks,
        }


#: Why verdicts were matched to the items by position (see :func:`align_verdicts`).
ONE_BASED = "the judge numbered its verdicts 1..{k} instead of by the indices asked"
ZERO_BASED = "the judge numbered its verdicts 0..{k_1} instead of by the indices asked"
NO_INDEX = "the judge's verdicts carried no index"


def _positional(wanted: Sequence[int], verdicts: Sequence[Verdict]) -> str | None:
    """Why ``verdicts`` should be matched to the items asked by position, or None.

    Only unambiguous cases: exactly one verdict per item asked, and either none of them
    has an index, or their indices are exactly ``1..k`` (a judge counting from 1) or
    ``0..k-1`` (a judge counting its own list), differ from the indices asked and do
    not mix with them (``1..k`` may overlap ``0..k-1`` when those were asked: the shift
    by one is the whole difference).
    """
    k = len(wanted)
    if k == 0 or len(verdicts) != k:
        return None
    indices = [v.index for v in verdicts]
    if all(i is None for i in indices):
        return NO_INDEX
    if any(i is None for i in indices):
        return None
    got, asked = set(indices), set(wanted)
    if len(got) != k or got == asked:
        return None
    one_based, zero_based = set(range(1, k + 1)), set(range(k))
    if got == one_based and (asked == zero_based or not got & asked):
        return ONE_BASED.format(k=k)
    if got == zero_based and not got & asked:
        return ZERO_BASED.format(k_1=k - 1)
    return None


def align_verdicts(
    items: Sequence[Item], answer: Answer, allowed: Sequence[str]
) -> tuple[dict[int, Verdict], list[int], list[int], str | None]:
    """Match a judge's verdicts to the items asked, by index (or, unambiguously, by position).

    Verdicts are matched by their ``index``. They are matched by position instead (the
    first verdict to the first item asked, ...) only when there is exactly one verdict
    per item and either none carries an index, or their indices are exactly ``1..k``
    for the ``k`` items asked (a judge counting from 1), or exactly ``0..k-1`` while the
    items asked have other indices (a re-ask of items 3 and 7 answered as 0 and 1).
    Anything less clear-cut (a count that differs, duplicates, indices that mix the
    asked ones with others) is matched by index only, and what does not match is
    missing.

    Parameters
    ----------
    items : sequence of Item
        The claims or chunks that were asked about, in the order asked.
    answer : Verdicts
        The judge's answer.
    allowed : sequence of str
        Allowed verdict words (lower case).

    Returns
    -------
    good : dict of int to Verdict
        Item index -> verdict, with the verdict word normalised
        (:func:`normalise_verdict_word`) and the item's index.
    missing : list of int
        Item indices with no verdict, or with more than one (duplicates are ambiguous).
    invalid : list of int
        Item indices whose only verdict uses a word outside ``allowed``.
    positional : str or None
        Why the verdicts were matched by position, or None when they were matched by
        index.

    Examples
    --------
    >>> from ragnotebook.tasks import Item, Verdict, Verdicts
    >>> items = [Item(0, "a"), Item(1, "b"), Item(2, "c")]
    >>> ans = Verdicts(verdicts=[Verdict(index=0, verdict=" YES. "),
    ...                          Verdict(index=2, verdict="maybe"), Verdict(index=7, verdict="no")])
    >>> good, missing, invalid, positional = align_verdicts(items, ans, ("yes", "no"))
    >>> good[0].verdict, missing, invalid, positional
    ('yes', [1], [2], None)
    >>> one_based = Verdicts(verdicts=[Verdict(index=i + 1, verdict=w)
    ...                                for i, w in enumerate(["yes", "no", "**No**"])])
    >>> good, missing, invalid, positional = align_verdicts(items, one_based, ("yes", "no"))
    >>> [(i, v.index, v.verdict) for i, v in good.items()], positional
    ([(0, 0, 'yes'), (1, 1, 'no'), (2, 2, 'no')], 'the judge numbered its verdicts 1..3 instead of by the indices asked')
    """
    verdicts = answer.verdicts if isinstance(answer, Verdicts) else []
    positional = _positional([it.index for it in items], verdicts)
    seen: dict[int, list[Verdict]] = {}
    if positional is not None:
        for it, v in zip(items, verdicts, strict=True):
            seen[it.index] = [v]
    else:
        wanted = {it.index for it in items}
        for v in verdicts:
            if v.index is not None and v.index in wanted:
                seen.setdefault(v.index, []).append(v)
    good: dict[int, Verdict] = {}
    missing: list[int] = []
    invalid: list[int] = []
    for it in items:
        found = seen.get(it.index, [])
        if len(found) != 1:
            missing.append(it.index)
            continue
        word = normalise_verdict_word(found[0].verdict)
        if word not in allowed:
            invalid.append(it.index)
            continue
        good[it.index] = found[0].model_copy(update={"verdict": word, "index": it.index})
    return good, missing, invalid, positional


def reask(task: Task) -> Task:
    """The re-ask of ``task``: the same items, marked as a second request.

    The mark enters the task's cache key (``Task.to_dict()``), so the re-ask is never
    answered by the first answer (in-run sharing or the cache), and it tells an LLM judge
    that its previous reply gave no valid verdict for these items
    (:func:`ragnotebook.prompts.render`).

    Parameters
    ----------
    task : Task
        A verdict task (``verify_claims``, ``attribute_claims``, ``judge_chunks``).

    Returns
    -------
    Task
        A copy with ``REASK`` in ``extra`` (once).

    Examples
    --------
    >>> from ragnotebook.scorers._common import reask
    >>> from ragnotebook.tasks import Item, Task
    >>> t = Task("verify_claims", "faithfulness", items=(Item(0, "It is free."),), chunks=("Free.",))
    >>> reask(t).extra, reask(reask(t)) == reask(t), reask(t) == t
    ((('reask', 1),), True, False)
    """
    if REASK in task.extra:
        return task
    return replace(task, extra=(*task.extra, REASK))


def complete_answer(task: Task, answer: Answer) -> bool:
    """Whether ``answer`` gives every item of a verdict task a valid verdict.

    An answer with an item missing or a word outside the task's verdict words is kept out
    of the cache: the scorer re-asks for those items, and a later run should ask again
    rather than replay an incomplete answer. Tasks without items (claim extraction,
    explanations) are always complete.

    Parameters
    ----------
    task : Task
    answer : Answer
        The judge's answer to ``task``.

    Returns
    -------
    bool

    Examples
    --------
    >>> from ragnotebook.scorers._common import complete_answer
    >>> from ragnotebook.tasks import Item, Task, Verdict, Verdicts
    >>> t = Task("verify_claims", "faithfulness", items=(Item(0, "a"), Item(1, "b")), chunks=("c",))
    >>> yes = Verdict(index=0, verdict="yes", reason="")
    >>> complete_answer(t, Verdicts(verdicts=[yes]))
    False
    >>> complete_answer(t, Verdicts(verdicts=[yes, Verdict(index=1, verdict="no", reason="")]))
    True
    """
    allowed = task.verdict_words
    if not task.items or not allowed or not hasattr(answer, "verdicts"):
        return True
    _, missing, invalid, _ = align_verdicts(task.items, answer, allowed)
    return not missing and not invalid


def ask_verdicts(
    make_task: Any, items: Sequence[Item], allowed: Sequence[str], batch: int | None = None
) -> Generator[
    list[Task], list[Answer], tuple[dict[int, Verdict], set[int], set[int], dict[int, str]]
]:
    """Sub-plan: ask for verdicts on ``items``, then re-ask once for the affected ones.

    Parameters
    ----------
    make_task : callable
        ``make_task(items_subset) -> Task``.
    items : sequence of Item
        Claims or chunks to judge.
    allowed : sequence of str
        Allowed verdict words.
    batch : int, optional
        Maximum items per task; ``None`` sends all in one task.

    Returns
    -------
    good : dict of int to Verdict
    missing : set of int
        Indices with no usable verdict after the re-ask.
    invalid : set of int
        Indices whose last verdict used a word outside ``allowed``.
    positional : dict of int to str
        Indices whose verdict was matched by position (see :func:`align_verdicts`),
        with the reason.
    """
    good: dict[int, Verdict] = {}
    pending = list(items)
    missing: set[int] = set()
    invalid: set[int] = set()
    positional: dict[int, str] = {}
    for attempt in range(2):  # the first ask and one re-ask
        if not pending:
            break
        size = batch or len(pending)
        groups = [pending[i : i + size] for i in range(0, len(pending), size)]
        tasks = [make_task(tuple(g)) for g in groups]
        if attempt:
            # the re-ask is its own task: when every item was left without a verdict it
            # asks for the same items as the first ask, and would otherwise be answered
            # by that first (incomplete) answer, shared within the run or cached
            tasks = [reask(t) for t in tasks]
        answers = yield tasks
        missing, invalid = set(), set()
        for group, answer in zip(groups, answers, strict=True):
            g, m, inv, why = align_verdicts(group, answer, allowed)
            good.update(g)
            missing.update(m)
            invalid.update(inv)
            if why is not None:
                positional.update((i, why) for i in g)
        pending = [it for it in pending if it.index in missing or it.index in invalid]
    return good, missing, invalid, positional


def verdict_row(
    index: int,
    text_key: str,
    text: str,
    verdict: Verdict | None,
    fallback_word: str,
    missing: set[int],
    invalid: set[int],
    *,
    with_support: bool = True,
    positional: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Build the per-item verdict dict recorded in results.

    A verdict matched by position (``index`` in ``positional``) carries
    ``"aligned_by_position"`` with the reason.
    """
    row: dict[str, Any] = {"index": index, text_key: text}
    if verdict is not None:
        row["verdict"] = verdict.verdict
        row["reason"] = verdict.reason
        if with_support:
            # the chunks that support a `yes` (the spec records them for each `yes`): a
            # judge listing chunks with a `no` names the ones it read, not support
            support = verdict.supporting_chunks if verdict.verdict == "yes" else ()
            row["supporting_chunks"] = sorted({int(i) for i in support})
        if positional and index in positional:
            row["aligned_by_position"] = positional[index]
    else:
        row["verdict"] = fallback_word
        if index in invalid:
            row["reason"] = "the judge's verdict word was not allowed, even when asked again"
            row["invalid"] = True
        else:
            row["reason"] = "the judge gave no verdict for this item, even when asked again"
            row["missing"] = True
        if with_support:
            row["supporting_chunks"] = []
    return row


def unjudged(row: dict[str, Any]) -> bool:
    """True for an item the judge never gave a valid verdict (``missing`` / ``invalid``).

    Template reasons count those in their own note, not among the judged claims.
    """
    return bool(row.get("missing") or row.get("invalid"))


def end_sentence(text: str) -> str:
    """``text`` with a closing full stop, unless it already ends with one inside a quote.

    Examples
    --------
    >>> end_sentence('not found: "It is on Pier 4."'), end_sentence('not found: "Pier 4"')
    ('not found: "It is on Pier 4."', 'not found: "Pier 4".')
    """
    return text if text.endswith(('."', '!"', '?"', '。"')) else text + "."


def quote_list(texts: Sequence[str], limit: int = 3, width: int = 80) -> str:
    """Quote up to ``limit`` texts for a template reason ("a"; "b"; and 2 more)."""
    shown = []
    for t in texts[:limit]:
        t = " ".join(t.split())
        shown.append(f'"{t[: width - 1]}…"' if len(t) > width else f'"{t}"')
    rest = len(texts) - limit
    if rest > 0:
        shown.append(f"and {rest} more")
    return "; ".join(shown)


def fmt_score(score: float) -> str:
    """Format a score for a reason sentence (``0.67``, ``1``, ``0.5``, ``666.67``).

    Six significant digits: the rounded score as the score column shows it, up to a
    ``scale`` of 1000 with two decimals (an unrounded score, ``decimals=None``, is cut
    to six digits).
    """
    return f"{score:.6g}"


def how_many(k: int, n: int, noun: str) -> str:
    """``k`` of ``n`` items as the subject of a reason sentence, with its verb.

    Examples
    --------
    >>> how_many(2, 3, "answer claim"), how_many(3, 3, "answer claim")
    ('2 of 3 answer claims are', 'all 3 answer claims are')
    >>> how_many(0, 3, "retrieved chunk"), how_many(0, 1, "retrieved chunk")
    ('none of the 3 retrieved chunks is', 'the one retrieved chunk is not')
    >>> how_many(1, 1, "answer claim"), how_many(1, 4, "retrieved chunk")
    ('the one answer claim is', '1 of 4 retrieved chunks is')
    """
    if n == 1:
        return f"the one {noun} is" + ("" if k else " not")
    if k == n:
        return f"all {n} {noun}s are"
    if k == 0:
        return f"none of the {n} {noun}s is"
    return f"{k} of {n} {noun}s " + ("is" if k == 1 else "are")


def explain_task(metric: str, question: str | None, summary: str) -> Task:
    """The ``explain`` task for ``reason="llm"``."""
    return Task("explain", metric, question=question, text=summary)


def extract_claims(
    metric: str, question: str | None, text: str, source: str
) -> Generator[list[Task], list[Answer], list[str]]:
    """Sub-plan: ask for the claims of ``text`` (the ground truth or the answer), cleaned."""
    (answer,) = yield [Task("extract_claims", metric, question=question, text=text, source=source)]
    if not isinstance(answer, Claims):
        raise TypeError(f"extract_claims needs Claims, got {type(answer).__name__}")
    return clean_claims(answer.claims)


def no_context_result(
    metric: str, zero: float, claims: list[str], verdict: str, reason: str
) -> MetricResult:
    """Status ``no_context``: every claim gets ``verdict`` without a judge call, score 0."""
    verdicts = [
        {
            "index": i,
            "claim": c,
            "verdict": verdict,
            "reason": "no retrieved context",
            "supporting_chunks": [],
        }
        for i, c in enumerate(claims)
    ]
    return MetricResult(
        metric, zero, "no_context", reason=reason, verdicts=verdicts, claims=claims, exact=0.0
    )


def judge_claims(
    kind: TaskKind,
    metric: str,
    question: str | None,
    claims: Sequence[str],
    chunks: tuple[str, ...],
    allowed: Sequence[str],
    fallback_word: str,
) -> Generator[
    list[Task], list[Answer], tuple[list[dict[str, Any]], set[int], set[int], dict[int, str], int]
]:
    """Sub-plan: judge every claim against all chunks with ``kind`` tasks (:func:`ask_verdicts`).

    Returns
    -------
    rows : list of dict
        One verdict dict per claim (:func:`verdict_row`); claims left without a valid
        verdict get ``fallback_word``; supporting chunks outside the row are dropped.
    missing, invalid : set of int
    positional : dict of int to str
        Claims whose verdict was matched by position, with the reason.
    out_of_range : int
        How many supporting-chunk indices were dropped because the row has no such chunk
        (summed over the claims; each index counted once per claim).
    """
    items = [Item(i, c) for i, c in enumerate(claims)]

    def make_task(subset: tuple[Item, ...]) -> Task:
        return Task(kind, metric, question=question, items=subset, chunks=chunks)

    good, missing, invalid, positional = yield from ask_verdicts(make_task, items, allowed)
    rows = []
    out_of_range = 0
    for it in items:
        row = verdict_row(
            it.index,
            "claim",
            it.text,
            good.get(it.index),
            fallback_word,
            missing,
            invalid,
            positional=positional,
        )
        cited = row["supporting_chunks"]
        row["supporting_chunks"] = [i for i in cited if 0 <= i < len(chunks)]
        # a chunk the row does not have (a judge counting from 1, or making one up): not
        # kept as support, but counted so the run can say so
        out_of_range += len(cited) - len(row["supporting_chunks"])
        rows.append(row)
    return rows, missing, invalid, positional, out_of_range


def scaled(ratio: float, config: ScorerConfig) -> tuple[float, float]:
    """``(exact, score)``: the ratio times ``config.scale``, and that rounded half-up."""
    exact = ratio * config.scale
    return exact, round_half_up(exact, config.decimals)


@dataclass(frozen=True, slots=True)
class ExplainFailed:
    """Sent to a plan in place of an explanation when the ``explain`` call failed.

    Attributes
    ----------
    error : str
        The failure, as the engine describes it (``"RuntimeError: ..."``).
    """

    error: str


def finish(
    metric: str,
    question: str | None,
    config: ScorerConfig,
    text: str,
    *,
    score: float,
    exact: float,
    verdicts: list[dict[str, Any]],
    missing: set[int],
    invalid: set[int],
    claims: list[str] | None = None,
    item: str = "claim",
    counts_as: str,
    positional: dict[int, str] | None = None,
    asked: int | None = None,
    out_of_range_chunks: int = 0,
) -> Generator[list[Task], list[Answer], MetricResult]:
    """Sub-plan: the ``ok`` result, its reason written as ``config.reason`` asks.

    When no item of the ``asked`` ones (default: every verdict; precision leaves out
    blank chunks, which are not sent) got a valid verdict, even on the re-ask, the result
    is an ``error`` instead: the judge failed on the row (a model answering "supported"
    to every claim), and its 0 would be no measurement. The verdicts stay in the result.

    ``text`` is the template reason; a note on the items that got no valid verdict
    (``"2 claim(s) got no valid verdict ... and count as <counts_as>."``) is added to
    it, and so is a note on verdicts matched by position (``positional``). With
    ``reason="llm"`` the judge is asked to explain (one more task) and the
    template is kept when its answer is not an explanation or the call failed (the
    engine then sends an :class:`ExplainFailed` naming the error; the score stands);
    with ``None`` there is no reason. ``out_of_range_chunks`` (supporting-chunk indices
    the judge cited that the row does not have, already dropped) is recorded on the
    result.
    """
    n_unjudged = len(missing) + len(invalid)
    n_asked = len(verdicts) if asked is None else asked
    if n_asked and n_unjudged >= n_asked:
        words = "yes, no or unsure" if metric == "faithfulness" else "yes or no"
        parts = [
            f"{n} {what}"
            for n, what in (
                (len(invalid), f"with a verdict word other than {words}"),
                (len(missing), "without a verdict (or with more than one)"),
            )
            if n
        ]
        return MetricResult(
            metric,
            math.nan,
            "error",
            verdicts=verdicts,
            claims=claims,
            error=(
                f"no_valid_verdicts: the judge gave no usable verdict for any of the "
                f"{n_asked} {item}(s), even when asked again ({', '.join(parts)}); its "
                f"answers are in the verdicts column. Check that the model follows the "
                f"prompt's answer format (one verdict per index, the words {words})."
            ),
            missing_verdicts=len(missing),
            invalid_verdicts=len(invalid),
            positional_verdicts=len(positional or {}),
            out_of_range_chunks=out_of_range_chunks,
        )
    if n_unjudged:
        text += (
            f" {n_unjudged} {item}(s) got no valid verdict from the judge and count as {counts_as}."
        )
    if positional:
        whys = sorted(set(positional.values()))
        text += (
            f" {len(positional)} {item} verdict(s) were matched by position, not by index: "
            + "; ".join(whys)
            + "."
        )
    reason: str | None = text
    if config.reason is None:
        reason = None
    elif config.reason == "llm":
        (exp,) = yield [explain_task(metric, question, text)]
        if isinstance(exp, ExplainFailed):  # the explain call failed: keep the template
            reason = (
                f"{text} (The judge's explanation failed, {exp.error}; "
                "this is the template reason.)"
            )
        else:
            reason = exp.reason if isinstance(exp, Explanation) else text
    return MetricResult(
        metric,
        score,
        "ok",
        reason=reason,
        verdicts=verdicts,
        claims=claims,
        missing_verdicts=len(missing),
        invalid_verdicts=len(invalid),
        exact=exact,
        positional_verdicts=len(positional or {}),
        out_of_range_chunks=out_of_range_chunks,
    )


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def is_blank(text: str | None) -> bool:
    """True for None or a string of only whitespace and invisible characters.

    Examples
    --------
    >>> is_blank(None), is_blank(" " + chr(0x200B) + chr(10)), is_blank("x")
    (True, True, False)
    """
    if text is None:
        return True
    text = str(text)
    head = text.lstrip()[:1]
    if head and ord(head) not in _INVISIBLE:
        return False  # a visible first character: no need to read a long chunk through
    return not text.translate(_INVISIBLE).strip()


def clean_claims(claims: Sequence[str]) -> list[str]:
    """Strip claims and drop blank ones (the judge's order is kept)."""
    return [c.strip() for c in claims if isinstance(c, str) and c.strip()]


#: The default options (scale 1, two decimals, template reasons).
DEFAULT_CONFIG = ScorerConfig()
