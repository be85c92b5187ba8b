"""The command line end to end: ``python -m ragnotebook evaluate | report | quickstart``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook import _workers, cli
from tests.judge_replies import offline_responder

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
    assert "Judge usage" not in proc.stdout  # the offline judge sends no request
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


def test_by_checks_every_group_on_its_own(tmp_path):
    rows = [{**r, "system": "A"} for r in GOOD] + [{**r, "system": "B"} for r in WORSE]
    data = write_jsonl(tmp_path / "two.jsonl", rows)
    # over both systems the mean passes 0.5; system B alone does not
    proc = evaluate(
        data, "--metrics", "faithfulness", "--fail-under", "faithfulness=0.5", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout
    proc = evaluate(
        data,
        "--metrics",
        "faithfulness",
        "--fail-under",
        "faithfulness=0.5",
        "--by",
        "system",
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout
    assert "Per system:" in proc.stdout
    assert "ok   system=A: faithfulness: mean 1.000 >= 0.5" in proc.stdout
    assert re.search(r"FAIL system=B: faithfulness: mean 0\.\d+ < 0\.5", proc.stdout)
    assert "1 check(s) failed: system=B: faithfulness" in proc.stderr
    # a column that is not there is a usage error before any scoring
    proc = evaluate(data, "--metrics", "faithfulness", "--by", "sytem", cwd=tmp_path)
    assert proc.returncode == 2
    assert "--by 'sytem': no such column" in proc.stderr
    assert "scoring" not in proc.stderr


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
    assert "--on 'nope' is not a column of the data file (its columns: question, " in err
    assert "pass --on COLUMN naming a column both files have" in err
    # a role name works through the column detection, as compare() does
    assert cli.main([*args[:-3], "--on", "question", "--no-progress"]) == 0
    # a column only the data file has: the baseline is named
    with_id = write_jsonl(tmp_path / "with_id.jsonl", [{**r, "qid": i} for i, r in enumerate(GOOD)])
    capsys.readouterr()
    assert cli.main(["evaluate", str(with_id), "--baseline", str(baseline), "--on", "qid"]) == 3
    err = capsys.readouterr().err
    assert "scoring" not in err
    assert "--on 'qid' is not a column of the baseline file (its columns: question, " in err


def _mapped_rows(tmp_path: Path, name: str) -> Path:
    """GOOD with the question in a column ``q`` (read with ``--column question=q``)."""
    rows = [{"q": r["question"], **{k: v for k, v in r.items() if k != "question"}} for r in GOOD]
    return write_jsonl(tmp_path / name, rows)


def test_the_default_on_follows_the_question_column_mapping(tmp_path, capsys):
    # --on question (the default) is the column the scoring reads as the question: here q,
    # in this run and in a baseline written by the same command; it was exit 4 after
    # scoring every row ("on='question' is not a column of frame A ...")
    data = _mapped_rows(tmp_path, "mapped.jsonl")
    baseline = tmp_path / "baseline.jsonl"
    common = ["--column", "question=q", "--model", "offline", "--no-progress"]
    assert cli.main(["evaluate", str(data), *common, "--out", str(baseline)]) == 0
    capsys.readouterr()
    assert cli.main(["evaluate", str(data), *common, "--baseline", str(baseline)]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"faithfulness\s+8\s+1\.0", out)  # 8 pairs
    assert "ok   faithfulness: no significant drop (mean diff +0.000, p=1.0000)" in out
    # a baseline whose question column is "question" pairs with q all the same
    other = tmp_path / "other.jsonl"
    assert (
        cli.main(
            [
                "evaluate",
                str(write_jsonl(tmp_path / "g.jsonl", GOOD)),
                "--out",
                str(other),
                "--model",
                "offline",
                "--no-progress",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert cli.main(["evaluate", str(data), *common, "--baseline", str(other)]) == 0
    assert re.search(r"faithfulness\s+8\s+1\.0", capsys.readouterr().out)
    # unmapped, the data file has no question column: refused before scoring, exit 3
    assert cli.main(["evaluate", str(data), "--no-progress", "--baseline", str(baseline)]) == 3
    err = capsys.readouterr().err
    assert "scoring" not in err
    assert "--on 'question' is not a column of the data file (its columns: q, answer" in err


def test_a_baseline_without_scores_is_refused_before_scoring(tmp_path, good, capsys):
    # the unscored input as its own baseline: it scored every row, then exited 3
    out = tmp_path / "scored.jsonl"
    args = ["evaluate", str(good), "--no-progress", "--out", str(out), "--baseline", str(good)]
    assert cli.main(args) == 3
    captured = capsys.readouterr()
    assert "scoring" not in captured.err and captured.out == "" and not out.exists()
    assert (
        f"input error: --baseline {good}: the file has none of the evaluated metrics "
        "(context_recall, context_precision, faithfulness); it has no ragnotebook scores"
    ) in captured.err
    # one of them is enough; the others are skipped with a note
    recall_only = tmp_path / "recall.jsonl"
    assert (
        cli.main(
            [
                "evaluate",
                str(good),
                "--metrics",
                "recall",
                "--out",
                str(recall_only),
                "--no-progress",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert cli.main(["evaluate", str(good), "--no-progress", "--baseline", str(recall_only)]) == 0
    assert "baseline: not scored on context_precision, faithfulness; not compared" in (
        capsys.readouterr().err
    )


def test_a_baseline_scored_by_another_judge_is_warned_about(tmp_path, capsys):
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:4])
    baseline = tmp_path / "baseline.jsonl"
    base = ["evaluate", str(data), "--model", "offline", "--no-progress"]
    assert cli.main([*base, "--out", str(baseline)]) == 0
    capsys.readouterr()
    assert cli.main([*base, "--baseline", str(baseline)]) == 0
    assert "another judge" not in capsys.readouterr().err  # the same judge: no warning
    run_file = tmp_path / "baseline.jsonl.run.json"
    meta = json.loads(run_file.read_text(encoding="utf-8"))
    meta["attrs"]["judge"] = "offline-v1"  # as an older version would have written it
    run_file.write_text(json.dumps(meta), encoding="utf-8")
    assert cli.main([*base, "--baseline", str(baseline)]) == 0
    err = capsys.readouterr().err
    assert (
        "warning: the baseline was scored by another judge than this run (judge 'offline-v1' "
        "-> 'offline-v24'): a difference may come from the judge, not the system" in err
    )


def test_a_group_with_nothing_to_compare_is_not_ok(tmp_path, capsys):
    rows = [{**GOOD[i], "system": "A"} for i in range(2)]
    rows += [{**GOOD[i + 2], "system": "B", "ground_truth": None} for i in range(2)]
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    baseline = tmp_path / "baseline.jsonl"
    base = ["evaluate", str(data), "--model", "offline", "--no-progress"]
    args = [*base, "--metrics", "recall"]
    assert cli.main([*args, "--out", str(baseline)]) == 0
    capsys.readouterr()
    assert cli.main([*args, "--baseline", str(baseline), "--by", "system"]) == 0
    out = capsys.readouterr().out
    assert "--   system=B: context_recall: nothing to compare (0 rows scored in both runs)" in out
    assert "ok   system=B" not in out


def test_repeated_pairing_values_are_warned_about_with_an_id_to_pair_on(tmp_path, capsys):
    # every question asked twice, as in the bundled quickstart sample; the rows have ids
    rows = [{"id": f"r{i}", **GOOD[i % 4]} for i in range(8)]
    data = write_jsonl(tmp_path / "twice.jsonl", rows)
    baseline = tmp_path / "baseline.jsonl"
    assert cli.main(["evaluate", str(data), "--out", str(baseline), "--no-progress"]) == 0
    capsys.readouterr()
    assert cli.main(["evaluate", str(data), "--baseline", str(baseline), "--no-progress"]) == 0
    err = capsys.readouterr().err
    # one message, naming the command's option: compare()'s own warnings (one per file,
    # advising on='id' or on=None) are not shown besides it
    assert [line for line in err.splitlines() if "warning" in line] == [
        "ragnotebook evaluate: warning: rows are paired by 'question', which repeats 4 values "
        "(on 8 rows) in both the baseline and this run, so a row may be compared with another "
        "row that has the same value (such rows are paired by row label where both files give "
        "them the same labels, else in order of appearance); pass --on id (one value per row "
        "in both files)"
    ]
    assert "on=" not in err
    assert (
        cli.main(
            ["evaluate", str(data), "--baseline", str(baseline), "--on", "id", "--no-progress"]
        )
        == 0
    )
    assert "warning" not in capsys.readouterr().err
    # this run has no id column: say that this is what keeps the baseline's from pairing
    plain = write_jsonl(tmp_path / "plain.jsonl", [GOOD[i % 4] for i in range(8)])
    assert cli.main(["evaluate", str(plain), "--baseline", str(baseline), "--no-progress"]) == 0
    assert (
        "; the column 'id' cannot pair them either: it is missing from this run; give each row "
        "its own 'id' in both files and pass --on id\n"
    ) in capsys.readouterr().err
    # --on id given (twice: the last one counts, as for any option), but the data's ids
    # repeat: say where, once, and not "pass --on id"
    dup = write_jsonl(
        tmp_path / "dup.jsonl", [{"id": f"r{i % 4}", **GOOD[i % 4]} for i in range(8)]
    )
    args = ["evaluate", str(dup), "--baseline", str(baseline), "--on", "id", "--no-progress"]
    assert cli.main([*args, "--on", "id"]) == 0
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "repeats" in line] == [
        "ragnotebook evaluate: warning: rows are paired by 'id', which repeats 4 values (on 8 "
        "rows) in this run, so a row may be compared with another row that has the same value "
        "(such rows are paired by row label where both files give them the same labels, else "
        "in order of appearance); give each row its own id"
    ]


def _baseline_row(out: str, metric: str = "faithfulness") -> dict[str, float]:
    """The row of ``metric`` in the table ``evaluate --baseline`` prints."""
    table = out.split("Against the baseline")[1].splitlines()
    names = table[1].split()
    values = next(line for line in table if line.startswith(metric)).split()[1:]
    return dict(zip(names, map(float, values), strict=True))


def test_rows_named_alike_in_both_files_pair_by_name_without_a_warning(tmp_path, capsys):
    # every question twice, a supported and an unsupported answer, each row with its own
    # qid; this run lists them in the reverse order
    rows = []
    for i in range(4):
        rows += [{"qid": f"q{i}-good", **GOOD[i]}, {"qid": f"q{i}-bad", **WORSE[i]}]
    old_rows = write_jsonl(tmp_path / "old_rows.jsonl", rows)
    new_rows = write_jsonl(tmp_path / "new_rows.jsonl", rows[::-1])
    base = ["--model", "offline", "--no-progress", "--metrics", "faithfulness", "--id", "qid"]
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    assert cli.main(["evaluate", str(old_rows), *base, "--out", str(old)]) == 0
    capsys.readouterr()
    args = ["evaluate", str(new_rows), *base, "--baseline", str(old)]
    assert cli.main([*args, "--out", str(new)]) == 0
    captured = capsys.readouterr()
    # each row met its own (its qid, the label of its row in both files): no change at all,
    # where pairing in order of appearance compared supported with unsupported answers
    assert "warning" not in captured.err
    row = _baseline_row(captured.out)
    assert (row["n_pairs"], row["mean_diff"], row["ci_low"], row["ci_high"]) == (8, 0, 0, 0)
    # the report pairs the two files' rows by the labels they kept, and says nothing either
    html = tmp_path / "r.html"
    report = ["report", str(new), "--baseline", str(old), "--out", str(html)]
    assert cli.main([*report, "--plotly-js", "cdn"]) == 0
    assert "warning" not in capsys.readouterr().err
    page = html.read_text(encoding="utf-8")
    assert "rnb-notes" not in page
    # 8 rows compared: 0 up, 0 down, 8 the same
    assert "<td>8</td><td>0</td><td>0</td><td>8</td>" in page
    # without --id this run's rows are only positions: the doubt stays, and is said
    assert cli.main(args[:-4] + args[-2:]) == 0
    assert "rows are paired by 'question', which repeats 4 values" in capsys.readouterr().err


def test_an_id_column_that_repeats_too_is_named_as_the_trouble(tmp_path, capsys):
    # the rows have an id column, but it names the question, not the row
    rows = []
    for i in range(4):
        rows += [{"id": f"q{i}", **GOOD[i]}, {"id": f"q{i}", **WORSE[i]}]
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    base = [
        "evaluate",
        str(data),
        "--model",
        "offline",
        "--no-progress",
        "--metrics",
        "faithfulness",
    ]
    baseline = tmp_path / "baseline.jsonl"
    assert cli.main([*base, "--out", str(baseline)]) == 0
    capsys.readouterr()
    assert cli.main([*base, "--baseline", str(baseline)]) == 0
    err = capsys.readouterr().err
    assert [line.split("; ", 1)[1] for line in err.splitlines() if "warning" in line] == [
        "the column 'id' cannot pair them either: it repeats 4 values (on 8 rows) in both "
        "files; give each row its own 'id' in both files and pass --on id"
    ]
    assert "give the rows an id column" not in err
    # an id column of this run only
    plain = tmp_path / "plain.jsonl"
    no_id = write_jsonl(
        tmp_path / "no_id.jsonl", [{k: v for k, v in r.items() if k != "id"} for r in rows]
    )
    args = [
        "evaluate",
        str(no_id),
        "--model",
        "offline",
        "--no-progress",
        "--metrics",
        "faithfulness",
    ]
    assert cli.main([*args, "--out", str(plain)]) == 0
    capsys.readouterr()
    assert cli.main([*base, "--baseline", str(plain)]) == 0
    assert (
        "the column 'id' cannot pair them either: it is missing from the baseline and it "
        "repeats 4 values (on 8 rows) in this run; give each row its own 'id' in both files "
        "and pass --on id"
    ) in capsys.readouterr().err
    # no id column anywhere: say how to get one
    assert cli.main([*args, "--baseline", str(plain)]) == 0
    assert (
        "; give the rows an id column and pass --on id (the JSON Lines files 'ragnotebook "
        "evaluate --out' writes keep rows' labels in a first column)"
    ) in capsys.readouterr().err


def test_the_coverage_warning_of_the_comparison_is_shown(tmp_path, good, capsys):
    baseline = tmp_path / "baseline.jsonl"
    assert cli.main(["evaluate", str(good), "--out", str(baseline), "--no-progress"]) == 0
    capsys.readouterr()
    half = write_jsonl(tmp_path / "half.jsonl", GOOD[:4])
    assert cli.main(["evaluate", str(half), "--baseline", str(baseline), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert (
        "ragnotebook evaluate: warning: against the baseline: coverage differs, so the means "
        "alone mislead; context_recall: coverage: baseline 1.00, this run 0.50; 4 row(s) only "
        "in the baseline"
    ) in captured.err
    # the coverage check counts the baseline rows this run does not have, and says so
    assert (
        "FAIL faithfulness: coverage dropped against the baseline: 1.000 -> 0.500 (4 baseline "
        "row(s) missing from this run, 0 row(s) scored in the baseline lost their score)"
    ) in captured.out
    # compare()'s note points to mean_diff_strict, a column of its Python table that the
    # command does not print: the command says what its own mean difference covers
    assert (
        "4 row(s) only in the baseline; the mean difference covers paired rows only | "
        "context_precision: "
    ) in captured.err
    assert "mean_diff_strict" not in captured.err
    pytest.importorskip("plotly")
    scored_half = tmp_path / "half_scored.jsonl"
    assert cli.main(["evaluate", str(half), "--out", str(scored_half), "--no-progress"]) == 0
    capsys.readouterr()
    html = tmp_path / "r.html"
    args = ["report", str(scored_half), "--baseline", str(baseline), "--out", str(html)]
    assert cli.main([*args, "--plotly-js", "cdn"]) == 0
    err = capsys.readouterr().err
    assert "4 row(s) only in the baseline; the mean difference covers paired rows only" in err
    assert "mean_diff_strict" not in err


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
    assert (
        "FAIL context_recall: coverage dropped against the baseline: 1.000 -> 0.625 (0 baseline "
        "row(s) missing from this run, 3 row(s) scored in the baseline lost their score)"
    ) in proc.stdout


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
    assert scored.attrs["ragnotebook"]["judge"] == "offline-v24"
    assert (scored["faithfulness"] == 1.0).all()
    assert rn.summary(scored).loc["context_precision", "scored"] == "8/8"


def test_same_scores_write_the_same_jsonl_bytes_and_parquet_keeps_its_timings(tmp_path, good):
    # docs/cli.md: the rows of JSON Lines are the same bytes run after run; the run
    # metadata (start time, seconds) is kept on purpose, beside them or inside the Parquet
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    outs = []
    for n in (1, 2):
        jsonl, parquet = tmp_path / f"run{n}.jsonl", tmp_path / f"run{n}.parquet"
        for out in (jsonl, parquet):
            args = ["evaluate", str(good), "--model", "offline", "--no-progress"]
            assert cli.main([*args, "--out", str(out)]) == 0
        outs.append((jsonl, parquet))
    (jsonl1, parquet1), (jsonl2, parquet2) = outs
    assert jsonl1.read_bytes() == jsonl2.read_bytes()
    runs = [json.loads(cli.run_file(p).read_text(encoding="utf-8")) for p in (jsonl1, jsonl2)]
    assert runs[0]["attrs"]["last_run"]["started_at"] != runs[1]["attrs"]["last_run"]["started_at"]
    assert parquet1.read_bytes() != parquet2.read_bytes()
    assert pq.read_table(parquet1).equals(pq.read_table(parquet2))  # the docs' way to compare
    metas = [pd.read_parquet(p).attrs["ragnotebook"] for p in (parquet1, parquet2)]
    assert metas[0]["last_run"]["started_at"] != metas[1]["last_run"]["started_at"]
    assert all(isinstance(m["last_run"]["wall_seconds"], float) for m in metas)
    assert all(isinstance(m["metrics"]["faithfulness"]["seconds"], float) for m in metas)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--metrics", "relevancy"), "unknown metric 'relevancy'"),
        (("--fail-under", "recall"), "expected metric=value"),
        (("--fail-under", "recall=high"), "'high' is not a number"),
        (("--metrics", "recall", "--fail-under", "faithfulness=0.5"), "not in --metrics"),
        (
            ("--out", "scored.txt"),
            "must end in .parquet or .pq (Parquet, keeps the run metadata), "
            "or .jsonl or .ndjson (JSON Lines)",
        ),
        (("--column", "docs"), "expected role=column"),
        (("--column", "passages=docs"), "unknown role 'passages'"),
        (("--api-base", "http://127.0.0.1:1/v1"), "not the offline judge"),
        (("--timeout", "5"), "--timeout applies to LLM models, not the offline judge"),
        (("--num-retries", "1"), "--num-retries applies to LLM models"),
        (("--min-coverage", "2"), "between 0 and 1"),
        (("--workers", "0"), "--workers must be >= 1"),
        (("--fail-under", "recall=1.5"), "'recall=1.5': scores run from 0 to 1"),
        (("--fail-under", "faithfulness=-0.1"), "a minimum must be between 0 and 1"),
        (("--max-drop", "-1"), "--max-drop: -1 is not between 0 and 1"),
        (("--max-drop", "1.5"), "--max-drop: 1.5 is not between 0 and 1"),
        (("--max-drop", "nan"), "--max-drop: nan is not between 0 and 1"),
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
    # one error for every missing role, each with its option
    assert proc.returncode == 3
    assert "no column found for the 'contexts' and 'ground_truth' roles" in proc.stderr
    assert "rename a column or pass --column contexts=COLUMN." in proc.stderr
    assert "rename a column or pass --column ground_truth=COLUMN." in proc.stderr
    assert "columns=" not in proc.stderr


def test_an_empty_csv_and_an_api_base_without_scheme_are_said_plainly(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    assert cli.main(["evaluate", str(empty), "--model", "offline"]) == 3
    err = capsys.readouterr().err
    assert "no rows to score (the file is empty: not even a header line)" in err
    assert "EmptyDataError" not in err
    rows = write_jsonl(tmp_path / "rows.jsonl", GOOD[:1])
    args = ["evaluate", str(rows), "--model", "openai/x", "--api-base", "127.0.0.1:8000/v1"]
    assert cli.main(args) == 2  # a usage error, before any row is read or scored
    err = capsys.readouterr().err
    assert "--api-base must start with http:// or https://" in err
    assert "did you mean --api-base http://127.0.0.1:8000/v1?" in err


def test_precision_against_an_empty_ground_truth_fails_the_command(tmp_path, capsys):
    # it printed a NaN mean, 0/2 no_reference, and exited 0
    rows = [
        {"question": "Where?", "answer": "Pier 4.", "contexts": ["Pier 4."], "ground_truth": None}
    ]
    data = write_jsonl(tmp_path / "no_refs.jsonl", rows * 2)
    args = ["evaluate", str(data), "--model", "offline", "--no-progress", "--metrics", "precision"]
    code = cli.main([*args, "--reference", "ground_truth"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "so 'context_precision' has nothing to score" in err and "(no_reference" in err
    assert cli.main(args) == 0  # reference auto: judged against the answers


def test_a_column_empty_in_every_row_fails_the_command(tmp_path, capsys):
    rows = [{"question": "Where?", "answer": None, "contexts": ["Pier 4."], "ground_truth": "4"}]
    data = write_jsonl(tmp_path / "no_answers.jsonl", rows * 2)
    code = cli.main(["evaluate", str(data), "--model", "offline", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert err.rstrip().endswith(
        "input error: the 'answer' column is empty in every row, so 'faithfulness' has nothing "
        "to score: every row is missing data (status no_claims, counted in no_answer, none "
        "enters the mean). Fill the column; score the rest with --metrics recall,precision."
    )
    code = cli.main(
        [
            "evaluate",
            str(data),
            "--model",
            "offline",
            "--no-progress",
            "--metrics",
            "recall,precision",
            "--out",
            str(tmp_path / "o.jsonl"),
        ]
    )
    assert code == 0


def test_a_missing_column_error_names_this_commands_options(tmp_path, capsys):
    # the API's remedies (columns=..., metrics=[...]) are given as the options that do it
    logs = write_jsonl(
        tmp_path / "logs.jsonl",
        [{"question": "Where?", "answer": "Pier 4.", "contexts": ["It is on Pier 4."]}],
    )
    code = cli.main(["evaluate", str(logs), "--model", "offline", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 3 and "no column found for the 'ground_truth' role" in err
    assert "pass --column ground_truth=COLUMN ('context_recall' needs it; score the rest " in err
    assert err.rstrip().endswith("with --metrics precision,faithfulness)")
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [{"question": "Where?", "answer": "Pier 4.", "contexts": ["Pier 4."], "gold answer": "x"}],
    )
    code = cli.main(["evaluate", str(gold), "--model", "offline", "--metrics", "recall"])
    err = capsys.readouterr().err
    assert code == 3 and "'gold answer' looks like it: rename a column or pass " in err
    assert "--column 'ground_truth=gold answer' ('context_recall' needs it)" in err
    # what the message says works
    code = cli.main(
        [
            "evaluate",
            str(gold),
            "--model",
            "offline",
            "--no-progress",
            "--metrics",
            "recall",
            "--column",
            "ground_truth=gold answer",
            "--out",
            str(tmp_path / "o.jsonl"),
        ]
    )
    assert code == 0


def test_warnings_and_model_errors_name_this_commands_options(tmp_path, capsys):
    # a look-alike column's warning: not the Python columns={...}
    rows = write_jsonl(
        tmp_path / "rows.jsonl",
        [{"user_question": "Where?", "answer": "Pier 4.", "contexts": ["It is on Pier 4."]}],
    )
    code = cli.main(
        ["evaluate", str(rows), "--model", "offline", "--metrics", "faithfulness", "--no-progress"]
    )
    err = capsys.readouterr().err
    assert code == 0 and "pass --column question=user_question to use it" in err
    assert "columns=" not in err
    # a model litellm cannot place is an input error in evaluate and in quickstart alike,
    # and its remedy is an option of the command (there is no custom_llm_provider option)
    code = cli.main(["evaluate", str(rows), "--model", "offlin", "--metrics", "faithfulness"])
    err = capsys.readouterr().err
    assert code == 3 and "did you mean --model offline (the offline judge)?" in err
    code = cli.main(["quickstart", "--model", "offlin", "--out", str(tmp_path / "q.jsonl")])
    err = capsys.readouterr().err
    assert code == 3 and "did you mean --model offline (the offline judge)?" in err
    assert not (tmp_path / "q.jsonl").exists()
    code = cli.main(["quickstart", "--model", "my-model", "--out", str(tmp_path / "q.jsonl")])
    err = capsys.readouterr().err
    assert code == 3 and "write it as 'provider/model'" in err
    assert "'hosted_vllm/NAME' with --api-base URL)" in err and "custom_llm_provider" not in err


# ------------------------------------------------------------------ report, quickstart


def test_report_writes_html_or_says_why_not(tmp_path, good):
    scored = tmp_path / "scored.jsonl"
    assert evaluate(good, "--out", str(scored), cwd=tmp_path).returncode == 0
    html = tmp_path / "report.html"
    proc = run_cli("report", str(scored), "--out", str(html), cwd=tmp_path)
    try:
        import ragnotebook.views._report  # noqa: F401
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
    monkeypatch.setitem(sys.modules, "ragnotebook.views._report", None)  # import fails
    code = cli.main(["report", str(scored), "--out", str(tmp_path / "r.html")])
    assert code == 4
    err = capsys.readouterr().err
    assert "the HTML report is not available in this installation" in err
    # from a source checkout (as here): the editable install of the clone's extra
    assert f"install -e '{ROOT}[plot]'" in err


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
    # the closing hint is runnable as printed: it defines the frame it evaluates
    hint = proc.stdout.split("or in Python:\n", 1)[1]
    assert "df = ragnotebook.load_sample('quickstart')" in hint
    assert hint.index("df = ") < hint.index("df.rag.evaluate")
    # pasted into a plain REPL or a .py file as printed: no indentation
    code = "\n".join(line for line in hint.splitlines() if line.strip())
    compile(code, "hint", "exec")
    assert "model='offline' needs none" in hint
    # the README's two ways to read the file back give the scores as written (pandas'
    # default float parser gives 0.35000000000000003 for 0.35)
    from ragnotebook.cli import read_table, with_row_labels

    back = with_row_labels(read_table(tmp_path / "q.jsonl"))
    plain = pd.read_json(tmp_path / "q.jsonl", lines=True, precise_float=True).set_index("id")
    for m in ("context_recall", "context_precision", "faithfulness"):
        written = back[m].dropna().tolist()
        assert written == plain[m].dropna().tolist()
        assert all(v == round(v, 2) for v in written)
    assert back.rag.summary()["calls"].notna().all()  # the run metadata came back


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
    # with room for two: the worst row of each metric (r2 for recall, r1 for faithfulness)
    assert cli.worst_rows(df, 2).index.tolist() == ["r2", "r1"]


def test_worst_rows_keep_each_metrics_worst_row():
    n = 8
    df = pd.DataFrame(
        {
            # recall misses would fill the list; faithfulness's worst row has a higher mean
            "context_recall": pd.array([0.0] * 6 + [0.9, 1.0], dtype="Float64"),
            "context_recall_status": ["ok"] * n,
            "faithfulness": pd.array([None] * 6 + [0.1, 0.8], dtype="Float64"),
            "faithfulness_status": ["no_claims"] * 6 + ["ok", "ok"],
        },
        index=[f"q{i}" for i in range(n)],
    )
    df["answer"] = [None] * 6 + ["a", "b"]
    for m in ("faithfulness", "context_recall"):
        df[f"{m}_reason"] = ""
        df[f"{m}_verdicts"] = [[] for _ in range(n)]
        df[f"{m}_error"] = None
    worst = cli.worst_rows(df, 5)
    assert "q6" in worst.index  # faithfulness 0.1: its worst row, mean 0.5
    assert worst.index.tolist() == ["q0", "q1", "q2", "q3", "q6"]
    assert worst["_mean"].tolist() == pytest.approx([0.0, 0.0, 0.0, 0.0, 0.5])


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
    # what the run spent, under the summary (the offline judge prints no such line)
    assert f"Judge usage: {len(llm_server.log)} request(s), 0 cache hit(s)" in proc.stdout


# The runs below call cli.main() in this process: the same code path as the subprocess
# above, without paying litellm's import (several seconds) once more per run.


def main_in_process(*args: str, capsys: Any) -> tuple[int, str, str]:
    code = cli.main(["evaluate", *args, "--no-progress"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.server
def test_an_interrupted_llm_run_says_what_it_spent_and_how_to_finish(
    tmp_path, llm_server, monkeypatch, capsys
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.responder = judge_by_task
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    real = rn.evaluate

    from ragnotebook.engine import CANCELLED_MESSAGE

    def interrupted(df, **kw):  # as a Ctrl-C after the first row leaves the frame
        out = real(df, **kw)
        out.loc[out.index[1], "faithfulness"] = pd.NA
        out.loc[out.index[1], "faithfulness_status"] = "error"
        out.loc[out.index[1], "faithfulness_error"] = CANCELLED_MESSAGE
        out.attrs["ragnotebook"]["last_run"]["interrupted"] = True
        return out

    monkeypatch.setattr(rn, "evaluate", interrupted)
    server = ("--model", "openai/test-model", "--api-base", llm_server.url)
    out_file = tmp_path / "scored.jsonl"
    args = (str(data), *server, "--metrics", "faithfulness", "--out", str(out_file))
    code, _out, err = main_in_process(*args, capsys=capsys)
    assert code == 130, err
    assert (
        "run the same command again to finish: the answers already paid for come from the judge cache"
        in err
    )
    assert re.search(r"Judge usage: \d+ request\(s\), .* \(the part that ran\)", err)
    code, _out, err = main_in_process(*args, "--no-cache", capsys=capsys)
    assert code == 130 and "run the same command again" not in err  # nothing cached


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
def test_tasks_shared_within_a_run_are_no_cache_hits(tmp_path, llm_server, monkeypatch, capsys):
    # the same row twice with the cache off: its tasks are asked once and shared, which
    # the usage line says apart from cache hits (there is no cache)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.responder = judge_by_task
    data = write_jsonl(tmp_path / "rows.jsonl", [GOOD[0], GOOD[0]])
    server = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    code, out, err = main_in_process(
        str(data), *server, "--metrics", "faithfulness", "--concurrency", "1", capsys=capsys
    )
    assert code == 0, out + err
    requests = len(llm_server.log)
    assert requests == 2  # one extraction, one verification
    assert (
        f"Judge usage: {requests} request(s), 0 cache hit(s), 2 task(s) shared with an "
        "identical one of the run" in out
    )


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
    assert "2 row(s) failed; first error (row 0 (line 1 of rows.jsonl)):" in err
    # --num-retries reaches the judge: a 500 is retried that many times, no more
    llm_server.responder = lambda request: {"status": 500, "error": "boom"}
    before = llm_server.requests
    code, out, err = main_in_process(*args, "--num-retries", "0", "--timeout", "5", capsys=capsys)
    assert code == 1, out + err
    assert llm_server.requests - before == 2  # one try per row
    # without a check asked for, a run where every row failed is no success either
    ungated = [a for a in args if a not in ("--min-coverage", "1")]
    code, out, err = main_in_process(*ungated, "--num-retries", "0", capsys=capsys)
    assert code == 4, out + err
    assert "ragnotebook evaluate: no row could be scored: every row failed" in err


@pytest.mark.server
def test_one_metric_failing_on_every_row_is_no_success(tmp_path, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    def words_faithfulness_cannot_read(request: dict[str, Any]) -> Any:
        kind = re.search(r"TASK: (\w+)", request["messages"][-1]["content"]).group(1)
        if kind == "verify_claims":
            return {"status": 400, "error": "this model does not verify claims"}
        return judge_by_task(request)

    llm_server.responder = words_faithfulness_cannot_read
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    out = tmp_path / "scored.jsonl"
    args = (str(data), "--model", "openai/test-model", "--api-base", llm_server.url)
    args = (*args, "--no-cache", "--num-retries", "0", "--out", str(out))
    code, stdout, err = main_in_process(*args, capsys=capsys)
    assert code == 4, stdout + err
    assert (
        "ragnotebook evaluate: faithfulness could not be scored on any row: every row that "
        "could be judged failed (the first error is above); the other metrics are scored and "
        "written" in err
    )
    assert "no row could be scored" not in err
    scored = pd.read_json(out, lines=True)
    assert scored["faithfulness_status"].tolist() == ["error", "error"]
    assert scored["context_recall_status"].tolist() == ["ok", "ok"]
    # asked for the other metrics only, the run succeeds
    code, stdout, err = main_in_process(
        *args, "--metrics", "context_recall,context_precision", capsys=capsys
    )
    assert code == 0, stdout + err


@pytest.mark.server
def test_cited_chunks_that_do_not_exist_show_in_the_printed_summary(
    tmp_path, llm_server, monkeypatch, capsys
):
    from tests.llm_server import faulty_replies

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    args = (str(data), "--model", "openai/test-model", "--api-base", llm_server.url)
    args = (*args, "--no-cache", "--metrics", "faithfulness")
    llm_server.responder = offline_responder()
    code, out, err = main_in_process(*args, capsys=capsys)
    assert code == 0, out + err
    assert "out_of_range_chunks" not in out and "do not exist" not in err
    llm_server.responder = faulty_replies(offline_responder(), "phantom_chunks")
    code, out, err = main_in_process(*args, capsys=capsys)
    assert code == 0, out + err
    header = next(line for line in out.splitlines() if line.lstrip().startswith("mean"))
    assert header.split()[-1] == "out_of_range_chunks"
    row = next(line for line in out.splitlines() if line.startswith("faithfulness"))
    assert row.split()[-1] == "4"  # 2 rows, each yes citing 7 and -1
    assert "the judge cited supporting chunks that do not exist" in err


@pytest.mark.server
def test_quickstart_with_an_llm_judge_names_its_failures(tmp_path, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "qs.jsonl"
    args = ["quickstart", "--model", "openai/test-model", "--api-base", llm_server.url]
    args += ["--out", str(out), "--worst", "1", "--num-retries", "0"]
    # a judge that fails on every row: the first error per metric, and no success
    llm_server.responder = lambda request: {"status": 400, "error": "the model is not loaded"}
    code = cli.main(args)
    captured = capsys.readouterr()
    assert code == 4, captured.out + captured.err
    for m in ("context_recall", "context_precision", "faithfulness"):
        assert (
            f"ragnotebook: {m}: " in captured.err and "row(s) failed; first error" in captured.err
        )
    assert "the model is not loaded" in captured.err
    assert "no row could be scored: every row failed" in captured.err
    assert out.is_file()  # written all the same, to be looked at
    # a working server: what the run spent is printed, and the run succeeds
    llm_server.responder = judge_by_task
    code = cli.main([*args, "--timeout", "10"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert "Judge usage: " in captured.out and "row(s) failed" not in captured.err
    # the LLM options are refused for the offline judge, as in evaluate
    code = cli.main(["quickstart", "--api-base", llm_server.url, "--out", str(out)])
    assert code == 2
    assert "--api-base applies to LLM models, not the offline judge" in capsys.readouterr().err


@pytest.mark.server
def test_a_silent_server_hint_names_the_timeout_option(tmp_path, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.faults = {"timeout": 1.0}
    llm_server.slow_seconds = 5
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    args = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    args = (*args, "--metrics", "recall,faithfulness", "--timeout", "0.3", "--num-retries", "0")
    code, _out, err = main_in_process(str(data), *args, "--concurrency", "1", capsys=capsys)
    assert code == 4  # every row failed: no check asked, and still no success
    # row 0's recall call timed out; every later call was skipped with the hint
    assert (
        "faithfulness: 2 row(s) failed; first error (row 0 (line 1 of rows.jsonl)): timeout: skipped: "
        in err
    )
    assert "if the model is only slow to start, raise --timeout" in err
    assert "timeout=" not in err
    assert llm_server.requests == 1


@pytest.mark.server
def test_a_missing_key_says_how_to_set_it_on_the_command_line(
    tmp_path, llm_server, monkeypatch, capsys
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    # a server on another machine: the client refuses to send without a key
    args = ("--model", "openai/test-model", "--api-base", "http://llm.invalid/v1", "--no-cache")
    code, _out, err = main_in_process(str(data), *args, "--metrics", "faithfulness", capsys=capsys)
    assert code == 4  # every row failed: no check asked, and still no success
    assert "missing credentials" in err
    assert "set the provider's key in the environment, e.g. OPENAI_API_KEY=..." in err
    # a server on this machine (vLLM, llama.cpp) gets a placeholder key and answers
    llm_server.responder = offline_responder()
    out_file = tmp_path / "scored.jsonl"
    args = ("--model", "openai/test-model", "--api-base", llm_server.url, "--no-cache")
    code, _out, err = main_in_process(
        str(data), *args, "--metrics", "faithfulness", "--out", str(out_file), capsys=capsys
    )
    assert code == 0 and "missing credentials" not in err
    assert llm_server.requests > 0
    assert pd.read_json(out_file, lines=True)["faithfulness_status"].tolist() == ["ok", "ok"]


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
    assert f"install -e '{ROOT}[plot]'" in capsys.readouterr().err  # a source checkout
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
            "--out: 'qs.csv' must end in .parquet or .pq (Parquet, keeps the run metadata), "
            "or .jsonl or .ndjson (JSON Lines)",
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


def test_a_reader_that_stops_reading_does_not_stop_the_command(tmp_path):
    # `ragnotebook quickstart | head -1`: the pipe closes after one line; the scored file
    # is still written, nothing is printed about the pipe and the exit code is the run's
    out = tmp_path / "scored.jsonl"
    cmd = f"set -o pipefail; {sys.executable} -m ragnotebook quickstart --out {out} | head -1"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env["RAGNOTEBOOK_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Loaded ") and done.stdout.count("\n") == 1
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr
    assert len(cli.read_table(out)) == 48


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


def _interrupted_evaluate(monkeypatch: pytest.MonkeyPatch, unfinished: int) -> None:
    """``rn.evaluate`` as if Ctrl-C had come with ``unfinished`` rows left (their
    faithfulness cancelled, as the library marks them)."""
    from ragnotebook.engine import CANCELLED_MESSAGE

    real = rn.evaluate

    def interrupted(*args: Any, **kwargs: Any) -> pd.DataFrame:
        out = real(*args, **kwargs)
        out.attrs["ragnotebook"]["last_run"]["interrupted"] = True
        if unfinished:
            rows = out.index[-unfinished:]
            out.loc[rows, "faithfulness"] = pd.NA
            out.loc[rows, "faithfulness_status"] = "error"
            out.loc[rows, "faithfulness_error"] = CANCELLED_MESSAGE
        return out

    monkeypatch.setattr(rn, "evaluate", interrupted)


def test_an_interrupted_evaluate_exits_130_and_keeps_the_rows_aside(
    tmp_path, good, monkeypatch, capsys
):
    # the library returns the finished rows on Ctrl-C; the command exited 0, ran its
    # checks and wrote the partial frame under --out (a later --baseline could use it)
    _interrupted_evaluate(monkeypatch, unfinished=3)
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
    assert (tmp_path / "scored.partial.jsonl.run.json").exists()
    # run again to the end: the rows set aside are superseded, and removed with a note
    monkeypatch.undo()
    code = cli.main(
        ["evaluate", str(good), "--out", str(out), "--no-progress", "--model", "offline"]
    )
    captured = capsys.readouterr()
    assert code == 0 and out.exists()
    assert not partial.exists() and not (tmp_path / "scored.partial.jsonl.run.json").exists()
    assert "removed scored.partial.jsonl, left by an interrupted run" in captured.err


def test_a_ctrl_c_after_the_last_row_leaves_a_complete_run(tmp_path, good, monkeypatch, capsys):
    # every row-metric finished: it printed "interrupted; 24 of 24 row-metrics finished ...
    # the others have status 'error' (cancelled)", exited 130 and wrote no --out (the
    # library now returns such a run as complete; the command does not rely on it)
    _interrupted_evaluate(monkeypatch, unfinished=0)
    out = tmp_path / "scored.jsonl"
    args = ["evaluate", str(good), "--out", str(out), "--no-progress"]
    assert cli.main([*args, "--fail-under", "faithfulness=0.9"]) == 0
    captured = capsys.readouterr()
    assert "interrupted" not in captured.err
    assert "ok   faithfulness: mean 1.000 >= 0.9" in captured.out
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(GOOD)
    assert not (tmp_path / "scored.partial.jsonl").exists()
    # and the checks decide the exit code as in any run
    worse = write_jsonl(tmp_path / "worse.jsonl", WORSE)
    assert (
        cli.main(["evaluate", str(worse), "--no-progress", "--fail-under", "faithfulness=0.9"]) == 1
    )


def test_quickstart_interrupted_writes_nothing(tmp_path, monkeypatch, capsys):
    _interrupted_evaluate(monkeypatch, unfinished=5)
    out = tmp_path / "q.jsonl"
    assert cli.main(["quickstart", "--out", str(out)]) == 130
    assert "ragnotebook quickstart: interrupted; nothing was written" in capsys.readouterr().err
    assert not out.exists()


def test_ctrl_c_while_parsing_the_options_is_a_clean_exit(monkeypatch, capsys):
    # a KeyboardInterrupt before the command ran escaped main() with a traceback
    def interrupted() -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_parser", interrupted)
    assert cli.main(["evaluate", "x.jsonl"]) == 130
    assert capsys.readouterr().err == "ragnotebook: interrupted\n"


@pytest.mark.parametrize("name", ["scored.jsonl", "scored.jsonl.gz"])
def test_ctrl_c_while_writing_out_leaves_no_half_written_file(
    tmp_path, good, name, monkeypatch, capsys
):
    out = tmp_path / name
    real = cli.write_jsonl

    def cut_short(df: pd.DataFrame, path: Path, compression: str | None = None) -> None:
        real(df.head(2), path, compression)  # part of the rows are on disk ...
        raise KeyboardInterrupt  # ... when Ctrl-C comes

    monkeypatch.setattr(cli, "write_jsonl", cut_short)
    assert cli.main(["evaluate", str(good), "--out", str(out), "--no-progress"]) == 130
    assert "ragnotebook evaluate: interrupted" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [good]  # neither --out nor a temporary file


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


def test_a_failing_report_leaves_no_new_folder_behind(tmp_path, good, capsys):
    # the folders of --out are made with the page: a usage or input error makes none
    scored = tmp_path / "scored.jsonl"
    cli.write_jsonl(
        rn.evaluate(pd.read_json(good, lines=True), model="offline", progress=False), scored
    )
    bad_by = [
        "report",
        str(scored),
        "--by",
        "nosuchcol",
        "--out",
        str(tmp_path / "a" / "b" / "r.html"),
    ]
    assert cli.main(bad_by) == 2
    no_baseline = ["report", str(scored), "--baseline", str(tmp_path / "nope.jsonl")]
    assert cli.main([*no_baseline, "--out", str(tmp_path / "c" / "r.html")]) == 3
    assert not (tmp_path / "a").exists() and not (tmp_path / "c").exists()
    capsys.readouterr()


# ------------------------------------------------------------------ reading inputs


def test_text_inputs_may_start_with_a_byte_order_mark(tmp_path):
    jsonl = tmp_path / "bom.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in GOOD), encoding="utf-8-sig")
    assert jsonl.read_bytes().startswith(b"\xef\xbb\xbf")
    assert cli.read_table(jsonl).to_dict("records") == GOOD
    as_json = tmp_path / "bom.json"
    as_json.write_text(json.dumps(GOOD, indent=2), encoding="utf-8-sig")
    assert cli.read_table(as_json).to_dict("records") == GOOD
    csv_file = tmp_path / "bom.csv"
    pd.DataFrame(GOOD).drop(columns="contexts").to_csv(csv_file, index=False, encoding="utf-8-sig")
    assert cli.read_table(csv_file).columns[0] == "question"


def test_jsonl_text_with_unicode_line_separators_reads_back(tmp_path):
    # write_jsonl leaves U+2028, U+0085, ... unescaped in strings; the reader split lines there
    df = pd.DataFrame({"question": ["a\u2028b"], "answer": ["x\x85y\r"], "n": [1]})
    cli.write_jsonl(df, tmp_path / "ls.jsonl")
    (tmp_path / "crlf.jsonl").write_bytes(b'{"n": 1}\r\n\r\n{"n": 2}\r\n')
    assert cli.read_table(tmp_path / "ls.jsonl").to_dict("records") == df.to_dict("records")
    assert cli.read_table(tmp_path / "crlf.jsonl")["n"].tolist() == [1, 2]


@pytest.mark.parametrize("orient", [None, "records", "columns", "index", "split", "table"])
def test_json_written_by_pandas_reads_back(tmp_path, orient):
    # df.to_json(path) writes orient="columns": it was one record of dicts ("row 0, column
    # 'question': expected a string, got dict")
    df = pd.DataFrame(GOOD)
    path = tmp_path / "rows.json"
    df.to_json(path) if orient is None else df.to_json(path, orient=orient)
    back = cli.read_table(path)
    assert back.index.tolist() == list(range(len(GOOD)))
    assert back.to_dict("records") == GOOD
    assert cli.main(["evaluate", str(path), "--no-progress", "--metrics", "faithfulness"]) == 0


def test_json_labels_other_than_positions_are_kept(tmp_path):
    df = pd.DataFrame(GOOD, index=[f"q{i}" for i in range(len(GOOD))])
    df.to_json(tmp_path / "rows.json", orient="index")
    back = cli.read_table(tmp_path / "rows.json")
    assert back.index.tolist() == df.index.tolist()
    assert back.to_dict("records") == GOOD


def test_a_json_object_that_is_no_table_says_what_a_json_file_must_be(tmp_path, capsys):
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"data": GOOD}, indent=2), encoding="utf-8")
    assert cli.main(["evaluate", str(wrapped), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert (
        f"input error: {wrapped}: one JSON object with the keys 'data' is not a table of rows "
        "(its key 'data' holds a list of 8 objects: write that list alone); a .json file must "
        "be JSON Lines (one object per line), a JSON array of records (df.to_json(path, "
        "orient='records')), pandas' df.to_json(path) (orient 'columns', 'index', 'split' "
        "or 'table'), or one list per column (df.to_dict(orient='list'))"
    ) in err
    # a file of JSON Lines with a bad line names the line, and for .json the shapes
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(GOOD[0]) + "\n{oops\n", encoding="utf-8")
    assert cli.main(["evaluate", str(broken), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert f"{broken}, line 2: not valid JSON (" in err and "a .json file must be" in err
    # a one-line object is one row, as a line of JSON Lines is
    one = tmp_path / "one.json"
    one.write_text(json.dumps(GOOD[0]), encoding="utf-8")
    assert cli.read_table(one).to_dict("records") == GOOD[:1]


def test_a_bad_cell_is_named_by_its_line_in_the_file(tmp_path, capsys):
    bad = {**GOOD[1], "answer": {"text": "nested"}}
    jsonl = tmp_path / "rows.jsonl"
    # a blank line: the bad rows are frame positions 2 and 3, on lines 4 and 5
    jsonl.write_text(
        "\n".join([json.dumps(GOOD[0]), "", json.dumps(GOOD[1]), json.dumps(bad), json.dumps(bad)])
        + "\n",
        encoding="utf-8",
    )
    assert cli.main(["evaluate", str(jsonl), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert (
        "input error: row 2 (line 4 of rows.jsonl), column 'answer': expected a string, got dict"
    ) in err
    assert "row 3 (line 5 of rows.jsonl), column 'answer'" in err
    # CSV: line 1 is the header, and a quoted cell may span lines
    rows = [dict(GOOD[0]), {**GOOD[1], "answer": "Line one.\nLine two."}, dict(GOOD[2])]
    rows[2]["contexts"] = "['a chunk', 3]"
    frame = pd.DataFrame(rows)
    frame["contexts"] = [json.dumps(c) if isinstance(c, list) else c for c in frame["contexts"]]
    frame.to_csv(tmp_path / "rows.csv", index=False)
    assert cli.main(["evaluate", str(tmp_path / "rows.csv"), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert "input error: row 2 (line 5 of rows.csv), column 'contexts': chunk 1 " in err
    # with ";" between cells (a decimal-comma locale) the quoted cell still spans two lines
    frame.to_csv(tmp_path / "semi.csv", index=False, sep=";")
    assert cli.main(["evaluate", str(tmp_path / "semi.csv"), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert "input error: row 2 (line 5 of semi.csv), column 'contexts': chunk 1 " in err
    # the Python API keeps its frame positions
    with pytest.raises(ValueError, match=r"^row 2, column 'contexts'"):
        rn.evaluate(cli.read_table(tmp_path / "rows.csv"), model="offline", progress=False)


def test_a_warning_about_cells_names_the_line_too(tmp_path, capsys):
    frame = pd.DataFrame(GOOD)
    frame["contexts"] = [json.dumps(c) for c in frame["contexts"]]
    frame.to_csv(tmp_path / "rows.csv", index=False)
    assert cli.main(["evaluate", str(tmp_path / "rows.csv"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "(first: row 0 (line 2 of rows.csv))" in err


@pytest.mark.parametrize("ext", [".gz", ".bz2", ".xz"])
def test_compressed_text_inputs_are_read_as_their_format(tmp_path, ext, capsys):
    import bz2
    import gzip
    import lzma

    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}[ext]

    def compress(path: Path) -> Path:
        packed = path.with_name(path.name + ext)
        with opener(packed, "wb") as fh:
            fh.write(path.read_bytes())
        return packed

    jsonl = compress(write_jsonl(tmp_path / "rows.jsonl", GOOD))
    assert cli.read_table(jsonl).to_dict("records") == GOOD
    as_json = tmp_path / "rows.json"
    as_json.write_text(json.dumps(GOOD), encoding="utf-8-sig")  # with a byte order mark
    assert cli.read_table(compress(as_json)).to_dict("records") == GOOD
    # CSV: a header without commas is sniffed through the compression too, and a bad
    # cell is named by its line of the decompressed text
    frame = pd.DataFrame(GOOD[:3])
    frame["contexts"] = [json.dumps(c) for c in frame["contexts"]]
    frame.loc[2, "contexts"] = "['a chunk', 3]"
    frame.loc[1, "answer"] = "Line one.\nLine two."
    frame.to_csv(tmp_path / "rows.csv", index=False, sep=";")
    csv_file = compress(tmp_path / "rows.csv")
    assert list(cli.read_table(csv_file).columns) == list(GOOD[0])
    assert cli.main(["evaluate", str(csv_file), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert f"row 2 (line 5 of rows.csv{ext}), column 'contexts': chunk 1 " in err
    # the same scores as the plain file
    out_plain, out_packed = tmp_path / "plain.jsonl", tmp_path / "packed.jsonl"
    plain = tmp_path / "rows.jsonl"
    assert cli.main(["evaluate", str(plain), "--no-progress", "--out", str(out_plain)]) == 0
    assert cli.main(["evaluate", str(jsonl), "--no-progress", "--out", str(out_packed)]) == 0
    assert out_plain.read_bytes() == out_packed.read_bytes()


def test_a_compressed_scored_file_keeps_its_run_metadata(tmp_path, good):
    import gzip

    out = tmp_path / "scored.jsonl"
    assert cli.main(["evaluate", str(good), "--no-progress", "--out", str(out)]) == 0
    plain = cli.read_table(out)
    assert plain.attrs["ragnotebook"]["judge"].startswith("offline-")
    # what `gzip scored.jsonl` does: the rows compressed, the run file left as it was
    packed = tmp_path / "scored.jsonl.gz"
    packed.write_bytes(gzip.compress(out.read_bytes()))
    out.unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "the file changed since"
        read = cli.read_table(packed)
    assert read.attrs["ragnotebook"] == plain.attrs["ragnotebook"]
    # a run file named after the compressed file is read first
    (tmp_path / "scored.jsonl.run.json").rename(tmp_path / "scored.jsonl.gz.run.json")
    assert cli.read_table(packed).attrs["ragnotebook"] == plain.attrs["ragnotebook"]
    # rows that changed are still caught
    packed.write_bytes(gzip.compress(b"\n".join(good.read_bytes().splitlines()[:2]) + b"\n"))
    with pytest.warns(UserWarning, match="was written with other rows than those now in"):
        assert "ragnotebook" not in cli.read_table(packed).attrs


@pytest.mark.parametrize("ext", [".gz", ".bz2", ".xz"])
def test_out_may_be_compressed_json_lines(tmp_path, good, ext, capsys):
    import bz2
    import gzip
    import lzma

    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}[ext]
    plain, packed = tmp_path / "scored.jsonl", tmp_path / f"scored.jsonl{ext}"
    for out in (plain, packed):
        assert cli.main(["evaluate", str(good), "--no-progress", "--out", str(out)]) == 0
    assert f"written to {packed} (its run metadata in scored.jsonl{ext}.run.json)" in (
        capsys.readouterr().out
    )
    # the file is compressed, and holds exactly the plain file's rows
    with opener(packed, "rb") as fh:
        assert fh.read() == plain.read_bytes()
    # read back with its run metadata (the hash is of the decompressed rows: no warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read = cli.read_table(packed)
    expected = cli.read_table(plain)
    side = json.loads((tmp_path / f"scored.jsonl{ext}.run.json").read_text(encoding="utf-8"))
    assert side["data_file"] == packed.name
    assert read.attrs["ragnotebook"] == side["attrs"]
    assert read.attrs["ragnotebook"]["judge"] == expected.attrs["ragnotebook"]["judge"]
    assert read.attrs["ragnotebook"]["judge"].startswith("offline-")
    pd.testing.assert_frame_equal(read, expected, check_like=False)
    # and usable as a baseline of the next run
    assert cli.main(["evaluate", str(good), "--no-progress", "--baseline", str(packed)]) == 0


def test_a_gzipped_out_is_the_same_bytes_for_the_same_rows(tmp_path, good):
    # no file name or time in the gzip header: a CI job can compare two runs' files
    first, second = tmp_path / "a" / "scored.jsonl.gz", tmp_path / "b" / "scored.jsonl.gz"
    for out in (first, second):
        assert cli.main(["evaluate", str(good), "--no-progress", "--out", str(out)]) == 0
        os.utime(out, (0, 0))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes()[4:8] == b"\0\0\0\0"  # MTIME 0 (RFC 1952)
    assert first.read_bytes()[3] & 0x08 == 0  # no FNAME


def test_out_refuses_a_compressed_parquet_before_scoring(tmp_path, good, capsys):
    out = tmp_path / "scored.parquet.gz"
    assert cli.main(["evaluate", str(good), "--no-progress", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--out: 'scored.parquet.gz' must end in .parquet or .pq" in err
    assert "which may be compressed: scored.jsonl.gz (.bz2, .xz)" in err
    assert not out.exists() and not list(tmp_path.glob(".*tmp*"))


def test_an_interrupted_run_keeps_a_compressed_out_compressed(tmp_path, good, monkeypatch, capsys):
    import gzip

    _interrupted_evaluate(monkeypatch, unfinished=2)
    out = tmp_path / "scored.jsonl.gz"
    assert cli.main(["evaluate", str(good), "--out", str(out), "--no-progress"]) == 130
    partial = tmp_path / "scored.partial.jsonl.gz"
    assert f"the finished rows are in {partial} (not {out})" in capsys.readouterr().err
    assert not out.exists()
    with gzip.open(partial, "rt", encoding="utf-8") as fh:
        assert len(fh.read().splitlines()) == len(GOOD)
    assert (tmp_path / "scored.partial.jsonl.gz.run.json").exists()
    monkeypatch.undo()
    assert cli.main(["evaluate", str(good), "--out", str(out), "--no-progress"]) == 0
    assert out.exists() and not partial.exists()
    assert "removed scored.partial.jsonl.gz, left by an interrupted run" in (
        capsys.readouterr().err
    )


def test_a_compressed_file_that_is_not_is_an_input_error(tmp_path, capsys):
    (tmp_path / "rows.jsonl.gz").write_text(json.dumps(GOOD[0]) + "\n", encoding="utf-8")
    assert cli.main(["evaluate", str(tmp_path / "rows.jsonl.gz"), "--no-progress"]) == 3
    assert "rows.jsonl.gz: cannot read the file (BadGzipFile: " in capsys.readouterr().err
    # Parquet compresses its own pages: "x.parquet.gz" is no format
    (tmp_path / "x.parquet.gz").write_bytes(b"")
    assert cli.main(["evaluate", str(tmp_path / "x.parquet.gz"), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert "x.parquet.gz: unknown format '.gz'; use .csv, .json, .jsonl" in err
    assert "(all but Parquet may be compressed: .gz, .bz2, .xz)" in err
    (tmp_path / "rows.gz").write_bytes(b"")
    assert cli.main(["evaluate", str(tmp_path / "rows.gz"), "--no-progress"]) == 3
    assert "rows.gz: unknown format '(no suffix)'" in capsys.readouterr().err


def test_a_parquet_row_is_named_0_based(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame([GOOD[0], GOOD[1], {**GOOD[2], "contexts": ["a chunk", None]}])
    frame.to_parquet(tmp_path / "rows.parquet")
    assert cli.main(["evaluate", str(tmp_path / "rows.parquet"), "--no-progress"]) == 3
    assert "row 2 (0-based), column 'contexts'" in capsys.readouterr().err


# ------------------------------------------------------------------ docs and messages


def test_the_docs_list_every_column_name_that_is_detected():
    from ragnotebook.intake import ALIASES

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for role, names in ALIASES.items():
        for name in names:
            assert f"`{name}`" in text, (role, name)


def test_a_partial_baseline_is_warned_about(tmp_path, good, capsys):
    scored = rn.evaluate(pd.DataFrame(GOOD), model="offline", progress=False)
    partial = tmp_path / "main.partial.jsonl"
    cli.write_jsonl(scored, partial)
    assert cli.main(["evaluate", str(good), "--baseline", str(partial), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert (
        "ragnotebook evaluate: warning: --baseline main.partial.jsonl looks like the partial "
        "file of an interrupted run (its name is that of one)"
    ) in err
    # whatever its name: cancelled rows give it away
    from ragnotebook.engine import CANCELLED_MESSAGE

    cut = scored.copy()
    cut["faithfulness_status"] = pd.array(["ok"] * 6 + ["error"] * 2, dtype="string")
    cut["faithfulness_error"] = pd.array([None] * 6 + [CANCELLED_MESSAGE] * 2, dtype="string")
    renamed = tmp_path / "main.jsonl"
    cli.write_jsonl(cut, renamed)
    assert cli.main(["evaluate", str(good), "--baseline", str(renamed), "--no-progress"]) == 0
    assert "main.jsonl looks like the partial file of an interrupted run (2 of its " in (
        capsys.readouterr().err
    )
    cli.write_jsonl(scored, renamed)
    assert cli.main(["evaluate", str(good), "--baseline", str(renamed), "--no-progress"]) == 0
    assert "looks like the partial file" not in capsys.readouterr().err


def test_quickstart_points_to_notebooks_that_exist(tmp_path, monkeypatch):
    # in this checkout the notebook is next to the package
    # with absolute paths: the quickstart may run from any folder
    pip = Path(sys.executable).with_name("pip")
    assert cli._next_step() == (
        f"open {ROOT / 'notebooks' / '01_quickstart.ipynb'} "
        f"(with {pip} install -e '{ROOT}[plot,widgets]' jupyterlab first)"
    )
    # after pip install it is not: the address
    monkeypatch.setattr(cli, "_CLONE", tmp_path / "site-packages")
    step = cli._next_step()
    assert cli._clone_install("plot") == "pip install 'ragnotebook[plot]'"
    assert "notebooks/01_quickstart.ipynb" not in step
    assert step.startswith(
        "the example notebooks are at https://github.com/ragnotebook/ragnotebook/tree/main/"
        "notebooks"
    )


def test_quickstart_hint_names_the_folder_to_avoid(tmp_path, monkeypatch):
    from ragnotebook.cli import _import_trap

    # an editable install made before the clone's root was put on the import path
    monkeypatch.setattr(cli, "_package_on_path", lambda: False)

    clone = tmp_path / "ragnotebook"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'ragnotebook'\n")
    line = _import_trap(clone)
    assert line.startswith("\n# ") and f"anywhere but in {tmp_path}:" in line
    assert line.endswith(
        f"or install again: {Path(sys.executable).with_name('pip')} install -e '{clone}')"
    )
    compile(line, "hint", "exec")  # a comment: the hint stays pasteable
    other = tmp_path / "work"
    other.mkdir()
    (other / "pyproject.toml").write_text("")
    assert _import_trap(other) == ""  # another name: no trap
    assert _import_trap(tmp_path / "missing" / "ragnotebook") == ""  # not a clone


def test_quickstart_hint_names_a_look_alike_folder_in_the_current_one(tmp_path, monkeypatch):
    from ragnotebook.cli import _import_trap

    monkeypatch.setattr(cli, "_package_on_path", lambda: False)

    other = tmp_path / "work"
    other.mkdir()  # the running package's clone has another name: no trap from it
    monkeypatch.chdir(tmp_path)
    assert _import_trap(other) == ""
    (tmp_path / "ragnotebook").mkdir()  # another clone, or a folder of notes
    line = _import_trap(other)
    assert f"anywhere but in {tmp_path}:" in line
    assert f"finds the folder {tmp_path / 'ragnotebook'}, not the package" in line
    (tmp_path / "ragnotebook" / "__init__.py").write_text("")  # a package: imported as one
    assert _import_trap(other) == ""


def test_a_folder_named_like_the_package_cannot_stand_in_for_it(tmp_path):
    # Python prefers a package found on any import path entry to a folder without an
    # __init__.py; the editable install puts the clone's root on the path (pyproject's
    # package-dir), so no look-alike folder hides the package
    from ragnotebook.cli import _package_on_path

    root = str(Path(cli.__file__).resolve().parents[1])
    (tmp_path / "ragnotebook").mkdir()  # the clone's folder seen from its parent
    assert not _package_on_path([str(tmp_path)])
    assert _package_on_path([str(tmp_path), root])
    assert _package_on_path([root, str(tmp_path)])


def test_python_started_beside_a_look_alike_folder_imports_the_package(tmp_path):
    # the real install of this interpreter, from the folder that holds a clone named
    # ragnotebook (here: an empty folder of that name). With an editable install made
    # before pyproject's package-dir, the folder won and df.rag did not exist.
    (tmp_path / "ragnotebook").mkdir()
    code = (
        "import ragnotebook, pandas as pd; "
        "print(ragnotebook.__file__); print(type(pd.DataFrame().rag).__name__)"
    )
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, (
        f"{done.stderr}\n(an editable install made before this check? install again: "
        "pip install -e .)"
    )
    file, accessor = done.stdout.split()
    assert Path(file) == Path(cli.__file__).resolve().parent / "__init__.py"
    assert accessor == "RagAccessor"
    assert cli._import_trap() == ""  # and the quickstart's hint says nothing of it


def test_quickstart_says_where_the_rows_fail(tmp_path, capsys):
    from ragnotebook.frame import scored_mask

    out = tmp_path / "qs.jsonl"
    assert cli.main(["quickstart", "--out", str(out), "--worst", "0"]) == 0
    printed = capsys.readouterr().out
    scored = rn.evaluate(rn.load_sample("quickstart"), model="offline", progress=False)
    expected = {}
    for m in ("context_recall", "context_precision", "faithfulness"):
        mask = scored_mask(scored, m)
        expected[m] = (int((scored[m].astype("Float64")[mask] < 1).sum()), int(mask.sum()))
    block = printed.split("Where it fails (rows scoring below 1):\n")[1].split("\n\n")[0]
    lines = block.splitlines()
    r, p, f = expected["context_recall"], expected["context_precision"], expected["faithfulness"]
    assert (
        lines[0] == f"  {r[0]:>3} of {r[1]:>3} measured rows: retriever: some ground-truth "
        "claim is in no retrieved chunk"
    )
    assert lines[1].startswith(f"  {p[0]:>3} of {p[1]:>3} measured rows: ranking: ")
    assert lines[2].startswith(f"  {f[0]:>3} of {f[1]:>3} measured rows: generator: ")
    # the sample's numbers: 16 of its 48 rows have no ground truth, 16 no answer
    assert (r[1], p[1], f[1]) == (32, 48, 32) and 0 < r[0] < 32 and 0 < f[0] < 32


def test_quickstart_heading_says_each_metrics_worst_row_is_kept(tmp_path, capsys):
    assert cli.main(["quickstart", "--out", str(tmp_path / "q.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "each metric's lowest row among them" in out
    # the bundled sample's lowest faithfulness row is listed though its mean is not lowest
    assert "faithfulness=0.00" in out


def test_a_mean_that_is_the_threshold_up_to_rounding_meets_it(capsys):
    # 0.0, 0.2 and 1.0 average to 0.39999999999999997 in floating point
    mean = sum([0.0, 0.2, 1.0]) / 3
    assert mean < 0.4
    summary = pd.DataFrame(
        {"mean": [mean], "coverage": [1.0], "scored": ["3/3"], "error": [0]},
        index=pd.Index(["faithfulness"], name="metric"),
    )
    assert cli.check_thresholds(summary, {"faithfulness": 0.4}, None) == []
    assert "ok   faithfulness: mean 0.400 >= 0.4" in capsys.readouterr().out
    # a mean really below the threshold still fails
    failures = cli.check_thresholds(summary, {"faithfulness": 0.41}, None)
    assert failures == ["faithfulness: mean 0.400 < 0.41"]


def test_tables_and_check_lines_round_a_mean_half_up_alike(capsys):
    # 0.5665 (20 two-decimal scores summing to 11.33): pandas' round (numpy's: 566.4999...
    # to even) gave 0.566 in the table while the check line said 0.567
    mean = 11.33 / 20
    assert pd.Series([mean]).round(3).iloc[0] == 0.566
    summary = pd.DataFrame(
        {"mean": [mean], "coverage": [1.0], "scored": ["20/20"], "error": [0]},
        index=pd.Index(["faithfulness"], name="metric"),
    )
    cli._print_summary(summary, "Summary", usage=False)
    table = capsys.readouterr().out
    assert "0.567" in table and "0.566" not in table
    assert cli.check_thresholds(summary, {"faithfulness": 0.4}, None) == []
    assert "ok   faithfulness: mean 0.567 >= 0.4" in capsys.readouterr().out
    # a mean that rounds to the threshold it misses is shown with more digits
    failures = cli.check_thresholds(summary, {"faithfulness": 0.567}, None)
    assert failures == ["faithfulness: mean 0.5665 < 0.567"]


def test_rescoring_a_read_back_file_with_some_metrics_summarises(tmp_path, good):
    scored = tmp_path / "scored.jsonl"
    first = evaluate(good, "--model", "offline", "--out", str(scored), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    proc = evaluate(scored, "--model", "offline", "--metrics", "recall", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr  # it crashed: "cannot convert float NaN to integer"
    assert re.search(r"context_recall\s+1\.0\s+8/8", proc.stdout)
    back = pd.read_json(scored, lines=True)
    with pytest.warns(UserWarning):
        again = back.rag.evaluate(model="offline", metrics=["faithfulness"], progress=False)
    s = again.rag.summary()
    assert int(s.loc["faithfulness", "calls"]) > 0
    assert pd.isna(s.loc["context_recall", "calls"])  # the earlier run's counters are gone


# ------------------------------------------------------------------ JSON Lines run file


def _scored_sample(n: int = 6) -> pd.DataFrame:
    """``n`` rows of the bundled sample that have answers (RAGTruth's), scored offline."""
    df = rn.load_sample("quickstart")
    df = df[df["answer"].notna()].head(n)  # they have no ground truth: no recall
    return rn.evaluate(
        df, metrics=["context_precision", "faithfulness"], model="offline", progress=False
    )


def test_jsonl_out_keeps_the_run_metadata_beside_it_and_reads_it_back(tmp_path):
    scored = _scored_sample()
    out = tmp_path / "scores.jsonl"
    cli._write_frame(scored, out)
    side = tmp_path / "scores.jsonl.run.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.jsonl", "scores.jsonl.run.json"]
    record = json.loads(side.read_text(encoding="utf-8"))
    assert record["index"] == ["id"] and record["rows"] == 6
    assert record["index_is_column"] is False
    back = cli.read_table(out)
    meta = back.attrs["ragnotebook"]
    assert meta["judge"] == scored.attrs["ragnotebook"]["judge"] == "offline-v24"
    assert meta["columns"] == scored.attrs["ragnotebook"]["columns"]
    assert (
        meta["metrics"]["faithfulness"]["statuses"]
        == (scored.attrs["ragnotebook"]["metrics"]["faithfulness"]["statuses"])
    )
    # the run counters are back in the summary (a file without them shows <NA>)
    assert rn.summary(back)["calls"].tolist() == rn.summary(scored)["calls"].tolist()
    # the row labels come back as the index
    labelled = cli.with_row_labels(back)
    assert labelled.index.tolist() == scored.index.tolist()
    assert labelled.index.name == "id"
    pd.testing.assert_series_equal(
        labelled["faithfulness"], scored["faithfulness"], check_names=True
    )


