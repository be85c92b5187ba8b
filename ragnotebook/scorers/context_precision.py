"""Context precision: average precision of the relevant chunks by position.

Rules from ``spec/scorers.md`` (after the reference's ``createContextPrecisionScorer``):
judge each chunk ``yes``/``no`` for producing the reference; walk positions
k = 1..n, add ``precision@k = relevant_so_far / k`` at each relevant position,
divide by the number of relevant chunks R (R = 0 -> 0); ``score = AP * scale``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ragnotebook.scorers._common import (
    DEFAULT_CONFIG,
    MetricResult,
    Plan,
    ScorerConfig,
    ask_verdicts,
    finish,
    fmt_score,
    how_many,
    is_blank,
    scaled,
    verdict_row,
)
from ragnotebook.tasks import Item, Task

METRIC = "context_precision"


def average_precision(relevant: Sequence[bool]) -> tuple[float, list[float]]:
    """Average precision of a ranked list of relevance flags, and precision@k for every k.

    Parameters
    ----------
    relevant : sequence of bool
        Relevance of the chunk at each position, in retrieval order.

    Returns
    -------
    ap : float
        Sum of precision@k over relevant positions, divided by the number of
        relevant chunks; 0.0 when none is relevant (NaN for an empty list).
    precision_at_k : list of float
        ``relevant_so_far / k`` for k = 1..n.

    Examples
    --------
    >>> average_precision([True, False, True, False])[0]
    0.8333333333333333
    >>> average_precision([False, True, True])
    (0.5833333333333333, [0.0, 0.5, 0.6666666666666666])
    """
    if not relevant:
        return math.nan, []
    hits = 0
    total = 0.0
    curve = []
    for k, rel in enumerate(relevant, start=1):
        if rel:
            hits += 1
            total += hits / k
        curve.append(hits / k)
    return (total / hits if hits else 0.0), curve


def select_reference(
    mode: str, ground_truth: str | None, answer: str | None
) -> tuple[str | None, str | None]:
    """Pick the text chunks are judged against: ``(text, which)`` or ``(None, None)``."""
    if mode in ("auto", "ground_truth") and not is_blank(ground_truth):
        return ground_truth, "ground_truth"
    if mode in ("auto", "answer") and not is_blank(answer):
        return answer, "answer"
    return None, None


def context_precision_plan(
    *,
    question: str | None,
    ground_truth: str | None,
    answer: str | None,
    contexts: Sequence[str],
    config: ScorerConfig = DEFAULT_CONFIG,
) -> Plan:
    """Plan the context-precision judgement of one row.

    Parameters
    ----------
    question : str or None
        The user question.
    ground_truth, answer : str or None
        Candidates for the reference text (see ``ScorerConfig.reference``).
    contexts : sequence of str
        Retrieved chunks, in retrieval order (position 1 first).
    config : ScorerConfig
        Scale, rounding, reason, reference and batching options.

    Returns
    -------
    Plan

    Notes
    -----
    Statuses: ``no_context`` (no chunks, or all blank: NaN, no judge call),
    ``no_reference`` (NaN, no judge call), else ``ok``. Blank chunks keep their
    position and are ``no`` without being sent to the judge. Chunks are judged
    in batches of ``max_chunks_per_call`` that run concurrently.
    """
    chunks = list(contexts)
    if not chunks or all(is_blank(c) for c in chunks):
        return MetricResult(
            METRIC,
            math.nan,
            "no_context",
            reason="No context was retrieved, so precision is undefined.",
        )
    reference, which = select_reference(config.reference, ground_truth, answer)
    if reference is None:
        wanted = {
            "auto": "a ground truth or an answer",
            "ground_truth": "a ground truth",
            "answer": "an answer",
        }[config.reference]
        return MetricResult(
            METRIC,
            math.nan,
            "no_reference",
            reason=f"The row has no {wanted.split(' ', 1)[1]} to judge chunk relevance against "
            f"(reference={config.reference!r} needs {wanted}).",
        )
    items = [Item(i, c) for i, c in enumerate(chunks) if not is_blank(c)]
    # every task carries the row's chunks, whatever its batch: a judge that weighs a
    # chunk against the others (the offline judge) then gives the same verdict however
    # the row is split (prompts show only the batch)
    row_chunks = tuple(it.text for it in items)

    def make_task(subset: tuple[Item, ...]) -> Task:
        return Task(
            "judge_chunks",
            METRIC,
            question=question,
            text=reference,
            items=subset,
            chunks=row_chunks,
            extra=(("reference", which),),
        )

    good, missing, invalid, positional = yield from ask_verdicts(
        make_task, items, ("yes", "no"), batch=config.max_chunks_per_call
    )
    rows = []
    for i, chunk in enumerate(chunks):
        if is_blank(chunk):
            rows.append({"index": i, "chunk": chunk, "verdict": "no", "reason": "blank chunk"})
        else:
            rows.append(
                verdict_row(
                    i,
                    "chunk",
                    chunk,
                    good.get(i),
                    "no",
                    missing,
                    invalid,
                    with_support=False,
                    positional=positional,
                )
            )
    flags = [r["verdict"] == "yes" for r in rows]
    ap, curve = average_precision(flags)
    for r, p in zip(rows, curve, strict=True):
        r["precision_at_k"] = p
    exact, score = scaled(ap, config)
    positions = [k for k, f in enumerate(flags, start=1) if f]
    basis = "ground truth" if which == "ground_truth" else "answer"
    subject = how_many(len(positions), len(chunks), "retrieved chunk")
    if not positions:
        text = f"The score is {fmt_score(score)} because {subject} relevant to the {basis}."
    else:
        shown = ", ".join(str(p) for p in positions[:10]) + (", ..." if len(positions) > 10 else "")
        where = "at position" if len(positions) == 1 else "at positions"
        text = (
            f"The score is {fmt_score(score)} (average precision) because {subject} relevant to "
            f"the {basis}, {where} {shown}"
        )
        text += (
            "."
            if positions[0] == 1
            else f"; the first relevant chunk is at position {positions[0]}."
        )
    return (
        yield from finish(
            METRIC,
            question,
            config,
            text,
            score=score,
            exact=exact,
            verdicts=rows,
            missing=missing,
            invalid=invalid,
            item="chunk",
            counts_as="not relevant",
            positional=positional,
            asked=len(items),
        )
    )
