"""Widget state of the explorer, in plain pytest (no kernel, no browser)."""

import re
import warnings
from html import unescape

import numpy as np
import pandas as pd
import pytest

import ragnotebook
from ragnotebook.views.explorer import Explorer, short_score
from ragnotebook.views.static import StaticExplorer, explore

from .conftest import HOSTILE


@pytest.fixture
def ex(scored):
    return Explorer(scored)


def test_initial_state_selects_first_row(ex, scored):
    assert ex.rows == list(scored.index)
    assert ex.selected == scored.index[0]
    assert ex.listing.value == 0
    assert len(ex.listing.options) == 48
    assert ex.page_label.value == "rows 1–48 of 48"
    assert ex.prev_button.disabled and ex.next_button.disabled
    text, value = ex.listing.options[0]
    # a 24-character HotpotQA id, shortened around "…" (it was "#0")
    assert scored.index[0] == "5a7166395542994082a3e814"
    assert value == 0 and text.replace("\u00a0", " ").startswith("5a716…a3e814 ")
    assert scored["question"].iloc[0][:40] in text


def test_select_by_label_and_position_updates_detail(ex, scored):
    label = scored.index[20]
    ex.select(label)
    assert ex.selected == label
    assert ex.listing.value == 20
    question = scored["question"].iloc[20]
    assert question in ex.detail_html
    assert "Answer claims" in ex.detail_html
    ex.select(position=3)
    assert ex.selected == scored.index[3]
    assert scored["question"].iloc[3] in ex.detail_html
    with pytest.raises(KeyError):
        ex.select("no-such-row")
    with pytest.raises(KeyError):
        ex.select(position=999)


def test_choosing_in_the_list_shows_that_row(ex, scored):
    ex.listing.value = 7
    assert ex.selected == scored.index[7]
    assert scored["question"].iloc[7] in ex.detail_html


def test_curve_figure_follows_the_selection(ex, scored):
    ex.select(position=1)
    prec = sorted(scored["context_precision_verdicts"].iloc[1], key=lambda v: v["index"])
    trace = ex.curve_figure.data[0]
    assert list(trace.x) == list(range(1, len(prec) + 1))
    assert list(trace.y) == pytest.approx([v["precision_at_k"] for v in prec])
    symbols = ["circle" if v["verdict"] == "yes" else "x" for v in prec]
    assert list(trace.marker.symbol) == symbols
    ex.search.value = "no such words in any row"
    assert ex.selected is None and ex.curve_figure is None


