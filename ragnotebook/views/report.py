"""A shareable, self-contained HTML report of a scored frame.

One file holds the summary, the charts and a collapsible drill-down of every row; the
plotly JavaScript is inlined, so the file opens offline and needs no Python. The page
contains exactly three script elements, all the toolkit's: the plotly library, the
chart data (JSON with ``<``, ``>`` and ``&`` escaped, so no data string can end the
element) and a short script drawing the charts and filtering rows. Every data string
in the page is HTML-escaped.

Examples
--------
>>> import pathlib, tempfile, ragnotebook
>>> from ragnotebook.views.report import report
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> path = report(scored, pathlib.Path(tempfile.mkdtemp()) / "r.html", title="Quickstart")
>>> html = path.read_text(encoding="utf-8")
>>> html.count("<details class=\\"rnb-row\\""), "<title>Quickstart</title>" in html
(48, True)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragnotebook._version import __version__
from ragnotebook.frame import require_scored
from ragnotebook.views._data import METRIC_LABELS, score_table
from ragnotebook.views._detail import DETAIL_CSS
from ragnotebook.views._html import escape, script_json
from ragnotebook.views._style import apply_theme
from ragnotebook.views.static import ROW_LEGEND, STATIC_CSS, rows_html, summary_html

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
.toolbar button{font:inherit;padding:4px 12px;border-radius:6px;border:1px solid var(--border);
background:var(--card);color:var(--fg);cursor:pointer}
noscript{display:block;padding:8px;border:1px dashed var(--border)}
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
      var layout = (dark && dark.matches) ? f.layout_dark : f.layout;
      Plotly.react(el, f.data, layout, {responsive: true, displaylogo: false});
    });
  }
  draw();
  if (dark && dark.addEventListener) { dark.addEventListener("change", draw); }
  var rows = Array.prototype.slice.call(document.querySelectorAll("details.rnb-row"));
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var box = document.getElementById("rnb-filter");
  var count = document.getElementById("rnb-count");
  function filter() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (r, i) {
      var ok = words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      r.style.display = ok ? "" : "none";
      if (ok) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " rows";
  }
  box.addEventListener("input", filter);
  document.getElementById("rnb-open").addEventListener("click", function () {
    rows.forEach(function (r) { if (r.style.display !== "none") { r.open = true; } });
  });
  document.getElementById("rnb-close").addEventListener("click", function () {
    rows.forEach(function (r) { r.open = false; });
  });
  filter();
})();
"""

_HELP = """
<dl class="help">
<dt>context recall</dt><dd>Share of the ground-truth claims that some retrieved chunk supports:
did retrieval fetch what the reference answer needs?</dd>
<dt>context precision</dt><dd>Average precision of the relevant chunks by rank: were the chunks
relevant to the ground truth ranked early? precision@k is the share of relevant chunks among
the first k.</dd>
<dt>faithfulness</dt><dd>Share of the answer's claims the retrieved chunks support
(<i>contradicted</i> and <i>not verifiable</i> claims count against).</dd>
<dt>statuses</dt><dd><i>ok</i>: judged. <i>no claims</i> / <i>no context</i>: nothing to
judge, scored 0 and counted in the mean. <i>no ground truth</i> / <i>no reference</i>: the
metric cannot be measured for the row and is left out of the mean. <i>error</i>: the judge
failed; the row is left out and the error is shown.</dd>
</dl>
"""


def _figures(df: pd.DataFrame, top: int) -> list[tuple[str, Any]]:
    from ragnotebook.views.missed import missed_claims
    from ragnotebook.views.plots import precision_at_k, scores

    metrics = require_scored(df)
    figs: list[tuple[str, Any]] = [("scores", scores(df))]
    if "context_precision" in metrics:
        figs.append(("precision", precision_at_k(df)))
    if {"context_recall", "faithfulness"} & set(metrics):
        figs.append(("missed", missed_claims(df, top=top)))
    return figs


