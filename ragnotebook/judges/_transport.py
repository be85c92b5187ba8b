"""How a :class:`~ragnotebook.judges.llm.LiteLLMJudge` sends one chat-completions request.

Two transports, chosen per judge (``transport=`` option):

``"litellm"``
    ``litellm.acompletion``: every provider litellm knows (OpenAI, Anthropic, Azure,
    Bedrock, Vertex, Ollama, ...), with its parameter mapping and price map.
``"openai"``
    One ``POST {api_base}/chat/completions`` with aiohttp (a dependency of litellm)
    to an OpenAI-compatible server (vLLM, llama.cpp, LM Studio, TGI, Ollama's
    ``/v1``, a litellm proxy, ...). The body is the one litellm sends for an
    ``openai/<name>`` model with a custom ``api_base``: the model name without the
    ``openai/`` prefix, the messages, ``max_tokens``, ``temperature``,
    ``response_format`` and the standard options. It skips litellm's per-call
    bookkeeping (logging objects, model-info lookups, price calculation), which
    costs 5-15 ms of CPU per call on a small machine and caps a fast local server
    at about 100 calls a second; the OpenAI SDK's request building and response
    models cost 1-2 ms more than this (measurements in ``docs/performance.md``).
    Errors carry the HTTP status, the error body and the headers, so they map to
    the same :class:`~ragnotebook.judges.base.JudgeError` codes as litellm's. What
    litellm would rename for a known model the judge learns from the first 400
    instead: a rejected ``temperature`` is dropped, and a budget wanted as
    ``max_completion_tokens`` is sent under that name.
``"auto"`` (default)
    ``"openai"`` for an ``openai/...`` model with an ``api_base`` and only options the
    Chat Completions API defines (:data:`OPENAI_OPTIONS`); ``"litellm"`` otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import weakref
from collections.abc import AsyncIterator, Mapping
from typing import Any

from ragnotebook._textsafe import replace_surrogates

#: Judge transports (see the module docstring).
TRANSPORTS = ("auto", "litellm", "openai")

#: Options the ``"openai"`` transport passes to ``chat.completions.create`` as they are.
#: A judge with any other option (``custom_llm_provider``, ``drop_params``,
#: ``metadata``, ``input_cost_per_token``, ...) uses litellm, which understands them.
OPENAI_OPTIONS = frozenset(
    {
        "extra_body",
        "extra_headers",
        "extra_query",
        "frequency_penalty",
        "logit_bias",
        "max_completion_tokens",
        "presence_penalty",
        "reasoning_effort",
        "response_format",
        "seed",
        "service_tier",
        "stop",
        "top_p",
        "user",
    }
)

_PREFIX = "openai/"


def resolve_transport(
    transport: str, model: str, api_base: str | None, options: Mapping[str, Any]
) -> str:
    """The transport a judge uses: ``"litellm"`` or ``"openai"``.

    Parameters
    ----------
    transport : {"auto", "litellm", "openai"}
    model : str
        The litellm model string.
    api_base : str or None
    options : mapping
        The judge's extra request options.

    Returns
    -------
    str
        ``"openai"`` or ``"litellm"``.

    Raises
    ------
    ValueError
        ``transport`` is unknown, or ``"openai"`` was asked for a model that is not
        ``openai/<name>`` with an ``api_base``, or with options the SDK does not take.

    Examples
    --------
    >>> resolve_transport("auto", "openai/qwen2.5", "http://127.0.0.1:8000/v1", {})
    'openai'
    >>> resolve_transport("auto", "openai/gpt-4o-mini", None, {})
    'litellm'
    >>> resolve_transport("auto", "openai/qwen2.5", "http://h/v1", {"drop_params": True})
    'litellm'
    >>> resolve_transport("litellm", "openai/qwen2.5", "http://h/v1", {})
    'litellm'
    """
    if transport not in TRANSPORTS:
        raise ValueError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    if transport == "litellm":
        return "litellm"
    eligible = model.startswith(_PREFIX) and len(model) > len(_PREFIX) and bool(api_base)
    unknown = sorted(k for k in options if k not in OPENAI_OPTIONS)
    if transport == "openai":
        if not eligible:
            raise ValueError(
                "transport='openai' needs an 'openai/<name>' model and an api_base "
                f"(an OpenAI-compatible server); got model={model!r}, api_base={api_base!r}"
            )
        if unknown:
            raise ValueError(
                f"transport='openai' does not take the litellm options {unknown}; "
                "use transport='litellm'"
            )
        return "openai"
    return "openai" if eligible and not unknown else "litellm"


class APIStatusError(Exception):
    """A non-2xx reply from an OpenAI-compatible server (``"openai"`` transport).

    Subclasses are named after the status, as the OpenAI SDK names its errors
    (``BadRequestError``, ``RateLimitError``, ...), so messages read the same on
    both transports.

    Parameters
    ----------
    status_code : int
        The HTTP status.
    message : str
        The error body's ``error.message``, or the body's text.
    body : dict or None
        The error body's ``error`` object (or the whole JSON body).
    headers : mapping
        Response headers (``Retry-After`` is read from them).

    Attributes
    ----------
    status_code, body
        As given.
    response
        An object whose ``headers`` are the response headers.

    Examples
    --------
    >>> err = error_for_status(429, "slow down", None, {"Retry-After": "2"})
    >>> type(err).__name__, err.status_code, str(err)
    ('RateLimitError', 429, 'Error code: 429 - slow down')
    """

    def __init__(
        self, status_code: int, message: str, body: Any, headers: Mapping[str, str]
    ) -> None:
        super().__init__(f"Error code: {status_code} - {message}")
        self.status_code = status_code
        self.body = body
        self.response = _Headers(headers)


class _Headers:
    __slots__ = ("headers",)

    def __init__(self, headers: Mapping[str, str]) -> None:
        self.headers = dict(headers)


class BadRequestError(APIStatusError):
    """HTTP 400 (and 422) from the server."""


class AuthenticationError(APIStatusError):
    """HTTP 401 from the server, or no API key to send."""


class PermissionDeniedError(APIStatusError):
    """HTTP 403 from the server."""


class NotFoundError(APIStatusError):
    """HTTP 404 from the server (a wrong ``api_base`` or model name)."""


class RateLimitError(APIStatusError):
    """HTTP 429 from the server."""


class InternalServerError(APIStatusError):
    """HTTP 5xx from the server."""


class APIConnectionError(Exception):
    """The server could not be reached or dropped the connection (no HTTP status)."""


class NotJSONReplyError(Exception):
    """A 2xx reply whose body is no JSON object (a web UI's page, a proxy's notice): as
    unusable as a reply that cannot be parsed, and as likely to come again.

    Parameters
    ----------
    message : str
        What was received and where.
    body : str
        The reply's text.
    """

    def __init__(self, message: str, body: str) -> None:
        super().__init__(message)
        self.body = body


class MissingCredentialsError(Exception):
    """No API key to send (none given, no ``OPENAI_API_KEY``); nothing was sent."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    422: BadRequestError,
    429: RateLimitError,
}


