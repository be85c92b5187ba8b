"""Small, dependency-light text helpers used by the offline judge.

Everything here is deterministic and works without network access or model
files: Unicode normalisation, a coarse script-based language guess (Chinese,
Japanese, Korean or "other"), sentence and claim splitting on top of the
maintained ``sentencex`` splitter, and tokenisation into *content tokens*
(stemmed non-stopwords for alphabetic scripts, character bigrams for CJK),
numbers (clock times normalised to 24-hour ``H:MM``) and negation cues.

Examples
--------
>>> from ragnotebook.text import detect_language, split_claims, content_tokens
>>> detect_language("会员费每年120元。")
'zh'
>>> split_claims("Dr. Smith opened the museum in 1998. Was it busy? It was full!")
['Dr. Smith opened the museum in 1998.', 'It was full!']
>>> content_tokens("The museums opened in 1998.")
['museum', 'open', '1998']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from sentencex import segment

__all__ = [
    "STOPWORDS",
    "content_tokens",
    "counted_amounts",
    "detect_language",
    "durations",
    "fold_latin",
    "has_negation",
    "is_cjk",
    "list_items",
    "negation_targets",
    "normalize",
    "numbers",
    "opposite_cues",
    "range_names",
    "rate_amounts",
    "split_claims",
    "split_sentences",
    "stem",
    "unit_amounts",
]

#: A short hand-written list of English function words (plus a few chatty
#: words that carry no checkable fact). CJK text relies on character n-grams
#: weighted by rarity instead of a stopword list.
STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "else",
        "so",
        "as",
        "of",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "onto",
        "on",
        "off",
        "to",
        "with",
        "about",
        "approx",  # "approx. 1.2 km" says what "about 1.2 km" says
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "any",
        "are",
        "aren't",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "it",
        "it's",
        "its",
        "itself",
        "just",
        "more",
        "most",
        "now",
        "once",
        "only",
        "other",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "some",
        "such",
        "than",
        "that",
        "that's",
        "their",
        "theirs",
        "them",
        "themselves",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "would",
        "let",
        "let's",
        "may",
        "might",
        "must",
        "shall",
        "via",
        "per",
        "is",
        "isn't",
        "wasn't",
        "weren't",
        "don't",
        "doesn't",
        "didn't",
        "won't",
        "wouldn't",
        "shouldn't",
        "couldn't",
        "can't",
        "well",
        "really",
        "actually",
        "quite",
        "rather",
        "much",
        "many",
        "lot",
        "lots",
        "oh",
        "yeah",
        "yes",
        "ok",
        "okay",
        "like",
        "think",
        "know",
        "sure",
        "hi",
        "hello",
        "thanks",
        "thank",
        "please",
        "one's",
        "s",
        "t",
        "re",
        "ve",
        "ll",
        "d",
        "m",
    ]
)

#: English negation cues (checked on lowercase words, before stopword removal).
_NEG_WORDS: frozenset[str] = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "nowhere",
        "neither",
        "nor",
        "cannot",
        "can't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "won't",
        "wouldn't",
        "shouldn't",
        "couldn't",
        "hasn't",
        "haven't",
        "hadn't",
        "unable",
        "without",  # "without a contract" denies what "with no contract" does
        "n't",
        # German, French, Spanish and Portuguese cues that are no English words (the
        # offline judge reads other languages' words, and at least their plain denials)
        "nicht",
        "kein",
        "keine",
        "keinen",
        "keinem",
        "keiner",
        "keines",
        "niemals",
        "jamais",
        "aucun",
        "aucune",
        "nunca",
        "ningún",
        "ninguna",
        "ninguno",
        "tampoco",
        "não",
        "nenhum",
        "nenhuma",
    ]
)
#: Negation cues of Chinese, Japanese and Korean (substring match), per language.
#: Chinese: 不 / 没 / 无 / 非 / 未 / 别, but not in words that deny nothing: 不过 (but),
#: 不仅 (not only), 不少 (many), 不错 (good), 不断 (on and on), 不久 (soon), 非常
#: (very), 未来 (future), 特别 / 区别 / 分别 / 别的 / 别人 (special, difference, other).
#: Japanese: the verb endings, 無, and the kanji prefixes that deny (不可, 不要, 非対応,
#: 未対応) and suffixes (対象外, 範囲外, 適用外); 没 (水没, 没収, 日没) and most 不
#: words (不注意, 不具合, 不動産) name things, 別 means "separate", 未満 is a bound,
#: 無料 ("free") is the opposite of 有料.
#: Korean: 않 / 없 / 못 / 아니 (아닙니다, 아님; "다름 아닌", "none other than", is no
#: denial) / 안, and 불가 (불가능) and 안 written against its verb (안됩니다); 안 is a word of
#: its own, never the end of one (해안 "coast", 서해안, 제안 are no denials).
_CJK_NEG = {
    "zh": re.compile(
        r"不(?![过過仅僅少错錯断斷久])|没|沒|無|无|非(?!常)|未(?![来來])"
        r"|(?<![特区區分类類个個级級性差识識告])[别別](?![的人处處名墅])"
    ),
    "ja": re.compile(
        r"ない|なかった|ません|ず[、。に]|無(?!料)|非(?!常)|未(?![満来])"
        r"|(?:対象|範囲|適用|保証|対応|時間|規格|想定)外"
        r"|不(?:可|要|能|適|許可|承認|対応|使用|参加|採用|合格)"
    ),
    "ko": re.compile(
        r"않|없|못|아니|아닙|아님|(?<!다름 )(?<!다름)아닌|(?<![가-힣])안(?: |[되됩돼됐될])|불가"
    ),
}

#: Words of :data:`_NUMBER_WORDS` that are rarely a count of something.
_NOT_COUNTS = frozenset({"second", "third", "fourth", "fifth", "twice"})

_NUMBER_WORDS: dict[str, str] = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "sixty": "60",
    "seventy": "70",
    "eighty": "80",
    "ninety": "90",
    "hundred": "100",
    "thousand": "1000",
    "million": "1000000",
    "billion": "1000000000",
    "first": "1",
    "second": "2",
    "third": "3",
    "fourth": "4",
    "fifth": "5",
    "twice": "2",
    "dozen": "12",
}

#: Number words that :func:`numbers` reads as values: the counts from two to ninety and
#: "dozen" ("zero", "one", ordinals, "twice" and multipliers are left out: they are too
#: often not a count).
_COUNT_WORDS = frozenset(
    w for w, v in _NUMBER_WORDS.items() if 2 <= int(v) <= 90 and w not in _NOT_COUNTS
)

_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
#: "twenty-five" / "twenty five" is one number (25), not 20 and 5.
_COMPOUND_NUMBER = re.compile(rf"\b({_TENS})[-\s]({_UNITS})\b", re.IGNORECASE)


#: A year said in words, after compounds are joined ("nineteen 98", "twenty 21"): a
#: word from eleven to twenty followed by a two-digit number.
_SPOKEN_YEAR = re.compile(
    r"\b(eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
    r"\s+([1-9]\d|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b(?![.,]?\d|-)",
    re.IGNORECASE,
)


#: "once a day", "twice per order", "once every two weeks": a count of times. After "a"
#: it must be a time ("once a restart has been pending" is "when").
_FREQUENCY = re.compile(
    r"\b(once|twice|thrice)(?=\s+(?:per|every|each|daily|weekly|monthly|yearly|annually|"
    r"hourly|an?\s+(?:calendar\s+|business\s+|working\s+|school\s+)?(?:day|week|month|"
    r"year|hour|minute|second|quarter|fortnight|night|morning|evening|afternoon|weekend|"
    r"decade|semester|term|season|shift|lifetime)s?)\b)",
    re.IGNORECASE,
)
_FREQUENCY_COUNT = {"once": "1 time", "twice": "2 times", "thrice": "3 times"}


#: Each match of the three patterns of :func:`_join_number_words` holds one of these.
_NUMBER_WORD_HINTS = (
    *_TENS.split("|"),
    *("once", "twice", "thrice", "teen", "eleven", "twelve", "dozen", "decade", "centur"),
)
#: "half a dozen" is six, not a dozen.
_HALF_DOZEN = re.compile(r"\bhalf\s+a\s+dozen\b", re.IGNORECASE)
#: A count of dozens, decades or centuries: "two dozen" is 24 (it was read as 2 and 12),
#: "three decades" 30 years, "half a century" 50 years. Not "dozens of", "the 19th
#: century", "the last decade" or "over a century" (a count of one is a round figure
#: more often than an amount: "for over a century" against "115 years").
_MULTIPLE = re.compile(
    r"\b(half\s+an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"\d{1,3})\s+(dozen|decades?|century|centuries)\b(?!-)",
    re.IGNORECASE,
)
_MULTIPLE_SIZE = {"dozen": (12, ""), "decade": (10, " years"), "century": (100, " years")}


def _multiple(m: re.Match[str]) -> str:
    """ "two dozen" -> "24", "three decades" -> "30 years", "half a century" -> "50 years"."""
    count = m.group(1).lower()
    unit = m.group(2).lower().rstrip("s").replace("centurie", "century")
    size, word = _MULTIPLE_SIZE[unit]
    if count.startswith("half"):
        value = size / 2
    else:
        value = int(_NUMBER_WORDS.get(count, count))
        value *= size
    return f"{value:g}{word}"


def _join_number_words(text: str) -> str:
    """Write compound number words with digits ("Twenty-five" -> "25").

    A year said in words becomes one number ("nineteen ninety-eight" -> "1998"), and
    "half a dozen" is 6.
    """
    if "-" not in text and " " not in text:
        return text
    low = text.lower()
    if not any(word in low for word in _NUMBER_WORD_HINTS):
        return text  # none of the three patterns can match (most sentences)

    def value(m: re.Match[str]) -> str:
        tens = int(_NUMBER_WORDS[m.group(1).lower()])
        return str(tens + int(_NUMBER_WORDS[m.group(2).lower()]))

    text = _COMPOUND_NUMBER.sub(value, text)
    if "dozen" in low:
        text = _HALF_DOZEN.sub("6", text)
    if "dozen" in low or "decade" in low or "centur" in low:
        text = _MULTIPLE.sub(_multiple, text)
    # a frequency: "twice a day" is 2 a day, against "once a day" (1)
    text = _FREQUENCY.sub(lambda m: _FREQUENCY_COUNT[m.group(1).lower()], text)

    def year(m: re.Match[str]) -> str:
        low = m.group(2).lower()
        rest = int(_NUMBER_WORDS.get(low, low))
        return str(int(_NUMBER_WORDS[m.group(1).lower()]) * 100 + rest)

    return _SPOKEN_YEAR.sub(year, text)


_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA = "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_CJK_CLASS = f"[{_HAN}{_KANA}{_HANGUL}]"
_CJK_RUN = re.compile(f"{_CJK_CLASS}+")
_HAS_CJK = re.compile(_CJK_CLASS)
_HIRAGANA = re.compile("[\u3040-\u309f]")
_KANA_RE = re.compile(f"[{_KANA}]")
_HANGUL_RE = re.compile(f"[{_HANGUL}]")
_HAN_RE = re.compile(f"[{_HAN}]")

# names made of a figure and a capital ("3D", "4K", "5G"; a word, not a number) | clock
# times ("9:30 pm", "4 PM"; kept whole) | numbers (thousands separators, decimals) | words
# (inner apostrophes)
_TOKEN_RE = re.compile(
    r"(?<![\w$€£¥.,])(?-i:\d{1,2}[DGK])(?!\w)"
    r"|\d{1,2}:\d{1,2}(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+){2,}|\d+(?:\.\d+)?|[^\W\d_]+(?:['’][^\W\d_]+)*",
    re.IGNORECASE,
)
#: The capital that ends a name made of a figure and a letter in :data:`_TOKEN_RE`.
_FIGURE_NAME_END = frozenset("DGK")
_TIME_RE = re.compile(r"(\d{1,2})(?::(\d{1,2}))?(?:\s*([ap])\.?m\b\.?)?", re.IGNORECASE)
# dotted acronyms ("F.E.A.R.", "U.S.") are read as one word
_ACRONYM = re.compile(r"\b((?:[^\W\d_]\.){2,})")
_MIN_CLAUSE = 3  # content words each side of a clause split needs
_PUNCT_ONLY = re.compile(r"^[\W_]*$")
_BULLET = re.compile(r"^\s*(?:[-*•·>#]+|\(?\d{1,2}[.)])\s+")
# (never inside brackets, as offline.py's _CONTRAST: "Rage Against the Machine (1991-2000;
# 2007-11)" is one clause; a bracket never closed, an emoticon ":(", protects nothing)
_CLAUSE_SPLIT = re.compile(
    r"(?:\s*;\s+|；"
    r"|,\s+(?=(?:and|but|while|whereas|although|though|which|so|yet|as well as)\s)"
    r"|\s+(?=because\s))(?![^(\[（［]*[)\]）］])",
    re.IGNORECASE,
)
# citation markers such as "(Passage 2)", "[1]", "(Passage 1:4)", "(Source 1, Source 3)",
# "[Doc 2; Doc 5]", a footnote mark "[^1]" and a file-search mark "【2†source】" / "【1】"
_CITE_WORD = r"(?:passages?|sources?|documents?|docs?|refs?|chunks?|contexts?)"
_CITATION = re.compile(
    rf"\s*[(\[]\s*{_CITE_WORD}\s*\d+(?:\s*[:,\-–]\s*\d+)*\s*[)\]]"
    # a bare index has at most three digits: "Titanic (1997)" and "(2007-08)" hold years
    r"|\s*[(\[]\s*\d{1,3}(?:\s*[:,\-–]\s*\d{1,3})*\s*[)\]]"
    # several sources named one by one ("(Source 1, Source 3)", "(passages 2 & 3)")
    rf"|\s*[(\[]\s*{_CITE_WORD}\s*\d+(?:\s*(?:[:,;\-–&]|and)\s*(?:{_CITE_WORD}\s*)?\d+)*"
    r"\s*[)\]]"
    r"|\s*\[\^[\w-]{1,12}\](?!:)|\s*【\d[^】\n]{0,30}】",
    re.IGNORECASE,
)
# lead-ins that only say where the answer comes from ("Based on the given passages, ...")
_PREAMBLE = re.compile(
    r"^(?:(?:sure|certainly|of course|absolutely)\s*[!,.]\s*)?"
    r"(?:(?:based on|according to|as (?:stated|mentioned|described) in|from)\s+(?:the\s+)?"
    r"(?:(?:provided|given|above|available|information in the)\s+)?"
    r"(?:passages?|contexts?|documents?|articles?|texts?|information|sources?|data|reviews?)"
    r"(?:\s+(?:provided|given|above))?\s*,\s*"
    r"|(?:passage|document|source|article|context)\s*\d*\s+"
    r"(?:mentions|states|says|notes|explains|suggests|shows)(?:\s+that)?\s+"
    r"|step\s*\d+\s*[:.)-]\s*"
    # "Here's what I found: ...", "Here is the answer: ..." (a lead-in before a colon)
    r"|here(?:'s|’s| is| are)\b[^:.!?]{0,60}:\s*"
    # a label: "Answer: ...", "**Answer:** ...", "Short answer - ..."
    r"|(?:\*\*|__)?(?:(?:short|final|brief)\s+)?(?:answer|reason(?:ing)?|explanation|summary"
    r"|note|result|conclusion|response)(?:\*\*|__)?\s*[:\-–]\s*(?:\*\*|__)?\s*)?",
    re.IGNORECASE,
)
# a hedge before a claim: "I think the bridge opened in 1937" states that it opened in 1937
_HEDGE = re.compile(
    r"^(?:i\s+(?:think|believe|guess|suppose|reckon|feel\s+like)|i'?d\s+say"
    r"|in\s+my\s+(?:opinion|view)\s*,|to\s+my\s+knowledge\s*,|if\s+i\s+(?:remember|recall)"
    r"\s+(?:correctly|right)\s*,)(?:\s+that)?\s*,?\s+(?=\w)",
    re.IGNORECASE,
)
# closing courtesies and offers of help are not claims about the world
_COURTESY = re.compile(
    r"^(?:let me know|i hope|hope (?:this|that)|feel free|please (?:let|feel)|is there anything"
    r"|i'?m (?:happy|glad) to|if you have any)",
    re.IGNORECASE,
)
# a sentence made only of greetings and pleasantries ("Hello!", "Sure, happy to help.")
_PLEASANTRY = re.compile(
    r"^(?:(?:hello|hi|hey|greetings|good (?:morning|afternoon|evening)"
    r"|thanks?(?: you)?(?: (?:so|very) much| a lot)?(?: for (?:asking|your question))?"
    r"|great question|sure|certainly|of course|good luck|best of luck|cheers|enjoy"
    r"|you'?re (?:very )?welcome|no problem|have (?:a|an) (?:great|nice|good|wonderful|lovely) "
    r"(?:day|time|trip|weekend|one)"
    r"|here(?:'s|’s| is) what i (?:found|know)"
    r"|(?:i can|i'?d be (?:happy|glad) to|i'?ll be (?:happy|glad) to|i'?d love to|let me) "
    r"help(?: you)?(?: (?:out )?with (?:that|this|it|your question))?"
    r"|(?:i'?m |i am )?(?:happy|glad) to help)(?: there)?[\s!.,]*)+$",
    re.IGNORECASE,
)


@lru_cache(maxsize=16384)
def normalize(text: str) -> str:
    """Return ``text`` in Unicode NFKC form (full-width digits and letters become ASCII).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        The normalised text.

    Examples
    --------
    >>> normalize("４人")
    '4人'

    Chinese and Japanese numerals are written with digits where they are numbers for
    sure: a year read digit by digit ("二〇〇五年" -> "2005年") and a number with
    十/百/千/万 before a counter or unit ("一百二十元" -> "120元"), and a month ("七月" ->
    "7月"). A lone "一" ("一个人", "a person") is left alone.

    >>> normalize("博物馆于二零零五年开放，门票一百二十元，共三万五千人参观。")
    '博物馆于2005年开放,门票120元,共35000人参观。'
    >>> normalize("节日在七月举行，为期一个月。")
    '节日在7月举行,为期一个月。'

    A number written twice, in words and in figures, as contracts do, is one number: "six
    (6) months" -> "6 months". When the two disagree, both are kept ("ninety (60) days"
    -> "(ninety) 60 days"), so neither is lost.

    >>> normalize("within five (5) Business Days or ninety (60) days")
    'within 5 Business Days or (ninety) 60 days'

    Figures with 万 / 만 / 億 / 억 / 千 / 천 are written out ("3만 원" -> "30000 원",
    "1万2000円" -> "12000円", "1.2万元" -> "12000元"), so they compare with "30,000원".

    >>> normalize("월 3만 원, 연 1억 2천만 원; 价格1.1万元; 1万2000円; 3천억 원; 1,200万円")
    '월 30000 원, 연 120000000 원; 价格11000元; 12000円; 300000000000 원; 12000000円'
    >>> normalize("1.32万亿欧元")
    '1320000000000欧元'

    A date written with dots in CJK text is written with slashes ("2024.3.1" ->
    "2024/3/1"), as its parts are a year, a month and a day.

    >>> normalize("활동은 2024. 3. 1.부터 시작됩니다.")
    '활동은 2024/3/1.부터 시작됩니다.'

    A fraction sign, and a fraction with a slash before a unit, is written as a decimal,
    so "1½ tsp", "1 1/2 tsp" and "1.5 tsp" are one amount (a third to three places);
    other slashes (dates, tallies, lists, ratios) stay as written.

    >>> normalize("Add 1½ tsp salt, ¾ cup milk and 1 1/2 cups flour; 2/3 of it by 3/4, 24/7.")
    'Add 1.5 tsp salt, 0.75 cup milk and 1.5 cups flour; 2/3 of it by 3/4, 24/7.'

    A scale's short form after a currency sign is written as its word.

    >>> normalize("It raised $5m at a $750k valuation, then £3.4bn.")
    'It raised $5 million at a $750 thousand valuation, then £3.4 billion.'
    """
    if "(" in text:
        text = _drafted_numbers(text)
    if _DATE_HINT.search(text):
        text = _written_dates(text)
    if _SPACE_GROUPS.search(text):
        text = _SPACE_GROUPS.sub(_space_groups, text)
    if "." in text and _DOT_GROUPS.search(text):
        text = _DOT_GROUPS.sub(_dot_groups, text)
    if _MONEY_SHORT.search(text):
        text = _MONEY_SHORT.sub(_money_short, text)
    if text.isascii():
        # NFKC leaves ASCII as it is, and the numerals below are not ASCII
        return _FRACTION.sub(_fraction_value, text) if "/" in text else text
    if _VULGAR.search(text):
        text = _VULGAR.sub(_vulgar_value, text)
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    if "/" in text or "\u2044" in text:
        text = _FRACTION.sub(_fraction_value, text)
    if _CN_NUMERAL.search(text):
        text = _CN_YEAR.sub(lambda m: "".join(str(_CN_DIGIT[c]) for c in m.group(1)), text)
        text = _CN_COUNT.sub(lambda m: str(_cn_value(m.group(1))), text)
    if "月" in text:
        text = _CN_MONTH.sub(lambda m: str(_cn_value(m.group(1))), text)
    if _MYRIAD_HINT.search(text):
        text = _MYRIAD.sub(_myriad_value, text)
    if "." in text and _HAS_CJK.search(text):
        text = _DOTTED_DATE.sub(r"\1/\2/\3", text)
    return text


#: An amount of money with a scale's short form ("$5m", "£3,400m", "$750k", "€2bn"): the
#: short form written as the scale word ("$5 million"), which every reader knows. Only
#: after a currency sign: "5m" alone may be metres, "10k" a race.
_MONEY_SHORT = re.compile(r"([$€£¥]\s?\d[\d,]*(?:\.\d+)?)\s?(k|m|mn|mln|bn|bln|b)\b")
_MONEY_SCALES = {"k": "thousand", "m": "million", "mn": "million", "mln": "million"} | {
    "bn": "billion",
    "bln": "billion",
    "b": "billion",
}


def _money_short(m: re.Match[str]) -> str:
    return f"{m.group(1)} {_MONEY_SCALES[m.group(2)]}"


#: Units a fraction written with a slash measures ("3/4 cup", "1 1/2 teaspoons", "3/4-inch
#: plywood", "a 1/2 hour break").
_FRACTION_UNITS = (
    r"cups?|teaspoons?|tsp|tablespoons?|tbsp|inch(?:es)?|feet|foot|ft|miles?|yards?|"
    r"pounds?|lbs?|ounces?|oz|grams?|g|kg|kilos?|kilograms?|lit(?:er|re)s?|ml|gallons?|"
    r"pints?|quarts?|sticks?|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?"
)
#: A fraction written with a slash, read as its value only where it measures something:
#: before a unit ("3/4 cup", "1 1/2 teaspoons", the Unicode fraction slash too), with a
#: numerator below a denominator of at most 16; an inch mark is a unit ("7 3/4\"", "1/2″",
#: which NFKC writes with two primes).
#: Elsewhere a slash is a date ("3/4",
#: "12/31"), a tally ("went 3/4", "7/10 pain"), a list ("chapters 3/4", "v1/2", "Windows
#: 10/11") or a ratio, and stays as written. A whole number and a hyphenated unit ("8
#: 1/2-inch slices": 8½ inches, or eight half-inch slices) stays too.
_FRACTION = re.compile(
    r"(?<![\w/.,:\u2044])(?:(\d{1,3})[ \u00a0])?([1-9]|1[0-5])[/\u2044]([2-9]|1[0-6])"
    rf"(?=(-| |\u00a0)(?:{_FRACTION_UNITS})\b| ?[\"\u2032\u2033\u201d])",
    re.IGNORECASE,
)
#: A vulgar fraction sign, with the whole number written before it ("1½", "2 ¾").
_VULGAR = re.compile(r"(?:(?<![\d.,])(\d{1,3})[ \u00a0]?)?([\u00bc-\u00be\u2150-\u215e])")


def _decimal_text(value: Fraction) -> str:
    """A fraction as a decimal figure: exact when it ends ("0.75", "1.5"), else to three
    places ("0.333" for a third)."""
    out = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return out or "0"


def _fraction_value(m: re.Match[str]) -> str:
    num, den = int(m.group(2)), int(m.group(3))
    if num >= den or (m.group(1) is not None and m.group(4) == "-"):
        return m.group()  # "5/4 cup"? not a part; "8 1/2-inch slices": ambiguous
    return _decimal_text(int(m.group(1) or 0) + Fraction(num, den))


def _vulgar_value(m: re.Match[str]) -> str:
    part = Fraction(unicodedata.numeric(m.group(2))).limit_denominator(16)
    return _decimal_text(int(m.group(1) or 0) + part)


#: A date written with dots in Chinese, Japanese or Korean text ("2024.3.1", "2024. 3. 1."),
#: written with slashes as "2024/3/1" is, so its year, month and day are read.
_DOTTED_DATE = re.compile(
    r"(?<![\d.])((?:19|20)\d\d)\.\s?(1[0-2]|0?[1-9])\.\s?(3[01]|[12]\d|0?[1-9])(?![\d]|\.\d)"
)


#: Figures grouped by thousands with a space ("50 000", "1 200 000", the SI and French way;
#: the no-break and narrow no-break spaces too, which NFKC writes as a space): a first group
#: of one to three figures, then groups of exactly three, neither after another group of
#: figures ("in 1998 200 people" is two numbers) nor before one. Written with commas, so
#: they read as one number ("50,000").
_SPACE_GROUPS = re.compile(
    r"(?<![\d.,])(?<!\d[ \u00a0\u202f\u2009])(\d{1,3})((?:[ \u00a0\u202f\u2009]\d{3})+)"
    r"(?!\d|[ \u00a0\u202f\u2009.,]\d)"
)
_GROUP_SPACE = re.compile(r"[ \u00a0\u202f\u2009]")
#: Figures grouped by thousands with dots, where a dot cannot be a decimal point: two or more
#: groups ("1.200.000"; "50.000" stays 50.0). Not after a letter or "version" ("v1.200.300").
_DOT_GROUPS = re.compile(r"(?<![\w.,])(\d{1,3})((?:\.\d{3}){2,})(?!\d|[.,]\d)")


def _space_groups(m: re.Match[str]) -> str:
    return m.group(1) + _GROUP_SPACE.sub(",", m.group(2))


def _dot_groups(m: re.Match[str]) -> str:
    if _VERSION_BEFORE.search(m.string, max(0, m.start() - 12), m.start()):
        return m.group()
    return m.group(1) + m.group(2).replace(".", ",")


_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: A date written with figures, year first ("2020-03-03", "2020/3/3"): written with its
#: month's name ("March 3, 2020"), as prose writes it, so it compares with "3 March 2020".
#: Not inside a longer run of figures or hyphens ("2020-03-03-01", a timestamp "...T10:00").
_ISO_DATE = re.compile(
    r"(?<![\w/.-])((?:1[5-9]|20)\d\d)([-/])(1[0-2]|0?[1-9])\2(3[01]|[12]\d|0?[1-9])(?![\w/-]|\.\d)"
)
#: A date written with slashes, day or month first ("13/03/2020", "03/13/2020"): read only
#: when one part is above 12, so it can only be the day ("03/03/2020" stays as written; a
#: dotted "31.12.2020" too, read as written).
_SLASH_DATE = re.compile(
    r"(?<![\w/.-])(3[01]|[12]\d|0?[1-9])/(3[01]|[12]\d|0?[1-9])/((?:1[5-9]|20)\d\d)(?![\w/-]|\.\d)"
)
#: A month's short form in a date ("Mar. 3, 2020", "3 Mar 2020", "Sept. 2021"): written as
#: its name. Capitalised, and before or after a figure ("May" is written whole).
_MONTH_SHORT = {m[:3]: m for m in _MONTH_NAMES if m != "May"} | {"Sept": "September"}
_SHORT_MONTH = re.compile(
    r"(?:(?<=\d )|(?<=\d(?:st|nd|rd|th) ))\b("
    + "|".join(sorted(_MONTH_SHORT, key=len, reverse=True))
    + r")\b\.?"
    r"|\b(" + "|".join(sorted(_MONTH_SHORT, key=len, reverse=True)) + r")\b\.?(?=\s*\d)"
)
_DATE_HINT = re.compile(r"\d\s*(?:[-/.–—]|--)\s*\d|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)")


#: A range of years whose second year keeps only its last two figures ("2007-11", "2001 --
#: 07", "1998–99"): written whole ("2007-2011"), when it is later in the same century.
_YEAR_RANGE = re.compile(
    r"(?<![\w.,/-])((1[5-9]|20)(\d\d))(\s*(?:--|–|—)\s*|-)(\d\d)(?![\w.,/%-]|\s*(?:%|per))"
)


def _year_range(m: re.Match[str]) -> str:
    if int(m.group(5)) <= int(m.group(3)):
        return m.group()  # "1999-00", "2019-05": not a later year of that century
    return f"{m.group(1)}{m.group(4)}{m.group(2)}{m.group(5)}"


def _iso_date(m: re.Match[str]) -> str:
    return f"{_MONTH_NAMES[int(m.group(3)) - 1]} {int(m.group(4))}, {m.group(1)}"


def _slash_date(m: re.Match[str]) -> str:
    first, second = int(m.group(1)), int(m.group(2))
    if first > 12 >= second:
        return f"{first} {_MONTH_NAMES[second - 1]} {m.group(3)}"
    if second > 12 >= first:
        return f"{_MONTH_NAMES[first - 1]} {second}, {m.group(3)}"
    return m.group()  # "03/03/2020", "04/05/2020": the order is unknown


def _short_month(m: re.Match[str]) -> str:
    return _MONTH_SHORT[m.group(1) or m.group(2)]


def _written_dates(text: str) -> str:
    """Dates in figures and short month names written with the month's name (see
    :func:`normalize`); text with Chinese, Japanese or Korean is left alone."""
    if _HAS_CJK.search(text):
        return text
    text = _ISO_DATE.sub(_iso_date, text)
    text = _YEAR_RANGE.sub(_year_range, text)
    text = _SLASH_DATE.sub(_slash_date, text)
    return _SHORT_MONTH.sub(_short_month, text)


#: Powers of ten written after figures in Chinese, Japanese and Korean amounts: "3万",
#: "3만 원", "1万2000円", "1.2万元", "2億", "3천만 원", "3천억", "5千円". A unit is a
#: thousand or a hundred, a myriad or a hundred million, or one of each ("천만" is 10**7).
_MYRIAD_SMALL = {"千": 1000, "천": 1000, "百": 100, "백": 100}
#: ("万亿" is 10**12: a myriad of 10**8)
_MYRIAD_LARGE = {"億": 10**8, "亿": 10**8, "억": 10**8, "万": 10**4, "萬": 10**4, "만": 10**4}
_MYRIAD_UNIT_RE = "(?:[千천百백][億亿억万萬만]?|万亿|萬億|[億亿억万萬만])"
_MYRIAD_HINT = re.compile(rf"\d\s?{_MYRIAD_UNIT_RE}")
#: Figures with such units, largest first, one blank allowed between the parts ("3만
#: 5천 원"), and plain figures written right after the last unit ("1万2000円").
_MYRIAD_FIGURES = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"  # "1,200", "1.2", "30"
_MYRIAD = re.compile(
    rf"(?<!\d)(?<!\d[.,])((?:{_MYRIAD_FIGURES}\s?{_MYRIAD_UNIT_RE}\s?)*{_MYRIAD_FIGURES}\s?{_MYRIAD_UNIT_RE})"
    r"(\d+(?![\d.,]))?"
)
_MYRIAD_PART = re.compile(rf"({_MYRIAD_FIGURES})\s?({_MYRIAD_UNIT_RE})")


def _myriad_size(unit: str) -> int:
    """The power of ten a unit of ``_MYRIAD_UNIT_RE`` stands for ("천만" -> 10**7)."""
    size = 1
    for ch in unit:
        size *= _MYRIAD_SMALL.get(ch) or _MYRIAD_LARGE[ch]
    return size


@lru_cache(maxsize=4096)
def _myriads(text: str) -> tuple[tuple[str, tuple[tuple[str, int], ...], bool], ...]:
    """Each amount of ``text`` with 万 / 만 / 億 / 억 / 千 / 천 that :func:`normalize`
    writes as a value: (the value, its (figure as written, unit size) parts, whether
    plain figures follow the last unit, as in "1万2000")."""
    if text.isascii():
        return ()
    text = unicodedata.normalize("NFKC", text)
    if not _MYRIAD_HINT.search(text):
        return ()
    out = []
    for found in _MYRIAD.finditer(text):
        value = _myriad_value(found)
        if value != found.group():
            parts = tuple(
                (_norm_number(a), _myriad_size(u)) for a, u in _MYRIAD_PART.findall(found.group(1))
            )
            out.append((value, parts, bool(found.group(2))))
    return tuple(out)


def myriad_figures(text: str) -> frozenset[str]:
    """The figures written before 万 / 만 / 億 / 억 / 千 / 천 in ``text``, as written.

    :func:`normalize` writes "60.39万" as 603900; a chunk also states the figure as
    written, which a reference answering "how many ten thousands" gives alone ("60.39").

    Parameters
    ----------
    text : str
        Text before :func:`normalize`.

    Returns
    -------
    frozenset of str
        Figures as :func:`numbers` writes them.

    Examples
    --------
    >>> sorted(myriad_figures("销量为60.39万辆，1,200万元，152.5万人。"))
    ['1200', '152.5', '60.39']
    >>> myriad_figures("It cost 30,000 won.")
    frozenset()
    """
    return frozenset(figure for _, parts, _ in _myriads(text) for figure, _ in parts)


def myriad_amounts(text: str) -> dict[str, tuple[str, int]]:
    """Amounts of one figure and one unit of 万 / 만 / 億 / 억 ... in ``text``: for each,
    its value as :func:`numbers` reads it, and (the figure as written, the unit's size).

    Parameters
    ----------
    text : str
        Text before :func:`normalize`.

    Returns
    -------
    dict of str to (str, int)

    Examples
    --------
    >>> myriad_amounts("营收463亿元，1万2000円")
    {'46300000000': ('463', 100000000)}
    """
    return {
        value: parts[0] for value, parts, tail in _myriads(text) if len(parts) == 1 and not tail
    }


def _myriad_value(m: re.Match[str]) -> str:
    """Write an amount with 万/만/億/억/千/천 in figures (see :func:`normalize`).

    Parts must come largest first ("1億2000万" is 120000000); anything else ("2千3万")
    is left as written, and so is a value that is not whole.
    """
    parts = [
        (Decimal(a.replace(",", "")), _myriad_size(u)) for a, u in _MYRIAD_PART.findall(m.group(1))
    ]
    units = [u for _, u in parts]
    if any(b >= a for a, b in pairwise(units)):
        return m.group()
    tail = int(m.group(2)) if m.group(2) else 0
    if tail >= units[-1]:
        return m.group()  # "3万12345" is not one number
    value = sum(a * u for a, u in parts) + tail
    if value != int(value):
        return m.group()  # "1.23456万": a fraction of a yuan is not what was meant
    return str(int(value))


_CARDINALS = "|".join(
    w for w, v in _NUMBER_WORDS.items() if w not in _NOT_COUNTS and w not in ("first", "dozen")
)
_CARDINAL = rf"(?:{_TENS})[-\s](?:{_UNITS})|{_CARDINALS}"
#: A number written in words and again in figures ("six (6)", "thirty (30)", "60 (sixty)"):
#: the bracket is found first (a literal, quick to search), then what stands before it.
_PAREN = re.compile(r"\(\s*(?:(\d[\d,]*)|([A-Za-z]+(?:[-\s][A-Za-z]+)?))\s*\)")
_CARDINAL_BEFORE = re.compile(rf"\b({_CARDINAL})\s*$", re.IGNORECASE)
_FIGURES_BEFORE = re.compile(r"(?<![\d.,])(\d[\d,]*)\s*$")
_CARDINAL_ONLY = re.compile(rf"(?:{_CARDINAL})", re.IGNORECASE)


def _cardinal_value(words: str) -> int:
    """The value of a cardinal in words ("six" -> 6, "twenty-five" -> 25)."""
    parts = re.split(r"[-\s]+", words.lower())
    return sum(int(_NUMBER_WORDS[p]) for p in parts)


def _drafted_numbers(text: str) -> str:
    """Write a number given in words and in figures once (see :func:`normalize`)."""
    out: list[str] = []
    done = 0
    for m in _PAREN.finditer(text):
        head = text[max(done, m.start() - 24) : m.start()]
        if m.group(1):  # "six (6)"
            before = _CARDINAL_BEFORE.search(head)
            words, figures = (before.group(1), m.group(1)) if before else ("", "")
        else:  # "60 (sixty)"
            before = _FIGURES_BEFORE.search(head)
            words = m.group(2) if before and _CARDINAL_ONLY.fullmatch(m.group(2)) else ""
            figures = before.group(1) if before else ""
        if not words or before is None:
            continue
        start = m.start() - len(head) + before.start()
        same = _cardinal_value(words) == int(figures.replace(",", ""))
        out.append(text[done:start])
        out.append(figures if same else f"({words}) {figures}")
        done = m.end()
    return "".join(out) + text[done:] if out else text


#: Characters that do not show, dropped before comparing: zero-width space, non-joiner
#: and joiner, word joiner, byte-order mark, soft hyphen ("De\u200bpot" is "Depot").
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


_CN_DIGIT: dict[str, int] = {c: i for i, c in enumerate("零一二三四五六七八九")} | {
    "〇": 0,
    "两": 2,
}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_CN_NUMERAL = re.compile("[〇零一二两三四五六七八九十百千万]{2}")
#: a year read digit by digit: two to four numeral digits before 年
_CN_YEAR = re.compile(
    "(?<![〇零一二两三四五六七八九十百千万])([〇零一二三四五六七八九]{2,4})(?=年)"
)
#: a number with 十/百/千/万 before a counter or unit ("三十人", "一百二十元", "十五个")
_CN_COUNT = re.compile(
    "(?<![〇零一二两三四五六七八九十百千万])"
    "([〇零一二两三四五六七八九]*[十百千万][〇零一二两三四五六七八九十百千万]*)"
    "(?=[元年人个岁次天月日号米名位家本件条张只台辆座所种项%％])"
)


#: a month written with a numeral ("七月", "十二月"; not "一个月", a month's duration)
_CN_MONTH = re.compile(
    "(?<![〇零一二两三四五六七八九十百千万个])(十[一二]?|[一二三四五六七八九])(?=月)"
)


def _cn_value(numeral: str) -> int:
    """Value of a Chinese numeral with 十/百/千/万 ("一百二十" -> 120, "十五" -> 15)."""
    total = section = digit = 0
    for ch in numeral:
        if ch in _CN_UNIT:
            section += (digit or 1) * _CN_UNIT[ch]
            digit = 0
        elif ch == "万":
            total += (section + digit or 1) * 10000
            section = digit = 0
        else:
            digit = _CN_DIGIT[ch]
    return total + section + digit


def is_cjk(lang: str) -> bool:
    """Whether a language code from :func:`detect_language` is Chinese, Japanese or Korean.

    Examples
    --------
    >>> is_cjk("ja"), is_cjk("en")
    (True, False)
    """
    return lang in ("zh", "ja", "ko")


@lru_cache(maxsize=8192)
def detect_language(text: str) -> str:
    """Guess the language family of ``text`` from its scripts.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        ``"ko"`` when Hangul dominates the CJK characters, ``"ja"`` when kana is
        present, ``"zh"`` for other Han text, and ``"en"`` for everything else
        (used as the default for alphabetic scripts).

    Examples
    --------
    >>> [detect_language(t) for t in ["Hello there", "北海道です", "수영장", "北京大学"]]
    ['en', 'ja', 'ko', 'zh']
    """
    sample = text[:2000]
    if sample.isascii():
        return "en"
    n_cjk = len(_HAS_CJK.findall(sample))
    if n_cjk == 0:
        return "en"
    n_alpha = sum(1 for ch in sample if ch.isalpha())
    if n_cjk < 0.2 * n_alpha:
        return "en"
    n_hangul = len(_HANGUL_RE.findall(sample))
    if n_hangul >= 0.5 * n_cjk:
        return "ko"
    if _KANA_RE.search(sample):
        return "ja"
    return "zh"


@lru_cache(maxsize=8192)
def split_sentences(text: str, lang: str | None = None) -> tuple[str, ...]:
    """Split ``text`` into sentences with ``sentencex`` (line breaks also split).

    Parameters
    ----------
    text : str
        Text to split.
    lang : str, optional
        Language code; detected with :func:`detect_language` when omitted.

    Returns
    -------
    tuple of str
        Stripped, non-empty sentences in order (bullet markers removed).

    Examples
    --------
    >>> from ragnotebook.text import split_sentences
    >>> split_sentences("他说好。你呢？")
    ('他说好。', '你呢？')
    >>> split_sentences("每片含钙300毫克。4岁以上儿童每天吃1片。")
    ('每片含钙300毫克。', '4岁以上儿童每天吃1片。')
    """
    lang = lang or detect_language(text)
    out: list[str] = []
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        for piece in _rejoin(list(segment(lang, line)), lang):
            # sentencex keeps "。" before a digit ("300毫克。4岁以上…") as if it were a
            # decimal point; a full-width stop always ends a sentence
            for sent in _CJK_STOP_DIGIT.split(piece):
                sent = sent.strip()
                if sent and not _PUNCT_ONLY.match(sent):
                    out.append(sent)
    return tuple(out)


_CJK_STOP_DIGIT = re.compile(r"(?<=[。！？])(?=[0-9０-９])")

#: Abbreviations sentencex ends a sentence at ("The bridge is approx. 1.2 km long." gave
#: "The bridge is approx." and "1.2 km long."): measures and counts that stand before a
#: figure or inside a sentence. A piece ending with one is joined to the next when the next
#: starts with a lowercase letter, a figure or a currency sign ("approx. 8 hrs. apart",
#: "Max. dose", "3 yrs. and"), which no real sentence does; "It took 3 hrs. Then ..." stays
#: two sentences.
#: Lowercase or capitalised only: "CA." and "MO." are US states, "NO." and "SEC." names.
_ABBREVIATIONS = "|".join(
    f"[{a[0]}{a[0].upper()}]{a[1:]}"
    for a in re.findall(
        r"\w+",
        "approx appr est max min mins avg hr hrs yr yrs wk wks sec secs no nos vol vols fig"
        " figs pp ch chap sect para eq temp dept tbsp tsp oz lb lbs sq pt pts qty incl excl"
        " ed eds misc ref refs tel ext jan feb mar apr jun jul aug sep sept oct nov dec",
    )
)
_ABBREVIATION_END = re.compile(rf"(?<![\w.])(?:{_ABBREVIATIONS})\.\s*$")
#: ... and those that only ever stand before what they qualify ("approx. USD 5", "ca.
#: 1900"): joined to the next piece whatever it starts with.
_PREFIX_END = re.compile(r"(?<![\w.])(?:[Aa]pprox|[Aa]ppr|ca|cf|viz)\.\s*$")
_CONTINUES = re.compile(r"[a-z0-9$€£¥(%]")
#: Closing quotes and brackets sentencex leaves at the start of the next piece
#: ("彼は『明日行きます。" + "』と言った。").
_CLOSERS = "」』”’)）]】〕〉》"
#: ... and what may end a quotation before :data:`_QUOTE_TAIL` (straight quotes too, which
#: could open the next sentence and so are never moved back).
_QUOTE_END = _CLOSERS + "\"'"
#: What follows a quotation ending with "。" inside the same sentence: a Japanese quoting
#: particle ("「明日行きます。」と言った。"), a Korean quoting ending ("“…”라고 말했다."), or
#: a short Chinese speech tag ("“我们明天出发。”他说。").
_QUOTE_TAIL = {
    "ja": re.compile(r"(?:と|って|など|との)"),
    "ko": re.compile(r"(?:라고|이라고|하고|고\s)"),
    "zh": re.compile(r"[^\s。！？，,]{1,6}(?:说|道|问|表示|称|回答)[。！？]?\s*$"),
}


def _rejoin(pieces: list[str], lang: str) -> list[str]:
    """Join back what sentencex splits inside a sentence: after an abbreviation
    (:data:`_ABBREVIATION_END`) and after a quotation that ends with its own full stop
    (:data:`_QUOTE_TAIL`)."""
    out: list[str] = []
    tail = _QUOTE_TAIL.get(lang)
    for piece in pieces:
        if out:
            prev = out[-1]
            closers = len(piece) - len(piece.lstrip(_CLOSERS))
            if closers and prev.rstrip()[-1:] in "。！？.!?":
                # "彼は『明日行きます。" + "』と言った。": the quote closes the sentence before
                prev = prev.rstrip() + piece[:closers]
                piece = piece[closers:]
                out[-1] = prev
                if not piece.strip():
                    continue
            head = piece.lstrip()
            if (_ABBREVIATION_END.search(prev) and _CONTINUES.match(head)) or _PREFIX_END.search(
                prev
            ):
                out[-1] = prev + piece
                continue
            if (
                tail is not None
                and prev.rstrip()[-1:] in _QUOTE_END
                and tail.match(head) is not None
            ):
                out[-1] = prev.rstrip() + head
                continue
        out.append(piece)
    return out


def _is_question(sentence: str, lang: str) -> bool:
    s = sentence.rstrip(" \"'”’」』)）")
    if s.endswith(("?", "？")):
        return True
    return lang == "ja" and s.endswith(("か。", "か"))


def split_claims(text: str, lang: str | None = None, *, lists: bool = False) -> list[str]:
    """Split ``text`` into claims: sentences, then cheap clause splits.

    Questions, pieces made only of punctuation, lead-ins ending with a colon
    ("Here are the steps:") and closing courtesies ("Let me know if ...") are
    dropped; citation markers ("(Passage 2)", "[1]") and source preambles
    ("Based on the provided passages, ", "Step 3: ") are removed; claims keep
    the source language. A sentence is further split at semicolons, at
    ``", and"`` / ``", but"`` / ``", which"`` / ``", while"``-style joints and
    before ``"because"`` when both sides carry at least three content words.

    Parameters
    ----------
    text : str
        The answer or ground truth.
    lang : str, optional
        Language code; detected when omitted.
    lists : bool, default False
        Split a sentence (or a clause of one) that ends in a list of three or more short
        items into one claim per item (:func:`list_items`), before any clause split, so that an
        Oxford comma (", and a 99.95% uptime SLA") is not read as a joint between two
        clauses. The offline judge does this for ground truths (context recall).

    Returns
    -------
    list of str
        The claims, in order.

    Examples
    --------
    >>> split_claims("Pro has SSO, audit logs, and a 99.9% uptime SLA.", lists=True)
    ['Pro has SSO.', 'Pro has audit logs.', 'Pro has a 99.9% uptime SLA.']
    >>> split_claims("会员费每年120元。你要加入吗？")
    ['会员费每年120元。']
    >>> split_claims("The park opened in 1990, and it closed in 2001 after the flood.")
    ['The park opened in 1990', 'it closed in 2001 after the flood.']
    >>> split_claims("Based on the passages, the fee is 120 euros (Passage 2). Hope this helps!")
    ['the fee is 120 euros.']
    """
    text = (text or "").strip()
    lang = lang or detect_language(normalize(text))
    if _MARKDOWN_HINT.search(text):
        text = _plain_lines(text)
    claims: list[str] = []
    for sent in split_sentences(text, lang):
        sent = _CITATION.sub(_citation_mark, sent).strip()
        if _is_question(sent, lang) or _is_meta(sent):
            continue
        sent = _PREAMBLE.sub("", sent, count=1).strip() or sent
        sent = _unhedge(sent, lang)
        if lists:
            items = list_items(sent, lang)
            if len(items) > 1:
                claims.extend(items)
                continue
        pieces = [p.strip() for p in _CLAUSE_SPLIT.split(sent)]
        pieces = [p for p in pieces if p and not _PUNCT_ONLY.match(p)]
        if len(pieces) > 1 and all(len(content_tokens(p, lang)) >= _MIN_CLAUSE for p in pieces):
            for piece in (_unhedge(p, lang) for p in map(_strip_joint, pieces)):
                # a list in a clause of its own ("...; it offers A, B and C")
                claims.extend(list_items(piece, lang) if lists else [piece])
        else:
            claims.append(sent)
    # pieces without any content word ("Yes.", "Me too!", and "No.", whose negation word
    # is its only token) are not claims, unless they are all there is (a bare "Yes." or
    # "No." answer is still an answer, checked through its question)
    contentful = [c for c in claims if set(content_tokens(c, lang)) - _BARE_ANSWER_TOKENS]
    return contentful or claims


_NUMBER_WORD_END = re.compile(rf"\b(?:{_CARDINAL})\s*$", re.IGNORECASE)

#: Markdown that is layout, not a claim (:func:`_plain_lines`).
_MARKDOWN_HINT = re.compile(r"^\s*(?:#|```|~~~|\||\*\*|__|\[\^)|^\s*[A-Za-z ;]{3,25}:?\s*$", re.M)
_HEADING = re.compile(r"^\s*#{1,6}\s")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)\s*:?\s*$")
#: A heading written as a line of its own, without "#": a section word ("Summary", "Key
#: points:"), never a line that could be an answer ("Paris").
_HEADING_WORDS = re.compile(
    r"^\s*(?:summary|overview|details|background|conclusions?|answer|short answer|explanation"
    r"|key (?:points|findings|facts|takeaways|details)|notes?|sources?|references?|citations?"
    r"|introduction|steps|results?|analysis|recommendations?|tl;?\s?dr)\s*:?\s*$",
    re.IGNORECASE,
)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_FOOTNOTE_DEF = re.compile(r"^\s*\[\^[\w-]{1,12}\]:\s*")


def _plain_lines(text: str) -> str:
    """``text`` without the markdown that is layout: headings ("## Summary", a bold line,
    a lone "Summary" line), code fence lines (the code between them stays), a table's
    separator row and the header row above it; a table's other rows are read as their
    cells joined with commas ("| Basic | $5/month |" -> "Basic, $5/month"), and a
    footnote's text loses its "[^1]:" label."""
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if _FENCE.match(line) or _HEADING.match(line) or _TABLE_RULE.match(line):
            continue
        if _BOLD_LINE.match(line) or _HEADING_WORDS.match(line):
            continue
        if _TABLE_ROW.match(line):
            if i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
                continue  # the header row: column names, not a fact
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            line = ", ".join(c for c in cells if c)
        line = _FOOTNOTE_DEF.sub("", line)
        out.append(line)
    return "\n".join(out)


def _citation_mark(m: re.Match[str]) -> str:
    """Drop a citation marker, but keep the figures of a number written twice ("six
    (6)"), which :func:`normalize` reads as one number."""
    return m.group() if _NUMBER_WORD_END.search(m.string, 0, m.start()) else ""


#: The tokens of a bare answer word ("No." keeps its negation word as a token; "Yes." has
#: none): a sentence of nothing else is no claim when the answer says more.
_BARE_ANSWER_TOKENS = frozenset({"no", "nope", "nah"})


def _is_meta(sentence: str) -> bool:
    """A lead-in to a list ("Here are the steps:"), a closing courtesy or a pleasantry."""
    return (
        sentence.rstrip().endswith((":", "："))
        or bool(_COURTESY.match(sentence))
        or bool(_PLEASANTRY.match(sentence.strip()))
    )


def _unhedge(sentence: str, lang: str) -> str:
    """``sentence`` without an opening hedge ("I think the bridge opened in 1937" -> "the
    bridge opened in 1937"), unless nothing with a content word follows it ("I think he
    did." stays as written)."""
    rest = _HEDGE.sub("", sentence, count=1)
    if rest != sentence and content_tokens(rest, lang):
        return rest
    return sentence


def _strip_joint(piece: str) -> str:
    for joint in ("and ", "but ", "while ", "whereas ", "so ", "yet ", "as well as "):
        if piece.lower().startswith(joint):
            return piece[len(joint) :].strip()
    return piece


#: Period adjectives that suffix stripping would not bring to their noun: "$120 a year"
#: and "the annual fee" both say "year", "daily" says "day".
_PERIOD_STEMS = {
    "annual": "year",
    "annually": "year",
    "yearly": "year",
    "annum": "year",
    "daily": "day",
}


#: British spellings written the American way before stemming, so that "licence" meets
#: "license", "organisation" "organization", "centre" "center" and "colour" "color". Each
#: rule maps both spellings' words alike (an American "-ise" word such as "promise" is
#: mapped too, to the same form on both sides).
_BRITISH: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(\w{3,})([iy])s(e|ed|es|ing|er|ers|ation|ations)$"), r"\1\2z\3"),
    (re.compile(r"^(\w{3,})our(s|ed|ing|ite|ites|able|ful|less)?$"), r"\1or\2"),
    (re.compile(r"^(\w{2,}[tbg])re(s?)$"), r"\1er\2"),
    (re.compile(r"^(\w{2,}[tbg])red$"), r"\1ered"),
    (re.compile(r"^(lice|offe|defe|prete)nce(s|d)?$"), r"\1nse\2"),
    (re.compile(r"^(\w{2,})logue(s?)$"), r"\1log\2"),
    (re.compile(r"^programme(s?)$"), r"program\1"),
)
_BRITISH_WORDS = {
    "grey": "gray",
    "aluminium": "aluminum",
    "jewellery": "jewelry",
    "ageing": "aging",
    "judgement": "judgment",
    "practise": "practice",
    "practised": "practiced",
    "practising": "practicing",
    "mould": "mold",
}


