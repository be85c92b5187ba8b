"""Tests for ragnotebook.intake: column detection and cell normalisation."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ragnotebook.intake import (
    ALIASES,
    ROLES,
    ContextParseState,
    RagRow,
    _look_alikes,
    normalize_contexts,
    normalize_text,
    read_rows,
    resolve_columns,
)

# --------------------------------------------------------------------------- columns


@pytest.mark.parametrize(
    ("role", "alias"),
    [(role, alias) for role, aliases in ALIASES.items() for alias in aliases],
)
def test_each_alias_is_detected(role: str, alias: str) -> None:
    df = pd.DataFrame({alias: ["x"], "unrelated": ["y"]})
    mapping = resolve_columns(df)
    assert mapping[role] == alias
    assert [r for r in ROLES if mapping[r] is not None] == [role]


def test_alias_detection_ignores_case() -> None:
    df = pd.DataFrame({"Question": ["q"], "RESPONSE": ["a"], "Retrieved_Contexts": [["c"]]})
    assert resolve_columns(df) == {
        "question": "Question",
        "answer": "RESPONSE",
        "contexts": "Retrieved_Contexts",
        "ground_truth": None,
    }


def test_mapping_has_all_roles_in_order() -> None:
    mapping = resolve_columns(pd.DataFrame({"x": [1]}))
    assert list(mapping) == ["question", "answer", "contexts", "ground_truth"]
    assert set(mapping.values()) == {None}


def test_explicit_mapping_wins_over_aliases() -> None:
    df = pd.DataFrame({"question": ["q"], "my_q": ["q2"], "gold": ["g"], "answer": ["a"]})
    mapping = resolve_columns(df, {"question": "my_q", "ground_truth": "gold"})
    assert mapping == {
        "question": "my_q",
        "answer": "answer",
        "contexts": None,
        "ground_truth": "gold",
    }


def test_explicitly_claimed_column_is_not_an_ambiguity() -> None:
    # "answer" actually holds the reference; "response" is the generated answer.
    df = pd.DataFrame({"answer": ["gold"], "response": ["generated"]})
    mapping = resolve_columns(df, {"ground_truth": "answer"})
    assert mapping["ground_truth"] == "answer"
    assert mapping["answer"] == "response"


def test_explicit_none_turns_detection_off() -> None:
    df = pd.DataFrame({"question": ["q"], "reference": ["an unrelated note"]})
    mapping = resolve_columns(df, {"ground_truth": None})
    assert mapping["ground_truth"] is None
    assert mapping["question"] == "question"
    with pytest.raises(ValueError, match="no column found for the 'ground_truth' role"):
        resolve_columns(df, {"ground_truth": None}, required=["ground_truth"])


def test_explicit_mapping_to_missing_column_names_it_and_lists_columns() -> None:
    df = pd.DataFrame({"question": ["q"], "reply": ["a"]})
    with pytest.raises(ValueError, match="'resp'") as info:
        resolve_columns(df, {"answer": "resp"})
    message = str(info.value)
    assert "'question'" in message and "'reply'" in message


def test_unknown_role_key_is_rejected() -> None:
    df = pd.DataFrame({"question": ["q"]})
    with pytest.raises(ValueError, match="unknown role 'retrieval'"):
        resolve_columns(df, {"retrieval": "question"})
    with pytest.raises(ValueError, match="unknown role 'contxts'"):
        resolve_columns(df, required=["contxts"])


def test_two_candidates_for_one_role_is_an_error_naming_both() -> None:
    df = pd.DataFrame({"answer": ["a"], "response": ["b"], "question": ["q"]})
    with pytest.raises(ValueError) as info:
        resolve_columns(df)
    message = str(info.value)
    assert "'answer'" in message and "'response'" in message
    assert "columns=" in message


def test_case_variants_of_one_alias_are_ambiguous_too() -> None:
    df = pd.DataFrame({"question": ["a"], "Question": ["b"]})
    with pytest.raises(ValueError, match="'question' and 'Question'"):
        resolve_columns(df)


def test_missing_required_role_names_role_aliases_and_columns() -> None:
    df = pd.DataFrame({"question": ["q"], "answer": ["a"], "docs": [["c"]]})
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["question", "contexts"])
    message = str(info.value)
    assert "'contexts' role" in message
    for alias in ALIASES["contexts"]:
        assert repr(alias) in message
    assert "'docs'" in message and "'question'" in message and "'answer'" in message


def test_duplicated_column_name_is_rejected() -> None:
    df = pd.DataFrame([["q", "a1", "a2"]], columns=["question", "answer", "answer"])
    with pytest.raises(ValueError, match=r"'answer'.*more than once"):
        resolve_columns(df)


def test_non_string_column_labels_are_ignored_by_detection() -> None:
    df = pd.DataFrame({0: ["x"], "query": ["q"]})
    assert resolve_columns(df)["question"] == "query"


# --------------------------------------------------------------------------- contexts


def _ctx(value: object, state: ContextParseState | None = None) -> list[str]:
    return normalize_contexts(value, row="r1", column="contexts", warn_state=state)


def test_contexts_list_tuple_and_array() -> None:
    expected = ["first chunk", "second chunk"]
    assert _ctx(["first chunk", "second chunk"]) == expected
    assert _ctx(("first chunk", "second chunk")) == expected
    array = np.array(["first chunk", "second chunk"], dtype=object)
    assert _ctx(array) == expected
    unicode_array = np.array(["first chunk", "second chunk"])  # dtype '<U12', numpy.str_ items
    result = _ctx(unicode_array)
    assert result == expected
    assert all(type(chunk) is str for chunk in result)


def test_contexts_json_string_is_parsed_and_counted() -> None:
    state = ContextParseState()
    assert _ctx('["The pass is closed.", "Chains are required."]', state) == [
        "The pass is closed.",
        "Chains are required.",
    ]
    assert state.parsed_rows == 1
    assert state.first_row == "r1"


def test_contexts_python_literal_string_is_parsed() -> None:
    state = ContextParseState()
    text = "['It\\'s closed in winter.', \"Snow chains are required.\"]"
    assert _ctx(text, state) == ["It's closed in winter.", "Snow chains are required."]
    assert state.parsed_rows == 1


def test_contexts_empty_list_string_is_parsed_to_empty() -> None:
    state = ContextParseState()
    assert _ctx("[]", state) == []
    assert state.parsed_rows == 1


def test_contexts_plain_string_is_one_chunk_not_characters() -> None:
    state = ContextParseState()
    assert _ctx("The pass is closed in winter.", state) == ["The pass is closed in winter."]
    assert _ctx("[1] See the appendix.", state) == ["[1] See the appendix."]
    assert _ctx("[not, a list]", state) == ["[not, a list]"]
    # A list literal that is not a list of strings is kept as text, not split.
    assert _ctx("[1, 2, 3]", state) == ["[1, 2, 3]"]
    assert state.parsed_rows == 0


def test_contexts_missing_values_give_empty_list() -> None:
    assert _ctx(None) == []
    assert _ctx(float("nan")) == []
    assert _ctx(np.float64("nan")) == []
    assert _ctx(pd.NA) == []
    assert _ctx([]) == []
    assert _ctx(np.array([], dtype=object)) == []


def test_contexts_blank_chunks_are_kept() -> None:
    assert _ctx(["", "  ", "text"]) == ["", "  ", "text"]
    assert _ctx("") == [""]


def test_contexts_string_without_state_warns_immediately() -> None:
    with pytest.warns(UserWarning, match="contexts of 1 row"):
        assert _ctx('["a"]') == ["a"]


@pytest.mark.parametrize(
    ("value", "type_name"),
    [
        (["ok", "fine", 3], "int"),
        (["ok", "fine", {"text": "x"}], "dict"),
        (["ok", "ok", None], "None"),
    ],
)
def test_contexts_non_string_item_names_row_column_and_chunk(value: list, type_name: str) -> None:
    with pytest.raises(ValueError) as info:
        normalize_contexts(value, row="q7", column="retrieved_contexts", warn_state=None)
    message = str(info.value)
    assert message.startswith("row 'q7', column 'retrieved_contexts': ")
    assert f"chunk 2 is {type_name}, expected str" in message


def test_contexts_other_types_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"row 'r1', column 'contexts'.*got dict"):
        _ctx({"a": "b"})
    with pytest.raises(ValueError, match="got int"):
        _ctx(5)
    with pytest.raises(ValueError, match="2-D"):
        _ctx(np.array([["a", "b"]]))


# --------------------------------------------------------------------------- text


def test_normalize_text_rules() -> None:
    assert normalize_text("as is  ", row=0, column="question") == "as is  "
    assert normalize_text("", row=0, column="question") == ""
    assert normalize_text(None, row=0, column="question") is None
    assert normalize_text(float("nan"), row=0, column="question") is None
    assert normalize_text(pd.NA, row=0, column="question") is None
    assert normalize_text(12, row=0, column="answer") == "12"
    assert normalize_text(2.5, row=0, column="answer") == "2.5"
    assert normalize_text(np.int64(7), row=0, column="answer") == "7"
    assert normalize_text(np.float64(0.25), row=0, column="answer") == "0.25"
    assert type(normalize_text(np.str_("np"), row=0, column="answer")) is str


@pytest.mark.parametrize("value", [True, np.bool_(False), ["a"], {"a": 1}, b"bytes"])
def test_normalize_text_rejects_other_types(value: object) -> None:
    with pytest.raises(ValueError, match="row 'q2', column 'answer': expected a string"):
        normalize_text(value, row="q2", column="answer")


# --------------------------------------------------------------------------- read_rows


def test_read_rows_requires_a_dataframe() -> None:
    with pytest.raises(TypeError, match="DataFrame"):
        read_rows([{"question": "q"}])  # type: ignore[arg-type]


def test_read_rows_builds_rows_in_order() -> None:
    df = pd.DataFrame(
        {
            "user_input": ["Is the pass open?", float("nan")],
            "response": ["No.", 42],
            "retrieved_contexts": [["The pass is closed in winter."], None],
            "reference": ["No, it is closed.", None],
        },
        index=["a", "b"],
    )
    rows, mapping = read_rows(df, required=["answer"])
    assert mapping == {
        "question": "user_input",
        "answer": "response",
        "contexts": "retrieved_contexts",
        "ground_truth": "reference",
    }
    assert rows == [
        RagRow(
            "a",
            0,
            "Is the pass open?",
            "No.",
            ("The pass is closed in winter.",),
            "No, it is closed.",
        ),
        RagRow("b", 1, None, "42", (), None),
    ]


def test_read_rows_absent_roles_are_none_and_empty() -> None:
    rows, mapping = read_rows(pd.DataFrame({"answer": ["only an answer"]}))
    assert mapping["contexts"] is None and mapping["question"] is None
    assert rows == [RagRow(0, 0, None, "only an answer", (), None)]


def test_read_rows_keeps_duplicate_labels_in_order() -> None:
    df = pd.DataFrame(
        {"question": ["seven", "three-a", "three-b"], "contexts": [["c7"], ["c3a"], ["c3b"]]},
        index=["q7", "q3", "q3"],
    )
    rows, _ = read_rows(df)
    assert [(r.label, r.position, r.question, r.contexts) for r in rows] == [
        ("q7", 0, "seven", ("c7",)),
        ("q3", 1, "three-a", ("c3a",)),
        ("q3", 2, "three-b", ("c3b",)),
    ]


def test_read_rows_error_names_label_and_column() -> None:
    df = pd.DataFrame(
        {"question": ["a", "b"], "retrieval_context": [["fine"], ["fine", "also", 3]]},
        index=["q1", "q7"],
    )
    with pytest.raises(ValueError) as info:
        read_rows(df)
    message = str(info.value)
    assert "row 'q7', column 'retrieval_context': chunk 2 is int, expected str" in message
    assert "row position 1" in message


def test_read_rows_error_names_every_bad_row_up_to_five() -> None:
    # only the first bad row was named: a user fixed it and met the next one
    bad = [["x", 1], ["ok"], ["y", None]] + [["z", 2.0]] * 5
    df = pd.DataFrame({"question": ["q"] * 8, "contexts": bad}, index=list("abcdefgh"))
    with pytest.raises(ValueError) as info:
        read_rows(df)
    first, rest = str(info.value).split("\n")
    assert first == "row 'a', column 'contexts': chunk 1 is int, expected str (row position 0)"
    assert rest.startswith("6 more rows have bad cells: row 'c', column 'contexts': chunk 1 is")
    assert [f"row '{k}'" in rest for k in "cdefgh"] == [True] * 4 + [False] * 2
    assert rest.endswith("; ... and 2 more")
    # one bad row: the message is that row's alone
    with pytest.raises(ValueError) as info:
        read_rows(df.iloc[:2])
    assert "\n" not in str(info.value)


def test_read_rows_bad_text_cell_names_label_and_column() -> None:
    df = pd.DataFrame({"question": ["ok", ["not", "text"]]}, index=["q1", "q9"])
    with pytest.raises(ValueError, match="row 'q9', column 'question'"):
        read_rows(df)


def test_read_rows_explicit_columns() -> None:
    df = pd.DataFrame({"prompt": ["Q?"], "gen": ["A."], "docs": [["D."]], "gold": ["G."]})
    rows, mapping = read_rows(
        df, {"question": "prompt", "answer": "gen", "contexts": "docs", "ground_truth": "gold"}
    )
    assert rows == [RagRow(0, 0, "Q?", "A.", ("D.",), "G.")]
    assert mapping["contexts"] == "docs"


def test_read_rows_from_csv_parses_list_strings_with_one_warning(tmp_path) -> None:
    original = pd.DataFrame(
        {
            "question": ["Can I drive over the pass?", "Is it open?", "Anything else?"],
            "answer": ["Not in winter.", "No.", "No."],
            "retrieved_contexts": [
                ["The pass is closed in winter.", "Snow chains are required."],
                ["The pass is closed in winter."],
                [],
            ],
        }
    )
    path = tmp_path / "rag.csv"
    original.to_csv(path, index=False)
    df = pd.read_csv(path)
    assert df.loc[0, "retrieved_contexts"] == (
        "['The pass is closed in winter.', 'Snow chains are required.']"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows, _ = read_rows(df)
    assert [r.contexts for r in rows] == [
        ("The pass is closed in winter.", "Snow chains are required."),
        ("The pass is closed in winter.",),
        (),
    ]
    user_warnings = [w for w in caught if issubclass(w.category, UserWarning)]
    assert len(user_warnings) == 1
    text = str(user_warnings[0].message)
    assert "contexts of 3 rows" in text and "'retrieved_contexts'" in text


def test_read_rows_from_csv_of_numpy_arrays_keeps_chunks_apart(tmp_path) -> None:
    # to_csv writes an array cell in NumPy's print form, without commas: ['a' 'b'].
    # Python would join adjacent literals into one string; each item must stay a chunk.
    original = pd.DataFrame(
        {
            "question": ["Can I drive over the pass?", "Long list?"],
            "retrieved_contexts": [
                np.array(["The pass is closed in winter.", "Snow chains are required."]),
                np.array([f"Chunk number {i} of a long list." for i in range(6)], dtype=object),
            ],
        }
    )
    path = tmp_path / "arrays.csv"
    original.to_csv(path, index=False)
    df = pd.read_csv(path)
    assert "', '" not in df.loc[0, "retrieved_contexts"]  # really the comma-less form
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows, _ = read_rows(df)
    assert rows[0].contexts == ("The pass is closed in winter.", "Snow chains are required.")
    assert rows[1].contexts == tuple(f"Chunk number {i} of a long list." for i in range(6))
    assert len([w for w in caught if issubclass(w.category, UserWarning)]) == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("['The pass is closed.', None]", "chunk 1 of the list in this string is None"),
        ('["The pass is closed.", 3]', "chunk 1 of the list in this string is int"),
        ("['The pass is closed.' None]", "chunk 1 of the list in this string is None"),
    ],
)
def test_list_string_with_a_non_string_item_names_row_and_column(text: str, message: str) -> None:
    df = pd.DataFrame({"question": ["q", "q"], "contexts": ['["fine"]', text]}, index=["r1", "r2"])
    with pytest.raises(ValueError) as info:
        read_rows(df)
    assert str(info.value).startswith("row 'r2', column 'contexts': " + message)


def test_error_position_is_not_repeated_for_a_positional_label() -> None:
    df = pd.DataFrame({"contexts": [["ok"], [1, "x"]]})
    with pytest.raises(ValueError) as info:
        read_rows(df)
    assert str(info.value) == "row 1, column 'contexts': chunk 0 is int, expected str"


def test_read_rows_without_list_strings_does_not_warn() -> None:
    df = pd.DataFrame({"contexts": [["a"], "one plain chunk"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows, _ = read_rows(df)
    assert caught == []
    assert rows[1].contexts == ("one plain chunk",)


def test_read_rows_handles_string_and_nullable_dtypes() -> None:
    df = pd.DataFrame(
        {
            "question": pd.array(["q", None], dtype="string"),
            "answer": pd.array([1, None], dtype="Int64"),
        }
    )
    rows, _ = read_rows(df)
    assert [(r.question, r.answer) for r in rows] == [("q", "1"), (None, None)]


def test_read_rows_empty_frame() -> None:
    rows, mapping = read_rows(pd.DataFrame({"question": [], "contexts": []}))
    assert rows == []
    assert mapping["question"] == "question"


def test_read_rows_is_fast_for_ten_thousand_rows() -> None:
    n = 10_000
    df = pd.DataFrame(
        {
            "question": [f"question {i}" for i in range(n)],
            "answer": [f"answer {i}" for i in range(n)],
            "contexts": [[f"chunk {i}a", f"chunk {i}b"] for i in range(n)],
            "ground_truth": [f"truth {i}" for i in range(n)],
        }
    )
    rows, _ = read_rows(df)  # its speed is part of benchmarks/offline_speed.py
    assert len(rows) == n
    assert rows[-1] == RagRow(
        n - 1, n - 1, "question 9999", "answer 9999", ("chunk 9999a", "chunk 9999b"), "truth 9999"
    )


def test_a_numpy_array_shortened_with_dots_in_a_csv_is_an_error_not_one_chunk(tmp_path) -> None:
    # NumPy prints arrays of more than 1,000 items as "['a' 'b' 'c' ... 'x' 'y' 'z']"
    many = np.array([f"chunk {i}" for i in range(1200)], dtype=object)
    path = tmp_path / "long.csv"
    pd.DataFrame({"question": ["q"], "contexts": [many]}).to_csv(path, index=False)
    df = pd.read_csv(path)
    with pytest.raises(ValueError) as info:
        read_rows(df)
    assert str(info.value).startswith("row 0, column 'contexts': this string is a NumPy array")
    # an ordinary sentence with dots between quotes stays text
    assert _ctx("['see' ... 'more'] is a plain sentence") == [
        "['see' ... 'more'] is a plain sentence"
    ]


# --------------------------------------------------------------------------- found by a fresh user


def test_column_names_match_aliases_ignoring_outer_blanks_spaces_and_dashes() -> None:
    df = pd.DataFrame({"Question ": ["q"], "Ground Truth": ["g"], "retrieved-contexts": [["c"]]})
    assert resolve_columns(df) == {
        "question": "Question ",
        "answer": None,
        "contexts": "retrieved-contexts",
        "ground_truth": "Ground Truth",
    }
    # two spellings of one alias are still an ambiguity naming both
    with pytest.raises(ValueError, match=r"'question' and 'Question '"):
        resolve_columns(pd.DataFrame({"question": ["a"], "Question ": ["b"]}))


def test_a_column_that_looks_like_a_role_is_named_in_one_warning() -> None:
    df = pd.DataFrame(
        {"user_question": ["q"], "answer": ["a"], "contexts": [["c"]], "gold answer": ["g"]}
    )
    with pytest.warns(UserWarning) as caught:
        _, mapping = read_rows(df)
    assert mapping["question"] is None and mapping["ground_truth"] is None
    assert len(caught) == 1
    text = str(caught[0].message)
    assert "no 'question' column was found, but 'user_question' looks like one" in text
    assert "columns={'question': 'user_question'}" in text
    assert "no 'ground_truth' column was found, but 'gold answer' looks like one" in text
    # mapped explicitly (to a column or to None): no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_rows(df, {"question": "user_question", "ground_truth": None})
    # the summary's own lookup of the answer column never warns
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resolve_columns(df, roles=("answer",))


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("answer_gt", "ground_truth"),
        ("gt", "ground_truth"),
        ("Ref", "ground_truth"),
        ("q", "question"),
        ("ctx", "contexts"),
        ("docs", "contexts"),
        ("pred", "answer"),
    ],
)
def test_short_names_suggest_a_role_only_as_whole_words(name, role) -> None:
    assert _look_alikes(pd.DataFrame({name: ["x"]}), role, set()) == [name]
    # inside another word they suggest nothing ("length" holds "gt", "quote" holds "q")
    assert _look_alikes(pd.DataFrame({"length": [1], "quote": [1]}), role, set()) == []


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("reference_id", [17, 18]),  # an identifier
        ("truth_score", [0.9, 0.4]),  # a score
        ("gold_labels", [[1, 0], [0, 1]]),  # labels, not text
        ("expected_chunks", [[3, 4], [1]]),
        ("gold", [True, False]),
        ("reference_url", ["https://a.example/1", "https://a.example/2"]),
    ],
)
def test_a_column_whose_cells_are_no_ground_truth_is_not_proposed(name, values) -> None:
    df = pd.DataFrame({"question": ["q1?", "q2?"], name: values})
    assert _look_alikes(df, "ground_truth", set()) == []


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("gold answer", ["Paris.", "1879"]),
        ("expected", [1879, 1955]),  # whole numbers can be answers read from a CSV
        ("answer_gt", [None, "Oslo."]),
    ],
)
def test_a_text_column_named_like_the_ground_truth_is_still_proposed(name, values) -> None:
    df = pd.DataFrame({"question": ["q1?", "q2?"], name: values})
    assert _look_alikes(df, "ground_truth", set()) == [name]


def test_a_logs_frame_with_an_id_column_is_scored_without_recall() -> None:
    df = pd.DataFrame(
        {
            "user_input": ["When was Einstein born?"],
            "response": ["In 1879."],
            "retrieved_contexts": [["Einstein was born in 1879."]],
            "reference_id": [17],
        }
    )
    with pytest.warns(UserWarning, match="left out 'context_recall'"):
        out = df.rag.evaluate(model="offline", progress=False)
    assert "context_recall" not in out.columns
    assert out["faithfulness"].iloc[0] == 1.0


def test_a_role_column_taken_by_another_mapping_is_named_in_the_error() -> None:
    df = pd.DataFrame({"question": ["q"], "ground_truth": ["g"], "contexts": [["c"]]})
    with pytest.raises(ValueError) as info:
        resolve_columns(df, {"answer": "ground_truth"}, required=["ground_truth"])
    assert "column 'ground_truth' is mapped to the 'answer' role" in str(info.value)


def test_document_dicts_in_a_list_or_in_a_list_string_are_an_error_with_a_recipe() -> None:
    docs = [{"page_content": "The museum is on Pier 4.", "metadata": {}}]
    with pytest.raises(ValueError) as real:
        _ctx(docs)
    assert str(real.value).startswith("row 'r1', column 'contexts': chunk 0 is dict, expected str")
    assert "[d['page_content'] for d in docs]" in str(real.value)
    text = str([*docs, {"page_content": "Tickets cost 12 euros.", "metadata": {}}])
    assert text.startswith("[{'page_content'")  # what to_csv writes for that cell
    with pytest.raises(ValueError) as written:
        _ctx(text)
    assert "chunk 0 of the list in this string is dict, expected str" in str(written.value)
    assert "[d['page_content'] for d in docs]" in str(written.value)
    # a bracketed text with no string or dict item is still one chunk, with a warning
    with pytest.warns(UserWarning, match="hold a list written as text with no text in it"):
        assert _ctx("[1]") == ["[1]"]


def test_a_list_string_that_does_not_parse_is_one_chunk_with_one_warning() -> None:
    df = pd.DataFrame(
        {
            "question": ["q1", "q2", "q3"],
            "contexts": ["['Rome is in Italy.', 'b'", '["cut off', "['see' ... 'more'] a sentence"],
        },
        index=["a", "b", "c"],
    )
    with pytest.warns(UserWarning) as caught:
        rows, _ = read_rows(df)
    assert [r.contexts for r in rows] == [(c,) for c in df["contexts"]]
    assert len(caught) == 1
    assert "the contexts of 2 rows in column 'contexts' (first: row 'a') look like a list" in str(
        caught[0].message
    )


def test_a_ground_truth_list_is_an_error_before_and_after_csv(tmp_path) -> None:
    df = pd.DataFrame(
        {
            "question": ["Where is it?"],
            "contexts": [["The museum is on Pier 4."]],
            "ground_truth": [["The museum is on Pier 4.", "Pier 4"]],
        },
        index=["q1"],
    )
    with pytest.raises(ValueError) as real:
        read_rows(df)
    assert str(real.value).startswith(
        "row 'q1', column 'ground_truth': expected a string, got list; one text per cell"
    )
    path = tmp_path / "gt.csv"
    df.to_csv(path)
    back = pd.read_csv(path, index_col=0)
    with pytest.raises(ValueError) as written:
        read_rows(back)
    assert str(written.value).startswith(
        "row 'q1', column 'ground_truth': this string holds a list of 2 strings written as text"
    )
    # prose that merely starts with a bracket stays a ground truth
    ok = back.assign(ground_truth=["[Editor's note] The museum is on Pier 4."])
    with pytest.warns(UserWarning, match="parsed into chunks"):
        rows, _ = read_rows(ok)
    assert rows[0].ground_truth == "[Editor's note] The museum is on Pier 4."


def test_one_document_dict_written_as_text_is_refused_too() -> None:
    # one dict has no comma between items: it was read as NumPy's comma-less form, failed,
    # and the whole text became one chunk (scored 1.0 against its own words)
    for text in ("[{'page_content': 'The museum sits on Pier 4.'}]", '[{"text": "Pier 4."}]'):
        with pytest.raises(ValueError, match="chunk 0 of the list in this string is dict"):
            _ctx(text)
    assert _ctx("['a' 'b']", ContextParseState()) == ["a", "b"]  # NumPy's form still reads


def test_document_objects_get_the_attribute_recipe() -> None:
    class Document:  # the shape of a LangChain Document
        def __init__(self, page_content: str) -> None:
            self.page_content = page_content

    with pytest.raises(ValueError) as info:
        _ctx([Document("The museum sits on Pier 4.")])
    assert "chunk 0 is Document, expected str" in str(info.value)
    assert "[d.page_content for d in docs]" in str(info.value)


def test_a_required_role_error_names_the_look_alike_column() -> None:
    df = pd.DataFrame(
        {
            "question": ["Where?"],
            "answer": ["Pier 4."],
            "contexts": [["Pier 4."]],
            "gold answer": ["Pier 4."],
        }
    )
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["ground_truth"])
    assert (
        "'gold answer' looks like it: rename a column or pass columns={'ground_truth': 'gold answer'}"
        in str(info.value)
    )


def test_columns_of_several_levels_are_named_as_tuples_and_can_be_mapped() -> None:
    flat = pd.DataFrame(
        {
            "question": ["When did it open?"],
            "answer": ["It opened in 1998."],
            "contexts": [["The museum opened in 1998."]],
        }
    )
    df = flat.copy()
    df.columns = pd.MultiIndex.from_tuples([("system_a", c) for c in flat.columns])
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["answer"])
    assert "pass columns={'answer': ('system_a', 'answer')}" in str(info.value)
    mapping = {role: ("system_a", role) for role in flat.columns}
    out = df.rag.faithfulness(model="offline", columns=mapping, progress=False)
    assert out[("faithfulness", "")].tolist() == [1.0]
    assert out[("faithfulness_status", "")].tolist() == ["ok"]


def test_numeric_answers_read_back_from_csv_keep_their_written_form(tmp_path) -> None:
    path = tmp_path / "rows.csv"
    pd.DataFrame(
        {
            "question": ["How many?", "How tall, in metres?", "How many?"],
            "answer": [42, 2.5, None],  # the gap makes pandas read the column as floats
            "contexts": ["['There are 42.']", "['It is 2.5 metres tall.']", "['None.']"],
        }
    ).to_csv(path, index=False)
    back = pd.read_csv(path)
    assert back["answer"].tolist()[:2] == [42.0, 2.5]
    with pytest.warns(UserWarning, match="strings holding a list"):
        rows, _ = read_rows(back, required=["answer"])
    assert [r.answer for r in rows] == ["42", "2.5", None]


def test_a_missing_chunk_inside_a_list_says_how_to_drop_or_keep_it() -> None:
    df = pd.DataFrame({"answer": ["a."], "contexts": [["text", None]]})
    with pytest.raises(ValueError, match=r"row 0, column 'contexts': chunk 1 is None") as err:
        df.rag.faithfulness(model="offline", progress=False)
    assert "a missing chunk; drop them with" in str(err.value)
    assert "write '' to keep the other chunks' positions" in str(err.value)


def test_a_duplicated_answer_column_is_named_before_a_missing_ground_truth() -> None:
    df = pd.DataFrame(
        [["q?", "a.", "b.", ["c."]]], columns=["question", "answer", "answer", "contexts"]
    )
    with pytest.raises(ValueError, match=r"column 'answer' .*appears more than once"):
        df.rag.evaluate(model="offline", progress=False)
    # also when the metrics asked for need the missing role (it was named first then)
    with pytest.raises(ValueError, match=r"column 'answer' .*appears more than once"):
        df.rag.evaluate(metrics=["context_recall", "faithfulness"], model="offline", progress=False)
    # recall alone does not read the answer: its missing ground truth is the error
    with pytest.raises(ValueError, match=r"no column found for the 'ground_truth' role"):
        df.rag.evaluate(metrics=["context_recall"], model="offline", progress=False)


# ------------------------------------------------- retriever objects from real RAG stacks


class _Doc:  # the shape of a LangChain Document
    def __init__(self, page_content: str, metadata: dict | None = None) -> None:
        self.page_content = page_content
        self.metadata = metadata or {}

    def __repr__(self) -> str:
        return f"Document(metadata={self.metadata!r}, page_content={self.page_content!r})"


class _TextNode:  # LlamaIndex's node: the text is .text
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"TextNode(text={self.text!r})"


class _NodeWithScore:  # LlamaIndex's retriever result: the node and its score
    def __init__(self, text: str, score: float) -> None:
        self.node = _TextNode(text)
        self.score = score

    def __repr__(self) -> str:
        return f"NodeWithScore(node={self.node!r}, score={self.score!r})"


def test_printed_retriever_objects_in_a_csv_cell_are_refused_with_the_right_recipe(
    tmp_path,
) -> None:
    # to_csv writes an object's repr; read back, it is one string that used to be scored
    # as a single chunk (metadata and all), so precision came out 1.0 instead of 0.5
    docs = [_Doc("Opening hours are 9 to 5.", {"source": "a.pdf"}), _Doc("It is on Pier 4.")]
    nodes = [_NodeWithScore("It is on Pier 4.", 0.8)]
    pairs = [(_Doc("It is on Pier 4."), 0.83)]
    df = pd.DataFrame(
        {"question": ["q"] * 3, "contexts": [docs, nodes, pairs]}, index=["lc", "li", "pairs"]
    )
    path = tmp_path / "objects.csv"
    df.to_csv(path)
    back = pd.read_csv(path, index_col=0)
    assert back.loc["lc", "contexts"].startswith("[Document(metadata=")
    expected = {
        "lc": "a list of Document objects",
        "li": "a list of NodeWithScore objects",
        "pairs": "a list of Document objects",
    }
    recipe = {"lc": "d.page_content", "li": "d.node.text", "pairs": "d.page_content"}
    for label, cell in back["contexts"].items():
        with pytest.raises(ValueError) as info:
            normalize_contexts(cell, row=label, column="contexts")
        message = str(info.value)
        assert message.startswith(f"row {label!r}, column 'contexts': this string is the printed")
        assert expected[label] in message
        assert f"[{recipe[label]} for d in docs]" in message
        assert "Parquet / JSON Lines" in message
    # the whole frame: one error that names every bad row, nothing scored silently
    with pytest.raises(ValueError, match="2 more rows have bad cells"):
        read_rows(back)


def test_text_score_pairs_and_nan_items_written_to_csv_are_refused(tmp_path) -> None:
    df = pd.DataFrame(
        {
            "question": ["q", "q"],
            "contexts": [
                [("It is on Pier 4.", 0.91), ("Tickets 12 EUR.", 0.5)],
                ["a", "b", np.nan],
            ],
        },
        index=["pairs", "gap"],
    )
    path = tmp_path / "pairs.csv"
    df.to_csv(path)
    back = pd.read_csv(path, index_col=0)
    assert back.loc["gap", "contexts"] == "['a', 'b', nan]"
    with pytest.raises(ValueError) as pairs:
        normalize_contexts(back.loc["pairs", "contexts"], row="pairs", column="contexts")
    assert "chunk 0 of the list in this string is tuple, expected str" in str(pairs.value)
    assert "a pair of a chunk and its score; before saving the file" in str(pairs.value)
    assert "[d for d, _ in pairs]" in str(pairs.value)
    with pytest.raises(ValueError) as nan:
        normalize_contexts(back.loc["gap", "contexts"], row="gap", column="contexts")
    assert "chunk 2 of the list in this string is float, expected str (a missing chunk" in str(
        nan.value
    )
    # lists of numbers or bracketed prose are still one chunk (numbers with a warning)
    with pytest.warns(UserWarning, match="hold a list written as text with no text in it"):
        assert _ctx("[1, 2]") == ["[1, 2]"]
    assert _ctx("[see 2] for the rules") == ["[see 2] for the rules"]


def test_in_memory_retriever_results_get_recipes_for_their_shape() -> None:
    with pytest.raises(ValueError) as node:
        _ctx([_NodeWithScore("It is on Pier 4.", 0.8)])
    assert "chunk 0 is _NodeWithScore, expected str" in str(node.value)
    assert "[d.node.text for d in docs]" in str(node.value)
    with pytest.raises(ValueError) as node_dict:
        _ctx([{"node": {"text": "It is on Pier 4.", "id_": "1"}, "score": 0.7}])
    assert "[d['node']['text'] for d in docs]" in str(node_dict.value)
    with pytest.raises(ValueError) as pair:
        _ctx([(_Doc("It is on Pier 4."), 0.83)])
    assert "a pair of a chunk and its score; take the text" in str(pair.value)
    assert "[d.page_content for d, _ in pairs]" in str(pair.value)


def test_a_message_object_as_an_answer_gets_the_content_recipe() -> None:
    class AIMessage:  # LangChain's chat message: .content, and .text too
        content = "It is on Pier 4."
        text = "It is on Pier 4."

    with pytest.raises(ValueError) as info:
        normalize_text(AIMessage(), row="q1", column="answer")
    assert str(info.value) == (
        "row 'q1', column 'answer': expected a string, got AIMessage; take its text first, "
        "e.g. df[col] = df[col].map(lambda d: d.content)"
    )


def test_ambiguity_suggests_the_column_that_holds_text() -> None:
    df = pd.DataFrame(
        {"question": ["q"], "contexts": [[17, 42]], "retrieved_contexts": [["It is on Pier 4."]]}
    )
    with pytest.raises(ValueError) as info:
        resolve_columns(df)
    assert str(info.value) == (
        "columns 'contexts' and 'retrieved_contexts' could both be the 'contexts' column; pick "
        "one with columns={'contexts': 'retrieved_contexts'} ('contexts' holds no text)"
    )


def test_a_plural_list_column_of_ground_truths_gets_the_join_recipe() -> None:
    df = pd.DataFrame(
        {
            "question": ["Where?"],
            "answer": ["Pier 4."],
            "contexts": [["The museum is on Pier 4."]],
            "ground_truths": [["The museum is on Pier 4.", "It opened in 1998."]],
        }
    )
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["ground_truth"])
    assert (
        "'ground_truths' holds lists of texts (ragas' older plural form): join them first, e.g. "
        "df['ground_truth'] = df['ground_truths'].map(' '.join)"
    ) in str(info.value)


def test_a_reference_column_is_never_offered_as_the_answer() -> None:
    # a fresh user's frame: the bot's answer in "bot_reply", the reference in "gold answer";
    # the error offered 'gold answer' for the answer too, and following it scored the
    # reference against the chunks
    df = pd.DataFrame(
        {
            "user_question": ["How often?"],
            "bot_reply": ["Take 2 tablets every hour."],
            "docs": [["Take 1 tablet every 4 to 6 hours."]],
            "gold answer": ["Take 1 tablet every 4 to 6 hours."],
        }
    )
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["answer", "ground_truth"])
    text = str(info.value)
    assert (
        "'bot_reply' looks like it: rename a column or pass columns={'answer': 'bot_reply'}" in text
    )
    assert "columns={'ground_truth': 'gold answer'}" in text
    assert "columns={'answer': 'gold answer'}" not in text
    for name in ("reference_answer", "answer_gt", "expected_response", "Gold Answer"):
        lone = pd.DataFrame({"question": ["q"], name: ["a"], "contexts": [["c"]]})
        with pytest.raises(ValueError) as info:
            resolve_columns(lone, required=["answer"])
        assert "columns={'answer': '<column name>'}" in str(info.value), name


@pytest.mark.parametrize("name", ["reply", "bot_reply", "completion", "llm_completion"])
def test_reply_and_completion_columns_look_like_the_answer(name) -> None:
    df = pd.DataFrame({"question": ["q"], name: ["a"], "contexts": [["c"]]})
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["answer"])
    assert f"{name!r} looks like it: rename a column or pass columns={{'answer': {name!r}}}" in str(
        info.value
    )


def test_token_counts_do_not_look_like_the_answer() -> None:
    df = pd.DataFrame({"question": ["q"], "completion_tokens": [12], "contexts": [["c"]]})
    with pytest.raises(ValueError) as info:
        resolve_columns(df, required=["answer"])
    assert "columns={'answer': '<column name>'}" in str(info.value)


def test_one_column_mapped_to_two_roles_is_an_error() -> None:
    df = pd.DataFrame(
        {
            "question": ["How often?"],
            "bot_reply": ["Take 2 tablets every hour."],
            "contexts": [["Take 1 tablet every 4 to 6 hours."]],
            "gold answer": ["Take 1 tablet every 4 to 6 hours."],
        }
    )
    both = {"answer": "gold answer", "ground_truth": "gold answer"}
    with pytest.raises(ValueError) as info:
        df.rag.evaluate(model="offline", columns=both, progress=False)
    assert str(info.value).startswith(
        "columns maps column 'gold answer' to the 'answer' and 'ground_truth' roles; "
        "a column plays one role"
    )
    # each role its own column: scored, and the bot's wrong frequency shows
    out = df.rag.evaluate(
        model="offline",
        columns={"answer": "bot_reply", "ground_truth": "gold answer"},
        metrics=["faithfulness"],
        progress=False,
    )
    assert out["faithfulness"].tolist() == [0.0]


def test_the_missing_column_error_also_names_a_question_look_alike() -> None:
    # a fresh user's frame: the error named the answer, contexts and ground truth mappings,
    # and 'user_question' only came up as a warning once those were fixed
    df = pd.DataFrame(
        {"user_question": ["q"], "bot_reply": ["a"], "docs": [["c"]], "gold answer": ["g"]}
    )
    with pytest.raises(ValueError) as info:
        df.rag.evaluate(model="offline", progress=False)
    text = str(info.value)
    assert text.endswith(
        "Also: no 'question' column was found, but 'user_question' looks like one: pass "
        "columns={'question': 'user_question'} to use it."
    )
    mapping = {"answer": "bot_reply", "contexts": "docs", "ground_truth": "gold answer"}
    with pytest.raises(ValueError) as info:
        resolve_columns(df, {"answer": "bot_reply"}, required=["contexts"])
    assert "Also: no 'question' column was found, but 'user_question'" in str(info.value)
    # following the whole error: scored, and no warning is left to say
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = df.rag.evaluate(
            model="offline", columns={**mapping, "question": "user_question"}, progress=False
        )
    assert out["context_recall_status"].tolist() == ["ok"]


def test_two_look_alike_columns_are_named_with_a_plural_verb():
    import ragnotebook as rn

    df = pd.DataFrame(
        {"question": ["q"], "answer": ["a"], "docs": [["c"]], "context_titles": [["t"]]}
    )
    with pytest.raises(ValueError, match="'docs', 'context_titles' look like it: rename a column"):
        rn.faithfulness(df, model="offline", progress=False)


def test_a_label_column_named_like_a_role_is_not_offered_for_it():
    # "answer_kind" holding "right" / "hallucinated" was proposed as the answer column
    df = pd.DataFrame(
        {
            "q": ["Where?"] * 12,
            "bot": ["It is on Pier 4."] * 12,
            "contexts": [["Pier 4."]] * 12,
            "answer_kind": ["right", "hallucinated"] * 6,
        }
    )
    import ragnotebook as rn

    with pytest.raises(ValueError) as info:
        rn.faithfulness(df, model="offline", progress=False)
    assert "columns={'answer': 'answer_kind'}" not in str(info.value)
    assert "'answer_kind' looks like it" not in str(info.value)
    assert "no column found for the 'answer' role" in str(info.value)