def test_an_unnamed_index_comes_back_unnamed_and_a_plain_one_is_no_column(tmp_path):
    scored = _scored_sample(3)
    scored.index = pd.Index(["q7", "q3", "q3"])
    cli._write_frame(scored, tmp_path / "a.jsonl")
    back = cli.with_row_labels(cli.read_table(tmp_path / "a.jsonl"))
    assert back.index.tolist() == ["q7", "q3", "q3"] and back.index.name is None
    plain = scored.reset_index(drop=True)
    cli._write_frame(plain, tmp_path / "b.jsonl")
    back = cli.read_table(tmp_path / "b.jsonl")
    assert back.attrs["ragnotebook_file"] == {"index": [], "index_is_column": False}
    assert cli.with_row_labels(back).index.tolist() == [0, 1, 2]


def test_a_run_file_of_other_rows_is_not_used(tmp_path):
    scored = _scored_sample(4)
    out = tmp_path / "scores.jsonl"
    cli._write_frame(scored, out)
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # the file was cut
    with pytest.warns(UserWarning, match="written with other rows than those now in scores"):
        back = cli.read_table(out)
    assert "ragnotebook" not in back.attrs and len(back) == 2
    # a run file that is no JSON warns and is ignored; one of another format is ignored
    (tmp_path / "scores.jsonl.run.json").write_text("{not json", encoding="utf-8")
    with pytest.warns(UserWarning, match="cannot read this run file"):
        assert "ragnotebook" not in cli.read_table(out).attrs
    (tmp_path / "scores.jsonl.run.json").write_text('{"format": "x"}', encoding="utf-8")
    assert "ragnotebook" not in cli.read_table(out).attrs


