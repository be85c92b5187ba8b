"""Small samples of real, public RAG evaluation data, bundled with the package.

Three samples ship in ``ragnotebook/data`` (see ``ATTRIBUTION.md`` there for
sources, licenses and how the rows were chosen):

``hotpotqa``
    16 HotpotQA fullwiki questions, each with the 10 paragraphs a TF-IDF
    retriever returned and per-paragraph gold relevance (``context_labels``).
    No generated answer (``answer`` is missing); ``ground_truth`` is a short span.
    Useful for context precision and context recall. CC BY-SA 4.0.
``ragtruth``
    16 RAGTruth QA responses (8 with human-marked hallucinations, 8 without),
    three MS MARCO passages each. Useful for faithfulness. MIT.
``halueval``
    8 HaluEval QA questions, each twice: once with the gold answer
    (``faithful`` true) and once with a generated hallucinated answer.
    MIT; the text derives from HotpotQA (CC BY-SA 4.0).
``quickstart``
    All three stacked, 48 rows.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, Final

import pandas as pd
from pandas.api.extensions import ExtensionDtype

__all__ = ["list_samples", "load_sample"]

_FILES: Final[dict[str, str]] = {
    "hotpotqa": "hotpotqa_sample.jsonl",
    "ragtruth": "ragtruth_sample.jsonl",
    "halueval": "halueval_sample.jsonl",
}

_CORE: Final[tuple[str, ...]] = ("question", "answer", "contexts", "ground_truth", "source")

#: Label columns and the (nullable) dtypes they are given, so that missing labels
#: in the stacked quickstart frame stay missing without turning booleans into objects.
_LABELS: Final[dict[str, ExtensionDtype | None]] = {
    "context_titles": None,
    "context_labels": None,
    "n_gold_retrieved": pd.Int64Dtype(),
    "hallucinated": pd.BooleanDtype(),
    "faithful": pd.BooleanDtype(),
}


def list_samples() -> list[str]:
    """Names accepted by :func:`load_sample`.

    Returns
    -------
    list of str
        ``["quickstart", "hotpotqa", "ragtruth", "halueval"]``.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> list_samples()
    ['quickstart', 'hotpotqa', 'ragtruth', 'halueval']
    """
    return ["quickstart", *_FILES]


def _read_records(filename: str) -> list[dict[str, Any]]:
    text = files("ragnotebook").joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    # Built from parsed JSON (not pd.read_json) so ids stay strings and
    # list-valued fields stay Python lists.
    df = pd.DataFrame.from_records(records)
    df["id"] = df["id"].astype(str)
    return df.set_index("id")


def _finish(df: pd.DataFrame) -> pd.DataFrame:
    labels = [c for c in _LABELS if c in df.columns]
    df = df[[*_CORE, *labels]].copy()
    for col in labels:
        dtype = _LABELS[col]
        if dtype is not None:
            df[col] = df[col].astype(dtype)
    return df


def load_sample(name: str = "quickstart") -> pd.DataFrame:
    """Load one of the bundled sample datasets as a DataFrame.

    Parameters
    ----------
    name : str, default "quickstart"
        One of :func:`list_samples`: ``"hotpotqa"``, ``"ragtruth"``,
        ``"halueval"``, or ``"quickstart"`` (the three stacked in that order).

    Returns
    -------
    pandas.DataFrame
        Indexed by the source row id (string, index name ``"id"``), with columns
        ``question``, ``answer``, ``contexts`` (Python lists of str),
        ``ground_truth``, ``source``, then the label columns the sample has:
        ``context_titles`` and ``context_labels`` (lists, parallel to
        ``contexts``) and ``n_gold_retrieved`` (``Int64``) for HotpotQA,
        ``hallucinated`` (``boolean``) for RAGTruth and ``faithful``
        (``boolean``) for HaluEval. In ``quickstart`` a label is missing (NA)
        on rows from datasets that lack it. Each call returns a fresh frame.

    Raises
    ------
    ValueError
        If ``name`` is not a known sample; the message lists the names.

    Examples
    --------
    >>> df = load_sample("ragtruth")
    >>> len(df), int(df["hallucinated"].sum())
    (16, 8)
    >>> quick = load_sample()
    >>> quick["source"].value_counts().to_dict()
    {'hotpotqa': 16, 'ragtruth': 16, 'halueval': 16}
    >>> type(quick["contexts"].iloc[0])
    <class 'list'>
    """
    if name == "quickstart":
        parts = [_frame(_read_records(filename)) for filename in _FILES.values()]
        return _finish(pd.concat(parts))
    if name not in _FILES:
        known = ", ".join(repr(n) for n in list_samples())
        raise ValueError(f"unknown sample {name!r}; choose one of {known}")
    return _finish(_frame(_read_records(_FILES[name])))
