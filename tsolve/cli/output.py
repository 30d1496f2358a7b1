"""Shared CLI output helpers: JSON to stdout exactly, people-facing text via rich."""

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from tsolve.errors import TsolveError

if TYPE_CHECKING:  # imported where used: neither is needed for `tsolve --help`
    from rich.progress import Progress

FORMATS = ("text", "json", "jsonl")

RayAddress = Annotated[
    str | None,
    typer.Option(
        help="--engine ray: the cluster to join (auto, HOST:PORT; default $RAY_ADDRESS, "
        "else a new local instance)."
    ),
]
"""``--ray-address``, shared by the commands that take ``--engine ray``."""
T = TypeVar("T")


# The ``--format`` choices, one list for every command (README "Command-line
# conventions"): ``text`` for people, ``json`` one document, ``jsonl`` one
# object per line. A command that streams items writes ``json`` as one array
# of them (:func:`emit_stream`); a command that writes one report writes
# ``jsonl`` as that report on one line (:func:`emit_report`). Units: JSON
# carries fractions in [0, 1]; a text table that prints a percentage labels it
# ``%`` (header or value); one without ``%`` prints the fraction.
# ``tsolve dataset --format`` names file formats (jsonl, parquet, hf) and is
# the one exception.


class Fmt(str, Enum):
    """``--format``: text, one JSON document, or JSON Lines (every command)."""

    text = "text"
    json = "json"
    jsonl = "jsonl"


def family_choices(part: str | None = None, conjunction: str = "or") -> str:
    """The built-in families that have ``part`` (all when None), as a help
    text lists them ("a, b, c or d"): from the registry, so that a help text
    never names a family by hand. Plug-ins are left out (listing them would
    scan the entry points for every help page); ``tsolve families`` lists all."""
    from tsolve.contract import builtin_families

    names = [f.name for f in builtin_families() if part is None or getattr(f, part) is not None]
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def takes(option: str) -> str:
    """The built-in families whose generator takes ``option`` ("a, b"), for
    the help of a flag only some families take: from their declarations."""
    from tsolve.contract import builtin_families

    return ", ".join(f.name for f in builtin_families() if option in f.options)


def strata_examples() -> str:
    """What ``--balance`` may name, per built-in family that declares strata
    ("difficulty,style (a), difficulty,execution (b)")."""
    from tsolve.contract import builtin_families

    return ", ".join(f"{','.join(f.strata)} ({f.name})" for f in builtin_families() if f.strata)


def check_format(fmt: str, allowed: tuple[str, ...] = FORMATS) -> str:
    if fmt not in allowed:
        raise TsolveError(f"format: expected one of {', '.join(allowed)}, got {fmt!r}")
    return fmt


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def err_console() -> Console:
    # soft_wrap: a one-line error stays one line however narrow the terminal.
    return Console(stderr=True, highlight=False, soft_wrap=True)


def emit_stream(items: Iterable[Any], fmt: str) -> None:
    """Items as they come: ``jsonl`` one compact line each, ``json`` one array
    written item by item (so a long stream needs no memory), ``text`` is the
    caller's. Each item is flushed, so a reader of a pipe sees it at once."""
    out = sys.stdout
    if fmt == "jsonl":
        for item in items:
            out.write(json_text(item, separators=COMPACT) + "\n")
            out.flush()
        return
    first = True
    out.write("[")
    for item in items:
        body = json_text(item, indent=2).replace("\n", "\n  ")
        out.write(("\n  " if first else ",\n  ") + body)
        out.flush()
        first = False
    out.write("\n]\n" if not first else "]\n")
    out.flush()


def emit_report(report: Any, fmt: str) -> None:
    """One report: ``json`` indented, ``jsonl`` the same object on one line."""
    if fmt == "jsonl":
        write_json(report, separators=COMPACT)
    else:
        write_json(report, indent=2)


def emit_records(records: Iterable[dict[str, Any]], fmt: str, single: bool = False) -> None:
    """Write records as JSON (an object if ``single`` else an array) or JSONL."""
    from tsolve.records import dumps

    out = sys.stdout
    if fmt == "jsonl":
        for r in records:
            out.write(dumps(r) + "\n")
            out.flush()
        return
    items = list(records)
    write_json(items[0] if single and len(items) == 1 else items, indent=2)


COMPACT = (",", ":")


def json_text(
    obj: Any, indent: int | None = None, separators: tuple[str, str] | None = None
) -> str:
    """JSON for stdout or a file: :func:`tsolve.records.json_text`, the one
    strict writer (no NaN; lone surrogates written as escapes)."""
    from tsolve.records import json_text as strict_json_text

    return strict_json_text(obj, indent, separators)


