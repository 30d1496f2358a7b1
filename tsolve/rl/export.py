"""``tsolve export trl|verl|openrlhf DIR``: train and test files a trainer reads as is.

:func:`export_rl` writes ``DIR/train.parquet`` and ``DIR/test.parquet``
(rows of :mod:`tsolve.rl.rows`) and ``DIR/README.md`` with the trainer's own
command or config lines. The records are those ``tsolve dataset make FAMILY
-n N --seed S`` makes, for each family named (N each, interleaved, so a
mixture is even wherever a trainer cuts it), through the run's acceptance
pass (:mod:`tsolve.datasets.distinct`: a record repeating an earlier one's
answer is drawn again, one that cannot be made is left out and counted in
``dropped``). Each family's run is cut into consecutive train and test
blocks (:func:`tsolve.datasets.split.parse_split`); in a distinct run no two
records share an answer, and for a family whose runs are not distinct a
test record whose content fingerprint equals a train record's is dropped
and counted, so the two files are disjoint by content, as ``tsolve dataset
--split`` makes them. The folder is written beside ``DIR`` and
renamed into place (:class:`tsolve.records.folders.FolderWrite`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.contract import get_family
from tsolve.datasets.chunks import run_records
from tsolve.datasets.split import parse_split
from tsolve.errors import TsolveError
from tsolve.records.folders import FolderKind, FolderWrite
from tsolve.rl.rows import check_prompt, trainer_row

RL_FOLDER = FolderKind(
    "tsolve export (RL)",
    members=("train.parquet", "test.parquet", "README.md"),
    foreign="is not empty and was not written by tsolve export",
    hint="give a new folder",
)


@dataclass
class RlExport:
    """What :func:`export_rl` wrote."""

    trainer: str
    directory: Path
    families: list[str]
    counts: dict[str, int] = field(default_factory=dict)
    dropped: int = 0
    prompt: str = "text"

    def to_json(self) -> dict[str, Any]:
        return {"trainer": self.trainer, "directory": str(self.directory),
                "families": self.families, "counts": self.counts, "dropped": self.dropped,
                "prompt": self.prompt,
                "train": str(self.directory / "train.parquet"),
                "test": str(self.directory / "test.parquet")}  # fmt: skip


def _families(families: str | list[str]) -> list[str]:
    names = families.split(",") if isinstance(families, str) else list(families)
    out = [get_family(n.strip(), need="generate").name for n in names if n.strip()]
    if not out or len(set(out)) != len(out):
        raise TsolveError(f"family: expected distinct family names, got {families!r}")
    for name in out:
        get_family(name).require("score")
    return out


def _write(rows: list[dict[str, Any]], path: Path) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise TsolveError(
            "export: writing Parquet needs pyarrow (pip install 'tsolve[rl]')"
        ) from None
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(row))
    table = pa.Table.from_pylist([{k: row.get(k) for k in keys} for row in rows])
    pq.write_table(table, str(path))


def export_rl(
    trainer: str,
    directory: str | Path,
    families: str | list[str],
    count: int,
    seed: int = 0,
    test: float = 0.1,
    options: dict[str, Any] | None = None,
    prompt: str | None = None,
    system: str | None = None,
) -> RlExport:
    """Write ``trainer``'s train and test files for ``count`` records of each
    of ``families`` (run ``seed``; ``options`` apply to a single family),
    ``test`` the fraction of each run held out (module docstring); ``prompt``
    (``text`` or ``chat``) and ``system`` as :func:`tsolve.rl.rows.check_prompt`
    takes them."""
    style, system = check_prompt(trainer, prompt, system)
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise TsolveError(
            f"count: expected an integer >= 2 (a train and a test row), got {count!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TsolveError(f"seed: expected an integer >= 0, got {seed!r}")
    if not isinstance(test, (int, float)) or isinstance(test, bool) or not 0 < test < 1:
        raise TsolveError(f"test: expected a fraction between 0 and 1, got {test!r}")
    names = _families(families)
    if options and len(names) > 1:
        raise TsolveError("options: generator options apply to one family; give one --family")
    out = Path(directory)
    target = FolderWrite(out, RL_FOLDER, what="directory")  # before any record
    held = min(count - 1, max(1, round(count * test)))  # never an empty file
    parts = dict(parse_split(f"train={count - held},test={held}", count))
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    dropped = 0
    for name in names:
        family = get_family(name)
        family.make_options(options or {})  # bad options fail here, before any record
        records, _pass = run_records(name, options or {}, seed, count)
        dropped += count - len(records)
        cut = len(parts["train"])
        made = {"train": records[:cut], "test": records[cut:]}
        seen = {family.content_fingerprint(r) for r in made["train"]}
        kept = [r for r in made["test"] if family.content_fingerprint(r) not in seen]
        dropped += len(made["test"]) - len(kept)
        runs[name] = {"train": made["train"], "test": kept}
    with target:
        target.folder.mkdir(parents=True)
        counts = {}
        for part in ("train", "test"):
            rows: list[dict[str, Any]] = []
            longest = max(len(runs[n][part]) for n in names)
            for i in range(longest):
                for n in names:
                    if i < len(runs[n][part]):
                        rows.append(trainer_row(runs[n][part][i], trainer, len(rows), part,
                                                style, system))  # fmt: skip
            _write(rows, target.folder / f"{part}.parquet")
            counts[part] = len(rows)
        (target.folder / "README.md").write_text(readme(trainer, out, style), encoding="utf-8")
        target.commit()
    return RlExport(trainer, out, names, counts, dropped, style)


def _where(module: str) -> str:
    """A shell command printing the path of ``tsolve.rl.<module>``'s file."""
    return f"python -c 'import tsolve.rl.{module} as m; print(m.__file__)'"


