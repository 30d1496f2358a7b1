"""``tsolve logistics``: generate UnSeenTimeQA-style records, answer benchmark items.

Thin shells over :func:`tsolve.families.logistics.generate.generate_records` (with
:func:`tsolve.families.logistics.schedule_cpsat.cpsat_cross_checked` for ``--cpsat-check``),
:func:`tsolve.families.logistics.answer_items.answer_file` and, for ``--score``,
:class:`tsolve.families.logistics.answer_scoring.Tally`; ``show`` over
:func:`tsolve.families.logistics.plot.show_item`. JSON Lines output is
exact (and byte-identical between runs for ``generate``); text output is for
people. Long jobs show a progress bar on stderr when it is a terminal.
"""

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tsolve.cli.output import (
    COMPACT,
    Fmt,
    err_console,
    json_text,
    open_output,
    say,
    user_text,
)

T = TypeVar("T")


class Difficulty(str, Enum):
    easy = "easy"
    medium = "medium"
    hard = "hard"


class Execution(str, Enum):
    serial = "serial"
    parallel = "parallel"


class QKind(str, Enum):
    static = "static"
    relative = "relative"
    hypothetical = "hypothetical"


class AskedMinute(str, Enum):
    tracked = "tracked"
    unseentimeqa = "unseentimeqa"


def _dumps(obj: Any) -> str:
    return json_text(obj, separators=COMPACT)


@contextmanager
def _progress(items: Iterable[T], total: int | None, label: str) -> Iterator[Iterable[T]]:
    """Wrap ``items`` in a rich progress bar on stderr for long jobs on a terminal."""
    if not sys.stderr.isatty() or (total is not None and total < 50):
        yield items
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        yield bar.track(items, total=total)


_HELP = {
    "difficulty": "easy: start and end times; medium: start and duration; hard: durations only.",
    "execution": "serial: back to back; parallel: as early as dependencies allow.",
    "question": "static, relative (N hours before/after) or hypothetical (delay/expedite).",
    "depth": "List distance from the package's first event to the event in progress at the "
    "asked minute (default: 6..20 at random, as in the benchmark).",
    "asked_minute": "tracked: the package as often waiting or in another vehicle as with the "
    "vehicle of the event in progress, so that reading that event alone does not answer; "
    "unseentimeqa: split 1's mix (generator version 5's records), for comparisons with the paper.",
    "seed": "Run seed: record i depends only on (seed, i).",
    "start": "Index of the first record (for shards).",
    "gen_format": "jsonl (exact, byte-identical between runs), json (an array) or text.",
    "output": "Write to this file instead of stdout.",
    "cpsat": "Cross-check every record's schedules with CP-SAT (slow).",
    "file": "Benchmark items: a JSON array or JSON Lines; '-' reads stdin.",
    "answer_format": "text (a table), json (an array) or jsonl (exact, an item a line).",
    "score": "Compare with the items' answers; print exact-set-match accuracy by group.",
    "workers": "Answer in this many processes (same output; worth it for thousands of items).",
}


