"""``tsolve --help`` (and a bare ``tsolve``), printed from the command table
without importing Typer or rich.

Why: the root help is the CLI's most-run page, and importing Typer, click and
rich's console and tables to draw it costs about twice the whole budget
(``tsolve --help`` <= 150 ms; docs/startup.md). The page is always the same
shape (usage, the root's help, an Options panel, a Commands panel), so it is
laid out here the way Typer's rich help lays it out: the same width (from
``TERMINAL_WIDTH``, ``COLUMNS`` or the terminal, else 80), rounded panels, the
same column widths and word wrapping. ``tests/test_cli_lazy.py`` holds this
page byte for byte equal to the one Typer renders for the full app at several
widths; in a terminal it adds the same colours (off with ``NO_COLOR``).

Every other help page (``tsolve puzzle --help``, ...) is Typer's own.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TextIO

from tsolve.cli.command_table import ROOT_HELP, ROOT_OPTIONS, commands

_WORD = re.compile(r"\s*\S+\s*")

# ANSI styles of Typer's help (typer.rich_utils): (start, end) or no style.
_BOLD = ("\x1b[1m", "\x1b[0m")
_BOLD_YELLOW = ("\x1b[1;33m", "\x1b[0m")
_BOLD_CYAN = ("\x1b[1;36m", "\x1b[0m")
_DIM = ("\x1b[2m", "\x1b[0m")
_PLAIN = ("", "")


def program_name() -> str:
    """The program as click names it in a usage line: ``tsolve`` for the
    console script, ``python -m tsolve`` when run with ``-m``."""
    main = sys.modules.get("__main__")
    package = getattr(main, "__package__", None)
    path = sys.argv[0] if sys.argv and sys.argv[0] else "tsolve"
    if package in (None, ""):
        return os.path.basename(path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = str(package) if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def help_width() -> int:
    """The width rich's console (as Typer makes it) would use."""
    for variable in ("TERMINAL_WIDTH", "COLUMNS"):
        value = os.environ.get(variable, "")
        if value.isdigit():
            return int(value)
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def use_colour(stream: TextIO) -> bool:
    """Colours when writing to a terminal, unless ``NO_COLOR`` is set or the
    terminal is dumb; ``FORCE_COLOR`` forces them (rich's own rules)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def wrap(text: str, width: int, fold: bool = True) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells, as rich breaks
    it: at the text's own newlines, then before the first word that would not
    fit. A word longer than a line is cut into pieces (``fold``), or else put
    on a line of its own and cut short with an ellipsis, as in a table cell.
    Lines are not padded."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, offset = "", 0
        for match in _WORD.finditer(paragraph):
            word = match.group(0)
            if width - offset >= len(word.rstrip()):
                line += word
                offset += len(word)
                continue
            if line:
                lines.append(line.rstrip())
            while fold and len(word.rstrip()) > width:
                lines.append(word[:width])
                word = word[width:]
            line, offset = word, len(word)
        lines.append(line.rstrip())
    return [line if len(line) <= width else line[: width - 1] + "…" for line in lines]


def _styled(text: str, style: tuple[str, str], colour: bool) -> str:
    return f"{style[0]}{text}{style[1]}" if colour and text else text


def _panel(
    title: str, rows: Iterable[tuple[str, str]], name_width: int, width: int, colour: bool
) -> list[str]:
    """A rounded panel of (name, help) rows: each name in a column of
    ``name_width`` cells (its padding included), the help wrapped in the rest
    of the panel."""
    help_width = width - 4 - name_width  # 4: the borders and a space inside each
    top = f"╭─ {title} ".ljust(width - 1, "─") + "╮"
    out = [_styled(top, _DIM, colour)]
    side = _styled("│", _DIM, colour)
    for name, text in rows:
        for i, line in enumerate(wrap(text, help_width, fold=False)):
            shown = name if i == 0 else ""
            cell = _styled(shown, _BOLD_CYAN, colour) + " " * (name_width - len(shown))
            out.append(f"{side} {cell}{line.ljust(help_width)} {side}")
    out.append(_styled("╰" + "─" * (width - 2) + "╯", _DIM, colour))
    return out


def click_width() -> int:
    """The width click's help formatter wraps the usage line at: the
    terminal's (``COLUMNS`` first), kept between 50 and 78 columns."""
    import shutil

    return max(min(shutil.get_terminal_size().columns, 80) - 2, 50)


def usage_text(prog: str, width: int) -> str:
    """The usage line as click writes it, wrapped at click's ``width``
    (:func:`click_width`), before rich wraps it again to the page."""
    import textwrap

    prefix = f"Usage: {prog} "
    args = "[OPTIONS] COMMAND [ARGS]..."
    head = ""
    first = indent = " " * len(prefix)
    if width >= len(prefix) + 20:
        first = prefix
    else:  # the arguments go on the next line
        head = prefix + "\n"
        first = indent = " " * (len("Usage: ") + 4)
    wrapper = textwrap.TextWrapper(
        width, initial_indent=first, subsequent_indent=indent, replace_whitespace=False
    )
    return head + wrapper.fill(args)


def render_root_help(
    width: int, prog: str, colour: bool = False, usage_width: int | None = None
) -> str:
    """The root help page at ``width`` columns, for program name ``prog``;
    click wraps the usage line at ``usage_width`` (by default as it would in
    a terminal ``width`` columns wide)."""
    if usage_width is None:
        usage_width = max(min(width, 80) - 2, 50)
    blank = " " * width
    lines = [_styled(blank, _BOLD, colour)]
    for line in wrap(usage_text(prog, usage_width), width - 2):
        if colour and line.startswith("Usage: "):
            body = _styled("Usage: ", _BOLD_YELLOW, True) + _styled(line[7:], _BOLD, True)
            pad = _styled(" " * (width - 2 - len(line)), _BOLD, True)
            lines.append(f"{_styled(' ', _BOLD, True)}{body}{pad}{_styled(' ', _BOLD, True)}")
        else:
            lines.append(_styled(f" {line.ljust(width - 2)} ", _BOLD, colour))
    lines.append(_styled(blank, _BOLD, colour))
    lines += [f" {line.ljust(width - 2)} " for line in wrap(ROOT_HELP, width - 2)]
    lines.append(blank)
    # Typer's options table: the flag, then four empty columns (short flag,
    # negative flags, type), each one cell of padding either side.
    flag_width = max(len(flag) for flag, _ in ROOT_OPTIONS) + 1 + 4 * 2 + 1
    lines += _panel("Options", ROOT_OPTIONS, flag_width, width, colour)
    # Typer's commands table: the name (as wide as the longest), one cell of
    # padding either side of the gap, the help in the rest.
    name_width = max(len(entry.name) for entry in commands()) + 2
    rows = [(entry.name, entry.help) for entry in commands()]
    lines += _panel("Commands", rows, name_width, width, colour)
    return "\n".join(lines) + "\n\n"


def print_root_help(stream: TextIO | None = None) -> None:
    """Write the root help page to ``stream`` (standard output)."""
    out = sys.stdout if stream is None else stream
    page = render_root_help(help_width(), program_name(), use_colour(out), click_width())
    out.write(page)
    out.flush()
