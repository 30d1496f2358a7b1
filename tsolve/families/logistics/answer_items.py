"""Answer benchmark-format logistics items in bulk: the answerer.

This is the library behind ``tsolve logistics answer``: read items (a JSON
array or JSON Lines, ``-`` for stdin, through :mod:`tsolve.records`), parse
each one's English, solve it, and report the answer set. An item that cannot
be read or parsed becomes a result with ``error`` set; the batch goes on.

With several workers the parent process only splits the file into lines and
hands out chunks of them undecoded (:class:`~tsolve.records.RawLine`); each
worker decodes its lines (:func:`tsolve.records.read_row`) and answers them.
Decoding and pickling every item in the parent made it the bottleneck: two
workers were slower than one. Every row is answered, in input order, whatever
its id: a repeated id (UnSeenTimeQA numbers each of its files from 0, so
concatenated files repeat ids) is answered like any other row and counted,
from the ids the workers send back, for the command's one warning
(:class:`tsolve.records.RepeatedIds`).
Items from tsolve's own generator are answered from their text too (not from
their structured copy), which is what makes "records read back reproduce their
answers" a real test of the text.

It sits in ``solver/`` beside :mod:`tsolve.families.logistics.solve` because answering
is solving: it generates nothing, and it is used by the CLI, ``tsolve bench``
and the fuzz campaigns alike. Scoring the answers against the items' labels
(``--score``) is the verifiers' job: :mod:`tsolve.families.logistics.answer_scoring`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from tsolve.engines.pool import ordered_map
from tsolve.errors import TsolveError, unexpected
from tsolve.families.logistics.clock import format_clock
from tsolve.families.logistics.parse.item import detect_difficulty, gold_names, parse_item
from tsolve.families.logistics.solve import answer_question
from tsolve.records import (
    BadRow,
    RawLine,
    RepeatedIds,
    Row,
    iter_raw_rows,
    no_records,
    read_row,
)

T = TypeVar("T")


@dataclass
class ItemResult:
    """One answered item. ``gold`` is the item's own ``answers`` label, if any;
    ``groups`` its difficulty, execution and question type, for reports.
    ``unscored`` marks an item that was to be scored but has no usable label
    (``error`` says why): a bad row, left out of the accuracy rather than
    counted as a wrong answer."""

    id: Any
    answers: list[str] | None
    gold: list[str] | None = None
    error: str | None = None
    minute: int | None = None
    state: str | None = None
    question: str = ""
    groups: dict[str, str] = field(default_factory=dict)
    unscored: bool = False

    @property
    def correct(self) -> bool | None:
        """Whether the answer set is the label's (exact set match); None when
        the item carries no label, False when it has one but could not be answered."""
        if self.gold is None or self.answers is None:
            return None if self.gold is None else False
        return set(self.answers) == set(self.gold)

    def to_json(self, with_gold: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.error is not None:
            out["error"] = self.error
            return out
        out["answers"] = self.answers
        out["minute"] = self.minute
        out["clock"] = format_clock(self.minute) if self.minute is not None else None
        out["state"] = self.state
        if with_gold:
            out["gold"] = self.gold
            out["correct"] = self.correct
        out.update(self.groups)
        return out


def read_items(source: str | Path) -> Iterator[tuple[int, RawLine | Row]]:
    """``(position, row)`` pairs from a JSON array or JSON Lines file (``-``:
    stdin), read by :func:`tsolve.records.iter_raw_rows`: JSON Lines rows come
    undecoded, for :func:`answer_items` to decode where it answers them. A row
    that cannot be read becomes the reader's :class:`~tsolve.records.BadRow`
    there, so one bad line does not stop the batch; a file that cannot be read
    at all raises."""
    return enumerate(iter_raw_rows(source))


def item_id(item: Any, position: int) -> Any:
    """The item's ``id``, or None when it has none (or its row could not be
    read). Never the row's position: benchmark ids are small integers, so a
    position standing in for an id would collide with a real item's id; the
    output is in input order, and an error row's message names its line."""
    if isinstance(item, Mapping) and item.get("id") is not None:
        return item["id"]
    return None


