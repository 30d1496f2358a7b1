"""``tsolve dataset`` on hostile files and options: one-line errors, never a traceback.

Each test is the issue's minimal reproduction. Before the fix these gave
tracebacks (``IsADirectoryError``, ``UnicodeDecodeError``, ``RecursionError``,
``ValueError``), silently mixed line endings, resumed over a deleted line with
exit 0, accepted ``logistics generate --seed -1``, or expanded
``--solutions 1-1000000000`` into gigabytes before checking it.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import Family, register_family, unregister_family
from tsolve.datasets import write_dataset
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import MAX_SOLUTIONS, parse_solutions
from tsolve.generators.options import parse_int_list

N = 8


def tsolve(*argv: str, limit_memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a process of its own (its memory capped by
    ``limit_memory``); the other CLI checks here run the same entry point
    in-process (``cli_main.run_cli``): the same exit codes and stderr."""

    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run(
        [sys.executable, "-m", "tsolve", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap if limit_memory else None,
    )


def one_line_error(res: subprocess.CompletedProcess[str], code: int = 2) -> str:
    lines = res.stderr.strip().splitlines()
    assert res.returncode == code and len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in res.stderr
    return lines[0]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """N span records of seed 0, written in one go."""
    out = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    write_dataset("span", {}, count=N, out=out)
    return out.read_bytes()


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def resume(out: Path, count: int = N) -> Any:
    return write_dataset("span", {}, count=count, out=out, resume=True)


# ---------------------------------------------------------------- --out and reading


def test_out_directory_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(TsolveError, match="is a directory"):
        write_dataset("span", {}, count=2, out=tmp_path)
    assert "is a directory" in one_line_error(
        run_cli(capsys, "dataset", "span", "-n", "2", "--out", str(tmp_path), "-q")
    )


def test_resume_latin1_last_line_is_one_line_error_and_file_untouched(
    tmp_path: Path, reference: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "latin1.jsonl"
    data = b"".join(lines_of(reference)[:5]) + '{"caf\u00e9": 1}\n'.encode("latin-1") + b'{"x'
    out.write_bytes(data)
    with pytest.raises(TsolveError, match=r"line 6 is not UTF-8 text \(byte 6 is 0xe9\)"):
        resume(out)
    assert out.read_bytes() == data  # refused before anything was cut
    msg = one_line_error(run_cli(capsys, "dataset", "span", "-n", str(N), "-o", str(out),
                                 "--resume"))  # fmt: skip
    assert "not UTF-8" in msg


def test_resume_drops_a_last_line_cut_mid_character(tmp_path: Path, reference: bytes) -> None:
    """A crash mid-write can cut a UTF-8 sequence in half: that partial line is
    dropped and regenerated, like any partial line."""
    out = tmp_path / "cut.jsonl"
    out.write_bytes(b"".join(lines_of(reference)[:5]) + b'{"id": "caf\xc3')
    s = resume(out)
    assert (s.existing, s.written, s.dropped_bytes) == (5, N - 5, 12)
    assert out.read_bytes() == reference


@pytest.mark.parametrize(
    ("garbage", "word"),
    [
        (b"[" * 100_000, "nests too deeply"),  # RecursionError in json
        (b'{"a": ' + b"1" * 5000 + b"}", "integer too long"),  # ValueError past 4300 digits
        (b"[1, 2]", "not a JSON object"),
        (b'{"generator": {"seed": 0, "index": 2.0}}', "generator.index"),
    ],
)
def test_resume_hostile_line_is_one_line_error(
    tmp_path: Path, reference: bytes, garbage: bytes, word: str
) -> None:
    out = tmp_path / "hostile.jsonl"
    out.write_bytes(b"".join(lines_of(reference)[:2]) + garbage + b"\n")
    with pytest.raises(TsolveError, match=word) as info:
        resume(out)
    assert "line 3" in str(info.value) and "\n" not in str(info.value)


def test_resume_overlong_line_is_refused_without_reading_it_whole(
    tmp_path: Path, reference: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tsolve.datasets.resume.MAX_LINE_BYTES", 1000)
    out = tmp_path / "long.jsonl"
    out.write_bytes(lines_of(reference)[0][:-1] + b" " * 5000 + b"\n")
    with pytest.raises(TsolveError, match="longer than 1000 bytes"):
        resume(out)


# ---------------------------------------------------------------- line endings and prefixes


def test_resume_keeps_a_crlf_file_crlf(tmp_path: Path, reference: bytes) -> None:
    """Decision: a CRLF file stays CRLF (new records get CRLF too), so it equals
    the uninterrupted file converted to CRLF; no mixed endings."""
    out = tmp_path / "crlf.jsonl"
    out.write_bytes(b"".join(lines_of(reference)[:3]).replace(b"\n", b"\r\n"))
    s = resume(out)
    assert (s.existing, s.written) == (3, N - 3)
    assert out.read_bytes() == reference.replace(b"\n", b"\r\n")


def test_resume_refuses_mixed_line_endings(tmp_path: Path, reference: bytes) -> None:
    out = tmp_path / "mixed.jsonl"
    first, second, *_ = lines_of(reference)
    out.write_bytes(first.replace(b"\n", b"\r\n") + second)
    with pytest.raises(TsolveError, match="mixed line endings"):
        resume(out)


@pytest.mark.parametrize("deleted", [0, 3])
def test_resume_refuses_a_deleted_line(
    tmp_path: Path, reference: bytes, deleted: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Decision: refuse (exit 2) rather than repair. Resume appends; a hole in
    the middle cannot be filled without rewriting the file."""
    lines = lines_of(reference)
    out = tmp_path / "hole.jsonl"
    data = b"".join(lines[:deleted] + lines[deleted + 1 : 6])
    out.write_bytes(data)
    with pytest.raises(TsolveError, match=f"record {deleted} is missing"):
        resume(out)
    assert out.read_bytes() == data
    msg = one_line_error(run_cli(capsys, "dataset", "span", "-n", str(N), "-o", str(out),
                                 "--resume"))  # fmt: skip
    assert "not a prefix" in msg


@pytest.fixture
def gappy_family() -> Any:
    """A family with no record 2: a gap there is a skipped record, not a lost line."""

    def gen(seed: int, index: int, cfg: Any) -> dict[str, Any]:
        if index == 2:
            raise TsolveError("no record here")
        return {"id": f"g-{seed}-{index}", "family": "test-gappy",
                "generator": {"seed": seed, "index": index}}  # fmt: skip

    fam = Family(
        name="test-gappy", description="test",
        options={}, build=lambda o: None, generate=gen, summarize=lambda r: {},
    )  # fmt: skip
    register_family(fam)
    yield fam
    unregister_family("test-gappy")


def test_resume_accepts_the_gap_a_failed_record_left(gappy_family: Any, tmp_path: Path) -> None:
    out = tmp_path / "gappy.jsonl"
    write_dataset("test-gappy", {}, count=6, out=out)
    whole = out.read_bytes()
    out.write_bytes(b"".join(lines_of(whole)[:3]))  # indices 0, 1, 3
    s = write_dataset("test-gappy", {}, count=6, out=out, resume=True)
    assert (s.existing, s.gaps, s.written) == (3, 1, 2)
    assert out.read_bytes() == whole


# ---------------------------------------------------------------- options


def test_huge_solutions_range_is_refused_before_expanding() -> None:
    tracemalloc.start()
    try:
        for spec in ("1-1000000000", "0-2000000", f"1-{'9' * 5000}"):
            with pytest.raises(TsolveError, match="solutions"):
                parse_solutions(spec)
        with pytest.raises(TsolveError, match="more than 10000 values"):
            parse_int_list("1-1000000000", "n")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # expanding 0-2000000 alone would take ~70 MB


def test_one_list_parser_for_both_commands() -> None:
    assert parse_solutions("1-6") == (1, 2, 3, 4, 5, 6) == parse_int_list("1-6", "s")
    assert parse_solutions("1-3,5") == (1, 2, 3, 5)
    assert parse_solutions(" 4 ") == 4 and parse_solutions([2, 4]) == (2, 4)
    assert parse_solutions(f"0-{MAX_SOLUTIONS}") == tuple(range(MAX_SOLUTIONS + 1))
    for bad, word in (("6-1", "empty range"), ("x", "cannot read"), ("1,,2", "cannot read"),
                      (str(MAX_SOLUTIONS + 1), "outside"), ("-1", "outside")):  # fmt: skip
        with pytest.raises(TsolveError, match=word):
            parse_solutions(bad)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux-only")
@pytest.mark.parametrize("command", ["puzzle", "dataset"])
def test_cli_huge_solutions_range_one_line_in_bounded_memory(command: str, tmp_path: Path) -> None:
    """The issue's reproduction, under a 2 GiB address-space cap so that a
    regression fails with MemoryError instead of eating the machine."""
    argv = (
        ["puzzle"]
        if command == "puzzle"
        else ["dataset", "time-puzzles", "-o", str(tmp_path / "x")]
    )
    res = tsolve(*argv, "--count", "1", "--solutions", "1-1000000000", limit_memory=2 << 30)
    assert one_line_error(res) == "error: solutions: 1000000000 is outside 0..60"


def test_cli_logistics_generate_rejects_negative_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--seed" in one_line_error(run_cli(capsys, "logistics", "generate", "--seed", "-1"))
