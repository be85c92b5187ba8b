"""Long and repeated index labels: kept whole in the files, told apart in the views.

Before the fix the report and the static view replaced a label longer than 12 characters
(a UUID, a 24-character HotpotQA id) by ``#3``, so the label was nowhere in the file.
"""

from __future__ import annotations

import re
import uuid
import warnings

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views import explore, missed_claims, report

LONG = [str(uuid.UUID(int=i + 1)) for i in range(2)] + ["<b>a-label-with-markup-&-more</b>"]


@pytest.fixture(scope="module")
def long_labels() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["Where is it?", "When did it open?", "Who runs it?"],
            "answer": ["It is on Pier 4. It has a cafe.", "In 1998.", "The city."],
            "contexts": [["It is on Pier 4."], ["It opened in 1998."], ["The city runs it."]],
        },
        index=LONG,
    )
    return rn.faithfulness(df, model="offline", progress=False)


def test_the_report_keeps_long_labels_whole(long_labels, tmp_path):
    page = report(long_labels, tmp_path / "r.html", plotly_js="cdn").read_text(encoding="utf-8")
    body = page.split("<body>")[1].split("<script")[0]
    for pos, label in enumerate(LONG):
        escaped = label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        # the full label, escaped, in the summary's title and in the detail's heading
        assert f'title="{escaped}"' in body
        assert (
            f'Row {pos + 1} of 3 <small class="rnb-meta">(position {pos}, index '
            f'<span dir="auto">{escaped}</span>)</small>' in body
        )
    assert "<b>a-label" not in page  # never markup
    # shown shortened around an ellipsis, not as "#0"
    assert ">00000…000001<" in body and not re.search(r">#\d+<", body)


def test_the_static_view_keeps_long_labels_whole(long_labels):
    html = explore(long_labels, mode="static").to_html()
    assert f'title="{LONG[0]}"' in html
    assert f'index <span dir="auto">{LONG[1]}</span>)' in html
    assert ">00000…000002<" in html


def test_the_explorer_tells_repeated_labels_apart(long_labels):
    df = long_labels.set_axis(["q1", "q1", "q2"])
    ex = explore(df, mode="widget")
    ex.select(position=0)
    first = ex.header.value
    ex.select(position=1)
    second = ex.header.value
    assert first != second
    assert "Row 2 of 3" in second and "(position 1, index" in second
    long_ex = explore(long_labels, mode="widget")
    long_ex.select(position=0)
    assert LONG[0] in long_ex.header.value  # whole in the header


def test_missed_claims_keeps_one_bar_per_row_with_repeated_labels(long_labels):
    df = long_labels.set_axis(["q1", "q1", "q1"]).assign(question="Same?")
    df["faithfulness_verdicts"] = [
        [{"index": 0, "claim": f"claim {i}", "verdict": "unsure"}] for i in range(3)
    ]
    df["faithfulness_status"] = "ok"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig = missed_claims(df)
    bars = [y for t in fig.data for y in t.y]
    assert len(bars) == len(set(bars)) == 3  # before: one category for the three rows
    hover = [h for t in fig.data for h in t.hovertext]
    assert all("<b>q1</b>" in h for h in hover)
