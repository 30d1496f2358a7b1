"""Claims as models write them, generated with a seeded RNG, and
their ground truth from libraries other than tsolve.

Where the truth comes from: weekdays and Gregorian arithmetic from Python's
``datetime``; Hebrew dates from ``pyluach``; Islamic (Umm al-Qura) dates
from ``hijridate``; Persian dates from ``jdatetime``; Indian national (Shaka)
dates from ``convertdate.indian_civil``. Month spellings are written here, as
people write them (Ashkenazi "Teves", Urdu "Zil Hijjah", Hindi "Sawan", ...),
independently of tsolve's tables. Half the claims are false by construction;
a false Islamic date is moved at least three days, so that neither Islamic
calendar tsolve reads (tabular or Umm al-Qura) can make it true.

``phrased(seed)`` gives 200 claims; ``unreadable()`` claims that are only
partly understandable by tsolve's grammar, which must never get a verdict.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]  # fmt: skip
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten", 12: "twelve", 15: "fifteen", 20: "twenty",
                30: "thirty", 40: "forty"}  # fmt: skip

# How people write the months (several spellings each; the first is the common one).
HEBREW = {
    1: ["Nisan", "Nissan"], 2: ["Iyar", "Iyyar"], 3: ["Sivan"], 4: ["Tammuz", "Tamuz"],
    5: ["Av", "Menachem Av"], 6: ["Elul"], 7: ["Tishrei", "Tishri"],
    8: ["Cheshvan", "Heshvan", "Marcheshvan", "Mar Cheshvan"], 9: ["Kislev", "Kislef"],
    10: ["Tevet", "Teves", "Tebeth"], 11: ["Shevat", "Shvat", "Sh'vat"],
    12: ["Adar"], 13: ["Adar II", "Adar Beis", "Adar Sheni"],
}  # fmt: skip
ISLAMIC = {
    1: ["Muharram", "Moharram", "Muharrem"], 2: ["Safar"],
    3: ["Rabi al-Awwal", "Rabi ul Awwal", "Rabi' al-Awwal", "Rebiulevvel"],
    4: ["Rabi al-Thani", "Rabi ul Sani", "Rabi' al-Akhir", "Rabi-ul-Akhir"],
    5: ["Jumada al-Ula", "Jumadil Awal", "Jamadi ul Awwal", "Jumada I"],
    6: ["Jumada al-Akhirah", "Jumadil Akhir", "Jamadi us Sani", "Jumada II"],
    7: ["Rajab", "Recep"], 8: ["Shaban", "Sha'ban", "Shaaban", "Syaban"],
    9: ["Ramadan", "Ramzan", "Ramadhan", "Ramazan"], 10: ["Shawwal", "Shawal", "Syawal"],
    11: ["Dhu al-Qadah", "Dhul Qa'dah", "Zul Qaada", "Zilkade", "Dhu'l-Qi'dah"],
    12: ["Dhu al-Hijjah", "Dhul Hijjah", "Zil Hijjah", "Zilhicce", "Dhu'l-Hijja"],
}  # fmt: skip
PERSIAN = {
    1: ["Farvardin"], 2: ["Ordibehesht", "Ardibehesht"], 3: ["Khordad", "Khordaad"],
    4: ["Tir"], 5: ["Mordad", "Amordad"], 6: ["Shahrivar", "Shahrewar"], 7: ["Mehr", "Mihr"],
    8: ["Aban"], 9: ["Azar", "Aazar"], 10: ["Dey", "Dei"], 11: ["Bahman"],
    12: ["Esfand", "Espand", "Isfand"],
}  # fmt: skip
SHAKA = {
    1: ["Chaitra", "Chait"], 2: ["Vaishakha", "Baisakh", "Vaisakh"],
    3: ["Jyaishtha", "Jyeshtha", "Jeth"], 4: ["Ashadha", "Asharh", "Ashadh"],
    5: ["Shravana", "Sawan", "Shravan"], 6: ["Bhadra", "Bhadrapada", "Bhadon"],
    7: ["Ashvin", "Ashwin", "Aswin"], 8: ["Kartika", "Kartik", "Karthik"],
    9: ["Agrahayana", "Margashirsha", "Aghan"], 10: ["Pausha", "Paush", "Poush"],
    11: ["Magha", "Magh"], 12: ["Phalguna", "Phalgun", "Falgun"],
}  # fmt: skip
FIXED_FESTIVALS = {"Christmas": (12, 25), "Christmas Day": (12, 25), "Halloween": (10, 31),
                   "New Year's Day": (1, 1), "Valentine's Day": (2, 14)}  # fmt: skip


@dataclass(frozen=True)
class Phrased:
    text: str
    verdict: str  # "true" | "false"
    source: str


def _date(rng: random.Random, d: dt.date) -> str:
    form = rng.randrange(5)
    if form == 0:
        return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"
    if form == 1:
        return f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    if form == 2:
        return d.isoformat()
    if form == 3:
        return f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}"
    return f"the {d.day}{_suffix(d.day)} of {MONTHS[d.month - 1]}, {d.year}"


def _suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _day(rng: random.Random, lo: dt.date, hi: dt.date) -> dt.date:
    return dt.date.fromordinal(rng.randint(lo.toordinal(), hi.toordinal()))


def _count(rng: random.Random, n: int) -> str:
    return NUMBER_WORDS[n] if n in NUMBER_WORDS and rng.random() < 0.5 else str(n)


# ------------------------------------------------------------ other calendars


def _hebrew(rng: random.Random, d: dt.date) -> str:
    import pyluach.dates as pd
    from pyluach import hebrewcal

    h = pd.GregorianDate(d.year, d.month, d.day).to_heb()
    month = h.month
    if month == 12 and hebrewcal.Year(h.year).leap:
        names = ["Adar I", "Adar Aleph", "Adar Rishon"]
    else:
        names = HEBREW[month]
    return f"{h.day} {rng.choice(names)} {h.year}"


def _islamic(rng: random.Random, d: dt.date) -> str:
    import hijridate

    h = hijridate.Gregorian(d.year, d.month, d.day).to_hijri()
    return f"{h.day} {rng.choice(ISLAMIC[h.month])} {h.year} AH"


def _persian(rng: random.Random, d: dt.date) -> str:
    import jdatetime

    j = jdatetime.date.fromgregorian(date=d)
    return f"{j.day} {rng.choice(PERSIAN[j.month])} {j.year}"


def _shaka(rng: random.Random, d: dt.date) -> str:
    from convertdate import indian_civil

    y, m, day = indian_civil.from_gregorian(d.year, d.month, d.day)
    return f"{day} {rng.choice(SHAKA[m])} {y} Saka"


CALENDARS = [
    ("pyluach", _hebrew, dt.date(1950, 1, 1), dt.date(2090, 12, 31), 1),
    ("hijridate (Umm al-Qura)", _islamic, dt.date(1940, 1, 1), dt.date(2076, 12, 31), 3),
    ("jdatetime", _persian, dt.date(1950, 1, 1), dt.date(2090, 12, 31), 1),
    ("convertdate.indian_civil", _shaka, dt.date(1958, 1, 1), dt.date(2090, 12, 31), 1),
]


def cross_calendar(rng: random.Random, n: int) -> list[Phrased]:
    out = []
    for i in range(n):
        source, convert, lo, hi, min_shift = CALENDARS[i % len(CALENDARS)]
        d = _day(rng, lo, hi)
        true_ = rng.random() < 0.5
        said = (
            d if true_ else d + dt.timedelta(days=rng.choice([-1, 1]) * rng.randint(min_shift, 30))
        )
        other = convert(rng, d)
        text = rng.choice([
            f"{other} is {_date(rng, said)}.",
            f"{other} corresponds to {_date(rng, said)}.",
            f"{_date(rng, said)} corresponds to {other}.",
            f"{_date(rng, said)} is {other}.",
        ])  # fmt: skip
        out.append(Phrased(text, "true" if true_ else "false", source))
    return out


# ------------------------------------------------------------ festivals and offsets


def festival_offsets(rng: random.Random, n: int) -> list[Phrased]:
    out = []
    for _ in range(n):
        fest, (m, d) = rng.choice(list(FIXED_FESTIVALS.items()))
        year = rng.randint(1950, 2090)
        base = dt.date(year, m, d)
        k = rng.choice([1, 2, 3, 4, 5, 10, 12, 15, 20, 30, 40])
        unit = rng.choice(["day", "week"])
        delta = k * (7 if unit == "week" else 1)
        sign = rng.choice([1, -1])
        right = base + dt.timedelta(days=sign * delta)
        true_ = rng.random() < 0.5
        said = right if true_ else right + dt.timedelta(days=rng.choice([-1, 1, 2, -7, 7]))
        units = unit if k == 1 else unit + "s"
        word = "after" if sign > 0 else "before"
        count = _count(rng, k)
        the = rng.choice(["", "the "]) if "Day" in fest or fest == "Halloween" else ""
        form = rng.randrange(3)
        if form == 0:
            text = f"{count.capitalize()} {units} {word} {the}{fest} {year} is {_date(rng, said)}."
        elif form == 1:
            text = f"{_date(rng, said)} is {count} {units} {word} {the}{fest} {year}."
        else:
            text = f"{count.capitalize()} {units} {word} {fest} {year} falls on {_date(rng, said)}."
        out.append(Phrased(text, "true" if true_ else "false", "datetime"))
    return out


def festival_weekdays(rng: random.Random, n: int) -> list[Phrased]:
    out = []
    for _ in range(n):
        fest, (m, d) = rng.choice(list(FIXED_FESTIVALS.items()))
        year = rng.randint(1950, 2090)
        actual = dt.date(year, m, d).weekday()
        true_ = rng.random() < 0.5
        said = actual if true_ else (actual + rng.randint(1, 6)) % 7
        verb = rng.choice(["falls on a", "fell on a", "is a", "was on a", "will fall on a"])
        out.append(Phrased(f"{fest} {year} {verb} {WEEKDAYS[said]}.",
                           "true" if true_ else "false", "datetime"))  # fmt: skip
    return out


def date_weekdays(rng: random.Random, n: int) -> list[Phrased]:
    """Weekday claims in the forms models use, some on dates that do not
    exist (February 29 of a common year: false, whatever the weekday)."""
    out = []
    for i in range(n):
        if i % 5 == 0:
            year = rng.choice([y for y in range(1901, 2100) if y % 4 != 0])
            text = rng.choice([
                f"Feb 29, {year}, which was a {rng.choice(WEEKDAYS)}.",
                f"February 29, {year} was a {rng.choice(WEEKDAYS)}.",
                f"{rng.choice(WEEKDAYS)}, February 29, {year}.",
            ])  # fmt: skip
            out.append(Phrased(text, "false", "datetime (no such date)"))
            continue
        d = _day(rng, dt.date(1700, 1, 1), dt.date(2300, 12, 31))
        true_ = rng.random() < 0.5
        wd = WEEKDAYS[d.weekday() if true_ else (d.weekday() + rng.randint(1, 6)) % 7]
        text = rng.choice([
            f"{_date(rng, d)}, which was a {wd}.",
            f"{_date(rng, d)} was a {wd}.",
            f"{_date(rng, d)} falls on a {wd}.",
            f"{wd}, {MONTHS[d.month - 1]} {d.day}, {d.year}.",
            f"The weekday of {_date(rng, d)} is {wd}.",
        ])  # fmt: skip
        out.append(Phrased(text, "true" if true_ else "false", "datetime"))
    return out


def offset_weekdays(rng: random.Random, n: int) -> list[Phrased]:
    out = []
    for _ in range(n):
        d = _day(rng, dt.date(1800, 1, 1), dt.date(2200, 12, 31))
        k = rng.randint(1, 60)
        sign = rng.choice([1, -1])
        right = d + dt.timedelta(days=sign * k)
        true_ = rng.random() < 0.5
        wd = WEEKDAYS[right.weekday() if true_ else (right.weekday() + rng.randint(1, 6)) % 7]
        word = "after" if sign > 0 else "before"
        units = "day" if k == 1 else "days"
        text = f"{_count(rng, k).capitalize()} {units} {word} {_date(rng, d)} is a {wd}."
        out.append(Phrased(text, "true" if true_ else "false", "datetime"))
    return out


def phrased(seed: int = 20) -> list[Phrased]:
    """200 claims: 80 cross-calendar (every spelling family), 40 offsets from
    festivals, 25 festival weekdays, 35 date weekdays, 20 offset weekdays."""
    rng = random.Random(seed)
    return (
        cross_calendar(rng, 80) + festival_offsets(rng, 40) + festival_weekdays(rng, 25)
        + date_weekdays(rng, 35) + offset_weekdays(rng, 20)
    )  # fmt: skip


def unreadable() -> list[str]:
    """Claims tsolve reads only part of: they must be reported, never judged."""
    return [
        "Three months after Christmas 2024 is March 25, 2025.",
        "Three months after Christmas 2024 is March 26, 2025.",
        "The eve of Passover 2024 is April 22, 2024.",
        "The week after Christmas 2024 is January 1, 2025.",
        "March 6, 2023 is a Monday in the Julian calendar.",
        "March 6, 2023 is a Tuesday in the Julian calendar.",
        "Two business days after March 6, 2023 is March 8, 2023.",
        "A fortnight after Christmas 2024 is January 8, 2025.",
        "The second day of Passover 2024 is April 24, 2024.",
        "Nine months before Christmas 2024 is March 25, 2024.",
        "Julian date: March 6, 2023 was a Sunday (Old Style).",
    ]
