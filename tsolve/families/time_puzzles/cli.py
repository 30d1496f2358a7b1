"""``tsolve puzzle`` and ``tsolve solve``: thin shells over
:func:`tsolve.families.time_puzzles.generate.generate_puzzles` (drawn by
:func:`tsolve.families.time_puzzles.cli_plots.plotting` with ``--plot``),
:func:`tsolve.families.time_puzzles.solve_records.solve_file` and, for puzzles written in English
(``--text``, ``--text-file``), :func:`tsolve.families.time_puzzles.solve_text.solve_texts`."""

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from tsolve.cli.output import (
    check_format,
    console,
    emit_records,
    err_console,
    say,
    tracked,
    user_text,
    write_json,
)
from tsolve.errors import TsolveError
from tsolve.solver.backend_names import BACKENDS, GENERATION_BACKENDS, check_backend, choices_text


def register(app: typer.Typer) -> None:
    """Attach the time-puzzle commands (``puzzle``, with ``--events`` for
    relational puzzles, and ``solve``) to ``app``."""
    app.command("puzzle")(puzzle)
    app.command("solve")(solve)


def puzzle(
    solutions: Annotated[
        str | None,
        typer.Option(
            help="Answer-set size M: 3, a range 1-6 (cycled over --count) or a list 1,3,5 "
            "(default 1, or the preset's).",
            show_default=False,
        ),
    ] = None,
    count: Annotated[int, typer.Option(min=0, help="Number of puzzles.")] = 1,
    seed: Annotated[
        int, typer.Option(min=0, help="Run seed; puzzle i depends only on (seed, i).")
    ] = 0,
    start: Annotated[int, typer.Option(min=0, help="Index of the first puzzle.")] = 0,
    facts: Annotated[
        int | None,
        typer.Option(help="Facts per puzzle incl. the anchor (default: 4-6, as in the paper)."),
    ] = None,
    style: Annotated[
        str,
        typer.Option(
            help="implicit (anchors as events), explicit (dates spelled out) or "
            "implicit,explicit (each puzzle in both: --count counts records, 2 per puzzle)."
        ),
    ] = "implicit",
    backend: Annotated[
        str, typer.Option(help=f"Solver for the gold answers: {choices_text(GENERATION_BACKENDS)}.")
    ] = "cpsat",
    fmt: Annotated[str, typer.Option("--format", help="text, json or jsonl.")] = "text",
    domain_start: Annotated[
        str | None,
        typer.Option(
            help="First date of the domain (default 1900-01-31; any date from 1800-01-01)."
        ),
    ] = None,
    domain_end: Annotated[
        str | None, typer.Option(help="Last date of the domain (default 2100-12-31).")
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            help="A named setting the other options override: paper (the Time Puzzles "
            "paper's: 4-6 facts, M = 0-6 cycled, 1800-01-01..2050-12-31; docs/formats.md)."
        ),
    ] = None,
    max_attempts: Annotated[int, typer.Option(min=1, help="Search budget per puzzle.")] = 20_000,
    minimal: Annotated[
        bool | None,
        typer.Option(
            "--minimal/--no-minimal",
            help="Keep only puzzles where every fact is necessary (the default, as in "
            "`tsolve dataset`, unless --facts is over 6 or --trivial-contradictions "
            "asks for M = 0).",
            show_default=False,
        ),
    ] = None,
    trivial_contradictions: Annotated[
        bool,
        typer.Option(
            "--trivial-contradictions",
            help="M = 0 by swapping one fact (often a two-fact clash) instead of a minimal "
            "unsatisfiable set of 3+ facts.",
        ),
    ] = False,
    difficulty: Annotated[
        str | None,
        typer.Option(
            help="Keep only puzzles of this measured difficulty: easy, medium or hard "
            "(thresholds in docs/formats.md)."
        ),
    ] = None,
    events: Annotated[
        int,
        typer.Option(
            min=1,
            help="Events per puzzle: 1 is the single-date puzzle; 2-4 make "
            "relational puzzles (docs/relational.md).",
        ),
    ] = 1,
    ask: Annotated[
        str, typer.Option(help="Relational puzzles: tuples, event (one event's dates) or mixed.")
    ] = "tuples",
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw the first puzzle to this .png/.svg: a calendar strip of its facts and "
            "answers, or a relational puzzle's dependency graph (needs the plot extra).",
        ),
    ] = None,
    plot_dir: Annotated[
        Path | None, typer.Option(help="Draw every puzzle to DIR/<id>.png (needs the plot extra).")
    ] = None,
) -> None:
    """Generate time puzzles whose answer sets have exactly M dates (or M date tuples)."""
    relational = events != 1
    # Options relational puzzles do not take are refused, not silently ignored.
    if relational and (minimal or trivial_contradictions or difficulty or preset):
        flag = ("--minimal" if minimal else "--trivial-contradictions"
                if trivial_contradictions else "--difficulty" if difficulty
                else "--preset")  # fmt: skip
        raise TsolveError(f"{flag}: not available for relational puzzles (--events > 1) yet")
    check_format(fmt)
    check_backend(backend, GENERATION_BACKENDS)
    from tsolve.generators.style_pairs import parse_styles

    styles = parse_styles(style)
    records: Iterable[dict[str, Any]]
    if relational:
        from tsolve.contract.family import Lazy
        from tsolve.families.time_puzzles.generate import parse_solutions

        # The relational family's own commands, reached by reference (a family
        # never imports another): `--events N` is that family's puzzle.
        relational_cli = "tsolve.families.relational_puzzles.cli"
        records = Lazy(f"{relational_cli}:relational_puzzles")(
            events, parse_solutions(solutions or "1"), count, seed, start, facts, styles,
            backend, domain_start, domain_end, max_attempts, ask,
        )  # fmt: skip
        show = Lazy(f"{relational_cli}:print_relational_puzzle").get()
    else:
        from tsolve.families.time_puzzles.family import build
        from tsolve.families.time_puzzles.generate import generate_puzzles, parse_solutions

        # The family's own options -> config (as `tsolve dataset` builds it), so
        # a preset and the minimal-by-default rule have one home.
        opts: dict[str, Any] = {
            "solutions": parse_solutions(solutions) if solutions is not None else None,
            "facts": facts, "style": styles, "backend": backend,
            "domain_start": domain_start, "domain_end": domain_end,
            "max_attempts": max_attempts,
            "trivial_contradictions": trivial_contradictions or None,
            "difficulty": difficulty, "preset": preset,
        }  # fmt: skip
        if minimal is not None:
            opts["minimal"] = minimal
        cfg = build(opts)
        records = generate_puzzles(count, seed, cfg, start)
        show = _print_puzzle
    if plot is not None or plot_dir is not None:
        from tsolve.families.time_puzzles.cli_plots import plotting

        records = plotting(records, plot, plot_dir)
    records = tracked(records, count, "puzzles")
    if fmt != "text":
        emit_records(records, fmt, single=count == 1)
        return
    out = console()
    for rec in records:
        show(out, rec)


