"""Command line: ``ragnotebook quickstart | evaluate | report`` (also ``python -m ragnotebook``).

``quickstart``
    Score the bundled real sample with the offline judge and show the worst rows.
``evaluate DATA``
    Score a CSV, JSON Lines or Parquet file of RAG rows, print the summary to
    stdout, write the scored frame (``--out``, Parquet or JSON Lines by suffix)
    and, for CI, gate on thresholds (``--fail-under``, ``--min-coverage``) and
    on a significant drop against a previous scored file (``--baseline``).
``report SCORED``
    Write the HTML report of a scored file; with ``--baseline``, compared with an
    earlier run's scored file.

Results go to stdout; progress bars, warnings and errors to stderr.

Exit codes
----------
0
    Success (and every requested check passed).
1
    A check failed: a mean under its ``--fail-under`` threshold, coverage under
    ``--min-coverage``, or a regression against ``--baseline``.
2
    Usage error: unknown option or metric, malformed ``--fail-under`` or
    ``--column``, a ``--fail-under`` / ``--min-coverage`` / ``--max-drop`` outside
    0..1, an output suffix other than ``.parquet``/``.pq``/``.jsonl``/``.ndjson``
    (the last two optionally compressed: ``.gz``, ``.bz2``, ``.xz``).
3
    Input or data error: a file that is missing, unreadable or of an unknown
    format, a column that is missing or malformed (the ``--on`` column included),
    a ``--baseline`` without any evaluated metric (for ``report``, any metric of the
    scored file) or none of whose rows pairs up.
4
    Runtime error: the report module or an optional dependency is not
    available, or an unexpected failure.
130
    Interrupted (Ctrl-C) before every row was scored.

See ``docs/cli.md`` for the full reference.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import io
import json
import math
import os
import re
import shlex
import sys
import textwrap
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TextIO

__all__ = ["main"]

EXIT_OK = 0
EXIT_CHECKS_FAILED = 1
EXIT_USAGE = 2
EXIT_DATA = 3
EXIT_RUNTIME = 4
EXIT_INTERRUPTED = 130

#: Suffixes read and written.
_PARQUET = (".parquet", ".pq")
_JSONL = (".jsonl", ".ndjson")
_READABLE = (".csv", ".json", *_JSONL, *_PARQUET)
#: Compressions a text input may have, after its format's suffix ("rows.jsonl.gz"); they
#: are read with the standard library's modules of the same names. Parquet compresses
#: its own pages, so "x.parquet.gz" is not read.
_COMPRESSED = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma"}


def _format(path: Path) -> str:
    """The lowercase suffix that names ``path``'s format, after a compression suffix is
    set aside: ``".jsonl"`` for ``rows.jsonl.gz``, ``".csv"`` for ``rows.CSV``."""
    suffixes = [x.lower() for x in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSED:
        return suffixes[-2] if len(suffixes) > 1 else ""
    return suffixes[-1] if suffixes else ""


def _opener(suffix: str) -> Callable[..., Any]:
    """``open``, or the ``open`` of the module for a compression ``suffix`` (``gzip.open``
    for ``".gz"``, ``bz2.open``, ``lzma.open``)."""
    module = _COMPRESSED.get(suffix.lower())
    if module is None:
        return open
    import importlib

    return importlib.import_module(module).open  # type: ignore[no-any-return]


def _open_text(path: Path, **kwargs: Any) -> Any:
    """``open(path, **kwargs)`` for reading text, decompressing a ``.gz``, ``.bz2`` or
    ``.xz`` file as it is read."""
    return _opener(path.suffix)(path, "rt", **kwargs)


@contextlib.contextmanager
def _open_text_write(path: Path, compression: str | None) -> Iterator[Any]:
    """``path`` opened for writing UTF-8 text, compressed with ``compression`` (a suffix
    of :data:`_COMPRESSED`, or None for plain text). A gzip file records no name and no
    time, so the same rows give the same bytes."""
    with contextlib.ExitStack() as stack:
        if compression is None:
            yield stack.enter_context(path.open("w", encoding="utf-8"))
        elif compression == ".gz":
            import gzip
            import io

            raw = stack.enter_context(path.open("wb"))
            zipped = stack.enter_context(
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
            )
            yield stack.enter_context(io.TextIOWrapper(zipped, encoding="utf-8"))
        else:
            opener = _opener(compression)
            yield stack.enter_context(opener(path, "wt", encoding="utf-8"))


#: The run metadata of a JSON Lines file ``x.jsonl`` is kept in ``x.jsonl.run.json``.
_RUN_SUFFIX = ".run.json"
_RUN_FORMAT = "ragnotebook-run/1"

#: ``--baseline`` fails a metric when ``p_value < BASELINE_ALPHA`` and the mean
#: difference is below ``-max_drop``, or when coverage drops by more than ``max_drop``.
BASELINE_ALPHA = 0.05


class UsageError(Exception):
    """Bad command-line usage (exit code 2)."""


class DataError(Exception):
    """An input file or its content is unusable (exit code 3)."""


# --------------------------------------------------------------------------- files


def _jsonable(value: Any) -> Any:
    """A JSON-ready copy of a cell: NA -> None, NumPy -> Python, containers recursively."""
    import numpy as np
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float | np.floating):
        return None if math.isnan(value) else float(value)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | np.ndarray):
        return [_jsonable(v) for v in value]
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return str(value)


def _with_row_labels(df: Any) -> Any:
    """The frame with its row labels as a first column, unless they are just 0..n-1.

    A frame indexed by ids (the bundled sample's ``id``, a user's ``q7``) keeps them in
    the file, so a row printed by its label can be found there. The column takes the
    index's name, or ``"row"`` (the name ``claims()`` uses) when it has none.
    """
    return _label_columns(df)[0]


def _label_columns(df: Any) -> tuple[Any, list[str], bool]:
    """(:func:`_with_row_labels`'s frame, the columns of it that hold the row labels,
    whether those are one of the frame's own columns).

    An index that repeats a column's values (``evaluate --id qid``) is that column: no
    second copy is written, and reading the file back keeps the column."""
    import pandas as pd

    index = df.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    if plain and index.name is None:
        return df, [], False
    if index.nlevels == 1:
        labels = index.tolist()
        for col in df.columns:
            if (index.name is None or col == index.name) and _same_values(df[col], labels):
                return df, [str(col)], True
    names = _label_names(index.names)
    if any(n in df.columns for n in names):
        return df, [], False
    out = df.copy(deep=False)
    out.index = index.set_names(names)
    return out.reset_index(), [str(n) for n in names], False


def _label_names(names: Sequence[Any]) -> list[Any]:
    """The columns an index's levels are written to: its names, ``"row"`` for an unnamed
    index, ``"row_0"``, ``"row_1"`` … for unnamed levels of a MultiIndex (read back as
    unnamed: :func:`with_row_labels`); a name two levels share gets its level's number."""
    if len(names) == 1:
        return ["row" if names[0] is None else names[0]]
    out = [f"row_{i}" if n is None else n for i, n in enumerate(names)]
    return [f"{n}_{i}" if out.count(n) > 1 else n for i, n in enumerate(out)]


def _same_values(column: Any, labels: list[Any]) -> bool:
    """Whether a column holds exactly ``labels``, in order (a frame's column, not a
    sub-frame of repeated names)."""
    if getattr(column, "ndim", 1) != 1 or column.dtype.kind not in "OUSiu":
        return False
    try:
        return bool(column.tolist() == labels)
    except (TypeError, ValueError):
        return False


def write_jsonl(df: Any, path: Path, compression: str | None = None) -> None:
    """Write a frame as JSON Lines, one object per row; list and dict cells stay JSON.

    Row labels other than 0..n-1 are written as a first column (see ``_with_row_labels``).
    ``compression`` (``".gz"``, ``".bz2"``, ``".xz"``, or None) compresses the file.
    """
    from ragnotebook._textsafe import replace_surrogates

    df = _with_row_labels(df)
    with _open_text_write(path, compression) as fh:
        cols = [str(c) for c in df.columns]
        for values in df.itertuples(index=False, name=None):
            record = {c: _jsonable(v) for c, v in zip(cols, values, strict=True)}
            # a lone surrogate cannot be written as UTF-8: U+FFFD in its place
            line = replace_surrogates(json.dumps(record, ensure_ascii=False))
            fh.write(line + "\n")


def _without_surrogates(df: Any) -> Any:
    """``df``, or a copy whose cells hold U+FFFD in place of lone surrogates (which UTF-8,
    and so Parquet, cannot store); only columns that hold one are copied."""
    from ragnotebook._textsafe import clean_value

    out = df
    for i in range(df.shape[1]):  # by position: column names may repeat
        column = df.iloc[:, i]
        if column.dtype != object and str(column.dtype) != "string":
            continue
        values = column.tolist()
        cleaned = [clean_value(v) for v in values]
        if any(a is not b for a, b in zip(cleaned, values, strict=True)):
            if out is df:
                out = df.copy(deep=False)
            out.isetitem(i, cleaned)
    return out


def run_file(path: Path) -> Path:
    """The file beside a JSON Lines file that keeps its run metadata:
    ``scores.jsonl`` -> ``scores.jsonl.run.json``."""
    return path.with_name(path.name + _RUN_SUFFIX)


def _sha256(path: Path) -> str:
    """SHA-256 of the file's bytes; of the decompressed bytes for ``.gz``/``.bz2``/``.xz``
    (so ``gzip scores.jsonl`` keeps the rows its run file was written with)."""
    digest = hashlib.sha256()
    with _opener(path.suffix)(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _run_file_read(path: Path) -> Path:
    """The run file a JSON Lines file is read with: :func:`run_file`, or for a compressed
    ``scores.jsonl.gz`` without one, the ``scores.jsonl.run.json`` that ``gzip
    scores.jsonl`` leaves beside it."""
    side = run_file(path)
    if not side.is_file() and path.suffix.lower() in _COMPRESSED:
        plain = run_file(path.with_suffix(""))
        if plain.is_file():
            return plain
    return side


def _run_record(df: Any, data: Path, out: Path) -> dict[str, Any] | None:
    """What :func:`run_file` holds for the JSON Lines file ``data`` (to be renamed
    ``out``), or None when the frame has no run metadata."""
    meta = df.attrs.get("ragnotebook") if isinstance(df.attrs, dict) else None
    if not isinstance(meta, dict) or not meta:
        return None
    _, index, is_column = _label_columns(df)
    return {
        "format": _RUN_FORMAT,
        "data_file": out.name,
        "sha256": _sha256(data),
        "rows": len(df),
        "index": index,
        "index_is_column": is_column,
        "attrs": _jsonable(meta),
    }


def _write_frame(df: Any, out: Path) -> Path:
    """Write a scored frame as Parquet (keeps ``attrs``) or JSON Lines, by suffix;
    ``scored.jsonl.gz`` (``.bz2``, ``.xz``) is compressed JSON Lines.

    JSON Lines keep no metadata, so the run's (``attrs["ragnotebook"]``: judge, model,
    columns, counters) goes to :func:`run_file` beside it, with the SHA-256 of the rows
    it belongs to and the columns that hold the row labels; :func:`read_table` attaches
    it again only to the exact file it was written with. Each file is written next to
    its target and then renamed, so an interrupted or failed write never leaves a
    truncated file under ``out``'s name (nor a run file that matches the wrong rows).
    """
    from ragnotebook._textsafe import replace_surrogates

    out.parent.mkdir(parents=True, exist_ok=True)
    compression = out.suffix.lower() if out.suffix.lower() in _COMPRESSED else None
    # the temporary file keeps the compression suffix, so its hash is of the rows
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp{compression or ''}")
    side = run_file(out)
    side_tmp = side.with_name(f".{side.name}.{os.getpid()}.tmp")
    try:
        if out.suffix.lower() in _PARQUET:
            _without_surrogates(df).to_parquet(tmp)
            os.replace(tmp, out)
            return out
        write_jsonl(df, tmp, compression)
        record = _run_record(df, tmp, out)
        if record is not None:
            text = json.dumps(record, ensure_ascii=False, indent=1)
            side_tmp.write_text(replace_surrogates(text) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        if record is not None:
            os.replace(side_tmp, side)
        else:  # a run file of an earlier write would describe other rows
            with contextlib.suppress(OSError):
                side.unlink()
    finally:
        for leftover in (tmp, side_tmp):
            with contextlib.suppress(OSError):
                leftover.unlink()
    return out


def _run_file_note(path: Path) -> str:
    """`` (run metadata: NAME.run.json)`` after a JSON Lines file's name, if written."""
    side = run_file(path)
    if _format(path) in _JSONL and side.is_file():
        return f" (its run metadata in {side.name})"
    return ""


def _attach_run(df: Any, path: Path) -> Any:
    """``df`` read from the JSON Lines file ``path``, with the run metadata of its
    :func:`run_file` in ``attrs["ragnotebook"]`` when that file was written with exactly
    these rows (same SHA-256), and the names of the columns holding row labels in
    ``attrs["ragnotebook_file"]["index"]``. A run file that does not match is ignored,
    with a warning. A compressed file is compared by its decompressed rows."""
    side = _run_file_read(path)
    if not side.is_file():
        return df
    try:
        record = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        warnings.warn(
            f"{side.name}: cannot read this run file ({type(exc).__name__}); the rows of "
            f"{path.name} are read without their run metadata",
            UserWarning,
            stacklevel=3,
        )
        return df
    if (
        not isinstance(record, dict)
        or record.get("format") != _RUN_FORMAT
        or not isinstance(record.get("attrs"), dict)
    ):
        return df
    if record.get("sha256") != _sha256(path):
        warnings.warn(
            f"{side.name} was written with other rows than those now in {path.name} (the "
            "file changed since); its run metadata (judge, model, counters) is not used",
            UserWarning,
            stacklevel=3,
        )
        return df
    df.attrs["ragnotebook"] = record["attrs"]
    index = [c for c in record.get("index") or [] if isinstance(c, str) and c in df.columns]
    df.attrs["ragnotebook_file"] = {
        "index": index,
        "index_is_column": bool(record.get("index_is_column")) and len(index) == 1,
    }
    return df


def with_row_labels(df: Any, keep: Sequence[str] = ()) -> Any:
    """``df`` indexed by the row labels a JSON Lines file kept in columns (as written by
    ``evaluate --out`` or the quickstart; see :func:`read_table`), else ``df``. The
    columns named in ``keep`` (a ``--by`` column) stay columns as well."""
    found = df.attrs.get("ragnotebook_file") or {}
    index = found.get("index") or []
    if not index or not all(c in df.columns for c in index):
        return df
    if found.get("index_is_column"):
        # the labels were one of the rows' own columns (evaluate --id): it stays one
        return df.set_axis(df[index[0]].tolist(), axis=0)
    out = df.set_index(index, drop=not set(index) & set(keep))
    names = list(out.index.names)
    if names == ["row"]:  # the name write_jsonl gave an unnamed index
        out.index.name = None
    elif len(names) > 1 and names == [f"row_{i}" for i in range(len(names))]:
        out.index = out.index.set_names([None] * len(names))  # unnamed levels
    return out


def _csv_separator(path: Path) -> str:
    """The field separator of a CSV file: ``,`` unless its header line has none and has
    ``;`` (spreadsheets in locales with a decimal comma), a tab or ``|``."""
    try:
        with _open_text(path, encoding="utf-8-sig", errors="replace") as fh:
            header = fh.readline()
    except (OSError, EOFError, ValueError):
        return ","
    if "," in header:
        return ","
    return next((sep for sep in (";", "\t", "|") if sep in header), ",")


def read_table(path: Path | str) -> Any:
    """Read a CSV, JSON Lines (``.jsonl``/``.ndjson``), JSON or Parquet file into a DataFrame.

    The text formats may be compressed: ``rows.jsonl.gz``, ``rows.csv.bz2``,
    ``rows.json.xz`` are decompressed as they are read (messages still name their lines).

    A ``.json`` file may be JSON Lines, a JSON array of records
    (``df.to_json(path, orient="records")``) or what pandas' ``to_json`` writes with
    the orients ``"columns"`` (its default), ``"index"``, ``"split"`` or ``"table"``.
    Text files may start with a UTF-8 byte order mark.

    A scored file read back gets its metric columns' dtypes restored (``m``
    Float64, ``m_status`` string, ``m_verdicts`` lists of dicts where Parquet gives
    arrays), so ``summary()``, ``claims()``, the report and
    :func:`ragnotebook.compare` work on it. A JSON Lines file written by ``evaluate
    --out`` or the quickstart gets its run metadata back (``attrs["ragnotebook"]``: judge,
    model, column mapping, counters) from the ``.run.json`` file written beside it, when
    that file was written with exactly these rows (its SHA-256 matches); the columns that
    hold the row labels are named in ``attrs["ragnotebook_file"]["index"]`` (the report
    uses them as row names). Parquet keeps both by itself.

    Parameters
    ----------
    path : str or Path
        The file; its suffix says how to read it (``.csv``, ``.json``, ``.jsonl``,
        ``.ndjson``, ``.parquet``, ``.pq``), after ``.gz``, ``.bz2`` or ``.xz`` for a
        compressed text file.

    Returns
    -------
    pandas.DataFrame
        One row per record, with a 0..n-1 index unless the file kept row labels
        (pandas' ``"index"``/``"columns"`` orients with labels other than 0..n-1).

    Raises
    ------
    DataError
        For a missing or unreadable file, an unknown suffix, or a JSON file of
        another shape.

    Warns
    -----
    UserWarning
        When the ``.run.json`` beside a JSON Lines file cannot be read or was written with
        other rows (the file was edited since): the rows are read without run metadata.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from ragnotebook.cli import read_table
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> _ = path.write_text('{"question": "Where?", "answer": "Here."}\\n', encoding="utf-8")
    >>> read_table(path).to_dict("records")
    [{'question': 'Where?', 'answer': 'Here.'}]
    """
    return _read_located(Path(path))[0]


class _RowPlaces:
    """Where the rows of a file the command read are: "row 3" of a frame is its 0-based
    position, which is not the line a user opens the file at.

    Parameters
    ----------
    path : Path
        The file.
    lines : list of int, optional
        The line each row starts on (JSON Lines); computed on demand for CSV
        (quoted cells may span lines); None for formats without lines.
    """

    #: "row 3, column ..." (a bad cell) and "(first: row 3)" (a warning about cells)
    _ROW = re.compile(r"\brow (\d+)(?=, column |\))")

    def __init__(self, path: Path, lines: list[int] | None = None) -> None:
        self.path = path
        self._lines = lines
        self._csv = _format(path) == ".csv"
        #: ``repr(label) -> position`` for labels naming one row (:meth:`name_rows`)
        self._named: dict[str, int] = {}

    def _line(self, position: int) -> int | None:
        if self._lines is None and self._csv:
            self._lines = _csv_row_lines(self.path)
        if self._lines is None or not 0 <= position < len(self._lines):
            return None
        return self._lines[position]

    def where(self, position: int) -> str:
        """``"line 4 of rows.csv"``, or ``"0-based"`` when the file has no lines."""
        line = self._line(position)
        return "0-based" if line is None else f"line {line} of {self.path.name}"

    #: "row 'q04'": a row named by its label (``evaluate --id``)
    _LABELED = re.compile(r"""\brow ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?=, column |\))""")

    def name_rows(self, labels: Sequence[Any]) -> None:
        """Rows are named by ``labels`` (one per row, in order) from now on: a message's
        ``row 'q04'`` is placed in the file too, when the label names one row only."""
        positions: dict[str, list[int]] = {}
        for i, label in enumerate(labels):
            positions.setdefault(repr(label), []).append(i)
        self._named = {k: v[0] for k, v in positions.items() if len(v) == 1}

    def rewrite(self, text: str) -> str:
        """``text`` with each ``row N`` of the library's messages placed in the file
        (and each ``row 'label'`` after :meth:`name_rows`)."""
        text = self._ROW.sub(lambda m: f"row {m[1]} ({self.where(int(m[1]))})", text)
        if not self._named:
            return text

        def place(m: re.Match[str]) -> str:
            at = self._named.get(m[1])
            return m[0] if at is None else f"{m[0]} ({self.where(at)})"

        return self._LABELED.sub(place, text)


def _csv_row_lines(path: Path) -> list[int] | None:
    """The line each data row of a CSV file starts on (after the header; blank lines
    skipped, as ``pd.read_csv`` does), or None when the file cannot be walked."""
    try:
        sep = _csv_separator(path)  # a quoted cell spans lines only between separators
        with _open_text(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, delimiter=sep)
            starts: list[int] = []
            end = 0
            for record in reader:
                start, end = end + 1, reader.line_num
                if record:
                    starts.append(start)
    except (OSError, EOFError, ValueError, csv.Error):  # UnicodeDecodeError is a ValueError
        return None
    return starts[1:]


def _read_located(path: Path) -> tuple[Any, _RowPlaces]:
    """:func:`read_table`, with where each row is in the file (for messages)."""
    import pandas as pd

    from ragnotebook.frame import verdict_records

    if not path.exists():
        raise DataError(f"{path}: no such file")
    suffix = _format(path)
    compressed = path.suffix.lower() in _COMPRESSED
    if suffix not in _READABLE or (compressed and suffix in _PARQUET):
        shown = path.suffix.lower() if compressed and suffix in _PARQUET else suffix
        raise DataError(
            f"{path}: unknown format {shown or '(no suffix)'!r}; use {', '.join(_READABLE)} "
            f"(all but Parquet may be compressed: {', '.join(_COMPRESSED)})"
        )
    lines: list[int] | None = None
    try:
        if suffix == ".csv":
            try:
                df = pd.read_csv(path, encoding="utf-8-sig", sep=_csv_separator(path))
            except pd.errors.EmptyDataError:
                # a 0-byte file (an export that wrote nothing): as an empty one is said
                raise DataError(
                    f"{path}: no rows to score (the file is empty: not even a header line)"
                ) from None
        elif suffix in _PARQUET:
            df = pd.read_parquet(path)
        else:
            df, lines = _read_json(path)
    except DataError:
        raise
    except ImportError as exc:
        raise DataError(
            f"{path}: reading Parquet needs pyarrow: pip install 'ragnotebook[parquet]'"
        ) from exc
    except UnicodeDecodeError as exc:
        raise DataError(_not_utf8(path, exc)) from exc
    except Exception as exc:
        raise DataError(f"{path}: cannot read the file ({type(exc).__name__}: {exc})") from exc
    for col in list(df.columns):
        if isinstance(col, str) and f"{col}_status" in df.columns:
            df[col] = pd.to_numeric(df[col], errors="coerce").astype("Float64")
            df[f"{col}_status"] = df[f"{col}_status"].astype("string")
            if f"{col}_verdicts" in df.columns:  # Parquet gives arrays of dicts
                cells = [verdict_records(v) for v in df[f"{col}_verdicts"].tolist()]
                df[f"{col}_verdicts"] = pd.Series(cells, index=df.index, dtype=object)
    if suffix in _JSONL:
        df = _attach_run(df, path)
    return df, _RowPlaces(path, lines)


def _not_utf8(path: Path, exc: UnicodeDecodeError) -> str:
    """Where a text file stops being UTF-8 (the line of the first byte that is not, read
    from the decompressed bytes), and how to save it as UTF-8."""
    where, byte = "", ""
    try:
        with _opener(path.suffix)(path, "rb") as fh:
            data = fh.read()
        data.decode("utf-8")
    except UnicodeDecodeError as first:
        line = data.count(b"\n", 0, first.start) + 1
        where, byte = f", line {line}", f" (byte 0x{data[first.start]:02x})"
    except OSError:
        byte = f" ({exc.reason})"
    return (
        f"{path}{where}: the file is not UTF-8 text{byte}; save it as UTF-8 (in Excel: "
        "'CSV UTF-8 (Comma delimited)'), or convert it, e.g. iconv -f cp1252 -t utf-8"
    )


#: What a .json input may hold, for the messages about one that does not.
_JSON_SHAPES = (
    "a .json file must be JSON Lines (one object per line), a JSON array of records "
    "(df.to_json(path, orient='records')), pandas' df.to_json(path) (orient 'columns', "
    "'index', 'split' or 'table'), or one list per column (df.to_dict(orient='list'))"
)


#: The orients of pandas' ``to_json`` a .json input is read in (besides records).
_Orient = Literal["columns", "index", "split", "table"]


class _CutText:
    """Replaces lone surrogates in the records read from a JSON file, and warns once.

    A JSON escape of half an emoji (``"\\ud83d"``) reads as a lone surrogate, which
    UTF-8 (and so pandas' string columns, Parquet and every request) cannot encode; each
    becomes U+FFFD, and one warning names the first place.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.values = 0
        self.first = ""

    def record(self, record: dict[str, Any], where: str) -> dict[str, Any]:
        from ragnotebook._textsafe import clean_value

        cleaned = clean_value(record)
        if cleaned is record:
            return record
        changed = [k for k in record if cleaned[k] is not record[k]]
        self.values += max(1, len(changed))
        if not self.first:
            self.first = f"{where}, key {changed[0]!r}" if changed else where
        return cleaned  # type: ignore[no-any-return]

    def warn(self) -> None:
        if not self.values:
            return
        n = "1 value holds" if self.values == 1 else f"{self.values} values hold"
        warnings.warn(
            f"{self.path}: {n} a lone surrogate, half of a character such as an emoji cut in "
            f"two (a JSON escape like \\ud83d without its other half) (first: "
            f"{self.first}); UTF-8 cannot encode it, so each was replaced by U+FFFD "
            "(\ufffd).",
            UserWarning,
            stacklevel=2,
        )


#: A JSON escape of a surrogate code point (\ud800 to \udfff), either half of a pair.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _read_json(path: Path) -> tuple[Any, list[int] | None]:
    """A JSON Lines or JSON file as a frame, with each row's line (JSON Lines only).

    Lone surrogates (an emoji's escape cut in two) become U+FFFD, with one warning.
    """

    cut = _CutText(path)
    try:
        return _read_json_records(path, cut)
    finally:
        cut.warn()


def _read_json_records(path: Path, cut: _CutText) -> tuple[Any, list[int] | None]:
    import pandas as pd

    with _open_text(path, encoding="utf-8-sig") as fh:
        text = fh.read()
    is_json = _format(path) == ".json"
    head = text.lstrip()[:1]
    if is_json and head in ("[", "{"):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError as exc:
            if head == "[":
                raise DataError(
                    f"{path}, line {exc.lineno}: not valid JSON ({exc.msg}); {_JSON_SHAPES}"
                ) from exc
            whole = None  # several lines: JSON Lines, read below
        if isinstance(whole, list):
            if not all(isinstance(r, dict) for r in whole):
                raise DataError(f"{path}: expected a JSON array of objects; {_JSON_SHAPES}")
            whole = [cut.record(r, f"record {i}") for i, r in enumerate(whole)]
            return pd.DataFrame.from_records(whole), None
        if isinstance(whole, dict) and _column_lists(whole):
            # {"question": [...], "answer": [...]}: df.to_dict(orient="list"), or a
            # Hugging Face dataset's to_dict(): one list per column
            return pd.DataFrame(cut.record(whole, "the table")), None
        if isinstance(whole, dict):
            orient = _pandas_orient(whole)
            if orient is not None:
                if _SURROGATE_ESCAPE.search(text):  # pandas would fail on a lone one
                    cleaned = cut.record(whole, "the table")
                    text = json.dumps(cleaned, ensure_ascii=False)
                # cells as JSON gave them (dtype=False: no number or date guessing)
                df = pd.read_json(io.StringIO(text), orient=orient, dtype=False)
                if list(df.index) == list(range(len(df))):
                    df = df.reset_index(drop=True)  # labels 0..n-1: a plain index
                return df, None
            if "\n" in text.strip():  # one object over several lines: no table
                raise DataError(f"{path}: {_object_problem(whole)}; {_JSON_SHAPES}")
            # one line holding one object: JSON Lines with one row
    records: list[dict[str, Any]] = []
    lines: list[int] = []
    # lines end at "\n" only: str.splitlines() also splits at U+2028, U+0085, ..., which
    # JSON strings hold unescaped (write_jsonl writes them so)
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            shapes = f"; {_JSON_SHAPES}" if is_json else ""
            raise DataError(f"{path}, line {n}: not valid JSON ({exc.msg}){shapes}") from exc
        if not isinstance(record, dict):
            raise DataError(f"{path}, line {n}: expected a JSON object")
        records.append(cut.record(record, f"line {n}"))
        lines.append(n)
    return pd.DataFrame.from_records(records), lines


def _column_lists(obj: dict[str, Any]) -> bool:
    """Whether a JSON object is a table by columns: every value a list, all of one
    length (two rows or more, or one row whose key names a role), and some key the usual
    name of a role (``question``, ``contexts``, ...)."""
    from ragnotebook.intake import ALIASES, _alias_form

    if not obj or not all(isinstance(v, list) for v in obj.values()):
        return False
    if len({len(v) for v in obj.values()}) != 1:
        return False
    roles = {alias for names in ALIASES.values() for alias in names}
    return any(_alias_form(k) in roles for k in obj)


def _pandas_orient(obj: dict[str, Any]) -> _Orient | None:
    """The ``orient`` pandas' ``to_json`` wrote ``obj`` with, or None for another object.

    ``"split"`` and ``"table"`` have their own keys. ``"columns"`` (the default) and
    ``"index"`` are objects of objects: column -> label -> value, or label -> column ->
    value; the one whose column names include a role name (``question``,
    ``contexts``, ...) wins, and ``"columns"`` when neither does, as in ``pd.read_json``.
    """
    from ragnotebook.intake import ALIASES, _alias_form

    keys = set(obj)
    if {"columns", "data"} <= keys <= {"columns", "data", "index", "name"}:
        return "split" if isinstance(obj["data"], list) else None
    if keys == {"schema", "data"} and isinstance(obj["data"], list):
        return "table"
    if not obj or not all(isinstance(v, dict) for v in obj.values()):
        return None
    roles = {alias for names in ALIASES.values() for alias in names}

    def has_role(names: Any) -> bool:
        return any(isinstance(n, str) and _alias_form(n) in roles for n in names)

    inner = next(iter(obj.values()))
    if has_role(inner) and not has_role(obj):
        return "index"
    return "columns"


def _object_problem(obj: dict[str, Any]) -> str:
    """Why a JSON object over several lines is not a table, with where its rows may be."""
    names = ", ".join(repr(k) for k in list(obj)[:5]) + (", ..." if len(obj) > 5 else "")
    lists = [
        k
        for k, v in obj.items()
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)
    ]
    where = (
        f" (its key {lists[0]!r} holds a list of {len(obj[lists[0]])} objects: write that "
        "list alone)"
        if lists
        else ""
    )
    return f"one JSON object with the keys {names} is not a table of rows{where}"


# --------------------------------------------------------------------------- quickstart


def _default_out() -> Path:
    """JSON Lines whatever is installed, so the file name is predictable."""
    return Path("ragnotebook_quickstart.jsonl")


def _wrap(text: str, indent: str = "    ", width: int = 100) -> str:
    return textwrap.fill(
        " ".join(str(text).split()),
        width=width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        max_lines=3,
        placeholder=" ...",
    )


def worst_rows(scored: Any, n: int = 5) -> Any:
    """The ``n`` rows with the lowest mean score over the metrics each row was scored on,
    the lowest-scoring row of each metric among them.

    A metric counts for a row only where :func:`ragnotebook.frame.scored_mask` says the
    score is a measurement (a missing ground truth or answer is not a low score). The
    worst row of every metric is taken first (so a frame whose recall misses fill the
    list still shows its worst faithfulness row), then the rest by mean; they are listed
    by mean, lowest first. The rows come back with two extra columns: ``_mean`` (float64,
    the mean it was ranked by) and ``_position`` (int, its 0-based position in
    ``scored``).
    """
    import pandas as pd

    from ragnotebook.frame import scored_mask, scored_metrics

    parts = []
    for m in scored_metrics(scored):
        ok = pd.Series(scored_mask(scored, m), index=scored.index)
        parts.append(pd.to_numeric(scored[m], errors="coerce").astype("float64").where(ok))
    mean = pd.concat(parts, axis=1).mean(axis=1, skipna=True).reset_index(drop=True)
    picked: list[int] = []
    for part in parts:  # the worst row of each metric first
        values = part.reset_index(drop=True).dropna()
        if len(values) and len(picked) < n:
            worst = int(values.sort_values(kind="stable").index[0])
            if worst not in picked:
                picked.append(worst)
    for pos in mean.sort_values(kind="stable").dropna().index:
        if len(picked) >= n:
            break
        if int(pos) not in picked:
            picked.append(int(pos))
    picked.sort(key=lambda pos: (mean.iloc[pos], pos))
    return scored.iloc[picked].assign(_mean=mean.iloc[picked].to_numpy(), _position=picked)


def _why_unscored(row: Any, metric: str) -> str:
    """The status of a metric a row was not scored on; "no answer" for a missing answer."""
    status = str(row[f"{metric}_status"])
    return "no answer" if metric == "faithfulness" and status == "no_claims" else status


_SUMMARY_COLUMNS = [
    "mean",
    "scored",
    "ok",
    "no_ground_truth",
    "no_reference",
    "no_claims",
    "no_answer",
    "no_context",
    "error",
]


def quickstart(
    out: Path | None, model: str, n_worst: int, options: Mapping[str, Any] | None = None
) -> int:
    """Evaluate the bundled sample and print the summary and the worst rows (``options``:
    the judge's, from ``--api-base``, ``--timeout``, ``--num-retries``)."""
    import pandas as pd

    import ragnotebook as rn
    from ragnotebook.frame import scored_mask

    if n_worst < 0:
        raise UsageError(f"--worst: expected 0 or more rows, got {n_worst}")
    _check_out(out)
    offline = model.strip().lower() == "offline"
    t0 = time.perf_counter()
    df = rn.load_sample("quickstart")
    print(
        f"Loaded {len(df)} real rows bundled with ragnotebook "
        f"({', '.join(f'{k}: {v}' for k, v in df['source'].value_counts().items())})."
    )
    unanswered = df.loc[df["answer"].isna(), "source"].value_counts()
    if len(unanswered):
        names = ", ".join(f"the {n} {k} rows" for k, n in unanswered.items())
        print(f"({names} have no generated answer: they measure retrieval only.)")
    no_truth = df.loc[df["ground_truth"].isna() & df["answer"].notna(), "source"].value_counts()
    if len(no_truth):
        names = ", ".join(f"the {n} {k} rows" for k, n in no_truth.items())
        print(
            f"({names} have no ground truth: recall leaves them out, and context precision "
            "judges their chunks against the answer.)"
        )
    print(
        f"Judge: {model!r}"
        + (" (deterministic heuristic: no API key, no network)" if model == "offline" else "")
    )
    with warnings.catch_warnings():
        if offline:  # (the judge is named above; its notice would only repeat it)
            warnings.simplefilter("ignore", UserWarning)
        # failed rows get a line per metric with the first error (below)
        warnings.filterwarnings("ignore", message="ragnotebook: rows failed")
        try:
            scored = rn.evaluate(
                df, model=model, progress=sys.stderr.isatty(), **dict(options or {})
            )
        except ValueError as exc:  # a model litellm cannot place: the input, as in evaluate
            raise DataError(_as_options(str(exc))) from exc
    elapsed = time.perf_counter() - t0
    last_run = (scored.attrs.get("ragnotebook") or {}).get("last_run") or {}
    if last_run.get("interrupted") and _unfinished(scored, rn.frame.scored_metrics(scored)):
        print("ragnotebook quickstart: interrupted; nothing was written", file=sys.stderr)
        return EXIT_INTERRUPTED
    summary = rn.summary(scored)
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print("\nSummary (mean over scored rows; 'scored' = rows measured / rows in the frame):")
        print(_half_up(summary[_SUMMARY_COLUMNS], 3).to_string())
    if summary["no_answer"].any():
        print(
            "(no_answer: the no_claims rows whose answer is missing; they are not scored. "
            "The other no_claims rows are answers that make no claim, a measured 0.)"
        )
    line = _usage_line(summary, _shared(scored))
    if line:
        print(line)
    _print_failures(scored, summary.index)
    _print_where_it_fails(scored)
    worst = worst_rows(scored, n_worst)
    if len(worst):
        print(
            f"\nThe {len(worst)} lowest-scoring rows (mean of the scores each row was measured "
            "on; each metric's lowest row among them) and what they miss:"
        )
    claims = rn.claims(scored)
    metrics = rn.frame.scored_metrics(scored)
    measured = {m: scored_mask(scored, m) for m in metrics}
    for pos, (label, row) in zip(worst["_position"], worst.iterrows(), strict=True):
        scores = ", ".join(
            f"{m.replace('context_', '')}={row[m]:.2f}"
            if measured[m][pos]
            else f"{m.replace('context_', '')}=not scored ({_why_unscored(row, m)})"
            for m in metrics
        )
        print(f"\n[{label}] ({row['source']}) {scores}")
        print(_wrap(f"Q: {row['question']}"))
        missed = claims[(claims["row_number"] == pos) & (claims["verdict"] != "yes")]
        for _, c in missed.head(4).iterrows():
            kind = (
                "ground truth not in context"
                if c["metric"] == "context_recall"
                else f"answer claim {c['verdict']}"
            )
            print(_wrap(f"- {kind}: {c['claim']}", indent="      "))
        if len(missed) > 4:
            print(f"      ... and {len(missed) - 4} more")
    path = _write_frame(scored, out or _default_out())
    print(
        f"\nScored frame ({len(scored)} rows, {len(scored.columns)} columns) written to "
        f"{path}{_run_file_note(path)}"
    )
    print(
        f"Done in {elapsed:.1f} s. Next: {_next_step()}, or in Python:\n\n"
        "import ragnotebook\n"
        "df = ragnotebook.load_sample('quickstart')  # or your own frame\n"
        "scored = df.rag.evaluate(model='openai/gpt-4o-mini')  # needs OPENAI_API_KEY; "
        "model='offline' needs none" + _import_trap()
    )
    if not any(scored_mask(scored, m).any() for m in metrics):
        # (a judge that failed on every row: the run measured nothing)
        print(
            "ragnotebook quickstart: no row could be scored: every row failed (the first "
            "error of each metric is above)",
            file=sys.stderr,
        )
        return EXIT_RUNTIME
    return EXIT_OK


#: What a measured score below 1 says about a row, per metric (quickstart's diagnosis).
_FAILS_AT = {
    "context_recall": "retriever: some ground-truth claim is in no retrieved chunk",
    "context_precision": "ranking: an irrelevant chunk is ranked above a relevant one, or "
    "none is relevant",
    "faithfulness": "generator: some answer claim is not supported by the chunks (or the "
    "answer makes no claim)",
}


def _print_where_it_fails(scored: Any) -> None:
    """Count, per metric, the measured rows that fall short of 1 and what that says (the
    retriever missed a fact, the ranking put noise first, the generator said more than
    the chunks), with the query that lists them; nothing when no metric was measured."""
    from ragnotebook.frame import scored_mask, scored_metrics

    lines = []
    for m in scored_metrics(scored):
        mask = scored_mask(scored, m)
        measured = int(mask.sum())
        if not measured:
            continue
        short = int((scored[m].astype("Float64")[mask] < 1).sum())
        lines.append(f"  {short:>3} of {measured:>3} measured rows: {_FAILS_AT[m]}")
    if lines:
        print("\nWhere it fails (rows scoring below 1):")
        print("\n".join(lines))
        print(
            "  (list them in Python: scored.rag.claims().query(\"verdict != 'yes'\") for "
            "claims, scored.rag.chunks() for chunks by position)"
        )


def _package_on_path(entries: Sequence[str] | None = None) -> bool:
    """Whether an entry of the import path (``entries``, by default ``sys.path``) holds
    the package itself. Then no folder named ``ragnotebook`` without an ``__init__.py``
    can stand in for it: Python prefers a package found anywhere on the path to such a
    folder. The README's editable install puts the clone's root there; an editable
    install made before that (an import hook that runs after the path is searched), does
    not."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("ragnotebook", list(sys.path if entries is None else entries))
    return spec is not None and spec.loader is not None


def _import_trap(clone: Path | None = None) -> str:
    """A comment line for the Python hint when the package runs from a clone named
    ``ragnotebook`` (``clone``: its root, by default this file's) and is not itself on
    the import path (:func:`_package_on_path`; an editable install made before the
    clone's root was put there): Python started in the clone's parent folder imports
    that folder (an empty namespace package) instead of the package, and ``df.rag`` does
    not exist. The same holds for any folder named ``ragnotebook`` without an
    ``__init__.py`` in the current folder (another clone)."""
    if _package_on_path():
        return ""
    clone = clone or _CLONE
    here = Path.cwd() / "ragnotebook"
    if here.is_dir() and not (here / "__init__.py").is_file():
        # the folder this command runs in holds a folder named ragnotebook that is no
        # package (another clone, a data folder): Python started here imports it
        return (
            f"\n# start Python anywhere but in {Path.cwd()}: from there 'import ragnotebook' "
            f"finds the folder {here}, not the package (README, set-up; or install again: "
            f"{_reinstall()})"
        )
    if clone.name != "ragnotebook" or not (clone / "pyproject.toml").is_file():
        return ""
    return (
        f"\n# start Python anywhere but in {clone.parent}: from there "
        "'import ragnotebook' finds the clone's folder, not the package (README, set-up; "
        f"or install again: {_reinstall(clone)})"
    )


#: Where the example notebooks and the documentation are online (``[project.urls]``).
_REPO_URL = "https://github.com/ragnotebook/ragnotebook/tree/main"


#: The source checkout this package runs from (its ``pyproject.toml`` beside the package),
#: or any folder when installed from an index.
_CLONE = Path(__file__).resolve().parent.parent


def _reinstall(clone: Path | None = None) -> str:
    """The editable install of ``clone`` (by default this package's clone) with this
    interpreter's pip: made again, it puts the clone's root on the import path."""
    pip = Path(sys.executable).with_name("pip")
    return f"{pip} install -e '{clone or _CLONE}'"


def _clone_install(extras: str) -> str:
    """The command that adds ``extras`` to this installation: the editable install of the
    clone's folder for a source checkout (paths that work from any folder), else from the
    package index.

    Examples
    --------
    >>> "[plot]" in _clone_install("plot")
    True
    """
    if (_CLONE / "pyproject.toml").is_file():
        pip = Path(sys.executable).with_name("pip")
        return f"{pip} install -e '{_CLONE}[{extras}]'"
    return f"pip install 'ragnotebook[{extras}]'"


def _next_step() -> str:
    """The quickstart notebook when it is on disk (a source checkout), else its address:
    ``pip install`` installs the package only."""
    notebook = _CLONE / "notebooks" / "01_quickstart.ipynb"
    if notebook.is_file():
        # the set-up installs the core only: say what JupyterLab and the views need, with
        # paths that work from any folder (the quickstart may run outside the clone)
        return f"open {notebook} (with {_clone_install('plot,widgets')} jupyterlab first)"
    return (
        f"the example notebooks are at {_REPO_URL}/notebooks (the docs, among them the "
        f"command line's, at {_REPO_URL}/docs)"
    )


# --------------------------------------------------------------------------- evaluate


def _metric(name: str, option: str) -> str:
    from ragnotebook.api import _metric_name

    try:
        return _metric_name(name.strip())
    except ValueError:
        raise UsageError(
            f"{option}: unknown metric {name.strip()!r}; use recall, precision, faithfulness "
            "(or context_recall, context_precision)"
        ) from None


def parse_metrics(text: str) -> list[str]:
    """``"recall,faithfulness"`` -> ``["context_recall", "faithfulness"]``."""
    names: list[str] = []
    for part in text.split(","):
        if part.strip():
            m = _metric(part, "--metrics")
            if m not in names:
                names.append(m)
    if not names:
        raise UsageError("--metrics is empty")
    return names


def parse_thresholds(values: Sequence[str]) -> dict[str, float]:
    """``["recall=0.7,faithfulness=0.8"]`` -> ``{"context_recall": 0.7, "faithfulness": 0.8}``."""
    out: dict[str, float] = {}
    for value in values:
        for part in value.split(","):
            if not part.strip():
                continue
            name, sep, number = part.partition("=")
            if not sep:
                raise UsageError(f"--fail-under: expected metric=value, got {part.strip()!r}")
            try:
                threshold = float(number)
            except ValueError:
                raise UsageError(f"--fail-under: {number.strip()!r} is not a number") from None
            if not math.isfinite(threshold):
                raise UsageError(f"--fail-under: {number.strip()!r} is not a finite number")
            if not 0.0 <= threshold <= 1.0:
                raise UsageError(
                    f"--fail-under: {part.strip()!r}: scores run from 0 to 1, so a minimum "
                    "must be between 0 and 1"
                )
            out[_metric(name, "--fail-under")] = threshold
    return out


def parse_columns(values: Sequence[str]) -> dict[str, str]:
    """``["question=q", "contexts=docs"]`` -> ``{"question": "q", "contexts": "docs"}``."""
    from ragnotebook.intake import ROLES

    out: dict[str, str] = {}
    for value in values:
        role, sep, col = value.partition("=")
        # the column as given: a spreadsheet's header may have blanks (" Question ");
        # :func:`_resolve_columns` matches it against the file's columns
        role = role.strip()
        if not sep or not role or not col.strip():
            raise UsageError(f"--column: expected role=column, got {value!r}")
        if role not in ROLES:
            raise UsageError(f"--column: unknown role {role!r}; the roles are {', '.join(ROLES)}")
        out[role] = col
    return out


def _resolve_columns(columns: dict[str, str], df: Any) -> dict[str, str]:
    """``--column`` values matched against the file's columns: a name the file has is
    used as given, blanks included (``question= Question ``); otherwise the one column
    whose name is the value without its outer blanks, either way round (``question=User
    Input`` for a header " User Input "). Anything else is left for the API's error,
    which lists the columns."""
    names = [c for c in df.columns if isinstance(c, str)]
    out = {}
    for role, col in columns.items():
        if col not in names:
            alike = [c for c in names if c.strip() == col.strip()]
            if len(alike) == 1:
                col = alike[0]
        out[role] = col
    return out


def _partial(out: Path) -> Path:
    """Where an interrupted run's finished rows go instead of ``out``: ``scored.jsonl`` ->
    ``scored.partial.jsonl``, ``scored.jsonl.gz`` -> ``scored.partial.jsonl.gz``."""
    name = out.name
    cut = (
        len(name)
        - len(out.suffix)
        - (len(Path(out.stem).suffix) if out.suffix.lower() in _COMPRESSED else 0)
    )
    return out.with_name(f"{name[:cut]}.partial{name[cut:]}")


def _check_writable(path: Path, option: str = "--out", example: str = "scored.jsonl") -> None:
    """Refuse, before any row is scored, an output path that is a folder or whose folder
    cannot be made or written to. Missing folders are made for the test and removed
    again: the write makes them, so a command that fails later leaves none behind.

    Raises
    ------
    UsageError
        Naming the option and the path.
    """
    import tempfile

    if path.is_dir():
        raise UsageError(f"{option}: {path} is a folder; give a file name in it ({path / example})")
    missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise UsageError(f"{option}: cannot write {path} ({why}: {path.parent})") from None
    finally:
        for folder in missing:  # deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()


def _check_out(path: Path | None) -> None:
    """Refuse an ``--out`` that could not be written, before any row is scored."""
    if path is not None and path.is_dir():
        _check_writable(path)  # "is a folder", before its (missing) suffix is named
    compressed = path is not None and path.suffix.lower() in _COMPRESSED
    if path is not None and (
        _format(path) not in (*_PARQUET, *_JSONL) or (compressed and _format(path) in _PARQUET)
    ):
        raise UsageError(
            f"--out: {path.name!r} must end in .parquet or .pq (Parquet, keeps the run "
            "metadata), or .jsonl or .ndjson (JSON Lines), which may be compressed: "
            "scored.jsonl.gz (.bz2, .xz)"
        )
    if path is not None and path.suffix.lower() in _PARQUET:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError(
                f"--out: writing {path.name!r} needs pyarrow: pip install "
                "'ragnotebook[parquet]', or write .jsonl"
            ) from None
    if path is not None:
        _check_writable(path)


def _half_up(table: Any, decimals: int) -> Any:
    """``table`` with its float columns rounded half-up (as scores are), so a mean of
    0.5665 prints as 0.567 in a table and in a check line alike (pandas' ``round`` gives
    0.566: it rounds the binary value half to even)."""
    from ragnotebook.scorers._common import round_half_up

    out = table.copy()
    for col in out.columns:
        if out[col].dtype.kind == "f" or str(out[col].dtype) in ("Float64", "Float32"):
            out[col] = out[col].map(
                lambda v: v if v is None or v != v else round_half_up(float(v), decimals)
            )
    return out


def _shown(value: float, limit: float, decimals: int = 3) -> str:
    """``value`` rounded half-up for a check line; with more digits when the rounding
    would print the limit it missed ("mean 0.5665 < 0.567", not "0.567 < 0.567")."""
    from ragnotebook.scorers._common import round_half_up

    text = f"{round_half_up(value, decimals):.{decimals}f}"
    if abs(value - limit) > _TOLERANCE and float(text) == round(limit, decimals):
        return f"{value:.6g}"
    return text


def _shared(scored: Any) -> int:
    """Tasks of the run answered by an identical task of the same run (counted among the
    summary's cache hits, with the cache off too)."""
    metrics = ((scored.attrs.get("ragnotebook") or {}).get("metrics")) or {}
    return sum(int(m.get("shared") or 0) for m in metrics.values() if isinstance(m, dict))


def _print_summary(summary: Any, title: str, usage: bool = True, shared: int = 0) -> None:
    import pandas as pd

    cols = ["mean", "scored", "coverage", *_SUMMARY_COLUMNS[2:], "missing_verdicts"]
    cited = summary.get("out_of_range_chunks")
    if cited is not None and bool((cited.fillna(0) > 0).any()):
        cols.append("out_of_range_chunks")  # only when a judge cited chunks a row lacks
    with pd.option_context("display.width", 160, "display.max_columns", 30):
        print(title)
        print(_half_up(summary[[c for c in cols if c in summary.columns]], 3).to_string())
    line = _usage_line(summary, shared) if usage else ""
    if line:
        print(line)


def _usage_line(summary: Any, shared: int = 0) -> str:
    """What the run spent, over all metrics: judge requests, cache hits, tokens and USD
    ("" for a judge that made no request and read no cache, such as the offline one).
    ``shared`` of the cache hits were identical tasks of the run asked once, said apart
    (they happen with the cache off too)."""
    import pandas as pd

    def total(col: str) -> Any:
        if col not in summary.columns:
            return None
        values = summary[col]
        return None if values.isna().any() else values.sum()

    requests, hits = total("requests"), total("cache_hits")
    if not requests and not hits:
        return ""
    shared = min(shared, int(hits or 0))
    parts = [f"{int(requests or 0)} request(s)", f"{int(hits or 0) - shared} cache hit(s)"]
    if shared:
        parts.append(f"{shared} task(s) shared with an identical one of the run")
    tokens = [total("prompt_tokens"), total("completion_tokens")]
    if all(t is not None for t in tokens):
        parts.append(f"{int(tokens[0])} prompt + {int(tokens[1])} completion tokens")
    cost = total("cost_usd")
    parts.append(
        f"${float(cost):.4f}" if cost is not None and not pd.isna(cost) else "cost unknown"
    )
    return "Judge usage: " + ", ".join(parts)


#: How far below a threshold a mean may be and still meet it: floating-point sums of
#: two-decimal scores miss an exact value by ~1e-16 (0.0 + 0.2 + 1.0 over 3 is
#: 0.39999999999999997, which meets 0.4).
_TOLERANCE = 1e-9


def check_thresholds(
    summary: Any, thresholds: dict[str, float], min_coverage: float | None, prefix: str = ""
) -> list[str]:
    """Failed checks as messages; also prints one line per check to stdout.

    Each metric in ``thresholds`` must have ``mean >= threshold`` and
    ``coverage >= min_coverage`` (1.0 when not given), both within 1e-9 (a mean
    that is the threshold up to floating-point rounding meets it); with
    ``min_coverage`` given explicitly, coverage is checked for every metric in
    ``summary``. ``prefix`` (a group, "system=B: ") opens every message.
    """
    failures: list[str] = []
    coverage_floor = 1.0 if min_coverage is None else min_coverage
    gated = list(thresholds)
    if min_coverage is not None:
        gated += [m for m in summary.index if m not in gated]
    for m in gated:
        mean = float(summary.loc[m, "mean"])
        cov = float(summary.loc[m, "coverage"])
        if m in thresholds:
            t = thresholds[m]
            if math.isnan(mean) or mean < t - _TOLERANCE:
                msg = prefix + (
                    f"{m}: no row was scored, so the mean cannot reach {t:g}"
                    if math.isnan(mean)
                    else f"{m}: mean {_shown(mean, t)} < {t:g}"
                )
                failures.append(msg)
                print(f"FAIL {msg}")
            else:
                print(f"ok   {prefix}{m}: mean {_shown(mean, t)} >= {t:g}")
        if math.isnan(cov) or cov < coverage_floor - _TOLERANCE:
            msg = prefix + (
                f"{m}: coverage {_shown(cov, coverage_floor)} < {coverage_floor:g} "
                f"({summary.loc[m, 'scored']} rows scored, {int(summary.loc[m, 'error'])} errors)"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
        else:
            print(f"ok   {prefix}{m}: coverage {_shown(cov, coverage_floor)} >= {coverage_floor:g}")
    return failures


#: the end of :func:`ragnotebook.compare`'s coverage note, which names a column of its
#: Python table that no command prints, and what the commands say instead
_STRICT_NOTE = (
    "; mean_diff covers paired rows only, see mean_diff_strict",
    "; the mean difference covers paired rows only",
)


def _warning(text: str, command: str = "evaluate") -> None:
    """Print ``ragnotebook <command>: warning: <text>`` on stderr (every time: a
    Python warning would be shown once per process)."""
    print(f"ragnotebook {command}: warning: {text}", file=sys.stderr)


def parse_max_drop(value: float) -> float:
    """Check ``--max-drop``: a share of the 0..1 score scale (and of coverage).

    Raises
    ------
    UsageError
        For a value that is not a finite number from 0 to 1.
    """
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise UsageError(
            f"--max-drop: {value:g} is not between 0 and 1 (it is a drop in mean score and "
            "in coverage, which both run from 0 to 1)"
        )
    return value


def _check_baseline_file(
    path: Path,
    baseline: Any,
    metrics: Sequence[str],
    what: str = "the evaluated metrics",
    command: str = "evaluate",
) -> None:
    """Before any scoring (or any report): refuse a baseline without any of ``metrics``
    (``what`` names them in the message), and warn about one that is the partial file
    of an interrupted run."""
    from ragnotebook.frame import scored_metrics

    have = scored_metrics(baseline)
    if not any(m in have for m in metrics):
        raise DataError(
            f"--baseline {path}: the file has none of {what} "
            f"({', '.join(metrics)}); it has "
            + (", ".join(have) if have else "no ragnotebook scores")
            + ". Pass a file written by 'ragnotebook evaluate --out'"
        )
    cancelled = _unfinished(baseline, [m for m in have if f"{m}_error" in baseline.columns])
    partial_name = path.stem.lower().endswith(".partial")
    if cancelled or partial_name:
        why = (
            f"{cancelled} of its row-metrics were cancelled"
            if cancelled
            else "its name is that of one"
        )
        _warning(
            f"--baseline {path.name} looks like the partial file of an interrupted run "
            f"({why}): its unfinished rows are errors, not scores, so this run is compared "
            "with an incomplete baseline",
            command,
        )


def _check_pairs(
    base_path: Path, baseline: Any, base_col: str, data_path: Path, data: Any, data_col: str
) -> None:
    """Refuse, before any scoring, a baseline none of whose rows pairs up with the data's
    (no value of ``base_col`` is one of ``data_col``'s): every check against it would
    compare nothing.

    Raises
    ------
    DataError
        When the two columns share no value.
    """
    from ragnotebook.comparison import _hashable

    def keys(frame: Any, col: str) -> set[Any]:
        return {_hashable(v) for v in frame[col].tolist()} - {None}

    if not keys(baseline, base_col) & keys(data, data_col):
        raise DataError(
            f"--baseline {base_path.name}: no row pairs up: no value of its column "
            f"{base_col!r} is in the column {data_col!r} of {data_path.name} (pass --on "
            "COLUMN naming a column whose values both files share, e.g. a question id)"
        )


def _pairing_columns(
    on: str,
    baseline: Any,
    data: Any,
    columns: Mapping[str, str] | None,
    data_side: str = "the data file",
) -> tuple[str, str]:
    """The ``--on`` column of the baseline and of the data, checked before any scoring.

    For the data it is the column the scoring reads for the role ``on`` names (with
    ``--column`` or by the role's usual names), else the column called ``on``. The
    baseline's is the data's column when it has one by that name (a baseline written by
    the same command), else the column called ``on``, else the role's column.

    ``data_side`` names the data in messages (``report`` reads a scored file).

    Raises
    ------
    DataError
        When either file has no such column.
    """
    from ragnotebook.comparison import _key_column
    from ragnotebook.intake import ROLES, resolve_columns

    def missing(side: str, frame: Any) -> DataError:
        names = ", ".join(map(str, frame.columns))
        return DataError(
            f"--on {on!r} is not a column of {side} (its columns: {names}); "
            "pass --on COLUMN naming a column both files have"
        )

    mapped = (columns or {}).get(on)
    if mapped is not None:
        if mapped not in data.columns:
            raise missing(data_side, data)
        data_col = mapped
    elif on in data.columns:
        data_col = on
    elif on in ROLES:
        try:
            found = resolve_columns(data, columns, roles=[on]).get(on)
        except ValueError as exc:
            raise DataError(f"--on {on!r}: {exc}") from None
        if found is None:
            raise missing(data_side, data)
        data_col = found
    else:
        raise missing(data_side, data)
    if data_col in baseline.columns:
        return data_col, data_col
    try:
        return _key_column(baseline, on, "A"), data_col
    except KeyError:
        raise missing("the baseline file", baseline) from None


#: an ``id``-like column name, suggested to pair rows when ``--on`` repeats values
_ID_NAME = re.compile(r"(?i)^(row|(.*_)?(id|uid|uuid|key))$")


def _value_counts(frame: Any, column: str) -> list[int]:
    """How many rows hold each distinct value of ``column`` (missing ones aside)."""
    values = frame[column].dropna()
    try:
        return [int(n) for n in values.value_counts().tolist()]
    except TypeError:  # unhashable cells (lists): compare their text
        return [
            int(n) for n in values.map(lambda v: json.dumps(_jsonable(v))).value_counts().tolist()
        ]


def _repeats(frame: Any, column: str) -> int:
    """How many values of ``column`` are repeats of an earlier one (missing ones aside)."""
    return sum(n - 1 for n in _value_counts(frame, column))


def _id_column(baseline: Any, scored: Any, on: str) -> str | None:
    """An ``id``-like column with one value per row in both frames, or None."""
    for col in scored.columns:
        if col == on or not isinstance(col, str) or not _ID_NAME.match(col):
            continue
        if _id_trouble(baseline, scored, col) == []:
            return col
    return None


def _id_trouble(baseline: Any, scored: Any, col: str) -> list[str]:
    """Why ``col`` does not name one row each in both frames (none: it does)."""
    from ragnotebook.comparison import repeat_counts

    found: dict[str, list[str]] = {}  # what is wrong -> the files it is wrong in
    for side, frame in (("the baseline", baseline), ("this run", scored)):
        if col not in frame.columns:
            found.setdefault("it is missing from", []).append(side)
            continue
        if _repeats(frame, col):
            what = f"it repeats {repeat_counts(_value_counts(frame, col))} in"
            found.setdefault(what, []).append(side)
        empty = int(frame[col].isna().sum())
        if empty:
            found.setdefault(f"it has {empty} empty cell(s) in", []).append(side)
    return [
        f"{what} {sides[0] if len(sides) == 1 else 'both files'}" for what, sides in found.items()
    ]


def _repeat_advice(baseline: Any, scored: Any, on: str) -> str:
    """What to do about an ``--on`` column that repeats values: pass an id-like column
    that names one row each in both files, or make one do so."""
    better = _id_column(baseline, scored, on)
    if better:
        return f"pass --on {better} (one value per row in both files)"
    if _ID_NAME.match(on):  # --on id was passed: the ids themselves repeat
        return "give each row its own id" if on == "id" else f"give each row its own {on!r}"
    present = [c for c in (*scored.columns, *baseline.columns) if isinstance(c, str)]
    near = [c for c in dict.fromkeys(present) if c != on and _ID_NAME.match(c)]
    if near:  # an id column is there, but cannot pair the rows either
        col = near[0]
        why = " and ".join(_id_trouble(baseline, scored, col))
        return (
            f"the column {col!r} cannot pair them either: {why}; give each row its own "
            f"{col!r} in both files and pass --on {col}"
        )
    return (
        "give the rows an id column and pass --on id (the JSON Lines files "
        "'ragnotebook evaluate --out' writes keep rows' labels in a first column)"
    )


def _repeated_on_message(baseline: Any, scored: Any, on: str | None, labelled: bool = False) -> str:
    """The one message about an ``--on`` column that repeats values in either file: how
    many in each, how such rows are paired, and what to pass instead; ``""`` when no value
    repeats, or, with ``labelled`` (the rows' labels name them: :func:`_names_rows`),
    when every repeated value's rows pair by their labels (both files give them the same
    distinct labels, as ``evaluate --id`` writes them), which pairs each row with its own.
    Labels that are only positions (a file that kept none) pair a reordered file wrongly,
    so they settle nothing.

    This message stands for :func:`ragnotebook.compare`'s own warnings about the same
    repeats (one per file, whose advice names the Python keywords ``on='id'`` and
    ``on=None``): the commands leave those out."""
    from ragnotebook.comparison import RepeatedKeyWarning, pair_rows, repeat_counts

    if on is None or not (_repeats(baseline, on) or _repeats(scored, on)):
        return ""
    if labelled:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RepeatedKeyWarning)
            if not pair_rows(baseline, scored, on).in_order:
                return ""  # every repeated value's rows paired by label: no doubt to report
    counts = [
        (side, repeat_counts(_value_counts(frame, on)))
        for side, frame in (("the baseline", baseline), ("this run", scored))
        if _repeats(frame, on)
    ]
    if len(counts) == 2 and counts[0][1] == counts[1][1]:
        where = f"{counts[0][1]} in both the baseline and this run"
    else:
        where = " and ".join(f"{n} in {side}" for side, n in counts)
    return (
        f"rows are paired by {on!r}, which repeats {where}, so a row may be compared "
        "with another row that has the same value (such rows are paired by row label where "
        "both files give them the same labels, else in order of appearance); "
        + _repeat_advice(baseline, scored, on)
    )


def _warn_repeated_on(
    baseline: Any,
    scored: Any,
    on: str | None,
    label: str = "",
    command: str = "evaluate",
    labelled: bool = False,
) -> None:
    """Warn, in one message (:func:`_repeated_on_message`), when the ``--on`` column
    repeats values in either file and some of their rows may pair with the wrong row."""
    text = _repeated_on_message(baseline, scored, on, labelled)
    if text:
        _warning(f"{label}{text}", command)


def _names_rows(frame: Any) -> bool:
    """Whether a frame's row labels name its rows (``--id``, the labels a file kept), not
    only their positions (the 0, 1, 2, ... of a file that kept none)."""
    import pandas as pd

    return not isinstance(frame.index, pd.RangeIndex)


def _by_row_labels(frame: Any, id_column: str | None = None) -> Any:
    """A file's frame (a baseline) with its rows named as this run's are, so that rows
    sharing a ``--on`` value pair by label (:func:`ragnotebook.compare`): by
    ``id_column``'s values (``evaluate --id``) when the frame has that column, else by the
    labels its file kept (:func:`with_row_labels`). Every column stays a column, for
    ``--on`` and ``--by``."""
    if id_column is not None and id_column in frame.columns:
        import pandas as pd

        labels = pd.Index(frame[id_column].tolist(), dtype=object)  # as this run's are
        return frame.set_axis(labels, axis=0)
    return with_row_labels(frame, keep=[str(c) for c in frame.columns])


def _warn_other_judge(baseline: Any, scored: Any) -> None:
    """Warn when the baseline was scored by another judge, model or prompt version than
    this run: a difference in scores may then come from the judge, not the system."""
    from ragnotebook.comparison import judge_changes, other_judge_message

    changed = judge_changes(baseline, scored)
    if changed:
        _warning(other_judge_message(changed))


def _baseline_checks(
    baseline: Any,
    scored: Any,
    metrics: Sequence[str],
    on: str | None,
    max_drop: float,
    by: str | None,
    labelled: bool = False,
) -> list[str]:
    """:func:`check_baseline` on the whole run, or with ``--by`` group by group (each
    system against its own baseline rows: a drop of one system is not averaged away,
    and the failure names it)."""

    def check(theirs: Any, mine: Any, label: str = "") -> list[str]:
        return check_baseline(
            theirs, mine, metrics, on=on, max_drop=max_drop, label=label, labelled=labelled
        )

    if by is None:
        return check(baseline, scored)
    if by not in baseline.columns:
        _warning(
            f"--by {by!r}: the baseline has no such column, so all rows are compared with "
            "the baseline at once"
        )
        return check(baseline, scored)
    from ragnotebook.views._data import group_name

    def rows_of(frame: Any, key: Any) -> Any:
        column = frame[by]
        return frame[column.isna()] if group_name(key) == "(missing)" else frame[column == key]

    failures: list[str] = []
    keys = list(dict.fromkeys(group_name(k) for k in scored[by].tolist()))
    values = {group_name(k): k for k in scored[by].tolist()}
    for name in keys:
        mine, theirs = rows_of(scored, values[name]), rows_of(baseline, values[name])
        label = f"{by}={name}: "
        if not len(theirs):
            _warning(f"{label}no rows of this group in the baseline; not compared")
            continue
        failures += check(theirs, mine, label)
    gone = sorted({group_name(k) for k in baseline[by].tolist()} - set(keys))
    if gone:
        _warning(f"--by {by!r}: only in the baseline, not compared: {', '.join(gone)}")
    return failures


def check_baseline(
    baseline: Any,
    scored: Any,
    metrics: Sequence[str],
    *,
    on: str | None,
    max_drop: float,
    label: str = "",
    labelled: bool = False,
) -> list[str]:
    """Compare against a baseline frame; print the table; return the failed checks.

    A metric fails when its paired mean difference (new - baseline) is below
    ``-max_drop`` with ``p_value < 0.05``, or when its coverage drops by more
    than ``max_drop``. The comparison's warnings (repeated pairing values,
    coverage differences) are shown on stderr, with a better ``--on`` when the
    pairing column repeats values.

    Parameters
    ----------
    baseline, scored : pandas.DataFrame
        The baseline (``a``) and this run (``b``).
    metrics : sequence of str
        The evaluated metrics; those the baseline was not scored on are skipped.
    on : str or None
        The column pairing the rows (see :func:`ragnotebook.compare`).
    max_drop : float
        The tolerated drop in mean and in coverage.
    label : str, default ""
        A group's name before every line and message (``"system=B: "``), when the
        comparison is made per group (``--by``).
    labelled : bool, default False
        Whether both frames' row labels name the rows (``evaluate --id``, the labels a
        file kept), not only their positions: then a pairing column that repeats values
        is not warned about when every repeated value's rows pair by label.

    Returns
    -------
    list of str
        One message per failed check; also printed, with the passed ones, to stdout.

    Raises
    ------
    DataError
        When the baseline has none of ``metrics``.
    """
    import pandas as pd

    from ragnotebook.comparison import RepeatedKeyWarning, as_runs, compare
    from ragnotebook.frame import scored_metrics

    shared = [m for m in metrics if m in scored_metrics(baseline)]
    skipped = [m for m in metrics if m not in shared]
    if skipped:
        print(f"baseline: not scored on {', '.join(skipped)}; not compared", file=sys.stderr)
    if not shared:
        raise DataError("--baseline: the baseline file has none of the evaluated metrics")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = compare(baseline, scored, on=on, metrics=shared)
    for w in caught:
        if issubclass(w.category, RepeatedKeyWarning):
            continue  # said once, naming --on, by _warn_repeated_on below
        text = as_runs(str(w.message).removeprefix("ragnotebook.compare: "))
        _warning(f"{label}against the baseline: {text.replace(*_STRICT_NOTE)}")
    _warn_repeated_on(baseline, scored, on, label, labelled=labelled)
    cols = [
        "n_pairs",
        "mean_a",
        "mean_b",
        "mean_diff",
        "ci_low",
        "ci_high",
        "p_value",
        "coverage_a",
        "coverage_b",
        "n_lost",
        "n_only_a",
        "n_only_b",
    ]
    with pd.option_context("display.width", 160, "display.max_columns", 30):
        print(
            f"\n{label}{'against' if label else 'Against'} the baseline (a = baseline, b = "
            "this run; diff = b - a, "
            "paired rows):"
        )
        print(_half_up(table[cols], 4).to_string())
    failures: list[str] = []
    for m, row in table.iterrows():
        diff, p = float(row["mean_diff"]), float(row["p_value"])
        if not math.isnan(diff) and diff < -max_drop and p < BASELINE_ALPHA:
            msg = (
                f"{label}{m}: significant drop against the baseline: mean diff {diff:+.3f} "
                f"(95% CI {row['ci_low']:+.3f} to {row['ci_high']:+.3f}, p={p:.4f})"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
        elif math.isnan(diff):
            # no row scored in both runs: there is nothing to compare, which is no "ok"
            print(
                f"--   {label}{m}: nothing to compare ({int(row['n_pairs'])} rows scored in "
                "both runs)"
            )
        else:
            note = ""
            changed = int(row["n_better"]) + int(row["n_worse"])
            if diff < -max_drop and 2.0 ** (1 - changed) >= BASELINE_ALPHA:
                # the sign-flip test's smallest p-value with k changed rows is 2 / 2**k
                need = next(k for k in range(1, 64) if 2.0 ** (1 - k) < BASELINE_ALPHA)
                note = (
                    f"; only {changed} paired row(s) changed, and the test cannot reach "
                    f"p < {BASELINE_ALPHA} with fewer than {need}: set a floor with "
                    "--fail-under"
                )
            print(f"ok   {label}{m}: no significant drop (mean diff {diff:+.3f}, p={p:.4f}{note})")
        cov_diff = float(row["coverage_diff"])
        if cov_diff < -max_drop:
            msg = (
                f"{label}{m}: coverage dropped against the baseline: {row['coverage_a']:.3f} -> "
                f"{row['coverage_b']:.3f} ({_coverage_causes(row)})"
            )
            failures.append(msg)
            print(f"FAIL {msg}")
    return failures


def _unfinished(scored: Any, metrics: Sequence[str]) -> int:
    """How many row-metrics an interrupted run left unscored (status ``error``, cancelled)."""
    from ragnotebook.engine import CANCELLED_MESSAGE

    return sum(
        int((scored[f"{m}_error"].astype("string") == CANCELLED_MESSAGE).sum()) for m in metrics
    )


@contextlib.contextmanager
def _showing_warnings(
    show: Callable[[str, TextIO | None, Callable[[str], None]], None],
) -> Iterator[None]:
    """Route every warning shown in the block through ``show(text, file, previous)``;
    ``previous(text)`` shows ``text`` the way the replaced ``warnings.showwarning`` would."""
    shown = warnings.showwarning

    def hook(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        show(str(message), file, lambda text: shown(text, category, filename, lineno, file, line))

    warnings.showwarning = hook
    try:
        yield
    finally:
        warnings.showwarning = shown


def _rewritten_warnings(rewrite: Callable[[str], str]) -> contextlib.AbstractContextManager[None]:
    """Pass every warning's text through ``rewrite`` before it is shown."""
    return _showing_warnings(lambda text, _file, previous: previous(rewrite(text)))


def _coverage_causes(row: Any) -> str:
    """What a coverage drop is made of: baseline rows absent from this run, rows that
    lost their score, and rows new in this run that are not scored."""
    only_a, lost, only_b = (int(row[c]) for c in ("n_only_a", "n_lost", "n_only_b"))
    parts = [
        f"{only_a} baseline row(s) missing from this run",
        f"{lost} row(s) scored in the baseline lost their score",
    ]
    if only_b:
        parts.append(f"{only_b} row(s) of this run not in the baseline")
    return ", ".join(parts)


def _as_options(message: str) -> str:
    """An API message's remedies as this command's options: ``metrics=['context_precision',
    'faithfulness']`` as ``--metrics precision,faithfulness``, ``columns={'ground_truth':
    'gold answer'}`` as ``--column "ground_truth=gold answer"``, ``raise timeout=`` as
    ``raise --timeout``, ``model='offline'`` as ``--model offline``, ``with api_base=...``
    as ``with --api-base URL``; ``custom_llm_provider=``, which has no option, is left out.

    Examples
    --------
    >>> _as_options("no call in time; if the model is only slow to start, raise timeout=")
    'no call in time; if the model is only slow to start, raise --timeout'
    """

    def metrics(found: re.Match[str]) -> str:
        names = re.findall(r"'(\w+)'", found.group(1))
        return "--metrics " + ",".join(n.removeprefix("context_") for n in names)

    def column(found: re.Match[str]) -> str:
        name = found.group(2)
        if name == "<column name>":
            return f"--column {found.group(1)}=COLUMN"
        return f"--column {shlex.quote(f'{found.group(1)}={name}')}"

    message = re.sub(r"metrics=\[([^\]]*)\]", metrics, message)
    message = re.sub(r"\braise timeout=(?![\w.])", "raise --timeout", message)
    # the judge's remedies as options; custom_llm_provider= has no option of its own
    message = message.replace(", or pass custom_llm_provider=...", "")
    message = message.replace("model='offline'", "--model offline")
    message = re.sub(r"\breference='(\w+)'", r"--reference \1", message)
    message = re.sub(r"\bwith api_base=\.\.\.", "with --api-base URL", message)
    return re.sub(r"columns=\{'(\w+)': '([^'{}]*)'\}", column, message)


def evaluate_command(args: argparse.Namespace) -> int:
    """``ragnotebook evaluate``: score a file, print the summary, write it, run the checks."""
    import pandas as pd

    import ragnotebook as rn
    from ragnotebook.api import EmptyColumnWarning

    metrics = parse_metrics(args.metrics)
    thresholds = parse_thresholds(args.fail_under or [])
    columns = parse_columns(args.column or [])
    unknown = [m for m in thresholds if m not in metrics]
    if unknown:
        raise UsageError(f"--fail-under names {', '.join(unknown)}, not in --metrics")
    if args.min_coverage is not None and not 0 <= args.min_coverage <= 1:
        raise UsageError("--min-coverage must be between 0 and 1")
    if args.concurrency < 1:
        raise UsageError("--concurrency must be >= 1")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be >= 1")
    if args.workers is None:
        from ragnotebook._workers import env_workers

        try:
            env_workers()  # a bad RAGNOTEBOOK_WORKERS is a usage error, before any reading
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    _check_out(args.out)
    model = args.model or rn.get_default_model()
    options = _llm_options(model, args.api_base, args.timeout, args.num_retries)
    if args.no_cache:
        options["cache"] = False

    max_drop = parse_max_drop(args.max_drop)

    df, places = _read_located(args.data)
    if len(df) == 0:
        # an empty export must not pass a CI job with NaN means
        raise DataError(f"{args.data}: no rows to score (the file holds no data rows)")
    columns = _resolve_columns(columns, df)
    baseline = None
    on: str | None = args.on
    if args.baseline is not None:
        baseline = read_table(args.baseline)
        _check_baseline_file(args.baseline, baseline, metrics)
        base_col, on = _pairing_columns(args.on, baseline, df, columns)
        _check_pairs(args.baseline, baseline, base_col, args.data, df, on)
        if base_col != on:  # e.g. --column question=q here, "question" in the baseline
            baseline = baseline.rename(columns={base_col: on})
        baseline = _by_row_labels(baseline, args.id)
    from ragnotebook.views._data import column_hint

    if args.by is not None and args.by not in df.columns:
        # before scoring: a typo must not cost a run
        raise UsageError(
            f"--by {args.by!r}: no such column in {args.data}; "
            + column_hint(df, args.by, "the file")
        )
    if args.id is not None:
        if args.id not in df.columns:
            raise UsageError(
                f"--id {args.id!r}: no such column in {args.data}; "
                + column_hint(df, args.id, "the file")
            )
        counts = df[args.id].dropna().astype(str).value_counts().tolist()
        repeated = any(n > 1 for n in counts)
        empty = int(df[args.id].isna().sum())
        if repeated or empty:
            from ragnotebook.comparison import repeat_counts

            said = []
            if repeated:
                said.append(f"repeats {repeat_counts(counts)}")
            if empty:
                said.append(f"has {empty} empty cell(s)")
            _warning(
                f"--id {args.id!r} {' and '.join(said)}: rows with the same label are told "
                "apart by their position only"
            )
        # the rows are named by the column's values in messages, the summary of the worst
        # rows, the output and its report ("B:q04"); the column itself stays for --on/--by
        df = df.set_axis(pd.Index(df[args.id].tolist(), dtype=object), axis=0)
        places.name_rows(df.index.tolist())
    # (the rows are checked when scoring starts: say what was read, not that it is scored)
    read = f"{len(df)} row{'' if len(df) == 1 else 's'}"
    print(f"ragnotebook: {read} read from {args.data}; judge {model!r}", file=sys.stderr)
    if not args.model and not os.environ.get("RAGNOTEBOOK_MODEL", "").strip():
        # a CI job that lost its model variable must not score with the heuristic unawares
        print(
            "ragnotebook evaluate: note: no --model and no RAGNOTEBOOK_MODEL, so the offline "
            "judge is used (a deterministic word-overlap heuristic, not an LLM)",
            file=sys.stderr,
        )
    try:
        with (
            warnings.catch_warnings(),
            _rewritten_warnings(lambda text: places.rewrite(_as_options(text))),
        ):
            # the command prints its own line per metric with the first error (below)
            warnings.filterwarnings("ignore", message="ragnotebook: rows failed")
            # a column with no value at all fails the command, as a missing one does
            warnings.filterwarnings("error", category=EmptyColumnWarning)
            scored = rn.evaluate(
                df,
                metrics=metrics,
                model=model,
                columns=columns or None,
                concurrency=args.concurrency,
                progress=not args.no_progress,
                workers=args.workers,
                **({"reference": args.reference} if args.reference else {}),
                **options,
            )
    except EmptyColumnWarning as exc:
        message = _as_options(str(exc))
        hint = "" if "--metrics" in message else " (or name other metrics with --metrics)"
        raise DataError(message + hint) from exc
    except ValueError as exc:
        message = _as_options(str(exc))
        hint = " (on the command line: --column ROLE=COLUMN)" if "columns=" in message else ""
        raise DataError(f"{places.rewrite(message)}{hint}") from exc
    except TypeError as exc:
        raise UsageError(str(exc)) from exc
    last_run = (scored.attrs.get("ragnotebook") or {}).get("last_run") or {}
    if last_run.get("interrupted") and _unfinished(scored, metrics):
        # the library keeps the finished rows and returns; a CI job must not read that as a
        # finished run: no checks, exit 130, and the partial frame never under --out's name
        # what the part that ran spent, and how to go on (an LLM judge's finished answers
        # are in the cache: the same command again pays only for the rest)
        spent = _usage_line(rn.summary(scored), _shared(scored))
        cached = options.get("cache", True) is not False and spent
        again = (
            "; run the same command again to finish: the answers already paid for come from "
            "the judge cache"
            if cached
            else ""
        )
        if args.out is not None:
            partial = _partial(args.out)
            path = _write_frame(scored, partial)
            print(
                f"ragnotebook evaluate: interrupted; the finished rows are in {path} "
                f"(not {args.out}); no check was run{again}",
                file=sys.stderr,
            )
        else:
            print(f"ragnotebook evaluate: interrupted; no check was run{again}", file=sys.stderr)
        if spent:
            print(f"{spent} (the part that ran)", file=sys.stderr)
        return EXIT_INTERRUPTED
    # the run is complete: a Ctrl-C from here on (printing, writing --out, the checks)
    # must not throw it away (docs/cli.md, exit code 130)
    with _complete_despite_ctrl_c():
        summary = rn.summary(scored)
        _print_summary(
            summary,
            "Summary (mean over scored rows; 'scored' = measured / total):",
            shared=_shared(scored),
        )
        _print_failures(scored, summary.index, places.rewrite)
        if args.out is not None:
            try:
                path = _write_frame(scored, args.out)
            except ImportError as exc:
                raise RuntimeError(f"cannot write Parquet without pyarrow ({exc})") from exc
            print(f"\nScored frame ({len(scored)} rows) written to {path}{_run_file_note(path)}")
            # the finished rows an interrupted run of the same --out left aside are superseded
            stale = _partial(args.out)
            for leftover in (stale, stale.with_name(f"{stale.name}.run.json")):
                if leftover.is_file():
                    with contextlib.suppress(OSError):
                        leftover.unlink()
                        print(
                            f"ragnotebook evaluate: removed {leftover.name}, left by an interrupted "
                            "run: this run is complete",
                            file=sys.stderr,
                        )

        groups = None
        if args.by is not None:
            from ragnotebook.views._data import group_name

            groups = rn.summary(scored, by=args.by)
            # a missing group prints as "(missing)", a blank one quoted (as the views name them)
            shown = groups.rename(index=group_name, level=0)
            _print_summary(shown, f"\nPer {args.by}:", usage=False)
        failures: list[str] = []
        if thresholds or args.min_coverage is not None:
            print("\nChecks:")
            if groups is None:
                failures += check_thresholds(summary, thresholds, args.min_coverage)
            else:
                # every group must pass on its own: a mean over all systems can hide one
                for key in dict.fromkeys(groups.index.get_level_values(0)):
                    failures += check_thresholds(
                        groups.xs(key, level=0),
                        thresholds,
                        args.min_coverage,
                        f"{args.by}={group_name(key)}: ",
                    )
        if baseline is not None:
            _warn_other_judge(baseline, scored)
            named = _names_rows(baseline) and _names_rows(scored)
            failures += _baseline_checks(baseline, scored, metrics, on, max_drop, args.by, named)
        if failures:
            print(
                f"ragnotebook: {len(failures)} check(s) failed: " + "; ".join(failures),
                file=sys.stderr,
            )
            return EXIT_CHECKS_FAILED
        from ragnotebook.frame import scored_mask

        ran = [m for m in metrics if f"{m}_status" in scored.columns]
        unmeasured = [
            m
            for m in ran
            if not scored_mask(scored, m).any() and (scored[f"{m}_status"] == "error").any()
        ]
        if unmeasured and len(unmeasured) == len(ran):
            # a judge that failed on every row (no key, server down): the run measured
            # nothing, which a job that only looks at the exit code must not take for a
            # pass (a failed check, asked for, says exit 1 first)
            print(
                "ragnotebook evaluate: no row could be scored: every row failed (the first "
                "error of each metric is above)",
                file=sys.stderr,
            )
            return EXIT_RUNTIME
        if unmeasured:
            # one metric failed everywhere (a judge that answers "supported" for yes): the
            # others' scores are fine, but a job gated on the exit code would pass with
            # that metric never measured
            print(
                f"ragnotebook evaluate: {', '.join(unmeasured)} could not be scored on any row: "
                "every row that could be judged failed (the first error is above); the other "
                "metrics are scored and written",
                file=sys.stderr,
            )
            return EXIT_RUNTIME
        return EXIT_OK


def _print_failures(
    scored: Any, metrics: Iterable[str], rewrite: Callable[[str], str] = str
) -> None:
    """One stderr line per metric with failed rows: how many, and the first row's error
    (with the command-line spelling of options, and where a key goes)."""
    for m in metrics:
        errors = scored[f"{m}_error"].dropna()
        if len(errors):
            first = _as_options(str(errors.iloc[0]))
            if "api_key=" in first:
                # keys are never command-line options (docs/cli.md)
                first += (
                    " [on the command line: set the provider's key in the environment, e.g. "
                    "OPENAI_API_KEY=... (any string for a server without authentication)]"
                )
            label = errors.index.tolist()[0]
            print(
                rewrite(
                    f"ragnotebook: {m}: {len(errors)} row(s) failed; first error (row "
                    f"{label!r}): {first}"
                ),
                file=sys.stderr,
            )


def _llm_options(
    model: Any, api_base: str | None, timeout: float | None, num_retries: int | None
) -> dict[str, Any]:
    """The judge options of ``--api-base``, ``--timeout`` and ``--num-retries``, checked:
    they apply to LLM models only, a timeout is > 0 seconds, retries >= 0."""
    options: dict[str, Any] = {}
    llm_only = {
        "--api-base": ("api_base", api_base),
        "--timeout": ("timeout", timeout),
        "--num-retries": ("num_retries", num_retries),
    }
    for flag, (name, value) in llm_only.items():
        if value is None or value == "":
            continue
        if isinstance(model, str) and model.strip().lower() == "offline":
            raise UsageError(f"{flag} applies to LLM models, not the offline judge")
        options[name] = value
    if api_base and not re.match(r"(?i)https?://", api_base.strip()):
        raise UsageError(
            f"--api-base must start with http:// or https://, got {api_base!r} (did you mean "
            f"--api-base http://{api_base.strip()}?)"
        )
    if timeout is not None and timeout <= 0:
        raise UsageError("--timeout must be > 0 seconds")
    if num_retries is not None and num_retries < 0:
        raise UsageError("--num-retries must be >= 0")
    return options


@contextlib.contextmanager
def _complete_despite_ctrl_c() -> Iterator[None]:
    """Finish the block when the user presses Ctrl-C once: the first SIGINT only prints a
    note; a second one stops the command (exit 130). In the main thread only (elsewhere
    signals cannot be handled and the block runs as it is)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = 0

    def on_sigint(signum: int, frame: Any) -> None:
        nonlocal pressed
        pressed += 1
        if pressed > 1:
            raise KeyboardInterrupt
        print(
            "ragnotebook evaluate: Ctrl-C after the last row was scored: the run is complete, "
            "so it is written and checked (press Ctrl-C again to stop without that)",
            file=sys.stderr,
        )

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --------------------------------------------------------------------------- report


def report_command(args: argparse.Namespace) -> int:
    """``ragnotebook report``: write the HTML report of a scored file."""
    if args.out.is_dir():
        _check_writable(args.out, example="report.html")  # "is a folder", before the suffix
    if args.out.suffix.lower() not in (".html", ".htm"):
        raise UsageError(
            f"--out: {args.out.name!r} must end in .html (the report is one HTML page)"
        )
    _check_writable(args.out, example="report.html")
    scored = read_table(args.scored)
    from ragnotebook.frame import scored_metrics

    if not scored_metrics(scored):
        raise DataError(f"{args.scored}: no ragnotebook scores in this file")
    try:
        import plotly.offline  # noqa: F401

        import ragnotebook.views._report  # noqa: F401
    except ImportError as exc:
        raise RuntimeError(
            "the HTML report is not available in this installation "
            f"({type(exc).__name__}: {exc}); install the views with "
            f"{_clone_install('plot')} or update ragnotebook"
        ) from exc
    if args.by is not None and args.by not in scored.columns:
        from ragnotebook.views._data import column_hint

        raise UsageError(
            f"--by: {args.by!r} is not a column of {args.scored.name}; "
            + column_hint(scored, args.by, "the file")
        )
    sort_by = None
    if args.sort_by is not None:
        sort_by = _metric(args.sort_by, "--sort-by")
        if sort_by not in scored_metrics(scored):
            raise UsageError(
                f"--sort-by: {args.scored.name} has no {sort_by} scores (it has "
                + ", ".join(scored_metrics(scored))
                + ")"
            )
    if args.max_rows is not None and args.max_rows < 0:
        raise UsageError(f"--max-rows: expected 0 or more rows, got {args.max_rows}")
    if args.top < 1:
        raise UsageError(f"--top: expected a whole number of at least 1, got {args.top}")
    baseline = None
    on: str | None = None
    repeated = ""  # the message about a --on that repeats values, if any
    if args.baseline is not None:
        # checked as evaluate checks its baseline: before any page is built (exit 3)
        have = scored_metrics(scored)
        baseline = read_table(args.baseline)
        _check_baseline_file(
            args.baseline, baseline, have, f"the metrics of {args.scored.name}", "report"
        )
        meta = scored.attrs.get("ragnotebook") or {}
        mapping = meta.get("columns") if isinstance(meta, dict) else None
        columns = {
            role: col
            for role, col in (mapping if isinstance(mapping, dict) else {}).items()
            if isinstance(col, str)
        }
        base_col, on = _pairing_columns(args.on, baseline, scored, columns, "the scored file")
        _check_pairs(args.baseline, baseline, base_col, args.scored, scored, on)
        if base_col != on:  # e.g. "q" here, "question" in the baseline
            baseline = baseline.rename(columns={base_col: on})
        skipped = [m for m in have if m not in scored_metrics(baseline)]
        if skipped:
            print(f"baseline: not scored on {', '.join(skipped)}; not compared", file=sys.stderr)
        # both files' rows named by the labels they kept, as the page pairs them
        baseline, rows = _by_row_labels(baseline), _by_row_labels(scored)
        named = _names_rows(baseline) and _names_rows(rows)
        repeated = _repeated_on_message(baseline, rows, on, named)
        if repeated:
            _warning(repeated, "report")
    if "ragnotebook" not in scored.attrs:
        side = _run_file_read(args.scored)
        if _format(args.scored) not in _JSONL:
            where = "the file keeps none"
        elif side.is_file():
            where = f"{side.name} beside it was not used"
        else:
            where = f"no {side.name} beside it"
        _warning(
            f"{args.scored.name} has no run metadata ({where}): the page says 'judge "
            "unknown' and names rows by position unless the file has their labels",
            "report",
        )
    options: dict[str, Any] = {
        "by": args.by,
        "sort_by": sort_by,
        "max_rows": args.max_rows,
        "max_k": args.max_k,
        "top": args.top,
    }
    if args.title is not None:
        options["title"] = args.title
    if baseline is not None:
        options["baseline"], options["on"] = baseline, on
    labelled = with_row_labels(scored, keep=[c for c in (args.by, on) if c])
    from ragnotebook.views._baseline import repeated_key_note

    # the repeats of --on are said once above, naming --on, and the page says the same in
    # place of compare()'s notes, which name the Python on=; the warnings of report()
    # are the command's, not a Python call's
    with repeated_key_note(repeated), _rewritten_warnings(_as_report_options):
        path = labelled.rag.report(args.out, plotly_js=args.plotly_js, **options)
    print(f"Report written to {path}")
    return EXIT_OK


def _as_report_options(message: str) -> str:
    """A warning of :func:`ragnotebook.views.report` as ``ragnotebook report`` gives it:
    without the ``report(): `` that names the Python call, and with the options for its
    keywords ``max_rows=`` and ``sort_by=``.

    Examples
    --------
    >>> _as_report_options("report(): 6,000 rows; pass max_rows= (with sort_by= first)")
    '6,000 rows; pass --max-rows N (with --sort-by METRIC first)'
    """
    message = message.removeprefix("report(): ")
    message = re.sub(r"\bmax_rows=(?![\w'\"])", "--max-rows N", message)
    return re.sub(r"\bsort_by=(?![\w'\"])", "--sort-by METRIC", message)


# --------------------------------------------------------------------------- main


def _max_k(text: str) -> int | None:
    """``report --max-k``: a whole number of at least 1, or ``all`` (``None``: every rank)."""
    if text.strip().casefold() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at least 1 or 'all', got {text!r}"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ragnotebook",
        description="Judge RAG rows: context recall, context precision and faithfulness.",
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 input/data error, "
        "4 runtime error, 130 interrupted.",
    )
    from ragnotebook._version import __version__

    parser.add_argument("--version", action="version", version=f"ragnotebook {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    qs = sub.add_parser(
        "quickstart",
        help="score the bundled real sample (offline judge unless --model names another)",
        description="Score the bundled real rows (HotpotQA, RAGTruth, HaluEval) on all three "
        "metrics (with the offline judge, or the LLM judge --model names), print the summary "
        "and the lowest-scoring rows with what they miss, and write the scored frame "
        "(default: ragnotebook_quickstart.jsonl).",
    )
    qs.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help="where to write the scored frame (.parquet / .pq or .jsonl / .ndjson, which may end in .gz, .bz2, .xz)",
    )
    qs.add_argument(
        "--model", default="offline", metavar="MODEL", help="judge model (default: offline)"
    )
    qs.add_argument(
        "--api-base", default=None, metavar="URL", help="base URL of an OpenAI-compatible server"
    )
    qs.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="LLM models: seconds to wait for one reply (default 60)",
    )
    qs.add_argument(
        "--num-retries",
        type=int,
        default=None,
        metavar="N",
        help="LLM models: retries of a failed call (default 4; 429s have their own budget)",
    )
    qs.add_argument(
        "--worst",
        type=int,
        default=5,
        metavar="N",
        help="how many low-scoring rows to show (default: 5)",
    )

    ev = sub.add_parser(
        "evaluate",
        help="score a CSV / JSONL / Parquet file; gate on thresholds for CI",
        description="Score a file of RAG rows, print the summary and run the requested checks.",
    )
    ev.add_argument(
        "data",
        type=Path,
        metavar="DATA",
        help="input rows: .csv, .jsonl, .json or .parquet (text formats may end in .gz, .bz2, .xz)",
    )
    ev.add_argument(
        "--metrics",
        default="recall,precision,faithfulness",
        metavar="METRIC,...",
        help="comma-separated metrics (default: recall,precision,faithfulness)",
    )
    ev.add_argument(
        "--model",
        default=None,
        metavar="MODEL",
        help="litellm model, e.g. openai/gpt-4o-mini, or 'offline' "
        "(default: $RAGNOTEBOOK_MODEL, else offline)",
    )
    ev.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help="scored frame: .parquet / .pq or .jsonl / .ndjson (may end in .gz, .bz2, .xz)",
    )
    ev.add_argument(
        "--column",
        action="append",
        metavar="ROLE=COLUMN",
        help="map a role (question, answer, contexts, ground_truth) to a column; repeatable",
    )
    ev.add_argument(
        "--api-base", default=None, metavar="URL", help="base URL of an OpenAI-compatible server"
    )
    ev.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="LLM models: seconds to wait for one reply (default 60)",
    )
    ev.add_argument(
        "--num-retries",
        type=int,
        default=None,
        metavar="N",
        help="LLM models: retries of a failed call (default 4; 429s have their own budget)",
    )
    ev.add_argument(
        "--fail-under",
        action="append",
        metavar="METRIC=VALUE,...",
        help="exit 1 when a metric's mean is below VALUE (e.g. recall=0.7,faithfulness=0.8)",
    )
    ev.add_argument(
        "--id",
        default=None,
        metavar="COLUMN",
        help="name the rows by COLUMN's values (e.g. 'B:q04'); the output keeps them as "
        "row labels, which the report shows and its filter finds",
    )
    ev.add_argument(
        "--by",
        default=None,
        metavar="COLUMN",
        help="also summarise per value of COLUMN (e.g. system); --fail-under and "
        "--min-coverage then apply to every group",
    )
    ev.add_argument(
        "--min-coverage",
        type=float,
        default=None,
        metavar="SHARE",
        help="minimum share of rows scored (default 1.0 for --fail-under metrics; "
        "given explicitly, checked for every metric)",
    )
    ev.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="FILE",
        help="a previous scored file; exit 1 on a significant drop",
    )
    ev.add_argument(
        "--on",
        default="question",
        metavar="COLUMN",
        help="column pairing rows with --baseline (default: question)",
    )
    ev.add_argument(
        "--max-drop",
        type=float,
        default=0.02,
        metavar="SCORE",
        help="with --baseline, a metric fails when its mean drops by more than SCORE and the "
        "drop is significant (p < 0.05 over paired rows; fewer than 6 changed rows never are: "
        "add --fail-under), or its coverage drops by more than SCORE (0 to 1, default 0.02)",
    )
    ev.add_argument(
        "--concurrency",
        type=int,
        default=16,
        metavar="N",
        help="at most N judge calls in flight at once (default 16; halved after a 429 reply "
        "and raised back step by step)",
    )
    ev.add_argument(
        "--reference",
        choices=("auto", "ground_truth", "answer"),
        default=None,
        help="what context precision judges chunks against: the ground truth, the answer, or "
        "(auto, the default) the ground truth where a row has one, else its answer",
    )
    ev.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for the offline judge's rules (default: RAGNOTEBOOK_WORKERS, else up "
        "to 4 on Linux for 200+ row-metrics; 1 = this process only)",
    )
    ev.add_argument("--no-cache", action="store_true", help="do not use the judge-answer cache")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    rp = sub.add_parser(
        "report",
        help="write the HTML report of a scored file",
        description="Write the self-contained HTML report of a scored file (.parquet or .jsonl "
        "keep every verdict; .csv and .json are read too).",
    )
    rp.add_argument(
        "scored",
        type=Path,
        metavar="SCORED",
        help="a scored .parquet, .jsonl, .csv or .json file (text formats may end in .gz, "
        ".bz2, .xz)",
    )
    rp.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the .html file to write"
    )
    rp.add_argument(
        "--by",
        default=None,
        metavar="COLUMN",
        help="group the rows by COLUMN (e.g. system): a table of each group's means, "
        "each row's group, and a menu showing one group",
    )
    rp.add_argument("--title", default=None, metavar="TEXT", help="the page's title and heading")
    rp.add_argument(
        "--sort-by",
        default=None,
        metavar="METRIC",
        help="list the rows worst first by METRIC (recall, precision, faithfulness)",
    )
    rp.add_argument(
        "--max-rows",
        type=int,
        default=None,
        metavar="N",
        help="drill-down for at most N rows (the charts keep every row); 0: summary and "
        "charts only",
    )
    rp.add_argument(
        "--max-k",
        type=_max_k,
        default=20,
        metavar="K",
        help="ranks 1..K in the precision@k chart (default 20; a whole number of at least 1, "
        "or 'all' for every rank); the chart says how many rows have chunks past rank K",
    )
    rp.add_argument(
        "--top",
        type=int,
        default=20,
        metavar="N",
        help="rows in the missed-claims chart, worst first (default 20; a whole number of "
        "at least 1)",
    )
    rp.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="FILE",
        help="an earlier run's scored file: the page compares this run with it (means, "
        "changes, p-values, the rows that dropped most)",
    )
    rp.add_argument(
        "--on",
        default="question",
        metavar="COLUMN",
        help="column pairing rows with --baseline (default: question)",
    )
    rp.add_argument(
        "--plotly-js",
        choices=("inline", "cdn"),
        default="inline",
        help="inline (default): plotly.js in the file (about 5 MB, works offline); cdn: "
        "loaded from cdn.plot.ly (a small file; its charts need a network connection)",
    )
    return parser


def _plain_warnings(command: str) -> contextlib.AbstractContextManager[None]:
    """Show warnings as ``ragnotebook <command>: warning: ...`` on stderr.

    Python's format names the file and line that warned, which for a command is the
    ``ragnotebook`` launcher script: noise to someone running it from a shell.
    """

    def plain(text: str, file: TextIO | None, _previous: Callable[[str], None]) -> None:
        # the library's own "ragnotebook: " opening would say the name twice
        text = text.removeprefix("ragnotebook: ").replace(*_STRICT_NOTE)
        print(f"ragnotebook {command}: warning: {text}", file=file or sys.stderr)

    return _showing_warnings(plain)


class _ClosedPipeGuard(io.TextIOBase):
    """``sys.stdout`` for one command: when the reader of a pipe goes away (``ragnotebook
    quickstart | head``), the rest of the output is dropped and the command goes on, so
    ``--out`` is still written and the exit code still says whether the checks passed.
    The standard output's file descriptor is pointed at the null device, so that Python's
    own flush at exit has nowhere to fail."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.closed_pipe = False

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._drop()

    def _drop(self) -> None:
        self.closed_pipe = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)

    def isatty(self) -> bool:
        return bool(getattr(self._stream, "isatty", lambda: False)())

    @property
    def encoding(self) -> Any:  # type: ignore[override]  # the stream's, not None
        return getattr(self._stream, "encoding", None)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``ragnotebook`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 ok, 1 a check failed, 2 usage error, 3 input or data
        error, 4 runtime error, 130 interrupted (see the module docstring).

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "scored.jsonl"
    >>> main(["quickstart", "--out", str(out)])  # doctest: +ELLIPSIS
    Loaded ...
    0
    >>> data = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> _ = data.write_text(json.dumps({"question": "Where is the museum?",
    ...     "answer": "It is on Pier 4.", "contexts": ["The museum is on Pier 4."],
    ...     "ground_truth": "The museum is on Pier 4."}) + "\\n")
    >>> main(["evaluate", str(data), "--model", "offline", "--no-progress",
    ...       "--fail-under", "faithfulness=0.9"])  # doctest: +ELLIPSIS
    Summary ...
    ok   faithfulness: mean 1.000 >= 0.9
    ok   faithfulness: coverage 1.000 >= 1
    0
    """
    real_stdout = sys.stdout
    sys.stdout = _ClosedPipeGuard(real_stdout)
    try:
        return _main(argv)
    finally:
        guard, sys.stdout = sys.stdout, real_stdout
        if isinstance(guard, _ClosedPipeGuard):
            guard.flush()


def _main(argv: list[str] | None) -> int:
    who = "ragnotebook"  # "ragnotebook <command>" once the command is known
    try:
        try:
            args = _parser().parse_args(argv)
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
        who = f"ragnotebook {args.command}"
        with _plain_warnings(args.command):
            if args.command == "quickstart":
                options = _llm_options(args.model, args.api_base, args.timeout, args.num_retries)
                return quickstart(args.out, args.model, args.worst, options)
            if args.command == "evaluate":
                return evaluate_command(args)
            if args.command == "report":
                return report_command(args)
    except KeyboardInterrupt:  # at any point: reading, writing, the checks
        print(f"{who}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except UsageError as exc:
        print(f"{who}: usage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DataError as exc:
        print(f"{who}: input error: {exc}", file=sys.stderr)
        return EXIT_DATA
    except Exception as exc:
        print(f"{who}: error: {exc}", file=sys.stderr)
        return EXIT_RUNTIME
    return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
