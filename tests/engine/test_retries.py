"""Engine retries, rate limiting and permanent errors, with scripted judges (no network)."""

import asyncio

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook._limits import AdaptiveLimiter, RetryPolicy
from ragnotebook.engine import Engine


def rows(n):
    return pd.DataFrame(
        {
            "question": [f"q{i}" for i in range(n)],
            "answer": [f"Answer {i}." for i in range(n)],
            "contexts": [[f"Answer {i}."] for i in range(n)],
        }
    )


def run(df, judge, **engine_kw):
    """Score faithfulness with an engine configured directly (fast backoff)."""
    from ragnotebook.api import _Run

    r = _Run(
        df,
        ["faithfulness"],
        model=judge,
        columns=None,
        scale=1,
        decimals=2,
        reason="template",
        reference="auto",
        max_chunks_per_call=20,
        concurrency=4,
        progress=False,
        judge_options={},
    )
    policy = RetryPolicy(base_delay=0.001, max_delay=0.01, jitter=0)
    r.engine = Engine(judge, retry_policy=policy, **engine_kw)
    r.jobs = [j for j in r.jobs]
    asyncio.run(r.engine.arun(r.jobs))
    return r.frame()


def test_transient_errors_are_retried_then_succeed():
    errors = [
        rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0.001),
        rn.JudgeError("500", code="server_error", retryable=True),
        rn.JudgeError("garbled", code="parse_error", retryable=True, raw="I cannot"),
    ]
    judge = rn.MockJudge(extract_claims=[*errors, ["c"]], verify_claims=[["yes"]])
    out = run(rows(1), judge)
    assert out.loc[0, "faithfulness"] == 1.0
    meta = out.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert (meta["attempts"], meta["retries"], meta["rate_limited"], meta["calls"]) == (5, 3, 1, 2)


def test_bounded_retries_then_error_with_raw_text():
    replies = iter(range(100))  # a different unusable reply each time (sampling)
    judge = rn.MockJudge(
        extract_claims=lambda t: rn.JudgeError(
            "no JSON",
            code="parse_error",
            retryable=True,
            raw=f"I cannot evaluate this ({next(replies)}).",
        )
    )
    out = run(rows(2), judge, max_retries=2)
    assert out["faithfulness_status"].tolist() == ["error", "error"]
    assert "I cannot evaluate this (" in out.loc[0, "faithfulness_error"]
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["attempts"] == 6  # 2 x (1 + 2)


@pytest.mark.parametrize("code", ["parse_error", "truncated", "empty_content"])
def test_the_same_unusable_reply_twice_is_not_asked_a_third_time(code):
    judge = rn.MockJudge(
        extract_claims=lambda t: rn.JudgeError(
            "no JSON", code=code, retryable=True, raw="I cannot evaluate this."
        )
    )
    out = run(rows(2), judge, max_retries=4)
    assert out["faithfulness_status"].tolist() == ["error", "error"]
    error = out.loc[0, "faithfulness_error"]
    assert error.startswith(f"{code}: no JSON (the same reply to 2 identical requests in a row")
    assert "I cannot evaluate this." in error
    meta = out.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert (meta["attempts"], meta["retries"]) == (4, 2)  # 2 x (1 + 1), not 2 x (1 + 4)


def test_the_repeat_message_counts_the_identical_replies_not_every_attempt():
    garbled = rn.JudgeError("no JSON", code="parse_error", retryable=True, raw="I cannot.")
    busy = rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0)
    judge = rn.MockJudge(extract_claims=[busy, garbled, garbled, ["c"]])
    out = run(rows(1), judge, max_retries=4)
    error = out.loc[0, "faithfulness_error"]
    assert "(the same reply to 2 identical requests in a row" in error  # attempt 3, reply 2


