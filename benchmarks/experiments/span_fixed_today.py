"""The "fixed today" policy on SPAN records, against the best constant answer.

    tsolve dataset make span -n 300 --seed 0 -o span.jsonl -q
    python benchmarks/experiments/span_fixed_today.py span.jsonl          # a table
    python benchmarks/experiments/span_fixed_today.py span.jsonl --json   # one JSON object
    python benchmarks/experiments/span_fixed_today.py span.jsonl --today-from other.jsonl

The policy reads only the question text and never converts the date the
question states. It assumes "today" is one fixed Gregorian date (2024-07-01,
or the commonest reference date of another file with ``--today-from``), moves
by the offset or finds the festival's year from that date, and answers where
the target calendar is Gregorian; elsewhere it answers "No" (polar) or
gives up (content). A generator whose records all share one reference date
lets it score far above chance; records whose reference dates are spread over
decades hold it at chance.

Chance is the best constant answer per visible stratum, on the same records
(:func:`tsolve.stress.adversarial.chance_baseline`), for two strata: the
question format (as the adversarial suite counts it) and direction x type x
format.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tsolve.calendars.festivals import festivals_of
from tsolve.families.span.encoding import DISPLAY, festival_days, fields_of, render
from tsolve.stress.adversarial import chance_baseline, make_item, shared_score

CALENDAR_OF = {name: cal for cal, name in DISPLAY.items()}
HEAD = re.compile(r"Today\u2019s date on the (?P<src>.+?) calendar is \u201c[^\u201d]+\u201d\. ")
DATE_Q = re.compile(
    r"the (?P<tgt>.+?) calendar date (?P<n>\d+) (?P<unit>days?|weeks?) (?P<sign>ago|later)"
)
FEST_Q = re.compile(
    r"the (?P<tgt>.+?) calendar date of the festival \u201c(?P<fest>[^\u201d]+)\u201d "
    r"in the .+? year (?P<n>\d+) years? (?P<side>before|after) the current one"
)
CANDIDATE = re.compile(r"equivalent to the date \u201c(?P<cand>[^\u201d]+)\u201d")


def fixed_today_answer(question: str, today: int) -> str | None:
    """The policy's answer body to one question (None: it gives up)."""
    head = HEAD.match(question)
    if head is None:
        return None
    src = CALENDAR_OF[head["src"]]
    rest = question[head.end() :]
    polar = CANDIDATE.search(rest)
    m = DATE_Q.search(rest)
    f = None if m else FEST_Q.search(rest)
    hit = m or f
    if hit is None:
        return None
    tgt = CALENDAR_OF[hit["tgt"]]
    if tgt != "gregorian":
        return "No" if polar else None
    if m is not None:
        step = 7 if m["unit"].startswith("week") else 1
        day: int | None = today + (-1 if m["sign"] == "ago" else 1) * int(m["n"]) * step
    else:
        assert f is not None
        fest = next(x for x in festivals_of(src) if x.name == f["fest"])
        year = fields_of(src, today)[0] + (-1 if f["side"] == "before" else 1) * int(f["n"])
        day = festival_days(fest, src, year)
    if day is None:
        return None
    text = render("gregorian", *fields_of("gregorian", day))
    if polar:
        return "Yes" if polar["cand"] == text else "No"
    return text


def measure(records: Sequence[dict[str, Any]], today: int) -> dict[str, Any]:
    """The policy's accuracy beside chance, overall and on Gregorian targets."""
    items = [make_item("span", r) for r in records]
    scores = []
    for it in items:
        body = fixed_today_answer(it.record["question"], today)
        out = "" if body is None else f"{it.marker} {body}"
        scores.append(shared_score(it.record, out)["accuracy"])
    fine = [dataclasses.replace(it, stratum=f"{r['direction']}/{r['type']}/{r['format']}")
            for it, r in zip(items, records, strict=True)]  # fmt: skip
    greg = [s for s, r in zip(scores, records, strict=True)
            if r["params"]["target_calendar"] == "gregorian"]  # fmt: skip
    years = {r["params"]["reference_date"]["gregorian"][:4] for r in records}
    return {
        "n": len(records),
        "today": dt.date.fromordinal(today).isoformat(),
        "score": sum(scores) / len(scores),
        "chance_by_format": chance_baseline(items)["accuracy"],
        "chance_by_direction_type_format": chance_baseline(fine)["accuracy"],
        "gregorian_target": {"n": len(greg), "score": sum(greg) / max(len(greg), 1)},
        "reference_years": len(years),
    }


def _read(path: str) -> list[dict[str, Any]]:
    fh = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    with fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", help="SPAN records, JSON Lines ('-' for stdin)")
    ap.add_argument("--today", default="2024-07-01", help="the assumed today (Gregorian)")
    ap.add_argument("--today-from", help="assume the commonest reference date of this file")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    today = dt.date.fromisoformat(args.today).toordinal()
    if args.today_from:
        refs = Counter(r["params"]["reference_date"]["gregorian"] for r in _read(args.today_from))
        today = dt.date.fromisoformat(refs.most_common(1)[0][0]).toordinal()
    out = measure(_read(args.file), today)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"records: {out['n']}  (reference dates in {out['reference_years']} years)")
    print(f"fixed today {out['today']}: accuracy {out['score']:.3f}")
    print(f"  chance (best constant per format): {out['chance_by_format']:.3f}")
    print(f"  chance (per direction x type x format): "
          f"{out['chance_by_direction_type_format']:.3f}")  # fmt: skip
    g = out["gregorian_target"]
    print(f"  on Gregorian-target questions ({g['n']}): {g['score']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
