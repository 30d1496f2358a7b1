"""The ``tictoc`` family, declared once: TicToc's tool-call alignment with
elapsed time (``tsolve/families/tictoc/``). It scores trajectories that exist
elsewhere (its data may not be redistributed), so it has no generator and no
per-output scorer: its parts are its commands (``tsolve tictoc ...``) and its
bench cases."""

from __future__ import annotations

from tsolve.contract.family import Command, Family, Lazy

#: The card's citation: the source paper, in full.
CARD: dict[str, str] = {
    "citation": """@inproceedings{tictoc,
  title = {Your {LLM} Agents are Temporally Blind: The Misalignment Between Tool Use
           Decisions and Human Time Perception},
  author = {Cheng, Yize and Soltani Moakhar, Arshia and Fan, Chenrui and Hosseini, Parsa
            and Faghih, Kazem and Sodagar, Zahra and Wang, Wenxiao and Feizi, Soheil},
  booktitle = {Findings of the Association for Computational Linguistics: ACL 2026},
  year = {2026},
  eprint = {2510.23853},
  archivePrefix = {arXiv},
  url = {https://aclanthology.org/2026.findings-acl.1848/}
}""",
}

FAMILY = Family(
    name="tictoc",
    description="TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps)",
    version="1",
    inspect_tasks={"tictoc": Lazy("tsolve.families.tictoc.inspect_task:tictoc")},
    row_hint="these are TicToc items; use tsolve tictoc score / tsolve tictoc audit",
    bench=Lazy("tsolve.families.tictoc.bench:bench_cases"),
    card=CARD,
    cli=Lazy("tsolve.families.tictoc.cli:register"),
    scaling_surfaces=Lazy("tsolve.families.tictoc.scaling:scaling_surfaces"),
    paper_tables=Lazy("tsolve.families.tictoc.paper_tables:TABLES"),
    fuzz_surfaces={"tictoc-detect": Lazy("tsolve.families.tictoc.fuzz:detect_case")},
    commands=(
        Command(
            "tictoc",
            "TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps, baselines).",
            True,
        ),
    ),
)
