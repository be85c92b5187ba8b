"""Scorer objects with the reference framework's shape: ``create_*_scorer(...).run(...)``.

These score one run (input, output, ground truth) at a time, for use in an
application's own loop or in :func:`ragnotebook.run_evals`-style harnesses. The
DataFrame functions are the faster path for many rows.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ragnotebook.engine import Engine, Job, run_sync
from ragnotebook.intake import (
    _text_path,
    argument_text,
    chunk_fix,
    normalize_contexts,
    number_text,
)
from ragnotebook.judges import resolve_judge
from ragnotebook.judges.base import Judge
from ragnotebook.scorers._common import MetricResult, Plan, ScorerConfig
from ragnotebook.scorers.plans import metric_plan

__all__ = [
    "RagScorer",
    "ScorerResult",
    "answer_from_output",
    "answer_problem",
    "contexts_from_output",
    "create_context_precision_scorer",
    "create_context_recall_scorer",
    "create_faithfulness_scorer",
    "question_from_input",
]

ContextExtractor = Callable[[Any, Any], "Sequence[str] | None"]


@dataclass(slots=True)
class ScorerResult:
    """The result of one scorer run.

    Attributes
    ----------
    score : float
        In ``[0, scale]``, rounded half-up; NaN when undefined or on error.
    reason : str or None
        Explanation of the score.
    run_id : str
        The run's id (given, or a new UUID4).
    status : str
        ``ok``, ``no_ground_truth``, ``no_reference``, ``no_claims``,
        ``no_context`` or ``error``.
    preprocess_step_result : dict or None
        ``{"claims": [...]}`` for recall and faithfulness; None for precision
        (it has no preprocess step).
    analyze_step_result : dict
        ``{"verdicts": [...], "missing_verdicts": int, "invalid_verdicts": int,
        "positional_verdicts": int, "out_of_range_chunks": int}``; precision verdicts also
        carry ``precision_at_k``. ``out_of_range_chunks`` counts the supporting-chunk indices
        the judge cited that name no chunk (left out of the verdicts).
    error : str or None
        The error message when ``status == "error"``.
    scorer_id : str
        Id of the scorer that produced it.

    Examples
    --------
    >>> from ragnotebook import create_faithfulness_scorer
    >>> r = create_faithfulness_scorer(model="offline", context=["Paris is in France."]).run(
    ...     input="Where is Paris?", output="Paris is in France.")
    >>> r.score, r.preprocess_step_result["claims"], r.analyze_step_result["verdicts"][0]["verdict"]
    (1.0, ['Paris is in France.'], 'yes')
    """

    score: float
    reason: str | None
    run_id: str
    status: str
    preprocess_step_result: dict[str, Any] | None
    analyze_step_result: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    scorer_id: str = ""

    @classmethod
    def from_metric(cls, res: MetricResult, *, run_id: str, scorer_id: str) -> ScorerResult:
        """The scorer-object view of a plan's :class:`MetricResult`.

        Parameters
        ----------
        res : MetricResult
            One metric's result for one row.
        run_id : str
            The run's id (recorded as given).
        scorer_id : str
            The scorer's id.

        Returns
        -------
        ScorerResult
            Claims in ``preprocess_step_result`` (``None`` for context precision), the
            verdicts and verdict counts in ``analyze_step_result``.

        Examples
        --------
        >>> from ragnotebook import ScorerResult
        >>> from ragnotebook.scorers._common import MetricResult
        >>> res = MetricResult.failed("faithfulness", "timeout: no reply")
        >>> r = ScorerResult.from_metric(res, run_id="r1", scorer_id="s1")
        >>> r.status, r.error, r.preprocess_step_result
        ('error', 'timeout: no reply', {'claims': []})
        """
        pre = None if res.metric == "context_precision" else {"claims": res.claims or []}
        return cls(
            score=res.score,
            reason=res.reason,
            run_id=run_id,
            status=res.status,
            preprocess_step_result=pre,
            analyze_step_result={
                "verdicts": res.verdicts,
                "missing_verdicts": res.missing_verdicts,
                "invalid_verdicts": res.invalid_verdicts,
                "positional_verdicts": res.positional_verdicts,
                "out_of_range_chunks": res.out_of_range_chunks,
            },
            error=res.error,
            scorer_id=scorer_id,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form (JSON-safe when the verdicts are).

        Returns
        -------
        dict
            ``score``, ``reason``, ``run_id``, ``status``, ``preprocess_step_result``,
            ``analyze_step_result``, ``error`` and ``scorer_id``.

        Examples
        --------
        >>> import ragnotebook
        >>> scorer = ragnotebook.create_faithfulness_scorer(
        ...     model="offline", context=["It opened in 1998."])
        >>> out = scorer.run(input="When did it open?", output="It opened in 1998.")
        >>> d = out.to_dict()
        >>> d["score"], d["status"], d["preprocess_step_result"]
        (1.0, 'ok', {'claims': ['It opened in 1998.']})
        """
        return {
            "score": self.score,
            "reason": self.reason,
            "run_id": self.run_id,
            "status": self.status,
            "preprocess_step_result": self.preprocess_step_result,
            "analyze_step_result": self.analyze_step_result,
            "error": self.error,
            "scorer_id": self.scorer_id,
        }


