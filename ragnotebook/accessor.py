"""The ``df.rag`` accessor: thin delegates to the package functions.

pandas builds a new accessor object on every ``df.rag`` access, so ``__init__``
only keeps the frame; run metadata lives in ``df.attrs["ragnotebook"]``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ragnotebook import api, frame

__all__ = ["RagAccessor"]


@pd.api.extensions.register_dataframe_accessor("rag")
class RagAccessor:
    """RAG evaluation for a DataFrame: ``df.rag.evaluate(model=...)`` and friends.

    Every method delegates to the function of the same name in
    :mod:`ragnotebook` (see its docstring for parameters, returned columns and
    errors), with this frame as the first argument.

    Examples
    --------
    >>> import pandas as pd, ragnotebook
    >>> df = pd.DataFrame({"question": ["Where is it?"], "answer": ["It is on Pier 4."],
    ...                    "contexts": [["The museum is on Pier 4."]],
    ...                    "ground_truth": ["The museum is on Pier 4."]})
    >>> scored = df.rag.evaluate(model="offline", progress=False)
    >>> scored.rag.summary()["mean"].tolist()
    [1.0, 1.0, 1.0]
    """

    def __init__(self, pandas_obj: pd.DataFrame) -> None:
        self._df = pandas_obj

    # scoring -------------------------------------------------------------
    def evaluate(self, **kwargs: Any) -> pd.DataFrame:
        """Score all (or ``metrics=``) metrics; see :func:`ragnotebook.evaluate`."""
        return api.evaluate(self._df, **kwargs)

    async def aevaluate(self, **kwargs: Any) -> pd.DataFrame:
        """Async twin of :meth:`evaluate`; see :func:`ragnotebook.aevaluate`."""
        return await api.aevaluate(self._df, **kwargs)

    def context_recall(self, **kwargs: Any) -> pd.DataFrame:
        """Context recall per row; see :func:`ragnotebook.context_recall`."""
        return api.context_recall(self._df, **kwargs)

    async def acontext_recall(self, **kwargs: Any) -> pd.DataFrame:
        """Async twin of :meth:`context_recall`."""
        return await api.acontext_recall(self._df, **kwargs)

    def context_precision(self, **kwargs: Any) -> pd.DataFrame:
        """Context precision per row; see :func:`ragnotebook.context_precision`."""
        return api.context_precision(self._df, **kwargs)

    async def acontext_precision(self, **kwargs: Any) -> pd.DataFrame:
        """Async twin of :meth:`context_precision`."""
        return await api.acontext_precision(self._df, **kwargs)

    def faithfulness(self, **kwargs: Any) -> pd.DataFrame:
        """Faithfulness per row; see :func:`ragnotebook.faithfulness`."""
        return api.faithfulness(self._df, **kwargs)

    async def afaithfulness(self, **kwargs: Any) -> pd.DataFrame:
        """Async twin of :meth:`faithfulness`."""
        return await api.afaithfulness(self._df, **kwargs)

    # reading results -----------------------------------------------------
    def claims(self) -> pd.DataFrame:
        """One row per claim; see :func:`ragnotebook.claims`."""
        return frame.claims(self._df)

    def chunks(self) -> pd.DataFrame:
        """One row per retrieved chunk; see :func:`ragnotebook.chunks`."""
        return frame.chunks(self._df)

    def summary(self) -> pd.DataFrame:
        """Per-metric mean, coverage and status counts; see :func:`ragnotebook.summary`."""
        return frame.summary(self._df)
