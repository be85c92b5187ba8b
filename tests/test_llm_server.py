"""Tests of the local OpenAI-compatible test server, through litellm and httpx."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import httpx
import litellm
import pytest
from pydantic import BaseModel

try:
    import llm_server as ls
except ImportError:  # tests/ imported as a package
    from tests import llm_server as ls  # type: ignore[no-redef]

pytestmark = pytest.mark.server
litellm.suppress_debug_info = True

USER = [{"role": "user", "content": "Hello there, how are you?"}]


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for the module, so litellm's cached async clients stay usable."""
    event_loop = asyncio.new_event_loop()
    yield event_loop
    event_loop.close()


@pytest.fixture
def server() -> Iterator[ls.LLMServer]:
    srv = ls.LLMServer(seed=123)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def ask(
    loop: asyncio.AbstractEventLoop, server: ls.LLMServer, messages: Any = None, **kwargs: Any
) -> Any:
    """Run one litellm.acompletion against ``server`` on ``loop``."""
    params: dict[str, Any] = {
        "model": "openai/test-model",
        "api_base": server.url,
        "api_key": "sk-test",
        "messages": messages or USER,
        "num_retries": 0,
        "timeout": 5,
    }
    params.update(kwargs)
    return loop.run_until_complete(litellm.acompletion(**params))


def gather(loop: asyncio.AbstractEventLoop, server: ls.LLMServer, n: int, **kwargs: Any) -> list:
    """Send ``n`` concurrent litellm requests; return results or exceptions."""

    async def many() -> list:
        calls = [
            litellm.acompletion(
                model="openai/test-model",
                api_base=server.url,
                api_key="sk-test",
                messages=[{"role": "user", "content": f"request {i}"}],
                num_retries=0,
                timeout=5,
                **kwargs,
            )
            for i in range(n)
        ]
        return await asyncio.gather(*calls, return_exceptions=True)

    return loop.run_until_complete(many())


def post(server: ls.LLMServer, body: dict[str, Any] | None = None, **kwargs: Any) -> httpx.Response:
    body = body or {"model": "test-model", "messages": USER}
    return httpx.post(server.url + "/chat/completions", json=body, timeout=5, **kwargs)


# ------------------------------------------------------------------ plain replies


def test_plain_reply_shape_and_usage(loop, server):
    server.responder = lambda request: "Fine, thanks."
    response = ask(loop, server)
    assert response.choices[0].message.content == "Fine, thanks."
    assert response.choices[0].finish_reason == "stop"
    text_len = len(USER[0]["content"])
    assert response.usage.prompt_tokens == text_len // 4
    assert response.usage.completion_tokens == len("Fine, thanks.") // 4
    assert response.usage.total_tokens == text_len // 4 + len("Fine, thanks.") // 4
    assert server.requests == 1
    assert server.status_counts == {200: 1}
    assert server.log[-1]["messages"] == USER

    raw = post(server).json()
    assert raw["object"] == "chat.completion"
    assert raw["model"] == "test-model"
    assert {"id", "created", "choices", "usage"} <= raw.keys()
    assert raw["choices"][0]["message"]["role"] == "assistant"


def test_base_url_without_v1_also_works(loop, server):
    server.responder = lambda request: "ok"
    response = ask(loop, server, api_base=server.base_url)
    assert response.choices[0].message.content == "ok"


def test_models_endpoint(server):
    data = httpx.get(server.url + "/models", timeout=5).json()
    assert data["data"][0]["id"] == "test-model"
    assert httpx.get(server.base_url + "/nowhere", timeout=5).status_code == 404


class Verdict(BaseModel):
    index: int
    verdict: str
    reason: str


class Verdicts(BaseModel):
    verdicts: list[Verdict]


def test_default_responder(loop, server):
    response = ask(loop, server)
    assert response.choices[0].message.content == "{}"

    items = json.dumps(["chunk one", "chunk two", "chunk three"])
    messages = [
        {"role": "system", "content": "You judge retrieval.\nTASK: judge_chunks"},
        {"role": "user", "content": f"Question: why?\nItems:\n{items}"},
    ]
    response = ask(loop, server, messages, response_format=Verdicts)
    parsed = Verdicts.model_validate_json(response.choices[0].message.content)
    assert [v.index for v in parsed.verdicts] == [0, 1, 2]
    assert {v.verdict for v in parsed.verdicts} == {"yes"}

    claims_schema = {
        "type": "object",
        "properties": {"claims": {"type": "array", "items": {"type": "string"}}},
        "required": ["claims"],
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "claims", "schema": claims_schema}}
    response = ask(loop, server, response_format=fmt)
    assert json.loads(response.choices[0].message.content) == {"claims": ["..."]}


