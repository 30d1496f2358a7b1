"""One record as a row of each trainer's dataset.

* ``verl``: ``data_source`` (the family), ``prompt`` (chat messages),
  ``ability``, ``reward_model`` (``style`` rule, ``ground_truth``) and
  ``extra_info`` (the record's ``id``, its row index, the split and its family),
  as verl's own example datasets (GSM8K) lay them out;
* ``trl`` and ``openrlhf``: ``prompt`` (text), ``label`` (the ground truth),
  ``id`` and ``data_source``.

Both carry the record's difficulty knobs (:func:`tsolve.facade.difficulty_knobs`)
as ``knob_<name>`` columns, so a curriculum or an analysis groups rows
without reading the gold. The ground truth is the compact one
(:mod:`tsolve.rl.gold`).
"""

from __future__ import annotations

from typing import Any

from tsolve.contract import family_of
from tsolve.errors import TsolveError
from tsolve.facade import difficulty_knobs
from tsolve.rl.gold import ground_truth
from tsolve.verifiers.gold_answers import question_text

TRAINERS = ("trl", "verl", "openrlhf")
ABILITY = "temporal-reasoning"


def check_trainer(trainer: object) -> str:
    """``trainer`` if it is one of :data:`TRAINERS`, else a one-line error."""
    if trainer not in TRAINERS:
        raise TsolveError(f"trainer: expected one of {', '.join(TRAINERS)}, got {trainer!r}")
    return str(trainer)


def trainer_row(
    record: dict[str, Any], trainer: str, index: int = 0, split: str = "train"
) -> dict[str, Any]:
    """``record`` as one row of ``trainer``'s dataset (module docstring)."""
    check_trainer(trainer)
    family = family_of(record)
    prompt = question_text(record)
    gold = ground_truth(record)
    knobs = {f"knob_{k}": v for k, v in difficulty_knobs(record).items()}
    rid = str(record.get("id"))
    if trainer == "verl":
        return {
            "data_source": family,
            "prompt": [{"role": "user", "content": prompt}],
            "ability": ABILITY,
            "reward_model": {"style": "rule", "ground_truth": gold},
            "extra_info": {"id": rid, "index": index, "split": split, "family": family},
            **knobs,
        }
    return {"prompt": prompt, "label": gold, "id": rid, "data_source": family, **knobs}
