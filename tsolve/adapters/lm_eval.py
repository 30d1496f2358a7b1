"""An lm-evaluation-harness task folder for a tsolve run (``tsolve export lm-eval``).

lm-evaluation-harness finds tasks in YAML files under ``--include_path``.
:func:`export_lm_eval` writes one folder a user can hand to it as is:

* ``<task>.yaml``: a ``generate_until`` task named ``task:``, whose documents
  come from ``utils.load_docs`` (``custom_dataset``) and whose scores come
  from ``utils.process_results``;
* ``data/test.jsonl``: the run's records, one document a line, as flat text
  fields (``id``, ``family``, ``question``, ``answer``, and ``record``, the
  whole record as JSON text), so the ``datasets`` table that lm-eval builds
  never has to reconcile nested records of different shapes;
* ``utils.py``: reads ``data/test.jsonl`` beside itself (the folder may be
  moved) and scores each generation with tsolve's own scorer,
  :func:`tsolve.facade.score_answer`: the family's main metric, by the one
  final-answer rule of docs/scoring.md. tsolve must be importable where
  lm-eval runs; lm-eval itself is not needed to write the folder.

The data are generated here, once, so an evaluation reads a fixed file: the
same records ``tsolve dataset FAMILY --count N --seed S`` writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.facade import TsolveDataset, difficulty_knobs, record_of, reward_metrics
from tsolve.records import dumps, json_text
from tsolve.records.folders import FolderKind, FolderWrite

_TASK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

UTILS_PY = '''\
"""lm-evaluation-harness hooks for a task written by `tsolve export lm-eval`.

