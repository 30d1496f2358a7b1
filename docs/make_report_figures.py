"""Regenerate the report figures in docs/img/report_*.png (docs/experiments.md,
"Each paper's figures and tables") from small offline Inspect logs.

Run from the repository root with the inspect and plot extras installed:

    python docs/make_report_figures.py

The models are mocks whose right and wrong answers are chosen per record by
a hash of its id, so the numbers say nothing about any model: the point is
the figures' layout. Beside them run tsolve's scripted solver (the gold, with
the calendar tools) and a refusing run. No network, no model, a few minutes.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.contract import get_family
from tsolve.families.tictoc.inspect_task import tictoc_task
from tsolve.verifiers.gold_answers import gold_output

IMG = Path(__file__).parent / "img"
TICTOC = Path(__file__).parent.parent / "tests" / "fixtures" / "tictoc_invented.json"
FIGURES = ("time-puzzles", "span-year", "span-direction", "span-type-format", "unseentimeqa",
           "tictoc")  # fmt: skip


def roll(text: str) -> int:
    """A number in 0..99 fixed by ``text``: the mock's dice."""
    return int(hashlib.sha1(text.encode()).hexdigest(), 16) % 100


def said(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=5, total_tokens=6)  # no tokenizer download
    return out


def write(records: list[dict[str, Any]], path: Path) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def run(task: Any, logs: Path, answer: Callable[..., ModelOutput] | None = None, **kw: Any) -> None:
    model = get_model("mockllm/model", custom_outputs=answer) if answer else "mockllm/model"
    inspect_eval(task, model=model, log_dir=str(logs), display="none", **kw)


def time_puzzles(work: Path, logs: Path) -> None:
    """Implicit and explicit twins; the mock gives every date more often on
    explicit puzzles and on small M, sometimes only the first date."""
    for style in ("implicit", "explicit"):
        made = family_task("time-puzzles", seed=3, count=18, solutions="1-3", style=style)
        path = write([s.metadata["record"] for s in made.dataset], work / f"tp_{style}.jsonl")
        task = family_task("time-puzzles", file=str(path))
        by = {s.input: s.metadata["record"] for s in task.dataset}
        bonus = 40 if style == "explicit" else 0

        def answer(messages: Any, *rest: Any, by: Any = by, bonus: int = bonus) -> ModelOutput:
            rec = by[messages[-1].text]
            dice = roll(rec["id"])
            if dice < 50 - 15 * len(rec["answers"]) + bonus:
                return said("MY ANSWER: " + ", ".join(rec["answers"]))
            return said("MY ANSWER: " + rec["answers"][0] if dice < 85 else "no idea")

        run(task, logs, answer)
        if style == "implicit":
            tools = family_task("time-puzzles", file=str(path), tools="calendar")
            run(tools, logs, solver=scripted())
            run(task, logs, solver=scripted(answer="refuse"), tags=["refuse"])


def span(work: Path, logs: Path) -> None:
    """Reference dates in every year 1960-2050; the mock is worse on future
    years, on conversions into the Gregorian calendar and on content questions."""
    made = family_task("span", seed=5, count=240, date_range="1960-01-01..2050-12-31",
                       balanced=True)  # fmt: skip
    path = write([s.metadata["record"] for s in made.dataset], work / "span.jsonl")
    task = family_task("span", file=str(path))
    by = {s.input: s.metadata["record"] for s in task.dataset}
    fam = get_family("span")

    def answer(messages: Any, *rest: Any) -> ModelOutput:
        rec = by[messages[-1].text]
        year = int(rec["params"]["reference_date"]["gregorian"][:4])
        chance = 80 - max(0, year - 2020) * 1.5
        chance -= 15 if rec["direction"].endswith("->gregorian") else 0
        chance -= 10 if rec["format"] == "content" else 0
        return said(gold_output(rec, fam) if roll(rec["id"]) < chance else "no idea")

    run(task, logs, answer)
    run(family_task("span", file=str(path), tools="calendar"), logs, solver=scripted())


def logistics(work: Path, logs: Path) -> None:
    """The paper's four difficulty levels x three question types; the mock
    is worse on harder levels."""
    records: list[dict[str, Any]] = []
    for level, execution in (("easy", "serial"), ("medium", "serial"), ("hard", "serial"),
                             ("hard", "parallel")):  # fmt: skip
        for question in ("static", "relative", "hypothetical"):
            made = family_task("logistics", seed=7, count=3, difficulty=level,
                               execution=execution, question=question)  # fmt: skip
            records.extend(s.metadata["record"] for s in made.dataset)
    task = family_task("logistics", file=str(write(records, work / "logistics.jsonl")))
    by = {s.input: s.metadata["record"] for s in task.dataset}
    fam = get_family("logistics")
    chance = {("easy", "serial"): 90, ("medium", "serial"): 70, ("hard", "serial"): 55,
              ("hard", "parallel"): 30}  # fmt: skip

    def answer(messages: Any, *rest: Any) -> ModelOutput:
        rec = by[messages[-1].text]
        right = roll(rec["id"]) < chance[(rec["data_split"], rec["execution"])]
        return said(gold_output(rec, fam) if right else "Answer: never")

    run(task, logs, answer)


def tictoc(logs: Path) -> None:
    """The invented TicToc fixture; the mock calls a tool half the time."""

    def answer(messages: Any, tools: Any, *rest: Any) -> ModelOutput:
        if roll(messages[-1].text + str(len(messages))) < 50:
            call = ToolCall(id="c", function=tools[0].name, arguments={})
            out = said("")
            out.choices = [ChatCompletionChoice(message=ChatMessageAssistant(
                content="", tool_calls=[call]))]  # fmt: skip
            return out
        return said("It is as before.")

    run(tictoc_task(TICTOC), logs, answer)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        logs = work / "logs"
        time_puzzles(work, logs)
        span(work, logs)
        logistics(work, logs)
        tictoc(logs)
        out = work / "fig.png"
        subprocess.run([sys.executable, "-m", "tsolve", "report", str(logs), "--plot", str(out),
                        "--figure", "all", "--format", "json"],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        for name in FIGURES:
            drawn = work / f"fig-{name}.png"
            target = IMG / f"report_{name.replace('-', '_')}.png"
            target.write_bytes(drawn.read_bytes())
            print("wrote", target)


if __name__ == "__main__":
    main()
