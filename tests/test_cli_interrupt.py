"""Ctrl-C on the command line: a real SIGINT sent to ``ragnotebook evaluate`` while it scores.

The judge of these runs (a MockJudge put in place of the command's model) answers without
awaiting anything, as the offline judge does, and sends the SIGINT itself from its Nth
call, so the signal comes at a known point of the run, never after a guessed delay. It
then sleeps briefly, which lets the main thread take the signal before the run goes on.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import ragnotebook as rn

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: Runs ``cli.main(argv)`` with a judge that sends SIGINT to its own process at call
#: ``at`` (then sleeps ``pause`` seconds) and counts its calls in ``calls.txt``.
DRIVER = textwrap.dedent(
    """
    import os, signal, sys, time
    from pathlib import Path

    import ragnotebook as rn
    from ragnotebook import cli

    at, pause = int(sys.argv[1]), float(sys.argv[2])
    calls = {"n": 0}
    counted = Path("calls.txt")

    def answer(reply):
        def step(task):
            calls["n"] += 1
            counted.write_text(str(calls["n"]))
            if calls["n"] == at:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(pause)  # the main thread takes the signal meanwhile
            return reply
        return step

    judge = rn.MockJudge(extract_claims=answer(["c"]), verify_claims=answer(["yes"]))
    real = rn.evaluate
    rn.evaluate = lambda df, **kw: real(df, **{**kw, "model": judge})
    raise SystemExit(cli.main(sys.argv[3:]))
    """
)


def run_driver(tmp_path: Path, at: int, *argv: str, pause: float = 1.0):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("RAGNOTEBOOK_MODEL", None)
    proc = subprocess.run(
        [sys.executable, str(script), str(at), str(pause), *argv],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        env=env,
        timeout=240,
    )
    calls = int((tmp_path / "calls.txt").read_text())
    return proc, calls


def rows(n: int) -> list[dict[str, object]]:
    return [
        {
            "question": f"Where is exhibit {i}?",
            "answer": f"Exhibit {i} is in hall {i}.",
            "contexts": [f"Exhibit {i} is in hall {i}."],
        }
        for i in range(n)
    ]


def write_rows(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows(n)), encoding="utf-8")
    return path


def run_evaluate(tmp_path: Path, at: int, data: Path, out: Path):
    """``ragnotebook evaluate`` scoring faithfulness with a check, SIGINT at judge call ``at``."""
    args = ["--metrics", "faithfulness", "--out", str(out), "--no-progress"]
    return run_driver(
        tmp_path, at, "evaluate", str(data), *args, "--fail-under", "faithfulness=0.5"
    )


def test_ctrl_c_stops_the_run_at_once_and_keeps_the_finished_rows(tmp_path):
    # 2 judge calls per row; SIGINT at the 41st. The cancellation used to wait at the back
    # of the loop's queue, behind a step of every row not yet started, each scoring its
    # whole row: nearly all rows were scored after the Ctrl-C (5 s and more on 5,000
    # rows), and the wait for it ran out while the loop thread was still scoring
    data = write_rows(tmp_path / "rows.jsonl", 300)
    out = tmp_path / "scored.jsonl"
    proc, calls = run_evaluate(tmp_path, 41, data, out)
    assert proc.returncode == 130, proc.stderr
    assert calls <= 44  # the row in progress finishes; no other row starts
    done = re.search(r"interrupted; (\d+) of 300 row-metrics finished", proc.stderr)
    assert done and 20 <= int(done[1]) <= 22, proc.stderr
    partial = tmp_path / "scored.partial.jsonl"
    assert f"the finished rows are in {partial} (not {out}); no check was run" in proc.stderr
    assert not out.exists() and "Checks" not in proc.stdout
    kept = pd.read_json(partial, lines=True)
    assert (kept["faithfulness_status"] == "ok").sum() == int(done[1])
    assert kept["faithfulness_status"].iloc[: int(done[1])].eq("ok").all()  # from the top


def test_ctrl_c_during_the_last_call_leaves_a_complete_run(tmp_path):
    # SIGINT while the last row is being judged: that row finishes, so every row is scored;
    # it printed "interrupted; 30 of 30 row-metrics finished ... the others have status
    # 'error' (cancelled)", skipped the checks, wrote no --out and exited 130
    data = write_rows(tmp_path / "rows.jsonl", 30)
    out = tmp_path / "scored.jsonl"
    proc, calls = run_evaluate(tmp_path, 60, data, out)
    assert calls == 60
    assert proc.returncode == 0, proc.stderr
    assert "interrupted" not in proc.stderr and "cancelled" not in proc.stderr
    assert "ok   faithfulness: mean 1.000 >= 0.5" in proc.stdout
    scored = pd.read_json(out, lines=True)
    assert (scored["faithfulness_status"] == "ok").all() and len(scored) == 30


def test_the_python_api_stops_as_promptly(recwarn):
    # the same in-process: rn.evaluate returns the rows finished before the interrupt
    import _thread
    import time

    calls = {"n": 0}

    def verify(task):
        calls["n"] += 1
        if calls["n"] == 10:
            _thread.interrupt_main()
            time.sleep(1.0)  # the main thread takes it at its next poll (0.1 s)
        return ["yes"]

    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=verify)
    out = rn.faithfulness(pd.DataFrame(rows(400)), model=judge, progress=False)
    assert calls["n"] == 10  # no row started after the interrupt
    ok = out["faithfulness_status"] == "ok"
    assert int(ok.sum()) == 10 and ok.iloc[:10].all()
    assert out.attrs["ragnotebook"]["last_run"]["interrupted"] is True


def test_the_python_api_keeps_a_run_whose_last_call_took_the_interrupt(recwarn):
    # Ctrl-C during the last call: every row-metric finished, so the run is complete and
    # no "interrupted; N of N ... the others ... cancelled" warning is raised
    import _thread
    import time
    import warnings

    n = 12
    calls = {"n": 0}

    def verify(task):
        calls["n"] += 1
        if calls["n"] == n:
            _thread.interrupt_main()
            time.sleep(1.0)
        return ["yes"]

    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=verify)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = rn.faithfulness(pd.DataFrame(rows(n)), model=judge, progress=False)
    assert calls["n"] == n
    assert (out["faithfulness_status"] == "ok").all()
    assert out.attrs["ragnotebook"]["last_run"]["interrupted"] is False
    assert not [w for w in caught if "interrupted" in str(w.message)]
