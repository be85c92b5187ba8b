"""Command line: ``ragnotebook quickstart | evaluate | report`` (also ``python -m ragnotebook``).

``quickstart``
    Score the bundled real sample with the offline judge and show the worst rows.
``evaluate DATA``
    Score a CSV, JSON Lines or Parquet file of RAG rows, print the summary to
    stdout, write the scored frame (``--out``, Parquet or JSON Lines by suffix)
    and, for CI, gate on thresholds (``--fail-under``, ``--min-coverage``) and
    on a significant drop against a previous scored file (``--baseline``).
``report SCORED``
    Write the HTML report of a scored file.

Results go to stdout; progress bars, warnings and errors to stderr.

Exit codes
----------
0
    Success (and every requested check passed).
1
    A check failed: a mean under its ``--fail-under`` threshold, coverage under
    ``--min-coverage``, or a regression against ``--baseline``.
2
    Usage error: unknown option or metric, malformed ``--fail-under`` or
    ``--column``, an output suffix that is not ``.parquet``/``.jsonl``.
3
    Input or data error: a file that is missing, unreadable or of an unknown
    format, a column that is missing or malformed.
4
    Runtime error: the report module or an optional dependency is not
    available, or an unexpected failure.
130
    Interrupted (Ctrl-C).

See ``docs/cli.md`` for the full reference.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import textwrap
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

__all__ = ["main"]

EXIT_OK = 0
EXIT_CHECKS_FAILED = 1
EXIT_USAGE = 2
EXIT_DATA = 3
EXIT_RUNTIME = 4
EXIT_INTERRUPTED = 130

#: Suffixes read and written.
_PARQUET = (".parquet", ".pq")
_JSONL = (".jsonl", ".ndjson")
_READABLE = (".csv", ".json", *_JSONL, *_PARQUET)

#: ``--baseline`` fails a metric when ``p_value < BASELINE_ALPHA`` and the mean
#: difference is below ``-max_drop``, or when coverage drops by more than ``max_drop``.
BASELINE_ALPHA = 0.05


class UsageError(Exception):
    """Bad command-line usage (exit code 2)."""


class DataError(Exception):
    """An input file or its content is unusable (exit code 3)."""


# --------------------------------------------------------------------------- files


def _jsonable(value: Any) -> Any:
    """A JSON-ready copy of a cell: NA -> None, NumPy -> Python, containers recursively."""
    import numpy as np
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float | np.floating):
        return None if math.isnan(value) else float(value)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | np.ndarray):
        return [_jsonable(v) for v in value]
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return str(value)


def _with_row_labels(df: Any) -> Any:
    """The frame with its row labels as a first column, unless they are just 0..n-1.

    A frame indexed by ids (the bundled sample's ``id``, a user's ``q7``) keeps them in
    the file, so a row printed by its label can be found there. The column takes the
    index's name, or ``"row"`` (the name ``claims()`` uses) when it has none.
    """
    import pandas as pd

    index = df.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    if plain and index.name is None:
        return df
    names = [n if n is not None else "row" for n in index.names]
    if any(n in df.columns for n in names):
        return df
    out = df.copy(deep=False)
    out.index = index.set_names(names)
    return out.reset_index()


def write_jsonl(df: Any, path: Path) -> None:
    """Write a frame as JSON Lines, one object per row; list and dict cells stay JSON.

    Row labels other than 0..n-1 are written as a first column (see ``_with_row_labels``).
    """
    df = _with_row_labels(df)
    with path.open("w", encoding="utf-8") as fh:
        cols = [str(c) for c in df.columns]
        for values in df.itertuples(index=False, name=None):
            record = {c: _jsonable(v) for c, v in zip(cols, values, strict=True)}
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")


def _write_frame(df: Any, out: Path) -> Path:
    """Write a scored frame as Parquet (keeps ``attrs``) or JSON Lines, by suffix."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() in _PARQUET:
        df.to_parquet(out)
    else:
        write_jsonl(df, out)
    return out


