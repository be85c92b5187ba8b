"""End to end: open the report in headless Chromium and check nothing from the data runs.

Needs Debian's ``chromium`` package at /usr/bin/chromium and the ``playwright`` Python
package (its own browser download is not used). Skipped, with the reason printed, only
when /usr/bin/chromium is missing.
"""

import os
from pathlib import Path

import pytest

from ragnotebook.views._report import report

from .conftest import HOSTILE

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        reason = f"{CHROMIUM} is missing (install Debian's 'chromium' package to run this test)"
        print(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def _open(browser, path: Path, **context):
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    events = {"dialogs": [], "requests": [], "errors": []}

    def on_dialog(dialog):
        events["dialogs"].append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda exc: events["errors"].append(str(exc)))

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:  # the report must need no network: record and refuse
            events["requests"].append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.wait_for_selector("#chart-missed .main-svg", timeout=20_000)
    return ctx, page, events


def test_report_in_chromium(browser, hostile, tmp_path):
    path = report(hostile, tmp_path / "hostile.html")
    ctx, page, events = _open(browser, path)
    try:
        # plotly (inlined) drew every chart, offline
        assert page.locator(".chart .main-svg").count() >= 3
        # exactly the toolkit's scripts; nothing from the data ran or rendered as markup
        assert page.evaluate("document.scripts.length") == 3
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert page.evaluate("document.querySelectorAll('main img, main iframe').length") == 0
        assert page.evaluate(
            "Array.from(document.querySelectorAll('main a')).every(a => a.getAttribute('href').startsWith('#'))"
        )
        # drill-down: rows start closed, open on click and show the data as text
        rows = page.locator("details.rnb-row")
        assert rows.count() == 2
        first = rows.nth(0)
        assert first.get_attribute("open") is None
        first.locator(":scope > summary").click()
        assert first.get_attribute("open") is not None
        text = first.inner_text()
        assert HOSTILE["bold_br"] in text
        assert HOSTILE["script"] in text
        assert HOSTILE["end_script"] in text
        assert "<i>r1</i>" in text
        assert "found" in text and "not found" in text
        second = rows.nth(1)
        second.locator(":scope > summary").click()
        assert HOSTILE["link"] in second.inner_text()
        assert HOSTILE["img"] in second.inner_text()
        # highlighted overlap between a claim and its supporting chunk, never inside
        # literal markup from the data (a "<br>" in a chunk keeps its "br" unmarked)
        assert first.locator("mark", has_text="museum").count() >= 1
        assert page.evaluate(
            "Array.from(document.querySelectorAll('mark')).every(m => "
            "!(m.previousSibling && /<\\/?$/.test(m.previousSibling.textContent)))"
        )
        # the row filter works
        page.fill("#rnb-filter", "gallery")
        assert rows.nth(0).is_hidden() and rows.nth(1).is_visible()
        assert page.inner_text("#rnb-count") == "1 of 2 rows"
        # hover labels show the data literally (plotly decodes our entities, adds no tags)
        hover = page.evaluate(
            """() => {
                const el = document.getElementById('chart-missed');
                Plotly.Fx.hover(el, [{curveNumber: 0, pointNumber: 1}]);
                const h = el.querySelector('.hoverlayer .hovertext');
                return h ? h.textContent : null;
            }"""
        )
        assert hover is not None and HOSTILE["link"] in hover
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert events["dialogs"] == []
        assert events["requests"] == []
        assert events["errors"] == []
    finally:
        ctx.close()


def test_report_dark_scheme(browser, scored, tmp_path):
    path = report(scored, tmp_path / "dark.html", max_rows=3)
    ctx, page, events = _open(browser, path, color_scheme="dark")
    try:
        bg = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert bg == "rgb(15, 17, 21)"
        paper = page.evaluate("document.querySelector('#chart-scores .main-svg').style.background")
        assert paper == "rgb(22, 24, 28)"
        assert events["errors"] == [] and events["requests"] == []
    finally:
        ctx.close()


def test_report_rows_build_lazily_and_open_all_stays_fast(browser, scored, tmp_path):
    import pandas as pd

    big = pd.concat([scored] * 21, ignore_index=True).iloc[:1000]
    path = report(big, tmp_path / "big.html")
    ctx, page, events = _open(browser, path)
    try:
        assert page.locator("details.rnb-row").count() == 1000
        assert page.locator("details.rnb-row[data-built]").count() == 0
        page.locator("#rnb-open").scroll_into_view_if_needed()
        took = page.evaluate(
            """() => {
                const t0 = performance.now();
                document.getElementById('rnb-open').click();
                document.body.offsetHeight;  // force layout, as the browser would
                return performance.now() - t0;
            }"""
        )
        page.wait_for_timeout(300)
        built = page.locator("details.rnb-row[data-built]").count()
        assert took < 1500, took
        # only the rows near the screen were built; the rest wait until scrolled to
        assert 0 < built < 100, built
        page.evaluate("document.getElementById('row-999').scrollIntoView()")
        page.wait_for_timeout(300)
        assert page.locator("#row-999[data-built]").count() == 1
        assert "chunk at rank 1" in page.locator("#row-999").inner_text()
        # the filter searches every row's texts, built or not
        q = big["question"].iloc[998].split()[-1].strip("?").lower()
        page.fill("#rnb-filter", q)
        assert page.locator("#row-998").is_visible()
        assert events["errors"] == [] and events["requests"] == []
    finally:
        ctx.close()


