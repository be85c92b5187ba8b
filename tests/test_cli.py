"""The command line end to end: ``python -m ragnotebook evaluate | report | quickstart``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import cli

ROOT = Path(__file__).resolve().parents[1]

GOOD = [
    {
        "question": f"Where is exhibit {i}?",
        "answer": f"Exhibit {i} is in hall {i}.",
        "contexts": [f"Exhibit {i} is in hall {i}.", "The cafe sells coffee."],
        "ground_truth": f"Exhibit {i} is in hall {i}.",
    }
    for i in range(1, 9)
]
#: The same questions, answered with claims the context does not support.
WORSE = [
    {**row, "answer": f"Exhibit {i + 1} was painted by Rembrandt van Rijn in Leiden."}
    for i, row in enumerate(GOOD, start=1)
]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    full_env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "RAGNOTEBOOK_CACHE_DIR": str(cwd / "cache"),
        **(env or {}),
    }
    full_env.pop("RAGNOTEBOOK_MODEL", None)
    return subprocess.run(
        [sys.executable, "-m", "ragnotebook", *args],
        capture_output=True,
        text=True,
        cwd=str(cwd),
        env=full_env,
        timeout=240,
    )


def evaluate(data: Path, *args: str, cwd: Path, **kw: Any) -> subprocess.CompletedProcess:
    """``ragnotebook evaluate DATA --no-progress ...`` with the offline judge unless overridden."""
    model = () if "--model" in args else ("--model", "offline")
    return run_cli("evaluate", str(data), *model, "--no-progress", *args, cwd=cwd, **kw)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "good.jsonl", GOOD)


# ------------------------------------------------------------------ offline judge


def test_evaluate_writes_jsonl_prints_summary_and_passes_thresholds(tmp_path, good):
    out = tmp_path / "scored.jsonl"
    proc = run_cli(
        "evaluate",
        str(good),
        "--metrics",
        "recall,precision,faithfulness",
        "--model",
        "offline",
        "--out",
        str(out),
        "--fail-under",
        "recall=0.9,faithfulness=0.9",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Summary" in proc.stdout
    assert re.search(r"faithfulness\s+1\.0\s+8/8", proc.stdout)
    assert "ok   context_recall: mean 1.000 >= 0.9" in proc.stdout
    assert "ok   faithfulness: coverage 1.000 >= 1" in proc.stdout
    assert "FAIL" not in proc.stdout
    assert "100%" in proc.stderr  # the progress bar goes to stderr ...
    assert "100%" not in proc.stdout  # ... never to stdout
    # JSONL round-trips the verdict lists
    expected = rn.evaluate(pd.DataFrame(GOOD), model="offline", progress=False)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 8
    for m in ("context_recall", "context_precision", "faithfulness"):
        assert [r[f"{m}_verdicts"] for r in lines] == expected[f"{m}_verdicts"].tolist()
        assert [r[m] for r in lines] == expected[m].tolist()
    back = cli.read_table(out)
    assert back["faithfulness_verdicts"].tolist() == expected["faithfulness_verdicts"].tolist()
    assert str(back["faithfulness"].dtype) == "Float64"
    assert rn.summary(back).loc["faithfulness", "scored"] == "8/8"


def test_fail_under_fails_with_exit_1_and_names_the_metric(tmp_path):
    data = write_jsonl(tmp_path / "worse.jsonl", WORSE)
    proc = run_cli(
        "evaluate",
        str(data),
        "--model",
        "offline",
        "--metrics",
        "faithfulness,recall",
        "--fail-under",
        "faithfulness=0.8",
        "--fail-under",
        "recall=0.5",
        "--no-progress",
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr
    assert re.search(r"FAIL faithfulness: mean 0\.\d+ < 0\.8", proc.stdout)
    assert "ok   context_recall: mean 1.000 >= 0.5" in proc.stdout
    assert "1 check(s) failed: faithfulness: mean" in proc.stderr
    assert proc.stderr.count("100%") == 0  # --no-progress


def test_min_coverage(tmp_path):
    rows = [dict(r) for r in GOOD]
    rows[0]["ground_truth"] = None  # recall cannot be measured on this row: 7/8 scored
    data = write_jsonl(tmp_path / "partial.jsonl", rows)
    base = ("evaluate", str(data), "--model", "offline", "--metrics", "recall", "--no-progress")
    strict = run_cli(*base, "--fail-under", "recall=0.5", cwd=tmp_path)
    assert strict.returncode == 1
    assert "FAIL context_recall: coverage 0.875 < 1 (7/8 rows scored, 0 errors)" in strict.stdout
    assert "ok   context_recall: mean 1.000 >= 0.5" in strict.stdout
    relaxed = run_cli(*base, "--fail-under", "recall=0.5", "--min-coverage", "0.8", cwd=tmp_path)
    assert relaxed.returncode == 0, relaxed.stdout
    assert "ok   context_recall: coverage 0.875 >= 0.8" in relaxed.stdout
    # --min-coverage alone gates every metric
    alone = run_cli(*base, "--min-coverage", "0.9", cwd=tmp_path)
    assert alone.returncode == 1
    assert "FAIL context_recall: coverage 0.875 < 0.9" in alone.stdout
    # without any check the run succeeds and only reports
    plain = run_cli(*base, cwd=tmp_path)
    assert plain.returncode == 0
    assert "Checks" not in plain.stdout


def test_baseline_passes_on_the_same_system_and_fails_on_a_worse_one(tmp_path, good):
    baseline = tmp_path / "baseline.jsonl"
    first = evaluate(good, "--out", str(baseline), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    same = evaluate(good, "--baseline", str(baseline), cwd=tmp_path)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "Against the baseline" in same.stdout
    assert "ok   faithfulness: no significant drop (mean diff +0.000, p=1.0000)" in same.stdout

    worse = write_jsonl(tmp_path / "worse.jsonl", WORSE)
    proc = evaluate(worse, "--baseline", str(baseline), cwd=tmp_path)
    assert proc.returncode == 1
    assert re.search(
        r"FAIL faithfulness: significant drop against the baseline: mean diff -\d\.\d+ "
        r"\(95% CI -\d\.\d+ to -\d\.\d+, p=0\.00\d+\)",
        proc.stdout,
    )
    assert "ok   context_recall: no significant drop" in proc.stdout  # same ground truth
    assert "check(s) failed" in proc.stderr


def test_baseline_pairing_column_is_checked_before_scoring(tmp_path, good, capsys):
    baseline = tmp_path / "baseline.jsonl"
    assert evaluate(good, "--out", str(baseline), cwd=tmp_path).returncode == 0
    args = ["evaluate", str(good), "--baseline", str(baseline), "--on", "nope", "--no-progress"]
    assert cli.main(args) == 3
    out, err = capsys.readouterr()
    assert "scoring" not in err and "Summary" not in out  # refused before any scoring
    assert "--on 'nope' is not a column of the baseline file (its columns: question, " in err
    assert "pass --on COLUMN naming a column both files have" in err
    # a role name works through the column detection, as compare() does
    assert cli.main([*args[:-3], "--on", "question", "--no-progress"]) == 0


def test_baseline_fails_when_coverage_drops(tmp_path, good):
    baseline = tmp_path / "baseline.jsonl"
    assert (
        evaluate(good, "--metrics", "recall", "--out", str(baseline), cwd=tmp_path).returncode == 0
    )
    rows = [dict(r) for r in GOOD]
    for r in rows[:3]:
        r["ground_truth"] = ""
    data = write_jsonl(tmp_path / "fewer.jsonl", rows)
    proc = evaluate(data, "--metrics", "recall", "--baseline", str(baseline), cwd=tmp_path)
    assert proc.returncode == 1
    assert "FAIL context_recall: coverage dropped against the baseline: 1.000 -> 0.625" in (
        proc.stdout
    )


def test_parquet_output_keeps_metadata_and_csv_input_with_column_mapping(tmp_path):
    pytest.importorskip("pyarrow")
    df = pd.DataFrame(
        {
            "q": [r["question"] for r in GOOD],
            "a": [r["answer"] for r in GOOD],
            "docs": [json.dumps(r["contexts"]) for r in GOOD],  # a list column through CSV
            "truth": [r["ground_truth"] for r in GOOD],
        }
    )
    data = tmp_path / "rows.csv"
    df.to_csv(data, index=False)
    out = tmp_path / "scored.parquet"
    mapping = ["question=q", "answer=a", "contexts=docs", "ground_truth=truth"]
    columns = [arg for pair in mapping for arg in ("--column", pair)]
    proc = evaluate(data, "--out", str(out), *columns, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # the CSV warning reads as a command's message, not a Python source location
    warned = [line for line in proc.stderr.splitlines() if "holding a list" in line]
    assert len(warned) == 1
    assert warned[0].startswith("ragnotebook evaluate: warning: the contexts of 8 rows")
    scored = pd.read_parquet(out)
    assert scored.attrs["ragnotebook"]["columns"]["contexts"] == "docs"
    assert scored.attrs["ragnotebook"]["judge"] == "offline-v5"
    assert (scored["faithfulness"] == 1.0).all()
    assert rn.summary(scored).loc["context_precision", "scored"] == "8/8"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--metrics", "relevancy"), "unknown metric 'relevancy'"),
        (("--fail-under", "recall"), "expected metric=value"),
        (("--fail-under", "recall=high"), "'high' is not a number"),
        (("--metrics", "recall", "--fail-under", "faithfulness=0.5"), "not in --metrics"),
        (("--out", "scored.txt"), "must end in .parquet"),
        (("--column", "docs"), "expected role=column"),
        (("--column", "passages=docs"), "unknown role 'passages'"),
        (("--api-base", "http://127.0.0.1:1/v1"), "not the offline judge"),
        (("--timeout", "5"), "--timeout applies to LLM models, not the offline judge"),
        (("--num-retries", "1"), "--num-retries applies to LLM models"),
        (("--min-coverage", "2"), "between 0 and 1"),
        (("--fail-under", "recall=1.5"), "'recall=1.5': scores run from 0 to 1"),
        (("--fail-under", "faithfulness=-0.1"), "a minimum must be between 0 and 1"),
    ],
)
def test_usage_errors_exit_2(good, args, message, capsys):
    # in process (cli.main) to keep the suite fast; the subprocess path is checked below
    code = cli.main(["evaluate", str(good), "--model", "offline", *args])
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert captured.out == ""


def test_usage_error_exit_code_from_the_command(tmp_path, good):
    proc = run_cli("evaluate", str(good), "--metrics", "relevancy", cwd=tmp_path)
    assert proc.returncode == 2 and "usage error: --metrics: unknown metric" in proc.stderr
    assert run_cli("evaluate", "x.jsonl", "--bogus", cwd=tmp_path).returncode == 2
    assert cli.main(["evaluate"]) == 2
    assert cli.main(["nonsense"]) == 2
    assert cli.main(["--help"]) == 0


def test_input_errors_exit_3(tmp_path, good, capsys):
    def run(*args: str) -> tuple[int, str]:
        code = cli.main(["evaluate", *args, "--model", "offline", "--no-progress"])
        return code, capsys.readouterr().err

    code, err = run(str(tmp_path / "nope.jsonl"))
    assert code == 3 and "no such file" in err
    (tmp_path / "rows.xlsx").write_text("x")
    code, err = run(str(tmp_path / "rows.xlsx"))
    assert code == 3 and "unknown format" in err
    (tmp_path / "bad.jsonl").write_text('{"question": "q"}\n{not json\n')
    code, err = run(str(tmp_path / "bad.jsonl"))
    assert code == 3 and "line 2: not valid JSON" in err
    code, err = run(str(good), "--column", "question=q")
    assert code == 3 and "'q', which is not in the frame" in err
    # and through the real command
    nocol = write_jsonl(tmp_path / "nocol.jsonl", [{"prompt": "q", "answer": "a"}])
    proc = run_cli("evaluate", str(nocol), "--model", "offline", cwd=tmp_path)
    assert proc.returncode == 3 and "no column found for the 'contexts' role" in proc.stderr
    assert "--column ROLE=COLUMN" in proc.stderr


# ------------------------------------------------------------------ report, quickstart


def test_report_writes_html_or_says_why_not(tmp_path, good):
    scored = tmp_path / "scored.jsonl"
    assert evaluate(good, "--out", str(scored), cwd=tmp_path).returncode == 0
    html = tmp_path / "report.html"
    proc = run_cli("report", str(scored), "--out", str(html), cwd=tmp_path)
    try:
        import ragnotebook.views.report  # noqa: F401
    except ImportError:
        assert proc.returncode == 4
        assert "the HTML report is not available" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert html.exists() and html.stat().st_size > 1000
        assert f"Report written to {html}" in proc.stdout


def test_report_without_the_views_module_is_a_clear_error(tmp_path, good, monkeypatch, capsys):
    scored = tmp_path / "scored.jsonl"
    cli.write_jsonl(
        rn.evaluate(pd.read_json(good, lines=True), model="offline", progress=False), scored
    )
    monkeypatch.setitem(sys.modules, "ragnotebook.views.report", None)  # import fails
    code = cli.main(["report", str(scored), "--out", str(tmp_path / "r.html")])
    assert code == 4
    err = capsys.readouterr().err
    assert "the HTML report is not available in this installation" in err
    assert "pip install 'ragnotebook[plot]'" in err


def test_report_on_an_unscored_file_is_a_data_error(tmp_path, good):
    proc = run_cli("report", str(good), "--out", str(tmp_path / "r.html"), cwd=tmp_path)
    assert proc.returncode == 3 and "no ragnotebook scores" in proc.stderr


def test_quickstart_still_works(tmp_path):
    proc = run_cli("quickstart", "--out", str(tmp_path / "q.jsonl"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Summary" in proc.stdout and (tmp_path / "q.jsonl").exists()
    # every row printed by its label can be found in the file by that label
    saved = pd.read_json(tmp_path / "q.jsonl", lines=True, dtype={"id": str})
    printed = re.findall(r"^\[([^\]]+)\] \(", proc.stdout, re.M)
    assert len(printed) == 5 and set(printed) <= set(saved["id"])
    # a metric a row was not scored on is shown as such, never as a low score
    for line in re.findall(r"^\[[^\]]+\] \(.*$", proc.stdout, re.M):
        label = re.match(r"\[([^\]]+)\]", line).group(1)
        row = saved.loc[saved["id"] == label].iloc[0]
        blank_answer = not isinstance(row["answer"], str) or not row["answer"].strip()
        if blank_answer:
            assert "faithfulness=not scored (no answer)" in line
        if row["context_recall_status"] == "no_ground_truth":
            assert "recall=not scored (no_ground_truth)" in line


def test_worst_rows_ranks_only_measured_scores():
    df = pd.DataFrame(
        {
            "question": ["a?", "b?", "c?"],
            "answer": ["x", None, "y"],
            "faithfulness": pd.array([0.4, 0.0, 0.9], dtype="Float64"),
            "faithfulness_status": ["ok", "no_claims", "ok"],
            "context_recall": pd.array([0.0, 0.2, 0.5], dtype="Float64"),
            "context_recall_status": ["no_ground_truth", "ok", "ok"],
        },
        index=["r1", "r2", "r3"],
    )
    for m in ("faithfulness", "context_recall"):
        df[f"{m}_reason"] = ""
        df[f"{m}_verdicts"] = [[] for _ in range(3)]
        df[f"{m}_error"] = None
    worst = cli.worst_rows(df, 3)
    # r1: only faithfulness 0.4 counts; r2: only recall 0.2 (its 0 is a missing answer)
    assert worst.index.tolist() == ["r2", "r1", "r3"]
    assert worst["_mean"].tolist() == pytest.approx([0.2, 0.4, 0.7])
    assert worst["_position"].tolist() == [1, 0, 2]


def test_jsonl_keeps_row_labels_unless_they_are_positions(tmp_path):
    plain = pd.DataFrame({"a": [1, 2]})
    cli.write_jsonl(plain, tmp_path / "p.jsonl")
    assert pd.read_json(tmp_path / "p.jsonl", lines=True).columns.tolist() == ["a"]
    labelled = pd.DataFrame({"a": [1, 2]}, index=["q7", "q3"])
    cli.write_jsonl(labelled, tmp_path / "l.jsonl")
    back = pd.read_json(tmp_path / "l.jsonl", lines=True)
    assert back.to_dict("list") == {"row": ["q7", "q3"], "a": [1, 2]}
    named = pd.DataFrame({"a": [1, 2]}, index=pd.Index([5, 9], name="id"))
    cli.write_jsonl(named, tmp_path / "n.jsonl")
    assert pd.read_json(tmp_path / "n.jsonl", lines=True).to_dict("list") == {
        "id": [5, 9],
        "a": [1, 2],
    }


# ------------------------------------------------------------------ the test server


def _data_block(request: dict[str, Any]) -> dict[str, Any]:
    content = request["messages"][-1]["content"]
    match = re.search(r'<data id="[^"]+">\n(.*)\n</data', content, re.S)
    assert match, content
    return json.loads(match.group(1))


def judge_by_task(request: dict[str, Any]) -> str:
    """A scripted judge: claims are sentences; a claim about the moon is unsupported."""
    content = request["messages"][-1]["content"]
    kind = re.search(r"TASK: (\w+)", content).group(1)
    data = _data_block(request)
    if kind == "extract_claims":
        sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", data["text"]) if s.strip()]
        return json.dumps({"claims": sentences})
    if kind == "explain":
        return json.dumps({"reason": "scripted"})
    items = data.get("claims") or data.get("chunks") or []
    verdicts = []
    for item in items:
        text = item.get("claim") or item.get("chunk") or ""
        verdicts.append(
            {
                "index": item["index"],
                "verdict": "no" if "moon" in text else "yes",
                "reason": "scripted",
                "supporting_chunks": [0],
            }
        )
    return json.dumps({"verdicts": verdicts})


@pytest.mark.server
def test_evaluate_against_the_test_server(tmp_path, llm_server):
    llm_server.responder = judge_by_task
    rows = [dict(r) for r in GOOD[:4]]
    rows[0]["answer"] = "Exhibit 1 is in hall 1. It was flown to the moon."
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    out = tmp_path / "scored.jsonl"
    server = ["--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache"]
    args = (*server, "--out", str(out), "--concurrency", "4")
    env = {"OPENAI_API_KEY": "sk-test"}
    proc = evaluate(
        data, *args, "--fail-under", "recall=0.9,faithfulness=0.8", cwd=tmp_path, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(llm_server.log) >= 4 * 3
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["faithfulness"] for r in lines] == [0.5, 1.0, 1.0, 1.0]
    assert [r["context_recall"] for r in lines] == [1.0] * 4
    assert [r["context_precision"] for r in lines] == [1.0] * 4
    assert lines[0]["faithfulness_verdicts"][1]["verdict"] == "no"
    assert "ok   faithfulness: mean 0.875 >= 0.8" in proc.stdout


# The runs below call cli.main() in this process: the same code path as the subprocess
# above, without paying litellm's import (several seconds) once more per run.


def main_in_process(*args: str, capsys: Any) -> tuple[int, str, str]:
    code = cli.main(["evaluate", *args, "--no-progress"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.server
def test_fail_under_against_the_test_server(tmp_path, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.responder = judge_by_task
    rows = [dict(r) for r in GOOD[:4]]
    rows[0]["answer"] = "Exhibit 1 is in hall 1. It was flown to the moon."
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    server = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    code, out, err = main_in_process(
        str(data), *server, "--fail-under", "faithfulness=0.9", capsys=capsys
    )
    assert code == 1, out + err
    assert "FAIL faithfulness: mean 0.875 < 0.9" in out
    assert "ok   faithfulness: coverage 1.000 >= 1" in out


@pytest.mark.server
def test_default_responder_and_server_errors(tmp_path, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    args = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    args = (str(data), *args, "--metrics", "faithfulness", "--min-coverage", "1")
    # the default responder returns schema-valid (empty) answers: every row is measured
    code, out, err = main_in_process(*args, capsys=capsys)
    assert code == 0, out + err
    # a server that always fails: rows error, coverage gate fails with exit 1
    llm_server.responder = lambda request: {"status": 400, "error": "bad request"}
    code, out, err = main_in_process(*args, capsys=capsys)
    assert code == 1, out + err
    assert "FAIL faithfulness: coverage 0.000 < 1 (0/2 rows scored, 2 errors)" in out
    assert "row(s) failed; first error:" in err
    # --num-retries reaches the judge: a 500 is retried that many times, no more
    llm_server.responder = lambda request: {"status": 500, "error": "boom"}
    before = llm_server.requests
    code, out, err = main_in_process(*args, "--num-retries", "0", "--timeout", "5", capsys=capsys)
    assert code == 1, out + err
    assert llm_server.requests - before == 2  # one try per row


@pytest.mark.server
def test_a_missing_key_says_how_to_set_it_on_the_command_line(
    tmp_path, llm_server, monkeypatch, capsys
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    args = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    code, _out, err = main_in_process(str(data), *args, "--metrics", "faithfulness", capsys=capsys)
    assert code == 0  # no check asked: the run reports
    assert "missing credentials" in err
    assert "set the provider's key in the environment, e.g. OPENAI_API_KEY=..." in err
    assert llm_server.requests == 0  # nothing was sent


def test_a_scored_frame_read_back_from_parquet_keeps_its_claims_and_chunks(tmp_path):
    scored = rn.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    path = tmp_path / "scored.parquet"
    scored.to_parquet(path)
    raw = pd.read_parquet(path)  # pandas gives NumPy arrays of dicts, not lists
    assert not isinstance(raw["faithfulness_verdicts"].iloc[20], list)
    want_claims = scored.rag.claims().reset_index(drop=True)
    want_chunks = scored.rag.chunks().reset_index(drop=True)
    assert len(want_claims) > 50 and len(want_chunks) > 100
    for back in (raw, cli.read_table(path)):
        got = back.rag.claims().reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want_claims)
        pd.testing.assert_frame_equal(back.rag.chunks().reset_index(drop=True), want_chunks)
        assert back.rag.summary()["missing_verdicts"].equals(
            scored.rag.summary()["missing_verdicts"]
        )
    # the file reader restores plain lists, as in memory
    restored = cli.read_table(path)["faithfulness_verdicts"].iloc[20]
    assert isinstance(restored, list) and restored == scored["faithfulness_verdicts"].iloc[20]


def test_a_scored_frame_read_back_from_csv_keeps_its_claims_and_chunks(tmp_path):
    scored = rn.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    path = tmp_path / "scored.csv"
    scored.to_csv(path)  # the index (the sample's row ids) as the first column
    raw = pd.read_csv(path, index_col=0)
    assert isinstance(raw["faithfulness_verdicts"].iloc[20], str)  # the lists' repr
    want_claims = scored.rag.claims().reset_index(drop=True)
    want_chunks = scored.rag.chunks().reset_index(drop=True)
    with pytest.warns(
        UserWarning, match="columns 'context_recall_verdicts' and 'faithfulness_verdicts' hold text"
    ) as rec:
        got = raw.rag.claims()
    assert len([w for w in rec if "hold text" in str(w.message)]) == 1  # one per call
    # CSV keeps the labels as text, not as pandas' string dtype
    same = {"check_index_type": False, "check_dtype": False}
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want_claims, **same)
    with pytest.warns(UserWarning, match="'context_precision_verdicts' holds text"):
        got_chunks = raw.rag.chunks().reset_index(drop=True)
    pd.testing.assert_frame_equal(got_chunks, want_chunks, **same)
    assert raw.rag.summary()["missing_verdicts"].equals(scored.rag.summary()["missing_verdicts"])
    # CSV keeps no run metadata: the counters are unknown, not 0
    assert raw.rag.summary()["calls"].isna().all()
    # the file reader restores the lists, as in memory
    restored = cli.read_table(path)["faithfulness_verdicts"].iloc[20]
    assert isinstance(restored, list) and restored == scored["faithfulness_verdicts"].iloc[20]


def test_verdict_text_that_is_not_a_list_is_no_verdicts():
    from ragnotebook.frame import verdict_records

    assert verdict_records("[{'index': 0, 'verdict': 'yes', 'x': nan}]") == [
        {"index": 0, "verdict": "yes", "x": None}
    ]
    for text in ("", "yes", "[1, 2", "__import__('os')", "[{'a': f()}]"):
        assert verdict_records(text) in (None, [])


def test_report_without_plotly_names_the_extra(tmp_path, good, monkeypatch, capsys):
    scored = tmp_path / "scored.jsonl"
    cli.write_jsonl(
        rn.evaluate(pd.read_json(good, lines=True), model="offline", progress=False), scored
    )
    monkeypatch.setitem(sys.modules, "plotly", None)  # as if the [plot] extra were missing
    monkeypatch.setitem(sys.modules, "plotly.offline", None)
    code = cli.main(["report", str(scored), "--out", str(tmp_path / "r.html")])
    assert code == 4
    assert "pip install 'ragnotebook[plot]'" in capsys.readouterr().err
    frame = cli.read_table(scored)
    with pytest.raises(ImportError, match=r"needs plotly: pip install 'ragnotebook\[plot\]'"):
        frame.rag.report(tmp_path / "r.html")


def test_parquet_out_without_pyarrow_is_refused_before_scoring(tmp_path, good, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    code = cli.main(["evaluate", str(good), "--out", str(tmp_path / "s.parquet"), "--no-progress"])
    assert code == 2
    captured = capsys.readouterr()
    assert "needs pyarrow: pip install 'ragnotebook[parquet]', or write .jsonl" in captured.err
    assert "Summary" not in captured.out  # nothing was scored


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--worst", "-1"), "--worst: expected 0 or more rows, got -1"),
        (
            ("--out", "qs.csv"),
            "--out: 'qs.csv' must end in .parquet (keeps run metadata) or .jsonl",
        ),
    ],
)
def test_quickstart_usage_errors_are_refused_before_scoring(tmp_path, args, message, capsys):
    # --worst -1 listed 47 rows; --out qs.csv wrote JSON Lines into a .csv file
    code = cli.main(["quickstart", *args])
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert "Loaded" not in captured.out  # refused before loading or scoring
    assert not (tmp_path / "qs.csv").exists()


def test_quickstart_parquet_without_pyarrow_is_refused_before_scoring(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    code = cli.main(["quickstart", "--out", str(tmp_path / "q.parquet")])
    captured = capsys.readouterr()
    assert code == 2
    assert "needs pyarrow: pip install 'ragnotebook[parquet]', or write .jsonl" in captured.err
    assert "Loaded" not in captured.out


def test_quickstart_worst_zero_and_more_than_the_rows(tmp_path, capsys):
    assert cli.main(["quickstart", "--worst", "0", "--out", str(tmp_path / "a.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "lowest-scoring" not in out and "Summary" in out
    assert cli.main(["quickstart", "--worst", "500", "--out", str(tmp_path / "b.jsonl")]) == 0
    out = capsys.readouterr().out
    n_rows = len(rn.load_sample("quickstart"))
    assert f"The {n_rows} lowest-scoring rows" in out  # the rows there are, not 500


def test_version_option(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ragnotebook {rn.__version__}"


def test_parquet_input_without_pyarrow_names_the_extra(tmp_path, monkeypatch, capsys):
    data = tmp_path / "rows.parquet"
    data.write_bytes(b"PAR1")  # never read: pyarrow is missing
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    code = cli.main(["evaluate", str(data), "--no-progress"])
    assert code == 3
    err = capsys.readouterr().err
    assert "reading Parquet needs pyarrow: pip install 'ragnotebook[parquet]'" in err


def test_an_interrupted_evaluate_exits_130_and_keeps_the_rows_aside(
    tmp_path, good, monkeypatch, capsys
):
    # the library returns the finished rows on Ctrl-C; the command exited 0, ran its
    # checks and wrote the partial frame under --out (a later --baseline could use it)
    real = rn.evaluate

    def interrupted(*args: Any, **kwargs: Any) -> pd.DataFrame:
        out = real(*args, **kwargs)
        out.attrs["ragnotebook"]["last_run"]["interrupted"] = True
        return out

    monkeypatch.setattr(rn, "evaluate", interrupted)
    out = tmp_path / "scored.jsonl"
    code = cli.main(
        [
            "evaluate",
            str(good),
            "--out",
            str(out),
            "--no-progress",
            "--fail-under",
            "faithfulness=0",
        ]
    )
    captured = capsys.readouterr()
    assert code == 130
    assert not out.exists()
    partial = tmp_path / "scored.partial.jsonl"
    assert partial.exists()
    assert f"the finished rows are in {partial} (not {out}); no check was run" in captured.err
    assert "Checks:" not in captured.out


def test_report_out_must_be_html_and_may_be_in_a_new_folder(tmp_path, good):
    scored = tmp_path / "scored.jsonl"
    cli.write_jsonl(
        rn.evaluate(pd.read_json(good, lines=True), model="offline", progress=False), scored
    )
    proc = run_cli("report", str(scored), "--out", str(tmp_path / "r.txt"), cwd=tmp_path)
    assert proc.returncode == 2 and "must end in .html" in proc.stderr
    assert not (tmp_path / "r.txt").exists()
    nested = tmp_path / "new" / "dir" / "r.HTML"
    assert cli.main(["report", str(scored), "--out", str(nested)]) == 0
    assert nested.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