def _tree(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _tree(child)


def test_curve_is_an_svg_of_the_selected_rows_precision(ex, scored):
    ex.select(position=1)
    prec = sorted(scored["context_precision_verdicts"].iloc[1], key=lambda v: v["index"])
    svg = ex.curve.value
    assert svg.count("<svg") == 1 and svg.count("<circle") == len(prec)
    assert svg.startswith('<div class="rnb"><svg')  # .rnb svg text: the page's colour
    tips = re.findall(r"<title>(rank \d+: [^<]*)</title>", svg)
    assert tips == [
        f"rank {k}: {'relevant' if v['verdict'] == 'yes' else 'not relevant'}, "
        f"precision@{k} = {v['precision_at_k']:.2f}"
        for k, v in enumerate(prec, start=1)
    ]
    filled = svg.count('fill="#0072B2" stroke')
    assert filled == sum(v["verdict"] == "yes" for v in prec)
    # between the claims and the chunks, and never drawn through an Output widget (an
    # Output widget makes nbclient-based runners answer on the shell socket, issue #312)
    kids = list(ex.widget.children)
    assert kids.index(ex.detail) < kids.index(ex.curve) < kids.index(ex.chunk_list)
    assert all(type(w).__name__ != "Output" for w in _tree(ex.widget))
    ex.select(position=2)
    assert ex.curve.value != svg
    ex.search.value = "no such words in any row"
    assert ex.curve.value == ""


def test_a_row_without_precision_verdicts_has_no_curve(scored):
    only_recall = scored.drop(columns=[c for c in scored if c.startswith("context_precision")])
    ex = Explorer(only_recall)
    assert ex.selected == scored.index[0]
    assert ex.curve.value == "" and ex.curve_figure is None


def test_the_explorer_needs_no_plotly(scored, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "plotly", None)  # as with only the [widgets] extra
    monkeypatch.setitem(sys.modules, "plotly.graph_objects", None)
    ex = Explorer(scored)
    ex.select(position=4)
    assert scored["question"].iloc[4] in ex.detail_html
    assert ex.curve.value.count("<circle") == len(scored["context_precision_verdicts"].iloc[4])
    ex.step(1)
    assert ex.selected == scored.index[5]
    with pytest.raises(ImportError, match=r"ragnotebook\[plot\]"):
        _ = ex.curve_figure


def test_free_text_filter(ex, scored):
    ex.search.value = "Porterhouse"
    expected = [
        lab
        for lab, q in zip(scored.index, scored["question"], strict=True)
        if "porterhouse" in q.lower()
    ]
    assert ex.rows == expected and len(expected) == 2
    assert ex.selected == expected[0]
    ex.search.value = "porterhouse grill"  # every word must occur
    assert ex.rows == expected
    ex.search.value = "zzzz-not-there"
    assert ex.rows == []
    assert ex.selected is None
    assert "No rows match" in ex.detail_html
    assert ex.page_label.value == "no rows match"
    ex.search.value = ""
    assert len(ex.rows) == 48


def test_status_and_score_filters_apply_to_the_chosen_metric(ex, scored):
    ex.status.value = "no_ground_truth"
    assert ex.rows == list(scored.index[scored.context_recall_status == "no_ground_truth"])
    ex.metric.value = "faithfulness"
    assert ex.rows == list(scored.index[scored.faithfulness_status == "no_ground_truth"]) == []
    ex.status.value = "any"
    ex.score_range.value = (0.5, 1.0)
    faith = scored["faithfulness"].astype(float)
    scored_ok = scored.faithfulness_status.isin(["ok", "no_claims", "no_context"])
    assert ex.rows == list(scored.index[(faith >= 0.5) & scored_ok])
    ex.metric.value = "context_recall"
    recall = scored["context_recall"].astype(float)
    ok = scored.context_recall_status == "ok"
    assert ex.rows == list(scored.index[(recall >= 0.5) & ok])  # unmeasured rows drop out


def test_status_filter_tells_no_claims_from_no_answer(unanswered, scored):
    # a refusal is a measured 0 (no claims); a missing answer is not scored (no answer),
    # as summary() counts them (its no_answer) and the report and plot.scores() do
    ex = Explorer(unanswered)
    ex.metric.value = "faithfulness"
    values = [v for _, v in ex.status.options]
    assert values.index("no_answer") == values.index("no_claims") + 1
    assert dict(ex.status.options)["no answer"] == "no_answer"
    ex.status.value = "no_claims"
    assert ex.rows == [unanswered.index[1]]  # the refusal only
    ex.status.value = "no_answer"
    assert ex.rows == [unanswered.index[2]]
    assert ex.listing.options[0][0].replace("\u00a0", " ").split("│")[1].split()[-1] == "n/ans"
    assert "faithfulness status no answer" in ex._hidden_note(0).replace("&#x27;", "'")
    # the sample: its 16 rows with no answer are "no answer", none is a measured 0
    ex = Explorer(scored)
    ex.metric.value = "faithfulness"
    ex.status.value = "no_answer"
    assert len(ex.rows) == int(scored.rag.summary().loc["faithfulness", "no_answer"]) == 16
    ex.status.value = "no_claims"
    assert ex.rows == []
    ex.metric.value = "context_recall"  # no answer is a faithfulness status only
    ex.status.value = "no_answer"
    assert ex.rows == []


def test_sorting(ex, scored):
    ex.sort_by.value = "context_precision:asc"
    values = scored["context_precision"].astype(float).loc[ex.rows].tolist()
    assert values == sorted(values)
    ex.sort_by.value = "context_precision:desc"
    values = scored["context_precision"].astype(float).loc[ex.rows].tolist()
    assert values == sorted(values, reverse=True)
    # unmeasured rows (no ground truth) always sort last
    ex.sort_by.value = "context_recall:asc"
    tail = scored.loc[ex.rows[-16:], "context_recall_status"].unique().tolist()
    assert tail == ["no_ground_truth"]
    ex.sort_by.value = "order"
    assert ex.rows == list(scored.index)


def test_selection_survives_filters_that_keep_it(ex, scored):
    ex.select(position=30)
    ex.sort_by.value = "faithfulness:asc"
    assert ex.selected == scored.index[30]
    assert ex.listing.value == 30


def test_selection_comes_back_after_a_search_that_matched_nothing(ex, scored):
    ex.select(position=5)
    ex.search.value = "zzyzx"  # no row: nothing selected
    assert ex.rows == [] and ex.selected is None and ex.listing.value is None
    ex.search.value = ""
    assert ex.selected == scored.index[5] and ex.listing.value == 5  # not row 0
    assert "Hidden by" not in ex.header.value and "Row 6 of 48" in ex.header.value
    assert scored["question"].iloc[5][:30] in unescape(ex.detail.value)
    # on a later page too, and through several empty searches in a row
    ex = Explorer(scored, page_size=20)
    ex.select(position=33)
    for text in ("z", "zz", "zzyzx"):
        ex.search.value = text
    ex.search.value = "porterhouse"  # rows 18 and 19, not row 33: their first row is selected
    assert ex.rows and scored.index[33] not in ex.rows
    first = ex.rows[0]
    assert ex.selected == first
    ex.search.value = ""  # the row selected now stays
    assert ex.selected == first
    ex.select(position=33)
    ex.search.value = "zzyzx"
    ex.search.value = ""
    assert ex.selected == scored.index[33] and ex.page == 1 and ex.listing.value == 33
    # a row chosen while the list is empty is the one kept
    ex.search.value = "zzyzx"
    ex.select(position=2)
    ex.search.value = ""
    assert ex.selected == scored.index[2]


def test_paging(scored):
    ex = Explorer(scored, page_size=20)
    assert ex.page_count == 3 and len(ex.listing.options) == 20
    ex.next_button.click()
    assert ex.page == 1 and ex.listing.options[0][1] == 20
    assert ex.selected == scored.index[20]
    # a page out of range is an error naming the range (it did nothing, silently)
    for page in (99, 3, -1, 1.5, True):
        with pytest.raises(ValueError) as info:
            ex.set_page(page)
        assert str(info.value) == (
            f"page must be a whole number from 0 to 2 (3 pages of 20 rows), got {page!r}"
        )
    assert ex.page == 1
    ex.set_page(2)
    assert ex.page == 2 and len(ex.listing.options) == 8
    ex.next_button.click()  # the buttons stop at the ends
    assert ex.page == 2
    assert ex.next_button.disabled and not ex.prev_button.disabled
    ex.select(position=5)  # jumps back to the page holding the row
    assert ex.page == 0 and ex.listing.value == 5


def test_thousand_rows_render_one_page(scored):
    # speed is measured in benchmarks/explorer_speed.py; here: only the visible page is built
    big = pd.concat([scored] * 21, ignore_index=True).iloc[:1000]
    ex = Explorer(big)
    assert len(ex.listing.options) == 50
    ex.search.value = "kansas"
    ex.sort_by.value = "faithfulness:asc"
    ex.score_range.value = (0.0, 0.5)
    assert len(ex.listing.options) == min(50, len(ex.positions))
    ex.select(position=int(ex.positions[-1]))
    assert ex.selected == big.index[int(ex.positions[-1])]


def test_detail_escapes_hostile_strings(hostile):
    ex = Explorer(hostile)
    for pos in range(2):
        ex.select(position=pos)
        html = ex.detail_html
        assert "<script" not in html and "<img" not in html and "<a " not in html
        assert "<b>only" not in html
    ex.select(position=0)
    assert "Use &lt;b&gt;only&lt;/b&gt; the &lt;br&gt; tag; x&lt;y &amp; y&gt;z" in ex.detail_html
    assert "&lt;i&gt;r1&lt;/i&gt;" in ex.detail_html
    ex.select(position=1)
    assert "&lt;a href=&quot;javascript:alert(1)&quot;&gt;click&lt;/a&gt;" in ex.detail_html
    # Select options are plain text (the front end sets textContent), kept verbatim
    assert HOSTILE["link"] in ex.listing.options[1][0]


def test_overlap_highlighting_in_detail(hostile):
    ex = Explorer(hostile)
    ex.select(position=0)
    assert "<mark>museum</mark>" in ex.detail_html
    assert "<mark>Pier</mark>" in ex.detail_html


def test_short_score_codes():
    assert short_score(0.5, "ok") == "0.50"
    assert short_score(0.0, "no_claims") == "n/cl"
    assert short_score(np.nan, "no_claims") == "n/ans"  # no answer: not scored
    assert short_score(np.nan, "error") == "ERR"


def test_explore_dispatch(scored, monkeypatch):
    from ragnotebook.views import static

    assert isinstance(explore(scored), StaticExplorer)  # pytest is not a kernel
    assert isinstance(explore(scored, mode="widget"), Explorer)
    assert isinstance(scored.rag.explore(mode="static"), StaticExplorer)
    monkeypatch.setattr(static, "in_kernel", lambda: True)
    assert isinstance(explore(scored), Explorer)
    monkeypatch.setattr(static, "_widgets_available", lambda: False)
    with pytest.warns(UserWarning, match="ipywidgets is not installed"):
        assert isinstance(explore(scored), StaticExplorer)  # kernel but no ipywidgets
    with pytest.raises(ValueError, match="mode"):
        explore(scored, mode="tui")


def test_widget_repr_is_a_widget_bundle(ex):
    bundle = ex._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id


def test_widget_display_carries_a_read_only_html_copy(scored, from_csv):
    # where the widget cannot run (GitHub, nbconvert without widget state) a notebook shows
    # the text/html entry: the static view of the first rows, not "VBox(children=(HBox(..."
    from IPython.core.formatters import DisplayFormatter

    ex = Explorer(scored, sort_by="faithfulness")
    data, _ = DisplayFormatter().format(ex)  # what IPython stores in the notebook
    assert set(data) == {
        "application/vnd.jupyter.widget-view+json",
        "text/html",
        "text/plain",
    }
    html = data["text/html"]
    assert "read-only copy of the explorer widget" in html and "<script" not in html
    assert html.count('class="rnb-row"') == 10
    assert "first 10 of 48 rows, worst faithfulness first" in html
    worst = StaticExplorer(scored, max_rows=10, sort_by="faithfulness").positions
    assert re.findall(r'id="row-(\d+)"', html) == [str(p) for p in worst]
    assert not data["text/plain"].startswith("VBox(")
    assert data["text/plain"].startswith("<Explorer: 48 of 48 rows shown>")
    # displaying warns nothing more (the explorer warned once when built), and a closed
    # widget displays nothing
    with pytest.warns(UserWarning):
        back = Explorer(from_csv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "text/html" in back._repr_mimebundle_()
    ex.widget.close()
    assert not ex._repr_mimebundle_()


def test_list_columns_line_up_and_long_questions_end_with_an_ellipsis(scored):
    df = scored.copy()
    df.index = [f"r{i}" if i % 3 else f"row-{i:04d}" for i in range(len(df))]
    df.loc[df.index[1], "question"] = "word " * 60
    ex = Explorer(df)
    texts = [t for t, _ in ex.listing.options]
    # a <select> collapses spaces: every gap is a no-break space, and the columns line up
    assert all(" " not in t.split("│")[0] + t.split("│")[1] for t in texts)
    assert len({t.index("│") for t in texts}) == 1
    assert len({t.index("│", t.index("│") + 1) for t in texts}) == 1
    long = texts[1].split("│")[-1].strip("\u00a0")
    assert long.endswith("…") and len(long) <= 90


def test_list_height_follows_the_rows(scored):
    ex = Explorer(scored)
    assert ex.listing.rows == 12  # 48 rows: at most 12 lines, then it scrolls
    ex.search.value = "porterhouse"
    assert len(ex.listing.options) == 2 and ex.listing.rows == 2
    ex.search.value = "zzzz-not-there"
    assert ex.listing.rows == 2


def test_row_buttons_step_through_the_filtered_rows_across_pages(scored):
    ex = Explorer(scored, page_size=20)
    assert ex.selected == scored.index[0]
    assert ex.prev_row_button.disabled and not ex.next_row_button.disabled
    ex.next_row_button.click()
    assert ex.listing.value == 1 and scored["question"].iloc[1] in ex.detail_html
    ex.select(position=19)
    ex.next_row_button.click()  # crosses to the next page
    assert ex.page == 1 and ex.listing.value == 20
    ex.prev_row_button.click()
    assert ex.page == 0 and ex.listing.value == 19
    ex.select(position=47)
    assert ex.next_row_button.disabled
    ex.next_row_button.click()
    assert ex.listing.value == 47
    ex.sort_by.value = "faithfulness:asc"  # follows the sorted, filtered order
    order = ex.positions
    ex.select(position=order[5])
    ex.next_row_button.click()
    assert ex.listing.value == order[6]
    ex.search.value = "zzzz-not-there"
    assert ex.prev_row_button.disabled and ex.next_row_button.disabled
    ex.step(1)  # nothing to select: no error
    assert ex.selected is None


def test_legend_is_tidy_and_names_the_keyboard_route(ex):
    legend = ex.widget.children[2].value
    assert "line-height:1.35" in legend and "<small>" not in legend
    assert "next row ▶" in legend and "JupyterLab" in legend


@pytest.mark.parametrize("bad", [0, -3, 1.5, True])
def test_page_size_must_be_at_least_1(scored, bad):
    with pytest.raises(ValueError, match="page_size must be a whole number of at least 1"):
        explore(scored, mode="widget", page_size=bad)
    with pytest.raises(ValueError, match="page_size"):
        Explorer(scored, page_size=bad)
    with pytest.raises(ValueError, match="page_size"):  # whatever the mode
        explore(scored, mode="static", page_size=bad)


def test_widget_applies_sort_by_to_its_sort_control(scored):
    ex = explore(scored, mode="widget", sort_by="faithfulness")
    assert ex.sort_by.value == "faithfulness:asc"
    values = scored["faithfulness"].astype(float).loc[ex.rows[:32]].tolist()
    assert values == sorted(values) and ex.rows != list(scored.index)
    assert ex.selected == ex.rows[0]
    # the aliases evaluate() accepts, as in static mode
    assert Explorer(scored, sort_by="recall").sort_by.value == "context_recall:asc"
    assert explore(scored, mode="static", sort_by="recall").positions[:10] == [
        int(p) for p in explore(scored, mode="widget", sort_by="recall").positions[:10]
    ]


def test_widget_rejects_an_unknown_sort_by(scored, precision_frame):
    with pytest.raises(ValueError, match="sort_by: unknown metric 'bogus'; expected one of"):
        explore(scored, mode="widget", sort_by="bogus")
    with pytest.raises(ValueError, match="'faithfulness' is not scored in this frame"):
        Explorer(precision_frame, sort_by="faithfulness")


def test_select_without_a_row_says_what_to_pass(ex):
    with pytest.raises(TypeError, match=r"pass its index label.*or its position"):
        ex.select()
    with pytest.raises(TypeError, match="position must be an int"):
        ex.select(position=True)


def test_select_takes_negative_positions_like_iloc(ex, scored):
    ex.select(position=-1)
    assert ex.selected == scored.index[-1] and ex.listing.value == 47
    ex.select(position=-48)
    assert ex.selected == scored.index[0]
    with pytest.raises(KeyError, match="out of range for 48 rows"):
        ex.select(position=-49)
    with pytest.raises(KeyError, match="out of range"):
        ex.select(position=48)


def test_select_finds_a_none_index_label():
    import ragnotebook

    df = pd.DataFrame(
        {
            "question": ["a", "b"],
            "answer": ["Sky is blue.", "Grass is green."],
            "contexts": [["Sky is blue."], ["Grass is green."]],
        },
        index=pd.Index(["r1", None], dtype=object),
    )
    ex = Explorer(ragnotebook.faithfulness(df, model="offline", progress=False))
    ex.select(None)
    assert ex.listing.value == 1 and ex.selected is None


def search_frame() -> pd.DataFrame:
    judge = ragnotebook.MockJudge(extract_claims=lambda t: [], verify_claims=lambda t: [])
    df = pd.DataFrame(
        {
            "question": [
                "How many pallets does depot 6 ship?",
                "How many pallets does depot 60 ship?",
                "Which depot ships 16 pallets?",
                "Straße und Depot-6 Übersicht?",
                "东京的仓库每天发货多少?",
                "Where is pier-4 and pier 40?",
            ],
            "answer": ["Depot 6 ships 47.", "It ships 61.", "Depot 16.", "Sechs.", "四十七。", "."],
            "contexts": [["c"]] * 6,
        },
        index=["d6", "d60", "d16", "de", "zh", "pier"],
    )
    return ragnotebook.faithfulness(df, model=judge, progress=False)


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("depot 6", ["d6", "de"]),  # was also d60 ("60") and d16 ("16")
        ("DEPOT 60", ["d60"]),
        ("6", ["d6", "de"]),
        ("pallets.", ["d6", "d60", "d16"]),  # outer punctuation is not part of the word
        ("strasse", ["de"]),  # casefolded: ß is ss
        ("übersicht", ["de"]),
        ("depot-6", ["de"]),  # inner punctuation: matched as written, bounded
        ("pier-4", ["pier"]),
        ("pier-40", []),
        ("仓库", ["zh"]),  # no spaces in Chinese: inside the text
        ("东京 发货", ["zh"]),
        ("depo", []),  # part of a word is not a word
    ],
)
def test_search_matches_whole_words(query, rows):
    ex = Explorer(search_frame())
    ex.search.value = query
    assert ex.rows == rows


