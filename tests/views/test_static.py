"""The static explorer view (no widget front end)."""

import pytest

from ragnotebook.views.static import StaticExplorer, rows_html, summary_html


def test_static_view_html(scored):
    view = scored.rag.explore()
    html = view._repr_html_()
    assert "<script" not in html
    assert html.count('class="rnb-row"') == 48
    assert "static view" in html
    assert "<td>context recall</td>" in html
    assert "32/48" in html
    assert scored["question"].iloc[0][:50] in html
    text = repr(view)
    assert text.startswith("ragnotebook static explorer: 48 rows")
    assert "context recall" in text and "Widget" not in text


def test_static_view_sort_and_limit(scored):
    view = StaticExplorer(scored, max_rows=5, sort_by="context_precision")
    values = scored["context_precision"].astype(float).iloc[view.positions].tolist()
    assert len(values) == 5 and values == sorted(values)
    assert "first 5 of 48 rows, worst context precision first" in view.to_html()
    with pytest.raises(ValueError, match="sort_by"):
        StaticExplorer(scored, sort_by="relevancy")


def test_static_view_escapes(hostile):
    html = StaticExplorer(hostile).to_html()
    for bad in ("<script", "<img", "<a ", "<b>only", "<i>"):
        assert bad not in html
    assert "&lt;script&gt;window.__xss=1;alert(1)&lt;/script&gt;" in html
    assert "&lt;/script&gt;&lt;script&gt;window.__xss=3;alert(&#x27;x&#x27;)&lt;/script&gt;" in html


def test_summary_and_rows_helpers(scored):
    table = summary_html(scored)
    assert table.count("<tr>") == 4
    assert "no ground truth" in table
    assert rows_html(scored, [5, 2]).index('id="row-5"') < rows_html(scored, [5, 2]).index(
        'id="row-2"'
    )


def test_drill_down_names_chunks_by_rank_and_words_are_consistent(scored):
    from ragnotebook.views._detail import row_detail_html

    html = "".join(row_detail_html(scored, pos) for pos in range(len(scored)))
    assert "chunk at rank 1" in html
    # (the offline judge's own reasons may still say "chunk 0"; the views' words do not)
    assert "chunk 0 ·" not in html and "· rank" not in html and "whole chunk 0" not in html
    assert "(rank 1)" not in html
    assert "show the whole chunk (" in html


def test_highlight_never_marks_inside_literal_markup(hostile):
    from ragnotebook.views._detail import highlight, mark_spans, row_detail_html

    text = "Use <b>bold</b> the <br> tag &amp; br here"
    claim = "the bold br tag amp"
    out = highlight(text, claim)
    assert "&lt;br&gt;" in out and "&lt;<mark>" not in out and "<mark>amp" not in out
    assert "<mark>bold</mark>" in out and "<mark>br</mark> here" in out
    assert {text[a:b] for a, b in mark_spans(text, claim)} == {"bold", "tag", "br"}
    html = "".join(row_detail_html(hostile, pos) for pos in range(2))
    assert "&lt;<mark>" not in html and "<mark>br</mark>&gt;" not in html