#: The endings any rule of ``_BRITISH`` reads: one search before trying each rule.
_BRITISH_HINT = re.compile(
    r"(?:[iy]s(?:e|ed|es|ing|er|ers|ation|ations)|our(?:s|ed|ing|ite|ites|able|ful|less)?"
    r"|[tbg]re[sd]?|nce[sd]?|logues?|programmes?)$"
)


#: Past participles in "-n" of common irregular verbs, written as the verb: "can be taken"
#: meets "do not take". (Other irregular past forms, "bought", "made", "said", were tried
#: too: they lowered RAGTruth summaries and BEGIN by 0.003-0.004, round 14.)
_IRREGULAR = {
    "taken": "take",
    "given": "give",
    "written": "write",
    "driven": "drive",
    "chosen": "choose",
    "spoken": "speak",
    "broken": "break",
    "forgotten": "forget",
    "frozen": "freeze",
    "stolen": "steal",
    "begun": "begin",
    "known": "know",
    "grown": "grow",
    "thrown": "throw",
    "drawn": "draw",
    "flown": "fly",
    "eaten": "eat",
    "shown": "show",
    "hidden": "hide",
}


#: A country's adjective and its name: lowercase adjective -> lowercase country, for the
#: countries and nations news most often names (:func:`demonym_tokens`).
_DEMONYMS = {
    adjective: country
    for country, adjectives in {
        "afghanistan": "afghan",
        "albania": "albanian",
        "algeria": "algerian",
        "argentina": "argentine argentinian",
        "armenia": "armenian",
        "australia": "australian",
        "austria": "austrian",
        "bangladesh": "bangladeshi",
        "belarus": "belarusian",
        "belgium": "belgian",
        "bolivia": "bolivian",
        "bosnia": "bosnian",
        "brazil": "brazilian",
        "britain": "british",
        "bulgaria": "bulgarian",
        "cambodia": "cambodian",
        "cameroon": "cameroonian",
        "canada": "canadian",
        "chile": "chilean",
        "china": "chinese",
        "colombia": "colombian",
        "croatia": "croatian",
        "cuba": "cuban",
        "cyprus": "cypriot",
        "czechia": "czech",
        "denmark": "danish",
        "ecuador": "ecuadorian",
        "egypt": "egyptian",
        "estonia": "estonian",
        "ethiopia": "ethiopian",
        "finland": "finnish",
        "france": "french",
        "georgia": "georgian",
        "germany": "german",
        "ghana": "ghanaian",
        "greece": "greek",
        "hungary": "hungarian",
        "iceland": "icelandic",
        "india": "indian",
        "indonesia": "indonesian",
        "iran": "iranian",
        "iraq": "iraqi",
        "ireland": "irish",
        "israel": "israeli",
        "italy": "italian",
        "jamaica": "jamaican",
        "japan": "japanese",
        "jordan": "jordanian",
        "kazakhstan": "kazakh",
        "kenya": "kenyan",
        "korea": "korean",
        "kuwait": "kuwaiti",
        "latvia": "latvian",
        "lebanon": "lebanese",
        "libya": "libyan",
        "lithuania": "lithuanian",
        "malaysia": "malaysian",
        "mexico": "mexican",
        "mongolia": "mongolian",
        "morocco": "moroccan",
        "mozambique": "mozambican",
        "nepal": "nepali nepalese",
        "netherlands": "dutch",
        "nigeria": "nigerian",
        "norway": "norwegian",
        "pakistan": "pakistani",
        "peru": "peruvian",
        "philippines": "filipino philippine",
        "poland": "polish",
        "portugal": "portuguese",
        "qatar": "qatari",
        "romania": "romanian",
        "russia": "russian",
        "rwanda": "rwandan",
        "scotland": "scottish",
        "senegal": "senegalese",
        "serbia": "serbian",
        "singapore": "singaporean",
        "slovakia": "slovak slovakian",
        "slovenia": "slovenian slovene",
        "somalia": "somali",
        "spain": "spanish",
        "sudan": "sudanese",
        "sweden": "swedish",
        "switzerland": "swiss",
        "syria": "syrian",
        "taiwan": "taiwanese",
        "tanzania": "tanzanian",
        "thailand": "thai",
        "tunisia": "tunisian",
        "turkey": "turkish",
        "uganda": "ugandan",
        "ukraine": "ukrainian",
        "uruguay": "uruguayan",
        "venezuela": "venezuelan",
        "vietnam": "vietnamese",
        "wales": "welsh",
        "yemen": "yemeni",
        "zambia": "zambian",
        "zimbabwe": "zimbabwean",
    }.items()
    for adjective in adjectives.split()
}


