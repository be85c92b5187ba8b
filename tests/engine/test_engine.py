"""The engine: concurrency, isolation, progress thread, cancellation, loop reuse."""

import _thread
import asyncio
import threading

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import _loop as engine_mod


def rows(n):
    return pd.DataFrame(
        {
            "question": [f"q{i}" for i in range(n)],
            "answer": [f"Answer {i} is here." for i in range(n)],
            "contexts": [[f"Answer {i} is here."] for i in range(n)],
        }
    )


class CountingJudge(rn.MockJudge):
    def __init__(self, **kw):
        super().__init__(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"], **kw)
        self.in_flight = 0
        self.max_in_flight = 0

    async def acomplete(self, task):
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return await super().acomplete(task)
        finally:
            self.in_flight -= 1


def test_concurrency_limit_is_respected_and_used():
    judge = CountingJudge(latency=0.02)
    out = rn.faithfulness(rows(40), model=judge, concurrency=5, progress=False)
    assert (out["faithfulness_status"] == "ok").all()
    assert judge.max_in_flight == 5
    assert len(judge.tasks) == 80


def test_a_failing_row_does_not_stop_the_others():
    def extract(task):
        if "7" in task.text:
            raise RuntimeError("judge exploded on row 7")
        return ["c"]

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    out = rn.faithfulness(rows(12), model=judge, progress=False)
    assert out["faithfulness_status"].tolist().count("error") == 1
    assert out.loc[7, "faithfulness_status"] == "error"
    assert "judge exploded on row 7" in out.loc[7, "faithfulness_error"]
    assert pd.isna(out.loc[7, "faithfulness"])
    assert out["faithfulness"].drop(index=7).tolist() == [1.0] * 11
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["errors"] == 1


def test_wrong_answer_type_is_an_error_not_a_crash():
    judge = rn.MockJudge(
        extract_claims=lambda t: ["c"], verify_claims=lambda t: rn.tasks.Claims(claims=["x"])
    )
    with pytest.raises(TypeError):
        # MockJudge itself refuses to coerce a Claims into a verify answer
        asyncio.run(judge.acomplete(rn.tasks.Task("verify_claims", "faithfulness")))
    out = rn.faithfulness(rows(2), model=judge, progress=False)
    assert out["faithfulness_status"].tolist() == ["error", "error"]


def test_progress_is_updated_from_the_calling_thread(monkeypatch):
    seen = []

    class FakeBar:
        def __init__(self, total, **kw):
            self.total, self.n = total, 0

        def update(self, k):
            seen.append(threading.get_ident())
            self.n += k

        def close(self):
            seen.append(threading.get_ident())

    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", FakeBar)
    judge = rn.MockJudge(
        extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"], latency=0.01
    )
    rn.faithfulness(rows(30), model=judge, concurrency=2, progress=True)
    assert seen and set(seen) == {threading.get_ident()}


def test_ctrl_c_keeps_finished_rows():
    calls = {"n": 0}

    def verify(task):
        calls["n"] += 1
        if calls["n"] == 6:
            _thread.interrupt_main()  # what Ctrl-C / the kernel's stop button does
        return ["yes"]

    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=verify, latency=0.05)
    with pytest.warns(UserWarning, match="interrupted"):
        out = rn.faithfulness(rows(40), model=judge, concurrency=2, progress=False)
    status = out["faithfulness_status"]
    n_ok = int((status == "ok").sum())
    assert 1 <= n_ok < 40
    assert set(status) == {"ok", "error"}
    cancelled = out[status == "error"]
    assert cancelled["faithfulness_error"].str.startswith("cancelled").all()
    assert (out.loc[status == "ok", "faithfulness"] == 1.0).all()
    assert out.attrs["ragnotebook"]["last_run"]["interrupted"] is True
    # the engine is still usable afterwards
    again = rn.faithfulness(rows(3), model="offline", progress=False)
    assert (again["faithfulness_status"] == "ok").all()


