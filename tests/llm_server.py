"""A scriptable OpenAI-compatible chat-completions server for tests and benchmarks.

The server speaks just enough of the OpenAI HTTP API for ``litellm`` (provider
``openai/``) to talk to it: ``POST .../chat/completions`` and ``GET .../models``.
It runs an aiohttp application on its own event loop in a background thread, so a
test can drive it from synchronous code or from any other event loop::

    server = LLMServer(seed=1)
    server.start()
    server.responder = lambda request: '{"claims": ["The sky is blue."]}'
    await litellm.acompletion(
        model="openai/test-model", api_base=server.url, api_key="sk-test", messages=[...]
    )
    server.stop()

Any path that ends in ``/chat/completions`` or ``/models`` is served, so both
``server.url`` (``http://127.0.0.1:PORT/v1``) and ``server.base_url`` work as an
``api_base``.

Behaviour is configured at runtime through attributes (replies, latency, random
and scripted faults, rules) and observed through counters (requests, in-flight
requests, status codes, a log of request bodies). Ready-made rules imitate
provider quirks: rate limits under load, context-length errors, rejected
``$ref`` schemas, ``json_object``-only models, models that refuse ``temperature``
and wrong API keys.

Run ``python tests/llm_server.py --port 8765`` to serve it in the foreground, e.g.
for benchmarks.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import signal
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

__all__ = [
    "FAULT_KINDS",
    "REPLY_FAULTS",
    "Fault",
    "LLMServer",
    "RequestContext",
    "auth_rule",
    "combine_rules",
    "concurrency_limit_rule",
    "context_length_rule",
    "default_responder",
    "example_from_schema",
    "faulty_replies",
    "json_object_only_rule",
    "message_text",
    "path_prefix_rule",
    "reject_refs_rule",
    "reject_temperature_rule",
]

#: Keys accepted in :attr:`LLMServer.faults` besides any HTTP status code written as digits.
FAULT_KINDS = ("malformed", "truncated", "timeout", "disconnect")

_DEFAULT_ERRORS: dict[int, tuple[str, str, str | None]] = {
    400: ("Bad request.", "invalid_request_error", None),
    401: (
        "Incorrect API key provided. You can find your API key in your account settings.",
        "invalid_request_error",
        "invalid_api_key",
    ),
    403: ("You are not allowed to use this model.", "invalid_request_error", "forbidden"),
    404: ("The model `test-model` does not exist.", "invalid_request_error", "model_not_found"),
    408: ("Request timed out.", "timeout", None),
    422: ("Unprocessable request.", "invalid_request_error", None),
    429: (
        "Rate limit reached for test-model. Please try again in a moment.",
        "requests",
        "rate_limit_exceeded",
    ),
    500: ("The server had an error while processing your request.", "server_error", None),
    502: ("Bad gateway.", "server_error", None),
    503: ("The engine is currently overloaded, please try again later.", "server_error", None),
    504: ("Gateway timeout.", "server_error", None),
}


# --------------------------------------------------------------------------- faults


@dataclass
class Fault:
    """A deviation from the normal reply, returned by rules or drawn at random.

    Build instances with the class methods rather than by hand.

    Parameters
    ----------
    kind : str
        ``"error"`` (a non-200 reply with an OpenAI-style error body), ``"malformed"``
        (200 with broken JSON content), ``"truncated"`` (200 with the content cut in
        half and ``finish_reason="length"``), ``"timeout"`` (a normal reply sent
        only after a long sleep) or ``"disconnect"`` (the reply's first bytes, then the
        connection closed).
    status : int
        HTTP status of an ``"error"`` fault.
    message, error_type, code, param : str or None
        Fields of the ``{"error": {...}}`` body. Defaults depend on ``status``.
    headers : dict of str to str
        Extra response headers.
    delay : float or None
        Seconds to wait before answering. For ``"timeout"`` faults ``None`` means
        :attr:`LLMServer.slow_seconds`.
    """

    kind: str = "error"
    status: int = 200
    message: str | None = None
    error_type: str | None = None
    code: str | None = None
    param: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float | None = None

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        *,
        error_type: str | None = None,
        code: str | None = None,
        param: str | None = None,
        headers: Mapping[str, str] | None = None,
        delay: float | None = None,
    ) -> Fault:
        """Reply with ``status`` and an OpenAI-style error body.

        Parameters
        ----------
        status : int
            HTTP status code (a 429 also gets a ``Retry-After`` header).
        message, error_type, code, param : str, optional
            Error body fields; sensible defaults are chosen from ``status``.
        headers : mapping, optional
            Extra response headers.
        delay : float, optional
            Seconds to wait before answering.

        Returns
        -------
        Fault
        """
        default_message, default_type, default_code = _DEFAULT_ERRORS.get(
            status, (f"HTTP {status}", "api_error", None)
        )
        return cls(
            kind="error",
            status=status,
            message=message or default_message,
            error_type=error_type or default_type,
            code=code if code is not None else default_code,
            param=param,
            headers=dict(headers or {}),
            delay=delay,
        )

    @classmethod
    def rate_limit(cls, retry_after: float | None = None, message: str | None = None) -> Fault:
        """Reply 429 with a ``Retry-After`` header.

        Parameters
        ----------
        retry_after : float, optional
            Header value in seconds; by default :attr:`LLMServer.retry_after`.
        message : str, optional
            Error message.

        Returns
        -------
        Fault
        """
        headers = {} if retry_after is None else {"Retry-After": _format_seconds(retry_after)}
        return cls.error(429, message, headers=headers)

    @classmethod
    def malformed(cls) -> Fault:
        """Reply 200 with content that is not valid JSON (prose and missing braces).

        Returns
        -------
        Fault
        """
        return cls(kind="malformed")

    @classmethod
    def truncated(cls) -> Fault:
        """Reply 200 with the first half of the content and ``finish_reason="length"``.

        Returns
        -------
        Fault
        """
        return cls(kind="truncated")

    @classmethod
    def disconnect(cls) -> Fault:
        """Send the status line, headers and the reply's first bytes, then close the
        connection (a server or proxy that dies mid-reply).

        Returns
        -------
        Fault
        """
        return cls(kind="disconnect")

    @classmethod
    def timeout(cls, seconds: float | None = None) -> Fault:
        """Answer normally but only after ``seconds`` (default :attr:`LLMServer.slow_seconds`).

        Returns
        -------
        Fault
        """
        return cls(kind="timeout", delay=seconds)


def _format_seconds(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def _fault_from_key(key: str | int) -> Fault:
    key = str(key)
    if key.isdigit():
        status = int(key)
        return Fault.rate_limit() if status == 429 else Fault.error(status)
    if key == "malformed":
        return Fault.malformed()
    if key == "truncated":
        return Fault.truncated()
    if key == "timeout":
        return Fault.timeout()
    if key == "disconnect":
        return Fault.disconnect()
    raise ValueError(f"unknown fault kind {key!r}; use an HTTP status or one of {FAULT_KINDS}")


@dataclass
class RequestContext:
    """What a rule sees besides the request body.

    Attributes
    ----------
    server : LLMServer
        The server; its counters and configuration can be read.
    number : int
        1-based arrival number of this request.
    in_flight : int
        Requests being handled when this one arrived, this one included.
    headers : dict of str to str
        Request headers with lower-case names.
    path : str
        Request path.
    """

    server: LLMServer
    number: int
    in_flight: int
    headers: dict[str, str]
    path: str

    @property
    def api_key(self) -> str | None:
        """The bearer token of the ``Authorization`` header, if any."""
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        return self.headers.get("api-key") or None


Rule = Callable[[dict[str, Any], RequestContext], "Fault | None"]


# --------------------------------------------------------------------------- helpers


def message_text(request: Mapping[str, Any]) -> str:
    """Concatenate the text of all messages of a chat-completions request.

    Parameters
    ----------
    request : mapping
        The request JSON body.

    Returns
    -------
    str
        The text of every message (string content or the ``text`` of content parts),
        joined by newlines.
    """
    parts: list[str] = []
    for message in request.get("messages") or []:
        if not isinstance(message, Mapping):
            continue
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                    parts.append(part["text"])
    return "\n".join(parts)


def _contains_key(obj: Any, keys: set[str]) -> bool:
    if isinstance(obj, Mapping):
        return any(k in keys or _contains_key(v, keys) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_contains_key(v, keys) for v in obj)
    return False


def _response_schema(request: Mapping[str, Any]) -> dict[str, Any] | None:
    fmt = request.get("response_format")
    if not isinstance(fmt, Mapping) or fmt.get("type") != "json_schema":
        return None
    spec = fmt.get("json_schema")
    if isinstance(spec, Mapping) and isinstance(spec.get("schema"), Mapping):
        return dict(spec["schema"])
    return None


def _count_items(request: Mapping[str, Any]) -> int:
    """Length of the longest JSON array embedded in the user messages (at least 1)."""
    decoder = json.JSONDecoder()
    best = 0
    for message in request.get("messages") or []:
        if not isinstance(message, Mapping) or message.get("role") != "user":
            continue
        text = message_text({"messages": [message]})
        pos = text.find("[")
        while pos != -1:
            try:
                value, end = decoder.raw_decode(text, pos)
            except ValueError:
                pos = text.find("[", pos + 1)
                continue
            if isinstance(value, list):
                best = max(best, len(value))
            pos = text.find("[", end)
    return max(best, 1)


def example_from_schema(
    schema: Mapping[str, Any],
    n_items: int = 1,
    *,
    _root: Mapping[str, Any] | None = None,
    _key: str | None = None,
) -> Any:
    """Build a small instance that satisfies a JSON schema.

    Required properties are filled in (all properties if none are required),
    strings become ``"..."`` (``"yes"`` for a property named ``verdict``), enums
    prefer ``"yes"``, numbers take their minimum
    or 0. Arrays get one element, except arrays of objects with an integer
    ``index`` or ``id`` property, which get ``n_items`` elements numbered from 0.

    Parameters
    ----------
    schema : mapping
        A JSON schema, possibly with ``$defs`` / ``$ref``.
    n_items : int
        Length of index-numbered arrays.

    Returns
    -------
    object
        A JSON-serialisable value.
    """
    root = schema if _root is None else _root
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        return example_from_schema(target, n_items, _root=root, _key=_key)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        enum = list(schema["enum"])
        return "yes" if "yes" in enum else enum[0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        options = schema.get(combinator)
        if options:
            chosen = next((o for o in options if o.get("type") != "null"), options[0])
            return example_from_schema(chosen, n_items, _root=root, _key=_key)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        props = schema.get("properties") or {}
        names = schema.get("required") or list(props)
        return {
            name: example_from_schema(props.get(name, {}), n_items, _root=root, _key=name)
            for name in names
        }
    if kind == "array":
        items = schema.get("items") or {}
        resolved = items
        while isinstance(resolved.get("$ref"), str):
            target = root
            for part in resolved["$ref"][2:].split("/"):
                target = target.get(part, {}) if isinstance(target, Mapping) else {}
            resolved = target
        props = resolved.get("properties") or {}
        counter = next(
            (
                k
                for k in ("index", "id")
                if isinstance(props.get(k), Mapping) and props[k].get("type") == "integer"
            ),
            None,
        )
        count = n_items if counter else 1
        count = max(count, int(schema.get("minItems", 0)))
        if "maxItems" in schema:
            count = min(count, int(schema["maxItems"]))
        out = []
        for i in range(count):
            element = example_from_schema(items, n_items, _root=root)
            if counter and isinstance(element, dict):
                element[counter] = i
            out.append(element)
        return out
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0.0))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    text = "yes" if _key == "verdict" else "..."
    min_length = int(schema.get("minLength", 0))
    return text + "." * max(0, min_length - len(text))


def default_responder(request: Mapping[str, Any]) -> str:
    """Reply with a minimal valid JSON object for the requested schema.

    Tests usually install their own responder; this default only keeps
    structured-output callers from failing. With a ``json_schema``
    ``response_format`` it returns :func:`example_from_schema` of that schema,
    where index-numbered verdict lists get one entry per element of the longest
    JSON array found in the user messages (the items to judge). Otherwise it
    returns ``"{}"``.

    Parameters
    ----------
    request : mapping
        The request JSON body.

    Returns
    -------
    str
        The assistant content.
    """
    schema = _response_schema(request)
    if schema is None:
        return "{}"
    return json.dumps(example_from_schema(schema, _count_items(request)))


def _malformed(content: str, serial: int = 0) -> str:
    """Broken JSON in chatty text. ``serial`` (the server's reply count) makes every
    injected fault's text its own: a random fault on a real server does not repeat byte
    for byte, while a deterministic model's bad reply does, and the engine stops asking
    after the same bad reply twice in a row (faulty_replies scripts that case)."""
    body = content.rstrip().rstrip("}]").rstrip() or "{"
    return (
        f"Sure! Here is the JSON you asked for (reply {serial}):\n{body}\n"
        "Let me know if you need anything else."
    )


# --------------------------------------------------------------------------- reply faults

#: Ways :func:`faulty_replies` spoils a correct reply (misbehaving judges seen in the wild).
REPLY_FAULTS = (
    "dotted",
    "markdown",
    "quoted",
    "one_based",
    "no_index",
    "short_all",
    "no_claims",
    "phantom_chunks",
)


def faulty_replies(
    responder: Callable[[dict[str, Any]], Any], mode: str | None = None, *, suffix: str = ""
) -> Callable[[dict[str, Any]], str]:
    """Wrap a responder so that its (correct) JSON replies come back spoiled.

    Parameters
    ----------
    responder : callable
        A responder returning the JSON text of a correct answer (e.g.
        ``tests.judge_replies.offline_responder()``).
    mode : str, optional
        One of :data:`REPLY_FAULTS`, applied to verdict replies (``{"verdicts": [...]}``):
        ``"dotted"`` writes each verdict word capitalised with a full stop (``"Yes."``),
        ``"markdown"`` in bold (``"**yes**"``), ``"quoted"`` in single quotes (``"'no'"``);
        ``"one_based"`` numbers the verdicts ``index + 1``; ``"no_index"`` leaves the
        ``index`` out; ``"short_all"`` keeps only the first verdict of each list;
        ``"no_claims"`` answers every claim extraction with ``{"claims": []}`` and every
        verdict task with ``{"verdicts": []}``; ``"phantom_chunks"`` adds chunks 7 and -1
        (which no row of fewer than 8 chunks has) to the supporting chunks of every ``yes``.
        None leaves the reply as it is.
    suffix : str, optional
        Text appended to every reply (a model's note after its answer).

    Returns
    -------
    callable
        A responder for :attr:`LLMServer.responder`.
    """
    if mode is not None and mode not in REPLY_FAULTS:
        raise ValueError(f"unknown reply fault {mode!r}; use one of {REPLY_FAULTS}")

    def respond(request: dict[str, Any]) -> str:
        text = responder(request)
        data = json.loads(text)
        verdicts = data.get("verdicts") if isinstance(data, dict) else None
        if mode == "no_claims" and isinstance(data, dict):
            data = {"claims": []} if "claims" in data else {"verdicts": []}
        elif isinstance(verdicts, list):
            for v in verdicts:
                word = str(v.get("verdict", ""))
                if mode == "dotted":
                    v["verdict"] = word.capitalize() + "."
                elif mode == "markdown":
                    v["verdict"] = f"**{word}**"
                elif mode == "quoted":
                    v["verdict"] = f"'{word}'"
                elif mode == "one_based":
                    v["index"] = int(v["index"]) + 1
                elif mode == "no_index":
                    v.pop("index", None)
                elif mode == "phantom_chunks" and word == "yes":
                    v["supporting_chunks"] = [*v.get("supporting_chunks", []), 7, -1]
            if mode == "short_all":
                data["verdicts"] = verdicts[:1]
        return json.dumps(data, ensure_ascii=False) + suffix

    return respond


# --------------------------------------------------------------------------- rules


def path_prefix_rule(prefix: str = "/v1") -> Rule:
    """Answer 404 to requests whose path does not start with ``prefix``.

    Imitates servers (vLLM, llama.cpp, LM Studio) that serve the API only under
    ``/v1``, so an ``api_base`` without it gets ``404 Not Found``.

    Parameters
    ----------
    prefix : str
        The path prefix the API lives under.

    Returns
    -------
    callable
        A rule for :attr:`LLMServer.rule`.
    """

    def rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
        if ctx.path.startswith(prefix.rstrip("/") + "/"):
            return None
        return Fault.error(404, "Not Found", error_type="not_found", code="")

    return rule


def context_length_rule(max_chars: int) -> Rule:
    """Reject requests whose message text is longer than ``max_chars`` characters.

    The 400 reply imitates OpenAI's (code ``context_length_exceeded``), which
    litellm maps to ``ContextWindowExceededError``.

    Parameters
    ----------
    max_chars : int
        Largest accepted total length of the message text.

    Returns
    -------
    callable
        A rule for :attr:`LLMServer.rule`.
    """

    def rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
        chars = len(message_text(request))
        if chars <= max_chars:
            return None
        return Fault.error(
            400,
            f"This model's maximum context length is {max_chars // 4} tokens. However, your "
            f"messages resulted in {chars // 4} tokens. Please reduce the length of the messages.",
            code="context_length_exceeded",
            param="messages",
        )

    return rule


def auth_rule(valid_key: str = "sk-test") -> Rule:
    """Answer 401 (invalid API key) unless the bearer token equals ``valid_key``.

    Parameters
    ----------
    valid_key : str
        The only accepted API key.

    Returns
    -------
    callable
        A rule for :attr:`LLMServer.rule`.
    """

    def rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
        if ctx.api_key == valid_key:
            return None
        return Fault.error(401, f"Incorrect API key provided: {ctx.api_key or '<none>'}.")

    return rule


def reject_refs_rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
    """Answer 400 when the ``response_format`` schema uses ``$defs`` or ``$ref``.

    Imitates providers whose structured-output support cannot resolve references.

    Parameters
    ----------
    request : dict
        The request JSON body.
    ctx : RequestContext
        Request context (unused).

    Returns
    -------
    Fault or None
    """
    fmt = request.get("response_format")
    if fmt is not None and _contains_key(fmt, {"$defs", "$ref", "definitions"}):
        return Fault.error(
            400,
            "Invalid schema for response_format: '$ref' and '$defs' are not supported.",
            code="invalid_json_schema",
            param="response_format",
        )
    return None


def json_object_only_rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
    """Answer 400 to ``json_schema`` response formats; ``{"type": "json_object"}`` passes.

    Parameters
    ----------
    request : dict
        The request JSON body.
    ctx : RequestContext
        Request context (unused).

    Returns
    -------
    Fault or None
    """
    fmt = request.get("response_format")
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema":
        return Fault.error(
            400,
            "Invalid parameter: 'response_format' of type 'json_schema' is not supported with "
            "this model. Use {'type': 'json_object'} instead.",
            code="unsupported_value",
            param="response_format",
        )
    return None


def reject_temperature_rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
    """Answer 400 ``Unsupported parameter: 'temperature'`` when the request sets it.

    Imitates reasoning models that only accept the default temperature.

    Parameters
    ----------
    request : dict
        The request JSON body.
    ctx : RequestContext
        Request context (unused).

    Returns
    -------
    Fault or None
    """
    if "temperature" in request:
        return Fault.error(
            400,
            "Unsupported parameter: 'temperature' is not supported with this model.",
            code="unsupported_parameter",
            param="temperature",
        )
    return None


def concurrency_limit_rule(max_in_flight: int, retry_after: float | None = None) -> Rule:
    """Answer 429 whenever more than ``max_in_flight`` requests are being handled.

    Parameters
    ----------
    max_in_flight : int
        Number of concurrent requests served normally.
    retry_after : float, optional
        ``Retry-After`` value; default :attr:`LLMServer.retry_after`.

    Returns
    -------
    callable
        A rule for :attr:`LLMServer.rule`.
    """

    def rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
        if ctx.in_flight > max_in_flight:
            return Fault.rate_limit(
                retry_after, f"Too many concurrent requests (>{max_in_flight})."
            )
        return None

    return rule


def combine_rules(*rules: Rule) -> Rule:
    """Chain rules: the first one returning a fault wins.

    Parameters
    ----------
    *rules : callable
        Rules with signature ``rule(request_json, ctx) -> Fault | None``.

    Returns
    -------
    callable
        A rule for :attr:`LLMServer.rule`.
    """

    def rule(request: dict[str, Any], ctx: RequestContext) -> Fault | None:
        for r in rules:
            fault = r(request, ctx)
            if fault is not None:
                return fault
        return None

    return rule


# --------------------------------------------------------------------------- server


def _error_body(fault: Fault) -> dict[str, Any]:
    return {
        "error": {
            "message": fault.message,
            "type": fault.error_type,
            "param": fault.param,
            "code": fault.code,
        }
    }


class LLMServer:
    """OpenAI-compatible chat-completions server running in a background thread.

    Every attribute below may be changed while the server runs, from any thread.

    Parameters
    ----------
    host : str
        Interface to bind.
    port : int
        Port; 0 picks a free one.
    seed : int
        Seed of the random generator used for :attr:`faults`.
    responder : callable, optional
        Initial :attr:`responder`; default :func:`default_responder`.
    latency : float or callable
        Initial :attr:`latency`.
    faults : mapping, optional
        Initial :attr:`faults`.
    retry_after : float
        Initial :attr:`retry_after`.
    slow_seconds : float
        Initial :attr:`slow_seconds`.
    max_log : int
        Number of request bodies kept in :attr:`log`.
    model : str
        Model id reported by ``GET /v1/models``.

    Attributes
    ----------
    responder : callable
        ``responder(request_json) -> str | dict`` (may be async). A string is the
        assistant content. A dict overrides parts of the reply: ``content`` (str or
        None), ``finish_reason``, ``usage`` (merged into the computed usage),
        ``reasoning_content``, ``headers``, ``status`` with ``error`` (a non-200
        status turns the reply into an error body carrying ``error`` as message),
        ``body`` (the whole JSON response) or ``raw`` (the raw response text).
        Setting it to None restores :func:`default_responder`.
    latency : float or callable
        Seconds from receiving a request to sending a normal reply (the time spent
        computing the reply counts toward it), or ``latency(request_json) -> float``.
        Errors from faults and rules are immediate unless the fault has a delay.
    faults : dict of str to float
        Probability per request of each fault: HTTP statuses as strings
        (``"429"``, ``"500"``, ``"503"``, ...), ``"malformed"``, ``"truncated"``,
        ``"timeout"``. One draw from the seeded generator per request; the rates
        must sum to at most 1.
    script_statuses : list
        Consumed one entry per request before anything else: an HTTP status (200
        means "handle normally"), a fault key such as ``"malformed"``, or a
        :class:`Fault`.
    rule : callable or None
        ``rule(request_json, ctx) -> Fault | None`` checked after the script and
        before random faults; ``ctx`` is a :class:`RequestContext`.
    retry_after : float
        ``Retry-After`` seconds sent with 429 replies.
    slow_seconds : float
        Sleep of the ``"timeout"`` fault (default 120; the client should give up).
    requests : int
        Chat-completion requests received.
    in_flight, max_in_flight : int
        Requests being handled now, and the most at any time.
    status_counts : collections.Counter
        Replies sent per HTTP status (a copy).
    fault_counts : collections.Counter
        Injected faults per kind: ``"429"``, ``"malformed"``, ... (a copy).
    cancelled : int
        Requests abandoned by the client before the reply was sent.
    log : list of dict
        The last ``max_log`` request bodies (a copy).
    errors : list of str
        Exceptions raised by responders, rules or latency callables.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        seed: int = 0,
        responder: Callable[[dict[str, Any]], Any] | None = None,
        latency: float | Callable[[dict[str, Any]], float] = 0.0,
        faults: Mapping[str, float] | None = None,
        retry_after: float = 1.0,
        slow_seconds: float = 120.0,
        max_log: int = 10_000,
        model: str = "test-model",
    ) -> None:
        self.host = host
        self.port = port
        self.model = model
        self.max_log = max_log
        self.seed = seed
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self._responder: Callable[[dict[str, Any]], Any] = responder or default_responder
        self.latency: float | Callable[[dict[str, Any]], float] = latency
        self._faults: list[tuple[float, str]] = []
        self.faults = dict(faults or {})
        self.script_statuses: list[int | str | Fault] = []
        self.rule: Rule | None = None
        self.retry_after = retry_after
        self.slow_seconds = slow_seconds
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._ids = 0
        self._zero_counters()

    # ---------------------------------------------------------------- config

    @property
    def responder(self) -> Callable[[dict[str, Any]], Any]:
        """Reply callable; see the class docstring."""
        return self._responder

    @responder.setter
    def responder(self, value: Callable[[dict[str, Any]], Any] | None) -> None:
        self._responder = value or default_responder

    @property
    def faults(self) -> dict[str, float]:
        """Fault probabilities; see the class docstring."""
        return {key: rate for rate, key in self._faults}

    @faults.setter
    def faults(self, value: Mapping[str, float] | None) -> None:
        table = []
        for key, rate in (value or {}).items():
            _fault_from_key(key)  # validate
            if rate < 0:
                raise ValueError(f"negative fault rate for {key!r}")
            if rate > 0:
                table.append((float(rate), str(key)))
        if sum(rate for rate, _ in table) > 1.0 + 1e-9:
            raise ValueError("fault rates sum to more than 1")
        self._faults = table

    # ---------------------------------------------------------------- counters

    def _zero_counters(self) -> None:
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.cancelled = 0
        self._status_counts: Counter[int] = Counter()
        self._fault_counts: Counter[str] = Counter()
        self._log: list[dict[str, Any]] = []
        self.errors: list[str] = []

    @property
    def status_counts(self) -> Counter[int]:
        """Replies sent per HTTP status (a copy)."""
        with self._lock:
            return Counter(self._status_counts)

    @property
    def fault_counts(self) -> Counter[str]:
        """Injected faults per kind (a copy)."""
        with self._lock:
            return Counter(self._fault_counts)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The last ``max_log`` request bodies, oldest first (a copy)."""
        with self._lock:
            return list(self._log)

    def reset(self) -> None:
        """Zero the counters, clear the log and errors, and reseed the random generator.

        Configuration (responder, latency, faults, script, rule) is kept.
        ``in_flight`` keeps counting requests that are still being handled.
        """
        with self._lock:
            in_flight = self.in_flight
            self._zero_counters()
            self.in_flight = in_flight
            self.max_in_flight = in_flight
            self._rng = random.Random(self.seed)

    # ---------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        """``http://host:port`` of the running server."""
        return f"http://{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """``http://host:port/v1``, the ``api_base`` to give litellm."""
        return self.base_url + "/v1"

    def start(self, timeout: float = 10.0) -> LLMServer:
        """Start serving in a background thread; return once the port accepts connections.

        Parameters
        ----------
        timeout : float
            Seconds to wait for the server to come up.

        Returns
        -------
        LLMServer
            ``self``.
        """
        if self._thread is not None:
            raise RuntimeError("server already started")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        self._ready.clear()
        self._start_error = None
        self._thread = threading.Thread(
            target=self._serve_in_thread, args=(sock,), name=f"llm-server-{self.port}", daemon=True
        )
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("LLM test server did not start in time")
        if self._start_error is not None:
            self._thread.join()
            self._thread = None
            raise RuntimeError("LLM test server failed to start") from self._start_error
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server, abort pending requests and join its thread.

        Parameters
        ----------
        timeout : float
            Seconds to wait for the thread to finish.
        """
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        if not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self._thread = None

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _serve_in_thread(self, sock: socket.socket) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._setup(sock))
        except BaseException as exc:  # reported by start()
            self._start_error = exc
            sock.close()
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            try:
                if self._runner is not None:
                    loop.run_until_complete(self._runner.cleanup())
                pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
                for task in pending:
                    task.cancel()
                if pending:
                    loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
                loop.run_until_complete(loop.shutdown_asyncgens())
            finally:
                loop.close()

    async def _setup(self, sock: socket.socket) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.SockSite(self._runner, sock, backlog=2048, shutdown_timeout=0.5)
        await site.start()

    # ---------------------------------------------------------------- handlers

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = request.path.rstrip("/")
        if path.endswith("/chat/completions") and request.method == "POST":
            return await self._chat(request)
        if path.endswith("/models") and request.method == "GET":
            return web.json_response(
                {
                    "object": "list",
                    "data": [
                        {"id": self.model, "object": "model", "created": 0, "owned_by": "tests"}
                    ],
                }
            )
        fault = Fault.error(404, f"Unknown route {request.method} {request.path}")
        return web.json_response(_error_body(fault), status=404)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("body is not a JSON object")
        except ValueError as exc:
            fault = Fault.error(400, f"Could not parse the JSON body: {exc}")
            self._count_status(400)
            return web.json_response(_error_body(fault), status=400)
        with self._lock:
            self.requests += 1
            number = self.requests
            self.in_flight += 1
            in_flight = self.in_flight
            if in_flight > self.max_in_flight:
                self.max_in_flight = in_flight
            self._log.append(data)
            if len(self._log) > self.max_log:
                del self._log[: len(self._log) - self.max_log]
        response: web.StreamResponse | None = None
        try:
            ctx = RequestContext(self, number, in_flight, _lower_headers(request), request.path)
            response = await self._respond(request, data, ctx)
            return response
        except asyncio.CancelledError:
            with self._lock:
                self.cancelled += 1
            raise
        except Exception as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")
            fault = Fault.error(500, f"Test server error: {type(exc).__name__}: {exc}")
            response = web.json_response(_error_body(fault), status=500)
            return response
        finally:
            with self._lock:
                self.in_flight -= 1
                if response is not None:
                    self._status_counts[response.status] += 1

    def _count_status(self, status: int) -> None:
        with self._lock:
            self._status_counts[status] += 1

    async def _next_fault(self, data: dict[str, Any], ctx: RequestContext) -> Fault | None:
        entry: int | str | Fault | None = None
        with self._lock:
            if self.script_statuses:
                entry = self.script_statuses.pop(0)
        if entry is not None:
            if isinstance(entry, Fault):
                return entry
            if str(entry) != "200":
                return _fault_from_key(entry)
        rule = self.rule
        if rule is not None:
            fault = rule(data, ctx)
            if inspect.isawaitable(fault):
                fault = await fault
            if fault is not None:
                return fault
        table = self._faults
        if table:
            with self._lock:
                draw = self._rng.random()
            total = 0.0
            for rate, key in table:
                total += rate
                if draw < total:
                    return _fault_from_key(key)
        return None

    async def _respond(
        self, request: web.Request, data: dict[str, Any], ctx: RequestContext
    ) -> web.StreamResponse:
        fault = await self._next_fault(data, ctx)
        if fault is not None:
            with self._lock:
                key = str(fault.status) if fault.kind == "error" else fault.kind
                self._fault_counts[key] += 1
        if fault is not None and fault.kind == "error":
            if fault.delay:
                await asyncio.sleep(fault.delay)
            headers = dict(fault.headers)
            if fault.status == 429 and not any(h.lower() == "retry-after" for h in headers):
                headers["Retry-After"] = _format_seconds(self.retry_after)
            return web.json_response(_error_body(fault), status=fault.status, headers=headers)
        if fault is not None and fault.kind == "timeout":
            await asyncio.sleep(self.slow_seconds if fault.delay is None else fault.delay)
        if fault is not None and fault.kind == "disconnect":
            cut = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
            cut.content_length = 4096  # promised, never sent in full
            await cut.prepare(request)
            await cut.write(b'{"id": "chatcmpl-cut", "choices": [')
            if request.transport is not None:
                request.transport.close()
            return cut

        # the latency is the time from here to the reply: computing the reply counts
        # toward it, so a busy server still answers in `latency` seconds
        started = time.perf_counter()
        latency = self.latency
        if callable(latency):
            latency = latency(data)

        reply = self.responder(data)
        if inspect.isawaitable(reply):
            reply = await reply
        if latency and latency > 0:
            remaining = latency - (time.perf_counter() - started)
            if remaining > 0:
                await asyncio.sleep(remaining)
        override: dict[str, Any] = {"content": reply} if isinstance(reply, str) else dict(reply)
        headers = dict(override.get("headers") or {})
        status = int(override.get("status", 200))
        if "raw" in override:
            return web.Response(
                text=override["raw"],
                status=status,
                headers=headers,
                content_type="application/json",
            )
        if status != 200:
            err = Fault.error(status, override.get("error"))
            if status == 429:
                headers.setdefault("Retry-After", _format_seconds(self.retry_after))
            return web.json_response(_error_body(err), status=status, headers=headers)

        content = override.get("content", "")
        finish_reason = override.get("finish_reason", "stop")
        if fault is not None and isinstance(content, str):
            if fault.kind == "malformed":
                content = _malformed(content, self.requests)
            elif fault.kind == "truncated":
                content = content[: len(content) // 2]
                finish_reason = "length"

        if "body" in override:
            body = override["body"]
        else:
            prompt_tokens = len(message_text(data)) // 4
            completion_tokens = len(content or "") // 4
            usage = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
            usage.update(override.get("usage") or {})
            message: dict[str, Any] = {"role": "assistant", "content": content}
            if "reasoning_content" in override:
                message["reasoning_content"] = override["reasoning_content"]
            with self._lock:
                self._ids += 1
                completion_id = f"chatcmpl-test{self._ids}"
            body = {
                "id": completion_id,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": data.get("model") or self.model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
                "usage": usage,
            }
        if data.get("stream"):
            return await self._stream(request, body, data, headers)
        return web.json_response(body, headers=headers)

    async def _stream(
        self,
        request: web.Request,
        body: dict[str, Any],
        data: dict[str, Any],
        headers: dict[str, str],
    ) -> web.StreamResponse:
        """Send ``body`` as server-sent chat.completion.chunk events."""
        response = web.StreamResponse(headers={**headers, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        choice = body["choices"][0]
        base = {k: body[k] for k in ("id", "created", "model")} | {
            "object": "chat.completion.chunk"
        }
        delta = {"role": "assistant", "content": choice["message"].get("content")}
        chunks = [
            base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            base
            | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
        ]
        if (data.get("stream_options") or {}).get("include_usage"):
            chunks.append(base | {"choices": [], "usage": body.get("usage")})
        for chunk in chunks:
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


def _lower_headers(request: web.Request) -> dict[str, str]:
    return {k.lower(): v for k, v in request.headers.items()}


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> None:
    """Serve in the foreground until interrupted (for benchmarks).

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments; default ``sys.argv[1:]``.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per reply")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--faults", default="", help="comma-separated kind=rate, e.g. 429=0.05,malformed=0.02"
    )
    parser.add_argument("--max-in-flight", type=int, default=0, help="429 above this concurrency")
    parser.add_argument("--retry-after", type=float, default=1.0, help="Retry-After of 429s, s")
    parser.add_argument(
        "--offline-replies",
        action="store_true",
        help="answer ragnotebook prompts like the offline judge (tests/judge_replies.py)",
    )
    args = parser.parse_args(argv)
    faults = {}
    for item in filter(None, args.faults.split(",")):
        key, _, rate = item.partition("=")
        faults[key.strip()] = float(rate)
    server = LLMServer(
        args.host,
        args.port,
        seed=args.seed,
        latency=args.latency,
        faults=faults,
        retry_after=args.retry_after,
    )
    if args.offline_replies:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.judge_replies import offline_responder

        server.responder = offline_responder()
    if args.max_in_flight:
        server.rule = concurrency_limit_rule(args.max_in_flight)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    server.start()
    print(f"LLM test server listening on {server.url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        print(f"served {server.requests} requests: {dict(server.status_counts)}", flush=True)


if __name__ == "__main__":
    main()
