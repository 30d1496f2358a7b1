"""Hostile-input campaigns: random model outputs and mutated records, thrown at
the library's entry points to prove that bad input is always *reported*.

The promise being checked (``docs/robustness.md``):

* no exception other than :class:`~tsolve.errors.TsolveError` escapes a
  library entry point, and no row is reported through the batch drivers'
  backstop (:data:`~tsolve.errors.INTERNAL`): every bad field is caught by a
  check that names it;
* every score is a number in [0, 1];
* no item takes longer than a bound (a hang guard, 10 s by default), and the
  work to score an output grows linearly with its length.

Inputs come from ``random.Random(seed)`` alone, so a campaign is reproducible
from its seed, and every failure carries the case (record, output) that
triggers it. The test suite runs a fast slice through hypothesis
(``tests/test_fuzz.py``); ``tsolve stress FAMILY --fuzz`` runs long campaigns.
"""

from __future__ import annotations

import copy
import json
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tsolve.errors import INTERNAL, TsolveError

# ----------------------------------------------------------------- outputs

_MARKERS = (
    "MY ANSWER:", "My Answer:", "**MY ANSWER:**", "my answer：", "MY  ANSWER :", "Answer:",
    "Final answer:", "final answer is", "answer -", "ANSWER", "anſwer:",
)  # fmt: skip
_TOKENS = (
    "2024-02-29", "2024-02-30", "1999-12-31", "0000-00-00", "9999-12-31", "10000-01-01",
    "March 5, 1950", "5 March 1950", "Feb 29 2023", "None", "none of them", "No", "Yes",
    "yes and no", "true", "day 5 of Month 3, 1950", "Leap Month 4", "5 Adar 5784", "Adar II",
    "5 Rabi al-Awwal 1369", "5 Dey 1328", "5 Pausha 1871", "l1_0", "l0_1", "t1", "a0", "c1",
    "p3", "l1_0, t1", "truck t1", "\\_", "1e308", "-1", "99999999999999999999", "[/]",
    "[bold]", "{", "}", "\"", "\\", "\u2028", "\u2029", "\x85", "\ufeff", "\ud800", "\U0001f600",
    "\u202e", "é", "ſ", "ǅ", "١٢٣", "𝟚𝟘𝟚𝟜", "\x00", "\t", "\r\n",
)  # fmt: skip
_FILLS = (" ", "\n", "*", "-", ", ", "x", "1", "_", "`", "answer ", "final ", "MY ANSWER: ")


