"""``tsolve stress``: a thin shell over :func:`tsolve.stress.run_stress`."""

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

from tsolve.cli.output import (
    check_format,
    console,
    emit_report,
    family_choices,
    json_text,
    progress,
    user_text,
)
from tsolve.errors import TsolveError


def register(app: typer.Typer) -> None:
    app.command("stress")(stress)


def stress(
    family: Annotated[
        str,
        typer.Argument(
            help=f"{family_choices('generate')} (with --fuzz, --adversarial or --shortcuts: "
            "or all; with --scaling: a parser/scorer surface such as claims, or all)."
        ),
    ],
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
    fmt: Annotated[
        str, typer.Option("--format", help="text, json, or jsonl (the report on one line).")
    ] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    fuzz: Annotated[
        bool,
        typer.Option(
            "--fuzz",
            help="Hostile input instead: random model outputs and mutated records "
            "(FAMILY may be 'all'; docs/robustness.md).",
        ),
    ] = False,
    outputs: Annotated[
        int, typer.Option(min=0, help="--fuzz: random model outputs per family.")
    ] = 10_000,
    mutations: Annotated[
        int, typer.Option(min=0, help="--fuzz: mutated records per family.")
    ] = 5_000,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="--fuzz: seconds an item may take before it is a hang.")
    ] = 10.0,
    scaling: Annotated[
        bool,
        typer.Option(
            "--scaling",
            help="Scaling check instead: FAMILY is a parser/scorer surface or 'all' "
            "(docs/robustness.md, 'Scaling check').",
        ),
    ] = False,
    scaling_size: Annotated[
        int, typer.Option(min=16, help="--scaling: the smallest size n (then 2n, 4n).")
    ] = 4000,
    adversarial: Annotated[
        bool,
        typer.Option(
            "--adversarial",
            help="Score trivial policies (hedges, constants, lists, echoes) against the "
            "chance baseline instead (FAMILY may be 'all'; docs/scoring.md).",
        ),
    ] = False,
    shortcuts: Annotated[
        bool,
        typer.Option(
            "--shortcuts",
            help="Score policies that read the prompt but skip the reasoning (a fixed "
            "'today', the final place, another seed's answers, an n-gram classifier) "
            "against chance instead (FAMILY may be 'all'; docs/scoring.md).",
        ),
    ] = False,
    budget: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="--fuzz: N inputs in all, dealt over the families' outputs and mutations, "
            "the other surfaces (claims, each family's own, audit, hf; docs/robustness.md) and "
            "the MCP wire; replaces --outputs and --mutations.",
        ),
    ] = None,
) -> None:
    """Property-check N generated tasks with randomised generator settings.

    Prints every violation with the (seed, index, options) that reproduces it.
    With --fuzz, throws random model outputs and mutated records at every entry
    point instead, and prints each crash, hang or out-of-range score with its case.
    With --adversarial, runs trivial policies through the shared scorer and
    fails if one beats the chance baseline or an honest answer (also each honest
    answer style: markdown, headings, Unicode dashes, ...) scores below 1.
    With --shortcuts, fits policies that skip the reasoning on another seed
    (SPAN: in other years, so they cannot learn the table), in
    every configuration the family declares (N records per cell), and fails if
    one beats chance on this seed's records by more than 0.03 at 500 records
    (1.5 standard errors at any N), in a cell or pooled over the cells.
    Exit status: 0 no violations, 1 violations found, 2 bad input.
    """
    from tsolve.stress.modes import choose_check

    check, stress_config = choose_check(
        {"--scaling": scaling, "--adversarial": adversarial, "--shortcuts": shortcuts,
         "--fuzz": fuzz},
        config, case is not None, budget is not None,
    )  # fmt: skip
    if check == "--scaling":
        run_scaling(family, scaling_size, fmt)
        return
    if check == "--adversarial":
        run_adversarial_cli(family, n or 60, seed or 0, fmt, quiet)
        return
    if check == "--shortcuts":
        run_shortcuts_cli(family, n, seed or 0, fmt, quiet)
        return
    if check == "--fuzz":
        run_fuzz(family, outputs, mutations, seed or 0, timeout, fmt, quiet, budget)
        return
    from tsolve.contract import get_family
    from tsolve.stress import StressConfig, replay_case, run_stress

    check_format(fmt)
    fam = get_family(family, need="invariants")
    if case is not None:
        report = replay_case(case, fam.name)
    else:
        cfg = stress_config or StressConfig()
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
    if fmt != "text":
        emit_report(report.to_json(), fmt)
    else:
        print_report(report)
    if not report.ok:
        raise typer.Exit(1)


