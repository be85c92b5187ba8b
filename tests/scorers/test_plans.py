"""The three scorer plans driven by hand (no engine, no event loop)."""

import math

from ragnotebook.scorers._common import ScorerConfig
from ragnotebook.scorers.context_precision import context_precision_plan
from ragnotebook.scorers.context_recall import context_recall_plan
from ragnotebook.scorers.faithfulness import faithfulness_plan
from ragnotebook.tasks import Claims, Explanation, Verdict, Verdicts


def drive(plan, replies):
    """Run a plan, answering each batch with the next function of ``replies``."""
    asked = []
    try:
        batch = next(plan)
        while True:
            asked.append(batch)
            reply = replies.pop(0)
            batch = plan.send([reply(t) for t in batch])
    except StopIteration as stop:
        return stop.value, asked


def words(*ws):
    return lambda task: Verdicts(
        verdicts=[Verdict(index=it.index, verdict=w) for it, w in zip(task.items, ws, strict=False)]
    )


def test_recall_einstein_worked_example():
    claims = ["Einstein was born in 1879.", "He developed relativity.", "He won the Nobel Prize."]
    result, asked = drive(
        context_recall_plan(
            question="Who?", ground_truth=" ".join(claims), contexts=["born 1879", "relativity"]
        ),
        [lambda t: Claims(claims=claims), words("yes", "yes", "no")],
    )
    assert result.score == 0.67 and result.status == "ok"
    assert [b[0].kind for b in asked] == ["extract_claims", "attribute_claims"]
    assert "2 of 3" in result.reason and "Nobel" in result.reason
    assert [v["verdict"] for v in result.verdicts] == ["yes", "yes", "no"]


def test_recall_scale_and_exact_ratio():
    result, _ = drive(
        context_recall_plan(
            question=None,
            ground_truth="a. b. c.",
            contexts=["x"],
            config=ScorerConfig(scale=10, decimals=None),
        ),
        [lambda t: Claims(claims=["a", "b", "c"]), words("yes", "no", "no")],
    )
    assert result.score == result.exact == 1 / 3 * 10


def test_recall_no_ground_truth_makes_no_call():
    for gt in (None, "", "   "):
        plan = context_recall_plan(question="q", ground_truth=gt, contexts=["x"])
        result, asked = drive(plan, [])
        assert (result.score, result.status, asked) == (0.0, "no_ground_truth", [])


def test_recall_no_claims():
    result, _ = drive(
        context_recall_plan(question="q", ground_truth="Hmm?", contexts=["x"]),
        [lambda t: Claims(claims=["  "])],
    )
    assert (result.score, result.status) == (0.0, "no_claims")


def test_faithfulness_company_expectations():
    claims = ["Founded in 1995.", "1000 employees.", "HQ in Paris.", "Founded by John Smith."]
    result, _ = drive(
        faithfulness_plan(question="q", answer="...", contexts=["ctx"]),
        [lambda t: Claims(claims=claims), words("yes", "no", "no", "yes")],
    )
    assert result.score == 0.5
    assert "contradicted" in result.reason


def test_faithfulness_unsure_counts_against():
    result, _ = drive(
        faithfulness_plan(question="q", answer="...", contexts=["ctx"]),
        [lambda t: Claims(claims=["a", "b", "c"]), words("yes", "unsure", "unsure")],
    )
    assert result.score == 0.33


def test_faithfulness_missing_verdicts_counted_against_after_one_reask():
    def first(task):
        return Verdicts(verdicts=[Verdict(index=0, verdict="yes"), Verdict(index=2, verdict="yes")])

    def again(task):
        assert [it.index for it in task.items] == [1, 3]  # only the affected claims
        return Verdicts(verdicts=[])

    result, asked = drive(
        faithfulness_plan(question="q", answer="a. b. c. d.", contexts=["ctx"]),
        [lambda t: Claims(claims=["a", "b", "c", "d"]), first, again],
    )
    assert result.score == 0.5 and result.missing_verdicts == 2
    assert len(asked) == 3  # extract, verify, one re-ask: never more
    assert [v.get("missing", False) for v in result.verdicts] == [False, True, False, True]


def test_reask_recovers_missing_verdict():
    result, _ = drive(
        faithfulness_plan(question="q", answer="a. b.", contexts=["ctx"]),
        [lambda t: Claims(claims=["a", "b"]), words("yes"), words("yes")],
    )
    assert result.score == 1.0 and result.missing_verdicts == 0


def test_invalid_verdict_word_is_reasked_then_counted():
    result, _ = drive(
        context_recall_plan(question="q", ground_truth="a. b.", contexts=["ctx"]),
        [lambda t: Claims(claims=["a", "b"]), words("yes", "probably"), words("maybe")],
    )
    assert result.score == 0.5 and result.invalid_verdicts == 1
    assert result.verdicts[1]["verdict"] == "no" and result.verdicts[1]["invalid"] is True


def test_precision_batches_of_twenty_and_positions():
    chunks = [f"chunk {i}" for i in range(45)]
    flags = {6}

    def judge(task):
        return Verdicts(
            verdicts=[
                Verdict(index=it.index, verdict="yes" if it.index in flags else "no")
                for it in task.items
            ]
        )

    result, asked = drive(
        context_precision_plan(question="q", ground_truth="gt", answer=None, contexts=chunks),
        [judge],
    )
    assert [len(t.items) for t in asked[0]] == [20, 20, 5]  # one concurrent batch of 3 calls
    assert result.score == 0.14
    assert result.verdicts[6]["precision_at_k"] == 1 / 7


