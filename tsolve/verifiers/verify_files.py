"""``tsolve verify`` on two files: the records and the predictions, read in
step or indexed by id, scored in this process (:func:`~tsolve.verifiers.verify_batch.verify`)
or on an engine (:mod:`tsolve.verifiers.verify_engine`).

Its own module because it is the one place that chooses between the two
paths; each path stays ignorant of the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tsolve.engines.gc_tuning import BatchGC
from tsolve.errors import TsolveError
from tsolve.records import iter_json_rows
from tsolve.verifiers.record_lookup import records_from_file
from tsolve.verifiers.verify_batch import (
    ErrorListener,
    ItemListener,
    VerifyReport,
    check_match,
    verify,
)


def verify_files(
    puzzles: str | Path,
    predictions: str | Path,
    diagnose: bool = True,
    track: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    batch_gc: BatchGC | None = None,
    missing: str = "skip",
    claims: bool = False,
    *,
    keep_items: bool = False,
    on_item: ItemListener | None = None,
    on_error: ErrorListener | None = None,
    engine: str = "local",
    engine_address: str | None = None,
    match: str = "id",
    scorer: str | None = None,
) -> VerifyReport:
    """:func:`verify` over two files (JSON, JSON array or JSONL; ``-`` = stdin).

    A JSON Lines records file is read in step with the predictions and indexed
    by offset, not kept (:mod:`tsolve.verifiers.record_lookup`), so memory
    stays flat however many predictions there are.

    ``track`` wraps the stream of prediction rows (the CLI passes a progress
    bar; the rows are read lazily, so it advances as they are scored); the
    other arguments are passed on to :func:`verify`.

    ``engine="ray"`` scores on a Ray cluster (at ``engine_address``; default
    a new local instance) instead of in this process, with the same report
    (:mod:`tsolve.verifiers.verify_engine`; the records must be a JSON Lines file).
    ``scorer`` (a family's named scorer, :func:`verify`) runs in this process."""
    if str(puzzles) == "-" and str(predictions) == "-":
        raise TsolveError("predictions: only one of the two files can be '-' (stdin)")
    check_match(match)
    if scorer is not None and engine != "local":
        raise TsolveError("scorer: a named scorer runs in this process (use --engine local)")
    if match == "order":  # both files read in step, row by row: nothing to index
        if engine != "local":
            raise TsolveError("match: order runs in this process (use --engine local)")
        pred_rows: Iterable[Any] = iter_json_rows(predictions)
        if track is not None:
            pred_rows = track(pred_rows)
        return verify(iter_json_rows(puzzles), pred_rows, diagnose, batch_gc, missing, claims,
                      keep_items=keep_items, on_item=on_item, on_error=on_error,
                      match="order", scorer=scorer)  # fmt: skip
    if engine != "local":
        from tsolve.engines import open_engine
        from tsolve.verifiers.verify_engine import verify_on_engine

        with open_engine(engine, address=engine_address) as runner:
            return verify_on_engine(
                runner,
                puzzles,
                predictions,
                diagnose,
                track,
                batch_gc,
                missing,
                claims,
                keep_items=keep_items,
                on_item=on_item,
                on_error=on_error,
            )
    rows: Iterable[Any] = iter_json_rows(predictions)
    if track is not None:
        rows = track(rows)
    with records_from_file(puzzles) as lookup:
        report = verify(
            lookup,
            rows,
            diagnose,
            batch_gc,
            missing,
            claims,
            keep_items=keep_items,
            on_item=on_item,
            on_error=on_error,
            scorer=scorer,
        )
    return report
