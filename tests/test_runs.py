"""run_evals / arun_evals: targets, errors, fail_fast, chat outputs, scorer ids, callbacks."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
import warnings
from typing import Any

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.runs import EvalRunResult, RunEvalsError

DOCS = {
    "Where is the Harbor Museum?": "The Harbor Museum is on Pier 4.",
    "When does the museum open?": "The museum opens at 9 am every day.",
    "What does a ticket cost?": "A ticket costs 12 euros.",
}
DATA = [{"input": q, "ground_truth": a} for q, a in DOCS.items()]


def rag_app(question: str) -> dict[str, Any]:
    chunk = DOCS[question]
    return {"answer": chunk, "contexts": [chunk, "The cafe sells coffee."]}


def offline_scorers() -> list[Any]:
    return [
        rn.create_context_recall_scorer(model="offline", context_extractor=rn.contexts_from_output),
        rn.create_context_precision_scorer(
            model="offline", context_extractor=rn.contexts_from_output
        ),
        rn.create_faithfulness_scorer(model="offline"),
    ]


# ------------------------------------------------------------------ targets


def test_sync_target_scores_every_item_with_the_dataframe_schema():
    res = rn.run_evals(DATA, scorers=offline_scorers(), target=rag_app, progress=False)
    assert isinstance(res, EvalRunResult)
    f = res.frame
    assert list(f.index) == [0, 1, 2]
    for col in ("input", "ground_truth", "answer", "contexts", "target_latency_s"):
        assert col in f.columns
    assert "question" not in f.columns  # string inputs: `input` plays the question role
    assert f["target_status"].tolist() == ["ok"] * 3
    assert f["target_error"].isna().all()
    assert str(f["target_latency_s"].dtype) == "Float64"
    assert (f["target_latency_s"] >= 0).all()
    assert f.loc[0, "answer"] == "The Harbor Museum is on Pier 4."
    assert f.loc[0, "contexts"] == ["The Harbor Museum is on Pier 4.", "The cafe sells coffee."]
    for m in ("context_recall", "context_precision", "faithfulness"):
        assert str(f[m].dtype) == "Float64"
        for suffix in ("_reason", "_verdicts", "_status", "_error"):
            assert f"{m}{suffix}" in f.columns
        assert isinstance(f.loc[0, f"{m}_verdicts"], list)
        assert f[f"{m}_status"].tolist() == ["ok"] * 3
    assert res.scores["faithfulness-scorer"] == {
        "mean": 1.0,
        "n_scored": 3,
        "n_error": 0,
        "n_total": 3,
        "coverage": 1.0,
        "metric": "faithfulness",
        "column": "faithfulness",
    }
    assert res.scores["context-recall-scorer"]["mean"] == 1.0
    # precision: the relevant chunk is first of two
    assert res.scores["context-precision-scorer"]["mean"] == 1.0
    # the frame works with the DataFrame tools
    summary = f.rag.summary()
    assert list(summary.index) == ["context_recall", "context_precision", "faithfulness"]
    assert summary.loc["faithfulness", "scored"] == "3/3"
    assert len(f.rag.claims()) > 0
    chunks = f.rag.chunks()
    assert chunks.groupby("row").size().tolist() == [2, 2, 2]
    meta = f.attrs["ragnotebook"]
    json.dumps(meta)
    assert meta["columns"]["question"] == "input"
    assert meta["judge"] == "offline-v24"
    assert meta["metrics"]["faithfulness"]["scorer_id"] == "faithfulness-scorer"
    assert meta["metrics"]["faithfulness"]["statuses"] == {"ok": 3}
    assert meta["run_evals"]["target_stats"]["n_ok"] == 3
    # summary() per scorer id
    s = res.summary()
    assert list(s.index) == [
        "context-recall-scorer",
        "context-precision-scorer",
        "faithfulness-scorer",
    ]
    assert s.loc["faithfulness-scorer", "scored"] == "3/3"
    assert s.loc["context-recall-scorer", "metric"] == "context_recall"
    assert "faithfulness-scorer=1.000" in repr(res)


def test_the_frame_feeds_the_views_when_available():
    views = pytest.importorskip("ragnotebook.views.static")
    res = rn.run_evals(DATA, scorers=offline_scorers(), target=rag_app, progress=False)
    assert views.explore(res.frame) is not None


def test_async_target_and_async_twin():
    async def app(question: str) -> str:
        await asyncio.sleep(0.01)
        return DOCS[question]

    scorer = rn.create_faithfulness_scorer(model="offline", context=list(DOCS.values()))
    res = rn.run_evals(DATA, scorers=[scorer], target=app, progress=False)
    assert res.scores["faithfulness-scorer"]["mean"] == 1.0
    assert res.frame.attrs["ragnotebook"]["run_evals"]["target_async"] is True

    async def main() -> EvalRunResult:
        return await rn.arun_evals(DATA, scorers=[scorer], target=app, progress=False)

    res2 = asyncio.run(main())
    assert res2.frame["faithfulness"].tolist() == res.frame["faithfulness"].tolist()


def test_sync_targets_run_in_worker_threads_concurrently():
    threads: set[int] = set()
    # every call waits until all three are running at once (no timing: a loaded machine
    # only makes them wait longer); calls run one after another would break the barrier
    together = threading.Barrier(len(DATA), timeout=30)

    def slow(question: str) -> str:
        threads.add(threading.get_ident())
        together.wait()
        return DOCS[question]

    assert len(DATA) == 3
    scorer = rn.create_faithfulness_scorer(model="offline", context=list(DOCS.values()))
    res = rn.run_evals(DATA, scorers=[scorer], target=slow, concurrency=3, progress=False)
    assert res.frame["faithfulness_status"].tolist() == ["ok"] * 3
    assert not together.broken and len(threads) == 3
    assert threading.get_ident() not in threads


def test_a_sync_target_gets_concurrency_threads_beyond_the_default_pool():
    # 24 calls that can only finish together: the loop's default pool (min(32, cpus + 4)
    # threads) ran 6 at a time here, so the barrier broke and the latencies held queueing
    n = 24
    barrier = threading.Barrier(n, timeout=10)
    spans: dict[str, float] = {}

    def app(question: str) -> str:
        t0 = time.perf_counter()
        barrier.wait()
        spans[question] = time.perf_counter() - t0
        return "x"

    data = [{"input": f"q{i}"} for i in range(n)]
    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    res = rn.run_evals(data, scorers=[scorer], target=app, concurrency=n, progress=False)
    f = res.frame
    assert (f["target_status"] == "ok").all(), f["target_error"].dropna().tolist()
    # the latency is the time spent in the target, measured in its thread
    for question, latency in zip(f["input"], f["target_latency_s"], strict=True):
        assert abs(latency - spans[question]) < 0.05


def test_a_sync_target_keeps_its_context_variables():
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("tenant", default="none")
    seen: list[str] = []

    def app(question: str) -> str:
        seen.append(var.get())
        return "x"

    async def main() -> None:
        var.set("acme")
        scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
        await rn.arun_evals([{"input": "q"}], scorers=[scorer], target=app, progress=False)

    asyncio.run(main())
    assert seen == ["acme"]


def test_concurrency_limits_items_in_flight():
    state = {"now": 0, "max": 0}

    async def app(question: str) -> str:
        state["now"] += 1
        state["max"] = max(state["max"], state["now"])
        await asyncio.sleep(0.02)
        state["now"] -= 1
        return "x"

    data = [{"input": f"q{i}"} for i in range(10)]
    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    rn.run_evals(data, scorers=[scorer], target=app, concurrency=2, progress=False)
    assert state["max"] == 2


def test_sync_call_inside_a_running_event_loop():
    scorer = rn.create_faithfulness_scorer(model="offline", context=list(DOCS.values()))

    async def notebook_cell() -> EvalRunResult:
        return rn.run_evals(DATA, scorers=[scorer], target=lambda q: DOCS[q], progress=False)

    assert asyncio.run(notebook_cell()).scores["faithfulness-scorer"]["n_scored"] == 3


def test_dataframe_data_keeps_index_and_extra_columns():
    df = pd.DataFrame(
        {
            "question": list(DOCS),
            "reference": list(DOCS.values()),
            "topic": ["place", "time", "price"],
        },
        index=["a", "b", "c"],
    )
    scorer = rn.create_context_recall_scorer(model="offline", context=list(DOCS.values()))
    res = rn.run_evals(df, scorers=[scorer], target=lambda q: DOCS[q], progress=False)
    f = res.frame
    assert list(f.index) == ["a", "b", "c"]
    assert f["input"].tolist() == list(DOCS)
    assert f["ground_truth"].tolist() == list(DOCS.values())
    assert f["topic"].tolist() == ["place", "time", "price"]
    assert "reference" not in f.columns  # would make the ground_truth role ambiguous
    assert f["context_recall"].tolist() == [1.0, 1.0, 1.0]


# ------------------------------------------------------------------ errors


def flaky(question: str) -> dict[str, Any]:
    if question.startswith("When"):
        raise ConnectionError("vector store timed out")
    return rag_app(question)


def test_a_target_that_raises_is_recorded_and_the_run_goes_on():
    # one warning, as a run whose judge failed gives (a nightly job whose app was down
    # read NaN means without a word)
    with pytest.warns(UserWarning, match="rows failed") as caught:
        res = rn.run_evals(DATA, scorers=offline_scorers(), target=flaky, progress=False)
    said = [str(w.message) for w in caught if "rows failed" in str(w.message)]
    assert said == [
        "ragnotebook: rows failed (the target, on 1 of 3 items); first error (item 1): "
        "ConnectionError: vector store timed out. Their scores have status 'error' and are "
        "left out of the means; target_error says why."
    ]
    f = res.frame
    assert f["target_status"].tolist() == ["ok", "error", "ok"]
    assert f.loc[1, "target_error"] == "ConnectionError: vector store timed out"
    assert pd.isna(f.loc[1, "answer"])
    assert pd.isna(f.loc[1, "target_latency_s"])
    for m in ("context_recall", "context_precision", "faithfulness"):
        assert f.loc[1, f"{m}_status"] == "error"
        assert f.loc[1, f"{m}_error"].startswith("target error: ConnectionError")
        assert pd.isna(f.loc[1, m])
        assert f.loc[0, f"{m}_status"] == "ok"
    score = res.scores["faithfulness-scorer"]
    assert (score["n_scored"], score["n_error"], score["n_total"]) == (2, 1, 3)
    assert math.isclose(score["coverage"], 2 / 3)
    assert res.target_stats["n_error"] == 1
    assert f.rag.summary().loc["faithfulness", "error"] == 1


def test_fail_fast_stops_at_the_first_target_error():
    calls: list[str] = []

    def app(question: str) -> str:
        calls.append(question)
        raise ValueError("boom")

    scorer = rn.create_faithfulness_scorer(model="offline")
    with pytest.raises(RunEvalsError, match=r"item 0.*ValueError: boom") as info:
        rn.run_evals(
            DATA, scorers=[scorer], target=app, concurrency=1, fail_fast=True, progress=False
        )
    assert calls == [next(iter(DOCS))]  # the later items never ran
    assert info.value.index == 0
    f = info.value.result.frame
    assert f["target_status"].tolist() == ["error", "cancelled", "cancelled"]
    assert f.loc[1, "faithfulness_error"].startswith("cancelled: fail_fast")


def test_fail_fast_also_stops_on_a_scorer_error():
    judge = rn.MockJudge(extract_claims=[rn.JudgeError("judge down", code="server_error")])
    scorer = rn.create_faithfulness_scorer(model=judge, context=["c"])
    with pytest.raises(RunEvalsError, match="a scorer failed: faithfulness-scorer"):
        rn.run_evals(
            DATA, scorers=[scorer], target=rag_app, concurrency=1, fail_fast=True, progress=False
        )


def test_scorer_errors_are_recorded_per_item():
    def script(task: Any) -> Any:
        if "9 am" in (task.text or ""):
            raise rn.JudgeError("model overloaded", code="bad_request")
        return ["A claim."]

    judge = rn.MockJudge(extract_claims=script, verify_claims=lambda t: ["yes"])
    scorer = rn.create_faithfulness_scorer(model=judge, context=["c"])
    res = rn.run_evals(DATA, scorers=[scorer], target=lambda q: DOCS[q], progress=False)
    f = res.frame
    assert f["faithfulness_status"].tolist() == ["ok", "error", "ok"]
    assert "model overloaded" in f.loc[1, "faithfulness_error"]
    assert f["target_status"].tolist() == ["ok"] * 3
    assert res.scores["faithfulness-scorer"]["n_error"] == 1


def test_a_target_returning_an_unusable_type_is_a_target_error():
    scorer = rn.create_faithfulness_scorer(model="offline")
    res = rn.run_evals(["q"], scorers=[scorer], target=lambda q: 42, progress=False)
    assert res.frame.loc[0, "target_status"] == "error"
    assert "the target returned an int; expected a string" in res.frame.loc[0, "target_error"]


def test_a_target_returning_none_is_a_target_error():
    scorer = rn.create_faithfulness_scorer(model="offline")
    res = rn.run_evals(["q"], scorers=[scorer], target=lambda q: None, progress=False)
    f = res.frame
    assert f.loc[0, "target_status"] == "error"
    assert "the target returned None; did it forget to return?" in f.loc[0, "target_error"]
    assert f.loc[0, "faithfulness_status"] == "error"


def test_a_list_ground_truth_in_the_data_is_refused():
    scorer = rn.create_context_recall_scorer(model="offline", context=["It is on Pier 4."])
    data = [{"input": "Where?", "ground_truth": ["It is on Pier 4.", "Pier 4"]}]
    with pytest.raises(ValueError) as caught:
        rn.run_evals(data, scorers=[scorer], target=str, progress=False)
    assert str(caught.value) == (
        "item 0, 'ground_truth': expected a string, got list; one text per 'ground_truth': "
        "join the items (' '.join(items)) or keep one"
    )
    data = [{"input": "Where?", "reference": {"text": "It is on Pier 4."}}]
    with pytest.raises(ValueError, match=r"^item 0, 'reference': expected a string, got dict"):
        rn.run_evals(data, scorers=[scorer], target=str, progress=False)


def test_a_list_answer_from_the_target_is_an_error_and_the_warning_says_why():
    scorer = rn.create_faithfulness_scorer(model="offline")
    with pytest.warns(UserWarning) as caught:
        res = rn.run_evals(
            ["Where?"],
            scorers=[scorer],
            target=lambda q: {"answer": ["It is on Pier 4."], "contexts": ["It is on Pier 4."]},
            progress=False,
        )
    f = res.frame
    assert f.loc[0, "faithfulness_status"] == "error"
    assert "output['answer']: expected a string, got list" in f.loc[0, "faithfulness_error"]
    said = [str(w.message) for w in caught if "run_evals" in str(w.message)]
    assert len(said) == 1
    assert said[0].startswith("run_evals: no target output holds its answer as a string")
    assert "their keys" not in said[0]


def test_bad_arguments_raise():
    scorer = rn.create_faithfulness_scorer(model="offline")
    with pytest.raises(TypeError, match="DataFrame or a list"):
        rn.run_evals({"input": "q"}, scorers=[scorer], target=str)
    with pytest.raises(ValueError, match="item 0 has no input"):
        rn.run_evals([{"prompt": "q"}], scorers=[scorer], target=str)
    with pytest.raises(TypeError, match="not a scorer"):
        rn.run_evals(["q"], scorers=["faithfulness"], target=str)
    with pytest.raises(TypeError, match="target must be callable"):
        rn.run_evals(["q"], scorers=[scorer], target="app")
    with pytest.raises(ValueError, match="concurrency"):
        rn.run_evals(["q"], scorers=[scorer], target=str, concurrency=0)
    with pytest.raises(TypeError, match=r"^concurrency must be an integer >= 1, got 2.5$"):
        rn.run_evals(["q"], scorers=[scorer], target=str, concurrency=2.5)
    with pytest.raises(ValueError, match=r"^scorers is empty, so nothing would be scored"):
        rn.run_evals(["q"], scorers=[], target=str)


# ------------------------------------------------------------------ chat outputs


def tool_results(input: Any, output: Any) -> list[str] | None:
    """An extractor reading the reference framework's toolInvocations shape."""
    if not isinstance(output, list):
        return None
    found = []
    for msg in output:
        content = msg.get("content")
        if msg["role"] == "assistant" and isinstance(content, dict):
            for inv in content.get("toolInvocations", []):
                if inv.get("toolName") == "search" and inv.get("state") == "result":
                    found.extend(doc["text"] for doc in inv["result"]["documents"])
    return found


