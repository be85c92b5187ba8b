"""Structure of the HTML report: scripts, escaping, embedded data, drill-down."""

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ragnotebook.views._report import SCRIPT_COUNT, report

from .conftest import HOSTILE

ROOT = Path(__file__).resolve().parents[2]


class _Scan(HTMLParser):
    """Collect start tags, script bodies and text the way a browser tokenises them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.scripts = []
        self.text = []
        self._in_script = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append([dict(attrs), ""])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            self.scripts[-1][1] += data
        else:
            self.text.append(data)


def _scan(path):
    scan = _Scan()
    scan.feed(Path(path).read_text(encoding="utf-8"))
    scan.close()
    return scan


@pytest.fixture(scope="module")
def hostile_report(hostile, tmp_path_factory):
    return report(hostile, tmp_path_factory.mktemp("r") / "hostile.html", title="<b>T</b> & co")


def test_report_returns_path_and_is_self_contained(scored, tmp_path):
    out = scored.rag.report(tmp_path / "report.html")
    assert out == tmp_path / "report.html" and out.exists()
    scan = _scan(out)
    assert len(scan.scripts) == SCRIPT_COUNT == 3
    lib, data, boot = scan.scripts
    assert lib[0] == {} and "Plotly" in lib[1] and len(lib[1]) > 1_000_000
    assert data[0] == {"type": "application/json", "id": "rnb-data"}
    assert boot[0] == {}
    # nothing is fetched: no external scripts, styles, images or frames
    for tag, attrs in scan.tags:
        assert "src" not in attrs or tag not in ("script", "img", "iframe"), (tag, attrs)
        assert tag not in ("link", "iframe", "img", "object", "embed")
    # no attribute points anywhere remote (data text may mention URLs; that is just text)
    for tag, attrs in scan.tags:
        for key, value in attrs.items():
            if (tag, key) != ("svg", "xmlns"):
                assert "//" not in (value or ""), (tag, key, value)


def test_report_content(scored, tmp_path):
    out = report(scored, tmp_path / "r.html")
    scan = _scan(out)
    text = " ".join(scan.text)
    assert "Summary" in text and "Charts" in text and "Rows" in text
    details = [a for t, a in scan.tags if t == "details" and a.get("class") == "rnb-row"]
    assert len(details) == 48
    assert [d["data-row"] for d in details[:3]] == ["0", "1", "2"]
    assert scored["question"].iloc[5] in text
    payload = json.loads(scan.scripts[1][1])
    ids = [f["id"] for f in payload["figures"]]
    assert ids == ["chart-scores", "chart-precision", "chart-missed"]
    divs = {a.get("id") for t, a in scan.tags if t == "div"}
    assert set(ids) <= divs
    scores_fig = payload["figures"][0]
    assert scores_fig["layout"]["paper_bgcolor"] == "#FFFFFF"
    assert scores_fig["layout_dark"]["paper_bgcolor"] == "#16181C"
    assert scores_fig["data"][0]["name"] == "ok"


def test_report_options(scored, tmp_path):
    out = report(scored, tmp_path / "r.html", sort_by="context_precision", max_rows=4, top=3)
    scan = _scan(out)
    rows = [int(a["data-row"]) for t, a in scan.tags if t == "details" and "data-row" in a]
    values = scored["context_precision"].astype(float).iloc[rows].tolist()
    assert len(rows) == 4 and values == sorted(values)
    payload = json.loads(scan.scripts[1][1])
    missed = payload["figures"][2]
    assert len(missed["layout"]["yaxis"]["categoryarray"]) == 3
    with pytest.raises(ValueError, match="sort_by"):
        report(scored, tmp_path / "x.html", sort_by="relevancy")


def test_report_escapes_every_hostile_string(hostile_report):
    html = hostile_report.read_text(encoding="utf-8")
    scan = _scan(hostile_report)
    # only the toolkit's three scripts, even with </script><script> in the data
    assert len(scan.scripts) == SCRIPT_COUNT
    assert not any(tag in ("img", "iframe", "object", "embed") for tag, _ in scan.tags)
    assert all(a["href"].startswith("#") for tag, a in scan.tags if tag == "a")
    assert not any(k.startswith("on") for _, attrs in scan.tags for k in attrs)
    # the summary lines show the data as text; the drill-down travels as JSON data that
    # the page's script puts in with textContent (tests/views/test_browser.py renders it)
    text = "".join(scan.text)
    assert HOSTILE["bold_br"] in text and HOSTILE["link"] in text
    assert "<i>r1</i>" in text  # the index label too
    rows = json.loads(scan.scripts[1][1])["rows"]
    row_text = json.dumps(rows, ensure_ascii=False)
    for value in HOSTILE.values():
        assert json.dumps(value, ensure_ascii=False)[1:-1] in row_text, value
    assert "<title>&lt;b&gt;T&lt;/b&gt; &amp; co</title>" in html
    # the JSON block holds the data with < > & escaped, and parses back
    data = scan.scripts[1][1]
    assert "<" not in data and ">" not in data
    payload = json.loads(data)
    hover = json.dumps(payload)
    assert '&lt;a href=\\"javascript:alert(1)\\"&gt;click&lt;/a&gt;' in hover
    assert "x&lt;y &amp; y&gt;z" in hover


def test_report_rows_and_charts_for_partial_metrics(tmp_path):
    import pandas as pd

    df = pd.DataFrame(
        {"question": ["q"], "answer": ["Sky is blue."], "contexts": [["Sky is blue."]]}
    )
    out = report(df.rag.faithfulness(model="offline", progress=False), tmp_path / "f.html")
    payload = json.loads(_scan(out).scripts[1][1])
    assert [f["id"] for f in payload["figures"]] == ["chart-scores", "chart-missed"]


def test_report_missed_claims_note_says_the_rows_errored(tmp_path):
    import pandas as pd

    import ragnotebook

    judge = ragnotebook.MockJudge(
        scripts={"faithfulness.verify_claims": [RuntimeError("down")]},
        fallback=ragnotebook.OfflineJudge(),
    )
    df = pd.DataFrame(
        {"question": ["q"], "answer": ["Sky is blue."], "contexts": [["Sky is blue."]]}
    )
    out = report(df.rag.faithfulness(model=judge, progress=False), tmp_path / "e.html")
    payload = json.loads(_scan(out).scripts[1][1])
    missed = next(f for f in payload["figures"] if f["id"] == "chart-missed")
    assert [a["text"] for a in missed["layout"]["annotations"]] == [
        "No claim could be checked: no row was scored by faithfulness."
        "<br>faithfulness: 0 of 1 row checked (1 errored)"
    ]


def test_report_says_why_a_chart_is_left_out(precision_frame, tmp_path):
    import pandas as pd

    df = pd.DataFrame(
        {"question": ["q"], "answer": ["Sky is blue."], "contexts": [["Sky is blue."]]}
    )
    faith = df.rag.faithfulness(model="offline", progress=False)
    page = report(faith, tmp_path / "f.html", plotly_js="cdn").read_text(encoding="utf-8")
    assert (
        '<p class="help rnb-left-out" id="chart-precision-left-out">Chart left out, '
        "precision@k by rank: context precision was not run on this frame (no "
        "context_precision scores).</p>" in page
    )
    assert 'id="chart-missed"' in page and "chart-missed-left-out" not in page
    page = report(precision_frame, tmp_path / "p.html", plotly_js="cdn").read_text(encoding="utf-8")
    assert (
        '<p class="help rnb-left-out" id="chart-missed-left-out">Chart left out, missed and '
        "unsupported claims: neither context recall nor faithfulness was run on this frame "
        "(the claims come from their verdicts).</p>" in page
    )
    assert 'id="chart-precision"' in page and "chart-precision-left-out" not in page
    # the chart order is kept: scores, then precision@k (or its note), then missed claims
    charts = page.split('<section id="charts">')[1].split("</section>")[0]
    assert (
        charts.index("chart-scores")
        < charts.index("chart-precision")
        < charts.index("chart-missed-left-out")
    )


def test_import_stays_light_until_a_view_is_used():
    code = (
        "import sys, pandas as pd, ragnotebook\n"
        "df = pd.DataFrame({'question': ['q'], 'answer': ['Sky is blue.'],"
        " 'contexts': [['Sky is blue.']]})\n"
        "s = df.rag.faithfulness(model='offline', progress=False)\n"
        "a = [m for m in ('plotly', 'ipywidgets') if m in sys.modules]\n"
        "import ragnotebook.views\n"
        "b = [m for m in ('plotly', 'ipywidgets') if m in sys.modules]\n"
        "s.rag.plot.scores()\n"
        "c = [m for m in ('plotly', 'ipywidgets') if m in sys.modules]\n"
        "print(a, b, c)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=str(ROOT),
    )
    assert out.stdout.strip() == "[] [] ['plotly']"


def test_report_drill_down_is_lazy_data_not_html(scored, tmp_path):
    out = report(scored, tmp_path / "lazy.html")
    html = out.read_text(encoding="utf-8")
    scan = _scan(out)
    # no row detail is in the page's HTML; each row's body holds only its heading until opened
    assert 'class="rnb-card"' not in html and "<mark>" not in html
    assert (
        len(
            re.findall(
                r'<div class="rnb-body"><div class="rnb"><h4>Row \d+ of 48 .*?</h4></div></div>',
                html,
            )
        )
        == 48
    )
    rows = json.loads(scan.scripts[1][1])["rows"]
    assert sorted(rows, key=int) == [str(i) for i in range(48)]
    pos = next(
        int(p) for p, r in rows.items() if any(s[0] is not None for c in r["recall"] for s in c[4])
    )
    row = rows[str(pos)]
    assert row["texts"][0] == scored["question"].iloc[pos]
    verdicts = sorted(scored["context_precision_verdicts"].iloc[pos], key=lambda v: v["index"])
    assert row["chunks"] == [v["chunk"] for v in verdicts]
    # claims point at chunks by index, with the shared words as character ranges
    support = next(s for c in row["recall"] for s in c[4] if s[0] is not None)
    idx, label, a, b, marks = support
    assert label == f"chunk at rank {idx + 1}" and 0 <= a < b <= len(row["chunks"][idx])
    assert all(0 <= s < e <= len(row["chunks"][idx]) for s, e in marks)
    assert row["prec"][0][2].startswith("chunk at rank 1")


def test_report_size_per_row_is_small(scored, tmp_path):
    base = report(scored, tmp_path / "one.html", max_rows=1).stat().st_size
    full = report(scored, tmp_path / "all.html").stat().st_size
    per_row = (full - base) / 47
    # about 6.1 kB since each chunk's reason ends with its relevance score and bar (v23)
    assert per_row < 6_500, per_row


def test_report_statuses_text_matches_the_summary(scored, tmp_path):
    text = " ".join(" ".join(_scan(report(scored, tmp_path / "s.html", max_rows=1)).text).split())
    assert "nothing to judge, scored 0" not in text
    assert "no answer at all is not scored" in text
    assert "measured 0s" in text


def _no_chunks_frame():
    """Two rows, the second with no retrieved chunk (status no_context)."""
    import pandas as pd

    return pd.DataFrame(
        {
            "question": ["Where?", "When?"],
            "answer": ["It is on Pier 4.", "In 1998."],
            "contexts": [["The museum is on Pier 4."], []],
            "ground_truth": ["The museum is on Pier 4.", "It opened in 1998."],
        }
    )


def _status_help(path):
    """The text of the summary help's ``statuses`` entry, blanks folded."""
    page = Path(path).read_text(encoding="utf-8")
    entry = page.split("<dt>statuses</dt><dd>")[1].split("</dd>")[0]
    scan = _Scan()
    scan.feed(entry)
    scan.close()
    return " ".join("".join(scan.text).split())


