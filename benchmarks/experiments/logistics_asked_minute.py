"""Where logistics questions ask, on UnSeenTimeQA split 1 and on generated
data, and what policies that skip the timing score on them.

    python benchmarks/experiments/logistics_asked_minute.py table [--split1 PATH] [-n 300]
        [--seed 1]
    python benchmarks/experiments/logistics_asked_minute.py probes FILE.jsonl [FILE.jsonl ...]

``table`` classifies every split-1 item's asked minute (PATH defaults to
``../shared/samples/unseentimeqa_split1.jsonl.gz``) and ``n`` generated
records of each of the twelve split-1 strata (difficulty, execution,
question type), both read from their text alone by
:func:`tsolve.families.logistics.generate.asked_minute.asked_minute`:
*before* the package's first event, *during* one of its events (its load or
unload, or a move of the vehicle it is in), *between* two (waiting in a
parked vehicle or at a location), or *after* its last. The percentages
go side by side, with the split of *during* into loading / unloading / moving
and of *between* into parked / at. These are the tables of docs/logistics.md
and benchmarks/results/2026-11-28-logistics-asked-minute-probes.md.

``probes`` scores, on each file of records (generated, or the benchmark's
own items), policies that read the prompt and skip the reasoning, against
chance (the best constant answer per stratum, on the same records):

* ``final place``: the package's place after its last listed event, every
  time ignored;
* ``first place``: its initial location;
* ``commonest place``: the location the text names most often;
* ``place in question``: the first location the question names;
* ``first vehicle``, ``first load``: the vehicle of the package's first
  load, alone and with that load's location (the shapes every answer
  during or after that load has).

Each score is an exact set match against ``answers``, with its standard
error.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.parse.item import parse_item

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "samples"
DEFAULT_SPLIT1 = SAMPLES / "unseentimeqa_split1.jsonl.gz"
POSITIONS = ("before", "during", "between", "after")
DETAIL = ("loading", "unloading", "moving", "parked", "at")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every record of a JSON Lines file, gzipped or not."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        return [json.loads(line) for line in fh if line.strip()]


# ---------------------------------------------------------------- the table


def kind_counts(items: Iterable[dict[str, Any]]) -> dict[tuple[str, ...], collections.Counter[str]]:
    """Per stratum, how many items ask a minute of each kind (and position)."""
    from tsolve.families.logistics.generate.asked_minute import asked_minute

    out: dict[tuple[str, ...], collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    for item in items:
        am = asked_minute(item)
        out[am.stratum][am.kind] += 1
        out[am.stratum][am.position] += 1
        out[am.stratum]["n"] += 1
    return out


def generated(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` records of each split-1 stratum, made by the current generator."""
    from tsolve.families.logistics.generate import GenerateParams, generate_records
    from tsolve.families.logistics.generate.asked_minute import SPLIT1_KINDS

    out: list[dict[str, Any]] = []
    for difficulty, execution, qtype in SPLIT1_KINDS:
        params = GenerateParams(difficulty, execution, qtype.removesuffix("_time"))  # type: ignore[arg-type]
        out.extend(generate_records(n, seed, params))
    return out


def _pct(c: collections.Counter[str], key: str) -> str:
    return f"{100 * c[key] / c['n']:5.1f}" if c["n"] else "    -"


def print_table(
    split1: dict[tuple[str, ...], collections.Counter[str]],
    gen: dict[tuple[str, ...], collections.Counter[str]],
) -> float:
    """The side-by-side table in markdown; returns the largest gap in points."""
    cols = POSITIONS + DETAIL
    head = " | ".join(f"{c} (s1 / gen)" for c in cols)
    print(f"| stratum | n (s1 / gen) | {head} |")
    print("|---" * (len(cols) + 2) + "|")
    worst = 0.0
    for key in sorted(set(split1) | set(gen)):
        a, b = split1.get(key, collections.Counter()), gen.get(key, collections.Counter())
        cells = []
        for c in cols:
            cells.append(f"{_pct(a, c).strip()} / {_pct(b, c).strip()}")
            if a["n"] and b["n"]:
                worst = max(worst, abs(100 * a[c] / a["n"] - 100 * b[c] / b["n"]))
        print(f"| {' '.join(key)} | {a['n']} / {b['n']} | {' | '.join(cells)} |")
    print(f"largest gap: {worst:.1f} points")
    return worst


