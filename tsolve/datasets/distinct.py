"""No puzzle twice: a run keeps no two records with the same answer.

A model evaluated on a file that holds one puzzle twice (the same facts in
another order, the same SPAN question with another candidate) is scored
twice on one piece of reasoning, and a train/eval split of such a file leaks
the one into the other. So a dataset run keeps at most one record per
*answer fingerprint* (``Family.answer_content_fingerprint``, what ``tsolve
dataset overlap`` counts as ``answer_overlap``), for every family that says
``distinct`` (:class:`tsolve.contract.Family`; the built-in families do).

**The acceptance pass.** Records are made as always, record ``i`` as drawn
from ``(seed, i, options)``, by any number of workers. The pass then reads
them strictly in index order, in the process that writes. Record ``i`` is
kept if no record kept before it has its answer fingerprint; else it is drawn
again as redraw attempt 1, 2, ... of the same ``(seed, i)``
(:func:`tsolve.generators.seeding.redrawing`: the attempt is part of every
random key the record draws from, and ``generator.redraw`` in the record says
which), until one is new or :data:`MAX_REDRAWS` attempts have repeated, when
the record fails like any other (reported, skipped). Two records of one
puzzle in two wordings (``pair`` names the other's id) are one puzzle, not a
repeat.

**Why every way of writing gives the same bytes.** Whether attempt ``a`` of
record ``i`` is kept depends only on the records kept before ``i``, and those
depend on nothing but ``(seed, options)`` and their indices, by induction.
So the records are a function of ``(seed, i, options)`` still, only now of
the run's prefix as well, and each way the writer produces records computes
that same prefix:

* **workers and engines**: workers make attempt 0 and its fingerprint; the
  pass and every redraw run in the writing process, in index order, so the
  worker count and chunk size never reach a decision;
* **shards and index ranges** (``--shard``, ``--split``): a run that starts
  at index ``s > 0`` first runs the pass over records ``0 .. s-1`` (made on
  the same engine, not written), so shard ``k/n`` costs the records before it
  too and shards still concatenate to the unsharded file;
* **resume**: the records already in the file are the kept ones (``--resume``
  checks a sample of them against a regeneration at their own attempt), so
  the pass learns their fingerprints from the file, and the prefix before the
  shard from a regeneration, then goes on.

**Other files** (``--exclude``). Runs with other options draw from other
streams (the options' salt, :mod:`tsolve.generators.seeding`), yet two
independent draws can still meet by chance where the content domain is
small (one pair in two runs of 2,000 time puzzles). A run given files to
exclude starts its pass knowing their answers, so none of them is drawn: an
eval file made with ``--exclude train.jsonl`` shares no answer with it, nor
a puzzle in the other wording. The records then depend on those files as
well, so give the same files to every shard and to ``--resume``.

Memory: one 16-byte digest and the holder's id per kept record.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tsolve.contract import Family, family_of
from tsolve.errors import TsolveError
from tsolve.records import BadRow, iter_json_rows

#: Redraw attempts a repeating record gets before it fails.
MAX_REDRAWS = 32

#: ``(answer digest or None, id, pair)`` of one record, as the pass compares it.
Key = tuple[bytes | None, str | None, str | None]

#: Makes attempt ``redraw`` of record ``index``: ``(record, line)`` or why it failed.
Maker = Callable[[int, int], "tuple[dict[str, Any], str] | str"]


def key_of(fam: Family, record: dict[str, Any]) -> Key:
    """What the pass compares: the record's answer fingerprint (a digest, or
    ``None`` when the family cannot fingerprint it: such a record is never a
    repeat), its id and the id of its other wording."""
    try:
        answer = hashlib.blake2b(
            fam.answer_content_fingerprint(record).encode(), digest_size=16
        ).digest()
    except Exception:  # a record that cannot be fingerprinted cannot be compared
        answer = None
    ident, pair = record.get("id"), record.get("pair")
    return (answer, ident if isinstance(ident, str) else None,
            pair if isinstance(pair, str) else None)  # fmt: skip


class DistinctPass:
    """The acceptance pass of one run (see the module docstring)."""

    def __init__(self, fam: Family) -> None:
        self.fam = fam
        self.seen: dict[bytes, str | None] = {}
        self.redrawn = 0
        # Records whose first draw had an excluded file's answer (a key kept
        # with no id): what a run made without ``--exclude`` would share.
        self.excluded = 0

    def admits(self, key: Key) -> bool:
        """Is a record with ``key`` new (or its kept pair's other wording)?"""
        answer, _ident, pair = key
        if answer is None or answer not in self.seen:
            return True
        return pair is not None and self.seen[answer] == pair

    def keep(self, key: Key) -> None:
        """Remember a kept record."""
        if key[0] is not None:
            self.seen.setdefault(key[0], key[1])

    def state(self) -> dict[str, Any]:
        """What the pass has learnt, as plain JSON-ready data (a stream that
        is saved and resumed, :mod:`tsolve.rl.trl_curriculum`): each kept
        answer's digest (hex) with its holder's id, in the order kept."""
        return {"seen": [[d.hex(), ident] for d, ident in self.seen.items()],
                "redrawn": self.redrawn, "excluded": self.excluded}  # fmt: skip

    @classmethod
    def restore(cls, fam: Family, state: Any) -> DistinctPass:
        """The pass :meth:`state` saved; a malformed state is a one-line error."""
        made = cls(fam)
        try:
            seen, redrawn, excluded = state["seen"], state["redrawn"], state["excluded"]
            for digest, ident in seen:
                if not (ident is None or isinstance(ident, str)):
                    raise TypeError("id")
                answer = bytes.fromhex(digest)
                if len(answer) != 16:
                    raise ValueError(f"a digest of {len(answer)} bytes")
                made.seen[answer] = ident
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                       for n in (redrawn, excluded)):  # fmt: skip
                raise TypeError("counts")
        except (KeyError, TypeError, ValueError) as exc:
            raise TsolveError(f"state: {fam.name}'s answers served are malformed ({exc})") from None
        made.redrawn, made.excluded = redrawn, excluded
        return made

    def learn(self, records: Iterable[dict[str, Any]]) -> None:
        """Remember records already kept (a file being resumed)."""
        for rec in records:
            self.keep(key_of(self.fam, rec))

    def settle(self, index: int, key: Key, make: Maker) -> tuple[dict[str, Any], str] | str | None:
        """Record ``index`` with ``key`` (attempt 0): ``None`` if it is kept as
        it is, else its first new redraw as ``(record, line)``, or the reason
        it fails when :data:`MAX_REDRAWS` attempts all repeat."""
        if self.admits(key):
            self.keep(key)
            return None
        holder = self.seen.get(key[0]) if key[0] is not None else None
        self.excluded += holder is None
        for attempt in range(1, MAX_REDRAWS + 1):
            made = make(index, attempt)
            if isinstance(made, str):
                continue  # this attempt cannot be made; the next may
            new = key_of(self.fam, made[0])
            if self.admits(new):
                self.keep(new)
                self.redrawn += 1
                return made
        return (
            f"repeats earlier records (first {holder or 'a record'}) in {MAX_REDRAWS + 1} draws: "
            "the options leave too few distinct puzzles for a run this long"
        )


