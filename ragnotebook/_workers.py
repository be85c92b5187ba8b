"""Worker processes for judges whose answers cost CPU time, not waiting.

The offline judge answers from rules in Python: one process judges on one core however
many tasks are in flight. For a run of many rows the engine hands its tasks to worker
processes forked from this one (:class:`WorkerPool`), one task queue per worker, and a
task goes to the worker chosen by its row's chunks: every task about the same retrieved
context (a row's recall and faithfulness steps, several answers of one question) meets
the caches the first of them filled. Answers are the same as in-process answers (the
judge is deterministic and its caches never change an answer); only the time differs.

Why fork, and only on Linux: a forked worker starts in milliseconds with everything the
parent holds (the judge, its class even when defined in a notebook cell, the user's
patches), runs none of the user's script again (``spawn`` and ``forkserver`` import the
main module in each worker, which reruns an unguarded script's top level), and needs no
pickling of the judge. macOS lacks a safe ``fork`` (system frameworks), Windows lacks
``fork`` altogether: there the judge answers in-process, as it always did.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import warnings
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

#: Most worker processes chosen automatically (``workers=None``): the rules scale to about
#: this many before the parent's share (queues, scoring, results) dominates.
MAX_AUTO_WORKERS = 4
#: Fewest jobs (row x metric) a run needs before it starts workers automatically: below
#: it the fork and the first tasks' cold caches cost about what two cores save.
MIN_AUTO_JOBS = 200

#: How many more tasks than the least busy worker a task's own worker (the one holding its
#: context's readings) may have queued before the task goes to the least busy one.
_SPILL = 4
#: Tasks sent to one worker and not yet answered; the rest wait in this process. Two
#: keep a worker busy while its next task is on the way, and keep the pipe from filling:
#: a write the worker is not reading would stall the event loop.
_SENT_PER_WORKER = 2


def _serve(judge: Any, conn: Connection, inherited: list[Connection]) -> None:
    """A worker's loop: answer each task received on ``conn`` until it closes."""
    # the parent's ends of the pipes (this worker's and those of the workers forked
    # before it) came along with the fork: closed here, so that when the parent closes
    # them each worker sees the end of its pipe
    for other in inherited:
        other.close()
    # Ctrl-C in a terminal signals the whole process group: the parent stops the run
    # and keeps its finished rows; a worker printing a KeyboardInterrupt traceback for
    # a task nobody awaits any more would only be noise
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, judge.complete(task))
        except Exception as exc:  # the row's error, raised again in the parent
            reply = (False, exc)
        try:
            try:
                conn.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        except (BrokenPipeError, OSError):
            return


#: The parent's ends of the workers' pipes, of every pool: each fork closes them in the
#: child. Pipes are made, forked and added here under ``_fork_lock``, so a fork in another
#: thread never carries a pipe end it does not know of.
_open_ends: set[Connection] = set()
_fork_lock = threading.Lock()


class _Broken(Exception):
    """A worker's pipe closed with tasks unanswered."""


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    #: futures of the tasks sent, in the order the worker answers them
    sent: deque[asyncio.Future[tuple[bool, Any]]] = field(default_factory=deque)
    #: tasks not yet sent, with their futures
    waiting: deque[tuple[Any, asyncio.Future[tuple[bool, Any]]]] = field(default_factory=deque)
    loop: asyncio.AbstractEventLoop | None = None


def _load(worker: _Worker) -> int:
    return len(worker.sent) + len(worker.waiting)


