"""No puzzle twice: within a run, across option sets, across a split's parts
(tsolve/datasets/distinct.py, the options' salt in tsolve/generators/seeding.py).

A run over a quarter-year domain with two facts and one answer repeats
itself within sixteen records, so the acceptance pass has work to do at
a small n."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

from tsolve.contract import Family, Lazy, get_family, register_family, unregister_family
from tsolve.datasets.distinct import check_distinct, key_of
from tsolve.datasets.overlap import find_overlap
from tsolve.datasets.split import drop_repeats, part_path, write_split
from tsolve.datasets.writer import write_dataset
from tsolve.generators.fingerprints import digest
from tsolve.generators.options import parse_int
from tsolve.generators.seeding import current_redraw, record_key, record_rng, redrawing
from tsolve.stress.distinct_checks import distinct_violations

NARROW = {"domain_start": "2020-01-01", "domain_end": "2020-03-31", "solutions": 1, "facts": 2}
N = 16


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def narrow_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("narrow") / "run.jsonl"
    write_dataset("time-puzzles", NARROW, count=N, out=out, seed=0)
    return out


def test_the_narrow_options_repeat_without_the_pass() -> None:
    fam = get_family("time-puzzles")
    cfg = fam.make_options(NARROW)
    drawn = [fam.make_record(0, i, cfg) for i in range(N)]
    assert check_distinct(fam, drawn)  # attempt 0 of every record repeats somewhere


def test_a_run_holds_no_answer_twice(narrow_run: Path) -> None:
    fam = get_family("time-puzzles")
    recs = _records(narrow_run)
    assert len(recs) == N
    assert check_distinct(fam, recs) == []
    assert len({key_of(fam, r)[0] for r in recs}) == N
    redrawn = [r for r in recs if r["generator"].get("redraw")]
    assert redrawn, "the pass had no repeat to redraw"
    # a redrawn record is still its (seed, index): the attempt it names regenerates it
    r = redrawn[0]
    again = fam.make_record(0, r["generator"]["index"], fam.make_options(NARROW),
                            r["generator"]["redraw"])  # fmt: skip
    assert again == r


def test_workers_shards_resume_and_split_give_the_same_records(
    narrow_run: Path, tmp_path: Path
) -> None:
    whole = narrow_run.read_bytes()
    two = tmp_path / "two.jsonl"
    write_dataset("time-puzzles", NARROW, count=N, out=two, seed=0, workers=2, chunk=4)
    assert two.read_bytes() == whole
    shards = b""
    for k in range(2):
        part = tmp_path / f"shard{k}.jsonl"
        write_dataset("time-puzzles", NARROW, count=N, out=part, seed=0, shard=(k, 2))
        shards += part.read_bytes()
    assert shards == whole
    lines = whole.splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:9]) + lines[9][:40])  # a partial last line
    write_dataset("time-puzzles", NARROW, count=N, out=cut, seed=0, resume=True)
    assert cut.read_bytes() == whole
    split = write_split("time-puzzles", NARROW, count=N, out=tmp_path / "s.jsonl",
                        split="a=7,b=9", seed=0)  # fmt: skip
    assert split.dropped == {"a": 0, "b": 0}
    a, b = (part_path(tmp_path / "s.jsonl", p) for p in ("a", "b"))
    assert a.read_bytes() + b.read_bytes() == whole


@pytest.mark.parametrize(
    ("family", "other"),
    [("time-puzzles", {"solutions": "1-6"}), ("relational-puzzles", {"solutions": "1-3"})],
)
def test_other_options_draw_other_puzzles(
    family: str, other: dict[str, Any], tmp_path: Path
) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_dataset(family, {}, count=8, out=a, seed=0)
    write_dataset(family, other, count=8, out=b, seed=0)
    report = find_overlap(a, b)
    assert (report.overlap, report.answer_overlap) == (0, 0), report.answer_pairs[:2]


def test_split_guard_drops_a_repeated_answer_not_only_repeated_content(tmp_path: Path) -> None:
    """A SPAN polar item and the content item asking for the same date share
    their answer, not their content: the guard drops the later one."""
    fam = get_family("span")
    rec = fam.make_record(0, 0, fam.make_options({}))
    twin = json.loads(json.dumps(rec))
    twin["id"] += "-twin"
    twin["format"] = "content" if rec.get("format") != "content" else "polar"
    assert fam.content_fingerprint(twin) != fam.content_fingerprint(rec)
    assert fam.answer_content_fingerprint(twin) == fam.answer_content_fingerprint(rec)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(json.dumps(rec) + "\n", "utf-8")
    second.write_text(json.dumps(twin) + "\n", "utf-8")
    assert drop_repeats([first, second]) == [0, 1]
    assert second.read_text("utf-8") == ""


def test_the_redraw_and_the_salt_are_parts_of_the_key() -> None:
    assert record_key("f", "1", 2, 3) == "f:1:2:3"
    assert record_key("f", "1", 2, 3, "ab12cd") == "f:1:2:3:ab12cd"
    with redrawing(2):
        assert current_redraw() == 2
        assert record_key("f", "1", 2, 3, "ab12cd") == "f:1:2:3:ab12cd:redraw2"
    assert current_redraw() == 0
    assert record_rng("f", "1", 2, 3).random() == random.Random("f:1:2:3").random()


# ---------------------------------------------------------------- tsolve stress


def _value_record(seed: int, index: int, cfg: dict[str, Any], salted: bool) -> dict[str, Any]:
    k = cfg.get("k", 1)
    rng = record_rng("test-stream", "1", seed, index, f"k{k}" if salted else "")
    return {"id": f"ts-{seed}-{index}-k{k}", "family": "test-stream",
            "generator": {"seed": seed, "index": index}, "value": rng.randrange(10**9)}  # fmt: skip


def unsalted(seed: int, index: int, cfg: dict[str, Any]) -> dict[str, Any]:
    return _value_record(seed, index, cfg, salted=False)


def salted(seed: int, index: int, cfg: dict[str, Any]) -> dict[str, Any]:
    return _value_record(seed, index, cfg, salted=True)


def _value_fingerprint(rec: dict[str, Any]) -> str:
    return digest({"value": rec.get("value")})


@pytest.fixture
def stream_family(request: pytest.FixtureRequest) -> Iterator[str]:
    fam = Family(
        name="test-stream", description="test", options={"k": parse_int},
        generate=Lazy(f"{__name__}:{request.param}"), fingerprint=_value_fingerprint,
        stress_choices=lambda: {"k": [1, 2]},
    )  # fmt: skip
    register_family(fam)
    yield request.param
    unregister_family("test-stream")


@pytest.mark.parametrize("stream_family", ["unsalted", "salted"], indirect=True)
def test_stress_fails_a_stream_that_ignores_options(stream_family: str) -> None:
    found = distinct_violations("test-stream", 0)
    if stream_family == "salted":
        assert found == []
    else:
        assert [v.check for v in found] == ["option-stream"]
        assert "the record stream ignores options" in found[0].message


def test_stress_names_a_repeat_within_a_run() -> None:
    fam = get_family("time-puzzles")
    rec = fam.make_record(0, 0, fam.make_options({}))
    again = {**rec, "id": rec["id"] + "-again", "facts": list(reversed(rec["facts"]))}
    assert check_distinct(fam, [rec, again]) == [
        f"record {again['id']!r} repeats the answer of {rec['id']!r}"
    ]


# ---------------------------------------------------------------- --exclude


def _narrow_args() -> list[str]:
    return [f"--set={k}={v}" for k, v in NARROW.items()]


def test_exclude_keeps_another_files_puzzles_out(
    narrow_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seeds 0 and 1 of the narrow options meet by chance; with --exclude the
    second run draws again where it would repeat the first."""
    plain, excluded = tmp_path / "plain.jsonl", tmp_path / "excluded.jsonl"
    write_dataset("time-puzzles", NARROW, count=N, out=plain, seed=1)
    assert find_overlap(narrow_run, plain).answer_overlap >= 1
    code, _out, err = run_main(
        capsys, "dataset", "time-puzzles", "-n", str(N), "--seed", "1", *_narrow_args(),
        "--exclude", str(narrow_run), "-o", str(excluded), "-q",
    )  # fmt: skip
    assert code == 0, err
    assert find_overlap(narrow_run, excluded).answer_overlap == 0
    assert len(_records(excluded)) == N