_RAISING_JUDGE = """
import json, sys, warnings
import pandas as pd
import ragnotebook as rn

exc = {"KeyboardInterrupt": KeyboardInterrupt, "SystemExit": SystemExit}[sys.argv[1]]
calls = {"n": 0}

def extract(task):
    calls["n"] += 1
    if calls["n"] == 5:
        raise exc
    return ["c"]

df = pd.DataFrame({"question": ["q"] * 10, "answer": [f"a{i}" for i in range(10)],
                   "contexts": [["c"]] * 10})
judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
seen = {}
warnings.simplefilter("ignore")
try:
    out = rn.faithfulness(df, model=judge, progress=False, concurrency=1)
    seen["status"] = out["faithfulness_status"].value_counts().to_dict()
    seen["errors"] = sorted(set(out["faithfulness_error"].dropna().str[:9]))
except BaseException as e:
    seen["raised"] = type(e).__name__
again = rn.faithfulness(df.head(2), model="offline", progress=False)
seen["again"] = again["faithfulness_status"].tolist()
print(json.dumps(seen))
"""


@pytest.mark.parametrize("exc", ["KeyboardInterrupt", "SystemExit"])
def test_a_judge_raising_keyboardinterrupt_or_systemexit_does_not_hang_the_call(exc):
    # asyncio re-raises these two out of the event loop; the private loop's thread
    # died with them and the sync call waited forever (a user's cell stuck)
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _RAISING_JUDGE, exc],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Exception in thread" not in done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    if exc == "KeyboardInterrupt":  # as a Ctrl-C: finished rows kept, the rest cancelled
        assert "raised" not in seen
        assert seen["status"]["ok"] >= 4 and seen["status"]["error"] >= 1
        assert sum(seen["status"].values()) == 10
        assert seen["errors"] == ["cancelled"]
    else:  # SystemExit reaches the caller
        assert seen["raised"] == "SystemExit"
    assert seen["again"] == ["ok", "ok"]  # the engine serves the next call


def test_a_judge_raising_cancellederror_fails_its_row_not_the_run():
    # nobody cancelled the run: the judge's own code raised it (the run raised it from a
    # sync call and every finished row was lost)
    judge = rn.MockJudge(
        extract_claims=[["c"], asyncio.CancelledError(), ["c"]], verify_claims=lambda t: ["yes"]
    )
    out = rn.faithfulness(rows(3), model=judge, progress=False, concurrency=1)
    assert out["faithfulness_status"].tolist() == ["ok", "error", "ok"]
    assert out.loc[1, "faithfulness_error"] == "the judge raised CancelledError"
    assert out["faithfulness"].tolist()[::2] == [1.0, 1.0]


def test_a_cancelled_awaited_run_still_stops():
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"], latency=1)

    async def main():
        await asyncio.wait_for(rn.afaithfulness(rows(4), model=judge, progress=False), 0.2)

    with pytest.raises(TimeoutError):
        asyncio.run(main())


def test_rows_finish_in_order_so_an_interrupt_keeps_whole_rows():
    # an interrupt after 20 calls: with every row started at once, those would be 20
    # claim extractions and no finished row; jobs start in order, at most 2 x concurrency
    # at a time, so a started row's second call comes next and rows finish as they go
    calls = {"n": 0}

    def count(result):
        def step(task):
            calls["n"] += 1
            if calls["n"] == 20:
                _thread.interrupt_main()
            return result

        return step

    judge = rn.MockJudge(extract_claims=count(["c"]), verify_claims=count(["yes"]), latency=0.01)
    with pytest.warns(UserWarning, match="interrupted"):
        out = rn.faithfulness(rows(40), model=judge, concurrency=2, progress=False)
    ok = out["faithfulness_status"] == "ok"
    assert int(ok.sum()) >= 7  # 20 calls, 2 per row, at most 4 rows in progress
    assert ok.iloc[:7].all()  # the first rows, in order
    # the order of the calls: row 0's verification comes before row 4's extraction
    steps = [(t.kind, t.text or t.chunks[0]) for t in judge.tasks]
    verify_0 = steps.index(("verify_claims", "Answer 0 is here."))
    assert verify_0 < steps.index(("extract_claims", "Answer 4 is here."))


