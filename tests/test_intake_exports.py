"""Contexts and column mappings as exports and round trips leave them.

A spreadsheet cuts a long cell, ``to_csv`` writes a tuple as its ``repr``, ``map(str)``
turns a missing cell into ``"nan"``, a column gets JSON-encoded twice, a mapping swaps two
roles, a filter leaves no row: each is read the way the frame before the export would
have been, or is named in a warning.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ragnotebook as rn
from ragnotebook.intake import (
    MISSING_TEXTS,
    ContextParseState,
    is_missing_contexts,
    normalize_contexts,
    read_rows,
    resolve_columns,
)

QUESTION = "What is the capital of France?"
ANSWER = "Paris is the capital of France."
LYON = "Lyon has a large old town and two rivers."

UNPARSED = (
    "look like a list of strings written as text but do not parse (a bracket or quote "
    "missing, perhaps cut off); each was kept as one chunk. Check those cells, or store "
    "contexts as lists of strings."
)
PARSED = (
    "were strings holding a list and were parsed into chunks. This usually means the frame "
    "was read back from CSV; store contexts as lists of strings (JSONL or Parquet keep "
    "them) to avoid the guesswork."
)
TEXTLESS = (
    "hold a list written as text with no text in it (numbers such as chunk ids or scores, "
    "or None); each was kept as one chunk. Check that this column holds the chunk texts "
    "(columns={'contexts': ...})."
)


def _ctx(value: object, state: ContextParseState | None = None, row: object = "r1") -> list[str]:
    return normalize_contexts(value, row=row, column="contexts", warn_state=state)


def _read(contexts: list[object], index: list[object] | None = None) -> tuple[list, list[str]]:
    """The rows read from a frame with these contexts cells, and every warning's text."""
    df = pd.DataFrame(
        {"question": [QUESTION] * len(contexts), "contexts": pd.Series(contexts, dtype=object)}
    )
    if index is not None:
        df.index = index
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows, _ = read_rows(df)
    return rows, [str(w.message) for w in caught]


def _frame(contexts: list[object], **extra: list[object]) -> pd.DataFrame:
    n = len(contexts)
    return pd.DataFrame(
        {
            "question": [QUESTION] * n,
            "answer": [ANSWER] * n,
            "contexts": pd.Series(contexts, dtype=object),
            "ground_truth": [ANSWER] * n,
            **extra,
        }
    )


