"""Rows without a question (summaries, NLI pairs): the list line and the missed-claims bars
show the start of the answer, marked "answer: ", instead of nothing."""

import pandas as pd
import pytest

import ragnotebook
from ragnotebook.views._data import row_gists
from ragnotebook.views.explorer import Explorer
from ragnotebook.views.missed import missed_claims
from ragnotebook.views.static import rows_html

_NBSP = "\u00a0"


@pytest.fixture(scope="module")
def no_question() -> pd.DataFrame:
    """Two rows with no question (NLI-like) around one with a question."""
    df = pd.DataFrame(
        {
            "question": [None, "Where is the museum?", None],
            "answer": [
                "The museum is on Pier 9.",
                "It has a rooftop cafe.",
                "The museum opened in 1990.",
            ],
            "contexts": [["The museum is on Pier 4. It opened in 1998."]] * 3,
        }
    )
    return ragnotebook.faithfulness(df, model="offline", progress=False)


def test_row_gists_fall_back_to_the_marked_answer():
    df = pd.DataFrame(
        {"question": ["Where?", None, "  ", None], "answer": ["a", "The sky.", "b", None]}
    )
    assert row_gists(df) == ["Where?", "answer: The sky.", "answer: b", ""]
    assert row_gists(pd.DataFrame({"answer": ["x"]})) == ["answer: x"]


def test_explorer_list_line_shows_the_answer_of_a_row_without_question(no_question):
    ex = Explorer(no_question)
    lines = [text.replace(_NBSP, " ") for text, _ in ex.listing.options]
    assert lines[0].split("│")[-1].strip() == "answer: The museum is on Pier 9."
    assert lines[1].split("│")[-1].strip() == "Where is the museum?"
    assert lines[2].split("│")[-1].strip() == "answer: The museum opened in 1990."


def test_static_view_summary_line_shows_the_answer(no_question):
    html = rows_html(no_question)
    assert '<span dir="auto">answer: The museum is on Pier 9.</span></summary>' in html
    assert '<span dir="auto">Where is the museum?</span></summary>' in html


def test_missed_claims_labels_and_axis_title_without_questions(no_question):
    fig = missed_claims(no_question)
    labels = [y for t in fig.data for y in t.y]
    assert sorted(labels) == [
        "0 · answer: The museum is on Pier 9.",
        "1 · Where is the museum?",
        "2 · answer: The museum opened in 1990.",
    ]
    assert fig.layout.yaxis.title.text == "row · question (or answer)"
    hovers = [h for t in fig.data for h in t.hovertext]
    assert any("<br>answer: The museum is on Pier 9.<br>" in h for h in hovers)
    # no row has a question: the title says answer
    only = missed_claims(no_question.iloc[[0, 2]])
    assert sorted(y for t in only.data for y in t.y) == [
        "0 · answer: The museum is on Pier 9.",
        "2 · answer: The museum opened in 1990.",
    ]
    assert only.layout.yaxis.title.text == "row · answer"
    # with groups, the title names the group too
    grouped = missed_claims(no_question.assign(system=["A", "B", "A"]), by="system")
    assert "0 · [A] · answer: The museum is on Pier 9." in [y for t in grouped.data for y in t.y]
    assert grouped.layout.yaxis.title.text == "row · group · question (or answer)"


def test_missed_claims_label_without_question_or_answer_has_no_dangling_separator():
    df = pd.DataFrame(
        {
            "ground_truth": ["The museum is on Pier 4.", "It opened in 1998."],
            "contexts": [["The cafe is open."]] * 2,
        }
    )
    fig = missed_claims(ragnotebook.context_recall(df, model="offline", progress=False))
    assert list(fig.data[0].y) == ["0", "1"]  # was '0 · '
    assert fig.layout.yaxis.title.text == "row"


def test_missed_claims_with_questions_keeps_its_labels(scored):
    fig = missed_claims(scored, top=3)
    assert fig.layout.yaxis.title.text == "row · question"
    assert all(" · " in y and "answer: " not in y for t in fig.data for y in t.y)