def settle_made(
    distinct: DistinctPass, fam: Family, seed: int, index: int, config: Any
) -> tuple[dict[str, Any], int] | str:
    """Record ``index`` of run ``seed`` made in this process and settled by
    ``distinct``: ``(record, redraw)`` as the run keeps it, or why it fails
    (it cannot be made, or every redraw repeats). For readers that serve one
    record at a time (the facade, the TRL stream) rather than a file."""
    try:
        record = fam.make_record(seed, index, config)
    except TsolveError as exc:  # a run reports and skips such a record
        return str(exc)
    tried = [0]

    def make(i: int, attempt: int) -> tuple[dict[str, Any], str] | str:
        tried.append(attempt)
        try:
            return fam.make_record(seed, i, config, redraw=attempt), ""
        except TsolveError as exc:
            return str(exc)

    settled = distinct.settle(index, key_of(fam, record), make)
    if settled is None:
        return record, 0
    if isinstance(settled, str):
        return f"record {index}: {settled}"
    return settled[0], tried[-1]


def excluded_keys(fam: Family, paths: Iterable[str | Path]) -> list[Key]:
    """The answers of ``fam``'s records in ``paths`` (any format tsolve reads),
    as keys no record of the run may repeat, in either wording. A row that
    cannot be read is a one-line error: it could hold a puzzle the run would
    then repeat, so it is not skipped. Records of other families are left out."""
    if not fam.distinct_runs:
        raise TsolveError(
            f"exclude: {fam.name} runs do not draw a repeat again, so none can exclude"
        )
    keys: list[Key] = []
    for path in paths:
        if str(path) != "-" and not Path(path).is_file():
            raise TsolveError(f"exclude: no such file {str(path)!r}")
        for row in iter_json_rows(path):
            if isinstance(row, BadRow):
                raise TsolveError(f"exclude: {row}; fix or drop that row, or the file")
            try:
                if family_of(row) != fam.name:
                    continue
            except TsolveError:
                continue  # a record of no family tsolve knows is no puzzle of this one
            answer = key_of(fam, row)[0]
            if answer is not None:
                keys.append((answer, None, None))  # no id: its other wording is excluded too
    return keys


def replace_lines(
    fam: Family,
    blob: bytes,
    indices: list[int],
    counts: dict[str, Counter[str]],
    changes: dict[int, tuple[dict[str, Any], str] | str],
) -> tuple[bytes, list[int], list[tuple[int, str]]]:
    """A chunk's lines with the redrawn records put in (``changes``: index ->
    new ``(record, line)`` or the reason it now fails), its summary
    ``counts`` updated in place. Returns the new blob, the indices still
    written and the new failures."""
    lines = blob.split(b"\n")[:-1]  # every line ends in a newline (no raw one inside)
    out_lines: list[bytes] = []
    out_indices: list[int] = []
    failures: list[tuple[int, str]] = []
    for i, line in zip(indices, lines, strict=True):
        change = changes.get(i)
        if change is None:
            out_lines.append(line)
            out_indices.append(i)
            continue
        for key, values in fam.buckets(json.loads(line)).items():
            counts.setdefault(key, Counter()).subtract(values)
        if isinstance(change, str):
            failures.append((i, change))
            continue
        rec, text = change
        for key, values in fam.buckets(rec).items():
            counts.setdefault(key, Counter()).update(values)
        out_lines.append(text.encode("utf-8"))
        out_indices.append(i)
    for c in counts.values():
        for k in [k for k, v in c.items() if v <= 0]:
            del c[k]
    return b"".join(x + b"\n" for x in out_lines), out_indices, failures


def check_distinct(fam: Family, records: Iterable[dict[str, Any]]) -> list[str]:
    """One line per record that repeats an earlier one's answer (not its own
    pair): what ``tsolve stress`` holds a run to. Empty when all are distinct."""
    if not fam.distinct_runs:
        return []
    seen = DistinctPass(fam)
    out: list[str] = []
    for rec in records:
        key = key_of(fam, rec)
        if not seen.admits(key):
            first = seen.seen.get(key[0]) if key[0] is not None else None
            out.append(f"record {rec.get('id')!r} repeats the answer of {first!r}")
        seen.keep(key)
    return out
