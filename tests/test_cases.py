"""The issue's numbered cases, end to end through the DataFrame API."""

import asyncio
import warnings

import pandas as pd
import pytest

import ragnotebook as rn


def frame(**cols):
    return pd.DataFrame(cols)


# 1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("contexts", [[], [""], ["   "]])
def test_case1_empty_contexts(contexts):
    judge = rn.MockJudge(
        extract_claims=lambda t: ["The Harbor Museum opened in 1998.", "It sits on Pier 4."]
    )
    df = frame(
        question=["When?"],
        contexts=[contexts],
        ground_truth=["The Harbor Museum opened in 1998. It sits on Pier 4."],
    )
    with pytest.warns(UserWarning) as caught:
        out = rn.evaluate(
            df, metrics=["context_recall", "context_precision"], model=judge, progress=False
        )
    # no row of the frame has a chunk: said once, as the retriever or the column may be wrong
    assert [str(w.message) for w in caught] == [
        "no row has a retrieved chunk in the 'contexts' column: every row is no_context (a "
        "measured 0 for 'context_recall'). If your retriever did return chunks, check which "
        "column holds them (columns={'contexts': ...})."
    ]
    assert out.loc[0, "context_recall"] == 0.0
    assert out.loc[0, "context_recall_status"] == "no_context"
    assert judge.tasks_of("attribute_claims") == []  # no attribution call
    assert [v["verdict"] for v in out.loc[0, "context_recall_verdicts"]] == ["no", "no"]
    assert pd.isna(out.loc[0, "context_precision"])
    assert out.loc[0, "context_precision_status"] == "no_context"
    assert judge.tasks_of("judge_chunks") == []


# 2 ------------------------------------------------------------------------------------
def test_case2_recall_counts_claims_not_sentences():
    judge = rn.MockJudge(
        extract_claims=[["The depot ships 40 pallets a day.", "The depot ships from Dock B."]],
        attribute_claims=[["yes", "no"]],
    )
    df = frame(
        question=["How many pallets?"],
        contexts=[["The depot ships 40 pallets a day."]],
        ground_truth=["The depot ships 40 pallets a day from Dock B."],
    )
    out = rn.context_recall(df, model=judge, progress=False)
    assert out.loc[0, "context_recall"] == 0.5


# 3 ------------------------------------------------------------------------------------
def test_case3_refusal_has_no_claims():
    judge = rn.MockJudge(extract_claims=[[]])
    df = frame(
        question=["What is the fee?"],
        contexts=[["The fee is 12 dollars."]],
        answer=["Sorry, I could not find that in the provided documents."],
    )
    out = rn.faithfulness(df, model=judge, progress=False)
    assert out.loc[0, "faithfulness"] == 0.0
    assert out.loc[0, "faithfulness_status"] == "no_claims"
    assert judge.tasks_of("verify_claims") == []


# 4 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        (["no", "yes"], 0.5),
        (["yes", "no"], 1.0),
        (["no", "yes", "yes"], 0.58),
        (["no"] * 6 + ["yes"] + ["no"] * 5, 0.14),
    ],
)
def test_case4_precision_values(verdicts, expected):
    judge = rn.MockJudge(judge_chunks=[verdicts])
    df = frame(
        question=["q"], ground_truth=["gt"], contexts=[[f"chunk {i}" for i in range(len(verdicts))]]
    )
    out = rn.context_precision(df, model=judge, progress=False)
    assert out.loc[0, "context_precision"] == expected
    table = rn.chunks(out)
    assert table["position"].tolist() == list(range(1, len(verdicts) + 1))
    assert table["verdict"].tolist() == verdicts


