"""Putting re-scored rows back into a scored frame (``update_scores``)."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import ragnotebook as rn


def frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question": ["Where is it?", "When did it open?", "What does it cost?"],
            "answer": ["It is on Pier 4.", "It opened in 1998.", "Entry is free."],
            "contexts": [
                ["The museum is on Pier 4.", "Parking is on Pier 2."],
                ["The museum opened in 1998."],
                ["Entry costs 5 euros.", "Children enter free."],
            ],
            "ground_truth": ["It is on Pier 4.", "It opened in 1998.", "Entry costs 5 euros."],
        },
        index=["q1", "q2", "q3"],
    )


def test_a_row_rescored_to_no_score_loses_its_old_score():
    """The analyst's case: DataFrame.update keeps the old precision next to the new
    no_context status; update_scores replaces it, and summary() counts 2 of 3."""
    df = frame()
    scored = df.rag.evaluate(model="offline", progress=False)
    assert scored.loc["q2", "context_precision"] == 1.0
    fixed = df.loc[["q2"]].assign(contexts=[[]])
    with pytest.warns(UserWarning, match="no row has a retrieved chunk"):
        again = fixed.rag.evaluate(model="offline", progress=False)
    assert again.loc["q2", "context_precision_status"] == "no_context"
    assert pd.isna(again.loc["q2", "context_precision"])

    merged = rn.update_scores(scored, again)
    assert pd.isna(merged.loc["q2", "context_precision"])
    assert merged.loc["q2", "context_precision_status"] == "no_context"
    assert merged.loc["q2", "contexts"] == []  # the fixed input came along
    assert merged.loc["q2", "context_recall"] == 0.0  # recall's no_context is a 0
    s = merged.rag.summary()
    assert s.loc["context_precision", "scored"] == "2/3"
    expected = scored.loc[["q1", "q3"], "context_precision"].astype(float).mean()
    assert s.loc["context_precision", "mean"] == pytest.approx(expected)
    # the input frames are unchanged, the dtypes kept, the row order kept
    assert scored.loc["q2", "context_precision"] == 1.0 and df.loc["q2", "contexts"] != []
    assert merged.index.tolist() == ["q1", "q2", "q3"]
    assert merged.dtypes.to_dict() == scored.dtypes.to_dict()
    assert merged.loc["q1"].equals(scored.loc["q1"]) and merged.loc["q3"].equals(scored.loc["q3"])
    # and the accessor does the same
    pd.testing.assert_frame_equal(scored.rag.update_scores(again), merged)


def test_a_hand_merge_that_kept_old_scores_is_warned_about_and_not_averaged():
    df = frame()
    scored = df.rag.evaluate(model="offline", progress=False)
    with pytest.warns(UserWarning, match="no row has a retrieved chunk"):
        again = df.loc[["q2"]].assign(contexts=[[]]).rag.evaluate(model="offline", progress=False)
    by_hand = scored.copy()
    by_hand.update(again)  # skips the missing precision: 1.0 stays next to no_context
    assert by_hand.loc["q2", "context_precision"] == 1.0
    with pytest.warns(UserWarning, match=r"context_precision: 1 row\(s\), first \['q2'\]") as w:
        s = by_hand.rag.summary()
    assert "ragnotebook.update_scores(scored, rescored)" in str(w[0].message)
    assert s.loc["context_precision", "scored"] == "2/3"
    with pytest.warns(UserWarning, match="hold a score although") as w:
        by_hand.rag.summary(by="question")
    assert len([x for x in w if "hold a score" in str(x.message)]) == 1  # once, not per group
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rn.update_scores(scored, again).rag.summary()  # a proper merge: no warning


def test_a_rescore_whose_counts_and_seconds_match_the_first_run_is_still_a_rescore():
    """The flaky doctest: two one-row runs can agree on every count and on the seconds
    rounded to 0.1 ms; the record of each metric names the run that scored it."""
    df = pd.DataFrame(
        {
            "question": ["Where?"],
            "answer": ["It is on Pier 4."],
            "contexts": [["The museum is on Pier 9."]],
        }
    )
    scored = df.rag.faithfulness(model="offline", progress=False)
    again = df.assign(contexts=[["The museum is on Pier 4."]]).rag.faithfulness(
        model="offline", progress=False
    )
    first = scored.attrs["ragnotebook"]["metrics"]["faithfulness"]
    second = again.attrs["ragnotebook"]["metrics"]["faithfulness"]
    second["seconds"] = first["seconds"]  # the collision, made certain
    assert second["started_at"] > first["started_at"]
    assert {k: v for k, v in first.items() if k != "started_at"} == {
        k: v for k, v in second.items() if k != "started_at"
    }
    merged = rn.update_scores(scored, again)
    assert scored["faithfulness"].tolist() == [0.0]
    assert merged["faithfulness"].tolist() == [1.0]
    meta = merged.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert meta["started_at"] == second["started_at"]
    assert meta["calls"] == first["calls"] + second["calls"]


def test_run_metadata_is_merged_counts_again_and_judge_work_adds_up():
    df = frame()
    scored = df.rag.evaluate(model="offline", progress=False)
    again = (
        df.loc[["q3"]]
        .assign(answer="Entry costs 5 euros.")
        .rag.faithfulness(model="offline", progress=False)
    )
    merged = rn.update_scores(scored, again)
    meta = merged.attrs["ragnotebook"]
    before = scored.attrs["ragnotebook"]["metrics"]["faithfulness"]
    extra = again.attrs["ragnotebook"]["metrics"]["faithfulness"]
    assert meta["metrics"]["faithfulness"]["calls"] == before["calls"] + extra["calls"]
    assert meta["metrics"]["faithfulness"]["rows"] == 3
    assert meta["metrics"]["faithfulness"]["statuses"] == {"ok": 3}
    # metrics not re-scored keep their metadata as it was
    assert (
        meta["metrics"]["context_recall"]
        == scored.attrs["ragnotebook"]["metrics"]["context_recall"]
    )
    assert meta["updates"][-1]["rows"] == 1 and meta["updates"][-1]["metrics"] == ["faithfulness"]
    s = merged.rag.summary()
    assert int(s.loc["faithfulness", "calls"]) == before["calls"] + extra["calls"]
    assert merged.loc["q3", "faithfulness"] == 1.0 and scored.loc["q3", "faithfulness"] < 1.0
    assert merged.loc["q3", "answer"] == "Entry costs 5 euros."


def test_without_run_metadata_the_counters_are_unknown_not_stale():
    df = frame()
    scored = df.rag.evaluate(model="offline", progress=False)
    again = df.loc[["q1"]].rag.evaluate(model="offline", progress=False)
    plain = scored.copy()
    plain.attrs = {}  # as read back from CSV
    s = rn.update_scores(plain, again).rag.summary()
    assert s["calls"].isna().all() and s["scored"].tolist() == ["3/3", "3/3", "3/3"]


def test_only_the_metrics_asked_for_and_a_new_metric_for_the_other_rows():
    df = frame()
    recall_only = df.rag.context_recall(model="offline", progress=False)
    again = df.loc[["q1"]].rag.evaluate(model="offline", progress=False)
    merged = rn.update_scores(recall_only, again, metrics=["faithfulness"])
    assert merged.loc["q1", "faithfulness"] == 1.0
    assert merged["faithfulness"].dtype == "Float64"
    assert merged.loc[["q2", "q3"], "faithfulness"].isna().all()
    assert merged.loc[["q2", "q3"], "faithfulness_status"].isna().all()
    assert "context_precision" not in merged.columns
    assert merged.rag.summary().loc["faithfulness", "scored"] == "1/3"


def test_mixed_judges_are_warned_about_and_recorded():
    df = frame()
    scored = df.rag.faithfulness(model="offline", progress=False)
    judge = rn.MockJudge(extract_claims=lambda t: ["It is on Pier 4."], verify_claims=[["yes"]])
    again = df.loc[["q1"]].rag.faithfulness(model=judge, progress=False)
    with pytest.warns(UserWarning, match=r"mixes judges in faithfulness \(offline"):
        merged = rn.update_scores(scored, again)
    assert " + " in merged.attrs["ragnotebook"]["metrics"]["faithfulness"]["judge"]


def test_bad_arguments_name_the_rows():
    df = frame()
    scored = df.rag.faithfulness(model="offline", progress=False)
    with pytest.raises(
        ValueError, match=r"1 row label\(s\) of rescored are not in scored \(first: \['q9'\]\)"
    ):
        rn.update_scores(scored, scored.loc[["q1"]].rename(index={"q1": "q9"}))
    twice = pd.concat([scored, scored.loc[["q1"]]])
    with pytest.raises(ValueError, match=r"scored repeats the row label\(s\) \['q1'\]"):
        rn.update_scores(twice, scored.loc[["q2"]])
    with pytest.raises(ValueError, match="no ragnotebook scores"):
        rn.update_scores(scored, df.loc[["q1"]])
    with pytest.raises(ValueError, match="none of the metrics"):
        rn.update_scores(scored, scored.loc[["q1"]], metrics=["context_recall"])
    with pytest.raises(TypeError, match="rescored: expected a pandas DataFrame"):
        rn.update_scores(scored, [1])


def test_rows_taken_from_the_scored_frame_bring_no_metric_the_new_run_skipped():
    """The README's way: the fixed rows are taken from the scored frame, so they carry
    every metric's columns and (through pandas' attrs) the full run's metadata; a metric
    the new run left out (no ground truth in these rows) is not merged, nor counted twice."""
    sample = rn.load_sample("quickstart")
    scored = sample.rag.evaluate(model="offline", progress=False)
    calls = scored.rag.summary()["calls"].astype(int).to_dict()
    labels = scored.index[scored["source"] == "ragtruth"][:3]
    fixed = scored.loc[labels].assign(answer="I do not know.")
    with pytest.warns(UserWarning, match="left out 'context_recall'"):
        again = fixed.rag.evaluate(model="offline", progress=False)
    merged = scored.rag.update_scores(again)
    after = merged.rag.summary()["calls"].astype(int).to_dict()
    extra = again.attrs["ragnotebook"]["metrics"]
    assert after["context_recall"] == calls["context_recall"]  # not 2x
    for m in ("context_precision", "faithfulness"):
        assert after[m] == calls[m] + extra[m]["calls"]
    assert merged.attrs["ragnotebook"]["updates"][-1]["metrics"] == [
        "context_precision",
        "faithfulness",
    ]
    assert (merged.loc[labels, "faithfulness_status"] == "no_claims").all()
    # asking for the skipped metric by name is an error that says why
    with pytest.raises(ValueError, match=r"rescored was not scored on \['context_recall'\]"):
        scored.rag.update_scores(again, metrics=["context_recall"])


def test_rows_rescored_under_another_column_mapping_are_warned_about():
    """The answer came from 'response' in the first run and from 'answer' in the re-score:
    the merged frame still reads 'response', whose text is not what was scored again."""
    df = frame().rename(columns={"answer": "response"})
    scored = df.rag.faithfulness(model="offline", progress=False, columns={"answer": "response"})
    fixed = scored.loc[["q3"]].assign(answer="Entry costs 5 euros.")
    again = fixed.rag.faithfulness(model="offline", progress=False, columns={"answer": "answer"})
    with pytest.warns(UserWarning, match="another columns= mapping") as caught:
        merged = rn.update_scores(scored, again)
    said = [str(w.message) for w in caught if "columns= mapping" in str(w.message)]
    assert said == [
        "ragnotebook: update_scores: rescored was scored under another columns= mapping than "
        "scored ({'answer': 'answer'} against {'answer': 'response'}): the new scores of its 1 "
        "row(s) were computed from rescored's column(s) 'answer', but the merged frame keeps "
        "scored's mapping, and its column(s) 'response' need not hold that text. Copy "
        "rescored's 'answer' into 'response' for those rows, or score them again with "
        "columns={'answer': 'response'}; attrs['ragnotebook']['updates'] records the mapping "
        "of each merge."
    ]
    # the merge itself is done, as documented: new score, old text under 'response'
    assert merged.loc["q3", "faithfulness"] == 1.0
    assert merged.loc["q3", "response"] == "Entry is free."
    meta = merged.attrs["ragnotebook"]
    assert meta["columns"]["answer"] == "response"
    assert meta["updates"][-1]["columns"]["answer"] == "answer"
    # the accessor warns the same way
    with pytest.warns(UserWarning, match="another columns= mapping"):
        scored.rag.update_scores(again)
    # the same mapping says nothing
    same = fixed.assign(response="Entry costs 5 euros.").rag.faithfulness(
        model="offline", progress=False, columns={"answer": "response"}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rn.update_scores(scored, same).loc["q3", "response"] == "Entry costs 5 euros."


def test_a_mapping_that_differs_only_in_a_role_the_metric_does_not_read_is_not_warned_about():
    df = frame().rename(columns={"ground_truth": "reference"})
    scored = df.rag.evaluate(model="offline", progress=False, columns={"ground_truth": "reference"})
    again = (
        df.loc[["q3"]]
        .rename(columns={"reference": "gold"})
        .assign(answer="Entry costs 5 euros.")
        .rag.evaluate(model="offline", progress=False, columns={"ground_truth": "gold"})
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        merged = rn.update_scores(scored, again, metrics=["faithfulness"])
    assert merged.loc["q3", "faithfulness"] == 1.0
    with pytest.warns(UserWarning, match=r"\{'ground_truth': 'gold'\} against"):
        rn.update_scores(scored, again, metrics=["context_recall"])
    # read back without run metadata: nothing to compare, nothing said
    plain = scored.copy()
    plain.attrs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rn.update_scores(plain, again, metrics=["context_recall"])


def test_a_frame_scored_before_a_counter_existed_counted_none_of_it():
    import copy

    df = frame()
    scored = df.rag.evaluate(model="offline", progress=False)
    older = scored.copy()
    older.attrs = copy.deepcopy(scored.attrs)
    for stats in older.attrs["ragnotebook"]["metrics"].values():
        del stats["out_of_range_chunks"]  # as an older version wrote it
    again = df.loc[["q1"]].rag.evaluate(model="offline", progress=False)
    merged = rn.update_scores(older, again).attrs["ragnotebook"]["metrics"]
    assert [merged[m]["out_of_range_chunks"] for m in merged] == [0, 0, 0]
    assert merged["faithfulness"]["calls"] == (
        scored.attrs["ragnotebook"]["metrics"]["faithfulness"]["calls"]
        + again.attrs["ragnotebook"]["metrics"]["faithfulness"]["calls"]
    )
