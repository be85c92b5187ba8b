"""Tests for the deterministic OfflineJudge and its text helpers (no network)."""

from __future__ import annotations

import asyncio

import pandas as pd
import pytest

import ragnotebook
from ragnotebook.judges.offline import OfflineJudge, _abbreviates
from ragnotebook.tasks import Claims, Explanation, Item, Task, Verdicts
from ragnotebook.text import (
    PERIODS,
    content_tokens,
    detect_language,
    has_negation,
    is_refusal,
    negation_targets,
    numbers,
    opposite_cues,
    period_group,
    rate_amounts,
    stem,
)


def ask(task: Task, judge: OfflineJudge | None = None) -> object:
    return asyncio.run((judge or OfflineJudge()).acomplete(task))


def verify(
    claims: list[str],
    chunks: list[str],
    question: str | None = None,
    judge: OfflineJudge | None = None,
) -> Verdicts:
    out = ask(
        Task(
            "verify_claims",
            "faithfulness",
            question=question,
            items=tuple(Item(i, c) for i, c in enumerate(claims)),
            chunks=tuple(chunks),
        ),
        judge,
    )
    assert isinstance(out, Verdicts)
    return out


def attribute(claims: list[str], chunks: list[str], question: str | None = None) -> Verdicts:
    out = ask(
        Task(
            "attribute_claims",
            "context_recall",
            question=question,
            items=tuple(Item(i, c) for i, c in enumerate(claims)),
            chunks=tuple(chunks),
        )
    )
    assert isinstance(out, Verdicts)
    return out


def relevance(chunks: list[str], reference: str, question: str) -> Verdicts:
    out = ask(
        Task(
            "judge_chunks",
            "context_precision",
            question=question,
            text=reference,
            items=tuple(Item(i, c) for i, c in enumerate(chunks)),
        )
    )
    assert isinstance(out, Verdicts)
    return out


def extract(text: str) -> list[str]:
    out = ask(Task("extract_claims", "faithfulness", text=text, source="answer"))
    assert isinstance(out, Claims)
    return out.claims


# --------------------------------------------------------------------------- identity


def test_identity_and_id() -> None:
    judge = OfflineJudge()
    assert judge.judge_id == "offline-v24"
    ident = judge.identity()
    assert ident["judge"] == "offline-v24"
    assert ident["support_threshold"] == judge.support_threshold
    assert OfflineJudge(support_threshold=0.9).identity() != ident


# --------------------------------------------------------------------------- Chinese row


def test_chinese_row_end_to_end() -> None:
    claims = extract("会员费每年120元。")
    assert claims == ["会员费每年120元。"]
    v = verify(claims, ["年度会员费为120元。"], question="会员费是多少？")
    assert [x.verdict for x in v.verdicts] == ["yes"]
    assert v.verdicts[0].supporting_chunks == [0]
    # character pairs match less often than words: the reason gives the lower bar
    assert v.verdicts[0].reason == (
        "52% of the claim's weighted content words appear in the chunk at rank 1 (35% needed, "
        "met); number 120 found"
    )
    gt = extract("每年120元。")
    a = attribute(gt, ["年度会员费为120元。"])
    assert [x.verdict for x in a.verdicts] == ["yes"]
    assert a.verdicts[0].supporting_chunks == [0]


def test_chinese_number_mismatch_is_no() -> None:
    v = verify(["会员费每年150元。"], ["年度会员费为120元。"])
    assert v.verdicts[0].verdict == "no"
    assert "150" in v.verdicts[0].reason


# --------------------------------------------------------------------------- verdicts


def test_number_mismatch_is_no() -> None:
    v = verify(["The museum opened in 1999."], ["The Harbor Museum opened in 1998."])
    verdict = v.verdicts[0]
    assert verdict.verdict == "no"
    assert verdict.supporting_chunks == []
    assert "1999 not found" in verdict.reason
    assert "1998" in verdict.reason


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict", "why"),
    [
        ("Pi is about 3.14.", "Pi is approximately 3.14159.", "yes", "3.14 is 3.14159 rounded"),
        (
            "The city has 2.5 million people.",
            "The city has 2.46 million people.",
            "yes",
            "2.5 is 2.46 rounded",
        ),
        (
            "The tower is 40 metres tall.",
            "The tower is 40.2 metres tall.",
            "yes",
            "40 is 40.2 rounded",
        ),
        ("Pi is about 3.1.", "Pi is approximately 3.14159.", "yes", "3.1 is 3.14159 rounded"),
        # not a rounding: another value, a one-digit count, more decimals than the context
        ("Pi is about 3.15.", "Pi is approximately 3.14159.", "no", "3.15 not found"),
        ("The trip takes 3 hours.", "The trip takes 3.4 hours.", "no", "3 not found"),
        ("Pi is 3.1416.", "Pi is approximately 3.14.", "no", "3.1416 not found"),
    ],
)
def test_a_number_written_rounded_matches_the_exact_one(claim, chunk, verdict, why) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert (v.verdict, why in v.reason) == (verdict, True), v.reason


def test_a_decade_holds_its_years_and_a_version_is_one_number() -> None:
    v = verify(["The bridge opened in the 1990s."], ["The bridge opened in 1994."]).verdicts[0]
    assert (v.verdict, v.reason) == (
        "yes",
        "100% of the claim's weighted content words appear in the chunk at rank 1; "
        "1994 is in the 1990s",
    )
    v = verify(["The bridge opened in the 1980s."], ["The bridge opened in 1994."]).verdicts[0]
    assert v.verdict == "no" and "number 1980 not found (the chunk has 1994)" in v.reason
    # "1990" written as a year is no decade
    assert verify(["It opened in 1990."], ["It opened in 1994."]).verdicts[0].verdict == "no"
    # versions and dotted dates are numbers as written
    assert numbers("Version 4.2.1, released 31.12.2020, costs 3.50.") == {
        "4.2.1",
        "31.12.2020",
        "3.5",
    }
    v = verify(["Version 4.2.1 fixed the bug."], ["Version 4.2.0 fixed the bug."]).verdicts[0]
    assert v.verdict == "no" and "number 4.2.1 not found (the chunk has 4.2.0)" in v.reason


def test_a_bare_number_written_rounded_finds_its_chunk() -> None:
    # "3.14" shares no word with any chunk: the chunk holding 3.14159 supports it
    chunks = ["Einstein was born in Ulm.", "Pi is approximately 3.14159."]
    for ask_judge in (verify, attribute):
        v = ask_judge(["3.14", "3.15"], chunks, "What is pi, to two decimals?").verdicts
        assert (v[0].verdict, v[0].supporting_chunks) == ("yes", [1]), v[0].reason
        assert v[0].reason.endswith("in the chunk at rank 2; 3.14 is 3.14159 rounded")
        assert v[1].verdict != "yes" and "3.15 not found" in v[1].reason


def test_supported_claim_is_yes_with_reason() -> None:
    v = verify(["The Harbor Museum opened in 1998."], ["The Harbor Museum opened in 1998."])
    verdict = v.verdicts[0]
    assert verdict.verdict == "yes"
    assert verdict.reason.startswith(
        "100% of the claim's weighted content words appear in the chunk at rank 1"
    )


def test_unrelated_claim_is_unsure() -> None:
    v = verify(["Penguins eat krill in Antarctica."], ["The Harbor Museum opened in 1998."])
    assert v.verdicts[0].verdict == "unsure"
    assert v.verdicts[0].supporting_chunks == []
    # below the support threshold the reason says what was needed
    v = verify(["It costs 30 pounds."], ["The ticket costs £30."])
    assert (v.verdicts[0].verdict, v.verdicts[0].reason) == (
        "unsure",
        "52% of the claim's weighted content words appear in the chunk at rank 1 (55% needed); "
        "number 30 found",
    )


def test_negation_conflict_is_no() -> None:
    v = verify(["The museum did not open in 1998."], ["The Harbor Museum opened in 1998."])
    assert v.verdicts[0].verdict == "no"
    assert "negation" in v.verdicts[0].reason
    v = verify(
        ["The bridge is open to trucks."],
        ["The old bridge is not open to trucks since the flood."],
    )
    assert v.verdicts[0].verdict == "no"


def test_number_words_match_digits() -> None:
    v = verify(["The duo earned 2 platinum albums."], ["The duo has earned two platinum albums."])
    assert v.verdicts[0].verdict == "yes"


def test_symbols_that_are_digits_only_to_isdigit_are_not_numbers() -> None:
    # "➊" (a dingbat) is a digit to str.isdigit but not a decimal digit: a list marker,
    # not the number 1; circled and superscript digits NFKC-normalise to plain digits
    assert numbers("➊电视频道 shows news") == set()
    assert numbers("② 12 rooms") == {"2", "12"}
    assert "➊" in content_tokens("➊电视频道", "zh")
    v = verify(["➊电视频道播放新闻。"], ["电视频道播放新闻。"]).verdicts[0]
    assert "number" not in v.reason


def test_teens_tens_and_compound_number_words_match_digits() -> None:
    chunk = "Fifteen passengers were examined, and twenty-five more waited for sixty minutes."
    assert numbers(chunk) == {"15", "25", "60"}
    assert numbers("Twenty five of them") == {"25"}
    v = verify(["15 passengers were examined."], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["25 more waited for 60 minutes."], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["16 passengers were examined."], [chunk]).verdicts[0]
    assert v.verdict == "no" and "number 16 not found (the chunk has 15, 25, 60)" in v.reason


def test_first_person_claim_is_unsure() -> None:
    v = verify(["I love the Harbor Museum."], ["The Harbor Museum opened in 1998."])
    assert v.verdicts[0].verdict == "unsure"


def test_supporting_chunks_point_to_the_right_chunk() -> None:
    chunks = [
        "The cafe serves soup on Mondays.",
        "The Harbor Museum opened in 1998 near the old port.",
        "Tickets cost ten euros.",
    ]
    v = verify(["The Harbor Museum opened in 1998.", "The cafe serves soup on Mondays."], chunks)
    assert [x.verdict for x in v.verdicts] == ["yes", "yes"]
    assert v.verdicts[0].supporting_chunks == [1]
    assert v.verdicts[1].supporting_chunks == [0]
    assert [x.index for x in v.verdicts] == [0, 1]


def test_claim_spread_over_two_chunks() -> None:
    chunks = ["Marie Curie was born in Warsaw.", "Curie won the Nobel Prize in Physics."]
    v = verify(["Marie Curie, born in Warsaw, won the Nobel Prize in Physics."], chunks)
    assert v.verdicts[0].verdict == "yes"
    assert v.verdicts[0].supporting_chunks == [0, 1]


def test_blank_chunks_keep_their_indices() -> None:
    v = verify(["The Harbor Museum opened in 1998."], ["", "The Harbor Museum opened in 1998."])
    assert v.verdicts[0].supporting_chunks == [1]
    assert "the chunk at rank 2" in v.verdicts[0].reason


def test_no_context_is_unsure_and_attribution_is_no() -> None:
    assert verify(["The museum opened in 1998."], []).verdicts[0].verdict == "unsure"
    assert attribute(["The museum opened in 1998."], []).verdicts[0].verdict == "no"


def test_attribution_words_are_yes_no_only() -> None:
    a = attribute(
        ["The museum opened in 1999.", "Penguins eat krill.", "The Harbor Museum opened in 1998."],
        ["The Harbor Museum opened in 1998."],
    )
    assert [x.verdict for x in a.verdicts] == ["no", "no", "yes"]
    assert a.verdicts[0].supporting_chunks == []


def test_bare_yes_answer_is_checked_against_the_question() -> None:
    chunks = ["Christopher Nolan is a film director.", "Sathish Kalathil is a film director."]
    v = verify(["Yes."], chunks, question="Are Christopher Nolan and Sathish Kalathil directors?")
    assert v.verdicts[0].verdict == "yes"
    # its supporting chunks are the ones its reason names, not every chunk
    films = ["Lumo is a 2009 film.", "Porto is a city.", "Dawn Tide is a 2009 film."]
    v = verify(["Yes."], films, "Were Lumo and Dawn Tide released in the same year?")
    # ranks in order; a share below the support bar is not shown with the bar when
    # the verdict comes from the question's check
    assert "in the chunks at ranks 1 and 3;" in v.verdicts[0].reason
    assert (v.verdicts[0].verdict, v.verdicts[0].supporting_chunks) == ("yes", [0, 2])


def test_korean_and_japanese() -> None:
    v = verify(
        ["건물 사람들은 수영장을 이용할 수 있다."], ["10층에 건물사람들만 이용하는 수영장이 있다."]
    )
    assert v.verdicts[0].verdict == "yes"
    v = verify(
        ["雪山でスノボーをしている人が4人います。"], ["雪山でスノボーをしている人が４人います。"]
    )
    assert v.verdicts[0].verdict == "yes"
    v = verify(
        ["雪山でスノボーをしている人が5人います。"], ["雪山でスノボーをしている人が４人います。"]
    )
    assert v.verdicts[0].verdict == "no"


# --------------------------------------------------------------------------- claims


def test_claims_split_on_cjk_punctuation_and_drop_questions() -> None:
    assert extract("会员费每年120元。你要加入吗？太好了！学生半价。") == [
        "会员费每年120元。",
        "太好了！",
        "学生半价。",
    ]
    assert extract("北海道には梅雨がない。沖縄はどうですか。") == ["北海道には梅雨がない。"]


def test_claims_respect_english_abbreviations() -> None:
    claims = extract(
        "Dr. Smith met Mr. Jones in Washington, D.C. on Jan. 5. Was it fun? It was great."
    )
    assert claims == ["Dr. Smith met Mr. Jones in Washington, D.C. on Jan. 5.", "It was great."]


def test_claims_strip_whitespace_bullets_and_punctuation() -> None:
    assert extract("  \n- The park opens at 9.\n- It closes at 5.\n ... \n") == [
        "The park opens at 9.",
        "It closes at 5.",
    ]
    assert extract("") == []
    assert extract("?!") == []


def test_claims_drop_contentless_pieces_and_split_clauses() -> None:
    assert extract("Yes. The bridge opened in 1932.") == ["The bridge opened in 1932."]
    assert extract("Yes.") == ["Yes."]
    assert extract("The park opened in 1990, and it closed in 2001 after the flood.") == [
        "The park opened in 1990",
        "it closed in 2001 after the flood.",
    ]


# --------------------------------------------------------------------------- chunks


def test_judge_chunks_relevant_and_unrelated() -> None:
    out = relevance(
        [
            "The Harbor Museum opened in 1998 and shows ship models.",
            "Penguins eat krill in the Southern Ocean.",
        ],
        "The Harbor Museum opened in 1998.",
        "When did the Harbor Museum open?",
    )
    assert [v.verdict for v in out.verdicts] == ["yes", "no"]
    assert [v.index for v in out.verdicts] == [0, 1]
    assert all(v.reason for v in out.verdicts)


def test_judge_chunks_chinese() -> None:
    t = Task(
        "judge_chunks",
        "context_precision",
        question="会员费是多少？",
        text="每年120元。",
        items=(Item(3, "年度会员费为120元。"), Item(4, "熊猫主要吃竹子。")),
    )
    out = ask(t)
    assert isinstance(out, Verdicts)
    assert [(v.index, v.verdict) for v in out.verdicts] == [(3, "yes"), (4, "no")]


def test_judge_chunks_one_character_token_of_the_reference() -> None:
    # "1998年" gives the tokens 1998 and 年; the chunk's bigrams ("年开") never equal 年,
    # so the chunk that states the answer was judged irrelevant (38% of the reference)
    out = relevance(["博物馆于1998年开放。", "公园很大。"], "1998年。", "博物馆什么时候开放？")
    assert [v.verdict for v in out.verdicts] == ["yes", "no"]
    assert out.verdicts[0].reason.startswith(
        "chunk covers 100% of the reference's weighted content words and "
    )
    assert "of the question's other ones" in out.verdicts[0].reason


def test_judge_chunks_a_chunk_giving_one_reference_sentence_is_relevant() -> None:
    # it covered 21% of the whole reference and was judged irrelevant
    out = relevance(
        ["The depot is in Leeds.", "Penguins eat krill.", "It ships 40 pallets a day."],
        "The depot is in Leeds. It ships 40 pallets a day.",
        "Where is the depot?",
    )
    assert [v.verdict for v in out.verdicts] == ["yes", "no", "yes"]
    assert out.verdicts[0].reason == (
        "chunk covers 100% of reference sentence 1's weighted content words; the chunk's "
        "first sentence has 33% of the reference's (the question has no content word beyond "
        "the reference's); relevance 78% (32% needed)"
    )
    assert out.verdicts[2].reason.startswith(
        "chunk covers 100% of reference sentence 2's weighted content words"
    )
    assert out.verdicts[1].reason.startswith("chunk covers 0% of the reference's weighted")


def test_judge_chunks_reasons_name_the_answer_when_it_is_the_reference() -> None:
    # a row without a ground truth: the score's reason says "relevant to the answer", the
    # chunk's said "the reference's"
    df = pd.DataFrame(
        {
            "question": ["Where is the depot?"],
            "answer": ["The depot is in Leeds."],
            "contexts": [["The depot is in Leeds.", "Penguins eat krill."]],
        }
    )
    chunks = df.rag.context_precision(model="offline", progress=False).rag.chunks()
    assert chunks["reason"].str.contains("of the answer's weighted content words").all()
    assert not chunks["reason"].str.contains("reference").any()
    # each reason ends with the score the shares make and its bar
    assert chunks["reason"].str.contains(r"; relevance \d+% \(32% needed\)$").all()
    no_question = df.assign(question=None).rag.context_precision(model="offline", progress=False)
    reasons = no_question.rag.chunks()["reason"]
    assert "(the row has no question)" in reasons.iloc[0]
    assert not reasons.str.contains("the question has no content word").any()


@pytest.mark.parametrize(
    "reference",
    [
        "Acme was founded in 2001 and is headquartered in Oslo.",
        "Acme was founded in 2001; it is headquartered in Oslo.",
    ],
)
def test_judge_chunks_a_chunk_giving_one_clause_of_the_reference_is_relevant(
    reference: str,
) -> None:
    # each chunk gives one fact of a one-sentence reference: both were irrelevant (57%),
    # while the same facts written as two sentences made both relevant
    out = relevance(
        [
            "Acme was founded in 2001.",
            "Acme is headquartered in Oslo.",
            "Parking is free on weekends.",
        ],
        reference,
        "When was Acme founded and where is it based?",
    )
    assert [v.verdict for v in out.verdicts] == ["yes", "yes", "no"]
    assert out.verdicts[0].reason.startswith(
        "chunk covers 100% of a clause of the reference's weighted content words"
    )
    # a list is no clause: "dizziness" alone is no fact of its own
    out = relevance(
        ["Dizziness can occur."],
        "Common side effects include nausea and dizziness.",
        "What are the side effects?",
    )
    assert out.verdicts[0].verdict == "no"


# --------------------------------------------------------------------------- misc


def test_explain_gives_one_sentence() -> None:
    out = ask(
        Task(
            "explain",
            "faithfulness",
            text="2 of 3 claims are supported by the context. Not found: the 1999 date.",
        )
    )
    assert isinstance(out, Explanation)
    assert out.reason == "2 of 3 claims are supported by the context."
    # a summary that ends with a quoted claim keeps its own full stop only
    quoted = ask(Task("explain", "faithfulness", text='The score is 0 because "It is in India."'))
    assert quoted.reason == 'The score is 0 because "It is in India."'
    empty = ask(Task("explain", "faithfulness", text=""))
    assert isinstance(empty, Explanation) and empty.reason


def test_deterministic() -> None:
    task = Task(
        "verify_claims",
        "faithfulness",
        items=(Item(0, "The museum opened in 1999."), Item(1, "It has a cafe.")),
        chunks=("The Harbor Museum opened in 1998.", "The museum cafe is on the roof."),
    )
    first = OfflineJudge().complete(task)
    second = asyncio.run(OfflineJudge().acomplete(task))
    assert first == second
    assert first.model_dump() == second.model_dump()


def test_unknown_kind_raises() -> None:
    with pytest.raises(ValueError):
        OfflineJudge().complete(Task("nonsense", "faithfulness"))  # type: ignore[arg-type]


def test_text_helpers() -> None:
    assert detect_language("Hello world") == "en"
    assert detect_language("日本で梅雨がないのは北海道") == "ja"
    assert detect_language("건물사람들은 수영장을") == "ko"
    assert detect_language("年度会员费为120元。") == "zh"
    assert numbers("It cost $1,200.50 in 1998.") == {"1200.5", "1998"}
    assert has_negation("He did not go.") == 1
    assert has_negation("No, he went.") == 0
    assert has_negation("他没有去。") == 1
    assert "museum" in content_tokens("The museums")
    assert "the" not in content_tokens("The museums")


# --------------------------------------------------------------------------- v1 rules


def test_unsupported_name_is_not_yes() -> None:
    chunks = ["The Messenger is a 2015 film starring Robert Sheehan and Lily Cole."]
    v = verify(["The film The Messenger starred Michael Sheen."], chunks)
    assert v.verdicts[0].verdict == "unsure"
    assert "name Michael, Sheen not found" in v.verdicts[0].reason
    v = verify(["The Messenger starred Robert Sheehan."], chunks)
    assert v.verdicts[0].verdict == "yes"


def test_claims_drop_preambles_citations_and_courtesies() -> None:
    claims = extract(
        "Based on the provided passages, here are the steps:\n"
        "1. Cut the pine board to length (Passage 2).\n"
        "Step 2: Sand the pine board smooth [1].\n"
        "Let me know if you have any further questions."
    )
    assert claims == ["Cut the pine board to length.", "Sand the pine board smooth."]
    assert extract("Based on the given passages, the museum opened in 1998.") == [
        "the museum opened in 1998."
    ]


def test_bare_greetings_are_not_claims() -> None:
    # the spec's example of an answer without claims: a greeting (status no_claims)
    assert extract("Hello!") == []
    assert extract("Sure, happy to help.") == []
    assert extract("Thank you so much!") == []
    assert extract("Hi there! The museum opened in 1998. Thank you.") == [
        "The museum opened in 1998."
    ]
    # a greeting word that starts a real sentence stays
    assert extract("Hello Kitty is a brand owned by Sanrio.") == [
        "Hello Kitty is a brand owned by Sanrio."
    ]
    assert extract("Sure enough, the museum opened in 1998.") == [
        "Sure enough, the museum opened in 1998."
    ]


def test_clause_split_at_because() -> None:
    assert extract("The harbor museum closed early because heavy storms flooded the pier.") == [
        "The harbor museum closed early",
        "because heavy storms flooded the pier.",
    ]


def test_times_acronyms_possessives_and_compounds() -> None:
    assert numbers("Open 11:30 am - 9:00 pm") == {"11:30", "21:00"}
    assert numbers('"Sunday": "11:30-21:0"') == {"11:30", "21:00"}
    v = verify(["On Sundays it opens from 11:30 am to 9:00 pm."], ['{"Sunday": "11:30-21:0"}'])
    assert v.verdicts[0].verdict == "yes"
    assert content_tokens("F.E.A.R. is Romo's game") == ["fear", "romo", "gam"]
    assert has_negation("The not-for-profit hospital center") == 0


def test_bare_no_answer_is_checked_against_the_question() -> None:
    chunks = ["Eatza Pizza was founded in Arizona.", "Your Pie was founded in Georgia."]
    v = verify(["No."], chunks, question="Were Eatza Pizza and Your Pie founded in the same state?")
    assert v.verdicts[0].verdict == "yes"


def test_negation_elsewhere_in_the_sentence_is_no_conflict() -> None:
    # the chunk's "not" negates "attend", which the claim does not say
    chunk = "Mayor Lee, who did not attend the budget meeting, said the city budget rose."
    v = verify(["Mayor Lee said the city budget rose."], [chunk])
    assert v.verdicts[0].verdict == "yes"
    # without the scope rule (offline-v1) any negated sentence that matches the claim clashes
    unscoped = OfflineJudge(negation_scope=False)
    assert unscoped.identity()["rules"] == {"negation_scope": False}
    claim = ["Mayor Lee said the city budget rose."]
    assert verify(claim, [chunk], judge=unscoped).verdicts[0].verdict == "no"
    # a negation of what the claim says is a conflict either way
    for judge in (OfflineJudge(), unscoped):
        v = verify(["Mayor Lee attended the budget meeting."], [chunk], judge=judge)
        assert v.verdicts[0].verdict == "no"
        assert "negation in the chunk only" in v.verdicts[0].reason


def test_negation_scope_is_not_read_in_structured_records() -> None:
    # in a record the negated word precedes the cue ("terrace_open": "no"), so the scope
    # read in prose (the word after the cue) finds nothing; the whole record counts
    record = '{"name": "Harbor Cafe", "city": "Porto", "terrace_open": "no"}'
    assert negation_targets(record) == frozenset()
    v = verify(["The Harbor Cafe terrace in Porto is open."], [record])
    assert v.verdicts[0].verdict == "no"
    assert "negation in the chunk only" in v.verdicts[0].reason


def test_record_fields_polarity_is_read_field_by_field() -> None:
    # offline-v4: a "no" in one field of a record does not contradict a claim about the
    # others (the splitter's one "sentence" used to run across every field)
    record = (
        '{"name": "Harbor Cafe", "address": "12 Quay St", "city": "Porto", '
        '"attributes": {"WiFi": "no", "OutdoorSeating": false, "RestaurantsTakeOut": true}}'
    )
    where = "Harbor Cafe is a cafe located at 12 Quay St in Porto."
    v = verify([where], [record]).verdicts[0]
    assert (v.verdict, v.reason) == (
        "yes",
        "76% of the claim's weighted content words appear in the chunk at rank 1; number 12 found",
    )
    # a field whose key the claim names decides: false / "no" / "none" say no
    v = verify(["Harbor Cafe in Porto offers outdoor seating."], [record]).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert (
        verify(["Harbor Cafe in Porto has no outdoor seating."], [record]).verdicts[0].verdict
        == "yes"
    )
    # the previous reading is still available for comparison, and is recorded
    old = OfflineJudge(record_fields=False)
    assert old.identity()["rules"] == {"record_fields": False}
    assert verify([where], [record], judge=old).verdicts[0].verdict == "no"


def test_record_fields_keep_prose_values_as_sentences() -> None:
    # a review inside a record is prose: its negation is scoped like any sentence
    record = (
        '{"name": "Harbor Cafe", "review_text": "The staff did not smile at all, which was '
        'a shame. The coffee at Harbor Cafe was strong and the cakes were fresh every day."}'
    )
    v = verify(["The coffee at Harbor Cafe was strong."], [record]).verdicts[0]
    assert v.verdict == "yes"
    v = verify(["At Harbor Cafe the coffee was not strong."], [record]).verdicts[0]
    assert v.verdict == "no" and "negation in the claim only" in v.reason


def test_numbers_of_source_pointers_are_not_facts() -> None:
    # "passage 2" names where the claim comes from; its 2 is not a number to find
    chunk = "The depot opened in 1998 and ships 40 pallets a day."
    for claim in (
        "The depot, per passage 2, opened in 1998 and ships 40 pallets a day.",
        "As documents 1 and 3 say, the depot opened in 1998 and ships 40 pallets a day.",
    ):
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    # other numbers are still facts: a wrong count is a conflict
    claim = "The depot, per passage 2, opened in 1998 and ships 45 pallets a day."
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no" and "number 45 not found" in v.reason


def test_a_leading_no_is_an_answer_only_before_punctuation() -> None:
    # "No, ..." answers the question; "No one ..." / "No trucks ..." negate the fact
    assert has_negation("No, the pass is closed.") == 0
    assert has_negation("No.") == 0
    assert has_negation("No one was taken to the hospital.") == 1
    assert negation_targets("No trucks run on Sunday.") == {"truck"}
    chunk = "Two patients were hurt, but no patient was taken to the hospital."
    v = verify(["No patient was taken to the hospital."], [chunk]).verdicts[0]
    assert v.verdict == "yes"  # both sides negated (it was a conflict)
    v = verify(["Two patients were hurt and taken to the hospital."], [chunk]).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason


