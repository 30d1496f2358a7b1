"""What a dataset run did: the counts behind the summary and ``--summary-json``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Failures kept with their message; the rest are only counted, so a run where
#: every record fails still holds a bounded summary.
MAX_FAILURE_EXAMPLES = 20


@dataclass
class DatasetSummary:
    """What a dataset run did; :meth:`to_json` is what ``--summary-json`` would print."""

    family: str
    seed: int
    out: str
    format: str
    start: int
    stop: int
    workers: int
    written: int = 0
    existing: int = 0  # records already in the file (resume)
    gaps: int = 0  # indices missing between existing records (earlier failures)
    dropped_bytes: int = 0  # partial last line removed on resume
    failures: int = 0
    failure_examples: list[tuple[int, str]] = field(default_factory=list)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    seconds: float = 0.0
    bytes: int = 0
    interrupted: bool = False
    warnings: list[str] = field(default_factory=list)  # the family's domain warnings

    @property
    def records(self) -> int:
        return self.existing + self.written

    @property
    def rate(self) -> float:
        return self.written / self.seconds if self.seconds > 0 else 0.0

    def add(self, buckets: Mapping[str, Iterable[str] | Counter[str]]) -> None:
        for key, values in buckets.items():
            self.counts.setdefault(key, Counter()).update(values)

    def fail(self, index: int, message: str) -> None:
        self.failures += 1
        if len(self.failure_examples) < MAX_FAILURE_EXAMPLES:
            self.failure_examples.append((index, message))

    def to_json(self) -> dict[str, Any]:
        def order(k: str) -> tuple[int, Any]:
            return (0, int(k)) if k.lstrip("-").isdigit() else (1, k)

        return {
            "family": self.family,
            "seed": self.seed,
            "out": self.out,
            "format": self.format,
            "indices": [self.start, self.stop],
            "workers": self.workers,
            "records": self.records,
            "written": self.written,
            "existing": self.existing,
            "gaps": self.gaps,
            "dropped_bytes": self.dropped_bytes,
            "failures": self.failures,
            "failure_examples": [{"index": i, "error": m} for i, m in self.failure_examples],
            "counts": {
                k: dict(sorted(c.items(), key=lambda kv: order(kv[0])))
                for k, c in self.counts.items()
            },
            "seconds": round(self.seconds, 3),
            "records_per_second": round(self.rate, 2),
            "bytes": self.bytes,
            "interrupted": self.interrupted,
            "warnings": list(self.warnings),
        }
