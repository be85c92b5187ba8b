"""Long and repeated index labels: kept whole in the files, told apart in the views.

Before the fix the report and the static view replaced a label longer than 12 characters
(a UUID, a 24-character HotpotQA id) by ``#3``, so the label was nowhere in the file.
"""

from __future__ import annotations

import re
import uuid
import warnings

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views import explore, missed_claims, report

LONG = [str(uuid.UUID(int=i + 1)) for i in range(2)] + ["<b>a-label-with-markup-&-more</b>"]


@pytest.fixture(scope="module")
def long_labels() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["Where is it?", "When did it open?", "Who runs it?"],
            "answer": ["It is on Pier 4. It has a cafe.", "In 1998.", "The city."],
            "contexts": [["It is on Pier 4."], ["It opened in 1998."], ["The city runs it."]],
        },
        index=LONG,
    )
    return rn.faithfulness(df, model="offline", progress=False)


def test_the_report_keeps_long_labels_whole(long_labels, tmp_path):
    page = report(long_labels, tmp_path / "r.html", plotly_js="cdn").read_text(encoding="utf-8")
    body = page.split("<body>")[1].split("<script")[0]
    for pos, label in enumerate(LONG):
        escaped = label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        # the full label, escaped, in the summary's title and in the detail's heading
        assert f'title="{escaped}"' in body
        assert (
            f'Row {pos + 1} of 3 <small class="rnb-meta">(position {pos}, index '
            f'<span dir="auto">{escaped}</span>)</small>' in body
        )
    assert "<b>a-label" not in page  # never markup
    # shown shortened around an ellipsis, not as "#0"
    assert ">00000…000001<" in body and not re.search(r">#\d+<", body)


def test_the_static_view_keeps_long_labels_whole(long_labels):
    html = explore(long_labels, mode="static").to_html()
    assert f'title="{LONG[0]}"' in html
    assert f'index <span dir="auto">{LONG[1]}</span>)' in html
    assert ">00000…000002<" in html


def test_the_explorer_tells_repeated_labels_apart(long_labels):
    df = long_labels.set_axis(["q1", "q1", "q2"])
    ex = explore(df, mode="widget")
    ex.select(position=0)
    first = ex.header.value
    ex.select(position=1)
    second = ex.header.value
    assert first != second
    assert "Row 2 of 3" in second and "(position 1, index" in second
    long_ex = explore(long_labels, mode="widget")
    long_ex.select(position=0)
    assert LONG[0] in long_ex.header.value  # whole in the header


def test_missed_claims_keeps_one_bar_per_row_with_repeated_labels(long_labels):
    df = long_labels.set_axis(["q1", "q1", "q1"]).assign(question="Same?")
    df["faithfulness_verdicts"] = [
        [{"index": 0, "claim": f"claim {i}", "verdict": "unsure"}] for i in range(3)
    ]
    df["faithfulness_status"] = "ok"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig = missed_claims(df)
    bars = [y for t in fig.data for y in t.y]
    assert len(bars) == len(set(bars)) == 3  # before: one category for the three rows
    hover = [h for t in fig.data for h in t.hovertext]
    assert all("<b>q1</b>" in h for h in hover)


@pytest.fixture(scope="module")
def days() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["Where?"] * 3,
            "answer": ["It is on Pier 4. It has a cafe."] * 3,
            "contexts": [["The museum is on Pier 4."]] * 3,
        },
        index=pd.date_range("2024-01-01", periods=3),
    )
    return rn.faithfulness(df, model="offline", progress=False)


DAYS = ["2024-01-01", "2024-01-02", "2024-01-03"]


def test_a_day_level_timestamp_index_shows_its_dates_everywhere(days, tmp_path):
    from ragnotebook.views import Explorer

    ex = Explorer(days)
    assert [t.split("\u00a0")[0] for t, _ in ex.listing.options] == DAYS
    ex.select(position=1)
    assert 'index <span dir="auto">2024-01-02</span>)' in ex.header.value
    static = explore(days, mode="static").to_html()
    page = report(days, tmp_path / "d.html", plotly_js="cdn").read_text(encoding="utf-8")
    for html in (static, page):
        for day in DAYS:
            assert f'<span dir="auto" title="{day}">{day}</span>' in html
        assert "00:00:00" not in html.split("<script")[0]
    fig = missed_claims(days)
    assert [y.split(" · ")[0] for y in fig.data[2].y] == DAYS


