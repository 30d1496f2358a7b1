"""tsolve's ``--preset paper`` beside the Time Puzzles paper's 700 published
puzzles: fact kinds, facts per puzzle, answer-set sizes, seed years by
decade, wording, and how many zero-answer puzzles two facts alone rule out.

    python benchmarks/paper_distributions.py [--release DIR] [--puzzles FILE.json]
        [--count 700] [--seed 0] [--md FILE.md] [--png FILE.png] [--json]

The release (Wang and Dong, 2026, arXiv:2601.07148; MIT; default
``../shared/peers/time-puzzles``) keeps its puzzles in ``data.zip``, encrypted
by its authors against crawling; this script reads ``data/puzzles.json`` out
of the archive in memory with the password its README gives (the
repository's name in lower case without hyphens), and never writes it out.
``--puzzles`` reads an already decrypted copy instead.

A release puzzle's facts are its ``constraints_meta``, mapped one to one
onto tsolve's sixteen fact kinds (:data:`RELEASE_KINDS`). To tell a trivial
clash (two facts that no date meets together) the script evaluates every
fact over 1800-01-01..2050-12-31 with the release's own ``validate`` methods
(its ``facts.py`` in ``puzzles_generator/date_generator``, imported from the release
folder, not copied; it needs ``lunarcalendar`` and ``pandas``, both in
tsolve's development environment), and checks first that the facts'
intersection is each puzzle's published solution set. tsolve's puzzles are
``--count`` records of ``--preset paper`` with ``--seed`` (their facts
evaluated by tsolve's masks), and for the zero-answer row also tsolve's
default zero-answer puzzles over the same years (minimal unsatisfiable sets).

Written: a Markdown table (``--md``, the block between the markers
``<!-- paper-distributions:begin -->`` and ``...:end -->`` of that file
replaced, or the whole file if it has none) and a figure (``--png``).
"""

from __future__ import annotations

import argparse
import collections
import datetime as _dt
import importlib
import io
import json
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tsolve.families.time_puzzles import paper_peer

START, END = _dt.date(1800, 1, 1), _dt.date(2050, 12, 31)
BEGIN_MARK = "<!-- paper-distributions:begin -->"
END_MARK = "<!-- paper-distributions:end -->"

#: The release's fact ``type`` (and, for ``event``, its ``name``) -> tsolve's
#: kind. Note the release's ``day_of_month`` is its DayOfMonthRangeFact
#: ("before/after the Nth"); its DayOfMonthFact writes ``day_of_month_specific``
#: and ``first_day_of_month``/``last_day_of_month``.
RELEASE_KINDS = {
    "kb_event": "event_relation",
    "weekday": "weekday",
    "multi_weekday": "weekdays",
    "day_of_month": "day_of_month_range",
    "day_of_month_specific": "day_of_month",
    "first_day_of_month": "day_of_month",
    "last_day_of_month": "day_of_month",
    "month": "month",
    "season": "season",
    "weekday_in_month": "weekday_in_month",
    "explicit_year": "year",
    "decade": "decade",
    "chinese_zodiac": "chinese_zodiac",
    "lunar_month": "lunar_month",
    "person_alive": "person_alive",
    "us_president": "us_president",
    "leap_year": "leap_year",
    "summer_olympics": "sports_event_year",
    "world_cup": "sports_event_year",
}
#: The release's fact class that validates each ``type``/``name``.
RELEASE_CLASSES = {
    "kb_event": "KnowledgeBaseEventFact", "weekday": "WeekdayFact",
    "multi_weekday": "MultiWeekdayFact", "day_of_month": "DayOfMonthRangeFact",
    "day_of_month_specific": "DayOfMonthFact", "first_day_of_month": "DayOfMonthFact",
    "last_day_of_month": "DayOfMonthFact", "month": "MonthFact", "season": "SeasonFact",
    "weekday_in_month": "WeekdayInMonthFact", "explicit_year": "ExplicitYearFact",
    "decade": "DecadeFact", "chinese_zodiac": "ChineseZodiacFact",
    "lunar_month": "LunarMonthFact", "person_alive": "PersonAliveFact",
    "us_president": "USPresidentFact", "leap_year": "LeapYearFact",
    "summer_olympics": "EventFact", "world_cup": "EventFact",
}  # fmt: skip


