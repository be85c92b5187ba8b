"""A shareable, self-contained HTML report of a scored frame.

One file holds the summary, the charts and a collapsible drill-down of every row; the
plotly JavaScript is inlined by default, so the file opens offline and needs no Python
(``plotly_js="cdn"`` loads it from plotly's CDN instead, for a small file). The page
contains exactly three script elements, all the toolkit's: the plotly library, the
chart data (JSON with ``<``, ``>`` and ``&`` escaped, so no data string can end the
element) and a short script drawing the charts and filtering rows. Every data string
in the page is HTML-escaped.

Examples
--------
>>> import pathlib, tempfile, ragnotebook
>>> from ragnotebook.views import report
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> path = report(scored, pathlib.Path(tempfile.mkdtemp()) / "r.html", title="Quickstart")
>>> html = path.read_text(encoding="utf-8")
>>> html.count("<details class=\\"rnb-row\\""), "<title>Quickstart</title>" in html
(48, True)
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook import frame
from ragnotebook._textsafe import atomic_write_text
from ragnotebook._version import __version__
from ragnotebook.frame import require_scored
from ragnotebook.views import _detail as D
from ragnotebook.views._baseline import (
    BASELINE_CSS,
    BASELINE_JS,
    Against,
    against_baseline,
    baseline_html,
)
from ragnotebook.views._data import (
    METRIC_LABELS,
    ViewCall,
    check_count,
    chunk_texts,
    fmt_score,
    group_keys,
    resolve_metric,
    row_gists,
    row_labels,
    row_names,
    score_at,
    score_table,
    text_at,
    verdicts,
    with_columns,
)
from ragnotebook.views._detail import DETAIL_CSS
from ragnotebook.views._html import escape, isolate, script_json, shorten, two_places
from ragnotebook.views._row import row_legend, short_score
from ragnotebook.views._style import apply_theme
from ragnotebook.views.static import (
    STATIC_CSS,
    group_positions,
    group_tags,
    summary_by_html,
    summary_html,
)

__all__ = ["report"]

#: Number of ``<script>`` elements every report holds (library, data, boot).
SCRIPT_COUNT = 3

_PAGE_CSS = """
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--border:#d0d7de;
--card:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--fg:#e6edf3;--muted:#9aa4ae;
--border:#3a414a;--card:#16181c}}
html{background:var(--bg);color:var(--fg)}
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5}
main{max-width:1180px;margin:0 auto;padding:20px 28px 60px}
h1{font-size:26px;margin:8px 0 2px}h2{font-size:20px;margin:30px 0 8px;
border-bottom:1px solid var(--border);padding-bottom:4px}
.meta{color:var(--muted);font-size:13.5px}
nav a{margin-right:14px;color:inherit}
.chart{border:1px solid var(--border);border-radius:8px;margin:14px 0;overflow:hidden;
background:var(--card)}
.help{font-size:13.5px;color:var(--muted);max-width:900px}
.help dt{font-weight:600;color:var(--fg)}.help dd{margin:0 0 6px 16px}
.toolbar{display:flex;gap:10px;align-items:center;margin:8px 0;flex-wrap:wrap}
.toolbar input{font:inherit;padding:5px 9px;min-width:320px;border-radius:6px;
border:1px solid var(--border);background:var(--bg);color:var(--fg)}
.toolbar button,.toolbar select{font:inherit;padding:4px 12px;border-radius:6px;
border:1px solid var(--border);background:var(--card);color:var(--fg);cursor:pointer}
noscript{display:block;padding:8px;border:1px dashed var(--border)}
details.rnb-row{content-visibility:auto;contain-intrinsic-size:auto 40px}
"""

_BOOT_JS = """
(function () {
  "use strict";
  var payload = JSON.parse(document.getElementById("rnb-data").textContent);
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
  function draw() {
    payload.figures.forEach(function (f) {
      var el = document.getElementById(f.id);
      if (!el || !window.Plotly) { return; }
      var isDark = dark && dark.matches;
      var layout = isDark ? f.layout_dark : f.layout;
      var data = (isDark && f.data_dark) ? f.data_dark : f.data;
      Plotly.react(el, data, layout, {responsive: true, displaylogo: false});
    });
  }
  draw();
  if (dark && dark.addEventListener) { dark.addEventListener("change", draw); }

  // ---- drill-down, built from the JSON when a row is first opened (text via textContent)
  var SVGNS = "http://www.w3.org/2000/svg";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  // data text: its own direction, so Arabic or Hebrew reads right to left
  function txt(tag, cls, text) { var e = el(tag, cls, text); e.dir = "auto"; return e; }
  function add(parent, child) { parent.appendChild(child); return child; }
  function badge(cls, word) { return el("span", "rnb-badge b-" + cls, word); }
  function marked(parent, text, marks, from, to) {
    var last = from;
    marks.forEach(function (m) {
      var a = Math.max(m[0], from), b = Math.min(m[1], to);
      if (b <= a) { return; }
      if (a > last) { parent.appendChild(document.createTextNode(text.slice(last, a))); }
      add(parent, el("mark", null, text.slice(a, b)));
      last = b;
    });
    if (to > last) { parent.appendChild(document.createTextNode(text.slice(last, to))); }
  }
  function wholeLabel(text) {
    return "show the whole chunk (" + text.length + " character" +
      (text.length === 1 ? "" : "s") + ")";
  }
  function textBlock(root, title, text) {
    add(root, el("h4", null, title));
    if (text.trim()) { add(root, txt("div", "rnb-text", text)); }
    else { add(root, el("div", "rnb-text rnb-empty", "(none)")); }
  }
  function claims(root, title, items, chunks) {
    if (!items.length) { return; }
    add(root, el("h4", null, title));
    var ol = add(root, el("ol"));
    items.forEach(function (c) {
      var li = add(ol, el("li", "v-" + c[0]));
      add(li, badge(c[0], c[1]));
      add(li, txt("span", "rnb-claim", c[2]));
      add(li, txt("div", "rnb-reason", c[3]));
      c[4].forEach(function (s) {
        var box = add(li, el("div", "rnb-support"));
        if (s[0] === null) { box.textContent = s[1]; return; }
        var chunk = chunks[s[0]], a = s[2], b = s[3], marks = s[4];
        box.appendChild(document.createTextNode(s[1] + ": "));
        var part = add(box, txt("span", null, a > 0 ? "…" : ""));
        marked(part, chunk, marks, a, b);
        if (b < chunk.replace(/\\s+$/, "").length) { part.appendChild(document.createTextNode("…")); }
        var det = add(box, el("details"));
        // [.., wa, wb, label]: a long chunk, shown around the sentence (else the whole)
        var wa = s.length > 5 ? s[5] : 0, wb = s.length > 5 ? s[6] : chunk.length;
        add(det, el("summary", null, s.length > 5 ? s[7] : wholeLabel(chunk)));
        var whole = add(det, txt("div", null, wa > 0 ? "…" : ""));
        marked(whole, chunk, marks, wa, wb);
        if (wb < chunk.length) { whole.appendChild(document.createTextNode("…")); }
      });
    });
  }
  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function curve(points) {
    var width = 360, height = 140, left = 44, right = 12, top = 12, bottom = 34;
    var w = width - left - right, h = height - top - bottom, n = points.length;
    function x(k) { return left + (n > 1 ? w * (k - 1) / (n - 1) : w / 2); }
    function y(p) { return top + h * (1 - p); }
    var svg = svgEl("svg", {role: "img", width: width, height: height,
      viewBox: "0 0 " + width + " " + height, style: "overflow:visible"});
    svg.appendChild(svgEl("title", {}, "precision@k by rank"));
    [0, 0.5, 1].forEach(function (t) {
      svg.appendChild(svgEl("line", {x1: left, x2: left + w, y1: y(t), y2: y(t),
        stroke: "currentColor", "stroke-opacity": "0.2"}));
      svg.appendChild(svgEl("text", {x: left - 6, y: y(t) + 4, "font-size": 11,
        "text-anchor": "end"}, t.toFixed(1)));
    });
    svg.appendChild(svgEl("polyline", {fill: "none", stroke: "#0072B2", "stroke-width": 2,
      points: points.map(function (q, i) { return x(i + 1) + "," + y(q[0]); }).join(" ")}));
    points.forEach(function (q, i) {
      var k = i + 1, rel = q[1] === 1;
      var c = svgEl("circle", {cx: x(k), cy: y(q[0]), r: 4, fill: rel ? "#0072B2" : "none",
        stroke: "#0072B2", "stroke-width": 2});
      c.appendChild(svgEl("title", {}, "rank " + k + ": " + (rel ? "relevant" : "not relevant") +
        ", precision@" + k + " = " + q[2]));
      svg.appendChild(c);
      if (n <= 12 || k === 1 || k === n || k % 5 === 0) {
        svg.appendChild(svgEl("text", {x: x(k), y: top + h + 17, "font-size": 11,
          "text-anchor": "middle"}, String(k)));
      }
    });
    svg.appendChild(svgEl("text", {x: left + w / 2, y: height - 2, "font-size": 11,
      "text-anchor": "middle"}, "rank k (filled = relevant chunk)"));
    svg.appendChild(svgEl("text", {x: 10, y: top + h / 2, "font-size": 11, "text-anchor": "middle",
      transform: "rotate(-90 10 " + (top + h / 2) + ")"}, "precision@k"));
    return svg;
  }
  function detail(d) {
    var frag = document.createDocumentFragment();
    var top = add(frag, el("div", "rnb"));
    var cards = add(top, el("div", "rnb-cards"));
    d.cards.forEach(function (c) {
      var card = add(cards, el("div", "rnb-card", c[0] + ": "));
      add(card, el("b", null, c[1]));
      if (c[2]) { add(card, txt("div", "rnb-reason", c[2])); }
      if (c[3]) { add(add(card, el("div", "rnb-reason", "error: ")), txt("span", null, c[3])); }
    });
    textBlock(top, "Question", d.texts[0]);
    textBlock(top, "Answer", d.texts[1]);
    textBlock(top, "Ground truth", d.texts[2]);
    claims(top, "Ground-truth claims · found in the retrieved chunks? (context recall)",
      d.recall, d.chunks);
    claims(top, "Answer claims · supported by the retrieved chunks? (faithfulness)",
      d.faith, d.chunks);
    var rest = add(frag, el("div", "rnb"));
    if (!d.chunks.length) {
      add(rest, el("h4", null, "Retrieved chunks"));
      add(rest, el("div", "rnb-text rnb-empty", "(no chunks)"));
      return frag;
    }
    add(rest, el("h4", null, "Retrieved chunks in ranking order · relevant? (context precision)"));
    if (d.curve.length) { rest.appendChild(curve(d.curve)); }
    var ol = add(rest, el("ol"));
    d.chunks.forEach(function (chunk, i) {
      var c = d.prec[i];
      var li = add(ol, el("li", "v-" + c[0]));
      add(li, badge(c[0], c[1]));
      add(li, el("span", "rnb-meta", c[2]));
      var body = add(li, el("div", "rnb-chunk"));
      if (c[3] === null) { add(body, txt("div", null, chunk)); }
      else {
        add(body, txt("div", null, chunk.slice(0, c[3]) + " …"));
        var det = add(body, el("details"));
        add(det, el("summary", null, wholeLabel(chunk)));
        add(det, txt("div", null, chunk));
      }
      if (c[4] !== null) { add(li, txt("div", "rnb-reason", c[4])); }
    });
    return frag;
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("details.rnb-row"));
  function build(r) {
    if (r.getAttribute("data-built")) { return; }
    r.setAttribute("data-built", "1");
    var d = payload.rows[r.getAttribute("data-row")];
    if (d) { r.querySelector(".rnb-body").appendChild(detail(d)); }
  }
  // rows opened all at once are built as they come near the screen, not all up front
  var near = ("IntersectionObserver" in window) ? new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting) { near.unobserve(e.target); if (e.target.open) { build(e.target); } }
    });
  }, {rootMargin: "1200px 0px"}) : null;
  rows.forEach(function (r) {
    r.querySelector("summary").addEventListener("click", function () { build(r); });
    r.addEventListener("toggle", function () {
      if (!r.open || r.getAttribute("data-built")) { return; }
      if (near) { near.observe(r); } else { build(r); }
    });
  });

  // ---- filter: on the summary line and every text of the row, compared in one form
  // (width-insensitive, zero-width characters left out, lower case; explorer.search_text)
  function searchForm(s) {
    return s.normalize("NFKC").replace(/[\u200b-\u200d\u2060\ufeff]/g, "").toLowerCase();
  }
  var texts = rows.map(function (r) {
    var d = payload.rows[r.getAttribute("data-row")] || {texts: [], chunks: [], recall: [],
      faith: [], cards: []};
    var parts = [r.querySelector("summary").textContent].concat(d.texts, d.chunks);
    d.recall.concat(d.faith).forEach(function (c) { parts.push(c[2], c[3]); });
    d.cards.forEach(function (c) { parts.push(c[2], c[3]); });
    return searchForm(parts.join("\\n"));
  });
  var box = document.getElementById("rnb-filter");
  var count = document.getElementById("rnb-count");
  var group = document.getElementById("rnb-group");
  function filter() {
    var words = searchForm(box.value).split(/\\s+/).filter(Boolean);
    var only = group ? group.value : "";
    var shown = 0;
    rows.forEach(function (r, i) {
      var ok = words.every(function (w) { return texts[i].indexOf(w) !== -1; }) &&
        (only === "" || r.getAttribute("data-group") === only);
      r.style.display = ok ? "" : "none";
      if (ok) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " rows";
  }
  box.addEventListener("input", filter);
  if (group) { group.addEventListener("change", filter); }
  document.getElementById("rnb-open").addEventListener("click", function () {
    rows.forEach(function (r) { if (r.style.display !== "none") { r.open = true; } });
  });
  document.getElementById("rnb-close").addEventListener("click", function () {
    rows.forEach(function (r) { r.open = false; });
  });
  filter();
})();
"""

#: What each metric measures, for the report's help (only the metrics the frame has).
_METRIC_HELP = {
    "context_recall": """<dt>context recall</dt><dd>Share of the ground-truth claims that some retrieved chunk supports:
