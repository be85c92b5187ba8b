"""The public surface: __all__, cheap import, accessor registration, docstrings."""

import inspect
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import ragnotebook as rn

ROOT = Path(__file__).resolve().parents[1]

EXPECTED = {
    "EvalRunResult",
    "EmptyColumnWarning",
    "Judge",
    "JudgeError",
    "LiteLLMJudge",
    "MixedReferenceWarning",
    "MockJudge",
    "OfflineJudge",
    "RepeatedKeyWarning",
    "ScorerResult",
    "__version__",
    "acontext_precision",
    "acontext_recall",
    "aevaluate",
    "afaithfulness",
    "arun_evals",
    "chunks",
    "claims",
    "compare",
    "context_precision",
    "context_recall",
    "contexts_from_output",
    "create_context_precision_scorer",
    "create_context_recall_scorer",
    "create_faithfulness_scorer",
    "enable_nested_asyncio",
    "estimate",
    "evaluate",
    "faithfulness",
    "get_default_model",
    "list_samples",
    "load_sample",
    "run_evals",
    "set_default_model",
    "summary",
    "update_scores",
}


def test_all_lists_exactly_the_public_names():
    assert set(rn.__all__) == EXPECTED
    assert len(rn.__all__) == len(set(rn.__all__))
    for name in rn.__all__:
        assert getattr(rn, name) is not None