def release_type(meta: dict[str, Any]) -> str:
    t = str(meta["type"])
    return str(meta["name"]) if t == "event" else t


# ---------------------------------------------------------------- loading


def load_release_puzzles(release: Path, puzzles: Path | None) -> list[dict[str, Any]]:
    if puzzles is not None:
        data = json.loads(puzzles.read_text(encoding="utf-8"))
    else:
        archive = release / "data.zip"
        if not archive.is_file():
            sys.exit(f"error: no data.zip under {release} (give --release or --puzzles)")
        with zipfile.ZipFile(archive) as z:
            raw = z.read("data/puzzles.json", pwd=b"timepuzzles")
        data = json.load(io.BytesIO(raw))
    if not isinstance(data, list) or not all(isinstance(p, dict) for p in data):
        sys.exit("error: the release's puzzles.json is not a list of puzzles")
    return data


def release_facts_module(release: Path) -> Any:
    sys.path.insert(0, str(release / "puzzles_generator"))
    try:
        return importlib.import_module("date_generator.facts")
    except ImportError as exc:
        sys.exit(f"error: the release's facts.py did not import ({exc}); it needs lunarcalendar")


class ReleaseDays:
    """Each release fact's truth on every day of 1800..2050, by its own
    ``validate``, kept per distinct fact."""

    def __init__(self, facts: Any) -> None:
        n = (END - START).days + 1
        self.dates = [START + _dt.timedelta(days=i) for i in range(n)]
        self.facts = facts
        self.gens: dict[str, Any] = {}
        self.cache: dict[str, np.ndarray] = {}

    def gen(self, meta: dict[str, Any]) -> Any:
        name = RELEASE_CLASSES[release_type(meta)]
        if name not in self.gens:
            cls = getattr(self.facts, name)
            # Its __init__ reads the (unreleased) knowledge pickle; validate needs none of it.
            self.gens[name] = object.__new__(cls) if name == "KnowledgeBaseEventFact" else cls()
        return self.gens[name]

    def mask(self, meta: dict[str, Any]) -> np.ndarray:
        key = json.dumps(meta, sort_keys=True)
        got = self.cache.get(key)
        if got is None:
            g = self.gen(meta)
            got = self.cache[key] = np.fromiter(
                (g.validate(d, meta) for d in self.dates), dtype=bool, count=len(self.dates)
            )
        return got

    def solutions(self, metas: Sequence[dict[str, Any]]) -> list[str]:
        acc = np.ones(len(self.dates), dtype=bool)
        for m in metas:
            acc &= self.mask(m)
        return [self.dates[i].isoformat() for i in np.flatnonzero(acc)]


def tsolve_records(count: int, seed: int, opts: dict[str, Any]) -> list[dict[str, Any]]:
    """``count`` puzzles of the options ``opts`` (as the CLI takes them) in
    every style they ask for: ``count`` records a style, a puzzle's wordings
    together."""
    from tsolve.families.time_puzzles.family import build
    from tsolve.families.time_puzzles.generate import generate_puzzles
    from tsolve.generators.style_pairs import as_tuple

    cfg = build(opts)

    return list(generate_puzzles(count * len(as_tuple(cfg.style)), seed, cfg))


def tsolve_masks(record: dict[str, Any]) -> list[np.ndarray]:
    from tsolve.encodings.facts import DayView
    from tsolve.families.time_puzzles.solve import puzzle_from_record

    p = puzzle_from_record(record)
    view = DayView(np.arange(p.domain.start, p.domain.end + 1, dtype=np.int64))
    return [np.asarray(f.holds(view), dtype=bool) for f in p.facts]


