"""compare(): paired differences, bootstrap CI, sign-flip p-value, coverage and per-row table."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.comparison import COLUMNS, ROW_COLUMNS


def scored(
    keys: list[str],
    scores: list[float | None],
    statuses: list[str] | None = None,
    verdicts: list[list[str]] | None = None,
    metric: str = "faithfulness",
    key: str = "question",
) -> pd.DataFrame:
    statuses = statuses or ["ok"] * len(keys)
    verdicts = verdicts or [["yes"]] * len(keys)
    return pd.DataFrame(
        {
            key: keys,
            metric: pd.array(scores, dtype="Float64"),
            f"{metric}_status": pd.array(statuses, dtype="string"),
            f"{metric}_verdicts": [
                [{"index": i, "verdict": v} for i, v in enumerate(vs)] for vs in verdicts
            ],
        }
    )


def quiet(*args, **kwargs) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return rn.compare(*args, **kwargs)


KEYS = ["q1", "q2", "q3", "q4", "q5"]


def test_paired_differences_exact_values():
    a = scored(KEYS, [0.2, 0.5, 1.0, 0.0, 0.4])
    b = scored(list(reversed(KEYS)), [0.4, 0.5, 1.0, 0.9, 0.6][::-1])  # other row order
    t = rn.compare(a, b)
    assert list(t.columns) == list(COLUMNS)
    assert t.index.tolist() == ["faithfulness"]
    row = t.loc["faithfulness"]
    # b's rows are q5..q1 with 0.6, 0.9, 1.0, 0.5, 0.4: diffs by key are
    # q1 +0.2, q2 0, q3 0, q4 +0.9, q5 +0.2
    assert row["n_pairs"] == 5
    assert row["mean_a"] == pytest.approx(0.42)
    assert row["mean_b"] == pytest.approx((0.4 + 0.5 + 1.0 + 0.9 + 0.6) / 5)
    assert row["mean_diff"] == pytest.approx((0.2 + 0.0 + 0.0 + 0.9 + 0.2) / 5)
    assert (row["n_better"], row["n_worse"], row["n_same"]) == (3, 0, 2)
    assert row["coverage_a"] == row["coverage_b"] == 1.0
    assert row["coverage_diff"] == 0.0
    assert row["mean_diff_strict"] == pytest.approx(row["mean_diff"])
    assert (row["n_lost"], row["n_gained"], row["n_only_a"], row["n_only_b"]) == (0, 0, 0, 0)
    assert row["n_matched"] == row["n_keys"] == 5
    assert row["flag"] == ""
    assert row["ci_low"] <= row["mean_diff"] <= row["ci_high"]
    assert row["ci_low"] >= 0.0  # every resampled mean of non-negative diffs is >= 0
    # exact sign-flip test over 2**5 patterns: zeros do not matter; the three non-zero
    # diffs (0.2, 0.9, 0.2) give |mean| >= observed only when all share one sign
    assert row["p_value"] == pytest.approx(2 * 4 / 32)


def test_p_value_by_hand_and_identical_frames():
    a = scored(["a", "b", "c", "d"], [0.0, 0.0, 0.0, 0.0])
    b = scored(["a", "b", "c", "d"], [0.1, 0.2, 0.3, 0.4])
    row = rn.compare(a, b).loc["faithfulness"]
    assert row["mean_diff"] == pytest.approx(0.25)
    assert row["p_value"] == pytest.approx(2 / 16)
    assert not row["significant"]  # 0.125 >= 0.05
    same = rn.compare(a, a).loc["faithfulness"]
    assert same["mean_diff"] == 0.0
    assert same["p_value"] == 1.0
    assert same["ci_low"] == same["ci_high"] == 0.0
    assert (same["n_better"], same["n_worse"], same["n_same"]) == (0, 0, 4)
    assert not same["significant"]


def test_monte_carlo_p_value_for_many_pairs_is_seeded_and_sensible():
    rng = np.random.default_rng(1)
    keys = [f"q{i}" for i in range(60)]
    base = rng.uniform(0.2, 0.8, 60)
    a = scored(keys, list(base))
    better = scored(keys, list(np.clip(base + rng.normal(0.1, 0.05, 60), 0, 1)))
    noise = scored(keys, list(np.clip(base + rng.normal(0.0, 0.05, 60), 0, 1)))
    up = rn.compare(a, better, n_boot=1000).loc["faithfulness"]
    assert up["p_value"] == pytest.approx(1 / 1001)  # no flip beats a consistent gain
    assert up["significant"]
    assert 0.07 < up["ci_low"] < up["mean_diff"] < up["ci_high"] < 0.13
    flat = rn.compare(a, noise, n_boot=1000).loc["faithfulness"]
    assert flat["p_value"] > 0.05
    assert flat["ci_low"] < 0 < flat["ci_high"] or abs(flat["mean_diff"]) < 0.02
    again = rn.compare(a, noise, n_boot=1000).loc["faithfulness"]
    assert (again["ci_low"], again["p_value"]) == (flat["ci_low"], flat["p_value"])
    other_seed = rn.compare(a, noise, n_boot=1000, seed=7).loc["faithfulness"]
    assert other_seed["ci_low"] != flat["ci_low"]


def test_coverage_is_flagged_when_b_has_errors():
    a = scored(KEYS, [0.1, 0.2, 0.9, 0.9, 0.9])
    # B errors on the two rows A found hardest: its own mean looks better (0.9 vs 0.6)
    b = scored(KEYS, [None, None, 0.9, 0.9, 0.9], ["error", "error", "ok", "ok", "ok"])
    with pytest.warns(UserWarning, match="coverage differs") as caught:
        t = rn.compare(a, b)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    row = t.loc["faithfulness"]
    assert row["n_pairs"] == 3
    assert row["mean_diff"] == 0.0  # paired on the rows both scored: no change
    assert row["coverage_a"] == 1.0 and row["coverage_b"] == pytest.approx(0.6)
    assert row["coverage_diff"] == pytest.approx(-0.4)
    assert row["n_lost"] == 2 and row["n_gained"] == 0
    assert row["n_error_a"] == 0 and row["n_error_b"] == 2
    assert row["n_status_changed"] == 2
    assert row["mean_diff_strict"] == pytest.approx(-0.06)  # (2.7 - 3.0) / 5
    assert "coverage A 1.00 vs B 0.60" in row["flag"]
    assert "2 row(s) scored in A are unscored" in row["flag"]
    # the reverse direction reports gains
    back = quiet(b, a).loc["faithfulness"]
    assert back["n_gained"] == 2 and back["coverage_diff"] == pytest.approx(0.4)


def test_unmatched_rows_are_reported_not_dropped():
    a = scored(["q1", "q2", "q3"], [0.5, 0.5, 0.5])
    b = scored(["q2", "q3", "q4", None], [0.5, 1.0, 1.0, 1.0])
    with pytest.warns(UserWarning, match="only in A"):
        t = rn.compare(a, b)
    row = t.loc["faithfulness"]
    assert (row["n_matched"], row["n_only_a"], row["n_only_b"], row["n_keys"]) == (2, 1, 2, 5)
    assert row["n_pairs"] == 2
    assert row["coverage_a"] == pytest.approx(3 / 5)
    assert row["coverage_b"] == pytest.approx(4 / 5)
    info = t.attrs["ragnotebook_compare"]
    assert info["unmatched_a"] == ["q1"]
    assert info["unmatched_b"] == ["q4", None]
    rows = quiet(a, b, rows=True)
    assert list(rows.columns) == list(ROW_COLUMNS)
    assert rows["change"].tolist() == ["only_in_a", "same", "better", "only_in_b", "only_in_b"]
    assert rows["key"].tolist()[:4] == ["q1", "q2", "q3", "q4"]
    assert rows.loc[2, "diff"] == pytest.approx(0.5)
    assert rows.loc[0, "row_b"] is None and rows.loc[3, "row_a"] is None


def test_row_table_changes_and_verdicts():
    a = scored(
        ["x", "y", "z", "w"],
        [1.0, 0.5, None, 0.5],
        ["ok", "ok", "error", "no_context"],
        [["yes", "yes"], ["yes", "no"], [], ["no"]],
    )
    b = scored(
        ["x", "y", "z", "w"],
        [0.5, 0.5, 1.0, None],
        ["ok", "ok", "ok", "error"],
        [["yes", "no"], ["yes", "no"], ["yes"], []],
    )
    rows = quiet(a, b, rows=True)
    assert rows["change"].tolist() == ["worse", "same", "gained", "lost"]
    assert rows["verdicts_changed"].tolist() == [True, False, True, True]
    assert rows["status_a"].tolist() == ["ok", "ok", "error", "no_context"]
    assert np.isnan(rows.loc[2, "score_a"]) and rows.loc[2, "score_b"] == 1.0
    t = quiet(a, b).loc["faithfulness"]
    assert t["n_verdict_changed"] == 3
    assert t["n_status_changed"] == 2
    assert (t["n_better"], t["n_worse"], t["n_same"]) == (0, 1, 1)
    assert t["mean_diff"] == pytest.approx(-0.25)


def test_not_measured_statuses_are_not_scored():
    a = scored(["x", "y"], [0.0, 1.0], ["no_ground_truth", "ok"])
    b = scored(["x", "y"], [0.0, 1.0], ["no_ground_truth", "ok"])
    row = rn.compare(a, b).loc["faithfulness"]
    assert row["n_pairs"] == 1 and row["coverage_a"] == 0.5 and row["flag"] == ""


def test_keys_by_index_role_alias_and_repeats():
    a = scored(["q1", "q2"], [0.0, 1.0], key="user_input")
    b = scored(["q2", "q1"], [1.0, 1.0], key="user_input")
    # "question" is not a column: the role's alias `user_input` is used
    assert rn.compare(a, b).loc["faithfulness", "mean_diff"] == pytest.approx(0.5)
    # by the index: row 0 with row 0
    by_index = rn.compare(a, b, on=None).loc["faithfulness"]
    assert by_index["mean_diff"] == pytest.approx(0.5)
    assert by_index["n_status_changed"] == 0
    rep_a = scored(["q", "q"], [0.0, 0.5])
    rep_b = scored(["q", "q"], [1.0, 0.5])
    with pytest.warns(UserWarning, match=r"repeats 1 value \(on 2 rows\)") as caught:
        rows = rn.compare(rep_a, rep_b, rows=True)
    assert {w.filename for w in caught} == {__file__}
    # a class of its own (a UserWarning still), which the command line shows in its words;
    # the Python API keeps its advice in Python terms
    from ragnotebook.comparison import RepeatedKeyWarning

    assert [w.category for w in caught] == [RepeatedKeyWarning, RepeatedKeyWarning]
    assert all(
        str(w.message).endswith(
            "pair on a column with one value per row (on='id') or on the index (on=None) to be sure"
        )
        for w in caught
    )
    assert rows["diff"].tolist() == [1.0, 0.0]  # first with first, second with second
    # one value on three rows and two values on two rows each are told apart
    thrice = scored(["q", "q", "q", "r"], [1.0, 1.0, 1.0, 1.0])
    with pytest.warns(UserWarning, match=r"repeats 1 value \(on 3 rows\) in frame [AB]") as caught:
        rn.compare(thrice, thrice)
    assert [str(w.message).split(";")[0][-7:] for w in caught] == ["frame A", "frame B"]
    pairs = scored(["q", "q", "r", "r"], [1.0, 1.0, 1.0, 1.0])
    with pytest.warns(UserWarning, match=r"repeats 2 values \(on 4 rows\) in frame [AB]") as caught:
        rn.compare(pairs, pairs)
    assert [str(w.message).split(";")[0][-7:] for w in caught] == ["frame A", "frame B"]
    with pytest.raises(KeyError, match="not a column of frame A"):
        rn.compare(a, b, on="id")


def test_metrics_selection_and_errors():
    a = scored(["q"], [0.5]).assign(
        context_recall=pd.array([1.0], dtype="Float64"),
        context_recall_status=pd.array(["ok"], dtype="string"),
    )
    b = scored(["q"], [0.5])
    # shared metrics only, and the one left out is named (it was dropped silently)
    with pytest.warns(UserWarning) as caught:
        assert rn.compare(a, b).index.tolist() == ["faithfulness"]
    assert [str(w.message) for w in caught] == [
        "ragnotebook.compare: 'context_recall' is scored only in A, so it is left out; score "
        "both frames with the same metrics to compare it."
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # asked for by name: nothing left out, nothing said
        assert rn.compare(a, b, metrics="faithfulness").index.tolist() == ["faithfulness"]
        rn.compare(a, a)
    assert rn.compare(a, a, metrics="recall").index.tolist() == ["context_recall"]
    # every alias evaluate(metrics=...) accepts
    assert rn.compare(a, a, metrics=["faithful"]).index.tolist() == ["faithfulness"]
    with pytest.raises(ValueError, match="unknown metric 'bogus'; expected one of context_recall"):
        rn.compare(a, a, metrics=["bogus"])
    with pytest.raises(ValueError, match="not scored in frame B"):
        rn.compare(a, b, metrics=["recall"])
    with pytest.raises(ValueError, match="share no scored metric"):
        rn.compare(pd.DataFrame({"question": ["q"]}), b)
    with pytest.raises(TypeError, match="DataFrame"):
        rn.compare([], b)
    with pytest.raises(ValueError, match="alpha"):
        rn.compare(a, b, alpha=1.5)


def test_frames_with_no_row_in_common_raise_as_the_views_do():
    a = scored(["q1", "q2"], [1.0, 0.0]).set_axis(["A:1", "A:2"])
    b = scored(["q3", "q4"], [1.0, 1.0]).set_axis(["B:1", "B:2"])
    with pytest.raises(ValueError, match=r"no index label in common.*pass on='question'"):
        rn.compare(a, b, on=None)
    with pytest.raises(ValueError, match="share no value of 'question'"):
        rn.compare(a, b, on="question")


def test_empty_pairs_give_nan_not_errors():
    a = scored(["q1"], [None], ["error"])
    b = scored(["q1"], [None], ["error"])
    row = rn.compare(a, b).loc["faithfulness"]
    assert row["n_pairs"] == 0
    assert np.isnan(row["mean_diff"]) and np.isnan(row["p_value"]) and np.isnan(row["ci_low"])
    assert not row["significant"]


def test_compare_on_evaluated_frames_and_jsonl_round_trip(tmp_path):
    from ragnotebook.cli import read_table, write_jsonl

    df = rn.load_sample("quickstart").iloc[::6]  # 8 rows of all three sources
    a = rn.evaluate(df, model="offline", progress=False)
    path = tmp_path / "a.jsonl"
    write_jsonl(a, path)
    back = read_table(path)
    t = rn.compare(a, back)
    assert t.index.tolist() == ["context_recall", "context_precision", "faithfulness"]
    assert (t["mean_diff"].fillna(0) == 0).all()
    assert (t["n_verdict_changed"] == 0).all()
    assert (t["n_status_changed"] == 0).all()
    assert (t["p_value"].fillna(1) == 1).all()


def test_a_misspelt_pairing_column_is_named_with_the_closest_one():
    a = scored(KEYS, [1.0] * 5).assign(system="A")
    with pytest.raises(
        KeyError, match=r"on='questoin' is not a column of frame A; did you mean 'question'\?"
    ):
        rn.compare(a, a, on="questoin")


def test_two_frames_without_rows_say_so_not_which_column_to_pair_on():
    # the message advised on='question', which cannot help a frame with no rows
    import ragnotebook as rn

    rows = pd.DataFrame({"question": ["q"], "answer": ["A."], "contexts": [["A."]]})
    scored = rn.faithfulness(rows, model="offline", progress=False)
    empty = scored.iloc[:0]
    with pytest.raises(ValueError, match=r"^both frames have no rows, so no row pairs up$"):
        rn.compare(empty, empty)
    with pytest.raises(ValueError, match=r"^frame B has no rows, so no row pairs up$"):
        rn.compare(scored, empty, on="question")


def test_a_reordered_copy_pairs_repeated_questions_row_with_row():
    # the bundled sample asks questions twice (a faithful and a hallucinated answer): a run
    # scoring the same rows in another order must compare each row with itself
    import warnings

    import ragnotebook as rn

    a = pd.DataFrame(
        {
            "question": ["q1", "q1", "q2", "q2"],
            "faithfulness": pd.array([1.0, 0.0, 1.0, 0.0], dtype="Float64"),
            "faithfulness_status": ["ok"] * 4,
        },
        index=["q1-faithful", "q1-hallucinated", "q2-faithful", "q2-hallucinated"],
    )
    b = a.iloc[[3, 1, 2, 0]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = rn.compare(a, b)
    row = out.loc["faithfulness"]
    assert (row["n_pairs"], row["n_better"], row["n_worse"], row["mean_diff"]) == (4, 0, 0, 0.0)
    assert any(
        "repeated values are paired by row label where both frames give a value's rows the "
        "same labels, else in order of appearance; pair on a column with one value per row "
        "(on='id') or on the index (on=None) to be sure" in str(w.message)
        for w in caught
    )
    # labels that differ: first with first, as before
    c = b.set_axis(["x1", "x2", "x3", "x4"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rn.compare(a, c).loc["faithfulness", "n_worse"] == 2


def test_the_pairing_names_the_repeated_values_paired_in_order_of_appearance():
    from ragnotebook.comparison import RepeatedKeyWarning, pair_rows

    a = pd.DataFrame({"question": ["q1", "q1", "q2", "q2", "q3"]}, index=["a", "b", "c", "d", "e"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepeatedKeyWarning)
        # the same labels, reordered: each repeated value's rows pair by label
        assert pair_rows(a, a.iloc[::-1], "question").in_order == frozenset()
        # q2's rows have other labels in B: first with first, and named
        b = a.set_axis(["a", "b", "x", "y", "e"])
        assert pair_rows(a, b, "question").in_order == frozenset({"q2"})
        # q1 repeats in A only: which of A's rows meets B's one is a matter of order
        assert pair_rows(a, a.iloc[1:], "question").in_order == frozenset({"q1"})
        assert pair_rows(a.iloc[[0, 2, 4]], a, "question").in_order == frozenset({"q1", "q2"})
        # no repeat: nothing to name
        assert pair_rows(a.iloc[[0, 2, 4]], a.iloc[[0, 2, 4]], "question").in_order == set()
