"""The ``logistics`` family, declared once: UnSeenTimeQA-style logistics
timelines with parallel events. Its parts sit beside this file in
``families/logistics/``: generator ``generate/`` (+ ``invariants.py``),
solver ``schedule.py``, scorer ``score.py``, auditor ``audit.py``, bench
cases ``bench.py``; its commands are ``cli.py``."""

from __future__ import annotations

from typing import Any

from tsolve.contract.family import Command, Family, Lazy, Record
from tsolve.generators.options import optional, parse_int, parse_text


def build(opts: dict[str, Any]) -> Any:
    from tsolve.families.logistics.generate import GenerateParams

    return GenerateParams(**opts)


def summarize(rec: Record) -> dict[str, list[str]]:
    answers = rec.get("answers")
    return {
        "answers": [str(len(answers)) if isinstance(answers, list) else "?"],
        "category (question)": [str(rec.get("question_type"))],
        "difficulty": [str(rec.get("data_split", rec.get("difficulty")))],
        "execution": [str(rec.get("execution"))],
        "depth": [str(rec.get("depth"))],
    }


STRESS_CHOICES: dict[str, list[Any]] = {
    "difficulty": ["easy", "medium", "hard"],
    "execution": ["serial", "parallel"],
    "question": ["static", "relative", "hypothetical"],
    "depth": [None, 2, 6, 12, 20],
}


def stress_choices() -> dict[str, list[Any]]:
    return {k: list(v) for k, v in STRESS_CHOICES.items()}


def shortcut_cells() -> dict[str, dict[str, Any]]:
    """Every configuration a user can ask for, for ``tsolve stress --shortcuts``:
    difficulty x execution x question type (``easy/serial/static``, ...), in
    the default asked-minute mix. ``asked_minute=unseentimeqa`` is left out:
    it keeps split 1's mix, and with it the shortcut of reading the event in
    progress, on purpose (docs/logistics.md, "The event in progress")."""
    strata = FAMILY.strata
    return {
        f"{d}/{e}/{q}": {"difficulty": d, "execution": e, "question": q}
        for d in strata["difficulty"]
        for e in strata["execution"]
        for q in strata["question"]
    }


def recognise(record: Record) -> bool:
    """UnSeenTimeQA's own items carry no ``family`` field: events and a question."""
    return "events" in record and "question" in record


def fuzz_records(seed: int) -> list[Record]:
    """Four kinds of question, each also in the benchmark's own form (without
    the structured fields), which exercises the English reader."""
    from tsolve.families.logistics.generate import GenerateParams, generate_record

    out: list[Record] = []
    kinds = [
        GenerateParams("easy", "serial", "static", None),
        GenerateParams("medium", "serial", "relative", None),
        GenerateParams("hard", "serial", "hypothetical", None),
        GenerateParams("hard", "parallel", "relative", None),
    ]
    for k, params in enumerate(kinds):
        rec = generate_record(seed, k, params)
        out.append(rec)
        raw = {key: v for key, v in rec.items() if key not in ("scenario", "structured_question")}
        out.append({**raw, "id": f"{rec['id']}-text"})
    return out


def rederive(record: Record) -> Any:
    """Answer a stored question from its own text and structure; an answer the
    answerer could only report through its backstop is a failure."""
    from tsolve.errors import INTERNAL
    from tsolve.families.logistics.answer_items import answer_item

    answered = answer_item(record)
    if answered.error is not None and INTERNAL in answered.error:
        raise AssertionError(answered.error)
    return answered


CARD: dict[str, Any] = {
    "configs": {"data_split": "difficulty", "question_type": "question"},  # a Hub config per value
    "task": (
        "UnSeenTimeQA-style logistics timelines: synthetic events (packages, trucks, "
        "departures and arrivals) with serial or parallel execution, and a static, relative "
        "or hypothetical question about a time. The gold comes from tsolve's schedule "
        "solver, cross-checked by CP-SAT."
    ),
    "readings": (
        "Every reading of the question's wording (tsolve/families/logistics/readings.py) is "
        "answered, and an item is kept only if they agree (`tsolve audit`)."
    ),
    "limitations": (
        "Templates follow the paper's Appendix C; wording outside them is not generated."
    ),
    "papers": [
        "Uddin et al., UnSeenTimeQA: Time-Sensitive Question-Answering Beyond LLMs' Memorization"
    ],
    "citation": """@inproceedings{unseentimeqa,
  title = {{UnSeenTimeQA}: Time-Sensitive Question-Answering Beyond {LLMs}' Memorization},
  author = {Uddin, Md Nayem and Saeidi, Amir and Handa, Divij and Seth, Agastya
            and Son, Tran Cao and Blanco, Eduardo and Corman, Steven R. and Baral, Chitta},
  booktitle = {Proceedings of the 63rd Annual Meeting of the Association for
               Computational Linguistics (ACL 2025)},
  year = {2025},
  eprint = {2407.03525},
  archivePrefix = {arXiv},
  url = {https://arxiv.org/abs/2407.03525}
}""",
}


