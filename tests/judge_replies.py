"""A scripted "LLM" for the test server: reads ragnotebook's prompt, answers like OfflineJudge.

The responder parses the task kind (the prompt's ``TASK: <kind>`` line) and the fenced JSON
data, rebuilds the :class:`~ragnotebook.tasks.Task` and answers it with the deterministic
offline judge, so a run through litellm and the test server must give the same scores as
``model="offline"``. ``verdict_override`` forces one verdict word for every item.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from ragnotebook.judges.offline import OfflineJudge
from ragnotebook.tasks import Item, Task

_TASK = re.compile(r"^TASK: (\w+)", re.MULTILINE)
_DATA = re.compile(r'<data id="([0-9a-f]+)">\n(.*)\n</data id="\1">', re.DOTALL)
_OFFLINE = OfflineJudge()
#: judge_chunks batches seen, per (question, reference): {chunk index: chunk}
Rows = dict[tuple[Any, str], dict[int, str]]


def task_from_request(request: Mapping[str, Any], rows: Rows | None = None) -> Task:
    """Rebuild the task a chat-completions request asks about.

    With ``rows``, a ``judge_chunks`` task carries every chunk seen so far for its question
    and reference as ``chunks``: the offline judge weighs words over the row's chunks, and
    a prompt shows only its batch, so a truncated reply's halves are answered as the whole
    batch was.
    """
    user = next(m["content"] for m in request["messages"] if m["role"] == "user")
    kind = _TASK.search(user).group(1)  # type: ignore[union-attr]
    data = json.loads(_DATA.search(user).group(2))  # type: ignore[union-attr]
    question = data.get("question")
    if kind == "extract_claims":
        source = "ground_truth" if data.get("text_is") == "reference answer" else "answer"
        return Task(kind, "m", question=question, text=data["text"], source=source)
    if kind in ("attribute_claims", "verify_claims"):
        chunks = tuple(c["chunk"] for c in data["context"])
        items = tuple(Item(c["index"], c["claim"]) for c in data["claims"])
        return Task(kind, "m", question=question, items=items, chunks=chunks)
    if kind == "judge_chunks":
        items = tuple(Item(c["index"], c["chunk"]) for c in data["chunks"])
        chunks: tuple[str, ...] = ()
        if rows is not None:
            seen = rows.setdefault((question, data["reference_answer"]), {})
            seen.update((it.index, it.text) for it in items)
            chunks = tuple(seen[i] for i in sorted(seen))
        return Task(
            kind, "m", question=question, text=data["reference_answer"], items=items, chunks=chunks
        )
    return Task(kind, "m", question=question, text=data.get("score_summary", ""))


def offline_responder(verdict_override: str | None = None) -> Callable[[Mapping[str, Any]], str]:
    """A server responder answering every ragnotebook task like the offline judge."""

    rows: Rows = {}
    lock = threading.Lock()  # the server may call this from several threads

    def respond(request: Mapping[str, Any]) -> str:
        with lock:
            task = task_from_request(request, rows)
        answer = _OFFLINE.complete(task)
        data = answer.model_dump()
        if verdict_override and "verdicts" in data:
            for v in data["verdicts"]:
                v["verdict"] = verdict_override
        return json.dumps(data, ensure_ascii=False)

    return respond