def readme(trainer: str, directory: Path, prompt: str = "text") -> str:
    """The folder's README: what the files hold and the trainer's own lines."""
    said = "chat messages" if prompt == "chat" else "text"
    head = (f"# tsolve export {trainer}\n\n`train.parquet` and `test.parquet`: disjoint by "
            f"content; each `prompt` is {said}. The ground truth is compact JSON; tsolve "
            "scores it (`pip install tsolve`), the same number `tsolve verify` reports "
            "(docs/rl.md).\n\n")  # fmt: skip
    if trainer == "trl":
        body = f"""```python
from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer
from tsolve.rl import trl_reward

data = load_dataset("parquet", data_files={{"train": "{directory}/train.parquet"}})["train"]
trainer = GRPOTrainer(model="YOUR/MODEL", reward_funcs=[trl_reward("em")],
                      args=GRPOConfig(output_dir="out"), train_dataset=data)
trainer.train()
```
"""
    elif trainer == "verl":
        body = f"""```
python3 -m verl.trainer.main_ppo \\
    data.train_files={directory}/train.parquet \\
    data.val_files={directory}/test.parquet \\
    data.prompt_key=prompt \\
    reward.custom_reward_function.path=$({_where("verl_reward")}) \\
    reward.custom_reward_function.name=compute_score \\
    ...
# (verl 0.9 reads reward.custom_reward_function; older releases read the
#  top-level custom_reward_function.path and .name)
```
"""
    else:
        chat = " --data.apply_chat_template" if prompt == "chat" else ""
        body = f"""```
python -m openrlhf.cli.train_ppo_ray \\
    --data.prompt_dataset {directory}/train.parquet \\
    --data.input_key prompt --data.label_key label{chat} \\
    --reward.remote_url $({_where("openrlhf_reward")}) \\
    ...
# or a reward server: tsolve serve-rewards --port 5000, then
#   --reward.remote_url http://127.0.0.1:5000/get_reward
# (OpenRLHF before 0.11 names these --prompt_data, --input_key, --label_key,
#  --apply_chat_template and --remote_rm_url)
```
"""
    return head + body
