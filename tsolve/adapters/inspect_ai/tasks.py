"""One Inspect task per tsolve family that generates records.

:func:`family_task` builds the task: the dataset (generated, or read from a
file), the paper's prompt as a single user turn, the model's one answer
(``generate()``), and :func:`tsolve.adapters.inspect_ai.scorer.tsolve_scorer`.
:func:`task_functions` turns every generating family in the registry
(:func:`tsolve.families.all_families`, plug-in families included) into a
registered ``@task`` named after the family with ``_`` for ``-``, which is how
``inspect eval tsolve/time_puzzles`` finds them (:mod:`tsolve.adapters.inspect_ai._registry`).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from tsolve.adapters.inspect_ai.conditions import (
    Condition,
    condition_solver,
    parse_condition,
    with_context,
)
from tsolve.adapters.inspect_ai.dataset import (
    STYLES,
    file_samples,
    generated_records,
    records_dataset,
    styled_record,
)
from tsolve.adapters.inspect_ai.prompts import record_prompt
from tsolve.adapters.inspect_ai.scorer import tsolve_scorer
from tsolve.adapters.inspect_ai.tools import say_when_display_is_off
from tsolve.contract import Family, all_families, get_family
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

#: Records a task generates when not told otherwise (``-T count=N``).
DEFAULT_COUNT = 100


def family_task(
    family: str,
    *,
    seed: int | None = None,
    count: int | None = None,
    file: str | Path | None = None,
    config: str | Path | None = None,
    tools: str | None = None,
    context: str | None = None,
    max_turns: int | None = None,
    sandbox: str | None = None,
    **options: Any,
) -> Task:
    """The Inspect task for ``family``.

    ``tools``, ``context``, ``max_turns`` and ``sandbox`` choose the
    experimental condition (:mod:`tsolve.adapters.inspect_ai.conditions`); the default is
    the paper's no-tool run, one ``generate()``.

    Without ``file``: records ``0..count-1`` of run ``seed`` (default 0 and
    :data:`DEFAULT_COUNT`) with the family's generator ``options`` (and/or a
    ``config`` JSON file of them), exactly as ``tsolve dataset`` writes them.
    With ``file``: the records in that JSON or JSONL file; ``seed``, ``count``
    and generator options are then an error, not silently ignored (Inspect's
    ``--limit`` takes the first N samples), except ``style`` for a family
    that has it: each record is shown in that style, its stored prompt for it
    verbatim (:func:`~tsolve.adapters.inspect_ai.dataset.styled_record`: a
    record imported from the Time Puzzles release has both), and a record
    without one is a bad row. Bad rows of the file are skipped,
    each named on stderr and counted in the task's ``skipped_rows`` metadata
    (:func:`tsolve.adapters.inspect_ai.dataset.file_samples`)."""
    fam = get_family(family, need="score")
    condition = parse_condition(tools, context, max_turns, sandbox)
    if file is not None:
        style = _file_style(fam, options.pop("style", None))
        given = {"seed": seed, "count": count, "config": config, **options}
        names = ", ".join(name for name, value in given.items() if value is not None)
        if names:
            raise TsolveError(
                f"{names}: options for generating records; they do not apply to a file of records"
            )
        prepare = functools.partial(_show, condition=condition, style=style)
        samples, bad = file_samples(file, fam.name, prepare)
        dataset = MemoryDataset(samples, name=fam.name)
        source: dict[str, Any] = {"file": str(file), "skipped_rows": len(bad)}
        if style is not None:
            source["style"] = style
    else:
        seed = 0 if seed is None else seed
        count = DEFAULT_COUNT if count is None else count
        records = generated_records(
            fam.name, seed=seed, count=count, config=config, options=options
        )
        dataset = records_dataset(records, name=fam.name)
        for sample in dataset:
            _show(sample, condition)
        source = {"seed": seed, "count": count, "options": options}
    return Task(
        # The name `inspect eval` knows it by, also when built here directly.
        name=f"tsolve/{task_name(fam)}",
        dataset=dataset,
        solver=condition_solver(condition),
        scorer=tsolve_scorer(),
        sandbox=condition.sandbox_spec,
        metadata={
            "tsolve_family": fam.name,
            "tsolve_version": fam.version_text(),
            "condition": condition.to_json(),
            **source,
        },
    )


def _file_style(fam: Family, style: Any) -> str | None:
    """The one style a file's records are shown in (``-T style=``), if given:
    only for a family whose records have styles."""
    if style is None:
        return None
    if "style" not in fam.options:
        raise TsolveError(
            "style: an option for generating records; it does not apply to a file of records"
        )
    if style not in STYLES:
        raise TsolveError(
            f"style: a file's records are shown in one style, {' or '.join(STYLES)}; got {style!r}"
        )
    return str(style)


def _show(sample: Sample, condition: Condition, style: str | None = None) -> None:
    """The sample as shown under ``condition`` and ``style``: the record's
    prompt in that style (:func:`styled_record`) with the condition's
    context, and the condition in its metadata (``tsolve report`` reads it)."""
    assert sample.metadata is not None
    # what sits beside the prompt is shown in the asked style; the whole
    # record (its gold fields joined back) is what the context is built from
    sample.metadata["record"] = styled_record(sample.metadata["record"], style)
    record = record_in(sample.metadata)
    assert record is not None
    prompt = record_prompt(record) if style is not None else sample.input
    assert isinstance(prompt, str)
    sample.input = with_context(prompt, record, condition)
    sample.metadata["condition"] = condition.to_json()


def task_name(fam: Family) -> str:
    """A family's task name: an identifier (``time-puzzles`` -> ``time_puzzles``)."""
    return fam.name.replace("-", "_")


