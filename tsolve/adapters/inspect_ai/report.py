"""The papers' tables from Inspect logs: ``tsolve report LOG_DIR...``.

:func:`build_report` reads every log under the folders given (or the log
files given) through :mod:`inspect_ai.log` and groups its scored samples into
rows.

**Runs are kept apart.** Every row belongs to one run (one log), and carries
the settings that tell runs apart: ``task``, ``model``, ``tags``, ``solver``
and ``solver_args``, ``task_args``, ``epochs`` and ``reducer``, and
``generate_config`` (temperature, ...), with the run's ``eval_id`` and
``log``. Two runs are never pooled into one row, even when their settings are
equal (a rerun is a second measurement, and pooling it would hide that). A
log reached twice (a folder and its file, nested folders), or a copy of one
run (``inspect score`` writes the run's log again, ``inspect eval-retry``
writes a new log of the same task id), is read once: the copies of a run are
recognised by Inspect's task id (else the eval id), the last complete one is
read, and :attr:`Report.duplicates` says which were set aside.

**Rows.** Within a run:

* tsolve's family tasks (``tsolve/<family>``): one row per condition
  (``none``, ``calendar``, ``knowledge``, ``code``, ``all``,
  ``context-knowledge``: the sample's ``condition`` metadata) and style
  (``implicit`` / ``explicit``, the record's), with ``M = "all"``, and one
  more row for each of the family's breakdowns of the sample's record
  (``Family.report_breakdowns``: the puzzle families' answer-set size M,
  the Time Puzzles paper's breakdown; SPAN's reference year, conversion
  direction and ``type`` x ``format``; UnSeenTimeQA's difficulty x question
  type). Every row of a family carries the fields its ``report_columns``
  names, ``"all"`` where the row does not break down by one.
* a family's own task (``Family.inspect_tasks``, whose samples carry no
  record: :mod:`tsolve.adapters.inspect_ai.family_tasks`) makes its own
  rows (its ``report_sample`` / ``report_row``). TicToc's
  (``tsolve/tictoc``): one row per elapsed-time level and preference,
  ``accuracy`` being the share of decisions that match the preference, with
  ``attempt_rate`` (share of tool calls), and the level's NAR.

**Two golds.** Records that carry a published gold beside tsolve's (those
imported from the Time Puzzles release) are scored against both
(:mod:`tsolve.adapters.inspect_ai.scorer`): a row's ``metrics`` then hold
``em_published``, ``f1_published``, ... beside ``em``, ``f1``, and the row
has ``accuracy_published`` and ``stderr_published`` (the main metric against
the published gold) over its ``n_published`` samples that have one (0, and
None, for other records), so a reader sees what the published gold does to
the figure.

**Epochs count once.** A sample run for several epochs is one sample: its
epochs are reduced first, by the run's own epoch reducer (Inspect's
``mean`` unless ``--epochs-reducer`` said otherwise, one row per reducer),
key by key over the family metrics, and the row's ``accuracy`` (the main
metric: exact match for the puzzles), ``stderr``, ``metrics`` and
``metric_stderr`` (each metric's standard error) are then taken over
samples, exactly as Inspect computes its results. So ``n`` counts samples,
``epochs`` is the run's epoch count and ``sample_epochs`` the scored
sample-epochs. The mean tool calls, turns and output tokens are per
sample-epoch.

**Where the reasoning went wrong** (``claims=True``, ``tsolve report
--claims``). Each scored sample-epoch of a family task has its output run
through the claim checker (:func:`tsolve.claims.first_false_claim`), and each
family row gains ``wrong_with_false_claim`` (of its wrong sample-epochs, those
whose main metric is below 1, the share whose reasoning holds a false date
claim; None when none is wrong), ``false_claim_kinds`` (how many first false
claims of each kind: weekday, leap-year, conversion, shift, ..., commonest
first) and ``false_claims`` (per sample-epoch with one: the sample, epoch,
whether its answer was right, and its first false claim as
``tsolve check-claims`` prints it). This is the Time Puzzles paper's error
analysis, done symbolically.

**Bad input never sinks the report.** A sample that ended in an error has no
score: it is counted in the row's ``errors``, not in ``n``. A sample whose
score or metadata cannot be read (a value or field of an unexpected type, a
value that is not a finite number, a score metric outside [0, 1]: the family
contract's range, so a row's mean is a fraction and its sums cannot overflow;
a count above :data:`MAX_COUNT`)
is listed in :attr:`Report.bad_samples` and left out; a log that cannot be
read is listed in ``bad_logs``; the rest are reported. Logs of other tasks
are skipped and listed in ``skipped``.

**Samples are told apart by their full id.** Ids are cut short only where
they are shown (:func:`shown_id`); two long ids that share a prefix are two
samples, as Inspect counts them.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.adapters.inspect_ai.family_tasks import module_for_task
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

#: The order conditions are listed in, as in the papers' tables.
CONDITIONS = ("none", "context-knowledge", "calendar", "knowledge", "code", "all")

#: The fields of a row that tell runs apart (besides the row's own breakdown).
RUN_FIELDS = (
    "task", "model", "tags", "solver", "solver_args", "task_args", "epochs", "reducer",
    "generate_config", "eval_id", "log",
)  # fmt: skip


#: A sample's id as Inspect keeps it (an int or a string), the key of its epochs.
SampleId = int | str

#: The range of every score metric: the family contract's (``ItemScore.metrics``
#: are fractions, macro-averaged). A value outside it is a corrupt score, never
#: averaged into a row.
METRIC_RANGE = (0.0, 1.0)


class BadSample(Exception):
    """A sample whose score or metadata cannot be read (one line: why)."""


@dataclass
class _Epoch:
    """One scored sample-epoch, as read from the log."""

    value: dict[str, float]
    tool_calls: int
    turns: int
    tokens: int
    called: bool = False
    #: set when claims are checked: the epoch number and its first false claim
    checked: bool = False
    epoch: int = 1
    false_claim: dict[str, Any] | None = None


@dataclass
class _Cell:
    """One row's samples: each sample id's scored epochs, and its errors."""

    samples: dict[SampleId, list[_Epoch]] = field(default_factory=dict)
    errors: int = 0

    def add(self, sample_id: SampleId, epoch: _Epoch) -> None:
        self.samples.setdefault(sample_id, []).append(epoch)

    def figures(self, reducer: Any) -> dict[str, Any]:
        """n, accuracy and its standard error, and every metric's mean, over
        the samples' epoch-reduced values (see the module docstring)."""
        from inspect_ai.scorer import Score

        reduced: list[dict[str, float]] = []
        for epochs in self.samples.values():
            # the same keys in every epoch (Inspect's reducers refuse others);
            # a metric an epoch did not report counts 0, as in tsolve verify
            names = list(dict.fromkeys(k for e in epochs for k in e.value))
            scores = [Score(value={k: e.value.get(k, 0.0) for k in names}) for e in epochs]
            value = reducer(scores).value
            if isinstance(value, Mapping):
                reduced.append({k: float(v) for k, v in value.items()})
        # a reducer that cannot reduce a sample (pass_at_k over fewer epochs
        # than k) leaves it unscored, as Inspect does
        reduced = [v for v in reduced if not math.isnan(_main(v))]
        main = [_main(v) for v in reduced]
        n = len(main)
        mean = math.fsum(main) / n if n else None
        err = _stderr(main)
        names = list(dict.fromkeys(k for v in reduced for k in v))
        metrics: dict[str, float] = {}
        metric_stderr: dict[str, float | None] = {}
        for name in sorted(names):
            got = [v[name] for v in reduced if name in v and not math.isnan(v[name])]
            if got:
                metrics[name] = math.fsum(got) / len(got)
                metric_stderr[name] = _stderr(got)
        published = _published_main(reduced)
        every = [e for epochs in self.samples.values() for e in epochs]
        per = (lambda total: total / len(every)) if every else (lambda total: None)
        claims = self.claim_figures() if any(e.checked for e in every) else {}
        return {
            **claims,
            "n": n,
            "sample_epochs": len(every),
            "errors": self.errors,
            "accuracy": mean,
            "stderr": err,
            "n_published": len(published),
            "accuracy_published": math.fsum(published) / len(published) if published else None,
            "stderr_published": _stderr(published),
            "metrics": metrics,
            "metric_stderr": metric_stderr,
            "mean_tool_calls": per(sum(e.tool_calls for e in every)),
            "mean_turns": per(sum(e.turns for e in every)),
            "mean_output_tokens": per(sum(e.tokens for e in every)),
            "attempt_rate": per(sum(e.called for e in every)),
        }

    def claim_figures(self) -> dict[str, Any]:
        """The row's claim figures (see the module docstring), per sample-epoch."""
        wrong = wrong_false = 0
        kinds: dict[str, int] = {}
        listed: list[dict[str, Any]] = []
        for sample_id, epochs in self.samples.items():
            for e in epochs:
                is_wrong = _main(e.value) < 1.0
                wrong += is_wrong
                if e.false_claim is None:
                    continue
                wrong_false += is_wrong
                kinds[e.false_claim["kind"]] = kinds.get(e.false_claim["kind"], 0) + 1
                listed.append({"sample": str(sample_id), "epoch": e.epoch, "correct": not is_wrong,
                               "first_false_claim": e.false_claim})  # fmt: skip
        return {
            "wrong_with_false_claim": wrong_false / wrong if wrong else None,
            "false_claim_kinds": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            "false_claims": listed,
        }


