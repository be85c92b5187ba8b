"""Warnings that point at the user's line, not at ragnotebook's internals."""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_PANDAS_ACCESSOR_HINTS = (os.sep + "pandas" + os.sep,)


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
