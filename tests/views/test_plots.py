"""Figure data of the charts: positions, values, trace names, escaping."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import ragnotebook
from ragnotebook.views import compare, compare_table, missed_claims, precision_at_k, scores
from ragnotebook.views._style import STATUS_COLORS, VERDICT_COLORS

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_TAGS = {"<br>", "<b>", "</b>", "<sup>", "</sup>"}


def _strings(fig):
    """Every string plotly renders as pseudo-HTML in a figure."""
    out = []
    for trace in fig.data:
        for attr in ("name", "hovertext", "text", "y", "x"):
            value = getattr(trace, attr, None)
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, tuple | list):
                out += [v for v in value if isinstance(v, str)]
    layout = fig.layout
    out.append(layout.title.text or "")
    for ax in (layout.xaxis, layout.yaxis):
        out += [t for t in (ax.ticktext or ()) if isinstance(t, str)]
        out += [t for t in (ax.categoryarray or ()) if isinstance(t, str)]
    out += [a.text for a in layout.annotations if a.text]
    return out


def assert_pseudo_html_safe(fig):
    for s in _strings(fig):
        tags = set(re.findall(r"<[^<>]*>", s))
        assert tags <= ALLOWED_TAGS, (tags, s)
        stripped = re.sub("|".join(map(re.escape, ALLOWED_TAGS)), "", s)
        assert "<" not in stripped and ">" not in stripped, s


# --------------------------------------------------------------------------- precision@k


def test_precision_at_k_values_positions_and_names(precision_frame):
    fig = precision_at_k(precision_frame)
    assert isinstance(fig, go.Figure)
    band, bars, line = fig.data
    assert [t.name for t in fig.data] == [
        "interquartile range",
        "share of relevant chunks",
        "mean precision@k",
    ]
    # rows: [0, 1/2, 2/3], [1, 1/2], [1, 1, 2/3, 3/4]
    assert list(line.x) == [1, 2, 3, 4]
    np.testing.assert_allclose(
        line.y, [2 / 3, (0.5 + 0.5 + 1) / 3, (2 / 3 + 2 / 3) / 2, 0.75], atol=1e-6
    )
    np.testing.assert_allclose(bars.y, [2 / 3, 2 / 3, 0.5, 1.0], atol=1e-6)
    assert "rank 3: 1 of 2 chunks relevant (50%)" in bars.hovertext[2]
    assert "rows with at least 4 chunks: 1" in line.hovertext[3]
    # closed band polygon: upper edge forwards, lower edge backwards
    assert list(band.x) == [1, 2, 3, 4, 4, 3, 2, 1]
    assert band.fill == "toself"
    assert fig.layout.xaxis.title.text.startswith("rank k")
    assert fig.layout.yaxis.range == (0, 1.05)


def test_precision_at_k_matches_chunks_table(scored):
    fig = precision_at_k(scored)
    line = fig.data[-1]
    expected = scored.rag.chunks().groupby("position")["precision_at_k"].mean()
    np.testing.assert_allclose(line.y, expected.loc[list(line.x)].to_numpy(), atol=1e-6)


def test_precision_at_k_groups_band_and_rows(precision_frame):
    fig = precision_at_k(precision_frame, by="group", band="ci", per_row=True, max_k=2)
    names = [t.name for t in fig.data]
    assert names[0] == "one row"
    assert "one: 95% bootstrap CI of the mean" in names
    assert "two: mean precision@k" in names
    two = next(t for t in fig.data if t.name == "two: mean precision@k")
    assert list(two.y) == [1.0, 0.5]
    one = next(t for t in fig.data if t.name == "one: mean precision@k")
    assert list(one.y) == [0.5, 0.75]
    # each group's line sits on the centre of its own bars (bars side by side per rank)
    for name, line in (("one", one), ("two", two)):
        bars = next(t for t in fig.data if t.name == f"{name}: share of relevant chunks")
        centres = [k + bars.offset + bars.width / 2 for k in bars.x]
        assert list(line.x) == pytest.approx(centres)
        assert [round(x) for x in line.x] == [1, 2]
    assert one.x[0] < two.x[0]
    # one legend entry per group: band and bars follow their line's legend group
    shown = [t.name for t in fig.data if t.showlegend is not False and t.name != "one row"]
    assert shown == ["one: mean precision@k", "two: mean precision@k"]
    assert {t.legendgroup for t in fig.data[1:] if t.name.startswith("one")} == {"one"}
    # per-row lines: three rows, separated by None
    assert list(fig.data[0].y).count(None) == 3
    # the same seed gives the same band
    again = precision_at_k(precision_frame, by="group", band="ci", per_row=True, max_k=2)
    assert fig.data[1].y == again.data[1].y


def test_precision_at_k_errors(scored, precision_frame):
    with pytest.raises(ValueError, match="band"):
        precision_at_k(scored, band="sd")
    with pytest.raises(KeyError, match="nope"):
        precision_at_k(scored, by="nope")
    with pytest.raises(ValueError, match="theme"):
        precision_at_k(scored, theme="blue")
    with pytest.raises(ValueError, match="no ragnotebook scores"):
        precision_at_k(pd.DataFrame({"question": ["q"]}))


def test_precision_group_names_are_escaped(hostile):
    fig = precision_at_k(hostile, by="retriever")
    assert_pseudo_html_safe(fig)
    names = [t.name for t in fig.data]
    assert '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;: mean precision@k' in names
    assert "&lt;i&gt;plain&lt;/i&gt;: mean precision@k" in names


# --------------------------------------------------------------------------- scores


def test_scores_keep_statuses_apart(scored):
    fig = scores(scored)
    status = {m: scored[f"{m}_status"].value_counts() for m in ("context_recall", "faithfulness")}
    hist = [t for t in fig.data if t.name != "rows by status"]
    by_axis = {}
    for t in hist:
        by_axis.setdefault(t.xaxis, []).append(t)
    recall = {t.name: sum(t.y) for t in by_axis["x"]}
    faith = {t.name: sum(t.y) for t in by_axis["x3"]}
    # rows without ground truth never enter the recall histogram (not folded into 0)
    assert recall == {"ok": status["context_recall"]["ok"]}
    # the 16 HotpotQA rows have no answer: counted by status, never scored as 0
    assert faith == {"ok": status["faithfulness"]["ok"]}
    counts = next(t for t in fig.data if t.name == "rows by status" and t.xaxis == "x6")
    # they have status no_claims, but no answer: a bar of their own, not "no claims"
    assert list(counts.x) == ["ok", "no answer"] and list(counts.y) == [32, 16]
    assert "not scored" in counts.hovertext[1]
    # bottom row: every row by status, including unscored ones
    recall_status = next(t for t in fig.data if t.name == "rows by status" and t.xaxis == "x4")
    assert list(recall_status.x) == ["ok", "no ground truth"]
    assert list(recall_status.y) == [32, 16]
    assert "(not scored)" in recall_status.hovertext[1]
    # legend shows each status once
    legend = [t.name for t in fig.data if t.showlegend is not False]
    assert legend == ["ok"]  # no measured no_claims row in the sample: no such trace
    assert fig.layout.xaxis.title.text == "score (0–1)"


def test_scores_show_a_measured_zero_apart():
    sample = ragnotebook.load_sample("quickstart")
    refused = sample["answer"].fillna("Sorry, I could not find that in the provided documents.")
    refusal = sample.assign(answer=refused).rag.faithfulness(model="offline", progress=False)
    fig = scores(refusal, metrics=["faithfulness"])
    no_claims = next(t for t in fig.data if t.name == "no claims")
    assert list(no_claims.y) == [16] + [0] * 9  # a refusal is a real 0, shown in its own colour
    assert no_claims.marker.color == STATUS_COLORS["no_claims"]
    counts = next(t for t in fig.data if t.name == "rows by status")
    assert list(counts.x) == ["ok", "no claims"] and list(counts.y) == [32, 16]
    assert "(a measured 0)" in counts.hovertext[1]


def test_no_context_is_a_measured_zero_for_recall_but_unscored_for_precision():
    """Nothing retrieved: recall and faithfulness score 0, precision has no score (<NA>)."""
    df = pd.DataFrame(
        {
            "question": ["Where?", "When?"],
            "answer": ["It is on Pier 4.", "In 1998."],
            "contexts": [["The museum is on Pier 4."], []],
            "ground_truth": ["The museum is on Pier 4.", "It opened in 1998."],
        }
    )
    out = df.rag.evaluate(model="offline", progress=False)
    assert out["context_precision"].isna().tolist() == [False, True]
    fig = scores(out)
    counts = {t.xaxis: t for t in fig.data if t.name == "rows by status"}
    by_metric = dict(zip(("x4", "x5", "x6"), counts.values(), strict=True))
    recall, precision, faith = by_metric["x4"], by_metric["x5"], by_metric["x6"]
    assert list(recall.x) == list(precision.x) == ["ok", "no context"]
    assert recall.hovertext[1] == "context recall: 1 row no context (a measured 0)"
    assert faith.hovertext[1] == "faithfulness: 1 row no context (a measured 0)"
    assert precision.hovertext[1] == (
        "context precision: 1 row no context "
        "(nothing retrieved: precision is undefined, so not scored)"
    )
    # precision's no_context row is in no histogram bar; recall's is, as a 0
    top = {(t.xaxis, t.name): int(sum(t.y)) for t in fig.data if t.name != "rows by status"}
    assert top == {
        ("x", "ok"): 1,
        ("x", "no context"): 1,
        ("x2", "ok"): 1,
        ("x3", "ok"): 1,
        ("x3", "no context"): 1,
    }
    assert out.rag.summary()["scored"].to_dict() == {
        "context_recall": "2/2",
        "context_precision": "1/2",
        "faithfulness": "2/2",
    }


def test_scores_count_no_answer_apart_as_summary_does(unanswered):
    """A refusal is a measured 0, a missing answer is not scored: two bars, as summary()."""
    s = unanswered.rag.summary().loc["faithfulness"]
    assert (s["scored"], s["ok"], s["no_claims"], s["no_answer"]) == ("2/3", 1, 2, 1)
    fig = scores(unanswered, metrics=["faithfulness"])
    counts = next(t for t in fig.data if t.name == "rows by status")
    assert list(counts.x) == ["ok", "no claims", "no answer"]
    assert list(counts.y) == [s["ok"], s["no_claims"] - s["no_answer"], s["no_answer"]]
    assert counts.marker.color[2] == STATUS_COLORS["no_answer"] != STATUS_COLORS["no_claims"]
    assert "1 row no answer" in counts.hovertext[2] and "not scored" in counts.hovertext[2]
    # the histogram holds the two scored rows only: the refusal's 0 in "no claims"
    hist = {t.name: int(sum(t.y)) for t in fig.data if t.name != "rows by status"}
    assert hist == {"ok": 1, "no claims": 1}


def test_scores_bins_and_values(precision_frame):
    fig = scores(precision_frame, bins=4)
    ok = fig.data[0]
    assert list(ok.x) == [0.125, 0.375, 0.625, 0.875]
    # average precisions: (1/2+2/3)/2=0.583, 1.0, (1+1+3/4)/3=0.917
    assert list(ok.y) == [0, 0, 1, 2]


def test_scores_strip_and_metric_selection(hostile):
    fig = scores(hostile, kind="strip", metrics=["faithfulness"])
    dots = fig.data[0]
    assert dots.mode == "markers" and list(dots.x) == [1.0, 1.0]
    assert dots.name == "ok"
    assert_pseudo_html_safe(fig)
    assert any("&lt;i&gt;r1&lt;/i&gt;" in h for h in dots.hovertext)
    with pytest.raises(ValueError, match="kind"):
        scores(hostile, kind="violin")
    with pytest.raises(ValueError, match="unknown metric 'relevancy'; expected one of"):
        scores(hostile, metrics=["relevancy"])


def test_the_strip_lists_only_statuses_a_metric_holds_scored_rows_in():
    # one row with no chunks: recall and faithfulness have a scored no_context row,
    # precision (NaN there) does not, and no metric here has a no_claims row
    df = pd.DataFrame(
        {
            "question": ["Where is the depot?", "Where is the museum?"],
            "answer": ["The depot is on Pier 4.", "The museum is on Pier 9."],
            "contexts": [["The depot is on Pier 4."], []],
            "ground_truth": ["The depot is on Pier 4.", "The museum is on Pier 9."],
        }
    )
    s = df.rag.evaluate(model="offline", progress=False)
    fig = scores(s, kind="strip")
    ticks = [fig.layout[k].ticktext for k in ("yaxis", "yaxis2", "yaxis3")]
    assert ticks == [("ok", "no context"), ("ok",), ("ok", "no context")]
    dots = [t for t in fig.data if t.type == "scatter"]
    assert [t.name for t in dots] == ["ok", "no context", "ok", "ok", "no context"]
    for trace in dots:  # each dot sits on its own status's line
        assert {round(y) for y in trace.y} == {("ok", "no context").index(trace.name)}


def test_charts_with_no_scored_row_say_so(scored):
    def down(task):
        raise RuntimeError("judge down")

    judge = ragnotebook.MockJudge(extract_claims=down, judge_chunks=down)
    failed = pd.DataFrame(
        {
            "question": ["Where is the depot?"] * 2,
            "answer": ["The depot is on Pier 4."] * 2,
            "contexts": [["The depot is on Pier 4."]] * 2,
            "ground_truth": ["The depot is on Pier 4."] * 2,
        }
    )
    with pytest.warns(UserWarning):
        failed = failed.rag.evaluate(model=judge, progress=False)
    notes = [a.text for a in precision_at_k(failed).layout.annotations]
    assert notes == [
        "No row could be scored with context precision: see the statuses in summary() or "
        "plot.scores()"
    ]
    notes = [a.text for a in scores(failed).layout.annotations]
    assert notes.count("no row scored:<br>see the statuses below") == 3
    assert not [a for a in precision_at_k(scored).layout.annotations]  # only when empty


def test_scores_accept_the_metric_aliases_evaluate_accepts(scored, precision_frame):
    titles = [a.text for a in scored.rag.plot.scores(metrics=["recall"]).layout.annotations]
    assert titles == ["context recall"]
    fig = scores(scored, metrics=["faithful", "precision", "context_precision"])
    assert [a.text for a in fig.layout.annotations] == ["faithfulness", "context precision"]
    assert [a.text for a in scores(scored, metrics="recall").layout.annotations] == [
        "context recall"
    ]
    with pytest.raises(ValueError, match="unknown metric 'bogus'; expected one of context_recall"):
        scored.rag.plot.scores(metrics=["bogus"])
    with pytest.raises(ValueError, match="'faithfulness' is not scored in this frame"):
        scores(precision_frame, metrics=["faithfulness"])
    with pytest.raises(ValueError, match="metrics is empty"):
        scores(scored, metrics=[])


def test_dark_theme_has_dark_background(scored):
    fig = scores(scored, theme="dark")
    assert fig.layout.paper_bgcolor == "#16181C"
    assert fig.layout.font.color == "#E6E6E6"


# --------------------------------------------------------------------------- missed claims


def test_missed_claims_counts_order_and_hover(scored):
    fig = missed_claims(scored, top=50)
    assert [t.name for t in fig.data] == [
        "ground-truth claim not found in chunks",
        "answer claim contradicted",
        "answer claim not verifiable",
    ]
    claims = scored.rag.claims()
    problem = claims[
        ((claims.metric == "context_recall") & (claims.verdict == "no"))
        | ((claims.metric == "faithfulness") & claims.verdict.isin(["no", "unsure"]))
    ]
    totals = problem.groupby("row", sort=False).size()
    labels = list(fig.layout.yaxis.categoryarray)
    assert len(labels) == len(totals)
    shown = {}
    for t in fig.data:
        for x, y in zip(t.x, t.y, strict=True):
            shown[y] = shown.get(y, 0) + x
    counts = [shown[label] for label in labels]
    assert counts == sorted(counts, reverse=True)  # worst first
    assert sum(counts) == len(problem)
    assert fig.layout.yaxis.autorange == "reversed"
    recall = fig.data[0]
    assert recall.marker.color == VERDICT_COLORS["no"]
    assert all("ground-truth claim not found" in h for h in recall.hovertext)
    assert len(missed_claims(scored, top=3).layout.yaxis.categoryarray) == 3


def test_missed_claims_keeps_its_legend_with_one_kind_of_problem(scored):
    # recall only: one trace with bars, and plotly hid a legend of one visible trace
    only_recall = scored.drop(columns=[c for c in scored.columns if c.startswith("faithful")])
    fig = missed_claims(only_recall)
    assert fig.layout.showlegend is True
    legend = [t.name for t in fig.data if t.showlegend]
    assert legend == ["ground-truth claim not found in chunks"]


def test_missed_claims_hover_is_escaped(hostile):
    fig = missed_claims(hostile)
    assert_pseudo_html_safe(fig)
    hover = " ".join(fig.data[0].hovertext)
    assert "Use &lt;b&gt;only&lt;/b&gt; the &lt;br&gt; tag; x&lt;y &amp; y&gt;z" in hover
    assert '&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;' in hover


def test_missed_claims_without_problems():
    df = pd.DataFrame(
        {"question": ["q"], "answer": ["Sky is blue."], "contexts": [["Sky is blue."]]}
    )
    out = df.rag.faithfulness(model="offline", progress=False)
    fig = missed_claims(out)
    assert all(len(t.x) == 0 for t in fig.data)
    # a plain note instead of empty axes
    assert fig.layout.annotations[0].text.startswith("No missed or unsupported claims")
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    assert fig.layout.showlegend is False


def _pier(n=1):
    return pd.DataFrame(
        {
            "question": ["Where?"] * n,
            "answer": ["It is on Pier 4."] * n,
            "contexts": [["The museum is on Pier 4."]] * n,
            "ground_truth": ["The museum is on Pier 4."] * n,
        }
    )


def _failing_judge():
    """The first faithfulness call fails; the rest are the offline judge's."""
    return ragnotebook.MockJudge(
        scripts={"faithfulness.verify_claims": [RuntimeError("down")]},
        fallback=ragnotebook.OfflineJudge(),
    )


