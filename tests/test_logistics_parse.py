"""Parsing UnSeenTimeQA English: clock times, every event template, the typos
found in the real data, questions, and one-line errors for bad input."""

from __future__ import annotations

import random

import pytest

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import format_clock, parse_clock, unwrap
from tsolve.families.logistics.generate import wording
from tsolve.families.logistics.model import Event
from tsolve.families.logistics.parse.event_parts import read_by_parts
from tsolve.families.logistics.parse.events import parse_event_text, parse_events
from tsolve.families.logistics.parse.item import detect_execution, parse_item
from tsolve.families.logistics.parse.question import parse_question
from tsolve.families.logistics.parse.template_reader import read_by_template
from tsolve.families.logistics.parse.world import parse_initial, parse_world


@pytest.mark.parametrize(
    ("text", "minute"),
    [("12:00 AM", 0), ("12:05 AM", 5), ("01:30 AM", 90), ("11:59 AM", 719), ("12:00 PM", 720),
     ("12:30 PM", 750), ("01:00 PM", 780), ("11:59 PM", 1439), ("9:07pm", 1267)],
)  # fmt: skip
def test_clock_round_numbers(text: str, minute: int) -> None:
    assert parse_clock(text) == minute


def test_format_clock_wraps_days() -> None:
    assert format_clock(0) == "12:00 AM"
    assert format_clock(1440 + 13 * 60 + 5) == "01:05 PM"
    assert format_clock(-1) == "11:59 PM"


def test_unwrap_moves_past_midnight() -> None:
    # 12:10 AM after 11:50 PM of day 0 is minute 1450 of the absolute axis.
    assert unwrap(parse_clock("12:10 AM"), parse_clock("11:50 PM")) == 1450
    assert unwrap(parse_clock("11:55 PM"), parse_clock("11:50 PM")) == 1435


@pytest.mark.parametrize("bad", ["13:00 PM", "00:10 AM", "12:60 PM", "noon"])
def test_bad_clock_is_one_line_error(bad: str) -> None:
    with pytest.raises(TsolveError) as exc:
        parse_clock(bad)
    assert "\n" not in str(exc.value) and "time" in str(exc.value)


def _events() -> list[Event]:
    return [
        Event(0, "load", "t1", "truck", 33, package="p2", location="l1_1"),
        Event(1, "unload", "a0", "airplane", 7, package="p5", location="l0_0"),
        Event(2, "move", "t1", "truck", 28, origin="l1_1", destination="l1_0"),
        Event(3, "move", "a0", "airplane", 51, origin="l2_0", destination="l1_0"),
    ]


