"""How many of the Time Puzzles release's puzzles ``tsolve solve --text-file`` reads.

    python benchmarks/time_puzzles_reading.py RELEASE [--password P] [--style explicit|implicit]
        [--records IMPORTED.jsonl] [--domain-start 1800-01-01] [--domain-end 2050-12-31]
        [--show N] [--json OUT]

RELEASE is the release's ``data.zip`` with ``--password`` (read in memory, as
``tsolve import time-puzzles`` reads it; the repository keeps it encrypted in
tests/fixtures/time_puzzles_release/), or its ``data/puzzles.json``
decrypted elsewhere (never commit it). Each puzzle becomes one paragraph: its
sentences in the chosen style (``explicit_constraints`` or ``constraints``)
joined with spaces, written to a temporary file that is deleted afterwards.
The file goes through the command a user runs,

    tsolve solve --text-file TMP --format jsonl --domain-start D0 --domain-end D1

in a fresh process (with the tsolve on ``PYTHONPATH``; run the script from a
directory outside a checkout, since ``python -m`` puts the current directory
first), and its rows are compared with the release.

Printed: the number and fraction of puzzles read completely (status other than
``partial-reading``), the unread sentences by form (numbers and names
normalised), and for the puzzles read completely whether tsolve's answers
equal the release's ``solutions``, the mismatches split by whether the puzzle
has a Chinese lunar fact (the release's lunar tables are wrong before 1900)
and whether its answers lie before 1900. The domain defaults to the release's
``year_range`` (1800..2050), which its prompt states as a sentence of its own.

With ``--records`` (the output of ``tsolve import time-puzzles``, one record
per puzzle with ``id`` and ``answers``, tsolve's gold), the answers of every
puzzle read completely are also compared with tsolve's gold, by ``id``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

_NAMES = (
    (r"January|February|March|April|May|June|July|August|September|October|November|December",
     "<Month>"),
    (r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday", "<Weekday>"),
    (r"\b(?:Rat|Ox|Tiger|Rabbit|Dragon|Snake|Horse|Goat|Monkey|Rooster|Dog|Pig)\b", "<Animal>"),
    (r"\b(?:Spring|Summer|Autumn|Winter)\b", "<Season>"),
    (r"\d+(?:st|nd|rd|th)\b", "<nth>"),
    (r"\d+", "<n>"),
)  # fmt: skip


def form(sentence: str) -> str:
    """``sentence`` with its numbers and calendar names replaced by placeholders."""
    for pattern, repl in _NAMES:
        sentence = re.sub(pattern, repl, sentence)
    return sentence


def paragraphs(puzzles: list[dict[str, Any]], style: str) -> list[str]:
    field = "explicit_constraints" if style == "explicit" else "constraints"
    return [" ".join(s.strip() for s in p[field]) for p in puzzles]


def solve_rows(texts: list[str], start: str, end: str) -> list[dict[str, Any]]:
    """``tsolve solve --text-file`` over the paragraphs, one JSON row each."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
        cmd = [sys.executable, "-m", "tsolve", "solve", "--text-file", str(path),
               "--format", "jsonl", "--domain-start", start, "--domain-end", end]  # fmt: skip
        out = subprocess.run(cmd, capture_output=True, text=True, env=os.environ.copy())
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if len(rows) != len(texts):
        sys.exit(f"expected {len(texts)} rows, got {len(rows)}: {out.stderr.strip()[:500]}")
    return rows


def _has_lunar(puzzle: dict[str, Any]) -> bool:
    return any(m["type"] in ("lunar_month", "chinese_zodiac") for m in puzzle["constraints_meta"])


