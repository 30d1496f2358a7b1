"""TicToc's surface for ``tsolve stress --scaling`` (:mod:`tsolve.stress.scaling`):
tool-call detection."""

from __future__ import annotations

from tsolve.stress.scaling import Surface


def _tictoc(text: str) -> object:
    from tsolve.families.tictoc.detect import detect_tool_call

    return detect_tool_call(text)


def scaling_surfaces() -> tuple[Surface, ...]:
    """The family's ``scaling_surfaces`` part."""
    return (
        Surface("tictoc-detect", _tictoc,
                ("tsolve.families.tictoc.detect", "tsolve.bounded_scan"),
                ("Action:", "Action:\n", "<tool_call>", "```", "<function=", "{"),
                regex_bounded=True),
    )  # fmt: skip
