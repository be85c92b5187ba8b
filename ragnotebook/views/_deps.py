"""Optional dependencies of the views, imported when a view needs them."""

from __future__ import annotations

from typing import Any


def plotly_go() -> Any:
    """``plotly.graph_objects``, or an ImportError that names the extra to install.

    Returns
    -------
    module
        ``plotly.graph_objects``.

    Raises
    ------
    ImportError
        When plotly is not installed: "ragnotebook charts need plotly: pip install
        'ragnotebook[plot]'".

    Examples
    --------
    >>> from ragnotebook.views._deps import plotly_go
    >>> plotly_go().Figure().__class__.__name__
    'Figure'
    """
    try:
        import plotly.graph_objects as go
    except ImportError as exc:
        raise ImportError(
            "ragnotebook charts need plotly: pip install 'ragnotebook[plot]'"
        ) from exc
    return go