def has_spare_fact(masks: Sequence[np.ndarray]) -> bool:
    """Is there a fact whose removal leaves the answer set as it is (the
    puzzle is not minimal)?"""
    whole = np.logical_and.reduce(masks)
    for i in range(len(masks)):
        rest = np.logical_and.reduce([m for j, m in enumerate(masks) if j != i])
        if np.array_equal(rest, whole):
            return True
    return False


def two_fact_clash(masks: Sequence[np.ndarray]) -> bool:
    return any(
        not (masks[i] & masks[j]).any() for i in range(len(masks)) for j in range(i + 1, len(masks))
    )


# ---------------------------------------------------------------- tables


def shares(values: Iterable[Any], total: int | None = None) -> dict[str, float]:
    c = collections.Counter(str(v) for v in values)
    n = total if total is not None else sum(c.values())
    return {k: 100.0 * v / n for k, v in c.items()} if n else {}


def decade(iso: str) -> str:
    return f"{int(iso[:3]) * 10}s"


def release_side(puzzles: list[dict[str, Any]], days: ReleaseDays) -> dict[str, Any]:
    kinds = [RELEASE_KINDS[release_type(m)] for p in puzzles for m in p["constraints_meta"]]
    zero = [p for p in puzzles if p["solution_count"] == 0]
    clash = [two_fact_clash([days.mask(m) for m in p["constraints_meta"]]) for p in zero]
    spare = [has_spare_fact([days.mask(m) for m in p["constraints_meta"]]) for p in puzzles]
    mismatched = sum(days.solutions(p["constraints_meta"]) != p["solutions"] for p in puzzles)
    return {
        "puzzles": len(puzzles),
        "kind": shares(kinds),
        "facts": shares(len(p["constraints_meta"]) for p in puzzles),
        "M": shares(p["solution_count"] for p in puzzles),
        "decade": shares(decade(p["seed_date"]) for p in puzzles),
        "style": {"implicit": 100.0, "explicit": 100.0},  # every item carries both wordings
        "zero": len(zero),
        "clash": 100.0 * sum(clash) / len(zero) if zero else 0.0,
        "spare": 100.0 * sum(spare) / len(puzzles),
        "mismatched": mismatched,
    }


def tsolve_side(every: list[dict[str, Any]]) -> dict[str, Any]:
    """The shares over puzzles: one record per puzzle (its implicit wording;
    a pair's two records hold the same facts), and the wordings each puzzle
    comes in."""
    records = [r for r in every if r["style"] == "implicit"]
    wordings: dict[str, set[str]] = collections.defaultdict(set)
    for r in every:
        wordings[str(r.get("pair") if r["style"] == "explicit" else r["id"])].add(r["style"])
    masks = {r["id"]: tsolve_masks(r) for r in records}
    zero = [r for r in records if r["solution_count"] == 0]
    clash = [two_fact_clash(masks[r["id"]]) for r in zero]
    spare = [has_spare_fact(m) for m in masks.values()]
    return {
        "puzzles": len(records),
        "kind": shares(f["kind"] for r in records for f in r["facts"]),
        "facts": shares(len(r["facts"]) for r in records),
        "M": shares(r["solution_count"] for r in records),
        "decade": shares(decade(r["generator"]["seed_date"]) for r in records),
        "style": {
            s: 100.0 * sum(s in w for w in wordings.values()) / len(wordings)
            for s in ("implicit", "explicit")
        },
        "zero": len(zero),
        "clash": 100.0 * sum(clash) / len(zero) if zero else 0.0,
        "spare": 100.0 * sum(spare) / len(records) if records else 0.0,
    }


SECTIONS = (
    ("kind", "fact kind (share of facts)"),
    ("facts", "facts per puzzle (share of puzzles)"),
    ("M", "answer-set size (share of puzzles)"),
    ("decade", "seed date's decade (share of puzzles)"),
    ("style", "wording carried (share of puzzles)"),
)


