"""Option values that need no pydantic: a string, a whole number in range,
an enum's own name. Everything else is left to Typer.

Why: Typer 0.29 turns every option value it is given (a default included)
into its Python type through a pydantic ``TypeAdapter``, so the first option
of any command imports pydantic, pydantic-core and ``importlib.metadata``
(for pydantic's plug-ins): about 165 ms of ``tsolve puzzle --solutions 3``,
more than the puzzle's own work (docs/startup.md). Nearly every value tsolve's
commands get is plain: ``--solutions 3`` is the string ``"3"``, ``--count 5``
the number 5, ``--format json`` a member of ``Fmt``.

How: Typer builds each parameter's coercion on first use and keeps it on the
parameter (``_runtime_param``, a private attribute of Typer's parameters).
:func:`plain_first` sets it, before first use, to :class:`PlainFirst`, which
answers the plain cases itself and hands every other value, and every value
it would reject, to the coercion Typer would have built, so a bad value gets
Typer's own error message. ``tests/test_cli_plain_values.py`` holds the two
equal on random values (hypothesis). With another Typer (no ``typer._coercion``
or no ``_runtime_param``), nothing is changed.
"""

import re
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

try:  # Typer >= 0.29: pydantic-backed coercion, built lazily per parameter.
    from typer._coercion import RuntimeParam, build_runtime_param, resolve_type_descriptor
except ImportError:  # pragma: no cover - older Typer coerces through click types
    RuntimeParam = None  # type: ignore[assignment,misc]

#: Returned by :func:`plain_value` when the value is not plainly of its type.
UNDECIDED: Any = object()

# A whole number as pydantic reads it without doubt: an optional minus sign
# and at most 18 digits, no leading zero, no spaces, signs or underscores.
_WHOLE = re.compile(r"-?(0|[1-9][0-9]{0,17})")


def plain_value(annotation: Any, info: Any, value: Any, ctx: Any = None) -> Any:
    """``value`` as Typer would coerce it to ``annotation`` (with the
    parameter's ``info``: min, max, clamp, case_sensitive), or
    :data:`UNDECIDED` when that is not plain. Never rejects a value."""
    if annotation is str:
        return value if type(value) is str else UNDECIDED
    if annotation is int:
        number: Any = UNDECIDED
        if type(value) is int:
            number = value
        elif type(value) is str and _WHOLE.fullmatch(value):
            number = int(value)
        if number is UNDECIDED or getattr(info, "clamp", False):
            return UNDECIDED
        low, high = getattr(info, "min", None), getattr(info, "max", None)
        if (low is not None and number < low) or (high is not None and number > high):
            return UNDECIDED
        return number
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        if isinstance(value, annotation):
            return value
        if type(value) is not str or getattr(ctx, "token_normalize_func", None) is not None:
            return UNDECIDED
        for member in annotation:
            name = str(member.value)
            if name == value or (
                not getattr(info, "case_sensitive", True) and name.casefold() == value.casefold()
            ):
                return member
    return UNDECIDED


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class PlainFirst(RuntimeParam):
        """Typer's coercion of one parameter, with the plain cases first."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            plain = plain_value(self.annotation, self.parameter_info, value, ctx)
            if plain is not UNDECIDED:
                return plain
            return self.typer_coercion._coerce_value(value, param=param, ctx=ctx)

        @cached_property
        def typer_coercion(self) -> Any:
            """The coercion Typer itself builds for this parameter (pydantic's),
            made the first time a value is not plain."""
            return build_runtime_param(
                resolve_type_descriptor(self.annotation, self.parameter_info)
            )


def plain_first(command: Any) -> Any:
    """Give every parameter of ``command`` and of its subcommands (help
    options included, which Typer makes once per command and keeps) that
    Typer has not yet coerced a :class:`PlainFirst` coercion; return
    ``command``."""
    if RuntimeParam is not None:
        params = list(command.params)
        get_help = getattr(command, "get_help_option", None)
        if get_help is not None:
            params.append(get_help(command.context_class(command)))
        for param in params:
            descriptor = getattr(param, "type_descriptor", None)
            if (
                descriptor is not None
                and descriptor.file_annotation is None
                and getattr(param, "_runtime_param", False) is None
            ):
                param._runtime_param = PlainFirst(
                    annotation=descriptor.annotation, parameter_info=descriptor.parameter_info
                )
    for sub in getattr(command, "commands", {}).values():
        plain_first(sub)
    return command
