"""What a new user meets in a first run: help that shows every family's
options and the defaults, output that fits an 80-column terminal, progress
bars that show a rate only once it means something, and a bad Ray address
that fails fast."""

from __future__ import annotations

import re
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import Family, all_families, temporary_family
from tsolve.generators.options import parse_int


def _flat(text: str) -> str:
    """Help text with the boxes and line breaks taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_dataset_help_lists_every_familys_options(capsys: pytest.CaptureFixture[str]) -> None:
    """Through the family contract: a family registered only for this test is
    listed with its option and default, as the built-in ones are."""

    def generate(seed: int, index: int, config: Any) -> dict[str, Any]:
        return {"id": f"x-{index}", "family": "test-knobs", "question": "q"}

    knobs = Family(name="test-knobs", generate=generate, options={"loudness_level": parse_int},
                   build=lambda parsed: {"loudness_level": 7, **parsed})  # fmt: skip
    with temporary_family(knobs):
        for args in (("dataset", "--help"), ("dataset", "span", "--help")):
            got = run_cli(capsys, *args, columns=80)
            assert got.returncode == 0
            text = _flat(got.stdout)
            assert "test-knobs: loudness-level=7." in text
            for fam in all_families():
                if fam.generate is None or not fam.options or not fam.available():
                    continue
                assert f"{fam.name}: " in text
                for name in fam.options:
                    assert re.search(rf"\b{re.escape(name.replace('_', '-'))}\b", text), name
            assert "solutions=1" in text and "style=implicit" in text
            assert max(len(line) for line in got.stdout.splitlines()) <= 80


def test_the_time_puzzles_default_is_stated(capsys: pytest.CaptureFixture[str]) -> None:
    text = _flat(run_cli(capsys, "dataset", "time-puzzles", "--help", columns=200).stdout)
    assert "(default 1: one answer each; the paper's spread is 1-6)" in text
    assert "(default implicit)" in text


# ------------------------------------------------------------ 80 columns


def _summary(labels: dict[str, list[str]], metrics: list[str]) -> dict[str, Any]:
    agg = {"n": 20000, "parse_failures": 0}
    for m in metrics:
        agg[m], agg[f"{m}_stderr"] = 0.592, 0.002
    return {
        "overall": dict(agg),
        "by": {k: {v: dict(agg) for v in vals} for k, vals in labels.items()},
    }


TP_METRICS = ["alt_reading", "em", "f1", "jaccard"]
TP_LABELS = {
    "difficulty": ["easy", "hard", "medium"],
    "fact_kind": ["day_of_month_range", "sports_event_year", "weekday_in_month"],
    "solutions": ["1", "6"],
}


@pytest.mark.parametrize(
    ("labels", "metrics"),
    [
        (TP_LABELS, TP_METRICS),
        ({"direction": ["gregorian->islamic-umalqura", "chinese->gregorian"]}, ["accuracy"]),
    ],
)  # fmt: skip
def test_verify_tables_fit_80_columns_without_cutting_a_word(
    labels: dict[str, list[str]], metrics: list[str]
) -> None:
    """Every label's words and every header appear whole, no line is over 80
    columns, and no value is split (the old table at 80 columns printed
    "difficul…", "alt_read…" and "59.2 ±" over "0.2")."""
    from rich.console import Console

    from tsolve.cli.verify_commands import family_table

    out = Console(width=80, record=True, force_terminal=False)
    out.print(family_table(80, "fam", _summary(labels, metrics), metrics))
    text = out.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    flat = _flat(text)
    for vals in labels.values():
        for val in vals:
            assert val in flat.split(), val  # whole, on one line
    for m in metrics:
        assert (m.upper() if len(m) <= 3 else m) in flat.split()
    assert not re.search(r"±\s*│", text)  # never "59.2 ±" with its error on the next line
    assert "0.2" in text


def test_verify_keeps_the_wide_form_when_there_is_room() -> None:
    from rich.console import Console

    from tsolve.cli.verify_commands import family_table

    out = Console(width=140, record=True)
    out.print(family_table(140, "fam", _summary(TP_LABELS, TP_METRICS), TP_METRICS))
    text = out.export_text()
    assert "59.2 ± 0.2" in text and "fact_kind = day_of_month_range" in text


# ------------------------------------------------------------ progress bars


def test_no_rate_before_a_second_has_passed() -> None:
    from tsolve.cli.output import rate_text

    assert rate_text(220_886.9, 0.0001) == ""  # the first items: no rate yet
    assert rate_text(None, 5.0) == ""
    assert rate_text(1234.5, 2.0) == "1,234.5/s"


def test_a_jsonl_file_gives_its_bar_a_total(tmp_path: Any) -> None:
    from tsolve.cli.output import row_count

    rows = tmp_path / "p.jsonl"
    rows.write_text('{"id": 1}\n\n{"id": 2}\nnot json\n')
    assert row_count(rows) == 3  # every non-blank line is a row (a bad one too)
    array = tmp_path / "a.json"
    array.write_text('[{"id": 1},\n{"id": 2}]\n')
    pretty = tmp_path / "o.json"
    pretty.write_text('{\n  "id": 1\n}\n')
    assert row_count(array) is None and row_count(pretty) is None and row_count("-") is None
    assert row_count(tmp_path / "missing.jsonl") is None


def test_verify_at_80_columns_cuts_no_label(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """The command as a user runs it, at 80 columns: the old table cut
    labels and headers ("difficul…", "alt_read…")."""
    recs, preds = tmp_path / "tp.jsonl", tmp_path / "p.jsonl"
    made = run_cli(capsys, "dataset", "time-puzzles", "-n", "12", "--solutions", "1-6",
                   "-o", str(recs), "-q")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert (
        run_cli(
            capsys, "predict", str(recs), "--baseline", "perturbed", "-o", str(preds)
        ).returncode
        == 0
    )
    got = run_cli(capsys, "verify", str(recs), str(preds), columns=80)
    assert got.returncode == 0, got.stderr
    assert "…" not in got.stdout
    assert max(len(line) for line in got.stdout.splitlines()) <= 80
    assert "alt_reading" in got.stdout.split() and "difficulty" in _flat(got.stdout)


def _bench_report() -> dict[str, Any]:
    peer = {"name": "cached-mask NumPy peer (calendar facts' masks kept, ANDed until M; no "
            "knowledge base, no certificate), minimal puzzles", "value": 851.6,
            "unit": "puzzles/s", "ratio": 0.2951, "ratio_min": 0.2631,
            "ratio_max": 0.3507}  # fmt: skip
    result = {"id": "time-puzzles.generate.cpsat.M=1-6.minimal", "unit": "puzzles/s",
              "value": 247.0, "work": 80, "repetitions": 4, "stats": {}, "peer": peer,
              "reference": None, "status": "ok", "note": ""}  # fmt: skip
    other = {**result, "id": "calendars.convert.chinese", "unit": "dates/s", "value": 1.18e7,
             "peer": {**peer, "name": "lunarcalendar per date", "unit": "dates/s"}}  # fmt: skip
    return {"tsolve_version": "0", "created": "now", "quick": True, "seconds": 40.0,
            "machine": {"processor": "x86_64", "cpus": 2, "python": "3.11"},
            "results": [result, other]}  # fmt: skip


def test_bench_at_80_columns_gives_a_figure_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns the old table wrapped a peer's description over 6-8
    lines and cut the values ("247 puzzl…"): each figure is now a block of
    lines wrapped at spaces; a wide terminal keeps the table."""
    from rich.console import Console

    import tsolve.cli.bench_commands as bench

    for width, table in ((80, False), (240, True)):
        out = Console(width=width, record=True, force_terminal=True, color_system=None)
        monkeypatch.setattr(bench, "console", lambda out=out: out)
        bench.print_report(_bench_report())
        text = out.export_text()
        assert "…" not in text and max(len(line) for line in text.splitlines()) <= width
        assert ("┃" in text or "━" in text) == table
        flat = _flat(text)
        assert "time-puzzles.generate.cpsat.M=1-6.minimal" in flat and "247 puzzles/s" in flat
        assert "no knowledge base, no certificate), minimal puzzles: 852 puzzles/s" in flat
        if not table:  # the description takes at most two lines, not 6-8
            lines = [ln for ln in text.splitlines() if "cached-mask" in ln or "certificate)" in ln]
            assert len(set(lines)) <= 2, text