def test_explore_in_a_kernel_without_ipywidgets_says_how_to_install(scored, monkeypatch):
    import ragnotebook.views.static as static

    monkeypatch.setattr(static, "in_kernel", lambda: True)
    monkeypatch.setattr(static, "_widgets_available", lambda: False)
    with pytest.warns(UserWarning, match=r"pip install 'ragnotebook\[widgets\]'"):
        view = scored.rag.explore()
    assert isinstance(view, StaticExplorer)
    html = view.to_html()
    assert "ipywidgets is not installed" in html
    assert "<code>pip install 'ragnotebook[widgets]'</code>" in html
    # outside a kernel the static view is the designed one: no warning, the usual note
    monkeypatch.setattr(static, "in_kernel", lambda: False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        html = scored.rag.explore().to_html()
    assert "No widget front end was found" in html


def test_summary_table_counts_no_answer_as_summary_does(unanswered):
    s = unanswered.rag.summary().loc["faithfulness"]
    assert (s["scored"], s["ok"], s["no_claims"], s["no_answer"]) == ("2/3", 1, 2, 1)
    html = StaticExplorer(unanswered).to_html()
    head = html[html.index('<table class="rnb-sum">') : html.index("</thead>")]
    headers = [h.rsplit(">", 1)[-1] for h in head.split("</th>")[:-1]]
    assert headers == [
        "metric",
        "mean (scored rows)",
        "scored / rows",
        "ok",
        "no claims",
        "no answer",
    ]
    # no claims = the refusal (a measured 0); no answer = the missing one (not scored)
    assert "<td>faithfulness</td><td>0.50</td><td>2/3</td><td>1</td><td>1</td><td>1</td>" in html
    assert "<td>context recall</td><td>1.00</td><td>3/3</td><td>3</td><td>0</td><td>0</td>" in html


def test_summary_table_of_the_sample(scored):
    table = summary_html(scored)
    # the 16 HotpotQA rows have no answer: not "no claims" (none is a measured 0)
    assert "<td>faithfulness</td><td>" in table and ">no answer</th>" in table
    assert ">no claims</th>" not in table
    row = table[table.index("<td>faithfulness</td>") :].split("</tr>")[0]
    assert row.endswith("<td>32/48</td><td>32</td><td>16</td><td>0</td>")  # ok, no answer, n/gt


@pytest.mark.parametrize("bad", [-1, -3, 2.5, False])
def test_static_max_rows_must_be_a_whole_number_from_0(scored, bad):
    with pytest.raises(ValueError, match="max_rows must be a whole number of at least 0"):
        StaticExplorer(scored, max_rows=bad)
    with pytest.raises(ValueError, match="max_rows"):
        scored.rag.explore(mode="static", max_rows=bad)


def test_static_max_rows_0_and_none(scored):
    html = StaticExplorer(scored, max_rows=0).to_html()
    assert 'class="rnb-row"' not in html and "no rows listed (max_rows=0) of 48 rows" in html
    assert '<table class="rnb-sum">' in html
    assert len(StaticExplorer(scored, max_rows=None).positions) == 48


def test_static_sort_by_takes_the_metric_aliases(scored):
    assert StaticExplorer(scored, max_rows=8, sort_by="precision").positions == (
        StaticExplorer(scored, max_rows=8, sort_by="context_precision").positions
    )
    view = scored.rag.explore(mode="static", sort_by="recall")
    assert view.sort_by == "context_recall" and "worst context recall first" in view.to_html()
    with pytest.raises(ValueError, match="unknown metric 'bogus'; expected one of"):
        StaticExplorer(scored, sort_by="bogus")


def test_explore_of_a_frame_read_back_from_csv_warns_once(from_csv):
    with pytest.warns(UserWarning) as caught:
        from_csv.rag.explore(mode="static").to_html()
    [message] = [str(w.message) for w in caught]
    assert message.startswith("explore(): columns ") and "faithfulness_verdicts" in message
    assert {w.filename for w in caught} == {__file__}


def test_means_and_precision_at_k_are_shown_rounded_half_up():
    """0.575 is shown "0.58", as the scores are rounded (Python's format says "0.57",
    the float being 0.57499...), in the static view, its text form and the report."""
    import pandas as pd

    import ragnotebook as rn
    from ragnotebook.views._report import _curve_data

    claims = {"a": ["a1", "a2"], "b": ["b1", "b2"], "c": ["c1", "c2"], "d": list("vwxyz")}
    judge = rn.MockJudge(
        extract_claims=lambda t: claims[t.text],
        attribute_claims=lambda t: ["yes", "no"] if len(t.items) == 2 else ["yes"] * 4 + ["no"],
    )
    df = pd.DataFrame(
        {
            "question": ["q"] * 4,
            "answer": ["x"] * 4,
            "contexts": [["c"]] * 4,
            "ground_truth": ["a", "b", "c", "d"],
        }
    )
    scored = rn.context_recall(df, model=judge, progress=False)
    assert scored["context_recall"].tolist() == [0.5, 0.5, 0.5, 0.8]
    assert f"{scored['context_recall'].mean():.2f}" == "0.57"  # what a plain format shows
    assert "<td>context recall</td><td>0.58</td>" in summary_html(scored)
    assert "mean 0.58" in repr(StaticExplorer(scored))
    # the report's precision@k titles: 23 relevant of 40 chunks is 0.575
    curve = _curve_data([{"index": 39, "verdict": "yes", "precision_at_k": 23 / 40}])
    assert curve == [[0.575, 1, "0.58"]]


def test_words_inside_tags_are_left_unmarked_in_long_tagged_chunks(monkeypatch):
    """The markup check is a search per word (it compared every word with every tag: a
    150 kB chunk of tagged text took 7 s to show); the marks are those of the rule."""
    import random
    import re

    from ragnotebook.views import _detail

    rng = random.Random(3)
    words = ["depot", "ships", "40", "pallets", "<b>", "</b>", "&amp;", "<i class='depot'>", "day."]
    text = " ".join(rng.choice(words) for _ in range(3000))
    wanted = {"depot", "ship", "40", "pallet"}
    markup = [m.span() for m in _detail._MARKUP_RE.finditer(text)]
    kept = _detail._mark_spans(text, wanted, "en")
    with monkeypatch.context() as m:
        m.setattr(_detail, "_MARKUP_RE", re.compile(r"(?!x)x"))  # matches nothing
        raw = _detail._mark_spans(text, wanted, "en")
    brute = [(a, b) for a, b in raw if not any(a < e and s < b for s, e in markup)]
    assert len(brute) < len(raw)  # some words stand inside tags ("<i class='depot'>")
    assert kept == brute