def test_two_negations_in_a_sentence_do_not_cancel_out() -> None:
    chunk = "The soup was not very spicy, and the sauce did not seem mixed into the noodles."
    v = verify(["The sauce did not seem mixed into the noodles."], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason  # it was a conflict: two cues read as none
    v = verify(["The sauce seemed mixed into the noodles."], [chunk]).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason


def test_contractions_read_as_not() -> None:
    assert content_tokens("The soup wasn't hot.") == content_tokens("The soup was not hot.")
    v = verify(["The soup was not hot."], ["The soup wasn't hot."]).verdicts[0]
    assert v.verdict == "yes", v.reason
    chunk = "The soup at the harbor cafe wasn't hot."
    v = verify(["The soup at the harbor cafe was hot."], [chunk]).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason


def test_negation_targets() -> None:
    assert negation_targets("The museum did not open in 1998.") == {"open"}
    # stemmed as content tokens are ("toll" and "tolls" both give "tol")
    assert negation_targets("No, the bridge is not a toll road.") == {stem("toll")} == {"tol"}
    assert negation_targets("会员费不是120元。") is None


def test_opposite_words_are_a_conflict() -> None:
    # on by default since offline-v3 (docs/offline_judge.md); it can be switched off
    claim, chunk = "公園で男性がベンチに座っています。", "公園で男性がベンチの前に立っています。"
    off = OfflineJudge(opposite_words=False)
    assert verify([claim], [chunk], judge=off).verdicts[0].verdict != "no"
    assert off.identity()["rules"] == {"opposite_words": False}
    opp = OfflineJudge()
    v = verify(["The mountain pass is open in winter."], ["The mountain pass is closed in winter."])
    assert v.verdicts[0].verdict == "no"
    v = verify([claim], [chunk], judge=opp)
    assert v.verdicts[0].verdict == "no"
    assert "'座っ' where the chunk says '立っ'" in v.verdicts[0].reason
    v = verify(
        ["Ticket sales rose sharply in the spring season."],
        ["Ticket sales at the harbor museum fell sharply in the spring season."],
        judge=opp,
    )
    assert v.verdicts[0].verdict == "no"
    assert "the claim says 'rose' where the chunk says 'fell'" in v.verdicts[0].reason
    # both sides in the context: no clash
    v = verify(
        ["Ticket sales rose sharply in the spring season."],
        ["Ticket sales fell in winter but rose sharply in the spring season."],
        judge=opp,
    )
    assert v.verdicts[0].verdict == "yes"
    # the opposite word sits in a sentence about something else
    v = verify(
        ["Ticket sales rose sharply in the spring season."],
        ["Ticket sales rose sharply in the spring season. Rainfall fell."],
        judge=opp,
    )
    assert v.verdicts[0].verdict == "yes"


def test_japanese_claim_with_new_content_characters_is_not_yes() -> None:
    chunk = "雪山でスノボーをしている人がいます。"
    # one kanji that the context does not use is tolerated (a variant spelling) ...
    assert verify(["雪山でスノボーをしている男がいます。"], [chunk]).verdicts[0].verdict == "yes"
    # ... two or more are new content
    v = verify(["雪山でスノボーをしている男性が笑っています。"], [chunk])
    assert v.verdicts[0].verdict == "unsure"
    assert "characters 男性笑 not in the context" in v.verdicts[0].reason
    assert verify(["雪山でスノボーをしています。"], [chunk]).verdicts[0].verdict == "yes"


def test_opposite_cues() -> None:
    p = period_group("en")  # the rate periods' group; the pairs come before it
    n = len(PERIODS)  # each count above one adds n to a period's side
    assert opposite_cues("Sales rose in May.") == {(0, 0): "rose", (p + 7, 4): "may"}
    assert opposite_cues("Men and women voted.") == {(13, 0): "men", (13, 1): "women"}
    assert opposite_cues("男性が座っている。") == {(6, 0): "男", (8, 0): "座っ"}
    assert opposite_cues("The museum hosted a show.") == {}
    # the rate periods: one group after the pairs (index p in English); a side is a
    # period of PERIODS (hour, day, night, week, month, quarter, year, dose, minute,
    # second) and a count, then
    # currencies, masses and distances
    assert opposite_cues("The fee is 120 a year.") == {(p, 6): "a year"}
    assert opposite_cues("The fee is $120 a year.") == {(p, 6): "a year", (p + 1, 0): "$"}
    assert opposite_cues("Buses run every hour and twice a day.") == {
        (p, 0): "every hour",
        (p, 1): "a day",
    }
    assert opposite_cues("It is billed monthly, not per annum.") == {
        (p, 4): "monthly",
        (p, 6): "per annum",
    }
    assert opposite_cues("Rooms cost 90 per night, reports come quarterly.") == {
        (p, 2): "per night",
        (p, 5): "quarterly",
    }
    # a count makes another side: every two weeks is (week, 2), every 8 hours (hour, 8)
    assert opposite_cues("The bus comes every two weeks.") == {(p, 3 + n): "every two weeks"}
    assert opposite_cues("Take one every 8 hours.") == {(p, 0 + n * 7): "every 8 hours"}
    assert opposite_cues("Storage: 500/month or 40/hr.") == {(p, 4): "/month", (p, 0): "/hr"}
    assert opposite_cues("A 500 mg dose, 2 kg of flour, a 5 km walk, €3.") == {
        (p + 1, 1): "€",
        (p + 2, 0): "mg",
        (p + 2, 2): "kg",
        (p + 3, 0): "km",
    }
    assert opposite_cues("Submit it before the deadline.") == {(45, 0): "before"}
    # "a year" without an amount before it, or followed by "ago", is no rate
    assert opposite_cues("He was 5 a year ago.") == {}
    assert opposite_cues("In 2010, a year after the war, it reopened.") == {(45, 1): "after"}
    # the period group, and (since v11) the currency of the amount
    # (zh 16 pairs of opposite words, since v16, then the period group)
    assert opposite_cues("年度会员费为120元。") == {(16, 6): "年度", (20, 0): "元"}
    assert opposite_cues("毎月の会費") == {(57, 4): "毎月"}


def test_rate_per_other_period_is_a_contradiction() -> None:
    chunk = "The annual membership fee is $120."
    v = verify(["The fee is $120 per month."], [chunk])
    assert v.verdicts[0].verdict == "no"
    assert "the claim says 'per month' where the chunk says 'annual'" in v.verdicts[0].reason
    # the same period in other words is support: "a year" and "annual" both say year
    assert verify(["The fee is $120 a year."], [chunk]).verdicts[0].verdict == "yes"
    v = verify(["The bus runs every hour."], ["The bus runs every day."])
    assert v.verdicts[0].verdict == "no"
    assert "'every hour' where the chunk says 'every day'" in v.verdicts[0].reason
    assert verify(["The bus runs hourly."], ["The bus runs every hour."]).verdicts[0].verdict == (
        "yes"
    )
    # a short claim whose period weighs much: the rate rule still reads it
    v = verify(["The pharmacy restocks every week."], ["The pharmacy restocks daily."])
    assert v.verdicts[0].reason.startswith(
        "contradicted: the claim says 'every week' where the chunk says 'daily'; "
    )
    v = verify(["Reports are filed quarterly."], ["Reports are filed annually."])
    assert v.verdicts[0].verdict == "no"
    v = verify(["The room costs $90 per night."], ["The room costs $90 per week."])
    assert v.verdicts[0].verdict == "no"
    assert verify(["The room costs $90 per night."], ["Rooms cost $90 a night."]).verdicts[
        0
    ].verdict == ("yes")
    v = verify(["The bus runs every two weeks."], ["The bus runs every two months."])
    assert v.verdicts[0].verdict == "no"
    # how often: "twice a year" is 2 a year
    v = verify(["Reports are filed twice a year."], ["Reports are filed once a year."])
    assert v.verdicts[0].verdict == "no"
    assert "number 2 not found (the chunk has 1)" in v.verdicts[0].reason
    ok = verify(["Take the medicine twice daily."], ["Take the medicine two times a day."])
    assert ok.verdicts[0].verdict == "yes"
    # Japanese: a monthly fee against the annual one (年会費)
    v = verify(["会費は月額120ドルです。"], ["年会費は120ドルです。"])
    assert v.verdicts[0].verdict == "no"
    # Chinese: the question of case 8 asked per month instead of per year
    assert verify(["会员费每年120元。"], ["年度会员费为120元。"]).verdicts[0].verdict == "yes"
    v = verify(["会员费每月120元。"], ["年度会员费为120元。"])
    assert v.verdicts[0].verdict == "no"
    assert "'每月' where the chunk says '年度'" in v.verdicts[0].reason


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        # bounds: a minimum against a maximum
        (
            "The Team plan supports more than 50 users.",
            "The Team plan supports up to 50 users.",
            ("more than", "up to"),
        ),
        ("Orders under $35 ship free.", "Orders over $35 ship free.", ("under", "over")),
        (
            "The battery lasts at least 12 hours.",
            "The battery lasts up to 12 hours on a single charge.",
            ("at least", "up to"),
        ),
        (
            "Less than half of respondents were satisfied.",
            "More than half of respondents were satisfied.",
            ("less than", "more than"),
        ),
        ("The firm has 100 or more employees.", "The firm has fewer than 100 employees.", None),
        # durations: the count of another unit
        ("The warranty lasts 3 months.", "The warranty lasts 3 years.", ("3 months", "3 years")),
        (
            "Refunds are issued within 14 weeks.",
            "Refunds are issued within 14 days.",
            ("14 weeks", "14 days"),
        ),
        (
            "The probation period is six months.",
            "The probation period is six weeks.",
            ("six months", "six weeks"),
        ),
        # a rank before a superlative
        (
            "Germany is the company's largest market.",
            "Germany is the company's second largest market, after the United States.",
            ("largest", "second largest"),
        ),
        (
            "The Harbor Tower is the tallest building in the city.",
            "The Harbor Tower is the third tallest building in the city.",
            ("tallest", "third tallest"),
        ),
        # months of a date, days of the week
        (
            "The promotion runs until May 31.",
            "The promotion runs until March 31.",
            ("May", "March"),
        ),
        ("The meeting is held on Friday.", "The meeting is held on Wednesday.", None),
    ],
)
def test_bounds_durations_ranks_and_dates_are_opposite_sides(
    claim: str, chunk: str, said: tuple[str, str] | None
) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no"
    if said:
        assert v.reason.endswith(f"the claim says '{said[0]}' where the chunk says '{said[1]}'")
    # the chunk's own wording is support
    assert verify([chunk], [chunk]).verdicts[0].verdict == "yes"


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("The Team plan supports over 50 users.", "The Team plan supports more than 50 users."),
        ("Each room allows up to 4 guests.", "Each room allows a maximum of 4 guests."),
        ("Guests must be at least 18.", "Guests must be 18 or older to check in."),
        ("The warranty lasts three years.", "The product has a 3-year warranty."),
        ("The return window is 30 days.", "Items have a 30-day return window."),
        ("It is the largest market.", "It is by far the largest market in Europe."),
        ("The museum is closed on Mondays.", "The museum is closed every Monday."),
        ("The store is open from Monday to Friday.", "The store is open Monday through Friday."),
        # "may" the verb is no month; "march" the noun is no month
        ("Guests may check in after 3 pm.", "Guests may check in after 3 pm in March."),
    ],
)
def test_the_same_side_in_other_words_is_no_conflict(claim: str, chunk: str) -> None:
    assert verify([claim], [chunk]).verdicts[0].verdict != "no"


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")


def test_opposite_cues_of_the_new_groups() -> None:
    p = period_group("en")  # then currencies, masses, distances, durations, bounds, ...

    def groups(text: str) -> dict[tuple[int, int], str]:
        return {k: v for k, v in opposite_cues(text).items() if k[0] > p + 3}

    assert groups("Delivery takes 5 days, at most 10 days.") == {
        (p + 4, 3): "5 days",
        (p + 5, 1): "at most",
    }
    assert groups("It is no more than 4 g.") == {(p + 5, 1): "no more than"}
    assert groups("Germany is the company's largest market.") == {(p + 6, 0): "largest"}
    assert groups("the 2nd-largest city") == {(p + 6, 1): "2nd-largest"}
    assert groups("You may apply by 5th May.") == {(p + 7, 4): "may"}
    assert groups("You may apply. The march began.") == {}
    # a range holds the days inside it
    assert groups("Open Monday to Friday.") == {(p + 8, k): d for k, d in enumerate(WEEKDAYS[:5])}
    assert groups("Open Monday and Friday.") == {(p + 8, 0): "monday", (p + 8, 4): "friday"}
    assert groups("over the weekend, more than a decade") == {}


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        ("会议在周五举行。", "会议在周三举行。", ("周五", "周三")),
        ("本药品可以与酒精同服。", "本药品禁止与酒精同服。", ("可以", "禁止")),
        ("保修期为3个月。", "保修期为三年。", ("3个月", "三年")),
        ("保証期間は3か月です。", "この製品の保証期間は3年です。", ("3か月", "3年")),
        ("会議は金曜日に開かれます。", "会議は毎週月曜日に開かれます。", ("金曜", "月曜")),
        ("회의는 금요일에 열립니다.", "회의는 매주 월요일에 열립니다.", ("금요일", "월요일")),
        ("보증 기간은 3개월입니다.", "보증 기간은 3년입니다.", ("3개월", "3년")),
    ],
)
def test_cjk_durations_weekdays_and_permission_are_opposite_sides(
    claim: str, chunk: str, said: tuple[str, str]
) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no"
    assert v.reason.endswith(f"the claim says '{said[0]}' where the chunk says '{said[1]}'")
    assert verify([chunk], [chunk]).verdicts[0].verdict == "yes"
    # a four-digit year before 年 is a date, not a duration of years
    assert opposite_cues("公司于2020年成立。") == {}


def test_korean_negation_with_character_pair_coverage() -> None:
    # 49% of the claim's weighted character pairs: under the 0.5 the negation check asked
    # for (words), over its CJK scaling (0.5 x 35% / 55%)
    v = verify(["반려동물 동반이 허용되지 않습니다."], ["반려동물 동반이 허용됩니다."]).verdicts[0]
    assert (v.verdict, v.reason) == (
        "no",
        "contradicted: 49% of the claim's weighted content words appear in the chunk at rank 1 "
        "(35% needed, met); "
        "negation in the claim only",
    )


def test_an_email_address_is_one_name_and_cover_is_include() -> None:
    v = verify(["Contact support at help@acme.io."], ["Contact support at help@acme.com."])
    assert (v.verdicts[0].verdict, v.verdicts[0].reason) == (
        "unsure",
        "68% of the claim's weighted content words appear in the chunk at rank 1; "
        "name help@acme.io not found",
    )
    ok = verify(["Write to help@acme.com."], ["For help, write to Help@Acme.com today."])
    assert ok.verdicts[0].verdict == "yes"
    v = verify(
        ["The plan covers cosmetic surgery."], ["Cosmetic surgery is excluded from the plan."]
    )
    assert v.verdicts[0].verdict == "no"
    assert v.verdicts[0].reason.endswith("the claim says 'covers' where the chunk says 'excluded'")


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict"),
    [
        # a passive and its active form repeat each other's wording, both ways
        ("YouTube was acquired by Google in 2006.", "Google acquired YouTube in 2006.", "yes"),
        ("Google acquired YouTube in 2006.", "YouTube was acquired by Google in 2006.", "yes"),
        ("Anna was defeated by Maria.", "Maria defeated Anna.", "yes"),
        ("Maria was defeated by Anna.", "Maria defeated Anna.", "unsure"),
        # Korean durations (a day of a date is none)
        ("배송은 3주 걸립니다.", "배송은 3일 걸립니다.", "no"),
        ("배송은 3년 걸립니다.", "배송은 3일 걸립니다.", "no"),
        ("배송은 3일 걸립니다.", "배송은 3일 걸립니다.", "yes"),
        # a version is written as it is: 1.10 is not 1.1 (a price still rounds)
        ("Version 1.1 is the latest release.", "Version 1.10 is the latest release.", "no"),
        ("Python 3.10 added match statements.", "Python 3.10 added match statements.", "yes"),
        # a Chinese month in numerals
        ("节日在六月举行。", "节日在七月举行。", "no"),
        # a day inside a range of days is no contradiction (and, since v11, is said by
        # it); one outside it is
        ("Deliveries arrive on Thursday.", "Deliveries arrive Tuesday through Friday.", "yes"),
        ("Deliveries arrive on Sunday.", "Deliveries arrive Tuesday through Friday.", "no"),
        # a year inside a decade the chunk gives is not contradicted
        ("The band formed in 1994.", "The band formed in the 1990s.", "unsure"),
        ("The band formed in 1984.", "The band formed in the 1990s.", "no"),
    ],
)
def test_second_fresh_user_cases(claim: str, chunk: str, verdict: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason


def test_contradicted_opens_the_reason_of_a_contradiction_only() -> None:
    chunk = ["The mountain pass is closed in winter."]
    question = "Is the mountain pass open in winter?"
    said = (
        "a bare answer, checked through its question: 62% of the claim's weighted content "
        "words appear in the chunk at rank 1; the claim says 'open' where the chunk says "
        "'closed'; the context says the opposite of what the question asks, "
    )
    # the question's check is a contradiction; "No." agrees with it, so no "contradicted:"
    v = verify(["No."], chunk, question=question).verdicts[0]
    assert (v.verdict, v.reason) == ("yes", said + "as the answer does")
    v = verify(["Yes."], chunk, question=question).verdicts[0]
    assert (v.verdict, v.reason) == ("no", "contradicted: " + said + "unlike the answer")


def test_a_negated_opposite_agrees_with_the_claim() -> None:
    # "not permitted" says "prohibited": no contradiction (it was "no" before)
    v = verify(["Smoking is prohibited on campus."], ["Smoking is not permitted on campus."])
    assert v.verdicts[0].verdict != "no"
    assert "where the chunk says" not in v.verdicts[0].reason
    v = verify(["The store is closed on Sundays."], ["The store is not open on Sundays."])
    assert v.verdicts[0].verdict != "no"
    # the opposite without a negation is still a contradiction
    v = verify(["Smoking is prohibited on campus."], ["Smoking is permitted on campus."])
    assert v.verdicts[0].verdict == "no"


def test_claim_assembled_from_scattered_words_is_not_yes() -> None:
    chunk = (
        "Anna Berg won the national chess title in 1990 after a long final. Many years "
        "later, her younger brother Paul moved to Oslo and opened a bakery."
    )
    # every word is in the chunk, but most links join words of different sentences
    v = verify(["Anna Berg moved to Oslo and opened a chess bakery in 1990."], [chunk])
    assert v.verdicts[0].verdict == "unsure"
    assert "content words stand in different sentences (3 of 7 links in one)" in (
        v.verdicts[0].reason
    )
    # read from one sentence: yes
    assert verify(["Paul moved to Oslo and opened a bakery."], [chunk]).verdicts[0].verdict == "yes"
    # a bare "Yes." is checked against the whole question, which may span sentences
    q = "Did Anna Berg win the chess title and did her brother open a bakery in Oslo?"
    assert verify(["Yes."], [chunk], question=q).verdicts[0].verdict == "yes"


def test_claim_whose_wording_is_nowhere_in_the_context_is_not_yes() -> None:
    chunk = (
        "The Harbor Gazette is a weekly magazine printed in Lisbon since 1892. "
        "Its editors publish essays and poems by local writers. "
        "Orion Media is an American publisher that owns several newspapers in Boston."
    )
    claim = (
        "The weekly Harbor Gazette prints essays, poems and newspapers by Boston writers in Lisbon."
    )
    v = verify([claim], [chunk])
    assert v.verdicts[0].verdict == "unsure"
    assert "only 2 of its 13 word pairs appear together in the context" in v.verdicts[0].reason
    ok = "The Harbor Gazette is a weekly magazine from Lisbon."
    assert verify([ok], [chunk]).verdicts[0].verdict == "yes"
    # structured records have no word order: the local checks are skipped there
    record = '{"name": "The Harbor Gazette", "city": "Lisbon", "topics": "essays, poems"}'
    v = verify(["The Harbor Gazette from Lisbon prints essays and poems."], [record])
    assert "word pairs" not in v.verdicts[0].reason


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("Brightline's CFO is Maria Lopez.", "Maria Lopez is the CFO of Brightline."),
        (
            "The capital of Australia is Canberra.",
            "Australia's capital is Canberra, a planned city.",
        ),
        (
            "New Zealand's capital city is Wellington.",
            "Wellington is the capital city of New Zealand.",
        ),
    ],
)
def test_a_possessive_repeats_the_wording_of_its_of_form(claim: str, chunk: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert (v.verdict, v.reason) == (
        "yes",
        "100% of the claim's weighted content words appear in the chunk at rank 1",
    )


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("Bike rental is $8 per hour.", "Bike rental costs $8 an hour at the kiosk."),
        ("The pool is cleaned every week by staff.", "Staff clean the pool once a week."),
    ],
)
def test_a_rate_word_before_a_period_is_per_to_the_wording_check(claim: str, chunk: str) -> None:
    assert verify([claim], [chunk]).verdicts[0].verdict == "yes"
    # the wording check is what let these through: with "per" kept apart they were unsure
    assert "word pairs" not in verify([claim], [chunk]).verdicts[0].reason


def test_a_possessive_does_not_excuse_words_from_other_sentences() -> None:
    chunk = (
        "Maria Lopez joined Brightline in 2019. Brightline is based in Ohio. "
        "Its CFO is Tom Reed, and Lopez runs sales."
    )
    v = verify(["Brightline's CFO is Maria Lopez."], [chunk]).verdicts[0]
    assert v.verdict == "unsure"
    assert "its content words stand in different sentences (1 of 3 links in one)" in v.reason
    # the wording check reads both forms; the claim's own form is the one it reports
    far = "Brightline sells bikes. Reports name a CFO. Maria Lopez writes for a weekly."
    v = verify(["Brightline's CFO is Maria Lopez."], [far]).verdicts[0]
    assert "only 1 of its 5 word pairs appear together in the context" in v.reason


# --------------------------------------------------------------------------- comparisons

COMPARE = OfflineJudge(choice=True)  # date order and grouped subjects are on by default
PLAIN = OfflineJudge(date_order=False, grouped_subjects=False)
CHOICE_ONLY = OfflineJudge(choice=True, swapped_names=False)  # the choice check alone
PEOPLE = [
    "Ines Varga (born 4 May 1971) is a Hungarian film editor.",
    "Tomas Reld (born 2 June 1908 in Riga) was a Latvian stage director.",
]
WHO_FIRST = "Who was born first, Ines Varga or Tomas Reld?"


def test_date_order_claim_with_the_wrong_order_is_no() -> None:
    out = verify(["Ines Varga was born first."], PEOPLE, WHO_FIRST, COMPARE)
    v = out.verdicts[0]
    assert v.verdict == "no"
    assert v.supporting_chunks == []
    assert v.reason.endswith("the context dates Ines Varga to 1971 and Tomas Reld to 1908")
    # the right order, and the same comparison written with "older than", stay yes
    assert (
        verify(["Tomas Reld was born first."], PEOPLE, WHO_FIRST, COMPARE).verdicts[0].verdict
        == "yes"
    )
    older = verify(["Tomas Reld is older than Ines Varga."], PEOPLE, None, COMPARE)
    assert older.verdicts[0].verdict != "no"
    younger = verify(["Tomas Reld is younger than Ines Varga."], PEOPLE, None, COMPARE)
    assert younger.verdicts[0].verdict == "no"
    # a bare name answering the question takes the question's wording
    bare = verify(["Ines Varga"], PEOPLE, WHO_FIRST, COMPARE)
    assert bare.verdicts[0].verdict == "no"
    assert verify(["Tomas Reld"], PEOPLE, WHO_FIRST, COMPARE).verdicts[0].verdict == "yes"


def test_date_order_needs_both_years_and_can_be_switched_off() -> None:
    undated = [PEOPLE[0], "Tomas Reld was a Latvian stage director."]
    assert (
        verify(["Ines Varga was born first."], undated, WHO_FIRST, COMPARE).verdicts[0].verdict
        != "no"
    )
    off = verify(["Ines Varga was born first."], PEOPLE, WHO_FIRST, PLAIN).verdicts[0]
    assert off.verdict != "no"


def test_grouped_subjects_must_each_carry_the_predicate() -> None:
    ctx = ["Lumen Harbor is a Canadian folk band. Kestrel Vale is an American folk band."]
    out = verify(
        ["Yes, both Lumen Harbor and Kestrel Vale are American folk bands."], ctx, judge=COMPARE
    )
    v = out.verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith("the context says 'American' of Kestrel Vale but not of Lumen Harbor")
    for ok in (
        "Both Lumen Harbor and Kestrel Vale are folk bands.",
        "Lumen Harbor and Kestrel Vale play folk music.",
    ):
        assert verify([ok], ctx, judge=COMPARE).verdicts[0].verdict == "yes", ok
    # switched off: the grouped claim passes on word overlap alone
    assert (
        verify(
            ["Yes, both Lumen Harbor and Kestrel Vale are American folk bands."], ctx, judge=PLAIN
        )
        .verdicts[0]
        .verdict
        == "yes"
    )


def test_choice_between_two_names_follows_the_context() -> None:
    ctx = ["Mira Post is a weekly paper from Ohio.", "Bay Review is owned by Time Inc."]
    for q in (
        "Which one is owned by Time Inc., Mira Post or Bay Review?",
        "Mira Post and Bay Review are papers, but which one is owned by Time Inc.?",
    ):
        wrong = verify(["Mira Post is owned by Time Inc."], ctx, q, CHOICE_ONLY).verdicts[0]
        assert wrong.verdict == "unsure", q
        assert wrong.reason.endswith(
            "the context says 'owned', 'Time', 'Inc' of Bay Review rather than of Mira Post"
        )
        # with the name-swap rule on (the default) the claim is unsure before this check
        wrong = verify(["Mira Post is owned by Time Inc."], ctx, q, COMPARE).verdicts[0]
        assert wrong.verdict == "unsure", q
        assert wrong.reason.endswith("names 'Bay Review' where the claim names 'Mira Post'")
        right = verify(["Bay Review is owned by Time Inc."], ctx, q, COMPARE).verdicts[0]
        assert right.verdict == "yes", q
    # no choice in the question: the check does not apply
    plain = verify(["Mira Post is owned by Time Inc."], ctx, "Who owns Mira Post?", COMPARE)
    assert "rather than" not in plain.verdicts[0].reason


def test_comparison_switches_enter_the_identity() -> None:
    assert COMPARE.identity()["rules"] == {"choice": True}
    assert PLAIN.identity()["rules"] == {"date_order": False, "grouped_subjects": False}