did retrieval fetch what the reference answer needs?</dd>""",
    "context_precision": """<dt>context precision</dt><dd>Average precision of the relevant chunks by rank: were the chunks
relevant to the ground truth (for a row without one, to the answer) ranked early? precision@k
is the share of relevant chunks among the first k.</dd>""",
    "faithfulness": """<dt>faithfulness</dt><dd>Share of the answer's claims the retrieved chunks support
(<i>contradicted</i> and <i>not verifiable</i> claims count against).</dd>""",
}


#: What the help says of each status, in the order it says it.
_STATUS_HELP = {
    "ok": "<i>ok</i>: judged.",
    "no_claims": "<i>no claims</i> from a real answer (e.g. a refusal) is a measured 0: scored "
    "and counted in the mean.",
    "no_answer": "A faithfulness row with no answer at all is not scored: its status is "
    "<i>no claims</i> with a 0, but that 0 is missing data and stays out of the mean, so it "
    "is counted under <i>no answer</i>, and <i>no claims</i> counts only the measured 0s "
    "(<code>ragnotebook.summary()</code> has the same <code>no_answer</code> count; its "
    "<code>no_claims</code> counts both).",
    "error": "<i>error</i>: the judge failed; the row is left out and the error is shown.",
    "not_run": "<i>not run</i>: the row has no status for the metric, which never scored it (a "
    "frame concatenated from runs of different metrics); it is left out, and it is not an "
    "error (<code>summary()</code>'s <code>not_run</code>).",
}
#: The two halves of *no context*: a measured 0 (recall, faithfulness), no score (precision).
_NO_CONTEXT = (
    "is a measured 0 for context recall and faithfulness, scored and counted in the mean",
    "context precision is undefined without chunks, so there the row has no score and stays "
    "out of the mean",
)


def _status_help(df: pd.DataFrame) -> str:
    """The help's ``statuses`` entry: a sentence for each status that occurs in ``df``.

    A status no metric of the frame has is not explained (a frame scored in one run has
    no *not run* rows). *no context* is explained for the metrics whose rows have it: a
    measured 0 for context recall and faithfulness, no score for context precision.
    """
    s = frame.summary(df)

    def rows(status: str, metrics: tuple[str, ...] | None = None) -> int:
        if status not in s.columns:
            return 0
        counts = s[status] if metrics is None else s[status].reindex(list(metrics))
        return int(counts.fillna(0).sum())

    occurs = {
        "ok": rows("ok"),
        # summary()'s no_claims counts the unanswered rows too: here only the measured 0s
        "no_claims": rows("no_claims") - rows("no_answer"),
        "no_answer": rows("no_answer"),
        "error": rows("error"),
        "not_run": rows("not_run"),
    }
    said = [_STATUS_HELP[k] for k in ("ok", "no_claims", "no_answer") if occurs[k]]
    measured = rows("no_context", ("context_recall", "faithfulness")) > 0
    unscored = rows("no_context", ("context_precision",)) > 0
    head = "<i>no context</i> (no chunks were retrieved)"
    if measured or unscored:
        if measured and unscored:
            text = f"{head} {_NO_CONTEXT[0]}; {_NO_CONTEXT[1]}."
        elif measured:
            text = f"{head} {_NO_CONTEXT[0]}."
        else:
            text = f"{head}: {_NO_CONTEXT[1]}."
        said.insert(1 if occurs["ok"] else 0, text)
    unmeasured = [
        f"<i>{status.replace('_', ' ')}</i>"
        for status in ("no_ground_truth", "no_reference")
        if rows(status)
    ]
    if unmeasured:
        said.append(
            " / ".join(unmeasured)
            + ": the metric cannot be measured for the row and is left out of the mean."
        )
    said += [_STATUS_HELP[k] for k in ("error", "not_run") if occurs[k]]
    said.append("The <i>scored / rows</i> column shows how many rows each mean covers.")
    return f"<dt>statuses</dt><dd>{' '.join(said)}</dd>"


def _help_html(df: pd.DataFrame) -> str:
    """The summary's help: what each metric of this frame measures, and its statuses."""
    metrics = "\n".join(_METRIC_HELP[m] for m in require_scored(df))
    return f'\n<dl class="help">\n{metrics}\n{_status_help(df)}\n</dl>\n'


