"""Summing item scores up: macro averages, overall and per group label.

One home for what every report does with its :class:`ItemScore` s:
``tsolve verify`` (:mod:`tsolve.verifiers.verify_batch`) and the logistics
answerer's ``--score`` (:mod:`tsolve.families.logistics.answer_scoring`).

The sums run as items arrive (:class:`RunningAggregate`, :class:`FamilyTotals`),
so a report over a million predictions holds a few numbers per group label,
not the items; :func:`aggregate` over a list is the same sums, so a streamed
report and one over kept items agree to the last bit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np

from tsolve.contract.item import ItemScore

STDERR_SUFFIX = "_stderr"
"""``<metric>_stderr``: the standard error of ``<metric>``'s mean, beside it in
every aggregate (the sample standard deviation over sqrt(n), as Inspect's
``stderr()`` computes it; 0 for fewer than two items). A 95 % interval is
about mean ± 1.96 stderr."""


def stderr_key(metric: str) -> str:
    """The aggregate key of ``metric``'s standard error."""
    return metric + STDERR_SUFFIX


def is_stderr_key(key: str) -> bool:
    return key.endswith(STDERR_SUFFIX)


class RunningAggregate:
    """``{"n", <each metric's mean and standard error>, "parse_failures"}``
    over the items added so far. Each metric's sum and sum of squares is
    accumulated in arrival order, left to right (an item without a metric
    adds nothing, which is adding 0)."""

    __slots__ = ("n", "parse_failures", "squares", "sums")

    def __init__(self) -> None:
        self.n = 0
        self.parse_failures = 0
        self.sums: dict[str, float] = {}
        self.squares: dict[str, float] = {}

    def add(self, item: ItemScore) -> None:
        self.add_scores(item.metrics, bool(item.parse_failed))

    def add_scores(self, metrics: dict[str, float], failed: bool) -> None:
        """Count one item with these metrics (and parse failure)."""
        self.n += 1
        self.parse_failures += failed
        sums = self.sums
        squares = self.squares
        for k, v in metrics.items():
            sums[k] = sums.get(k, 0) + v
            squares[k] = squares.get(k, 0) + v * v

    def add_column(self, key: str, values: np.ndarray) -> None:
        """Add ``values`` (float64, in arrival order) to the sum of ``key``
        as :meth:`add_scores` would, one after the other: NumPy's ``cumsum``
        is a running sum (``out[i] = out[i-1] + x[i]``), so its last value is
        the left-to-right sum, bit for bit (``np.sum`` adds pairwise and is
        not). A sum so far that is an exact ``int`` takes the first value as
        Python adds a float to it."""
        if not values.size:
            return
        with np.errstate(all="ignore"):  # inf and nan arise silently, as in Python
            self.sums[key] = _running_sum(self.sums.get(key, 0), values)
            self.squares[key] = _running_sum(self.squares.get(key, 0), values * values)

    def result(self) -> dict[str, Any]:
        """Metrics sorted by name, each followed by its standard error
        (:data:`STDERR_SUFFIX`), as :func:`aggregate` returns them."""
        n = self.n
        agg: dict[str, Any] = {"n": n}
        for k in sorted(self.sums):
            mean = self.sums[k] / n if n else 0.0
            agg[k] = mean
            agg[stderr_key(k)] = _stderr(self.squares.get(k, 0.0), mean, n)
        agg["parse_failures"] = self.parse_failures
        return agg


def _running_sum(start: float, values: np.ndarray) -> float:
    """``start + values[0] + values[1] + ...``, left to right, as Python
    adds (see :meth:`RunningAggregate.add_column`)."""
    if type(start) is not float:
        start, values = start + float(values[0]), values[1:]
    return float(np.cumsum(np.concatenate(([start], values)))[-1])


def _stderr(squares: float, mean: float, n: int) -> float:
    """The standard error of a mean of ``n`` values from their sum of squares:
    sqrt(sample variance / n), the sample variance being
    (sum x² - n·mean²) / (n - 1), clipped at 0 against rounding."""
    if n < 2:
        return 0.0
    var = max(0.0, (float(squares) - n * mean * mean) / (n - 1))
    return float(np.sqrt(var / n))


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

_FOLD_EVERY = 8_192
"""Items a :class:`FamilyTotals` holds (their cells, metrics and parse flag)
before adding them to its sums."""


