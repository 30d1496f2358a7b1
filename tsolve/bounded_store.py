"""A least-recently-used store bounded by bytes rather than by entries.

``functools.lru_cache`` bounds a cache by how many entries it holds, which is
the wrong measure when one entry's size depends on the domain: a fact's packed
mask is 9 KB on the default 200-year domain and 450 KB on 0001..9999, and an
anchor's days with their calendar fields can run to a hundred megabytes on the
widest domain. Each store here is named where it is made, says what it keeps
and why, and reports what it holds (``len``, ``bytes``), so a long run's memory
is bounded by the sum of the budgets, whatever the domain.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedStore(Generic[K, V]):
    """Values by key, built on first use by ``build(key)``; once more than
    ``budget`` bytes (as ``sizeof`` counts them) are held, the least recently
    used values go first. A value larger than the budget is built, returned
    and not kept. Values must be immutable (or never mutated): they are shared."""

    def __init__(self, budget: int, sizeof: Callable[[V], int]) -> None:
        self.budget = budget
        self.sizeof = sizeof
        self.bytes = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def get(self, key: K, build: Callable[[K], V]) -> V:
        got = self._items.get(key)
        if got is not None:
            self._items.move_to_end(key)
            return got[0]
        value = build(key)
        n = self.sizeof(value)
        if n > self.budget:
            return value
        self._items[key] = (value, n)
        self.bytes += n
        while self.bytes > self.budget:
            _, (_old, m) = self._items.popitem(last=False)
            self.bytes -= m
        return value

    def find(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None:
        for a caller that answers a miss some cheaper way than ``build``."""
        got = self._items.get(key)
        if got is None:
            return None
        self._items.move_to_end(key)
        return got[0]

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0