def _cell(df: pd.DataFrame, column: str, pos: int) -> str:
    return "" if column not in df.columns else _plain(df[column].iat[pos])


def _plain(value: Any) -> str:
    """``str(value)`` with missing values as ``""`` (the browser escapes: textContent)."""
    from ragnotebook.views._html import _as_text

    return _as_text(value)


def _claims_data(
    items: list[dict[str, Any]], words: dict[str, str], chunks: list[str]
) -> list[list[Any]]:
    out = []
    for v in sorted(items, key=lambda d: int(d.get("index", 0))):
        claim = _plain(v.get("claim", ""))
        flagged = bool(v.get("missing") or v.get("invalid"))
        supports: list[list[Any]] = []
        for idx in v.get("supporting_chunks", []) or []:
            if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < len(chunks):
                supports.append([None, f"{D.chunk_label(idx)} (not among this row's chunks)"])
                continue
            # a long chunk is shown around the sentence only (its whole text is in the
            # chunk list): the marks cover that part, not 200 kB per claim
            a, b, wa, wb, spans, label = D.support_view(chunks[idx], claim, idx)
            marks = [list(span) for span in spans]
            part = [] if (wa, wb) == (0, len(chunks[idx])) else [wa, wb, label]
            supports.append([idx, D.chunk_label(idx), a, b, marks, *part])
        out.append(
            [
                D._verdict_class(v.get("verdict")),
                D.badge_word(v.get("verdict"), words, flagged),
                claim,
                _plain(v.get("reason", "")),
                supports,
            ]
        )
    return out


