"""The seed table (tsolve/encodings/facts/seed_table.py): every
seed-determined category's fact on a day, by lookup.

The table fills a whole row from one draw, which is sound only if such a
category partitions the days: the fact drawn on a day holds on exactly the
days that draw it. These tests hold that, and the table's answers, against
``sample`` itself, one day at a time (the reference)."""

from __future__ import annotations

import random

import numpy as np
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import FACT_TYPES, DayView, Fact
from tsolve.encodings.facts.packed import packed_mask, unpack
from tsolve.encodings.facts.seed_table import NONE, SeedTable
from tsolve.testing.strategies import domains

SEEDED = tuple(sorted(k for k, c in FACT_TYPES.items() if c.seed_determined))


def _drawn(kind: str, day: int, domain: DateDomain) -> Fact | None:
    return FACT_TYPES[kind].sample(random.Random(0), DayView.of_day(day), domain, None)


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_a_seed_determined_fact_is_drawn_on_exactly_the_days_it_holds(
    data: st.DataObject,
) -> None:
    domain = data.draw(domains(max_years=80))
    kind = data.draw(st.sampled_from(SEEDED))
    if not FACT_TYPES[kind].available(domain):
        return
    day = data.draw(st.integers(domain.start, domain.end))
    fact = _drawn(kind, day, domain)
    if fact is None:
        return
    holds = unpack(packed_mask(fact, domain), domain.size)
    assert holds[day - domain.start]
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    inside = np.flatnonzero(holds)
    outside = np.flatnonzero(~holds)
    for idx in rng.sample(list(inside), min(8, inside.size)):
        assert _drawn(kind, domain.start + int(idx), domain) == fact
    for idx in rng.sample(list(outside), min(8, outside.size)):
        assert _drawn(kind, domain.start + int(idx), domain) != fact


@settings(max_examples=examples(20), deadline=None)
@given(st.data())
def test_the_table_gives_each_category_the_fact_sample_draws(data: st.DataObject) -> None:
    domain = data.draw(domains(max_years=60))
    kinds = tuple(k for k in SEEDED if FACT_TYPES[k].available(domain))
    table = SeedTable(domain, kinds)
    days = data.draw(st.lists(st.integers(domain.start, domain.end), min_size=1, max_size=12))
    for day in days:
        rows = table.rows(day)
        assert rows.shape == (len(kinds),)
        for k, row in zip(kinds, rows.tolist(), strict=True):
            want = _drawn(k, day, domain)
            if want is None:
                assert row == NONE
                continue
            assert table.facts[row] == want
            lo, hi = 0, table.masks.shape[1]
            window = table.windows(np.asarray([row]), lo, hi)[0]
            assert np.array_equal(window, packed_mask(want, domain))


UNSEEDED = tuple(sorted(k for k, c in FACT_TYPES.items() if not c.seed_determined))


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_a_drawn_fact_gets_a_row_only_with_its_mask_and_the_row_is_its_mask(
    data: st.DataObject,
) -> None:
    # Any fact (here one drawn at random on a day) has a row once the mask
    # table holds its mask, and that row's mask, size and kind rank are the
    # fact's own: the search's pools gather candidates by row.
    from tsolve.encodings.facts.base import kind_ranks
    from tsolve.encodings.facts.packed import mask_table

    domain = data.draw(domains(max_years=80))
    kind = data.draw(st.sampled_from(UNSEEDED))
    if not FACT_TYPES[kind].available(domain):
        return
    day = data.draw(st.integers(domain.start, domain.end))
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    fact = FACT_TYPES[kind].sample(rng, DayView.of_day(day), domain, None)
    if fact is None:
        return
    table = SeedTable(domain, SEEDED)
    table._entries.clear()  # a fresh mask table's state: the fact not yet kept
    assert table.row(fact) == -1
    words = mask_table(domain).words(fact)  # the mask is now kept
    row = table.row(fact)
    assert row >= 0 and table.row(fact) == row
    assert table.facts[row] == fact
    assert np.array_equal(table.masks[row], words)
    assert table.sizes[row] == int(unpack(words, domain.size).sum())
    assert table.ranks[row] == kind_ranks()[kind]