@lru_cache(maxsize=1)
def _country_tokens() -> dict[str, frozenset[str]]:
    """Country token -> the tokens of its adjectives (built on first use: :func:`stem`)."""
    out: dict[str, frozenset[str]] = {}
    for adjective, country in _DEMONYMS.items():
        out[stem(country)] = out.get(stem(country), frozenset()) | {stem(adjective)}
    return out


def demonym_tokens(tokens: frozenset[str]) -> frozenset[str]:
    """The tokens of the adjectives of the countries among ``tokens``: a text naming
    Tanzania says "Tanzanian" too ("a Tanzanian trial" is "a trial in Tanzania"). One
    way only, as the judge reads chunks: a chunk's "Italian" restaurant is not "in Italy".

    Parameters
    ----------
    tokens : frozenset of str
        Content tokens (:func:`content_tokens`) of a chunk or one of its sentences.

    Returns
    -------
    frozenset of str
        The adjectives' tokens (empty when no country is named).

    Examples
    --------
    >>> sorted(demonym_tokens(frozenset(content_tokens("A trial in Tanzania and Finland."))))
    ['finnish', 'tanzanian']
    """
    countries = _country_tokens()
    found = tokens & countries.keys()
    if not found:
        return frozenset()
    return frozenset().union(*(countries[t] for t in found))


#: Unit symbols written as their unit's word ("21 kg" is "21 kilograms" word for word).
_UNIT_SYMBOLS = {
    "kg": "kilogram",
    "kgs": "kilogram",
    "km": "kilometer",
    "cm": "centimeter",
    "mm": "millimeter",
    "mg": "milligram",
    "ml": "milliliter",
    "lb": "pound",
    "lbs": "pound",
    "oz": "ounce",
    "ft": "foot",
    "feet": "foot",
    "mph": "mile",
    "kph": "kilometer",
    "hr": "hour",
    "hrs": "hour",
    "mins": "minute",
    "secs": "second",
}


