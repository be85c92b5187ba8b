"""Faithfulness: the share of the answer's claims that the retrieved context supports.

Rules from ``spec/scorers.md`` (after the reference's ``createFaithfulnessScorer``):
extract every claim of the answer (speculative ones included), verify each as
``yes`` (supported), ``no`` (contradicted) or ``unsure`` (not verifiable);
``score = yes / total * scale``, rounded half-up. ``no`` and ``unsure`` both count
against. The denominator is the number of claims sent, never the number of
verdicts returned (the reference divides by returned verdicts).
"""

from __future__ import annotations

from collections.abc import Sequence

from ragnotebook.scorers._common import (
    DEFAULT_CONFIG,
    MetricResult,
    Plan,
    ScorerConfig,
    ask_verdicts,
    clean_claims,
    explain_task,
    fmt_score,
    is_blank,
    quote_list,
    round_half_up,
    verdict_row,
)
from ragnotebook.tasks import Claims, Explanation, Item, Task

METRIC = "faithfulness"


def faithfulness_plan(
    *,
    question: str | None,
    answer: str | None,
    contexts: Sequence[str],
    config: ScorerConfig = DEFAULT_CONFIG,
) -> Plan:
    """Plan the faithfulness judgement of one row.

    Parameters
    ----------
    question : str or None
        The user question.
    answer : str or None
        The generated answer whose claims are verified.
    contexts : sequence of str
        Retrieved chunks, in retrieval order.
    config : ScorerConfig
        Scale, rounding and reason options.

    Returns
    -------
    Plan

    Notes
    -----
    Statuses: ``no_claims`` for a blank answer (no judge call) or when no
    claims are extracted (a refusal, a greeting), score 0; ``no_context``
    (claims extracted, verification skipped, every claim ``unsure``, score 0);
    else ``ok``.
    """
    zero = round_half_up(0.0, config.decimals)
    if is_blank(answer):
        return MetricResult(
            METRIC,
            zero,
            "no_claims",
            reason="The answer is empty: there is nothing to verify.",
            claims=[],
            exact=0.0,
        )
    assert answer is not None
    (extracted,) = yield [
        Task("extract_claims", METRIC, question=question, text=answer, source="answer")
    ]
    if not isinstance(extracted, Claims):
        raise TypeError(f"extract_claims needs Claims, got {type(extracted).__name__}")
    claims = clean_claims(extracted.claims)
    if not claims:
        return MetricResult(
            METRIC,
            zero,
            "no_claims",
            reason=(
                f"The score is {fmt_score(zero)} because the answer makes no factual claims "
                "(for example a refusal or a greeting)."
            ),
            claims=[],
            exact=0.0,
        )
    chunks = tuple(contexts)
    if all(is_blank(c) for c in chunks):
        verdicts = [
            {
                "index": i,
                "claim": c,
                "verdict": "unsure",
                "reason": "no retrieved context",
                "supporting_chunks": [],
            }
            for i, c in enumerate(claims)
        ]
        return MetricResult(
            METRIC,
            zero,
            "no_context",
            reason=(
                f"The score is {fmt_score(zero)} because no context was retrieved; none of the "
                f"{len(claims)} answer claims can be verified."
            ),
            verdicts=verdicts,
            claims=claims,
            exact=0.0,
        )
    items = [Item(i, c) for i, c in enumerate(claims)]

    def make_task(subset: tuple[Item, ...]) -> Task:
        return Task("verify_claims", METRIC, question=question, items=subset, chunks=chunks)

    good, missing, invalid = yield from ask_verdicts(make_task, items, ("yes", "no", "unsure"))
    rows = []
    for it in items:
        row = verdict_row(
            it.index, "claim", it.text, good.get(it.index), "unsure", missing, invalid
        )
        row["supporting_chunks"] = [i for i in row["supporting_chunks"] if 0 <= i < len(chunks)]
        rows.append(row)
    n_yes = sum(1 for r in rows if r["verdict"] == "yes")
    exact = n_yes / len(claims) * config.scale
    score = round_half_up(exact, config.decimals)
    contradicted = [r["claim"] for r in rows if r["verdict"] == "no"]
    unverified = [r["claim"] for r in rows if r["verdict"] == "unsure"]
    if n_yes == len(claims):
        text = (
            f"The score is {fmt_score(score)} because all {len(claims)} answer claims are "
            "supported by the retrieved context."
        )
    else:
        text = (
            f"The score is {fmt_score(score)} because {n_yes} of {len(claims)} answer claims "
            "are supported by the retrieved context"
        )
        if contradicted:
            text += f"; contradicted: {quote_list(contradicted)}"
        if unverified:
            text += f"; not verifiable: {quote_list(unverified)}"
        text += "."
    n_unjudged = len(missing) + len(invalid)
    if n_unjudged:
        text += (
            f" {n_unjudged} claim(s) got no valid verdict from the judge and count as not "
            "supported."
        )
    reason: str | None = text
    if config.reason is None:
        reason = None
    elif config.reason == "llm":
        (exp,) = yield [explain_task(METRIC, question, text)]
        reason = exp.reason if isinstance(exp, Explanation) else text
    return MetricResult(
        METRIC,
        score,
        "ok",
        reason=reason,
        verdicts=rows,
        claims=claims,
        missing_verdicts=len(missing),
        invalid_verdicts=len(invalid),
        exact=exact,
    )
