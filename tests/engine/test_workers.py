"""Worker processes for the offline judge: same answers, routing, failures, options."""

import asyncio
import os
import signal
import time

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import _workers
from ragnotebook.engine import Engine
from ragnotebook.tasks import Item, Task

linux_fork = pytest.mark.skipif(
    not _workers.fork_available(), reason="worker processes need Linux's fork"
)


def _metric_columns(out):
    cols = [c for c in out.columns if c.startswith(("context_", "faithfulness"))]
    return out[cols]


@linux_fork
def test_workers_give_the_same_scores_verdicts_and_reasons():
    df = rn.load_sample("quickstart")
    one = rn.evaluate(df, model="offline", workers=1, progress=False)
    two = rn.evaluate(df, model="offline", workers=2, progress=False)
    pd.testing.assert_frame_equal(_metric_columns(one), _metric_columns(two))
    assert one.attrs["ragnotebook"]["last_run"]["workers"] == 0
    assert two.attrs["ragnotebook"]["last_run"]["workers"] == 2
    assert two.attrs["ragnotebook"]["last_run"]["workers_failed"] is None


@linux_fork
def test_a_long_run_starts_workers_by_itself(monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_WORKERS", raising=False)
    monkeypatch.setattr(_workers, "usable_cpus", lambda: 2)
    df = rn.load_sample("quickstart")
    big = pd.concat([df] * (-(-_workers.MIN_AUTO_JOBS // (3 * len(df)))), ignore_index=True)
    assert 3 * len(big) >= _workers.MIN_AUTO_JOBS
    out = rn.evaluate(big, model="offline", progress=False)
    assert out.attrs["ragnotebook"]["last_run"]["workers"] == 2
    small = rn.evaluate(df.head(5), model="offline", metrics=["context_recall"], progress=False)
    assert small.attrs["ragnotebook"]["last_run"]["workers"] == 0
    # the repeated rows score as their originals
    n = len(df)
    assert out["faithfulness"].iloc[n : 2 * n].tolist() == out["faithfulness"].iloc[:n].tolist()


def test_plan_workers_rules(monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_WORKERS", raising=False)
    monkeypatch.setattr(_workers, "fork_available", lambda: True)
    monkeypatch.setattr(_workers, "usable_cpus", lambda: 8)
    offline = rn.OfflineJudge()
    few, many = _workers.MIN_AUTO_JOBS - 1, _workers.MIN_AUTO_JOBS
    assert _workers.plan_workers(offline, None, few)[0] == 0
    assert _workers.plan_workers(offline, None, many)[0] == _workers.MAX_AUTO_WORKERS
    assert _workers.plan_workers(offline, 3, 1)[0] == 3  # asked for: any run size
    assert _workers.plan_workers(offline, 1, many)[0] == 0
    # judges that wait for a server (or record their tasks) stay in this process
    assert _workers.plan_workers(rn.MockJudge(), 4, many)[0] == 0
    monkeypatch.setattr(_workers, "usable_cpus", lambda: 1)
    assert _workers.plan_workers(offline, None, many)[0] == 0
    monkeypatch.setenv("RAGNOTEBOOK_WORKERS", "3")
    assert _workers.plan_workers(offline, None, few)[0] == 3
    assert _workers.plan_workers(offline, 1, many)[0] == 0  # the argument wins
    monkeypatch.setenv("RAGNOTEBOOK_WORKERS", "two")
    with pytest.raises(ValueError, match="RAGNOTEBOOK_WORKERS must be a whole number"):
        _workers.plan_workers(offline, None, many)
    monkeypatch.setattr(_workers, "fork_available", lambda: False)
    n, why = _workers.plan_workers(offline, 4, many)
    assert n == 0 and why.startswith("worker processes need Linux's fork; ")
    monkeypatch.delenv("RAGNOTEBOOK_WORKERS")
    assert _workers.plan_workers(offline, None, many) == (0, None)  # not asked for: no note


@pytest.mark.parametrize("bad", [0, -2, "2", 2.0, True])
def test_bad_workers_values_are_errors(bad):
    with pytest.raises(ValueError, match="workers must be"):
        Engine(rn.OfflineJudge(), workers=bad)
    with pytest.raises(ValueError, match="workers must be"):
        rn.faithfulness(
            pd.DataFrame({"answer": ["A."], "contexts": [["A."]]}),
            model="offline",
            workers=bad,
            progress=False,
        )


class PidJudge(rn.OfflineJudge):
    """Answers every verify task 'yes' with the process id as its reason (the offline
    judge's answers to the other kinds)."""

    def complete(self, task):
        from ragnotebook.tasks import Verdict, Verdicts

        if task.kind != "verify_claims":
            return super().complete(task)
        return Verdicts(
            verdicts=[
                Verdict(index=i.index, verdict="yes", reason=str(os.getpid())) for i in task.items
            ]
        )


def _verify(chunks, claim="c"):
    return Task("verify_claims", "faithfulness", items=(Item(0, claim),), chunks=tuple(chunks))


async def _pids(pool, tasks, fallback=None):
    answers = await asyncio.gather(*(pool.complete(t, fallback) for t in tasks))
    return [int(a.verdicts[0].reason) for a in answers]


async def _pids_one_by_one(pool, tasks):
    return [int((await pool.complete(t, None)).verdicts[0].reason) for t in tasks]


@linux_fork
def test_a_rows_tasks_meet_in_one_worker_and_not_in_this_process():
    pool = _workers.WorkerPool(PidJudge(), 2)
    try:
        contexts = [[f"Chunk {i} says {i}."] for i in range(12)]
        first = asyncio.run(_pids_one_by_one(pool, [_verify(c) for c in contexts]))
        again = asyncio.run(_pids_one_by_one(pool, [_verify(c, "other") for c in contexts]))
        # twenty rows of one shared context at once: its worker's backlog spills over
        shared = asyncio.run(_pids(pool, [_verify(["One document."], f"c{i}") for i in range(20)]))
    finally:
        pool.close()
    assert first == again  # the same chunks went to the same worker
    assert os.getpid() not in first
    assert len(set(first)) == 2  # both workers had work
    assert len(set(shared)) == 2
    assert os.getpid() not in shared


def _die_in_worker(parent):
    class DyingJudge(PidJudge):
        def complete(self, task):
            if os.getpid() != parent:
                os._exit(3)  # a worker killed mid-task (out of memory, kill -9)
            return super().complete(task)

    return DyingJudge()


@linux_fork
def test_a_dead_worker_is_replaced_by_this_process_and_no_task_is_lost():
    judge = _die_in_worker(os.getpid())
    pool = _workers.WorkerPool(judge, 2)
    try:
        pids = asyncio.run(_pids(pool, [_verify([f"c{i}"]) for i in range(6)], judge.complete))
    finally:
        pool.close()
    assert pids == [os.getpid()] * 6
    assert pool.broken == "a worker process exited (exit code 3)"


@linux_fork
def test_a_run_whose_workers_die_scores_every_row_and_says_so():
    judge = _die_in_worker(os.getpid())
    df = pd.DataFrame(
        {"answer": [f"Fact {i}." for i in range(8)], "contexts": [[f"Fact {i}."] for i in range(8)]}
    )
    out = rn.faithfulness(df, model=judge, workers=2, progress=False)
    assert (out["faithfulness_status"] == "ok").all()
    assert out["faithfulness"].tolist() == [1.0] * 8
    last = out.attrs["ragnotebook"]["last_run"]
    assert last["workers"] == 2
    assert last["workers_failed"] == "a worker process exited (exit code 3)"


@linux_fork
def test_workers_ignore_ctrl_c_and_stop_with_the_run():
    import multiprocessing

    pool = _workers.WorkerPool(PidJudge(), 2)
    try:
        pids = sorted(set(asyncio.run(_pids(pool, [_verify([f"c{i}"]) for i in range(8)]))))
        for pid in pids:
            os.kill(pid, signal.SIGINT)  # what a terminal's Ctrl-C sends the process group
        time.sleep(0.2)
        after = sorted(set(asyncio.run(_pids(pool, [_verify([f"c{i}"]) for i in range(8)]))))
        assert after == pids and pool.broken is None
    finally:
        pool.close()
    # idle workers leave on their own when their pipes close (exit code 0; close()
    # terminates only a worker still judging), and none is left behind
    assert [w.process.exitcode for w in pool._workers] == [0, 0]
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)


@linux_fork
def test_a_run_that_asks_no_rule_of_the_judge_forks_nothing():
    # claim extraction is cheaper than the hand-over: it stays here, and a run whose
    # answers are all refusals (no claim to verify) never needs a worker
    df = pd.DataFrame(
        {
            "answer": ["Sorry, I could not find that in the provided documents."] * 40,
            "contexts": [[f"Fact {i}."] for i in range(40)],
        }
    )
    out = rn.faithfulness(df, model="offline", workers=2, progress=False)
    assert (out["faithfulness_status"] == "no_claims").all()
    assert out.attrs["ragnotebook"]["last_run"]["workers"] == 0


class PickyJudge(rn.OfflineJudge):
    """Raises on one row's verify task (in whichever process judges it)."""

    def complete(self, task):
        if task.kind == "verify_claims" and any("Fact 5" in c for c in task.chunks):
            raise RuntimeError("rule failed on fact 5")
        return super().complete(task)


@linux_fork
def test_an_error_raised_in_a_worker_is_that_rows_error():
    df = pd.DataFrame(
        {"answer": [f"Fact {i}." for i in range(8)], "contexts": [[f"Fact {i}."] for i in range(8)]}
    )
    with pytest.warns(UserWarning, match="rows failed"):
        out = rn.faithfulness(df, model=PickyJudge(), workers=2, progress=False)
    assert out["faithfulness_status"].tolist() == ["ok"] * 5 + ["error"] + ["ok"] * 2
    assert "rule failed on fact 5" in out.loc[5, "faithfulness_error"]
    assert out.attrs["ragnotebook"]["last_run"]["workers_failed"] is None


@linux_fork
def test_a_fork_that_fails_leaves_the_run_in_this_process(monkeypatch):
    import multiprocessing.context

    started = []

    def refuse(self):
        started.append(self)
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refuse)
    df = pd.DataFrame(
        {"answer": [f"Fact {i}." for i in range(6)], "contexts": [[f"Fact {i}."] for i in range(6)]}
    )
    out = rn.faithfulness(df, model="offline", workers=2, progress=False)
    assert started  # a fork was tried
    assert out["faithfulness"].tolist() == [1.0] * 6
    last = out.attrs["ragnotebook"]["last_run"]
    assert last["workers"] == 0
    assert last["workers_failed"] == (
        "could not start a worker process (OSError: [Errno 12] Cannot allocate memory)"
    )


def test_a_daemonic_process_starts_no_workers_and_says_so(monkeypatch):
    import multiprocessing

    monkeypatch.delenv("RAGNOTEBOOK_WORKERS", raising=False)
    monkeypatch.setattr(_workers, "fork_available", lambda: True)
    monkeypatch.setitem(multiprocessing.current_process()._config, "daemon", True)
    assert _workers.plan_workers(rn.OfflineJudge(), 2, 1000)[0] == 0
    out = rn.faithfulness(_rows(3), model="offline", workers=2, progress=False)
    assert out["faithfulness"].tolist() == [1.0] * 3
    last = out.attrs["ragnotebook"]["last_run"]
    assert last["workers"] == 0
    assert last["workers_failed"] == (
        "a daemonic process (a multiprocessing.Pool worker) cannot start worker processes; "
        "judged in this process"
    )
    # not asked for: nothing to explain
    quiet = rn.faithfulness(_rows(3), model="offline", progress=False)
    assert quiet.attrs["ragnotebook"]["last_run"]["workers_failed"] is None


def test_asking_for_workers_without_fork_is_explained(monkeypatch):
    monkeypatch.setattr(_workers, "fork_available", lambda: False)
    monkeypatch.setenv("RAGNOTEBOOK_WORKERS", "4")
    out = rn.faithfulness(_rows(3), model="offline", progress=False)
    last = out.attrs["ragnotebook"]["last_run"]
    assert last["workers"] == 0
    assert last["workers_failed"].startswith("worker processes need Linux's fork; ")
    # a judge that waits for a server has nothing to run in workers: no note
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"])
    mocked = rn.faithfulness(_rows(3), model=judge, progress=False)
    assert mocked.attrs["ragnotebook"]["last_run"]["workers_failed"] is None


def _rows(n, word="Fact"):
    return pd.DataFrame(
        {
            "answer": [f"{word} {i}." for i in range(n)],
            "contexts": [[f"{word} {i}."] for i in range(n)],
        }
    )


def _worker_pids(out):
    return {int(v["reason"]) for vs in out["faithfulness_verdicts"] for v in vs}


@linux_fork
def test_the_next_run_of_the_same_judge_reuses_the_workers_and_their_caches():
    first = rn.faithfulness(_rows(12), model=PidJudge(), workers=2, progress=False)
    again = rn.faithfulness(_rows(12, "Other"), model=PidJudge(), workers=2, progress=False)
    pids = _worker_pids(first)
    assert len(pids) == 2 and os.getpid() not in pids
    assert _worker_pids(again) == pids  # the same processes: what they read is still cached
    # other settings answer otherwise: they get workers of their own
    other = rn.faithfulness(
        _rows(12), model=PidJudge(support_threshold=0.6), workers=2, progress=False
    )
    assert _worker_pids(other).isdisjoint(pids)
    assert _workers.close_idle() == 2


@linux_fork
def test_an_idle_pool_stops_its_workers_after_a_while(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(_workers, "IDLE_SECONDS", 0.2)
    out = rn.faithfulness(_rows(6), model=PidJudge(), workers=2, progress=False)
    pids = _worker_pids(out)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and {p.pid for p in multiprocessing.active_children()} & pids:
        time.sleep(0.05)
    assert not {p.pid for p in multiprocessing.active_children()} & pids
    assert _workers.close_idle() == 0


@linux_fork
def test_a_pool_with_a_task_in_flight_is_never_kept():
    # a stopped run leaves tasks in the workers: their late replies must not be taken for
    # the next run's answers
    pool = _workers.acquire(PidJudge(), 2)
    loop = asyncio.new_event_loop()
    try:
        pool._workers[0].sent.append(loop.create_future())
        _workers.release(pool)
    finally:
        loop.close()
    assert _workers.close_idle() == 0
    assert [w.process.exitcode is not None for w in pool._workers] == [True, True]


@linux_fork
def test_workers_of_one_pool_leave_when_it_closes_while_another_pool_lives():
    # a pool forked while another one is open must not hold the other's pipe ends: its
    # workers would keep the first pool's workers waiting for an end that never comes
    first = _workers.WorkerPool(PidJudge(), 2)
    second = _workers.WorkerPool(PidJudge(), 2)
    try:
        first.close()
        assert [w.process.exitcode for w in first._workers] == [0, 0]  # not terminated
    finally:
        second.close()
    assert [w.process.exitcode for w in second._workers] == [0, 0]


@linux_fork
def test_kept_workers_are_not_reused_after_the_judges_code_changes(monkeypatch):
    # a fresh user patched the judge between two runs and got the old rules' answers from
    # the kept workers (same class, same settings)
    first = rn.faithfulness(_rows(6), model=PidJudge(), workers=2, progress=False)
    pids = _worker_pids(first)

    original = PidJudge.complete

    def patched(self, task):
        answer = original(self, task)
        for v in getattr(answer, "verdicts", []):
            v.verdict = "no"
        return answer

    monkeypatch.setattr(PidJudge, "complete", patched)
    again = rn.faithfulness(_rows(6), model=PidJudge(), workers=2, progress=False)
    assert again["faithfulness"].tolist() == [0.0] * 6  # the new code's answers
    assert _worker_pids(again).isdisjoint(pids)  # from new workers
