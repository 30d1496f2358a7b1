"""``tsolve mcp``: tsolve's agent tools as an MCP server on stdio.

A thin shell over :func:`tsolve.adapters.mcp_server.serve`; the tools themselves are
:mod:`tsolve.adapters.agent_tools`. Needs the ``mcp`` extra (``pip install
'tsolve[mcp]'``); see docs/mcp.md for the tools and a client configuration."""

import typer


def register(app: typer.Typer) -> None:
    """Attach the ``mcp`` command to ``app``."""

    @app.command("mcp")
    def mcp_cmd() -> None:
        """Serve tsolve's agent tools to an MCP client over stdio (see docs/mcp.md).

        Tools: search_calendar, convert_date, festival_date, solve_facts, list_fact_kinds,
        check_claim, verify_answer, lookup_knowledge.
        """
        from tsolve.adapters.mcp_server import serve

        serve()
