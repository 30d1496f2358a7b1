"""Festivals as rules in their own calendar.

Each festival is a fixed (month, day) of one calendar, e.g. Mid-Autumn =
Chinese lunar 8/15, Eid al-Fitr = Islamic 10/1, Sizdah Be-dar = Farvardin 13.
Resolving it for a year of its own calendar gives exactly one day; for a
Gregorian year it gives every occurrence in that year: one for all festivals
except the Islamic ones, which fall twice in some Gregorian years (the Islamic
year is ~11 days shorter), e.g. Hijri New Year on 2008-01-10 and 2008-12-29.

Special rules, all documented in ``docs/calendars.md``:

* Chinese festivals fall in the regular (non-leap) month of their number.
* Purim is 14 Adar in a common Hebrew year and 14 Adar II in a leap year (the
  Adar adjacent to Nisan, as in the Jewish practice).
* Islamic festivals resolve in the tabular calendar (the one SPAN used) unless
  ``calendar="islamic-umalqura"`` is asked for.
* Mehregan is 10 Mehr (day 196 of the Solar Hijri year, ~2 October), as
  Wikipedia and Iranian calendars give it; the Zoroastrian 16 Mehr is not used.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

import numpy as np

from tsolve.calendars.names import normalise
from tsolve.calendars.tables import check_calendar, table
from tsolve.compat.moved_names import renamed_keywords
from tsolve.errors import TsolveError
from tsolve.records.validation import shown


@dataclass(frozen=True)
class Festival:
    """A festival: ``month``/``day`` of ``calendar`` (``month=-1``: Purim's Adar)."""

    key: str
    name: str
    calendar: str
    month: int
    day: int
    aliases: tuple[str, ...] = field(default=())
    span: bool = True  # one of SPAN's Appendix A festivals
    note: str = ""

    def month_in(self, year: int) -> int:
        """The month number the festival falls in, in its calendar's ``year``."""
        if self.month == ADAR_OF_PURIM:
            from tsolve.calendars.hebrew import is_leap

            return 13 if is_leap(year) else 12
        return self.month

    def rule(self) -> str:
        """Human-readable rule, e.g. ``chinese 8/15``."""
        if self.month == ADAR_OF_PURIM:
            return "hebrew 12/14 (13/14, Adar II, in leap years)"
        return f"{self.calendar} {self.month}/{self.day}"


ADAR_OF_PURIM = -1

FESTIVALS: tuple[Festival, ...] = (
    # Gregorian (SPAN Appendix A)
    Festival("halloween", "Halloween", "gregorian", 10, 31),
    Festival("christmas", "Christmas Day", "gregorian", 12, 25, ("christmas day",)),
    Festival("new-year", "New Year's Day", "gregorian", 1, 1, ("new years day", "new year")),
    Festival("valentine", "Valentine's Day", "gregorian", 2, 14, ("valentines day",)),
    Festival("womens-day", "International Women's Day", "gregorian", 3, 8, ("womens day",)),
    Festival("workers-day", "International Workers' Day", "gregorian", 5, 1,
             ("labour day", "labor day", "may day", "workers day")),
    Festival("childrens-day", "International Children's Day", "gregorian", 6, 1,
             ("childrens day",)),
    # Chinese lunar (SPAN Appendix A)
    Festival("chinese-new-year", "Chinese New Year", "chinese", 1, 1,
             ("spring festival", "lunar new year")),
    Festival("lantern", "Lantern Festival", "chinese", 1, 15, ("lantern festival",)),
    Festival("dragon-boat", "Dragon Boat Festival", "chinese", 5, 5,
             ("dragon boat festival", "duanwu")),
    Festival("qixi", "Chinese Valentine's Day", "chinese", 7, 7,
             ("chinese valentines day", "qixi festival")),
    Festival("ghost", "Ghost Festival", "chinese", 7, 15, ("ghost festival", "zhongyuan")),
    Festival("mid-autumn", "Mid-Autumn Festival", "chinese", 8, 15,
             ("mid autumn festival", "moon festival")),
    # Islamic (SPAN Appendix A)
    Festival("hijri-new-year", "Hijri New Year", "islamic", 1, 1,
             ("islamic new year", "muharram")),
    Festival("isra-miraj", "Isra and Mi'raj", "islamic", 7, 27, ("isra and miraj", "isra miraj")),
    Festival("eid-al-fitr", "Eid al-Fitr", "islamic", 10, 1, ("eid ul fitr",)),
    Festival("eid-al-adha", "Eid al-Adha", "islamic", 12, 10, ("eid ul adha",)),
    # Persian (SPAN Appendix A)
    Festival("nowruz", "Persian New Year", "persian", 1, 1, ("nowruz", "norouz", "nauruz")),
    Festival("sizdah-be-dar", "Sizdah Be-dar", "persian", 1, 13, ("sizdah bedar", "nature day")),
    Festival("mehregan", "Mehregan Festival", "persian", 7, 10, ("mehregan", "mehrgan"),
             note="10 Mehr (day 196); the Zoroastrian reckoning is 16 Mehr"),
    Festival("tirgan", "Tirgan Festival", "persian", 4, 13, ("tirgan",)),
    # Hebrew (tsolve's addition: the Hebrew calendar is one of the six)
    Festival("rosh-hashanah", "Rosh Hashanah", "hebrew", 7, 1, ("rosh hashana",), span=False),
    Festival("yom-kippur", "Yom Kippur", "hebrew", 7, 10, span=False),
    Festival("passover", "Passover", "hebrew", 1, 15, ("pesach",), span=False,
             note="first day (15 Nisan)"),
    Festival("hanukkah", "Hanukkah", "hebrew", 9, 25, ("chanukah", "hanukah"), span=False,
             note="first day (25 Kislev)"),
    Festival("purim", "Purim", "hebrew", ADAR_OF_PURIM, 14, span=False,
             note="14 Adar; 14 Adar II in leap years"),
    # Shaka (tsolve's addition, so that Shaka-source festival questions exist)
    Festival("shaka-new-year", "Indian National New Year", "shaka", 1, 1,
             ("shaka new year", "saka new year", "chaitra 1"), span=False,
             note="1 Chaitra of the national calendar"),
)  # fmt: skip


def _index() -> dict[str, Festival]:
    out: dict[str, Festival] = {}
    for f in FESTIVALS:
        for n in (f.key, f.name, *f.aliases):
            out.setdefault(normalise(n), f)
    return out


_BY_NAME = _index()


def get_festival(name: str) -> Festival:
    """Look a festival up by key, name or alias (case and punctuation ignored)."""
    f = _BY_NAME.get(normalise(name))
    if f is None:
        known = ", ".join(x.key for x in FESTIVALS)
        raise TsolveError(f"festival: unknown festival {shown(name)} (known: {known})")
    return f


@renamed_keywords
def festivals_of(calendar: str, appendix_only: bool = False) -> tuple[Festival, ...]:
    """The festivals whose rule is in ``calendar``; with ``appendix_only``,
    only those of the cross-calendar paper's Appendix A (``Festival.span``)."""
    cal = check_calendar(calendar)
    if cal == "islamic-umalqura":
        cal = "islamic"
    return tuple(f for f in FESTIVALS if f.calendar == cal and (f.span or not appendix_only))


def festival_day(fest: Festival, year: int, calendar: str | None = None) -> int:
    """The day number of ``fest`` in ``year`` of its own calendar.

    ``calendar`` may pick the Umm al-Qura variant for an Islamic festival.
    """
    from tsolve.calendars.conversion import date_of

    cal = fest.calendar if calendar is None else check_calendar(calendar)
    if cal != fest.calendar and not (fest.calendar == "islamic" and cal == "islamic-umalqura"):
        raise TsolveError(f"calendar: {fest.name} is a {fest.calendar} festival, not {cal}")
    return date_of(cal, year, fest.month_in(year), fest.day, False)


def festival(name: str, year: int, calendar: str = "gregorian") -> np.ndarray:
    """Day numbers of festival ``name`` in ``year``.

    ``calendar="gregorian"`` (the default): every occurrence within Gregorian
    ``year`` (one, or two for Islamic festivals in some years). Otherwise
    ``year`` is a year of the festival's own calendar (or, for Islamic
    festivals, of ``islamic-umalqura``) and there is exactly one day.
    """
    fest = get_festival(name)
    cal = check_calendar(calendar)
    if cal != "gregorian" or fest.calendar == "gregorian":
        own = fest.calendar if cal == "gregorian" else cal
        return np.array([festival_day(fest, int(year), own)], dtype=np.int64)
    own = fest.calendar
    try:
        lo = _dt.date(int(year), 1, 1).toordinal()
        hi = _dt.date(int(year), 12, 31).toordinal()
    except (ValueError, OverflowError):
        raise TsolveError(f"year: {year!r} is not a Gregorian year") from None
    tab = table(own)
    a, b = max(lo, tab.first_day), min(hi, tab.last_day)
    if a > b:
        raise TsolveError(f"year: {year} is outside the {own} calendar's range {tab.range_text()}")
    years = np.unique(tab.year[a - tab.first_day : b - tab.first_day + 1])
    found: list[int] = []
    for y in years.tolist():
        try:
            d = festival_day(fest, int(y), own)
        except TsolveError:
            continue  # that own-calendar year's occurrence is outside the table
        if lo <= d <= hi:
            found.append(d)
    if not found:
        raise TsolveError(f"year: {fest.name} has no date in {year} within the {own} table's range")
    return np.array(sorted(found), dtype=np.int64)
