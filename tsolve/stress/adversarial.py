"""``tsolve stress --adversarial``: can a trivial policy farm a score?

tsolve's scores are RL rewards and benchmark figures, so a policy that needs
no reasoning (a constant answer, a hedge, a list of every candidate, an echo
of the prompt, the gold of another item) must never score more than an honest
blind guesser. For each family this module runs a battery of such policies
(:data:`POLICIES`) over a set of records and compares every metric the
family reports with the family's **chance baseline** on that same set
(:func:`chance_baseline`): the best a guesser can do who answers each item
with one constant gold-shaped answer per visible stratum (for yes/no items
the frequency of the more common label; for dates the most frequent gold).
Nothing assumes balanced labels.

It also runs **honest** policies: the gold written as models write it (a full
stop after "Yes", extra spaces, reasoning before the final line, ``\\boxed``,
written dates), and every honest style of :mod:`tsolve.stress.honest`
(markdown, headings, lists, Unicode dashes, justifications, ...). Each must
score 1.0 on every item in the family's main metric and the reward.

Every output goes through :func:`tsolve.verifiers.final_answer.score_output`,
the one function behind ``tsolve verify``, the facade's ``score_answer`` and
the Inspect scorer, so the figures hold for all three.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract import get_family
from tsolve.contract.family import Record, resolve
from tsolve.stress.honest import run_styles
from tsolve.verifiers.gold_answers import gold_answer


def suite_families(include_entry_points: bool = False) -> tuple[str, ...]:
    """The families whose records are generated and scored from free model
    text (every one that declares ``generate`` and ``score``): the built-in
    ones in registry order, then (with ``include_entry_points``) the
    installed packages'. :data:`FAMILIES` is the built-in list."""
    from tsolve.contract import all_families

    return tuple(
        f.name
        for f in all_families(include_entry_points)
        if f.generate is not None and f.score is not None
    )


def suite_family(name: str) -> str:
    """``name`` as a family the suites can run (registered, generating and
    scoring), or a one-line error listing those that can."""
    fam = get_family(name, need="generate")
    fam.require("score")
    return fam.name


def default_options(family: str) -> dict[str, Any]:
    """The generator options the suites run ``family`` with: its
    ``adversarial_options`` part (default: the generator's own defaults)."""
    return dict(get_family(family).adversarial_options)


FAMILIES: tuple[str, ...] = suite_families()
"""The built-in families whose records are scored from free model text."""


def __getattr__(name: str) -> Any:
    # Views of the families' declarations, under their old names: built on use.
    from tsolve.contract import builtin_families

    if name == "DEFAULT_OPTIONS":
        return {f: default_options(f) for f in suite_families()}
    if name == "ROTATED_OPTIONS":
        return {f.name: f.adversarial_rotate for f in builtin_families() if f.adversarial_rotate}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


TOLERANCE = 1e-9
"""Slack in ``policy mean <= baseline``: float sums only."""

HEDGES = (
    "I have no idea, sorry.",
    "No idea.",
    "There is no way to know.",
    "Not sure. Yes or no? I can't tell.",
    "{m} Yes or No",
    "{m} Yes/No",
    "{m} unknown",
    "{m} I don't know",
    "{m} No idea",
    "{m} not sure",
    "{m} either",
    "{m} maybe",
    "{m} It could be yes or no.",
    "{m} Probably not, but maybe yes.",
    "{m} No way to tell.",
    "{m} Yes. No.",
    "{m} None of the above, or all of them.",
    "{m} cannot be determined",
)
"""Hedges, ``{m}`` standing for the family's marker."""


@dataclass(frozen=True)
class Item:
    """One record with what the policies may look at."""

    record: Record
    gold: str  # the bare gold answer (``Family.answer``)
    marker: str
    stratum: str
    candidates: tuple[str, ...]  # single answers a hedger could list
    prompt: str


Policy = Callable[[Item, Sequence[Item], int], str]
"""``policy(item, all items, index) -> model output``."""


def _m(item: Item, body: str) -> str:
    return f"{item.marker} {body}"


_ELEMENT_SPLIT = re.compile(r"\s*(?:[,;\n]|\bor\b|\band\b)\s*")


def _elements(gold: str) -> set[str]:
    return {e for e in _ELEMENT_SPLIT.split(gold.lower()) if e}


class NoOtherItem(Exception):
    """A policy that answers with another item's gold met an item that has
    no such other item (too few items, or all of its stratum share its gold)."""


