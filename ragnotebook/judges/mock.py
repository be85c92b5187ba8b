"""MockJudge: a public scripted judge for tests, docs and reproducible examples."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from ragnotebook._warn import notify
from ragnotebook.judges.base import JudgeError
from ragnotebook.tasks import (
    ANSWER_MODELS,
    Answer,
    Claims,
    Explanation,
    Task,
    Verdict,
    Verdicts,
)

__all__ = ["MockJudge"]

_KINDS = tuple(ANSWER_MODELS)


class MockJudge:
    """A judge that answers from scripts, per task kind, and records every task.

    Each script is either a callable ``f(task) -> reply`` or a list of replies
    consumed in order (one per task of that kind). A reply may be

    * an answer model (:class:`~ragnotebook.tasks.Claims`,
      :class:`~ragnotebook.tasks.Verdicts`, :class:`~ragnotebook.tasks.Explanation`);
    * for ``extract_claims``: a list of claim strings;
    * for verdict tasks: a list of verdict words aligned with ``task.items``
      (``["yes", "no"]``), or a list of dicts with ``verdict`` and optionally
      ``index``, ``reason``, ``supporting_chunks`` (an absent ``index`` takes
      the aligned item's index);
    * for ``explain``: a string;
    * an exception instance, which is raised (to simulate failures). The engine
      retries a :class:`~ragnotebook.judges.base.JudgeError` made with
      ``retryable=True`` (up to ``max_retries``, backing off as for a flaky
      server; each retry takes the script's next reply); any other exception
      fails the row at once with status ``error``.

    A verdict reply that leaves items without a valid verdict is followed by one re-ask
    for those items (the scorers' rule, ``spec/scorers.md``): that re-ask is a task of the
    same kind, so a list script needs a second reply for it (``[]`` answers nothing again,
    and the items count as missing); a callable sees it as a task with fewer items.

    Scripts can also be keyed ``"<metric>.<kind>"`` in ``scripts`` (e.g.
    ``"faithfulness.extract_claims"``), which takes precedence over the kind alone.

    Parameters
    ----------
    extract_claims, attribute_claims, judge_chunks, verify_claims, explain : list or callable, optional
        Scripts per task kind.
    scripts : mapping of str to list or callable, optional
        Scripts keyed by kind or ``"metric.kind"``.
    fallback : Judge, optional
        A judge that answers task kinds without a script (e.g.
        :class:`~ragnotebook.OfflineJudge`), and the tasks of a list script that has run
        out (with one warning per task kind, so a script one reply short does not pass
        unnoticed). Without one, an unscripted task raises
        :class:`~ragnotebook.judges.base.JudgeError` (``script_exhausted``).
    latency : float, default 0.0
        Seconds to sleep before each answer (to exercise concurrency).
    judge_id : str, default "mock"
        Identifier recorded in results.

    Attributes
    ----------
    tasks : list of Task
        Every task received, in arrival order.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> judge = ragnotebook.MockJudge(
    ...     extract_claims=[["The depot ships 40 pallets a day.", "It ships from Dock B."]],
    ...     attribute_claims=[["yes", "no"]],
    ... )
    >>> df = pd.DataFrame({"question": ["How much?"], "answer": ["40."],
    ...                    "contexts": [["The depot ships 40 pallets daily."]],
    ...                    "ground_truth": ["The depot ships 40 pallets a day from Dock B."]})
    >>> out = ragnotebook.context_recall(df, model=judge, progress=False)
    >>> float(out.loc[0, "context_recall"])
    0.5
    >>> [t.kind for t in judge.tasks]
    ['extract_claims', 'attribute_claims']
    """

    def __init__(
        self,
        *,
        extract_claims: Any = None,
        attribute_claims: Any = None,
        judge_chunks: Any = None,
        verify_claims: Any = None,
        explain: Any = None,
        scripts: Mapping[str, Any] | None = None,
        fallback: Any = None,
        latency: float = 0.0,
        judge_id: str = "mock",
    ) -> None:
        self._scripts: dict[str, Any] = {}
        for kind, script in (
            ("extract_claims", extract_claims),
            ("attribute_claims", attribute_claims),
            ("judge_chunks", judge_chunks),
            ("verify_claims", verify_claims),
            ("explain", explain),
        ):
            if script is not None:
                self._scripts[kind] = script
        for key, script in (scripts or {}).items():
            kind = key.rsplit(".", 1)[-1]
            if kind not in _KINDS:
                raise ValueError(
                    f"unknown task kind in script key {key!r}; expected one of {_KINDS}"
                )
            self._scripts[key] = script
        self._cursor: dict[str, int] = {}
        self._fell_back: set[str] = set()  # kinds whose list ran out into the fallback
        self._lock = threading.Lock()
        self.fallback = fallback
        self.latency = float(latency)
        self._judge_id = judge_id
        self.tasks: list[Task] = []

    @property
    def judge_id(self) -> str:
        """Identifier recorded in results (default ``"mock"``).

        Returns
        -------
        str

        Examples
        --------
        >>> from ragnotebook import MockJudge
        >>> MockJudge().judge_id, MockJudge(judge_id="v2-script").judge_id
        ('mock', 'v2-script')
        """
        return self._judge_id

    def identity(self) -> dict[str, Any]:
        """Settings that identify this judge: ``{"judge": judge_id}``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from ragnotebook import MockJudge
        >>> MockJudge().identity()
        {'judge': 'mock'}
        """
        return {"judge": self._judge_id}

    def tasks_of(self, kind: str, metric: str | None = None) -> list[Task]:
        """Tasks received of one kind (and, optionally, one metric), in arrival order.

        Parameters
        ----------
        kind : str
            Task kind, e.g. ``"verify_claims"``.
        metric : str, optional
            Restrict to one metric.

        Returns
        -------
        list of Task

        Examples
        --------
        >>> import pandas as pd
        >>> import ragnotebook
        >>> judge = ragnotebook.MockJudge(extract_claims=[["c1", "c2"]], verify_claims=[["yes", "no"]])
        >>> df = pd.DataFrame({"answer": ["c1. c2."], "contexts": [["c1."]]})
        >>> ragnotebook.faithfulness(df, model=judge, progress=False)["faithfulness"].tolist()
        [0.5]
        >>> [t.text for t in judge.tasks_of("verify_claims")[0].items]
        ['c1', 'c2']
        """
        return [t for t in self.tasks if t.kind == kind and (metric is None or t.metric == metric)]

    async def acomplete(self, task: Task) -> Answer:
        """Answer ``task`` from its script (see the class docstring).

        Parameters
        ----------
        task : Task
            The task; it is recorded in :attr:`tasks` before it is answered.

        Returns
        -------
        Claims, Verdicts or Explanation
            The next scripted answer for the task's kind (or ``metric.kind``).

        Raises
        ------
        JudgeError
            ``script_exhausted`` when no script (or no remaining list entry)
            answers the task and there is no fallback.

        Examples
        --------
        >>> import asyncio
        >>> from ragnotebook import MockJudge
        >>> from ragnotebook.tasks import Task
        >>> judge = MockJudge(extract_claims=[["The pier opened in 1998."]])
        >>> task = Task("extract_claims", "faithfulness", text="The pier opened in 1998.")
        >>> asyncio.run(judge.acomplete(task)).claims
        ['The pier opened in 1998.']
        """
        with self._lock:
            self.tasks.append(task)
            key = f"{task.metric}.{task.kind}"
            if key not in self._scripts:
                key = task.kind
            script = self._scripts.get(key)
            reply: Any
            if script is None:
                reply = _NO_SCRIPT
            elif callable(script):
                reply = _CALL
            else:
                pos = self._cursor.get(key, 0)
                items = list(script) if not isinstance(script, list) else script
                if pos >= len(items):
                    reply = _NO_SCRIPT
                else:
                    reply = items[pos]
                    self._cursor[key] = pos + 1
        if self.latency:
            await asyncio.sleep(self.latency)
        if reply is _CALL:
            assert script is not None
            reply = script(task)
            if asyncio.iscoroutine(reply):
                reply = await reply
        if reply is _NO_SCRIPT:
            if self.fallback is not None:
                if script is not None and key not in self._fell_back:
                    # a list script was given for this kind and has run out
                    self._fell_back.add(key)
                    notify(
                        f"MockJudge: the script for {key!r} ran out after "
                        f"{self._cursor.get(key, 0)} replies; the fallback judge answers "
                        "the rest of its tasks"
                    )
                result: Answer = await self.fallback.acomplete(task)
                return result
            hint = ""
            answered = script is not None and self._cursor.get(key, 0) > 0
            if answered and task.items and task.kind != "extract_claims":
                # a list script used up by the first ask: this is most likely the re-ask
                # for items left without a verdict
                asked = ", ".join(str(item.index) for item in task.items[:5])
                hint = (
                    f"; this looks like the one re-ask for items without a verdict (item "
                    f"{asked}): script a reply for it too, e.g. [] to leave them missing"
                )
            raise JudgeError(
                f"MockJudge has no (remaining) script for task kind {task.kind!r} "
                f"of metric {task.metric!r}{hint}",
                code="script_exhausted",
            )
        if isinstance(reply, BaseException):
            raise reply
        return coerce_reply(task, reply)


_NO_SCRIPT = object()
_CALL = object()


def coerce_reply(task: Task, reply: Any) -> Answer:
    """Turn a convenient scripted reply into the answer model for ``task.kind``."""
    model = ANSWER_MODELS[task.kind]
    if isinstance(reply, BaseModel):
        if not isinstance(reply, model):
            raise TypeError(
                f"a {task.kind} task needs a {model.__name__}, got {type(reply).__name__}"
            )
        return reply  # type: ignore[return-value]
    if task.kind == "extract_claims":
        if isinstance(reply, str):
            reply = [reply]
        return Claims(claims=[str(c) for c in reply])
    if task.kind == "explain":
        return Explanation(reason=str(reply))
    if isinstance(reply, Mapping) and "verdicts" in reply:
        reply = reply["verdicts"]
    verdicts: list[Verdict] = []
    items = task.items
    for pos, entry in enumerate(_as_list(reply)):
        default_index = items[pos].index if pos < len(items) else pos
        if isinstance(entry, str):
            verdicts.append(Verdict(index=default_index, verdict=entry))
        elif isinstance(entry, Mapping):
            data = dict(entry)
            data.setdefault("index", default_index)
            verdicts.append(Verdict.model_validate(data))
        elif isinstance(entry, Verdict):
            verdicts.append(entry)
        else:
            raise TypeError(f"cannot read a verdict from {entry!r}")
    return Verdicts(verdicts=verdicts)


def _as_list(reply: Any) -> list[Any]:
    if isinstance(reply, str | bytes) or not isinstance(reply, Iterable):
        raise TypeError(f"verdict replies must be a list, got {reply!r}")
    return list(reply)
