"""Wording report for every fact sentence tsolve can render.

    python benchmarks/experiments/fact_wording.py            # catalogue + 600 generated puzzles
    python benchmarks/experiments/fact_wording.py --puzzles 3000

Checks (tsolve.families.time_puzzles.parse.wording.wording_problems) every rendering of
the closed catalogue, every year and decade, in both styles, and then every
fact sentence of generated puzzles (M = 0..6, both styles, minimal and not),
which also covers what only the generator makes. Prints the count per kind and
each problem with an example; exit 1 if any sentence fails."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.families.time_puzzles.parse.wording import every_rendering, wording_problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=600, help="generated puzzles per config")
    args = ap.parse_args()
    kinds: Counter[str] = Counter()
    problems: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}

    def check(kind: str, sentence: str) -> None:
        kinds[kind] += 1
        for p in wording_problems(sentence):
            problems[(kind, p)] += 1
            example.setdefault((kind, p), sentence)

    for fact, _style, sentence in every_rendering():
        check(fact.kind, sentence)
    catalogue = sum(kinds.values())
    for minimal in (True, False):
        cfg = PuzzleConfig(solutions=(0, 1, 2, 3, 4, 5, 6), style=("implicit", "explicit"),
                           minimal=minimal)  # fmt: skip
        for rec in generate_puzzles(args.puzzles, 26, cfg):
            for f in rec["facts"]:
                check(f["kind"], f["text"])
    print(f"{catalogue} catalogue renderings, {sum(kinds.values()) - catalogue} generated "
          f"fact sentences ({2 * args.puzzles} puzzles)")  # fmt: skip
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:20} {n:7}")
    for (kind, p), n in sorted(problems.items()):
        print(f"PROBLEM {kind}: {p} x{n}: {example[(kind, p)]}")
    print("no problems" if not problems else f"{sum(problems.values())} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
