"""A sqlite3 file cache of judge answers, so that a re-run never pays twice.

One row per judge answer, keyed by a SHA-256 digest of the judge's
``identity()`` (judge id, model, sampling parameters, the version of the
task's own prompt, structured-output mode), the task's inputs (``Task.to_dict()``) and
:data:`KEY_SCHEMA`. Anything that changes the answer changes the key; the API
key never enters it (secret-looking identity entries are dropped before
hashing, see :func:`scrub_identity`).

What is cached
    Only answers that were parsed and validated against the task's answer
    model. Errors, truncated replies and unparseable text are never written:
    the engine calls :meth:`JudgeCache.put` after a successful
    ``judge.acomplete``, so a re-run retries exactly what failed.

Concurrency
    The file is opened in WAL mode with ``synchronous=NORMAL`` and a 30 s busy
    timeout. Readers never wait for writers (other threads or processes);
    writers take the lock for one ``INSERT OR REPLACE`` at a time. Each thread
    (and each process) gets its own connection, opened on first use.

Async use
    :meth:`JudgeCache.aget` / :meth:`JudgeCache.aget_many` run inline on the
    event loop: a lookup by primary key is a few microseconds and, in WAL mode,
    never waits for a lock. :meth:`JudgeCache.aput` runs on one worker thread,
    because a write may wait for another process's lock or run a WAL
    checkpoint; the loop keeps serving calls meanwhile, and the answer is
    readable once ``aput`` returns.

A damaged file
    A file at a path the user named (``cache=``, a ``RAGNOTEBOOK_CACHE`` file)
    that is not a sqlite database, or a sqlite database without ragnotebook's
    table, raises :class:`CacheError` naming the path; the file is never
    touched. Only a ``judge_cache.sqlite3`` that ragnotebook named (in the
    user's cache folder, or in the folder ``RAGNOTEBOOK_CACHE_DIR`` or a
    ``RAGNOTEBOOK_CACHE`` folder gives) that is no sqlite database at all is
    renamed to ``*.corrupt-<time>`` (with its ``-wal``
    and ``-shm`` files, renamed alike, never deleted), with a warning, and a
    fresh cache started; a database of another program, one written by a newer
    ragnotebook or one locked by another process raises there too.

Examples
--------
>>> import tempfile, pathlib
>>> from ragnotebook.tasks import Claims, Task
>>> path = pathlib.Path(tempfile.mkdtemp()) / "cache.sqlite3"
>>> cache = JudgeCache(path)
>>> task = Task("extract_claims", "faithfulness", text="Paris is in France.", source="answer")
>>> key = JudgeCache.key({"judge": "litellm:openai/gpt-4o-mini", "temperature": 0}, task)
>>> cache.get(key) is None
True
>>> cache.put(key, Claims(claims=["Paris is in France."]), judge_id="litellm:openai/gpt-4o-mini",
...           model="openai/gpt-4o-mini", task_kind=task.kind,
...           usage={"prompt_tokens": 310, "completion_tokens": 12, "cost_usd": 5.4e-05})
>>> cache.get(key)
{'claims': ['Paris is in France.']}
>>> len(cache), cache.stats()["cost_usd"]
(1, 5.4e-05)
>>> cache.close()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ragnotebook._textsafe import replace_surrogates
from ragnotebook._warn import notify
from ragnotebook.tasks import ANSWER_MODELS, Answer, Task

__all__ = [
    "KEY_SCHEMA",
    "SECRET_WORDS",
    "CacheEntry",
    "CacheError",
    "JudgeCache",
    "answer_from_cache",
    "default_cache_path",
    "resolve_cache",
    "scrub_identity",
]

#: Mixed into every key; bump it when the key recipe or the stored answer format changes.
KEY_SCHEMA = 2

#: On-disk layout version, kept in ``PRAGMA user_version``.
_FILE_FORMAT = 1

#: Identity entries whose name contains one of these (case-insensitive) are dropped.
SECRET_WORDS: tuple[str, ...] = ("key", "token", "secret", "password", "authorization")

#: Token budgets: names that contain "token" but are numeric sampling limits, kept when numeric.
_NUMERIC_TOKEN_LIMITS = frozenset(
    {"max_tokens", "max_completion_tokens", "max_output_tokens", "max_new_tokens"}
)

_BUSY_TIMEOUT_S = 30.0
_IN_BATCH = 500  # keys per "WHERE key IN (...)" query (sqlite's variable limit is >= 999)

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS judge_answers (
    key TEXT PRIMARY KEY,
    answer TEXT NOT NULL,
    judge_id TEXT NOT NULL,
    model TEXT,
    kind TEXT NOT NULL,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    cost_usd REAL,
    created_at REAL NOT NULL
) WITHOUT ROWID
"""
_SQL_GET = (
    "SELECT answer, judge_id, model, kind, prompt_tokens, completion_tokens, cost_usd, "
    "created_at FROM judge_answers WHERE key = ?"
)
_SQL_PUT = (
    "INSERT OR REPLACE INTO judge_answers (key, answer, judge_id, model, kind, prompt_tokens, "
    "completion_tokens, cost_usd, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class CacheError(RuntimeError):
    """The cache file cannot be used (not a sqlite database, not ours, unreadable)."""

    #: True when the file is no sqlite database at all (damaged or another kind of file):
    #: the one case where the built-in default cache is moved aside and started afresh.
    damaged: bool = False


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """One cached answer with what it cost when it was first paid for.

    Attributes
    ----------
    answer : dict
        The validated answer, as JSON (``Claims``, ``Verdicts`` or ``Explanation``).
    judge_id, model, kind : str or None
        Who answered what kind of task.
    prompt_tokens, completion_tokens : int or None
        Usage of the original call (None when unknown).
    cost_usd : float or None
        Cost of the original call; what a cache hit saves.
    created_at : float
        Unix time of the write.
    """

    answer: dict[str, Any]
    judge_id: str
    model: str | None
    kind: str
    prompt_tokens: int | None
    completion_tokens: int | None
    cost_usd: float | None
    created_at: float


# --------------------------------------------------------------------------- keys


def _is_secret_name(name: str, value: Any) -> bool:
    low = name.lower()
    if not any(word in low for word in SECRET_WORDS):
        return False
    # "max_tokens" and friends are sampling limits, not secrets: keep them when numeric
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return not (low in _NUMERIC_TOKEN_LIMITS and (is_number or value is None))


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items() if not _is_secret_name(str(k), v)}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return int(value)  # temperature=0 and temperature=0.0 share answers
        return value if math.isfinite(value) else repr(value)
    return str(value)


