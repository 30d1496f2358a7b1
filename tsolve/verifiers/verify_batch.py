"""``tsolve verify``: score a predictions file against task records.

One bad row (malformed JSON, unknown id, a record the scorer rejects) is
reported and the batch goes on. Families may be mixed in one run; each
record's family picks its scorer.

How predictions find their records (``match``):

* ``"id"`` (the default): by ``id`` (:func:`tsolve.records.id_key`: ``1``
  finds ``"1"``). Ids must then be unique on both sides: a repeated record id
  or a second prediction for one id is a one-line ``TsolveError`` naming it
  (:func:`~tsolve.verifiers.record_lookup.repeated_records`,
  :func:`repeated_prediction`), never a silent first-wins.
* ``"order"``: by position, for files whose ids repeat (benchmarks that
  number each file's items from 0, concatenated). The i-th prediction row is
  scored against the i-th record row, bad rows included, so one bad row never
  shifts the pairs after it. A prediction that gives an ``id`` must give its
  record's (else that row is reported as misaligned and not scored); one
  without an ``id`` is fine. Unequal numbers of rows is a one-line
  ``TsolveError`` once both files are read. Nothing is ever missing.

Every scored item carries its record's own ``id`` value (an integer stays an
integer), as do the ids listed as missing.

Predictions stream through: each is scored against its record (found by
:mod:`tsolve.verifiers.record_lookup`, which keeps only what it must), held
back only until its family's batch diagnosis has run over a bounded chunk,
then handed on, in prediction order, to the report's running sums and to any
listener (``tsolve verify --format jsonl`` writes it out). The report keeps
the sums, the counts, the first :data:`ERRORS_KEPT` errors (the others
spilled to a temporary file, so that :meth:`VerifyReport.all_errors` lists
every one) and the ids of records no prediction answered, not the items
(unless ``keep_items=True``), so memory does not grow with the number of
predictions.
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from tsolve.contract import family_of
from tsolve.contract.item import ItemScore, Scorer
from tsolve.engines.gc_tuning import BatchGC
from tsolve.errors import TsolveError, unexpected
from tsolve.records import BadRow, id_key
from tsolve.records.validation import with_article
from tsolve.verifiers.aggregate import FamilyTotals
from tsolve.verifiers.record_lookup import RecordLookup, records_in_memory
from tsolve.verifiers.registry import batch_diagnoser_for, scorer_for
from tsolve.verifiers.row_shapes import PredictionShape, missing_id

ERRORS_KEPT = 10_000
"""Errors a report holds in memory (a predictions file matched against the
wrong records can make one per row); the others are spilled to a temporary
file. It counts them all, and :meth:`VerifyReport.all_errors` (``--format
json``) lists them all."""

ItemListener = Callable[[ItemScore], None]
Diagnose = Callable[[str, list[tuple[Any, ItemScore]], "VerifyReport"], set[int]]
"""``diagnose(family, waiting, report)``: diagnose the waiting ``(record,
item)`` pairs of one family, report the unusable ones, return their ``id()``."""
ErrorListener = Callable[[str], None]


@dataclass
class VerifyReport:
    """The scores summed per family and group, the bad rows (one line each:
    the first :data:`ERRORS_KEPT` in memory, the rest spilled to disk), the
    ids of records no prediction answered and, when the run was asked to keep
    them, every scored item."""

    missing: list[Any] = field(default_factory=list)  # record ids with no prediction
    missing_scored: bool = False  # were they scored 0 (``missing="zero"``) and counted in n?
    scored: int = 0
    false_claims: int = 0  # items whose output makes a false date claim (``claims=True``)
    error_count: int = 0
    scorer: str | None = None  # the families' named scorer used (``verify(scorer=...)``), if any
    kept_items: list[ItemScore] | None = None
    totals: dict[str, FamilyTotals] = field(default_factory=dict)
    # Bad rows of the records file come first in ``errors``, as they did when
    # the records were read whole before any prediction.
    record_errors: list[str] = field(default_factory=list)
    other_errors: list[str] = field(default_factory=list)
    on_item: ItemListener | None = field(default=None, repr=False, compare=False)
    on_error: ErrorListener | None = field(default=None, repr=False, compare=False)
    # Errors past ERRORS_KEPT, one JSON string a line, by kind ("record", "other").
    _spilled: dict[str, IO[str]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def items(self) -> list[ItemScore]:
        """Every scored item, in prediction order (then the missing ones scored
        0); only if the run kept them (``verify(..., keep_items=True)``)."""
        if self.kept_items is None:
            raise TsolveError("verify: the items were not kept (pass keep_items=True)")
        return self.kept_items

    @property
    def errors(self) -> list[str]:
        """The first :data:`ERRORS_KEPT` errors: the records' bad rows, then
        the predictions' (``error_count`` counts them all; :meth:`all_errors`
        lists them all)."""
        return self.record_errors + self.other_errors

    def all_errors(self) -> Iterator[str]:
        """Every error, in the order of :attr:`errors` (the records' bad rows,
        then the predictions'), read back from the spill past the first
        :data:`ERRORS_KEPT`; ``error_count`` of them."""
        for kind, kept in (("record", self.record_errors), ("other", self.other_errors)):
            yield from kept
            spill = self._spilled.get(kind)
            if spill is not None:
                spill.flush()
                spill.seek(0)
                for line in spill:
                    yield json.loads(line)
                spill.seek(0, 2)  # later errors are appended

    def add_item(self, item: ItemScore) -> None:
        """Count ``item`` into the sums; keep it or pass it on."""
        self.scored += 1
        self.false_claims += "false_claim" in item.diagnosis
        totals = self.totals.get(item.family)
        if totals is None:
            totals = self.totals[item.family] = FamilyTotals()
        totals.add(item)
        if self.kept_items is not None:
            self.kept_items.append(item)
        if self.on_item is not None:
            self.on_item(item)

    def add_error(self, message: str) -> None:
        self._add_error(message, self.other_errors, "other")

    def add_record_error(self, message: str) -> None:
        self._add_error(message, self.record_errors, "record")

    def _add_error(self, message: str, kept: list[str], kind: str) -> None:
        self.error_count += 1
        if len(self.record_errors) + len(self.other_errors) < ERRORS_KEPT:
            kept.append(message)
        else:
            spill = self._spilled.get(kind)
            if spill is None:  # closed with the report (or when the process ends)
                spill = self._spilled[kind] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
            spill.write(json.dumps(message) + "\n")
        if self.on_error is not None:
            self.on_error(message)

    def summary(self) -> dict[str, Any]:
        """Macro-averaged metrics per family, overall and per group label."""
        families = {fam: _flag_gameable(fam, t.result()) for fam, t in sorted(self.totals.items())}
        named = {} if self.scorer is None else {"scorer": self.scorer}
        return {
            "families": families,
            **named,
            "scored": self.scored,
            "parse_failures": sum(f["overall"]["parse_failures"] for f in families.values()),
            "errors": self.error_count,
            "missing_predictions": len(self.missing),
            "missing_scored_zero": self.missing_scored,
        }

    @property
    def exit_code(self) -> int:
        """1 when a row was bad (it was reported and skipped; the rest was
        scored), else 0. Wrong or unparseable outputs are scores, not errors."""
        return 1 if self.error_count else 0

    def to_json(self, detail: bool = True) -> dict[str, Any]:
        """The report as ``tsolve verify --format json`` writes it, every error
        listed; ``detail`` (items and missing ids) needs the items kept."""
        out: dict[str, Any] = {"summary": self.summary(), "errors": list(self.all_errors())}
        if detail:
            out["items"] = [it.to_json() for it in self.items]
            out["missing"] = self.missing
        return out


MISSING_POLICIES = ("skip", "zero")
MATCH_POLICIES = ("id", "order")

_DIAGNOSIS_BATCH = 4_096
"""Items of one family diagnosed together. Each batch checks every distinct
fact it meets once, so larger batches repeat less work; but each waiting item
holds its puzzle, so the batch is bounded."""
_HELD = 16_384
"""Scored items held back at most, in order, while others wait for their
diagnosis (most items need none, so the batches alone would not bound it)."""


def _check_rows(rows: object, what: str, *also: type) -> None:
    """A one-line error unless ``rows`` is an iterable of rows (a text is
    iterable too, but as characters: never what a caller meant)."""
    if isinstance(rows, also):
        return
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        kind = "a text (a path? use tsolve.verify_files)" if isinstance(rows, str) else (
            with_article(type(rows).__name__)
        )  # fmt: skip
        raise TsolveError(f"{what}: expected an iterable of JSON objects, got {kind}")


def verify(
    records: Iterable[dict[str, Any] | BadRow] | RecordLookup,
    predictions: Iterable[dict[str, Any] | BadRow],
    diagnose: bool = True,
    batch_gc: BatchGC | None = None,
    missing: str = "skip",
    claims: bool = False,
    *,
    keep_items: bool = False,
    on_item: ItemListener | None = None,
    on_error: ErrorListener | None = None,
    match: str = "id",
    scorer: str | None = None,
) -> VerifyReport:
    """Score every prediction ``{"id", "output"}`` against the record with that
    id (``match="order"``: against the record at its position; see the module
    docstring).

    The report sums the scores as they come (``report.summary()``); the items
    themselves go to ``on_item`` as they are scored, in prediction order, and
    are kept in ``report.items`` only with ``keep_items=True`` (memory then
    grows with the predictions). ``on_error`` receives every error as it is
    found; the report holds the first :data:`ERRORS_KEPT` in memory and lists
    them all (:meth:`VerifyReport.all_errors`).

    ``records`` are kept whole, as read; :func:`verify_files` passes a
    :class:`~tsolve.verifiers.record_lookup.RecordLookup` that reads a JSON
    Lines file in step with the predictions instead.

    ``claims=True`` also checks the date claims in each output
    (:func:`tsolve.claims.first_false_claim`) and puts the first false one in
    the item's diagnosis as ``false_claim``.

    ``diagnose=False`` keeps the scores and the lists of wrong and missed
    answers but skips the symbolic diagnosis (which facts a wrong date breaks),
    for maximum throughput on large prediction sets.

    The garbage collector is left alone unless the caller opened a
    :func:`tsolve.engines.gc_tuning.fewer_gc_pauses` block and passes its handle as
    ``batch_gc``: then what is alive once the records are indexed (records
    held in memory included) is frozen out of collection (a process-wide
    ``gc.freeze()``) until the block ends. The CLI does this.

    Records no prediction answers are listed in ``report.missing``; with
    ``missing="zero"`` each is also scored as an empty output (0 on every
    metric, counted in ``n``), as an evaluation that must cover the whole set
    wants. A prediction without an ``output`` field is a bad row, never a 0.

    ``scorer`` names another scorer each record's family declares
    (``Family.scorers``, e.g. ``paper`` for time puzzles) instead of its own;
    such a scorer has no batch diagnosis. A record whose family has no scorer
    of that name is a bad row."""
    if missing not in MISSING_POLICIES:
        raise TsolveError(f"missing: expected skip or zero, got {missing!r}")
    check_match(match)
    _check_rows(records, "records", RecordLookup)
    _check_rows(predictions, "predictions")
    report = VerifyReport(
        scorer=scorer,
        missing_scored=missing == "zero",
        kept_items=[] if keep_items else None,
        on_item=on_item,
        on_error=on_error,
    )
    if match == "order":
        if isinstance(records, RecordLookup):
            raise TsolveError("match: order pairs rows as read; pass the records, not a lookup")
        if batch_gc is not None:
            batch_gc.freeze_inputs()
        _verify_in_order(report, records, predictions, _Judge(diagnose, claims, scorer))
        return report
    lookup = records if isinstance(records, RecordLookup) else records_in_memory(records)
    lookup.on_error = report.add_record_error
    if lookup.in_memory:  # read whole anyway: read it first, so its bad rows come first
        lookup.scan_all()
    if batch_gc is not None:  # what is loaded now stays alive to the end: no need to re-scan it
        batch_gc.freeze_inputs()
    gate = _Gate(report, lookup)
    judge = _Judge(diagnose, claims, scorer)
    held = _HeldItems(report)
    shape = PredictionShape()  # a records file or id-less rows: one line, at row 1
    for pred in predictions:
        if isinstance(pred, BadRow):
            report.add_error(f"predictions {pred}")
            continue
        shape.check(pred)
        admitted = gate.admit(pred.get("id"), no_output(pred))
        if admitted is None:
            continue
        pid, record = admitted
        _judge_and_hold(judge, held, report, pid, record, pred.get("output"))
    held.flush()
    finish(report, lookup.ids(), gate.seen, missing, lookup.get, judge.routes)
    return report


def check_match(match: str) -> None:
    """``match`` is one of :data:`MATCH_POLICIES`, or the one-line error."""
    if match not in MATCH_POLICIES:
        raise TsolveError(f"match: expected id or order, got {match!r}")


def _verify_in_order(
    report: VerifyReport,
    records: Iterable[dict[str, Any] | BadRow],
    predictions: Iterable[dict[str, Any] | BadRow],
    judge: _Judge,
) -> None:
    """``match="order"``: the i-th prediction against the i-th record."""
    held = _HeldItems(report)
    recs, preds = iter(records), iter(predictions)
    n = 0
    while True:
        rec, pred = next(recs, None), next(preds, None)
        if rec is None or pred is None:
            if rec is not None or pred is not None:
                held.flush()
                n_recs = n + (rec is not None) + sum(1 for _ in recs)
                n_preds = n + (pred is not None) + sum(1 for _ in preds)
                raise TsolveError(
                    f"match: order pairs the i-th prediction with the i-th record, but there are "
                    f"{n_recs} records and {n_preds} predictions"
                )
            break
        n += 1
        if isinstance(rec, BadRow):
            report.add_record_error(f"puzzles {rec} (prediction row {n} not scored)")
        if isinstance(pred, BadRow):
            report.add_error(f"predictions {pred}")
        if isinstance(rec, BadRow) or isinstance(pred, BadRow):
            continue
        rid, pid = rec.get("id"), pred.get("id")
        label = f"row {n}" if rid is None else f"id {rid!r}"
        if pid is not None and id_key(pid) != id_key(rid):
            report.add_error(
                f"predictions: row {n}: id {pid!r}, but record row {n} has id {rid!r}; "
                "--match order pairs rows by position, so the files are out of step here"
            )
            continue
        why_not = no_output(pred, need_id=False)  # by position, an id is optional
        if why_not is not None:
            report.add_error(f"predictions: {label}: {why_not}")
            continue
        _judge_and_hold(judge, held, report, label, rec, pred.get("output"))
    held.flush()


def _judge_and_hold(
    judge: _Judge,
    held: _HeldItems,
    report: VerifyReport,
    pid: str,
    record: dict[str, Any],
    output: Any,
) -> None:
    """Score one prediction matched to its record and hold the item for its
    diagnosis, or report why it could not be scored (either way of matching)."""
    judged = judge(pid, record, output)
    if isinstance(judged, str):
        report.add_error(judged)
        return
    held.add(judged.item, judged.family, record if judged.waits else None, judged.claim)


def repeated_prediction(raw_id: Any) -> TsolveError:
    """The one-line error for a second prediction with one id (``match="id"``)."""
    return TsolveError(
        f"predictions: id {raw_id!r} has more than one prediction; they are matched to records "
        "by id, so prediction ids must be unique (or pass --match order to pair the i-th "
        "prediction with the i-th record)"
    )


def no_output(pred: dict[str, Any], need_id: bool = True) -> str | None:
    """Why ``pred`` is not a prediction although it decoded (None: it is one):
    no ``id`` field when matching by id (naming the one it has instead), or no
    ``output``."""
    if need_id and "id" not in pred:
        return missing_id(pred)
    if "output" in pred:  # a misnamed field must not score a silent 0
        return None
    others = ", ".join(repr(k) for k in pred if k != "id") or "nothing else"
    return (
        f"no 'output' field (found {others}); "
        'a prediction is {"id": ..., "output": "<model text>"}'
    )


class _Gate:
    """The checks a prediction passes, in prediction order, before it is
    scored: a record with its id, an ``output`` field, not a repeat (which
    stops the run: :func:`repeated_prediction`). Kept
    apart from the scoring so that a run that scores elsewhere
    (:mod:`tsolve.verifiers.verify_engine`) passes the same checks, in the same
    order, with the same messages."""

    def __init__(self, report: VerifyReport, lookup: RecordLookup) -> None:
        self.report = report
        self.lookup = lookup
        self.seen: set[str] = set()

    def admit(self, raw_id: Any, why_not: str | None) -> tuple[str, dict[str, Any]] | None:
        """``(id, record)`` of a prediction that goes on to be scored, or None
        (reported). ``why_not``: :func:`no_output` of the prediction."""
        pid = id_key(raw_id)
        if raw_id is None and why_not is not None:  # no 'id' field (no_output says which)
            self.report.add_error(f"predictions: {why_not}")
            return None
        if raw_id is not None and pid in self.seen:
            raise repeated_prediction(raw_id)
        record = None if raw_id is None else self.lookup.get(pid)
        if record is None:
            self.report.add_error(f"predictions: id {raw_id!r} matches no record")
            return None
        if why_not is not None:
            self.report.add_error(f"predictions: id {pid!r}: {why_not}")
            return None
        self.seen.add(pid)
        return pid, record


@dataclass
class Judged:
    """One prediction scored: the item, its family, whether it waits for the
    family's batch diagnosis, and the first false date claim of its output."""

    item: ItemScore
    family: str
    waits: bool
    claim: dict[str, Any] | None


class _Judge:
    """Scores one admitted prediction against its record: the family's
    scorer, the item's diagnosis route, the claims check."""

    def __init__(self, diagnose: bool, claims: bool, scorer: str | None = None) -> None:
        self.diagnose = diagnose
        self.claims = claims
        self.scorer = scorer  # a named scorer of each family, or None for its own
        self.routes: dict[str, tuple[Scorer, bool]] = {}  # family -> (scorer, batch-diagnosed?)

    def __call__(self, pid: str, record: dict[str, Any], output: Any) -> Judged | str:
        """The scored prediction, or the error that stops it (one line)."""
        try:
            family = family_of(record)
            route = self.routes.get(family)
            if route is None:
                named = self.scorer is not None  # a named scorer has no batch diagnosis
                batched = self.diagnose and not named and batch_diagnoser_for(family) is not None
                route = self.routes[family] = (scorer_for(family, self.scorer), batched)
            scorer, batched = route
            text = output if isinstance(output, str) else ""
            item = scorer(record, text, diagnose=self.diagnose and not batched)
        except TsolveError as exc:
            return f"predictions: id {pid!r}: {exc}"
        except Exception as exc:  # the backstop: one row never sinks the batch
            return f"predictions: id {pid!r}: {unexpected(exc)}"
        item.id = record.get("id")  # the record's own value: an integer id stays an integer
        waits = False
        if not isinstance(output, str):
            item.parse_failed = True
            item.metrics = {k: 0.0 for k in item.metrics}
            item.diagnosis = {"reason": "prediction has no string 'output'"}
        else:
            waits = batched and bool(item.diagnosis)  # only items with something to diagnose
        claim = None
        if self.claims and isinstance(output, str):
            from tsolve.claims import first_false_claim

            found = first_false_claim(output)
            claim = None if found is None else found.to_json()
        return Judged(item, family, waits, claim)


def finish(
    report: VerifyReport,
    ids: Iterable[Any],
    seen: set[str],
    missing: str,
    get: Callable[[str], dict[str, Any] | None],
    routes: dict[str, tuple[Scorer, bool]],
) -> None:
    """After the last prediction: list the records none answered (``ids``,
    the records' own values in file order; ``seen`` holds the
    :func:`~tsolve.records.id_key` of the answered) and, with
    ``missing="zero"``, score them 0."""
    report.missing = [rid for rid in ids if id_key(rid) not in seen]
    if missing == "zero":
        _score_missing(report, get, routes)


class _HeldItems:
    """Scored items in prediction order, held until the batch diagnosis of
    the ones that wait for it has run, then handed to the report."""

    def __init__(self, report: VerifyReport, diagnose: Diagnose | None = None) -> None:
        self.report = report
        self.diagnose = diagnose or _diagnose
        self.items: list[tuple[ItemScore, dict[str, Any] | None]] = []  # (item, false claim)
        self.waiting: dict[str, list[tuple[Any, ItemScore]]] = defaultdict(list)

    def add(
        self,
        item: ItemScore,
        family: str,
        record: Any,
        claim: dict[str, Any] | None,
    ) -> None:
        """Hold ``item``; ``record`` when it waits for its family's diagnosis
        (or whatever the ``diagnose`` the holder was made with reads)."""
        self.items.append((item, claim))
        if record is not None:
            waiting = self.waiting[family]
            waiting.append((record, item))
            if len(waiting) >= _DIAGNOSIS_BATCH:
                self.flush()
        if len(self.items) >= _HELD:
            self.flush()

    def flush(self) -> None:
        """Diagnose what waits, then pass every held item on (the ones whose
        record the diagnosis found unusable are reported and dropped)."""
        dropped: set[int] = set()
        for family, waiting in self.waiting.items():
            dropped |= self.diagnose(family, waiting, self.report)
        self.waiting.clear()
        for item, claim in self.items:
            if id(item) in dropped:
                continue
            if claim is not None:
                item.diagnosis["false_claim"] = claim
            item.context = None  # what the scorer read was for the diagnosis only
            self.report.add_item(item)
        self.items.clear()


def _score_missing(
    report: VerifyReport,
    get: Callable[[str], dict[str, Any] | None],
    routes: dict[str, tuple[Scorer, bool]],
) -> None:
    """Score each record of ``report.missing`` as an empty output: 0, counted."""
    for rid in report.missing:
        record = get(id_key(rid))
        if record is None:
            continue  # the file changed under us: reported by the lookup
        try:
            family = family_of(record)
            scorer = routes[family][0] if family in routes else scorer_for(family)
            item = scorer(record, "", diagnose=False)
        except TsolveError as exc:
            report.add_error(f"puzzles: id {rid!r}: {exc}")
            continue
        except Exception as exc:  # the backstop: one row never sinks the batch
            report.add_error(f"puzzles: id {rid!r}: {unexpected(exc)}")
            continue
        item.metrics = {k: 0.0 for k in item.metrics}
        item.parse_failed = True
        item.parsed = None
        item.diagnosis = {"reason": "no prediction"}
        item.context = None
        item.id = rid
        report.add_item(item)


def _diagnose(
    family: str, waiting: list[tuple[dict[str, Any], ItemScore]], report: VerifyReport
) -> set[int]:
    """Run ``family``'s batch diagnosis over ``waiting``; the ``id()`` of each
    item whose record turns out unusable (reported, to be dropped as if its
    scorer had raised)."""
    return drop_unusable(waiting, diagnosis_errors(family, waiting), report)


def diagnosis_errors(
    family: str, waiting: list[tuple[dict[str, Any], ItemScore]]
) -> list[str | None]:
    """``family``'s batch diagnosis over ``waiting`` (filled into the items);
    per item None, or the error that makes its record unusable."""
    diagnoser = batch_diagnoser_for(family)
    assert diagnoser is not None
    try:
        return diagnoser(waiting)
    except Exception as exc:  # the backstop: the batch's items are dropped, never the run
        return [unexpected(exc)] * len(waiting)


def drop_unusable(
    waiting: list[tuple[Any, ItemScore]], errors: list[str | None], report: VerifyReport
) -> set[int]:
    """Report each item with an error; the ``id()`` of those items."""
    dropped: set[int] = set()
    for (_record, item), error in zip(waiting, errors, strict=True):
        if error is not None:
            report.add_error(f"predictions: id {item.id!r}: {error}")
            dropped.add(id(item))
    return dropped


def _flag_gameable(family: str, result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with ``gameable``: the family's metrics that a trivial
    policy can farm (:data:`tsolve.verifiers.rewards.GAMEABLE`), when any."""
    from tsolve.verifiers.rewards import gameable

    farmed = gameable(family)
    return {**result, "gameable": list(farmed)} if farmed else result
