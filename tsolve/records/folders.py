"""Writing an output folder whole, in place, without losing or exposing data.

Every command that writes a folder (``tsolve dataset --format hub`` and
``--format hf``, ``tsolve export lm-eval``) goes through :class:`FolderWrite`,
so each keeps the same promises:

* **Checked before any work.** :func:`check_target` runs before a record is
  generated and refuses, with one line: a target that is a symbolic link (a
  link is never written through, nor removed in place of what it names); the
  working folder or any folder holding it (``--out .`` would otherwise be
  replaced under the user's feet); a file; a missing parent; and an existing
  folder tsolve cannot prove it wrote.
* **Written beside, then renamed into place.** The new folder is built in a
  fresh temporary folder in the target's own parent (same file system, so the
  rename is atomic) and renamed onto the target only when it is whole. A run
  that fails or is interrupted leaves the target exactly as it was.
* **Only tsolve's own folders are replaced, and only what tsolve wrote is
  deleted.** Each folder tsolve writes holds :data:`MARKER`, the list of every
  path in it. An existing target may be replaced when it is empty, or holds
  that marker and nothing but the paths it lists (plus by-products the writer
  names, such as Python's ``__pycache__`` beside an lm-eval ``utils.py``).
  The marker is the only proof: a folder that merely looks like one a writer
  makes (a ``datasets.save_to_disk`` folder, a hub folder an older tsolve
  wrote before the marker existed) is refused, since which of its files are
  tsolve's cannot be told, and a user's save would otherwise be deleted
  whole. Anything else, and any symbolic link inside, is refused before
  generating: a user's own file is never deleted, and a link inside is never
  followed. The check runs again
  just before the swap, so a file added during a long run is not lost either.
  The old folder is renamed aside into the temporary folder and deleted from
  there, after the new one is in place.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from tsolve.errors import TsolveError

#: The file in every folder tsolve writes: JSON listing the folder's paths.
MARKER = ".tsolve-folder.json"


@dataclass(frozen=True)
class FolderKind:
    """What one writer makes, so the check knows which folders it may replace.

    ``name`` says what the folder is in messages (``"--format hub"``);
    ``members`` are glob patterns (``fnmatch``, relative POSIX paths) of what
    such a folder may hold besides the paths its marker lists, e.g. files a
    later tool derives from it; ``legacy(path)`` recognises a folder an
    earlier tsolve wrote without a marker, only to say so in the refusal
    (such a folder is never replaced: nothing proves which of its files are
    tsolve's); ``foreign`` says what a folder it may not replace is (default
    "exists and was not written by NAME"); ``hint`` ends the refusal."""

    name: str
    members: tuple[str, ...] = ()
    legacy: Callable[[Path], bool] | None = None
    foreign: str = ""
    hint: str = "give a new or empty folder"


def _members(root: Path) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Every path under ``root`` (relative, POSIX), never following a link."""
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                rel = f"{prefix}{entry.name}"
                yield rel, entry
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), rel + "/"))


def _listed(root: Path) -> set[str] | None:
    """The paths ``root``'s marker lists, or None without a readable marker."""
    marker = root / MARKER
    if marker.is_symlink() or not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    paths = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return None
    return set(paths)


def _why_not_ours(root: Path, kind: FolderKind) -> str | None:
    """None when tsolve may replace the existing folder ``root`` (see the
    module docstring), else why not, as the tail of a one-line error."""
    try:
        members = list(_members(root))
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not members:
        return None
    for rel, entry in members:
        if entry.is_symlink():
            return (
                f"holds a symbolic link ({rel}); tsolve never replaces a folder with links in "
                "it, nor follows them"
            )
    listed = _listed(root)
    if listed is None:
        if kind.legacy is not None and kind.legacy(root):
            return (
                f"looks like an older tsolve's output but has no {MARKER}, so nothing proves "
                "which of its files tsolve wrote (remove it yourself to replace it)"
            )
        return kind.foreign or f"exists and was not written by {kind.name}"
    allowed = listed | {MARKER}
    for rel, _entry in members:
        if rel not in allowed and not any(fnmatch.fnmatchcase(rel, p) for p in kind.members):
            return f"holds {rel}, which tsolve did not write"
    return None


def _named_target(out: str | Path, what: str, wanted: str, itself: str) -> Path:
    """``out`` as an absolute path, or the one-line refusal every writer
    shares: nothing or ``-`` (no place named), a symbolic link (tsolve never
    writes through one)."""
    text = str(out)
    if text in ("", "-"):
        raise TsolveError(f"{what}: give {wanted}, got {text!r}")
    if Path(out).is_symlink():
        raise TsolveError(
            f"{what}: {text!r} is a symbolic link; give {itself} (tsolve never writes "
            "through a link)"
        )
    return Path(os.path.abspath(out))


