"""MCP arguments checked strictly, against the schema the client was shown,
before the SDK coerces or decodes anything.

Why a second check before the SDK's own: the SDK validates tool arguments
with pydantic in lax mode, after a pass that JSON-decodes any string given
for a parameter that is not a plain string. Lax mode turns ``true`` into
``1``, ``"2024"`` into ``2024`` and ``2.0`` into ``2``: a model that sent
``month: true`` silently got January, and ``limit: true`` one answer. The
decoding pass raises ``RecursionError`` or ``ValueError`` on a long string of
``[`` or digits. Checked here first, each argument already has its final JSON
type and a bounded length when the SDK sees it, so nothing is coerced and
nothing is decoded that could blow up.

The rules, for tools (:func:`check_tool_arguments`): an argument the tool
does not declare is refused; booleans are not numbers and floats are not
integers; a string is never a number; every string has a length cap (the
schema's ``maxLength``, else :data:`MAX_TEXT`). For prompts
(:func:`check_prompt_arguments`, whose arguments MCP defines as strings):
every required argument is there, no undeclared one, each at most
:data:`MAX_PROMPT_TEXT` characters. Every message echoes a value through
:func:`tsolve.records.validation.shown`, so an error is never longer than a
few dozen characters of the caller's input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.validation import shown, with_article

#: Longest string accepted for a tool parameter whose schema sets no
#: ``maxLength``. Kept well below the depth at which the SDK's decoding of a
#: string of ``[`` overflows the stack (near 1,000).
MAX_TEXT = 200
#: Longest prompt argument accepted (a family name, a seed in digits).
MAX_PROMPT_TEXT = 100


def json_type(value: Any) -> str:
    """The JSON Schema type of a decoded JSON value; ``bool`` is checked before
    ``int`` since Python counts it as one."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The alternatives a property allows: its ``anyOf`` / ``oneOf`` branches, or itself."""
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return [b for b in schema[key] if isinstance(b, Mapping)]
    return [schema]


def _types(branch: Mapping[str, Any]) -> set[str]:
    declared = branch.get("type")
    if declared is None:
        return set()  # any type: the SDK's validation decides
    names = {declared} if isinstance(declared, str) else set(declared)
    if "number" in names:
        names.add("integer")  # JSON Schema: every integer is a number, a boolean is neither
    return names


def check_value(field: str, value: Any, schema: Mapping[str, Any]) -> None:
    """``value`` has a JSON type ``schema`` allows, and a string is within its cap."""
    got = json_type(value)
    branches = _branches(schema)
    matching = [b for b in branches if not _types(b) or got in _types(b)]
    if not matching:
        wanted = " or ".join(dict.fromkeys(str(b.get("type")) for b in branches))
        raise TsolveError(f"{field}: expected {wanted}, got {with_article(got)} {shown(value, 40)}")
    if isinstance(value, str):
        caps = [b.get("maxLength") for b in matching] + [schema.get("maxLength")]
        cap = min((c for c in caps if isinstance(c, int)), default=MAX_TEXT)
        if len(value) > cap:
            raise TsolveError(
                f"{field}: expected a string of at most {cap} characters, "
                f"got {len(value)} characters"
            )


def check_tool_arguments(arguments: Any, schema: Mapping[str, Any]) -> None:
    """Every argument of a tool call against the tool's input schema (the one
    ``tools/list`` shows). Missing required arguments and bounds are left to
    the SDK's validation, whose messages echo nothing."""
    if not isinstance(arguments, Mapping):
        raise TsolveError(f"arguments: expected an object, got {shown(arguments)}")
    properties = schema.get("properties") or {}
    for name, value in arguments.items():
        if name not in properties:
            known = ", ".join(properties) or "none"
            raise TsolveError(f"{shown(name)}: unknown argument (this tool takes: {known})")
        check_value(name, value, properties[name])


def check_prompt_arguments(
    arguments: Mapping[str, Any] | None, declared: Iterable[tuple[str, bool]]
) -> None:
    """A prompt's arguments against its declared ``(name, required)`` pairs."""
    given = dict(arguments or {})
    names = dict(declared)
    for name, value in given.items():
        if name not in names:
            known = ", ".join(names) or "none"
            raise TsolveError(f"{shown(name)}: unknown argument (this prompt takes: {known})")
        if not isinstance(value, str):
            raise TsolveError(f"{name}: expected a string, got {shown(value)}")
        if len(value) > MAX_PROMPT_TEXT:
            raise TsolveError(
                f"{name}: expected at most {MAX_PROMPT_TEXT} characters, got {len(value)}"
            )
    missing = [name for name, required in names.items() if required and name not in given]
    if missing:
        raise TsolveError(f"missing required argument(s): {', '.join(missing)}")
