"""Writing a matplotlib figure to a file: the one place that imports matplotlib.

Figures are built with :class:`matplotlib.figure.Figure` and the Agg canvas,
never ``pyplot``: no window, no global figure registry, no interactive
backend to pick. SVG output is deterministic (a fixed ``svg.hashsalt`` for
the element ids and no date in the metadata), so tests and ``git diff`` can
compare pictures as text; PNG output carries no date either.

Every text in a picture is drawn as plain text: titles and labels quote
names from the user's data (a model, a style, a file), and matplotlib would
otherwise read ``$...$`` in them as TeX, and fail on what it cannot parse.

A picture is never written through a symbolic link: one standing at the
path (the user's, or a name derived from it, ``OUT-NAME.png`` or
``DIR/<id>.png``) would have tsolve overwrite whatever file it names, outside
the folder. :func:`check_out` refuses it before any work is done, and
:func:`save` opens the file with ``O_NOFOLLOW``, so a link put there in
between is refused too. Every picture tsolve draws goes through these two.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tsolve.errors import TsolveError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")
_INSTALL = "pictures need matplotlib: pip install 'tsolve[plot]'"


def check_out(path: str | Path, what: str = "out") -> Path:
    """``path`` if its extension names a picture format we write and it is
    not a symbolic link, else a one-line error naming the option ``what``
    (checked before any work is done)."""
    p = Path(path)
    ext = p.suffix.lower().lstrip(".")
    if ext not in FORMATS:
        shown = f".{ext}" if ext else "none"
        raise TsolveError(
            f"{what}: unknown picture extension {shown!r} in {str(p)!r} (use .png or .svg)"
        )
    _refuse_link(p, what)
    return p


#: Opening a picture to write: ``O_NOFOLLOW`` where the system has it.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _refuse_link(p: Path, what: str) -> None:
    if p.is_symlink():
        raise _link_refused(p, what)


def _link_refused(p: Path, what: str) -> TsolveError:
    return TsolveError(
        f"{what}: {str(p)!r} is a symbolic link; tsolve never writes a picture through a "
        "link (remove it, or name another file)"
    )


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
        # O_NOFOLLOW: a link that appeared after check_out is refused, not followed
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW
        with (
            os.fdopen(os.open(p, flags, 0o666), "wb") as f,
            matplotlib.rc_context({"svg.hashsalt": "tsolve", "svg.fonttype": "none"}),
        ):
            fig.savefig(f, format=ext, metadata=metadata, dpi=dpi)
    except OSError as exc:
        if _NOFOLLOW and (exc.errno == errno.ELOOP or p.is_symlink()):
            raise _link_refused(p, "out") from None
        raise TsolveError(f"out: cannot write {str(p)!r}: {exc.strerror or exc}") from None
    return p


def plain_text(fig: Figure) -> None:
    """Draw every text of ``fig`` literally: no mathtext, no TeX."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        text.set_parse_math(False)
        text.set_usetex(False)
