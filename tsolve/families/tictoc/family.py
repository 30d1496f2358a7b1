"""The ``tictoc`` family, declared once: TicToc's tool-call alignment with
elapsed time (``tsolve/families/tictoc/``). It scores trajectories that exist
elsewhere (its data may not be redistributed), so it has no generator and no
per-output scorer: its parts are its commands (``tsolve tictoc ...``) and its
bench cases."""

from __future__ import annotations

from tsolve.contract.family import Command, Family, Lazy

FAMILY = Family(
    name="tictoc",
    description="TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps)",
    version="1",
    bench=Lazy("tsolve.families.tictoc.bench:bench_cases"),
    cli=Lazy("tsolve.families.tictoc.cli:register"),
    fuzz_surfaces={"tictoc-detect": Lazy("tsolve.families.tictoc.fuzz:detect_case")},
    commands=(
        Command(
            "tictoc",
            "TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps, baselines).",
            True,
        ),
    ),
)