class FamilyTotals:
    """One family's report, summed as its items arrive: overall and per group
    label (:func:`labels_of`).

    An item counts in a dozen cells (overall, and one per label), each summing
    three or four metrics: added one by one, that was the costliest part of
    ``tsolve verify`` after reading the records. So items are held in bounded
    batches and added a column at a time (:meth:`fold`), with the same
    additions in the same order: every sum is identical, to the last bit, to
    :class:`RunningAggregate` adding the items one by one."""

    __slots__ = ("by", "cell_lists", "overall", "pending")

    def __init__(self) -> None:
        self.overall = RunningAggregate()
        self.by: dict[str, dict[str, RunningAggregate]] = {}
        # The item's groups, made hashable -> the cells it counts in.
        self.cell_lists: dict[tuple[Any, ...], list[RunningAggregate]] = {}
        # Items not yet in the sums: (cells, metrics, parse failed?).
        self.pending: list[tuple[list[RunningAggregate], dict[str, float], bool]] = []

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
        """Count ``item`` in (its cells are found now, so a later change to
        its groups does not move it)."""
        self.pending.append((self.cells(item), item.metrics, bool(item.parse_failed)))
        if len(self.pending) >= _FOLD_EVERY:
            self.fold()

    def fold(self) -> None:
        """Add the held items to their cells' sums, a column at a time: each
        cell's count, parse failures and, per metric, the values of its items
        in arrival order (:meth:`RunningAggregate.add_column`). A batch with a
        metric that is not a plain ``float`` (an ``int`` from a third-party
        scorer, whose sum stays exact) is added item by item."""
        pending, self.pending = self.pending, []
        columns = _float_columns([metrics for _cells, metrics, _failed in pending])
        if columns is None:
            for cells, metrics, failed in pending:
                for running in cells:
                    running.add_scores(metrics, failed)
            return
        failures = np.array([failed for _cells, _metrics, failed in pending], dtype=np.int64)
        for running, rows in _rows_by_cell([cells for cells, _m, _f in pending]):
            running.n += len(rows)
            running.parse_failures += int(failures[rows].sum())
            for key, (values, present) in columns.items():
                running.add_column(key, values[rows[present[rows]]])

    def result(self) -> dict[str, Any]:
        """``{"overall": ..., "by": {key: {label: ...}}}``: keys sorted, labels
        in :func:`group_order`."""
        self.fold()
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


def _float_columns(
    metrics: list[dict[str, float]],
) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """Per metric, its values over ``metrics`` (0 where missing) and where it
    is present; None if a value is not a plain ``float``."""
    columns: dict[str, list[float | None]] = {}
    for i, row in enumerate(metrics):
        for k, v in row.items():
            if type(v) is not float:
                return None
            column = columns.get(k)
            if column is None:
                column = columns[k] = [None] * len(metrics)
            column[i] = v
    return {
        k: (
            np.array([0.0 if v is None else v for v in column], dtype=np.float64),
            np.array([v is not None for v in column], dtype=bool),
        )
        for k, column in columns.items()
    }


def _rows_by_cell(
    cell_lists: list[list[RunningAggregate]],
) -> Iterable[tuple[RunningAggregate, np.ndarray]]:
    """Each cell met in ``cell_lists`` (row i's cells), with the rows it is
    in, in order. Rows sharing a list (a combination of labels) are gathered
    first, so the per-row work is one append, not one per cell."""
    shared: dict[int, tuple[list[RunningAggregate], list[int]]] = {}
    for i, cells in enumerate(cell_lists):
        entry = shared.get(id(cells))
        if entry is None:
            entry = shared[id(cells)] = (cells, [])
        entry[1].append(i)
    parts: dict[int, tuple[RunningAggregate, list[list[int]]]] = {}
    for cells, rows in shared.values():
        for running in cells:
            found = parts.get(id(running))
            if found is None:
                found = parts[id(running)] = (running, [])
            found[1].append(rows)
    for running, row_lists in parts.values():
        yield running, np.sort(np.concatenate([np.asarray(r, dtype=np.intp) for r in row_lists]))


def group_order(kv: tuple[str, Any]) -> tuple[int, Any]:
    """Labels that are whole numbers (answer-set sizes) numerically, first;
    the others by name."""
    k = kv[0]
    return (0, int(k)) if k.lstrip("-").isdigit() else (1, k)
