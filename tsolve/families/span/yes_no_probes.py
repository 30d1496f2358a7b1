"""SPAN shortcut probes: what a rough conversion, or a file's order, tells.

Three record-level probes of yes/no items, each a policy a person would try
before doing SPAN's exact conversion:

- **table-free estimator**: the project's own estimator
  (:mod:`tsolve.families.span.polar_baseline`: epochs and mean month and year
  lengths, "Yes" within 14 days);
- **gradient-boosted rough distance**: a gradient-boosted classifier, trained
  on another seed's yes/no items, on features a person would pick: the
  candidate's signed and absolute distance from the rough conversion (and its
  fraction of a day), the offset named (count, unit, sign), the festival, the
  calendar pair and the question type;
- **gradient-boosted calendar features**: the same on what a person who
  knows the calendars' shapes but not their tables would add
  (:func:`calendar_features`: the candidate's and today's year cycles, month,
  day, the distance in months and years, rough weekdays).

Both read only :func:`~tsolve.stress.shortcut_probes.visible` records; a
content item, which neither is about, gets the other seed's commonest
content answer (a constant: chance, not a finding).

And file-level probes (:func:`position_probes`), reported apart: they read a
whole file in order, as an evaluation that shows neighbouring items, draws
few-shot examples from the same file or splits by position would. A **pair
rule** says record ``i``'s label is (or is the opposite of) record
``i - lag``'s; a **cycle rule** says record ``i``'s label, direction, type or
format is what the training file had at the same position modulo a period.
The best rule of each family of rules, chosen on the training file, is
scored on the evaluated file beside chance (the commoner value).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.contract.family import Record
from tsolve.stress.shortcut_probes import Answer, Fit, Probe, ProbeSkipped

PAIRS = tuple(f"{a}->{b}" for a, b in (
    ("gregorian", "chinese"), ("gregorian", "hebrew"), ("gregorian", "islamic"),
    ("gregorian", "islamic-umalqura"), ("gregorian", "persian"), ("gregorian", "shaka"),
    ("chinese", "gregorian"), ("hebrew", "gregorian"), ("islamic", "gregorian"),
    ("islamic-umalqura", "gregorian"), ("persian", "gregorian"), ("shaka", "gregorian"),
))  # fmt: skip


def _polar(record: Record) -> bool:
    return record.get("family") == "span" and record.get("format") == "polar"


def _content_constant(golds: Sequence[str]) -> str | None:
    """The commonest content answer of the training golds (None if none)."""
    dates = Counter(g for g in golds if g not in ("Yes", "No"))
    return dates.most_common(1)[0][0] if dates else None


def _estimator(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The table-free estimator's Yes/No on yes/no items."""
    from tsolve.families.span.polar_baseline import estimate_label

    fallback = _content_constant(golds)

    def answer(record: Record) -> str | None:
        if not _polar(record):
            return fallback
        try:
            return estimate_label(dict(record))
        except Exception:  # a record the estimator cannot place gets no answer
            return None

    return answer


def rough_features(record: Record) -> list[float] | None:
    """The gradient-boosted probe's features of a yes/no item (None if the
    estimator cannot place it): the candidate's rough distance (signed,
    absolute, fraction of a day), offset, unit, sign, type, festival and pair."""
    from tsolve.families.span.polar_baseline import rough_gap

    p = record.get("params")
    if not isinstance(p, dict):
        return None
    try:
        gap = rough_gap(dict(record))
    except Exception:
        return None
    fest = p.get("festival")
    key = str(fest.get("key")) if isinstance(fest, dict) else ""
    pair = f"{p.get('source_calendar')}->{p.get('target_calendar')}"
    unit = str(p.get("unit"))
    return [
        gap, abs(gap), gap - int(gap), float(p.get("offset") or 0),
        float(unit == "weeks"), float(unit == "years"), float(p.get("sign") == "ago"),
        float(sum(key.encode()) % 97 if key else -1),
        *(float(pair == x) for x in PAIRS),
    ]  # fmt: skip


CALENDARS = ("gregorian", "chinese", "hebrew", "islamic", "islamic-umalqura", "persian", "shaka")

FESTIVALS = (
    "halloween", "christmas", "new-year", "valentine", "womens-day", "workers-day",
    "childrens-day", "chinese-new-year", "lantern", "dragon-boat", "qixi", "ghost",
    "mid-autumn", "rosh-hashanah", "yom-kippur", "passover", "hanukkah", "purim",
    "hijri-new-year", "isra-miraj", "eid-al-fitr", "eid-al-adha", "nowruz",
    "sizdah-be-dar", "mehregan", "tirgan", "shaka-new-year",
)  # fmt: skip
"""Festival keys the calendar probe names by number (an unknown key is -1)."""


