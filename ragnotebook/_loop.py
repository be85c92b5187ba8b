"""The private event-loop thread that serves every sync call.

Sync calls never touch the caller's event loop. They submit the run to one
long-lived loop in a daemon thread (``asyncio.run_coroutine_threadsafe``) and
wait for it from the calling thread, updating the progress bar there. This
behaves the same in scripts, pytest, Jupyter, VS Code and from inside a running
event loop, without ``nest_asyncio``.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from ragnotebook._warn import flush_notices

__all__ = ["run_sync"]

T = TypeVar("T")


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
                    while True:
                        try:
                            loop.run_forever()
                            return
                        except (KeyboardInterrupt, SystemExit):
                            # raised by code a task ran (a judge callable, a context
                            # extractor): asyncio re-raises these out of the loop after
                            # storing them in the task. The loop goes on serving, so the
                            # task's awaiters see the exception and the waiting call
                            # returns (a KeyboardInterrupt keeps the finished rows, as a
                            # Ctrl-C does) instead of waiting forever on a dead thread.
                            continue

                thread = threading.Thread(target=runner, name="ragnotebook-loop", daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread = loop, thread
            return self._loop

    @property
    def thread(self) -> threading.Thread | None:
        """The loop's thread, or None before the first call."""
        return self._thread


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
    RuntimeError
        When called from the loop thread itself (a sync ragnotebook call inside a
        judge callable, a ``context_extractor`` or an async target of a running
        call): waiting there would block the loop that has to run the call.
    """
    loop = _LOOP.loop()
    if threading.current_thread() is _LOOP.thread:
        raise RuntimeError(
            "a sync ragnotebook call was made from inside a running one (on its event-loop "
            "thread, e.g. from a MockJudge callable, a context_extractor or an async target); "
            "await the a-prefixed twin there (aevaluate, afaithfulness, ...) or make the call "
            "outside"
        )
    run = _Cancellable(make_coro)
    future: concurrent.futures.Future[T] | None = None
    try:
        # submitted inside the try: a Ctrl-C can come while this thread hands the run
        # over, after the loop thread has started it
        future = asyncio.run_coroutine_threadsafe(run.main(), loop)
        while True:
            try:
                result = future.result(timeout=poll_interval)
                break
            except concurrent.futures.TimeoutError:
                flush_notices()
                if poll is not None:
                    poll()
    except KeyboardInterrupt:
        # stop the run before the loop takes its next step, and wait until it has
        # settled (a second Ctrl-C stops the wait)
        with contextlib.suppress(BaseException):
            run.cancel_and_wait(loop)
        if future is not None:
            future.cancel()
        flush_notices()
        if poll is not None:
            poll()
        if on_interrupt is None:
            raise
        return on_interrupt()
    except BaseException:
        flush_notices()
        raise
    flush_notices()
    if poll is not None:
        poll()
    return result


#: Seconds an interrupted call waits for its run to settle; a run settles once the
#: step it is in returns (it is cancelled before the loop's next step).
_SETTLE_TIMEOUT = 5.0


class _Cancellable(Generic[T]):
    """One run on the loop thread that the calling thread can cancel at once.

    Why not ``future.cancel()``: that schedules the task's cancellation with
    ``call_soon_threadsafe``, at the back of the loop's ready queue. A run of many
    jobs whose judge answers without awaiting (the offline judge, a MockJudge
    without latency) queues thousands of job steps there at its start, and each of
    them scores a whole row: the cancellation would wait until nearly every row is
    scored, and the caller with it.
    """

    def __init__(self, make_coro: Callable[[], Coroutine[Any, Any, T]]) -> None:
        self._make_coro = make_coro
        self._task: asyncio.Task[Any] | None = None
        self._stopped = False  # set on the loop thread only
        self.settled = threading.Event()

    async def main(self) -> T:
        """The run itself (on the loop thread); it does not start once cancelled."""
        if self._stopped:
            raise asyncio.CancelledError
        task = asyncio.current_task()
        assert task is not None
        self._task = task
        task.add_done_callback(lambda _: self.settled.set())
        return await self._make_coro()

    def _stop(self) -> None:
        """On the loop thread: cancel the run, or keep it from starting."""
        self._stopped = True
        if self._task is None:
            self.settled.set()  # nothing ran and nothing will
        else:
            self._task.cancel()

    def cancel_and_wait(self, loop: asyncio.AbstractEventLoop) -> None:
        """From the calling thread: cancel the run next and block until it has settled."""
        _call_next(loop, self._stop)
        self.settled.wait(timeout=_SETTLE_TIMEOUT)


def _call_next(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Run ``callback`` on ``loop`` before any callback already waiting there (thread-safe).

    The event loops of the standard library keep their ready callbacks in a deque,
    ``_ready``, popped from the left one at a time; appending on the left puts the
    callback right after the one running now. Other loops get ``call_soon_threadsafe``.
    """
    ready = getattr(loop, "_ready", None)
    if isinstance(ready, collections.deque):
        ready.appendleft(asyncio.Handle(callback, (), loop))
        loop.call_soon_threadsafe(_nothing)  # wakes a loop waiting for I/O
    else:
        loop.call_soon_threadsafe(callback)


def _nothing() -> None:
    pass
