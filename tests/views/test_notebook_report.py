"""The quickstart notebook tells its reader where the report went."""

import re
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "01_quickstart.ipynb"


def test_quickstart_prints_the_full_path_of_its_report(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
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
