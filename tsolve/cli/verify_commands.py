"""``tsolve verify``: score model outputs for records of any family.

A thin shell over :func:`tsolve.verifiers.verify_files.verify_files`, which reads
both files, routes each record to its family's scorer and keeps the batch
going past bad rows; this module only parses the options and renders the
:class:`~tsolve.verifiers.verify_batch.VerifyReport`, as text at the end or, for
``--format json``/``jsonl``, item by item as they are scored
(:mod:`tsolve.verifiers.report_writers`).
"""

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from tsolve.cli.output import (
    RayAddress,
    check_format,
    console,
    err_console,
    say,
    tracked,
    user_text,
)

if TYPE_CHECKING:  # the scorers are imported when a file is verified, not for --help
    from tsolve.verifiers.verify_batch import VerifyReport


def register(app: typer.Typer) -> None:
    """Attach ``verify`` to ``app``."""
    app.command("verify")(verify)


def verify(
    puzzles: Annotated[str, typer.Argument(help="Task records (JSON/JSONL).")],
    predictions: Annotated[
        str, typer.Argument(help='JSONL of {"id": ..., "output": "<raw model text>"}.')
    ],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="text, json (adds per-item detail) or jsonl (per-item lines as they are "
            "scored, then a summary line).",
        ),
    ] = "text",
    diagnosis: Annotated[
        bool, typer.Option(help="Check each wrong answer symbolically; --no-diagnosis is faster.")
    ] = True,
    missing: Annotated[
        str,
        typer.Option(
            metavar="skip|zero",
            help="Records without a prediction: skip (listed, left out of n) or zero "
            "(scored 0 and counted in n).",
        ),
    ] = "skip",
    claims: Annotated[
        bool,
        typer.Option("--claims", help="Add each output's first false date claim to its diagnosis."),
    ] = False,
    engine: Annotated[
        str,
        typer.Option(
            metavar="local|ray",
            help="Where outputs are scored: this process, or a Ray cluster for big files "
            "(pip install 'tsolve[ray]'; the records must be a JSON Lines file every worker "
            "can read; docs/scaling.md). Same report either way.",
        ),
    ] = "local",
    ray_address: RayAddress = None,
    scorer: Annotated[
        str | None,
        typer.Option(
            "--scorer",
            metavar="NAME",
            help="Score with a family's named scorer instead of its own: 'paper' scores time "
            "puzzles by the rules of the paper's release (its extractor and EM/F1/Jaccard, to "
            "reproduce its figures; docs/scoring.md says where they differ).",
        ),
    ] = None,
    match: Annotated[
        str,
        typer.Option(
            metavar="id|order",
            help="How predictions find their records: by id (ids must then be unique on both "
            "sides; a repeat is an error) or by order (the i-th prediction against the i-th "
            "record; for files whose ids repeat; equal row counts required).",
        ),
    ] = "id",
) -> None:
    """Score model outputs: EM / F1 / Jaccard (puzzles) or accuracy, with a symbolic diagnosis."""
    from tsolve.engines.gc_tuning import fewer_gc_pauses
    from tsolve.verifiers.report_writers import report_writer
    from tsolve.verifiers.verify_files import verify_files

    check_format(fmt, ("text", "json", "jsonl"))
    writer = report_writer(fmt, sys.stdout)
    show = sys.stderr.isatty()  # a bar costs a few µs per row: only when someone watches
    with fewer_gc_pauses() as batch_gc:  # a one-shot process: tune the collector for the batch
        report = verify_files(
            puzzles,
            predictions,
            diagnosis,
            track=(lambda rows: tracked(rows, None, "scoring")) if show else None,
            batch_gc=batch_gc,
            missing=missing,
            claims=claims,
            on_item=None if writer is None else writer.item,
            on_error=None if writer is None else writer.error,
            engine=engine,
            engine_address=ray_address,
            match=match,
            scorer=scorer,
        )
    if writer is not None:
        writer.finish(report)
    else:
        _print_report(report)
        if claims:
            console().print(
                f"outputs with a false date claim: {report.false_claims} (see --format json)"
            )
    if report.exit_code:  # bad rows were reported and skipped; the rest was scored
        raise typer.Exit(report.exit_code)


def _report_row(label: Text, agg: dict[str, Any], metrics: list[str]) -> list[Text | str]:
    """Each mean in percent with its standard error (``45.0 ± 3.1``)."""
    from tsolve.verifiers.aggregate import stderr_key

    cells = [f"{100 * agg.get(m, 0):.1f} ± {100 * agg.get(stderr_key(m), 0):.1f}" for m in metrics]
    return [label, str(agg["n"]), *cells, str(agg["parse_failures"])]


def _print_report(report: "VerifyReport") -> None:
    from tsolve.verifiers.aggregate import is_stderr_key
    from tsolve.verifiers.report_writers import SHOWN_ON_A_TERMINAL, more_line

    out = console()
    summary = report.summary()
    for fam, data in summary["families"].items():
        metrics = [
            k for k in data["overall"] if k not in ("n", "parse_failures") and not is_stderr_key(k)
        ]
        farmed = data.get("gameable", [])
        title = fam + (f" ({', '.join(farmed)}: gameable, never a reward)" if farmed else "")
        table = Table(title=user_text(title), title_justify="left")
        table.add_column("group")
        table.add_column("n", justify="right")
        for m in metrics:  # JSON has fractions; the table percentages, labelled so
            table.add_column(f"{m.upper() if len(m) <= 3 else m} %", justify="right")
        table.add_column("unparsed", justify="right")

        table.add_row(*_report_row(Text("overall", "bold"), data["overall"], metrics))
        for key, vals in data["by"].items():
            for val, agg in vals.items():
                table.add_row(*_report_row(user_text(f"{key} = {val}"), agg, metrics))
        out.print(table)
    missing = summary["missing_predictions"]
    how = " (scored 0)" if summary["missing_scored_zero"] else " (not scored)" if missing else ""
    out.print(
        f"scored {summary['scored']} · unparseable {summary['parse_failures']} · "
        f"bad rows {summary['errors']} · without prediction {missing}{how}"
    )
    for e in report.errors[:SHOWN_ON_A_TERMINAL]:
        say(err_console(), "yellow", "warning", e)
    if (more := more_line(report.error_count)) is not None:
        err_console().print(Text(more, style="yellow"))
