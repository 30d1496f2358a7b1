"""Where a record comes from: its randomness (one derivation for every
family), its ``generator`` stamp, and the run it belongs to.

Record ``index`` of run ``seed`` of generator ``name`` at ``version`` draws
everything random from a generator seeded by the text key
``"{name}:{version}:{seed}:{index}"`` (then ``:{salt}`` and ``:redraw{n}``
when given, below) and from nothing else that varies. So:

* record ``i`` is a pure function of ``(seed, i)`` and the options, which is
  what makes multi-process, sharded and resumed datasets byte-identical;
* records of different families, runs or indices never share a stream;
* bumping a generator's version gives new records for every ``(seed, i)``,
  so records of two versions are never mixed up as "the same" record.

Two more parts of the key keep puzzles from being served twice:

* **The options' salt.** A generator passes the fingerprint of the options
  that shape its content (:func:`options_fingerprint`, without the style and
  the backend) as ``salt``. Without it, two runs with the same seed and other
  options (``--solutions 0-6`` and ``--solutions 1-6``) drew the same facts
  wherever their targets agreed, so a train file and an eval file made that
  way shared puzzles without a word. With it, each option set has its own
  stream. Options that only pick among wordings stay out of the salt, so the
  two wordings of one puzzle remain one puzzle.
* **The redraw.** A dataset run keeps no two records with the same answer
  (:mod:`tsolve.datasets.distinct`); a record that repeats an earlier one is
  drawn again as attempt ``n`` = 1, 2, ... of the same ``(seed, index)``.
  The attempt reaches every draw of the record through :func:`redrawing`
  (a context variable, so no generator has to take a parameter for it), and
  :func:`generator_stamp` writes it into the record (``generator.redraw``),
  so a stored record names everything it was drawn from. Attempt 0 adds
  nothing to the key: a record that is not a repeat is the record it was.

``random.Random`` hashes a text seed with SHA-512, and :func:`record_np_rng`
hashes the same key with BLAKE2b for NumPy, so both are stable across
processes, platforms and ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from tsolve.errors import TsolveError

if TYPE_CHECKING:
    import numpy as np

C = TypeVar("C")


_REDRAW: ContextVar[int] = ContextVar("tsolve_redraw", default=0)


@contextmanager
def redrawing(attempt: int) -> Iterator[None]:
    """Draw the records made inside this block as redraw ``attempt`` of their
    ``(seed, index)`` (0: the record itself). Only the dataset machinery
    (:meth:`tsolve.contract.Family.make_record`) sets it."""
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
        raise TsolveError(f"redraw: expected a non-negative integer, got {attempt!r}")
    token = _REDRAW.set(attempt)
    try:
        yield
    finally:
        _REDRAW.reset(token)


def current_redraw() -> int:
    """The redraw attempt records are being made as (0 outside :func:`redrawing`)."""
    return _REDRAW.get()


def record_key(name: str, version: str, seed: int, index: int, salt: str = "") -> str:
    """The text every random draw of one record derives from: the record's
    run and index, the options' ``salt`` if the generator gives one, and the
    redraw attempt if it is not 0 (see the module docstring)."""
    key = f"{name}:{version}:{seed}:{index}"
    if salt:
        key += f":{salt}"
    attempt = _REDRAW.get()
    return f"{key}:redraw{attempt}" if attempt else key


def record_rng(name: str, version: str, seed: int, index: int, salt: str = "") -> random.Random:
    """The ``random.Random`` of record ``index`` of run ``seed`` (``salt``: the
    fingerprint of the options that shape content, :func:`options_fingerprint`)."""
    return random.Random(record_key(name, version, seed, index, salt))


def record_np_rng(
    name: str, version: str, seed: int, index: int, salt: str = ""
) -> np.random.Generator:
    """The NumPy generator of record ``index`` of run ``seed`` (same key, for
    generators that draw arrays)."""
    import numpy as np

    key = record_key(name, version, seed, index, salt)
    digest = hashlib.blake2b(key.encode(), digest_size=16)
    return np.random.default_rng(int.from_bytes(digest.digest(), "big"))


def generator_stamp(
    name: str, version: str, seed: int, index: int, params: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    """A record's ``generator`` field: who made it (``name``, ``version``), which
    record of which run it is (``seed``, ``index``), the config it was made
    with (``params``), then anything the family adds (its hidden seed date,
    attempts, ...). ``tsolve dataset --resume`` and the stress regenerate check
    read ``seed`` and ``index`` from here. A redrawn record (:func:`redrawing`)
    also says which attempt it is (``redraw``), after ``index``."""
    redraw = {"redraw": _REDRAW.get()} if _REDRAW.get() else {}
    return {"name": name, "version": version, "seed": seed, "index": index, **redraw,
            "params": params, **extra}  # fmt: skip


def options_fingerprint(options: dict[str, Any]) -> str:
    """A short, stable name for the generator options that shape a record's
    content: the first six hex digits of the SHA-256 of their canonical JSON
    (sorted keys, no spaces). Record ids carry it (``tp-5-0-3f9a2c-implicit``)
    so that files made with different options can share a file without two
    records sharing an id; equal options give the same fingerprint in every
    process, on every platform (not Python's ``hash``). Each generator passes
    only the options that change content (not the solver backend, not which
    styles a run interleaves), so ``pair`` keeps naming the same puzzle."""
    text = json.dumps(options, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_DIGITS]


FINGERPRINT_DIGITS = 6


def run_records(
    make: Callable[[int, int, C], dict[str, Any]], count: int, seed: int, config: C, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, made as they are read.
    A negative ``count`` or ``start`` raises at once, before anything is made."""
    for value, what in ((count, "count"), (start, "start")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TsolveError(f"{what}: must be a non-negative integer, got {value!r}")
    return (make(seed, i, config) for i in range(start, start + count))
