"""Hostile input for the adapters: MCP tool and prompt arguments, TicToc
tool-call arguments, and reasoning-gym / facade / verifiers config values.

Three surfaces of :mod:`tsolve.stress.fuzz_surfaces`, each with an oracle of
its own rather than the code under test:

* ``mcp-args``: a valid call of a tool (or the ``task_prompt`` prompt) of the
  MCP server, in this process, with one argument replaced by a hostile value
  (a boolean, a float, a number spelled as text, ``"²"``, 5,000 digits, 100k
  ``[``, a megabyte of text, an unknown argument name). A refusal must be one
  line of at most :data:`MAX_ERROR` characters, never the ``internal error``
  backstop, and a prompt's refusal a JSON-RPC error with code ``-32602``. A
  value of a JSON type the parameter never takes (no tsolve parameter is a
  boolean; a year, a day or a limit is never text or a float) must be
  refused, not coerced. The server must log no traceback.
* ``tictoc-args``: a TicToc file holding one good item and one whose past
  tool call has hostile ``arguments`` (deep nesting, a long number, a lone
  surrogate escape, non-string JSON). The TicToc task must keep the good
  item (one bad row is reported, the rest go on) or refuse in one line.
* ``configs``: a family's config with one hostile value (``reward_metric``
  ``"bogus"``, ``""``, ``"alt_reading"``, ``partial``, a size of ``10**30``,
  a negative or boolean seed, an option of the wrong type). ``validate()``
  may refuse it in one line; what it accepts must then make a dataset whose
  length, first item and reward work: a config error found at the first
  reward of a training run is a failure.

Each ``run`` raises :class:`~tsolve.errors.TsolveError` for a refusal that
keeps these promises (the campaign counts it as reported) and
:class:`AssertionError` for a broken one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tsolve.errors import INTERNAL, TsolveError

#: Longest error a refused MCP call may return: the message plus an echo of
#: a few dozen characters of the caller's value.
MAX_ERROR = 400

_HOSTILE_VALUES: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("true", lambda: True),
    ("false", lambda: False),
    ("float 1.0", lambda: 1.0),
    ("float 2024.5", lambda: 2024.5),
    ("text '1'", lambda: "1"),
    ("text '2024'", lambda: "2024"),
    ("superscript two", lambda: "²"),
    ("Arabic-Indic digits", lambda: "١٢"),
    ("5,000 digits", lambda: "9" * 5000),
    ("100k '['", lambda: "[" * 100_000),
    ("1 MB of text", lambda: "x" * 1_000_000),
    ("null", lambda: None),
    ("empty list", lambda: []),
    ("object", lambda: {"a": 1}),
    ("10**30", lambda: 10**30),
    ("-1", lambda: -1),
    ("lone surrogate", lambda: "\ud800"),
    ("empty text", lambda: ""),
)

#: Valid calls, each a starting point for one hostile argument.
_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("search_calendar", {"calendar_name": "hebrew", "year": 5784, "month": 1, "day": 15}),
    ("search_calendar", {"calendar_name": "gregorian", "year": 2024, "festival_name": "Nowruz"}),
    ("convert_date", {"date": "2024-03-20", "from_calendar": "gregorian",
                      "to_calendars": ["persian"]}),
    ("festival_date", {"festival_name": "Nowruz", "year": 2024}),
    ("solve_facts", {"facts": [{"kind": "month", "params": {"month": 2}}],
                     "domain": {"start": "2024-01-01", "end": "2024-03-31"}, "limit": 5,
                     "time_limit": 5.0}),
    ("lookup_knowledge", {"name": "Obama", "kind": "office"}),
    ("check_claim", {"text": "March 6, 2023 is a Monday."}),
)  # fmt: skip
_PROMPT: dict[str, str] = {"family": "span", "seed": "0", "index": "0"}
#: Parameters that only ever take a JSON integer: text, a float or a boolean
#: there must be refused (an independent statement of the tools' signatures).
_INTEGER_ONLY = {"year", "day", "limit"}

_SERVER: list[Any] = []


def _server() -> Any:
    """The MCP server object, built once per process (building it reads the
    fact-kind schemas), called in this process like the SDK's session does."""
    if not _SERVER:
        from tsolve.adapters.mcp_server import build_server

        _SERVER.append(build_server())
    return _SERVER[0]