def test_hyphenated_names_are_checked_part_by_part() -> None:
    ctx = ["Nora Quill (born 1946) is an American poet from Ohio."]
    v = verify(["Nora Quill is an Irish-American poet."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "name Irish not found" in v.reason
    assert verify(["Nora Quill is an American poet."], ctx).verdicts[0].verdict == "yes"


def test_symbol_only_claim_is_found_verbatim() -> None:
    ctx = ["Cry Me a River is an R&B song from 2002."]
    v = verify(["R&B"], ["Other chunk.", *ctx]).verdicts[0]
    assert (v.verdict, v.supporting_chunks) == ("yes", [1])
    assert v.reason == "the claim appears verbatim in the chunk at rank 2"
    assert verify(["R&B"], ["A soul song."]).verdicts[0].verdict == "unsure"


def test_long_context_wording_asks_more_of_long_documents() -> None:
    key = "Every spring, the keeper of the old lighthouse painted the tower with bright red paint."
    filler = [
        f"Visitors on tour number {i} walked along the quiet harbour path." for i in range(1, 20)
    ]
    claim = "The lighthouse keeper painted the tower red each spring."
    long_doc = " ".join([key, *filler])  # 20 sentences
    short_doc = " ".join([key, *filler[:5]])  # 6 sentences
    strict = OfflineJudge()  # on by default
    lenient = OfflineJudge(long_context_wording=False)
    # 2 of the claim's 8 word pairs stand in one window: enough (25%) with the switch off ...
    assert verify([claim], [long_doc], judge=lenient).verdicts[0].verdict == "yes"
    # ... but a document of 20 or more sentences needs 35% with the switch on
    v = verify([claim], [long_doc], judge=strict).verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith(
        "only 2 of its 8 word pairs appear together in the context (35% in a long document "
        "needed: the claim's wording is not found in one place)"
    )
    # a short document keeps the usual minimum
    assert verify([claim], [short_doc], judge=strict).verdicts[0].verdict == "yes"
    assert lenient.identity()["rules"] == {"long_context_wording": False}
    assert "rules" not in strict.identity()


def test_subject_binding_needs_the_predicate_near_the_subject() -> None:
    chunk = (
        "Blue Harbor is a weekly food magazine founded in 1985. "
        "Red Falcon is a monthly car magazine about racing engines."
    )
    claim = "Red Falcon was founded in 1985."
    # the words are all there and mostly together: without the binding rule (and the
    # swapped-name check, which reads the same mistake), yes
    unbound = OfflineJudge(subject_window=0, swapped_names=False)
    assert verify([claim], [chunk], judge=unbound).verdicts[0].verdict == "yes"
    assert unbound.identity()["rules"] == {"subject_window": 0, "swapped_names": False}
    v = verify([claim], [chunk], judge=OfflineJudge(subject_window=0)).verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith(
        "the chunk at rank 1 names 'Blue Harbor' where the claim names 'Red Falcon'"
    )
    # shipped: the subject's sentence and the next one (the swapped-name check, on by
    # default, reads this claim first; off here to see the binding rule's own reason)
    bound = OfflineJudge(swapped_names=False)
    v = verify([claim], [chunk], judge=bound)
    assert v.verdicts[0].verdict == "unsure"
    assert v.verdicts[0].reason.endswith(
        "only 0% of what it says about its subject stands near the subject"
    )
    ok = "Red Falcon is a monthly car magazine."
    assert verify([ok], [chunk], judge=bound).verdicts[0].verdict == "yes"
    # the fact may follow in the next sentence
    nxt = "Red Falcon is a car magazine. It was founded in 1985 in Porto."
    assert verify([claim], [nxt], judge=bound).verdicts[0].verdict == "yes"
    # an ordinary first word is not a subject ("Bake" is never written as a name)
    recipe = "Mix the flour with water and salt. Bake the dough in a hot oven for 20 minutes."
    claim2 = "Bake the dough for 20 minutes."
    assert verify([claim2], [recipe], judge=bound).verdicts[0].verdict == "yes"
    assert bound.identity()["rules"] == {"swapped_names": False}


def test_name_units_count_a_long_name_once_in_the_links() -> None:
    chunk = (
        "Maria Elena Castillo Ruiz wrote novels in Cusco. Diego Vera won praise for his "
        "poems. The Gold Star Prize is given in Lima."
    )
    claim = "Maria Elena Castillo Ruiz won Gold Star Prize."
    # counted word by word, the links inside the two names hide the two broken ones
    # (subject binding, which would also catch this claim, is off here)
    judge = OfflineJudge(subject_window=0)
    assert verify([claim], [chunk], judge=judge).verdicts[0].verdict == "yes"
    v = verify([claim], [chunk], judge=OfflineJudge(name_units=True, subject_window=0))
    assert v.verdicts[0].verdict == "unsure"
    assert "(0 of 2 links in one)" in v.verdicts[0].reason


def test_claim_restating_the_question_is_judged_by_its_answer() -> None:
    ctx = [
        "The Harlow Line runs from Easton to Pell via the Corran tunnel. The Corran "
        "tunnel was the first tunnel in the valley built with a standard gauge track."
    ]
    q = "The Harlow Line runs from Easton to Pell via a tunnel built with what kind of track?"
    wrong = "The Harlow Line runs from Easton to Pell via a tunnel with a narrow gauge track."
    v = verify([wrong], ctx, q).verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith("only 50% of what it adds to the question is in the context")
    right = "The Harlow Line runs from Easton to Pell via a tunnel with a standard gauge track."
    assert verify([right], ctx, q).verdicts[0].verdict == "yes"
    # without the question (or with the rule off) the restated words carry the claim
    assert verify([wrong], ctx).verdicts[0].verdict == "yes"
    off = OfflineJudge(answer_part=False)
    assert verify([wrong], ctx, q, off).verdicts[0].verdict == "yes"
    assert off.identity()["rules"] == {"answer_part": False}


def test_short_form_of_a_name_counts_as_seen() -> None:
    ctx = ["Pamela Reyes (born 1962) is an American television writer."]
    v = verify(["The writer Pam Reyes is an American television writer."], ctx).verdicts[0]
    assert v.verdict == "yes"
    # another name, or a start shorter than three letters, is still unseen
    v = verify(["The writer Tom Reyes is an American television writer."], ctx).verdicts[0]
    assert (v.verdict, "name Tom not found" in v.reason) == ("unsure", True)
    v = verify(["The writer Pa Reyes is an American television writer."], ctx).verdicts[0]
    assert (v.verdict, "name Pa not found" in v.reason) == ("unsure", True)


def test_latin_accents_are_folded_but_other_scripts_kept() -> None:
    assert content_tokens("the Estadio Único café") == content_tokens("the Estadio Unico cafe")
    assert content_tokens("한국어 문장") == ["한국", "국어", "문장"]
    assert content_tokens("Пётр") != content_tokens("Петр")  # Cyrillic is left alone
    v = verify(
        ["The final was played at the Estadio Unico."],
        ["The final was played at the Estadio Único."],
    )
    assert v.verdicts[0].verdict == "yes"


def test_bare_yes_no_to_a_comparison_question_is_read_with_its_polarity() -> None:
    films = ["Lumo is a 2009 animated film. Dawn Tide is a 2009 Turkish film. Kora is a 2011 film."]
    same = "Were Lumo and Dawn Tide released in the same year?"
    yes = verify(["Yes."], films, same).verdicts[0]
    assert (yes.verdict, yes.supporting_chunks) == ("yes", [0])
    assert yes.reason.endswith("the context dates Lumo and Dawn Tide both to 2009")
    assert verify(["No."], films, same).verdicts[0].verdict == "no"
    differ = "Were Lumo and Kora released in the same year?"
    assert verify(["yes"], films, differ).verdicts[0].verdict == "no"
    assert verify(["no"], films, differ).verdicts[0].verdict == "yes"
    bands = ["Lumen Harbor is a Canadian folk band. Kestrel Vale is an American folk band."]
    both = "Are Lumen Harbor and Kestrel Vale both American folk bands?"
    v = verify(["Yes"], bands, both).verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith("the context says 'American' of Kestrel Vale but not of Lumen Harbor")
    assert verify(["No"], bands, both).verdicts[0].verdict == "yes"
    folk = "Are Lumen Harbor and Kestrel Vale both folk bands?"
    assert verify(["Yes"], bands, folk).verdicts[0].verdict == "yes"
    assert verify(["No"], bands, folk).verdicts[0].verdict == "no"
    # switched off, a bare answer is checked by the question's words only
    off = OfflineJudge(bare_answers=False)
    assert verify(["Yes"], bands, both, off).verdicts[0].verdict == "yes"
    assert off.identity()["rules"] == {"bare_answers": False}


def test_answer_word_opening_a_claim_is_not_part_of_the_fact() -> None:
    ctx = ["The mountain pass is closed in winter."]
    for claim in ("No, it is closed in winter.", "Yes, it is closed in winter."):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", claim
        assert attribute([claim], ctx).verdicts[0].verdict == "yes", claim
    # a negation inside the fact still counts
    v = verify(["No, the mountain pass is not closed in winter."], ctx).verdicts[0]
    assert (v.verdict, v.reason.endswith("negation in the claim only")) == ("no", True)


def test_a_hedge_opening_a_claim_is_not_a_negation_of_the_fact() -> None:
    # "not sure" / "not really" is about the speaker's certainty: it was read as
    # negating the fact ("no", negation in the claim only)
    ctx = ["Archaeologists have known about popcorn for thousands of years."]
    for claim in (
        "Not sure, but archaeologists have known about popcorn for thousands of years.",
        "I'm not sure but archaeologists have known about popcorn for thousands of years.",
        "Not really, archaeologists have known about popcorn for thousands of years.",
        "I don't know, but archaeologists have known about popcorn for thousands of years.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    # the fact after the hedge is still checked, negation included
    v = verify(
        ["Not sure, but archaeologists have not known about popcorn for thousands of years."], ctx
    )
    assert v.verdicts[0].verdict == "no"
    # a "not" that negates the fact itself is untouched
    v = verify(["Archaeologists have not known about popcorn for thousands of years."], ctx)
    assert v.verdicts[0].verdict == "no"


def test_an_apology_or_hedge_before_but_is_a_refusal_only_when_the_rest_is() -> None:
    # "Sorry, but <fact>" and "I don't know, but <fact>" state the fact: they were
    # dropped as refusals, so an answer made of them had no claims
    for sentence in (
        "Sorry, but the museum opened in 1998.",
        "I don't know, but the museum opened in 1998.",
        "I’m not sure, but the museum opened in 1998.",
        "I don't know, the museum opened in 1998.",
        "Not really.",  # an answer ("no"), not a refusal
    ):
        assert not is_refusal(sentence), sentence
    for sentence in (
        "Sorry, but I could not find that in the documents.",
        "I’m sorry, but I can’t answer that.",
        "I can't find that in the provided documents.",
        "I don't know.",
        "Sorry but",
    ):
        assert is_refusal(sentence), sentence
    assert extract("I don't know, but the museum opened in 1998.") == [
        "I don't know, but the museum opened in 1998."
    ]
    assert extract("Sorry, but I could not find that in the documents.") == []
    ctx = ["The museum opened in 1998."]
    v = verify(["I don't know, but the museum opened in 1998."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_bare_answers_read_the_question_polarity() -> None:
    ctx = ["The museum opened in 1998."]

    def one(answer: str, question: str) -> tuple[str, str]:
        v = verify([answer], ctx, question).verdicts[0]
        return v.verdict, v.reason

    # a "No." to a one-fact question the context states as asked denies it (was yes)
    verdict, reason = one("No.", "Did the museum open in 1998?")
    assert verdict == "no"
    assert reason.endswith("the context states what the question asks, unlike the answer")
    assert one("Yes.", "Did the museum open in 1998?")[0] == "yes"
    # the context gives another year: "No." agrees, "Yes." does not
    assert one("No.", "Did the museum open in 2001?")[0] == "yes"
    assert one("Yes.", "Did the museum open in 2001?")[0] == "no"
    # a yes or no answers no "when" question (both were yes)
    for answer in ("Yes.", "No."):
        verdict, reason = one(answer, "When did the museum open?")
        assert verdict == "unsure"
        assert reason == (
            f"a bare '{answer}' does not answer this question, which does not ask for yes or no"
        )
    # recall has no "unsure": the same answer is not attributed
    v = attribute(["Yes."], ctx, "When did the museum open?").verdicts[0]
    assert v.verdict == "no"
    # a question about two things: mentioning them does not answer it, so a "No." is
    # not contradicted by the words alone (unchanged)
    assert one("No.", "Did the museum and the park open in 1998?")[0] == "yes"


def test_not_until_states_when_and_a_spoken_year_is_a_year() -> None:
    ctx = ["The museum opened in 1998."]
    # "did not open until 1998" means it opened in 1998 (was a contradiction)
    assert has_negation("The museum didn't open until 1998.") == 0
    assert negation_targets("The museum did not open until 1998.") == frozenset()
    assert verify(["The museum didn't open until 1998."], ctx).verdicts[0].verdict == "yes"
    v = verify(["The museum never opened until 2001."], ctx).verdicts[0]
    assert v.verdict == "no" and "number 2001 not found" in v.reason
    # a plain negation still contradicts
    v = verify(["The museum did not open in 1998."], ctx).verdicts[0]
    assert v.verdict == "no" and v.reason.endswith("negation in the claim only")
    # "nineteen ninety-eight" was read as the numbers 19 and 98: a contradiction
    assert numbers("in nineteen ninety-eight") == {"1998"}
    assert numbers("twenty twenty-one") == {"2021"}
    assert numbers("twenty 25-year-olds") == {"20", "25"}
    v = verify(["The museum opened in nineteen ninety-eight."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_before_and_after_a_year() -> None:
    ctx = ["The museum opened in 1998. The cafe closed before 2001."]

    def one(claim: str) -> tuple[str, str]:
        v = verify([claim], ctx).verdicts[0]
        return v.verdict, v.reason

    # both were yes: every word of the claim is in the chunk
    verdict, reason = one("The museum opened before 1998.")
    assert verdict == "no"
    assert reason.endswith("the claim says 'before 1998' where the chunk says 'in 1998'")
    assert one("The museum opened after 1998.")[0] == "no"
    assert one("The cafe closed after 2001.")[1].endswith(
        "the claim says 'after 2001' where the chunk says 'before 2001'"
    )
    assert one("The cafe closed before 2001.")[0] == "yes"
    # a year in no chunk that the claim gets right (was "number 2005 not found": no)
    verdict, reason = one("The museum opened before 2005.")
    assert verdict == "yes"
    assert reason.endswith("the context dates it to 1998, before 2005")
    assert one("The museum opened after 1990.")[0] == "yes"
    verdict, reason = one("The museum opened after 2005.")
    assert verdict == "no" and "number 2005 not found" in reason


def test_chinese_numerals_are_numbers() -> None:
    # a wrong year in Chinese numerals scored 1.0 (the year was never read as a number)
    ctx = ["博物馆于1998年开放。"]
    v = verify(["博物馆于二零零五年开放。"], ctx).verdicts[0]
    assert v.verdict == "no" and "number 2005 not found" in v.reason
    assert verify(["博物馆于一九九八年开放。"], ctx).verdicts[0].verdict == "yes"
    assert numbers("门票一百二十元，共三万五千人，二〇〇五年") == {"120", "35000", "2005"}
    assert numbers("一个人十分好，万一下雨") == set()  # words, not numbers


def test_short_refusals_and_pleasantries_are_not_claims() -> None:
    for text in ("I'm not sure.", "Not sure.", "I have no idea.", "Unknown.", "N/A", "我不知道。"):
        assert is_refusal(text), text
        assert extract(text) == [], text
    for text in ("No idea is too small.", "The cause is unknown.", "None."):
        assert not is_refusal(text), text
    assert extract("Thanks for asking! The museum opened in 1998.") == [
        "The museum opened in 1998."
    ]


def test_an_answer_word_with_a_pro_form_is_a_bare_answer() -> None:
    ctx = ["The museum opened in 1998."]
    q = "Did the museum open in 1998?"
    # "Yes, it did." had no content word: unsure (while "Yes." was yes)
    assert verify(["Yes, it did."], ctx, q).verdicts[0].verdict == "yes"
    assert verify(["No, it didn't."], ctx, q).verdicts[0].verdict == "no"
    assert verify(["No, it did not."], ctx, "Did the museum open in 2001?").verdicts[0].verdict == (
        "yes"
    )
    # an apology before "but" is not part of the fact
    v = verify(["Sorry, but the museum opened in 1998."], ctx).verdicts[0]
    assert (v.verdict, v.reason) == (
        "yes",
        "100% of the claim's weighted content words appear in the chunk at rank 1; "
        "number 1998 found",
    )


def test_bare_answer_reason_says_the_question_was_checked() -> None:
    ctx = ["You need snow chains on the pass in winter."]
    v = verify(["Yes."], ctx, "Do I need snow chains on the pass in winter?").verdicts[0]
    assert v.verdict == "yes"
    assert v.reason.startswith("a bare answer, checked through its question: ")
    assert "first-person" not in v.reason


def test_a_comparison_the_dates_agree_with_is_supported() -> None:
    # "older" is in no chunk, but the years say it: yes for faithfulness and recall
    v = verify(["Tomas Reld is older than Ines Varga."], PEOPLE).verdicts[0]
    assert (v.verdict, v.supporting_chunks) == ("yes", [0, 1])
    assert v.reason.endswith(
        "; the context dates Tomas Reld to 1908 and Ines Varga to 1971, as the claim says"
    )
    assert v.reason.count(";") == 1
    assert attribute(["Tomas Reld is older than Ines Varga."], PEOPLE).verdicts[0].verdict == "yes"
    # other words of the claim must still be in the context
    extra = verify(["Tomas Reld, a Swedish painter, is older than Ines Varga."], PEOPLE)
    assert extra.verdicts[0].verdict == "unsure"
    assert (
        verify(["Tomas Reld is older than Ines Varga."], PEOPLE, judge=PLAIN).verdicts[0].verdict
        == "unsure"
    )


def test_grouped_claim_said_of_each_name_is_supported() -> None:
    ctx = [
        "Lumen Harbor is a Canadian folk band formed in 1968. It won many awards over five "
        "decades. Kestrel Vale is an American folk band formed in 1973."
    ]
    # "folk bands" repeats the context's "folk band": the wording is found as it is
    plain = verify(["Yes, both Lumen Harbor and Kestrel Vale are folk bands."], ctx).verdicts[0]
    assert plain.verdict == "yes" and ";" not in plain.reason
    # the same claim against other wording: upgraded because it is said of each name
    apart = [
        "Formed in 1968, Lumen Harbor counts as a Canadian band of folk singers. It won many "
        "awards over five decades. Formed in 1973, Kestrel Vale counts as an American band of "
        "folk singers."
    ]
    v = verify(["Yes, both Lumen Harbor and Kestrel Vale are folk bands."], apart).verdicts[0]
    assert v.verdict == "yes"
    assert v.reason.endswith(
        "the context says 'folk', 'bands' of both Lumen Harbor and Kestrel Vale"
    )
    # said of one only, or a relation between the two: not upgraded
    wrong = verify(["Yes, both Lumen Harbor and Kestrel Vale are Canadian folk bands."], ctx)
    assert wrong.verdicts[0].verdict == "unsure"
    same = verify(["Lumen Harbor and Kestrel Vale are in the same folk band."], ctx)
    assert "of both" not in same.verdicts[0].reason


def test_bare_answer_to_a_question_the_context_contradicts() -> None:
    ctx = ["The mountain pass is closed in winter."]
    q = "Is the mountain pass open in winter?"
    no = verify(["No."], ctx, q).verdicts[0]
    assert (no.verdict, no.supporting_chunks) == ("yes", [0])
    assert no.reason.endswith(
        "the context says the opposite of what the question asks, as the answer does"
    )
    yes = verify(["Yes."], ctx, q).verdicts[0]
    assert (yes.verdict, yes.reason.endswith("unlike the answer")) == ("no", True)
    museum = ["The museum does not open on Mondays."]
    assert verify(["No."], museum, "Does the museum open on Mondays?").verdicts[0].verdict == "yes"


def test_date_order_reads_the_birth_year_not_the_nearest_year() -> None:
    ctx = [
        "Born in Rohrau in 1732, Joseph Haydn died in Vienna in 1809.",
        "Born in Salzburg in 1756, Wolfgang Amadeus Mozart died in Vienna in 1791.",
    ]
    q = "Who was born first, Haydn or Mozart?"
    assert verify(["Mozart was born first."], ctx, q).verdicts[0].verdict == "no"
    assert verify(["Haydn was born first."], ctx, q).verdicts[0].verdict == "yes"
    # the verb in the next sentence, after a pronoun
    bach = [
        "Johann Sebastian Bach died in Leipzig in 1750. He was born in Eisenach in 1685.",
        "Joseph Haydn was born in Rohrau in 1732.",
    ]
    v = verify(["Haydn was born first."], bach, "Who was born first, Bach or Haydn?").verdicts[0]
    assert (v.verdict, v.reason.endswith("dates Haydn to 1732 and Bach to 1685")) == ("no", True)
    # a shared surname: each full name finds its own sentence
    sisters = [
        "Serena Williams (born September 26, 1981) is an American tennis player.",
        "Venus Williams (born June 17, 1980) is an American tennis player.",
    ]
    q2 = "Who is older, Serena Williams or Venus Williams?"
    assert verify(["Serena Williams was born first."], sisters, q2).verdicts[0].verdict == "no"
    # accents written or not; a lifespan in brackets; no guess from a bare year
    accents = ["Beyoncé Knowles was born in Houston in 1981.", "Shakira Mebarak was born in 1977."]
    q3 = "Who was born first, Beyonce or Shakira?"
    assert verify(["Beyonce was born first."], accents, q3).verdicts[0].verdict == "no"
    life = ["Ada Vell (3 May 1801 – 9 June 1870) was a poet.", "Bo Marr (1790 – 1850) was a poet."]
    assert (
        verify(["Ada Vell was born first."], life, "Who was born first, Ada Vell or Bo Marr?")
        .verdicts[0]
        .verdict
        == "no"
    )
    bare = ["Ada Vell was a poet who died in 1870.", "Bo Marr was a poet who died in 1850."]
    v = verify(["Ada Vell was born first."], bare, "Who was born first, Ada Vell or Bo Marr?")
    assert "dates" not in v.verdicts[0].reason


def test_names_at_the_start_and_short_forms_need_real_names() -> None:
    ctx = ["William Jefferson Clinton (born August 19, 1946) is an American politician."]
    v = verify(["Hillary Clinton was born on August 19, 1946."], ctx).verdicts[0]
    assert (v.verdict, "name Hillary not found" in v.reason) == ("unsure", True)
    market = ["Peter Hale opened the farmers market on Main Street in 1990."]
    v = verify(["In 1990, Mark Hale opened the farmers market on Main Street."], market).verdicts[0]
    assert (v.verdict, "name Mark not found" in v.reason) == ("unsure", True)
    assert (
        verify(["Peter Hale opened the farmers market on Main Street in 1990."], market)
        .verdicts[0]
        .verdict
        == "yes"
    )


def test_grouped_questions_and_both_as_a_pronoun() -> None:
    bands = [
        "Rush was a Canadian rock band formed in Toronto in 1968.",
        "Journey is an American rock band formed in San Francisco in 1973.",
    ]
    v = verify(["Yes."], bands, "Are both Rush and Journey American bands?").verdicts[0]
    assert (v.verdict, v.reason.endswith("says 'American' of Journey but not of Rush")) == (
        "unsure",
        True,
    )
    assert (
        verify(["Yes."], bands, "Are both Rush and Journey rock bands?").verdicts[0].verdict
        == "yes"
    )
    firms = [
        "Google was founded in September 1998 by Larry Page.",
        "Amazon was founded by Jeff Bezos in July 1994.",
    ]
    q = "Were Google and Amazon founded in the same year?"
    v = verify(["Yes, both were founded in 1998."], firms, q).verdicts[0]
    assert (v.verdict, v.reason.endswith("says '1998' of Google but not of Amazon")) == (
        "unsure",
        True,
    )
    ok = verify(["No, Google was founded in 1998 and Amazon in 1994."], firms, q).verdicts[0]
    assert ok.verdict == "yes"
    # a short claim survives a change of tense
    assert attribute(["No, Rush is Canadian."], bands).verdicts[0].verdict == "yes"


def test_letters_without_combining_accents_are_folded() -> None:
    assert content_tokens("Łódź, Poland") == content_tokens("Lodz, Poland")
    v = verify(["The factory is in Lodz, Poland."], ["The factory is in Łódź, Poland."])
    assert v.verdicts[0].verdict == "yes"


def test_structured_keys_clock_times_and_am_pm() -> None:
    record = [
        '{"name": "Harbor Grill", "attributes": {"RestaurantsTakeOut": "True", '
        '"WiFi": "free"}, "hours": {"Sunday": "16:0-21:0"}}'
    ]
    # a camelCase key also gives its joined neighbours ("TakeOut" -> takeout, "WiFi" -> wifi)
    assert {"takeout", "wifi"} <= set(content_tokens(record[0]))
    v = verify(["Harbor Grill offers takeout and free WiFi."], record).verdicts[0]
    assert (v.verdict, "name WiFi not found" in v.reason) == ("yes", False)
    # "4 PM" is a clock time like "16:0"; PM after a time is not a name
    assert content_tokens("from 4 PM to 9:00 pm") == ["16:00", "21:00"]
    v = verify(["On Sunday, Harbor Grill is open from 4 PM to 9 PM."], record).verdicts[0]
    assert (v.verdict, "name PM" in v.reason) == ("yes", False)


def test_offline_chunk_verdicts_do_not_depend_on_batching() -> None:
    # word weights are taken over the row's chunks, not over one call's batch
    import pandas as pd

    chunks = [
        "The Harbor Museum is a museum on Pier 4 in Porto.",
        "Porto is a city in Portugal with many museums.",
        "A museum café on Pier 4 serves soup.",
        "The Harbor Museum was founded by the port authority.",
    ]
    df = pd.DataFrame(
        {
            "question": ["When did the Harbor Museum open?"],
            "ground_truth": ["The Harbor Museum opened in 1998."],
            "contexts": [chunks],
        }
    )
    runs = [
        ragnotebook.context_precision(df, model="offline", max_chunks_per_call=k, progress=False)
        for k in (1, 2, 4)
    ]
    verdicts = [[v["verdict"] for v in r["context_precision_verdicts"].iloc[0]] for r in runs]
    # none of them says when it opened; weighed one chunk at a time, "Harbor Museum"
    # looked rare enough for two of them to pass
    assert verdicts == [["no"] * 4] * 3
    assert runs[0]["context_precision"].iloc[0] == runs[2]["context_precision"].iloc[0] == 0


def test_claim_naming_someone_else_in_the_matching_sentence_is_not_yes() -> None:
    chunks = [
        "Canberra is the capital of Australia. Parliament meets in Canberra.",
        "The largest city in Australia is Sydney.",
    ]
    # every word is somewhere in the context, but the sentence that says "the capital of
    # Australia" names Canberra where the claim names Sydney
    v = verify(["Sydney is the capital of Australia."], chunks)
    assert v.verdicts[0].verdict == "unsure"
    assert v.verdicts[0].reason == (
        "100% of the claim's weighted content words appear in the chunks at ranks 1 and 2; "
        "the chunk at rank 1 names 'Canberra' where the claim names 'Sydney'"
    )
    assert verify(["Canberra is the capital of Australia."], chunks).verdicts[0].verdict == "yes"
    # a multi-word name, next to the word after it
    chunk = "The ceremony was chaired by Isabelle Mergault. Jean Reno received the first award."
    v = verify(["The ceremony was chaired by Jean Reno."], [chunk])
    assert v.verdicts[0].verdict == "unsure"
    assert v.verdicts[0].reason.endswith(
        "names 'Isabelle Mergault' where the claim names 'Jean Reno'"
    )
    # the same name written short is no swap ("US" for "United States", "Apr" for "April")
    us = [
        "Cheerleading originated in the United States and is popular there.",
        "The US has many cheerleading teams.",
    ]
    v = verify(["Cheerleading originated in the US and is popular there."], us)
    assert v.verdicts[0].verdict == "yes"
    assert _abbreviates("US", "United States") and _abbreviates("USA", "United States")
    assert _abbreviates("Apr", "April") and not _abbreviates("Bay Review", "Mira Post")
    # a sentence holding the claim's name as well is no swap
    chunk = "Mary Shelley wrote the novel, and Percy Shelley wrote its preface."
    assert verify(["Percy Shelley wrote the preface."], [chunk]).verdicts[0].verdict == "yes"
    # the rule is a switch, on by default
    off = OfflineJudge(swapped_names=False)
    v = verify(["Sydney is the capital of Australia."], chunks, judge=off)
    assert v.verdicts[0].verdict == "yes"
    assert OfflineJudge().identity()["judge"] == "offline-v24"
    assert OfflineJudge(swapped_names=False).identity()["rules"] == {"swapped_names": False}


def test_bare_yes_to_a_comparison_question_is_not_a_name_swap() -> None:
    # the question "Are both X and Y ...?" is checked in place of "Yes.": two names with
    # the same words around them are what it asks about, not a swap
    chunks = [
        "Upper Crust Pizzeria is a restaurant chain in Boston.",
        "Eatza Pizza was a buffet restaurant chain.",
    ]
    q = "Are both Upper Crust Pizzeria and Eatza Pizza restaurants?"
    v = verify(["Yes."], chunks, question=q)
    assert (v.verdicts[0].verdict, v.verdicts[0].reason) == (
        "yes",
        "a bare answer, checked through its question: 100% of the claim's weighted content "
        "words appear in the chunks at ranks 1 and 2; the context says 'restaurants' of both "
        "Upper Crust Pizzeria and Eatza Pizza",
    )


def test_amount_in_another_unit_is_a_contradiction() -> None:
    fee = ["The annual membership fee is $120."]
    v = verify(["The fee is €120 a year."], fee).verdicts[0]
    assert (v.verdict, v.reason.endswith("the claim says '€' where the chunk says '$'")) == (
        "no",
        True,
    )
    v = verify(["The dose is 500 g."], ["The dose is 500 mg."]).verdicts[0]
    assert (v.verdict, v.reason.endswith("the claim says 'g' where the chunk says 'mg'")) == (
        "no",
        True,
    )
    assert verify(["The trail is 5 miles long."], ["The trail is 5 km long."]).verdicts[
        0
    ].verdict == ("no")
    assert verify(["The dose is 500 mg."], ["The dose is 500 mg."]).verdicts[0].verdict == "yes"
    # before / after is an opposite pair
    v = verify(
        ["Forms must be submitted after the deadline."],
        ["Forms must be submitted before the deadline."],
    )
    assert v.verdicts[0].verdict == "no"
    # with a year the date rule says which year
    v = verify(["The bridge opened after 2001."], ["The bridge opened before 2001."])
    assert v.verdicts[0].reason.endswith("'after 2001' where the chunk says 'before 2001'")


def test_swapped_name_in_another_word_order_or_chunk() -> None:
    capital = [
        "Canberra is the capital of Australia. Parliament meets in Canberra.",
        "The largest city in Australia is Sydney.",
    ]
    # the sentence matches all the rest and has one name the claim does not use
    v = verify(["The capital of Australia is Sydney."], capital).verdicts[0]
    assert v.verdict == "unsure"
    assert v.reason.endswith("names 'Canberra' where the claim names 'Sydney'")
    v = verify(["Canberra is the largest city in Australia."], capital).verdicts[0]
    assert v.reason.endswith("names 'Sydney' where the claim names 'Canberra'")
    # a name seen only opening sentences counts when the other one is a name for sure
    alone = ["Canberra is the capital of Australia.", "The largest city in Australia is Sydney."]
    v = verify(["Sydney is the capital of Australia."], alone).verdicts[0]
    assert v.reason.endswith("names 'Canberra' where the claim names 'Sydney'")
    ceo = ["Tim Cook is the CEO of Apple.", "Satya Nadella is the CEO of Microsoft."]
    v = verify(["Satya Nadella is the CEO of Apple."], ceo).verdicts[0]
    assert v.reason.endswith("names 'Tim Cook' where the claim names 'Satya Nadella'")
    assert verify(["Tim Cook is the CEO of Apple."], ceo).verdicts[0].verdict == "yes"
    # two words that only open sentences are no evidence: instructions start with verbs
    steps = ["Submerge the sausages in the beer. Remove them after ten minutes."]
    assert verify(["Combine the sausages in the beer."], steps).verdicts[0].reason.find(
        "names"
    ) == (-1)
    # a label written in capitals is not a name
    menu = ["From the menu, choose RECOVERY MODE using the volume buttons."]
    v = verify(["From the menu, choose Factory Reset using the volume buttons."], menu)
    assert "names 'RECOVERY MODE'" not in v.verdicts[0].reason
    # grouped names and a place name after a comma are left alone
    paris = ["The Eiffel Tower stands in Paris, the capital of France."]
    assert verify(["The Eiffel Tower is in Paris, France."], paris).verdicts[0].verdict == "yes"


def test_periods_written_with_a_slash_a_count_or_per_night() -> None:
    v = verify(["The storage add-on costs ¥500 a year."], ["The storage add-on costs ¥500/month."])
    assert v.verdicts[0].verdict == "no"
    assert v.verdicts[0].reason.endswith("the claim says 'a year' where the chunk says '/month'")
    assert verify(["It costs ¥500 per month."], ["It costs ¥500/month."]).verdicts[0].verdict == (
        "yes"
    )
    # every two weeks is not every week; a night is not a day
    v = verify(["The service costs $40 per week."], ["The service costs $40 every two weeks."])
    assert v.verdicts[0].reason.endswith(
        "the claim says 'per week' where the chunk says 'every two weeks'"
    )
    v = verify(["A double room is €95 per day."], ["A double room is €95 per night."])
    assert v.verdicts[0].verdict == "no"
    v = verify(["Take one tablet hourly."], ["Take one tablet every 8 hours."])
    assert v.verdicts[0].verdict == "no"


def test_initials_of_a_name_the_context_writes_in_full() -> None:
    chunk = ["The company has offices in the United States and Canada."]
    assert verify(["The company has offices in the US and Canada."], chunk).verdicts[0].verdict == (
        "yes"
    )
    uk = ["Shipping to the United Kingdom takes 3 to 5 business days."]
    assert verify(["Shipping to the UK takes 3 to 5 business days."], uk).verdicts[0].verdict == (
        "yes"
    )
    # initials of nothing in the context stay a name not found
    v = verify(["Shipping to the EU takes 3 to 5 business days."], uk).verdicts[0]
    assert v.reason.endswith("name EU not found")


def test_swapped_name_opening_the_sentence() -> None:
    # a capitalised first word the context never writes in lowercase, followed by a verb
    v = verify(["Samsung makes the Pixel phone."], ["Google makes the Pixel phone."])
    assert v.verdicts[0].verdict == "unsure"
    assert v.verdicts[0].reason.endswith(
        "the chunk at rank 1 names 'Google' where the claim names 'Samsung'"
    )
    two = ["Anthropic released Claude 3 in March 2024.", "OpenAI released GPT-4 in March 2023."]
    v = verify(["OpenAI released Claude 3 in March 2024."], two).verdicts[0]
    # the reason names the chunk that says it of another name
    assert v.reason.endswith("the chunk at rank 1 names 'Anthropic' where the claim names 'OpenAI'")
    v = verify(["OpenAI released Claude 3 in March 2024."], two[::-1]).verdicts[0]
    assert v.reason.endswith("the chunk at rank 2 names 'Anthropic' where the claim names 'OpenAI'")
    # an instruction's verb (followed by an article) or an opening adverb (followed by a
    # comma) is no name
    steps = ["Submerge the sausages in the beer. Remove them after ten minutes."]
    v = verify(["Combine the sausages in the beer."], steps).verdicts[0]
    assert "names" not in v.reason
    fold = ["Making the fold: fold the corner down toward the center."]
    v = verify(["Finally, fold the corner down toward the center."], fold).verdicts[0]
    assert v.verdict == "yes"


def test_amount_bound_to_another_period_is_a_contradiction() -> None:
    from ragnotebook.text import rate_amounts

    plans = ["The subscription is $10 per month or $100 per year."]
    assert rate_amounts(plans[0]) == {("10", 4): "10 per month", ("100", 6): "100 per year"}
    assert rate_amounts("The depot ships 40 pallets a day from Dock B.") == {
        ("40", 1): "40 pallets a day"
    }
    # a number in another sentence is not bound to the period
    assert rate_amounts("The fee is $120. It is paid once a year.") == {}
    v = verify(["The subscription is $10 per year."], plans).verdicts[0]
    assert (
        v.verdict,
        v.reason.endswith("the claim says '10 per year' where the chunk says '10 per month'"),
    ) == ("no", True)
    assert verify(["The subscription is $100 per year."], plans).verdicts[0].verdict == "yes"
    assert verify(["The subscription is $10 per month."], plans).verdicts[0].verdict == "yes"


def test_doses_and_billing_periods() -> None:
    # an amount and the period after a comma are not bound ("$12 per month, billed
    # annually"): $12 goes with the month
    plan = ["The Pro plan costs $12 per month, billed annually at $144."]
    v = verify(["The Pro plan costs $12 per year."], plan).verdicts[0]
    assert v.reason.endswith("the claim says '12 per year' where the chunk says '12 per month'")
    assert verify(["The Pro plan costs $12 per month."], plan).verdicts[0].verdict == "yes"
    # micrograms, a dose per kilogram of body weight, and per dose against per day
    v = verify(["Take 250 mg of vitamin B12 daily."], ["Take 250 mcg of vitamin B12 daily."])
    assert v.verdicts[0].reason.endswith("the claim says 'mg' where the chunk says 'mcg'")
    v = verify(["Children get 10 mg of ibuprofen."], ["Children get 10 mg/kg of ibuprofen."])
    assert v.verdicts[0].reason.endswith("the claim says 'mg' where the chunk says 'mg/kg'")
    v = verify(["The maximum dose is 4 g per dose."], ["The maximum dose is 4 g per day."])
    assert v.verdicts[0].verdict == "no"
    both = ["Take 1 g per dose, up to 4 g daily."]
    assert verify(["Take 1 g per dose, up to 4 g daily."], both).verdicts[0].verdict == "yes"


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict"),
    [
        ("Beta Corp acquired Acme in 2020.", "Acme acquired Beta Corp in 2020.", "unsure"),
        ("Acme was acquired by Beta Corp in 2020.", "Acme acquired Beta Corp in 2020.", "unsure"),
        ("Bob sent the report to Alice.", "Alice sent the report to Bob.", "unsure"),
        (
            "Bob Jones replaced Alice Smith as CEO.",
            "Alice Smith replaced Bob Jones as CEO.",
            "unsure",
        ),
        # a passive on either side says the same thing
        ("Beta Corp was acquired by Acme in 2020.", "Acme acquired Beta Corp in 2020.", "yes"),
        ("Acme acquired Beta Corp in 2020.", "Beta Corp was acquired by Acme in 2020.", "yes"),
        # verbs whose sides trade places, pairs, places and asides are no roles
        ("Alice married Bob in 1990.", "Bob married Alice in 1990.", "yes"),
        ("Acme partnered with Beta Corp.", "Beta Corp partnered with Acme.", "yes"),
        ("Oracle bought Cerner.", "Oracle bought Cerner. Cerner had bought Kestrel.", "yes"),
        (
            "Gary Locke, the manager of Kilmarnock, signed a deal.",
            "Kilmarnock said Gary Locke, the manager, signed a deal.",
            "yes",
        ),
    ],
)
def test_two_names_the_other_way_round(claim: str, chunk: str, verdict: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason
    if verdict == "unsure":
        assert v.reason.endswith("the other way round")
    judge = OfflineJudge(swapped_names=False)  # the switch turns this check off too
    assert verify([claim], [chunk], judge=judge).verdicts[0].verdict == "yes"


def test_two_names_the_other_way_round_reason() -> None:
    v = verify(["Beta Corp acquired Acme."], ["Parking is free.", "Acme acquired Beta Corp."])
    assert v.verdicts[0].reason == (
        "100% of the claim's weighted content words appear in the chunk at rank 2; "
        "the chunk at rank 2 has 'Beta Corp' and 'Acme' the other way round"
    )


def test_name_after_a_title_is_a_name() -> None:
    # "Dr." does not end a sentence: "Nguyen" and "Smith" are names, checked as names
    wards = [
        "Dr. Patel leads cardiology at St. Mary's.",
        "Dr. Nguyen leads oncology at St. Mary's.",
    ]
    v = verify(["Dr. Nguyen leads cardiology at St. Mary's."], wards).verdicts[0]
    assert v.reason.endswith("the chunk at rank 1 names 'Patel' where the claim names 'Nguyen'")
    assert verify(["Dr. Patel leads cardiology at St. Mary's."], wards).verdicts[0].verdict == (
        "yes"
    )
    v = verify(
        ["Dr. Smith said the clinic opens in May."], ["Dr. Patel said the clinic opens in May."]
    )
    assert v.verdicts[0].reason.endswith("name Smith not found")


_SEEDED_RUN = """
import json
from ragnotebook.judges.offline import OfflineJudge
from ragnotebook.tasks import Item, Task
from ragnotebook.text import opposite_cues
j = OfflineJudge()
out = [sorted(opposite_cues("木の後ろに設置されている、黄色と青の消火栓があります。", "ja").values())]
for claim, chunk in [
    ("木の後ろに設置されている消火栓があります。", "木の前に設置されている消火栓があります。"),
    ("Mike Forney scored for the Giants, making it 2-1.",
     "The Giants scored first. Mike Forney's goal made it 2-1 with Andy Bohmback equalising."),
]:
    t = Task("verify_claims", "faithfulness", items=(Item(0, claim),), chunks=(chunk,))
    out.append([(v.verdict, v.reason) for v in j.complete(t).verdicts])
ref = "Acme was founded in 2001 in Oslo and is headquartered in Bergen since 2010."
t = Task("judge_chunks", "context_precision", question="Tell me about Acme.", text=ref,
         items=(Item(0, "Acme was founded in 2001 in Oslo."), Item(1, "Acme is headquartered in Bergen.")))
out.append([(v.verdict, v.reason) for v in j.complete(t).verdicts])
print(json.dumps(out, ensure_ascii=False))
"""


def test_verdicts_and_reasons_do_not_depend_on_the_hash_seed() -> None:
    # sets of words are walked in an order that changes with PYTHONHASHSEED: sums of
    # weights are exact (weights on a 2**-24 grid) and the Japanese opposite forms are
    # tried in a fixed order, so every process gives the same reasons
    import json
    import os
    import subprocess
    import sys

    runs = []
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        done = subprocess.run(
            [sys.executable, "-c", _SEEDED_RUN], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout)
    assert len(set(runs)) == 1
    cues, japanese, swap, chunks = json.loads(runs[0])
    assert cues == ["の後"]  # of "後ろ" and "の後" (both there): longest, then sort order
    assert (
        japanese[0][0] == "no"
        and "the claim says 'の後' where the chunk says 'の前'" in japanese[0][1]
    )
    assert chunks[0][0] == "yes" and "100% of a clause of the reference's" in chunks[0][1]
    assert swap[0][0] == "unsure"


def test_weights_are_on_a_grid_so_sums_are_exact() -> None:
    from ragnotebook.judges.offline import _GRID, _analyse, _Weights

    docs = [_analyse(t, "en") for t in ("The depot ships pallets.", "Dock B is closed.", "x")]
    w = _Weights(docs)
    values = [w(t) for t in ("depot", "dock", "closed", "unseen")]
    assert all((v * _GRID).is_integer() for v in values)
    assert sum(values) == sum(reversed(values)) == sum(sorted(values))


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict", "why"),
    [
        (
            "The warranty lasts 3 years.",
            "The warranty lasts 36 months from the date of purchase.",
            "yes",
            "3 years is 36 months",
        ),
        (
            "The warranty lasts 36 months.",
            "The warranty lasts 3 years.",
            "yes",
            "36 months is 3 years",
        ),
        (
            "The course takes two weeks.",
            "The course takes 14 days to complete.",
            "yes",
            "two weeks is 14 days",
        ),
        (
            "The meeting lasts 90 minutes.",
            "The meeting lasts 1.5 hours.",
            "yes",
            "90 minutes is 1.5 hours",
        ),
        (
            "The warranty lasts one year.",
            "The warranty lasts 12 months.",
            "yes",
            "one year is 12 months",
        ),
        # another length is still a conflict
        (
            "The warranty lasts 2 years.",
            "The warranty lasts 36 months.",
            "no",
            "the claim says '2 years' where the chunk says '36 months'",
        ),
        # the same length must stand in the sentence that says the rest of the claim
        (
            "The warranty lasts 36 months.",
            "The company is 3 years old. The warranty lasts 12 months.",
            "no",
            "number 36 not found",
        ),
        # days and months are not compared (a month is no whole number of days)
        ("The trial lasted 30 days.", "The trial lasted one month.", "no", "'30 days'"),
    ],
)
def test_a_duration_in_another_unit_is_the_same_duration(claim, chunk, verdict, why) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason
    assert why in v.reason


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict"),
    [
        # the reader a claim addresses is not what the claim is about: the negation check
        # compares the rest (before: `yes` at 62%, "you" weighing as a missing word)
        (
            "You can take this medicine with alcohol.",
            "Do not take this medicine with alcohol.",
            "no",
        ),
        (
            "You must not drive after taking this medicine.",
            "Do not drive after taking this medicine.",
            "yes",
        ),
        ("You should take this medicine with food.", "Take this medicine with food.", "yes"),
    ],
)
def test_the_reader_addressed_is_left_out_of_the_negation_check(claim, chunk, verdict) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason
    if verdict == "no":
        assert "negation in the chunk only" in v.reason


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        (
            "The product is waterproof.",
            "The product is water-resistant but not waterproof.",
            "negation in the chunk only",
        ),
        (
            "Tickets can be exchanged.",
            "Tickets are non-refundable and cannot be exchanged.",
            "negation in the chunk only",
        ),
        (
            "The loan has a fixed interest rate.",
            "The loan has a variable interest rate.",
            "'fixed' where the chunk says 'variable'",
        ),
    ],
)
def test_short_english_claims_and_new_pairs_are_contradicted(claim, chunk, said) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert said in v.reason


def test_a_short_cjk_answer_is_not_contradicted_by_a_negation_near_it() -> None:
    # two character pairs: the negation check asks three in Chinese, Japanese and Korean
    # ("熱中症": 熱中, 中症; the sentence's ない is "must", not a denial of it)
    v = attribute(["熱中症"], ["暑い日は熱中症に注意しなければならない。"])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        (
            "The API rate limit is 100 requests per minute.",
            "The API rate limit is 100 requests per hour.",
            "'per minute' where the chunk says 'per hour'",
        ),
        (
            "The feature was removed in version 3.0.",
            "The feature was added in version 3.0.",
            "'removed' where the chunk says 'added'",
        ),
        (
            "The discount applies to new customers.",
            "The discount applies to existing customers only.",
            "'new' where the chunk says 'existing'",
        ),
    ],
)
def test_minutes_added_and_new_have_opposites(claim, chunk, said) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert said in v.reason


def test_a_minute_is_a_rate_and_a_second_half_is_not() -> None:
    p = period_group("en")
    assert opposite_cues("100 requests a minute, 5/sec") == {
        (p, PERIODS.index("minute")): "a minute",
        (p, PERIODS.index("second")): "/sec",
    }
    assert opposite_cues("He scored 2 goals in a second half.") == {}
    v = verify(
        ["The API allows 100 requests a minute."], ["The API allows 100 requests per minute."]
    )
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_a_share_just_below_the_bar_is_not_shown_as_the_bar() -> None:
    from ragnotebook.judges.offline import _annotated

    base = "55% of the claim's weighted content words appear in the chunk at rank 1"
    shown = _annotated(base, "unsure", 0.5496, 0.55, "en", False)
    assert shown.startswith("54.9% of the claim's weighted content words appear in the chunk")
    assert shown.endswith("(55% needed)")
    low = _annotated(base.replace("55%", "40%"), "unsure", 0.40, 0.55, "en", False)
    assert low.startswith("40% of the claim's") and low.endswith("(55% needed)")
    assert _annotated(base, "yes", 0.55, 0.55, "en", False) == base


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict"),
    [
        # a negation before "more than" / "exceed" and an amount is a bound ("at most"),
        # not a denial of the fact (a fresh user's dose answers were `no`)
        (
            "Take no more than 6 tablets in 24 hours.",
            "Do not take more than 6 tablets in 24 hours.",
            "yes",
        ),
        (
            "Take at most 6 tablets in 24 hours.",
            "Do not take more than 6 tablets in 24 hours.",
            "yes",
        ),
        ("Don't use more than 2 sachets a day.", "Use up to 2 sachets a day.", "yes"),
        (
            "Take at least 6 tablets in 24 hours.",
            "Do not take more than 6 tablets in 24 hours.",
            "no",
        ),
        # without an amount it stays a negation
        ("You can exceed the recommended dose.", "Do not exceed the recommended dose.", "no"),
    ],
)
def test_a_negated_more_than_is_a_bound(claim, chunk, verdict) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason
    assert has_negation("Do not take more than 6 tablets.") == 0
    assert has_negation("Do not exceed the dose.") == 1


