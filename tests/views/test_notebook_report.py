"""The quickstart notebook tells its reader where the report went."""

import re
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "01_quickstart.ipynb"


def test_quickstart_prints_the_full_path_of_its_report(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    # nbclient's own client stalled 300 s now and then after the explorer cells (a lost
    # wake-up of its wait for the execute reply; tests/notebook_client.py tells the story)
    from tests.notebook_client import run_notebook

    nb = run_notebook(nbformat.read(NOTEBOOK, as_version=4), str(tmp_path))
    printed = "".join(
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream"
    )
    found = re.search(r"Report written to (.+quickstart_report\.html) \(", printed)
    assert found, printed[-500:]
    path = Path(found.group(1))
    # a path the reader can open as printed, wherever the kernel ran
    assert path.is_absolute() and path.is_file() and path.stat().st_size > 1_000_000
    assert "<title>RAG evaluation report</title>" in path.read_text(encoding="utf-8")