def _american(word: str) -> str:
    if word in _BRITISH_WORDS:
        return _BRITISH_WORDS[word]
    if _BRITISH_HINT.search(word) is None:
        return word
    for pattern, repl in _BRITISH:
        if pattern.match(word):
            return pattern.sub(repl, word)
    return word


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """Crude English suffix stripping so that "opened", "opens" and "opening" meet.

    Examples
    --------
    >>> [stem(w) for w in ["opened", "museums", "running", "class"]]
    ['open', 'museum', 'run', 'class']
    >>> stem("cancelled") == stem("canceled") == stem("cancel")
    True
    >>> [stem(a) == stem(b) for a, b in [("licence", "license"), ("centre", "center"),
    ...     ("organisation", "organization"), ("colour", "color"), ("catalogue", "catalog")]]
    [True, True, True, True, True]
    >>> stem("families") == stem("family")
    True
    >>> stem("annual"), stem("daily"), stem("monthly")
    ('year', 'day', 'month')
    >>> stem("kg") == stem("kilograms"), stem("km") == stem("kilometres")
    (True, True)
    """
    if word in _UNIT_SYMBOLS:
        return stem(_UNIT_SYMBOLS[word])
    if len(word) < 4 or "'" in word:
        return word
    word = _american(word)
    if word in _PERIOD_STEMS:
        return _PERIOD_STEMS[word]
    if word in _IRREGULAR:
        return stem(_IRREGULAR[word])  # "taken" -> "take" -> as "take" is
    if word.endswith(("ies", "ied")) and len(word) >= 5:
        return stem(word[:-3] + "y")  # "families", "carried" -> as "family", "carry" are
    out = word
    for suffix in ("ing", "ed", "es", "s", "ly", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            out = word[: -len(suffix)]
            break
    # a doubled final consonant is written once: "running" meets "run", "stopped"
    # "stop", and the British "cancelled" the American "canceled" (and "call" and
    # "called" both give "cal")
    if len(out) >= 4 and out[-1] == out[-2] and out[-1] not in "aeiousy":
        out = out[:-1]
    return out


def _norm_number(tok: str) -> str:
    tok = tok.replace(",", "")
    if tok.count(".") > 1:
        return tok  # a version or a dotted date ("4.2.1", "31.12.2020"): as written
    if "." in tok:
        tok = tok.rstrip("0").rstrip(".")
    tok = tok.lstrip("0") or "0"
    return "0" + tok if tok.startswith(".") else tok  # "0.5" (and ".5") is "0.5"


def _norm_time(tok: str) -> str:
    """Clock time as 24-hour ``H:MM`` ("9:00 pm" and "21:0" both give "21:00")."""
    m = _TIME_RE.fullmatch(tok.strip())
    if m is None:
        return tok
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    return f"{hour}:{minute:02d}"


def _cjk_grams(run: str, lang: str) -> list[str]:
    if len(run) == 1:
        return [] if (lang == "ja" and _HIRAGANA.match(run)) else [run]
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    if lang == "ja":
        # bigrams made only of hiragana are mostly particles and inflections
        grams = [g for g in grams if not (_HIRAGANA.match(g[0]) and _HIRAGANA.match(g[1]))]
    return grams


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_CAMEL_WORD = re.compile(r"\b[A-Za-z][a-z]+(?:[A-Z][a-z]+)+\b")


#: Latin letters that carry no combining accent under NFKD.
_LATIN_EXTRA = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ı": "i", "ħ": "h", "ŧ": "t"})


@lru_cache(maxsize=65536)
def fold_latin(word: str) -> str:
    """Latin letters without their accents, so that a word matches whether or not a
    text writes its diacritics; a word with letters of other scripts is returned as it is.

    Parameters
    ----------
    word : str
        A word or a lowercase text.

    Returns
    -------
    str
        The folded text (same length for accented letters; "ł" -> "l", "ø" -> "o").

    Examples
    --------
    >>> fold_latin("único café łódź")
    'unico cafe lodz'
    >>> fold_latin("Пётр")
    'Пётр'
    """
    folded = "".join(
        c
        for c in unicodedata.normalize("NFKD", word.translate(_LATIN_EXTRA))
        if not unicodedata.combining(c)
    )
    return folded if folded.isascii() else word


_VERSION_WORD = re.compile(r"\bversion\s+(?=v?\d)", re.IGNORECASE)


@lru_cache(maxsize=65536)
def _tokens_cached(text: str, lang: str) -> tuple[str, ...]:
    out: list[str] = []
    text = _join_number_words(text)
    if "{" in text or "_" in text:
        # structured data: split camelCase and snake_case keys into words, and keep each
        # two neighbouring parts joined too ("TakeOut" -> take, out, takeout; "WiFi" ->
        # wifi), the way prose writes such compounds
        for key in _CAMEL_WORD.findall(text):
            parts = _CAMEL.sub(" ", key).lower().split()
            out.extend(stem(a + b) for a, b in pairwise(parts))
        text = _CAMEL.sub(" ", text).replace("_", " ")
    if "." in text:
        text = _ACRONYM.sub(lambda m: m.group().replace(".", ""), text)
    if "ersion" in text:
        # "version 2.3.1" is "v2.3.1": the number is the content, the word its prefix
        text = _VERSION_WORD.sub("", text)
    for tok in _TOKEN_RE.findall(text):
        if tok[-1] in _FIGURE_NAME_END and tok[0].isdecimal():
            out.append(tok.lower())  # "3D", "4K", "5G": a name, not a number
            continue
        if tok[0].isdecimal():
            timed = ":" in tok or tok[-1:].lower() in ("m", ".")
            out.append(_norm_time(tok) if timed else _norm_number(tok))
            continue
        if not tok.isascii() and _HAS_CJK.search(tok):
            pos = 0
            for run in _CJK_RUN.finditer(tok):
                before = tok[pos : run.start()].lower()
                if before and before not in STOPWORDS:
                    out.append(stem(before))
                out.extend(_cjk_grams(run.group(), lang))
                pos = run.end()
            rest = tok[pos:].lower()
            if rest and rest not in STOPWORDS:
                out.append(stem(rest))
            continue
        if tok.lower() in _CLOCK_WORDS:
            out.append(_CLOCK_WORDS[tok.lower()])  # "midnight" is "00:00"
            continue
        word = _word_token(tok)
        if word:
            out.append(word)
    return tuple(out)


#: An elided article, pronoun or negation before a word: "l'", "d'", "n'", "qu'", "j'",
#: "s'", "c'", "m'", "t'" ("l'alcool", "n'est", "qu'il"); the word after it is the token.
_ELISION = re.compile(r"^(?:l|d|n|qu|j|s|c|m|t)'([a-z\u00c0-\u024f]{2,})$")


@lru_cache(maxsize=65536)
def _word_token(tok: str) -> str:
    """The content token of one word of :data:`_TOKEN_RE` ("" for a stopword)."""
    low = tok.lower().replace("’", "'")
    if not low.isascii():
        low = fold_latin(low)
    if low.endswith("'s") and len(low) > 3:
        low = low[:-2]  # possessive: "Romo's" is about "Romo"
    if (low.endswith("n't") and len(low) > 3) or low in ("cannot", "non"):
        # "wasn't" says what "was not" says, "non-refundable" what "not refundable" says
        # ("not" is a content token)
        low = "not"
    elided = _ELISION.match(low)
    if elided:
        # French and Italian elisions: "l'alcool" is "alcool", "n'est" is "est" (its
        # negation is read by has_negation, as "ne" is)
        low = elided.group(1)
    if low in STOPWORDS or (len(low) == 1 and low != "i"):
        return ""
    num = _NUMBER_WORDS.get(low)
    return num if num is not None else stem(low)


def content_tokens(text: str, lang: str | None = None) -> list[str]:
    """Content tokens of ``text``: stemmed non-stopwords, numbers and CJK bigrams.

    Parameters
    ----------
    text : str
        Any text (normalised with NFKC first).
    lang : str, optional
        Language code; detected when omitted. For Japanese, bigrams made only
        of hiragana are skipped.

    Returns
    -------
    list of str
        Tokens in order, with repeats.

    Examples
    --------
    >>> content_tokens("年度会员费为120元。")
    ['年度', '度会', '会员', '员费', '费为', '120', '元']
    """
    text = normalize(text)
    return list(_tokens_cached(text, lang or detect_language(text)))


#: What names a version before its number ("version 3.10", "v1.10", "Python 3.10").
_VERSION_BEFORE = re.compile(r"(?:\bversion|\bv|\bver\.?|\brelease|\bpython|\bv\.)\s*$", re.I)


#: A number whose decimals are all zeros ("3.0", "2.00"): as a version too, the same as
#: the whole number ("since v3.0" and "since 3.0" say one version).
_ZERO_MINOR = re.compile(r"^\d+\.0+$")


#: The top of a rating scale ("4.5 stars out of 5", "scored 8 out of 10", "rated 4/5",
#: "4.5/5 stars"): a convention of the rating, not a figure the context must hold. Only after
#: a rating word or before "stars", and only when the top ends the figure: "a review found 3
#: out of 10 patients" (a noun follows), "posted on 4/10/2021" (a date) keep every figure.
_TOP_END = (
    r"(?![/\d]|\.\d)(?=\s*(?:$|[.,;:!?)\]]|(?:stars?|points?|by|from|with|on|in|at|for|among"
    r"|and|overall|based|across|according)\b))"
)
_SCALE_TOP = re.compile(
    r"\b(?:stars?|rat(?:ing|ings|ed|es)|scor(?:e|es|ed|ing)|grade[ds]?|reviews?)\b"
    r"(?:(?!\b(?:on|since|until|before|after|from)\b)[^.;!?\d]){0,24}"
    r"\d+(?:\.\d+)?\s*(?:stars?\s+|points?\s+)?(?:out\s+of|/)\s*"
    rf"(?P<top>5|10|100|five|ten){_TOP_END}"
    rf"|\b\d+(?:\.\d+)?\s*(?:stars?|points?)\s+out\s+of\s+(?P<top2>5|10|100|five|ten){_TOP_END}"
    r"|\b\d+(?:\.\d+)?\s*/\s*(?P<top3>5|10)(?=\s*stars?\b)",
    re.IGNORECASE,
)
#: A quick test before :data:`_SCALE_TOP`: something that could be a scale's top.
_SCALE_HINT = re.compile(r"(?:out\s+of|/)\s*(?:5|10|100|five|ten)\b", re.IGNORECASE)


def _scale_tops(text: str) -> set[int]:
    """Start offsets of the tops of rating scales in ``text`` (:data:`_SCALE_TOP`)."""
    if _SCALE_HINT.search(text) is None:
        return set()
    return {
        m.start(g) for m in _SCALE_TOP.finditer(text) for g in ("top", "top2", "top3") if m.group(g)
    }


def numbers(text: str) -> set[str]:
    """Normalised numbers written with digits in ``text`` (``"1,998"`` -> ``"1998"``).

    Examples
    --------
    >>> sorted(numbers("It cost $1,200.50 in 1998 and ４ more, two of them."))
    ['1200.5', '1998', '2', '4']
    >>> sorted(numbers("It opened in nineteen ninety-eight, twenty-five years ago."))
    ['1998', '25']
    >>> sorted(numbers("Version 1.10 replaced v1.1, which cost 1.10 euros."))
    ['1.1', '1.10']
    >>> numbers("deprecated since v3.0") == numbers("deprecated since 3.0") == {"3"}
    True
    >>> numbers("from noon until midnight") == numbers("from 12:00 until 00:00")
    True
    """
    text = _join_number_words(normalize(text))
    out: set[str] = set()
    tops = _scale_tops(text)
    for m in _TOKEN_RE.finditer(text):
        tok = m.group()
        if tok[-1] in _FIGURE_NAME_END and tok[0].isdecimal():
            continue  # "3D", "4K", "5G" are names
        if m.start() in tops:
            continue  # the top of a rating scale: "4.5 stars out of 5"
        if tok[0].isdecimal():
            timed = ":" in tok or tok[-1:].lower() in ("m", ".")
            if (
                "." in tok
                and _ZERO_MINOR.match(tok) is None
                and _VERSION_BEFORE.search(text, max(0, m.start() - 12), m.start())
            ):
                out.add(tok)  # a version as written: "3.10" is not "3.1" (but "v3.0" is 3)
            else:
                out.add(_norm_time(tok) if timed else _norm_number(tok))
        elif tok.isascii() and tok.lower() in _COUNT_WORDS:
            out.add(_NUMBER_WORDS[tok.lower()])
        elif tok.lower() in _CLOCK_WORDS:
            out.add(_CLOCK_WORDS[tok.lower()])
    return out


#: Times of day said in a word, as :func:`numbers` and the tokens write clock times
#: ("midnight" is "00:00", "noon" is "12:00 pm").
_CLOCK_WORDS = {"midnight": "0:00", "noon": "12:00", "midday": "12:00"}


#: Every word of :func:`has_negation`'s cues stands where this matches: a cue word with no
#: letter on either side, or "n't" (a quick test; the words are then read one by one).
_NEG_HINT = re.compile(
    r"n't|(?<![^\W\d_])(?:"
    + "|".join(sorted((re.escape(w) for w in _NEG_WORDS), key=len, reverse=True))
    + r")(?![^\W\d_])"
)

#: What follows "no" when it answers a question ("No, it is closed.", "No.") rather
#: than negating the sentence's fact ("No one was hurt.", "No trucks run on Sunday.").
_ANSWER_NO = re.compile(r"\s*(?:[,.;:!]|$)")


def has_negation(text: str, lang: str | None = None) -> int:
    """Count negation cues in ``text`` ("not", "never", "n't", 不, ない, 않 ...).

    Parameters
    ----------
    text : str
        A sentence or claim.
    lang : str, optional
        Language code; detected when omitted.

    Returns
    -------
    int
        Number of negation cues found (its parity gives the polarity).

    Examples
    --------
    >>> has_negation("The museum did not open in 1998."), has_negation("It opened.")
    (1, 0)
    >>> has_negation("The museum did not open until 1998.")  # it opened in 1998
    0
    """
    text = normalize(text)
    lang = lang or detect_language(text)
    if is_cjk(lang):
        return len(_CJK_NEG[lang].findall(text))
    count = 0
    low = text.lower().replace("’", "'")
    if _NEG_HINT.search(low) is None:
        return 0  # no cue can be among its words (most sentences): skip reading them
    words = [(m.group(), m.end()) for m in _TOKEN_RE.finditer(low)]
    for i, (w, end) in enumerate(words):
        if i == 0 and w == "no" and _ANSWER_NO.match(low, end):
            continue  # an answer word ("No, ..."), not a negated fact ("No one was hurt.")
        if low[end : end + 1] == "-":
            continue  # part of a compound ("not-for-profit", "no-fly")
        if (
            (w in _NEG_WORDS or w.endswith("n't"))
            and not _not_until(words, i)
            and _BOUND_AFTER.match(low, end) is None  # "no more than 6" is a bound
        ):
            count += 1
    return count


#: "did not open until 1998" says it opened in 1998: a cue with "until" / "till" this
#: many words after it states when something happened, it does not deny it.
_UNTIL_REACH = 6


#: After a negation cue, what makes it a bound on an amount rather than a denial: "no
#: more than 6", "do not take more than 6 tablets", "do not use the spray for more than 7
#: days", "must not exceed 4 g" all say "at most" (up to five words, no punctuation,
#: between the cue and "more than" / "exceed"; an amount after it).
_BOUND_GAP = r"(?: [a-z]+){0,5}? "  # the words a bound's cue may stand before "more than"
_BOUND_AFTER = re.compile(
    rf"{_BOUND_GAP}(?:(?:more|greater|higher|larger|longer) than"
    r"|exceed(?:ing)?)\s+[$€£¥]?\d"
)


def _not_until(words: Sequence[tuple[str, int]], i: int) -> bool:
    """Whether the negation cue at ``words[i]`` is part of "not ... until"."""
    return any(w in ("until", "till") for w, _ in words[i + 1 : i + 1 + _UNTIL_REACH])


#: How many words after a negation cue its scope reaches (the negated word is the
#: first content word there: "did not *open*", "is not a *member*").
_NEG_SCOPE = 4


#: A key and a "none" / "no" value ("performance fee: none", "Exit charge: no"): the key is
#: what is denied. ``_CLAUSE_STOP`` checks that the value ends its clause.
_KEY_NONE = re.compile(r"(?:^|[.;,]\s*)([^.;,:]{2,60}?):\s*(?:none|no)\b")
_CLAUSE_STOP = re.compile(r"\s*(?:[.;,)]|$)")


def negation_targets(text: str, lang: str | None = None) -> frozenset[str] | None:
    """Content tokens that a negation cue of ``text`` applies to (English), else None.

    The target of a cue is the first content word within four words after it ("the
    museum did not *open*", "no *trucks*"). Chinese, Japanese and Korean text returns
    None (scope is not read there).

    Examples
    --------
    >>> sorted(negation_targets("The museum did not open in 1998, he said."))
    ['open']
    >>> negation_targets("It opened.")
    frozenset()
    """
    text = normalize(text)
    lang = lang or detect_language(text)
    if is_cjk(lang):
        return None
    low = text.lower().replace("’", "'")
    words = [(m.group(), m.end()) for m in _TOKEN_RE.finditer(low)]
    out: set[str] = set()
    for i, (w, end) in enumerate(words):
        if (i == 0 and w == "no" and _ANSWER_NO.match(low, end)) or low[end : end + 1] == "-":
            continue
        if not (w in _NEG_WORDS or w.endswith("n't")) or _not_until(words, i):
            continue
        if _BOUND_AFTER.match(low, end) is not None:
            continue  # "do not take more than 6": a bound (at most 6), not a denial
        valued = (
            next((m for m in _KEY_NONE.finditer(low, 0, end) if m.end() == end), None)
            if w in ("none", "no")
            else None
        )
        if valued is not None and _CLAUSE_STOP.match(low, end):
            # "performance fee: none": the value denies its key
            out.update(_tokens_cached(valued.group(1), lang)[:1] or ())
            continue
        for nxt, _ in words[i + 1 : i + 1 + _NEG_SCOPE]:
            toks = _tokens_cached(nxt, lang)
            if toks:
                out.add(toks[0])
                break
    return frozenset(out)


# Opposite pairs: (words of one side, words of the other). English sides list word forms
# (matched as whole lowercase words); Chinese, Japanese and Korean sides list written forms
# (matched as substrings; Japanese forms keep their kana endings, so that "立っ" (standing)
# does not match inside 国立 (national)). A claim saying one side where the matching
# sentence of the context says the other is a contradiction.
_OPPOSITE_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        (
            "increase increased increases increasing rise rises rose risen rising grew grow "
            "grows growing raise raised raises raising expand expanded expands expanding "
            "widen widened widens widening hike hiked hikes hiking boost boosted boosts "
            "boosting soar soared soars soaring surge surged surges surging climb climbed "
            "climbs climbing jump jumped jumps jumping double doubled doubles doubling",
            "decrease decreased decreases decreasing decline declined declines declining fall "
            "falls fell fallen falling drop dropped drops dropping reduce reduced reduces "
            "shrank shrink shrinks shrinking lowered lowers lowering cut cuts cutting "
            "contracted narrowed narrows narrowing slash slashed slashes slashing trim "
            "trimmed trims trimming halve halved halves halving plunge plunged plunges "
            "plunging plummet plummeted plummets plummeting slump slumped slumps slumping "
            "sank sink sinks sinking tumble tumbled tumbles tumbling dip dipped dips dipping",
        ),
        ("win wins won winning victory gain gained gains", "lose loses lost losing loss losses"),
        ("higher highest", "lower lowest"),
        ("larger largest bigger biggest", "smaller smallest"),
        ("older oldest", "younger youngest"),
        ("above", "below"),
        ("first", "last"),
        ("north northern", "south southern"),
        ("east eastern", "west western"),
        ("true", "false"),
        (
            "accept accepted accepts approve approved approves confirm confirmed confirms "
            "admit admitted admits",
            "reject rejected rejects deny denied denies",
        ),
        (
            "allow allowed allows permit permitted legal lawful",
            "ban banned bans forbid forbidden prohibit prohibited illegal unlawful",
        ),
        ("open opened", "closed shut"),
        (
            "male man men boy boys husband son sons father brother brothers king",
            "female woman women girl girls wife daughter daughters mother sister sisters queen",
        ),
        ("positive", "negative"),
        (
            "succeed succeeded succeeds success successful",
            "fail failed fails failure unsuccessful",
        ),
        ("guilty convicted", "innocent acquitted"),
        ("alive survived survive survives born", "dead died dies killed"),
        ("maximum", "minimum"),
        ("majority", "minority"),
        ("buy buys bought buying purchase purchased", "sell sells sold selling"),
        ("import imports imported", "export exports exported"),
        ("inside indoor indoors within", "outside outdoor outdoors"),
        ("domestic", "international"),
        ("strong stronger strongest", "weak weaker weakest"),
        ("cheap cheaper cheapest inexpensive", "expensive pricey"),
        ("hot hotter warm", "cold colder"),
        ("wet", "dry"),
        ("arrive arrived arrives arrival", "depart departed departs departure"),
        ("public", "private"),
        ("rich richer wealthy", "poor poorer"),
        ("support supported supports", "oppose opposed opposes"),
        ("agree agreed agrees", "disagree disagreed disagrees"),
        ("include included includes cover covers covered", "exclude excluded excludes"),
        ("top", "bottom"),
        ("same", "different"),
        ("full", "empty"),
        ("sitting sat seated", "standing stood"),
        ("asleep sleeping", "awake"),
        ("fixed", "variable adjustable floating"),
        ("add added adds adding", "remove removed removes removing"),
        ("new", "existing"),
        ("free", "paid"),
        ("all", "some"),
        ("always", "sometimes usually often occasionally rarely generally typically normally some"),
        ("before", "after"),
        ("longer longest", "shorter shortest"),
        ("earlier earliest", "later latest"),
        ("business working", "calendar"),
        # a time of day ("take it in the evening"); "9 a.m." against "9 p.m." is read as a
        # clock time (21:00), a number conflict
        ("morning mornings", "evening evenings"),
        # an obligation against a permission; "may" where the context says "must" is
        # implied (``_IMPLIED_SIDES``), and a negated modal is left alone ("may not" and
        # "must not" both forbid)
        ("must shall required mandatory obligatory compulsory", "may optional"),
        ("better best", "worse worst"),
        ("heavier heaviest", "lighter lightest"),
        ("faster fastest quicker quickest", "slower slowest"),
        ("stronger strongest", "weaker weakest"),
        ("warmer warmest hotter hottest", "cooler coolest colder coldest"),
    ),
    "ja": (
        ("大き", "小さ"),
        ("多い 多く", "少な"),
        ("高い 高く", "低い 低く"),
        ("長い 長く", "短い 短く"),
        ("上に の上 上へ 上を 上で", "下に の下 下へ 下を 下で"),
        ("左", "右"),
        ("男", "女"),
        ("白い 白の 白色", "黒い 黒の 黒色"),
        ("座っ 座る 座り", "立っ 立つ 立ち"),
        ("入っ 入る 入り", "出て 出る 出し"),
        ("開い 開け", "閉じ 閉め 閉ま"),
        ("新し", "古い 古く"),
        ("早い 早く 速い 速く", "遅い 遅く"),
        ("増え 増加 増や", "減っ 減少 減ら"),
        ("暑い 暖か", "寒い 冷た"),
        ("明る", "暗い 暗く"),
        ("強い 強く", "弱い 弱く"),
        ("重い 重く", "軽い 軽く"),
        ("太い", "細い"),
        ("広い 広く", "狭い 狭く"),
        ("深い", "浅い"),
        ("厚い", "薄い"),
        ("近い 近く", "遠い 遠く"),
        ("屋内 室内 内側", "屋外 室外 外側"),
        ("勝っ 勝利", "負け 敗北"),
        ("始ま 開始", "終わ 終了"),
        ("朝 昼", "夜"),
        ("乗っ 乗る 乗り", "降り"),
        ("売っ 売る 売り 販売", "買っ 買う 買い 購入"),
        ("貸し 貸す", "借り"),
        ("生き", "死ん 死ぬ 死亡"),
        ("大人", "子供 子ども"),
        ("濡れ", "乾い 乾燥"),
        ("止まっ 停止", "動い"),
        ("の前 前に 前で", "後ろ の後 後に 後で"),
        ("晴れ", "雨"),
        ("押し 押す", "引い 引く 引っ"),
        ("着て 着る 着用", "脱い 脱ぐ"),
        ("寝て 寝る 寝そべ", "起き"),
        ("泣い 泣く 泣き", "笑っ 笑う 笑顔"),
        ("空い", "混ん 混雑"),
        ("同じ", "違う 異な"),
        ("若い 若者", "老人 高齢 年配"),
        ("静か", "騒が うるさ"),
        ("東側 東部", "西側 西部"),
        ("南側 南部", "北側 北部"),
        ("以上", "以下 未満"),
        ("最大", "最小"),
        ("最高", "最低"),
        ("最初", "最後"),
        ("賛成", "反対"),
        ("成功", "失敗"),
        ("上昇 上が", "下落 低下 下が"),
        ("入口", "出口"),
        ("輸入", "輸出"),
        ("税込", "税抜 税別"),
        ("無料", "有料"),
    ),
    "zh": (
        ("增加 增长 上升 提高", "减少 下降 降低"),
        ("成功 胜利", "失败"),
        ("最大", "最小"),
        ("最高", "最低"),
        ("男性 男子 男人", "女性 女子 女人"),
        ("左侧 左边", "右侧 右边"),
        ("进口", "出口"),
        ("买入 购买", "卖出 出售"),
        ("赞成 支持", "反对"),
        ("开放 打开", "关闭"),
        ("白色", "黑色"),
        ("以上", "以下"),
        ("之前 以前", "之后 以后"),
        ("第一", "最后"),
        ("可以 允许 准许", "禁止 严禁 不准"),
        ("免费", "收费 付费"),
    ),
    "ko": (
        ("남자 남성", "여자 여성"),
        ("왼쪽", "오른쪽"),
        ("증가 상승", "감소 하락"),
        ("성공 승리", "실패 패배"),
        ("최대", "최소"),
        ("최고", "최저"),
        ("입구", "출구"),
        ("수입", "수출"),
        ("찬성", "반대"),
        ("무료", "유료"),
    ),
}
_OPPOSITES: dict[str, tuple[tuple[frozenset[str], ...], ...]] = {
    lang: tuple(tuple(frozenset(side.split()) for side in sides) for sides in pairs)
    for lang, pairs in _OPPOSITE_PAIRS.items()
}
#: English words with a listed opposite, each with its ``(pair, side)`` keys (one lookup
#: per word of a sentence instead of one set intersection per side of every pair)
_OPPOSITE_KEYS: dict[str, tuple[tuple[int, int], ...]] = {}
for _i, _sides in enumerate(_OPPOSITES["en"]):
    for _side, _forms in enumerate(_sides):
        for _form in _forms:
            _OPPOSITE_KEYS[_form] = (*_OPPOSITE_KEYS.get(_form, ()), (_i, _side))
