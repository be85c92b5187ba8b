"""Views of a frame scored with ``columns=`` and read back from JSON Lines or CSV.

The mapping of roles to columns lives in ``attrs``, which those formats drop; before the
fix every view silently showed "(none)" for the question, answer and ground truth.
"""

from __future__ import annotations

import io
import json
import re
import warnings

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views import explore, missed_claims, report, scores

COLS = {"question": "q", "answer": "a", "contexts": "docs", "ground_truth": "gold"}


@pytest.fixture(scope="module")
def scored_custom() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "q": ["Where is the Harbor Museum?", "When did it open?"],
            "a": ["It is on Pier 4. It has a rooftop cafe.", "It opened in 1998."],
            "docs": [["The Harbor Museum is on Pier 4."], ["The museum opened in 1998."]],
            "gold": ["The museum is on Pier 4 near the ferry.", "It opened in 1998."],
        },
        index=["r1", "r2"],
    )
    return rn.evaluate(df, columns=COLS, model="offline", progress=False)


def jsonl_round_trip(df: pd.DataFrame) -> pd.DataFrame:
    text = df.reset_index(names="id").to_json(orient="records", lines=True)
    return pd.read_json(io.StringIO(text), lines=True).set_index("id")


def csv_round_trip(df: pd.DataFrame) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(df.to_csv()), index_col=0)


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("trip", [jsonl_round_trip, csv_round_trip])
def test_views_take_columns_after_a_round_trip(scored_custom, trip, tmp_path):
    back = trip(scored_custom)
    assert "ragnotebook" not in back.attrs  # the mapping is gone
    ex = quiet(back.rag.explore, mode="widget", columns=COLS)
    ex.select("r1")
    html = ex.detail_html
    assert "It is on Pier 4. It has a rooftop cafe." in html  # the answer
    assert "The museum is on Pier 4 near the ferry." in html  # the ground truth
    assert "Where is the Harbor Museum?" in html  # the question
    assert "(none)" not in html
    # search reads the answer and the ground truth too
    ex.search.value = "rooftop"
    assert ex.rows == ["r1"]

    static = quiet(back.rag.explore, mode="static", columns=COLS).to_html()
    assert "It opened in 1998." in static and "(none)" not in static

    path = quiet(back.rag.report, tmp_path / "r.html", plotly_js="cdn", columns=COLS)
    page = path.read_text(encoding="utf-8")
    payload = json.loads(page.split('id="rnb-data">')[1].split("</script>")[0])
    assert payload["rows"]["0"]["texts"] == [
        "Where is the Harbor Museum?",
        "It is on Pier 4. It has a rooftop cafe.",
        "The museum is on Pier 4 near the ferry.",
    ]

    fig = quiet(back.rag.plot.missed_claims, columns=COLS)
    assert any("Where is the Harbor Museum?" in y for t in fig.data for y in t.y)
    strip = quiet(back.rag.plot.scores, kind="strip", columns=COLS)
    assert any("When did it open?" in h for t in strip.data for h in (t.hovertext or []))


def test_without_columns_a_warning_names_the_missing_texts_and_the_fix(scored_custom):
    back = jsonl_round_trip(scored_custom)
    with pytest.warns(UserWarning) as caught:
        ex = explore(back, mode="widget")
    ours = [str(w.message) for w in caught if "no column was found" in str(w.message)]
    assert ours == [
        "explore(): no column was found for the 'question', 'answer' and 'ground_truth' roles, "
        "so their text shows as (none): this frame has no run metadata naming its columns (a "
        "scored frame read back from JSON Lines or CSV loses it) and no column has the usual "
        "name. 'q' looks like the question; 'gold' looks like the ground truth. Name them "
        "with columns=, as for evaluate(): explore(..., columns={'question': 'q', 'answer': "
        "'<column name>', 'ground_truth': 'gold'})."
    ]
    assert caught[0].filename == __file__
    assert "(none)" in ex.detail_html  # the scores still show; the texts cannot
    # each view names itself, once per call (the report's charts add nothing); the
    # missed-claims chart shows a row's answer where it has no question
    with pytest.warns(UserWarning) as caught:
        missed_claims(back)
    said = [str(w.message) for w in caught if "no column was found" in str(w.message)]
    assert said == [
        "missed_claims(): no column was found for the 'question' and 'answer' roles, so "
        "their text shows as (none): this frame has no run metadata naming its columns (a "
        "scored frame read back from JSON Lines or CSV loses it) and no column has the usual "
        "name. 'q' looks like the question. Name them with columns=, as for evaluate(): "
        "missed_claims(..., columns={'question': 'q', 'answer': '<column name>'})."
    ]
    with pytest.warns(UserWarning) as caught:
        scores(back, kind="strip")
    said = [str(w.message) for w in caught if "no column was found" in str(w.message)]
    assert said == [
        "scores(): no column was found for the 'question' role, so its text shows as "
        "(none): this frame has no run metadata naming its columns (a scored frame read "
        "back from JSON Lines or CSV loses it) and no column has the usual name. 'q' "
        "looks like the question. Name it with columns=, as for evaluate(): scores(..., "
        "columns={'question': 'q'})."
    ]


