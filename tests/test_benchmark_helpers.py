"""The claim-level helpers of benchmarks/offline_quality.py (span labels to claims)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ragnotebook.judges.offline import OfflineJudge

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "offline_quality.py"


@pytest.fixture(scope="module")
def oq():
    spec = importlib.util.spec_from_file_location("offline_quality_under_test", _PATH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


ANSWER = (
    "Based on the passages, the depot opened in 1998 [1]. It ships 40 pallets a day, "
    "and it employs 12 drivers. The depot also runs a cafe."
)


def test_locate_finds_cleaned_claims_in_order(oq):
    # a claim with its lead-in and citation removed is found by its words
    start, end = oq.locate("The depot opened in 1998.", ANSWER)
    assert ANSWER[start:end] == "the depot opened in 1998"
    # the search starts at the previous claim, so a repeated head finds the later one
    first = oq.locate("The depot opened in 1998.", ANSWER)[0]
    later = oq.locate("The depot also runs a cafe.", ANSWER, first)
    assert ANSWER[later[0] : later[1]] == "The depot also runs a cafe"
    assert oq.locate("Nothing like this.", ANSWER) is None


def test_marked_overlap_with_spans(oq):
    span_start = ANSWER.index("12 drivers")
    row = {
        "answer": ANSWER,
        "hallucination_spans": [{"start": span_start, "end": span_start + len("12 drivers")}],
    }
    claims = [
        "The depot opened in 1998.",
        "It ships 40 pallets a day.",
        "it employs 12 drivers.",
        "The depot also runs a cafe.",
        "Unrelated words here.",
    ]
    assert oq._marked(claims, row) == [False, False, True, False, None]


def test_marked_without_spans_is_all_clean(oq):
    row = {"answer": ANSWER, "hallucination_spans": []}
    assert oq._marked(["It ships 40 pallets a day."], row) == [False]


def test_claim_verdicts_pairs_claims_and_verdicts(oq):
    row = {
        "question": None,
        "answer": "The depot opened in 1998. It has a rooftop cinema with 900 seats.",
        "contexts": ["The depot opened in 1998 near the harbour."],
    }
    claims, verdicts = oq.claim_verdicts(OfflineJudge(), row)
    assert claims == ["The depot opened in 1998.", "It has a rooftop cinema with 900 seats."]
    assert verdicts[0] == "yes" and verdicts[1] != "yes"
    assert oq.faith_score(OfflineJudge(), row) == 0.5


def test_ci_is_the_percentile_interval(oq):
    assert oq._ci([float(x) for x in range(101)]) == (5.0, 95.0)
    assert oq._ci([float("nan"), 1.0, 2.0, 3.0], level=0.0) == (2.0, 2.0)


def test_paired_resample_draws_the_same_rows_for_both_scorers(oq):
    import random

    labels = [True, False] * 10
    perfect = [1.0 if y else 0.0 for y in labels]
    inverted = [0.0 if y else 1.0 for y in labels]
    a, b = oq.paired_resample(perfect, inverted, labels, 8, 50, random.Random(0))
    assert len(a) == len(b) == 50
    assert set(a) == {1.0} and set(b) == {0.0}  # one-class draws were redrawn (no nan)
    # the same scorer twice: every paired resample ties
    a, b = oq.paired_resample(perfect, perfect, labels, 8, 20, random.Random(1))
    assert a == b
