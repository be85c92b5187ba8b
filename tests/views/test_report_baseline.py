"""The report against a baseline: ``report(df, path, baseline=..., on=...)``.

Every frame is scored with a :class:`~ragnotebook.MockJudge` whose verdicts are set per
question, so each mean, change, count and p-value below is worked out by hand.
"""

from __future__ import annotations

import datetime as dt
import json
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

import ragnotebook
from ragnotebook.views import _report
from ragnotebook.views._report import SCRIPT_COUNT, report

QUESTIONS = ["q1", "q2", "q3", "q4", "q5"]

#: Faithfulness per question: four answer claims, this share of them supported.
#: Changes, this run - baseline: -0.5, 0, +0.5, -1.0, 0 (mean -0.2; 1 up, 2 down, 2 same).
OLD_FAITH = {"q1": 1.0, "q2": 0.75, "q3": 0.5, "q4": 1.0, "q5": 0.25}
NEW_FAITH = {"q1": 0.5, "q2": 0.75, "q3": 1.0, "q4": 0.0, "q5": 0.25}
#: Context recall: 0, -0.5, 0, +0.5, 0 (mean 0; 1 up, 1 down, 3 same).
OLD_RECALL = {"q1": 1.0, "q2": 1.0, "q3": 0.5, "q4": 0.5, "q5": 1.0}
NEW_RECALL = {"q1": 1.0, "q2": 0.5, "q3": 0.5, "q4": 1.0, "q5": 1.0}


def _verdicts(shares, fail=()):
    """A verdict script: the question's share of four claims ``yes``, the rest ``no``;
    a question in ``fail`` makes the judge fail (status ``error``)."""

    def answer(task):
        if task.question in fail:
            return RuntimeError("the judge is down")
        k = round(shares[task.question or None] * 4)
        return ["yes"] * k + ["no"] * (4 - k)

    return answer