def test_missed_claims_says_no_row_could_be_checked_when_every_row_errored():
    out = ragnotebook.faithfulness(_pier(), model=_failing_judge(), progress=False)
    assert out["faithfulness_status"].tolist() == ["error"]
    fig = missed_claims(out)
    assert fig.layout.annotations[0].text == (
        "No claim could be checked: no row was scored by faithfulness."
        "<br>faithfulness: 0 of 1 row checked (1 errored)"
    )
    assert fig.layout.title.text == "Missed and unsupported claims<br><sup>1 row in all</sup>"


def test_missed_claims_of_a_frame_with_no_rows_says_so():
    with pytest.warns(UserWarning, match="the frame has no rows, so nothing was scored"):
        out = ragnotebook.faithfulness(_pier().iloc[:0], model="offline", progress=False)
    fig = missed_claims(out)
    assert fig.layout.annotations[0].text == "The frame has no rows, so no claim was checked."


def test_missed_claims_all_supported_is_said_of_the_checked_rows_only():
    # the scripted failure is used up by the first row; the fallback answers the rest
    with pytest.warns(UserWarning, match="ran out after 1 replies; the fallback judge"):
        out = ragnotebook.faithfulness(_pier(3), model=_failing_judge(), progress=False)
    assert out["faithfulness_status"].tolist() == ["error", "ok", "ok"]
    assert missed_claims(out).layout.annotations[0].text == (
        "No missed or unsupported claims in the rows checked: every answer claim is "
        "supported by the chunks.<br>faithfulness: 2 of 3 rows checked (1 errored)"
    )


