"""The judge-answer cache: keys, round trips, secrets, processes, threads, damage."""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import pickle
import sqlite3
import threading
import time
import warnings
from pathlib import Path

import pytest

import ragnotebook as rn
from ragnotebook import prompts
from ragnotebook.cache import (
    CacheError,
    JudgeCache,
    answer_from_cache,
    default_cache_path,
    resolve_cache,
    scrub_identity,
)
from ragnotebook.tasks import Claims, Explanation, Item, Task, Verdict, Verdicts

TASK = Task(
    "verify_claims",
    "faithfulness",
    question="Where is the Eiffel Tower?",
    items=(Item(0, "The tower is in Paris."), Item(1, "It opened in 1889.")),
    chunks=("The Eiffel Tower stands in Paris.", "It was finished in 1889."),
)

IDENTITY = {
    "judge": "litellm:openai/gpt-4o-mini",
    "model": "openai/gpt-4o-mini",
    "api_base": None,
    "temperature": 0.0,
    "max_tokens": 2048,
    "options": {"top_p": 1.0, "seed": 7},
    "prompt_versions": {"verify_claims": "abc123def456"},
    "structured_output": "json_schema",
}

VERDICTS = Verdicts(
    verdicts=[
        Verdict(index=0, verdict="yes", reason="chunk 0", supporting_chunks=[0]),
        Verdict(index=1, verdict="yes", reason="chunk 1", supporting_chunks=[1]),
    ]
)


@pytest.fixture
def cache(tmp_path):
    c = JudgeCache(tmp_path / "judge_cache.sqlite3")
    yield c
    c.close()


def _put(cache, key, answer, kind="verify_claims", usage=None):
    cache.put(
        key,
        answer,
        judge_id="litellm:openai/gpt-4o-mini",
        model="openai/gpt-4o-mini",
        task_kind=kind,
        usage=usage,
    )


# --------------------------------------------------------------------------- round trips


def test_round_trip_of_a_model_and_a_dict(cache):
    key = JudgeCache.key(IDENTITY, TASK)
    assert cache.get(key) is None
    _put(cache, key, VERDICTS, usage={"prompt_tokens": 420, "completion_tokens": 80, "cost": 1e-4})
    assert cache.get(key) == VERDICTS.model_dump(mode="json")
    assert answer_from_cache("verify_claims", cache.get(key)) == VERDICTS
    entry = cache.get_entry(key)
    assert entry is not None
    assert (entry.judge_id, entry.model, entry.kind) == (
        "litellm:openai/gpt-4o-mini",
        "openai/gpt-4o-mini",
        "verify_claims",
    )
    assert (entry.prompt_tokens, entry.completion_tokens, entry.cost_usd) == (420, 80, 1e-4)
    assert entry.created_at <= time.time()

    other = JudgeCache.key(IDENTITY, Task("explain", "faithfulness", text="summary"))
    _put(cache, other, {"reason": "Two of two claims hold."}, kind="explain")
    assert answer_from_cache("explain", cache.get(other)) == Explanation(
        reason="Two of two claims hold."
    )
    assert len(cache) == 2
    assert other in cache and "f" * 64 not in cache


def test_put_replaces_and_usage_is_optional(cache):
    key = JudgeCache.key(IDENTITY, TASK)
    _put(cache, key, Claims(claims=["a"]), kind="extract_claims")
    _put(cache, key, Claims(claims=["b"]), kind="extract_claims")
    assert cache.get(key) == {"claims": ["b"]}
    entry = cache.get_entry(key)
    assert entry is not None and entry.cost_usd is None and entry.prompt_tokens is None
    assert len(cache) == 1


def test_stats_keep_an_unknown_price_apart_from_a_zero_one(cache):
    assert cache.stats()["cost_usd"] == 0.0  # nothing stored, nothing paid
    keys = [hashlib.sha256(f"u{i}".encode()).hexdigest() for i in range(3)]
    for k in keys[:2]:  # a local model: litellm has no price for it
        _put(cache, k, {"claims": ["c"]}, usage={"prompt_tokens": 50, "completion_tokens": 5})
    stats = cache.stats()
    assert stats["cost_usd"] is None and stats["unpriced_entries"] == 2
    assert stats["prompt_tokens"] == 100
    _put(cache, keys[2], {"claims": ["c"]}, usage={"prompt_tokens": 50, "cost_usd": 0.002})
    stats = cache.stats()
    assert stats["cost_usd"] == pytest.approx(0.002) and stats["unpriced_entries"] == 2


