"""The time-puzzle generator's options: :class:`PuzzleConfig`, checked
whole when it is built so that a wrong option fails in one line before any
search starts, and the parsing and checks a library call's arguments get."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, TypedDict

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain
from tsolve.calendars.knowledge import KNOWLEDGE_AS_OF
from tsolve.encodings.facts import FACT_TYPES, Style
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.difficulty import LABELS
from tsolve.generators.options import cycled, parse_int_list
from tsolve.generators.style_pairs import as_tuple, check_styles, style_json
from tsolve.records.validation import shown

MAX_SOLUTIONS = 60
# Beyond six facts, sets whose every fact is needed are too rare for the
# search (seven facts for one answer date rarely leave none redundant).
MAX_MINIMAL_FACTS = 6


@dataclass(frozen=True)
class PuzzleConfig:
    """Generator options. ``solutions`` may be a tuple: puzzle i then targets
    ``solutions[i % len(solutions)]``, which gives evenly spread datasets like
    the paper's (600 puzzles, M = 1..6)."""

    solutions: int | tuple[int, ...] = 1
    facts: int | None = None  # total facts incl. the anchor; None: 4..6 as in the paper
    # One style, or several: record i is then puzzle i // k in style i % k
    # (generators/style_pairs.py), so both wordings of each puzzle come together.
    style: Style | tuple[Style, ...] = "implicit"
    backend: str = "cpsat"
    domain: DateDomain = DEFAULT_DOMAIN
    max_attempts: int = 20_000
    categories: tuple[str, ...] | None = None  # restrict the non-anchor categories
    anchors: tuple[str, ...] | None = None  # restrict the anchor categories
    # Keep only puzzles where every fact is necessary (dropping any one changes
    # the answer set). Off here for library callers; `tsolve puzzle` and
    # `tsolve dataset` turn it on unless asked otherwise
    # (families/time_puzzles.minimal_by_default).
    minimal: bool = False
    # M = 0 as the old generator made it: one fact swapped for a decoy's, often
    # a two-fact contradiction ("June" + "the 31st"). Off: a minimal
    # unsatisfiable set of at least three facts, every pair satisfiable.
    trivial_contradictions: bool = False
    # Keep only puzzles of this measured difficulty (families/time_puzzles/difficulty.py).
    difficulty: str | None = None

    def __post_init__(self) -> None:
        # The checks run in this order, so the first wrong option is the one named.
        self._coerce_domain()
        sols = self.solutions if isinstance(self.solutions, tuple) else (self.solutions,)
        _check_counts(sols, self.facts)
        check_styles(as_tuple(self.style))
        _check_kinds(self.categories, self.anchors)
        _check_modes(self, sols)

    def _coerce_domain(self) -> None:
        if isinstance(self.domain, DateDomain):
            return
        # A (start, end) pair of ISO dates or dates is what a caller means;
        # anything else would fail deep inside the search with no word of why.
        if not (isinstance(self.domain, tuple | list) and len(self.domain) == 2):
            raise TsolveError(
                "domain: expected a DateDomain or a (start, end) pair of dates, "
                f"got {self.domain!r}"
            )
        object.__setattr__(self, "domain", DateDomain.from_dates(*self.domain))

    def target(self, index: int) -> int:
        return cycled(self.solutions, index)

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``."""
        return {
            "solutions": list(self.solutions)
            if isinstance(self.solutions, tuple)
            else self.solutions,
            "facts": self.facts,
            "style": style_json(self.style),
            "backend": self.backend,
            "domain": self.domain.to_json(),
            "categories": list(self.categories) if self.categories else None,
            "anchors": list(self.anchors) if self.anchors else None,
            "knowledge_as_of": KNOWLEDGE_AS_OF.isoformat(),
            "minimal": self.minimal,
            "trivial_contradictions": self.trivial_contradictions,
            "difficulty": self.difficulty,
        }


def _check_counts(sols: tuple[int, ...], facts: int | None) -> None:
    """The answer-set targets and the number of facts."""
    if not sols:
        raise TsolveError("solutions: give at least one target")
    for m in sols:
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= MAX_SOLUTIONS:
            raise TsolveError(f"solutions: expected an integer in 0..{MAX_SOLUTIONS}, got {m!r}")
    if facts is not None and not 2 <= facts <= 10:
        raise TsolveError(f"facts: expected 2..10 facts (including the anchor), got {facts}")


def _check_kinds(categories: tuple[str, ...] | None, anchors: tuple[str, ...] | None) -> None:
    """The fact kinds a run may draw: known ones, and anchors that are anchors."""
    for name in (categories or ()) + (anchors or ()):
        if name not in FACT_TYPES:
            raise TsolveError(f"categories: unknown fact kind {name!r}")
    for name in anchors or ():
        if not FACT_TYPES[name].anchor:
            raise TsolveError(f"anchors: {name!r} is not a knowledge-based anchor category")


def _check_modes(cfg: PuzzleConfig, sols: tuple[int, ...]) -> None:
    """The options that must agree with each other, and the last bounds."""
    if cfg.minimal and cfg.facts is not None and cfg.facts > MAX_MINIMAL_FACTS:
        raise TsolveError(
            f"minimal: puzzles with every fact necessary have at most {MAX_MINIMAL_FACTS} "
            f"facts, got --facts {cfg.facts} (use --no-minimal)"
        )
    if cfg.minimal and cfg.trivial_contradictions and 0 in sols:
        raise TsolveError(
            "trivial_contradictions: a two-fact clash leaves the other facts unneeded, so "
            "it cannot be minimal; use it with --no-minimal (minimal zero-answer puzzles "
            "are minimal unsatisfiable sets already)"
        )
    if cfg.difficulty is not None and cfg.difficulty not in LABELS:
        raise TsolveError(
            f"difficulty: expected one of {', '.join(LABELS)}, got {cfg.difficulty!r}"
        )
    if cfg.max_attempts < 1:
        raise TsolveError(f"max_attempts: must be positive, got {cfg.max_attempts}")


def check_position(value: object, what: str) -> None:
    """A run's ``seed`` or a record's ``index``: a non-negative ``int`` (not a
    bool, which Python counts as one and a record would store as ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TsolveError(f"{what}: expected a non-negative integer, got {shown(value)}")


class PuzzleOverrides(TypedDict, total=False):
    """:class:`PuzzleConfig`'s fields as keyword arguments of a library call
    (``generate_puzzle(7, 0, solutions=3)``), so that a type checker names a
    misspelt or mistyped option before the call runs; at run time
    :func:`call_config` checks the same (a test keeps the two field lists one)."""

    solutions: int | tuple[int, ...]
    facts: int | None
    style: Style | tuple[Style, ...]
    backend: str
    domain: DateDomain
    max_attempts: int
    categories: tuple[str, ...] | None
    anchors: tuple[str, ...] | None
    minimal: bool
    trivial_contradictions: bool
    difficulty: str | None


def call_config(config: object, overrides: PuzzleOverrides | dict[str, Any]) -> PuzzleConfig:
    """The config of a library call: ``config`` (a :class:`PuzzleConfig` or
    None) with ``overrides`` applied, or a one-line error naming what is wrong.
    A mapping is refused rather than read, since :class:`PuzzleConfig` takes
    parsed values (``tsolve.create_dataset`` takes the CLI's option text)."""
    if config is not None and not isinstance(config, PuzzleConfig):
        raise TsolveError(
            f"config: expected a PuzzleConfig or None, got {type(config).__name__} "
            f"{shown(config)} (options as text: tsolve.create_dataset('time-puzzles', ...))"
        )
    base = config or PuzzleConfig()
    if not overrides:
        return base
    known = {f.name for f in fields(PuzzleConfig)}
    unknown = sorted(str(k) for k in overrides if k not in known)
    if unknown:
        raise TsolveError(
            f"{unknown[0]}: not a PuzzleConfig field (fields: {', '.join(sorted(known))})"
        )
    return replace(base, **dict(overrides))


def parse_solutions(spec: Any, name: str = "solutions") -> int | tuple[int, ...]:
    """``"3"`` -> 3; ``"1-6"`` -> (1, ..., 6); ``"1,3,5"`` -> (1, 3, 5), each in
    ``0..MAX_SOLUTIONS``. The shared list parser, checked against this
    generator's bounds before any range is expanded."""
    return parse_int_list(spec, name, lo=0, hi=MAX_SOLUTIONS)


def answers_phrase(n: int) -> str:
    """The count in the search's error messages: "1 answer", "3 answers"."""
    return f"{n} answer" if n == 1 else f"{n} answers"
