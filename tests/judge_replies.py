"""A scripted "LLM" for the test server: reads ragnotebook's prompt, answers like OfflineJudge.

The responder parses the task kind (the prompt's ``TASK: <kind>`` line) and the fenced JSON
data, rebuilds the :class:`~ragnotebook.tasks.Task` and answers it with the deterministic
offline judge, so a run through litellm and the test server must give the same scores as
``model="offline"``. ``verdict_override`` forces one verdict word for every item.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from ragnotebook.judges.offline import OfflineJudge
from ragnotebook.tasks import Item, Task

_TASK = re.compile(r"^TASK: (\w+)", re.MULTILINE)
_DATA = re.compile(r'<data id="([0-9a-f]+)">\n(.*)\n</data id="\1">', re.DOTALL)
_OFFLINE = OfflineJudge()


def task_from_request(request: Mapping[str, Any]) -> Task:
    """Rebuild the task a chat-completions request asks about."""
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
        return Task(kind, "m", question=question, text=data["reference_answer"], items=items)
    return Task(kind, "m", question=question, text=data.get("score_summary", ""))


def offline_responder(verdict_override: str | None = None) -> Callable[[Mapping[str, Any]], str]:
    """A server responder answering every ragnotebook task like the offline judge."""

    def respond(request: Mapping[str, Any]) -> str:
        task = task_from_request(request)
        answer = _OFFLINE.complete(task)
        data = answer.model_dump()
        if verdict_override and "verdicts" in data:
            for v in data["verdicts"]:
                v["verdict"] = verdict_override
        return json.dumps(data, ensure_ascii=False)

    return respond
