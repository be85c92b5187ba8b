"""The direct OpenAI-compatible transport against the test server, compared with litellm's."""

from __future__ import annotations

import asyncio
import gc
import os
import warnings
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest

import ragnotebook as rn
from ragnotebook.judges._transport import OPENAI_OPTIONS, _proxy_for, resolve_transport
from ragnotebook.judges.base import JudgeError
from ragnotebook.judges.llm import LOCAL_PLACEHOLDER_KEY, LiteLLMJudge, _settle_litellm_logging
from ragnotebook.tasks import Item, Task

try:
    import llm_server as ls
    from judge_replies import offline_responder
except ImportError:  # tests/ imported as a package
    from tests import llm_server as ls  # type: ignore[no-redef]
    from tests.judge_replies import offline_responder  # type: ignore[no-redef]

pytestmark = pytest.mark.server

MODEL = "openai/test-model"
METRICS = ("context_recall", "context_precision", "faithfulness")
KEY = "sk-test"
VERIFY = Task(
    "verify_claims",
    "faithfulness",
    question="Where is Paris?",
    chunks=("Paris is the capital of France.",),
    items=(Item(0, "Paris is in France."), Item(1, "Paris has 40 million residents.")),
)


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    event_loop = asyncio.new_event_loop()
    yield event_loop
    # stop litellm's logging worker on this loop before closing it (else its pending
    # task reports 'Event loop is closed' when collected)
    event_loop.run_until_complete(_settle_litellm_logging())
    event_loop.close()


@pytest.fixture
def server(llm_server: ls.LLMServer) -> ls.LLMServer:
    llm_server.responder = offline_responder()
    return llm_server


def judge(server: ls.LLMServer, transport: str, **kwargs: Any) -> LiteLLMJudge:
    kwargs.setdefault("api_key", KEY)
    kwargs.setdefault("timeout", 5)
    return LiteLLMJudge(
        kwargs.pop("model", MODEL), api_base=server.url, transport=transport, **kwargs
    )


def failure(loop: asyncio.AbstractEventLoop, j: LiteLLMJudge, task: Task = VERIFY) -> JudgeError:
    with pytest.raises(JudgeError) as info:
        loop.run_until_complete(j.acall(task))
    return info.value


# ------------------------------------------------------------------ choosing the transport


def test_auto_uses_the_direct_transport_only_for_openai_compatible_servers():
    base = "http://127.0.0.1:8000/v1"
    assert resolve_transport("auto", "openai/qwen2.5", base, {"seed": 1, "top_p": 0.5}) == "openai"
    assert resolve_transport("auto", "openai/gpt-4o-mini", None, {}) == "litellm"
    assert resolve_transport("auto", "ollama_chat/llama3", base, {}) == "litellm"
    assert resolve_transport("auto", "hosted_vllm/qwen", base, {}) == "litellm"
    assert resolve_transport("auto", "openai/qwen", base, {"drop_params": True}) == "litellm"
    assert resolve_transport("litellm", "openai/qwen", base, {}) == "litellm"
    assert set(OPENAI_OPTIONS) >= {"seed", "top_p", "stop", "extra_headers", "extra_body"}


def test_explicit_openai_transport_errors_name_the_problem():
    with pytest.raises(ValueError, match="api_base"):
        LiteLLMJudge("openai/qwen", transport="openai")
    with pytest.raises(ValueError, match="api_base"):
        LiteLLMJudge("anthropic/claude-x", api_base="http://h/v1", transport="openai")
    with pytest.raises(ValueError, match=r"\['custom_llm_provider'\]"):
        LiteLLMJudge(
            "openai/qwen", api_base="http://h/v1", transport="openai", custom_llm_provider="x"
        )
    with pytest.raises(ValueError, match="transport must be one of"):
        LiteLLMJudge("openai/qwen", transport="grpc")


# ------------------------------------------------------------------ same request, same answer


def test_both_transports_send_the_same_request_and_read_the_same_answer(loop, server):
    answers, bodies = [], []
    for transport in ("openai", "litellm"):
        j = judge(server, transport, seed=7, top_p=0.5)
        answer, usage = loop.run_until_complete(j.acall(VERIFY))
        answers.append((answer, usage.prompt_tokens, usage.completion_tokens, usage.requests))
        bodies.append(server.log[-1])
    assert answers[0] == answers[1]
    assert [v.verdict for v in answers[0][0].verdicts] == ["yes", "unsure"]
    direct, via_litellm = bodies
    for key in ("model", "messages", "max_tokens", "temperature", "seed", "top_p"):
        assert direct[key] == via_litellm[key], key
    assert direct["model"] == "test-model"
    assert direct["response_format"]["type"] == via_litellm["response_format"]["type"]
    assert (
        direct["response_format"]["json_schema"]["schema"]
        == (via_litellm["response_format"]["json_schema"]["schema"])
    )