load_docs reads data/test.jsonl beside this file (only the rows of one subset
when a subtask names one; data/fewshot.jsonl is the optional few-shot split);
process_results scores a generation with tsolve's own scorer
(tsolve.facade.score_answer) under each of the family's metrics
(metrics.json), so each score is what `tsolve verify` reports for the text.
"""

import json
from pathlib import Path

import datasets

from tsolve.facade import score_answer

HERE = Path(__file__).resolve().parent


METRICS = json.loads((HERE / "metrics.json").read_text(encoding="utf-8"))


def _rows(name, subset):
    path = HERE / "data" / f"{name}.jsonl"
    rows = []
    if path.is_file():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    row = json.loads(line)
                    if subset is None or subset in json.loads(row["subsets"]):
                        rows.append(row)
    return rows


def load_docs(subset=None, **kwargs):
    splits = {"test": datasets.Dataset.from_list(_rows("test", subset))}
    fewshot = _rows("fewshot", None)
    if fewshot:
        splits["fewshot"] = datasets.Dataset.from_list(fewshot)
    return datasets.DatasetDict(splits)


def process_results(doc, results):
    entry = {"metadata": {"record": json.loads(doc["record"])}}
    reply = results[0] if results else ""
    out = {"score": score_answer(reply, entry)}
    for name in METRICS:
        out[name] = score_answer(reply, entry, reward_metric=name)
    return out
'''


def lm_eval_folder(task: str) -> FolderKind:
    """What an export of ``task`` writes, for :mod:`tsolve.records.folders`:
    besides its listed paths, the ``__pycache__`` Python leaves beside
    ``utils.py`` once lm-eval has imported it."""
    return FolderKind(
        "tsolve export lm-eval",
        members=(f"{task}.yaml", f"{task}_*.yaml", "utils.py", "metrics.json", "data",
                 "data/test.jsonl", "data/fewshot.jsonl", "__pycache__",
                 "__pycache__/utils.*.pyc"),
        legacy=_earlier_export,
        foreign="is not empty and was not written by tsolve export lm-eval",
        hint="give a new folder",
    )  # fmt: skip


def _earlier_export(path: Path) -> bool:
    """A folder an export wrote before tsolve marked its folders: its
    ``utils.py`` is ours."""
    utils = path / "utils.py"
    try:
        return utils.is_file() and "written by `tsolve export lm-eval`" in utils.read_text(
            encoding="utf-8"
        )
    except (OSError, UnicodeDecodeError):
        return False


@dataclass(frozen=True)
class LmEvalExport:
    """What :func:`export_lm_eval` wrote."""

    task: str
    directory: Path
    yaml: Path
    data: Path
    count: int
    metrics: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    fewshot: int = 0

    def to_json(self) -> dict[str, Any]:
        tasks = ",".join((self.task, *self.groups))
        return {
            "task": self.task,
            "directory": str(self.directory),
            "yaml": str(self.yaml),
            "data": str(self.data),
            "count": self.count,
            "metrics": ["score", *self.metrics],
            "groups": list(self.groups),
            "fewshot": self.fewshot,
            "run": f"HF_HUB_OFFLINE=1 lm_eval --model dummy --tasks {tasks} "
            f"--include_path {self.directory}",
        }


#: The record knobs (:func:`tsolve.facade.difficulty_knobs`) whose values make
#: subtasks, whichever family reports them: the style, M (``solutions``), the
#: difficulty level, a conversion direction and a question type. ``solutions``
#: is named ``m`` in task names.
GROUP_KNOBS = {"style": "style", "solutions": "m", "level": "difficulty",
               "difficulty": "difficulty", "direction": "direction", "type": "type"}  # fmt: skip


def default_task_name(family: str, count: int, seed: int) -> str:
    """``tsolve_<family>`` (``-`` read as ``_``): stable across exports, so a results table keeps
    its row names; the seed and count are in the task's metadata instead.
    (``count`` and ``seed`` stay parameters for callers that pass them.)"""
    return f"tsolve_{family.replace('-', '_')}"


def _slug(value: Any) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", str(value)).strip("_").lower() or "none"


def subsets_of(knobs: dict[str, Any]) -> list[str]:
    """The subset keys of one record: ``m_1``, ``style_implicit``, ..."""
    return [f"{GROUP_KNOBS[k]}_{_slug(v)}" for k, v in knobs.items() if k in GROUP_KNOBS]


def task_yaml(
    task: str,
    max_gen_toks: int,
    metrics: tuple[str, ...] = (),
    *,
    subset: str | None = None,
    tags: tuple[str, ...] = (),
    seed: int | None = None,
    count: int | None = None,
    fewshot: bool = False,
) -> str:
    """A task's YAML: every metric with its aggregation, the run's seed and
    count in ``metadata``, and (for a subtask) the subset its documents are
    filtered to. ``until`` is empty: a reply may think across paragraphs
    before its final ``MY ANSWER:`` line, so generation must not stop at a
    blank line (lm-eval's default)."""
    lines = [f"task: {task}"]
    if tags:
        lines += ["tag:", *(f"  - {t}" for t in tags)]
    lines += ["custom_dataset: !function utils.load_docs"]
    if subset is not None:
        lines += ["dataset_kwargs:", f"  subset: {subset}"]
    lines += ["test_split: test"]
    if fewshot:
        lines += ["fewshot_split: fewshot", "fewshot_config:", "  sampler: first_n"]
    lines += [
        "output_type: generate_until",
        'doc_to_text: "{{question}}"',
        'doc_to_target: "{{answer}}"',
        "process_results: !function utils.process_results",
        "generation_kwargs:",
        "  until: []",
        f"  max_gen_toks: {max_gen_toks}",
        "  do_sample: false",
        "metric_list:",
    ]
    for name in ("score", *metrics):
        lines += [f"  - metric: {name}", "    aggregation: mean", "    higher_is_better: true"]
    lines += ["metadata:", "  version: 1.0"]
    if seed is not None:
        lines += [f"  seed: {seed}"]
    if count is not None:
        lines += [f"  count: {count}"]
    return "\n".join(lines) + "\n"


def group_yaml(group: str, tasks: list[str], metrics: tuple[str, ...]) -> str:
    """A group over one knob's subtasks, each metric averaged over all their
    documents (weighted by size, so the group's figure is the whole run's)."""
    lines = [f"group: {group}", "task:", *(f"  - {t}" for t in tasks), "aggregate_metric_list:"]
    for name in ("score", *metrics):
        lines += [f"  - metric: {name}", "    aggregation: mean", "    weight_by_size: true"]
    lines += ["metadata:", "  version: 1.0"]
    return "\n".join(lines) + "\n"


def export_lm_eval(
    directory: str | Path,
    family: str,
    count: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    task: str | None = None,
    max_gen_toks: int = 2048,
    fewshot: int = 0,
) -> LmEvalExport:
    """Write an lm-evaluation-harness task folder for ``count`` records of
    ``family``'s run ``seed`` (see the module docstring). The folder is
    written beside ``directory`` and renamed into place whole
    (:class:`tsolve.records.folders.FolderWrite`): ``directory`` may be new,
    empty or an earlier export, and is checked before any record is made; a
    link, the working folder, or a folder holding anything tsolve did not
    write is refused, so an export never mixes with another's data and never
    writes through a link.

    Besides the whole run's task, each knob of :data:`GROUP_KNOBS` the
    records have makes one subtask per value and a group over them
    (``<task>_by_m``, ``<task>_by_style``, ...), and ``fewshot`` > 0 writes
    that many further records of the run as a ``fewshot`` split."""
    if isinstance(fewshot, bool) or not isinstance(fewshot, int) or fewshot < 0:
        raise TsolveError(f"fewshot: expected an integer >= 0, got {fewshot!r}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise TsolveError(f"count: expected an integer >= 1, got {count!r}")
    if isinstance(max_gen_toks, bool) or not isinstance(max_gen_toks, int) or max_gen_toks < 1:
        raise TsolveError(f"max-gen-toks: expected an integer >= 1, got {max_gen_toks!r}")
    dataset = TsolveDataset(family, seed=seed, size=count + fewshot, **(options or {}))
    metrics = reward_metrics(dataset.family, dataset._config)
    name = task or default_task_name(dataset.family.name, count, seed)
    if not _TASK_NAME.fullmatch(name):
        raise TsolveError(f"task: expected letters, digits and _ (a letter first), got {name!r}")
    out = Path(directory)
    target = FolderWrite(out, lm_eval_folder(name), what="directory")  # before any record
    with target:
        folder = target.folder
        (folder / "data").mkdir(parents=True)
        by_knob: dict[str, set[str]] = {}
        entries = list(dataset)
        with open(folder / "data" / "test.jsonl", "w", encoding="utf-8") as fh:
            for entry in entries[:count]:
                doc = _doc(entry, dataset.family.name)
                for key in json.loads(doc["subsets"]):
                    by_knob.setdefault(key.split("_", 1)[0], set()).add(key)
                fh.write(json_text(doc) + "\n")
        if fewshot:
            with open(folder / "data" / "fewshot.jsonl", "w", encoding="utf-8") as fh:
                for entry in entries[count:]:
                    fh.write(json_text(_doc(entry, dataset.family.name)) + "\n")
        (folder / "utils.py").write_text(UTILS_PY, encoding="utf-8")
        (folder / "metrics.json").write_text(json.dumps(list(metrics)), encoding="utf-8")
        (folder / f"{name}.yaml").write_text(
            task_yaml(name, max_gen_toks, metrics, seed=seed, count=count, fewshot=fewshot > 0),
            encoding="utf-8",
        )
        groups: list[str] = []
        for knob, keys in sorted(by_knob.items()):
            group = f"{name}_by_{knob}"
            subtasks = [f"{name}_{key}" for key in sorted(keys)]
            for key, sub in zip(sorted(keys), subtasks, strict=True):
                text = task_yaml(sub, max_gen_toks, metrics, subset=key, tags=(f"{group}_tag",),
                                 seed=seed, count=count, fewshot=fewshot > 0)  # fmt: skip
                (folder / f"{sub}.yaml").write_text(text, encoding="utf-8")
            (folder / f"{group}.yaml").write_text(group_yaml(group, subtasks, metrics), "utf-8")
            groups.append(group)
        target.commit()
    yaml_path, data_path = out / f"{name}.yaml", out / "data" / "test.jsonl"
    return LmEvalExport(name, out, yaml_path, data_path, count, metrics, tuple(groups), fewshot)


def _doc(entry: dict[str, Any], family: str) -> dict[str, str]:
    """One document: flat text fields, the record as JSON text, and the
    subsets it belongs to (a JSON list, so the table's columns never vary)."""
    record = record_of(entry)  # the whole record: the export's scorer reads its gold
    return {
        "id": str(record.get("id")),
        "family": family,
        "question": entry["question"],
        "answer": entry["answer"],
        "record": dumps(record),
        "subsets": json.dumps(subsets_of(difficulty_knobs(record))),
    }