# 5 ------------------------------------------------------------------------------------
def test_case5_missing_verdicts_never_inflate():
    judge = rn.MockJudge(
        extract_claims=[["a", "b", "c", "d"]],
        verify_claims=[[{"index": 0, "verdict": "yes"}, {"index": 2, "verdict": "yes"}], []],
    )
    df = frame(question=["q"], answer=["a. b. c. d."], contexts=[["ctx"]])
    with pytest.warns(UserWarning, match="the judge's output was unusable") as caught:
        out = rn.faithfulness(df, model=judge, progress=False)
    assert len(caught) == 1
    assert str(caught[0].message) == (
        "ragnotebook: the judge's output was unusable for some rows, which still have status "
        "'ok': faithfulness: 2 claim verdict(s) in 1 of 1 rows were missing or "
        "not a valid word even after the re-ask (first: row 0); they count as not supported. "
        "summary() counts the verdicts in 'missing_verdicts' (the m_verdicts cells mark them "
        "'missing' or 'invalid'); check the judge's replies (model, prompt overrides, server)."
    )
    assert out.loc[0, "faithfulness"] == 0.5
    assert [t.kind for t in judge.tasks] == ["extract_claims", "verify_claims", "verify_claims"]
    assert [it.index for it in judge.tasks[2].items] == [1, 3]
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["missing_verdicts"] == 2
    assert rn.summary(out).loc["faithfulness", "missing_verdicts"] == 2
    assert sum(bool(v.get("missing")) for v in out.loc[0, "faithfulness_verdicts"]) == 2
    # the reason counts them in their own note, not as claims the judge found unverifiable
    assert out.loc[0, "faithfulness_reason"] == (
        "The score is 0.5 because 2 of 4 answer claims are supported by the retrieved "
        "context. 2 claim(s) got no valid verdict from the judge and count as not supported."
    )


def test_case5_a_script_without_the_re_ask_says_so():
    # a script with one reply: the re-ask finds none, and the error says what it was
    judge = rn.MockJudge(
        extract_claims=[["a", "b", "c", "d"]],
        verify_claims=[[{"index": 0, "verdict": "yes"}, {"index": 2, "verdict": "yes"}]],
    )
    df = frame(question=["q"], answer=["a. b. c. d."], contexts=[["ctx"]])
    with pytest.warns(UserWarning, match="rows failed"):
        out = rn.faithfulness(df, model=judge, progress=False)
    assert out.loc[0, "faithfulness_status"] == "error"
    assert out.loc[0, "faithfulness_error"].endswith(
        "this looks like the one re-ask for items without a verdict (item 1, 3): script a "
        "reply for it too, e.g. [] to leave them missing"
    )
    # a kind never scripted gets no such hint
    bare = rn.MockJudge(extract_claims=[["a"]], verify_claims=[])
    with pytest.warns(UserWarning, match="rows failed"):
        out = rn.faithfulness(df, model=bare, progress=False)
    assert out.loc[0, "faithfulness_error"].endswith("of metric 'faithfulness'")