def _why(worker: _Worker, exc: BaseException) -> str:
    """What stopped a worker whose pipe failed with ``exc``: its exit code once it ended."""
    worker.process.join(1)
    code = worker.process.exitcode
    if code is None:
        return f"a worker process stopped answering ({type(exc).__name__})"
    return f"a worker process exited (exit code {code})"


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def fork_available() -> bool:
    """Whether worker processes can be forked here (Linux with the ``fork`` method)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def env_workers() -> int | None:
    """``RAGNOTEBOOK_WORKERS`` as a number of workers (None when unset); ValueError when
    it is not a whole number >= 1."""
    raw = os.environ.get("RAGNOTEBOOK_WORKERS", "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(
            f"RAGNOTEBOOK_WORKERS must be a whole number of worker processes, got {raw!r}"
        ) from None
    if value < 1:
        raise ValueError(f"RAGNOTEBOOK_WORKERS must be >= 1, got {value}")
    return value


def check_workers(workers: int | None) -> int | None:
    """``workers`` validated (None, or an int >= 1); raises ValueError otherwise."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise ValueError(f"workers must be a whole number >= 1 or None, got {workers!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    return workers


def plan_workers(judge: Any, workers: int | None, n_jobs: int) -> tuple[int, str | None]:
    """How many worker processes a run of ``n_jobs`` jobs with ``judge`` uses (0: none),
    and, when two or more were asked for but cannot run here, why.

    Only a judge that declares ``cpu_bound = True`` and answers with a synchronous
    ``complete(task)`` (the offline judge) is run in workers. ``workers=None`` reads
    ``RAGNOTEBOOK_WORKERS``, else chooses ``min(MAX_AUTO_WORKERS, usable CPUs)`` for runs
    of at least ``MIN_AUTO_JOBS`` jobs; an explicit number is used for any run size. One
    worker, a platform without a safe fork, or a daemonic process (a
    ``multiprocessing.Pool`` worker, which may not have children) means none.
    """
    cpu_bound = getattr(judge, "cpu_bound", False) and callable(getattr(judge, "complete", None))
    if not cpu_bound:
        return 0, None
    asked = workers if workers is not None else env_workers()
    if not fork_available():
        why = f"worker processes need Linux's fork; {sys.platform} judges in this process"
        return 0, why if asked is not None and asked >= 2 else None
    if multiprocessing.current_process().daemon:
        why = (
            "a daemonic process (a multiprocessing.Pool worker) cannot start worker "
            "processes; judged in this process"
        )
        return 0, why if asked is not None and asked >= 2 else None
    if asked is None:
        if n_jobs < MIN_AUTO_JOBS:
            return 0, None
        asked = min(MAX_AUTO_WORKERS, usable_cpus())
    return (asked if asked >= 2 else 0), None


class WorkerPool:
    """Forked worker processes answering a CPU-bound judge's tasks, one queue each.

    Parameters
    ----------
    judge : Judge
        Answers with ``complete(task)`` in each worker (inherited by fork, never
        pickled).
    n : int
        Worker processes (>= 2).

    Notes
    -----
    A task goes to worker ``hash(task.chunks) % n`` (its text when it has no chunks),
    so the tasks of one retrieved context share one worker's caches, unless that worker
    has more than ``_SPILL`` tasks queued beyond the least busy one's (rows that share
    one context would otherwise all wait for one worker). Each worker has a
    pipe read by the event loop itself (``add_reader``): no helper threads, whose hand-offs
    of the GIL cost the parent more than the pickling (a ``ProcessPoolExecutor`` per worker
    took 3.3 s of the parent's CPU for the 1,000-row benchmark). When a worker dies
    (killed, out of memory) the pool is marked broken and every task from then on,
    including those it lost, is answered in this process by ``fallback``.
    """

    def __init__(self, judge: Any, n: int, key: Any = None) -> None:
        self.n = n
        self.broken: str | None = None
        #: what a later run's judge must match to reuse this pool (None: never reused)
        self.key = key
        self._timer: threading.Timer | None = None
        context = multiprocessing.get_context("fork")
        self._workers: list[_Worker] = []
        with warnings.catch_warnings():
            # Python 3.12+ warns that fork in a process with threads may deadlock in the
            # child; the child here runs only the judge's own code on what it inherited
            # (no locks of other threads, no imports)
            warnings.filterwarnings("ignore", message=r".*fork\(\)", category=DeprecationWarning)
            for _ in range(n):
                with _fork_lock:
                    ours, theirs = context.Pipe(duplex=True)
                    # the parent's ends of every pool's pipes, this one's included, must
                    # not stay open in the child: a worker sees the end of its pipe only
                    # when no other process holds the parent's end
                    inherited = [*_open_ends, ours]
                    process = context.Process(
                        target=_serve, args=(judge, theirs, inherited), daemon=True
                    )
                    try:
                        process.start()
                    except (OSError, AssertionError) as exc:
                        # no memory or process slot for a fork (strict overcommit, a
                        # ulimit), or a daemonic process, which may not have children
                        ours.close()
                        theirs.close()
                        failed: BaseException | None = exc
                    else:
                        theirs.close()
                        _open_ends.add(ours)
                        failed = None
                if failed is not None:
                    self.broken = (
                        f"could not start a worker process ({type(failed).__name__}: {failed})"
                    )
                    self.close()
                    self.n = 0  # none judged: the run's metadata says 0 workers
                    return
                self._workers.append(_Worker(process, ours))

    async def complete(self, task: Any, fallback: Callable[[Any], Any]) -> Any:
        """The judge's answer to ``task`` from its worker (``fallback(task)`` if the pool
        is broken). An exception the judge raised in the worker is raised here."""
        if self.broken is None:
            key = hash(task.chunks) if task.chunks else hash(task.text or "")
            worker = self._workers[key % self.n]
            least = min(self._workers, key=_load)
            if _load(worker) > _load(least) + _SPILL:
                # rows sharing one context (a document's questions, several answers of
                # one article) all hash to one worker: past this backlog the idle one
                # reads the context too rather than wait
                worker = least
            loop = asyncio.get_running_loop()
            if worker.loop is not loop:
                if worker.sent or worker.waiting:  # busy for a run on another loop
                    return fallback(task)
                self._detach(worker)
                worker.loop = loop
                loop.add_reader(worker.conn.fileno(), self._read, worker)
            future: asyncio.Future[tuple[bool, Any]] = loop.create_future()
            worker.waiting.append((task, future))
            self._send(worker)
            try:
                ok, value = await future
            except _Broken:
                pass
            else:
                if ok:
                    return value
                raise value
        return fallback(task)

    def _send(self, worker: _Worker) -> None:
        while worker.waiting and len(worker.sent) < _SENT_PER_WORKER:
            task, future = worker.waiting.popleft()
            if future.cancelled():
                continue
            try:
                worker.conn.send(task)
            except (BrokenPipeError, OSError) as exc:
                future.set_exception(_Broken())
                self._fail(worker, _why(worker, exc))
                return
            worker.sent.append(future)

    def _read(self, worker: _Worker) -> None:
        try:
            reply = worker.conn.recv()
        except (EOFError, OSError) as exc:
            self._fail(worker, _why(worker, exc))
            return
        if worker.sent:
            future = worker.sent.popleft()
            if not future.done():
                future.set_result(reply)
        self._send(worker)

    def _fail(self, worker: _Worker, why: str) -> None:
        """Mark the pool broken: every task sent or waiting is answered by the fallback."""
        if self.broken is None:
            self.broken = why
        for w in self._workers:
            for future in w.sent:
                if not future.done():
                    future.set_exception(_Broken())
            for _, future in w.waiting:
                if not future.done():
                    future.set_exception(_Broken())
            w.sent.clear()
            w.waiting.clear()
        self._detach(worker)

    def _detach(self, worker: _Worker) -> None:
        if worker.loop is not None and not worker.conn.closed:
            with contextlib.suppress(Exception):
                worker.loop.remove_reader(worker.conn.fileno())
        worker.loop = None

    @property
    def idle(self) -> bool:
        """No task sent or waiting: a reply still on its way would be taken for the
        answer to another run's task, so only an idle pool is kept for reuse."""
        return all(not w.sent and not w.waiting for w in self._workers)

    @property
    def alive(self) -> bool:
        """Every worker process is running."""
        return bool(self._workers) and all(w.process.is_alive() for w in self._workers)

    def close(self) -> None:
        """Stop the workers: their pipes close, so an idle worker exits at once; one
        still judging a task of a stopped run is terminated."""
        for worker in self._workers:
            self._detach(worker)
            with _fork_lock:
                _open_ends.discard(worker.conn)
            worker.conn.close()
        for worker in self._workers:
            worker.process.join(0.5)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(2)


#: Seconds an idle pool waits for the next run of the same judge before its workers exit.
#: A notebook scoring a frame again (other metrics, a fixed column) finds the workers
#: with what they read still cached: in one process a repeat cost half the first run,
#: and workers that ended with every run made each repeat cost a first run.
IDLE_SECONDS = 300.0

_idle: dict[Hashable, WorkerPool] = {}
_idle_lock = threading.Lock()


#: Modules whose functions the offline judge's answers depend on, besides its class's own
#: module: a patch of any of them makes kept workers stale.
_RULE_MODULES = ("ragnotebook.text", "ragnotebook.judges._compare", "ragnotebook.judges.offline")


def _code_fingerprint(judge: Any) -> tuple[int, ...]:
    """The identities of the functions and classes the judge's answers come from: its
    classes' attributes and the callables of their modules and of the rule modules. A
    method or function replaced in this process (a patch, a cell run again) changes it,
    so workers forked with the old code are not reused."""
    names = {cls.__module__ for cls in type(judge).__mro__} | set(_RULE_MODULES)
    ids: list[int] = []
    for cls in type(judge).__mro__:
        ids.extend(id(v) for v in vars(cls).values())
    for name in sorted(names):
        module = sys.modules.get(name)
        if module is not None:
            ids.extend(id(v) for v in vars(module).values() if callable(v))
    return tuple(ids)


def _pool_key(judge: Any, n: int) -> Hashable:
    """Judges with equal class, identity and code answer alike: their workers are shared."""
    identity = getattr(judge, "identity", None)
    if not callable(identity):
        return None
    try:
        settings = json.dumps(identity(), sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None
    return (type(judge), settings, n, _code_fingerprint(judge))


def acquire(judge: Any, n: int) -> WorkerPool:
    """A pool of ``n`` workers for ``judge``: the idle one a run of the same judge left
    (its workers' caches warm), else a new one."""
    key = _pool_key(judge, n)
    with _idle_lock:
        pool = _idle.pop(key, None) if key is not None else None
    if pool is not None:
        if pool._timer is not None:
            pool._timer.cancel()
        if pool.broken is None and pool.alive:
            return pool
        pool.close()
    return WorkerPool(judge, n, key)


def release(pool: WorkerPool) -> None:
    """End a run's use of ``pool``: keep it for ``IDLE_SECONDS`` when it is whole and idle
    (one per judge), else stop its workers. Called on the loop that used it."""
    for worker in pool._workers:
        pool._detach(worker)  # the next run may come on another event loop
    if pool.key is None or pool.broken is not None or not pool.idle or not pool.alive:
        pool.close()
        return
    with _idle_lock:
        if pool.key in _idle:  # another run's pool of the same judge is kept already
            keep = False
        else:
            _idle[pool.key] = pool
            keep = True
    if not keep:
        pool.close()
        return
    timer = threading.Timer(IDLE_SECONDS, _expire, (pool,))
    timer.daemon = True
    pool._timer = timer
    timer.start()


def _expire(pool: WorkerPool) -> None:
    with _idle_lock:
        if _idle.get(pool.key) is not pool:
            return  # taken by a run meanwhile
        del _idle[pool.key]
    pool.close()


def close_idle() -> int:
    """Stop every idle pool's workers now; returns how many pools were stopped.

    The workers of a pool kept after a run hold copies of the judge's module as it was
    when they were forked, so code that patches the judge's functions in this process
    (tests) calls this first.
    """
    with _idle_lock:
        pools = list(_idle.values())
        _idle.clear()
    for pool in pools:
        if pool._timer is not None:
            pool._timer.cancel()
        pool.close()
    return len(pools)
