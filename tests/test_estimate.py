"""ragnotebook.estimate: calls, tokens and cost predicted before any judge call."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import prompts
from ragnotebook.costs import estimate
from ragnotebook.tasks import Item, Task
from ragnotebook.text import split_sentences

METRICS = ["context_recall", "context_precision", "faithfulness"]

CHUNK = "The Harbor Museum sits on Pier 4 and opens at nine."


@pytest.fixture
def frame():
    """Row 0: 45 chunks. Row 1: blank ground truth. Row 2: no chunks."""
    return pd.DataFrame(
        {
            "question": ["Where is the museum?", "When does it open?", "Who runs it?"],
            "answer": [
                "The museum is on Pier 4. It opens at nine.",
                "It opens at nine.",
                "The city runs it. It was founded in 1990.",
            ],
            "contexts": [[f"{CHUNK} ({i})" for i in range(45)], [CHUNK, "Tickets cost $5."], []],
            "ground_truth": ["The museum is on Pier 4.", "   ", "The city runs the museum."],
        }
    )


def test_exact_calls_per_metric(frame):
    est = estimate(frame, model="offline")
    assert list(est.index) == ["context_recall", "context_precision", "faithfulness", "total"]
    assert list(est.columns) == [
        "metric",
        "rows",
        "calls",
        "shared",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "price_known",
        "note",
    ]
    # recall: 2 + 0 (blank ground truth) + 1 (no chunks: extraction only)
    # precision: ceil(45 / 20) = 3 + 1 + 0 (no chunks)
    # faithfulness: 2 + 2 + 1 (no chunks: extraction only)
    assert est["calls"].to_dict() == {
        "context_recall": 3,
        "context_precision": 4,
        "faithfulness": 5,
        "total": 12,
    }
    assert est["rows"].to_dict() == {
        "context_recall": 2,
        "context_precision": 2,
        "faithfulness": 3,
        "total": 3,
    }
    assert est["metric"].tolist() == list(est.index)


def test_per_row_calls_of_the_issue(frame):
    def calls(df, **kw):
        return estimate(df, model="offline", **kw)["calls"].drop("total").to_dict()

    assert calls(frame.iloc[[0]]) == {
        "context_recall": 2,
        "context_precision": 3,
        "faithfulness": 2,
    }
    # its one ground truth is blank: as evaluate() without metrics=, recall is left out
    with pytest.warns(UserWarning, match="leaves out 'context_recall'"):
        assert calls(frame.iloc[[1]]) == {"context_precision": 1, "faithfulness": 2}
    assert calls(frame.iloc[[1]], metrics=METRICS) == {
        "context_recall": 0,
        "context_precision": 1,
        "faithfulness": 2,
    }
    assert calls(frame.iloc[[2]]) == {
        "context_recall": 1,
        "context_precision": 0,
        "faithfulness": 1,
    }
    # at most 5 calls for a row with up to 20 chunks (all three metrics)
    twenty = frame.iloc[[0]].copy()
    twenty.at[0, "contexts"] = [CHUNK] * 20
    assert estimate(twenty, model="offline").loc["total", "calls"] == 5
    # smaller batches: more precision calls
    assert calls(frame.iloc[[0]], max_chunks_per_call=10)["context_precision"] == 5


def test_reason_llm_adds_one_call_per_scored_row_metric(frame):
    base = estimate(frame, model="offline")["calls"]
    llm = estimate(frame, model="offline", reason="llm")["calls"]
    # row 0: all three metrics scored; row 1: precision and faithfulness;
    # row 2: none reaches "ok" (no context), so no explanation is asked
    assert (llm - base).to_dict() == {
        "context_recall": 1,
        "context_precision": 2,
        "faithfulness": 2,
        "total": 5,
    }
    assert estimate(frame, model="offline", reason=None)["calls"].equals(base)


def test_blank_answers_and_blank_chunks():
    df = pd.DataFrame(
        {
            "question": ["q1", "q2"],
            "answer": [None, ""],
            "contexts": [["  ", ""], [CHUNK, " "]],
            "ground_truth": ["The museum is on Pier 4.", None],
        }
    )
    est = estimate(df, model="offline", metrics=METRICS)  # every answer blank: asked for
    # row 0: recall extracts, then all chunks blank -> no attribution; precision: all blank
    # row 1: no ground truth, no answer -> no reference for precision; no faithfulness call
    assert est["calls"].to_dict() == {
        "context_recall": 1,
        "context_precision": 0,
        "faithfulness": 0,
        "total": 1,
    }


def test_metric_subset_aliases_and_column_mapping(frame):
    renamed = frame.rename(columns={"answer": "bot_reply"})
    est = estimate(renamed, model="offline", metrics=["faithful"], columns={"answer": "bot_reply"})
    assert list(est.index) == ["faithfulness", "total"]
    assert est.loc["total", "calls"] == 5
    with pytest.raises(ValueError, match="unknown metric"):
        estimate(frame, model="offline", metrics=["bleu"])
    with pytest.raises(ValueError, match="empty"):
        estimate(frame, model="offline", metrics=[])
    with pytest.raises(TypeError, match="DataFrame"):
        estimate([1, 2], model="offline")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        estimate(frame, model="offline", reason="poem")
    with pytest.raises(ValueError, match="ground_truth"):
        estimate(frame.drop(columns="ground_truth"), model="offline", metrics=["context_recall"])


def test_offline_and_judge_objects_report_calls_only(frame):
    for model in ("offline", rn.MockJudge()):
        est = estimate(frame, model=model)
        assert est.loc["total", "calls"] == 12
        assert (est["prompt_tokens"] == 0).all() and (est["completion_tokens"] == 0).all()
        assert (est["cost_usd"] == 0.0).all() and est["price_known"].all()
        assert (est["note"] == "judge calls").all()
        assert est.attrs["ragnotebook_estimate"]["llm"] is False


def test_known_model_has_tokens_and_a_price(frame):
    est = estimate(frame, model="openai/gpt-4o-mini")
    assert est["price_known"].all()
    assert (est["cost_usd"] > 0).all()
    assert est.loc["total", "cost_usd"] == pytest.approx(est["cost_usd"].drop("total").sum())
    assert (est["prompt_tokens"] > 0).all() and (est["completion_tokens"] > 0).all()
    assert est.attrs["ragnotebook_estimate"]["token_counting"] == "litellm.token_counter"
    assert est.dtypes.drop(["metric", "note"]).to_dict() == {
        "rows": np.dtype(np.int64),
        "calls": np.dtype(np.int64),
        "shared": np.dtype(np.int64),
        "prompt_tokens": np.dtype(np.int64),
        "completion_tokens": np.dtype(np.int64),
        "cost_usd": np.dtype(np.float64),
        "price_known": np.dtype(bool),
    }
    # a judge object for the same model gives the same estimate
    judge = rn.LiteLLMJudge("openai/gpt-4o-mini", api_key="sk-test")
    pd.testing.assert_frame_equal(estimate(frame, model=judge), est)


def test_unknown_model_gives_nan_cost_and_no_exception(frame, capsys):
    est = estimate(frame, model="openai/surely-not-a-real-model-xyz")
    assert est["cost_usd"].isna().all()
    assert not est["price_known"].any()
    assert (est["note"] == "unknown price").all()
    assert (est["prompt_tokens"] > 0).all()  # characters / 4
    assert est.attrs["ragnotebook_estimate"]["token_counting"] == "chars/4"
    assert "Provider List" not in capsys.readouterr().out
    est2 = estimate(frame, model="no-provider-at-all")
    assert est2["cost_usd"].isna().all()


def test_chars_over_four_counts_the_rendered_prompts():
    df = pd.DataFrame(
        {
            "question": ["Where is it?"],
            "answer": ["It is on Pier 4. It opens at nine."],
            "contexts": [[CHUNK]],
        }
    )
    est = estimate(df, model="openai/surely-not-a-real-model-xyz", metrics=["faithfulness"])
    claims = split_sentences(df.loc[0, "answer"])
    tasks = [
        Task("extract_claims", "faithfulness", question="Where is it?", text=df.loc[0, "answer"],
             source="answer"),
        Task("verify_claims", "faithfulness", question="Where is it?",
             items=tuple(Item(i, c) for i, c in enumerate(claims)), chunks=(CHUNK,)),
    ]  # fmt: skip
    expected = sum(math.ceil(sum(len(m["content"]) for m in prompts.render(t)) / 4) for t in tasks)
    assert est.loc["faithfulness", "prompt_tokens"] == expected
    # 2 claims extracted + 2 verdicts, 40 tokens each
    assert est.loc["faithfulness", "completion_tokens"] == 4 * 40
    est10 = estimate(
        df,
        model="openai/surely-not-a-real-model-xyz",
        metrics=["faithfulness"],
        completion_tokens_per_item=10,
    )
    assert est10.loc["faithfulness", "completion_tokens"] == 40


def test_longer_texts_cost_more(frame):
    short = estimate(frame, model="openai/gpt-4o-mini")
    longer = frame.copy()
    longer["contexts"] = [[c * 5 for c in cs] for cs in frame["contexts"]]
    long_est = estimate(longer, model="openai/gpt-4o-mini")
    assert long_est.loc["total", "prompt_tokens"] > 2 * short.loc["total", "prompt_tokens"]
    assert long_est.loc["total", "cost_usd"] > short.loc["total", "cost_usd"]


def test_sampled_token_counts_stay_close_to_exact(frame, monkeypatch):
    import ragnotebook.costs as est_mod

    big = pd.concat([frame] * 30, ignore_index=True)
    big["answer"] = [f"{a} Row {i} adds a sentence." for i, a in enumerate(big["answer"])]
    exact = estimate(big, model="openai/gpt-4o-mini")
    monkeypatch.setattr(est_mod._Counter.__init__, "__defaults__", (20,))
    sampled = estimate(big, model="openai/gpt-4o-mini")
    assert "of" in sampled.attrs["ragnotebook_estimate"]["token_counting"]
    ratio = sampled["prompt_tokens"] / exact["prompt_tokens"]
    assert ((ratio > 0.95) & (ratio < 1.05)).all()
    assert sampled["calls"].equals(exact["calls"])


def test_estimated_calls_match_a_real_run(frame, tmp_path, monkeypatch):
    """A judge that answers like the estimate's stand-ins makes exactly the estimated calls."""
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(tmp_path / "cache.sqlite3"))
    judge = rn.MockJudge(
        extract_claims=lambda t: list(split_sentences(t.text)),
        attribute_claims=lambda t: ["yes"] * len(t.items),
        judge_chunks=lambda t: ["yes"] * len(t.items),
        verify_claims=lambda t: ["yes"] * len(t.items),
        explain=lambda t: "Explained.",
    )
    for reason in ("template", "llm"):
        judge.tasks.clear()
        est = estimate(frame, model=judge, reason=reason)
        rn.evaluate(frame, model=judge, reason=reason, progress=False)
        for metric in ("context_recall", "context_precision", "faithfulness"):
            sent = sum(1 for t in judge.tasks if t.metric == metric)
            assert est.loc[metric, "calls"] == sent, (reason, metric)