def _figure_payload(key: str, fig: Any) -> dict[str, Any]:
    import plotly.graph_objects as go

    light = json.loads(fig.to_json())
    dark = json.loads(apply_theme(go.Figure(fig), "dark").to_json())
    return {
        "id": f"chart-{key}",
        "data": light["data"],
        "layout": light["layout"],
        "layout_dark": dark["layout"],
    }


def _order(df: pd.DataFrame, sort_by: str | None, max_rows: int | None) -> list[int]:
    order = np.arange(len(df))
    if sort_by is not None:
        metrics = require_scored(df)
        if sort_by not in metrics:
            raise ValueError(f"sort_by must be one of {metrics}, got {sort_by!r}")
        score = score_table(df)[sort_by].to_numpy()
        order = order[np.lexsort((order, score, np.isnan(score)))]
    if max_rows is not None:
        order = order[: int(max_rows)]
    return [int(p) for p in order]


def report(
    df: pd.DataFrame,
    path: str | os.PathLike[str],
    *,
    title: str = "RAG evaluation report",
    max_rows: int | None = None,
    sort_by: str | None = None,
    top: int = 20,
) -> Path:
    """Write one self-contained HTML file with the summary, charts and row drill-down.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame (read only; no judge is called).
    path : str or os.PathLike
        File to write (UTF-8); parent folders must exist.
    title : str, default "RAG evaluation report"
        Page title and heading (escaped).
    max_rows : int, optional
        Include at most this many rows in the drill-down (charts always use all rows).
    sort_by : str, optional
        Order the drill-down by this metric, lowest first (unscored rows last).
    top : int, default 20
        Rows shown in the missed-claims chart.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ValueError
        If the frame has no scores or ``sort_by`` is not a scored metric.

    Examples
    --------
    >>> import pathlib, tempfile, ragnotebook
    >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                        progress=False)
    >>> p = report(s, pathlib.Path(tempfile.mkdtemp()) / "worst.html",
    ...            sort_by="context_recall", max_rows=10)
    >>> p.read_text(encoding="utf-8").count("<script")
    3
    """
    import plotly.offline

    require_scored(df)
    positions = _order(df, sort_by, max_rows)
    figs = _figures(df, top)
    payload = {"figures": [_figure_payload(key, fig) for key, fig in figs]}
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
    charts = "".join(f'<div class="chart" id="chart-{key}"></div>' for key, _ in figs)
    body = f"""<main>
<header><h1>{escape(title)}</h1>
<p class="meta">{len(df)} rows · judge {escape(judge)} · model {escape(model)} ·
ragnotebook {escape(__version__)} · written {escape(when)}</p>
<nav><a href="#summary">Summary</a><a href="#charts">Charts</a><a href="#rows">Rows</a></nav>
</header>
<section id="summary"><h2>Summary</h2>{summary_html(df)}{_HELP}</section>
<section id="charts"><h2>Charts</h2>
<noscript>The charts need JavaScript; the summary and rows below do not.</noscript>
<p class="help">Hover the charts for details; drag to zoom, double-click to reset.</p>
{charts}</section>
<section id="rows"><h2>Rows</h2>
<p class="help">{escape(shown)}. Click a row to open its claims and chunks.
{escape(ROW_LEGEND)} Highlighted words are shared by a claim and the chunk supporting it.</p>
<div class="toolbar"><input id="rnb-filter" type="search" placeholder="Filter rows by any text"
aria-label="Filter rows"><button id="rnb-open" type="button">Open all</button>
<button id="rnb-close" type="button">Close all</button><span id="rnb-count" class="meta">
</span></div>
{rows_html(df, positions)}
</section></main>"""
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="ragnotebook {escape(__version__)}">'
        f"<title>{escape(title)}</title>"
        f"<style>{_PAGE_CSS}{DETAIL_CSS}{STATIC_CSS}</style></head><body>{body}\n"
        f"<script>{plotly.offline.get_plotlyjs()}</script>\n"
        f'<script type="application/json" id="rnb-data">{script_json(payload)}</script>\n'
        f"<script>{_BOOT_JS}</script>\n</body></html>\n"
    )
    out = Path(path)
    out.write_text(page, encoding="utf-8")
    return out