def test_report_says_no_context_is_unscored_for_precision_only(tmp_path):
    """Context precision without chunks is <NA>, not a measured 0 (README's status table)."""
    scored = _no_chunks_frame().rag.evaluate(model="offline", progress=False)
    path = report(scored, tmp_path / "c.html", plotly_js="cdn")
    assert _status_help(path) == (
        "ok: judged. no context (no chunks were retrieved) is a measured 0 for context recall "
        "and faithfulness, scored and counted in the mean; context precision is undefined "
        "without chunks, so there the row has no score and stays out of the mean. The "
        "scored / rows column shows how many rows each mean covers."
    )
    text = " ".join(" ".join(_scan(path).text).split())
    assert "n/ctx no context (nothing retrieved: a measured 0 for R and F, no score for P)" in text
    assert "n/ctx no context (a measured 0)" not in text


def test_report_status_help_explains_only_the_statuses_that_occur(scored, tmp_path):
    """The quickstart frame has ok, no ground truth and no answer rows: nothing else is
    explained (before, every report explained not run and precision's no context)."""
    text = _status_help(report(scored, tmp_path / "q.html", max_rows=0, plotly_js="cdn"))
    assert text.startswith("ok: judged. A faithfulness row with no answer at all is not scored")
    assert "no ground truth: the metric cannot be measured for the row" in text
    for absent in ("not run", "no context", "no reference", "error:", "from a real answer"):
        assert absent not in text, absent
    assert text.endswith("The scored / rows column shows how many rows each mean covers.")


