"""LiteLLMJudge against the local OpenAI-compatible test server, through the real litellm client."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import time
import warnings
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pandas as pd
import pytest

import ragnotebook  # noqa: F401  (the df.rag accessor)
from ragnotebook import prompts
from ragnotebook.judges.base import JudgeError
from ragnotebook.judges.llm import LiteLLMJudge, Usage, _settle_litellm_logging
from ragnotebook.tasks import Claims, Item, Task, Verdicts

try:
    import llm_server as ls
except ImportError:  # tests/ imported as a package
    from tests import llm_server as ls  # type: ignore[no-redef]

pytestmark = pytest.mark.server

MODEL = "openai/test-model"
KEY = "sk-test"


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for the module, so litellm's cached async clients stay usable."""
    event_loop = asyncio.new_event_loop()
    yield event_loop
    # stop litellm's logging worker on this loop before closing it (else its pending
    # task reports 'Event loop is closed' when collected)
    event_loop.run_until_complete(_settle_litellm_logging())
    event_loop.close()


#: The transport the judges of the running test use (every server test runs on both).
TRANSPORT = {"name": "auto"}


@pytest.fixture(params=["openai", "litellm"])
def transport(request: pytest.FixtureRequest) -> Iterator[str]:
    TRANSPORT["name"] = request.param
    yield request.param
    TRANSPORT["name"] = "auto"


@pytest.fixture
def server(llm_server: ls.LLMServer, transport: str) -> ls.LLMServer:
    llm_server.responder = answer_by_task
    return llm_server