FAMILY = Family(
    name="logistics",
    description="UnSeenTimeQA-style logistics timelines",
    version=Lazy("tsolve.families.logistics.generate:GENERATOR_VERSION"),
    generate=Lazy("tsolve.families.logistics.generate:generate_record"),
    options={
        "difficulty": parse_text,
        "execution": parse_text,
        "question": parse_text,
        "depth": optional(parse_int),
        "asked_minute": parse_text,
    },
    build=build,
    summarize=summarize,
    fingerprint=Lazy("tsolve.families.logistics.fingerprint:logistics_fingerprint"),
    answer_fingerprint=Lazy("tsolve.families.logistics.fingerprint:logistics_answer_fingerprint"),
    invariants=Lazy("tsolve.families.logistics.invariants:logistics_invariants"),
    stress_choices=stress_choices,
    score=Lazy("tsolve.families.logistics.score:score_logistics"),
    answer=Lazy("tsolve.families.logistics.score:logistics_answer"),
    compact_gold=Lazy("tsolve.families.logistics.compact:logistics_gold"),
    score_compact=Lazy("tsolve.families.logistics.compact:score_logistics_gold"),
    prompt=Lazy("tsolve.families.logistics.generate.prompt:shown_prompt"),
    gameable_metrics=("partial",),
    difficulty=Lazy("tsolve.families.logistics.facets:difficulty_knobs"),
    # The benchmark's split (more trucks, planes and packages) and the events in
    # the timeline (each one more step to track); execution and question type
    # stay free choices of the config.
    curriculum={"difficulty": ("easy", "medium", "hard"), "depth": (2, 4, 6, 9, 12, 16, 20)},
    curriculum_notes={
        "difficulty": "the benchmark's split: how many vehicles and packages",
        "depth": "events in the timeline",
    },
    report_columns=("difficulty", "question_type"),
    report_breakdowns=Lazy("tsolve.families.logistics.facets:report_breakdowns"),
    row_hint="these are logistics items (UnSeenTimeQA); use tsolve logistics answer FILE",
    answer_marker="Answer:",
    audit=Lazy("tsolve.families.logistics.audit:audit_logistics"),
    explain=Lazy("tsolve.families.logistics.audit:explain"),
    recognise=recognise,
    fuzz_records=fuzz_records,
    rederive=rederive,
    bench=Lazy("tsolve.families.logistics.bench:bench_logistics"),
    cli=Lazy("tsolve.families.logistics.cli:register"),
    scaling_surfaces=Lazy("tsolve.families.logistics.scaling:scaling_surfaces"),
    paper_tables=Lazy("tsolve.families.logistics.paper_tables:TABLES"),
    commands=(
        Command("logistics", "Logistics timelines with parallel events (UnSeenTimeQA).", True),
    ),
    card=CARD,
    typed_forms=(
        ("any", "solution", dict),
        ("any", "schedule", dict),
    ),
    strata={
        "difficulty": ("easy", "medium", "hard"),
        "execution": ("serial", "parallel"),
        "question": ("static", "relative", "hypothetical"),
    },
    shortcut_cells=shortcut_cells,
    adversarial_item=Lazy("tsolve.families.logistics.adversarial:logistics_item"),
    strategies={"logistics_params": Lazy("tsolve.families.logistics.strategies:logistics_params")},
    honest_gold=Lazy("tsolve.families.logistics.honest:logistics_gold"),
    honest_styles=Lazy("tsolve.families.logistics.honest:STYLES"),
    shortcut_probes=(
        Lazy("tsolve.families.logistics.shortcut_probes:PROBES"),
        # Still in the stress folder while other work edits it; moves here next.
        Lazy("tsolve.families.logistics.tracking_probes:PROBES"),
    ),
)
