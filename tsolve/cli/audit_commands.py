"""``tsolve audit FILE``: is each stored gold the only answer a careful reader could defend?

A thin shell over :func:`tsolve.audit.report.iter_audit`. ``--format jsonl``
writes one object per item as it is audited (``id``, ``family``, ``verdict``,
``detail``, ``readings``); ``json`` writes the whole report (summary, items,
errors), its proofs exact; ``text`` writes each item that is not ``ok`` with
its proof as a few numbered lines quoting the text they rest on
(:func:`tsolve.audit.explain.explain`), then the counts.
Rows that cannot be audited are reported on stderr and the batch goes on.
Every other row gives one verdict, in input order, with the record's own
``id`` value; ids that repeat an earlier row's are audited too, and warned
about once at the end.
Exit code: 0 when every item is ``ok``, 1 otherwise (also when a row was bad),
2 when the file itself is bad input.
"""

import sys
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from tsolve.cli.output import Fmt, console, err_console, tracked

PROGRESS_FROM = 50  # rows: below this a progress bar only flickers

_STYLE = {"ok": "green", "ambiguous": "yellow", "inconsistent": "bold red"}


def register(app: typer.Typer) -> None:
    """Attach ``audit`` to ``app``."""

    @app.command("audit")
    def audit_cmd(
        file: Annotated[
            str,
            typer.Argument(help="Records of any family: JSON array or JSON Lines; '-' is stdin."),
        ],
        fmt: Annotated[
            Fmt,
            typer.Option("--format", help="text (a table), jsonl (one object per item) or json."),
        ] = Fmt.text,
    ) -> None:
        """Audit each item's gold: ok, ambiguous or inconsistent (with the proof).

        Ambiguous: another admissible reading of the text gives another answer.
        Inconsistent: the gold contradicts the item's own facts; the proof is printed."""
        from tsolve.audit.report import AuditReport, RowError, iter_audit, read_records
        from tsolve.records import dumps, json_text

        rows = read_records(file)
        report = AuditReport()
        err = err_console()
        results = iter_audit(rows)
        if len(rows) >= PROGRESS_FROM:  # drawn on stderr, and only when it is a terminal
            results = tracked(results, len(rows), "auditing")
        flagged: list[tuple[Any, Any]] = []  # (verdict, its row), for the text proofs
        for row, result in zip(rows, results, strict=True):  # one result per row, in order
            report.add(result)
            if isinstance(result, RowError):
                err.print(f"[red]error[/red]: {escape(str(result))}")
            elif fmt is Fmt.jsonl:
                sys.stdout.write(dumps(result.to_json()) + "\n")
            elif fmt is Fmt.text and result.verdict != "ok":
                flagged.append((result, row))
        if (warning := report.repeated.warning("audited")) is not None:
            err.print(f"[yellow]warning[/yellow]: {escape(warning)}")
        if fmt is Fmt.json:
            sys.stdout.write(json_text(report.to_json(), indent=2) + "\n")
        elif fmt is Fmt.text:
            _print_text(report, flagged)
        if not report.all_ok:
            raise typer.Exit(1)


def _print_text(report: Any, flagged: list[tuple[Any, Any]]) -> None:
    from tsolve.audit.explain import explain

    con = console()
    for verdict, row in flagged:
        style = _STYLE[verdict.verdict]
        item = verdict.detail.get("item")
        where = f" ({item})" if isinstance(item, str) else ""
        con.print(
            f"[{style}]{verdict.verdict}[/] {escape(verdict.family)} "
            f"[bold]{escape(str(verdict.id))}[/]{escape(where)}",
            soft_wrap=True,
        )
        summary = verdict.detail.get("summary")
        if isinstance(summary, str):
            con.print(f"  {escape(summary)}", highlight=False, soft_wrap=True)
        for line in explain(verdict, row if isinstance(row, dict) else None):
            con.print(f"  {escape(line)}", highlight=False, soft_wrap=True)
        con.print()
    counts = Table(title="audit", header_style="bold")
    counts.add_column("family")
    for name, style in _STYLE.items():
        counts.add_column(f"[{style}]{name}[/]", justify="right")
    for fam, c in report.counts().items():
        counts.add_row(escape(fam), *(str(c[name]) for name in _STYLE))
    con.print(counts)
    s = report.summary()
    tail = f"; {s['ok']} ok items not listed (--format jsonl lists every item)" if s["ok"] else ""
    con.print(
        f"{s['items']} items: {s['ok']} ok, {s['ambiguous']} ambiguous, "
        f"{s['inconsistent']} inconsistent; {s['errors']} rows could not be audited{tail}"
    )