def _other_gold(item: Item, items: Sequence[Item], i: int) -> str:
    """The gold of another item of the same stratum (what a guesser could
    answer in this item's format), preferring one that shares no element
    with this gold (so that "gold or other gold" is never the gold itself),
    else any that differs. :class:`NoOtherItem` when there is none: the
    policy then cannot be formed, and is skipped, never scored on the gold
    itself or on another format's answer."""
    n = len(items)
    mine = _elements(item.gold)
    others = [o for o in (items[(i + k) % n] for k in range(1, n)) if o.stratum == item.stratum]
    for ok in (lambda o: not (_elements(o.gold) & mine), lambda o: o.gold != item.gold):
        for other in others:
            if ok(other):
                return other.gold
    raise NoOtherItem(
        f"needs another item of stratum {item.stratum!r} with a different gold; "
        f"item {i} has none among {n} item{'s' if n != 1 else ''}"
    )


def _oneline(text: str) -> str:
    return " ".join(text.split())


def _lines(item: Item, body: str) -> str:
    """``body`` after the marker, one marker per line of a multi-line answer."""
    return "\n".join(_m(item, ln) for ln in body.splitlines() if ln.strip())


NO_ANSWER: dict[str, Policy] = {
    "empty": lambda it, items, i: "",
    "echo prompt": lambda it, items, i: it.prompt,
    "list every candidate (or)": lambda it, items, i: _m(it, " or ".join(it.candidates)),
    "list every candidate (,)": lambda it, items, i: _m(it, ", ".join(it.candidates)),
    "gold then every candidate": lambda it, items, i: _m(
        it, _oneline(it.gold) + " or " + " or ".join(it.candidates)
    ),
    "gold or another item's gold": lambda it, items, i: _m(
        it, _oneline(it.gold) + " or " + _oneline(_other_gold(it, items, i))
    ),
    "JSON dump of candidates": lambda it, items, i: _m(
        it, json.dumps({"answer": list(it.candidates)})
    ),
    "Yes. No.": lambda it, items, i: _m(it, "Yes. No."),
    "gold in text, no final line": lambda it, items, i: (
        f"Reasoning... one option is {_oneline(it.gold)}, another is "
        f"{_oneline(_other_gold(it, items, i))}.\nI cannot decide."
    ),
}
"""Policies that commit to no single answer (hedges, lists, dumps, echoes):
each must score exactly 0 in every metric."""


def _hedge(template: str) -> Policy:
    """The policy answering ``template`` with the family's marker for ``{m}``."""
    return lambda it, items, i: template.format(m=it.marker)


def _constant(answer: str) -> Policy:
    """The policy giving ``answer`` after the marker, whatever the item."""
    return lambda it, items, i: _lines(it, answer)


NO_ANSWER.update({f"hedge: {h.format(m='').strip()}": _hedge(h) for h in HEDGES})

GUESSES: dict[str, Policy] = {
    "echo prompt, then a constant": lambda it, items, i: it.prompt + "\n" + _m(it, "Yes"),
    # Every candidate on its own marker line, then a constant: the last line
    # counts, so this scores what the constant does. (Ending on a candidate
    # would be a guess informed by the gold: content candidates are the days
    # of the gold's month, which no blind guesser knows.)
    "candidate per marker line": lambda it, items, i: "\n".join(
        [*(_m(it, c) for c in it.candidates), _m(it, "None")]
    ),
    "two final answers, gold first": lambda it, items, i: (
        _lines(it, it.gold) + "\n\n" + _lines(it, _other_gold(it, items, i))
    ),
    "gold in reasoning, other final": lambda it, items, i: (
        f"It might be {_oneline(it.gold)}.\n" + _lines(it, _other_gold(it, items, i))
    ),
    "another item's gold": lambda it, items, i: _lines(it, _other_gold(it, items, i)),
}
"""Policies that commit to one answer chosen without reasoning (the last of
several final answers counts): each may score at most the chance baseline.
:func:`constant_policies` adds one constant answer per frequent gold."""


def constant_policies(items: Sequence[Item], k: int = 5) -> dict[str, Policy]:
    """``constant: X`` for the ``k`` most frequent golds, ``Yes``, ``No`` and ``None``."""
    golds = [g for g, _n in Counter(it.gold for it in items).most_common(k)]
    out: dict[str, Policy] = {}
    for c in dict.fromkeys([*golds, "Yes", "No", "None"]):
        out[f"constant: {_oneline(c)[:40]}"] = _constant(c)
    return out


