"""Predict judge calls, tokens and cost of an evaluation before paying for it.

:func:`estimate` reads the frame exactly like the scoring functions do and
walks the real scorer plans of every row and metric, answering each task with
a stand-in instead of a judge:

* ``extract_claims`` gets one claim per sentence of the text (``sentencex``
  segmentation, as a proxy for the judge's claims);
* verdict tasks get a valid ``yes`` for every item (so no re-asks are
  predicted);
* ``explain`` gets a short reason.

Calls, statuses and batching therefore follow the scorers' own rules (a row
with a blank ground truth makes no recall call, a row without chunks makes no
precision call and stops recall and faithfulness after extraction, and so on).
Each task's prompt is rendered with :func:`ragnotebook.prompts.render` from the
row's real texts and counted with ``litellm.token_counter`` when litellm knows
the model, else as characters / 4. Completion tokens are
``completion_tokens_per_item`` per claim or verdict asked for (two items for an
explanation). Prices come from litellm's local price map; an unknown price
gives ``NaN``, never an error.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook import prompts
from ragnotebook.intake import not_a_frame, read_rows
from ragnotebook.scorers._common import ScorerConfig
from ragnotebook.tasks import Claims, Explanation, Task, Verdict, Verdicts

__all__ = ["estimate"]

_METRICS: tuple[str, ...] = ("context_recall", "context_precision", "faithfulness")
_ALIASES = {
    "recall": "context_recall",
    "precision": "context_precision",
    "faithful": "faithfulness",
}
_NEEDS: dict[str, tuple[str, ...]] = {
    "context_recall": ("ground_truth",),
    "context_precision": ("contexts",),
    "faithfulness": ("answer",),
}
_COLUMNS = [
    "metric",
    "rows",
    "calls",
    "shared",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "price_known",
    "note",
]
_EXPLAIN_ITEMS = 2  # an explanation is billed like two items' worth of completion
_EXACT_PER_KIND = 200  # prompts per task kind counted exactly with litellm's tokenizer


@dataclass(slots=True)
class _Tally:
    rows: int = 0
    calls: int = 0
    shared: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    row_positions: set[int] = field(default_factory=set)


class _Counter:
    """Counts the prompt tokens of rendered messages for one model.

    With litellm's tokenizer, up to ``sample`` prompts per task kind (spread
    evenly over the run) are counted exactly and the rest through the
    tokens-per-character ratio of that kind's sample: tokenizing every prompt
    of a 1,000-row run takes several seconds, the sample a fraction of one,
    and sample ratios are within a few percent.
    """

    def __init__(self, model: str | None, sample: int = _EXACT_PER_KIND) -> None:
        self.model = model
        self.sample = sample
        self.litellm: Any = None
        self.method = "none" if model is None else "chars/4"
        if model is not None:
            litellm = _litellm()
            if _model_known(litellm, model):
                self.litellm = litellm
                self.method = "litellm.token_counter"
        self.exact = 0
        self.total = 0

    def _exact(self, messages: list[dict[str, str]]) -> int | None:
        try:
            return int(self.litellm.token_counter(model=self.model, messages=messages))
        except Exception:
            return None

    def count_all(self, tasks: list[Task]) -> list[int]:
        """Prompt tokens of each task, in order."""
        if self.model is None:
            return [0] * len(tasks)
        rendered = [prompts.render(t) for t in tasks]
        chars = [sum(len(m["content"]) for m in msgs) for msgs in rendered]
        self.total += len(tasks)
        if self.litellm is None:
            return [math.ceil(c / 4) for c in chars]
        out: list[int | None] = [None] * len(tasks)
        by_kind: dict[str, list[int]] = {}
        for i, t in enumerate(tasks):
            by_kind.setdefault(t.kind, []).append(i)
        for positions in by_kind.values():
            # a fixed pseudo-random sample: regular data cannot alias with a stride
            chosen = (
                positions
                if len(positions) <= self.sample
                else random.Random(len(positions)).sample(positions, self.sample)
            )
            tok_sum = 0
            char_sum = 0
            for i in chosen:
                n = self._exact(rendered[i])
                if n is not None:
                    out[i] = n
                    tok_sum += n
                    char_sum += chars[i]
                    self.exact += 1
            ratio = tok_sum / char_sum if char_sum else 0.25
            for i in positions:
                if out[i] is None:
                    out[i] = math.ceil(chars[i] * ratio)
        return [int(n or 0) for n in out]

    def describe(self) -> str:
        if self.method != "litellm.token_counter" or self.exact == self.total:
            return self.method
        return (
            f"litellm.token_counter on {self.exact} of {self.total} prompts, the rest from "
            "each task kind's tokens per character"
        )


def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    return litellm


def _model_known(litellm: Any, model: str) -> bool:
    quiet = getattr(litellm, "suppress_debug_info", False)
    litellm.suppress_debug_info = True  # litellm prints a provider list on unknown models
    try:
        litellm.get_model_info(model)
        return True
    except Exception:
        return False
    finally:
        litellm.suppress_debug_info = quiet


def _price(model: str, prompt_tokens: float, completion_tokens: float) -> float | None:
    """USD for one call of the given size, or None when litellm has no price."""
    litellm = _litellm()
    quiet = getattr(litellm, "suppress_debug_info", False)
    litellm.suppress_debug_info = True
    try:
        p, c = litellm.cost_per_token(
            model=model,
            prompt_tokens=max(0, round(prompt_tokens)),
            completion_tokens=max(0, round(completion_tokens)),
        )
        total = float(p) + float(c)
    except Exception:
        return None
    finally:
        litellm.suppress_debug_info = quiet
    return total if math.isfinite(total) else None


def _resolve_model(model: Any) -> tuple[str | None, str]:
    """``(litellm model string or None, label)``; None means a judge that is not an LLM."""
    if model is None:
        from ragnotebook.api import get_default_model

        model = get_default_model()
    if isinstance(model, str):
        name = model.strip()
        if not name:
            raise ValueError("model is an empty string")
        if name.lower() == "offline":
            return None, "offline"
        return name, name
    if hasattr(model, "acomplete") and hasattr(model, "judge_id"):
        llm_model = getattr(model, "model", None)
        from ragnotebook.judges.llm import LiteLLMJudge

        if isinstance(model, LiteLLMJudge) and isinstance(llm_model, str):
            return llm_model, llm_model
        return None, str(model.judge_id)
    raise TypeError(
        "model must be a litellm model string, 'offline' or a judge object, "
        f"got {type(model).__name__}"
    )


def _stand_in(task: Task) -> Any:
    """A plausible, valid answer that keeps the plan going without a judge."""
    if task.kind == "extract_claims":
        from ragnotebook.text import split_sentences

        text = (task.text or "").strip()
        return Claims(claims=list(split_sentences(text)) if text else [])
    if task.kind == "explain":
        return Explanation(reason="Estimated.")
    return Verdicts(
        verdicts=[
            Verdict(index=it.index, verdict="yes", supporting_chunks=[0] if task.chunks else [])
            for it in task.items
        ]
    )


def _completion_items(task: Task, answer: Any) -> int:
    if task.kind == "extract_claims":
        return max(1, len(answer.claims))
    if task.kind == "explain":
        return _EXPLAIN_ITEMS
    return max(1, len(task.items))


def _walk(plan: Any) -> list[tuple[Task, Any]]:
    """Drive a plan with stand-in answers; every task it sends, with its stand-in."""
    sent: list[tuple[Task, Any]] = []
    if not hasattr(plan, "send"):  # a plan that finished without any task
        return sent
    try:
        tasks = next(plan)
        while True:
            answers = [_stand_in(t) for t in tasks]
            sent.extend(zip(tasks, answers, strict=True))
            tasks = plan.send(answers)
    except StopIteration:
        pass
    return sent


def _metric_names(metrics: Iterable[str] | str) -> list[str]:
    if isinstance(metrics, str):
        metrics = (metrics,)
    names: list[str] = []
    for m in metrics:
        name = _ALIASES.get(m, m)
        if name not in _METRICS:
            raise ValueError(f"unknown metric {m!r}; expected one of {_METRICS}")
        if name not in names:
            names.append(name)
    if not names:
        raise ValueError("metrics is empty; pass at least one of " + ", ".join(_METRICS))
    return names


def _estimate_note(note: str) -> str:
    """evaluate()'s note on the metrics it leaves out, said of the estimate."""
    return note.replace("evaluate() left out", "estimate(), as evaluate(), leaves out").replace(
        ". It scored ", ". It estimates "
    )