def test_known_model_costs_the_same_on_both_transports(loop, server):
    costs = []
    for transport in ("openai", "litellm"):
        _, usage = loop.run_until_complete(
            judge(server, transport, model="openai/gpt-4o-mini").acall(VERIFY)
        )
        costs.append(usage.cost_usd)
    assert costs[0] is not None and costs[0] > 0
    assert costs[0] == pytest.approx(costs[1], rel=1e-9)


def test_extra_headers_query_and_body_reach_the_server(loop, server):
    seen: list[tuple[str | None, str]] = []

    def capture(request: dict[str, Any], ctx: Any) -> None:
        seen.append((ctx.headers.get("x-team"), ctx.path))
        return None

    server.rule = capture
    j = judge(
        server,
        "openai",
        extra_headers={"X-Team": "eval"},
        extra_query={"api-version": "2024-06-01"},
        extra_body={"guided_decoding_backend": "outlines"},
    )
    loop.run_until_complete(j.acall(VERIFY))
    assert seen == [("eval", "/v1/chat/completions")]
    assert server.log[-1]["guided_decoding_backend"] == "outlines"


# ------------------------------------------------------------------ failures map like litellm's


@pytest.mark.parametrize("transport", ["openai", "litellm"])
def test_missing_api_key_is_a_permanent_auth_error_before_any_request(
    loop, server, transport, monkeypatch
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    # a server on another machine (this name never resolves: nothing may be sent anyway)
    remote = LiteLLMJudge(
        MODEL, api_base="http://llm.invalid/v1", transport=transport, api_key=None, timeout=5
    )
    err = failure(loop, remote)
    assert (err.code, err.retryable) == ("auth_error", False)
    assert err.usage.requests == 0  # type: ignore[attr-defined]  # nothing counted as sent
    if transport == "openai":
        assert "nothing was sent" in str(err) and "401" not in str(err)


@pytest.mark.parametrize("transport", ["openai", "litellm"])
def test_a_server_on_this_machine_gets_a_placeholder_key_when_none_is_set(
    loop, server, transport, monkeypatch
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    seen: list[str | None] = []

    def capture(request, ctx):
        seen.append(ctx.headers.get("authorization"))
        return None

    server.rule = capture
    _answer, usage = loop.run_until_complete(judge(server, transport, api_key=None).acall(VERIFY))
    assert usage.requests == 1
    assert seen == [f"Bearer {LOCAL_PLACEHOLDER_KEY}"]
    # a key in the environment is the one sent
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    loop.run_until_complete(judge(server, transport, api_key=None).acall(VERIFY))
    assert seen[-1] == "Bearer sk-from-env"


def test_a_reply_that_is_not_json_is_a_retryable_parse_error(loop, server):
    # a 200 page (a web UI at api_base, a proxy's notice): retried, but as an unparseable
    # reply is (two identical ones end the retries), and the message asks about api_base
    server.responder = lambda request: {"raw": "<html>Welcome to LM Studio</html>"}
    err = failure(loop, judge(server, "openai"))
    assert (err.code, err.retryable, err.raw) == (
        "parse_error",
        True,
        "<html>Welcome to LM Studio</html>",
    )
    assert str(err).startswith(
        "parse_error: NotJSONReplyError: the server answered 200 with a body that is not a JSON object "
        f"('<html>Welcome to LM Studio</html>'); is {server.url}/chat/completions the "
        "server's API (its base usually ends in /v1), not a web page or a proxy's?"
    )


def test_error_status_body_and_retry_after_are_read(loop, server):
    server.script_statuses = [429]
    server.retry_after = 3
    err = failure(loop, judge(server, "openai"))
    assert (err.code, err.retryable, err.retry_after) == ("rate_limited", True, 3.0)
    assert "RateLimitError" in str(err)
    server.script_statuses = [400]
    err = failure(loop, judge(server, "openai"))
    assert (err.code, err.retryable) == ("bad_request", False)


def test_a_refused_connection_is_a_retryable_connection_error(loop, server):
    server.stop()  # nothing listens on the port any more
    err = failure(loop, judge(server, "openai", timeout=2))
    assert (err.code, err.retryable) == ("connection_error", True)


# ------------------------------------------------------------------ sessions and the run


def test_a_run_reuses_one_session_and_closes_it(server, monkeypatch):
    import aiohttp

    opened: list[object] = []

    class Counted(aiohttp.ClientSession):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            opened.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(aiohttp, "ClientSession", Counted)
    j = judge(server, "openai")
    df = rn.load_sample("quickstart").iloc[::8]  # 6 rows of all three sources
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = rn.evaluate(df, model=j, progress=False, cache=False)
        gc.collect()
    assert out.attrs["ragnotebook"]["judge_transport"] == "openai"
    assert (out[[f"{m}_status" for m in METRICS]] != "error").all().all()
    assert j.transport == "openai" and server.requests > 10
    assert len(opened) == 1  # every request of the run went through one HTTP session
    assert int(rn.summary(out)["requests"].sum()) == server.requests
    assert all(session.closed for session in opened)
    assert j._direct is not None and len(j._direct._sessions) == 0  # closed after the run
    assert not [w for w in caught if "Unclosed" in str(w.message)]
    via = rn.evaluate(df, model=judge(server, "litellm"), progress=False, cache=False)
    assert via.attrs["ragnotebook"]["judge_transport"] == "litellm"
    assert out[list(METRICS)].equals(via[list(METRICS)])


def test_api_options_choose_the_transport(server):
    df = rn.load_sample("quickstart").tail(2)  # rows with answers
    common = dict(api_base=server.url, api_key=KEY, progress=False, cache=False)
    out = rn.faithfulness(df, model=MODEL, **common)
    assert out.attrs["ragnotebook"]["judge_transport"] == "openai"
    out = rn.faithfulness(df, model=MODEL, transport="litellm", **common)
    assert out.attrs["ragnotebook"]["judge_transport"] == "litellm"


def test_the_run_leaves_the_garbage_collector_as_it_found_it(server):
    df = rn.load_sample("quickstart").tail(2)  # rows with answers
    assert gc.get_freeze_count() == 0
    rn.faithfulness(df, model=judge(server, "openai"), progress=False, cache=False)
    assert gc.get_freeze_count() == 0
    gc.freeze()  # someone else froze the heap: the run leaves it frozen
    try:
        rn.faithfulness(df, model=judge(server, "openai"), progress=False, cache=False)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_proxies_come_from_the_environment_once(monkeypatch):
    for name in ("HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    assert _proxy_for("http://10.0.0.5:8000/v1/chat/completions") is None
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.internal:3128")
    assert _proxy_for("http://10.0.0.5:8000/v1/chat/completions") == "http://proxy.internal:3128"
    monkeypatch.setenv("NO_PROXY", "10.0.0.5,localhost")
    assert _proxy_for("http://10.0.0.5:8000/v1/chat/completions") is None


def test_a_cached_rerun_in_a_new_process_never_loads_litellm(server, tmp_path):
    import subprocess
    import sys
    import textwrap

    cache = tmp_path / "answers.sqlite3"
    df = rn.load_sample("quickstart").iloc[::12]  # 4 rows of all three sources
    first = rn.evaluate(df, model=judge(server, "openai"), progress=False, cache=cache)
    assert first.attrs["ragnotebook"]["last_run"]["attempts"] > 0
    script = textwrap.dedent(
        f"""
        import sys, ragnotebook as rn
        df = rn.load_sample("quickstart").iloc[::12]
        out = rn.evaluate(df, model="{MODEL}", api_base="{server.url}", api_key="{KEY}",
                          timeout=5, progress=False, cache=r"{cache}")
        print(out.attrs["ragnotebook"]["last_run"]["attempts"], "litellm" in sys.modules)
        """
    )
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "False"]


def test_a_model_that_wants_max_completion_tokens_is_adapted_to_once(loop, server):
    rejected: list[int] = []

    def reasoning_model(request: dict[str, Any], ctx: Any) -> Any:
        if "max_tokens" in request:
            rejected.append(ctx.number)
            return ls.Fault.error(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
                code="unsupported_parameter",
                param="max_tokens",
            )
        return None

    server.rule = reasoning_model
    j = judge(server, "openai", max_tokens=300)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            answer, _ = loop.run_until_complete(j.acall(VERIFY))
            assert [v.verdict for v in answer.verdicts] == ["yes", "unsure"]
    assert rejected == [1]  # one 400 for the judge, not one per call
    assert server.log[-1]["max_completion_tokens"] == 300
    assert "max_tokens" not in server.log[-1]
    notes = [str(w.message) for w in caught if "max_completion_tokens" in str(w.message)]
    assert len(notes) == 1 and "sending it that way from now on" in notes[0]


def test_a_400_that_keeps_naming_the_budget_is_not_resent_forever(loop, server):
    def always(request: dict[str, Any], ctx: Any) -> Any:
        return ls.Fault.error(
            400, "max_tokens and max_completion_tokens are both unsupported here", code="x"
        )

    server.rule = always
    err = failure(loop, judge(server, "openai"))
    assert (err.code, err.retryable) == ("bad_request", False)
    assert server.requests == 2  # the first try, one try with the other name, then stop