def answer_item(item: Any, position: int = 0, need_label: bool = False) -> ItemResult:
    """Parse and solve one item (a :class:`~tsolve.records.BadRow` is reported
    as its error); never raises for bad input. With ``need_label`` (scoring),
    an item without a usable ``answers`` label is an ``unscored`` error row,
    its field named (a misnamed ``answerz`` too); without it, a label is
    optional."""
    iid = item_id(item, position)
    if isinstance(item, BadRow):
        return ItemResult(iid, None, error=str(item))
    if need_label and isinstance(item, Mapping):
        try:
            gold_names(item, where="")  # the command names the item
        except TsolveError as exc:
            return ItemResult(iid, None, error=str(exc), groups=_groups(item), unscored=True)
    try:
        if not isinstance(item, Mapping):
            raise TsolveError(f"item: expected a JSON object, got {type(item).__name__}")
        scenario, question = parse_item(item)
        depth = item.get("depth")
        res = answer_question(scenario, question, depth=depth if isinstance(depth, int) else None)
    except TsolveError as exc:
        return ItemResult(iid, None, error=str(exc), groups=_groups(item))
    except Exception as exc:  # the backstop: one item never sinks the batch
        return ItemResult(iid, None, error=unexpected(exc))
    gold = item.get("answers")
    gold_list = [str(g) for g in gold] if isinstance(gold, list) else None
    return ItemResult(
        id=iid,
        answers=list(res.answers),
        gold=gold_list,
        minute=res.minute,
        state=res.place.state,
        question=str(item.get("question", "")),
        groups={
            **_groups(item),
            "execution": scenario.execution,
            "question_type": question.question_type,
        },
    )


def _groups(item: Any) -> dict[str, str]:
    """The report groups an item states itself (used when it cannot be solved)."""
    if not isinstance(item, Mapping):
        return {}
    out: dict[str, str] = {}
    with contextlib.suppress(TsolveError):  # no events: the error is reported elsewhere
        out["difficulty"] = detect_difficulty(item)
    ex = item.get("execution")
    if isinstance(ex, str):
        out["execution"] = ex
    qt = item.get("question_type")
    if isinstance(qt, str):
        out["question_type"] = qt
    return out


Answered = tuple[int, Any, ItemResult]
"""An answered row: its position, its item's own ``id`` (None when it has
none or is a bad row) and the result."""


def answer_file(
    source: str | Path,
    workers: int = 1,
    chunk: int = 64,
    repeated: RepeatedIds | None = None,
    need_label: bool = False,
) -> Iterator[ItemResult]:
    """Every item of ``source`` answered, one result per row, in file order
    (:func:`read_items` then :func:`answer_items`), whatever the ids: an id
    that repeats an earlier row's is answered like any other and counted in
    ``repeated`` (the CLI warns once from it). A file without a single row
    raises ``TsolveError`` at the end. ``need_label``: see :func:`answer_item`."""
    count = 0
    for _position, rid, result in _answered(read_items(source), workers, chunk, need_label):
        count += 1
        if repeated is not None:
            repeated.note(rid)
        yield result
    if count == 0:
        raise no_records(str(source))


def answer_items(
    items: Iterable[tuple[int, Any]], workers: int = 1, chunk: int = 64, need_label: bool = False
) -> Iterator[ItemResult]:
    """:func:`answer_item` over ``(position, item)`` pairs, results in input
    order; an item may be a :class:`~tsolve.records.RawLine`, decoded where it
    is answered. With ``workers`` > 1 the items are answered in that many
    processes, ``chunk`` at a time (items are independent, so the results are
    the same); worth it from a few thousand items on, as starting the pool
    takes about a second. ``need_label``: see :func:`answer_item`."""
    for _position, _key, result in _answered(items, workers, chunk, need_label):
        yield result


def _answered(
    items: Iterable[tuple[int, Any]], workers: int, chunk: int, need_label: bool = False
) -> Iterator[Answered]:
    if workers < 1:
        raise TsolveError(f"workers: must be at least 1, got {workers}")
    if workers == 1:
        for position, row in items:
            yield _answer_row(position, row, need_label)
        return
    for results in ordered_map(
        partial(_answer_chunk, need_label=need_label),
        _chunks(items, chunk),
        workers=workers,
        preload=["tsolve.families.logistics.answer_items"],
        describe=_describe_chunk,
    ):
        yield from results


def _answer_row(position: int, row: Any, need_label: bool = False) -> Answered:
    item = read_row(row)
    rid = item.get("id") if isinstance(item, dict) else None
    return position, rid, answer_item(item, position, need_label)


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def _describe_chunk(chunk: list[tuple[int, Any]]) -> str:
    if not chunk:
        return "no items"
    first, last = chunk[0][1], chunk[-1][1]
    if isinstance(first, RawLine) and isinstance(last, RawLine):
        return f"lines {first.where}..{last.where.rpartition(':')[2]}"
    return f"input items {chunk[0][0] + 1}..{chunk[-1][0] + 1}"


def _answer_chunk(chunk: list[tuple[int, Any]], need_label: bool = False) -> list[Answered]:
    return [_answer_row(position, row, need_label) for position, row in chunk]