def test_report_status_help_explains_no_context_for_the_metrics_that_have_it(tmp_path):
    import ragnotebook

    df = _no_chunks_frame()
    precision = ragnotebook.context_precision(df, model="offline", progress=False)
    text = _status_help(report(precision, tmp_path / "p.html", max_rows=0, plotly_js="cdn"))
    assert (
        "no context (no chunks were retrieved): context precision is undefined without chunks, "
        "so there the row has no score and stays out of the mean." in text
    )
    assert "measured 0" not in text
    faith = ragnotebook.faithfulness(df, model="offline", progress=False)
    text = _status_help(report(faith, tmp_path / "f.html", max_rows=0, plotly_js="cdn"))
    assert (
        "no context (no chunks were retrieved) is a measured 0 for context recall and "
        "faithfulness, scored and counted in the mean." in text
    )
    assert "context precision is undefined" not in text


def test_report_status_help_explains_not_run_and_errors_when_they_occur(tmp_path):
    import pandas as pd

    import ragnotebook

    df = _no_chunks_frame().iloc[:1]
    mixed = pd.concat(
        [
            ragnotebook.faithfulness(df, model="offline", progress=False),
            ragnotebook.context_recall(df, model="offline", progress=False),
        ],
        ignore_index=True,
    )
    mixed.loc[0, "faithfulness_status"] = "error"
    mixed.loc[0, "faithfulness"] = float("nan")
    text = _status_help(report(mixed, tmp_path / "m.html", max_rows=0, plotly_js="cdn"))
    assert text == (
        "ok: judged. error: the judge failed; the row is left out and the error is shown. "
        "not run: the row has no status for the metric, which never scored it (a frame "
        "concatenated from runs of different metrics); it is left out, and it is not an error "
        "(summary()'s not_run). The scored / rows column shows how many rows each mean covers."
    )


