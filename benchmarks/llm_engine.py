"""The engine under load, through the real litellm client, against the local test server.

Measures the numbers of issue 3 and prints a markdown table:

1. 500 rows x 3 metrics, 50 ms latency, concurrency 16: wall time vs the ideal
   (total calls x latency / concurrency, but never less than the longest row's chain of
   sequential calls x latency).
2. 100 ms latency with 20% faulty replies (429, 500, malformed, truncated: 5% each):
   rows ending ``ok``, rows lost, attempts vs the fault-free run.
3. Engine overhead at zero latency: calls per second through ragnotebook (the
   judge's transport included) vs a bare ``httpx.AsyncClient`` posting the same
   requests.

Scenarios 1 and 3 run with the default transport (``"auto"``: for an ``openai/...``
model with an ``api_base``, the direct OpenAI-compatible transport) and, for
reference, with ``transport="litellm"``.
4. A cached re-run of 1,000 rows x 3 metrics: calls made and wall time.
5. ``python -c "import ragnotebook"`` vs ``python -c "import pandas"``.
6. One long frame of three systems sharing a retriever (the same 100 questions, chunks
   and ground truths; B drops each answer's last sentence, C its first, so a
   one-sentence answer is the same in all three), 50 ms latency: answers needed against
   calls made, with the cache off and on (a fresh file); an LLM judge's identical tasks are
   asked once per run either way.

The server runs in its own process (``tests/llm_server.py --offline-replies``), so its
work does not share the client's interpreter. Rows are real: RAGTruth, HaluEval and
HotpotQA from ``../shared/datasets`` when present, else the bundled sample.

Usage: python benchmarks/llm_engine.py [--only 1,2,3,4,5] [--rows 500]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pandas as pd  # noqa: E402
from offline_speed import load_rows  # noqa: E402

import ragnotebook as rn  # noqa: E402

METRICS = ("context_recall", "context_precision", "faithfulness")
CHAIN = {"context_recall": 2, "context_precision": 1, "faithfulness": 2}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The test server in a subprocess."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        cmd = [
            sys.executable,
            str(ROOT / "tests" / "llm_server.py"),
            "--port",
            str(self.port),
            "--offline-replies",
            *args,
        ]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=str(ROOT)
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening" not in line:
            raise RuntimeError(f"server did not start: {line}")
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run(df: pd.DataFrame, url: str, **kw: object) -> tuple[pd.DataFrame, float]:
    opts: dict[str, object] = dict(
        model="openai/test-model",
        api_base=url,
        api_key="sk-bench",
        progress=False,
        cache=False,
        concurrency=16,
    )
    opts.update(kw)
    t0 = time.perf_counter()
    out = rn.evaluate(df, **opts)  # type: ignore[arg-type]
    return out, time.perf_counter() - t0


def totals(out: pd.DataFrame, key: str) -> int:
    return sum(int(m[key]) for m in out.attrs["ragnotebook"]["metrics"].values())


def ideal_seconds(out: pd.DataFrame, latency: float, concurrency: int) -> float:
    calls = totals(out, "calls")
    chain = 0
    for _, row in out.iterrows():
        steps = sum(CHAIN[m] for m in METRICS if row[f"{m}_status"] == "ok")
        chain = max(chain, steps)
    return max(calls * latency / concurrency, chain * latency)


def warm(url: str) -> None:
    """Import litellm and open connections before timing anything."""
    run(load_rows(4), url, metrics=["faithfulness"])


def bench_throughput(rows: int, repeat: int = 3) -> list[tuple[str, str, str, str]]:
    """Scenario 1, ``repeat`` times per transport; the median run is reported."""
    out_rows = []
    with Server("--latency", "0.05") as srv:
        warm(srv.url)
        df = load_rows(rows)
        for transport in ("auto", "litellm"):
            runs = []
            for _ in range(repeat):
                out, wall = run(df, srv.url, transport=transport)
                runs.append((wall, out))
            walls = sorted(w for w, _ in runs)
            wall, out = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
            ideal = ideal_seconds(out, 0.05, 16)
            calls = totals(out, "calls")
            ratio = wall / ideal
            used = out.attrs["ragnotebook"]["judge_transport"]
            label = f"{rows} rows x 3 metrics, 50 ms, c=16, transport={used}"
            measured = (
                f"{wall:.2f} s for {calls} calls ({calls / wall:.0f}/s), median of "
                f"{repeat} ({', '.join(f'{w:.2f}' for w in walls)}); ideal {ideal:.2f} s"
            )
            target = "<= 1.25x" + (" PASS" if ratio <= 1.25 else " MISS")
            out_rows.append(
                (
                    label if transport == "auto" else f"(for reference) {label}",
                    measured,
                    f"{ratio:.2f}x ideal",
                    target if transport == "auto" else "",
                )
            )
    return out_rows


def bench_faults(rows: int) -> list[tuple[str, str, str, str]]:
    # rows with an answer and a ground truth, so that all three metrics are asked
    df = load_rows(max(rows, 1000))
    df = df[df["ground_truth"].notna() & df["answer"].notna()].head(rows).reset_index(drop=True)
    rows = len(df)  # (426 of the first 1,000 have both)
    with Server("--latency", "0.1") as srv:
        warm(srv.url)
        clean, _ = run(df, srv.url)
    faults = "429=0.05,500=0.05,malformed=0.05,truncated=0.05"
    with Server("--latency", "0.1", "--faults", faults, "--retry-after", "0.2") as srv:
        warm(srv.url)
        faulty, wall = run(df, srv.url)
    ok = all(not (faulty[f"{m}_status"] == "error").any() for m in METRICS)
    lost = len(df) - len(faulty)
    same = all(
        faulty[m].astype("float64").fillna(-1).tolist()
        == clean[m].astype("float64").fillna(-1).tolist()
        for m in METRICS
    )
    ratio = totals(faulty, "attempts") / totals(clean, "attempts")
    return [
        (
            f"{rows} rows x 3 metrics, 100 ms, 20% faulty replies",
            f"errors: {'none' if ok else 'SOME'}; rows lost: {lost}; scores equal fault-free: {same}; "
            f"{wall:.1f} s",
            f"attempts {ratio:.2f}x fault-free",
            "all ok, <= 1.5x" + (" PASS" if ok and lost == 0 and ratio <= 1.5 else " MISS"),
        )
    ]


async def _litellm_rate(url: str, bodies: list[dict[str, object]], concurrency: int) -> float:
    import litellm

    sem = asyncio.Semaphore(concurrency)

    async def one(body: dict[str, object]) -> None:
        async with sem:
            await litellm.acompletion(
                model="openai/test-model",
                api_base=url,
                api_key="sk-bench",
                messages=body["messages"],
                num_retries=0,
                timeout=60,
            )

    await one(bodies[0])
    t0 = time.perf_counter()
    await asyncio.gather(*(one(b) for b in bodies))
    return len(bodies) / (time.perf_counter() - t0)


async def _httpx_rate(url: str, bodies: list[dict[str, object]], concurrency: int) -> float:
    import httpx

    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(timeout=60) as client:

        async def one(body: dict[str, object]) -> None:
            async with sem:
                r = await client.post(
                    url + "/chat/completions",
                    json=body,
                    headers={"Authorization": "Bearer sk-bench"},
                )
                r.json()

        await one(bodies[0])
        t0 = time.perf_counter()
        await asyncio.gather(*(one(b) for b in bodies))
        return len(bodies) / (time.perf_counter() - t0)


def bench_overhead(rows: int) -> list[tuple[str, str, str, str]]:
    from ragnotebook import prompts

    df = load_rows(rows)
    df = df[df["answer"].notna()].reset_index(drop=True)
    with Server() as srv:
        warm(srv.url)
        out, wall = run(df, srv.url, metrics=("faithfulness",))
        calls = totals(out, "calls")
        ours = calls / wall
        via, via_wall = run(df, srv.url, metrics=("faithfulness",), transport="litellm")
        ours_litellm = totals(via, "calls") / via_wall
        # the same requests ragnotebook sent: record the tasks of the same run with a
        # scripted judge that answers like the offline judge (as the server does)
        recorder = rn.MockJudge(fallback=rn.OfflineJudge())
        rn.evaluate(df, metrics=("faithfulness",), model=recorder, progress=False)
        bodies = [{"model": "test-model", "messages": prompts.render(t)} for t in recorder.tasks]
        bare = asyncio.run(_httpx_rate(srv.url, bodies, 16))
        raw_litellm = asyncio.run(_litellm_rate(srv.url, bodies, 16))
    ratio = ours / bare
    used = out.attrs["ragnotebook"]["judge_transport"]
    return [
        (
            f"zero latency, c=16: calls/s through ragnotebook (transport={used}) vs bare httpx",
            f"{ours:.0f}/s vs {bare:.0f}/s",
            f"{ratio:.2f}x",
            ">= 0.6x" + (" PASS" if ratio >= 0.6 else " MISS"),
        ),
        (
            "(for reference) the same through ragnotebook with transport=litellm",
            f"{ours_litellm:.0f}/s",
            f"{ours_litellm / bare:.2f}x httpx",
            "",
        ),
        (
            "(for reference) bare litellm.acompletion, same requests, c=16",
            f"{raw_litellm:.0f}/s",
            f"{raw_litellm / bare:.2f}x httpx; ragnotebook {ours / raw_litellm:.2f}x of it",
            "",
        ),
    ]


def bench_cached(rows: int) -> list[tuple[str, str, str, str]]:
    df = load_rows(rows)
    with tempfile.TemporaryDirectory() as tmp, Server() as srv:
        cache = Path(tmp) / "cache.sqlite3"
        warm(srv.url)
        run(df, srv.url, cache=cache)
        out, wall = run(df, srv.url, cache=cache)
    attempts = totals(out, "attempts")
    hits = totals(out, "cache_hits")
    return [
        (
            f"cached re-run, {rows} rows x 3 metrics",
            f"{attempts} calls made, {hits} answers from the cache",
            f"{wall:.2f} s",
            "0 calls, < 3 s" + (" PASS" if attempts == 0 and wall < 3 else " MISS"),
        )
    ]


def three_systems(rows: int) -> pd.DataFrame:
    """``rows`` real rows (with a ground truth and an answer) under three generators
    that share one retriever: B drops each answer's last sentence, C its first."""
    from ragnotebook.text import split_sentences

    df = load_rows(1000)
    df = df[df["ground_truth"].notna() & df["answer"].notna()].head(rows).copy()
    df["question_id"] = range(len(df))
    frames = []
    for name, keep in (("A", slice(None)), ("B", slice(None, -1)), ("C", slice(1, None))):
        part = df.copy()
        part["system"] = name
        part["answer"] = [
            " ".join(split_sentences(a)[keep]) or a if isinstance(a, str) else a
            for a in part["answer"]
        ]
        frames.append(part)
    # long format, one question's three answers next to each other (as a frame built
    # from a merge on the question usually is)
    long = pd.concat(frames, ignore_index=True)
    return long.sort_values(["question_id", "system"], kind="stable").reset_index(drop=True)


