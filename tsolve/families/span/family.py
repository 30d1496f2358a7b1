"""The ``span`` family, declared once: SPAN-style cross-calendar questions.
Its parts sit beside this file in ``families/span/``: generator
``generate.py`` (+ ``invariants.py``), scorer ``score.py``, auditor
``audit.py``, bench cases ``bench.py``; its commands are
``cli.py``."""

from __future__ import annotations

from typing import Any

from tsolve.contract.family import Command, Family, Lazy, Record
from tsolve.generators.options import optional, parse_bool, parse_date_range, parse_int, parse_text


def build(opts: dict[str, Any]) -> Any:
    """Options -> ``SpanConfig``. Bounds that no record could meet fail here,
    once, not once per record."""
    from tsolve.families.span.generate import SpanConfig, plan

    cfg = SpanConfig(**opts)
    plan(cfg)
    return cfg


def summarize(rec: Record) -> dict[str, list[str]]:
    return {
        "answer": [str(rec.get("answer"))] if rec.get("format") == "polar" else ["(date)"],
        "direction": [str(rec.get("direction"))],
        "category (type)": [str(rec.get("type"))],
        "difficulty (format)": [str(rec.get("format"))],
    }


STRESS_CHOICES: dict[str, list[Any]] = {
    # One pool for both ways of choosing "today" (``date`` and ``date_range``
    # exclude each other): null is the default window, a one-day window is a
    # one-date run, and the widest window reaches the calendars' ends.
    "date_range": [
        None,
        "2024-07-01",
        "1950-03-15",
        "2001-09-11",
        "2063-12-31",
        "1912-02-18",
        "1900-01-31..2100-12-31",
        "2055-01-01..2064-12-31",
    ],
    "max_days": [1, 30, 100, 1000],
    "max_weeks": [1, 20, 100],
    "max_years": [1, 10, 40],
    "balanced": [True, False],
    "format": [None, "polar", "content"],
    "type": [None, "date", "festival"],
}


def stress_choices() -> dict[str, list[Any]]:
    return {k: list(v) for k, v in STRESS_CHOICES.items()}


def fuzz_records(seed: int) -> list[Record]:
    """Every seventh of 40 questions: all formats and several directions."""
    from tsolve.families.span.generate import SpanConfig, generate_questions

    return list(generate_questions(40, seed, SpanConfig()))[::7]


CARD: dict[str, Any] = {
    "configs": {"type": "type", "format": "format"},  # a Hub config per value
    "task": (
        "SPAN-style cross-calendar questions from a reference date: convert a date or a "
        "festival between six calendars (Gregorian, Chinese lunar, Hebrew, Islamic, Persian, "
        "Shaka), polar (Yes/No) or content (a date). The gold comes from tsolve's calendar "
        "tables, and the scorer is symbolic, not an LLM judge."
    ),
    "readings": (
        "Where calendar authorities disagree (month starts of the observed Islamic calendar, "
        "Chinese lunar tables), each question's answer is computed under every reading, and "
        "the gold is kept only where the readings agree (`tsolve audit`)."
    ),
    "limitations": (
        "Each question's reference date is drawn from 1960-2060 (the paper's range) unless "
        "a window or one date is given. From one date the content domain is small: long "
        "runs repeat questions (`tsolve dataset` warns); the splits drop repeats across "
        "splits only."
    ),
    "papers": [
        "SPAN: Benchmarking and Improving Cross-Calendar Temporal Reasoning of Large "
        "Language Models"
    ],
    "citation": """@misc{span,
  title = {{SPAN}: Benchmarking and Improving Cross-Calendar Temporal Reasoning of
           Large Language Models},
  author = {{The SPAN authors}},
  note = {The paper's text names no authors, year or venue; code and data at the URL},
  url = {https://github.com/miaozhongjian/span}
}""",
}


SHORTCUT_CELLS: dict[str, dict[str, Any]] = {
    f"{fmt}/{qtype}": {"format": fmt, "type": qtype}
    for fmt in ("polar", "content")
    for qtype in ("date", "festival")
}
"""The configurations ``tsolve stress --shortcuts`` probes one by one: each
format x type, every direction in each (``--set format=polar --set type=date``)."""

TRAIN_WINDOWS = ("1905-01-01..1959-12-31", "2061-01-01..2095-12-31")
"""Where SPAN's shortcut probes learn (:func:`shortcut_train_options`): years
of the calendars' range outside SPAN's evaluation window (1960-2060),
the first of them that a cell's window leaves free."""


