"""``tsolve calendar convert|festival|festivals``: SPAN's ``search_calendar`` as a CLI.

A thin shell over :mod:`tsolve.calendars` (the conversion table, with its
out-of-range policy, is :func:`tsolve.calendars.conversion.conversion_items`):
parse, call the library, print.
JSON output is exact (numbers, names, leap flags); text output is a rich table.
"""

from typing import Annotated, Any

import typer

from tsolve.cli.output import Fmt, json_text

DatesArg = Annotated[list[str], typer.Argument(help="Dates as Y-M-D (Chinese leap month: Y-L4-D).")]
FromOpt = Annotated[str, typer.Option("--from", help="Calendar of the input dates.")]
ToOpt = Annotated[
    str | None, typer.Option("--to", help="Comma-separated target calendars (default: all).")
]
FmtOpt = Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")]
NameArg = Annotated[str, typer.Argument(help="Festival name, e.g. 'Mid-Autumn Festival'.")]
YearOpt = Annotated[int | None, typer.Option("--year", help="Year (default: this Gregorian year).")]
YearCalOpt = Annotated[
    str, typer.Option("--calendar", help="Calendar of --year: gregorian or the festival's own.")
]


def _cell(cal: str, v: dict[str, Any] | None) -> str:
    if v is None:
        return "—"
    if cal == "chinese":
        return f"{v['year']} {v['month_name']}, day {v['day']}"
    return f"{v['day']} {v['month_name']} {v['year']}"


def _print(entries: list[dict[str, Any]], fmt: Fmt, title: str, heads: list[str]) -> None:
    """``entries`` as JSON, or as a table with one column per entry headed by
    ``heads`` (the dates as given, or a festival's Gregorian dates)."""
    if fmt is Fmt.json:
        typer.echo(json_text(entries, indent=2))
        return
    if fmt is Fmt.jsonl:
        for e in entries:
            typer.echo(json_text(e, separators=(",", ":")))
        return
    from rich.table import Table

    from tsolve.cli.output import console

    # One row per calendar and one column per input date: a date in seven
    # calendars is then two columns, which fits an 80-column terminal (one
    # column per calendar needed ~150). Rich wraps cells when there are many inputs.
    cals = list(entries[0]) if entries else []
    t = Table(title=title, show_lines=False)
    t.add_column("calendar", style="bold")
    for h in heads:
        t.add_column(h)
    for c in cals:
        t.add_row(c, *(_cell(c, e[c]) for e in entries))
    console().print(t)


def register(app: typer.Typer) -> None:
    """Attach the ``calendar`` command group to ``app``."""
    cal_app = typer.Typer(
        help="Convert dates between calendars and resolve festivals.",
        no_args_is_help=True,
    )
    app.add_typer(cal_app, name="calendar")

    @cal_app.command("convert")
    def convert_cmd(
        dates: DatesArg,
        from_: FromOpt = "gregorian",
        to: ToOpt = None,
        fmt: FmtOpt = Fmt.text,
    ) -> None:
        """Convert DATE... from one calendar to others (default: Gregorian to all).

        Months may be numbers or names (5784-Adar II-14); a Chinese leap month is
        written L4 (2023-L2-15). Out-of-range calendars print as null unless named in --to.
        """
        import numpy as np

        from tsolve.calendars.conversion import calendar_list, conversion_items, date_of, parse_date
        from tsolve.calendars.tables import check_calendar

        src = check_calendar(from_, "from")
        targets = calendar_list(to)
        days = np.array([date_of(src, *parse_date(d, src, "date")) for d in dates], dtype=np.int64)
        _print(conversion_items(days, targets), fmt, f"from {src}", list(dates))

    @cal_app.command("festival")
    def festival_cmd(
        name: NameArg,
        year: YearOpt = None,
        calendar: YearCalOpt = "gregorian",
        to: ToOpt = None,
        fmt: FmtOpt = Fmt.text,
    ) -> None:
        """Resolve festival NAME in a year to its dates in every calendar."""
        import datetime as _dt

        from tsolve.calendars.conversion import calendar_list, conversion_items
        from tsolve.calendars.festivals import festival, get_festival

        fest = get_festival(name)
        y = _dt.date.today().year if year is None else year
        days = festival(fest.key, y, calendar)
        entries = conversion_items(days, calendar_list(to))
        if fmt is Fmt.text:
            from tsolve.calendars.domain import iso

            # Each column is one occurrence, headed by its Gregorian date (two
            # in the Gregorian years that hold two Islamic festivals); "1" said nothing.
            title = f"{fest.name} ({fest.rule()}) in {calendar} year {y}"
            _print(entries, fmt, title, [iso(d) for d in days])
            return
        from tsolve.calendars.tables import check_calendar

        head = {"festival": fest.key, "name": fest.name, "rule": fest.rule(),
                "year": y, "year_calendar": check_calendar(calendar)}  # fmt: skip
        rows = [{**head, "dates": e} for e in entries]
        if fmt is Fmt.json:
            typer.echo(json_text(rows, indent=2))
        else:
            for r in rows:
                typer.echo(json_text(r, separators=(",", ":")))

    @cal_app.command("festivals")
    def festivals_cmd() -> None:
        """List the known festivals and their rules."""
        from rich.table import Table

        from tsolve.calendars.festivals import FESTIVALS
        from tsolve.cli.output import console

        t = Table(
            title="festivals",
            caption="Appendix A: in the 21 festivals of the cross-calendar benchmark "
            "paper's Appendix A",
        )
        for col in ("key", "name", "calendar", "rule", "Appendix A"):
            t.add_column(col)
        for f in FESTIVALS:
            t.add_row(f.key, f.name, f.calendar, f.rule(), "yes" if f.span else "")
        console().print(t)
