"""Right-to-left data text (Arabic, Hebrew) sits in elements with ``dir="auto"``.

Without a direction, a browser lays Arabic or Hebrew out in the page's left-to-right
direction, which scrambles punctuation, numbers and mixed runs. Every element that shows
dataset text (question, answer, ground truth, chunk, claim, the reasons quoting them, the
row's name) must carry ``dir="auto"`` so the text takes its own direction.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views import explore

#: Hebrew and Arabic letters
RTL = re.compile(r"[\u0590-\u05ff\u0600-\u06ff]")
_VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "col", "source"}


class _Texts(HTMLParser):
    """Each text run holding RTL letters, with whether an open element has dir="auto"."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.runs: list[tuple[str, bool, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.stack.append((tag, dict(attrs).get("dir") == "auto"))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if RTL.search(data):
            tags = "/".join(t for t, _ in self.stack)
            self.runs.append((data, any(d for _, d in self.stack), tags))


def rtl_runs(html: str) -> list[tuple[str, bool, str]]:
    parser = _Texts()
    parser.feed(html)
    return parser.runs


@pytest.fixture(scope="module")
def rtl_scored() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["متى افتتح المتحف؟", "מתי נפתח המוזיאון?"],
            "answer": ["افتتح المتحف في عام 1998. فيه مقهى.", "המוזיאון נפתח בשנת 1998."],
            "contexts": [
                ["افتتح متحف الميناء في عام 1998 على الرصيف 4. " * 12, "التذاكر متوفرة."],
                ["המוזיאון נפתח בשנת 1998 ליד הנמל."],
            ],
            "ground_truth": ["افتتح المتحف في عام 1998.", "המוזיאון נפתח בשנת 1998."],
        },
        index=["سؤال-1", "שאלה-2"],
    )
    return rn.evaluate(df, model="offline", progress=False)


def test_every_rtl_text_of_the_static_view_has_dir_auto(rtl_scored):
    html = explore(rtl_scored, mode="static").to_html()
    runs = rtl_runs(html)
    kinds = {tags.split("/")[-1] for _, _, tags in runs}
    assert len(runs) > 15 and {"div", "span", "mark"} <= kinds  # texts, claims, marks
    bare = [(text[:30], tags) for text, has_dir, tags in runs if not has_dir]
    assert bare == []


def test_every_rtl_text_of_the_widget_has_dir_auto(rtl_scored):
    ex = explore(rtl_scored, mode="widget")
    for pos in range(len(rtl_scored)):
        ex.select(position=pos)
        runs = rtl_runs(ex.detail_html)
        assert len(runs) > 5
        assert [(t[:30], tags) for t, d, tags in runs if not d] == []


def test_report_row_lines_and_title_have_dir_auto(rtl_scored, tmp_path):
    path = rn.views.report(rtl_scored, tmp_path / "rtl.html", title="تقرير", plotly_js="cdn")
    page = path.read_text(encoding="utf-8")
    body = page.split("<body>")[1].split("<script")[0]  # the HTML (the details are JSON)
    runs = rtl_runs(body)
    assert len(runs) >= 5  # the title, and each row's name and question
    assert [(t[:30], tags) for t, d, tags in runs if not d] == []
    # the page's script gives the texts it builds their direction too
    assert 'function txt(tag, cls, text) { var e = el(tag, cls, text); e.dir = "auto";' in page
