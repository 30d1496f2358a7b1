"""The scaling check (tsolve/stress/scaling.py): every parser and scorer does
linear work on hostile text, counted, not timed; and the check fails on the
quadratic scans hostile input once found (16k digits in claim checking,
60k newlines in TicToc detection)."""

from __future__ import annotations

import re

import pytest

from tsolve.stress.scaling import (
    COMMON_SHAPES,
    MAX_GROWTH,
    Growth,
    Surface,
    WorkMeter,
    check_surface,
    keyword_shape,
    scaling_check,
    shaped,
    surfaces,
)

#: Above every bounded window (claims: 2·240 + 96 characters), so a window's
#: own cost is a constant per call at every size measured.
CI_SIZE = 600
CI_SHAPES = ("digits", "newlines", "spaces", "brackets", "months")


@pytest.mark.parametrize("surface", surfaces(), ids=lambda s: s.name)
def test_every_surface_does_linear_work(surface: Surface) -> None:
    keywords = [keyword_shape(k) for k in surface.shapes]
    growths = check_surface(surface, CI_SIZE, [*CI_SHAPES, *keywords])
    assert len(growths) == len(CI_SHAPES) + len(surface.shapes)
    for g in growths:
        assert g.calls_growth <= MAX_GROWTH, g.to_json()
        if surface.regex_bounded:
            assert g.regex_growth <= MAX_GROWTH, g.to_json()
            assert g.unmetered == 0 or surface.name == "tictoc-detect", g  # json's own regexes
        assert g.ok
    if surface.regex_bounded:  # the meter saw the surface's regex calls
        assert any(g.regex[2] > g.regex[0] > 0 for g in growths)


def _quadratic_python(text: str) -> int:
    return sum(1 for i in range(len(text)) for _ in range(i // 64) if _one())


def _one() -> bool:
    return True


def test_quadratic_python_work_fails() -> None:
    s = Surface("nested-loop", _quadratic_python, ())
    (g,) = check_surface(s, 256, ["digits"])
    assert g.calls_growth > MAX_GROWTH and not g.ok


@pytest.mark.parametrize(
    ("name", "scan", "shape"),
    [
        # The claims grammar's "N days after" on a run of digits
        ("claims-before", lambda t: re.findall(r"\d+\s+days", t), "digits"),
        # TicToc's multiline Action pattern on newlines
        ("tictoc-before", lambda t: re.search(r"^\s*Action\s*:", t, re.M), "newlines"),
    ],
)
def test_the_quadratic_scans_of_issue_22_fail(name: str, scan: object, shape: str) -> None:
    s = Surface(name, scan, (), regex_bounded=True)  # type: ignore[arg-type]
    (g,) = check_surface(s, 256, [shape])
    assert g.regex_growth > MAX_GROWTH and not g.ok, g.to_json()


DAYS = re.compile(r"\d+\s+days")


def _bounded_days(text: str) -> object:
    from tsolve.bounded_scan import bounded_finditer

    return list(bounded_finditer(DAYS, text, 64))


def test_a_bounded_window_scan_of_the_same_pattern_passes() -> None:
    s = Surface("bounded", _bounded_days, (__name__,), regex_bounded=True)
    (g,) = check_surface(s, 1024, ["digits"])
    assert g.ok and g.regex_growth <= MAX_GROWTH and g.unmetered == 0, g.to_json()


def test_the_meter_restores_every_pattern() -> None:
    import tsolve.families.tictoc.detect as detect
    from tsolve.claims.grammar import patterns

    real_compile = re._compile  # type: ignore[attr-defined]
    before = detect._ACTION
    meter = WorkMeter()
    with meter.installed(["tsolve.families.tictoc.detect", "tsolve.claims.grammar"]):
        assert not isinstance(detect._ACTION, re.Pattern)  # swapped for a proxy
    assert detect._ACTION is before
    assert re._compile is real_compile  # type: ignore[attr-defined]
    assert all(isinstance(p.regex, re.Pattern) for p in patterns())


def test_growth_is_marginal_and_flat_work_passes() -> None:
    g = Growth("s", "x", (1, 2, 4), (1000, 1010, 1030), (5, 5, 5), 0, True)
    assert g.calls_growth == 2.0 and g.regex_growth == 0.0 and g.ok


def test_shapes_have_the_exact_size() -> None:
    for unit in COMMON_SHAPES.values():
        assert len(shaped(unit, 777)) == 777


def test_unknown_surface_is_a_one_line_error() -> None:
    from tsolve.errors import TsolveError

    with pytest.raises(TsolveError, match="unknown nope"):
        scaling_check(100, ["nope"])