def test_example_from_schema_handles_common_keywords():
    schema = {
        "type": "object",
        "properties": {
            "label": {"enum": ["no", "yes", "idk"]},
            "score": {"type": "number", "minimum": 0.5},
            "count": {"type": ["integer", "null"]},
            "maybe": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "fixed": {"const": 7},
        },
    }
    assert ls.example_from_schema(schema) == {
        "label": "yes",
        "score": 0.5,
        "count": 0,
        "maybe": True,
        "tags": ["...", "..."],
        "fixed": 7,
    }


def test_async_responder_and_override_dict(loop, server):
    async def responder(request):
        await asyncio.sleep(0)
        return {"content": "x" * 40, "usage": {"completion_tokens": 99, "total_tokens": 100}}

    server.responder = responder
    response = ask(loop, server)
    assert response.choices[0].message.content == "x" * 40
    assert response.usage.completion_tokens == 99


def test_reasoning_model_replies(loop, server):
    server.responder = lambda request: {"content": None}
    assert ask(loop, server).choices[0].message.content is None

    server.responder = lambda request: {"content": "", "finish_reason": "length"}
    response = ask(loop, server)
    assert response.choices[0].message.content in ("", None)
    assert response.choices[0].finish_reason == "length"

    server.responder = lambda request: '<think>Let me see.</think>\n{"claims": []}'
    content = ask(loop, server).choices[0].message.content
    assert "</think>" in content or content.strip() == '{"claims": []}'


def test_responder_status_and_raw_overrides(loop, server):
    server.responder = lambda request: {"status": 503, "error": "overloaded right now"}
    with pytest.raises(litellm.ServiceUnavailableError, match="overloaded right now"):
        ask(loop, server)

    server.responder = lambda request: {"raw": "not json at all"}
    response = post(server)
    assert response.status_code == 200
    assert response.text == "not json at all"


def test_responder_exception_becomes_500(loop, server):
    def broken(request):
        raise KeyError("boom")

    server.responder = broken
    response = post(server)
    assert response.status_code == 500
    assert "KeyError" in response.json()["error"]["message"]
    assert server.errors and "boom" in server.errors[0]


def test_streaming(loop, server):
    server.responder = lambda request: "streamed text"

    async def collect() -> str:
        stream = await litellm.acompletion(
            model="openai/test-model",
            api_base=server.url,
            api_key="sk-test",
            messages=USER,
            stream=True,
            num_retries=0,
            timeout=5,
        )
        return "".join([chunk.choices[0].delta.content or "" async for chunk in stream])

    assert loop.run_until_complete(collect()) == "streamed text"


# ------------------------------------------------------------------ latency and concurrency


def test_latency_fixed_and_callable(loop, server):
    server.latency = 0.3
    start = time.perf_counter()
    ask(loop, server)
    assert time.perf_counter() - start >= 0.25

    seen = []

    def latency(request):
        seen.append(len(ls.message_text(request)))
        return 0.001 * len(seen)

    server.latency = latency
    ask(loop, server)
    ask(loop, server)
    assert seen == [len(USER[0]["content"])] * 2


def test_max_in_flight_counts_concurrency(loop, server):
    server.latency = 0.3
    results = gather(loop, server, 10)
    assert not [r for r in results if isinstance(r, Exception)]
    assert server.max_in_flight == 10
    assert server.in_flight == 0
    assert server.requests == 10


def test_concurrency_limit_rule(loop, server):
    server.latency = 0.5
    server.retry_after = 3
    server.rule = ls.concurrency_limit_rule(3)
    results = gather(loop, server, 10)
    limited = [r for r in results if isinstance(r, litellm.RateLimitError)]
    ok = [r for r in results if not isinstance(r, Exception)]
    assert len(ok) == 3
    assert len(limited) == 7
    assert server.status_counts == {200: 3, 429: 7}
    assert server.fault_counts == {"429": 7}


# ------------------------------------------------------------------ faults