_OPPOSITE_WORDS = frozenset(_OPPOSITE_KEYS)
#: English (pair, side) keys a claim may say where the context says the other side: a
#: claim that "some rooms have a balcony" is true when all of them have one, while "all
#: rooms" against "some rooms" is a contradiction; so with "usually" and "always".
_IMPLIED_SIDES = frozenset(
    (i, 1)
    for i, sides in enumerate(_OPPOSITES["en"])
    if sides[0] in ({"all"}, {"always"}) or "must" in sides[0]
)
#: The obligation/permission pair, whose negated forms agree ("may not", "must not").
_MODAL_PAIR = next(i for i, sides in enumerate(_OPPOSITES["en"]) if "must" in sides[0])
#: Chinese, Japanese and Korean forms are found as substrings, the longest first (then in
#: sort order), so the word a reason quotes is the same in every process.
_CJK_OPPOSITE_ORDER: dict[str, tuple[tuple[tuple[str, ...], ...], ...]] = {
    lang: tuple(
        tuple(tuple(sorted(forms, key=lambda f: (-len(f), f))) for forms in sides)
        for sides in pairs
    )
    for lang, pairs in _OPPOSITES.items()
    if lang != "en"
}
_LOWER_WORD = re.compile(r"[a-z]+")

#: Rates by period, one group whose sides exclude each other: a claim's fee "per month"
#: against the matching sentence's "annual" fee, or a bus "every hour" against one "every
#: day", is a contradiction as "rose" against "fell" is. A side is a period and how many
#: of it: "every two weeks" (week, 2) is another side than "weekly" (week, 1).
PERIODS = ("hour", "day", "night", "week", "month", "quarter", "year", "dose", "minute", "second")
_PERIOD_EN = re.compile(
    r"\b(?P<adj>hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annual"
    r"|annually|per\s+annum)\b"
    # "per month", "every week", "every two weeks", "every other day"
    r"|\b(?P<every>(?:per|each|every)\s+(?:(?P<count>\d+|two|three|four|five|six|seven|eight"
    r"|nine|ten|twelve|other)\s+)?(?P<unit>hours?|days?|nights?|weeks?|months?|quarters?|doses?"
    r"|years?|minutes?|mins?|seconds?|secs?))\b"
    # "$500/month", "$8/hr"
    r"|(?P<slash>/\s*(?P<slash_unit>hours?|hrs?|days?|nights?|weeks?|wks?|months?|mos?"
    r"|quarters?|qtrs?|years?|yrs?|minutes?|mins?|seconds?|secs?))\b"
    # "$120 a year", "twice a day", "10,000 visitors a year"; not "5 a year ago"
    r"|(?:\b\d[\d,.]*|\b(?:once|twice|thrice|times))(?:\s+[a-z]+){0,2}?\s+"
    # ("a second" is left out: "2 goals in a second half")
    r"(?P<rate>an?\s+(?P<rate_unit>hour|day|night|week|month|quarter|year|dose|minute))\b"
    r"(?!\s+(?:ago|later|earlier|after|before|or)\b)"
)
_PERIOD_ADJ = {
    "hourly": (0, 1),
    "daily": (1, 1),
    "nightly": (2, 1),
    "weekly": (3, 1),
    "fortnightly": (3, 2),
    "monthly": (4, 1),
    "quarterly": (5, 1),
}
_PERIOD_SHORT = {
    "hr": "hour",
    "wk": "week",
    "mo": "month",
    "qtr": "quarter",
    "yr": "year",
    "min": "minute",
    "sec": "second",
}
#: "every two weeks", "every other day": the count words of :func:`numbers`, and "other"
_PERIOD_COUNT = {w: int(v) for w, v in _NUMBER_WORDS.items() if w in _COUNT_WORDS} | {"other": 2}
_PERIOD_CJK: dict[str, tuple[str, ...]] = {
    # written forms per side (in the order of PERIODS), matched as substrings; durations
    # such as 年間 (also "for N years") are left out
    "zh": (
        "每小时 每小時",
        "每天 每日 日均",
        "每晚",
        "每周 每週 每星期",
        "每月 每个月 月费 月度 月会费",
        "每季度 每季 季度",
        "每年 年费 年度 年会费",
        "",  # (a dose)
        "每分钟 每分鐘",
        "每秒 每秒钟",
    ),
    "ja": (
        "毎時 時給",
        "毎日 日額 日給",
        "一泊",
        "毎週 週給",
        "毎月 月額 月給 月会費",
        "四半期 毎季",
        "毎年 年額 年俸 年会費",
        "",  # (a dose)
        "毎分",
        "毎秒",
    ),
    "ko": (
        "매시간 시간당",
        "매일 일당",
        "하룻밤",
        "매주 주당",
        "매달 매월 월급 월회비",
        "분기별 매분기",
        "매년 해마다 연봉 연회비",
        "",  # (a dose)
        "분당 매분",
        "초당 매초",
    ),
}


def _period_side(unit: str, count: int = 1) -> int:
    """Side of the period group for ``count`` ``unit`` ("weeks", 2): the unit's index in
    ``PERIODS``, plus ``len(PERIODS)`` for each count above one."""
    unit = unit.rstrip("s")
    unit = _PERIOD_SHORT.get(unit, unit)
    return PERIODS.index(unit) + len(PERIODS) * (count - 1)


def _period_cues(text: str, lang: str) -> dict[int, str]:
    """The rate periods ``text`` states, as ``{side: written form}`` (see ``_period_side``)."""
    out: dict[int, str] = {}
    if is_cjk(lang):
        for side, forms in enumerate(_PERIOD_CJK.get(lang, ())):
            hit = next((f for f in forms.split() if f in text), None)
            if hit is not None:
                out[side] = hit
        return out
    low = text.lower()
    for side, (start, end) in _period_spans(low):
        out.setdefault(side, low[start:end])
    return out


#: Chinese, Japanese and Korean groups after the periods: durations (a count of a time
#: unit: "3か月" against "3年"; a year needs one or two digits, so "2020年" is a date) and
#: days of the week.
_CJK_COUNT = r"[\d０-９万千百億만천억]"


def _cjk_amounts(*groups: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], ...], ...]:
    """Unit groups of Chinese, Japanese or Korean text, each unit right after a number
    ("300毫克", "330円", "2mg", "5만 원"): masses, then currencies."""
    return tuple(
        tuple(re.compile(rf"(?:(?<={_CJK_COUNT})|(?<={_CJK_COUNT}\s))(?:{unit})") for unit in units)
        for units in groups
    )


_CJK_GROUPS: dict[str, tuple[tuple[re.Pattern[str], ...], ...]] = {
    "zh": (
        tuple(
            re.compile(rf"(?<![\d第])(?:\d{{1,3}}|[一二两三四五六七八九十]{{1,3}})\s*{u}")
            for u in (
                r"(?:个)?小时",
                r"天",
                r"(?:周|个星期|星期)(?![一二三四五六日天])",
                r"个月",
                r"年(?!\d)",
            )
        ),
        tuple(
            re.compile(rf"(?:周|星期|礼拜){d}")
            for d in ("一", "二", "三", "四", "五", "六", "[日天]")
        ),
        *_cjk_amounts(
            (r"毫克|mg", r"(?<!毫)(?<!千)克|g(?![a-z])", r"千克|公斤|kg"),
            (r"(?<![美日欧港])元|人民币", r"美元", r"日元", r"欧元"),
        ),
    ),
    "ja": (
        tuple(
            re.compile(rf"(?<![\d第])(?:\d{{1,3}}|[一二两三四五六七八九十]{{1,3}})\s*{u}")
            for u in (r"時間", r"日間", r"週間", r"[かヶカケヵ]月", r"年(?:間)?(?!\d)")
        ),
        tuple(re.compile(rf"{d}曜") for d in ("月", "火", "水", "木", "金", "土", "日")),
        *_cjk_amounts(
            (r"ミリグラム|mg", r"(?<!ミリ)(?<!キロ)グラム|g(?![a-z])", r"キログラム|kg"),
            (r"円", r"ドル", r"ユーロ", r"元"),
        ),
    ),
    "ko": (
        tuple(
            # a day of a date ("7월 3일") is no duration
            re.compile(rf"(?<![\d월])(?<!월 )\d{{1,3}}\s*{u}")
            for u in (r"시간", r"일(?![요째])", r"주(?:일|간)?(?!년)", r"개월", r"년(?!\d)")
        ),
        tuple(re.compile(rf"{d}요일") for d in ("월", "화", "수", "목", "금", "토", "일")),
        *_cjk_amounts(
            (r"밀리그램|mg", r"(?<!밀리)(?<!킬로)그램|g(?![a-z])", r"킬로그램|kg"),
            (r"원", r"달러", r"엔", r"유로"),
        ),
    ),
}
#: Month names, as the month group of :data:`_UNIT_GROUPS` reports them.
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
#: Counts written as words, for durations ("six months") and bounds ("more than ten"):
#: those :func:`numbers` reads, and "one" and "hundred" ("one year", "more than hundred").
_COUNT_ALTERNATION = "|".join(
    sorted((_COUNT_WORDS | {"one", "hundred"}) - {"dozen"}, key=len, reverse=True)
)
#: Superlatives whose rank matters ("the largest market", "the third tallest").
_SUPERLATIVE_WORDS = frozenset(
    (
        *("largest", "biggest", "tallest", "highest", "lowest", "smallest", "oldest"),
        *("newest", "longest", "shortest", "fastest", "slowest", "busiest", "richest"),
        *("poorest", "deepest", "heaviest", "cheapest", "youngest", "best", "worst"),
    )
)
_SUPERLATIVE = rf"(?:{'|'.join(sorted(_SUPERLATIVE_WORDS))}|most\s+\w+|least\s+\w+)\b"
#: Units that exclude each other after an amount, one group each after the periods:
#: currencies ("$120" against "€120"), masses and volumes, a dose's units ("500 mg"
#: against "500 g", "10 mg" against "10 ml") and distances
#: ("5 km" against "5 miles"). Symbols are matched anywhere, words and abbreviations
#: after a number; "pound" (money or weight) and "m" (metres or million) are left out.
#: Then bounds ("more than 50" against "up to 50") and days of the week, whose sides also
#: exclude each other; durations, ranks and months have readers of their own
#: (``_durations``, ``_ranks``, ``_months``), all listed in ``_GROUP_READERS``.
_UNIT_GROUPS: tuple[tuple[re.Pattern[str], ...], ...] = (
    (
        re.compile(r"\$|\b(?:us\s?d|dollars?)\b"),
        re.compile(r"€|\b(?:eur|euros?)\b"),
        re.compile(r"£|\bgbp\b"),
        re.compile(r"¥|\b(?:jpy|yen)\b"),
    ),
    (
        re.compile(r"\d\s?(?:mg|milligrams?)\b(?!\s?/\s?kg)"),
        re.compile(r"\d\s?(?:g|grams?)\b(?!\s?/\s?kg)"),
        re.compile(r"\d\s?(?:kg|kilograms?|kilos?)\b"),
        re.compile(r"\d\s?(?:mcg|µg|μg|micrograms?)\b(?!\s?/\s?kg)"),
        # a dose per kilogram of body weight ("10 mg/kg") is not a dose
        re.compile(r"\d\s?(?:mg|g|mcg|µg|μg)\s?/\s?kg\b"),
        # pounds and ounces of weight ("10 lb"; "10 pounds" may be money)
        re.compile(r"\d\s?(?:lbs?)\b"),
        re.compile(r"\d\s?(?:oz|ounces?)\b"),
        # volumes, the other unit of a dose ("10 ml of the suspension", not "10 mg")
        re.compile(r"\d\s?(?:ml|millilit(?:er|re)s?)\b"),
        re.compile(r"\d\s?(?:l|lit(?:er|re)s?)\b"),
        re.compile(r"\d\s?(?:tsp|teaspoons?)\b"),
        re.compile(r"\d\s?(?:tbsp|tablespoons?)\b"),
        re.compile(r"\d\s?(?:cups?)\b"),
    ),
    (
        re.compile(r"\d\s?(?:km|kilomet(?:er|re)s?)\b"),
        re.compile(r"\d\s?(?:mi|miles?)\b"),
        # ("m" alone may be a million)
        re.compile(r"\d\s?(?:met(?:er|re)s)\b"),
        re.compile(r"\d\s?(?:ft|feet|foot)\b"),
        re.compile(r"\d\s?(?:cm|centimet(?:er|re)s?)\b"),
        re.compile(r"\d\s?(?:inch(?:es)?)\b"),
        re.compile(r"\d\s?(?:yards?|yd)\b"),
    ),
    # a bound before an amount: at least / more than against at most / up to / less than
    # ("no more than" and "not more than" are the second side: the scan reads them first)
    (
        re.compile(
            r"\b(?:more|greater|higher|larger|longer|older) than\s+"
            r"(?=[$€£¥]?\d|half\b|(?:a|one) (?:third|quarter)\b|"
            rf"(?:{_COUNT_ALTERNATION})\b)"
            r"|\b(?:at least|over|above|min(?:imum)?(?: of)?)\s+(?=[$€£¥]?\d)"
            # "can exceed 6 tablets" (more than 6); "must not exceed 6" is the other side
            r"|\bexceed(?:s|ed|ing)?\s+(?=[$€£¥]?\d)"
            r"|\d[\d,.]*%?\s+or (?:more|greater|higher|above|over)\b"
        ),
        re.compile(
            r"\b(?:less|fewer|lower|smaller|shorter|younger) than\s+"
            r"(?=[$€£¥]?\d|half\b|(?:a|one) (?:third|quarter)\b|"
            rf"(?:{_COUNT_ALTERNATION})\b)"
            rf"|(?:\bno|\bnot|n't|\bnever){_BOUND_GAP}(?:more|greater|higher|larger|longer)"
            r" than\s+(?=[$€£¥]?\d)"
            rf"|(?:\bnot|n't|\bnever){_BOUND_GAP}exceed(?:ing)?\s+(?=[$€£¥]?\d)"
            r"|\b(?:at most|up to|under|below|max(?:imum)?(?: of)?)\s+"
            r"(?=[$€£¥]?\d)"
            r"|\d[\d,.]*%?\s+or (?:less|fewer|lower|below|under)\b"
        ),
    ),
    # a day of the week
    tuple(
        re.compile(rf"\b{d}s?\b")
        for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    ),
)


#: A duration: a count of a time unit ("3 years", "six-month", "14 days"). The unit is
#: found first, then the count right before it (``_COUNT_BEFORE``); "every two weeks" is
#: a rate, of the period group.
_DURATION_UNIT = re.compile(
    r"(?<![a-z])(?:(?P<s0>seconds?|secs?)|(?P<s1>minutes?|mins?)|(?P<s2>hours?|hrs?)|"
    r"(?P<s3>days?)|(?P<s4>weeks?)|(?P<s5>months?)|(?P<s6>years?|yrs?)"
    r"|(?P<s7>milliseconds?|msecs?|ms))\b"
)
_COUNT_BEFORE = re.compile(
    rf"(?<!every )(?<!each )(?<!per )(?<![\d,.])(?:\d[\d,.]*|\b(?:{_COUNT_ALTERNATION}))[\s-]?$"
)
#: A month of a date ("until March 31", "in May 2020"), found as a word first; "may" and
#: "march" only after a date word or next to a number (``_MONTH_BEFORE``, ``_MONTH_AFTER``).
_MONTH_WORD = re.compile(
    r"\b(?:(?P<s0>january|jan)|(?P<s1>february|feb)|(?P<s2>march)|(?P<s3>april|apr)|"
    r"(?P<s4>may)|(?P<s5>june|jun)|(?P<s6>july|jul)|(?P<s7>august|aug)|"
    r"(?P<s8>september|sept?)|(?P<s9>october|oct)|(?P<s10>november|nov)|"
    r"(?P<s11>december|dec))\b"
)
_MONTH_BEFORE = re.compile(
    r"(?:\b(?:in|until|till|since|by|from|through|before|after|early|late|mid|of)[\s-]+"
    r"|\d(?:st|nd|rd|th)?\s+)$"
)
_MONTH_AFTER = re.compile(r"\s+\d")
_DIGIT = re.compile(r"\d")