def test_get_many_returns_only_hits_and_counts_saved_cost(cache):
    keys = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(1200)]
    for k in keys[:1000]:
        _put(
            cache,
            k,
            {"claims": [k[:8]]},
            kind="extract_claims",
            usage={"prompt_tokens": 100, "completion_tokens": 10, "cost_usd": 0.001},
        )
    found = cache.get_many(keys)
    assert len(found) == 1000
    assert found[keys[5]] == {"claims": [keys[5][:8]]}
    assert keys[1100] not in found
    stats = cache.stats()
    assert stats["entries"] == 1000
    assert stats["hits"] == 1000 and stats["misses"] == 200 and stats["puts"] == 1000
    assert stats["saved_prompt_tokens"] == 100_000
    assert stats["saved_cost_usd"] == pytest.approx(1.0)
    assert stats["cost_usd"] == pytest.approx(1.0) and stats["unpriced_entries"] == 0
    assert stats["by_kind"] == {"extract_claims": 1000}
    assert stats["file_bytes"] > 0
    assert cache.get_many([]) == {}


def test_answer_from_cache_treats_stale_data_as_a_miss():
    assert answer_from_cache("extract_claims", None) is None
    assert answer_from_cache("extract_claims", {"claims": "not a list"}) is None
    assert answer_from_cache("no_such_kind", {"claims": []}) is None
    assert answer_from_cache("judge_chunks", {"verdicts": []}) == Verdicts()


def test_put_rejects_other_answer_types(cache):
    with pytest.raises(TypeError, match="pydantic model or a dict"):
        _put(cache, "k", ["yes"])


# --------------------------------------------------------------------------- keys


def test_key_is_stable_and_hex():
    a = JudgeCache.key(IDENTITY, TASK)
    assert a == JudgeCache.key(dict(reversed(list(IDENTITY.items()))), TASK)
    assert len(a) == 64 and int(a, 16) >= 0


@pytest.mark.parametrize(
    "change",
    [
        {"model": "openai/gpt-4o"},
        {"judge": "litellm:openai/gpt-4o"},
        {"temperature": 0.7},
        {"max_tokens": 512},
        {"options": {"top_p": 0.9, "seed": 7}},
        {"options": {"top_p": 1.0, "seed": 8}},
        {"prompt_versions": {"verify_claims": "000000000000"}},
        {"structured_output": "json_object"},
        {"api_base": "http://127.0.0.1:8000/v1"},
    ],
)
def test_key_changes_with_every_setting_of_the_judge(change):
    assert JudgeCache.key({**IDENTITY, **change}, TASK) != JudgeCache.key(IDENTITY, TASK)


@pytest.mark.parametrize(
    "task",
    [
        Task("verify_claims", "faithfulness", question="Where?", items=TASK.items, chunks=TASK.chunks),
        Task("verify_claims", "faithfulness", question=TASK.question, items=TASK.items[:1], chunks=TASK.chunks),
        Task("verify_claims", "faithfulness", question=TASK.question, items=TASK.items, chunks=TASK.chunks[:1]),
        Task("verify_claims", "faithfulness", question=TASK.question, items=(Item(0, "x"), TASK.items[1]), chunks=TASK.chunks),
        Task("attribute_claims", "faithfulness", question=TASK.question, items=TASK.items, chunks=TASK.chunks),
        Task("verify_claims", "context_recall", question=TASK.question, items=TASK.items, chunks=TASK.chunks),
        Task("verify_claims", "faithfulness", question=TASK.question, items=TASK.items, chunks=TASK.chunks, extra=(("k", 1),)),
    ],
)  # fmt: skip
def test_key_changes_with_the_task_inputs(task):
    assert JudgeCache.key(IDENTITY, task) != JudgeCache.key(IDENTITY, TASK)


