"""The ``time-puzzles`` family, declared once: every date that satisfies a set
of facts (the Time Puzzles paper). Its parts sit beside this file in
``families/time_puzzles/``: generator ``generate.py`` (its parts: ``config.py``, ``search/``,
``record.py``; + ``invariants.py``),
solver ``solve.py``, scorer ``score.py``, auditor ``audit.py``, bench cases
``bench.py``; its commands are ``cli.py``."""

from __future__ import annotations

from typing import Any

from tsolve.contract.family import Command, Family, Lazy, Record
from tsolve.generators.options import optional, parse_bool, parse_int, parse_str_list, parse_text
from tsolve.solver.backend_names import GENERATION_BACKENDS, check_backend


def _solutions(value: Any, name: str) -> int | tuple[int, ...] | str:
    from tsolve.families.time_puzzles.generate import parse_solutions

    return parse_solutions(value, name)


def _styles(value: Any, name: str) -> str | tuple[str, ...]:
    from tsolve.generators.style_pairs import parse_styles

    return parse_styles(value, name)


def minimal_by_default(facts: int | None, solutions: Any, trivial_contradictions: bool) -> bool:
    """Whether a puzzle is minimal when no ``--minimal``/``--no-minimal`` is
    given: yes, as in ``tsolve puzzle`` and ``tsolve dataset`` alike (a fact
    that can be dropped without changing the answers tests nothing), unless the
    other options ask for what cannot be minimal: more than
    ``MAX_MINIMAL_FACTS`` facts, or zero-answer puzzles made by one swapped
    fact (``trivial_contradictions``, whose clash leaves the rest unneeded).
    One home for the rule, so the two commands cannot drift apart.
    ``solutions`` is anything ``parse_solutions`` reads (3, "1-6", (0, 2))."""
    from tsolve.families.time_puzzles.generate import MAX_MINIMAL_FACTS, parse_solutions

    if facts is not None and facts > MAX_MINIMAL_FACTS:
        return False
    if trivial_contradictions:
        sols = parse_solutions(solutions) if solutions is not None else 1
        return 0 not in (sols if isinstance(sols, tuple) else (sols,))
    return True


#: Named generation settings (``--preset NAME``, option ``preset``): each a
#: set of options, under any the caller gives. ``paper`` is the Time Puzzles
#: paper's own setting (arXiv:2601.07148; its generator's defaults): 4-6
#: facts (the default draw), answer sets of 0-6 dates cycled over the run, the
#: years 1800-2050 (its ``start_year``/``end_year``), and, as its Algorithm 1
#: does, a historical event as every puzzle's knowledge anchor
#: (``anchors``: its generator seeds every puzzle from a knowledge-base event;
#: presidents, people and sports events still appear as other facts, as they
#: do there). With the anchor drawn among all four knowledge kinds, a fifth of
#: the facts were presidents, people and sports events where the paper's 700
#: puzzles have 6 % (docs/paper-distributions.md). Like the paper's, its
#: puzzles are not minimal, and a zero-answer puzzle has one fact drawn from
#: another date (``trivial_contradictions``), so every puzzle keeps its 4-6
#: facts (a minimal unsatisfiable set may have 3).
PRESETS: dict[str, dict[str, Any]] = {
    "paper": {
        "solutions": (0, 1, 2, 3, 4, 5, 6),
        "facts": None,
        "domain_start": "1800-01-01",
        "domain_end": "2050-12-31",
        "minimal": False,
        "trivial_contradictions": True,
        "anchors": ("event_relation",),
    },
}


