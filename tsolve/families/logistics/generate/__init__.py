"""New UnSeenTimeQA-style records: random world, own plan, solved question.

Record ``i`` of a run is a pure function of ``(seed, i)``: all randomness comes
from :func:`tsolve.generators.seeding.record_rng` (the key every family uses, hashed
with SHA-512, independent of ``PYTHONHASHSEED``), so shards made on different
machines concatenate to the same bytes.

How a question is made (``depth`` as in the paper's §4.5, the list distance
from the package's first event to the event in progress at the asked minute):

* draw where the package is to be asked about (:mod:`.asked_minute`): by
  default (``asked_minute=tracked``) its relation to the event in progress
  (with that event's vehicle, waiting at a place, parked in another
  vehicle; dealt in shuffled blocks that hold the weights exactly), and for
  the first the kind of minute (the package
  loading, unloading, moving, or parked) from UnSeenTimeQA split 1's mix for
  the stratum; with ``asked_minute=unseentimeqa`` the kind alone, as split 1
  asks (version 5's records); and the depth, once per record;
* choose a package ``p`` whose first event ``f`` has an event ``j = f + depth``
  no later than its last event, ``p`` standing in the drawn relation to ``j``
  (split 1: ``j`` is of the vehicle ``p`` is in or at in all but 3 of its
  3,600 questions, which is what lets a policy answer from ``j`` alone);
* hard items fix the clock at ``f`` ("If <f> starts at HH:MM"); hypothetical
  items delay or expedite an event between ``f`` and ``j``;
* pick a minute of that kind inside event ``j`` in the question's schedule, and
  require ``j`` to be the last-listed event in progress then (the benchmark's
  reading of depth in parallel plans); by default also require other
  packages on their way then, elsewhere (:data:`CROWD`), in a mixed plan
  (:mod:`.planner`: relays through depots, vehicles interleaved);
* never a minute at which the package changes state (the half-open
  convention would decide the answer, or the kind); reject it if its clock
  time occurs twice inside the plan (a plan can outlast a day), and reject
  the question if any other
  reading its text leaves open (:mod:`tsolve.families.logistics.readings`: "N
  hours before T" counted from T's occurrence in the plan, a what-if naming a
  step the plan repeats, ...) gives another answer, so every emitted question
  has one answer under any reasonable reading;
* answer it with :func:`tsolve.families.logistics.solve.answer_question`, render the
  English, parse it back and answer again: a record is emitted only if its own
  text reproduces its answer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import DAY, format_clock
from tsolve.families.logistics.event_graph import (
    Dependencies,
    Schedule,
    batches,
    dependencies_of,
    earliest_schedule,
)
from tsolve.families.logistics.generate import wording
from tsolve.families.logistics.generate.asked_minute import (
    ASKED_MIXES,
    RELATION_WEIGHTS,
    AskedMix,
    Kind,
    Relation,
    draw_kind,
    draw_relation,
    kind_of_segment,
    relation_block,
    relation_of,
)
from tsolve.families.logistics.generate.planner import Layout, plan, random_layout
from tsolve.families.logistics.generate.prompt import render_prompt
from tsolve.families.logistics.model import (
    DIFFICULTIES,
    EXECUTIONS,
    Difficulty,
    Event,
    Execution,
    Question,
    QuestionType,
    Scenario,
    Shift,
)
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.readings import readings, timings_of, unanimous
from tsolve.families.logistics.rules import check_plan
from tsolve.families.logistics.schedule import schedule_json
from tsolve.families.logistics.solve import Resolution, answer_question, question_schedule
from tsolve.families.logistics.timeline import Timeline
from tsolve.generators.seeding import generator_stamp, options_fingerprint, record_rng, run_records

GENERATOR_NAME = "logistics"
# 1.1: questions with two readings are redrawn. 2: the generator is named
# after its family, and draws from tsolve.generators.seeding (the key every family uses).
# 3: records carry the computed ``schedule`` and the model's ``prompt`` (the
# version is part of the random key, so every record is drawn anew).
# 4: the readings checked before a question is kept include how steps that run
# together are timed (together / own-step / group-end) and which occurrence of a
# repeated step a what-if moves (docs/logistics.md, "Readings"); parallel
# questions on which the timings disagree are redrawn.
# 5: the asked minute's kind (loading, unloading, moving, parked; never
# before the package's first event or after its last) is drawn from
# UnSeenTimeQA split 1's mix per stratum, and the asked event lies inside the
# package's own span of events (logistics/generate/asked_minute.py).
# 6: by default the asked package is also waiting at a place, or in another
# vehicle, not only with the vehicle of the event in progress
# (asked_minute=tracked), and the options are part of the random key;
# asked_minute=unseentimeqa makes version 5's records.
# 7: by default (asked_minute=tracked) plans relay packages through depots
# and interleave the vehicles' stops (several vehicles loaded at once, two
# trucks per city, a package more), the
# asked package's relation is drawn in balanced blocks (a seventh with the
# event in progress, the rest waiting or parked in another vehicle, serial
# and parallel alike), and at the asked minute at least two other packages
# are on their way elsewhere.
# 8: by default a hard question fixes the clock at a step of another package
# (or a move) listed before the asked event, not at the package's own first
# step, whose place told the package's likely answers; half the answers lie
# in the package's starting city (HOME_SHARE), and only a quarter of the
# records may be answered by the place the text names most (NAMED_MOST_KEPT).
# 9: by default the answer's place is drawn per record (AnswerPlace): an
# airport in AIRPORT_SHARE of the records, that of a city drawn uniformly
# among the world's counted from the package's starting city (another city's
# for a package parked in another vehicle, PARKED_AIRPORT_SHARE), and with it
# the world's number of cities and whether the package starts at an airport;
# so the starting place, whose name says its city, no longer tells which
# airport (in version 8 half the answers lay away from the starting city, in
# a two-city world mostly at the other airport), and the place named most may
# answer NAMED_MOST_KEPT = 0.65 of the records (0.25 put it below chance).
# 10: a record whose draws are hard to meet draws them anew, whole (every
# field of its AnswerPlace and its NAMED_MOST_KEPT draw, by a fresh key every
# _REDRAW_TRIES tries), instead of dropping the world's number of cities and
# the package's starting kind after 60 tries and the whole AnswerPlace after
# 120: once dropped, the package chosen was the one that fitted, and it
# started at an airport in 0.11 of easy parallel static records where 0.05
# are drawn; only a fixed depth keeps a last-resort relax (_RELAX_TRIES).
GENERATOR_VERSION = "10"
UNSEENTIMEQA_VERSION = "5"
"""The version of the records ``asked_minute=unseentimeqa`` makes: version 5's,
byte for byte (their random key, stamp and ids are version 5's)."""
# Ids carry the options' fingerprint (``logistics-5-2-9f1c0e``), so that
# runs with different options never share an id.
QuestionKind = Literal["static", "relative", "hypothetical"]
QUESTION_KINDS: tuple[QuestionKind, ...] = ("static", "relative", "hypothetical")
DEPTH_RANGE = (6, 20)
MAX_DEPTH = 40
_SCENARIO_TRIES = 160
_FIXED_TRIES = 30
_KIND_TRIES = 100
# Every this many tries the two per-record draws that only spread the
# answers (AnswerPlace, NAMED_MOST_KEPT) are drawn anew for the record, whole
# and by a fresh key (redraw k at try k * _REDRAW_TRIES): a package parked in
# another vehicle with all of the record's draws is the hardest to find, and
# some draws meet no plan of the record's relation. A redraw never lets the
# package or the world be chosen to fit: the record is made with one complete
# draw (the draws hard to meet are a little rarer than declared, since they
# are the ones replaced: 0.04 of starts at an airport where 0.05 are drawn),
# while dropping a field (version 9 dropped the number of cities and the
# starting kind after 60 tries) let the package chosen be the one that fitted,
# and its starting place then told where the answer was (0.11 at an airport).
_REDRAW_TRIES = 30
# With the depth given, after this many tries the record asks as split 1
# does (_redraw_target) and its AnswerPlace and NAMED_MOST_KEPT draws are
# dropped: a fixed small depth may offer no minute that meets them, and a
# record made without them beats no record. With the depth drawn, redraws
# suffice (2 of 600 easy parallel static and medium parallel hypothetical
# records of seed 0 passed 120 tries, both made by a later redraw).
_RELAX_TRIES = 120
_RELATION_TRIES = 150
_QUESTION_TRIES = 25
_TIMINGS_PER_PLAN = 4


@dataclass(frozen=True)
class GenerateParams:
    """What to generate. ``depth=None`` draws it per record from 6..20, the
    benchmark's range."""

    difficulty: Difficulty = "hard"
    execution: Execution = "serial"
    question: QuestionKind = "static"
    depth: int | None = None
    asked_minute: AskedMix = "tracked"

    def __post_init__(self) -> None:
        if self.difficulty not in DIFFICULTIES:
            raise TsolveError(f"difficulty: unknown value {self.difficulty!r} (easy, medium, hard)")
        if self.execution not in EXECUTIONS:
            raise TsolveError(f"execution: unknown value {self.execution!r} (serial, parallel)")
        if self.question not in QUESTION_KINDS:
            raise TsolveError(
                f"question: unknown value {self.question!r} (static, relative, hypothetical)"
            )
        if self.depth is not None and not 1 <= self.depth <= MAX_DEPTH:
            raise TsolveError(f"depth: must be between 1 and {MAX_DEPTH}, got {self.depth}")
        if self.depth == 1 and self.difficulty == "hard" and self.question == "hypothetical":
            raise TsolveError("depth: hard hypothetical questions need depth >= 2")
        if self.asked_minute not in ASKED_MIXES:
            raise TsolveError(
                f"asked-minute: unknown value {self.asked_minute!r} ({', '.join(ASKED_MIXES)})"
            )

    @property
    def version(self) -> str:
        """The generator version of the records these options make."""
        return UNSEENTIMEQA_VERSION if self.asked_minute == "unseentimeqa" else GENERATOR_VERSION

    @property
    def random_key(self) -> str:
        """What, beside the seed and index, a record's randomness is keyed on:
        since version 6 the options too (their fingerprint), so that runs
        with other options are other draws, not the same draws made
        otherwise (record i of two configurations would share its relation,
        kind and depth draws); version 5's key, the version alone, for
        ``asked_minute=unseentimeqa``."""
        if self.asked_minute == "unseentimeqa":
            return UNSEENTIMEQA_VERSION
        return f"{GENERATOR_VERSION}-{options_fingerprint(self.to_json())}"

    @property
    def question_type(self) -> QuestionType:
        return f"{self.question}_time"  # type: ignore[return-value]

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``. ``asked_minute=unseentimeqa`` is left out:
        its records are version 5's, whose options did not name it."""
        out: dict[str, Any] = {
            "difficulty": self.difficulty,
            "execution": self.execution,
            "question": self.question,
            "depth": self.depth,
        }
        if self.asked_minute != "unseentimeqa":
            out["asked_minute"] = self.asked_minute
        return out


def generate_records(
    count: int, seed: int, params: GenerateParams, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of the run ``(seed, params)``, made
    as they are read. A negative ``start`` or ``count`` raises at once, before
    any output is opened."""
    return run_records(generate_record, count, seed, params, start)


def generate_record(seed: int, index: int, params: GenerateParams) -> dict[str, Any]:
    """Record ``index`` of run ``seed`` (see the module docstring)."""
    rng = record_rng(GENERATOR_NAME, params.random_key, seed, index)
    tracked = params.asked_minute == "tracked"
    # The relation, the kind of asked minute and the depth are drawn once, before any retry,
    # so that retries cannot skew their mix towards what is easy to find.
    # After _FIXED_TRIES tries the depth is drawn anew for each (it is not in
    # the prompt, while the kind shapes the answer), and after _KIND_TRIES
    # (after _FIXED_TRIES when the options fix the depth) the kind too: no scenario
    # offers some pairs (an unloading one step after the package's first
    # event), and parked minutes are rare in parallel plans (about 1 hard
    # parallel record in 300 gets that far; docs/logistics.md has the
    # resulting mix against split 1's).
    # With the asked package's relation drawn, any depth of the range will
    # do (the relation is what shapes the answer; split 1's depths are spread
    # over the range): the package and the event are then drawn together.
    # The answer's place and the named-most draw are drawn whole, anew every
    # _REDRAW_TRIES tries, each redraw by a key of its own (_answer_place).
    block = _block_relation(seed, index, params) if tracked else None
    target = _draw_target(rng, params, tracked, block)
    free = tracked and params.depth is None
    depth = 0 if free else _draw_depth(rng, params)
    placed: AnswerPlace | None = None
    named_most = True
    for attempt in range(_SCENARIO_TRIES):
        if attempt >= _FIXED_TRIES:
            depth = 0 if free else _draw_depth(rng, params)
            if params.depth is not None or attempt >= _KIND_TRIES:
                target = _redraw_target(rng, params, tracked, target, attempt)
        if not tracked or (params.depth is not None and attempt >= _RELAX_TRIES):
            placed, named_most = None, True
        else:
            # drawn for the target's relation (redrawn per try after
            # _RELATION_TRIES), the draw itself only every _REDRAW_TRIES
            redraw = attempt // _REDRAW_TRIES
            placed = _answer_place(seed, index, params, target[0], redraw)
            named_most = _named_most_allowed(seed, index, params, redraw)
        depths = tuple(range(DEPTH_RANGE[0], DEPTH_RANGE[1] + 1)) if free else (depth,)
        planned = _plan(rng, params, depths, target, placed.cities if placed else None)
        if planned is None:
            continue
        # In a parallel plan the durations decide which events overlap, so a
        # plan whose list offers the kind gets a few draws of them.
        for _ in range(_TIMINGS_PER_PLAN if params.execution == "parallel" else 1):
            scenario = _timed(rng, params, *planned)
            record = _question_record(rng, scenario, params, depths, target, placed, named_most)
            if record is not None:
                record["id"] = record_id(seed, index, params)
                record["generator"] = generator_stamp(
                    GENERATOR_NAME, params.version, seed, index, params.to_json()
                )
                return _ordered(record)
    asked = f"depth {DEPTH_RANGE[0]}-{DEPTH_RANGE[1]}" if free else f"a depth-{depth}"
    raise TsolveError(
        f"depth: could not build a scenario with {asked} question "
        f"in {_SCENARIO_TRIES} tries (seed {seed}, index {index})"
    )


Target = tuple[Relation, Kind | None]
"""Where the asked package is to be: its relation to the event in progress,
and for ``event`` the kind of minute (a relation alone otherwise)."""


AIRPORT_SHARE = 0.8
"""With ``asked_minute=tracked``, the share of records whose answer's place
(where the package lies, or the vehicle it is in stands) is an airport; the
others' is a depot or the package's starting place (a package on the move has
no place: its kind of minute, drawn before, decides that). Airports are the
answers every world shares (``l0_0``, ``l1_0``), so this share sets the best
constant answer (chance): at 0.6 chance fell to 0.10 in easy parallel
cells, under the one record in seven a policy reading the event in progress
answers."""

PARKED_AIRPORT_SHARE = 0.3
""":data:`AIRPORT_SHARE` for a package parked in another vehicle (the
``vehicle`` relation). At an airport that vehicle is nearly always a plane
that flew the package out of its starting city (a plane loads and leaves),
so its airport is drawn among the other cities' only; drawn as often as
the other relations' airports, a two-city world's one other airport held
a fifth of the answers."""

THREE_CITY_SHARE = 0.3
"""With ``asked_minute=tracked``, the share of records whose world has three
cities (the others two), drawn once per record with :class:`AnswerPlace`:
drawn with the world, at each try, the worlds that suit the record's other
draws were kept (parked packages at another airport found three cities
more often), and the number of cities, which the text states, told the
answer."""

START_AIRPORT_SHARE = 0.05
"""With ``asked_minute=tracked``, the share of records asking about a package
that starts at an airport (the others, at a depot), drawn with
:class:`AnswerPlace`: chosen freely, the package asked about was the one
that fitted the record's draws, and one starting at an airport was mostly
the one that could be at another city's airport, so the starting place's
kind told where the answer was.

Kept small because such a package is never asked at its own airport (it
leaves it at its first step), so its airport answers lie in the other
cities only: counted from its starting city, "the next city's airport"
(or, in three cities, "the plane at the airport two cities on") is right
more often than any one airport is. On 1,500 records of seed 0, the
commonest answer relative to the starting city beat the best constant by
0.037 (easy parallel static) and 0.061 (medium parallel hypothetical) at
0.3, by 0.029 and 0.047 at 0.15, two thirds of it from these records;
at 0.05, by 0.002 on 1,000 easy parallel static records (fitted on
another seed's)."""


@dataclass(frozen=True)
class AnswerPlace:
    """Where a record's answer is to lie, drawn per record
    (:func:`_answer_place`): the world's number of cities, whether the
    asked package starts at an airport, an airport or not, and for an
    airport, which city's: the ``floor(rank * n)``-th of the
    world's ``n`` cities counted from the package's starting city (0 is
    that city itself), so that every city's airport is as likely whichever
    city the package starts in; for a package parked in another vehicle,
    the ``floor(rank * (n - 1)) + 1``-th (``away``), never the starting city's.

    Version 8 drew only whether the answer lay in the starting city (half
    the records): the other half then lay mostly at another airport, in a
    two-city world one airport, which the starting place names (``l1_2`` is
    in city ``c1``), so the other seed's commonest answer for a package
    starting at the same place scored up to 0.09 over the best constant.

    A record whose draw no plan meets draws a whole new one every
    :data:`_REDRAW_TRIES` tries (all fields, by a fresh key), so the one it
    is made with is a complete draw: version 9 dropped ``cities`` and
    ``start_airport`` after 60 tries, and the package then chosen freely
    started at an airport in 0.11 of easy parallel static records where
    :data:`START_AIRPORT_SHARE` draws 0.05."""

    airport: bool
    rank: float
    cities: int
    away: bool = False
    start_airport: bool = False

    def step(self, n: int) -> int:
        """How many cities on from the starting city's the airport is, in a
        world of ``n`` cities."""
        if self.away:
            return 1 + min(int(self.rank * (n - 1)), n - 2)
        return min(int(self.rank * n), n - 1)


def _answer_place(
    seed: int, index: int, params: GenerateParams, relation: Relation | None = None, redraw: int = 0
) -> AnswerPlace:
    """Record ``index``'s :class:`AnswerPlace`, drawn by a key of its own so
    that retries cannot skew it (``relation``: the record's, which sets the
    airport share and whether the starting city's airport may answer);
    ``redraw`` ``k``, made at try ``k * _REDRAW_TRIES``, draws every field
    anew by the key ``...-answer-place-k``."""
    key = f"{params.random_key}-answer-place-{redraw}"
    rng = record_rng(GENERATOR_NAME, key, seed, index)
    parked = relation == "vehicle"
    airport = rng.random() < (PARKED_AIRPORT_SHARE if parked else AIRPORT_SHARE)
    rank = rng.random()
    cities = 3 if rng.random() < THREE_CITY_SHARE else 2
    start_airport = rng.random() < START_AIRPORT_SHARE
    return AnswerPlace(airport, rank, cities, away=parked, start_airport=start_airport)


def _placed(scenario: Scenario, timeline: Timeline, t: int, start: str, want: AnswerPlace) -> bool:
    """Does the package lie at minute ``t`` where ``want`` asks: its place (or
    its vehicle's) an airport or not as drawn, and an airport in the city
    ``want.rank`` picks, the world's cities taken in name order from the
    starting city's on (:meth:`AnswerPlace.step`)? On the move it has no
    place and always fits."""
    where = timeline.at(t).location
    if where is None:
        return True
    world = scenario.world
    cities = sorted(world.cities)
    step = want.step(len(cities))
    # A package that starts at its city's airport is not asked about there
    # again (it leaves at its first step): for it that share asks for a
    # depot instead, or else the package chosen would tell the answer (one
    # starting at an airport would only ever be asked at another).
    airport = want.airport and not (step == 0 and start in world.airports)
    if (where in world.airports) != airport:
        return False
    if not airport:
        return True
    city = cities[(cities.index(world.city_of[start]) + step) % len(cities)]
    return world.city_of[where] == city


NAMED_MOST_KEPT = 0.65
"""With ``asked_minute=tracked``, the share of records that may ask a
question whose answer is a place alone that the story names most often
(the others never do): the busiest airport is where packages wait most, so
the place a text names most was the answer more often than the best
constant is, to a policy that only counts names. Drawn once per record
(:func:`_named_most_allowed`), not per try: a per-try draw is undone by the
retries wherever other answers are scarce. Version 8 kept a quarter,
which put that place 0.06-0.11 *below* chance, information too; since
version 9 the answer's airport is drawn per record (:class:`AnswerPlace`),
and about two thirds keep the place named most near its share of answers."""


def _named_most_allowed(seed: int, index: int, params: GenerateParams, redraw: int = 0) -> bool:
    """May record ``index`` be answered by the place its text names most
    (:data:`NAMED_MOST_KEPT`)? Drawn by a key of its own, anew (``redraw``)
    with the :class:`AnswerPlace`."""
    key = f"{params.random_key}-named-most-{redraw}"
    return record_rng(GENERATOR_NAME, key, seed, index).random() < NAMED_MOST_KEPT


def _named_most(scenario: Scenario) -> set[tuple[str, ...]]:
    """The places the record's text names most often, each as an answer
    set, counted as the text counts them: the objects list names every
    place twice (in the list, in its city) and an airport a third time, the
    initial states each vehicle's and package's place, the events the places
    of their steps (the question's own step is left out)."""
    counts: Counter[str] = Counter(list(scenario.world.city_of) * 2)
    counts.update(scenario.world.airports)
    counts.update(str(v) for v in scenario.initial.values() if v in scenario.world.city_of)
    for e in scenario.events:
        counts.update(str(x) for x in (e.location, e.origin, e.destination) if x is not None)
    top = max(counts.values())
    return {(place,) for place, k in counts.items() if k == top}


def _block_relation(seed: int, index: int, params: GenerateParams) -> Relation:
    """Record ``index``'s relation with ``asked_minute=tracked``: its place
    in a block of :func:`relation_block` (as long as the weights' sum),
    each block shuffled by a random key of its own, so the record is still
    a function of ``(seed, index, options)`` while every block holds the
    weights exactly."""
    weights = RELATION_WEIGHTS[params.execution]
    size = sum(weights.values())
    block_rng = record_rng(GENERATOR_NAME, f"{params.random_key}-relations", seed, index // size)
    return relation_block(weights, block_rng)[index % size]


def _draw_target(
    rng: random.Random, params: GenerateParams, tracked: bool, relation: Relation | None = None
) -> Target:
    """The relation (when ``tracked``: ``relation`` if given, else drawn),
    then for ``event`` the split-1 kind: without ``tracked`` the kind alone
    is drawn, as version 5 drew it."""
    if not tracked:
        relation = "event"
    elif relation is None:
        relation = draw_relation(rng, params.execution)
    if relation != "event":
        return relation, None
    return relation, draw_kind(rng, params.difficulty, params.execution, params.question_type)


def _redraw_target(
    rng: random.Random, params: GenerateParams, tracked: bool, target: Target, attempt: int
) -> Target:
    """The target for a retry: drawn anew, except that with ``tracked`` the
    relation is kept until :data:`_RELATION_TRIES` (only an ``event``
    target's kind is redrawn), since a relation that is hard to find (a
    package waiting while a crowd is on its way) would otherwise give way to
    the easiest one, and the mix would drift towards what reading the event
    in progress answers. With the depth given, the relation is redrawn as
    the kind is: a fixed small depth offers some relations in no plan (a
    package waiting two steps after its first)."""
    if params.depth is not None and attempt >= _RELAX_TRIES:
        # a fixed small depth may offer no plan the tracked relations fit
        # (one step after its first event a package is rarely parked or
        # waiting): the record's last tries ask as split 1 does
        return _draw_target(rng, params, tracked=False)
    if not tracked or params.depth is not None or attempt >= _RELATION_TRIES:
        return _draw_target(rng, params, tracked)
    relation, _kind = target
    if relation != "event":
        return target
    return relation, draw_kind(rng, params.difficulty, params.execution, params.question_type)


def _fits(place: Any, kind: Kind, event: Event, target: Target) -> bool:
    """Is a package in ``place`` (a minute of ``kind``), while ``event`` is
    in progress, where ``target`` asks?"""
    relation, want = target
    if relation_of(place, kind, event) != relation:
        return False
    return want is None or kind == want


def _draw_depth(rng: random.Random, params: GenerateParams) -> int:
    return params.depth if params.depth is not None else rng.randint(*DEPTH_RANGE)


def record_id(seed: int, index: int, params: GenerateParams) -> str:
    """``logistics-5-2-9f1c0e``: seed, index and the fingerprint of the options
    (:func:`tsolve.generators.seeding.options_fingerprint`), so runs made with other
    difficulty, execution, question kind or depth can share a file."""
    return f"logistics-{seed}-{index}-{options_fingerprint(params.to_json())}"


def _plan(
    rng: random.Random,
    params: GenerateParams,
    depths: tuple[int, ...],
    target: Target,
    cities: int | None = None,
) -> tuple[Layout, list[Event]] | None:
    """A random world and its plan, untimed, or None when no package's event
    ``first + depth`` (a depth of ``depths``) can hold a minute ``target``
    asks for: that much follows from the list alone (:func:`_list_fits`),
    before any durations are drawn."""
    size = (3, 6) if max(depths) <= 20 else (5, 8)
    if params.asked_minute == "tracked":
        size = (size[0] + 1, size[1] + 1)  # a crowd on its way at the asked minute (CROWD)
    mixed = params.asked_minute == "tracked"
    if cities is None:
        layout = random_layout(rng, packages=size, mixed=mixed)
    else:
        layout = random_layout(rng, cities=(cities, cities), packages=size, mixed=mixed)
    steps = plan(layout, rng, mixed=params.asked_minute == "tracked")
    if len(steps) <= min(depths):
        return None
    lasts = _last_events(steps)
    group = batches(tuple(steps)) if params.execution == "parallel" else None
    if not any(
        f + depth <= lasts[p] and _list_fits(steps, group, p, f + depth, target)
        for p, f in _first_events(steps).items()
        for depth in depths
    ):
        return None
    return layout, steps


def _list_fits(
    events: list[Event], group: tuple[int, ...] | None, package: str, j: int, target: Target
) -> bool:
    """What the list alone tells of whether event ``j`` can hold a minute
    ``target`` asks for: for ``event``, the kind (:func:`_list_kind`); for
    ``waiting`` in a serial plan, that the package's last own step before
    ``j`` unloaded it at a place ``j`` does not name. A parallel plan's
    durations decide where the package is while ``j`` runs (its unload may
    not have begun), so there only the timed schedule tells."""
    relation, kind = target
    if relation == "event":
        return _list_kind(events, group, package, j) == kind
    if group is not None:
        return True
    e = events[j]
    last = next((x for x in reversed(events[:j]) if x.package == package), None)
    if last is None:
        return False
    if relation == "vehicle":
        # parked in a vehicle that is not the one acting (a mixed plan's
        # vehicles are loaded at once; a plain plan never offers this)
        return last.kind == "load" and last.vehicle != e.vehicle
    return last.kind == "unload" and last.location not in (e.location, e.origin, e.destination)


def _timed(
    rng: random.Random, params: GenerateParams, layout: Layout, steps: list[Event]
) -> Scenario:
    """The plan with random durations (and, for easy and medium, stated times)."""
    durations = [rng.randint(2, 90) for _ in steps]
    hard = Scenario(
        world=layout.world,
        initial=layout.initial,
        events=tuple(s._replace(duration=d) for s, d in zip(steps, durations, strict=True)),
        execution=params.execution,
        goals=layout.goals,
    )
    check_plan(hard)
    if params.difficulty == "hard":
        return hard
    # Easy and medium state their times: the schedule itself, with the short
    # gaps the benchmark leaves between serial events.
    clock0 = rng.randrange(DAY)
    if params.execution == "serial":
        starts, t = [], clock0
        for e in hard.events:
            starts.append(t)
            t += e.duration + rng.randint(2, 7)
    else:
        sched = earliest_schedule(hard)
        starts = [clock0 + s for s in sched.start]
    events = tuple(e._replace(start=s) for e, s in zip(hard.events, starts, strict=True))
    return Scenario(hard.world, hard.initial, events, hard.execution, hard.goals)


def _first_events(events: Any) -> dict[str, int]:
    firsts: dict[str, int] = {}
    for k, e in enumerate(events):
        if e.package is not None:
            firsts.setdefault(e.package, k)
    return firsts


def _last_events(events: Any) -> dict[str, int]:
    lasts: dict[str, int] = {}
    for k, e in enumerate(events):
        if e.package is not None:
            lasts[e.package] = k
    return lasts


def _minutes_of_kind(
    sched: Schedule, timeline: Timeline, j: int, target: Target, events: Sequence[Event]
) -> list[int]:
    """The minutes inside event ``j`` at which the package is where
    ``target`` asks (for ``event``: a minute of its kind, the package in or
    at the event's vehicle, as every split-1 question asks; for ``waiting``,
    lying at a place event ``j`` does not name; for ``vehicle``, in another
    vehicle that has no event in progress then, so that no event in progress
    names it), no later-listed event is in
    progress (depth then reads the same whichever in-progress event one
    counts), and no change point of the package falls (there the half-open
    convention alone would decide its state, and with it the answer or the
    kind)."""
    a, b = sched.start[j], sched.end[j]
    later = [
        (s, e)
        for s, e in zip(sched.start[j + 1 :], sched.end[j + 1 :], strict=True)
        if s < b and e > a
    ]
    out: list[int] = []
    for since, to, place in timeline.segments():
        if not _fits(place, kind_of_segment(since, to, place), events[j], target):
            continue
        lo, hi = max(a, since + 1), b if to is None else min(b, to)
        busy = later
        if target[0] == "vehicle":
            busy = later + [
                (s, e)
                for k, (s, e) in enumerate(zip(sched.start, sched.end, strict=True))
                if events[k].vehicle == place.vehicle and s < hi and e > lo
            ]
        out.extend(t for t in range(lo, hi) if not any(s <= t < e for s, e in busy))
    return out


def _list_kind(
    events: list[Event], group: tuple[int, ...] | None, package: str, j: int
) -> Kind | None:
    """The kind of the package's minutes inside event ``j``, read off the
    list: its own load or unload; a move of the vehicle it is in; a step of
    that vehicle in the same parallel group as its own last step (``group``,
    the batch ids of a parallel plan: the package is busy until the group
    ends); else waiting parked in that vehicle. None when event ``j`` is not
    an event of a vehicle the package is in or at. A package's own steps,
    and a vehicle's, happen in list order, which is why the list tells. In a
    serial plan this is the kind of every minute of event ``j``; in a
    parallel one, of those not taken by a later-listed event."""
    e = events[j]
    if e.package == package:
        return "loading" if e.kind == "load" else "unloading"
    last = next((x for x in reversed(events[:j]) if x.package == package), None)
    if last is None or last.kind == "unload" or e.vehicle != last.vehicle:
        return None
    if e.kind == "move":
        return "moving"
    if group is not None and group[j] == group[last.index]:
        return "loading"
    return "parked"


CROWD = 2
"""With ``asked_minute=tracked``, how many other packages must be on their
way at the asked minute (between their first and last steps), each in a
state other than the asked package's: then the state most packages share,
or the one package on its way, is not the answer unless one tracks which
package is asked (the ``commonest state`` probe of
:mod:`tsolve.families.logistics.tracking_probes`)."""


def _in_crowd(asked: Timeline, others: Sequence[Timeline], t: int) -> bool:
    """Are at least :data:`CROWD` of ``others`` on their way at minute ``t``,
    each somewhere other than ``asked``'s package?"""
    here = asked.at(t).answers
    away = sum(
        1 for o in others if o.position(t) in ("during", "between") and o.at(t).answers != here
    )
    return away >= CROWD


def _fixed_step(
    rng: random.Random, events: Sequence[Event], package: str, j: int, hypothetical: bool
) -> int | None:
    """The step a hard default question fixes the clock at ("If <step>
    starts at HH:MM"): any step listed before event ``j`` that is not one of
    the asked package's (before its what-if's step, which must then follow
    it); None when there is none. UnSeenTimeQA fixes the package's own
    first step, and so did versions 5-7: its place names the city the
    package starts in, and with it the package's likely waits (that city's
    airport and depots, the other city's airport in a two-city world), which
    a classifier of the question's words, or the other seed's commonest
    answer for the step named, reads off without tracking the package. Any
    step fixes the clock as well; one of another package, or a move, says
    nothing of where the asked one is."""
    limit = j - 1 if hypothetical else j
    steps = [k for k in range(limit) if events[k].package != package]
    return rng.choice(steps) if steps else None


def _askable(
    scenario: Scenario,
    graph: Dependencies,
    firsts: dict[str, int],
    depths: tuple[int, ...],
    target: Target,
) -> list[tuple[str, int]]:
    """The packages and depths (of ``depths``) whose event ``first + depth``
    holds a minute ``target`` asks for in the plan's own schedule. A
    question's clock only shifts that schedule, so for static and relative
    questions this is exact; a what-if can change it, and the question is
    checked again after its shift."""
    base = earliest_schedule(scenario, graph)
    lasts = _last_events(scenario.events)
    out: list[tuple[str, int]] = []
    for p in sorted(firsts):
        timeline = Timeline(scenario, base, p)
        for depth in depths:
            j = firsts[p] + depth
            if j <= lasts[p] and _minutes_of_kind(base, timeline, j, target, scenario.events):
                out.append((p, depth))
    return out


def _question_record(
    rng: random.Random,
    scenario: Scenario,
    params: GenerateParams,
    depths: tuple[int, ...],
    target: Target,
    placed: AnswerPlace | None = None,
    named_most: bool = True,
) -> dict[str, Any] | None:
    events = scenario.events
    hard = params.difficulty == "hard"
    lasts = _last_events(events)
    low = min(depths)
    firsts = {p: f for p, f in _first_events(events).items() if f + low <= lasts[p]}
    if not firsts:
        return None
    graph = dependencies_of(scenario)
    askable = _askable(scenario, graph, firsts, depths, target)
    if placed is not None:
        airports = scenario.world.airports
        askable = [
            (p, d) for p, d in askable if (scenario.initial[p] in airports) == placed.start_airport
        ]
    if not askable:
        return None
    other_graphs = [dependencies_of(scenario, t) for t in timings_of(scenario)[1:]]
    crowd = params.asked_minute == "tracked"
    firsts_all = sorted(_first_events(events))
    for _ in range(_QUESTION_TRIES):
        package, depth = rng.choice(askable)
        f = firsts[package]
        j = f + depth
        fixed: int | None = f
        if hard and crowd:
            fixed = _fixed_step(rng, events, package, j, params.question == "hypothetical")
        if fixed is None:
            continue
        anchor = (fixed, rng.randrange(DAY)) if hard else None
        shifts: tuple[Shift, ...] = ()
        if params.question == "hypothetical":
            lo = max(f, fixed + 1) if hard else f
            if lo >= j:
                continue
            amount = rng.randint(10, 90) if rng.random() < 0.65 else -rng.randint(2, 30)
            shifts = (Shift(rng.randrange(lo, j), amount),)
        named = [fixed] if hard else []
        named += [s.event for s in shifts]
        if any(scenario.find(events[k].key) != k for k in named):
            continue  # the phrase would name an earlier, identical step
        probe = Question(package, 0, 0, anchor, shifts, params.question_type)
        sched = question_schedule(scenario, probe, graph)
        timeline = Timeline(scenario, sched, package)
        minutes = _minutes_of_kind(sched, timeline, j, target, events)
        for other in other_graphs:
            # The full check of every reading comes below; dropping here the
            # minutes the other timings answer differently saves most redraws.
            alt = Timeline(scenario, question_schedule(scenario, probe, other), package)
            minutes = [m for m in minutes if alt.at(m).answers == timeline.at(m).answers]
        if crowd:
            others = [Timeline(scenario, sched, o) for o in firsts_all if o != package]
            minutes = [m for m in minutes if _in_crowd(timeline, others, m)]
        if placed is not None:
            start = str(scenario.initial[package])
            minutes = [m for m in minutes if _placed(scenario, timeline, m, start, placed)]
            if not named_most:
                most = _named_most(scenario)
                minutes = [m for m in minutes if timeline.at(m).answers not in most]
        if not minutes:
            continue
        t = rng.choice(minutes)
        offset = 0
        if params.question == "relative":
            hours = rng.randint(2, 5)
            offset = hours * 60 * (1 if rng.random() < 0.5 else -1)
        question = Question(
            package, (t - offset) % DAY, offset, anchor, shifts, params.question_type
        )
        res, found = readings(scenario, question, depth, graph)
        if res.minute != t or res.ambiguous_day or not unanimous(found):
            continue  # another reading of the text (docs/ground-truth.md) gives another answer
        return _render(rng, scenario, question, params, depth, res)
    return None


def _render(
    rng: random.Random,
    scenario: Scenario,
    q: Question,
    params: GenerateParams,
    depth: int,
    res: Resolution,
) -> dict[str, Any] | None:
    events = scenario.events
    starts = [e.start if e.start is not None else 0 for e in events]
    sentences = [
        wording.render_event(e, params.difficulty, s, rng)
        for e, s in zip(events, starts, strict=True)
    ]
    if q.offset:
        hours = abs(q.offset) // 60
        rel = "after" if q.offset > 0 else "before"
        minute_text = f"{hours} hours {rel} {format_clock(q.clock)}"
    else:
        minute_text = f"at {format_clock(q.clock)}"
    anchor = (events[q.anchor[0]], q.anchor[1]) if q.anchor else None
    shift = (events[q.shifts[0].event], q.shifts[0].minutes) if q.shifts else None
    record: dict[str, Any] = {
        "data_split": params.difficulty,
        "execution": params.execution,
        "question_type": params.question_type,
        "domain_description": wording.DOMAIN[params.execution],
        "objects_description": wording.render_objects(scenario.world),
        "initial_states_description": wording.render_initial(
            scenario.world, dict(scenario.initial), rng
        ),
        "events": [wording.HEADER, *sentences],
        "question": wording.render_question(q.package, minute_text, anchor, shift),
        "answers": list(res.answers),
        "depth": depth,
    }
    record["prompt"] = render_prompt(record)
    # The text must stand on its own: read it back and answer it again.
    sc2, q2 = parse_item(record)
    again = answer_question(sc2, q2)
    if again.answers != res.answers or again.ambiguous_day:
        raise TsolveError(  # pragma: no cover - a renderer/parser bug, never user input
            f"generator: rendered record does not reproduce its answer "
            f"({again.answers} != {res.answers})"
        )
    record["scenario"] = scenario.to_json()
    record["structured_question"] = q.to_json()
    record["solution"] = {
        "minute": res.minute,
        "clock": format_clock(res.minute),
        "state": res.place.state,
        "event": res.place.cause,
    }
    record["schedule"] = schedule_json(scenario, res)
    return record


#: The fields an UnSeenTimeQA item has: a generated record cut down to these
#: is what the benchmark itself ships (and what ``tsolve logistics answer``
#: reads from English alone).
BENCHMARK_FIELDS = (
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
    "question",
    "answers",
    "depth",
    "data_split",
    "execution",
    "question_type",
)


def benchmark_item(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as the benchmark's own item: its :data:`BENCHMARK_FIELDS` only."""
    return {f: record[f] for f in BENCHMARK_FIELDS}


_ORDER = (
    "id",
    "family",
    "data_split",
    "execution",
    "question_type",
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
    "question",
    "prompt",
    "answers",
    "depth",
    "scenario",
    "structured_question",
    "solution",
    "schedule",
    "generator",
)


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    record["family"] = "logistics"
    return {k: record[k] for k in _ORDER if k in record}