def _is_chat(value: Any) -> bool:
    """Chat messages: dicts with a ``role``, at least one with ``content`` (an OpenAI
    assistant message that only calls a tool may leave ``content`` out)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(m, Mapping) and "role" in m for m in value)
        and any("content" in m for m in value)
    )


def _message_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and part.get("type") == "text":
                parts.append(str(part.get("text", "")))
        return "".join(parts)
    if isinstance(content, Mapping):
        if isinstance(content.get("content"), str):
            return str(content["content"])
        if isinstance(content.get("parts"), Sequence):
            return _message_text(content["parts"])
    return ""


def _text_of(value: Any, keys: Sequence[str], role: str) -> str | None:
    """A string as is; a number as its text; a dict's first string (or number) under
    ``keys``; the last ``role`` message with text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    number = number_text(value)
    if number is not None:  # a numeric answer or ground truth (1879) is its text
        return number
    if isinstance(value, Mapping):
        for key in keys:
            got = value.get(key)
            if isinstance(got, str):
                return str(got)
            number = number_text(got)
            if number is not None:
                return number
        return None
    if _is_chat(value):
        for msg in reversed(value):
            if msg["role"] == role:
                text = _message_text(msg.get("content"))
                if text.strip():
                    return text
    return None


def question_from_input(value: Any) -> str | None:
    """The question text of a run input: a string, a dict or chat messages.

    Examples
    --------
    >>> question_from_input([{"role": "user", "content": "Where is it?"}])
    'Where is it?'
    """
    return _text_of(value, ("question", "input", "query", "user_input"), "user")


#: The keys of a run output dict :func:`answer_from_output` reads the answer under.
ANSWER_KEYS: tuple[str, ...] = ("answer", "output", "text", "response", "content", "actual_output")


def answer_from_output(value: Any) -> str | None:
    """The answer text of a run output: a string, a dict with ``answer``/``output``/``text``/
    ``response``/``content``/``actual_output`` (deepeval's name), or chat messages (the last
    assistant message with text).

    Examples
    --------
    >>> answer_from_output({"answer": "On Pier 4.", "contexts": ["..."]})
    'On Pier 4.'
    """
    return _text_of(value, ANSWER_KEYS, "assistant")


def answer_problem(output: Any) -> str | None:
    """Why ``output`` holds no answer text although it holds an answer, or None.

    Parameters
    ----------
    output : object
        A run output for which :func:`answer_from_output` found no text.

    Returns
    -------
    str or None
        The message for an answer of the wrong type: a dict whose first answer key
        (``answer``, ``output``, ...) holds a list or a dict, or an output that is a list
        of strings, each with the way to make it one text. None when the answer is
        simply missing or blank (no answer key, None, ``""``): that is status
        ``no_claims``, not an error.

    Examples
    --------
    >>> from ragnotebook.scorers.objects import answer_problem
    >>> answer_problem({"answer": ["Pier 4.", "Since 1998."]})
    "output['answer']: expected a string, got list; one text per output['answer']: join the items (' '.join(items)) or keep one"
    >>> answer_problem({"answer": None}) is None
    True
    """
    if isinstance(output, Mapping):
        for key in ANSWER_KEYS:
            if key in output:
                try:
                    argument_text(output[key], f"output[{key!r}]")
                except ValueError as exc:
                    return str(exc)
        return None
    if isinstance(output, str) or output is None or _is_chat(output):
        return None
    try:
        argument_text(output, "output")
    except ValueError as exc:
        return str(exc)
    return None