def _scored(df: pd.DataFrame, **options: object) -> tuple[pd.DataFrame, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = df.rag.evaluate(model="offline", progress=False, **options)
    return out, [str(w.message) for w in caught]


# ------------------------------------------------------------------ (3) cut-off list texts


def test_a_list_text_cut_at_excels_cell_limit_gets_the_do_not_parse_warning() -> None:
    full = json.dumps(["Water is made of hydrogen and oxygen. " * 1000, "Ice is cold."])
    cut = full[:32767]  # Excel keeps 32,767 characters of a cell
    rows, said = _read([cut, json.dumps(["Water is H2O.", "Ice is cold."])], index=["x", "y"])
    assert [len(r.contexts) for r in rows] == [1, 2]
    assert rows[0].contexts == (cut,)  # kept whole, as one chunk, and named
    assert said == [
        f"the contexts of 1 row in column 'contexts' (first: row 'x') {UNPARSED}",
        f"the contexts of 1 row in column 'contexts' (first: row 'y') {PARSED}",
    ]


def test_every_list_text_left_open_is_counted_in_the_one_warning() -> None:
    cells = [
        '["a", ',  # cut between two items
        "['unterminated",  # cut inside the first item
        "  [ 'blanks before the quote', 'b",  # blanks after the bracket
        "['It's H2O', 'Ice is cold.']",  # closed, but a quote breaks it (warned before too)
        "['see' ... 'more'] and a sentence after it",  # bracketed text, then prose
        "[Editor's note] The museum is on Pier 4.",  # no quote after the bracket
        "A plain chunk.",
    ]
    rows, said = _read(cells, index=list("abcdefg"))
    assert [r.contexts for r in rows] == [(c,) for c in cells]
    assert said == [f"the contexts of 4 rows in column 'contexts' (first: row 'a') {UNPARSED}"]
    state = ContextParseState()
    for label, cell in zip("abcdefg", cells, strict=True):
        _ctx(cell, state, row=label)
    assert (state.unparsed_rows, state.first_unparsed, state.parsed_rows) == (4, "a", 0)


def test_a_bracket_inside_a_cut_off_item_does_not_close_the_list() -> None:
    # one item, cut: no separator, no closing bracket at the end; the bracket inside the
    # quotes (after an escaped quote) is text, so the list is still open
    cells = ['["see [1] and ] the rules', '["a \\"] b', "['it] is', 'x"]
    state = ContextParseState()
    assert [_ctx(c, state) for c in cells] == [[c] for c in cells]
    assert state.unparsed_rows == 3
    # a list closed before its end is bracketed text followed by prose: not counted
    quiet = ContextParseState()
    for text in ('["a \\" b"] and prose', "['[1]'] see the appendix"):
        assert _ctx(text, quiet) == [text]
    assert quiet.unparsed_rows == 0


def test_a_cut_off_list_without_a_state_warns_at_once() -> None:
    with pytest.warns(UserWarning) as caught:
        assert _ctx('["a", ') == ['["a", ']
    assert [str(w.message) for w in caught] == [
        f"the contexts of 1 row in column 'contexts' (first: row 'r1') {UNPARSED}"
    ]


def test_a_list_of_numbers_written_as_text_is_one_chunk_with_its_own_warning() -> None:
    # what to_csv writes for a column of chunk ids: in memory [17, 42] is an error
    cells = ["[1, 2, 3]", "[17, 42]", "[None]", "(3, 4)", "[1] See the appendix.", "[]"]
    rows, said = _read(cells, index=list("abcdef"))
    assert [r.contexts for r in rows] == [
        ("[1, 2, 3]",),
        ("[17, 42]",),
        ("[None]",),
        ("(3, 4)",),
        ("[1] See the appendix.",),
        (),
    ]
    assert said == [
        f"the contexts of 4 rows in column 'contexts' (first: row 'a') {TEXTLESS}",
        f"the contexts of 1 row in column 'contexts' (first: row 'f') {PARSED}",
    ]
    with pytest.raises(ValueError, match=r"chunk 0 is int, expected str"):
        _ctx([17, 42])


# ------------------------------------------------------------------ (4) tuple texts


def test_tuple_texts_are_parsed_like_list_texts() -> None:
    state = ContextParseState()
    assert _ctx("('a', 'b')", state, row="two") == ["a", "b"]
    assert _ctx("('a',)", state) == ["a"]
    assert _ctx(" ( \"It's on Pier 4.\" , 'b' ) ", state) == ["It's on Pier 4.", "b"]
    assert _ctx("()", state) == []
    assert (state.parsed_rows, state.first_row) == (4, "two")
    # parentheses around a text or a string are no tuple: one chunk, nothing counted
    quiet = ContextParseState()
    assert _ctx("('a')", quiet) == ["('a')"]
    assert _ctx("(see 2) for the rules", quiet) == ["(see 2) for the rules"]
    assert _ctx("(see the appendix)", quiet) == ["(see the appendix)"]
    assert _ctx("('a' 'b')", quiet) == ["('a' 'b')"]  # Python joins these into 'ab'
    assert (quiet.parsed_rows, quiet.unparsed_rows, quiet.textless_rows) == (0, 0, 0)


def test_tuple_texts_of_other_shapes_are_refused_as_their_list_texts_are() -> None:
    with pytest.raises(ValueError) as pairs:
        _ctx("(('It is on Pier 4.', 0.91), ('Tickets 12 EUR.', 0.5))")
    assert "chunk 0 of the list in this string is tuple, expected str" in str(pairs.value)
    assert "[d for d, _ in pairs]" in str(pairs.value)
    with pytest.raises(ValueError) as gap:
        _ctx("('a', nan)")
    assert str(gap.value).startswith(
        "row 'r1', column 'contexts': chunk 1 of the list in this string is float, expected "
        "str (a missing chunk"
    )
    with pytest.raises(ValueError) as docs:
        _ctx("(Document(page_content='It is on Pier 4.'),)")
    assert "printed form of a list of Document objects" in str(docs.value)


def test_tuple_contexts_score_the_same_after_a_csv_round_trip(tmp_path: Path) -> None:
    df = _frame([(LYON, ANSWER)])
    first, _ = _scored(df)
    assert first["context_precision"].tolist() == [0.5]
    path = tmp_path / "tuples.csv"
    first.to_csv(path, index=False)
    back = pd.read_csv(path)
    assert back.loc[0, "contexts"] == f"('{LYON}', '{ANSWER}')"
    again, said = _scored(back[["question", "answer", "contexts", "ground_truth"]])
    assert again["context_precision"].tolist() == [0.5]
    assert len(again.rag.chunks()) == 2
    assert said == [f"the contexts of 1 row in column 'contexts' (first: row 0) {PARSED}"]


# ------------------------------------------------------------------ (11) texts for missing


@pytest.mark.parametrize("text", ["nan", "NaN", "None", "null", "<NA>", " nan ", "None\n"])
def test_a_text_that_stands_for_a_missing_value_gives_no_chunks(text: str) -> None:
    state = ContextParseState()
    assert _ctx(text, state) == []
    assert (state.parsed_rows, state.unparsed_rows, state.textless_rows) == (0, 0, 0)
    assert is_missing_contexts(text)


def test_only_those_texts_stand_for_a_missing_value() -> None:
    assert sorted(MISSING_TEXTS) == ["<NA>", "NaN", "None", "nan", "null"]
    for text in ("none", "NULL", "NaN.", "nan nan", "", "N/A"):
        assert _ctx(text) == [text]
        assert not is_missing_contexts(text)
    assert [is_missing_contexts(v) for v in (None, np.nan, pd.NA, [], ())] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_str_contexts_are_scored_as_missing_with_the_missing_cells_warning() -> None:
    df = _frame([[ANSWER], None, np.nan, pd.NA, [ANSWER]])
    # what astype(str) gives in pandas 2 (pandas 3 keeps the missing values)
    text = df.assign(contexts=df["contexts"].map(str))
    assert text["contexts"].tolist()[1:4] == ["None", "nan", "<NA>"]
    out, said = _scored(text)
    assert out["context_recall_status"].tolist() == [
        "ok",
        "no_context",
        "no_context",
        "no_context",
        "ok",
    ]
    assert out["context_recall"].tolist() == [1.0, 0.0, 0.0, 0.0, 1.0]
    assert out["context_precision"].isna().tolist() == [False, True, True, True, False]
    missing = [s for s in said if "have no value" in s]
    assert missing == [
        "3 of 5 rows have no value in the 'contexts' column (the texts '<NA>', 'None' and "
        "'nan', which str() makes of missing values, not an empty list), e.g. row 1: "
        "they are scored with no chunks, status no_context (a measured 0 for "
        "'context_recall' and 'faithfulness'). If their retrieval was not logged rather than "
        "empty, leave them out (df[df[col].notna() & ~df[col].isin(['<NA>', 'None', "
        "'nan'])]); an empty list [] says the retriever returned nothing and is not warned "
        "about."
    ]
    # the remedy the warning gives leaves exactly the rows with chunks
    kept = text[text["contexts"].notna() & ~text["contexts"].isin(["<NA>", "None", "nan"])]
    assert kept.index.tolist() == [0, 4]


def test_a_text_and_a_real_missing_cell_are_named_together() -> None:
    out, said = _scored(_frame([[ANSWER], None, "nan"]))
    assert out["context_recall_status"].tolist() == ["ok", "no_context", "no_context"]
    missing = [s for s in said if "have no value" in s]
    assert missing == [
        "2 of 3 rows have no value in the 'contexts' column (None or NaN, or the text 'nan', "
        "which str() makes of a missing value, not an empty list), e.g. row 1: they "
        "are scored with no chunks, status no_context (a measured 0 for 'context_recall' and "
        "'faithfulness'). If their retrieval was not logged rather than empty, leave them "
        "out (df[df[col].notna() & ~df[col].isin(['nan'])]); an empty list [] says the "
        "retriever returned nothing and is not warned about."
    ]


def test_every_row_nan_text_is_the_no_chunk_warning() -> None:
    out, said = _scored(_frame(["nan", "None"]))
    assert out["context_recall_status"].tolist() == ["no_context", "no_context"]
    assert [s for s in said if "retrieved chunk" in s] == [
        "no row has a retrieved chunk in the 'contexts' column: every row is no_context (a "
        "measured 0 for 'context_recall' and 'faithfulness'). If your retriever did return "
        "chunks, check which column holds them (columns={'contexts': ...})."
    ]


# ------------------------------------------------------------------ (11) double encoding


def test_a_json_string_holding_a_list_text_is_parsed_one_level_down() -> None:
    chunks = [LYON, ANSWER]
    twice = json.dumps(json.dumps(chunks))
    assert twice.startswith('"[\\"Lyon')
    state = ContextParseState()
    assert _ctx(twice, state, row="twice") == chunks
    assert _ctx(json.dumps(str(chunks)), state) == chunks  # a Python list text, encoded once
    assert _ctx(json.dumps("('a', 'b')"), state) == ["a", "b"]
    assert (state.parsed_rows, state.first_row) == (3, "twice")
    # one level only, and a quoted text is still one chunk, quotes included
    quiet = ContextParseState()
    thrice = json.dumps(twice)
    assert _ctx(thrice, quiet) == [thrice]
    assert _ctx('"It is on Pier 4."', quiet) == ['"It is on Pier 4."']
    assert _ctx('"nan"', quiet) == ['"nan"']
    assert (quiet.parsed_rows, quiet.unparsed_rows, quiet.textless_rows) == (0, 0, 0)


def test_a_double_encoded_column_scores_as_the_lists_did() -> None:
    df = _frame([json.dumps(json.dumps([LYON, ANSWER]))])
    out, said = _scored(df)
    assert out["context_precision"].tolist() == [0.5]
    assert out.rag.chunks()["chunk"].tolist() == [LYON, ANSWER]
    assert said == [f"the contexts of 1 row in column 'contexts' (first: row 0) {PARSED}"]


# ------------------------------------------------------------------ (6) swapped mappings


def _hamlet() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question": ["Who wrote Hamlet?"],
            "answer": ["Hamlet was written by Marlowe."],
            "contexts": [["Hamlet is a tragedy by William Shakespeare."]],
            "ground_truth": ["William Shakespeare wrote Hamlet."],
        }
    )