HONEST: dict[str, Policy] = {
    "gold, as the facade's answer": lambda it, items, i: it.gold,
    "gold after the marker": lambda it, items, i: _lines(it, it.gold),
    "reasoning, then gold": lambda it, items, i: (
        "Let me think step by step.\nFirst, the facts.\n\n" + _lines(it, it.gold)
    ),
    "gold with a full stop and spaces": lambda it, items, i: "\n".join(
        f"  {it.marker}   {ln.strip()}.  " for ln in it.gold.splitlines() if ln.strip()
    ),
    "gold in lower case": lambda it, items, i: (
        _lines(it, it.gold.lower()) if "\n" not in it.gold else _lines(it, it.gold)
    ),
    "gold in \\boxed{}": lambda it, items, i: (
        "Reasoning.\n" + _m(it, "\\boxed{" + it.gold + "}")
        if "\n" not in it.gold
        else _lines(it, it.gold)
    ),
    "gold in bold markdown": lambda it, items, i: "\n".join(
        f"**{it.marker}** {ln.strip()}" for ln in it.gold.splitlines() if ln.strip()
    ),
    "gold, dates written out": lambda it, items, i: _lines(it, _written_dates(it.gold)),
}


_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _written_dates(text: str) -> str:
    """ISO dates as "May 5, 2014" (alternating with "5 May 2014")."""
    count = [0]

    def one(m: re.Match[str]) -> str:
        d = _dt.date(int(m[1]), int(m[2]), int(m[3]))
        count[0] += 1
        month = d.strftime("%B")
        return f"{month} {d.day}, {d.year}" if count[0] % 2 else f"{d.day} {month} {d.year}"

    return _ISO.sub(one, text)


# ------------------------------------------------------------------ items


def _prompt(record: Record) -> str:
    text = record.get("prompt") or record.get("question") or ""
    return str(text)


def date_candidates(gold: str) -> tuple[str, ...]:
    """Every date of the gold's year (2024 when the gold is None), ISO."""
    years = [int(y) for y, _m, _d in _ISO.findall(gold)] or [2024]
    y = years[0]
    start, end = _dt.date(y, 1, 1).toordinal(), _dt.date(y, 12, 31).toordinal()
    return tuple(_dt.date.fromordinal(d).isoformat() for d in range(start, end + 1))


_date_candidates = date_candidates  # the name the suite's callers used


def date_item(record: Record, gold: str) -> tuple[str, tuple[str, ...]]:
    """One stratum, and every date of the gold's year: the view of a family
    whose answers are sets of dates (an ``adversarial_item`` part)."""
    return "all", date_candidates(gold)


GENERIC_CANDIDATES = ("Yes", "No", "None", "0", "1")
"""What a hedger lists beside a non-date gold when the family says nothing
about its answers: the gold itself, then these."""


def default_item(record: Record, gold: str) -> tuple[str, tuple[str, ...]]:
    """The view of a family that declares no ``adversarial_item``: one
    stratum; as candidates every date of the gold's year when the gold is a
    date, else the gold and :data:`GENERIC_CANDIDATES` (so "list every
    candidate" always lists the gold beside other answers)."""
    if _ISO.search(gold):
        return date_item(record, gold)
    first = gold.splitlines()[0].strip() if gold.strip() else gold
    return "all", tuple(dict.fromkeys((first, *GENERIC_CANDIDATES)))


def make_item(family: str, record: Record) -> Item:
    """``record`` with its gold, marker, stratum and candidate answers (the
    family's ``adversarial_item`` part, else :func:`default_item`)."""
    fam = get_family(family)
    gold = gold_answer(record, fam)
    view = resolve(fam.adversarial_item) if fam.adversarial_item is not None else default_item
    stratum, candidates = view(record, gold)
    return Item(record, gold, fam.answer_marker, str(stratum), tuple(candidates), _prompt(record))


MAX_SHARED_CANDIDATES = 30
"""How many of the run's golds :func:`make_items` adds to the candidates of a
family that declares no ``adversarial_item``."""


def make_items(family: str, records: Sequence[Record]) -> list[Item]:
    """:func:`make_item` of every record. A family that declares no
    ``adversarial_item`` knows no candidates of its own beyond the gold, so
    each item's candidates also hold the run's commonest golds (up to
    :data:`MAX_SHARED_CANDIDATES`): a hedger that lists every answer it has
    seen (the seven weekdays, say) is then among the policies."""
    items = [make_item(family, r) for r in records]
    if get_family(family).adversarial_item is not None:
        return items
    seen = [g for g, _n in Counter(_oneline(it.gold) for it in items).most_common()]
    shared = tuple(seen[:MAX_SHARED_CANDIDATES])
    return [
        Item(it.record, it.gold, it.marker, it.stratum,
             tuple(dict.fromkeys((*it.candidates, *shared))), it.prompt)
        for it in items
    ]  # fmt: skip


