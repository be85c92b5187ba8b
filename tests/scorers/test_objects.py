"""Scorer objects (the seeds' API): construction errors, precedence, results."""

import asyncio
import math

import numpy as np
import pytest

import ragnotebook as rn
from ragnotebook.scorers.objects import answer_from_output, question_from_input


def test_construction_errors_match_the_reference():
    with pytest.raises(
        ValueError,
        match=r"^Either context or context_extractor is required for Context Recall scoring$",
    ):
        rn.create_context_recall_scorer(model="offline")
    with pytest.raises(ValueError, match="Context Precision scoring"):
        rn.create_context_precision_scorer(model="offline")
    for create in (
        rn.create_context_recall_scorer,
        rn.create_context_precision_scorer,
        rn.create_faithfulness_scorer,
    ):
        with pytest.raises(ValueError, match=r"^Context array cannot be empty if provided$"):
            create(model="offline", context=[])
        with pytest.raises(ValueError, match="scale"):
            create(model="offline", context=["x"], scale=0)
    rn.create_faithfulness_scorer(model="offline")  # faithfulness needs no context
    with pytest.raises(TypeError, match="context must be a list of strings, got int"):
        rn.create_faithfulness_scorer(model="offline", context=42)


def test_context_takes_what_a_frame_cell_takes():
    # a plain string is one chunk, a tuple or 1-D array a list, as in df["contexts"]
    for given in ("The museum is on Pier 4.", ("The museum is on Pier 4.",)):
        scorer = rn.create_context_recall_scorer(model="offline", context=given)
        assert scorer.context == ["The museum is on Pier 4."]
    arr = np.array(["The museum is on Pier 4.", "Noise."])
    scorer = rn.create_context_precision_scorer(model="offline", context=arr)
    assert scorer.context == ["The museum is on Pier 4.", "Noise."]
    assert all(type(c) is str for c in scorer.context)
    r = scorer.run(input="Where?", ground_truth="The museum is on Pier 4.")
    assert (r.status, r.score) == ("ok", 1.0)
    # a list written as text is read as one, as from a CSV cell
    with pytest.warns(UserWarning, match="parsed into chunks"):
        scorer = rn.create_context_recall_scorer(model="offline", context='["a.", "b."]')
    assert scorer.context == ["a.", "b."]
    with pytest.raises(ValueError, match=r"^context: expected a 1-D array of strings, got 2-D$"):
        rn.create_context_recall_scorer(model="offline", context=np.array([["a"], ["b"]]))
    with pytest.raises(TypeError, match=r"got dict \(a document object; .*context=\[d\['text'\]\]"):
        rn.create_context_recall_scorer(model="offline", context={"text": "a."})
    with pytest.raises(ValueError, match=r"^context: chunk 1 is int, expected str$"):
        rn.create_context_recall_scorer(model="offline", context=("a.", 3))


def test_a_bad_option_is_named_before_a_missing_context():
    # spec/scorers.md fixes no order between construction errors: the option comes first
    with pytest.raises(
        ValueError, match=r"^reference must be 'auto', 'ground_truth' or 'answer', got 'gt'$"
    ):
        rn.create_context_precision_scorer(model="offline", reference="gt")
    with pytest.raises(TypeError, match=r"^decimals must be an integer >= 0 or None, got 1.5$"):
        rn.create_context_recall_scorer(model="offline", decimals=1.5)
    with pytest.raises(ValueError, match="Context Recall scoring"):
        rn.create_context_recall_scorer(model="offline", reference="auto")


def test_a_list_or_dict_ground_truth_is_an_error_not_a_missing_one():
    scorer = rn.create_context_recall_scorer(
        model="offline", context=["Einstein was born in 1879 in Ulm."]
    )
    r = scorer.run(input="Who?", ground_truth=["Einstein was born in 1879."])
    assert r.status == "error" and math.isnan(r.score)
    assert r.error == (
        "ground_truth: expected a string, got list; one text per ground_truth: join the "
        "items (' '.join(items)) or keep one"
    )
    r = scorer.run(input="Who?", ground_truth={"text": "Einstein was born in 1879."})
    assert r.status == "error"
    assert r.error == (
        "ground_truth: expected a string, got dict; take its text first, e.g. "
        "ground_truth=d['text']"
    )
    # a number is its text, a missing one is missing
    assert scorer.run(input="When?", ground_truth=1879).status == "ok"
    assert scorer.run(input="Who?", ground_truth=float("nan")).status == "no_ground_truth"