def ordered(section: str, keys: Iterable[str]) -> list[str]:
    ks = set(keys)
    if section in ("facts", "M"):
        return sorted(ks, key=int)
    if section == "decade":
        return [f"{y}s" for y in range(1800, 2060, 10) if f"{y}s" in ks or y <= 2050]
    return sorted(ks)


def rows(rel: dict[str, Any], ts: dict[str, Any]) -> list[tuple[str, str, float, float]]:
    out = []
    for sec, _ in SECTIONS:
        for k in ordered(sec, set(rel[sec]) | set(ts[sec])):
            out.append((sec, k, rel[sec].get(k, 0.0), ts[sec].get(k, 0.0)))
    out.append(("zero", "two facts clash", rel["clash"], ts["clash"]))
    out.append(("spare", "a fact can be dropped", rel["spare"], ts["spare"]))
    return out


def markdown(
    rel: dict[str, Any], ts: dict[str, Any], default_zero: dict[str, Any], command: str, seed: int
) -> str:
    lines = [
        BEGIN_MARK,
        "",
        f"Made by `{command}` (the release's {rel['puzzles']} puzzles; tsolve's "
        f"{ts['puzzles']} puzzles of `--preset paper --style implicit,explicit`, seed "
        f"{seed}). Shares in %; Δ = tsolve − release, "
        "in points; **bold**: more than 5 points apart.",
        "",
        "| what | value | release | tsolve preset | Δ |",
        "|---|---|---:|---:|---:|",
    ]
    titles = dict(SECTIONS) | {
        "zero": "zero-answer puzzles (share of them)",
        "spare": "not minimal (share of puzzles)",
    }
    last = None
    for sec, key, a, b in rows(rel, ts):
        d = b - a
        cell = f"**{d:+.1f}**" if abs(d) > 5 else f"{d:+.1f}"
        lines.append(
            f"| {titles[sec] if sec != last else ''} | {key} | {a:.1f} | {b:.1f} | {cell} |"
        )
        last = sec
    lines += [
        "",
        f"Zero-answer puzzles: {rel['zero']} in the release, {ts['zero']} in the preset; "
        f"tsolve's default zero-answer puzzles over the same years (minimal unsatisfiable "
        f"sets, {default_zero['zero']} of them): {default_zero['clash']:.1f} % with a "
        f"two-fact clash, {default_zero['spare']:.1f} % with a fact to spare. "
        "The release's facts, evaluated with its own `validate`, give its "
        f"published solutions for {rel['puzzles'] - rel['mismatched']} of {rel['puzzles']} "
        "puzzles.",
        "",
        END_MARK,
    ]
    return "\n".join(lines)


