"""``tsolve export``: a tsolve run in a third-party evaluator's own format.

``tsolve export lm-eval DIR --family F --count N --seed S`` is a thin shell
over :func:`tsolve.adapters.lm_eval.export_lm_eval` (docs/rl.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from tsolve.cli.output import Fmt, emit_report


def register(app: typer.Typer) -> None:
    """Attach the ``export`` command group to ``app``."""
    ex = typer.Typer(
        name="export",
        help="Write a tsolve run as a task of another evaluator (lm-evaluation-harness).",
        no_args_is_help=True,
    )
    app.add_typer(ex, name="export")

    @ex.command("lm-eval")
    def lm_eval_cmd(
        directory: Annotated[str, typer.Argument(help="Folder to write (new or empty).")],
        family: Annotated[str, typer.Option(help="Family to generate.")] = "time-puzzles",
        count: Annotated[int, typer.Option(help="Number of records.")] = 100,
        seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
        config: Annotated[str | None, typer.Option(help="JSON file of generator options.")] = None,
        set_: Annotated[
            list[str] | None,
            typer.Option("--set", help="Generator option KEY=VALUE (repeatable)."),
        ] = None,
        task: Annotated[
            str | None, typer.Option(help="Task name (default tsolve_<family>_s<seed>_n<count>).")
        ] = None,
        max_gen_toks: Annotated[int, typer.Option(help="Generation budget per item.")] = 2048,
        fmt: Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")] = Fmt.text,
    ) -> None:
        """Write an lm-evaluation-harness task folder: YAML, data and a utils.py
        whose process_results calls tsolve's scorer. Run it with
        `lm_eval --model M --tasks NAME --include_path DIR`."""
        from tsolve.adapters.lm_eval import export_lm_eval
        from tsolve.contract import get_family
        from tsolve.datasets.options import gather_options

        fam = get_family(family, need="generate")
        options = gather_options(fam, config, sets=set_ or ())
        result = export_lm_eval(
            directory, fam.name, count, seed, options, task=task, max_gen_toks=max_gen_toks
        )
        if fmt is not Fmt.text:
            emit_report(result.to_json(), fmt.value)
            return
        report = result.to_json()
        typer.echo(
            f"wrote {report['count']} items to {report['directory']} (task {report['task']})"
        )
        typer.echo(f"run: {report['run']}")
