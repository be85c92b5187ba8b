"""Scoring rules without any model: rounding, average precision, verdict alignment."""

import math

import pytest

from ragnotebook.scorers._common import (
    ScorerConfig,
    align_verdicts,
    normalise_verdict_word,
    round_half_up,
)
from ragnotebook.scorers.context_precision import average_precision
from ragnotebook.tasks import Item, Verdict, Verdicts


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2 / 3, 0.67),
        (1 / 3, 0.33),
        (5 / 6, 0.83),
        (0.835, 0.84),
        (0.125, 0.13),
        (7 / 12, 0.58),
        (0.0, 0.0),
        (1.0, 1.0),
        (0.005, 0.01),
        (0.145, 0.15),
    ],
)
def test_round_half_up_matches_reference(value, expected):
    assert round_half_up(value) == expected


def test_round_half_up_differs_from_bankers_rounding():
    assert round(0.125, 2) == 0.12  # Python's rule
    assert round_half_up(0.125) == 0.13  # the reference's rule


def test_round_none_keeps_exact_and_nan_passes():
    assert round_half_up(2 / 3, None) == 2 / 3
    assert math.isnan(round_half_up(math.nan))
    assert round_half_up(2 / 3, 3) == 0.667


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ([True, False, True, False], 0.83),
        ([False, True], 0.5),
        ([True, False], 1.0),
        ([False, False, True], 0.33),
        ([False, True, True], 0.58),
        ([False, False], 0.0),
        ([True, True, True], 1.0),
        ([False] * 6 + [True] + [False] * 5, 0.14),
    ],
)
def test_average_precision_worked_examples(flags, expected):
    ap, curve = average_precision(flags)
    assert round_half_up(ap) == expected
    assert len(curve) == len(flags)


def test_precision_at_k_curve_values():
    _, curve = average_precision([False, True, True, False])
    assert curve == [0.0, 0.5, 2 / 3, 0.5]


def test_average_precision_empty_is_nan():
    ap, curve = average_precision([])
    assert math.isnan(ap) and curve == []


def test_align_duplicates_out_of_range_and_bad_words():
    items = [Item(0, "a"), Item(1, "b"), Item(2, "c"), Item(3, "d")]
    answer = Verdicts(
        verdicts=[
            Verdict(index=0, verdict="Yes"),
            Verdict(index=1, verdict="no"),
            Verdict(index=1, verdict="yes"),  # duplicated
            Verdict(index=2, verdict="perhaps"),  # not an allowed word
            Verdict(index=9, verdict="yes"),  # out of range
        ]
    )
    good, missing, invalid, positional = align_verdicts(items, answer, ("yes", "no"))
    assert {i: v.verdict for i, v in good.items()} == {0: "yes"}
    assert missing == [1, 3]
    assert invalid == [2]
    assert positional is None


@pytest.mark.parametrize(
    ("written", "word"),
    [
        ("Yes.", "yes"),
        ("No.", "no"),
        ("Unsure.", "unsure"),
        ("**yes**", "yes"),
        ("'no'", "no"),
        ('"Yes"', "yes"),
        ("\u201cNo.\u201d", "no"),
        ("  _UNSURE_ ", "unsure"),
        ("`yes`!", "yes"),
        ("(no)", "no"),
        ("not sure", "not sure"),
        ("yes, partly", "yes, partly"),
        # a judge writing in Japanese or Chinese: full-width forms and CJK brackets
        ("yes\uff01", "yes"),  # yes！
        ("\uff08yes\uff09", "yes"),  # （yes）
        ("\u300cyes\u300d", "yes"),  # 「yes」
        ("\u300eno\u300f\u3002", "no"),  # 『no』。
        ("\uff39\uff25\uff33", "yes"),  # ＹＥＳ
        ("\u3010unsure\u3011", "unsure"),  # 【unsure】
        ("\u662f", "\u662f"),  # 是: another language's word is not read as yes
    ],
)
def test_verdict_words_are_trimmed_of_punctuation_quotes_and_emphasis(written, word):
    assert normalise_verdict_word(written) == word


def test_verdict_words_with_punctuation_and_markup_are_valid():
    items = [Item(i, str(i)) for i in range(5)]
    written = ["Yes.", "No.", "**yes**", "'no'", "Maybe."]
    answer = Verdicts(verdicts=[Verdict(index=i, verdict=w) for i, w in enumerate(written)])
    good, missing, invalid, positional = align_verdicts(items, answer, ("yes", "no"))
    assert {i: v.verdict for i, v in good.items()} == {0: "yes", 1: "no", 2: "yes", 3: "no"}
    assert (missing, invalid, positional) == ([], [4], None)


def _answer(indices, words):
    return Verdicts(
        verdicts=[Verdict(index=i, verdict=w) for i, w in zip(indices, words, strict=True)]
    )


def test_one_based_indices_are_aligned_by_position_and_recorded():
    items = [Item(0, "a"), Item(1, "b"), Item(2, "c")]
    good, missing, invalid, positional = align_verdicts(
        items, _answer([1, 2, 3], ["no", "yes", "no"]), ("yes", "no")
    )
    assert {i: (v.index, v.verdict) for i, v in good.items()} == {
        0: (0, "no"),
        1: (1, "yes"),
        2: (2, "no"),
    }
    assert (missing, invalid) == ([], [])
    assert positional == "the judge numbered its verdicts 1..3 instead of by the indices asked"


