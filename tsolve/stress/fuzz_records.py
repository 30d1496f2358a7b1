"""Hostile input for what tsolve reads back from records and tables, and
the folders it replaces: five surfaces of :mod:`tsolve.stress.fuzz_surfaces`,
each with an oracle of its own rather than the code under test.

* ``overlap``: two *different* puzzles (time puzzles or relational; their
  prompts differ) whose ``facts`` are the same malformed list (``[null]``,
  ``[5]``, ``[{}]``, an unknown kind, params out of range, a text, ``[]``,
  or one such entry among good facts), one in the train file and one in the
  eval file of ``dataset overlap``. Neither may be a fingerprint: no overlap
  by content or by answer, both counted as bad rows, each named in one line.
* ``audit-forms``: a generated record with one stored form the audit reads
  replaced by a value of another type (a SPAN date's ``text`` of 5, a
  logistics ``solution`` of ``"x"`` or ``schedule`` of ``[]``, a puzzle's
  ``solver`` of 5). The audit must fail it (a verdict other than ``ok``,
  or a row error); the table of forms and their types is stated here.
* ``user-folders``: a folder tsolve never marked (a ``datasets.save_to_disk``
  folder's files, a hub folder or export as an older tsolve left it), given
  to the writer of that kind (``--format hf``, ``hub``, ``export lm-eval``).
  Without tsolve's marker it must be refused in one line and left byte for
  byte; with a marker listing every path it is replaced.
* ``hub-pandas``: a Hub split (``--format hub``, made once per process) with
  its schema metadata dropped, as a pandas round trip drops it (pandas
  itself when installed, else pyarrow), maybe with one derived ``answer``
  or ``question`` cell edited, the rows shuffled or some of them kept (a
  filtered frame writes its index as a column). Every untouched row must
  read back as the record the split was written from (no stray
  ``record_question``, no derived column kept as a field); an edited one
  must be a bad row.
* ``solve-check``: a puzzle whose ``answers`` is misnamed (``answer``,
  ``Answers``, ``answerz``) or not a list, through ``solve --check``'s
  library call. It must count as a problem (exit 1) with a one-line message
  naming ``answers``, as ``verify`` and ``audit`` flag it; the same record
  with its gold intact must pass.

Each ``run`` raises :class:`~tsolve.errors.TsolveError` for a refusal that
keeps these promises (the campaign counts it as reported) and
:class:`AssertionError` for a broken one.
"""

from __future__ import annotations

import copy
import json
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tsolve.errors import INTERNAL, TsolveError
from tsolve.stress.fuzz import base_records

SURFACES = ("overlap", "audit-forms", "user-folders", "hub-pandas", "solve-check")
"""This module's surfaces, in the order a campaign deals them out."""

Record = dict[str, Any]
_BASES: dict[str, list[Record]] = {}


def _bases(family: str) -> list[Record]:
    """Valid records of ``family`` (seed 0), drawn once per process."""
    if family not in _BASES:
        _BASES[family] = base_records(family, 0)
    return _BASES[family]


def _one_line(message: str) -> None:
    if "\n" in message or not message.strip():
        raise AssertionError(f"a refusal that is not one line: {message[:120]!r}")
    if INTERNAL in message:
        raise AssertionError(f"backstop: {message[:200]}")


