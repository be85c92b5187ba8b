"""Escaping helpers: plotly pseudo-HTML, HTML text and JSON inside <script>."""

import json
import re

from ragnotebook.views._html import (
    escape,
    hover_lines,
    hover_text,
    plotly_text,
    script_json,
    shorten,
)

BOLD_BR = "Use <b>only</b> the <br> tag; x<y & y>z"
LINK = '<a href="javascript:alert(1)">click</a>'


def _unwrap(hover: str) -> str:
    """Undo the toolkit's wrapping and plotly's entity decoding, as plotly displays it."""
    text = hover.replace("<br>", " ")
    assert "<" not in text and ">" not in text
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_plotly_text_escapes_exactly_amp_lt_gt():
    assert (
        plotly_text(BOLD_BR)
        == "Use &lt;b&gt;only&lt;/b&gt; the &lt;br&gt; tag; x&lt;y &amp; y&gt;z"
    )
    assert plotly_text(LINK) == '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;'


def test_hover_text_only_raw_tags_are_the_wrapping_breaks():
    for text in (BOLD_BR, LINK, BOLD_BR * 5, LINK * 4):
        for width in (10, 25, 60):
            out = hover_text(text, width=width, limit=10_000)
            raw_tags = re.findall(r"<[^>]*>", out)
            assert set(raw_tags) <= {"<br>"}
            # long words may be cut across lines; no character is lost or altered
            assert "".join(_unwrap(out).split()) == "".join(text.split())
    # short strings stay on one line, with no break at all
    assert hover_text(LINK, width=80) == '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;'
    assert hover_text(BOLD_BR, width=80) == plotly_text(BOLD_BR)


def test_hover_text_wraps_before_escaping_so_entities_are_never_split():
    out = hover_text("&" * 30 + " " + "<" * 30, width=7, limit=1000)
    for line in out.split("<br>"):
        assert "&" not in re.sub(r"&(amp|lt|gt);", "", line), line


def test_hover_text_limits_length_and_handles_missing():
    assert hover_text("word " * 200, width=40, limit=50).endswith("…")
    assert hover_text(None) == ""
    assert hover_text(float("nan")) == ""
    assert shorten("a  b\n c", 100) == "a b c"


def test_hover_lines_skips_empty():
    assert hover_lines("a", "", "b") == "a<br>b"


def test_escape_for_html_quotes_too():
    assert escape(LINK) == "&lt;a href=&quot;javascript:alert(1)&quot;&gt;click&lt;/a&gt;"
    assert escape(None) == ""


def test_script_json_cannot_close_the_script_element():
    payload = {"chunk": "</script><script>alert('x')</script>", "c": "<!-- & \u2028"}
    text = script_json(payload)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text
    assert json.loads(text) == payload
    assert script_json([float("nan")]) == "[null]"
