"""Pictures of generated puzzles as ``tsolve puzzle --plot`` writes them.

A single-date time puzzle is drawn as a calendar strip
(:mod:`tsolve.families.time_puzzles.plot`), a relational puzzle (a record with a
``graph``) as its dependency graph (:mod:`tsolve.families.relational_puzzles.plot`).
``--plot FILE`` draws the first puzzle of the run (the common case: look at
one puzzle); ``--plot-dir DIR`` draws every puzzle to ``DIR/<id>.png``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.output import check_out


def draw_puzzle(record: dict[str, Any], out: str | Path) -> Path:
    """Draw one puzzle record to ``out`` (.png or .svg), by its kind."""
    if "graph" in record:  # the relational family's picture, by reference
        from tsolve.contract.family import Lazy

        plot = "tsolve.families.relational_puzzles.plot"
        graph = Lazy(f"{plot}:relation_graph")(record)
        return Path(Lazy(f"{plot}:draw_relation_graph")(graph, out))
    from tsolve.families.time_puzzles.plot import calendar_strip, draw_calendar_strip

    return draw_calendar_strip(calendar_strip(record), out)


def plotting(
    records: Iterable[dict[str, Any]],
    plot: str | Path | None = None,
    plot_dir: str | Path | None = None,
    ext: str = "png",
) -> Iterator[dict[str, Any]]:
    """``records`` unchanged, drawing the first to ``plot`` and each to
    ``plot_dir/<id>.<ext>`` as they pass (so output streams as before). Bad
    paths fail before the first record is made."""
    if plot is not None:
        check_out(plot)
    folder = Path(plot_dir) if plot_dir is not None else None
    if folder is not None:
        check_out(f"x.{ext}")
        if folder.exists() and not folder.is_dir():
            raise TsolveError(f"plot-dir: {str(folder)!r} is not a directory")
        folder.mkdir(parents=True, exist_ok=True)
    return _plotting(records, plot, folder, ext)


def _plotting(
    records: Iterable[dict[str, Any]], plot: str | Path | None, folder: Path | None, ext: str
) -> Iterator[dict[str, Any]]:
    for k, rec in enumerate(records):
        if plot is not None and k == 0:
            draw_puzzle(rec, plot)
        if folder is not None:
            # a link already there is refused (drawing would overwrite what it names)
            draw_puzzle(rec, check_out(folder / f"{rec['id']}.{ext}", "plot-dir"))
        yield rec
