"""Run a RAG application under evaluation: call it on every item, then score each answer.

:func:`run_evals` is the notebook counterpart of the reference framework's
``runEvals``. It calls a *target* (your RAG app: a sync or async callable that
takes an item's input) on every item of a labelled data set, scores each
output with every scorer (``create_*_scorer(...)`` objects), and returns an
:class:`EvalRunResult` whose ``.frame`` has the same columns as the DataFrame
API, so ``df.rag.summary()``, ``.claims()``, ``.chunks()``, ``.explore()`` and
the charts work on it.

How a run proceeds
------------------
* At most ``concurrency`` items are in flight: each item's target call and its
  scoring run inside one slot. Sync targets run in a worker thread of the run's own
  pool of ``concurrency`` threads (not the loop's default pool, which has
  ``min(32, cpus + 4)`` and would queue them), so the event loop is never blocked;
  ``target_latency_s`` is timed inside that thread. Async targets are awaited.
* Scoring reuses :meth:`RagScorer.plan <ragnotebook.scorers.objects.RagScorer.plan>`
  (answer text, context extractor, static context) and the
  :class:`~ragnotebook.engine.Engine`, one engine per distinct judge.
* A target that raises, or a scorer that fails, is recorded on that item
  (``target_status``/``target_error``, ``m_status == "error"``/``m_error``) and
  the run goes on. ``fail_fast=True`` stops at the first failure and raises
  :class:`RunEvalsError`, which carries the partial result.
* ``on_item_complete`` is called once per finished item, in completion order,
  from the thread that called :func:`run_evals` (or on the caller's loop for
  :func:`arun_evals`).
* Target outputs are memoised only with ``cache_target=True`` (in memory, for
  the life of the target object) or ``cache_target=<a mutable mapping>`` (for
  example a ``dict`` you keep, or a :mod:`shelve` file to persist across
  sessions). The key is the JSON text of the item's input.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import math
import queue
import threading
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import pandas as pd

from ragnotebook._loop import run_sync
from ragnotebook._version import __version__
from ragnotebook._warn import warn_user
from ragnotebook.engine import CANCELLED_MESSAGE, Engine, Job
from ragnotebook.intake import and_list, argument_text
from ragnotebook.judges.base import Judge
from ragnotebook.scorers._common import MetricResult, check_count
from ragnotebook.scorers.objects import (
    ANSWER_KEYS,
    ScorerResult,
    answer_from_output,
    answer_problem,
    contexts_from_output,
    question_from_input,
)

__all__ = ["EvalRunResult", "RunEvalsError", "arun_evals", "run_evals"]

#: Keys read as an item's input and ground truth, most preferred first.
INPUT_KEYS = ("input", "question", "user_input", "query")
GROUND_TRUTH_KEYS = ("ground_truth", "reference", "expected_output", "expected")

#: Item keys never copied to the result frame (they would collide with its columns
#: or make the question / answer / contexts roles ambiguous for ``df.rag``).
_USED_KEYS = frozenset({*INPUT_KEYS, *GROUND_TRUTH_KEYS})
_RESERVED = frozenset(
    {
        *INPUT_KEYS,
        *GROUND_TRUTH_KEYS,
        "answer",
        "response",
        "actual_output",
        "output",
        "contexts",
        "retrieved_contexts",
        "retrieval_context",
    }
)

_TARGET_COLUMNS = (
    "target_output",
    "target_latency_s",
    "target_status",
    "target_error",
    "target_cached",
)

#: Process-wide target memos for ``cache_target=True``: owner object -> {function: memo}.
_MEMOS: weakref.WeakKeyDictionary[Any, dict[Any, dict[str, Any]]] = weakref.WeakKeyDictionary()
_MEMOS_LOCK = threading.Lock()


class RunEvalsError(RuntimeError):
    """Raised by ``run_evals(..., fail_fast=True)`` at the first failing item.

    Attributes
    ----------
    result : EvalRunResult
        Every item finished before the stop; the others have
        ``target_status == "cancelled"``.
    index : int
        0-based position of the item that failed.

    Examples
    --------
    >>> import ragnotebook
    >>> def app(question):
    ...     raise ConnectionError("index offline")
    >>> scorer = ragnotebook.create_faithfulness_scorer(model="offline")
    >>> try:
    ...     ragnotebook.run_evals([{"input": "q"}], scorers=[scorer], target=app,
    ...                           fail_fast=True, progress=False)
    ... except ragnotebook.runs.RunEvalsError as err:
    ...     print(err.index, err.result.frame.loc[0, "target_status"])
    0 error
    """

    def __init__(self, message: str, *, result: EvalRunResult, index: int) -> None:
        super().__init__(message)
        self.result = result
        self.index = index


# --------------------------------------------------------------------------- items


@dataclass(slots=True)
class _Item:
    index: int
    label: Any
    record: dict[str, Any]
    input: Any
    ground_truth: Any


def _find_key(record: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    for key in keys:
        if key in record:
            return key
    return None


def _items(data: Any) -> list[_Item]:
    """Normalise ``data`` (DataFrame or iterable of dicts / strings) into items."""
    if isinstance(data, pd.DataFrame):
        labels = list(data.index)
        records: list[Any] = data.to_dict("records")
    elif isinstance(data, str | bytes | Mapping):
        raise TypeError(
            "data must be a DataFrame or a list of dicts with 'input' (and optionally "
            f"'ground_truth'), got {type(data).__name__}"
        )
    elif isinstance(data, Iterable):
        records = list(data)
        labels = list(range(len(records)))
    else:
        raise TypeError(f"data must be a DataFrame or a list of dicts, got {type(data).__name__}")
    items = []
    for pos, (label, rec) in enumerate(zip(labels, records, strict=True)):
        if isinstance(rec, str):
            rec = {"input": rec}
        if not isinstance(rec, Mapping):
            raise TypeError(
                f"item {pos} is a {type(rec).__name__}; each item must be a dict with 'input'"
            )
        rec = dict(rec)
        ikey = _find_key(rec, INPUT_KEYS)
        if ikey is None:
            raise ValueError(
                f"item {pos} has no input (looked for {', '.join(map(repr, INPUT_KEYS))}); "
                f"its keys are {sorted(map(str, rec))}"
            )
        gkey = _find_key(rec, GROUND_TRUTH_KEYS)
        truth = rec.get(gkey) if gkey is not None else None
        if _missing(truth):
            truth = None
        else:  # one text, as in a frame's cell: a list of them is no missing ground truth
            try:
                argument_text(truth, repr(gkey))
            except ValueError as exc:
                raise ValueError(f"item {pos}, {exc}") from None
        items.append(_Item(pos, label, rec, rec[ikey], truth))
    return items


def _missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


# --------------------------------------------------------------------------- scorers


@dataclass(slots=True)
class _Scorer:
    key: str
    column: str
    scorer: Any


def _scorers(scorers: Any) -> list[_Scorer]:
    """Give every scorer a unique key and a column name.

    Keys are the scorer ids, with ``-2``, ``-3``... for repeats. The first
    scorer of each metric writes the metric's own columns (``context_recall``);
    later scorers of the same metric write columns named by their key.
    """
    if not isinstance(scorers, list | tuple):
        scorers = [scorers]
    if not scorers:
        raise ValueError(
            "scorers is empty, so nothing would be scored; pass at least one, e.g. "
            "scorers=[ragnotebook.create_faithfulness_scorer(model=...)]"
        )
    out: list[_Scorer] = []
    seen_ids: dict[str, int] = {}
    used_columns: set[str] = set()
    for i, s in enumerate(scorers):
        for attr in ("id", "metric", "judge", "plan"):
            if not hasattr(s, attr):
                raise TypeError(
                    f"scorers[{i}] is a {type(s).__name__}, not a scorer; build one with "
                    "ragnotebook.create_context_recall_scorer(...) (or _precision_, "
                    "faithfulness_)"
                )
        base = str(s.id)
        seen_ids[base] = seen_ids.get(base, 0) + 1
        key = base if seen_ids[base] == 1 else f"{base}-{seen_ids[base]}"
        while any(k.key == key for k in out):  # an id that already looks like "x-2"
            seen_ids[base] += 1
            key = f"{base}-{seen_ids[base]}"
        column = str(s.metric) if s.metric not in used_columns else key
        used_columns.add(column)
        out.append(_Scorer(key, column, s))
    return out


# --------------------------------------------------------------------------- target


def _is_async_callable(fn: Any) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004  (objects with async __call__)
    return call is not None and inspect.iscoroutinefunction(call)


def _memo_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def _memo_for(target: Any, cache_target: Any) -> MutableMapping[str, Any] | None:
    """The memo of target outputs for this run, or None without ``cache_target``."""
    if cache_target is None or cache_target is False:
        return None
    if isinstance(cache_target, MutableMapping):
        return cache_target
    if cache_target is not True:
        raise TypeError(
            "cache_target must be True, False or a mutable mapping (a dict, a shelve), "
            f"got {type(cache_target).__name__}"
        )
    owner, part = target, None
    if inspect.ismethod(target):  # bound methods are created anew on each access
        owner, part = target.__self__, target.__func__
    with _MEMOS_LOCK:
        try:
            per_owner = _MEMOS.setdefault(owner, {})
        except TypeError:  # not weak-referenceable: memo for this run only
            return {}
        return per_owner.setdefault(part, {})


def _check_output(value: Any) -> None:
    if value is None:
        raise TypeError(
            "the target returned None; did it forget to return? expected a string, a dict "
            "with 'answer' (or 'output') and 'contexts', or a list of chat messages"
        )
    if isinstance(value, str | Mapping):
        return
    if isinstance(value, list) and all(
        isinstance(m, Mapping) and "role" in m and "content" in m for m in value
    ):
        return
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    raise TypeError(
        f"the target returned {article} {name}; expected a string, a dict with "
        "'answer' (or 'output') and 'contexts', or a list of chat messages"
    )


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --------------------------------------------------------------------------- outcomes


@dataclass(slots=True)
class _Outcome:
    index: int
    status: str  # ok, error, cancelled
    output: Any = None
    answer: str | None = None
    contexts: list[str] = field(default_factory=list)
    latency: float = math.nan
    error: str | None = None
    cached: bool = False
    results: dict[str, MetricResult] = field(default_factory=dict)

    def failed(self) -> bool:
        return self.status != "ok" or any(r.status == "error" for r in self.results.values())


# --------------------------------------------------------------------------- result


class EvalRunResult:
    """What :func:`run_evals` returns: per-scorer means, the scored frame and a summary.

    Attributes
    ----------
    scores : dict
        ``{scorer_id: {"mean", "n_scored", "n_error", "n_total", "coverage",
        "metric", "column"}}``. The mean is over items whose status is ``ok``,
        ``no_context`` or ``no_claims``, except a ``no_claims`` faithfulness item whose
        answer is missing or blank (missing data, not a measured 0: the same rule as
        :func:`ragnotebook.summary`); errors (target or scorer) count in
        ``n_error`` and lower ``coverage``, never the mean silently.
    frame : pandas.DataFrame
        One row per item, in data order (a DataFrame's index is kept): ``input``,
        ``question`` (only when some input is not a string: its text),
        ``ground_truth``, ``answer``, ``contexts``, ``target_output`` (the raw
        return value), ``target_latency_s`` (Float64 seconds), ``target_status``
        (``ok``, ``error``, ``cancelled``), ``target_error``, ``target_cached``,
        the item's other fields, then per scorer ``m``, ``m_reason``,
        ``m_verdicts``, ``m_status``, ``m_error``. Run metadata is in
        ``frame.attrs["ragnotebook"]``.
    target_stats : dict
        ``n_items``, ``n_ok``, ``n_error``, ``n_cancelled``, ``cache_hits``,
        ``mean_latency_s``, ``p95_latency_s``.
    scorer_columns : dict
        ``{scorer_id: column}``: the first scorer of a metric writes the metric's
        columns (``context_recall``), a repeat writes columns named by its id.

    Examples
    --------
    >>> import ragnotebook
    >>> scorer = ragnotebook.create_faithfulness_scorer(model="offline")
    >>> res = ragnotebook.run_evals(
    ...     [{"input": "Where is the museum?"}], scorers=[scorer], progress=False,
    ...     target=lambda q: {"answer": "It is on Pier 4.", "contexts": ["The museum is on Pier 4."]})
    >>> res.scores["faithfulness-scorer"]["mean"], res.frame.loc[0, "faithfulness_status"]
    (1.0, 'ok')
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        scores: dict[str, dict[str, Any]],
        target_stats: dict[str, Any],
        scorer_columns: dict[str, str],
    ) -> None:
        self.frame = frame
        self.scores = scores
        self.target_stats = target_stats
        self.scorer_columns = scorer_columns

    def summary(self) -> pd.DataFrame:
        """Per-scorer mean, coverage and counts, like :func:`ragnotebook.summary`.

        Returns
        -------
        pandas.DataFrame
            Index: scorer id. Columns: ``metric``, ``column``, then the columns of
            :func:`ragnotebook.summary` (``mean``, ``scored``, ``coverage``,
            ``n_total``, ``n_scored``, ``n_error``, one count per status,
            ``missing_verdicts`` and the judge-call counters).

        Examples
        --------
        >>> import ragnotebook
        >>> scorer = ragnotebook.create_faithfulness_scorer(model="offline")
        >>> app = lambda q: {"answer": "Pier 4.", "contexts": ["The museum is on Pier 4."]}
        >>> res = ragnotebook.run_evals(["Where?"], scorers=[scorer], progress=False,
        ...                             target=app)
        >>> res.summary().loc["faithfulness-scorer", ["metric", "scored"]].tolist()
        ['faithfulness', '1/1']
        """
        from ragnotebook.frame import _Summary, summary

        meta = self.frame.attrs.get("ragnotebook", {}) or {}
        rows = []
        for key, col in self.scorer_columns.items():
            info = (meta.get("metrics", {}) or {}).get(col, {}) or {}
            metric = str(info.get("metric", col))
            sub = pd.DataFrame(
                {
                    metric: self.frame[col].to_numpy(),
                    f"{metric}_status": self.frame[f"{col}_status"].to_numpy(),
                    f"{metric}_verdicts": self.frame[f"{col}_verdicts"].to_numpy(),
                }
            )
            if f"{col}_reason" in self.frame:
                sub[f"{metric}_reason"] = self.frame[f"{col}_reason"].to_numpy()
            # the answers too: a row without one is not scored (as frame.summary() says)
            answer = (meta.get("columns", {}) or {}).get("answer")
            if answer and answer in self.frame and answer not in sub:
                sub[answer] = self.frame[answer].to_numpy()
            sub.attrs["ragnotebook"] = {
                "metrics": {metric: info},
                "columns": {"answer": answer} if answer in sub else {},
            }
            row = {str(k): v for k, v in summary(sub).iloc[0].to_dict().items()}
            rows.append({"scorer": key, "metric": metric, "column": col, **row})
        columns = ["scorer", "metric", "column"]
        if rows:
            columns += [c for c in rows[0] if c not in columns]
        return _Summary(pd.DataFrame(rows, columns=columns).set_index("scorer"))

    def __repr__(self) -> str:
        parts = [
            f"{k}={v['mean']:.3f} ({v['n_scored']}/{v['n_total']})"
            if not math.isnan(v["mean"])
            else f"{k}=nan ({v['n_scored']}/{v['n_total']})"
            for k, v in self.scores.items()
        ]
        t = self.target_stats
        return (
            f"<EvalRunResult items={t['n_items']} target_errors={t['n_error']} "
            + " ".join(parts)
            + ">"
        )


