"""``tsolve export``: a tsolve run in a third-party evaluator's own format.

``tsolve export lm-eval DIR --family F --count N --seed S`` is a thin shell
over :func:`tsolve.adapters.lm_eval.export_lm_eval`; ``tsolve export
trl|verl|openrlhf DIR --family F[,G] -n N --seed S`` over
:func:`tsolve.rl.export.export_rl` (docs/rl.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from tsolve.cli.output import Fmt, emit_report


def register(app: typer.Typer) -> None:
    """Attach the ``export`` command group to ``app``."""
    ex = typer.Typer(
        name="export",
        help="Write a tsolve run as a task of another evaluator (lm-evaluation-harness) "
        "or as an RL trainer's train and test files (TRL, verl, OpenRLHF).",
        no_args_is_help=True,
    )
    app.add_typer(ex, name="export")

    @ex.command("lm-eval")
    def lm_eval_cmd(
        directory: Annotated[str, typer.Argument(help="Folder to write (new or empty).")],
        family: Annotated[
            str | None,
            typer.Option(
                help="Family to generate (default: the first that `tsolve families` lists)."
            ),
        ] = None,
        count: Annotated[int, typer.Option(help="Number of records.")] = 100,
        seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
        config: Annotated[str | None, typer.Option(help="JSON file of generator options.")] = None,
        set_: Annotated[
            list[str] | None,
            typer.Option("--set", help="Generator option KEY=VALUE (repeatable)."),
        ] = None,
        task: Annotated[
            str | None,
            typer.Option(
                help="Task name (default tsolve_<family>; seed and count go in its metadata)."
            ),
        ] = None,
        max_gen_toks: Annotated[int, typer.Option(help="Generation budget per item.")] = 2048,
        fewshot: Annotated[
            int, typer.Option(help="Further records of the run written as a few-shot split.")
        ] = 0,
        fmt: Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")] = Fmt.text,
    ) -> None:
        """Write an lm-evaluation-harness task folder: YAML, data and a utils.py
        whose process_results calls tsolve's scorer under each family metric,
        with subtasks and groups by style, M and difficulty. Run it with
        `HF_HUB_OFFLINE=1 lm_eval --model M --tasks NAME --include_path DIR`."""
        from tsolve.adapters.lm_eval import export_lm_eval
        from tsolve.contract import get_family
        from tsolve.datasets.options import gather_options
        from tsolve.facade import default_family

        fam = get_family(family or default_family(), need="generate")
        options = gather_options(fam, config, sets=set_ or ())
        result = export_lm_eval(
            directory, fam.name, count, seed, options, task=task, max_gen_toks=max_gen_toks,
            fewshot=fewshot,
        )  # fmt: skip
        if fmt is not Fmt.text:
            emit_report(result.to_json(), fmt.value)
            return
        report = result.to_json()
        typer.echo(
            f"wrote {report['count']} items to {report['directory']} (task {report['task']})"
        )
        typer.echo(f"metrics: {', '.join(report['metrics'])}")
        if report["groups"]:
            typer.echo(f"groups: {', '.join(report['groups'])}")
        typer.echo(f"run: {report['run']}")

    def rl_cmd(trainer: str) -> None:
        @ex.command(trainer)
        def cmd(
            directory: Annotated[str, typer.Argument(help="Folder to write (new or empty).")],
            family: Annotated[
                str | None,
                typer.Option(
                    help="Family, or families comma-separated (a mixture; default: the first "
                    "that `tsolve families` lists)."
                ),
            ] = None,
            count: Annotated[int, typer.Option("--count", "-n", help="Records per family.")] = 100,
            seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
            test: Annotated[float, typer.Option(help="Fraction of each run held out.")] = 0.1,
            config: Annotated[
                str | None, typer.Option(help="JSON file of generator options (one family).")
            ] = None,
            set_: Annotated[
                list[str] | None,
                typer.Option("--set", help="Generator option KEY=VALUE (repeatable; one family)."),
            ] = None,
            prompt: Annotated[
                str | None,
                typer.Option(
                    help="Prompt as 'text' or 'chat' messages (default: chat for verl, "
                    "text otherwise)."
                ),
            ] = None,
            system: Annotated[
                str | None, typer.Option(help="System prompt before each chat prompt.")
            ] = None,
            fmt: Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")] = Fmt.text,
        ) -> None:
            from tsolve.facade import default_family
            from tsolve.rl.export import export_rl

            family = family or default_family()
            options = None
            if config is not None or set_:
                from tsolve.contract import get_family
                from tsolve.datasets.options import gather_options

                names = [n for n in family.split(",") if n.strip()]
                if len(names) != 1:
                    raise typer.BadParameter("--config and --set apply to one --family")
                options = gather_options(get_family(names[0], need="generate"), config,
                                         sets=set_ or ())  # fmt: skip
            result = export_rl(trainer, directory, family, count, seed, test, options,
                               prompt, system).to_json()  # fmt: skip
            if fmt is not Fmt.text:
                emit_report(result, fmt.value)
                return
            typer.echo(
                f"wrote {result['counts']['train']} train and {result['counts']['test']} test "
                f"rows to {result['directory']} ({result['dropped']} test rows dropped as "
                "repeats of train content); see its README.md"
            )

        cmd.__doc__ = (
            f"Write {trainer}'s train.parquet and test.parquet (disjoint by content, compact "
            "ground truth) and a README with the trainer's own lines (docs/rl.md)."
        )

    for name in ("trl", "verl", "openrlhf"):
        rl_cmd(name)
