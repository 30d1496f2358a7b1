"""The battery of answers on which tsolve's Time Puzzles scorer is set beside
the paper's own (``benchmarks/paper_scorer_parity.py``, docs/scoring.md).

For a record's gold dates it writes the outputs where two scorers of the
paper's Appendix B and E can differ: the gold, partly right answers,
over-answers, hedges, ``None`` beside dates, text the paper's rules misread
(a later "answer:", prose, lower-case "none", dates written otherwise),
every honest style of :mod:`tsolve.stress.honest` and every policy of the
adversarial suite (:mod:`tsolve.stress.adversarial`). Each output is built
from the gold alone (the adversarial policies also see the other records,
as in the suite), never from a scorer's reading of it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tsolve.stress.adversarial import GUESSES, HONEST, NO_ANSWER, constant_policies, make_item
from tsolve.stress.honest import gold_of, styles

Output = Callable[[list[str], dict[str, Any]], "str | None"]
"""``output(gold dates, record) -> model output``, or None when it does not apply."""


def _answer(dates: list[str]) -> str:
    return ", ".join(dates) if dates else "None"


def _other_date(gold: list[str]) -> str:
    """A real date near the gold (or in 2000) that is not in it."""
    start = _dt.date.fromisoformat(gold[0]) if gold else _dt.date(2000, 1, 1)
    d = start
    while d.isoformat() in gold:
        d += _dt.timedelta(days=1)
    return d.isoformat()


def _unpadded(iso: str) -> str:
    d = _dt.date.fromisoformat(iso)
    return f"{d.year}-{d.month}-{d.day}"


def _when(cond: Callable[[list[str]], bool], fn: Callable[[list[str]], str]) -> Output:
    return lambda g, r: fn(g) if cond(g) else None


ANY = lambda g: True  # noqa: E731
SOME = lambda g: bool(g)  # noqa: E731
MANY = lambda g: len(g) >= 2  # noqa: E731
NONE = lambda g: not g  # noqa: E731
OTHER = _other_date

BATTERY: dict[str, Output] = {
    # --- right and partly right
    "gold": _when(ANY, lambda g: "MY ANSWER: " + _answer(g)),
    "gold after step-by-step reasoning": _when(
        ANY, lambda g: "Step 1: the year.\nStep 2: the month.\n\nMY ANSWER: " + _answer(g)
    ),
    "gold with a date repeated": _when(SOME, lambda g: "MY ANSWER: " + _answer([*g, g[0]])),
    "partly right: one gold date left out": _when(MANY, lambda g: "MY ANSWER: " + _answer(g[1:])),
    "partly right: one gold date swapped for another": _when(
        SOME, lambda g: "MY ANSWER: " + _answer([*g[1:], OTHER(g)])
    ),
    "wrong: None for a puzzle with dates": _when(SOME, lambda g: "MY ANSWER: None"),
    "wrong: a date for a puzzle with none": _when(NONE, lambda g: "MY ANSWER: 2000-01-01"),
    # --- over-answers and hedges
    "over-answer: gold plus one more date": _when(
        ANY, lambda g: "MY ANSWER: " + _answer([*g, OTHER(g)])
    ),
    "over-answer: one more date, then the gold": _when(
        SOME, lambda g: "MY ANSWER: " + _answer([OTHER(g), *g])
    ),
    "hedge: gold or another date": _when(
        SOME, lambda g: "MY ANSWER: " + _answer(g) + " or " + OTHER(g)
    ),
    "hedge: 'None or' a date": _when(
        ANY, lambda g: "MY ANSWER: None or " + _answer(g or [OTHER(g)])
    ),
    "hedge: 'Nonetheless, I cannot tell.'": _when(
        ANY, lambda g: "MY ANSWER: Nonetheless, I cannot tell."
    ),
    "hedge: 'None of these can be pinned down'": _when(
        ANY, lambda g: "MY ANSWER: None of these can be pinned down."
    ),
    # --- None beside dates
    "None beside the gold dates": _when(SOME, lambda g: "MY ANSWER: " + _answer(g) + ", None"),
    "gold, then '(None of the others fit)'": _when(
        SOME, lambda g: "MY ANSWER: " + _answer(g) + " (None of the others fit)"
    ),
    "None, then a rejected date in brackets": _when(
        NONE, lambda g: "MY ANSWER: None (2000-01-01 fails the weekday)"
    ),
    # --- what the release's rules read that the model did not answer
    "gold, then a later line with 'answer:'": _when(
        ANY,
        lambda g: "MY ANSWER: " + _answer(g) + "\n\nI double-checked this answer: it holds.",
    ),
    "gold, then a later 'the answer is' in prose": _when(
        ANY,
        lambda g: "The answer is found below.\nMY ANSWER: " + _answer(g),
    ),
    "reasoning says 'the answer is' a wrong date, no final line": _when(
        ANY, lambda g: "I think the answer is " + OTHER(g) + ", but I am not sure."
    ),
    "gold in prose after reasoning: 'I believe the answer is ...', no final line": _when(
        SOME, lambda g: "Step 1: the year.\nSo I believe the answer is " + _answer(g) + "."
    ),
    "hedged prose: 'the answer is probably ... or ...', no final line": _when(
        SOME,
        lambda g: "Step 1: the year.\nThe answer is probably " + _answer(g) + " or " + OTHER(g),
    ),
    "gold, then the prompt's instruction quoted": _when(
        SOME,
        lambda g: (
            "MY ANSWER: "
            + _answer(g)
            + '\n(Had nothing fit, I would have written "MY ANSWER: None".)'
        ),
    ),
    "gold without zero padding (2020-1-5)": _when(
        SOME, lambda g: "MY ANSWER: " + ", ".join(_unpadded(d) for d in g)
    ),
    "gold with slashes (2020/01/05)": _when(
        SOME, lambda g: "MY ANSWER: " + ", ".join(d.replace("-", "/") for d in g)
    ),
    "gold 'None' in lower case": _when(NONE, lambda g: "MY ANSWER: none"),
    "gold 'NONE' in capitals": _when(NONE, lambda g: "MY ANSWER: NONE"),
    "invalid date after the marker": _when(ANY, lambda g: "MY ANSWER: 2023-02-30"),
    "gold dates across lines under the marker": _when(
        MANY, lambda g: "MY ANSWER: " + g[0] + ",\n" + ", ".join(g[1:])
    ),
}
"""Hand-written outputs, each from the gold dates alone."""


def battery(records: Sequence[dict[str, Any]]) -> Iterator[tuple[str, int, str]]:
    """``(style, record index, output)`` for every style that applies."""
    for i, rec in enumerate(records):
        gold = rec["answers"]
        for name, fn in BATTERY.items():
            text = fn(gold, rec)
            if text is not None:
                yield "battery: " + name, i, text
    for name, style in styles("time-puzzles").items():
        for i, rec in enumerate(records):
            text = style(gold_of("time-puzzles", rec))
            if text is not None:
                yield "honest style: " + name, i, text
    items = [make_item("time-puzzles", r) for r in records]
    guesses = {**constant_policies(items), **GUESSES}
    policies = {
        **{"adversarial no-answer: " + k: v for k, v in NO_ANSWER.items()},
        **{"adversarial guess: " + k: v for k, v in guesses.items()},
        **{"adversarial honest: " + k: v for k, v in HONEST.items()},
    }
    for name, policy in policies.items():
        for i, item in enumerate(items):
            yield name, i, policy(item, items, i)