def _static_context(context: Any) -> list[str]:
    """A scorer's ``context=`` as a list of chunks, by the rules of a frame's contexts
    cell: a string is one chunk (a list written as text is read as one), a tuple or 1-D
    array is a list; every item must be a string."""
    if isinstance(context, str):
        return normalize_contexts(context, row=0, column="context", where="context")
    if isinstance(context, np.ndarray):
        if context.ndim != 1:
            raise ValueError(f"context: expected a 1-D array of strings, got {context.ndim}-D")
        context = context.tolist()
    if isinstance(context, Mapping) or not isinstance(context, Sequence):
        problem = f"context must be a list of strings, got {type(context).__name__}"
        path = _text_path(context)
        if path is not None:
            problem += f" (a document object; pass its text in a list, e.g. context=[{path}])"
        raise TypeError(problem)
    return chunk_texts(context, "context")


def contexts_from_output(input: Any, output: Any) -> list[str] | None:
    """Extract retrieved chunks from common output shapes (usable as a ``context_extractor``).

    Handles a dict with ``contexts`` (or ``retrieved_contexts``), and chat
    messages whose tool results carry the retrieval: OpenAI-style ``role:
    "tool"`` messages, and assistant messages whose content holds
    ``toolInvocations`` in state ``"result"`` (the reference framework's shape).
    Non-string tool results are JSON-encoded.

    Parameters
    ----------
    input : Any
        The run input (unused; part of the extractor signature).
    output : Any
        The run output.

    Returns
    -------
    list of str or None
        None when the shape is not recognised or holds no tool result (so a static
        context applies). A tool result that is a list (or a JSON array in a string)
        gives one chunk per element.

    Examples
    --------
    >>> from ragnotebook import contexts_from_output
    >>> msgs = [{"role": "user", "content": "q"},
    ...         {"role": "tool", "content": "Doc: the museum is on Pier 4."},
    ...         {"role": "assistant", "content": "Pier 4."}]
    >>> contexts_from_output(None, msgs)
    ['Doc: the museum is on Pier 4.']
    """
    if isinstance(output, Mapping):
        for key in ("contexts", "retrieved_contexts", "retrieval_context", "context"):
            value = output.get(key)
            if isinstance(value, str):
                return [value]
            if isinstance(value, Sequence):
                return chunk_texts(value, f"the target's output[{key!r}]")
        return None
    if not _is_chat(output):
        return None
    found: list[str] = []
    for msg in output:
        content = msg.get("content")
        if msg["role"] == "tool":
            found.extend(_tool_chunks(content))
        elif msg["role"] == "assistant":
            # toolInvocations inside the content (the reference's shape) or beside it
            holders = [msg, content] if isinstance(content, Mapping) else [msg]
            for holder in holders:
                for inv in holder.get("toolInvocations", []) or []:
                    if isinstance(inv, Mapping) and inv.get("state") == "result":
                        found.extend(_tool_chunks(inv.get("result")))
    return found or None


def chunk_texts(values: Sequence[Any], where: str) -> list[str]:
    """``values`` as chunk texts: every item must be a string.

    Parameters
    ----------
    values : sequence
        The chunks a target returned (``output["contexts"]``) or a
        ``context_extractor`` gave.
    where : str
        Where they came from, for the error message.

    Returns
    -------
    list of str
        The chunks, in order.

    Raises
    ------
    ValueError
        For an item that is not a string, naming its index and type, with the list
        comprehension that takes the text of document objects (LangChain ``Document``,
        LlamaIndex ``NodeWithScore``, dicts) and ``(text, score)`` pairs. The item's
        row is then an ``error``; nothing is scored on a JSON dump of the object.

    Examples
    --------
    >>> from ragnotebook.scorers.objects import chunk_texts
    >>> chunk_texts(["It is on Pier 4."], "the target's output['contexts']")
    ['It is on Pier 4.']
    >>> chunk_texts([("It is on Pier 4.", 0.9)], "the target's output['contexts']")
    Traceback (most recent call last):
    ...
    ValueError: the target's output['contexts']: chunk 0 is tuple, expected str (a pair of a chunk and its score; return the texts, e.g. [d for d, _ in pairs])
    """
    out: list[str] = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            out.append(str(value))
            continue
        problem = f"{where}: chunk {i} is {type(value).__name__}, expected str"
        found = chunk_fix(value)
        if found is not None:
            problem += f" ({found[0]}; return the texts, e.g. {found[1]})"
        elif value is None:
            problem += " (a missing chunk; leave it out, or return '' to keep the positions)"
        elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
            problem += (
                " (a list of chunk lists, as multi-query retrieval gives; flatten it, e.g. "
                "[c for part in parts for c in part])"
            )
        raise ValueError(problem)
    return out


