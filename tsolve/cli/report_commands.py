"""``tsolve report LOG_DIR...``: the papers' tables from Inspect logs.

A thin shell over :func:`tsolve.adapters.inspect_ai.report.build_report` (and,
for ``--table``, :func:`tsolve.plots.paper_tables.paper_table`; for ``--plot``,
:func:`tsolve.plots.figure_files.draw_figures`: the condition figure, or with
``--figure NAME`` a paper's, its files checked before anything is printed);
needs the ``inspect`` extra (and ``plot`` for the picture).
docs/experiments.md, "Each paper's figures"."""

from pathlib import Path
from typing import Annotated, Any

import typer

from tsolve.cli.output import Fmt


def _paper_choices() -> str:
    """The paper tables and figures ``--table`` and ``--figure`` take, from
    their one list (:data:`tsolve.plots.paper_tables.CHOICES`)."""
    from tsolve.plots.paper_tables import CHOICES

    return ", ".join(CHOICES)


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
                f"paper's figure ({_paper_choices()}), or all (each of those the logs have, one "
                "file each: OUT-NAME.png).",
            ),
        ] = "auto",
        table: Annotated[
            str | None,
            typer.Option(
                "--table",
                help=f"Print one paper's table instead of the per-run rows: {_paper_choices()}, "
                "or all (text, or its rows with --format json/jsonl).",
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
            from tsolve.adapters.inspect_ai.report import build_report, shown_id
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
        if plot is not None:
            from tsolve.plots.figure_files import figure_files

            figure_files(report.rows, figure, plot)  # a link at a derived name: refused first
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
            from tsolve.plots.figure_files import draw_figures

            for written in draw_figures(report.rows, figure, plot):
                say(err_console(), "green", "wrote", str(written))
        for bad in report.bad_logs:
            say(err_console(), "red", "bad log", f"{bad['log']}: {bad['error']}")
        for bad in report.bad_samples[:SHOWN_BAD]:
            where = f"{bad['log']}: sample {shown_id(bad['sample'])!r} epoch {bad['epoch']}"
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


def _print_grids(tables: list[Any]) -> None:
    """Paper tables (:class:`tsolve.plots.paper_tables.Grid`) as text, each
    fitted to the terminal (:mod:`tsolve.cli.fitted_table`: its first column
    names the row)."""
    from tsolve.cli.fitted_table import print_fitted
    from tsolve.cli.output import console, user_text

    out = console()
    for grid in tables:
        out.print(user_text(grid.title), style="bold")
        print_fitted(out, grid.header, grid.rows, keys=1, left={0})
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
    "wrong_with_false_claim": "wrong+claim", "accuracy_published": "acc_pub",
    "stderr_published": "se_pub", "n_published": "n_pub",
}  # fmt: skip

#: The columns of text (left-justified; they may wrap): the others are figures.
TEXT_COLUMNS = (
    "run", "condition", "style", "preference", "direction", "type", "format", "difficulty",
    "question_type",
)  # fmt: skip


def _print_tables(rows: list[dict[str, Any]]) -> None:
    """One table per task and model: the family tasks' rows, or TicToc's by
    level; a ``run`` column names what tells runs apart when there are
    several, and ``epochs`` shows the epochs behind each sample."""
    from tsolve.cli.fitted_table import print_fitted
    from tsolve.cli.output import console, user_text
    from tsolve.plots.run_labels import run_label

    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["task"], row["model"]), []).append(row)
    # fitted to the terminal (or a pipe's COLUMNS, else 80): a table too wide
    # is printed in blocks, its keys repeated, no figure cut short
    out = console()
    for (task, model), task_rows in groups.items():
        out.print(user_text(f"{task}  {model}"), style="bold")
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
            # the breakdowns the task's rows carry (as the report keys them)
            breakdowns = ["reference_year", "direction"] if "direction" in task_rows[0] else []
            breakdowns += [f for f in ("type", "format", "difficulty", "question_type")
                           if f in task_rows[0]]  # fmt: skip
            # a family's "accuracy" metric is the acc column already
            metric_names = sorted({k for r in task_rows for k in r["metrics"]} - {"accuracy"})
            # against a published gold too (an imported release): side by side
            published = (["n_published", "accuracy_published", "stderr_published"]
                         if any(r.get("n_published") for r in task_rows) else [])  # fmt: skip
            cols = [*extra, "condition", "style", "M", *breakdowns, "n", "accuracy", "stderr",
                    *published, *metric_names,
                    *(["wrong_with_false_claim"] if "false_claims" in task_rows[0] else []),
                    "mean_tool_calls", "mean_turns", "mean_output_tokens",
                    "errors"]  # fmt: skip
        left = {i for i, col in enumerate(cols) if col in TEXT_COLUMNS}
        cells = [[_num(r[c] if c in r else r["metrics"].get(c)) for c in cols] for r in shown]
        header = [HEADINGS.get(col, col) for col in cols]
        print_fitted(out, header, cells, keys=cols.index("n"), left=left)
        out.print()