def _row_legend(path):
    page = Path(path).read_text(encoding="utf-8")
    start = page.index('<section id="rows">')
    return page[start : page.index("Highlighted words", start)]


def test_report_row_legend_explains_only_the_codes_its_rows_show(scored, tmp_path):
    """The quickstart rows show n/gt and n/ans and scores: no other code is explained (before,
    every report listed all seven)."""
    legend = _row_legend(report(scored, tmp_path / "q.html", plotly_js="cdn"))
    assert "R = context recall, P = context precision, F = faithfulness; " in legend
    assert "n/gt no ground truth, n/ans no answer (not scored)." in legend
    for absent in ("n/ref", "n/cl", "n/ctx", "ERR", "n/run"):
        assert absent not in legend, absent


def test_report_explains_only_the_metrics_the_frame_was_scored_with(precision_frame, tmp_path):
    page = report(precision_frame, tmp_path / "p.html", plotly_js="cdn").read_text("utf-8")
    assert "<dt>context precision</dt>" in page
    assert "<dt>context recall</dt>" not in page and "<dt>faithfulness</dt>" not in page
    assert "P = context precision" in _row_legend(tmp_path / "p.html")
    assert "R = context recall" not in _row_legend(tmp_path / "p.html")


def test_report_row_legend_follows_the_rows_shown(tmp_path):
    import ragnotebook

    df = _no_chunks_frame()
    faith = ragnotebook.faithfulness(df, model="offline", progress=False)
    faith.loc[faith.index[0], "faithfulness_status"] = "error"
    faith.loc[faith.index[0], "faithfulness"] = float("nan")
    legend = _row_legend(report(faith, tmp_path / "f.html", plotly_js="cdn"))
    # row 0 errored, row 1 had no chunks
    assert (
        "F = faithfulness; n/ctx no context (nothing retrieved: a measured 0 for R and F, "
        "no score for P), ERR error." in legend
    )
    assert "n/gt" not in legend and "n/run" not in legend
    # no rows drawn (max_rows=0): the legend names the metrics only
    legend = _row_legend(report(faith, tmp_path / "g.html", max_rows=0, plotly_js="cdn"))
    assert "faithfulness." in legend and "ERR" not in legend