def task_functions() -> dict[str, Callable[..., Task]]:
    """A registered ``@task`` function per generating family, by task name."""
    return {task_name(fam): _task_function(fam) for fam in all_families() if _generates(fam)}


def _generates(fam: Family) -> bool:
    return fam.generate is not None and fam.score is not None and fam.available()


def task_arg(value: Any) -> Any:
    """A family option as ``inspect eval -T key=value`` delivers it, back to the
    text the option parsers take: Inspect reads each value as YAML and splits
    plain text on commas, so ``-T domain_start=2000-01-01`` arrives as a date
    and ``-T solutions=1,3,5`` as ``["1", "3", "5"]``."""
    if isinstance(value, dt.date):  # datetime is a date too
        return value.isoformat()
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return value


def _one_line(exc: TsolveError) -> Exception:
    """A bad task option or record as the error Inspect's command line prints as
    one line, without a traceback (``PrerequisiteError``; a private class of
    Inspect's, hence the fallback to the error itself). Under ``--display
    none`` Inspect prints nothing, so it is said on stderr here."""
    say_when_display_is_off(f"tsolve: {exc}")
    try:
        from inspect_ai._util.error import PrerequisiteError
    except ImportError:  # pragma: no cover - an Inspect that moved it
        return exc
    return PrerequisiteError(f"tsolve: {exc}")


def _task_function(fam: Family) -> Callable[..., Task]:
    name = task_name(fam)

    def run(
        seed: int | None = None,
        count: int | None = None,
        file: str | None = None,
        config: str | None = None,
        tools: str | None = None,
        context: str | None = None,
        max_turns: int | None = None,
        sandbox: str | None = None,
        **options: Any,
    ) -> Task:
        try:
            return family_task(
                fam.name, seed=seed, count=count, file=file, config=config, tools=tools,
                context=context, max_turns=max_turns, sandbox=sandbox, **options,
            )  # fmt: skip
        except TsolveError as exc:
            raise _one_line(exc) from None

    run.__name__ = run.__qualname__ = name
    run.__doc__ = (
        f"{fam.description or fam.name}: tsolve's {fam.name} records, scored by tsolve's "
        f"verifier. Options: seed, count, file, config, tools, context, max_turns, sandbox, "
        f"and the family's generator options ({', '.join(sorted(fam.options)) or 'none'})."
    )
    registered: Callable[..., Task] = task(name=name)(run)
    return _with_text_args(registered)


def _with_text_args(registered: Callable[..., Task]) -> Callable[..., Task]:
    """The registered task, called with its ``-T`` values turned back into text
    (:func:`task_arg`) *before* Inspect records them.

    Inspect logs a task's arguments as they reached its registered function and
    calls that function again with them for ``inspect eval-retry``; a date
    (``-T domain_start=2000-01-01``) would be logged as the word ``'date'`` and
    the retry would fail. So the name is registered to a function that converts
    first and then calls the task, and the log holds ``'2000-01-01'``."""
    try:
        from inspect_ai._util.registry import registry_add, registry_info
    except ImportError:  # pragma: no cover - an Inspect that moved it
        return registered

    @functools.wraps(registered)
    def entry(*args: Any, **kwargs: Any) -> Task:
        return registered(*args, **{key: task_arg(value) for key, value in kwargs.items()})

    registry_add(entry, registry_info(registered))
    return entry
