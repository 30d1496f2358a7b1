"""SPAN's reference dates: each record's "today" drawn from a window of dates
(default the SPAN paper's 1960-2060), the same option in every integration,
one-line errors for bad windows, and the gold still exact from every date
(checked by the independent oracle, tests/span_oracle.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from budget import examples
from cli_main import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from span_oracle import check_record, content_text, lib_fields

from tsolve.calendars.variants import disputed_days
from tsolve.errors import TsolveError
from tsolve.facade import record_of
from tsolve.families.span.encoding import (
    SpanQuestion,
    answers_under,
    canonical_reading,
    fields_of,
    question_of,
)
from tsolve.families.span.generate import (
    DEFAULT_DATE_RANGE,
    SpanConfig,
    generate_question,
    generate_questions,
)
from tsolve.records.gold_fields import record_in

FIRST, LAST = dt.date(1900, 1, 31), dt.date(2100, 12, 31)  # every calendar table's range


def _ref(rec: dict[str, Any]) -> str:
    return str(rec["params"]["reference_date"]["gregorian"])


def _disputed(day: dt.date) -> bool:
    n = day.toordinal()
    return any(a <= n <= b for c in ("chinese", "islamic-umalqura") for a, b in disputed_days(c))


def test_a_default_file_spans_the_papers_decades() -> None:
    recs = list(generate_questions(300, 0, SpanConfig()))
    refs = [_ref(r) for r in recs]
    assert all("1960-01-01" <= d <= "2060-12-31" for d in refs)
    assert len({d[:4] for d in refs}) >= 50
    # past and future decades both, and no date that most records share
    assert min(refs) < "1975" and max(refs) > "2045"
    assert Counter(refs).most_common(1)[0][1] <= 3
    # the question states the record's reference date; the id, which travels
    # beside the prompt, holds nothing of it (version 5 ids held its Gregorian form)
    for r in recs:
        assert r["id"].startswith(f"span-0-{r['generator']['index']}-")
        assert _ref(r) not in r["id"] and _ref(r)[:4] not in r["id"]
        ref_text = r["params"]["reference_date"]["text"]
        assert (
            r["question"].startswith("Today\u2019s date on the ")
            and f"\u201c{ref_text}\u201d" in r["question"]
        )
    assert SpanConfig().date_range == DEFAULT_DATE_RANGE == "1960-01-01..2060-12-31"


def _fixed_today_score(recs: list[dict[str, Any]], today: dt.date) -> float:
    """The policy that never converts the stated date: it assumes ``today``
    (Gregorian), computes the answer from it where the target calendar is
    Gregorian (the question's offset or festival, read from the record's
    params, which restate its text), and answers "No" (polar) or nothing
    (content) elsewhere."""
    right = 0
    for r in recs:
        p = r["params"]
        if p["target_calendar"] != "gregorian":
            right += r["answer"] == "No"
            continue
        q = question_of(r)
        assumed = fields_of(q.source, today.toordinal())
        q = SpanQuestion(q.source, q.target, assumed, q.offset, q.unit, q.sign, q.festival,
                         "content", None)  # fmt: skip
        (fields,) = answers_under(q, canonical_reading(q)) or {None}
        if fields is None:
            continue
        if r["format"] == "polar":
            c = p["candidate"]
            yes = (c["year"], c["month"], c["day"], bool(c.get("leap", False))) == fields
            right += r["answer"] == ("Yes" if yes else "No")
        else:
            g = r["gold"]
            right += (g["year"], g["month"], g["day"]) == fields[:3]
    return right / len(recs)


def _best_constant(recs: list[dict[str, Any]]) -> float:
    """Chance: the commonest gold answer per question format."""
    by: dict[str, Counter[str]] = {}
    for r in recs:
        by.setdefault(r["format"], Counter())[r["answer"]] += 1
    return sum(c.most_common(1)[0][1] for c in by.values()) / len(recs)


def test_assuming_one_today_does_not_beat_chance() -> None:
    """Over one reference date this policy scored 0.61 against 0.26."""
    recs = list(generate_questions(300, 0, SpanConfig()))
    chance = _best_constant(recs)
    for today in (
        dt.date(2024, 7, 1),
        dt.date.fromisoformat(Counter(map(_ref, recs)).most_common(1)[0][0]),
    ):
        assert _fixed_today_score(recs, today) <= chance + 0.03
    one = list(generate_questions(96, 0, SpanConfig(date="2024-07-01")))
    assert _fixed_today_score(one, dt.date(2024, 7, 1)) > _best_constant(one) + 0.2  # it can fail


@st.composite
def windows(draw: Any) -> str:
    """A window inside the calendars' range: one day, a month, a decade or more."""
    a = draw(st.dates(FIRST, LAST))
    width = draw(st.sampled_from([0, 30, 4000, 80000]))
    b = draw(st.dates(a, min(LAST, a + dt.timedelta(days=width))))
    return f"{a}..{b}"