def test_reasons_name_days_and_months_and_the_numbers_of_the_matching_sentence() -> None:
    v = verify(["The store is open on Saturdays."], ["The store is open Monday to Friday."])
    assert "day Saturdays not found" in v.verdicts[0].reason
    v = verify(["The offer ends in March."], ["The offer ends in January."])
    assert "month March not found" in v.verdicts[0].reason
    chunk = (
        "Each tablet contains 200 mg. Do not take more than 6 tablets in 24 hours. "
        "Keep 1 or 2 packs at home."
    )
    v = verify(["Take up to 8 tablets a day."], [chunk])
    assert "number 8 not found (the chunk has 6, 24, 1, 2)" in v.verdicts[0].reason
    v = verify(
        ["Students do not pay a fee until they turn 26."], ["Students pay no fee until age 26."]
    )
    assert "(25% needed: the claim's wording is not found in one place)" in v.verdicts[0].reason


def test_opposite_words_are_read_clause_by_clause_across_a_contrast() -> None:
    chunk = "The basic tier is free, but the premium tier is paid."
    v = verify(["The premium tier is free."], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert "the claim says 'free' where the chunk says 'paid'" in v.reason
    assert verify(["The basic tier is free."], [chunk]).verdicts[0].verdict == "yes"
    v = verify(
        ["The east wing opens daily."], ["The west wing opens daily; the east wing opens weekly."]
    )
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict"),
    [
        (
            "Pets are allowed in the rooms.",
            "Pets are not allowed in the lobby, but they are allowed in the rooms.",
            "yes",
        ),
        (
            "Pets are allowed in the lobby.",
            "Pets are not allowed in the lobby, but they are allowed in the rooms.",
            "no",
        ),
        # an elliptical later clause takes the first clause's subject and verb
        (
            "Pets are allowed in the rooms.",
            "Pets are allowed in the lobby, but not in the rooms.",
            "no",
        ),
        (
            "Pets are allowed in the lobby.",
            "Pets are allowed in the lobby, but not in the rooms.",
            "yes",
        ),
    ],
)
def test_the_negation_check_reads_contrast_clauses_of_mixed_polarity(claim, chunk, verdict) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason


def test_a_semicolon_in_brackets_is_no_contrast() -> None:
    from ragnotebook.judges.offline import _CONTRAST

    text = "Albert Brooks (born Albert Einstein; July 22, 1947) is an actor; he lives in LA."
    assert _CONTRAST.split(text) == [
        "Albert Brooks (born Albert Einstein; July 22, 1947) is an actor",
        "he lives in LA.",
    ]