def test_missed_claims_counts_not_run_and_unanswered_rows_as_unchecked(unanswered):
    df = _pier()
    mixed = pd.concat(
        [
            ragnotebook.faithfulness(df, model="offline", progress=False),
            ragnotebook.context_recall(df, model="offline", progress=False),
        ],
        ignore_index=True,
    )
    assert missed_claims(mixed).layout.annotations[0].text == (
        "No missed or unsupported claims in the rows checked: every ground-truth claim was "
        "found in the chunks<br>and every answer claim is supported by the chunks."
        "<br>context recall: 1 of 2 rows checked (1 not run)"
        "<br>faithfulness: 1 of 2 rows checked (1 not run)"
    )
    # the refusal is checked (a measured 0 with no claim), the missing answer is not
    refusal_and_missing = unanswered.iloc[1:]
    note = missed_claims(refusal_and_missing, top=5).layout.annotations[0].text
    assert note.endswith("<br>faithfulness: 1 of 2 rows checked (1 with no answer)")


def test_missed_claims_subtitle_counts_the_unchecked_rows_beside_the_bars(scored):
    """Before, only the empty chart's note said which rows were not checked."""
    fig = missed_claims(scored, top=5)
    assert fig.layout.title.text == (
        "Missed and unsupported claims, worst rows first<br><sup>5 of 26 rows with problem "
        "claims shown (48 rows in all); hover a bar to read its claims"
        "<br>context recall: 16 of 48 rows not checked (16 with no ground truth)"
        "<br>faithfulness: 16 of 48 rows not checked (16 with no answer)</sup>"
    )
    assert fig.layout.margin.t == 150 + 2 * 18  # room for the two added lines