def test_mapping_the_answer_to_the_ground_truth_column_names_the_unused_answer_column() -> None:
    out, said = _scored(_hamlet(), columns={"answer": "ground_truth"})
    assert said == [
        "the column 'answer' is left unused: columns= maps the role 'answer' to the column "
        "'ground_truth', the usual name of the ground truth, so that column's text is scored "
        "as the answer. If that is not meant, fix columns= (a role left out of it is found by "
        "its usual name).",
        "evaluate() left out 'context_recall': no column is left for the 'ground_truth' role: "
        "columns= maps the column 'ground_truth' to the role 'answer'. It scored "
        "'context_precision' and 'faithfulness'. To score the rest, name the column with "
        "columns={'ground_truth': '<column name>'}; metrics=[...] chooses the metrics (and "
        "makes a missing column an error).",
    ]
    assert out.attrs["ragnotebook"]["columns"]["answer"] == "ground_truth"
    # unmapped, the system's wrong answer is what faithfulness judges
    plain, _ = _scored(_hamlet())
    assert plain["faithfulness"].tolist() == [0.0]


def test_the_swapped_mapping_warning_comes_once_and_names_each_role() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resolve_columns(
            _hamlet(), {"answer": "ground_truth", "ground_truth": "answer"}, warn_near_misses=True
        )
    assert [str(w.message) for w in caught] == []  # swapped, but both columns are used
    df = _hamlet().assign(response=["Marlowe."])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_rows(df, {"answer": "ground_truth", "question": "response"})
    assert [str(w.message) for w in caught] == [
        "the column 'question' is left unused: columns= maps the role 'question' to the "
        "column 'response', the usual name of the answer, so that column's text is scored as "
        "the question; the column 'answer' is left unused: columns= maps the role 'answer' "
        "to the column 'ground_truth', the usual name of the ground truth, so that column's "
        "text is scored as the answer. If that is not meant, fix columns= (a role left out of "
        "it is found by its usual name)."
    ]