def _meta_line(path):
    page = Path(path).read_text(encoding="utf-8")
    start = page.index('<p class="meta">')
    return page[start : page.index("</p>", start)]


def test_report_header_says_what_the_judge_calls_cost(llm_server, tmp_path):
    """Requests, tokens and USD of an LLM run are in the header; an offline run shows none."""
    import ragnotebook as rn
    from tests.judge_replies import offline_responder

    llm_server.responder = offline_responder()
    rows = rn.load_sample("quickstart").dropna(subset=["answer"]).head(2)
    opts = dict(api_base=llm_server.url, api_key="sk-test", progress=False, cache=False)
    priced = rn.faithfulness(rows, model="openai/gpt-4o-mini", **opts)
    s = rn.summary(priced)
    requests = int(s["requests"].sum())
    tokens = int(s["prompt_tokens"].sum() + s["completion_tokens"].sum())
    assert requests == llm_server.requests > 0 and tokens > 0
    line = _meta_line(report(priced, tmp_path / "priced.html"))
    cost = float(s["cost_usd"].sum())
    assert f"{requests:,} judge requests · {tokens:,} tokens · ${cost:.4f} ·" in line

    unpriced = rn.faithfulness(rows, model="openai/test-model", **opts)
    assert "judge requests" in (line := _meta_line(report(unpriced, tmp_path / "u.html")))
    assert "cost unknown" in line

    offline = rn.faithfulness(rows, model="offline", progress=False)
    assert "judge requests" not in _meta_line(report(offline, tmp_path / "o.html"))


def _rows_in(path):
    return [int(a["data-row"]) for t, a in _scan(path).tags if t == "details" and "data-row" in a]


@pytest.mark.parametrize("bad", [-1, -48, 1.5, True, "3"])
def test_report_max_rows_must_be_a_whole_number_from_0(scored, tmp_path, bad):
    with pytest.raises(ValueError, match="max_rows must be a whole number of at least 0"):
        report(scored, tmp_path / "r.html", max_rows=bad)
    assert not (tmp_path / "r.html").exists()


def test_report_max_rows_0_writes_summary_and_charts_only(scored, tmp_path):
    out = report(scored, tmp_path / "r.html", max_rows=0)
    scan = _scan(out)
    assert _rows_in(out) == []
    assert json.loads(scan.scripts[1][1])["rows"] == {}
    assert "0 of 48 rows" in " ".join(scan.text)
    assert len(json.loads(scan.scripts[1][1])["figures"]) == 3


def test_report_sort_by_takes_the_metric_aliases(scored, tmp_path):
    by_alias = _rows_in(report(scored, tmp_path / "a.html", sort_by="recall", max_rows=6))
    by_name = _rows_in(report(scored, tmp_path / "n.html", sort_by="context_recall", max_rows=6))
    assert by_alias == by_name
    assert by_alias != list(range(6))  # really sorted
    with pytest.raises(ValueError, match="unknown metric 'bogus'; expected one of"):
        report(scored, tmp_path / "x.html", sort_by="bogus")


