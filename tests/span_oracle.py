"""An independent oracle for SPAN gold answers, shared by the SPAN tests.

Every date conversion here calls a calendar library per date, or a rule written
out in this file, never tsolve's tables:

* Chinese: ``lunarcalendar`` (primary: the HKO tables) and ``lunardate``
  (the other side of the disputed month starts);
* Hebrew: ``pyluach``; Persian: ``jdatetime``; Shaka: ``convertdate.indian_civil``;
* tabular Islamic: the arithmetic of Calendrical Calculations (Reingold &
  Dershowitz, eqs. 6.3-6.4), written out below;
* Umm al-Qura: ``hijridate`` (primary) and ``ummalqura`` (the other side of
  the disputed Shawwal 1485). ``ummalqura``'s 2015 table is known wrong on
  Jumada al-Thani 1427 and 1446 (docs/calendars.md), where it is not asked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

Fields = tuple[int, int, int, bool]
LUNARDATE_END = dt.date(2100, 2, 9)  # lunardate's tables end with lunar 2099 (no dispute after)
# lunardate is the other sources' reading only for the future months whose new
# moon falls minutes from midnight; its past disagreements (1933, 1954, 1978)
# are settled by the Hong Kong Observatory's published tables, which
# lunarcalendar follows (docs/calendars.md), so they are not a reading.
LUNARDATE_FROM = dt.date(2050, 1, 1)
ISLAMIC_EPOCH = 227015  # R.D. of 1 Muharram AH 1 (16 July 622 Julian) = Python ordinal


def tabular_to_ordinal(y: int, m: int, d: int) -> int:
    return (ISLAMIC_EPOCH - 1 + (y - 1) * 354 + (3 + 11 * y) // 30 + 29 * (m - 1)
            + m // 2 + d)  # fmt: skip


def tabular_from_ordinal(n: int) -> Fields:
    y = (30 * (n - ISLAMIC_EPOCH) + 10646) // 10631
    prior = n - tabular_to_ordinal(y, 1, 1)
    m = (11 * prior + 330) // 325
    return (y, m, n - tabular_to_ordinal(y, m, 1) + 1, False)


def _uq_month_known_wrong(y: int, m: int) -> bool:
    """Months where ummalqura's table is known wrong, or that it does not cover
    (it starts at AH 1356): hijridate answers there on both sides."""
    return (y, m) in ((1427, 6), (1446, 6)) or y < 1356


def lib_fields(cal: str, g: dt.date, alternative: bool = False) -> Fields:
    """(year, month, day, leap) of Gregorian ``g`` in ``cal``, from a library."""
    if cal == "gregorian":
        return (g.year, g.month, g.day, False)
    if cal == "chinese":
        if alternative and LUNARDATE_FROM <= g < LUNARDATE_END:
            from lunardate import LunarDate

            ld = LunarDate.from_solar_date(g.year, g.month, g.day)
            return (ld.year, ld.month, ld.day, bool(ld.is_leap_month))
        from lunarcalendar.converter import Converter, Solar

        lu = Converter.Solar2Lunar(Solar(g.year, g.month, g.day))
        return (lu.year, lu.month, lu.day, bool(lu.isleap))
    if cal == "hebrew":
        import pyluach.dates as pd

        h = pd.GregorianDate(g.year, g.month, g.day).to_heb()
        return (h.year, h.month, h.day, False)
    if cal == "persian":
        import jdatetime

        j = jdatetime.date.fromgregorian(date=g)
        return (j.year, j.month, j.day, False)
    if cal == "islamic":
        return tabular_from_ordinal(g.toordinal())
    if cal == "islamic-umalqura":
        from hijridate import Gregorian

        h = Gregorian(g.year, g.month, g.day).to_hijri()
        if alternative and not _uq_month_known_wrong(h.year, h.month):
            from ummalqura.hijri_date import HijriDate

            u = HijriDate(g.year, g.month, g.day, gr=True)
            return (int(u.year), int(u.month), int(u.day), False)
        return (h.year, h.month, h.day, False)
    from convertdate import indian_civil

    return (*indian_civil.from_gregorian(g.year, g.month, g.day), False)


def lib_gregorian(cal: str, y: int, m: int, d: int, leap: bool = False,
                  alternative: bool = False) -> dt.date:  # fmt: skip
    """Gregorian date of a date in ``cal`` (the library checks it exists)."""
    if cal == "gregorian":
        return dt.date(y, m, d)
    if cal == "chinese":
        if alternative and LUNARDATE_FROM.year <= y < 2100:
            from lunardate import LunarDate

            return LunarDate(y, m, d, leap).to_solar_date()
        from lunarcalendar.converter import Lunar

        return Lunar(y, m, d, isleap=leap).to_date()
    if cal == "hebrew":
        import pyluach.dates as pd

        return pd.HebrewDate(y, m, d).to_pydate()
    if cal == "persian":
        import jdatetime

        return jdatetime.date(y, m, d).togregorian()
    if cal == "islamic":
        if not 1 <= d <= (30 if m % 2 or (m == 12 and (14 + 11 * y) % 30 < 11) else 29):
            raise ValueError(f"no day {d} in tabular month {y}-{m}")
        return dt.date.fromordinal(tabular_to_ordinal(y, m, d))
    if cal == "islamic-umalqura":
        if alternative and not _uq_month_known_wrong(y, m):
            from ummalqura.hijri_date import HijriDate

            u = HijriDate(y, m, d, gr=False)
            return dt.date(int(u.year_gr), int(u.month_gr), int(u.day_gr))
        from hijridate import Hijri

        return Hijri(y, m, d).to_gregorian()
    from convertdate import indian_civil

    return dt.date(*indian_civil.to_gregorian(y, m, d))


# Festival rules as published (SPAN Appendix A, Wikipedia), written out here.
FESTIVAL_RULES = {
    "Halloween": (10, 31), "Christmas Day": (12, 25), "New Year's Day": (1, 1),
    "Valentine's Day": (2, 14), "International Women's Day": (3, 8),
    "International Workers' Day": (5, 1), "International Children's Day": (6, 1),
    "Chinese New Year": (1, 1), "Lantern Festival": (1, 15), "Dragon Boat Festival": (5, 5),
    "Chinese Valentine's Day": (7, 7), "Ghost Festival": (7, 15), "Mid-Autumn Festival": (8, 15),
    "Hijri New Year": (1, 1), "Isra and Mi'raj": (7, 27), "Eid al-Fitr": (10, 1),
    "Eid al-Adha": (12, 10), "Persian New Year": (1, 1), "Sizdah Be-dar": (1, 13),
    "Mehregan Festival": (7, 10), "Tirgan Festival": (4, 13), "Rosh Hashanah": (7, 1),
    "Yom Kippur": (7, 10), "Passover": (1, 15), "Hanukkah": (9, 25),
    "Indian National New Year": (1, 1),
}  # fmt: skip


def oracle(rec: dict[str, Any], alternative: bool = False) -> Fields:
    """The record's answer under its own (named) reading, source-calendar year
    counting, daytime dates, and the primary (or ``alternative``) month starts."""
    p = rec["params"]
    src, tgt = p["source_calendar"], p["target_calendar"]
    r = p["reference_date"]
    ref = lib_gregorian(src, r["year"], r["month"], r["day"], bool(r.get("leap", False)),
                        alternative)  # fmt: skip
    # "Today" is the record's reference date, inside the run's window (one
    # date, or a window of them since generator version 5).
    gp = rec["generator"]["params"]
    lo, _, hi = (gp.get("date_range") or f"{gp['date']}..{gp['date']}").partition("..")
    assert ref.isoformat() == r["gregorian"] and lo <= r["gregorian"] <= hi, rec["question"]
    sgn = -1 if p["sign"] == "ago" else 1
    if rec["type"] == "date":
        step = {"days": 1, "weeks": 7}[p["unit"]]
        g = ref + dt.timedelta(days=sgn * p["offset"] * step)
    else:
        year = r["year"] + sgn * p["offset"]
        name = p["festival"]["name"]
        if name == "Purim":
            import pyluach.utils

            m, d = (13 if pyluach.utils._is_leap(year) else 12), 14
        else:
            m, d = FESTIVAL_RULES[name]
        g = lib_gregorian(src, year, m, d, False, alternative)
    return lib_fields(tgt, g, alternative)


def gold_tuple(gold: dict[str, Any]) -> Fields:
    return (gold["year"], gold["month"], gold["day"], bool(gold.get("leap", False)))


def check_record(rec: dict[str, Any]) -> None:
    """Gold, candidate and label of ``rec`` agree with the oracle under every
    reading the record lists (its text rules the others out)."""
    want = oracle(rec)
    assert gold_tuple(rec["gold"]) == want, rec["question"]
    assert lib_gregorian(rec["gold"]["calendar"], *want) == dt.date.fromisoformat(
        rec["gold"]["gregorian"]
    )
    for name in rec.get("readings", ["canonical"]):
        if "disputed-months:alternative" in name:
            assert oracle(rec, alternative=True) == want, (name, rec["question"])
    if rec["format"] == "polar":
        cand = rec["params"]["candidate"]
        ct = gold_tuple(cand)
        g = lib_gregorian(cand["calendar"], *ct)  # a real date of the target calendar
        assert lib_fields(cand["calendar"], g) == ct
        assert (ct == want) == (rec["answer"] == "Yes")
        assert cand["text"] in rec["question"]
    else:  # the whole answer: day, month name (Adar I vs Adar), leap flag, year
        assert rec["answer"] == content_text(rec["gold"]["calendar"], want), rec["question"]


# Month names as the records spell them, written out here (standard English
# transliterations, as on the calendars' Wikipedia pages), not read from
# tsolve: month n is entry n - 1. Hebrew months 12 and 13 depend on the year.
MONTH_NAMES: dict[str, list[str]] = {
    "hebrew": ["Nisan", "Iyar", "Sivan", "Tammuz", "Av", "Elul", "Tishrei", "Cheshvan",
               "Kislev", "Tevet", "Shevat"],
    "islamic": ["Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Awwal",
                "Jumada al-Thani", "Rajab", "Shaban", "Ramadan", "Shawwal", "Dhu al-Qadah",
                "Dhu al-Hijjah"],
    "persian": ["Farvardin", "Ordibehesht", "Khordad", "Tir", "Mordad", "Shahrivar", "Mehr",
                "Aban", "Azar", "Dey", "Bahman", "Esfand"],
    "shaka": ["Chaitra", "Vaishakha", "Jyeshtha", "Ashadha", "Shravana", "Bhadrapada",
              "Ashvin", "Kartika", "Agrahayana", "Pausha", "Magha", "Phalguna"],
}  # fmt: skip
MONTH_NAMES["islamic-umalqura"] = MONTH_NAMES["islamic"]


def content_text(cal: str, fields: Fields) -> str:
    """A content answer as the generator words it, from (year, month, day,
    leap) alone: the check that catches a swapped month name or leap flag."""
    import calendar as pycal

    import pyluach.utils

    y, m, d, leap = fields
    if cal == "gregorian":
        return f"{pycal.month_name[m]} {d}, {y}"
    if cal == "chinese":
        return f"day {d} of {'Leap ' if leap else ''}Month {m}, {y}"
    assert not leap, (cal, fields)
    if cal == "hebrew" and m >= 12:
        name = ("Adar I" if m == 12 else "Adar II") if pyluach.utils._is_leap(y) else "Adar"
    else:
        name = MONTH_NAMES[cal][m - 1]
    return f"{d} {name} {y}"


# A SPAN v1 record (the old generator's wording, hand-checked): the Islamic
# variant is not named. 2024-07-01 is 24 Dhu al-Hijjah 1445 in the tabular
# calendar (Calendrical Calculations' arithmetic) and 25 Dhu al-Hijjah 1445 in
# Umm al-Qura (Saudi Arabia kept Eid al-Adha, 10 Dhu al-Hijjah, on 2024-06-16).
# 56 days after 2024-07-01 is 2024-08-26; after 2024-06-30 it is 2024-08-25.
OLD_ISLAMIC: dict[str, Any] = {
    "id": "old-islamic", "family": "span", "type": "date", "format": "content",
    "direction": "islamic->gregorian",
    "question": "Today\u2019s date on the Islamic calendar is \u201c24 Dhu al-Hijjah 1445\u201d. "
                "What is the Gregorian calendar date 56 days later?",
    "params": {"source_calendar": "islamic", "target_calendar": "gregorian",
               "reference_date": {"calendar": "islamic", "year": 1445, "month": 12, "day": 24},
               "offset": 56, "unit": "days", "sign": "later", "festival": None},
    "answer": "August 26, 2024",
    "gold": {"calendar": "gregorian", "year": 2024, "month": 8, "day": 26,
             "text": "August 26, 2024", "gregorian": "2024-08-26"},
}  # fmt: skip