def _chunks_data(prec: list[dict[str, Any]], chunks: list[str]) -> list[list[Any]]:
    by_index = {int(v.get("index", -1)): v for v in prec}
    out = []
    for idx, chunk in enumerate(chunks):
        v = by_index.get(idx, {})
        verdict = v.get("verdict")
        p = v.get("precision_at_k")
        p_text = f" · precision@{idx + 1} = {two_places(p)}" if isinstance(p, int | float) else ""
        cls = "muted" if verdict == "no" else D._verdict_class(verdict)
        flagged = bool(v.get("missing") or v.get("invalid"))
        out.append(
            [
                cls,
                D.badge_word(verdict, D._PREC_WORDS, flagged),
                D.chunk_label(idx) + p_text,
                D.chunk_cut(chunk),
                _plain(v.get("reason", "")) if v else None,
            ]
        )
    return out


def _curve_data(prec: list[dict[str, Any]]) -> list[list[Any]]:
    items = sorted(prec, key=lambda v: int(v.get("index", 0)))
    out = []
    for v in items:
        p = v.get("precision_at_k")
        p = 0.0 if not isinstance(p, int | float) or p != p else round(float(p), 4)
        # the value as shown, rounded half-up like every score of the page (JavaScript's
        # toFixed(2) gives "0.57" for 23/40)
        out.append([p, 1 if v.get("verdict") == "yes" else 0, two_places(p)])
    return out


def _row_data(df: pd.DataFrame, pos: int, table: pd.DataFrame) -> dict[str, Any]:
    """One row's drill-down as plain data; the page's script builds the DOM from it.

    Texts travel as JSON strings and reach the page only through ``textContent``, so
    they are shown literally; chunks are stored once, claims point at them by index.
    """
    chunks = chunk_texts(df, pos)
    cards = []
    for m in METRIC_LABELS:
        if m in table.columns:
            cards.append(
                [
                    METRIC_LABELS[m],
                    fmt_score(*score_at(table, m, pos)),
                    _cell(df, f"{m}_reason", pos),
                    _cell(df, f"{m}_error", pos),
                ]
            )
    prec = verdicts(df, "context_precision", pos)
    return {
        "cards": cards,
        "texts": [
            text_at(df, "question", pos),
            text_at(df, "answer", pos),
            text_at(df, "ground_truth", pos),
        ],
        "recall": _claims_data(verdicts(df, "context_recall", pos), D._RECALL_WORDS, chunks),
        "faith": _claims_data(verdicts(df, "faithfulness", pos), D._FAITH_WORDS, chunks),
        "chunks": chunks,
        "prec": _chunks_data(prec, chunks),
        "curve": _curve_data(prec),
    }


