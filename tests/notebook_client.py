"""Run a notebook with nbclient without its lost-wake-up stall (used by tests and benchmarks).

nbclient waits for a cell's ``execute_reply`` with one poll of the kernel's shell socket that
lasts up to the cell timeout. While it waits, its mimic of the ipywidgets ``Output`` widget
(``nbclient/output_widget.py``) answers every output the cell sends into such a widget (the
explorer drew its precision curve into one until December 2026; it now shows an SVG and has
no ``Output`` widget) by sending the widget's new state back to the
kernel on that same shell socket. jupyter_client's ``Session.send`` does that through a
blocking shadow of the asyncio socket, so pyzmq's asyncio layer never learns of the send. A
libzmq send processes the socket's pending commands, which resets the edge-triggered
``zmq.FD`` the waiting poll is registered on: if the reply has just arrived, its wake-up is
swallowed and the reply sits unread until the poll times out. With ``timeout=300`` the
notebook then stalls for exactly 300 s after the cell and goes on as if nothing happened (the
poll's timeout does one real ``zmq_poll``, which finds the reply).

:class:`NotebookClient` is nbclient's client with one change: the shell channel polls in
slices of :data:`POLL_SLICE` seconds until the caller's timeout, so a swallowed wake-up costs
at most one slice. A cell that really hangs still fails after the full timeout. Our notebooks no longer make the
client send on the shell socket at all, so this is a guard for widgets a notebook may add.
"""

from __future__ import annotations

import time
from queue import Empty
from typing import Any

import nbclient
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import KernelManager
from traitlets import Type

#: Longest single poll of the shell socket, in seconds.
POLL_SLICE = 0.5


class SlicedPollChannel(AsyncZMQSocketChannel):
    """An asyncio shell channel whose ``get_msg`` polls in slices up to its timeout."""

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL_SLICE if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                # each slice ends in a real zmq_poll, which finds a reply whose wake-up was lost
                return await super().get_msg(timeout=min(POLL_SLICE, left))
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise


class _KernelClient(AsyncKernelClient):
    shell_channel_class = Type(SlicedPollChannel)  # type: ignore[assignment]


class NotebookClient(nbclient.NotebookClient):
    """``nbclient.NotebookClient`` whose wait for each execute reply cannot miss it."""

    def create_kernel_manager(self) -> KernelManager:
        km = super().create_kernel_manager()
        km.client_factory = _KernelClient
        return km


def run_notebook(nb: Any, cwd: str, timeout: int = 300) -> Any:
    """Execute ``nb`` in place in a fresh ``python3`` kernel started in ``cwd``; return it."""
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": cwd}}
    )
    client.execute()
    return nb