def test_missed_claims_subtitle_counts_errored_and_not_run_rows():
    df = pd.DataFrame(
        {
            "question": ["Where?"] * 3,
            "answer": ["It is on Pier 4. It has a cafe."] * 3,
            "contexts": [["The museum is on Pier 4."]] * 3,
            "ground_truth": ["The museum is on Pier 4."] * 3,
        }
    )
    faith = ragnotebook.faithfulness(df, model="offline", progress=False)
    faith.loc[0, ["faithfulness", "faithfulness_status"]] = [float("nan"), "error"]
    mixed = pd.concat(
        [faith, ragnotebook.context_recall(df.iloc[:1], model="offline", progress=False)],
        ignore_index=True,
    )
    title = missed_claims(mixed).layout.title.text
    assert title.endswith(
        "(4 rows in all); hover a bar to read its claims"
        "<br>context recall: 3 of 4 rows not checked (3 not run)"
        "<br>faithfulness: 2 of 4 rows not checked (1 errored, 1 not run)</sup>"
    )
    # a status the toolkit does not know is named, escaped
    odd = faith.copy()
    odd.loc[0, "faithfulness_status"] = "<b>odd</b>"
    title = missed_claims(odd).layout.title.text
    assert title.endswith(
        "faithfulness: 1 of 3 rows not checked (1 with status &lt;b&gt;odd&lt;/b&gt;)</sup>"
    )
    # every row checked: the subtitle is as before, with no added line
    fig = missed_claims(ragnotebook.faithfulness(df, model="offline", progress=False))
    assert fig.layout.title.text.endswith("hover a bar to read its claims</sup>")
    assert fig.layout.margin.t == 150