def cjk_search_frame() -> pd.DataFrame:
    judge = ragnotebook.MockJudge(extract_claims=lambda t: [], verify_claims=lambda t: [])
    df = pd.DataFrame(
        {
            "question": ["予約は？", "价格？", "출시일?", "価格？"],
            "answer": [
                "予約はAmazonで受け付けています。",
                "华为Mate 60 Pro售价6999元。",
                "Galaxy S24는 1월 31일에 출시되었습니다.",
                "価格は１２０円です。Ｐｉｅｒ-４号 zero\u200bwidth",
            ],
            "contexts": [["c"]] * 4,
        },
        index=["ja", "zh", "ko", "wide"],
    )
    return ragnotebook.faithfulness(df, model=judge, progress=False)


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("Amazon", ["ja"]),  # a Latin word written against kana is a word
        ("amazonで", ["ja"]),
        ("Mate", ["zh"]),
        ("pro", ["zh"]),
        ("S24", ["ko"]),
        ("S2", []),  # still whole words
        ("1", ["ko"]),  # "1월": the digit is a word
        ("120円", ["wide"]),  # full-width digits are the same as ASCII ones
        ("１２０", ["wide"]),
        ("pier-4", ["wide"]),  # inner punctuation, bounded by a CJK character
        ("6999", ["zh"]),
        ("zerowidth", ["wide"]),  # a zero-width space splits no word a reader sees whole
        ("zero", []),
        ("zero\u200bwidth", ["wide"]),  # nor a word searched for
    ],
)
def test_search_reads_latin_words_inside_cjk_text_and_full_width_forms(query, rows):
    ex = Explorer(cjk_search_frame())
    ex.search.value = query
    assert ex.rows == rows


