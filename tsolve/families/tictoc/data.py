"""Reading TicToc samples: the benchmark's own JSON files and tsolve's JSONL form.

A *sample* is one trajectory at one elapsed-time level with its human
preference. The benchmark stores the preference and the level in the file
name (``preferTool_elapse_2.json``: prefer a tool call, large gap), so the
same trajectory ``id`` appears once per retained level, in different files.
Three input shapes are accepted, all through :func:`tsolve.records.iter_json_rows`
(one reader, one error model: an unreadable item is a :class:`BadRow` and the
batch goes on):

* a benchmark file named ``prefer{Tool,NoTool}_elapse_{0,1,2}.json`` (a JSON
  array of items ``{id, history, function}``);
* a bundle: one JSON object whose keys are such file names (the shape of the
  shared sample);
* tsolve's JSONL: one sample per line, the benchmark item plus ``level`` and
  ``preference`` (``docs/tictoc.md``).

Times are ISO 8601. A time without an offset is read as UTC (the benchmark
writes ``Z`` everywhere); gaps are absolute differences in seconds, so no
daylight-saving reading can enter.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from tsolve.errors import TsolveError
from tsolve.records import BadRow, iter_json_rows
from tsolve.records.validation import bad, expect_dict, expect_int, expect_list, expect_str

Preference = Literal["tool", "no_tool"]
PREFERENCES: tuple[Preference, ...] = ("tool", "no_tool")
LEVELS = (0, 1, 2)
"""Elapsed-time levels of the final user message: 0 small, 1 medium, 2 large."""

FILE_NAME = re.compile(r"^prefer(Tool|NoTool)_elapse_([012])\.json$")
MAX_MESSAGES = 10_000


@dataclass(frozen=True)
class Sample:
    """One labelled sample: a trajectory, the level of its final gap, the preference.

    ``times`` are the timestamps of every message but the last; ``final_times``
    are the final user message's three alternative timestamps (levels 0, 1, 2).
    """

    id: str
    level: int
    preference: Preference
    history: tuple[dict[str, Any], ...]
    times: tuple[dt.datetime, ...]
    final_times: tuple[dt.datetime, dt.datetime, dt.datetime]
    functions: tuple[Any, ...]
    source: str
    stated: tuple[Any, Any] | None = None
    """The row's own ``preference`` and ``level`` fields when its label comes
    from a file name or bundle key and the row states one as well (the audit
    checks that the two forms agree); None otherwise."""

    @property
    def key(self) -> tuple[str, int]:
        return (self.id, self.level)

    @property
    def turns(self) -> int:
        """Trajectory length for §3.2's buckets: every message of ``history``
        (system prompt and final user question included; docs/tictoc.md)."""
        return len(self.history)

    @property
    def anchor(self) -> dt.datetime:
        """The time of the message before the final user question."""
        return self.times[-1]

    @property
    def final_gaps(self) -> tuple[float, float, float]:
        """Seconds from the previous message to each of the three final times."""
        a = self.anchor
        g = tuple((t - a).total_seconds() for t in self.final_times)
        return (g[0], g[1], g[2])

    @property
    def final_time(self) -> dt.datetime:
        """The final user message's time at this sample's level."""
        return self.final_times[self.level]


def label_from_name(name: str) -> tuple[Preference, int] | None:
    """``('tool', 2)`` for ``preferTool_elapse_2.json``; None for any other name."""
    m = FILE_NAME.match(Path(name).name)
    if m is None:
        return None
    return ("tool" if m.group(1) == "Tool" else "no_tool", int(m.group(2)))


def parse_time(value: Any, field: str) -> dt.datetime:
    """An ISO 8601 timestamp as an aware UTC datetime (no offset means UTC)."""
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        raise bad(field, "an ISO 8601 timestamp", value)
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    try:
        t = dt.datetime.fromisoformat(text)
    except ValueError:
        raise bad(field, "an ISO 8601 timestamp", value) from None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return t.astimezone(dt.timezone.utc)


def iso(t: dt.datetime) -> str:
    """The benchmark's spelling: ``2023-10-01T09:15:00Z`` (fractions kept if any)."""
    return t.astimezone(dt.timezone.utc).replace(tzinfo=None).isoformat() + "Z"


def parse_sample(row: dict[str, Any], preference: Preference, level: int, source: str) -> Sample:
    """Check one benchmark item and build its :class:`Sample` (raises TsolveError)."""
    rid = row.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool):
        rid = str(rid)
    sid = expect_str(rid, "id", 500)
    history = expect_list(row.get("history"), "history", MAX_MESSAGES, min_len=2)
    times: list[dt.datetime] = []
    for i, msg in enumerate(history):
        expect_dict(msg, f"history[{i}]")
        expect_str(msg.get("role"), f"history[{i}].role", 100)
        if i < len(history) - 1:
            times.append(parse_time(msg.get("time"), f"history[{i}].time"))
    last = history[-1]
    if last.get("role") != "user":
        raise bad(f"history[{len(history) - 1}].role", "'user' (the final question)", last["role"])
    final = expect_list(last.get("time"), f"history[{len(history) - 1}].time", 3, min_len=3)
    finals = tuple(
        parse_time(t, f"history[{len(history) - 1}].time[{k}]") for k, t in enumerate(final)
    )
    funcs = row.get("function", [])
    functions = tuple(expect_list(funcs, "function")) if funcs is not None else ()
    return Sample(
        id=sid, level=level, preference=preference, history=tuple(history),
        times=tuple(times), final_times=(finals[0], finals[1], finals[2]),
        functions=functions, source=source,
    )  # fmt: skip