def _rows_summaries(
    df: pd.DataFrame,
    positions: list[int],
    table: pd.DataFrame,
    groups: list[str] | None = None,
) -> str:
    """The collapsed ``<details>`` of each row: its summary line and an empty body.

    With ``groups``, a row carries its group in ``data-group`` (the group filter's key,
    the group's number in sorted order) and shows it after its name."""
    metrics = require_scored(df)
    names, questions = row_names(df), row_gists(df)  # the answer where there is no question
    labels = row_labels(df)
    codes = {"context_recall": "R", "context_precision": "P", "faithfulness": "F"}
    width = max((len(names[p]) for p in positions), default=1)
    tags = group_tags(groups, positions)
    number = {} if groups is None else {k: i for i, (k, _) in enumerate(group_positions(groups))}
    parts = []
    for pos in positions:
        scores = "  ".join(
            f"{codes[m]} {short_score(*score_at(table, m, pos)):<5}" for m in metrics
        )
        pad = " " * max(0, width - len(names[pos]))
        group = "" if groups is None else f' data-group="{number[groups[pos]]}"'
        heading = D.row_heading(pos, len(df), labels[pos]) + D.group_heading(groups, pos)
        parts.append(
            f'<details class="rnb-row" id="row-{pos}" data-row="{pos}"{group}><summary>'
            f'<span class="rnb-sc"><span dir="auto" title="{escape(labels[pos])}">'
            f"{escape(names[pos])}</span>{pad}{tags.get(pos, '')}  {escape(scores)}</span>  "
            f'<span dir="auto">{escape(shorten(questions[pos], 140))}</span></summary>'
            f'<div class="rnb-body"><div class="rnb"><h4>'
            f"{heading}</h4></div></div></details>"
        )
    return "".join(parts)


def _group_select(by: str, groups: list[str]) -> str:
    """The toolbar's ``<select>`` of one group's rows (values: the groups' numbers)."""
    options = [f'<option value="">every {escape(by)} ({len(groups)})</option>']
    for i, (key, positions) in enumerate(group_positions(groups)):
        options.append(
            f'<option value="{i}">{escape(isolate(shorten(key, 40)))} ({len(positions)})</option>'
        )
    return f'<select id="rnb-group" aria-label="Show one {escape(by)}">{"".join(options)}</select>'


def _figures(
    df: pd.DataFrame, top: int, by: str | None = None, max_k: int | None = 20
) -> list[tuple[str, Any, Any]]:
    """``(key, light figure, dark figure)`` of each chart the frame supports; with ``by``
    the precision@k curve is drawn per group and the missed-claims bars name theirs;
    ``max_k`` caps the precision@k chart's ranks."""
    from ragnotebook.views.missed import missed_claims
    from ragnotebook.views.plots import precision_at_k, scores

    metrics = require_scored(df)
    figs: list[tuple[str, Any, Any]] = []
    light = scores(df)
    figs.append(("scores", light, apply_theme(_copy(light), "dark")))
    if "context_precision" in metrics:
        # its band and bars are tuned per theme, so the dark one is drawn, not restyled
        figs.append(
            (
                "precision",
                precision_at_k(df, by=by, max_k=max_k),
                precision_at_k(df, by=by, max_k=max_k, theme="dark"),
            )
        )
    if {"context_recall", "faithfulness"} & set(metrics):
        light = missed_claims(df, top=top, by=by)
        figs.append(("missed", light, apply_theme(_copy(light), "dark")))
    return figs


#: The report's charts in page order: (key, what it shows, when it is left out).
_CHARTS = (
    ("scores", "score distribution", ""),
    (
        "precision",
        "precision@k by rank",
        "context precision was not run on this frame (no context_precision scores)",
    ),
    (
        "missed",
        "missed and unsupported claims",
        "neither context recall nor faithfulness was run on this frame (the claims come "
        "from their verdicts)",
    ),
)


def _charts_html(keys: list[str]) -> str:
    """A ``<div>`` for each chart drawn, and a note in the place of each left out."""
    parts = []
    for key, what, why in _CHARTS:
        if key in keys:
            parts.append(f'<div class="chart" id="chart-{key}"></div>')
        else:
            parts.append(
                f'<p class="help rnb-left-out" id="chart-{key}-left-out">'
                f"{escape(f'Chart left out, {what}: {why}.')}</p>"
            )
    return "".join(parts)


def _copy(fig: Any) -> Any:
    from ragnotebook.views._deps import plotly_go

    go = plotly_go()

    return go.Figure(fig)


def _figure_payload(key: str, light_fig: Any, dark_fig: Any) -> dict[str, Any]:
    light = json.loads(light_fig.to_json())
    dark = json.loads(dark_fig.to_json())
    out = {
        "id": f"chart-{key}",
        "data": light["data"],
        "layout": light["layout"],
        "layout_dark": dark["layout"],
    }
    if dark["data"] != light["data"]:
        out["data_dark"] = dark["data"]
    return out


def _spend(df: pd.DataFrame) -> str:
    """What the judge calls behind this frame cost, for the report's header line.

    Sums the per-metric counters of :func:`ragnotebook.summary` (requests actually sent,
    prompt + completion tokens, USD). Empty when no request was sent (the offline judge, a
    MockJudge, a run answered from the cache); "cost unknown" when some price was unknown.
    """
    s = frame.summary(df)
    if "requests" not in s.columns:
        return ""
    requests = int(s["requests"].fillna(0).sum())
    if requests == 0:
        return ""
    tokens = int(s["prompt_tokens"].fillna(0).sum() + s["completion_tokens"].fillna(0).sum())
    costs = s["cost_usd"]
    cost = "cost unknown" if costs.isna().any() else f"${float(costs.sum()):.4f}"
    return f"{requests:,} judge requests · {tokens:,} tokens · {cost} · "


#: Rows above which a report without ``max_rows`` warns about its size.
LARGE_REPORT_ROWS = 5000


def _order(df: pd.DataFrame, sort_by: str | None, max_rows: int | None) -> list[int]:
    order = np.arange(len(df))
    if sort_by is not None:
        score = score_table(df)[sort_by].to_numpy()
        order = order[np.lexsort((order, score, np.isnan(score)))]
    if max_rows is not None:
        order = order[:max_rows]
    return [int(p) for p in order]


def _plotly_cdn_url(version: str) -> str:
    """Where ``plotly_js="cdn"`` loads plotly.js from (the version bundled with plotly.py)."""
    return f"https://cdn.plot.ly/plotly-{version}.min.js"


