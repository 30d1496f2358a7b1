"""SPAN's surface for ``tsolve stress --scaling`` (:mod:`tsolve.stress.scaling`):
its date-answer reader."""

from __future__ import annotations

from tsolve.stress.scaling import Surface, quiet


def _family_parsers(text: str) -> object:
    """The other families' answer readers, on the output as a model wrote it."""
    from tsolve.families.span.score import parse_date_answer

    return [parse_date_answer(cal, text) for cal in ("gregorian", "hebrew")]


def scaling_surfaces() -> tuple[Surface, ...]:
    """The family's ``scaling_surfaces`` part."""
    return (
        Surface("span-answer", quiet(_family_parsers), ("tsolve.families.span.score",
                "tsolve.verifiers.answer_parsing"), ("MY ANSWER:", "15 Nisan 5784 ", "Yes ")),
    )  # fmt: skip