# ------------------------------------------------------------ a bad --ray-address


def _server(reply: bytes | None, close: bool = False) -> tuple[str, Any]:
    """A local TCP server that accepts, reads the client's first bytes, then
    sends ``reply`` (None: nothing) or closes."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    held = []

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            held.append(conn)
            conn.recv(64)
            if close:
                conn.close()
            elif reply is not None:
                conn.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    return f"127.0.0.1:{srv.getsockname()[1]}", srv


SETTINGS_FRAME = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


@pytest.mark.parametrize(
    ("reply", "close", "why"),
    [
        (None, False, "accepts connections but said nothing"),  # passed the old TCP check
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", False, "does not speak gRPC"),
        (None, True, "closed the connection"),
    ],
)
def test_a_port_that_is_not_a_ray_head_fails_fast(
    monkeypatch: pytest.MonkeyPatch, reply: bytes | None, close: bool, why: str
) -> None:
    """Before, any port that accepted a TCP connection passed, and Ray then
    retried for 22 s to a minute, printing C++ warnings, before failing."""
    pytest.importorskip("ray")
    import time

    import tsolve.engines.ray as ray_engine
    from tsolve.errors import TsolveError

    monkeypatch.setattr(ray_engine, "CONNECT_SECONDS", 0.5)
    address, srv = _server(reply, close)
    try:
        start = time.monotonic()
        with pytest.raises(
            TsolveError, match=rf"^ray-address: no Ray head answers at {address} \(.*{why}"
        ):
            ray_engine._check_reachable(address)
        assert time.monotonic() - start < 3
    finally:
        srv.close()


def test_a_grpc_server_passes_the_probe() -> None:
    pytest.importorskip("ray")
    import tsolve.engines.ray as ray_engine

    address, srv = _server(SETTINGS_FRAME)
    try:
        ray_engine._check_reachable(address)  # an HTTP/2 server's first frame: SETTINGS
    finally:
        srv.close()


def test_joining_a_cluster_tries_twice_not_twenty_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's connect window while joining (a port that is an HTTP/2 server
    but no Ray head cost 22 s); a new local instance keeps Ray's own."""
    ray = pytest.importorskip("ray")
    import os

    import tsolve.engines.ray as ray_engine

    seen: list[str | None] = []
    monkeypatch.delenv("RAY_gcs_server_port_wait_time_s", raising=False)
    monkeypatch.setattr(ray_engine, "_check_reachable", lambda address: None)

    def fake_init(**kwargs: Any) -> None:
        seen.append(os.environ.get(ray_engine._JOIN_WAIT_ENV))
        raise ConnectionError("no cluster")

    monkeypatch.setattr(ray, "init", fake_init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    for address in ("10.0.0.1:6379", None):
        with pytest.raises(Exception, match="ray-address: cannot start or join Ray"):
            ray_engine.RayEngine(address=address)
    assert seen == [str(ray_engine.JOIN_ATTEMPTS), None]
    assert "RAY_gcs_server_port_wait_time_s" not in os.environ  # put back