def test_key_follows_a_prompt_override():
    def identity():
        return {"judge": "j", "prompt_versions": prompts.versions()}

    before = JudgeCache.key(identity(), TASK)
    prompts.override(
        "verify_claims", instructions="Be strict. " + prompts.get("verify_claims").instructions
    )
    extract = Task("extract_claims", "faithfulness", text="The tower is in Paris.")
    extract_before = JudgeCache.key(identity(), extract)
    try:
        assert JudgeCache.key(identity(), TASK) != before
        # another kind's prompt did not change: its cached answers stay usable
        assert JudgeCache.key(identity(), extract) == extract_before
    finally:
        prompts.reset()
    assert JudgeCache.key(identity(), TASK) == before


def test_integral_temperatures_share_a_key_and_secrets_do_not_change_it():
    base = JudgeCache.key(IDENTITY, TASK)
    assert JudgeCache.key({**IDENTITY, "temperature": 0}, TASK) == base
    assert JudgeCache.key({**IDENTITY, "api_key": "sk-a"}, TASK) == base
    assert JudgeCache.key({**IDENTITY, "api_key": "sk-b", "Authorization": "x"}, TASK) == base


def test_scrub_identity_drops_secret_looking_entries_at_any_depth():
    identity = {
        "model": "m",
        "api_key": "sk-1",
        "API_KEY": "sk-2",
        "aws_secret_access_key": "aws",
        "vertex_credentials_password": "pw",
        "access_token": "tok",
        "max_tokens": 100,
        "max_completion_tokens": None,
        "options": {
            "extra_headers": {"Authorization": "Bearer x", "X-Trace": "1"},
            "list": [{"token": "t", "keep": 1}],
            "keyring": "kr",
        },
    }
    assert scrub_identity(identity) == {
        "model": "m",
        "max_tokens": 100,
        "max_completion_tokens": None,
        "options": {"extra_headers": {"X-Trace": "1"}, "list": [{"keep": 1}]},
    }
    # a "max_tokens" that is not a number is treated like any other secret-looking name
    assert "max_tokens" not in scrub_identity({"max_tokens": "sk-hidden"})


def test_secrets_never_reach_the_file(tmp_path):
    path = tmp_path / "c.sqlite3"
    secrets = ["sk-SECRET-0123456789", "Bearer TOKEN-ABCDEF", "hunter2-password", "aws-SECRET-9"]
    identity = {
        **IDENTITY,
        "api_key": secrets[0],
        "options": {"extra_headers": {"Authorization": secrets[1]}, "password": secrets[2]},
        "aws_secret_access_key": secrets[3],
    }
    with JudgeCache(path) as c:
        for i in range(50):
            task = Task("extract_claims", "faithfulness", text=f"Sentence {i}.")
            c.put(
                JudgeCache.key(identity, task),
                Claims(claims=[f"Sentence {i}."]),
                judge_id="litellm:openai/gpt-4o-mini",
                model="openai/gpt-4o-mini",
                task_kind=task.kind,
                usage={"prompt_tokens": 10, "completion_tokens": 5, "cost_usd": 1e-6},
            )
        assert len(c) == 50
    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"Sentence 7." in blob  # the file really holds the answers ...
    for secret in secrets:  # ... and none of the secrets
        assert secret.encode() not in blob


# --------------------------------------------------------------------------- case 4


def _cached_answers(cache, judge, tasks):
    """What the engine does per task: look up, else call the judge and store."""

    async def one(task):
        key = JudgeCache.key(judge.identity(), task)
        hit = answer_from_cache(task.kind, await cache.aget(key))
        if hit is not None:
            return hit
        answer = await judge.acomplete(task)
        await cache.aput(
            key, answer, judge_id=judge.judge_id, model=None, task_kind=task.kind, usage=None
        )
        return answer

    async def run():
        return [await one(t) for t in tasks]

    return asyncio.run(run())