def test_a_long_negated_bound_and_units_in_reasons() -> None:
    # up to five words between the cue and "more than": still a bound, not a denial
    chunk = "Do not use the nasal spray for more than 7 days in a row."
    assert attribute(["Not for more than 7 days in a row."], [chunk]).verdicts[0].verdict == "yes"
    v = verify(["Use the spray for more than 7 days in a row."], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    v = verify(["The plan includes 20 GB of data."], ["The plan includes 20 MB of data."])
    assert "unit GB not found" in v.verdicts[0].reason


def test_free_against_an_amount_paid_is_a_conflict() -> None:
    p = period_group("en")
    assert opposite_cues("Express shipping costs $12.")[(p + 9, 1)] == "costs $12"
    assert opposite_cues("It is free of charge.")[(p + 9, 0)] == "free of charge"
    chunk = "Standard shipping is free, but express shipping costs $12."
    v = verify(["Express shipping is also free."], [chunk]).verdicts[0]
    assert v.verdict == "no" and "'free' where the chunk says 'costs $12'" in v.reason
    assert verify(["Standard shipping is free."], [chunk]).verdicts[0].verdict == "yes"
    v = verify(["Instant transfers are free of charge."], ["Instant transfers cost €0.50."])
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason
    v = verify(["Express shipping costs nothing."], ["Express shipping costs $12."])
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason


def test_doubled_final_consonant_is_written_once() -> None:
    # British and American spellings, and "-ing"/"-ed" forms that double their consonant
    assert stem("cancelled") == stem("canceled") == stem("cancel")
    assert stem("running") == stem("run") and stem("stopped") == stem("stop")
    assert stem("called") == stem("call") and stem("class") == "class"
    v = verify(["The flight was canceled."], ["The airline cancelled the flight for fog."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    v = verify(["The shop stopped selling bread."], ["The shop will stop selling bread."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_word_pairs_read_forms_of_be_as_one_word() -> None:
    ctx = ["The Basic tier is free. The Plus tier is also free for students."]
    v = verify(["Both tiers are free."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # the pairs still need the claim's words side by side somewhere
    v = verify(["Both tiers are free."], ["Free parking is on the tier below."]).verdicts[0]
    assert v.verdict == "unsure" and "in one place" in v.reason


def test_contrast_clause_after_a_closing_quote() -> None:
    # ', "committed by somebody he knew," but said his client did not commit the crime':
    # the negation belongs to the clause after "but", not to the claim's clause
    ctx = [
        'His lawyer said Mr Reld "witnessed" the theft, "committed by somebody he knew," '
        "but said his client did not commit the crime."
    ]
    claim = "His lawyer said Mr Reld witnessed the theft, committed by somebody he knew."
    v = verify([claim], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["Mr Reld committed the crime."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason


def test_all_against_some_is_a_conflict_one_way() -> None:
    v = verify(["All rooms have a balcony."], ["Some rooms have a balcony."]).verdicts[0]
    assert v.verdict == "no" and "says 'all' where the chunk says 'some'" in v.reason
    # "some" is true when all of them are
    v = verify(["Some rooms have a balcony."], ["All rooms have a balcony."]).verdicts[0]
    assert v.verdict == "yes", v.reason
    ctx = ["Some rooms have a balcony, and all rooms have a safe."]
    assert verify(["All rooms have a safe."], ctx).verdicts[0].verdict == "yes"


def test_every_and_each_before_a_noun_are_all_and_before_a_period_a_rate() -> None:
    v = verify(["Each room has a balcony."], ["Some rooms have a balcony."]).verdicts[0]
    assert v.verdict == "no" and "says 'each' where the chunk says 'some'" in v.reason
    v = verify(["Every store has a pharmacy."], ["Some stores have a pharmacy."]).verdicts[0]
    assert v.verdict == "no" and "says 'every' where the chunk says 'some'" in v.reason
    # "some" is true when each of them is
    ctx = ["Each of the rooms has a balcony."]
    assert verify(["Some rooms have a balcony."], ctx).verdicts[0].verdict == "yes"
    # before a period, a count or a weekday "every" is a rate, not "all"
    all_pair = next(k for k, w in opposite_cues("All rooms.").items() if w == "all")
    for rate in (
        "Take it every day.",
        "Each year rents go up.",
        "Every two weeks.",
        "Every other day.",
        "Every Monday.",
        "every 8 hours",
    ):
        assert all_pair not in opposite_cues(rate), rate
    assert opposite_cues("Each of our stores opens late.")[all_pair] == "each"
    v = verify(["The bus runs every day."], ["Some buses run every day."]).verdicts[0]
    assert v.verdict == "yes", v.reason
    # "most" is the "some" side: "all" against it is a conflict, "most" against "all" implied
    v = verify(["All stores open on Sundays."], ["Most stores open on Sundays."]).verdicts[0]
    assert v.verdict == "no" and "says 'all' where the chunk says 'most'" in v.reason
    ctx = ["All stores open on Sundays."]
    assert verify(["Most stores open on Sundays."], ctx).verdicts[0].verdict == "yes"
    some_side = (all_pair[0], 1)
    assert opposite_cues("Most of the rooms are quiet.")[some_side] == "most"
    for superlative in (
        "It is the most popular dish.",
        "Most famous chefs cook.",
        "It is most common in winter.",
        "a most serious case",
    ):
        assert some_side not in opposite_cues(superlative), superlative


def test_a_us_state_and_its_postal_code_are_one_name() -> None:
    from ragnotebook.text import expand_state_codes

    record = (
        '{"name": "Harbor Diner", "address": "12 Oak St", "city": "Santa Barbara", '
        '"state": "CA", "categories": "Diner, Breakfast"}'
    )
    v = verify(["Harbor Diner is a diner in Santa Barbara, California."], [record]).verdicts[0]
    assert v.verdict == "yes" and "not found" not in v.reason, v.reason
    v = verify(["Harbor Diner is a diner in Santa Barbara, Nevada."], [record]).verdicts[0]
    assert v.verdict == "unsure" and "name Nevada not found" in v.reason
    # the code counts as the name's words too (support, word pairs), either way round
    ctx = ["Harbor Clinic, 12 Main St, Goleta, CA 93117"]
    v = verify(["The Harbor Clinic is in Goleta, California."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    ctx = ["The shop is at 5 State St, Albany, New York, near the capitol."]
    assert verify(["The shop is in Albany, NY."], ctx).verdicts[0].verdict == "yes"
    ctx = ["The shop is at 5 State St, Albany, NY 12207."]
    assert verify(["The shop is in Albany, New York."], ctx).verdicts[0].verdict == "yes"
    # only where an address writes a code: keyed, before a ZIP, or after "City, " when the
    # code is no English word ("OR", "OK", "IN", "ME" need the key or the ZIP)
    assert expand_state_codes("Salem, OR 97301") == "Salem, Oregon 97301"
    assert expand_state_codes("state: WA\ncity: Tacoma") == "state: Washington\ncity: Tacoma"
    for text in (
        "Stay OR go.",
        "Sure, OK.",
        "Portland, OR.",
        "It is IN stock.",
        "NY is big.",
        "The CFO, Ana Ruiz, CA, lives in Ottawa.",
        "Ana Ruiz, CA (chartered accountant)",
        "Washington, DC 20560",
        "John Smith, MD.",
    ):
        assert expand_state_codes(text) == text
    assert expand_state_codes("Reno, NV.") == "Reno, Nevada."
    assert expand_state_codes("Tacoma, WA.", keep_code=True) == "Tacoma, Washington (WA)."
    # a credential after a person's name is no state (a fresh user's case: this was `yes`)
    v = verify(["The CFO lives in California."], ["The CFO, Ana Ruiz, CA, lives in Ottawa."])
    assert v.verdicts[0].verdict == "unsure", v.verdicts[0].reason
    ctx = ["The plant is located in Washington, DC."]
    assert verify(["The plant is in Washington, D.C."], ctx).verdicts[0].verdict == "yes"
    # a claim that writes the code where no address rule applies still finds a record's
    ctx = ['{"name": "Finch & Fork", "city": "Santa Barbara", "state": "CA"}']
    v = verify(["Finch & Fork is in Santa Barbara, CA, and serves brunch."], ctx).verdicts[0]
    assert "not found" not in v.reason, v.reason
    v = verify(["The firm moved to Oregon in 2010."], ["The firm moved OR expanded in 2010."])
    assert "name Oregon not found" in v.verdicts[0].reason


def test_went_up_and_were_down_are_a_rise_and_a_fall() -> None:
    ctx = ["Home prices in the city rose in 2023."]
    v = verify(["Home prices in the city went down in 2023."], ctx).verdicts[0]
    assert (
        v.verdict == "no" and "the claim says 'went down' where the chunk says 'rose'" in v.reason
    )
    assert verify(["Home prices in the city went up in 2023."], ctx).verdicts[0].verdict == "yes"
    v = verify(["Sales were up 4% in May."], ["Sales fell 4% in May."]).verdicts[0]
    assert v.verdict == "no" and "'were up' where the chunk says 'fell'" in v.reason
    v = verify(["Sales were down 4% in May."], ["Sales were down 4% in May."]).verdicts[0]
    assert v.verdict == "yes", v.reason
    increase = next(k for k, w in opposite_cues("It rose.").items() if w == "rose")
    # the second half said without its verb is read too, so a sentence that says both a
    # rise and a fall backs a claim of either (a fresh user's rows: these were `no`)
    for claim, chunk in [
        ("Revenue was up 6% in Q2.", "Revenue was down 2% in Q1 but up 6% in Q2."),
        ("Exports were up 2% in June.", "Exports were down 3% in May, then up 2% in June."),
        ("Costs were down 2% in 2023.", "Costs were up 5% in 2022 and down 2% in 2023."),
        ("Prices went down in June.", "Prices went up in May and then down in June."),
        ("Temperatures went down at night.", "Temperatures went up by day and down at night."),
    ]:
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    assert opposite_cues("Down 4% on the year.")[(increase[0], 1)] == "down"
    assert (increase[0], 0) not in opposite_cues("Sales fell, and up to 50 stores closed.")
    # "set up", "shut down the app", "up to 50": no rise or fall
    for other in (
        "Set up the router.",
        "It is up to 50 people.",
        "Go down the stairs.",
        "The shares are up for sale.",
    ):
        assert increase not in opposite_cues(other) and (increase[0], 1) not in opposite_cues(
            other
        ), other


def test_amount_given_with_another_unit_is_a_conflict() -> None:
    ctx = ["The daily dose is 4 g, given as eight 500 mg tablets."]
    v = verify(["The daily dose is 4 mg."], ctx).verdicts[0]
    assert v.verdict == "no" and "says '4 mg' where the chunk says '4 g'" in v.reason
    assert verify(["The daily dose is 4 g."], ctx).verdicts[0].verdict == "yes"
    ctx = ["A ticket costs €20 at the door and $25 online."]
    v = verify(["A ticket costs $20 at the door."], ctx).verdicts[0]
    assert v.verdict == "no" and "'$20' where the chunk says '€20'" in v.reason
    # the number given in both units: no conflict
    ctx = ["The trail is 5 miles (8 km) long."]
    assert verify(["The trail is 8 km long."], ctx).verdicts[0].verdict == "yes"


def test_unit_amounts_bind_each_number_to_its_unit() -> None:
    from ragnotebook.text import unit_amounts

    assert unit_amounts("Take 4 g a day, as eight 500 mg tablets.") == {
        ("4", 1, 1): "4 g",
        ("500", 1, 0): "500 mg",
    }
    # a dose per kilogram of body weight is a side of its own; "1,000" is one number
    assert unit_amounts("The dose is 10 mg/kg, up to 1,000 mg.") == {
        ("10", 1, 4): "10 mg/kg",
        ("1000", 1, 0): "1,000 mg",
    }
    assert unit_amounts("Tickets cost $4 or €3.50.") == {("4", 0, 0): "$4", ("3.5", 0, 1): "€3.50"}
    assert unit_amounts("It is 12.5km away.") == {("12.5", 2, 0): "12.5km"}
    assert unit_amounts("会员费为120元。") == {} and unit_amounts("No amounts here.") == {}


def test_item_denied_in_another_sentence_is_a_conflict() -> None:
    ctx = ["The plan includes vision and hearing cover. Dental cover is not included."]
    v = verify(["The plan includes dental cover."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert verify(["The plan includes vision cover."], ctx).verdicts[0].verdict == "yes"
    # a sentence that says the claim's denied words too still agrees with it
    ctx = [
        "The warranty covers water damage from rain. It does not cover water damage from floods."
    ]
    assert verify(["The warranty covers water damage."], ctx).verdicts[0].verdict == "yes"


def test_only_needs_a_context_that_excludes_the_others() -> None:
    ctx = ["Members and their guests can enter the lounge."]
    v = verify(["Only members can enter the lounge."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "'only' is not supported" in v.reason
    v = verify(["Only members can enter the lounge."], ["Members only may enter the lounge."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    ctx = ["Entry to the lounge is restricted to members."]
    v = verify(["Only members can enter the lounge."], ctx).verdicts[0]
    assert "'only'" not in v.reason
    # "only" before an amount or a time is emphasis, not exclusion; "not only" adds
    ctx = ["The driest year was 1934, with 24.97 inches of rain."]
    v = verify(["The driest year was 1934, with only 24.97 inches of rain."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    ctx = ["The museum recently reopened. It sells tickets and books."]
    assert verify(["The museum has only recently reopened."], ctx).verdicts[0].verdict == "yes"
    v = verify(["The museum sells not only tickets but books."], ctx).verdicts[0]
    assert "'only'" not in v.reason


def test_answer_made_of_the_questions_words_answers_nothing() -> None:
    ctx = [
        "Max Volmer worked with Otto Stern, who won the Nobel Prize in Physics in 1943. "
        "Max Volmer was a German physical chemist."
    ]
    q = "Who won a Nobel Prize in 1943 and is associated with Max Volmer?"
    v = verify(["Max Volmer won the Nobel Prize in 1943."], ctx, question=q).verdicts[0]
    assert v.verdict == "unsure" and "adds no answer" in v.reason
    v = verify(["Otto Stern won the Nobel Prize in 1943."], ctx, question=q).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a choice between names the question gives is answered by one of them
    q2 = "Who won the Nobel Prize in 1943, Max Volmer or Otto Stern?"
    v = verify(["Otto Stern won the Nobel Prize in 1943."], ctx, question=q2).verdicts[0]
    assert "adds no answer" not in v.reason
    q3 = "Between Max Volmer and Otto Stern, which one won the Nobel Prize in 1943?"
    v = verify(["Otto Stern won the Nobel Prize in 1943."], ctx, question=q3).verdicts[0]
    assert "adds no answer" not in v.reason


def test_a_negation_opening_the_claim_is_no_name() -> None:
    ctx = ["Adults should not take more than 4 g of paracetamol in 24 hours."]
    v = attribute(["No more than 4 g in 24 hours."], ctx).verdicts[0]
    assert v.verdict == "yes" and "names" not in v.reason, v.reason


def test_british_and_american_spellings_meet() -> None:
    ctx = ["A Team license covers up to 25 seats within one organization."]
    v = verify(["A Team licence covers up to 25 seats in a single organisation."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    ctx = ["Bring it to the Riverside Collection Center between 9am and 5pm."]
    v = verify(["Bring it to the Riverside Collection Centre between 9am and 5pm."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    assert stem("colour") == stem("color") and stem("catalogue") == stem("catalog")


def test_a_listed_item_denied_elsewhere_is_a_conflict() -> None:
    ctx = ["We ship to all EU countries, the UK and Norway. We do not ship to Switzerland."]
    v = verify(["We ship to the EU, the UK, Norway and Switzerland."], ctx).verdicts[0]
    assert v.verdict == "no" and "('We do not ship to Switzerland')" in v.reason
    assert verify(["We ship to the UK and Norway."], ctx).verdicts[0].verdict == "yes"
    ctx = ["The rate includes breakfast and Wi-Fi. Parking is not included and costs $15."]
    v = verify(["The rate includes breakfast, Wi-Fi and parking."], ctx).verdicts[0]
    assert v.verdict == "no" and "('Parking is not included')" in v.reason
    # a claim that itself prevents or doubts is not read this way
    ctx = ["Move the hawk often. The birds do not become accustomed to the hawk."]
    v = verify(["Move the hawk to prevent the birds becoming accustomed to it."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_weights_lengths_and_fees_in_other_units() -> None:
    v = verify(["Your cabin bag can weigh up to 10 lb."], ["Your cabin bag can weigh up to 10 kg."])
    assert (
        v.verdicts[0].verdict == "no" and "'lb' where the chunk says 'kg'" in v.verdicts[0].reason
    )
    v = verify(["The pool is 25 feet long."], ["The pool is 25 metres long."]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert (
        verify(["The pool is 25 metres long."], ["The pool is 25 meters long."]).verdicts[0].verdict
        == "yes"
    )
    ctx = ["Card payments abroad are free. Cash withdrawals abroad incur a 2% fee."]
    v = verify(["Cash withdrawals abroad are also free."], ctx).verdicts[0]
    assert v.verdict == "no" and "'free' where the chunk says '2% fee'" in v.reason
    # a fraction's denominator is not an amount: "2/4 inches" is not "4 inches"
    ctx = ["Cut two skids at 70 2/4 inches; the shed is 4 feet deep."]
    assert verify(["Cut two skids at 70 2/4 inches."], ctx).verdicts[0].verdict == "yes"


def test_names_swapped_across_a_contrast_clause() -> None:
    ctx = [
        "Refund requests are handled by the Billing team, while the Support team handles "
        "technical issues."
    ]
    v = verify(["Refund requests are handled by the Support team."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "names 'Billing' where the claim names 'Support'" in v.reason
    v = verify(["Refund requests are handled by the Billing team."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_relevance_ignores_a_bare_no_and_the_askers_pronouns() -> None:
    chunk = (
        "The mobile app does not work offline; an internet connection is required for all features."
    )
    out = relevance(
        [chunk], "No, the app needs an internet connection.", "Can I use the app offline?"
    )
    assert out.verdicts[0].verdict == "yes", out.verdicts[0].reason
    chunk = "You can check out as a guest; an account is not required."
    out = relevance(
        [chunk], "No, guest checkout is available.", "Do I need an account to check out?"
    )
    assert out.verdicts[0].verdict == "yes", out.verdicts[0].reason
    # a reference that is only "Yes." keeps its word (the question decides)
    out = relevance(["Penguins eat krill."], "Yes.", "Can I use the app offline?")
    assert out.verdicts[0].verdict == "no"


def test_days_and_months_inside_a_written_range() -> None:
    from ragnotebook.text import range_names

    assert range_names("Open Monday to Thursday.") == {"tuesday", "wednesday"}
    assert range_names("Friday to Monday") == {"saturday", "sunday"}
    assert range_names("from May through August") == {"june", "july"}
    assert range_names("Open on Monday.") == frozenset()
    ctx = ["Our phone helpdesk is open Monday to Friday, 8am to 6pm."]
    assert verify(["The helpdesk is open Tuesday to Thursday."], ctx).verdicts[0].verdict == "yes"
    assert verify(["The helpdesk is open on Wednesday."], ctx).verdicts[0].verdict == "yes"
    assert verify(["The helpdesk is open on Sunday."], ctx).verdicts[0].verdict == "no"
    ctx = ["The pool is open daily from May to September."]
    assert verify(["The pool is open in July."], ctx).verdicts[0].verdict == "yes"
    assert verify(["The pool is open in October."], ctx).verdicts[0].verdict == "no"


def test_relevance_of_a_reference_with_a_negation_in_one_sentence() -> None:
    # the reference's pieces are read with the same words as the whole (no "not")
    ref = "The museum is not open on Mondays. It opens at 9 am on other days."
    out = relevance(
        ["The museum is closed on Mondays.", "Penguins eat krill."], ref, "When is it open?"
    )
    assert [v.verdict for v in out.verdicts] == ["yes", "no"]


def test_third_fresh_user_cases() -> None:
    # an irregular past participle meets its verb: "can be taken" against "do not take"
    ctx = ["Do not take this medicine if you are pregnant or breastfeeding."]
    v = verify(["This medicine can be taken if you are breastfeeding."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert stem("taken") == stem("take") and stem("carried") == stem("carry")
    # a hyphenated word opening a claim is no name when the context writes its parts
    ctx = ["Employees may carry over up to 5 unused days, which must be used by 31 March."]
    v = attribute(["Carried-over days must be used by 31 March."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["Carried-over days must be used by 31 May."], ctx).verdicts[0]
    assert v.verdict == "no" and "'May' where the chunk says 'March'" in v.reason
    # two capitalised words joined by "and" that qualify a noun are not two subjects
    ctx = ["The H&S officer is Daniel Okoro. First-aid training is run by Sarah Klein."]
    v = verify(["The Health and Safety officer is Sarah Klein."], ctx).verdicts[0]
    assert v.verdict != "yes" and "of both" not in v.reason
    # "always" against "usually" or "some" (one way: "usually" is implied by "always")
    ctx = ["Overtime is usually paid at 1.5 times the hourly rate."]
    v = verify(["Overtime is always paid at 1.5 times the hourly rate."], ctx).verdicts[0]
    assert v.verdict == "no" and "'always' where the chunk says 'usually'" in v.reason
    ctx = ["Overtime is always paid at 1.5 times the hourly rate."]
    v = verify(["Overtime is usually paid at 1.5 times the hourly rate."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a volume is another unit of a dose
    ctx = ["Children aged 6 to 12 years: give 10 ml of the oral suspension."]
    v = verify(["Children aged 6 to 12 years should be given 10 mg of the suspension."], ctx)
    assert (
        v.verdicts[0].verdict == "no" and "'mg' where the chunk says 'ml'" in v.verdicts[0].reason
    )
    # a denial that a thing is there at all ("has not been reported")
    ctx = [
        "Common side effects include headache, nausea and dizziness. Hair loss has not "
        "been reported with this medicine."
    ]
    v = verify(["Side effects include headache, nausea and hair loss."], ctx).verdicts[0]
    assert v.verdict == "no" and "Hair loss has not been reported" in v.reason
    assert verify(["Side effects include headache and nausea."], ctx).verdicts[0].verdict == "yes"


def test_a_short_claim_naming_another_month() -> None:
    v = verify(["The deadline is in May."], ["The deadline is in March."]).verdicts[0]
    assert v.verdict == "no" and "'May' where the chunk says 'March'" in v.reason
    assert (
        verify(["The deadline is in March."], ["The deadline is in March."]).verdicts[0].verdict
        == "yes"
    )


def test_a_number_counting_another_thing() -> None:
    from ragnotebook.text import counted_amounts

    assert counted_amounts("Do not take more than 8 tablets in 24 hours.") == {
        ("8", "tablet"): "8 tablets",
        ("24", "hour"): "24 hours",
    }
    # a year dates, it does not count; a function word keeps the number open
    assert counted_amounts("At the 1992 Paralympics, 100 of the 2,117 passengers.") == {
        ("100", ""): "100 of",
        ("2117", "passenger"): "2,117 passengers",
    }
    ctx = [
        "Adults and children over 12 years: take one or two tablets every 4 to 6 hours. "
        "Do not take more than 8 tablets in 24 hours."
    ]
    v = verify(["Adults can take up to 12 tablets in 24 hours."], ctx).verdicts[0]
    assert v.verdict == "no" and "'12 tablets' where the chunk says '8 tablets'" in v.reason
    assert (
        verify(["Adults can take up to 8 tablets in 24 hours."], ctx).verdicts[0].verdict == "yes"
    )
    # "100 of the 2,117 passengers" may count the claim's passengers
    ctx = ["Illness hit 100 of the 2,117 passengers on the ship."]
    v = verify(["Illness hit 100 passengers on the ship."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_fourth_fresh_user_cases() -> None:
    # a denial of another case ("annual plans") says nothing of the claim's ("monthly")
    ctx = ["PayPal is not accepted for annual plans. Cards are accepted for all plans."]
    v = attribute(["PayPal is accepted for monthly plans."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["PayPal is accepted for annual plans."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert (
        verify(["The fee is $10 per month."], ["The fee is $10 per year."]).verdicts[0].verdict
        == "no"
    )
    # a ground truth's "only" is a reference's wording: recall does not read it
    ctx = ["Support is open Monday to Friday, 9 am to 6 pm CET."]
    v = attribute(["Support is open Monday to Friday only."], ctx).verdicts[0]
    assert v.verdict == "yes" and "'only'" not in v.reason
    assert (
        "'only' is not supported"
        in verify(
            ["Support is open Monday to Friday only."],
            ["Support is open Monday to Friday. Saturday support is by chat."],
        )
        .verdicts[0]
        .reason
    )
    # "weekdays" is Monday to Friday
    v = verify(["Support is open on weekdays from 9 am to 6 pm CET."], ctx).verdicts[0]
    assert v.verdict == "yes" and v.reason.endswith("number 9:00, 18:00 found"), v.reason
    ctx = ["Support is open on weekdays, 9 am to 6 pm."]
    assert verify(["Support is open on Tuesday."], ctx).verdicts[0].verdict == "yes"
    assert verify(["Support is open on Sunday."], ctx).verdicts[0].verdict != "yes"


def test_fifth_and_sixth_fresh_user_cases() -> None:
    from ragnotebook.text import split_sentences

    # a date with its day and month against "from" that date
    ctx = ["From 1 April 2024, the rate is 3.25% AER."]
    v = verify(["The rate is 3.25% AER before 1 April 2024."], ctx).verdicts[0]
    assert v.verdict == "no" and "'before 1 April 2024' where the chunk says 'from 1 April" in (
        v.reason
    )
    assert verify(["The rate is 3.25% AER after 1 April 2024."], ctx).verdicts[0].verdict == "yes"
    # "0.5" is written as "0.5", not ".5"
    v = verify(["The account pays 0.5% AER."], ["The account pays 0.75% AER."]).verdicts[0]
    assert "number 0.5 not found (the chunk has 0.75)" in v.reason
    # most of the reference in one chunk is relevant whatever the question's wording
    chunk = (
        "Interest on the Easy Saver account is calculated every day on the cleared balance, "
        "credited to savers monthly."
    )
    ref = chunk[:-1] + ", gross."  # 86% of it is in the chunk, none of the question's words
    out = relevance([chunk], ref, "How often do I earn?")
    assert out.verdicts[0].verdict == "yes" and "enough on its own" in out.verdicts[0].reason
    out = relevance(["Penguins eat krill."], ref, "How often do I earn?")
    assert out.verdicts[0].verdict == "no"
    # a full-width stop before a digit ends a sentence
    assert split_sentences("每片含钙300毫克。4岁以上儿童每天吃1片。") == (
        "每片含钙300毫克。",
        "4岁以上儿童每天吃1片。",
    )


def test_chinese_contrast_clauses() -> None:
    ctx = ["积分可以用来兑换优惠券，但不能兑换现金或礼品卡。"]
    # the coupons are not denied by the later clause; the cash is
    v = verify(["积分可以用来兑换优惠券。"], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["积分也可以兑换现金。"], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    ctx = ['订单发货前，您可以在"我的订单"页面修改地址；发货后无法修改。']
    v = verify(['订单发货前，您可以在"我的订单"页面修改地址。'], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        ("每片含钙300克。", "每片含钙300毫克。", "'克' where the chunk says '毫克'"),
        ("礼品包装每件330美元。", "礼品包装每件330元。", "'美元' where the chunk says '元'"),
        (
            "ギフト包装は1点330ドルです。",
            "ギフト包装は1点330円です。",
            "'ドル' where the chunk says '円'",
        ),
        ("1회 1포(2mg)를 드세요.", "1회 1포(2g)를 드세요.", "'mg' where the chunk says 'g'"),
        (
            "배송비는 3,000달러입니다.",
            "배송비는 3,000원입니다.",
            "'달러' where the chunk says '원'",
        ),
    ],
)
def test_cjk_amount_in_another_unit(claim: str, chunk: str, said: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no" and said in v.reason, v.reason
    assert verify([chunk], [chunk]).verdicts[0].verdict == "yes"


def test_seventh_fresh_user_cases() -> None:
    # "is excluded" denies a thing as "is not covered" does
    ctx = [
        "The policy covers damage caused by storm, fire, theft and escape of water. "
        "Flood damage is excluded."
    ]
    v = verify(["The policy pays for damage caused by storm, fire and flood."], ctx).verdicts[0]
    assert v.verdict == "no" and "('Flood damage is excluded')" in v.reason
    assert verify(["The policy covers storm damage."], ctx).verdicts[0].verdict == "yes"
    # the speaker is no part of what is denied ("We will not pay for flood damage")
    ctx = [
        "We will pay for damage caused by storm, fire, theft and escape of water. We will "
        "not pay for flood damage."
    ]
    v = verify(["The policy pays for damage caused by storm, fire and flood."], ctx).verdicts[0]
    assert v.verdict == "no" and "('We will not pay for flood damage')" in v.reason
    # a duration said in another unit is said, for the restated-question check too
    ctx = ["The Fixed Rate Bond pays 4.10% AER, fixed for 12 months from the date of opening."]
    v = verify(
        ["The Fixed Rate Bond pays 4.10% AER, fixed for one year."],
        ctx,
        question="What rate does the Fixed Rate Bond pay?",
    ).verdicts[0]
    assert v.verdict == "yes" and "one year is 12 months" in v.reason


def test_two_names_traded_between_coordinated_clauses() -> None:
    ctx = ["Take Lorvex in the morning and Dormicil at bedtime."]
    v = verify(["Take Dormicil in the morning and Lorvex at bedtime."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "'Dormicil' and 'Lorvex' the other way round" in v.reason
    assert verify(ctx, ctx).verdicts[0].verdict == "yes"
    ctx = ["Sarah Klein leads the billing team and Tom Reyes leads support."]
    v = verify(["Tom Reyes leads the billing team and Sarah Klein leads support."], ctx)
    assert "'Tom Reyes' and 'Sarah Klein' the other way round" in v.verdicts[0].reason
    # a list of names is not two clauses ("claims by Paris Match and Bild that …")
    ctx = ["Reports by Bild and Paris Match said a video was found at the site."]
    v = verify(["Reports by Paris Match and Bild said a video was found at the site."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_number_written_in_words_and_figures_is_one_number() -> None:
    from ragnotebook.text import normalize, split_claims

    assert normalize("for six (6) months") == "for 6 months"
    assert normalize("within 30 (thirty) days") == "within 30 days"
    assert normalize("twenty-five (25) days") == "25 days"
    # two that disagree keep both numbers, the figures next to the unit
    assert normalize("ninety (60) days") == "(ninety) 60 days"
    # a claim keeps the figures (a citation marker after a word is still dropped)
    assert split_claims("Notice is sixty (60) days (Passage 2).") == ["Notice is sixty (60) days."]
    ctx = ["We retain candidate personal data for six (6) months after the recruitment ends."]
    v = verify(["Candidate personal data is retained for 6 years after the recruitment ends."], ctx)
    assert v.verdicts[0].verdict == "no"
    assert "the claim says '6 years' where the chunk says '6 months'" in v.verdicts[0].reason
    v = verify(["Candidate personal data is kept for six months after the recruitment ends."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    v = verify(
        ["Either party may end it on ninety (60) days' notice."],
        ["Either party may end it on ninety (90) days' notice."],
    )
    assert v.verdicts[0].verdict != "yes" and "number 60 not found" in v.verdicts[0].reason


def test_denial_with_an_exception_is_a_condition() -> None:
    ctx = [
        "The Tenant shall not sublet the Premises unless the Landlord has given its prior "
        "written consent."
    ]
    # restating the condition is no contradiction (it was "negation in the chunk only")
    for claim in (
        "Subletting requires the Landlord's prior written consent.",
        "The Tenant may sublet the Premises with the Landlord's prior written consent.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    # the plain denial of the same fact is still contradicted
    v = verify(
        ["The Tenant shall not sublet the Premises."], ["The Tenant may sublet the Premises."]
    )
    assert v.verdicts[0].verdict == "no"


def test_claim_that_rules_out_the_contexts_exception_is_contradicted() -> None:
    ctx = [
        "Any other unused leave is forfeited unless the employee was unable to take it due to sickness."
    ]
    v = verify(["Any other unused leave is forfeited in all cases."], ctx).verdicts[0]
    assert v.verdict == "no"
    assert (
        "the context makes an exception ('unless …') where the claim says 'in all cases'"
        in v.reason
    )
    ctx = [
        "The Processor shall not respond to a data subject request directly except on the "
        "documented instructions of the Controller."
    ]
    v = verify(
        [
            "The Processor may never respond directly to a data subject request, even on the "
            "Controller's instructions."
        ],
        ctx,
    ).verdicts[0]
    assert v.verdict == "no" and "('except …')" in v.reason
    # the claim that keeps the exception, or a context without one, is not touched
    v = verify(
        ["Unused leave is always forfeited unless the employee was ill."],
        ["Unused leave is forfeited unless the employee was ill."],
    )
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    v = verify(["The museum is always closed on Mondays."], ["The museum is closed on Mondays."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    # an exception in a sentence about something else does not count
    ctx = ["The museum is closed on Mondays. Tours run daily except in August."]
    v = verify(["The museum is always closed on Mondays."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_versions_with_a_zero_minor_are_the_whole_version() -> None:
    ctx = ["tessel push is deprecated since v3.0 and removed in v4.0."]
    for claim in (
        "tessel push is deprecated since 3.0.",
        "tessel push is deprecated since version 3.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    v = verify(["tessel push is deprecated since version 3.1."], ctx).verdicts[0]
    assert v.verdict == "no" and "number 3.1 not found" in v.reason


def test_milliseconds_are_a_duration() -> None:
    ctx = ["Webhook deliveries time out after 10 seconds."]
    v = verify(["Webhook deliveries time out after 10 milliseconds."], ctx).verdicts[0]
    assert v.verdict == "no"
    assert "the claim says '10 milliseconds' where the chunk says '10 seconds'" in v.reason
    v = verify(["Webhook deliveries time out after 10,000 ms."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_a_word_with_non_against_the_word_without() -> None:
    ctx = ["The courts of England shall have exclusive jurisdiction to settle any dispute."]
    v = verify(["The courts of England have non-exclusive jurisdiction over any dispute."], ctx)
    assert v.verdicts[0].verdict == "no"
    assert "the claim says 'non-exclusive' where the chunk says 'exclusive'" in v.verdicts[0].reason
    v = verify(["Fees are refundable."], ["Fees are non-refundable."]).verdicts[0]
    assert v.verdict == "no" and "where the chunk says 'non-refundable'" in v.reason
    # the same word on both sides, or a sentence that says both, is no conflict
    assert (
        verify(["Fees are non-refundable."], ["Fees are non-refundable."]).verdicts[0].verdict
        == "yes"
    )
    ctx = ["Members get exclusive offers and non-member prices."]
    assert verify(["Members get exclusive offers."], ctx).verdicts[0].verdict == "yes"


def test_legal_and_technical_word_pairs() -> None:
    cases = [
        (
            "The Processor must forward requests within five calendar days.",
            "The Processor shall forward requests within five (5) Business Days.",
            "the claim says 'calendar' where the chunk says 'business'",
        ),
        (
            "The Company gives the statutory notice or one month, whichever is shorter.",
            "The Company gives the statutory notice or one month, whichever is longer.",
            "the claim says 'shorter' where the chunk says 'longer'",
        ),
        (
            "The notice must be given no later than 30 days before the end of the term.",
            "The notice must be given no earlier than 30 days before the end of the term.",
            "the claim says 'later' where the chunk says 'earlier'",
        ),
        (
            "The Customer must carry out an audit of the security controls once a year.",
            "The Customer may request an audit of the security controls once a year.",
            "the claim says 'must' where the chunk says 'may'",
        ),
    ]
    for claim, chunk, said in cases:
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "no" and said in v.reason, (claim, v.reason)
    # a permission where the context says an obligation is no contradiction (what one
    # must do one may do), but a duty said as a choice: unsure, not no
    ctx = ["The Customer must request an audit of the security controls once a year."]
    v = verify(["The Customer may request an audit of the security controls once a year."], ctx)
    assert v.verdicts[0].verdict == "unsure" and "a duty said as a choice" in v.verdicts[0].reason
    # "must not" and "may not" both forbid; the month May is no permission
    ctx = ["The Tenant may not sublet the Premises."]
    assert verify(["The Tenant must not sublet the Premises."], ctx).verdicts[0].verdict == "yes"
    assert (
        verify(
            ["The Tenant shall not sublet the Premises."], ["The Tenant may sublet the Premises."]
        )
        .verdicts[0]
        .verdict
        == "no"
    )
    ctx = ["Annual leave must be taken by 31 May."]
    assert verify(["Annual leave must be taken by 31 May."], ctx).verdicts[0].verdict == "yes"
    # the context's "may" governs another verb, which the claim's modal is not about
    ctx = [
        "Employees may carry over up to five days of unused leave into the next year, "
        "provided that the carried-over days are taken by 31 March."
    ]
    v = verify(["Those carried-over days must be taken by 31 March."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_pronouns_adverbs_and_instruction_verbs_are_no_names() -> None:
    ctx = [
        "Employees may carry over up to five (5) days of unused annual leave into the next year."
    ]
    v = verify(
        ["You can carry over up to five days of unused annual leave into the next year."], ctx
    )
    assert "names" not in v.verdicts[0].reason, v.verdicts[0].reason
    ctx = [
        "Clause 3.2 Thereafter the Agreement shall renew automatically for successive "
        "12-month periods."
    ]
    v = verify(["After that the Agreement renews automatically for 12-month periods."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    ctx = ["Use -j N with tessel build to run N build steps in parallel."]
    v = verify(["Pass -j N to tessel build to run N build steps in parallel."], ctx)
    assert "names 'Use'" not in v.verdicts[0].reason, v.verdicts[0].reason
    # a name is still a name
    ctx = ["Canberra is the capital city of Australia and seat of government."]
    v = verify(["Sydney is the capital city of Australia and seat of government."], ctx)
    assert "names 'Canberra' where the claim names 'Sydney'" in v.verdicts[0].reason


def test_cjk_negation_in_a_clause_of_its_own() -> None:
    ctx = ["tessel deploy 的 --dry-run 参数在 v2.3.1 中加入，它只打印计划而不会应用更改。"]
    v = attribute(["--dry-run 参数在 v2.3.1 中加入。"], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # the clause that denies still contradicts a claim that states it
    v = verify(["--dry-run 参数在 v2.3.1 中加入，会应用更改。"], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason


def test_cjk_rates_per_minute_and_per_hour() -> None:
    cases = [
        (
            "每个 API 密钥每小时最多 100 个请求。",
            "每个 API 密钥每分钟最多 100 个请求。",
            "'每小时' where the chunk says '每分钟'",
        ),
        (
            "API キーごとに毎時 100 リクエストまでです。",
            "API キーごとに毎分 100 リクエストまでです。",
            "'毎時' where the chunk says '毎分'",
        ),
        (
            "API 키당 시간당 100개의 요청을 보낼 수 있습니다.",
            "API 키당 분당 100개의 요청을 보낼 수 있습니다.",
            "'시간당' where the chunk says '분당'",
        ),
    ]
    for claim, chunk, said in cases:
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "no" and said in v.reason, (claim, v.reason)
        assert verify([chunk], [chunk]).verdicts[0].verdict == "yes"


def test_a_platform_or_option_not_supported_is_denied() -> None:
    ctx = ["The tessel agent runs on Linux and macOS. Windows is not supported; use WSL2 instead."]
    v = verify(["The tessel agent runs on Linux, macOS and Windows."], ctx).verdicts[0]
    assert v.verdict == "no" and "('Windows is not supported')" in v.reason
    assert verify(["The tessel agent runs on Linux and macOS."], ctx).verdicts[0].verdict == "yes"
    ctx = ["We accept Visa and Mastercard. American Express is not accepted."]
    v = verify(["We accept Visa, Mastercard and American Express."], ctx).verdicts[0]
    assert v.verdict == "no" and "('American Express is not accepted')" in v.reason
    # a qualified denial ("not allowed in the lobby") denies the thing there only
    ctx = ["Pets are not allowed in the lobby, but they are allowed in the rooms."]
    assert verify(["Pets are allowed in the rooms."], ctx).verdicts[0].verdict == "yes"


def test_a_month_or_weekday_is_quoted_capitalised() -> None:
    v = verify(
        ["Unused leave must be taken by 31 May."], ["Unused leave must be taken by 31 March."]
    )
    assert v.verdicts[0].reason.endswith("the claim says 'May' where the chunk says 'March'")


def test_a_number_the_context_writes_as_an_ordinal_or_a_placeholder() -> None:
    ctx = ["Rent is payable monthly in advance on the first day of each month."]
    v = verify(["Rent is payable in advance on the 1st of each month."], ctx).verdicts[0]
    assert v.verdict == "yes" and "1st is 'first'" in v.reason
    v = verify(["Rent is payable in advance on the 2nd of each month."], ctx).verdicts[0]
    assert v.verdict != "yes"
    ctx = ["Set --timeout <seconds> to change how long the client waits."]
    v = verify(["Set --timeout 30 to change how long the client waits."], ctx).verdicts[0]
    assert v.verdict == "yes" and "30 fills '--timeout <seconds>'" in v.reason
    ctx = ["Use -j N with tessel build to run N build steps in parallel. The default is 1."]
    v = verify(["Use -j 4 with tessel build to run build steps in parallel."], ctx).verdicts[0]
    assert v.verdict == "yes" and "4 fills '-j N'" in v.reason
    # another flag's slot is no placeholder for this one
    v = verify(["Use --retries 4 with tessel build."], ["Use -j N with tessel build."]).verdicts[0]
    assert v.verdict != "yes"


def test_invisible_characters_do_not_break_a_match() -> None:
    ctx = ["The depot ships 47 pallets a day."]
    for claim in (
        "The de\u200bpot ships 47 pal\u00adlets a day.",
        "\ufeffThe depot ships 47 pallets a day.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes" and v.reason.startswith("100%"), (claim, v.reason)


def test_two_steps_in_the_other_order() -> None:
    ctx = ["Run tessel init first to create the project file. Then run tessel deploy to push it."]
    v = verify(["First run tessel deploy, then run tessel init."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "the context gives 'init' before 'deploy', the claim the other order" in v.reason
    assert (
        verify(["First run tessel init, then run tessel deploy."], ctx).verdicts[0].verdict == "yes"
    )
    # "before" / "after" in the context may write the steps the other way round
    ctx = ["Before you run tessel deploy, run tessel init to create the project file."]
    v = verify(["Run tessel init, then run tessel deploy."], ctx).verdicts[0]
    assert "other order" not in v.reason
    # "since then" is no second step
    ctx = ["Locke has lost only once in seven games since then, and he went on to win."]
    v = verify(["Since then, Locke has lost only once in seven games."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_the_word_version_before_a_number_is_its_prefix() -> None:
    from ragnotebook.text import content_tokens

    assert content_tokens("added in version 2.3.1") == content_tokens("added in v2.3.1")
    assert "version" in content_tokens("the new version of the app")
    ctx = ["The --dry-run flag of tessel deploy was added in v2.3.1."]
    v = verify(["The --dry-run flag was added in version 2.3.1."], ctx).verdicts[0]
    assert v.verdict == "yes" and v.reason.startswith("100%"), v.reason


def test_common_nouns_the_other_way_round_around_one_verb() -> None:
    ctx = ["Clarithromycin inhibits simvastatin, so avoid the combination."]
    v = verify(["Simvastatin inhibits clarithromycin."], ctx).verdicts[0]
    assert (
        v.verdict == "unsure"
        and "'Simvastatin' and 'clarithromycin' the other way round" in v.reason
    )
    assert verify(["Clarithromycin inhibits simvastatin."], ctx).verdicts[0].verdict == "yes"
    ctx = ["The tenant must notify the landlord at least 7 days in advance."]
    v = verify(["The landlord must notify the tenant at least 7 days in advance."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "'landlord' and 'tenant' the other way round" in v.reason
    # other words between them in the context are no reversal of this verb
    ctx = ["A new wing opened at the museum in the spring."]
    v = verify(["The museum opened a new wing."], ctx).verdicts[0]
    assert "other way round" not in v.reason, v.reason


def test_the_scale_of_an_amount() -> None:
    v = verify(["The fund size is $2.4 million."], ["Fund size: $2.4 billion."]).verdicts[0]
    assert (
        v.verdict == "no" and "the claim says 'million' where the chunk says 'billion'" in v.reason
    )
    ctx = ["Revenue rose to 3.1 billion euros in 2023."]
    assert verify(["Revenue rose to 3.1 billion euros."], ctx).verdicts[0].verdict == "yes"


def test_a_number_the_question_states_is_no_contradiction() -> None:
    ctx = ["Platform fee: 0.25% a year on the first £250,000; 0.10% a year above £250,000."]
    q = "What platform fee will I pay on a £100,000 portfolio?"
    v = verify(["On a £100,000 portfolio the platform fee is 0.25% a year."], ctx, question=q)
    assert v.verdicts[0].verdict == "yes"
    assert "number 100000 from the question" in v.verdicts[0].reason
    assert "100000 found" not in v.verdicts[0].reason
    # without the question it is a number the context lacks
    v = verify(["On a £100,000 portfolio the platform fee is 0.25% a year."], ctx)
    assert v.verdicts[0].verdict != "yes"
    # the claim's own wrong number is still read
    ctx = ["Adults weighing less than 50 kg: maximum 3 g of paracetamol per day."]
    q = "How much paracetamol can an adult weighing 45 kg take per day?"
    v = verify(
        ["An adult weighing 45 kg can take up to 4 g of paracetamol per day."], ctx, question=q
    )
    assert v.verdicts[0].verdict == "no" and "number 4 not found" in v.verdicts[0].reason


def test_a_key_valued_none_is_denied() -> None:
    from ragnotebook.text import negation_targets

    assert negation_targets("Entry charge: none. Exit charge: none.") == {"entry", "exit"}
    assert negation_targets("Charges: annual charge 0.75%; performance fee: none.") == {
        "performanc"
    }
    # "There is no performance fee" is no longer contradicted by the line that says so
    ctx = ["Charges: annual management charge 0.75%; performance fee: none."]
    v = verify(["There is no performance fee."], ctx).verdicts[0]
    assert v.verdict != "no", v.reason


def test_short_ied_forms_stem_to_their_y() -> None:
    from ragnotebook.text import stem

    assert [stem(w) for w in ("dried", "tried", "skies")] == [stem("dry"), stem("try"), stem("sky")]
    assert stem("died") != stem("dy") and stem("lies") == stem("lie")


def test_a_bare_no_before_the_answer_is_no_claim_of_its_own() -> None:
    from ragnotebook.text import split_claims

    assert split_claims("No. The Nova Runner has a mesh upper.") == [
        "The Nova Runner has a mesh upper."
    ]
    assert split_claims("Yes. The Nova Runner has a mesh upper.") == [
        "The Nova Runner has a mesh upper."
    ]
    assert split_claims("No.") == ["No."]  # all there is: still the answer
    assert split_claims("No one was hurt. The road reopened.") == [
        "No one was hurt.",
        "The road reopened.",
    ]


def test_a_duration_in_another_unit_is_not_a_missing_number() -> None:
    ctx = ["All laptops come with a warranty of 36 months."]
    v = verify(["The warranty lasts 3 years."], ctx).verdicts[0]
    # little else of the claim is in that sentence: not supported, but 3 is not "missing"
    assert v.verdict == "unsure" and "3 years is 36 months" in v.reason
    assert "number 3 not found" not in v.reason
    v = verify(["The warranty lasts 3 months."], ctx).verdicts[0]
    assert v.verdict != "yes" and "number 3 not found" in v.reason


def test_a_number_given_to_another_case_of_a_list() -> None:
    ctx = [
        "Check-in desks close 60 minutes before departure for domestic flights and 90 "
        "minutes before departure for international flights."
    ]
    v = verify(["Check-in desks close 60 minutes before departure for international flights."], ctx)
    assert v.verdicts[0].verdict == "unsure"
    assert "the chunk gives 60 in another case; with 'internat" in v.verdicts[0].reason
    for claim in (
        "Check-in desks close 90 minutes before departure for international flights.",
        "Check-in desks close 60 minutes before departure for domestic flights.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", claim
    ctx = ["Extra checked bag (23 kg): £45 if added online, £70 at the airport."]
    v = verify(["An extra 23 kg bag costs £45 at the airport."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "with 'airport' it gives 70" in v.reason
    # a number said with the claim's words in another sentence is said right there
    ctx = [
        "The regulator ordered the utility to pay a record $1.6 billion penalty for unsafe "
        "operation of its gas system. Of the $1.6 billion, $850 million will go to gas "
        "safety work."
    ]
    v = verify(
        ["The utility must pay a $1.6 billion penalty for unsafe operation of its gas system."], ctx
    )
    assert "another case" not in v.verdicts[0].reason, v.verdicts[0].reason
    # a list the claim repeats clause by clause is no other case
    ctx = ["The Lib Dems spent £1,580,575, Labour spent £1,027,339 and the SNP spent £267,372."]
    v = verify(["The Lib Dems spent £1,580,575 and Labour spent £1,027,339."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_the_word_after_how_is_no_topic_of_a_chunk() -> None:
    out = relevance(
        [
            "Once a claim is approved, we pay it within 10 business days.",
            "Home plans cover storm damage to roofs and fences.",
        ],
        "Approved claims are paid within 10 business days.",
        "How quickly are approved claims paid?",
    )
    assert [v.verdict for v in out.verdicts] == ["yes", "no"]
    assert "the question has no content word beyond the reference's" in out.verdicts[0].reason


def test_unless_excludes_the_other_cases_for_only() -> None:
    ctx = [
        "Theft of items from a vehicle is not covered unless the vehicle was locked and "
        "there are signs of forced entry."
    ]
    claim = "Theft from a vehicle is only covered if the vehicle was locked."
    assert verify([claim], ctx).verdicts[0].verdict == "yes"
    v = verify(["Only Gold members can use the lounge."], ["Gold members can use the lounge."])
    assert v.verdicts[0].verdict == "unsure" and "'only' is not supported" in v.verdicts[0].reason


def test_a_word_denied_with_a_prefix_agrees_with_not() -> None:
    ctx = ["Unreviewed access is revoked 14 days after the review deadline."]
    v = verify(["Access not reviewed is revoked 14 days after the deadline."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["Access reviewed is revoked."], ["Access not reviewed is revoked."]).verdicts[0]
    assert v.verdict == "no" and "negation" in v.reason


def test_once_is_a_count_only_before_a_period() -> None:
    ctx = ["Updates install at 02:00 when a restart has been pending for two days."]
    v = verify(["Updates install at 02:00 once a restart has been pending for two days."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    assert "number 1 not found" not in v.verdicts[0].reason
    v = verify(["Backups run once a day."], ["Backups run twice a day."]).verdicts[0]
    assert v.verdict == "no", v.reason


def test_a_passive_by_of_another_verb_does_not_turn_the_names_round() -> None:
    chunk = "Replacement chargers are issued free of charge by the IT Walk-up Bar."
    v = attribute(["Replacement chargers are free at the IT Walk-up Bar."], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason
    # the claim's own verb said in the passive still turns them round
    v = verify(["Acme acquired Beta Corp in 2019."], ["Acme was acquired by Beta Corp in 2019."])
    assert v.verdicts[0].verdict == "unsure" and "other way round" in v.verdicts[0].reason


def test_a_duty_said_as_a_choice_is_unsure() -> None:
    ctx = ["For theft claims you must report the theft to police within 24 hours."]
    v = verify(["You may report the theft to police."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "the chunk says 'must' where the claim says 'may' (a duty said as a choice)" in v.reason
    assert verify(["You must report the theft to police."], ctx).verdicts[0].verdict == "yes"
    # both forbid; and a permission said of another verb is no duty
    assert verify(["You may not sublet."], ["You must not sublet."]).verdicts[0].verdict == "yes"
    ctx = ["Customers can pay by card or cash. Deposits must be paid in cash."]
    assert verify(["Customers may pay by card."], ctx).verdicts[0].verdict == "yes"
    # a reference's "may" is its own wording (recall)
    ctx = ["You must report the theft to police."]
    assert attribute(["You may report the theft to police."], ctx).verdicts[0].verdict == "yes"


def test_an_ordinal_given_to_another_rank_of_its_word() -> None:
    ctx = [
        "Security patches are pushed on the second Wednesday of each month.",
        "The first thing to do is reboot.",
    ]
    v = verify(["Patches arrive on the first Wednesday of each month."], ctx).verdicts[0]
    assert v.verdict == "no"
    assert "the claim says 'first Wednesday' where the chunk says 'second Wednesday'" in v.reason
    # the same rank written another way, both ranks named, and the unit "second"
    assert (
        verify(["It is on the third floor."], ["It is on the 3rd floor."]).verdicts[0].verdict
        == "yes"
    )
    ctx = ["The first step is to log in. The second step is to open Settings."]
    assert verify(["The first step is to log in."], ctx).verdicts[0].verdict == "yes"
    ctx = ["There is a 30 second delay before the door opens."]
    assert verify(["There is a 30 second delay."], ctx).verdicts[0].verdict == "yes"
    # the reason quotes the rank of the sentence most like the claim
    ctx = [
        "The first day of the month is a holiday for staff. Payments are made on the fourth "
        "day of each month."
    ]
    v = verify(["Payments are made on the third day of the month."], ctx).verdicts[0]
    assert v.verdict == "no" and "where the chunk says 'fourth day'" in v.reason


def test_a_number_the_context_gives_to_another_name_in_a_sentence_of_the_same_build() -> None:
    ctx = [
        "Basic and Standard plans are available to travellers aged 18 to 79. The Premium "
        "plan is available to travellers aged 18 to 74."
    ]
    v = verify(["The Standard travel plan is available to travellers up to age 74."], ctx)
    assert v.verdicts[0].verdict == "unsure"
    assert (
        "the chunk gives 74 to 'Premium' and 79 to 'Standard' in a sentence of the same build"
        in v.verdicts[0].reason
    )
    v = verify(["The Premium travel plan is available to travellers up to age 74."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    # across chunks, with the name opening both sentences
    ctx = [
        "On long-haul flights, Business passengers can check 2 bags of 32 kg each.",
        "Economy passengers can check 1 bag of 23 kg.",
    ]
    v = verify(["Economy passengers can check 2 bags of 23 kg."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "gives 2 to 'Business' and 1 to 'Economy'" in v.reason
    assert (
        verify(["Economy passengers can check 1 bag of 23 kg."], ctx).verdicts[0].verdict == "yes"
    )
    # sentences of another build: no crossing read
    ctx = [
        "Business passengers board first and get 2 lounge passes.",
        "Economy fares start at 1 euro on some routes in winter.",
    ]
    v = verify(["Economy passengers get 2 lounge passes."], ctx).verdicts[0]
    assert "same build" not in v.reason


def test_a_pipe_table_is_read_one_row_per_sentence() -> None:
    from ragnotebook.judges.offline import _tables_as_sentences

    table = (
        "Plan | Jewellery limit | Excess\n|---|---|---|\nBasic | $1,000 | $500\n"
        "Standard | $5,000 | $250\nPremium | $15,000 | $100"
    )
    text, found = _tables_as_sentences(table)
    assert found
    assert text.split("\n") == [
        "Plan Basic: jewellery limit $1,000, excess $500.",
        "Plan Standard: jewellery limit $5,000, excess $250.",
        "Plan Premium: jewellery limit $15,000, excess $100.",
    ]
    # a lone line with a pipe, or rows of different widths, stay as they are
    assert _tables_as_sentences("Open | Closed") == ("Open | Closed", False)
    uneven = "a | b\nc | d | e"
    assert _tables_as_sentences(uneven) == (uneven, False)
    ctx = [table]
    # a row's own figures: yes (the wording check does not apply to a table's rows)
    v = verify(["The excess on the Basic plan is $500."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # another row's figure: unsure, naming both rows
    v = verify(["The excess on the Basic plan is $250."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "gives 250 to 'Standard' and 500 to 'Basic'" in v.reason
    v = verify(["The Premium plan covers jewellery up to $5,000."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "and 15000 to 'Premium'" in v.reason
    # recall: a reference read from the table is attributed
    ref = ["The Standard plan has a $250 excess and covers jewellery up to $5,000."]
    assert attribute(ref, ctx).verdicts[0].verdict == "yes"


def test_german_spanish_and_french_denials_refusals_and_answer_words() -> None:
    chunk = ["Schäden durch Hochwasser sind im Basis-Plan nicht versichert."]
    v = verify(["Schäden durch Hochwasser sind im Basis-Plan versichert."], chunk).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert (
        verify(["El museo no abrió en 1998."], ["El museo abrió en 1998."]).verdicts[0].verdict
        == "no"
    )
    # German nouns are capitalised: no "name not found"
    ctx = ["Für Sturmschäden gilt eine Wartezeit von 14 Tagen ab Beginn der Versicherung."]
    claim = "Ja, für Sturmschäden gilt eine Wartezeit von 14 Tagen ab Beginn der Versicherung."
    v = verify([claim], ctx).verdicts[0]
    assert v.verdict == "yes" and "name" not in v.reason, v.reason
    # refusals make no claim
    for refusal in ("Das weiß ich leider nicht.", "No lo sé.", "Je ne sais pas.", "Não sei."):
        assert extract(refusal) == [], refusal
    # "Nein," answers the question; the fact after it is what is checked
    ref = ["Nein, Schäden durch Hochwasser sind im Basis-Plan nicht versichert."]
    assert attribute(ref, chunk, question="Ist Hochwasser versichert?").verdicts[0].verdict == "yes"


def test_a_unit_after_a_number_is_no_name_for_the_crossed_figure_rule() -> None:
    ctx = [
        "The Silver plan costs €15 per month and includes 10 GB of data. The Gold plan costs "
        "€25 per month and includes 50 GB of data."
    ]
    v = verify(["The Silver plan includes 50 GB of data."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "gives 50 to 'Gold' and 10 to 'Silver'" in v.reason
    assert verify(["The Gold plan includes 50 GB of data."], ctx).verdicts[0].verdict == "yes"


def test_an_amount_said_as_it_is_elsewhere_is_no_other_period() -> None:
    ctx = [
        "Contracts have a minimum term of 24 months. You can cancel within 14 days of signing "
        "at no cost. After the 14-day period, cancelling before the end of the minimum term "
        "incurs an early termination fee."
    ]
    ref = [
        "Cancelling later, before the end of the 24-month minimum term, incurs an early "
        "termination fee."
    ]
    v = attribute(ref, ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a period the context never gives that amount is still read
    claim = "After the 14-month period, cancelling before the end of the term incurs a fee."
    v = attribute([claim], ctx).verdicts[0]
    assert v.verdict == "no" and "'14-month' where the chunk says '14-day'" in v.reason


def test_no_information_is_a_refusal_unless_a_fact_follows() -> None:
    assert extract("I don't have any information about jury duty.") == []
    assert extract("We have no information on that.") == []
    claims = extract("I don't have the details of your contract, but the plan costs 10 euros.")
    assert claims and any("10 euros" in c for c in claims)


def test_advice_where_the_context_says_must_is_unsure() -> None:
    ctx = ["Expense claims must be submitted within 30 days of the expense."]
    v = verify(["Expense claims should ideally be submitted within 30 days."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert (
        "the chunk says 'must' where the claim says 'should' (a duty said as a choice)" in v.reason
    )
    v = verify(["It is recommended to submit expense claims within 30 days."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "'recommended'" in v.reason
    # advice the context gives as advice, and advice on something else
    ctx = ["Claims should be reported within 48 hours. Receipts must be kept."]
    assert verify(["Claims should be reported within 48 hours."], ctx).verdicts[0].verdict == "yes"
    ctx = ["Claims must be reported within 48 hours. Keep your receipts for a year."]
    assert verify(["You should keep your receipts."], ctx).verdicts[0].verdict == "yes"


def test_a_denial_said_of_the_claims_name_wins_over_a_statement_of_another_name() -> None:
    ctx = [
        "The Premium plan costs €40 per month and includes dental care. The Basic and "
        "Standard plans do not include dental care."
    ]
    v = verify(["Yes, the Basic plan includes dental care."], ctx).verdicts[0]
    assert v.verdict == "no" and "said of 'Basic'" in v.reason
    assert verify(["The Premium plan includes dental care."], ctx).verdicts[0].verdict == "yes"
    # a denial of something else about the same name is no denial of the claim
    ctx = ["The Basic plan includes vision care. The Basic plan does not include dental care."]
    assert verify(["The Basic plan includes vision care."], ctx).verdicts[0].verdict == "yes"


def test_a_figure_of_another_band() -> None:
    ctx = [
        "Employees with less than 2 years of service receive 20 days of annual leave, with 2 "
        "to 5 years of service 23 days, and with more than 5 years of service 25 days."
    ]
    q = "How much leave after 7 years?"
    v = verify(["An employee with 7 years of service receives 23 days of annual leave."], ctx, q)
    assert v.verdicts[0].verdict == "unsure"
    assert (
        "the chunk gives 23 for 2 to 5 years, not for 7 years (more than 5 years)"
        in v.verdicts[0].reason
    )
    # the right band's figure, and a claim inside the band: no "other case" either
    for claim, question in (
        ("An employee with 7 years of service receives 25 days of annual leave.", q),
        ("With 3 years of service you receive 23 days of annual leave.", "After 3 years?"),
    ):
        v = verify([claim], ctx, question).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    # ages, with "and over" kept as one band
    ctx = ["Children aged 2 to 11 pay €10; those aged 12 and over pay €20."]
    v = verify(["A child aged 12 pays €10."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "gives 10 for aged 2 to 11, not for aged 12" in v.reason
    assert verify(["A child aged 12 pays €20."], ctx).verdicts[0].verdict == "yes"
    # one band is a condition, not a table of cases
    ctx = ["Adults aged 18 to 64 pay €30 for the annual pass."]
    assert "band" not in verify(["A 70-year-old pays €30."], ctx).verdicts[0].reason


def test_a_number_of_a_sentence_built_alike_for_another_lowercase_case() -> None:
    ctx = [
        "Applications for the fall intake close on March 1. Applications for the spring "
        "intake close on October 15."
    ]
    v = verify(["Spring intake applications close on March 1."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "gives 1 with 'fall' and 15 with 'spring' in a sentence of the same build" in v.reason
    assert (
        verify(["Spring intake applications close on October 15."], ctx).verdicts[0].verdict
        == "yes"
    )
    ctx = [
        "Undergraduate tuition for state residents is $350 per credit hour. Undergraduate "
        "tuition for non-residents is $925 per credit hour."
    ]
    v = verify(["Undergraduate tuition for state residents is $925 per credit hour."], ctx)
    assert v.verdicts[0].verdict == "unsure" and "350 with 'state'" in v.verdicts[0].reason
    claim = "Undergraduate tuition for state residents is $350 per credit hour."
    assert verify([claim], ctx).verdicts[0].verdict == "yes"


def test_bands_without_a_unit_word() -> None:
    ctx = [
        "Merit scholarships are awarded by high school GPA band: 3.5 to 3.79: $2,000; 3.8 and "
        "above: $4,000."
    ]
    ref = ["A GPA of 3.8 and above earns a $4,000 merit scholarship."]
    v = attribute(ref, ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a value inside a band is found there ("3.6 is in 3.5 to 3.79"), not "not found"
    v = verify(["A student with a 3.6 GPA receives a $2,000 merit scholarship."], ctx).verdicts[0]
    assert "3.6 is in 3.5 to 3.79" in v.reason and "3.6 not found" not in v.reason
    # a comparison is a fact, not a band: "over 16 inches in July" holds no 17 inches
    ctx = ["Maximum monthly precipitation: over 16 inches in July 2003 at Kokomo."]
    v = verify(["Kokomo had 17 inches of rain in July 2003."], ctx).verdicts[0]
    assert "17 is in" not in v.reason and v.verdict != "yes"


def test_the_askers_words_are_no_topic_of_a_chunk() -> None:
    out = relevance(
        [
            "Campus tours run daily.",
            "International applicants must show English proficiency with a TOEFL iBT score "
            "of at least 80 or an IELTS score of 6.5.",
        ],
        "You need a TOEFL iBT score of at least 80.",
        "What TOEFL score do I need?",
    )
    assert [v.verdict for v in out.verdicts] == ["no", "yes"]


def test_an_item_the_context_leaves_out() -> None:
    ctx = ["All plans include roadside assistance except Silver. Gold adds rental car cover."]
    v = verify(["The Silver plan includes roadside assistance."], ctx).verdicts[0]
    assert v.verdict == "no"
    assert "the chunk says it of all but 'Silver' ('except Silver')" in v.reason
    # another plan is what "all plans" says, not a name swapped for the excepted one
    v = verify(["The Gold plan includes roadside assistance."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # recall reads it the same way: a ground-truth claim of the excepted item is not there
    a = attribute(["The Silver plan includes roadside assistance."], ctx).verdicts[0]
    assert a.verdict == "no"
    ctx = ["The office is open every day except Sunday. On public holidays it closes at noon."]
    assert verify(["The office is open on Sunday."], ctx).verdicts[0].verdict == "no"
    # the opposite said of the excepted item, and another day, contradict nothing
    for claim in ("The office is closed on Sunday.", "The office is open on Monday."):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "unsure", (claim, v.reason)
        assert "contradicted" not in v.reason
    # the context's own exception to its exception
    ctx = [
        "All plans include roadside assistance except Silver. Silver members can add "
        "roadside assistance for $5 a month."
    ]
    v = verify(["Silver members can add roadside assistance for $5 a month."], ctx)
    assert v.verdicts[0].verdict == "yes"
    # a claim that says the exception itself, or a negated one, is not read this way
    ctx = ["All plans include roadside assistance except Silver."]
    assert (
        verify(["Silver does not include roadside assistance."], ctx).verdicts[0].verdict == "yes"
    )
    # the item named again in the sentence ("other than Chrome) …, then click Chrome")
    ctx = [
        "Click the Edge browser entry (or any browser other than Chrome) to reveal Choose an "
        "app, and then click Google Chrome to set it as default browser."
    ]
    v = verify(["Click Google Chrome to set it as the default browser."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a condition is no item: "except when" is read by the exception rule
    ctx = ["Refunds are issued within 14 days except when the item was damaged by the buyer."]
    v = verify(["Refunds are issued within 14 days when the item was damaged."], ctx).verdicts[0]
    assert "all but" not in v.reason


def test_a_figure_said_with_another_subject() -> None:
    ctx = [
        "Payroll runs on the 15th. Expense claims must be filed by the 10th to be paid in "
        "that month's payroll."
    ]
    v = verify(["Expense claims must be filed by the 15th."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "the sentence that says the rest of the claim gives 10, not 15" in v.reason
    assert verify(["Expense claims must be filed by the 10th."], ctx).verdicts[0].verdict == "yes"
    assert verify(["Payroll runs on the 15th."], ctx).verdicts[0].verdict == "yes"
    # a claim joining two sentences, each figure with its own words: no other subject
    ctx = [
        "The museum opened in March with 120 visitors on its first day. Its collection holds "
        "300 paintings."
    ]
    v = verify(["The museum, which has 300 paintings, opened in March."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # times of day are figures of one kind
    ctx = ["The clinic opens at 8 am on weekdays. On Saturdays it opens at 10 am."]
    v = verify(["The clinic opens at 10 am on weekdays."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "gives 8:00, not 10:00" in v.reason
    assert verify(["The clinic opens at 8 am on weekdays."], ctx).verdicts[0].verdict == "yes"
    # the claim's figure rounded from the best sentence's is the same figure, not
    # another subject's, nor a count of another word (a "40" elsewhere was `no`)
    ctx = ["The tower is 40.2 metres tall. The park next to it has 40 trees."]
    v = verify(["The tower is 40 metres tall."], ctx).verdicts[0]
    assert v.verdict != "no" and "the rest of the claim" not in v.reason, v.reason
    # a figure of another kind in the best sentence is no conflict
    ctx = [
        "Members may bring 2 guests per visit. Guest passes are sold at the front desk for "
        "a fee of $15."
    ]
    v = verify(["Guest passes are sold at the front desk for 2 guests."], ctx).verdicts[0]
    assert "the sentence that says the rest" not in v.reason


def test_a_denial_of_the_thing_the_sentence_before_describes() -> None:
    for denial, word in (
        ("The deposit is non-refundable.", "the chunk says 'non-refundable'"),
        ("The deposit is not refundable.", "negation in the chunk only"),
    ):
        ctx = [
            "Admitted students confirm their place by paying a $300 enrollment deposit by "
            f"May 1. {denial}"
        ]
        v = verify(["The $300 enrollment deposit is refundable."], ctx).verdicts[0]
        assert v.verdict == "no" and word in v.reason, (denial, v.reason)
        agree = "The $300 enrollment deposit is " + (
            "non-refundable." if "non-" in denial else "not refundable."
        )
        assert verify([agree], ctx).verdicts[0].verdict == "yes"
    # a back-reference to a noun the sentence before does not say carries nothing over
    ctx = [
        "Admitted students confirm their place by paying a $300 enrollment fee by May 1. "
        "The deposit is non-refundable."
    ]
    v = verify(["The $300 enrollment fee is refundable."], ctx).verdicts[0]
    assert "non-refundable" not in v.reason, v.reason
    # a denial of something else keeps the claim
    ctx = [
        "The library lends laptops to students for up to 7 days. The laptops are not "
        "available on weekends."
    ]
    claim = "Students can borrow laptops from the library for up to 7 days."
    assert verify([claim], ctx).verdicts[0].verdict == "yes"


def test_a_duty_the_context_waives_for_the_claims_case() -> None:
    ctx = [
        "Applicants must submit transcripts and two letters of recommendation. Letters of "
        "recommendation are optional for transfer students."
    ]
    v = verify(["Transfer students must submit two letters of recommendation."], ctx)
    assert v.verdicts[0].verdict == "unsure"
    assert "the chunk says 'optional' where the claim says 'must', for its case" in (
        v.verdicts[0].reason
    )
    # the rule itself, and the exception as the context says it, stand
    for claim in (
        "Applicants must submit two letters of recommendation.",
        "Letters of recommendation are optional for transfer students.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", claim
    ctx = [
        "All employees must complete safety training each year. Safety training is "
        "optional for contractors."
    ]
    v = verify(["Contractors must complete safety training each year."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "for its case" in v.reason
    claim = "All employees must complete safety training each year."
    assert verify([claim], ctx).verdicts[0].verdict == "yes"


def test_a_pronoun_subject_is_the_one_named_the_sentence_before() -> None:
    ctx = ["The clinic opens at 8 am on weekdays. On Saturdays it opens at 10 am."]
    v = verify(["On Saturdays the clinic opens at 10 am."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # an "it" that is no subject ("made it 2-1") does not reach back
    ctx = ["The Giants scored first. Mike Forney's goal made it 2-1 with Andy Bohmback equalising."]
    v = verify(["Mike Forney scored for the Giants, making it 2-1."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "stands near the subject" in v.reason


@pytest.mark.parametrize(
    ("sentence", "refusal"),
    [
        ("I'm not able to help with refunds.", True),
        ("I can't discuss billing matters.", True),
        ("Please contact our support team for help.", True),
        ("Please contact customer service.", True),
        ("Please contact us.", True),
        ("I'm sorry, I can't help with pricing questions.", True),
        ("I don't have access to your location, so I can't tell you.", True),
        # a business's own policy is a fact, not the assistant declining
        ("We won't share your data with third parties.", False),
        ("We are unable to provide refunds after 30 days.", False),
        ("We can't ship to Norway.", False),
        ("I cannot help but notice the fee is $5.", False),
        # a referral with a contact detail is a claim to check
        ("Please call 555-1234 for help.", False),
        ("Please contact support@acme.com for help.", False),
    ],
)
def test_more_ways_of_declining_are_refusals(sentence: str, refusal: bool) -> None:
    assert is_refusal(sentence) is refusal


def test_a_refusal_made_of_declining_sentences_has_no_claims() -> None:
    claims = extract("I'm not able to help with refunds. Please contact our support team for help.")
    assert claims == []


def test_without_denies_as_with_no_does() -> None:
    ctx = ["The plan costs $55 per month with no contract."]
    v = verify(["The plan costs $55 per month without a contract."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["The plan costs $55 per month with a contract."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    ctx = ["The plan costs $55 per month without a contract."]
    v = verify(["The plan costs $55 per month with no contract."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_a_denial_is_not_hidden_by_a_detail_from_another_sentence() -> None:
    ctx = [
        "Gift cards are excluded from exchange and are not refunded.",
        "Items can be returned within 30 days of delivery.",
    ]
    for claim in ("Gift cards are refunded.", "Gift cards are refunded within 30 days."):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "no" and "negation in the chunk only" in v.reason, (claim, v.reason)
    ctx = [
        "Gift cards are non-refundable. Items can be returned within 30 days of delivery for "
        "a refund."
    ]
    v = verify(["Gift cards are refundable within 30 days."], ctx).verdicts[0]
    assert v.verdict == "no" and "'non-refundable'" in v.reason
    # a detail said of the same subject elsewhere is agreement, not a detail
    ctx = ["Gift cards are not refunded in cash. Gift cards are refunded as store credit."]
    v = verify(["Gift cards are refunded as store credit."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # a denial under a condition, or of a name the scope reader took for the denied word,
    # is left as before
    ctx = [
        "Neither the Patriots nor the NFL has anything to be ashamed of in how they handled "
        "the case. They did everything right this time."
    ]
    v = verify(["The NFL did everything right in handling the case."], ctx).verdicts[0]
    assert v.verdict != "no", v.reason


def test_a_word_the_context_gives_another_name() -> None:
    ctx = [
        "Gold members get free express shipping on every order. Silver members get free "
        "standard shipping on every order."
    ]
    v = verify(["Silver members get free express shipping on every order."], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "the chunk gives 'express' to 'Gold' and 'standard' to 'Silver'" in v.reason
    for claim in (
        "Silver members get free standard shipping on every order.",
        "Gold members get free express shipping.",
        "Silver members get free shipping on every order.",
        # a denied phrase after a comma is denied whole: "free standard" does not state it
        "No, Silver members get free standard shipping, not free express shipping.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    # a denial is of its whole phrase: "free standard shipping" does not state "get free
    # express shipping", Gold's sentence does, of another name
    v = verify(["Silver members do not get free express shipping."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["Gold members do not get free express shipping."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the claim only" in v.reason
    # as a ground truth, and with the question it answers (its "not" is no new word)
    contrast = "No, Silver members get free standard shipping, not free express shipping."
    q = "Do Silver members get free express shipping?"
    assert verify([contrast], ctx, q).verdicts[0].verdict == "yes"
    assert attribute([contrast], ctx, q).verdicts[0].verdict == "yes"


def test_a_short_german_sentence_has_no_names() -> None:
    ctx = ["Der Standardversand nach Österreich kostet 4,95 € und dauert 4 bis 6 Werktage."]
    v = verify(["Der Versand nach Österreich kostet 4,95 €."], ctx).verdicts[0]
    assert v.verdict == "yes" and "name" not in v.reason, v.reason


def test_a_choice_said_for_another_name_does_not_hide_a_softened_duty() -> None:
    ctx = [
        "Duties for UK orders may be prepaid at checkout or paid on delivery. For EU orders, "
        "duties must be prepaid at checkout."
    ]
    v = verify(["For EU orders, duties may be prepaid at checkout."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "a duty said as a choice" in v.reason
    for claim in (
        "For EU orders, duties must be prepaid at checkout.",
        "For UK orders, duties may be prepaid at checkout.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", claim
    ctx = [
        "UK staff should book travel through the portal. US staff must book travel through "
        "the portal."
    ]
    v = verify(["US staff should book travel through the portal."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "a duty said as a choice" in v.reason


def test_a_figure_of_another_chunks_subject() -> None:
    pat = "Paternity leave: Employees are entitled to two weeks of paternity leave at full pay."
    mat = (
        "Maternity leave: Employees are entitled to 26 weeks of maternity leave, of which "
        "the first 16 weeks are at full pay."
    )
    v = verify(["Paternity leave is 16 weeks at full pay."], [pat, mat]).verdicts[0]
    assert v.verdict == "unsure" and "gives 2, not 16" in v.reason, v.reason
    uk = (
        "Annual leave (UK): Full-time employees in the United Kingdom receive 25 days of paid "
        "annual leave per year, in addition to the 8 public holidays."
    )
    de = "Annual leave (Germany): Full-time employees in Germany receive 30 days of paid annual leave per year."
    claim = "Full-time employees in the UK receive 30 days of paid annual leave per year."
    v = verify([claim], [uk, de]).verdicts[0]
    assert v.verdict == "unsure" and "gives 25, not 30" in v.reason, v.reason
    right = "Full-time employees in Germany receive 30 days of paid annual leave per year."
    assert verify([right], [uk, de]).verdicts[0].verdict == "yes"


def test_french_elisions_and_opening_articles() -> None:
    v = verify(
        ["L'alcool est remboursé par l'entreprise."],
        ["L'alcool n'est jamais remboursé par l'entreprise."],
    )
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason
    assert content_tokens("l'alcool n'est", "en") == ["alcool", "est"]
    ctx = ["En France, les salariés peuvent télétravailler 2 jours par semaine."]
    v = verify(["En France, les salariés peuvent télétravailler 2 jours par semaine."], ctx)
    assert v.verdicts[0].verdict == "yes" and "name" not in v.verdicts[0].reason


def test_an_answer_to_i_in_you_and_intervals_in_other_units() -> None:
    ctx = [
        "Carry-over: Employees may carry over up to 5 days of unused annual leave into the next "
        "leave year."
    ]
    q = "Can I carry over unused annual leave?"
    v = verify(["You may carry over up to 5 days of unused annual leave."], ctx, q).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["Laptops are replaced every 36 months."], ["Laptops are replaced every 3 years."])
    assert v.verdicts[0].verdict == "yes"
    assert "every 36 months is every 3 years" in v.verdicts[0].reason
    v = verify(["Laptops are replaced every 36 months."], ["Laptops are replaced every 3 months."])
    assert v.verdicts[0].verdict == "no"


def test_a_denial_of_an_excepted_item_answers_the_question() -> None:
    ctx = [
        "Private medical insurance: All employees, except contractors and interns, are "
        "covered by the company's private medical insurance."
    ]
    q = "Are contractors covered by the private medical insurance?"
    claim = "Contractors are not covered by the private medical insurance."
    assert verify([claim], ctx, q).verdicts[0].verdict == "yes"


def test_grade_bands_and_bands_in_two_sentences() -> None:
    ctx = [
        "Meal allowance: Employees in grades G1 to G3 may claim up to €40 per day for meals "
        "while on business travel. Employees in grades G4 and above may claim up to €60 per day."
    ]
    v = verify(["A G3 employee can claim up to €60 per day for meals on business travel."], ctx)
    assert v.verdicts[0].verdict == "unsure"
    assert "the chunk gives 60 for grades G4 or above, not for G3" in v.verdicts[0].reason
    for claim in (
        "A G3 employee can claim up to €40 per day for meals on business travel.",
        "A G5 employee can claim up to €60 per day for meals.",
        "Employees in grade 2 may claim up to €40 per day for meals.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", claim
    # a band's own bound is no figure it gives ("under 6 hours" for a director's "G6")
    ctx = [
        "Economy class is required for flights under 6 hours. Premium economy may be booked "
        "for flights of 6 hours or more. Business class is not permitted except for directors "
        "(G6 and above) on flights over 8 hours."
    ]
    claim = "Business class is permitted only for directors (G6 and above) on flights over 8 hours."
    assert "band" not in verify([claim], ctx).verdicts[0].reason
    assert "the chunk gives 6" not in verify([claim], ctx).verdicts[0].reason


def test_a_whole_group_where_the_context_gives_a_band_of_it() -> None:
    ctx = [
        "First class is permitted for journeys over 3 hours for employees in grades G5 and above."
    ]
    claim = "First class is allowed for all employees on journeys longer than 3 hours."
    v = verify([claim], ctx).verdicts[0]
    assert v.verdict == "unsure"
    assert "the chunk limits it to grades G5 and above where the claim says 'all employees'" in (
        v.reason
    )
    # the band of the claim's own condition (hours) is no limit of the group
    assert (
        verify(["First class is permitted for journeys over 3 hours."], ctx).verdicts[0].verdict
        == "yes"
    )
    ctx = ["Employees aged 55 and over may join the early retirement scheme."]
    v = verify(["All employees may join the early retirement scheme."], ctx).verdicts[0]
    assert v.verdict == "unsure" and "aged 55 and over" in v.reason
    v = verify(["Employees aged 60 may join the early retirement scheme."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_calendar_days_against_working_days_of_a_calendar_year() -> None:
    ctx = ["Remote work from another country is limited to 20 working days per calendar year."]
    v = verify(["You can work from another country for up to 20 calendar days per year."], ctx)
    assert v.verdicts[0].verdict == "no"
    assert "the claim says 'calendar' where the chunk says 'working'" in v.verdicts[0].reason
    v = verify(["You can work from another country for up to 20 working days per year."], ctx)
    assert v.verdicts[0].verdict == "yes"


def test_all_of_a_group_where_the_context_leaves_a_kind_of_it_out() -> None:
    ctx = [
        "Items can be returned within 30 days of delivery.",
        "Sale items marked final sale are excluded from returns.",
    ]
    for claim in (
        "All items can be returned within 30 days.",
        "Yes, every item can be returned within 30 days.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "unsure" and "the chunk leaves some item" in v.reason, (claim, v.reason)
    assert verify(["Items can be returned within 30 days."], ctx).verdicts[0].verdict == "yes"
    # a button's label in quotes is no claim about a whole group
    ctx = [
        'Click "Sync Audiobooks" and choose "All Audiobooks" to transfer all of them. Purchased '
        "audiobooks that are not downloaded cannot be synced."
    ]
    claim = 'Choose "All Audiobooks" to transfer all of them.'
    assert "leaves some" not in verify([claim], ctx).verdicts[0].reason


def test_two_contrasts_the_other_way_round() -> None:
    ctx = ["The museum is open daily. Entry is free, not paid."]
    assert verify(["Entry is free, not paid."], ctx).verdicts[0].verdict == "yes"
    v = verify(["Entry is paid, not free."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason


def test_a_denial_in_another_verb_of_the_same_act() -> None:
    ctx = [
        "We do not ship freight orders to P.O. boxes. Standard parcels can be delivered to P.O. boxes."
    ]
    v = verify(["Freight orders can be delivered to P.O. boxes."], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    assert (
        verify(["Standard parcels can be delivered to P.O. boxes."], ctx).verdicts[0].verdict
        == "yes"
    )


# ------------------------------------------------------------------ round 18 (offline-v15)


def test_cant_can_not_and_cannot_are_one_negation() -> None:
    question = "Can I change a Basic Economy ticket?"
    for said in ("cannot", "can't", "can’t", "can not"):
        ctx = [f"Basic Economy tickets {said} be changed."]
        for claim in (
            "Basic Economy tickets cannot be changed.",
            "Basic Economy tickets can't be changed.",
            "Basic Economy tickets can not be changed.",
        ):
            v = verify([claim], ctx, question=question).verdicts[0]
            assert v.verdict == "yes", (said, claim, v.reason)
        v = verify(["Basic Economy tickets can be changed."], ctx, question=question).verdicts[0]
        assert v.verdict == "no", (said, v.reason)


def test_a_currency_code_binds_its_amount() -> None:
    ctx = ["Tickets can be changed for a fee of EUR 70 (USD 80) plus any fare difference."]
    v = verify(["Tickets can be changed for a fee of EUR 80."], ctx).verdicts[0]
    assert v.verdict == "no" and "the claim says 'eur 80' where the chunk says 'usd 80'" in v.reason
    assert verify(["Tickets can be changed for a fee of EUR 70."], ctx).verdicts[0].verdict == "yes"
    ctx = ["A checked bag costs 40 USD online and 60 USD at the airport."]
    v = verify(["A checked bag costs 40 EUR online."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason
    assert verify(["A checked bag costs 40 dollars online."], ctx).verdicts[0].verdict == "yes"


def test_a_clause_after_a_semicolon_with_a_pronoun_subject_keeps_the_subject() -> None:
    ctx = [
        "Power banks up to 100 Wh are allowed without approval; those between 100 Wh and "
        "160 Wh need airline approval."
    ]
    v = verify(["Power banks between 100 and 160 Wh need airline approval."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    # the first clause's denial is still read where the later clause does not speak
    ctx = ["Pets are not allowed in the lobby; they are welcome in the rooms."]
    v = verify(["Pets are allowed in the lobby."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason


def test_a_name_of_several_words_is_named_only_as_a_whole() -> None:
    ctx = [
        "Miles upgrades are available from Economy Flex to Business only. Basic Economy and "
        "Economy Classic tickets cannot be upgraded with miles."
    ]
    v = verify(["Only Economy Flex tickets can be upgraded to Business."], ctx).verdicts[0]
    assert v.verdict == "yes", v.reason
    for claim in (
        "Basic Economy tickets can be upgraded with miles.",
        "Economy Classic tickets can be upgraded with miles.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "no", claim
    ctx = [
        "Economy Classic and Economy Flex fares include one checked bag of up to 23 kg. "
        "Basic Economy fares do not include checked baggage."
    ]
    # a denial of Basic Economy is not contradicted by what Economy Classic gets
    v = verify(["Basic Economy has no checked bag included."], ctx).verdicts[0]
    assert v.verdict != "no", v.reason
    for claim in (
        "Economy Classic has no checked bag included.",
        "Basic Economy fares include one checked bag.",
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "no", claim


def test_within_and_outside_and_domestic_and_international_are_opposites() -> None:
    ctx = ["Pets may travel in the cabin on flights within Europe."]
    v = verify(["Pets may travel in the cabin on flights outside Europe."], ctx).verdicts[0]
    assert v.verdict == "no" and "'outside' where the chunk says 'within'" in v.reason
    ctx = ["Lounge access is free on domestic flights."]
    v = verify(["Lounge access is free on international flights."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason


def test_a_closing_condition_does_not_undo_a_plain_denial_of_the_main_clause() -> None:
    claim = "Bags over 32 kg are accepted as checked baggage if you pay the overweight fee."
    ctx = [
        "Bags between 23 kg and 32 kg are charged an overweight fee of EUR 75. Bags over "
        "32 kg are not accepted as checked baggage and must be sent as cargo."
    ]
    v = verify([claim], ctx).verdicts[0]
    assert v.verdict == "no" and "negation in the chunk only" in v.reason
    # a denial with its own exception, or the context stating the same condition: no clash
    for ctx in (
        ["Bags over 32 kg are not accepted as checked baggage unless you pay the overweight fee."],
        ["Bags over 32 kg are accepted as checked baggage if you pay the overweight fee."],
    ):
        assert verify([claim], ctx).verdicts[0].verdict == "yes", ctx
    # "providing" is no condition
    ctx = ["The restaurant is not in a hotel. It is on Main Street."]
    v = verify(["The restaurant is on Main Street, providing a central location."], ctx)
    assert v.verdicts[0].verdict != "no", v.verdicts[0].reason


# ------------------------------------------------------------------ round 19 (offline-v16)
# a fresh user's Japanese, Korean and Chinese rows


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("프리미엄 요금제는 월 30,000원입니다.", "프리미엄 요금제는 월 3만 원입니다."),
        ("価格は1万2000円です。", "価格は12,000円です。"),
        ("售价为1.2万元。", "售价为12000元。"),
        ("연 매출은 1억 2천만 원입니다.", "연 매출은 120,000,000원입니다."),
    ],
)
def test_figures_with_myriad_units_are_their_value(claim, chunk) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_a_different_myriad_amount_is_still_a_contradiction() -> None:
    v = verify(["月額料金は3万円です。"], ["月額料金は3,000円です。"]).verdicts[0]
    assert v.verdict == "no" and "30000 not found" in v.reason


def test_a_chunk_keeps_the_figure_written_before_its_myriad_unit() -> None:
    # a reference answering "how many ten thousands" gives the figure alone
    v = attribute(["60.39"], ["2022年销量为60.39万辆。"]).verdicts[0]
    assert v.verdict == "yes", v.reason
    # and a claim rounding in the same unit is the chunk's figure rounded
    v = verify(["营收463亿元。"], ["美团营收462.7亿元。"]).verdicts[0]
    assert v.verdict == "yes" and "rounded" in v.reason


@pytest.mark.parametrize(
    ("claim", "chunk", "same"),
    [
        ("약정 기간은 24개월입니다.", "약정 기간은 2년입니다.", True),
        ("契約期間は24か月です。", "契約期間は2年です。", True),
        ("合同期限为24个月。", "合同期限为2年。", True),
        ("保修期为一年。", "保修期为12个月。", True),
        ("保修期为两年。", "保修期为12个月。", False),
        ("약정 기간은 24개월입니다.", "약정 기간은 1년입니다.", False),
    ],
)
def test_cjk_durations_in_another_unit_are_compared_by_length(claim, chunk, same) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert (v.verdict == "yes") is same, v.reason
    if same:
        assert " is " in v.reason  # "24개월 is 2년"
    else:
        assert v.verdict == "no"


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("落下による故障は保証の対象外です。", "落下や水没による故障は保証の対象外です。"),
        ("落下による故障は対象外です。", "落下や不注意による故障は対象外です。"),
        ("商品は返品できます。", "商品は没収されることなく返品できます。"),
        ("別料金で配送できます。", "別料金で配送できます。"),
        ("非常に人気があります。", "この商品は非常に人気があります。"),
        ("这款手机特别受欢迎。", "这款手机特别受年轻人欢迎。"),
    ],
)
def test_cjk_words_that_contain_a_negation_character_deny_nothing(claim, chunk) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("이 제품은 방수가 안됩니다.", "이 제품은 방수가 됩니다."),
        ("환불이 가능합니다.", "환불이 불가능합니다."),
        ("この機能は利用可能です。", "この機能は利用不可です。"),
        ("日没後は入場できます。", "日没後は入場できません。"),
    ],
)
def test_cjk_negations_written_against_their_verb_are_read(claim, chunk) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no" and "negation" in v.reason, v.reason


def test_the_reason_names_the_side_that_holds_the_negation() -> None:
    v = verify(["日没後は入場できます。"], ["日没後は入場できません。"]).verdicts[0]
    assert "negation in the chunk only" in v.reason, v.reason


def test_a_korean_date_written_with_dots_is_a_date() -> None:
    for chunk in ("활동은 2024.3.1부터 시작됩니다.", "활동은 2024. 3. 1.부터 시작됩니다."):
        v = verify(["활동은 2024년 3월 1일부터 시작됩니다."], [chunk]).verdicts[0]
        assert v.verdict == "yes", v.reason
    v = verify(["활동은 2024년 3월 2일부터 시작됩니다."], ["활동은 2024.3.1부터 시작됩니다."])
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason


@pytest.mark.parametrize(
    ("claim", "chunk", "said"),
    [
        (
            "月額料金は税込1,320円です。",
            "月額料金は税抜1,320円です。",
            "'税込' where the chunk says '税抜'",
        ),
        (
            "このサービスの配送料は無料です。",
            "このサービスの配送料は有料です。",
            "'無料' where the chunk says '有料'",
        ),
        ("标准配送服务是免费的。", "标准配送服务是收费的。", "'免费' where the chunk says '收费'"),
        ("배송비는 무료입니다.", "배송비는 유료입니다.", "'무료' where the chunk says '유료'"),
    ],
)
def test_cjk_tax_and_price_opposites(claim, chunk, said) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no" and said in v.reason, v.reason


def test_a_latin_name_in_cjk_text_must_be_in_the_context() -> None:
    chunk = "Nintendo Switch 2の予約はMy Nintendo Storeで受け付けています。"
    v = verify(["Nintendo Switch 2の予約はAmazonで受け付けています。"], [chunk]).verdicts[0]
    assert v.verdict == "unsure" and "name Amazon not found" in v.reason
    v = verify(["Nintendo Switch 2の予約はMy Nintendo Storeで受け付けています。"], [chunk])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_a_count_of_things_the_chunk_never_names_is_unsure_not_contradicted() -> None:
    chunk = (
        "The Kansas City metropolitan area is a 15-county metropolitan area anchored by "
        "Kansas City, Missouri. The area includes Overland Park, Kansas."
    )
    v = verify(["Three hospitals are in the Kansas City metropolitan area."], [chunk])
    assert v.verdicts[0].verdict == "unsure", v.verdicts[0].reason
    assert "number 3 not found (the chunk has 15)" in v.verdicts[0].reason
    # a count of the same things, a year, or an amount of a unit still contradicts
    for claim, ctx in [
        ("The area has 3 hospitals.", "The area has 15 hospitals and two airports."),
        ("The Harbor Museum opened in 1997.", "The Harbor Museum opened in 2000 on Pier 4."),
        (
            "The Bathurst track is 6 kilometres long.",
            "The Bathurst track is 6.213 kilometres long.",
        ),
    ]:
        v = verify([claim], [ctx])
        assert v.verdicts[0].verdict == "no", (claim, v.verdicts[0].reason)


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("この製品は保証の対象です。", "この製品は落下による故障の場合、保証の対象外です。"),
        ("この製品は保証の対象です。", "この製品は保証の範囲外です。"),
        ("이 제품은 보증 대상입니다.", "이 제품은 보증 대상이 아닙니다."),
    ],
)
def test_japanese_outside_suffix_and_korean_polite_denial_are_negations(claim, chunk) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict != "yes", v.reason


def test_korean_none_other_than_is_no_denial() -> None:
    chunk = "그 법은 다름 아닌 모든 주민이 인식표를 착용할 것을 강제하는 법이었다."
    v = verify(["그 법은 주민이 인식표를 착용할 것을 강제했다."], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason


# ------------------------------------------------------------------ round 21 (offline-v18)
# a fresh user's "non-", "not" and "except" rows


@pytest.mark.parametrize(
    ("claim", "chunk", "verdict", "why"),
    [
        # "non-X" says "not X": no contradiction either way round
        ("The ticket is non-refundable.", "The ticket is not refundable.", "yes", ""),
        ("The ticket is not refundable.", "The ticket is non-refundable.", "yes", ""),
        ("The licence is non-transferable.", "The licence isn't transferable.", "yes", ""),
        # the plain word against "non-" stays a contradiction, both ways
        ("The ticket is refundable.", "The ticket is non-refundable.", "no", "non-refundable"),
        ("The licence is non-exclusive.", "The licence is exclusive.", "no", "non-exclusive"),
        # "not" before a word is no "non-" for a claim that does not say "non-"
        (
            "Take at most 6 tablets in 24 hours.",
            "Do not take more than 6 tablets in 24 hours.",
            "yes",
            "",
        ),
    ],
)
def test_non_is_read_as_not(claim: str, chunk: str, verdict: str, why: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == verdict, v.reason
    assert why in v.reason


@pytest.mark.parametrize(
    "chunk",
    [
        "All plans include phone support except Silver.",
        "All plans except Silver include phone support.",
        "All plans include phone support, except Silver.",
    ],
)
def test_an_exception_reads_the_same_wherever_it_stands(chunk: str) -> None:
    everyone = verify(["All plans include phone support."], [chunk]).verdicts[0]
    assert everyone.verdict == "no"
    assert "the context leaves out 'Silver' ('except Silver') where the claim says all" in (
        everyone.reason
    )
    silver = verify(["The Silver plan includes phone support."], [chunk]).verdicts[0]
    assert silver.verdict == "no" and "all but 'Silver'" in silver.reason
    # an item the sentence does not except, named or not, is no exception
    gold = verify(["The Gold plan includes phone support."], [chunk]).verdicts[0]
    assert gold.verdict != "no", gold.reason


def test_a_named_item_ends_where_its_names_end() -> None:
    chunk = "All plans except Silver and Bronze include phone support."
    assert verify(["Gold includes phone support."], [chunk]).verdicts[0].verdict == "yes"
    bronze = verify(["Bronze includes phone support."], [chunk]).verdicts[0]
    assert bronze.verdict == "no" and "all but 'Bronze'" in bronze.reason
    # a claim that makes the same exception is no overstatement
    same = verify(["All plans except Silver and Bronze include phone support."], [chunk])
    assert same.verdicts[0].verdict == "yes"


# ------------------------------------------------------------------ round 23 (offline-v18)
# a fresh user's pharmacy label and SaaS billing rows


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        # "not exceed N" is a bound (at most N); a claim allowing more is its other side
        ("You may exceed 3 capsules a day.", "Do not exceed 3 capsules a day."),
        ("Exceed 3 capsules a day.", "Do not exceed 3 capsules a day."),
        (
            "Attachments can exceed 25 MB per message.",
            "Attachments must not exceed 25 MB per message.",
        ),
        ("The load exceeds 40 kg per axle.", "The load should never exceed 40 kg per axle."),
        # the claim's "you" is the reader the imperative addresses, no fact it adds
        (
            "You can apply the cream for more than 7 days.",
            "Do not apply the cream for more than 7 days.",
        ),
        ("You can exceed 2 g of the powder per day.", "Do not exceed 2 g of the powder per day."),
    ],
)
def test_a_claim_exceeding_a_negated_limit_is_a_contradiction(claim: str, chunk: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert "where the chunk says 'not " in v.reason or "'never " in v.reason


@pytest.mark.parametrize(
    "claim",
    [
        "Do not exceed 3 capsules a day.",
        "Do not take more than 3 capsules a day.",
        "Take no more than 3 capsules a day.",
        "The daily limit is up to 3 capsules.",
    ],
)
def test_a_limit_restated_as_a_limit_is_no_contradiction(claim: str) -> None:
    v = verify([claim], ["Do not exceed 3 capsules a day."]).verdicts[0]
    assert v.verdict != "no", v.reason


def test_exceeding_agrees_with_more_than() -> None:
    chunk = "Revenue exceeded $40 million in 2021."
    assert (
        verify(["Revenue was more than $40 million in 2021."], [chunk]).verdicts[0].verdict == "yes"
    )
    below = verify(["Revenue was under $40 million in 2021."], [chunk]).verdicts[0]
    assert below.verdict == "no", below.reason


_SEATS = (
    "The Team plan costs $9 per seat per month, billed yearly, or $11 per seat per month, "
    "billed monthly."
)


@pytest.mark.parametrize(
    "claim",
    [
        "The Team plan costs $9/seat/month billed yearly.",
        "The Team plan costs $9 a month billed yearly.",
        "The Team plan costs $9 per seat per month billed annually.",
        "The Team plan costs $9/seat/month, billed yearly.",
    ],
)
def test_a_monthly_rate_billed_yearly_is_still_monthly(claim: str) -> None:
    v = verify([claim], [_SEATS]).verdicts[0]
    assert v.verdict == "yes", v.reason


@pytest.mark.parametrize(
    "claim", ["The Team plan costs $9 per year.", "The Team plan costs $9 a year billed monthly."]
)
def test_an_amount_given_another_period_still_conflicts(claim: str) -> None:
    v = verify([claim], [_SEATS]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert "where the chunk says '9 per seat per month'" in v.reason


def test_an_amount_binds_to_its_first_period() -> None:
    assert rate_amounts("It is $9/seat/month billed yearly.") == {("9", 4): "9/seat/month"}
    assert rate_amounts("It is $108 billed yearly.") == {("108", 6): "108 billed yearly"}


@pytest.mark.parametrize(
    "answer",
    [
        "Sorry, I can't give legal advice. Please ask your solicitor.",
        "I'm sorry, I can't help with that. Please contact support for refund questions.",
        "I don't know. Check with your vet.",
        "I'm not able to advise on taxes. You should speak with a qualified accountant.",
    ],
)
def test_a_refusal_that_refers_the_reader_elsewhere_has_no_claims(answer: str) -> None:
    assert extract(answer) == []


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        # a referral on its own, or next to an answer, is a claim (the label may say it)
        ("Ask your vet before giving the drops to a cat.", 1),
        ("Please ask your pharmacist.", 1),
        ("The drops are for dogs only. Ask your vet.", 2),
        # after a refusal, a referral with a condition or a figure is advice of its own
        ("Sorry, I can't advise on dosing. Ask your vet if the cat stops eating.", 1),
        ("I don't know. Contact the bank for a new card within 30 days.", 1),
    ],
)
def test_a_referral_with_content_stays_a_claim(answer: str, kept: int) -> None:
    assert len(extract(answer)) == kept


def test_a_referral_that_the_label_states_is_supported() -> None:
    label = "Ask your vet before giving the drops to a cat."
    assert verify([label], [label]).verdicts[0].verdict == "yes"


@pytest.mark.parametrize(
    ("claim", "chunk", "says"),
    [
        ("Water the seedlings every morning.", "Water the seedlings every evening.", "'morning'"),
        ("The shuttle leaves in the evening.", "The shuttle leaves in the morning.", "'evening'"),
        ("Bake the loaf at 220 °F.", "Bake the loaf at 220 °C.", "'°F' where the chunk says '°C'"),
        ("Bake the loaf at 220°C.", "Bake the loaf at 220 °F.", "'°C' where the chunk says '°F'"),
        ("Bake the loaf at 220 ° F.", "Bake the loaf at 220 ℃.", "where the chunk says '°C'"),
        ("Bake the loaf at 220 F.", "Bake the loaf at 220 C.", "'F' where the chunk says 'C'"),
        (
            "Bake the loaf at 220 degrees Fahrenheit.",
            "Bake the loaf at 220 °C.",
            "'degrees Fahrenheit' where the chunk says '°C'",
        ),
        # an adverb between the copula and the word does not hide "non-"
        ("Festival passes are fully refundable.", "Festival passes are non-refundable.", "non-"),
        ("Festival passes are always refundable.", "Festival passes are non-refundable.", "non-"),
        (
            "Festival passes are refundable at any time.",
            "Festival passes are non-refundable.",
            "non-",
        ),
    ],
)
def test_round_23_opposites(claim: str, chunk: str, says: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert says in v.reason


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("Water the seedlings every morning.", "Water the seedlings every morning and evening."),
        ("Bake the loaf at 220 °C.", "Bake the loaf at 220 °C (428 °F)."),
        ("Bake the loaf at 220 C.", "Bake the loaf at 220°C."),
        ("Festival passes are fully refundable.", "Festival passes are fully refundable."),
        ("Festival passes are refundable at any time.", "Festival passes are refundable."),
    ],
)
def test_round_23_opposites_said_alike(claim: str, chunk: str) -> None:
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_a_clock_time_reads_am_and_pm() -> None:
    # no opposite pair is needed: "9 p.m." is the clock time 21:00
    v = verify(["The gate opens at 7 p.m."], ["The gate opens at 7 a.m."]).verdicts[0]
    assert v.verdict == "no" and "19:00" in v.reason


def test_a_daily_dose_split_in_doses_is_no_dose_per_interval() -> None:
    # the amount's first period is its own ("/day"); "every 12 hours" says how it is split
    chunk = "Usual dose: 30 mg/kg/day in divided doses every 8 hours."
    v = verify(["The usual dose is 30 mg/kg every 8 hours."], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert "where the chunk says '30 mg/kg/day'" in v.reason
    same = verify(["The usual dose is 30 mg/kg/day, given every 8 hours."], [chunk]).verdicts[0]
    assert same.verdict != "no", same.reason


# ------------------------------------------------------------------ round 24 (offline-v19)
# a fresh user's list-shaped references, dates, plan names and reasons


def reference_claims(text: str, judge: OfflineJudge | None = None) -> list[str]:
    out = ask(Task("extract_claims", "context_recall", text=text, source="ground_truth"), judge)
    assert isinstance(out, Claims)
    return out.claims


def test_a_reference_list_is_one_claim_per_item() -> None:
    text = "The Studio kit includes a tripod, two lenses, a carry bag and a 2-year warranty."
    assert reference_claims(text) == [
        "The Studio kit includes a tripod.",
        "The Studio kit includes two lenses.",
        "The Studio kit includes a carry bag.",
        "The Studio kit includes a 2-year warranty.",
    ]
    assert reference_claims("Aspirin interacts with warfarin, heparin, or clopidogrel.") == [
        "Aspirin interacts with warfarin.",
        "Aspirin interacts with heparin.",
        "Aspirin interacts with clopidogrel.",
    ]
    # the answer's claims are not split, and the switch turns the split off
    assert len(extract(text)) == 1
    assert reference_claims(text, OfflineJudge(list_items=False)) == [text]
    assert OfflineJudge(list_items=False).identity()["rules"] == {"list_items": False}


def test_recall_of_a_list_counts_the_items_retrieved() -> None:
    items = reference_claims(
        "The Studio kit includes a tripod, two lenses, a carry bag and a strap."
    )
    chunk = "The Studio kit includes a sturdy aluminium tripod."
    verdicts = [v.verdict for v in attribute(items, [chunk]).verdicts]
    assert verdicts == ["yes", "no", "no", "no"]


def test_a_reference_list_with_an_oxford_comma_or_a_noun_verb_item_is_split() -> None:
    # a second fresh user: the Oxford comma was taken for a clause joint (two claims, one
    # a bare "a 99.95% uptime SLA."), and "priority support" (support can be a verb) kept
    # the sentence whole; recall read 0.0 for one item of four retrieved
    oxford = "The Team plan includes unlimited storage, SAML SSO, audit logs, and a 99.9% SLA."
    assert reference_claims(oxford) == [
        "The Team plan includes unlimited storage.",
        "The Team plan includes SAML SSO.",
        "The Team plan includes audit logs.",
        "The Team plan includes a 99.9% SLA.",
    ]
    assert reference_claims("The Team plan includes priority support, SSO and audit logs.") == [
        "The Team plan includes priority support.",
        "The Team plan includes SSO.",
        "The Team plan includes audit logs.",
    ]
    assert reference_claims("Pro comes with phone support, SSO, and a status page.") == [
        "Pro comes with phone support.",
        "Pro comes with SSO.",
        "Pro comes with a status page.",
    ]
    chunk = "The Team plan includes SAML SSO for every seat."
    verdicts = [v.verdict for v in attribute(reference_claims(oxford), [chunk]).verdicts]
    assert verdicts == ["no", "yes", "no", "no"]
    # a clause joint that is no list is still split, and an item may not hold a verb
    # that is not its last word ("support covers logs")
    assert reference_claims("The park opened in 1990, and it closed in 2001 after the flood.") == [
        "The park opened in 1990",
        "it closed in 2001 after the flood.",
    ]
    odd = "The Team plan includes SSO, support covers logs, and storage."
    assert reference_claims(odd) == [odd]


def test_a_reference_list_after_a_preposition_keeps_its_head() -> None:
    # a third fresh user: "closed on Monday, Tuesday and Friday" gave "The office is
    # Tuesday." (the list was cut after "is"), and "comes in red, blue and green" stayed whole
    assert reference_claims("The office is closed on Monday, Tuesday and Friday.") == [
        "The office is closed on Monday.",
        "The office is closed on Tuesday.",
        "The office is closed on Friday.",
    ]
    assert reference_claims("The phone comes in red, blue and green.") == [
        "The phone comes in red.",
        "The phone comes in blue.",
        "The phone comes in green.",
    ]
    # a verb whose own object comes before the preposition: the items are its objects,
    # and an item holding "for" is no short noun phrase, so the sentence stays whole
    # a list in a clause of its own, after a semicolon
    assert reference_claims(
        "The office opened in 1998; it is closed on Monday, Tuesday and Friday."
    ) == [
        "The office opened in 1998",
        "it is closed on Monday.",
        "it is closed on Tuesday.",
        "it is closed on Friday.",
    ]
    tripod = "The kit includes a tripod for travel, a bag and a strap."
    assert reference_claims(tripod) == [tripod]
    chunk = "The phone comes in red and in blue."
    verdicts = [
        v.verdict
        for v in attribute(
            reference_claims("The phone comes in red, blue and green."), [chunk]
        ).verdicts
    ]
    assert verdicts == ["yes", "yes", "no"]


@pytest.mark.parametrize(
    "text",
    [
        "Two lists: a, b and c.",
        "The fund holds 1,000, 2,000 or 3,000 shares.",  # numbers with commas
        "The office is in Lyon, France.",  # two parts, no list
        "He moved to Lyon, opened a bakery and won a prize.",  # clauses, not noun phrases
        "The kit has (a tripod, a bag and a strap).",  # inside brackets
        'The label says "tripod, bag and strap".',  # inside quotes
        "The kit does not include a tripod, a bag or a strap.",  # a denied list
        "If the lid does not close, replace the seal, the hinge or the whole lid.",
        "The kit was designed by Ann Lee, a Leeds graduate and keen photographer.",  # apposition
        "It shipped on May 3, 2021, June 4, 2022 and July 5.",  # dates
        "The kit includes tripods that fold, bags that float and straps.",  # clauses
        '{"kit": "tripod, bag and strap"}',  # a JSON-like record
        "套装包括三脚架、镜头、背包和保修。",  # a CJK 、 list stays whole
        "The kit includes a very sturdy folding aluminium tripod, a bag and a strap.",  # long
    ],
)
def test_what_is_not_read_as_a_list(text: str) -> None:
    assert reference_claims(text) == [text]


@pytest.mark.parametrize(
    ("claim_side", "chunk_side"),
    [
        ("from", "before"),
        ("since", "before"),
        ("starting", "before"),
        ("from", "until"),
        ("until", "from"),
        ("until", "after"),
        ("after", "until"),
        ("before", "from"),  # the direction that was already read
        ("after", "before"),
    ],
)
def test_a_date_on_the_other_side_is_a_contradiction(claim_side: str, chunk_side: str) -> None:
    rule = "The discount scheme runs {} 3 March 2025."
    v = verify([rule.format(claim_side)], [rule.format(chunk_side)]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert (
        f"the claim says '{claim_side} 3 March 2025' where the chunk says '{chunk_side}" in v.reason
    )


@pytest.mark.parametrize(
    ("claim_side", "chunk_side"),
    [
        ("from", "on and after"),
        ("from", "starting"),
        ("starting", "from"),
        ("since", "from"),
        ("from", "after"),
        ("after", "from"),
        ("until", "before"),
        ("before", "until"),
        ("from", "on"),  # a period may start on that day
        ("until", "on"),
    ],
)
def test_a_date_on_the_same_side_is_no_contradiction(claim_side: str, chunk_side: str) -> None:
    rule = "The discount scheme runs {} 3 March 2025."
    v = verify([rule.format(claim_side)], [rule.format(chunk_side)]).verdicts[0]
    assert v.verdict != "no", v.reason


def test_a_date_side_needs_the_same_date() -> None:
    chunk = "The discount scheme runs from 3 March 2025 until 30 June 2025."
    for claim in (
        "The discount scheme runs from 3 March 2025.",
        "The discount scheme runs until 30 June 2025.",
    ):
        assert verify([claim], [chunk]).verdicts[0].verdict == "yes"


def row_relevance(question: str, reference: str, chunks: list[str], **kw: bool) -> list[str]:
    out = ask(
        Task(
            "judge_chunks",
            "context_precision",
            question=question,
            text=reference,
            items=tuple(Item(i, c) for i, c in enumerate(chunks)),
        ),
        OfflineJudge(**kw),
    )
    assert isinstance(out, Verdicts)
    return [v.verdict for v in out.verdicts]


_TIERS = [
    "The Basic tier allows up to 5 projects and 2 GB of files.",
    "The Plus tier allows up to 50 projects and 20 GB of files.",
]


def test_a_chunk_of_another_row_is_not_relevant() -> None:
    # it lacks the name the question asks about and gives another figure
    question, reference = "How many projects does Plus allow?", "Plus allows up to 50 projects."
    assert row_relevance(question, reference, _TIERS) == ["no", "yes"]
    assert row_relevance(question, reference, _TIERS, row_names=False) == ["yes", "yes"]
    out = ask(
        Task(
            "judge_chunks",
            "context_precision",
            question=question,
            text=reference,
            items=(Item(0, _TIERS[0]),),
        )
    )
    assert isinstance(out, Verdicts)
    assert "lacks 'Plus'" in out.verdicts[0].reason and "gives 2, 5" in out.verdicts[0].reason


@pytest.mark.parametrize(
    ("question", "reference", "chunk"),
    [
        # the chunk names the row: relevant even with another figure
        ("How many projects does Plus allow?", "Plus allows up to 50 projects.", _TIERS[1]),
        # the same figure: the chunk may say it of the row in other words
        (
            "How many projects does Plus allow?",
            "Plus allows up to 50 projects.",
            "The mid-priced tier allows up to 50 projects.",
        ),
        # the reference has no number, or the question no name
        ("How many projects does Plus allow?", "Plus allows many projects.", _TIERS[0]),
        ("How many projects does the mid tier allow?", "It allows 50 projects.", _TIERS[1]),
    ],
)
def test_a_chunk_that_may_be_the_row_keeps_its_relevance(
    question: str, reference: str, chunk: str
) -> None:
    assert row_relevance(question, reference, [chunk]) == ["yes"]


def test_a_contradiction_below_the_bar_leads_with_its_cause() -> None:
    chunk = "Loratadine 10 mg. Adults and children 6 years and over: 1 tablet once daily."
    v = verify(["Take 1 tablet once daily for 14 days."], [chunk]).verdicts[0]
    assert v.verdict == "no", v.reason
    assert v.reason.startswith("contradicted: number 14 not found (the chunk has 6, 10); ")
    assert v.reason.endswith("(55% needed for support)")


@pytest.mark.parametrize(
    "chunk",
    [
        "Children 6 years and over can use the spray.",
        "Children aged 6 years can use the spray.",
        "Children 6 years of age or older can use the spray.",
        "A 6-year-old child can use the spray.",
        "Children 6 years old can use the spray.",
    ],
)
def test_an_age_is_no_duration(chunk: str) -> None:
    v = verify(["Children can use the spray for 14 days."], [chunk]).verdicts[0]
    assert "where the chunk says '6 years" not in v.reason, v.reason
    assert "6-year" not in v.reason


def test_a_duration_is_still_compared_with_a_duration() -> None:
    chunk = "Children can use the spray for 6 years."
    v = verify(["Children can use the spray for 14 days."], [chunk]).verdicts[0]
    assert "the claim says '14 days' where the chunk says '6 years'" in v.reason


def test_fractions_are_read_as_their_value() -> None:
    from ragnotebook.text import normalize, numbers

    # "1½" was read as the numbers 11 and 2, "3/4 cup" as 3 and 4
    assert numbers("Stir in 1½ tsp of baking powder.") == {"1.5"}
    assert numbers("Add ¾ cup of walnuts and 1 1/2 cups of flour.") == {"0.75", "1.5"}
    assert numbers("Use 1⁄3 cup of oil.") == {"0.333"} == numbers("Use 1/3 cup of oil.")
    assert numbers("Cut from 3/4-inch plywood; a 1/2 hour break.") == {"0.75", "0.5"}
    # a slash that measures nothing stays as written: dates, tallies, lists, ratios, a
    # whole number before a hyphenated unit (8½ inches, or eight half-inch slices?)
    for text in (
        "Vote date: 3/4.",
        "The sale ends 2/14.",
        "He went 3/4 from the line.",
        "Pain of 7/10.",
        "Read chapters 3/4.",
        "The v1/2 endpoints.",
        "Windows 10/11 only.",
        "Open 24/7 since 03/04/2020.",  # a date whose order is unknown (see the date test)
        "A 16/9 screen, rated 4.5/5.",
        "Cut the loaf into 8 1/2-inch slices.",
        "Makes 4 1/2-cup servings.",
    ):
        assert normalize(text) == text, text
    v = verify(["Stir in 1.5 teaspoons of baking powder."], ["Stir in 1½ tsp of baking powder."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    ctx = ["Stir in 1½ tsp of baking powder."]
    for wrong in ("Stir in 11 tsp of baking powder.", "Stir in 2 tsp of baking powder."):
        v = verify([wrong], ctx).verdicts[0]
        assert v.verdict == "no" and "the chunk has 1.5" in v.reason, (wrong, v.reason)
    v = verify(["Add 4/3 cup of chopped walnuts."], ["Add 3/4 cup of chopped walnuts."])
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason
    # the reason names the amount as a number, not its digits
    v = verify(["Set it back 1/4 inch."], ["Set the stop back 1/4 inch from the jamb."])
    assert v.verdicts[0].verdict == "yes" and "number 0.25 found" in v.verdicts[0].reason
    # a tally, a list or a date with a slash is no fraction: "3 and 4" still matches it,
    # and "2/4" is not "4/8"
    for claim, chunk in (
        (
            "Students should read chapters 3 and 4 before the exam.",
            "Read chapters 3/4 before the exam.",
        ),
        ("She teaches a combined grade 5 and 6 class.", "She teaches a combined grade 5/6 class."),
        ("The student scored 14 out of 16 on the quiz.", "The student scored 14/16 on the quiz."),
    ):
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    v = verify(["The deadline is 2/4."], ["The deadline is 4/8."]).verdicts[0]
    assert v.verdict == "no", v.reason


def test_half_a_dozen_is_six_and_cups_are_a_unit() -> None:
    v = verify(["This recipe makes half a dozen muffins."], ["This recipe makes 12 muffins."])
    assert v.verdicts[0].verdict == "no" and "the chunk has 12" in v.verdicts[0].reason
    v = verify(["This recipe makes half a dozen muffins."], ["This recipe makes 6 muffins."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    v = verify(["Add ¾ teaspoon of chopped walnuts."], ["Add ¾ cup of chopped walnuts."])
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason
    assert "'teaspoon' where the chunk says 'cup'" in v.verdicts[0].reason


def test_raised_lowered_expanded_contracted_are_a_rise_and_a_fall() -> None:
    pairs = [
        (
            "The company lowered its full-year revenue guidance to $16.5-17.0 billion.",
            "The company raised its full-year revenue guidance to $16.5-17.0 billion.",
        ),
        (
            "Operating margin expanded 80 basis points to 21.4%.",
            "Operating margin contracted 80 basis points to 21.4%.",
        ),
        ("The spread widened to 40 basis points.", "The spread narrowed to 40 basis points."),
        ("The bank cut its rate to 4%.", "The bank raised its rate to 4%."),
    ]
    for claim, ctx in pairs:
        for a, b in ((claim, ctx), (ctx, claim)):
            v = verify([a], [b]).verdicts[0]
            assert v.verdict == "no", (a, b, v.reason)
    # the same direction, other words: supported
    claim = "The company raised its full-year revenue guidance to $17 billion."
    v = verify([claim], ["The company increased its full-year revenue guidance to $17 billion."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_hiked_slashed_soared_plunged_are_a_rise_and_a_fall_of_the_same_thing() -> None:
    pairs = [
        (
            "The airline hiked its fares by 10% in June.",
            "In June the airline slashed its fares by 10%.",
        ),
        ("Shares of Acme soared after the report.", "Shares of Acme plummeted after the report."),
        ("Profits doubled last year.", "Profits halved last year."),
        ("Sales dipped in March.", "Sales jumped in March."),
        ("The bank boosted its dividend.", "The bank trimmed its dividend."),
    ]
    for claim, ctx in pairs:
        for a, b in ((claim, ctx), (ctx, claim)):
            v = verify([a], [b]).verdicts[0]
            assert v.verdict == "no", (a, b, v.reason)
    v = verify(["The airline hiked its fares."], ["The airline slashed its fares."]).verdicts[0]
    assert "the claim says 'hiked' where the chunk says 'slashed'" in v.reason
    # other senses, or the other verb acting on something else: no opposite
    for claim, ctx in (
        (
            "The team hiked the Pacific Crest Trail in May.",
            "In May the team cut the ribbon and hiked the Pacific Crest Trail.",
        ),
        (
            "He climbed Mount Rainier in 2019.",
            "He climbed Mount Rainier in 2019 after his income dipped.",
        ),
        ("The ferry sank in 1912.", "The ferry sank in 1912; ticket prices had climbed that year."),
        (
            "The bank trimmed its dividend.",
            "The bank trimmed its dividend and boosted its buyback.",
        ),
        ("The garage doubles as a studio.", "The garage doubles as a studio and the rent dipped."),
    ):
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)


def test_an_amount_in_another_unit_of_its_kind_is_the_same_amount() -> None:
    from ragnotebook.text import measures

    same = [
        (
            "Do not exceed 4000 mg of paracetamol in 24 hours.",
            "Do not exceed 4 g of paracetamol in 24 hours.",
        ),
        (
            "The board declared a quarterly dividend of 25 cents per share.",
            "The board declared a quarterly dividend of $0.25 per share.",
        ),
        (
            "Free cash flow was $0.61 billion, up from $0.54 billion.",
            "Free cash flow was $610 million, up from $540 million.",
        ),
        (
            "Headcount was about 52 thousand at quarter end.",
            "Headcount was about 52,000 at quarter end.",
        ),
        (
            "Gross margin expanded 1.5 percentage points to 43.5%.",
            "Gross margin expanded 150 bps to 43.5%.",
        ),
        ("The bottle holds 1.5 litres of water.", "The bottle holds 1500 ml of water."),
        (
            "The journey from Paris to Lyon takes 130 minutes.",
            "The journey from Paris to Lyon takes 2 hours and 10 minutes.",
        ),
    ]
    for claim, ctx in same:
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    v = verify([same[0][0]], [same[0][1]]).verdicts[0]
    assert "4000 mg is 4 g" in v.reason
    # a length in two parts, on the claim's side too
    ctx = ["The journey from Paris to Lyon takes 130 minutes."]
    v = verify(["The journey from Paris to Lyon takes 2 hours and 10 minutes."], ctx).verdicts[0]
    assert v.verdict == "yes" and "2 hours and 10 minutes is 130 minutes" in v.reason
    v = verify(["The journey from Paris to Lyon takes 2 hours and 15 minutes."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason
    # another amount stays a conflict, in either unit
    wrong = [
        (
            "Do not exceed 400 mg of paracetamol in 24 hours.",
            "Do not exceed 4 g of paracetamol in 24 hours.",
        ),
        (
            "The board declared a quarterly dividend of 52 cents per share.",
            "The board declared a quarterly dividend of $0.25 per share.",
        ),
        ("Free cash flow was $6.1 billion.", "Free cash flow was $610 million."),
        (
            "The journey from Paris to Lyon takes 120 minutes.",
            "The journey from Paris to Lyon takes 2 hours and 10 minutes.",
        ),
    ]
    for claim, ctx in wrong:
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "no", (claim, v.reason)
    # a dose per kilogram, a concentration and a year are no such amounts
    assert measures("10 mg/kg twice daily, 130 g/L, in 2024") == []
    assert [p for _, p, _ in measures("1 hour and 12 minutes")] == []  # durations: their own


def test_a_paragraph_repeated_in_a_chunk_is_no_long_document() -> None:
    # a chunk that repeats its paragraph (a scraped page, overlapping chunks) was read as
    # a long document, whose stricter wording bar turned a supported claim `unsure`
    sentence = "The warehouse in Lyon stores 4,000 pallets of paper. "
    for times in (1, 20, 400):
        v = verify(["The pallets are in Lyon."], [sentence * times]).verdicts[0]
        assert v.verdict == "yes", (times, v.reason)
    # twenty different sentences still make a long document
    varied = " ".join(f"Hall {i} of the depot keeps crates of item {i}." for i in range(25))
    v = verify(["The pallets are in Lyon."], [sentence + varied]).verdicts[0]
    assert v.verdict == "unsure" and "35% in a long document needed" in v.reason, v.reason


def test_mockjudge_fallback_warns_once_when_a_list_script_runs_out() -> None:
    import warnings

    import pandas as pd

    frame = pd.DataFrame(
        {
            "question": ["q1", "q2", "q3"],
            "answer": ["A one.", "B two.", "C three."],
            "contexts": [["A one."], ["B two."], ["C three."]],
        }
    )
    judge = ragnotebook.MockJudge(
        extract_claims=[["A one."], ["B two."]], fallback=ragnotebook.OfflineJudge()
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = frame.rag.evaluate(model=judge, metrics=["faithfulness"], progress=False)
    assert out.faithfulness.tolist() == [1.0, 1.0, 1.0]
    # one warning, for the kind whose list ran out; none for the unscripted verify_claims
    assert [str(w.message) for w in caught if "MockJudge" in str(w.message)] == [
        "MockJudge: the script for 'extract_claims' ran out after 2 replies; the fallback "
        "judge answers the rest of its tasks"
    ]


def test_midnight_and_noon_are_clock_times() -> None:
    ctx = ["The last ferry leaves at 00:00."]
    v = verify(["The last ferry leaves at midnight."], ctx).verdicts[0]
    assert v.verdict == "yes" and "number 0:00 found" in v.reason, v.reason
    v = verify(["The last ferry leaves at midnight."], ["The last ferry leaves at 23:30."])
    assert v.verdicts[0].verdict == "no" and "(the chunk has 23:30)" in v.verdicts[0].reason
    v = verify(["The shop is open until noon."], ["The shop is open until 12 pm."]).verdicts[0]
    assert v.verdict == "yes", v.reason
    v = verify(["The shop is open until noon."], ["The shop is open until 2 pm."]).verdicts[0]
    assert v.verdict == "no" and "number 12:00 not found (the chunk has 14:00)" in v.reason


def test_rise_and_fall_verbs_of_other_senses_are_no_opposites() -> None:
    # "raised", "cut", "contracted", "narrowed", "expanded", "lowered" have other senses:
    # they are a rise or a fall of the claim's thing only when they act on the same word
    pairs = [
        (
            "The city raised $2 million for the memorial.",
            "The city lowered its flags to half-mast and collected $2 million for the memorial.",
        ),
        (
            "Acme increased its prices by 4% in May.",
            "Acme, a contracted supplier, put its prices up by 4% in May.",
        ),
        (
            "The player contracted COVID-19 and missed two games.",
            "The player missed two games after testing positive for COVID-19, which raised "
            "questions about the team's protocols.",
        ),
        (
            "The team cut a deal with the sponsor.",
            "The team agreed a deal with the sponsor, which raised its stake to 20%.",
        ),
        (
            "Baxter Ltd was contracted to build the bridge.",
            "Baxter Ltd won the contract to build the bridge after the council raised its budget.",
        ),
        (
            "Smith was raised in Ohio.",
            "Born in Dayton, Smith cut her first record in 1998 after a childhood in Ohio.",
        ),
    ]
    for claim, ctx in pairs:
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict != "no", (claim, v.reason)
    # on the same word they are a rise and a fall
    v = verify(["The bank cut its rate to 4%."], ["The bank raised its rate to 4%."])
    assert v.verdicts[0].verdict == "no" and "says 'cut' where the chunk says 'raised'" in (
        v.verdicts[0].reason
    )
    ctx = ["The credit spread on the bonds narrowed sharply."]
    v = verify(["The credit spread on the bonds widened sharply."], ctx).verdicts[0]
    assert v.verdict == "no", v.reason  # the same word after each verb


def test_a_converted_amount_is_not_taken_from_another_figure_of_the_sentence() -> None:
    # the sentence gives more amounts of the kind than the claim: one of them belongs to
    # something else ("the maximum single dose", "the larger one", "the nine-month total")
    for claim, ctx in (
        ("The adult dose is 1 g.", "The adult dose is 500 mg; the maximum single dose is 1000 mg."),
        ("The bottle holds 1 litre.", "The bottle holds 750 ml; the larger one holds 1000 ml."),
        (
            "Q3 revenue was $1.2 billion.",
            "Q3 revenue was $950 million, bringing the nine-month total to $1,200 million.",
        ),
    ):
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict != "yes" and " is " not in v.reason.split("; ")[-1], (claim, v.reason)
    # one amount each: converted, and said once
    v = verify(["Revenue was $1.2 billion."], ["Revenue was $1,200 million."]).verdicts[0]
    assert v.verdict == "yes" and v.reason.endswith("; $1.2 billion is $1,200 million"), v.reason


def test_a_scale_short_form_after_a_currency_sign_is_its_word() -> None:
    from ragnotebook.text import normalize

    assert normalize("It raised $5m, then £3.4bn at a $750k fee.") == (
        "It raised $5 million, then £3.4 billion at a $750 thousand fee."
    )
    # not without a currency sign: "5m" may be metres, "10k" a race
    assert normalize("A 5m pool and a 10k run.") == "A 5m pool and a 10k run."
    v = verify(["The startup raised $5 billion."], ["The startup raised $5m."]).verdicts[0]
    assert v.verdict == "no" and "says 'billion' where the chunk says 'million'" in v.reason
    v = verify(["The deal was worth $2.3 billion."], ["The deal was worth $2,300m."]).verdicts[0]
    assert v.verdict == "yes" and "$2.3 billion is $2,300 million" in v.reason


def test_a_count_of_dozens_decades_or_centuries_is_its_value() -> None:
    from ragnotebook.text import numbers

    assert numbers("He scored two dozen league goals.") == {"24"}  # was 2 and 12
    assert numbers("The bakery closed after three decades.") == {"30"}
    assert numbers("The bridge stood for half a century.") == {"50"}
    # no count, or a count of one (a round figure): nothing is read
    assert numbers("Dozens of people came in the last decade, for over a century.") == set()
    same = [
        ("Okafor scored two dozen league goals.", "Okafor scored 24 league goals."),
        ("The bakery closed after three decades.", "The bakery closed after 30 years."),
        ("The bakery closed after 30 years.", "The bakery closed after three decades."),
    ]
    for claim, ctx in same:
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    v = verify(["The bakery closed after two decades."], ["The bakery closed after 30 years."])
    assert v.verdicts[0].verdict == "no" and "number 20 not found" in v.verdicts[0].reason


def test_a_country_adjective_is_found_where_the_chunk_names_the_country() -> None:
    for claim, ctx in (
        ("A Tanzanian trial enrolled 400 mothers.", "A trial in Tanzania enrolled 400 mothers."),
        ("The Finnish firm cut 200 jobs.", "The firm, based in Finland, cut 200 jobs."),
        ("He has offers from Belgian clubs.", "He has offers from clubs in Belgium."),
    ):
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "yes" and "not found" not in v.reason, (claim, v.reason)
    # one way only: a chunk's adjective does not place anything in the country
    v = verify(
        ["The society was founded in Italy."],
        ["The Italian society was founded in Melbourne."],
    ).verdicts[0]
    assert v.verdict != "yes", v.reason


def test_a_count_of_another_thing_is_no_conflict_of_the_claims_count() -> None:
    # "35 people" is said of the rescued, not of the 240 evacuated residents
    v = verify(
        ["The firm employs 2,300 people."],
        ["The firm employs 2,300 staff. Fire crews rescued 35 people."],
    ).verdicts[0]
    assert v.verdict == "yes", v.reason
    # the other count in a sentence about the claim's thing still conflicts
    v = verify(
        ["Children may take 12 tablets a day."],
        ["Not for children under 12 years. Children may take not more than 8 tablets a day."],
    ).verdicts[0]
    assert v.verdict == "no" and "the claim says '12 tablets' where the chunk says '8 tablets'" in (
        v.reason
    )


def test_comparatives_of_the_same_scale_are_opposites() -> None:
    pairs = [
        ("The new Z90 is heavier than the Z80.", "The new Z90 is lighter than the Z80."),
        (
            "Regional trains performed worse than last year.",
            "Regional trains performed better than last year.",
        ),
        ("The winter was colder than average.", "The winter was warmer than average."),
        ("She ran faster in the final.", "She ran slower in the final."),
        ("The euro grew stronger in May.", "The euro grew weaker in May."),
    ]
    for claim, ctx in pairs:
        for a, b in ((claim, ctx), (ctx, claim)):
            v = verify([a], [b]).verdicts[0]
            assert v.verdict == "no", (a, b, v.reason)
    v = verify(
        ["The team played better after the break."],
        ["The team played better after the break, though its defence looked weaker."],
    ).verdicts[0]
    assert v.verdict == "yes", v.reason


def test_a_share_of_a_group_is_not_all_of_it() -> None:
    for claim, ctx, said in (
        (
            "Every artist made a loss on their show.",
            "A survey found that 58% of artists had made a loss on their show.",
            "the claim says 'every' where the chunk says '58% of'",
        ),
        (
            "All of the staff received a bonus.",
            "40 percent of the staff received a bonus.",
            "the claim says 'all' where the chunk says '40 percent of'",
        ),
    ):
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "no" and said in v.reason, (claim, v.reason)
    # a share is implied by "most", and a sentence that says "all" too backs "all"
    for claim, ctx in (
        ("Most artists made a loss.", "58% of artists made a loss."),
        ("All shops closed at 5 pm.", "All shops closed at 5 pm, and 20% of them reopened later."),
    ):
        v = verify([claim], [ctx]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)


def test_words_given_to_another_named_speaker_are_unsure() -> None:
    ctx = [
        "Mayor Miro Weinberger welcomed the plan. School board chair Clare Wool said the new "
        "school would open in autumn 2025."
    ]
    v = verify(["According to Mayor Miro Weinberger, the school will open in autumn 2025."], ctx)
    assert v.verdicts[0].verdict == "unsure"
    assert (
        "the chunk at rank 1 gives these words to 'Clare Wool', not to 'Mayor Miro Weinberger'"
        in v.verdicts[0].reason
    )
    v = verify(["According to Clare Wool, the new school will open in autumn 2025."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    quote = [
        "Finance director Aisha Rahman presented the accounts. 'Our costs finally came down,' "
        "chief executive Martin Crowe said."
    ]
    v = verify(["Finance director Aisha Rahman said costs had finally come down."], quote)
    assert v.verdicts[0].verdict == "unsure" and "to 'Martin Crowe'" in v.verdicts[0].reason
    # the same person under a longer name, or a pronoun for the speaker: no other speaker
    for claim, chunk in (
        (
            "Professor Daniel Chen of MIT said the planet was probably too hot for liquid water.",
            "Co-author Professor Daniel Chen of the Massachusetts Institute of Technology said "
            "the planet was probably too hot for liquid water.",
        ),
        (
            "Fiona Marsh said the bridge would reopen in May.",
            "Fiona Marsh runs the council's roads team. The bridge would reopen in May, she said.",
        ),
    ):
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)


@pytest.mark.parametrize(
    ("claim", "chunk"),
    [
        ("No pets are allowed in the hotel.", "Pets are allowed in the hotel."),
        ("No refunds are given after 30 days.", "Refunds are given after 30 days."),
        ("Nobody was injured in the crash.", "Three people were injured in the crash."),
    ],
)
def test_a_claim_opening_with_no_is_a_denial_not_a_name(claim, chunk) -> None:
    # "No" opening the claim was taken for a name the chunk does not give, and a
    # sentence "of another name" cannot contradict: the denial passed as yes
    v = verify([claim], [chunk]).verdicts[0]
    assert v.verdict == "no"
    assert "negation in the claim only" in v.reason
    assert verify([claim], [claim]).verdicts[0].verdict == "yes"


def test_korean_an_ending_a_word_is_no_negation() -> None:
    # 해안 ("coast") ends in 안, which alone is a negation word: a faithful claim was "no"
    assert (
        verify(["부산은 해안 도시이다."], ["부산은 한국 남동쪽 해안에 있는 도시이다."])
        .verdicts[0]
        .verdict
        == "yes"
    )
    v = verify(
        ["정부가 공항 터미널을 발주했다."],
        ["아프리카 서해안 국가의 정부가 공항 터미널을 발주했다."],
    )
    assert v.verdicts[0].verdict == "yes"
    assert verify(["그는 학교에 안 갔다."], ["그는 학교에 갔다."]).verdicts[0].verdict == "no"


def test_a_clause_after_although_keeps_its_own_polarity() -> None:
    chunk = (
        "The original recipe uses cream that has not been whipped, although drinks made with "
        "whipped cream are often sold as Irish coffee."
    )
    claim = "Drinks made with whipped cream are often sold as Irish coffee."
    assert verify([claim], [chunk]).verdicts[0].verdict == "yes"
    denied = "The original recipe uses cream that has been whipped."
    assert verify([denied], [chunk]).verdicts[0].verdict == "no"


def test_a_chunks_ordinal_in_words_is_its_number() -> None:
    chunk = "The team reached the finals for the seventh year in a row."
    v = verify(["They reached the finals seven years in a row."], [chunk]).verdicts[0]
    assert v.verdict == "yes" and "number 7 found" in v.reason
    wrong = verify(["They reached the finals eight years in a row."], [chunk]).verdicts[0]
    assert wrong.verdict != "yes" and "number 8 not found" in wrong.reason


# --------------------------------------------------------------------------- text fixes (u154)


def test_thousands_grouped_with_spaces_or_dots_are_one_number() -> None:
    from ragnotebook.text import normalize

    # "50 000" was read as the numbers 50 and 0, so a faithful claim was contradicted
    for text in ("50 000", "50\u00a0000", "50\u202f000", "50,000"):
        assert numbers(f"The stadium holds {text} people.") == {"50000"}, text
    assert numbers("The city has 1\u202f200\u202f000 residents.") == {"1200000"}
    assert numbers("The city has 1 200 000 residents.") == {"1200000"}
    assert numbers("The city has 1.200.000 residents.") == {"1200000"}
    # not a group: a year before a count, one dot group (a decimal), a version
    assert numbers("In 1998 200 people came.") == {"1998", "200"}
    assert numbers("It holds 50.000 people.") == {"50"}
    assert numbers("Since v1.200.300 it works.") == {"1.200.300"}
    assert normalize("Call 555 123 4567 or 12 345 678.") == "Call 555 123 4567 or 12,345,678."
    ctx = ["The stadium holds 50,000 people."]
    for claim in ("The stadium holds 50 000 people.", "The stadium holds 50\u202f000 people."):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes", (claim, v.reason)
    v = verify(["The stadium holds 50,000 people."], ["The stadium holds 50 000 people."])
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    v = verify(["The stadium holds 60 000 people."], ctx).verdicts[0]
    assert v.verdict == "no" and "60000" in v.reason, v.reason


def test_dates_in_figures_and_short_month_names_read_as_written_dates() -> None:
    from ragnotebook.text import normalize

    assert normalize("Signed 2020-03-03.") == "Signed March 3, 2020."
    assert normalize("Signed Mar. 3, 2020.") == "Signed March 3, 2020."
    assert normalize("Signed 3 Sept 2020.") == "Signed 3 September 2020."
    # day-first or month-first with slashes only where a part above 12 tells which
    assert normalize("Signed 03/13/2020.") == "Signed March 13, 2020."
    assert normalize("Signed 13/03/2020.") == "Signed 13 March 2020."
    for text in ("Signed 03/04/2020.", "The Mar Menor lagoon.", "At 2020-03-03T10:00."):
        assert normalize(text) == text
    ctx = ["The law was signed on 3 March 2020."]
    for claim in (
        "The law was signed on 2020-03-03.",
        "The law was signed on Mar. 3, 2020.",
        "The law was signed on March 3, 2020.",
        "The law was signed on 03/03/2020.",
    ):
        v = verify([claim], ctx).verdicts[0]
        assert v.verdict == "yes" and "month" not in v.reason, (claim, v.reason)
    # a wrong day in figures conflicts as a wrong day in words does
    for claim, chunk in (
        ("The law was signed on 2020-03-04.", "The law was signed on 2020-03-03."),
        ("The law was signed on 2020-03-04.", "The law was signed on March 3, 2020."),
        ("The law was signed on 03/14/2020.", "The law was signed on 13 March 2020."),
    ):
        v = verify([claim], [chunk]).verdicts[0]
        assert v.verdict == "no", (claim, v.reason)


def test_a_figure_and_a_capital_is_a_name_not_a_number() -> None:
    assert numbers("It shows 4K video over 5G and prints 3D models since 2009.") == {"2009"}
    assert "3d" in content_tokens("a 3D printer")
    # units and amounts stay numbers
    assert numbers("It weighs 5g.") == {"5"}
    assert numbers("It costs $50K.") == {"50"}
    v = verify(["The printer makes 3 models."], ["The printer makes 3D models since 2009."])
    assert v.verdicts[0].verdict != "yes", v.verdicts[0].reason


def test_abbreviations_do_not_end_a_claim() -> None:
    # "approx." / "Max." / "hrs." ended sentences: "The bridge is approx." + "1.2 km long."
    assert extract("The bridge is approx. 1.2 km long. It carries approx. 50,000 cars a day.") == [
        "The bridge is approx. 1.2 km long.",
        "It carries approx. 50,000 cars a day.",
    ]
    assert extract("The drug is taken 2x daily, approx. 8 hrs. apart. Max. dose is 40 mg.") == [
        "The drug is taken 2x daily, approx. 8 hrs. apart.",
        "Max. dose is 40 mg.",
    ]
    assert extract("Vol. 2 is out. It costs approx. USD 5.") == [
        "Vol. 2 is out.",
        "It costs approx. USD 5.",
    ]
    # an abbreviation before a new sentence still ends its own
    assert extract("It took 3 hrs. Then the road opened.") == [
        "It took 3 hrs.",
        "Then the road opened.",
    ]
    # the number stays with what it measures: a wrong length is no longer supported, and
    # "approx." is a function word, as "about" is
    ctx = ["The bridge is 3 km long. The old pier is 1.2 km long."]
    v = verify(extract("The bridge is approx. 1.2 km long."), ctx)
    assert [x.verdict for x in v.verdicts] == ["unsure"], v.verdicts
    assert "gives 3, not 1.2" in v.verdicts[0].reason
    v = verify(extract("Revenue rose approx. 12% in 2023."), ["Revenue rose 21% in 2023."])
    assert [x.verdict for x in v.verdicts] == ["no"], v.verdicts


def test_a_quotation_ending_with_its_own_full_stop_stays_in_its_sentence() -> None:
    from ragnotebook.text import split_sentences

    assert split_sentences("彼は「明日行きます。」と言った。") == (
        "彼は「明日行きます。」と言った。",
    )
    assert split_sentences("彼は『明日行きます。』と言った。") == (
        "彼は『明日行きます。』と言った。",
    )
    assert split_sentences("그는 “내일 갈게요.”라고 말했다.") == (
        "그는 “내일 갈게요.”라고 말했다.",
    )
    assert split_sentences("“我们明天出发。”他说。") == ("“我们明天出发。”他说。",)
    # a Chinese quotation that ends its sentence still does; an opening quote stays put
    assert split_sentences("他说「我们明天出发。」然后走了。") == (
        "他说「我们明天出发。」",
        "然后走了。",
    )
    assert split_sentences('He left. "Bye," she said.') == ("He left.", '"Bye," she said.')


def test_markdown_layout_citations_and_chatter_are_not_claims() -> None:
    from ragnotebook.text import split_claims

    assert split_claims(
        "## Summary\nThe merger closed in Q3 2021.\n\n### Details\nRevenue grew 12% in 2022."
    ) == ["The merger closed in Q3 2021.", "Revenue grew 12% in 2022."]
    assert split_claims("Summary\nThe merger closed in Q3 2021.") == [
        "The merger closed in Q3 2021."
    ]
    assert split_claims("**Key points**\nThe merger closed in Q3 2021.") == [
        "The merger closed in Q3 2021."
    ]
    # a one-word line that may be the answer stays
    assert split_claims("Paris\nIt is the capital of France.") == [
        "Paris",
        "It is the capital of France.",
    ]
    assert split_claims("Install it:\n```bash\npip install requests\n```") == [
        "pip install requests"
    ]
    # a table: the header row and the rule are layout, a row is read as its cells
    table = "| Plan | Price |\n|------|-------|\n| Basic | $5/month |\n| Pro | $10/month |"
    assert split_claims(table) == ["Basic, $5/month", "Pro, $10/month"]
    assert split_claims("Water boils at 100 °C.[^1]\n\n[^1]: At 1 atm pressure.") == [
        "Water boils at 100 °C.",
        "At 1 atm pressure.",
    ]
    assert split_claims("**Answer:** The capital of France is Paris.") == [
        "The capital of France is Paris."
    ]
    for text in (
        "It flows into the Black Sea (Source 1, Source 3).",
        "It flows into the Black Sea【2†source】.",
        "It flows into the Black Sea [Doc 2; Doc 5].",
        "It flows into the Black Sea (passages 1 and 2).",
    ):
        assert split_claims(text) == ["It flows into the Black Sea."], text
    # the years of a range with a semicolon are not read as sources either
    # (and the semicolon inside the brackets joins no clauses)
    assert split_claims("He drummed for Rage (1991-2000; 2007-11) and Audioslave.") == [
        "He drummed for Rage (1991-2000; 2007-11) and Audioslave."
    ]
    assert extract("Sure! Here's what I found: the dam was built in 1936.") == [
        "the dam was built in 1936."
    ]
    assert extract("I can help you with that! The shop opens at 9 am. Good luck!") == [
        "The shop opens at 9 am."
    ]
    # a hedge is dropped and the claim after it kept; "I'm not entirely sure." is no claim
    assert extract("I think the bridge opened in 1937, but I'm not entirely sure.") == [
        "the bridge opened in 1937"
    ]
    assert extract("I believe that the fee is 10 euros.") == ["the fee is 10 euros."]
    assert extract("I think he did.") == ["I think he did."]  # nothing to keep after it


def test_the_context_provided_does_not_specify_is_a_refusal() -> None:
    for text in (
        "Unfortunately, the context provided does not specify the exact date. You may want "
        "to check the official website.",
        "The documents provided do not give the price.",
        "I'm not entirely sure.",
    ):
        assert extract(text) == [], text
    # a report that does not give a date is a fact about the report
    assert extract("The report does not specify a date for the hearing.") == [
        "The report does not specify a date for the hearing."
    ]
    # a referral next to an answer stays a claim
    assert extract("The museum opened in 1998. You may want to check the official website.") == [
        "The museum opened in 1998.",
        "You may want to check the official website.",
    ]


def test_a_year_range_with_a_short_second_year_is_read_whole() -> None:
    from ragnotebook.text import normalize

    assert numbers("Rage Against the Machine ( 1991 -- 2000 ; 2007 -- 11 )") == {
        "1991",
        "2000",
        "2007",
        "2011",
    }
    assert normalize("the 2007-08 season") == "the 2007-2008 season"
    for text in ("the 1999-00 season", "In 2019 - 20 people came."):
        assert normalize(text) == text
    v = verify(
        ["He played for the band from 2007 to 2011."],
        ["He played for the band ( 1991 -- 2000 ; 2007 -- 11 )."],
    )
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason


def test_a_year_in_brackets_is_no_citation_and_brackets_hold_one_clause() -> None:
    from ragnotebook.text import split_claims

    # a bare citation index has at most three digits; a year in brackets is kept
    assert split_claims("Titanic (1997) was directed by James Cameron [2].") == [
        "Titanic (1997) was directed by James Cameron."
    ]
    assert split_claims("The fund grew in 2012 [1, 3].") == ["The fund grew in 2012."]
    # a wrong year in brackets is now checked
    ctx = ["Titanic (1997) is an epic film written and directed by James Cameron."]
    v = verify(["Titanic (1998) was directed by James Cameron."], ctx)
    assert v.verdicts[0].verdict != "yes" and "1998" in v.verdicts[0].reason
    v = verify(["Titanic (1997) was directed by James Cameron."], ctx)
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    # a semicolon inside brackets joins no clauses
    text = (
        "Brad Wilk drummed for Rage Against the Machine (1991-2000; 2007-11) and for "
        "Audioslave (2001-07) over many years."
    )
    assert split_claims(text) == [text]
    # a bracket never closed (an emoticon) protects nothing
    assert (
        len(
            split_claims(
                "The customers were unhappy :( with the long wait at the counter; "
                "the staff went home early and nobody answered the phones."
            )
        )
        == 2
    )
    # outside brackets it still does
    assert split_claims(
        "The museum (opened 1998) is large; it sits on Pier 4 near the harbor."
    ) == [
        "The museum (opened 1998) is large",
        "it sits on Pier 4 near the harbor.",
    ]


def test_the_top_of_a_rating_scale_is_no_figure_to_check() -> None:
    from ragnotebook.text import numbers

    assert numbers("It has a rating of 2.5 stars out of 5.") == {"2.5"}
    assert numbers("The hotel scored 8 out of 10 with guests.") == {"8"}
    assert numbers("Reviewers rated it 4.5 stars out of five, from 40 reviews.") == {"4.5", "40"}
    # a count out of a count is two figures
    assert numbers("Three out of five patients improved.") == {"3", "5"}
    assert numbers("4 out of 5 dentists agree.") == {"4", "5"}
    assert numbers("The hotel has 4.5/5 stars.") == numbers("rated 4.5 out of 5") == {"4.5"}
    assert numbers("Rated 8 Out Of 10 by critics.") == {"8"}
    # a count after a rating word keeps its whole: a noun follows the second figure
    assert numbers("A systematic review found that 3 out of 10 patients improved.") == {"3", "10"}
    assert numbers("Reviews show 7 out of 10 users prefer it.") == {"7", "10"}
    assert numbers("The team scored 3 points out of 10 attempts.") == {"3", "10"}
    # a date is no scale
    assert "10" in numbers("The review was published on 4/10/2021.")
    assert numbers("Scores were posted on 3/5.") == {"3", "5"}
    v = verify(
        ["A systematic review found that 3 out of 10 patients improved."],
        ["A systematic review found that 3 out of 12 patients improved."],
    )
    assert v.verdicts[0].verdict == "no", v.verdicts[0].reason
    v = verify(
        ["The hotel has 4.5/5 stars."], ["The hotel has a rating of 4.5 out of 5 from guests."]
    )
    assert v.verdicts[0].verdict == "yes", v.verdicts[0].reason
    ctx = ['{"name": "Holdren\'s Grill", "stars": 2.5, "review_count": 40}']
    v = verify(["Holdren's Grill has an overall rating of 2.5 stars out of 5."], ctx)
    assert "number 5 not found" not in v.verdicts[0].reason
    assert "number 2.5 found" in v.verdicts[0].reason
    v = verify(["Holdren's Grill has an overall rating of 3.5 stars out of 5."], ctx)
    assert v.verdicts[0].verdict != "yes" and "number 3.5 not found" in v.verdicts[0].reason