@settings(max_examples=examples(20), deadline=None)
@given(windows(), st.integers(0, 2**31), st.integers(0, 100_000))
def test_records_are_functions_of_seed_index_and_window(window: str, seed: int, index: int) -> None:
    lo, _, hi = window.partition("..")
    try:
        cfg = SpanConfig(date_range=window)
        first = generate_question(seed, index, cfg)
    except TsolveError as exc:  # a window of disputed days only: said so, in one line
        assert "dispute" in str(exc) and "\n" not in str(exc)
        return
    again = generate_question(seed, index, SpanConfig(date_range=window))
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert lo <= _ref(first) <= hi and not _disputed(dt.date.fromisoformat(_ref(first)))
    for rec in (first, generate_question(seed, index + 1, cfg)):
        check_record(rec)  # the gold, its label and every listed reading, by the oracle
        # "today" is stated in the source calendar, as the oracle's libraries write it
        src = rec["params"]["source_calendar"]
        today = lib_fields(src, dt.date.fromisoformat(_ref(rec)))
        assert rec["question"].startswith("Today\u2019s date on the ")
        assert f"is \u201c{content_text(src, today)}\u201d." in rec["question"]


def test_window_runs_are_the_same_bytes_in_another_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["span", "--count", "24", "--seed", "9", "--start", "100"]
    here = run_cli(capsys, *args)
    there = subprocess.run(
        [sys.executable, "-c", "from tsolve.cli.app import main; main()", *args],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": "random"},
    )  # fmt: skip
    assert here.returncode == there.returncode == 0
    assert here.stdout == there.stdout and len(here.stdout.splitlines()) == 24


def test_one_date_and_a_one_day_window_are_the_same_run(capsys: pytest.CaptureFixture[str]) -> None:
    a = [json.dumps(r) for r in generate_questions(48, 3, SpanConfig(date="1987-03-05"))]
    b = [
        json.dumps(r)
        for r in generate_questions(48, 3, SpanConfig(date_range="1987-03-05..1987-03-05"))
    ]
    assert a == b and all(_ref(json.loads(x)) == "1987-03-05" for x in a)
    one = run_cli(capsys, "span", "--date", "1987-03-05", "--count", "6", "--seed", "3")
    win = run_cli(capsys, "span", "--date-range", "1987-03-05..1987-03-05", "--count", "6",
                  "--seed", "3")  # fmt: skip
    assert one.returncode == win.returncode == 0 and one.stdout == win.stdout
    assert [json.loads(x) for x in one.stdout.splitlines()] == [json.loads(x) for x in a[:6]]


def test_cli_window_and_dataset_agree(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "span.jsonl"
    made = run_cli(capsys, "dataset", "make", "span", "-n", "12", "--seed", "2", "--date-range",
                   "2030-01-01..2031-12-31", "-o", str(out), "-q")  # fmt: skip
    assert made.returncode == 0, made.stderr
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert all("2030-01-01" <= _ref(r) <= "2031-12-31" for r in recs)
    shown = run_cli(capsys, "span", "--date-range", "2030-01-01..2031-12-31", "--count", "12",
                    "--seed", "2")  # fmt: skip
    assert [json.loads(x) for x in shown.stdout.splitlines()] == recs
    via_set = run_cli(capsys, "dataset", "make", "span", "-n", "12", "--seed", "2", "--set",
                      "date_range=2030-01-01..2031-12-31", "-o", "-", "-q")  # fmt: skip
    assert [json.loads(x) for x in via_set.stdout.splitlines()] == recs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--date-range", "2060-01-01..1960-01-01"], "ends before it starts"),
        (["--date-range", ""], "cannot read"),
        (["--date-range", "1960-01-01.."], "cannot read"),
        (["--date-range", "1960-02-30..1970-01-01"], "not a valid date"),
        (["--date-range", "1850-01-01..1970-01-01"], "outside the calendars' range"),
        (["--date-range", "1960-01-01..2101-01-01"], "outside the calendars' range"),
        (["--date-range", "2057-09-28..2057-10-27"], "dispute"),
        (["--date", "2024-07-01", "--date-range", "1960-01-01..2060-12-31"], "not both"),
        (["--date-range", "1900-01-31..2100-12-31", "--max-days", "40000"], "max-days"),
    ],
)
def test_bad_windows_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    for cmd in (["span", "--count", "2"], ["dataset", "make", "span", "-n", "2", "-o", "-", "-q"]):
        res = run_cli(capsys, *cmd, *args)
        assert res.returncode == 2 and res.stdout == ""
        assert res.stderr.count("\n") == 1 and message in res.stderr, res.stderr


