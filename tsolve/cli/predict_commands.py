"""``tsolve predict``: example predictions (gold, random, perturbed gold).

A thin shell over :func:`tsolve.verifiers.baselines.predict`; it writes JSON Lines of
``{"id", "output"}``, the form ``tsolve verify`` reads.
"""

from typing import Annotated

import typer

from tsolve.cli.output import err_console, open_output, say


def register(app: typer.Typer) -> None:
    """Attach ``predict`` to ``app``."""
    app.command("predict")(predict)


def predict(
    records: Annotated[
        str, typer.Argument(metavar="RECORDS", help="Task records of any family; '-' is stdin.")
    ],
    baseline: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            help="gold (the stored answer), random (another record's gold) or perturbed "
            "(the gold with one value moved).",
        ),
    ] = "gold",
    out: Annotated[
        str, typer.Option("--out", "-o", metavar="FILE", help="JSON Lines file; '-' is stdout.")
    ] = "-",
    seed: Annotated[int, typer.Option(min=0, help="Seed of the random baseline.")] = 0,
) -> None:
    """Write example predictions {"id", "output"} for RECORDS, ready for `tsolve verify`."""
    import sys

    from tsolve.records import dumps, format_from_suffix, iter_json_rows
    from tsolve.verifiers.baselines import predict as make_predictions

    format_from_suffix(out, {".jsonl": "jsonl"}, "jsonl")  # before any work
    errors: list[str] = []
    rows = make_predictions(iter_json_rows(records), baseline, seed, on_error=errors.append)
    stream = sys.stdout if out == "-" else open_output(out)
    try:
        for row in rows:
            stream.write(dumps(row) + "\n")
    finally:
        if stream is not sys.stdout:
            stream.close()
    for e in errors:
        say(err_console(), "yellow", "warning", e)
    if errors:  # bad rows were reported and skipped; the rest was written
        raise typer.Exit(1)