def test_rate_limit_error_and_retry_after(loop, server):
    server.retry_after = 2
    server.script_statuses = [429]
    with pytest.raises(litellm.RateLimitError):
        ask(loop, server)
    assert server.requests == 1  # num_retries=0: no hidden retries by the client

    server.script_statuses = [429]
    response = post(server)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "2"
    error = response.json()["error"]
    assert error["code"] == "rate_limit_exceeded"
    assert error["message"]


def test_server_error(loop, server):
    server.script_statuses = [500]
    with pytest.raises((litellm.InternalServerError, litellm.APIError)):
        ask(loop, server)
    assert server.status_counts[500] == 1


def test_script_statuses_consumed_in_order(loop, server):
    server.responder = lambda request: '{"claims": ["a"]}'
    server.script_statuses = [429, 200, "malformed", ls.Fault.error(418, "teapot")]
    codes = [post(server).status_code for _ in range(5)]
    assert codes == [429, 200, 200, 418, 200]
    assert server.script_statuses == []
    contents = [entry for entry in server.log]
    assert len(contents) == 5


def test_truncated_fault(loop, server):
    server.responder = lambda request: '{"claims": ["one", "two", "three"]}'
    server.faults = {"truncated": 1.0}
    response = ask(loop, server)
    content = response.choices[0].message.content
    assert response.choices[0].finish_reason == "length"
    assert content == '{"claims": ["one", "two", "three"]}'[: len(content)]
    assert len(content) == len('{"claims": ["one", "two", "three"]}') // 2


def test_malformed_fault(loop, server):
    server.responder = lambda request: '{"claims": ["one"]}'
    server.faults = {"malformed": 1.0}
    response = ask(loop, server)
    content = response.choices[0].message.content
    assert response.choices[0].finish_reason == "stop"
    assert '"claims"' in content
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)


def test_timeout_fault_and_cancellation(loop, server):
    server.faults = {"timeout": 1.0}
    server.slow_seconds = 30
    with pytest.raises(litellm.Timeout):
        ask(loop, server, timeout=0.5)
    deadline = time.monotonic() + 3
    while server.in_flight and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.in_flight == 0  # the abandoned request was cancelled server-side
    assert server.cancelled == 1


def test_random_faults_are_seeded():
    def statuses(seed: int) -> list[int]:
        server = ls.LLMServer(seed=seed, faults={"429": 0.3, "500": 0.1})
        with server as srv, httpx.Client(timeout=5) as client:
            body = {"model": "test-model", "messages": USER}
            return [
                client.post(srv.url + "/chat/completions", json=body).status_code
                for _ in range(200)
            ]

    first, second = statuses(7), statuses(7)
    assert first == second
    assert 30 <= first.count(429) <= 90
    assert 5 <= first.count(500) <= 40
    assert statuses(8) != first


def test_fault_validation(server):
    with pytest.raises(ValueError):
        server.faults = {"exploded": 0.1}
    with pytest.raises(ValueError):
        server.faults = {"429": 0.7, "500": 0.6}
    server.faults = {"503": 0.5, "timeout": 0.0}
    assert server.faults == {"503": 0.5}


# ------------------------------------------------------------------ ready-made rules


def test_context_length_rule(loop, server):
    server.rule = ls.context_length_rule(max_chars=50)
    assert ask(loop, server).choices[0].message.content == "{}"
    with pytest.raises(litellm.ContextWindowExceededError):
        ask(loop, server, [{"role": "user", "content": "long " * 100}])
    assert post(server, {"messages": [{"role": "user", "content": "x" * 60}]}).json()["error"][
        "code"
    ] == ("context_length_exceeded")


def test_auth_rule(loop, server):
    server.rule = ls.auth_rule("sk-test")
    assert ask(loop, server).choices[0].message.content == "{}"
    with pytest.raises(litellm.AuthenticationError):
        ask(loop, server, api_key="sk-wrong")
    assert server.status_counts == {200: 1, 401: 1}


def test_reject_refs_rule(loop, server):
    server.rule = ls.reject_refs_rule
    with pytest.raises(litellm.BadRequestError, match=r"\$ref"):
        ask(loop, server, response_format=Verdicts)  # pydantic emits $defs/$ref
    flat = {
        "type": "json_schema",
        "json_schema": {
            "name": "claims",
            "schema": {"type": "object", "properties": {"claims": {"type": "array"}}},
        },
    }
    assert ask(loop, server, response_format=flat).choices[0].message.content
    assert ask(loop, server).choices[0].message.content == "{}"