def test_search_finds_a_row_by_its_index_label():
    s = search_frame().set_axis(["A:q1", "B:q1", "A:q2", "B:q2", "A:q3", "B:q3"])
    ex = Explorer(s)
    ex.search.value = "B:q2"
    assert ex.rows == ["B:q2"]
    ex.search.value = "q3"  # both systems' rows of question 3
    assert ex.rows == ["A:q3", "B:q3"]
    ex.search.value = "q"  # part of a word is not a word
    assert ex.rows == []


def test_select_finds_nan_and_nat_labels():
    s = search_frame()
    nan_index = s.set_axis([1.0, float("nan"), 3.0, 4.0, 5.0, 6.0])
    ex = Explorer(nan_index)
    ex.select(np.nan)  # KeyError before: NaN == NaN is False
    assert ex.listing.value == 1
    ex.select(float("nan"))
    assert ex.listing.value == 1
    with pytest.raises(KeyError, match=r"no row with index label 2\.0"):
        ex.select(2.0)
    times = s.set_axis(pd.DatetimeIndex(["2024-01-01", None, "2024-01-03"] * 2))
    ex = Explorer(times)
    ex.select(pd.NaT)
    assert ex.listing.value == 1
    assert "Row 2 of 6 <small" in ex.header.value


@pytest.mark.parametrize("bad", [0.5, float("nan"), "1", None, True])
def test_step_takes_a_whole_number_only(ex, bad):
    ex.select(position=3)
    with pytest.raises(
        ValueError, match=rf"^delta must be a whole number, got {re.escape(repr(bad))}$"
    ):
        ex.step(bad)
    assert ex.listing.value == 3  # nothing moved
    ex.step(2.0)
    assert ex.listing.value == 5


