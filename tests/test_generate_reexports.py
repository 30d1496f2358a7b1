"""``tsolve.families.time_puzzles.generate`` was one module before its parts
moved beside it (config.py, clashes.py, search/, reading_bounds.py,
prompt.py, record.py). Every name it defined then is still importable from
it, and is the very object its new home holds, so a caller (or a benchmark
that swaps one out) sees one thing, not a stale copy."""

from __future__ import annotations

import importlib

import pytest

import tsolve.families.time_puzzles.generate as gen

# The names generate.py defined at generator version 11, before the split.
BEFORE_SPLIT = [
    "GENERATOR_NAME",
    "GENERATOR_VERSION",
    "FAMILY",
    "IMPLICIT",
    "MAX_SOLUTIONS",
    "MAX_READING_REJECTIONS",
    "MAX_MINIMAL_FACTS",
    "MAX_NODES",
    "BRANCHES",
    "LAST_VARIANTS",
    "ANCHOR_TRIES",
    "BEAM",
    "HIT_BATCH_BYTES",
    "MINIMAL_SKIPPED_ANCHORS",
    "MINIMAL_SPARSE_FACTS",
    "MINIMAL_SKIPPED_CATEGORIES",
    "MINIMAL_ONE_DRAW",
    "PROMPT_TEMPLATE",
    "PuzzleConfig",
    "_CYCLE",
    "_REDUNDANT",
    "_CLASHES",
    "_compatible",
    "KIND_INDEX",
    "CLASH",
    "CLASH_BITS",
    "KIND_BITS",
    "_kind_bits",
    "_open_categories",
    "_LAST_ORDER",
    "_MINIMAL_ORDER",
    "determine_level",
    "_has_anchor",
    "_anchor_days",
    "ANCHOR_VIEWS",
    "_window_view",
    "WINDOW_VIEWS",
    "_Pool",
    "_Partial",
    "_Beam",
    "_DRAW_TABLES",
    "_SearchPlan",
    "_search_plan",
    "_Search",
    "same_under_readings",
    "_bound_ints",
    "BOUND_INTS",
    "_answers",
    "render_prompt",
    "ID_PREFIX",
    "puzzle_id",
    "id_fingerprint",
    "generate_puzzle",
    "generate_puzzles",
    "_check_position",
    "_call_config",
    "parse_solutions",
]

HOMES = {
    "PuzzleConfig": ("config", "PuzzleConfig"),
    "parse_solutions": ("config", "parse_solutions"),
    "_call_config": ("config", "call_config"),
    "CLASH": ("clashes", "CLASH"),
    "_open_categories": ("clashes", "open_categories"),
    "same_under_readings": ("reading_bounds", "same_under_readings"),
    "BOUND_INTS": ("reading_bounds", "BOUND_INTS"),
    "PROMPT_TEMPLATE": ("prompt", "PROMPT_TEMPLATE"),
    "puzzle_id": ("record", "puzzle_id"),
    "_Search": ("search.core", "PuzzleSearch"),
    "_search_plan": ("search.plan", "search_plan"),
    "BEAM": ("search.minimal", "BEAM"),
    "MAX_NODES": ("search.default", "MAX_NODES"),
    "ANCHOR_VIEWS": ("search.windows", "ANCHOR_VIEWS"),
}


def test_every_name_of_the_one_module_is_still_there() -> None:
    assert len(BEFORE_SPLIT) == 57
    assert [n for n in BEFORE_SPLIT if not hasattr(gen, n)] == []


@pytest.mark.parametrize("name", sorted(HOMES))
def test_a_reexport_is_its_home_s_object(name: str) -> None:
    module, attr = HOMES[name]
    home = importlib.import_module(f"tsolve.families.time_puzzles.{module}")
    assert getattr(gen, name) is getattr(home, attr)