class _Tracebacks(logging.Handler):
    """Counts log records that carry a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


@contextmanager
def _no_tracebacks_logged() -> Iterator[None]:
    root = logging.getLogger()
    handler = _Tracebacks()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    if handler.records:
        first = handler.records[0]
        raise AssertionError(f"the server logged a traceback: {first.getMessage()[:120]}")


def mcp_args(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One hostile MCP call (see the module docstring)."""
    what, make = rng.choice(_HOSTILE_VALUES)
    value = make()
    if rng.random() < 0.2:
        arguments = dict(_PROMPT)
        name = rng.choice([*arguments, "extra"])
        arguments[name] = value
        label = f"prompt task_prompt: {name} = {what}"
        return label, lambda: check_prompt_call(arguments, name, value)
    tool, base = rng.choice(_CALLS)
    arguments = dict(base)
    name = rng.choice([*arguments, "month", "limit", "not_a_parameter"])
    arguments[name] = value
    must_refuse = (
        name == "not_a_parameter"
        or isinstance(value, bool)
        or (name in _INTEGER_ONLY and not (isinstance(value, int) and not isinstance(value, bool)))
    )

    def run() -> Any:
        return check_tool_call(tool, arguments, must_refuse)

    return f"{tool}: {name} = {what}", run


def check_tool_call(tool: str, arguments: dict[str, Any], must_refuse: bool) -> Any:
    """One MCP tool call through the server in this process: its result, a
    :class:`TsolveError` for a refusal that keeps the promises, or an
    :class:`AssertionError` (``must_refuse`` and accepted, a long or
    multi-line error, the backstop, a traceback logged)."""
    from mcp.server.mcpserver.exceptions import ToolError

    with _no_tracebacks_logged():
        try:
            result = asyncio.run(_server().call_tool(tool, arguments))
        except ToolError as exc:
            one_bounded_line(str(exc))
            raise TsolveError(str(exc)[:200]) from None
    if must_refuse:
        shown = ", ".join(f"{k}={v!r:.20}" for k, v in arguments.items())
        raise AssertionError(f"{tool}({shown}) was accepted (coerced), not refused")
    content = getattr(result, "structured_content", None)
    return content if content is not None else [str(c) for c in getattr(result, "content", [])]


def check_prompt_call(arguments: dict[str, Any], name: str, value: Any) -> Any:
    """``task_prompt`` with ``arguments[name] = value``, like :func:`check_tool_call`;
    a refusal must be ``-32602``."""
    from mcp.shared.exceptions import MCPError
    from mcp.types import INVALID_PARAMS

    with _no_tracebacks_logged():
        try:
            result = asyncio.run(_server().get_prompt("task_prompt", arguments))
        except MCPError as exc:
            if exc.error.code != INVALID_PARAMS:
                raise AssertionError(
                    f"prompt refused with code {exc.error.code}, not -32602"
                ) from None
            one_bounded_line(exc.error.message)
            raise TsolveError(exc.error.message[:200]) from None
    digits = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19
    if name == "extra" or (name in ("seed", "index") and not digits):
        raise AssertionError(f"prompt task_prompt: {name} = {value!r:.40} was accepted")
    return [m.content.text for m in result.messages]


def one_bounded_line(message: str) -> None:
    if "\n" in message or not message.strip():
        raise AssertionError(f"error is not one line: {message[:120]!r}")
    if len(message) > MAX_ERROR:
        raise AssertionError(f"error of {len(message)} characters echoes the input")
    if INTERNAL in message:
        raise AssertionError(f"backstop: {message[:200]}")


# ------------------------------------------------------------------ TicToc