def test_zero_limits_are_rejected(scored):
    with pytest.raises(ValueError, match="max_k"):
        precision_at_k(scored, max_k=0)
    with pytest.raises(ValueError, match="max_k"):
        precision_at_k(scored, max_k=-2)
    with pytest.raises(ValueError, match="top"):
        missed_claims(scored, top=0)
    assert len(precision_at_k(scored, max_k=1).data[-1].x) == 1


BAD_NUMBERS = (0, -3, 2.5, float("nan"), float("inf"), "5", None, True)


@pytest.mark.parametrize("bad", BAD_NUMBERS)
def test_scores_bins_must_be_a_whole_number_of_at_least_1(scored, bad):
    # before: bins=0 a ZeroDivisionError, -3 a numpy error, 2.5 a TypeError
    with pytest.raises(
        ValueError,
        match=rf"^bins must be a whole number of at least 1, got {re.escape(repr(bad))}$",
    ):
        scores(scored, bins=bad)


@pytest.mark.parametrize(
    ("call", "param", "rule", "bad"),
    [
        (
            lambda s, v: precision_at_k(s, max_k=v),
            "max_k",
            "a whole number of at least 1 or None",
            2.5,
        ),
        (
            lambda s, v: precision_at_k(s, max_k=v),
            "max_k",
            "a whole number of at least 1 or None",
            float("nan"),
        ),
        (
            lambda s, v: precision_at_k(s, band="ci", seed=v),
            "seed",
            "a whole number of at least 0 or None",
            -1,
        ),
        (
            lambda s, v: precision_at_k(s, band="ci", seed=v),
            "seed",
            "a whole number of at least 0 or None",
            0.5,
        ),
        (lambda s, v: missed_claims(s, top=v), "top", "a whole number of at least 1", float("nan")),
        (lambda s, v: missed_claims(s, top=v), "top", "a whole number of at least 1", None),
        (
            lambda s, v: compare_table(s, s, on=None, n_boot=v),
            "n_boot",
            "a whole number of at least 0",
            -3,
        ),
        (
            lambda s, v: compare(s, s, on=None, n_boot=v),
            "n_boot",
            "a whole number of at least 0",
            2.5,
        ),
        (
            lambda s, v: compare_table(s, s, on=None, seed=v),
            "seed",
            "a whole number of at least 0",
            -1,
        ),
        (lambda s, v: compare(s, s, on=None, seed=v), "seed", "a whole number of at least 0", None),
        (
            lambda s, v: compare_table(s, s, on=None, ci=v),
            "ci",
            "a number between 0 and 1 (exclusive)",
            "95%",
        ),
        (
            lambda s, v: compare(s, s, on=None, ci=v),
            "ci",
            "a number between 0 and 1 (exclusive)",
            True,
        ),
    ],
)
def test_every_numeric_chart_option_is_checked_naming_it(scored, call, param, rule, bad):
    with pytest.raises(
        ValueError, match=rf"^{param} must be {re.escape(rule)}, got {re.escape(repr(bad))}$"
    ):
        call(scored, bad)