def check_target(out: str | Path, kind: FolderKind, what: str = "out") -> Path:
    """The absolute path of the folder to write at ``out``, or a one-line
    :class:`TsolveError` saying why tsolve will not write there (see the
    module docstring). Call it before generating anything."""
    text = str(out)
    target = _named_target(out, what, f"a folder for {kind.name}", "the folder itself")
    here = Path.cwd().resolve()
    real = target.resolve()
    if real == here or real in here.parents:
        raise TsolveError(
            f"{what}: {text!r} is the working folder or holds it; give a folder beside it "
            "(tsolve replaces the folder it writes)"
        )
    if not target.parent.is_dir():
        raise TsolveError(f"{what}: directory {str(target.parent)!r} does not exist")
    if target.exists() and not target.is_dir():
        raise TsolveError(f"{what}: {text!r} is a file; give a folder for {kind.name}")
    if target.is_dir():
        why = _why_not_ours(target, kind)
        if why is not None:
            raise TsolveError(f"{what}: {text!r} {why}; {kind.hint}")
    return target


class FolderWrite:
    """One folder written whole at ``out`` (see the module docstring).

    Construct it before generating: it checks the target and makes
    :attr:`scratch`, a fresh temporary folder beside it, for the writer's
    spools. The writer builds the new folder at :attr:`folder` (inside
    ``scratch``; not yet created), then calls :meth:`commit`. Used as a
    context manager, it commits on success and always removes ``scratch``;
    without ``commit`` (a failure, an interrupted run) the target is left as
    it was."""

    def __init__(self, out: str | Path, kind: FolderKind, what: str = "out") -> None:
        self.shown = str(out)
        self.kind = kind
        self.what = what
        self.target = check_target(out, kind, what)
        try:
            self.scratch = Path(
                tempfile.mkdtemp(prefix=f".{self.target.name}.tsolve-", dir=self.target.parent)
            )
        except OSError as exc:
            raise TsolveError(
                f"{what}: cannot write beside {self.shown!r} ({exc.strerror})"
            ) from None
        self.folder = self.scratch / "new"
        self.committed = False

    def __enter__(self) -> FolderWrite:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.discard()
        if isinstance(exc, OSError):  # disk full, permissions, a file removed under us
            raise TsolveError(
                f"{self.what}: cannot write {self.shown!r} ({exc.strerror or exc}); "
                + ("it was replaced" if self.committed else "it is left as it was")
            ) from None

    def commit(self) -> None:
        """Mark :attr:`folder` as tsolve's and rename it onto the target,
        replacing a folder tsolve wrote (checked again now) and then deleting
        that old folder."""
        if not self.folder.is_dir():
            raise TsolveError(f"{self.what}: nothing was written for {self.shown!r}")
        paths = sorted(rel for rel, _ in _members(self.folder))
        (self.folder / MARKER).write_text(
            json.dumps({"written_by": "tsolve", "kind": self.kind.name, "paths": paths},
                       indent=1) + "\n",
            encoding="utf-8",
        )  # fmt: skip
        old = self.scratch / "old"
        if self.target.is_symlink() or self.target.exists():
            if self.target.is_symlink() or not self.target.is_dir():
                raise TsolveError(
                    f"{self.what}: {self.shown!r} changed during the run (now a link or a file); "
                    "nothing was replaced"
                )
            why = _why_not_ours(self.target, self.kind)
            if why is not None:
                raise TsolveError(
                    f"{self.what}: {self.shown!r} {why} (it changed during the run); nothing "
                    "was replaced"
                )
            os.rename(self.target, old)
        try:
            os.rename(self.folder, self.target)
        except OSError as exc:
            if old.exists():
                os.rename(old, self.target)  # put the old folder back
            raise TsolveError(
                f"{self.what}: cannot write {self.shown!r} ({exc.strerror})"
            ) from None
        self.committed = True

    def discard(self) -> None:
        """Remove the temporary folder (and with it a replaced old folder)."""
        shutil.rmtree(self.scratch, ignore_errors=True)


def write_file_whole(out: str | Path, blob: bytes | None, what: str = "out") -> Path:
    """Write ``blob`` as the file ``out``, whole or not at all: into a fresh
    temporary file beside it (same file system), then renamed onto it, so a
    reader never sees half a file and a failed write leaves ``out`` as it was.

    Refused with one line, before anything is written: ``-`` or nothing, a
    symbolic link (never written through), a folder, a missing parent. With
    ``blob`` None only these checks run, so a command can make them before
    its work. Returns the absolute path."""
    text = str(out)
    target = _named_target(out, what, "a file to write", "the file itself")
    if not target.parent.is_dir():
        raise TsolveError(f"{what}: directory {str(target.parent)!r} does not exist")
    if target.is_dir():
        raise TsolveError(f"{what}: {text!r} is a folder; give a file")
    if blob is None:
        return target
    try:
        fd, part = tempfile.mkstemp(prefix=f".{target.name}.tsolve-", dir=target.parent)
    except OSError as exc:
        raise TsolveError(f"{what}: cannot write beside {text!r} ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        if target.is_symlink() or target.is_dir():
            raise TsolveError(f"{what}: {text!r} changed during the run; nothing was written")
        os.replace(part, target)
    except OSError as exc:
        raise TsolveError(
            f"{what}: cannot write {text!r} ({exc.strerror}); it is left as it was"
        ) from None
    finally:
        if os.path.exists(part):
            os.unlink(part)
    return target
