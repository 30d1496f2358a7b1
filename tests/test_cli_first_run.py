"""What a new user meets in a first run: help that shows every family's
options and the defaults, output that fits an 80-column terminal, progress
bars that show a rate only once it means something, and a bad Ray address
that fails fast."""

from __future__ import annotations

import re
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import Family, all_families, temporary_family
from tsolve.generators.options import parse_int


def _flat(text: str) -> str:
    """Help text with the boxes and line breaks taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_dataset_help_lists_every_familys_options(capsys: pytest.CaptureFixture[str]) -> None:
    """Through the family contract: a family registered only for this test is
    listed with its option and default, as the built-in ones are."""

    def generate(seed: int, index: int, config: Any) -> dict[str, Any]:
        return {"id": f"x-{index}", "family": "test-knobs", "question": "q"}

    knobs = Family(name="test-knobs", generate=generate, options={"loudness_level": parse_int},
                   build=lambda parsed: {"loudness_level": 7, **parsed})  # fmt: skip
    with temporary_family(knobs):
        for args in (("dataset", "--help"), ("dataset", "span", "--help")):
            got = run_cli(capsys, *args, columns=80)
            assert got.returncode == 0
            text = _flat(got.stdout)
            assert "test-knobs: loudness-level=7." in text
            for fam in all_families():
                if fam.generate is None or not fam.options or not fam.available():
                    continue
                assert f"{fam.name}: " in text
                for name in fam.options:
                    assert re.search(rf"\b{re.escape(name.replace('_', '-'))}\b", text), name
            assert "solutions=1" in text and "style=implicit" in text
            assert max(len(line) for line in got.stdout.splitlines()) <= 80


def test_the_time_puzzles_default_is_stated(capsys: pytest.CaptureFixture[str]) -> None:
    text = _flat(run_cli(capsys, "dataset", "time-puzzles", "--help", columns=200).stdout)
    assert "(default 1: one answer each; the paper's spread is 1-6)" in text
    assert "(default implicit)" in text
