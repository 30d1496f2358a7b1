"""``tsolve report LOG_DIR...``: the papers' tables from Inspect logs.

A thin shell over :func:`tsolve.adapters.inspect_ai.report.build_report` (and,
for ``--table``, :func:`tsolve.plots.paper_tables.paper_table`; for ``--plot``,
:func:`tsolve.plots.conditions.condition_figure` or, with ``--figure NAME``,
:func:`tsolve.plots.paper_figures.paper_figure`); needs the ``inspect`` extra
(and ``plot`` for the picture). docs/experiments.md, "Each paper's figures"."""

from pathlib import Path
from typing import Annotated, Any

import typer

from tsolve.cli.output import Fmt


def register(app: typer.Typer) -> None:
    """Attach the ``report`` command to ``app``."""

    @app.command("report")
    def report_cmd(
        log_dirs: Annotated[
            list[Path],
            typer.Argument(help="Inspect log folders (searched recursively) or log files."),
        ],
        fmt: Annotated[
            Fmt,
            typer.Option(
                "--format", help="text, json (a list of rows), or jsonl (one row a line)."
            ),
        ] = Fmt.text,
        plot: Annotated[
            Path | None,
            typer.Option(
                help="Also draw a figure to this .png/.svg (plot extra): every panel the logs "
                "have, or the paper figure --figure names."
            ),
        ] = None,
        figure: Annotated[
            str,
            typer.Option(
                "--figure",
                help="What --plot draws: auto (every panel the logs have, the default), one "
                "paper's figure (time-puzzles, span-year, span-direction, span-type-format, "
                "unseentimeqa, tictoc), or all (each of those the logs have, one file each: "
                "OUT-NAME.png).",
            ),
        ] = "auto",
        table: Annotated[
            str | None,
            typer.Option(
                "--table",
                help="Print one paper's table instead of the per-run rows: time-puzzles, "
                "span-year, span-direction, span-type-format, unseentimeqa, tictoc, or all "
                "(text, or its rows with --format json/jsonl).",
            ),
        ] = None,
        claims: Annotated[
            bool,
            typer.Option(
                "--claims",
                help="Also check each sample's reasoning for false date claims: per row "
                "wrong_with_false_claim, false_claim_kinds, and each sample's first false claim.",
            ),
        ] = False,
    ) -> None:
        """Accuracy and tool use by task, condition, style and M over Inspect logs.

        The logs are those of tsolve's tasks; TicToc is reported by level and preference.
        --table and --figure give each paper's own table and figure (docs/experiments.md)."""
        try:
            from tsolve.adapters.inspect_ai.report import build_report
        except ImportError:
            from tsolve.cli.output import fail

            fail("report: reading Inspect logs needs inspect-ai (pip install 'tsolve[inspect]')")
        from tsolve.cli.output import emit_records, err_console, fail, say
        from tsolve.plots.paper_tables import CHOICES, grids, paper_table

        if figure not in (*CHOICES, "all", "auto"):
            fail(f"figure: unknown choice {figure!r} ({', '.join(CHOICES)}, all, auto)")
        if table is not None and table not in (*CHOICES, "all"):
            fail(f"table: unknown choice {table!r} ({', '.join(CHOICES)}, all)")
        if figure != "auto" and plot is None:
            fail(f"figure: --figure {figure} draws to the file --plot names (add --plot OUT.png)")
        if plot is not None:
            from tsolve.plots.output import check_out

            check_out(plot)
        report = build_report(log_dirs, claims=claims)
        if table is not None:
            table_rows = paper_table(report.rows, table)
            if fmt is Fmt.text:
                _print_grids(grids(table_rows))
            else:
                emit_records(table_rows, fmt.value)
        elif fmt is Fmt.text:
            _print_tables(report.rows)
        else:
            emit_records(report.rows, fmt.value)
        if plot is not None:
            for written in _draw(report.rows, figure, plot):
                say(err_console(), "green", "wrote", str(written))
        for bad in report.bad_logs:
            say(err_console(), "red", "bad log", f"{bad['log']}: {bad['error']}")
        for bad in report.bad_samples[:SHOWN_BAD]:
            where = f"{bad['log']}: sample {bad['sample']!r} epoch {bad['epoch']}"
            say(err_console(), "red", "bad sample", f"{where}: {bad['error']}")
        if len(report.bad_samples) > SHOWN_BAD:
            more = len(report.bad_samples) - SHOWN_BAD
            say(err_console(), "red", "bad sample", f"... and {more} more (left out)")
        if report.bad_samples:
            say(err_console(), "red", "bad samples", f"{len(report.bad_samples)} left out")
        for dup in report.duplicates:
            say(err_console(), "yellow", "read once", f"{dup['log']}: {dup['reason']}")
        for name in report.skipped:
            say(err_console(), "yellow", "skipped", f"{name} (not a tsolve task)")
        if report.exit_code:
            raise typer.Exit(report.exit_code)