#: What each reader of a later group gets: the lowercase text, its set of lowercase words
#: (for a cheap test before any scan) and whether it holds a digit.
_Reader = Callable[[str, frozenset[str], bool], dict[int, str]]

_TIME_WORDS = frozenset(
    f"{unit}{plural}"
    for unit in (
        *("second", "sec", "minute", "min", "hour", "hr"),
        *("day", "week", "month", "year", "yr", "millisecond", "msec", "ms"),
    )
    for plural in ("", "s")
)


#: An age, not a duration ("children 6 years and over", "aged 12 years", "a 6-year-old"):
#: the words after the unit, or before the count.
_AGE_AFTER = re.compile(
    r"(?:\s+(?:and|or)\s+(?:over|older|above|up|under|younger|more)\b|\s+of\s+age\b"
    r"|[\s-]+old\b|\s*\+)"
)
_AGE_BEFORE = re.compile(r"\bage[ds]?\s+$")


def _duration_spans(low: str) -> list[tuple[int, str, str]]:
    """(unit side, count as written, phrase) of each counted duration of lowercase text
    ("3 years": 6, "3", "3 years"); an age ("6 years and over", "aged 12 years",
    "6-year-old") is no duration."""
    out = []
    for found in _DURATION_UNIT.finditer(low):
        count = _COUNT_BEFORE.search(low, max(0, found.start() - 24), found.start())
        if count is not None and (
            _AGE_AFTER.match(low, found.end()) or _AGE_BEFORE.search(low, 0, count.start())
        ):
            continue
        if count is not None:
            side = int(str(found.lastgroup)[1:])
            out.append((side, count.group().strip(" -"), low[count.start() : found.end()]))
    return out


