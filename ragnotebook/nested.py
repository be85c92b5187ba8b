"""Opt-in nest_asyncio support (extra ``[nest]``)."""

from __future__ import annotations

__all__ = ["enable_nested_asyncio"]


def enable_nested_asyncio() -> None:
    """Patch the running event loop so that it can be re-entered (opt-in).

    ragnotebook does not need this: its sync functions run on a private event
    loop in a daemon thread, so they work unchanged inside Jupyter and inside
    running loops. This exists for users who must run their *own* sync code on
    the notebook's loop (for example a library that calls
    ``loop.run_until_complete`` itself). ``nest_asyncio`` patches asyncio
    globally, is archived upstream, cannot patch uvloop and lacks newer
    ``asyncio.run`` arguments, which is why it is never imported by default.

    Raises
    ------
    ImportError
        If ``nest_asyncio`` is not installed (``pip install 'ragnotebook[nest]'``).

    Examples
    --------
    >>> import ragnotebook
    >>> ragnotebook.enable_nested_asyncio()  # doctest: +SKIP
    """
    try:
        import nest_asyncio
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "enable_nested_asyncio() needs nest_asyncio: pip install 'ragnotebook[nest]'"
        ) from exc
    nest_asyncio.apply()