def shortcut_train_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of the runs SPAN's shortcut probes are fitted on: the
    cell's, with reference dates from a window of other years
    (:data:`TRAIN_WINDOWS`).

    Every SPAN answer is an entry of a conversion table, the day a month of
    the target calendar starts, and a window of a century holds about 1,250
    months per calendar. Fitted on records of the same window, a learner
    learns those entries (the polar/date calendar probe scored 0.52 fitted
    on 1,200 records and 0.55-0.67 on 4,500 per direction, but 0.47-0.52
    fitted on 1,200 records of 1905-1959): that is the conversion itself,
    learnt by rote, not a way around it. A rough conversion that skips it pays in any years, so the
    probes learn in other years and are scored in the cell's."""
    from tsolve.errors import TsolveError
    from tsolve.families.span.generate import window_days

    lo, hi = window_days(build(options))
    for window in TRAIN_WINDOWS:
        first, last = window_days(build({"date_range": window}))
        if last < lo or first > hi:
            out = {k: v for k, v in options.items() if k not in ("date", "date_range")}
            return {**out, "date_range": window}
    raise TsolveError(f"date-range: no window of other years to fit the probes on ({options})")


FAMILY = Family(
    name="span",
    description="SPAN-style cross-calendar questions",
    version=Lazy("tsolve.families.span.generate:GENERATOR_VERSION"),
    generate=Lazy("tsolve.families.span.generate:generate_question"),
    options={
        "date": optional(parse_text),
        "date_range": optional(parse_date_range),
        "max_days": parse_int,
        "max_weeks": parse_int,
        "max_years": parse_int,
        "balanced": parse_bool,
        "format": optional(parse_text),
        "type": optional(parse_text),
    },
    build=build,
    summarize=summarize,
    fingerprint=Lazy("tsolve.families.span.fingerprint:span_fingerprint"),
    answer_fingerprint=Lazy("tsolve.families.span.fingerprint:span_answer_fingerprint"),
    domain_warnings=Lazy("tsolve.families.span.generate:domain_warnings"),
    invariants=Lazy("tsolve.families.span.invariants:span_invariants"),
    stress_choices=stress_choices,
    score=Lazy("tsolve.families.span.score:score_span"),
    answer=Lazy("tsolve.families.span.score:span_answer"),
    compact_gold=Lazy("tsolve.families.span.compact:span_gold"),
    score_compact=Lazy("tsolve.families.span.compact:score_span_gold"),
    diagnostic_metrics=("alt_reading",),
    difficulty=Lazy("tsolve.families.span.facets:difficulty_knobs"),
    # A longer offset is more counting and more month and year lengths of the
    # target calendar to get right. Ordered by the arithmetic asked (the mean
    # offset grows with the level), not by a measured gap: the table-free
    # estimator (polar_baseline.py) gets 53-59 % of polar items right at every
    # level (100 polar items per level, seed 1), since the near misses, not the
    # offsets, are what defeat it (docs/rl.md).
    curriculum={
        "max_days": (7, 30, 100, 365, 1000),
        "max_weeks": (2, 8, 20, 52, 150),
        "max_years": (1, 3, 10, 20, 40),
    },
    curriculum_notes={
        "max_days": "largest offset in days",
        "max_weeks": "largest offset in weeks",
        "max_years": "largest offset in years (festival questions)",
    },
    report_columns=("reference_year", "direction", "type", "format"),
    report_breakdowns=Lazy("tsolve.families.span.facets:report_breakdowns"),
    row_hint="these are SPAN questions; score answers with tsolve verify, check gold with "
    "tsolve audit",
    answer_marker="MY ANSWER:",
    audit=Lazy("tsolve.families.span.audit:audit_span"),
    explain=Lazy("tsolve.families.span.audit:explain"),
    fuzz_records=fuzz_records,
    bench=Lazy("tsolve.families.span.bench:bench_span"),
    cli=Lazy("tsolve.families.span.cli:register"),
    scaling_surfaces=Lazy("tsolve.families.span.scaling:scaling_surfaces"),
    paper_tables=Lazy("tsolve.families.span.paper_tables:TABLES"),
    commands=(
        Command(
            "span", "Generate SPAN-style questions (10 directions, date/festival, polar/content)."
        ),
    ),
    card=CARD,
    typed_forms=(
        ("any", "gold.text", str),
        ("any", "gold.month_name", str),
        ("any", "params.reference_date.text", str),
        ("any", "params.reference_date.month_name", str),
        ("any", "params.reference_date.gregorian", str),
        ("any", "params.reference_date.calendar", str),
        ("format=polar", "params.candidate.text", str),
        ("format=polar", "params.candidate.month_name", str),
        ("format=polar", "params.candidate.gregorian", str),
        ("format=polar", "params.candidate.leap", bool),
    ),
    shortcut_cells=Lazy("tsolve.families.span.family:SHORTCUT_CELLS"),
    shortcut_train_options=Lazy("tsolve.families.span.family:shortcut_train_options"),
    adversarial_item=Lazy("tsolve.families.span.adversarial:span_item"),
    adversarial_scale=2,  # half yes/no, half dates: twice the records
    honest_gold=Lazy("tsolve.families.span.honest:span_gold"),
    honest_styles=Lazy("tsolve.families.span.honest:STYLES"),
    shortcut_probes=(
        Lazy("tsolve.families.span.shortcut_probes:PROBES"),
        # Still in the stress folder while other work edits it; moves here next.
        Lazy("tsolve.families.span.yes_no_probes:SPAN_PROBES"),
    ),
    shortcut_file_probes=Lazy("tsolve.families.span.yes_no_probes:position_probes"),
)