# 6 ------------------------------------------------------------------------------------
def test_case6_contexts_read_back_from_csv(tmp_path):
    path = tmp_path / "rows.csv"
    pd.DataFrame(
        {
            "user_input": ["Is the pass open?"],
            "retrieved_contexts": [["The pass is closed in winter.", "Snow chains are required."]],
            "reference": ["The pass is closed in winter."],
        }
    ).to_csv(path, index=False)
    df = pd.read_csv(path)
    assert isinstance(df.loc[0, "retrieved_contexts"], str)
    judge = rn.MockJudge(judge_chunks=[["yes", "no"]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = rn.context_precision(df, model=judge, progress=False)
    parsed = [w for w in caught if "contexts" in str(w.message)]
    assert len(parsed) == 1
    assert [it.text for it in judge.tasks[0].items] == [
        "The pass is closed in winter.",
        "Snow chains are required.",
    ]
    assert out.loc[0, "context_precision"] == 1.0


# 7 ------------------------------------------------------------------------------------
def test_case7_errors_never_silently_leave_the_mean():
    a = frame(
        faithfulness=pd.array([1.0, 0.0], dtype="Float64"),
        faithfulness_status=["ok", "ok"],
        faithfulness_verdicts=[[], []],
    )
    judge = rn.MockJudge(
        extract_claims=lambda t: ["claim"] if "good" in t.text else rn.JudgeError("boom"),
        verify_claims=lambda t: ["yes"],
    )
    b_in = frame(
        question=["q1", "q2"], answer=["good answer", "bad answer"], contexts=[["c"], ["c"]]
    )
    with pytest.warns(UserWarning) as caught:
        b = rn.faithfulness(b_in, model=judge, progress=False)
    # the run says rows failed, with the count and the first error (it said nothing)
    assert [str(w.message) for w in caught] == [
        "ragnotebook: rows failed (1 of 2 faithfulness); first error (row 1, faithfulness): "
        "error: boom. They have "
        "status 'error', are left out of the means, and summary() shows the coverage; the "
        "m_error columns say why."
    ]
    assert b["faithfulness_status"].tolist() == ["ok", "error"]
    assert "boom" in b.loc[1, "faithfulness_error"]
    sa, sb = rn.summary(a), rn.summary(b)
    assert sa.loc["faithfulness", "mean"] == 0.5 and sa.loc["faithfulness", "scored"] == "2/2"
    assert sb.loc["faithfulness", "mean"] == 1.0 and sb.loc["faithfulness", "scored"] == "1/2"
    assert sb.loc["faithfulness", "n_error"] == 1
    assert "1/2" in repr(sb)


def test_the_failure_warning_names_the_row_and_metric_of_the_first_failure():
    # q20 fails faithfulness and q21 recall: the first failure in frame order is q20's, though
    # context_recall comes first in the metric order
    def claims(task):
        if task.metric == "faithfulness" and task.text == "twenty":
            return RuntimeError("boom")
        if task.metric == "context_recall" and task.text == "twenty-one":
            return RuntimeError("recall down")
        return ["claim"]

    judge = rn.MockJudge(
        extract_claims=claims,
        verify_claims=lambda t: ["yes"],
        attribute_claims=lambda t: ["yes"],
        judge_chunks=lambda t: ["yes"] * len(t.items),
    )
    df = pd.DataFrame(
        {
            "question": ["q"] * 3,
            "answer": ["nineteen", "twenty", "twenty-one"],
            "contexts": [["c"]] * 3,
            "ground_truth": ["nineteen", "twenty", "twenty-one"],
        },
        index=["q19", "q20", "q21"],
    )
    with pytest.warns(UserWarning) as caught:
        out = rn.evaluate(df, model=judge, progress=False)
    assert out["faithfulness_status"].tolist() == ["ok", "error", "ok"]
    assert out["context_recall_status"].tolist() == ["ok", "ok", "error"]
    [message] = [str(w.message) for w in caught]
    assert message.startswith(
        "ragnotebook: rows failed (1 of 3 context_recall, 1 of 3 faithfulness); first error "
        "(row 'q20', faithfulness): RuntimeError: boom. They have status 'error'"
    ), message


# 8 ------------------------------------------------------------------------------------
def test_case8_chinese_row_offline():
    df = frame(
        question=["会员费是多少？"],
        answer=["会员费每年120元。"],
        contexts=[["年度会员费为120元。"]],
        ground_truth=["每年120元。"],
    )
    out = rn.evaluate(
        df, metrics=["faithfulness", "context_recall"], model="offline", progress=False
    )
    assert out.loc[0, "faithfulness"] == 1.0
    assert out.loc[0, "context_recall"] == 1.0
    claims = rn.claims(out)
    assert set(claims["claim"]) == {"会员费每年120元。", "每年120元。"}


# 9 ------------------------------------------------------------------------------------
def test_case9_sync_inside_running_loop():
    df = frame(
        question=["When?"],
        answer=["It opened in 1998."],
        contexts=[["The museum opened in 1998."]],
        ground_truth=["It opened in 1998."],
    )

    async def main():
        first = rn.evaluate(df, model="offline", progress=False)
        second = df.rag.evaluate(model="offline", progress=False)
        third = await df.rag.aevaluate(model="offline", progress=False)
        return first, second, third

    first, second, third = asyncio.run(asyncio.wait_for(main(), timeout=60))
    for m in rn.api.METRICS:
        assert first.loc[0, m] == second.loc[0, m] == third.loc[0, m]
        assert first.loc[0, f"{m}_status"] == "ok"


# 10 -----------------------------------------------------------------------------------
def test_case10_duplicate_labels_kept_separate_and_order_independent():
    df = pd.DataFrame(
        {
            "question": ["What is 3+3?", "What is 2+2?", "What is 2+2?"],
            "answer": ["6.", "4.", "5."],
            "contexts": [["3+3=6."], ["2+2=4."], ["2+2=4."]],
        },
        index=["q7", "q3", "q3"],
    )
    out = rn.faithfulness(df, model="offline", progress=False)
    assert list(out.index) == ["q7", "q3", "q3"]
    assert out["faithfulness"].tolist() == [1.0, 1.0, 0.0]
    shuffled = df.iloc[[2, 0, 1]]
    out2 = rn.faithfulness(shuffled, model="offline", progress=False)
    assert out2["answer"].tolist() == ["5.", "6.", "4."]
    assert out2["faithfulness"].tolist() == [0.0, 1.0, 1.0]
    # the long tables tell the two q3 rows apart by their position in the frame
    table = out.rag.claims()
    assert table[["row", "row_number", "claim", "verdict"]].values.tolist() == [
        ["q7", 0, "6.", "yes"],
        ["q3", 1, "4.", "yes"],
        ["q3", 2, "5.", "unsure"],
    ]


def test_offline_refusal_has_no_claims():
    df = frame(
        question=["What is the fee?"],
        contexts=[["The fee is 12 dollars."]],
        answer=["Sorry, I could not find that in the provided documents."],
    )
    out = rn.faithfulness(df, model="offline", progress=False)
    assert (out.loc[0, "faithfulness"], out.loc[0, "faithfulness_status"]) == (0.0, "no_claims")


def test_missing_answers_do_not_enter_the_faithfulness_mean():
    df = frame(
        question=["q1", "q2", "q3"],
        answer=["The fee is 12 dollars.", None, "Sorry, I could not find that."],
        contexts=[["The fee is 12 dollars."]] * 3,
    )
    out = rn.faithfulness(df, model="offline", progress=False)
    assert out["faithfulness_status"].tolist() == ["ok", "no_claims", "no_claims"]
    s = rn.summary(out)
    # the missing answer is counted but not averaged; the refusal is a measured 0
    assert s.loc["faithfulness", "scored"] == "2/3"
    assert s.loc["faithfulness", "mean"] == 0.5
    # the two no_claims rows are told apart: one of them is left out for its missing answer
    assert (s.loc["faithfulness", "no_claims"], s.loc["faithfulness", "no_answer"]) == (2, 1)
    # scored_rows() gives exactly the rows summary() averages
    mask = out.rag.scored_rows("faithfulness")
    assert mask.tolist() == [True, False, True]
    assert out.loc[mask, "faithfulness"].mean() == 0.5
    with pytest.raises(ValueError, match="not scored with 'context_recall'"):
        out.rag.scored_rows("context_recall")
    with pytest.raises(ValueError, match="not scored with 'context_recall'"):
        out.rag.scored_rows("recall")  # the short name metrics= accepts
    assert out.rag.scored_rows("faithful").tolist() == [True, False, True]
    with pytest.raises(ValueError, match="unknown metric 'bogus'; expected one of context_recall"):
        out.rag.scored_rows("bogus")


def test_faithfulness_needs_a_contexts_column():
    df = frame(question=["Q?"], answer=["The sky is blue."], context=[["The sky is blue."]])
    with pytest.raises(ValueError, match="'contexts' role"):
        rn.faithfulness(df, model="offline", progress=False)


def test_recall_ignores_ambiguous_answer_columns():
    df = frame(
        question=["Q?"],
        answer=["a"],
        response=["b"],
        contexts=[["The sky is blue."]],
        ground_truth=["The sky is blue."],
    )
    assert rn.context_recall(df, model="offline", progress=False).loc[0, "context_recall"] == 1.0
    with pytest.raises(ValueError, match="'answer' and 'response'"):
        rn.faithfulness(df, model="offline", progress=False)


def test_overwriting_a_users_column_warns():
    df = frame(
        question=["Q?"],
        answer=["The sky is blue."],
        contexts=[["The sky is blue."]],
        faithfulness=[0.3],
    )
    with pytest.warns(UserWarning, match="already has column"):
        out = rn.faithfulness(df, model="offline", progress=False)
    assert out.loc[0, "faithfulness"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out.rag.faithfulness(model="offline", progress=False)  # re-scoring our own columns


def test_rescoring_a_frame_read_back_warns_once_for_every_metric(tmp_path):
    df = frame(
        question=["Q?"],
        answer=["The sky is blue."],
        contexts=[["The sky is blue."]],
        ground_truth=["The sky is blue."],
    )
    rn.evaluate(df, model="offline", progress=False).to_json(
        tmp_path / "s.jsonl", orient="records", lines=True
    )
    back = pd.read_json(tmp_path / "s.jsonl", lines=True)  # no attrs: no run metadata
    with pytest.warns(UserWarning) as caught:
        again = rn.evaluate(back, model="offline", progress=False)
    said = [str(w.message) for w in caught if "already has column" in str(w.message)]
    assert len(said) == 1, said
    assert said[0].startswith(
        "ragnotebook: the frame already has column(s) ['context_recall', "
        "'context_recall_reason', 'context_recall_verdicts', 'context_recall_status', "
        "'context_recall_error'] and 10 more, the names ragnotebook writes for context_recall, "
        "context_precision, faithfulness, but no run metadata"
    )
    assert again[["context_recall", "context_precision", "faithfulness"]].iloc[0].tolist() == [
        1.0,
        1.0,
        1.0,
    ]


def test_scored_file_read_back_without_attrs_keeps_the_same_mean(tmp_path):
    df = frame(
        question=["q1", "q2"],
        answer=["The fee is 12 dollars.", None],
        contexts=[["The fee is 12 dollars."]] * 2,
    )
    out = rn.faithfulness(df, model="offline", progress=False)
    path = tmp_path / "scored.jsonl"
    out.to_json(path, orient="records", lines=True)
    back = pd.read_json(path, lines=True)
    assert not back.attrs
    assert rn.summary(back).loc["faithfulness", "scored"] == "1/2"


def test_a_mapped_answer_column_read_back_without_attrs_keeps_its_unscored_rows(tmp_path):
    # the answer column is "a": a file read back has no attrs to say so, and "a" is no
    # alias, so the blank answer is found by the scorer's own reason
    df = frame(
        q=["q1", "q2", "q3"],
        a=["The fee is 12 dollars.", None, "I don't know."],
        docs=[["The fee is 12 dollars."]] * 3,
    )
    out = rn.faithfulness(
        df,
        model="offline",
        progress=False,
        columns={"question": "q", "answer": "a", "contexts": "docs"},
    )
    first = rn.summary(out).loc["faithfulness"]
    assert (first["scored"], first["no_claims"], first["no_answer"]) == ("2/3", 2, 1)
    path = tmp_path / "scored.jsonl"
    out.to_json(path, orient="records", lines=True)
    back = pd.read_json(path, lines=True)
    assert not back.attrs
    again = rn.summary(back).loc["faithfulness"]
    assert (again["scored"], again["no_answer"], again["mean"]) == ("2/3", 1, 0.5)
    assert first["mean"] == 0.5  # 1.0 and the refusal's measured 0


def test_estimate_accepts_the_same_options_as_evaluate():
    df = frame(question=["q"], answer=["a."], contexts=[["a."]], ground_truth=["a."])
    est = rn.estimate(df, model="openai/gpt-4o-mini", api_base="http://127.0.0.1:1/v1")
    assert est.loc["total", "calls"] == 5


@pytest.mark.parametrize("metric", ["context_recall", "context_precision", "faithfulness"])
def test_reason_none_leaves_every_status_without_a_reason(metric):
    # per the spec, reason=None skips the reason: for rows the judge cannot score too
    df = frame(
        question=["Where is it?", "Where is it?", "Where is it?"],
        answer=["It is on Pier 4.", None, "It is on Pier 4."],
        contexts=[["The museum is on Pier 4."], ["The museum is on Pier 4."], []],
        ground_truth=["It is on Pier 4.", None, "It is on Pier 4."],
    )
    out = rn.evaluate(df, metrics=[metric], model="offline", reason=None, progress=False)
    statuses = out[f"{metric}_status"].tolist()
    assert len(set(statuses)) >= 2  # scored and unscored rows alike
    assert out[f"{metric}_reason"].isna().all()
    templated = rn.evaluate(df, metrics=[metric], model="offline", progress=False)
    assert templated[f"{metric}_reason"].notna().all()


def test_a_failed_llm_explanation_keeps_the_score_and_the_template_reason():
    def explain(task):
        raise RuntimeError("explain endpoint down")

    judge = rn.MockJudge(
        extract_claims=[["The museum is on Pier 4.", "It opened in 1999."]],
        verify_claims=[["yes", "no"]],
        explain=explain,
    )
    df = frame(question=["Where?"], answer=["x"], contexts=[["The museum is on Pier 4."]])
    out = rn.faithfulness(df, model=judge, reason="llm", progress=False)
    assert (out.loc[0, "faithfulness"], out.loc[0, "faithfulness_status"]) == (0.5, "ok")
    reason = out.loc[0, "faithfulness_reason"]
    assert reason.startswith("The score is 0.5")
    assert "(The judge's explanation failed, RuntimeError: explain endpoint down;" in reason
    assert out.attrs["ragnotebook"]["metrics"]["faithfulness"]["explain_failures"] == 1
    assert rn.summary(out).loc["faithfulness", "explain_failures"] == 1
    assert [t.kind for t in judge.tasks][-1] == "explain"


def test_reason_shows_the_score_as_rounded_at_a_large_scale():
    judge = rn.MockJudge(extract_claims=[["a", "b", "c"]], verify_claims=[["yes", "yes", "no"]])
    df = frame(question=["Q?"], answer=["x"], contexts=[["c"]])
    out = rn.faithfulness(df, model=judge, scale=1000, progress=False)
    assert out.loc[0, "faithfulness"] == 666.67
    assert out.loc[0, "faithfulness_reason"].startswith("The score is 666.67 ")


def test_a_missing_ground_truth_column_names_the_metric_and_the_way_out():
    df = frame(question=["q"], answer=["a"], contexts=[["c"]])
    with pytest.raises(ValueError) as info:  # recall asked for by name: an error
        rn.evaluate(df, metrics=["context_recall", "faithfulness"], model="offline")
    message = str(info.value)
    assert "no column found for the 'ground_truth' role" in message
    assert message.endswith(
        "('context_recall' needs it; score the rest with metrics=['faithfulness'])"
    )
    rest = rn.evaluate(df, metrics=["context_precision", "faithfulness"], model="offline")
    assert rest["faithfulness_status"].tolist() == ["ok"]


def test_default_metrics_leave_out_the_one_whose_column_the_frame_lacks():
    judge = rn.MockJudge(
        extract_claims=lambda t: ["It is on Pier 4."],
        verify_claims=lambda t: ["yes"],
        attribute_claims=lambda t: ["yes"],
        judge_chunks=lambda t: ["yes"] * len(t.items),
    )
    logs = frame(question=["Where?"], answer=["It is on Pier 4."], contexts=[["Pier 4."]])
    with pytest.warns(UserWarning) as caught:
        out = rn.evaluate(logs, model=judge, progress=False)
    assert [str(w.message) for w in caught] == [
        "evaluate() left out 'context_recall': the frame has no 'ground_truth' column (tried "
        "'ground_truth', 'reference', 'expected_output', ignoring case, spaces and dashes). It "
        "scored 'context_precision' and 'faithfulness'. To score the rest, name the column with "
        "columns={'ground_truth': '<column name>'}; metrics=[...] chooses the metrics (and "
        "makes a missing column an error)."
    ]
    assert caught[0].filename == __file__  # points at the caller's line
    assert "context_recall" not in out.columns
    assert out[["context_precision", "faithfulness"]].iloc[0].tolist() == [1.0, 1.0]
    assert list(rn.summary(out).index) == ["context_precision", "faithfulness"]
    assert {t.kind for t in judge.tasks} == {"extract_claims", "verify_claims", "judge_chunks"}

    retrieval_only = frame(question=["Where?"], ground_truth=["Pier 4."], contexts=[["Pier 4."]])
    with pytest.warns(UserWarning, match=r"left out 'faithfulness': the frame has no 'answer'"):
        got = rn.evaluate(retrieval_only, model=judge, progress=False)
    assert got[["context_recall", "context_precision"]].iloc[0].tolist() == [1.0, 1.0]
    assert "faithfulness" not in got.columns
    with pytest.warns(UserWarning, match="left out 'faithfulness'"):  # the async twin too
        again = asyncio.run(rn.aevaluate(retrieval_only, model=judge, progress=False))
    assert again["context_recall"].tolist() == [1.0]

    # mapped to None: the user said there is none
    with pytest.warns(UserWarning, match=r"no 'ground_truth' column \(mapped to None\)"):
        rn.evaluate(logs.assign(reference="x"), columns={"ground_truth": None}, model=judge)

    # the frame's "answer" column given to the ground truth (a QA set whose "answer" is the
    # reference): the warning says where it went, not that the frame has none
    qa_set = frame(question=["Where?"], answer=["Pier 4."], contexts=[["Pier 4."]])
    with pytest.warns(UserWarning) as caught:
        got = rn.evaluate(qa_set, columns={"ground_truth": "answer"}, model=judge, progress=False)
    assert str(caught[0].message).startswith(
        "evaluate() left out 'faithfulness': no column is left for the 'answer' role: "
        "columns= maps the column 'answer' to the role 'ground_truth'. It scored 'context_recall' and "
        "'context_precision'."
    )
    assert got[["context_recall", "context_precision"]].iloc[0].tolist() == [1.0, 1.0]

    # the full tuple passed explicitly is a choice: the missing column is an error, as for
    # any explicit metrics=, on the function and the accessor alike
    for call in (
        lambda: rn.evaluate(logs, metrics=rn.api.METRICS, model=judge),
        lambda: logs.rag.evaluate(metrics=tuple(rn.api.METRICS), model=judge),
    ):
        with pytest.raises(ValueError, match=r"no column found for the 'ground_truth' role"):
            call()


def test_default_metrics_treat_a_column_empty_in_every_row_as_missing():
    # the bundled HotpotQA sample has an answer column with no answers (retrieval only)
    rows = rn.load_sample("hotpotqa").head(3)
    assert rows["answer"].isna().all()
    with pytest.warns(UserWarning) as caught:
        out = rn.evaluate(rows, model="offline", progress=False)
    assert [str(w.message) for w in caught] == [
        "evaluate() left out 'faithfulness': the 'answer' column is empty in every row. It "
        "scored 'context_recall' and 'context_precision'. To score the rest, fill it, or pass "
        "metrics=[...] to score it anyway (every row as missing data)."
    ]
    assert "faithfulness" not in out.columns and out["context_recall_status"].eq("ok").all()
    blank = frame(question=["x"], response=["  "], contexts=[["c"]], reference=["c"])
    with pytest.warns(UserWarning, match=r"the 'response' column \(the answer\) is empty"):
        rn.evaluate(blank, model="offline", progress=False)
    # named explicitly, it is scored as missing data, with one warning that says so
    with pytest.warns(rn.api.EmptyColumnWarning) as caught:
        asked = rn.evaluate(
            rows, metrics=["faithfulness", "recall"], model="offline", progress=False
        )
    assert [str(w.message) for w in caught] == [
        "the 'answer' column is empty in every row, so 'faithfulness' has nothing to score: "
        "every row is missing data (status no_claims, counted in no_answer, none enters the "
        "mean). Fill the column; score the rest with metrics=['context_recall']."
    ]
    assert caught[0].filename == __file__
    assert rn.summary(asked).loc["faithfulness", "scored"] == "0/3"
    assert rn.summary(asked).loc["context_recall", "scored"] == "3/3"
    no_refs = frame(
        question=["x", "y"], answer=["a", "b"], contexts=[["c"]] * 2, reference=[None, " "]
    )
    with pytest.warns(rn.api.EmptyColumnWarning, match=r"'reference' column \(the ground "):
        rn.evaluate(no_refs, metrics=["recall"], model="offline", progress=False)
    # precision told to judge against the ground truth has nothing either (it gave a NaN
    # mean without a word, and the command line exit 0)
    with pytest.warns(rn.api.EmptyColumnWarning) as caught:
        rn.evaluate(
            no_refs,
            metrics=["precision"],
            reference="ground_truth",
            model="offline",
            progress=False,
        )
    assert [str(w.message) for w in caught] == [
        "the 'reference' column (the ground truth) is empty in every row, so "
        "'context_precision' has nothing to score: every row is missing data (no_reference, "
        "none enters the mean). Fill the column."
    ]
    # with reference="auto" the answers are there to judge against: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", rn.api.EmptyColumnWarning)
        rn.evaluate(no_refs, metrics=["precision"], model="offline", progress=False)
    # told to judge against answers the frame does not have: the missing column is named
    with pytest.raises(ValueError, match="no column found for the 'answer' role"):
        rn.evaluate(
            no_refs.drop(columns="answer"),
            metrics=["precision"],
            reference="answer",
            model="offline",
            progress=False,
        )


@pytest.mark.parametrize(
    "columns",
    [
        # a look-alike column: the user probably meant it, so stop and name it
        {"question": ["q"], "answer": ["a"], "contexts": [["c"]], "gold answer": ["a"]},
        # neither answers nor references: precision would have nothing to judge against
        {"question": ["q"], "contexts": [["c"]]},
    ],
)
def test_default_metrics_still_stop_when_leaving_one_out_would_mislead(columns):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "left out" warning first
        with pytest.raises(ValueError, match=r"no column found for the '(ground_truth|answer)'"):
            rn.evaluate(pd.DataFrame(columns), model="offline", progress=False)


def test_every_missing_column_is_one_error_before_any_warning():
    # no answer (faithfulness would be left out) and no contexts (every metric needs them):
    # before, evaluate() warned "left out faithfulness ... It scored context_recall,
    # context_precision" and then raised for contexts; nothing was scored
    df = pd.DataFrame({"question": ["Ship count?"], "gold": ["47"], "docs": [["c"]]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning first
        with pytest.raises(ValueError) as info:
            rn.evaluate(df.rename(columns={"gold": "reference"}), model="offline")
    assert str(info.value) == (
        "no column found for the 'answer' and 'contexts' roles; the frame's columns are "
        "['question', 'reference', 'docs']. 'answer' (tried 'answer', 'response', "
        "'actual_output', 'output', ignoring case, spaces and dashes; 'faithfulness' needs "
        "it): rename a column or pass columns={'answer': '<column name>'}. 'contexts' (tried "
        "'contexts', 'retrieved_contexts', 'retrieval_context', ignoring case, spaces and "
        "dashes; 'context_recall', 'context_precision' and 'faithfulness' need it): 'docs' "
        "looks like it: rename a column or pass columns={'contexts': 'docs'}."
    )
    # named metrics: every role they lack, and the metric that can still run
    with pytest.raises(ValueError) as info:
        rn.evaluate(df, metrics=["precision", "recall"], model="offline")
    message = str(info.value)
    assert message.startswith("no column found for the 'contexts' and 'ground_truth' roles")
    assert "'context_precision' and 'context_recall' need it): 'docs' looks like it" in message
    assert "'context_recall' needs it): 'gold' looks like it" in message
    assert "columns={'ground_truth': 'gold'}" in message
    assert "score the rest" not in message  # precision needs the contexts too
    # the mapping the error proposes works (faithfulness is left out: there is no answer)
    with pytest.warns(UserWarning, match="left out 'faithfulness'"):
        out = rn.evaluate(
            df,
            columns={"contexts": "docs", "ground_truth": "gold"},
            model="offline",
            progress=False,
        )
    assert out["context_recall_status"].tolist() == ["ok"]


def test_the_left_out_warning_comes_after_the_metrics_it_names_are_scored():
    logs = frame(question=["Where?"], answer=["It is on Pier 4."], contexts=[["Pier 4."]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # the judge cannot be built: nothing is scored, so nothing says "It scored"
        with pytest.raises(TypeError, match="model must be"):
            rn.evaluate(logs, model=12345)
    with pytest.warns(UserWarning, match=r"It scored 'context_precision' and 'faithfulness'\."):
        out = rn.evaluate(logs, model="offline", progress=False)
    assert out[["context_precision_status", "faithfulness_status"]].iloc[0].tolist() == [
        "ok",
        "ok",
    ]


def test_reasons_read_well_for_a_single_claim_or_chunk():
    judge = rn.MockJudge(
        extract_claims=[["It is on Pier 4."], ["It is on Pier 4."]],
        attribute_claims=[["no"]],
        verify_claims=[["unsure"]],
        judge_chunks=[["yes"]],
    )
    df = frame(
        question=["Where?"],
        answer=["It is on Pier 4."],
        contexts=[["The museum is on Pier 4."]],
        ground_truth=["It is on Pier 4."],
    )
    out = rn.evaluate(df, model=judge, progress=False)
    # a quoted claim that ends its own sentence is not followed by a second full stop
    assert out.loc[0, "context_recall_reason"] == (
        "The score is 0 because the one ground-truth claim is not supported by the retrieved "
        'context; not found: "It is on Pier 4."'
    )
    assert out.loc[0, "faithfulness_reason"].startswith(
        "The score is 0 because the one answer claim is not supported by the retrieved context"
    )
    assert out.loc[0, "context_precision_reason"] == (
        "The score is 1 (average precision) because the one retrieved chunk is relevant to "
        "the ground truth, at position 1."
    )


def test_precision_against_the_answer_ignores_an_ambiguous_ground_truth():
    df = frame(
        question=["Where is it?"],
        answer=["The museum is on Pier 4."],
        contexts=[["The museum is on Pier 4.", "Tickets cost 12 euros."]],
        ground_truth=["Pier 4."],
        reference=["Pier 9."],
    )
    out = rn.context_precision(df, model="offline", reference="answer", progress=False)
    assert out["context_precision"].tolist() == [1.0]
    with pytest.raises(ValueError, match="columns 'ground_truth' and 'reference' could both be"):
        rn.context_precision(df, model="offline", progress=False)  # "auto" reads both


def test_a_misspelt_scoring_option_names_the_right_one():
    df = frame(question=["q"], answer=["It is on Pier 4."], contexts=[["It is on Pier 4."]])
    for model in ("offline", "openai/test-model"):
        with pytest.raises(
            TypeError, match=r"unknown option 'show_progress': did you mean progress=\?"
        ):
            rn.faithfulness(df, model=model, show_progress=False)
    with pytest.raises(TypeError, match=r"did you mean concurrency=\?"):
        rn.evaluate(df, model="offline", metrics=["faithfulness"], concurency=2)


def test_the_options_never_taken_for_a_misspelling_are_the_llm_judges_own():
    import inspect

    from ragnotebook.api import _JUDGE_OPTIONS

    params = inspect.signature(rn.LiteLLMJudge.__init__).parameters.values()
    own = {p.name for p in params if p.kind is not p.VAR_KEYWORD} - {"self", "model"}
    assert set(_JUDGE_OPTIONS) == own