_TICTOC_ARGUMENTS: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("100k '['", lambda: "[" * 100_000),
    ("100k '{\"a\":'", lambda: '{"a":' * 20_000),
    ("5,000 digits", lambda: "9" * 5000),
    ("a 5,000-digit field", lambda: '{"n": ' + "9" * 5000 + "}"),
    ("not JSON", lambda: "{server: web-3"),
    ("a JSON list", lambda: "[1, 2]"),
    ("a JSON number", lambda: "12"),
    ("an object", lambda: {"server": "web-3"}),
    ("a list", lambda: [1, 2]),
    ("null", lambda: None),
    ("a number", lambda: 10**30),
    ("1e400", lambda: '{"x": 1e400}'),
    ("NaN", lambda: '{"x": NaN}'),
    ("empty text", lambda: ""),
    ("a lone surrogate escape", lambda: '{"server": "\\ud800"}'),
    ("a lone surrogate", lambda: "\ud800"),
)


def _tictoc_item(item_id: str, arguments: Any) -> dict[str, Any]:
    """A TicToc item in the benchmark's public shape (invented content)."""
    when = "2024-06-11T08:00:00Z"
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_load", "arguments": arguments}}  # fmt: skip
    return {
        "id": item_id,
        "history": [
            {"role": "system", "content": "You report server load.", "time": when},
            {"role": "user", "content": "How busy is web-3?", "time": when},
            {"role": "assistant", "content": None, "tool_calls": [call], "time": when},
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "name": "get_load",
                "content": '{"cpu": 91}',
                "time": when,
            },
            {
                "role": "user",
                "content": "Check web-3 again.",
                "time": [when, "2024-06-11T08:05:00Z", "2024-06-11T10:00:00Z"],
            },
        ],
        "function": [
            {
                "type": "function",
                "function": {
                    "name": "get_load",
                    "description": "Current load of a server.",
                    "parameters": {"type": "object", "properties": {"server": {"type": "string"}}},
                },
            }
        ],
    }