def _plotly_script(plotly_js: str) -> str:
    """The first ``<script>`` of the page: plotly.js inlined, or loaded from its CDN.

    The CDN element pins the version bundled with plotly.py and carries its Subresource
    Integrity hash (SHA-256 of that bundled file, as plotly's own ``include_plotlyjs="cdn"``
    does), so the browser runs the library only if the CDN serves exactly that file.
    """
    import plotly.offline

    if plotly_js == "inline":
        return f"<script>{plotly.offline.get_plotlyjs()}</script>"
    library = plotly.offline.get_plotlyjs().encode("utf-8")
    integrity = "sha256-" + base64.b64encode(hashlib.sha256(library).digest()).decode("ascii")
    url = _plotly_cdn_url(plotly.offline.get_plotlyjs_version())
    return (
        f'<script src="{escape(url)}" integrity="{integrity}" crossorigin="anonymous" '
        'referrerpolicy="no-referrer" charset="utf-8"></script>'
    )


#: The suffixes a report's file may have (as ``ragnotebook report --out`` requires).
REPORT_SUFFIXES = (".html", ".htm")


def report_path(path: str | os.PathLike[str]) -> Path:
    """Check where a report is to be written, before any work is done.

    Parameters
    ----------
    path : str or os.PathLike
        The file the user asked for.

    Returns
    -------
    pathlib.Path
        ``path``. Its folder may not exist yet: :func:`report` creates it.

    Raises
    ------
    IsADirectoryError
        If ``path`` is an existing folder (the message suggests a file in it).
    ValueError
        If ``path`` does not end in ``.html`` or ``.htm`` (any case).
    NotADirectoryError
        If a folder on the way to ``path`` is an existing file.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> report_path(f"{folder}/new/r.HTML").name
    'r.HTML'
    >>> report_path(folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    IsADirectoryError: cannot write the report to '...': it is a folder; name a file in it, such as '.../report.html'
    >>> report_path("scores.txt")
    Traceback (most recent call last):
    ...
    ValueError: cannot write the report to 'scores.txt': the file name must end in .html or .htm (the report is one HTML page), such as 'scores.html'
    """
    out = Path(path)
    shown = os.fspath(path)
    if out.is_dir():
        raise IsADirectoryError(
            f"cannot write the report to {shown!r}: it is a folder; name a file in it, "
            f"such as {os.fspath(out / 'report.html')!r}"
        )
    if out.suffix.lower() not in REPORT_SUFFIXES:
        try:
            # "r.txt" -> "r.html"; "r.html.bak" -> "r.html"
            kept = Path(out.stem).suffix.lower() in REPORT_SUFFIXES
            instead = f", such as {os.fspath(out.with_suffix('' if kept else '.html'))!r}"
        except ValueError:  # a name with no stem ("..")
            instead = ""
        raise ValueError(
            f"cannot write the report to {shown!r}: the file name must end in .html or "
            f".htm (the report is one HTML page){instead}"
        )
    for folder in out.parents:
        if folder.exists():
            if not folder.is_dir():
                raise NotADirectoryError(
                    f"cannot write the report to {shown!r}: {os.fspath(folder)!r} is a file, "
                    "not a folder"
                )
            break
    return out


