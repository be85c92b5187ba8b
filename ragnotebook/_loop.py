"""The private event-loop thread that serves every sync call.

Sync calls never touch the caller's event loop. They submit the run to one
long-lived loop in a daemon thread (``asyncio.run_coroutine_threadsafe``) and
wait for it from the calling thread, updating the progress bar there. This
behaves the same in scripts, pytest, Jupyter, VS Code and from inside a running
event loop, without ``nest_asyncio``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

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
                    loop.run_forever()

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
    future = asyncio.run_coroutine_threadsafe(make_coro(), loop)
    try:
        while True:
            try:
                result = future.result(timeout=poll_interval)
                break
            except concurrent.futures.TimeoutError:
                flush_notices()
                if poll is not None:
                    poll()
    except KeyboardInterrupt:
        future.cancel()
        # wait until the loop thread has finished cancelling the run
        with contextlib.suppress(BaseException):
            _wait_cancelled(loop, future)
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