def test_a_repeated_reply_after_a_different_failure_still_gets_its_retry():
    garbled = rn.JudgeError("no JSON", code="parse_error", retryable=True, raw="I cannot.")
    busy = rn.JudgeError("503", code="server_error", retryable=True)
    judge = rn.MockJudge(extract_claims=[garbled, busy, garbled, ["c"]], verify_claims=[["yes"]])
    out = run(rows(1), judge, max_retries=4)
    assert out.loc[0, "faithfulness"] == 1.0  # not two identical replies in a row


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (rn.JudgeError("503", code="server_error", retryable=True), "a 5xx error"),
        (
            rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0),
            "429 (rate limited)",
        ),
    ],
)
def test_a_server_failing_every_call_stops_the_run_after_a_streak_and_a_probe(error, said):
    judge = rn.MockJudge(extract_claims=lambda t: error, latency=0.001)
    out = run(rows(40), judge, concurrency=4, max_retries=4)
    errors = out["faithfulness_error"].tolist()
    assert (out["faithfulness_status"] == "error").all()
    assert all(e.startswith(error.code) for e in errors)
    skipped = [e for e in errors if e.startswith(f"{error.code}: skipped: ")]
    assert skipped and all(
        f"answered {said} to " in e and "requests in a row" in e for e in skipped
    )
    budget = 1 + (24 if error.code == "rate_limited" else 4)
    # every row spending its budget would be 40 x budget (200, or 1000 for 429s);
    # the streak of 20 plus the probe's budget and the calls in flight is far less
    assert len(judge.tasks) <= 20 + budget + 4 + budget


def test_a_probe_that_gets_through_ends_the_streak_and_the_run_goes_on():
    busy = rn.JudgeError("503", code="server_error", retryable=True)
    script = [busy] * 25 + [["c"]] * 20  # an outage of 25 requests, then the server is back
    judge = rn.MockJudge(extract_claims=script, verify_claims=lambda t: ["yes"] * len(t.items))
    out = run(rows(8), judge, concurrency=1, max_retries=6)
    # rows 0 and 1 spend their budgets (7 + 7 requests); row 2 reaches the 20th failure
    # on its 6th attempt, probes with a budget of its own and gets through on the 26th
    assert out["faithfulness_status"].tolist() == ["error"] * 2 + ["ok"] * 6
    assert not out["faithfulness_error"].str.contains("skipped").any()
    assert sum(t.kind == "extract_claims" for t in judge.tasks) == 25 + 6


def test_transient_server_errors_never_trip_the_breaker():
    import random
    from collections import Counter

    busy = rn.JudgeError("503", code="server_error", retryable=True)
    slow = rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0)
    sent: Counter[str] = Counter()

    def flaky(task):  # 30% of replies fail; each task's draws are its own (seeded)
        sent[task.text] += 1
        draw = random.Random(f"{task.text}/{sent[task.text]}").random()
        return busy if draw < 0.15 else slow if draw < 0.3 else ["c"]

    judge = rn.MockJudge(extract_claims=flaky, verify_claims=lambda t: ["yes"] * len(t.items))
    out = run(rows(300), judge, concurrency=8, max_retries=4)
    assert out["faithfulness_error"].dropna().tolist() == []
    assert out["faithfulness"].tolist() == [1.0] * 300
    assert sum(sent.values()) > 400  # about 130 failed replies along the way


def test_retry_after_is_capped_and_smaller_values_are_honoured():
    p = RetryPolicy(jitter=0.25)
    long = rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=3600)
    short = rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=2)
    assert all(p.delay(long, 1) == 60.0 for _ in range(20))
    assert all(2.0 <= p.delay(short, 1) <= 2.5 for _ in range(20))
    assert RetryPolicy(max_retry_after=5, jitter=0).delay(long, 1) == 5.0


def test_the_rate_limit_budget_is_an_engine_option():
    n429 = 3
    replies = [rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0)] * n429
    judge = rn.MockJudge(extract_claims=[*replies, ["c"]], verify_claims=[["yes"]])
    out = run(rows(1), judge, max_rate_limit_retries=2)
    assert out.loc[0, "faithfulness_status"] == "error"
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["rate_limited"] == 3
    with pytest.raises(ValueError, match="max_rate_limit_retries"):
        Engine(judge, max_rate_limit_retries=-1)


def test_permanent_errors_take_one_attempt():
    judge = rn.MockJudge(
        extract_claims=lambda t: rn.JudgeError("context_length_exceeded", code="context_too_long")
    )
    out = run(rows(3), judge)
    assert out["faithfulness_status"].tolist() == ["error"] * 3
    assert out.loc[0, "faithfulness_error"].startswith("context_too_long")
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["attempts"] == 3


