"""TicToc's own surface for ``tsolve stress all --fuzz --budget N``
(:mod:`tsolve.stress.fuzz_surfaces`): tool-call detection on hostile messages."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def detect_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One hostile message (text or a chat message) through the detector."""
    import dataclasses

    from tsolve.families.tictoc.detect import detect_tool_call
    from tsolve.stress.fuzz_surfaces import hostile_message

    msg = hostile_message(rng)
    label = f"{len(msg)} chars" if isinstance(msg, str) else "message"
    return label, lambda: dataclasses.asdict(detect_tool_call(msg))