def test_report_summary_counts_no_answer_apart(unanswered, tmp_path):
    html = report(unanswered, tmp_path / "u.html").read_text(encoding="utf-8")
    s = unanswered.rag.summary().loc["faithfulness"]
    # scored 2/3: ok 1, no claims 1 (the refusal, measured), no answer 1 (not scored)
    cells = f"<td>faithfulness</td><td>0.50</td><td>2/3</td><td>{s['ok']}</td>"
    cells += f"<td>{s['no_claims'] - s['no_answer']}</td><td>{s['no_answer']}</td>"
    assert cells == "<td>faithfulness</td><td>0.50</td><td>2/3</td><td>1</td><td>1</td><td>1</td>"
    assert cells in html
    head = html[html.index('<table class="rnb-sum">') : html.index("</thead>")]
    assert ">no claims</th>" in head and ">no answer</th>" in head


def test_report_of_a_frame_read_back_from_csv_warns_once(from_csv, tmp_path):
    with pytest.warns(UserWarning) as caught:
        from_csv.rag.report(tmp_path / "csv.html")
    texts = [str(w.message) for w in caught if "text" in str(w.message)]
    assert len(texts) == 1, texts
    assert texts[0].startswith("report(): columns ")  # not claims() / chunks()
    for col in ("context_recall_verdicts", "context_precision_verdicts", "faithfulness_verdicts"):
        assert col in texts[0]
    assert {w.filename for w in caught} == {__file__}


# --------------------------------------------------------------------------- plotly_js="cdn"


@pytest.fixture(scope="module")
def cdn_report(hostile, tmp_path_factory):
    path = tmp_path_factory.mktemp("c") / "cdn.html"
    return report(hostile, path, title="<b>T</b> & co", plotly_js="cdn")


def test_report_cdn_loads_pinned_plotly_with_its_integrity_hash(scored, tmp_path):
    import base64
    import hashlib

    import plotly.offline

    out = report(scored, tmp_path / "cdn.html", plotly_js="cdn")
    scan = _scan(out)
    assert len(scan.scripts) == SCRIPT_COUNT
    lib, data, boot = scan.scripts
    version = plotly.offline.get_plotlyjs_version()
    digest = hashlib.sha256(plotly.offline.get_plotlyjs().encode("utf-8")).digest()
    assert lib[0]["src"] == f"https://cdn.plot.ly/plotly-{version}.min.js"
    assert lib[0]["integrity"] == "sha256-" + base64.b64encode(digest).decode()
    assert lib[0]["crossorigin"] == "anonymous" and lib[1] == ""
    assert data[0] == {"type": "application/json", "id": "rnb-data"} and boot[0] == {}
    # the only remote address is plotly's, on the library's script element
    remote = [
        (t, k)
        for t, a in scan.tags
        for k, v in a.items()
        if "//" in (v or "") and (t, k) != ("svg", "xmlns")
    ]
    assert remote == [("script", "src")]
    assert "need a network connection" in " ".join(scan.text)
    inline = report(scored, tmp_path / "inline.html").stat().st_size
    assert out.stat().st_size < 1_000_000 < 4_000_000 < inline
    assert inline - out.stat().st_size == pytest.approx(
        len(plotly.offline.get_plotlyjs()), rel=0.01
    )


def test_report_cdn_escapes_every_hostile_string(cdn_report):
    html = cdn_report.read_text(encoding="utf-8")
    scan = _scan(cdn_report)
    assert len(scan.scripts) == SCRIPT_COUNT
    assert not any(tag in ("img", "iframe", "object", "embed") for tag, _ in scan.tags)
    assert not any(k.startswith("on") for _, attrs in scan.tags for k in attrs)
    text = "".join(scan.text)
    assert HOSTILE["bold_br"] in text and HOSTILE["link"] in text
    assert "<title>&lt;b&gt;T&lt;/b&gt; &amp; co</title>" in html
    assert "<i>r1</i>" in text and "<b>T</b>" not in html
    data = scan.scripts[1][1]
    assert "<" not in data and ">" not in data
    rows = json.dumps(json.loads(data)["rows"], ensure_ascii=False)
    for value in HOSTILE.values():
        assert json.dumps(value, ensure_ascii=False)[1:-1] in rows, value


