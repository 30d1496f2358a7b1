"""Calendar tables: for every day of a calendar's valid range, its (year, month,
day, leap-month flag) in that calendar.

Converting an array of day numbers is then one bounds check and four indexed
loads, which is what makes conversion run at tens of millions of dates per
second although some reference libraries take milliseconds per date.

A table is built from the calendar's *month index* (see
:mod:`tsolve.calendars._base`), cached in memory (``functools.cache``) and on
disk as a small ``.npz`` in the user cache directory (``$TSOLVE_CACHE_DIR``, else
``$XDG_CACHE_HOME/tsolve``, else ``~/.cache/tsolve``). The file name carries the
reference library's version and the table format version, so upgrading a
library rebuilds its table. An unwritable or corrupt cache is ignored: the table
is rebuilt in memory and the run goes on.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import importlib
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import numpy as np

from tsolve.calendars._base import CalendarSpec, MonthIndex, check_month_index
from tsolve.errors import TsolveError

CALENDARS = (
    "gregorian",
    "chinese",
    "hebrew",
    "islamic",
    "islamic-umalqura",
    "persian",
    "shaka",
)

# Calendar name -> module holding its ``SPEC``. Imported lazily so that using the
# Chinese table does not import convertdate or hijridate.
_MODULES = {
    "gregorian": "tsolve.calendars.gregorian",
    "chinese": "tsolve.calendars.chinese",
    "hebrew": "tsolve.calendars.hebrew",
    "islamic": "tsolve.calendars.islamic",
    "islamic-umalqura": "tsolve.calendars.umalqura",
    "persian": "tsolve.calendars.persian",
    "shaka": "tsolve.calendars.shaka",
}

# Bump when the meaning or layout of cached arrays changes.
FORMAT_VERSION = 1


def check_calendar(name: str, field: str = "calendar") -> str:
    """Normalise a calendar name (case, ``_`` for ``-``) or raise a one-line error."""
    key = str(name).strip().lower().replace("_", "-")
    if key not in _MODULES:
        raise TsolveError(f"{field}: unknown calendar {name!r} (known: {', '.join(CALENDARS)})")
    return key


def spec(name: str) -> CalendarSpec:
    """The :class:`CalendarSpec` (builder, range, month names) of a calendar."""
    return _spec(check_calendar(name))


@cache
def _spec(key: str) -> CalendarSpec:
    mod = importlib.import_module(_MODULES[key])
    s: CalendarSpec = mod.SPEC
    return s


@dataclass(frozen=True, eq=False)
class CalendarTable:
    """One calendar over its valid range ``[first_day, last_day]`` (ordinals).

    ``year``/``month``/``day``/``leap`` are indexed by ``day - first_day``.
    ``months`` is the month index the table was filled from (used to convert
    *from* the calendar and to validate dates in it); it may extend past the
    range at both ends, since partial months are kept whole.
    """

    name: str
    first_day: int
    last_day: int
    year: np.ndarray
    month: np.ndarray
    day: np.ndarray
    leap: np.ndarray
    months: MonthIndex

    @property
    def size(self) -> int:
        return self.last_day - self.first_day + 1

    def range_text(self) -> str:
        a = _dt.date.fromordinal(self.first_day).isoformat()
        b = _dt.date.fromordinal(self.last_day).isoformat()
        return f"{a}..{b}"

    def index(self, days: np.ndarray, field: str = "date") -> np.ndarray:
        """Offsets into the table, or a TsolveError naming the first date outside it."""
        d = np.asarray(days, dtype=np.int64)
        idx = d - self.first_day
        if idx.size:
            bad = (idx < 0) | (idx >= self.size)
            if bad.any():
                first_bad = int(d.reshape(-1)[np.flatnonzero(bad.reshape(-1))[0]])
                raise TsolveError(
                    f"{field}: {_fmt_day(first_bad)} is outside the {self.name} calendar's "
                    f"range {self.range_text()}"
                )
        return idx

    def fields(self, days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(year, month, day, leap) arrays for an array of day numbers."""
        idx = self.index(days)
        return self.year[idx], self.month[idx], self.day[idx], self.leap[idx]