def error_for_status(
    status: int, message: str, body: Any, headers: Mapping[str, str]
) -> APIStatusError:
    """The :class:`APIStatusError` subclass for an HTTP status.

    Parameters
    ----------
    status : int
    message : str
    body : dict or None
    headers : mapping

    Returns
    -------
    APIStatusError

    Examples
    --------
    >>> type(error_for_status(503, "busy", None, {})).__name__
    'InternalServerError'
    """
    cls = _BY_STATUS.get(status) or (InternalServerError if status >= 500 else APIStatusError)
    return cls(status, message, body, headers)


class _Namespace:
    """Attribute access over a reply's JSON (``reply.choices[0].message.content``)."""

    __slots__ = ("__dict__",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        for key, value in data.items():
            setattr(self, str(key), _wrap(value))

    def __getattr__(self, name: str) -> Any:  # absent fields read as None
        return None


def _wrap(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _Namespace(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class OpenAICompatibleTransport:
    """Sends chat-completions requests with aiohttp, one session per event loop.

    An aiohttp session belongs to the event loop it was made on, and a judge is
    used from the engine's private loop and from callers' loops (the
    ``a``-twins), so sessions are kept per loop for the length of a
    :meth:`session`.

    Parameters
    ----------
    model : str
        ``"openai/<name>"``; ``<name>`` is sent as the request's ``model``.
    api_base : str
        The server's base URL (``.../v1``); requests go to
        ``{api_base}/chat/completions``.
    api_key : str or None
        Sent as ``Authorization: Bearer ...``. None falls back to
        ``OPENAI_API_KEY``, as litellm does; with neither, a call fails with
        :class:`MissingCredentialsError` before anything is sent (pass any string
        to a server without authentication).
    timeout : float
        Seconds per request.

    Examples
    --------
    >>> t = OpenAICompatibleTransport("openai/qwen2.5", "http://127.0.0.1:8000/v1/", None, 30.0)
    >>> t.request_model, t.url
    ('qwen2.5', 'http://127.0.0.1:8000/v1/chat/completions')
    """

    def __init__(self, model: str, api_base: str, api_key: str | None, timeout: float) -> None:
        self.request_model = model[len(_PREFIX) :]
        self.url = api_base.rstrip("/") + "/chat/completions"
        self._api_key = api_key
        self.timeout = timeout
        self._proxy = _proxy_for(self.url)
        #: per event loop: [aiohttp.ClientSession, number of open sessions]
        self._sessions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[Any]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Any]:
        """Keep one HTTP session (and its connections) open on the running loop.

        Sessions nest and may overlap; the HTTP session is closed when the last
        one on its loop ends. The engine holds one for a whole run, so a run
        reuses connections; a call outside any session opens and closes its own.

        Yields
        ------
        aiohttp.ClientSession
        """
        import aiohttp

        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._sessions.get(loop)
            if entry is None:
                entry = [aiohttp.ClientSession(), 0]
                self._sessions[loop] = entry
            entry[1] += 1
        try:
            yield entry[0]
        finally:
            with self._lock:
                entry[1] -= 1
                last = entry[1] == 0 and self._sessions.get(loop) is entry
                if last:
                    del self._sessions[loop]
            if last:
                await entry[0].close()

    def _request(self, kwargs: Mapping[str, Any]) -> tuple[bytes, dict[str, str], Any]:
        key = self._api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            raise MissingCredentialsError(
                "missing credentials: no API key was given and OPENAI_API_KEY is not set, so "
                "nothing was sent; pass api_key= (any string for a server without "
                "authentication)"
            )
        body: dict[str, Any] = {"model": self.request_model}
        headers = {
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "User-Agent": f"ragnotebook/{_version()}",
        }
        params = None
        for name, value in kwargs.items():
            if name in _CONSUMED:
                continue
            if name == "extra_headers":
                headers.update({str(k): str(v) for k, v in (value or {}).items()})
            elif name == "extra_query":
                params = value
            elif name == "extra_body":
                body.update(value or {})
            else:
                body[name] = value
        # a lone surrogate cannot be sent as UTF-8: it goes as U+FFFD
        data = replace_surrogates(json.dumps(body, ensure_ascii=False)).encode("utf-8")
        return data, headers, params

    async def acompletion(self, kwargs: Mapping[str, Any]) -> Any:
        """Send one request built for ``litellm.acompletion`` (same keyword arguments).

        Parameters
        ----------
        kwargs : mapping
            ``model``, ``messages``, ``max_tokens``, optional ``temperature`` and
            ``response_format``, and :data:`OPENAI_OPTIONS`. litellm-only keys
            (``api_base``, ``api_key``, ``timeout``, ``num_retries``,
            ``max_retries``) are dropped; ``extra_headers``, ``extra_query`` and
            ``extra_body`` are applied as the OpenAI SDK applies them.

        Returns
        -------
        object
            The reply's JSON with attribute access: ``choices[0].message.content``,
            ``choices[0].finish_reason``, ``usage.prompt_tokens``,
            ``usage.completion_tokens`` (absent fields read as None).

        Raises
        ------
        APIStatusError
            A non-2xx reply (subclass by status), or a 2xx reply that is not JSON.
        APIConnectionError
            The connection failed or was dropped.
        MissingCredentialsError
            No API key to send.
        TimeoutError
            No reply within ``timeout`` seconds.
        """
        import aiohttp

        data, headers, params = self._request(kwargs)
        timeout = aiohttp.ClientTimeout(total=self.timeout)
        async with self.session() as http:
            try:
                async with http.post(
                    self.url,
                    data=data,
                    headers=headers,
                    params=params,
                    timeout=timeout,
                    proxy=self._proxy,
                ) as response:
                    status = response.status
                    raw = await response.read()
                    reply_headers = {k.lower(): v for k, v in response.headers.items()}
            except TimeoutError:
                raise
            except (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError) as exc:
                # reached, then cut off: not a server that cannot be reached
                raise APIConnectionError(
                    f"Connection error: {self.url} closed the connection before its reply "
                    f"was complete ({type(exc).__name__}: {exc})"
                ) from exc
            except aiohttp.ClientError as exc:
                cause = getattr(exc, "os_error", None) or exc
                raise APIConnectionError(
                    f"Connection error: cannot reach {self.url} ({type(cause).__name__}: {cause})"
                ) from exc
        text = raw.decode("utf-8", errors="replace")
        try:
            payload = json.loads(text) if text.strip() else None
        except ValueError:
            payload = None
        if status >= 300:
            inner = payload.get("error") if isinstance(payload, dict) else None
            err = inner if isinstance(inner, dict) else payload
            message = str(err.get("message") or "") if isinstance(err, dict) else ""
            if not message and isinstance(inner, str):
                message = inner
            raise error_for_status(status, message or text[:500], err, reply_headers)
        if not isinstance(payload, dict):
            raise NotJSONReplyError(
                f"the server answered {status} with a body that is not a JSON object "
                f"({text[:200]!r}); is {self.url} the server's API (its base usually ends "
                "in /v1), not a web page or a proxy's?",
                text,
            )
        return _Namespace(payload)


_CONSUMED = frozenset({"model", "api_base", "api_key", "timeout", "num_retries", "max_retries"})


def _proxy_for(url: str) -> str | None:
    """The proxy for ``url`` from ``HTTP(S)_PROXY`` / ``NO_PROXY``, read once.

    aiohttp's ``trust_env`` would re-read the whole environment on every request.
    """
    import urllib.parse
    import urllib.request

    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    if not proxies or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxies.get(parts.scheme) or proxies.get("all")


def _version() -> str:
    from ragnotebook import __version__

    return str(__version__)