def test_mappings_that_leave_no_named_column_unused_are_not_warned() -> None:
    qa_set = pd.DataFrame(
        {"question": ["Where?"], "answer": ["Pier 4."], "contexts": [["It is on Pier 4."]]}
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # a QA set whose "answer" is the reference: no ground_truth column is left over
        read_rows(qa_set, {"ground_truth": "answer"})
        # a role mapped to a column of its own usual names, or to any other name
        read_rows(qa_set.rename(columns={"answer": "Response"}), {"answer": "Response"})
        read_rows(qa_set.assign(reply=["x"]), {"answer": "reply"})
        # a role the call does not read
        read_rows(_hamlet(), {"answer": "ground_truth"}, roles=["question", "contexts"])
    assert [str(w.message) for w in caught] == []
    # the check belongs to scoring; resolving columns alone says nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert resolve_columns(_hamlet(), {"answer": "ground_truth"})["answer"] == "ground_truth"


def test_two_unused_columns_are_both_named() -> None:
    df = _hamlet().assign(Response=["Marlowe."])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_rows(df, {"answer": "ground_truth"})
    assert [str(w.message) for w in caught] == [
        "the columns 'answer' and 'Response' are left unused: columns= maps the role 'answer' "
        "to the column 'ground_truth', the usual name of the ground truth, so that column's "
        "text is scored as the answer. If that is not meant, fix columns= (a role left out of "
        "it is found by its usual name)."
    ]


def test_a_column_in_two_roles_is_still_an_error() -> None:
    with pytest.raises(ValueError) as info:
        _hamlet().rag.evaluate(
            model="offline", columns={"answer": "ground_truth", "ground_truth": "ground_truth"}
        )
    assert str(info.value).startswith(
        "columns maps column 'ground_truth' to the 'answer' and 'ground_truth' roles"
    )


# ------------------------------------------------------------------ (12) frames with no rows


EMPTY = (
    "the frame has no rows, so nothing was scored: the result has the columns of {} and no "
    "rows (summary() shows 0/0). Check the filter or the file that built the frame."
)


def test_a_frame_with_no_rows_is_returned_with_one_warning() -> None:
    df = _frame([[ANSWER], [LYON]])
    out, said = _scored(df.iloc[:0])
    assert said == [EMPTY.format("'context_recall', 'context_precision' and 'faithfulness'")]
    assert out.shape == (0, 19)
    assert out.columns[:4].tolist() == ["question", "answer", "contexts", "ground_truth"]
    assert out["faithfulness"].dtype == "Float64"
    summary = out.rag.summary()
    assert summary["scored"].tolist() == ["0/0", "0/0", "0/0"]


def test_each_entry_point_warns_about_no_rows_once() -> None:
    empty = _frame([[ANSWER]]).iloc[:0]
    for call, metrics in (
        (lambda: rn.faithfulness(empty, model="offline", progress=False), "'faithfulness'"),
        (
            lambda: asyncio.run(
                rn.aevaluate(empty, model="offline", progress=False, metrics=["context_recall"])
            ),
            "'context_recall'",
        ),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = call()
        assert [str(w.message) for w in caught] == [EMPTY.format(metrics)]
        assert len(out) == 0


def test_a_frame_with_no_rows_and_a_missing_column_is_still_an_error() -> None:
    empty = pd.DataFrame({"question": [], "contexts": []})
    with pytest.raises(ValueError, match=r"no column found for the 'answer' role"):
        rn.faithfulness(empty, model="offline", progress=False)


def test_a_misspelt_column_name_is_named_as_the_role_it_looks_like():
    # "questoin" was ignored without a word, and the scores changed (a bare "No." needs
    # its question); "answr" and "contxts" gave an error that named no column
    import ragnotebook  # noqa: F401  (the accessor)

    df = pd.DataFrame(
        {
            "questoin": ["Is the pass open?"],
            "answer": ["No."],
            "contexts": [["The pass is closed in winter."]],
            "ground_truth": ["No, it is closed."],
        }
    )
    with pytest.warns(
        UserWarning, match=r"no 'question' column was found, but 'questoin' looks like one"
    ):
        df.rag.evaluate(model="offline", progress=False)
    for wrong, role in (("answr", "answer"), ("contxts", "contexts")):
        frame = df.rename(columns={"questoin": "question", role: wrong})
        with pytest.raises(
            ValueError,
            match=rf"'{wrong}' looks like it: rename a column or pass columns={{'{role}': '{wrong}'}}",
        ):
            frame.rag.evaluate(model="offline", progress=False, metrics=["faithfulness"])
