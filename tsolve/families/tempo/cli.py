"""``tsolve tempo``: TEMPO's temporal retrieval metrics and the temporal tagger.

Thin shells over :func:`tsolve.families.tempo.score_files` and :func:`tsolve.families.tempo.tag`
(formats in ``docs/tempo.md``). ``score`` prints a table (text) or one JSON
object; bad rows go to stderr and the batch goes on. Exit code: 0 when every
row was read, 1 when some row was bad, 2 when a file or an option is bad.
"""

import datetime as _dt
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from tsolve.cli.output import Fmt, console, emit_report, err_console


def _reference(value: str | None) -> _dt.date | None:
    from tsolve.calendars.domain import parse_iso

    return None if value is None else parse_iso(value, "reference-date")


_HELP = {
    "queries": "Queries: JSON Lines/array with scope/periods or text.",
    "run": "Run: TREC 'qid Q0 docid rank score tag' or JSON Lines {qid, docs}.",
    "docs": "Documents: JSON Lines/array with scope or text.",
    "qrels": "Graded qrels for NDCG (TREC or JSON Lines); else binary temporal relevance.",
    "k": "Cut-offs, comma-separated.",
    "format": "text (a table), json, or jsonl (the same document on one line).",
    "reference": "Date that relative expressions ('last year') count from, YYYY-MM-DD "
    "(rows may set their own reference_date).",
    "source": "Text to tag, or a file holding it ('-' is stdin).",
}


def register(app: typer.Typer) -> None:
    """Attach the ``tempo`` command group to ``app``."""
    tp = typer.Typer(
        name="tempo",
        help="TEMPO temporal retrieval metrics from time scopes (TP, TR, TC, NDCG|FC); the tagger.",
        no_args_is_help=True,
    )
    app.add_typer(tp, name="tempo")

    @tp.command("score")
    def score_cmd(
        queries: Annotated[str, typer.Argument(help=_HELP["queries"])],
        run: Annotated[str, typer.Argument(help=_HELP["run"])],
        docs: Annotated[str, typer.Option("--docs", help=_HELP["docs"])],
        qrels: Annotated[str | None, typer.Option(help=_HELP["qrels"])] = None,
        k: Annotated[str, typer.Option("--k", help=_HELP["k"])] = "1,5,10",
        fmt: Annotated[Fmt, typer.Option("--format", help=_HELP["format"])] = Fmt.text,
        reference_date: Annotated[str | None, typer.Option(help=_HELP["reference"])] = None,
    ) -> None:
        """Score a run: TP@k, TR@k, TC@k, NDCG@k and NDCG|FC@k from time-scope overlaps."""
        from tsolve.families.tempo import parse_ks, score_files

        report = score_files(queries, run, docs, qrels, parse_ks(k), _reference(reference_date))
        err = err_console()
        for b in report.bad_rows:
            err.print(f"[red]bad row[/red] {escape(str(b))}")
        for w in report.warnings:
            err.print(f"[yellow]warning[/yellow] {escape(w)}")
        if fmt is not Fmt.text:
            emit_report(report.to_json(), fmt.value)
        else:
            _print_summary(report)
        if report.bad_rows:
            raise typer.Exit(1)

    @tp.command("tag")
    def tag_cmd(
        source: Annotated[str, typer.Argument(help=_HELP["source"])],
        fmt: Annotated[Fmt, typer.Option("--format", help=_HELP["format"])] = Fmt.text,
        reference_date: Annotated[str | None, typer.Option(help=_HELP["reference"])] = None,
    ) -> None:
        """Show the temporal expressions found in a text: span, matched text, interval."""
        from tsolve.families.tempo import tag, temporal_intent
        from tsolve.records.text_source import read_text_source

        text = read_text_source(source)
        ref = _reference(reference_date)
        found = tag(text, ref)
        intent = temporal_intent(text, ref)
        if fmt is not Fmt.text:
            tagged = {
                "reference_date": None if ref is None else ref.isoformat(),
                "intent": intent.intent,
                "cross_period": intent.cross_period,
                "findings": [f.to_json() for f in found],
            }
            emit_report(tagged, fmt.value)
            return
        table = Table(header_style="bold")
        for col in ("span", "text", "kind", "interval", "note"):
            table.add_column(col, overflow="fold")
        for f in found:
            note = f.note
            if f.alternatives:
                note = note or "; ".join(str(a) for a in f.alternatives)
            table.add_row(
                f"{f.start}-{f.end}",
                escape(f.text),
                f.kind,
                "unresolved" if f.interval is None else str(f.interval),
                escape(note),
            )
        con = console()
        con.print(table)
        con.print(
            f"{len(found)} findings; intent {intent.intent}"
            + (" (cross-period)" if intent.cross_period else "")
        )


def _print_summary(report: object) -> None:
    from tsolve.families.tempo import TempoReport
    from tsolve.families.tempo.scoring import METRICS

    assert isinstance(report, TempoReport)
    summary = report.summary()
    table = Table(title=f"TEMPO metrics over {len(report.queries)} queries", header_style="bold")
    table.add_column("metric")
    for k in report.ks:
        table.add_column(f"@{k}", justify="right")
    for name in METRICS:
        cells = []
        for k in report.ks:
            s = summary[f"{name}@{k}"]
            mean = "–" if s["mean"] is None else f"{s['mean']:.4f}"
            cells.append(mean if s["n"] == len(report.queries) else f"{mean} (n={s['n']})")
        table.add_row(name, *cells)
    con = console()
    con.print(table)
    gains = "qrels grades" if report.graded else "binary temporal relevance"
    con.print(
        f"NDCG gains: {gains}. (n=…) marks a mean over the queries where the metric is "
        "defined (NDCG|FC: full coverage; others: a time scope)."
    )
