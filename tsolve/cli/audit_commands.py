"""``tsolve audit FILE``: is each stored gold the only answer a careful reader could defend?

A thin shell over :func:`tsolve.audit.report.iter_audit`. ``--format jsonl``
writes one object per item as it is audited (``id``, ``family``, ``verdict``,
``detail``, ``readings``); ``json`` writes the whole report (summary, items,
errors); ``text`` is a table of the items that are not ``ok`` and the counts.
Rows that cannot be audited are reported on stderr and the batch goes on.
Every other row gives one verdict, in input order, with the record's own
``id`` value; ids that repeat an earlier row's are audited too, and warned
about once at the end.
Exit code: 0 when every item is ``ok``, 1 otherwise (also when a row was bad),
2 when the file itself is bad input.
"""

import json
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
        for result in results:
            report.add(result)
            if isinstance(result, RowError):
                err.print(f"[red]error[/red]: {escape(str(result))}")
            elif fmt is Fmt.jsonl:
                sys.stdout.write(dumps(result.to_json()) + "\n")
        if (warning := report.repeated.warning("audited")) is not None:
            err.print(f"[yellow]warning[/yellow]: {escape(warning)}")
        if fmt is Fmt.json:
            sys.stdout.write(json_text(report.to_json(), indent=2) + "\n")
        elif fmt is Fmt.text:
            _print_text(report)
        if not report.all_ok:
            raise typer.Exit(1)


def _detail_text(verdict: str, detail: dict[str, Any]) -> str:
    """One readable cell from a verdict's JSON detail (families differ in what
    they put there; ``summary`` is used when an auditor gives one)."""
    lines: list[str] = []
    summary = detail.get("summary")
    if isinstance(summary, str):
        lines.append(summary)
    elif verdict == "ambiguous":
        lines.append(f"reading {detail.get('reading')!s}: {detail.get('answers')!s}")
    if verdict == "inconsistent":
        proof = detail.get("proof")
        why = proof.get("why_gold_is_impossible") if isinstance(proof, dict) else None
        if isinstance(why, list):
            lines.extend(f"• {w}" for w in why)
        elif proof is not None and not lines:
            lines.append(json.dumps(proof, ensure_ascii=False)[:300])
    if not lines:
        lines.append(json.dumps(detail, ensure_ascii=False)[:300])
    return "\n".join(lines)


def _print_text(report: Any) -> None:
    con = console()
    flagged = [v for v in report.items if v.verdict != "ok"]
    if flagged:
        table = Table(header_style="bold", show_lines=True)
        table.add_column("id", overflow="fold", max_width=22)
        table.add_column("family", no_wrap=True)
        table.add_column("verdict", no_wrap=True)
        table.add_column("detail", overflow="fold", ratio=1)
        for v in flagged:
            style = _STYLE[v.verdict]
            item = v.detail.get("item")
            table.add_row(
                escape(str(v.id) + (f"\n({item})" if isinstance(item, str) else "")),
                escape(v.family),
                f"[{style}]{v.verdict}[/]",
                escape(_detail_text(v.verdict, v.detail)),
            )
        con.print(table)
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