def register(app: typer.Typer) -> None:
    """Attach the ``logistics`` command group to ``app``."""
    lg = typer.Typer(
        name="logistics",
        help="Logistics timelines with parallel events (UnSeenTimeQA).",
        no_args_is_help=True,
    )
    app.add_typer(lg, name="logistics")

    @lg.command("generate")
    def generate_cmd(
        difficulty: Annotated[Difficulty, typer.Option(help=_HELP["difficulty"])] = Difficulty.hard,
        execution: Annotated[Execution, typer.Option(help=_HELP["execution"])] = Execution.serial,
        question: Annotated[QKind, typer.Option(help=_HELP["question"])] = QKind.static,
        depth: Annotated[int | None, typer.Option(help=_HELP["depth"])] = None,
        asked_minute: Annotated[
            AskedMinute, typer.Option(help=_HELP["asked_minute"])
        ] = AskedMinute.tracked,
        count: Annotated[int, typer.Option(help="Number of records.")] = 10,
        seed: Annotated[int, typer.Option(min=0, help=_HELP["seed"])] = 0,
        start: Annotated[int, typer.Option(help=_HELP["start"])] = 0,
        fmt: Annotated[Fmt, typer.Option("--format", help=_HELP["gen_format"])] = Fmt.jsonl,
        output: Annotated[
            Path | None, typer.Option("--out", "-o", metavar="FILE", help=_HELP["output"])
        ] = None,
        old_output: Annotated[  # the name before --out was used everywhere; kept for scripts
            Path | None, typer.Option("--output", hidden=True)
        ] = None,
        cpsat_check: Annotated[bool, typer.Option("--cpsat-check", help=_HELP["cpsat"])] = False,
    ) -> None:
        """Generate new scenarios (random worlds, own plans) with solved questions."""
        from tsolve.families.logistics.generate import GenerateParams, generate_records
        from tsolve.families.logistics.schedule_cpsat import cpsat_cross_checked
        from tsolve.records import format_from_suffix

        output = output or old_output
        if output:  # the suffix must not name another format than the bytes (x.csv)
            format_from_suffix(
                output, {".jsonl": "jsonl", ".json": "json", ".txt": "text"}, fmt.value
            )
        params = GenerateParams(
            difficulty.value, execution.value, question.value, depth, asked_minute.value
        )
        records = generate_records(count, seed, params, start)
        if cpsat_check:
            records = map(cpsat_cross_checked, records)
        out = open_output(output) if output else sys.stdout
        try:
            with _progress(records, count, "generating") as recs:
                if fmt is Fmt.jsonl:
                    for rec in recs:
                        out.write(_dumps(rec) + "\n")
                elif fmt is Fmt.json:
                    out.write("[" + ",\n".join(_dumps(rec) for rec in recs) + "]\n")
                else:
                    con = Console(file=out, highlight=False)
                    for rec in recs:
                        con.print(_record_panel(rec))
        finally:
            if output:
                out.close()

    @lg.command("answer")
    def answer_cmd(
        file: Annotated[str, typer.Argument(help=_HELP["file"])],
        fmt: Annotated[Fmt, typer.Option("--format", help=_HELP["answer_format"])] = Fmt.text,
        score: Annotated[bool, typer.Option("--score", help=_HELP["score"])] = False,
        workers: Annotated[int, typer.Option("--workers", min=1, help=_HELP["workers"])] = 1,
    ) -> None:
        """Parse, solve and print the answer set of every item.

        One output row per input row, in input order, ids as the input has them;
        an id that repeats an earlier row's is answered too (one warning at the
        end). An item that cannot be read is reported by id and the rest go on;
        the exit code is then 1.
        """
        from tsolve.families.logistics.answer_items import answer_file
        from tsolve.families.logistics.answer_scoring import Tally
        from tsolve.records import RepeatedIds

        tally = Tally()
        failed = 0
        con = Console(highlight=False)
        err = err_console()
        table = _answer_table(score)
        done = 0
        first = True
        try:  # the items stream through: the file is read as they are answered
            repeated = RepeatedIds()
            answered = answer_file(file, workers, repeated=repeated, need_label=score)
            with _progress(answered, None, "answering") as results:
                for r in results:
                    if score:
                        tally.add(r)
                    done += 1
                    if r.error is not None:
                        failed += 1
                        say(
                            err,
                            "red",
                            "error:",
                            r.error if r.id is None else f"item {r.id!r}: {r.error}",
                        )
                    if fmt is Fmt.jsonl:
                        sys.stdout.write(_dumps(r.to_json(with_gold=score)) + "\n")
                    elif fmt is Fmt.json:  # one array, written item by item
                        sys.stdout.write(
                            ("[" if first else ",\n") + _dumps(r.to_json(with_gold=score))
                        )
                        first = False
                    else:
                        _answer_row(table, r, score)
        except KeyboardInterrupt:  # the lines written so far are whole
            say(err, "red", "interrupted:", f"{done} items answered")
            raise typer.Exit(130) from None
        if (warning := repeated.warning("answered")) is not None:
            say(err, "yellow", "warning:", warning)
        if fmt is Fmt.json:
            sys.stdout.write("[]\n" if first else "]\n")
        if fmt is Fmt.text:
            con.print(table)
        if score:
            (con if fmt is Fmt.text else err).print(_score_tables(tally.to_json()))
        if failed:
            raise typer.Exit(1)

    @lg.command("show")
    def show_cmd(
        file: Annotated[str, typer.Argument(help=_HELP["file"])],
        out: Annotated[Path, typer.Option("--out", help="Picture to write: a .png or .svg file.")],
        item_id: Annotated[
            str | None,
            typer.Option(
                "--id", help="Draw the first item with this id (default: the first item)."
            ),
        ] = None,
    ) -> None:
        """Draw an item's schedule as a Gantt chart: vehicles and packages over
        time, the minute asked about marked (needs the plot extra)."""
        from tsolve.families.logistics.plot import show_item

        written = show_item(file, out, item_id)
        say(err_console(), "green", "wrote", written)


