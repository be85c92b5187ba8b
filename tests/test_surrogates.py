"""Lone surrogates in the data (half an emoji) are replaced at intake; files are written whole.

A lone surrogate (``"\\ud83d"``) is what :func:`json.loads` returns for an emoji whose JSON
escape was cut in two. UTF-8 cannot encode it, so before the fix the row's faithfulness
failed (``UnicodeEncodeError ... surrogates not allowed``, naming no row or column) and
``report()`` raised, leaving a 0-byte file.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import cli
from ragnotebook._textsafe import atomic_write_text, clean_value, replace_surrogates
from ragnotebook.judges._parse import parse_reply
from ragnotebook.prompts import render
from ragnotebook.tasks import Claims, Task

CUT = "\ud83d"  # the high half of 😀 (U+1F600), alone


def cut_frame() -> pd.DataFrame:
    """The user's reproduction: JSON with an emoji escape cut in half."""
    rec = json.loads(
        '{"question":"Ship count?","answer":"Depot ships 47 pallets \\ud83d",'
        '"contexts":["Depot ships 47 pallets."],"ground_truth":"Depot ships 47 pallets."}'
    )
    assert rec["answer"].endswith(CUT)
    return pd.DataFrame([rec], dtype=object)


def test_replace_surrogates_keeps_pairs_and_replaces_lone_halves():
    assert replace_surrogates("a\ud83d b \ud83d\ude00 c \ude00") == "a\ufffd b 😀 c \ufffd"
    text = "no surrogate here: 😀"
    assert replace_surrogates(text) is text
    nested = ["ok", {"claim": f"x{CUT}", "n": 1}, ("t", f"{CUT}")]
    assert clean_value(nested) == ["ok", {"claim": "x\ufffd", "n": 1}, ("t", "\ufffd")]
    plain = ["ok", {"claim": "fine"}]
    assert clean_value(plain) is plain


def test_a_cut_emoji_scores_with_one_warning_naming_row_and_column():
    with pytest.warns(UserWarning) as caught:
        s = cut_frame().rag.evaluate(model="offline", progress=False)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    assert "1 text cell holds a lone surrogate" in messages[0]
    assert "(first: row 0, column 'answer')" in messages[0]
    assert caught[0].filename == __file__
    # every metric scored the row (faithfulness failed with UnicodeEncodeError before)
    for m in ("context_recall", "context_precision", "faithfulness"):
        assert s.loc[0, f"{m}_status"] == "ok", s.loc[0, f"{m}_error"]
        assert s.loc[0, m] == 1.0
    # the returned frame holds the replaced text, so it prints and saves
    assert s.loc[0, "answer"] == "Depot ships 47 pallets \ufffd"
    repr(s)
    s.to_json(orient="records", lines=True)


def test_the_warning_counts_cells_and_names_the_first_in_contexts_too():
    df = pd.DataFrame(
        {
            "question": ["q1", f"q2 {CUT}"],
            "answer": ["a", "b"],
            "contexts": [["fine", f"cut {CUT}", f"again {CUT}"], ["c"]],
        },
        index=["r1", "r2"],
        dtype=object,
    )
    with pytest.warns(
        UserWarning, match=r"2 text cells hold .*\(first: row 'r1', column 'contexts'\)"
    ):
        out = rn.faithfulness(df, model="offline", progress=False)
    assert out.loc["r1", "contexts"] == ["fine", "cut \ufffd", "again \ufffd"]
    assert out.loc["r2", "question"] == "q2 \ufffd"
    assert df.loc["r1", "contexts"][1].endswith(CUT)  # the input frame is unchanged


def test_the_report_of_a_cut_emoji_is_valid_utf8(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = cut_frame().rag.evaluate(model="offline", progress=False)
    path = s.rag.report(tmp_path / "sur.html", plotly_js="cdn")
    text = path.read_bytes().decode("utf-8")  # strict: raises on invalid UTF-8
    assert "Depot ships 47 pallets \ufffd" in text


def test_views_of_a_hand_built_frame_with_surrogates_do_not_fail(tmp_path):
    # a frame whose verdicts and texts hold surrogates (not from evaluate(), which cleans)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = rn.faithfulness(
            pd.DataFrame({"question": ["q"], "answer": ["It is blue."], "contexts": [["Blue."]]}),
            model="offline",
            progress=False,
        )
    s = s.astype({"question": object})
    s.loc[0, "question"] = f"Which colour {CUT}?"
    s.at[0, "faithfulness_verdicts"] = [
        {
            "index": 0,
            "claim": f"It is blue {CUT}.",
            "verdict": "no",
            "reason": f"r {CUT}",
            "supporting_chunks": [0],
        }
    ]
    path = rn.views.report(s, tmp_path / "r.html", plotly_js="cdn")
    page = path.read_bytes().decode("utf-8")
    assert "Which colour \ufffd?" in page and "It is blue \ufffd." in page
    static = s.rag.explore(mode="static").to_html()
    assert "Which colour \ufffd?" in static and CUT not in static
    ex = s.rag.explore(mode="widget")
    assert "It is blue \ufffd." in ex.detail_html and CUT not in ex.detail_html
    assert rn.claims(s).loc[0, "claim"] == "It is blue \ufffd."
    fig = s.rag.plot.missed_claims()
    assert "It is blue \\ufffd." in fig.to_json()  # plotly encodes it (JSON escapes)