def label_hint(field: str, example: str) -> str:
    """How a label is given, for the error a row without one gets: the public
    files carry the preference and level only in their names, so a renamed
    copy loses them."""
    return (
        f"{field}: missing: a benchmark file's name gives it (preferTool_elapse_2.json), "
        f"a row its own '{field}' field, or give one for the whole file (-T {field}={example})"
    )


def check_preference(value: Any) -> Preference | None:
    """``value`` as a preference (None stays None), or a one-line error."""
    if value is None or value in PREFERENCES:
        return value
    raise bad("preference", "'tool' or 'no_tool'", value)


def _own_label(
    row: dict[str, Any], preference: Preference | None = None, level: int | None = None
) -> tuple[Preference, int]:
    """``preference`` and ``level`` of a tsolve JSONL row; the arguments stand
    in for a row that states none."""
    pref = row.get("preference", preference)
    if pref is None:
        raise TsolveError(label_hint("preference", "tool|no_tool"))
    if pref not in PREFERENCES:
        raise bad("preference", "'tool' or 'no_tool'", pref)
    lvl = row.get("level", level)
    if lvl is None:
        raise TsolveError(label_hint("level", "0|1|2"))
    return pref, expect_int(lvl, "level", 0, 2)


def _is_bundle(row: dict[str, Any]) -> bool:
    return bool(row) and "id" not in row and all(label_from_name(k) for k in row)


def iter_samples(
    paths: Iterable[str | Path],
    preference: Preference | None = None,
    level: int | None = None,
) -> Iterator[Sample | BadRow]:
    """Every sample in ``paths`` (any of the three shapes), or a BadRow where
    one cannot be read. Raises TsolveError only for an unreadable file.
    ``preference`` and ``level`` label rows whose file name, bundle key and
    own fields give none (a benchmark file saved under another name); a name
    or a row's own field still wins."""
    check_preference(preference)
    if level is not None:
        expect_int(level, "level", 0, 2)
    for path in paths:
        name = Path(path).name
        from_name = label_from_name(name)
        seen = 0
        for i, row in enumerate(iter_json_rows(path)):
            seen += 1
            if isinstance(row, BadRow):
                yield row
                continue
            if _is_bundle(row):
                for key, items in row.items():
                    pref, key_level = label_from_name(key)  # type: ignore[misc]
                    if not isinstance(items, list):
                        yield BadRow(
                            f"{name}[{key}]",
                            f"expected a list of items, got {type(items).__name__}",
                        )
                        continue
                    for j, item in enumerate(items):
                        yield _sample_or_bad(item, pref, key_level, f"{name}[{key}][{j}]", key)
                continue
            where = f"{name}[{i}]"
            if from_name is not None:
                yield _sample_or_bad(row, from_name[0], from_name[1], where, name)
                continue
            try:
                pref, lvl = _own_label(row, preference, level)
            except TsolveError as exc:
                yield BadRow(_where_id(where, row), str(exc))
                continue
            yield _sample_or_bad(row, pref, lvl, where, name)
        if seen == 0:
            raise TsolveError(f"file: {name} holds no samples")


def _where_id(where: str, row: Any) -> str:
    rid = row.get("id") if isinstance(row, dict) else None
    return f"{where} (id {rid!r})" if isinstance(rid, str | int) else where


def _sample_or_bad(
    item: Any, pref: Preference, level: int, where: str, source: str
) -> Sample | BadRow:
    if not isinstance(item, dict):
        return BadRow(where, f"expected a JSON object, got {type(item).__name__}")
    try:
        sample = parse_sample(item, pref, level, source)
    except TsolveError as exc:
        return BadRow(_where_id(where, item), str(exc))
    if label_from_name(source) is not None and ("preference" in item or "level" in item):
        return replace(sample, stated=(item.get("preference"), item.get("level")))
    return sample


def to_record(sample: Sample) -> dict[str, Any]:
    """tsolve's JSONL form of a sample: the benchmark item plus its label fields."""
    return {
        "family": "tictoc",
        "id": sample.id,
        "level": sample.level,
        "preference": sample.preference,
        "history": list(sample.history),
        "function": list(sample.functions),
    }


def split_samples(
    rows: Iterable[Sample | BadRow],
) -> tuple[list[Sample], list[BadRow]]:
    """Samples and bad rows, in order."""
    good: list[Sample] = []
    bads: list[BadRow] = []
    for r in rows:
        (bads if isinstance(r, BadRow) else good).append(r)  # type: ignore[arg-type]
    return good, bads