def measure(
    puzzles: list[dict[str, Any]],
    style: str,
    start: str,
    end: str,
    gold: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    rows = solve_rows(paragraphs(puzzles, style), start, end)
    tsolve_gold: dict[str, Any] = {"compared": 0, "agree": 0, "differ": [], "missing": 0}
    unread: collections.Counter[str] = collections.Counter()
    read = 0
    agree = 0
    mismatch: collections.Counter[str] = collections.Counter()
    examples: list[dict[str, Any]] = []
    for puzzle, row in zip(puzzles, rows, strict=True):
        if row.get("status") == "partial-reading":
            unread.update(form(u["text"]) for u in row.get("unread", []))
            continue
        read += 1
        if gold is not None:
            mine = gold.get(puzzle["identifier"])
            if mine is None:
                tsolve_gold["missing"] += 1
            else:
                tsolve_gold["compared"] += 1
                if row.get("answers") == sorted(mine):
                    tsolve_gold["agree"] += 1
                else:
                    tsolve_gold["differ"].append(puzzle["identifier"])
        published = sorted(puzzle["solutions"])
        if row.get("answers") == published:
            agree += 1
            continue
        early = any(d < "1900" for d in [*published, *row.get("answers", [])])
        cause = ("lunar fact" if _has_lunar(puzzle) else "no lunar fact") + (
            ", answers before 1900" if early else ", answers from 1900"
        )
        mismatch[cause] += 1
        examples.append({"id": puzzle["identifier"], "cause": cause, "tsolve": row.get("answers"),
                         "release": published})  # fmt: skip
    n = len(puzzles)
    return {"style": style, "domain": [start, end], "puzzles": n, "read": read,
            "read_fraction": read / n if n else 0.0, "agree_with_release": agree,
            "mismatch_by_cause": dict(mismatch), "unread_forms": dict(unread.most_common()),
            "mismatches": examples,
            "tsolve_gold": tsolve_gold if gold is not None else None}  # fmt: skip


def load(path: Path, password: str | None) -> list[dict[str, Any]]:
    """The release's puzzles, through tsolve's reader (a zip in memory); a
    tree without it (one measured "before") reads a decrypted puzzles.json."""
    from tsolve.errors import TsolveError

    try:
        from tsolve.families.time_puzzles.release import read_release
    except ImportError:
        return list(json.loads(path.read_text(encoding="utf-8")))
    try:
        return read_release(path, password)
    except TsolveError as exc:
        sys.exit(f"error: {exc}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path, help="the release's data.zip or puzzles.json")
    ap.add_argument("--password", help="the data.zip's password (its authors' README gives it)")
    ap.add_argument("--style", choices=("explicit", "implicit"), default="explicit")
    ap.add_argument("--records", type=Path, help="tsolve's imported records (tsolve's gold)")
    ap.add_argument("--domain-start", default="1800-01-01")
    ap.add_argument("--domain-end", default="2050-12-31")
    ap.add_argument("--show", type=int, default=10, help="mismatches to print")
    ap.add_argument("--json", type=Path, help="write the whole result here")
    a = ap.parse_args(argv)
    puzzles = load(a.puzzles, a.password)
    gold = None
    if a.records:
        rows = (json.loads(line) for line in a.records.read_text(encoding="utf-8").splitlines())
        gold = {str(r["id"]): list(r["answers"]) for r in rows if isinstance(r, dict) and "id" in r}
    r = measure(puzzles, a.style, a.domain_start, a.domain_end, gold)
    share = f"{100 * r['read_fraction']:.1f} %"
    print(f"{a.style}: read completely {r['read']}/{r['puzzles']} ({share})")
    print(f"  of those, answers equal the release's: {r['agree_with_release']}")
    tg = r["tsolve_gold"]
    if tg is not None:
        print(f"  of those, answers equal tsolve's gold (--records): {tg['agree']}/"
              f"{tg['compared']} (not in the records: {tg['missing']});"
              f" differ: {tg['differ'][: a.show]}")  # fmt: skip
    for cause, k in sorted(r["mismatch_by_cause"].items()):
        print(f"  mismatch ({cause}): {k}")
    for f, k in list(r["unread_forms"].items())[:25]:
        print(f"  unread {k:4d}  {f}")
    for ex in r["mismatches"][: a.show]:
        print(f"  {ex['id']} [{ex['cause']}] tsolve={ex['tsolve']} release={ex['release']}")
    if a.json:
        a.json.write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