def _date_fields(obj: Any) -> tuple[int, int, int, bool]:
    if not isinstance(obj, dict):
        raise ValueError("not a date")
    return int(obj["year"]), int(obj["month"]), int(obj["day"]), bool(obj.get("leap", False))


def calendar_features(record: Record) -> list[float] | None:
    """The calendar probe's features of a yes/no item (None if the estimator
    cannot place it): :func:`rough_features`, then what a person who knows
    the calendars' shapes but not their tables would add: the calendar pair
    and question kind as one number, the candidate's and the reference
    date's year (mod 4, mod 19, mod 30: the leap cycles), month, day and leap
    flag, the rough distance in months and years and its remainders, the
    weekday of the rough answer and of the candidate (rough, exact on the
    Gregorian side) and their difference, and the festival's number."""
    from tsolve.families.span.polar_baseline import approx_day, rough_answer

    base = rough_features(record)
    if base is None:
        return None
    p = record["params"]
    try:
        src, tgt = str(p["source_calendar"]), str(p["target_calendar"])
        ref, cand = _date_fields(p["reference_date"]), _date_fields(p["candidate"])
        fest = p.get("festival")
        key = str(fest.get("key")) if isinstance(fest, dict) else None
        est = rough_answer(src, ref, int(p["offset"]), str(p["unit"]), str(p["sign"]), key)
        at = approx_day(tgt, *cand)
    except Exception:
        return None
    gap = at - est
    unit = str(p.get("unit"))
    kind = ("days", "weeks", "years").index(unit) if unit in ("days", "weeks", "years") else 3
    pair = CALENDARS.index(src) * 7 + CALENDARS.index(tgt) if {src, tgt} <= set(CALENDARS) else -1
    months, years = gap / 29.530589, gap / 365.2425
    w_est, w_cand = int(est // 1) % 7, int(at // 1) % 7
    return [
        *base, float(pair * 4 + kind), float(kind),
        *(float(v) for v in (cand[0] % 4, cand[0] % 19, cand[0] % 30, cand[1], cand[2])),
        float(cand[3]), float(ref[0] % 4), float(ref[0] % 19), float(ref[0] % 30),
        float(ref[1]), float(ref[2]), float(ref[3]),
        months, months - round(months), years, years - round(years), round(gap),
        float(w_est), float(w_cand), float((w_cand - w_est) % 7),
        float(FESTIVALS.index(key) if key in FESTIVALS else -1),
    ]  # fmt: skip


def _boosted_on(features: Callable[[Record], list[float] | None], **params: Any) -> Fit:
    """A fit: a gradient-boosted classifier of ``features``, fitted on the
    other seed's yes/no items and their gold labels."""

    def fit(train: Sequence[Record], golds: Sequence[str]) -> Answer:
        try:
            from sklearn.ensemble import GradientBoostingClassifier
        except ImportError as exc:
            raise ProbeSkipped(
                "scikit-learn is not installed (pip install 'tsolve[shortcuts]')"
            ) from exc
        xs, ys = [], []
        for r, g in zip(train, golds, strict=True):
            f = features(r) if _polar(r) and g in ("Yes", "No") else None
            if f is not None:
                xs.append(f)
                ys.append(g)
        fallback = _content_constant(golds)
        if len(set(ys)) < 2:
            only = ys[0] if ys else None
            return lambda record: only if _polar(record) else fallback
        model = GradientBoostingClassifier(random_state=0, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(xs, ys)

        def answer(record: Record) -> str | None:
            if not _polar(record):
                return fallback
            f = features(record)
            return None if f is None else str(model.predict([f])[0])

        return answer

    return fit


SPAN_PROBES: tuple[Probe, ...] = (
    Probe("span", "table-free estimator", "heuristic", _estimator,
          "epochs and mean month and year lengths: Yes when the candidate is within 14 days"),
    Probe("span", "gradient-boosted rough distance", "learned",
          _boosted_on(rough_features, n_estimators=100, max_depth=3),
          "gradient boosting on the candidate's rough distance, the offset, festival and pair"),
    Probe("span", "gradient-boosted calendar features", "learned",
          _boosted_on(calendar_features, n_estimators=300, max_depth=4, learning_rate=0.05),
          "gradient boosting on the rough distance (days, months, years), pair x kind, the "
          "candidate's and today's year cycles, month and day, weekdays, offset and festival"),
)  # fmt: skip
"""The record-level SPAN probes of yes/no items."""


def polar_accuracy(probe: Probe, records: Sequence[Record], train: Sequence[Record]) -> float:
    """``probe``'s accuracy on the yes/no items of ``records`` (fitted on
    ``train``, which it may read whole, gold included); chance is 0.5 on a
    balanced file. An item it does not answer counts as wrong."""
    from tsolve.stress.shortcut_probes import visible

    answer = probe.fit(list(train), [str(r.get("answer")) for r in train])
    polar = [r for r in records if _polar(r)]
    if not polar:
        return 0.0
    return sum(answer(visible(r)) == r.get("answer") for r in polar) / len(polar)


# ------------------------------------------------------------------ file positions


@dataclass(frozen=True)
class PositionResult:
    """The best rule of one kind, chosen on the training file, on the evaluated one."""

    probe: str
    field: str
    rule: str
    score: float
    chance: float
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"family": "span", "probe": self.probe, "kind": "file-position",
                "cell": f"file/{self.field}", "rule": self.rule, "score": round(self.score, 4),
                "chance": round(self.chance, 4), "n": self.n}  # fmt: skip


FIELDS: dict[str, Callable[[Record], Any]] = {
    "label": lambda r: r.get("answer") if r.get("format") == "polar" else None,
    "direction": lambda r: r.get("direction"),
    "type": lambda r: r.get("type"),
    "format": lambda r: r.get("format"),
}
"""What a position rule predicts (None: the record has no such value)."""

MAX_LAG = 16
"""Pair rules look back up to this many records."""

PERIODS = tuple(range(2, 97))
"""Cycle rules try every period up to two blocks of 12 directions."""


def _chance(values: Sequence[Any]) -> float:
    return Counter(values).most_common(1)[0][1] / len(values) if values else 0.0


def _pair_score(values: Sequence[Any], lag: int, same: bool) -> tuple[float, int]:
    hits = n = 0
    for i in range(lag, len(values)):
        a, b = values[i], values[i - lag]
        if a is None or b is None:
            continue
        n += 1
        hits += (a == b) == same
    return (hits / n if n else 0.0), n


def _cycle_table(values: Sequence[Any], period: int) -> dict[int, Any]:
    by: dict[int, Counter[Any]] = {}
    for i, v in enumerate(values):
        if v is not None:
            by.setdefault(i % period, Counter())[v] += 1
    return {k: c.most_common(1)[0][0] for k, c in by.items()}


def _cycle_score(values: Sequence[Any], table: dict[int, Any], period: int) -> tuple[float, int]:
    pairs = [(v, table.get(i % period)) for i, v in enumerate(values) if v is not None]
    return (sum(v == t for v, t in pairs) / len(pairs) if pairs else 0.0), len(pairs)


def position_probes(records: Sequence[Record], train: Sequence[Record]) -> list[PositionResult]:
    """Per field, the best pair rule and the best cycle rule: chosen on
    ``train`` (a file of another seed, read in order), scored on ``records``
    (in order), beside the chance of always naming the commonest value.
    Pair rules apply to two-valued fields (the label, type, format) only."""
    out = []
    for name, get in FIELDS.items():
        tr = [get(r) for r in train]
        ev = [get(r) for r in records]
        present = [v for v in ev if v is not None]
        chance = _chance(present)
        if len({v for v in tr if v is not None}) == 2:
            rules = [(lag, same) for lag in range(1, MAX_LAG + 1) for same in (True, False)]
            lag, same = max(rules, key=lambda r: _pair_score(tr, *r)[0])
            score, n = _pair_score(ev, lag, same)
            rule = f"record i {'equals' if same else 'is the opposite of'} record i-{lag}"
            out.append(PositionResult("pair rule", name, rule, score, max(chance, 0.5), n))
        best = max(PERIODS, key=lambda p: _cycle_score(tr, _cycle_table(tr, p), p)[0])
        score, n = _cycle_score(ev, _cycle_table(tr, best), best)
        out.append(PositionResult("cycle rule", name, f"the training file's value at i mod {best}",
                                  score, chance, n))  # fmt: skip
    return out


__all__ = [
    "SPAN_PROBES",
    "PositionResult",
    "calendar_features",
    "polar_accuracy",
    "position_probes",
    "rough_features",
]
