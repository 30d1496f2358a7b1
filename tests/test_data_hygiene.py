"""Balanced prefixes, no repeats, the overlap
check and the split, and ids unique across generator configs.

The checks count labels, prompts and ids in the generated records themselves;
nothing here is copied from the generator's output. Costs are kept small
(SPAN records take about a millisecond each; time puzzles a few)."""

from __future__ import annotations

import json
import random
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.datasets.overlap import find_overlap
from tsolve.datasets.split import parse_split, part_path
from tsolve.errors import TsolveError
from tsolve.families.logistics.generate import (
    GenerateParams,
    benchmark_item,
    generate_record,
    record_id,
)
from tsolve.families.relational_puzzles.generate import (
    RelationalConfig,
    generate_relational_puzzles,
)
from tsolve.families.relational_puzzles.generate import puzzle_id as rp_id
from tsolve.families.span.generate import (
    SpanConfig,
    domain_warnings,
    generate_questions,
    plan,
    span_id,
)
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.families.time_puzzles.generate import puzzle_id as tp_id

SETTINGS = settings(max_examples=examples(8), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def _windows_ok(labels: list[str], width: int = 20, lo: int = 6, hi: int = 14) -> bool:
    """Every ``width`` consecutive labels hold ``lo``..``hi`` of each of two values."""
    values = set(labels)
    for i in range(len(labels) - width + 1):
        c = Counter(labels[i : i + width])
        if any(not lo <= c[v] <= hi for v in values):
            return False
    return True


def _cli(*args: str) -> Any:
    """``tsolve ARGS`` in this process (exit code, stdout, stderr)."""
    return CliRunner().invoke(app, list(args))


# ------------------------------------------------------------ balanced prefixes


@settings(max_examples=examples(5), deadline=None)
@given(
    seed=st.integers(0, 2**31),
    start=st.integers(0, 5_000),
    date=st.sampled_from(["2024-07-01", "1950-03-15", "1910-05-05"]),
)
def test_span_blocks_anywhere_are_balanced(seed: int, start: int, date: str) -> None:
    dirs = plan(SpanConfig(date=date))
    # yes/no items only between Gregorian and Chinese or Hebrew, each cell twice
    n = len(dirs)
    p = sum(bool({"chinese", "hebrew"} & set(d)) for d in dirs)
    size = 2 * n + 4 * p  # a block: every direction x type of content, P x type of yes/no twice
    first = start // size * size  # wherever the run starts
    recs = list(generate_questions(2 * size, seed, SpanConfig(date=date), first))
    for block in (recs[:size], recs[size:]):
        cells = Counter((r["direction"], r["type"], r["format"]) for r in block)
        assert len(cells) == 2 * n + 2 * p
        assert {c for c, k in cells.items() if k == 2} == {c for c in cells if c[2] == "polar"}
    # and the order within a block is not the same from block to block
    assert [r["direction"] for r in recs[:size]] != [r["direction"] for r in recs[size:]]


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**31), group=st.integers(0, 20))
def test_span_cells_are_balanced_over_ten_blocks_and_pairs_tell_nothing(
    seed: int, group: int
) -> None:
    """Every yes/no cell (direction x type) holds as many "Yes" as "No" in
    each run of ten blocks (400 records) from a multiple of 400, and a
    cell's two records in one block are not tied (version 9 made them
    opposite in every block: one told the other)."""
    size = 40 * 10
    recs = list(generate_questions(size, seed, SpanConfig(), group * size))
    cells = Counter(
        (r["direction"], r["type"], r["answer"]) for r in recs if r["format"] == "polar"
    )
    assert len(cells) == 16 and set(cells.values()) == {10}
    opposite = total = 0
    for b in range(0, size, 40):
        by: dict[tuple[str, str], list[str]] = {}
        for r in recs[b : b + 40]:
            if r["format"] == "polar":
                by.setdefault((r["direction"], r["type"]), []).append(r["answer"])
        for labels in by.values():
            total += 1
            opposite += labels[0] != labels[1]
    # 80 pairs; with labels spread at random over a cell's 20 records, a pair
    # is opposite with probability 10/19: 42 expected, sd 4.5.
    assert total == 80 and 24 <= opposite <= 60


def test_span_first_twenty_and_the_facade_are_not_single_label() -> None:
    from tsolve.facade import create_dataset

    for seed in range(6):
        recs = list(generate_questions(80, seed, SpanConfig()))
        first = [r["answer"] for r in recs if r["format"] == "polar"][:20]
        assert len(first) == 20 and 5 <= first.count("Yes") <= 15  # sd 2.2 about 10
    ds = create_dataset("span", size=400)  # ten blocks of 40, 16 yes/no items each
    answers = Counter(e["answer"] for e in ds if e["metadata"]["record"]["format"] == "polar")
    assert answers["Yes"] == answers["No"] == 80