def read_table(path: Path | str) -> Any:
    """Read a CSV, JSON Lines (``.jsonl``/``.ndjson``; ``.json``: lines or one array) or
    Parquet file into a DataFrame.

    A scored file read back gets its metric columns' dtypes restored (``m``
    Float64, ``m_status`` string, ``m_verdicts`` lists of dicts where Parquet gives
    arrays), so ``summary()``, ``claims()``, the report and
    :func:`ragnotebook.compare` work on it.

    Raises
    ------
    DataError
        For a missing or unreadable file, or an unknown suffix.
    """
    path = Path(path)
    import pandas as pd

    from ragnotebook.frame import verdict_records

    if not path.exists():
        raise DataError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in _READABLE:
        raise DataError(
            f"{path}: unknown format {suffix or '(no suffix)'!r}; use " + ", ".join(_READABLE)
        )
    try:
        if suffix == ".csv":
            df = pd.read_csv(path)
        elif suffix in _PARQUET:
            df = pd.read_parquet(path)
        else:
            df = pd.DataFrame.from_records(_read_json_records(path))
    except DataError:
        raise
    except ImportError as exc:
        raise DataError(
            f"{path}: reading Parquet needs pyarrow: pip install 'ragnotebook[parquet]'"
        ) from exc
    except Exception as exc:
        raise DataError(f"{path}: cannot read the file ({type(exc).__name__}: {exc})") from exc
    for col in list(df.columns):
        if isinstance(col, str) and f"{col}_status" in df.columns:
            df[col] = pd.to_numeric(df[col], errors="coerce").astype("Float64")
            df[f"{col}_status"] = df[f"{col}_status"].astype("string")
            if f"{col}_verdicts" in df.columns:  # Parquet gives arrays of dicts
                cells = [verdict_records(v) for v in df[f"{col}_verdicts"].tolist()]
                df[f"{col}_verdicts"] = pd.Series(cells, index=df.index, dtype=object)
    return df


