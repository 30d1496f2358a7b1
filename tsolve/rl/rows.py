"""One record as a row of each trainer's dataset.

* ``verl``: ``data_source`` (the family), ``prompt`` (chat messages),
  ``ability``, ``reward_model`` (``style`` rule, ``ground_truth``) and
  ``extra_info`` (the record's ``id``, its row index, the split and its family),
  as verl's own example datasets (GSM8K) lay them out;
* ``trl`` and ``openrlhf``: ``prompt`` (text, or chat messages with
  ``prompt="chat"``), ``label`` (the ground truth), ``id`` and ``data_source``
  (OpenRLHF's rows also ``datasource``, the column its evaluation groups by).

Chat messages are ``[{"role": "user", "content": PROMPT}]``, after a
``{"role": "system", "content": SYSTEM}`` when a system prompt is given: TRL's
conversational format (GRPOTrainer applies the model's chat template), what
OpenRLHF's ``--data.apply_chat_template`` reads and the only prompt verl reads.

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
from tsolve.records.validation import shown
from tsolve.rl.gold import ground_truth
from tsolve.verifiers.gold_answers import question_text

TRAINERS = ("trl", "verl", "openrlhf")
PROMPTS = ("text", "chat")
ABILITY = "temporal-reasoning"


def check_trainer(trainer: object) -> str:
    """``trainer`` if it is one of :data:`TRAINERS`, else a one-line error."""
    if trainer not in TRAINERS:
        raise TsolveError(f"trainer: expected one of {', '.join(TRAINERS)}, got {trainer!r}")
    return str(trainer)


def check_prompt(
    trainer: str, prompt: object = None, system: object = None
) -> tuple[str, str | None]:
    """``(prompt style, system prompt)`` for ``trainer``: ``prompt`` is
    ``"text"`` or ``"chat"`` (default: chat for verl, text otherwise); a
    system prompt needs chat. Anything else is a one-line error."""
    check_trainer(trainer)
    style = prompt if prompt is not None else "chat" if trainer == "verl" else "text"
    if style not in PROMPTS:
        raise TsolveError(f"prompt: expected one of {', '.join(PROMPTS)}, got {shown(style)}")
    if trainer == "verl" and style != "chat":
        raise TsolveError("prompt: verl reads chat messages only (give --prompt chat)")
    if system is not None and (not isinstance(system, str) or not system.strip()):
        raise TsolveError(f"system: expected a non-empty system prompt, got {shown(system)}")
    if system is not None and style != "chat":
        raise TsolveError("system: a system prompt needs chat prompts (give --prompt chat)")
    return str(style), system


def chat_messages(text: str, system: str | None = None) -> list[dict[str, str]]:
    """``text`` as chat messages: the user's, after the system prompt if any."""
    head = [{"role": "system", "content": system}] if system is not None else []
    return [*head, {"role": "user", "content": text}]


def trainer_row(
    record: dict[str, Any],
    trainer: str,
    index: int = 0,
    split: str = "train",
    prompt: str | None = None,
    system: str | None = None,
) -> dict[str, Any]:
    """``record`` as one row of ``trainer``'s dataset (module docstring);
    ``prompt`` and ``system`` as :func:`check_prompt` takes them."""
    style, system = check_prompt(trainer, prompt, system)
    family = family_of(record)
    text = question_text(record)
    shown_prompt: str | list[dict[str, str]] = (
        chat_messages(text, system) if style == "chat" else text
    )
    gold = ground_truth(record)
    knobs = {f"knob_{k}": v for k, v in difficulty_knobs(record).items()}
    rid = str(record.get("id"))
    if trainer == "verl":
        return {
            "data_source": family,
            "prompt": shown_prompt,
            "ability": ABILITY,
            "reward_model": {"style": "rule", "ground_truth": gold},
            "extra_info": {"id": rid, "index": index, "split": split, "family": family},
            **knobs,
        }
    row = {"prompt": shown_prompt, "label": gold, "id": rid, "data_source": family}
    if trainer == "openrlhf":
        row["datasource"] = family  # the column OpenRLHF groups its eval metrics by
    return {**row, **knobs}