def test_empty_frame():
    df = pd.DataFrame({"question": [], "answer": [], "contexts": [], "ground_truth": []})
    est = estimate(df, model="openai/gpt-4o-mini")
    assert (est["calls"] == 0).all()
    assert (est["cost_usd"] == 0.0).all() and est["price_known"].all()


def test_repeated_rows_are_estimated_once_for_an_llm_judge(frame):
    # the same rows under three systems (one retriever): a run asks each task once
    three = pd.concat([frame] * 3, ignore_index=True)
    one = estimate(frame, model="openai/gpt-4o-mini")
    est = estimate(three, model="openai/gpt-4o-mini")
    assert est["calls"].tolist() == one["calls"].tolist()
    assert est["shared"].tolist() == (2 * one["calls"]).tolist()
    assert est.loc["total", "prompt_tokens"] == one.loc["total", "prompt_tokens"]
    # the copies send no call of their own
    assert est.loc["total", "rows"] == one.loc["total", "rows"]
    # a judge that is no LLM (scripted, offline) is asked for every row
    assert estimate(three, model="offline")["calls"].tolist() == [
        3 * n for n in estimate(frame, model="offline")["calls"]
    ]
    assert (estimate(three, model="offline")["shared"] == 0).all()


def test_without_metrics_it_estimates_what_evaluate_would_run():
    # production logs without references: evaluate() scores precision and faithfulness,
    # estimate() raised "no column found for the 'ground_truth' role"
    df = pd.DataFrame(
        {"question": ["Where?"], "answer": ["It is on Pier 4."], "contexts": [["Pier 4."]]}
    )
    with pytest.warns(
        UserWarning,
        match=r"estimate\(\), as evaluate\(\), leaves out 'context_recall'.*It estimates 'context_precision' and 'faithfulness'",
    ):
        est = estimate(df, model="offline")
    assert est.index.tolist() == ["context_precision", "faithfulness", "total"]
    assert est["calls"].tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match="ground_truth"):  # asked for explicitly: an error
        estimate(df, model="offline", metrics=["context_recall"])
