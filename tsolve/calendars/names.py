"""Month names: the canonical English name of every month, and the reverse
lookup from the many transliterations people (and models) write.

Canonical names come from each calendar module (``Tishrei``, ``Muharram``,
``Farvardin``, ``Chaitra``; Chinese months are numbered, ``Month 8`` and
``Leap Month 4``). The reverse lookup is used by the CLI (``--from hebrew
5784-Adar II-14``) and by the SPAN grader, so it is deliberately generous:
case, diacritics, apostrophes, hyphens and spaces are ignored, and common
variant spellings are accepted.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from tsolve.errors import TsolveError
from tsolve.records.validation import shown

# Extra spellings per calendar: alias -> month number (Hebrew 12/13 = Adar I/II).
_ALIASES: dict[str, dict[str, int]] = {
    "gregorian": {
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
        "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
    },
    "hebrew": {
        "iyyar": 2, "tamuz": 4, "ab": 5, "tishri": 7, "tishre": 7,
        "heshvan": 8, "cheshvan": 8, "marcheshvan": 8, "marheshvan": 8, "chesvan": 8,
        "kislew": 9, "chislev": 9, "teveth": 10, "tevet": 10, "tebeth": 10,
        "shvat": 11, "shevat": 11, "sebat": 11, "shebat": 11,
        "adari": 12, "adar1": 12, "adarrishon": 12, "adaraleph": 12,
        "adarii": 13, "adar2": 13, "adarsheni": 13, "adarbet": 13, "veadar": 13,
        "adarbeth": 13,
    },
    "islamic": {
        "rabialawal": 3, "rabiali": 3, "rabii": 3, "rabi1": 3, "rabialula": 3,
        "rabiulawwal": 3, "rabiulawal": 3, "rabialawwal": 3,
        "rabialakhir": 4, "rabiii": 4, "rabi2": 4, "rabialthani": 4, "rabiulakhir": 4,
        "rabiussani": 4, "rabialthaani": 4, "rabiuthani": 4, "rabiulthani": 4,
        "jumadaalula": 5, "jumadai": 5, "jumada1": 5, "jumadalawwal": 5,
        "jumadaalawal": 5, "jumadalula": 5, "jumadiulawwal": 5, "jumadaalawwal": 5,
        "jumadaalakhirah": 6, "jumadaii": 6, "jumada2": 6, "jumadalthani": 6,
        "jumadaalakhira": 6, "jumadalakhirah": 6, "jumadiussani": 6, "jumadaalthani": 6,
        "shaaban": 8, "shaban": 8, "ramadhan": 9, "ramazan": 9,
        "shawal": 10, "dhulqadah": 11, "dhualqidah": 11, "dhulqidah": 11,
        "dhualqadah": 11, "zulqadah": 11, "dhualqada": 11,
        "dhulhijjah": 12, "dhualhijja": 12, "dhulhijja": 12, "zulhijjah": 12,
        "dhualhijjah": 12,
    },
    "persian": {
        "ordibehesht": 2, "urdibihisht": 2, "khurdad": 3, "amordad": 5, "murdad": 5,
        "shahrivar": 6, "shahriwar": 6, "aban": 8, "azar": 9, "adhar": 9,
        "dey": 10, "dei": 10, "esfand": 12, "isfand": 12, "esfandarmad": 12,
    },
    "shaka": {
        "caitra": 1, "chaitra": 1, "vaisakha": 2, "vaishakh": 2, "baisakh": 2,
        "jyaistha": 3, "jyeshtha": 3, "jyeshta": 3, "asadha": 4, "ashadh": 4, "ashadha": 4,
        "sravana": 5, "shravan": 5, "shravana": 5, "bhadra": 6, "bhadrapad": 6,
        "asvina": 7, "ashvin": 7, "ashwin": 7, "asvin": 7, "kartik": 8, "kartika": 8,
        "agrahayana": 9, "margashirsha": 9, "aghan": 9, "pausa": 10, "pausha": 10,
        "paush": 10, "magh": 11, "magha": 11, "phalgun": 12, "phalguna": 12,
    },
}  # fmt: skip
_ALIASES["islamic-umalqura"] = _ALIASES["islamic"]

_CN_NUM = {
    "正": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
    "八": 8, "九": 9, "十": 10, "冬": 11, "十一": 11, "腊": 12, "臘": 12, "十二": 12,
}  # fmt: skip


def normalise(name: str) -> str:
    """Fold case, strip diacritics, and drop everything but letters and digits."""
    text = unicodedata.normalize("NFKD", str(name))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^0-9a-z]", "", text.lower())


@cache
def month_numbers(calendar: str) -> dict[str, int]:
    """Every spelling of ``calendar``'s month names this module accepts, as
    :func:`normalise` folds it, mapped to its month number (Hebrew 12/13 =
    Adar I/II).

    The one table behind :func:`parse_month` and the SPAN grader's month
    search. Chinese months are numbered, so the table is empty for them. Cached
    per calendar and shared: callers must not change it."""
    from tsolve.calendars.tables import spec

    s = spec(calendar)
    table: dict[str, int] = {}
    if calendar != "chinese":
        for m in range(1, 14):
            try:
                table[normalise(s.month_name(2001 if m < 13 else 5784, m, False))] = m
            except IndexError:
                break
    if calendar == "hebrew":
        table[normalise("Adar I")] = 12
        table[normalise("Adar")] = 12
        table[normalise("Adar II")] = 13
    # convertdate's own spellings (with diacritics) are accepted too.
    try:
        import importlib

        mod_name = {"islamic-umalqura": "islamic", "shaka": "indian_civil"}.get(calendar, calendar)
        if calendar not in ("gregorian", "chinese"):
            mod = importlib.import_module(f"convertdate.{mod_name}")
            for i, n in enumerate(mod.MONTHS, start=1):
                table.setdefault(normalise(n), i)
    except ImportError:  # pragma: no cover - convertdate is a dependency
        pass
    table.update(_ALIASES.get(calendar, {}))
    return table


_CHINESE = re.compile(
    r"^\s*(?P<leap1>leap\s*|l|闰|閏)?\s*(?:month\s*)?(?P<num>\d{1,2})(?P<leap2>l)?"
    r"(?:\s*(?:st|nd|rd|th))?(?:\s*(?:lunar\s*)?month)?\s*$",
    re.IGNORECASE,
)


def parse_month(calendar: str, text: str, field: str = "month") -> tuple[int, bool]:
    """Month name or number in ``calendar`` -> ``(month, leap)``.

    Numbers are accepted everywhere; Chinese leap months as ``L4``, ``4L``,
    ``Leap Month 4`` or ``闰四月``.
    """
    raw = str(text).strip()
    if calendar == "chinese":
        m = _CHINESE.match(raw)
        if m:
            return int(m["num"]), bool(m["leap1"] or m["leap2"])
        cn = re.match(r"^(闰|閏)?(.+?)月$", raw)
        if cn and cn[2] in _CN_NUM:
            return _CN_NUM[cn[2]], bool(cn[1])
        raise TsolveError(f"{field}: {shown(text)} is not a Chinese lunar month (e.g. 8 or L4)")
    if re.fullmatch(r"\d{1,2}", raw):
        return int(raw), False
    key = normalise(raw)
    month = month_numbers(calendar).get(key)
    if month is None:
        raise TsolveError(f"{field}: {shown(text)} is not a month name of the {calendar} calendar")
    return month, False


# Calendar names beyond tsolve's own keys (``gregorian``, ``islamic-umalqura``,
# ...): the SPAN paper's ("Chinese lunar calendar", "Islamic calendar"), the
# ones tsolve's SPAN questions print ("tabular (arithmetical) Islamic", "Umm
# al-Qura Islamic"), and the common synonyms agents write. A trailing
# "calendar" is ignored.
_CALENDAR_SPELLINGS: dict[str, tuple[str, ...]] = {
    "gregorian": ("gregorian",),
    "chinese": ("chinese", "chinese lunar", "chinese lunisolar"),
    "hebrew": ("hebrew", "jewish"),
    "islamic": ("islamic", "hijri", "tabular islamic", "tabular (arithmetical) islamic",
                "arithmetical islamic"),
    "islamic-umalqura": ("islamic-umalqura", "islamic umm al-qura", "umm al-qura islamic",
                         "umm al-qura"),
    "persian": ("persian", "solar hijri", "jalali", "iranian"),
    "shaka": ("shaka", "saka", "indian national"),
}  # fmt: skip
_CALENDAR_BY_SPELLING = {
    normalise(spelling): key
    for key, spellings in _CALENDAR_SPELLINGS.items()
    for spelling in spellings
}


def calendar_key(name: str, field: str = "calendar") -> str:
    """tsolve's key for a calendar named as tsolve, SPAN or a person would name
    it (``"Chinese lunar calendar"`` -> ``chinese``), or a one-line error.

    Generous on purpose, like the month names: agents calling SPAN's
    ``search_calendar`` write the paper's names, not tsolve's keys."""
    key = normalise(name)
    key = key.removesuffix("calendar") or key
    found = _CALENDAR_BY_SPELLING.get(key)
    if found is None:
        known = ", ".join(_CALENDAR_SPELLINGS)
        raise TsolveError(
            f"{field}: unknown calendar {shown(str(name))} (known: {known}; "
            "longer names such as 'Chinese lunar calendar' also work)"
        )
    return found
