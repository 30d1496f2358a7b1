"""Third-party families: the minimal contract, adapted to a full :class:`Family`.

Another package provides an object with

* ``name: str``;
* ``generate(seed: int, index: int, params: dict) -> dict``: a JSON-ready
  record with a string ``id``, a pure function of its arguments;
* ``score(record: dict, output: str) -> dict[str, float]``: metrics in [0, 1];

and, optionally, ``description``, ``version`` and ``summarize(record)``
(labels a dataset summary counts the record under). A package that wants more
(an auditor, stress invariants, bench cases, CLI commands) exports a full
:class:`~tsolve.contract.family.Family` instead. :func:`adapt` wraps the
minimal object so that ``tsolve dataset``, ``verify`` and ``families`` treat
it like a built-in family. The wrappers
check what tsolve relies on, so a plugin's mistake becomes a one-line error on
its own row rather than a wrong score: a record without an ``id``, a metric
outside [0, 1] or not a number.

A record gets the fields tsolve routes and resumes by, when it lacks them:
``family`` (the family's name) and ``generator`` (name, version, seed, index).
Options given with ``--set key=value`` reach ``params`` as JSON values when
they read as JSON (``3``, ``true``, ``[1, 2]``) and as text otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from tsolve.contract.family import Family, Record
from tsolve.errors import TsolveError
from tsolve.generators.options import Parser, parse_json_value


class AnyOption(Mapping[str, Parser]):
    """The option table of a family that declares none: every name is accepted
    and read with :func:`tsolve.generators.options.parse_json_value`."""

    def __getitem__(self, name: str) -> Parser:
        return parse_json_value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class PluginGenerator:
    """``generate(seed, index, params)`` of a plugin, with tsolve's record checks."""

    def __init__(self, obj: Any, name: str, version: str) -> None:
        self.obj, self.name, self.version = obj, name, version

    def __call__(self, seed: int, index: int, params: dict[str, Any]) -> Record:
        record = self.obj.generate(seed, index, dict(params))
        if not isinstance(record, dict):
            raise TsolveError(
                f"family {self.name}: generate returned {type(record).__name__}, not a dict"
            )
        if not isinstance(record.get("id"), str) or not record["id"]:
            raise TsolveError(f"family {self.name}: record {index} has no string 'id'")
        out = dict(record)
        out.setdefault("family", self.name)
        out.setdefault(
            "generator", {"name": self.name, "version": self.version, "seed": seed, "index": index}
        )
        return out


class PluginScorer:
    """``score(record, output)`` of a plugin, as tsolve's ``ItemScore``."""

    def __init__(self, obj: Any, name: str) -> None:
        self.obj, self.name = obj, name

    def __call__(self, record: Record, output: str, *, diagnose: bool = True) -> Any:
        from tsolve.contract.item import ItemScore

        metrics = self.obj.score(record, output)
        if not isinstance(metrics, Mapping) or not metrics:
            raise TsolveError(f"family {self.name}: score must return a non-empty dict of metrics")
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
                    f"family {self.name}: metric {key!r} = {value!r} is not a number in [0, 1]"
                )
            clean[key] = float(value)
        return ItemScore(
            id=str(record.get("id")),
            family=self.name,
            metrics=clean,
            parsed=None,
            parse_failed=False,
        )


def adapt(obj: Any, origin: str) -> Family:
    """A :class:`Family` from an entry point's object (see the module docstring)."""
    if isinstance(obj, Family):
        return replace(obj, origin=origin)
    name = getattr(obj, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise TsolveError("the object has no string 'name'")
    for part in ("generate", "score"):
        if not callable(getattr(obj, part, None)):
            raise TsolveError(f"the object has no callable '{part}'")
    version = str(getattr(obj, "version", "") or "")
    summarize = getattr(obj, "summarize", None)
    fingerprint = getattr(obj, "fingerprint", None)
    answer_fingerprint = getattr(obj, "answer_fingerprint", None)
    return Family(
        name=name.strip(),
        description=str(getattr(obj, "description", "") or ""),
        version=version,
        generate=PluginGenerator(obj, name.strip(), version),
        options=AnyOption(),
        score=PluginScorer(obj, name.strip()),
        summarize=summarize if callable(summarize) else None,
        fingerprint=fingerprint if callable(fingerprint) else None,
        answer_fingerprint=answer_fingerprint if callable(answer_fingerprint) else None,
        # a minimal plug-in's randomness is its own, so a redraw would change nothing
        distinct=getattr(obj, "distinct", False) is True,  # never on by default
        origin=origin,
    )