def agent(question: str) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": {
                "toolInvocations": [
                    {
                        "toolName": "search",
                        "state": "result",
                        "result": {"documents": [{"text": DOCS[question]}]},
                    }
                ]
            },
        },
        {"role": "assistant", "content": "Let me check."},
        {"role": "assistant", "content": DOCS[question]},
    ]


def test_chat_message_target_with_tool_results_via_context_extractor():
    scorers = [
        rn.create_context_recall_scorer(model="offline", context_extractor=tool_results),
        rn.create_faithfulness_scorer(model="offline", context_extractor=tool_results),
    ]
    res = rn.run_evals(DATA, scorers=scorers, target=agent, progress=False)
    f = res.frame
    assert f["answer"].tolist() == list(DOCS.values())  # the last assistant text
    assert f["contexts"].tolist() == [[v] for v in DOCS.values()]
    assert isinstance(f.loc[0, "target_output"], list)
    assert f["context_recall"].tolist() == [1.0, 1.0, 1.0]
    assert f["faithfulness"].tolist() == [1.0, 1.0, 1.0]


def test_chat_message_inputs_get_a_question_column():
    scorer = rn.create_faithfulness_scorer(model="offline")
    data = [{"input": [{"role": "user", "content": "Where is it?"}]}]
    tool = {"role": "tool", "content": "It is on Pier 4."}
    reply = {"role": "assistant", "content": "It is on Pier 4."}
    res = rn.run_evals(
        data, scorers=[scorer], target=lambda msgs: [*msgs, tool, reply], progress=False
    )
    f = res.frame
    assert f.loc[0, "question"] == "Where is it?"
    assert f.attrs["ragnotebook"]["columns"]["question"] == "question"
    assert f.loc[0, "contexts"] == ["It is on Pier 4."]  # contexts_from_output on tool messages
    assert f.loc[0, "faithfulness"] == 1.0


