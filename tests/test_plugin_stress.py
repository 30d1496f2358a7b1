"""A plug-in family gets ``tsolve stress --adversarial`` and ``--shortcuts``
from the contract's defaults alone: the adversarial suite's generic view of
an answer (the gold and the run's other golds as candidates), the honest
marker styles, and the generic shortcut probes. The family here is the
minimal contract (``name``, ``generate``, ``score``), adapted as an entry
point's object is, and registered in-process."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import temporary_family
from tsolve.contract.plugin import adapt

COLOURS = ("red", "green", "blue", "yellow", "purple")


class _Colours:
    """Which colour comes ``k`` steps after another in a fixed cycle. The
    answer is the one colour of the last line that names any, so listing
    colours or hedging scores 0 (``strict``; else any mention counts)."""

    name = "colour-steps"

    def __init__(self, strict: bool = True) -> None:
        self.strict = strict

    def generate(self, seed: int, index: int, params: dict[str, Any]) -> dict[str, Any]:
        rng = random.Random(f"{seed}:{index}")
        start, k = rng.randrange(len(COLOURS)), rng.randint(1, 40)
        return {"id": f"c-{seed}-{index}",
                "question": f"Colours cycle {', '.join(COLOURS)}. Which is {k} after "
                            f"{COLOURS[start]}?",
                "answer": COLOURS[(start + k) % len(COLOURS)]}  # fmt: skip

    def score(self, record: dict[str, Any], output: str) -> dict[str, float]:
        if not self.strict:  # a scorer a hedge can farm: any mention counts
            return {"accuracy": float(record["answer"] in output.lower())}
        named = [set(_COLOUR.findall(ln)) for ln in output.lower().splitlines()]
        last = next((c for c in reversed(named) if c), set())  # the last line naming one
        return {"accuracy": float(last == {record["answer"]})}


_COLOUR = re.compile(r"(?<![a-z])(" + "|".join(COLOURS) + r")(?![a-z])")


@pytest.fixture
def plugin() -> Iterator[str]:
    with temporary_family(adapt(_Colours(), "test (in-process)")):
        yield _Colours.name


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    res = run_cli(capsys, "stress", *args, "--format", "json", "--quiet")
    assert res.stderr == "", res.stderr
    return res.returncode, json.loads(res.stdout)


def test_a_plugin_family_runs_the_adversarial_suite(
    plugin: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(capsys, plugin, "--adversarial", "--n", "30")
    assert (code, report["failures"]) == (0, [])
    mine = report["families"][plugin]
    assert mine["n"] == 30
    # The generic view lists other golds: the hedger that names every colour is there.
    assert mine["no_answer"]["list every candidate (or)"]["accuracy"] == 0.0
    assert mine["honest"]["gold after the marker"]["accuracy"] == 1.0
    assert mine["honest_styles"]["bold marker, colon inside"]["accuracy"] == 1.0
    assert 0.0 < mine["baseline"]["accuracy"] < 1.0


def test_a_gameable_plugin_scorer_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    with temporary_family(adapt(_Colours(strict=False), "test (in-process)")):
        code, report = _report(capsys, _Colours.name, "--adversarial", "--n", "30")
    assert code == 1
    assert any("list every candidate" in line for line in report["failures"])


def test_a_plugin_family_runs_the_shortcut_probes(
    plugin: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(capsys, plugin, "--shortcuts", "--n", "40")
    assert code in (0, 1)  # a probe above chance is a finding, not an error
    probes = {r["probe"]: r for r in report["probes"] if r["family"] == plugin}
    assert {"commonest gold", "random gold", "lookup by prompt", "n-gram classifier"} <= set(probes)
    assert probes["commonest gold"]["n"] == 40 and probes["commonest gold"]["skipped"] is None


def test_an_unknown_family_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    res = run_cli(capsys, "stress", "no-such-family", "--adversarial")
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "unknown family 'no-such-family'" in res.stderr
