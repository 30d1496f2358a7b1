"""The timestamp model of §2.4 / Appendix B.4: bounds, means, determinism, and a
round trip through the audit (a stamped conversation must read back as the
sensitivity it was stamped with)."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.errors import TsolveError
from tsolve.families.tictoc.audit import audit_samples
from tsolve.families.tictoc.data import parse_sample, parse_time
from tsolve.families.tictoc.timestamp import (
    GENERATE,
    READ,
    WRITE,
    draw_gaps,
    draw_speeds,
    stamp,
    stamp_file,
    truncated_lognormal,
    truncated_normal,
)

# Table 4 in seconds, written out independently (30-day month)
M, D, H, MIN = 30 * 86400, 86400, 3600, 60
BOUNDS = {
    "low": ((MIN, 6 * MIN), (D, 6 * D), (M, 6 * M)),
    "medium": ((MIN, 6 * MIN), (H, 6 * H), (D, 6 * D)),
    "high": ((1, 6), (MIN, 6 * MIN), (H, 6 * H)),
}
UNITS = {"low": (MIN, D, M), "medium": (MIN, H, D), "high": (1, MIN, H)}


def phi(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def Phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def tn_mean(mu: float, sd: float, a: float, b: float) -> float:
    """Closed form of the truncated normal mean (Johnson, Kotz & Balakrishnan)."""
    al, be = (a - mu) / sd, (b - mu) / sd
    pb, fb = (1.0, 0.0) if math.isinf(be) else (Phi(be), phi(be))
    return mu + sd * (phi(al) - fb) / (pb - Phi(al))


def tln_mean_lower(mu: float, sd: float, a: float) -> float:
    """Mean of exp(N(mu, sd²)) conditioned on being at least ``a``."""
    la = math.log(a)
    return (
        math.exp(mu + sd * sd / 2) * (1 - Phi((la - mu - sd * sd) / sd)) / (1 - Phi((la - mu) / sd))
    )


def test_table4_cell_mean_by_hand() -> None:
    # TN(3, 1, [1, 6]): 3 + (φ(-2) - φ(3)) / (Φ(3) - Φ(-2)) = 3.0508 (to 4 places)
    assert tn_mean(3, 1, 1, 6) == pytest.approx(3.0508, abs=1e-4)


@pytest.mark.parametrize("sensitivity", ["low", "medium", "high"])
def test_gap_means_match_table4(sensitivity: str) -> None:
    n = 20_000
    gaps = draw_gaps(np.random.default_rng(7), sensitivity, n)  # type: ignore[arg-type]
    for k, unit in enumerate(UNITS[sensitivity]):
        x = gaps[:, k] / unit
        # 6 standard errors (sd ≤ 1) plus rounding to whole seconds: a generous, fixed-seed check
        assert x.mean() == pytest.approx(tn_mean(3, 1, 1, 6), abs=6 / math.sqrt(n) + 0.5 / unit)
        lo, hi = BOUNDS[sensitivity][k]
        assert gaps[:, k].min() >= lo and gaps[:, k].max() <= hi


def test_speed_distributions_match_table3() -> None:
    rng = np.random.default_rng(11)
    n = 20_000
    r = truncated_normal(rng, *READ, n)
    g = truncated_normal(rng, *GENERATE, n)
    w = truncated_lognormal(rng, *WRITE, n)
    assert r.min() >= 50 and g.min() >= 10 and w.min() >= 5
    assert r.mean() == pytest.approx(tn_mean(238, 60, 50, math.inf), abs=6 * 60 / math.sqrt(n))
    assert g.mean() == pytest.approx(tn_mean(40, 16, 10, math.inf), abs=6 * 16 / math.sqrt(n))
    # ln w ~ N(3.61, 0.40): a mean near exp(3.61 + 0.08) = 40 words per minute
    sd_w = math.exp(3.61 + 0.08) * math.sqrt(math.exp(0.16) - 1)
    assert w.mean() == pytest.approx(tln_mean_lower(3.61, 0.40, 5), abs=6 * sd_w / math.sqrt(n))


def conversation(n_turns: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful agent."}]
    for i in range(n_turns):
        msgs.append({"role": "user", "content": f"question number {i} " * (i % 4 + 1)})
        if i % 2:
            call = {
                "id": f"c{i}",
                "type": "function",
                "function": {"name": "get", "arguments": '{"q": 1}'},
            }
            msgs.append({"role": "assistant", "content": None, "tool_calls": [call]})
            msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": "42"})
        msgs.append({"role": "assistant", "content": "an answer of several words " * (i % 3 + 1)})
    msgs.append({"role": "user", "content": "and now?"})
    return msgs


START = dt.datetime(2025, 3, 1, 9, tzinfo=dt.timezone.utc)


@settings(max_examples=examples(30))
@given(st.integers(0, 2**32 - 1), st.sampled_from(["low", "medium", "high"]), st.integers(1, 6))
def test_stamped_conversations_are_monotone_in_bounds_and_audit_back(
    seed: int, sensitivity: Any, turns: int
) -> None:
    msgs = conversation(turns)
    history, gaps, _ = stamp(msgs, sensitivity, np.random.default_rng(seed), START)
    times = [parse_time(m["time"], "t") for m in history[:-1]]
    assert times[0] == START and all(a <= b for a, b in itertools.pairwise(times))
    finals = [parse_time(t, "t") for t in history[-1]["time"]]
    for k, (lo, hi) in enumerate(BOUNDS[sensitivity]):
        assert lo <= (finals[k] - times[-1]).total_seconds() == gaps[k] <= hi
    sample = parse_sample({"id": "x", "history": history}, "tool", 0, "gen")
    (result,) = audit_samples([sample])
    assert result.sensitivity == sensitivity and result.violations == []
    # the messages themselves are unchanged apart from their time
    assert [{k: v for k, v in m.items() if k != "time"} for m in history] == msgs


def test_speeds_are_within_their_truncation_bounds() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        s = draw_speeds(rng)
        assert s.read_wpm >= 50 and s.write_wpm >= 5 and s.generate_wps >= 10


def test_stamp_file_is_reproducible_and_per_record(tmp_path: Path) -> None:
    rows = [{"id": f"c{i}", "messages": conversation(i + 1)} for i in range(3)]
    path = tmp_path / "convs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    a = list(stamp_file(path, "high", seed=5))
    b = list(stamp_file(path, "high", seed=5))
    c = list(stamp_file(path, "high", seed=6))
    assert a == b and a != c
    # record i depends on (seed, i) only: stamping a one-row file gives row 0's result
    single = tmp_path / "one.jsonl"
    single.write_text(json.dumps(rows[0]) + "\n")
    assert next(iter(stamp_file(single, "high", seed=5))) == a[0]


def test_a_bare_message_list_is_one_conversation(tmp_path: Path) -> None:
    path = tmp_path / "msgs.json"
    path.write_text(json.dumps(conversation(2)))
    (out,) = list(stamp_file(path, "low", seed=1))
    assert isinstance(out, dict) and len(out["history"]) == len(conversation(2))
    assert isinstance(out["history"][-1]["time"], list) and len(out["history"][-1]["time"]) == 3


def test_bad_conversations_are_reported_rows(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    rows = [
        {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "x"}]},
        {"messages": "nope"},
        {"messages": conversation(1)},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = list(stamp_file(path, "medium", seed=0))
    assert [isinstance(o, dict) for o in out] == [False, False, True]
    assert "'user' (the final question)" in str(out[0]) and "expected a list" in str(out[1])
    with pytest.raises(TsolveError, match="sensitivity"):
        list(stamp_file(path, "extreme", seed=0))  # type: ignore[arg-type]