def test_report_shows_a_long_chunk_around_the_sentence(browser, tmp_path):
    """A claim citing a 200 kB chunk shows the text around its sentence; the chunk list
    has the whole chunk."""
    import pandas as pd

    import ragnotebook

    chunk = "Tide table for the harbour. " * 7_000 + "The museum is on Pier 4."
    df = pd.DataFrame(
        {
            "question": ["Where is the museum?"],
            "answer": ["The museum is on Pier 4."],
            "contexts": [[chunk]],
        }
    )
    scored = ragnotebook.faithfulness(df, model="offline", progress=False)
    assert scored["faithfulness_verdicts"].iloc[0][0]["supporting_chunks"] == [0]
    ctx, page, events = _open(browser, report(scored, tmp_path / "long.html"))
    try:
        row = page.locator("details.rnb-row").nth(0)
        row.locator(":scope > summary").click()
        support = row.locator(".rnb-support")
        assert support.locator(":scope > span").inner_text() == "…The museum is on Pier 4."
        around = support.locator("details")
        summary = around.locator("summary").inner_text()
        assert summary.startswith("show the text around it (") and "of 196,024" in summary
        around.locator("summary").click()
        text = around.locator("div").inner_text()
        assert text.startswith("…") and text.endswith("The museum is on Pier 4.")
        assert len(text) < 1_200
        assert around.locator("mark", has_text="museum").count() == 1
        # the chunk list holds the whole chunk, once
        whole = row.locator(".rnb-chunk details div").text_content()
        assert whole == chunk
        assert events["errors"] == [] and events["requests"] == []
    finally:
        ctx.close()


