"""Facts about the world: the date domain, calendar tables, festivals and the
knowledge base of dated events.

``convert``, ``festival`` and ``table`` are re-exported lazily (PEP 562) so that
importing :mod:`tsolve.calendars.domain` does not load the calendar libraries.
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "CALENDARS": "tsolve.calendars.tables",
    "CalendarTable": "tsolve.calendars.tables",
    "table": "tsolve.calendars.tables",
    "convert": "tsolve.calendars.conversion",
    "CalendarDates": "tsolve.calendars.conversion",
    "to_days": "tsolve.calendars.conversion",
    "festival": "tsolve.calendars.festivals",
    "get_festival": "tsolve.calendars.festivals",
    "FESTIVALS": "tsolve.calendars.festivals",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tsolve.calendars' has no attribute {name!r}")
