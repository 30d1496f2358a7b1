"""The scaling check: no parser or scorer does more than linear work on any text.

Quadratic scans were found by timing hostile inputs (16k digits: 12 s in
claim checking; 60k newlines: 9 s in TicToc detection). A timed assertion
flakes on a loaded machine, so this check counts *work*, deterministically,
and fails when doubling the input more than triples it.

What is counted (:class:`WorkMeter`):

* **Python work**: every function call, Python or C, seen by
  :func:`sys.setprofile` (``call`` and ``c_call`` events). The count is a
  function of the code path only, so it is the same on every run and machine.
* **Regex work**, which happens inside one C call and is invisible to the
  profiler. Each call of a compiled pattern's scanning methods is charged the
  most the engine can do on it, from the length L of the text it is handed
  (between ``pos`` and ``endpos``) and the pattern's widest possible match w
  (:func:`re._parser.parse(...).getwidth`, unbounded for ``+`` and ``*``):
  ``min(L, w) + 1`` for an anchored ``match``/``fullmatch``, and
  ``(L + 1)·(min(L, w) + 1)`` for a scan (``search``, ``finditer``, ``sub``,
  ...): every start position may read up to ``min(L, w)`` characters. This is
  an upper bound, up to a factor that depends only on the pattern: a pattern
  with an unbounded repeat run over the whole text is charged L², whether or
  not it backtracks there. So a surface passes the regex part only if its
  regex calls see bounded windows (:func:`tsolve.bounded_scan.bounded_finditer`)
  or use patterns of bounded width: that is the property that makes the work
  provably linear, and the check verifies it by counting rather than timing.

  To see the text a call is handed, the meter swaps every compiled pattern
  reachable from the surface's modules (module globals, one level into their
  lists, tuples, dicts and dataclasses, function defaults, and the results of
  argument-less caches already filled) for a proxy that charges and then
  calls the real pattern, and routes ``re``'s module functions through the
  same proxies; everything is restored on exit. A scanning call on a pattern
  the proxies missed is counted as *unmetered* (the profiler still sees it),
  so a gap in the metering is reported, never silently read as zero.

The verdict (:func:`check_surface`): each surface runs on each *shape* of
hostile text (a run of digits, newlines, spaces, brackets, a repeated keyword,
a long word, repeated month names, ...) at sizes n, 2n and 4n. The *marginal*
growth ``(W(4n) − W(2n)) / (W(2n) − W(n))`` must be at most 3 for both Python
and regex work: linear work gives 2, quadratic 4. Marginal, because a fixed
cost (building a table, the first call's set-up) would otherwise hide the
growth at small n.

``tsolve stress --scaling`` runs it (``--scaling-size`` sets n);
tests/test_scaling.py runs it on small sizes in CI. docs/robustness.md
("Scaling check") gives the figures.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from types import FunctionType, ModuleType
from typing import Any

from tsolve.errors import TsolveError

#: Doubling the input may at most triple the (marginal) work.
MAX_GROWTH = 3.0

# ------------------------------------------------------------------ regex metering

_SCANS = ("search", "finditer", "findall", "sub", "subn", "split", "scanner")
_ANCHORED = ("match", "fullmatch")


@cache
def _max_width(pattern: str | bytes, flags: int) -> int:
    """The longest match the pattern can have (huge when it is unbounded)."""
    try:
        from re import _parser  # type: ignore[attr-defined]
    except ImportError:  # Python < 3.11
        import sre_parse as _parser
    return int(_parser.parse(pattern, flags).getwidth()[1])


class _MeteredPattern:
    """A compiled pattern that charges its meter, then does the real call."""

    __slots__ = ("_meter", "_real", "_width")

    def __init__(self, real: re.Pattern[Any], meter: WorkMeter) -> None:
        self._real = real
        self._meter = meter
        self._width = _max_width(real.pattern, real.flags)

    def _charge(self, s: Any, pos: int, endpos: int, anchored: bool) -> None:
        n = len(s) if isinstance(s, (str, bytes)) else 0
        length = max(0, min(n, endpos) - max(0, pos))
        per_start = min(length, self._width) + 1
        self._meter.regex += per_start if anchored else (length + 1) * per_start

    def search(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, False)
        return self._real.search(s, pos, endpos)

    def match(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, True)
        return self._real.match(s, pos, endpos)

    def fullmatch(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, True)
        return self._real.fullmatch(s, pos, endpos)

    def finditer(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, False)
        return self._real.finditer(s, pos, endpos)

    def findall(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, False)
        return self._real.findall(s, pos, endpos)

    def scanner(self, s: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._charge(s, pos, endpos, False)
        return self._real.scanner(s, pos, endpos)  # type: ignore[attr-defined]

    def sub(self, repl: Any, s: Any, count: int = 0) -> Any:
        self._charge(s, 0, sys.maxsize, False)
        return self._real.sub(repl, s, count)

    def subn(self, repl: Any, s: Any, count: int = 0) -> Any:
        self._charge(s, 0, sys.maxsize, False)
        return self._real.subn(repl, s, count)

    def split(self, s: Any, maxsplit: int = 0) -> Any:
        self._charge(s, 0, sys.maxsize, False)
        return self._real.split(s, maxsplit)

    def __getattr__(self, name: str) -> Any:  # pattern, flags, groups, groupindex
        return getattr(self._real, name)


_PROXY_CODES = frozenset(getattr(_MeteredPattern, m).__code__ for m in (*_SCANS, *_ANCHORED))


@dataclass
class WorkMeter:
    """Counts of one measured call (module docstring)."""

    calls: int = 0
    regex: int = 0
    unmetered: int = 0
    _proxies: dict[int, _MeteredPattern] = field(default_factory=dict, repr=False)
    _undo: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def reset(self) -> None:
        self.calls = self.regex = self.unmetered = 0

    def proxy(self, real: re.Pattern[Any]) -> _MeteredPattern:
        got = self._proxies.get(id(real))
        if got is None:
            got = self._proxies[id(real)] = _MeteredPattern(real, self)
        return got

    def _profile(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
        elif event == "c_call":
            self.calls += 1
            owner = getattr(arg, "__self__", None)
            if (
                isinstance(owner, re.Pattern)
                and getattr(arg, "__name__", "") in (*_SCANS, *_ANCHORED)
                and frame.f_code not in _PROXY_CODES
            ):
                self.unmetered += 1

    @contextmanager
    def counting(self) -> Iterator[WorkMeter]:
        """Count the work done inside the block (from zero)."""
        self.reset()
        old = sys.getprofile()
        sys.setprofile(self._profile)
        try:
            yield self
        finally:
            sys.setprofile(old)

    # -------------------------------------------------------------- installing

    def _swap(self, value: Any, depth: int) -> Any:
        """``value`` with its patterns swapped for proxies (a new tuple when a
        tuple holds one; lists, dicts and dataclasses are changed in place,
        with an undo step each)."""
        if isinstance(value, re.Pattern):
            return self.proxy(value)
        if depth <= 0 or isinstance(value, (str, bytes, int, float, ModuleType, type)):
            return value
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            items = tuple(self._swap(v, depth - 1) for v in value)
            return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
        if isinstance(value, list):
            for i, v in enumerate(value):
                new = self._swap(v, depth - 1)
                if new is not v:
                    value[i] = new
                    self._undo.append(partial(value.__setitem__, i, v))
        elif isinstance(value, dict) and type(value) is dict:
            for k, v in list(value.items()):
                new = self._swap(v, depth - 1)
                if new is not v:
                    value[k] = new
                    self._undo.append(partial(value.__setitem__, k, v))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                v = getattr(value, f.name)
                new = self._swap(v, depth - 1)
                if new is not v:
                    object.__setattr__(value, f.name, new)
                    self._undo.append(partial(object.__setattr__, value, f.name, v))
        return value

    def _install_module(self, module: ModuleType) -> None:
        for name, value in list(vars(module).items()):
            if isinstance(value, FunctionType) and value.__module__ == module.__name__:
                for attr in ("__defaults__", "__kwdefaults__"):
                    old = getattr(value, attr)
                    if old:
                        new = self._swap(old, 2)
                        if new is not old:
                            setattr(value, attr, new)
                            self._undo.append(partial(setattr, value, attr, old))
                continue
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == module.__name__:
                try:
                    if info().currsize == 1 and not _takes_arguments(value):
                        self._swap(value(), 3)  # the cached result, changed in place
                except (TypeError, ValueError):
                    pass
                continue
            new = self._swap(value, 3)
            if new is not value:
                setattr(module, name, new)
                self._undo.append(partial(setattr, module, name, value))

    @contextmanager
    def installed(self, modules: Sequence[str]) -> Iterator[WorkMeter]:
        """Proxies in place over ``modules`` (and ``re``'s functions) inside the block."""
        import importlib

        real_compile = re._compile  # type: ignore[attr-defined]

        def metered_compile(pattern: Any, flags: Any = 0) -> Any:
            if isinstance(pattern, _MeteredPattern):
                return pattern
            return self.proxy(real_compile(pattern, flags))

        try:
            re._compile = metered_compile  # type: ignore[attr-defined]
            for name in modules:
                self._install_module(importlib.import_module(name))
            yield self
        finally:
            re._compile = real_compile  # type: ignore[attr-defined]
            while self._undo:
                self._undo.pop()()
            self._proxies.clear()


def _takes_arguments(fn: Any) -> bool:
    import inspect

    try:
        return any(
            p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            for p in inspect.signature(fn).parameters.values()
        )
    except (TypeError, ValueError):
        return True


# ------------------------------------------------------------------ inputs

#: Hostile texts every surface meets: a unit repeated to the size asked.
COMMON_SHAPES: dict[str, str] = {
    "digits": "1",
    "newlines": "\n",
    "spaces": " ",
    "brackets": "([{",
    "long-word": "a",
    "digit-space": "1 ",
    "digit-comma": "1,",
    "months": "March ",
    "blank-lines": " \n",
}


def keyword_shape(unit: str) -> str:
    """The name of a surface's own shape: ``keyword:'Action:\\n'``."""
    return f"keyword:{unit!r}"


def shaped(unit: str, size: int) -> str:
    """``unit`` repeated to exactly ``size`` characters."""
    return (unit * (size // len(unit) + 1))[:size]


# ------------------------------------------------------------------ surfaces


@dataclass(frozen=True)
class Surface:
    """One parser or scorer: ``run(text)`` does its work on the text;
    ``modules`` hold its patterns; ``shapes`` are its own keywords, repeated."""

    name: str
    run: Callable[[str], object]
    modules: tuple[str, ...]
    shapes: tuple[str, ...] = ()
    #: Whether the surface's regex calls see bounded windows or use patterns of
    #: bounded width, so that the regex model bounds its work: then its regex
    #: growth must pass too. Other surfaces scan the whole text with unbounded
    #: patterns; their regex growth is reported (the model charges those L²
    #: whether or not they backtrack), and only their Python work is checked.
    regex_bounded: bool = False


def quiet(fn: Callable[[str], object]) -> Callable[[str], object]:
    """A bad input is a one-line error, which is work done, not a failure."""

    def run(text: str) -> object:
        try:
            return fn(text)
        except TsolveError:
            return None

    return run


def _claims(text: str) -> object:
    from tsolve.claims import check_claims

    return check_claims(text)


def _answers(text: str) -> object:
    """Every public reader of tsolve/verifiers/answer_parsing.py that takes text."""
    from tsolve.verifiers import answer_parsing as ap

    out = []
    for name in ("parse_answer", "find_dates", "scan_dates", "last_marker_end"):
        fn = getattr(ap, name, None)
        if callable(fn):
            out.append(fn(text))
    return out


def surfaces() -> tuple[Surface, ...]:
    """Every surface the check covers: the engine's own (claims, answer
    parsing), then each built-in family's (its ``scaling_surfaces`` part)."""
    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    own = (
        Surface("claims", _claims, ("tsolve.claims.extract", "tsolve.claims.grammar",
                "tsolve.claims.lexicon", "tsolve.claims.checks", "tsolve.claims.calendar_dates",
                "tsolve.bounded_scan"),
                ("2024 is a leap year. ", "Nisan ", "1 day after ", "March 6, 2023 is a ",
                 "Christmas "), regex_bounded=True),
        Surface("answer-parsing", quiet(_answers), ("tsolve.verifiers.answer_parsing",),
                ("MY ANSWER:", "answer", "May 5, 2014 ", "2014-05-05 ", "**")),
    )  # fmt: skip
    theirs = tuple(
        surface
        for fam in builtin_families()
        if fam.scaling_surfaces is not None
        for surface in resolve(fam.scaling_surfaces)()
    )
    return (*own, *theirs)


# ------------------------------------------------------------------ the check


@dataclass(frozen=True)
class Growth:
    """Work at sizes n, 2n, 4n for one surface and shape, and the verdict."""

    surface: str
    shape: str
    sizes: tuple[int, ...]
    calls: tuple[int, ...]
    regex: tuple[int, ...]
    unmetered: int
    regex_bounded: bool

    @staticmethod
    def marginal(work: Sequence[int]) -> float:
        """``(W(4n) − W(2n)) / (W(2n) − W(n))``; flat work (no growth) is 0."""
        up, base = work[2] - work[1], work[1] - work[0]
        if up <= 0:
            return 0.0
        return up / max(base, 1)

    @property
    def calls_growth(self) -> float:
        return self.marginal(self.calls)

    @property
    def regex_growth(self) -> float:
        return self.marginal(self.regex)

    @property
    def ok(self) -> bool:
        """Python work grows at most 3x per doubling, and so does regex work
        where the surface bounds its regex calls (``Surface.regex_bounded``)."""
        regex_ok = self.regex_growth <= MAX_GROWTH or not self.regex_bounded
        return self.calls_growth <= MAX_GROWTH and regex_ok

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface, "shape": self.shape, "sizes": list(self.sizes),
            "calls": list(self.calls), "regex": list(self.regex), "unmetered": self.unmetered,
            "calls_growth": round(self.calls_growth, 3),
            "regex_growth": round(self.regex_growth, 3), "regex_bounded": self.regex_bounded,
            "ok": self.ok,
        }  # fmt: skip


def check_surface(surface: Surface, size: int, shapes: Sequence[str] | None = None) -> list[Growth]:
    """Measure ``surface`` on every shape at ``size``, 2·size and 4·size."""
    units = dict(COMMON_SHAPES)
    units.update({keyword_shape(k): k for k in surface.shapes})
    if shapes is not None:
        units = {k: v for k, v in units.items() if k in shapes}
    surface.run("warm up: March 6, 2023 is a Monday. Q3 2019. MY ANSWER: 2019-01-01")
    meter = WorkMeter()
    out = []
    with meter.installed(surface.modules):
        for shape, unit in units.items():
            calls, regex, unmetered = [], [], 0
            sizes = (size, 2 * size, 4 * size)
            surface.run(shaped(unit, size))  # first-use costs of this shape (tables, caches)
            for n in sizes:
                text = shaped(unit, n)
                with meter.counting():
                    surface.run(text)
                calls.append(meter.calls)
                regex.append(meter.regex)
                unmetered += meter.unmetered
            work = (tuple(calls), tuple(regex), unmetered)
            out.append(Growth(surface.name, shape, sizes, *work, surface.regex_bounded))
    return out


def scaling_check(size: int = 1000, names: Sequence[str] | None = None) -> list[Growth]:
    """The whole check (``tsolve stress --scaling``): every surface (or those
    named) on every shape."""
    if size < 16:
        raise TsolveError(f"scaling size: expected at least 16 characters, got {size}")
    chosen = [s for s in surfaces() if names is None or s.name in names]
    if names is not None:
        unknown = sorted(set(names) - {s.name for s in chosen})
        if unknown:
            known = ", ".join(s.name for s in surfaces())
            raise TsolveError(f"scaling surface: unknown {', '.join(unknown)} (known: {known})")
    return [g for s in chosen for g in check_surface(s, size)]