def _tool_chunks(result: Any) -> list[str]:
    """Chunks from one tool result: a string is one chunk; a JSON array of results (or a
    string holding one) gives one chunk per element; anything else is JSON-encoded."""
    if isinstance(result, str):
        text = result.strip()
        if text.startswith("[") and text.endswith("]"):
            try:
                parsed = json.loads(text)
            except ValueError:
                return [result]
            if isinstance(parsed, list) and parsed:
                return _tool_chunks(parsed)
        return [result]
    if isinstance(result, list):
        return [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in result]
    return [json.dumps(result, ensure_ascii=False)]


_TITLES = {
    "context_recall": "Context Recall",
    "context_precision": "Context Precision",
    "faithfulness": "Faithfulness",
}
_IDS = {
    "context_recall": "context-recall-scorer",
    "context_precision": "context-precision-scorer",
    "faithfulness": "faithfulness-scorer",
}


class RagScorer:
    """A scorer bound to a judge, a context source and options.

    Build one with :func:`create_context_recall_scorer`,
    :func:`create_context_precision_scorer` or :func:`create_faithfulness_scorer`.

    Attributes
    ----------
    id : str
        ``"context-recall-scorer"``, ``"context-precision-scorer"`` or ``"faithfulness-scorer"``.
    metric : str
        The metric name used in DataFrame columns.
    judge : Judge
        The judge answering tasks.
    """

    def __init__(
        self,
        metric: str,
        *,
        model: Any,
        context: Sequence[str] | None,
        context_extractor: ContextExtractor | None,
        scale: float,
        decimals: int | None,
        reason: Any,
        reference: str,
        max_chunks_per_call: int,
        judge_options: Mapping[str, Any],
    ) -> None:
        title = _TITLES[metric]
        # the options first: a bad option is named whatever else is missing
        self.config = ScorerConfig(
            scale=scale,
            decimals=decimals,
            reason=reason,
            reference=reference,
            max_chunks_per_call=max_chunks_per_call,
        )
        if context is not None:
            context = _static_context(context)
            if len(context) == 0:
                raise ValueError("Context array cannot be empty if provided")
        if context_extractor is not None and not callable(context_extractor):
            raise TypeError("context_extractor must be callable: fn(input, output) -> list[str]")
        if metric != "faithfulness" and context is None and context_extractor is None:
            raise ValueError(f"Either context or context_extractor is required for {title} scoring")
        self.metric = metric
        self.id = _IDS[metric]
        self.context = context
        self.context_extractor = context_extractor
        if model is None:
            from ragnotebook.api import model_or_default

            model = model_or_default(None)
        self.judge: Judge = resolve_judge(model, **dict(judge_options))
        if reason == "llm":
            from ragnotebook.api import warn_if_offline_llm_reason

            warn_if_offline_llm_reason(self.judge)

    def __repr__(self) -> str:
        return f"<RagScorer {self.id} judge={self.judge.judge_id}>"

    def resolve_context(self, input: Any, output: Any) -> list[str] | None:
        """The chunks for one run, by the precedence rules of ``spec/scorers.md``.

        A given ``context_extractor`` is called with ``(input, output)``; a list it
        returns is the context, None falls back to the static ``context``. For
        faithfulness with neither, :func:`contexts_from_output` reads the output.
        """
        if self.context_extractor is not None:
            got = self.context_extractor(input, output)
            if got is not None:
                if isinstance(got, str) or not isinstance(got, Sequence):
                    raise TypeError("context_extractor must return a list of strings or None")
                return chunk_texts(got, "context_extractor's list")
        if self.context is not None:
            return list(self.context)
        if self.metric == "faithfulness":
            return contexts_from_output(input, output)
        return None

    def plan(self, input: Any, output: Any, ground_truth: Any) -> Plan:
        """The scorer plan for one run (see :mod:`ragnotebook.scorers._common`)."""
        question = question_from_input(input)
        truth = argument_text(ground_truth, "ground_truth")
        answer = answer_from_output(output)
        if answer is None and self._reads_answer(truth):
            problem = answer_problem(output)
            if problem is not None:  # an answer of the wrong type is no missing answer
                raise ValueError(problem)
        chunks = self.resolve_context(input, output)
        if chunks is None:
            if self.metric != "faithfulness":
                raise ValueError(
                    "context_extractor returned None and no static context was given: the "
                    f"target's output (a {type(output).__name__}) holds no retrieved chunks "
                    "that it recognises; return a dict with 'contexts' (or chat messages "
                    "with tool results) from the target, or pass context=[...]"
                )
            chunks = []
        return metric_plan(
            self.metric,
            question=question,
            answer=answer,
            ground_truth=truth,
            contexts=chunks,
            config=self.config,
        )

    def _reads_answer(self, truth: str | None) -> bool:
        """Whether this scorer judges the answer of a run whose ground truth is ``truth``."""
        if self.metric == "faithfulness":
            return True
        reference = self.config.reference
        return self.metric == "context_precision" and (
            reference == "answer" or (reference == "auto" and truth is None)
        )

    def _result(self, res: MetricResult, run_id: str) -> ScorerResult:
        return ScorerResult.from_metric(res, run_id=run_id, scorer_id=self.id)

    async def arun(
        self,
        input: Any = None,
        output: Any = None,
        ground_truth: Any = None,
        *,
        run_id: str | None = None,
    ) -> ScorerResult:
        """Score one run on the caller's event loop.

        Parameters
        ----------
        input : str, dict or list of chat messages, optional
            The user input (the question).
        output : str, dict or list of chat messages, optional
            The system's output (the answer; a dict may carry ``contexts``).
        ground_truth : str, optional
            The reference answer: one text (a number is read as its text; None or NaN
            is no ground truth).
        run_id : str, optional
            Recorded in the result; a UUID4 by default.

        Returns
        -------
        ScorerResult
            A judge failure gives status ``error`` rather than raising, and so does
            input of the wrong type: a ``ground_truth`` that is a list or a dict, or an
            answer that is one (``output={"answer": [...]}``), is status ``error`` with
            the way to make it one text, never scored as missing.

        Examples
        --------
        >>> import asyncio
        >>> from ragnotebook import create_context_recall_scorer
        >>> scorer = create_context_recall_scorer(model="offline", context=["It is on Pier 4."])
        >>> asyncio.run(scorer.arun(input="Where?", ground_truth="It is on Pier 4.")).score
        1.0
        >>> r = asyncio.run(scorer.arun(input="Where?", ground_truth=["It is on Pier 4."]))
        >>> r.status, r.error
        ('error', "ground_truth: expected a string, got list; one text per ground_truth: join the items (' '.join(items)) or keep one")
        """
        rid = run_id or str(uuid.uuid4())
        engine = Engine(self.judge, concurrency=16)
        try:
            plan = self.plan(input, output, ground_truth)
        except (TypeError, ValueError) as exc:
            return self._result(MetricResult.failed(self.metric, str(exc)), rid)
        results = await engine.arun([Job(0, self.metric, lambda: plan)])
        return self._result(results[(0, self.metric)], rid)

    def run(
        self,
        input: Any = None,
        output: Any = None,
        ground_truth: Any = None,
        *,
        run_id: str | None = None,
    ) -> ScorerResult:
        """Score one run (sync; works inside Jupyter and running event loops).

        See :meth:`arun` for parameters and the result.

        Examples
        --------
        >>> from ragnotebook import create_faithfulness_scorer
        >>> scorer = create_faithfulness_scorer(model="offline")
        >>> r = scorer.run(input="Where?", output={"answer": ["It is on Pier 4."],
        ...                                       "contexts": ["It is on Pier 4."]})
        >>> r.status, r.error
        ('error', "output['answer']: expected a string, got list; one text per output['answer']: join the items (' '.join(items)) or keep one")
        """
        return run_sync(lambda: self.arun(input, output, ground_truth, run_id=run_id))


