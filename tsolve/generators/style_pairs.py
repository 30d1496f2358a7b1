"""Puzzles in several wordings: which record is which puzzle, and its id.

The Time Puzzles paper pairs every puzzle's implicit wording (anchors as
events) with its explicit one (dates spelled out). tsolve's generators draw a
puzzle's facts from ``(seed, puzzle number)`` only, never from the style, so
puzzle ``b`` of run ``seed`` is the same set of facts in either wording. This
module is the one place that says how a run with several styles maps record
indices to puzzles, and how ids keep the wordings apart:

- With styles ``(s_0, ..., s_{k-1})``, record ``i`` is puzzle ``i // k`` in
  style ``s_{i % k}``: consecutive records are one puzzle in each style, and
  every per-puzzle option (``solutions`` cycling, ...) follows the puzzle
  number. With one style, record ``i`` is puzzle ``i``, as before.
- A record's id names its run, its puzzle, the fingerprint of the options
  that shape its content, and its style (``tp-3-0-5be2a1-implicit``), so the
  two wordings of one puzzle never clash when files are combined, files made
  with different options can share a file, and the id is the same whichever
  way the run was split into styles (the style list is not part of the
  fingerprint, nor is the solver backend, which never changes content).
- ``pair`` names the same puzzle's id in the other style.
"""

from __future__ import annotations

from typing import Any, Literal

from tsolve.errors import TsolveError
from tsolve.generators.seeding import options_fingerprint

Style = Literal["implicit", "explicit"]
STYLES: tuple[Style, ...] = ("implicit", "explicit")


def parse_styles(value: Any, name: str = "style") -> str | tuple[str, ...]:
    """``"implicit"``, ``"implicit,explicit"`` or a JSON list -> one style or a
    tuple of distinct styles (validated)."""
    if isinstance(value, list | tuple):
        items = [str(v).strip() for v in value]
    elif isinstance(value, str):
        items = [s.strip() for s in value.split(",")]
    else:
        raise TsolveError(
            f"{name}: expected implicit, explicit or implicit,explicit, got {value!r}"
        )
    check_styles(tuple(items), name)
    return items[0] if len(items) == 1 else tuple(items)


def check_styles(styles: tuple[str, ...], name: str = "style") -> None:
    """Raise the one-line error unless ``styles`` are known and distinct."""
    if not styles:
        raise TsolveError(f"{name}: give at least one style")
    for s in styles:
        if s not in STYLES:
            raise TsolveError(f"{name}: expected 'implicit' or 'explicit', got {s!r}")
    if len(set(styles)) != len(styles):
        raise TsolveError(f"{name}: a style is named twice in {','.join(styles)!r}")


def as_tuple(style: str | tuple[str, ...]) -> tuple[str, ...]:
    return style if isinstance(style, tuple) else (style,)


def style_slot(style: str | tuple[str, ...], index: int) -> tuple[int, str]:
    """``(puzzle number, style)`` of record ``index`` (see the module docstring)."""
    styles = as_tuple(style)
    puzzle, which = divmod(index, len(styles))
    return puzzle, styles[which]


#: Options that never change a puzzle's content: which wordings a run
#: interleaves (each record says its own style) and the solver backend.
NOT_CONTENT = ("style", "backend")


def content_fingerprint(options: dict[str, Any]) -> str:
    """The options' fingerprint without :data:`NOT_CONTENT`
    (:func:`tsolve.generators.seeding.options_fingerprint`)."""
    return options_fingerprint({k: v for k, v in options.items() if k not in NOT_CONTENT})


def styled_id(prefix: str, seed: int, puzzle: int, style: str, fingerprint: str) -> str:
    """The id of ``puzzle`` of run ``seed`` in ``style``: ``tp-3-0-5be2a1-implicit``."""
    return f"{prefix}-{seed}-{puzzle}-{fingerprint}-{style}"


def pair_id(prefix: str, seed: int, puzzle: int, style: str, fingerprint: str) -> str:
    """The id of the same puzzle in the other style."""
    other = STYLES[1 - STYLES.index(style)]
    return styled_id(prefix, seed, puzzle, other, fingerprint)


def style_json(style: str | tuple[str, ...]) -> str | list[str]:
    """The style option as written into ``generator.params``."""
    return list(style) if isinstance(style, tuple) else style
