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
    end_sentence,
    extract_claims,
    finish,
    fmt_score,
    how_many,
    is_blank,
    judge_claims,
    no_context_result,
    quote_list,
    round_half_up,
    scaled,
    unjudged,
)

#: The reason of a row whose answer is missing or blank (no judge call). It marks the
#: row as unscored in a frame read back from a file, where the answer column may be
#: unknown (see :func:`ragnotebook.frame.scored_mask`).
BLANK_ANSWER_REASON = "The answer is empty: there is nothing to verify."

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
            reason=BLANK_ANSWER_REASON,
            claims=[],
            exact=0.0,
        )
    assert answer is not None
    claims = yield from extract_claims(METRIC, question, answer, "answer")
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
        return no_context_result(
            METRIC,
            zero,
            claims,
            "unsure",
            f"The score is {fmt_score(zero)} because no context was retrieved; "
            f"{how_many(0, len(claims), 'answer claim')} verifiable.",
        )
    rows, missing, invalid, positional, out_of_range = yield from judge_claims(
        "verify_claims", METRIC, question, claims, chunks, ("yes", "no", "unsure"), "unsure"
    )
    n_yes = sum(1 for r in rows if r["verdict"] == "yes")
    exact, score = scaled(n_yes / len(claims), config)
    contradicted = [r["claim"] for r in rows if r["verdict"] == "no"]
    unverified = [r["claim"] for r in rows if r["verdict"] == "unsure" and not unjudged(r)]
    subject = how_many(n_yes, len(claims), "answer claim")
    text = f"The score is {fmt_score(score)} because {subject} supported by the retrieved context"
    if contradicted:
        text += f"; contradicted: {quote_list(contradicted)}"
    if unverified:
        text += f"; not verifiable: {quote_list(unverified)}"
    text = end_sentence(text)
    return (
        yield from finish(
            METRIC,
            question,
            config,
            text,
            score=score,
            exact=exact,
            verdicts=rows,
            claims=claims,
            missing=missing,
            invalid=invalid,
            counts_as="not supported",
            positional=positional,
            out_of_range_chunks=out_of_range,
        )
    )
