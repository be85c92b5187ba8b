"""One entry point to the three metric plans, so callers need not branch on the metric."""

from __future__ import annotations

from collections.abc import Sequence

from ragnotebook.scorers._common import DEFAULT_CONFIG, Plan, ScorerConfig
from ragnotebook.scorers.context_precision import context_precision_plan
from ragnotebook.scorers.context_recall import context_recall_plan
from ragnotebook.scorers.faithfulness import faithfulness_plan

__all__ = ["metric_plan"]


def metric_plan(
    metric: str,
    *,
    question: str | None,
    answer: str | None,
    ground_truth: str | None,
    contexts: Sequence[str],
    config: ScorerConfig = DEFAULT_CONFIG,
) -> Plan:
    """The plan of ``metric`` for one row; each plan reads only the texts it needs.

    Parameters
    ----------
    metric : {"context_recall", "context_precision", "faithfulness"}
        Any other value gives the faithfulness plan.
    question, answer, ground_truth : str or None
        The row's texts.
    contexts : sequence of str
        Retrieved chunks, in retrieval order.
    config : ScorerConfig
        Scale, rounding, reason and precision options.

    Returns
    -------
    Plan

    Examples
    --------
    >>> plan = metric_plan("context_recall", question="q", answer=None, ground_truth=None,
    ...                    contexts=[])
    >>> try:
    ...     next(plan)
    ... except StopIteration as stop:
    ...     print(stop.value.status)
    no_ground_truth
    """
    plan: Plan
    if metric == "context_recall":
        plan = context_recall_plan(
            question=question, ground_truth=ground_truth, contexts=contexts, config=config
        )
    elif metric == "context_precision":
        plan = context_precision_plan(
            question=question,
            ground_truth=ground_truth,
            answer=answer,
            contexts=contexts,
            config=config,
        )
    else:
        plan = faithfulness_plan(question=question, answer=answer, contexts=contexts, config=config)
    return _without_reason(plan) if config.reason is None else plan


def _without_reason(plan: Plan) -> Plan:
    """``reason=None``: the result of every status has no reason (the status says why)."""
    result = yield from plan
    result.reason = None
    return result
