"""The engine: runs scorer plans for many rows against one judge.

It owns time: the concurrency limit (adaptive under rate limiting), optional
requests- and tokens-per-minute limits, retries with exponential backoff and
jitter that honour ``Retry-After``, a timeout per judge call, the answer cache,
token and cost accounting, error isolation per row and metric, and
cancellation that keeps finished rows. Sync callers reach it through
:func:`ragnotebook._loop.run_sync` (a private loop thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from tenacity import AsyncRetrying, RetryCallState

from ragnotebook._limits import AdaptiveLimiter, RetryPolicy
from ragnotebook._loop import run_sync
from ragnotebook._warn import notify
from ragnotebook._workers import (
    WorkerPool,
    acquire,
    check_workers,
    plan_workers,
    release,
)
from ragnotebook.judges.base import Judge, JudgeError
from ragnotebook.scorers._common import ExplainFailed, MetricResult, Plan, complete_answer
from ragnotebook.tasks import ANSWER_MODELS, Answer, Task

__all__ = ["Engine", "Job", "RunStats", "run_sync"]


def request_bucket(rpm: float) -> tuple[float, float]:
    """``(max_rate, time_period)`` of the leaky bucket for ``rpm`` requests per minute.

    A bucket of ``(rpm, 60)`` lets a whole minute's quota out at once (``rpm=120``
    sent 140 requests in the first 10 s), which is what provider quotas answer with
    429s. The bucket holds one second's worth instead, at least one request: the same
    rate, a burst of ``rpm / 60`` requests.

    Parameters
    ----------
    rpm : float
        Requests per minute, > 0.

    Returns
    -------
    tuple of (float, float)
        Requests per period and the period in seconds.

    Examples
    --------
    >>> from ragnotebook.engine import request_bucket
    >>> request_bucket(120), request_bucket(30)
    ((2.0, 1.0), (1.0, 2.0))
    """
    per_second = float(rpm) / 60.0
    if per_second >= 1.0:
        return per_second, 1.0
    return 1.0, 1.0 / per_second


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
    """Counters for one metric (JSON-safe via :meth:`to_dict`).

    ``calls`` are judge answers used (fresh or cached), ``attempts`` the judge
    calls made (retries included, cache hits excluded), ``requests`` the HTTP
    requests an LLM judge reported (internal re-asks and splits included).
    ``explain_failures`` counts ``reason="llm"`` explanations that failed (those rows
    keep their score and the template reason). ``positional_verdicts`` counts verdicts
    matched to their claims or chunks by position because the judge numbered them
    ``1..k`` (or ``0..k-1`` on a re-ask) or gave no index
    (:func:`~ragnotebook.scorers._common.align_verdicts`). ``out_of_range_chunks`` counts
    the supporting-chunk indices a judge cited for a ``yes`` that name no chunk of the row
    (dropped from the verdicts). Tokens are counted on fresh calls;
    ``cost_usd`` sums the calls whose price
    is known (None in ``to_dict`` when some price was unknown); ``saved_cost_usd``
    is what the cache hits cost when first paid for. ``shared`` counts the cache hits
    that came from an identical task answered during the run while this one waited
    (asked once, not once per row).
    """

    rows: int = 0
    calls: int = 0
    attempts: int = 0
    retries: int = 0
    rate_limited: int = 0
    timeouts: int = 0
    cache_hits: int = 0
    shared: int = 0
    requests: int = 0
    errors: int = 0
    missing_verdicts: int = 0
    invalid_verdicts: int = 0
    positional_verdicts: int = 0
    out_of_range_chunks: int = 0
    explain_failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    saved_cost_usd: float = 0.0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "calls": self.calls,
            "attempts": self.attempts,
            "retries": self.retries,
            "rate_limited": self.rate_limited,
            "timeouts": self.timeouts,
            "cache_hits": self.cache_hits,
            "shared": self.shared,
            "requests": self.requests,
            "errors": self.errors,
            "missing_verdicts": self.missing_verdicts,
            "invalid_verdicts": self.invalid_verdicts,
            "positional_verdicts": self.positional_verdicts,
            "out_of_range_chunks": self.out_of_range_chunks,
            "explain_failures": self.explain_failures,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 8) if self.cost_known else None,
            "saved_cost_usd": round(self.saved_cost_usd, 8),
            "seconds": round(self.seconds, 4),
        }


@dataclass(slots=True)
class RunStats:
    """What a run did: counts per metric, wall time, interruption."""

    metrics: dict[str, MetricStats] = field(default_factory=dict)
    wall_seconds: float = 0.0
    interrupted: bool = False
    max_in_flight: int = 0
    #: worker processes the run's judge answered in (0: this process only)
    workers: int = 0
    #: why workers asked for cannot run here, could not start or stopped mid-run (the
    #: rest judged in this process), or None
    workers_failed: str | None = None

    def for_metric(self, metric: str) -> MetricStats:
        if metric not in self.metrics:
            self.metrics[metric] = MetricStats()
        return self.metrics[metric]

    @property
    def calls(self) -> int:
        return sum(s.calls for s in self.metrics.values())

    @property
    def attempts(self) -> int:
        return sum(s.attempts for s in self.metrics.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "attempts": self.attempts,
            "wall_seconds": round(self.wall_seconds, 4),
            "interrupted": self.interrupted,
            "max_in_flight": self.max_in_flight,
            "workers": self.workers,
            "workers_failed": self.workers_failed,
            "metrics": {m: s.to_dict() for m, s in self.metrics.items()},
        }


_freeze_lock = threading.Lock()
_freeze_depth = 0


@contextlib.contextmanager
def _older_objects_frozen() -> Iterator[None]:
    """Keep objects that existed before a run out of the cyclic GC during the run.

    A notebook's heap (pandas, litellm, the user's data) holds millions of objects;
    every full collection walks them all, and a run that allocates results triggers
    several, each stalling the event loop for 0.1-0.3 s while requests wait.
    ``gc.freeze()`` moves the existing objects to the permanent generation for the
    run; ``gc.unfreeze()`` returns them when the last concurrent run ends. Nothing is
    frozen when someone else (a pre-forking server) already froze the heap.
    """
    global _freeze_depth
    with _freeze_lock:
        ours = _freeze_depth > 0 or gc.get_freeze_count() == 0
        if ours:
            if _freeze_depth == 0:
                gc.freeze()
            _freeze_depth += 1
    try:
        yield
    finally:
        if ours:
            with _freeze_lock:
                _freeze_depth -= 1
                if _freeze_depth == 0:
                    gc.unfreeze()


#: How a call stopped by the engine's ``call_timeout`` is reported (its hint names that
#: option, not the judge's ``timeout``).
_CALL_TIMEOUT = "the judge call took longer than"

#: Failures that, before any call of a run got through, say the server is not there
#: (refused connections, a wrong api_base) or not answering (a listener that never
#: replies): one call probes through its retries and the others wait; if it gives up,
#: the run stops instead of spending every row's retry budget.
_UNREACHABLE = frozenset({"connection_error", "timeout"})
#: Failures that, when every one of the run's last ``_FAILURE_STREAK`` attempts ended
#: with one of them (and none succeeded in between), say the server is failing for good
#: (a model still loading answers 503 for minutes, a quota answers 429 to everything):
#: the next failing call probes through its retries while the others wait, and if it
#: gives up the run stops. A success at any time ends the streak and the probe.
_UNAVAILABLE = frozenset({"server_error", "rate_limited"})
#: Consecutive 5xx / 429 attempts, run-wide and with no success in between, that start a
#: probe. Random faults never get there (30% of replies failing: 0.3**20 ~ 3e-11 per
#: attempt); a server capping concurrency answers 429 only beyond its cap, and the calls
#: under the cap succeed in between.
_FAILURE_STREAK = 20
#: Failures whose reply a retry may repeat word for word (a deterministic model at
#: temperature 0): two identical ones in a row end the call's retries.
_REPEATABLE = frozenset({"parse_error", "truncated", "empty_content"})
#: Jobs (row-metrics) running at once, per unit of concurrency.
_WINDOW_FACTOR = 2

#: Seconds of judging (offline rules, cached answers) after which a run lets the event
#: loop run its other tasks and timers (see :meth:`Engine._take_turn`).
_SLICE_SECONDS = 0.02


class Engine:
    """Run scorer plans for many rows against one judge, concurrently.

    Parameters
    ----------
    judge : Judge
        Answers the tasks. If it has ``acall(task) -> (answer, usage)`` (as
        :class:`~ragnotebook.LiteLLMJudge` does), usage is accounted.
    concurrency : int, default 16
        Maximum judge calls in flight; halved on 429s and recovered additively.
    max_retries : int, optional
        Retries of retryable errors (timeouts, 5xx, unparseable replies); default
        the judge's ``num_retries`` attribute, else 4. 429s have their own budget.
    rpm, tpm : float, optional
        Requests and (estimated prompt) tokens per minute, for providers with
        quotas; None means unlimited.
    call_timeout : float, optional
        Seconds per judge call before it is abandoned and retried; default the
        judge's ``max_call_seconds`` (one LiteLLMJudge call may make several
        requests, each bounded by its ``timeout``), else its ``timeout`` plus a
        5 s grace, else none.
    cache : JudgeCache, optional
        Answers are looked up before and stored after each fresh call. With or
        without one, an LLM judge's identical tasks are asked once per run (see
        ``_ask``).
    retry_policy : RetryPolicy, optional
        Overrides the backoff settings.
    max_rate_limit_retries : int, optional
        Retries of a call answered 429 (default 24, :class:`RetryPolicy`); each waits
        the provider's ``Retry-After`` (at most ``RetryPolicy.max_retry_after``, 60 s).
    workers : int, optional
        Worker processes for a judge that declares ``cpu_bound = True`` (the offline
        judge): its tasks of the kinds in its ``cpu_bound_kinds`` are answered in
        processes forked at the run's first fresh call, one queue each, a task routed
        by its row's chunks (:mod:`ragnotebook._workers`). None (default): the
        ``RAGNOTEBOOK_WORKERS`` environment variable, else ``min(4, usable CPUs)`` for
        runs of 200 jobs (row x metric) or more, else none. ``1`` keeps every task in
        this process. Linux only (fork); elsewhere tasks stay in this process. Answers
        are the same either way. Raises ValueError below 1.

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

    def __init__(
        self,
        judge: Judge,
        *,
        concurrency: int = 16,
        max_retries: int | None = None,
        rpm: float | None = None,
        tpm: float | None = None,
        call_timeout: float | None = None,
        cache: Any = None,
        retry_policy: RetryPolicy | None = None,
        max_rate_limit_retries: int | None = None,
        workers: int | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {concurrency}")
        self.judge = judge
        self.concurrency = concurrency
        self.policy = retry_policy or RetryPolicy()
        if max_retries is not None:
            self.policy.max_retries = max(0, int(max_retries))
        elif retry_policy is None:
            self.policy.max_retries = max(0, int(getattr(judge, "num_retries", 4)))
        if max_rate_limit_retries is not None:
            if int(max_rate_limit_retries) < 0:
                raise ValueError(
                    f"max_rate_limit_retries must be >= 0, got {max_rate_limit_retries}"
                )
            self.policy.max_rate_limit_retries = int(max_rate_limit_retries)
        if call_timeout is None:
            bound = getattr(judge, "max_call_seconds", None)
            judge_timeout = getattr(judge, "timeout", None)
            if bound:
                call_timeout = float(bound)
            elif judge_timeout:
                call_timeout = float(judge_timeout) + 5.0
        self.call_timeout = call_timeout
        self.workers = check_workers(workers)
        self.rpm, self.tpm = rpm, tpm
        self.cache = cache
        self.results: dict[tuple[int, str], MetricResult] = {}
        self.done = 0
        self.stats = RunStats()
        self.auth_failure: JudgeError | None = None
        # a 404 before any call of the run succeeded: a wrong api_base path or model name,
        # the same for every call, so the run stops as after an auth failure
        self.not_found: JudgeError | None = None
        self.unreachable: JudgeError | None = None
        self._succeeded = False
        # attempts in a row (run-wide) answered 5xx / 429, with no success in between
        self._failure_streak = 0
        self._tripped_streak = 0
        self._long_wait_said = False
        # reachability probe: after a connection error, while no call has succeeded, or
        # after a streak of 5xx / 429, only the call that saw it keeps trying; the others
        # wait for its outcome
        self._probe_owner: object | None = None
        self._probe_done: asyncio.Event | None = None
        self._session: contextlib.AsyncExitStack | None = None
        self._session_open = False
        self._session_lock: asyncio.Lock | None = None
        # cache key -> the answer of the identical task being asked (see _ask)
        self._pending: dict[str, asyncio.Future[tuple[Answer, float] | None]] = {}
        self._limiter: AdaptiveLimiter | None = None
        self._slice_start = time.perf_counter()  # see _take_turn
        self._rate: Any = None
        self._tokens: Any = None
        # worker processes of a CPU-bound judge (see ragnotebook._workers): how many this
        # run may start, and the pool once the first fresh call started it
        self._workers_planned = 0
        self._pool: WorkerPool | None = None

    # ------------------------------------------------------------------ running
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
        self._limiter = AdaptiveLimiter(self.concurrency)
        if self.rpm or self.tpm:
            from aiolimiter import AsyncLimiter

            self._rate = AsyncLimiter(*request_bucket(self.rpm)) if self.rpm else None
            self._tokens = AsyncLimiter(self.tpm, 60) if self.tpm else None
        start = time.perf_counter()
        self._slice_start = start
        for job in jobs:
            self.stats.for_metric(job.metric).rows += 1
        # workers asked for but not possible here (not Linux, a daemonic process): why
        self._workers_planned, self.stats.workers_failed = plan_workers(
            self.judge, self.workers, len(jobs)
        )
        memory = await self._recall_adaptations()

        # jobs start in order and at most ``window`` run at once: a started job's next
        # call waits behind fewer first calls, so rows finish in order (depth first) and
        # an interrupted run keeps many whole rows, not a first step of every row; twice
        # the concurrency keeps every slot busy while jobs sit between their steps
        window = asyncio.Semaphore(_WINDOW_FACTOR * self.concurrency)

        async def one(job: Job) -> None:
            async with window:
                result = await self._drive(job)
            self.results[(job.position, job.metric)] = result
            self.done += 1
            if on_done is not None:
                on_done(self.done)

        self._session_lock = asyncio.Lock()  # made here: bound to the loop of this run
        with _older_objects_frozen():
            # the judge's session (imports, connections) opens at the first cache miss
            # (_open_session) and closes here: a fully cached run never opens it
            async with contextlib.AsyncExitStack() as self._session:
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
                    self.stats.max_in_flight = self._limiter.max_in_flight
                    if self._pool is not None:
                        release(self._pool)  # kept a while for the next run, if whole
                        self.stats.workers = self._pool.n
                        self.stats.workers_failed = self._pool.broken
                        self._pool = None
                    await self._remember_adaptations(memory)
        self._session, self._session_open = None, False
        return self.results

    async def _open_session(self) -> None:
        """Enter the judge's ``session()`` once per run, before its first request.

        At the first cache miss nothing is in flight yet, so the judge's one-time
        preparation (litellm's import, connection set-up) delays no request.
        """
        if self._session_open or self._session is None or self._session_lock is None:
            return
        async with self._session_lock:  # concurrent first misses wait for one entry
            if self._session_open:
                return
            session = getattr(self.judge, "session", None)
            if callable(session):
                await self._session.enter_async_context(session())
            self._session_open = True

    async def _recall_adaptations(self) -> tuple[str, dict[str, Any]] | None:
        """Apply what the judge learned about this provider in an earlier cached run.

        A judge that adapts (drops ``temperature``, changes structured-output mode)
        changes its identity, hence its cache keys. Remembering the adaptations
        under the judge's configured identity lets a re-run start adapted, so its
        keys match the first run's and it makes no calls.
        """
        if self.cache is None or not hasattr(self.judge, "adaptations"):
            return None
        import hashlib
        import json

        blob = json.dumps({"adaptations-of": self.judge.identity()}, sort_keys=True, default=str)
        key = "adapt:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()
        before = dict(self.judge.adaptations())  # type: ignore[attr-defined]
        learned = await self.cache.aget(key)
        if learned and hasattr(self.judge, "adopt"):
            self.judge.adopt(learned)
        return key, before

    async def _remember_adaptations(self, memory: tuple[str, dict[str, Any]] | None) -> None:
        if memory is None or self.cache is None:
            return
        key, before = memory
        now = dict(self.judge.adaptations())  # type: ignore[attr-defined]
        if now != before:
            await self.cache.aput(
                key, now, judge_id=self.judge.judge_id, model=None, task_kind="adaptations"
            )

    async def _take_turn(self) -> None:
        """Let the event loop run other work when this run has held it for a slice.

        A judge that answers without waiting (the offline judge, the cache, a
        ``MockJudge``) never suspends a job, so without this a run would score every
        row in one pass of the loop: the caller's other tasks, timers, ``wait_for``
        and health checks (and the LLM runs of other threads, which share the private
        loop) would wait for the whole run. After ``_SLICE_SECONDS`` of work the jobs
        holding a window slot yield (``asyncio.sleep(0)``) until the loop has turned;
        the first to resume starts the next slice (and always goes on, so every turn
        makes progress). It is checked when a job starts, not between its steps, so a
        row's steps stay together. Jobs beyond the window wait on its semaphore, so a
        turn costs at most a window's worth of yields.
        """
        if time.perf_counter() - self._slice_start < _SLICE_SECONDS:
            return
        while True:
            yielded_at = time.perf_counter()
            await asyncio.sleep(0)
            if self._slice_start < yielded_at:  # the first back after the loop turned
                self._slice_start = time.perf_counter()
                return
            if time.perf_counter() - self._slice_start < _SLICE_SECONDS:
                return

    async def _drive(self, job: Job) -> MetricResult:
        stats = self.stats.for_metric(job.metric)
        t0 = time.perf_counter()
        try:
            await self._take_turn()
            # the row's time starts when it runs: a turn spent waiting while other rows
            # work is theirs (counted here it made "seconds" 9x the wall time of a run
            # with one row at a time)
            t0 = time.perf_counter()
            plan = job.make_plan()
            try:
                batch = next(plan)
                while True:
                    try:
                        answers: list[Answer | ExplainFailed] = list(
                            await self._ask_all(batch, job.metric)
                        )
                    except Exception as exc:
                        if not all(t.kind == "explain" for t in batch):
                            raise
                        # reason="llm": a failed explanation keeps the template reason
                        # and the score already computed (the row is not an error); the
                        # plan gets the failure to name it in the reason
                        stats.explain_failures += len(batch)
                        answers = [ExplainFailed(_describe(exc))] * len(batch)
                    batch = plan.send(answers)  # type: ignore[arg-type]
            except StopIteration as stop:
                result: MetricResult = stop.value
        except asyncio.CancelledError as exc:
            running = asyncio.current_task()
            if running is None or running.cancelling():
                raise  # the run is cancelled (Ctrl-C, a caller's timeout)
            # nobody cancelled this row: the judge's own code raised it (a client that
            # reports its timeouts so); the row fails, the others go on
            result = MetricResult.failed(
                job.metric, f"the judge raised CancelledError{f': {exc}' if str(exc) else ''}"
            )
        except Exception as exc:  # isolate the row: it gets status "error", others go on
            result = MetricResult.failed(job.metric, _describe(exc))
        finally:
            stats.seconds += time.perf_counter() - t0
        if result.status == "error":
            stats.errors += 1
        stats.missing_verdicts += result.missing_verdicts
        stats.invalid_verdicts += result.invalid_verdicts
        stats.positional_verdicts += result.positional_verdicts
        stats.out_of_range_chunks += result.out_of_range_chunks
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

    # ------------------------------------------------------------------ one task
    async def _ask(self, task: Task, metric: str) -> Answer:
        """One task's answer: from the cache, from an identical task in flight, or fresh.

        For an LLM judge (``cacheable``) or with a cache, identical tasks (same judge
        identity, kind and content: two rows with the same question and chunks, the
        same ground truth scored for two systems) are asked once per run even when they
        run at the same time: the first one asks, the others wait for its answer and
        count it as a cache hit (``shared``); the answer stays for the run's later
        copies, so the cache off asks no more. When the first one fails, each waiting
        task asks on its own (failures are not shared, as they are not cached). A
        scripted judge (``MockJudge``) is asked every time: its script may answer the
        same task differently.
        """
        stats = self.stats.for_metric(metric)
        if self.cache is None and not getattr(self.judge, "cacheable", False):
            return await self._ask_fresh(task, stats, None)
        from ragnotebook.cache import JudgeCache

        expected = ANSWER_MODELS[task.kind]
        key = JudgeCache.key(self.judge.identity(), task)
        entry = None if self.cache is None else await self.cache.aget_entry(key)
        if entry is not None:
            try:
                cached = expected.model_validate(entry.answer)
            except ValueError:
                cached = None
            if cached is not None:
                stats.calls += 1
                stats.cache_hits += 1
                stats.saved_cost_usd += float(entry.cost_usd or 0.0)
                return cached  # type: ignore[return-value]
        while (pending := self._pending.get(key)) is not None:
            # shield: this task's cancellation must not cancel the task that asks; a
            # finished answer is read without awaiting (it may come from another loop)
            shared = pending.result() if pending.done() else await asyncio.shield(pending)
            if shared is not None:
                answer, cost = shared
                answer = answer.model_copy(deep=True)  # each row gets its own, as from the cache
                stats.calls += 1
                stats.cache_hits += 1
                stats.shared += 1
                stats.saved_cost_usd += cost
                return answer
            # the asking task failed or was cancelled: ask (or wait for the next one)
        future: asyncio.Future[tuple[Answer, float] | None]
        future = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            answer = await self._ask_fresh(task, stats, key, future)
        finally:
            if not future.done():
                future.set_result(None)  # failed or cancelled: the waiters ask themselves
            if future.result() is None:
                del self._pending[key]
            # an answer stays for the rest of the run (later copies need no cache)
        return answer

    async def _ask_fresh(
        self,
        task: Task,
        stats: MetricStats,
        key: str | None,
        shared: asyncio.Future[tuple[Answer, float] | None] | None = None,
    ) -> Answer:
        """Call the judge for ``task`` (with retries); store the answer in the cache.

        ``shared``, when given, gets ``(answer, cost_usd)`` for the identical tasks
        waiting on this one.
        """
        expected = ANSWER_MODELS[task.kind]
        await self._open_session()
        retries = {"other": 0, "rate": 0}
        token = object()  # this call, for the reachability probe
        previous: list[tuple[str, str | None, str]] = []  # the last repeatable failure

        def stop(state: RetryCallState) -> bool:
            exc = state.outcome.exception() if state.outcome else None
            assert exc is not None
            if not self.policy.should_retry(exc, retries["other"], retries["rate"]):
                return True
            if (
                self.auth_failure is not None
                or self.not_found is not None
                or self.unreachable is not None
            ):
                return True
            if isinstance(exc, JudgeError) and exc.code in _REPEATABLE:
                # the same request got the same unusable reply twice (a deterministic
                # model): a third identical request would get it again
                seen = (exc.code, exc.raw, str(exc.args[0]) if exc.args else "")
                if previous and previous[-1] == seen:
                    exc.args = (
                        f"{seen[2]} (the same reply to 2 identical requests in a row, so "
                        "it was not asked again)",
                    )
                    return True
                previous[:] = [seen]
            else:
                previous.clear()
            if (
                isinstance(exc, JudgeError)
                and self._probe_owner is None
                and self._server_failing(exc)
            ):
                self._probe_owner = token  # this call probes; the others wait for it
                # with a budget of its own: after a streak it may have spent most of its
                retries["other"] = retries["rate"] = 0
            if isinstance(exc, JudgeError) and exc.code == "rate_limited":
                retries["rate"] += 1
            else:
                retries["other"] += 1
            return False  # stats.retries counts the retry when it is sent (_attempt)

        def wait(state: RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            asked = getattr(exc, "retry_after", None)
            if (
                asked is not None
                and asked > self.policy.max_retry_after
                and not self._long_wait_said
            ):
                self._long_wait_said = True
                notify(
                    f"ragnotebook: the judge's server asked to wait {asked:g} s before "
                    f"retrying (Retry-After); waiting {self.policy.max_retry_after:g} s at "
                    "most per retry"
                )
            return self.policy.delay(exc or Exception(), state.attempt_number)

        answer_and_usage: tuple[Answer, Any] | None = None
        try:
            async for attempt in AsyncRetrying(stop=stop, wait=wait, reraise=True):
                with attempt:
                    retry = attempt.retry_state.attempt_number > 1
                    answer_and_usage = await self._attempt(task, stats, token, retry=retry)
        except JudgeError as exc:
            # the server could not be reached through a whole retry budget and no call
            # of this run ever got through (a wrong api_base or a server that is down),
            # or, after a streak of 5xx / 429 answers with no success in between, the
            # probe got them through its whole retry budget too. Stop here, as after an
            # auth failure, instead of retrying every row.
            if (
                self.unreachable is None
                and self._server_failing(exc)
                and (exc.code in _UNREACHABLE or self._probe_owner is token)
            ):
                self.unreachable = exc
                self._tripped_streak = self._failure_streak
            raise
        finally:
            if self._probe_owner is token:  # the probe is over: wake the waiting calls
                self._probe_owner = None
                self._wake_probe_waiters()
        assert answer_and_usage is not None
        answer, usage = answer_and_usage
        if not isinstance(answer, expected):
            raise JudgeError(
                f"the judge answered a {task.kind} task with {type(answer).__name__}, "
                f"expected {expected.__name__}",
                code="bad_answer",
            )
        stats.calls += 1
        self._account(stats, usage, success=True)
        if shared is not None:
            cost = getattr(usage, "cost_usd", None)
            paid = float(cost) if isinstance(cost, int | float) and not math.isnan(cost) else 0.0
            shared.set_result((answer, paid))
        if self.cache is not None and key is not None and complete_answer(task, answer):
            # an answer leaving an item without a valid verdict is not stored: the scorer
            # re-asks for those items, and a later run asks again instead of replaying it.
            # A judge that adapted during the call (dropped temperature, another
            # structured-output mode) answered under its new identity: store the answer
            # under that key, which is what a re-run (started adapted) looks up
            identity = self.judge.identity()
            key = self.cache.key(identity, task)
            await self.cache.aput(
                key,
                answer,
                judge_id=self.judge.judge_id,
                model=str(identity.get("model", self.judge.judge_id)),
                task_kind=task.kind,
                usage=_usage_dict(usage),
            )
        return answer

    def _server_failing(self, exc: JudgeError) -> bool:
        """Whether ``exc`` says the server is failing for the whole run, not for one call:
        unreachable before any call got through, or a 5xx / 429 at the end of a streak."""
        if exc.code in _UNREACHABLE:
            return not self._succeeded
        return exc.code in _UNAVAILABLE and self._failure_streak >= _FAILURE_STREAK

    async def _attempt(
        self, task: Task, stats: MetricStats, token: object = None, *, retry: bool = False
    ) -> tuple[Answer, Any]:
        """One judge call under the limits; judge failures come out as JudgeError."""
        limiter = self._limiter
        assert limiter is not None
        while True:
            await self._await_reachability(token)
            self._check_stopped()
            if self._rate is not None:
                await self._rate.acquire()
            if self._tokens is not None:
                need = min(float(self.tpm or 1), float(_estimate_tokens(task)))
                await self._tokens.acquire(need)
            await limiter.acquire()
            if not self._probing_elsewhere(token):
                break
            limiter.release()  # a probe started while this call waited for a slot
        scope: asyncio.Timeout | None = None
        try:
            self._check_stopped()  # another call may have failed while this one waited
            stats.attempts += 1
            if retry:  # counted when sent: a retry skipped after a stop is not one
                stats.retries += 1
            call = self._call(task)
            scope = asyncio.timeout(self.call_timeout)  # None: no limit
            async with scope:
                result = await call
        except TimeoutError as exc:
            stats.timeouts += 1
            # an LLM judge's abandoned call hangs its usage on the cancellation: the
            # requests it sent reached the server (and are billed) all the same
            self._account(stats, getattr(exc.__cause__, "usage", None), success=False)
            if scope is not None and scope.expired():
                raise JudgeError(
                    f"{_CALL_TIMEOUT} {self.call_timeout:g} s",
                    code="timeout",
                    retryable=True,
                ) from None
            # the judge's own client gave up (its TimeoutError), not call_timeout
            detail = f": {exc}" if str(exc) else ""
            raise JudgeError(
                f"the judge call timed out ({type(exc).__name__}{detail})",
                code="timeout",
                retryable=True,
            ) from exc
        except asyncio.CancelledError as exc:  # interrupted: count what was sent
            self._account(stats, getattr(exc, "usage", None), success=False)
            raise
        except JudgeError as exc:
            self._account(stats, getattr(exc, "usage", None), success=False)
            if exc.code in _UNAVAILABLE:
                self._failure_streak += 1
            elif exc.code not in _UNREACHABLE:
                # the server answered (a reply we could not use): it is there, no probe
                self._failure_streak = 0
                if self._probe_owner is not None:
                    self._probe_owner = None
                    self._wake_probe_waiters()
            if exc.code == "rate_limited":
                stats.rate_limited += 1
                limiter.on_rate_limited()
            elif exc.code == "timeout":
                stats.timeouts += 1
            elif exc.code == "auth_error" and self.auth_failure is None:
                self.auth_failure = exc
            elif exc.status == 404 and not self._succeeded and self.not_found is None:
                self.not_found = exc
            raise
        finally:
            limiter.release()
        limiter.on_success()
        self._failure_streak = 0
        if not self._succeeded or self._probe_owner is not None:
            # the server answers: any probe is over, every waiting call goes on
            self._succeeded = True
            self._probe_owner = None
            self._wake_probe_waiters()
        return result

    async def _await_reachability(self, token: object) -> None:
        """Wait while another call probes a server that has not answered yet.

        After a connection error, and until some call of the run succeeds, only the
        call that saw the error keeps trying (with its backoff); the other calls
        wait here instead of each spending its own retry budget on a server that
        is down or an ``api_base`` that is wrong. The probe ends with a success
        (everyone proceeds), with the probing call giving up (the run stops, see
        ``unreachable``) or with it failing otherwise (the next call probes).
        """
        while self._probing_elsewhere(token):
            if self._probe_done is None:
                self._probe_done = asyncio.Event()
            await self._probe_done.wait()

    def _probing_elsewhere(self, token: object) -> bool:
        return (
            self.unreachable is None
            and self._probe_owner is not None
            and self._probe_owner is not token
        )

    def _wake_probe_waiters(self) -> None:
        if self._probe_done is not None:
            self._probe_done.set()
            self._probe_done = None

    @staticmethod
    def _account(stats: MetricStats, usage: Any, *, success: bool) -> None:
        """Add a call's tokens and cost (failed calls cost too: their usage is kept)."""
        if usage is None:
            return
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        requests = int(getattr(usage, "requests", 1) or 0)
        stats.prompt_tokens += prompt_tokens
        stats.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
        stats.requests += requests
        cost = getattr(usage, "cost_usd", None)
        if cost is None or (isinstance(cost, float) and math.isnan(cost)):
            # a failed call that sent nothing cost nothing; one that sent requests (an
            # HTTP error from an unpriced model, replies without usage) cost an unknown
            # amount, which a total of $0 would misstate as free
            if success or prompt_tokens or requests:
                stats.cost_known = False
        else:
            stats.cost_usd += float(cost)

    def _check_stopped(self) -> None:
        if self.auth_failure is not None:
            raise JudgeError(
                "skipped: an earlier call failed authentication, so no more calls are made "
                f"({self.auth_failure.args[0]})",
                code="auth_error",
            )
        if self.not_found is not None:
            raise JudgeError(
                "skipped: the judge's server answered 404 Not Found and no call of this run "
                "got through, so no more calls are made (a wrong api_base path or model "
                f"name is the same for every call; {self.not_found.args[0]})",
                code="bad_request",
            )
        if self.unreachable is not None:
            first = self.unreachable
            if first.code in _UNAVAILABLE:
                said = "429 (rate limited)" if first.code == "rate_limited" else "a 5xx error"
                raise JudgeError(
                    f"skipped: the judge's server answered {said} to {self._tripped_streak} "
                    "requests in a row, the last ones a probe call's retries, so no more "
                    f"calls are made ({first.args[0]}); a server still loading its model, "
                    "overloaded or out of quota answers so: run again once it answers (with "
                    "the cache on, finished rows are not paid for again)",
                    code=first.code,
                )
            if first.code == "timeout":
                # the limit that fired: the engine's own per-call limit, or the judge's
                option = "call_timeout=" if first.args[0].startswith(_CALL_TIMEOUT) else "timeout="
                raise JudgeError(
                    "skipped: the judge's server answered no call in time (every retry of an "
                    "earlier call timed out and no call of this run got through), so no more "
                    f"calls are made ({first.args[0]}); if the model is only slow to start, "
                    f"raise {option}",
                    code="timeout",
                )
            cut_off = "closed the connection before its reply" in first.args[0]
            raise JudgeError(
                (
                    "skipped: the judge's server cut off its replies (every retry of an "
                    "earlier call lost the connection mid-reply and no call of this run got "
                    f"through), so no more calls are made ({first.args[0]})"
                    if cut_off
                    else "skipped: the judge's server could not be reached (every retry of an "
                    "earlier call failed and no call of this run got through), so no more "
                    f"calls are made ({first.args[0]})"
                ),
                code="connection_error",
            )

    async def _call(self, task: Task) -> tuple[Answer, Any]:
        if self._workers_planned and task.kind in getattr(self.judge, "cpu_bound_kinds", ()):
            if self._pool is None:  # the first fresh call: a fully cached run forks nothing
                self._pool = acquire(self.judge, self._workers_planned)
            # plan_workers checked that the judge answers synchronously with complete()
            complete: Callable[[Task], Answer] = self.judge.complete  # type: ignore[attr-defined]
            return await self._pool.complete(task, complete), None
        acall = getattr(self.judge, "acall", None)
        if acall is not None:
            answer, usage = await acall(task)
            return answer, usage
        return await self.judge.acomplete(task), None


def _estimate_tokens(task: Task) -> int:
    chars = len(task.text or "") + len(task.question or "")
    chars += sum(len(c) for c in task.chunks) + sum(len(it.text) for it in task.items)
    return max(1, chars // 4 + 300)


def _usage_dict(usage: Any) -> dict[str, Any] | None:
    if usage is None:
        return None
    return {
        "prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
        "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
        "cost_usd": getattr(usage, "cost_usd", None),
    }


def _describe(exc: BaseException) -> str:
    if isinstance(exc, JudgeError):
        return str(exc)
    if isinstance(exc, ValidationError):
        # a judge object's answer that is no valid answer: its messages, not pydantic's
        # multi-line report with links
        errors = exc.errors(include_url=False)
        return "invalid answer: " + "; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + e["msg"] for e in errors
        )
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
