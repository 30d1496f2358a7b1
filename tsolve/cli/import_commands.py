"""``tsolve import``: another benchmark's published release, as tsolve records.

``tsolve import time-puzzles FILE --out OUT.jsonl`` is a thin shell over
:func:`tsolve.families.time_puzzles.release.import_release`: the Time Puzzles
release (Zhengxiang Wang and Zeyu Dong, 2026, arXiv:2601.07148), its
``puzzles.json`` or its password-protected ``data.zip``, one record per
puzzle, each gold proved by tsolve's solver beside the published one
(``tsolve audit OUT.jsonl`` judges the published answers). A puzzle that does
not map is named on stderr and the others are written. Exit code: 0 when
every puzzle was imported, 1 when one was not, 2 on bad input.
"""

from typing import Annotated

import typer

from tsolve.cli.output import Fmt, emit_report, err_console


def register(app: typer.Typer) -> None:
    """Attach the ``import`` command group to ``app``."""
    imp = typer.Typer(
        name="import",
        help="Read another benchmark's published release into tsolve records (Time Puzzles).",
        no_args_is_help=True,
    )
    app.add_typer(imp, name="import")

    @imp.command("time-puzzles")
    def time_puzzles_cmd(
        file: Annotated[str, typer.Argument(help="The release's puzzles.json, or its data.zip.")],
        out: Annotated[str, typer.Option("--out", help="JSON Lines file to write.")],
        password: Annotated[
            str | None,
            typer.Option(help="data.zip's password (the authors' README gives it)."),
        ] = None,
        backend: Annotated[str, typer.Option(help="Solver backend.")] = "cpsat",
        fmt: Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")] = Fmt.text,
    ) -> None:
        """Import the Time Puzzles release: one record per puzzle, with tsolve's
        proved answers beside the published ones, both styles' sentences and
        the paper's prompt. Audit it with `tsolve audit OUT --format jsonl`."""
        from tsolve.families.time_puzzles.release import import_release

        report = import_release(file, out, password=password, backend=backend)
        for bad in report.bad:
            err_console().print(f"bad puzzle: {bad}", markup=False, highlight=False)
        if fmt is not Fmt.text:
            emit_report(report.to_json(), fmt.value)
        else:
            typer.echo(
                f"imported {report.imported} of {report.total} puzzles to {report.out} "
                f"({report.changed} with answers other than the published ones) "
                f"in {report.seconds:.1f} s"
            )
        if not report.complete:
            raise typer.Exit(1)