def test_an_interrupt_keeps_rows_whole_across_metrics():
    # jobs go row by row (all metrics of a row, then the next): an interrupt after 40
    # calls leaves the first rows scored on every metric, not one metric of many rows
    calls = {"n": 0}

    class Counting(rn.MockJudge):
        async def acomplete(self, task):
            calls["n"] += 1
            if calls["n"] == 40:
                _thread.interrupt_main()
            return await super().acomplete(task)

    df = rows(60).assign(ground_truth=[f"Answer {i} is here." for i in range(60)])
    judge = Counting(latency=0.01, fallback=rn.OfflineJudge())
    with pytest.warns(UserWarning, match="interrupted"):
        out = rn.evaluate(df, model=judge, concurrency=2, progress=False)
    metrics = ["context_recall", "context_precision", "faithfulness"]
    whole = pd.concat([out[f"{m}_status"] == "ok" for m in metrics], axis=1).all(axis=1)
    assert int(whole.sum()) >= 5  # 5 calls per row
    assert whole.iloc[: int(whole.sum())].all()  # the first rows, in order


def test_async_cancellation_propagates():
    judge = rn.MockJudge(
        extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"], latency=0.2
    )

    async def main():
        task = asyncio.ensure_future(rn.afaithfulness(rows(20), model=judge, progress=False))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_one_loop_thread_is_reused():
    loop1 = engine_mod._LOOP.loop()
    rn.faithfulness(rows(1), model="offline", progress=False)
    loop2 = engine_mod._LOOP.loop()
    assert loop1 is loop2 and loop1.is_running()
    names = [t.name for t in threading.enumerate() if t.name == "ragnotebook-loop"]
    assert len(names) == 1


def test_sync_from_worker_threads_concurrently():
    results = {}

    def work(k):
        results[k] = rn.faithfulness(rows(5), model="offline", progress=False)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(results) == [0, 1, 2, 3]
    for out in results.values():
        assert (out["faithfulness_status"] == "ok").all()


def test_concurrency_must_be_positive():
    with pytest.raises(ValueError, match="concurrency"):
        rn.faithfulness(rows(1), model="offline", concurrency=0, progress=False)


def test_sync_call_on_the_loop_thread_is_an_error_not_a_hang():
    # a judge callable runs on the private loop thread; a sync call there would wait for
    # the loop it blocks. It must fail that row with a clear message and finish the run.
    def extract(task):
        rn.faithfulness(rows(1), model="offline", progress=False)
        return ["c"]

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    box = {}

    def work():
        box["out"] = rn.faithfulness(rows(2), model=judge, progress=False)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the nested sync call hung"
    out = box["out"]
    assert out["faithfulness_status"].tolist() == ["error", "error"]
    assert "made from inside a running one" in out.loc[0, "faithfulness_error"]
    # the loop is still healthy
    assert rn.faithfulness(rows(1), model="offline", progress=False).loc[0, "faithfulness"] == 1.0


def test_notices_from_the_loop_thread_are_shown_by_the_calling_thread(monkeypatch):
    from ragnotebook import _warn

    shown = []
    monkeypatch.setattr(
        _warn, "warn_user", lambda m, c=UserWarning: shown.append((m, threading.current_thread()))
    )

    def extract(task):
        _warn.notify(f"notice from {threading.current_thread().name}")
        return ["c"]

    judge = rn.MockJudge(extract_claims=extract, verify_claims=lambda t: ["yes"])
    out = rn.faithfulness(rows(2), model=judge, progress=False)
    assert out["faithfulness"].tolist() == [1.0, 1.0]
    # posted on the loop thread, shown (once each) by the thread that made the call
    assert [m for m, _ in shown] == ["notice from ragnotebook-loop"] * 2
    assert {t for _, t in shown} == {threading.current_thread()}
    assert not _warn._PENDING


