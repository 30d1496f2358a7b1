"""Hostile input for what tsolve writes and reports: Inspect logs read by
``tsolve report``, the pictures its ``--plot`` draws, and the folders output
commands replace.

Three surfaces of :mod:`tsolve.stress.fuzz_surfaces`, each with an oracle of its
own rather than the code under test:

* ``report``: a real Inspect log of a few time puzzles (made once per process,
  offline, with the scripted solver) with one field of one sample (or of every
  sample) replaced by a hostile value (a metric ``"high"`` or ``null``, a
  condition that is a string or a list, NaN, ``"Infinity"``, ``1e308``, ``-5``,
  a megabyte of text, TeX, a record that is a string ...), or with every
  sample's id made 220 characters long, the first 200 shared. ``tsolve
  report`` must read the log: at most the samples changed are named bad,
  every other sample is counted (each id once: Inspect's count), the report
  is strict JSON (no NaN), and every accuracy and metric is a fraction in
  [0, 1] (the family contract's range: a mean outside it averaged a corrupt
  score). A traceback, a sample lost or pooled, or such a figure is a failure.
* ``report-plot``: ``tsolve report --plot OUT`` (``--figure`` auto, a paper's
  or ``all``) of that log's rows, with a symbolic link (to a file outside, to
  nothing, to a folder outside), an earlier picture or a folder standing at
  ``OUT`` or at every name ``--figure all`` derives from it (``OUT-NAME``).
  Outside the figures' folder nothing may change (a dangling link's target is
  not created), every link stays as it was, a refusal is one line, and what
  is written is a picture in the folder.
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
    ("1e308", lambda: 1e308),
    ("-5", lambda: -5),
    ("1.5", lambda: 1.5),
)

#: The family contract's range of a score metric, as the oracle holds it.
_FRACTION = (0.0, 1.0)

#: Where in a sample a value is put: (label, path). ``score.X`` is the
#: score's metadata, ``value``/``value.X`` its value, ``record.X`` the
#: tsolve record in the sample's metadata.
_PLACES: tuple[str, ...] = (
    "score.condition", "score.condition.name", "score.metrics", "score.metrics.em",
    "score.main_metric", "score.run", "score.run.turns", "value", "value.em", "value.f1",
    "record", "record.style", "record.solution_count", "record.answers", "record.id",
)  # fmt: skip


def _first_family() -> str:
    """The first built-in family that generates records (registry order)."""
    from tsolve.stress.adversarial import suite_families

    return suite_families()[0]


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
            # The first built-in family's task (with its default options).
            task = family_task(_first_family(), seed=0, count=4)
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
    roll = rng.random()
    if roll < 0.1:  # long ids that share their first 200 characters
        for k, sample in enumerate(samples):
            sample.id = f"{'x' * 200}{k:020d}"
        label, touched = "every id 220 characters, the first 200 shared", 0
    else:
        i = rng.randrange(len(samples))
        place = rng.choice(_PLACES)
        what, make = rng.choice(_HOSTILE)
        chosen = samples if roll < 0.35 else [samples[i]]
        for sample in chosen:
            _put(sample, place, make())
        label = f"{'every sample' if roll < 0.35 else f'sample {i}'}: {place} = {what}"
        touched = len(chosen)

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
        if len(report.bad_samples) > touched:
            raise AssertionError(f"{len(report.bad_samples)} samples lost for {touched} changed")
        counted = sum(int(r["n"]) for r in report.rows if r.get("M", "all") == "all")
        if counted + len(report.bad_samples) != len(samples):
            raise AssertionError(
                f"{counted} counted + {len(report.bad_samples)} bad != {len(samples)} samples"
            )
        low, high = _FRACTION
        for row in report.rows:
            figures = {"accuracy": row.get("accuracy"), **(row.get("metrics") or {})}
            for k, v in figures.items():
                if isinstance(v, float) and not math.isfinite(v):
                    raise AssertionError(f"metric {k} is {v}")
                if isinstance(v, int | float) and not low <= v <= high:
                    raise AssertionError(f"{k} = {v!r}: a mean outside [0, 1]")
            err = row.get("stderr")
            if isinstance(err, float) and not (math.isfinite(err) and err >= 0):
                raise AssertionError(f"stderr is {err}")
        return json.loads(text)

    return label, run


# ------------------------------------------------------------------ pictures

_PLOT_LAYOUTS = (
    "nothing", "a link to a file outside", "a link to nothing", "a link to a folder outside",
    "an earlier picture", "a folder",
)  # fmt: skip


def _base_rows() -> list[dict[str, Any]]:
    """The report's rows of the base log, made once per process."""
    if "rows" not in _LOG:
        from inspect_ai.log import write_eval_log

        from tsolve.adapters.inspect_ai.report import build_report

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "base.eval"
            write_eval_log(_base_log(), str(path))
            _LOG["rows"] = build_report([path]).rows
    rows: list[dict[str, Any]] = copy.deepcopy(_LOG["rows"])
    return rows


def report_plot_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """``report --plot OUT --figure F`` with something standing at OUT or its derived names."""
    from tsolve.plots.paper_tables import CHOICES

    layout = rng.choice(_PLOT_LAYOUTS)
    at = rng.choice(("OUT", "every OUT-NAME"))
    figure = rng.choice(("auto", CHOICES[0], "all"))
    ext = rng.choice(("png", "svg"))

    def run() -> Any:
        from tsolve.plots.figure_files import draw_figures

        rows = _base_rows()
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            outside = root / "outside"
            outside.mkdir()
            (outside / "keep.png").write_bytes(b"the user's picture")
            (outside / "folder").mkdir()
            folder = root / "figures"
            folder.mkdir()
            out = folder / f"fig.{ext}"
            # the derived names of every paper figure, whichever the rows have
            places = [out] if at == "OUT" else [folder / f"fig-{n}.{ext}" for n in CHOICES]
            for p in places:
                if layout == "a link to a file outside":
                    p.symlink_to(outside / "keep.png")
                elif layout == "a link to nothing":
                    p.symlink_to(outside / "absent.png")
                elif layout == "a link to a folder outside":
                    p.symlink_to(outside / "folder", target_is_directory=True)
                elif layout == "an earlier picture":
                    p.write_bytes(b"an earlier picture")
                elif layout == "a folder":
                    p.mkdir()
            links = {str(p): os.readlink(p) for p in folder.iterdir() if p.is_symlink()}
            before = _snapshot(root, folder)
            try:
                written = draw_figures(rows, figure, out)
                refused = None
            except TsolveError as exc:
                written, refused = [], str(exc)
            if before != _snapshot(root, folder):
                raise AssertionError("a file outside the figures' folder changed")
            if {str(p): os.readlink(p) for p in folder.iterdir() if p.is_symlink()} != links:
                raise AssertionError("a link in the figures' folder was replaced or removed")
            if refused is not None:
                if "\n" in refused:
                    raise AssertionError(f"a refusal of {len(refused.splitlines())} lines")
                raise TsolveError(refused)
            magic = b"\x89PNG" if ext == "png" else b"<?xml"
            for p in written:
                if p.parent != folder or p.is_symlink() or not p.read_bytes().startswith(magic):
                    raise AssertionError(f"{p.name}: not a picture written in the folder")
            return {"written": [p.name for p in written]}

    return f"--figure {figure} .{ext}, {layout} at {at}", run


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
