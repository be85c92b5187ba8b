"""Lenient parsing of judge replies and JSON-schema inlining (used by LiteLLMJudge)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from ragnotebook._textsafe import clean_value
from ragnotebook.judges.base import JudgeError
from ragnotebook.tasks import normalise_verdict_word

_THINK_BLOCK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)


def _strip_thinking(text: str) -> str:
    """Remove reasoning blocks: ``<think>...</think>``, an unterminated ``<think>`` tail,
    and everything before an orphan ``</think>`` (templates that open the block for the
    model)."""
    text = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    opened = _THINK_OPEN.search(text)
    if opened:
        text = text[: opened.start()]
    return text.strip()


def _json_blocks(text: str) -> tuple[list[str], bool]:
    """Top-level balanced ``{...}`` / ``[...]`` blocks in ``text``, in order.

    Returns the blocks and whether the text ends inside an unterminated block
    that starts after the last complete one. Quotes are only tracked inside a
    block, so apostrophes and quotes in surrounding prose do not matter.
    """
    blocks: list[str] = []
    stack: list[str] = []
    start = -1
    in_str = False
    escape = False
    closing = {"{": "}", "[": "]"}
    for i, ch in enumerate(text):
        if not stack:
            if ch in closing:
                stack.append(closing[ch])
                start = i
            continue
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in closing:
            stack.append(closing[ch])
        elif ch in "}]":
            if ch == stack[-1]:
                stack.pop()
                if not stack:
                    blocks.append(text[start : i + 1])
            else:  # mismatched bracket: give up on this block, rescan after its start
                stack.clear()
                in_str = False
                rest_blocks, open_end = _json_blocks(text[start + 1 :])
                return blocks + rest_blocks, open_end
    unterminated = bool(stack) and (
        text[start] == "{" or re.match(r'\[\s*[{"]', text[start:]) is not None
    )
    return blocks, unterminated


def _load(block: str) -> Any:
    try:
        return json.loads(block)
    except ValueError:
        pass
    from json_repair import repair_json

    try:
        return repair_json(block, return_objects=True)
    except Exception:  # json_repair gives up on some inputs
        return None


def _coerce(data: Any, model: type[BaseModel]) -> BaseModel | None:
    """Validate ``data`` as ``model`` if it plausibly is one; None otherwise.

    A dict must carry at least one of the model's field names (so ``{}`` or an
    unrelated object never passes as an empty answer). A dict wrapping such a
    dict under one key is unwrapped, a bare list is accepted for models with
    a single list field (``{"claims": [...]}``, ``{"verdicts": [...]}``), and so is a
    non-empty list under a name of the same meaning (``{"results": [...]}``,
    ``{"statements": [...]}``; ``_LIST_SYNONYMS``).
    """
    fields = set(model.model_fields)
    if isinstance(data, list):
        list_fields = _list_fields(model)
        if len(list_fields) != 1 or not data:
            return None
        data = {list_fields[0]: data}
    if not isinstance(data, dict):
        return None
    if not fields & set(data):
        inner = [v for v in data.values() if isinstance(v, dict) and fields & set(v)]
        named = [
            (field, v)
            for k, v in data.items()
            if isinstance(v, list) and v and (field := _LIST_SYNONYMS.get(str(k).lower()))
            if field in fields
        ]
        if len(data) == 1 and len(inner) == 1:
            data = inner[0]
        elif len(data) == 1 and len(named) == 1:
            # the list under a name of the same meaning ({"results": [...]} for
            # "verdicts"); not any list: {"errors": ["overloaded"]} is no claim
            data = {named[0][0]: named[0][1]}
        else:
            return None
    try:
        # a lone surrogate ("\\ud83d" in the reply's JSON) would fail every later encode
        return model.model_validate(clean_value(data))
    except ValidationError:
        return None


_ELLIPSES = frozenset(["...", "\u2026", ""])


def _placeholder(answer: BaseModel) -> bool:
    """Whether ``answer`` is a prompt's format example (its texts all "..."), not an answer:
    ``{"claims": ["...", "..."]}``, verdicts whose reasons are all "...", ``{"reason": "..."}``."""
    claims = getattr(answer, "claims", None)
    if claims is not None:
        return bool(claims) and all(c.strip() in _ELLIPSES for c in claims)
    verdicts = getattr(answer, "verdicts", None)
    if verdicts is not None:
        return bool(verdicts) and all(v.reason.strip() in _ELLIPSES - {""} for v in verdicts)
    reason = getattr(answer, "reason", None)
    return isinstance(reason, str) and reason.strip() in _ELLIPSES - {""}


#: The answer each model expects, as a parse error names it.
_SHAPES = {
    "Claims": '{"claims": ["<claim>", ...]}',
    "Verdicts": '{"verdicts": [{"index": <int>, "verdict": "<word>", "reason": "<text>"}, ...]}',
    "Explanation": '{"reason": "<text>"}',
}
#: Names small models give the answer's list, by the field they mean.
_LIST_SYNONYMS = {
    **dict.fromkeys(("claim", "statements", "facts", "atomic_claims"), "claims"),
    **dict.fromkeys(
        ("verdict", "results", "judgments", "judgements", "evaluations", "assessments"),
        "verdicts",
    ),
}


def _list_fields(model: type[BaseModel]) -> list[str]:
    """The fields of ``model`` that hold a list (``claims``, ``verdicts``)."""
    return [
        name
        for name, info in model.model_fields.items()
        if getattr(info.annotation, "__origin__", None) is list
    ]


def parse_reply(text: str | None, model: type[BaseModel]) -> BaseModel:
    """Parse a judge's reply leniently and validate it.

    Reasoning blocks (``<think>...</think>``) are removed first. Then every
    top-level JSON object in the reply is a candidate, wherever it is: bare, in a
    code fence, or inside prose. Each is read as strict JSON, else repaired by
    ``json_repair`` (trailing commas, single quotes, comments), and validated against
    ``model``. Only complete (balanced) blocks are candidates, so a cut-off reply is
    never repaired into a shorter answer.

    When several blocks validate, they must agree (the same claims, or the same
    verdicts: indices, verdict words and supporting chunks; the verdicts' reasons may
    differ): a repeated answer is taken, but a reply that holds different answers is
    a retryable ``parse_error``. Neither the first nor the last block is trusted
    there, because the other may be a draft or JSON quoted from a chunk (an injected
    ``{"verdicts": [...]}`` that a model mentions after its own answer would otherwise
    become the verdict). A block that is the prompt's format example echoed back (its
    texts all "...": ``{"claims": ["...", "..."]}``) is no answer and is left out when
    another block validates.

    Parameters
    ----------
    text : str or None
        The reply content.
    model : type of pydantic.BaseModel
        The answer model to validate against.

    Returns
    -------
    pydantic.BaseModel
        An instance of ``model``.

    Raises
    ------
    JudgeError
        All retryable, with ``raw`` = ``text``: ``empty_content`` for a null or
        blank reply (or one holding only reasoning); ``truncated`` when the reply
        ends inside an unterminated JSON object; ``parse_error`` when no block
        validates, or when blocks that validate disagree.

    Examples
    --------
    >>> from ragnotebook.tasks import Claims, Verdicts
    >>> reply = 'Here you go:\\n```json\\n{"verdicts": [{"index": 0, "verdict": "yes"},]}\\n```'
    >>> parse_reply(reply, Verdicts).verdicts[0].verdict
    'yes'
    >>> again = '{"claims": ["Paris is in France."]} Again: {"claims": ["Paris is in France."]}'
    >>> parse_reply(again, Claims).claims
    ['Paris is in France.']
    >>> two = '{"claims": ["draft"]} On reflection: {"claims": ["final"]}'
    >>> parse_reply(two, Claims)
    Traceback (most recent call last):
    ...
    ragnotebook.judges.base.JudgeError: parse_error: the reply holds 2 different answers ...
    >>> echo = 'Format: {"claims": ["...", "..."]}. Answer: {"claims": ["Paris is in France."]}'
    >>> parse_reply(echo, Claims).claims  # the format example echoed is no answer
    ['Paris is in France.']
    >>> parse_reply("<think>Is it {a}?</think> {'claims': ['Paris is in France.']}", Claims).claims
    ['Paris is in France.']
    >>> parse_reply("I cannot evaluate this.", Claims)
    Traceback (most recent call last):
    ...
    ragnotebook.judges.base.JudgeError: parse_error: ... | raw reply: 'I cannot evaluate this.'
    >>> parse_reply('{"claims": ["one", "tw', Claims)
    Traceback (most recent call last):
    ...
    ragnotebook.judges.base.JudgeError: truncated: ...
    """
    if text is None or not text.strip():
        raise JudgeError(
            "the judge returned empty content", code="empty_content", retryable=True, raw=text
        )
    stripped = text.strip()
    if stripped.startswith("{") and stripped.endswith("}") and "<think" not in stripped:
        # the common case, a bare JSON object: the C JSON parser reads it without the
        # character-by-character scan below; anything else takes the lenient path
        try:
            fast = _coerce(json.loads(stripped), model)
        except ValueError:
            fast = None
        if fast is not None:
            return fast
    cleaned = _strip_thinking(text)
    if not cleaned:
        raise JudgeError(
            "the reply holds only reasoning, no answer",
            code="empty_content",
            retryable=True,
            raw=text,
        )
    blocks, open_at_end = _json_blocks(cleaned)
    if open_at_end:
        raise JudgeError(
            "the reply ends inside an unterminated JSON object",
            code="truncated",
            retryable=True,
            raw=text,
        )
    answers = [a for a in (_coerce(_load(block), model) for block in blocks) if a is not None]
    real = [a for a in answers if not _placeholder(a)]
    if real:
        # the prompt's format example echoed before the answer ({"claims": ["...", "..."]})
        # is no second answer
        answers = real
    if not answers:
        shape = _SHAPES.get(model.__name__)
        raise JudgeError(
            f"no JSON object in the reply matches {model.__name__}"
            + (f" (expected {shape})" if shape else ""),
            code="parse_error",
            retryable=True,
            raw=text,
        )
    distinct = {_substance(a) for a in answers}
    if len(distinct) > 1:
        raise JudgeError(
            f"the reply holds {len(distinct)} different answers ({len(answers)} JSON objects "
            f"that match {model.__name__} and disagree); none of them is taken, since one may "
            "be a draft, the format example or text quoted from the data",
            code="parse_error",
            retryable=True,
            raw=text,
        )
    return answers[0]


def _substance(answer: BaseModel) -> str:
    """What two answers must share to agree: everything but the verdicts' reasons.

    Verdict words are compared as the scorers read them (trimmed, lower case), so
    ``"Yes."`` in one block and ``"yes"`` in its repetition agree.
    """
    data = answer.model_dump()
    if isinstance(data.get("verdicts"), list):
        data["verdicts"] = [
            {
                "index": v.get("index"),
                "verdict": normalise_verdict_word(str(v.get("verdict", ""))),
                "supporting_chunks": sorted(v.get("supporting_chunks") or []),
            }
            for v in data["verdicts"]
        ]
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


# --------------------------------------------------------------------------- schemas


def inline_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a JSON schema with local ``$ref`` s replaced by their targets.

    ``$defs`` / ``definitions`` are dropped and ``title`` keys removed (some
    providers reject them next to a type). Recursive references are not
    supported (the answer models have none) and raise ``ValueError``.

    Parameters
    ----------
    schema : mapping
        A JSON schema such as ``Model.model_json_schema()``.

    Returns
    -------
    dict
        The self-contained schema.

    Examples
    --------
    >>> from ragnotebook.tasks import Verdicts
    >>> flat = inline_schema(Verdicts.model_json_schema())
    >>> "$defs" in json.dumps(flat) or "$ref" in json.dumps(flat)
    False
    >>> sorted(flat["properties"]["verdicts"]["items"]["properties"])
    ['index', 'reason', 'supporting_chunks', 'verdict']
    """
    root = dict(schema)

    def resolve(ref: str) -> Any:
        if not ref.startswith("#/"):
            raise ValueError(f"cannot inline a non-local $ref {ref!r}")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return target

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in seen:
                    raise ValueError(f"recursive $ref {ref!r} cannot be inlined")
                merged = {**resolve(ref), **{k: v for k, v in node.items() if k != "$ref"}}
                return walk(merged, (*seen, ref))
            return {
                k: walk(v, seen)
                for k, v in node.items()
                if k not in ("$defs", "definitions", "title")
            }
        if isinstance(node, list):
            return [walk(v, seen) for v in node]
        return copy.deepcopy(node)

    out = walk(root, ())
    assert isinstance(out, dict)
    return out


# --------------------------------------------------------------------------- errors