def test_an_empty_question_column_beside_the_mapped_one_is_said(scored_custom, tmp_path):
    # scored with columns={"question": "q", ...} on a frame that also has an all-null
    # "question" column (as NLI and summary sets do), then read back from JSON Lines: the
    # views found the empty column by its name and said nothing
    df = scored_custom.assign(
        question=None, answer=scored_custom["a"], ground_truth=scored_custom["gold"]
    )
    df["contexts"] = df["docs"]
    back = jsonl_round_trip(df)
    expected = (
        "{who}: the 'question' column is empty in every row, so the question shows as "
        "(none): this frame has no run metadata naming its columns (a scored frame read back "
        "from JSON Lines or CSV loses it), so the column with the usual name was read. 'q' "
        "looks like the question. Name it with columns=, as for evaluate(): {call}(..., "
        "columns={{'question': 'q'}})."
    )
    for who, view in (
        ("explore()", lambda: explore(back, mode="widget")),
        ("report()", lambda: report(back, tmp_path / "r.html")),
        ("missed_claims()", lambda: missed_claims(back)),
    ):
        with pytest.warns(UserWarning) as caught:
            view()
        said = [str(w.message) for w in caught if "empty in every row" in str(w.message)]
        assert said == [expected.format(who=who, call=who[:-2])], who  # once per call
    # with columns= (or the run metadata, in memory) nothing is said, and the question shows
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ex = explore(back, mode="widget", columns={"question": "q"})
        explore(df, mode="static")
    ex.select("r1")
    assert "Where is the Harbor Museum?" in ex.detail_html
    # a frame with no question at all (no look-alike holding text) is not nagged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        explore(back.drop(columns="q"), mode="static")
        explore(back.assign(q=None), mode="static")


def test_an_empty_column_and_a_missing_one_are_said_in_one_warning(scored_custom):
    back = jsonl_round_trip(scored_custom.assign(question=None))
    with pytest.warns(UserWarning) as caught:
        explore(back, mode="static")
    said = [str(w.message) for w in caught if "(none)" in str(w.message)]
    assert said == [
        "explore(): no column was found for the 'answer' and 'ground_truth' roles, so their "
        "text shows as (none), and the 'question' column is empty in every row, so the "
        "question shows as (none) too: this frame has no run metadata naming its columns (a "
        "scored frame read back from JSON Lines or CSV loses it), so the column with the "
        "usual name was read, and no column has the usual name of the answer and ground "
        "truth. 'q' looks like the question; 'gold' looks like the ground truth. Name them "
        "with columns=, as for evaluate(): explore(..., columns={'question': 'q', 'answer': "
        "'<column name>', 'ground_truth': 'gold'})."
    ]


def test_no_warning_where_the_texts_are_found(scored_custom, tmp_path):
    standard = scored_custom.rename(columns={v: k for k, v in COLS.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        explore(scored_custom, mode="static")  # in memory: the run metadata names them
        explore(jsonl_round_trip(standard), mode="static")  # the usual names
        scores(jsonl_round_trip(scored_custom))  # a histogram shows no text
        report(jsonl_round_trip(scored_custom), tmp_path / "r.html", columns=COLS)


def test_views_find_columns_as_the_intake_does(scored_custom):
    # case, outer blanks and spaces are ignored, as evaluate() ignores them
    back = jsonl_round_trip(scored_custom).rename(
        columns={"q": "Question ", "a": "Response", "docs": "Contexts", "gold": "Ground Truth"}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ex = explore(back, mode="widget")
    ex.select("r2")
    assert "It opened in 1998." in ex.detail_html and "(none)" not in ex.detail_html


def test_bad_columns_are_an_error_naming_the_view(scored_custom):
    with pytest.raises(ValueError, match=r"^report\(\): columns maps role 'answer' to column"):
        report(scored_custom, "never.html", columns={"answer": "reply"})
    with pytest.raises(ValueError, match=r"^explore\(\): unknown role 'anwser'"):
        explore(scored_custom, columns={"anwser": "a"})
    with pytest.raises(TypeError, match=r"^missed_claims\(\): columns must be a mapping"):
        missed_claims(scored_custom, columns=["q", "a"])


def test_columns_mapped_to_none_show_no_text(scored_custom):
    ex = explore(scored_custom, mode="widget", columns={"ground_truth": None})
    ex.select("r1")
    # the ground-truth block is empty (its claims still come from the recall verdicts)
    assert re.search(r"<h4>Ground truth</h4><div [^>]*rnb-empty[^>]*>\(none\)", ex.detail_html)
    assert "It is on Pier 4. It has a rooftop cafe." in ex.detail_html  # the rest as before