@pytest.fixture
def ragnotebook_log() -> Iterator[list[warnings.WarningMessage]]:
    """The warnings shown meanwhile (judge notices are warnings from the calling thread)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


# ------------------------------------------------------------------ helpers


def judge_for(server: ls.LLMServer, **kwargs: Any) -> LiteLLMJudge:
    kwargs.setdefault("timeout", 5)
    kwargs.setdefault("api_key", KEY)
    kwargs.setdefault("transport", TRANSPORT["name"])
    return LiteLLMJudge(kwargs.pop("model", MODEL), api_base=server.url, **kwargs)


def run(loop: asyncio.AbstractEventLoop, coro: Any) -> Any:
    return loop.run_until_complete(coro)


def call(loop, judge: LiteLLMJudge, task: Task) -> tuple[Any, Usage]:
    return run(loop, judge.acall(task))


def call_many(loop, judge: LiteLLMJudge, tasks: list[Task]) -> list[Any]:
    async def many() -> list[Any]:
        return await asyncio.gather(*(judge.acall(t) for t in tasks), return_exceptions=True)

    return run(loop, many())


def failure(loop, judge: LiteLLMJudge, task: Task) -> JudgeError:
    with pytest.raises(JudgeError) as info:
        call(loop, judge, task)
    return info.value


def verify_task(*indices: int, claims: tuple[str, ...] = ()) -> Task:
    texts = claims or tuple(f"claim number {i}" for i in indices)
    return Task(
        "verify_claims",
        "faithfulness",
        items=tuple(Item(i, t) for i, t in zip(indices, texts, strict=True)),
        chunks=("Paris is the capital of France.",),
    )


def claims_task(text: str = "Paris is in France. Paris has 40 million residents.") -> Task:
    return Task("extract_claims", "faithfulness", text=text, source="answer")


def requested_indices(request: dict[str, Any]) -> list[int]:
    match = re.search(r"for the indices \[([\d, ]*)\]", ls.message_text(request))
    return [int(x) for x in match.group(1).split(",") if x.strip()] if match else []


def claim_texts(request: dict[str, Any]) -> dict[int, str]:
    content = request["messages"][-1]["content"]
    body = content[content.index(">\n") + 2 : content.rindex("\n</data")]
    data = json.loads(body)
    return {c["index"]: c["claim"] for c in data.get("claims", [])}


def answer_by_task(request: dict[str, Any]) -> str:
    """A sensible judge: claims split on '. '; verdicts 'yes' for claims about France."""
    text = ls.message_text(request)
    if "TASK: extract_claims" in text:
        return json.dumps({"claims": ["Paris is in France.", "Paris has 40 million residents."]})
    claims = claim_texts(request)
    verdicts = [
        {
            "index": i,
            "verdict": "yes" if "France" in claims.get(i, "") else "no",
            "reason": "checked against the context",
        }
        for i in requested_indices(request)
    ]
    return json.dumps({"verdicts": verdicts})


def faithfulness(answer: Verdicts) -> float:
    return sum(v.verdict == "yes" for v in answer.verdicts) / len(answer.verdicts)


PARIS = verify_task(0, 1, claims=("Paris is in France.", "Paris has 40 million residents."))


# ------------------------------------------------------------------ structured output


def test_sends_the_json_schema_and_reports_usage(loop, server):
    judge = judge_for(server)
    answer, usage = call(loop, judge, PARIS)
    assert isinstance(answer, Verdicts)
    assert faithfulness(answer) == 0.5
    request = server.log[-1]
    fmt = request["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Verdicts"
    assert "verdicts" in fmt["json_schema"]["schema"]["properties"]
    assert request["temperature"] == 0.0
    assert request["max_tokens"] == 2048
    assert "num_retries" not in request and "max_retries" not in request
    assert usage.requests == 1
    assert usage.prompt_tokens > 100 and usage.completion_tokens > 0
    assert usage.cost_usd is None  # test-model has no price
    assert judge.identity()["structured_output"] == "json_schema"
    assert run(loop, judge.acomplete(claims_task())) == Claims(
        claims=["Paris is in France.", "Paris has 40 million residents."]
    )


def test_known_model_gets_a_cost(loop, server):
    judge = judge_for(server, model="openai/gpt-4o-mini")
    _, usage = call(loop, judge, claims_task())
    assert isinstance(usage.cost_usd, float)
    assert usage.cost_usd > 0


def test_a_reply_without_usage_has_an_unknown_cost_not_zero(loop, server, transport):
    healthy = server.responder

    def no_usage(request):
        content = healthy(request)
        choice = {"index": 0, "message": {"role": "assistant", "content": content}}
        return {
            "body": {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [choice | {"finish_reason": "stop"}],
            }
        }

    for responder in (
        no_usage,
        lambda r: {
            "content": ls.default_responder(r),
            "usage": {"prompt_tokens": 0, "completion_tokens": 0},
        },
    ):
        server.responder = responder
        judge = judge_for(server, model="openai/gpt-4o-mini", transport=transport)
        with pytest.warns(UserWarning, match="report no token usage") as caught:
            answer, usage = call(loop, judge, claims_task())
            call(loop, judge, claims_task())  # noticed once per judge
        assert answer.claims  # read as usual
        assert (usage.requests, usage.prompt_tokens, usage.cost_usd) == (1, 0, None)
        print([str(w.message)[:200] for w in caught])
        assert len(caught) == 1
        assert (
            "openai/gpt-4o-mini: the server's replies report no token usage, so this run "
            "counts their tokens as 0 and their cost as unknown" in str(caught[0].message)
        )


def test_a_request_without_reply_costs_nothing_only_at_a_known_price(loop, server):
    """An HTTP error brings no usage: at a known price that is $0, at an unknown one the
    cost is unknown (None), as it is for the model's answered requests."""
    server.rule = lambda request, ctx: ls.Fault.error(500, "the model crashed")
    unpriced = failure(loop, judge_for(server), claims_task())
    assert unpriced.code == "server_error"
    usage = unpriced.usage  # type: ignore[attr-defined]
    assert (usage.requests, usage.prompt_tokens, usage.cost_usd) == (1, 0, None)
    priced = failure(loop, judge_for(server, model="openai/gpt-4o-mini"), claims_task())
    usage = priced.usage  # type: ignore[attr-defined]
    assert (usage.requests, usage.prompt_tokens, usage.cost_usd) == (1, 0, 0.0)
    # a priced reply first, then a failure: the price is known from the reply
    server.rule = None
    judge = judge_for(server, model="openai/gpt-4o-mini")
    _, answered = call(loop, judge, claims_task())
    assert answered.cost_usd is not None and answered.cost_usd > 0
    server.rule = lambda request, ctx: ls.Fault.error(500, "the model crashed")
    assert failure(loop, judge, claims_task()).usage.cost_usd == 0.0  # type: ignore[attr-defined]


