"""Scoring rules without any model: rounding, average precision, verdict alignment."""

import math

import pytest

from ragnotebook.scorers._common import ScorerConfig, align_verdicts, round_half_up
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
    good, missing, invalid = align_verdicts(items, answer, ("yes", "no"))
    assert {i: v.verdict for i, v in good.items()} == {0: "yes"}
    assert missing == [1, 3]
    assert invalid == [2]


@pytest.mark.parametrize("scale", [0, -1, float("nan"), float("inf")])
def test_scale_must_be_positive(scale):
    with pytest.raises(ValueError, match="scale"):
        ScorerConfig(scale=scale)


def test_bad_options_raise():
    with pytest.raises(ValueError, match="reason"):
        ScorerConfig(reason="gpt")
    with pytest.raises(ValueError, match="reference"):
        ScorerConfig(reference="truth")
    with pytest.raises(ValueError, match="max_chunks_per_call"):
        ScorerConfig(max_chunks_per_call=0)