def test_two_judges_sharing_one_cache_get_their_own_verdicts(cache):
    tasks = [
        Task("extract_claims", "faithfulness", text="Paris is in France. It has 40M people."),
        TASK,
    ]
    judge_a = rn.MockJudge(
        extract_claims=lambda t: ["Paris is in France.", "Paris has 40M people."],
        verify_claims=lambda t: ["yes"] * len(t.items),
        judge_id="judge-A",
    )
    judge_b = rn.MockJudge(
        extract_claims=lambda t: ["Paris is in France."],
        verify_claims=lambda t: ["no"] * len(t.items),
        judge_id="judge-B",
    )
    first_a = _cached_answers(cache, judge_a, tasks)
    assert len(judge_a.tasks) == 2
    # the same judge again: everything from the cache, no call
    assert _cached_answers(cache, judge_a, tasks) == first_a
    assert len(judge_a.tasks) == 2
    # judge B: fresh calls, B's verdicts
    first_b = _cached_answers(cache, judge_b, tasks)
    assert len(judge_b.tasks) == 2
    assert first_b[0].claims == ["Paris is in France."]
    assert [v.verdict for v in first_b[1].verdicts] == ["no", "no"]
    assert [v.verdict for v in first_a[1].verdicts] == ["yes", "yes"]
    assert len(cache) == 4


# --------------------------------------------------------------------------- async


def test_async_get_and_put(cache):
    keys = [
        JudgeCache.key(IDENTITY, Task("explain", "faithfulness", text=str(i))) for i in range(200)
    ]

    async def run():
        await asyncio.gather(
            *(
                cache.aput(
                    k, Explanation(reason=str(i)), judge_id="j", model="m", task_kind="explain"
                )
                for i, k in enumerate(keys)
            )
        )
        one = await cache.aget(keys[3])
        many = await cache.aget_many(keys)
        entry = await cache.aget_entry(keys[4])
        missing = await cache.aget("0" * 64)
        return one, many, entry, missing

    one, many, entry, missing = asyncio.run(run())
    assert one == {"reason": "3"}
    assert len(many) == 200
    assert entry is not None and entry.answer == {"reason": "4"}
    assert missing is None


def test_inline_reads_are_fast_enough_for_the_event_loop(cache):
    """Not a timing assertion: prints the per-call cost for the report (-s)."""
    keys = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(5000)]
    t0 = time.perf_counter()
    for k in keys:
        _put(cache, k, VERDICTS, usage={"prompt_tokens": 400, "completion_tokens": 80})
    t1 = time.perf_counter()
    for k in keys:
        assert cache.get(k) is not None
    t2 = time.perf_counter()
    assert len(cache.get_many(keys)) == 5000
    t3 = time.perf_counter()

    async def aread():
        for k in keys:
            await cache.aget(k)

    asyncio.run(aread())
    t4 = time.perf_counter()
    print(
        f"\n5000 puts {t1 - t0:.3f}s ({(t1 - t0) / 5 * 1000:.0f} us each), "
        f"5000 gets {t2 - t1:.3f}s, get_many(5000) {t3 - t2:.3f}s, "
        f"5000 agets {t4 - t3:.3f}s"
    )


# --------------------------------------------------------------------------- threads and processes


def test_threads_share_one_cache_object(cache):
    errors = []

    def work(w):
        try:
            for i in range(200):
                key = f"t{w}-{i}"
                cache.put(
                    key, {"claims": [key]}, judge_id="j", model=None, task_kind="extract_claims"
                )
                assert cache.get(key) == {"claims": [key]}
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(cache) == 1600


def _process_worker(path: str, worker: int, n: int) -> int:
    cache = JudgeCache(path)
    problems = 0
    for i in range(n):
        key = hashlib.sha256(f"{worker}-{i}".encode()).hexdigest()
        cache.put(
            key,
            {"claims": [f"{worker}-{i}"]},
            judge_id=f"w{worker}",
            model="m",
            task_kind="extract_claims",
            usage={"prompt_tokens": 1, "completion_tokens": 1, "cost_usd": 0.5},
        )
        if cache.get(key) != {"claims": [f"{worker}-{i}"]}:
            problems += 1
        # read what the other workers wrote so far (hits or misses, never errors)
        cache.get(hashlib.sha256(f"{(worker + 1) % 4}-{i}".encode()).hexdigest())
    cache.close()
    return problems