def generate_records(family: str, n: int, seed: int) -> list[Record]:
    """Records ``0..n-1`` of run ``seed`` with the family's
    ``adversarial_options``; in a family with an ``adversarial_rotate``
    option (whose values make the strata :func:`make_item` tells apart: a
    relational puzzle asks for date tuples or for one event's dates), record
    ``i`` takes its ``(seed + i) mod k``-th value of the family's stress
    choices (deterministic, and a different seed puts other records in each
    stratum), so each stratum is in every run."""
    fam = get_family(family, need="generate")
    base = default_options(family)
    option = fam.adversarial_rotate or None
    values = fam.choices().get(option, []) if option is not None else []
    configs = [fam.make_options({**base, option: v}) for v in values] if option else []
    if not configs:
        configs = [fam.make_options(base)]
    return [fam.make_record(seed, i, configs[(seed + i) % len(configs)]) for i in range(n)]


# ------------------------------------------------------------------ scoring


Score = Callable[[Record, str], dict[str, float]]
"""``score(record, output) -> metrics``."""


def shared_score(record: Record, output: str) -> dict[str, float]:
    """The metrics ``tsolve verify`` reports for ``output``, plus ``reward``:
    what the facade's ``score_answer`` returns for the same text."""
    from tsolve.contract import family_of
    from tsolve.facade import score_answer
    from tsolve.verifiers.registry import scorer_for

    item = scorer_for(family_of(record))(record, output, diagnose=False)
    metrics = dict(item.metrics)
    metrics["reward"] = score_answer(output, {"metadata": {"record": record}})
    metrics["parse_failed"] = float(item.parse_failed)
    return metrics


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = dict.fromkeys(k for r in rows for k in r)
    n = len(rows)
    return {k: sum(r.get(k, 0.0) for r in rows) / n if n else 0.0 for k in keys}


def chance_baseline(items: Sequence[Item], score: Score = shared_score) -> dict[str, float]:
    """Per metric, the best mean a blind guesser reaches on ``items``: within
    each stratum (what the guesser can see, e.g. a SPAN item's format) it
    answers every item with the one constant gold that scores best on that
    stratum for this metric (the 25 most frequent golds of the stratum are
    tried; for yes/no that is the more frequent label's frequency)."""
    by_stratum: dict[str, list[Item]] = {}
    for it in items:
        by_stratum.setdefault(it.stratum, []).append(it)
    totals: dict[str, float] = {}
    for group in by_stratum.values():
        constants = [g for g, _n in Counter(it.gold for it in group).most_common(25)]
        best: dict[str, float] = {}
        for c in constants:
            rows = [score(it.record, _lines(it, c)) for it in group]
            for k, v in _mean(rows).items():
                best[k] = max(best.get(k, 0.0), v)
        for k, v in best.items():
            totals[k] = totals.get(k, 0.0) + v * len(group)
    return {k: v / len(items) for k, v in totals.items() if k != "parse_failed"}


@dataclass
class FamilyResult:
    """One family's table: the baseline and each policy's mean metrics."""

    family: str
    n: int
    baseline: dict[str, float]
    no_answer: dict[str, dict[str, float]] = field(default_factory=dict)
    guesses: dict[str, dict[str, float]] = field(default_factory=dict)
    honest: dict[str, dict[str, float]] = field(default_factory=dict)
    gameable: tuple[str, ...] = ()
    styles: dict[str, dict[str, float]] = field(default_factory=dict)
    """Honest answer styles (:mod:`tsolve.stress.honest`): the mean metrics
    over the items each applies to, and ``applied``, their number."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Policies that could not be formed on these items, each with why (one
    that answers with another item's gold, given a single item)."""

    def failures(self) -> list[str]:
        """What breaks the rules, one line each: a no-answer policy scoring
        above 0, a guess above the baseline (in a metric not declared
        gameable), an honest policy below 1.0 in the main metric."""
        out = []
        for name, means in self.no_answer.items():
            for k, v in means.items():
                if k != "parse_failed" and k not in self.gameable and v > TOLERANCE:
                    out.append(f"{self.family}: no-answer policy {name!r} scores {k} {v:.3f} > 0")
        for name, means in self.guesses.items():
            for k, v in means.items():
                base = self.baseline.get(k, 0.0)
                if k != "parse_failed" and k not in self.gameable and v > base + TOLERANCE:
                    out.append(
                        f"{self.family}: guess {name!r} scores {k} {v:.3f} > chance {base:.3f}"
                    )
        for name, means in self.honest.items():
            for k in ("em", "accuracy", "reward"):
                if k in means and means[k] < 1.0 - TOLERANCE:
                    out.append(f"{self.family}: honest {name!r} scores {k} {means[k]:.3f} < 1")
        for name, means in self.styles.items():
            for k in ("em", "accuracy", "reward"):
                if k in means and means[k] < 1.0 - TOLERANCE:
                    out.append(
                        f"{self.family}: honest style {name!r} scores {k} {means[k]:.3f} < 1"
                    )
        return out

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "n": self.n, "baseline": self.baseline,
                "no_answer": self.no_answer, "guesses": self.guesses,
                "honest": self.honest, "honest_styles": self.styles,
                "gameable": list(self.gameable), "skipped": self.skipped,
                "failures": self.failures()}  # fmt: skip


