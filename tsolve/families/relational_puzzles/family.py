"""The ``relational-puzzles`` family, declared once: several events, one or
more unknown dates. Its parts sit beside this file in
``families/relational_puzzles/``: generator ``generate.py`` (+
``invariants.py``), solver ``solve.py``, scorer ``score.py``, auditor
``audit.py``. Its commands are ``tsolve puzzle --events N``
(``cli.py``, reached from the time-puzzles commands) and
its bench cases run in the time-puzzles group, whose single-date figures are
their peer."""

from __future__ import annotations

from typing import Any

from tsolve.contract.family import Family, Lazy, Record
from tsolve.generators.options import optional, parse_int, parse_int_list, parse_text
from tsolve.solver.backend_names import GENERATION_BACKENDS, check_backend


def build(opts: dict[str, Any]) -> Any:
    """Options -> ``RelationalConfig``; a half-given domain keeps the default's other end."""
    from tsolve.calendars.domain import DateDomain, iso
    from tsolve.families.relational_puzzles.generate import DEFAULT_DOMAIN, RelationalConfig

    kw = dict(opts)
    start, end = kw.pop("domain_start", None), kw.pop("domain_end", None)
    if start is not None or end is not None:
        kw["domain"] = DateDomain.from_dates(
            start or iso(DEFAULT_DOMAIN.start), end or iso(DEFAULT_DOMAIN.end)
        )
    kw = {k: v for k, v in kw.items() if v is not None or k == "facts"}
    check_backend(kw.get("backend", "cpsat"), GENERATION_BACKENDS)
    return RelationalConfig(**kw)


def summarize(rec: Record) -> dict[str, list[str]]:
    facts = rec.get("facts") or []
    graph = rec.get("graph")
    asked = rec.get("asked")
    graph = graph if isinstance(graph, dict) else {}
    asked = asked if isinstance(asked, dict) else {}
    return {
        "solutions": [str(rec.get("solution_count"))],
        "events": [str(len(rec.get("events") or []))],
        "asked": [str(asked.get("mode"))],
        "depth": [str(graph.get("depth"))],
        "category": [str(f.get("kind")) for f in facts if isinstance(f, dict)],
        "style": [str(rec.get("style"))],
    }


#: Default pools ``tsolve stress`` draws from. The small windows let the
#: enumerator check 2-4 event puzzles (4 events over 28 days: 614,656 combinations).
STRESS_CHOICES: dict[str, list[Any]] = {
    "events": [2, 3, 4],
    "solutions": [0, 1, 2, 3, 4, 5, 6],
    "style": ["implicit", "explicit"],
    "backend": list(GENERATION_BACKENDS),
    "ask": ["tuples", "event"],
    "domain": [None, ["2024-01-15", "2024-02-11"], ["2023-11-20", "2024-01-28"]],
}


def stress_choices() -> dict[str, list[Any]]:
    return {k: list(v) for k, v in STRESS_CHOICES.items()}


def fuzz_records(seed: int) -> list[Record]:
    """2-4 events, both ask modes, answer counts 0-2, for the hostile-input campaign."""
    from tsolve.families.relational_puzzles.generate import (
        RelationalConfig,
        generate_relational_puzzle,
    )

    return [
        generate_relational_puzzle(seed, i, RelationalConfig(events=2 + i % 3,
                                   solutions=(1, 2, 0)[i % 3], ask=("tuples", "event")[i % 2]))
        for i in range(6)
    ]  # fmt: skip


def _styles(value: Any, name: str) -> str | tuple[str, ...]:
    from tsolve.generators.style_pairs import parse_styles

    return parse_styles(value, name)


def recognise(record: Record) -> bool:
    """A relational record that lost its ``family`` field still says its ``kind``."""
    return record.get("kind") == "relational"


def rederive(record: Record) -> Any:
    """Re-solve a stored puzzle as a user would on a record of unknown size:
    with a time limit, so that a huge answer set ends as ``partial``."""
    from tsolve.families.relational_puzzles.solve import solve_relational_record

    return solve_relational_record(record, "cpsat", time_limit=2.0)