def _sample_rows(n: int) -> pd.DataFrame:
    df = rn.load_sample("quickstart")
    return pd.concat([df] * (n // len(df) + 1), ignore_index=True).iloc[:n]


def test_a_judge_that_never_waits_still_lets_the_callers_loop_run(monkeypatch):
    # the offline judge (and the cache) answer without suspending: a run used to score
    # every row in one pass of the loop, so the caller's other tasks, timers and
    # wait_for stalled for the whole run (a web service's health checks, LLM runs of
    # other threads on the shared private loop, which then timed out falsely)
    from ragnotebook import engine

    df = _sample_rows(60)

    async def run_with_ticker() -> tuple[int, pd.DataFrame]:
        ticks, done = 0, False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        out = await rn.aevaluate(df, model="offline", progress=False)
        done = True
        await task
        return ticks, out

    monkeypatch.setattr(engine, "_SLICE_SECONDS", 1e9)  # never yields: one pass
    ticks_never, baseline = asyncio.run(run_with_ticker())
    monkeypatch.setattr(engine, "_SLICE_SECONDS", 0.0)  # yields before every job
    ticks_always, out = asyncio.run(run_with_ticker())
    jobs = 3 * len(df)
    assert ticks_never < 20  # the loop turned only around the run's own awaits
    assert ticks_always >= jobs  # the other task ran between the jobs
    cols = ["context_recall", "context_precision", "faithfulness"]
    pd.testing.assert_frame_equal(out[cols], baseline[cols])  # same scores either way


def test_another_task_can_cancel_an_offline_run_midway(monkeypatch):
    from ragnotebook import engine

    monkeypatch.setattr(engine, "_SLICE_SECONDS", 0.0)
    df = _sample_rows(200)

    async def main() -> bool:
        run = asyncio.create_task(rn.aevaluate(df, model="offline", progress=False))
        for _ in range(10):  # ten turns of the loop while the run is scoring
            await asyncio.sleep(0)
        running = not run.done()
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        return running

    assert asyncio.run(main()) is True


def test_the_progress_bar_redraws_rarely_in_a_log(monkeypatch):
    # stderr piped to a CI log keeps every redraw: five a second filled logs with lines
    from ragnotebook import api

    def bar(terminal: bool) -> float:
        monkeypatch.setattr(api, "_stderr_is_a_terminal", lambda: terminal)
        progress = api._Progress(True, 10, "faithfulness", "row", lambda: 0)
        progress.open()
        try:
            return float(progress._bar.mininterval)
        finally:
            progress.close()

    assert bar(terminal=False) == api._LOG_REDRAW_SECONDS == 30.0
    assert bar(terminal=True) == 0.1  # tqdm's own default in a terminal


def test_metric_seconds_count_a_rows_own_time_not_its_wait_for_a_turn():
    # a README-only user: with the offline judge (one row at a time) each metric's
    # "seconds" was 12.4 s for a run of 1.47 s: a row's clock started before it waited for
    # its turn while the other rows worked. Rows that never overlap sum to at most the
    # run's wall time. (In this process: worker processes overlap rows.)
    df = pd.concat([rn.load_sample("quickstart")] * 5, ignore_index=True)
    meta = df.rag.evaluate(model="offline", workers=1, progress=False).attrs["ragnotebook"]
    assert meta["last_run"]["max_in_flight"] == 1
    spent = sum(meta["metrics"][m]["seconds"] for m in meta["metrics"])
    assert 0 < spent <= meta["last_run"]["wall_seconds"] + 0.001  # each rounded to 0.1 ms
