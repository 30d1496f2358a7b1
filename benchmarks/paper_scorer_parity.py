"""Where tsolve's scorer and the Time Puzzles paper's own scorer disagree (docs/scoring.md).

    python benchmarks/paper_scorer_parity.py RECORDS [--release ../shared/peers/time-puzzles]
        [--limit N] [--json FILE] [--markdown FILE]

``RECORDS`` are the release's 700 puzzles as tsolve records (JSON Lines, as
``tsolve import time-puzzles puzzles.json --out RECORDS`` writes them: each
keeps the release's ``solutions`` as ``published_answers``). ``--release``
is the paper's repository (Wang and Dong, 2026, arXiv:2601.07148, commit
616590c): its ``answer_extractors.py`` (``rule_based_answer_extractor``) and
``metrics.py``, in ``src/eval``, are imported from there and run as the paper's
results notebook runs them (strict extraction, then EM / F1 / Jaccard on the
sets); its loose extraction (the last N dates, N the gold's size) is run too.

For every record the gold is the release's published answer set, given to
both scorers (so a difference is a scoring difference, never a gold one),
and a battery of outputs is written from it: the gold, partly right answers,
over-answers, hedges, ``None`` beside dates, outputs the release's rules
misread, every honest style of :mod:`tsolve.stress.honest`, and every policy
of the adversarial suite (:mod:`tsolve.stress.adversarial`). Each output is
scored by the release's code, by tsolve's scorer (``tsolve verify``) and by
``tsolve verify --scorer paper``; the tables count, per style and metric,
how often tsolve and the release agree, and how often ``--scorer paper``
equals the release's code.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.families.time_puzzles.paper_battery import battery
from tsolve.families.time_puzzles.paper_score import paper_extract, score_paper
from tsolve.verifiers.registry import scorer_for

METRICS = ("em", "f1", "jaccard")
CLOSE = 1e-12


class Release:
    """The release's extractor and metrics, imported from its repository."""

    def __init__(self, path: Path) -> None:
        if not (path / "src" / "eval" / "answer_extractors.py").is_file():
            raise SystemExit(f"error: {path} holds no src/eval/answer_extractors.py (--release)")
        sys.path.insert(0, str(path))
        ext = importlib.import_module("src.eval.answer_extractors")
        met = importlib.import_module("src.eval.metrics")
        self.extract = ext.rule_based_answer_extractor
        self.prf = met.precision_recall_f1
        self.jaccard = met.jaccard_index
        self.em = met.exact_match_accuracy

    def score(self, gold: list[str], output: str, loose: bool = False) -> dict[str, Any]:
        if loose:
            pred = self.extract(output, loose_extraction=True, num_of_expected_ans=len(gold))
        else:
            pred = self.extract(output)
        return {
            "em": self.em(gold, pred),
            "f1": self.prf(gold, pred)[2],
            "jaccard": self.jaccard(gold, pred),
            "pred": pred,
        }


def _kind(rel: dict[str, Any], ts: Any) -> str:
    """Why tsolve and the release disagree on one output."""
    rel_failed = rel["pred"] == "CANNOT_PARSE"
    if rel_failed and not ts.parse_failed:
        return "the release cannot parse what tsolve reads"
    if ts.parse_failed and not rel_failed:
        return "tsolve refuses what the release reads"
    if set(rel["pred"]) == set(ts.parsed or []) and not ts.diagnosis.get("invalid"):
        return "same answer set: tsolve's over-answer rule"
    return "the two read different answer sets"