def _stderr(values: Sequence[float]) -> float | None:
    """The standard error of the mean of ``values`` (None for fewer than two)."""
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _published_main(reduced: Sequence[Mapping[str, float]]) -> list[float]:
    """Each sample's main metric against its record's published gold, for
    the samples that have one (the scorer's ``em_published``, ...:
    :func:`tsolve.adapters.inspect_ai.scorer.published_metrics`)."""
    from tsolve.adapters.inspect_ai.scorer import PUBLISHED
    from tsolve.verifiers.rewards import main_metric

    found = ((v, main_metric(v) + PUBLISHED) for v in reduced)
    return [v[name] for v, name in found if name in v and not math.isnan(v[name])]


def _first_false_claim(sample: Any) -> dict[str, Any] | None:
    """The first false date claim in a sample's output (its reasoning), as JSON."""
    from tsolve.claims import first_false_claim

    output = getattr(sample, "output", None)
    text = getattr(output, "completion", "") if output is not None else ""
    found = first_false_claim(text) if isinstance(text, str) and text else None
    return found.to_json() if found is not None else None


def _main(value: Mapping[str, float]) -> float:
    from tsolve.verifiers.rewards import main_metric

    return float(value[main_metric(value)])


@dataclass
class Report:
    """What :func:`build_report` found: the rows, and what it could not use."""

    rows: list[dict[str, Any]]
    logs: list[str]
    bad_logs: list[dict[str, str]]
    skipped: list[str]
    bad_samples: list[dict[str, Any]] = field(default_factory=list)
    duplicates: list[dict[str, str]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 when a log or a sample could not be read (the rows are still printed)."""
        return 1 if self.bad_logs or self.bad_samples else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "logs": self.logs,
            "bad_logs": self.bad_logs,
            "bad_samples": self.bad_samples,
            "duplicates": self.duplicates,
            "skipped": self.skipped,
        }


def log_files(paths: Sequence[str | Path]) -> list[str]:
    """Every Inspect log under the folders given, and the log files given,
    each file once (a folder and a file in it, or nested folders, can reach
    the same file twice)."""
    return _log_paths(paths)[0]


def _log_paths(paths: Sequence[str | Path]) -> tuple[list[str], list[str]]:
    """The logs :func:`log_files` lists, and the paths that reached one of
    them again."""
    from inspect_ai.log import list_eval_logs

    found: list[str] = []
    again: list[str] = []
    seen: set[str] = set()
    for path in paths:
        p = Path(path)
        if p.is_dir():
            names = sorted(info.name for info in list_eval_logs(str(p), recursive=True))
        elif p.is_file():
            names = [str(p)]
        else:
            raise TsolveError(f"LOG_DIR: {str(p)!r} is neither a folder nor a log file")
        for name in names:
            real = os.path.realpath(_short(name))
            if real in seen:
                again.append(_short(name))
            else:
                seen.add(real)
                found.append(name)
    if not found:
        shown = ", ".join(repr(str(p)) for p in paths)
        raise TsolveError(f"LOG_DIR: no Inspect logs in {shown}")
    return found, again


def build_report(paths: Sequence[str | Path], *, claims: bool = False) -> Report:
    """The report over the logs in ``paths`` (see the module docstring);
    ``claims`` also checks each scored sample's reasoning for false date claims."""
    from inspect_ai.log import read_eval_log

    files, again = _log_paths(paths)
    bad: list[dict[str, str]] = []
    skipped: list[str] = []
    headers: list[tuple[str, Any]] = []
    for name in files:
        try:
            headers.append((name, read_eval_log(name, header_only=True)))
        except Exception as exc:  # any unreadable file: report it, go on
            bad.append({"log": _short(name), "error": _one_line(exc)})
    kept, duplicates = _one_log_per_run(headers)
    duplicates[:0] = [{"log": name, "reason": "reached twice"} for name in again]
    cells: dict[tuple[Any, ...], _Cell] = {}
    runs: dict[str, tuple[dict[str, Any], list[Any]]] = {}
    bad_samples: list[dict[str, Any]] = []
    for name, header in kept:
        if not str(header.eval.task).startswith("tsolve/"):
            skipped.append(_short(name))
            continue
        try:
            log = read_eval_log(name)
            run = _run_settings(name, log)
            reducers = _reducers(log)
        except Exception as exc:  # any unreadable file: report it, go on
            bad.append({"log": _short(name), "error": _one_line(exc)})
            continue
        runs[run["eval_id"]] = (run, reducers)
        for sample in log.samples or []:
            try:
                keys, epoch = _read_sample(run["task"], sample)
            except BadSample as exc:
                where = {"log": _short(name), "sample": str(getattr(sample, "id", "?"))}
                bad_samples.append({**where, "epoch": sample.epoch, "error": str(exc)})
                continue
            if claims and epoch is not None and module_for_task(run["task"]) is None:
                epoch.checked = True
                epoch.epoch = int(sample.epoch or 1)
                epoch.false_claim = _first_false_claim(sample)
            for k in keys:
                cell = cells.setdefault((run["eval_id"], *k), _Cell())
                if epoch is None:
                    cell.errors += 1
                else:
                    cell.add(_sample_key(sample), epoch)
    rows: list[dict[str, Any]] = []
    failed: set[str] = set()
    for key, cell in cells.items():
        run, reducers = runs[key[0]]
        for reducer_name, reducer in reducers:
            try:
                figures = cell.figures(reducer)
            except Exception as exc:  # a reducer that refuses these scores
                if run["eval_id"] not in failed:
                    failed.add(run["eval_id"])
                    error = f"epochs reducer {reducer_name}: {_one_line(exc)}"
                    bad.append({"log": run["log"], "error": error})
                continue
            rows.append(_row(run, reducer_name, key[1:], figures))
    rows = [r for r in rows if r["eval_id"] not in failed]
    rows.sort(key=_order)
    for r in rows:
        r.pop(_FIELDS, None)
    _finish(rows)
    return Report(rows, [_short(f) for f, _ in kept], bad, skipped, bad_samples, duplicates)


def _one_log_per_run(
    headers: list[tuple[str, Any]],
) -> tuple[list[tuple[str, Any]], list[dict[str, str]]]:
    """One log per run: of the logs sharing a task id (a run and its copies
    from ``inspect score`` or ``eval-retry``), the last complete one."""
    by_run: dict[str, list[tuple[str, Any]]] = {}
    for name, header in headers:
        run_key = str(header.eval.task_id or header.eval.eval_id)
        by_run.setdefault(run_key, []).append((name, header))
    kept: list[tuple[str, Any]] = []
    duplicates: list[dict[str, str]] = []
    for run_key, logs in by_run.items():
        best = max(logs, key=_recency)
        kept.append(best)
        for name, _ in logs:
            if name != best[0]:
                duplicates.append({"log": _short(name), "reason": "same run as "
                                   f"{_short(best[0])} (task id {run_key})"})  # fmt: skip
    order = {name: i for i, (name, _) in enumerate(headers)}
    kept.sort(key=lambda nh: order[nh[0]])
    return kept, duplicates


def _recency(name_header: tuple[str, Any]) -> tuple[Any, ...]:
    """Complete before not, then the latest finished, then the latest written."""
    name, header = name_header
    try:
        mtime = os.path.getmtime(_short(name))
    except OSError:
        mtime = 0.0
    completed = str(getattr(header.stats, "completed_at", "") or "")
    return (header.status == "success", completed, mtime, name)


def _run_settings(name: str, log: Any) -> dict[str, Any]:
    """What tells this run apart from another (:data:`RUN_FIELDS`)."""
    spec = log.eval
    config = spec.config
    solver = spec.solver
    if solver is None and log.plan is not None:
        solver = "+".join(step.solver for step in log.plan.steps) or None
    # the model's own config, under the run's (--temperature, ...)
    generate: dict[str, Any] = {}
    for config_part in (spec.model_generate_config, log.plan.config if log.plan else None):
        if config_part is not None:
            generate.update(config_part.model_dump(exclude_none=True))
    return {
        "task": str(spec.task),
        "model": str(spec.model),
        "tags": sorted(str(t) for t in spec.tags or []),
        "solver": solver,
        "solver_args": _plain(spec.solver_args or {}),
        "task_args": _plain(spec.task_args or {}),
        "epochs": int(config.epochs or 1),
        "generate_config": _plain(generate),
        "eval_id": str(spec.eval_id),
        "log": _short(name),
    }


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data (the logged settings are JSON already)."""
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def _reducers(log: Any) -> list[tuple[str, Any]]:
    """The run's epoch reducers, by name, as Inspect applies them: ``mean``
    when the run named none."""
    from inspect_ai.scorer._reducer.registry import create_reducers, reducer_log_name

    names = log.eval.config.epochs_reducer or ["mean"]
    try:
        reducers = create_reducers(names)
    except Exception as exc:
        raise TsolveError(
            f"epochs reducer {names!r} is not known here ({_one_line(exc)})"
        ) from None
    return [(reducer_log_name(r), r) for r in reducers]


def _finish(rows: list[dict[str, Any]]) -> None:
    """Each family task's last word on its rows (its ``finish_report``:
    TicToc's NAR per level, from its rows by preference)."""
    for task in dict.fromkeys(r["task"] for r in rows):
        own = module_for_task(task)
        finish = getattr(own, "finish_report", None)
        if finish is not None:
            finish([r for r in rows if r["task"] == task])


def _short(name: str) -> str:
    return name.removeprefix("file://")


def _one_line(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def _sample_key(sample: Any) -> SampleId:
    """What tells a sample's epochs from another sample's: its full id."""
    return sample.id


def shown_id(sample_id: Any, limit: int = 200) -> str:
    """A sample id for a line of text: at most ``limit`` characters, its
    start and its end with ``...`` between (ids that share a long prefix
    differ at the end). Only for display: samples are told apart by their
    full id."""
    text = str(sample_id)
    if len(text) <= limit:
        return text
    head = (limit - 3) // 2
    return f"{text[:head]}...{text[len(text) - (limit - 3 - head) :]}"


# ------------------------------------------------------------ reading a sample


def _read_sample(task: str, sample: Any) -> tuple[list[tuple[Any, ...]], _Epoch | None]:
    """The row keys a sample counts in, and its scored epoch (None when it
    ended in an error or has no score). :class:`BadSample` when a field the
    report reads has an unexpected type, a value is not a finite number, or a
    score metric is outside :data:`METRIC_RANGE`."""
    scores = sample.scores or {}
    score = next(iter(scores.values()), None)
    meta = _mapping(score.metadata if score is not None else None, "score metadata")
    sm = _mapping(sample.metadata, "sample metadata")
    tokens = 0
    for usage in (sample.model_usage or {}).values():
        tokens += _count(usage.output_tokens, "output_tokens")
    scored = score is not None and sample.error is None
    own = module_for_task(task)
    if own is not None and hasattr(own, "report_sample"):  # a family's own task
        return own.report_sample(score if scored else None, meta, sm, tokens)
    record = _mapping(record_in(sm) if isinstance(sm.get("record"), dict) else sm.get("record"),
                      "record")  # fmt: skip
    condition_meta = meta.get("condition")
    if condition_meta is None:
        condition_meta = sm.get("condition")
    condition = _label(_mapping(condition_meta, "condition").get("name") or "none", "condition")
    style = _label(record.get("style") or "-", "style")
    value = _value(score.value, meta) if score is not None and scored else None
    if "metrics" in meta:
        _metrics(meta["metrics"], "metrics")
    run = meta.get("run")
    if run is None:  # a log scored before the run was recorded
        from tsolve.adapters.inspect_ai.conditions import run_stats

        run = run_stats(sample.messages or [])
    run = _mapping(run, "run")
    tool_calls = _count(run.get("n_tool_calls", 0), "run.n_tool_calls")
    turns = _count(run.get("turns", 0), "run.turns")
    family = _label(sm.get("family") or record.get("family") or "", "family")
    keys: list[tuple[Any, ...]] = [("family", family, condition, style, ())]
    for extra in _breakdowns(family, record):
        keys.append(("family", family, condition, style, extra))
    if value is None:
        return keys, None
    fam = _family(family)
    for name in fam.diagnostic_metrics if fam is not None else ():
        value.setdefault(name, 0.0)  # as the scorer writes them (score_value)
    return keys, _Epoch(value, tool_calls, turns, tokens)


def _family(name: str) -> Any:
    """The registered family called ``name``, or None (a log of a family
    this installation does not have is still reported, without its
    breakdowns)."""
    from tsolve.contract import get_family

    try:
        return get_family(name) if name else None
    except TsolveError:
        return None


def _breakdowns(family: str, record: Mapping[str, Any]) -> list[tuple[tuple[str, Any], ...]]:
    """The extra rows a sample of ``family`` counts in, each as its
    ``(field, label)`` pairs: the family's ``report_breakdowns`` of the
    sample's record (:meth:`tsolve.contract.Family.report_keys`). A record
    the family cannot break down, or a label that is not text or a count, is
    a :class:`BadSample`."""
    fam = _family(family)
    if fam is None:
        return []
    try:
        found = fam.report_keys(dict(record))
    except Exception as exc:  # the record's fields, not the family, are at fault
        message = str(exc) if isinstance(exc, TsolveError) else _one_line(exc)
        raise BadSample(message) from None
    out: list[tuple[tuple[str, Any], ...]] = []
    for key in found:
        pairs = []
        for name, label in key.items():
            if isinstance(label, int) and not isinstance(label, bool):
                label = _count(label, name)
            else:
                label = _label(label, name)
            pairs.append((str(name), label))
        if pairs:
            out.append(tuple(pairs))
    return out


def _value(value: Any, meta: Mapping[str, Any]) -> dict[str, float]:
    """A family score's metrics, main metric first: the value dict tsolve's
    scorer writes, or (a log scored before that) the scalar value and the
    metadata's metrics."""
    if isinstance(value, Mapping):
        if not value:
            raise BadSample("value: an empty dict")
        return _metrics(value, "value")
    from tsolve.verifiers.rewards import main_metric

    main = _scalar(value)
    metrics = _metrics(meta.get("metrics") or {}, "metrics")
    name = meta.get("main_metric")
    if not isinstance(name, str) or not name:
        name = main_metric(metrics) if metrics else "value"
    return {name: main, **{k: v for k, v in metrics.items() if k != name}}


def _metrics(found: Any, what: str) -> dict[str, float]:
    if not isinstance(found, Mapping):
        raise BadSample(f"{what}: expected a dict of numbers, got {_shown(found)}")
    out: dict[str, float] = {}
    for name, v in found.items():
        if not isinstance(name, str):
            raise BadSample(f"{what}: a metric name {_shown(name)} is not text")
        out[name] = _metric(v, f"{what}.{name}")
    return out


def _scalar(value: Any) -> float:
    """A scalar score value as a finite number ("C"/"I" as Inspect reads them)."""
    if isinstance(value, str) and value in ("C", "I"):
        return 1.0 if value == "C" else 0.0
    if isinstance(value, str):
        try:
            return _metric(float(value), "value")
        except ValueError:
            pass
    return _metric(value, "value")


def _metric(value: Any, what: str) -> float:
    """A score metric: a finite number in :data:`METRIC_RANGE`."""
    number = _number(value, what)
    low, high = METRIC_RANGE
    if not low <= number <= high:
        raise BadSample(f"{what}: {number!r} is outside [{low:g}, {high:g}], a score's range")
    return number


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadSample(f"{what}: expected a number, got {_shown(value)}")
    if not math.isfinite(value):
        raise BadSample(f"{what}: not a finite number ({value!r})")
    return float(value)


#: The largest count read (tool calls, turns, tokens, M): every whole number
#: up to it is exact as a float, so a mean of counts is too.
MAX_COUNT = 2**53


def _count(value: Any, what: str) -> int:
    number = _number(value, what)
    if number < 0 or number != int(number) or number > MAX_COUNT:
        raise BadSample(f"{what}: expected a count, got {_shown(value)}")
    return int(number)


def _label(value: Any, what: str, *, allow_int: bool = False) -> Any:
    if isinstance(value, str) or (
        allow_int and isinstance(value, int) and not isinstance(value, bool)
    ):
        return value
    raise BadSample(f"{what}: expected text, got {_shown(value)}")


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise BadSample(f"{what}: expected a dict, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, float) else repr(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"


# ------------------------------------------------------------ rows


def _order(row: dict[str, Any]) -> tuple[Any, ...]:
    """Rows in a stable order: task, model, condition (as :data:`CONDITIONS`),
    the run's settings, then style, M and the family's breakdown fields
    (its ``report_columns``, then any other) with "all" first (a family
    task's rows: its ``REPORT_FIELDS``, TicToc's level, then preference)."""

    def part(k: Any) -> tuple[int, str]:
        if k == "all" or k is None:
            return (0, "")
        return (1, f"{k:09d}" if isinstance(k, int) else str(k))

    condition = row.get("condition", "none")
    rank = CONDITIONS.index(condition) if condition in CONDITIONS else len(CONDITIONS)
    settings = json.dumps([row.get(k) for k in RUN_FIELDS[2:]], sort_keys=True, default=str)
    head = (row["task"], row["model"], (rank, str(condition)), settings, str(row["reducer"]))
    return (*head, *(part(row.get(f)) for f in row.get(_FIELDS, ())))


#: Where a row keeps, while rows are sorted, the names of its breakdown fields.
_FIELDS = "_breakdown_fields"


def _row(
    run: dict[str, Any], reducer: str, key: tuple[Any, ...], figures: dict[str, Any]
) -> dict[str, Any]:
    settings = {**run, "reducer": reducer}
    if key[0] != "family":  # a family's own task's row (its report_row)
        own = module_for_task(run["task"])
        assert own is not None
        fields = list(getattr(own, "REPORT_FIELDS", ()))
        return {**own.report_row(_first(settings), key, figures), **_rest(settings),
                _FIELDS: fields}  # fmt: skip
    _, family, condition, style, pairs = key
    labels = dict(pairs)
    fam = _family(family)
    columns = [c for c in (fam.report_columns if fam is not None else ()) if c != "M"]
    fields = columns + [f for f in labels if f not in columns and f != "M"]
    row = {**_first(settings), "condition": condition, "style": style,
           "M": labels.get("M", "all")}  # fmt: skip
    row.update((f, labels.get(f, "all")) for f in fields)
    figures = dict(figures)
    del figures["attempt_rate"]
    return {**row, **figures, **_rest(settings), _FIELDS: ["style", "M", *fields]}


def _first(settings: dict[str, Any]) -> dict[str, Any]:
    return {"task": settings["task"], "model": settings["model"]}


def _rest(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: settings[k] for k in RUN_FIELDS[2:]}


def rows_by_task(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows grouped by task, in order (for the text tables)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["task"], []).append(row)
    return out


#: What a family task's ``report_sample`` builds its epoch and its labels with.
Epoch = _Epoch
label = _label
scalar = _scalar


def __getattr__(name: str) -> Any:
    from tsolve.compat.moved_names import moved

    return moved(__name__, name)
