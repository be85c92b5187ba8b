"""Text that can always be encoded, and files that are never left half written.

A Python string can hold a *lone surrogate*: half of a character outside the Basic
Multilingual Plane, such as ``"\\ud83d"``, what :func:`json.loads` returns for an emoji
whose JSON escape was cut in two. Such a string cannot be encoded as UTF-8, so every
step that encodes text (hashing a cache key, sending a request, segmenting sentences,
writing a file) would fail on it. :func:`replace_surrogates` turns each lone surrogate
into U+FFFD (the replacement character ``�``) and joins a surrogate pair back into the
character it stands for.

:func:`atomic_write_text` writes a file next to its target and renames it into place,
so an error while writing leaves the old file (or none), never a partial or empty one.

Examples
--------
>>> from ragnotebook._textsafe import has_surrogates, replace_surrogates
>>> text = "Depot ships 47 pallets \\ud83d"
>>> has_surrogates(text), replace_surrogates(text)
(True, 'Depot ships 47 pallets �')
>>> replace_surrogates("\\ud83d\\ude00")   # a pair is the character it encodes
'😀'
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

__all__ = [
    "REPLACEMENT",
    "atomic_write",
    "atomic_write_text",
    "clean_value",
    "has_surrogates",
    "replace_surrogates",
]

#: What a lone surrogate becomes: U+FFFD REPLACEMENT CHARACTER.
REPLACEMENT: Final = "\ufffd"

_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def has_surrogates(text: str) -> bool:
    """True when ``text`` holds a surrogate code point (which UTF-8 cannot encode).

    Parameters
    ----------
    text : str

    Returns
    -------
    bool

    Examples
    --------
    >>> has_surrogates("plain"), has_surrogates("cut \\udc00")
    (False, True)
    """
    return _SURROGATE.search(text) is not None


def replace_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, pairs joined.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        ``text`` itself when it holds no surrogate; else a string that encodes as UTF-8:
        a high surrogate followed by a low one becomes the character they encode
        (``"\\ud83d\\ude00"`` is ``"😀"``), any other surrogate becomes ``"\\ufffd"``.

    Examples
    --------
    >>> replace_surrogates("a\\ud83d b \\ud83d\\ude00 c \\ude00")
    'a� b 😀 c �'
    """
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def clean_value(value: Any) -> Any:
    """``value`` with lone surrogates replaced in every string it holds.

    Strings, and lists, tuples and dicts of them (nested: a verdict list), are cleaned
    with :func:`replace_surrogates`; a NumPy array of strings or objects that needed it
    becomes a list; any other value is returned as it is. A value without a surrogate is returned unchanged (the same
    object).

    Parameters
    ----------
    value : object

    Returns
    -------
    object

    Examples
    --------
    >>> clean_value(["ok", {"claim": "cut \\ud83d"}])
    ['ok', {'claim': 'cut �'}]
    >>> clean_value(3)
    3
    """
    if isinstance(value, str):
        return replace_surrogates(value)
    if isinstance(value, dict):
        changed = {}
        search = _SURROGATE.search
        for k, v in value.items():
            if type(v) is str:  # the common case, without a call per value
                if search(v) is not None:
                    changed[k] = replace_surrogates(v)
            elif not isinstance(v, int | float | bool) and v is not None:
                c = clean_value(v)
                if c is not v:
                    changed[k] = c
        return {**value, **changed} if changed else value
    if isinstance(value, list | tuple):
        items = [clean_value(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return tuple(items) if isinstance(value, tuple) else items
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if kind in ("O", "U") and type(value).__name__ == "ndarray":  # numpy, not imported here
        plain = value.tolist()
        items = clean_value(plain)
        return value if items is plain else items
    return value


def atomic_write(path: str | os.PathLike[str], write: Callable[[Path], Any]) -> Path:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it to ``path``.

    If ``write`` raises (or the process is interrupted), the temporary file is removed
    and ``path`` is left as it was: never a partial or empty file under its name.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; its folder must exist.
    write : callable
        ``write(tmp_path)`` writes the whole content to ``tmp_path``.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    FileNotFoundError
        If the folder of ``path`` does not exist (named in the message).
    Exception
        Whatever ``write`` raises, after the temporary file is removed.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> def fail(tmp):
    ...     tmp.write_text("half", encoding="utf-8")
    ...     raise RuntimeError("disk full")
    >>> try:
    ...     atomic_write(target, fail)
    ... except RuntimeError:
    ...     pass
    >>> target.exists(), list(target.parent.iterdir())
    (False, [])
    """
    out = Path(path)
    if not out.parent.is_dir():
        # said of the path asked for, not of the temporary file the write would open
        raise FileNotFoundError(
            f"cannot write {out}: the folder {out.parent} does not exist (create it first)"
        )
    # a fresh name in the same folder (so the rename is atomic); the writer creates the
    # file, so it gets the permissions any new file gets
    tmp = out.with_name(f".{out.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        write(tmp)
        os.replace(tmp, out)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return out


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path`` through :func:`atomic_write`.

    Lone surrogates in ``text`` are written as U+FFFD (:func:`replace_surrogates`), so the
    file is always valid UTF-8.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; its folder must exist.
    text : str

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    OSError
        If the folder does not exist or cannot be written; ``path`` is left as it was.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "page.html"
    >>> atomic_write_text(target, "cut \\ud83d").read_text(encoding="utf-8")
    'cut �'
    """
    data = replace_surrogates(text).encode("utf-8")
    return atomic_write(path, lambda tmp: tmp.write_bytes(data))
