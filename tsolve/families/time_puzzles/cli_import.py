"""``tsolve import time-puzzles FILE --out OUT.jsonl``: the Time Puzzles release
(Zhengxiang Wang and Zeyu Dong, 2026, arXiv:2601.07148), its ``puzzles.json``
or its password-protected ``data.zip``, as tsolve records; a thin shell over
:func:`tsolve.families.time_puzzles.release.import_release`. Each gold is
proved by tsolve's solver beside the published one (``tsolve audit
OUT.jsonl`` judges the published answers). A puzzle that does not map is
named on stderr and the others are written. Exit code: 0 when every puzzle
was imported, 1 when one was not, 2 on bad input.

The family's ``import_cli`` part: :mod:`tsolve.cli.import_commands` adds it
to the ``tsolve import`` group.
"""

from typing import Annotated

import typer

from tsolve.cli.output import Fmt, emit_report, err_console


def register(group: typer.Typer) -> None:
    """Attach ``time-puzzles`` to the ``tsolve import`` group."""

    @group.command("time-puzzles")
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