def bench_shared(rows: int) -> list[tuple[str, str, str, str]]:
    df = three_systems(rows)
    with tempfile.TemporaryDirectory() as tmp, Server("--latency", "0.05") as srv:
        warm(srv.url)
        off, t_off = run(df, srv.url, cache=False)
        on, t_on = run(df, srv.url, cache=Path(tmp) / "cache.sqlite3")
    cols = [m for m in METRICS if m in off.columns]
    same = bool(cols) and off[cols].equals(on[cols])
    needed = totals(off, "calls")
    a_off, a_on = totals(off, "attempts"), totals(on, "attempts")
    return [
        (
            f"3 systems x {rows} questions (one retriever) x 3 metrics, 50 ms",
            f"{needed} answers needed; cache off: {a_off} calls, {t_off:.1f} s; cache on "
            f"(fresh file): {a_on} calls, {t_on:.1f} s; scores " + ("equal" if same else "DIFFER"),
            f"{a_off / needed:.2f}x calls",
            "fewer calls than answers, same scores"
            + (" PASS" if a_off < needed and a_on < needed and same else " MISS"),
        )
    ]


def _import_time(module: str, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", f"import {module}"],
            check=True,
            cwd=tempfile.gettempdir(),
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_import() -> list[tuple[str, str, str, str]]:
    pandas_t = _import_time("pandas")
    ours = _import_time("ragnotebook")
    ratio = ours / pandas_t
    return [
        (
            "python -c 'import ragnotebook' vs 'import pandas' (median of 7)",
            f"{ours * 1000:.0f} ms vs {pandas_t * 1000:.0f} ms",
            f"{ratio:.2f}x",
            "< 1.5x" + (" PASS" if ratio < 1.5 else " MISS"),
        )
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="1,2,3,4,5,6")
    ap.add_argument("--rows", type=int, default=500)
    args = ap.parse_args()
    only = {int(x) for x in args.only.split(",")}
    table: list[tuple[str, str, str, str]] = []
    if 1 in only:
        table += bench_throughput(args.rows)
    if 2 in only:
        table += bench_faults(args.rows)
    if 3 in only:
        table += bench_overhead(min(args.rows, 300))
    if 4 in only:
        table += bench_cached(1000)
    if 5 in only:
        table += bench_import()
    if 6 in only:
        table += bench_shared(100)
    print(f"\ncores: {os.cpu_count()}  python: {sys.version.split()[0]}\n")
    print("| scenario | measured | ratio | target |")
    print("|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
