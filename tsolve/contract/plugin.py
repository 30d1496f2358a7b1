"""Third-party families: the minimal contract, adapted to a full :class:`Family`.

Another package provides an object with

* ``name: str``;
* ``generate(seed: int, index: int, params: dict) -> dict``: a JSON-ready
  record with a string ``id``, a pure function of its arguments;
* ``score(record: dict, output: str) -> dict[str, float]``: metrics in [0, 1];

and, optionally, ``description``, ``version``, ``summarize(record)``
(labels a dataset summary counts the record under) and any of the parts in
:data:`OPTIONAL_PARTS`, under a full :class:`~tsolve.contract.family.Family`'s
field names and meanings (``prompt``, ``answer``, ``perturb``,
``difficulty``, ``curriculum``, ``audit``, ...). A package that wants more
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
    """``generate(seed, index, params)`` of a plugin, with tsolve's record
    checks (:func:`tsolve.contract.guards.checked_record`, as for every family)."""

    def __init__(self, obj: Any, name: str, version: str) -> None:
        self.obj, self.name, self.version = obj, name, version

    def __call__(self, seed: int, index: int, params: dict[str, Any]) -> Record:
        from tsolve.contract.guards import checked_record

        record = self.obj.generate(seed, index, dict(params))
        return checked_record(Family(name=self.name, version=self.version), record, seed, index)


class PluginScorer:
    """``score(record, output)`` of a plugin, as tsolve's ``ItemScore``
    (:func:`tsolve.contract.guards.checked_score`, as for every family)."""

    def __init__(self, obj: Any, name: str) -> None:
        self.obj, self.name = obj, name

    def __call__(self, record: Record, output: str, *, diagnose: bool = True) -> Any:
        from tsolve.contract.guards import checked_score

        return checked_score(self.name, record, self.obj.score(record, output))


class PluginAuditor:
    """``audit(record)`` of a plugin, as tsolve's ``AuditVerdict``: the
    plugin may return one, or a dict ``{"verdict": "ok" | "ambiguous" |
    "inconsistent", "detail": {...}, "readings": [...]}``; anything else is
    a one-line error on that row."""

    def __init__(self, fn: Any, name: str) -> None:
        self.fn, self.name = fn, name

    def __call__(self, record: Record) -> Any:
        from tsolve.contract.verdict import VERDICTS, AuditVerdict

        found = self.fn(record)
        if isinstance(found, AuditVerdict):
            return found
        verdict = found.get("verdict") if isinstance(found, Mapping) else None
        detail = found.get("detail", {}) if isinstance(found, Mapping) else None
        readings = found.get("readings", []) if isinstance(found, Mapping) else None
        if (
            verdict not in VERDICTS
            or not isinstance(detail, Mapping)
            or not isinstance(readings, list)
        ):
            raise TsolveError(
                f"family {self.name}: audit must return an AuditVerdict or a dict with "
                f"'verdict' one of {', '.join(VERDICTS)} (got {type(found).__name__})"
            )
        return AuditVerdict(
            id=record.get("id"),
            family=self.name,
            verdict=verdict,
            detail=dict(detail),
            readings=list(readings),
        )


#: The optional parts a minimal object may also have, under a full
#: :class:`Family`'s field names, each with the kind of value it must be.
OPTIONAL_PARTS: dict[str, str] = {
    "summarize": "callable",
    "fingerprint": "callable",
    "answer_fingerprint": "callable",
    "answer": "callable",
    "answer_marker": "text",
    "audit": "callable",
    "prompt": "callable",
    "perturb": "callable",
    "difficulty": "callable",
    "curriculum": "mapping",
    "curriculum_notes": "mapping",
    "reward_metrics": "names",
    "gameable_metrics": "names",
    "diagnostic_metrics": "names",
    "report_columns": "names",
    "report_breakdowns": "callable",
}


def _optional_parts(obj: Any) -> dict[str, Any]:
    """The :data:`OPTIONAL_PARTS` ``obj`` has; one of the wrong kind is a
    one-line error (the entry point is then listed as broken)."""
    out: dict[str, Any] = {}
    for part, kind in OPTIONAL_PARTS.items():
        value = getattr(obj, part, None)
        if value is None:
            continue
        if (kind == "callable" and callable(value)) or (kind == "text" and isinstance(value, str)):
            out[part] = value
        elif kind == "mapping" and isinstance(value, Mapping):
            out[part] = dict(value)
        elif kind == "names" and isinstance(value, list | tuple):
            if not all(isinstance(v, str) for v in value):
                raise TsolveError(f"the object's {part!r} must be a list of names")
            out[part] = tuple(value)
        else:
            want = {"callable": "callable", "text": "a string", "mapping": "a dict",
                    "names": "a list of names"}[kind]  # fmt: skip
            raise TsolveError(f"the object's {part!r} is not {want}")
    if "curriculum" in out:
        for knob, levels in out["curriculum"].items():
            if not isinstance(knob, str) or not isinstance(levels, list | tuple) or not levels:
                raise TsolveError(
                    f"the object's 'curriculum' must map option names to lists of levels "
                    f"(got {knob!r}: {levels!r})"
                )
    return out


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
    parts = _optional_parts(obj)
    if "audit" in parts:
        parts["audit"] = PluginAuditor(parts["audit"], name.strip())
    return Family(
        name=name.strip(),
        description=str(getattr(obj, "description", "") or ""),
        version=version,
        generate=PluginGenerator(obj, name.strip(), version),
        options=AnyOption(),
        score=PluginScorer(obj, name.strip()),
        # a minimal plug-in's randomness is its own, so a redraw would change nothing
        distinct=getattr(obj, "distinct", False) is True,  # never on by default
        origin=origin,
        **parts,
    )
