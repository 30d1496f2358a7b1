"""The time-puzzles surface for ``tsolve stress --scaling``
(:mod:`tsolve.stress.scaling`): the English puzzle reader of ``solve --text-file``."""

from __future__ import annotations

from tsolve.stress.scaling import Surface, quiet


def _puzzle_text(text: str) -> object:
    from tsolve.families.time_puzzles.parse.reader import read_puzzle

    return read_puzzle(text)


def scaling_surfaces() -> tuple[Surface, ...]:
    """The family's ``scaling_surfaces`` part."""
    return (
        Surface("solve-text", quiet(_puzzle_text),
                tuple(f"tsolve.families.time_puzzles.parse.{m}" for m in
                      ("reader", "sentences", "paraphrases", "instructions", "rendered")),
                ("The date is a Monday. ", "It is in March 2021. ", ". ")),
    )  # fmt: skip