def _print_puzzle(out: Any, rec: dict[str, Any]) -> None:
    from rich.panel import Panel  # here, not at load: `--format json` never draws
    from rich.text import Text

    n = rec["solution_count"]
    title = Text.assemble(
        (str(rec["id"]), "bold"), f" · {n} solution{'s' if n != 1 else ''} · {rec['style']}"
    )
    out.print(Panel(user_text(rec["prompt"]), title=title, title_align="left", expand=False))
    # Text objects, not markup strings: the same output, and rich then neither
    # parses markup in record data nor loads its emoji table (~3 ms at start-up).
    answers = ", ".join(rec["answers"]) if rec["answers"] else "None"
    say(out, "bold green", "Answers:", answers)
    out.print(Text(_provenance(rec), style="dim"))
    out.print()


def _provenance(rec: dict[str, Any]) -> str:
    """The line under a puzzle: what the solver certified. A zero-answer
    puzzle names its contradiction, not the generator's seed date (a date no
    fact set admits is no answer and only puzzles the reader)."""
    solver = rec["solver"]
    gold = f"gold by {solver['backend']} (cap {solver['cap']})"
    clash = rec.get("contradiction")
    if not rec["answers"]:
        if isinstance(clash, dict):
            n, by = len(clash.get("core") or []), clash.get("by")
            return f"no answer: the {n} facts clash, any {n - 1} fit · certified by {by}"
        return f"no answer: one fact was swapped for a clashing one · {gold}"
    parts = [f"hidden seed date {rec['generator']['seed_date']}"]
    if (rec["generator"].get("params") or {}).get("minimal"):
        parts.append("every fact necessary")
    return " · ".join([*parts, gold])


