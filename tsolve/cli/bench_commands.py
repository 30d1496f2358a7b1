"""``tsolve bench``: a thin shell over :func:`tsolve.bench.run_bench`."""

import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from tsolve.cli.output import check_format, console, emit_report, progress


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)


def _group_names() -> str:
    """The bench groups, as ``--family``'s help lists them: the engine's own,
    then each built-in family's with bench cases (from the registry)."""
    from tsolve.bench import bench_groups

    return ", ".join(bench_groups())


def bench(
    family: Annotated[
        list[str] | None,
        typer.Option(
            "--family",
            help=f"Groups (repeatable): {_group_names()}. Default: all.",
        ),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Smaller work units, fewer rounds, every peer kept: ~40 s on 2 idle cores.",
        ),
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", help="text, json (schema tsolve-bench/1) or jsonl (that on one line)."
        ),
    ] = "text",
) -> None:
    """Measure throughput, with ratios against peers timed in alternation.

    Puzzles/s by backend and M, solve latency (median, p95), verification,
    vectorised calendar conversion, logistics answering; each figure with its
    work size and repetitions. JSON schema: see :mod:`tsolve.bench`.
    """
    from tsolve.bench import bench_groups, run_bench

    check_format(fmt)
    groups: list[str] = []
    for item in family or []:
        groups.extend(x.strip() for x in item.split(",") if x.strip())
    chosen = list(dict.fromkeys(groups or bench_groups()))
    # A bar over the groups, on a terminal only: each group is seconds to
    # minutes of timed rounds, and the bar says which one is running.
    with progress(len(chosen), "bench", enabled=sys.stderr.isatty()) as bar:
        task = bar.task_ids[0]
        started: list[str] = []

        def on_group(g: str) -> None:
            if started:
                bar.advance(task)
            started.append(g)
            bar.update(task, description=f"bench: {g}")

        report = run_bench(groups or None, quick, on_group)
    data = report.to_json()
    if fmt != "text":
        emit_report(data, fmt)
        return
    print_report(data)


def _fmt(v: Any) -> str:
    """Compact numbers: 43.6M, 27.2k, 2.27."""
    if v is None:
        return "-"
    if isinstance(v, float | int):
        a = abs(v)
        for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if a >= div:
                return f"{v / div:.3g}{suf}"
        return f"{v:.3g}"
    return str(v)


def _bench_table(rows: list[tuple[str, str, str, str, str, str]]) -> Table:
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("figure", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("work×reps", justify="right", no_wrap=True)
    table.add_column("detail", justify="right")
    table.add_column("peer / reference")
    table.add_column("×peer", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


def _one_line_rows(out: Any, table: Table) -> bool:
    """Does every row of ``table`` fit on one line of ``out``? (Else the
    peer column wraps each description over 6-8 lines, and the no_wrap
    columns are cut: "2.37M dat…".)"""
    from rich.measure import Measurement

    return bool(Measurement.get(out, out.options.update_width(1 << 16), table).maximum <= out.width)


def _print_blocks(out: Any, rows: list[tuple[str, str, str, str, str, str]]) -> None:
    """One figure per block: its id and value (with ×peer) on the first line,
    then the work, detail and peer indented; rich wraps each line at spaces."""
    from rich.padding import Padding

    out.print("[bold]figure[/] · value · ×peer [dim](range)[/]\n  work×reps · detail · peer")
    for fid, value, work, detail, peer, ratio in rows:
        out.print(f"[bold]{fid}[/] · {value}" + (f" · {ratio}" if ratio else ""))
        rest = " · ".join(part for part in (work, detail, peer) if part)
        if rest:
            out.print(Padding(rest, (0, 0, 0, 2), expand=False))


def print_report(data: dict[str, Any]) -> None:
    """A rich table: one row per figure, the peer and the ratio with its range."""
    from rich.console import Console

    out = console()
    if not out.is_terminal:
        out = Console(highlight=False, width=150)
    m = data["machine"]
    out.print(
        f"[bold]tsolve bench[/] {data['tsolve_version']} · {data['created']} · "
        f"{m['processor']} × {m['cpus']} · Python {m['python']}"
        f"{' · quick' if data['quick'] else ''}"
    )
    cal = m.get("calibration") or {}
    if cal:
        out.print(
            f"[dim]CPU calibration (pure-Python loop, M iterations/s): start "
            f"{cal.get('python_loop_Mops_start')} · end {cal.get('python_loop_Mops_end')}[/]"
        )
    rows: list[tuple[str, str, str, str, str, str]] = []
    for r in data["results"]:
        if r["status"] != "ok":
            rows.append((r["id"], f"[yellow]{r['status']}[/]", "", "", r["note"][:70], ""))
            continue
        stats = r["stats"]
        detail = (
            f"p95 {_fmt(stats['p95_ms'])} ms"
            if "p95_ms" in stats
            else f"{_fmt(stats['conversions_per_s'])} conv/s"
            if "conversions_per_s" in stats
            else ""
        )
        peer = r["peer"] or r["reference"]
        peer_name = "" if peer is None else f"{peer['name']}: {_fmt(peer['value'])} {peer['unit']}"
        ratio = "" if peer is None or peer.get("ratio") is None else f"{_fmt(peer['ratio'])}×"
        if peer is not None and peer.get("ratio_min") is not None:
            ratio += f" [dim]{_fmt(peer['ratio_min'])}–{_fmt(peer['ratio_max'])}[/]"
        work = f"{_fmt(r['work'])}×{r['repetitions']}"
        rows.append((r["id"], f"{_fmt(r['value'])} {r['unit']}", work, detail, peer_name, ratio))
    table = _bench_table(rows)
    if not out.is_terminal or _one_line_rows(out, table):  # a file gets the table, 150 wide
        out.print(table)
    else:  # a narrow terminal: a block per figure, each line wrapped at its spaces
        _print_blocks(out, rows)
    out.print(
        f"[dim]{data['seconds']:.1f} s · ×peer: speed-up over the peer, median of rounds "
        "that time the figure and its peer in alternation, then the lowest–highest round "
        "(reference: a published figure, not run here)[/]"
    )
    if data["quick"]:
        out.print(
            "[dim]quick mode: smaller work units and fewer rounds than a full run, every "
            "peer still timed in the same rounds as its figure, so the ranges are wider; "
            "for figures to keep, run without --quick[/]"
        )