def _draw(rows: list[dict[str, Any]], figure: str, plot: Path) -> list[Path]:
    """Draw ``figure`` of ``rows`` to ``plot`` (``all``: each paper figure
    the rows have, to ``plot``'s name with ``-NAME`` added)."""
    if figure == "auto":
        from tsolve.plots.conditions import condition_figure

        return [condition_figure(rows, plot)]
    from tsolve.plots.paper_figures import figures_with_data, paper_figure

    if figure != "all":
        return [paper_figure(rows, figure, plot)]
    names = figures_with_data(rows)
    if not names:
        from tsolve.cli.output import fail

        fail("figure all: no rows of a tsolve task to draw")
    return [paper_figure(rows, n, plot.with_name(f"{plot.stem}-{n}{plot.suffix}")) for n in names]


def _print_grids(tables: list[Any]) -> None:
    """Paper tables (:class:`tsolve.plots.paper_tables.Grid`) as text."""
    from rich.table import Table

    from tsolve.cli.output import console, user_text

    out = console()
    out.width = max(out.width, 200)
    for grid in tables:
        # the title on a line of its own: a table's title wraps at the table's width
        out.print(user_text(grid.title), style="bold")
        shown = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        for i, head in enumerate(grid.header):
            shown.add_column(user_text(head), justify="left" if i == 0 else "right")
        for line in grid.rows:
            shown.add_row(*(user_text(c) for c in line))
        out.print(shown)
        out.print()


#: How many bad samples are named on stderr (all are counted).
SHOWN_BAD = 20


def _num(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


#: Short column headings for the text tables (JSON keeps the full names).
HEADINGS = {
    "condition": "condition", "style": "style", "M": "M", "n": "n", "accuracy": "acc",
    "stderr": "se", "mean_tool_calls": "tools", "mean_turns": "turns",
    "mean_output_tokens": "out_tok", "errors": "err", "level": "level",
    "preference": "preference", "attempt_rate": "attempt", "nar": "NAR",
    "jaccard": "jac", "alt_reading": "alt", "partial": "part", "run": "run",
    "epochs": "epochs", "reference_year": "ref_year", "direction": "direction",
    "wrong_with_false_claim": "wrong+claim",
}  # fmt: skip


def _print_tables(rows: list[dict[str, Any]]) -> None:
    """One table per task and model: the family tasks' rows, or TicToc's by
    level; a ``run`` column names what tells runs apart when there are
    several, and ``epochs`` shows the epochs behind each sample."""
    from rich.table import Table

    from tsolve.cli.output import console, user_text
    from tsolve.plots.run_labels import run_label

    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["task"], row["model"]), []).append(row)
    # as wide as the tables need: a narrow terminal (or a pipe's 80 columns)
    # must not cut figures short
    out = console()
    out.width = max(out.width, 200)
    for (task, model), task_rows in groups.items():
        table = Table(
            title=f"{task}  {model}", show_edge=False, pad_edge=False, box=None,
            header_style="bold", title_justify="left",
        )  # fmt: skip
        # runs told apart among those of one condition and style (the columns
        # say those)
        labels = [
            run_label(r, [o for o in task_rows if (o["condition"], o.get("style"))
                          == (r["condition"], r.get("style"))])
            for r in task_rows
        ]  # fmt: skip
        shown = [{**r, "run": label} for r, label in zip(task_rows, labels, strict=True)]
        extra = ["run"] if any(labels) else []
        if any(r.get("epochs", 1) != 1 for r in task_rows):
            extra.append("epochs")
        if "level" in task_rows[0]:
            cols = [*extra, "level", "preference", "n", "accuracy", "stderr", "attempt_rate", "nar"]
        else:
            span = ["reference_year", "direction"] if "direction" in task_rows[0] else []
            span += [f for f in ("type", "format", "difficulty", "question_type")
                     if f in task_rows[0]]  # fmt: skip
            # a family's "accuracy" metric is the acc column already
            metric_names = sorted({k for r in task_rows for k in r["metrics"]} - {"accuracy"})
            cols = [*extra, "condition", "style", "M", *span, "n", "accuracy", "stderr",
                    *metric_names,
                    *(["wrong_with_false_claim"] if "false_claims" in task_rows[0] else []),
                    "mean_tool_calls", "mean_turns", "mean_output_tokens",
                    "errors"]  # fmt: skip
        for col in cols:
            left = col in ("run", "condition", "style", "preference", "direction", "type",
                           "format", "difficulty", "question_type")  # fmt: skip
            table.add_column(HEADINGS.get(col, col), justify="left" if left else "right")
        for r in shown:
            table.add_row(*(user_text(_num(r[c] if c in r else r["metrics"].get(c))) for c in cols))
        out.print(table)
        out.print()
