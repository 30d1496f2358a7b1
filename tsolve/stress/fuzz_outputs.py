"""Hostile input for what tsolve writes and reports: Inspect logs read by
``tsolve report``, and the folders output commands replace.

Two surfaces of :mod:`tsolve.stress.fuzz_surfaces`, each with an oracle of its
own rather than the code under test:

* ``report``: a real Inspect log of a few time puzzles (made once per process,
  offline, with the scripted solver) with one field of one sample replaced by
  a hostile value (a metric ``"high"`` or ``null``, a condition that is a
  string or a list, NaN, ``"Infinity"``, a megabyte of text, TeX, a record
  that is a string ...). ``tsolve report`` must read the log: at most that one
  sample is named bad, every other sample is counted, and the report is
  strict JSON (no NaN). A traceback, a second sample lost or a non-finite
  figure is a failure.
* ``out-folders``: a folder writer (:class:`tsolve.records.folders.FolderWrite`,
  behind ``--format hub``, ``--format hf`` and ``export lm-eval``) pointed at
  a hostile target: a symbolic link to a folder outside, a folder holding a
  link out or a user's file, a file, the working folder or its parent, a
  folder tsolve wrote before. Outside the target nothing may change (a
  sentinel's bytes and time stamp are compared), a user's file is never
  deleted, no temporary folder is left behind, and a refusal is one line.

Each ``run`` raises :class:`~tsolve.errors.TsolveError` for a refusal that
keeps these promises (the campaign counts it as reported) and
:class:`AssertionError` for a broken one.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError

_HOSTILE: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("text 'high'", lambda: "high"),
    ("null", lambda: None),
    ("NaN", lambda: float("nan")),
    ("inf", lambda: float("inf")),
    ("text 'Infinity'", lambda: "Infinity"),
    ("a list", lambda: [1.0]),
    ("an object", lambda: {"implicit": True}),
    ("10**30", lambda: 10**30),
    ("true", lambda: True),
    ("-1", lambda: -1),
    ("empty text", lambda: ""),
    ("TeX", lambda: "$\\frac{1$"),
    ("1 MB of text", lambda: "x" * 1_000_000),
    ("text 'many'", lambda: "many"),
)

#: Where in a sample a value is put: (label, path). ``score.X`` is the
#: score's metadata, ``value``/``value.X`` its value, ``record.X`` the
#: tsolve record in the sample's metadata.
_PLACES: tuple[str, ...] = (
    "score.condition", "score.condition.name", "score.metrics", "score.metrics.em",
    "score.main_metric", "score.run", "score.run.turns", "value", "value.em", "value.f1",
    "record", "record.style", "record.solution_count", "record.answers", "record.id",
)  # fmt: skip

_LOG: dict[str, Any] = {}
"""The base Inspect log, made once per process (a few seconds): each input
mutates a deep copy of it."""


def _base_log() -> Any:
    if "log" not in _LOG:
        from inspect_ai import eval as inspect_eval
        from inspect_ai.log import read_eval_log

        from tsolve.adapters.inspect_ai import family_task
        from tsolve.adapters.inspect_ai.scripted import scripted

        with tempfile.TemporaryDirectory() as tmp:
            task = family_task("time-puzzles", seed=0, count=4, solutions="1")
            (log,) = inspect_eval(task, model="mockllm/model", solver=scripted(),
                                  log_dir=tmp, display="none")  # fmt: skip
            _LOG["log"] = read_eval_log(log.location)
    return _LOG["log"]


def _put(sample: Any, place: str, value: Any) -> None:
    (score,) = sample.scores.values()
    where, *keys = place.split(".")
    if where == "value":
        if keys and isinstance(score.value, dict):
            score.value[keys[0]] = value
        else:
            score.value = value
        return
    if where == "record" and not keys:
        sample.metadata["record"] = value
        return
    target = score.metadata if where == "score" else sample.metadata["record"]
    for key in keys[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    target[keys[-1]] = value


def report_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One hostile sample in an otherwise good log, through ``build_report``."""
    from inspect_ai.log import write_eval_log

    from tsolve.adapters.inspect_ai.report import build_report

    log = copy.deepcopy(_base_log())
    samples = log.samples or []
    i = rng.randrange(len(samples))
    place = rng.choice(_PLACES)
    what, make = rng.choice(_HOSTILE)
    _put(samples[i], place, make())

    def run() -> Any:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "hostile.eval"
            try:
                write_eval_log(log, str(path))
            except Exception as exc:  # Inspect itself refuses to write it: not tsolve's input
                raise TsolveError(
                    f"Inspect cannot write such a log ({type(exc).__name__})"
                ) from None
            report = build_report([path])
        out = report.to_json()
        text = json.dumps(out, allow_nan=False, default=str)  # raises on NaN or inf
        if len(report.bad_samples) > 1:
            raise AssertionError(f"{len(report.bad_samples)} samples lost for one bad field")
        counted = sum(int(r["n"]) for r in report.rows if r.get("M", "all") == "all")
        if counted + len(report.bad_samples) != len(samples):
            raise AssertionError(
                f"{counted} counted + {len(report.bad_samples)} bad != {len(samples)} samples"
            )
        for row in report.rows:
            for k, v in (row.get("metrics") or {}).items():
                if isinstance(v, float) and not math.isfinite(v):
                    raise AssertionError(f"metric {k} is {v}")
        return json.loads(text)

    return f"sample {i}: {place} = {what}", run