def _read_json_records(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json" and text.lstrip().startswith("["):
        data = json.loads(text)
        if not all(isinstance(r, dict) for r in data):
            raise DataError(f"{path}: expected a JSON array of objects")
        return list(data)
    records = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}, line {n}: not valid JSON ({exc.msg})") from exc
        if not isinstance(record, dict):
            raise DataError(f"{path}, line {n}: expected a JSON object")
        records.append(record)
    return records


# --------------------------------------------------------------------------- quickstart


def _default_out() -> Path:
    """JSON Lines whatever is installed, so the file name is predictable."""
    return Path("ragnotebook_quickstart.jsonl")


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
    """The ``n`` rows with the lowest mean score over the metrics each row was scored on.

    A metric counts for a row only where :func:`ragnotebook.frame.scored_mask` says the
    score is a measurement (a missing ground truth or answer is not a low score). The
    rows come back with two extra columns: ``_mean`` (float64, the mean it was ranked
    by) and ``_position`` (int, its 0-based position in ``scored``).
    """
    import pandas as pd

    from ragnotebook.frame import scored_mask, scored_metrics

    parts = []
    for m in scored_metrics(scored):
        ok = pd.Series(scored_mask(scored, m), index=scored.index)
        parts.append(pd.to_numeric(scored[m], errors="coerce").astype("float64").where(ok))
    mean = pd.concat(parts, axis=1).mean(axis=1, skipna=True)
    order = mean.reset_index(drop=True).sort_values(kind="stable").dropna().index[:n]
    picked = list(order)
    return scored.iloc[picked].assign(_mean=mean.iloc[picked].to_numpy(), _position=picked)


def _why_unscored(row: Any, metric: str) -> str:
    """The status of a metric a row was not scored on; "no answer" for a missing answer."""
    status = str(row[f"{metric}_status"])
    return "no answer" if metric == "faithfulness" and status == "no_claims" else status


_SUMMARY_COLUMNS = [
    "mean",
    "scored",
    "ok",
    "no_ground_truth",
    "no_reference",
    "no_claims",
    "no_answer",
    "no_context",
    "error",
]


def quickstart(out: Path | None, model: str, n_worst: int) -> int:
    """Evaluate the bundled sample and print the summary and the worst rows."""
    import pandas as pd

    import ragnotebook as rn
    from ragnotebook.frame import scored_mask

    if n_worst < 0:
        raise UsageError(f"--worst: expected 0 or more rows, got {n_worst}")
    _check_out(out)
    t0 = time.perf_counter()
    df = rn.load_sample("quickstart")
    print(
        f"Loaded {len(df)} real rows bundled with ragnotebook "
        f"({', '.join(f'{k}: {v}' for k, v in df['source'].value_counts().items())})."
    )
    unanswered = df.loc[df["answer"].isna(), "source"].value_counts()
    if len(unanswered):
        names = ", ".join(f"the {n} {k} rows" for k, n in unanswered.items())
        print(f"({names} have no generated answer: they measure retrieval only.)")
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
        print(summary[_SUMMARY_COLUMNS].round(3).to_string())
    if summary["no_answer"].any():
        print(
            "(no_answer: the no_claims rows whose answer is missing; they are not scored. "
            "The other no_claims rows are answers that make no claim, a measured 0.)"
        )
    worst = worst_rows(scored, n_worst)
    if len(worst):
        print(
            f"\nThe {len(worst)} lowest-scoring rows (mean of the scores each row was measured "
            "on) and what they miss:"
        )
    claims = rn.claims(scored)
    metrics = rn.frame.scored_metrics(scored)
    measured = {m: scored_mask(scored, m) for m in metrics}
    for pos, (label, row) in zip(worst["_position"], worst.iterrows(), strict=True):
        scores = ", ".join(
            f"{m.replace('context_', '')}={row[m]:.2f}"
            if measured[m][pos]
            else f"{m.replace('context_', '')}=not scored ({_why_unscored(row, m)})"
            for m in metrics
        )
        print(f"\n[{label}] ({row['source']}) {scores}")
        print(_wrap(f"Q: {row['question']}"))
        missed = claims[(claims["row_number"] == pos) & (claims["verdict"] != "yes")]
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
    return EXIT_OK


# --------------------------------------------------------------------------- evaluate


def _metric(name: str, option: str) -> str:
    from ragnotebook.api import _metric_name

    try:
        return _metric_name(name.strip())
    except ValueError:
        raise UsageError(
            f"{option}: unknown metric {name.strip()!r}; use recall, precision, faithfulness "
            "(or context_recall, context_precision)"
        ) from None


def parse_metrics(text: str) -> list[str]:
    """``"recall,faithfulness"`` -> ``["context_recall", "faithfulness"]``."""
    names: list[str] = []
    for part in text.split(","):
        if part.strip():
            m = _metric(part, "--metrics")
            if m not in names:
                names.append(m)
    if not names:
        raise UsageError("--metrics is empty")
    return names


def parse_thresholds(values: Sequence[str]) -> dict[str, float]:
    """``["recall=0.7,faithfulness=0.8"]`` -> ``{"context_recall": 0.7, "faithfulness": 0.8}``."""
    out: dict[str, float] = {}
    for value in values:
        for part in value.split(","):
            if not part.strip():
                continue
            name, sep, number = part.partition("=")
            if not sep:
                raise UsageError(f"--fail-under: expected metric=value, got {part.strip()!r}")
            try:
                threshold = float(number)
            except ValueError:
                raise UsageError(f"--fail-under: {number.strip()!r} is not a number") from None
            if not math.isfinite(threshold):
                raise UsageError(f"--fail-under: {number.strip()!r} is not a finite number")
            if not 0.0 <= threshold <= 1.0:
                raise UsageError(
                    f"--fail-under: {part.strip()!r}: scores run from 0 to 1, so a minimum "
                    "must be between 0 and 1"
                )
            out[_metric(name, "--fail-under")] = threshold
    return out


def parse_columns(values: Sequence[str]) -> dict[str, str]:
    """``["question=q", "contexts=docs"]`` -> ``{"question": "q", "contexts": "docs"}``."""
    from ragnotebook.intake import ROLES

    out: dict[str, str] = {}
    for value in values:
        role, sep, col = value.partition("=")
        role, col = role.strip(), col.strip()
        if not sep or not role or not col:
            raise UsageError(f"--column: expected role=column, got {value!r}")
        if role not in ROLES:
            raise UsageError(f"--column: unknown role {role!r}; the roles are {', '.join(ROLES)}")
        out[role] = col
    return out


def _check_out(path: Path | None) -> None:
    """Refuse an ``--out`` that could not be written, before any row is scored."""
    if path is not None and path.suffix.lower() not in (*_PARQUET, *_JSONL):
        raise UsageError(
            f"--out: {path.name!r} must end in .parquet (keeps run metadata) or .jsonl"
        )
    if path is not None and path.suffix.lower() in _PARQUET:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError(
                f"--out: writing {path.name!r} needs pyarrow: pip install "
                "'ragnotebook[parquet]', or write .jsonl"
            ) from None


def _print_summary(summary: Any, title: str) -> None:
    import pandas as pd

    cols = ["mean", "scored", "coverage", *_SUMMARY_COLUMNS[2:], "missing_verdicts"]
    with pd.option_context("display.width", 160, "display.max_columns", 30):
        print(title)
        print(summary[[c for c in cols if c in summary.columns]].round(3).to_string())


def check_thresholds(
    summary: Any, thresholds: dict[str, float], min_coverage: float | None
) -> list[str]:
    """Failed checks as messages; also prints one line per check to stdout.

    Each metric in ``thresholds`` must have ``mean >= threshold`` and
    ``coverage >= min_coverage`` (1.0 when not given); with ``min_coverage``
    given explicitly, coverage is checked for every metric in ``summary``.
    """
    failures: list[str] = []
    coverage_floor = 1.0 if min_coverage is None else min_coverage
    gated = list(thresholds)
    if min_coverage is not None:
        gated += [m for m in summary.index if m not in gated]
    for m in gated:
        mean = float(summary.loc[m, "mean"])
        cov = float(summary.loc[m, "coverage"])
        if m in thresholds:
            t = thresholds[m]
            if math.isnan(mean) or mean < t:
                msg = (
                    f"{m}: no row was scored, so the mean cannot reach {t:g}"
                    if math.isnan(mean)
                    else f"{m}: mean {mean:.3f} < {t:g}"
                )
                failures.append(msg)
                print(f"FAIL {msg}")
            else:
                print(f"ok   {m}: mean {mean:.3f} >= {t:g}")
        if math.isnan(cov) or cov < coverage_floor:
            msg = (
                f"{m}: coverage {cov:.3f} < {coverage_floor:g} "
                f"({summary.loc[m, 'scored']} rows scored, {int(summary.loc[m, 'error'])} errors)"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
        else:
            print(f"ok   {m}: coverage {cov:.3f} >= {coverage_floor:g}")
    return failures


def _check_pairing_column(
    on: str, baseline: Any, data: Any, columns: Mapping[str, str] | None
) -> None:
    """Refuse, before any scoring, a ``--on`` column missing from either file."""
    from ragnotebook.comparison import _key_column

    sides = (("the baseline file", baseline), ("the data file", data))
    for side, frame in sides:
        if columns and on in columns and columns[on] in frame.columns:
            continue
        try:
            _key_column(frame, on, side)
        except KeyError:
            names = ", ".join(map(str, frame.columns))
            raise DataError(
                f"--on {on!r} is not a column of {side} (its columns: {names}); "
                "pass --on COLUMN naming a column both files have"
            ) from None


def check_baseline(
    baseline: Any, scored: Any, metrics: Sequence[str], *, on: str | None, max_drop: float
) -> list[str]:
    """Compare against a baseline frame; print the table; return the failed checks.

    A metric fails when its paired mean difference (new - baseline) is below
    ``-max_drop`` with ``p_value < 0.05``, or when its coverage drops by more
    than ``max_drop``.
    """
    import pandas as pd

    from ragnotebook.comparison import compare
    from ragnotebook.frame import scored_metrics

    shared = [m for m in metrics if m in scored_metrics(baseline)]
    skipped = [m for m in metrics if m not in shared]
    if skipped:
        print(f"baseline: not scored on {', '.join(skipped)}; not compared", file=sys.stderr)
    if not shared:
        raise DataError("--baseline: the baseline file has none of the evaluated metrics")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the flags are printed below
        table = compare(baseline, scored, on=on, metrics=shared)
    cols = [
        "n_pairs",
        "mean_a",
        "mean_b",
        "mean_diff",
        "ci_low",
        "ci_high",
        "p_value",
        "coverage_a",
        "coverage_b",
        "n_lost",
        "n_only_a",
        "n_only_b",
    ]
    with pd.option_context("display.width", 160, "display.max_columns", 30):
        print("\nAgainst the baseline (a = baseline, b = this run; diff = b - a, paired rows):")
        print(table[cols].round(4).to_string())
    failures: list[str] = []
    for m, row in table.iterrows():
        diff, p = float(row["mean_diff"]), float(row["p_value"])
        if not math.isnan(diff) and diff < -max_drop and p < BASELINE_ALPHA:
            msg = (
                f"{m}: significant drop against the baseline: mean diff {diff:+.3f} "
                f"(95% CI {row['ci_low']:+.3f} to {row['ci_high']:+.3f}, p={p:.4f})"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
        else:
            print(f"ok   {m}: no significant drop (mean diff {diff:+.3f}, p={p:.4f})")
        cov_diff = float(row["coverage_diff"])
        if cov_diff < -max_drop:
            msg = (
                f"{m}: coverage dropped against the baseline: {row['coverage_a']:.3f} -> "
                f"{row['coverage_b']:.3f} ({int(row['n_lost'])} rows lost)"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
    return failures


def evaluate_command(args: argparse.Namespace) -> int:
    """``ragnotebook evaluate``: score a file, print the summary, write it, run the checks."""
    import ragnotebook as rn

    metrics = parse_metrics(args.metrics)
    thresholds = parse_thresholds(args.fail_under or [])
    columns = parse_columns(args.column or [])
    unknown = [m for m in thresholds if m not in metrics]
    if unknown:
        raise UsageError(f"--fail-under names {', '.join(unknown)}, not in --metrics")
    if args.min_coverage is not None and not 0 <= args.min_coverage <= 1:
        raise UsageError("--min-coverage must be between 0 and 1")
    if args.concurrency < 1:
        raise UsageError("--concurrency must be >= 1")
    _check_out(args.out)
    model = args.model or rn.get_default_model()
    options: dict[str, Any] = {}
    llm_only = {
        "--api-base": ("api_base", args.api_base),
        "--timeout": ("timeout", args.timeout),
        "--num-retries": ("num_retries", args.num_retries),
    }
    for flag, (name, value) in llm_only.items():
        if value is None or value == "":
            continue
        if isinstance(model, str) and model.strip().lower() == "offline":
            raise UsageError(f"{flag} applies to LLM models, not the offline judge")
        options[name] = value
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be > 0 seconds")
    if args.num_retries is not None and args.num_retries < 0:
        raise UsageError("--num-retries must be >= 0")
    if args.no_cache:
        options["cache"] = False

    df = read_table(args.data)
    baseline = read_table(args.baseline) if args.baseline is not None else None
    if baseline is not None:
        _check_pairing_column(args.on, baseline, df, columns)
    print(f"ragnotebook: scoring {len(df)} rows of {args.data} with {model!r}", file=sys.stderr)
    try:
        with warnings.catch_warnings():
            # the command prints its own line per metric with the first error (below)
            warnings.filterwarnings("ignore", message="ragnotebook: rows failed")
            scored = rn.evaluate(
                df,
                metrics=metrics,
                model=model,
                columns=columns or None,
                concurrency=args.concurrency,
                progress=not args.no_progress,
                **options,
            )
    except ValueError as exc:
        hint = " (on the command line: --column ROLE=COLUMN)" if "columns=" in str(exc) else ""
        raise DataError(f"{exc}{hint}") from exc
    except TypeError as exc:
        raise UsageError(str(exc)) from exc
    last_run = (scored.attrs.get("ragnotebook") or {}).get("last_run") or {}
    if last_run.get("interrupted"):
        # the library keeps the finished rows and returns; a CI job must not read that as a
        # finished run: no checks, exit 130, and the partial frame never under --out's name
        if args.out is not None:
            partial = args.out.with_name(f"{args.out.stem}.partial{args.out.suffix}")
            path = _write_frame(scored, partial)
            print(
                f"ragnotebook evaluate: interrupted; the finished rows are in {path} "
                f"(not {args.out}); no check was run",
                file=sys.stderr,
            )
        else:
            print("ragnotebook evaluate: interrupted; no check was run", file=sys.stderr)
        return EXIT_INTERRUPTED
    summary = rn.summary(scored)
    _print_summary(summary, "Summary (mean over scored rows; 'scored' = measured / total):")
    for m in summary.index:
        errors = scored[f"{m}_error"].dropna()
        if len(errors):
            first = str(errors.iloc[0])
            if "api_key=" in first:
                # keys are never command-line options (docs/cli.md)
                first += (
                    " [on the command line: set the provider's key in the environment, e.g. "
                    "OPENAI_API_KEY=... (any string for a server without authentication)]"
                )
            print(
                f"ragnotebook: {m}: {len(errors)} row(s) failed; first error: {first}",
                file=sys.stderr,
            )
    if args.out is not None:
        try:
            path = _write_frame(scored, args.out)
        except ImportError as exc:
            raise RuntimeError(f"cannot write Parquet without pyarrow ({exc})") from exc
        print(f"\nScored frame ({len(scored)} rows) written to {path}")

    failures: list[str] = []
    if thresholds or args.min_coverage is not None:
        print("\nChecks:")
        failures += check_thresholds(summary, thresholds, args.min_coverage)
    if baseline is not None:
        failures += check_baseline(baseline, scored, metrics, on=args.on, max_drop=args.max_drop)
    if failures:
        print(
            f"ragnotebook: {len(failures)} check(s) failed: " + "; ".join(failures),
            file=sys.stderr,
        )
        return EXIT_CHECKS_FAILED
    return EXIT_OK


# --------------------------------------------------------------------------- report


def report_command(args: argparse.Namespace) -> int:
    """``ragnotebook report``: write the HTML report of a scored file."""
    if args.out.suffix.lower() not in (".html", ".htm"):
        raise UsageError(
            f"--out: {args.out.name!r} must end in .html (the report is one HTML page)"
        )
    scored = read_table(args.scored)
    from ragnotebook.frame import scored_metrics

    if not scored_metrics(scored):
        raise DataError(f"{args.scored}: no ragnotebook scores in this file")
    try:
        import plotly.offline  # noqa: F401

        import ragnotebook.views.report  # noqa: F401
    except ImportError as exc:
        raise RuntimeError(
            "the HTML report is not available in this installation "
            f"({type(exc).__name__}: {exc}); install the views with "
            "pip install 'ragnotebook[plot]' or update ragnotebook"
        ) from exc
    args.out.parent.mkdir(parents=True, exist_ok=True)  # as evaluate --out does
    path = scored.rag.report(args.out)
    print(f"Report written to {path}")
    return EXIT_OK


# --------------------------------------------------------------------------- main


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ragnotebook",
        description="Judge RAG rows: context recall, context precision and faithfulness.",
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 input/data error, "
        "4 runtime error, 130 interrupted.",
    )
    from ragnotebook._version import __version__

    parser.add_argument("--version", action="version", version=f"ragnotebook {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    qs = sub.add_parser(
        "quickstart",
        help="score the bundled real sample with the offline judge",
        description="Score the bundled real rows (HotpotQA, RAGTruth, HaluEval) on all three "
        "metrics, print the summary and the lowest-scoring rows with what they miss, and "
        "write the scored frame (default: ragnotebook_quickstart.jsonl).",
    )
    qs.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where to write the scored frame (.parquet or .jsonl)",
    )
    qs.add_argument("--model", default="offline", help="judge model (default: offline)")
    qs.add_argument(
        "--worst", type=int, default=5, help="how many low-scoring rows to show (default: 5)"
    )

    ev = sub.add_parser(
        "evaluate",
        help="score a CSV / JSONL / Parquet file; gate on thresholds for CI",
        description="Score a file of RAG rows, print the summary and run the requested checks.",
    )
    ev.add_argument("data", type=Path, help="input rows: .csv, .jsonl, .json or .parquet")
    ev.add_argument(
        "--metrics",
        default="recall,precision,faithfulness",
        help="comma-separated metrics (default: recall,precision,faithfulness)",
    )
    ev.add_argument(
        "--model",
        default=None,
        help="litellm model, e.g. openai/gpt-4o-mini, or 'offline' "
        "(default: $RAGNOTEBOOK_MODEL, else offline)",
    )
    ev.add_argument("--out", type=Path, default=None, help="scored frame: .parquet or .jsonl")
    ev.add_argument(
        "--column",
        action="append",
        metavar="ROLE=COLUMN",
        help="map a role (question, answer, contexts, ground_truth) to a column; repeatable",
    )
    ev.add_argument("--api-base", default=None, help="base URL of an OpenAI-compatible server")
    ev.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="LLM models: seconds to wait for one reply (default 60)",
    )
    ev.add_argument(
        "--num-retries",
        type=int,
        default=None,
        metavar="N",
        help="LLM models: retries of a failed call (default 4; 429s have their own budget)",
    )
    ev.add_argument(
        "--fail-under",
        action="append",
        metavar="METRIC=VALUE,...",
        help="exit 1 when a metric's mean is below VALUE (e.g. recall=0.7,faithfulness=0.8)",
    )
    ev.add_argument(
        "--min-coverage",
        type=float,
        default=None,
        help="minimum share of rows scored (default 1.0 for --fail-under metrics; "
        "given explicitly, checked for every metric)",
    )
    ev.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="a previous scored file; exit 1 on a significant drop",
    )
    ev.add_argument(
        "--on",
        default="question",
        help="column pairing rows with --baseline (default: question)",
    )
    ev.add_argument(
        "--max-drop",
        type=float,
        default=0.02,
        help="--baseline tolerance for the mean and coverage drop (default 0.02)",
    )
    ev.add_argument("--concurrency", type=int, default=16, help="judge calls in flight")
    ev.add_argument("--no-cache", action="store_true", help="do not use the judge-answer cache")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    rp = sub.add_parser(
        "report",
        help="write the HTML report of a scored file",
        description="Write the self-contained HTML report of a scored .parquet or .jsonl file.",
    )
    rp.add_argument("scored", type=Path, help="a scored .parquet or .jsonl file")
    rp.add_argument("--out", type=Path, required=True, help="the .html file to write")
    return parser


