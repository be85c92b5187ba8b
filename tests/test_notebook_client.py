"""The shell channel of tests/notebook_client.py finds a reply whose wake-up a send swallowed.

The scene of the stall, without a kernel: a ROUTER socket plays the kernel, nbclient's
asyncio DEALER socket waits for the execute reply, the reply arrives, and before the event
loop runs again the Output-widget mimic sends on the same socket through ``Session.send``
(a blocking shadow of the asyncio socket), which resets the edge-triggered ``zmq.FD``.

jupyter_client's own ``AsyncZMQSocketChannel`` waits its whole timeout in this scene (seen
with jupyter_client 8.10.0, pyzmq 27.3.0 and nbclient 0.11.0). That is not asserted here: a test of an upstream
bug would fail the day it is fixed, on a fresh install. To see whether the helper is still
needed, run ``_wait_after_swallowed_wakeup(AsyncZMQSocketChannel, 2.0)``: it returns after
about 2 s while the bug is there.
"""

from __future__ import annotations

import asyncio
import time
from queue import Empty

import pytest

zmq = pytest.importorskip("zmq")
pytest.importorskip("zmq.asyncio")
pytest.importorskip("nbclient")

from jupyter_client.session import Session  # noqa: E402

from tests.notebook_client import POLL_SLICE, SlicedPollChannel  # noqa: E402


async def _wait_after_swallowed_wakeup(channel_class: type, timeout: float) -> tuple[str, float]:
    """Seconds ``channel_class.get_msg(timeout)`` takes to return a reply whose wake-up is lost."""
    session = Session(key=b"")
    kernel = zmq.Context.instance().socket(zmq.ROUTER)
    shell = zmq.asyncio.Context.instance().socket(zmq.DEALER)
    try:
        port = kernel.bind_to_random_port("tcp://127.0.0.1")
        shell.connect(f"tcp://127.0.0.1:{port}")
        channel = channel_class(shell, session)
        channel.send(session.msg("execute_request", {"code": "1"}))
        assert kernel.poll(5000), "the request did not reach the 'kernel'"
        idents, raw = session.feed_identities(kernel.recv_multipart())
        request = session.deserialize(raw)

        waiting = asyncio.ensure_future(channel.get_msg(timeout=timeout))
        await asyncio.sleep(0.05)  # the poll is registered on the socket's FD
        session.send(kernel, "execute_reply", {"status": "ok"}, parent=request, ident=idents)
        # the reply is in; what a send would do to the FD, done at once and for sure: libzmq
        # processes the pending commands (the loop has not run since, so nothing saw the edge)
        shadow = zmq.Socket.shadow(shell.underlying)
        deadline = time.monotonic() + 5
        while not shadow.get(zmq.EVENTS) & zmq.POLLIN:
            assert time.monotonic() < deadline, "the reply did not arrive"
            time.sleep(0.01)
        # nbclient's OutputWidget mimic answers an output with the widget's state
        session.send(shell, "comm_msg", {"comm_id": "c", "data": {"method": "update"}})
        start = time.monotonic()
        try:
            reply = await asyncio.wait_for(waiting, timeout + 5)
        except TimeoutError:  # pragma: no cover - only if get_msg ignored its timeout
            return "no reply", float("inf")
        return reply["msg_type"], time.monotonic() - start
    finally:
        shell.close(linger=0)
        kernel.close(linger=0)


def test_sliced_channel_finds_the_reply_within_a_slice():
    kind, waited = asyncio.run(_wait_after_swallowed_wakeup(SlicedPollChannel, 60.0))
    assert kind == "execute_reply" and waited < POLL_SLICE + 1.0


def test_sliced_channel_still_times_out():
    async def wait() -> float:
        shell = zmq.asyncio.Context.instance().socket(zmq.DEALER)
        try:
            shell.connect("tcp://127.0.0.1:9")  # nobody answers
            start = time.monotonic()
            with pytest.raises(Empty):
                await SlicedPollChannel(shell, Session(key=b"")).get_msg(timeout=1.2)
            return time.monotonic() - start
        finally:
            shell.close(linger=0)

    assert 1.2 <= asyncio.run(wait()) < 2.5