# ------------------------------------------------------------------ folders

_LAYOUTS = (
    "absent", "empty", "link to a folder outside", "link to an earlier tsolve folder",
    "holds a link out", "holds a user's file", "a file", "the working folder",
    "the working folder's parent", "an earlier tsolve folder", "'-'",
)  # fmt: skip


def _snapshot(root: Path, skip: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` outside ``skip``: bytes and mtime (links not followed)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if here == skip or skip in here.parents:
            dirnames[:] = []
            continue
        for name in filenames:
            p = here / name
            if p.is_symlink():
                out[str(p)] = (os.readlink(p).encode(), 0)
            else:
                out[str(p)] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def folders_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One folder writer pointed at a hostile target."""
    from tsolve.datasets.hub import HUB_FOLDER
    from tsolve.records.folders import MARKER, FolderWrite

    layout = rng.choice(_LAYOUTS)

    def earlier(folder: Path) -> None:
        folder.mkdir()
        (folder / "README.md").write_text("old card\n", encoding="utf-8")
        (folder / MARKER).write_text(json.dumps({"paths": ["README.md"]}), encoding="utf-8")

    def attempt() -> Any:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            outside = root / "outside"
            outside.mkdir()
            (outside / "sentinel.txt").write_text("keep me\n", encoding="utf-8")
            work = root / "work"
            work.mkdir()
            target = work / "out"
            cwd = os.getcwd()
            # Every relative target ("-", ".", "..") resolves inside this
            # temporary folder, even with the checks under test broken.
            os.chdir(work)
            user_file = None
            given: str | Path = target
            if layout == "empty":
                target.mkdir()
            elif layout == "link to a folder outside":
                target.symlink_to(outside, target_is_directory=True)
            elif layout == "link to an earlier tsolve folder":
                earlier(root / "old")
                target.symlink_to(root / "old", target_is_directory=True)
            elif layout == "holds a link out":
                target.mkdir()
                (target / "data").symlink_to(outside, target_is_directory=True)
            elif layout == "holds a user's file":
                target.mkdir()
                user_file = target / "notes.txt"
                user_file.write_text("mine\n", encoding="utf-8")
            elif layout == "a file":
                target.write_text("a file\n", encoding="utf-8")
            elif layout == "the working folder":
                earlier(target)
                os.chdir(target)
                given = "."
            elif layout == "the working folder's parent":
                earlier(target)
                (target / "inner").mkdir()
                os.chdir(target / "inner")
                given = ".."
            elif layout == "an earlier tsolve folder":
                earlier(target)
            elif layout == "'-'":
                given = "-"
            before = _snapshot(root, target)
            try:
                try:
                    with FolderWrite(given, HUB_FOLDER) as out:
                        out.folder.mkdir()
                        (out.folder / "README.md").write_text("new card\n", encoding="utf-8")
                        out.commit()
                    written = True
                except TsolveError as exc:
                    if "\n" in str(exc):
                        raise AssertionError(
                            f"a refusal of {len(str(exc).splitlines())} lines"
                        ) from None
                    written = False
                finally:
                    os.chdir(cwd)
                after = _snapshot(root, target)
                if before != after:
                    differ = {k for k in before if before.get(k) != after.get(k)}
                    changed = sorted((set(before) ^ set(after)) | differ)
                    raise AssertionError(f"changed outside the target: {changed[:3]}")
                if user_file is not None and not user_file.exists():
                    raise AssertionError("a user's file was deleted")
                left = [p.name for p in work.iterdir() if ".tsolve-" in p.name]
                if left:
                    raise AssertionError(f"temporary folders left behind: {left}")
                if not written:
                    raise TsolveError("refused")
                card = (target / "README.md").read_text(encoding="utf-8")
                if target.is_symlink() or card != "new card\n":
                    raise AssertionError("the folder was not written in place")
                return {"written": True}
            finally:
                os.chdir(cwd)

    def run() -> Any:
        cwd = os.getcwd()
        try:
            return attempt()
        finally:
            os.chdir(cwd)

    return layout, run
