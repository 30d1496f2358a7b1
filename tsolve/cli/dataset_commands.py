"""``tsolve dataset``: writing datasets and checking them for leakage.

* ``tsolve dataset FAMILY ...`` (also ``tsolve dataset make FAMILY ...``): a
  thin shell over :func:`tsolve.datasets.write_dataset` (or, with
  ``--split``, :func:`tsolve.datasets.split.write_split`). The command gathers
  the options (:func:`tsolve.datasets.gather_options`), shows progress,
  failures and the family's domain warnings, turns SIGTERM into a clean stop,
  and prints the summary the run returns.
* ``tsolve dataset overlap TRAIN EVAL``: a thin shell over
  :func:`tsolve.datasets.overlap.find_overlap`.
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
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from tsolve.cli.output import (
    Fmt,
    RayAddress,
    console,
    emit_report,
    err_console,
    family_choices,
    json_text,
    progress,
    say,
    strata_examples,
    takes,
    user_text,
)
from tsolve.solver.backend_names import GENERATION_BACKENDS, choices_text

#: The subcommand ``tsolve dataset FAMILY ...`` stands for.
DEFAULT_COMMAND = "make"

#: ``ctx.meta`` key of the command path a usage error's hint should show
#: (read by :func:`tsolve.cli.app.main`).
HELP_PATH = "tsolve.help_path"


def family_options_help() -> str:
    """Each generating family's options, read from the family contract
    (``Family.options``, defaults from ``Family.make_options({})``), as the
    closing paragraphs of ``tsolve dataset --help``: the flags above name
    only some, and a third-party family's are known only here. Built when
    help is shown, never at start-up (it imports each family's option
    builder)."""
    from tsolve.contract import all_families

    lines = [
        "Family options: as a flag where 'tsolve dataset FAMILY --help' lists one, "
        "else as --set NAME=VALUE (NAME=DEFAULT shows the default)."
    ]
    for fam in all_families():
        if fam.generate is None or not fam.options or not fam.available():
            continue
        try:
            config: Any = fam.make_options({})
        except Exception:  # a family whose defaults cannot be built still lists its names
            config = {}
        shown = []
        for name in fam.options:
            value = config.get(name) if isinstance(config, dict) else getattr(config, name, None)
            flag = name.replace("_", "-")
            shown.append(flag if value is None else f"{flag}={_default_text(value)}")
        lines.append(f"{fam.name}: {', '.join(shown)}.")
    return "\n\n".join(escape(line) for line in lines)


def _default_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


class _MakeCommand(TyperCommand):
    """``tsolve dataset make``, whose help ends with :func:`family_options_help`."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.epilog = family_options_help()
        super().format_help(ctx, formatter)


class _FamilyOrCommand(TyperGroup):
    """``tsolve dataset FAMILY ...`` is ``tsolve dataset make FAMILY ...``: a
    first word that is not a subcommand (nor ``--help``) is a family, so the
    command line every user and script already has keeps working beside
    ``tsolve dataset overlap``."""

    default_command = DEFAULT_COMMAND

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.epilog = family_options_help()  # the families' options, as make's help ends
        super().format_help(ctx, formatter)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            # A usage error then points to the form typed (and documented),
            # ``tsolve dataset FAMILY --help``, not to the implied subcommand.
            ctx.meta[HELP_PATH] = f"{ctx.command_path} {args[0]}"
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        cls=_FamilyOrCommand,
        no_args_is_help=True,
        help="Write datasets (tsolve dataset FAMILY --count N --out FILE) and check two "
        "for shared content (tsolve dataset overlap TRAIN EVAL).",
    )
    group.command(DEFAULT_COMMAND, cls=_MakeCommand)(dataset)
    group.command("overlap")(overlap)
    app.add_typer(group, name="dataset")