def test_hashing_prompting_and_parsing_do_not_fail_on_surrogates():
    task = Task(kind="extract_claims", metric="faithfulness", question="q", text=f"a {CUT}")
    assert len(task.key()) == 64  # UnicodeEncodeError before
    assert (
        task.key()
        != Task(kind="extract_claims", metric="faithfulness", question="q", text="a \ufffd").key()
    )
    user = render(task)[-1]["content"]
    user.encode("utf-8")  # the prompt goes out as U+FFFD
    assert '"text": "a \ufffd"' in user
    reply = '{"claims": ["Depot ships 47 pallets \\ud83d"]}'
    assert parse_reply(reply, Claims).claims == ["Depot ships 47 pallets \ufffd"]


def test_an_llm_judge_with_cache_scores_the_cut_emoji(llm_server, tmp_path):
    from tests.judge_replies import offline_responder

    llm_server.responder = offline_responder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = cut_frame().rag.evaluate(
            model="openai/test-model",
            api_base=llm_server.url,
            api_key="sk-test",
            progress=False,
            cache=tmp_path / "cache.sqlite3",
            timeout=10,
            transport="openai",
        )
    assert s["faithfulness_status"].tolist() == ["ok"], s["faithfulness_error"].tolist()
    assert s.loc[0, "faithfulness"] == 1.0


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("the old report", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr("ragnotebook._textsafe.os.replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, "the new report")
    assert target.read_text(encoding="utf-8") == "the old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_report_that_fails_midway_leaves_no_file(tmp_path, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = cut_frame().rag.evaluate(model="offline", progress=False)

    def broken_write(self, data):
        Path.write_text(self, "<!DOCTYPE html><html>", encoding="utf-8")  # a partial page
        raise OSError("no space left on device")

    monkeypatch.setattr(Path, "write_bytes", broken_write)
    with pytest.raises(OSError, match="no space left"):
        s.rag.report(tmp_path / "r.html", plotly_js="cdn")
    assert list(tmp_path.iterdir()) == []  # no 0-byte or partial r.html, no temporary


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_cli_writes_frames_with_surrogates_in_other_columns(tmp_path, suffix):
    pytest.importorskip("pyarrow")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        note = pd.Series([f"note {CUT}"], dtype=object)
        s = cut_frame().assign(note=note).rag.evaluate(model="offline", progress=False)
    assert s.loc[0, "note"].endswith(CUT)  # not a text role: left as it was
    out = cli._write_frame(s, tmp_path / f"scored{suffix}")
    back = cli.read_table(out)
    assert back.loc[0, "note"] == "note \ufffd"
    assert back.loc[0, "answer"] == "Depot ships 47 pallets \ufffd"
    beside = [f"scored{suffix}.run.json"] if suffix == ".jsonl" else []  # its run metadata
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"scored{suffix}", *beside]


def test_the_cli_scores_a_jsonl_file_with_a_cut_emoji(tmp_path, capsys):
    data = tmp_path / "in.jsonl"
    data.write_text(
        '{"question":"Ship count?","answer":"Depot ships 47 pallets \\ud83d",'
        '"contexts":["Depot ships 47 pallets."],"ground_truth":"Depot ships 47 pallets."}\n',
        encoding="utf-8",
    )
    code = cli.main(
        [
            "evaluate",
            str(data),
            "--model",
            "offline",
            "--no-progress",
            "--out",
            str(tmp_path / "o.jsonl"),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    # the reader replaced it (pandas cannot hold it) and says where, by line and key
    assert "in.jsonl: 1 value holds a lone surrogate" in captured.err
    assert "(first: line 1, key 'answer')" in captured.err
    row = json.loads((tmp_path / "o.jsonl").read_text(encoding="utf-8"))
    assert row["faithfulness_status"] == "ok" and row["answer"].endswith("\ufffd")
    code = cli.main(["report", str(tmp_path / "o.jsonl"), "--out", str(tmp_path / "r.html")])
    assert code == 0
    (tmp_path / "r.html").read_bytes().decode("utf-8")


def test_a_missing_folder_is_named_not_the_temporary_file(tmp_path):
    target = tmp_path / "reports" / "nightly" / "run.html"
    with pytest.raises(FileNotFoundError) as info:
        atomic_write_text(target, "<p>report</p>")
    message = str(info.value)
    assert f"cannot write {target}: the folder {target.parent} does not exist" in message
    assert ".tmp" not in message