def report(
    df: pd.DataFrame,
    path: str | os.PathLike[str],
    *,
    title: str = "RAG evaluation report",
    max_rows: int | None = None,
    sort_by: str | None = None,
    top: int = 20,
    plotly_js: str = "inline",
    columns: Mapping[str, str | None] | None = None,
    by: str | None = None,
    max_k: int | None = 20,
    baseline: pd.DataFrame | None = None,
    on: str | None = "question",
) -> Path:
    """Write one self-contained HTML file with the summary, charts and row drill-down.

    The header names the judge and model and, when judge requests were sent, what they
    cost: requests, prompt + completion tokens and USD ("cost unknown" when litellm has no
    price for the model), summed from :func:`ragnotebook.summary`. Under the summary, a
    help explains the metrics and each status that occurs in the frame (a status no row
    has, say *not run* in a frame scored in one run, is not explained).

    The charts are the score distribution (:func:`~ragnotebook.views.scores`), precision@k
    by rank (:func:`~ragnotebook.views.precision_at_k`, when the frame was scored with
    context precision) and the missed claims (:func:`~ragnotebook.views.missed_claims`, with
    context recall or faithfulness); a chart the frame has no scores for is replaced by a
    one-line note saying why ("Chart left out, precision@k by rank: context precision was
    not run on this frame ...").

    With ``baseline=`` (the scored frame of an earlier run of the same questions), a
    section "Against the baseline" follows the summary. It names the judge, model and
    prompt versions of each run, with a warning when they differ (a change may then
    come from the judge, not the system), and says how many rows paired on ``on`` and
    how many have no partner in the other run. Per metric scored in both, it shows
    :func:`ragnotebook.compare`'s numbers (the baseline as A, as ``ragnotebook evaluate
    --baseline`` compares): the baseline's and this run's means over the rows paired
    and scored in both, the change, its 95% CI, the p-value of the paired sign-flip
    test, how many rows went up, down or stayed, and the paired rows left out as
    unscored on one side. Then, per metric, the ``top`` rows whose score dropped most,
    largest drop first, each with its question, both scores and a link to its
    drill-down.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame (read only; no judge is called).
    path : str or os.PathLike
        File to write, ending in ``.html`` or ``.htm`` (UTF-8; a lone surrogate in the
        data, which UTF-8 cannot encode, is written as U+FFFD). Missing folders on the
        way are created, as ``ragnotebook report --out`` does, once the page is built (a
        call that fails creates none). The page is written to a temporary file beside it
        and renamed, so an error never leaves a partial file. The path is checked before
        any work.
    title : str, default "RAG evaluation report"
        Page title and heading (escaped).
    max_rows : int, optional
        Include at most this many rows in the drill-down (charts always use all rows);
        ``0`` writes the summary and charts only. Default: every row (with a warning
        above :data:`LARGE_REPORT_ROWS` rows, 5,000: each row adds 5-10 kB).
    sort_by : str, optional
        Order the drill-down by this metric, lowest first (unscored rows last). Metric
        names and the aliases :func:`ragnotebook.evaluate` accepts (``"recall"``, ...).
    top : int, default 20
        Rows shown in the missed-claims chart.
    plotly_js : {"inline", "cdn"}, default "inline"
        ``"inline"`` puts plotly's JavaScript in the file (about 4.8 MB), so it opens
        offline and fetches nothing. ``"cdn"`` loads it from ``cdn.plot.ly`` instead
        (the version bundled with plotly.py, pinned by a Subresource Integrity hash), for a
        file small enough to e-mail (a few kB per row); its charts then need a network
        connection, while the summary and rows do not. Everything else is the same: every
        data string is escaped and the page holds the same three scripts.
    columns : Mapping[str, str or None], optional
        ``{role: column}`` naming the text columns, as given to
        :func:`ragnotebook.evaluate` (``{"question": "q", "answer": "a", "contexts":
        "docs", "ground_truth": "gold"}``). Needed for a frame scored with ``columns=``
        and read back from JSON Lines or CSV, which keep no run metadata; without it such
        columns are not found, and a warning names them.
    by : str, optional
        A column whose values group the rows (``"system"`` for several systems' rows in
        one frame, ``"retriever"``, ``"prompt"``): the summary gets a table of each
        group's means (``mean (scored/rows)`` per metric, as
        :func:`ragnotebook.summary` computes them on the group's rows), every row shows
        its group, the precision@k chart has one curve per group and the missed-claims
        bars name their group, and the toolbar has a menu that shows one group's rows
        (it filters the rows, not the charts). Missing cells form the group
        ``(missing)``; empty or padded text is shown quoted (``''``, ``'A '``).
    max_k : int or None, default 20
        Ranks shown in the precision@k chart, as for
        :func:`~ragnotebook.views.precision_at_k` (a whole number of at least 1; None for
        every rank). One row with 150 chunks would otherwise stretch the chart to rank
        150; when rows have chunks past ``max_k``, the chart's subtitle says how many and
        how deep they go. Each row's own curve in the drill-down shows all its chunks.
    baseline : pandas.DataFrame, optional
        An earlier run's scored frame to compare this one with (read only); it needs at
        least one of this frame's metrics and a row that pairs up. Without it the page
        is the same as before the option existed.
    on : str or None, default "question"
        The column pairing this frame's rows with the baseline's, as
        :func:`ragnotebook.compare`'s ``on``: a role name (``"question"``) that is not
        a column is found as the scoring found it; None pairs by the index labels.
        Repeated values pair in order of appearance, with a warning. Used only with
        ``baseline``.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    IsADirectoryError
        If ``path`` is an existing folder; the message names it and suggests a file in it.
    NotADirectoryError
        If a folder on the way to ``path`` is an existing file.
    ValueError
        If ``path`` does not end in ``.html`` or ``.htm``, the frame has no scores,
        ``sort_by`` is not a scored metric ("unknown metric ..." for a name that is no
        metric), ``max_rows`` is negative, ``top`` or ``max_k`` is not a whole number of
        at least 1, ``plotly_js`` is neither ``"inline"`` nor ``"cdn"``, ``columns``
        names an unknown role or a column not in the frame, or ``by`` is not a column;
        or if ``baseline`` has none of the frame's scored metrics, or no row of it pairs
        with one of the frame (the message names the reason and ``on``). Every check is
        made before any HTML is built.
    KeyError
        If ``on`` is neither a column nor a role found in the frame or in ``baseline``.
    TypeError
        If ``baseline`` is given and is not a DataFrame.
    ImportError
        Without plotly (the ``[plot]`` extra); the message says what to install.

    Warns
    -----
    UserWarning
        Once, when the verdict columns hold text (a scored frame read back from CSV): they
        are parsed, and the warning says how to keep the types.

    UserWarning
        Once, when a text column is not found in a frame without run metadata (read back
        from JSON Lines or CSV): it names them and the ``columns=`` to pass.

    UserWarning
        With ``baseline``: when the pairing values repeat or coverage differs (the
        warnings of :func:`ragnotebook.compare`, naming "the baseline" and "this run"),
        and when the baseline was scored by another judge, model or prompt version.

    Examples
    --------
    >>> import pathlib, tempfile, ragnotebook
    >>> from ragnotebook.views import report
    >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                        progress=False)
    >>> p = report(s, pathlib.Path(tempfile.mkdtemp()) / "worst.html",
    ...            sort_by="context_recall", max_rows=10)
    >>> p.read_text(encoding="utf-8").count("<script")
    3
    >>> small = report(s, pathlib.Path(tempfile.mkdtemp()) / "mail.html", plotly_js="cdn")
    >>> small.stat().st_size < 1_000_000 < p.stat().st_size
    True

    Against a baseline scored with a :class:`~ragnotebook.MockJudge` (so every number is
    known): the second row's faithfulness fell from 1.0 to 0.5.

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"question": ["q1", "q2"], "answer": ["A. B.", "C. D."],
    ...                      "contexts": [["x"], ["y"]]})
    >>> def run(verdicts):
    ...     judge = ragnotebook.MockJudge(extract_claims=[["a", "b"], ["c", "d"]],
    ...                                   verify_claims=verdicts)
    ...     return rows.rag.faithfulness(model=judge, progress=False)
    >>> old = run([["yes", "yes"], ["yes", "yes"]])
    >>> new = run([["yes", "yes"], ["yes", "no"]])
    >>> page = report(new, pathlib.Path(tempfile.mkdtemp()) / "vs.html", baseline=old,
    ...               plotly_js="cdn").read_text(encoding="utf-8")
    >>> "<td>faithfulness</td><td>1.00</td><td>0.75</td><td>-0.25</td>" in page
    True
    >>> "baseline 1.00 → this run 0.50 (-0.50)" in page
    True
    """
    out = report_path(path)
    try:
        import plotly.offline  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            "the ragnotebook report needs plotly: pip install 'ragnotebook[plot]'"
        ) from exc

    metrics = require_scored(df)
    if plotly_js not in ("inline", "cdn"):
        raise ValueError(f"plotly_js must be 'inline' or 'cdn', got {plotly_js!r}")
    limit = check_count(max_rows, "max_rows", 0, allow_none=True)
    if sort_by is not None:
        sort_by = resolve_metric(sort_by, metrics, "sort_by")
    check_count(top, "top", 1)
    max_k = check_count(max_k, "max_k", 1, allow_none=True)
    groups = group_keys(df, by, "report()")
    df = with_columns(df, columns, "report()")
    against = None if baseline is None else against_baseline(df, baseline, on, "report()")
    if limit is None and len(df) > LARGE_REPORT_ROWS:
        from ragnotebook._warn import warn_user

        # each row's drill-down holds its texts, claims and chunks: 20,000 rows of ten
        # chunks made a 180 MB page that took a minute and 3 GB to write
        warn_user(
            f"report(): the drill-down holds all {len(df):,} rows (about 5-10 kB each, so "
            f"{len(df) * 5 // 1000:,}-{len(df) * 10 // 1000:,} MB); pass max_rows= (with "
            "sort_by= for the worst rows first) for a page a browser opens quickly; the "
            "charts use every row either way"
        )
    with ViewCall("report()", df):
        page = _page(
            df,
            title,
            _order(df, sort_by, limit),
            sort_by,
            top,
            plotly_js,
            by,
            groups,
            max_k,
            against,
        )
    out.parent.mkdir(parents=True, exist_ok=True)  # as `ragnotebook report --out` does
    # written beside the target and renamed: an error never leaves a partial file
    return atomic_write_text(out, page)