def test_report_plotly_js_must_be_inline_or_cdn(scored, tmp_path):
    with pytest.raises(ValueError, match="plotly_js must be 'inline' or 'cdn', got 'none'"):
        report(scored, tmp_path / "x.html", plotly_js="none")


def test_a_large_report_without_max_rows_warns_about_its_size(scored, tmp_path, monkeypatch):
    import warnings

    import ragnotebook.views._report as rep

    monkeypatch.setattr(rep, "LARGE_REPORT_ROWS", 3)
    n = len(scored)
    with pytest.warns(UserWarning, match=rf"report\(\): the drill-down holds all {n} rows"):
        report(scored, tmp_path / "all.html", plotly_js="cdn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report(scored, tmp_path / "worst.html", max_rows=2, sort_by="faithfulness", plotly_js="cdn")


def _deep_frame():
    """Two rows judged by the offline judge: one with 150 chunks, one with 3."""
    import pandas as pd

    noise = [f"Tide table {i}: low water at {i % 12} o'clock." for i in range(149)]
    df = pd.DataFrame(
        {
            "question": ["Where is the museum?", "When did it open?"],
            "ground_truth": ["The museum is on Pier 4.", "It opened in 1998."],
            "contexts": [
                ["The museum is on Pier 4.", *noise],
                ["It opened in 1998.", "Tide table.", "The cafe opened in 1998."],
            ],
        }
    )
    out = df.rag.context_precision(model="offline", progress=False)
    assert out["context_precision_status"].tolist() == ["ok", "ok"]
    return out


def test_report_caps_the_precision_chart_at_max_k_and_says_so(tmp_path):
    deep = _deep_frame()
    payload = json.loads(_scan(report(deep, tmp_path / "d.html")).scripts[1][1])
    chart = next(f for f in payload["figures"] if f["id"] == "chart-precision")
    line = chart["data"][-1]
    assert line["name"] == "mean precision@k" and line["x"] == list(range(1, 21))
    assert chart["layout"]["title"]["text"].endswith(
        "<br>ranks 1–20 shown: 1 row has more chunks (up to 150), left out past rank 20; "
        "max_k= shows more</sup>"
    )
    # the drill-down keeps every chunk of the row
    assert len(payload["rows"]["0"]["curve"]) == 150
    wide = json.loads(_scan(report(deep, tmp_path / "w.html", max_k=None)).scripts[1][1])
    chart = next(f for f in wide["figures"] if f["id"] == "chart-precision")
    assert chart["data"][-1]["x"] == list(range(1, 151))
    assert "left out past rank" not in chart["layout"]["title"]["text"]
    three = json.loads(_scan(report(deep, tmp_path / "t.html", max_k=3)).scripts[1][1])
    chart = next(f for f in three["figures"] if f["id"] == "chart-precision")
    assert chart["data"][-1]["x"] == [1, 2, 3]
    assert "ranks 1–3 shown: 1 row has more chunks (up to 150)" in chart["layout"]["title"]["text"]


@pytest.mark.parametrize("bad", [0, 2.5, "20", True])
def test_report_max_k_must_be_a_whole_number_from_1(scored, tmp_path, bad):
    with pytest.raises(
        ValueError,
        match=re.escape(f"max_k must be a whole number of at least 1 or None, got {bad!r}"),
    ):
        report(scored, tmp_path / "x.html", max_k=bad)


def test_report_of_short_rows_has_no_cap_note(scored, tmp_path):
    payload = json.loads(_scan(report(scored, tmp_path / "s.html", max_rows=0)).scripts[1][1])
    chart = next(f for f in payload["figures"] if f["id"] == "chart-precision")
    assert chart["data"][-1]["x"] == list(range(1, 11))  # the sample's rows have 10 chunks
    assert "shown:" not in chart["layout"]["title"]["text"]
