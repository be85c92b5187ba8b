"""Escaping helpers for the three places data text ends up in the views.

* **HTML** (the explorer's detail, the static view, the report): every data string goes
  through :func:`escape`, which turns ``& < > " '`` into entities.
* **Plotly pseudo-HTML** (hover text, tick labels, legend names): plotly reads ``<b>``,
  ``<br>``, ``<a href=...>`` and a few entities in these strings. :func:`plotly_text` escapes
  ``&``, ``<`` and ``>`` so data shows literally; :func:`hover_text` also wraps long text,
  and the ``<br>`` it inserts between wrapped lines are the only raw tags in the result.
* **JSON inside a ``<script>`` element** (the report's data): :func:`script_json` writes
  ``<``, ``>`` and ``&`` as ``\\u003c``-style escapes, so no string can close the element.
* **Plain-text lines a front end lays out itself** (the widget's row list, a ``<select>``
  menu, a chart's axis): :func:`isolate` makes a data field one bidi isolate, so a
  right-to-left override in a row label cannot reverse the scores beside it.

All of them show a control character of the data (NUL, BEL, ESC, ...: an HTML parse
error when written raw) as its Unicode Control Picture (``\\x00`` as ``␀``), see
:func:`replace_controls`.

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
import re
import textwrap
import unicodedata
from typing import Any, Final

from ragnotebook._textsafe import REPLACEMENT, replace_surrogates
from ragnotebook.scorers._common import round_half_up

__all__ = [
    "escape",
    "hover_lines",
    "hover_text",
    "isolate",
    "plotly_text",
    "replace_controls",
    "script_json",
    "script_safe",
    "shorten",
    "text_width",
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


#: Characters that are an HTML parse error when written raw ("control character" or
#: "noncharacter in input stream"): the C0 controls but tab, line feed and carriage
#: return; DEL; the C1 controls; and the noncharacters U+FDD0-U+FDEF and U+xFFFE, U+xFFFF.
_UNSHOWABLE: Final = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef"
    + "".join(chr(plane | 0xFFFE) + chr(plane | 0xFFFF) for plane in range(0, 0x110000, 0x10000))
    + "]"
)

#: A C0 control's Control Picture is U+2400 plus its code (``\x00`` is ``␀``, ``\x1b`` is
#: ``␛``); DEL's is U+2421 ``␡``. The C1 controls and the noncharacters have none.
_PICTURES: Final = {chr(code): chr(0x2400 + code) for code in range(0x20)} | {"\x7f": "\u2421"}


def _picture(match: re.Match[str]) -> str:
    return _PICTURES.get(match.group(), REPLACEMENT)


def replace_controls(text: str) -> str:
    """``text`` with each character that HTML does not allow raw made visible.

    A C0 control other than tab, line feed and carriage return (``\\x00``-``\\x1f``, so
    also form feed and vertical tab) becomes its Unicode Control Picture, U+2400 plus its
    code (NUL ``␀``, BEL ``␇``, ESC ``␛``), and DEL becomes ``␡`` (U+2421): the reader sees
    which character the data holds, and it is not confused with U+FFFD, which the toolkit
    writes for a lone surrogate (text cut inside a character). A C1 control (U+0080-U+009F)
    or a noncharacter (U+FDD0-U+FDEF, U+FFFE, U+FFFF and the same in every plane) has no
    picture and becomes U+FFFD. One character stands for one, so character offsets into
    the text (highlighted words) stay valid.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        ``text`` itself when it holds none of these characters.

    Examples
    --------
    >>> replace_controls("NUL\\x00 BEL\\x07 ESC\\x1b[31m tab\\tend")
    'NUL␀ BEL␇ ESC␛[31m tab\\tend'
    >>> replace_controls("DEL\\x7f NEL\\x85 \\ufffe")
    'DEL␡ NEL� �'
    """
    if _UNSHOWABLE.search(text) is None:
        return text
    return _UNSHOWABLE.sub(_picture, text)


def _as_text(value: Any) -> str:
    """``str(value)``, with ``None`` and missing values (NaN, ``pd.NA``) as ``""``, lone
    surrogates (which UTF-8 cannot encode) as U+FFFD and control characters as their
    pictures (:func:`replace_controls`)."""
    if isinstance(value, str):
        return replace_controls(replace_surrogates(value))
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
    return replace_controls(replace_surrogates(str(value)))


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


#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: text between them takes its own
#: direction (from its first letter) and cannot move the text around it.
FSI: Final = "\u2068"
PDI: Final = "\u2069"
_PDF: Final = "\u202c"  # POP DIRECTIONAL FORMATTING: ends an embedding or override
_EMBEDDINGS: Final = frozenset("\u202a\u202b\u202d\u202e")  # LRE, RLE, LRO, RLO
_ISOLATES: Final = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
_BIDI_CONTROLS: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: Bidi classes that lay text out right to left (Hebrew, Arabic letters and digits, RLM).
_RIGHT_TO_LEFT: Final = frozenset({"R", "AL", "AN"})


def _balanced(text: str) -> str:
    """``text`` with its explicit bidi controls paired as the Unicode Bidirectional
    Algorithm pairs them: a terminator that ends nothing (a PDF with no embedding open,
    a PDI with no isolate open) is dropped, and what is left open is closed at the end."""
    if _BIDI_CONTROLS.search(text) is None:
        return text
    out: list[str] = []
    open_: list[str] = []  # the terminator each open embedding or isolate needs
    for ch in text:
        if ch in _EMBEDDINGS:
            open_.append(_PDF)
        elif ch in _ISOLATES:
            open_.append(PDI)
        elif ch == _PDF:
            if not open_ or open_[-1] != _PDF:  # a PDF never ends an isolate
                continue
            open_.pop()
        elif ch == PDI:
            if PDI not in open_:
                continue
            while open_.pop() != PDI:  # a PDI also ends the embeddings inside its isolate
                pass
        out.append(ch)
    return "".join(out) + "".join(reversed(open_))


def isolate(text: str) -> str:
    """One data field of a plain-text line, made a bidi isolate when it needs one.

    A ``<select>``'s options and a chart's labels are plain text that the front end lays
    out as one line, so a right-to-left override (U+202E) in a row label would reverse
    the whole line, scores included. A field that holds right-to-left text or an explicit
    bidi control is returned between FSI (U+2068) and PDI (U+2069), with its own controls
    balanced (an unmatched terminator dropped, an unclosed override closed), so it takes
    its own direction, as ``dir="auto"`` gives an HTML element, and leaves the rest of
    the line alone. Any other text (all of a left-to-right dataset) is returned as it is.

    Parameters
    ----------
    text : str
        One field (a row label, a group, a shortened question).

    Returns
    -------
    str

    Examples
    --------
    >>> isolate("plain label")
    'plain label'
    >>> isolate("\\u202eevil") == "\\u2068\\u202eevil\\u202c\\u2069"
    True
    >>> isolate("\\u2069x") == "\\u2068x\\u2069"   # a PDI cannot end the field's isolate
    True
    """
    if text.isascii():
        return text
    if _BIDI_CONTROLS.search(text) is None and not any(
        unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text
    ):
        return text
    return f"{FSI}{_balanced(text)}{PDI}"


def text_width(text: str) -> int:
    """Characters of ``text`` that take room: the explicit bidi controls take none.

    Parameters
    ----------
    text : str

    Returns
    -------
    int

    Examples
    --------
    >>> text_width("\\u202eabc"), text_width(isolate("\\u202eabc"))
    (3, 3)
    """
    return len(text) - len(_BIDI_CONTROLS.findall(text))


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

    Every string in ``obj`` shows its control characters as pictures
    (:func:`replace_controls`), as the HTML does: the page's script puts these strings
    on the page as text. (:func:`json.dumps` would write a C0 control as a ``\\u0000``
    escape, but DEL, the C1 controls and the noncharacters raw, an HTML parse error.)

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
    >>> script_json(["a<b", float("nan"), "NUL\\x00"])
    '["a\\\\u003cb", null, "NUL␀"]'
    """
    separators = (",", ":") if compact else None
    text = json.dumps(_json_ready(obj), ensure_ascii=False, allow_nan=False, separators=separators)
    return script_safe(replace_surrogates(text))


def _json_ready(obj: Any) -> Any:
    """``obj`` with non-finite floats as ``None`` and strings through
    :func:`replace_controls`."""
    if isinstance(obj, str):
        return replace_controls(obj)
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {replace_controls(str(k)): _json_ready(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_ready(v) for v in obj]
    return obj