def test_a_list_answer_is_an_error_not_an_empty_answer():
    ctx = ["Einstein was born in 1879 in Ulm."]
    fa = rn.create_faithfulness_scorer(model="offline")
    r = fa.run(input="Who?", output={"answer": ["Einstein was born in 1879."], "contexts": ctx})
    assert r.status == "error"
    assert r.error == (
        "output['answer']: expected a string, got list; one text per output['answer']: join "
        "the items (' '.join(items)) or keep one"
    )
    r = fa.run(input="Who?", output=["Einstein was born in 1879."])
    assert r.status == "error" and r.error.startswith("output: expected a string, got list")
    # precision judging against the answer refuses it too; with a ground truth it needs none
    pr = rn.create_context_precision_scorer(model="offline", context=ctx)
    assert pr.run(input="Who?", output={"answer": ["Einstein."]}).status == "error"
    ok = pr.run(input="Who?", output={"answer": ["Einstein."]}, ground_truth="Born in 1879.")
    assert ok.status == "ok"
    # a missing or blank answer is still no_claims, not an error
    assert fa.run(input="Who?", output={"answer": None, "contexts": ctx}).status == "no_claims"
    assert fa.run(input="Who?", output={"reply": "x", "contexts": ctx}).status == "no_claims"


def test_reason_llm_with_the_offline_judge_warns():
    with pytest.warns(UserWarning, match="the offline judge is no LLM"):
        rn.create_faithfulness_scorer(model="offline", reason="llm")


def test_recall_worked_example_with_mock():
    judge = rn.MockJudge(
        extract_claims=[
            [
                "Einstein was born in 1879",
                "Einstein developed relativity",
                "Einstein won the Nobel Prize",
            ]
        ],
        attribute_claims=[["yes", "yes", "no"]],
    )
    scorer = rn.create_context_recall_scorer(model=judge, context=["born 1879", "relativity"])
    r = scorer.run(
        input="Tell me about Einstein",
        ground_truth="Einstein was born in 1879. He developed the theory of "
        "relativity. He won the Nobel Prize.",
    )
    assert r.score == 0.67 and r.status == "ok"
    assert r.preprocess_step_result == {
        "claims": [
            "Einstein was born in 1879",
            "Einstein developed relativity",
            "Einstein won the Nobel Prize",
        ]
    }
    assert [v["verdict"] for v in r.analyze_step_result["verdicts"]] == ["yes", "yes", "no"]
    assert r.run_id and r.scorer_id == "context-recall-scorer"
    assert "Nobel" in r.reason


def test_precision_has_no_preprocess_step_and_scale():
    judge = rn.MockJudge(judge_chunks=[["yes", "no", "yes", "no"]])
    scorer = rn.create_context_precision_scorer(model=judge, context=list("abcd"), scale=10)
    r = scorer.run(input="q", output="a", ground_truth="gt", run_id="run-1")
    assert r.preprocess_step_result is None
    assert r.score == 8.33 and r.run_id == "run-1"
    assert [v["precision_at_k"] for v in r.analyze_step_result["verdicts"]] == [
        1.0,
        0.5,
        2 / 3,
        0.5,
    ]


def test_extractor_wins_and_none_falls_back_to_static_context():
    seen = []

    def extractor(inp, out):
        seen.append((inp, out))
        return ["from extractor"] if isinstance(out, dict) else None

    judge = rn.MockJudge(judge_chunks=lambda t: ["yes"] * len(t.items))
    scorer = rn.create_context_precision_scorer(
        model=judge, context=["static"], context_extractor=extractor
    )
    scorer.run(input="q", output={"answer": "a"}, ground_truth="gt")
    scorer.run(input="q", output="plain answer", ground_truth="gt")
    chunks = [[it.text for it in t.items] for t in judge.tasks]
    assert chunks == [["from extractor"], ["static"]]
    assert seen[0] == ("q", {"answer": "a"})


def test_faithfulness_reads_context_from_output_shapes():
    scorer = rn.create_faithfulness_scorer(model="offline")
    r = scorer.run(
        input="Where is it?",
        output={"answer": "It is on Pier 4.", "contexts": ["The museum is on Pier 4."]},
    )
    assert r.score == 1.0
    msgs = [
        {"role": "user", "content": "Where is it?"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "1"}]},
        {"role": "tool", "content": "The museum is on Pier 4."},
        {"role": "assistant", "content": [{"type": "text", "text": "It is on Pier 4."}]},
    ]
    r = scorer.run(input=msgs[:1], output=msgs)
    assert (r.score, r.status) == (1.0, "ok")
    r = scorer.run(input="Where?", output="It is on Pier 4.")  # no context anywhere
    assert (r.score, r.status) == (0.0, "no_context")


