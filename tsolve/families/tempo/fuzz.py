"""TEMPO's own surface for ``tsolve stress all --fuzz --budget N``
(:mod:`tsolve.stress.fuzz_surfaces`): the time-scope tagger on hostile text."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def tag_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """Hostile text, with a reference date at the calendar's ends or none."""
    import datetime as dt

    from tsolve.families.tempo.tagger import tag
    from tsolve.stress.fuzz_surfaces import hostile_text

    text = hostile_text(rng, rng.choice((200, 2_000)))
    ref = rng.choice((None, dt.date(2024, 3, 1), dt.date(1, 1, 1), dt.date(9999, 12, 31)))
    return f"{len(text)} chars", lambda: [f.to_json() for f in tag(text, ref)]
