"""Shared CLI output helpers: JSON to stdout exactly, people-facing text via rich."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from tsolve.errors import TsolveError
from tsolve.records import dumps

FORMATS = ("text", "json", "jsonl")
T = TypeVar("T")


def check_format(fmt: str, allowed: tuple[str, ...] = FORMATS) -> str:
    if fmt not in allowed:
        raise TsolveError(f"format: expected one of {', '.join(allowed)}, got {fmt!r}")
    return fmt


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def err_console() -> Console:
    # soft_wrap: a one-line error stays one line however narrow the terminal.
    return Console(stderr=True, highlight=False, soft_wrap=True)


def emit_records(records: Iterable[dict[str, Any]], fmt: str, single: bool = False) -> None:
    """Write records as JSON (an object if ``single`` else an array) or JSONL."""
    out = sys.stdout
    if fmt == "jsonl":
        for r in records:
            out.write(dumps(r) + "\n")
            out.flush()
        return
    items = list(records)
    if single and len(items) == 1:
        out.write(json.dumps(items[0], ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")


class RateColumn(ProgressColumn):
    """Items per second (rich's own speed column is for bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f}/s")


@contextmanager
def progress(total: int | None, label: str, enabled: bool = True) -> Iterator[Progress]:
    """A rich progress bar on stderr (shown only on a terminal)."""
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


def tracked(items: Iterable[T], total: int | None, label: str) -> Iterator[T]:
    with progress(total, label) as bar:
        task = bar.task_ids[0]
        for x in items:
            yield x
            bar.advance(task)


def fail(message: str) -> None:
    """Raise the one-line user error the app turns into exit code 2."""
    raise TsolveError(message)


__all__ = ["FORMATS", "check_format", "console", "emit_records", "err_console", "fail",
           "progress", "tracked", "typer"]  # fmt: skip