def estimate(
    df: pd.DataFrame,
    *,
    model: Any = None,
    metrics: Iterable[str] | str = _METRICS,
    columns: Mapping[str, str] | None = None,
    reason: Any = "template",
    reference: str = "auto",
    max_chunks_per_call: int = 20,
    completion_tokens_per_item: int = 40,
    **options: Any,
) -> pd.DataFrame:
    """Predict judge calls, tokens and USD cost per metric, without calling any judge.

    Parameters
    ----------
    df : pandas.DataFrame
        The frame you mean to evaluate (columns found as in
        :func:`ragnotebook.evaluate`).
    model : str or Judge, optional
        A litellm model string, ``"offline"`` or a judge object; default: see
        :func:`ragnotebook.get_default_model`. Judges that are not LLMs report
        calls only (0 tokens, cost 0).
    metrics : iterable of str, default all three
        ``"context_recall"``, ``"context_precision"``, ``"faithfulness"``. Without
        it, the metrics :func:`ragnotebook.evaluate` would run: a frame without
        ground truths (or answers) leaves out the metrics that need them, with the
        same warning.
    columns : mapping, optional
        ``{role: column}``, as in :func:`ragnotebook.evaluate`.
    reason : {"template", "llm", None}, default "template"
        ``"llm"`` adds one ``explain`` call per scored row and metric.
    reference : {"auto", "ground_truth", "answer"}, default "auto"
        The text context precision judges chunks against.
    max_chunks_per_call : int, default 20
        Chunks per context-precision call.
    completion_tokens_per_item : int, default 40
        Expected reply tokens per claim or verdict (an explanation counts two).
    **options
        Accepted so that the keyword arguments of an :func:`ragnotebook.evaluate`
        call (``api_base``, ``api_key``, ``cache``, ``concurrency``, ...) can be
        passed unchanged; they do not change the estimate, and nothing is sent.

    Returns
    -------
    pandas.DataFrame
        One row per metric plus ``"total"`` (the index), with columns
        ``metric``, ``rows`` (int: rows that make at least one call), ``calls``
        (int: the calls to be sent), ``shared`` (int: an LLM judge's tasks that
        repeat an earlier row's, such as one question's chunks under two systems,
        which a run asks once; not in ``calls``),
        ``prompt_tokens``, ``completion_tokens`` (int), ``cost_usd`` (float, NaN
        when litellm has no price for the model), ``price_known`` (bool) and
        ``note`` (str: ``"unknown price"``, ``"judge calls"`` for judges that are
        not LLMs, else empty). ``attrs["ragnotebook_estimate"]`` records the
        model, how tokens were counted and the assumptions.

    Raises
    ------
    TypeError, ValueError
        For the frame, columns, metrics or options, as the scoring functions do.

    Notes
    -----
    Claims are not known before extraction: each sentence of the ground truth
    or answer stands for one claim. Re-asks (for missing verdicts) and retries
    are not predicted, so real runs may spend a little more; answers already in
    the cache make them spend less.

    Examples
    --------
    >>> import pandas as pd
    >>> from ragnotebook.costs import estimate
    >>> df = pd.DataFrame({
    ...     "question": ["Where is the Eiffel Tower?", "Who wrote Hamlet?"],
    ...     "answer": ["It is in Paris. It opened in 1889.", "Shakespeare."],
    ...     "contexts": [["The Eiffel Tower is in Paris.", "It opened in 1889."], []],
    ...     "ground_truth": ["The Eiffel Tower is in Paris.", None]})
    >>> est = estimate(df, model="openai/gpt-4o-mini")
    >>> est["calls"].to_dict()
    {'context_recall': 2, 'context_precision': 1, 'faithfulness': 3, 'total': 6}
    >>> bool(est.loc["total", "cost_usd"] > 0), bool(est.loc["total", "price_known"])
    (True, True)
    >>> estimate(df, model="offline")[["calls", "prompt_tokens", "cost_usd"]]
                       calls  prompt_tokens  cost_usd
    context_recall         2              0       0.0
    context_precision      1              0       0.0
    faithfulness           3              0       0.0
    total                  6              0       0.0
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(not_a_frame(df))
    if completion_tokens_per_item < 0:
        raise ValueError("completion_tokens_per_item must be >= 0")
    left_note = None
    if metrics is _METRICS:  # no metrics=: what evaluate() without metrics= would run
        from ragnotebook.api import _default_metrics

        kept, left_note = _default_metrics(df, columns)
        metrics = kept if left_note is not None else metrics
    names = _metric_names(metrics)
    config = ScorerConfig(
        reason=reason, reference=reference, max_chunks_per_call=max_chunks_per_call
    )
    required = sorted({role for m in names for role in _NEEDS[m]} - {"contexts"})
    if "context_precision" in names or "context_recall" in names:
        required = sorted({*required, "contexts"})
    rows, _mapping = read_rows(df, columns, required=required)
    if left_note is not None:
        from ragnotebook._warn import warn_user

        warn_user(
            _estimate_note(left_note),
            UserWarning,
        )
    llm_model, label = _resolve_model(model)
    counter = _Counter(llm_model)

    from ragnotebook.api import make_plan

    tallies: dict[str, _Tally] = {m: _Tally() for m in names}
    all_tasks: list[Task] = []
    owners: list[str] = []
    seen: set[str] = set()  # an LLM judge's identical tasks are asked once per run
    for m in names:
        tally = tallies[m]
        for row in rows:
            sent = _walk(make_plan(m, row, config))
            if not sent:
                continue
            if llm_model is None:
                tally.row_positions.add(row.position)
                tally.calls += len(sent)
                continue
            for task, answer in sent:
                blob = json.dumps(task.to_dict(), sort_keys=True, default=str)
                if blob in seen:
                    tally.shared += 1
                    continue
                seen.add(blob)
                tally.row_positions.add(row.position)  # a row that sends a call of its own
                tally.calls += 1
                all_tasks.append(task)
                owners.append(m)
                tally.completion_tokens += completion_tokens_per_item * _completion_items(
                    task, answer
                )
        tally.rows = len(tally.row_positions)
    for m, n in zip(owners, counter.count_all(all_tasks), strict=True):
        tallies[m].prompt_tokens += n

    records: list[dict[str, Any]] = []
    for m in names:
        t = tallies[m]
        if llm_model is None:
            cost: float = 0.0
            known = True
            note = "judge calls"
        elif t.calls == 0:
            cost, known, note = 0.0, True, ""
        else:
            per_call = _price(llm_model, t.prompt_tokens / t.calls, t.completion_tokens / t.calls)
            known = per_call is not None
            cost = per_call * t.calls if per_call is not None else math.nan
            note = "" if known else "unknown price"
        records.append(
            {
                "metric": m,
                "rows": t.rows,
                "calls": t.calls,
                "shared": t.shared,
                "prompt_tokens": t.prompt_tokens,
                "completion_tokens": t.completion_tokens,
                "cost_usd": cost,
                "price_known": known,
                "note": note,
            }
        )
    any_row: set[int] = set().union(*(t.row_positions for t in tallies.values()))
    all_known = all(r["price_known"] for r in records)
    records.append(
        {
            "metric": "total",
            "rows": len(any_row),
            "calls": sum(r["calls"] for r in records),
            "shared": sum(r["shared"] for r in records),
            "prompt_tokens": sum(r["prompt_tokens"] for r in records),
            "completion_tokens": sum(r["completion_tokens"] for r in records),
            "cost_usd": float(sum(r["cost_usd"] for r in records)) if all_known else math.nan,
            "price_known": all_known,
            "note": records[0]["note"] if llm_model is None or not all_known else "",
        }
    )
    out = pd.DataFrame.from_records(records, columns=_COLUMNS)
    out.index = pd.Index(out["metric"].tolist())
    out = out.astype(
        {
            "rows": np.int64,
            "calls": np.int64,
            "shared": np.int64,
            "prompt_tokens": np.int64,
            "completion_tokens": np.int64,
            "cost_usd": np.float64,
            "price_known": bool,
        }
    )
    out.attrs["ragnotebook_estimate"] = {
        "model": label,
        "llm": llm_model is not None,
        "token_counting": counter.describe(),
        "rows_in_frame": len(rows),
        "reason": reason,
        "max_chunks_per_call": max_chunks_per_call,
        "completion_tokens_per_item": completion_tokens_per_item,
        "assumptions": (
            "one claim per sentence of the ground truth / answer; every verdict valid on the "
            "first ask (no re-asks or retries); no cache hits"
        ),
    }
    return out
