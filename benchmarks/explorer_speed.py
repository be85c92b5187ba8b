"""Explorer responsiveness at 1,000 rows (issue 4: usable at 1,000 rows without lag).

Builds the widget on 1,000 scored rows (the bundled sample repeated), then times a search, a
sort, a score filter, a selection and a next-row step, as a user would do them.

Usage: python benchmarks/explorer_speed.py
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pandas as pd

import ragnotebook
from ragnotebook.views.explorer import Explorer


def main() -> None:
    scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
    big = pd.concat([scored] * 21, ignore_index=True).iloc[:1000]
    t0 = time.perf_counter()
    ex = Explorer(big)
    timings = {"build": time.perf_counter() - t0}
    steps = {
        "search": lambda: setattr(ex.search, "value", "kansas"),
        "sort": lambda: setattr(ex.sort_by, "value", "faithfulness:asc"),
        "filter": lambda: setattr(ex.score_range, "value", (0.0, 0.5)),
        "select": lambda: ex.select(position=int(ex.positions[-1])),
        "next row": lambda: ex.next_row_button.click(),
    }
    for name, step in steps.items():
        t0 = time.perf_counter()
        step()
        timings[name] = time.perf_counter() - t0
    print("| action (1,000 rows) | ms |\n|---|---|")
    for name, seconds in timings.items():
        print(f"| {name} | {seconds * 1000:.0f} |")


if __name__ == "__main__":
    main()