# ------------------------------------------------------------------ scorer ids


def test_duplicate_scorer_ids_get_distinct_keys_and_columns():
    good = rn.create_context_recall_scorer(model="offline", context=list(DOCS.values()))
    bad = rn.create_context_recall_scorer(model="offline", context=["Nothing relevant here."])
    third = rn.create_context_recall_scorer(model="offline", context=["Still nothing."])
    res = rn.run_evals(DATA, scorers=[good, bad, third], target=rag_app, progress=False)
    assert list(res.scores) == [
        "context-recall-scorer",
        "context-recall-scorer-2",
        "context-recall-scorer-3",
    ]
    assert res.scorer_columns == {
        "context-recall-scorer": "context_recall",
        "context-recall-scorer-2": "context-recall-scorer-2",
        "context-recall-scorer-3": "context-recall-scorer-3",
    }
    assert res.scores["context-recall-scorer"]["mean"] == 1.0
    assert res.scores["context-recall-scorer-2"]["mean"] == 0.0
    f = res.frame
    assert f["context_recall"].tolist() == [1.0] * 3
    assert f["context-recall-scorer-2"].tolist() == [0.0] * 3
    assert f["context-recall-scorer-2_status"].tolist() == ["ok"] * 3
    s = res.summary()
    assert s.loc["context-recall-scorer-2", "mean"] == 0.0
    assert s.loc["context-recall-scorer-3", "column"] == "context-recall-scorer-3"
    meta = f.attrs["ragnotebook"]["metrics"]
    assert meta["context-recall-scorer-2"]["metric"] == "context_recall"
    assert meta["context-recall-scorer-2"]["scorer_id"] == "context-recall-scorer-2"