def scrub_identity(identity: Mapping[str, Any]) -> dict[str, Any]:
    """A judge identity made canonical, with every secret-looking entry dropped.

    Entries whose name contains ``key``, ``token``, ``secret``, ``password`` or
    ``authorization`` (any case, at any depth) are removed, except numeric
    token budgets such as ``max_tokens``. Integral floats become ints, so
    ``temperature=0`` and ``temperature=0.0`` give the same key.

    Parameters
    ----------
    identity : mapping
        A judge's ``identity()``.

    Returns
    -------
    dict
        JSON-safe copy.

    Examples
    --------
    >>> scrub_identity({"model": "m", "api_key": "sk-1", "temperature": 0.0,
    ...                 "options": {"extra_headers": {"Authorization": "Bearer x"}},
    ...                 "max_tokens": 512})
    {'model': 'm', 'temperature': 0, 'options': {'extra_headers': {}}, 'max_tokens': 512}
    """
    out = _canonical(dict(identity))
    assert isinstance(out, dict)
    return out


def _key(identity: Mapping[str, Any], task: Task) -> str:
    scrubbed = scrub_identity(identity)
    versions = scrubbed.get("prompt_versions")
    if isinstance(versions, dict):
        # only the task's own prompt shapes its answer: overriding the verify prompt
        # keeps the cached claim extractions (each version hashes the shared parts too)
        scrubbed["prompt_versions"] = {task.kind: versions.get(task.kind)}
    blob = json.dumps(
        {"schema": KEY_SCHEMA, "identity": scrubbed, "task": task.to_dict()},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    # surrogatepass: a lone surrogate hashes (to its own key) instead of failing
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def answer_from_cache(kind: str, data: Mapping[str, Any] | None) -> Answer | None:
    """Validate a cached answer dict into the answer model for ``kind``.

    Returns ``None`` (treat as a miss) when ``data`` is ``None`` or no longer
    validates, e.g. after an answer model changed.

    Examples
    --------
    >>> answer_from_cache("extract_claims", {"claims": ["a"]})
    Claims(claims=['a'])
    >>> answer_from_cache("extract_claims", {"claims": 3}) is None
    True
    """
    if data is None:
        return None
    model = ANSWER_MODELS.get(kind)
    if model is None:
        return None
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError:
        return None


# --------------------------------------------------------------------------- paths


_OFF_WORDS = ("0", "false", "off", "no", "none")


def default_cache_path() -> Path:
    """The default cache file.

    ``RAGNOTEBOOK_CACHE`` (a file path; an existing folder means
    ``judge_cache.sqlite3`` in it) when set, else
    ``$RAGNOTEBOOK_CACHE_DIR/judge_cache.sqlite3`` when that is set, else
    ``<user cache dir>/judge_cache.sqlite3`` from
    ``platformdirs.user_cache_dir("ragnotebook")``.

    Examples
    --------
    >>> default_cache_path().name
    'judge_cache.sqlite3'
    """
    env_file = os.environ.get("RAGNOTEBOOK_CACHE", "").strip()
    if env_file and env_file.lower() not in _OFF_WORDS:
        given = Path(env_file).expanduser()
        # a folder is the natural guess for "where the cache goes": the file goes in it
        return given / "judge_cache.sqlite3" if given.is_dir() else given
    env_dir = os.environ.get("RAGNOTEBOOK_CACHE_DIR", "").strip()
    if env_dir:
        return Path(env_dir).expanduser() / "judge_cache.sqlite3"
    import platformdirs

    return Path(platformdirs.user_cache_dir("ragnotebook")) / "judge_cache.sqlite3"


_shared: dict[str, JudgeCache] = {}
_shared_lock = threading.Lock()


def resolve_cache(cache: bool | str | os.PathLike[str] | JudgeCache | None) -> JudgeCache | None:
    """Turn a ``cache=`` argument into a cache.

    Parameters
    ----------
    cache : bool, str, path-like, JudgeCache or None
        ``True`` or ``None``: the default file (see :func:`default_cache_path`),
        or no cache when the ``RAGNOTEBOOK_CACHE`` environment variable is
        ``0``, ``false``, ``off``, ``no`` or ``none``; ``False``: no cache; a
        path: a cache at that file; a :class:`JudgeCache`: used as it is.

    Returns
    -------
    JudgeCache or None
        For ``True``, ``None`` and paths, one shared instance per file and
        process (its connections are reused by later runs; callers need not
        close it, and a closed one is replaced on the next call).

    Raises
    ------
    TypeError
        For any other type.
    CacheError
        When the file exists but is not a usable cache.

    Examples
    --------
    >>> resolve_cache(False) is None
    True
    """
    if cache is False:
        return None
    if isinstance(cache, JudgeCache):
        return cache
    if cache is True or cache is None:
        if os.environ.get("RAGNOTEBOOK_CACHE", "").strip().lower() in _OFF_WORDS:
            return None
        name, path = "<default>", None
    elif isinstance(cache, str | os.PathLike):
        path = Path(cache).expanduser().absolute()
        name = str(path)
    else:
        raise TypeError(
            f"cache must be True, False, None, a path or a JudgeCache, got {type(cache).__name__}"
        )
    with _shared_lock:
        found = _shared.get(name)
        if (
            found is not None
            and not found.closed
            and (path is not None or found.path == default_cache_path())
        ):
            return found
        made = JudgeCache(path)
        _shared[name] = made
        return made


# --------------------------------------------------------------------------- the cache


class JudgeCache:
    """A sqlite3 file of validated judge answers, shared by threads and processes.

    Parameters
    ----------
    path : str or path-like, optional
        The cache file; created with its folder when missing. Default:
        :func:`default_cache_path`.

    Raises
    ------
    CacheError
        When the file at an explicit path is not a sqlite database, or is a
        database that is not a ragnotebook cache (see the module notes for the
        default path).

    Notes
    -----
    The object can be pickled (only the path travels), so it can be handed to
    ``multiprocessing`` workers; each process opens its own connection.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self._is_default = path is None
        # only a file ragnotebook named (judge_cache.sqlite3 in the user's cache folder or
        # in a folder the environment names) is its own: a file the user named
        # (RAGNOTEBOOK_CACHE=notes.db) may hold anything, and is never moved aside
        env_file = os.environ.get("RAGNOTEBOOK_CACHE", "").strip()
        self._owned = path is None and not (
            env_file and Path(env_file).expanduser() == default_cache_path()
        )
        self.path = Path(default_cache_path() if path is None else path).expanduser()
        self._lock = threading.Lock()
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._pid = os.getpid()
        self._writer: concurrent.futures.ThreadPoolExecutor | None = None
        self._closed = False
        self.hits = 0
        self.misses = 0
        self.puts = 0
        self.saved_prompt_tokens = 0
        self.saved_completion_tokens = 0
        self.saved_cost_usd = 0.0
        self._connect()  # open (and check) the file now, so errors surface at construction

    # ------------------------------------------------------------------ connections

    def __repr__(self) -> str:
        return f"JudgeCache({str(self.path)!r})"

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def __getstate__(self) -> dict[str, Any]:
        return {"path": str(self.path), "is_default": self._is_default}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(None if state["is_default"] else state["path"])  # type: ignore[misc]

    def __enter__(self) -> JudgeCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> sqlite3.Connection:
        if os.getpid() != self._pid:
            # forked: the parent's connections must not be used (nor closed) here
            self._pid = os.getpid()
            self._local = threading.local()
            self._connections = []
            self._writer = None
            self._lock = threading.Lock()
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._closed:
            raise CacheError(f"the judge cache at {self.path} is closed")
        try:
            conn = self._open()
        except CacheError as exc:
            if not (self._owned and exc.damaged):
                raise
            self._move_aside()
            conn = self._open()
        self._local.conn = conn
        with self._lock:
            self._connections.append(conn)
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CacheError(
                f"cannot create the folder of the judge cache {self.path}: {exc}"
            ) from exc
        try:
            conn = sqlite3.connect(
                str(self.path),
                timeout=_BUSY_TIMEOUT_S,
                isolation_level=None,  # autocommit: every statement is its own short transaction
                check_same_thread=False,  # used by one thread only; close() may run elsewhere
                cached_statements=64,
            )
        except sqlite3.Error as exc:
            raise CacheError(f"cannot open the judge cache {self.path}: {exc}") from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
            names = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if names and "judge_answers" not in names:
                raise CacheError(
                    f"{self.path} is a sqlite database but not a ragnotebook judge cache "
                    f"(tables: {sorted(names)}); pass another path, or cache=False"
                )
            if version > _FILE_FORMAT:
                raise CacheError(
                    f"the judge cache {self.path} was written by a newer ragnotebook (format "
                    f"{version} > {_FILE_FORMAT}); upgrade, or pass another path"
                )
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            if "judge_answers" not in names:
                conn.execute(_SCHEMA_SQL)
                conn.execute(f"PRAGMA user_version = {_FILE_FORMAT}")
        except CacheError:
            conn.close()
            raise
        except sqlite3.DatabaseError as exc:
            conn.close()
            if isinstance(exc, sqlite3.OperationalError) and not self.path.is_dir():
                # locked by another process past the busy timeout, read-only, disk full:
                # the file may be a live cache, so it is reported, never moved aside
                raise CacheError(f"cannot use the judge cache {self.path}: {exc}") from exc
            error = CacheError(
                f"the judge cache file {self.path} is not a usable sqlite database ({exc}); "
                "delete or move it, pass another path, or use cache=False"
            )
            error.damaged = self.path.is_file()
            raise error from exc
        return conn

    def _move_aside(self) -> None:
        target = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):  # kept beside it: they may hold its last writes
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        notify(
            f"ragnotebook: the judge cache {self.path} was damaged; moved it to {target} "
            "and started an empty cache"
        )

    def _error(self, exc: sqlite3.Error, action: str) -> CacheError:
        return CacheError(f"judge cache {self.path}: {action} failed: {exc}")

    # ------------------------------------------------------------------ keys

    @staticmethod
    def key(identity: Mapping[str, Any], task: Task) -> str:
        """SHA-256 hex key of a judge identity and a task.

        Parameters
        ----------
        identity : mapping
            The judge's ``identity()`` (secret-looking entries are dropped first,
            see :func:`scrub_identity`).
        task : Task
            The task; all its inputs (``Task.to_dict()``) enter the key.

        Returns
        -------
        str
            64 hex digits.

        Examples
        --------
        >>> from ragnotebook.tasks import Task
        >>> t = Task("extract_claims", "faithfulness", text="Paris is in France.")
        >>> a = JudgeCache.key({"judge": "A", "model": "m"}, t)
        >>> a == JudgeCache.key({"judge": "A", "model": "m", "api_key": "sk-..."}, t)
        True
        >>> a == JudgeCache.key({"judge": "B", "model": "m"}, t)
        False
        """
        return _key(identity, task)

    # ------------------------------------------------------------------ reads

    def _count(self, entries: Iterable[CacheEntry], misses: int) -> None:
        with self._lock:
            self.misses += misses
            for entry in entries:
                self.hits += 1
                self.saved_prompt_tokens += entry.prompt_tokens or 0
                self.saved_completion_tokens += entry.completion_tokens or 0
                self.saved_cost_usd += entry.cost_usd or 0.0

    @staticmethod
    def _entry(row: tuple[Any, ...]) -> CacheEntry:
        return CacheEntry(json.loads(row[0]), *row[1:])

    def get_entry(self, key: str) -> CacheEntry | None:
        """The cached entry for ``key`` (answer plus usage), or ``None``."""
        try:
            row = self._connect().execute(_SQL_GET, (key,)).fetchone()
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from exc
        if row is None:
            self._count((), 1)
            return None
        entry = self._entry(row)
        self._count((entry,), 0)
        return entry

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached answer (a JSON dict) for ``key``, or ``None``.

        Validate it with :func:`answer_from_cache` before use.
        """
        entry = self.get_entry(key)
        return None if entry is None else entry.answer

    def get_entries(self, keys: Iterable[str]) -> dict[str, CacheEntry]:
        """Batch read: ``{key: entry}`` for the keys present (misses are left out)."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, CacheEntry] = {}
        conn = self._connect()
        try:
            for start in range(0, len(wanted), _IN_BATCH):
                part = wanted[start : start + _IN_BATCH]
                marks = ",".join("?" * len(part))
                cur = conn.execute(
                    "SELECT key, answer, judge_id, model, kind, prompt_tokens, completion_tokens, "
                    f"cost_usd, created_at FROM judge_answers WHERE key IN ({marks})",
                    part,
                )
                for row in cur:
                    found[row[0]] = self._entry(row[1:])
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from exc
        self._count(found.values(), len(wanted) - len(found))
        return found

    def get_many(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Batch read: ``{key: answer dict}`` for the keys present (misses are left out)."""
        return {k: e.answer for k, e in self.get_entries(keys).items()}

    def __contains__(self, key: object) -> bool:
        try:
            row = (
                self._connect()
                .execute("SELECT 1 FROM judge_answers WHERE key = ?", (key,))
                .fetchone()
            )
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from exc
        return row is not None

    # ------------------------------------------------------------------ writes

    @staticmethod
    def _row(
        key: str,
        answer: BaseModel | Mapping[str, Any],
        judge_id: str,
        model: str | None,
        task_kind: str,
        usage: Mapping[str, Any] | None,
    ) -> tuple[Any, ...]:
        if isinstance(answer, BaseModel):
            data: Any = answer.model_dump(mode="json")
        elif isinstance(answer, Mapping):
            data = dict(answer)
        else:
            raise TypeError(
                f"answer must be a pydantic model or a dict, got {type(answer).__name__}"
            )
        usage = usage or {}

        def _int(name: str) -> int | None:
            v = usage.get(name)
            return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        cost = usage.get("cost_usd", usage.get("cost"))
        cost_f = (
            float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else None
        )
        if cost_f is not None and not math.isfinite(cost_f):
            cost_f = None
        return (
            key,
            replace_surrogates(json.dumps(data, ensure_ascii=False, separators=(",", ":"))),
            str(judge_id),
            None if model is None else str(model),
            str(task_kind),
            _int("prompt_tokens"),
            _int("completion_tokens"),
            cost_f,
            time.time(),
        )

    def put(
        self,
        key: str,
        answer: BaseModel | Mapping[str, Any],
        *,
        judge_id: str,
        model: str | None,
        task_kind: str,
        usage: Mapping[str, Any] | None = None,
    ) -> None:
        """Store a validated answer under ``key`` (replacing any previous one).

        Parameters
        ----------
        key : str
            From :meth:`key`.
        answer : pydantic model or dict
            The validated answer; only successful answers belong here.
        judge_id : str
            The judge's ``judge_id``.
        model : str or None
            The model string (None for judges that are not LLMs).
        task_kind : str
            The task's kind.
        usage : dict, optional
            ``prompt_tokens``, ``completion_tokens`` and ``cost_usd`` (or ``cost``)
            of the call, so that later hits can report what they saved.
        """
        row = self._row(key, answer, judge_id, model, task_kind, usage)
        try:
            self._connect().execute(_SQL_PUT, row)
        except sqlite3.Error as exc:
            raise self._error(exc, "write") from exc
        with self._lock:
            self.puts += 1

    # ------------------------------------------------------------------ async

    async def aget(self, key: str) -> dict[str, Any] | None:
        """Async :meth:`get`; runs inline (a WAL read by primary key never waits for a lock)."""
        return self.get(key)

    async def aget_entry(self, key: str) -> CacheEntry | None:
        """Async :meth:`get_entry`; runs inline."""
        return self.get_entry(key)

    async def aget_many(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Async :meth:`get_many`; runs inline."""
        return self.get_many(keys)

    async def aput(
        self,
        key: str,
        answer: BaseModel | Mapping[str, Any],
        *,
        judge_id: str,
        model: str | None,
        task_kind: str,
        usage: Mapping[str, Any] | None = None,
    ) -> None:
        """Async :meth:`put` on the cache's single writer thread.

        A write may wait for another process's lock or run a WAL checkpoint,
        so it is kept off the event loop. The answer is readable once this
        returns.
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._writer is None:
                self._writer = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="ragnotebook-cache"
                )
            writer = self._writer
        await loop.run_in_executor(
            writer,
            lambda: self.put(
                key, answer, judge_id=judge_id, model=model, task_kind=task_kind, usage=usage
            ),
        )

    # ------------------------------------------------------------------ maintenance

    def __len__(self) -> int:
        try:
            return int(self._connect().execute("SELECT COUNT(*) FROM judge_answers").fetchone()[0])
        except sqlite3.Error as exc:
            raise self._error(exc, "count") from exc

    def clear(self) -> None:
        """Delete every cached answer (the file stays)."""
        try:
            conn = self._connect()
            conn.execute("DELETE FROM judge_answers")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise self._error(exc, "clear") from exc

    def stats(self) -> dict[str, Any]:
        """Size and content of the cache, plus this object's hit counters.

        Returns
        -------
        dict
            ``path``, ``entries``, ``file_bytes`` (database plus WAL), ``by_kind``
            (entries per task kind), ``prompt_tokens`` / ``completion_tokens`` /
            ``cost_usd`` (USD: what the stored answers cost when first paid for, summed
            over the entries whose price was known; None when no entry's was, as for a
            local model litellm has no price for), ``unpriced_entries`` (entries with
            no known cost, left out of ``cost_usd``), and
            ``hits``, ``misses``, ``puts``, ``saved_prompt_tokens``,
            ``saved_completion_tokens``, ``saved_cost_usd`` counted by this object.
        """
        try:
            conn = self._connect()
            n, pt, ct, cost, unpriced = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(prompt_tokens), 0), "
                "COALESCE(SUM(completion_tokens), 0), SUM(cost_usd), "
                "COUNT(*) - COUNT(cost_usd) FROM judge_answers"
            ).fetchone()
            by_kind = dict(
                conn.execute("SELECT kind, COUNT(*) FROM judge_answers GROUP BY kind").fetchall()
            )
        except sqlite3.Error as exc:
            raise self._error(exc, "stats") from exc
        size = 0
        for suffix in ("", "-wal"):
            f = self.path.with_name(self.path.name + suffix)
            if f.exists():
                size += f.stat().st_size
        return {
            "path": str(self.path),
            "entries": int(n),
            "file_bytes": size,
            "by_kind": {str(k): int(v) for k, v in by_kind.items()},
            "prompt_tokens": int(pt),
            "completion_tokens": int(ct),
            "cost_usd": (0.0 if not n else None) if cost is None else float(cost),
            "unpriced_entries": int(unpriced),
            "hits": self.hits,
            "misses": self.misses,
            "puts": self.puts,
            "saved_prompt_tokens": self.saved_prompt_tokens,
            "saved_completion_tokens": self.saved_completion_tokens,
            "saved_cost_usd": self.saved_cost_usd,
        }

    def close(self) -> None:
        """Close every connection and the writer thread; later use raises :class:`CacheError`."""
        with self._lock:
            writer, self._writer = self._writer, None
            conns, self._connections = self._connections, []
            self._closed = True
        if writer is not None:
            writer.shutdown(wait=True)
        if os.getpid() == self._pid:
            for conn in conns:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
        self._local = threading.local()