def random_output(rng: random.Random, max_len: int = 200_000) -> str:
    """A model output built to break parsers: markers, near-dates, names,
    control and astral characters, lone surrogates, and long runs."""
    parts: list[str] = []
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.25:
            parts.append(rng.choice(_MARKERS))
        elif roll < 0.6:
            parts.append(rng.choice(_TOKENS))
        elif roll < 0.75:
            parts.append("".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(1, 8))))
        elif roll < 0.9:
            parts.append(rng.choice(_FILLS) * rng.randint(1, 50))
        else:  # a long run: quadratic parsers show up here
            piece = rng.choice(_FILLS + _MARKERS + _TOKENS[:12])
            parts.append(piece * rng.randint(1, max(1, max_len // max(1, len(piece)) // 4)))
        if rng.random() < 0.5:
            parts.append(rng.choice((" ", "\n", ", ", "")))
    return "".join(parts)[:max_len]


# --------------------------------------------------------------- mutations

_POISON: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2**63, 10**12, -(10**12), 1e308, -1e308, 0.5, "", "[/]",
    "x" * 1000, "2024-02-30", "9999-12-31", "0001-01-01", "1800-01-01", [], [None], {}, {"": 1},
    [[[[[[[[[[[]]]]]]]]]]], "\ud800", "NaN", "Yes", "No", "chinese", "hebrew", "serial",
)  # fmt: skip


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


def mutate(record: dict[str, Any], rng: random.Random, changes: int = 0) -> tuple[dict, str]:
    """A deep copy of ``record`` with 1-3 random changes (or ``changes``), and
    a description of them: a value replaced by a poison value or by another
    value of the record, a key deleted or misnamed, an unknown key added, a
    list emptied, duplicated or truncated, a string cut short."""
    rec = copy.deepcopy(record)
    done: list[str] = []
    all_values = [_get(rec, p) for p in _paths(rec) if p]
    for _ in range(changes or rng.randint(1, 3)):
        paths = [p for p in _paths(rec) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent = _get(rec, path[:-1])
        key = path[-1]
        op = rng.randrange(8)
        where = ".".join(map(str, path))
        if op == 0:
            parent[key] = copy.deepcopy(rng.choice(_POISON))
            done.append(f"{where}={shown_value(parent[key])}")
        elif op == 1 and all_values:
            parent[key] = copy.deepcopy(rng.choice(all_values))
            done.append(f"{where}=<other value>")
        elif op == 2:
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
            done.append(f"del {where}")
        elif op == 3 and isinstance(parent, dict):
            parent[f"{key}_" if rng.random() < 0.5 else str(key).upper()] = parent.pop(key)
            done.append(f"rename {where}")
        elif op == 4 and isinstance(parent, dict):
            parent[rng.choice(("extra", "id", "family", "format", "answers"))] = rng.choice(_POISON)
            done.append(f"add key under {'.'.join(map(str, path[:-1])) or '<root>'}")
        elif op == 5 and isinstance(parent[key], list):
            value = parent[key]
            parent[key] = rng.choice(([], value * 2, value[: len(value) // 2], value[::-1]))
            done.append(f"reshape list {where}")
        elif op == 6 and isinstance(parent[key], str):
            value = parent[key]
            parent[key] = value[: rng.randint(0, len(value))]
            done.append(f"cut string {where}")
        else:
            parent[key] = copy.deepcopy(rng.choice(_POISON))
            done.append(f"{where}={shown_value(parent[key])}")
    return rec, "; ".join(done)


def shown_value(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:29] + "…"


# ------------------------------------------------------------- the campaign


@dataclass
class FuzzFailure:
    kind: str  # "exception" | "internal" | "score-range" | "hang"
    family: str
    message: str
    case: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "family": self.family, "message": self.message,
                "case": self.case}  # fmt: skip


@dataclass
class FuzzReport:
    seed: int
    outputs: int = 0
    mutations: int = 0
    reported_rows: int = 0  # mutated records rejected with a TsolveError: the expected outcome
    slowest_seconds: float = 0.0
    slowest_case: str = ""
    seconds: float = 0.0
    failures: list[FuzzFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "outputs": self.outputs, "mutations": self.mutations,
            "reported_rows": self.reported_rows, "failures": len(self.failures),
            "slowest_seconds": round(self.slowest_seconds, 4), "slowest_case": self.slowest_case,
            "seconds": round(self.seconds, 2), "ok": self.ok,
            "failure_cases": [f.to_json() for f in self.failures[:50]],
        }  # fmt: skip


class _Hang(BaseException):
    """Raised by the alarm: a BaseException so no ``except Exception`` eats it."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    if seconds <= 0 or not hasattr(signal, "SIGALRM"):
        yield
        return

    def ring(*_: Any) -> None:
        raise _Hang()

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def fuzzable_families() -> list[str]:
    """The registered families a campaign can run on: those that generate
    records and score outputs (third-party families included)."""
    from tsolve.contract import all_families

    return [f.name for f in all_families() if f.generate is not None and f.score is not None]


def base_records(family: str, seed: int = 0) -> list[dict[str, Any]]:
    """A few valid records of ``family`` to mutate and to score outputs against
    (its ``Family.fuzz_records``)."""
    from tsolve.contract import get_family

    fam = get_family(family, need="score")
    fam.require("generate")
    return fam.sample_records(seed)


def _entry_points(family: str) -> list[tuple[str, Callable[[dict[str, Any], str], Any]]]:
    """The library calls a record goes through: scoring (with diagnosis), the
    batch driver, and the family's own reader (``Family.rederive``)."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve
    from tsolve.verifiers.verify_batch import verify

    fam = get_family(family)
    scorer = fam.require("score")

    def batch(rec: dict[str, Any], output: str) -> Any:
        report = verify([rec], [{"id": rec.get("id"), "output": output}])
        for e in report.errors:
            if INTERNAL in e:
                raise AssertionError(e)
        return report

    calls: list[tuple[str, Callable[[dict[str, Any], str], Any]]] = [
        ("score", scorer), ("verify", batch)
    ]  # fmt: skip
    if fam.rederive is not None:
        rederive = resolve(fam.rederive)
        calls.append(("rederive", lambda rec, _o: rederive(rec)))
    return calls


def check_case(
    family: str, record: dict[str, Any], output: str, timeout: float = 10.0
) -> tuple[FuzzFailure | None, bool, float]:
    """Run one (record, output) through every entry point of ``family``.

    Returns (the failure, if any; whether a ``TsolveError`` reported the record;
    the seconds taken)."""
    reported = False
    t0 = time.perf_counter()
    case = {"record": record, "output": output}
    for name, call in _entry_points(family):
        try:
            with _deadline(timeout):
                result = call(record, output)
        except TsolveError:
            reported = True
            continue
        except _Hang:
            return FuzzFailure("hang", family, f"{name}: over {timeout:g} s", case), reported, (
                time.perf_counter() - t0)  # fmt: skip
        except AssertionError as exc:
            return FuzzFailure("internal", family, f"{name}: {exc}", case), reported, 0.0
        except Exception as exc:  # what the campaign is here to find
            msg = f"{name}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
            return FuzzFailure("exception", family, msg, case), reported, 0.0
        metrics = getattr(result, "metrics", None)
        if isinstance(metrics, dict) and not all(0.0 <= v <= 1.0 for v in metrics.values()):
            return FuzzFailure("score-range", family, f"{name}: {metrics}", case), reported, 0.0
    return None, reported, time.perf_counter() - t0


def fuzz_campaign(
    family: str,
    outputs: int,
    mutations: int,
    seed: int = 0,
    timeout: float = 10.0,
    on_case: Callable[[], None] | None = None,
) -> FuzzReport:
    """``outputs`` random model outputs scored against valid records, then
    ``mutations`` mutated records (each with a random output), for ``family``."""
    rng = random.Random(f"tsolve-fuzz:{family}:{seed}")
    bases = base_records(family, seed)
    report = FuzzReport(seed=seed)
    t_start = time.perf_counter()

    def record(failure: FuzzFailure | None, reported: bool, took: float, label: str) -> None:
        if failure is not None:
            report.failures.append(failure)
        report.reported_rows += reported
        if took > report.slowest_seconds:
            report.slowest_seconds, report.slowest_case = took, label
        if on_case is not None:
            on_case()

    for k in range(outputs):
        rec = bases[k % len(bases)]
        out = random_output(rng, max_len=rng.choice((200, 2_000, 200_000)))
        failure, _rep, took = check_case(family, rec, out, timeout)
        report.outputs += 1
        record(failure, False, took, f"output {k} ({len(out)} chars)")
    for k in range(mutations):
        rec, what = mutate(bases[k % len(bases)], rng)
        out = random_output(rng, max_len=500)
        failure, reported, took = check_case(family, rec, out, timeout)
        report.mutations += 1
        record(failure, reported, took, f"mutation {k}: {what}")
    report.seconds = time.perf_counter() - t_start
    return report
