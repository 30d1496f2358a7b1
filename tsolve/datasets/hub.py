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

The run's JSON Lines parts are spooled to a temporary folder beside ``DIR``
and removed; ``DIR`` itself is replaced only when the whole folder is ready.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.datasets.card import CARD_MARKER, HubSummary
from tsolve.datasets.split import write_split
from tsolve.errors import TsolveError
from tsolve.records.columns import LAYOUT_KEY, Column, ColumnProfile, arrow_batch, arrow_schema

#: The parts a Hub folder has when ``--split`` is not given.
DEFAULT_SPLIT = "train=0.8,test=0.2"
#: Rows per Parquet row group (fixed, so the bytes are too).
ROW_GROUP = 1000


def check_hub_folder(path: Path) -> None:
    """``--out`` for hub must be new, empty, or a folder an earlier hub run
    wrote (replaced whole): never anything else, so a typo cannot wipe a
    directory."""
    if not path.exists():
        if not path.parent.exists():
            raise TsolveError(f"out: directory {str(path.parent)!r} does not exist")
        return
    if not path.is_dir():
        raise TsolveError(f"out: {str(path)!r} is a file; give a folder for --format hub")
    if not any(path.iterdir()):
        return
    card = path / "README.md"
    try:
        ours = card.is_file() and CARD_MARKER in card.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        ours = False
    if not ours:
        raise TsolveError(
            f"out: {str(path)!r} exists and was not written by --format hub; give a new or "
            "empty folder"
        )


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
    path = Path(out)
    if str(out) == "-":
        raise TsolveError("out: give a folder for --format hub, not '-'")
    check_hub_folder(path)
    fam = get_family(family, need="generate")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    except OSError as exc:
        raise TsolveError(f"out: cannot write beside {str(path)!r} ({exc.strerror})") from None
    try:
        parts = write_split(
            fam.name, options, count=count, out=tmp / "records.jsonl",
            split=split or DEFAULT_SPLIT, seed=seed, fmt="jsonl", balance=balance, **kwargs,
        )  # fmt: skip
        summary = HubSummary(str(out), parts)
        if any(p.interrupted for p in parts.parts.values()):
            return summary  # nothing is published from a run cut short
        part_files = {name: Path(p) for name, p in parts.paths.items()}
        columns = _profile(part_files.values())
        folder = tmp / "hub"
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
                f"out: no records to write to {str(path)!r}; every record failed or --count is 0"
            )
        card = render_card(fam, dict(options or {}), seed, count, summary, columns, balance)
        (folder / "README.md").write_text(card, encoding="utf-8")
        if path.exists():
            shutil.rmtree(path)
        os.replace(folder, path)
        return summary
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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
