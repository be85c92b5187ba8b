"""The HTML of one row's detail, shared by the explorer, the static view and the report.

Every data string passes through :func:`~ragnotebook.views._html.escape`; the only
markup is the toolkit's own. Every element holding data text (question, answer, ground
truth, claim, chunk, reason) has ``dir="auto"``, so right-to-left text (Arabic, Hebrew)
reads in its own direction. Colours come with words (``found``, ``not verifiable``,
``relevant`` ...), and tints are translucent so the detail reads on light and dark
backgrounds.

Examples
--------
>>> import pandas as pd, ragnotebook
>>> from ragnotebook.views._detail import highlight, row_detail_html
>>> highlight("The museum <b>is</b> on Pier 4.", "museum on pier")
'The <mark>museum</mark> &lt;b&gt;is&lt;/b&gt; on <mark>Pier</mark> 4.'
>>> df = pd.DataFrame({"question": ["<i>Where?</i>"], "answer": ["It is on Pier 4."],
...                    "contexts": [["The museum is on Pier 4."]]})
>>> html = row_detail_html(ragnotebook.faithfulness(df, model="offline", progress=False), 0)
>>> "&lt;i&gt;Where?&lt;/i&gt;" in html and "<i>" not in html
True
"""

from __future__ import annotations

import bisect
import re
from typing import Any

import pandas as pd

from ragnotebook.text import content_tokens, detect_language, is_cjk, split_sentences
from ragnotebook.views._data import (
    METRIC_LABELS,
    chunk_texts,
    fmt_score,
    score_at,
    score_table,
    text_at,
    verdicts,
)
from ragnotebook.views._html import escape, two_places
from ragnotebook.views._row import precision_svg

__all__ = [
    "DETAIL_CSS",
    "chunk_label",
    "highlight",
    "mark_spans",
    "row_detail_html",
    "row_detail_parts",
    "row_heading",
    "support_view",
]

#: Styles for the detail, scoped under ``.rnb``; colours are translucent or inherited.
DETAIL_CSS = """
.rnb{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:14px;
line-height:1.45;color:inherit;max-width:1100px}
.rnb h4{margin:14px 0 6px;font-size:14px}
.rnb .rnb-text{white-space:pre-wrap;margin:0 0 4px;padding:6px 10px;border-radius:4px;
background:rgba(127,127,127,.10)}
.rnb .rnb-empty{opacity:.7;font-style:italic}
.rnb .rnb-cards{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}
.rnb .rnb-card{flex:1 1 240px;padding:6px 10px;border-radius:4px;border:1px solid rgba(127,127,127,.35)}
.rnb .rnb-card b{font-size:16px}
.rnb ol{margin:4px 0;padding-left:0;list-style:none}
.rnb li{margin:6px 0;padding:6px 10px;border-radius:4px;border-left:5px solid #8C8C8C;
background:rgba(127,127,127,.08)}
.rnb li.v-yes{border-left-color:#0072B2;background:rgba(0,114,178,.10)}
.rnb li.v-no{border-left-color:#D55E00;background:rgba(213,94,0,.10)}
.rnb li.v-unsure{border-left-color:#E69F00;background:rgba(230,159,0,.13)}
.rnb li.v-muted{border-left-color:rgba(127,127,127,.55);background:rgba(127,127,127,.06)}
.rnb .rnb-chunk{margin-top:2px}
.rnb .rnb-badge{display:inline-block;padding:0 7px;margin-right:6px;border-radius:9px;
font-size:12px;font-weight:600;color:#fff;background:#6E6E6E;white-space:nowrap}
.rnb .b-yes{background:#0072B2}.rnb .b-no{background:#D55E00}
.rnb .b-unsure{background:#E69F00;color:#1a1a1a}.rnb .b-muted{background:#6E6E6E}
.rnb .rnb-reason{font-size:12.5px;opacity:.85;margin-top:2px}
.rnb .rnb-support{font-size:13px;margin-top:4px;padding-left:10px;
border-left:2px solid rgba(127,127,127,.4)}
.rnb mark{background:rgba(240,228,66,.55);color:inherit;padding:0 1px;border-radius:2px}
.rnb details summary{cursor:pointer;font-size:12.5px;opacity:.9}
.rnb .rnb-meta{font-size:12.5px;opacity:.8}
.rnb svg text{fill:currentColor}
.rnb-list select{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
"""

