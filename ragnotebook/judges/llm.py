"""LiteLLMJudge: answers tasks with any litellm model (first version).

litellm is imported on first use, with ``LITELLM_LOCAL_MODEL_COST_MAP=True`` so
that the import does not fetch a price list from the network.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from ragnotebook import prompts
from ragnotebook.judges.base import JudgeError
from ragnotebook.tasks import ANSWER_MODELS, Answer, Task

__all__ = ["LiteLLMJudge", "parse_reply"]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    return litellm


def _json_candidates(text: str) -> list[str]:
    """Candidate JSON texts in a reply, last first: fenced blocks, then balanced objects."""
    found: list[str] = []
    found.extend(m.group(1) for m in _FENCE.finditer(text))
    depth = 0
    start = -1
    in_str = False
    escape = False
    for i, ch in enumerate(text):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and start >= 0:
                found.append(text[start : i + 1])
    # later blocks are final answers more often than drafts: try them first
    ordered = sorted(set(found), key=lambda s: text.rfind(s), reverse=True)
    return ordered


def parse_reply(text: str | None, model: type[BaseModel]) -> BaseModel:
    """Parse a judge's reply leniently and validate it.

    Accepts a bare JSON object, JSON in a code fence, JSON inside prose, trailing
    commas and other small defects (repaired by ``json_repair``), and several
    JSON blocks (the last complete block that validates wins). ``<think>``
    blocks of reasoning models are removed first.

    Parameters
    ----------
    text : str or None
        The reply content.
    model : type of pydantic.BaseModel
        The answer model to validate against.

    Returns
    -------
    pydantic.BaseModel
        An instance of ``model``.

    Raises
    ------
    JudgeError
        ``empty_content`` for a null/blank reply, ``truncated`` for JSON that is
        cut off, ``parse_error`` when no block validates; ``raw`` keeps the text.

    Examples
    --------
    >>> from ragnotebook.tasks import Verdicts
    >>> reply = 'Here you go:\\n```json\\n{"verdicts": [{"index": 0, "verdict": "yes"},]}\\n```'
    >>> parse_reply(reply, Verdicts).verdicts[0].verdict
    'yes'
    """
    if text is None or not text.strip():
        raise JudgeError("the judge returned empty content", code="empty_content", raw=text)
    cleaned = _THINK.sub("", text).strip()
    if "<think>" in cleaned.lower():
        raise JudgeError("the reply ends inside a <think> block", code="truncated", raw=text)
    candidates = _json_candidates(cleaned)
    for cand in candidates:
        try:
            return model.model_validate_json(cand)
        except ValidationError:
            pass
        try:
            from json_repair import repair_json

            data = repair_json(cand, return_objects=True)
            if isinstance(data, dict):
                return model.model_validate(data)
        except (ValidationError, ValueError):
            continue
    if cleaned.count("{") > cleaned.count("}") and "{" in cleaned:
        raise JudgeError("the reply's JSON is cut off", code="truncated", raw=text)
    raise JudgeError(
        f"no JSON object in the reply matches {model.__name__}", code="parse_error", raw=text
    )


class LiteLLMJudge:
    """A judge backed by any litellm model.

    Parameters
    ----------
    model : str
        A litellm model string: ``"openai/gpt-4o-mini"``, ``"anthropic/claude-..."``,
        ``"ollama_chat/llama3"``, or ``"openai/<name>"`` with ``api_base`` for a
        local OpenAI-compatible server.
    api_base : str, optional
        Base URL of the provider (e.g. ``"http://127.0.0.1:8000/v1"``).
    api_key : str, optional
        API key; passed to litellm only, never logged, cached or recorded.
    temperature : float, default 0.0
        Sampling temperature.
    max_tokens : int, default 2048
        Completion budget per call, in tokens.
    timeout : float, default 60
        Seconds per LLM call.
    num_retries : int, default 0
        Retries inside litellm (the engine does its own).
    **litellm_kwargs
        Other options passed to ``litellm.acompletion`` (e.g. ``top_p``, ``seed``).

    Examples
    --------
    >>> judge = LiteLLMJudge("openai/gpt-4o-mini", api_key="sk-...")
    >>> judge.judge_id
    'litellm:openai/gpt-4o-mini'
    >>> "api_key" in judge.identity()
    False
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        temperature: float | None = 0.0,
        max_tokens: int = 2048,
        timeout: float = 60.0,
        num_retries: int = 0,
        **litellm_kwargs: Any,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ValueError("model must be a non-empty litellm model string")
        self.model = model.strip()
        self.api_base = api_base
        self._api_key = api_key
        self.temperature = temperature
        self.max_tokens = int(max_tokens)
        self.timeout = float(timeout)
        self.num_retries = int(num_retries)
        self.litellm_kwargs = dict(litellm_kwargs)

    @property
    def judge_id(self) -> str:
        """``"litellm:<model>"``."""
        return f"litellm:{self.model}"

    def __repr__(self) -> str:
        return f"LiteLLMJudge({self.model!r}, api_base={self.api_base!r})"

    def identity(self) -> dict[str, Any]:
        """Model, sampling parameters and prompt versions (never the API key)."""
        return {
            "judge": self.judge_id,
            "model": self.model,
            "api_base": self.api_base,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "options": {k: v for k, v in sorted(self.litellm_kwargs.items()) if "key" not in k},
            "prompt_versions": prompts.versions(),
        }

    async def acomplete(self, task: Task) -> Answer:
        """Render the task's prompt, call the model and parse the reply.

        Raises
        ------
        JudgeError
            With a ``code`` telling the engine whether to retry.
        """
        litellm = _litellm()
        answer_model = ANSWER_MODELS[task.kind]
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": prompts.render(task),
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "num_retries": self.num_retries,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": answer_model.__name__,
                    "schema": answer_model.model_json_schema(),
                },
            },
            **self.litellm_kwargs,
        }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self._api_key:
            kwargs["api_key"] = self._api_key
        try:
            response = await litellm.acompletion(**kwargs)
        except Exception as exc:
            raise _map_error(exc) from None
        choice = response.choices[0]
        content = choice.message.content
        if choice.finish_reason == "length":
            raise JudgeError(
                "the reply was cut off (finish_reason=length)",
                code="truncated",
                retryable=True,
                raw=content,
            )
        return parse_reply(content, answer_model)  # type: ignore[return-value]


def _map_error(exc: Exception) -> JudgeError:
    name = type(exc).__name__
    text = str(exc)
    status = getattr(exc, "status_code", None)
    if "ContextWindowExceeded" in name or "context_length_exceeded" in text:
        return JudgeError(text, code="context_too_long")
    if "Authentication" in name or status == 401:
        return JudgeError(text, code="auth_error")
    if "RateLimit" in name or status == 429:
        return JudgeError(text, code="rate_limited", retryable=True)
    if "Timeout" in name:
        return JudgeError(text, code="timeout", retryable=True)
    if (status is not None and int(status) >= 500) or "InternalServer" in name:
        return JudgeError(text, code="server_error", retryable=True)
    if "BadRequest" in name or status == 400:
        return JudgeError(text, code="bad_request")
    if "APIConnection" in name:
        return JudgeError(text, code="connection_error", retryable=True)
    return JudgeError(f"{name}: {text}", code="error")