def test_one_engine_per_judge():
    from ragnotebook.runs import _Run

    judge = rn.MockJudge(fallback=rn.OfflineJudge())
    scorers = [
        rn.create_faithfulness_scorer(model=judge),
        rn.create_context_recall_scorer(model=judge, context=["c"]),
        rn.create_faithfulness_scorer(model="offline"),
    ]
    run = _Run(
        DATA,
        scorers=scorers,
        target=rag_app,
        on_item_complete=None,
        concurrency=4,
        fail_fast=False,
        cache_target=False,
        progress=False,
        cache=None,
    )
    assert len(run.engines) == 2


# ------------------------------------------------------------------ callbacks


def test_callback_order_payload_and_thread_for_the_sync_api():
    delays = {"q0": 0.30, "q1": 0.05, "q2": 0.15}

    async def app(question: str) -> dict[str, Any]:
        await asyncio.sleep(delays[question])
        return {"answer": f"Answer to {question}.", "contexts": [f"Answer to {question}."]}

    seen: list[dict[str, Any]] = []
    threads: list[int] = []

    def on_item_complete(payload: dict[str, Any]) -> None:
        threads.append(threading.get_ident())
        seen.append(payload)

    data = [{"input": q, "ground_truth": f"Answer to {q}.", "id": i} for i, q in enumerate(delays)]
    scorers = [
        rn.create_faithfulness_scorer(model="offline"),
        rn.create_context_recall_scorer(model="offline", context_extractor=rn.contexts_from_output),
    ]
    res = rn.run_evals(
        data,
        scorers=scorers,
        target=app,
        on_item_complete=on_item_complete,
        concurrency=3,
        progress=False,
    )
    assert [p["index"] for p in seen] == [1, 2, 0]  # completion order, not data order
    assert set(threads) == {threading.get_ident()}  # the calling thread
    p = seen[0]
    assert set(p) >= {"item", "target_result", "scorer_results"}
    assert p["item"] == {"input": "q1", "ground_truth": "Answer to q1.", "id": 1}
    assert p["target_result"] == {"answer": "Answer to q1.", "contexts": ["Answer to q1."]}
    assert p["target_error"] is None and p["latency_s"] >= 0.05
    assert set(p["scorer_results"]) == {"faithfulness-scorer", "context-recall-scorer"}
    r = p["scorer_results"]["faithfulness-scorer"]
    assert isinstance(r, rn.ScorerResult)
    assert (r.score, r.status, r.scorer_id) == (1.0, "ok", "faithfulness-scorer")
    assert r.analyze_step_result["verdicts"][0]["verdict"] == "yes"
    assert len(res.frame) == 3  # every item once
    assert len(seen) == 3


