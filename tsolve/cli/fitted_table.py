"""Text tables that fit the terminal they are printed in, and never cut a number.

rich measures the terminal (``COLUMNS``, else 80, when the output is not a
terminal). A table too wide for it is printed as several blocks, one under
the other: the columns that name a row (its *keys*: run, condition, style,
M, ...) are repeated in every block, and the figures are dealt out over the
blocks in order, each column whole. A figure is never wrapped, shortened or
ended with an ellipsis; only a key's text may wrap (at a space where it has
one; a long word is folded onto the next line, every character kept). JSON
output is not touched by any of this.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

#: The space between two columns (rich's padding of one on either side).
GAP = 2
#: A wrapping key column is never made narrower than its longest word, up to
#: this many characters (a longer word is folded), nor than :data:`MIN_KEY`.
LONGEST_WORD = 20
MIN_KEY = 6


def blocks(widths: Sequence[int], floors: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """The figure columns (indices from ``keys`` on) in blocks that fit
    ``width`` beside the key columns, in order, each block at least one
    column. Each column is ``widths`` wide; the keys give up room, down to
    their ``floors``, only when they would take more than half the width."""
    figures = list(range(keys, len(widths)))
    if not figures:
        return [[]]
    natural = sum(widths[:keys]) + GAP * keys
    narrowest = sum(floors[:keys]) + GAP * keys
    room = max(width - min(natural, max(narrowest, width // 2)), 0)
    out: list[list[int]] = [[]]
    used = 0
    for i in figures:
        need = widths[i] + (GAP if out[-1] else 0)
        if out[-1] and used + need > room:
            out.append([])
            used, need = 0, widths[i]
        out[-1].append(i)
        used += need
    return out


def print_fitted(
    out: Console,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    keys: int,
    left: Collection[int] = (),
) -> None:
    """Print ``rows`` under ``header`` as one table, or as blocks that each fit
    ``out``'s width (see the module docstring). The first ``keys`` columns
    name a row and are repeated in each block; ``left`` are the columns
    justified left (text: a key among them may wrap), the others are figures."""
    columns = [[h, *(r[i] for r in rows)] for i, h in enumerate(header)]
    widths = [max(cell_len(c) for c in col) for col in columns]
    wrapping = {i for i in range(keys) if i in left}
    floors = [
        min(widths[i], max(MIN_KEY, min(LONGEST_WORD, _longest_word(columns[i]))))
        if i in wrapping else widths[i]
        for i in range(len(widths))
    ]  # fmt: skip
    parts = blocks(widths, floors, keys, out.width)
    # the figures of one block, and the keys at their narrowest, must fit: a
    # terminal narrower than that gets the table at that width, never a cut figure
    need = max(
        sum(floors[:keys]) + sum(widths[i] for i in part) + GAP * (keys + len(part) - 1)
        for part in parts
    )
    width = max(out.width, need)
    for k, part in enumerate(parts):
        if k:
            out.print()
        table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        for i in (*range(keys), *part):
            table.add_column(
                Text(header[i]), justify="left" if i in left else "right",
                no_wrap=i not in wrapping, overflow="fold", min_width=floors[i],
            )  # fmt: skip
        for row in rows:
            table.add_row(*(Text(row[i]) for i in (*range(keys), *part)))
        if width <= out.width:
            out.print(table)
        else:
            _print_wider(out, table, width)


def _longest_word(cells: Sequence[str]) -> int:
    return max((cell_len(w) for c in cells for w in c.split()), default=0)


def _print_wider(out: Console, table: Table, width: int) -> None:
    """``table`` at ``width``, wider than ``out``: the terminal wraps its
    lines, but no figure is cut."""
    saved = out.width
    out.width = width
    try:
        out.print(table)
    finally:
        out.width = saved
