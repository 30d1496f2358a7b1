"""Time-puzzle commands (being written by the lead)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Attach puzzle/solve/verify to ``app``."""
    @app.command("version")
    def version() -> None:
        """Print the tsolve version."""
        import tsolve

        typer.echo(tsolve.__version__)