def dataset(
    family: Annotated[
        str, typer.Argument(help=f"{family_choices('generate')}, or a plug-in's family.")
    ],
    count: Annotated[
        int, typer.Option("--count", "-n", min=0, help="Records in the whole dataset.")
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            help="Output file ('-' for stdout, jsonl only); a folder for --format hf or hub.",
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
            help="jsonl, parquet, hf (a datasets folder for load_from_disk) or hub (a Hub "
            "repository folder: README.md card + data/<split>-*.parquet, for load_dataset; "
            "docs/hub.md); default: parquet for a .parquet --out, else jsonl.",
        ),
    ] = None,
    solutions: Annotated[
        str | None,
        typer.Option(
            help=f"{takes('solutions')}: M, a range 1-6 or a list 1,3,5 (default 1: one answer "
            "each; the paper's spread is 1-6)."
        ),
    ] = None,
    facts: Annotated[
        str | None, typer.Option(help=f"{takes('facts')}: facts per puzzle incl. the anchor.")
    ] = None,
    style: Annotated[
        str | None,
        typer.Option(help=f"{takes('style')}: implicit or explicit, or both (default implicit)."),
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help=f"{takes('backend')}: {choices_text(GENERATION_BACKENDS)}.")
    ] = None,
    domain_start: Annotated[
        str | None, typer.Option(help=f"{takes('domain_start')}: first date of the domain.")
    ] = None,
    domain_end: Annotated[
        str | None, typer.Option(help=f"{takes('domain_end')}: last date of the domain.")
    ] = None,
    categories: Annotated[
        str | None,
        typer.Option(help=f"{takes('categories')}: allowed fact kinds, comma-separated."),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            help=f"{takes('preset')}: a named setting the other options override: paper (4-6 "
            "facts, M = 0-6, 1800-01-01..2050-12-31; docs/formats.md)."
        ),
    ] = None,
    difficulty: Annotated[
        str | None,
        typer.Option(help=f"{takes('difficulty')}: easy, medium or hard."),
    ] = None,
    execution: Annotated[
        str | None, typer.Option(help=f"{takes('execution')}: serial or parallel.")
    ] = None,
    question: Annotated[
        str | None, typer.Option(help=f"{takes('question')}: static, relative or hypothetical.")
    ] = None,
    depth: Annotated[str | None, typer.Option(help=f"{takes('depth')}: question depth.")] = None,
    date: Annotated[
        str | None,
        typer.Option(help=f"{takes('date')}: one reference date YYYY-MM-DD for every record."),
    ] = None,
    date_range: Annotated[
        str | None,
        typer.Option(
            help=f"{takes('date_range')}: draw each record's reference date from START..END "
            "(default 1960-01-01..2060-12-31)."
        ),
    ] = None,
    minimal: Annotated[
        bool | None,
        typer.Option(
            "--minimal/--no-minimal",
            help=f"{takes('minimal')}: every fact necessary (the default, unless --facts is over 6 "
            "or --trivial-contradictions asks for M = 0).",
        ),
    ] = None,
    trivial_contradictions: Annotated[
        bool | None,
        typer.Option(
            "--trivial-contradictions",
            help=f"{takes('trivial_contradictions')}: M = 0 by one swapped fact, as the old "
            "generator did.",
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
    split: Annotated[
        str | None,
        typer.Option(
            help="Write disjoint parts of the run beside --out, e.g. train=0.8,eval=0.2 or "
            "train=800,eval=200 (data.jsonl -> data.train.jsonl, data.eval.jsonl); "
            "with --format hub, the Hub splits (default train=0.8,test=0.2).",
        ),
    ] = None,
    balance: Annotated[
        str | None,
        typer.Option(
            help="Equal counts per stratum of these options, e.g. difficulty or "
            f"{strata_examples()}; "
            "assigned by index, so record i still depends only on (seed, i, options).",
        ),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            help="A file (repeatable) whose puzzles this run must not repeat, in any "
            "wording: an eval set made with --exclude train.jsonl shares no answer with it. "
            "Give the same files to every shard and to --resume.",
        ),
    ] = None,
) -> None:
    """Write a dataset of FAMILY records: multi-process, shardable, resumable.

    The file is byte-identical for any --workers, and shards 0/n..n-1/n
    concatenate to the unsharded file. Exit status: 0 done, 1 some records
    failed (reported, the rest were written), 2 bad input, 3 a worker process
    died (the run stopped; --resume continues it), 130 interrupted (Ctrl-C or
    SIGTERM; --resume continues it). See docs/robustness.md.
    """
    from tsolve.contract import get_family
    from tsolve.datasets import gather_options, infer_format, parse_shard, write_dataset
    from tsolve.errors import TsolveError

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
        "preset": preset,
        "difficulty": difficulty,
        "execution": execution,
        "question": question,
        "depth": depth,
        "date": date,
        "date_range": date_range,
        "minimal": minimal,
        "trivial_contradictions": trivial_contradictions,
    }
    options = gather_options(fam, config, flags, set_ or [])
    n_workers = None if workers is None else workers or (os.cpu_count() or 1)
    shard_t = parse_shard(shard) if shard else None
    kind = "hub" if fmt == "hub" else infer_format(out, fmt)
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

    if fmt == "hub":
        if shard or resume:
            raise TsolveError("format: hub is written whole; it cannot be sharded or resumed")
        if exclude:
            raise TsolveError("exclude: not with --format hub (its splits exclude each other)")
        _write_hub(fam.name, options, count, out, seed, split, n_workers, engine, ray_address,
                   summary_json, quiet, on_failure, balance)  # fmt: skip
        return
    if split is not None:
        if shard or resume:
            raise TsolveError("split: cannot be combined with --shard or --resume")
        _write_split(fam.name, options, count, out, seed, split, fmt, n_workers, engine,
                     ray_address, summary_json, quiet, on_failure, balance,
                     exclude or [])  # fmt: skip
        return

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
                on_warning=lambda line: say(err, "yellow", "warning", line),
                balance=balance,
                exclude=exclude or [],
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


