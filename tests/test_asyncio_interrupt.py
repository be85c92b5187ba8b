"""Ctrl-C inside ``asyncio.run(main())``: what the README says, measured with a real SIGINT.

Since Python 3.11 ``asyncio.run`` handles SIGINT itself: the first one cancels the main
task, which only takes effect at its next ``await``. An awaited ``a``-twin stops at once; a
sync call inside the coroutine never sees that Ctrl-C, runs to its end, and its result is
lost when the task is cancelled at the next ``await``. The judge sends the SIGINT itself at
a known call, so nothing depends on timing guesses.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os, signal, sys, warnings
    import pandas as pd
    import ragnotebook as rn

    mode, at = sys.argv[1], int(sys.argv[2])
    calls = {"n": 0}

    def claims(task):
        calls["n"] += 1
        if calls["n"] == at:
            os.kill(os.getpid(), signal.SIGINT)
        return ["c"]

    judge = rn.MockJudge(extract_claims=claims, verify_claims=lambda t: ["yes"], latency=0.02)
    df = pd.DataFrame({"question": ["q"] * 30, "answer": ["a"] * 30, "contexts": [["c"]] * 30})
    seen = {}

    async def main():
        if mode == "sync":
            out = rn.faithfulness(df, model=judge, progress=False, concurrency=2)
        else:
            out = await rn.afaithfulness(df, model=judge, progress=False, concurrency=2)
        seen["returned"] = out["faithfulness_status"].value_counts().to_dict()
        await asyncio.sleep(0)
        seen["after_await"] = True

    warnings.simplefilter("ignore")
    try:
        asyncio.run(main())
        seen["raised"] = None
    except KeyboardInterrupt:
        seen["raised"] = "KeyboardInterrupt"
    seen["claim_calls"] = calls["n"]
    print(json.dumps(seen))
    """
)


def run(mode: str, tmp_path) -> dict:
    script = tmp_path / "main.py"
    script.write_text(SCRIPT, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(script), mode, "4"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_sync_call_inside_asyncio_run_does_not_see_the_first_ctrl_c(tmp_path):
    seen = run("sync", tmp_path)
    # every row was judged after the Ctrl-C, then the result was lost at the next await
    assert seen["claim_calls"] == 30
    assert seen["returned"] == {"ok": 30}
    assert "after_await" not in seen
    assert seen["raised"] == "KeyboardInterrupt"


def test_an_awaited_twin_stops_at_the_first_ctrl_c(tmp_path):
    seen = run("async", tmp_path)
    assert seen["claim_calls"] < 10  # stopped right away, not after all 30 rows
    assert "returned" not in seen  # CancelledError, as asyncio expects
    assert seen["raised"] == "KeyboardInterrupt"
