"""``tsolve families``: what task families are registered, and what each can do.

A thin shell over :func:`tsolve.families.all_families` and
:func:`tsolve.families.describe`; third-party families come from the
``tsolve.families`` entry-point group (docs/extending.md)."""

from typing import Annotated

import typer

from tsolve.cli.output import Fmt


def register(app: typer.Typer) -> None:
    """Attach the ``families`` command to ``app``."""

    @app.command("families")
    def families_cmd(
        fmt: Annotated[
            Fmt, typer.Option("--format", help="text, json, or jsonl (the document on one line).")
        ] = Fmt.text,
    ) -> None:
        """List the registered task families: built-in and from installed packages."""
        from tsolve.cli.output import console, emit_report, user_text
        from tsolve.contract import REGISTRY, all_families, describe

        rows = [describe(f) for f in all_families()]
        broken = dict(REGISTRY.broken)
        if fmt is not Fmt.text:
            emit_report({"families": rows, "broken": broken}, fmt.value)
            return
        from rich.table import Table

        table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        for col in ("family", "version", "can", "from"):
            table.add_column(col)
        for r in rows:
            can = ", ".join(r["capabilities"]) if r["available"] else "(not installed)"
            origin = r["origin"].split(" (")[0]  # the package; JSON has the entry point too
            table.add_row(user_text(r["name"]), user_text(r["version"]), can, user_text(origin))
        out = console()
        out.print(table)
        for name, why in broken.items():
            out.print(user_text(f"broken: {name}: {why}"), style="red")