def run_family(family: str, records: Sequence[Record], score: Score = shared_score) -> FamilyResult:
    """Every policy (:data:`NO_ANSWER`, :data:`GUESSES` with
    :func:`constant_policies`, :data:`HONEST`) over ``records``."""
    items = make_items(family, records)
    result = FamilyResult(family, len(items), chance_baseline(items, score),
                          gameable=gameable_metrics(family))  # fmt: skip
    guesses = {**constant_policies(items), **GUESSES}
    for table, policies in (
        (result.no_answer, NO_ANSWER),
        (result.guesses, guesses),
        (result.honest, HONEST),
    ):
        for name, policy in policies.items():
            try:
                outputs = [policy(it, items, i) for i, it in enumerate(items)]
            except NoOtherItem as why:  # too few items to form it: said, not passed
                result.skipped[name] = str(why)
                continue
            table[name] = _mean(
                [score(it.record, out) for it, out in zip(items, outputs, strict=True)]
            )
    for name, found in run_styles(family, records, score).items():
        if found.applied:
            result.styles[name] = {**found.means, "applied": float(found.applied)}
    return result


def gameable_metrics(family: str) -> tuple[str, ...]:
    """Metrics the family keeps under a paper's name although a policy can
    farm them (never a reward: :data:`tsolve.verifiers.rewards.GAMEABLE`)."""
    from tsolve.verifiers.rewards import gameable

    return gameable(family)


@dataclass
class AdversarialReport:
    """``tsolve stress --adversarial``: one :class:`FamilyResult` per family."""

    seed: int
    results: list[FamilyResult] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return [line for r in self.results for line in r.failures()]

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "ok": self.ok, "failures": self.failures,
                "families": {r.family: r.to_json() for r in self.results}}  # fmt: skip

    def summary_rows(self) -> list[tuple[str, str, dict[str, float]]]:
        """Per family: the baseline, the highest no-answer and guess means
        and the lowest honest mean (of the policies and of the styles), per
        metric (``(family, row, means)``)."""
        rows = []
        for r in self.results:
            rows.append((r.family, "chance baseline", dict(r.baseline)))
            for label, table, pick in (
                ("best no-answer policy", r.no_answer, max),
                ("best guess", r.guesses, max),
                ("worst honest answer", r.honest, min),
                ("worst honest style", r.styles, min),
            ):
                if not table:
                    continue
                rows.append((r.family, label, {
                    k: pick(means.get(k, 0.0) for means in table.values()) for k in r.baseline
                }))  # fmt: skip
        return rows


def records_per_family(family: str, n: int) -> int:
    """How many records a run of ``n`` uses for ``family``: ``n`` times its
    ``adversarial_scale`` (SPAN, whose records are half yes/no and half
    dates, gets twice as many)."""
    return max(1, get_family(family).adversarial_scale) * n


def run_adversarial(
    families: Sequence[str],
    n: int,
    seed: int,
    records: dict[str, Sequence[Record]] | None = None,
    on_family: Callable[[str], None] | None = None,
) -> AdversarialReport:
    """Every policy against every family of ``families`` on the records of run
    ``seed`` (:func:`records_per_family` of them, :func:`default_options`),
    or on ``records`` given per family. The report fails if a no-answer
    policy scores above 0, a guess above the chance baseline, or an honest
    answer below 1, in any metric not declared gameable."""
    report = AdversarialReport(seed)
    for family in families:
        if on_family is not None:
            on_family(family)
        given = (records or {}).get(family)
        recs = list(given) if given is not None else generate_records(
            family, records_per_family(family, n), seed
        )  # fmt: skip
        report.results.append(run_family(family, recs))
    return report