def solve(
    file: Annotated[
        str | None,
        typer.Argument(help="Puzzle records: JSON, JSON array or JSONL; '-' for stdin."),
    ] = None,
    backend: Annotated[str, typer.Option(help=f"{choices_text(BACKENDS)}.")] = "cpsat",
    check: Annotated[
        bool,
        typer.Option("--check", help="Report records whose stored answers differ; exit 1 if any."),
    ] = False,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Stop after this many answers per record.")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            min=0.001,
            help="Seconds per record for the whole enumeration; a record cut short "
            "is reported with status partial or timeout, never as complete.",
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, json or jsonl.")] = "text",
    text: Annotated[
        str | None,
        typer.Option(
            "--text",
            metavar="TEXT",
            help="A puzzle written in English, instead of FILE (docs/puzzle-text.md).",
        ),
    ] = None,
    text_file: Annotated[
        str | None,
        typer.Option(
            "--text-file",
            metavar="PATH",
            help="Puzzles written in English: JSON/JSONL rows with a 'text' (or 'prompt') "
            "field, or plain text, one puzzle per paragraph (or between '---' lines).",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="With --text/--text-file: kept for old scripts; a puzzle with an unread "
            "sentence is always status partial-reading and exit 1 now.",
        ),
    ] = False,
    domain_start: Annotated[
        str | None,
        typer.Option(help="With --text/--text-file: first date (default 1900-01-31)."),
    ] = None,
    domain_end: Annotated[
        str | None,
        typer.Option(help="With --text/--text-file: last date (default 2100-12-31)."),
    ] = None,
) -> None:
    """Recompute each puzzle's full answer set with a solver, or solve puzzles in English.

    Records (FILE) are solved with a solver backend (--backend); puzzles written in
    English are read from --text or --text-file and solved the same way."""
    from tsolve.families.time_puzzles.solve_records import Skipped

    check_format(fmt)
    sources = [n for n, v in (("FILE", file), ("--text", text), ("--text-file", text_file))
               if v is not None]  # fmt: skip
    if len(sources) != 1:
        raise TsolveError("solve: give exactly one of FILE, --text or --text-file"
                          + (f" (got {', '.join(sources)})" if sources else ""))  # fmt: skip
    texts = file is None
    for flag, used in (("--strict", strict), ("--domain-start", domain_start is not None),
                       ("--domain-end", domain_end is not None)):  # fmt: skip
        if used and not texts:
            raise TsolveError(f"{flag}: only with --text or --text-file")
    if check and texts:
        raise TsolveError("--check: puzzles written in English store no answers to check")
    err = err_console()

    def show(outcome: dict[str, Any] | Skipped) -> None:
        if isinstance(outcome, Skipped):
            say(err, "red", "skipped", outcome)
        elif fmt == "jsonl":
            write_json(outcome)

    keep = fmt != "jsonl"
    if texts:
        from tsolve.calendars.domain import DateDomain
        from tsolve.families.time_puzzles.solve_text import solve_text_file, solve_texts

        domain = DateDomain.from_dates(domain_start, domain_end)
        if text is not None:
            report = solve_texts([{"id": "text", "text": text}], backend, limit, time_limit,
                                 domain, on_outcome=show, keep_results=keep)  # fmt: skip
        else:
            report = solve_text_file(str(text_file), backend, limit, time_limit, domain,
                                     on_outcome=show, keep_results=keep)  # fmt: skip
        _warn_repeated(err, report)
        if fmt == "json":
            emit_records(report.results, "json", single=text is not None)
        elif fmt == "text":
            _print_text_solutions(report.results)
        if report.exit_code:
            raise typer.Exit(report.exit_code)
        return
    from tsolve.families.time_puzzles.solve_records import solve_file

    assert file is not None
    from tsolve.verifiers.row_shapes import refuse_other_families

    def track(rows: Any) -> Any:  # a logistics or SPAN file: one line, not an error per row
        mine = refuse_other_families(rows, SOLVED_FAMILIES, str(file), "tsolve solve")
        return tracked(mine, None, "records")

    report = solve_file(
        file, backend, limit, time_limit, check, on_outcome=show, keep_results=keep, track=track
    )
    _warn_repeated(err, report)
    if fmt == "json":
        emit_records(report.results, "json")
    elif fmt == "text":
        _print_solutions(report.results, check)
    if check and fmt != "text":  # stdout is the machine's: the count goes to stderr
        na = report.solved - report.same - report.differing
        err.print(
            f"{report.solved} records checked: {report.same} same, {report.differing} differ, "
            f"{na} n/a; {len(report.skipped)} skipped"
        )
    if report.exit_code:  # skipped rows, unfinished answer sets or (--check) differing ones
        raise typer.Exit(report.exit_code)


