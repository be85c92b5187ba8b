"""Checks on the example notebooks in ``notebooks/``.

The notebooks themselves are executed by nbval (``pytest --nbval-lax``); the
values that matter are asserted in their own cells. The tests here check what
nbval cannot: that the committed files are clean (no outputs, no execution
counts, no local paths, one canonical JSON layout), that each follows the
shape the project promises, and that ``05_real_judge.ipynb`` really talks to an
LLM server when one is configured and falls back to the offline judge when not.

Clean the notebooks after editing them in Jupyter::

    .venv/bin/python tests/test_notebooks.py --clean
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = [
    "01_quickstart.ipynb",
    "02_missed_claims.ipynb",
    "03_precision_by_position.ipynb",
    "04_faithfulness_vs_humans.ipynb",
    "05_real_judge.ipynb",
]
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
#: Cell metadata worth keeping (nbval reads tags such as ``nbval-skip``).
KEEP_CELL_METADATA = ("tags",)
#: Fragments of machine-specific paths that must not appear in a committed notebook.
LOCAL_PATH = re.compile(r"(/home/|/Users/|/root/|/work/|/tmp/|[A-Za-z]:\\\\|file://)")


# --------------------------------------------------------------------- cleaning
def clean(nb: dict[str, Any]) -> dict[str, Any]:
    """Return ``nb`` with outputs, execution counts and volatile metadata removed."""
    nb = json.loads(json.dumps(nb))
    nb["nbformat"], nb["nbformat_minor"] = 4, 5
    nb["metadata"] = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for cell in nb["cells"]:
        meta = cell.get("metadata", {})
        cell["metadata"] = {k: meta[k] for k in KEEP_CELL_METADATA if k in meta}
        if isinstance(cell.get("source"), str):
            cell["source"] = cell["source"].splitlines(keepends=True)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return nb


def dumps(nb: dict[str, Any]) -> str:
    """The canonical text of a notebook (nbformat's own layout: indent 1, sorted keys)."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def clean_files(paths: list[Path]) -> list[Path]:
    """Rewrite each notebook in its clean form; return the ones that changed."""
    changed = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        new = dumps(clean(json.loads(text)))
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def _load(name: str) -> dict[str, Any]:
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def _source(cell: dict[str, Any]) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


# --------------------------------------------------------------------- the files
def test_the_five_notebooks_exist() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_clean(name: str) -> None:
    text = (NOTEBOOKS / name).read_text(encoding="utf-8")
    nb = json.loads(text)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{name}: outputs committed"
            assert cell["execution_count"] is None, f"{name}: execution count committed"
    ids = [cell["id"] for cell in nb["cells"]]
    assert len(set(ids)) == len(ids), f"{name}: duplicate cell ids"
    assert not LOCAL_PATH.search(text), f"{name}: a local path: {LOCAL_PATH.search(text)}"
    assert text == dumps(clean(nb)), (
        f"{name} is not in its clean form; run: .venv/bin/python tests/test_notebooks.py --clean"
    )


@pytest.mark.parametrize("name", NAMES)
def test_notebook_shape(name: str) -> None:
    cells = _load(name)["cells"]
    code = [_source(c) for c in cells if c["cell_type"] == "code"]
    assert len(cells) <= 25, f"{name}: {len(cells)} cells"
    assert cells[0]["cell_type"] == "markdown" and _source(cells[0]).startswith("# ")
    last = cells[-1]
    assert last["cell_type"] == "markdown" and "what to try next" in _source(last).lower()
    # prose between the code: no two code cells in a row without text between them
    kinds = "".join("c" if c["cell_type"] == "code" else "m" for c in cells)
    assert "ccc" not in kinds, f"{name}: three code cells in a row ({kinds})"
    # the values that matter are asserted in the notebook itself
    assert sum(src.count("assert ") for src in code) >= 3
    # every evaluation runs quietly (no progress bars in nbval or Binder logs)
    for src in code:
        for call in re.findall(r"\.evaluate\((.*?)\)\s*$", src, flags=re.M | re.S):
            assert "progress=False" in call, f"{name}: evaluate(...) without progress=False"
    # it runs with the offline judge and shows how to switch to a real model
    text = "\n".join(_source(c) for c in cells)
    assert '"offline"' in text
    assert "05_real_judge.ipynb" in text or name == "05_real_judge.ipynb"


# ----------------------------------------------------------- the real-judge notebook
def _execute(name: str, tmp_path: Path) -> dict[str, Any]:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    try:  # nbclient's client without its stall after Output widgets (see the module)
        from notebook_client import run_notebook
    except ImportError:  # tests/ imported as a package
        from tests.notebook_client import run_notebook

    return run_notebook(nbformat.read(NOTEBOOKS / name, as_version=4), str(tmp_path))


def _printed(nb: dict[str, Any]) -> str:
    parts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(out["text"])
    return "".join(parts)


_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "RAGNOTEBOOK_MODEL", "JUDGE_API_BASE")


def test_real_judge_notebook_without_key_uses_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in _KEYS:
        monkeypatch.delenv(var, raising=False)
    printed = _printed(_execute("05_real_judge.ipynb", tmp_path))
    assert "No credentials for openai/gpt-4o-mini" in printed
    assert "using the offline judge" in printed


@pytest.mark.server
def test_real_judge_notebook_with_a_local_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llm_server: Any
) -> None:
    for var in _KEYS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RAGNOTEBOOK_MODEL", "openai/test-model")
    monkeypatch.setenv("JUDGE_API_BASE", llm_server.url)
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(tmp_path / "judge_cache.sqlite3"))
    try:
        from judge_replies import offline_responder
    except ImportError:  # tests/ imported as a package
        from tests.judge_replies import offline_responder
    llm_server.responder = offline_responder()  # answers like the offline judge would
    nb = _execute("05_real_judge.ipynb", tmp_path)
    printed = _printed(nb)
    assert "Judging with openai/test-model" in printed
    assert "offline judge instead" not in printed
    # the first run asked the server; the re-run was answered from the cache
    # (the notebook asserts that itself), so the server saw only the first run
    assert llm_server.requests > 0
    assert (tmp_path / "judge_cache.sqlite3").exists()


if __name__ == "__main__":
    if sys.argv[1:] != ["--clean"]:
        sys.exit("usage: python tests/test_notebooks.py --clean")
    for path in clean_files(sorted(NOTEBOOKS.glob("*.ipynb"))):
        print(f"cleaned {path.relative_to(NOTEBOOKS.parent)}")
