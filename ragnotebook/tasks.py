"""Judge tasks and their structured answers.

A scorer never talks to a model. It describes what it needs as a :class:`Task`
(one of five kinds) and receives a validated answer model back. Judges
(:class:`~ragnotebook.MockJudge`, :class:`~ragnotebook.OfflineJudge`,
:class:`~ragnotebook.LiteLLMJudge`) answer tasks; the engine schedules them.

Task kinds
----------
``extract_claims``
    Split ``text`` (a ground truth or an answer) into atomic claims.
    Answer: :class:`Claims`.
``attribute_claims``
    For each claim in ``items``, is it attributable to some chunk in ``chunks``?
    Verdict words ``yes`` / ``no``; ``supporting_chunks`` lists 0-based chunk
    indices. Answer: :class:`Verdicts`.
``judge_chunks``
    For each chunk in ``items``, is it relevant for producing ``text`` (the
    reference) as the answer to ``question``? ``yes`` / ``no``. Answer: :class:`Verdicts`.
``verify_claims``
    For each claim in ``items``, is it supported by ``chunks``? ``yes`` (supported),
    ``no`` (contradicted) or ``unsure`` (not verifiable). Answer: :class:`Verdicts`.
``explain``
    Write a short explanation of a score from ``text`` (a summary of the
    verdicts). Answer: :class:`Explanation`.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "REASK",
    "VERDICT_WORDS",
    "Answer",
    "Claims",
    "Explanation",
    "Item",
    "Task",
    "TaskKind",
    "Verdict",
    "Verdicts",
    "normalise_verdict_word",
]

TaskKind = Literal["extract_claims", "attribute_claims", "judge_chunks", "verify_claims", "explain"]

#: Allowed verdict words per task kind (matched case-insensitively after trimming blanks,
#: surrounding punctuation, quotes and markdown emphasis: ``"**Yes.**"`` is ``yes``).
VERDICT_WORDS: dict[str, tuple[str, ...]] = {
    "attribute_claims": ("yes", "no"),
    "judge_chunks": ("yes", "no"),
    "verify_claims": ("yes", "no", "unsure"),
}


#: Characters trimmed from both ends of a verdict word besides blanks: punctuation,
#: ASCII and typographic quotes, backticks and markdown emphasis (``"**Yes.**"`` -> ``yes``),
#: and the CJK full stop, comma and corner / lenticular brackets (the word is read after
#: NFKC, so full-width "！", "（" and "ＹＥＳ" are already their ASCII forms).
_VERDICT_TRIM = (
    " \t\r\n\u00a0.,;:!?\"'`*_~()[]{}<>\u2018\u2019\u201c\u201d\u00ab\u00bb"
    "\u3001\u3002\u300c\u300d\u300e\u300f\u3010\u3011\u3008\u3009\u300a\u300b"
)


def normalise_verdict_word(word: str) -> str:
    """A judge's verdict word as compared with the allowed words.

    The word is read in Unicode NFKC form (full-width ``ＹＥＳ`` and ``！`` are ``YES``
    and ``!``). Blanks, punctuation (``. , ; : ! ?``, and the CJK ``。`` and ``、``),
    quotes (ASCII, typographic, and the CJK corner brackets ``「」『』``), backticks,
    brackets and markdown emphasis (``*``, ``_``, ``~``) are trimmed from both ends, and
    the rest is lower-cased. Nothing inside the word changes, so ``"not sure"`` stays
    ``"not sure"`` (not an allowed word).

    Parameters
    ----------
    word : str
        The verdict as the judge wrote it.

    Returns
    -------
    str

    Examples
    --------
    >>> [normalise_verdict_word(w) for w in ("Yes.", " NO ", "**unsure**", "'no'", "`yes`")]
    ['yes', 'no', 'unsure', 'no', 'yes']
    >>> normalise_verdict_word("_Not sure._")
    'not sure'
    >>> [normalise_verdict_word(w) for w in ("yes！", "（yes）", "「yes」", "ＹＥＳ")]
    ['yes', 'yes', 'yes', 'yes']
    """
    return unicodedata.normalize("NFKC", str(word)).strip(_VERDICT_TRIM).casefold()


@dataclass(frozen=True, slots=True)
class Item:
    """One indexed piece of text a task asks about (a claim or a chunk).

    Parameters
    ----------
    index : int
        0-based index of the claim or chunk within the row. Verdicts must carry it.
    text : str
        The claim or chunk text.
    """

    index: int
    text: str


#: ``Task.extra`` entry marking the one re-ask for items left without a valid verdict
#: (:func:`ragnotebook.scorers._common.reask`); it enters the cache key and the prompt.
REASK = ("reask", 1)


@dataclass(frozen=True, slots=True)
class Task:
    """A unit of work for a judge.

    Parameters
    ----------
    kind : {"extract_claims", "attribute_claims", "judge_chunks", "verify_claims", "explain"}
        What is asked.
    metric : str
        The metric the task serves (``"context_recall"``, ``"context_precision"``,
        ``"faithfulness"``); lets scripted judges and prompts tell tasks apart.
    question : str or None
        The user question of the row, when known.
    text : str or None
        ``extract_claims``: the text to split. ``judge_chunks``: the reference text
        the chunks are judged against. ``explain``: the verdict summary.
    items : tuple of Item
        The claims (``attribute_claims``, ``verify_claims``) or chunks
        (``judge_chunks``) to give one verdict each, with their row-level indices.
    chunks : tuple of str
        The retrieved context, in retrieval order (``attribute_claims``,
        ``verify_claims``). ``judge_chunks``: all of the row's non-blank chunks, of
        which ``items`` is the batch to judge (prompts show only the batch; the offline
        judge weighs words over all of them, so batching never changes a verdict).
    source : str or None
        ``extract_claims`` only: ``"ground_truth"`` or ``"answer"``.

    Examples
    --------
    >>> t = Task("extract_claims", "faithfulness", text="Paris is in France.", source="answer")
    >>> t.kind
    'extract_claims'
    >>> len(t.key())
    64
    """

    kind: TaskKind
    metric: str
    question: str | None = None
    text: str | None = None
    items: tuple[Item, ...] = ()
    chunks: tuple[str, ...] = ()
    source: str | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=())

    @property
    def verdict_words(self) -> tuple[str, ...]:
        """Allowed verdict words for this task kind (empty for non-verdict tasks)."""
        return VERDICT_WORDS.get(self.kind, ())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe form of the task (for caching, logging and prompts)."""
        return {
            "kind": self.kind,
            "metric": self.metric,
            "question": self.question,
            "text": self.text,
            "items": [[it.index, it.text] for it in self.items],
            "chunks": list(self.chunks),
            "source": self.source,
            "extra": [list(kv) for kv in self.extra],
        }

    def key(self) -> str:
        """SHA-256 hex digest of the task's inputs (stable across processes)."""
        blob = json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)
        # surrogatepass: a lone surrogate hashes (to its own key) instead of failing
        return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class Claims(BaseModel):
    """Answer to ``extract_claims``: the atomic claims, in the source text's language."""

    claims: list[str] = Field(default_factory=list)

    @field_validator("claims", mode="before")
    @classmethod
    def _claim_texts(cls, value: Any) -> Any:
        # small models write claims as objects ({"claim": "..."}) or numbered
        # ({"id": 1, "text": "..."}): their text is the claim
        if not isinstance(value, list):
            return value
        return [_claim_text(item) if isinstance(item, dict) else item for item in value]


