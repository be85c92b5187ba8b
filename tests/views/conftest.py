"""Fixtures for the view tests: a real scored sample and a frame full of hostile strings."""

import pandas as pd
import pytest

import ragnotebook

#: Strings that must show literally everywhere (never as markup, never executed).
HOSTILE = {
    "bold_br": "Use <b>only</b> the <br> tag; x<y & y>z",
    "link": '<a href="javascript:alert(1)">click</a>',
    "script": "<script>window.__xss=1;alert(1)</script>",
    "img": '<img src=x onerror="window.__xss=2;alert(2)">',
    "end_script": "</script><script>window.__xss=3;alert('x')</script>",
}


def hostile_frame() -> pd.DataFrame:
    """Two rows whose every text field carries a hostile string."""
    h = HOSTILE
    return pd.DataFrame(
        {
            "question": [h["bold_br"], h["link"]],
            "answer": [
                f"The museum is on Pier 4. {h['script']} It opened in 1998.",
                f"{h['img']} The gallery has a cafe.",
            ],
            "contexts": [
                [f"The museum is on Pier 4. {h['end_script']}", f"{h['link']} It opened in 1998."],
                [h["img"], f"The gallery sells tickets. {h['script']}"],
            ],
            "ground_truth": [f"The museum is on Pier 4. {h['bold_br']}", h["end_script"]],
            "retriever": [h["link"], "<i>plain</i>"],
        },
        index=["<i>r1</i>", "r&2"],
    )


@pytest.fixture(scope="session")
def scored() -> pd.DataFrame:
    """The 48-row quickstart sample scored with the offline judge."""
    return ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)


@pytest.fixture(scope="session")
def hostile() -> pd.DataFrame:
    """:func:`hostile_frame` scored with the offline judge."""
    return hostile_frame().rag.evaluate(model="offline", progress=False)


@pytest.fixture
def precision_frame() -> pd.DataFrame:
    """Three rows with scripted chunk verdicts, for exact precision@k checks."""
    judge = ragnotebook.MockJudge(
        judge_chunks=[["no", "yes", "yes"], ["yes", "no"], ["yes", "yes", "no", "yes"]]
    )
    df = pd.DataFrame(
        {
            "question": ["a", "b", "c"],
            "ground_truth": ["A.", "B.", "C."],
            "contexts": [["x", "y", "z"], ["u", "v"], ["p", "q", "r", "s"]],
            "group": ["one", "two", "one"],
        }
    )
    return df.rag.context_precision(model=judge, progress=False)


@pytest.fixture(scope="session")
def unanswered() -> pd.DataFrame:
    """Three rows: an answer, a refusal (a measured 0) and a missing answer (not scored)."""
    df = pd.DataFrame(
        {
            "question": ["Capital of France?", "Capital of Spain?", "Capital of Italy?"],
            "answer": ["Paris is the capital of France.", "I don't know.", None],
            "contexts": [
                ["Paris is the capital of France."],
                ["Madrid is the capital of Spain."],
                ["Rome is the capital of Italy."],
            ],
            "ground_truth": ["Paris", "Madrid", "Rome"],
        }
    )
    return df.rag.evaluate(model="offline", progress=False)


@pytest.fixture(scope="session")
def from_csv(scored, tmp_path_factory) -> pd.DataFrame:
    """The scored sample written to CSV and read back: its verdict cells are text."""
    path = tmp_path_factory.mktemp("csv") / "scored.csv"
    scored.to_csv(path)
    return pd.read_csv(path, index_col=0)