def _fmt_day(day: int) -> str:
    try:
        return _dt.date.fromordinal(day).isoformat()
    except (ValueError, OverflowError):
        return f"day number {day}"


def _fill(name: str, first_day: int, last_day: int, idx: MonthIndex) -> CalendarTable:
    """Expand a month index to per-day arrays over ``[first_day, last_day]``."""
    check_month_index(idx)
    if idx.start[0] > first_day or idx.start[-1] + idx.length[-1] <= last_day:
        raise AssertionError(f"{name}: month index does not cover the range")
    lengths = idx.length.astype(np.int64)
    total = int(lengths.sum())
    offsets = np.repeat(idx.start - idx.start[0], lengths)
    day = (np.arange(total, dtype=np.int64) - offsets + 1).astype(np.int8)
    year = np.repeat(idx.year, lengths)
    month = np.repeat(idx.month, lengths)
    leap = np.repeat(idx.leap, lengths)
    lo = first_day - int(idx.start[0])
    hi = lo + (last_day - first_day + 1)
    return CalendarTable(
        name, first_day, last_day,
        np.ascontiguousarray(year[lo:hi]), np.ascontiguousarray(month[lo:hi]),
        np.ascontiguousarray(day[lo:hi]), np.ascontiguousarray(leap[lo:hi]), idx,
    )  # fmt: skip


# ---------------------------------------------------------------- disk cache


def cache_dir() -> Path:
    """Where tables are cached: ``$TSOLVE_CACHE_DIR``, ``$XDG_CACHE_HOME/tsolve``
    or ``~/.cache/tsolve``."""
    env = os.environ.get("TSOLVE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tsolve"


def _library_version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "builtin"


def cache_path(s: CalendarSpec) -> Path:
    ver = _library_version(s.library)
    return cache_dir() / (
        f"{s.name}-{s.library}-{ver}-f{FORMAT_VERSION}-{s.first_day}-{s.last_day}.npz"
    )


_FIELDS = ("year", "month", "leap", "start", "length")


def _load(path: Path) -> MonthIndex | None:
    """The cached month index, or None if absent, unreadable or malformed."""
    try:
        with np.load(path, allow_pickle=False) as z:
            idx = MonthIndex(*(np.array(z[f]) for f in _FIELDS))
        check_month_index(idx)
        if not np.array_equal(idx.start[1:], idx.start[:-1] + idx.length[:-1]):
            return None
        return idx
    except Exception:  # any unreadable cache just means "rebuild"
        return None


def _save(path: Path, idx: MonthIndex) -> None:
    """Write atomically (temp file + rename); silently skip if not writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **{f: getattr(idx, f) for f in _FIELDS})
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except OSError:
        pass


def build_month_index(name: str, use_cache: bool = True) -> MonthIndex:
    """The month index of a calendar: from the disk cache, else from its library."""
    s = spec(name)
    path = cache_path(s)
    if use_cache:
        cached = _load(path)
        if cached is not None:
            return cached
    idx = s.build(s.first_day, s.last_day)
    if use_cache:
        _save(path, idx)
    return idx


@cache
def table(name: str) -> CalendarTable:
    """The (cached) table of calendar ``name``; see :data:`CALENDARS`."""
    s = spec(name)
    return _fill(s.name, s.first_day, s.last_day, build_month_index(s.name))


def month_name(calendar: str, year: int, month: int, leap: bool = False) -> str:
    """English month name of ``(year, month, leap)`` in ``calendar``."""
    try:  # canonical names hit the cache directly (hot in question rendering)
        s = _spec(calendar)
    except KeyError:
        s = spec(calendar)
    return s.month_name(int(year), int(month), bool(leap))
