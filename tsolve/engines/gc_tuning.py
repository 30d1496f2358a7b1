"""Fewer garbage-collector pauses during batch jobs.

A batch job (``verify``, ``logistics answer``) allocates a few small container
objects per row and keeps most of them (the report holds every item). With
CPython's default thresholds the young generation is collected every 700 net
allocations, and each collection re-examines the surviving objects; profiling
``tsolve verify`` on 20,000 predictions put a third of the run in the
collector. Raising the first threshold while the batch runs, and restoring it
after, removes most of that. Reference cycles are still collected, just less
often; nothing is disabled.

The collector is process-wide state, so the library never tunes it on its own:
a caller that owns the process (the CLI) opens the block and hands its
:class:`BatchGC` to the batch function (``verify(..., batch_gc=...)``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = 50_000
"""Net allocations between young-generation collections inside a batch."""


class BatchGC:
    """Handle of a :func:`fewer_gc_pauses` block."""

    def __init__(self) -> None:
        self.frozen = False

    def freeze_inputs(self) -> None:
        """Exempt every object alive now (the batch's loaded inputs) from
        collection until the block ends. A large input set otherwise makes each
        full collection re-scan it: on 20,000 puzzle records the diagnosis pass
        ran 3-4x slower with the collector on than with these objects frozen.
        On exit they are unfrozen, so any cycles among them are collected then."""
        gc.freeze()
        self.frozen = True


@contextmanager
def fewer_gc_pauses(threshold: int = BATCH_THRESHOLD) -> Iterator[BatchGC]:
    """Collect the young generation every ``threshold`` allocations (not 700)
    inside the block; the previous thresholds come back on exit, even on error.
    Nested uses keep the largest threshold. The block's :class:`BatchGC` can
    also freeze the inputs once they are loaded."""
    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), *old[1:])
    state = BatchGC()
    try:
        yield state
    finally:
        if state.frozen:
            gc.unfreeze()
        gc.set_threshold(*old)