def test_prose_fence_and_trailing_comma_through_the_server(loop, server):
    server.responder = lambda r: (
        'Here you go:\n```json\n{"verdicts": [{"index": 0, "verdict": "yes",},'
        ' {"index": 1, "verdict": "no"},],}\n```'
    )
    answer, _ = call(loop, judge_for(server), PARIS)
    assert [v.verdict for v in answer.verdicts] == ["yes", "no"]


def test_blocks_that_disagree_through_the_server_are_a_retryable_parse_error(loop, server):
    reply = '{"claims": ["draft"]}\nLet me fix that.\n```json\n{"claims": ["final"]}\n```'
    server.responder = lambda r: reply
    err = failure(loop, judge_for(server), claims_task())
    assert (err.code, err.retryable, err.raw) == ("parse_error", True, reply)
    assert "the reply holds 2 different answers" in str(err)
    assert server.requests == 1


def test_the_same_answer_twice_through_the_server_is_taken(loop, server):
    once = '{"claims": ["Paris is in France."]}'
    server.responder = lambda r: f"{once}\nAs JSON again:\n```json\n{once}\n```"
    answer, _ = call(loop, judge_for(server), claims_task())
    assert answer.claims == ["Paris is in France."]


def test_refusal_is_a_retryable_parse_error_and_not_retried_inside(loop, server):
    server.responder = lambda r: "I cannot evaluate this."
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable, err.raw) == ("parse_error", True, "I cannot evaluate this.")
    assert "I cannot evaluate this." in str(err)
    assert server.requests == 1
    assert err.usage.requests == 1  # type: ignore[attr-defined]


def test_malformed_reply_that_stopped_early_is_a_parse_error_not_a_split(loop, server):
    server.faults = {"malformed": 1.0}
    err = failure(loop, judge_for(server), verify_task(0, 1, 2, 3))
    assert err.code == "parse_error" and err.retryable
    assert server.requests == 1


# ------------------------------------------------------------------ structured-output fallback


def test_schema_with_refs_rejected_switches_to_inlined_schema_once(loop, server, ragnotebook_log):
    server.rule = ls.reject_refs_rule
    judge = judge_for(server)
    results = call_many(loop, judge, [PARIS] * 12)  # all in flight at once
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert {faithfulness(answer) for answer, _ in results} == {0.5}
    assert server.status_counts == {400: 1, 200: 12}
    assert sorted(usage.requests for _, usage in results) == [1] * 11 + [2]
    assert judge.structured_output == "json_schema_inline"
    assert judge.identity()["structured_output"] == "json_schema_inline"
    later = server.log[1:]
    assert all(r["response_format"]["type"] == "json_schema" for r in later)
    assert not any("$defs" in json.dumps(r["response_format"]) for r in later)
    switches = [w for w in ragnotebook_log if "structured output" in str(w.message)]
    assert len(switches) == 1 and switches[0].category is UserWarning
    # more rows later: still no 400
    call_many(loop, judge, [PARIS] * 5)
    assert server.status_counts[400] == 1


def test_refs_rejected_after_a_schema_without_refs_passed_still_one_400(loop, server):
    server.rule = ls.reject_refs_rule
    judge = judge_for(server)
    # Claims has no $defs: it passes; the first Verdicts request then probes alone
    results = call_many(loop, judge, [claims_task()] * 4 + [PARIS] * 8)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert server.status_counts == {400: 1, 200: 12}
    assert judge.structured_output == "json_schema_inline"


def test_json_object_only_provider_gets_json_mode_and_the_schema_in_the_prompt(
    loop, server, ragnotebook_log
):
    server.rule = ls.json_object_only_rule
    judge = judge_for(server)
    results = call_many(loop, judge, [PARIS] * 8 + [claims_task()] * 4)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert [faithfulness(a) for a, _ in results[:8]] == [0.5] * 8
    assert server.status_counts == {400: 1, 200: 12}
    assert judge.identity()["structured_output"] == "json_object"
    for request in server.log[1:]:
        assert request["response_format"] == {"type": "json_object"}
        assert "valid against this JSON schema" in ls.message_text(request)
    assert len([w for w in ragnotebook_log if "structured output" in str(w.message)]) == 1


