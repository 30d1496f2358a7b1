"""The plain ``question`` and ``answer`` columns of a Hub or ``datasets`` table.

A Hub user expects two string columns, whatever the family: ``question``, the
text a model is shown, and ``answer``, the gold as the family's scorer reads
an honest answer. tsolve records do not all hold them (a time puzzle has
``prompt`` and a list of ``answers``), and where a record has a field of that
name it may mean something else (a logistics ``question`` is the last
sentence of the prompt only). So the table writers (``--format hub``,
``--format hf``, :func:`tsolve.records.hf.to_dataset`) add them, *derived*
from the record by the one home of each:

* ``question``: :func:`tsolve.verifiers.gold_answers.question_text` (the
  record's ``prompt``), as the reasoning-gym-style facade asks it;
* ``answer``: :func:`tsolve.verifiers.gold_answers.gold_answer` (the family's
  ``answer`` part), as the facade's ``answer`` and the gold baseline give it.

The family computes them (:mod:`tsolve.verifiers.derived_columns`, installed
through :mod:`tsolve.records.derivers`: this layer sits below the families).
They are never a second source of truth. A record field already equal to the
derived value in every record (a SPAN ``answer``) simply is the column. A
record field of that name that differs is kept, under ``record_FIELD``
(``record_question``), so nothing is lost. Each added or renamed column is
marked in the table's features by its ``datasets`` feature id (:data:`DERIVED`,
``tsolve:field=NAME``), which ``datasets`` keeps through ``save_to_disk``,
the card's YAML and a Parquet file's metadata. On reading back
(:func:`restore`) a derived column is checked against the record and then
dropped, and a renamed field gets its name and place back, so the records
come back byte-identical. A derived cell that no longer matches its record
(edited by hand, or the record edited without it) makes the row a bad row:
a tampered ``answer`` is detected, never silently believed or ignored.
A column is derived only when every record yields its value (the family is
installed and answers it), so a table of any other records is unchanged.

The marks live in schema metadata, which not every tool keeps: a pandas round
trip (``pd.read_parquet(split).to_parquet(copy)``) writes its own and drops
``datasets``' and tsolve's. A table with neither is recognised by its column
set instead (:func:`inferred_marks`): the derived columns lead the table, in
:data:`NAMES` order, as text, before the record's own fields (a tsolve record
starts with its ``id``), beside a ``family`` column, and a renamed field
sits under the longest ``record_…NAME`` column. So such a copy still reads
back as the records, and its derived cells are still checked.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.records.columns import JSON_SUFFIX, Column
from tsolve.records.derivers import derive, family_installed

Record = dict[str, Any]

#: The derived columns, in the order they lead the table.
NAMES = ("question", "answer")
#: The feature id of a derived column.
DERIVED = "tsolve:derived"
#: The feature id of a column holding the record's own field NAME: ``RENAMED + NAME``.
RENAMED = "tsolve:field="
#: The prefix a record's own field takes when a derived column has its name.
OWN_PREFIX = "record_"


@dataclass
class Plan:
    """Which columns a table derives (``derived``) and which record fields
    move aside for them (``renamed``: field -> its column's field)."""

    derived: tuple[str, ...] = ()
    renamed: dict[str, str] = field(default_factory=dict)

    def row(self, record: Mapping[str, Any]) -> Record:
        """``record`` as the table holds it: derived values first, then the
        record's fields, renamed where a derived column took the name."""
        out: Record = {}
        if self.derived:
            values = derive(record)
            for name in self.derived:
                out[name] = values[name]
        for key, value in record.items():
            out[self.renamed.get(key, key)] = value
        return out

    def columns(self, columns: list[Column]) -> list[Column]:
        """The table's columns, from the layout of the records themselves."""
        own = [Column(self.renamed.get(c.field, c.field), c.kind) for c in columns]
        return [Column(name, "string") for name in self.derived] + own

    def ids(self, columns: list[Column]) -> dict[str, str]:
        """Column name -> feature id, for the columns this plan added or renamed."""
        back = {new: old for old, new in self.renamed.items()}
        out = {}
        for c in self.columns(columns):
            if c.field in self.derived:
                out[c.name] = DERIVED
            elif c.field in back:
                out[c.name] = RENAMED + back[c.field]
        return out


class PlanProfile:
    """What the records allow, gathered in one pass beside the column profile."""

    def __init__(self) -> None:
        self.records = 0
        self.fields: set[str] = set()
        self.derivable = dict.fromkeys(NAMES, True)
        self.same = dict.fromkeys(NAMES, True)  # every record holds the derived value itself

    def add(self, record: Mapping[str, Any]) -> None:
        self.records += 1
        self.fields.update(record)
        values = derive(record) if any(self.derivable.values()) else {}
        for name in NAMES:
            if name not in values:
                self.derivable[name] = False
            if name not in record or record[name] != values.get(name):
                self.same[name] = False

    def plan(self) -> Plan:
        derived = tuple(n for n in NAMES if self.records and self.derivable[n] and not self.same[n])
        renamed = {}
        for name in derived:
            if name in self.fields:
                new = OWN_PREFIX + name
                while new in self.fields or new + JSON_SUFFIX in self.fields or new in NAMES:
                    new = OWN_PREFIX + new
                renamed[name] = new
        return Plan(derived, renamed)


def plan_of(records: Iterable[Mapping[str, Any]]) -> Plan:
    """The plan for ``records`` (see the module docstring)."""
    profile = PlanProfile()
    for rec in records:
        profile.add(rec)
    return profile.plan()


@dataclass(frozen=True)
class Marks:
    """What a table's feature ids say: the derived fields, and the renamed
    fields (the table's field -> the record's)."""

    derived: frozenset[str] = frozenset()
    renamed: Mapping[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.derived or self.renamed)


def marks_of(ids: Mapping[str, Any]) -> Marks:
    """The marks of a table whose columns have feature ``ids`` (column name ->
    id, any value; only tsolve's own ids count)."""
    derived, renamed = set(), {}
    for column, fid in ids.items():
        if not isinstance(fid, str):
            continue
        name = column[: -len(JSON_SUFFIX)] if column.endswith(JSON_SUFFIX) else column
        if fid == DERIVED:
            derived.add(name)
        elif fid.startswith(RENAMED):
            renamed[name] = fid[len(RENAMED) :]
    return Marks(frozenset(derived), renamed)


def inferred_marks(names: Sequence[str], text: Collection[str]) -> Marks:
    """The marks of a table whose schema metadata is gone, from its columns
    alone (``names`` in table order; ``text`` those holding text), as
    :class:`Plan` lays a Hub table out: the leading columns among
    :data:`NAMES`, in that order and of text, are derived, when the table
    has a ``family`` column; for each, the longest ``record_``-prefixed
    column of its name (``record_question``, or ``record_record_question``
    when the record had a ``record_question`` too) is the record's own
    field. A table led by anything else has no marks."""
    if "family" not in names:
        return Marks()
    derived: list[str] = []
    for name in names:
        if name not in NAMES or name not in text:
            break
        if derived and NAMES.index(name) <= NAMES.index(derived[-1]):
            break
        derived.append(name)
    fields = {n[: -len(JSON_SUFFIX)] if n.endswith(JSON_SUFFIX) else n for n in names}
    renamed = {}
    for name in derived:
        own, candidate = None, OWN_PREFIX + name
        while candidate in fields:
            own, candidate = candidate, OWN_PREFIX + candidate
        if own is not None:
            renamed[own] = name
    return Marks(frozenset(derived), renamed)


def text_columns(schema: Any) -> set[str]:
    """The columns of an Arrow ``schema`` that hold text (for :func:`inferred_marks`)."""
    import pyarrow as pa

    return {
        f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    }


def feature_ids(features: Mapping[str, Any]) -> dict[str, Any]:
    """Column name -> feature id of a ``datasets.Features`` (``Value.id``)."""
    return {name: getattr(f, "id", None) for name, f in features.items()}


def parquet_ids(metadata: Mapping[bytes, bytes] | None) -> dict[str, Any]:
    """Column name -> feature id, from the ``huggingface`` entry ``datasets``
    writes in a Parquet file's schema metadata (empty without one)."""
    raw = (metadata or {}).get(b"huggingface")
    if raw is None:
        return {}
    try:
        feats = json.loads(raw)["info"]["features"]
    except (ValueError, KeyError, TypeError):
        return {}
    if not isinstance(feats, dict):
        return {}
    return {n: f.get("id") for n, f in feats.items() if isinstance(f, dict)}


def restore(row: Record, marks: Marks) -> Record:
    """A decoded table row back as the record: each derived column checked
    against the record and dropped, each renamed field given its name (in
    place). Raises ``ValueError`` (a bad row) when a derived cell does not
    match what the record gives; a record whose family is not installed
    here cannot be checked, and its derived cells are dropped unchecked."""
    if not marks:
        return row
    given = {name: row.pop(name) for name in marks.derived if name in row}
    record = {marks.renamed.get(k, k): v for k, v in row.items()}
    if given and isinstance(record.get("family"), str):
        want = derive(record)
        if not want and not family_installed(record["family"]):
            return record
        for name, value in given.items():
            if want.get(name) != value:
                raise ValueError(
                    f"column {name!r} is derived from the record and does not match it "
                    f"(the record gives {want.get(name)!r}); edit the record's own fields, "
                    f"and write the table again"
                )
    return record
