"""``by=``: several systems (or retrievers, prompts) in one frame, in every view."""

import html
import re

import numpy as np
import pandas as pd
import pytest

import ragnotebook
from ragnotebook.views._data import group_keys
from ragnotebook.views._report import report
from ragnotebook.views.explorer import Explorer
from ragnotebook.views.static import StaticExplorer, explore

from .conftest import HOSTILE


@pytest.fixture(scope="module")
def systems() -> pd.DataFrame:
    """Three systems answering the same six questions against the same chunks, one
    system's group cell left empty in one row."""
    questions = [f"Where is exhibit {i}?" for i in range(6)]
    contexts = [[f"Exhibit {i} is in hall {i}.", "The cafe sells coffee."] for i in range(6)]
    rows = []
    for system, answer in (
        ("A", "Exhibit {i} is in hall {i}."),  # every claim supported
        ("B", "Exhibit {i} was painted by Rembrandt in Leiden."),  # none supported
        ("C <b>beta</b>", "Exhibit {i} is in hall {i}. It was painted by Rembrandt."),
    ):
        for i in range(6):
            rows.append(
                {
                    "system": system,
                    "question": questions[i],
                    "answer": answer.format(i=i),
                    "contexts": contexts[i],
                    "ground_truth": f"Exhibit {i} is in hall {i}.",
                }
            )
    df = pd.DataFrame(rows)
    df.loc[17, "system"] = None
    return ragnotebook.evaluate(df, model="offline", progress=False)


def _expected_cell(scored: pd.DataFrame, mask: np.ndarray, metric: str) -> str:
    s = ragnotebook.summary(scored[mask])
    mean = s.loc[metric, "mean"]
    return f"{mean:.2f} ({s.loc[metric, 'scored']})"


def test_group_keys_names_the_missing_group_and_refuses_an_unknown_column(systems):
    keys = group_keys(systems, "system", "report()")
    assert keys[:7] == ["A"] * 6 + ["B"] and keys[17] == "(missing)"
    with pytest.raises(ValueError, match=r"report\(\): by='sytem' is not a column; did you"):
        group_keys(systems, "sytem", "report()")
    with pytest.raises(ValueError, match="must be a column name"):
        group_keys(systems, ["system"], "report()")


def test_report_by_system_has_each_groups_means_its_rows_and_a_menu(systems, tmp_path):
    page = report(systems, tmp_path / "r.html", by="system").read_text(encoding="utf-8")
    table = page[page.index("<h3>By system</h3>") : page.index("</table>", page.index("By system"))]
    keys = np.array(group_keys(systems, "system", "t"), dtype=object)
    found = re.findall(r'<tr><td dir="auto">(.*?)</td><td>(\d+)</td>(.*?)</tr>', table)
    # sorted groups, the missing one last; the group's name escaped
    assert [g for g, _, _ in found] == ["A", "B", "C &lt;b&gt;beta&lt;/b&gt;", "(missing)"]
    for name, n, cells in found:
        mask = keys == html.unescape(name)
        assert int(n) == mask.sum()
        values = re.findall(r"<td>(.*?)</td>", cells)
        metrics = ["context_recall", "context_precision", "faithfulness"]
        assert values == [_expected_cell(systems, mask, m) for m in metrics]
    # system A is faithful, B not at all: the table tells them apart
    assert found[0][2].endswith("<td>1.00 (6/6)</td>")
    assert found[1][2].endswith("<td>0.00 (6/6)</td>")
    # every row carries its group's number; the menu lists each group with its rows
    groups = re.findall(
        r'<details class="rnb-row" id="row-(\d+)" data-row="\d+" data-group="(\d)"', page
    )
    assert len(groups) == 18
    order = ["A", "B", "C <b>beta</b>", "(missing)"]
    assert all(order[int(g)] == keys[int(p)] for p, g in groups)
    menu = re.search(r'<select id="rnb-group".*?</select>', page).group(0)
    assert re.findall(r'<option value="(\d*)">([^<]*)</option>', menu) == [
        ("", "every system (18)"),
        ("0", "A (6)"),
        ("1", "B (6)"),
        ("2", "C &lt;b&gt;beta&lt;/b&gt; (5)"),
        ("3", "(missing) (1)"),
    ]
    assert '<span class="rnb-grp" dir="auto" title="B">[B]</span>' in page
    assert "<b>beta</b>" not in page