def test_json_object_only_rule(loop, server):
    server.rule = ls.json_object_only_rule
    with pytest.raises(litellm.BadRequestError, match="json_object"):
        ask(loop, server, response_format=Verdicts)
    response = ask(loop, server, response_format={"type": "json_object"})
    assert response.choices[0].message.content == "{}"


def test_reject_temperature_rule(loop, server):
    server.rule = ls.reject_temperature_rule
    with pytest.raises(litellm.BadRequestError, match="Unsupported parameter: 'temperature'"):
        ask(loop, server, temperature=0.0)
    assert ask(loop, server).choices[0].message.content == "{}"


def test_combine_rules(server):
    server.rule = ls.combine_rules(ls.auth_rule("sk-test"), ls.reject_temperature_rule)
    body = {"model": "test-model", "messages": USER, "temperature": 0}
    assert post(server, body, headers={"Authorization": "Bearer nope"}).status_code == 401
    assert post(server, body, headers={"Authorization": "Bearer sk-test"}).status_code == 400
    del body["temperature"]
    assert post(server, body, headers={"Authorization": "Bearer sk-test"}).status_code == 200


def test_path_prefix_rule(server):
    server.rule = ls.path_prefix_rule("/v1")
    assert post(server).status_code == 200
    body = {"model": "test-model", "messages": USER}
    missing = httpx.post(server.base_url + "/chat/completions", json=body, timeout=5)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "Not Found"


# ------------------------------------------------------------------ spoiled replies


def _verdicts_reply(request: Any) -> str:
    return json.dumps(
        {"verdicts": [{"index": 0, "verdict": "yes"}, {"index": 1, "verdict": "unsure"}]}
    )


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (None, [{"index": 0, "verdict": "yes"}, {"index": 1, "verdict": "unsure"}]),
        ("dotted", [{"index": 0, "verdict": "Yes."}, {"index": 1, "verdict": "Unsure."}]),
        ("markdown", [{"index": 0, "verdict": "**yes**"}, {"index": 1, "verdict": "**unsure**"}]),
        ("quoted", [{"index": 0, "verdict": "'yes'"}, {"index": 1, "verdict": "'unsure'"}]),
        ("one_based", [{"index": 1, "verdict": "yes"}, {"index": 2, "verdict": "unsure"}]),
        ("no_index", [{"verdict": "yes"}, {"verdict": "unsure"}]),
        ("short_all", [{"index": 0, "verdict": "yes"}]),
        ("no_claims", []),
    ],
)
def test_faulty_replies_spoil_verdicts(mode, expected):
    respond = ls.faulty_replies(_verdicts_reply, mode)
    assert json.loads(respond({})) == {"verdicts": expected}


def test_faulty_replies_claims_and_suffix():
    claims = ls.faulty_replies(lambda r: '{"claims": ["a"]}', "no_claims", suffix=" Done.")
    assert claims({}) == '{"claims": []} Done.'
    assert ls.faulty_replies(lambda r: '{"claims": ["a"]}', "dotted")({}) == '{"claims": ["a"]}'
    with pytest.raises(ValueError, match="unknown reply fault"):
        ls.faulty_replies(_verdicts_reply, "sloppy")


# ------------------------------------------------------------------ bookkeeping


def test_log_is_capped_and_reset_clears(server):
    server.max_log = 5
    for i in range(8):
        post(server, {"model": "test-model", "messages": [{"role": "user", "content": str(i)}]})
    assert [entry["messages"][0]["content"] for entry in server.log] == list("34567")
    server.reset()
    assert server.requests == 0
    assert server.log == []
    assert server.status_counts == {}
    assert server.max_in_flight == 0


def test_bad_json_body(server):
    response = httpx.post(server.url + "/chat/completions", content=b"{not json", timeout=5)
    assert response.status_code == 400
    assert server.requests == 0


def test_stop_does_not_wait_for_slow_requests():
    srv = ls.LLMServer(slow_seconds=60, faults={"timeout": 1.0}).start()

    def fire() -> None:
        with contextlib.suppress(httpx.HTTPError):
            post(srv)

    thread = threading.Thread(target=fire, daemon=True)
    thread.start()
    deadline = time.monotonic() + 3
    while srv.in_flight == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    start = time.perf_counter()
    srv.stop()
    assert time.perf_counter() - start < 3
    thread.join(5)


def test_llm_server_fixture(loop, llm_server):
    llm_server.responder = lambda request: "from fixture"
    assert ask(loop, llm_server).choices[0].message.content == "from fixture"
