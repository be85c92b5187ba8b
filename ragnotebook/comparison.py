"""Compare two scored frames row by row: is system B better than system A, and by how much?

:func:`compare` pairs the rows of two scored frames (for example two retrieval
strategies run on the same questions) on a key column and, for each metric,
reports the paired difference ``B - A`` with a seeded bootstrap confidence
interval, a paired sign-flip permutation p-value, how many rows changed
verdicts or status, and coverage.

Coverage comes first
--------------------
A mean over scored rows says nothing about the rows that failed. If B errors on
the rows A finds hard, B's mean can go up while B got worse. So ``compare``
never drops such rows silently:

* ``coverage_a`` / ``coverage_b`` are the shares of *all* keys (the union of
  both frames) that each side scored; a row missing from a frame, or with
  status ``error`` / ``no_ground_truth`` / ``no_reference``, is not scored;
* ``n_lost`` counts rows scored in A but not in B (``n_gained`` the reverse);
* ``mean_diff_strict`` is the difference of means over all keys with every
  unscored row counted as 0, so a system that errors more cannot look better;
* ``flag`` spells out any coverage difference, and a :class:`UserWarning` is
  raised when there is one.

``mean_diff``, its CI and p-value use only the pairs scored on both sides.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._warn import warn_user
from ragnotebook.frame import scored_mask, verdict_records

__all__ = ["compare"]

_ROLES = ("question", "answer", "contexts", "ground_truth")
#: Exact enumeration of sign flips up to this many pairs (2**12 = 4096 patterns).
_EXACT_MAX = 12

COLUMNS = (
    "n_pairs",
    "coverage_a",
    "coverage_b",
    "coverage_diff",
    "mean_a",
    "mean_b",
    "mean_diff",
    "ci_low",
    "ci_high",
    "p_value",
    "significant",
    "mean_diff_strict",
    "n_better",
    "n_worse",
    "n_same",
    "n_lost",
    "n_gained",
    "n_status_changed",
    "n_verdict_changed",
    "n_error_a",
    "n_error_b",
    "n_matched",
    "n_only_a",
    "n_only_b",
    "n_keys",
    "flag",
)

_FLOATS = ("score_a", "score_b", "diff")

ROW_COLUMNS = (
    "key",
    "metric",
    "row_a",
    "row_b",
    "score_a",
    "score_b",
    "diff",
    "status_a",
    "status_b",
    "change",
    "verdicts_changed",
)


# --------------------------------------------------------------------------- keys


class RepeatedKeyWarning(UserWarning):
    """The pairing key repeats a value in one frame, so its rows may pair with the wrong
    partners.

    :func:`compare` (and what pairs rows through it) warns with this class, once per frame
    whose ``on`` column (or index) repeats a value. Its advice names the Python keywords
    (``on='id'``, ``on=None``); the command line shows its own message, naming ``--on``,
    instead of this one.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> import ragnotebook as rn
    >>> df = pd.DataFrame({"question": ["Where?", "Where?"], "answer": ["Pier 4.", "Pier 5."],
    ...                    "contexts": [["It is on Pier 4."]] * 2})
    >>> scored = rn.faithfulness(df, model="offline", progress=False)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = rn.compare(scored, scored.iloc[::-1], on="question")
    >>> sorted({w.category.__name__ for w in caught})
    ['RepeatedKeyWarning']
    """


def _key_column(df: pd.DataFrame, on: str, side: str) -> str:
    if on in df.columns:
        return on
    if on in _ROLES:
        meta = df.attrs.get("ragnotebook", {}) if isinstance(df.attrs, dict) else {}
        mapped = (meta.get("columns", {}) or {}).get(on) if isinstance(meta, dict) else None
        if isinstance(mapped, str) and mapped in df.columns:
            return mapped
        from ragnotebook.intake import resolve_columns

        found = resolve_columns(df).get(on)
        if found is not None:
            return found
    from ragnotebook.views._data import column_hint

    raise KeyError(f"on={on!r} is not a column of frame {side}; {column_hint(df, on)}")


def _hashable(value: Any) -> Hashable | None:
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    try:
        hash(value)
    except TypeError:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return value  # type: ignore[no-any-return]


def _keys(df: pd.DataFrame, on: str | None, side: str) -> list[Hashable | None]:
    """One pairing key per row: (value, occurrence) so repeated values pair in order."""
    raw = list(df.index) if on is None else df[_key_column(df, on, side)].tolist()
    values = [_hashable(v) for v in raw]
    seen: dict[Hashable, int] = {}
    keys: list[Hashable | None] = []
    for v in values:
        if v is None:
            keys.append(None)
            continue
        n = seen.get(v, 0)
        seen[v] = n + 1
        keys.append((v, n))
    if any(n > 1 for n in seen.values()):
        what = "the index" if on is None else repr(on)
        warn_user(
            f"{what} repeats {repeat_counts(seen.values())} in frame {side}; repeated values "
            "are paired by row label where both frames give a value's rows the same labels, "
            "else in order of appearance"
            + (
                ""
                if on is None
                else "; pair on a column with one value per row (on='id') or "
                "on the index (on=None) to be sure"
            ),
            RepeatedKeyWarning,
        )
    return keys


def _by_label(
    keys_a: list[Hashable | None],
    keys_b: list[Hashable | None],
    labels_a: Sequence[Hashable],
    labels_b: Sequence[Hashable],
) -> tuple[list[Hashable | None], set[Hashable]]:
    """``keys_b`` with each repeated value's rows numbered as A numbers the rows of the
    same label, where both frames give that value's rows the same distinct labels (a
    reordered copy of a frame pairs row with row, not first with first); and the values
    whose rows were so paired."""
    rows_a: dict[Hashable, list[int]] = {}
    rows_b: dict[Hashable, list[int]] = {}
    for i, k in enumerate(keys_a):
        if k is not None:
            rows_a.setdefault(k[0], []).append(i)  # type: ignore[index]
    for j, k in enumerate(keys_b):
        if k is not None:
            rows_b.setdefault(k[0], []).append(j)  # type: ignore[index]
    out = list(keys_b)
    labelled: set[Hashable] = set()
    for value, js in rows_b.items():
        is_ = rows_a.get(value, [])
        if len(js) < 2 or len(is_) != len(js):
            continue
        la = [_hashable(labels_a[i]) for i in is_]
        lb = [_hashable(labels_b[j]) for j in js]
        if None in la or len(set(la)) != len(la) or set(la) != set(lb):
            continue
        for j, label in zip(js, lb, strict=True):
            out[j] = keys_a[is_[la.index(label)]]
        labelled.add(value)
    return out, labelled


def repeat_counts(counts: Iterable[int]) -> str:
    """How many values occur on more than one row, and on how many rows, in words.

    Parameters
    ----------
    counts : iterable of int
        How many rows hold each distinct value.

    Returns
    -------
    str

    Examples
    --------
    >>> repeat_counts([3, 1])
    '1 value (on 3 rows)'
    >>> repeat_counts([2, 2, 1])
    '2 values (on 4 rows)'
    """
    repeated = [n for n in counts if n > 1]
    values = f"{len(repeated)} value{'s' if len(repeated) != 1 else ''}"
    return f"{values} (on {sum(repeated)} rows)"


@dataclass(frozen=True)
class Pairing:
    """How the rows of two frames pair up (see :func:`pair_rows`).

    Attributes
    ----------
    keys_a, keys_b : list
        One key per row of each frame: ``(value, occurrence)``, or None for a
        missing value.
    union : list of (int or None, int or None)
        Every key once, A's order first: the row positions in A and in B (None
        where the frame has no such row). Rows with a missing key stand alone.
    in_order : frozenset
        The values that repeat in either frame and whose rows were paired in order of
        appearance, not by row label (empty when every repeated value's rows have the
        same distinct labels in both frames, so that each row pairs with its own).
    """

    keys_a: list[Hashable | None]
    keys_b: list[Hashable | None]
    union: list[tuple[int | None, int | None]]
    in_order: frozenset[Hashable] = frozenset()

    @property
    def matched(self) -> list[tuple[int, int]]:
        """``(position in A, position in B)`` of the rows in both frames."""
        return [(i, j) for i, j in self.union if i is not None and j is not None]

    @property
    def only_a(self) -> list[int]:
        """Positions in A of the rows with no partner in B."""
        return [i for i, j in self.union if j is None and i is not None]

    @property
    def only_b(self) -> list[int]:
        """Positions in B of the rows with no partner in A."""
        return [j for i, j in self.union if i is None and j is not None]


def pair_rows(a: pd.DataFrame, b: pd.DataFrame, on: str | None) -> Pairing:
    """Pair the rows of ``a`` and ``b`` by the values of ``on`` (None: the index).

    Repeated values pair by row label where both frames give a value's rows the same
    distinct labels (a reordered copy pairs row with row), else first-with-first; either
    way with a :class:`RepeatedKeyWarning` (:attr:`Pairing.in_order` names the values
    paired first-with-first). Rows with a missing key are unmatched. ``on`` may be a role
    name, as in :func:`compare`.

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"question": ["q1", "q2", None]})
    >>> b = pd.DataFrame({"question": ["q2", "q3"]})
    >>> p = pair_rows(a, b, "question")
    >>> p.matched, p.only_a, p.only_b
    ([(1, 0)], [0, 2], [1])
    >>> import warnings
    >>> a = pd.DataFrame({"question": ["q", "q"]}, index=["x-faithful", "x-hallucinated"])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     p = pair_rows(a, a.iloc[::-1], "question")
    >>> p.matched, p.in_order  # a reordered copy: row with row, by label
    ([(0, 1), (1, 0)], frozenset())
    """
    keys_a, keys_b = _keys(a, on, "A"), _keys(b, on, "B")
    # a value's second row has the key (value, 1): the values that repeat in a frame
    repeated = {k[0] for k in (*keys_a, *keys_b) if k is not None and k[1]}  # type: ignore[index]
    by_label: set[Hashable] = set()
    if on is not None:
        keys_b, by_label = _by_label(keys_a, keys_b, list(a.index), list(b.index))
    pos_b = {k: i for i, k in enumerate(keys_b) if k is not None}
    pos_a = {k: i for i, k in enumerate(keys_a) if k is not None}
    union: list[tuple[int | None, int | None]] = [
        (i, pos_b.get(k) if k is not None else None) for i, k in enumerate(keys_a)
    ]
    union += [(None, j) for j, k in enumerate(keys_b) if k is None or k not in pos_a]
    return Pairing(keys_a, keys_b, union, frozenset(repeated - by_label))


# --------------------------------------------------------------------------- metrics


def _metric_columns(df: pd.DataFrame) -> list[str]:
    """Columns ``m`` with an ``m_status`` next to them (the DataFrame API's schema)."""
    return [
        c
        for c in df.columns
        if isinstance(c, str) and not c.startswith("target") and f"{c}_status" in df.columns
    ]


def warn_unshared(in_a: Sequence[str], in_b: Sequence[str], who: str) -> None:
    """Warn, naming them, when metrics scored in only one frame are left out of a comparison.

    Parameters
    ----------
    in_a, in_b : sequence of str
        The metrics scored in frame A and in frame B.
    who : str
        The function the user called, which the warning names.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_unshared(["context_recall", "faithfulness"], ["faithfulness"], "compare()")
    >>> print(caught[0].message)
    compare(): 'context_recall' is scored only in A, so it is left out; score both frames with the same metrics to compare it.
    """
    from ragnotebook.intake import and_list

    only_a = [m for m in in_a if m not in in_b]
    only_b = [m for m in in_b if m not in in_a]
    if not (only_a and in_b) and not (only_b and in_a):
        return  # nothing shared at all: the caller's error says so
    parts = []
    for names, side in ((only_a, "A"), (only_b, "B")):
        if names:
            verb = "is" if len(names) == 1 else "are"
            parts.append(f"{and_list(names)} {verb} scored only in {side}")
    n = len(only_a) + len(only_b)
    warn_user(
        f"{who}: {' and '.join(parts)}, so {'it is' if n == 1 else 'they are'} left out; score "
        f"both frames with the same metrics to compare {'it' if n == 1 else 'them'}."
    )


def _metrics(a: pd.DataFrame, b: pd.DataFrame, metrics: Sequence[str] | str | None) -> list[str]:
    in_a, in_b = _metric_columns(a), _metric_columns(b)
    if metrics is None:
        chosen = [m for m in in_a if m in in_b]
        if not chosen:
            raise ValueError(
                f"the frames share no scored metric (A: {in_a or 'none'}, B: {in_b or 'none'}); "
                "score both with the same metrics first"
            )
        warn_unshared(in_a, in_b, "ragnotebook.compare")
        return chosen
    if isinstance(metrics, str):
        metrics = [metrics]
    from ragnotebook.api import _metric_name

    chosen = []
    for m in metrics:
        name = _metric_name(m)  # the aliases evaluate() accepts; "unknown metric ..." else
        for side, present in (("A", in_a), ("B", in_b)):
            if name not in present:
                raise ValueError(f"metric {name!r} is not scored in frame {side}")
        chosen.append(name)
    return chosen


def _verdict_words(value: Any) -> tuple[Any, ...] | None:
    records = verdict_records(value)
    if records is None:
        return None
    return tuple((v.get("index"), str(v.get("verdict", "")).strip().lower()) for v in records)


# --------------------------------------------------------------------------- statistics


def _bootstrap_ci(d: np.ndarray, n_boot: int, alpha: float, seed: int) -> tuple[float, float]:
    n = len(d)
    if n == 0:
        return math.nan, math.nan
    if n == 1 or np.all(d == d[0]) or n_boot < 1:
        return float(d.mean()), float(d.mean())
    rng = np.random.default_rng([seed, 0])
    means = []
    chunk = max(1, 2_000_000 // n)  # bound memory: at most ~2M indices at a time
    for start in range(0, n_boot, chunk):
        k = min(chunk, n_boot - start)
        means.append(d[rng.integers(0, n, size=(k, n))].mean(axis=1))
    all_means = np.concatenate(means)
    low, high = np.quantile(all_means, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def _sign_flip_p(d: np.ndarray, n_perm: int, seed: int) -> float:
    """Two-sided paired permutation p-value of the mean difference (sign flips)."""
    n = len(d)
    if n == 0:
        return math.nan
    observed = abs(float(d.mean()))
    tol = 1e-12
    if n <= _EXACT_MAX:
        patterns = np.arange(2**n)[:, None] >> np.arange(n)
        signs = 1 - 2 * (patterns & 1)
        flipped = np.abs((signs * d).mean(axis=1))
        return float(np.mean(flipped >= observed - tol))
    rng = np.random.default_rng([seed, 1])
    hits = 0
    chunk = max(1, 2_000_000 // n)
    for start in range(0, n_perm, chunk):
        k = min(chunk, n_perm - start)
        signs = rng.integers(0, 2, size=(k, n)) * 2 - 1
        hits += int(np.sum(np.abs((signs * d).mean(axis=1)) >= observed - tol))
    return (hits + 1) / (n_perm + 1)


# --------------------------------------------------------------------------- compare


def _side(df: pd.DataFrame, m: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Any]]:
    scores = pd.to_numeric(df[m], errors="coerce").astype("float64").to_numpy()
    status = df[f"{m}_status"].astype("string").fillna("").to_numpy(dtype=object)
    scored = scored_mask(df, m)
    verdicts = df[f"{m}_verdicts"].tolist() if f"{m}_verdicts" in df.columns else [None] * len(df)
    return scores, status, scored, verdicts


def compare(
    a: pd.DataFrame,
    b: pd.DataFrame,
    *,
    on: str | None = "question",
    metrics: Sequence[str] | str | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    alpha: float = 0.05,
    rows: bool = False,
) -> pd.DataFrame:
    """Paired comparison of two scored frames, per metric: ``B - A``.

    Parameters
    ----------
    a, b : pandas.DataFrame
        Scored frames (from :func:`ragnotebook.evaluate`, ``df.rag.evaluate``,
        :func:`ragnotebook.run_evals` ``.frame``, or one read back from a file).
        ``a`` is the baseline.
    on : str or None, default "question"
        The column whose values pair rows. A role name (``"question"``) that
        is not a column is looked up in ``attrs["ragnotebook"]["columns"]`` and
        then by the usual aliases (``input``, ``user_input``...); None pairs by
        the index. Repeated values pair by row label where both frames give
        them the same labels, else first-with-first (with a warning); rows with a
        missing key are unmatched.
    metrics : str or list of str, optional
        Metric columns to compare, by name or by the aliases
        :func:`ragnotebook.evaluate` accepts (``"recall"``, ``"precision"``,
        ``"faithful"``); default every metric scored in both frames (a warning names
        those scored in only one).
    n_boot : int, default 2000
        Bootstrap resamples for the CI; also the number of random sign flips
        for the p-value when there are more than 12 pairs (fewer: exact).
    seed : int, default 0
        Seed of both random streams; results are reproducible.
    alpha : float, default 0.05
        The CI is the ``1 - alpha`` percentile interval; ``significant`` is
        ``p_value < alpha``.
    rows : bool, default False
        Return the per-row table instead of the per-metric one.

    Returns
    -------
    pandas.DataFrame
        Per metric (index ``metric``):

        * ``n_pairs``: rows scored in both frames (the basis of the paired stats);
        * ``coverage_a``, ``coverage_b``: share of all keys (union of both
          frames) each side scored; ``coverage_diff`` = ``coverage_b - coverage_a``;
        * ``mean_a``, ``mean_b``: means over the pairs; ``mean_diff``: mean of
          ``B - A`` over the pairs; ``ci_low``, ``ci_high``: bootstrap
          percentile CI of ``mean_diff``; ``p_value``: two-sided paired
          sign-flip permutation test (1.0 when nothing changed);
          ``significant``: ``p_value < alpha``. The test and the CI are two methods:
          near the edge they can disagree (p = 0.0495 with a CI from -0.0004 to 0.10),
          a sign that the difference is borderline, not that either is wrong;
        * ``mean_diff_strict``: ``B - A`` over all keys, unscored rows counted 0;
        * ``n_better``, ``n_worse``, ``n_same``: pairs whose score went up,
          down, or stayed;
        * ``n_lost``: matched rows scored in A but not in B; ``n_gained`` the
          reverse;
        * ``n_status_changed``, ``n_verdict_changed``: matched rows whose
          status, or whose list of verdict words, differs;
        * ``n_error_a``, ``n_error_b``: status ``error`` among each frame's rows;
        * ``n_matched``, ``n_only_a``, ``n_only_b``, ``n_keys``: rows paired,
          only in A (or with a missing key), only in B, and the union;
        * ``flag``: a sentence on coverage differences, ``""`` when none.

        With ``rows=True``: one row per (key, metric) over all keys, with
        ``key``, ``metric``, ``row_a``, ``row_b`` (index labels, None when
        absent), ``score_a``, ``score_b``, ``diff``, ``status_a``,
        ``status_b``, ``change`` (``better``, ``worse``, ``same``, ``lost``,
        ``gained``, ``neither``, ``only_in_a``, ``only_in_b``) and
        ``verdicts_changed``.

        ``attrs["ragnotebook_compare"]`` records ``on``, ``n_boot``, ``seed``,
        ``alpha`` and the unmatched keys of each side.

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not a DataFrame.
    KeyError
        If ``on`` is neither a column nor a role found in a frame.
    ValueError
        If a requested metric is unknown ("unknown metric 'x'; expected one of ...") or
        not scored in a frame, or the frames share none; or if no row pairs up (no index
        label in common, or with ``on``, no value in common).

    Warns
    -----
    UserWarning
        When coverage differs, or keys repeat; and, without ``metrics=``, when a metric
        scored in only one frame is left out (the warning names it).

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> def frame(scores, statuses):
    ...     return pd.DataFrame({"question": ["q1", "q2", "q3", "q4"],
    ...                          "faithfulness": scores, "faithfulness_status": statuses})
    >>> a = frame([0.5, 1.0, 0.0, 0.5], ["ok"] * 4)
    >>> b = frame([1.0, 1.0, 0.5, 0.5], ["ok"] * 4)
    >>> row = ragnotebook.compare(a, b).loc["faithfulness"]
    >>> int(row.n_pairs), float(row.mean_diff), int(row.n_better), int(row.n_same)
    (4, 0.25, 2, 2)
    >>> float(row.p_value)   # exact test: 8 of the 16 sign patterns are as extreme
    0.5
    >>> same = ragnotebook.compare(a, a).loc["faithfulness"]
    >>> float(same.mean_diff), float(same.p_value)
    (0.0, 1.0)

    B errors on the row A found hardest: B's own mean (0.67) beats A's (0.50), but
    paired on the rows both scored nothing changed, and the lost row is flagged.

    >>> import warnings
    >>> c = frame([0.5, 1.0, None, 0.5], ["ok", "ok", "error", "ok"])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     row = ragnotebook.compare(a, c).loc["faithfulness"]
    >>> float(row.mean_diff), float(row.coverage_b), int(row.n_lost)
    (0.0, 0.75, 1)
    >>> row.flag.split(";")[0]
    'coverage A 1.00 vs B 0.75'
    """
    for name, df in (("a", a), ("b", b)):
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    if n_boot < 0:
        raise ValueError(f"n_boot must be >= 0, got {n_boot!r}")
    chosen = _metrics(a, b, metrics)
    pairing = pair_rows(a, b, on)
    if not pairing.matched:
        raise ValueError(no_pairs_message(on, (len(a), len(b))))
    table = [metric_stats(a, b, m, pairing, n_boot=n_boot, seed=seed, alpha=alpha) for m in chosen]
    per_row = [r for m in chosen for r in row_changes(a, b, m, pairing)] if rows else []
    warn_coverage(table, "ragnotebook.compare")
    info = {
        "on": on,
        "direction": "b - a",
        "n_boot": n_boot,
        "seed": seed,
        "alpha": alpha,
        "unmatched_a": [_key_text(pairing.keys_a[i]) for i in pairing.only_a],
        "unmatched_b": [_key_text(pairing.keys_b[j]) for j in pairing.only_b],
    }
    if rows:
        as_object = ("key", "row_a", "row_b", "status_a", "status_b", "verdicts_changed")
        out = pd.DataFrame(
            {
                c: pd.Series(
                    [r[c] for r in per_row],
                    dtype=object if c in as_object else "float64" if c in _FLOATS else None,
                )
                for c in ROW_COLUMNS
            }
        )
    else:
        out = pd.DataFrame(table, columns=["metric", *COLUMNS]).set_index("metric")
    out.attrs["ragnotebook_compare"] = info
    return out


def no_pairs_message(on: str | None, sizes: tuple[int, int] | None = None) -> str:
    """Why no row of two frames pairs up, and what to pass instead.

    Parameters
    ----------
    on : str or None
        The column the rows were paired on; ``None`` for the index labels.
    sizes : (int, int), optional
        The two frames' numbers of rows: a frame with none pairs with nothing, whatever
        ``on`` is.

    Returns
    -------
    str

    Examples
    --------
    >>> no_pairs_message("question")
    "the two frames share no value of 'question', so no row pairs up"
    >>> no_pairs_message(None, (0, 3))
    'frame A has no rows, so no row pairs up'
    """
    empty = [side for side, n in zip("AB", sizes or (1, 1), strict=True) if n == 0]
    if empty:
        which = "both frames have" if len(empty) == 2 else f"frame {empty[0]} has"
        return f"{which} no rows, so no row pairs up"
    if on is None:
        return (
            "the two frames have no index label in common, so no row pairs up; "
            "pass on='question' (or another column) to pair by a column"
        )
    return f"the two frames share no value of {on!r}, so no row pairs up"


def as_runs(text: str) -> str:
    """A message of :func:`compare` with its frames A and B named "the baseline" and
    "this run" (systems are often called A and B too).

    Parameters
    ----------
    text : str
        A message of :func:`compare` (a warning or an error) about frames A and B.

    Returns
    -------
    str

    Examples
    --------
    >>> as_runs("coverage A 1.00 vs B 0.50; 4 row(s) only in A")
    'coverage: baseline 1.00, this run 0.50; 4 row(s) only in the baseline'
    >>> as_runs("'question' repeats 1 value (on 2 rows) in frame B")
    "'question' repeats 1 value (on 2 rows) in this run"
    """
    text = re.sub(r"\bcoverage A (\S+) vs B (\S+)", r"coverage: baseline \1, this run \2", text)
    for side, name in (("A", "the baseline"), ("B", "this run")):
        text = re.sub(rf"\bframe {side}\b", name, text)
        text = re.sub(rf"\bin {side}\b", f"in {name}", text)
    return text


def judge_changes(baseline: pd.DataFrame, scored: pd.DataFrame) -> list[str]:
    """What differs between the judges that scored a baseline and this run.

    Read from each frame's run metadata (``attrs["ragnotebook"]``): the judge, the model
    and the version of each prompt both runs used. A score that moved between two runs
    scored by different judges may have moved because of the judge, not the system.

    Parameters
    ----------
    baseline, scored : pandas.DataFrame
        The baseline (an earlier run) and this run.

    Returns
    -------
    list of str
        One entry per difference (``"judge 'offline-v15' -> 'offline-v16'"``), in the
        order judge, model, prompts by kind; empty when they agree or when either frame
        has no run metadata (a CSV, a JSON Lines file without its ``.run.json``), as
        nothing can then be compared.

    Examples
    --------
    >>> import pandas as pd
    >>> a, b = pd.DataFrame(), pd.DataFrame()
    >>> a.attrs["ragnotebook"] = {"judge": "mock-a", "model": "mock",
    ...                           "prompt_versions": {"verify_claims": "v2"}}
    >>> b.attrs["ragnotebook"] = {"judge": "mock-b", "model": "mock",
    ...                           "prompt_versions": {"verify_claims": "v3"}}
    >>> judge_changes(a, b)
    ["judge 'mock-a' -> 'mock-b'", "prompt verify_claims 'v2' -> 'v3'"]
    >>> judge_changes(a, pd.DataFrame())
    []
    """
    before = baseline.attrs.get("ragnotebook") if isinstance(baseline.attrs, dict) else None
    now = scored.attrs.get("ragnotebook") if isinstance(scored.attrs, dict) else None
    if not isinstance(before, dict) or not isinstance(now, dict) or not before or not now:
        return []
    changed = []
    for key in ("judge", "model"):
        if before.get(key) != now.get(key):
            changed.append(f"{key} {before.get(key)!r} -> {now.get(key)!r}")
    old_prompts = before.get("prompt_versions") or {}
    new_prompts = now.get("prompt_versions") or {}
    for kind in sorted(set(old_prompts) & set(new_prompts)):
        if old_prompts[kind] != new_prompts[kind]:
            changed.append(f"prompt {kind} {old_prompts[kind]!r} -> {new_prompts[kind]!r}")
    return changed


def other_judge_message(changes: Sequence[str]) -> str:
    """The warning given when a baseline was scored by another judge than this run.

    Parameters
    ----------
    changes : sequence of str
        :func:`judge_changes`' entries (at least one).

    Returns
    -------
    str

    Examples
    --------
    >>> other_judge_message(["judge 'mock-a' -> 'mock-b'"])  # doctest: +NORMALIZE_WHITESPACE
    "the baseline was scored by another judge than this run (judge 'mock-a' -> 'mock-b'): a
    difference may come from the judge, not the system; score both runs with the same judge
    to compare systems"
    """
    return (
        "the baseline was scored by another judge than this run ("
        + "; ".join(changes)
        + "): a difference may come from the judge, not the system; score both runs "
        "with the same judge to compare systems"
    )


def warn_coverage(table: Sequence[dict[str, Any]], who: str) -> None:
    """Warn when some metric's ``flag`` reports a coverage difference (one warning).

    Parameters
    ----------
    table : sequence of dict
        :func:`metric_stats` results.
    who : str
        The function the user called, which the warning names.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_coverage([{"metric": "faithfulness", "flag": "1 row(s) only in A"}], "f()")
    >>> str(caught[0].message)
    'f(): coverage differs, so the means alone mislead; faithfulness: 1 row(s) only in A'
    """
    flagged = [f"{t['metric']}: {t['flag']}" for t in table if t["flag"]]
    if flagged:
        warn_user(f"{who}: coverage differs, so the means alone mislead; " + " | ".join(flagged))


def _key_text(key: Any) -> str | None:
    return str(key[0]) if key else None


def metric_stats(
    a: pd.DataFrame,
    b: pd.DataFrame,
    m: str,
    pairing: Pairing,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    alpha: float = 0.05,
) -> dict[str, Any]:
    """One row of :func:`compare`'s table: the paired statistics of metric ``m``.

    Parameters
    ----------
    a, b : pandas.DataFrame
        The scored frames.
    m : str
        A metric scored in both.
    pairing : Pairing
        From :func:`pair_rows`.
    n_boot, seed, alpha
        As in :func:`compare`.

    Returns
    -------
    dict
        ``metric`` and the :data:`COLUMNS` of :func:`compare`.
    """
    sa, st_a, ok_a, vd_a = _side(a, m)
    sb, st_b, ok_b, vd_b = _side(b, m)
    matched, n_keys = pairing.matched, len(pairing.union)
    n_only_a, n_only_b = len(pairing.only_a), len(pairing.only_b)
    ia = np.array([i for i, _ in matched], dtype=int)
    ib = np.array([j for _, j in matched], dtype=int)
    both = ok_a[ia] & ok_b[ib] if matched else np.zeros(0, bool)
    d = sb[ib][both] - sa[ia][both]
    # float noise (0.1 + 0.2 - 0.3) must not count as a change
    d = np.where(np.abs(d) < 1e-12, 0.0, d)
    n_pairs = int(both.sum())
    lost = int((ok_a[ia] & ~ok_b[ib]).sum()) if matched else 0
    gained = int((~ok_a[ia] & ok_b[ib]).sum()) if matched else 0
    n_scored_a, n_scored_b = int(ok_a.sum()), int(ok_b.sum())
    cov_a = n_scored_a / n_keys if n_keys else math.nan
    cov_b = n_scored_b / n_keys if n_keys else math.nan
    strict_a = float(np.where(ok_a, sa, 0.0).sum()) / n_keys if n_keys else math.nan
    strict_b = float(np.where(ok_b, sb, 0.0).sum()) / n_keys if n_keys else math.nan
    ci_low, ci_high = _bootstrap_ci(d, n_boot, alpha, seed)
    p = _sign_flip_p(d, n_boot, seed)
    status_changed = sum(st_a[i] != st_b[j] for i, j in matched)
    verdict_changed = sum(_verdict_words(vd_a[i]) != _verdict_words(vd_b[j]) for i, j in matched)
    return {
        "metric": m,
        "n_pairs": n_pairs,
        "coverage_a": cov_a,
        "coverage_b": cov_b,
        "coverage_diff": cov_b - cov_a,
        "mean_a": float(sa[ia][both].mean()) if n_pairs else math.nan,
        "mean_b": float(sb[ib][both].mean()) if n_pairs else math.nan,
        "mean_diff": float(d.mean()) if n_pairs else math.nan,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "p_value": p,
        "significant": bool(p < alpha) if n_pairs else False,
        "mean_diff_strict": strict_b - strict_a,
        "n_better": int((d > 0).sum()),
        "n_worse": int((d < 0).sum()),
        "n_same": int((d == 0).sum()),
        "n_lost": lost,
        "n_gained": gained,
        "n_status_changed": int(status_changed),
        "n_verdict_changed": int(verdict_changed),
        "n_error_a": int((st_a == "error").sum()),
        "n_error_b": int((st_b == "error").sum()),
        "n_matched": len(matched),
        "n_only_a": n_only_a,
        "n_only_b": n_only_b,
        "n_keys": n_keys,
        "flag": _flag(cov_a, cov_b, lost, gained, n_only_a, n_only_b, n_scored_a, n_scored_b),
    }


def _flag(
    cov_a: float,
    cov_b: float,
    lost: int,
    gained: int,
    only_a: int,
    only_b: int,
    n_scored_a: int,
    n_scored_b: int,
) -> str:
    parts = []
    if n_scored_a != n_scored_b or lost or gained:
        parts.append(f"coverage A {cov_a:.2f} vs B {cov_b:.2f}")
    if lost:
        parts.append(f"{lost} row(s) scored in A are unscored (error or missing) in B")
    if gained:
        parts.append(f"{gained} row(s) scored in B are unscored in A")
    if only_a:
        parts.append(f"{only_a} row(s) only in A")
    if only_b:
        parts.append(f"{only_b} row(s) only in B")
    if not parts:
        return ""
    return "; ".join(parts) + "; mean_diff covers paired rows only, see mean_diff_strict"


def row_changes(a: pd.DataFrame, b: pd.DataFrame, m: str, pairing: Pairing) -> list[dict[str, Any]]:
    """The per-row records of :func:`compare` (``rows=True``) for metric ``m``.

    One dict per key of ``pairing.union`` with the :data:`ROW_COLUMNS`; ``change``
    is ``better``, ``worse`` or ``same`` for the pairs scored in both frames.
    """
    keys_a, keys_b = pairing.keys_a, pairing.keys_b
    sa, st_a, ok_a, vd_a = _side(a, m)
    sb, st_b, ok_b, vd_b = _side(b, m)
    out = []
    for i, j in pairing.union:
        key = keys_a[i] if i is not None else keys_b[j] if j is not None else None
        score_a = float(sa[i]) if i is not None and ok_a[i] else math.nan
        score_b = float(sb[j]) if j is not None and ok_b[j] else math.nan
        if i is None:
            change = "only_in_b"
        elif j is None:
            change = "only_in_a"
        elif ok_a[i] and ok_b[j]:
            diff = score_b - score_a
            change = "same" if abs(diff) < 1e-12 else "better" if diff > 0 else "worse"
        elif ok_a[i]:
            change = "lost"
        elif ok_b[j]:
            change = "gained"
        else:
            change = "neither"
        out.append(
            {
                "key": key[0] if isinstance(key, tuple) else key,
                "metric": m,
                "row_a": a.index[i] if i is not None else None,
                "row_b": b.index[j] if j is not None else None,
                "score_a": score_a,
                "score_b": score_b,
                "diff": score_b - score_a,
                "status_a": str(st_a[i]) if i is not None else None,
                "status_b": str(st_b[j]) if j is not None else None,
                "change": change,
                "verdicts_changed": (
                    bool(_verdict_words(vd_a[i]) != _verdict_words(vd_b[j]))
                    if i is not None and j is not None
                    else None
                ),
            }
        )
    return out
