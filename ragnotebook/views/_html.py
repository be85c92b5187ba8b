"""Escaping helpers for the three places data text ends up in the views.

* **HTML** (the explorer's detail, the static view, the report): every data string goes
  through :func:`escape`, which turns ``& < > " '`` into entities.
* **Plotly pseudo-HTML** (hover text, tick labels, legend names): plotly reads ``<b>``,
  ``<br>``, ``<a href=...>`` and a few entities in these strings. :func:`plotly_text` escapes
  ``&``, ``<`` and ``>`` so data shows literally; :func:`hover_text` also wraps long text,
  and the ``<br>`` it inserts between wrapped lines are the only raw tags in the result.
* **JSON inside a ``<script>`` element** (the report's data): :func:`script_json` writes
  ``<``, ``>`` and ``&`` as ``\\u003c``-style escapes, so no string can close the element.

Examples
--------
>>> from ragnotebook.views._html import escape, hover_text, script_json
>>> escape('<img src=x onerror="alert(1)">')
'&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
>>> hover_text("Use <b>only</b> the <br> tag; x<y & y>z", width=20)
'Use &lt;b&gt;only&lt;/b&gt; the<br>&lt;br&gt; tag; x&lt;y &amp; y&gt;z'
>>> script_json({"chunk": "</script>"})
'{"chunk": "\\\\u003c/script\\\\u003e"}'
"""

from __future__ import annotations

import html
import json
import math
import textwrap
from typing import Any

from ragnotebook._textsafe import replace_surrogates
from ragnotebook.scorers._common import round_half_up

__all__ = [
    "escape",
    "hover_lines",
    "hover_text",
    "plotly_text",
    "script_json",
    "script_safe",
    "shorten",
]

#: The separator :func:`hover_text` puts between wrapped lines (plotly's line break).
BR = "<br>"


def two_places(value: float) -> str:
    """A score, mean or precision@k as shown in the views: two decimals, rounded half-up
    as the scores are (:func:`~ragnotebook.scorers._common.round_half_up`; Python's
    format rounds the float 0.575 to "0.57" and 0.125 to "0.12").

    Parameters
    ----------
    value : float

    Returns
    -------
    str

    Examples
    --------
    >>> from ragnotebook.views._html import two_places
    >>> two_places(0.575), two_places(1 / 8), two_places(2 / 3), two_places(1.0)
    ('0.58', '0.13', '0.67', '1.00')
    """
    return f"{round_half_up(float(value), 2):.2f}"


def _as_text(value: Any) -> str:
    """``str(value)``, with ``None`` and missing values (NaN, ``pd.NA``) as ``""``, and
    lone surrogates (which UTF-8 cannot encode) as U+FFFD."""
    if isinstance(value, str):
        return replace_surrogates(value)
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    try:
        import pandas as pd

        if value is pd.NA:
            return ""
    except ImportError:  # pragma: no cover - pandas is a dependency
        pass
    return replace_surrogates(str(value))


def escape(value: Any) -> str:
    """Escape a data value for HTML text or a quoted attribute.

    Parameters
    ----------
    value : object
        Anything; ``None`` and missing values become ``""``.

    Returns
    -------
    str
        ``str(value)`` with ``&``, ``<``, ``>``, ``"`` and ``'`` as entities (and a lone
        surrogate, which UTF-8 cannot encode, as U+FFFD).

    Examples
    --------
    >>> escape("<script>alert(1)</script>")
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    >>> escape(None)
    ''
    """
    return html.escape(_as_text(value), quote=True)


def plotly_text(value: Any) -> str:
    """Escape a data value for plotly's pseudo-HTML (hover, tick labels, legend names).

    Plotly decodes ``&amp;``, ``&lt;`` and ``&gt;`` back into characters, so the text
    shows exactly as written. Quotes need no escaping there (``&quot;`` would show
    literally, because plotly does not decode it).

    Parameters
    ----------
    value : object
        Anything; ``None`` and missing values become ``""``.

    Returns
    -------
    str

    Examples
    --------
    >>> plotly_text('<a href="javascript:alert(1)">click</a>')
    '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;'
    """
    return html.escape(_as_text(value), quote=False)