def run_fuzz(
    family: str,
    outputs: int,
    mutations: int,
    seed: int,
    timeout: float,
    fmt: str,
    quiet: bool,
    budget: int | None = None,
) -> None:
    """``tsolve stress FAMILY --fuzz``: a thin shell over
    :func:`tsolve.stress.fuzz.fuzz_campaign` per family and, with ``--budget``,
    :func:`tsolve.stress.fuzz_surfaces.surface_campaign` and
    :func:`~tsolve.stress.fuzz_surfaces.mcp_wire_campaign`."""
    from tsolve.stress.fuzz import fuzz_campaign, fuzzable_families
    from tsolve.stress.fuzz_surfaces import (
        budget_split,
        failure_counts,
        mcp_wire_campaign,
        surface_campaign,
    )

    check_format(fmt)
    known = fuzzable_families()
    families = known if family == "all" else [family]
    if family != "all" and family not in known:
        raise TsolveError(f"family: expected all or one of {', '.join(known)}, got {family!r}")
    surfaces = wire = 0
    if budget is not None:
        outputs, mutations, surfaces, wire = budget_split(budget, len(families))
    reports = {}
    total = len(families) * (outputs + mutations) + surfaces + wire
    with progress(total, "fuzz", enabled=not quiet) as bar:
        task = bar.task_ids[0]
        for fam in families:
            bar.update(task, description=f"fuzz {fam}")
            reports[fam] = fuzz_campaign(
                fam, outputs, mutations, seed, timeout, lambda: bar.advance(task)
            )
        if surfaces:
            bar.update(task, description="fuzz surfaces")
            for name, r in surface_campaign(
                surfaces, seed, timeout, on_case=lambda: bar.advance(task)
            ).items():
                reports[f"surface {name}"] = r
        if wire:
            bar.update(task, description="fuzz mcp wire")
            reports["mcp wire"] = mcp_wire_campaign(wire, seed, timeout=max(timeout, 60.0))
            bar.advance(task, wire)
    counts = failure_counts(reports)
    inputs = sum(r.outputs + r.mutations for r in reports.values())
    if fmt != "text":
        doc = {name: r.to_json() for name, r in reports.items()}
        emit_report(
            {**doc, "total": {"inputs": inputs, "failures": counts}} if budget else doc, fmt
        )
    else:
        out = console()
        for name, r in reports.items():
            for f in r.failures[:20]:
                case = json_text(f.case)
                out.print(user_text(f"{f.kind} {name}: {f.message} | case: {case[:300]}"))
            status = Text("OK", "green") if r.ok else Text("FAILED", "red")
            out.print(Text.assemble(status, f" fuzz {name}: {r.outputs} outputs, {r.mutations} "
                      f"mutated records ({r.reported_rows} reported as bad rows), "
                      f"{len(r.failures)} failures; slowest item {r.slowest_seconds:.2f} s "
                      f"({r.slowest_case}); seed {seed}, {r.seconds:.0f} s"))  # fmt: skip
        if budget is not None:
            kinds = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none"
            out.print(f"fuzz total: {inputs} inputs; failures: {kinds}")
    if not all(r.ok for r in reports.values()):
        raise typer.Exit(1)


def _families(family: str, known: Sequence[str]) -> list[str]:
    """``family`` as a list (``all``: every one of ``known``), or a one-line error."""
    if family != "all" and family not in known:
        raise TsolveError(f"family: expected all or one of {', '.join(known)}, got {family!r}")
    return list(known) if family == "all" else [family]


def _suite_families(family: str) -> list[str]:
    """The families an adversarial or shortcut run covers: ``all`` is every
    registered family that generates and scores (plug-ins included), a name
    is that family (checked to generate and score, or a one-line error)."""
    from tsolve.stress.adversarial import suite_families, suite_family

    if family == "all":
        return list(suite_families(include_entry_points=True))
    return [suite_family(family)]


def _per_family(what: str, families: Sequence[str], quiet: bool,
                run: Callable[[Callable[[str], None]], Any]) -> Any:  # fmt: skip
    """``run(on_family)`` with a progress bar that advances once per family."""
    with progress(len(families), what, enabled=not quiet) as bar:
        task = bar.task_ids[0]

        def on_family(name: str) -> None:
            bar.update(task, advance=1, description=f"{what} {name}")

        return run(on_family)


def run_adversarial_cli(family: str, n: int, seed: int, fmt: str, quiet: bool) -> None:
    """``tsolve stress FAMILY --adversarial``: a thin shell over
    :func:`tsolve.stress.adversarial.run_adversarial`."""
    from rich.table import Table

    from tsolve.stress.adversarial import run_adversarial

    check_format(fmt, ("text", "json"))
    families = _suite_families(family)
    report = _per_family("adversarial", families, quiet,
                         lambda on: run_adversarial(families, n, seed, on_family=on))  # fmt: skip
    if fmt != "text":
        emit_report(report.to_json(), fmt)
    else:
        out = console()
        rows = report.summary_rows()
        for fam in families:
            mine = [(label, means) for f, label, means in rows if f == fam]
            metrics = list(mine[0][1])
            table = Table(title=fam, title_justify="left")
            table.add_column("policy")
            for m in metrics:
                table.add_column(m, justify="right")
            for label, means in mine:
                table.add_row(label, *(f"{means.get(m, 0.0):.3f}" for m in metrics))
            out.print(table)
        for r in report.results:
            for name, why in r.skipped.items():
                out.print(user_text(f"skipped {r.family} {name!r}: {why}"))
        for line in report.failures:
            out.print(user_text("violation " + line))
        status = Text("OK", "green") if report.ok else Text("FAILED", "red")
        out.print(Text.assemble(status, f" adversarial {', '.join(families)}: "
                                f"{len(report.failures)} violations, seed {seed}"))  # fmt: skip
    if not report.ok:
        raise typer.Exit(1)