def test_valid_numeric_options_still_work(scored):
    assert len(scores(scored, bins=3.0).data[0].x) == 3  # a whole float is a whole number
    assert len(precision_at_k(scored, max_k=np.int64(2)).data[-1].x) == 2
    assert precision_at_k(scored, band="ci", seed=None).data[-1].name == "mean precision@k"
    zero = compare_table(scored, scored, on=None, n_boot=0)  # no resample: the mean itself
    assert (zero["ci_low"] == zero["mean_diff"]).all() and (
        zero["ci_high"] == zero["mean_diff"]
    ).all()


def test_precision_bars_are_lighter_than_the_line_and_band_shows_in_dark(scored):
    light = precision_at_k(scored)
    band, bars, line = light.data
    assert bars.marker.color != line.line.color
    assert bars.marker.color.startswith("rgba(140,140,140")  # neutral grey
    dark_band = precision_at_k(scored, theme="dark").data[0]
    alpha = lambda c: float(c.rsplit(",", 1)[1].rstrip(")"))  # noqa: E731
    assert alpha(dark_band.fillcolor) >= 2 * alpha(band.fillcolor)


def test_precision_hover_uses_singular_for_one_chunk(precision_frame):
    line = precision_at_k(precision_frame).data[-1]
    assert "rows with at least 1 chunk: 3" in line.hovertext[0]
    assert "rows with at least 2 chunks: 3" in line.hovertext[1]


# --------------------------------------------------------------------------- compare


def test_compare_table_paired_differences_and_ci(scored):
    worse = scored.copy()
    worse["faithfulness"] = worse["faithfulness"] * 0.5
    t = compare_table(scored, worse, on=None, n_boot=500, seed=3)
    row = t.loc["faithfulness"]
    a = scored.loc[scored.faithfulness_status.eq("ok"), "faithfulness"]
    assert row["n_pairs"] == 32  # the 16 rows without an answer are not scored
    assert row["mean_diff"] == pytest.approx(-a.astype(float).mean() / 2)
    assert row["ci_low"] <= row["mean_diff"] <= row["ci_high"]
    assert not row["coverage_flag"]
    assert t.loc["context_recall", "n_pairs"] == 32  # rows without ground truth are not pairs
    assert t.equals(compare_table(scored, worse, on=None, n_boot=500, seed=3))  # seeded


def test_compare_flags_coverage_and_unmatched(scored):
    other = scored.copy()
    first = other.index[0]
    other.loc[first, "context_recall_status"] = "error"
    other.loc[first, "context_recall"] = pd.NA
    other = other.drop(other.index[1])
    with pytest.warns(UserWarning, match="compare_table\\(\\): coverage differs"):
        t = compare_table(scored, other, on=None)
    assert t.loc["context_recall", "scored_only_a"] == 1
    assert t.loc["context_recall", "coverage_flag"]
    assert t.loc["context_recall", "unmatched_a"] == 1
    # no pair is scored on one side only, but a row of A has no partner: flagged too
    assert t.loc["context_precision", "scored_only_a"] == 0
    assert t.loc["context_precision", "coverage_flag"]
    with pytest.warns(UserWarning, match="1 row\\(s\\) only in A"):
        fig = compare(scored, other, on=None, labels=("BM25", "<dense>"))
    ticks = list(fig.layout.xaxis.ticktext)
    # horizontal labels of short lines: tilted, plotly dropped the last one at ~800 px
    assert fig.layout.xaxis.tickangle == 0
    assert max(len(re.sub("<[^>]+>", "", line)) for t in ticks for line in t.split("<br>")) < 45
    assert ticks[0].startswith("context recall ⚠")
    assert "scored only in BM25 1 · &lt;dense&gt; 0" in ticks[0]
    assert "no partner: BM25 1 · &lt;dense&gt; 0" in ticks[1]
    assert "&lt;dense&gt;" in fig.layout.title.text
    assert_pseudo_html_safe(fig)
    mean = fig.data[1]
    assert mean.name == "mean difference"
    assert list(mean.y) == pytest.approx(t["mean_diff"].tolist())
    assert list(mean.error_y.array) == pytest.approx((t["ci_high"] - t["mean_diff"]).tolist())


