"""Context recall: the share of ground-truth claims the retrieved context supports.

Rules from ``spec/scorers.md`` (after the reference's ``createContextRecallScorer``):
extract atomic claims from the ground truth, judge each claim ``yes``/``no``
against all chunks, ``score = attributed / total * scale``, rounded half-up.
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

METRIC = "context_recall"


def context_recall_plan(
    *,
    question: str | None,
    ground_truth: str | None,
    contexts: Sequence[str],
    config: ScorerConfig = DEFAULT_CONFIG,
) -> Plan:
    """Plan the context-recall judgement of one row.

    Parameters
    ----------
    question : str or None
        The user question (helps the judge resolve references).
    ground_truth : str or None
        The reference answer whose claims must be found in the context.
    contexts : sequence of str
        Retrieved chunks, in retrieval order.
    config : ScorerConfig
        Scale, rounding and reason options.

    Returns
    -------
    Plan
        A generator: yields task lists, receives answers, returns a
        :class:`~ragnotebook.scorers._common.MetricResult`.

    Notes
    -----
    Statuses: ``no_ground_truth`` (score 0, no judge call), ``no_claims``
    (score 0), ``no_context`` (claims extracted so the missed ones can be shown,
    attribution skipped, every claim ``no``, score 0), else ``ok``.
    """
    zero = round_half_up(0.0 * config.scale, config.decimals)
    if is_blank(ground_truth):
        return MetricResult(
            METRIC,
            zero,
            "no_ground_truth",
            reason="No ground truth was given, so context recall cannot be measured.",
            exact=0.0,
        )
    assert ground_truth is not None
    claims = yield from extract_claims(METRIC, question, ground_truth, "ground_truth")
    if not claims:
        return MetricResult(
            METRIC,
            zero,
            "no_claims",
            reason="No claims could be extracted from the ground truth.",
            claims=[],
            exact=0.0,
        )
    chunks = tuple(contexts)
    if all(is_blank(c) for c in chunks):
        return no_context_result(
            METRIC,
            zero,
            claims,
            "no",
            f"The score is {fmt_score(zero)} because no context was retrieved; "
            f"{how_many(0, len(claims), 'ground-truth claim')} attributable.",
        )

    rows, missing, invalid, positional, out_of_range = yield from judge_claims(
        "attribute_claims", METRIC, question, claims, chunks, ("yes", "no"), "no"
    )
    n_yes = sum(1 for r in rows if r["verdict"] == "yes")
    exact, score = scaled(n_yes / len(claims), config)
    not_found = [r["claim"] for r in rows if r["verdict"] != "yes" and not unjudged(r)]
    subject = how_many(n_yes, len(claims), "ground-truth claim")
    text = f"The score is {fmt_score(score)} because {subject} supported by the retrieved context"
    text = end_sentence(f"{text}; not found: {quote_list(not_found)}" if not_found else text)
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
            counts_as="not found",
            positional=positional,
            out_of_range_chunks=out_of_range,
        )
    )