def test_long_labels_that_differ_in_the_middle_are_told_apart():
    from ragnotebook.views._data import row_names

    utc = pd.DataFrame({"a": range(2)}, index=pd.date_range("2024-01-01", periods=2, tz="UTC"))
    assert row_names(utc) == ["2024-01-01…", "2024-01-02…"]
    middle = pd.DataFrame(
        {"a": range(2)}, index=["x" * 20 + "1" + "y" * 20, "x" * 20 + "2" + "y" * 20]
    )
    assert row_names(middle) == ["…xxxxxxxxx1…", "…xxxxxxxxx2…"]
    # labels whose start and end already tell them apart keep the usual form
    assert row_names(pd.DataFrame({"a": [1, 2]}, index=LONG[:2])) == [
        "00000…000001",
        "00000…000002",
    ]


def test_distinct_labels_never_get_the_same_short_name():
    from ragnotebook.views._data import short_names

    # alike at both ends and in most of the middle: the differing part is too long to
    # fit, so the labels are shown whole
    a = "start-" + "0123456789abcdef" + "-end-of-label"
    b = "start-" + "fedcba9876543210" + "-end-of-label"
    assert short_names([a, b, a]) == [a, b, a]
    labels = [f"prefix-{i:04d}-common-suffix" for i in range(200)] + ["q1", "q1"]
    names = short_names(labels)
    assert len(set(names)) == 201 and names[-2:] == ["q1", "q1"]
    assert all(len(n) <= 12 for n in names)


def _stamps(index: pd.DatetimeIndex) -> list[str]:
    from ragnotebook.views._data import row_names

    return row_names(pd.DataFrame({"a": range(len(index))}, index=index))


def test_hourly_timestamps_are_named_by_day_and_time():
    """Before: "…4-01-01 00…", "…4-01-01 01…" (the part where they differ, cut)."""
    hourly = pd.date_range("2024-01-01", periods=3, freq="h")
    assert _stamps(hourly) == ["01-01 00:00", "01-01 01:00", "01-01 02:00"]
    # the same with a time zone (one for every label: it is left out), and across midnight
    assert _stamps(hourly.tz_localize("UTC")) == ["01-01 00:00", "01-01 01:00", "01-01 02:00"]
    late = pd.date_range("2024-03-09 22:00", periods=3, freq="h")
    assert _stamps(late) == ["03-09 22:00", "03-09 23:00", "03-10 00:00"]
    # labels spanning two years keep the year
    new_year = pd.date_range("2023-12-31 23:00", periods=2, freq="h")
    assert _stamps(new_year) == ["2023-12-31 23:00", "2024-01-01 00:00"]


def test_minute_and_second_level_timestamps_stay_distinct():
    minutes = pd.date_range("2024-01-01 23:58", periods=4, freq="min")
    assert _stamps(minutes) == ["01-01 23:58", "01-01 23:59", "01-02 00:00", "01-02 00:01"]
    # minutes alike: the seconds tell them apart
    seconds = pd.date_range("2024-05-06 07:08:00", periods=3, freq="s")
    assert _stamps(seconds) == ["05-06 07:08:00", "05-06 07:08:01", "05-06 07:08:02"]
    # the names come from the labels' text: ISO strings, a repeated label, other labels
    from ragnotebook.views._data import short_names

    labels = ["2024-01-01T01:00:00Z", "2024-01-01T02:00:00Z", "2024-01-01T01:00:00Z", "q1"]
    assert short_names(labels) == ["01-01 01:00", "01-01 02:00", "01-01 01:00", "q1"]
    # different zones, or a difference below the second: the generic rule, still distinct
    zones = ["2024-01-01 01:00:00+00:00", "2024-01-01 02:00:00+01:00"]
    assert short_names(zones) == ["2024-…+00:00", "2024-…+01:00"]
    fractions = [str(t) for t in pd.date_range("2024-01-01", periods=3, freq="ms")]
    assert len(set(short_names(fractions))) == 3


def test_hourly_timestamps_read_well_in_the_report_and_the_chart(tmp_path):
    index = pd.date_range("2024-01-01 01:00", periods=2, freq="h")
    df = pd.DataFrame(
        {
            "question": ["Where?", "When?"],
            "answer": ["It is on Pier 4. It has a cafe.", "In 1998. It is red."],
            "contexts": [["The museum is on Pier 4."], ["It opened in 1998."]],
        },
        index=index,
    )
    scored = rn.faithfulness(df, model="offline", progress=False)
    fig = missed_claims(scored)
    assert sorted(y.split(" · ")[0] for t in fig.data for y in t.y) == [
        "01-01 01:00",
        "01-01 02:00",
    ]
    page = report(scored, tmp_path / "h.html", plotly_js="cdn").read_text(encoding="utf-8")
    for label, name in zip(index, ("01-01 01:00", "01-01 02:00"), strict=True):
        assert f'<span dir="auto" title="{label}">{name}</span>' in page
