"""Warnings that point at the user's line, not at ragnotebook's internals."""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections import deque

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
#: frames skipped besides ragnotebook's own: pandas (the accessor) and asyncio (a judge
#: notice raised inside a task of the caller's loop points past the loop's machinery)
_PANDAS_ACCESSOR_HINTS = (os.sep + "pandas" + os.sep, os.sep + "asyncio" + os.sep)


def warn_user(message: str, category: type[Warning] = UserWarning) -> None:
    """Emit ``message`` attributed to the first caller outside ragnotebook (and pandas).

    Parameters
    ----------
    message : str
        The warning text.
    category : type of Warning, default UserWarning
        The warning class.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_user("careful")
    >>> caught[0].message.args[0]
    'careful'
    """
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        inside = filename.startswith(_PACKAGE_DIR) or any(
            h in filename for h in _PANDAS_ACCESSOR_HINTS
        )
        if not inside:
            break
        level += 1
        frame = frame.f_back  # type: ignore[assignment]
    warnings.warn(message, category, stacklevel=level + 1)


#: notices posted on the private loop thread, shown by the calling thread
_PENDING: deque[tuple[str, type[Warning]]] = deque()


def notify(message: str, category: type[Warning] = UserWarning) -> None:
    """Show ``message`` as a warning, from the calling thread of a run.

    On the private event-loop thread (a sync call's judges run there) the notice is
    queued and :func:`flush_notices` shows it from the thread that waits for the run, so
    nothing is printed from the loop thread (in Jupyter, output from a background thread
    can land in another cell). Anywhere else it is shown at once with :func:`warn_user`.

    Parameters
    ----------
    message : str
        The warning text.
    category : type of Warning, default UserWarning
        The warning class.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     notify("the model rejected temperature")
    >>> caught[0].message.args[0]
    'the model rejected temperature'
    """
    from ragnotebook._loop import _LOOP

    if _LOOP.thread is not None and threading.current_thread() is _LOOP.thread:
        _PENDING.append((message, category))
        return
    warn_user(message, category)


def flush_notices() -> None:
    """Show the notices queued by :func:`notify` on the loop thread (calling thread only)."""
    while _PENDING:
        try:
            message, category = _PENDING.popleft()
        except IndexError:  # another waiting thread took it
            return
        warn_user(message, category)
