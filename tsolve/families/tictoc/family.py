"""The ``tictoc`` family, declared once: TicToc's tool-call alignment with
elapsed time (``tsolve/families/tictoc/``). It scores trajectories that exist
elsewhere (its data may not be redistributed), so it has no generator and no
per-output scorer: its parts are its commands (``tsolve tictoc ...``) and its
bench cases."""

from __future__ import annotations

from tsolve.contract.family import Family, Lazy

FAMILY = Family(
    name="tictoc",
    description="TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps)",
    version="1",
    inspect_tasks={"tictoc": Lazy("tsolve.families.tictoc.inspect_task:tictoc")},
    row_hint="these are TicToc items; use tsolve tictoc score / tsolve tictoc audit",
    bench=Lazy("tsolve.families.tictoc.bench:bench_cases"),
    cli=Lazy("tsolve.cli.tictoc_commands:register"),
)