def test_a_scripted_exception_that_is_no_judge_error_fails_the_row_without_retry():
    judge = rn.MockJudge(extract_claims=[RuntimeError("boom"), ["c"]], verify_claims=[["yes"]])
    out = run(rows(1), judge)
    assert out.loc[0, "faithfulness_status"] == "error"
    assert out.loc[0, "faithfulness_error"] == "RuntimeError: boom"
    assert [t.kind for t in judge.tasks] == ["extract_claims"]  # the ["c"] was never asked for


def test_auth_failure_stops_scheduling():
    judge = rn.MockJudge(
        extract_claims=lambda t: rn.JudgeError("bad key", code="auth_error"), latency=0.01
    )
    out = run(rows(20), judge, concurrency=1)
    assert (out["faithfulness_status"] == "error").all()
    assert len(judge.tasks) == 1  # no more calls after the first 401
    assert out["faithfulness_error"].str.contains("auth_error").all()


def test_a_404_before_any_success_stops_scheduling():
    # a wrong api_base path or model name: every call would get the same 404
    missing = rn.JudgeError(
        "NotFoundError: Error code: 404 - model 'llama3' not found",
        code="bad_request",
        status=404,
    )
    judge = rn.MockJudge(extract_claims=lambda t: missing, latency=0.01)
    out = run(rows(20), judge, concurrency=1)
    errors = out["faithfulness_error"].tolist()
    assert (out["faithfulness_status"] == "error").all()
    assert len(judge.tasks) == 1
    assert (
        sum(
            e.startswith(
                "bad_request: skipped: the judge's server answered 404 Not Found and no "
                "call of this run got through"
            )
            for e in errors
        )
        == 19
    )
    # another bad request (one row's input) stops nothing
    other = rn.JudgeError("BadRequestError: invalid image", code="bad_request")
    judge = rn.MockJudge(extract_claims=lambda t: other, latency=0.01)
    out = run(rows(5), judge, concurrency=1)
    assert len(judge.tasks) == 5
    # nor does a 404 after a call got through (that one row's own failure)
    replies = iter([["c"], missing, missing])
    judge = rn.MockJudge(extract_claims=lambda t: next(replies), verify_claims=[["yes"]])
    out = run(rows(3), judge, concurrency=1)
    assert out["faithfulness_status"].tolist() == ["ok", "error", "error"]
    assert "skipped" not in " ".join(out["faithfulness_error"].dropna())


def test_an_unreachable_judge_stops_scheduling_after_one_retry_budget():
    refused = rn.JudgeError("Connection refused", code="connection_error", retryable=True)
    judge = rn.MockJudge(extract_claims=lambda t: refused, latency=0.01)
    out = run(rows(20), judge, concurrency=1, max_retries=2)
    errors = out["faithfulness_error"].tolist()
    assert (out["faithfulness_status"] == "error").all()
    assert all(e.startswith("connection_error") for e in errors)
    skipped = [e for e in errors if "skipped: the judge's server could not be reached" in e]
    assert len(skipped) == 19  # the other rows waited for the first one's probe
    assert len(judge.tasks) == 3  # 1 try + 2 retries; every row retrying would be 60


def test_a_server_that_cuts_off_every_reply_is_named_so_when_the_run_stops():
    cut = rn.JudgeError(
        "Connection error: http://127.0.0.1:8000/v1/chat/completions closed the connection "
        "before its reply was complete (ClientPayloadError: ...)",
        code="connection_error",
        retryable=True,
    )
    judge = rn.MockJudge(extract_claims=lambda t: cut, latency=0.01)
    out = run(rows(5), judge, concurrency=1, max_retries=1)
    skipped = [e for e in out["faithfulness_error"] if "skipped:" in e]
    assert len(skipped) == 4 and all(
        "skipped: the judge's server cut off its replies (every retry of an earlier call lost "
        "the connection mid-reply" in e
        for e in skipped
    )