CARD: dict[str, Any] = {
    "citation_of": "time-puzzles",  # the Time Puzzles paper's task, with several events
    "configs": {"style": "style", "solution_count": "M"},  # a Hub config per value
    "task": (
        "Relational puzzles: several events with unknown dates, facts about each and "
        "relations between them (before, after, N days apart); the question asks for one "
        "event's dates or all of them. The gold is a solver's enumeration."
    ),
    "limitations": "A tsolve extension of the Time Puzzles task; no published benchmark.",
    "papers": [
        "Zhengxiang Wang and Zeyu Dong, Measuring Iterative Temporal Reasoning with Time "
        "Puzzles, 2026, arXiv:2601.07148 (https://github.com/jaaack-wang/Time-Puzzles)"
    ],
}


SHORTCUT_CELLS: dict[str, dict[str, Any]] = {
    mode: {"ask": mode} for mode in ("tuples", "event", "mixed")
}
"""The configurations ``tsolve stress --shortcuts`` probes one by one: each
ask mode (``--set ask=event``): every event's dates as tuples, one event's
dates, or the two interleaved."""


FAMILY = Family(
    name="relational-puzzles",
    description="Relational puzzles: several events, one or more unknown dates",
    version=Lazy("tsolve.families.relational_puzzles.generate:GENERATOR_VERSION"),
    generate=Lazy("tsolve.families.relational_puzzles.generate:generate_relational_puzzle"),
    options={
        "events": parse_int,
        "solutions": parse_int_list,
        "facts": optional(parse_int),
        "style": _styles,
        "backend": parse_text,
        "ask": parse_text,
        "domain_start": optional(parse_text),
        "domain_end": optional(parse_text),
        "max_attempts": parse_int,
    },
    build=build,
    summarize=summarize,
    fingerprint=Lazy("tsolve.families.relational_puzzles.fingerprint:relational_fingerprint"),
    invariants=Lazy("tsolve.families.relational_puzzles.invariants:relational_invariants"),
    stress_choices=stress_choices,
    score=Lazy("tsolve.families.relational_puzzles.score:score_relational"),
    answer=Lazy("tsolve.families.relational_puzzles.score:relational_answer"),
    compact_gold=Lazy("tsolve.families.relational_puzzles.compact:relational_gold"),
    score_compact=Lazy("tsolve.families.relational_puzzles.compact:score_relational_gold"),
    difficulty=Lazy("tsolve.families.relational_puzzles.facets:difficulty_knobs"),
    curriculum={"events": (2, 3, 4)},
    curriculum_notes={"events": "unknown dates to find"},
    report_breakdowns=Lazy("tsolve.families.relational_puzzles.facets:report_breakdowns"),
    answer_marker="MY ANSWER:",
    audit=Lazy("tsolve.families.relational_puzzles.audit:audit_relational"),
    explain=Lazy("tsolve.families.relational_puzzles.audit:explain"),
    fuzz_records=fuzz_records,
    # a mutated record can have millions of answer tuples: the time limit makes it "partial"
    rederive=Lazy("tsolve.families.relational_puzzles.family:rederive"),
    solve=Lazy("tsolve.families.relational_puzzles.solve:solve_relational_record"),
    shortcut_cells=Lazy("tsolve.families.relational_puzzles.family:SHORTCUT_CELLS"),
    recognise=recognise,
    card=CARD,
    typed_forms=(("any", "solver", dict),),
    strata={"style": ("implicit", "explicit")},
    adversarial_item=Lazy("tsolve.families.relational_puzzles.adversarial:relational_item"),
    adversarial_rotate="ask",  # tuples or one event's dates: both strata in every run
    honest_gold=Lazy("tsolve.families.relational_puzzles.honest:relational_gold"),
    honest_styles=Lazy("tsolve.families.relational_puzzles.honest:STYLES"),
    shortcut_probes=(Lazy("tsolve.families.relational_puzzles.shortcut_probes:PROBES"),),
)