def test_selecting_a_row_the_filters_hide_shows_it_with_a_note(scored):
    # before: row 0's detail under a list still highlighting another row, and no word
    ex = Explorer(scored)
    ex.search.value = "porterhouse"
    assert ex.positions == [18, 19] and ex.listing.value == 18
    ex.select(position=0)
    assert ex.selected == scored.index[0]
    assert ex.listing.value is None  # no line highlighted
    assert scored["question"].iloc[0] in ex.detail_html
    assert (
        "<b>Hidden by the current filters</b> (search &#x27;porterhouse&#x27;): this row is "
        "not in the list above" in ex.header.value
    )
    assert ex.positions == [18, 19]  # the filters are left as they are
    # a filter change that lets it through removes the note and highlights its line
    ex.search.value = ""
    assert ex.selected == scored.index[0] and ex.listing.value == 0
    assert "Hidden" not in ex.header.value
    # the note names every filter that hides the row, and step() goes back into the list
    ex.status.value = "no_ground_truth"  # context recall
    ex.search.value = "porterhouse"
    ex.select(position=1)
    status = scored["context_recall_status"].iloc[1]
    assert status != "no_ground_truth" and "porterhouse" not in str(scored["question"].iloc[1])
    assert (
        "(search &#x27;porterhouse&#x27;; context recall status no ground truth)" in ex.header.value
    )
    ex.step(1)
    assert ex.selected == ex.rows[0] and ex.listing.value == ex.positions[0]
    assert "Hidden" not in ex.header.value


def test_selecting_a_visible_row_has_no_hidden_note(ex, scored):
    ex.select(position=5)
    assert "Hidden" not in ex.header.value and ex.listing.value == 5


def test_a_frame_with_no_rows_says_so_not_that_no_row_matches():
    df = pd.DataFrame({"question": ["Where?"], "answer": ["Pier 4."], "contexts": [["Pier 4."]]})
    with pytest.warns(UserWarning, match="the frame has no rows, so nothing was scored"):
        empty = ragnotebook.faithfulness(df.iloc[:0], model="offline", progress=False)
    ex = Explorer(empty)
    assert ex.header.value == "<p><i>This frame has no rows.</i></p>"
    assert ex.page_label.value == "no rows"
    assert ex.rows == [] and ex.selected is None
    assert ex.prev_row_button.disabled and ex.next_row_button.disabled
    # a frame with rows that the filters all leave out still says so
    ex = Explorer(ragnotebook.faithfulness(df, model="offline", progress=False))
    ex.search.value = "lighthouse"
    assert ex.header.value == "<p><i>No rows match the filters.</i></p>"
    assert ex.page_label.value == "no rows match"
