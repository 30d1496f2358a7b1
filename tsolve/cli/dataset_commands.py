"""``tsolve dataset``: a thin shell over :func:`tsolve.datasets.write_dataset`.

The command gathers the options (:func:`tsolve.datasets.gather_options`),
shows progress and failures, turns SIGTERM into a clean stop, and prints the
summary the run returns.
"""

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from tsolve.backend_names import GENERATION_BACKENDS, choices_text
from tsolve.cli.output import RayAddress, console, err_console, json_text, progress, say


def register(app: typer.Typer) -> None:
    app.command("dataset")(dataset)


def dataset(
    family: Annotated[
        str, typer.Argument(help="time-puzzles, relational-puzzles, span or logistics.")
    ],
    count: Annotated[
        int, typer.Option("--count", "-n", min=0, help="Records in the whole dataset.")
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            help="Output file ('-' for stdout, jsonl only); a folder for --format hf.",
        ),
    ],
    seed: Annotated[
        int, typer.Option(min=0, help="Run seed; record i depends only on (seed, i).")
    ] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Processes (0 = one per CPU; default 1); with --engine ray, the CPUs of the "
            "local Ray instance (default all). Output bytes do not depend on it.",
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            metavar="local|ray",
            help="Where records are made: local processes, or a Ray cluster "
            "(pip install 'tsolve[ray]'; docs/scaling.md). Same bytes either way.",
        ),
    ] = "local",
    ray_address: RayAddress = None,
    shard: Annotated[
        str | None,
        typer.Option(
            help="Write only shard i/n (0-based); shards 0..n-1 concatenate to the whole."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted jsonl file where it stopped.")
    ] = False,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="jsonl, parquet or hf (a datasets folder for load_from_disk); "
            "default: parquet for a .parquet --out, else jsonl.",
        ),
    ] = None,
    solutions: Annotated[
        str | None, typer.Option(help="time-puzzles: M, a range 1-6 or a list 1,3,5.")
    ] = None,
    facts: Annotated[
        str | None, typer.Option(help="time-puzzles: facts per puzzle incl. the anchor.")
    ] = None,
    style: Annotated[str | None, typer.Option(help="time-puzzles: implicit or explicit.")] = None,
    backend: Annotated[
        str | None, typer.Option(help=f"time-puzzles: {choices_text(GENERATION_BACKENDS)}.")
    ] = None,
    domain_start: Annotated[
        str | None, typer.Option(help="time-puzzles: first date of the domain.")
    ] = None,
    domain_end: Annotated[
        str | None, typer.Option(help="time-puzzles: last date of the domain.")
    ] = None,
    categories: Annotated[
        str | None, typer.Option(help="time-puzzles: allowed fact kinds, comma-separated.")
    ] = None,
    difficulty: Annotated[
        str | None,
        typer.Option(help="logistics, time-puzzles: easy, medium or hard."),
    ] = None,
    execution: Annotated[str | None, typer.Option(help="logistics: serial or parallel.")] = None,
    question: Annotated[
        str | None, typer.Option(help="logistics: static, relative or hypothetical.")
    ] = None,
    depth: Annotated[str | None, typer.Option(help="logistics: question depth.")] = None,
    date: Annotated[str | None, typer.Option(help="span: the reference date YYYY-MM-DD.")] = None,
    minimal: Annotated[
        bool | None,
        typer.Option(
            "--minimal/--no-minimal",
            help="time-puzzles: every fact necessary (the default for datasets).",
        ),
    ] = None,
    trivial_contradictions: Annotated[
        bool | None,
        typer.Option(
            "--trivial-contradictions",
            help="time-puzzles: M = 0 by one swapped fact, as the old generator did.",
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Any generator option as KEY=VALUE (repeatable)."),
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="JSON object of generator options; flags override it.")
    ] = None,
    summary_json: Annotated[
        bool, typer.Option("--summary-json", help="Print the summary as JSON on stdout.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Write a dataset of FAMILY records: multi-process, shardable, resumable.

    The file is byte-identical for any --workers, and shards 0/n..n-1/n
    concatenate to the unsharded file. Exit status: 0 done, 1 some records
    failed (reported, the rest were written), 2 bad input, 3 a worker process
    died (the run stopped; --resume continues it), 130 interrupted (Ctrl-C or
    SIGTERM; --resume continues it). See docs/robustness.md.
    """
    from tsolve.datasets import gather_options, infer_format, parse_shard, write_dataset
    from tsolve.families import get_family

    fam = get_family(family, need="generate")
    # Generator options with their own flags; any other option goes through --set.
    flags = {
        "solutions": solutions,
        "facts": facts,
        "style": style,
        "backend": backend,
        "domain_start": domain_start,
        "domain_end": domain_end,
        "categories": categories,
        "difficulty": difficulty,
        "execution": execution,
        "question": question,
        "depth": depth,
        "date": date,
        "minimal": minimal,
        "trivial_contradictions": trivial_contradictions,
    }
    options = gather_options(fam, config, flags, set_ or [])
    n_workers = None if workers is None else workers or (os.cpu_count() or 1)
    shard_t = parse_shard(shard) if shard else None
    kind = infer_format(out, fmt)
    info = err_console() if (out == "-" or summary_json) else console()
    err = err_console()
    shown = 0

    def on_failure(index: int, message: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= 20:
            say(err, "yellow", "warning", f"record {index} (seed {seed}) failed: {message}")
        elif shown == 21:
            err.print("[yellow]warning[/] more failures; see the summary")

    with progress(None, f"{fam.name} → {out}", enabled=not quiet) as bar:
        task = bar.task_ids[0]

        def on_progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        with _sigterm_as_interrupt():
            summary = write_dataset(
                fam.name,
                options,
                count=count,
                out=out,
                seed=seed,
                workers=n_workers,
                shard=shard_t,
                resume=resume,
                fmt=kind,
                progress=on_progress,
                on_failure=on_failure,
                engine=engine,
                engine_address=ray_address,
            )
    if summary_json:
        sys.stdout.write(json_text(summary.to_json()) + "\n")
    else:
        print_summary(info, summary.to_json())
    if summary.interrupted:
        again = (
            "rerun the same command with --resume to continue"
            if kind == "jsonl"
            else f"{kind} cannot be resumed: rerun the command to write the whole dataset"
        )
        err.print(f"[red]interrupted[/]: {summary.records} records in {out}; {again}")
        raise typer.Exit(130)
    if summary.failures:
        raise typer.Exit(1)


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill``, ``docker stop``, a batch scheduler's preemption) stops
    the run like Ctrl-C: whole records only, a summary, exit 130, resumable.
    Without this Python would die at once, possibly mid-line."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def print_summary(out: Any, s: dict[str, Any]) -> None:
    """People-facing summary: totals, then one small table per bucket."""
    lo, hi = s["indices"]
    existing = f" + {s['existing']} existing" if s["existing"] else ""
    plural = "s" if s["workers"] != 1 else ""
    head = (
        f"[bold]{s['family']}[/] → {s['out']} ({s['format']}): {s['written']} written"
        f"{existing}, {s['failures']} failed, indices {lo}..{hi - 1}, seed {s['seed']}, "
        f"{s['workers']} worker{plural}, {s['seconds']:.1f} s "
        f"({s['records_per_second']:.1f} records/s)"
    )
    out.print(head)
    if s["dropped_bytes"]:
        out.print(f"resume: dropped a partial last line ({s['dropped_bytes']} bytes)")
    if s["gaps"]:
        out.print(f"resume: {s['gaps']} indices missing before the resume point (earlier failures)")
    table = Table(show_header=False, show_edge=False, box=None, pad_edge=False)
    table.add_column("bucket", style="bold", no_wrap=True)
    table.add_column("counts")
    for key, counts in s["counts"].items():
        table.add_row(key, " · ".join(f"{value}: {n}" for value, n in counts.items()))
    if s["counts"]:
        out.print(table)
    for ex in s["failure_examples"][:5]:
        say(out, "yellow", "failed", f"index {ex['index']}: {ex['error']}")
