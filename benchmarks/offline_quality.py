"""Measure the OfflineJudge against human / gold labels and two unigram baselines.

Usage::

    LITELLM_LOCAL_MODEL_COST_MAP=True .venv/bin/python benchmarks/offline_quality.py
    .venv/bin/python benchmarks/offline_quality.py --half tune --no-timing

Every dev file is split into two deterministic halves by a hash of the row id:
``tune`` (thresholds are chosen there) and ``check`` (reported as held-out).
``--half all`` pools both halves (the unigram judge keeps its tune-half threshold); it
is the best estimate for new rows from the same sources, but not a held-out number. The
script prints a markdown table with, per dataset and metric, the offline judge,
the baselines, the target and pass/fail, then the speed of the judge on 1,000 rows
x 3 metrics.

Metrics
-------
* faithfulness AUROC: score = share of the answer's extracted claims verified
  ``yes`` (0 when there are no claims), against the dataset's "faithful" label.
* chunk-relevance balanced accuracy of ``judge_chunks`` yes/no against
  ``context_labels`` (reference = ground truth, plus the question).
* recall sanity: mean context recall by group.

Baselines
---------
* **unigram judge** (the primary one, the issue's "ten-line unigram overlap"): the
  same sentence split as the judge; a sentence is ``yes`` when at least a share
  ``t`` of its lowercase word tokens (CJK: characters) occur in the row's chunks;
  faithfulness = yes / sentences. ``t`` is picked per dataset on the tune half
  (best AUROC) and reused unchanged on the check half. The code::

      def unigram_judge_faith(answer, contexts, t):
          ctx = set(unigrams(" ".join(contexts)))
          claims = split_sentences(answer or "")
          yes = 0
          for claim in claims:
              toks = unigrams(claim)
              if toks and sum(tok in ctx for tok in toks) / len(toks) >= t:
                  yes += 1
          return yes / len(claims) if claims else 0.0

* **token share (continuous)**: the share of all the answer's unigrams found in the
  chunks, a continuous score (informative only: it is not a yes/no judge).
* relevance: share of reference + question unigrams found in the chunk, with the
  best threshold found on the same half (an optimistic baseline).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragnotebook.judges.offline import OfflineJudge  # noqa: E402
from ragnotebook.tasks import Item, Task  # noqa: E402
from ragnotebook.text import split_sentences  # noqa: E402

DATA = Path(os.environ.get("RAGNOTEBOOK_DATASETS", "/work/shared/datasets"))

Row = dict[str, Any]


# --------------------------------------------------------------------------- data


def load(rel: str) -> list[Row]:
    """Read a JSONL file under the datasets folder."""
    with open(DATA / rel, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def half(row: Row) -> str:
    """Deterministic half of a row: ``"tune"`` or ``"check"`` (hash of its id)."""
    digest = hashlib.sha256(str(row["id"]).encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "check"


FAITH_SETS: dict[str, tuple[str, Callable[[Row], bool | None], str]] = {
    # name: (file, label (True = faithful; None = skip), target)
    "RAGTruth QA": ("ragtruth/ragtruth_qa.jsonl", lambda r: not r["hallucinated"], ""),
    "RAGTruth summary": ("ragtruth/ragtruth_summary.jsonl", lambda r: not r["hallucinated"], ""),
    "RAGTruth data2txt": ("ragtruth/ragtruth_data2txt.jsonl", lambda r: not r["hallucinated"], ""),
    "BEGIN (no Generic)": (
        "begin_wow/begin_wow.jsonl",
        lambda r: None if r["begin_label"] == "Generic" else r["faithful"],
        ">= 0.90",
    ),
    "FaithBench (strict)": ("faithbench/faithbench_400.jsonl", lambda r: r["faithful_strict"], ""),
    "HaluEval QA": ("halueval_qa/halueval_qa_pairs.jsonl", lambda r: r["faithful"], ""),
    "KLUE-NLI ko": ("cjk_nli/klue_nli_ko.jsonl", lambda r: r["faithful"], ""),
    "JNLI ja": ("cjk_nli/jnli_ja.jsonl", lambda r: r["faithful"], ""),
}

REL_SETS: dict[str, tuple[str, str]] = {
    "HotpotQA fullwiki": ("hotpotqa/hotpotqa_fullwiki_dev_250.jsonl", ">= 0.80"),
    "HotpotQA distractor": ("hotpotqa/hotpotqa_distractor_train_99.jsonl", ""),
    "RGB zh": ("rgb_zh/rgb_zh_refine_300.jsonl", ""),
    "CJK MRC ja (JSQuAD)": ("cjk_mrc/jsquad_ja_250.jsonl", ""),
    "CJK MRC zh (CMRC)": ("cjk_mrc/cmrc2018_zh_200.jsonl", ""),
}


# --------------------------------------------------------------------------- stats


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Area under the ROC curve by average ranks (ties count half)."""
    pairs = sorted(zip(scores, labels, strict=True), key=lambda p: p[0])
    n = len(pairs)
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and pairs[j + 1][0] == pairs[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    n_pos = sum(1 for _, y in pairs if y)
    n_neg = n - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    rank_sum = sum(r for r, (_, y) in zip(ranks, pairs, strict=True) if y)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def balanced_accuracy(pred: Sequence[bool], gold: Sequence[bool]) -> float:
    """Mean of the true-positive and true-negative rates."""
    tp = sum(1 for p, g in zip(pred, gold, strict=True) if p and g)
    tn = sum(1 for p, g in zip(pred, gold, strict=True) if not p and not g)
    n_pos = sum(gold)
    n_neg = len(gold) - n_pos
    return 0.5 * (tp / max(n_pos, 1) + tn / max(n_neg, 1))


def best_threshold_bacc(scores: Sequence[float], gold: Sequence[bool]) -> tuple[float, float]:
    """Best balanced accuracy over all thresholds ``score >= t`` (and that t)."""
    best = (0.0, 0.0)
    for t in sorted(set(scores)):
        b = balanced_accuracy([s >= t for s in scores], gold)
        if b > best[0]:
            best = (b, t)
    return best


# --------------------------------------------------------------------------- baseline

_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def unigrams(text: str) -> list[str]:
    """Lowercase word tokens; CJK text is taken character by character."""
    toks = re.findall(r"[^\W_]+", (text or "").lower())
    return [c for t in toks for c in (list(t) if _CJK_CHAR.search(t) else [t])]


# The primary baseline, "a ten-line unigram overlap" judge plugged into the same
# faithfulness metric: the same sentence split, a claim is ``yes`` when the share of its
# lowercase word tokens (CJK: characters) found in the row's chunks is >= t, and the
# score is yes / claims. t is chosen on the tune half (best AUROC) and reused on check.
def unigram_judge_faith(answer: str, contexts: Sequence[str], t: float) -> float:
    """Baseline judge: share of sentences whose unigrams are >= t found in the chunks."""
    ctx = set(unigrams(" ".join(contexts)))
    claims = split_sentences(answer or "")
    yes = 0
    for claim in claims:
        toks = unigrams(claim)
        if toks and sum(tok in ctx for tok in toks) / len(toks) >= t:
            yes += 1
    return yes / len(claims) if claims else 0.0


UNIGRAM_T_GRID = [i / 20 for i in range(1, 20)]


def unigram_faith(answer: str, contexts: Sequence[str]) -> float:
    """Second baseline: share of the answer's tokens found anywhere in the contexts."""
    a = unigrams(answer)
    ctx = set(unigrams(" ".join(contexts)))
    return sum(t in ctx for t in a) / len(a) if a else 0.0


def unigram_rel(reference: str, question: str, chunk: str) -> float:
    """Baseline: share of reference + question tokens found in the chunk."""
    ref = unigrams(f"{reference} {question}")
    ch = set(unigrams(chunk))
    return sum(t in ch for t in ref) / len(ref) if ref else 0.0


# --------------------------------------------------------------------------- judge calls


def run(judge: OfflineJudge, task: Task) -> Any:
    """Call the judge's async API (one event loop per call is too slow; reuse one)."""
    return LOOP.run_until_complete(judge.acomplete(task))


LOOP = asyncio.new_event_loop()


def faith_score(judge: OfflineJudge, row: Row) -> float:
    """Faithfulness: extract claims from the answer, verify them, share of ``yes``."""
    claims, verdicts = claim_verdicts(judge, row)
    return sum(v == "yes" for v in verdicts) / len(claims) if claims else 0.0


def claim_verdicts(judge: OfflineJudge, row: Row) -> tuple[list[str], list[str]]:
    """The answer's extracted claims and the judge's verdict on each."""
    claims = run(
        judge,
        Task(
            "extract_claims",
            "faithfulness",
            question=row.get("question"),
            text=row["answer"] or "",
            source="answer",
        ),
    ).claims
    if not claims:
        return [], []
    items = tuple(Item(i, c) for i, c in enumerate(claims))
    out = run(
        judge,
        Task(
            "verify_claims",
            "faithfulness",
            question=row.get("question"),
            items=items,
            chunks=tuple(row["contexts"]),
        ),
    )
    return list(claims), [v.verdict for v in out.verdicts]


def recall_score(judge: OfflineJudge, row: Row, reference: str) -> float:
    """Context recall: claims of the reference attributed to the contexts."""
    claims = run(
        judge,
        Task(
            "extract_claims",
            "context_recall",
            question=row.get("question"),
            text=reference,
            source="ground_truth",
        ),
    ).claims
    if not claims:
        return 0.0
    items = tuple(Item(i, c) for i, c in enumerate(claims))
    out = run(
        judge,
        Task(
            "attribute_claims",
            "context_recall",
            question=row.get("question"),
            items=items,
            chunks=tuple(row["contexts"]),
        ),
    )
    return sum(v.verdict == "yes" for v in out.verdicts) / len(claims)


def chunk_verdicts(judge: OfflineJudge, row: Row) -> list[bool]:
    """judge_chunks yes/no per context (reference = ground truth, else answer)."""
    ref = row.get("ground_truth") or row.get("answer") or ""
    items = tuple(Item(i, c) for i, c in enumerate(row["contexts"]))
    out = run(
        judge,
        Task(
            "judge_chunks", "context_precision", question=row.get("question"), text=ref, items=items
        ),
    )
    return [v.verdict == "yes" for v in out.verdicts]


# --------------------------------------------------------------------------- report


def faith_rows(name: str) -> list[tuple[Row, bool]]:
    path, label, _ = FAITH_SETS[name]
    out = []
    for r in load(path):
        y = label(r)
        if y is not None and r.get("answer") is not None:
            out.append((r, bool(y)))
    return out


def evaluate(judge: OfflineJudge, which: Iterable[str] = ("tune", "check")) -> list[list[str]]:
    """Compute every line of the table for the given halves.

    Faithfulness lines show the offline judge, the unigram judge (threshold chosen on the
    tune half) and the continuous token share; relevance lines show the offline judge
    and the unigram score with its best threshold.
    """
    table: list[list[str]] = []
    rt: dict[str, list[float]] = {h: [] for h in which}
    rt_base: dict[str, list[float]] = {h: [] for h in which}
    for name, (_, _, target) in FAITH_SETS.items():
        data = faith_rows(name)
        parts = {h: [(r, y) for r, y in data if half(r) == h] for h in ("tune", "check")}
        parts["all"] = data

        def base_auroc(h: str, t: float, parts: dict[str, list[tuple[Row, bool]]] = parts) -> float:
            p = parts[h]
            scores = [unigram_judge_faith(r["answer"], r["contexts"], t) for r, _ in p]
            return auroc(scores, [y for _, y in p])

        best_t = max(UNIGRAM_T_GRID, key=lambda t: (base_auroc("tune", t), -t))
        for h in which:
            part = parts[h]
            ys = [y for _, y in part]
            off = auroc([faith_score(judge, r) for r, _ in part], ys)
            base = base_auroc(h, best_t)
            share = auroc([unigram_faith(r["answer"], r["contexts"]) for r, _ in part], ys)
            if name.startswith("RAGTruth"):
                rt[h].append(off)
                rt_base[h].append(base)
            table.append(
                [
                    f"{name} [{h}]",
                    "faithfulness AUROC",
                    f"{off:.3f}",
                    f"{base:.3f} (t={best_t:.2f})",
                    f"{share:.3f}",
                    target or "> unigram judge",
                    _pass(off, base, target, share),
                ]
            )
    for h in which:
        mean = sum(rt[h]) / len(rt[h])
        base_mean = sum(rt_base[h]) / len(rt_base[h])
        table.append(
            [
                f"RAGTruth mean of 3 [{h}]",
                "faithfulness AUROC",
                f"{mean:.3f}",
                f"{base_mean:.3f}",
                "",
                ">= 0.65",
                "pass" if mean >= 0.65 else "FAIL",
            ]
        )
    for name, (path, target) in REL_SETS.items():
        rows = load(path)
        for h in which:
            part = [r for r in rows if h in ("all", half(r))]
            pred: list[bool] = []
            gold: list[bool] = []
            base_s: list[float] = []
            for r in part:
                pred.extend(chunk_verdicts(judge, r))
                gold.extend(bool(x) for x in r["context_labels"])
                ref = r.get("ground_truth") or ""
                base_s.extend(unigram_rel(ref, r.get("question") or "", c) for c in r["contexts"])
            off = balanced_accuracy(pred, gold)
            base, _ = best_threshold_bacc(base_s, gold)
            table.append(
                [
                    f"{name} [{h}]",
                    "relevance bal. acc.",
                    f"{off:.3f}",
                    f"{base:.3f} (best t)",
                    "",
                    target or "> unigram",
                    _pass(off, base, target),
                ]
            )
    table.extend(recall_sanity(judge))
    return table


def _pass(off: float, base: float, target: str, share: float | None = None) -> str:
    beats = "beats unigram" if off > base else "BELOW unigram"
    if share is not None and off <= share:
        beats += "; below token share"
    if not target:
        return beats
    ok = off >= float(target.split()[-1])
    return ("target met" if ok else "TARGET MISSED") + "; " + beats


def recall_sanity(judge: OfflineJudge) -> list[list[str]]:
    """Mean context recall by group where labels say what to expect."""
    lines: list[list[str]] = []
    hp = load("hotpotqa/hotpotqa_fullwiki_dev_250.jsonl")
    for n in (0, 1, 2):
        grp = [r for r in hp if r["n_gold_retrieved"] == n]
        for refname, key in (
            ("ground_truth", "ground_truth"),
            ("supporting_sentences", "supporting_sentences"),
        ):
            vals = []
            for r in grp:
                ref = r[key] if isinstance(r[key], str) else " ".join(r[key] or [])
                if ref.strip():
                    vals.append(recall_score(judge, r, ref))
            if not vals:
                continue  # no supporting sentence is retrieved when n_gold is 0
            lines.append(
                [
                    f"HotpotQA fullwiki, n_gold={n} (ref={refname})",
                    "mean recall",
                    f"{sum(vals) / len(vals):.3f}",
                    "",
                    "",
                    "low for 0, high for 2",
                    "",
                ]
            )
    he = [r for r in load("halueval_qa/halueval_qa_pairs.jsonl") if r["answer_kind"] == "right"]
    vals = [recall_score(judge, r, r["ground_truth"]) for r in he]
    lines.append(
        [
            "HaluEval QA (ground truth)",
            "mean recall",
            f"{sum(vals) / len(vals):.3f}",
            "",
            "",
            "~1",
            "",
        ]
    )
    for path, name in (
        ("cjk_mrc/jsquad_ja_250.jsonl", "CJK MRC ja"),
        ("cjk_mrc/cmrc2018_zh_200.jsonl", "CJK MRC zh"),
    ):
        rows = [r for r in load(path) if r.get("ground_truth_sentence")]
        for removed in (False, True):
            grp = [r for r in rows if r["gold_removed"] == removed]
            vals = [recall_score(judge, r, r["ground_truth_sentence"]) for r in grp]
            lines.append(
                [
                    f"{name}, gold_removed={removed} (ref=gt sentence)",
                    "mean recall",
                    f"{sum(vals) / len(vals):.3f}",
                    "",
                    "",
                    "low if removed",
                    "",
                ]
            )
    rgb = load("rgb_zh/rgb_zh_refine_300.jsonl")
    for has_pos in (False, True):
        grp = [r for r in rgb if (sum(r["context_labels"]) > 0) == has_pos]
        vals = [recall_score(judge, r, r["ground_truth"]) for r in grp]
        lines.append(
            [
                f"RGB zh, positives={'>0' if has_pos else '0'}",
                "mean recall",
                f"{sum(vals) / len(vals):.3f}",
                "",
                "",
                "low for 0",
                "",
            ]
        )
    return lines


_WORDS = re.compile(r"\w+")


def locate(unit: str, answer: str, start: int = 0) -> tuple[int, int] | None:
    """Character span of a claim (or sentence) in the answer it came from, or None.

    Claims are cleaned (citation markers and lead-ins removed, clauses split), so they
    are found by their words, not verbatim: the first words (6, else 4, 3, 2, 1) as a
    pattern that allows any punctuation between them, searched from ``start`` (the
    previous claim's start; claims come in answer order), and the end after the claim's
    last three words. Case is ignored (a claim's first letter may have been raised).
    """
    words = _WORDS.findall(unit)
    for k in (6, 4, 3, 2, 1):
        if len(words) < k:
            continue
        head = re.compile(r"\W+".join(re.escape(w) for w in words[:k]), re.IGNORECASE)
        m = head.search(answer, start) or head.search(answer)
        if m:
            tail = re.compile(
                r"\W+".join(re.escape(w) for w in words[-min(3, len(words)) :]), re.IGNORECASE
            )
            m2 = tail.search(answer, m.start())
            return m.start(), (m2.end() if m2 else m.start() + len(unit))
    return None


def _marked(units: Sequence[str], row: Row) -> list[bool | None]:
    """For each unit: does it overlap a human-marked hallucination span (None: not found)."""
    spans = [(s["start"], s["end"]) for s in row.get("hallucination_spans") or []]
    out: list[bool | None] = []
    pos = 0
    for u in units:
        loc = locate(u, row["answer"] or "", pos)
        if loc is None:
            out.append(None)
            continue
        pos = loc[0]
        out.append(any(a < loc[1] and loc[0] < b for a, b in spans))
    return out


def claim_agreement(
    judge: OfflineJudge, which: Iterable[str] = ("tune", "check")
) -> list[list[str]]:
    """Claim-level agreement with RAGTruth's human span labels.

    RAGTruth marks the hallucinated *spans* of each response. A claim (the offline
    judge's) or a sentence (the unigram judge's own unit, with its tune-half threshold)
    is *marked* when it overlaps a span, else *clean*. Reported per set and half: the
    number of clean and marked units, P(yes | clean) (how often a supported claim is
    confirmed), P(not yes | marked) (how often a marked claim is caught), and their mean
    (balanced accuracy). This reads each verdict, where the row AUROC reads only their
    share: a judge can rank rows well while flagging the wrong claims, and the other way
    round.
    """
    lines: list[list[str]] = []
    for name in ("RAGTruth QA", "RAGTruth summary", "RAGTruth data2txt"):
        data = faith_rows(name)
        tune = [(r, y) for r, y in data if half(r) == "tune"]

        def base_auroc(t: float, rows: list[tuple[Row, bool]] = tune) -> float:
            scores = [unigram_judge_faith(r["answer"], r["contexts"], t) for r, _ in rows]
            return auroc(scores, [y for _, y in rows])

        best_t = max(UNIGRAM_T_GRID, key=lambda t: (base_auroc(t), -t))
        for h in which:
            own: list[tuple[bool, bool]] = []  # (marked, yes)
            base: list[tuple[bool, bool]] = []
            for r, _ in data:
                if h != "all" and half(r) != h:
                    continue
                claims, verdicts = claim_verdicts(judge, r)
                for mark, v in zip(_marked(claims, r), verdicts, strict=True):
                    if mark is not None:
                        own.append((mark, v == "yes"))
                ctx = set(unigrams(" ".join(r["contexts"])))
                sents = list(split_sentences(r["answer"] or ""))
                for mark, sent in zip(_marked(sents, r), sents, strict=True):
                    toks = unigrams(sent)
                    if mark is not None and toks:
                        ok = sum(tok in ctx for tok in toks) / len(toks) >= best_t
                        base.append((mark, ok))
            cells = [f"{name} [{h}]"]
            for pairs in (own, base):
                clean = [yes for mark, yes in pairs if not mark]
                marked = [yes for mark, yes in pairs if mark]
                p_yes = sum(clean) / len(clean) if clean else float("nan")
                p_caught = 1 - sum(marked) / len(marked) if marked else float("nan")
                cells.append(
                    f"{len(clean)} / {len(marked)}: {p_yes:.2f}, {p_caught:.2f}, "
                    f"**{(p_yes + p_caught) / 2:.3f}**"
                )
            lines.append(cells)
    return lines


def length_auroc(which: Iterable[str] = ("tune", "check")) -> list[list[str]]:
    """Row AUROC of the answer's length alone (shorter = more faithful), per RAGTruth set.

    Not a judge: a confound to read the row AUROCs against. Where it is high, a judge
    that merely gives long answers more chances to fail ranks rows well without reading
    them.
    """
    lines = []
    for name in ("RAGTruth QA", "RAGTruth summary", "RAGTruth data2txt"):
        data = faith_rows(name)
        cells = [name]
        for h in which:
            part = [(r, y) for r, y in data if h == "all" or half(r) == h]
            scores = [-float(len(r["answer"] or "")) for r, _ in part]
            cells.append(f"{auroc(scores, [y for _, y in part]):.3f}")
        lines.append(cells)
    return lines


#: The datasets' READMEs list about 1.45x the rows their files hold (RAGTruth 203/250/120
#: for 155/168/78, BEGIN 836 for 576, HaluEval 600 for 426): roughly a third of each
#: source is held back. A fresh sample of that size is what "rows you have not seen" are.
HELD_OUT_SHARE = 0.45


def _ci(values: Sequence[float], level: float = 0.90) -> tuple[float, float]:
    """Percentile interval of ``values`` (nan dropped)."""
    v = sorted(x for x in values if x == x)
    lo = v[round((1 - level) / 2 * (len(v) - 1))]
    hi = v[round((1 + level) / 2 * (len(v) - 1))]
    return lo, hi


def paired_resample(
    ours: Sequence[float],
    base: Sequence[float],
    labels: Sequence[bool],
    size: int,
    n_boot: int,
    rng: random.Random,
) -> tuple[list[float], list[float]]:
    """AUROC of two scorers on ``n_boot`` resamples (with replacement) of ``size`` rows.

    The same rows are drawn for both scorers (paired); a resample holding one class
    only is drawn again.
    """
    a: list[float] = []
    b: list[float] = []
    n = len(labels)
    while len(a) < n_boot:
        idx = [rng.randrange(n) for _ in range(size)]
        ys = [labels[i] for i in idx]
        if all(ys) or not any(ys):
            continue
        a.append(auroc([ours[i] for i in idx], ys))
        b.append(auroc([base[i] for i in idx], ys))
    return a, b


def fresh_sample_odds(judge: OfflineJudge, n_boot: int = 2000, seed: int = 0) -> list[list[str]]:
    """How the targets fare on a fresh sample of unseen rows, by paired bootstrap.

    For each faithfulness set, all rows (both halves) are resampled to the size of the
    rows held back from its file (``HELD_OUT_SHARE`` of it); per resample the offline
    judge and the unigram judge (threshold chosen on the tune half) are scored on the
    same rows. Reported: the 90% interval of the offline AUROC, the share of resamples
    where it beats the unigram judge, and, for BEGIN and the RAGTruth mean (the three
    sets resampled independently), the share meeting the target.
    """
    rng = random.Random(seed)
    lines: list[list[str]] = []
    rt: list[list[float]] = []
    for name, (_, _, target) in FAITH_SETS.items():
        data = faith_rows(name)
        tune = [(r, y) for r, y in data if half(r) == "tune"]
        ys_tune = [y for _, y in tune]

        def tune_auroc(
            t: float, tune: list[tuple[Row, bool]] = tune, ys: list[bool] = ys_tune
        ) -> float:
            return auroc([unigram_judge_faith(r["answer"], r["contexts"], t) for r, _ in tune], ys)

        best_t = max(UNIGRAM_T_GRID, key=lambda t: (tune_auroc(t), -t))
        ours = [faith_score(judge, r) for r, _ in data]
        base = [unigram_judge_faith(r["answer"], r["contexts"], best_t) for r, _ in data]
        ys = [y for _, y in data]
        size = max(20, round(HELD_OUT_SHARE * len(data)))
        a, b = paired_resample(ours, base, ys, size, n_boot, rng)
        wins = sum(x > y for x, y in zip(a, b, strict=True)) / n_boot
        lo, hi = _ci(a)
        met = ""
        if target:
            need = float(target.split()[-1])
            met = f"{sum(x >= need for x in a) / n_boot:.0%}"
        if name.startswith("RAGTruth"):
            rt.append(a)
        lines.append(
            [name, str(size), f"{lo:.3f}-{hi:.3f}", f"{wins:.0%}", f"{target} {met}".strip()]
        )
    means = [sum(x) / len(x) for x in zip(*rt, strict=True)]
    lo, hi = _ci(means)
    met = f"{sum(m >= 0.65 for m in means) / len(means):.0%}"
    lines.append(["RAGTruth mean of 3", "", f"{lo:.3f}-{hi:.3f}", "", f">= 0.65 {met}"])
    return lines


def timing(judge_factory: Callable[[], OfflineJudge], n_rows: int = 1000) -> tuple[float, int]:
    """Seconds for ``n_rows`` distinct rows x 3 metrics (~5 tasks per row), cold caches."""
    from ragnotebook import text
    from ragnotebook.judges import offline

    rows: list[Row] = []
    for rel in (
        "hotpotqa/hotpotqa_fullwiki_dev_250.jsonl",
        "ragtruth/ragtruth_qa.jsonl",
        "ragtruth/ragtruth_summary.jsonl",
        "halueval_qa/halueval_qa_pairs.jsonl",
        "rgb_zh/rgb_zh_refine_300.jsonl",
        "begin_wow/begin_wow.jsonl",
    ):
        rows.extend(load(rel))
    rows = rows[:n_rows]
    for fn in (
        offline._analyse,
        offline._claim_doc,
        offline._name_tokens,
        text.stem,
        text._tokens_cached,
        text._word_token,
        text.split_sentences,
        text.detect_language,
        text._rate_amounts,
        text._unit_amounts,
        text._counted_amounts,
        offline._durations_of,
        offline._non_words,
        text.normalize,
    ):
        fn.cache_clear()
    judge = judge_factory()
    n_tasks = 0
    t0 = time.perf_counter()
    for r in rows:
        answer = r.get("answer") or r.get("ground_truth") or ""
        gt = r.get("ground_truth") or answer
        recall_score(judge, r, gt)
        faith_score(judge, {**r, "answer": answer})
        chunk_verdicts(judge, r)
        n_tasks += 5
    return time.perf_counter() - t0, n_tasks


def main(argv: list[str] | None = None) -> None:
    """Print the quality table and timing."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--half",
        choices=["tune", "check", "both", "all"],
        default="both",
        help="both: tune and check side by side; all: the two halves pooled as one set",
    )
    ap.add_argument("--no-timing", action="store_true")
    args = ap.parse_args(argv)
    which = ("tune", "check") if args.half == "both" else (args.half,)
    judge = OfflineJudge()
    print(f"judge identity: {json.dumps(judge.identity())}\n")
    table = evaluate(judge, which)
    print(
        "| dataset [half] | metric | offline | unigram judge | token share (continuous) "
        "| target | pass/fail |"
    )
    print("|---|---|---|---|---|---|---|")
    for line in table:
        print("| " + " | ".join(line) + " |")
    print(
        "\nClaim level, against RAGTruth's human span labels (cells: clean / marked "
        "units: P(yes | clean), P(not yes | marked), **balanced accuracy**):\n"
    )
    print("| dataset [half] | offline judge, its claims | unigram judge, its sentences |")
    print("|---|---|---|")
    for line in claim_agreement(judge, which):
        print("| " + " | ".join(line) + " |")
    print("\nRow AUROC of answer length alone (shorter = faithful; a confound, not a judge):\n")
    print("| dataset | " + " | ".join(which) + " |")
    print("|---" * (len(which) + 1) + "|")
    for line in length_auroc(which):
        print("| " + " | ".join(line) + " |")
    print(
        "\nOn a fresh sample of unseen rows (paired bootstrap of all rows, 2,000 resamples of "
        "the held-back size; 90% interval of the offline AUROC, share of resamples beating "
        "the unigram judge, share meeting the target):\n"
    )
    print("| dataset | rows per sample | offline AUROC, 90% | beats unigram | target met |")
    print("|---|---|---|---|---|")
    for line in fresh_sample_odds(judge):
        print("| " + " | ".join(line) + " |")
    if not args.no_timing:
        secs, n = timing(OfflineJudge)
        print(
            f"\nTiming: 1,000 rows x 3 metrics ({n} tasks) in {secs:.2f} s "
            f"({secs / n * 1000:.2f} ms per task), cold caches, one process."
        )


if __name__ == "__main__":
    main()
