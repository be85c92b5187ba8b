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
    (answer,) = yield [
        Task("extract_claims", METRIC, question=question, text=ground_truth, source="ground_truth")
    ]
    if not isinstance(answer, Claims):
        raise TypeError(f"extract_claims needs Claims, got {type(answer).__name__}")
    claims = clean_claims(answer.claims)
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
        verdicts = [
            {
                "index": i,
                "claim": c,
                "verdict": "no",
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
                f"The score is {fmt_score(zero)} because no context was retrieved; "
                f"none of the {len(claims)} ground-truth claims can be attributed."
            ),
            verdicts=verdicts,
            claims=claims,
            exact=0.0,
        )

    items = [Item(i, c) for i, c in enumerate(claims)]

    def make_task(subset: tuple[Item, ...]) -> Task:
        return Task("attribute_claims", METRIC, question=question, items=subset, chunks=chunks)

    good, missing, invalid = yield from ask_verdicts(make_task, items, ("yes", "no"))
    rows = []
    for it in items:
        v = good.get(it.index)
        row = verdict_row(it.index, "claim", it.text, v, "no", missing, invalid)
        row["supporting_chunks"] = [i for i in row["supporting_chunks"] if 0 <= i < len(chunks)]
        rows.append(row)
    n_yes = sum(1 for r in rows if r["verdict"] == "yes")
    exact = n_yes / len(claims) * config.scale
    score = round_half_up(exact, config.decimals)
    not_found = [r["claim"] for r in rows if r["verdict"] != "yes"]
    if n_yes == len(claims):
        text = (
            f"The score is {fmt_score(score)} because all {len(claims)} ground-truth claims "
            "are supported by the retrieved context."
        )
    else:
        text = (
            f"The score is {fmt_score(score)} because {n_yes} of {len(claims)} ground-truth "
            f"claims are supported by the retrieved context; not found: {quote_list(not_found)}."
        )
    n_unjudged = len(missing) + len(invalid)
    if n_unjudged:
        text += (
            f" {n_unjudged} claim(s) got no valid verdict from the judge and count as not found."
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
