"""How often the event in progress at the asked minute gives a logistics
answer away: on UnSeenTimeQA split 1, on records made with
``asked_minute=unseentimeqa`` (split 1's mix) and on default records.

    python benchmarks/experiments/logistics_current_event.py [--split1 PATH] [-n 300] [--seed 0]

The policy (:func:`tsolve.families.logistics.tracking_probes.situation`) does the
timing (stated times, the fixed clock, the what-if) and finds the last-listed
event in progress at the asked minute, or the one that ended last; it
answers with that event's vehicle while the event is a move, its location
and vehicle while it is a load or unload (after an event: the move's
destination and vehicle, the load's location and vehicle, the unload's
location), the package never tracked (``DEFAULT_FORMS``: the same answer
for every package). ``tsolve stress logistics --shortcuts`` runs the same
policy with the forms fitted on another seed. Printed per cell (difficulty,
execution, question type): the share of items it answers exactly right, and
the best constant answer's share (chance), each over n items. Split 1 has no
easy or medium parallel items; PATH defaults to
``../shared/samples/unseentimeqa_split1.jsonl.gz``.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.families.logistics.tracking_probes import DEFAULT_FORMS, situation

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "samples"
DEFAULT_SPLIT1 = SAMPLES / "unseentimeqa_split1.jsonl.gz"
Cell = tuple[str, str, str]


def read_items(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def cell_of(item: dict[str, Any]) -> Cell:
    q = str(item.get("question_type", "")).removesuffix("_time")
    return (str(item.get("data_split")), str(item.get("execution")), q)


def current_event_right(item: dict[str, Any]) -> bool:
    """Does the current-event policy (default forms) answer ``item`` exactly?"""
    s = situation(item)
    if s is None:
        return False
    return frozenset(s.names(DEFAULT_FORMS[s.key])) == frozenset(item["answers"])


def shares(items: Iterable[dict[str, Any]]) -> dict[Cell, tuple[float, float, int]]:
    """Per cell: (the policy's share right, the best constant's share, n)."""
    right: collections.Counter[Cell] = collections.Counter()
    golds: dict[Cell, collections.Counter[frozenset[str]]] = collections.defaultdict(
        collections.Counter
    )
    for item in items:
        cell = cell_of(item)
        right[cell] += current_event_right(item)
        golds[cell][frozenset(item["answers"])] += 1
    out = {}
    for cell, c in golds.items():
        n = sum(c.values())
        out[cell] = (right[cell] / n, c.most_common(1)[0][1] / n, n)
    return out


def generated(n: int, seed: int, asked_minute: str) -> list[dict[str, Any]]:
    fam = get_family("logistics", need="generate")
    out: list[dict[str, Any]] = []
    for d in ("easy", "medium", "hard"):
        for e in ("serial", "parallel"):
            for q in ("static", "relative", "hypothetical"):
                config = fam.make_options(
                    {"difficulty": d, "execution": e, "question": q, "asked_minute": asked_minute}
                )
                out.extend(fam.make_record(seed, i, config) for i in range(n))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split1", default=str(DEFAULT_SPLIT1))
    ap.add_argument("-n", type=int, default=300, help="generated records per cell")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    columns = {
        "split 1": shares(read_items(Path(args.split1))),
        "unseentimeqa": shares(generated(args.n, args.seed, "unseentimeqa")),
        "default": shares(generated(args.n, args.seed, "tracked")),
    }
    cells = sorted({c for col in columns.values() for c in col},
                   key=lambda c: (("easy", "medium", "hard").index(c[0]),
                                  ("serial", "parallel").index(c[1]),
                                  ("static", "relative", "hypothetical").index(c[2])))  # fmt: skip
    print("| cell | " + " | ".join(f"{k} (chance)" for k in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for cell in cells:
        row = []
        for col in columns.values():
            if cell in col:
                s, ch, n = col[cell]
                row.append(f"{s:.3f} ({ch:.3f}, n = {n})")
            else:
                row.append("-")
        print(f"| {'/'.join(cell)} | " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
