"""The checks every family's parts pass through, built-in or plug-in alike.

What a command gets from a family is checked here, once, so that a family's
mistake is a one-line :class:`~tsolve.errors.TsolveError` naming the family
(on that record's row, in a batch job) and never a traceback or a wrong
score:

* a generated record (:func:`checked_record`) is a dict with a non-empty
  string ``id``; it is stamped with ``family`` (the family's name) and
  ``generator`` (``name``, ``version``, ``seed``, ``index``) when it lacks
  them, which ``verify`` routes by and ``dataset --resume`` checks;
* a score (:func:`checked_score`) is an :class:`~tsolve.contract.item.ItemScore`
  or a non-empty dict of metrics (the minimal contract's shape, made an
  ``ItemScore`` here), each metric a number in [0, 1];
* any other part a command calls (:func:`family_call`) that fails with
  anything but a ``TsolveError`` fails with one line naming the family and
  the part.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any

from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError

# A family is passed in (never imported here: tsolve.contract.family imports
# this module); what is read of it is its name and version.
Family = Any
Record = dict[str, Any]


def checked_record(family: Family, record: Any, seed: int, index: int) -> Record:
    """``record`` as ``family.generate`` returned it, checked and stamped
    (see the module docstring)."""
    if not isinstance(record, dict):
        raise TsolveError(
            f"family {family.name}: generate returned {type(record).__name__}, not a dict"
        )
    rid = record.get("id")
    if not isinstance(rid, str) or not rid:
        raise TsolveError(f"family {family.name}: record {index} has no string 'id'")
    if "family" not in record or "generator" not in record:
        record = dict(record)
        record.setdefault("family", family.name)
        if "generator" not in record:
            record["generator"] = {
                "name": family.name,
                "version": family.version_text(),
                "seed": seed,
                "index": index,
            }
    return record


def checked_metrics(family: str, metrics: Any) -> dict[str, float]:
    """``metrics`` as a dict of floats, or a one-line error naming ``family``:
    a non-empty mapping of text to numbers in [0, 1]."""
    if not isinstance(metrics, Mapping) or not metrics:
        raise TsolveError(f"family {family}: score must return a non-empty dict of metrics")
    clean: dict[str, float] = {}
    for key, value in metrics.items():
        if (
            not isinstance(key, str)
            or isinstance(value, bool)
            or not isinstance(value, int | float)
            or math.isnan(value)
            or not 0.0 <= value <= 1.0
        ):
            raise TsolveError(
                f"family {family}: metric {key!r} = {value!r} is not a number in [0, 1]"
            )
        clean[key] = float(value)
    return clean


def _plain_fractions(metrics: object) -> bool:
    """Is ``metrics`` a non-empty dict of floats in [0, 1]? (The fast check
    every built-in score passes; anything else goes to :func:`checked_metrics`.)"""
    if type(metrics) is not dict or not metrics:
        return False
    for value in metrics.values():
        if type(value) is not float or not 0.0 <= value <= 1.0:  # NaN fails too
            return False
    return True


def checked_score(family: str, record: Mapping[str, Any], result: Any) -> ItemScore:
    """A scorer's ``result`` as an :class:`ItemScore` (see the module docstring)."""
    if isinstance(result, ItemScore):
        if not _plain_fractions(result.metrics):
            checked_metrics(family, result.metrics)  # a bad one: the line naming the metric
        return result
    if isinstance(result, Mapping):
        return ItemScore(
            id=record.get("id"),
            family=family,
            metrics=checked_metrics(family, result),
            parsed=None,
            parse_failed=False,
        )
    raise TsolveError(
        f"family {family}: score returned {type(result).__name__}, not an ItemScore "
        "or a dict of metrics in [0, 1]"
    )


@functools.lru_cache(maxsize=256)
def _takes_diagnose(fn: Callable[..., Any]) -> bool:
    """Does ``fn`` accept the ``diagnose`` keyword (the full contract's
    scorer does; the minimal contract's ``score(record, output)`` need not)?"""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: assume the full one
        return True
    return any(p.kind is p.VAR_KEYWORD or p.name == "diagnose" for p in params)


class CheckedScorer:
    """A family's scorer with :func:`checked_score` on every result. It
    takes ``diagnose`` as every scorer does and passes it on only to a
    scorer that accepts it."""

    __slots__ = ("family", "fn", "pass_diagnose")

    def __init__(self, family: str, fn: Callable[..., Any]) -> None:
        self.family, self.fn = family, fn
        try:
            self.pass_diagnose = _takes_diagnose(fn)
        except TypeError:  # not hashable: look once, uncached
            self.pass_diagnose = _takes_diagnose.__wrapped__(fn)

    def __call__(self, record: Any, output: Any, *, diagnose: bool = True) -> ItemScore:
        if self.pass_diagnose:
            result = self.fn(record, output, diagnose=diagnose)
        else:
            result = self.fn(record, output)
        return checked_score(self.family, record if isinstance(record, Mapping) else {}, result)


def checked_scorer(family: Family, fn: Callable[..., Any]) -> CheckedScorer:
    """``fn`` (one of ``family``'s scorers) behind :func:`checked_score`."""
    if isinstance(fn, CheckedScorer):
        return fn
    return CheckedScorer(family.name, fn)


def family_call(family: Family, part: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, a part of ``family``; its failure is a one-line error
    naming the family and the part (a ``TsolveError`` it raises is already
    one and passes as it is)."""
    try:
        return fn(*args)
    except TsolveError:
        raise
    except Exception as exc:
        from tsolve.errors import unexpected

        raise TsolveError(f"family {family.name}: {part} failed: {unexpected(exc)}") from None
