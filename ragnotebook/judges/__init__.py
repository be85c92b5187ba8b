"""Judges answer scorer tasks: MockJudge (scripted), OfflineJudge (heuristic), LiteLLMJudge."""

from __future__ import annotations

from typing import Any

from ragnotebook.judges.base import Judge, JudgeError

__all__ = ["Judge", "JudgeError", "resolve_judge"]


def resolve_judge(model: Any, **options: Any) -> Judge:
    """Turn a ``model=`` argument into a judge.

    Parameters
    ----------
    model : str or Judge
        ``"offline"`` -> :class:`~ragnotebook.OfflineJudge`; any other string is a
        litellm model -> :class:`~ragnotebook.LiteLLMJudge`; an object with an
        ``acomplete`` method is used as it is.
    **options
        Keyword options for the judge built from a string (``api_base``,
        ``api_key``, ``temperature``, ``timeout``, ...).

    Returns
    -------
    Judge

    Raises
    ------
    TypeError
        For options given with a judge object or the offline judge, or a
        ``model`` of the wrong type.
    ValueError
        For an empty model string.

    Examples
    --------
    >>> resolve_judge("offline").judge_id
    'offline-v24'
    """
    if isinstance(model, str):
        name = model.strip()
        if not name:
            raise ValueError("model is an empty string")
        if name.lower() == "offline":
            from ragnotebook.judges.offline import OfflineJudge

            if options:
                raise TypeError(
                    f"unknown option(s) {sorted(options)}: the offline judge takes no options, "
                    "and these are not scoring or engine options either (check the spelling); "
                    "api_base, api_key, temperature and the like only apply to LLM models"
                )
            return OfflineJudge()
        from ragnotebook.judges.llm import LiteLLMJudge

        return LiteLLMJudge(name, **options)
    if hasattr(model, "acomplete") and hasattr(model, "judge_id"):
        if options:
            raise TypeError(
                f"options {sorted(options)} were given with a judge object; set them on the "
                "judge instead"
            )
        return model  # type: ignore[no-any-return]
    raise TypeError(
        f"model must be a litellm model string, 'offline' or a judge object, got {type(model).__name__}"
    )