def _warn_repeated(err: Any, report: Any) -> None:
    """The one warning about ids that repeat (every row was solved anyway)."""
    if (warning := report.repeated.warning("solved")) is not None:
        say(err, "yellow", "warning:", warning)


_SHOWN_ANSWERS = 20
SOLVED_FAMILIES = ("time-puzzles", "relational-puzzles")
"""The families whose records ``tsolve solve FILE`` recomputes."""


def _print_text_solutions(results: list[dict[str, Any]]) -> None:
    """Per puzzle: the answers, each fact with its sentence, the unread sentences."""
    from rich.table import Table
    from rich.text import Text

    out = console()
    for r in results:
        n = r["count"]
        more = "" if r["solver_status"] in ("complete", "unsat") else "+"
        count = f" · {n}{more} answer{'s' if n != 1 else ''} · "
        status = (r["status"], _STATUS_STYLE.get(r["status"], ""))
        if r["unread"]:  # never "complete": these are the answers of the facts read
            count = f" · {n}{more} answer{'s' if n != 1 else ''} of the facts read · "
            unread = f" ({len(r['unread'])} sentence{'s' if len(r['unread']) != 1 else ''} unread)"
            out.print(Text.assemble(user_text(r["id"]), count, status, unread))
        else:
            out.print(Text.assemble(user_text(r["id"]), count, status))
        shown = ", ".join(r["answers"][:_SHOWN_ANSWERS]) or "None"
        if len(r["answers"]) > _SHOWN_ANSWERS:
            shown += f", … ({len(r['answers']) - _SHOWN_ANSWERS} more; --format json lists all)"
        elif more:
            shown += " …"
        out.print(Text.assemble(("Answers: ", "bold green"), shown))
        table = Table(title=f"facts read ({len(r['facts'])})", title_justify="left")
        for col in ("line", "kind", "form", "sentence"):
            table.add_column(col, overflow="fold")
        for f in r["facts"]:
            table.add_row(str(f["line"]), f["kind"], f["form"], user_text(f["sentence"]))
        out.print(table)
        if r["unread"]:
            out.print(Text(f"unread ({len(r['unread'])}):", "yellow"))
            for u in r["unread"]:
                out.print(Text.assemble(f"  line {u['line']}: ", user_text(u["text"])))
        if r["skipped"]:
            out.print(Text(f"skipped {len(r['skipped'])} sentence(s) that state no fact "
                           "(tsolve's prompt wording, a bare question)", "dim"))  # fmt: skip
        out.print()


def _print_solutions(results: list[dict[str, Any]], check: bool) -> None:
    """The table and the count line; nothing when no row was a record (the
    skipped rows' errors, already printed, are then the whole story)."""
    from rich.table import Table
    from rich.text import Text

    if not results:
        return
    table = Table(show_lines=False)
    table.add_column("id")
    table.add_column("count", justify="right")
    table.add_column("status")
    table.add_column("answers")
    if check:
        table.add_column("stored")
    for r in results:
        ans = ", ".join(a if isinstance(a, str) else "(" + ", ".join(a) + ")"
                        for a in r["answers"]) or "None"  # fmt: skip
        if not r["complete"]:
            ans += " …"
        row: list[Text | str] = [
            user_text(r["id"]),
            str(r["count"]) + ("+" if not r["complete"] else ""),
            Text(r["status"], _STATUS_STYLE.get(r["status"], "")),
            ans,
        ]
        if check:
            m = r["matches"]
            row.append(
                "[green]same[/]" if m else "[red]DIFFERS[/]" if m is False else "[dim]n/a[/]"
            )
        table.add_row(*row)
    out = console()
    out.print(table)
    statuses = Counter(r["status"] for r in results)
    line = f"{len(results)} record{'s' if len(results) != 1 else ''}: " + ", ".join(
        f"{statuses[s]} {s}" for s in ("complete", "unsat", "limit", "partial", "timeout")
        if statuses[s]
    )  # fmt: skip
    if check:
        same = sum(r["matches"] is True for r in results)
        differ = sum(r["matches"] is False for r in results)
        na = len(results) - same - differ
        line += f"; stored answers: {same} same, {differ} differ, {na} n/a"
    out.print(line)


_STATUS_STYLE = {"complete": "green", "unsat": "green", "limit": "yellow", "partial": "red",
                 "timeout": "red", "partial-reading": "red"}  # fmt: skip
