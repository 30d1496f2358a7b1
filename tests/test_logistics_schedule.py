"""Hand-worked schedules and timelines: the logistics conventions
(docs/logistics.md), checked on
scenarios small enough to compute on paper (expected values below were worked
out by hand from the rules, not taken from the code)."""

from __future__ import annotations

import pytest

from tsolve.families.logistics.event_graph import build_graph, earliest_schedule, shifted_schedule
from tsolve.families.logistics.model import Event, Scenario, World
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.schedule_cpsat import cpsat_schedule
from tsolve.families.logistics.solve import answer_question
from tsolve.families.logistics.timeline import Timeline

WORLD = World(
    cities=("c0", "c1"),
    city_of={"l0_0": "c0", "l0_1": "c0", "l1_0": "c1"},
    airports=("l0_0", "l1_0"),
    trucks=("t0",),
    airplanes=("a0",),
    packages=("pA", "pB"),
)
EVENTS = (
    Event(0, "load", "t0", "truck", 10, package="pA", location="l0_1"),
    Event(1, "load", "t0", "truck", 30, package="pB", location="l0_1"),
    Event(2, "move", "t0", "truck", 20, origin="l0_1", destination="l0_0"),
    Event(3, "unload", "t0", "truck", 5, package="pA", location="l0_0"),
    Event(4, "unload", "t0", "truck", 15, package="pB", location="l0_0"),
    Event(5, "move", "a0", "airplane", 40, origin="l1_0", destination="l0_0"),
    Event(6, "load", "a0", "airplane", 8, package="pA", location="l0_0"),
    Event(7, "load", "a0", "airplane", 12, package="pB", location="l0_0"),
    Event(8, "move", "a0", "airplane", 60, origin="l0_0", destination="l1_0"),
    Event(9, "unload", "a0", "airplane", 7, package="pA", location="l1_0"),
)
INITIAL = {"t0": "l0_1", "a0": "l1_0", "pA": "l0_1", "pB": "l0_1"}


def scenario(execution: str) -> Scenario:
    return Scenario(WORLD, INITIAL, EVENTS, execution)  # type: ignore[arg-type]


def test_parallel_schedule_by_rule_3() -> None:
    s = earliest_schedule(scenario("parallel"))
    # batch {0,1} at 0; truck leaves when the longer load ends (30), arrives 50;
    # unload batch {3,4} 50..65; the plane lands at 40 but loads only after both
    # packages are unloaded (65); it leaves at 77 and lands at 137.
    assert s.start == (0, 0, 30, 50, 50, 0, 65, 65, 77, 137)
    assert s.end == (10, 30, 50, 55, 65, 40, 73, 77, 137, 144)
    assert s.busy_end == (30, 30, 50, 65, 65, 40, 77, 77, 137, 144)


def test_serial_schedule_is_back_to_back() -> None:
    s = earliest_schedule(scenario("serial"))
    assert s.start == (0, 10, 40, 60, 65, 80, 120, 128, 140, 200)
    assert s.busy_end == s.end


@pytest.mark.parametrize("execution", ["serial", "parallel"])
def test_cpsat_agrees_on_the_hand_example(execution: str) -> None:
    sc = scenario(execution)
    assert cpsat_schedule(sc) == earliest_schedule(sc)


@pytest.mark.parametrize(
    ("minute", "where"),
    [(-5, {"l0_1"}), (5, {"l0_1", "t0"}), (29, {"l0_1", "t0"}), (30, {"t0"}), (49, {"t0"}),
     (50, {"l0_0", "t0"}), (64, {"l0_0", "t0"}), (65, {"l0_0", "a0"}), (76, {"l0_0", "a0"}),
     (77, {"a0"}), (136, {"a0"}), (137, {"l1_0", "a0"}), (143, {"l1_0", "a0"}), (144, {"l1_0"})],
)  # fmt: skip
def test_parallel_timeline_of_pa(minute: int, where: set[str]) -> None:
    """pA's own load takes 10 minutes but its batch runs to 30: it is reported
    as being loaded until then (rule 3)."""
    sc = scenario("parallel")
    assert set(Timeline(sc, earliest_schedule(sc), "pA").at(minute).answers) == where


@pytest.mark.parametrize(
    ("minute", "where"),
    [(15, {"l0_1", "t0"}), (45, {"t0"}), (70, {"l0_0"}), (100, {"l0_0"}), (130, {"l0_0", "a0"}),
     (150, {"a0"}), (205, {"l1_0", "a0"}), (210, {"l1_0"})],
)  # fmt: skip
def test_serial_timeline_of_pa(minute: int, where: set[str]) -> None:
    """Between its load and the truck's departure pA sits in a parked truck:
    {vehicle, its location}; after its unload it lies at the location."""
    sc = scenario("serial")
    assert set(Timeline(sc, earliest_schedule(sc), "pA").at(minute).answers) == where


def test_package_left_aboard_is_in_the_parked_vehicle() -> None:
    sc = scenario("parallel")
    assert set(Timeline(sc, earliest_schedule(sc), "pB").at(500).answers) == {"a0", "l1_0"}


