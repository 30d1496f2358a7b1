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
* ``DIR/data/<config>/<split>-00000-of-00001.parquet``: the same records
  again, one folder per value of each field the family names in its card's
  ``configs`` (``style-implicit``, ``difficulty-hard``), so that
  ``load_dataset(DIR, name="style-implicit")`` loads one style; the
  ``default`` config is the split files above, every record once;
* ``DIR/README.md``: the card (:mod:`tsolve.datasets.card`).

Every table leads with plain ``question`` and ``answer`` string columns
derived from the record (:mod:`tsolve.records.hub_columns`): checked against
the record and dropped when tsolve reads the records back.

The splits come from one run (:func:`tsolve.datasets.split.write_split`):
consecutive index blocks of a run that holds no puzzle twice, and a later
split loses any record whose answer fingerprint repeats an earlier split's,
so the splits are disjoint by both rules of ``tsolve dataset overlap``. A
split left with no record is not written (the Hub cannot load an empty
Parquet split into a config).

``DIR`` is checked before a record is made, the run's JSON Lines parts are
spooled to a temporary folder beside it, and the finished folder is renamed
into place only when it is whole (:mod:`tsolve.records.folders`): ``DIR`` may
be new, empty, or a folder tsolve wrote, never a link, the working folder or a
folder holding anything tsolve did not write.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.datasets.card import CARD_MARKER, HubSummary, config_axes
from tsolve.datasets.split import write_split
from tsolve.errors import TsolveError
from tsolve.records.columns import LAYOUT_KEY, Column, ColumnProfile, arrow_batch
from tsolve.records.folders import FolderKind, FolderWrite, check_target
from tsolve.records.hub_columns import Plan, PlanProfile

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
        own, plan, configs = _profile(part_files.values(), config_axes(fam))
        table = _Table(own, plan)
        folder = target.folder
        (folder / "data").mkdir(parents=True)
        for name, src in part_files.items():
            rows = _write_parquet(src, table, folder / "data" / _file_name(name))
            if rows:
                summary.files[name] = f"data/{_file_name(name)}"
                summary.rows[name] = rows
            else:
                (folder / "data" / _file_name(name)).unlink()
        if not summary.files:
            raise TsolveError(
                f"out: no records to write to {str(out)!r}; every record failed or --count is 0"
            )
        for config, (key, value) in configs.items():
            (folder / "data" / config).mkdir()
            for name, src in part_files.items():
                path = f"data/{config}/{_file_name(name)}"
                rows = _write_parquet(src, table, folder / path, (key, value))
                if rows:
                    summary.configs.setdefault(config, {})[name] = path
                    summary.config_rows.setdefault(config, {})[name] = rows
                    summary.config_where[config] = (key, value)
                else:
                    (folder / path).unlink()
        card = render_card(fam, dict(options or {}), seed, count, summary, table.columns, balance,
                           table.ids)  # fmt: skip
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


#: A config name: the Hub's and ``datasets``' rules allow more, but a value
#: outside these characters makes no config (it would be a poor folder name).
_CONFIG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _profile(
    paths: Any, axes: dict[str, str]
) -> tuple[list[Column], Plan, dict[str, tuple[str, Any]]]:
    """One column layout over every split, so the card's features fit them
    all; the derived columns' plan; and the configs: config name -> (field,
    value) for each value of each ``axes`` field (field -> label), where every
    record holds that field as a string or an integer and the records hold
    more than one value."""
    profile = ColumnProfile()
    plan = PlanProfile()
    values: dict[str, dict[Any, None]] = {key: {} for key in axes}
    for p in paths:
        for rec in _lines(p):
            profile.add(rec)
            plan.add(rec)
            for key in list(values):
                v = rec.get(key)
                ok = isinstance(v, (str, int)) and not isinstance(v, bool)
                if ok and _CONFIG_NAME.fullmatch(f"{axes[key]}-{v}"):
                    values[key][v] = None
                else:
                    del values[key]  # a record without a usable value: no configs by it
    configs = {  # a field with one value in the run makes no config: default is it
        f"{axes[key]}-{v}": (key, v) for key, seen in values.items() if len(seen) > 1 for v in seen
    }
    configs.pop("default", None)
    return profile.columns() or [Column("id", "string")], plan.plan(), configs


class _Table:
    """The table of a Hub folder: the columns with the derived ones, their
    marks, and the Parquet schema (whose ``huggingface`` metadata carries the
    marks for readers that see only the file)."""

    def __init__(self, own: list[Column], plan: Plan) -> None:
        from tsolve.datasets.sinks import LAYOUT_VERSION
        from tsolve.records.hf import features

        self.plan = plan
        self.columns = plan.columns(own)
        self.ids = plan.ids(own)
        # datasets' own schema (every field nullable): it reads the features,
        # marks included, from a file's metadata only when the fields match it.
        hf_schema = features(self.columns, self.ids).arrow_schema
        meta = {**(hf_schema.metadata or {}), LAYOUT_KEY: LAYOUT_VERSION}
        self.schema = hf_schema.with_metadata(meta)


def _write_parquet(
    src: Path, table: _Table, dest: Path, where: tuple[str, Any] | None = None
) -> int:
    """The records of ``src`` (JSON Lines; with ``where = (field, value)``,
    those whose field holds value) as a Parquet file of ``table``; returns how
    many rows it holds."""
    import pyarrow.parquet as pq

    columns, schema = table.columns, table.schema
    rows = 0
    batch: list[dict[str, Any]] = []
    with pq.ParquetWriter(str(dest), schema) as writer:
        for rec in _lines(src):
            if where is not None and rec.get(where[0]) != where[1]:
                continue
            batch.append(table.plan.row(rec))
            if len(batch) == ROW_GROUP:
                writer.write_batch(arrow_batch(batch, columns, schema), row_group_size=ROW_GROUP)
                rows, batch = rows + len(batch), []
        if batch or not rows:
            writer.write_batch(arrow_batch(batch, columns, schema), row_group_size=ROW_GROUP)
            rows += len(batch)
    return rows
