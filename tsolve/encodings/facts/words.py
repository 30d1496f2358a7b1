"""English words shared by the fact sentences."""

from __future__ import annotations

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NTH_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last"}


def ordinal(n: int) -> str:
    """1 -> '1st', 22 -> '22nd', 13 -> '13th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def join_or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


_WEEKDAY_INDEX = {w: i for i, w in enumerate(WEEKDAYS)}


def weekday_index(name: str, field: str = "weekday") -> int:
    i = _WEEKDAY_INDEX.get(name)  # the spelling records use; anything else is normalised
    if i is not None:
        return i
    from tsolve.errors import TsolveError

    try:
        return WEEKDAYS.index(str(name).strip().capitalize())
    except ValueError:
        raise TsolveError(f"{field}: unknown weekday {name!r}") from None