def _write_split(
    family: str, options: dict[str, Any], count: int, out: str, seed: int, split: str,
    fmt: str | None, workers: int | None, engine: str, address: str | None,
    summary_json: bool, quiet: bool, on_failure: Any, balance: str | None = None,
    exclude: list[str] | None = None,
) -> None:  # fmt: skip
    """``--split``: the parts of one run, each summarised as a dataset run is."""
    from tsolve.datasets.split import write_split

    err = err_console()
    info = err if summary_json else console()
    with progress(None, f"{family} → {out} (split {split})", enabled=not quiet) as bar:
        task = bar.task_ids[0]
        with _sigterm_as_interrupt():
            result = write_split(
                family, options, count=count, out=out, split=split, seed=seed, fmt=fmt,
                workers=workers, engine=engine, engine_address=address,
                on_failure=on_failure,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                on_warning=lambda line: say(err, "yellow", "warning", line), balance=balance,
                exclude=exclude or [],
            )  # fmt: skip
    _print_split(result, summary_json, info, err)


def _print_split(result: Any, summary_json: bool, info: Any, err: Any) -> None:
    """A split run's summaries (``--split``, and the splits of ``--format hub``)."""
    if summary_json:
        sys.stdout.write(json_text(result.to_json()) + "\n")
    else:
        for name, part in result.parts.items():
            info.print(f"[bold]{name}[/]: {result.paths[name]}")
            print_summary(info, part.to_json())
            if result.dropped[name]:
                say(info, "yellow", "dropped", f"{result.dropped[name]} records of {name} "
                    "repeat an earlier part's answer")  # fmt: skip
    if any(p.interrupted for p in result.parts.values()):
        err.print("[red]interrupted[/]: rerun the command to write the split")
        raise typer.Exit(130)
    if any(p.failures for p in result.parts.values()):
        raise typer.Exit(1)


def _write_hub(
    family: str, options: dict[str, Any], count: int, out: str, seed: int, split: str | None,
    workers: int | None, engine: str, address: str | None, summary_json: bool, quiet: bool,
    on_failure: Any, balance: str | None,
) -> None:  # fmt: skip
    """``--format hub``: a thin shell over :func:`tsolve.datasets.hub.write_hub`."""
    from tsolve.datasets.hub import write_hub

    err = err_console()
    info = err if summary_json else console()
    with progress(None, f"{family} → {out} (hub)", enabled=not quiet) as bar:
        task = bar.task_ids[0]
        with _sigterm_as_interrupt():
            result = write_hub(
                family, options, count=count, out=out, seed=seed, split=split,
                workers=workers, engine=engine, engine_address=address, balance=balance,
                on_failure=on_failure,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                on_warning=lambda line: say(err, "yellow", "warning", line),
            )  # fmt: skip
    if summary_json:
        sys.stdout.write(json_text(result.to_json()) + "\n")
    else:
        for name, part in result.split.parts.items():
            shown = {**part.to_json(), "format": "hub"}
            shown["out"] = f"{out}/{result.files.get(name, '(no rows: not written)')}"
            print_summary(info, shown)
            if result.split.dropped[name]:
                say(info, "yellow", "dropped", f"{result.split.dropped[name]} records of "
                    f"{name} repeat an earlier split's content")  # fmt: skip
        rows = ", ".join(f"{name} {n}" for name, n in result.rows.items())
        configs = f"; configs default, {', '.join(result.configs)}" if result.configs else ""
        info.print(f"[bold]hub[/] → {out}: README.md, {rows} rows{configs}")
    if any(p.interrupted for p in result.split.parts.values()):
        err.print("[red]interrupted[/]: nothing was written; rerun the command")
        raise typer.Exit(130)
    if any(p.failures for p in result.split.parts.values()):
        raise typer.Exit(1)