# --------------------------------------------------------------------------- the run


class _Run:
    """State of one run: items, scorers, engines, outcomes, callbacks, progress."""

    def __init__(
        self,
        data: Any,
        *,
        scorers: Any,
        target: Callable[[Any], Any],
        on_item_complete: Callable[[dict[str, Any]], Any] | None,
        concurrency: int,
        fail_fast: bool,
        cache_target: Any,
        progress: bool,
        cache: Any,
    ) -> None:
        if not callable(target):
            raise TypeError(f"target must be callable, got {type(target).__name__}")
        if on_item_complete is not None and not callable(on_item_complete):
            raise TypeError("on_item_complete must be callable")
        check_count(concurrency, "concurrency")
        self.items = _items(data)
        self.scorers = _scorers(scorers)
        self.target = target
        self.target_is_async = _is_async_callable(target)
        self.callback = on_item_complete
        self.concurrency = concurrency
        self.fail_fast = fail_fast
        self.memo = _memo_for(target, cache_target)
        self.data = data
        from ragnotebook.api import _Progress, _resolve_cache

        # one engine per distinct judge, so judge calls of all its scorers share limits
        self.engines: dict[int, Engine] = {}
        for s in self.scorers:
            judge: Judge = s.scorer.judge
            if id(judge) not in self.engines:
                self.engines[id(judge)] = Engine(
                    judge, concurrency=16, cache=_resolve_cache(cache, judge)
                )
        self.outcomes: dict[int, _Outcome] = {}
        self._threads: ThreadPoolExecutor | None = None  # for a sync target, during arun
        self.failure: _Outcome | None = None
        self.callback_error: BaseException | None = None
        self.pending: queue.Queue[dict[str, Any]] = queue.Queue()
        self.delivered = 0
        self.started = time.time()
        self.wall = 0.0
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.bar = _Progress(
            progress, len(self.items), "ragnotebook run_evals", "item", lambda: len(self.outcomes)
        )
        self._inflight: dict[str, asyncio.Future[tuple[Any, float]]] = {}

    # ---------------------------------------------------------------- callbacks
    def _payload(self, item: _Item, out: _Outcome) -> dict[str, Any]:
        results = {
            s.key: ScorerResult.from_metric(
                out.results[s.key], run_id=str(uuid.uuid4()), scorer_id=s.key
            )
            for s in self.scorers
            if s.key in out.results
        }
        return {
            "item": item.record,
            "target_result": out.output,
            "scorer_results": results,
            "index": item.index,
            "target_error": out.error,
            "latency_s": out.latency,
        }

    def _request_stop(self) -> None:
        if self._stop is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)

    def drain(self) -> None:
        """Deliver queued completions (sync API: called from the calling thread)."""
        while True:
            try:
                payload = self.pending.get_nowait()
            except queue.Empty:
                break
            if self.callback is None or self.callback_error is not None:
                continue
            try:
                self.callback(payload)
                self.delivered += 1
            except Exception as exc:
                self.callback_error = exc
                self._request_stop()
        self.bar.update()

    async def _deliver_async(self, payload: dict[str, Any]) -> None:
        if self.callback is not None and self.callback_error is None:
            try:
                got = self.callback(payload)
                if inspect.isawaitable(got):
                    await got
                self.delivered += 1
            except Exception as exc:
                self.callback_error = exc
                if self._stop is not None:
                    self._stop.set()
        self.bar.update()

    # ---------------------------------------------------------------- one item
    async def _target(self, item: _Item) -> tuple[Any, float, bool]:
        """Call the target (or read the memo): (output, latency seconds, cached)."""
        key = None
        if self.memo is not None:
            key = _memo_key(item.input)
            hit = self.memo.get(key)
            if hit is not None:
                return hit[0], float(hit[1]), True
            running = self._inflight.get(key)
            if running is not None:  # the same input is being computed: share it
                output, latency = await asyncio.shield(running)
                return output, latency, True
            future: asyncio.Future[tuple[Any, float]] = asyncio.get_running_loop().create_future()
            self._inflight[key] = future
        try:
            t0 = time.perf_counter()
            if self.target_is_async:
                output = await self.target(item.input)
                latency = time.perf_counter() - t0
            else:
                # timed in the worker thread: the seconds spent in the target, not in a queue
                context = contextvars.copy_context()
                output, latency = await asyncio.get_running_loop().run_in_executor(
                    self._threads, context.run, _timed, self.target, item.input
                )
                if inspect.isawaitable(output):
                    t1 = time.perf_counter()
                    output = await output
                    latency += time.perf_counter() - t1
            _check_output(output)
        except BaseException as exc:
            if key is not None:
                self._inflight.pop(key, None)
                if not future.done():
                    if isinstance(exc, asyncio.CancelledError):
                        future.cancel()
                    else:
                        future.set_exception(exc)
                        future.exception()  # retrieved: waiters re-raise it themselves
            raise
        if key is not None and self.memo is not None:
            self.memo[key] = (output, latency)
            self._inflight.pop(key, None)
            future.set_result((output, latency))
        return output, latency, False

    def _contexts(self, item: _Item, output: Any) -> list[str]:
        """The chunks shown in the frame: those the scorers judged (precision first)."""
        order = sorted(self.scorers, key=lambda s: s.scorer.metric != "context_precision")
        for s in order:
            try:
                got = s.scorer.resolve_context(item.input, output)
            except Exception:
                continue
            if got is not None:
                return list(got)
        try:
            return list(contexts_from_output(item.input, output) or [])
        except ValueError:  # chunks that are no text: the scorers' rows say why
            return []

    async def _one(self, item: _Item, sem: asyncio.Semaphore, sync: bool) -> None:
        async with sem:
            if self._stop is not None and self._stop.is_set():
                return  # fail_fast or a failing callback stopped the run: never start
            out = _Outcome(item.index, "ok")
            try:
                output, out.latency, out.cached = await self._target(item)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                out.status, out.error = "error", _describe(exc)
                message = f"target error: {out.error}"
                out.results = {
                    s.key: MetricResult.failed(s.scorer.metric, message) for s in self.scorers
                }
            else:
                out.output = output
                out.answer = answer_from_output(output)
                out.contexts = self._contexts(item, output)
                try:
                    out.results = await self._score(item, output)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # never lose the item: record it as a scorer error
                    message = _describe(exc)
                    out.results = {
                        s.key: MetricResult.failed(s.scorer.metric, message) for s in self.scorers
                    }
            self.outcomes[item.index] = out
            if self.fail_fast and out.failed() and self.failure is None:
                self.failure = out  # before the slot is released: nothing else starts
                if self._stop is not None:
                    self._stop.set()
        payload = self._payload(item, out)
        if sync:
            self.pending.put(payload)
        else:
            await self._deliver_async(payload)

    async def _score(self, item: _Item, output: Any) -> dict[str, MetricResult]:
        # Each item's jobs go through its judge's engine as soon as its target returns
        # (Engine.arun per item and judge): results, counters and the cache are shared
        # across items; the item semaphore bounds how many items score at once.
        groups: dict[int, list[Job]] = {}
        for s in self.scorers:
            make = partial(s.scorer.plan, item.input, output, item.ground_truth)
            groups.setdefault(id(s.scorer.judge), []).append(Job(item.index, s.key, make))
        await asyncio.gather(*(self.engines[j].arun(jobs) for j, jobs in groups.items()))
        results: dict[str, MetricResult] = {}
        for s in self.scorers:
            engine = self.engines[id(s.scorer.judge)]
            res = engine.results.get((item.index, s.key))
            if res is None:
                res = MetricResult.failed(s.scorer.metric, CANCELLED_MESSAGE)
            results[s.key] = replace(res, metric=s.scorer.metric)
        return results

    async def arun(self, *, sync: bool) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self.callback_error is not None:  # raised while the run was being submitted
            self._stop.set()
        sem = asyncio.Semaphore(self.concurrency)
        if not self.target_is_async:
            self._threads = ThreadPoolExecutor(
                max_workers=self.concurrency, thread_name_prefix="ragnotebook-target"
            )
        t0 = time.perf_counter()
        tasks = [asyncio.ensure_future(self._one(item, sem, sync)) for item in self.items]
        everything: asyncio.Future[Any] = asyncio.gather(*tasks)
        stopper: asyncio.Future[Any] = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({everything, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopper.cancel()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, stopper, return_exceptions=True)
            if everything.done() and not everything.cancelled():
                everything.exception()  # mark retrieved
            self.wall = time.perf_counter() - t0
            if self._threads is not None:
                # a target still running after a stop cannot be interrupted: not waited for
                self._threads.shutdown(wait=False, cancel_futures=True)
                self._threads = None

    # ---------------------------------------------------------------- the result
    def result(self, *, cancel_reason: str = CANCELLED_MESSAGE) -> EvalRunResult:
        return _build_result(self, cancel_reason)


def _timed(target: Callable[[Any], Any], value: Any) -> tuple[Any, float]:
    """``target(value)`` and the seconds it took, timed in the calling (worker) thread."""
    t0 = time.perf_counter()
    output = target(value)
    return output, time.perf_counter() - t0


def _build_result(run: _Run, cancel_reason: str) -> EvalRunResult:
    outcomes: list[_Outcome] = []
    for item in run.items:
        out = run.outcomes.get(item.index)
        if out is None:
            out = _Outcome(item.index, "cancelled", error=cancel_reason)
            out.results = {
                s.key: MetricResult.failed(s.scorer.metric, cancel_reason) for s in run.scorers
            }
        outcomes.append(out)
    is_frame = isinstance(run.data, pd.DataFrame)
    index = run.data.index if is_frame else pd.RangeIndex(len(run.items))
    inputs = [it.input for it in run.items]
    frame = pd.DataFrame(index=index)
    frame["input"] = pd.Series(inputs, index=index, dtype=object)
    text_inputs = all(isinstance(v, str) for v in inputs)
    if not text_inputs:
        frame["question"] = pd.array([question_from_input(v) for v in inputs], dtype="string")
    truths = [it.ground_truth for it in run.items]
    if all(t is None or isinstance(t, str) for t in truths):
        frame["ground_truth"] = pd.array(truths, dtype="string")
    else:
        frame["ground_truth"] = pd.Series(truths, index=index, dtype=object)
    frame["answer"] = pd.array([o.answer for o in outcomes], dtype="string")
    frame["contexts"] = pd.Series([list(o.contexts) for o in outcomes], index=index, dtype=object)
    frame["target_output"] = pd.Series([o.output for o in outcomes], index=index, dtype=object)
    latency = pd.array([o.latency for o in outcomes], dtype="Float64")
    frame["target_latency_s"] = pd.Series(latency, index=index).where(
        ~pd.Series([math.isnan(o.latency) for o in outcomes], index=index)
    )
    frame["target_status"] = pd.array([o.status for o in outcomes], dtype="string")
    frame["target_error"] = pd.array([o.error for o in outcomes], dtype="string")
    frame["target_cached"] = pd.array([o.cached for o in outcomes], dtype="boolean")
    extras: dict[str, list[Any]] = {}
    clashing: dict[str, None] = {}
    for item in run.items:
        for key in item.record:
            if isinstance(key, str) and key not in _RESERVED and key not in frame.columns:
                extras.setdefault(key, [])
            elif isinstance(key, str) and key not in _USED_KEYS:
                clashing[key] = None  # a result column's name ("answer", "contexts", ...)
    suffixes = ("", "_reason", "_verdicts", "_status", "_error")
    scorer_columns = {f"{sc.column}{x}" for sc in run.scorers for x in suffixes}
    clashing.update({k: None for k in extras if k in scorer_columns})
    for key in clashing:
        extras.pop(key, None)
    if clashing:
        warn_user(
            f"run_evals: the item field(s) {and_list(clashing)} have the name of a result "
            "column and are left out of the frame (rename them, e.g. 'gold_contexts', to "
            "keep them).",
            UserWarning,
        )
    for key in extras:
        frame[key] = pd.Series([it.record.get(key) for it in run.items], index=index, dtype=object)
        if isinstance(run.data, pd.DataFrame) and key in run.data.columns:
            frame[key] = run.data[key].array
    from ragnotebook.api import write_results

    for s in run.scorers:
        write_results(frame, s.column, [o.results[s.key] for o in outcomes])
    frame.attrs["ragnotebook"] = _metadata(run, frame, outcomes, text_inputs)
    scores = {}
    from ragnotebook.frame import scored_mask

    for s in run.scorers:
        status = frame[f"{s.column}_status"].astype("string")
        values = pd.to_numeric(frame[s.column], errors="coerce").astype("float64")
        mask = scored_mask(frame, s.column)
        n_total = len(frame)
        n_scored = int(mask.sum())
        scores[s.key] = {
            "mean": float(values[mask].mean()) if n_scored else math.nan,
            "n_scored": n_scored,
            "n_error": int((status == "error").sum()),
            "n_total": n_total,
            "coverage": n_scored / n_total if n_total else math.nan,
            "metric": str(s.scorer.metric),
            "column": s.column,
        }
    return EvalRunResult(
        frame, scores, _target_stats(outcomes), {s.key: s.column for s in run.scorers}
    )


def _target_stats(outcomes: list[_Outcome]) -> dict[str, Any]:
    lat = [o.latency for o in outcomes if o.status == "ok" and not math.isnan(o.latency)]
    lat_sorted = sorted(lat)
    p95 = lat_sorted[min(len(lat_sorted) - 1, math.ceil(0.95 * len(lat_sorted)) - 1)] if lat else 0
    return {
        "n_items": len(outcomes),
        "n_ok": sum(o.status == "ok" for o in outcomes),
        "n_error": sum(o.status == "error" for o in outcomes),
        "n_cancelled": sum(o.status == "cancelled" for o in outcomes),
        "cache_hits": sum(o.cached for o in outcomes),
        "mean_latency_s": round(sum(lat) / len(lat), 6) if lat else math.nan,
        "p95_latency_s": round(float(p95), 6) if lat else math.nan,
    }


def _metadata(
    run: _Run, frame: pd.DataFrame, outcomes: list[_Outcome], text_inputs: bool
) -> dict[str, Any]:
    from ragnotebook.api import _json_safe

    metrics: dict[str, Any] = {}
    for s in run.scorers:
        judge = s.scorer.judge
        engine = run.engines[id(judge)]
        statuses = frame[f"{s.column}_status"].value_counts().to_dict()
        config = getattr(s.scorer, "config", None)
        ident = judge.identity()
        metrics[s.column] = {
            **engine.stats.for_metric(s.key).to_dict(),
            "rows": len(frame),
            "statuses": {str(k): int(v) for k, v in statuses.items()},
            "metric": str(s.scorer.metric),
            "scorer_id": s.key,
            "scale": getattr(config, "scale", None),
            "decimals": getattr(config, "decimals", None),
            "reason_mode": getattr(config, "reason", None),
            **(
                {"reference": getattr(config, "reference", None)}
                if s.scorer.metric == "context_precision"
                else {}
            ),
            "model": str(ident.get("model", judge.judge_id)),
            "judge": judge.judge_id,
        }
    first = run.scorers[0].scorer.judge if run.scorers else None
    identity = first.identity() if first is not None else {}
    judges: dict[str, Any] = {}
    for s in run.scorers:
        judges.setdefault(s.scorer.judge.judge_id, _json_safe(s.scorer.judge.identity()))
    calls = sum(e.stats.calls for e in run.engines.values())
    attempts = sum(e.stats.attempts for e in run.engines.values())
    target = run.target
    return {
        "version": __version__,
        "model": str(identity.get("model", first.judge_id)) if first is not None else None,
        "judge": first.judge_id if first is not None else None,
        "judge_identity": _json_safe(identity),
        "prompt_versions": _json_safe(identity.get("prompt_versions", {})),
        "columns": {
            "question": "input" if text_inputs else "question",
            "answer": "answer",
            "contexts": "contexts",
            "ground_truth": "ground_truth",
        },
        "metrics": metrics,
        "last_run": {
            "metrics": [s.column for s in run.scorers],
            "rows": len(frame),
            "started_at": run.started,
            "calls": calls,
            "attempts": attempts,
            "max_in_flight": max((e.stats.max_in_flight for e in run.engines.values()), default=0),
            "wall_seconds": round(run.wall, 4),
            "interrupted": any(o.status == "cancelled" for o in outcomes),
        },
        "run_evals": {
            "target": getattr(target, "__qualname__", type(target).__name__),
            "target_async": run.target_is_async,
            "scorers": {s.key: s.column for s in run.scorers},
            "judges": judges,
            "concurrency": run.concurrency,
            "fail_fast": run.fail_fast,
            "cache_target": run.memo is not None,
            "target_stats": _json_safe(_target_stats(outcomes)),
        },
    }


def _finish(run: _Run) -> EvalRunResult:
    if run.callback_error is not None:
        raise run.callback_error
    if run.failure is not None:
        reason = f"cancelled: fail_fast stopped the run after item {run.failure.index} failed"
        result = run.result(cancel_reason=reason)
        failed = run.failure
        what = (
            f"the target raised {failed.error}"
            if failed.status == "error"
            else "a scorer failed: "
            + "; ".join(f"{k}: {r.error}" for k, r in failed.results.items() if r.status == "error")
        )
        raise RunEvalsError(
            f"run_evals stopped at item {failed.index} (fail_fast=True): {what}",
            result=result,
            index=failed.index,
        )
    result = run.result()
    _warn_target_failures(result)
    _warn_no_context(result)
    _warn_no_answer(result, {s.scorer.metric for s in run.scorers})
    _warn_judge_output(run, result)
    return result


def _warn_judge_output(run: _Run, result: EvalRunResult) -> None:
    """Warn once when the judge's replies were partly unusable on rows that were scored, as
    ``evaluate()`` does: verdicts still missing or not a valid word after the re-ask (they
    count against the row, :data:`ragnotebook.api._UNJUDGED_COUNTS_AS`), or supporting
    chunks cited that the item does not have (left out of the verdicts). Rows that failed
    outright are ``error`` rows, said by their status, not here."""
    from ragnotebook.api import _UNJUDGED_COUNTS_AS

    if result.frame.attrs.get("ragnotebook", {}).get("last_run", {}).get("interrupted"):
        return
    said: list[str] = []
    for s in run.scorers:
        done = [
            r
            for o in run.outcomes.values()
            if (r := o.results.get(s.key)) is not None and r.status == "ok"
        ]
        unjudged = [r for r in done if r.missing_verdicts + r.invalid_verdicts]
        phantom = [r for r in done if r.out_of_range_chunks]
        parts = []
        if unjudged:
            noun, counts_as = _UNJUDGED_COUNTS_AS[str(s.scorer.metric)]
            items = sum(r.missing_verdicts + r.invalid_verdicts for r in unjudged)
            parts.append(
                f"{items} {noun} verdict(s) in {len(unjudged)} item(s) missing or not a valid "
                f"word after the re-ask, counted as {counts_as}"
            )
        if phantom:
            cited = sum(r.out_of_range_chunks for r in phantom)
            parts.append(
                f"{cited} cited chunk index(es) in {len(phantom)} item(s) that name no chunk "
                "of the item, left out of supporting_chunks"
            )
        if parts:
            said.append(f"{s.key}: {'; '.join(parts)}")
    if said:
        warn_user(
            f"run_evals: the judge's replies were partly unusable ({' | '.join(said)}). "
            "result.summary() counts them (missing_verdicts, out_of_range_chunks); check that "
            "the model follows the prompt's answer format.",
            UserWarning,
        )


def _warn_target_failures(result: EvalRunResult) -> None:
    """Warn once when the target raised (or returned what cannot be read) on some items,
    as a run whose judge failed does: a nightly job whose app is down read NaN means with
    no word (the statuses said it, no one looked)."""
    frame = result.frame
    if "target_status" not in frame or not len(frame):
        return
    failed = frame["target_status"].eq("error").fillna(False).to_numpy(bool)
    n = int(failed.sum())
    if not n:
        return
    pos = int(failed.argmax())
    error = frame["target_error"].iloc[pos]
    text = "" if pd.isna(error) else str(error)
    text = text[:300] + "..." if len(text) > 300 else text.rstrip().rstrip(".")
    warn_user(
        f"ragnotebook: rows failed (the target, on {n} of {len(frame)} items); first error "
        f"(item {frame.index.tolist()[pos]!r}): {text}. Their scores have status 'error' and "
        "are left out of the means; target_error says why.",
        UserWarning,
    )


def _warn_no_answer(result: EvalRunResult, metrics: set[str]) -> None:
    """Warn once when every target output that is a dict holds no answer under the keys
    read (a target returning ``{"reply": ...}``), or holds it as no text
    (``{"answer": [...]}``): faithfulness would have no answer on any row, which is a
    set-up mistake, not a measurement."""
    frame = result.frame
    if "faithfulness" not in metrics or "target_output" not in frame or not len(frame):
        return
    dicts = [o for o in frame["target_output"].tolist() if isinstance(o, Mapping)]
    if not dicts or len(dicts) != int(frame["target_status"].eq("ok").sum()):
        return
    if frame["answer"].notna().any():
        return
    wrong = next((p for p in map(answer_problem, dicts) if p is not None), None)
    if wrong is not None:  # the key is there, its value is no text
        warn_user(
            "run_evals: no target output holds its answer as a string, so faithfulness has "
            f"no answer to judge on any row (status error); the first: {wrong}. Return the "
            "answer as one text.",
            UserWarning,
        )
        return
    keys = sorted({str(k) for o in dicts for k in o})[:8]
    keys_said = ", ".join(map(repr, ANSWER_KEYS[:-1])) + f" or {ANSWER_KEYS[-1]!r}"
    warn_user(
        f"run_evals: no target output holds an answer under {keys_said} (their keys: "
        f"{', '.join(map(repr, keys))}), so faithfulness has no answer to judge on any row "
        "(status no_claims, not averaged). Return the answer under one of those keys.",
        UserWarning,
    )


def _warn_no_context(result: EvalRunResult) -> None:
    """Warn once when a scorer found no chunk in any row (every row ``no_context``): a
    target that returns a plain string gives faithfulness a measured 0 on every row,
    which is a set-up mistake, not a score."""
    empty = [
        key
        for key, col in result.scorer_columns.items()
        if f"{col}_status" in result.frame
        and len(result.frame)
        and result.frame[f"{col}_status"].astype("string").eq("no_context").all()
    ]
    if empty:
        warn_user(
            f"run_evals: no row has a retrieved chunk for {and_list(empty)}: every row is "
            "no_context (a measured 0 for faithfulness and recall). If the target retrieves "
            "chunks, return them (a dict with 'answer' and 'contexts', or a "
            "context_extractor on the scorer).",
            UserWarning,
        )


# --------------------------------------------------------------------------- public API

_PARAMS_DOC = """
    Parameters
    ----------
    data : pandas.DataFrame or list of dict
        One item per row: ``input`` (or ``question``/``user_input``/``query``:
        a string, a dict or chat messages, passed to the target as it is) and
        optionally ``ground_truth`` (or ``reference``/``expected_output``).
        Other fields are kept as columns of the result frame, except those named like
        a result column (``answer``, ``contexts``, a scorer's columns), which are left
        out with one warning. A bare string is
        an item with that input.
    scorers : list of RagScorer
        Scorer objects (:func:`~ragnotebook.create_context_recall_scorer` ...).
        Their contexts come from each scorer's ``context_extractor``, static
        ``context`` or, for faithfulness, the output itself
        (:func:`~ragnotebook.contexts_from_output`). Repeated ids get distinct
        keys: ``context-recall-scorer``, ``context-recall-scorer-2``.
    target : callable
        Your application: ``target(input)``, sync or async, returning a string
        (the answer), a dict with ``answer`` (or ``output``) and ``contexts``,
        or a list of chat messages (the answer is the last assistant text; tool
        results are contexts via the scorers' extractors).
    on_item_complete : callable, optional
        Called once per finished item, in completion order, with ``{"item",
        "target_result", "scorer_results", "index", "target_error",
        "latency_s"}`` (``scorer_results`` maps scorer id to
        :class:`~ragnotebook.ScorerResult`). An exception it raises stops the
        run and propagates.
    concurrency : int, default 4
        Items in flight at once (target call and scoring).
    fail_fast : bool, default False
        Stop at the first item whose target raises or whose scorer fails, and
        raise :class:`RunEvalsError` (with the partial result).
    cache_target : bool or mutable mapping, default False
        Memoise target outputs by input: ``True`` keeps them in memory for as
        long as the target object lives; a mapping (``dict``, :mod:`shelve`)
        is used as the store. Only successful calls are kept; hits have
        ``target_cached`` True and the original latency.
    progress : bool, default True
        A progress bar (stderr), drawn from the calling thread.
    cache : bool, str, path or JudgeCache, optional
        The judge-answer cache, as in :func:`ragnotebook.evaluate` (default:
        the default cache file for LLM judges; ``False`` turns it off).

    Returns
    -------
    EvalRunResult
        ``.scores``, ``.frame``, ``.summary()``, ``.target_stats``.

    Raises
    ------
    RunEvalsError
        With ``fail_fast=True``, at the first failing item.
    TypeError, ValueError
        For malformed ``data``, ``scorers``, ``target`` or options.
"""


def run_evals(
    data: Any,
    *,
    scorers: Any,
    target: Callable[[Any], Any],
    on_item_complete: Callable[[dict[str, Any]], Any] | None = None,
    concurrency: int = 4,
    fail_fast: bool = False,
    cache_target: bool | MutableMapping[str, Any] = False,
    progress: bool = True,
    cache: Any = None,
) -> EvalRunResult:
    run = _Run(**locals())  # the parameters exactly: _Run takes the same names
    run.bar.open()
    try:
        outcome = run_sync(
            lambda: _as_none(run.arun(sync=True)),
            poll=run.drain,
            poll_interval=0.02,
            on_interrupt=lambda: "stop",
        )
    finally:
        run.bar.close()
    if outcome == "stop":
        done = len(run.outcomes)
        warn_user(
            f"ragnotebook: interrupted; {done} of {len(run.items)} items finished and are "
            "kept; the others have target_status 'cancelled'."
        )
        if run.callback_error is not None:
            raise run.callback_error
        return run.result()
    return _finish(run)


async def _as_none(coro: Awaitable[None]) -> str | None:
    await coro
    return None


async def arun_evals(
    data: Any,
    *,
    scorers: Any,
    target: Callable[[Any], Any],
    on_item_complete: Callable[[dict[str, Any]], Any] | None = None,
    concurrency: int = 4,
    fail_fast: bool = False,
    cache_target: bool | MutableMapping[str, Any] = False,
    progress: bool = True,
    cache: Any = None,
) -> EvalRunResult:
    run = _Run(**locals())  # the parameters exactly: _Run takes the same names
    run.bar.open()
    try:
        await run.arun(sync=False)
    finally:
        run.bar.close()
    return _finish(run)


run_evals.__doc__ = (
    """Run a target (your RAG app) on every item and score each output with every scorer.

    Sync: the run happens on ragnotebook's private loop thread, so this works the
    same in scripts, Jupyter and inside a running event loop. Callbacks and the
    progress bar run in the calling thread. Ctrl-C (or the kernel's stop button)
    returns the result with every finished item kept and the rest ``cancelled``.
"""
    + _PARAMS_DOC
    + """
    Examples
    --------
    >>> import ragnotebook
    >>> docs = {"Where is the museum?": "The Harbor Museum is on Pier 4.",
    ...         "When does it open?": "The museum opens at 9 am."}
    >>> def app(question):
    ...     chunk = docs[question]
    ...     return {"answer": chunk, "contexts": [chunk]}
    >>> scorers = [ragnotebook.create_faithfulness_scorer(model="offline"),
    ...            ragnotebook.create_context_recall_scorer(
    ...                model="offline", context_extractor=ragnotebook.contexts_from_output)]
    >>> data = [{"input": q, "ground_truth": a} for q, a in docs.items()]
    >>> seen = []
    >>> res = ragnotebook.run_evals(data, scorers=scorers, target=app, progress=False,
    ...                             on_item_complete=lambda p: seen.append(p["index"]))
    >>> res.scores["faithfulness-scorer"]["mean"], res.scores["context-recall-scorer"]["n_scored"]
    (1.0, 2)
    >>> sorted(seen), list(res.frame.rag.summary().index)
    ([0, 1], ['context_recall', 'faithfulness'])
"""
)

arun_evals.__doc__ = (
    """Async twin of :func:`run_evals`, running on the caller's event loop.

    ``on_item_complete`` is called on that loop (it may be a coroutine
    function). Cancelling the awaiting task cancels every target call and
    judge call in flight and re-raises :class:`asyncio.CancelledError`.
"""
    + _PARAMS_DOC
    + """
    Examples
    --------
    >>> import asyncio, ragnotebook
    >>> async def app(question):
    ...     await asyncio.sleep(0)
    ...     return "The museum is on Pier 4."
    >>> scorer = ragnotebook.create_faithfulness_scorer(
    ...     model="offline", context=["The Harbor Museum is on Pier 4."])
    >>> res = asyncio.run(ragnotebook.arun_evals(["Where is the museum?"], scorers=[scorer],
    ...                                          target=app, progress=False))
    >>> res.scores["faithfulness-scorer"]["mean"]
    1.0
"""
)
