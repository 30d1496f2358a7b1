"""The files ``tsolve report --plot OUT [--figure NAME]`` draws, checked
before anything is printed or drawn.

``--figure auto`` (the default) draws every panel the rows have to ``OUT``
(:func:`tsolve.plots.conditions.condition_figure`); a paper's name draws that
paper's figure to ``OUT`` (:func:`tsolve.plots.paper_figures.paper_figure`);
``all`` draws each paper figure the rows have data for to a name derived
from ``OUT``: ``OUT-NAME.png`` beside it. Every one of those files is checked
first (:func:`tsolve.plots.output.check_out`: a picture format, and not a
symbolic link), so a link standing at a derived name refuses the whole
command before a figure is drawn, never has a file outside the folder
overwritten.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.output import check_out


def figure_files(rows: Sequence[dict[str, Any]], figure: str, out: str | Path) -> list[Path]:
    """The files ``figure`` of ``rows`` is drawn to (see the module
    docstring), each checked by :func:`~tsolve.plots.output.check_out`."""
    plot = Path(out)
    if figure != "all":
        return [check_out(plot)]
    from tsolve.plots.paper_figures import figures_with_data

    names = figures_with_data(rows)
    if not names:
        raise TsolveError("figure all: no rows of a tsolve task to draw")
    return [check_out(derived_name(plot, n)) for n in names]


def derived_name(plot: Path, name: str) -> Path:
    """Where ``--figure all`` draws paper figure ``name``: ``OUT-NAME.EXT``."""
    return plot.with_name(f"{plot.stem}-{name}{plot.suffix}")


def draw_figures(rows: Sequence[dict[str, Any]], figure: str, out: str | Path) -> list[Path]:
    """Draw ``figure`` (``auto``, a paper's name, or ``all``) of the report's
    ``rows`` to :func:`figure_files`; the files written, in order."""
    files = figure_files(rows, figure, out)
    if figure == "auto":
        from tsolve.plots.conditions import condition_figure

        return [condition_figure(rows, files[0])]
    from tsolve.plots.paper_figures import figures_with_data, paper_figure

    if figure != "all":
        return [paper_figure(rows, figure, files[0])]
    names = figures_with_data(rows)
    return [paper_figure(rows, n, f) for n, f in zip(names, files, strict=True)]