# --------------------------------------------------------------- the probes

Probe = Callable[[dict[str, Any], Scenario, Question], frozenset[str]]
_NAME = re.compile(r"[A-Za-z]\w*")


def _own(scenario: Scenario, question: Question) -> list[Any]:
    return [e for e in scenario.events if e.package == question.package]


def final_place(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    place = frozenset({sc.initial[q.package]})
    for e in _own(sc, q):
        place = frozenset({e.vehicle}) if e.kind == "load" else frozenset({e.location or ""})
    return place


def first_place(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    return frozenset({sc.initial[q.package]})


def _text(item: dict[str, Any]) -> str:
    parts = []
    for key in ("initial_states_description", "events", "question"):
        v = item.get(key, "")
        parts.append(" ".join(v) if isinstance(v, list) else str(v))
    return " ".join(parts)


def commonest_place(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    locations = set(sc.world.locations)
    named = [w for w in _NAME.findall(_text(item)) if w in locations]
    if not named:
        return frozenset()
    return frozenset({collections.Counter(named).most_common(1)[0][0]})  # first seen wins ties


def place_in_question(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    text = item["question"]
    text = " ".join(text) if isinstance(text, list) else str(text)
    locations = set(sc.world.locations)
    named = [w for w in _NAME.findall(text) if w in locations]
    return frozenset(named[:1])


def first_vehicle(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    loads = [e for e in _own(sc, q) if e.kind == "load"]
    return frozenset({loads[0].vehicle}) if loads else frozenset()


def first_load(item: dict[str, Any], sc: Scenario, q: Question) -> frozenset[str]:
    loads = [e for e in _own(sc, q) if e.kind == "load"]
    return frozenset({loads[0].vehicle, loads[0].location or ""}) if loads else frozenset()


PROBES: dict[str, Probe] = {
    "final place": final_place,
    "first place": first_place,
    "commonest place": commonest_place,
    "place in question": place_in_question,
    "first vehicle": first_vehicle,
    "first load": first_load,
}


def stratum(item: dict[str, Any]) -> tuple[str, str, str]:
    """What a policy sees of an item's kind: its difficulty, execution and question type."""
    return (str(item.get("data_split")), str(item.get("execution")), str(item.get("question_type")))


def chance(items: list[dict[str, Any]]) -> float:
    """The best constant answer per stratum, scored on the same items."""
    by: dict[tuple[str, ...], collections.Counter[frozenset[str]]] = collections.defaultdict(
        collections.Counter
    )
    for item in items:
        by[stratum(item)][frozenset(item["answers"])] += 1
    return sum(c.most_common(1)[0][1] for c in by.values()) / len(items)


def probe_scores(items: list[dict[str, Any]]) -> dict[str, float]:
    """Every probe's exact-match accuracy on ``items``."""
    right: collections.Counter[str] = collections.Counter()
    for item in items:
        sc, q = parse_item(item)
        gold = frozenset(item["answers"])
        for name, probe in PROBES.items():
            right[name] += probe(item, sc, q) == gold
    return {name: right[name] / len(items) for name in PROBES}


def print_probes(path: Path) -> dict[str, Any]:
    items = read_jsonl(path)
    n = len(items)
    base = chance(items)
    scores = probe_scores(items)
    print(f"{path.name}: n = {n}, chance (best constant per stratum) = {base:.3f}")
    for name, s in scores.items():
        se = math.sqrt(s * (1 - s) / n)
        print(f"  {name:18s} {s:.3f} ± {se:.3f}   over chance {s - base:+.3f}")
    return {"file": str(path), "n": n, "chance": base, "scores": scores}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table", help="split 1 and generated data side by side")
    t.add_argument("--split1", default=str(DEFAULT_SPLIT1))
    t.add_argument("-n", type=int, default=300, help="generated records per stratum")
    t.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("probes", help="shortcut policies against chance")
    p.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "table":
        print_table(
            kind_counts(read_jsonl(Path(args.split1))), kind_counts(generated(args.n, args.seed))
        )
        return 0
    for f in args.files:
        print_probes(Path(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
