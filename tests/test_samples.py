"""Tests for the bundled sample datasets."""

from __future__ import annotations

import json
from importlib.resources import files

import pandas as pd
import pytest

from ragnotebook.intake import read_rows
from ragnotebook.samples import list_samples, load_sample

CORE = ["question", "answer", "contexts", "ground_truth", "source"]


def _all_lists_of_str(series: pd.Series) -> bool:
    return all(
        isinstance(v, list) and len(v) > 0 and all(isinstance(c, str) and c for c in v)
        for v in series
    )


def test_list_samples() -> None:
    assert list_samples() == [
        "quickstart",
        "hotpotqa",
        "ragtruth",
        "halueval",
        "hotpotqa_fullwiki",
        "ragtruth_qa",
    ]


def test_unknown_sample_lists_names() -> None:
    with pytest.raises(ValueError) as info:
        load_sample("squad")
    message = str(info.value)
    assert "'squad'" in message
    for name in list_samples():
        assert repr(name) in message


def test_hotpotqa_sample() -> None:
    df = load_sample("hotpotqa")
    assert df.shape == (16, 8)
    assert list(df.columns) == [*CORE, "context_titles", "context_labels", "n_gold_retrieved"]
    assert df.index.name == "id" and df.index.is_unique
    assert set(df["source"]) == {"hotpotqa"}
    assert df["answer"].isna().all()
    assert df["ground_truth"].map(lambda s: isinstance(s, str) and s != "").all()
    assert _all_lists_of_str(df["contexts"])
    assert df["contexts"].map(len).eq(10).all()
    assert df["n_gold_retrieved"].value_counts().to_dict() == {2: 6, 1: 6, 0: 4}
    for contexts, titles, labels, n_gold in zip(
        df["contexts"],
        df["context_titles"],
        df["context_labels"],
        df["n_gold_retrieved"],
        strict=True,
    ):
        assert len(titles) == len(labels) == len(contexts)
        assert set(labels) <= {0, 1}
        # n_gold_retrieved counts gold articles, one paragraph each.
        assert sum(labels) == n_gold


def test_ragtruth_sample() -> None:
    df = load_sample("ragtruth")
    assert df.shape == (16, 6)
    assert list(df.columns) == [*CORE, "hallucinated"]
    assert str(df["hallucinated"].dtype) == "boolean"
    assert int(df["hallucinated"].sum()) == 8
    assert set(df["source"]) == {"ragtruth"}
    assert df["ground_truth"].isna().all()
    assert df["answer"].map(lambda s: isinstance(s, str) and len(s) > 20).all()
    assert _all_lists_of_str(df["contexts"])
    assert df["contexts"].map(len).eq(3).all()
    # Rows come in pairs sharing a question: one hallucinated, one not.
    per_question = df.groupby("question")["hallucinated"].agg(["sum", "count"])
    assert (per_question["count"] == 2).all() and (per_question["sum"] == 1).all()


def test_halueval_sample() -> None:
    df = load_sample("halueval")
    assert df.shape == (16, 6)
    assert list(df.columns) == [*CORE, "faithful"]
    assert int(df["faithful"].sum()) == 8
    assert set(df["source"]) == {"halueval"}
    assert _all_lists_of_str(df["contexts"])
    right = df[df.index.str.endswith("-right")]
    assert len(right) == 8 and right["faithful"].all()
    # The faithful row's answer is the gold answer.
    assert (right["answer"] == right["ground_truth"]).all()


def test_quickstart_sample() -> None:
    df = load_sample()
    assert df.shape == (48, 10)
    assert list(df.columns) == [
        *CORE,
        "context_titles",
        "context_labels",
        "n_gold_retrieved",
        "hallucinated",
        "faithful",
    ]
    assert df.index.is_unique
    assert all(isinstance(label, str) for label in df.index)
    assert list(df["source"].unique()) == ["hotpotqa", "ragtruth", "halueval"]
    assert df["source"].value_counts().to_dict() == {"hotpotqa": 16, "ragtruth": 16, "halueval": 16}
    assert _all_lists_of_str(df["contexts"])
    # Labels are present where the source has them and missing elsewhere.
    by_source = df.groupby("source")
    assert by_source["n_gold_retrieved"].count().to_dict() == {
        "halueval": 0,
        "hotpotqa": 16,
        "ragtruth": 0,
    }
    assert by_source["hallucinated"].count().to_dict() == {
        "halueval": 0,
        "hotpotqa": 0,
        "ragtruth": 16,
    }
    assert by_source["faithful"].count().to_dict() == {"halueval": 16, "hotpotqa": 0, "ragtruth": 0}
    assert df.loc[df["source"] != "hotpotqa", "context_labels"].isna().all()
    # Boolean masks on the nullable label columns treat missing as False.
    assert len(df[df["hallucinated"]]) == 8