def test_compare_names_the_metrics_scored_in_one_frame_only(scored):
    only_faith = scored.drop(
        columns=[
            f"{m}{s}"
            for m in ("context_recall", "context_precision")
            for s in ("", "_reason", "_verdicts", "_status", "_error")
        ]
    )
    for call, who in (
        (lambda: scored.rag.plot.compare(only_faith, on=None), "compare()"),
        (lambda: compare_table(only_faith, scored, on=None), "compare_table()"),
    ):
        with pytest.warns(UserWarning) as caught:
            result = call()
        messages = [str(w.message) for w in caught]
        side = "A" if who == "compare()" else "B"
        assert messages == [
            f"{who}: 'context_recall' and 'context_precision' are scored only in {side}, so they "
            "are left out; score both frames with the same metrics to compare them."
        ]
        assert caught[0].filename == __file__
    assert list(result.index) == ["faithfulness"]


def test_compare_on_a_column_with_repeats_warns_and_pairs_in_order(scored):
    with pytest.warns(UserWarning, match="repeated values are paired by row label") as caught:
        t = compare_table(scored, scored, on="question")
    # the warning points at the caller's line, not at ragnotebook's internals
    assert {w.filename for w in caught} == {__file__}
    with pytest.warns(UserWarning, match="repeated values") as caught:
        scored.rag.plot.compare(scored, on="question")
    assert {w.filename for w in caught} == {__file__}
    assert t["mean_diff"].tolist() == [0.0, 0.0, 0.0]
    assert t.loc["context_precision", "n_pairs"] == 48


def test_compare_by_index_labels_that_only_partly_overlap_warns_and_shows_them(scored):
    a, c = scored.iloc[:4], scored.iloc[2:6]  # labels 2 and 3 in both; 2 only in A, 2 only in B
    with pytest.warns(UserWarning) as want:
        ragnotebook.compare(a, c, on=None)
    with pytest.warns(UserWarning) as got:
        t = compare_table(a, c, on=None)
    assert {w.filename for w in got} == {__file__}
    [message] = [str(w.message) for w in got]
    assert message.startswith("compare_table(): coverage differs")
    assert "2 row(s) only in A; 2 row(s) only in B" in message
    # the same sentence as ragnotebook.compare, after the name of the function called
    assert message.split(": ", 1)[1] == str(want[0].message).split(": ", 1)[1]
    assert t["unmatched_a"].tolist() == t["unmatched_b"].tolist() == [2, 2, 2]
    assert t["coverage_flag"].tolist() == [True, True, True]
    with pytest.warns(UserWarning, match=r"^compare\(\): coverage differs"):
        fig = a.rag.plot.compare(c, on=None)
    for tick in fig.layout.xaxis.ticktext:
        assert "⚠" in tick and "no partner: A 2 · B 2" in tick
        assert re.search(r"<sup>\d+ pairs</sup>", tick)
    assert "rows with no partner" in fig.layout.title.text


def test_compare_errors(scored, hostile):
    with pytest.raises(KeyError, match="nope"):
        compare_table(scored, scored, on="nope")
    with pytest.raises(ValueError, match="no index label in common"):
        compare_table(scored, hostile, on=None)
    with pytest.raises(ValueError, match="share no value of 'question'"):
        compare_table(hostile, hostile.assign(question=["x", "y"]), on="question")
    with pytest.raises(ValueError, match="ci must be"):
        compare_table(scored, scored, on=None, ci=1.5)


def test_hostile_strings_in_every_chart(hostile):
    for fig in (
        scores(hostile),
        scores(hostile, kind="strip"),
        precision_at_k(hostile, per_row=True),
        missed_claims(hostile),
        compare(hostile, hostile, on="question"),
    ):
        assert_pseudo_html_safe(fig)


def test_accessor_plot_methods(scored, precision_frame):
    assert scored.rag.plot.scores().layout.title.text.startswith("Score distribution")
    assert (
        precision_frame.rag.plot.precision_at_k(by="group").data[2].name == "one: mean precision@k"
    )
    assert scored.rag.plot.missed_claims(top=2).layout.yaxis.categoryarray.__len__() == 2
    assert scored.rag.plot.compare(scored, on=None).data[1].name == "mean difference"