def test_a_reask_answered_with_its_own_numbering_is_aligned_by_position():
    items = [Item(3, "d"), Item(7, "h")]  # a re-ask of two items
    for indices in ([0, 1], [1, 2]):
        good, missing, _, positional = align_verdicts(
            items, _answer(indices, ["yes", "no"]), ("yes", "no")
        )
        assert {i: v.verdict for i, v in good.items()} == {3: "yes", 7: "no"}
        assert missing == [] and positional is not None


@pytest.mark.parametrize(
    ("asked", "indices"),
    [
        ([0, 1, 2], [1, 2]),  # fewer verdicts than items
        ([0, 1, 2], [1, 2, 3, 4]),  # more verdicts than items
        ([0, 1, 2], [1, 1, 3]),  # a duplicate
        ([0, 1, 2], [1, 2, 4]),  # not exactly 1..k
        ([1, 3], [1, 2]),  # 1..k mixed with an index asked: ambiguous
        ([1, 4], [0, 1]),  # 0..k-1 mixed with an index asked: ambiguous
        ([0, 2], [0, 1]),  # 0..k-1 when 0 and 2 were asked (a blank chunk skipped)
    ],
)
def test_ambiguous_numbering_is_never_realigned(asked, indices):
    items = [Item(i, str(i)) for i in asked]
    good, missing, _, positional = align_verdicts(
        items, _answer(indices, ["yes"] * len(indices)), ("yes", "no")
    )
    assert positional is None
    assert set(good) == set(asked) & {i for i in indices if indices.count(i) == 1}
    assert set(missing) == set(asked) - set(good)


def test_verdicts_without_index_are_aligned_by_position_only_when_the_count_matches():
    items = [Item(0, "a"), Item(1, "b")]
    no_index = Verdicts(verdicts=[Verdict(verdict="no"), Verdict(verdict="Yes.")])
    good, missing, _, positional = align_verdicts(items, no_index, ("yes", "no"))
    assert {i: (v.index, v.verdict) for i, v in good.items()} == {0: (0, "no"), 1: (1, "yes")}
    assert missing == [] and positional == "the judge's verdicts carried no index"
    short = Verdicts(verdicts=[Verdict(verdict="no")])
    good, missing, _, positional = align_verdicts(items, short, ("yes", "no"))
    assert (good, missing, positional) == ({}, [0, 1], None)
    mixed = Verdicts(verdicts=[Verdict(verdict="no"), Verdict(index=1, verdict="yes")])
    good, missing, _, positional = align_verdicts(items, mixed, ("yes", "no"))
    assert ({i: v.verdict for i, v in good.items()}, missing, positional) == ({1: "yes"}, [0], None)


@pytest.mark.parametrize("scale", [0, -1, float("nan"), float("inf")])
def test_scale_must_be_positive(scale):
    with pytest.raises(ValueError, match="scale"):
        ScorerConfig(scale=scale)


def test_numpy_numbers_are_a_scale_and_stored_as_python_numbers():
    import json

    import numpy as np

    for given, stored in ((np.int64(5), 5), (np.float32(2.5), 2.5), (np.float64(10.0), 10.0)):
        config = ScorerConfig(scale=given)
        assert config.scale == stored and type(config.scale) is type(stored)
        json.dumps({"scale": config.scale})  # JSON-safe in attrs
    for bad in (True, "5", None):
        with pytest.raises(TypeError, match="scale must be a number"):
            ScorerConfig(scale=bad)


def test_bad_options_raise():
    with pytest.raises(ValueError, match="reason"):
        ScorerConfig(reason="gpt")
    with pytest.raises(ValueError, match="reference"):
        ScorerConfig(reference="truth")
    with pytest.raises(ValueError, match="max_chunks_per_call"):
        ScorerConfig(max_chunks_per_call=0)


def test_an_index_that_is_no_whole_number_is_out_of_range_and_reasked():
    # a JSON ``true`` is no index 1, nor ``1.5`` an index at all: out of range (-1), so
    # that item is asked again, while a verdict's other odd fields cost nothing else
    written = [
        {"index": 0, "verdict": "yes"},
        {"index": True, "verdict": "yes"},
        {"index": 1.5, "verdict": "no"},
        {"index": "2", "verdict": "no", "reason": None, "supporting_chunks": ["1", 2.0, "x"]},
        {"index": 3.0, "verdict": True},
    ]
    answer = Verdicts.model_validate({"verdicts": written})
    assert [v.index for v in answer.verdicts] == [0, -1, -1, 2, 3]
    assert answer.verdicts[3].reason == "" and answer.verdicts[3].supporting_chunks == [1, 2]
    assert answer.verdicts[4].verdict == "true"  # no allowed word: re-asked, not "yes"
    items = [Item(0, "a"), Item(1, "b"), Item(2, "c"), Item(3, "d")]
    good, missing, invalid, positional = align_verdicts(items, answer, ("yes", "no"))
    assert {i: v.verdict for i, v in good.items()} == {0: "yes", 2: "no"}
    assert missing == [1] and invalid == [3] and positional is None


def test_a_reply_with_one_odd_field_is_parsed_not_thrown_away():
    from ragnotebook.judges._parse import parse_reply

    reply = (
        '{"verdicts": [{"index": 0, "verdict": "yes", "supporting_chunks": 1}, '
        '{"index": 1.5, "verdict": "no", "reason": null}]}'
    )
    answer = parse_reply(reply, Verdicts)
    assert [(v.index, v.verdict, v.supporting_chunks) for v in answer.verdicts] == [
        (0, "yes", [1]),
        (-1, "no", []),
    ]
