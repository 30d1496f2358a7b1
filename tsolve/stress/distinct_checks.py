"""No puzzle twice, as ``tsolve stress`` checks it on a family's runs.

Four properties (:mod:`tsolve.datasets.distinct`, :mod:`tsolve.generators.seeding`):

* ``distinct-run``: a run made the way ``tsolve dataset`` makes it holds no
  two records with the same answer fingerprint (a puzzle's two wordings,
  which name each other in ``pair``, are one puzzle);
* ``option-stream``: the same seed with other content options gives other
  puzzles. The run with the stress options is compared with one run per
  option of the family's stress pools that they leave unset, set to one of
  its values;
  two records of the two runs may share an answer only if they are the same
  puzzle by id (an option that only picks a wording or a backend, which ids
  leave out) or each other's pair;
* ``split-disjoint``: the parts of ``tsolve dataset --split`` share no
  answer (``tsolve dataset overlap``'s ``answer_overlap`` is 0);
* ``facade-run``: the facade's items (``tsolve.create_dataset``, beneath the
  reasoning-gym, verifiers and lm-eval adapters) are the run's records, so
  they too hold no puzzle twice.

Each violation is one line naming the records and the options, with the
stress case that reproduces the run's first record.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tsolve.contract import Family, get_family
from tsolve.datasets.chunks import run_records as dataset_run
from tsolve.datasets.distinct import check_distinct, key_of
from tsolve.datasets.overlap import find_overlap
from tsolve.datasets.split import part_path, write_split
from tsolve.errors import TsolveError
from tsolve.stress.report import Violation
from tsolve.testing.cases import StressCase

#: Records per run the checks make (a run per varied option, and a split).
RUN_RECORDS = 6
#: Options of the stress pools varied by ``option-stream``, at most.
MAX_VARIED = 3


def run_records(fam: Family, options: Mapping[str, Any], seed: int, n: int) -> list[dict[str, Any]]:
    """Records ``0 .. n-1`` of run ``seed`` as ``tsolve dataset`` writes them."""
    return dataset_run(fam.name, options, seed, n)[0]


def _varied(fam: Family, base: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One option set per pool option the base leaves unset (not the domain
    pair), at one of its values, that the family accepts."""
    out: list[dict[str, Any]] = []
    for name, pool in fam.choices().items():
        if name == "domain" or name in base:
            continue
        values = [v for v in pool if v is not None]
        if not values:
            continue
        value = values[min(1, len(values) - 1)]  # the second: a first value is often the default
        opts = {**base, name: value}
        try:
            fam.make_options(opts)
        except TsolveError:
            continue
        out.append(opts)
        if len(out) == MAX_VARIED:
            break
    return out


def _same_puzzle(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a.get("id") == b.get("id") or a.get("pair") == b.get("id") or b.get("pair") == a.get("id")
    )


def distinct_violations(
    family: str, seed: int, options: Mapping[str, Any] | None = None, n: int = RUN_RECORDS
) -> list[Violation]:
    """The four checks of the module docstring on runs of ``n`` records."""
    fam = get_family(family, need="generate")
    if not fam.distinct_runs:
        return []
    base_opts = dict(options or {})
    case = StressCase(fam.name, seed, 0, base_opts)
    out: list[Violation] = []
    try:
        base = run_records(fam, base_opts, seed, n)
    except TsolveError as exc:
        return [Violation(case, "distinct-run", f"the run could not be made: {exc}")]
    out += [Violation(case, "distinct-run", line) for line in check_distinct(fam, base)]

    keyed: dict[bytes, dict[str, Any]] = {}
    for rec in base:
        answer = key_of(fam, rec)[0]
        if answer is not None:
            keyed.setdefault(answer, rec)
    for opts in _varied(fam, base_opts):
        try:
            if base and run_records(fam, opts, seed, 1)[:1] == base[:1]:
                continue  # an option that does not change content (a backend)
            other = run_records(fam, opts, seed, n)
        except TsolveError:
            continue
        for rec in other:
            hit = keyed.get(key_of(fam, rec)[0] or b"")
            if hit is not None and not _same_puzzle(hit, rec):
                out.append(Violation(case, "option-stream", (
                    f"seed {seed} with options {json.dumps(opts, sort_keys=True)} made "
                    f"{rec.get('id')!r}, the same puzzle as {hit.get('id')!r} with "
                    f"{json.dumps(base_opts, sort_keys=True)}: the record stream ignores options"
                )))  # fmt: skip
                break

    out += facade_violations(fam, case, base, n)

    with tempfile.TemporaryDirectory(prefix="tsolve-stress-split-") as tmp:
        out_path = Path(tmp) / "run.jsonl"
        half = n // 2
        try:
            write_split(fam.name, base_opts, count=n, out=out_path, seed=seed,
                        split=f"a={half},b={n - half}")  # fmt: skip
            report = find_overlap(part_path(out_path, "a"), part_path(out_path, "b"), by="answer")
        except TsolveError as exc:
            why = f"the split could not be made: {exc}"
            return [*out, Violation(case, "split-disjoint", why)]
        if report.answer_overlap:
            first = report.answer_pairs[0] if report.answer_pairs else {}
            out.append(Violation(case, "split-disjoint", (
                f"the parts of --split a={half},b={n - half} share {report.answer_overlap} "
                f"answers (first: {first.get('eval_id')!r} and {first.get('train_id')!r})"
            )))  # fmt: skip
    return out


def facade_violations(
    fam: Family, case: StressCase, base: list[dict[str, Any]], n: int
) -> list[Violation]:
    """``facade-run``: the facade's first ``n`` items, read in order, are
    ``base`` (the run's records; an item the run could not make is one the
    facade refuses too)."""
    if fam.score is None:
        return []
    import warnings

    from tsolve.facade import TsolveDataset, record_of

    served: list[dict[str, Any]] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # coverage warnings: the run's own check
            ds = TsolveDataset(fam.name, case.seed, n, **case.options)
        for i in range(n):
            try:
                served.append(record_of(ds[i]))
            except TsolveError:
                continue
    except TsolveError as exc:
        return [Violation(case, "facade-run", f"the facade could not serve the run: {exc}")]
    if served == base:
        return []
    pairs = enumerate(zip(served, base, strict=False))
    first = next((i for i, (a, b) in pairs if a != b), min(len(served), len(base)))
    return [Violation(case, "facade-run", (
        f"the facade's items differ from the run's records from item {first} on "
        f"({len(served)} served, {len(base)} in the run): it would serve other puzzles"
    ))]  # fmt: skip