def test_reference_agent_shape_tool_invocations():
    out = [
        {
            "role": "assistant",
            "content": {
                "toolInvocations": [
                    {"state": "result", "result": {"text": "Green tea has catechins."}},
                    {"state": "call", "args": {}},
                ]
            },
        }
    ]
    assert rn.contexts_from_output(None, out) == ['{"text": "Green tea has catechins."}']


def test_input_and_output_helpers():
    assert question_from_input({"question": "q?"}) == "q?"
    assert question_from_input(None) is None
    assert answer_from_output({"output": "o"}) == "o"
    assert (
        answer_from_output(
            [{"role": "assistant", "content": "x"}, {"role": "assistant", "content": ""}]
        )
        == "x"
    )


def test_numbers_as_ground_truth_or_answer_are_their_text_not_missing():
    # a CSV column of numeric answers reaches run_evals and .run() as ints and floats
    assert answer_from_output(1879) == "1879" and answer_from_output(42.0) == "42"
    assert answer_from_output({"answer": 2.5}) == "2.5"
    assert answer_from_output(float("nan")) is None and answer_from_output(True) is None
    judge = rn.MockJudge(extract_claims=lambda t: [t.text], attribute_claims=[["yes"]])
    recall = rn.create_context_recall_scorer(model=judge, context=["Born in 1879."])
    r = recall.run(input="When was he born?", ground_truth=1879)
    assert (r.score, r.status) == (1.0, "ok")
    assert judge.tasks[0].text == "1879"
    judge = rn.MockJudge(extract_claims=lambda t: [t.text], verify_claims=[["no"]])
    faith = rn.create_faithfulness_scorer(model=judge, context=["The answer is 41."])
    r = faith.run(input="q", output=42)
    assert (r.score, r.status) == (0.0, "ok")
    assert [t.kind for t in judge.tasks] == ["extract_claims", "verify_claims"]
    # a missing number is still missing
    r = recall.run(input="q", ground_truth=float("nan"))
    assert r.status == "no_ground_truth"


def test_an_assistant_message_that_only_calls_a_tool_keeps_the_chat_readable():
    # OpenAI's SDK dumps an assistant tool call without a "content" key
    msgs = [
        {"role": "user", "content": "Where is the museum?"},
        {"role": "assistant", "tool_calls": [{"id": "1", "type": "function"}]},
        {"role": "tool", "tool_call_id": "1", "content": "Doc: the museum is on Pier 4."},
        {"role": "assistant", "content": "It is on Pier 4."},
    ]
    assert answer_from_output(msgs) == "It is on Pier 4."
    assert rn.contexts_from_output(None, msgs) == ["Doc: the museum is on Pier 4."]
    judge = rn.MockJudge(extract_claims=[["It is on Pier 4."]], verify_claims=[["yes"]])
    r = rn.create_faithfulness_scorer(model=judge).run(input="Where?", output=msgs)
    assert (r.score, r.status) == (1.0, "ok")
    assert judge.tasks[1].chunks == ("Doc: the museum is on Pier 4.",)
    # a list of dicts none of which has content is no chat
    assert answer_from_output([{"role": "assistant"}]) is None


def test_missing_ground_truth_and_errors_do_not_raise():
    scorer = rn.create_context_recall_scorer(model="offline", context=["c"])
    r = scorer.run(input="q", output="a")
    assert (r.score, r.status) == (0.0, "no_ground_truth")
    judge = rn.MockJudge(extract_claims=lambda t: RuntimeError("down"))
    r = rn.create_context_recall_scorer(model=judge, context=["c"]).run(ground_truth="g.")
    assert r.status == "error" and math.isnan(r.score) and "down" in r.error
    bad = rn.create_context_recall_scorer(model="offline", context_extractor=lambda i, o: None)
    r = bad.run(ground_truth="g.")
    assert r.status == "error" and "context_extractor returned None" in r.error
    # the message says what the output was and what would work
    r = bad.run(output="It is on Pier 4.", ground_truth="g.")
    assert "the target's output (a str) holds no retrieved chunks" in r.error
    assert "return a dict with 'contexts'" in r.error


def test_arun_inside_running_loop_and_run_too():
    scorer = rn.create_faithfulness_scorer(model="offline", context=["Paris is in France."])

    async def main():
        a = await scorer.arun(input="q", output="Paris is in France.")
        b = scorer.run(input="q", output="Paris is in France.")  # sync inside a running loop
        return a, b

    a, b = asyncio.run(main())
    assert a.score == b.score == 1.0