def run_shortcuts_cli(family: str, n: int | None, seed: int, fmt: str, quiet: bool) -> None:
    """``tsolve stress FAMILY --shortcuts``: a thin shell over
    :func:`tsolve.stress.shortcuts.run_shortcuts`."""
    from rich.table import Table

    from tsolve.stress.shortcuts import DEFAULT_N, run_shortcuts

    check_format(fmt, ("text", "json"))
    families = _suite_families(family)
    size = n or DEFAULT_N
    from tsolve.stress.shortcut_cells import cells_for

    total = sum(len(cells_for(f)) for f in families)
    with progress(total, "shortcuts", enabled=not quiet) as bar:
        task, started = bar.task_ids[0], 0

        def on_cell(fam_name: str, cell: str) -> None:
            nonlocal started
            bar.update(task, completed=started, description=f"shortcuts {fam_name} {cell}")
            started += 1

        report = run_shortcuts(families, size, seed, on_cell=on_cell)
        bar.update(task, completed=total, description="shortcuts")
    if fmt != "text":
        emit_report(report.to_json(), fmt)
    else:
        out = console()
        table = Table(title=f"shortcut probes (fitted on seed {report.train_seed}, "
                      f"scored on seed {seed})", title_justify="left")  # fmt: skip
        for col, justify in (("family", "left"), ("cell", "left"), ("probe", "left"),
                             ("kind", "left"), ("metric", "left"), ("score", "right"),
                             ("± s.e.", "right"), ("chance", "right"), ("bound", "right"),
                             ("n", "right")):  # fmt: skip
            table.add_column(col, justify=justify)  # type: ignore[arg-type]
        for r in [*report.results, *report.pooled]:
            if r.skipped:
                table.add_row(r.family, r.cell, r.probe, r.kind, "", "skipped", "", "", "", "")
                continue
            over = r.score > r.chance + r.bound()
            score = Text(f"{r.score:.3f}", "red" if over else "")
            table.add_row(r.family, r.cell, r.probe, r.kind, r.metric, score, f"{r.stderr:.3f}",
                          f"{r.chance:.3f}", f"+{r.bound():.3f}", str(r.n))  # fmt: skip
        out.print(table)
        for r in report.results:
            if r.skipped:
                out.print(user_text(f"skipped {r.family} {r.probe!r}: {r.skipped}"))
        for line in report.failures:
            out.print(user_text("shortcut " + line))
        for fam_name, rows in report.cells.items():
            shared = sum(int(r.get("train_shared", 0)) for r in rows)
            if shared:
                out.print(user_text(
                    f"{fam_name}: {shared} training records shared an answer with the evaluated "
                    "ones and were drawn again (contamination, not a shortcut: "
                    "tsolve dataset overlap counts it, --exclude removes it)"
                ))  # fmt: skip
        status = Text("OK", "green") if report.ok else Text("FAILED", "red")
        cells = sum(len(v) for v in report.cells.values())
        out.print(Text.assemble(status, f" shortcuts {', '.join(families)}: "
                                f"{len(report.failures)} probes above chance + bound, "
                                f"{cells} cells of {size} records, seed {seed}"))  # fmt: skip
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


def run_scaling(target: str, size: int, fmt: str) -> None:
    """``tsolve stress SURFACE|all --scaling``: a thin shell over
    :func:`tsolve.stress.scaling.scaling_check`."""
    from tsolve.stress.scaling import MAX_GROWTH, scaling_check

    check_format(fmt, ("text", "json"))
    growths = scaling_check(size, None if target == "all" else [target])
    if fmt != "text":
        emit_report({"max_growth": MAX_GROWTH, "results": [g.to_json() for g in growths]}, fmt)
    else:
        out = console()
        for g in growths:
            status = Text("OK", "green") if g.ok else Text("FAILED", "red")
            regex = f"regex x{g.regex_growth:.2f}" + ("" if g.regex_bounded else " (unbounded)")
            out.print(Text.assemble(status, user_text(
                f" {g.surface} {g.shape}: sizes {'/'.join(map(str, g.sizes))}, calls "
                f"{'/'.join(map(str, g.calls))} (x{g.calls_growth:.2f}), {regex}"
                + (f", {g.unmetered} unmetered regex calls" if g.unmetered else "")
            )))  # fmt: skip
    if not all(g.ok for g in growths):
        raise typer.Exit(1)