@contextlib.contextmanager
def _plain_warnings(command: str) -> Iterator[None]:
    """Show warnings as ``ragnotebook <command>: warning: ...`` on stderr.

    Python's format names the file and line that warned, which for a command is the
    ``ragnotebook`` launcher script: noise to someone running it from a shell.
    """
    shown = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        print(f"ragnotebook {command}: warning: {message}", file=file or sys.stderr)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = shown


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``ragnotebook`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 ok, 1 a check failed, 2 usage error, 3 input or data
        error, 4 runtime error, 130 interrupted (see the module docstring).

    Examples
    --------
    >>> main(["quickstart", "--out", "/tmp/ragnotebook_doctest.jsonl"])  # doctest: +ELLIPSIS
    Loaded ...
    0
    >>> import json, pathlib, tempfile
    >>> data = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> _ = data.write_text(json.dumps({"question": "Where is the museum?",
    ...     "answer": "It is on Pier 4.", "contexts": ["The museum is on Pier 4."],
    ...     "ground_truth": "The museum is on Pier 4."}) + "\\n")
    >>> main(["evaluate", str(data), "--model", "offline", "--no-progress",
    ...       "--fail-under", "faithfulness=0.9"])  # doctest: +ELLIPSIS
    Summary ...
    ok   faithfulness: mean 1.000 >= 0.9
    ok   faithfulness: coverage 1.000 >= 1
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    try:
        with _plain_warnings(args.command):
            if args.command == "quickstart":
                return quickstart(args.out, args.model, args.worst)
            if args.command == "evaluate":
                return evaluate_command(args)
            if args.command == "report":
                return report_command(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except UsageError as exc:
        print(f"ragnotebook {args.command}: usage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DataError as exc:
        print(f"ragnotebook {args.command}: input error: {exc}", file=sys.stderr)
        return EXIT_DATA
    except Exception as exc:
        print(f"ragnotebook {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_RUNTIME
    return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