def test_callback_order_with_sync_targets():
    delays = {"q0": 0.25, "q1": 0.0, "q2": 0.1}
    order: list[str] = []
    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])

    def app(question: str) -> str:
        time.sleep(delays[question])
        return "x"

    rn.run_evals(
        list(delays),
        scorers=[scorer],
        target=app,
        concurrency=3,
        on_item_complete=lambda p: order.append(p["item"]["input"]),
        progress=False,
    )
    assert order == ["q1", "q2", "q0"]


def test_async_twin_calls_back_on_the_callers_loop_and_awaits_coroutines():
    delays = {"q0": 0.2, "q1": 0.0, "q2": 0.1}

    async def app(question: str) -> str:
        await asyncio.sleep(delays[question])
        return "x"

    seen: list[tuple[str, Any, int]] = []

    async def callback(payload: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        seen.append((payload["item"]["input"], asyncio.get_running_loop(), threading.get_ident()))

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])

    async def main() -> Any:
        await rn.arun_evals(
            list(delays),
            scorers=[scorer],
            target=app,
            concurrency=3,
            on_item_complete=callback,
            progress=False,
        )
        return asyncio.get_running_loop()

    loop = asyncio.run(main())
    assert [s[0] for s in seen] == ["q1", "q2", "q0"]
    assert all(s[1] is loop and s[2] == threading.get_ident() for s in seen)