def _create(metric: str, doc_example: str) -> Callable[..., RagScorer]:
    def create(
        *,
        model: Any = None,
        context: Sequence[str] | None = None,
        context_extractor: ContextExtractor | None = None,
        scale: float = 1.0,
        decimals: int | None = 2,
        reason: Any = "template",
        reference: str = "auto",
        max_chunks_per_call: int = 20,
        **judge_options: Any,
    ) -> RagScorer:
        return RagScorer(
            metric,
            model=model,
            context=context,
            context_extractor=context_extractor,
            scale=scale,
            decimals=decimals,
            reason=reason,
            reference=reference,
            max_chunks_per_call=max_chunks_per_call,
            judge_options=judge_options,
        )

    create.__name__ = f"create_{metric}_scorer"
    create.__qualname__ = create.__name__
    title = _TITLES[metric]
    faith = metric == "faithfulness"
    create.__doc__ = (
        _CREATE_DOC.format(
            title=title,
            raises="" if faith else _NEEDS_CONTEXT.format(title=title),
            context_note=_NO_CONTEXT_NEEDED if faith else "",
        )
        + doc_example
    )
    return create


_CREATE_DOC = """Create a {title} scorer (the reference's ``create*Scorer``, in Python).

    Parameters
    ----------
    model : str or Judge, optional
        litellm model string, ``"offline"`` or a judge object (default: see
        :func:`ragnotebook.get_default_model`).
    context : list of str, str, tuple or 1-D array, optional
        Static chunks used for every run, read as a frame's contexts cell: one string
        is one chunk (a list written as text, ``'["a", "b"]'``, is read as one), a
        tuple or 1-D NumPy array a list.{context_note}
    context_extractor : callable, optional
        ``fn(input, output) -> list[str] | None``; a returned list is the
        context, None falls back to ``context``.
    scale : float, default 1
        Scores lie in ``[0, scale]``; must be > 0.
    decimals : int or None, default 2
        Half-up rounding; None keeps the exact ratio.
    reason : {{"template", "llm", None}}, default "template"
        How the explanation is produced.
    reference : {{"auto", "ground_truth", "answer"}}, default "auto"
        Context precision only: what chunks are judged against.
    max_chunks_per_call : int, default 20
        Context precision only: chunks per judge call.
    **judge_options
        Options for a judge built from a model string (``api_base``, ``api_key``, ...).

    Returns
    -------
    RagScorer
        With ``.run(input, output, ground_truth)`` and ``.arun(...)`` returning a
        :class:`ScorerResult`.

    Raises
    ------
    ValueError
        {raises}``"Context array cannot be empty if provided"`` for ``context=[]``,
        a non-string chunk, ``scale <= 0``, or an unknown option value. Options are
        checked first: ``reference="gt"`` is named even when the context is missing.
    TypeError
        For a ``context`` that is no list, string, tuple or array (a dict: with the way to
        take its text), or an option of the wrong type (``decimals=1.5``).
"""

