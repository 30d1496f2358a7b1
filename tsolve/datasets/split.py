"""``tsolve dataset FAMILY --split train=0.8,eval=0.2``: disjoint parts of one run.

Splitting two runs by seed is not enough to keep an eval set unseen: a family
whose content domain is small (SPAN) can ask the same question under two
seeds. A split is therefore made from *one* run: its ``count`` indices are cut
into consecutive blocks, one per part, in the order the parts are named
(``train=0.8,eval=0.2``: indices ``0..0.8N-1`` are train, the rest eval).
Records of one run never repeat each other's answer
(:mod:`tsolve.datasets.distinct`: a repeat is drawn again; the parts are
written in order with one acceptance pass, so a later part costs no
regeneration of the earlier ones), and as a last guard every record of a
later part whose answer fingerprint (``Family.answer_content_fingerprint``)
equals one of an earlier part's is dropped from it and counted, so the parts
are disjoint under ``tsolve dataset overlap``, by ``answer_overlap`` and so by
``overlap`` too, by construction. The other wording of a puzzle counts as the
puzzle: a pair split across two parts loses its later record.

Each part is its own file beside ``--out``: ``data.jsonl`` gives
``data.train.jsonl`` and ``data.eval.jsonl``. Sizes are fractions summing to
1 (the last part takes the rounding) or record counts summing to ``--count``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.contract import family_of, get_family
from tsolve.datasets.distinct import DistinctPass, excluded_keys
from tsolve.datasets.summary import DatasetSummary
from tsolve.datasets.writer import write_dataset
from tsolve.errors import TsolveError

_NAME = re.compile(r"[A-Za-z0-9_-]+")


def parse_split(spec: str, count: int) -> list[tuple[str, range]]:
    """``"train=0.8,eval=0.2"`` or ``"train=800,eval=200"`` -> ``[(name, indices)]``
    covering ``range(count)`` in order, with a one-line error for anything else."""
    parts: list[tuple[str, str]] = []
    for item in str(spec).split(","):
        name, sep, size = item.partition("=")
        name, size = name.strip(), size.strip()
        if not sep or not _NAME.fullmatch(name) or not size:
            raise TsolveError(
                f"split: expected NAME=SIZE,... such as train=0.8,eval=0.2, got {spec!r}"
            )
        parts.append((name, size))
    names = [n for n, _ in parts]
    if len(parts) < 2 or len(set(names)) != len(names):
        raise TsolveError(f"split: give at least two parts with distinct names, got {spec!r}")
    sizes: list[int]
    if all(s.isdigit() for _, s in parts):
        sizes = [int(s) for _, s in parts]
        if sum(sizes) != count:
            raise TsolveError(f"split: part sizes add up to {sum(sizes)}, not --count {count}")
    else:
        try:
            fractions = [float(s) for _, s in parts]
        except ValueError:
            raise TsolveError(
                f"split: sizes must be all fractions or all record counts, got {spec!r}"
            ) from None
        if any(not 0 < f <= 1 for f in fractions) or abs(sum(fractions) - 1) > 1e-9:
            raise TsolveError(f"split: fractions must be in (0, 1] and add up to 1, got {spec!r}")
        sizes = [round(count * f) for f in fractions[:-1]]
        sizes.append(count - sum(sizes))
        if sizes[-1] < 0:
            raise TsolveError(f"split: fractions {spec!r} do not fit --count {count}")
    out: list[tuple[str, range]] = []
    start = 0
    for name, n in zip(names, sizes, strict=True):
        out.append((name, range(start, start + n)))
        start += n
    return out


def part_path(out: str | Path, name: str) -> Path:
    """``data.jsonl`` + ``eval`` -> ``data.eval.jsonl`` (the part's file)."""
    p = Path(out)
    if not p.suffix:
        return p.with_name(f"{p.name}.{name}")
    return p.with_name(f"{p.stem}.{name}{p.suffix}")


@dataclass
class SplitSummary:
    """One summary per part, and how many records the disjointness guard dropped."""

    parts: dict[str, DatasetSummary] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "parts": {
                name: {**s.to_json(), "path": self.paths[name], "dropped": self.dropped[name]}
                for name, s in self.parts.items()
            }
        }


def drop_repeats(paths: list[Path]) -> list[int]:
    """Remove from each JSON Lines file the records whose answer fingerprint
    occurs in an earlier file (repeats within one file are left alone: the
    run's acceptance pass keeps none but a puzzle's two wordings). Returns
    how many were dropped per file."""
    seen: set[str] = set()
    dropped: list[int] = []
    for path in paths:
        keep: list[str] = []
        keys: set[str] = set()
        gone = 0
        with path.open(encoding="utf-8") as fh:
            lines = fh.read().split("\n")  # not splitlines: U+2028 may sit in a row
        for line in lines:
            if not line.strip():
                continue
            rec = json.loads(line)
            name = family_of(rec)
            key = f"{name}:{get_family(name).answer_content_fingerprint(rec)}"
            if key in seen:
                gone += 1
                continue
            keys.add(key)
            keep.append(line)
        if gone:
            path.write_text("".join(x + "\n" for x in keep), encoding="utf-8")
        seen |= keys
        dropped.append(gone)
    return dropped


def write_split(
    family: str,
    options: dict[str, Any] | None,
    *,
    count: int,
    out: str | Path,
    split: str,
    seed: int = 0,
    fmt: str | None = None,
    exclude: Sequence[str | Path] = (),
    **kwargs: Any,
) -> SplitSummary:
    """Write run ``seed``'s ``count`` records as the disjoint parts ``split``
    names (see the module docstring). ``kwargs`` go to
    :func:`~tsolve.datasets.writer.write_dataset` for each part (workers,
    engine, callbacks); sharding and resuming do not apply to a split.
    ``exclude``: files whose answers no part may repeat (``--exclude``)."""
    from tsolve.datasets.sinks import infer_format

    parts = parse_split(split, count)
    if str(out) == "-":
        raise TsolveError("split: give --out a file name; each part is written beside it")
    if infer_format(str(out), fmt) != "jsonl":
        raise TsolveError("split: parts are written as jsonl; give a .jsonl --out")
    summary = SplitSummary()
    paths: list[Path] = []
    fam = get_family(family, need="generate")
    distinct = DistinctPass(fam) if fam.distinct_runs else None  # one pass through every part
    for key in excluded_keys(fam, exclude) if exclude else []:  # (refused where runs repeat)
        if distinct is not None:
            distinct.keep(key)
    for name, indices in parts:
        path = part_path(out, name)
        summary.paths[name] = str(path)
        summary.parts[name] = write_dataset(
            family, options, count=count, out=path, seed=seed, fmt="jsonl",
            index_range=indices, distinct=distinct, **kwargs,
        )  # fmt: skip
        paths.append(path)
        if summary.parts[name].interrupted:
            break
    for (name, _), gone in zip(parts, drop_repeats(paths), strict=False):
        summary.dropped[name] = gone
    for name, _ in parts:
        summary.dropped.setdefault(name, 0)
    return summary
