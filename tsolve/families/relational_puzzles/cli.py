"""``tsolve puzzle --events N`` (N ≥ 2): a thin shell over
:func:`tsolve.families.relational_puzzles.generate.generate_relational_puzzles`,
called by the ``puzzle`` command (the time-puzzles family's) by reference."""

from collections.abc import Iterator
from typing import Any

from rich.panel import Panel
from rich.text import Text

from tsolve.cli.output import user_text


def relational_puzzles(
    events: int, solutions: int | tuple[int, ...], count: int, seed: int, start: int,
    facts: int | None, style: str | tuple[str, ...], backend: str, domain_start: str | None,
    domain_end: str | None, max_attempts: int, ask: str,
) -> Iterator[dict[str, Any]]:  # fmt: skip
    """The relational puzzles ``tsolve puzzle --events N`` asks for (options
    checked; ``solutions`` already parsed by the caller's ``--solutions``)."""
    from tsolve.calendars.domain import DateDomain, iso
    from tsolve.families.relational_puzzles.generate import (
        DEFAULT_DOMAIN,
        RelationalConfig,
        generate_relational_puzzles,
    )

    domain = DateDomain.from_dates(
        domain_start or iso(DEFAULT_DOMAIN.start), domain_end or iso(DEFAULT_DOMAIN.end)
    )
    cfg = RelationalConfig(
        events=events, solutions=solutions, facts=facts, style=style,
        backend=backend, domain=domain, ask=ask, max_attempts=min(max_attempts, 20_000),
    )  # fmt: skip
    return generate_relational_puzzles(count, seed, cfg, start)


def print_relational_puzzle(out: Any, rec: dict[str, Any]) -> None:
    """One relational puzzle as a panel, its answer tuples and its event graph."""
    n = rec["solution_count"]
    unit = "tuple" if rec["asked"]["mode"] == "tuples" else "date"
    title = Text.assemble(
        (str(rec["id"]), "bold"), f" · {n} {unit}{'s' if n != 1 else ''} · {rec['style']}"
    )
    out.print(Panel(user_text(rec["prompt"]), title=title, title_align="left", expand=False))
    names = {e["var"]: e["name"] for e in rec["events"]}
    if not rec["answers"]:
        out.print("[bold green]Answers:[/] None")
    for a in rec["answers"]:
        text = a if isinstance(a, str) else "; ".join(
            f"{names[v]} = {d}" for v, d in zip(names, a, strict=True))  # fmt: skip
        out.print(Text.assemble(("Answer: ", "bold green"), text))
    edges = ", ".join(f"{names[e['source']]} → {names[e['target']]} ({e['kind']})"
                      for e in rec["graph"]["edges"])  # fmt: skip
    out.print(Text(f"graph (depth {rec['graph']['depth']}): {edges}", "dim"))
    solver = rec["solver"]
    # With no answer the generator's seed dates are no answer either: naming
    # them would only puzzle the reader (as for single-date puzzles).
    seeds = ("no answer" if not rec["answers"]
             else "hidden seed dates " + ", ".join(rec["generator"]["seed_dates"]))  # fmt: skip
    out.print(Text(f"{seeds} · gold by {solver['backend']} (cap {solver['cap']})\n", "dim"))
