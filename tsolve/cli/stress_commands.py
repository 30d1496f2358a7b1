"""``tsolve stress``: a thin shell over :func:`tsolve.generators.stress.run_stress`."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from tsolve.cli.output import check_format, console, progress
from tsolve.errors import TsolveError


def register(app: typer.Typer) -> None:
    app.command("stress")(stress)


def stress(
    family: Annotated[str, typer.Argument(help="time-puzzles, span or logistics.")],
    n: Annotated[
        int | None,
        typer.Option("--n", "-n", min=1, help="Cases to check (default 100, or the config's)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Generator and hypothesis seed (default 0, or the config's)."),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(help="JSON config: fixed options, random pools, n, seed (docs/stress.md)."),
    ] = None,
    case: Annotated[
        str | None, typer.Option(help="Replay one case printed by an earlier run (its JSON).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Property-check N generated tasks with randomised generator settings.

    Prints every violation with the (seed, index, options) that reproduces it.
    Exit status: 0 no violations, 1 violations found, 2 bad input.
    """
    from tsolve.generators.families import get_family
    from tsolve.generators.stress import StressConfig, load_stress_config, replay_case, run_stress

    check_format(fmt, ("text", "json"))
    fam = get_family(family)
    if case is not None:
        data: Any
        try:
            data = json.loads(case)
        except json.JSONDecodeError as exc:
            raise TsolveError(f"case: not valid JSON ({exc.msg})") from None
        if isinstance(data, dict):
            data.setdefault("family", fam.name)
            if get_family(str(data["family"])).name != fam.name:
                raise TsolveError(f"case: a {data['family']} case, not {fam.name}")
        report = replay_case(data)
    else:
        cfg = load_stress_config(config) if config else StressConfig()
        total = n or cfg.n or 100
        run_seed = seed if seed is not None else (cfg.seed if cfg.seed is not None else 0)
        found = 0
        with progress(total, f"stress {fam.name}", enabled=not quiet) as bar:
            task = bar.task_ids[0]

            def on_case(c: Any, violations: list[Any], skip: str | None) -> None:
                nonlocal found
                found += len(violations)
                label = f"stress {fam.name}" + (f" [red]{found} violations[/]" if found else "")
                bar.update(task, advance=1, description=label)

            report = run_stress(fam.name, total, run_seed, cfg, on_case)
    if fmt == "json":
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        print_report(report)
    if not report.ok:
        raise typer.Exit(1)


def print_report(report: Any) -> None:
    """Every violation with its reproduction, the skips grouped, one status line."""
    out = console()
    for v in report.violations:
        out.print(f"[red]violation[/] {escape(v.line())}", soft_wrap=True, highlight=False)
    if report.skipped:
        reasons = Counter(
            r.split(":")[0] + ": " + r.split(":", 1)[1].strip()[:70] for _, r in report.skipped
        )
        out.print(f"skipped {len(report.skipped)} case(s) the generator declined:")
        for reason, k in reasons.most_common(5):
            out.print(f"  {k} × {escape(reason)}")
    checks = Counter(v.check for v in report.violations)
    status = "[green]OK[/]" if report.ok else "[red]FAILED[/]"
    detail = ", ".join(f"{k} {c}" for k, c in checks.most_common()) if checks else ""
    out.print(
        f"{status} stress {report.family}: {report.cases} cases, {len(report.violations)} "
        f"violations{f' ({detail})' if detail else ''}, {len(report.skipped)} skipped, "
        f"seed {report.seed}, {report.seconds:.1f} s"
    )
