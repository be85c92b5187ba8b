"""Colours and figure styling shared by the charts.

The palette is Okabe & Ito's (2008), chosen to stay distinguishable under the common
colour-vision deficiencies; verdicts and statuses are also named in text (legend,
hover, badges) so colour is never the only cue. Figures carry their own background
(``theme="light"`` or ``"dark"``) so their text stays readable whatever the notebook
theme around them.

Examples
--------
>>> from ragnotebook.views._style import VERDICT_COLORS, theme_colors
>>> VERDICT_COLORS["no"]
'#D55E00'
>>> theme_colors("dark")["font"]
'#E6E6E6'
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GROUP_COLORS",
    "STATUS_COLORS",
    "STATUS_LABELS",
    "VERDICT_COLORS",
    "apply_theme",
    "check_theme",
    "style_figure",
    "theme_colors",
]

BLUE = "#0072B2"
VERMILLION = "#D55E00"
ORANGE = "#E69F00"
GREEN = "#009E73"
SKY = "#56B4E9"
PURPLE = "#CC79A7"
YELLOW = "#F0E442"
GREY = "#8C8C8C"
#: A paler grey, for rows a metric never ran on (neither a result nor a failure).
PALE_GREY = "#C4C4C4"

#: Verdict colours: supported / relevant, contradicted / not found, not verifiable.
VERDICT_COLORS = {"yes": BLUE, "no": VERMILLION, "unsure": ORANGE}
#: Status colours; the three scored statuses are blues and green, the rest grey, purple,
#: yellow or red. ``no_answer`` (a ``no_claims`` row whose answer is missing, not scored)
#: is counted apart from the measured ``no_claims`` rows; ``not_run`` (no status: the
#: metric never ran on the row) is a pale grey, apart from ``error``.
STATUS_COLORS = {
    "ok": BLUE,
    "no_claims": SKY,
    "no_answer": YELLOW,
    "no_context": GREEN,
    "no_ground_truth": GREY,
    "no_reference": PURPLE,
    "error": VERMILLION,
    "not_run": PALE_GREY,
}
#: Human labels for statuses.
STATUS_LABELS = {
    "ok": "ok",
    "no_claims": "no claims",
    "no_answer": "no answer",
    "no_context": "no context",
    "no_ground_truth": "no ground truth",
    "no_reference": "no reference",
    "error": "error",
    "not_run": "not run",
}
#: Colours for groups (``by=``) and compared frames, in order.
GROUP_COLORS = [BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION, GREY]

_THEMES = {
    "light": {
        "paper": "#FFFFFF",
        "plot": "#FFFFFF",
        "font": "#2B2B2B",
        "grid": "rgba(120,120,120,0.22)",
        "line": "rgba(120,120,120,0.6)",
        "muted": "rgba(90,90,90,0.35)",
    },
    "dark": {
        "paper": "#16181C",
        "plot": "#16181C",
        "font": "#E6E6E6",
        "grid": "rgba(200,200,200,0.16)",
        "line": "rgba(200,200,200,0.5)",
        "muted": "rgba(210,210,210,0.35)",
    },
}


def check_theme(theme: str) -> str:
    """Return ``theme`` if it is ``"light"`` or ``"dark"``, else raise ``ValueError``.

    Parameters
    ----------
    theme : str

    Returns
    -------
    str

    Examples
    --------
    >>> check_theme("dark")
    'dark'
    """
    if theme not in _THEMES:
        raise ValueError(f"theme must be 'light' or 'dark', got {theme!r}")
    return theme


def theme_colors(theme: str) -> dict[str, str]:
    """Background, font, grid and muted-line colours of a theme.

    Parameters
    ----------
    theme : {"light", "dark"}

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> sorted(theme_colors("light"))
    ['font', 'grid', 'line', 'muted', 'paper', 'plot']
    """
    return dict(_THEMES[check_theme(theme)])


def _axis_names(fig: Any) -> list[str]:
    layout = fig.to_plotly_json().get("layout", {})
    names = [k for k in layout if k.startswith(("xaxis", "yaxis"))]
    return names or ["xaxis", "yaxis"]


def apply_theme(fig: Any, theme: str) -> Any:
    """Set the background, font and grid colours of every axis of ``fig`` in place.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    theme : {"light", "dark"}

    Returns
    -------
    plotly.graph_objects.Figure
        The same figure.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> apply_theme(go.Figure(), "dark").layout.paper_bgcolor
    '#16181C'
    """
    c = theme_colors(theme)
    fig.update_layout(
        paper_bgcolor=c["paper"],
        plot_bgcolor=c["plot"],
        font={"color": c["font"]},
        legend={"bgcolor": "rgba(0,0,0,0)"},
    )
    axis = {
        "gridcolor": c["grid"],
        "zerolinecolor": c["line"],
        "linecolor": c["line"],
        "tickcolor": c["line"],
    }
    fig.update_layout({name: axis for name in _axis_names(fig)})
    return fig


def style_figure(fig: Any, title: str, theme: str, height: int | None = None) -> Any:
    """Apply the toolkit's look: empty template, title, theme, fonts, margins.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    title : str
        Toolkit-written title (plotly pseudo-HTML allowed; escape data first).
    theme : {"light", "dark"}
    height : int, optional
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        The same figure.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> style_figure(go.Figure(), "Scores", "light").layout.title.text
    'Scores'
    """
    fig.update_layout(
        template="none",
        title={"text": title, "x": 0.01, "xanchor": "left", "font": {"size": 17}},
        font={"family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "size": 13},
        margin={"l": 70, "r": 30, "t": 80, "b": 60},
        hoverlabel={"align": "left", "font": {"size": 12}},
    )
    if height is not None:
        fig.update_layout(height=height)
    apply_theme(fig, theme)
    fig.update_xaxes(showgrid=True, showline=True, zeroline=False, automargin=True)
    fig.update_yaxes(showgrid=True, showline=True, zeroline=False, automargin=True)
    return fig