def _open_cdn(browser, path: Path, library: str | None):
    """Open a ``plotly_js="cdn"`` report; plotly's CDN answers with ``library`` (None: offline)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    events = {"dialogs": [], "served": [], "refused": [], "errors": []}
    page.on("dialog", lambda d: (events["dialogs"].append(d.message), d.dismiss()))
    page.on("pageerror", lambda exc: events["errors"].append(str(exc)))

    def route(r):
        url = r.request.url
        if url.startswith("file://"):
            r.continue_()
        elif url.startswith("https://cdn.plot.ly/") and library is not None:
            events["served"].append(url)
            r.fulfill(
                status=200,
                body=library,
                headers={
                    "Content-Type": "application/javascript; charset=utf-8",
                    "Access-Control-Allow-Origin": "*",
                },
            )
        else:
            events["refused"].append(url)
            r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    return ctx, page, events


def test_report_with_plotly_from_the_cdn(browser, hostile, tmp_path):
    import plotly.offline

    path = report(hostile, tmp_path / "cdn.html", plotly_js="cdn")
    version = plotly.offline.get_plotlyjs_version()
    # the CDN serves the bundled file: the integrity hash matches, plotly runs and draws
    ctx, page, events = _open_cdn(browser, path, plotly.offline.get_plotlyjs())
    try:
        page.wait_for_selector("#chart-missed .main-svg", timeout=20_000)
        assert page.locator(".chart .main-svg").count() >= 3
        assert events["served"] == [f"https://cdn.plot.ly/plotly-{version}.min.js"]
        assert events["refused"] == [] and events["errors"] == [] and events["dialogs"] == []
        first = page.locator("details.rnb-row").nth(0)
        first.locator(":scope > summary").click()
        assert HOSTILE["script"] in first.inner_text()
        assert page.evaluate("typeof window.__xss") == "undefined"
    finally:
        ctx.close()
    # a tampered file fails the integrity check: it never runs
    ctx, page, events = _open_cdn(browser, path, "window.__xss = 9;")
    try:
        page.wait_for_timeout(500)
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert page.evaluate("typeof window.Plotly") == "undefined"
    finally:
        ctx.close()
    # offline: no charts, but the summary and the rows still work
    ctx, page, events = _open_cdn(browser, path, None)
    try:
        page.wait_for_timeout(300)
        assert page.locator(".chart .main-svg").count() == 0
        assert events["errors"] == []
        first = page.locator("details.rnb-row").nth(0)
        first.locator(":scope > summary").click()
        assert HOSTILE["bold_br"] in first.inner_text()
        assert page.locator("table.rnb-sum").count() == 1
    finally:
        ctx.close()


def test_report_rtl_texts_take_their_own_direction(browser, tmp_path):
    import pandas as pd

    import ragnotebook as rn

    df = pd.DataFrame(
        {
            "question": ["متى افتتح المتحف؟"],
            "answer": ["افتتح المتحف في عام 1998. فيه مقهى."],
            "contexts": [["افتتح متحف الميناء في عام 1998 على الرصيف 4. " * 12, "التذاكر متوفرة."]],
            "ground_truth": ["افتتح المتحف في عام 1998."],
        },
        index=["سؤال-1"],
    )
    path = report(rn.evaluate(df, model="offline", progress=False), tmp_path / "rtl.html")
    ctx, page, events = _open(browser, path)
    try:
        page.locator("details.rnb-row > summary").first.click()
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        result = page.evaluate(
            """() => {
                const rtl = /[\\u0590-\\u05ff\\u0600-\\u06ff]/;
                // the rows and the page's own HTML (plotly's SVG charts are plotly's)
                const walk = document.createTreeWalker(document.querySelector('#rows'),
                                                       NodeFilter.SHOW_TEXT);
                const bare = [];
                let n = 0;
                while (walk.nextNode()) {
                    const node = walk.currentNode;
                    if (!rtl.test(node.textContent)) { continue; }
                    n += 1;
                    const owner = node.parentElement.closest('[dir]');
                    if (!owner || owner.getAttribute('dir') !== 'auto') {
                        bare.push(node.parentElement.tagName + ': ' + node.textContent.slice(0, 30));
                    }
                }
                const q = document.querySelector('.rnb-row .rnb-text');
                return {n: n, bare: bare, direction: getComputedStyle(q).direction};
            }"""
        )
        assert result["n"] > 10  # question, answer, claims, chunks, marks, reasons
        assert result["bare"] == []
        assert result["direction"] == "rtl"
        assert events["errors"] == []
    finally:
        ctx.close()


def test_report_group_menu_shows_one_group(browser, tmp_path):
    import pandas as pd

    import ragnotebook

    df = pd.DataFrame(
        {
            "system": ["A", "B", "A", HOSTILE["script"]],
            "question": ["Where is it?", "Where is it?", "When did it open?", "Who runs it?"],
            "answer": ["It is on Pier 4.", "It is in Oslo.", "It opened in 1998.", "A trust."],
            "contexts": [["The museum is on Pier 4. It opened in 1998."]] * 4,
        }
    )
    scored = ragnotebook.evaluate(
        df, metrics=["context_precision", "faithfulness"], model="offline", progress=False
    )
    path = report(scored, tmp_path / "groups.html", by="system")
    ctx, page, events = _open(browser, path)
    try:
        rows = page.locator("details.rnb-row")
        assert page.inner_text("#rnb-count") == "4 of 4 rows"
        labels = page.locator("#rnb-group option").all_inner_texts()
        # groups in sorted order ("<" sorts before "A"), shown as text
        assert labels == ["every system (4)", f"{HOSTILE['script']} (1)", "A (2)", "B (1)"]
        page.select_option("#rnb-group", label="A (2)")
        assert [rows.nth(i).is_visible() for i in range(4)] == [True, False, True, False]
        assert page.inner_text("#rnb-count") == "2 of 4 rows"
        # the text filter and the group menu combine
        page.fill("#rnb-filter", "when")
        assert [rows.nth(i).is_visible() for i in range(4)] == [False, False, True, False]
        page.fill("#rnb-filter", "")
        page.select_option("#rnb-group", index=1)
        assert [rows.nth(i).is_visible() for i in range(4)] == [False, False, False, True]
        tag = rows.nth(3).locator(".rnb-grp")
        # textContent: rows off screen are not rendered (content-visibility: auto), so
        # their innerText may be empty
        assert tag.text_content() == "[<script>window.__xss=1;…]"
        assert tag.get_attribute("title") == HOSTILE["script"]
        rows.nth(3).locator(":scope > summary").click()
        assert f"· {HOSTILE['script']}" in rows.nth(3).locator("h4").first.text_content()
        page.select_option("#rnb-group", index=0)
        assert page.inner_text("#rnb-count") == "4 of 4 rows"
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert events["errors"] == [] and events["dialogs"] == [] and events["requests"] == []
    finally:
        ctx.close()


def test_report_filter_is_width_insensitive(browser, tmp_path):
    import pandas as pd

    import ragnotebook

    df = pd.DataFrame(
        {
            "question": ["価格は？", "予約は？"],
            "answer": [
                "価格は１２０円です。",
                "予約はＡｍａｚｏｎで受け付けています。zero\u200bwidth",
            ],
            "contexts": [["料金表をご覧ください。"], ["店頭で受け付けています。"]],
        }
    )
    scored = ragnotebook.faithfulness(df, model="offline", progress=False)
    path = report(scored, tmp_path / "wide.html")
    ctx, page, events = _open(browser, path)
    try:
        rows = page.locator("details.rnb-row")
        for query, shown in [
            ("120円", [True, False]),  # ASCII digits find full-width ones
            ("１２０", [True, False]),  # and the other way round
            ("amazon", [False, True]),  # full-width Latin letters, any case
            ("ＡＭＡＺＯＮ", [False, True]),
            ("zerowidth", [False, True]),  # a zero-width space splits no word
        ]:
            page.fill("#rnb-filter", query)
            assert [rows.nth(i).is_visible() for i in range(2)] == shown, query
        assert events["errors"] == []
    finally:
        ctx.close()
