"""The judge protocol and the errors judges raise."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ragnotebook.tasks import Answer, Task

__all__ = ["Judge", "JudgeError"]


@runtime_checkable
class Judge(Protocol):
    """Anything that answers :class:`~ragnotebook.tasks.Task` objects.

    A judge has a stable ``judge_id`` (recorded in results and cache keys), an
    ``identity()`` with every setting that changes its answers (model, sampling
    parameters, prompt versions), and an async ``acomplete(task)`` returning the
    answer model for the task's kind (:class:`~ragnotebook.tasks.Claims`,
    :class:`~ragnotebook.tasks.Verdicts` or :class:`~ragnotebook.tasks.Explanation`).

    Judges may raise :class:`JudgeError`; any other exception is treated as a
    non-retryable error of the row and metric being scored.

    Examples
    --------
    >>> import ragnotebook
    >>> isinstance(ragnotebook.MockJudge(), ragnotebook.Judge)
    True
    """

    @property
    def judge_id(self) -> str:
        """Short stable name, e.g. ``"offline-v24"`` or ``"litellm:openai/gpt-4o-mini"``.

        Returns
        -------
        str
            Recorded in results (``attrs["ragnotebook"]["judge"]``) and cache keys.

        Examples
        --------
        >>> import ragnotebook
        >>> ragnotebook.OfflineJudge().judge_id
        'offline-v24'
        """
        ...

    def identity(self) -> dict[str, Any]:
        """JSON-safe settings that change the judge's answers (never secrets).

        Returns
        -------
        dict
            At least ``{"judge": judge_id}``; an LLM judge adds its model, sampling
            parameters and prompt versions.

        Examples
        --------
        >>> import ragnotebook
        >>> ragnotebook.MockJudge(judge_id="scripted").identity()
        {'judge': 'scripted'}
        """
        ...

    async def acomplete(self, task: Task) -> Answer:
        """Answer one task.

        Parameters
        ----------
        task : Task
            What to do (``extract_claims``, ``verify_claims``, ``attribute_claims``,
            ``judge_chunks`` or ``explain``) and its texts.

        Returns
        -------
        Claims, Verdicts or Explanation
            The answer model for the task's kind.

        Raises
        ------
        JudgeError
            When the judge cannot answer (the engine retries it if ``retryable``).

        Examples
        --------
        >>> import asyncio, ragnotebook
        >>> from ragnotebook.tasks import Task
        >>> task = Task("extract_claims", "faithfulness", text="It opened in 1998. It is free.")
        >>> asyncio.run(ragnotebook.OfflineJudge().acomplete(task)).claims
        ['It opened in 1998.', 'It is free.']
        """
        ...


#: The LLM judge's own options (``LiteLLMJudge``'s keyword arguments): the API passes them
#: to the judge and never takes them for a misspelt option of its own.
LLM_JUDGE_OPTIONS = (
    "api_base",
    "api_key",
    "temperature",
    "max_tokens",
    "timeout",
    "num_retries",
    "structured_output",
    "transport",
)


class JudgeError(Exception):
    """A judge could not answer a task.

    Parameters
    ----------
    message : str
        Human-readable description.
    code : str
        Short machine code: ``"parse_error"``, ``"empty_content"``, ``"timeout"``,
        ``"rate_limited"``, ``"server_error"``, ``"auth_error"``,
        ``"context_too_long"``, ``"bad_request"``, ``"truncated"``, ``"script_exhausted"``.
    retryable : bool
        Whether the engine may retry the same task.
    raw : str or None
        The raw reply text, kept for diagnosis (shown in ``m_error``).
    retry_after : float or None
        Seconds the provider asked to wait before retrying (``Retry-After``).
    status : int or None
        The HTTP status of the reply, when the failure was one (404: the engine stops a
        run whose first calls all get it, as after an authentication failure).

    Examples
    --------
    >>> from ragnotebook import JudgeError
    >>> err = JudgeError("provider said 429", code="rate_limited", retryable=True, retry_after=2)
    >>> str(err), err.retryable
    ('rate_limited: provider said 429', True)
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "error",
        retryable: bool = False,
        raw: str | None = None,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.retryable = retryable
        self.raw = raw
        self.retry_after = retry_after
        self.status = status

    def __str__(self) -> str:
        msg = f"{self.code}: {self.args[0]}"
        if self.raw:
            raw = self.raw if len(self.raw) <= 500 else self.raw[:500] + "..."
            msg += f" | raw reply: {raw!r}"
        return msg
