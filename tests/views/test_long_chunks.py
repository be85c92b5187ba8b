"""A long chunk cited by several claims is held whole once per row, not once per claim.

Before the fix, one explorer selection of a row whose 200 kB chunk supported six claims was
about 1.7 MB of HTML: each claim's "show the whole chunk" held the chunk again, with
``<mark>`` around every shared word (23,872 of them); the report's data held the marks of
the whole chunk for each claim.
"""

from __future__ import annotations

import json
import random

import pandas as pd
import pytest

from ragnotebook.views import Explorer, explore, report
from ragnotebook.views._detail import AROUND_CHARS, WHOLE_CHUNK_CHARS, support_view

WORDS = ("the", "museum", "pier", "harbour", "opened", "city", "ferry", "gallery", "cafe", "tide")


@pytest.fixture(scope="module")
def long_row() -> tuple[pd.DataFrame, str]:
    rng = random.Random(0)
    chunk = " ".join(rng.choice(WORDS) + ("." if i % 12 == 11 else "") for i in range(33_000))
    chunk += " The museum is on Pier 4."
    df = pd.DataFrame(
        {
            "question": ["Where is the museum?"],
            "answer": ["The museum is on Pier 4. The ferry runs north. The gallery has a cafe."],
            "contexts": [[chunk, "The museum is on Pier 4."]],
            "ground_truth": ["The museum is on Pier 4. The ferry runs north."],
        }
    )
    out = df.rag.evaluate(model="offline", progress=False)
    # every claim cites the long chunk
    for m in ("faithfulness", "context_recall"):
        out[f"{m}_verdicts"] = [
            [{**v, "supporting_chunks": [0]} for v in out[f"{m}_verdicts"].iloc[0]]
        ]
    return out, chunk


def test_support_view_keeps_a_short_chunk_whole():
    chunk = "It rains. The museum is on Pier 4."
    assert support_view(chunk, "The museum is on Pier 4.", 0) == (
        10,
        34,
        0,
        34,
        [(14, 20), (27, 31), (32, 33)],
        "show the whole chunk (34 characters)",
    )


def test_support_view_of_a_long_chunk_keeps_the_text_around_the_sentence(long_row):
    _, chunk = long_row
    a, b, wa, wb, marks, label = support_view(chunk, "The museum is on Pier 4.", 0)
    assert chunk[a:b] == "The museum is on Pier 4."
    assert wb == len(chunk) and len(chunk) - 2 * AROUND_CHARS - 40 < wa < a
    assert all(wa <= x < y <= wb for x, y in marks)
    assert label == (
        f"show the text around it ({wb - wa:,} of {len(chunk):,} characters; the whole chunk "
        "is under Retrieved chunks, chunk at rank 1)"
    )


def test_a_sentence_with_no_end_is_cut_around_its_first_shared_word():
    chunk = "x " * 3_000 + "museum pier " + "y " * 3_000  # one "sentence" of 12 kB
    a, b, wa, wb, marks, _ = support_view(chunk, "The museum is on Pier 4.", 0)
    assert b - a <= 600 and chunk[a:b].count("museum pier") == 1
    assert b - wb <= 0 <= a - wa and wb - wa <= 600 + 2 * AROUND_CHARS
    assert [chunk[x:y] for x, y in marks] == ["museum", "pier"]


def test_an_explorer_selection_holds_the_long_chunk_once(long_row):
    df, chunk = long_row
    ex = Explorer(df)
    ex.select(position=0)
    html = ex.detail_html
    assert len(chunk) > 100 * WHOLE_CHUNK_CHARS
    assert len(html) < len(chunk) + 40_000  # was 1.7 MB
    assert html.count(chunk) == 1  # in the chunk list, under "show the whole chunk"
    assert html.count("show the text around it (") == 5  # three answer + two truth claims
    assert html.count("<mark>") < 500  # was 23,872
    static = explore(df, mode="static").to_html()
    assert static.count(chunk) == 1 and len(static) < len(chunk) + 40_000


def test_the_report_holds_marks_of_the_window_only(long_row, tmp_path):
    df, chunk = long_row
    page = report(df, tmp_path / "long.html", plotly_js="cdn").read_text(encoding="utf-8")
    data = json.loads(page.split('id="rnb-data">')[1].split("</script>")[0])
    row = data["rows"]["0"]
    assert row["chunks"][0] == chunk
    supports = [s for c in row["recall"] + row["faith"] for s in c[4]]
    assert len(supports) == 5
    for s in supports:
        idx, label, a, b, marks, wa, wb, summary = s
        assert idx == 0 and label == "chunk at rank 1"
        assert wb - wa < 2 * AROUND_CHARS + 700
        assert all(min(a, wa) <= x < y <= max(b, wb) for x, y in marks)
        assert summary.startswith("show the text around it (")
    # the short chunk of rank 2 would be whole: no window in its entry
    short = support_view(row["chunks"][1], "The museum is on Pier 4.", 1)
    assert short[2:4] == (0, len(row["chunks"][1]))
    assert len(json.dumps(row)) < len(chunk) + 30_000  # was about 3 times the chunk


def test_a_long_chunk_with_a_cited_short_chunk_keeps_the_short_one_whole(long_row, tmp_path):
    df, _ = long_row
    df = df.copy()
    df["faithfulness_verdicts"] = [
        [{**v, "supporting_chunks": [1]} for v in df["faithfulness_verdicts"].iloc[0]]
    ]
    page = report(df, tmp_path / "short.html", plotly_js="cdn").read_text(encoding="utf-8")
    row = json.loads(page.split('id="rnb-data">')[1].split("</script>")[0])["rows"]["0"]
    assert [len(s) for c in row["faith"] for s in c[4]] == [5, 5, 5]
    assert all(s[0] == 1 for c in row["faith"] for s in c[4])
