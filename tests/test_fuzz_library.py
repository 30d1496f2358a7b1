"""The fuzz surfaces of the public library calls and of ``tsolve stress``'s
flags (``library-args``, ``facade-entries``, ``stress-flags`` in
:mod:`tsolve.stress.fuzz_adapters`): clean on today's code, and each finds
its defect once the check that fixed it is taken out again."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fuzz_checks import surface_failures

from tsolve.stress.fuzz_surfaces import surface_campaign

SURFACES = ("library-args", "facade-entries", "stress-flags")
HANG_GUARD = 60.0


def _failures(surface: str, n: int) -> list[Any]:
    return surface_failures(surface, n, "finds-the-defect", HANG_GUARD)


@pytest.mark.parametrize("surface", SURFACES)
def test_the_surface_is_clean_today(surface: str) -> None:
    report = surface_campaign(24, seed=0, timeout=HANG_GUARD, surfaces=(surface,))[surface]
    assert report.ok, [f.to_json() for f in report.failures]
    assert report.reported_rows > 0  # it does throw inputs that must be refused


def test_library_args_finds_a_config_and_an_index_let_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tsolve.families.time_puzzles.generate as gen

    def old_config(config: Any, overrides: dict[str, Any]) -> Any:
        base = config or gen.PuzzleConfig()
        return replace(base, **overrides) if overrides else base

    def old_position(value: Any, what: str) -> None:
        if what == "seed" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise gen.TsolveError(f"seed: expected a non-negative integer, got {value!r}")

    monkeypatch.setattr(gen, "_call_config", old_config)
    monkeypatch.setattr(gen, "_check_position", old_position)
    found = _failures("library-args", 80)
    kinds = {f.kind for f in found}
    assert "exception" in kinds  # AttributeError: 'int' object has no attribute 'style'
    assert any("wrote index" in f.message for f in found)  # index=True or -1 in a record


def test_facade_entries_finds_a_silent_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.facade as facade

    monkeypatch.setattr(facade, "_check_record", lambda *a: None)
    found = _failures("facade-entries", 20)
    assert found and all("scorer refuses" in f.message for f in found)


def test_stress_flags_finds_dropped_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.stress.modes as modes

    # The old command: the first check asked for wins, and --config is read
    # only by the property check.
    monkeypatch.setattr(modes, "check_combination", lambda *a: None)
    monkeypatch.setattr(modes, "load_stress_config", lambda path: modes.StressConfig())
    found = _failures("stress-flags", 40)
    messages = " ".join(f.message for f in found)
    assert "dropped" in messages
    assert "does not exist" in messages