def test_a_failing_callback_stops_the_run_and_propagates():
    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])

    def callback(payload: dict[str, Any]) -> None:
        raise RuntimeError("dashboard is down")

    with pytest.raises(RuntimeError, match="dashboard is down"):
        rn.run_evals(
            ["a", "b"], scorers=[scorer], target=lambda q: "x", on_item_complete=callback,
            progress=False,
        )  # fmt: skip


def test_failed_items_still_reach_the_callback():
    seen: list[Any] = []
    rn.run_evals(
        DATA,
        scorers=[rn.create_faithfulness_scorer(model="offline")],
        target=flaky,
        on_item_complete=seen.append,
        progress=False,
    )
    errors = [p for p in seen if p["target_error"]]
    assert len(seen) == 3 and len(errors) == 1
    assert errors[0]["target_result"] is None
    assert errors[0]["scorer_results"]["faithfulness-scorer"].status == "error"


# ------------------------------------------------------------------ target cache


def test_target_is_not_cached_unless_asked():
    calls: list[str] = []

    def app(question: str) -> str:
        calls.append(question)
        return "x"

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    rn.run_evals(["a", "a"], scorers=[scorer], target=app, progress=False)
    rn.run_evals(["a"], scorers=[scorer], target=app, progress=False)
    assert calls == ["a", "a", "a"]


