"""LiteLLMJudge: answers tasks with any litellm model, robustly.

One call of :meth:`LiteLLMJudge.acall` answers one :class:`~ragnotebook.tasks.Task`.
Inside that call the judge repairs what it can repair without help from the
engine, and reports everything else as a :class:`~ragnotebook.judges.base.JudgeError`
whose ``code`` and ``retryable`` tell the engine what to do:

* The reply is parsed leniently (:func:`parse_reply`) and always validated.
* The structured-output mode adapts once per judge when a provider rejects it
  (JSON schema -> schema without ``$defs``/``$ref`` -> ``json_object`` plus the
  schema in the prompt -> schema in the prompt only).
* A rejected ``temperature`` is dropped for the judge (one warning). On the direct
  transport, a model that takes its budget only as ``max_completion_tokens`` (OpenAI's
  reasoning models; litellm renames it itself) gets it under that name after its
  first 400.
* An empty reply cut off by the token budget (reasoning models) is asked again
  with a larger budget; a reply cut off inside the JSON is asked again with the
  items split in halves, and the halves' verdicts merged. A cut-off prefix is
  never scored.
* HTTP failures are mapped to codes (``rate_limited`` with ``retry_after``,
  ``server_error``, ``timeout``, ``connection_error``, ``context_too_long``,
  ``auth_error``, ``bad_request``, ...). litellm and the OpenAI client are told
  not to retry, so every attempt is one HTTP request and the engine owns the
  retry budget (:attr:`LiteLLMJudge.num_retries`).

litellm is imported on first use, with ``LITELLM_LOCAL_MODEL_COST_MAP=True`` so
that the import does not fetch a price list from the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import functools
import json
import logging
import math
import os
import re
import sys
import threading
from collections.abc import AsyncIterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from pydantic import BaseModel

from ragnotebook import prompts
from ragnotebook._warn import notify
from ragnotebook.judges._errors import (
    _FORMAT_WORDS,
    _error_info,
    _is_bad_request,
    _is_context_error,
    _map_error,
    _never_sent,
    _next_mode,
)
from ragnotebook.judges._parse import _strip_thinking, inline_schema, parse_reply
from ragnotebook.judges._transport import OpenAICompatibleTransport, resolve_transport
from ragnotebook.judges.base import LLM_JUDGE_OPTIONS, JudgeError
from ragnotebook.tasks import ANSWER_MODELS, Answer, Task

__all__ = [
    "LOCAL_PLACEHOLDER_KEY",
    "STRUCTURED_OUTPUT_MODES",
    "LiteLLMJudge",
    "Usage",
    "inline_schema",
    "parse_reply",
]

logger = logging.getLogger("ragnotebook")

#: Structured-output modes, from the most to the least constrained.
#:
#: ``json_schema``
#:     ``response_format={"type": "json_schema", ...}`` with the answer model's
#:     JSON schema as pydantic writes it (with ``$defs``/``$ref``).
#: ``json_schema_inline``
#:     The same with every ``$ref`` inlined and no ``$defs``.
#: ``json_object``
#:     ``response_format={"type": "json_object"}``; the schema goes in the prompt.
#: ``prompt``
#:     No ``response_format``; the schema goes in the prompt.
STRUCTURED_OUTPUT_MODES = ("json_schema", "json_schema_inline", "json_object", "prompt")

#: Deepest recursion when splitting a truncated task's items in halves (up to 8 parts).
MAX_SPLIT_DEPTH = 3
#: Most HTTP requests one :meth:`LiteLLMJudge.acall` may make (re-asks, splits, fallbacks).
MAX_REQUESTS_PER_CALL = 16
#: Largest completion budget a re-ask may use when litellm does not know the model's limit.
MAX_REASK_TOKENS = 32768

_SECRET_NAME = re.compile(
    r"(api_?key|secret|password|passwd|credential|auth|bearer|headers|cookie|session|"
    r"(^|_)token$|access_key)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens, cost and HTTP requests spent by one judge call.

    Parameters
    ----------
    prompt_tokens : int
        Prompt tokens reported by the provider, summed over the call's requests.
    completion_tokens : int
        Completion tokens, summed likewise.
    cost_usd : float or None
        Cost in US dollars from litellm's price map, or None when the model's
        price is unknown (or any request's cost could not be computed). A request
        that got no reply (an HTTP error, a timeout) used no tokens the judge knows of:
        it costs 0.0 at a known price, and leaves the cost None at an unknown one (not
        0.0, which would read as free).
    requests : int
        HTTP requests made inside the call, including re-asks, split halves and
        structured-output fallbacks.

    Examples
    --------
    >>> u = Usage(prompt_tokens=120, completion_tokens=30, cost_usd=None, requests=1)
    >>> u.total_tokens
    150
    >>> u.to_dict()["cost_usd"] is None
    True
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    requests: int = 0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens.

        Examples
        --------
        >>> Usage(10, 5, None, 1).total_tokens
        15
        """
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe form.

        Examples
        --------
        >>> Usage(10, 5, 0.0001, 2).to_dict()
        {'prompt_tokens': 10, 'completion_tokens': 5, 'cost_usd': 0.0001, 'requests': 2}
        """
        return asdict(self)


class _Tally:
    """Mutable usage accumulator for one :meth:`LiteLLMJudge.acall`."""

    __slots__ = (
        "completion_tokens",
        "cost",
        "cost_known",
        "prompt_tokens",
        "replies",
        "requests",
    )

    def __init__(self) -> None:
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.cost = 0.0
        self.cost_known = True
        self.requests = 0
        self.replies = 0  # requests answered with a reply (priced from its usage)

    def usage(self, price_known: bool = True) -> Usage:
        """The call's usage; ``price_known`` says whether the model has a price, which
        matters only for requests that got no reply (the replies priced themselves)."""
        known = self.cost_known and (price_known or self.replies >= self.requests)
        cost = self.cost if (known and self.requests) else None
        return Usage(self.prompt_tokens, self.completion_tokens, cost, self.requests)


# --------------------------------------------------------------------------- parsing


def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


async def _settle_litellm_logging() -> None:
    """Finish and stop litellm's background logging worker if it runs on this loop.

    litellm starts a worker task on the loop of its first call and leaves it
    pending; when that loop is the caller's (an ``a``-twin under ``asyncio.run``),
    Python reports "Task was destroyed but it is pending!" at exit. litellm
    restarts the worker on its next call, so stopping it here loses nothing.
    """
    module = sys.modules.get("litellm.litellm_core_utils.logging_worker")
    worker = getattr(module, "GLOBAL_LOGGING_WORKER", None)
    if worker is None or getattr(worker, "_bound_loop", None) is not asyncio.get_running_loop():
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(worker.flush(), timeout=2.0)
    with contextlib.suppress(Exception):
        await worker.stop(timeout=2.0)


def _check_provider(model: str, api_base: str | None, kwargs: Mapping[str, Any]) -> None:
    """Raise at once, not on every row, when litellm cannot tell which provider serves
    ``model`` (a misspelt ``"offline"``, a bare model name without its provider)."""
    litellm = _litellm()
    try:
        litellm.get_llm_provider(
            model, custom_llm_provider=kwargs.get("custom_llm_provider"), api_base=api_base
        )
    except Exception as exc:  # litellm raises its BadRequestError
        close = difflib.get_close_matches(model.lower(), ["offline"], n=1, cutoff=0.7)
        prefix = model.split("/", 1)[0] if "/" in model else ""
        providers = [str(getattr(p, "value", p)) for p in getattr(litellm, "provider_list", [])]
        if close:
            hint = "; did you mean model='offline' (the offline judge)?"
        elif prefix and prefix not in providers:
            near = difflib.get_close_matches(prefix.lower(), providers, n=1, cutoff=0.75)
            hint = (
                f"; {prefix!r} is not a provider litellm knows"
                + (f" (did you mean {near[0]!r}?)" if near else "")
                + "; its providers are listed at https://docs.litellm.ai/docs/providers"
                " (e.g. 'openai/gpt-4o-mini', 'ollama_chat/llama3', 'hosted_vllm/NAME' with "
                "api_base=...)"
            )
        else:
            hint = (
                "; write it as 'provider/model' (e.g. 'openai/gpt-4o-mini', "
                "'ollama_chat/llama3', 'hosted_vllm/NAME' with api_base=...), or pass "
                "custom_llm_provider=..."
            )
        first = str(exc).split("\n")[0].replace("litellm.BadRequestError: ", "")
        raise ValueError(
            f"model {model!r}: litellm cannot tell its provider ({first}){hint}"
        ) from None


async def _litellm_send(kwargs: Mapping[str, Any]) -> Any:
    return await _litellm().acompletion(**kwargs)


def _json_safe(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        if isinstance(value, Mapping):
            return {str(k): _json_safe(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [_json_safe(v) for v in value]
        return repr(value)


def _is_secret_option(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


# --------------------------------------------------------------------------- judge


#: Request options a misspelling is checked against (``temprature=0.5`` would reach the
#: provider as an unknown field: a local server ignores it, so the user believes the
#: temperature was set, and OpenAI answers 400 on every row).
_KNOWN_OPTIONS: Final = (
    *LLM_JUDGE_OPTIONS,
    "top_p",
    "seed",
    "stop",
    "max_completion_tokens",
    "response_format",
    "presence_penalty",
    "frequency_penalty",
    "reasoning_effort",
    "extra_headers",
    "extra_body",
    "api_version",
)
#: Provider options close in spelling to a known one, but options of their own.
_OTHER_OPTIONS: Final = frozenset({"top_k", "min_p", "top_a", "seeds", "stop_sequences"})


def _check_option_names(options: Mapping[str, Any]) -> None:
    """Raise TypeError for an option that reads as a misspelt known one.

    Examples
    --------
    >>> _check_option_names({"top_k": 40, "temperature": 0.2})
    >>> _check_option_names({"temprature": 0.5})
    Traceback (most recent call last):
    ...
    TypeError: unknown judge option 'temprature': did you mean temperature=? (the provider would receive it as it is, and most ignore fields they do not know)
    """
    for key in options:
        if key in _KNOWN_OPTIONS or key in _OTHER_OPTIONS:
            continue
        close = difflib.get_close_matches(key, _KNOWN_OPTIONS, n=1, cutoff=0.85)
        if close:
            raise TypeError(
                f"unknown judge option {key!r}: did you mean {close[0]}=? (the provider would "
                "receive it as it is, and most ignore fields they do not know)"
            )


#: the key sent to an OpenAI-compatible server on this machine when none is given
LOCAL_PLACEHOLDER_KEY: Final = "no-key"


#: The path a client adds to ``api_base`` itself; pasted with the server's URL, it doubles.
_ENDPOINT_PATH = re.compile(r"/(?:chat/)?completions/*$", re.IGNORECASE)
#: What an ``api_base`` starts with: the requests are HTTP.
_SCHEME = re.compile(r"https?://", re.IGNORECASE)


def _endpoint_base(api_base: str | None) -> str | None:
    """``api_base`` without a trailing ``/chat/completions`` (or ``/completions``), with a
    notice: the endpoint's full URL, copied from a server's docs, is the commonest wrong
    ``api_base``, and both litellm and the direct transport add that path themselves
    (``…/v1/chat/completions/chat/completions`` answers 404).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     warnings.simplefilter("always")
    ...     _endpoint_base("http://127.0.0.1:8000/v1/chat/completions/")
    'http://127.0.0.1:8000/v1'
    >>> _endpoint_base("http://127.0.0.1:8000/v1")
    'http://127.0.0.1:8000/v1'
    >>> _endpoint_base("127.0.0.1:8000/v1")
    Traceback (most recent call last):
    ...
    ValueError: api_base must start with http:// or https://, got '127.0.0.1:8000/v1' (did you mean api_base='http://127.0.0.1:8000/v1'?)
    """
    if api_base is not None and not isinstance(api_base, str):
        raise TypeError(f"api_base must be a URL string, got {type(api_base).__name__}")
    if api_base and not _SCHEME.match(api_base.strip()):
        # without a scheme every request fails as a connection error, after the retries
        guess = "http://" + api_base.strip().split("://", 1)[-1].lstrip("/")
        raise ValueError(
            f"api_base must start with http:// or https://, got {api_base!r} "
            f"(did you mean api_base={guess!r}?)"
        )
    if not api_base or _ENDPOINT_PATH.search(api_base.strip()) is None:
        return api_base
    base = _ENDPOINT_PATH.sub("", api_base.strip())
    notify(
        f"ragnotebook: api_base {api_base!r} ends in the endpoint's path, which the judge "
        f"adds itself; using api_base={base!r}"
    )
    return base


def _keyless_local_server(model: str, api_base: str | None) -> bool:
    """Whether ``model`` talks to an OpenAI-compatible server on this machine with no key
    set in the environment.

    Examples
    --------
    >>> import os
    >>> saved = os.environ.pop("OPENAI_API_KEY", None)
    >>> _keyless_local_server("openai/qwen2.5", "http://127.0.0.1:8000/v1")
    True
    >>> _keyless_local_server("openai/qwen2.5", "http://localhost:8000/v1")
    True
    >>> _keyless_local_server("openai/qwen2.5", "https://llm.example.com/v1")
    False
    >>> _keyless_local_server("anthropic/claude-3-5-haiku", "http://127.0.0.1:8000")
    False
    >>> if saved is not None:
    ...     os.environ["OPENAI_API_KEY"] = saved
    """
    if not api_base or not model.startswith("openai/") or os.environ.get("OPENAI_API_KEY"):
        return False
    host = (urlsplit(api_base.strip()).hostname or "").lower()
    return host == "localhost" or host == "::1" or host.startswith("127.")


class LiteLLMJudge:
    """A judge backed by any litellm model.

    Parameters
    ----------
    model : str
        A litellm model string: ``"openai/gpt-4o-mini"``, ``"anthropic/claude-..."``,
        ``"ollama_chat/llama3"``, or ``"openai/<name>"`` with ``api_base`` for a
        local OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...).
    api_base : str, optional
        Base URL of the provider (e.g. ``"http://127.0.0.1:8000/v1"``).
    api_key : str, optional
        API key; passed to litellm only. It is never part of :meth:`identity`,
        the ``repr``, log messages or error messages (it is redacted from
        provider errors that echo it). Without one, an ``"openai/<name>"`` model whose
        ``api_base`` is on this machine (``localhost``, ``127.0.0.1``, ``::1``) and no
        ``OPENAI_API_KEY`` in the environment sends the placeholder
        :data:`LOCAL_PLACEHOLDER_KEY` (such servers mostly need no key; one that does
        answers 401: ``auth_error``).
    temperature : float or None, default 0.0
        Sampling temperature; None sends none. Dropped automatically (with one
        warning) if the model rejects the parameter.
    max_tokens : int, default 2048
        Completion budget per request, in tokens. Re-asks after a cut-off use
        twice as much (within the model's known output limit).
    timeout : float, default 60
        Seconds per HTTP request (not per row): passed to litellm and enforced
        around each request.
    num_retries : int, default 4
        Retry budget the *engine* uses for retryable errors. The judge itself
        makes litellm and the OpenAI client send exactly one HTTP request per
        attempt (``num_retries=0``, ``max_retries=0``).
    structured_output : {"auto", "json_schema", "json_schema_inline", "json_object", "prompt"}
        Structured-output mode to start with (see :data:`STRUCTURED_OUTPUT_MODES`);
        ``"auto"`` (default) starts with ``json_schema`` unless litellm knows the
        model does not accept ``response_format``. On a 400 that rejects the
        mode, the judge moves to the next mode once, shows a ``UserWarning``
        (from the calling thread) and records the mode in :meth:`identity`.
    transport : {"auto", "litellm", "openai"}, default "auto"
        How requests are sent. ``"litellm"``: ``litellm.acompletion`` (every
        provider). ``"openai"``: one HTTP POST straight to an OpenAI-compatible
        ``api_base`` (the request litellm would send, errors mapped the same way,
        without litellm's 5-15 ms of per-call CPU; see ``docs/performance.md``).
        ``"auto"``: ``"openai"`` for an ``openai/<name>`` model with an
        ``api_base`` and only standard Chat Completions options, else
        ``"litellm"``. Prices still come from litellm's price map.
    **litellm_kwargs
        Other options passed to ``litellm.acompletion`` (e.g. ``top_p``, ``seed``,
        ``extra_headers``). Secret-looking options are kept out of :meth:`identity`.

    Attributes
    ----------
    cacheable : bool
        True: the engine may cache this judge's answers (keyed by :meth:`identity`).
    structured_output : str
        The structured-output mode in force.
    temperature_dropped : bool
        Whether the model rejected ``temperature`` and it is no longer sent.
    transport : str
        ``"litellm"`` or ``"openai"``: the transport in use (recorded in the run
        metadata; not part of the cache key, since both send the same request).

    Raises
    ------
    ValueError
        An empty model, an unknown ``structured_output`` or ``transport``, a
        non-positive ``max_tokens`` or ``timeout``, a negative ``num_retries``, or
        ``transport="openai"`` without an ``openai/<name>`` model and ``api_base``; a
        model whose provider litellm cannot tell (``"offlin"``, ``"my-model"`` without
        ``provider/``), at once rather than on every row; an ``api_base`` that does not
        start with ``http://`` or ``https://`` (``"127.0.0.1:8000/v1"``).
    TypeError
        ``model``, ``messages``, ``stream`` or ``n`` passed as an option.

    Examples
    --------
    >>> import json
    >>> from ragnotebook import LiteLLMJudge
    >>> judge = LiteLLMJudge("openai/gpt-4o-mini", api_key="sk-secret", num_retries=2)
    >>> judge.judge_id
    'litellm:openai/gpt-4o-mini'
    >>> judge.num_retries
    2
    >>> "sk-secret" in repr(judge) or "sk-secret" in json.dumps(judge.identity())
    False
    >>> local = LiteLLMJudge("openai/qwen2.5", api_base="http://127.0.0.1:8000/v1",
    ...                      structured_output="json_object", seed=7)
    >>> local.identity()["structured_output"], local.identity()["options"]
    ('json_object', {'seed': 7})
    >>> local.transport, judge.transport
    ('openai', 'litellm')
    """

    cacheable: bool = True

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        temperature: float | None = 0.0,
        max_tokens: int = 2048,
        timeout: float = 60.0,
        num_retries: int = 4,
        structured_output: str = "auto",
        transport: str = "auto",
        **litellm_kwargs: Any,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ValueError("model must be a non-empty litellm model string")
        if model.strip().endswith("/"):
            raise ValueError(
                f"model {model.strip()!r} names a provider but no model after it "
                "(e.g. 'openai/gpt-4o-mini')"
            )
        if structured_output != "auto" and structured_output not in STRUCTURED_OUTPUT_MODES:
            raise ValueError(
                f"structured_output must be 'auto' or one of {STRUCTURED_OUTPUT_MODES}, "
                f"got {structured_output!r}"
            )
        if int(max_tokens) < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        if float(timeout) <= 0:
            raise ValueError(f"timeout must be > 0, got {timeout}")
        if int(num_retries) < 0:
            raise ValueError(f"num_retries must be >= 0, got {num_retries}")
        _check_option_names(litellm_kwargs)
        for reserved in ("model", "messages", "stream", "n"):
            if reserved in litellm_kwargs:
                raise TypeError(f"{reserved!r} cannot be passed as a litellm option")
        for retry_name in ("max_retries",):
            litellm_kwargs.pop(retry_name, None)  # the engine owns retries
        self.model = model.strip()
        self.api_base = _endpoint_base(api_base)
        api_base = self.api_base
        if api_key is None and _keyless_local_server(self.model, api_base):
            # a server on this machine (vLLM, llama.cpp, LM Studio) mostly asks for no
            # key, but the OpenAI client refuses to send without one: send a placeholder
            api_key = LOCAL_PLACEHOLDER_KEY
        self._api_key = api_key
        self.temperature = temperature
        self.max_tokens = int(max_tokens)
        self.timeout = float(timeout)
        self.num_retries = int(num_retries)
        self.litellm_kwargs = dict(litellm_kwargs)
        self._requested_mode = structured_output
        self._mode: str | None = None if structured_output == "auto" else structured_output
        self._custom_format = "response_format" in self.litellm_kwargs
        self._send_temperature = temperature is not None
        self.temperature_dropped = False
        # OpenAI's reasoning models take the budget only as max_completion_tokens; litellm
        # renames it itself, the direct transport learns it from the first 400
        self._budget_param = "max_tokens"
        self._lock = threading.Lock()
        self._probed: set[str] = set()
        self._gates: dict[str, asyncio.Lock] = {}
        self._gate_loop: asyncio.AbstractEventLoop | None = None
        self._cost_unknown = False
        self._price_known: bool | None = None  # None: not looked up yet (see _has_price)
        self._usage_missing = False  # a reply without token usage was seen (noticed once)
        self._output_limit: int | bool | None = False  # False: not looked up yet
        self.transport = resolve_transport(
            transport, self.model, self.api_base, self.litellm_kwargs
        )
        self._direct: OpenAICompatibleTransport | None = (
            OpenAICompatibleTransport(self.model, str(self.api_base), api_key, self.timeout)
            if self.transport == "openai"
            else None
        )
        if self._direct is None:
            _check_provider(self.model, self.api_base, self.litellm_kwargs)

    # ------------------------------------------------------------------ identity

    @property
    def judge_id(self) -> str:
        """``"litellm:<model>"``, recorded in results and cache keys.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> LiteLLMJudge("ollama_chat/llama3.1").judge_id
        'litellm:ollama_chat/llama3.1'
        """
        return f"litellm:{self.model}"

    @property
    def structured_output(self) -> str:
        """The structured-output mode in force (``"custom"`` for a user ``response_format``).

        One of :data:`STRUCTURED_OUTPUT_MODES`. It changes at most a few times per
        judge, each time a provider rejects the current mode with a 400.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> LiteLLMJudge("openai/gpt-4o-mini").structured_output
        'json_schema'
        >>> LiteLLMJudge("openai/x", response_format={"type": "json_object"}).structured_output
        'custom'
        """
        if self._custom_format:
            return "custom"
        if self._mode is None:
            with self._lock:
                if self._mode is None:
                    self._mode = self._initial_mode()
        return self._mode

    @property
    def max_call_seconds(self) -> float:
        """Upper bound of one :meth:`acall`'s duration (every request may take ``timeout``).

        One call may make several requests (fallbacks, re-asks, split halves), each
        bounded by ``timeout``. An engine that puts its own deadline around
        ``acall`` should not use less.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> LiteLLMJudge("openai/x", timeout=10).max_call_seconds
        165.0
        """
        return self.timeout * MAX_REQUESTS_PER_CALL + 5.0

    def adaptations(self) -> dict[str, Any]:
        """What this judge learned about its provider (to remember across runs).

        Returns
        -------
        dict
            ``{"temperature_dropped": bool, "structured_output": str}``; the engine
            stores it in the answer cache so that a re-run starts adapted and its
            cache keys match the first run's.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> LiteLLMJudge("openai/gpt-4o-mini").adaptations()
        {'temperature_dropped': False, 'structured_output': 'json_schema'}
        """
        return {
            "temperature_dropped": self.temperature_dropped,
            "structured_output": self.structured_output,
        }

    def adopt(self, learned: Mapping[str, Any]) -> None:
        """Start from adaptations learned in an earlier run (see :meth:`adaptations`).

        Unknown keys and modes are ignored; a user-given ``response_format`` is kept.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> judge = LiteLLMJudge("openai/o-model")
        >>> judge.adopt({"temperature_dropped": True, "structured_output": "json_object"})
        >>> judge.identity()["temperature"], judge.structured_output
        ('dropped', 'json_object')
        """
        with self._lock:
            if learned.get("temperature_dropped") and self.temperature is not None:
                self.temperature_dropped = True
                self._send_temperature = False
            mode = learned.get("structured_output")
            if not self._custom_format and mode in STRUCTURED_OUTPUT_MODES:
                self._mode = str(mode)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[None]:
        """An async context that prepares the judge and keeps its connections open.

        The engine enters it at a run's first cache miss (before any request is in
        flight) and leaves it when the run ends. On entry it imports litellm
        (prices, model limits) and settles the structured-output mode, so neither
        happens on the event loop in the middle of a run. With the ``"openai"``
        transport it also keeps one HTTP session per event loop open until the last
        session on that loop ends (calls outside a session open and close their
        own); with ``"litellm"`` its end stops litellm's logging worker on the
        caller's loop.

        Yields
        ------
        None

        Examples
        --------
        >>> import asyncio
        >>> from ragnotebook import LiteLLMJudge
        >>> async def main():
        ...     async with LiteLLMJudge("openai/gpt-4o-mini").session():
        ...         return "calls here share connections"
        >>> asyncio.run(main())
        'calls here share connections'
        """
        if "litellm" not in sys.modules:  # a first import takes seconds: off the loop
            await asyncio.to_thread(_litellm)
        _litellm()
        _ = self.structured_output
        if self._direct is None:
            try:
                yield
            finally:
                await _settle_litellm_logging()
            return
        async with self._direct.session():
            yield

    def _initial_mode(self) -> str:
        if self._direct is not None:
            # an OpenAI-compatible server: litellm would answer from OpenAI's parameter
            # list (response_format supported) without knowing the server; a server
            # that rejects JSON schemas is adapted to after its first 400
            return "json_schema"
        try:
            supported = _litellm().get_supported_openai_params(model=self.model)
        except Exception:
            supported = None
        if isinstance(supported, list) and "response_format" not in supported:
            return "prompt"
        return "json_schema"

    def __repr__(self) -> str:
        return (
            f"LiteLLMJudge({self.model!r}, api_base={self.api_base!r}, "
            f"transport={self.transport!r})"
        )

    def identity(self) -> dict[str, Any]:
        """Everything that changes the judge's answers, JSON-safe, without secrets.

        Returns
        -------
        dict
            ``judge``, ``model``, ``api_base``, ``temperature`` (a number, None,
            or ``"dropped"`` after the model rejected it), ``max_tokens``,
            ``options`` (litellm options minus secret-looking ones),
            ``structured_output`` (the mode in force) and ``prompt_versions``.
            It can change once during a run, when the judge adapts to a provider.

        Examples
        --------
        >>> from ragnotebook import LiteLLMJudge
        >>> ident = LiteLLMJudge("openai/gpt-4o-mini", api_key="sk-1", top_p=0.5).identity()
        >>> ident["model"], ident["temperature"], ident["options"]
        ('openai/gpt-4o-mini', 0.0, {'top_p': 0.5})
        """
        return {
            "judge": self.judge_id,
            "model": self.model,
            "api_base": self.api_base,
            "temperature": "dropped" if self.temperature_dropped else self.temperature,
            "max_tokens": self.max_tokens,
            "options": {
                k: _json_safe(v)
                for k, v in sorted(self.litellm_kwargs.items())
                if not _is_secret_option(k)
            },
            "structured_output": self.structured_output,
            "prompt_versions": prompts.versions(),
        }

    def _redact(self, text: str) -> str:
        secrets = [self._api_key or ""]
        secrets += [
            v for k, v in self.litellm_kwargs.items() if _is_secret_option(k) and isinstance(v, str)
        ]
        for secret in secrets:
            if secret and len(secret) >= 4:
                text = text.replace(secret, "***")
        return text

    # ------------------------------------------------------------------ calls

    async def acomplete(self, task: Task) -> Answer:
        """Answer one task (:meth:`acall` without the usage).

        Parameters
        ----------
        task : Task

        Returns
        -------
        Claims, Verdicts or Explanation

        Raises
        ------
        JudgeError
            As :meth:`acall`.

        Examples
        --------
        A coroutine; with a reachable model (not run here)::

            answer = await judge.acomplete(Task("extract_claims", "faithfulness", text="..."))

        >>> from ragnotebook import LiteLLMJudge
        >>> import inspect
        >>> inspect.iscoroutinefunction(LiteLLMJudge("openai/x").acomplete)
        True
        """
        answer, _ = await self.acall(task)
        return answer

    async def acall(self, task: Task) -> tuple[Answer, Usage]:
        """Answer one task and report the tokens, cost and requests it took.

        Parameters
        ----------
        task : Task

        Returns
        -------
        answer : Claims, Verdicts or Explanation
            The validated answer for the task's kind.
        usage : Usage
            Summed over every HTTP request the call made.

        Raises
        ------
        JudgeError
            ``code`` / ``retryable``: ``rate_limited`` (yes, with ``retry_after``),
            ``server_error`` (yes), ``timeout`` (yes), ``connection_error`` (yes),
            ``parse_error`` (yes, ``raw`` kept), ``empty_content`` (yes),
            ``truncated`` (yes; no once a reply filled even the larger budget),
            ``context_too_long`` (no), ``auth_error`` (no),
            ``quota_exceeded`` (no), ``content_filter`` (no), ``bad_request`` (no).
            The error's ``usage`` attribute holds the :class:`Usage` spent before
            the failure.

        Examples
        --------
        Against a local OpenAI-compatible server (not run here)::

            judge = LiteLLMJudge("openai/qwen2.5", api_base="http://127.0.0.1:8000/v1")
            task = Task("extract_claims", "faithfulness", text="Paris is in France.")
            answer, usage = await judge.acall(task)
            answer.claims, usage.requests, usage.cost_usd   # (['Paris is in France.'], 1, None)

        >>> from ragnotebook import LiteLLMJudge
        >>> import inspect
        >>> inspect.iscoroutinefunction(LiteLLMJudge("openai/x").acall)
        True
        """
        tally = _Tally()
        try:
            answer = await self._solve(task, tally, 0, self.max_tokens)
        except JudgeError as err:
            err.usage = self._usage(tally)  # type: ignore[attr-defined]
            raise
        except asyncio.CancelledError as err:
            # abandoned (the engine's call_timeout, an interrupt): the requests already
            # sent reached the server; the engine counts them from here
            err.usage = self._usage(tally)  # type: ignore[attr-defined]
            raise
        return answer, self._usage(tally)

    def _usage(self, tally: _Tally) -> Usage:
        """The usage of one call; requests that got no reply cost 0.0 only at a known price."""
        unanswered = tally.requests > tally.replies
        return tally.usage(price_known=not unanswered or self._has_price())

    def _has_price(self) -> bool:
        """Whether litellm's price map prices this model (looked up once per judge).

        A reply priced during the run settles it (yes), and so does one whose price could
        not be computed (no); before any, the model string is looked up.
        """
        if self._cost_unknown:
            return False
        if self._price_known is None:
            try:
                _litellm().cost_per_token(model=self.model, prompt_tokens=1, completion_tokens=1)
                self._price_known = True
            except Exception:  # litellm raises for a model it has no price for
                self._price_known = False
        return self._price_known

    async def _solve(self, task: Task, tally: _Tally, depth: int, budget: int) -> Answer:
        """Ask, re-asking with a larger budget or split items when the reply is cut off."""
        answer_model = ANSWER_MODELS[task.kind]
        grown = False
        first_budget = budget
        while True:
            content, finish, completion_tokens = await self._request(task, budget, tally)
            if finish == "content_filter":
                raise JudgeError(
                    "the provider's content filter withheld the reply",
                    code="content_filter",
                    raw=content,
                )
            try:
                if finish == "length":
                    visible = _strip_thinking(content or "")
                    raise JudgeError(
                        "the reply was cut off by the token budget (finish_reason=length)"
                        + ("" if visible else " before any answer"),
                        code="truncated" if visible else "empty_content",
                        retryable=True,
                        raw=content,
                    )
                if content is None or not content.strip():
                    raise JudgeError(
                        f"the judge returned {'null' if content is None else 'empty'} content "
                        f"(finish_reason={finish!r})",
                        code="empty_content",
                        retryable=True,
                        raw=content,
                    )
                answer = parse_reply(content, answer_model)
                return answer  # type: ignore[return-value]
            except JudgeError as err:
                # some servers say "stop" at the budget: a broken or reasoning-only reply
                # that used ~all of it was cut off too
                cut_off = finish == "length" or (
                    err.code in ("truncated", "empty_content") and completion_tokens >= 0.9 * budget
                )
                if not cut_off:
                    if err.code == "truncated":  # stopped early with broken JSON: malformed
                        err.code = "parse_error"
                        err.args = (
                            "the reply's JSON is unterminated although the model stopped "
                            "before its token budget",
                        )
                    raise
                if err.code == "truncated" and len(task.items) > 1 and depth < MAX_SPLIT_DEPTH:
                    return await self._split(task, tally, depth, budget)
                bigger = self._grow(budget)
                if grown or bigger <= budget:
                    err.code = "truncated"
                    if completion_tokens >= 0.9 * budget:
                        # the model wrote its whole budget: asking the same again (the
                        # engine's retry) would only pay for the same cut-off reply
                        err.retryable = False
                        err.args = (
                            f"{err.args[0]}; the reply needs more than {budget} tokens"
                            + (
                                f" (asked again with {budget} after {first_budget}): pass a "
                                "larger max_tokens="
                                if grown
                                else ", the model's output limit"
                            ),
                        )
                    raise
                logger.info(
                    "ragnotebook: %s reply to a %s task was cut off at %d tokens; asking again "
                    "with %d",
                    self.model,
                    task.kind,
                    budget,
                    bigger,
                )
                budget, grown = bigger, True

    async def _split(self, task: Task, tally: _Tally, depth: int, budget: int) -> Answer:
        from ragnotebook.tasks import Verdicts

        half = len(task.items) // 2
        parts = (task.items[:half], task.items[half:])
        logger.info(
            "ragnotebook: %s reply to a %s task with %d items was cut off; splitting it in two",
            self.model,
            task.kind,
            len(task.items),
        )
        verdicts = []
        for items in parts:  # sequential: the engine's concurrency limit stays true
            sub = Task(
                task.kind,
                task.metric,
                question=task.question,
                text=task.text,
                items=items,
                chunks=task.chunks,
                source=task.source,
                extra=task.extra,
            )
            answer = await self._solve(sub, tally, depth + 1, budget)
            assert isinstance(answer, Verdicts)
            verdicts.extend(answer.verdicts)
        return Verdicts(verdicts=verdicts)

    def _grow(self, budget: int) -> int:
        if self._output_limit is False:
            limit: int | None = None
            try:
                value = _litellm().get_max_tokens(self.model)
                limit = int(value) if value else None
            except Exception:
                limit = None
            self._output_limit = limit
        cap = self._output_limit if isinstance(self._output_limit, int) else MAX_REASK_TOKENS
        return max(budget, min(budget * 2, cap))

    async def _request(
        self, task: Task, budget: int, tally: _Tally
    ) -> tuple[str | None, str | None, int]:
        """One answered request (after any mode/temperature adaptation); maps failures.

        The judge's first request runs alone, and so does the first request for
        each answer model (each response schema): other calls wait until it is
        answered, so a provider that rejects the structured-output mode, a schema
        feature or the temperature sees the rejected request once, not once per
        call in flight. After that, calls run freely.
        """
        shape = ANSWER_MODELS[task.kind].__name__
        while True:
            pending = next((k for k in ("*", shape) if k not in self._probed), None)
            if pending is None:
                return await self._send(task, budget, tally)
            async with self._gate(pending):
                if pending in self._probed:
                    continue
                try:
                    return await self._send(task, budget, tally)
                finally:
                    self._probed.update(("*", shape))

    def _gate(self, shape: str) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._gate_loop is not loop:
                self._gates = {}
                self._gate_loop = loop
            if shape not in self._gates:
                self._gates[shape] = asyncio.Lock()
            return self._gates[shape]

    async def _send(
        self, task: Task, budget: int, tally: _Tally
    ) -> tuple[str | None, str | None, int]:
        send = self._direct.acompletion if self._direct is not None else _litellm_send
        while True:
            if tally.requests >= MAX_REQUESTS_PER_CALL:
                raise JudgeError(
                    f"gave up after {tally.requests} requests for one {task.kind} task "
                    "(replies kept being cut off)",
                    code="truncated",
                    retryable=True,
                )
            mode = self.structured_output
            send_temperature = self._send_temperature
            budget_param = self._budget_param
            kwargs = self._kwargs(task, mode, send_temperature, budget)
            tally.requests += 1
            try:
                response = await asyncio.wait_for(send(kwargs), timeout=self.timeout + 1.0)
            except TimeoutError:
                raise JudgeError(
                    f"no reply within {self.timeout:g} s", code="timeout", retryable=True
                ) from None
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if _never_sent(exc):
                    tally.requests -= 1  # refused by the client, or no connection: nothing went out
                if self._adapt(exc, mode, send_temperature, budget_param):
                    continue
                raise _map_error(exc, self._redact, self.api_base) from None
            return self._read(response, tally)

    def _kwargs(self, task: Task, mode: str, send_temperature: bool, budget: int) -> dict[str, Any]:
        answer_model = ANSWER_MODELS[task.kind]
        schema = _schema_of(answer_model)
        hint = None
        if mode in ("json_object", "prompt"):
            hint = json.dumps(inline_schema(schema), ensure_ascii=False)
        kwargs: dict[str, Any] = {
            **self.litellm_kwargs,
            "model": self.model,
            "messages": prompts.render(task, schema_hint=hint),
            self._budget_param: budget,
            "timeout": self.timeout,
            "num_retries": 0,
            "max_retries": 0,
        }
        if mode == "json_schema":
            kwargs["response_format"] = _schema_format(answer_model.__name__, schema)
        elif mode == "json_schema_inline":
            kwargs["response_format"] = _schema_format(answer_model.__name__, inline_schema(schema))
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        if send_temperature:
            kwargs["temperature"] = self.temperature
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self._api_key:
            kwargs["api_key"] = self._api_key
        return kwargs

    def _adapt(
        self,
        exc: BaseException,
        mode: str,
        sent_temperature: bool,
        sent_budget_param: str = "max_tokens",
    ) -> bool:
        """Adapt to a 400 that rejects the temperature or the structured-output mode.

        Returns True when the request should be sent again right away. The change
        happens once per judge even when several calls fail at the same time;
        calls that failed with an already-replaced setting just retry.
        """
        info = _error_info(exc)
        if not _is_bad_request(exc, info) or _is_context_error(exc, info):
            return False
        lowered = info.lower
        if (
            self._direct is not None
            and sent_budget_param == "max_tokens"
            and "max_completion_tokens" in lowered
            and "max_tokens" in lowered.replace("max_completion_tokens", "")
        ):
            with self._lock:
                if self._budget_param == "max_tokens":
                    self._budget_param = "max_completion_tokens"
                    notify(
                        f"ragnotebook: {self.model} takes the token budget as "
                        "max_completion_tokens; sending it that way from now on"
                    )
            return True  # send again with the new name (at most once per call)
        if sent_temperature and ("temperature" in lowered):
            with self._lock:
                if self._send_temperature:
                    self._send_temperature = False
                    self.temperature_dropped = True
                    notify(
                        f"{self.model} does not accept temperature={self.temperature!r}; "
                        "ragnotebook no longer sends it for this judge (recorded in the run "
                        "metadata and the cache key)"
                    )
            return True
        if mode in ("custom", "prompt") or not any(w in lowered for w in _FORMAT_WORDS):
            return False
        with self._lock:
            if self._mode != mode:
                return True  # another call already switched
            following = _next_mode(mode, lowered)
            if following is None:
                return False
            self._mode = following
        notify(
            f"ragnotebook: {self.model} rejected structured output mode {mode!r} "
            f"({self._redact(info.message)[:300]}); using {following!r} for this judge "
            "from now on (later runs start with it when the judge cache is on)"
        )
        return True

    def _read(self, response: Any, tally: _Tally) -> tuple[str | None, str | None, int]:
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        tally.replies += 1
        tally.prompt_tokens += prompt_tokens
        tally.completion_tokens += completion_tokens
        if not (prompt_tokens or completion_tokens):
            # a server or proxy that reports no usage (or zeros): its cost is unknown, not
            # $0 (pricing 0 tokens would say it was free)
            tally.cost_known = False
            if not self._usage_missing:
                self._usage_missing = True
                notify(
                    f"ragnotebook: {self.model}: the server's replies report no token usage, "
                    "so this run counts their tokens as 0 and their cost as unknown"
                )
            cost = None
        else:
            cost = self._cost(response)
        if cost is None:
            tally.cost_known = False
        else:
            tally.cost += cost
        try:
            choice = response.choices[0]
        except (AttributeError, IndexError, TypeError):
            return None, None, completion_tokens
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        if content is not None and not isinstance(content, str):
            content = str(content)
        return content, getattr(choice, "finish_reason", None), completion_tokens

    def _cost(self, response: Any) -> float | None:
        if self._cost_unknown:
            return None
        hidden = getattr(response, "_hidden_params", None) or {}
        value = hidden.get("response_cost") if isinstance(hidden, Mapping) else None
        if value is None:
            try:
                if self._direct is not None:  # priced by the model string, as litellm would
                    usage = getattr(response, "usage", None)
                    prompt_cost, completion_cost = _litellm().cost_per_token(
                        model=self.model,
                        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
                    )
                    value = float(prompt_cost) + float(completion_cost)
                else:
                    value = _litellm().completion_cost(completion_response=response)
            except Exception:  # unknown model, odd response: the cost is unknown
                self._cost_unknown = True
                return None
        try:
            cost = float(value)
        except (TypeError, ValueError):
            return None
        if not (math.isfinite(cost) and cost >= 0):
            return None
        self._price_known = True
        return cost


@functools.cache
def _frozen_schema(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema())


def _schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an answer model (generated once; a fresh copy each call)."""
    schema: dict[str, Any] = json.loads(_frozen_schema(model))
    return schema


def _schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": False},
    }
