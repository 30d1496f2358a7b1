"""Calendar conversion and SPAN generation throughput.

Run:  /work/venv/bin/python benchmarks/bench_calendars.py [--n 1000000] [--span 3000]

Prints, all measured in this one run:
* each calendar's table build: its month index (from the reference library, or
  for the Persian calendar from the packaged Nowruz dates), then the per-day
  fill;
* vectorised conversion of N random Gregorian days to every calendar (dates/s);
* the same conversion done per date with the reference library (convertdate for
  Hebrew/Islamic/Persian/Shaka, lunarcalendar for Chinese, hijridate for Umm
  al-Qura), and the ratio;
* SPAN questions generated per second.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
import warnings

import numpy as np

from tsolve.bench.calendars import per_date_converters


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000, help="dates to convert")
    ap.add_argument("--span", type=int, default=3000, help="SPAN questions to generate")
    args = ap.parse_args()
    warnings.simplefilter("ignore", DeprecationWarning)

    from tsolve.calendars.tables import CALENDARS, _fill, spec, table

    print("table builds (month index, then the per-day fill; in memory):")
    total = 0.0
    for cal in CALENDARS:
        s = spec(cal)
        t0 = time.perf_counter()
        idx = s.build(s.first_day, s.last_day)
        t1 = time.perf_counter()
        _fill(cal, s.first_day, s.last_day, idx)
        t2 = time.perf_counter()
        total += t2 - t0
        print(f"  {cal:17s} month index {1e3 * (t1 - t0):7.1f} ms   fill {1e3 * (t2 - t1):6.2f} ms")
    print(f"  all {len(CALENDARS)} calendars {total:.3f} s")
    for cal in CALENDARS:
        table(cal)

    from tsolve.calendars import convert

    # Days inside every table (Umm al-Qura is the narrowest).
    lo, hi = table("islamic-umalqura").first_day, table("islamic-umalqura").last_day
    rng = np.random.default_rng(0)
    days = rng.integers(lo, hi + 1, args.n)
    d64 = (days - dt.date(1970, 1, 1).toordinal()).astype("datetime64[D]")
    convert(days[:1000], None)  # warm up
    t0 = time.perf_counter()
    convert(d64, None)
    t_all = time.perf_counter() - t0
    print(f"\nvectorised: {args.n:,} datetime64 dates -> all {len(CALENDARS)} calendars "
          f"in {t_all:.3f} s = {args.n / t_all:,.0f} dates/s "
          f"({args.n * len(CALENDARS) / t_all:,.0f} conversions/s)")  # fmt: skip

    print("\nper calendar: vectorised vs the reference library called per date")
    for cal, (lib, fn) in per_date_converters().items():
        t0 = time.perf_counter()
        convert(days, cal)
        vec = args.n / (time.perf_counter() - t0)
        k = 30 if cal == "persian" else 3000
        sample = days[:k].tolist()
        t0 = time.perf_counter()
        for d in sample:
            fn(d)
        per = k / (time.perf_counter() - t0)
        print(f"  {cal:17s} vectorised {vec:14,.0f}/s   {lib:13s} {per:10,.0f}/s   "
              f"ratio {vec / per:12,.0f}x")  # fmt: skip

    from tsolve.families.span.generate import SpanConfig, generate_questions

    cfg = SpanConfig(date="2024-07-01")
    list(generate_questions(50, 0, cfg))  # warm up
    t0 = time.perf_counter()
    n = sum(1 for _ in generate_questions(args.span, 1, cfg))
    dt_span = time.perf_counter() - t0
    print(f"\nSPAN: {n:,} questions in {dt_span:.3f} s = {n / dt_span:,.0f} questions/s")


if __name__ == "__main__":
    main()
