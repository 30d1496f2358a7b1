"""Plain-first option values (tsolve/cli/plain_values.py): on any value, the
coercion tsolve installs gives exactly what Typer's own (pydantic) coercion
gives, the same value of the same type or the same error message; and
``tsolve puzzle --solutions 3`` no longer imports pydantic."""

from __future__ import annotations

import enum
from typing import Annotated, Any

import pytest
import typer
from budget import examples
from cli_main import modules_after
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.cli import plain_values

pytestmark = pytest.mark.skipif(
    plain_values.RuntimeParam is None, reason="this Typer does not coerce through pydantic"
)


class Colour(enum.Enum):
    red = "red"
    green = "Green"


def _options(
    text: Annotated[str, typer.Option()] = "a",
    whole: Annotated[int, typer.Option()] = 1,
    ranged: Annotated[int, typer.Option(min=0, max=50)] = 0,
    lower: Annotated[int | None, typer.Option(min=-3)] = None,
    clamped: Annotated[int, typer.Option(min=0, max=5, clamp=True)] = 0,
    colour: Annotated[Colour, typer.Option()] = Colour.red,
    loose: Annotated[Colour, typer.Option(case_sensitive=False)] = Colour.red,
    flag: Annotated[bool, typer.Option()] = False,
) -> None:
    """A command whose options cover every case plain_value decides."""


def _params() -> dict[str, Any]:
    app = typer.Typer()
    app.command()(_options)
    cmd = typer.main.get_command(app)
    return {p.name: (p, cmd.context_class(cmd)) for p in cmd.params}


PARAMS = _params()


def _outcome(coercion: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any, Any]:
    try:
        result = coercion._coerce_value(value, param=param, ctx=ctx)
    except typer.BadParameter as exc:
        return ("error", exc.format_message(), None)
    except (TypeError, ValueError) as exc:  # Typer's own crash on values no CLI passes
        return ("crash", type(exc).__name__, None)
    return ("ok", result, type(result))


_TEXT = st.text(alphabet="0123456789-+_ .eE٣xRrGgeEnNdD\t", max_size=22)
_VALUES = st.one_of(
    _TEXT,
    st.sampled_from(
        [
            "0",
            "-0",
            "00",
            "007",
            "1_000",
            "_5",
            "5_",
            "1__0",
            "+-1",
            " 5",
            "5 ",
            "+5",
            "1e3",
            "1.0",
            "50",
            "51",
            "٣",
            "9" * 19,
            "-" + "9" * 25,
        ]
    ),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from(["red", "Red", "green", "Green", "GREEN", "blue", ""]),
    st.sampled_from(list(Colour)),
    st.booleans(),
)


@settings(max_examples=examples(300), deadline=None)
@given(name=st.sampled_from(sorted(PARAMS)), value=_VALUES)
def test_plain_first_equals_typers_coercion(name: str, value: Any) -> None:
    param, ctx = PARAMS[name]
    descriptor = param.type_descriptor
    typers = plain_values.build_runtime_param(descriptor)
    ours = plain_values.PlainFirst(
        annotation=descriptor.annotation, parameter_info=descriptor.parameter_info
    )
    assert _outcome(ours, value, param, ctx) == _outcome(typers, value, param, ctx)


def test_plain_values_are_decided_without_pydantic() -> None:
    """The cases that matter for start-up are decided here, not handed on."""
    (p, _), (r, _), (c, ctx) = PARAMS["text"], PARAMS["ranged"], PARAMS["colour"]
    info = r.type_descriptor.parameter_info
    assert plain_values.plain_value(str, p.type_descriptor.parameter_info, "3") == "3"
    assert plain_values.plain_value(int, info, "50") == 50
    assert plain_values.plain_value(int, info, 7) == 7
    assert plain_values.plain_value(int, info, "51") is plain_values.UNDECIDED
    assert plain_values.plain_value(Colour, c.type_descriptor.parameter_info, "Green", ctx) is (
        Colour.green
    )


def test_first_puzzle_imports_no_pydantic() -> None:
    got = modules_after(["puzzle", "--solutions", "3", "--count", "1", "--format", "json"])
    assert "pydantic" not in got["heavy"] and got["metadata"] == []