def test_an_unscored_frame_leaves_no_stale_run_file(tmp_path):
    out = tmp_path / "scores.jsonl"
    cli._write_frame(_scored_sample(2), out)
    assert (tmp_path / "scores.jsonl.run.json").exists()
    cli._write_frame(pd.DataFrame({"a": [1]}), out)
    assert not (tmp_path / "scores.jsonl.run.json").exists()
    assert list(tmp_path.iterdir()) == [out]


def test_the_report_of_a_jsonl_file_names_the_judge_and_the_row_labels(tmp_path, capsys):
    pytest.importorskip("plotly")
    out = tmp_path / "q.jsonl"
    assert cli.main(["quickstart", "--out", str(out), "--worst", "0"]) == 0
    assert "(its run metadata in q.jsonl.run.json)" in capsys.readouterr().out
    html = tmp_path / "r.html"
    assert cli.main(["report", str(out), "--out", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "judge offline-v24 · model offline" in page
    first_id = json.loads(out.read_text(encoding="utf-8").splitlines()[0])["id"]
    assert f'title="{first_id}"' in page
    # without the run file: rows by position, judge unknown, as before
    (tmp_path / "q.jsonl.run.json").unlink()
    assert cli.main(["report", str(out), "--out", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "judge unknown" in page and 'title="0"' in page


def test_report_by_a_column_and_an_unknown_one(tmp_path, capsys):
    pytest.importorskip("plotly")
    rows = [{**r, "system": "A"} for r in GOOD[:4]] + [{**r, "system": "B"} for r in WORSE[:4]]
    data = write_jsonl(tmp_path / "two.jsonl", rows)
    out = tmp_path / "scored.jsonl"
    assert (
        cli.main(["evaluate", str(data), "--model", "offline", "--no-progress", "--out", str(out)])
        == 0
    )
    html = tmp_path / "r.html"
    assert cli.main(["report", str(out), "--by", "system", "--out", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert '<option value="0">A (4)</option><option value="1">B (4)</option>' in page
    assert page.count('data-group="1"') == 4
    capsys.readouterr()
    assert cli.main(["report", str(out), "--by", "sytem", "--out", str(html)]) == 2
    # a command's user passes files: "the frame" would be Python's word
    assert (
        "--by: 'sytem' is not a column of scored.jsonl; did you mean 'system'? the file has "
        "'question', "
    ) in capsys.readouterr().err


def _evaluated_jsonl(tmp_path: Path) -> Path:
    """Three good and three worse rows scored by ``evaluate`` into ``scored.jsonl``."""
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:3] + WORSE[:3])
    out = tmp_path / "scored.jsonl"
    assert (
        cli.main(["evaluate", str(data), "--model", "offline", "--no-progress", "--out", str(out)])
        == 0
    )
    return out


def test_report_options_and_a_note_without_run_metadata(tmp_path, capsys):
    pytest.importorskip("plotly")
    out = _evaluated_jsonl(tmp_path)
    html = tmp_path / "r.html"
    args = ["report", str(out), "--out", str(html), "--title", "Nightly <run>", "--sort-by"]
    assert cli.main([*args, "faithfulness", "--max-rows", "2", "--plotly-js", "cdn"]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<title>Nightly &lt;run&gt;</title>" in page
    assert page.count('class="rnb-row"') == 2  # the two worst by faithfulness
    assert "2 of 6 rows, worst faithfulness first" in page
    assert html.stat().st_size < 500_000 and "cdn.plot.ly" in page
    assert "has no run metadata" not in capsys.readouterr().err  # the run file was found
    # moved without its run file: a note on stderr, the report still written
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "scored.jsonl").write_bytes(out.read_bytes())
    assert cli.main(["report", str(moved / "scored.jsonl"), "--out", str(html)]) == 0
    err = capsys.readouterr().err
    assert (
        "ragnotebook report: warning: scored.jsonl has no run metadata (no "
        "scored.jsonl.run.json beside it): the page says 'judge unknown'" in err
    )
    for bad, message in (
        (["--sort-by", "speed"], "--sort-by: unknown metric 'speed'"),
        (["--max-rows", "-1"], "--max-rows: expected 0 or more rows, got -1"),
    ):
        assert cli.main(["report", str(out), "--out", str(html), *bad]) == 2
        assert message in capsys.readouterr().err


def _runs(tmp_path: Path, old_rows: list[dict[str, Any]], new_rows: list[dict[str, Any]]):
    """``old.jsonl`` and ``new.jsonl``: the rows scored by ``evaluate`` (offline judge)."""
    paths = []
    for name, rows in (("old", old_rows), ("new", new_rows)):
        data = write_jsonl(tmp_path / f"{name}_rows.jsonl", rows)
        out = tmp_path / f"{name}.jsonl"
        args = ["evaluate", str(data), "--model", "offline", "--no-progress", "--out", str(out)]
        assert cli.main(args) == 0
        paths.append(out)
    return paths


def test_report_against_a_baseline_file(tmp_path, capsys):
    pytest.importorskip("plotly")
    # the last four answers turn unsupported: faithfulness 1.0 -> 0.0 on those rows
    old, new = _runs(tmp_path, GOOD, GOOD[:4] + WORSE[4:])
    capsys.readouterr()
    html = tmp_path / "out" / "r.html"
    args = ["report", str(new), "--baseline", str(old), "--out", str(html), "--plotly-js", "cdn"]
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    assert captured.out == f"Report written to {html}\n"
    assert "warning" not in captured.err
    page = html.read_text(encoding="utf-8")
    # compare()'s numbers on the same files, as evaluate --baseline prints them: 4 rows
    # down, so the exact sign-flip test's p is 2 / 2**4
    faith = rn.compare(cli.read_table(old), cli.read_table(new)).loc["faithfulness"]
    assert float(faith.p_value) == 0.125
    assert (
        '<tr data-metric="faithfulness"><td>faithfulness</td><td>1.00</td><td>0.50</td>'
        "<td>-0.50</td>" in page
    )
    assert "<td>0.1250</td><td>8</td><td>0</td><td>4</td><td>4</td><td>0</td></tr>" in page
    assert (
        '<tr data-metric="context_recall"><td>context recall</td><td>1.00</td><td>1.00</td>' in page
    )
    assert "8 rows of this run paired with the baseline on &#x27;question&#x27;" in page
    # the rows whose score dropped: the same drop, so in row order, each linked
    assert re.findall(r'<li data-row="(\d+)"><a class="rnb-to-row" href="#row-(\d+)"', page) == [
        ("4", "4"),
        ("5", "5"),
        ("6", "6"),
        ("7", "7"),
    ]
    assert "baseline 1.00 → this run 0.00 (-1.00)" in page


def test_report_baseline_errors_exit_3_before_writing(tmp_path, capsys):
    old, new = _runs(tmp_path, GOOD, GOOD)
    unscored = write_jsonl(tmp_path / "rows.jsonl", GOOD)
    other = write_jsonl(
        tmp_path / "other.jsonl",
        [
            {**json.loads(line), "question": f"Other {i}?"}
            for i, line in enumerate(old.read_text(encoding="utf-8").splitlines())
        ],
    )
    with_qid = write_jsonl(
        tmp_path / "qid.jsonl",
        [{**json.loads(line), "qid": i} for i, line in enumerate(new.read_text().splitlines())],
    )
    html = tmp_path / "r.html"
    cases = [
        (
            [str(new), "--baseline", str(unscored)],
            f"ragnotebook report: input error: --baseline {unscored}: the file has none of the "
            "metrics of new.jsonl (context_recall, context_precision, faithfulness); it has no "
            "ragnotebook scores",
        ),
        (
            [str(new), "--baseline", str(old), "--on", "nope"],
            "ragnotebook report: input error: --on 'nope' is not a column of the scored file "
            "(its columns: question, ",
        ),
        (
            [str(with_qid), "--baseline", str(old), "--on", "qid"],
            "ragnotebook report: input error: --on 'qid' is not a column of the baseline file "
            "(its columns: question, ",
        ),
        (
            [str(new), "--baseline", str(other)],
            "ragnotebook report: input error: --baseline other.jsonl: no row pairs up: no value "
            "of its column 'question' is in the column 'question' of new.jsonl (pass --on "
            "COLUMN naming a column whose values both files share, e.g. a question id)",
        ),
        (
            [str(new), "--baseline", str(tmp_path / "gone.jsonl")],
            "ragnotebook report: input error: ",
        ),
    ]
    for extra, message in cases:
        capsys.readouterr()
        assert cli.main(["report", *extra, "--out", str(html)]) == 3, extra
        captured = capsys.readouterr()
        assert message in captured.err, (extra, captured.err)
        assert captured.out == "" and not html.exists()


def test_report_baseline_of_another_judge_is_warned_about(tmp_path, capsys):
    pytest.importorskip("plotly")
    old, new = _runs(tmp_path, GOOD[:4], GOOD[:4])
    run_file = tmp_path / "old.jsonl.run.json"
    meta = json.loads(run_file.read_text(encoding="utf-8"))
    meta["attrs"]["judge"] = "offline-v1"  # as an older version would have written it
    run_file.write_text(json.dumps(meta), encoding="utf-8")
    capsys.readouterr()
    html = tmp_path / "r.html"
    args = ["report", str(new), "--baseline", str(old), "--out", str(html), "--plotly-js", "cdn"]
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    # worded as evaluate words it: the Python call's name "report(): " is no help here
    assert (
        "ragnotebook report: warning: the baseline was scored by another judge than this run "
        "(judge 'offline-v1' -> 'offline-v"
    ) in err
    assert "report()" not in err
    assert 'id="rnb-other-judge"' in html.read_text(encoding="utf-8")
    # the comparison's own warnings too
    fewer = tmp_path / "fewer.jsonl"
    rows = write_jsonl(tmp_path / "fewer_rows.jsonl", GOOD[:3])
    assert cli.main(["evaluate", str(rows), "--no-progress", "--out", str(fewer)]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(fewer), *args[2:]]) == 0
    err = capsys.readouterr().err
    assert "ragnotebook report: warning: against the baseline: coverage differs, so the " in err
    assert "report()" not in err


def test_report_warnings_name_options_not_the_python_keywords(tmp_path, capsys, monkeypatch):
    pytest.importorskip("plotly")
    from ragnotebook.views import _report

    monkeypatch.setattr(_report, "LARGE_REPORT_ROWS", 3)  # 4 rows make a "large" page
    new = tmp_path / "new.jsonl"
    rows = write_jsonl(tmp_path / "rows.jsonl", GOOD[:4])
    assert cli.main(["evaluate", str(rows), "--no-progress", "--out", str(new)]) == 0
    capsys.readouterr()
    html = tmp_path / "r.html"
    assert cli.main(["report", str(new), "--out", str(html), "--plotly-js", "cdn"]) == 0
    err = capsys.readouterr().err
    assert (
        "ragnotebook report: warning: the drill-down holds all 4 rows (about 5-10 kB each, so "
        "0-0 MB); pass --max-rows N (with --sort-by METRIC for the worst rows first) for a "
        "page a browser opens quickly"
    ) in err
    assert "max_rows=" not in err and "report()" not in err


def test_report_baseline_pairs_as_evaluate_does(tmp_path, capsys):
    pytest.importorskip("plotly")
    # scored with --column question=q: the default --on is the column read as the question
    data = _mapped_rows(tmp_path, "mapped.jsonl")
    common = ["--column", "question=q", "--model", "offline", "--no-progress"]
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    for out in (old, new):
        assert cli.main(["evaluate", str(data), *common, "--out", str(out)]) == 0
    html = tmp_path / "r.html"
    base = ["report", str(new), "--baseline", str(old), "--out", str(html), "--plotly-js", "cdn"]
    capsys.readouterr()
    assert cli.main(base) == 0
    assert "paired with the baseline on &#x27;q&#x27;" in html.read_text(encoding="utf-8")
    # a --on that repeats values: warned about, with the id column to pair on instead
    old, new = _runs(tmp_path, *[[{"id": f"r{i}", **GOOD[i % 4]} for i in range(8)]] * 2)
    capsys.readouterr()
    base = ["report", str(new), "--baseline", str(old), "--out", str(html), "--plotly-js", "cdn"]
    assert cli.main(base) == 0
    err = capsys.readouterr().err
    # one message, naming --on; report()'s own (one per file, advising on=) are left out
    message = (
        "rows are paired by 'question', which repeats 4 values (on 8 rows) in both the "
        "baseline and this run, so a row may be compared with another row that has the same "
        "value (such rows are paired by row label where both files give them the same labels, "
        "else in order of appearance); pass --on id (one value per row in both files)"
    )
    assert [line for line in err.splitlines() if "warning" in line] == [
        f"ragnotebook report: warning: {message}"
    ]
    # the page's notes say the same, not compare()'s advice for Python (on='id', on=None)
    page = html.read_text(encoding="utf-8")
    notes = re.findall(r'<ul class="help rnb-notes">(.*?)</ul>', page, re.S)
    assert notes == ['<li dir="auto">' + message.replace("'", "&#x27;") + "</li>"]
    assert "on=&#x27;id&#x27;" not in page and "on=None" not in page
    assert cli.main([*base, "--on", "id"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert "paired with the baseline on &#x27;id&#x27;" in html.read_text(encoding="utf-8")
    # a baseline scored on fewer metrics: the others are named, not compared
    recall = tmp_path / "recall.jsonl"
    rows = str(tmp_path / "old_rows.jsonl")
    args = ["evaluate", rows, "--metrics", "recall", "--no-progress", "--out", str(recall)]
    assert cli.main(args) == 0
    capsys.readouterr()
    assert cli.main([*base[:3], str(recall), *base[4:], "--on", "id"]) == 0
    assert "baseline: not scored on context_precision, faithfulness; not compared" in (
        capsys.readouterr().err
    )
    assert 'id="rnb-not-compared"' in html.read_text(encoding="utf-8")


def test_evaluate_id_keeps_the_file_line_in_messages_about_a_row(tmp_path, capsys):
    path = tmp_path / "rows.csv"
    pd.DataFrame(
        {
            "qid": ["a1", "a2"],
            "question": ["Where is it?", "When did it open?"],
            "answer": ["It is on Pier 4.", "In 1998."],
            "contexts": ["['The museum is on Pier 4.']", "['It opened in 1998.']"],
        }
    ).to_csv(path, index=False)
    args = ["evaluate", str(path), "--model", "offline", "--no-progress", "--id", "qid"]
    args += ["--metrics", "faithfulness"]
    assert cli.main(args) == 0
    assert "(first: row 'a1' (line 2 of rows.csv))" in capsys.readouterr().err


def test_evaluate_id_names_the_rows_everywhere(tmp_path, capsys):
    rows = [{**r, "qid": f"A:q{i}", "system": "A"} for i, r in enumerate(GOOD[:3])] + [
        {**r, "qid": f"B:q{i}", "system": "B"} for i, r in enumerate(WORSE[:3])
    ]
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    out = tmp_path / "scored.jsonl"
    base = ["evaluate", str(data), "--model", "offline", "--no-progress", "--out", str(out)]
    assert cli.main([*base, "--id", "qid", "--by", "system"]) == 0
    plain = cli.read_table(out)
    # the labels are the qid column itself: written once, no second "row" column
    assert "row" not in plain.columns and plain["qid"].tolist() == [r["qid"] for r in rows]
    back = cli.with_row_labels(plain)
    assert back.index.tolist() == [r["qid"] for r in rows] and back.index.name is None
    assert back["qid"].tolist() == back.index.tolist()  # the column stays, for --on / --by
    assert back.loc["B:q1", "faithfulness"] < back.loc["A:q1", "faithfulness"]
    # the report can group by the column that holds the labels too
    html = tmp_path / "r.html"
    assert cli.main(["report", str(out), "--by", "qid", "--out", str(html)]) == 0
    assert 'title="B:q1">' in html.read_text(encoding="utf-8")
    capsys.readouterr()
    assert cli.main([*base, "--id", "quid"]) == 2
    assert (
        f"--id 'quid': no such column in {data}; did you mean 'qid'? the file has 'question', "
    ) in capsys.readouterr().err
    assert cli.main([*base, "--by", "sytem"]) == 2
    err = capsys.readouterr().err
    assert f"--by 'sytem': no such column in {data}; did you mean 'system'? the file has " in err
    assert "frame" not in err
    # repeated labels are allowed, with a warning
    twice = write_jsonl(tmp_path / "twice.jsonl", [{**GOOD[0], "qid": "x"}] * 2)
    assert (
        cli.main(["evaluate", str(twice), "--model", "offline", "--no-progress", "--id", "qid"])
        == 0
    )
    assert "--id 'qid' repeats 1 value (on 2 rows): rows with" in capsys.readouterr().err


def test_blank_and_missing_groups_are_named_in_the_checks(tmp_path, capsys):
    rows = [{**GOOD[0], "system": v} for v in ("A", "", None)]
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    args = ["evaluate", str(data), "--model", "offline", "--no-progress", "--by", "system"]
    assert cli.main([*args, "--fail-under", "faithfulness=0.5"]) == 0
    printed = capsys.readouterr().out
    for name in ("A", "''", "(missing)"):
        assert f"ok   system={name}: faithfulness: mean 1.000 >= 0.5" in printed


def test_baseline_by_group_names_the_system_that_dropped(tmp_path, capsys):
    def rows(b_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        good = [{**r, "system": "A", "qid": f"A{i}"} for i, r in enumerate(GOOD)]
        return good + [{**r, "system": "B", "qid": f"B{i}"} for i, r in enumerate(b_rows)]

    base = write_jsonl(tmp_path / "base.jsonl", rows(GOOD))
    baseline = tmp_path / "baseline.jsonl"
    common = ["--model", "offline", "--no-progress", "--on", "qid", "--by", "system"]
    assert cli.main(["evaluate", str(base), *common, "--out", str(baseline)]) == 0
    capsys.readouterr()
    now = write_jsonl(tmp_path / "now.jsonl", rows(WORSE))  # only system B got worse
    assert cli.main(["evaluate", str(now), *common, "--baseline", str(baseline)]) == 1
    out = capsys.readouterr().out
    assert "ok   system=A: faithfulness: no significant drop (mean diff +0.000" in out
    assert "FAIL system=B: faithfulness: significant drop against the baseline" in out
    assert "system=B: against the baseline (a = baseline, b = this run" in out
    # a group the baseline does not have is named, not compared
    extra = write_jsonl(
        tmp_path / "extra.jsonl", [*rows(GOOD), {**GOOD[0], "system": "C", "qid": "C0"}]
    )
    assert cli.main(["evaluate", str(extra), *common, "--baseline", str(baseline)]) == 0
    assert "system=C: no rows of this group in the baseline; not compared" in (
        capsys.readouterr().err
    )


def test_falling_back_to_the_offline_judge_is_noted(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_MODEL", raising=False)
    data = write_jsonl(tmp_path / "rows.jsonl", GOOD[:2])
    note = "note: no --model and no RAGNOTEBOOK_MODEL, so the offline judge is used"
    assert cli.main(["evaluate", str(data), "--no-progress"]) == 0
    assert note in capsys.readouterr().err
    assert cli.main(["evaluate", str(data), "--no-progress", "--model", "offline"]) == 0
    assert note not in capsys.readouterr().err
    monkeypatch.setenv("RAGNOTEBOOK_MODEL", "offline")
    assert cli.main(["evaluate", str(data), "--no-progress"]) == 0
    assert note not in capsys.readouterr().err


def test_an_input_error_is_not_announced_as_scoring(tmp_path, capsys):
    rows = [{"question": "q?", "answer": "a.", "contexts": ["c."], "reference": None}] * 3
    data = write_jsonl(tmp_path / "noref.jsonl", rows)
    assert cli.main(["evaluate", str(data), "--model", "offline", "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert "scoring" not in err.split("input error")[0]
    assert f"ragnotebook: 3 rows read from {data}; judge 'offline'" in err


def test_a_library_warning_is_not_prefixed_twice(capsys):
    with cli._plain_warnings("evaluate"):
        warnings.warn("ragnotebook: interrupted; 2 rows kept", UserWarning, stacklevel=1)
    err = capsys.readouterr().err
    assert err.strip() == "ragnotebook evaluate: warning: interrupted; 2 rows kept"


def test_a_semicolon_csv_with_a_bom_is_read(tmp_path, capsys):
    path = tmp_path / "semi.csv"
    path.write_text(
        "\ufeffquestion;answer;contexts\n"
        "Where is it?;It is on Pier 4.;\"['It is on Pier 4.', 'It opened in 1998.']\"\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    args = ["evaluate", str(path), "--model", "offline", "--no-progress", "--out", str(out)]
    assert cli.main([*args, "--metrics", "precision,faithfulness"]) == 0
    assert "1 row read from" in capsys.readouterr().err
    scored = cli.read_table(out)
    assert scored["faithfulness"].tolist() == [1.0]
    assert scored["context_precision"].notna().all()


@pytest.mark.parametrize(
    ("name", "text"),
    [("header.csv", "question,answer,contexts\n"), ("empty.jsonl", "")],
)
def test_a_file_without_rows_is_an_input_error(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert cli.main(["evaluate", str(path), "--model", "offline", "--no-progress"]) == 3
    assert "no rows to score" in capsys.readouterr().err


def _chart_titles(page: str) -> dict[str, str]:
    """Each chart's title in a report page, by its element id."""
    data = json.loads(page.split('id="rnb-data">')[1].split("</script>")[0])
    return {f["id"]: f["layout"]["title"]["text"] for f in data["figures"]}


def test_report_max_k_and_top_reach_the_charts(tmp_path, capsys):
    pytest.importorskip("plotly")
    out = _evaluated_jsonl(tmp_path)
    html = tmp_path / "r.html"
    base = ["report", str(out), "--out", str(html), "--plotly-js", "cdn"]
    assert cli.main(base) == 0
    default = _chart_titles(html.read_text(encoding="utf-8"))
    # every row has two chunks: the default max_k (20) leaves none out
    assert "ranks 1–" not in default["chart-precision"]
    assert "3 of 3 rows with problem claims shown" in default["chart-missed"]
    assert cli.main([*base, "--max-k", "1", "--top", "2"]) == 0
    titles = _chart_titles(html.read_text(encoding="utf-8"))
    assert (
        "ranks 1–1 shown: 6 rows have more chunks (up to 2), left out past rank 1"
        in titles["chart-precision"]
    )
    assert "2 of 3 rows with problem claims shown" in titles["chart-missed"]
    # 'all' is report(max_k=None): every rank, nothing left out
    assert cli.main([*base, "--max-k", "all"]) == 0
    every = _chart_titles(html.read_text(encoding="utf-8"))
    assert "ranks 1–" not in every["chart-precision"]
    assert (
        cli._parser().parse_args(["report", "s.jsonl", "--out", "r.html", "--max-k", "ALL"]).max_k
        is None
    )
    capsys.readouterr()
    for bad, message in (
        (
            ["--max-k", "0"],
            "argument --max-k: expected a whole number of at least 1 or 'all', got '0'",
        ),
        (["--top", "-3"], "--top: expected a whole number of at least 1, got -3"),
        (
            ["--max-k", "2.5"],
            "argument --max-k: expected a whole number of at least 1 or 'all', got '2.5'",
        ),
        (["--top", "all"], "argument --top: invalid int value: 'all'"),
    ):
        assert cli.main([*base, *bad]) == 2
        assert message in capsys.readouterr().err


def test_quickstart_help_says_the_offline_judge_is_only_the_default(capsys):
    # --model runs the quickstart with an LLM judge: "with the offline judge" was all of it
    assert cli.main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "quickstart score the bundled real sample (offline judge unless --model names " in text
    assert cli.main(["quickstart", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "on all three metrics (with the offline judge, or the LLM judge --model names)" in text


def _synopsis(command: str) -> str:
    """The lines of docs/cli.md's synopsis that show ``ragnotebook <command>``."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text.split("```", 2)[1]
    part = block.split(f"ragnotebook {command} ", 1)[1].split("\nragnotebook ", 1)[0]
    return " ".join(part.split())


@pytest.mark.parametrize("command", ["quickstart", "evaluate", "report"])
def test_help_and_the_docs_name_every_option_s_value_alike(command, capsys):
    # `--help` said --on ON, --baseline BASELINE, --max-drop MAX_DROP where the docs said
    # --on COLUMN, --baseline FILE, --max-drop D
    assert cli.main([command, "--help"]) == 0
    usage = " ".join(capsys.readouterr().out.split("\n\n")[0].split())
    shown = re.findall(r"(--[\w-]+) ([^\s\]]+)", usage)
    assert shown and all(value.isupper() or value.startswith("{") for _, value in shown), shown
    docs = _synopsis(command)
    for option, value in shown:
        assert f"{option} {value}" in docs, (option, value, docs)
    assert set(re.findall(r"--[\w-]+", docs)) == set(re.findall(r"--[\w-]+", usage))


def test_concurrency_help_says_its_default(capsys):
    import inspect

    assert cli.main(["evaluate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    default = inspect.signature(rn.evaluate).parameters["concurrency"].default
    args = cli._parser().parse_args(["evaluate", "rows.jsonl"])
    assert args.concurrency == default == 16
    assert "--concurrency N at most N judge calls in flight at once (default 16;" in text


def test_report_help_names_max_k_and_top_with_the_python_defaults(capsys):
    import inspect

    from ragnotebook.views._report import report

    assert cli.main(["report", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--max-k K ranks 1..K in the precision@k chart (default 20;" in text
    assert "--top N rows in the missed-claims chart, worst first (default 20;" in text
    defaults = {k: p.default for k, p in inspect.signature(report).parameters.items()}
    args = cli._parser().parse_args(["report", "s.jsonl", "--out", "r.html"])
    assert (args.max_k, args.top) == (defaults["max_k"], defaults["top"]) == (20, 20)


@pytest.mark.skipif(not _workers.fork_available(), reason="worker processes need Linux's fork")
def test_workers_option_runs_the_offline_judge_in_processes_with_the_same_scores(
    tmp_path, good, capsys
):
    outs = {}
    for n in ("1", "2"):
        out = tmp_path / f"scored{n}.parquet"
        code = cli.main(["evaluate", str(good), "--out", str(out), "--workers", n, "--no-progress"])
        capsys.readouterr()
        assert code == 0
        outs[n] = pd.read_parquet(out)
    assert outs["1"].attrs["ragnotebook"]["last_run"]["workers"] == 0
    assert outs["2"].attrs["ragnotebook"]["last_run"]["workers"] == 2
    metrics = [c for c in outs["1"].columns if c.startswith(("context_", "faithfulness"))]
    assert metrics
    pd.testing.assert_frame_equal(outs["1"][metrics], outs["2"][metrics])


def test_a_ctrl_c_after_the_last_row_still_writes_and_checks(tmp_path, good, monkeypatch, capsys):
    # a fresh user pressed Ctrl-C while a finished 1,000-row run was being written: exit
    # 130 and no file at all, against what docs/cli.md promises
    import signal

    real_write = cli._write_frame
    presses = []

    def write_after_ctrl_c(df, out):
        os.kill(os.getpid(), signal.SIGINT)  # as from the terminal, while writing
        presses.append(out)
        return real_write(df, out)

    monkeypatch.setattr(cli, "_write_frame", write_after_ctrl_c)
    out = tmp_path / "scored.jsonl"
    code, stdout, err = main_in_process(
        str(good), "--out", str(out), "--fail-under", "faithfulness=0.5", capsys=capsys
    )
    assert presses == [out]
    assert code == 0, err
    assert "Ctrl-C after the last row was scored: the run is complete" in err
    assert len(pd.read_json(out, lines=True)) == len(GOOD)
    assert "ok   faithfulness: mean" in stdout
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_after_the_last_row_stops_the_command(tmp_path, good, monkeypatch, capsys):
    import signal

    def write_after_two_presses(df, out):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("not reached: the second Ctrl-C stops the command")

    monkeypatch.setattr(cli, "_write_frame", write_after_two_presses)
    out = tmp_path / "scored.jsonl"
    code, _stdout, err = main_in_process(str(good), "--out", str(out), capsys=capsys)
    assert code == 130
    assert "ragnotebook evaluate: interrupted" in err
    assert not out.exists()


def test_mixed_references_name_the_reference_option(tmp_path):
    # a fresh user: the warning told the command's user to pass reference='ground_truth',
    # which the command had no option for (a subprocess: warnings print as the command's)
    rows = [dict(r) for r in GOOD[:4]]
    rows[1]["ground_truth"] = None
    data = write_jsonl(tmp_path / "mixed.jsonl", rows)
    proc = evaluate(data, "--metrics", "precision", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Pass --reference ground_truth to score only the first" in proc.stderr
    assert "context_precision (--reference auto): 3 rows are judged" in proc.stderr
    assert "reference='" not in proc.stderr
    out = tmp_path / "gt.jsonl"
    proc = evaluate(
        data,
        "--metrics",
        "precision",
        "--reference",
        "ground_truth",
        "--out",
        str(out),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "judged against" not in proc.stderr
    scored = pd.read_json(out, lines=True)
    assert scored["context_precision_status"].tolist() == ["ok", "no_reference", "ok", "ok"]


def test_a_bad_workers_variable_is_a_usage_error_before_reading(
    tmp_path, good, monkeypatch, capsys
):
    monkeypatch.setenv("RAGNOTEBOOK_WORKERS", "0")
    code = cli.main(["evaluate", str(good), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 2
    assert "usage error: RAGNOTEBOOK_WORKERS must be >= 1, got 0" in captured.err
    assert "rows read" not in captured.err
    # the option wins over the variable
    assert cli.main(["evaluate", str(good), "--no-progress", "--workers", "1"]) == 0


def test_an_unnamed_multiindex_is_written_and_read_back(tmp_path, capsys):
    # every level was named "row": the write failed after scoring ("cannot insert row,
    # already exists", exit 4) and the run was lost
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame(GOOD[:2], index=pd.MultiIndex.from_tuples([("A", 1), ("B", 1)]))
    frame.to_parquet(tmp_path / "multi.parquet")
    out = tmp_path / "scored.jsonl"
    args = ["evaluate", str(tmp_path / "multi.parquet"), "--no-progress", "--out", str(out)]
    assert cli.main(args) == 0
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert (first["row_0"], first["row_1"]) == ("A", 1)
    back = cli.with_row_labels(cli.read_table(out))
    assert back.index.tolist() == [("A", 1), ("B", 1)]
    assert list(back.index.names) == [None, None]  # unnamed, as written
    # levels that share a name get their level's number
    frame.index = frame.index.set_names(["k", "k"])
    frame.to_parquet(tmp_path / "dup.parquet")
    args[1] = str(tmp_path / "dup.parquet")
    assert cli.main(args) == 0
    back = cli.with_row_labels(cli.read_table(out))
    assert list(back.index.names) == ["k_0", "k_1"]
    assert back.index.tolist() == [("A", 1), ("B", 1)]


def test_column_keeps_the_blanks_of_a_spreadsheet_header(tmp_path):
    # "--column 'question= Question '" (the ambiguity error's own advice) mapped the role
    # to the column "Question"; a padded header could not be named at all
    rows = pd.DataFrame(
        {
            " Question ": ["What is the capital of France?"],
            "Question": ["ticket 8812"],
            "Answer": ["Paris is the capital of France."],
            "Contexts": ['["Paris is the capital of France."]'],
            "Ground Truth": ["Paris."],
        }
    )
    rows.to_csv(tmp_path / "padded.csv", index=False)
    out = tmp_path / "scored.jsonl"

    def mapped(column: str) -> str:
        args = ["evaluate", str(tmp_path / "padded.csv"), "--no-progress", "--out", str(out)]
        assert cli.main([*args, "--column", column]) == 0
        return cli.read_table(out).attrs["ragnotebook"]["columns"]["question"]

    assert mapped("question= Question ") == " Question "
    assert mapped("question=Question") == "Question"
    rows.drop(columns="Question").to_csv(tmp_path / "padded.csv", index=False)
    assert mapped("question=Question") == " Question "  # the one column it can be
    with pytest.raises(cli.UsageError, match="expected role=column"):
        cli.parse_columns(["question=  "])


def test_an_out_that_cannot_be_written_is_refused_before_scoring(tmp_path, good, capsys):
    (tmp_path / "taken.jsonl").mkdir()
    args = ["evaluate", str(good), "--no-progress", "--out"]
    assert cli.main([*args, str(tmp_path / "taken.jsonl")]) == 2
    err = capsys.readouterr().err
    assert f"--out: {tmp_path / 'taken.jsonl'} is a folder; give a file name in it" in err
    assert "Summary" not in capsys.readouterr().out  # nothing was scored
    (tmp_path / "file").write_text("")
    assert cli.main([*args, str(tmp_path / "file" / "x.jsonl")]) == 2
    assert f"--out: cannot write {tmp_path / 'file' / 'x.jsonl'} (" in capsys.readouterr().err
    # a missing folder is made, as before; no check file is left in it
    assert cli.main([*args, str(tmp_path / "new" / "x.jsonl")]) == 0
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == ["x.jsonl", "x.jsonl.run.json"]
    # the report command too
    scored = tmp_path / "new" / "x.jsonl"
    (tmp_path / "r.html").mkdir()
    assert cli.main(["report", str(scored), "--out", str(tmp_path / "r.html")]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_a_baseline_that_pairs_no_row_is_an_input_error_before_scoring(tmp_path, good, capsys):
    other = [dict(r, question=f"{r['question']} (other)") for r in GOOD]
    base_in = write_jsonl(tmp_path / "other.jsonl", other)
    base = tmp_path / "base.jsonl"
    assert cli.main(["evaluate", str(base_in), "--no-progress", "--out", str(base)]) == 0
    capsys.readouterr()
    assert cli.main(["evaluate", str(good), "--no-progress", "--baseline", str(base)]) == 3
    captured = capsys.readouterr()
    assert (
        "--baseline base.jsonl: no row pairs up: no value of its column 'question' is in "
        "the column 'question' of good.jsonl" in captured.err
    )
    assert "Summary" not in captured.out


def test_a_json_file_of_column_lists_is_a_table(tmp_path, capsys):
    # df.to_dict(orient="list") / a Hugging Face dataset's to_dict(): it was one row of
    # lists, and the hint said to join every question into one
    by_column = {k: [r[k] for r in GOOD] for k in GOOD[0]}
    path = tmp_path / "columns.json"
    path.write_text(json.dumps(by_column), encoding="utf-8")
    assert cli.read_table(path).to_dict("records") == GOOD
    assert cli.main(["evaluate", str(path), "--no-progress"]) == 0
    # lists of unequal length are no table
    by_column["answer"] = by_column["answer"][:1]
    path.write_text(json.dumps(by_column), encoding="utf-8")
    assert cli.main(["evaluate", str(path), "--no-progress"]) == 3


def test_a_file_that_is_not_utf8_names_its_line_and_the_fix(tmp_path, capsys):
    path = tmp_path / "latin1.csv"
    path.write_bytes(
        b'question,answer,contexts\n"What is it?","It is.","[""It is.""]"\n'
        b'"O\xf9 est le caf\xe9?","Ici.","[""Ici.""]"\n'
    )
    assert cli.main(["evaluate", str(path), "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert f"{path}, line 3: the file is not UTF-8 text (byte 0xf9); save it as UTF-8" in err
    assert "iconv -f cp1252 -t utf-8" in err


def test_out_that_is_an_existing_folder_is_named_a_folder_before_its_suffix(
    tmp_path, good, capsys, monkeypatch
):
    # "--out ." said "'' must end in .parquet"; "--out outdir" spoke of the suffix
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outdir").mkdir()
    for out, shown in ((".", "scored.jsonl"), ("outdir", "outdir/scored.jsonl")):
        assert cli.main(["evaluate", str(good), "--no-progress", "--out", out]) == 2
        err = capsys.readouterr().err
        assert f"--out: {out} is a folder; give a file name in it ({shown})" in err
    scored = tmp_path / "s.jsonl"
    assert cli.main(["evaluate", str(good), "--no-progress", "--out", str(scored)]) == 0
    assert cli.main(["report", str(scored), "--out", "outdir"]) == 2
    assert "--out: outdir is a folder; give a file name in it (outdir/report.html)" in (
        capsys.readouterr().err
    )


def test_a_drop_too_few_rows_can_show_says_why_it_passes(tmp_path, capsys):
    # 2 of 4 rows fell from 1 to 0: "ok ... no significant drop (p=0.5000)" and exit 0,
    # with nothing saying that 2 changed rows can never reach p < 0.05
    base_rows, new_rows = GOOD[:4], [dict(r) for r in GOOD[:4]]
    for r in new_rows[:2]:
        r["answer"] = "It was painted by Rembrandt van Rijn in Leiden in 1642."
    base = tmp_path / "base.jsonl"
    assert (
        cli.main(
            [
                "evaluate",
                str(write_jsonl(tmp_path / "b.jsonl", base_rows)),
                "--no-progress",
                "--out",
                str(base),
            ]
        )
        == 0
    )
    capsys.readouterr()
    new = write_jsonl(tmp_path / "n.jsonl", new_rows)
    args = [
        "evaluate",
        str(new),
        "--no-progress",
        "--metrics",
        "faithfulness",
        "--baseline",
        str(base),
    ]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert (
        "ok   faithfulness: no significant drop (mean diff -0.500, p=0.5000; only 2 paired "
        "row(s) changed, and the test cannot reach p < 0.05 with fewer than 6: set a floor "
        "with --fail-under)"
    ) in out
