"""The ``tempo`` family, declared once: TEMPO's temporal retrieval metrics,
computed from time scopes (``tsolve/families/tempo/``). It scores runs that exist
elsewhere, so it has no generator and no per-output scorer: its parts are its
commands (``tsolve tempo score/tag``) and its bench cases."""

from __future__ import annotations

from tsolve.contract.family import Command, Family, Lazy

#: The card's citation: the source paper, in full.
CARD: dict[str, str] = {
    "citation": """@misc{tempo,
  title = {{TEMPO}: A Realistic Multi-Domain Benchmark for Temporal
           Reasoning-Intensive Retrieval},
  author = {Abdallah, Abdelrahman and Ali, Mohammed and Abdul-Mageed, Muhammad
            and Jatowt, Adam},
  year = {2026},
  eprint = {2601.09523},
  archivePrefix = {arXiv},
  url = {https://arxiv.org/abs/2601.09523}
}""",
}

FAMILY = Family(
    name="tempo",
    description="TEMPO temporal retrieval metrics from time scopes (TP, TR, TC, NDCG|FC)",
    version="1",
    bench=Lazy("tsolve.families.tempo.bench:bench_cases"),
    card=CARD,
    cli=Lazy("tsolve.families.tempo.cli:register"),
    scaling_surfaces=Lazy("tsolve.families.tempo.scaling:scaling_surfaces"),
    fuzz_surfaces={"tempo-tag": Lazy("tsolve.families.tempo.fuzz:tag_case")},
    commands=(
        Command(
            "tempo",
            "TEMPO temporal retrieval metrics from time scopes (TP, TR, TC, NDCG|FC); the tagger.",
            True,
        ),
    ),
)