def test_a_window_outside_umm_al_qura_has_ten_directions() -> None:
    # blocks of 36: 10 directions x 2 types of content, 4 x 2 of yes/no twice
    # (none to or from Shaka, tabular Islamic or Persian)
    recs = list(generate_questions(72, 1, SpanConfig(date_range="1900-01-31..2100-12-31")))
    dirs = Counter(r["direction"] for r in recs)
    polar = Counter(r["direction"] for r in recs if r["format"] == "polar")
    assert len(dirs) == 10 and set(dirs.values()) == {4, 12}
    assert len(polar) == 4 and set(polar.values()) == {8}
    assert not any({"shaka", "islamic", "persian"} & set(d.split("->")) for d in polar)
    assert not any("umalqura" in d for d in dirs)
    for r in recs[::9]:
        check_record(r)


def test_the_default_window_has_margin_for_every_offset() -> None:
    """From both ends of the default window, every default offset and every
    festival's year is inside every calendar's table both ways, so no
    question's sign is forced and every direction is asked."""
    from tsolve.calendars.festivals import festivals_of
    from tsolve.calendars.tables import table
    from tsolve.families.span.encoding import festival_days, fields_of
    from tsolve.families.span.generate import DIRECTIONS, plan

    cfg = SpanConfig()
    assert plan(cfg) == DIRECTIONS
    lo, hi = (dt.date.fromisoformat(d).toordinal() for d in DEFAULT_DATE_RANGE.split(".."))
    reach = max(cfg.max_days, 7 * cfg.max_weeks)
    for src, tgt in DIRECTIONS:
        for cal in (src, tgt):
            assert table(cal).first_day <= lo - reach and hi + reach <= table(cal).last_day
        for ref in (lo, hi):
            year = fields_of(src, ref)[0]
            for fest in festivals_of(src):
                for y in (year - cfg.max_years, year + cfg.max_years):
                    day = festival_days(fest, src, y)
                    assert day is not None and table(tgt).first_day <= day <= table(tgt).last_day


def test_integrations_take_the_window() -> None:
    from tsolve.facade import create_dataset

    ds = create_dataset("span", seed=4, size=6, date_range="2040-01-01..2041-12-31")
    refs = [_ref(record_of(e)) for e in ds]
    assert all("2040-01-01" <= d <= "2041-12-31" for d in refs)
    one = create_dataset("span", seed=4, size=2, date="2040-02-02")
    assert {_ref(record_of(e)) for e in one} == {"2040-02-02"}
    with pytest.raises(TsolveError, match="ends before it starts"):
        create_dataset("span", size=2, date_range="2041-01-01..2040-01-01")
    with pytest.raises(TsolveError, match="not both"):
        create_dataset("span", size=2, date="2040-02-02", date_range="2040-01-01..2041-12-31")

    from tsolve.adapters.reasoning_gym_configs import SpanConfig as RgSpanConfig

    cfg = RgSpanConfig(date_range="2040-01-01..2041-12-31", seed=4, size=6)
    cfg.validate()
    assert cfg.options() == {"date_range": "2040-01-01..2041-12-31"}
    with pytest.raises(TsolveError, match="date-range"):
        RgSpanConfig(date_range="yesterday").validate()


def test_reasoning_gym_dataset_takes_the_window() -> None:
    rg = pytest.importorskip("reasoning_gym", reason="reasoning-gym is not installed")
    from tsolve.adapters.reasoning_gym import register_reasoning_gym

    register_reasoning_gym()
    data = rg.create_dataset("tsolve_span", seed=4, size=3, date_range="2040-01-01..2041-12-31")
    assert all("2040-01-01" <= _ref(record_of(e)) <= "2041-12-31" for e in data)


def test_verifiers_taskset_takes_the_window() -> None:
    pytest.importorskip("verifiers.v1", reason="verifiers is not installed")
    from tsolve.adapters.verifiers_taskset import TsolveTaskset, TsolveTasksetConfig

    cfg = TsolveTasksetConfig(family="span", count=3, seed=4,
                              options={"date_range": "2040-01-01..2041-12-31"})  # fmt: skip
    tasks = list(TsolveTaskset(cfg).load())
    assert len(tasks) == 3
    assert all("2040-01-01" <= _ref(t.data.record) <= "2041-12-31" for t in tasks)
    with pytest.raises(ValueError, match="date-range"):
        TsolveTasksetConfig(family="span", options={"date_range": "2041-01-01..2040-01-01"})


def test_inspect_task_takes_the_window() -> None:
    pytest.importorskip("inspect_ai", reason="inspect-ai is not installed")
    from tsolve.adapters.inspect_ai.tasks import family_task, task_arg

    task = family_task("span", count=3, seed=4, date_range="2040-01-01..2041-12-31")
    refs = [_ref(record_in(s.metadata)) for s in task.dataset]
    assert len(refs) == 3 and all("2040-01-01" <= d <= "2041-12-31" for d in refs)
    # ``-T date_range=D`` arrives as a date object (Inspect reads -T values as YAML)
    one = family_task("span", count=2, date_range=task_arg(dt.date(2040, 2, 2)))
    assert {_ref(record_in(s.metadata)) for s in one.dataset} == {"2040-02-02"}
    with pytest.raises(TsolveError, match="ends before it starts"):
        family_task("span", count=1, date_range="2041-01-01..2040-01-01")
