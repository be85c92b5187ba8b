"""Frames as real RAG stacks leave them: merged logs, concatenated runs, legacy names."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import ragnotebook as rn

CHUNK = "The museum is on Pier 4."


def _frame(n: int = 4) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question": ["Where is the museum?"] * n,
            "answer": ["The museum is on Pier 4."] * n,
            "contexts": [[CHUNK]] * n,
            "ground_truth": ["The museum is on Pier 4."] * n,
        }
    )


def test_missing_contexts_cells_are_scored_as_no_chunks_with_one_warning() -> None:
    df = _frame()
    df["contexts"] = [[CHUNK], None, float("nan"), []]
    with pytest.warns(UserWarning) as caught:
        out = df.rag.evaluate(model="offline", progress=False)
    said = [str(w.message) for w in caught if "have no value" in str(w.message)]
    assert said == [
        "2 of 4 rows have no value in the 'contexts' column (None or NaN, not an empty list), "
        "e.g. row 1: they are scored with no chunks, status no_context (a measured 0 for "
        "'context_recall' and 'faithfulness'). If their retrieval was not logged rather than "
        "empty, leave them out (df[df[col].notna()]); an empty list [] says the retriever "
        "returned nothing and is not warned about."
    ]
    assert out["context_recall_status"].tolist() == ["ok", "no_context", "no_context", "no_context"]
    assert out["context_recall"].tolist() == [1.0, 0.0, 0.0, 0.0]
    # an empty list alone is the retriever's answer: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df.assign(contexts=[[CHUNK], [], [], [CHUNK]]).rag.evaluate(model="offline", progress=False)


def test_two_input_columns_named_like_a_metric_become_one_score_column() -> None:
    df = _frame(1)
    df = pd.concat([df, pd.DataFrame([[0.3, 0.4]], columns=["faithfulness"] * 2)], axis=1)
    with pytest.warns(UserWarning, match="replaces them with the new scores"):
        out = df.rag.evaluate(model="offline", progress=False)
    assert list(out.columns).count("faithfulness") == 1
    assert out["faithfulness"].tolist() == [1.0]
    assert out.rag.summary().loc["faithfulness", "scored"] == "1/1"
    assert df.shape[1] == 6  # the input is unchanged


def test_summary_counts_rows_a_metric_never_scored_as_not_run() -> None:
    df = _frame(4)
    a = df.iloc[:2].rag.evaluate(model="offline", progress=False, metrics=["faithfulness"])
    b = df.iloc[2:].rag.evaluate(model="offline", progress=False, metrics=["context_recall"])
    s = rn.summary(pd.concat([a, b]))
    statuses = ["ok", "no_ground_truth", "no_reference", "no_claims", "no_context", "error"]
    for m in ("faithfulness", "context_recall"):
        assert s.loc[m, "not_run"] == 2
        assert s.loc[m, statuses].sum() + s.loc[m, "not_run"] == s.loc[m, "n_total"] == 4
        assert s.loc[m, "scored"] == "2/4"
    assert "not_run: rows this metric never scored (no status), not averaged" in repr(s)
    assert rn.summary(a).loc["faithfulness", "not_run"] == 0


def test_a_plural_ground_truths_column_is_named_in_the_left_out_note() -> None:
    df = _frame(1).drop(columns="ground_truth").assign(ground_truths=[[CHUNK, "It is free."]])
    with pytest.warns(UserWarning) as caught:
        out = df.rag.evaluate(model="offline", progress=False)
    note = next(str(w.message) for w in caught if "left out" in str(w.message))
    assert note.endswith(
        "To score the rest, 'ground_truths' holds lists of texts (ragas' older plural form): "
        "join them first, e.g. df['ground_truth'] = df['ground_truths'].map(' '.join)."
    )
    assert "context_recall" not in out.columns
    fixed = df.assign(ground_truth=df["ground_truths"].map(" ".join))
    # joined: two ground-truth claims, the context supports the first only
    assert fixed.rag.context_recall(model="offline", progress=False)["context_recall"][0] == 0.5