def _write_jsonl(path: Path, records: list[Record]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# ------------------------------------------------------------------ overlap

#: Fact entries that are no fact of any family: each makes a list malformed.
_BAD_FACTS: tuple[tuple[str, Any], ...] = (
    ("null", None), ("5", 5), ("{}", {}), ("a text", "month"), ("a list", [1]),
    ("an unknown kind", {"kind": "no_such_kind", "params": {}}),
    ("a kind of null", {"kind": None, "params": {}}),
    ("month 13", {"kind": "month", "params": {"month": 13}}),
    ("month '1'", {"kind": "month", "params": {"month": "1"}}),
    ("no params", {"kind": "weekday"}), ("params a list", {"kind": "month", "params": [1]}),
    ("an unknown param", {"kind": "month", "params": {"month": 1, "x": 2}}),
)  # fmt: skip
#: ``facts`` values that are no list of facts at all.
_BAD_LISTS: tuple[tuple[str, Any], ...] = (("[]", []), ("a text", "x"), ("5", 5), ("{}", {}))


def _fact_families() -> tuple[str, ...]:
    """The built-in families whose records state typed ``facts`` and that
    solve their own records (the puzzles): those the overlap surface feeds."""
    from tsolve.contract import get_family
    from tsolve.stress.adversarial import suite_families

    return tuple(f for f in suite_families() if get_family(f).solve is not None)


def overlap_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """Two different puzzles sharing one malformed ``facts`` (module docstring)."""
    family = rng.choice(_fact_families())
    pool = _bases(family)
    a, b = rng.sample(pool, 2)
    if rng.random() < 0.25:
        what, facts = rng.choice(_BAD_LISTS)
    else:
        entries = [rng.choice(_BAD_FACTS) for _ in range(rng.randint(1, 3))]
        facts = [copy.deepcopy(e) for _, e in entries]
        what = " + ".join(w for w, _ in entries)
        if rng.random() < 0.4 and isinstance(a.get("facts"), list) and a["facts"]:
            facts.insert(rng.randrange(len(facts) + 1), copy.deepcopy(a["facts"][0]))
            what += " among a good fact"
    train = {**copy.deepcopy(a), "facts": facts}
    evals = {**copy.deepcopy(b), "facts": copy.deepcopy(facts)}
    return f"{family}: facts {what}", lambda: check_overlap(train, evals)


def check_overlap(train: Record, evals: Record) -> Any:
    """``dataset overlap`` on one record each: the two (different prompts,
    malformed facts) must be two bad rows, never one shared fingerprint."""
    from tsolve.datasets.overlap import find_overlap

    if train.get("prompt") == evals.get("prompt"):
        return {"skipped": "the two records are one puzzle"}
    with tempfile.TemporaryDirectory() as tmp:
        report = find_overlap(
            _write_jsonl(Path(tmp) / "train.jsonl", [train]),
            _write_jsonl(Path(tmp) / "eval.jsonl", [evals]),
        )
    if report.overlap or report.answer_overlap:
        raise AssertionError(
            f"two different puzzles with malformed facts overlap (content {report.overlap}, "
            f"answer {report.answer_overlap}), with {report.bad_row_count} bad rows"
        )
    if report.bad_row_count != 2:
        raise AssertionError(f"{report.bad_row_count} bad rows, expected both records")
    for line in report.bad_rows:
        _one_line(line)
    return report.to_json()


# ------------------------------------------------------------------ audit forms


def typed_forms() -> tuple[tuple[str, str, str, type], ...]:
    """(family, which records, path, the form's type) for every stored form
    the audit reads whose type is fixed: each built-in family's
    ``typed_forms`` part, stated there independently of the audit."""
    from tsolve.contract import builtin_families

    return tuple((f.name, *form) for f in builtin_families() for form in f.typed_forms)


_WRONG_VALUES: tuple[Any, ...] = (5, 2.5, True, "x", "", [], [1], {"a": 1})


def _put(record: Record, path: str, value: Any) -> bool:
    """Set the dotted ``path`` of ``record`` to ``value``; False when a parent is missing."""
    node: Any = record
    *parents, last = path.split(".")
    for key in parents:
        node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            return False
    node[last] = value
    return True


def _fits(record: Record, which: str) -> bool:
    if "=" in which:  # FIELD=VALUE: the records whose FIELD holds VALUE
        field, _sep, value = which.partition("=")
        return record.get(field) == value
    if which == "with answers":
        return bool(record.get("answers"))
    return True


def audit_forms_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One stored form of a generated record of the wrong type (module docstring)."""
    family, which, path, kind = rng.choice(typed_forms())
    fitting = [r for r in _bases(family) if _fits(r, which)]
    value = rng.choice([v for v in _WRONG_VALUES if not _of_type(v, kind)])
    if not fitting:
        return f"{family}: no record for {path}", lambda: {"skipped": path}
    record = copy.deepcopy(rng.choice(fitting))
    if not _put(record, path, copy.deepcopy(value)):
        return f"{family}: {path} has no parent", lambda: {"skipped": path}
    return f"{family}: {path} = {value!r:.20}", lambda: check_audit_form(record, path, value)


def _of_type(value: Any, kind: type) -> bool:
    if isinstance(value, bool):
        return kind is bool
    return isinstance(value, kind)


def check_audit_form(record: Record, path: str, value: Any) -> Any:
    """The audit of ``record`` (a form of the wrong type at ``path``) must
    fail: a row error (raised as the refusal) or a verdict other than ``ok``."""
    from tsolve.audit.report import audit_record

    result = audit_record(record)
    out = result.to_json()
    if INTERNAL in json.dumps(out, default=str):
        raise AssertionError(f"backstop: {json.dumps(out, default=str)[:200]}")
    message = getattr(result, "message", None)
    if message is not None:
        _one_line(str(message))
        raise TsolveError(str(message)[:200])
    if out.get("verdict") == "ok":
        raise AssertionError(f"{path} = {value!r:.40} (the wrong type) audited as ok")
    return out


# ------------------------------------------------------------------ user folders

_FOLDER_LAYOUTS = (
    "save_to_disk", "save_to_disk with a cache", "an older hub folder", "an older export",
    "save_to_disk, marked", "an older hub folder, marked",
)  # fmt: skip


def _kind_of(layout: str) -> Any:
    from tsolve.adapters.lm_eval import lm_eval_folder
    from tsolve.datasets.hub import HUB_FOLDER
    from tsolve.datasets.sinks import HF_FOLDER

    if "hub" in layout:
        return HUB_FOLDER
    if "export" in layout:
        return lm_eval_folder("tsolve_task")
    return HF_FOLDER


def _make_user_folder(folder: Path, layout: str, rng: random.Random) -> None:
    """A folder as ``datasets``, or an older tsolve, leaves one (no marker
    unless ``marked``), with contents that vary by ``rng``."""
    from tsolve.datasets.card import CARD_MARKER
    from tsolve.records.folders import MARKER

    folder.mkdir()
    stamp = f"{rng.randrange(10**6)}"
    if "hub" in layout:
        (folder / "README.md").write_text(f"---\n---\n{CARD_MARKER}\n# mine {stamp}\n", "utf-8")
        (folder / "data").mkdir()
        (folder / "data" / "train-00000-of-00001.parquet").write_bytes(b"PAR1" + stamp.encode())
    elif "export" in layout:
        banner = "# written by `tsolve export lm-eval`"
        (folder / "utils.py").write_text(f"{banner}\n# {stamp}\n", "utf-8")
        (folder / "tsolve_task.yaml").write_text(f"task: tsolve_task  # {stamp}\n", "utf-8")
    else:
        (folder / "data-00000-of-00001.arrow").write_bytes(b"ARROW" + stamp.encode())
        (folder / "dataset_info.json").write_text(json.dumps({"description": stamp}), "utf-8")
        (folder / "state.json").write_text(json.dumps({"_fingerprint": stamp}), "utf-8")
        if "cache" in layout:
            (folder / "cache-0123.arrow").write_bytes(b"cache")
    if "marked" in layout:
        paths = sorted(str(p.relative_to(folder)).replace(os.sep, "/") for p in folder.rglob("*"))
        (folder / MARKER).write_text(json.dumps({"paths": paths}), "utf-8")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"/")
        for p in sorted(root.rglob("*"))
    }


def user_folders_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A folder tsolve did not mark, given to the writer of its kind."""
    layout = rng.choice(_FOLDER_LAYOUTS)
    seed = rng.randrange(2**32)
    return layout, lambda: check_user_folder(layout, random.Random(seed))


def check_user_folder(layout: str, rng: random.Random) -> Any:
    """The writer of ``layout``'s kind pointed at it: an unmarked folder must
    be refused in one line and left as it was; a marked one replaced."""
    from tsolve.records.folders import FolderWrite

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        target = root / "out"
        _make_user_folder(target, layout, rng)
        before = _tree(root)
        try:
            with FolderWrite(target, _kind_of(layout)) as out:
                out.folder.mkdir()
                (out.folder / "README.md").write_text("new\n", encoding="utf-8")
                out.commit()
        except TsolveError as exc:
            _one_line(str(exc))
            if _tree(root) != before:
                raise AssertionError("a refused folder was changed") from None
            if "marked" in layout:
                raise AssertionError(f"tsolve's own marked folder was refused: {exc}") from None
            raise TsolveError(str(exc)[:200]) from None
        if "marked" not in layout:
            raise AssertionError(f"{layout}: a folder tsolve never marked was replaced")
        if (target / "README.md").read_text(encoding="utf-8") != "new\n":
            raise AssertionError("the marked folder was not replaced in place")
        return {"replaced": True}


# ------------------------------------------------------------------ hub tables via pandas

_SPLITS: dict[str, tuple[bytes, list[str]]] = {}
"""Per family, a Hub split's bytes and its records as JSON lines, made once."""


def _split(family: str) -> tuple[bytes, list[str]]:
    """A ``--format hub`` train split of ``family`` and the records written
    to it, read back from the JSON Lines the same run writes (not from the table)."""
    if family not in _SPLITS:
        from tsolve.datasets.hub import write_hub
        from tsolve.datasets.writer import write_dataset

        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "hub"
            write_hub(family, {}, count=6, out=out, seed=2)
            plain = Path(tmp) / "plain.jsonl"
            write_dataset(family, {}, count=6, out=plain, seed=2)
            blob = (out / "data" / "train-00000-of-00001.parquet").read_bytes()
            lines = plain.read_text(encoding="utf-8").splitlines()
        _SPLITS[family] = (blob, lines)
    return _SPLITS[family]


def hub_pandas_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A Hub split without its schema metadata, maybe edited (module docstring)."""
    from tsolve.stress.adversarial import suite_families

    family = rng.choice(suite_families())
    edit = rng.choice(("none", "answer", "question", "shuffle", "subset"))
    seed = rng.randrange(2**32)
    return f"{family}: {edit}", lambda: check_hub_copy(family, edit, random.Random(seed))


def check_hub_copy(family: str, edit: str, rng: random.Random) -> Any:
    """Read back ``family``'s split after a metadata-dropping copy: every
    untouched row is one of the written records, an edited one a bad row."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tsolve.records import BadRow, dumps, iter_json_rows

    blob, lines = _split(family)
    written = set(lines)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "split.parquet"
        src.write_bytes(blob)
        table = pq.read_table(src)
        rows = table.num_rows
        edited = rng.randrange(rows) if edit in ("answer", "question") else None
        if edited is not None and edit in _derived_by_the_writer(table.schema.metadata):
            cells = table.column(edit).to_pylist()
            cells[edited] = (cells[edited] or "") + " (edited)"
            index = table.schema.get_field_index(edit)
            table = table.set_column(index, table.schema.field(edit), pa.array(cells, pa.string()))
        elif edited is not None:
            edited = None  # the record's own field (a SPAN answer): editing it edits the record
        if edit == "shuffle":
            table = table.take(rng.sample(range(rows), rows))
        subset = sorted(rng.sample(range(rows), rng.randint(1, rows))) if edit == "subset" else None
        copy_path = Path(tmp) / "copy.parquet"
        _copy_without_metadata(table, copy_path, rng, subset)
        rows = len(subset) if subset is not None else rows
        got = list(iter_json_rows(copy_path))
    if len(got) != rows:
        raise AssertionError(f"{len(got)} rows read back of {rows}")
    for i, row in enumerate(got):
        if isinstance(row, BadRow):
            _one_line(str(row))
            if i != edited:
                raise AssertionError(f"row {i} (untouched) is a bad row: {str(row)[:160]}")
            continue
        if i == edited:
            raise AssertionError(f"row {i}: an edited {edit!r} cell was read without a word")
        if dumps(row) not in written:
            extra = sorted(set(row) - {k for line in lines for k in json.loads(line)})
            raise AssertionError(
                f"row {i} is not a record that was written (extra fields {extra[:3]})"
            )
    return {"rows": rows, "edited": edited}


def _derived_by_the_writer(metadata: Any) -> set[str]:
    """The columns the writer marked derived (feature id ``tsolve:derived``
    in the ``huggingface`` metadata ``datasets`` wrote), read here directly."""
    raw = (metadata or {}).get(b"huggingface")
    features = json.loads(raw)["info"]["features"] if raw else {}
    return {name for name, f in features.items() if f.get("id") == "tsolve:derived"}


def _copy_without_metadata(
    table: Any, path: Path, rng: random.Random, subset: list[int] | None = None
) -> None:
    """``table`` (its rows ``subset`` only, when given) written as a pandas
    round trip writes it: pandas' own schema metadata only, and a filtered
    frame's index as a column (pandas itself when installed, else pyarrow
    dropping the rest)."""
    import pyarrow.parquet as pq

    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None and rng.random() < 0.5:
        frame = table.to_pandas()
        (frame if subset is None else frame.iloc[subset]).to_parquet(path)
        return
    kept = table if subset is None else table.take(subset)
    pq.write_table(kept.replace_schema_metadata(None), str(path))


# ------------------------------------------------------------------ solve --check

_MISNAMED = ("answer", "Answers", "answerz", "ANSWERS", "answers_")
_NOT_A_LIST: tuple[Any, ...] = ("2024-01-01", 5, {"a": 1}, True)


def solve_check_input(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A puzzle whose gold field is misnamed or not a list (module docstring)."""
    family = rng.choice(_fact_families())
    record = copy.deepcopy(rng.choice(_bases(family)))
    if rng.random() < 0.7:
        name = rng.choice(_MISNAMED)
        record[name] = record.pop("answers")
        what = f"answers misnamed {name!r}"
    else:
        record["answers"] = copy.deepcopy(rng.choice(_NOT_A_LIST))
        what = f"answers = {record['answers']!r:.20}"
    return f"{family}: {what}", lambda: check_solve_gold(record)


def check_solve_gold(record: Record) -> Any:
    """``solve --check`` on ``record`` must flag its gold (exit 1, one line
    naming ``answers``), never call it "n/a" and pass."""
    from tsolve.contract import get_family

    # ``tsolve solve --check`` is the command of the family that solves puzzles
    # of every kind; its library call is that family's ``solve_check`` part.
    solve_records = next(
        get_family(f).require("solve_check") for f in _fact_families()
        if get_family(f).solve_check is not None
    )  # fmt: skip
    report = solve_records([record], check=True, time_limit=5.0)
    if report.exit_code == 0:
        raise AssertionError("a record with a misnamed or malformed 'answers' passed --check")
    if report.unfinished:
        return {"unfinished": report.unfinished}  # cut short: not this surface's finding
    if not report.skipped:
        raise AssertionError("flagged, but no row named why")
    message = str(report.skipped[0])
    _one_line(message)
    if "answers" not in message:
        raise AssertionError(f"the message does not name 'answers': {message[:160]}")
    raise TsolveError(message[:200])


SURFACE_CALLS: dict[str, Callable[[random.Random], tuple[str, Callable[[], Any]]]] = {
    "overlap": overlap_input, "audit-forms": audit_forms_input,
    "user-folders": user_folders_input, "hub-pandas": hub_pandas_input,
    "solve-check": solve_check_input,
}  # fmt: skip
"""Each surface's input maker, for :data:`tsolve.stress.fuzz_surfaces._SURFACE_CALLS`."""