def overlap(
    train: Annotated[str, typer.Argument(help="Records trained on (any format tsolve reads).")],
    eval_: Annotated[str, typer.Argument(metavar="EVAL", help="Records evaluated on.")],
    fmt: Annotated[
        Fmt, typer.Option("--format", help="text (a table), json or jsonl (one line).")
    ] = Fmt.text,
    show: Annotated[int, typer.Option(min=0, help="Pairs listed in the table.")] = 20,
    by: Annotated[
        str,
        typer.Option(
            metavar="content|answer",
            help="Which overlap sets exit status 1: by content (default) or by what is asked "
            "(answer_overlap).",
        ),
    ] = "content",
) -> None:
    """Eval records that repeat a train record by content, whatever their ids.

    Content is each family's fingerprint (docs/formats.md): the same facts in
    any order or either wording style, the same SPAN question, the same
    logistics scenario and question. It also counts answer overlap: eval
    records answered from the same content as a train record (a SPAN question
    whatever its candidate, a logistics item whatever its objects are named).
    Exit status: 0 no overlap, 1 some eval records repeat train records (by
    --by), 2 bad input (a file that cannot be read, both files '-', or rows
    that could not be checked; the first 20 are listed).
    """
    from tsolve.datasets.overlap import find_overlap

    report = find_overlap(train, eval_, by=by)
    if fmt is not Fmt.text:
        emit_report(report.to_json(), fmt.value)
    else:
        out = console()
        if report.overlap:
            verdict = "[red]overlap[/]"
        elif report.bad_row_count:
            # Rows that could not be checked may overlap: never called "no overlap".
            verdict = f"[yellow]incomplete ({report.bad_row_count} rows not checked)[/]"
        else:
            verdict = "[green]no overlap[/]"
        out.print(
            f"{verdict}: {report.overlap} of {report.eval_records} eval records repeat one of "
            f"{report.train_records} train records"
        )
        out.print(
            f"answer overlap: {report.answer_overlap} of {report.eval_records} eval records are "
            "answered from the same content as a train record"
        )
        if report.by_family:
            table = Table(show_edge=False, box=None, pad_edge=False)
            for col in ("family", "eval records", "overlap", "answer overlap"):
                table.add_column(col)
            for name, c in sorted(report.by_family.items()):
                table.add_row(user_text(name), str(c["eval"]), str(c["overlap"]),
                              str(c["answer"]))  # fmt: skip
            out.print(table)
        if report.pairs and show:
            pairs = Table(show_edge=False, box=None, pad_edge=False)
            for col in ("family", "eval id", "eval row", "train id", "train row"):
                pairs.add_column(col)
            for p in report.pairs[:show]:
                pairs.add_row(user_text(p["family"]), user_text(p["eval_id"]), str(p["eval_row"]),
                              user_text(p["train_id"]), str(p["train_row"]))  # fmt: skip
            out.print(pairs)
            if report.overlap > show:
                out.print(f"... and {report.overlap - show} more (--format json lists "
                          f"up to {len(report.pairs)})")  # fmt: skip
    err = err_console()
    for line in report.bad_rows:
        say(err, "yellow", "skipped", line)
    if report.bad_row_count > len(report.bad_rows):
        err.print(f"[yellow]skipped[/] {report.bad_row_count - len(report.bad_rows)} more rows")
    if report.exit_code:
        raise typer.Exit(report.exit_code)


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
