"""TEMPO's surface for ``tsolve stress --scaling`` (:mod:`tsolve.stress.scaling`):
the time-scope tagger."""

from __future__ import annotations

from tsolve.stress.scaling import Surface


def _tempo(text: str) -> object:
    import datetime as dt

    from tsolve.families.tempo.tagger import tag

    return tag(text, dt.date(2020, 6, 15))


def scaling_surfaces() -> tuple[Surface, ...]:
    """The family's ``scaling_surfaces`` part."""
    return (
        Surface("tempo-tag", _tempo,
                ("tsolve.families.tempo.tagger", "tsolve.families.tempo.intervals",
                 "tsolve.bounded_scan"),
                ("Q3 ", "since ", "the ", "2019 ", "between 2019 and "),
                regex_bounded=True),
    )  # fmt: skip
