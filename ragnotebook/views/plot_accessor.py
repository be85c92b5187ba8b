"""``df.rag.plot``: the charts as methods of a scored frame.

Examples
--------
>>> import ragnotebook
>>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline", progress=False)
>>> type(scored.rag.plot.scores()).__name__
'Figure'
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["PlotAccessor"]


class PlotAccessor:
    """Charts of one scored frame; each method returns a plotly ``Figure``.

    Reached as ``df.rag.plot``. The methods delegate to the functions of the same name in
    :mod:`ragnotebook.views` with this frame as the first argument.

    Parameters
    ----------
    df : pandas.DataFrame
        A scored frame.

    Examples
    --------
    >>> import ragnotebook
    >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
    ...                                                             progress=False)
    >>> fig = scored.rag.plot.precision_at_k(per_row=True)
    >>> fig.data[0].name
    'one row'
    """

    def __init__(self, df: pd.DataFrame) -> None:
        self._df = df

    def precision_at_k(self, **kwargs: Any) -> Any:
        """Mean precision@k by rank; see :func:`ragnotebook.views.plots.precision_at_k`.

        Parameters
        ----------
        **kwargs
            ``by``, ``band``, ``per_row``, ``max_k``, ``theme``, ``seed``.

        Returns
        -------
        plotly.graph_objects.Figure

        Examples
        --------
        >>> import ragnotebook
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> [t.name for t in s.rag.plot.precision_at_k(by="source").data][:2]
        ['hotpotqa: interquartile range', 'hotpotqa: share of relevant chunks']
        """
        from ragnotebook.views.plots import precision_at_k

        return precision_at_k(self._df, **kwargs)

    def scores(self, **kwargs: Any) -> Any:
        """Score distributions with statuses apart; see :func:`ragnotebook.views.plots.scores`.

        Parameters
        ----------
        **kwargs
            ``metrics``, ``kind``, ``bins``, ``theme``, ``columns`` (the text columns, as
            given to ``evaluate()``, for a frame read back from JSON Lines or CSV).

        Returns
        -------
        plotly.graph_objects.Figure

        Examples
        --------
        >>> import ragnotebook
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> s.rag.plot.scores(kind="strip").data[0].mode
        'markers'
        """
        from ragnotebook.views.plots import scores

        return scores(self._df, **kwargs)

    def missed_claims(self, **kwargs: Any) -> Any:
        """Problem claims per row, worst first; see :func:`ragnotebook.views.missed.missed_claims`.

        Parameters
        ----------
        **kwargs
            ``top``, ``theme``, ``columns`` (the text columns, as given to ``evaluate()``,
            for a frame read back from JSON Lines or CSV), ``by`` (a column grouping the
            rows: each bar names its group).

        Returns
        -------
        plotly.graph_objects.Figure

        Examples
        --------
        >>> import ragnotebook
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> len(s.rag.plot.missed_claims(top=3).layout.yaxis.categoryarray)
        3
        """
        from ragnotebook.views.missed import missed_claims

        return missed_claims(self._df, **kwargs)

    def compare(self, other: pd.DataFrame, on: str | None = "question", **kwargs: Any) -> Any:
        """Paired differences ``other - this`` per metric; see :func:`ragnotebook.views.compare`.

        Parameters
        ----------
        other : pandas.DataFrame
            The second scored frame (B); this frame is A.
        on : str, default "question"
            Column pairing the rows (None: the index).
        **kwargs
            ``labels``, ``n_boot``, ``ci``, ``seed``, ``theme``.

        Returns
        -------
        plotly.graph_objects.Figure

        Examples
        --------
        >>> import ragnotebook
        >>> s = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                        progress=False)
        >>> list(s.rag.plot.compare(s, on=None).data[1].y)   # on=None: pair by index
        [0.0, 0.0, 0.0]
        """
        from ragnotebook.views._compare import compare

        return compare(self._df, other, on=on, **kwargs)
