"""ragnotebook: judge retrieval-augmented generation in Jupyter, claim by claim.

Importing the package registers the ``df.rag`` pandas accessor. litellm,
plotly and ipywidgets are imported only when a feature needs them.

Examples
--------
>>> import pandas as pd, ragnotebook
>>> df = pd.DataFrame({"question": ["Where is the museum?"],
...                    "answer": ["The museum is on Pier 4."],
...                    "contexts": [["The Harbor Museum sits on Pier 4."]],
...                    "ground_truth": ["The museum is on Pier 4."]})
>>> scored = df.rag.evaluate(model="offline", progress=False)
>>> list(scored.rag.summary().index)
['context_recall', 'context_precision', 'faithfulness']
"""

from __future__ import annotations

import importlib
from typing import Any

from ragnotebook import accessor as _accessor  # noqa: F401  (registers df.rag)
from ragnotebook._version import __version__
from ragnotebook.api import (
    EmptyColumnWarning,
    MixedReferenceWarning,
    acontext_precision,
    acontext_recall,
    aevaluate,
    afaithfulness,
    context_precision,
    context_recall,
    evaluate,
    faithfulness,
    get_default_model,
    set_default_model,
)
from ragnotebook.costs import estimate
from ragnotebook.frame import chunks, claims, summary, update_scores
from ragnotebook.judges.base import Judge, JudgeError
from ragnotebook.judges.mock import MockJudge

__all__ = [
    "EmptyColumnWarning",
    "EvalRunResult",
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
]

# names imported on first use, so that `import ragnotebook` stays cheap
_LAZY = {
    "OfflineJudge": "ragnotebook.judges.offline",
    "LiteLLMJudge": "ragnotebook.judges.llm",
    "ScorerResult": "ragnotebook.scorers.objects",
    "contexts_from_output": "ragnotebook.scorers.objects",
    "create_context_recall_scorer": "ragnotebook.scorers.objects",
    "create_context_precision_scorer": "ragnotebook.scorers.objects",
    "create_faithfulness_scorer": "ragnotebook.scorers.objects",
    "enable_nested_asyncio": "ragnotebook.nested",
    "load_sample": "ragnotebook.samples",
    "list_samples": "ragnotebook.samples",
    "run_evals": "ragnotebook.runs",
    "arun_evals": "ragnotebook.runs",
    "EvalRunResult": "ragnotebook.runs",
    "compare": "ragnotebook.comparison",
    "RepeatedKeyWarning": "ragnotebook.comparison",
}


#: subpackages reachable as attributes without their own import (``ragnotebook.views``);
#: each imports its heavy dependencies (plotly, ipywidgets, litellm) only when used
_SUBMODULES = frozenset({"views", "judges", "scorers", "costs", "samples", "runs", "comparison"})


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"ragnotebook.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ragnotebook' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(__all__) | {"accessor", "api", "engine", "frame", "tasks"} | _SUBMODULES)