_STATE_TEXT = {
    "at": "lying at a location",
    "loading": "being loaded",
    "unloading": "being unloaded",
    "parked": "inside a parked vehicle",
    "moving": "inside a moving vehicle",
}


def _record_panel(rec: dict[str, Any]) -> Panel:
    body = Text()
    for k, sentence in enumerate(rec["events"][1:]):
        body.append(f"{k:>2}. ", style="dim")
        body.append(sentence + "\n")
    body.append("\nQ: ", style="bold")
    body.append(rec["question"] + "\n")
    body.append("A: ", style="bold")
    body.append(", ".join(rec["answers"]), style="bold green")
    sol = rec.get("solution", {})
    state = _STATE_TEXT.get(sol.get("state", ""), sol.get("state", "?"))
    body.append(f"   ({state} at {sol.get('clock', '?')})", style="dim")
    title = user_text(
        f"{rec['id']}  {rec['data_split']} / {rec['execution']} / "
        f"{rec['question_type']}  depth {rec['depth']}"
    )
    return Panel(body, title=title, title_align="left")


def _answer_table(score: bool) -> Table:
    table = Table(show_lines=False, header_style="bold")
    table.add_column("id")
    table.add_column("answers")
    if score:
        table.add_column("gold")
        table.add_column("ok")
    table.add_column("state", style="dim")
    table.add_column("question", overflow="fold")
    return table


def _answer_row(table: Table, r: Any, score: bool) -> None:
    cells: list[str | Text]
    if r.error is not None:
        cells = [user_text(r.id), Text("error", style="red")]
        if score:
            cells += [user_text(", ".join(r.gold or [])), Text("✗", style="red")]
        table.add_row(*cells, "", Text(r.error, style="red"))
        return
    cells = [user_text(r.id), Text(", ".join(r.answers), style="bold")]
    if score:
        ok = r.correct
        mark = (
            Text("—", style="dim")
            if ok is None
            else Text("✓" if ok else "✗", style="green" if ok else "red")
        )
        cells += [user_text(", ".join(r.gold or [])), mark]
    table.add_row(*cells, r.state or "", user_text(r.question))


def _score_tables(summary: dict[str, Any]) -> Group:
    unscored = summary.get("unscored", 0)
    headline = Text(
        f"exact set match: {summary['correct']}/{summary['scored']} = {summary['accuracy']:.1%}"
        f"  (items that could not be read: {summary['failed']}"
        + (f"; without a usable 'answers' label: {unscored})" if unscored else ")"),
        style="bold",
    )
    table = Table(header_style="bold")
    table.add_column("group")
    table.add_column("value")
    table.add_column("correct", justify="right")
    table.add_column("accuracy", justify="right")
    for key, vals in summary["by"].items():
        for value, cell in vals.items():
            table.add_row(
                user_text(key),
                user_text(value),
                f"{cell['correct']}/{cell['total']}",
                f"{cell['accuracy']:.1%}",
            )
    return Group(table, headline)