def test_span_file_positions_tell_nothing() -> None:
    # Version 5 interleaved cells record by record: 4k and 4k+2 had opposite
    # labels and directions cycled every 4 records.
    from tsolve.families.span.yes_no_probes import position_probes

    results = position_probes(list(generate_questions(480, 0)), list(generate_questions(480, 1)))
    assert {(r.probe, r.field) for r in results} >= {
        ("pair rule", "label"),
        ("cycle rule", "direction"),
    }
    for r in results:  # within three standard errors of chance (version 5: 0.75 to 1.0)
        assert r.score <= r.chance + 3 * (0.25 / r.n) ** 0.5, r


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 10**6), start=st.integers(0, 200))
def test_time_puzzle_solution_counts_cycle_in_every_window(seed: int, start: int) -> None:
    recs = list(generate_puzzles(22, seed, PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6)), start))
    ms = [r["solution_count"] for r in recs]
    for i in range(len(ms) - 20 + 1):
        c = Counter(ms[i : i + 20])
        assert set(c) == {1, 2, 3, 4, 5, 6} and all(3 <= v <= 4 for v in c.values())


def test_relational_mixed_asks_alternate() -> None:
    cfg = RelationalConfig(ask="mixed", solutions=(1, 2))
    recs = list(generate_relational_puzzles(22, 3, cfg, start=7))
    asks = [r["asked"]["mode"] for r in recs]
    assert _windows_ok(asks, lo=10, hi=10)
    assert _windows_ok([str(r["solution_count"]) for r in recs], lo=10, hi=10)


# ------------------------------------------------------------ no repeats


def test_span_seeds_1_and_2_share_no_prompt() -> None:
    a = [r["prompt"] for r in generate_questions(480, 1, SpanConfig())]
    b = [r["prompt"] for r in generate_questions(480, 2, SpanConfig())]
    assert len(set(a)) == len(a) == 480 and len(set(b)) == 480
    assert not set(a) & set(b)


@settings(max_examples=examples(8), deadline=None)
@given(
    seeds=st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True),
    count=st.integers(1, 480),
    date=st.sampled_from(["2024-07-01", "1987-03-05"]),
)
def test_span_runs_without_a_warning_are_disjoint(seeds: list[int], count: int, date: str) -> None:
    """The warning is exact in one direction: no warning means no shared question."""
    from tsolve.families.span.fingerprint import span_fingerprint

    cfg = SpanConfig(date=date)
    if any(domain_warnings(s, 0, count, cfg) for s in seeds):
        return  # said so: nothing is promised
    a, b = (list(generate_questions(count, s, cfg)) for s in seeds)
    fa, fb = ({span_fingerprint(r) for r in x} for x in (a, b))
    assert len(fa) == len(fb) == count and not fa & fb


