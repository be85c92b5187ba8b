"""Frames as real RAG stacks leave them: merged logs, concatenated runs, legacy names."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ragnotebook as rn

CHUNK = "The museum is on Pier 4."


def _said(caught: list, part: str) -> list[str]:
    """The messages of the caught warnings that contain ``part``."""
    return [str(w.message) for w in caught if part in str(w.message)]


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
    said = _said(caught, "have no value")
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
    (note,) = _said(caught, "left out")
    assert note.endswith(
        "To score the rest, 'ground_truths' holds lists of texts (ragas' older plural form): "
        "join them first, e.g. df['ground_truth'] = df['ground_truths'].map(' '.join)."
    )
    assert "context_recall" not in out.columns
    fixed = df.assign(ground_truth=df["ground_truths"].map(" ".join))
    # joined: two ground-truth claims, the context supports the first only
    assert fixed.rag.context_recall(model="offline", progress=False)["context_recall"][0] == 0.5


# ------------------------------------------------------- what migrating users bring along


class _Doc:  # the shape of a LangChain Document
    def __init__(self, page_content: str) -> None:
        self.page_content = page_content
        self.metadata = {"source": "museum.pdf"}


def _app(contexts: list) -> object:
    return lambda q: {"answer": "The museum is on Pier 4.", "contexts": contexts}


@pytest.mark.parametrize(
    ("contexts", "said"),
    [
        (
            [_Doc(CHUNK)],
            "chunk 0 is _Doc, expected str (a document object; return the texts, "
            "e.g. [d.page_content for d in docs])",
        ),
        (
            [{"document.content": CHUNK, "document.score": 0.9}],
            "chunk 0 is dict, expected str "
            "(a document object; return the texts, e.g. [d['document.content'] for d in docs])",
        ),
        (
            [(CHUNK, 0.91)],
            "chunk 0 is tuple, expected str (a pair of a chunk and its score; "
            "return the texts, e.g. [d for d, _ in pairs])",
        ),
    ],
)
def test_a_target_returning_retriever_objects_gets_an_error_row_with_the_recipe(
    contexts: list, said: str
) -> None:
    # the Document used to end the item as "cancelled: the run was interrupted", and a dict
    # or a pair was scored as its JSON dump, metadata and score included
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rn.run_evals(
            ["Where is the museum?"],
            scorers=[rn.create_faithfulness_scorer(model="offline")],
            target=_app(contexts),
            progress=False,
        )
    row = res.frame.iloc[0]
    assert row["target_status"] == "ok" and res.target_stats["n_cancelled"] == 0
    assert row["faithfulness_status"] == "error"
    assert row["faithfulness_error"] == f"ValueError: the target's output['contexts']: {said}"


def test_a_target_with_deepeval_keys_is_read_and_one_without_an_answer_is_warned_about() -> None:
    deepeval_style = lambda q: {"actual_output": "It is on Pier 4.", "retrieval_context": [CHUNK]}  # noqa: E731
    res = rn.run_evals(
        ["Where is the museum?"],
        scorers=[rn.create_faithfulness_scorer(model="offline")],
        target=deepeval_style,
        progress=False,
    )
    assert res.frame.loc[0, "answer"] == "It is on Pier 4."
    assert res.scores["faithfulness-scorer"]["mean"] == 1.0
    with pytest.warns(UserWarning) as caught:
        rn.run_evals(
            ["Where?", "When?"],
            scorers=[rn.create_faithfulness_scorer(model="offline")],
            target=lambda q: {"reply": "It is on Pier 4.", "contexts": [CHUNK]},
            progress=False,
        )
    said = _said(caught, "no target output")
    assert said == [
        "run_evals: no target output holds an answer under 'answer', 'output', 'text', "
        "'response', 'content' or 'actual_output' (their keys: 'contexts', 'reply'), so "
        "faithfulness has no answer to judge on any row (status no_claims, not averaged). "
        "Return the answer under one of those keys."
    ]


def test_precision_against_two_kinds_of_reference_is_warned_about_once() -> None:
    df = _frame(3)
    df.loc[2, "ground_truth"] = None
    with pytest.warns(rn.MixedReferenceWarning) as caught:
        out = df.rag.context_precision(model="offline", progress=False)
    said = _said(caught, "reference='auto'")
    assert said == [
        "context_precision (reference='auto'): 2 rows are judged against their ground truth "
        "and 1 against its answer (no ground truth, e.g. row 2), and summary() averages both "
        "kinds. Pass reference='ground_truth' to score only the first (the rest are "
        "no_reference), or fill the missing ground truths."
    ]
    assert out["context_precision_reason"][2].endswith("relevant to the answer, at position 1.")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        only = df.rag.context_precision(model="offline", progress=False, reference="ground_truth")
    assert only["context_precision_status"].tolist() == ["ok", "ok", "no_reference"]


def test_records_instead_of_a_frame_get_the_constructor_in_the_error() -> None:
    with pytest.raises(TypeError) as info:
        rn.evaluate([{"question": "Where?", "answer": "Pier 4."}], model="offline")
    assert str(info.value) == (
        "expected a pandas DataFrame, got list; make one first: pd.DataFrame(records)"
    )


def test_the_migration_guides_phoenix_example_runs_as_written() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "migrating.md").read_text("utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    space: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(block, "migrating.md", "exec"), space)
    scored = space["scored"]
    assert list(scored.index) == ["t1"]
    assert scored.loc["t1", "contexts"] == ["The museum is on Pier 4."]
    assert scored.loc["t1", "faithfulness"] == 1.0 and scored.loc["t1", "context_precision"] == 1.0
    assert "context_recall" not in scored.columns


# ------------------------------------------------------------------ options of the wrong type


def _one_row() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question": ["Where?"],
            "answer": ["It is on Pier 4."],
            "contexts": [["The museum is on Pier 4.", "Noise"]],
            "ground_truth": ["The museum is on Pier 4."],
        }
    )


@pytest.mark.parametrize(
    ("option", "error", "message"),
    [
        ({"decimals": 1.5}, TypeError, "decimals must be an integer >= 0 or None, got 1.5"),
        ({"decimals": True}, TypeError, "decimals must be an integer >= 0 or None, got True"),
        ({"decimals": "2"}, TypeError, "decimals must be an integer >= 0 or None, got '2'"),
        ({"decimals": -1}, ValueError, "decimals must be an integer >= 0 or None, got -1"),
        ({"concurrency": "4"}, TypeError, "concurrency must be an integer >= 1, got '4'"),
        ({"concurrency": 2.5}, TypeError, "concurrency must be an integer >= 1, got 2.5"),
        ({"concurrency": 0}, ValueError, "concurrency must be an integer >= 1, got 0"),
        (
            {"max_chunks_per_call": "20"},
            TypeError,
            "max_chunks_per_call must be an integer >= 1, got '20'",
        ),
    ],
)
def test_a_count_option_of_the_wrong_type_is_named(option, error, message):
    with pytest.raises(error) as caught:
        _one_row().rag.evaluate(model="offline", progress=False, **option)
    assert str(caught.value) == message


def test_numpy_decimals_still_round():
    out = _one_row().rag.evaluate(model="offline", progress=False, decimals=np.int64(1))
    assert out.attrs["ragnotebook"]["metrics"]["context_precision"]["decimals"] == 1
    assert float(out.loc[0, "context_precision"]) == 1.0


def test_metrics_none_and_columns_as_a_list_are_named():
    df = _one_row()
    with pytest.raises(
        TypeError,
        match=r"^metrics must be a metric name or a list of them .*"
        r"got None; leave metrics= out for the default",
    ):
        df.rag.evaluate(model="offline", progress=False, metrics=None)
    with pytest.raises(TypeError, match=r"^metrics must hold metric names .* got 3 in it$"):
        df.rag.evaluate(model="offline", progress=False, metrics=["faithfulness", 3])
    with pytest.raises(TypeError, match=r"^columns must be a mapping of role to column name"):
        df.rag.evaluate(model="offline", progress=False, columns=["question"])


def test_reason_llm_with_the_offline_judge_warns():
    with pytest.warns(UserWarning, match="reason='llm' .* the offline judge is no LLM"):
        out = _one_row().rag.faithfulness(model="offline", progress=False, reason="llm")
    assert out.loc[0, "faithfulness_status"] == "ok"


def test_set_default_model_checks_the_string_at_once():
    try:
        with pytest.raises(ValueError, match="did you mean model='offline'"):
            rn.set_default_model("offlin")
        with pytest.raises(TypeError, match="got int"):
            rn.set_default_model(3)
        with pytest.raises(ValueError, match="empty string"):
            rn.set_default_model("  ")
        with pytest.warns(UserWarning, match="set_default_model: model 'bogus-model-xyz'"):
            rn.set_default_model("bogus-model-xyz")
        assert rn.get_default_model() == "bogus-model-xyz"  # a warning: still set
    finally:
        rn.set_default_model(None)


# ------------------------------------------------------------------ contexts cells, nits


def _with_contexts(cell) -> pd.DataFrame:
    df = _one_row()
    df["contexts"] = pd.Series([cell], dtype=object)
    return df


def test_a_printed_dict_cell_is_refused_with_the_recipe():
    for cell in ("{'text': 'The museum is on Pier 4.'}", '{"page_content": "Pier 4."}'):
        with pytest.raises(ValueError) as caught:
            _with_contexts(cell).rag.evaluate(model="offline", progress=False)
        assert "this string is a document dict written as text" in str(caught.value)
        assert "before saving the file, take the text" in str(caught.value)
    # a dict with no text field (a JSON record as the chunk) stays one chunk
    out = _with_contexts('{"museum": "Harbor", "pier": 4}').rag.context_precision(
        model="offline", progress=False
    )
    assert out.loc[0, "context_precision_status"] == "ok"


def test_a_dict_cell_and_nested_lists_get_a_recipe():
    with pytest.raises(ValueError) as caught:
        _with_contexts({"text": "The museum is on Pier 4."}).rag.evaluate(
            model="offline", progress=False
        )
    assert str(caught.value) == (
        "row 0, column 'contexts': expected a list of strings, got dict (a document object; "
        "take the text, e.g. df[col] = df[col].map(lambda d: [d['text']]))"
    )
    nested = [["The museum is on Pier 4.", "Noise"], ["More."]]
    for cell in (nested, str(nested)):
        with pytest.raises(ValueError) as caught:
            _with_contexts(cell).rag.evaluate(model="offline", progress=False)
        assert "chunk 0" in str(caught.value)
        assert "a list of chunk lists, as multi-query retrieval gives;" in str(caught.value)
        assert "[c for part in parts for c in part]" in str(caught.value)
