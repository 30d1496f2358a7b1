"""A time puzzle's prompt: the paper's instructions around its numbered facts."""

from __future__ import annotations

from tsolve.encodings.facts import Fact, Style

PROMPT_TEMPLATE = """\
From the time-related constraints below, determine all valid date(s) (if any) that satisfy them. \
Depending on the conditions, the result may be zero, one, or multiple dates. Unless otherwise \
stated, interpret all constraints using the Gregorian calendar.

Note: Seasons are defined as:
- Winter: December, January, February
- Spring: March, April, May
- Summer: June, July, August
- Autumn: September, October, November

The constraints are as follows:

{constraints}

Carefully review the constraints and reason step-by-step to identify all valid date(s). After \
thorough consideration, end your response on a new line with "MY ANSWER: " followed by the valid \
date(s) in the format "YYYY-MM-DD". If there are multiple valid dates, list them separated by \
commas. If no valid date exists, respond with "MY ANSWER: None"."""


def render_prompt(facts: list[Fact], style: Style) -> str:
    lines = "\n".join(f"{i}. {f.render(style)}" for i, f in enumerate(facts, 1))
    return PROMPT_TEMPLATE.format(constraints=lines)
