"""Ablation of the OfflineJudge's switchable verdict rules (faithfulness AUROC only).

Usage::

    LITELLM_LOCAL_MODEL_COST_MAP=True .venv/bin/python benchmarks/offline_ablation.py \
        --half tune --configs all16 --select
    .venv/bin/python benchmarks/offline_ablation.py --half tune check all --configs loo

Each configuration switches the four offline-v2 rules of ``OfflineJudge``
(``negation_scope``, ``opposite_words``, ``japanese_characters``, ``local_evidence``) on or
off; the rules added in offline-v3 keep their shipped defaults (switch them with
``--extra``). For every
faithfulness set of ``offline_quality.py`` it prints the AUROC on the requested halves
(``all`` = tune + check together), the RAGTruth mean of 3, and the number of sets where
the judge beats the unigram judge (threshold chosen per set on the tune half).

``--select`` applies the selection rule declared in ``docs/offline_judge.md`` to the
**tune** half only: among configurations with RAGTruth mean >= 0.65 and BEGIN >= 0.90 on
tune, the most sets above the unigram judge on tune wins; ties go to the higher RAGTruth
mean on tune, then to fewer rules.

``--extra NAME=JSON`` (repeatable) adds a configuration: the shipped judge with the given
constructor keyword arguments, e.g. ``--extra 'attribution={"attribution_leadins": true}'``.
``--configs none`` scores only the shipped judge and the ``--extra`` configurations.

``--bootstrap N`` adds a 90% percentile interval (N resamples of rows, within each
RAGTruth set) for the RAGTruth mean on the full set for each configuration, and for the
paired difference against the first configuration.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from offline_quality import (
    FAITH_SETS,
    UNIGRAM_T_GRID,
    OfflineJudge,
    auroc,
    faith_rows,
    faith_score,
    half,
    unigram_judge_faith,
)

RULES = ("negation_scope", "opposite_words", "japanese_characters", "local_evidence")
SHORT = {
    "negation_scope": "neg-scope",
    "opposite_words": "opposites",
    "japanese_characters": "ja-chars",
    "local_evidence": "local",
}
RT = [n for n in FAITH_SETS if n.startswith("RAGTruth")]
BEGIN = "BEGIN (no Generic)"


def config_name(on: frozenset[str] | str) -> str:
    """Readable name of a set of rules switched on (an ``--extra`` config keeps its name)."""
    if isinstance(on, str):
        return on
    if on == frozenset(RULES):
        return "v2 (all on)"
    if not on:
        return "v1 (all off)"
    off = [SHORT[r] for r in RULES if r not in on]
    if len(off) == 1:
        return f"v2 - {off[0]}"
    return "+".join(SHORT[r] for r in RULES if r in on) or "none"


def configs(kind: str) -> list[frozenset[str]]:
    """``loo``: v1, v2 and v2 minus each rule; ``all16``: every subset; ``none``: no
    subset (only the shipped judge and the ``--extra`` configurations are scored)."""
    full = frozenset(RULES)
    if kind == "none":
        return []
    if kind == "loo":
        return [frozenset(), full, *(full - {r} for r in RULES)]
    return [frozenset(c) for k in range(len(RULES) + 1) for c in itertools.combinations(RULES, k)]


def subset(half_name: str, rows: Sequence[tuple[dict, bool]]) -> list[int]:
    """Indices of ``rows`` in a half (``all``: every row)."""
    return [i for i, (r, _) in enumerate(rows) if half_name == "all" or half(r) == half_name]


def main(argv: list[str] | None = None) -> None:
    """Print the ablation table (and the selection, the bootstrap) as markdown."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--half", nargs="+", choices=["tune", "check", "all"], default=["tune"])
    ap.add_argument("--configs", choices=["loo", "all16", "none"], default="loo")
    ap.add_argument("--extra", action="append", default=[], metavar="NAME=JSON")
    ap.add_argument("--select", action="store_true")
    ap.add_argument("--bootstrap", type=int, default=0)
    args = ap.parse_args(argv)

    data = {name: faith_rows(name) for name in FAITH_SETS}
    # unigram judge: threshold per set on the tune half, reused everywhere
    base_scores: dict[str, list[float]] = {}
    for name, rows in data.items():
        tune = subset("tune", rows)
        ys = [rows[i][1] for i in tune]

        def tune_auroc(t: float, rows: list = rows, tune: list[int] = tune, ys=ys) -> float:
            s = [unigram_judge_faith(rows[i][0]["answer"], rows[i][0]["contexts"], t) for i in tune]
            return auroc(s, ys)

        best_t = max(UNIGRAM_T_GRID, key=lambda t: (tune_auroc(t), -t))
        base_scores[name] = [
            unigram_judge_faith(r["answer"], r["contexts"], best_t) for r, _ in rows
        ]

    def aurocs(scores: dict[str, list[float]], h: str) -> dict[str, float]:
        out = {}
        for name, rows in data.items():
            idx = subset(h, rows)
            out[name] = auroc([scores[name][i] for i in idx], [rows[i][1] for i in idx])
        out["RAGTruth mean"] = sum(out[n] for n in RT) / len(RT)
        return out

    base = {h: aurocs(base_scores, h) for h in args.half}
    results: dict[Any, dict[str, list[float]]] = {}
    if args.configs == "none":
        judge = OfflineJudge()
        results["shipped"] = {
            n: [faith_score(judge, r) for r, _ in rows] for n, rows in data.items()
        }
    for on in configs(args.configs):
        judge = OfflineJudge(**{r: r in on for r in RULES})
        results[on] = {n: [faith_score(judge, r) for r, _ in rows] for n, rows in data.items()}
    for spec in args.extra:
        name, _, kw = spec.partition("=")
        judge = OfflineJudge(**json.loads(kw or "{}"))
        results[name] = {n: [faith_score(judge, r) for r, _ in rows] for n, rows in data.items()}

    cols = [*FAITH_SETS, "RAGTruth mean"]
    for h in args.half:
        print(f"\n### {h}\n")
        print("| config | " + " | ".join(cols) + " | sets > unigram |")
        print("|---|" + "---|" * (len(cols) + 1))
        print("| unigram judge | " + " | ".join(f"{base[h][c]:.3f}" for c in cols) + " | |")
        for on, scores in results.items():
            a = aurocs(scores, h)
            wins = sum(a[n] > base[h][n] for n in FAITH_SETS)
            print(
                f"| {config_name(on)} | "
                + " | ".join(f"{a[c]:.3f}" for c in cols)
                + f" | {wins}/{len(FAITH_SETS)} |"
            )

    if args.select:
        tb = base.get("tune") or aurocs(base_scores, "tune")
        cands = []
        for on, scores in results.items():
            a = aurocs(scores, "tune")
            ok = a["RAGTruth mean"] >= 0.65 and a[BEGIN] >= 0.90
            wins = sum(a[n] > tb[n] for n in FAITH_SETS)
            # an --extra config counts as the shipped rules plus one
            n_rules = len(on) if isinstance(on, frozenset) else len(RULES)
            cands.append((ok, wins, round(a["RAGTruth mean"], 6), -n_rules, -len(cands), on))
        eligible = [c for c in cands if c[0]]
        pick = max(eligible or cands, key=lambda c: c[:5])
        print(
            f"\nSelected on tune: {config_name(pick[-1])} (rules on: {sorted(pick[-1]) if isinstance(pick[-1], frozenset) else pick[-1]}; "
            f"{pick[1]}/{len(FAITH_SETS)} sets above the unigram judge, RAGTruth mean "
            f"{pick[2]:.3f}; {len(eligible)} of {len(cands)} configurations eligible)"
        )

    if args.bootstrap:
        rng = random.Random(0)
        first = next(iter(results))
        rt_rows = {n: data[n] for n in RT}
        draws: dict[Any, list[float]] = {on: [] for on in results}
        for _ in range(args.bootstrap):
            picks = {n: [rng.randrange(len(rows)) for _ in rows] for n, rows in rt_rows.items()}
            for on, scores in results.items():
                vals = []
                for n, idx in picks.items():
                    vals.append(auroc([scores[n][i] for i in idx], [rt_rows[n][i][1] for i in idx]))
                draws[on].append(sum(vals) / len(vals))
        print(f"\nBootstrap ({args.bootstrap} resamples), RAGTruth mean on all rows, 90% interval:")
        for on, d in draws.items():
            s = sorted(d)
            lo, hi = s[int(0.05 * len(s))], s[int(0.95 * len(s)) - 1]
            line = f"- {config_name(on)}: {lo:.3f} to {hi:.3f}; P(>= 0.65) {sum(x >= 0.65 for x in d) / len(d):.0%}"
            if on != first:
                diff = sorted(x - y for x, y in zip(d, draws[first], strict=True))
                dl, dh = diff[int(0.05 * len(diff))], diff[int(0.95 * len(diff)) - 1]
                better = sum(x > 0 for x in diff) / len(diff)
                line += (
                    f"; minus {config_name(first)}: {dl:+.3f} to {dh:+.3f} (higher in {better:.0%})"
                )
            print(line)


if __name__ == "__main__":
    main()
