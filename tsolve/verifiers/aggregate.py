"""Summing item scores up: macro averages, overall and per group label.

One home for what every report does with its :class:`ItemScore` s:
``tsolve verify`` (:mod:`tsolve.verifiers.batch`) and the logistics
answerer's ``--score`` (:mod:`tsolve.verifiers.logistics_answer_scoring`).

The sums run as items arrive (:class:`RunningAggregate`, :class:`FamilyTotals`),
so a report over a million predictions holds a few numbers per group label,
not the items; :func:`aggregate` over a list is the same sums, so a streamed
report and one over kept items agree to the last bit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tsolve.verifiers.item import ItemScore


class RunningAggregate:
    """``{"n", <each metric's mean>, "parse_failures"}`` over the items added so
    far. Each metric's sum is accumulated in arrival order, left to right (an
    item without a metric adds nothing, which is adding 0)."""

    __slots__ = ("n", "parse_failures", "sums")

    def __init__(self) -> None:
        self.n = 0
        self.parse_failures = 0
        self.sums: dict[str, float] = {}

    def add(self, item: ItemScore) -> None:
        self.n += 1
        self.parse_failures += bool(item.parse_failed)
        sums = self.sums
        for k, v in item.metrics.items():
            sums[k] = sums.get(k, 0) + v

    def result(self) -> dict[str, Any]:
        """Metrics sorted by name, as :func:`aggregate` returns them."""
        n = self.n
        agg: dict[str, Any] = {"n": n}
        for k in sorted(self.sums):
            agg[k] = self.sums[k] / n if n else 0.0
        agg["parse_failures"] = self.parse_failures
        return agg


def aggregate(items: Iterable[ItemScore]) -> dict[str, Any]:
    """``{"n", <each metric's mean>, "parse_failures"}`` over ``items`` (metrics
    sorted by name; an item without a metric counts 0 for it)."""
    running = RunningAggregate()
    for it in items:
        running.add(it)
    return running.result()


def labels_of(item: ItemScore) -> Iterable[tuple[str, str]]:
    """``(group key, label)`` for each label ``item`` counts under: a list of
    labels (the kinds of its facts) counts once under each distinct label."""
    for key, val in item.groups.items():
        for label in dict.fromkeys(val) if isinstance(val, list) else (val,):
            yield key, label


def group_items(items: Iterable[ItemScore]) -> dict[str, dict[str, list[ItemScore]]]:
    """``{group key: {label: items}}``, keys and labels in first-seen order. An
    item whose label is a list counts under each label (:func:`labels_of`), so
    such a key's rows may add up to more than the whole."""
    groups: dict[str, dict[str, list[ItemScore]]] = defaultdict(lambda: defaultdict(list))
    for it in items:
        for key, label in labels_of(it):
            groups[key][label].append(it)
    return groups


_CELL_LISTS_MAX = 4_096
"""Label combinations whose cells a :class:`FamilyTotals` remembers (a bound,
not an LRU: when full it is emptied, and refilling is cheap)."""


class FamilyTotals:
    """One family's report, summed as its items arrive: overall and per group
    label (:func:`labels_of`)."""

    __slots__ = ("by", "cell_lists", "overall")

    def __init__(self) -> None:
        self.overall = RunningAggregate()
        self.by: dict[str, dict[str, RunningAggregate]] = {}
        # The item's groups, made hashable -> the cells it counts in.
        self.cell_lists: dict[tuple[Any, ...], list[RunningAggregate]] = {}

    def cells(self, item: ItemScore) -> list[RunningAggregate]:
        """The sums ``item`` counts in: overall, then one per label, each made
        when first met. Most items of a family share a few combinations of
        labels, and finding a dozen cells label by label cost more than
        adding to them, so the list is kept per combination of ``groups``
        values (equal values, equal labels: the same cells; a list is marked
        as one, since a tuple is a single label)."""
        groups = item.groups.items()
        key = tuple((k, "list", tuple(v)) if isinstance(v, list) else (k, v) for k, v in groups)
        cells = self.cell_lists.get(key)
        if cells is not None:
            return cells
        cells = [self.overall]
        for key_name, label in labels_of(item):
            labels = self.by.get(key_name)
            if labels is None:
                labels = self.by[key_name] = {}
            running = labels.get(label)
            if running is None:
                running = labels[label] = RunningAggregate()
            cells.append(running)
        if len(self.cell_lists) >= _CELL_LISTS_MAX:
            self.cell_lists.clear()
        self.cell_lists[key] = cells
        return cells

    def add(self, item: ItemScore) -> None:
        # RunningAggregate.add, inlined over the item's cells: an item counts
        # under a dozen labels, and this runs once per prediction.
        cells = self.cells(item)
        failed = bool(item.parse_failed)
        metrics = item.metrics.items()
        for running in cells:
            running.n += 1
            running.parse_failures += failed
            sums = running.sums
            for k, v in metrics:
                sums[k] = sums.get(k, 0) + v

    def result(self) -> dict[str, Any]:
        """``{"overall": ..., "by": {key: {label: ...}}}``: keys sorted, labels
        in :func:`group_order`."""
        return {
            "overall": self.overall.result(),
            "by": {
                key: {
                    label: running.result()
                    for label, running in sorted(labels.items(), key=group_order)
                }
                for key, labels in sorted(self.by.items())
            },
        }


def group_order(kv: tuple[str, Any]) -> tuple[int, Any]:
    """Labels that are whole numbers (answer-set sizes) numerically, first;
    the others by name."""
    k = kv[0]
    return (0, int(k)) if k.lstrip("-").isdigit() else (1, k)
