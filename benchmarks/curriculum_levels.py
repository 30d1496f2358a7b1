"""Measure each reasoning-gym curriculum level of tsolve (docs/rl.md).

For every global level of ``tsolve_time_puzzles`` and ``tsolve_span``, the
mean of tsolve's own difficulty measure over ``--size`` items of seed
``--seed``: the measured puzzle score (tsolve.families.time_puzzles.difficulty) and the
table-free estimator's accuracy on polar SPAN items (tsolve.families.span.polar_baseline),
with SPAN's mean offset in days. Needs reasoning-gym (tsolve[rg]).

    python benchmarks/curriculum_levels.py --size 12 --seed 1
"""

from __future__ import annotations

import argparse
import statistics
import warnings

import reasoning_gym

import tsolve
from tsolve.families.span.polar_baseline import estimate_label

DAYS = {"days": 1, "weeks": 7, "years": 365}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=12)
    ap.add_argument("--span-size", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    warnings.simplefilter("ignore", UserWarning)
    tsolve.register_reasoning_gym()
    for name, size in (("tsolve_time_puzzles", args.size), ("tsolve_span", args.span_size)):
        cur = reasoning_gym.create_curriculum(name)
        top = max(len(a.levels) for a in cur.attributes.values())
        for level in range(top):
            cur.set_global_level(level)
            cfg = cur.generate_configuration({"seed": args.seed, "size": size})
            ds = reasoning_gym.factory.DATASETS[name][0](cfg)
            knobs = [ds[i]["metadata"]["difficulty"] for i in range(size)]
            records = [ds[i]["metadata"]["record"] for i in range(size)]
            setting = {a: getattr(cfg, a) for a in cur.attributes}
            if name == "tsolve_span":
                # The estimator's hit is not a difficulty knob (beside the prompt
                # it would tell the label): computed here from the records.
                polar = [estimate_label(r) == r["answer"] for r in records
                         if r["format"] == "polar"]  # fmt: skip
                offset = statistics.mean(k["offset"] * DAYS[k["unit"]] for k in knobs)
                print(
                    f"{name} level {level} {setting}: mean offset {offset:.0f} days, "
                    f"table-free accuracy {sum(polar) / len(polar):.2f} on {len(polar)} polar"
                )
            else:
                score = statistics.mean(k["score"] for k in knobs)
                print(f"{name} level {level} {setting}: mean measured score {score:.2f}")


if __name__ == "__main__":
    main()