def shorten(value: Any, limit: int) -> str:
    """Cut text to at most ``limit`` characters, ending with an ellipsis when cut.

    Whitespace runs (newlines included) collapse to one space first.

    Parameters
    ----------
    value : object
        Text (``None`` becomes ``""``).
    limit : int
        Maximum length of the result, at least 2.

    Returns
    -------
    str

    Examples
    --------
    >>> shorten("The museum is on   Pier 4.", 12)
    'The museum…'
    """
    text = " ".join(_as_text(value).split())
    if len(text) <= limit:
        return text
    return text[: max(1, limit - 1)].rstrip() + "…"


def hover_text(value: Any, width: int = 60, limit: int = 400) -> str:
    """Wrap and escape data text for a plotly hover label.

    The text is shortened to ``limit`` characters, wrapped at ``width`` characters, and
    each line escaped with :func:`plotly_text`; the lines are joined with ``<br>``, so
    every raw tag in the result is one of those line breaks.

    Parameters
    ----------
    value : object
        The text (``None`` becomes ``""``).
    width : int, default 60
        Wrap width in characters.
    limit : int, default 400
        Longer text is cut and ends with an ellipsis.

    Returns
    -------
    str

    Examples
    --------
    >>> hover_text('<a href="javascript:alert(1)">click</a>', width=80)
    '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;'
    >>> hover_text("one two three", width=8)
    'one two<br>three'
    """
    text = shorten(value, limit)
    lines = textwrap.wrap(text, width=width, break_long_words=True, break_on_hyphens=False)
    return BR.join(plotly_text(line) for line in lines)


def hover_lines(*lines: str) -> str:
    """Join already-escaped hover lines with ``<br>``, skipping empty ones.

    Parameters
    ----------
    *lines : str
        Lines made by :func:`hover_text` / :func:`plotly_text` or toolkit-written text.

    Returns
    -------
    str

    Examples
    --------
    >>> hover_lines("<b>row 3</b>", "", hover_text("x<y"))
    '<b>row 3</b><br>x&lt;y'
    """
    return BR.join(line for line in lines if line)


_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_safe(json_text: str) -> str:
    """Make JSON text safe to place inside a ``<script>`` element.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where ``\\u003c`` means the
    same character, so the result parses to the same value but cannot contain
    ``</script>`` or ``<!--``.

    Parameters
    ----------
    json_text : str
        Valid JSON.

    Returns
    -------
    str

    Examples
    --------
    >>> script_safe('["</script><script>alert(1)</script>"]')
    '["\\\\u003c/script\\\\u003e\\\\u003cscript\\\\u003ealert(1)\\\\u003c/script\\\\u003e"]'
    """
    for raw, safe in _SCRIPT_ESCAPES.items():
        json_text = json_text.replace(raw, safe)
    return json_text


def script_json(obj: Any, *, compact: bool = False) -> str:
    """Serialise ``obj`` as JSON safe to embed in a ``<script>`` element.

    Parameters
    ----------
    obj : object
        Anything :func:`json.dumps` accepts (``NaN`` becomes ``null``).
    compact : bool, default False
        Leave out the spaces after ``,`` and ``:``.

    Returns
    -------
    str

    Examples
    --------
    >>> script_json(["a<b", float("nan")])
    '["a\\\\u003cb", null]'
    """
    separators = (",", ":") if compact else None
    text = json.dumps(_nan_to_none(obj), ensure_ascii=False, allow_nan=False, separators=separators)
    return script_safe(replace_surrogates(text))


def _nan_to_none(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {str(k): _nan_to_none(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_nan_to_none(v) for v in obj]
    return obj