def test_cache_target_memoises_by_input():
    calls: list[str] = []

    async def app(question: str) -> str:
        calls.append(question)
        await asyncio.sleep(0.05)
        return f"answer {question}"

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    res = rn.run_evals(
        ["a", "b", "a"], scorers=[scorer], target=app, cache_target=True, progress=False
    )
    assert sorted(calls) == ["a", "b"]  # the repeated input shares the call in flight
    assert res.frame["answer"].tolist() == ["answer a", "answer b", "answer a"]
    assert res.frame["target_cached"].tolist() == [False, False, True]
    res2 = rn.run_evals(["a"], scorers=[scorer], target=app, cache_target=True, progress=False)
    assert sorted(calls) == ["a", "b"]  # kept for the life of the target
    assert res2.frame.loc[0, "target_cached"]
    assert res2.target_stats["cache_hits"] == 1


def test_cache_target_with_a_user_mapping_and_errors_not_cached():
    store: dict[str, Any] = {}
    calls: list[str] = []

    def app(question: str) -> str:
        calls.append(question)
        if question == "bad":
            raise RuntimeError("nope")
        return "x"

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    rn.run_evals(["ok", "bad"], scorers=[scorer], target=app, cache_target=store, progress=False)
    rn.run_evals(["ok", "bad"], scorers=[scorer], target=app, cache_target=store, progress=False)
    assert sorted(calls) == ["bad", "bad", "ok"]
    assert list(store) == ['"ok"']


# ------------------------------------------------------------------ compare


def test_compare_on_run_evals_frames_pairs_by_the_input_column():
    scorers = offline_scorers()
    a = rn.run_evals(DATA, scorers=scorers, target=rag_app, progress=False).frame
    b = rn.run_evals(DATA, scorers=scorers, target=flaky, progress=False).frame
    with pytest.warns(UserWarning, match="coverage differs"):
        t = rn.compare(a, b)  # on="question": the `input` column via attrs
    assert t.loc["faithfulness", "n_matched"] == 3
    assert t.loc["faithfulness", "n_lost"] == 1
    assert t.loc["faithfulness", "coverage_b"] < t.loc["faithfulness", "coverage_a"]


# ------------------------------------------------------------------ progress, interruption


def test_progress_bar_is_driven_from_the_calling_thread(monkeypatch):
    seen: list[int] = []

    class FakeBar:
        def __init__(self, total: int, **kwargs: Any) -> None:
            self.n, self.total = 0, total
            seen.append(threading.get_ident())

        def update(self, k: int) -> None:
            self.n += k
            seen.append(threading.get_ident())

        def close(self) -> None:
            seen.append(threading.get_ident())

    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", FakeBar)
    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    rn.run_evals([f"q{i}" for i in range(5)], scorers=[scorer], target=lambda q: "x")
    assert len(seen) >= 3 and set(seen) == {threading.get_ident()}


def test_ctrl_c_keeps_finished_items():
    import _thread

    calls = {"n": 0}

    def app(question: str) -> str:
        calls["n"] += 1
        if calls["n"] == 4:
            _thread.interrupt_main()  # what Ctrl-C / the kernel's stop button does
        time.sleep(0.05)
        return "x"

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])
    seen: list[Any] = []
    with pytest.warns(UserWarning, match="interrupted"):
        res = rn.run_evals(
            [f"q{i}" for i in range(30)],
            scorers=[scorer],
            target=app,
            concurrency=1,
            on_item_complete=seen.append,
            progress=False,
        )
    status = res.frame["target_status"]
    assert 1 <= int((status == "ok").sum()) < 30
    assert set(status) == {"ok", "cancelled"}
    assert len(seen) == int((status == "ok").sum())  # finished items were all delivered
    assert res.frame.attrs["ragnotebook"]["last_run"]["interrupted"] is True


