"""tsolve records as Hugging Face ``datasets``, and back, exactly.

Left to itself, ``datasets`` damages records: ``load_dataset("json")``
reads ISO dates as timestamps, and ``Dataset.from_list`` gives every fact the
other facts' ``params`` keys as ``None``. :func:`to_dataset` instead builds the
table with explicit :class:`datasets.Features` chosen by :mod:`tsolve.records.columns`:
dates stay strings, and nested values (facts, params, the generator block) are
canonical JSON text in ``FIELD_json`` columns. :func:`from_dataset` reverses it:
``from_dataset(to_dataset(records)) == records``. The columns of each family
are listed in ``docs/hf.md``.

The tables also lead with plain ``question`` and ``answer`` string columns,
derived from each record (:mod:`tsolve.records.hub_columns`), and marked as
such in the features, so that :func:`from_dataset` checks and drops them.

``datasets`` is an optional extra (``pip install 'tsolve[hf]'``), imported only
when one of these functions runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.columns import Column, arrow_batch, arrow_schema, decode_row, layout, null_paths
from tsolve.records.hub_columns import (
    PlanProfile,
    feature_ids,
    inferred_marks,
    marks_of,
    restore,
    text_columns,
)

Record = dict[str, Any]

DESCRIPTION = (
    "tsolve task records (tsolve.records.hf.to_dataset): one row per record; FIELD_json columns "
    "hold canonical JSON text; read back exactly with tsolve.records.hf.from_dataset"
)
#: Rows per Arrow record batch when tables are written or read in pieces.
BATCH = 1000


def require_datasets() -> Any:
    """The ``datasets`` module, or a one-line error naming the extra."""
    try:
        import datasets
    except ImportError:
        raise TsolveError(
            "datasets: Hugging Face datasets is not installed (pip install 'tsolve[hf]')"
        ) from None
    return datasets


def features(columns: list[Column], ids: dict[str, str] | None = None) -> Any:
    """The explicit ``datasets.Features`` of ``columns`` (``Value('string')``
    for text and JSON text, ``Value('int64')``, ``List(Value('string'))``, ...),
    with the feature ``id`` of each column ``ids`` names (the marks of
    :mod:`tsolve.records.hub_columns`)."""
    datasets = require_datasets()
    feats = datasets.Features.from_arrow_schema(arrow_schema(columns))
    for name, fid in (ids or {}).items():
        feats[name] = dataclasses.replace(feats[name], id=fid)
    return feats


def to_dataset(records: Iterable[Mapping[str, Any]]) -> Any:
    """``records`` as an in-memory ``datasets.Dataset`` with explicit features
    (see the module docstring). For a file of any size, ``tsolve dataset
    --format hf`` streams instead."""
    datasets = require_datasets()
    import pyarrow as pa

    rows = list(records)
    profile = PlanProfile()
    for rec in rows:
        profile.add(rec)
    plan = profile.plan()
    own = layout(rows)
    if rows and not own:
        raise TsolveError("records: none has a field, and a table of no columns has no rows")
    columns = plan.columns(own)
    schema = arrow_schema(columns)
    batches = [
        arrow_batch([plan.row(r) for r in rows[i : i + BATCH]], columns, schema)
        for i in range(0, len(rows), BATCH)
    ]
    table = pa.Table.from_batches(batches, schema=schema)
    return datasets.Dataset(table, info=_info(columns, plan.ids(own)))


def _info(columns: list[Column], ids: dict[str, str] | None = None) -> Any:
    datasets = require_datasets()
    return datasets.DatasetInfo(description=DESCRIPTION, features=features(columns, ids))


def from_dataset(ds: Any) -> list[Record]:
    """The records of a ``datasets.Dataset`` made by :func:`to_dataset` (or
    written by ``tsolve dataset --format hf``), exactly as they were. A
    dataset made some other way (``load_dataset("json")``,
    ``Dataset.from_list``) is read as Arrow typed it and repaired: timestamps
    at midnight are ISO dates again and the ``None`` entries Arrow added to
    objects are dropped, while a key Arrow typed ``null`` (no row held
    anything else there) keeps its ``null`` (:func:`tsolve.records.columns.unfilled`)."""
    return list(iter_records(ds))


def iter_records(ds: Any, where: str = "dataset") -> Iterator[Record]:
    """:func:`from_dataset` one record at a time; a cell that cannot be
    decoded raises a one-line :class:`TsolveError` naming the row."""
    for i, rec in enumerate(_records(ds, where)):
        if isinstance(rec, ValueError):
            raise TsolveError(f"{where}[{i}]: {rec}")
        yield rec


def _records(ds: Any, where: str) -> Iterator[Record | ValueError]:
    """Each row decoded, or why it could not be. A dataset that
    :func:`to_dataset` did not make is ``foreign`` (see
    :func:`tsolve.records.columns.decode_row`); its ``datasets.Json`` columns are
    decoded by ``datasets`` itself."""
    datasets = require_datasets()
    if isinstance(ds, datasets.DatasetDict):
        if len(ds) != 1:
            splits = ", ".join(ds) or "none"
            raise TsolveError(
                f"{where}: holds several splits ({splits}); pick one, e.g. ds['train']"
            )
        ds = next(iter(ds.values()))
    if not isinstance(ds, datasets.Dataset):
        raise TsolveError(f"{where}: expected a datasets.Dataset, got {type(ds).__name__}")
    foreign = ds.info.description != DESCRIPTION
    nulls = null_paths(ds.data.schema) if foreign else frozenset()
    ids = feature_ids(ds.features)
    marks = marks_of(ids)
    if foreign and not any(isinstance(i, str) for i in ids.values()):
        # No feature ids at all (a table that went through pandas): the column set says.
        marks = inferred_marks(ds.column_names, text_columns(ds.data.schema))
    ds = ds.with_format(None)
    names = ds.column_names
    for start in range(0, len(ds), BATCH):
        batch = ds[start : start + BATCH]
        for values in zip(*(batch[n] for n in names), strict=True):
            try:
                row = decode_row(dict(zip(names, values, strict=True)), foreign, nulls)
                yield restore(row, marks)
            except ValueError as exc:  # TsolveError is one too
                yield exc


# ---------------------------------------------------------------- folders


def is_dataset_folder(path: str | Path) -> bool:
    """Does ``path`` look like a folder written by ``save_to_disk``?"""
    p = Path(path)
    saved = (p / "dataset_info.json").is_file() and (p / "state.json").is_file()
    return p.is_dir() and (saved or (p / "dataset_dict.json").is_file())


def iter_folder_rows(path: str | Path) -> Iterator[Record | ValueError]:
    """The records of a ``save_to_disk`` folder, each one decoded, or the
    ``ValueError`` saying why a row could not be (the reader makes it a bad
    row and goes on)."""
    datasets = require_datasets()
    try:
        with _quiet(datasets):
            ds = datasets.load_from_disk(str(path))
    except Exception as exc:  # a damaged folder: datasets raises many kinds
        raise TsolveError(f"file: cannot open datasets folder {str(path)!r} ({exc})") from None
    yield from _records(ds, Path(path).name)


def save_table(
    arrow_file: Path,
    columns: list[Column],
    out: Path,
    fingerprint: str,
    ids: dict[str, str] | None = None,
) -> None:
    """Turn an Arrow stream file of encoded rows into a ``save_to_disk``
    folder at ``out`` (which must not exist), without loading it in memory;
    ``ids`` mark the derived and renamed columns (:func:`features`)."""
    datasets = require_datasets()
    from datasets.table import MemoryMappedTable

    table = MemoryMappedTable.from_file(str(arrow_file))
    ds = datasets.Dataset(table, info=_info(columns, ids), fingerprint=fingerprint)
    with _quiet(datasets):
        ds.save_to_disk(str(out))


def fingerprint_of(path: Path) -> str:
    """A content hash of ``path`` for the folder's ``state.json``: ``datasets``
    would otherwise derive one from temporary paths, and the folder's bytes
    would differ between identical runs."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _quiet(datasets: Any) -> Iterator[None]:
    """No ``datasets`` progress bars while tsolve writes (it shows its own)."""
    was_enabled = not datasets.are_progress_bars_disabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if was_enabled:
            datasets.enable_progress_bars()