def test_exclude_refuses_a_row_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"family": "time-puzzles"}\n{broken\n', "utf-8")
    out = tmp_path / "out.jsonl"
    code, _out, err = run_main(
        capsys, "dataset", "time-puzzles", "-n", "2", "--exclude", str(bad), "-o", str(out)
    )
    assert code == 2 and "exclude: bad.jsonl:2: malformed JSON" in err
    assert "Traceback" not in err and not out.exists()


def test_a_one_date_span_run_redraws_a_question_its_other_format_asked(tmp_path: Path) -> None:
    """On one reference date a cell's questions are an enumeration, and the
    yes/no and the content item of a direction may take the same slot: a
    redraw must pick another question of the cell (it kept the slot, so every
    attempt repeated and the record failed: 2 of 120 records on 2024-03-01)."""
    out = tmp_path / "span.jsonl"
    options = {"date": "2024-03-01"}
    report = write_dataset("span", options, count=120, out=out, seed=0)
    recs = _records(out)
    assert len(recs) == 120, getattr(report, "errors", report)
    fam = get_family("span")
    assert check_distinct(fam, recs) == []
    assert any(r["generator"].get("redraw") for r in recs), "no repeat to redraw"


def test_stress_holds_the_facade_to_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """``facade-run``: the facade serves the run's records. Time puzzles of
    two facts at seed 11 draw record 34 as record 32's puzzle; a facade that
    served the raw draws would serve it twice, and the check says so."""
    import tsolve.facade
    from tsolve.stress.distinct_checks import facade_violations, run_records
    from tsolve.testing.cases import StressCase

    fam = get_family("time-puzzles")
    case = StressCase("time-puzzles", 11, 0, {"facts": 2})
    base = run_records(fam, {"facts": 2}, 11, 40)
    assert facade_violations(fam, case, base, 40) == []
    raw = tsolve.facade.TsolveDataset.__init__

    def raw_draws(self: Any, *args: Any, **kwargs: Any) -> None:
        raw(self, *args, **{**kwargs, "distinct": False})

    monkeypatch.setattr(tsolve.facade.TsolveDataset, "__init__", raw_draws)
    (found,) = facade_violations(fam, case, base, 40)
    assert found.check == "facade-run" and "from item 34 on" in found.message
