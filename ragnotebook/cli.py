"""Command line: ``ragnotebook quickstart`` (and ``python -m ragnotebook quickstart``).

Exit codes: 0 success, 2 usage error, 1 any other failure.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
import warnings
from pathlib import Path
from typing import Any

__all__ = ["main"]


def _write_frame(df: Any, out: Path) -> Path:
    """Write a scored frame as Parquet (keeps ``attrs``) or JSON Lines, by suffix."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".parquet":
        df.to_parquet(out)
    else:
        df.to_json(out, orient="records", lines=True, force_ascii=False, default_handler=str)
    return out


def _default_out() -> Path:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return Path("ragnotebook_quickstart.jsonl")
    return Path("ragnotebook_quickstart.parquet")


def _wrap(text: str, indent: str = "    ", width: int = 100) -> str:
    return textwrap.fill(
        " ".join(str(text).split()),
        width=width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        max_lines=3,
        placeholder=" ...",
    )


def worst_rows(scored: Any, n: int = 5) -> Any:
    """The ``n`` rows with the lowest mean score over the metrics each row was scored on."""
    import pandas as pd

    from ragnotebook.frame import SCORED_STATUSES, scored_metrics

    parts = []
    for m in scored_metrics(scored):
        ok = scored[f"{m}_status"].isin(SCORED_STATUSES).fillna(False).astype(bool)
        parts.append(pd.to_numeric(scored[m], errors="coerce").astype("float64").where(ok))
    mean = pd.concat(parts, axis=1).mean(axis=1, skipna=True)
    order = mean.reset_index(drop=True).sort_values(kind="stable").dropna().index[:n]
    return scored.iloc[list(order)].assign(_mean=mean.iloc[list(order)].to_numpy())


def quickstart(out: Path | None, model: str, n_worst: int) -> int:
    """Evaluate the bundled sample and print the summary and the worst rows."""
    import pandas as pd

    import ragnotebook as rn

    t0 = time.perf_counter()
    df = rn.load_sample("quickstart")
    print(
        f"Loaded {len(df)} real rows bundled with ragnotebook "
        f"({', '.join(f'{k}: {v}' for k, v in df['source'].value_counts().items())})."
    )
    print(
        f"Judge: {model!r}"
        + (" (deterministic heuristic: no API key, no network)" if model == "offline" else "")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        scored = rn.evaluate(df, model=model, progress=sys.stderr.isatty())
    elapsed = time.perf_counter() - t0
    summary = rn.summary(scored)
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print("\nSummary (mean over scored rows; 'scored' = rows measured / rows in the frame):")
        print(
            summary[
                [
                    "mean",
                    "scored",
                    "ok",
                    "no_ground_truth",
                    "no_reference",
                    "no_claims",
                    "no_context",
                    "error",
                ]
            ]
            .round(3)
            .to_string()
        )
    print(f"\nThe {n_worst} lowest-scoring rows and what they miss:")
    claims = rn.claims(scored)
    for label, row in worst_rows(scored, n_worst).iterrows():
        scores = ", ".join(
            f"{m.replace('context_', '')}={row[m]:.2f}"
            if pd.notna(row[m])
            else f"{m.replace('context_', '')}=NA ({row[m + '_status']})"
            for m in rn.frame.scored_metrics(scored)
        )
        print(f"\n[{label}] ({row['source']}) {scores}")
        print(_wrap(f"Q: {row['question']}"))
        missed = claims[(claims["row"] == label) & (claims["verdict"] != "yes")]
        for _, c in missed.head(4).iterrows():
            kind = (
                "ground truth not in context"
                if c["metric"] == "context_recall"
                else f"answer claim {c['verdict']}"
            )
            print(_wrap(f"- {kind}: {c['claim']}", indent="      "))
        if len(missed) > 4:
            print(f"      ... and {len(missed) - 4} more")
    path = _write_frame(scored, out or _default_out())
    print(f"\nScored frame ({len(scored)} rows, {len(scored.columns)} columns) written to {path}")
    print(
        f"Done in {elapsed:.1f} s. Next: open notebooks/01_quickstart.ipynb, or in Python:\n"
        "    scored = df.rag.evaluate(model='openai/gpt-4o-mini')"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``ragnotebook`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 on success, 1 on failure, 2 on a usage error.

    Examples
    --------
    >>> main(["quickstart", "--out", "/tmp/ragnotebook_doctest.jsonl"])  # doctest: +ELLIPSIS
    Loaded ...
    0
    """
    parser = argparse.ArgumentParser(prog="ragnotebook", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    qs = sub.add_parser("quickstart", help="score the bundled real sample with the offline judge")
    qs.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where to write the scored frame (.parquet or .jsonl)",
    )
    qs.add_argument("--model", default="offline", help="judge model (default: offline)")
    qs.add_argument("--worst", type=int, default=5, help="how many low-scoring rows to show")
    args = parser.parse_args(argv)
    try:
        if args.command == "quickstart":
            return quickstart(args.out, args.model, args.worst)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        print(f"ragnotebook: error: {exc}", file=sys.stderr)
        return 1
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