def write_json(
    obj: Any, indent: int | None = None, separators: tuple[str, str] | None = None
) -> None:
    """One JSON document (or one JSON Lines row, without ``indent``) on stdout."""
    sys.stdout.write(json_text(obj, indent, separators) + "\n")


def user_text(value: Any) -> Text:
    """User-controlled text (an id, a family, a message quoting a record) as a
    rich ``Text``: printed literally, never parsed as markup, so ``[/]`` in an
    id cannot crash or restyle the output."""
    return Text(str(value))


def say(console_: Console, style: str, label: str, message: Any) -> None:
    """``label`` in ``style``, then ``message`` printed literally (see :func:`user_text`)."""
    console_.print(Text.assemble((label, style), " ", str(message)))


@contextmanager
def progress(total: int | None, label: str, enabled: bool = True) -> Iterator["Progress"]:
    """A rich progress bar on stderr (shown only on a terminal)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )

    class RateColumn(ProgressColumn):
        """Items per second (rich's own speed column is for bytes)."""

        def render(self, task: Task) -> Text:
            return Text(rate_text(task.finished_speed or task.speed, task.elapsed))

    show = enabled and sys.stderr.isatty()
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        disable=not show,
        transient=True,
    )
    with bar:
        bar.add_task(label, total=total)
        yield bar


MIN_RATE_SECONDS = 1.0
"""How long a bar runs before it shows a rate: the first items come within
microseconds of the start, and their rate ("220,886.9/s") says nothing about
the run."""


def rate_text(speed: float | None, elapsed: float | None) -> str:
    """A progress bar's rate, ``1,234.5/s``, or nothing before
    :data:`MIN_RATE_SECONDS` have passed (or while there is no estimate)."""
    if speed is None or elapsed is None or elapsed < MIN_RATE_SECONDS:
        return ""
    return f"{speed:,.1f}/s"


ROWS_COUNTED_UP_TO = 1 << 30
"""Largest file (bytes) whose rows :func:`row_count` counts for a bar's total."""


def row_count(path: str | Path) -> int | None:
    """The rows of a JSON Lines file, for a progress bar's total: its
    non-blank lines, counted in one pass of bytes (no JSON read). None when
    that count would not be the rows: stdin or a pipe, a file over
    :data:`ROWS_COUNTED_UP_TO`, or a file that is not one object per line
    (a JSON array, a pretty-printed object); a bar then shows no total."""
    if str(path) == "-":
        return None
    p = Path(path)
    try:
        if not p.is_file() or p.stat().st_size > ROWS_COUNTED_UP_TO:
            return None
        with p.open("rb") as f:
            count, first = 0, None
            for line in f:
                text = line.strip()
                if not text:
                    continue
                if first is None:
                    first = text
                    if not (text.startswith(b"{") and text.endswith(b"}")):
                        return None
                count += 1
    except OSError:
        return None
    return count


def tracked(items: Iterable[T], total: int | None, label: str) -> Iterator[T]:
    """``items``, with a progress bar on a terminal's stderr while they come.

    No bar for a known total of one item or none: a bar that goes from 0/1 to
    1/1 says nothing the result does not, and loading ``rich.progress`` was
    a twentieth of ``tsolve puzzle``'s start-up in a terminal (docs/startup.md)."""
    if not sys.stderr.isatty() or (total is not None and total <= 1):
        yield from items  # no bar would be drawn: spare loading rich.progress
        return
    with progress(total, label) as bar:
        task = bar.task_ids[0]
        for x in items:
            yield x
            bar.advance(task)


def open_output(path: str | Path) -> TextIO:
    """``path`` opened for writing UTF-8 text, or the one-line error saying why not."""
    p = Path(path)
    if p.is_dir():
        raise TsolveError(f"output: {str(path)!r} is a directory")
    try:
        return p.open("w", encoding="utf-8")
    except OSError as exc:
        raise TsolveError(f"output: cannot write {str(path)!r} ({exc.strerror})") from None


def fail(message: str) -> None:
    """Raise the one-line user error the app turns into exit code 2."""
    raise TsolveError(message)


__all__ = ["COMPACT", "FORMATS", "Fmt", "check_format", "console", "emit_records", "emit_report",
           "emit_stream", "err_console", "fail", "json_text", "open_output", "progress", "say",
           "tracked", "typer", "user_text", "write_json"]  # fmt: skip