def test_subpackages_are_attributes_without_their_own_import():
    """``ragnotebook.views.compare_table(...)`` works after ``import ragnotebook`` alone,
    and ``from ragnotebook.views import *`` gives every listed name."""
    code = (
        "import sys, ragnotebook\n"
        "assert 'ragnotebook.views' not in sys.modules\n"
        "v = ragnotebook.views\n"
        "assert callable(v.compare_table) and 'plotly' not in sys.modules\n"
        "ns = {}\n"
        "exec('from ragnotebook.views import *', ns)\n"
        "print(sorted(n for n in ns if not n.startswith('__')) == sorted(v.__all__))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(ROOT)
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
    assert "views" in dir(rn)


def test_unknown_attribute_raises():
    with pytest.raises(AttributeError):
        rn.no_such_thing  # noqa: B018


def test_import_is_cheap_and_registers_accessor():
    code = (
        "import sys, pandas as pd, ragnotebook\n"
        "heavy = [m for m in ('litellm', 'plotly', 'ipywidgets', 'openai', 'tiktoken', 'tqdm',"
        " 'nest_asyncio') if m in sys.modules]\n"
        "print(heavy, hasattr(pd.DataFrame(), 'rag'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=str(ROOT),
    )
    assert out.stdout.strip() == "[] True"


def test_accessor_on_any_frame_and_help():
    df = pd.DataFrame({"x": [1]})
    assert hasattr(df, "rag")  # no column validation in __init__
    with pytest.raises(ValueError, match="no column found for the 'contexts' and 'ground_truth'"):
        df.rag.context_recall(model="offline", progress=False)


@pytest.mark.parametrize("name", sorted(EXPECTED - {"__version__"}))
def test_every_public_name_has_a_numpydoc_docstring(name):
    obj = getattr(rn, name)
    doc = inspect.getdoc(obj) or ""
    assert len(doc) > 40, name
    if callable(obj) and not inspect.isclass(obj) and name not in ("get_default_model",):
        assert "Parameters" in doc or "Returns" in doc or "Raises" in doc, name
    assert "Examples" in doc, name


def test_metadata_is_json_safe():
    df = pd.DataFrame(
        {
            "question": ["q"],
            "answer": ["The sky is blue."],
            "contexts": [["The sky is blue."]],
            "ground_truth": ["Blue."],
        }
    )
    out = rn.evaluate(df, model="offline", progress=False)
    meta = out.attrs["ragnotebook"]
    json.dumps(meta)
    assert meta["judge"] == "offline-v24"
    assert set(meta["metrics"]) == {"context_recall", "context_precision", "faithfulness"}
    assert meta["columns"]["contexts"] == "contexts"


def test_input_never_mutated_and_dtypes():
    df = pd.DataFrame(
        {
            "question": ["q"],
            "answer": ["The sky is blue."],
            "contexts": [["The sky is blue."]],
            "ground_truth": ["Blue."],
        }
    )
    before = df.copy()
    out = df.rag.evaluate(model="offline", progress=False)
    pd.testing.assert_frame_equal(df, before)
    assert not df.attrs
    for m in rn.api.METRICS:
        assert str(out[m].dtype) == "Float64"
        assert isinstance(out.loc[0, f"{m}_verdicts"], list)
        assert out.loc[0, f"{m}_status"] == "ok"
        assert pd.isna(out.loc[0, f"{m}_error"])


def test_chained_metrics_merge_metadata():
    df = pd.DataFrame(
        {
            "question": ["q"],
            "answer": ["The sky is blue."],
            "contexts": [["The sky is blue."]],
            "ground_truth": ["Blue."],
        }
    )
    out = df.rag.context_recall(model="offline", progress=False).rag.faithfulness(
        model="offline", progress=False
    )
    assert set(out.attrs["ragnotebook"]["metrics"]) == {"context_recall", "faithfulness"}
    assert list(rn.summary(out).index) == ["context_recall", "faithfulness"]


def test_default_model_precedence(monkeypatch):
    monkeypatch.setattr(rn.api, "_default_model", None)
    monkeypatch.setattr(rn.api, "_offline_notice_given", False)
    monkeypatch.delenv("RAGNOTEBOOK_MODEL", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rn.get_default_model() == "offline"  # a getter: no side effect
    df = pd.DataFrame({"question": ["q"], "answer": ["a."], "contexts": [["a."]]})
    with pytest.warns(UserWarning, match="offline judge") as caught:
        rn.faithfulness(df, progress=False)
    assert caught[0].filename == __file__  # the notice points at the caller's line
    monkeypatch.setenv("RAGNOTEBOOK_MODEL", "openai/gpt-4o-mini")
    assert rn.get_default_model() == "openai/gpt-4o-mini"
    rn.set_default_model("offline")
    try:
        assert rn.get_default_model() == "offline"
    finally:
        rn.set_default_model(None)


def test_judge_options_routing():
    df = pd.DataFrame({"question": ["q"], "answer": ["a"], "contexts": [["c"]]})
    with pytest.raises(TypeError, match="offline judge takes no options"):
        rn.faithfulness(df, model="offline", api_base="http://x", progress=False)
    with pytest.raises(TypeError, match="judge object"):
        rn.faithfulness(df, model=rn.MockJudge(), temperature=0.2, progress=False)
    with pytest.raises(ValueError, match="unknown metric"):
        rn.evaluate(df, metrics=["relevancy"], model="offline", progress=False)
    with pytest.raises(TypeError, match="DataFrame"):
        rn.evaluate([{"question": "q"}], model="offline")


def test_public_docstring_examples_run_when_copied_alone():
    """Each public example imports what it uses: it runs with empty globals, as when a
    user copies it from help() into a fresh session (pytest's doctests see the module's
    names, which would hide a missing import)."""
    import contextlib
    import doctest
    import io

    from ragnotebook.accessor import RagAccessor

    finder = doctest.DocTestFinder(recurse=True)
    import ragnotebook.views as views

    objects = [(name, getattr(rn, name)) for name in rn.__all__]
    objects.append(("RagAccessor", RagAccessor))
    objects.extend((f"views.{name}", getattr(views, name)) for name in views.__all__)
    # functions of other modules that the docs send users to
    from ragnotebook import cli, prompts, text

    objects += [
        ("cli.read_table", cli.read_table),
        ("prompts.render", prompts.render),
        ("text.split_sentences", text.split_sentences),
    ]
    seen: set[str] = set()
    failed: list[str] = []
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for name, obj in objects:
        for test in finder.find(obj, name, globs={}, module=False):
            if test.name in seen or not test.examples:
                continue
            seen.add(test.name)
            test.globs = {}
            runner = doctest.DocTestRunner(optionflags=flags)
            out = io.StringIO()
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                runner.run(test, out=out.write)
            if runner.failures:
                failed.append(f"{test.name}: {out.getvalue()[-300:]}")
    assert len(seen) > 40
    assert not failed, "\n".join(failed)


def test_summary_of_a_slice_leaves_the_run_counters_out():
    judge = rn.MockJudge(extract_claims=lambda t: ["c"], verify_claims=lambda t: ["yes"])
    df = pd.DataFrame(
        {"question": ["q"] * 4, "answer": ["a."] * 4, "contexts": [["a."]] * 4},
    )
    scored = rn.faithfulness(df, model=judge, progress=False)
    whole = scored.rag.summary()
    assert whole.loc["faithfulness", "calls"] == 8 and str(whole["calls"].dtype) == "Int64"
    part = scored.head(2).rag.summary()
    assert part.loc["faithfulness", "scored"] == "2/2"  # the rows' own numbers stay
    assert pd.isna(part.loc["faithfulness", "calls"])  # the run's 8 calls are not theirs
    assert pd.isna(part.loc["faithfulness", "cost_usd"])


def test_summary_display_shows_the_counts_that_are_not_zero_and_names_the_rest():
    judge = rn.MockJudge(
        extract_claims=lambda t: ["c"] if t.text != "boom." else RuntimeError("judge down"),
        verify_claims=lambda t: ["yes"],
    )
    df = pd.DataFrame(
        {
            "question": ["q"] * 3,
            "answer": ["a.", "boom.", "a."],
            "contexts": [["a."], ["a."], []],
        }
    )
    with pytest.warns(UserWarning, match="rows failed"):
        scored = rn.faithfulness(df, model=judge, progress=False)
    s = scored.rag.summary()
    assert s.shape[1] == 28  # every column is still there
    text = repr(s)
    first, note = text.rsplit("\n", 1)
    # shown: the score, its coverage, and the status counts that happened
    for col in ("mean", "scored", "coverage", "ok", "no_context", "error", "calls"):
        assert col in first, col
    # n_error is the error status count: said once, by 'error'
    assert "n_error" not in first and "n_error: see 'error'" in note
    assert "..." not in first  # no column hidden behind pandas' ellipsis
    # named, not shown: the counts that are 0 in every row, and n_total/n_scored
    assert note.startswith("(not shown, all 0: no_ground_truth, no_reference,")
    assert "n_total and n_scored: see 'scored'" in note and "all 28 columns" in note
    assert "no_ground_truth" not in first and "cost_usd" not in first
    assert "<p><small>(not shown" in s._repr_html_()
    # the data and what is derived from it are untouched, and plain frames
    assert s.loc["faithfulness", "no_ground_truth"] == 0
    assert "cost_usd" in s.to_string()
    assert type(s[["mean"]]) is pd.DataFrame and type(s.head(1)) is pd.DataFrame
    assert s.loc["faithfulness", "scored"] == "2/3" and s.loc["faithfulness", "n_error"] == 1


def test_summary_display_explains_no_answer_and_rounds_means():
    df = pd.DataFrame(
        {
            "question": ["q"] * 4,
            "answer": ["a.", "b.", "c.", None],
            "contexts": [["a."]] * 4,
        },
    )
    judge = rn.MockJudge(
        extract_claims=[["a"], ["b"], ["c"]], verify_claims=[["yes"], ["no"], ["yes"]]
    )
    s = rn.faithfulness(df, model=judge, progress=False).rag.summary()
    text = repr(s)
    assert "no_answer: the no_claims rows with no answer at all, not averaged" in text
    assert s.loc["faithfulness", "mean"] == pytest.approx(2 / 3)
    assert "0.667" in text and "0.6666" not in text  # the display rounds; the data does not
    assert "n_total and n_scored: see 'scored'" in text


def test_summary_by_group_gives_each_system_its_own_mean_and_coverage():
    base = pd.DataFrame(
        {
            "question": ["Where is it?", "When does it open?"],
            "answer": ["It is on Pier 4.", "It opens at nine."],
            "contexts": [["The museum is on Pier 4."], ["The museum opens at nine."]],
        }
    )
    b = base.assign(answer=["It is on Pier 9.", None])
    two = pd.concat([base.assign(system="A"), b.assign(system="B")], ignore_index=True)
    two.loc[len(two)] = ["Where?", "It is on Pier 4.", ["The museum is on Pier 4."], None]
    scored = rn.faithfulness(two, model="offline", progress=False)
    s = scored.rag.summary(by="system")
    assert list(s.index.names) == ["system", "metric"]
    assert s.loc[("A", "faithfulness"), "mean"] == 1.0
    assert s.loc[("A", "faithfulness"), "scored"] == "2/2"
    # B: one wrong pier (0.0), one row with no answer (not averaged)
    assert s.loc[("B", "faithfulness"), "mean"] == 0.0
    assert s.loc[("B", "faithfulness"), "scored"] == "1/2"
    # the row with no system is a group of its own: every row is in one summary
    assert s["n_total"].sum() == len(two)
    assert pd.isna(s.index.get_level_values("system")[-1])
    # a part of the run's rows: its counters cannot be split per row
    assert s["calls"].isna().all()
    # the same numbers as summarising each system's rows alone
    alone = rn.summary(scored[scored["system"] == "B"])
    assert alone.loc["faithfulness", "mean"] == s.loc[("B", "faithfulness"), "mean"]
    # a list of columns, and a column that is not there
    assert list(rn.summary(scored, by=["system"]).index.names) == ["system", "metric"]
    with pytest.raises(KeyError, match="no column 'sys'"):
        scored.rag.summary(by="sys")


def test_summary_display_rounds_the_mean_half_up_as_the_command_line_does():
    from ragnotebook.frame import _Summary

    mean = 0.48249999999999993  # the float mean of two-decimal scores summing to 28.95/60
    summary = _Summary(
        pd.DataFrame(
            {"mean": [mean, float("nan")], "scored": ["60/60", "0/1"], "coverage": [1.0, 0.0]},
            index=pd.Index(["context_recall", "faithfulness"], name="metric"),
        )
    )
    text = repr(summary)
    assert "0.483" in text and "0.482" not in text
    assert "0.483" in summary._repr_html_()
    assert summary["mean"].iloc[0] == mean  # only the display is rounded


def test_summary_display_shows_the_cost_to_four_significant_digits():
    from ragnotebook.frame import _Summary

    summary = _Summary(
        pd.DataFrame(
            {
                "mean": [0.5, 0.25, 1.0],
                "scored": ["1/1"] * 3,
                "coverage": [1.0] * 3,
                "cost_usd": pd.array([0.008025, 0.0079998, None], dtype="Float64"),
            },
            index=pd.Index(["context_recall", "context_precision", "faithfulness"], name="metric"),
        )
    )
    text = repr(summary)
    assert "0.008025" in text and "<NA>" in text
    assert "<td>0.008025</td>" in summary._repr_html_()
    assert summary["cost_usd"].iloc[1] == 0.0079998  # only the display is shortened


def test_a_summary_by_group_says_its_judge_counters_are_not_counted_not_zero():
    df = pd.DataFrame(
        {
            "system": ["A", "A", "B"],
            "answer": ["It is 3.", "It is 4.", "It is 5."],
            "contexts": [["It is 3."], ["It is 5."], ["x"]],
        }
    )
    s = rn.faithfulness(df, model="offline", progress=False).rag.summary(by="system")
    note = repr(s).rsplit("\n", 1)[1]
    assert "not counted for these rows (<NA>): calls, attempts" in note
    assert "all 0: no_ground_truth" in note and "calls" not in note.split("not counted")[0]


def test_a_scored_row_stays_scored_after_a_csv_round_trip_blanks_its_answer(tmp_path):
    # pandas' read_csv reads the answers "None" and "NA" back as NaN: a row that had claims
    # (status ok, a measured 0) must stay in the mean; only a no_claims row whose answer
    # was missing is left out
    df = pd.DataFrame(
        {
            "question": ["Who?", "What?", "Where?", "When?"],
            "answer": ["None", "NA", "It is on Pier 4.", None],
            "contexts": [["It is on Pier 4."]] * 4,
        }
    )
    scored = rn.faithfulness(df, model="offline", progress=False)
    path = tmp_path / "scored.csv"
    scored.to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = pd.read_csv(path)
        before, after = scored.rag.summary(), back.rag.summary()
    assert back["answer"].isna().tolist() == [True, True, False, True]
    for s in (before, after):
        assert s.loc["faithfulness", "scored"] == "3/4"
        assert s.loc["faithfulness", "no_answer"] == 1
        assert s.loc["faithfulness", "mean"] == pytest.approx(
            scored["faithfulness"].iloc[:3].astype(float).mean()
        )


def test_the_readmes_self_contained_python_examples_run():
    """The README's examples that need no key, server or other objects run as written,
    each in a fresh namespace, and give the values their comments say."""
    import re
    import warnings
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)

    def code(block: str) -> str:  # without the comments, which name other models
        return "\n".join(line.split("#", 1)[0] for line in block.splitlines())

    needs = ("openai/", "ollama", "my_rag_app", "other", "scored_a", ".explore(")
    runnable = [b for b in blocks if not any(n in code(b) for n in needs)]
    # the quick start, the MockJudge example, the scorer object; the LLM, views and
    # run_evals examples need a key, a server, plotly or the reader's own app
    assert len(runnable) == 3 and len(blocks) == 6
    spaces: list[dict] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for block in runnable:  # each on its own, as pasted into a fresh session
            spaces.append({})
            exec(compile(block, "README.md", "exec"), spaces[-1])
    quick, mock, scorer = spaces
    assert len(quick["scored"]) == 48
    assert float(mock["out"]["context_recall"].iloc[0]) == 0.5
    assert [t.kind for t in mock["judge"].tasks] == ["extract_claims", "attribute_claims"]
    assert scorer["result"].score == 1.0
