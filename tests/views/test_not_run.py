"""Rows a metric never ran on (no status: summary()'s ``not_run``) are "not run", not errors.

Before the fix, the views read a missing status as ``error``: a frame concatenated from a
faithfulness run and a context-recall run showed ``ERR`` in every row list, the Status
filter's "error" picked those rows, ``plot.scores()`` drew them in the "error" bar and the
detail said "— (error)", while ``summary()`` counted error 0, not_run 1.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import ragnotebook
from ragnotebook.views import Explorer, explore, report
from ragnotebook.views._row import ROW_LEGEND
from ragnotebook.views.static import summary_html

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def mixed() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["Where?"],
            "answer": ["It is on Pier 4."],
            "contexts": [["The museum is on Pier 4."]],
            "ground_truth": ["The museum is on Pier 4."],
        }
    )
    return pd.concat(
        [
            ragnotebook.faithfulness(df, model="offline", progress=False),
            ragnotebook.context_recall(df, model="offline", progress=False),
        ],
        ignore_index=True,
    )


def test_summary_counts_them_as_not_run(mixed):
    s = mixed.rag.summary()
    assert s["not_run"].to_dict() == {"context_recall": 1, "faithfulness": 1}
    assert s["error"].to_dict() == {"context_recall": 0, "faithfulness": 0}


def test_the_explorer_list_shows_n_run_not_err(mixed):
    ex = Explorer(mixed)
    texts = [text.replace(NBSP, " ") for text, _ in ex.listing.options]
    assert texts == [
        "0  │  R n/run  F 1.00   │  Where?",
        "1  │  R 1.00   F n/run  │  Where?",
    ]
    assert "n/run not run" in ROW_LEGEND


def test_the_status_filter_has_not_run_and_error_picks_none(mixed):
    ex = Explorer(mixed)
    assert ("not run", "not_run") in ex.status.options
    ex.metric.value = "faithfulness"
    ex.status.value = "error"
    assert ex.rows == []
    ex.status.value = "not_run"
    assert ex.positions == [1]
    ex.metric.value = "context_recall"
    assert ex.positions == [0]


def test_the_detail_says_not_run(mixed):
    ex = Explorer(mixed)
    ex.select(position=0)
    assert "context recall: <b>— (not run)</b>" in ex.detail_html
    assert "faithfulness: <b>1.00</b>" in ex.detail_html
    assert "(error)" not in ex.detail_html


def test_static_view_rows_and_summary_table(mixed):
    html = explore(mixed, mode="static").to_html()
    assert "R n/run  F  1.00" in html and "R  1.00  F n/run" in html
    assert "ERR" not in html.replace("ERR error", "")  # only the legend names ERR
    table = summary_html(mixed)
    head = [h.split(">")[-1] for h in table.split("</th>")[:-1]]
    assert head == ["metric", "mean (scored rows)", "scored / rows", "ok", "not run"]
    # ok + not run add up to the two rows; no error column
    assert "<td>context recall</td><td>1.00</td><td>1/2</td><td>1</td><td>1</td>" in table
    assert "<td>faithfulness</td><td>1.00</td><td>1/2</td><td>1</td><td>1</td>" in table


def test_the_summary_table_has_no_not_run_column_when_every_row_ran(scored):
    assert ">not run<" not in summary_html(scored)


def test_plot_scores_counts_them_in_a_not_run_bar(mixed):
    fig = mixed.rag.plot.scores()
    bars = [t for t in fig.data if t.name == "rows by status"]
    assert [(list(t.x), list(t.y)) for t in bars] == [(["ok", "not run"], [1, 1])] * 2
    assert bars[0].hovertext[1] == (
        "context recall: 1 row not run (no status: never scored by this metric; not an error)"
    )
    assert all(t.name != "error" for t in fig.data)


def test_report_rows_summary_and_cards(mixed, tmp_path):
    page = report(mixed, tmp_path / "mixed.html", plotly_js="cdn").read_text(encoding="utf-8")
    body = page.split("<body>")[1].split("<script")[0]
    assert "R n/run  F 1.00" in body and "R 1.00   F n/run" in body
    assert ">not run</th>" in body
    assert "<i>not run</i>: the row has no status for the metric" in " ".join(body.split())
    data = page.split('id="rnb-data">')[1].split("</script>")[0]
    cards = json.loads(data)["rows"]["0"]["cards"]
    assert [c[:2] for c in cards] == [["context recall", "— (not run)"], ["faithfulness", "1.00"]]