@pytest.mark.parametrize(
    "draw",
    [
        lambda s: s.rag.plot.precision_at_k(),
        lambda s: s.rag.plot.scores(),
        lambda s: s.rag.plot.missed_claims(),
        lambda s: s.rag.plot.compare(s, on=None),
    ],
    ids=["precision_at_k", "scores", "missed_claims", "compare"],
)
def test_every_chart_without_plotly_names_the_extra(scored, monkeypatch, draw):
    # missed_claims and compare raised a bare "No module named 'plotly'"
    import sys

    for name in [m for m in sys.modules if m == "plotly" or m.startswith("plotly.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "plotly", None)
    monkeypatch.setitem(sys.modules, "plotly.graph_objects", None)
    with pytest.raises(ImportError, match=r"pip install 'ragnotebook\[plot\]'"):
        draw(scored)


# --------------------------------------------------------------------------- warnings


def _text_warnings(caught):
    return [str(w.message) for w in caught if "hold" in str(w.message) and "text" in str(w.message)]


@pytest.mark.parametrize(
    ("draw", "name", "columns"),
    [
        (
            lambda d: d.rag.plot.missed_claims(),
            "missed_claims()",
            "columns 'context_recall_verdicts' and 'faithfulness_verdicts' hold",
        ),
        (lambda d: missed_claims(d), "missed_claims()", "faithfulness_verdicts"),
        (
            lambda d: d.rag.plot.precision_at_k(),
            "precision_at_k()",
            "column 'context_precision_verdicts' holds",
        ),
        (lambda d: precision_at_k(d, band="ci"), "precision_at_k()", "context_precision"),
    ],
    ids=["plot.missed_claims", "missed_claims", "plot.precision_at_k", "precision_at_k"],
)
def test_a_frame_read_back_from_csv_warns_once_naming_the_call(from_csv, draw, name, columns):
    with pytest.warns(UserWarning) as caught:
        draw(from_csv)
    [message] = _text_warnings(caught)  # once, and not as claims() / chunks()
    assert message.startswith(f"{name}: ") and columns in message
    assert {w.filename for w in caught} == {__file__}


def test_the_views_functions_stay_functions_after_their_modules_are_imported(scored, tmp_path):
    """The modules behind ``report`` and ``compare`` are the private ``_report`` and
    ``_compare``: importing them (as ``df.rag.report`` does) leaves the functions in place."""
    import importlib
    import types

    import ragnotebook.views as views

    report_module = importlib.import_module("ragnotebook.views._report")
    compare_module = importlib.import_module("ragnotebook.views._compare")
    from ragnotebook.views import compare as compare_fn
    from ragnotebook.views import report as report_fn

    assert isinstance(compare_fn, types.FunctionType) and compare_fn is compare_module.compare
    assert isinstance(report_fn, types.FunctionType) and report_fn is report_module.report
    assert compare_fn is compare  # the name this test module imported at the top

    path = scored.rag.report(tmp_path / "r.html", max_rows=1, plotly_js="cdn")
    assert path == tmp_path / "r.html" and path.read_text(encoding="utf-8").count("<script") == 3
    scored.rag.plot.compare(scored, on=None)
    from ragnotebook.views import compare as compare_after
    from ragnotebook.views import report as report_after

    assert report_after is report_fn and views.report is report_fn
    assert compare_after is compare_fn and views.compare is compare_fn


def test_importing_the_private_modules_first_keeps_the_functions_in_a_fresh_interpreter(tmp_path):
    """Nothing in ``ragnotebook.views`` is bound yet when ``_report`` and ``_compare`` are
    imported; the public names are the functions, and no module is named after them."""
    code = (
        "import importlib.util, pathlib, sys, types\n"
        "import pandas as pd\n"
        "import ragnotebook.views._compare\n"
        "import ragnotebook.views._report\n"
        "from ragnotebook.views import compare, report\n"
        "import ragnotebook.views as views\n"
        "assert isinstance(report, types.FunctionType), report\n"
        "assert isinstance(compare, types.FunctionType), compare\n"
        "assert report is views._report.report and compare is views._compare.compare\n"
        "for name in views.__all__:\n"
        "    assert importlib.util.find_spec(f'ragnotebook.views.{name}') is None, name\n"
        "df = pd.DataFrame({'question': ['q'], 'answer': ['Sky is blue.'],\n"
        "                   'contexts': [['Sky is blue.']]})\n"
        "scored = ragnotebook.faithfulness(df, model='offline', progress=False)\n"
        "out = scored.rag.report(pathlib.Path(sys.argv[1]) / 'r.html', plotly_js='cdn')\n"
        "assert out.stat().st_size > 1000\n"
        "from ragnotebook.views import report as again\n"
        "print(again is report and views.report is report)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(ROOT),
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_a_misspelt_group_column_is_named_with_the_closest_one():
    import ragnotebook as rn

    df = pd.DataFrame(
        {
            "system": ["A", "B"],
            "question": ["Where is it?", "Where is it?"],
            "contexts": [["It is on Pier 4."], ["It is in Oslo."]],
            "ground_truth": ["It is on Pier 4.", "It is on Pier 4."],
        }
    )
    scored = rn.context_precision(df, model="offline", progress=False)
    with pytest.raises(KeyError, match=r"did you mean 'system'\?"):
        scored.rag.plot.precision_at_k(by="sytem")
    with pytest.raises(KeyError, match=r"on='sytem' is not a column of frame A; did you mean"):
        scored.rag.plot.compare(scored, on="sytem")
