"""Writing a matplotlib figure to a file: the one place that imports matplotlib.

Figures are built with :class:`matplotlib.figure.Figure` and the Agg canvas,
never ``pyplot``: no window, no global figure registry, no interactive
backend to pick. SVG output is deterministic (a fixed ``svg.hashsalt`` for
the element ids and no date in the metadata), so tests and ``git diff`` can
compare pictures as text; PNG output carries no date either.

Every text in a picture is drawn as plain text: titles and labels quote
names from the user's data (a model, a style, a file), and matplotlib would
otherwise read ``$...$`` in them as TeX, and fail on what it cannot parse.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tsolve.errors import TsolveError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")
_INSTALL = "pictures need matplotlib: pip install 'tsolve[plot]'"


def check_out(path: str | Path) -> Path:
    """``path`` if its extension names a picture format we write, else a
    one-line error (checked before any work is done)."""
    p = Path(path)
    ext = p.suffix.lower().lstrip(".")
    if ext not in FORMATS:
        shown = f".{ext}" if ext else "none"
        raise TsolveError(
            f"out: unknown picture extension {shown!r} in {str(p)!r} (use .png or .svg)"
        )
    return p


def new_figure(width: float, height: float) -> Figure:
    """An empty figure on the Agg canvas, ``width`` x ``height`` inches."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise TsolveError(_INSTALL) from None
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, path: str | Path, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (PNG or SVG by extension) at ``dpi`` and
    return the path."""
    import matplotlib

    p = check_out(path)
    ext = p.suffix.lower().lstrip(".")
    metadata: dict[str, Any] = {"Date": None} if ext == "svg" else {"Software": None}
    plain_text(fig)
    try:
        with matplotlib.rc_context({"svg.hashsalt": "tsolve", "svg.fonttype": "none"}):
            fig.savefig(p, format=ext, metadata=metadata, dpi=dpi)
    except OSError as exc:
        raise TsolveError(f"out: cannot write {str(p)!r}: {exc.strerror or exc}") from None
    return p


def plain_text(fig: Figure) -> None:
    """Draw every text of ``fig`` literally: no mathtext, no TeX."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        text.set_parse_math(False)
        text.set_usetex(False)