_RECALL_WORDS = {"yes": "found", "no": "not found"}
_FAITH_WORDS = {"yes": "supported", "no": "contradicted", "unsure": "not verifiable"}
_PREC_WORDS = {"yes": "relevant", "no": "not relevant"}
_WORD_RE = re.compile(r"\w+(?:[.,'’]\w+)*")
#: Tag-like (``<br>``, ``</b>``) and entity-like (``&amp;``) pieces of the data text:
#: shown literally, and never highlighted inside, so ``<br>`` never gets a marked ``br``.
_MARKUP_RE = re.compile(r"</?[A-Za-z][^<>]*>|&#?\w+;")


def _verdict_class(verdict: Any) -> str:
    return verdict if verdict in ("yes", "no", "unsure") else "other"


def badge_word(verdict: Any, words: dict[str, str], flagged: bool = False) -> str:
    """The word shown on a verdict's badge (``found``, ``not verifiable`` ...)."""
    word = words.get(str(verdict), str(verdict or "no verdict"))
    if flagged:
        word += " · judge gave no valid verdict"
    return word


def _badge(verdict: Any, words: dict[str, str], flagged: bool = False, cls: str = "") -> str:
    cls = cls or _verdict_class(verdict)
    return f'<span class="rnb-badge b-{cls}">{escape(badge_word(verdict, words, flagged))}</span>'


