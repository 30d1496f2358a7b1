"""Commands that take "text or a file" (``tsolve check-claims``, ``tsolve tempo
tag``, the plain-text puzzles of ``tsolve solve --text-file``) read their
argument here: ``-`` is stdin; an existing path is a file; anything else is
the text itself.

A path that is not a regular file is a *stream* (:func:`is_stream`): a pipe
such as ``/dev/stdin`` or bash's ``<(cat file)`` (``/dev/fd/63``), a FIFO, a
character device. It is read like stdin, once, to its end, never taken for
the text of its name (which is what ``Path.is_file`` alone led to). Every
read stops at :data:`MAX_TEXT_BYTES`, so ``/dev/zero`` is a one-line error
rather than memory growing until the process is killed; the text must be
UTF-8 (a UTF-8 byte-order mark is dropped).

``path_like_is_error`` adds one rule for commands where a mistyped file name
would otherwise be checked, silently, as text: one word that looks like a path
(contains ``/`` or ``\\``, or ends in ``.txt``, ``.md``, ``.json``,
``.jsonl``, ``.log``, ``.text``) but names no file is an error.
"""

from __future__ import annotations

import re
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from tsolve.errors import TsolveError
from tsolve.records import MAX_LINE_BYTES

_PATHLIKE = re.compile(r"\S*[/\\]\S*|\S+\.(?:txt|md|json|jsonl|log|text)")

#: The most text one argument may bring: the one line limit every reader
#: shares (:data:`tsolve.records.MAX_LINE_BYTES`, 64 MiB); a larger file or
#: stream is refused in one line.
MAX_TEXT_BYTES = MAX_LINE_BYTES


def is_stream(source: str | Path) -> bool:
    """``-``, or an existing path that is neither a regular file nor a folder
    (a pipe, a FIFO, ``/dev/stdin``, ``/dev/fd/N``, a character device)."""
    if str(source) == "-":
        return True
    try:
        mode = Path(source).stat().st_mode
    except (OSError, ValueError):  # no such path, or a name the OS refuses
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_text_source(source: str, *, path_like_is_error: bool = False) -> str:
    """The text ``source`` stands for (see the module docstring)."""
    if source == "-":
        buffer = getattr(sys.stdin, "buffer", None)  # a test runner's stdin may be text only
        if buffer is None:
            return read_stream_text(sys.stdin.read(MAX_TEXT_BYTES + 1), "stdin")
        return read_stream(buffer, "stdin")
    looks_like_a_name = len(source) < 4096 and "\n" not in source
    if looks_like_a_name and is_stream(source):
        try:
            with open(source, "rb") as fh:
                return read_stream(fh, source)
        except OSError as exc:
            raise TsolveError(f"file: cannot read {source!r} ({exc.strerror})") from None
    p = Path(source)
    try:
        is_file = looks_like_a_name and p.is_file()
    except (OSError, ValueError):  # a name too long for the file system is text
        is_file = False
    if not is_file:
        if path_like_is_error and _PATHLIKE.fullmatch(source.strip()):
            raise TsolveError(f"file not found: {source} (pass text with spaces, or '-' for stdin)")
        return source
    try:
        with p.open("rb") as fh:
            return read_stream(fh, source)
    except OSError as exc:
        raise TsolveError(f"file: cannot read {source!r} ({exc.strerror})") from None


def read_stream(fh: BinaryIO, name: str) -> str:
    """All of ``fh`` as UTF-8 text, at most :data:`MAX_TEXT_BYTES`."""
    data = fh.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise _too_long(name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TsolveError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def read_stream_text(text: str, name: str) -> str:
    """Text already decoded (a text-only stdin), under the same bound."""
    if len(text) > MAX_TEXT_BYTES:
        raise _too_long(name)
    return text.removeprefix("\ufeff")


def _too_long(name: str) -> TsolveError:
    return TsolveError(
        f"{name}: more than {MAX_TEXT_BYTES >> 20} MiB of text; tsolve reads at most "
        f"{MAX_TEXT_BYTES >> 20} MiB from one argument"
    )