def test_contexts_from_chat_without_tool_results_is_none_and_arrays_split():
    chat = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    assert rn.contexts_from_output(None, chat) is None  # a static context then applies
    sibling = [
        {
            "role": "assistant",
            "content": "It is on Pier 4.",
            "toolInvocations": [{"state": "result", "result": ["Doc A.", {"text": "Doc B."}]}],
        }
    ]
    assert rn.contexts_from_output(None, sibling) == ["Doc A.", '{"text": "Doc B."}']
    tool = [{"role": "tool", "content": '["First chunk.", "Second chunk."]'}]
    assert rn.contexts_from_output(None, tool) == ["First chunk.", "Second chunk."]
    scorer = rn.create_faithfulness_scorer(model="offline", context=["The museum is on Pier 4."])
    r = scorer.run(
        input="Where?", output=[*chat[:1], {"role": "assistant", "content": "On Pier 4."}]
    )
    assert r.status == "ok"


def test_a_blank_llm_explanation_keeps_the_template_reason_and_is_a_failure():
    judge = rn.MockJudge(extract_claims=[["A"]], attribute_claims=[["yes"]], explain=["   "])
    scorer = rn.create_context_recall_scorer(model=judge, context=["c"], reason="llm")
    result = scorer.run(input="q", ground_truth="g")
    assert result.score == 1.0
    assert result.reason == (
        "The score is 1 because the one ground-truth claim is supported by the retrieved "
        "context. (The judge's explanation failed, invalid answer: reason: Value error, the "
        "explanation is blank; this is the template reason.)"
    )


def test_supporting_chunks_are_recorded_for_yes_verdicts_only():
    judge = rn.MockJudge(
        extract_claims=[["A", "B"]],
        attribute_claims=[
            [
                {"index": 0, "verdict": "yes", "supporting_chunks": [1]},
                {"index": 1, "verdict": "no", "supporting_chunks": [0]},
            ]
        ],
    )
    scorer = rn.create_context_recall_scorer(model=judge, context=["c0", "c1"])
    verdicts = scorer.run(input="q", ground_truth="g").analyze_step_result["verdicts"]
    assert [v["supporting_chunks"] for v in verdicts] == [[1], []]


def test_a_row_without_one_valid_verdict_is_an_error_not_a_measured_zero():
    # a small model answering "supported" to every claim, twice: no measurement
    judge = rn.MockJudge(
        extract_claims=[["A", "B"]],
        verify_claims=[["supported", "supported"], ["supported", "not supported"]],
    )
    scorer = rn.create_faithfulness_scorer(model=judge, context=["c"])
    r = scorer.run(input="q", output="A. B.")
    assert r.status == "error" and math.isnan(r.score)
    assert r.error == (
        "no_valid_verdicts: the judge gave no usable verdict for any of the 2 claim(s), even "
        "when asked again (2 with a verdict word other than yes, no or unsure); its answers "
        "are in the verdicts column. Check that the model follows the prompt's answer format "
        "(one verdict per index, the words yes, no or unsure)."
    )
    assert [v["invalid"] for v in r.analyze_step_result["verdicts"]] == [True, True]
    # precision: a blank chunk is not asked, so the two asked chunks decide
    judge = rn.MockJudge(judge_chunks=[["relevant", "relevant"], ["relevant", "relevant"]])
    scorer = rn.create_context_precision_scorer(model=judge, context=["a", " ", "b"])
    r = scorer.run(input="q", output="x", ground_truth="g")
    assert r.status == "error" and "any of the 2 chunk(s)" in r.error
    # one valid verdict is a measurement: the other item counts against it
    judge = rn.MockJudge(judge_chunks=[["relevant", "yes"], ["relevant"]])
    scorer = rn.create_context_precision_scorer(model=judge, context=["a", "b"])
    r = scorer.run(input="q", output="x", ground_truth="g")
    assert (r.status, r.score) == ("ok", 0.5)


def test_analyze_step_result_counts_cited_chunks_that_do_not_exist():
    judge = rn.MockJudge(
        extract_claims=[["A", "B"]],
        verify_claims=[
            [
                {"index": 0, "verdict": "yes", "reason": "r", "supporting_chunks": [0, 4]},
                {"index": 1, "verdict": "yes", "reason": "r", "supporting_chunks": [-1]},
            ]
        ],
    )
    scorer = rn.create_faithfulness_scorer(model=judge, context=["c", "d"])
    r = scorer.run(input="q", output="A. B.")
    assert r.score == 1.0
    step = r.analyze_step_result
    assert step["out_of_range_chunks"] == 2
    assert [v["supporting_chunks"] for v in step["verdicts"]] == [[0], []]