def _mark_spans(text: str, wanted: set[str], lang: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if is_cjk(lang):
        for i in range(len(text)):
            for j in (2, 1):
                if text[i : i + j] in wanted:
                    spans.append((i, i + j))
                    break
    else:
        for m in _WORD_RE.finditer(text):
            toks = content_tokens(m.group(), lang)
            if toks and any(t in wanted for t in toks):
                spans.append(m.span())
    markup = [m.span() for m in _MARKUP_RE.finditer(text)]
    if not markup:
        return spans
    # markup ranges come sorted and apart: a span overlaps one only if it overlaps the
    # last one starting before the span ends (a search, not a scan: a long chunk of
    # tagged text has as many ranges as words)
    starts = [s for s, _ in markup]

    def inside_markup(a: int, b: int) -> bool:
        k = bisect.bisect_left(starts, b) - 1
        return k >= 0 and markup[k][1] > a

    return [(a, b) for a, b in spans if not inside_markup(a, b)]


def mark_spans(text: str, claim: str) -> list[tuple[int, int]]:
    """Character ranges of ``text`` holding words it shares with ``claim`` (merged, sorted).

    Words are compared as the offline judge compares them (stemmed content words and
    numbers; character pairs for Chinese, Japanese and Korean). Words inside tag-like
    or entity-like text from the data (``<br>``, ``&amp;``) are never marked.

    Parameters
    ----------
    text : str
    claim : str

    Returns
    -------
    list of tuple of (int, int)
        ``(start, end)`` offsets into ``text``.

    Examples
    --------
    >>> mark_spans("Opened in 1998 <br>", "It opened in 1998 <br>.")
    [(0, 6), (10, 14)]
    """
    lang = detect_language(f"{claim} {text[:200]}")
    wanted = set(content_tokens(claim, lang))
    if not wanted or not text:
        return []
    merged: list[tuple[int, int]] = []
    for start, end in sorted(_mark_spans(text, wanted, lang)):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def highlight(text: str, claim: str) -> str:
    """Escape ``text`` and wrap the words it shares with ``claim`` in ``<mark>``.

    Words are compared as the offline judge compares them: stemmed content words and
    numbers (character pairs for Chinese, Japanese and Korean).

    Parameters
    ----------
    text : str
        A chunk (or part of one).
    claim : str
        The claim whose words to highlight.

    Returns
    -------
    str
        Safe HTML.

    Examples
    --------
    >>> highlight("Opened in 1998 <script>", "It opened in 1998 <script>.")
    '<mark>Opened</mark> in <mark>1998</mark> &lt;script&gt;'
    """
    out, last = [], 0
    for start, end in mark_spans(text, claim):
        out.append(escape(text[last:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        last = end
    out.append(escape(text[last:]))
    return "".join(out)


def _best_sentence(chunk: str, claim: str) -> str:
    sentences = list(split_sentences(chunk)) or [chunk]
    wanted = set(content_tokens(claim))
    best = max(sentences, key=lambda s: len(wanted & set(content_tokens(s))))
    return best


def row_heading(pos: int, n: int, label: str) -> str:
    """The heading of a row's detail: its place in the frame and its full index label.

    Rows with the same index label are told apart by their position (``df.iloc``), and a
    long label, shortened with "…" in the row lists, is shown whole here.

    Parameters
    ----------
    pos : int
        The row's 0-based position.
    n : int
        Rows in the frame.
    label : str
        The full index label (escaped here).

    Returns
    -------
    str
        Safe HTML (no enclosing element).

    Examples
    --------
    >>> row_heading(1, 6, "<q1>")
    'Row 2 of 6 <small class="rnb-meta">(position 1, index <span dir="auto">&lt;q1&gt;</span>)</small>'
    """
    return (
        f'Row {pos + 1} of {n} <small class="rnb-meta">(position {pos}, index '
        f'<span dir="auto">{escape(label)}</span>)</small>'
    )


def _text_block(title: str, text: str) -> str:
    body = (
        f'<div class="rnb-text" dir="auto">{escape(text)}</div>'
        if text.strip()
        else '<div class="rnb-text rnb-empty">(none)</div>'
    )
    return f"<h4>{title}</h4>{body}"


def _score_cards(df: pd.DataFrame, pos: int, table: pd.DataFrame) -> str:
    cards = []
    for m in METRIC_LABELS:
        if m not in table.columns:
            continue
        score = fmt_score(*score_at(table, m, pos))
        reason = df[f"{m}_reason"].iat[pos] if f"{m}_reason" in df.columns else None
        error = df[f"{m}_error"].iat[pos] if f"{m}_error" in df.columns else None
        extra = (
            f'<div class="rnb-reason" dir="auto">{escape(reason)}</div>' if escape(reason) else ""
        )
        if escape(error):
            extra += f'<div class="rnb-reason">error: <span dir="auto">{escape(error)}</span></div>'
        cards.append(
            f'<div class="rnb-card">{METRIC_LABELS[m]}: <b>{escape(score)}</b>{extra}</div>'
        )
    return f'<div class="rnb-cards">{"".join(cards)}</div>'


def chunk_label(index: Any) -> str:
    """How the views name a chunk: by its 1-based rank, ``"chunk at rank 1"``.

    Parameters
    ----------
    index : int
        The chunk's 0-based index (as verdict dicts store it).

    Returns
    -------
    str

    Examples
    --------
    >>> chunk_label(0)
    'chunk at rank 1'
    """
    if isinstance(index, int) and not isinstance(index, bool):
        return f"chunk at rank {index + 1}"
    return f"chunk {index}"


def whole_chunk_label(chunk: str) -> str:
    """The summary of the collapsed full text of a chunk.

    Examples
    --------
    >>> whole_chunk_label("x" * 797)
    'show the whole chunk (797 characters)'
    """
    n = len(chunk)
    return f"show the whole chunk ({n} character{'' if n == 1 else 's'})"


def best_sentence_span(chunk: str, claim: str) -> tuple[int, int]:
    """Offsets of the chunk's sentence sharing most words with ``claim`` (stripped).

    Examples
    --------
    >>> chunk = "It rains. The museum is on Pier 4."
    >>> a, b = best_sentence_span(chunk, "The museum is on Pier 4.")
    >>> chunk[a:b]
    'The museum is on Pier 4.'
    """
    best = _best_sentence(chunk, claim).strip()
    at = chunk.find(best)
    if at < 0:
        return 0, len(chunk)
    return at, at + len(best)


#: Longest chunk copied whole, highlighted, under each claim that cites it. A longer one
#: (a 200 kB document) shows only the text around the claim's best sentence there; the
#: chunk list holds it whole, once per row.
WHOLE_CHUNK_CHARS = 2_000
#: Characters kept on each side of the best sentence in that case.
AROUND_CHARS = 500
#: Longest best sentence quoted under a claim (a chunk without sentence ends is one
#: "sentence"): a longer one is cut around its first shared word.
SENTENCE_CHARS = 600


def _snap_start(text: str, i: int) -> int:
    """``i`` moved to the start of the next word (within 40 characters)."""
    if i <= 0:
        return 0
    j = text.find(" ", i, i + 40)
    return j + 1 if j >= 0 else i


def _snap_end(text: str, i: int) -> int:
    """``i`` moved back to the end of the previous word (within 40 characters)."""
    if i >= len(text):
        return len(text)
    j = text.rfind(" ", max(0, i - 40), i)
    return j if j >= 0 else i


def support_view(
    chunk: str, claim: str, index: int
) -> tuple[int, int, int, int, list[tuple[int, int]], str]:
    """What a claim shows of a chunk that supports it: a sentence, and more on a click.

    Parameters
    ----------
    chunk : str
    claim : str
    index : int
        The chunk's 0-based index (its rank, for the label).

    Returns
    -------
    tuple
        ``(a, b, wa, wb, marks, label)``: ``chunk[a:b]`` is the best sentence
        (:func:`best_sentence_span`, cut to :data:`SENTENCE_CHARS` around its first
        shared word when longer), ``chunk[wa:wb]`` what the collapsed part holds (the
        whole chunk up to :data:`WHOLE_CHUNK_CHARS`, else :data:`AROUND_CHARS` either side
        of the sentence), ``marks`` the shared words (:func:`mark_spans`) in
        ``chunk[min(a, wa):max(b, wb)]`` as offsets into ``chunk``, and ``label`` the
        collapsed part's summary.

    Examples
    --------
    >>> a, b, wa, wb, marks, label = support_view("It rains. The museum is on Pier 4.",
    ...                                           "The museum is on Pier 4.", 0)
    >>> (a, b, wa, wb), label
    ((10, 34, 0, 34), 'show the whole chunk (34 characters)')
    >>> big = "Tide table. " * 1000 + "The museum is on Pier 4. " + "Ferry times. " * 1000
    >>> a, b, wa, wb, marks, label = support_view(big, "The museum is on Pier 4.", 2)
    >>> big[a:b], wb - wa < 1_100, label
    ('The museum is on Pier 4.', True, 'show the text around it (1,017 of 25,025 characters; the whole chunk is under Retrieved chunks, chunk at rank 3)')
    """
    a, b = best_sentence_span(chunk, claim)
    if b - a > SENTENCE_CHARS:
        inside = mark_spans(chunk[a:b], claim)
        first = a + inside[0][0] if inside else a
        a = _snap_start(chunk, max(a, first - SENTENCE_CHARS // 3))
        b = _snap_end(chunk, min(b, a + SENTENCE_CHARS))
    if len(chunk) <= WHOLE_CHUNK_CHARS:
        wa, wb = 0, len(chunk)
        label = whole_chunk_label(chunk)
    else:
        wa = _snap_start(chunk, a - AROUND_CHARS)
        wb = _snap_end(chunk, b + AROUND_CHARS)
        label = (
            f"show the text around it ({wb - wa:,} of {len(chunk):,} characters; the whole "
            f"chunk is under Retrieved chunks, {chunk_label(index)})"
        )
    lo, hi = min(a, wa), max(b, wb)
    marks = [(lo + x, lo + y) for x, y in mark_spans(chunk[lo:hi], claim)]
    return a, b, wa, wb, marks, label


def _marked_html(chunk: str, marks: list[tuple[int, int]], a: int, b: int) -> str:
    """``chunk[a:b]`` escaped, with the parts of ``marks`` inside it in ``<mark>``."""
    out, last = [], a
    for x, y in marks:
        x, y = max(x, a), min(y, b)
        if y <= x:
            continue
        out.append(escape(chunk[last:x]))
        out.append(f"<mark>{escape(chunk[x:y])}</mark>")
        last = y
    out.append(escape(chunk[last:b]))
    return "".join(out)


def _support_html(claim: str, support: list[int], chunks: list[str]) -> str:
    parts = []
    for idx in support:
        if not isinstance(idx, int) or not 0 <= idx < len(chunks):
            parts.append(
                f'<div class="rnb-support">{escape(chunk_label(idx))} '
                "(not among this row's chunks)</div>"
            )
            continue
        chunk = chunks[idx]
        a, b, wa, wb, marks, label = support_view(chunk, claim, idx)
        before = "…" if a > 0 else ""
        after = "…" if b < len(chunk.rstrip()) else ""
        parts.append(
            f'<div class="rnb-support">{chunk_label(idx)}: '
            f'<span dir="auto">{before}{_marked_html(chunk, marks, a, b)}{after}</span>'
            f"<details><summary>{escape(label)}</summary>"
            f'<div dir="auto">{"…" if wa > 0 else ""}{_marked_html(chunk, marks, wa, wb)}'
            f"{'…' if wb < len(chunk) else ''}</div></details></div>"
        )
    return "".join(parts)


def _claims_html(
    title: str, items: list[dict[str, Any]], words: dict[str, str], chunks: list[str]
) -> str:
    if not items:
        return ""
    lis = []
    for v in sorted(items, key=lambda d: int(d.get("index", 0))):
        claim = str(v.get("claim", ""))
        flagged = bool(v.get("missing") or v.get("invalid"))
        support = [s for s in v.get("supporting_chunks", []) or []]
        lis.append(
            f'<li class="v-{_verdict_class(v.get("verdict"))}">'
            f"{_badge(v.get('verdict'), words, flagged)}"
            f'<span class="rnb-claim" dir="auto">{escape(claim)}</span>'
            f'<div class="rnb-reason" dir="auto">{escape(v.get("reason", ""))}</div>'
            f"{_support_html(claim, support, chunks)}</li>"
        )
    return f"<h4>{title}</h4><ol>{''.join(lis)}</ol>"


def chunk_cut(chunk: str, limit: int = 320) -> int | None:
    """Where a long chunk is cut in the chunk list (a space near ``limit``), or None."""
    if len(chunk) <= limit:
        return None
    cut = chunk.rfind(" ", 0, limit)
    return cut if cut > limit // 2 else limit


def _chunk_text(chunk: str, limit: int = 320) -> str:
    cut = chunk_cut(chunk, limit)
    if cut is None:
        return f'<div dir="auto">{escape(chunk)}</div>'
    return (
        f'<div dir="auto">{escape(chunk[:cut])} …</div><details><summary>'
        f'{whole_chunk_label(chunk)}</summary><div dir="auto">{escape(chunk)}</div></details>'
    )


def _chunks_html(prec: list[dict[str, Any]], chunks: list[str], curve: bool = True) -> str:
    if not chunks:
        return "<h4>Retrieved chunks</h4><div class='rnb-text rnb-empty'>(no chunks)</div>"
    by_index = {int(v.get("index", -1)): v for v in prec}
    lis = []
    for idx, chunk in enumerate(chunks):
        v = by_index.get(idx, {})
        verdict = v.get("verdict")
        p = v.get("precision_at_k")
        p_text = f" · precision@{idx + 1} = {two_places(p)}" if isinstance(p, int | float) else ""
        cls = "muted" if verdict == "no" else _verdict_class(verdict)
        flagged = bool(v.get("missing") or v.get("invalid"))
        badge = _badge(verdict, _PREC_WORDS, flagged, cls=cls)
        reason = (
            f'<div class="rnb-reason" dir="auto">{escape(v.get("reason", ""))}</div>' if v else ""
        )
        lis.append(
            f'<li class="v-{cls}">{badge}'
            f'<span class="rnb-meta">{chunk_label(idx)}{p_text}</span>'
            f'<div class="rnb-chunk">{_chunk_text(chunk)}</div>{reason}</li>'
        )
    svg = precision_svg(prec) if curve else ""
    head = "<h4>Retrieved chunks in ranking order · relevant? (context precision)</h4>"
    return f"{head}{svg}<ol>{''.join(lis)}</ol>"


def row_detail_parts(
    df: pd.DataFrame, pos: int, *, table: pd.DataFrame | None = None, curve: bool = True
) -> tuple[str, str]:
    """The two halves of a row's detail: scores, texts and claims; then the chunks.

    The explorer shows the precision@k SVG between the two (``curve=False`` here).

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    pos : int
        Row position (``df.iloc[pos]``).
    table : pandas.DataFrame, optional
        :func:`~ragnotebook.views._data.score_table` of ``df`` (passed to save work).
    curve : bool, default True
        Include the inline SVG precision@k curve in the chunk half.

    Returns
    -------
    tuple of str
        Two ``<div class="rnb">`` elements.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["q"], "answer": ["Sky is blue."],
    ...                    "contexts": [["Sky is blue."]]})
    >>> top, rest = row_detail_parts(ragnotebook.faithfulness(df, model="offline",
    ...                                                       progress=False), 0)
    >>> "Answer claims" in top, "Retrieved chunks" in rest
    (True, True)
    """
    table = score_table(df) if table is None else table
    chunks = chunk_texts(df, pos)
    top = [
        '<div class="rnb">',
        _score_cards(df, pos, table),
        _text_block("Question", text_at(df, "question", pos)),
        _text_block("Answer", text_at(df, "answer", pos)),
        _text_block("Ground truth", text_at(df, "ground_truth", pos)),
        _claims_html(
            "Ground-truth claims · found in the retrieved chunks? (context recall)",
            verdicts(df, "context_recall", pos),
            _RECALL_WORDS,
            chunks,
        ),
        _claims_html(
            "Answer claims · supported by the retrieved chunks? (faithfulness)",
            verdicts(df, "faithfulness", pos),
            _FAITH_WORDS,
            chunks,
        ),
        "</div>",
    ]
    rest = _chunks_html(verdicts(df, "context_precision", pos), chunks, curve=curve)
    return "".join(top), f'<div class="rnb">{rest}</div>'


def row_detail_html(
    df: pd.DataFrame, pos: int, *, table: pd.DataFrame | None = None, curve: bool = True
) -> str:
    """The detail of the row at position ``pos``, as safe HTML.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.
    pos : int
        Row position (``df.iloc[pos]``).
    table : pandas.DataFrame, optional
        :func:`~ragnotebook.views._data.score_table` of ``df`` (passed to save work).
    curve : bool, default True
        Include the inline SVG precision@k curve.

    Returns
    -------
    str
        ``<div class="rnb">`` elements (styles: :data:`DETAIL_CSS`).

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["q"], "ground_truth": ["a"], "contexts": [["x", "y"]]})
    >>> out = ragnotebook.context_precision(df, model=ragnotebook.MockJudge(
    ...     judge_chunks=[["no", "yes"]]), progress=False)
    >>> "precision@2 = 0.50" in row_detail_html(out, 0)
    True
    """
    return "".join(row_detail_parts(df, pos, table=table, curve=curve))


def group_heading(groups: list[str] | None, pos: int) -> str:
    """`` · A`` (the row's group) after a row's heading (HTML), or nothing without groups."""
    if groups is None:
        return ""
    return f' · <span dir="auto">{escape(groups[pos])}</span>'