def figure(
    rel: dict[str, Any], ts: dict[str, Any], default_zero: dict[str, Any], out: Path
) -> None:
    from tsolve.plots.output import new_figure, save

    fig = new_figure(7.0, 8.6)
    grid = fig.add_gridspec(3, 2, height_ratios=[1.5, 1.1, 0.9])
    colours = ("#4c72b0", "#dd8452")
    labels = ("release (700)", f"tsolve --preset paper ({ts['puzzles']})")

    def bars(ax: Any, sec: str, keys: list[str], horizontal: bool = False) -> None:
        x = np.arange(len(keys))
        w = 0.4
        for i, side in enumerate((rel, ts)):
            vals = [side[sec].get(k, 0.0) for k in keys]
            if horizontal:
                ax.barh(x + (i - 0.5) * w, vals, w, color=colours[i], label=labels[i])
            else:
                ax.bar(x + (i - 0.5) * w, vals, w, color=colours[i], label=labels[i])
        if horizontal:
            ax.set_yticks(x, keys, fontsize=8)
            ax.invert_yaxis()
            ax.set_xlabel("% of facts", fontsize=8)
        else:
            ax.set_xticks(x, keys, fontsize=8)
            ax.set_ylabel("% of puzzles", fontsize=8)
        ax.tick_params(labelsize=8)

    ax = fig.add_subplot(grid[0, :])
    kinds = sorted(set(rel["kind"]) | set(ts["kind"]), key=lambda k: -rel["kind"].get(k, 0.0))
    bars(ax, "kind", kinds, horizontal=True)
    ax.set_title("Fact kinds", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")

    ax = fig.add_subplot(grid[1, :])
    decades = [k for k in ordered("decade", set(rel["decade"]) | set(ts["decade"]))]
    bars(ax, "decade", decades)
    ax.set_xticks(np.arange(len(decades)), [d[:4] for d in decades], fontsize=7, rotation=90)
    ax.set_title("Seed date by decade", fontsize=10)

    ax = fig.add_subplot(grid[2, 0])
    bars(ax, "facts", ordered("facts", set(rel["facts"]) | set(ts["facts"])))
    ax.set_title("Facts per puzzle", fontsize=10)

    ax = fig.add_subplot(grid[2, 1])
    groups = ["two facts clash\n(zero-answer puzzles)", "a fact can be dropped\n(all puzzles)"]
    sides = [(rel, colours[0], "release"), (ts, colours[1], "tsolve preset"),
             (default_zero, "#55a868", "tsolve default")]  # fmt: skip
    x = np.arange(len(groups))
    w = 0.27
    for i, (side, colour, name) in enumerate(sides):
        vals = [side["clash"], side["spare"]]
        ax.bar(x + (i - 1) * w, vals, w, color=colour, label=name)
        for j, v in enumerate(vals):
            ax.text(x[j] + (i - 1) * w, v + 1.5, f"{v:.0f}", ha="center", fontsize=7)
    ax.set_xticks(x, groups, fontsize=7)
    ax.set_ylim(0, 135)
    ax.set_ylabel("%", fontsize=8)
    ax.set_title("Trivial clashes and spare facts", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", ncols=3, handlelength=1, columnspacing=0.8)
    ax.tick_params(labelsize=8)
    save(fig, out)


def write_md(path: Path, block: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN_MARK in text and END_MARK in text:
        head, rest = text.split(BEGIN_MARK, 1)
        tail = rest.split(END_MARK, 1)[1]
        text = head + block + tail
    else:
        text = block + "\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--release", type=Path, default=paper_peer.DEFAULT_RELEASE)
    ap.add_argument("--puzzles", type=Path, help="a decrypted data/puzzles.json (read only)")
    ap.add_argument("--count", type=int, default=700)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--zero-count", type=int, default=100, help="tsolve default M=0 puzzles")
    ap.add_argument("--md", type=Path)
    ap.add_argument("--png", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    puzzles = load_release_puzzles(args.release, args.puzzles)
    days = ReleaseDays(release_facts_module(args.release))
    rel = release_side(puzzles, days)
    preset = {"preset": "paper", "style": ("implicit", "explicit")}
    ts = tsolve_side(tsolve_records(args.count, args.seed, preset))
    # tsolve's own zero-answer puzzles (no preset) over the paper's years.
    years = {"domain_start": "1800-01-01", "domain_end": "2050-12-31"}
    dz = tsolve_side(tsolve_records(args.zero_count, args.seed, {"solutions": 0, **years}))
    argv = " ".join(sys.argv[1:])
    command = f"python benchmarks/paper_distributions.py {argv}".strip()
    block = markdown(rel, ts, dz, command, args.seed)
    if args.json:
        print(json.dumps({"release": rel, "tsolve": ts, "tsolve_default_zero": dz}, indent=2))
    else:
        print(block)
    if args.md:
        write_md(args.md, block)
    if args.png:
        figure(rel, ts, dz, args.png)


if __name__ == "__main__":
    main()
