"""``tsolve span``: SPAN-style cross-calendar questions, each from a reference
date drawn from a window of dates (``--date-range``), or all from one (``--date``).

A thin shell over :mod:`tsolve.families.span.generate`. JSON Lines is exact and
byte-identical between runs; text is for reading in the terminal.
"""

from typing import Annotated

import typer

from tsolve.cli.output import Fmt

SEED_HELP = "Run seed: record i depends only on (seed, i)."
START_HELP = "Index of the first record (for shards)."
YEARS_HELP = "Largest year offset (festival questions)."
ALL_YES_HELP = "Polar gold always Yes, as in SPAN (default: balanced Yes/No)."
DATE_HELP = "One Gregorian reference date for every question, YYYY-MM-DD (the paper's runs)."
RANGE_HELP = (
    "Draw each question's reference date from this window, START..END "
    "(default 1960-01-01..2060-12-31, the SPAN paper's range)."
)


def register(app: typer.Typer) -> None:
    """Attach the ``span`` command to ``app``."""

    @app.command("span")
    def span_cmd(
        date: Annotated[str | None, typer.Option("--date", help=DATE_HELP)] = None,
        date_range: Annotated[str | None, typer.Option("--date-range", help=RANGE_HELP)] = None,
        count: Annotated[int, typer.Option("--count", help="Number of questions.")] = 40,
        seed: Annotated[int, typer.Option("--seed", help=SEED_HELP)] = 0,
        start: Annotated[int, typer.Option("--start", help=START_HELP)] = 0,
        fmt: Annotated[
            Fmt, typer.Option("--format", help="jsonl (exact, one record a line), json or text.")
        ] = Fmt.jsonl,
        max_days: Annotated[int, typer.Option("--max-days", help="Largest day offset.")] = 100,
        max_weeks: Annotated[int, typer.Option("--max-weeks", help="Largest week offset.")] = 20,
        max_years: Annotated[int, typer.Option("--max-years", help=YEARS_HELP)] = 10,
        all_yes: Annotated[bool, typer.Option("--all-yes", help=ALL_YES_HELP)] = False,
    ) -> None:
        """Generate SPAN-style questions (10 directions, date/festival, polar/content)."""
        from tsolve.cli.output import err_console, say
        from tsolve.errors import TsolveError
        from tsolve.families.span.generate import SpanConfig, domain_warnings, generate_questions

        if count < 0:
            raise TsolveError(f"count: must be non-negative, got {count}")
        if start < 0:
            raise TsolveError(f"start: must be non-negative, got {start}")
        cfg = SpanConfig(date=date, date_range=date_range, max_days=max_days,
                         max_weeks=max_weeks, max_years=max_years,
                         balanced=not all_yes)  # fmt: skip
        for line in domain_warnings(seed, start, count, cfg):
            say(err_console(), "yellow", "warning", line)
        records = generate_questions(count, seed, cfg, start)
        if fmt is not Fmt.text:
            from tsolve.cli.output import emit_stream

            emit_stream(records, fmt.value)
            return
        for rec in records:
            typer.echo(
                f"[{rec['id']}] {rec['direction']} {rec['type']}/{rec['format']}\n"
                f"  Q: {rec['question']}\n  A: {rec['answer']}\n"
            )
