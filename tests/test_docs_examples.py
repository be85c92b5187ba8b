"""The documentation's examples and tables, run against the code with the offline judge.

``tests/test_public_api.py`` runs the README's self-contained Python examples; this file
runs the rest of its examples and the cheap ones of ``docs/``: a block that needs the
reader's own objects (their RAG app, a second system's frame) gets a small stand-in for
each, and one that needs an LLM judge is checked for the option names and defaults it
states. The tables that list returned columns and counters are compared with what the
code returns. No key, network or server is used. When a block changes, the block counts
asserted here fail first, so the test is updated with the text.
"""

from __future__ import annotations

import ast
import inspect
import re
import shlex
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ragnotebook as rn

ROOT = Path(__file__).resolve().parents[1]


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _blocks(name: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _text(name), flags=re.DOTALL)


def _section(name: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading of the
    same or a higher level."""
    lines = _text(name).splitlines(keepends=True)
    start = lines.index(heading + "\n")
    level = len(heading) - len(heading.lstrip("#"))
    fenced = False
    for end in range(start + 1, len(lines)):
        fenced ^= lines[end].startswith("```")
        found = re.match(r"(#+) ", lines[end])
        if not fenced and found and len(found.group(1)) <= level:
            break
    else:
        end = len(lines)
    return "".join(lines[start:end])


def _table_names(section: str) -> list[str]:
    """The backticked names in the first column of a section's tables."""
    names: list[str] = []
    for line in section.splitlines():
        if line.startswith("| `"):
            names += re.findall(r"`([^`]+)`", line.split("|")[1])
    return names


def _run(block: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Run a block as pasted into a session that already holds ``namespace``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the sample's MixedReferenceWarning and the like
        exec(compile(block, "<doc example>", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def quick() -> pd.DataFrame:
    """The bundled quickstart sample scored by the offline judge, as the README's first
    example leaves ``scored``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rn.load_sample("quickstart").rag.evaluate(model="offline", progress=False)


# --------------------------------------------------------------------------- README.md


def _readme_block(marker: str) -> str:
    found = [b for b in _blocks("README.md", "python") if marker in b]
    assert len(found) == 1, marker
    return found[0]


def test_readme_views_example_runs(quick, tmp_path, monkeypatch):
    # `other`, a second system's frame of the same questions; `last`, an earlier run;
    # `system`, a column naming the system: the README names them and leaves them to you
    monkeypatch.chdir(tmp_path)
    sample = rn.load_sample("quickstart")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = sample.assign(contexts=sample["contexts"].map(lambda c: list(c)[:1]))
        other = other.rag.evaluate(model="offline", progress=False)
    scored = quick.assign(system=np.where(np.arange(len(quick)) % 2, "A", "B"))
    _run(
        _readme_block("scored.rag.explore()"),
        {"scored": scored, "other": other, "last": other},
    )
    report = tmp_path / "report.html"
    assert 4_000_000 < report.stat().st_size < 6_000_000  # "about 5 MB: plotly.js inside"
    assert (tmp_path / "r.html").stat().st_size > 0
    # "plotly_js="cdn": ~46 kB + ~6 kB a row"
    small = scored.rag.report(tmp_path / "cdn.html", plotly_js="cdn").stat().st_size
    assert 30_000 + 4_000 * len(scored) < small < 60_000 + 8_000 * len(scored)


def test_readme_run_evals_example_runs(quick):
    def my_rag_app(question: str) -> dict[str, Any]:
        return {"answer": "The museum is on Pier 4.", "contexts": ["The museum is on Pier 4."]}

    long = pd.concat([quick.assign(system="A"), quick.assign(system="B")])
    space = _run(
        _readme_block("run_evals("),
        {
            "ragnotebook": rn,
            "my_rag_app": my_rag_app,
            "scored_a": quick,
            "scored_b": quick,
            "scored": long,
        },
    )
    result = space["result"]
    assert result.scores["context-recall-scorer"]["mean"] == 1.0
    assert len(result.frame) == 1


def test_readme_llm_example_names_only_options_that_exist(quick):
    """The real-judge example and the text around it need a key or a server; what they
    name (keyword options, summary columns, defaults) is checked against the code."""
    from ragnotebook import api
    from ragnotebook._limits import RetryPolicy
    from ragnotebook.judges.base import LLM_JUDGE_OPTIONS
    from ragnotebook.judges.llm import LiteLLMJudge

    section = _section("README.md", "### Real judges, cost and caching")
    block = _readme_block("estimate(df")
    known = (
        set(inspect.signature(rn.evaluate).parameters)
        | set(LLM_JUDGE_OPTIONS)
        | set(api._ENGINE_OPTIONS)
    )
    named = set(re.findall(r"\b([a-z_]+)=", block)) | set(re.findall(r"`([a-z_]+)=[^`]*`", section))
    assert named >= {"api_base", "cache", "rpm", "call_timeout", "workers", "timeout"}
    assert named <= known, named - known
    columns = re.search(r"summary\(\)\[(\[.*?\])\]", block)
    assert columns is not None
    assert set(ast.literal_eval(columns.group(1))) <= set(quick.rag.summary().columns)
    # the defaults the text states
    judge = inspect.signature(LiteLLMJudge).parameters
    assert "`timeout=60`" in section and judge["timeout"].default == 60
    assert "`num_retries=4`" in section and judge["num_retries"].default == 4
    policy = inspect.signature(RetryPolicy).parameters
    assert "default 24" in section and policy["max_rate_limit_retries"].default == 24
    assert "(60 s at most)" in section and policy["max_retry_after"].default == 60


def test_readme_command_line_example_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyarrow")
    pytest.importorskip("plotly")
    from ragnotebook import cli

    monkeypatch.chdir(tmp_path)
    rows = [
        {
            "question": f"Where is exhibit {i}?",
            "answer": f"Exhibit {i} is in hall {i}.",
            "contexts": [f"Exhibit {i} is in hall {i}.", "The cafe sells coffee."],
            "ground_truth": f"Exhibit {i} is in hall {i}.",
        }
        for i in range(1, 5)
    ]
    pd.DataFrame(rows).to_json("data.jsonl", orient="records", lines=True)
    section = _section("README.md", "### Evaluating a RAG app, and CI")
    (block,) = re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)
    commands = [shlex.split(c) for c in block.replace("\\\n", " ").strip().splitlines()]
    assert [c[:2] for c in commands] == [["ragnotebook", "evaluate"], ["ragnotebook", "report"]]
    evaluate, report = (c[1:] for c in commands)
    # the first run has no baseline ("leave it out on the first run"): it writes the
    # baseline's file in place of --out's
    at = evaluate.index("--baseline")
    baseline = evaluate[at + 1]
    first = [baseline if a == "scored.parquet" else a for a in evaluate[:at] + evaluate[at + 2 :]]
    assert cli.main([*first, "--no-progress"]) == 0
    assert cli.main([*evaluate, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ok   context_recall: mean 1.000 >= 0.7" in out and "Against the baseline" in out
    assert cli.main(report) == 0
    assert (tmp_path / "report.html").stat().st_size > 0


# --------------------------------------------------------------------------- docs/


def test_migrating_phoenix_example_runs():
    (block,) = _blocks("docs/migrating.md", "python")
    space = _run(block, {})
    scored = space["scored"]
    assert "context_recall" not in scored  # "no ground truth: recall left out"
    assert scored["faithfulness_status"].tolist() == ["ok"]
    assert scored["context_precision_status"].tolist() == ["ok"]


def test_views_examples_run(tmp_path, monkeypatch):
    pytest.importorskip("plotly")
    monkeypatch.chdir(tmp_path)
    first, several = _blocks("docs/views.md", "python")
    _run(first.replace('model="offline"', 'model="offline", progress=False'), {})
    assert (tmp_path / "report.html").stat().st_size > 0
    # several systems in one frame: `df` is the reader's long frame
    sample = rn.load_sample("quickstart").iloc[::4]
    df = pd.concat([sample.assign(system="A"), sample.assign(system="B")])
    space = _run(
        several.replace('model="offline"', 'model="offline", progress=False'),
        {"df": df, "ragnotebook": rn},
    )
    assert set(space["scored"].rag.summary(by="system").index.get_level_values(0)) == {"A", "B"}


def test_run_evals_examples_run():
    first, _callback, comparing = _blocks("docs/run_evals.md", "python")

    class Retriever:
        def search(self, question: str) -> list[str]:
            return ["The Harbor Museum is on Pier 4.", "The cafe sells coffee."]

    class LLM:
        def answer(self, question: str, chunks: list[str]) -> str:
            return "The Harbor Museum is on Pier 4."

    # the block's judge is an LLM and its data set ends in "...": the offline judge, the
    # one item written out
    block = first.replace('"openai/gpt-4o-mini"', '"offline"').replace(", ...]", "]")
    space = _run(block, {"retriever": Retriever(), "llm": LLM()})
    res = space["res"]
    ids = ["context-recall-scorer", "context-precision-scorer", "faithfulness-scorer"]
    assert list(res.scores) == ids
    assert {"mean", "n_scored", "n_error"} <= set(res.scores[ids[0]])
    assert res.summary().index.tolist() == ids
    space["rag_bm25"] = space["rag_hybrid"] = space["my_rag"]
    space = _run(comparing, space)
    assert space["a"].shape[0] == space["b"].shape[0] == 1


def test_run_evals_result_frame_table_matches_the_frame():
    rows = [
        line.split("|")[1:3]
        for line in _section("docs/run_evals.md", "## The result frame").splitlines()
        if line.startswith("| `")
    ]
    documented = {name.strip().strip("`"): dtype.strip() for name, dtype in rows if dtype.strip()}

    def target(item: Any) -> Any:
        if item == "boom":
            raise ConnectionError("down")
        return {"answer": "It is on Pier 4.", "contexts": ["It is on Pier 4."]}

    data = ["Where?", {"input": [{"role": "user", "content": "Where?"}]}, "boom"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = rn.run_evals(
            data,
            scorers=[rn.create_faithfulness_scorer(model="offline")],
            target=target,
            progress=False,
        ).frame
    assert "question" in documented and "target_cached" in documented
    for name, dtype in documented.items():
        assert str(frame[name].dtype) == dtype.split(" (")[0], name
    assert frame["target_status"].tolist() == ["ok", "ok", "error"]
    assert pd.isna(frame["target_latency_s"].iloc[2]) and pd.isna(frame["target_error"].iloc[0])


def test_compare_tables_match_the_columns(quick):
    names = [
        n
        for cell in _table_names(_section("docs/run_evals.md", "## Comparing two runs: `compare`"))
        for n in cell.split(", ")
    ]
    table = rn.compare(quick, quick, on=None)
    assert table.index.name == "metric"
    assert names == list(table.columns)
    from ragnotebook.views import compare_table

    listed = re.search(
        r"returns the numbers behind\n`compare` as a DataFrame: (.*?) \(True",
        _text("docs/views.md"),
        flags=re.DOTALL,
    )
    assert listed is not None
    assert re.findall(r"`([a-z_]+)`", listed.group(1)) == list(
        compare_table(quick, quick, on=None).columns
    )


def test_cache_and_cost_tables_match_the_code(quick, tmp_path):
    from ragnotebook.cache import JudgeCache

    estimate = rn.estimate(rn.load_sample("quickstart").iloc[32:36], model="offline")
    section = _section("docs/cache_and_cost.md", "## Estimating cost").split("### How it")[0]
    names = [n for cell in _table_names(section) for n in cell.split(", ")]
    assert ["metric", *names] == list(estimate.columns)
    assert "ragnotebook_estimate" in estimate.attrs

    counters = _section("docs/cache_and_cost.md", "## Run counters: what each number counts")
    metric = quick.attrs["ragnotebook"]["metrics"]["faithfulness"]
    last_run = quick.attrs["ragnotebook"]["last_run"]
    summary = quick.rag.summary()
    checked = 0
    for line in counters.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            for name in re.findall(r"`([a-z_]+)`", first.split("(")[0]):
                checked += 1
                assert name in (last_run if "(`last_run`)" in first else metric), name
                if "(attrs only)" not in first and "(`last_run`)" not in first:
                    assert name in summary.columns, name
    assert checked >= 15

    stored = _section("docs/cache_and_cost.md", "### What is stored, and what is not")
    listed = re.findall(r"`([a-z_]+)`", stored.split("`stats()`")[0].split("counters")[-1])
    listed += re.findall(r"`([a-z_]+)`", stored.split("`stats()` reports")[1].split(".\n")[0])
    cache = JudgeCache(tmp_path / "c.sqlite3")
    try:
        assert {"hits", "misses", "saved_cost_usd", "entries", "by_kind", "cost_usd"} <= set(listed)
        assert set(listed) <= set(cache.stats()), set(listed) - set(cache.stats())
    finally:
        cache.close()


def test_scoring_worked_examples_hold():
    from ragnotebook.scorers._common import round_half_up
    from ragnotebook.scorers.context_precision import average_precision

    text = _text("docs/scoring.md")
    rounding = re.search(r"Python's banker's `round`: (.*?)\.\n", text)
    assert rounding is not None
    pairs = re.findall(r"([\d./]+) -> ([\d.]+)", rounding.group(1))
    assert len(pairs) == 4
    for given, rounded in pairs:
        num, _, den = given.partition("/")
        value = float(num) / float(den) if den else float(num)
        assert round_half_up(value) == float(rounded), given
    assert round_half_up(33 / 40 * 3) == 2.47  # "gives 2.47 (the reference's value)"
    examples = re.findall(r"\[((?:yes|no)(?:, (?:yes|no))*)\] -> ([\d.]+)", text)
    assert len(examples) == 4
    for verdicts, score in examples:
        relevant = [v == "yes" for v in verdicts.split(", ")]
        assert round_half_up(average_precision(relevant)[0]) == float(score), verdicts
    seventh = [False] * 12
    seventh[6] = True
    assert "twelve chunks with only the seventh relevant -> 0.14" in text
    assert round_half_up(average_precision(seventh)[0]) == 0.14


# --------------------------------------------------------------------------- offline judge


def test_offline_judge_thresholds_table_matches_the_code():
    from ragnotebook import text
    from ragnotebook.judges import _compare, offline

    section = _section("docs/offline_judge.md", "## Thresholds and how they were chosen")
    defaults = {
        name: p.default for name, p in inspect.signature(offline.OfflineJudge).parameters.items()
    }
    checked = 0
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first, value = line.split("|")[1:3]
        names = re.findall(r"`([A-Za-z_]+)`", first.split("(")[0])
        numbers = re.findall(r"\d+(?:\.\d+)?", value.split("(")[0])
        for name, number in zip(names, numbers, strict=True):
            found = defaults.get(name, getattr(offline, name, getattr(_compare, name, None)))
            assert found == float(number), (name, found, number)
            checked += 1
    assert checked >= 15
    lists = re.search(
        r"\| opposite-word lists \| en (\d+) pairs .*?ja (\d+), zh (\d+), ko (\d+)", section
    )
    assert lists is not None
    for lang, count in zip(("en", "ja", "zh", "ko"), lists.groups(), strict=True):
        assert len(text._OPPOSITE_PAIRS[lang]) == int(count), lang


def _faithfulness_verdict(context: str, claim: str) -> str:
    df = pd.DataFrame({"question": ["q"], "answer": [claim], "contexts": [[context]]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = rn.faithfulness(df, model="offline", progress=False)
    (verdict,) = [v["verdict"] for v in out["faithfulness_verdicts"].iloc[0]]
    return verdict


def test_offline_judge_known_limits_opposite_words():
    section = _section("docs/offline_judge.md", "## Known limits")
    assert '"climbed"/"slumped"), "rebounded"/"crashed" is not' in section
    assert _faithfulness_verdict("Sales fell in March.", "Sales rose in March.") == "no"
    assert _faithfulness_verdict("Sales slumped in March.", "Sales climbed in March.") == "no"
    assert (
        _faithfulness_verdict(
            "Quarterly sales crashed in March.", "Quarterly sales rebounded in March."
        )
        != "no"
    )


def test_notebooks_page_states_notebook_04s_numbers():
    """docs/notebooks.md gives notebook 04's AUROC and its misses at the 0.8 threshold."""
    row = next(
        line for line in _text("docs/notebooks.md").splitlines() if "04_faithfulness" in line
    )
    stated = re.search(r"AUROC > 0\.6 \((0\.\d+) with", row)
    misses = re.search(r"(\w+) hallucinated answers pass the 0\.8 threshold", row)
    assert stated is not None and misses is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scored = rn.load_sample("ragtruth_qa").rag.evaluate(
            model="offline", metrics=["faithfulness"], progress=False
        )
    label = scored["hallucinated"].astype(bool)
    score = scored["faithfulness"].astype(float)
    ranks = (-score).rank()  # the notebook's AUROC: a lower score means hallucinated
    n_pos, n_neg = int(label.sum()), int((~label).sum())
    auroc = (ranks[label].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    assert f"{auroc:.2f}" == stated.group(1)
    words = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
    assert int(((score >= 0.8) & label).sum()) == words[misses.group(1)]
