"""Each fact kind's JSON schema, derived from its declaration.

A fact's ``params`` are exactly its dataclass fields (:mod:`.base`), and
:meth:`~tsolve.encodings.facts.base.Fact.from_params` checks a value against
the field's declared type. The schema is read off the same declaration, so
it cannot drift from what the reader accepts: ``int`` -> integer, ``str`` ->
non-empty string, ``bool``, ``X | None``, ``tuple[T, ...]`` -> array of T,
``tuple[A, B]`` -> a two-item array, ``Literal[...]`` -> enum. What a type
cannot say (a weekday's spelling, a month in 1..12) is checked when the fact
is built, with a one-line error naming the field; the schema's example and
description say it for people and agents.

Agents see these through the MCP server (``list_fact_kinds`` and the
``solve_facts`` input schema, docs/mcp.md).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from tsolve.encodings.facts.base import FACT_TYPES, Fact

#: One valid fact of each kind, as a record (and ``solve_facts``) holds it.
#: tests/test_mcp_polish.py reads each back through ``fact_from_json``.
EXAMPLES: dict[str, dict[str, Any]] = {
    "year": {"year": 2024},
    "decade": {"decade": 1990},
    "leap_year": {"leap": True},
    "month": {"month": 3},
    "season": {"season": "winter"},
    "weekday": {"weekday": "Monday"},
    "weekdays": {"weekdays": ["Tuesday", "Saturday"]},
    "weekday_in_month": {"weekday": "Sunday", "nth": 2},
    "day_of_month": {"day": 13},
    "day_of_month_range": {"relation": "before", "day": 10},
    "person_alive": {"person": "Ada Lovelace", "born": "1815-12-10", "died": "1852-11-27"},
    "us_president": {"president": "Gerald Ford", "terms": [["1974-08-09", "1977-01-20"]]},
    "sports_event_year": {"event": "summer_olympics", "years": [1996, 2000, 2004]},
    "event_relation": {
        "event": "the Apollo 11 mission",
        "start": "1969-07-16",
        "end": "1969-07-24",
        "relation": "same_year",
    },
    "chinese_zodiac": {"animal": "Dragon"},
    "lunar_month": {"month": 8, "leap": False},
    "date_range": {"start": "1950-01-05", "end": "1990-01-05", "ends": "unstated"},
    "year_range": {"first": 1800, "last": 2050},
    "year_rule": {"modulus": 4, "remainder": 2, "since": 1930, "excluded": [1942, 1946]},
}


def type_schema(tp: Any) -> dict[str, Any]:
    """The JSON schema of a field's declared type (see the module docstring)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [type_schema(arg) for arg in typing.get_args(tp)]}
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": type_schema(args[0]), "maxItems": 1000}
        return {
            "type": "array",
            "prefixItems": [type_schema(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string", "minLength": 1}
    raise TypeError(f"no JSON schema for field type {tp!r}")


def params_schema(cls: type[Fact]) -> dict[str, Any]:
    """The schema of ``cls``'s ``params`` object: its fields, required unless
    they have a default, nothing else."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    return {
        "type": "object",
        "properties": {f.name: type_schema(hints[f.name]) for f in fields},
        "required": [f.name for f in fields if f.default is dataclasses.MISSING],
        "additionalProperties": False,
    }


def fact_schema(kind: str) -> dict[str, Any]:
    """The schema of one fact of ``kind`` (``{kind, params}``; a record's
    other fact keys, such as ``text``, are read past and allowed)."""
    cls = FACT_TYPES[kind]
    doc = " ".join((cls.__doc__ or "").split())
    generated = doc.startswith(f"{cls.__name__}(")  # the dataclass default, not prose
    out: dict[str, Any] = {
        "title": kind,
        "type": "object",
        "properties": {"kind": {"const": kind}, "params": params_schema(cls)},
        "required": ["kind", "params"],
    }
    if doc and not generated:
        out["description"] = doc
    if kind in EXAMPLES:
        out["examples"] = [{"kind": kind, "params": EXAMPLES[kind]}]
    return out


def fact_kinds() -> list[dict[str, Any]]:
    """Every registered kind: its name, whether it is a knowledge-based anchor,
    its schema, and an example fact."""
    return [
        {
            "kind": kind,
            "anchor": bool(cls.anchor),
            "schema": fact_schema(kind),
            "example": {"kind": kind, "params": EXAMPLES.get(kind)},
        }
        for kind, cls in FACT_TYPES.items()
    ]


def any_fact_schema() -> dict[str, Any]:
    """One schema for a fact of any kind: ``oneOf`` the kinds' schemas."""
    return {"oneOf": [fact_schema(kind) for kind in FACT_TYPES]}