def test_cancelling_the_async_twin_propagates():
    async def app(question: str) -> str:
        await asyncio.sleep(5)
        return "x"

    scorer = rn.create_faithfulness_scorer(model="offline", context=["x"])

    async def main() -> None:
        task = asyncio.ensure_future(
            rn.arun_evals(["a", "b"], scorers=[scorer], target=app, progress=False)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_result_summary_leaves_rows_without_an_answer_out_of_the_mean():
    scorer = rn.create_faithfulness_scorer(model="offline")
    questions = [f"Where is exhibit {i}?" for i in range(10)]

    def target(q):
        i = int(q.split()[3].rstrip("?"))
        answer = None if i < 2 else f"Exhibit {i} is in hall {i}."
        return {"answer": answer, "contexts": [f"Exhibit {i} is in hall {i}."]}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rn.run_evals(questions, scorers=[scorer], target=target, progress=False)
    s = res.summary().loc["faithfulness-scorer"]
    # it said mean 0.8, scored 10/10: the two rows without an answer were averaged as 0
    assert (s["mean"], s["scored"], s["no_answer"]) == (1.0, "8/10", 2)
    assert res.scores["faithfulness-scorer"]["mean"] == 1.0
    assert res.frame.rag.summary().loc["faithfulness", "scored"] == "8/10"


def test_a_target_that_returns_no_chunks_warns():
    scorer = rn.create_faithfulness_scorer(model="offline")
    with pytest.warns(UserWarning, match="no row has a retrieved chunk for 'faithfulness-scorer'"):
        res = rn.run_evals(
            ["Where?", "When?"], scorers=[scorer], target=lambda q: "Pier 4.", progress=False
        )
    assert res.frame["faithfulness_status"].tolist() == ["no_context", "no_context"]


def test_item_fields_named_like_result_columns_are_left_out_with_a_warning():
    scorer = rn.create_faithfulness_scorer(model="offline")

    def app(q):
        return {"answer": "Pier 4.", "contexts": ["The museum is on Pier 4."]}

    items = [{"input": "Where?", "contexts": ["gold chunk"], "faithfulness": 1, "topic": "x"}]
    with pytest.warns(UserWarning, match="'contexts' and 'faithfulness' have the name of a result"):
        res = rn.run_evals(items, scorers=[scorer], target=app, progress=False)
    assert res.frame["topic"].tolist() == ["x"]  # other fields are kept
    assert res.frame["contexts"].tolist() == [["The museum is on Pier 4."]]  # the app's
    assert res.frame["faithfulness"].tolist() == [1.0]  # the score, not the item's field


def test_unusable_judge_replies_warn_once_with_their_counts():
    def verify(task: Any) -> Any:
        # claim 0 is supported by chunk 7 (the item has 2 chunks); claim 1 never gets a verdict
        return [
            {"index": it.index, "verdict": "yes", "reason": "r", "supporting_chunks": [7]}
            for it in task.items
            if it.index == 0
        ]

    judge = rn.MockJudge(
        extract_claims=lambda t: ["Claim one.", "Claim two."], verify_claims=verify
    )
    scorer = rn.create_faithfulness_scorer(model=judge, context_extractor=rn.contexts_from_output)
    with pytest.warns(UserWarning) as caught:
        res = rn.run_evals(DATA[:2], scorers=[scorer], target=rag_app, progress=False)
    said = [str(w.message) for w in caught if "partly unusable" in str(w.message)]
    assert said == [
        "run_evals: the judge's replies were partly unusable (faithfulness-scorer: 2 claim "
        "verdict(s) in 2 item(s) missing or not a valid word after the re-ask, counted as not "
        "supported; 2 cited chunk index(es) in 2 item(s) that name no chunk of the item, left "
        "out of supporting_chunks). result.summary() counts them (missing_verdicts, "
        "out_of_range_chunks); check that the model follows the prompt's answer format."
    ]
    assert res.frame["faithfulness"].tolist() == [0.5, 0.5]
    summary = res.summary()
    assert summary.loc["faithfulness-scorer", "missing_verdicts"] == 2
    assert summary.loc["faithfulness-scorer", "out_of_range_chunks"] == 2


def test_usable_judge_replies_do_not_warn():
    judge = rn.MockJudge(extract_claims=lambda t: ["Claim one."], verify_claims=lambda t: ["yes"])
    scorer = rn.create_faithfulness_scorer(model=judge, context_extractor=rn.contexts_from_output)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = rn.run_evals(DATA[:2], scorers=[scorer], target=rag_app, progress=False)
    assert res.frame["faithfulness"].tolist() == [1.0, 1.0]


def test_rows_the_judge_failed_outright_are_errors_not_partly_unusable():
    judge = rn.MockJudge(extract_claims=lambda t: ["Claim one."], verify_claims=lambda t: [])
    scorer = rn.create_faithfulness_scorer(model=judge, context_extractor=rn.contexts_from_output)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = rn.run_evals(DATA[:2], scorers=[scorer], target=rag_app, progress=False)
    assert res.frame["faithfulness_status"].tolist() == ["error", "error"]
    assert not [w for w in caught if "partly unusable" in str(w.message)]