def test_span_says_when_its_domain_is_too_small() -> None:
    cfg = SpanConfig(date="2024-07-01")  # one date: the default window's domain is not small
    assert domain_warnings(1, 0, 400, cfg) == []  # 10 blocks of 40: one seed band
    shared = domain_warnings(2, 0, 400, cfg)  # seed 2's Shaka festival band is seed 0's
    assert len(shared) == 1 and "seed 2" in shared[0]
    a = {r["question"] for r in generate_questions(400, 0, cfg)}
    b = {r["question"] for r in generate_questions(400, 2, cfg)}
    assert a & b  # the warning is not a false alarm
    repeats = domain_warnings(0, 0, 1200, cfg)  # 25 records of each cell, 20 questions
    assert len(repeats) == 1 and "repeats" in repeats[0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from tsolve.facade import create_dataset

        create_dataset("span", seed=0, size=1200, date="2024-07-01")
    assert any("repeats" in str(w.message) for w in caught)


def test_span_window_runs_say_when_festival_years_run_out(tmp_path: Any) -> None:
    """A default window (1960-2060, offsets up to 10 years) gives Shaka's one
    festival about 121 years; a run asking about 120 of them (4,800 records:
    one content item a block) fails its last draws, so it must say so first,
    and a run well inside (2,400 records, 60) neither warns nor fails."""
    from tsolve.datasets.writer import write_dataset

    cfg = SpanConfig()
    assert domain_warnings(5, 0, 2400, cfg) == []
    (line,) = domain_warnings(5, 0, 4800, cfg)
    assert "shaka->gregorian festival" in line and "--max-years" in line
    failed: list[int] = []
    write_dataset("span", {}, count=4800, out=tmp_path / "a.jsonl", seed=5,
                  on_failure=lambda i, _m: failed.append(i))  # fmt: skip
    assert failed  # the warning is not a false alarm
    failed.clear()
    write_dataset("span", {}, count=2400, out=tmp_path / "b.jsonl", seed=5,
                  on_failure=lambda i, _m: failed.append(i))  # fmt: skip
    assert failed == []


def test_span_cli_warns_in_one_line() -> None:
    res = _cli("span", "--date", "2024-07-01", "--count", "1200", "--seed", "0")
    assert res.exit_code == 0 and res.stderr.count("\n") == 1 and "warning" in res.stderr


def test_other_families_do_not_repeat_across_seeds() -> None:
    cfg = PuzzleConfig(solutions=(1, 2, 3))
    a = [r["prompt"] for r in generate_puzzles(12, 1, cfg)]
    b = [r["prompt"] for r in generate_puzzles(12, 2, cfg)]
    assert len(set(a) | set(b)) == 24
    params = GenerateParams("easy", "serial", "static")
    la = [generate_record(1, i, params)["prompt"] for i in range(4)]
    lb = [generate_record(2, i, params)["prompt"] for i in range(4)]
    assert len(set(la) | set(lb)) == 8


# ------------------------------------------------------------ ids


OPTION_SETS = st.fixed_dictionaries(
    {
        "solutions": st.sampled_from([1, 2, 4, (1, 2, 3), (1, 6)]),
        "facts": st.sampled_from([None, 4, 5]),
        "minimal": st.booleans(),
        "categories": st.sampled_from([None, ("month", "weekday")]),
    }
)


@SETTINGS
@given(a=OPTION_SETS, b=OPTION_SETS, seed=st.integers(0, 10**6))
def test_time_puzzle_ids_follow_the_options(
    a: dict[str, Any], b: dict[str, Any], seed: int
) -> None:
    ca, cb = PuzzleConfig(**a), PuzzleConfig(**b)
    ids_a = {tp_id(seed, i, s, ca) for i in range(20) for s in ("implicit", "explicit")}
    ids_b = {tp_id(seed, i, s, cb) for i in range(20) for s in ("implicit", "explicit")}
    assert len(ids_a) == 40  # unique within a file
    if a == b:
        assert ids_a == ids_b
    else:
        assert not ids_a & ids_b
    # what does not shape content leaves the id alone: backend, the style list
    same = PuzzleConfig(**a, backend="z3", style=("implicit", "explicit"))
    assert tp_id(seed, 3, "explicit", same) == tp_id(seed, 3, "explicit", ca)


@SETTINGS
@given(
    a=st.tuples(
        st.sampled_from(["easy", "medium", "hard"]),
        st.sampled_from(["serial", "parallel"]),
        st.sampled_from(["static", "relative", "hypothetical"]),
        st.sampled_from([None, 6, 12]),
    ),
    b=st.tuples(
        st.sampled_from(["easy", "hard"]),
        st.sampled_from(["serial", "parallel"]),
        st.sampled_from(["static", "relative"]),
        st.sampled_from([None, 6]),
    ),
    span_days=st.sampled_from([(100, 100), (100, 50), (30, 31)]),
)
def test_logistics_and_span_ids_follow_the_options(
    a: tuple[Any, ...], b: tuple[Any, ...], span_days: tuple[int, int]
) -> None:
    pa, pb = GenerateParams(*a), GenerateParams(*b)
    ia = {record_id(5, i, pa) for i in range(30)}
    ib = {record_id(5, i, pb) for i in range(30)}
    assert len(ia) == 30 and ((ia == ib) if a == b else not ia & ib)
    x, y = (SpanConfig(max_days=d) for d in span_days)
    sx = {span_id(5, x, i) for i in range(30)}
    sy = {span_id(5, y, i) for i in range(30)}
    assert len(sx) == 30 and ((sx == sy) if x == y else not sx & sy)


def test_the_issue_examples_no_longer_collide() -> None:
    def first_id(*args: str) -> str:
        res = _cli("puzzle", "--seed", "5", "--count", "1", "--format", "jsonl", *args)
        assert res.exit_code == 0, res.stderr
        rec = json.loads(res.stdout.splitlines()[0])
        return str(rec["id"])

    assert first_id("--events", "2") != first_id("--events", "3")
    two, four = first_id("--solutions", "2"), first_id("--solutions", "4")
    assert two != four and two.startswith("tp-5-0-") and two.endswith("-implicit")


def test_generated_ids_and_pairs_match_the_id_functions() -> None:
    cfg = PuzzleConfig(solutions=2, style=("implicit", "explicit"))
    a, b = generate_puzzles(2, 4, cfg)
    assert a["id"] == tp_id(4, 0, "implicit", cfg) and b["id"] == tp_id(4, 0, "explicit", cfg)
    assert a["pair"] == b["id"] and b["pair"] == a["id"]
    rcfg = RelationalConfig(style=("explicit", "implicit"))
    r, s = generate_relational_puzzles(2, 4, rcfg)
    assert r["id"] == rp_id(4, 0, "explicit", rcfg)
    assert r["pair"] == s["id"] == rp_id(4, 0, "implicit")
    params = GenerateParams()
    assert generate_record(4, 1, params)["id"] == record_id(4, 1, params)


# ------------------------------------------------------------ overlap and split


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_overlap_finds_planted_duplicates_whatever_their_ids(tmp_path: Path) -> None:
    rng = random.Random(0)
    cfg = PuzzleConfig(solutions=(1, 2), style=("implicit", "explicit"))
    both = list(generate_puzzles(6, 1, cfg))
    train_tp, other_style = both[0::2], both[1::2]  # implicit wordings; their explicit pairs
    span_train = list(generate_questions(40, 1, SpanConfig()))
    logi = [generate_record(1, i, GenerateParams("easy", "serial", "static")) for i in range(2)]
    train = _write(tmp_path / "train.jsonl", train_tp + span_train + logi)

    fresh = list(generate_questions(40, 7, SpanConfig(date="1987-03-05")))
    planted: list[dict[str, Any]] = []
    shuffled = dict(train_tp[1], id="renamed-1", pair="nothing")
    shuffled["facts"] = rng.sample(shuffled["facts"], len(shuffled["facts"]))
    planted.append(shuffled)  # same facts in another order, another id
    planted.append(dict(other_style[2], id=42))  # the other wording of a train puzzle
    planted.append(dict(span_train[5], id="span-copy", prompt=span_train[5]["question"]))
    planted.append({**benchmark_item(logi[1]), "id": "ut-7"})  # benchmark form, no structure
    evals = _write(tmp_path / "eval.jsonl", fresh[:10] + planted + fresh[10:])

    report = find_overlap(train, evals)
    assert report.overlap == 4 and report.eval_records == 44
    found = {p["eval_id"]: p["train_id"] for p in report.pairs}
    assert found == {
        "renamed-1": train_tp[1]["id"], 42: train_tp[2]["id"],
        "span-copy": span_train[5]["id"], "ut-7": logi[1]["id"],
    }  # fmt: skip
    res = _cli("dataset", "overlap", str(train), str(evals), "--format", "json")
    assert res.exit_code == 1 and json.loads(res.stdout)["overlap"] == 4
    clean = _write(tmp_path / "fresh.jsonl", fresh)
    res = _cli("dataset", "overlap", str(train), str(clean), "--format", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["overlap"] == 0
    res = _cli("dataset", "overlap", str(tmp_path / "missing.jsonl"), str(clean))
    # a TsolveError: tsolve's main() prints it as one line and exits 2
    assert isinstance(res.exception, TsolveError) and "no such file" in str(res.exception)


def test_two_fresh_span_seeds_do_not_overlap_and_the_split_is_disjoint(tmp_path: Path) -> None:
    for seed in (1, 2):
        res = _cli("dataset", "span", "--count", "480", "--seed", str(seed), "--out",
                   str(tmp_path / f"s{seed}.jsonl"), "-q")  # fmt: skip
        assert res.exit_code == 0, res.stderr
    res = _cli("dataset", "overlap", str(tmp_path / "s1.jsonl"), str(tmp_path / "s2.jsonl"),
               "--format", "json")  # fmt: skip
    assert res.exit_code == 0 and json.loads(res.stdout)["overlap"] == 0

    out = tmp_path / "sp.jsonl"
    res = _cli("dataset", "span", "--count", "100", "--seed", "3", "--out", str(out),
               "--split", "train=0.8,eval=0.2", "-q", "--summary-json")  # fmt: skip
    assert res.exit_code == 0, res.stderr
    tr, ev = part_path(out, "train"), part_path(out, "eval")
    assert len(tr.read_text().splitlines()) == 80 and len(ev.read_text().splitlines()) == 20
    res = _cli("dataset", "overlap", str(tr), str(ev), "--format", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["overlap"] == 0
    # the parts are the run's records, in order
    whole = [json.loads(x)["id"] for x in (tr.read_text() + ev.read_text()).splitlines()]
    assert whole == [r["id"] for r in generate_questions(100, 3, SpanConfig())]


@pytest.mark.parametrize(
    ("spec", "message"),
    [("train", "NAME=SIZE"), ("train=1", "at least two"), ("a=0.5,a=0.5", "distinct"),
     ("a=0.5,b=0.6", "add up to 1"), ("a=10,b=20", "add up to 30, not --count 100"),
     ("a=x,b=0.5", "all fractions")],
)  # fmt: skip
def test_bad_split_specs_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(TsolveError, match=message):
        parse_split(spec, 100)
    assert [len(r) for _, r in parse_split("train=0.75,dev=0.125,eval=0.125", 100)] == [75, 12, 13]