def with_preset(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` over the preset it names (``preset``), without the name; a
    one-line error for an unknown preset."""
    from tsolve.errors import TsolveError

    kw = dict(opts)
    name = kw.pop("preset", None)
    if name is None:
        return kw
    if name not in PRESETS:
        raise TsolveError(f"preset: unknown preset {name!r} (known: {', '.join(PRESETS)})")
    given = {k: v for k, v in kw.items() if v is not None}
    return {**PRESETS[name], **given}


def build(opts: dict[str, Any]) -> Any:
    """Options -> ``PuzzleConfig``. Puzzles are minimal unless asked otherwise
    (:func:`minimal_by_default`, docs/formats.md); a ``preset`` supplies the
    options the caller leaves out (:data:`PRESETS`)."""
    from tsolve.calendars.domain import DateDomain
    from tsolve.families.time_puzzles.generate import PuzzleConfig

    kw = with_preset(opts)
    start = kw.pop("domain_start", None)
    end = kw.pop("domain_end", None)
    if start is not None or end is not None:
        kw["domain"] = DateDomain.from_dates(start, end)
    kw = {k: v for k, v in kw.items() if v is not None or k == "facts"}
    if "minimal" not in kw:
        kw["minimal"] = minimal_by_default(
            kw.get("facts"), kw.get("solutions"), bool(kw.get("trivial_contradictions"))
        )
    check_backend(kw.get("backend", "cpsat"), GENERATION_BACKENDS)
    return PuzzleConfig(**kw)


def summarize(rec: Record) -> dict[str, list[str]]:
    facts = rec.get("facts") or []
    return {
        "solutions": [str(rec.get("solution_count", len(rec.get("answers") or [])))],
        # The measured label (generator version 3); older records: the fact count.
        "facts": [str(len(facts))],
        "difficulty": [str((rec.get("difficulty") or {}).get("label") or "unmeasured")],
        "category": [str(f.get("kind")) for f in facts if isinstance(f, dict)],
        "style": [str(rec.get("style"))],
    }


#: Default pools ``tsolve stress`` draws random time-puzzle settings from. The
#: pseudo-option ``domain`` is a list of ``[start, end]`` pairs (``null`` for the
#: default domain), drawn as a pair so a random domain is never empty. Windows
#: outside 1800-2100 exercise the generator without the Chinese-lunar facts.
STRESS_CHOICES: dict[str, list[Any]] = {
    "solutions": [0, 1, 2, 3, 4, 5, 6],
    "facts": [None, 3, 4, 5, 6, 7],
    "style": ["implicit", "explicit"],
    "backend": list(GENERATION_BACKENDS),
    "domain": [
        None,
        ["1950-01-01", "1999-12-31"],
        ["2000-01-01", "2049-12-31"],
        ["1800-01-01", "2199-12-31"],
    ],
}


def stress_choices() -> dict[str, list[Any]]:
    return {k: list(v) for k, v in STRESS_CHOICES.items()}


def recognise(record: Record) -> bool:
    """The paper's own items carry no ``family`` field: facts and answers."""
    return "facts" in record and "answers" in record and "events" not in record


def fuzz_records(seed: int) -> list[Record]:
    """Both styles and answer counts 0-3, for the hostile-input campaign."""
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles

    implicit = PuzzleConfig(solutions=(0, 1, 2, 3))
    explicit = PuzzleConfig(solutions=(2,), style="explicit")
    return [*generate_puzzles(4, seed, implicit), *generate_puzzles(2, seed, explicit)]


def rederive(record: Record) -> Any:
    """Re-solve a stored puzzle as a user would on a record of unknown size:
    with a time limit, so that a huge answer set ends as ``partial``."""
    from tsolve.families.time_puzzles.solve import solve_record

    return solve_record(record, "cpsat", time_limit=2.0)


CARD: dict[str, Any] = {
    "configs": {"style": "style", "solution_count": "M"},  # a Hub config per value
    "task": (
        "Each item gives a few facts about one unknown date (a weekday, a month, a Chinese "
        "zodiac year, a year some person was alive, ...) and asks for every date in the domain "
        "that satisfies all of them: none, one or several. `prompt` is the question as a model "
        "sees it; `answers` is the gold set (ISO dates), found by a constraint solver that "
        "enumerated the whole domain; a reply ends `MY ANSWER: <dates>` and is scored by "
        "exact match, F1 and Jaccard over the date sets (tsolve verify)."
    ),
    "readings": (
        "A puzzle is kept only if every reading of its facts gives the same answer set: "
        "`readings` lists those checked (`canonical`, and e.g. `lunar-other-sources`, where "
        "published Chinese lunar tables disagree). With `--minimal` (the dataset default) "
        "every fact is proven necessary (`without`: the answer-set size with each fact left "
        "out)."
    ),
    "limitations": (
        "Knowledge-based facts (presidents, sports events, lifetimes) are as of "
        "`generator.params.knowledge_as_of`; Chinese-lunar facts hold only inside the tables' "
        "1800-2100 range. The measured `difficulty` is tsolve's own estimate, not the paper's."
    ),
    "papers": [
        "Zhengxiang Wang and Zeyu Dong, Measuring Iterative Temporal Reasoning with Time "
        "Puzzles, 2026, arXiv:2601.07148 (https://github.com/jaaack-wang/Time-Puzzles)"
    ],
    "citation": """@misc{time_puzzles,
  title = {Measuring Iterative Temporal Reasoning with Time Puzzles},
  author = {Wang, Zhengxiang and Dong, Zeyu},
  year = {2026},
  eprint = {2601.07148},
  archivePrefix = {arXiv},
  primaryClass = {cs.CL},
  url = {https://arxiv.org/abs/2601.07148},
  note = {Code and data: https://github.com/jaaack-wang/Time-Puzzles}
}""",
}


#: The answer-set sizes ``tsolve stress --shortcuts`` probes one by one: the
#: paper's range (``--solutions 0-6``), each size a configuration of its own.
SHORTCUT_SIZES = (0, 1, 2, 3, 4, 5, 6)

SHORTCUT_CELLS: dict[str, dict[str, Any]] = {
    f"{style}/{size}": {"style": style, "solutions": size}
    for style in ("implicit", "explicit")
    for size in SHORTCUT_SIZES
}
"""The configurations ``tsolve stress --shortcuts`` probes one by one: each
wording style x answer-set size (``--style explicit --solutions 3``): a
policy that pays only on empty answers, or only where the dates are spelled
out, shows in its own cell."""


FAMILY = Family(
    name="time-puzzles",
    description="Time Puzzles: every date that satisfies a set of facts",
    version=Lazy("tsolve.families.time_puzzles.generate:GENERATOR_VERSION"),
    generate=Lazy("tsolve.families.time_puzzles.generate:generate_puzzle"),
    options={
        "solutions": _solutions,
        "facts": optional(parse_int),
        "style": _styles,
        "backend": parse_text,
        "domain_start": optional(parse_text),
        "domain_end": optional(parse_text),
        "categories": optional(parse_str_list),
        "anchors": optional(parse_str_list),
        "max_attempts": parse_int,
        "minimal": parse_bool,
        "trivial_contradictions": parse_bool,
        "difficulty": optional(parse_text),
        "preset": optional(parse_text),
    },
    build=build,
    summarize=summarize,
    fingerprint=Lazy("tsolve.families.time_puzzles.fingerprint:time_puzzle_fingerprint"),
    answer_fingerprint=Lazy(
        "tsolve.families.time_puzzles.fingerprint:time_puzzle_answer_fingerprint"
    ),
    invariants=Lazy("tsolve.families.time_puzzles.invariants:time_puzzle_invariants"),
    stress_choices=stress_choices,
    score=Lazy("tsolve.families.time_puzzles.score:score_puzzle"),
    scorers={"paper": Lazy("tsolve.families.time_puzzles.paper_score:score_paper")},
    answer=Lazy("tsolve.families.time_puzzles.score:time_puzzle_answer"),
    compact_gold=Lazy("tsolve.families.time_puzzles.compact:time_puzzle_gold"),
    score_compact=Lazy("tsolve.families.time_puzzles.compact:score_time_puzzle_gold"),
    diagnostic_metrics=("alt_reading",),
    difficulty=Lazy("tsolve.families.time_puzzles.facets:difficulty_knobs"),
    # Levels ordered by the measured score of time_puzzles/difficulty.py (facts
    # needed to fix the answer + implicit facts + 2 for the Chinese calendar):
    # on 12 puzzles per cell (seed 1) the mean rose with both, explicit 4.3,
    # 6.0, 7.0, 8.0 and implicit 5.3, 7.0, 8.5, 9.3 for 3..6 facts. Seven facts
    # and more are not minimal puzzles and measure easier, so they are no
    # level; the generator's own `difficulty` filter is not used (with M fixed
    # it often finds no easy or medium puzzle in 200 tries).
    curriculum={"facts": (3, 4, 5, 6), "style": ("explicit", "implicit")},
    curriculum_notes={
        "facts": "facts per puzzle (minimal puzzles)",
        "style": "dates given (explicit) or named by events (implicit)",
    },
    report_breakdowns=Lazy("tsolve.families.time_puzzles.facets:report_breakdowns"),
    answer_marker="MY ANSWER:",
    diagnose_batch=Lazy("tsolve.families.time_puzzles.score:diagnose_puzzles"),
    audit=Lazy("tsolve.families.time_puzzles.audit:audit_time_puzzle"),
    explain=Lazy("tsolve.families.time_puzzles.audit:explain"),
    recognise=recognise,
    fuzz_records=fuzz_records,
    rederive=rederive,
    solve=Lazy("tsolve.families.time_puzzles.solve:solve_record"),
    solve_check=Lazy("tsolve.families.time_puzzles.solve_records:solve_records"),
    bench=Lazy("tsolve.families.time_puzzles.bench:bench_time_puzzles"),
    cli=Lazy("tsolve.families.time_puzzles.cli:register"),
    scaling_surfaces=Lazy("tsolve.families.time_puzzles.scaling:scaling_surfaces"),
    paper_tables=Lazy("tsolve.families.time_puzzles.paper_tables:TABLES"),
    commands=(
        Command(
            "puzzle",
            "Generate time puzzles whose answer sets have exactly M dates (or M date tuples).",
        ),
        Command(
            "solve",
            "Recompute each puzzle's full answer set with a solver, or solve puzzles in English.",
        ),
    ),
    import_cli=Lazy("tsolve.families.time_puzzles.cli_import:register"),
    adversarial_item=Lazy("tsolve.stress.adversarial:date_item"),
    # Answer sets of every size the generator makes, so "None" and list
    # policies meet empty, single and multi-date golds.
    adversarial_options={"solutions": "0,1,2,3"},
    honest_gold=Lazy("tsolve.families.time_puzzles.honest:time_puzzle_gold"),
    honest_styles=Lazy("tsolve.families.time_puzzles.honest:STYLES"),
    shortcut_probes=(Lazy("tsolve.families.time_puzzles.shortcut_probes:PROBES"),),
    fuzz_surfaces={
        "solve-text": Lazy("tsolve.families.time_puzzles.fuzz:solve_text_case"),
        "library-args": Lazy("tsolve.families.time_puzzles.fuzz:library_args"),
    },
    strategies={"puzzle_configs": Lazy("tsolve.families.time_puzzles.strategies:puzzle_configs")},
    card=CARD,
    typed_forms=(
        ("any", "solver", dict),
        ("any", "difficulty", dict),
        ("any", "difficulty.sizes_by_information_gain", list),
        ("with answers", "contradiction", dict),
    ),
    shortcut_cells=Lazy("tsolve.families.time_puzzles.family:SHORTCUT_CELLS"),
    # easy / medium need few facts: with 6 (drawn 4..6 by default) an implicit
    # puzzle scores >= 7, so those strata ask for 4 unless --facts is given.
    strata={
        "difficulty": (
            {"difficulty": "easy", "facts": 4},
            {"difficulty": "medium", "facts": 4},
            "hard",
        ),
        "style": ("implicit", "explicit"),
    },
)
