"""Views of a scored frame: plotly charts, the explorer widget and the HTML report.

Views only read the columns :func:`ragnotebook.evaluate` writes; they never call a
judge. Charts need plotly (extra ``[plot]``), the explorer ipywidgets (extra
``[widgets]``); both are imported only when a view is built, so ``import
ragnotebook`` stays light.

======================================  ===========================================
``precision_at_k(df)``                  mean precision@k by rank, band, share relevant
``scores(df)``                          score distribution per metric, statuses apart
``missed_claims(df)``                   claims not found / not supported, worst first
``compare(a, b, on=...)``               paired differences with bootstrap CIs (figure)
``compare_table(a, b, on=...)``         the same numbers as a DataFrame
``explore(df)``                         the explorer widget (or a static HTML view)
``report(df, path)``                    one self-contained HTML file
======================================  ===========================================

Examples
--------
>>> import ragnotebook
>>> from ragnotebook import views
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> [t.name for t in views.precision_at_k(scored).data]
['interquartile range', 'share of relevant chunks', 'mean precision@k']
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Explorer",
    "PlotAccessor",
    "StaticExplorer",
    "compare",
    "compare_table",
    "explore",
    "missed_claims",
    "precision_at_k",
    "report",
    "scores",
]

# Public name -> the module defining it, imported on first access. The modules behind
# ``compare`` and ``report`` are private (``_compare``, ``_report``): a submodule named
# like a function would replace that function as the package attribute once imported.
_LAZY = {
    "PlotAccessor": "ragnotebook.views.plot_accessor",
    "precision_at_k": "ragnotebook.views.plots",
    "scores": "ragnotebook.views.plots",
    "missed_claims": "ragnotebook.views.plots",
    "compare": "ragnotebook.views._compare",
    "compare_table": "ragnotebook.views._compare",
    "Explorer": "ragnotebook.views.explorer",
    "StaticExplorer": "ragnotebook.views.static",
    "explore": "ragnotebook.views.static",
    "report": "ragnotebook.views._report",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ragnotebook.views' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