def tictoc_args(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A TicToc file with one good item and one hostile one (module docstring)."""
    what, make = rng.choice(_TICTOC_ARGUMENTS)
    arguments = make()
    good_first = rng.random() < 0.5
    return f"tool-call arguments: {what}", lambda: check_tictoc_arguments(arguments, good_first)


def check_tictoc_arguments(arguments: Any, good_first: bool = True) -> Any:
    """The TicToc task's dataset from a file of a good item and one whose past
    tool call has ``arguments``: the good item must be kept, a skipped one
    said on stderr in one line (then this raises that line as a
    :class:`TsolveError`: the input was reported)."""
    items = [_tictoc_item("good", '{"server": "web-3"}'), _tictoc_item("hostile", arguments)]
    if not good_first:
        items.reverse()
    import contextlib
    import io

    from tsolve.adapters.inspect_ai.tictoc_task import tictoc_dataset

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "preferTool_elapse_0.json"
        path.write_text(json.dumps(items), encoding="utf-8")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            dataset = tictoc_dataset(path)
    ids = [str(s.id) for s in dataset]
    if "good@tool-0" not in ids:
        raise AssertionError(f"the good item was dropped with the hostile one: {ids}")
    said = err.getvalue().strip()
    if len(ids) < len(items) and not said:
        raise AssertionError("a bad item was skipped without a word on stderr")
    if said:
        one_bounded_line(said)
    if len(ids) < len(items):  # the hostile item was reported and skipped: counted as reported
        raise TsolveError(said[:200])
    return {"samples": ids}


# ------------------------------------------------------------------ configs

_CONFIG_VALUES: tuple[tuple[str, str, Callable[[], Any]], ...] = (
    ("reward_metric", "bogus", lambda: "bogus"),
    ("reward_metric", "empty", lambda: ""),
    ("reward_metric", "alt_reading", lambda: "alt_reading"),
    ("reward_metric", "partial", lambda: "partial"),
    ("reward_metric", "a number", lambda: 3),
    ("reward_metric", "EM", lambda: "EM"),
    ("reward_metric", "em", lambda: "em"),
    ("reward_metric", "f1", lambda: "f1"),
    ("reward_metric", "accuracy", lambda: "accuracy"),
    ("size", "10**30", lambda: 10**30),
    ("size", "2**63", lambda: 2**63),
    ("size", "0", lambda: 0),
    ("size", "-1", lambda: -1),
    ("size", "true", lambda: True),
    ("size", "2.5", lambda: 2.5),
    ("seed", "-1", lambda: -1),
    ("seed", "true", lambda: True),
    ("seed", "text", lambda: "7"),
    ("seed", "10**30", lambda: 10**30),
)


def _config_families() -> tuple[str, ...]:
    """The built-in families whose configs the adapters take (those that
    generate and score)."""
    from tsolve.stress.adversarial import suite_families

    return suite_families()


def configs(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A family's config with one hostile value (module docstring)."""
    family = rng.choice(_config_families())
    field, what, make = rng.choice(_CONFIG_VALUES)
    value = make()
    kind = rng.choice(("reasoning-gym", "facade", "verifiers"))

    return f"{kind} {family}: {field} = {what}", lambda: check_config(kind, family, field, value)


def check_config(kind: str, family: str, field: str, value: Any) -> Any:
    """A ``kind`` (``reasoning-gym``, ``facade``, ``verifiers``) config of
    ``family`` with ``field = value``: refused (:class:`TsolveError`), or a
    dataset that works to its first reward (else :class:`AssertionError`)."""
    kwargs: dict[str, Any] = {"seed": 1, "size": 2, field: value}
    with warnings.catch_warnings():  # a small run's coverage notes are not the point
        warnings.simplefilter("ignore")
        return _config_run(kind, family, kwargs, f"{field}={value!r:.40}")


def _config_run(kind: str, family: str, kwargs: dict[str, Any], what: str) -> Any:
    from tsolve.adapters.reasoning_gym_configs import BUILTIN_CONFIGS
    from tsolve.facade import create_dataset

    try:
        if kind == "reasoning-gym":
            BUILTIN_CONFIGS[family](**kwargs).validate()
        elif kind == "verifiers":
            _verifiers_config(family, kwargs)
        dataset = create_dataset(family, **kwargs)
    except (TsolveError, ValueError) as exc:  # a pydantic ValidationError is a ValueError
        raise TsolveError(" ".join(str(exc).split())[:200]) from None
    try:  # accepted: the dataset must now work to its first reward
        size = len(dataset)
        if size == 0:
            return {"size": 0}
        first = dataset[0]
        reward = dataset.score_answer(str(first["answer"]), first)
    except Exception as exc:
        raise AssertionError(
            f"accepted {what}, then {type(exc).__name__}: {str(exc)[:120]}"
        ) from None
    if not 0.0 <= reward <= 1.0:
        raise AssertionError(f"reward {reward} outside [0, 1]")
    return {"size": size, "reward": reward}


def _verifiers_config(family: str, kwargs: dict[str, Any]) -> None:
    """The verifiers taskset config's validation of the same values (skipped
    where verifiers is not installed: the facade check then stands alone)."""
    try:
        from tsolve.adapters.verifiers_taskset import TsolveTasksetConfig
    except ImportError:
        return
    fields: dict[str, Any] = {"family": family, "seed": kwargs["seed"], "count": kwargs["size"]}
    if "reward_metric" in kwargs:
        fields["task"] = {"reward_metric": kwargs["reward_metric"]}
    TsolveTasksetConfig.model_validate(fields)


# ------------------------------------------------------------------ library calls
#
# Three surfaces of the public library and of ``tsolve stress`` itself, each
# judged by what the caller was promised rather than by the code under test:
#
# * ``library-args``: the puzzle generator's public calls with hostile
#   arguments, a surface of the family that exports them (its
#   ``fuzz_surfaces`` part: a refusal must be one line, an accepted call must
#   write the index asked for).
# * ``facade-entries``: ``tsolve.score_answer`` on a facade entry whose
#   record is corrupt (a mutated record, or a bare ``{"family": ...}``). When
#   the family's own scorer refuses the record even for the empty answer, the
#   facade must refuse it too (one line), never return a reward: a training
#   loop fed a corrupt entry would otherwise get 0 forever.
# * ``stress-flags``: ``tsolve stress``'s choice of check
#   (:func:`tsolve.stress.modes.choose_check`) for a random set of its checks
#   and options. It must refuse in one line or choose every check asked for:
#   choosing one and dropping the others, or choosing one with a ``--config``
#   file that does not exist, is a failure.


def facade_entries(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A facade entry with a corrupt record and an answer (block comment above)."""
    from tsolve.stress.fuzz import base_records, mutate, random_output

    family = rng.choice(_config_families())
    if rng.random() < 0.3:
        record: dict[str, Any] = {"family": family}
        what = "bare family"
    else:
        record, what = mutate(rng.choice(base_records(family, 0)), rng)
        record["family"] = family
    answer = rng.choice(("No", "", None, "MY ANSWER: 2024-01-01", random_output(rng, 200)))
    entry = {"question": "q", "answer": "a", "metadata": {"record": record}}
    return f"{family}: {what[:80]}", lambda: check_facade_entry(family, entry, answer)


def check_facade_entry(family: str, entry: dict[str, Any], answer: Any) -> Any:
    """``score_answer(answer, entry)``: refused in one line, or a reward in
    [0, 1], and a reward only for a record the family's scorer judges."""
    from tsolve.contract import get_family
    from tsolve.facade import score_answer

    record = entry["metadata"]["record"]
    try:
        get_family(family).require("score")(record, "", diagnose=False)
        judged = True
    except Exception:
        judged = False
    try:
        reward = score_answer(answer, entry)
    except TsolveError as exc:
        one_bounded_line(str(exc))
        raise
    if not judged:
        raise AssertionError(
            f"reward {reward!r} for a record the {family} scorer refuses (a corrupt entry "
            "must be an error, not a reward)"
        )
    if not 0.0 <= reward <= 1.0:
        raise AssertionError(f"reward {reward!r} outside [0, 1]")
    return {"reward": reward}


_STRESS_CHECKS = ("--adversarial", "--shortcuts", "--fuzz", "--scaling")


def stress_flags(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """``tsolve stress`` with a random combination of its checks and options."""
    checks = [c for c in _STRESS_CHECKS if rng.random() < 0.35]
    extras = [x for x in ("config", "missing-config", "case", "budget") if rng.random() < 0.25]
    label = " ".join([*checks, *(f"[{x}]" for x in extras)]) or "(property check)"
    return label, lambda: check_stress_flags(checks, extras)


def check_stress_flags(checks: list[str], extras: list[str]) -> Any:
    """:func:`tsolve.stress.modes.choose_check` (what ``tsolve stress``
    dispatches on) refuses in one line, or picks the one check asked for,
    with nothing dropped (see the block comment)."""
    from tsolve.stress.modes import MODES, PROPERTY, choose_check

    with tempfile.TemporaryDirectory() as tmp:
        config: Path | None = None
        if "config" in extras:
            config = Path(tmp) / "stress.json"
            config.write_text("{}")
        if "missing-config" in extras:
            config = Path(tmp) / "missing.json"
        try:
            ran, _cfg = choose_check(
                {flag: flag in checks for flag in MODES}, config, "case" in extras,
                "budget" in extras,
            )  # fmt: skip
        except TsolveError as exc:
            one_bounded_line(str(exc))
            raise
    wanted = set(checks) or {PROPERTY}
    dropped = sorted(wanted - {ran})
    if "missing-config" in extras:
        raise AssertionError(f"ran {ran} with a --config that does not exist")
    if dropped:
        raise AssertionError(f"ran {ran}; dropped {', '.join(dropped)}")
    if ran != PROPERTY and ({"config", "case"} & set(extras)):
        raise AssertionError(f"ran {ran}; dropped the property check's --config/--case")
    if "budget" in extras and ran != "--fuzz":
        raise AssertionError(f"ran {ran}; dropped --budget")
    return {"ran": ran}