def _page(
    df: pd.DataFrame,
    title: str,
    positions: list[int],
    sort_by: str | None,
    top: int,
    plotly_js: str,
    by: str | None = None,
    groups: list[str] | None = None,
    max_k: int | None = 20,
    against: Against | None = None,
) -> str:
    """The report's HTML; with ``against``, the "Against the baseline" section after the
    summary (its link in the menu, its styles and script beside the page's own)."""
    figs = _figures(df, top, by, max_k)
    table = score_table(df)
    # the legend explains the status codes the rows shown have, not every code
    legend = row_legend(
        (short_score(*score_at(table, m, p)) for m in require_scored(df) for p in positions),
        metrics=require_scored(df),
    )
    payload = {
        "figures": [_figure_payload(key, light, dark) for key, light, dark in figs],
        "rows": {str(p): _row_data(df, p, table) for p in positions},
    }
    meta = df.attrs.get("ragnotebook", {}) if isinstance(df.attrs, dict) else {}
    judge = meta.get("judge", "unknown") if isinstance(meta, dict) else "unknown"
    model = meta.get("model", "unknown") if isinstance(meta, dict) else "unknown"
    when = _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    order_note = f", worst {METRIC_LABELS[sort_by]} first" if sort_by else ""
    shown = (
        f"{len(positions)} of {len(df)} rows{order_note}"
        if len(positions) < len(df)
        else f"all {len(df)} rows{order_note}"
    )
    charts = _charts_html([key for key, _, _ in figs])
    by_table = select = ""
    if by is not None and groups is not None:
        by_table = f"<h3>By {escape(by)}</h3>{summary_by_html(df, by, groups)}"
        select = _group_select(by, groups)
    baseline_link = baseline_section = baseline_css = baseline_js = ""
    if against is not None:
        baseline_link = '<a href="#baseline">Against the baseline</a>'
        baseline_section = "\n" + baseline_html(against, df, positions, top).rstrip("\n")
        baseline_css, baseline_js = BASELINE_CSS, BASELINE_JS
    online = (
        " The charts load plotly.js from cdn.plot.ly, so they need a network connection."
        if plotly_js == "cdn"
        else ""
    )
    body = f"""<main>
<header><h1 dir="auto">{escape(title)}</h1>
<p class="meta">{len(df)} rows · judge {escape(judge)} · model {escape(model)} ·
{escape(_spend(df))}ragnotebook {escape(__version__)} · written {escape(when)}</p>
<nav><a href="#summary">Summary</a>{baseline_link}<a href="#charts">Charts</a><a href="#rows">Rows</a></nav>
</header>
<section id="summary"><h2>Summary</h2>{summary_html(df)}{by_table}{_help_html(df)}</section>{baseline_section}
<section id="charts"><h2>Charts</h2>
<noscript>The charts need JavaScript; the summary and rows below do not.</noscript>
<p class="help">Hover the charts for details; drag to zoom, double-click to reset.{online}</p>
{charts}</section>
<section id="rows"><h2>Rows</h2>
<p class="help">{escape(shown)}. Click a row to open its claims and chunks.
{escape(legend)} Highlighted words are shared by a claim and the chunk supporting it.</p>
<div class="toolbar"><input id="rnb-filter" type="search" placeholder="Filter rows by any text"
aria-label="Filter rows"><button id="rnb-open" type="button">Open all</button>
<button id="rnb-close" type="button">Close all</button>{select}<span id="rnb-count" class="meta">
</span></div>
<noscript>The rows' details are drawn by the page's script; with JavaScript off only
their summary lines show.</noscript>
{_rows_summaries(df, positions, table, groups)}
</section></main>"""
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="ragnotebook {escape(__version__)}">'
        f"<title>{escape(title)}</title>"
        f"<style>{_PAGE_CSS}{DETAIL_CSS}{STATIC_CSS}{baseline_css}</style></head><body>{body}\n"
        f"{_plotly_script(plotly_js)}\n"
        f'<script type="application/json" id="rnb-data">{script_json(payload, compact=True)}'
        "</script>\n"
        f"<script>{_BOOT_JS}{baseline_js}</script>\n</body></html>\n"
    )
    return page
