"""An Inspect dataset of tsolve records: generated like ``tsolve dataset``, or read from a file.

Generated records come from the same code path as ``tsolve dataset``
(:func:`tsolve.datasets.generate_chunks`, in this process) and are read back
from the very JSON lines that command writes, so a task's samples for a seed
are the records of ``tsolve dataset FAMILY --seed S --count N``, byte for byte
(records whose generation fails are skipped there and here alike).

Each record becomes one :class:`inspect_ai.dataset.Sample`: its ``id``, the
family's prompt as input (:mod:`tsolve.adapters.inspect_ai.prompts`), the gold answer as
the target (for display; the scorer judges with the record, not the target),
and the record in the sample's metadata in two parts: ``record``, what may sit
beside the prompt (:func:`tsolve.records.gold_fields.visible`: no gold
field), and ``gold``, its gold fields; :func:`~tsolve.records.gold_fields.record_in`
joins them, so that the scorer needs nothing else and ``inspect score`` can
re-score a log (a log written before the split, with the whole record under
``record``, reads as it did).

A record that carries its prompt in more than one style (``prompts``: a
record imported from the Time Puzzles release has the paper's prompt over
its implicit and over its explicit sentences) is shown in the style a task
asks for (:func:`styled_record`): that prompt verbatim, never one re-rendered
from the facts, so the model sees the published wording.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from tsolve.adapters.inspect_ai.prompts import record_prompt
from tsolve.adapters.inspect_ai.scorer import published_metrics
from tsolve.adapters.inspect_ai.skipped import say_skipped
from tsolve.contract import family_of, get_family
from tsolve.datasets import gather_options, generate_chunks
from tsolve.errors import TsolveError, unexpected
from tsolve.records import BadRow, Row, iter_json_rows
from tsolve.records.gold_fields import record_in, split_metadata
from tsolve.verifiers.registry import scorer_for

Record = dict[str, Any]

logger = logging.getLogger(__name__)


def generated_records(
    family: str,
    *,
    seed: int = 0,
    count: int = 100,
    config: str | Path | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Record]:
    """Records ``0..count-1`` of run ``seed``, as ``tsolve dataset`` writes them.

    ``options`` are the family's generator options (``solutions=3``,
    ``style="explicit"``, ...), ``config`` a JSON file of them; the options win,
    as the flags do over ``--config`` on the command line."""
    for name, value in (("count", count), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TsolveError(f"{name}: expected an integer >= 0, got {value!r}")
    fam = get_family(family, need="generate")
    opts = gather_options(fam, config, dict(options or {}))
    fam.make_options(opts)  # a bad value: one line here, not an empty dataset later
    records: list[Record] = []
    for chunk in generate_chunks(fam.name, opts, seed, range(count)):
        for index, message in chunk.failures:
            logger.warning("%s record %d (seed %d) failed: %s", fam.name, index, seed, message)
        # Split on "\n" only: U+2028 and friends may stand raw inside a JSON string.
        lines = chunk.blob.decode("utf-8").split("\n")
        records.extend(json.loads(line) for line in lines if line)
    return records


def file_records(path: str | Path, family: str | None = None) -> list[Record]:
    """The usable records in a JSON / JSON Lines file; with ``family``, of that
    family. Bad rows are skipped, each named on stderr (:func:`file_samples`)."""
    samples, _bad = file_samples(path, family)
    found = (record_in(sample.metadata) for sample in samples)
    return [record for record in found if record is not None]


def file_samples(
    path: str | Path,
    family: str | None = None,
    prepare: Callable[[Sample], None] | None = None,
) -> tuple[list[Sample], list[str]]:
    """The file's usable records as samples, and each bad row's one-line reason.

    Every row is checked before any model call, and a bad one is skipped and
    named (row number and reason) while the rest go on, as in every tsolve
    batch job (:func:`tsolve.adapters.inspect_ai.skipped.say_skipped`): a row
    that is not JSON, a record of another family (with ``family``), one
    without a usable ``id`` or prompt, a repeated id (the first keeps it), and
    a record its family's scorer refuses (a misnamed or malformed gold field,
    an impossible date), which is found by scoring an empty answer against it
    once, so that it cannot fail the evaluation later. ``prepare`` finishes
    each sample (the task's condition: :func:`tsolve.adapters.inspect_ai.tasks.family_task`);
    a :class:`TsolveError` it raises makes that row a bad one too. A file with
    no usable row is a one-line error."""
    want = get_family(family, need="score").name if family is not None else None
    name = "<stdin>" if str(path) == "-" else Path(path).name
    samples: list[Sample] = []
    bad: list[str] = []
    first_row: dict[str | int, int] = {}
    total = 0
    for total, row in enumerate(iter_json_rows(path), 1):
        try:
            sample = _checked_sample(row, want, prepare)
            assert sample.id is not None
            if sample.id in first_row:
                raise TsolveError(f"id {sample.id!r} repeats row {first_row[sample.id]}")
        except TsolveError as exc:
            bad.append(f"{name} row {total}: {exc}")
            continue
        first_row[sample.id] = total
        samples.append(sample)
    say_skipped(
        want or "records", name, bad, total, what="row", empty=f"file: {name} holds no records"
    )
    return samples, bad


def _checked_sample(row: Row, want: str | None, prepare: Callable[[Sample], None] | None) -> Sample:
    """One row as a sample, or the one-line :class:`TsolveError` saying why it
    cannot be one (see :func:`file_samples`)."""
    if isinstance(row, BadRow):
        raise TsolveError(row.message)
    if want is not None and _family_name(row) != want:
        raise TsolveError(f"record {row.get('id')!r}: family {_family_name(row)!r}, not {want!r}")
    sample = record_sample(row)
    if prepare is not None:
        prepare(sample)
    try:
        record = (record_in(sample.metadata) if sample.metadata else None) or row
        scorer_for(family_of(record))(record, "", diagnose=False)
        published_metrics(record, "")  # a malformed published gold: this row, named
    except TsolveError:
        raise
    except Exception as exc:  # a scorer's own bug on an odd record: this row, not the run
        raise TsolveError(f"record {row.get('id')!r}: {unexpected(exc)}") from None
    return sample


def _family_name(record: Record) -> str:
    """The registry's name of a record's family (``time_puzzles`` -> ``time-puzzles``)."""
    try:
        return get_family(family_of(record)).name
    except TsolveError:
        return str(record.get("family"))


def gold_text(record: Record) -> str:
    """The gold answer as text, for the sample's target (display only)."""
    if isinstance(record.get("answers"), list):
        answers = record["answers"]
        if all(isinstance(a, str) for a in answers):
            return ", ".join(answers) if answers else "None"
        return json.dumps(answers, ensure_ascii=False)
    answer = record.get("answer")
    return "" if answer is None else str(answer)


def record_sample(record: Record) -> Sample:
    """One record as an Inspect sample (see the module docstring)."""
    rid = record.get("id")
    if isinstance(rid, bool) or not isinstance(rid, str | int) or rid == "":
        raise TsolveError(f"record: 'id' must be a non-empty string or integer, got {rid!r}")
    return Sample(
        id=rid,
        input=record_prompt(record),
        target=gold_text(record),
        metadata={"family": _family_name(record), **split_metadata(record)},
    )


#: The styles a record's prompt may be asked for in (:func:`styled_record`).
STYLES = ("implicit", "explicit")


def styled_record(record: Record, style: str | None) -> Record:
    """``record`` as shown in ``style``: itself when ``style`` is None; a copy
    whose ``style`` and ``prompt`` are that style's when it stores a prompt
    for it (``prompts[style]``, verbatim), so the prompt shown and the
    scorer's breakdown by style agree; itself when it is of that style and
    stores no other. Else a one-line error: a generated record holds its own
    style only."""
    if style is None:
        return record
    prompts = record.get("prompts")
    prompt = prompts.get(style) if isinstance(prompts, dict) else None
    if isinstance(prompt, str) and prompt.strip():
        return {**record, "style": style, "prompt": prompt}
    if record.get("style", "implicit") == style:
        return record
    raise TsolveError(
        f"record {record.get('id')!r}: no {style} prompt (its style is "
        f"{record.get('style', 'implicit')}, and it has no 'prompts.{style}'; records "
        "imported from the Time Puzzles release carry both styles)"
    )


def records_dataset(records: Iterable[Record], name: str) -> MemoryDataset:
    """The records as a dataset; ids must be unique (Inspect keys samples by id)."""
    samples: list[Sample] = []
    seen: set[str | int] = set()
    for record in records:
        sample = record_sample(record)
        assert sample.id is not None
        if sample.id in seen:
            raise TsolveError(
                f"record: duplicate id {sample.id!r} (Inspect needs unique sample ids: "
                "give each record its own id)"
            )
        seen.add(sample.id)
        samples.append(sample)
    return MemoryDataset(samples, name=name)