#: Keys a claim written as an object keeps its text under.
_CLAIM_KEYS = ("claim", "text", "statement", "content", "fact")


def _claim_text(item: dict[str, Any]) -> Any:
    """The text of a claim written as an object: under a usual key, else its only string
    value; the object itself (invalid) when there is neither."""
    for key in _CLAIM_KEYS:
        if isinstance(item.get(key), str):
            return item[key]
    texts = [v for v in item.values() if isinstance(v, str)]
    return texts[0] if len(texts) == 1 else item


def _index_required(schema: dict[str, Any]) -> None:
    """Keep ``index`` a required integer in the schema sent to providers (structured
    output), although a parsed reply may lack it (then it is None)."""
    schema["properties"]["index"] = {"title": "Index", "type": "integer"}
    schema["required"] = ["index", *(r for r in schema.get("required", []) if r != "index")]


class Verdict(BaseModel):
    """One verdict about one claim or chunk.

    Attributes
    ----------
    index : int or None
        The 0-based index of the claim or chunk (as given in the task's items); required
        in the schema sent to the judge. None when a reply left it out: such verdicts
        are matched to the items by position only when none of them has an index and
        their count equals the items asked.
    verdict : str
        ``yes`` / ``no`` (and ``unsure`` for ``verify_claims``).
    reason : str
        A short justification.
    supporting_chunks : list of int
        0-based indices of the chunks that support the claim (attribution and
        verification; empty otherwise).
    """

    model_config = ConfigDict(json_schema_extra=_index_required)

    index: int | None = None
    verdict: str
    reason: str = ""
    supporting_chunks: list[int] = Field(default_factory=list)

    # A reply's fields are read one by one, so that one odd field costs its own item a
    # re-ask, not the whole reply: an index that is no whole number (``true``, ``1.5``,
    # ``"first"``) is out of range (-1), a verdict that is no string is its JSON text
    # (``true`` is "true", not an allowed word), a null reason is blank, and chunk
    # indices that are no whole numbers are dropped.

    @field_validator("index", mode="before")
    @classmethod
    def _whole_index(cls, value: Any) -> Any:
        if value is None:
            return None
        whole = _whole_number(value)
        return -1 if whole is None else whole

    @field_validator("verdict", "reason", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        if value is None:
            return ""
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    @field_validator("supporting_chunks", mode="before")
    @classmethod
    def _chunk_indices(cls, value: Any) -> Any:
        if value is None:
            return []
        if not isinstance(value, list | tuple):
            value = [value]
        return [w for w in (_whole_number(v) for v in value) if w is not None]


def _whole_number(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (``3``, ``3.0``, ``"3"``), else None
    (``True``, ``1.5``, ``"first"``, a list)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit() and text.isascii():
            return int(text)
    return None


class Verdicts(BaseModel):
    """Answer to ``attribute_claims``, ``judge_chunks`` and ``verify_claims``."""

    verdicts: list[Verdict] = Field(default_factory=list)


class Explanation(BaseModel):
    """Answer to ``explain``: a human-readable reason for a score (not blank: a blank
    explanation is a failed one, and the row keeps its template reason)."""

    reason: str

    @field_validator("reason")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the explanation is blank")
        return value


Answer = Claims | Verdicts | Explanation

#: The answer model expected for each task kind.
ANSWER_MODELS: dict[str, type[BaseModel]] = {
    "extract_claims": Claims,
    "attribute_claims": Verdicts,
    "judge_chunks": Verdicts,
    "verify_claims": Verdicts,
    "explain": Explanation,
}
