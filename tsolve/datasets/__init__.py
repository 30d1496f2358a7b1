"""Datasets at scale: ``tsolve dataset FAMILY --count N --out FILE``.

The one property everything here rests on is that record ``i`` of a run is a
pure function of ``(seed, i)`` and the generator options (every family in
:mod:`tsolve.families` guarantees it). From it follow:

* **Workers don't change bytes** (:mod:`~tsolve.datasets.chunks`). Records are
  computed by a pool of processes in chunks of consecutive indices and written
  strictly in index order, so the file is the same for any ``workers``.
* **Shards concatenate** (:mod:`~tsolve.datasets.shards`). Shard ``i/n``
  covers a contiguous index block; concatenating shards ``0..n-1`` in order
  gives the unsharded file byte for byte.
* **Resume is exact** (:mod:`~tsolve.datasets.resume`). ``--resume`` first
  validates the file without touching it, regenerating a sample of its records,
  and refuses a file that is not a prefix of this run; only then is a partial
  last line cut off and the run continued at the next index.
* **Stops leave whole records** (:mod:`~tsolve.datasets.writer`). Ctrl-C (or
  SIGTERM through the CLI) stops the workers and cuts the file back to the end
  of the last record written whole; a dead worker stops the run with
  :class:`tsolve.engines.pool.WorkerLost` after the last whole chunk. Either way
  the file is ready for ``--resume``.
* **No puzzle twice** (:mod:`~tsolve.datasets.distinct`). A record whose
  answer repeats an earlier record's is drawn again, in index order in the
  writing process, with redraws seeded by ``(seed, i, attempt)``; a shard or
  a later split part settles the records before it first, a resumed file
  lends its own, so all of the above still hold.
* **Memory is flat.** Records are streamed to the file as they arrive
  (:mod:`~tsolve.datasets.sinks`: JSON Lines or Parquet); only the bounded
  counters of :mod:`~tsolve.datasets.summary` and at most a window of chunks
  are held.

A record whose generation fails is reported (index and one-line reason) and
skipped; the run goes on. Skipping is deterministic too, so byte identity and
resume are unaffected.
"""

from tsolve.datasets.chunks import Chunk, generate_chunks
from tsolve.datasets.options import gather_options, parse_set, read_options_file
from tsolve.datasets.shards import parse_shard, shard_range
from tsolve.datasets.sinks import FORMATS, infer_format
from tsolve.datasets.summary import DatasetSummary
from tsolve.datasets.writer import write_dataset

__all__ = [
    "FORMATS",
    "Chunk",
    "DatasetSummary",
    "gather_options",
    "generate_chunks",
    "infer_format",
    "parse_set",
    "parse_shard",
    "read_options_file",
    "shard_range",
    "write_dataset",
]