def test_report_without_by_has_no_group_parts_and_an_unknown_by_is_refused(systems, tmp_path):
    page = report(systems, tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="rnb-group"' not in page and 'data-group="' not in page
    assert "By system" not in page
    with pytest.raises(ValueError, match="by='nope' is not a column"):
        systems.rag.report(tmp_path / "x.html", by="nope")
    assert not (tmp_path / "x.html").exists()


def test_static_view_by_system(systems):
    view = explore(systems, by="system")
    assert isinstance(view, StaticExplorer)
    page = view.to_html()
    assert "By system:" in page and "<td>1.00 (6/6)</td>" in page
    assert page.count('<span class="rnb-grp" dir="auto" title=') == 18
    assert "[C &lt;b&gt;beta&lt;/b&gt;]" in page and "<b>beta</b>" not in page
    # the heading of a row names its group too
    assert 'index <span dir="auto">7</span>)</small> · <span dir="auto">B</span>' in page
    with pytest.raises(ValueError, match="explore\\(\\): by='nope' is not a column"):
        explore(systems, by="nope")


def test_widget_group_filter(systems):
    ex = Explorer(systems, by="system")
    assert ex.group.options[0] == ("every system (18)", "")
    # the first option is selected and shown (ipywidgets shows an empty box for None)
    assert (ex.group.index, ex.group.label) == (0, "every system (18)")
    assert [v for _, v in ex.group.options[1:]] == ["A", "B", "C <b>beta</b>", "(missing)"]
    assert len(ex.rows) == 18
    ex.group.value = "B"
    assert ex.rows == list(range(6, 12))
    assert all("[B]" in text for text, _ in ex.listing.options)
    # filters combine: B's rows with faithfulness 0 are all of them, A's none
    ex.metric.value = "faithfulness"
    ex.score_range.value = (0.0, 0.0)
    assert ex.rows == list(range(6, 12))
    ex.group.value = "A"
    assert ex.rows == []
    ex.score_range.value = (0.0, 1.0)
    ex.group.value = "(missing)"
    assert ex.rows == [17]
    ex.select(17)
    assert '· <span dir="auto">(missing)</span>' in ex.header.value
    ex.group.index = 0
    assert ex.group.label == "every system (18)" and ex.group.value == Explorer.ALL_GROUPS
    assert len(ex.rows) == 18
    # without by, no group control and no group on the lines
    plain = Explorer(systems)
    assert plain.group is None and "[A]" not in plain.listing.options[0][0]


def test_hostile_group_values_stay_text(hostile, tmp_path):
    page = report(hostile, tmp_path / "h.html", by="retriever").read_text(encoding="utf-8")
    assert 'title="&lt;i&gt;plain&lt;/i&gt;">[&lt;i&gt;plain&lt;/i&gt;]</span>' in page
    assert 'title="&lt;a href=&quot;javascript:alert(1)&quot;&gt;click&lt;/a&gt;">[&lt;a' in page
    assert HOSTILE["link"] not in page and "<i>plain</i>" not in page


def test_blank_and_look_alike_groups_stay_apart_and_visible(tmp_path):
    values = ["A", "", "  ", None, "(missing)", "A "]
    rows = [
        {
            "system": v,
            "question": f"Where is exhibit {i}?",
            "answer": f"Exhibit {i} is in hall {i}." if k % 2 == 0 else "It was painted in Leiden.",
            "contexts": [f"Exhibit {i} is in hall {i}."],
        }
        for k, v in enumerate(values)
        for i in range(2)
    ]
    scored = ragnotebook.evaluate(
        pd.DataFrame(rows), metrics=["faithfulness"], model="offline", progress=False
    )
    keys = group_keys(scored, "system", "t")
    assert sorted(set(keys)) == sorted(["A", "''", "'  '", "(missing)", "'(missing)'", "'A '"])
    page = report(scored, tmp_path / "r.html", by="system").read_text(encoding="utf-8")
    found = re.findall(r'<tr><td dir="auto">(.*?)</td><td>(\d+)</td><td>(.*?)</td></tr>', page)
    assert len(found) == 6 and all(n == "2" for _, n, _ in found)
    # each group's mean is summary(by=)'s for that value (A 1.00, '' 0.00, ...)
    by = ragnotebook.summary(scored, by="system")["mean"].xs("faithfulness", level=1)
    from ragnotebook.views._data import group_name

    expected = {html.escape(group_name(k), quote=False): f"{v:.2f} (2/2)" for k, v in by.items()}
    assert {html.unescape(g): cell for g, _, cell in found} == {
        html.unescape(k): v for k, v in expected.items()
    }
    assert expected["A"] == "1.00 (2/2)" and expected["''"] == "0.00 (2/2)"


def test_charts_name_the_groups(systems, tmp_path):
    from ragnotebook.views import missed_claims
    from ragnotebook.views.plots import precision_at_k

    fig = missed_claims(systems, by="system", top=30)
    labels = list(fig.layout.yaxis.categoryarray)
    # B's answers are all unsupported: every B row has a bar, named by its group
    assert sum("· [B] ·" in x for x in labels) == 6
    assert not any("[A]" in x for x in labels)  # A is faithful, and recall is complete
    hover = [h for t in fig.data for h in t.hovertext]
    assert any(" · B<br>" in h or h.split("<br>")[0].endswith(" · B") for h in hover)
    with pytest.raises(ValueError, match=r"missed_claims\(\): by='nope' is not a column"):
        missed_claims(systems, by="nope")
    # the report draws precision@k per group and the bars with their groups
    page = report(systems, tmp_path / "r.html", by="system").read_text(encoding="utf-8")
    curves = precision_at_k(systems, by="system")
    names = {t.name for t in curves.data if t.name}
    groups = ("A", "B", "C &lt;b&gt;beta&lt;/b&gt;", "(missing)")  # escaped for plotly
    assert {f"{g}: mean precision@k" for g in groups} <= names
    assert "· [B] ·" in page


def test_a_misspelt_by_is_named_with_the_closest_column(systems):
    with pytest.raises(ValueError, match=r"by='sytem' is not a column; did you mean 'system'\?"):
        explore(systems, by="sytem")
    with pytest.raises(KeyError, match="did you mean 'system'"):
        ragnotebook.summary(systems, by="sytem")


def test_the_static_views_text_gives_each_groups_means(systems):
    text = repr(explore(systems, by="system"))
    assert "By system (mean, scored / rows):" in text
    line = next(x for x in text.splitlines() if x.strip().startswith("B "))
    assert "faithfulness 0.00 (6/6)" in line