def test_provider_without_response_format_falls_back_to_the_prompt(loop, server):
    def no_response_format(request, ctx):
        if "response_format" in request:
            return ls.Fault.error(400, "response_format is not supported by this model")
        return None

    server.rule = no_response_format
    judge = judge_for(server)
    results = call_many(loop, judge, [PARIS] * 6)
    assert {faithfulness(a) for a, _ in results} == {0.5}
    assert server.status_counts == {400: 2, 200: 6}  # json_schema, then json_object
    assert judge.structured_output == "prompt"
    assert "response_format" not in server.log[-1]
    assert "valid against this JSON schema" in ls.message_text(server.log[-1])


def test_forced_mode_and_unrelated_400_do_not_switch(loop, server):
    judge = judge_for(server, structured_output="json_object")
    call(loop, judge, PARIS)
    assert server.log[-1]["response_format"] == {"type": "json_object"}
    server.script_statuses = [400]
    err = failure(loop, judge, PARIS)
    assert (err.code, err.retryable) == ("bad_request", False)
    assert judge.structured_output == "json_object"


# ------------------------------------------------------------------ temperature


def test_rejected_temperature_is_dropped_once_with_one_warning(loop, server):
    server.rule = ls.reject_temperature_rule
    judge = judge_for(server)
    before = judge.identity()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = call_many(loop, judge, [PARIS] * 6)
        call_many(loop, judge, [PARIS] * 3)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert server.status_counts == {400: 1, 200: 9}
    assert [w.category for w in caught if "temperature" in str(w.message)] == [UserWarning]
    assert judge.temperature_dropped
    assert judge.identity()["temperature"] == "dropped"
    assert judge.identity() != before  # enters the cache key
    assert all("temperature" not in r for r in server.log[1:])


def test_temperature_none_is_not_sent(loop, server):
    server.rule = ls.reject_temperature_rule
    _, usage = call(loop, judge_for(server, temperature=None), PARIS)
    assert usage.requests == 1
    assert server.status_counts == {200: 1}


# ------------------------------------------------------------------ reasoning models


def test_empty_content_cut_by_the_budget_is_asked_again_with_more(loop, server):
    def reasoning(request):
        if request["max_tokens"] < 4000:
            return {"content": "", "finish_reason": "length", "reasoning_content": "hmm " * 50}
        return answer_by_task(request)

    server.responder = reasoning
    answer, usage = call(loop, judge_for(server), PARIS)
    assert faithfulness(answer) == 0.5  # never read as "no verdicts"
    assert [r["max_tokens"] for r in server.log] == [2048, 4096]
    assert usage.requests == 2


def test_budget_exhausted_twice_is_an_error_not_an_empty_answer(loop, server):
    server.responder = lambda r: {"content": None, "finish_reason": "length"}
    err = failure(loop, judge_for(server, max_tokens=100), PARIS)
    assert err.code == "truncated" and err.retryable
    assert [r["max_tokens"] for r in server.log] == [100, 200]


def test_a_reply_that_fills_the_larger_budget_too_is_final_not_retried(loop, server):
    # the model writes its whole budget twice: an engine retry would pay for the same
    # two cut-off replies again (a user saw 6 requests for one task)
    def responder(request):
        return {
            "content": '{"claims": ["Paris is in France", "Paris ha',
            "finish_reason": "length",
            "usage": {"completion_tokens": request["max_tokens"]},
        }

    server.responder = responder
    err = failure(loop, judge_for(server, max_tokens=300), claims_task())
    assert (err.code, err.retryable) == ("truncated", False)
    assert "needs more than 600 tokens (asked again with 600 after 300)" in str(err)
    assert "max_tokens=" in str(err)
    assert [r["max_tokens"] for r in server.log] == [300, 600]


def test_a_cut_well_under_the_budget_stays_retryable(loop, server):
    # "length" with few tokens written is no budget problem (a proxy cutting the
    # stream): the engine may ask again
    server.responder = lambda r: {
        "content": '{"claims": ["Paris',
        "finish_reason": "length",
        "usage": {"completion_tokens": 12},
    }
    err = failure(loop, judge_for(server, max_tokens=300), claims_task())
    assert (err.code, err.retryable) == ("truncated", True)


