"""``tsolve serve-rewards``: a thin shell over :func:`tsolve.rl.server.serve_rewards`."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Attach the ``serve-rewards`` command to ``app``."""

    @app.command("serve-rewards")
    def serve_rewards_cmd(
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 5000,
        host: Annotated[
            str, typer.Option(help="Address to bind (127.0.0.1: this machine only).")
        ] = "127.0.0.1",
        workers: Annotated[
            int | None, typer.Option(help="Scoring processes (default: one per core).")
        ] = None,
        max_in_flight: Annotated[int, typer.Option(help="Batches scored at once.")] = 8,
        max_body: Annotated[int, typer.Option(help="Largest request body, in bytes.")] = 16 << 20,
        max_connections: Annotated[
            int, typer.Option(help="Open connections before new ones get 503.")
        ] = 1024,
    ) -> None:
        """Serve rewards over HTTP: OpenRLHF's /get_reward, a batch /score, /health (docs/rl.md).

        No authentication: binding another address than 127.0.0.1 lets anyone who reaches the
        port spend this machine's CPU."""
        from tsolve.rl.server import serve_rewards

        serve_rewards(port, host, workers, max_in_flight, max_body, max_connections)