_NEEDS_CONTEXT = """``"Either context or context_extractor is required for {title} scoring"``
        when neither is given, """
#: Faithfulness needs neither: without them it reads the context from the output.
_NO_CONTEXT_NEEDED = """
        Faithfulness needs neither this nor ``context_extractor``: without them the
        context is read from the output (:func:`contexts_from_output`)."""

create_context_recall_scorer = _create(
    "context_recall",
    """
    Examples
    --------
    >>> from ragnotebook import create_context_recall_scorer
    >>> scorer = create_context_recall_scorer(model="offline", context=[
    ...     "Einstein was born on 14 March 1879 in Ulm, Germany.",
    ...     "Einstein published the theory of special relativity in 1905."])
    >>> r = scorer.run(input="Who was Einstein?",
    ...                ground_truth="Einstein was born in 1879. He won the Nobel Prize.")
    >>> r.score, len(r.preprocess_step_result["claims"])
    (0.5, 2)
""",
)
create_context_precision_scorer = _create(
    "context_precision",
    """
    Examples
    --------
    >>> from ragnotebook import MockJudge, create_context_precision_scorer
    >>> judge = MockJudge(judge_chunks=[["yes", "no", "yes", "no"]])
    >>> scorer = create_context_precision_scorer(model=judge, context=["a", "b", "c", "d"])
    >>> scorer.run(input="q", output="answer", ground_truth="truth").score
    0.83
""",
)
create_faithfulness_scorer = _create(
    "faithfulness",
    """
    Examples
    --------
    >>> from ragnotebook import create_faithfulness_scorer
    >>> scorer = create_faithfulness_scorer(model="offline")
    >>> r = scorer.run(input="Where is the museum?",
    ...                output={"answer": "The museum is on Pier 4.",
    ...                        "contexts": ["The Harbor Museum is on Pier 4."]})
    >>> r.score, r.status
    (1.0, 'ok')
""",
)
