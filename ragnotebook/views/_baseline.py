"""The report's "Against the baseline" section: this run paired with an earlier run.

:func:`against_baseline` checks a baseline frame and computes everything the section
shows, before any HTML is built; :func:`baseline_html` writes the section. The numbers
are :func:`ragnotebook.compare`'s (the same call ``ragnotebook evaluate --baseline``
makes: :func:`~ragnotebook.comparison.compare` with the baseline as A and this run as
B), and the rows that dropped come from the same pairing
(:func:`~ragnotebook.comparison.pair_rows`, :func:`~ragnotebook.comparison.row_changes`);
no statistic is computed here.

Every data string (questions, row labels, the judges' names) is HTML-escaped, with
control characters shown as their pictures, and each data field has ``dir="auto"``.

Examples
--------
>>> import pandas as pd, ragnotebook
>>> from ragnotebook.views._baseline import against_baseline
>>> rows = pd.DataFrame({"question": ["q1", "q2"], "answer": ["A.", "B."],
...                      "contexts": [["x"], ["y"]]})
>>> def run(verdicts):
...     judge = ragnotebook.MockJudge(extract_claims=[["a"], ["b"]], verify_claims=verdicts)
...     return rows.rag.faithfulness(model=judge, progress=False)
>>> old, new = run([["yes"], ["yes"]]), run([["yes"], ["no"]])
>>> a = against_baseline(new, old, "question")
>>> row = a.table.loc["faithfulness"]
>>> float(row.mean_a), float(row.mean_b), int(row.n_worse)
(1.0, 0.5, 1)
>>> a.drops["faithfulness"]     # (position in this run, baseline score, this run's)
[(1, 1.0, 0.0)]
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragnotebook._warn import warn_user
from ragnotebook.comparison import (
    Pairing,
    RepeatedKeyWarning,
    _key_column,
    as_runs,
    compare,
    judge_changes,
    no_pairs_message,
    other_judge_message,
    pair_rows,
    row_changes,
)
from ragnotebook.frame import require_scored, scored_metrics
from ragnotebook.views._data import METRIC_LABELS, row_gists, row_labels, row_names
from ragnotebook.views._html import escape, shorten, two_places

__all__ = [
    "BASELINE_CSS",
    "BASELINE_JS",
    "Against",
    "against_baseline",
    "baseline_html",
    "repeated_key_note",
]

#: What the section says in place of compare()'s repeated-key warnings, when a caller
#: has its own words for them (see :func:`repeated_key_note`); None keeps compare()'s.
_REPEATED_KEY_NOTE: ContextVar[str | None] = ContextVar("repeated_key_note", default=None)


@contextlib.contextmanager
def repeated_key_note(note: str) -> Iterator[None]:
    """Within the block, the section says ``note`` (nothing when it is empty) in place of
    :func:`ragnotebook.compare`'s warnings about a pairing column that repeats values,
    and :func:`against_baseline` does not give those warnings again: the caller says it
    in its own words.

    :func:`ragnotebook.compare` gives one warning per frame, advising the Python keywords
    ``on='id'`` and ``on=None``; ``ragnotebook report --baseline`` puts the one message
    it prints, naming ``--on``, in the page instead, or none when every repeated value's
    rows pair by their labels.

    Parameters
    ----------
    note : str
        The note, or ``""`` for none.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"question": ["q", "q"], "faithfulness": [1.0, 0.5],
    ...                      "faithfulness_status": ["ok", "ok"]})
    >>> with warnings.catch_warnings(record=True) as caught, repeated_key_note("say it so"):
    ...     warnings.simplefilter("always")
    ...     notes = against_baseline(rows, rows, "question").notes
    >>> notes, [str(w.message) for w in caught]
    (['say it so'], [])
    """
    token = _REPEATED_KEY_NOTE.set(note)
    try:
        yield
    finally:
        _REPEATED_KEY_NOTE.reset(token)


#: Styles of the section (added to the page only when it has the section).
BASELINE_CSS = """
.rnb-warn{border:1px solid #D55E00;border-left-width:5px;border-radius:6px;padding:6px 12px;
margin:10px 0;max-width:900px}
.rnb-drops{margin:4px 0 12px}.rnb-drops li{margin:3px 0}
.rnb-drops .rnb-sc{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;
white-space:pre}
"""

#: Added to the page's last script with the section: a link to a row opens that row
#: (built from the data as any opened row), and shows it if the filter hid it.
BASELINE_JS = """
(function () {
  "use strict";
  var box = document.getElementById("rnb-filter");
  var group = document.getElementById("rnb-group");
  document.querySelectorAll("a.rnb-to-row").forEach(function (a) {
    a.addEventListener("click", function () {
      var r = document.getElementById(a.getAttribute("href").slice(1));
      if (!r) { return; }
      if (r.style.display === "none") {
        box.value = "";
        if (group) { group.value = ""; }
        box.dispatchEvent(new Event("input"));
      }
      r.open = true;
    });
  });
})();
"""


@dataclass(frozen=True)
class Against:
    """A report's comparison with its baseline, ready to be written (see
    :func:`against_baseline`).

    Attributes
    ----------
    table : pandas.DataFrame
        :func:`ragnotebook.compare` ``(baseline, this run, on=on)`` over :attr:`metrics`:
        A is the baseline, B this run.
    metrics : list of str
        This run's metrics that the baseline has too (compared).
    skipped : list of str
        This run's metrics that the baseline was not scored on (not compared).
    on : str or None
        The column the rows are paired on (None: the index labels).
    pairing : Pairing
        The rows' pairing (positions in the baseline and in this run).
    drops : dict of str to list of (int, float, float)
        Per metric, every compared row whose score went down: its position in this
        run, its baseline score and its score in this run, the largest drop first
        (ties in this run's row order).
    notes : list of str
        The comparison's warnings (repeated pairing values, coverage differences),
        with A and B named "the baseline" and "this run" (within
        :func:`repeated_key_note`, its note stands for those about repeated values).
    changes : list of str
        :func:`~ragnotebook.comparison.judge_changes`: how the judges differ.
    sides : tuple of dict
        The baseline's and this run's rows, judge, model and prompt versions (``None``
        for a run without run metadata).
    """

    table: pd.DataFrame
    metrics: list[str]
    skipped: list[str]
    on: str | None
    pairing: Pairing
    drops: dict[str, list[tuple[int, float, float]]]
    notes: list[str]
    changes: list[str]
    sides: tuple[dict[str, Any], dict[str, Any]]


def _side(df: pd.DataFrame) -> dict[str, Any]:
    meta = df.attrs.get("ragnotebook") if isinstance(df.attrs, dict) else None
    if not isinstance(meta, dict) or not meta:
        return {"rows": len(df), "known": False, "judge": None, "model": None, "prompts": None}
    prompts = meta.get("prompt_versions") or {}
    return {
        "rows": len(df),
        "known": True,
        "judge": meta.get("judge"),
        "model": meta.get("model"),
        "prompts": dict(prompts) if isinstance(prompts, dict) else {},
    }


def against_baseline(
    df: pd.DataFrame, baseline: Any, on: str | None, who: str = "report()"
) -> Against:
    """Check ``baseline`` against this run and compute the section's numbers.

    Parameters
    ----------
    df : pandas.DataFrame
        This run's scored frame.
    baseline : pandas.DataFrame
        An earlier run's scored frame.
    on : str or None
        The column pairing the rows, as :func:`ragnotebook.compare`'s ``on`` (a role
        name such as ``"question"`` is found as ``compare`` finds it); None pairs by
        the index labels.
    who : str, default "report()"
        The function the user called, which the messages name.

    Returns
    -------
    Against

    Raises
    ------
    TypeError
        If ``baseline`` is not a DataFrame.
    ValueError
        If the baseline has none of this run's scored metrics, or if no row pairs up
        (no value of ``on`` in common, no index label in common, or a frame without
        rows); the message names the reason and ``on``.
    KeyError
        If ``on`` is neither a column nor a role found in either frame.

    Warns
    -----
    UserWarning
        :func:`ragnotebook.compare`'s warnings (repeated pairing values, coverage
        differences), and the judges' difference when they differ; each names ``who``.
        Those about repeated values are left out within :func:`repeated_key_note`.

    Examples
    --------
    >>> import pandas as pd
    >>> new = pd.DataFrame({"question": ["q1"], "faithfulness": [1.0],
    ...                     "faithfulness_status": ["ok"]})
    >>> against_baseline(new, new.assign(question="another"), "question")
    Traceback (most recent call last):
    ...
    ValueError: report(): cannot compare with the baseline (rows paired on 'question'): the two frames share no value of 'question', so no row pairs up; pass on= naming a column whose values both frames share, such as a question id
    """
    if not isinstance(baseline, pd.DataFrame):
        raise TypeError(
            f"{who}: baseline must be a pandas DataFrame (an earlier run's scored frame), "
            f"got {type(baseline).__name__}"
        )
    metrics = require_scored(df)
    have = scored_metrics(baseline)
    shared = [m for m in metrics if m in have]
    paired_on = "by the index labels" if on is None else f"on {on!r}"
    if not shared:
        raise ValueError(
            f"{who}: cannot compare with the baseline (rows paired {paired_on}): it has "
            f"none of this frame's metrics ({', '.join(metrics)}); it has "
            + (", ".join(have) if have else "no ragnotebook scores")
            + "; pass an earlier run's scored frame"
        )
    if on is not None:
        for frame, side in ((baseline, "A"), (df, "B")):
            try:
                _key_column(frame, on, side)
            except KeyError as exc:
                raise KeyError(f"{who}: {as_runs(str(exc.args[0]))}") from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compare() below gives the pairing's warnings
        pairing = pair_rows(baseline, df, on)
    if not pairing.matched:
        hint = (
            ""
            if on is None or not len(baseline) or not len(df)
            else "; pass on= naming a column whose values both frames share, such as a question id"
        )
        raise ValueError(
            f"{who}: cannot compare with the baseline (rows paired {paired_on}): "
            f"{as_runs(no_pairs_message(on, (len(baseline), len(df))))}{hint}"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = compare(baseline, df, on=on, metrics=shared)
    instead = _REPEATED_KEY_NOTE.get()
    notes = []
    for w in caught:
        note = as_runs(str(w.message).removeprefix("ragnotebook.compare: "))
        if instead is not None and issubclass(w.category, RepeatedKeyWarning):
            # the caller's own words, once, where compare()'s first one was
            if instead and instead not in notes:
                notes.append(instead)
            continue
        notes.append(note)
        # in compare()'s class: the command line shows its own repeated-key message
        warn_user(f"{who}: against the baseline: {note}", w.category)
    changes = judge_changes(baseline, df)
    if changes:
        warn_user(f"{who}: {other_judge_message(changes)}")
    drops = {}
    for m in shared:
        records = row_changes(baseline, df, m, pairing)
        worse = [
            (float(r["diff"]), j, float(r["score_a"]), float(r["score_b"]))
            for (_, j), r in zip(pairing.union, records, strict=True)
            if r["change"] == "worse" and j is not None
        ]
        worse.sort(key=lambda t: (t[0], t[1]))
        drops[m] = [(j, a, b) for _, j, a, b in worse]
    return Against(
        table=table,
        metrics=shared,
        skipped=[m for m in metrics if m not in shared],
        on=on,
        pairing=pairing,
        drops=drops,
        notes=notes,
        changes=changes,
        sides=(_side(baseline), _side(df)),
    )


def _mean(value: Any) -> str:
    return "—" if value is None or math.isnan(float(value)) else two_places(float(value))


def _signed(value: Any) -> str:
    """A change as shown: a sign and two decimals, rounded half-up (``-0.25``)."""
    if value is None or math.isnan(float(value)):
        return "—"
    v = float(value)
    return ("-" if v < 0 else "+") + two_places(abs(v))


def _p_value(value: Any, significant: bool) -> str:
    if value is None or math.isnan(float(value)):
        return "—"
    return f"{float(value):.4f}" + (" · significant" if significant else "")


def _rows(n: int) -> str:
    return f"{n} row{'' if n == 1 else 's'}"


def _prompts(prompts: dict[str, Any] | None) -> str:
    if prompts is None:
        return "unknown"
    if not prompts:
        return "—"
    return ", ".join(f"{kind} {version}" for kind, version in sorted(prompts.items()))


def _sides_html(against: Against) -> str:
    """Who scored each run (judge, model, prompt versions), and a warning when they differ."""
    lines = []
    for name, side in zip(("baseline", "this run"), against.sides, strict=True):
        judge = "unknown" if side["judge"] is None else side["judge"]
        model = "unknown" if side["model"] is None else side["model"]
        lines.append(
            f'<tr><td>{name}</td><td>{side["rows"]}</td><td dir="auto">{escape(judge)}</td>'
            f'<td dir="auto">{escape(model)}</td>'
            f'<td dir="auto">{escape(_prompts(side["prompts"]))}</td></tr>'
        )
    out = (
        '<table class="rnb-sum rnb-sides"><thead><tr><th>run</th><th>rows</th><th>judge</th>'
        f"<th>model</th><th>prompt versions</th></tr></thead><tbody>{''.join(lines)}"
        "</tbody></table>"
    )
    if against.changes:
        text = other_judge_message(against.changes)
        out += (
            '<p class="rnb-warn" id="rnb-other-judge" role="note">⚠ '
            f"{escape(text[0].upper() + text[1:])}.</p>"
        )
    unknown = [
        name
        for name, side in zip(("the baseline", "this run"), against.sides, strict=True)
        if not side["known"]
    ]
    if unknown:
        who = " and ".join(unknown)
        verb = "have" if len(unknown) > 1 else "has"
        out += (
            f'<p class="help" id="rnb-judge-unknown">{who[0].upper() + who[1:]} {verb} no run '
            "metadata (a CSV, or a JSON Lines file without its .run.json), so whether one "
            "judge scored both runs cannot be checked.</p>"
        )
    return out


def _pairing_html(against: Against, n_rows: int) -> str:
    """How the rows paired, and how many could not (never left out silently)."""
    p = against.pairing
    on = "their index labels" if against.on is None else f"'{against.on}'"
    empty_a = sum(k is None for k in p.keys_a)
    empty_b = sum(k is None for k in p.keys_b)
    empty = ""
    if empty_a or empty_b:
        what = "label" if against.on is None else f"value of {on}"
        empty = (
            f" (of them, {empty_a} in the baseline and {empty_b} in this run have no {what}, "
            "which pairs with nothing)"
        )
    return (
        f'<p id="rnb-pairing">{escape(_rows(len(p.matched)))} of this run paired with the '
        f"baseline on {escape(on)} (this run has {n_rows}, the baseline "
        f"{against.sides[0]['rows']}). Not compared, as they have no partner: "
        f"{escape(_rows(len(p.only_a)))} only in the baseline, {len(p.only_b)} only in this "
        f"run{escape(empty)}.</p>"
    )


#: The metrics table's columns: (heading, hover help).
_HEADS = (
    ("metric", ""),
    ("baseline", "the baseline's mean over the compared rows"),
    ("this run", "this run's mean over the compared rows"),
    ("change", "this run - baseline: the mean of the compared rows' differences"),
    ("95% CI", "bootstrap percentile interval of the change (2,000 resamples, seed 0)"),
    ("p-value", "two-sided paired sign-flip permutation test of the change"),
    ("compared", "paired rows scored in both runs: the rows behind every number of the line"),
    ("up", "compared rows whose score went up"),
    ("down", "compared rows whose score went down"),
    ("same", "compared rows whose score stayed"),
    ("left out", "paired rows not scored in one run or both (an error, no ground truth ...)"),
)


def _table_html(against: Against) -> str:
    head = "".join(
        f'<th title="{escape(why)}">{escape(name)}</th>' if why else f"<th>{escape(name)}</th>"
        for name, why in _HEADS
    )
    lines = []
    for m in against.metrics:
        r: Any = against.table.loc[m]
        left = int(r["n_matched"]) - int(r["n_pairs"])
        lost, gained = int(r["n_lost"]), int(r["n_gained"])
        left_text = str(left)
        if lost or gained:
            left_text += f" ({lost} scored in the baseline only, {gained} in this run only)"
        ci = (
            "—"
            if math.isnan(float(r["ci_low"]))
            else f"{_signed(r['ci_low'])} to {_signed(r['ci_high'])}"
        )
        cells = [
            _mean(r["mean_a"]),
            _mean(r["mean_b"]),
            _signed(r["mean_diff"]),
            ci,
            _p_value(r["p_value"], bool(r["significant"])),
            str(int(r["n_pairs"])),
            str(int(r["n_better"])),
            str(int(r["n_worse"])),
            str(int(r["n_same"])),
            left_text,
        ]
        tds = "".join(f"<td>{escape(c)}</td>" for c in cells)
        lines.append(f'<tr data-metric="{m}"><td>{METRIC_LABELS[m]}</td>{tds}</tr>')
    return (
        '<table class="rnb-sum rnb-against"><thead><tr>'
        f"{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>"
    )


def _drops_html(against: Against, df: pd.DataFrame, shown: set[int], top: int) -> str:
    """Per metric, the ``top`` rows whose score dropped most, each linked to its detail."""
    names, labels = row_names(df), row_labels(df)
    questions = row_gists(df)  # the answer where there is no question
    parts = []
    for m in against.metrics:
        drops = against.drops[m]
        label = METRIC_LABELS[m]
        if not drops:
            parts.append(
                f'<p class="help" data-metric="{m}">{label}: no compared row went down.</p>'
            )
            continue
        listed = drops[:top]
        if len(listed) < len(drops):
            title = (
                f"{label}: the {_rows(len(listed))} that dropped most, of {len(drops)} that "
                "went down"
            )
        else:
            title = f"{label}: the {_rows(len(drops))} that went down, largest drop first"
        items = []
        for pos, before, now in listed:
            name = f'<span dir="auto" title="{escape(labels[pos])}">{escape(names[pos])}</span>'
            if pos in shown:
                name = f'<a class="rnb-to-row" href="#row-{pos}">{name}</a>'
            else:
                name += ' <span class="meta">(not in the rows below)</span>'
            scores = f"baseline {two_places(before)} → this run {two_places(now)} ({_signed(now - before)})"
            items.append(
                f'<li data-row="{pos}">{name}  <span class="rnb-sc">{escape(scores)}</span>  '
                f'<span dir="auto">{escape(shorten(questions[pos], 140))}</span></li>'
            )
        parts.append(
            f'<h4 data-metric="{m}">{escape(title)}</h4>'
            f'<ol class="rnb-drops" data-metric="{m}">{"".join(items)}</ol>'
        )
    return "".join(parts)


def baseline_html(against: Against, df: pd.DataFrame, positions: list[int], top: int) -> str:
    """The report's "Against the baseline" section.

    Parameters
    ----------
    against : Against
        From :func:`against_baseline`.
    df : pandas.DataFrame
        This run's scored frame (the report's).
    positions : list of int
        The rows of the report's drill-down: a dropped row among them links to its
        detail (``#row-<position>``), any other says it is not in the rows below.
    top : int
        Rows listed per metric among those whose score dropped (the report's ``top``).

    Returns
    -------
    str
        A ``<section id="baseline">``: who scored each run (with a warning when the
        judge, model or a prompt version differs), how the rows paired and how many
        have no partner, one line per compared metric (the baseline's and this run's
        means over the compared rows, the change, its 95% CI and p-value, the rows
        compared, up, down and the same, the paired rows left out), the metrics not
        compared, the comparison's notes, and the rows that dropped most.
    """
    skipped = ""
    if against.skipped:
        names = ", ".join(METRIC_LABELS[m] for m in against.skipped)
        them = "it" if len(against.skipped) == 1 else "them"
        skipped = (
            f'<p class="help" id="rnb-not-compared">Not compared: {names} (the baseline was '
            f"not scored on {them}).</p>"
        )
    # the coverage notes say what the pairing line and the "left out" column show
    shown = [n for n in against.notes if not n.startswith("coverage differs")]
    notes = ""
    if shown:
        notes = (
            '<ul class="help rnb-notes">'
            + "".join(f'<li dir="auto">{escape(n)}</li>' for n in shown)
            + "</ul>"
        )
    return f"""<section id="baseline"><h2>Against the baseline</h2>
<p class="help">This run against an earlier run, the baseline, metric by metric over the
paired rows that both runs scored, as <code>ragnotebook.compare(baseline, this_run)</code>
and <code>ragnotebook evaluate --baseline</code> compute it. change = this run - baseline;
p-value: two-sided paired sign-flip permutation test (with k changed rows its smallest
p-value is 2 / 2^k, so fewer than 6 changed rows never reach p &lt; 0.05).</p>
{_sides_html(against)}{_pairing_html(against, len(df))}{_table_html(against)}{skipped}{notes}
<h3>Rows that dropped most</h3>
{_drops_html(against, df, set(positions), top)}</section>
"""
