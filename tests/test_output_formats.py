"""Every command with machine output takes the same format
names (text, json, jsonl) and writes strict JSON: ``json`` one document (an
array of items for a command that streams them), ``jsonl`` one object per
line. The values are checked against what the command's own jsonl says, so a
json writer that drops or reorders items fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tsolve.cli.app import app, command
from tsolve.cli.output import FORMATS

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
LOGISTICS = str(ROOT / "tests/fixtures/unseentimeqa_sample.jsonl")

COMMANDS = {
    "check-claims": ["check-claims", "March 6, 2023 is a Tuesday. 2024 is a leap year."],
    "span": ["span", "--date", "2024-03-01", "--count", "3"],
    "logistics answer": ["logistics", "answer", LOGISTICS],
    "logistics generate": ["logistics", "generate", "--count", "2", "--depth", "2"],
    "tempo tag": ["tempo", "tag", "from Q3 2023 to the 1990s"],
    "families": ["families"],
    "calendar convert": ["calendar", "convert", "2024-04-23", "--to", "hebrew"],
}


def strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} is not strict JSON")

    return json.loads(text, parse_constant=refuse)


def run(args: list[str], fmt: str) -> str:
    r = runner.invoke(app, [*args, "--format", fmt])
    assert r.exit_code in (0, 1), (r.exit_code, r.stderr, r.exception)
    assert "Traceback" not in r.stderr
    return r.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_json_and_jsonl_agree(name: str) -> None:
    args = COMMANDS[name]
    lines = [strict(line) for line in run(args, "jsonl").splitlines()]
    doc = strict(run(args, "json"))
    assert lines, "nothing written"
    if isinstance(doc, list):  # a stream of items: the same items as an array
        assert doc == lines
    else:  # one report: the same report on one line
        assert [doc] == lines


def _format_options() -> list[tuple[str, Any]]:
    """Every command's ``--format`` option (typer may bring its own click, so
    the tree is walked by attribute, not by class)."""
    found: list[tuple[str, Any]] = []

    def walk(cmd: Any, path: str) -> None:
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                walk(sub, f"{path} {name}".strip())
            return
        for p in cmd.params:
            if "--format" in getattr(p, "opts", ()):
                found.append((path, p))

    walk(command(), "")
    return found


def test_every_format_option_offers_the_same_names() -> None:
    """Where the choices are declared (an enum), they are the shared list;
    ``dataset`` (``dataset make``) names file formats and is the one exception."""
    options = _format_options()
    assert len(options) >= 15
    for path, opt in options:
        if path in ("dataset", "dataset make"):
            continue
        choices = getattr(getattr(opt, "type", None), "choices", None)
        if choices is not None:
            assert tuple(choices) == FORMATS, path
        help_text = opt.help or ""
        assert all(f in help_text for f in FORMATS), (path, help_text)


@pytest.mark.parametrize(("total", "bar"), [(0, False), (1, False), (3, True), (None, True)])
def test_a_progress_bar_only_for_more_than_one_item(
    monkeypatch: pytest.MonkeyPatch, total: int | None, bar: bool
) -> None:
    """On a terminal, ``tracked`` draws a bar unless it knows there is at most
    one item (a bar from 0/1 to 1/1 says nothing); the items pass through either way."""
    import contextlib
    import sys

    import tsolve.cli.output as output

    drawn: list[int | None] = []

    @contextlib.contextmanager
    def recording(n: int | None, label: str, enabled: bool = True) -> Any:
        drawn.append(n)

        class Bar:
            task_ids = (0,)

            def advance(self, task: int) -> None:
                pass

        yield Bar()

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(output, "progress", recording)
    items = list(range(total if total is not None else 2))
    assert list(output.tracked(iter(items), total, "puzzles")) == items
    assert drawn == ([total] if bar else [])