def test_several_processes_on_one_file(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        problems = pool.starmap(_process_worker, [(path, w, 500) for w in range(4)])
    assert problems == [0, 0, 0, 0]
    with JudgeCache(path) as c:
        assert len(c) == 2000
        keys = [
            hashlib.sha256(f"{w}-{i}".encode()).hexdigest() for w in range(4) for i in range(500)
        ]
        found = c.get_many(keys)
        assert len(found) == 2000
        assert found[keys[1234]] == {"claims": ["2-234"]}
        assert c.stats()["cost_usd"] == pytest.approx(1000.0)
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _forked_child(cache, queue):
    try:
        cache.put("child", {"reason": "from child"}, judge_id="j", model=None, task_kind="explain")
        queue.put(cache.get("parent"))
    except Exception as exc:  # pragma: no cover - reported to the parent
        queue.put(repr(exc))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_forked_child_opens_its_own_connection(cache):
    cache.put("parent", {"reason": "from parent"}, judge_id="j", model=None, task_kind="explain")
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
        proc = ctx.Process(target=_forked_child, args=(cache, queue))
        proc.start()
    assert queue.get(timeout=60) == {"reason": "from parent"}
    proc.join(60)
    assert proc.exitcode == 0
    assert cache.get("child") == {"reason": "from child"}


def test_pickled_cache_reopens_the_same_file(cache):
    cache.put("k", {"reason": "r"}, judge_id="j", model=None, task_kind="explain")
    clone = pickle.loads(pickle.dumps(cache))
    try:
        assert clone.path == cache.path
        assert clone.get("k") == {"reason": "r"}
    finally:
        clone.close()


# --------------------------------------------------------------------------- files


def test_a_file_that_is_not_sqlite_raises_naming_the_path(tmp_path):
    path = tmp_path / "notes.sqlite3"
    content = b"these are my notes, not a database\n" * 100
    path.write_bytes(content)
    with pytest.raises(CacheError, match="not a usable sqlite database") as info:
        JudgeCache(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == content  # untouched


def test_a_foreign_sqlite_database_is_not_taken_over(tmp_path):
    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(CacheError, match="not a ragnotebook judge cache") as info:
        JudgeCache(path)
    assert str(path) in str(info.value)
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("users",)]


def test_a_damaged_default_cache_is_moved_aside(tmp_path, monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_CACHE", raising=False)
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(tmp_path / "cachedir"))
    path = default_cache_path()
    assert path == tmp_path / "cachedir" / "judge_cache.sqlite3"
    path.parent.mkdir()
    path.write_bytes(b"garbage" * 1000)
    with pytest.warns(UserWarning, match="moved it to"):
        c = JudgeCache()
    try:
        assert c.path == path
        c.put("k", {"reason": "r"}, judge_id="j", model=None, task_kind="explain")
        assert c.get("k") == {"reason": "r"}
    finally:
        c.close()
    moved = list(path.parent.glob("judge_cache.sqlite3.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == b"garbage" * 1000


def test_a_file_named_by_ragnotebook_cache_is_never_moved_aside(tmp_path, monkeypatch):
    # RAGNOTEBOOK_CACHE names the user's own file: it was renamed to *.corrupt-<time>
    notes = tmp_path / "notes.txt"
    notes.write_text("important\n", encoding="utf-8")
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(notes))
    with pytest.raises(CacheError, match="not a usable sqlite database") as info:
        JudgeCache()
    assert str(notes) in str(info.value)
    assert notes.read_text(encoding="utf-8") == "important\n"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_another_programs_wal_database_keeps_its_rows(tmp_path, monkeypatch):
    # a committed row still in the -wal file: the -wal was deleted, then the file moved
    app = tmp_path / "app.db"
    live = sqlite3.connect(app)
    live.execute("PRAGMA journal_mode = WAL")
    live.execute("CREATE TABLE users (name TEXT)")
    live.execute("INSERT INTO users VALUES ('alice')")
    live.commit()  # the connection stays open: no checkpoint
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(app))
    try:
        with pytest.raises(CacheError, match="not a ragnotebook judge cache"):
            JudgeCache()
    finally:
        live.close()
    rows = sqlite3.connect(app).execute("SELECT name FROM users").fetchall()
    assert rows == [("alice",)]
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_foreign_database_at_the_default_path_raises_too(tmp_path, monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_CACHE", raising=False)
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(tmp_path))
    path = default_cache_path()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(CacheError, match="not a ragnotebook judge cache"):
        JudgeCache()
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [
        ("users",)
    ]


def test_ragnotebook_cache_naming_a_folder_puts_the_file_in_it(tmp_path, monkeypatch):
    folder = tmp_path / "mydata"
    folder.mkdir()
    (folder / "results.csv").write_text("a,b\n", encoding="utf-8")
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(folder))
    assert default_cache_path() == folder / "judge_cache.sqlite3"
    with JudgeCache() as c:
        c.put("k", {"reason": "r"}, judge_id="j", model=None, task_kind="explain")
    assert (folder / "results.csv").read_text(encoding="utf-8") == "a,b\n"
    assert sorted(p.name for p in folder.iterdir())[0:2] == ["judge_cache.sqlite3", "results.csv"]