def test_precision_blank_chunks_keep_position_and_are_not_sent():
    result, asked = drive(
        context_precision_plan(
            question="q", ground_truth="gt", answer=None, contexts=["", "relevant"]
        ),
        [words("yes")],
    )
    assert [it.index for it in asked[0][0].items] == [1]
    assert result.score == 0.5
    assert result.verdicts[0]["verdict"] == "no"


def test_precision_reference_selection():
    for reference, gt, answer, status in [
        ("auto", None, None, "no_reference"),
        ("ground_truth", None, "ans", "no_reference"),
        ("answer", "gt", None, "no_reference"),
    ]:
        result, asked = drive(
            context_precision_plan(
                question="q",
                ground_truth=gt,
                answer=answer,
                contexts=["c"],
                config=ScorerConfig(reference=reference),
            ),
            [],
        )
        assert result.status == status and math.isnan(result.score) and asked == []
    _, asked = drive(
        context_precision_plan(
            question="q", ground_truth=None, answer="the answer", contexts=["c"]
        ),
        [words("yes")],
    )
    assert asked[0][0].text == "the answer"


def test_reason_llm_and_none():
    result, asked = drive(
        faithfulness_plan(
            question="q", answer="a.", contexts=["c"], config=ScorerConfig(reason="llm")
        ),
        [lambda t: Claims(claims=["a"]), words("yes"), lambda t: Explanation(reason="All good.")],
    )
    assert result.reason == "All good." and asked[-1][0].kind == "explain"
    result, _ = drive(
        faithfulness_plan(
            question="q", answer="a.", contexts=["c"], config=ScorerConfig(reason=None)
        ),
        [lambda t: Claims(claims=["a"]), words("yes")],
    )
    assert result.reason is None and result.score == 1.0


def test_one_based_verdicts_are_matched_by_position_and_recorded():
    def one_based(task):
        words = {"The depot is on Pier 4.": "yes", "It ships salmon to Mars.": "unsure"}
        return Verdicts(
            verdicts=[
                Verdict(index=pos + 1, verdict=words[it.text]) for pos, it in enumerate(task.items)
            ]
        )

    result, asked = drive(
        faithfulness_plan(question="q", answer="a", contexts=["The depot is on Pier 4."]),
        [
            lambda t: Claims(claims=["The depot is on Pier 4.", "It ships salmon to Mars."]),
            one_based,
        ],
    )
    assert len(asked) == 2  # no re-ask: nothing was missing
    assert result.score == 0.5
    assert [v["verdict"] for v in result.verdicts] == ["yes", "unsure"]
    why = "the judge numbered its verdicts 1..2 instead of by the indices asked"
    assert [v["aligned_by_position"] for v in result.verdicts] == [why, why]
    assert (result.positional_verdicts, result.missing_verdicts) == (2, 0)
    assert result.reason.endswith(
        " 2 claim verdict(s) were matched by position, not by index: " + why + "."
    )


def test_precision_reask_answered_zero_based_is_matched_by_position():
    def first(task):  # the verdict of chunk 1 is missing
        return Verdicts(verdicts=[Verdict(index=0, verdict="yes"), Verdict(index=2, verdict="no")])

    def again(task):  # the re-ask of chunk 1 answered as the judge's own item 0
        assert [it.index for it in task.items] == [1]
        return Verdicts(verdicts=[Verdict(index=0, verdict="Yes.")])

    result, asked = drive(
        context_precision_plan(
            question="q", ground_truth="g", answer=None, contexts=["a", "b", "c"]
        ),
        [first, again],
    )
    assert len(asked) == 2
    assert [v["verdict"] for v in result.verdicts] == ["yes", "yes", "no"]
    assert result.score == 1.0 and result.missing_verdicts == 0
    assert result.positional_verdicts == 1
    assert "aligned_by_position" in result.verdicts[1]
    assert "aligned_by_position" not in result.verdicts[0]


def test_cited_chunks_the_row_does_not_have_are_dropped_and_counted():
    def cites(task):  # 3 chunks: 0..2 exist; 3, 7 and -1 do not
        return Verdicts(
            verdicts=[
                Verdict(index=0, verdict="yes", supporting_chunks=[2, 7, 0, -1]),
                Verdict(index=1, verdict="yes", supporting_chunks=[3, 3]),  # one index, twice
                Verdict(index=2, verdict="no", supporting_chunks=[9]),  # no support for a no
            ]
        )

    contexts = ["The depot is on Pier 4.", "It opens at 9.", "It closes at 5."]
    for plan in (
        faithfulness_plan(question="q", answer="a. b. c.", contexts=contexts),
        context_recall_plan(question="q", ground_truth="a. b. c.", contexts=contexts),
    ):
        result, asked = drive(plan, [lambda t: Claims(claims=["a", "b", "c"]), cites])
        assert len(asked) == 2  # the verdicts stand: nothing is asked again
        assert [v["supporting_chunks"] for v in result.verdicts] == [[0, 2], [], []]
        assert [v["verdict"] for v in result.verdicts] == ["yes", "yes", "no"]
        assert result.score == 0.67
        assert result.out_of_range_chunks == 3  # 7 and -1 of claim 0, 3 of claim 1
        assert result.to_dict()["out_of_range_chunks"] == 3
