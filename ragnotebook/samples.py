"""Small samples of real, public RAG evaluation data, bundled with the package.

Three files ship in ``ragnotebook/data`` (see ``ATTRIBUTION.md`` there for
sources, licenses and how the rows were chosen). They give six samples:

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
    The three above stacked, 48 rows.
``hotpotqa_fullwiki``
    36 HotpotQA fullwiki questions (a superset of ``hotpotqa``); 24 of them lack
    at least one gold paragraph. Adds ``gold_titles`` (the two gold Wikipedia
    articles, retrieved or not) and ``question_type`` (bridge / comparison).
``ragtruth_qa``
    97 RAGTruth QA responses (a superset of ``ragtruth``): every response of good
    quality to 17 questions, written by six LLMs, 16 of them with human-marked
    hallucinations. Adds ``question_id``, ``generator`` (the LLM) and
    ``hallucination_spans`` (the human-marked spans: text and type).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from typing import Any, Final

import pandas as pd
from pandas.api.extensions import ExtensionDtype

__all__ = ["list_samples", "load_sample"]

#: Each bundled file holds one source dataset.
_HOTPOTQA_FILE: Final = "hotpotqa_fullwiki_sample.jsonl"
_RAGTRUTH_FILE: Final = "ragtruth_qa_sample.jsonl"
_HALUEVAL_FILE: Final = "halueval_sample.jsonl"

_CORE: Final[tuple[str, ...]] = ("question", "answer", "contexts", "ground_truth", "source")

#: Label columns and the (nullable) dtypes they are given, so that missing labels
#: in the stacked quickstart frame stay missing without turning booleans into objects.
_LABELS: Final[dict[str, ExtensionDtype | None]] = {
    "context_titles": None,
    "context_labels": None,
    "n_gold_retrieved": pd.Int64Dtype(),
    "gold_titles": None,
    "question_type": None,
    "hallucinated": pd.BooleanDtype(),
    "question_id": None,
    "generator": None,
    "hallucination_spans": None,
    "faithful": pd.BooleanDtype(),
}

#: Label columns of the small samples (kept as they were first published).
_SMALL_LABELS: Final[dict[str, tuple[str, ...]]] = {
    "hotpotqa": ("context_titles", "context_labels", "n_gold_retrieved"),
    "ragtruth": ("hallucinated",),
    "halueval": ("faithful",),
}


def list_samples() -> list[str]:
    """Names accepted by :func:`load_sample`.

    Returns
    -------
    list of str
        ``quickstart`` and its three parts, then the two larger samples.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> from ragnotebook import list_samples
    >>> list_samples()
    ['quickstart', 'hotpotqa', 'ragtruth', 'halueval', 'hotpotqa_fullwiki', 'ragtruth_qa']
    """
    return ["quickstart", *_SMALL_LABELS, *_LARGE]


def _read_records(filename: str) -> list[dict[str, Any]]:
    text = files("ragnotebook").joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _hotpotqa_small(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The first 6 rows with both gold paragraphs retrieved, 6 with one, 4 with none.
    quota = {2: 6, 1: 6, 0: 4}
    kept = []
    for record in records:
        n = record["n_gold_retrieved"]
        if quota[n] > 0:
            quota[n] -= 1
            kept.append(record)
    return kept


def _ragtruth_small(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Questions in file order; the first 8 with both a hallucinated and a faithful
    # response each give their first response of each kind; file order kept.
    by_question: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_question.setdefault(record["question_id"], []).append(record)
    chosen: set[str] = set()
    n_questions = 0
    for responses in by_question.values():
        if n_questions == 8:
            break
        bad = [r for r in responses if r["hallucinated"]]
        good = [r for r in responses if not r["hallucinated"]]
        if bad and good:
            chosen.update((bad[0]["id"], good[0]["id"]))
            n_questions += 1
    return [r for r in records if r["id"] in chosen]


def _keep_all(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return records


_Select = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]

#: name -> (file, row selection, label columns or None for all of the file's labels)
_SOURCES: Final[dict[str, tuple[str, _Select, tuple[str, ...] | None]]] = {
    "hotpotqa": (_HOTPOTQA_FILE, _hotpotqa_small, _SMALL_LABELS["hotpotqa"]),
    "ragtruth": (_RAGTRUTH_FILE, _ragtruth_small, _SMALL_LABELS["ragtruth"]),
    "halueval": (_HALUEVAL_FILE, _keep_all, _SMALL_LABELS["halueval"]),
    "hotpotqa_fullwiki": (_HOTPOTQA_FILE, _keep_all, None),
    "ragtruth_qa": (_RAGTRUTH_FILE, _keep_all, None),
}
_LARGE: Final[tuple[str, ...]] = ("hotpotqa_fullwiki", "ragtruth_qa")


def _frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    # Built from parsed JSON (not pd.read_json) so ids stay strings and
    # list-valued fields stay Python lists.
    df = pd.DataFrame.from_records(records)
    df["id"] = df["id"].astype(str)
    return df.set_index("id")


def _load(name: str) -> pd.DataFrame:
    filename, select, labels = _SOURCES[name]
    df = _frame(select(_read_records(filename)))
    if labels is not None:
        df = df[[*_CORE, *labels]]
    return df


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
        ``"halueval"``, ``"quickstart"`` (those three stacked in that order),
        ``"hotpotqa_fullwiki"`` (36 rows) or ``"ragtruth_qa"`` (97 rows).

    Returns
    -------
    pandas.DataFrame
        Indexed by the source row id (string, index name ``"id"``), with columns
        ``question``, ``answer``, ``contexts`` (Python lists of str),
        ``ground_truth``, ``source``, then the label columns the sample has:
        ``context_titles`` and ``context_labels`` (lists, parallel to
        ``contexts``) and ``n_gold_retrieved`` (``Int64``) for HotpotQA,
        ``hallucinated`` (``boolean``) for RAGTruth and ``faithful``
        (``boolean``) for HaluEval. ``hotpotqa_fullwiki`` adds ``gold_titles``
        (list of the two gold article titles) and ``question_type``;
        ``ragtruth_qa`` adds ``question_id``, ``generator`` and
        ``hallucination_spans`` (list of ``{"text", "label_type"}`` dicts). In
        ``quickstart`` a label is missing (NA) on rows from datasets that lack
        it. Each call returns a fresh frame.

    Raises
    ------
    ValueError
        If ``name`` is not a known sample; the message lists the names.

    Examples
    --------
    >>> from ragnotebook import load_sample
    >>> df = load_sample("ragtruth")
    >>> len(df), int(df["hallucinated"].sum())
    (16, 8)
    >>> quick = load_sample()
    >>> quick["source"].value_counts().to_dict()
    {'hotpotqa': 16, 'ragtruth': 16, 'halueval': 16}
    >>> type(quick["contexts"].iloc[0])
    <class 'list'>
    >>> big = load_sample("ragtruth_qa")
    >>> len(big), int(big["hallucinated"].sum()), big["question_id"].nunique()
    (97, 16, 17)
    """
    if name == "quickstart":
        return _finish(pd.concat([_load(part) for part in _SMALL_LABELS]))
    if name not in _SOURCES:
        known = ", ".join(repr(n) for n in list_samples())
        raise ValueError(f"unknown sample {name!r}; choose one of {known}")
    return _finish(_load(name))
