"""The engine: runs scorer plans for many rows against one judge.

It owns time: the concurrency limit, the private event loop that serves every
sync call, progress reporting from the calling thread, error isolation per row
and metric, and cancellation that keeps finished rows.

Sync calls never touch the caller's event loop. They submit the run to one
long-lived loop in a daemon thread (``asyncio.run_coroutine_threadsafe``) and
wait for it from the calling thread, updating the progress bar there. This
behaves the same in scripts, pytest, Jupyter, VS Code and from inside a running
event loop, without ``nest_asyncio``. The ``a``-prefixed twins run on the
caller's loop instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ragnotebook.judges.base import Judge, JudgeError
from ragnotebook.scorers._common import MetricResult, Plan
from ragnotebook.tasks import ANSWER_MODELS, Answer, Task

__all__ = ["Engine", "Job", "RunStats", "run_sync"]

T = TypeVar("T")

CANCELLED_MESSAGE = "cancelled: the run was interrupted before this row finished"


@dataclass(slots=True)
class Job:
    """One metric on one row: a plan factory plus where its result goes.

    Attributes
    ----------
    position : int
        0-based row position in the frame.
    metric : str
        Metric name.
    make_plan : callable
        ``make_plan() -> Plan``; called once, on the engine's loop.
    """

    position: int
    metric: str
    make_plan: Callable[[], Plan]


@dataclass(slots=True)
class MetricStats:
    """Counters for one metric (JSON-safe via :meth:`to_dict`)."""

    rows: int = 0
    calls: int = 0
    errors: int = 0
    missing_verdicts: int = 0
    invalid_verdicts: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "calls": self.calls,
            "errors": self.errors,
            "missing_verdicts": self.missing_verdicts,
            "invalid_verdicts": self.invalid_verdicts,
            "seconds": round(self.seconds, 4),
        }


@dataclass(slots=True)
class RunStats:
    """What a run did: counts per metric, wall time, interruption."""

    metrics: dict[str, MetricStats] = field(default_factory=dict)
    wall_seconds: float = 0.0
    interrupted: bool = False
    calls: int = 0

    def for_metric(self, metric: str) -> MetricStats:
        if metric not in self.metrics:
            self.metrics[metric] = MetricStats()
        return self.metrics[metric]

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "wall_seconds": round(self.wall_seconds, 4),
            "interrupted": self.interrupted,
            "metrics": {m: s.to_dict() for m, s in self.metrics.items()},
        }


class Engine:
    """Run scorer plans for many rows against one judge, concurrently.

    Parameters
    ----------
    judge : Judge
        Answers the tasks.
    concurrency : int, default 16
        Maximum judge calls in flight at once.

    Attributes
    ----------
    results : dict of (int, str) to MetricResult
        Finished results keyed by ``(position, metric)``; filled as jobs finish,
        so an interrupted run keeps every finished row.
    done : int
        Jobs finished so far (read from other threads for progress).
    stats : RunStats
        Counters for the run metadata.
    """

    def __init__(self, judge: Judge, *, concurrency: int = 16) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {concurrency}")
        self.judge = judge
        self.concurrency = concurrency
        self.results: dict[tuple[int, str], MetricResult] = {}
        self.done = 0
        self.stats = RunStats()
        self._sem: asyncio.Semaphore | None = None

    async def arun(
        self, jobs: Sequence[Job], on_done: Callable[[int], None] | None = None
    ) -> dict[tuple[int, str], MetricResult]:
        """Run every job; return the results keyed by ``(position, metric)``.

        Parameters
        ----------
        jobs : sequence of Job
        on_done : callable, optional
            Called with the number of finished jobs after each job, on the loop
            running this coroutine (used for progress in async twins).

        Returns
        -------
        dict of (int, str) to MetricResult

        Raises
        ------
        asyncio.CancelledError
            When cancelled; ``self.results`` still holds every finished job.
        """
        self._sem = asyncio.Semaphore(self.concurrency)
        start = time.perf_counter()
        for job in jobs:
            self.stats.for_metric(job.metric).rows += 1

        async def one(job: Job) -> None:
            result = await self._drive(job)
            self.results[(job.position, job.metric)] = result
            self.done += 1
            if on_done is not None:
                on_done(self.done)

        tasks = [asyncio.ensure_future(one(job)) for job in jobs]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            self.stats.interrupted = True
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            self.stats.wall_seconds = time.perf_counter() - start
        return self.results

    async def _drive(self, job: Job) -> MetricResult:
        stats = self.stats.for_metric(job.metric)
        t0 = time.perf_counter()
        try:
            plan = job.make_plan()
            try:
                batch = next(plan)
                while True:
                    answers = await self._ask_all(batch, job.metric)
                    batch = plan.send(answers)
            except StopIteration as stop:
                result: MetricResult = stop.value
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # isolate the row: it gets status "error", others go on
            result = MetricResult.failed(job.metric, _describe(exc))
        finally:
            stats.seconds += time.perf_counter() - t0
        if result.status == "error":
            stats.errors += 1
        stats.missing_verdicts += result.missing_verdicts
        stats.invalid_verdicts += result.invalid_verdicts
        return result

    async def _ask_all(self, batch: list[Task], metric: str) -> list[Answer]:
        if len(batch) == 1:
            return [await self._ask(batch[0], metric)]
        futures = [asyncio.ensure_future(self._ask(t, metric)) for t in batch]
        try:
            return list(await asyncio.gather(*futures))
        except BaseException:
            for f in futures:
                f.cancel()
            await asyncio.gather(*futures, return_exceptions=True)
            raise

    async def _ask(self, task: Task, metric: str) -> Answer:
        assert self._sem is not None
        async with self._sem:
            self.stats.calls += 1
            self.stats.for_metric(metric).calls += 1
            answer = await self.judge.acomplete(task)
        expected = ANSWER_MODELS[task.kind]
        if not isinstance(answer, expected):
            raise JudgeError(
                f"the judge answered a {task.kind} task with {type(answer).__name__}, "
                f"expected {expected.__name__}",
                code="bad_answer",
            )
        return answer


def _describe(exc: BaseException) -> str:
    if isinstance(exc, JudgeError):
        return str(exc)
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --------------------------------------------------------------------------- loop thread


class _LoopThread:
    """One private event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def runner() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                thread = threading.Thread(target=runner, name="ragnotebook-loop", daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread = loop, thread
            return self._loop


_LOOP = _LoopThread()


def run_sync(
    make_coro: Callable[[], Coroutine[Any, Any, T]],
    *,
    poll: Callable[[], None] | None = None,
    poll_interval: float = 0.1,
    on_interrupt: Callable[[], T] | None = None,
) -> T:
    """Run a coroutine on the private loop thread and wait for it from this thread.

    Parameters
    ----------
    make_coro : callable
        Returns the coroutine to run (created here, run on the loop thread).
    poll : callable, optional
        Called from the calling thread every ``poll_interval`` seconds while
        waiting, and once at the end (progress bars live here, never on the
        loop thread).
    poll_interval : float, default 0.1
        Seconds between polls.
    on_interrupt : callable, optional
        On ``KeyboardInterrupt`` the run is cancelled, its cancellation awaited,
        and ``on_interrupt()`` returned instead of raising (to keep finished rows).

    Returns
    -------
    The coroutine's result, or ``on_interrupt()``'s.

    Raises
    ------
    KeyboardInterrupt
        When interrupted and no ``on_interrupt`` is given.
    """
    loop = _LOOP.loop()
    future = asyncio.run_coroutine_threadsafe(make_coro(), loop)
    try:
        while True:
            try:
                result = future.result(timeout=poll_interval)
                break
            except concurrent.futures.TimeoutError:
                if poll is not None:
                    poll()
    except KeyboardInterrupt:
        future.cancel()
        # wait until the loop thread has finished cancelling the run
        with contextlib.suppress(BaseException):
            _wait_cancelled(loop, future)
        if poll is not None:
            poll()
        if on_interrupt is None:
            raise
        return on_interrupt()
    if poll is not None:
        poll()
    return result


def _wait_cancelled(
    loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any]
) -> None:
    """Block until every task the cancelled run spawned on ``loop`` has settled."""
    done = threading.Event()

    async def settle() -> None:
        for _ in range(200):  # bounded: at most ~2 s
            pending = [
                t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
            ]
            if not pending:
                break
            await asyncio.sleep(0.01)
        done.set()

    asyncio.run_coroutine_threadsafe(settle(), loop)
    done.wait(timeout=5)