def test_serial_delay_moves_everything_after() -> None:
    sc = scenario("serial")
    base = earliest_schedule(sc)
    s = shifted_schedule(sc, {3: 10}, base)
    assert s.start[:3] == base.start[:3]
    assert s.start[3:] == tuple(x + 10 for x in base.start[3:])
    s = shifted_schedule(sc, {3: -4}, base)
    assert s.start[3:] == tuple(x - 4 for x in base.start[3:])


def test_parallel_delay_moves_only_what_it_held_back() -> None:
    sc = scenario("parallel")
    base = earliest_schedule(sc)
    # pA's unload 50 -> 53 still ends (58) before pB's (65): nothing else moves.
    s = shifted_schedule(sc, {3: 3}, base)
    assert s.start == (0, 0, 30, 53, 50, 0, 65, 65, 77, 137)
    assert s.busy_end[3] == 65
    # 50 -> 70 ends at 75, now later than pB's unload: the plane's loads wait.
    s = shifted_schedule(sc, {3: 20}, base)
    assert s.start == (0, 0, 30, 70, 50, 0, 75, 75, 87, 147)
    # the plane's flight 0 -> 50 lands at 90: its loads start at 90, not 65.
    s = shifted_schedule(sc, {5: 50}, base)
    assert s.start == (0, 0, 30, 50, 50, 50, 90, 90, 102, 162)
    # the truck's independent events never move when the plane is delayed
    assert s.start[:5] == base.start[:5]


def test_shifts_compose_in_list_order() -> None:
    sc = scenario("serial")
    base = earliest_schedule(sc)
    s = shifted_schedule(sc, {2: 5, 6: 7}, base)
    assert s.start[6] == base.start[6] + 12


STATED = {
    "data_split": "easy",
    "execution": "serial",
    "initial_states_description": [
        "truck t1 is at the location l1_1.",
        "package p2 is at the location l1_1.",
    ],
    "events": [
        "Given the initial states, the following events occur:",
        "loading package p2 into truck t1 at location l1_1 starts at 11:30 PM and ends at "
        "11:50 PM.",
        "from 11:55 PM to 12:20 AM truck t1 transports from location l1_1 to location l1_0.",
        "package p2 is unloaded from truck t1 from 12:25 AM to 12:40 AM at location l1_0.",
    ],
}


@pytest.mark.parametrize(
    ("question", "where"),
    [
        ("Where is the package p2 at 11:00 PM?", {"l1_1"}),
        ("Where is the package p2 at 11:30 PM?", {"l1_1", "t1"}),
        ("Where is the package p2 at 11:52 PM?", {"l1_1", "t1"}),
        ("Where is the package p2 at 12:10 AM?", {"t1"}),
        ("Where is the package p2 at 12:30 AM?", {"l1_0", "t1"}),
        ("Where is the package p2 at 12:40 AM?", {"l1_0"}),
        ("Where is the package p2 1 hours after 11:20 PM?", {"l1_0", "t1"}),
        ("Where is the package p2 2 hours before 01:55 AM?", {"t1"}),
        ("If driving truck t1 from location l1_1 to location l1_0 is delayed by 10 minutes, "
         "Where is the package p2 at 12:27 AM?", {"t1"}),
        ("If loading package p2 into truck t1 at location l1_1 is expedited by 10 minutes, "
         "Where is the package p2 at 12:27 AM?", {"l1_0", "t1"}),
    ],
)  # fmt: skip
def test_stated_times_wrap_past_midnight(question: str, where: set[str]) -> None:
    sc, q = parse_item({**STATED, "question": question})
    assert set(answer_question(sc, q).answers) == where


def test_hard_anchor_need_not_be_the_first_event() -> None:
    """Rule 2: the drive starts at 01:00 AM, so the 30-minute load before it
    started at 12:30 AM, the day before the drive's date."""
    item = {
        "data_split": "hard",
        "execution": "serial",
        "initial_states_description": STATED["initial_states_description"],
        "events": [
            "Given the initial states, the following events occur:",
            "loading package p2 into truck t1 at location l1_1 takes 30 minutes to finish.",
            "truck t1 transports from location l1_1 to location l1_0 for 20 minutes.",
            "package p2 unloaded from truck t1 at location l1_0 for 10 minutes.",
        ],
    }
    for q, where in [
        ("at 12:45 AM", {"l1_1", "t1"}),
        ("at 01:10 AM", {"t1"}),
        ("at 01:25 AM", {"l1_0", "t1"}),
        ("at 12:20 AM", {"l1_1"}),
    ]:
        text = (
            "If driving truck t1 from location l1_1 to location l1_0 starts at 01:00 AM, "
            f"where is the package p2 {q}?"
        )
        sc, qq = parse_item({**item, "question": text})
        assert set(answer_question(sc, qq).answers) == where, q


def test_graph_has_the_dependency_edges() -> None:
    g = build_graph(scenario("parallel"))
    # every member of a batch gets the same predecessors
    assert set(g.predecessors(6)) == set(g.predecessors(7)) == {3, 4, 5}
    # a move waits for every batch at its stop and the vehicle's previous move
    assert set(g.predecessors(8)) == {5, 6, 7}
    assert set(g.predecessors(2)) == {0, 1}
