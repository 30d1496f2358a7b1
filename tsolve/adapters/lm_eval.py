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

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.facade import TsolveDataset
from tsolve.records import dumps, json_text
from tsolve.records.folders import FolderKind, FolderWrite

_TASK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

UTILS_PY = '''\
"""lm-evaluation-harness hooks for a task written by `tsolve export lm-eval`.

load_docs reads data/test.jsonl beside this file; process_results scores a
generation with tsolve's own scorer (tsolve.facade.score_answer), so the
score is what `tsolve verify` reports for the same text.
"""

import json
from pathlib import Path

import datasets

from tsolve.facade import score_answer

HERE = Path(__file__).resolve().parent


def load_docs(**kwargs):
    rows = []
    with open(HERE / "data" / "test.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def process_results(doc, results):
    entry = {"metadata": {"record": json.loads(doc["record"])}}
    reply = results[0] if results else ""
    return {"score": score_answer(reply, entry)}
'''


def lm_eval_folder(task: str) -> FolderKind:
    """What an export of ``task`` writes, for :mod:`tsolve.records.folders`:
    besides its listed paths, the ``__pycache__`` Python leaves beside
    ``utils.py`` once lm-eval has imported it."""
    return FolderKind(
        "tsolve export lm-eval",
        members=(f"{task}.yaml", "utils.py", "data", "data/test.jsonl", "__pycache__",
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

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "directory": str(self.directory),
            "yaml": str(self.yaml),
            "data": str(self.data),
            "count": self.count,
            "run": f"lm_eval --model dummy --tasks {self.task} --include_path {self.directory}",
        }


def default_task_name(family: str, count: int, seed: int) -> str:
    """``tsolve_time_puzzles_s0_n100``: the family, seed and count in the name,
    so two exports in one ``--include_path`` never collide by accident."""
    return f"tsolve_{family.replace('-', '_')}_s{seed}_n{count}"


def task_yaml(task: str, max_gen_toks: int) -> str:
    """The task's YAML. ``until`` is empty: a reply may think across
    paragraphs before its final ``MY ANSWER:`` line, so generation must not
    stop at a blank line (lm-eval's default)."""
    return (
        f"task: {task}\n"
        "custom_dataset: !function utils.load_docs\n"
        "test_split: test\n"
        "output_type: generate_until\n"
        'doc_to_text: "{{question}}"\n'
        'doc_to_target: "{{answer}}"\n'
        "process_results: !function utils.process_results\n"
        "generation_kwargs:\n"
        "  until: []\n"
        f"  max_gen_toks: {max_gen_toks}\n"
        "  do_sample: false\n"
        "metric_list:\n"
        "  - metric: score\n"
        "    aggregation: mean\n"
        "    higher_is_better: true\n"
        "metadata:\n"
        "  version: 1.0\n"
    )


def export_lm_eval(
    directory: str | Path,
    family: str,
    count: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    task: str | None = None,
    max_gen_toks: int = 2048,
) -> LmEvalExport:
    """Write an lm-evaluation-harness task folder for ``count`` records of
    ``family``'s run ``seed`` (see the module docstring). The folder is
    written beside ``directory`` and renamed into place whole
    (:class:`tsolve.records.folders.FolderWrite`): ``directory`` may be new,
    empty or an earlier export, and is checked before any record is made; a
    link, the working folder, or a folder holding anything tsolve did not
    write is refused, so an export never mixes with another's data and never
    writes through a link."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise TsolveError(f"count: expected an integer >= 1, got {count!r}")
    if isinstance(max_gen_toks, bool) or not isinstance(max_gen_toks, int) or max_gen_toks < 1:
        raise TsolveError(f"max-gen-toks: expected an integer >= 1, got {max_gen_toks!r}")
    dataset = TsolveDataset(family, seed=seed, size=count, **(options or {}))
    name = task or default_task_name(dataset.family.name, count, seed)
    if not _TASK_NAME.fullmatch(name):
        raise TsolveError(f"task: expected letters, digits and _ (a letter first), got {name!r}")
    out = Path(directory)
    target = FolderWrite(out, lm_eval_folder(name), what="directory")  # before any record
    with target:
        folder = target.folder
        (folder / "data").mkdir(parents=True)
        with open(folder / "data" / "test.jsonl", "w", encoding="utf-8") as fh:
            for entry in dataset:
                record = entry["metadata"]["record"]
                doc = {
                    "id": str(record.get("id")),
                    "family": dataset.family.name,
                    "question": entry["question"],
                    "answer": entry["answer"],
                    "record": dumps(record),
                }
                fh.write(json_text(doc) + "\n")
        (folder / "utils.py").write_text(UTILS_PY, encoding="utf-8")
        (folder / f"{name}.yaml").write_text(task_yaml(name, max_gen_toks), encoding="utf-8")
        target.commit()
    yaml_path, data_path = out / f"{name}.yaml", out / "data" / "test.jsonl"
    return LmEvalExport(name, out, yaml_path, data_path, count)
