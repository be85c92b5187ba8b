"""The ``df.rag`` accessor: thin delegates to the package functions.

pandas builds a new accessor object on every ``df.rag`` access, so ``__init__``
only keeps the frame; run metadata lives in ``df.attrs["ragnotebook"]``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
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

    # scoring: defined below with the package functions' signatures and docs
    evaluate: Any
    aevaluate: Any
    context_recall: Any
    acontext_recall: Any
    context_precision: Any
    acontext_precision: Any
    faithfulness: Any
    afaithfulness: Any

    # reading results -----------------------------------------------------
    def claims(self) -> pd.DataFrame:
        """One row per claim; see :func:`ragnotebook.claims` for the columns and errors.

        Returns
        -------
        pandas.DataFrame
            ``row`` (the source row's index label), ``metric`` (str), ``claim_index``
            (int64, 0-based), ``claim`` (str), ``verdict`` (str: yes/no for recall,
            yes/no/unsure for faithfulness), ``reason`` (str), ``supporting_chunks``
            (list of 0-based chunk indices), ``row_number`` (int64, the source row's
            0-based position; it tells rows with the same label apart). Rows in frame
            order, recall claims before faithfulness claims for each row.

        Raises
        ------
        ValueError
            If the frame has no ragnotebook scores.

        Examples
        --------
        >>> import pandas as pd, ragnotebook
        >>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4. It has a cafe."],
        ...                    "contexts": [["The museum is on Pier 4."]]})
        >>> scored = df.rag.faithfulness(model="offline", progress=False)
        >>> scored.rag.claims()[["claim", "verdict"]].values.tolist()
        [['It is on Pier 4.', 'yes'], ['It has a cafe.', 'unsure']]
        """
        return frame.claims(self._df)

    def chunks(self) -> pd.DataFrame:
        """One row per retrieved chunk; see :func:`ragnotebook.chunks` for the columns.

        Returns
        -------
        pandas.DataFrame
            ``row`` (the source row's index label), ``position`` (int64, 1-based rank;
            the verdict dicts carry the 0-based ``index``), ``chunk`` (str), ``verdict``
            (str: yes/no), ``reason`` (str), ``precision_at_k`` (float64: relevant chunks
            in positions 1..k divided by k), ``row_number`` (int64, the source row's
            0-based position).

        Raises
        ------
        ValueError
            If the frame was not scored with context precision.

        Examples
        --------
        >>> import pandas as pd, ragnotebook
        >>> judge = ragnotebook.MockJudge(judge_chunks=[["no", "yes"]])
        >>> df = pd.DataFrame({"question": ["q"], "ground_truth": ["a"], "contexts": [["x", "y"]]})
        >>> scored = df.rag.context_precision(model=judge, progress=False)
        >>> scored.rag.chunks()[["position", "verdict", "precision_at_k"]].values.tolist()
        [[1, 'no', 0.0], [2, 'yes', 0.5]]
        """
        return frame.chunks(self._df)

    def summary(self, by: Any = None) -> pd.DataFrame:
        """Per-metric mean, coverage and status counts; see :func:`ragnotebook.summary`.

        Parameters
        ----------
        by : str, list of str, or array-like, optional
            One summary per group of rows (``by="system"`` for systems in one long
            frame); the index is then (group, metric).

        Returns
        -------
        pandas.DataFrame
            One row per metric (per group and metric with ``by``): ``mean`` over scored
            rows, ``scored``, ``coverage``, counts per status, and the run's counters.

        Raises
        ------
        ValueError
            If the frame has no ragnotebook scores.
        KeyError
            If ``by`` names a column the frame does not have.

        Examples
        --------
        >>> import pandas as pd, ragnotebook
        >>> df = pd.DataFrame({"question": ["Fee?"], "answer": ["It is 120 euros."],
        ...                    "contexts": [["The fee is 120 euros."]]})
        >>> s = df.rag.faithfulness(model="offline", progress=False).rag.summary()
        >>> float(s.loc["faithfulness", "mean"]), s.loc["faithfulness", "scored"]
        (1.0, '1/1')
        """
        return frame.summary(self._df, by=by)

    def update_scores(
        self, rescored: pd.DataFrame, *, metrics: Sequence[str] | None = None
    ) -> pd.DataFrame:
        """This scored frame with the rows of ``rescored`` put back; see
        :func:`ragnotebook.update_scores`.

        Parameters
        ----------
        rescored : pandas.DataFrame
            Some of this frame's rows (same labels), fixed and scored again.
        metrics : sequence of str, optional
            The metrics to take from ``rescored``; default every metric it has.

        Returns
        -------
        pandas.DataFrame
            A copy with those rows' metric cells (missing values included) and shared
            input columns replaced, and merged run metadata.

        Raises
        ------
        ValueError
            If ``rescored`` has no scores, a frame repeats a row label, or a label of
            ``rescored`` is not in this frame.

        Warns
        -----
        UserWarning
            When the two frames were scored by different judges, or under different
            ``columns=`` mappings (the merged frame keeps this frame's mapping, so the
            column it names may not hold the text the new scores came from); the merge
            still happens.

        Examples
        --------
        >>> import pandas as pd, ragnotebook
        >>> df = pd.DataFrame({"question": ["Where?"], "answer": ["It is on Pier 4."],
        ...                    "contexts": [["The museum is on Pier 9."]]})
        >>> scored = df.rag.faithfulness(model="offline", progress=False)
        >>> again = df.assign(contexts=[["The museum is on Pier 4."]]).rag.faithfulness(
        ...     model="offline", progress=False)
        >>> scored.rag.update_scores(again)["faithfulness"].tolist()
        [1.0]
        """
        return frame.update_scores(self._df, rescored, metrics=metrics)

    def scored_rows(self, metric: str) -> pd.Series:
        """Which rows count in ``summary()``'s mean for ``metric``.

        A row counts when its status is ``ok``, ``no_context`` or ``no_claims`` (its 0 is
        a measurement, per the reference) and its score is present; rows with status
        ``no_ground_truth``, ``no_reference`` or ``error``, and faithfulness rows with no
        answer at all, do not. ``scored[scored.rag.scored_rows(m)][m].mean()`` equals the
        mean that :meth:`summary` shows.

        Parameters
        ----------
        metric : str
            ``"context_recall"``, ``"context_precision"`` or ``"faithfulness"`` (or the
            short names ``metrics=`` accepts: ``"recall"``, ``"precision"``).

        Returns
        -------
        pandas.Series of bool
            Aligned with the frame's index (duplicate labels kept in order).

        Raises
        ------
        ValueError
            If ``metric`` is not a metric name, or the frame was not scored with it.

        Examples
        --------
        >>> import pandas as pd, ragnotebook
        >>> df = pd.DataFrame({"question": ["Fee?", "Fee?"], "answer": ["It is 120 euros.", " "],
        ...                    "contexts": [["The fee is 120 euros."], ["The fee is 120 euros."]]})
        >>> scored = df.rag.faithfulness(model="offline")
        >>> scored.rag.scored_rows("faithfulness").tolist()
        [True, False]
        """
        metric = api._metric_name(metric)
        if metric not in frame.require_scored(self._df, [metric]):
            raise ValueError(f"this frame was not scored with {metric!r}")
        mask = frame.scored_mask(self._df, metric)
        return pd.Series(mask, index=self._df.index, name=f"{metric}_scored", dtype=bool)

    # views (plotly / ipywidgets are imported only when these are used) -----
    @property
    def plot(self) -> Any:
        """Charts of this scored frame: ``df.rag.plot.precision_at_k()``, ``.scores()``, ...

        Returns
        -------
        ragnotebook.views.plot_accessor.PlotAccessor
            Methods ``precision_at_k``, ``scores``, ``missed_claims`` and
            ``compare(other, on=...)``, each returning a plotly ``Figure``.

        Examples
        --------
        >>> import ragnotebook
        >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                             progress=False)
        >>> scored.rag.plot.missed_claims().layout.xaxis.title.text
        'claims (count)'
        """
        from ragnotebook.views.plot_accessor import PlotAccessor

        return PlotAccessor(self._df)

    def explore(self, **kwargs: Any) -> Any:
        """Browse rows and their claims; see :func:`ragnotebook.views.static.explore`.

        Parameters
        ----------
        **kwargs
            ``mode`` (``"auto"``, ``"widget"``, ``"static"``), ``page_size`` (rows per
            page), ``max_rows`` (rows in the static view), ``sort_by`` (a metric or its
            alias, worst first), ``theme`` (``"light"``, ``"dark"``) and ``columns`` (the
            text columns, ``{"question": "q", ...}`` as given to ``evaluate()``: needed for
            a frame scored with ``columns=`` and read back from JSON Lines or CSV) and ``by``
            (a column grouping the rows, e.g. ``"system"``: each row shows its group, the
            widget gets a **Group** filter, the static view a table of each group's means).

        Returns
        -------
        ragnotebook.views.explorer.Explorer or ragnotebook.views.static.StaticExplorer
            The widget in a Jupyter kernel with ipywidgets, else a static HTML view.

        Examples
        --------
        >>> import ragnotebook
        >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                             progress=False)
        >>> type(scored.rag.explore()).__name__   # no kernel here: the static view
        'StaticExplorer'
        """
        from ragnotebook.views.static import explore

        return explore(self._df, **kwargs)

    def report(self, path: Any, **kwargs: Any) -> Any:
        """Write a self-contained HTML report; see :func:`ragnotebook.views.report`.

        Parameters
        ----------
        path : str or os.PathLike
            Where to write the ``.html`` (or ``.htm``) file; missing folders are made
            once the page is built, as ``ragnotebook report --out`` does.
        **kwargs
            ``title``, ``max_rows`` (rows in the drill-down; 0 for summary and charts
            only), ``sort_by`` (a metric or its alias, worst first), ``top`` (rows in the
            missed-claims chart) and ``plotly_js`` (``"inline"``, the default, a
            self-contained file of about 5 MB; ``"cdn"``, about 50 kB plus 6 kB per row,
            charts need a network connection), ``columns`` (the text columns, as given
            to ``evaluate()``, for a frame read back from JSON Lines or CSV) and ``by`` (a
            column grouping the rows, e.g. ``"system"``: a table of each group's means,
            each row's group, a menu showing one group), ``max_k`` (ranks in the
            precision@k chart, 20 by default; ``None`` for all), and ``baseline`` (an
            earlier run's scored frame: a section "Against the baseline" after the
            summary, with each metric's means, change and p-value as
            :func:`ragnotebook.compare` gives them, and the rows that dropped most) with
            ``on`` (the column pairing the rows, ``"question"`` by default, as for
            ``compare``).

        Returns
        -------
        pathlib.Path
            The written file.

        Raises
        ------
        ValueError
            A name that does not end in ``.html`` or ``.htm``; a ``baseline`` with none
            of the frame's metrics, or none of whose rows pairs up on ``on``.
        IsADirectoryError
            ``path`` is an existing folder.
        NotADirectoryError
            A file stands where a folder of ``path`` should be.

        Examples
        --------
        >>> import tempfile, pathlib, ragnotebook
        >>> scored = ragnotebook.load_sample("quickstart").rag.evaluate(model="offline",
        ...                                                             progress=False)
        >>> out = scored.rag.report(pathlib.Path(tempfile.mkdtemp()) / "report.html")
        >>> out.name, out.stat().st_size > 1_000_000
        ('report.html', True)

        Compared with a baseline, here the same run (the sample asks some questions
        twice, so its rows pair by their index labels, ``on=None``):

        >>> again = scored.rag.report(pathlib.Path(tempfile.mkdtemp()) / "vs.html",
        ...                           baseline=scored, on=None)
        >>> page = again.read_text(encoding="utf-8")
        >>> "<h2>Against the baseline</h2>" in page
        True
        >>> "faithfulness: no compared row went down." in page
        True
        """
        from ragnotebook.views._report import report

        return report(self._df, path, **kwargs)


def _delegate(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A method calling ``fn(self._df, ...)`` with ``fn``'s signature (minus ``df``) and doc."""
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def amethod(self: RagAccessor, *args: Any, **kwargs: Any) -> Any:
            return await fn(self._df, *args, **kwargs)

        method: Callable[..., Any] = amethod
    else:

        @functools.wraps(fn)
        def smethod(self: RagAccessor, *args: Any, **kwargs: Any) -> Any:
            return fn(self._df, *args, **kwargs)

        method = smethod
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = sig.replace(parameters=[self_param, *params[1:]])  # type: ignore[attr-defined]
    del method.__wrapped__  # type: ignore[attr-defined]
    method.__doc__ = (
        f"``df.rag.{fn.__name__}(...)`` is :func:`ragnotebook.{fn.__name__}` on this frame.\n\n"
        + (fn.__doc__ or "")
    )
    return method


for _name in (
    "evaluate",
    "aevaluate",
    "context_recall",
    "acontext_recall",
    "context_precision",
    "acontext_precision",
    "faithfulness",
    "afaithfulness",
):
    setattr(RagAccessor, _name, _delegate(getattr(api, _name)))