def test_a_cache_folder_that_is_a_file_is_a_cache_error(tmp_path, monkeypatch):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    monkeypatch.delenv("RAGNOTEBOOK_CACHE", raising=False)
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(afile))
    with pytest.raises(CacheError, match="cannot create the folder"):
        JudgeCache()
    assert afile.read_text(encoding="utf-8") == "x"


def test_the_folder_is_created_and_an_empty_file_is_fine(tmp_path):
    deep = tmp_path / "a" / "b" / "c.sqlite3"
    with JudgeCache(deep) as c:
        assert len(c) == 0
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with JudgeCache(empty) as c:
        c.put("k", {"reason": "r"}, judge_id="j", model=None, task_kind="explain")
        assert len(c) == 1


def test_clear_close_and_reopen(tmp_path):
    path = tmp_path / "c.sqlite3"
    c = JudgeCache(path)
    for i in range(10):
        c.put(str(i), {"reason": str(i)}, judge_id="j", model=None, task_kind="explain")
    c.close()
    with pytest.raises(CacheError, match="closed"):
        c.get("1")
    c2 = JudgeCache(path)
    assert len(c2) == 10 and c2.get("3") == {"reason": "3"}
    c2.clear()
    assert len(c2) == 0 and c2.stats()["entries"] == 0
    c2.close()
    c2.close()  # idempotent


def test_resolve_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("RAGNOTEBOOK_CACHE", raising=False)
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(tmp_path / "default"))
    assert resolve_cache(False) is None
    default = resolve_cache(True)
    assert isinstance(default, JudgeCache)
    assert default.path == tmp_path / "default" / "judge_cache.sqlite3"
    assert resolve_cache(None) is default  # one shared instance per file
    c = resolve_cache(str(tmp_path / "x.sqlite3"))
    assert isinstance(c, JudgeCache) and c.path == tmp_path / "x.sqlite3"
    assert resolve_cache(tmp_path / "x.sqlite3") is c
    assert resolve_cache(c) is c
    c.close()
    again = resolve_cache(tmp_path / "x.sqlite3")  # a closed one is replaced
    assert again is not c and again is not None and not again.closed
    # the default follows the environment
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(tmp_path / "other"))
    moved = resolve_cache(True)
    assert moved is not None and moved.path == tmp_path / "other" / "judge_cache.sqlite3"
    for x in (default, again, moved):
        x.close()
    with pytest.raises(TypeError, match="cache must be"):
        resolve_cache(3)  # type: ignore[arg-type]


def test_environment_variables_choose_or_disable_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGNOTEBOOK_CACHE_DIR", str(tmp_path / "dir"))
    monkeypatch.setenv("RAGNOTEBOOK_CACHE", str(tmp_path / "file.sqlite3"))
    assert default_cache_path() == tmp_path / "file.sqlite3"
    c = resolve_cache(True)
    assert c is not None and c.path == tmp_path / "file.sqlite3"
    c.close()
    for off in ("0", "false", "OFF", "no"):
        monkeypatch.setenv("RAGNOTEBOOK_CACHE", off)
        assert resolve_cache(True) is None and resolve_cache(None) is None
        assert default_cache_path() == tmp_path / "dir" / "judge_cache.sqlite3"
    # an explicit path still works
    c = resolve_cache(tmp_path / "explicit.sqlite3")
    assert c is not None
    c.close()


def test_default_path_is_under_the_user_cache_dir(monkeypatch):
    import platformdirs

    monkeypatch.delenv("RAGNOTEBOOK_CACHE_DIR", raising=False)
    monkeypatch.delenv("RAGNOTEBOOK_CACHE", raising=False)
    assert default_cache_path() == (
        Path(platformdirs.user_cache_dir("ragnotebook")) / "judge_cache.sqlite3"
    )