class _Pick(random.Random):
    """An rng whose choice() returns element ``k``: renders one chosen template."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k = k

    def choice(self, seq):  # type: ignore[no-untyped-def]
        return seq[self.k]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_every_appendix_c_template_reads_back(difficulty: str) -> None:
    """Each of the four templates per event type and difficulty parses to the
    event it was rendered from (kind, vehicle, package, places, duration)."""
    for e in _events():
        for k in range(4):
            text = wording.render_event(e, difficulty, 23 * 60 + 50, _Pick(k))  # type: ignore[arg-type]
            got = parse_event_text(text)
            assert got.key == e.key, text
            # the fast path took it, and the general reader agrees with it
            fast = read_by_template(text.lower())
            assert fast == got, text
            assert read_by_parts([text], [text.lower()], True)[0] == fast, text
            if difficulty == "easy":
                assert got.clocks == (23 * 60 + 50, (23 * 60 + 50 + e.duration) % 1440), text
            else:
                assert got.duration == e.duration, text
            if difficulty == "medium":
                assert got.clocks == (23 * 60 + 50,), text


@pytest.mark.parametrize(
    ("sentence", "key", "duration"),
    [
        # typos copied from the real benchmark text
        ("airplane a0 flys from location l2_0 to location l1_0 for 59 minutes.",
         ("move", "a0", None, None, "l2_0", "l1_0"), 59),
        ("unloading package p2 from airplane a0at location l2_0 takes 2 minutes to finish.",
         ("unload", "a0", "p2", "l2_0", None, None), 2),
        ("from09:51 AM to 10:50 AM package p2 loaded into airplane a0 at location l1_0.",
         ("load", "a0", "p2", "l1_0", None, None), 59),
        ("from 09:00 AMairplane a1 transits from location l1_0 to location l0_0 for 62 minutes.",
         ("move", "a1", None, None, "l1_0", "l0_0"), 62),
        ("from location l0_1, truck t0 moves to location l0_0 and it takes 40 minutes to finish.",
         ("move", "t0", None, None, "l0_1", "l0_0"), 40),
        ("at location l0_2, package p0 is unloaded from truck t0 starting at 06:49 PM and "
         "finishingat 06:54 PM.", ("unload", "t0", "p0", "l0_2", None, None), 5),
    ],
)  # fmt: skip
def test_benchmark_typos(sentence: str, key: tuple[str | None, ...], duration: int) -> None:
    got = parse_event_text(sentence)
    assert got.key == key
    assert (
        got.duration if got.duration is not None else (got.clocks[1] - got.clocks[0]) % 1440
    ) == duration


def test_events_as_a_paragraph_and_midnight_wrap() -> None:
    """The paper prints events as one paragraph; stated times wrap past midnight."""
    text = (
        "Given the initial states, the following events occur: "
        "loading package p2 into truck t1 at location l1_1 starts at 11:30 PM and ends at "
        "11:50 PM. "
        "from 11:55 PM to 12:20 AM truck t1 transports from location l1_1 to location l1_0. "
        "package p2 is unloaded from truck t1 from 12:25 AM to 12:40 AM at location l1_0."
    )
    evs = parse_events(text)
    assert [e.kind for e in evs] == ["load", "move", "unload"]
    assert [e.start for e in evs] == [1410, 1435, 1465]
    assert [e.duration for e in evs] == [20, 25, 15]


def test_world_and_initial_states() -> None:
    world = parse_world(
        [
            "there are 2 cities, c0 and c1.",
            "there are 4 locations, l0_1, l1_1, l1_0, and l0_0.",
            "locations l0_1 and l0_0 are in city c0.",
            "locations l1_1 and l1_0 are in city c1.",
            "there are 2 airports, The location of the airports are l1_0 and l0_0.",
            "there are 1 airplanes, a0.",
            "there are 2 trucks, t1 and t0.",
            "there are 2 packages, p1 and p0.",
        ]
    )
    assert world.cities == ("c0", "c1")
    assert dict(world.city_of) == {"l0_1": "c0", "l0_0": "c0", "l1_1": "c1", "l1_0": "c1"}
    assert world.airports == ("l1_0", "l0_0")
    assert world.trucks == ("t1", "t0") and world.airplanes == ("a0",)
    assert world.packages == ("p1", "p0")
    init = parse_initial(["truck t0 is at location l0_0.", "package p2 is at thelocation l1_1."])
    assert init == {"t0": "l0_0", "p2": "l1_1"}


def _hard_item(question: str) -> dict[str, object]:
    return {
        "events": [
            "Given the initial states, the following events occur:",
            "loading package p2 into truck t1 at location l1_1 takes 30 minutes to finish.",
            "truck t1 transports from location l1_1 to location l1_0 for 20 minutes.",
            "package p2 unloaded from truck t1 at location l1_0 for 10 minutes.",
        ],
        "initial_states_description": [
            "truck t1 is at the location l1_1.",
            "package p2 is at the location l1_1.",
        ],
        "question": question,
    }  # fmt: skip


def test_question_forms() -> None:
    sc, q = parse_item(
        _hard_item(
            "If loading package p2 into truck t1 at location l1_1 starts at 11:18 AM and driving "
            "truck t1 from location l1_1 to location l1_0 is expedited by 4 minutes, where is the "
            "package p2 3 hours before 01:15 PM?"
        )
    )
    assert q.package == "p2"
    assert q.anchor == (0, 11 * 60 + 18)
    assert [(s.event, s.minutes) for s in q.shifts] == [(1, -4)]
    assert q.clock == 13 * 60 + 15 and q.offset == -180
    assert q.question_type == "hypothetical_time"
    q2 = parse_question("Where is the product p2 2 hours after 08:11 AM?", sc)
    assert (q2.clock, q2.offset, q2.anchor, q2.shifts) == (491, 120, None, ())
    assert q2.question_type == "relative_time"


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"question": "Where is the package p2 at 01:00 PM?"}, "events"),
        ({**_hard_item("Where is package p2?")}, "question"),
        ({**_hard_item("If loading package p9 into truck t1 at location l1_1 starts at 11:18 AM, "
                       "where is the package p2 at 01:00 PM?")}, "question"),
        ({**_hard_item("Where is the package p2 at 01:00 PM?"), "execution": "up"}, "execution"),
        ({**_hard_item("x"), "events": ["truck t1 waits around for a while."]}, "events"),
        ({**_hard_item("x"), "events": 42}, "events"),
    ],
)  # fmt: skip
def test_bad_items_name_the_field(item: dict[str, object], field: str) -> None:
    with pytest.raises(TsolveError) as exc:
        sc, q = parse_item(item)
        # hard items with no anchor cannot fix the clock: reported at solve time
        from tsolve.families.logistics.solve import answer_question

        answer_question(sc, q)
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith(field), message


def test_execution_detected_from_domain_text() -> None:
    assert (
        detect_execution(
            {"domain_description": "Multiple packages can be loaded ... simultaneously"}
        )
        == "parallel"
    )
    assert detect_execution({"domain_description": "one package at a time."}) == "serial"


def test_both_tiers_agree_on_the_benchmark_sentences() -> None:
    """Every sample sentence the fast path takes, the general reader reads the same."""
    import json
    from pathlib import Path

    sample = Path(__file__).resolve().parent / "fixtures" / "unseentimeqa_sample.jsonl"
    seen = 0
    for line in sample.read_text().splitlines():
        for text in json.loads(line)["events"][1:]:
            fast = read_by_template(text.lower())
            if fast is not None:
                seen += 1
                assert read_by_parts([text], [text.lower()], True)[0] == fast, text
    assert seen > 3000
