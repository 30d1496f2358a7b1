"""Bench cases of the calendars group: vectorised conversion against the
calendar libraries called once per date (the peer, timed in alternation)."""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Callable

import numpy as np

from tsolve.bench.measure import (
    Measurement,
    Size,
    count_converted,
    paired_measure,
    rate_measure,
    round_figure,
)

# ---------------------------------------------------------------- calendars


def per_date_converters() -> dict[str, tuple[str, Callable[[int], object]]]:
    """The reference libraries, called once per date (the peers)."""
    from convertdate import hebrew, indian_civil, islamic, persian
    from hijridate import Gregorian
    from lunarcalendar.converter import Converter, Solar

    from tsolve.calendars._base import JD_OFFSET as jd0  # ordinal -> convertdate Julian day

    def chinese(d: int) -> object:
        g = _dt.date.fromordinal(d)
        return Converter.Solar2Lunar(Solar(g.year, g.month, g.day))

    return {
        "chinese": ("lunarcalendar", chinese),
        "hebrew": ("convertdate", lambda d: hebrew.from_jd(d + jd0)),
        "islamic": ("convertdate", lambda d: islamic.from_jd(d + jd0)),
        "islamic-umalqura": ("hijridate", lambda d: Gregorian.fromordinal(d).to_hijri()),
        "persian": ("convertdate", lambda d: persian.from_jd(d + jd0)),
        "shaka": ("convertdate", lambda d: indian_civil.from_jd(d + jd0)),
    }


def bench_calendars(size: Size) -> list[Measurement]:
    import warnings

    from tsolve.calendars.conversion import convert
    from tsolve.calendars.tables import CALENDARS, table

    group = "calendars"
    out: list[Measurement] = []
    loads = {}
    for cal in CALENDARS:
        t0 = time.perf_counter()
        table(cal)
        loads[cal] = round_figure(time.perf_counter() - t0)
    lo = max(table(c).first_day for c in CALENDARS)
    hi = min(table(c).last_day for c in CALENDARS)
    n = size(200_000, 1_000_000)
    days = np.random.default_rng(0).integers(lo, hi + 1, n)
    convert(days[:1000], None)
    reps = size.reps(3, 5)
    m = rate_measure(
        "calendars.convert.all",
        group,
        "convert",
        "dates/s",
        n,
        reps,
        count_converted(convert, days, None),
        {"calendars": list(CALENDARS)},
        f"each date to every calendar ({len(CALENDARS)} conversions per date)",
    )
    m.stats["table_load_s"] = loads
    m.stats["conversions_per_s"] = round_figure((m.value or 0) * len(CALENDARS))
    out.append(m)
    peer_n = size(200, 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cal, (lib, fn) in per_date_converters().items():
            k = max(5, peer_n // 40) if cal == "persian" else peer_n
            out.append(
                paired_measure(
                    f"calendars.convert.{cal}",
                    group,
                    "convert",
                    "dates/s",
                    n,
                    count_converted(convert, days, cal),
                    (f"{lib} per date", k, count_per_date(fn, days[:k].tolist())),
                    size.reps(4, 5),  # short rounds: more of them for a steadier median
                    {"calendar": cal},
                    warmup=True,
                    min_seconds=size.round_seconds,
                )
            )
    return out


def count_per_date(fn: Callable[[int], object], sample: list[int]) -> Callable[[int], int]:
    """A peer round: ``fn`` called once per date of ``sample``."""

    def run(rep: int) -> int:
        for d in sample:
            fn(int(d))
        return len(sample)

    return run