def test_unfinished_reasoning_at_the_budget_with_stop_is_asked_again(loop, server):
    def responder(request):
        if request["max_tokens"] == 2048:
            return {"content": "<think>Let me think " * 30, "usage": {"completion_tokens": 2048}}
        return answer_by_task(request)

    server.responder = responder
    answer, usage = call(loop, judge_for(server), PARIS)
    assert faithfulness(answer) == 0.5
    assert usage.requests == 2
    assert usage.completion_tokens > 2048


def test_think_block_is_stripped(loop, server):
    server.responder = lambda r: (
        "<think>Is {this} the answer? Maybe "
        '{"verdicts": [{"index": 0, "verdict": "no"}]}...</think>\n' + answer_by_task(r)
    )
    answer, _ = call(loop, judge_for(server), PARIS)
    assert faithfulness(answer) == 0.5


def test_null_content_is_a_retryable_empty_content_error(loop, server):
    server.responder = lambda r: {"content": None, "finish_reason": "stop"}
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("empty_content", True)
    assert server.requests == 1


def test_content_filter_is_not_retryable(loop, server):
    server.responder = lambda r: {"content": None, "finish_reason": "content_filter"}
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("content_filter", False)


# ------------------------------------------------------------------ truncation


def cut_when_more_than(limit: int):
    def responder(request):
        full = answer_by_task(request)
        if len(requested_indices(request)) > limit:
            return {"content": full[: len(full) // 2], "finish_reason": "length"}
        return full

    return responder


def test_truncated_reply_is_split_and_merged_keeping_row_indices(loop, server):
    server.responder = cut_when_more_than(2)
    task = verify_task(10, 11, 12, 13, 14)
    answer, usage = call(loop, judge_for(server), task)
    assert [v.index for v in answer.verdicts] == [10, 11, 12, 13, 14]
    assert [requested_indices(r) for r in server.log] == [
        [10, 11, 12, 13, 14],
        [10, 11],
        [12, 13, 14],
        [12],
        [13, 14],
    ]
    assert usage.requests == 5
    assert server.max_in_flight == 1  # halves run one after the other


def test_unterminated_json_near_the_budget_counts_as_cut_off(loop, server):
    def responder(request):
        full = answer_by_task(request)
        if len(requested_indices(request)) > 1:
            return {"content": full[:-5], "usage": {"completion_tokens": 1000}}
        return full

    server.responder = responder
    answer, usage = call(loop, judge_for(server, max_tokens=1024), verify_task(0, 1))
    assert [v.index for v in answer.verdicts] == [0, 1]
    assert usage.requests == 3


def test_a_prefix_is_never_scored(loop, server):
    server.responder = cut_when_more_than(0)
    err = failure(loop, judge_for(server), verify_task(0, 1))
    assert (err.code, err.retryable) == ("truncated", True)
    assert err.raw and not err.raw.rstrip().endswith("}")
    # whole task, then halves; the single-item half also tried a bigger budget once
    assert [requested_indices(r) for r in server.log] == [[0, 1], [0], [0]]
    assert [r["max_tokens"] for r in server.log] == [2048, 2048, 4096]


def test_truncated_claims_are_asked_again_with_a_bigger_budget(loop, server):
    def responder(request):
        full = answer_by_task(request)
        if request["max_tokens"] <= 2048:
            return {"content": full[:20], "finish_reason": "length"}
        return full

    server.responder = responder
    answer, usage = call(loop, judge_for(server), claims_task())
    assert len(answer.claims) == 2
    assert usage.requests == 2


# ------------------------------------------------------------------ errors


def test_rate_limit_carries_retry_after(loop, server):
    server.script_statuses = [ls.Fault.rate_limit(2.5)]
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable, err.retry_after) == ("rate_limited", True, 2.5)
    server.script_statuses = [ls.Fault.error(429, headers={"retry-after-ms": "1500"})]
    assert failure(loop, judge_for(server), PARIS).retry_after == 1.5
    assert server.requests == 2  # no hidden retries in litellm or the OpenAI client


def test_rate_limited_once_then_ok_is_left_to_the_engine(loop, server):
    server.script_statuses = [429]
    judge = judge_for(server)
    assert failure(loop, judge, PARIS).code == "rate_limited"
    answer, _ = call(loop, judge, PARIS)
    assert faithfulness(answer) == 0.5
    assert server.requests == 2


def test_quota_exhausted_is_not_retryable(loop, server):
    server.script_statuses = [
        ls.Fault.error(429, "You exceeded your current quota.", code="insufficient_quota")
    ]
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("quota_exceeded", False)


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retryable(loop, server, status):
    server.script_statuses = [status]
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("server_error", True)
    assert server.requests == 1


def test_context_length_exceeded_is_permanent(loop, server):
    server.rule = ls.context_length_rule(200)
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("context_too_long", False)
    assert server.requests == 1


def test_context_length_code_without_the_usual_wording(loop, server):
    server.script_statuses = [ls.Fault.error(400, "Too long.", code="context_length_exceeded")]
    assert failure(loop, judge_for(server), PARIS).code == "context_too_long"


def test_auth_error_is_permanent_and_the_key_is_redacted(loop, server):
    server.rule = ls.auth_rule("sk-the-right-key")
    secret = "sk-wrong-but-secret-123"
    err = failure(loop, judge_for(server, api_key=secret), PARIS)
    assert (err.code, err.retryable) == ("auth_error", False)
    assert server.requests == 1
    assert secret not in str(err) and secret not in repr(err.args)
    assert "Incorrect API key provided: ***" in str(err)


def test_other_400_is_a_bad_request(loop, server):
    server.script_statuses = [ls.Fault.error(400, "Invalid value for 'seed'.", param="seed")]
    err = failure(loop, judge_for(server), PARIS)
    assert (err.code, err.retryable) == ("bad_request", False)


def test_a_404_names_the_url_and_suggests_v1(loop, server, transport):
    server.rule = ls.path_prefix_rule("/v1")
    judge = LiteLLMJudge(MODEL, api_base=server.base_url, api_key=KEY, transport=transport)
    err = failure(loop, judge, PARIS)
    assert (err.code, err.retryable, err.status) == ("bad_request", False, 404)
    assert err.args[0].endswith(
        f" (POST {server.base_url}/chat/completions answered 404 Not Found; "
        "OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, Ollama) serve the API under "
        f"/v1: try api_base='{server.base_url}/v1')"
    )
    assert server.status_counts == {404: 1}
    # with /v1 the request goes through
    answer, _ = call(loop, judge_for(server), PARIS)
    assert faithfulness(answer) == 0.5


def test_an_api_base_ending_in_the_endpoint_path_is_cut_to_its_base(loop, server, transport):
    # the endpoint's full URL, pasted from a server's docs: the client adds the path itself
    for pasted in (f"{server.url}/chat/completions", f"{server.url}/chat/completions/"):
        with pytest.warns(UserWarning, match="ends in the endpoint's path") as caught:
            judge = LiteLLMJudge(MODEL, api_base=pasted, api_key=KEY, transport=transport)
        assert f"using api_base='{server.url}'" in str(caught[0].message)
        assert judge.api_base == server.url and judge.identity()["api_base"] == server.url
        answer, _ = call(loop, judge, PARIS)
        assert faithfulness(answer) == 0.5


def test_an_api_base_without_a_scheme_fails_at_once(server):
    # without http:// every request is a connection error, retried for seconds
    bare = server.url.removeprefix("http://")
    t0 = time.perf_counter()
    with pytest.raises(ValueError) as caught:
        LiteLLMJudge(MODEL, api_base=bare, api_key=KEY)
    assert time.perf_counter() - t0 < 1
    assert str(caught.value) == (
        f"api_base must start with http:// or https://, got {bare!r} "
        f"(did you mean api_base={server.url!r}?)"
    )
    assert server.status_counts == {}
    with pytest.raises(ValueError, match="api_base must start with http:// or https://"):
        pd.DataFrame({"question": ["q"], "answer": ["a."], "contexts": [["a."]]}).rag.evaluate(
            model=MODEL,
            api_base="localhost:8000/v1",
            progress=False,
        )
    assert LiteLLMJudge(MODEL, api_base="HTTPS://example.com/v1", api_key=KEY).api_base


def test_a_404_on_another_version_names_the_path(loop, server):
    base = server.url[: -len("/v1")] + "/v2"
    server.rule = ls.path_prefix_rule("/v1")
    err = failure(loop, LiteLLMJudge(MODEL, api_base=base, api_key=KEY), PARIS)
    assert err.code == "bad_request"
    assert "serve the API under /v1, not /v2)" in str(err)


def test_a_404_under_v1_points_at_the_model_name(loop, server):
    server.script_statuses = [404]
    err = failure(loop, judge_for(server), PARIS)
    assert err.code == "bad_request"
    assert "does not exist" in str(err)
    assert f"GET {server.url}/models lists the ones the server has" in str(err)


def test_timeout_per_request(loop, server):
    server.latency = 2.0
    start = time.perf_counter()
    err = failure(loop, judge_for(server, timeout=0.3), PARIS)
    assert (err.code, err.retryable) == ("timeout", True)
    assert time.perf_counter() - start < 1.8


def test_connection_refused(loop, transport):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    judge = LiteLLMJudge(
        MODEL,
        api_base=f"http://127.0.0.1:{port}/v1",
        api_key=KEY,
        timeout=2,
        transport=transport,
    )
    err = failure(loop, judge, PARIS)
    assert (err.code, err.retryable) == ("connection_error", True)


def test_a_reply_cut_off_mid_way_is_a_connection_error_that_says_so(loop, server, transport):
    server.script_statuses = [ls.Fault.disconnect()]
    err = failure(loop, judge_for(server, transport=transport), PARIS)
    assert (err.code, err.retryable) == ("connection_error", True)
    if transport == "openai":  # (litellm words it its own way)
        assert (
            f"{server.url}/chat/completions closed the connection before its reply was "
            "complete" in str(err)
        )
        assert "cannot reach" not in str(err)
    # the next request is answered
    answer, _ = call(loop, judge_for(server, transport=transport), PARIS)
    assert faithfulness(answer) == 0.5


# ------------------------------------------------------------------ identity and secrets


def test_the_api_key_only_travels_in_the_authorization_header(loop, server, transport):
    secret = "sk-very-secret-0123456789"
    seen: list[tuple[str | None, str | None]] = []

    def capture(request, ctx):
        seen.append((ctx.headers.get("authorization"), ctx.headers.get("x-extra")))
        return None

    server.rule = capture
    # a secret-looking option: a litellm credential, or (the direct transport takes
    # only Chat Completions options) a header sent as extra_headers
    secret_option: dict[str, Any] = (
        {"aws_secret_access_key": "hush-hush"}
        if transport == "litellm"
        else {"extra_headers": {"X-Extra": "hush-hush"}}
    )
    judge = judge_for(server, api_key=secret, seed=3, **secret_option)
    call(loop, judge, PARIS)
    assert seen == [(f"Bearer {secret}", None if transport == "litellm" else "hush-hush")]
    assert secret not in json.dumps(server.log)
    assert secret not in repr(judge) and secret not in json.dumps(judge.identity())
    assert "hush-hush" not in json.dumps(judge.identity())
    assert judge.identity()["options"] == {"seed": 3}
    assert server.log[-1]["seed"] == 3


def test_identity_is_json_safe_and_complete(loop, server):
    judge = judge_for(server, max_tokens=512, top_p=0.9)
    ident = judge.identity()
    assert json.loads(json.dumps(ident)) == ident
    assert ident["judge"] == "litellm:openai/test-model"
    assert ident["api_base"] == server.url
    assert (ident["temperature"], ident["max_tokens"]) == (0.0, 512)
    assert ident["options"] == {"top_p": 0.9}
    assert ident["prompt_versions"] == prompts.versions()
    assert judge.num_retries == 4 and judge.timeout == 5.0
    assert judge.cacheable is True


def test_constructor_validation():
    with pytest.raises(ValueError):
        LiteLLMJudge("  ")
    with pytest.raises(ValueError, match="structured_output"):
        LiteLLMJudge(MODEL, structured_output="xml")
    with pytest.raises(TypeError):
        LiteLLMJudge(MODEL, messages=[])


def test_a_model_without_a_known_provider_fails_at_once():
    import pandas as pd

    import ragnotebook as rn

    df = pd.DataFrame({"question": ["q"], "answer": ["a"], "contexts": [["c"]]})
    with pytest.raises(ValueError, match=r"model 'offlin'.*did you mean model='offline'"):
        rn.faithfulness(df, model="offlin", progress=False)
    with pytest.raises(ValueError, match=r"model 'my-model'.*write it as 'provider/model'"):
        LiteLLMJudge("my-model")
    with pytest.raises(ValueError, match=r"'openai/' names a provider but no model"):
        LiteLLMJudge("openai/")
    # a provider/model string whose provider litellm does not know: not "write it as
    # 'provider/model'", which it already is; a near provider is proposed
    with pytest.raises(
        ValueError, match=r"'opneai' is not a provider litellm knows \(did you mean 'openai'\?\)"
    ):
        LiteLLMJudge("opneai/gpt-4o-mini")
    with pytest.raises(
        ValueError, match=r"'nope' is not a provider litellm knows; its providers"
    ) as info:
        LiteLLMJudge("nope/xx")
    assert "write it as" not in str(info.value) and "did you mean" not in str(info.value)
    with pytest.raises(ValueError, match=r"unknown metric 'bogus'; expected one of context_recall"):
        rn.evaluate(df, metrics=["bogus"], model="offline")
    # a provider prefix, a provider litellm knows the model of, or an explicit provider pass
    assert LiteLLMJudge("hosted_vllm/my-model").model == "hosted_vllm/my-model"
    assert LiteLLMJudge("gpt-4o-mini").model == "gpt-4o-mini"
    assert LiteLLMJudge("my-model", custom_llm_provider="openai").model == "my-model"


@pytest.mark.parametrize("transport", ["openai", "litellm"])
def test_a_server_that_accepts_and_never_replies_stops_the_run(transport):
    import socket
    import threading

    import pandas as pd

    import ragnotebook as rn

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)  # never read, never answered

    threading.Thread(target=accept, daemon=True).start()
    try:
        df = pd.DataFrame(
            {
                "question": [f"q{i}" for i in range(12)],
                "answer": ["The sky is blue."] * 12,
                "contexts": [["The sky is blue."]] * 12,
            }
        )
        out = rn.faithfulness(
            df,
            model="openai/test-model",
            api_base=f"http://127.0.0.1:{listener.getsockname()[1]}/v1",
            api_key="none",
            timeout=0.3,
            num_retries=1,
            concurrency=2,
            cache=False,
            transport=transport,
            progress=False,
        )
    finally:
        listener.close()
        for conn in held:
            conn.close()
    assert (out["faithfulness_status"] == "error").all()
    errors = out["faithfulness_error"].tolist()
    assert all(e.startswith("timeout") for e in errors), errors[:2]
    assert sum("answered no call in time" in e for e in errors) >= 10
    # the two calls in flight and the probe's retry; not 12 rows x 2 attempts
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["attempts"] <= 4


@pytest.mark.parametrize(
    ("option", "meant"),
    [("temprature", "temperature"), ("max_token", "max_tokens"), ("api_bse", "api_base")],
)
def test_a_misspelt_judge_option_is_an_error_naming_the_option_meant(option, meant):
    with pytest.raises(TypeError, match=rf"'{option}': did you mean {meant}=\?"):
        LiteLLMJudge("openai/x", api_base="http://127.0.0.1:9/v1", **{option: 1})
    df = pd.DataFrame({"question": ["q"], "answer": ["The depot."], "contexts": [["c"]]})
    with pytest.raises(TypeError, match=rf"did you mean {meant}=\?"):
        df.rag.faithfulness(model="openai/x", api_base="http://127.0.0.1:9/v1", **{option: 1})


def test_provider_options_near_a_known_name_pass_through():
    judge = LiteLLMJudge("openai/x", top_k=40, min_p=0.1, top_p=0.9, seed=7)
    assert judge.litellm_kwargs == {"top_k": 40, "min_p": 0.1, "top_p": 0.9, "seed": 7}