def _durations(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
    out: dict[int, str] = {}
    if words.isdisjoint(_TIME_WORDS):
        return out
    for side, _, phrase in _duration_spans(low):
        out.setdefault(side, phrase)
    return out


#: Each duration unit of ``_DURATION_UNIT`` (by its group's side) as an exact multiple of
#: its family's base: milliseconds to weeks in seconds, months and years in months. A day
#: is not a whole number of months, so the two families are never compared.
_DURATION_SIZE: dict[int, tuple[str, Decimal]] = {
    0: ("clock", Decimal(1)),
    1: ("clock", Decimal(60)),
    2: ("clock", Decimal(3600)),
    3: ("clock", Decimal(86400)),
    4: ("clock", Decimal(604800)),
    5: ("calendar", Decimal(1)),
    6: ("calendar", Decimal(12)),
    7: ("clock", Decimal("0.001")),
}


def durations(text: str) -> list[tuple[str, str, tuple[str, Decimal]]]:
    """Durations written with a count in English text, with their exact length.

    Parameters
    ----------
    text : str
        A sentence or a chunk.

    Returns
    -------
    list of (str, str, (str, Decimal))
        For each duration: the count as :func:`numbers` writes it (``"36"``, ``"2"`` for
        "two"), the phrase as written, lowercased (``"36 months"``, the phrase
        :func:`opposite_cues` quotes), and its length as (family, value): ``"clock"`` in
        seconds (seconds to weeks) or ``"calendar"`` in months (months and years).
        "Every two weeks" is a rate, not a duration, and is left out.

    Examples
    --------
    >>> [(n, p) for n, p, _ in durations("The warranty lasts 3 years, or 36 months.")]
    [('3', '3 years'), ('36', '36 months')]
    >>> durations("two weeks")[0][2] == durations("14 days")[0][2]
    True
    >>> durations("2 seconds")[0][2] == durations("2000 ms")[0][2]
    True

    Chinese, Japanese and Korean durations are read with the units of their duration
    group (hours, days, weeks, months, years; a year of three or four digits is a date):

    >>> [(n, p) for n, p, _ in durations("약정 기간은 2년, 즉 24개월입니다.")]
    [('2', '2년'), ('24', '24개월')]
    >>> durations("保修期为一年。")[0][2] == durations("保修期为12个月。")[0][2]
    True
    """
    if not text.isascii():
        lang = detect_language(text)
        if is_cjk(lang):
            return _cjk_durations(normalize(text), lang)
    low = normalize(text).lower()
    out: list[tuple[str, str, tuple[str, Decimal]]] = []
    if not any(word in low for word in _TIME_WORDS):
        return out
    spans: list[tuple[str, str, tuple[str, Decimal]]] = []
    for side, written, phrase in _duration_spans(low):
        number = _norm_number(written) if written[:1].isdigit() else _NUMBER_WORDS.get(written, "")
        try:
            value = Decimal(number)
        except InvalidOperation:
            continue
        family, size = _DURATION_SIZE[side]
        spans.append((number, phrase, (family, value * size)))
    # "2 hours and 10 minutes" is one length (130 minutes, with the first count), not
    # "2 hours" (which "120 minutes" would match)
    skip: set[int] = set()
    for i, ((count, first, (family, a)), (_, second, (family2, b))) in enumerate(pairwise(spans)):
        joined = re.search(rf"{re.escape(first)}(?:,?\s+and|,)?\s+{re.escape(second)}", low)
        if joined is not None and family == family2 == "clock" and a > b and i not in skip:
            out.append((count, joined.group(), (family, a + b)))
            skip.update((i, i + 1))
    out.extend(span for i, span in enumerate(spans) if i not in skip)
    return out


#: Units of :func:`measures`: (pattern after the number, family, size in the family's
#: base unit). Metric masses in grams, volumes in millilitres, basis points in percentage
#: points, and the scale words of large amounts; what converts exactly, nothing else
#: (pounds, ounces and cups are approximate in grams and millilitres).
_MEASURE_UNITS: tuple[tuple[str, str, Decimal], ...] = (
    (r"(?:mcg|µg|μg|micrograms?)", "mass", Decimal("0.000001")),
    (r"(?:mg|milligrams?)", "mass", Decimal("0.001")),
    (r"(?:g|grams?)", "mass", Decimal(1)),
    (r"(?:kg|kilograms?|kilos?)", "mass", Decimal(1000)),
    (r"(?:ml|millilit(?:er|re)s?)", "volume", Decimal(1)),
    (r"(?:cl|centilit(?:er|re)s?)", "volume", Decimal(10)),
    (r"(?:dl|decilit(?:er|re)s?)", "volume", Decimal(100)),
    (r"(?:l|lit(?:er|re)s?)", "volume", Decimal(1000)),
    (r"(?:bps|basis points?)", "points", Decimal("0.01")),
    (r"(?:percentage points?|pp)", "points", Decimal(1)),
    (r"(?:cents?|¢)", "usd", Decimal("0.01")),
    (r"thousand", "amount", Decimal(1000)),
    (r"(?:million|mn|mln)", "amount", Decimal(10) ** 6),
    (r"(?:billion|bn|bln)", "amount", Decimal(10) ** 9),
    (r"(?:trillion|tn)", "amount", Decimal(10) ** 12),
)
_MEASURE = re.compile(
    r"(?<![\w.,])(\$\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(?:(?:("
    + ")|(".join(u for u, _, _ in _MEASURE_UNITS)
    + r"))\b(?![/-]\w)(?!\s?/\s?(?:kg|day|d|l|dl|ml)\b))?"
)


def measures(text: str) -> list[tuple[str, str, tuple[str, Decimal]]]:
    """Amounts in English text with a unit that converts exactly, with their size.

    Parameters
    ----------
    text : str
        A sentence or a chunk.

    Returns
    -------
    list of (str, str, (str, Decimal))
        For each amount: the number as :func:`numbers` writes it, the phrase as written,
        lowercased, and its size as (family, value): ``"mass"`` in grams, ``"volume"`` in
        millilitres, ``"points"`` in percentage points, ``"usd"`` in dollars ("$0.25",
        "25 cents"), ``"amount"`` for a figure with a scale word or a plain figure of
        1,000 or more ("4.2 billion", "4,200 million", "52 thousand", "52,000"). A dose
        per kilogram or per day ("10 mg/kg") is left out, as are units that convert
        only roughly (pounds, cups), and the same phrases as :func:`durations` for time.

    Examples
    --------
    >>> [(n, p, v) for n, p, (_, v) in measures("Do not exceed 4 g (4000 mg) a day.")]
    [('4', '4 g', Decimal('4')), ('4000', '4000 mg', Decimal('4.000'))]
    >>> measures("$610 million")[0][2] == measures("$0.61 billion")[0][2]
    True
    >>> measures("25 cents")[0][2] == measures("$0.25")[0][2]
    True
    """
    low = normalize(text).lower()
    out: list[tuple[str, str, tuple[str, Decimal]]] = []
    if _DIGIT.search(low) is None:
        return out
    for m in _MEASURE.finditer(low):
        dollar, figure, phrase = m.group(1), m.group(2), m.group().strip()
        value = Decimal(figure.replace(",", ""))
        number = _norm_number(figure)
        if m.lastindex is not None and m.lastindex > 2:  # a unit: group 3 + its place
            _, family, size = _MEASURE_UNITS[m.lastindex - 3]
            if dollar and family != "amount":
                continue  # "$4 g"? no amount of one kind
            out.append((number, phrase, (family, value * size)))
            if dollar:  # "$4.2 billion": a figure and money
                out.append((number, phrase, ("usd", value * size)))
        elif dollar:
            out.append((number, phrase, ("usd", value)))
            if value >= 1000:
                out.append((number, phrase, ("amount", value)))
        elif value >= 1000 and ("," in figure or ("." not in figure and len(figure) != 4)):
            # a plain figure of 1,000 or more, not a year-like four digits: "52,000"
            out.append((number, figure, ("amount", value)))
    return out


#: The units of the Chinese, Japanese and Korean duration groups of ``_CJK_GROUPS``
#: (hour, day, week, month, year, by side) as lengths, as in ``_DURATION_SIZE``.
_CJK_DURATION_SIZE: tuple[tuple[str, Decimal], ...] = (
    ("clock", Decimal(3600)),
    ("clock", Decimal(86400)),
    ("clock", Decimal(604800)),
    ("calendar", Decimal(1)),
    ("calendar", Decimal(12)),
)
_CJK_COUNT_OF = re.compile(r"\d+|[〇零一二两三四五六七八九十]+")


def _cjk_durations(text: str, lang: str) -> list[tuple[str, str, tuple[str, Decimal]]]:
    """:func:`durations` of normalised Chinese, Japanese or Korean text: each match of
    the duration group of ``_CJK_GROUPS`` (its phrase is the one :func:`opposite_cues`
    quotes), with its count in figures ("一年" -> "1")."""
    out: list[tuple[str, str, tuple[str, Decimal]]] = []
    for side, pattern in enumerate(_CJK_GROUPS[lang][0]):
        for found in pattern.finditer(text):
            count = _CJK_COUNT_OF.search(found.group())
            if count is None:
                continue
            written = count.group()
            number = written if written.isdigit() else str(_cn_value(written))
            family, size = _CJK_DURATION_SIZE[side]
            out.append((number, found.group(), (family, Decimal(number) * size)))
    out.sort(key=lambda d: text.find(d[1]))
    return out


_MONTH_WORDS = frozenset(
    (
        *_MONTHS,
        *["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"],
    )
)


def _months(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
    out: dict[int, str] = {}
    if words.isdisjoint(_MONTH_WORDS):
        return out
    for found in _MONTH_WORD.finditer(low):
        side = int(str(found.lastgroup)[1:])
        if side in out:
            continue
        if side in (2, 4) and not (
            _MONTH_BEFORE.search(low, max(0, found.start() - 12), found.start())
            or _MONTH_AFTER.match(low, found.end())
        ):
            continue  # "may" the verb, "march" the noun
        out[side] = _MONTHS[side]
    return out


#: How the patterns of an amount's unit start: a digit, then at most one space.
_AFTER_DIGIT = r"\d\s?"


def _scan(
    hints: frozenset[str] | None, group: tuple[re.Pattern[str], ...], *, digit: bool = False
) -> _Reader:
    """A reader of one group of :data:`_UNIT_GROUPS`: ``{side: form}`` of lowercase text.

    The group's sides are one pattern, a named group ``s<side>`` each (one scan of the
    text), run when the text has one of the words ``hints`` (any text when empty) and,
    with ``digit``, a digit; with None, when it has a digit, currency sign or name
    (:data:`_UNIT_HINT`)."""
    # the later sides first: "no more than" (a maximum) before "more than" (a minimum)
    sides = list(reversed(list(enumerate(group))))
    if all(p.pattern.startswith(_AFTER_DIGIT) for _, p in sides):
        # "5 mg", "10 km": the amount read once, then its unit. The scan then starts only
        # at digits (a pattern that opens with a character class is searched for it
        # first); the same matches, since a unit never starts with the optional space
        n = len(_AFTER_DIGIT)
        units = "|".join(f"(?P<s{side}>{p.pattern[n:]})" for side, p in sides)
        scan = re.compile(f"{_AFTER_DIGIT}(?:{units})")
    else:
        scan = re.compile("|".join(f"(?P<s{side}>{p.pattern})" for side, p in sides))

    def read(low: str, words: frozenset[str], has_digit: bool) -> dict[int, str]:
        out: dict[int, str] = {}
        if hints is None:
            if not (has_digit or _UNIT_HINT.search(low)):
                return out
        elif (hints and words.isdisjoint(hints)) or (digit and not has_digit):
            return out
        for found in scan.finditer(low):
            out.setdefault(int(str(found.lastgroup)[1:]), found.group().strip())
        return out

    return read


def _unit_only(read: _Reader) -> _Reader:
    """A reader that reports the unit without the amount ("$", "mg")."""

    def units(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
        found = read(low, words, digit)
        return {k: v.strip("0123456789 ") for k, v in found.items()} if found else found

    return units


#: A rank before a superlative ("the largest" against "the second largest"): the
#: superlative is found first, then what stands right before it (``_RANK_BEFORE``).
_SUPERLATIVE_WORD = re.compile(rf"\b{_SUPERLATIVE}")
_RANK_BEFORE = re.compile(
    r"(?:\b(?P<s1>second|2nd)|\b(?P<s2>third|3rd)|\b(?P<s3>fourth|4th)|\b(?P<s4>fifth|5th)"
    r"|\b(?P<s0>the|its|their|his|her|our|\w+['’]s)\s)[\s-]*$"
)


def _ranks(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
    out: dict[int, str] = {}
    if words.isdisjoint(_SUPERLATIVE_WORDS) and not {"most", "least"} & words:
        return out
    for found in _SUPERLATIVE_WORD.finditer(low):
        rank = _RANK_BEFORE.search(low, max(0, found.start() - 24), found.start())
        if rank is None:
            continue
        side = int(str(rank.lastgroup)[1:])
        form = found.group() if not side else low[rank.start() : found.end()]
        out.setdefault(side, form.strip())
    return out


_BOUND_READ = _scan(
    frozenset(
        [
            "than",
            "least",
            "most",
            "up",
            "under",
            "over",
            "above",
            "below",
            "exceed",
            "exceeds",
            "exceeded",
            "exceeding",
            "min",
            "minimum",
            "max",
            "maximum",
            "more",
            "less",
            "fewer",
            "greater",
            "higher",
            "lower",
        ]
    ),
    _UNIT_GROUPS[3],
)


def _bounds(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
    # every form but "more/less than half" (or a count in words) is followed by a digit
    return _BOUND_READ(low, words, digit) if digit or "than" in words else {}


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RANGE_TO = r"\s*(?:to|through|thru|until|till|-|–|—)\s*"


@lru_cache(maxsize=4)
def _span_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    alternation = "|".join(names)
    return re.compile(rf"\b({alternation})s?{_RANGE_TO}({alternation})s?\b")


def _spans(low: str, names: tuple[str, ...]) -> list[tuple[int, int]]:
    """(first, last) indices in ``names`` of each written range of lowercase ``low``
    ("tuesday through friday": (1, 4))."""
    return [
        (names.index(found.group(1)), names.index(found.group(2)))
        for found in _span_pattern(names).finditer(low)
    ]


def _with_ranges(read: _Reader, names: tuple[str, ...]) -> _Reader:
    """A reader that also gives every side inside a range of ``names`` ("Tuesday through
    Friday" holds Thursday): a claim naming a day inside it is no conflict."""

    def ranged(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
        out = read(low, words, digit)
        if len(out) > 1:
            for first, last in _spans(low, names):
                for k in range((last - first) % len(names) + 1):
                    side = (first + k) % len(names)
                    out.setdefault(side, names[side])
        return out

    return ranged


def range_names(text: str) -> frozenset[str]:
    """Days of the week and months a written range holds between its ends.

    "Monday to Friday" holds Tuesday, Wednesday and Thursday (and says "weekdays");
    "May through September" holds June, July and August (a range may wrap: "Friday to
    Monday" holds Saturday and Sunday). The ends themselves are left out: the text says
    them. "weekdays" holds Monday to Friday, "weekends" Saturday and Sunday.

    Parameters
    ----------
    text : str
        A sentence or a chunk, any case (English names).

    Returns
    -------
    frozenset of str
        The lowercase names inside the ranges; empty when there is none.

    Examples
    --------
    >>> sorted(range_names("Open Monday to Thursday, 9am to 5pm."))
    ['tuesday', 'wednesday']
    >>> sorted(range_names("Closed at weekends."))
    ['saturday', 'sunday']
    >>> sorted(range_names("Daily from May through August."))
    ['july', 'june']
    """
    low = text.lower()
    out: set[str] = set()
    for names in (_WEEKDAYS, _MONTHS):
        if names is _WEEKDAYS and "day" not in low:
            continue
        for first, last in _spans(low, names):
            for k in range(1, (last - first) % len(names)):
                out.add(names[(first + k) % len(names)])
            if names is _WEEKDAYS and (first, last) == (0, 4):
                out.add("weekdays")  # "Monday to Friday" says "weekdays"
    if "weekday" in low:
        out.update(_WEEKDAYS[:5])
    if "weekend" in low:
        out.update(_WEEKDAYS[5:])
    return frozenset(out)


#: A price: free ("free", "free of charge", "at no cost", "costs nothing") against an amount
#: paid ("costs $12", "a fee of €5", "charged $2"), read when the text has one of
#: ``_PRICE_WORDS``.
_PRICE_WORDS = frozenset(
    ("free", "cost", "costs", "fee", "fees", "charge", "charged", "charges", "surcharge")
)
_PRICE = (
    re.compile(
        r"\bfree(?: of charge)?\b|\b(?:at )?no (?:extra )?(?:cost|charge)\b|\bcosts? nothing\b"
    ),
    re.compile(
        r"\b(?:costs?|charged?|charges|(?:a )?fee of|price of)\s+(?:an? |only |just )?"
        r"(?:[$€£¥]\s?\d(?:[\d,.]*\d)?"
        r"|\d(?:[\d,.]*\d)?\s?(?:dollars?|euros?|pounds?|yen|usd|eur|gbp)\b)"
        # a share as a fee ("incur a 2% fee", "a fee of 3%")
        r"|\b\d(?:[\d,.]*\d)?\s?%\s+(?:fee|charge|surcharge)\b"
        r"|\b(?:fee|charge|surcharge) of \d(?:[\d,.]*\d)?\s?%"
    ),
)

#: The scale of an amount, after its number: "$2.4 million" against "$2.4 billion", "50k"
#: ("m" alone may be metres and is left out).
_SCALES: tuple[re.Pattern[str], ...] = (
    re.compile(r"\d\s?(?:thousand|k)\b"),
    re.compile(r"\d\s?(?:million|mn|mln)\b"),
    re.compile(r"\d\s?(?:billion|bn|bln)\b"),
    re.compile(r"\d\s?(?:trillion|tn)\b"),
)

#: A temperature's scale after a number: "8 °C", "8°C", "8 ° C", "8 C", "8 degrees
#: Celsius" (or centigrade) against the same in Fahrenheit ("℃" and "℉" are "°c" and "°f"
#: after NFKC).
_TEMPERATURE = re.compile(
    r"\d\s?(?:(?:°|º|deg(?:ree)?s?\.?)\s?)?(?:(?P<s0>c|celsius|centigrade)|(?P<s1>f|fahrenheit))\b"
)
_SCALE_NAMES = {"c": "C", "f": "F", "celsius": "Celsius", "fahrenheit": "Fahrenheit"}


def _temperatures(low: str, words: frozenset[str], digit: bool) -> dict[int, str]:
    out: dict[int, str] = {}
    if not digit:
        return out
    for found in _TEMPERATURE.finditer(low):
        side = 0 if found.group("s0") else 1
        # the unit as written, its scale's letter or name capitalised ("°C", "degrees
        # Fahrenheit"): the words the rest of the claim leaves out
        unit = found.group()[1:].strip()
        scale = found.group(f"s{side}")
        out.setdefault(side, unit[: len(unit) - len(scale)] + _SCALE_NAMES.get(scale, scale))
    return out


#: The groups after the periods, in the order of their keys: currencies, masses,
#: distances, durations, bounds, ranks, months, days of the week, prices, scales,
#: temperatures.
_GROUP_READERS: tuple[_Reader, ...] = (
    _unit_only(_scan(None, _UNIT_GROUPS[0])),
    _unit_only(_scan(frozenset(), _UNIT_GROUPS[1], digit=True)),
    _unit_only(_scan(frozenset(), _UNIT_GROUPS[2], digit=True)),
    _durations,
    _bounds,
    _ranks,
    _with_ranges(_months, _MONTHS),
    _with_ranges(
        _scan(frozenset(f"{d}{s}" for d in _WEEKDAYS for s in ("", "s")), _UNIT_GROUPS[4]),
        _WEEKDAYS,
    ),
    _scan(_PRICE_WORDS, _PRICE),
    _unit_only(
        _scan(
            frozenset({"thousand", "k", "million", "mn", "mln", "billion", "bn", "bln"})
            | {"trillion", "tn"},
            _SCALES,
            digit=True,
        )
    ),
    _temperatures,
)

#: Text that may hold a unit of :data:`_UNIT_GROUPS` (a digit, a currency sign or name).
_UNIT_HINT = re.compile(r"[\d$€£¥]|dollar|euro|\byen\b|\busd\b|\beur\b|\bgbp\b|\bjpy\b")


_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
_CLAUSE_END = re.compile(r"[.;!?,]\s|\bor\b|\band\b")


#: A number written right before a unit, as ``_UNIT_GROUPS`` finds the unit after a digit.
_NUMBER_END = re.compile(r"\d[\d,]*(?:\.\d+)?\s?$")
#: A currency sign right before a number ("$4", "€ 4.50"): the currency's side.
_SIGN_AMOUNT = re.compile(r"([$€£¥])\s?(\d[\d,]*(?:\.\d+)?)")
_SIGN_SIDE = {"$": 0, "€": 1, "£": 2, "¥": 3}
#: A currency code before a number ("EUR 70", "USD40") or a code or currency name after
#: it ("70 EUR", "80 dollars"); "pounds" is left out (money or weight), as in
#: :data:`_UNIT_GROUPS`.
_CODE_BEFORE = re.compile(r"\b(usd|eur|gbp|jpy)\s?(\d[\d,]*(?:\.\d+)?)")
_CODE_AFTER = re.compile(
    r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s?(usd|eur|gbp|jpy|dollars?|euros?|yen)\b"
)
_CURRENCY_WORD = re.compile(r"usd|eur|gbp|jpy|dollar|yen")
_CODE_SIDE = {"usd": 0, "dollar": 0, "eur": 1, "euro": 1, "gbp": 2, "jpy": 3, "yen": 3}


def unit_amounts(text: str, lang: str | None = None) -> dict[tuple[str, int, int], str]:
    """Amounts bound to a unit of money, mass or distance: ``{(number, group, side): form}``.

    A number counts when a currency sign stands right before it ("$4", "€4.50") or a
    mass or distance unit right after it ("4 mg", "500 g", "5 km"); groups and sides are
    those of :func:`opposite_cues` counted from the first group after the rate periods
    (0 currencies, 1 masses and volumes, 2 distances). Empty for Chinese, Japanese and
    Korean text (their units are read by the opposite-word groups).

    Parameters
    ----------
    text : str
        A claim or a chunk (normalised with NFKC first).
    lang : str, optional
        Language code; detected when omitted.

    Returns
    -------
    dict
        ``{(number, group, side): form}``: the number as :func:`numbers` writes it, the
        group and side of its unit, and the amount as written (lowercase).

    Examples
    --------
    >>> unit_amounts("Take 4 g a day, as eight 500 mg tablets.")
    {('4', 1, 1): '4 g', ('500', 1, 0): '500 mg'}
    >>> unit_amounts("Tickets cost $4 or €3.50.")
    {('4', 0, 0): '$4', ('3.5', 0, 1): '€3.50'}

    Currency codes count before or after the number, and currency names after it:

    >>> unit_amounts("A fee of EUR 70 (USD 80), or 70 euros.")
    {('70', 0, 1): 'eur 70', ('80', 0, 0): 'usd 80'}
    """
    text = normalize(text)
    return dict(_unit_amounts(text, lang or detect_language(text)))


@lru_cache(maxsize=4096)
def _unit_amounts(text: str, lang: str) -> tuple[tuple[tuple[str, int, int], str], ...]:
    """:func:`unit_amounts` of normalised ``text``, cached (a chunk is read once)."""
    if is_cjk(lang):
        return ()
    low = text.lower()
    if _DIGIT.search(low) is None:
        return ()
    found: list[tuple[int, tuple[str, int, int], str]] = []
    for sign in _SIGN_AMOUNT.finditer(low):
        key = (_norm_number(sign.group(2)), 0, _SIGN_SIDE[sign.group(1)])
        found.append((sign.start(), key, sign.group()))
    if _CURRENCY_WORD.search(low):
        for code in _CODE_BEFORE.finditer(low):
            key = (_norm_number(code.group(2)), 0, _CODE_SIDE[code.group(1)])
            found.append((code.start(), key, code.group()))
        for code in _CODE_AFTER.finditer(low):
            side = _CODE_SIDE[code.group(2).rstrip("s")]
            found.append((code.start(), (_norm_number(code.group(1)), 0, side), code.group()))
    for group in (1, 2):
        for side, pattern in enumerate(_UNIT_GROUPS[group]):
            for unit in pattern.finditer(low):
                # the pattern starts at the number's last digit: read the whole number
                number = _NUMBER_END.search(low, max(0, unit.start() - 24), unit.start() + 1)
                if number is not None and low[number.start() - 1 : number.start()] != "/":
                    # (a fraction's denominator, "70 2/4 inches", is not the amount)
                    digits = number.group().strip()
                    key = (_norm_number(digits), group, side)
                    found.append((number.start(), key, low[number.start() : unit.end()]))
    out: dict[tuple[str, int, int], str] = {}
    for _, key, form in sorted(found):
        out.setdefault(key, form)
    return tuple(out.items())


#: A number and the word right after it ("12 tablets", "5 days"), for :func:`counted_amounts`.
_COUNTED = re.compile(r"(?<![\d.,/])(\d[\d,]*(?:\.\d+)?)\s+([a-z]+)\b")


def counted_amounts(text: str, lang: str | None = None) -> dict[tuple[str, str], str]:
    """Numbers with the word they count: ``{(number, stemmed word): written form}``.

    The word is the one right after the number ("8 tablets", "20 days"); a number before
    a function word ("100 of the 2,117 passengers") is given with the word ``""``, and a
    year ("the 1992 Paralympics") is left out. Empty for Chinese, Japanese and Korean text.

    Parameters
    ----------
    text : str
        A claim or a chunk (normalised with NFKC first).
    lang : str, optional
        Language code; detected when omitted.

    Returns
    -------
    dict
        ``{(number, stem): form}``: the number as :func:`numbers` writes it, the counted
        word through :func:`stem`, and the two words as written (lowercase).

    Examples
    --------
    >>> counted_amounts("Do not take more than 8 tablets in 24 hours.")
    {('8', 'tablet'): '8 tablets', ('24', 'hour'): '24 hours'}
    """
    text = normalize(text)
    return dict(_counted_amounts(text, lang or detect_language(text)))


@lru_cache(maxsize=4096)
def _counted_amounts(text: str, lang: str) -> tuple[tuple[tuple[str, str], str], ...]:
    """:func:`counted_amounts` of normalised ``text``, cached."""
    if is_cjk(lang):
        return ()
    low = text.lower()
    if _DIGIT.search(low) is None:
        return ()
    out: dict[tuple[str, str], str] = {}
    for found in _COUNTED.finditer(low):
        word, number = found.group(2), _norm_number(found.group(1))
        if _YEAR.fullmatch(number):
            continue  # "the 1992 Paralympics" dates, it does not count
        if word in STOPWORDS or len(word) < 2:
            # "100 of the 2,117 passengers" may count what the claim counts: kept as ""
            out.setdefault((number, ""), found.group())
            continue
        out.setdefault((number, stem(word)), found.group())
    return tuple(out.items())


_YEAR = re.compile(r"1[5-9]\d\d|20\d\d")


def rate_amounts(text: str, lang: str | None = None) -> dict[tuple[str, int], str]:
    """Amounts bound to a rate period: ``{(number, side): written form}``.

    A number counts when it stands before the period phrase in the same clause, at most
    four words away ("$10 per month", "40 pallets a day"; in "$10 per month or $100 per
    year" 10 goes with the month and 100 with the year), and no other period phrase stands
    between them: an amount goes with its first period ("$12/user/month billed annually"
    is a monthly rate, billed yearly). Sides are those of
    :func:`opposite_cues`' period group. Empty for Chinese, Japanese and Korean text.

    Parameters
    ----------
    text : str
        A claim or a chunk (normalised with NFKC first).
    lang : str, optional
        Language code; detected when omitted.

    Returns
    -------
    dict
        ``{(number, side): form}``: the number as :func:`numbers` writes it, the side of
        the period group, and the words from the number to the period phrase.

    Examples
    --------
    >>> rate_amounts("The plan is $10 per month or $100 per year.")
    {('10', 4): '10 per month', ('100', 6): '100 per year'}
    >>> rate_amounts("Pro is $12/user/month billed annually.")
    {('12', 4): '12/user/month'}
    """
    text = normalize(text)
    return dict(_rate_amounts(text, lang or detect_language(text)))


@lru_cache(maxsize=4096)
def _rate_amounts(text: str, lang: str) -> tuple[tuple[tuple[str, int], str], ...]:
    """:func:`rate_amounts` of normalised ``text``, cached: a chunk is read once for all
    the claims checked against it."""
    if is_cjk(lang):
        return ()
    low = text.lower()
    out: dict[tuple[str, int], str] = {}
    spans = _period_spans(low)
    for side, (start, end) in spans:
        before = low[max(0, start - 40) : start]
        cut = list(_CLAUSE_END.finditer(before))
        if cut:
            before = before[cut[-1].end() :]
        amounts = list(_AMOUNT.finditer(before))
        if not amounts:
            continue
        last = amounts[-1]
        if len(before[last.end() :].split()) > 4:
            continue
        after = start - len(before) + last.end()
        if any(after <= other < start for _, (other, _) in spans):
            # "$12/user/month billed annually": the amount has its period ("/month"); a
            # later one says how it is billed, not what the amount is per
            continue
        number = _norm_number(last.group())
        form = re.sub(r"\s+", " ", low[start - len(before) + last.start() : end]).strip()
        out.setdefault((number, side), form)
    return tuple(out.items())


def _period_spans(low: str) -> list[tuple[int, tuple[int, int]]]:
    """(side, (start, end)) of each period phrase of lowercased English text."""
    spans: list[tuple[int, tuple[int, int]]] = []
    for m in _PERIOD_EN.finditer(low):
        if m["adj"]:
            unit, count = _PERIOD_ADJ.get(m["adj"], (6, 1))
            spans.append((_period_side(PERIODS[unit], count), m.span("adj")))
        elif m["every"]:
            word = m["count"] or "1"
            count = int(word) if word.isdigit() else _PERIOD_COUNT.get(word, 1)
            spans.append((_period_side(m["unit"], max(count, 1)), m.span("every")))
        elif m["slash"]:
            spans.append((_period_side(m["slash_unit"]), m.span("slash")))
        else:
            spans.append((_period_side(m["rate_unit"]), m.span("rate")))
    return spans


def period_group(lang: str) -> int:
    """Index of the rate-period group among :func:`opposite_cues`' keys for ``lang``.

    Parameters
    ----------
    lang : str
        Language code ("en", "zh", "ja", "ko"; others read as English).

    Returns
    -------
    int
        The ``pair`` part of the period cues' ``(pair, side)`` keys; the unit groups
        (currencies, masses, distances) follow it.

    Examples
    --------
    >>> period_group("en"), opposite_cues("It is $5 a day.")
    (56, {(56, 1): 'a day', (57, 0): '$'})
    """
    return len(_OPPOSITES.get(lang if is_cjk(lang) else "en", ()))


_MODAL_MAY = re.compile(r"\bmay\b")
#: US states and the District of Columbia with their USPS codes: an address writes the
#: code ("Goleta, CA 93117", '"state": "CA"') where prose writes the name.
US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
    "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota",
    "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
}  # fmt: skip
#: Codes that are also English words or common abbreviations ("OK", "IN", "OR", "ME",
#: "HI", "ID", "LA", "MA", "PA", ...): read as a state only as a keyed value or before a
#: ZIP code, never after a bare "City, ".
_WORDLIKE_CODES = frozenset(
    "AL AR CO DE GA HI ID IN LA MA MD ME MI MO MS MT NE OH OK OR PA SC SD UT VA".split(" ")  # noqa: SIM905
)
#: "DC" is left as it is: "Washington, DC" and "Washington, D.C." are read alike already.
_CODES = "|".join(c for c in US_STATES if c != "DC")
_PLAIN_CODES = "|".join(c for c in US_STATES if c not in _WORDLIKE_CODES and c != "DC")
_STATE_CODE = re.compile(
    # a keyed value: "state": "CA", state: CA, 'state_code': 'NY'
    rf"(?P<key>\b(?:state|state_code|province|region)['\"]?\s*[:=]\s*['\"]?)(?P<k>{_CODES})\b"
    rf"(?=['\"]|\s*[,}};\n]|\s*$)"
    # before a ZIP code: "Goleta, CA 93117", "OR 97201-1234"
    rf"|\b(?P<z>{_CODES})(?=\s+\d{{5}}(?:-\d{{4}})?\b)"
    # after a city and a comma, closing the address: "Santa Barbara, CA", "Albany, NY." (not
    # a word-like code; not "Ana Ruiz, CA, lives in Ottawa" nor "Ana Ruiz, CA (chartered
    # accountant)": a credential after a name goes on)
    rf"|(?<=[a-z], )(?P<c>{_PLAIN_CODES})\b(?=$|\n|[.;!?](?:\s|$)|['\"])",
)


def expand_state_codes(text: str, keep_code: bool = False) -> str:
    """Write the USPS state codes of addresses as the states' names.

    An address record writes ``"state": "CA"`` or "Goleta, CA 93117" where prose writes
    "Goleta, California", so the offline judge reads claims and chunks with the codes
    written out: a claim's "California" is then found, as a word, a name and a word pair.
    A code counts only where an address puts it: as a value keyed ``state``
    (``state_code``, ``province``, ``region``), before a ZIP code, or closing an address
    after "City, " (at the end of a sentence, line or quoted value) when the code is no
    English word or title ("OK", "IN", "OR", "ME", "MD" and the like need the key or the
    ZIP; "Ana Ruiz, CA, lives in Ottawa" is a credential). The codes are the USPS list of
    the 50 states; "DC" stays as written ("Washington, DC" reads as "Washington, D.C.").

    Parameters
    ----------
    text : str
        Any text.
    keep_code : bool, default False
        Write "California (CA)" instead of "California": the judge reads chunks so, so that
        a claim that writes the code where the expansion does not apply still finds it.

    Returns
    -------
    str
        ``text`` with each such code replaced by its state's name (unchanged when none).

    Examples
    --------
    >>> expand_state_codes('{"city": "Goleta", "state": "CA"}')
    '{"city": "Goleta", "state": "California"}'
    >>> expand_state_codes("Our office: 500 SW Oak St, Portland, OR 97201.")
    'Our office: 500 SW Oak St, Portland, Oregon 97201.'
    >>> expand_state_codes("It is in Albany, NY. Sure, OK. Stay OR go.", keep_code=True)
    'It is in Albany, New York (NY). Sure, OK. Stay OR go.'
    """
    if _UPPER_PAIR.search(text) is None:
        return text

    def name(m: re.Match[str]) -> str:
        code = m["k"] or m["z"] or m["c"]
        written = f"{US_STATES[code]} ({code})" if keep_code else US_STATES[code]
        return (m["key"] or "") + written

    return _STATE_CODE.sub(name, text)


_UPPER_PAIR = re.compile(r"\b[A-Z]{2}\b")
#: A rise or fall said with "up" or "down": "prices went up", "sales were down 4%", "rents
#: have gone up by 3%". Only after a form of "go" not followed by a place ("went down the
#: stairs") or, with a figure following, of "be": "set up", "shut down" and "up to 50"
#: say no change of amount.
_WENT_UP_DOWN = re.compile(
    r"\b(?P<verb>go|goes|going|gone|went)\s+(?P<went>up|down)\b"
    r"(?!\s+(?:the|a|an|this|that|these|those|his|her|their|its|our|my|your|stairs|steps)\b)"
    r"|\b(?P<be>is|are|was|were|been)\s+(?P<was>up|down)\s+(?:by\s+)?"
    r"(?:about\s+|nearly\s+|almost\s+)?[$€£¥]?\d"
)
#: The second half of a rise and a fall said in one go, its verb left out: "was down 2% in
#: Q1 but up 6% in Q2", "went up in May and (then) down in June". Read only in a text that
#: already says a rise or a fall, so that the sentence holds both sides.
_ELIDED_UP_DOWN = re.compile(
    r"\b(?:but|and|then|yet|while|whereas)\s+(?:then\s+)?(up|down)\b"
    r"(?=\s+(?:by\s+)?(?:about\s+|nearly\s+|almost\s+)?[$€£¥]?\d"
    r"|\s+(?:in|at|for|on|during|over|after|by|from|since)\b)"
)
#: ... and a clause that starts with it, once a contrast has cut the sentence in two ("up
#: 6% in Q2"), or a headline ("Down 4% on the year"): before a figure only.
_LEADING_UP_DOWN = re.compile(
    r"^\W*(up|down)\s+(?:by\s+)?(?:about\s+|nearly\s+|almost\s+)?[$€£¥]?\d"
)
#: "every" or "each" before a noun is the "all" side of the all/some pair ("Every store
#: has a pharmacy" against "Some stores have a pharmacy"); before a period or a count
#: ("every day", "each year", "every two weeks", "every other day") it is a rate, which
#: the period group reads.
_EVERY_EACH = re.compile(
    r"\b(every|each)\s+(?:of\s+(?:the|our|its|their|these|those)\s+|single\s+)?"
    r"(?!(?:hour|day|night|week|month|quarter|year|dose|minute|second|time|morning|evening|"
    r"afternoon|weekend|season|term|semester|cycle|period|other|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|twelve|few|couple|several|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|january|february|march|april|may|june|july|august|september|october|"
    r"november|december)s?\b)(?=[a-z])"
)
#: "most" as a quantifier is the "some" side of the all/some pair ("Most stores open on
#: Sundays" against a claim that all do; a claim of "most" where the context says "all" is
#: implied): before "of the ..." or a plural noun, not after "the" or "a" ("the most
#: popular", "a most serious case") nor before an adjective in -ous or -ss.
_MOST = re.compile(
    r"(?<!\bthe )(?<!\ba )\bmost\s+"
    r"(?:of\s+(?:the|our|its|their|these|those|them)\b|(?![a-z]*(?:ous|ss)\b)[a-z]+s\b)"
)
#: A share below the whole of a group ("58% of artists", "40 percent of the staff"): part
#: of it, not all of it ("Every artist made a loss" against "58% of artists made a loss").
_SHARE_OF = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)\s+of\b")
_INCREASE_PAIR = next(i for i, sides in enumerate(_OPPOSITES["en"]) if "rose" in sides[0])
_ALL_PAIR = next(i for i, sides in enumerate(_OPPOSITES["en"]) if sides[0] == {"all"})


def opposite_cues(text: str, lang: str | None = None) -> dict[tuple[int, int], str]:
    """Words of ``text`` that have a listed opposite, as ``{(pair, side): word}``.

    English words are matched whole and lowercased ("rose" vs "fell", "men" vs
    "women"); Chinese, Japanese and Korean forms as substrings ("座っ" vs "立っ").
    After the pairs comes one group for the rate periods of ``PERIODS`` (hour, day, night,
    week, month, quarter, year, dose: "hourly", "per night", "twice a week",
    "$500/month", "monthly", "$120 a year", "annual", "per dose", 每年, 毎月, 매일), a side
    per period and count ("every two weeks" is week, 2: side 3 + 8); any two of its sides
    exclude each other. In languages other than Chinese, Japanese and Korean three
    groups of units follow: currencies ($, €, £, ¥), masses (mg, g, kg, mcg, and a dose
    per kilogram such as "10 mg/kg", after a number) and distances (km, miles after a
    number); then durations, bounds, ranks, months, weekdays, prices ("free" against
    "costs $12"), scales ("million" against "billion") and temperatures ("8 °C" against
    "8 °F").

    Examples
    --------
    >>> opposite_cues("Sales rose in spring.")
    {(0, 0): 'rose'}
    >>> opposite_cues("男性が座っている。")
    {(6, 0): '男', (8, 0): '座っ'}
    >>> opposite_cues("The fee is $120 a year.")
    {(56, 6): 'a year', (57, 0): '$'}
    """
    text = normalize(text)
    lang = lang or detect_language(text)
    n_pairs = period_group(lang)
    out: dict[tuple[int, int], str] = {}
    low = text.lower()
    if is_cjk(lang):
        for i, sides in enumerate(_CJK_OPPOSITE_ORDER.get(lang, ())):
            for side, forms in enumerate(sides):
                for form in forms:
                    if form in text:
                        out[(i, side)] = form
                        break
    else:
        words = frozenset(_LOWER_WORD.findall(low))
        listed = words & _OPPOSITE_WORDS
        if "may" in listed and _MODAL_MAY.search(text) is None:
            listed -= {"may"}  # only the month ("in May"), no permission
        first: dict[tuple[int, int], str] = {}
        for word in listed:
            for key in _OPPOSITE_KEYS[word]:
                if key not in first or word < first[key]:
                    first[key] = word  # the first word in sort order, as before
        phrased: list[tuple[tuple[int, int], str]] = []
        if "up" in words or "down" in words:
            ways: list[tuple[str, str]] = []  # (up or down, the form a reason quotes)
            for m in _WENT_UP_DOWN.finditer(low):
                way = m["went"] or m["was"]
                ways.append((way, f"{m['verb'] or m['be']} {way}"))
            if ways or any(pair == _INCREASE_PAIR for pair, _ in first):
                ways.extend((m.group(1), m.group(1)) for m in _ELIDED_UP_DOWN.finditer(low))
            lead = _LEADING_UP_DOWN.match(low)
            if lead is not None:
                ways.append((lead.group(1), lead.group(1)))
            phrased.extend(((_INCREASE_PAIR, int(way == "down")), form) for way, form in ways)
        if "every" in words or "each" in words:
            phrased.extend(((_ALL_PAIR, 0), m.group(1)) for m in _EVERY_EACH.finditer(low))
        if "most" in words and _MOST.search(low):
            phrased.append(((_ALL_PAIR, 1), "most"))
        if "%" in low or "cent" in low:
            phrased.extend(((_ALL_PAIR, 1), m.group(0)) for m in _SHARE_OF.finditer(low))
        for key, form in phrased:
            if key not in first or form < first[key]:
                first[key] = form
        for key in sorted(first):
            out[key] = first[key]
    # the rate periods: one more group, after the pairs; then the units of amounts
    for side, form in _period_cues(text, lang).items():
        out[(n_pairs, side)] = form
    if is_cjk(lang):
        for g, patterns in enumerate(_CJK_GROUPS.get(lang, ()), start=n_pairs + 1):
            for side, pattern in enumerate(patterns):
                found = pattern.search(text)
                if found is not None:
                    out[(g, side)] = found.group()
    else:
        digit = _DIGIT.search(low) is not None
        for g, read in enumerate(_GROUP_READERS, start=n_pairs + 1):
            for side, form in read(low, words, digit).items():
                out[(g, side)] = form
    return out


_REFUSAL = re.compile(
    r"^\W*(i'?m |i am |we are |we're )?(so )?sorry\b"
    r"|^\W*(unfortunately,? )?i (could ?n[o']t|can ?n[o']t|can't|cannot|was unable to|am unable to|"
    r"do ?n[o']t have enough)\b.*\b(find|answer|locate|determine|provide|information)"
    r"|^\W*i do ?n[o']t know\b"
    r"|^\W*(?:sorry,? |unfortunately,? )?(?:i|we) (?:do ?n[o']t|do not|have no|did ?n[o']t) (?:have |find )?"
    r"(?:any |enough |the |that |this )?(?:information|details|data|answer)\b(?!.*\bbut\b)"
    r"|\bthe ((provided|given|above|retrieved|available) )?(documents?|context|passages?|texts?|"
    r"sources?|information)( (provided|given|above|retrieved|available|here|you (provided|gave|"
    r"shared)))? (do(es)? ?n[o']t|did ?n[o']t|do(es)? not) (contain|mention|include|provide|say|"
    r"specify|state|give|indicate|cover|list|offer|reveal|disclose)\b"
    r"|\bunable to answer\b"
    # declining to help or to discuss a topic: "I'm not able to help with refunds", "I can't
    # discuss billing matters", "I don't have access to your location"
    # (the assistant's "I" only: "We are unable to provide refunds" and "We won't share
    # your data" are facts about a business)
    r"|^\W*(?:sorry,? |unfortunately,? )?(?:i'?m|i am) (?:not able|unable) to "
    r"(?:help|assist|answer|discuss|comment|advise)\b(?!\s+but\b)"
    r"|^\W*(?:sorry,? |unfortunately,? )?i (?:can ?n[o']t|can't|cannot|won't|will not|"
    r"am not allowed to|am not permitted to) (?:help|assist|discuss|comment|advise|"
    r"give (?:advice|information)|answer|tell you|say)\b(?!\s+but\b)"
    r"|^\W*(?:sorry,? |unfortunately,? )?i (?:do ?n[o']t|do not) have access to\b"
    # a bare referral with no contact detail: "Please contact our support team for help."
    r"|^\W*please (?:contact|reach out to|call|ask|consult|speak (?:to|with)) "
    r"[a-z' -]{0,40}?(?:\bfor (?:help|assistance|support|more (?:information|details)|"
    r"further (?:help|assistance|information|details))|\bteam|\bdepartment|\bdesk|"
    r"\bservice|\bsupport|\bcent(?:er|re)|\bus)\W*$"
    r"|^\W*(?:(?:i'?m|i am|we'?re|we are)\s+)?(?:not\s+(?:really\s+|quite\s+|entirely\s+"
    r"|completely\s+|totally\s+|absolutely\s+|100%\s+)?sure|unsure|uncertain)"
    r"(?:\s+(?:about|of)\s+(?:this|that|it))?\W*$"
    r"|^\W*(?:i\s+have\s+|i'?ve\s+(?:got\s+)?)?no\s+idea"
    r"(?:\W*$|\s+(?:what|how|where|who|when|why|which|if|whether)\b)|^\W*(?:unknown|n/?a|not\s+known|no\s+answer)\W*$"
    # German, French, Spanish, Portuguese: "I don't know", "no information", "sorry"
    r"|\b(?:ich weiß (?:es )?(?:leider )?nicht|weiß ich (?:leider )?nicht|dazu (?:habe ich|liegen)"
    r" (?:leider )?keine|kann (?:ich )?(?:diese frage |das )?(?:leider )?nicht beantworten)\b"
    r"|^\W*(?:es )?tut mir leid\b|^\W*leider (?:weiß|kann|habe) ich\b"
    r"|\bje ne sais pas\b|^\W*(?:je suis )?désolée?\b|\bje n'ai pas (?:cette |l')?information"
    r"|\bno (?:lo )?sé\b|^\W*lo siento\b|\bno tengo (?:esa |suficiente )?información"
    r"|\bnão sei\b|^\W*desculpe\b"
    r"|(抱歉|对不起|无法回答|没有找到|未提及|不知道|不清楚|不确定|申し訳|見つかりません|"
    r"記載されていません|分かりません|わかりません|知りません|죄송|찾을 수 없|언급되어 있지 않|"
    r"알 수 없|모르겠습니다|모릅니다)",
    re.IGNORECASE,
)


#: A hedge or apology that opens a sentence and hands over to the fact after it: "Not
#: really, ...", "I'm not sure, but ...", "I don't know but ...", "Sorry, but ..." (an
#: apology only before "but"). Its "not" is about the speaker's certainty, not the fact.
#: Shared by :func:`is_refusal` (what follows decides) and the offline judge (the fact
#: is checked without it).
HEDGE_LEAD = re.compile(
    r"^\W*(?:(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+)?not\s+(?:really|(?:really\s+|quite\s+"
    r"|entirely\s+|completely\s+|totally\s+|100%\s+)?sure|exactly)"
    r"\s*(?:[,.;:!]|\s+but\b)"
    r"|i\s+(?:do\s*n[o']?t|do\s+not)\s+know\s*(?:[,.;:!]|\s+but\b)"
    r"|(?:(?:i'?m|i\s+am)\s+)?(?:so\s+|very\s+)?sorry\s*,?\s+but\b"
    r")\s*(?:but\b\s*)?",
    re.IGNORECASE,
)


def is_refusal(sentence: str) -> bool:
    """Whether a sentence only declines to answer or says the sources lack the answer.

    Such sentences carry no claim about the world; the offline judge drops them from
    an answer's claims, so a pure refusal has no claims (status ``no_claims``).

    Examples
    --------
    >>> is_refusal("Sorry, I could not find that in the provided documents.")
    True
    >>> is_refusal("The provided passages do not mention the opening year.")
    True
    >>> is_refusal("The museum opened in 1998.")
    False
    >>> is_refusal("抱歉，我无法回答这个问题。")
    True

    An apology or a hedge followed by "but" is a refusal only when what follows is one:

    >>> is_refusal("Sorry, but the museum opened in 1998.")
    False
    >>> is_refusal("I don't know, but the documents do not mention it.")
    True
    """
    sentence = sentence.replace("\u2019", "'")
    m = HEDGE_LEAD.match(sentence)
    if m and re.search(r"\w", sentence[m.end() :]):
        return is_refusal(sentence[m.end() :])
    return bool(_REFUSAL.search(sentence))


#: Who a referral sends the reader to: a person or a service ("your pharmacist", "our
#: support team", "a lawyer"), up to three words before the noun.
_REFERRAL_TO = (
    r"(?:doctors?|physicians?|gps?|nurses?|pharmacists?|dentists?|clinicians?|prescribers?"
    r"|vets?|veterinarians?|(?:health ?care|medical) (?:providers?|professionals?|teams?)"
    r"|lawyers?|attorneys?|solicitors?|accountants?|tax (?:advisers?|advisors?|professionals?)"
    r"|advis[eo]rs?|specialists?|experts?|professionals?|support|helpdesk|help desk"
    r"|customer (?:service|care|support)|(?:support|sales|billing|it|account) team"
    r"|account manager|administrators?|admins?|it department|manager|representatives?"
    r"|agents?|insurers?|banks?|landlords?|employers?|hr|human resources|us|someone"
    # or a place to read it: "the official website", "their documentation"
    r"|web ?sites?|sites?|web ?pages?|documentation|docs|announcements|news|records"
    r"|(?:official|primary) sources?)"
)
#: A sentence that only refers the reader to someone: "Please ask your pharmacist.",
#: "Contact support for billing questions.", "You should consult your doctor." A
#: purpose of up to four words and no number ("for billing questions", "about your dose")
#: may follow; a condition or a time ("before taking this medicine", "if symptoms
#: persist") is advice of its own.
_REFERRAL = re.compile(
    r"^\W*(?:(?:so |instead,? )?please,? |(?:i'?d |i would |we |i )?(?:recommend|suggest)"
    r"(?: that)? (?:you )?|you (?:should|may want to|might want to|can|could) |"
    r"(?:it'?s|it is) best to )?"
    r"(?:ask|contact|consult(?: with)?|check with|reach out to|talk to|talk with|speak to"
    r"|speak with|call|see|email|message|get in touch with|check|visit|look at|refer to|go to)"
    rf" (?:(?:your|a|an|the|our|their|qualified|local|licensed|own|official|relevant)\s+){{0,3}}"
    rf"{_REFERRAL_TO}"
    r"(?:\s+(?:for|about|regarding|with)(?:\s+[a-z'-]+){1,4})?"
    r"(?:,?\s+if you have (?:any )?(?:(?:further|more|other) )?(?:questions|concerns))?"
    r"\W*$",
    re.IGNORECASE,
)


def is_referral(sentence: str) -> bool:
    """Whether a sentence only refers the reader to a person or a service.

    "Please ask your pharmacist.", "Contact support for billing questions." and "Consult
    your doctor." say whom to ask, not anything about the world. The offline judge drops
    such a sentence from an answer's claims only when every other sentence of the answer
    is a refusal (:func:`is_refusal`), so "I can't give medical advice. Please ask your
    pharmacist." has no claims, as a plain refusal has none. On its own, or next to an
    answer, a referral stays a claim: "Consult your doctor before taking this medicine."
    may be what the label says. A condition or a time after the person ("before taking
    this medicine", "if symptoms persist") makes the sentence advice of its own, never a
    bare referral.

    Parameters
    ----------
    sentence : str
        One sentence or claim.

    Returns
    -------
    bool
        True when the sentence is a referral and nothing else.

    Examples
    --------
    >>> is_referral("Please ask your pharmacist.")
    True
    >>> is_referral("Please contact support for billing questions.")
    True
    >>> is_referral("Consult your doctor before taking this medicine.")
    False
    >>> is_referral("Take 1 tablet every 4 hours.")
    False
    """
    return _REFERRAL.match(sentence.replace("\u2019", "'").strip()) is not None


#: "be" and "have", in both lists below: a list can follow them, an item cannot hold them.
_BE_HAVE = frozenset(["is", "are", "was", "were", "be", "been", "has", "have", "had"])
#: List items (``list_items``): the words after which a sentence's closing list starts
#: ("Enterprise *includes* A, B and C", "It interacts *with* A, B or C").
_LIST_HEAD = _BE_HAVE | frozenset(
    [
        "include",
        "includes",
        "included",
        "including",
        "contain",
        "contains",
        "contained",
        "offer",
        "offers",
        "offered",
        "support",
        "supports",
        "supported",
        "provide",
        "provides",
        "provided",
        "cover",
        "covers",
        "covered",
        "feature",
        "features",
        "featured",
        "require",
        "requires",
        "required",
        "need",
        "needs",
        "allow",
        "allows",
        "allowed",
        "get",
        "gets",
        "gives",
        "give",
        "lists",
        "list",
        "with",
        "without",
        "for",
        "like",
        "as",
        "such",
        "among",
        "cause",
        "causes",
        "caused",
        "treat",
        "treats",
        "treated",
        "affect",
        "affects",
        "comes",
        "come",
        "add",
        "adds",
        "added",
        "from",
    ]
)
#: Words an item of a noun-phrase list does not hold (a verb or a clause starts there).
_LIST_NOT_ITEM = _BE_HAVE | frozenset(
    [
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "shall",
        "that",
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "because",
        "if",
        "not",
        "no",
        "never",
    ]
)
#: A head with one of these is a condition or a denial, not a plain statement of a list.
_LIST_NOT_HEAD = frozenset(
    ["if", "when", "unless", "whether", "although", "though", "because", "not", "no", "never"]
)
_LIST_PREP = frozenset(
    ["in", "on", "at", "from", "to", "by", "of", "for", "with", "into", "onto", "about"]
)
_LIST_DET = frozenset(
    [
        "a",
        "an",
        "the",
        "his",
        "her",
        "its",
        "their",
        "this",
        "that",
        "these",
        "those",
        "my",
        "our",
        "your",
    ]
)
_LIST_TAIL = re.compile(
    r"^(.*[^\s,])(,?\s+(?:and|or)\s+)(.+?)([.!]?)\s*$", re.IGNORECASE | re.DOTALL
)
_LIST_OPEN = re.compile(r"[\"“”'‘’()\[\]{}:;]")
#: An item of at most this many words (a noun phrase, not a clause).
LIST_ITEM_WORDS = 4
#: A list needs this many items.
_LIST_MIN_ITEMS = 3


def list_items(sentence: str, lang: str | None = None) -> list[str]:
    """Split a sentence whose predicate ends in a list into one sentence per item.

    "Enterprise includes unlimited storage, SAML SSO, audit logs and a 99.95% uptime
    SLA." becomes "Enterprise includes unlimited storage.", "Enterprise includes SAML
    SSO." and so on: each item with the words before the list, up to its last verb or
    preposition of a short list ("includes", "are", "with", "such as", "from" ...). The
    list must close the sentence, hold at least three items separated by ", " with a final
    "and" or "or", and each item must be a short noun phrase (at most ``LIST_ITEM_WORDS``
    words, no verb such as "is" or "has", no "that"/"which", not led by a preposition).
    Anything else is returned whole: a sentence with quotes, brackets, a colon, a
    semicolon or a JSON-like brace; a list after "if", "when" or a negation ("does not
    offer A, B or C"); a name and its apposition ("Walter Camp, a Yale graduate"); a date
    ("March 3, 2020"); numbers written with a comma ("1,000"); and Chinese, Japanese and
    Korean text (a 、 list is left whole: the CJK claims are read as character bigrams
    against a lower bar, and no benchmark set measures the split).

    Parameters
    ----------
    sentence : str
        One claim (a sentence or a clause of one).
    lang : str, optional
        Language code; detected when omitted.

    Returns
    -------
    list of str
        One sentence per item, each ending with the sentence's full stop, or
        ``[sentence]`` when it is not read as a list.

    Examples
    --------
    >>> list_items("Symptoms include nausea, vomiting and dizziness.")
    ['Symptoms include nausea.', 'Symptoms include vomiting.', 'Symptoms include dizziness.']
    >>> list_items("Pro includes phone support, SAML SSO, and audit logs.")
    ['Pro includes phone support.', 'Pro includes SAML SSO.', 'Pro includes audit logs.']
    >>> list_items("He moved to Oslo, opened a bakery and won a prize.")
    ['He moved to Oslo, opened a bakery and won a prize.']
    """
    lang = lang or detect_language(normalize(sentence))
    if is_cjk(lang) or "{" in sentence or _LIST_OPEN.search(sentence):
        return [sentence]
    m = _LIST_TAIL.match(sentence.strip())
    if not m:
        return [sentence]
    before, last, stop = m.group(1), m.group(3).strip(), m.group(4)
    segs = [s.strip() for s in re.split(r",\s+", before)]
    if len(segs) < _LIST_MIN_ITEMS - 1 or any(not s for s in segs):
        return [sentence]
    first = segs[0].split()
    # the first item's own last word may be one of those words too ("includes priority
    # support, ..."): the list starts after the last such word before it
    heads = [i for i, w in enumerate(first[:-1]) if w.lower() in _LIST_HEAD | _LIST_PREP]
    if not heads:
        return [sentence]
    # a preposition starts the list ("is closed on Monday, Tuesday and Friday", "comes in
    # red, blue and green") unless the verb before it has an object of its own ("includes
    # a tripod for travel, a bag and a strap": the items are what it includes)
    at = heads[-1]
    verbs = [i for i in heads if first[i].lower() not in _LIST_PREP and i < at]
    if first[at].lower() in _LIST_PREP and verbs:
        between = {w.lower() for w in first[verbs[-1] + 1 : at]}
        if between & _LIST_DET:
            at = verbs[-1]
    cut = at + 1
    if cut >= len(first):
        return [sentence]
    head = " ".join(first[:cut])
    if {w.lower().strip(",") for w in first[:cut]} & _LIST_NOT_HEAD:
        return [sentence]
    items = [" ".join(first[cut:]), *segs[1:], last]
    for k, item in enumerate(items):
        words = item.split()
        low = [w.lower().strip(".,") for w in words]
        if not 0 < len(words) <= LIST_ITEM_WORDS:
            return [sentence]
        # a verb or a clause inside an item; a noun that can be a verb ("support",
        # "features", "cover") may end an item ("phone support"), not stand inside one
        if set(low) & _LIST_NOT_ITEM or set(low[:-1]) & _LIST_HEAD:
            return [sentence]
        if (len(low) > 1 and low[1] in _LIST_DET) or low[0] in _LIST_PREP:
            return [sentence]
        # "Walter Camp, a Yale graduate": a name and what it is, not two items
        if k == 1 and items[0].split()[-1][:1].isupper() and low[0] in ("a", "an", "the"):
            return [sentence]
        # "March 3, 2020": a year after a day is one date, not an item
        if k and re.fullmatch(r"\d{4}", low[0]) and re.search(r"\d$", items[k - 1]):
            return [sentence]
    return [f"{head} {item}{stop or '.'}" for item in items]