def scored_run(faith, recall=None, *, questions=None, judge_id="mock", fail=(), index=None):
    """The rows of ``questions`` scored on faithfulness (and context recall)."""
    questions = list(faith) if questions is None else questions
    rows = pd.DataFrame(
        {
            "question": questions,
            "answer": ["It is so."] * len(questions),
            "contexts": [["A chunk."]] * len(questions),
            "ground_truth": ["It is so."] * len(questions),
        },
        index=index,
    )
    judge = ragnotebook.MockJudge(
        extract_claims=lambda task: ["c1", "c2", "c3", "c4"],
        verify_claims=_verdicts(faith, fail),
        attribute_claims=_verdicts(recall or {}, fail),
        judge_id=judge_id,
    )
    metrics = ["faithfulness"] if recall is None else ["context_recall", "faithfulness"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "rows failed", for the frames with failures
        return rows.rag.evaluate(model=judge, metrics=metrics, progress=False)


@pytest.fixture(scope="module")
def old():
    return scored_run(OLD_FAITH, OLD_RECALL)


@pytest.fixture(scope="module")
def new():
    return scored_run(NEW_FAITH, NEW_RECALL)


class _Section(HTMLParser):
    """What the "Against the baseline" section shows, read as a browser reads it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.tables = []  # per table: rows of cell texts
        self.items = []  # per dropped row: {"metric", "row", "href", "text"}
        self.headings = []  # [tag, text]
        self.paragraphs = {}  # id -> text
        self.notes = []  # the comparison's notes
        self.section_text = []
        self.rtl_in_dir_auto = []  # for each chunk of text holding U+202E: inside dir=auto?
        self._open = []  # stack of (tag, attrs)
        self._list_metric = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and attrs.get("id") == "baseline":
            self.inside = True
        if not self.inside:
            return
        if tag in ("br", "meta", "input"):
            return
        self._open.append((tag, attrs))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.tables[-1][-1].append("")
        elif tag == "ol":
            self._list_metric = attrs.get("data-metric")
        elif tag == "li" and "data-row" in attrs:
            self.items.append(
                {
                    "metric": self._list_metric,
                    "row": int(attrs["data-row"]),
                    "href": None,
                    "text": "",
                }
            )
        elif tag == "a" and self.items and attrs.get("class") == "rnb-to-row":
            self.items[-1]["href"] = attrs["href"]
        elif tag in ("h3", "h4"):
            self.headings.append([tag, ""])

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag == "section":
            self.inside = False
            return
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self.inside:
            return
        self.section_text.append(data)
        tags = [t for t, _ in self._open]
        if "\u202e" in data:
            self.rtl_in_dir_auto.append(any(a.get("dir") == "auto" for _, a in self._open))
        if "td" in tags or "th" in tags:
            self.tables[-1][-1][-1] += data
        if "li" in tags and self.items and "ol" in tags:
            self.items[-1]["text"] += data
        if tags and tags[-1] in ("h3", "h4"):
            self.headings[-1][1] += data
        for tag, attrs in self._open:
            if tag == "p" and "id" in attrs:
                self.paragraphs[attrs["id"]] = self.paragraphs.get(attrs["id"], "") + data
            if tag == "ul":
                if tags[-1] == "li":
                    self.notes.append(data)
                break


def section(path):
    parser = _Section()
    parser.feed(Path(path).read_text(encoding="utf-8"))
    parser.close()
    return parser


def metric_rows(sec):
    """The metrics table: {metric label: [cells after the label]}."""
    table = next(t for t in sec.tables if t and t[0] and t[0][0] == "metric")
    return {cells[0]: cells[1:] for cells in table[1:]}


def dropped(sec, metric):
    return [
        (i["row"], i["href"], " ".join(i["text"].split()))
        for i in sec.items
        if i["metric"] == metric
    ]


def signed(value):
    return ("-" if value < 0 else "+") + ragnotebook.views._html.two_places(abs(value))


# ---------------------------------------------------------------- the numbers


def test_each_metric_against_the_baseline_by_hand(old, new, tmp_path):
    path = report(new, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    rows = metric_rows(section(path))
    expected = ragnotebook.compare(old, new)  # what evaluate --baseline computes
    faith = expected.loc["faithfulness"]
    # baseline (1 + .75 + .5 + 1 + .25) / 5 = 0.70, this run 2.5 / 5 = 0.50; the exact
    # sign-flip test on the changes -0.5, +0.5, -1.0: 6 of the 8 patterns reach |0.2|
    assert rows["faithfulness"] == [
        "0.70",
        "0.50",
        "-0.20",
        f"{signed(faith.ci_low)} to {signed(faith.ci_high)}",
        "0.7500",
        "5",
        "1",
        "2",
        "2",
        "0",
    ]
    assert float(faith.p_value) == 0.75
    recall = expected.loc["context_recall"]
    assert rows["context recall"] == [
        "0.80",
        "0.80",
        "+0.00",
        f"{signed(recall.ci_low)} to {signed(recall.ci_high)}",
        "1.0000",
        "5",
        "1",
        "1",
        "3",
        "0",
    ]
    assert list(rows) == ["context recall", "faithfulness"]


def test_the_p_value_is_compares_also_past_the_exact_test(scored, tmp_path):
    # the 48-row sample: more than 12 pairs, so compare() draws seeded random sign flips
    halved = scored.assign(faithfulness=scored["faithfulness"] * 0.5)
    path = report(
        halved, tmp_path / "r.html", baseline=scored, on=None, max_rows=0, plotly_js="cdn"
    )
    row = ragnotebook.compare(scored, halved, on=None).loc["faithfulness"]
    cells = metric_rows(section(path))["faithfulness"]
    assert cells[4] == f"{float(row.p_value):.4f} · significant"
    assert cells[0] == ragnotebook.views._html.two_places(float(row.mean_a))
    assert cells[5] == str(int(row.n_pairs))


# ---------------------------------------------------------------- the rows that dropped


def test_the_rows_that_dropped_most_in_order_with_links(old, new, tmp_path):
    path = report(new, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    sec = section(path)
    assert dropped(sec, "faithfulness") == [
        (3, "#row-3", "3 baseline 1.00 → this run 0.00 (-1.00) q4"),
        (0, "#row-0", "0 baseline 1.00 → this run 0.50 (-0.50) q1"),
    ]
    assert dropped(sec, "context_recall") == [
        (1, "#row-1", "1 baseline 1.00 → this run 0.50 (-0.50) q2")
    ]
    headings = [text for tag, text in sec.headings]
    assert headings == [
        "Rows that dropped most",
        "context recall: the 1 row that went down, largest drop first",
        "faithfulness: the 2 rows that went down, largest drop first",
    ]
    # every link points at a row's drill-down in the page
    html = path.read_text(encoding="utf-8")
    for _, href, _ in dropped(sec, "faithfulness"):
        assert f'<details class="rnb-row" id="{href[1:]}"' in html


def test_top_limits_the_list_and_says_of_how_many(old, new, tmp_path):
    path = report(new, tmp_path / "r.html", baseline=old, top=1, plotly_js="cdn")
    sec = section(path)
    assert [r for r, _, _ in dropped(sec, "faithfulness")] == [3]
    assert ["h4", "faithfulness: the 1 row that dropped most, of 2 that went down"] in (
        sec.headings
    )


def test_ties_keep_this_runs_row_order_and_a_row_left_out_of_the_drill_down_has_no_link(
    tmp_path,
):
    before = scored_run({"q1": 1.0, "q2": 1.0, "q3": 1.0})
    after = scored_run({"q1": 0.5, "q2": 0.25, "q3": 0.5})
    path = report(
        after,
        tmp_path / "r.html",
        baseline=before,
        sort_by="faithfulness",
        max_rows=1,
        plotly_js="cdn",
    )
    sec = section(path)
    assert dropped(sec, "faithfulness") == [
        (1, "#row-1", "1 baseline 1.00 → this run 0.25 (-0.75) q2"),
        (0, None, "0 (not in the rows below) baseline 1.00 → this run 0.50 (-0.50) q1"),
        (2, None, "2 (not in the rows below) baseline 1.00 → this run 0.50 (-0.50) q3"),
    ]


def test_no_row_went_down(old, tmp_path):
    path = report(old, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    sec = section(path)
    assert sec.items == []
    text = " ".join("".join(sec.section_text).split())
    assert "context recall: no compared row went down." in text
    assert "faithfulness: no compared row went down." in text
    assert metric_rows(sec)["faithfulness"][:8] == [
        "0.70",
        "0.70",
        "+0.00",
        "+0.00 to +0.00",
        "1.0000",
        "5",
        "0",
        "0",
    ]


# ---------------------------------------------------------------- rows without a partner


def test_rows_that_do_not_pair_are_counted(tmp_path):
    # the baseline has q6 and a row without a question; this run lacks q5 and has q7
    before = scored_run({**OLD_FAITH, "q6": 1.0, None: 1.0}, questions=[*QUESTIONS, "q6", None])
    after_faith = {k: v for k, v in NEW_FAITH.items() if k != "q5"} | {"q7": 0.0}
    after = scored_run(after_faith)
    with pytest.warns(UserWarning, match="report\\(\\): against the baseline: coverage differs"):
        path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
    sec = section(path)
    assert " ".join(sec.paragraphs["rnb-pairing"].split()) == (
        "4 rows of this run paired with the baseline on 'question' (this run has 5, the "
        "baseline 7). Not compared, as they have no partner: 3 rows only in the baseline, "
        "1 only in this run (of them, 1 in the baseline and 0 in this run have no value of "
        "'question', which pairs with nothing)."
    )
    # over the 4 pairs q1-q4: baseline 3.25 / 4, this run 2.25 / 4
    assert metric_rows(sec)["faithfulness"][:3] == ["0.81", "0.56", "-0.25"]
    assert metric_rows(sec)["faithfulness"][5] == "4"


def test_rows_without_an_index_label_are_counted_as_such(tmp_path):
    # on=None pairs by the index: a missing label pairs with nothing, and the page says so
    before = scored_run({"q1": 1.0, "q2": 1.0}, index=["r1", None])
    after = scored_run({"q1": 1.0, "q2": 1.0}, index=["r1", "r2"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # coverage differs
        path = report(after, tmp_path / "r.html", baseline=before, on=None, plotly_js="cdn")
    assert " ".join(section(path).paragraphs["rnb-pairing"].split()) == (
        "1 row of this run paired with the baseline on their index labels (this run has 2, "
        "the baseline 2). Not compared, as they have no partner: 1 row only in the baseline, "
        "1 only in this run (of them, 1 in the baseline and 0 in this run have no label, which "
        "pairs with nothing)."
    )


def test_paired_rows_unscored_on_one_side_are_left_out_and_counted(old, tmp_path):
    after = scored_run(NEW_FAITH, NEW_RECALL, fail=("q3",))  # q3 fails in this run
    with pytest.warns(UserWarning, match="1 row\\(s\\) scored in the baseline are unscored"):
        path = report(after, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    cells = metric_rows(section(path))["faithfulness"]
    # q3 (the only row that went up) is left out: changes -0.5, 0, -1.0, 0 over 4 rows
    assert cells[:3] == ["0.75", "0.38", "-0.38"]
    assert cells[5:] == [
        "4",
        "0",
        "2",
        "2",
        "1 (1 scored in the baseline only, 0 in this run only)",
    ]


def test_repeated_pairing_values_are_warned_about_and_noted(tmp_path):
    before = scored_run({"q1": 1.0, "q2": 1.0}, questions=["q1", "q1", "q2"])
    after = scored_run({"q1": 0.5, "q2": 1.0}, questions=["q1", "q1", "q2"])
    message = (
        "report(): against the baseline: 'question' repeats 1 value (on 2 rows) in the "
        "baseline; repeated values are paired by row label where both frames give a value's "
        "rows the same labels, else in order of appearance; pair on a column with one value "
        "per row (on='id') or on the index (on=None) to be sure"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
    assert message in [str(w.message) for w in caught]
    # in compare()'s class, so the command line can show its own message instead
    from ragnotebook.comparison import RepeatedKeyWarning

    assert {w.category for w in caught if "repeats" in str(w.message)} == {RepeatedKeyWarning}
    notes = [" ".join(n.split()) for n in section(path).notes]
    assert message.removeprefix("report(): against the baseline: ") in notes
    assert metric_rows(section(path))["faithfulness"][5:9] == ["3", "0", "2", "1"]


def test_a_caller_can_word_the_note_about_repeated_values_itself(tmp_path):
    # ragnotebook report puts its own message, naming --on, in place of compare()'s two
    from ragnotebook.views._baseline import repeated_key_note

    before = scored_run({"q1": 1.0, "q2": 1.0}, questions=["q1", "q1", "q2"])
    after = scored_run({"q1": 0.5, "q2": 1.0}, questions=["q1", "q1", "q2", "q3"])
    for note, shown in (("pass --on id", ["pass --on id"]), ("", [])):
        with warnings.catch_warnings(record=True) as caught, repeated_key_note(note):
            warnings.simplefilter("always")
            path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
        assert [" ".join(n.split()) for n in section(path).notes] == shown
        # the caller says the repeats; the coverage difference is still warned about
        said = [str(w.message) for w in caught]
        assert not [t for t in said if "repeats" in t], said
        assert any(t.startswith("report(): against the baseline: coverage differs") for t in said)
    # outside the block, compare()'s notes again
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
    assert any("(on='id')" in n for n in section(path).notes)


def test_a_metric_the_baseline_lacks_is_named_not_compared(old, tmp_path):
    faith_only = scored_run(OLD_FAITH)
    path = report(old, tmp_path / "r.html", baseline=faith_only, plotly_js="cdn")
    sec = section(path)
    assert list(metric_rows(sec)) == ["faithfulness"]
    assert sec.paragraphs["rnb-not-compared"] == (
        "Not compared: context recall (the baseline was not scored on it)."
    )


def test_on_none_pairs_by_the_index_labels(tmp_path):
    before = scored_run(OLD_FAITH, index=["a", "b", "c", "d", "e"])
    renamed = scored_run(
        {f"Q{k[1:]}": v for k, v in NEW_FAITH.items()}, index=["a", "b", "c", "d", "e"]
    )
    by_index = report(renamed, tmp_path / "i.html", baseline=before, on=None, plotly_js="cdn")
    sec = section(by_index)
    assert metric_rows(sec)["faithfulness"][:3] == ["0.70", "0.50", "-0.20"]
    assert "on their index labels" in sec.paragraphs["rnb-pairing"]
    assert dropped(sec, "faithfulness")[0] == (
        3,
        "#row-3",
        "d baseline 1.00 → this run 0.00 (-1.00) Q4",
    )


# ---------------------------------------------------------------- the judges of both runs


def _sides(sec):
    return next(t for t in sec.tables if t and t[0] and t[0][0] == "run")


def test_the_judges_of_both_runs_and_no_warning_when_they_agree(old, new, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about
        path = report(new, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    sec = section(path)
    assert _sides(sec) == [
        ["run", "rows", "judge", "model", "prompt versions"],
        ["baseline", "5", "mock", "mock", "—"],
        ["this run", "5", "mock", "mock", "—"],
    ]
    assert "rnb-other-judge" not in sec.paragraphs
    assert "rnb-judge-unknown" not in sec.paragraphs


def test_another_judge_is_a_visible_warning(old, tmp_path):
    other = scored_run(NEW_FAITH, NEW_RECALL, judge_id="mock-2")
    with pytest.warns(UserWarning, match="report\\(\\): the baseline was scored by another judge"):
        path = report(other, tmp_path / "r.html", baseline=old, plotly_js="cdn")
    sec = section(path)
    assert " ".join(sec.paragraphs["rnb-other-judge"].split()) == (
        "⚠ The baseline was scored by another judge than this run (judge 'mock' -> 'mock-2'; "
        "model 'mock' -> 'mock-2'): a difference may come from the judge, not the system; "
        "score both runs with the same judge to compare systems."
    )
    assert _sides(sec)[2] == ["this run", "5", "mock-2", "mock-2", "—"]


def test_prompt_versions_that_differ_are_named(old, new, tmp_path):
    before, after = old.copy(), new.copy()
    before.attrs = json.loads(json.dumps(old.attrs))
    after.attrs = json.loads(json.dumps(new.attrs))
    before.attrs["ragnotebook"]["prompt_versions"] = {"verify_claims": "v1", "explain": "v1"}
    after.attrs["ragnotebook"]["prompt_versions"] = {"verify_claims": "v2", "explain": "v1"}
    with pytest.warns(UserWarning, match="prompt verify_claims 'v1' -> 'v2'"):
        path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
    sec = section(path)
    assert _sides(sec)[1][4] == "explain v1, verify_claims v1"
    assert "(prompt verify_claims 'v1' -> 'v2')" in sec.paragraphs["rnb-other-judge"]


def test_a_baseline_without_run_metadata_says_the_judges_cannot_be_checked(old, new, tmp_path):
    bare = old.copy()
    bare.attrs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = report(new, tmp_path / "r.html", baseline=bare, plotly_js="cdn")
    sec = section(path)
    assert _sides(sec)[1] == ["baseline", "5", "unknown", "unknown", "unknown"]
    assert sec.paragraphs["rnb-judge-unknown"].startswith(
        "The baseline has no run metadata (a CSV, or a JSON Lines file without its .run.json)"
    )


# ---------------------------------------------------------------- untrusted text


HOSTILE_QUESTION = "<script>window.__xss=1</script>\u202eevil\x07 & <b>x</b>"


def test_a_hostile_question_and_label_are_escaped_in_the_section(tmp_path):
    questions = ["q1", HOSTILE_QUESTION]
    index = ["r1", '<img src=x onerror="alert(1)">']
    before = scored_run({"q1": 1.0, HOSTILE_QUESTION: 1.0}, questions=questions, index=index)
    after = scored_run({"q1": 1.0, HOSTILE_QUESTION: 0.0}, questions=questions, index=index)
    path = report(after, tmp_path / "r.html", baseline=before, plotly_js="cdn")
    html = path.read_text(encoding="utf-8")
    start = html.index('<section id="baseline">')
    raw = html[start : html.index("</section>", start)]
    assert "<script" not in raw and "<img" not in raw and "<b>" not in raw and "\x07" not in raw
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in raw
    assert 'title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"' in raw
    sec = section(path)
    # the control character as its picture; the override stays inside a dir="auto" element
    [(row, href, text)] = dropped(sec, "faithfulness")
    assert (row, href) == (1, "#row-1")
    assert text.endswith(
        "baseline 1.00 → this run 0.00 (-1.00) "
        "<script>window.__xss=1</script>\u202eevil\u2407 & <b>x</b>"
    )
    assert sec.rtl_in_dir_auto == [True]
    assert html.count("<script") == SCRIPT_COUNT


# ---------------------------------------------------------------- errors, before any HTML


def test_a_baseline_without_the_reports_metrics_is_refused_before_writing(new, tmp_path):
    unscored = new[["question", "answer", "contexts", "ground_truth"]]
    target = tmp_path / "new" / "r.html"
    with pytest.raises(ValueError) as caught:
        report(new, target, baseline=unscored)
    assert str(caught.value) == (
        "report(): cannot compare with the baseline (rows paired on 'question'): it has none "
        "of this frame's metrics (context_recall, faithfulness); it has no ragnotebook scores; "
        "pass an earlier run's scored frame"
    )
    assert not target.parent.exists()
    # a baseline scored on another metric only
    precision = new[["question"]].assign(context_precision=0.5, context_precision_status="ok")
    with pytest.raises(ValueError, match="it has context_precision; pass an earlier"):
        report(new, target, baseline=precision)
    assert not target.parent.exists()


def test_a_baseline_none_of_whose_rows_pairs_is_refused_before_writing(old, new, tmp_path):
    target = tmp_path / "new" / "r.html"
    other = old.assign(question=[f"other {q}" for q in old["question"]])
    with pytest.raises(ValueError) as caught:
        report(new, target, baseline=other)
    assert str(caught.value) == (
        "report(): cannot compare with the baseline (rows paired on 'question'): the two "
        "frames share no value of 'question', so no row pairs up; pass on= naming a column "
        "whose values both frames share, such as a question id"
    )
    with pytest.raises(ValueError, match="by the index labels\\): the two frames have no index"):
        report(new, target, baseline=old.set_axis(list("vwxyz")), on=None)
    with pytest.raises(ValueError, match="the baseline has no rows, so no row pairs up"):
        report(new, target, baseline=old.iloc[:0])
    assert not target.parent.exists()


def test_other_bad_baselines(old, new, tmp_path):
    target = tmp_path / "new" / "r.html"
    with pytest.raises(KeyError, match="on='qid' is not a column of the baseline"):
        report(new, target, baseline=old, on="qid")
    with pytest.raises(KeyError, match="on='qid' is not a column of this run"):
        report(new, target, baseline=old.assign(qid=1), on="qid")
    with pytest.raises(TypeError, match="baseline must be a pandas DataFrame"):
        report(new, target, baseline="old.jsonl")
    assert not target.parent.exists()


# ---------------------------------------------------------------- the page around it


@pytest.fixture
def frozen_clock(monkeypatch):
    """The header's "written" time, fixed, so two pages can be compared byte for byte."""

    class Clock(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return dt.datetime(2024, 1, 2, 3, 4, tzinfo=dt.UTC)

    monkeypatch.setattr(_report, "_dt", type("Clock", (), {"datetime": Clock}))


def test_without_a_baseline_the_page_has_no_trace_of_it(new, tmp_path, frozen_clock):
    plain = report(new, tmp_path / "a.html", plotly_js="cdn").read_bytes()
    # on= alone changes nothing: it is used only with a baseline
    assert (
        report(new, tmp_path / "b.html", plotly_js="cdn", baseline=None, on="x").read_bytes()
        == plain
    )
    text = plain.decode("utf-8")
    assert "baseline" not in text.lower() and "rnb-to-row" not in text
    assert '<nav><a href="#summary">Summary</a><a href="#charts">Charts</a>' in text


def test_the_section_follows_the_summary_and_the_page_keeps_its_three_scripts(
    old, new, tmp_path, frozen_clock
):
    path = report(new, tmp_path / "r.html", baseline=old)
    html = path.read_text(encoding="utf-8")
    assert html.index('<section id="summary">') < html.index('<section id="baseline">')
    assert html.index('<section id="baseline">') < html.index('<section id="charts">')
    assert '<a href="#summary">Summary</a><a href="#baseline">Against the baseline</a>' in html
    assert html.count("<script") == SCRIPT_COUNT
    # the accessor is the same call
    twin = new.rag.report(tmp_path / "twin.html", baseline=old, on="question")
    assert twin.read_bytes() == path.read_bytes()


@pytest.mark.browser
def test_the_link_opens_the_row_in_a_browser(old, new, tmp_path):
    from .test_browser import CHROMIUM, _open

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    path = report(new, tmp_path / "r.html", baseline=old)
    with sync_playwright() as p:
        from .test_browser import ARGS

        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx, page, events = _open(browser, path)
            page.fill("#rnb-filter", "q2")  # hides row 3, which faithfulness's first link opens
            assert page.evaluate("document.getElementById('row-3').style.display") == "none"
            page.click("a.rnb-to-row[href='#row-3']")
            page.wait_for_selector("#row-3[data-built] .rnb-card", timeout=10_000)
            assert page.evaluate("document.getElementById('row-3').open")
            assert page.evaluate("document.getElementById('rnb-filter').value") == ""
            assert events["errors"] == [] and events["requests"] == []
            ctx.close()
        finally:
            browser.close()


def test_two_metrics_the_baseline_lacks_are_named_with_a_plural(tmp_path):
    rows = pd.DataFrame(
        {
            "question": ["q1", "q2"],
            "answer": ["It is so."] * 2,
            "contexts": [["A chunk."]] * 2,
            "ground_truth": ["It is so."] * 2,
        }
    )
    judge = ragnotebook.MockJudge(
        extract_claims=lambda task: ["c1"],
        verify_claims=lambda task: ["yes"],
        attribute_claims=lambda task: ["yes"],
        judge_chunks=lambda task: ["yes"],
    )
    every = rows.rag.evaluate(model=judge, progress=False)
    faith_only = rows.rag.evaluate(model=judge, metrics=["faithfulness"], progress=False)
    path = report(every, tmp_path / "r.html", baseline=faith_only, plotly_js="cdn")
    assert section(path).paragraphs["rnb-not-compared"] == (
        "Not compared: context recall, context precision (the baseline was not scored on them)."
    )
