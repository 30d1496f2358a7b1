"""``tsolve dataset FAMILY --format hub --out DIR``: a folder ready for the Hub.

The Hugging Face Hub reads a dataset repository as ``README.md`` (a dataset
card: YAML front matter, then prose) plus data files the card's ``configs``
name. This module writes exactly that, so ``datasets.load_dataset(DIR)``
loads it and ``huggingface-cli upload`` publishes it as it is:

* ``DIR/data/<split>-00000-of-00001.parquet``: one Parquet file per split,
  every split in the same column layout (:mod:`tsolve.records.columns`: one typed
  column per field, nested values as canonical JSON text in ``FIELD_json``
  columns), so the records read back byte-identical, nulls included
  (:func:`tsolve.records.hf.from_dataset` on the loaded split);
* ``DIR/README.md``: the card (:mod:`tsolve.datasets.card`).

The splits come from one run (:func:`tsolve.datasets.split.write_split`):
consecutive index blocks, and a later split loses any record whose content
fingerprint repeats an earlier split's, so the splits are disjoint by the
same rule as ``tsolve dataset overlap``. A split left with no record is not
written (the Hub cannot load an empty Parquet split into a config).

``DIR`` is checked before a record is made, the run's JSON Lines parts are
spooled to a temporary folder beside it, and the finished folder is renamed
into place only when it is whole (:mod:`tsolve.records.folders`): ``DIR`` may
be new, empty, or a folder tsolve wrote, never a link, the working folder or a
folder holding anything tsolve did not write.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.datasets.card import CARD_MARKER, HubSummary
from tsolve.datasets.split import write_split
from tsolve.errors import TsolveError
from tsolve.records.columns import LAYOUT_KEY, Column, ColumnProfile, arrow_batch, arrow_schema
from tsolve.records.folders import FolderKind, FolderWrite, check_target

#: The parts a Hub folder has when ``--split`` is not given.
DEFAULT_SPLIT = "train=0.8,test=0.2"
#: Rows per Parquet row group (fixed, so the bytes are too).
ROW_GROUP = 1000


def _earlier_hub_folder(path: Path) -> bool:
    """A folder written by ``--format hub`` before tsolve marked its folders:
    its card carries :data:`~tsolve.datasets.card.CARD_MARKER`."""
    card = path / "README.md"
    try:
        return card.is_file() and CARD_MARKER in card.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


#: What ``--format hub`` writes, for :mod:`tsolve.records.folders`.
HUB_FOLDER = FolderKind(
    "--format hub",
    members=("README.md", "data", "data/*.parquet"),
    legacy=_earlier_hub_folder,
)


def check_hub_folder(path: Path) -> None:
    """``--out`` for hub must be new, empty, or a folder an earlier hub run
    wrote (replaced whole): never a link, the working folder or anything
    else, so a typo cannot wipe a directory
    (:func:`tsolve.records.folders.check_target`)."""
    check_target(path, HUB_FOLDER)


def write_hub(
    family: str,
    options: dict[str, Any] | None,
    *,
    count: int,
    out: str | Path,
    seed: int = 0,
    split: str | None = None,
    balance: str | None = None,
    **kwargs: Any,
) -> HubSummary:
    """Write run ``seed``'s ``count`` records as a Hub folder at ``out`` (see
    the module docstring). ``split`` names the parts as ``--split`` does
    (default :data:`DEFAULT_SPLIT`); ``balance`` as ``--balance``
    (:mod:`tsolve.datasets.balance`); ``kwargs`` go to
    :func:`~tsolve.datasets.writer.write_dataset` for each part (workers,
    engine, callbacks)."""
    from tsolve.datasets.card import render_card
    from tsolve.datasets.sinks import require_pyarrow
    from tsolve.records.hf import require_datasets

    require_datasets()  # the features in the card are datasets' own YAML
    require_pyarrow("hf")
    if str(out) == "-":
        raise TsolveError("out: give a folder for --format hub, not '-'")
    fam = get_family(family, need="generate")
    with FolderWrite(out, HUB_FOLDER) as target:
        spool = target.scratch / "spool"
        spool.mkdir()
        parts = write_split(
            fam.name, options, count=count, out=spool / "records.jsonl",
            split=split or DEFAULT_SPLIT, seed=seed, fmt="jsonl", balance=balance, **kwargs,
        )  # fmt: skip
        summary = HubSummary(str(out), parts)
        if any(p.interrupted for p in parts.parts.values()):
            return summary  # nothing is published from a run cut short
        part_files = {name: Path(p) for name, p in parts.paths.items()}
        columns = _profile(part_files.values())
        folder = target.folder
        (folder / "data").mkdir(parents=True)
        for name, src in part_files.items():
            rows = _write_parquet(src, columns, folder / "data" / _file_name(name))
            if rows:
                summary.files[name] = f"data/{_file_name(name)}"
                summary.rows[name] = rows
            else:
                (folder / "data" / _file_name(name)).unlink()
        if not summary.files:
            raise TsolveError(
                f"out: no records to write to {str(out)!r}; every record failed or --count is 0"
            )
        card = render_card(fam, dict(options or {}), seed, count, summary, columns, balance)
        (folder / "README.md").write_text(card, encoding="utf-8")
        target.commit()
        return summary


def _file_name(split: str) -> str:
    return f"{split}-00000-of-00001.parquet"


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open("rb") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _profile(paths: Any) -> list[Column]:
    """One column layout over every split, so the card's features fit them all."""
    profile = ColumnProfile()
    for p in paths:
        for rec in _lines(p):
            profile.add(rec)
    return profile.columns() or [Column("id", "string")]


def _write_parquet(src: Path, columns: list[Column], dest: Path) -> int:
    """The records of ``src`` (JSON Lines) as a Parquet file in ``columns``;
    returns how many rows it holds."""
    import pyarrow.parquet as pq

    from tsolve.datasets.sinks import LAYOUT_VERSION

    schema = arrow_schema(columns, {LAYOUT_KEY: LAYOUT_VERSION})
    rows = 0
    batch: list[dict[str, Any]] = []
    with pq.ParquetWriter(str(dest), schema) as writer:
        for rec in _lines(src):
            batch.append(rec)
            if len(batch) == ROW_GROUP:
                writer.write_batch(arrow_batch(batch, columns, schema), row_group_size=ROW_GROUP)
                rows, batch = rows + len(batch), []
        if batch or not rows:
            writer.write_batch(arrow_batch(batch, columns, schema), row_group_size=ROW_GROUP)
            rows += len(batch)
    return rows
