"""Where ``report()`` writes: the same rules as ``ragnotebook report --out``.

Missing folders are created, the file name must end in ``.html`` or ``.htm``, and a path
that cannot be written (an existing folder, a file where a folder should be) is refused
before any work, naming the path the user gave (never the temporary file).
"""

from __future__ import annotations

import os

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.views._report import report, report_path


@pytest.fixture(scope="module")
def one_row() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "question": ["Where is the museum?"],
            "answer": ["The museum is on Pier 4."],
            "contexts": [["The museum is on Pier 4."]],
            "ground_truth": ["The museum is on Pier 4."],
        }
    )
    return rn.evaluate(df, model="offline", progress=False)


def test_missing_folders_are_created(one_row, tmp_path):
    target = tmp_path / "out" / "missing" / "a" / "b" / "r.html"
    out = one_row.rag.report(target, plotly_js="cdn")
    assert out == target and target.is_file()
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in target.parent.iterdir()) == ["r.html"]  # no temporary file


def test_a_relative_path_with_missing_folders_is_created(one_row, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = report(one_row, "out/new/r.html", plotly_js="cdn")
    assert str(out) == os.path.join("out", "new", "r.html")
    assert (tmp_path / "out" / "new" / "r.html").is_file()


def test_a_call_that_fails_creates_no_folder(one_row, tmp_path):
    with pytest.raises(ValueError, match="unknown metric"):
        report(one_row, tmp_path / "new" / "r.html", sort_by="relevancy")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["r.html", "r.htm", "R.HTML", "r.Htm", "r.v2.html"])
def test_html_suffixes_in_any_case_are_accepted(one_row, tmp_path, name):
    assert report(one_row, tmp_path / name, plotly_js="cdn") == tmp_path / name
    assert (tmp_path / name).is_file()


@pytest.mark.parametrize(
    ("name", "suggested"),
    [
        ("r.txt", "r.html"),
        ("report", "report.html"),
        ("r.html.bak", "r.html"),
        ("r.htm.old", "r.htm"),
    ],
)
def test_another_suffix_is_refused_before_any_work(tmp_path, name, suggested):
    target = tmp_path / name
    unscored = pd.DataFrame({"question": ["q"]})  # the path is checked first
    with pytest.raises(ValueError) as info:
        report(unscored, target)
    assert str(info.value) == (
        f"cannot write the report to {str(target)!r}: the file name must end in .html or "
        f".htm (the report is one HTML page), such as {str(tmp_path / suggested)!r}"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_refused_by_its_name_before_any_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    unscored = pd.DataFrame({"question": ["q"]})  # no scores: any work would fail otherwise
    with pytest.raises(IsADirectoryError) as info:
        unscored.rag.report("out")
    assert str(info.value) == (
        "cannot write the report to 'out': it is a folder; name a file in it, such as "
        f"{os.path.join('out', 'report.html')!r}"
    )
    assert ".tmp" not in str(info.value)
    assert list((tmp_path / "out").iterdir()) == []


def test_a_folder_named_like_a_page_is_refused_too(one_row, tmp_path):
    folder = tmp_path / "page.html"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="it is a folder; name a file in it"):
        report(one_row, folder, plotly_js="cdn")
    assert list(folder.iterdir()) == []


def test_a_file_in_place_of_a_folder_is_refused_by_its_name(tmp_path):
    (tmp_path / "notes").write_text("x", encoding="utf-8")
    target = tmp_path / "notes" / "sub" / "r.html"
    with pytest.raises(NotADirectoryError) as info:
        report_path(target)
    assert str(info.value) == (
        f"cannot write the report to {str(target)!r}: {str(tmp_path / 'notes')!r} is a "
        "file, not a folder"
    )


def test_report_path_returns_the_path_and_creates_nothing(tmp_path):
    target = tmp_path / "a" / "b" / "r.html"
    assert report_path(target) == target
    assert report_path(str(target)) == target
    assert list(tmp_path.iterdir()) == []


def test_an_existing_report_is_replaced(one_row, tmp_path):
    target = tmp_path / "r.html"
    target.write_text("old", encoding="utf-8")
    report(one_row, target, plotly_js="cdn")
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
