"""``tsolve check-claims``: find the date claims in a text and check each one.

A thin shell over :func:`tsolve.claims.source.check_source`; what is recognised
is documented in docs/claims.md.
"""

from typing import TYPE_CHECKING, Annotated

import typer

from tsolve.cli.output import Fmt

if TYPE_CHECKING:
    from tsolve.claims.result import ClaimCheck

SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="TEXT|FILE",
        help="A file of text, '-' for stdin, or the text itself (an existing path is a file).",
    ),
]
FmtOpt = Annotated[
    Fmt, typer.Option("--format", help="text (a table), json (an array) or jsonl (a claim a line).")
]


def register(app: typer.Typer) -> None:
    """Attach ``check-claims`` to ``app``."""

    @app.command("check-claims")
    def check_claims_cmd(source: SourceArg, fmt: FmtOpt = Fmt.text) -> None:
        """Check the date claims in TEXT|FILE: weekdays, leap years, dates across calendars.

        Date arithmetic, festival dates and month lengths are checked too.

        Each claim gets a verdict (true, false, unknown, or unread when
        only part of it was understood) and, when false, the correct value.
        Exit code 0 whatever the verdicts.
        """
        from tsolve.claims.source import check_source

        found = check_source(source)
        if fmt is not Fmt.text:
            from tsolve.cli.output import emit_stream

            emit_stream((c.to_json() for c in found), fmt.value)
            return
        _print_table(found)


def _print_table(found: "list[ClaimCheck]") -> None:
    from collections import Counter

    from rich.table import Table

    from tsolve.cli.output import console, user_text

    out = console()
    if found:
        t = Table(show_lines=False)
        for col in ("line", "kind", "verdict", "claim", "correct / note"):
            t.add_column(col, overflow="fold")
        for c in found:
            extra = c.correct if c.verdict == "false" and c.correct else (c.note or "")
            t.add_row(str(c.line), c.kind, c.verdict, user_text(c.text), user_text(extra))
        out.print(t)
    counts = Counter(c.verdict for c in found)
    out.print(
        f"{len(found)} claims: {counts['true']} true, {counts['false']} false, "
        f"{counts['unknown']} unknown, {counts['unread']} unread"
    )
