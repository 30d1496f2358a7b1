"""Shortcut probes: no policy that reads the prompt but skips the reasoning
beats chance on the data the generators make today, in any configuration a
family declares, and each probe does find the shortcut it is named for when
the data has it.

The CI run (``test_no_probe_beats_chance``) generates, once for the module,
:data:`N` records per family for the evaluated seed and as many for the seed
the probes learn from; a family that declares several cells (logistics: 18)
gets :data:`CELL_N` records per cell instead, every cell run. The bound a
mean is held to is 1.5 standard errors of it
(:func:`~tsolve.stress.shortcut_cells.margin_for`: 0.03 at 500 records,
growing as ``1 / sqrt(n)``), and each probe pooled over all the cells of its
family is held to the bound of all their records (0.05 over 18 x 10); a
SPAN cell of :data:`CELL_N` records is held only to :data:`CELL_MARGIN`,
which catches a gross shortcut in that cell, and a logistics cell to
:data:`LOGISTICS_CELL_MARGIN`, the 0.05 of 300 records scaled to its n.
The other tests take their SPAN and logistics records from the same run.
It is still the most expensive test here by design: what it checks is the
generators' current output, which no frozen fixture can stand in for.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_main import run_main

from tsolve.contract import get_family
from tsolve.stress.adversarial import generate_records
from tsolve.stress.shortcut_cells import POOLED, cells_for, margin_for
from tsolve.stress.shortcut_probes import GOLD_FIELDS, PROBES, all_probes, visible
from tsolve.stress.shortcuts import FAMILIES, MARGIN, ShortcutReport, run_family, run_shortcuts

N = 150
"""Records per single-cell family (evaluated, and as many trained on) in the CI bound."""

CELL_N = 10
"""Records per cell of a family that declares several cells."""

CELL_MARGIN = 0.45
"""The bound one cell of :data:`CELL_N` records is held to in CI: a gross
shortcut in that cell (reading the event in progress scored 1.0 against a
chance of 0.2 on version-5 logistics records); eighteen means of ten records
each vary too much for a finer one, which the pooled bound gives."""

LOGISTICS_BOUND = 0.05
"""How far above a logistics cell's chance a probe may score on
:data:`LOGISTICS_BOUND_N` records (docs/logistics.md, "The event in progress")."""

LOGISTICS_BOUND_N = 300

LOGISTICS_CELL_MARGIN = LOGISTICS_BOUND * (LOGISTICS_BOUND_N / CELL_N) ** 0.5
"""That bound for a cell of :data:`CELL_N` records: the same number of
standard errors (about 0.27 at ten records), so a logistics cell is held to
the 0.05 of 300 records, scaled, not only to the gross :data:`CELL_MARGIN`."""

Records = dict[str, list[dict[str, Any]]]


def _single_cell() -> list[str]:
    return [f for f in FAMILIES if len(cells_for(f)) == 1]


@pytest.fixture(scope="module")
def evaluated() -> Records:
    """Records ``0..N-1`` of run 0 per single-cell family (generated once for
    the module; logistics: its default configuration)."""
    return {family: generate_records(family, N, 0) for family in [*_single_cell(), "logistics"]}


@pytest.fixture(scope="module")
def trained() -> Records:
    """Records ``0..N-1`` of run 1 per single-cell family, which the probes learn from."""
    return {family: generate_records(family, N, 1) for family in _single_cell()}


@pytest.fixture(scope="module")
def report(evaluated: Records, trained: Records) -> ShortcutReport:
    """Every probe of every family: single-cell families on the module's
    records, the others on :data:`CELL_N` records per cell."""
    single = _single_cell()
    out = run_shortcuts(single, n=N, seed=0, records=evaluated, train_records=trained)
    many = [f for f in FAMILIES if f not in single and f != "logistics"]
    for families, margin in ((many, CELL_MARGIN), (["logistics"], LOGISTICS_CELL_MARGIN)):
        cells = run_shortcuts(families, n=CELL_N, seed=0, margin=margin)
        out.results.extend(cells.results)
        out.pooled.extend(cells.pooled)
        out.cells.update(cells.cells)
    return out


@pytest.fixture(scope="module")
def span_records() -> list[dict[str, Any]]:
    """Records 0..119 of SPAN run 0 (record i depends on the seed and i only;
    SPAN declares several cells, so the module's single-cell records hold none)."""
    return generate_records("span", 120, 0)


@pytest.fixture(scope="module")
def logistics_records(evaluated: Records) -> list[dict[str, Any]]:
    return evaluated["logistics"]


def test_visible_drops_every_gold_field(span_records: list[dict[str, Any]]) -> None:
    for record in span_records[:20]:
        seen = visible(record)
        assert not (GOLD_FIELDS & set(seen))
        assert "gregorian" not in seen["params"]["reference_date"]
        # What the prompt states is kept.
        assert seen["prompt"] == record["prompt"]
        assert (
            seen["params"]["reference_date"]["text"] == record["params"]["reference_date"]["text"]
        )


def test_every_family_has_each_kind_of_probe() -> None:
    kinds = {(p.family, p.kind) for p in all_probes()}
    for family in ("span", "logistics", "time-puzzles"):
        assert {(family, k) for k in ("heuristic", "memorisation", "learned")} <= kinds
    assert any(p.family == "relational-puzzles" for p in PROBES)
    assert {p.name for p in all_probes() if p.family == "logistics"} >= {"current event"}


def _probe(results: list[Any], name: str) -> Any:
    return next(r for r in results if r.probe == name)


def test_fixed_today_finds_a_single_reference_date() -> None:
    """Records that all share one "today" (``--date D``, the paper's one-date
    runs) are solved by assuming it: the probe must see that, far above
    chance, and the report must fail."""
    fam = get_family("span", need="generate")
    config = fam.make_options({"date": "2024-07-01"})
    train = [fam.make_record(1, i, config) for i in range(60)]
    evald = [fam.make_record(0, i, config) for i in range(60)]
    fixed = _probe(run_family("span", evald, train), "fixed today")
    assert fixed.score == 1.0
    assert fixed.failures(MARGIN)


def test_fixed_today_scores_one_when_today_is_known(span_records: list[dict[str, Any]]) -> None:
    """The probe does every step but reading "today" exactly: fitted on the
    evaluated records themselves, where the commonest "today" is each record's
    own when there is only one, it must answer all of them right."""
    one = span_records[:1]
    results = run_family("span", one * 4, one * 4)
    assert _probe(results, "fixed today").score == 1.0


def test_final_place_finds_questions_asked_after_the_story(
    logistics_records: list[dict[str, Any]],
) -> None:
    """Items asked after the package's last event (its gold is then its final
    place; half of all items were, before the generator asked where
    UnSeenTimeQA asks) are farmed by the final-place probe. Planted by
    setting each item's gold to the place after its last listed event, the
    probe must score 1 and the report must fail."""
    answer = next(p for p in PROBES if p.family == "logistics" and p.name == "final place").fit(
        [], []
    )
    planted = [{**r, "answers": [answer(visible(r))]} for r in logistics_records]
    final = _probe(run_family("logistics", planted, logistics_records), "final place")
    assert final.score == 1.0
    assert final.failures(MARGIN)


def test_lookup_finds_repeated_questions(span_records: list[dict[str, Any]]) -> None:
    """Evaluated on the records it was fitted on, the lookup probe knows every
    content answer: memorisation is found when questions repeat."""
    content = [r for r in span_records if r["format"] == "content"]
    results = run_family("span", content, content)
    assert _probe(results, "lookup by question").score == 1.0


def test_learned_probe_learns_a_planted_signal(span_records: list[dict[str, Any]]) -> None:
    """A question whose words give its answer away is learned: a yes/no
    question that ends with a word standing for its label must be answered
    from another set of records far above chance."""
    pytest.importorskip("sklearn", reason="the learned probe needs scikit-learn")

    def planted(r: dict[str, Any]) -> dict[str, Any]:
        word = {"Yes": "affirmative", "No": "negative"}.get(r["answer"], "")
        return {**r, "question": f"{r['question']} {word}"}

    more = generate_records("span", 240, 0)  # span_records and the next 120
    polar = [planted(r) for r in more if r["format"] == "polar"]
    half = len(polar) // 2
    learned = _probe(run_family("span", polar[half:], polar[:half]), "n-gram classifier")
    # Fitted on 48 questions whose every other word varies too (dates,
    # calendars, offsets), a regularised regression misses a few (on 24, it
    # got 0.79 on SPAN version 9's records, 26 of 30 on version 7's; chance
    # is near 0.5).
    assert learned.score >= 0.8
    assert learned.failures(MARGIN)


def test_no_probe_beats_chance(report: ShortcutReport) -> None:
    """The bound itself, in every cell (a cell's bound for its n) and pooled
    over each family's cells (the bound for all its records)."""
    assert report.failures == [], "\n".join(report.failures)
    ran = [r for r in report.results if r.skipped is None]
    assert {r.family for r in ran} == set(FAMILIES)
    # Every declared cell ran, each probe in each, with the records asked for.
    for family, cells in report.cells.items():
        mine = [r for r in ran if r.family == family]
        assert {r.cell for r in mine} == {c["cell"] for c in cells}
        assert all(r.n == (N if len(cells) == 1 else CELL_N) for r in mine)
    logistics = [r for r in report.pooled if r.family == "logistics"]
    assert {r.probe for r in logistics} >= {"current event", "final place"}
    assert all(r.cell == POOLED and r.n == 18 * CELL_N for r in logistics)
    assert all(r.bound() == pytest.approx(margin_for(18 * CELL_N)) for r in logistics)
    assert all(r.bound() == LOGISTICS_CELL_MARGIN for r in ran if r.family == "logistics")
    assert all(r.bound() == CELL_MARGIN for r in ran if r.family == "span")
    # Every probe answered most items: a probe that never answers proves nothing.
    # Over a family's cells (a cell of CELL_N records is too small to hold 90 %:
    # 8 of 10 is one miss from 9).
    answered: dict[tuple[str, str], list[int]] = {}
    for r in ran:
        seen = answered.setdefault((r.family, r.probe), [0, 0])
        seen[0] += r.answered
        seen[1] += r.n
    short = {key: seen for key, seen in answered.items() if seen[0] < 0.9 * seen[1]}
    assert not short, short
    assert all(r.answered >= 0.5 * r.n for r in ran), [
        (r.probe, r.cell, r.answered) for r in ran if r.answered < 0.5 * r.n
    ]


def test_current_event_reads_split_1_and_the_unseentimeqa_mix() -> None:
    """The policy that answers from the event in progress at the asked
    minute, never tracking the package, answers every shipped split-1 item
    and every version-5 record (the mix ``asked_minute=unseentimeqa``
    keeps): the shortcut the default mix removes is really there."""
    from pathlib import Path

    from tsolve.families.logistics.tracking_probes import DEFAULT_FORMS, current_event, situation

    here = Path(__file__).parent / "fixtures"
    split1 = [json.loads(x) for x in (here / "unseentimeqa_sample.jsonl").read_text().splitlines()]
    right = 0
    for item in split1:
        s = situation(item)
        assert s is not None
        right += frozenset(s.names(DEFAULT_FORMS[s.key])) == frozenset(item["answers"])
    assert right / len(split1) >= 0.95
    v5 = [json.loads(x) for x in (here / "logistics_v5_records.jsonl").read_text().splitlines()]
    answer = current_event(v5, [", ".join(r["answers"]) for r in v5])
    for rec in v5:
        body = answer(visible(rec))
        assert body is not None and set(body.split(", ")) == set(rec["answers"]), rec["id"]


def test_policies_that_track_every_package_choose_among_the_states_on_the_way() -> None:
    """On UnSeenTimeQA's split-1 sample (the benchmark's own items): the
    asked package is one of the packages on their way, so its gold is one
    of the states they hold; the commonest- and rarest-state policies answer
    a state of the largest and smallest share; and the tracking floor is the
    mean of 1/k, what a uniformly random one of the k states scores."""
    from pathlib import Path

    from tsolve.families.logistics.tracking_probes import (
        commonest_state,
        rarest_state,
        states_on_the_way,
        tracking_floor,
    )

    here = Path(__file__).parent / "fixtures"
    items = [json.loads(x) for x in (here / "unseentimeqa_sample.jsonl").read_text().splitlines()]
    most, least = commonest_state([], []), rarest_state([], [])
    inverse = []
    for item in items:
        tally = states_on_the_way(item)
        assert tally, item["id"]
        assert tuple(sorted(item["answers"])) in {tuple(sorted(w)) for w in tally}, item["id"]
        for policy, want in ((most, max(tally.values())), (least, min(tally.values()))):
            body = policy(visible(item))
            assert body is not None
            assert tally[tuple(body.split(", "))] == want, item["id"]
        inverse.append(1 / len(tally))
    assert tracking_floor(items) == pytest.approx(sum(inverse) / len(items))
    assert 0 < tracking_floor(items) <= 1


def test_cli_json_lists_the_probes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "stress", "relational-puzzles", "--shortcuts", "-n", "10", "--format", "json", "-q"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["ok"] is True
    for row in data["probes"]:
        assert {"family", "probe", "cell", "score", "chance", "n"} <= set(row)
        assert row["n"] == 10
    # every ask mode is a cell of its own
    assert {row["cell"] for row in data["probes"]} == {"tuples", "event", "mixed"}


def test_cli_rejects_an_unknown_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_main(capsys, "stress", "tictoc", "--shortcuts")
    assert code == 2
    assert "family" in err and "Traceback" not in err


def test_chance_is_the_adversarial_baseline(span_records: list[dict[str, Any]]) -> None:
    """Chance is counted from the records alone: per SPAN format, the more
    frequent label (polar) or most frequent date (content)."""
    from collections import Counter

    results = run_family("span", span_records, span_records)
    polar = Counter(r["answer"] for r in span_records if r["format"] == "polar")
    content = Counter(r["answer"] for r in span_records if r["format"] == "content")
    want = (max(polar.values()) + max(content.values())) / len(span_records)
    assert results[0].chance == pytest.approx(want)


def test_puzzle_families_declare_every_style_size_and_mode() -> None:
    """A shortcut that pays only on empty answer sets, on spelled-out dates or
    in one ask mode shows in a cell of its own."""
    tp = {c.name: dict(c.options) for c in cells_for("time-puzzles")}
    assert set(tp) == {f"{s}/{m}" for s in ("implicit", "explicit") for m in range(7)}
    assert tp["explicit/0"] == {"style": "explicit", "solutions": 0}
    rp = {c.name: dict(c.options) for c in cells_for("relational-puzzles")}
    assert rp == {m: {"ask": m} for m in ("tuples", "event", "mixed")}