def run(records: list[dict[str, Any]], release: Release, limit: int | None) -> dict[str, Any]:
    """Every output of the battery scored four ways; the tallies per style."""
    tsolve_score = scorer_for("time-puzzles")
    paper_named = scorer_for("time-puzzles", "paper")
    assert paper_named is score_paper
    rows: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    for style, i, text in battery(records[:limit] if limit else records):
        rec = records[i]
        gold = rec["answers"]
        rel = release.score(gold, text)
        loose = release.score(gold, text, loose=True)
        ts = tsolve_score(rec, text, diagnose=False)
        pp = paper_named(rec, text)
        row = rows.setdefault(style, {
            "n": 0, "agree": Counter(), "paper_agree": 0, "kinds": Counter(),
            "sum": {w: Counter() for w in ("release", "loose", "tsolve", "paper")},
            "example": None, "paper_example": None,
        })  # fmt: skip
        row["n"] += 1
        differs = False
        for m in METRICS:
            same = abs(rel[m] - ts.metrics[m]) <= CLOSE
            row["agree"][m] += same
            differs |= not same
            row["sum"]["release"][m] += rel[m]
            row["sum"]["loose"][m] += loose[m]
            row["sum"]["tsolve"][m] += ts.metrics[m]
            row["sum"]["paper"][m] += pp.metrics[m]
        paper_same = all(abs(rel[m] - pp.metrics[m]) <= CLOSE for m in METRICS)
        # The extraction itself, too: the same list, or CANNOT_PARSE on both sides.
        got = paper_extract(text)
        paper_same &= (got is None and rel["pred"] == "CANNOT_PARSE") or got == rel["pred"]
        row["paper_agree"] += paper_same
        if not paper_same and row["paper_example"] is None:
            row["paper_example"] = {"output": text, "release": rel, "paper": pp.metrics}
        if differs:
            kind = _kind(rel, ts)
            row["kinds"][kind] += 1
            if row["example"] is None:
                row["example"] = {
                    "gold": gold, "output": text, "kind": kind,
                    "release": {m: rel[m] for m in METRICS} | {"pred": rel["pred"]},
                    "tsolve": dict(ts.metrics) | {"parsed": ts.parsed,
                                                  "reason": ts.diagnosis.get("reason")},
                }  # fmt: skip
    seconds = time.perf_counter() - start
    return {"records": len(records[:limit] if limit else records), "seconds": seconds,
            "styles": rows}  # fmt: skip


def _pct(k: int, n: int) -> str:
    return f"{k}/{n}" if k != n else f"**{k}/{n}**"


def markdown(result: dict[str, Any]) -> str:
    """Two tables: agreement per style and metric, and the means."""
    rows = result["styles"]
    out = [
        "| style | n | EM agree | F1 agree | Jaccard agree | `--scorer paper` = release |"
        " disagreement kinds |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    total = Counter()
    for style, r in rows.items():
        n = r["n"]
        kinds = "; ".join(f"{k}: {v}" for k, v in r["kinds"].most_common())
        out.append(
            f"| {style} | {n} | "
            + " | ".join(_pct(r["agree"][m], n) for m in METRICS)
            + f" | {_pct(r['paper_agree'], n)} | {kinds} |"
        )
        total["n"] += n
        total["paper"] += r["paper_agree"]
        for m in METRICS:
            total[m] += r["agree"][m]
        for k, v in r["kinds"].items():
            total[k] += v
    n = total["n"]
    out.append(
        f"| **all** | {n} | "
        + " | ".join(f"{total[m]}/{n}" for m in METRICS)
        + f" | {total['paper']}/{n} | |"
    )
    out += ["", "Mean score per style (EM / F1 / Jaccard), each scorer:", "",
            "| style | release (strict, the paper's figures) | release loose | tsolve |",
            "|---|---|---|---|"]  # fmt: skip
    for style, r in rows.items():
        cells = []
        for who in ("release", "loose", "tsolve"):
            cells.append(" / ".join(f"{r['sum'][who][m] / r['n']:.3f}" for m in METRICS))
        out.append(f"| {style} | " + " | ".join(cells) + " |")
    kinds = [k for k in total if k not in ("n", "paper", *METRICS)]
    out += ["", "Disagreements by kind (outputs where any metric differs):", ""]
    out += [f"- {k}: {total[k]}" for k in sorted(kinds, key=lambda k: -total[k])]
    return "\n".join(out) + "\n"


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records, each with ``answers`` set to the release's published
    answers (``published_answers``), so both scorers judge the same gold."""
    get_family("time-puzzles")  # fail early if tsolve is not importable
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        published = rec.get("published_answers", rec.get("answers"))
        rec["answers"] = sorted(published)
        out.append(rec)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("--release", type=Path, default=Path("../shared/peers/time-puzzles"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N records")
    ap.add_argument("--json", type=Path, default=None, help="write the tallies and examples")
    ap.add_argument("--markdown", type=Path, default=None, help="write the tables")
    args = ap.parse_args(argv)
    release = Release(args.release)
    records = load_records(args.records)
    result = run(records, release, args.limit)
    table = markdown(result)
    print(table)
    print(f"{result['records']} records, {result['seconds']:.1f} s", file=sys.stderr)
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    if args.json:
        plain = {
            **result,
            "styles": {
                s: {**r, "agree": dict(r["agree"]), "kinds": dict(r["kinds"]),
                    "sum": {w: dict(c) for w, c in r["sum"].items()}}
                for s, r in result["styles"].items()
            },
        }  # fmt: skip
        args.json.write_text(json.dumps(plain, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