def test_quickstart_matches_parts_and_is_fresh() -> None:
    quick = load_sample("quickstart")
    parts = [load_sample(name) for name in ("hotpotqa", "ragtruth", "halueval")]
    assert quick.index.tolist() == [i for part in parts for i in part.index]
    quick.loc[quick.index[0], "question"] = "changed"
    assert load_sample().iloc[0]["question"] != "changed"


@pytest.mark.parametrize("name", list_samples())
def test_samples_read_cleanly(name: str) -> None:
    rows, mapping = read_rows(load_sample(name), required=["question", "contexts"])
    assert mapping == {
        "question": "question",
        "answer": "answer",
        "contexts": "contexts",
        "ground_truth": "ground_truth",
    }
    assert len(rows) == len(load_sample(name))
    assert all(r.question and r.contexts for r in rows)


def test_hotpotqa_fullwiki_sample() -> None:
    df = load_sample("hotpotqa_fullwiki")
    assert df.shape == (36, 10)
    assert list(df.columns) == [
        *CORE,
        "context_titles",
        "context_labels",
        "n_gold_retrieved",
        "gold_titles",
        "question_type",
    ]
    assert df.index.is_unique and set(df["source"]) == {"hotpotqa"}
    assert df["n_gold_retrieved"].value_counts().to_dict() == {1: 19, 2: 12, 0: 5}
    assert set(df["question_type"]) == {"bridge", "comparison"}
    for titles, labels, gold, n_gold in zip(
        df["context_titles"],
        df["context_labels"],
        df["gold_titles"],
        df["n_gold_retrieved"],
        strict=True,
    ):
        assert len(gold) == 2 and len(set(gold)) == 2
        # a paragraph is labelled gold exactly when its title is a gold title
        assert [int(t in gold) for t in titles] == labels
        assert sum(t in titles for t in gold) == n_gold
    # the small sample is the documented subset, in file order
    small = load_sample("hotpotqa")
    assert small.index.isin(df.index).all()
    positions = [df.index.get_loc(i) for i in small.index]
    assert positions == sorted(positions)
    shared = df.loc[small.index, small.columns]
    pd.testing.assert_frame_equal(shared, small)


def test_ragtruth_qa_sample() -> None:
    df = load_sample("ragtruth_qa")
    assert df.shape == (97, 9)
    assert list(df.columns) == [
        *CORE,
        "hallucinated",
        "question_id",
        "generator",
        "hallucination_spans",
    ]
    assert int(df["hallucinated"].sum()) == 16
    assert df["question_id"].nunique() == 17
    assert df["generator"].nunique() == 6
    assert _all_lists_of_str(df["contexts"])
    # the response-level label is "at least one human span"
    spans = df["hallucination_spans"]
    assert (spans.map(len).gt(0) == df["hallucinated"]).all()
    for row_spans, answer in zip(spans, df["answer"], strict=True):
        for span in row_spans:
            assert set(span) == {"text", "label_type"}
            assert span["text"] in answer
    # every response to one question shares its passages
    assert (df.groupby("question_id")["contexts"].agg(lambda s: s.map(tuple).nunique()) == 1).all()
    small = load_sample("ragtruth")
    assert small.index.isin(df.index).all()
    pd.testing.assert_frame_equal(df.loc[small.index, small.columns], small)


def test_bundled_files_are_small_and_attributed() -> None:
    data = files("ragnotebook").joinpath("data")
    names = sorted(p.name for p in data.iterdir() if p.name.endswith(".jsonl"))
    assert names == [
        "halueval_sample.jsonl",
        "hotpotqa_fullwiki_sample.jsonl",
        "ragtruth_qa_sample.jsonl",
    ]
    total = 0
    attribution = data.joinpath("ATTRIBUTION.md").read_text(encoding="utf-8")
    for filename in names:
        text = data.joinpath(filename).read_text(encoding="utf-8")
        total += len(text.encode("utf-8"))
        first = json.loads(text.splitlines()[0])
        assert {"id", "question", "answer", "contexts", "ground_truth", "source"} <= set(first)
        assert f"`{filename}`" in attribution
    assert total < 600_000
    for needle in (
        "Copyright (c) 2023 Particle Media",
        "Copyright (c) 2020 RUCAIBox",
        "CC BY-SA 4.0",
        "ShareAlike",
    ):
        assert needle in attribution