def test_a_server_that_never_answers_stops_the_run_after_one_retry_budget():
    # a listener that accepts and never replies: every call times out, none gets through
    slow = rn.JudgeError("no reply within 1 s", code="timeout", retryable=True)
    judge = rn.MockJudge(extract_claims=lambda t: slow, latency=0.01)
    out = run(rows(20), judge, concurrency=4, max_retries=2)
    errors = out["faithfulness_error"].tolist()
    assert (out["faithfulness_status"] == "error").all()
    assert all(e.startswith("timeout") for e in errors)
    skipped = [e for e in errors if "skipped: the judge's server answered no call in time" in e]
    assert len(skipped) == 19 and all("raise timeout=" in e for e in skipped)
    assert len(judge.tasks) == 4 + 2  # the calls in flight once, the probe's two retries


def test_timeouts_after_a_success_do_not_stop_the_run():
    slow = rn.JudgeError("no reply within 1 s", code="timeout", retryable=True)
    judge = rn.MockJudge(
        extract_claims=[["c"], slow, slow, slow, ["c"], ["c"]],
        verify_claims=lambda t: ["yes"] * len(t.items),
    )
    out = run(rows(3), judge, concurrency=1, max_retries=1)
    # row 1 spends its budget (1 try + 1 retry) and fails alone; the others are scored
    assert out["faithfulness_status"].tolist() == ["ok", "error", "ok"]
    assert out.loc[1, "faithfulness_error"].startswith("timeout")


def test_calls_in_flight_during_a_probe_wait_instead_of_retrying():
    refused = rn.JudgeError("Connection refused", code="connection_error", retryable=True)
    judge = rn.MockJudge(extract_claims=lambda t: refused, latency=0.01)
    out = run(rows(20), judge, concurrency=4, max_retries=2)
    assert (out["faithfulness_status"] == "error").all()
    # the 4 calls in flight fail once each; only the first keeps trying (2 retries)
    assert len(judge.tasks) == 4 + 2
    stats = out.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert (stats["attempts"], stats["retries"]) == (6, 2)  # waiting calls retried nothing


def test_connection_errors_after_a_success_do_not_stop_the_run():
    refused = rn.JudgeError("Connection refused", code="connection_error", retryable=True)
    judge = rn.MockJudge(
        extract_claims=[["c"], refused, refused, ["c"], ["c"]],
        verify_claims=lambda t: ["yes"] * len(t.items),
    )
    out = run(rows(3), judge, concurrency=1, max_retries=2)
    assert out["faithfulness_status"].tolist() == ["ok", "ok", "ok"]


def test_rate_limit_has_its_own_budget():
    n429 = 8  # more than max_retries, fewer than the rate-limit budget
    replies = [rn.JudgeError("429", code="rate_limited", retryable=True, retry_after=0)] * n429
    judge = rn.MockJudge(extract_claims=[*replies, ["c"]], verify_claims=[["yes"]])
    out = run(rows(1), judge, max_retries=2)
    assert out.loc[0, "faithfulness_status"] == "ok"


def test_call_timeout_is_per_call_and_retried():
    slow = {"n": 0}

    async def extract(task):
        slow["n"] += 1
        if slow["n"] == 1:
            await asyncio.sleep(5)
        return ["c"]

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    out = run(rows(1), judge, call_timeout=0.2)
    assert out.loc[0, "faithfulness_status"] == "ok"
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["timeouts"] == 1


@pytest.mark.parametrize("call_timeout", [None, 3.0])
def test_a_judge_that_raises_timeout_error_is_reported_as_its_own_timeout(call_timeout):
    # the judge's client gave up at once: not our call_timeout, and never a format error
    def extract(task):
        raise TimeoutError("read timed out after 30 s")

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    out = run(rows(1), judge, call_timeout=call_timeout, max_retries=1)
    assert out.loc[0, "faithfulness_status"] == "error"
    error = out.loc[0, "faithfulness_error"]
    assert "the judge call timed out (TimeoutError: read timed out after 30 s)" in error
    assert "longer than" not in error
    meta = out.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert (meta["timeouts"], meta["retries"]) == (2, 1)  # retryable, retried once


def test_call_timeout_message_names_the_limit():
    async def extract(task):
        await asyncio.sleep(5)
        return ["c"]

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    out = run(rows(1), judge, call_timeout=0.05, max_retries=0)
    assert "the judge call took longer than 0.05 s" in out.loc[0, "faithfulness_error"]


