"""Peak memory of running the example notebooks, to check they fit on Binder (1-2 GB).

Each notebook in ``notebooks/`` runs in its own fresh kernel (nbclient, as nbval does), with one
extra cell appended that reads the kernel's own peak resident set size
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``, the same number as ``VmHWM`` in
``/proc/<pid>/status``). The runner process, which plays the role of the Jupyter server, is
measured, and so is an idle JupyterLab server (started from this environment, Linux only; it is
what Binder runs next to the kernels). On Binder the container holds the server plus every
kernel left open, so the table also gives the worst case of all five kernels open at once.

Run::

    LITELLM_LOCAL_MODEL_COST_MAP=True .venv/bin/python benchmarks/notebook_memory.py

Options: ``--json`` prints the numbers as JSON; ``--limit-mb N`` exits 1 when the largest kernel
plus the server is above N MB (default 1024, Binder's lower limit).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.notebook_client
NOTEBOOKS = ROOT / "notebooks"

PROBE = "import resource as _r\nprint('PEAK_RSS_KB', _r.getrusage(_r.RUSAGE_SELF).ru_maxrss)"


def _peak_mb(kb: float) -> float:
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS
    return kb / 1024 if sys.platform != "darwin" else kb / 1024 / 1024


def run_one(path: Path) -> dict[str, float | str]:
    """Execute one notebook in a fresh kernel; return its peak RSS in MB and seconds."""
    import nbformat

    # nbclient's client, without its 600 s stall after the explorer's Output widget
    from tests.notebook_client import run_notebook

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        # run from the notebook's folder, as Jupyter and nbval do; keep the judge cache private
        os.environ.setdefault("RAGNOTEBOOK_CACHE", str(Path(tmp) / "judge_cache.sqlite3"))
        run_notebook(nb, str(path.parent), timeout=600)
    seconds = time.perf_counter() - start
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    kb = float(text.split("PEAK_RSS_KB", 1)[1].split()[0])
    return {
        "notebook": path.name,
        "kernel_peak_mb": round(_peak_mb(kb), 1),
        "seconds": round(seconds, 1),
    }


def lab_server_mb(timeout: float = 60.0) -> float | None:
    """Resident memory (MB) of an idle JupyterLab server 5 s after it is ready; None if unavailable."""
    jupyter = Path(sys.executable).with_name("jupyter")
    if not sys.platform.startswith("linux") or not jupyter.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(jupyter), "lab", "--no-browser", "--port=0", f"--ServerApp.root_dir={tmp}"]
        if os.geteuid() == 0:  # containers often run as root; Binder does not
            cmd.append("--allow-root")
        env = {**os.environ, "JUPYTER_RUNTIME_DIR": tmp}
        proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True
        )
        try:
            deadline = time.monotonic() + timeout
            assert proc.stderr is not None
            for line in proc.stderr:
                if "http://" in line or time.monotonic() > deadline:
                    break
            time.sleep(5)
            status = Path(f"/proc/{proc.pid}/status").read_text()
            kb = next(int(x.split()[1]) for x in status.splitlines() if x.startswith("VmHWM:"))
            return round(kb / 1024, 1)
        except (OSError, StopIteration):
            return None
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--limit-mb", type=float, default=1024.0, help="fail above this worst case")
    args = parser.parse_args(argv)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

    results = [run_one(p) for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
    runner_mb = round(_peak_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss), 1)
    server_mb = lab_server_mb()
    host_mb = server_mb if server_mb is not None else runner_mb
    peaks = [float(r["kernel_peak_mb"]) for r in results]
    summary = {
        "notebooks": results,
        "largest_kernel_mb": max(peaks),
        "runner_mb": runner_mb,
        "lab_server_mb": server_mb,
        "one_kernel_plus_server_mb": round(max(peaks) + host_mb, 1),
        "all_kernels_open_plus_server_mb": round(sum(peaks) + host_mb, 1),
        "limit_mb": args.limit_mb,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{'notebook':<36} {'kernel peak (MB)':>17} {'seconds':>8}")
        for r in results:
            print(f"{r['notebook']:<36} {r['kernel_peak_mb']:>17} {r['seconds']:>8}")
        print(f"largest kernel: {summary['largest_kernel_mb']} MB")
        print(f"idle JupyterLab server: {server_mb} MB (runner process: {runner_mb} MB)")
        print(f"largest kernel + server: {summary['one_kernel_plus_server_mb']} MB")
        print(f"all five kernels open + server: {summary['all_kernels_open_plus_server_mb']} MB")
    return 0 if summary["one_kernel_plus_server_mb"] <= args.limit_mb else 1


if __name__ == "__main__":
    sys.exit(main())
