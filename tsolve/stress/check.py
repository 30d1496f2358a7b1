"""Checking one stress case: generate the record, run its family's invariants,
and regenerate records in fresh interpreters to catch process state."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tsolve.contract import get_family
from tsolve.errors import TsolveError
from tsolve.records import dumps
from tsolve.stress.report import Violation
from tsolve.testing.cases import StressCase


def check_case(case: StressCase) -> tuple[list[Violation], str | None]:
    """Generate ``case`` and check its family's invariants.

    Returns (violations, skip reason). Never raises for a bad record; a user
    error in the case's options is reported as a skip ("invalid combination").
    """
    violations, skip, _line = check_record(case)
    return violations, skip


def check_record(case: StressCase) -> tuple[list[Violation], str | None, str | None]:
    """:func:`check_case`, plus the record's canonical line (for the
    cross-process check)."""
    fam = get_family(case.family, need="invariants")
    try:
        cfg = fam.make_options(case.options)
    except TsolveError as exc:
        return [], f"invalid option combination: {exc}", None
    try:
        record = fam.make_record(case.seed, case.index, cfg)
    except TsolveError as exc:
        return [], f"generator declined: {exc}", None
    except Exception as exc:  # a crash is a bug, and a finding
        return [Violation(case, "generate-crash", f"{type(exc).__name__}: {exc}")], None, None
    line = dumps(record)
    if fam.invariants is None:
        return [], None, line
    try:
        found = fam.require("invariants")(record, case.seed, case.index, cfg)
    except Exception as exc:
        return [Violation(case, "check-crash", f"{type(exc).__name__}: {exc}")], None, line
    return [Violation(case, name, msg) for name, msg in found], None, line


_REGENERATE = """
import json, sys
from tsolve.contract import get_family
from tsolve.records import dumps
out = []
for line in sys.stdin:
    c = json.loads(line)
    try:
        fam = get_family(c["family"])
        out.append(dumps(fam.make_record(c["seed"], c["index"], fam.make_options(c["options"]))))
    except Exception:
        out.append(None)
print(json.dumps(out))
"""


def cross_process_violations(
    cases: list[tuple[StressCase, str]], hash_seeds: tuple[int, ...] = (1, 12345)
) -> list[Violation]:
    """Regenerate ``(case, line)`` pairs in fresh interpreters, one per
    ``PYTHONHASHSEED`` in ``hash_seeds`` (run concurrently), and report every
    record that differs from ``line``.

    Regenerating in the same process cannot catch a record that depends on
    process state (iteration order of a set of strings, a warm cache, a global
    RNG); such records break sharded and multi-worker datasets, where record i
    is made by whichever process gets it.
    """
    if not cases:
        return []
    payload = "".join(json.dumps(c.to_json()) + "\n" for c, _ in cases)
    procs = []
    try:
        for hs in hash_seeds:
            env = {**os.environ, "PYTHONHASHSEED": str(hs)}
            p = subprocess.Popen(
                [sys.executable, "-c", _REGENERATE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
            procs.append((hs, p))
        results = []
        for hs, p in procs:
            stdout, _ = p.communicate(payload, timeout=600)
            results.append((hs, json.loads(stdout.strip().splitlines()[-1])))
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as exc:
        for _, p in procs:
            p.kill()
        return [Violation(cases[0][0], "cross-process", f"could not run the check: {exc}")]
    out = []
    for k, (case, line) in enumerate(cases):
        differs = [hs for hs, lines in results if k < len(lines) and lines[k] not in (None, line)]
        if differs:
            msg = (
                f"regenerated in a fresh process (PYTHONHASHSEED={differs[0]}) the record "
                "differs: it depends on process state"
            )
            out.append(Violation(case, "cross-process", msg))
    return out