def test_adaptive_limiter_halves_and_recovers():
    lim = AdaptiveLimiter(16, cooldown=0)
    lim.on_rate_limited()
    assert lim.limit == 8
    lim.on_rate_limited()
    assert lim.limit == 4
    assert lim.ceiling == 8  # the limit the last 429 was seen at
    for _ in range(4 + 5 + 6):
        lim.on_success()
    assert lim.limit == 7
    # back up to the last 429's limit and beyond, growth is twice as slow: a server that
    # caps concurrency answered each quick step up with a burst of 429s
    for _ in range(7 * 2 - 1):
        lim.on_success()
    assert lim.limit == 7
    lim.on_success()
    assert lim.limit == 8
    for _ in range(sum(2 * k for k in range(8, 16))):
        lim.on_success()
    assert lim.limit == 16


def test_rate_limit_cooldown_treats_a_burst_as_one_signal():
    lim = AdaptiveLimiter(16, cooldown=60)
    for _ in range(5):
        lim.on_rate_limited()
    assert lim.limit == 8


def test_retry_policy_delays():
    p = RetryPolicy(base_delay=0.5, max_delay=4, jitter=0)
    other = rn.JudgeError("x", code="server_error", retryable=True)
    assert [p.delay(other, a) for a in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 4.0, 4.0]
    assert p.delay(rn.JudgeError("x", code="rate_limited", retryable=True, retry_after=2), 1) == 2
    assert not p.should_retry(rn.JudgeError("x", code="auth_error"), 0, 0)
    assert not p.should_retry(ValueError("x"), 0, 0)
    jittered = RetryPolicy(base_delay=1, jitter=0.25).delay(other, 1)
    assert 1.0 <= jittered <= 1.25


@pytest.mark.parametrize("rpm", [600])
def test_rpm_limit_paces_calls(rpm):
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"])
    out = run(rows(3), judge, rpm=rpm)
    assert (out["faithfulness_status"] == "ok").all()


def test_rpm_bucket_holds_a_second_not_a_minute(monkeypatch):
    # a (rpm, 60 s) bucket let rpm=120 send 140 requests in its first 10 s
    import aiolimiter

    made = []
    real = aiolimiter.AsyncLimiter

    def recording(max_rate, time_period=60):
        made.append((max_rate, time_period))
        return real(max_rate, time_period)

    monkeypatch.setattr(aiolimiter, "AsyncLimiter", recording)
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"])
    out = run(rows(2), judge, rpm=6000, tpm=600000)
    assert (out["faithfulness_status"] == "ok").all()
    assert made == [(100.0, 1.0), (600000, 60)]  # requests: 1 s of quota; tokens: 1 min


def test_limiter_hands_slots_over_in_order_and_survives_cancellation():
    async def main():
        lim = AdaptiveLimiter(2)
        order = []

        async def worker(k, hold):
            await lim.acquire()
            order.append(k)
            try:
                await asyncio.sleep(hold)
            finally:
                lim.release()

        tasks = [asyncio.ensure_future(worker(k, 0.01)) for k in range(6)]
        victim = asyncio.ensure_future(worker("cancelled", 0.01))
        await asyncio.sleep(0)
        victim.cancel()
        await asyncio.gather(*tasks)
        assert order == [0, 1, 2, 3, 4, 5]
        assert (lim.in_flight, lim.max_in_flight) == (0, 2)
        lim.on_rate_limited()
        assert lim.limit == 1
        await asyncio.gather(*(worker(k, 0) for k in range(3)))
        assert lim.in_flight == 0

    asyncio.run(main())


def test_calls_stopped_by_call_timeout_name_that_option():
    # the engine's own per-call limit fired (the judge's timeout= was never lowered)
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], latency=0.5)
    out = run(rows(6), judge, concurrency=2, max_retries=1, call_timeout=0.05)
    errors = out["faithfulness_error"].tolist()
    assert (out["faithfulness_status"] == "error").all()
    skipped = [e for e in errors if "skipped: the judge's server answered no call in time" in e]
    assert skipped and all(e.endswith("raise call_timeout=") for e in skipped)
    assert all("took longer than 0.05 s" in e for e in errors)
