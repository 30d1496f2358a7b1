"""The date domain: which days a task ranges over, as proleptic Gregorian ordinals.

Every date variable in tsolve is an integer day number, ``date.toordinal()``
(0001-01-01 is day 1). Integers make the solver encodings linear and let the
calendar tables be plain NumPy arrays indexed by ``day - domain.start``.

The default domain, 1900-01-31 .. 2100-12-31, is where the Chinese lunar tables
of ``lunarcalendar`` are valid (1900-01-31 is Chinese New Year 1900). It stays
the default of every generator so that existing records regenerate byte for
byte. The *supported* range, 1800-01-01 .. 2100-12-31, is wider: every calendar
table but Umm al-Qura's covers it (the Chinese one from a second source before
1900), so a domain anywhere inside it works with every fact kind.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from tsolve.errors import TsolveError

DEFAULT_START = _dt.date(1900, 1, 31)
DEFAULT_END = _dt.date(2100, 12, 31)
SUPPORTED_START = _dt.date(1800, 1, 1)
SUPPORTED_END = DEFAULT_END

_ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
# numpy's datetime64[D] counts from 1970-01-01; ordinals count from 0001-01-01.
EPOCH_ORDINAL = _dt.date(1970, 1, 1).toordinal()
MAX_ORDINAL = _dt.date.max.toordinal()


def parse_iso(text: str, field: str = "date") -> _dt.date:
    """Parse ``YYYY-MM-DD`` strictly, with a one-line error naming the field."""
    m = _ISO.match(str(text))
    if not m:
        raise TsolveError(f"{field}: {text!r} is not a date in YYYY-MM-DD form")
    try:
        return _dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError as exc:
        raise TsolveError(f"{field}: {text!r} is not a valid date ({exc})") from None


def iso(day: int) -> str:
    """Day number -> ``YYYY-MM-DD``."""
    return _dt.date.fromordinal(int(day)).isoformat()


def to_ordinal(value: str | _dt.date | int, field: str = "date") -> int:
    """Accept an ISO string, a date or an ordinal; return the ordinal."""
    if isinstance(value, bool):
        raise TsolveError(f"{field}: {value!r} is not a date")
    if isinstance(value, int):
        return value
    if isinstance(value, _dt.date):
        return value.toordinal()
    return parse_iso(value, field).toordinal()


@dataclass(frozen=True)
class DateDomain:
    """A closed range of day numbers ``[start, end]``.

    Frozen and hashable, so per-domain work (fact interval sets, day views) can
    be cached by domain. :attr:`days` is built once per domain object.
    """

    start: int
    end: int

    def __post_init__(self) -> None:
        for name, day in (("start", self.start), ("end", self.end)):
            if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= MAX_ORDINAL:
                raise TsolveError(
                    f"domain: {name} must be a day number in 1..{MAX_ORDINAL} "
                    f"(0001-01-01..9999-12-31), got {day!r}"
                )
        if self.end < self.start:
            raise TsolveError(f"domain: end {iso(self.end)} is before start {iso(self.start)}")

    @classmethod
    def from_dates(
        cls, start: str | _dt.date | None = None, end: str | _dt.date | None = None
    ) -> DateDomain:
        if isinstance(start, str) and isinstance(end, str):
            return _domain_from_iso(start, end)  # every record names its domain this way
        s = to_ordinal(start, "domain-start") if start is not None else DEFAULT_START.toordinal()
        e = to_ordinal(end, "domain-end") if end is not None else DEFAULT_END.toordinal()
        return cls(s, e)

    @property
    def size(self) -> int:
        return self.end - self.start + 1

    @property
    def start_date(self) -> _dt.date:
        return _dt.date.fromordinal(self.start)

    @property
    def end_date(self) -> _dt.date:
        return _dt.date.fromordinal(self.end)

    def __contains__(self, day: object) -> bool:
        return isinstance(day, int) and self.start <= day <= self.end

    @cached_property
    def days(self) -> np.ndarray:
        """All day numbers of the domain, int64 (built on first use and kept:
        derived from the frozen bounds, so never stale)."""
        return np.arange(self.start, self.end + 1, dtype=np.int64)

    def to_json(self) -> dict[str, str]:
        return {"start": iso(self.start), "end": iso(self.end)}


DEFAULT_DOMAIN = DateDomain(DEFAULT_START.toordinal(), DEFAULT_END.toordinal())


@dataclass(frozen=True)
class GregorianFields:
    """Vectorised Gregorian calendar fields for an array of day numbers."""

    year: np.ndarray
    month: np.ndarray  # 1..12
    day: np.ndarray  # 1..31
    weekday: np.ndarray  # Monday = 0 .. Sunday = 6, as date.weekday()
    days_in_month: np.ndarray


def gregorian_fields(days: np.ndarray) -> GregorianFields:
    """Year, month, day, weekday of many day numbers at once (no Python loop).

    One calendar conversion to months (``datetime64[M]``, months since
    1970-01) gives year and month by integer division; two to days give each
    month's first day and the next month's, hence the day and the month's
    length. (Converting to years and to months separately, then subtracting,
    took twice the passes: 31 M instructions more at the first puzzle's
    start-up, over the default domain.) ``tests/test_calendars_tables.py``
    holds every field equal to :mod:`datetime`'s on random days of
    0001..9999."""
    days = np.asarray(days, dtype=np.int64)
    months64 = (days - EPOCH_ORDINAL).astype("datetime64[D]").astype("datetime64[M]")
    years_since, month0 = np.divmod(months64.view(np.int64), 12)
    first = months64.astype("datetime64[D]").view(np.int64)  # day 1, in days since 1970
    day = days - EPOCH_ORDINAL - first + 1
    weekday = (days - 1) % 7  # ordinal 1 (0001-01-01) was a Monday
    dim = (months64 + 1).astype("datetime64[D]").view(np.int64) - first
    return GregorianFields(years_since + 1970, month0 + 1, day, weekday, dim)


@lru_cache(maxsize=256)
def _domain_from_iso(start: str, end: str) -> DateDomain:
    return DateDomain(to_ordinal(start, "domain-start"), to_ordinal(end, "domain-end"))
