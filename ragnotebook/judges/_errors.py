"""Mapping provider errors to JudgeError codes, and Retry-After parsing."""

from __future__ import annotations

import email.utils
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragnotebook.judges.base import JudgeError

_REF_WORDS = ("$ref", "$defs", "definitions", "reference", "ref ")
_FORMAT_WORDS = (
    "response_format",
    "response format",
    "json_schema",
    "json schema",
    "json_object",
    "$ref",
    "$defs",
    "schema",
    "structured output",
    "guided_json",
)
_CONTEXT_WORDS = (
    "context_length_exceeded",
    "maximum context length",
    "context window",
    "context length",
    "prompt is too long",
    "too many tokens",
    "input is too long",
)


# --------------------------------------------------------------------------- usage


def _headers_of(exc: BaseException) -> Mapping[str, str]:
    """Response headers of a litellm/OpenAI exception (lower-case keys), if any."""
    for source in (
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        if source is not None:
            try:
                return {str(k).lower(): str(v) for k, v in source.items()}
            except Exception:  # an unexpected headers type: try the next source
                continue
    return {}


def _parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or HTTP date)."""
    for name in ("retry-after-ms", "llm_provider-retry-after-ms"):
        value = headers.get(name)
        if value:
            try:
                seconds = float(value) / 1000.0
            except ValueError:
                continue
            if math.isfinite(seconds):
                return max(0.0, seconds)
    for name in ("retry-after", "llm_provider-retry-after"):
        value = headers.get(name)
        if not value:
            continue
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                continue
            seconds = when.timestamp() - (time.time() if now is None else now)
        if math.isfinite(seconds):
            return max(0.0, seconds)
    return None


@dataclass(frozen=True, slots=True)
class _ErrorInfo:
    status: int | None
    message: str
    code: str
    param: str

    @property
    def lower(self) -> str:
        return f"{self.message} {self.code} {self.param}".lower()


def _error_info(exc: BaseException) -> _ErrorInfo:
    status = getattr(exc, "status_code", None)
    try:
        status = int(status) if status is not None else None
    except (TypeError, ValueError):
        status = None
    body = getattr(exc, "body", None)
    code = param = ""
    if isinstance(body, Mapping):
        inner = body.get("error")
        err: Mapping[str, Any] = inner if isinstance(inner, Mapping) else body
        code = str(err.get("code") or "")
        param = str(err.get("param") or "")
    if not code and isinstance(getattr(exc, "code", None), str):
        code = str(exc.code)  # type: ignore[attr-defined]
    return _ErrorInfo(status, str(exc), code, param)


def _caused_by_connection(exc: BaseException) -> bool:
    seen = 0
    node: BaseException | None = exc
    while node is not None and seen < 10:
        name = type(node).__name__
        if "APIConnectionError" in name or "ConnectError" in name or "ConnectorError" in name:
            return True
        if isinstance(node, ConnectionError):
            return True
        node = node.__cause__ or node.__context__
        seen += 1
    return "connection error" in str(exc).lower()


def _is_context_error(exc: BaseException, info: _ErrorInfo) -> bool:
    if type(exc).__name__ == "ContextWindowExceededError":
        return True
    return info.status in (400, 413, 422, None) and any(w in info.lower for w in _CONTEXT_WORDS)


def _is_bad_request(exc: BaseException, info: _ErrorInfo) -> bool:
    name = type(exc).__name__
    return info.status in (400, 422) or name in ("BadRequestError", "UnsupportedParamsError")


#: How clients say no API key was configured at all (no request was sent): permanent.
_MISSING_KEY = re.compile(
    r"missing credentials|api_key client option must be set|no api key provided|"
    r"api key (is )?(required|missing|not (set|found))"
)


#: errors raised when no connection could be made, so no request left the machine
#: (httpx's, aiohttp's and the OS's names; litellm and our transport chain them as causes)
_NOT_CONNECTED = frozenset(
    {
        "ConnectError",
        "ClientConnectorError",
        "ClientConnectorDNSError",
        "ConnectionRefusedError",
    }
)


def _never_sent(exc: BaseException) -> bool:
    """Whether the request never reached a server: the client refused it (no API key at
    all) or no connection could be made (refused, unknown host), read along the chain of
    causes. A timeout or a dropped connection may have reached it, and counts as sent.

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise ConnectionRefusedError(111, "Connect call failed")
    ...     except OSError as cause:
    ...         raise RuntimeError("Connection error.") from cause
    ... except RuntimeError as exc:
    ...     _never_sent(exc)
    True
    >>> _never_sent(TimeoutError("no reply"))
    False
    """
    if type(exc).__name__ == "MissingCredentialsError" or _MISSING_KEY.search(str(exc).lower()):
        return True
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if type(link).__name__ in _NOT_CONNECTED:
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def _not_found_hint(api_base: str | None) -> str:
    """What a 404 from ``api_base`` most likely means, naming the URL that was asked.

    Examples
    --------
    >>> print(_not_found_hint("http://127.0.0.1:8000"))
     (POST http://127.0.0.1:8000/chat/completions answered 404 Not Found; OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, Ollama) serve the API under /v1: try api_base='http://127.0.0.1:8000/v1')
    >>> print(_not_found_hint("http://127.0.0.1:8000/v1/"))
     (POST http://127.0.0.1:8000/v1/chat/completions answered 404 Not Found; check the model name: GET http://127.0.0.1:8000/v1/models lists the ones the server has)
    >>> print(_not_found_hint("http://127.0.0.1:8000/v2"))
     (POST http://127.0.0.1:8000/v2/chat/completions answered 404 Not Found; check the model name (GET http://127.0.0.1:8000/v2/models lists the ones the server has) and the path: OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, Ollama) serve the API under /v1, not /v2)
    >>> _not_found_hint(None)
    ''
    """
    if not api_base:
        return ""
    base = api_base.rstrip("/")
    said = f" (POST {base}/chat/completions answered 404 Not Found; "
    if re.search(r"/v1$", base):
        return said + f"check the model name: GET {base}/models lists the ones the server has)"
    if re.search(r"/v\d+$", base):
        return (
            said + f"check the model name (GET {base}/models lists the ones the server has) "
            "and the path: OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, Ollama) "
            f"serve the API under /v1, not {base[base.rfind('/') :]})"
        )
    return (
        said + "OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, Ollama) serve the API "
        f"under /v1: try api_base={base + '/v1'!r})"
    )


def _unwrapped(name: str, text: str) -> str:
    """``text`` without the class names litellm repeats in front of it.

    Examples
    --------
    >>> _unwrapped("InternalServerError",
    ...            "litellm.InternalServerError: InternalServerError: OpenAIException - No key")
    'OpenAIException - No key'
    >>> _unwrapped("RateLimitError", "Rate limit reached")
    'Rate limit reached'
    """
    prefix = re.compile(rf"^\s*(?:litellm\.)?{re.escape(name)}:\s*")
    while prefix.match(text):
        text = prefix.sub("", text, count=1)
    return text


def _map_error(exc: BaseException, redact: Any, api_base: str | None = None) -> JudgeError:
    """Translate a litellm/OpenAI/httpx exception into a JudgeError with a code.

    ``api_base``, when given, is named in the message of a 404 with the likely fix.
    """
    info = _error_info(exc)
    name = type(exc).__name__
    message = redact(f"{name}: {_unwrapped(name, info.message)}" if info.message else name)
    status = info.status
    if _is_context_error(exc, info):
        return JudgeError(message, code="context_too_long")
    if name == "AuthenticationError" or status == 401 or _MISSING_KEY.search(info.lower):
        return JudgeError(message, code="auth_error")
    if name == "PermissionDeniedError" or status == 403:
        return JudgeError(message, code="auth_error")
    if name == "RateLimitError" or status == 429:
        if "insufficient_quota" in info.lower or "exceeded your current quota" in info.lower:
            return JudgeError(message, code="quota_exceeded")
        return JudgeError(
            message,
            code="rate_limited",
            retryable=True,
            retry_after=_parse_retry_after(_headers_of(exc)),
        )
    if name in ("Timeout", "APITimeoutError", "TimeoutError") or status == 408:
        return JudgeError(message, code="timeout", retryable=True)
    if name == "NotJSONReplyError":
        # a page instead of the API's JSON: repeated by the same request, so it ends its
        # retries as an unparseable reply does (engine: two identical replies)
        return JudgeError(
            message, code="parse_error", retryable=True, raw=getattr(exc, "body", None)
        )
    if name == "APIConnectionError" or (
        (status is None or status == 500) and _caused_by_connection(exc)
    ):
        return JudgeError(message, code="connection_error", retryable=True)
    if (status is not None and status >= 500) or name in (
        "InternalServerError",
        "ServiceUnavailableError",
        "APIError",
    ):
        return JudgeError(
            message,
            code="server_error",
            retryable=True,
            retry_after=_parse_retry_after(_headers_of(exc)),
        )
    if name == "ContentPolicyViolationError":
        return JudgeError(message, code="content_filter")
    if name == "NotFoundError" or status == 404:
        hint = redact(_not_found_hint(api_base))
        return JudgeError(message + hint, code="bad_request", status=404)
    if _is_bad_request(exc, info):
        return JudgeError(message, code="bad_request")
    return JudgeError(message, code="error")


def _next_mode(mode: str, lowered_error: str) -> str | None:
    """The structured-output mode to try after ``mode`` was rejected."""
    if mode == "json_schema":
        if any(w in lowered_error for w in _REF_WORDS):
            return "json_schema_inline"
        return "json_object"
    if mode == "json_schema_inline":
        return "json_object"
    if mode == "json_object":
        return "prompt"
    return None
