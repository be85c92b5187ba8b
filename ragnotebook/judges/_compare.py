"""Two checks of the offline judge for claims that compare or group named things.

Word overlap cannot tell "A was born first" from "B was born first" when the context gives
both birth dates, nor "both A and B are American" from a context where only B is. These
checks read such claims (English-like text only):

* **date order** (:func:`date_order`): a claim that one of two named things came first or
  later ("X was born first", "X is older than Y", "X was founded earlier") is compared
  with the years the context gives for each of them;
* **grouped subjects** (:func:`grouped_claim`): a claim whose subject joins two names
  ("both A and B are P", "A and B play P") must find what it says about each name near
  that name in the context;
* **choice** (:func:`choice_gap`): a claim picking one of the two names a question offers;
* **bare answers** (:func:`bare_answer_check`): "Yes."/"No." to "Were A and B released in
  the same year?" or "Are A and B both P?".

Each returns what it read (a verdict hint and a reason) or ``None`` when the claim is not
of its form; the offline judge decides what to do with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragnotebook.text import content_tokens, fold_latin, normalize, split_sentences

#: Verbs whose date a comparison is about ("born first", "founded earlier").
_DATED = (
    r"born|founded|formed|established|released|published|built|opened|created|started|"
    r"launched|began|introduced|debuted|premiered|incorporated|completed|written|composed|"
    r"made|produced|aired|died"
)
_EARLY = re.compile(
    rf"\b(?:(?:{_DATED})\s+(?:first|earlier|sooner)|older|earlier\s+than|predate[sd]?|"
    rf"(?:came|come|comes)\s+(?:out\s+)?first)\b",
    re.IGNORECASE,
)
_LATE = re.compile(
    rf"\b(?:(?:{_DATED})\s+(?:later|last|second)|younger|later\s+than|newer|"
    rf"more\s+recent(?:ly)?)\b",
    re.IGNORECASE,
)
_VERB = re.compile(rf"\b({_DATED})\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d.,])(1[0-9]{3}|20[0-9]{2})(?![\d])")
#: A capitalised name: capitalised words, optionally joined by short lowercase links
#: ("Bank of America", "First for Women") and initials ("H. Bruce Humberstone").
_NAME = re.compile(
    r"(?:[A-Z][\w'’\-.]*|\d+)(?:\s+(?:(?:of|for|the|de|del|da|von|van|y|la|le|and|&)\s+)?"
    r"(?:[A-Z][\w'’\-.]*|\d+))*"
)
_LEAD = re.compile(r"^(?:(?:yes|no|yeah|nope|indeed|actually)\b[,.!]?\s*)+", re.IGNORECASE)
#: Sentence-initial words that are not names even when capitalised.
_NOT_NAMES = frozenset(
    {"the", "a", "an", "both", "neither", "yes", "no", "it", "he", "she", "they", "who", "which"}
    | {"what", "when", "where", "how", "is", "are", "was", "were", "did", "do", "does"}
)
_WINDOW = 1  # sentences after a name's sentence that may still be about it
#: Longest predicate (content words) the grouped-subject check reads: a short attribute
#: ("American rock bands") is said of each name; a long account of an event shared by
#: two people is usually told of both together, in sentences that name only one.
_PRED_MAX = 5


def _surface(text: str, tokens: Sequence[str]) -> str:
    """The words of ``text`` behind some content tokens, quoted, for a reason."""
    words: dict[str, str] = {}
    for w in re.findall(r"[\w'’\-]+", text):
        for part in (w, *w.split("-")) if "-" in w else (w,):
            toks = content_tokens(part, "en")
            if len(toks) == 1:
                words.setdefault(toks[0], part)
    return ", ".join(repr(words.get(t, t)) for t in tokens[:3])


def _key(name: str) -> frozenset[str]:
    return frozenset(content_tokens(name, "en"))


def _strip_article(name: str) -> str:
    words = name.split()
    while words and words[0].lower() in _NOT_NAMES:
        words = words[1:]
    return " ".join(words).rstrip(".")


_CHOOSE = re.compile(r"\b(?:which|who|whose|what)\b", re.IGNORECASE)


def _alternatives(question: str) -> tuple[str, str] | None:
    """The two names a question asks to choose between: "..., A or B?", or "A and B"
    in a question that asks which (one) or who."""
    q = normalize(question).strip().rstrip("?？ ").strip()
    if " or " not in q:
        if not _CHOOSE.search(q):
            return None
        for m in _NAME.finditer(q):
            run = m.group()
            if " and " in run:
                a, _, b = run.rpartition(" and ")
            else:
                after = q[m.end() :]
                mm = re.match(r"\s+and\s+", after)
                m2 = _NAME.match(after[mm.end() :]) if mm else None
                if not m2:
                    continue
                a, b = run, m2.group()
            a, b = _strip_article(a), _strip_article(b)
            if a and b and _key(a) and _key(b) and _key(a) != _key(b):
                return a, b
        return None
    left, _, right = q.rpartition(" or ")
    left = left.rsplit(",", 1)[-1].rsplit(":", 1)[-1]
    names_left = [_strip_article(m.group()) for m in _NAME.finditer(left)]
    names_right = [_strip_article(m.group()) for m in _NAME.finditer(right)]
    if not names_left or not names_right:
        return None
    a, b = names_left[-1], names_right[0]
    if not a or not b or not _key(a) or not _key(b) or _key(a) == _key(b):
        return None
    # the right-hand name must end the question (nothing but the name after "or")
    if right.strip().strip("\"'“”") != names_right[0] and not right.strip().startswith(b):
        return None
    return a, b


@lru_cache(maxsize=4096)
def _sentences(chunk: str) -> tuple[str, ...]:
    return split_sentences(normalize(chunk), "en")


_PRONOUN_START = re.compile(r"^\W*(?:he|she|it|they|his|her|its|their)\b", re.IGNORECASE)


def _fold(text: str) -> str:
    """Lowercase ``text`` with Latin accents removed, keeping its length where it can
    (positions found in it are used on the original)."""
    low = text.lower()
    folded = fold_latin(low)
    return folded if len(folded) == len(low) else low


def _year_of(name: str, chunks: Sequence[str], verb: str | None) -> int | None:
    """The year the context gives for ``name``, read in the first sentence that names it.

    The sentence is one holding the whole name; only when none does, one holding its
    last word ("Williams" must not stand for "Serena Williams" when "Venus Williams" is
    named in full). In it:

    * with a dated verb ("born", "founded") in the sentence, before or after the name
      ("Born in Rohrau in 1732, Joseph Haydn died in 1809."), the first year after the
      verb; else the verb in the next sentence when it goes on with a pronoun ("He was
      born in 1685.");
    * for "born" and "died" without the verb, the first or the last year of a bracket
      right after the name ("Mozart (27 January 1756 – 5 December 1791)"), and no
      guess otherwise (a bare year next to a person is as often a death as a birth);
    * for other verbs, or none, the first year after the name.
    """
    key = _key(name)
    words = name.split()
    if not words:
        return None
    sents = [x for c in chunks for x in _sentences(c)]
    toks = [frozenset(content_tokens(x, "en")) for x in sents]
    if key:
        hits = [i for i, t in enumerate(toks) if key <= t]
    else:
        # a name made of stopwords ("Up", "It"): the capitalised words as written
        pat = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        hits = [i for i, x in enumerate(sents) if pat.search(x)]
    last = content_tokens(words[-1], "en")
    if not hits and len(key) > 1 and last:
        hits = [i for i, t in enumerate(toks) if last[0] in t]
    for i in hits:
        sent = sents[i]
        low = _fold(sent)
        start = -1
        for word in words[::-1]:
            start = low.find(_fold(word))
            if start >= 0:
                end = start + len(word)
                break
        if start < 0:
            continue
        if verb:
            m = re.search(rf"\b{verb}\b", low)
            if m:
                y = _YEAR.search(sent, m.end())
                if y:
                    return int(y.group())
            elif i + 1 < len(sents) and _PRONOUN_START.match(sents[i + 1]):
                nxt = sents[i + 1]
                m = re.search(rf"\b{verb}\b", _fold(nxt))
                y = _YEAR.search(nxt, m.end()) if m else None
                if y:
                    return int(y.group())
            if verb in ("born", "died"):
                br = re.match(r"\s*\(([^()]*)\)", sent[end:])
                years = _YEAR.findall(br.group(1)) if br else []
                if years:
                    return int(years[0] if verb == "born" else years[-1])
                return None
        y = _YEAR.search(sent, start)
        if y:
            return int(y.group())
    return None


def date_order(
    claim: str, question: str | None, chunks: Sequence[str]
) -> tuple[bool, str, frozenset[str]] | None:
    """Reason why a claim about which of two things came first contradicts the context.

    The claim must say that one thing came first or later ("X was born first", "X is
    older than Y", "X was founded earlier"); a bare name answering such a question
    ("Who was born first, A or B?") takes the question's wording. The two things come
    from the question ("A or B") or from the claim ("than Y"). Each gets the year the
    context states in the first sentence that names it (after the dated verb such as
    "born" or "founded" when the sentence has one, else after the name). The check fails
    only when both years are found, differ, and are in the other order.

    Parameters
    ----------
    claim : str
        One claim (English-like text).
    question : str or None
        The user's question, if any.
    chunks : sequence of str
        The retrieved chunks.

    Returns
    -------
    tuple of (bool, str, frozenset of str) or None
        ``(agrees, reason, read)``: whether the order the claim states agrees with the
        years, a reason such as ``"the context dates Ann Lee to 1971 and Bo Park to
        1908"``, and the claim's content tokens the comparison accounts for (both names,
        the dated verb and the cue words). ``None`` when no comparison is read or a year
        is missing.

    Examples
    --------
    >>> ctx = ["Ann Lee (born 4 May 1971) is a painter.", "Bo Park (born 1908) was a poet."]
    >>> q = "Who was born first, Ann Lee or Bo Park?"
    >>> date_order("Ann Lee was born first.", q, ctx)[:2]
    (False, 'the context dates Ann Lee to 1971 and Bo Park to 1908')
    >>> date_order("Bo Park was born first.", q, ctx)[:2]
    (True, 'the context dates Bo Park to 1908 and Ann Lee to 1971')
    """
    text = normalize(claim)
    q = normalize(question or "")
    cue_text = text
    early, late = _EARLY.search(text), _LATE.search(text)
    pair = _alternatives(q) if q else None
    claim_key = _key(text)
    if not early and not late:
        # a bare name answering "which came first, A or B?"
        if pair is None or len(claim_key) > max(len(_key(pair[0])), len(_key(pair[1]))) + 1:
            return None
        cue_text = q
        early, late = _EARLY.search(q), _LATE.search(q)
        if not early and not late:
            return None
    if pair is None:
        m = re.search(r"\b(?:than|before|after)\s+(.+)$", text)
        if not m:
            return None
        thans = [_strip_article(n.group()) for n in _NAME.finditer(m.group(1))]
        subjs = [_strip_article(n.group()) for n in _NAME.finditer(text[: m.start()])]
        if not thans or not subjs or not thans[0] or not subjs[0]:
            return None
        pair = (subjs[0], thans[0])
    a, b = pair
    in_a, in_b = _key(a) <= claim_key, _key(b) <= claim_key
    if in_a and in_b:
        # both named: the one named first is the subject ("A is older than B")
        pos_a = text.lower().find(a.split()[-1].lower())
        pos_b = text.lower().find(b.split()[-1].lower())
        subject, other = (a, b) if pos_a <= pos_b else (b, a)
    elif in_a or in_b:
        subject, other = (a, b) if in_a else (b, a)
    else:
        return None
    verb_match = _VERB.search(cue_text)
    verb = verb_match.group(1).lower() if verb_match else None
    ys, yo = _year_of(subject, chunks, verb), _year_of(other, chunks, verb)
    if ys is None or yo is None or ys == yo:
        return None
    says_early = early is not None and (late is None or early.start() < late.start())
    found_cue = early or late
    cue = found_cue.group() if found_cue is not None else ""
    read = _key(subject) | _key(other) | _key(cue) | (_key(verb) if verb else frozenset())
    read |= _key("than before after first earlier later")
    why = f"the context dates {subject} to {ys} and {other} to {yo}"
    return says_early == (ys < yo), why, read


#: Predicates that relate the two names instead of saying something of each ("in the
#: same family", "married to each other"): not read as said of each name.
_RELATIONAL = re.compile(
    r"\b(?:same|different|differ|similar|identical|together|each other|one another|"
    r"related|share|shared|alike|than)\b",
    re.IGNORECASE,
)


def _grouped(text: str, *, relational: bool = False) -> tuple[str, str, str] | None:
    """(name A, name B, what is said of both) for "both A and B P" / "A and B (both) P";
    ``None`` for other claims and for relational predicates ("in the same family")."""
    body = _LEAD.sub("", text).strip()
    both = body.lower().startswith("both ")
    if both:
        body = body[5:].lstrip()
    m = _NAME.match(body)
    if not m:
        return None
    names = m.group()
    # the name run may have swallowed "and B": split it at its last " and "
    if " and " in names:
        a, _, b = names.rpartition(" and ")
        rest = body[m.end() :]
    else:
        a = names
        after = body[m.end() :]
        mm = re.match(r"\s+and\s+", after)
        if not mm:
            return None
        m2 = _NAME.match(after[mm.end() :])
        if not m2:
            return None
        b = m2.group()
        rest = after[mm.end() + m2.end() :]
    a, b = _strip_article(a), _strip_article(b)
    rest = rest.strip()
    if not a or not b or not rest or not rest[0].islower():
        return None
    # without "both", a plain verb must follow the two names ("A and B play P")
    plain = re.match(r"(?:are|were)\s+both\b|both\b|[a-z]+\b", rest)
    if not both and not plain:
        return None
    if not both and re.match(r"[a-z]+\s+(?:is|was|has|are|were|have)\b", rest):
        return None  # "The Health and Safety officer is …": the names qualify a noun
    rest = re.sub(r"^(?:(?:are|were|have|had)\s+)?both\s+", "", rest)
    if not relational and _RELATIONAL.search(rest):
        return None
    return a, b, rest.rstrip(" .!")


def _surroundings(
    names: Sequence[str], chunks: Sequence[str]
) -> tuple[dict[str, frozenset[str]], dict[str, set[str]]] | None:
    """Content tokens around each name: the sentences naming it, each with the next
    sentence unless that one names another of ``names`` (None when a name is absent)."""
    sents = [s for c in chunks for s in _sentences(c)]
    toks = [frozenset(content_tokens(s, "en")) for s in sents]
    keys = {n: _key(n) for n in names}
    if not all(keys.values()):
        return None
    near: dict[str, set[str]] = {}
    for name in names:
        others = [keys[o] for o in names if o != name]
        around: set[str] = set()
        for i, t in enumerate(toks):
            if keys[name] <= t:
                around |= t
                for j in range(i + 1, min(i + _WINDOW + 1, len(toks))):
                    if any(k <= toks[j] for k in others):
                        break
                    around |= toks[j]
        if not around:
            return None  # a name the context never mentions is left to the other rules
        near[name] = around
    return keys, near


def choice_gap(claim: str, question: str | None, chunks: Sequence[str]) -> str | None:
    """Reason why a claim picks the wrong one of two names a question offers.

    For a question that asks to choose ("Which one is owned by Time Inc., A or B?"), a
    claim that names one of them and says something of it ("A is owned by Time Inc.")
    is compared with the surroundings of both names in the context (the sentences that
    name each, with the next sentence unless it names the other). The check fails when
    more of the claim's other content words stand around the name it did not pick, and
    at least one of them stands only there: the context says it of the other one.

    Parameters
    ----------
    claim : str
        One claim (English-like text).
    question : str or None
        The user's question; without an "A or B" choice the check does not apply.
    chunks : sequence of str
        The retrieved chunks.

    Returns
    -------
    str or None
        A reason such as ``"the context says 'owned', 'Time', 'Inc' of Bay Review
        rather than of Mira Post"``, or ``None``.

    Examples
    --------
    >>> ctx = ["Mira Post is a weekly paper from Ohio.", "Bay Review is owned by Time Inc."]
    >>> q = "Which one is owned by Time Inc., Mira Post or Bay Review?"
    >>> choice_gap("Mira Post is owned by Time Inc.", q, ctx)
    "the context says 'owned', 'Time', 'Inc' of Bay Review rather than of Mira Post"
    >>> choice_gap("Bay Review is owned by Time Inc.", q, ctx)
    """
    pair = _alternatives(normalize(question or "")) if question else None
    if pair is None:
        return None
    text = normalize(claim)
    claim_toks = list(dict.fromkeys(content_tokens(text, "en")))
    a, b = pair
    in_a, in_b = _key(a) <= set(claim_toks), _key(b) <= set(claim_toks)
    if in_a == in_b:
        return None
    chosen, other = (a, b) if in_a else (b, a)
    found = _surroundings((chosen, other), chunks)
    if found is None:
        return None
    keys, near = found
    pred = [t for t in claim_toks if t not in keys[chosen] and t not in keys[other]]
    if not pred:
        return None
    n_chosen = sum(t in near[chosen] for t in pred)
    moved = [t for t in pred if t in near[other] and t not in near[chosen]]
    if moved and sum(t in near[other] for t in pred) > n_chosen:
        words = _surface(text, moved)
        return f"the context says {words} of {other} rather than of {chosen}"
    return None


def _said_of(a: str, b: str, pred: str, chunks: Sequence[str]) -> tuple[bool, str] | None:
    """Whether a short predicate is said of both names in the context, with a reason.

    Each name's surroundings are the sentences that name it, with the sentence after each
    unless that one names the other (see :func:`_surroundings`). ``(False, reason)`` when
    a content word of ``pred`` stands around one name and not around the other (the
    context says it of one of them); ``(True, reason)`` when every content word stands
    around both; ``None`` otherwise: words found around neither (paraphrase), a
    predicate of more than ``_PRED_MAX`` content words, or a name the context never
    mentions.
    """
    need = list(dict.fromkeys(content_tokens(pred, "en")))
    if not need or len(need) > _PRED_MAX:
        return None
    found = _surroundings((a, b), chunks)
    if found is None:
        return None
    _, near = found
    for name, other in ((a, b), (b, a)):
        moved = [w for w in need if w not in near[name] and w in near[other]]
        if moved:
            return False, f"the context says {_surface(pred, moved)} of {other} but not of {name}"
    if all(w in near[a] and w in near[b] for w in need):
        return True, f"the context says {_surface(pred, need)} of both {a} and {b}"
    return None


def grouped_claim(claim: str, chunks: Sequence[str]) -> tuple[bool, str] | None:
    """What the context says of each name of a claim about two grouped names.

    A claim such as "Both A and B are American rock bands." (also "A and B were both
    ...", "A and B play ...") states its short predicate (at most five content words) of
    each name. The result is ``(False, reason)`` when the context says a word of it of
    one name only (the claim extends it to both), ``(True, reason)`` when it says every
    word of it of each, and ``None`` when the claim is not of this form, its predicate
    relates the two ("in the same family"), or the context does not settle it.

    Parameters
    ----------
    claim : str
        One claim (English-like text).
    chunks : sequence of str
        The retrieved chunks.

    Returns
    -------
    tuple of (bool, str) or None
        ``(said of both, reason)``, or ``None``.

    Examples
    --------
    >>> ctx = ["Lumen Harbor is a Canadian rock band. Kestrel Vale is an American rock band."]
    >>> grouped_claim("Yes, both Lumen Harbor and Kestrel Vale are American rock bands.", ctx)
    (False, "the context says 'American' of Kestrel Vale but not of Lumen Harbor")
    >>> grouped_claim("Both Lumen Harbor and Kestrel Vale are rock bands.", ctx)
    (True, "the context says 'rock', 'bands' of both Lumen Harbor and Kestrel Vale")
    """
    parsed = _grouped(normalize(claim))
    return _said_of(*parsed, chunks) if parsed else None


def expand_both(claim: str, question: str | None) -> str | None:
    """A claim that says "both" for the two names of its question, with the names put in.

    "Yes, both were founded in 1998." answering "Were Google and Amazon founded in the
    same year?" becomes "Both Google and Amazon were founded in 1998.", so that the
    grouped-subject checks can read it. ``None`` when the claim does not open with
    "both" used as a pronoun or the question names no two things.

    Examples
    --------
    >>> expand_both("Yes, both were founded in 1998.", "Were Google and Amazon founded in the same year?")
    'Both Google and Amazon were founded in 1998.'
    >>> expand_both("Both Google and Amazon are big.", "Are they big?")
    """
    if not question:
        return None
    body = _LEAD.sub("", normalize(claim)).strip()
    m = re.match(r"(?i:both)\s+(?=[a-z])", body)
    if not m:
        return None
    q = normalize(question).strip().rstrip("?？ ").strip()
    pair = _alternatives(q)
    if pair is None:
        parsed = _grouped(_AUX.sub("", q), relational=True)
        pair = parsed[:2] if parsed else None
    if pair is None:
        return None
    return f"Both {pair[0]} and {pair[1]} {body[m.end() :]}"


def _written_name(words: Sequence[str], chunks: Sequence[str]) -> int | None:
    """How many of ``words`` make the name as the context writes it: the longest start
    of them found verbatim in a chunk and followed there by a word that is not
    capitalised ("Kings of Leon is ..." for "Kings of Leon American"); None if none is."""
    for k in range(len(words), 0, -1):
        name = " ".join(words[:k])
        pat = re.compile(rf"(?<!\w){re.escape(name)}(?=\s+[a-z(]|\s*[,.;:)]|$)")
        if any(pat.search(c) for c in chunks):
            return k
    return None


_SAME_TIME = re.compile(r"\bsame\s+(?:year|decade)\b", re.IGNORECASE)
_AUX = re.compile(r"^(?:are|were|is|was|do|does|did|have|has|had)\s+", re.IGNORECASE)
#: Bare answer words, by polarity (the offline judge uses them too).
YES_WORDS = frozenset(
    {"yes", "yeah", "yep", "correct", "true", "是", "是的", "对", "はい", "네", "예"}
)
NO_WORDS = frozenset(
    {"no", "nope", "false", "incorrect", "不", "不是", "いいえ", "아니요", "아니오"}
)


def bare_answer_check(answer: str, question: str, chunks: Sequence[str]) -> tuple[str, str] | None:
    """Verdict and reason for a bare "Yes."/"No." to a question that compares two names.

    Two question forms are read (English-like text):

    * "Were A and B released in the same year?": the years the context gives for A and B
      (as in :func:`date_order`) are equal or not;
    * "Are A and B both American?" / "Are both A and B American bands?": the
      predicate is said of both names or, as in :func:`grouped_claim`, of one
      only. In the second form B's name ends where the context's own spelling of it
      ends ("Kings of Leon is ..."), since a capitalised predicate runs on from it.

    The answer's polarity is then compared with what the context says: ``"yes"`` when
    they agree, ``"no"`` when the context says the opposite (different years, or the
    predicate said of both for a "No."), and ``"unsure"`` for a "Yes." when the predicate
    is said of one name only (the context does not say it of the other, which is not
    proof that it is false). Other questions, or a context that gives no answer either
    way, return ``None`` (the caller checks the question's words instead).

    Parameters
    ----------
    answer : str
        The bare answer ("Yes.", "no").
    question : str
        The question it answers.
    chunks : sequence of str
        The retrieved chunks.

    Returns
    -------
    tuple of (str, str) or None
        ``(verdict, reason)``, or ``None`` when the check does not apply.

    Examples
    --------
    >>> ctx = ["Up is a 2009 film by Pixar.", "The Watercolor is a 2009 Turkish film."]
    >>> bare_answer_check("Yes.", "Were Up and The Watercolor released in the same year?", ctx)
    ('yes', 'the context dates Up and Watercolor both to 2009')
    >>> bare_answer_check("No", "Were Up and The Watercolor released in the same year?", ctx)[0]
    'no'
    """
    word = normalize(answer).strip(" .!,").lower()
    if word not in YES_WORDS and word not in NO_WORDS:
        return None
    says_yes = word in YES_WORDS
    q = normalize(question).strip().rstrip("?？ ").strip()
    body = _AUX.sub("", q)
    if _SAME_TIME.search(q):
        parsed = _grouped(body, relational=True)
        if parsed is None:
            return None
        a, b, _ = parsed
        verb_match = _VERB.search(q)
        verb = verb_match.group(1).lower() if verb_match else None
        ya, yb = _year_of(a, chunks, verb), _year_of(b, chunks, verb)
        if ya is None or yb is None:
            return None
        same = ya == yb
        why = (
            f"the context dates {a} and {b} both to {ya}"
            if same
            else f"the context dates {a} to {ya} and {b} to {yb}"
        )
        return ("yes" if same == says_yes else "no"), why
    if body.lower().startswith("both "):
        # "Are both A and B American bands?": a capitalised predicate runs on from B's
        # name; B ends where the context's own spelling of the name ends
        parsed = _grouped(body)
        if parsed is None:
            return None
        a, b, pred = parsed
        k = _written_name(b.split(), chunks)
        if k is None:
            return None
        words = b.split()
        b, pred = " ".join(words[:k]), " ".join([*words[k:], pred])
    else:
        parsed = _grouped(body) if re.search(r"[a-z]\s+both\s+[^\W\d_]", body) else None
        if parsed is None:
            return None
        a, b, pred = parsed
        if not re.search(rf"{re.escape(b)}\s+both\s", body):
            return None  # "A and B bomb both ...": B's name does not end where "both" does
    said = _said_of(a, b, pred, chunks)
    if said is None:
        return None
    both, why = said
    if both:
        return ("yes" if says_yes else "no"), why
    # not said of one name is no proof that it is false of it: "unsure" for "yes"
    return ("unsure" if says_yes else "yes"), why
