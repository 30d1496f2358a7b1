"""What kind of file a batch command was given, told from its first row, so
that a wrong file gets one line saying what it is and what was expected,
rather than one warning per row.

* :class:`PredictionShape` (``tsolve verify``): a predictions file whose rows
  are task records (records and predictions swapped) is refused at its first
  row: "this is a records file"; a prediction without ``id`` names the field
  it has instead ("no 'id' field; found 'qid'", :func:`missing_id`), once for
  a first row, per row after it.
* :func:`refuse_other_families` (``tsolve solve``): a file of records that
  ``solve`` does not recompute is refused at its first row, naming the
  family and what to use instead (its ``Family.row_hint``).

Both look at decoded rows only; a row that cannot be read stays the reader's
bad row. They sit beside :mod:`tsolve.records`, below the commands that use
them, and import the family registry only when a row needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from tsolve.errors import TsolveError
from tsolve.records.validation import missing_field

T = TypeVar("T")

#: Fields of a task record (any family) that a prediction never has.
RECORD_FIELDS = ("facts", "answers", "prompt", "generator", "question", "scenario", "gold",
                 "params", "graph", "events")  # fmt: skip
#: Names an id goes by in other tools' files.
ID_ALIASES = ("qid", "question_id", "item_id", "example_id", "sample_id", "task_id", "uid",
              "_id", "ID", "Id", "idx", "index", "key", "name")  # fmt: skip
PREDICTION = '{"id": ..., "output": "<model text>"}'


def looks_like_a_record(row: dict[str, Any]) -> bool:
    """A row without ``output`` that carries two or more task-record fields."""
    return "output" not in row and sum(k in row for k in RECORD_FIELDS) >= 2


def missing_id(row: dict[str, Any]) -> str | None:
    """Why ``row`` has no usable ``id`` (naming the field it has instead), or None."""
    suffixed = (k for k in row if isinstance(k, str) and k.lower().endswith("id"))
    return missing_field(row, "id", (*ID_ALIASES, *suffixed))


class PredictionShape:
    """Looks at the first decoded prediction row of ``tsolve verify``: task
    records (the two files swapped) or a row without ``id`` make the whole
    file wrong, one :class:`TsolveError` raised at once. Later rows go through
    the verifier's per-row checks (:func:`tsolve.verifiers.verify_batch.no_output`
    names a missing id the same way, :func:`missing_id`)."""

    def __init__(self, where: str = "predictions") -> None:
        self.where = where
        self.rows = 0

    def check(self, row: dict[str, Any]) -> None:
        """Raise if ``row``, the file's first, shows the file is no predictions file."""
        self.rows += 1
        if self.rows > 1:
            return
        if looks_like_a_record(row):
            fields = ", ".join(repr(k) for k in RECORD_FIELDS if k in row)
            raise TsolveError(
                f"{self.where}: this is a records file (row 1 has {fields} and no 'output'); "
                f"a prediction is {PREDICTION}: tsolve verify RECORDS PREDICTIONS"
            )
        why = missing_id(row)
        if why is not None:
            raise TsolveError(f"{self.where}: row 1 has {why}; a prediction is {PREDICTION}")


def refuse_other_families(
    rows: Iterable[T], allowed: tuple[str, ...], where: str, command: str
) -> Iterator[T]:
    """``rows`` unchanged, unless the first decoded row (a dict) belongs to a
    family not in ``allowed``: then one :class:`TsolveError` naming it and
    the command to use. A row whose family cannot be told passes (the
    command's own checks report it)."""
    first = True
    for row in rows:
        if first and isinstance(row, dict):
            first = False
            family = _family(row)
            if family is not None and family not in allowed:
                hint = _row_hint(family) or f"{command} reads {' and '.join(allowed)} records"
                raise TsolveError(f"{where}: {hint} (the first row is a {family} record)")
        yield row


def _family(row: dict[str, Any]) -> str | None:
    from tsolve.contract import family_of

    try:
        return family_of(row)
    except TsolveError:
        return None


def _row_hint(family: str) -> str:
    """What to use instead, as ``family`` says (``Family.row_hint``), or ""."""
    from tsolve.contract import get_family

    try:
        return get_family(family).row_hint
    except TsolveError:
        return ""
