"""Control characters and bidi controls from the data, in every view.

A C0 control (NUL, BEL, ESC, ...), DEL or a C1 control written raw into HTML is a parse
error: some sanitizers and mail clients drop such a document. The views show a C0
control or DEL as its Unicode Control Picture (``\\x00`` as ``␀``) and the rest as U+FFFD.

A ``<select>`` lays each option out as one line of plain text, so a right-to-left
override (U+202E) in a row label or question would reverse the whole line, scores
included. Each data field of such a line is a bidi isolate (FSI ... PDI).
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views import Explorer, explore, report
from ragnotebook.views._html import escape, isolate, replace_controls, script_json, shorten
from ragnotebook.views._html import text_width as width

NBSP = "\u00a0"
FSI, PDI, PDF, RLO, RLI = "\u2068", "\u2069", "\u202c", "\u202e", "\u2067"

#: What HTML does not allow raw: C0 but tab, LF, CR; DEL; C1; the BMP noncharacters.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


# --------------------------------------------------------------------------- controls


def test_each_c0_control_but_tab_newline_and_return_becomes_its_picture():
    for code in range(0x20):
        expected = chr(code) if code in (9, 10, 13) else chr(0x2400 + code)
        assert replace_controls(f"a{chr(code)}b") == f"a{expected}b"
    assert replace_controls("\x00\x07\x1b[31m\x0c\x7f") == "␀␇␛[31m␌␡"


def test_c1_controls_and_noncharacters_become_the_replacement_character():
    text = "\x80 \x85 \x9f \ufdd0 \ufdef \ufffe \uffff \U0001fffe \U0010ffff"
    assert replace_controls(text) == "� � � � � � � � �"
    # their neighbours are kept
    assert (
        replace_controls("\x7e\xa0\ufdcf\ufdf0\ufffd\U0001fffd")
        == "~\xa0\ufdcf\ufdf0\ufffd\U0001fffd"
    )


def test_clean_text_is_returned_as_the_same_object():
    text = "Tabs\tand\nnewlines\r\nstay; so does Ünïcödé 😀 and עברית."
    assert replace_controls(text) is text


def test_escape_shorten_and_script_json_show_the_pictures():
    assert escape("NUL\x00 <b>\x07") == "NUL␀ &lt;b&gt;␇"
    assert escape(b"\x00".decode()) == "␀"
    # a form feed or unit separator is not whitespace to collapse any more: it shows
    assert shorten("page\x0cbreak  and\x1fmore", 40) == "page␌break and␟more"
    assert script_json({"k\x01": ["\x7f", "\x85", "a\x00<"]}) == ('{"k␁": ["␡", "�", "a␀\\u003c"]}')
    assert script_json({"t": "\x1b"}, compact=True) == '{"t":"␛"}'


@pytest.fixture(scope="module")
def controlled() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["NUL\x00 byte?", "Where is the museum?"],
            "answer": ["The museum is on Pier 4.", "It is on Pier 4."],
            "contexts": [
                ["Chunk with \x00 NUL and \x07 bell.", "DEL\x7f and NEL\x85 here."],
                ["\x00The museum is on Pier 4."],
            ],
            "ground_truth": ["Pier 4.", "The museum is on Pier 4."],
        },
        index=["r\x1b0", "r1"],
    )
    return rn.evaluate(df, model="offline", progress=False)


def test_the_report_holds_no_raw_control_and_its_data_shows_pictures(controlled, tmp_path):
    page = report(controlled, tmp_path / "c.html", plotly_js="cdn").read_text(encoding="utf-8")
    assert RAW.findall(page) == []
    assert (
        '<span dir="auto" title="r␛0">r␛0</span>  R 0.00   P 0.00   F 0.00 </span>  '
        '<span dir="auto">NUL␀ byte?</span></summary>'
    ) in page
    data = re.search(r'<script type="application/json" id="rnb-data">(.*?)</script>', page)
    assert data is not None
    rows = json.loads(data.group(1))["rows"]
    assert rows["0"]["chunks"] == ["Chunk with ␀ NUL and ␇ bell.", "DEL␡ and NEL� here."]
    assert rows["0"]["texts"][0] == "NUL␀ byte?"
    # one character for one: the highlighted ranges still cover the same words
    assert rows["1"]["recall"][0][4][0][4] == [[5, 11], [18, 22], [23, 24]]
    assert rows["1"]["chunks"][0][5:11] == "museum"


def test_the_static_view_holds_no_raw_control(controlled):
    html = explore(controlled, mode="static").to_html()
    assert RAW.findall(html) == []
    assert '<div dir="auto">Chunk with ␀ NUL and ␇ bell.</div>' in html
    assert '<div dir="auto">DEL␡ and NEL� here.</div>' in html
    assert "␀The <mark>museum</mark>" in html  # the mark stays on the word


def test_the_widget_holds_no_raw_control(controlled):
    ex = Explorer(controlled)
    texts = [text.replace(NBSP, " ") for text, _ in ex.listing.options]
    assert texts == [
        "r␛0  │  R 0.00   P 0.00   F 0.00   │  NUL␀ byte?",
        "r1   │  R 1.00   P 1.00   F 1.00   │  Where is the museum?",
    ]
    for pos in (0, 1):
        ex.select(position=pos)
        assert RAW.findall(ex.detail_html + ex.header.value) == []
    ex.select(position=0)
    assert '(position 0, index <span dir="auto">r␛0</span>)' in ex.header.value
    assert '<div dir="auto">Chunk with ␀ NUL and ␇ bell.</div>' in ex.detail_html


def test_the_frame_itself_keeps_its_controls(controlled):
    # only the views show pictures; the data is not changed
    assert controlled["question"].iloc[0] == "NUL\x00 byte?"
    assert controlled.index[0] == "r\x1b0"


# --------------------------------------------------------------------------- bidi


def test_isolate_leaves_left_to_right_text_alone():
    for text in ("plain label", "Ünïcödé 😀 café", "", "1.00"):
        assert isolate(text) is text


def test_isolate_wraps_right_to_left_text_and_bidi_controls():
    assert isolate("שאלה-2") == f"{FSI}שאלה-2{PDI}"
    assert isolate("سؤال") == f"{FSI}سؤال{PDI}"
    assert isolate("\u200fmark") == f"{FSI}\u200fmark{PDI}"  # RLM is right-to-left
    assert isolate(f"{RLO}evil") == f"{FSI}{RLO}evil{PDF}{PDI}"


def test_isolate_balances_the_fields_own_controls():
    # a PDI or PDF that ends nothing would end the field's isolate early: dropped
    assert isolate(f"{PDI}{RLO}x") == f"{FSI}{RLO}x{PDF}{PDI}"
    assert isolate(f"a{PDF}b") == f"{FSI}ab{PDI}"
    # what the field opens is closed, innermost first
    assert isolate(f"{RLI}a\u202bb") == f"{FSI}{RLI}a\u202bb{PDF}{PDI}{PDI}"
    # a PDI ends the embeddings opened inside its isolate, so a later PDF ends nothing
    assert isolate(f"{RLI}{RLO}x{PDI}y{PDF}") == f"{FSI}{RLI}{RLO}x{PDI}y{PDI}"
    # a PDF never ends an isolate
    assert isolate(f"{RLI}x{PDF}") == f"{FSI}{RLI}x{PDI}{PDI}"
    # paired controls are kept as they are
    assert isolate(f"a {RLO}b{PDF} c") == f"{FSI}a {RLO}b{PDF} c{PDI}"


def test_text_width_leaves_out_the_bidi_controls():
    assert width(f"{RLO}evil") == 4
    assert width(isolate(f"{PDI}{RLO}evil")) == 4
    assert width("normal") == 6


def _open_at(text: str, stop: int) -> list[str]:
    """The embeddings and isolates open at ``text[stop]``, as the Unicode Bidirectional
    Algorithm counts them (rules X2-X7: a PDF ends an embedding only, a PDI ends the
    innermost isolate and every embedding inside it, an unmatched one does nothing)."""
    stack: list[str] = []
    for ch in text[:stop]:
        if ch in "\u202a\u202b\u202d\u202e":
            stack.append("embedding")
        elif ch in "\u2066\u2067\u2068":
            stack.append("isolate")
        elif ch == PDF and stack and stack[-1] == "embedding":
            stack.pop()
        elif ch == PDI and "isolate" in stack:
            while stack.pop() != "isolate":
                pass
    return stack


@pytest.fixture(scope="module")
def bidi() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": [
                f"{RLO}What is the capital?",
                "Who wrote Hamlet?",
                "متى افتتح المتحف؟",
                f"x{PDI}{RLO}override after a PDI",
                f"{RLI}an isolate never closed",
            ],
            "answer": ["Paris is the capital.", "Shakespeare.", "1998", "a", "b"],
            "contexts": [
                ["Paris is the capital."],
                ["Shakespeare wrote Hamlet."],
                ["1998"],
                ["a"],
                ["b"],
            ],
            "ground_truth": ["Paris.", "Shakespeare.", "1998", "a", "b"],
            "system": [f"{RLO}A", "B", "ب", "C", "D"],
        },
        index=[f"{RLO}evil-label", "normal", "سؤال-1", f"{PDI}{RLO}pdi-first", f"{FSI}open"],
    )
    return rn.evaluate(df, model="offline", progress=False)


def test_the_widget_list_isolates_each_data_field(bidi):
    texts = [text.replace(NBSP, " ") for text, _ in Explorer(bidi).listing.options]
    assert texts == [
        f"{FSI}{RLO}evil-label{PDF}{PDI}  │  R 1.00   P 1.00   F 1.00   │  "
        f"{FSI}{RLO}What is the capital?{PDF}{PDI}",
        "normal      │  R 1.00   P 1.00   F 1.00   │  Who wrote Hamlet?",
        f"{FSI}سؤال-1{PDI}      │  R 1.00   P 1.00   F 1.00   │  {FSI}متى افتتح المتحف؟{PDI}",
        f"{FSI}{RLO}pdi-first{PDF}{PDI}   │  R 1.00   P 0.00   F 1.00   │  "
        f"{FSI}x{RLO}override after a PDI{PDF}{PDI}",
        f"{FSI}{FSI}open{PDI}{PDI}        │  R 1.00   P 0.00   F 1.00   │  "
        f"{FSI}{RLI}an isolate never closed{PDI}{PDI}",
    ]


def test_the_scores_of_every_list_line_are_outside_any_override(bidi):
    for text, _ in Explorer(bidi, by="system").listing.options:
        first = text.index("│")
        second = text.index("│", first + 1)
        assert _open_at(text, first) == [] and _open_at(text, second) == []
        assert _open_at(text, len(text)) == []
        scores = text[first:second]
        assert re.fullmatch(r"│( +R \d\.\d\d +P \d\.\d\d +F \d\.\d\d +)", scores.replace(NBSP, " "))


def test_the_widget_list_columns_line_up_by_visible_width(bidi):
    texts = [t for t, _ in Explorer(bidi, by="system").listing.options]
    assert {width(t[: t.index("│")]) for t in texts} == {16}  # "evil-label [A]  "
    first = texts[0].replace(NBSP, " ")
    assert first.startswith(f"{FSI}{RLO}evil-label{PDF}{PDI} [{FSI}{RLO}A{PDF}{PDI}]  │")


def test_the_widget_group_menu_isolates_the_group_names(bidi):
    ex = Explorer(bidi, by="system")
    assert ex.group.options == (
        ("every system (5)", ""),
        ("B (1)", "B"),
        ("C (1)", "C"),
        ("D (1)", "D"),
        (f"{FSI}ب{PDI} (1)", "ب"),
        (f"{FSI}{RLO}A{PDF}{PDI} (1)", f"{RLO}A"),
    )


def test_the_report_group_menu_isolates_the_group_names(bidi, tmp_path):
    page = report(bidi, tmp_path / "b.html", by="system", plotly_js="cdn").read_text("utf-8")
    assert f'<option value="4">{FSI}{RLO}A{PDF}{PDI} (1)</option>' in page
    assert f'<option value="3">{FSI}ب{PDI} (1)</option>' in page


def test_the_missed_claims_axis_isolates_the_label_and_the_question():
    df = pd.DataFrame(
        {
            "question": [f"{RLO}Where is it?", "Where?"],
            "answer": ["The museum is on Pier 9.", "The museum is on Pier 9."],
            "contexts": [["The museum is on Pier 4."], ["The museum is on Pier 4."]],
            "ground_truth": ["Pier 4.", "Pier 4."],
        },
        index=[f"{RLO}evil", "plain"],
    )
    fig = rn.evaluate(df, model="offline", progress=False).rag.plot.missed_claims()
    labels = {y for trace in fig.data for y in trace.y}
    assert labels == {
        f"{FSI}{RLO}evil{PDF}{PDI} · {FSI}{RLO}Where is it?{PDF}{PDI}",
        "plain · Where?",
    }


#: The left edge of the "R", "P" and "F" of the scores in each line, as Chromium lays
#: the line out (one block per line, not wrapped, like an option of a <select>).
_SCORE_EDGES = """(texts) => texts.map((t) => {
  const line = document.createElement("div");
  line.style.whiteSpace = "nowrap";
  line.style.fontFamily = "monospace";
  line.textContent = t;
  document.body.appendChild(line);
  const start = t.indexOf("\\u2502");
  return ["R", "P", "F"].map((code) => {
    const at = t.indexOf(code + "\\u00a0", start);
    const range = document.createRange();
    range.setStart(line.firstChild, at);
    range.setEnd(line.firstChild, at + 1);
    return range.getBoundingClientRect().left;
  });
})"""


@pytest.mark.browser
def test_chromium_lays_the_scores_out_left_to_right(bidi):
    import os

    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip(f"{chromium} is missing (install Debian's 'chromium' package)")
    from playwright.sync_api import sync_playwright

    texts = [t for t, _ in Explorer(bidi, by="system").listing.options]
    # the line as it was built before: the same text without the isolates
    bare = re.sub(f"[{FSI}{PDI}{PDF}]", "", texts[0])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_content('<meta charset="utf-8"><body></body>')
            edges = page.evaluate(_SCORE_EDGES, [*texts, bare])
        finally:
            browser.close()
    for r, p_, f in edges[:-1]:
        assert r < p_ < f
    r, p_, f = edges[-1]
    assert r > p_ > f  # without the isolates, the override reverses the scores
