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
    row_count,
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
            track=(lambda rows: tracked(rows, row_count(predictions), "scoring")) if show else None,
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


CELL_FORMS = ("{m:.1f} ± {s:.1f}", "{m:.1f}±{s:.1f}", "{m:.1f}\n±{s:.1f}")
"""A mean in percent with its standard error, from the widest form to the
narrowest: a table takes the first that fits the terminal with every label
wrapped at its spaces, so a value is never cut ("59.2 ±" on one line, "3.7"
on the next) and a label never truncated ("difficul…")."""


def _report_row(
    label: Text, agg: dict[str, Any], metrics: list[str], form: str
) -> list[Text | str]:
    """Each mean in percent with its standard error (``45.0 ± 3.1``)."""
    from tsolve.verifiers.aggregate import stderr_key

    cells = [form.format(m=100 * agg.get(m, 0), s=100 * agg.get(stderr_key(m), 0)) for m in metrics]
    return [label, str(agg["n"]), *cells, str(agg["parse_failures"])]


def family_table(width: int, title: str, data: dict[str, Any], metrics: list[str]) -> Table:
    """One family's table, ``width`` columns wide at most: the values in the
    first of :data:`CELL_FORMS` that leaves the label column room for its
    longest word, the label column as wide as what is left (labels wrap at
    their spaces: "fact_kind =" over "day_of_month_range"). Widths are set
    here, not left to rich, which narrows the widest column first, below
    its longest word, and then truncates it."""
    groups = [(Text("overall", "bold"), data["overall"])] + [
        (user_text(f"{key} = {val}"), agg) for key, vals in data["by"].items()
        for val, agg in vals.items()
    ]  # fmt: skip
    headers = ["group", "n", *(f"{m.upper() if len(m) <= 3 else m} %" for m in metrics),
               "unparsed"]  # fmt: skip
    label_words = max(len(w) for label, _ in groups for w in label.plain.split())
    label_whole = max(len(label.plain) for label, _ in groups)
    chrome = 3 * len(headers) + 1  # a border and a space either side per column
    for form in CELL_FORMS:
        rows = [_report_row(label, agg, metrics, form) for label, agg in groups]
        stacked = "\n" in form  # cells on two lines: headers may wrap too
        widths = []
        for col, header in enumerate(headers[1:], start=1):
            head = max(len(w) for w in header.split()) if stacked else len(header)
            cells = max(len(line) for row in rows for line in str(row[col]).split("\n"))
            widths.append(max(head, cells))
        room = width - chrome - sum(widths)
        if room >= max(label_words, len("group")) or stacked:
            break
    table = Table(title=user_text(title), title_justify="left")
    table.add_column(headers[0], width=max(min(label_whole, room), label_words, len("group")))
    for header, w in zip(headers[1:], widths, strict=True):
        table.add_column(header, justify="right", width=w, no_wrap=not stacked)
    for row in rows:
        table.add_row(*row)
    return table


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
        out.print(family_table(out.width, title, data, metrics))
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
