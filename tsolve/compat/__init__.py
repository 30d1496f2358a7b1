"""Old module paths, kept importable for one release (0.2) after the layout
changed to engine layers with one folder per family, then removed.

Every module that moved is listed in :data:`OLD_PATHS` (old -> new). Importing
an old path imports the new module, binds it under the old name too, and warns
with a :class:`DeprecationWarning` that names the new path. No module is
copied and nothing is re-exported by hand, so the old and the new name are the
same object (``tsolve.solver.puzzle is tsolve.families.time_puzzles.solve``).

Paths that still exist with a new shape re-export their old names themselves:
``tsolve.records`` (a package now), ``tsolve.families.<name>`` (a folder whose
``__init__`` exports ``FAMILY``) and ``tsolve.families.tempo`` / ``tictoc``.
``docs/architecture.md`` lists the deprecated paths for people.
"""

from __future__ import annotations

import importlib
import importlib.machinery
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

OLD_PATHS: dict[str, str] = {
    "tsolve.agent_tools": "tsolve.adapters.agent_tools",
    "tsolve.audit.logistics": "tsolve.families.logistics.audit",
    "tsolve.audit.relational": "tsolve.families.relational_puzzles.audit",
    "tsolve.audit.span": "tsolve.families.span.audit",
    "tsolve.audit.time_puzzles": "tsolve.families.time_puzzles.audit",
    "tsolve.backend_names": "tsolve.solver.backend_names",
    "tsolve.baselines": "tsolve.verifiers.baselines",
    "tsolve.bench.logistics": "tsolve.families.logistics.bench",
    "tsolve.bench.mask_peer": "tsolve.families.time_puzzles.mask_peer",
    "tsolve.bench.span": "tsolve.families.span.bench",
    "tsolve.bench.time_puzzles": "tsolve.families.time_puzzles.bench",
    "tsolve.cli.logistics_commands": "tsolve.families.logistics.cli",
    "tsolve.cli.puzzle_commands": "tsolve.families.time_puzzles.cli",
    "tsolve.cli.puzzle_plots": "tsolve.families.time_puzzles.cli_plots",
    "tsolve.cli.relational_commands": "tsolve.families.relational_puzzles.cli",
    "tsolve.cli.span_commands": "tsolve.families.span.cli",
    "tsolve.cli.tempo_commands": "tsolve.families.tempo.cli",
    "tsolve.cli.tictoc_commands": "tsolve.families.tictoc.cli",
    "tsolve.columns": "tsolve.records.columns",
    "tsolve.datasets.fingerprints": "tsolve.generators.fingerprints",
    "tsolve.encodings.event_graph": "tsolve.families.logistics.event_graph",
    "tsolve.encodings.logistics_clock": "tsolve.families.logistics.clock",
    "tsolve.encodings.logistics_model": "tsolve.families.logistics.model",
    "tsolve.encodings.logistics_rules": "tsolve.families.logistics.rules",
    "tsolve.encodings.logistics_templates": "tsolve.families.logistics.sentence_templates",
    "tsolve.encodings.relational": "tsolve.families.relational_puzzles.encoding",
    "tsolve.encodings.span_question": "tsolve.families.span.encoding",
    "tsolve.encodings.timeline": "tsolve.families.logistics.timeline",
    "tsolve.families.contract": "tsolve.contract.family",
    "tsolve.families.plugin": "tsolve.contract.plugin",
    "tsolve.families.registry": "tsolve.contract.registry",
    "tsolve.gc_tuning": "tsolve.engines.gc_tuning",
    "tsolve.generators.difficulty": "tsolve.families.time_puzzles.difficulty",
    "tsolve.generators.logistics": "tsolve.families.logistics.generate",
    "tsolve.generators.logistics.generate": "tsolve.families.logistics.generate",
    "tsolve.generators.logistics.invariants": "tsolve.families.logistics.invariants",
    "tsolve.generators.logistics.planner": "tsolve.families.logistics.generate.planner",
    "tsolve.generators.logistics.prompt": "tsolve.families.logistics.generate.prompt",
    "tsolve.generators.logistics.templates": "tsolve.families.logistics.generate.wording",
    "tsolve.generators.relational_invariants": "tsolve.families.relational_puzzles.invariants",
    "tsolve.generators.relational_puzzles": "tsolve.families.relational_puzzles.generate",
    "tsolve.generators.span": "tsolve.families.span.generate",
    "tsolve.generators.span_invariants": "tsolve.families.span.invariants",
    "tsolve.generators.time_puzzle_invariants": "tsolve.families.time_puzzles.invariants",
    "tsolve.generators.time_puzzles": "tsolve.families.time_puzzles.generate",
    "tsolve.hf": "tsolve.records.hf",
    "tsolve.inspect": "tsolve.adapters.inspect_ai",
    "tsolve.inspect._registry": "tsolve.adapters.inspect_ai._registry",
    "tsolve.inspect.dataset": "tsolve.adapters.inspect_ai.dataset",
    "tsolve.inspect.prompts": "tsolve.adapters.inspect_ai.prompts",
    "tsolve.inspect.scorer": "tsolve.adapters.inspect_ai.scorer",
    "tsolve.inspect.tasks": "tsolve.adapters.inspect_ai.tasks",
    "tsolve.mcp_server": "tsolve.adapters.mcp_server",
    "tsolve.mcp_stdio": "tsolve.adapters.mcp_stdio",
    "tsolve.options": "tsolve.generators.options",
    "tsolve.parallel": "tsolve.engines.pool",
    "tsolve.parsing.logistics": "tsolve.families.logistics.parse",
    "tsolve.parsing.logistics.event_parts": "tsolve.families.logistics.parse.event_parts",
    "tsolve.parsing.logistics.event_templates": "tsolve.families.logistics.parse.template_reader",
    "tsolve.parsing.logistics.event_text": "tsolve.families.logistics.parse.event_text",
    "tsolve.parsing.logistics.events": "tsolve.families.logistics.parse.events",
    "tsolve.parsing.logistics.item": "tsolve.families.logistics.parse.item",
    "tsolve.parsing.logistics.lexicon": "tsolve.families.logistics.parse.lexicon",
    "tsolve.parsing.logistics.question": "tsolve.families.logistics.parse.question",
    "tsolve.parsing.logistics.world": "tsolve.families.logistics.parse.world",
    "tsolve.parsing.puzzles": "tsolve.families.time_puzzles.parse",
    "tsolve.parsing.puzzles.anchors": "tsolve.families.time_puzzles.parse.anchors",
    "tsolve.parsing.puzzles.instructions": "tsolve.families.time_puzzles.parse.instructions",
    "tsolve.parsing.puzzles.paraphrases": "tsolve.families.time_puzzles.parse.paraphrases",
    "tsolve.parsing.puzzles.reader": "tsolve.families.time_puzzles.parse.reader",
    "tsolve.parsing.puzzles.rendered": "tsolve.families.time_puzzles.parse.rendered",
    "tsolve.parsing.puzzles.sentences": "tsolve.families.time_puzzles.parse.sentences",
    "tsolve.plots.calendar_strip": "tsolve.families.time_puzzles.plot",
    "tsolve.plots.gantt": "tsolve.families.logistics.plot",
    "tsolve.plots.puzzles": "tsolve.families.time_puzzles.cli_plots",
    "tsolve.plots.relation_graph": "tsolve.families.relational_puzzles.plot",
    "tsolve.row_shapes": "tsolve.verifiers.row_shapes",
    "tsolve.seeding": "tsolve.generators.seeding",
    "tsolve.solver.batch": "tsolve.families.time_puzzles.solve_records",
    "tsolve.solver.logistics": "tsolve.families.logistics.solve",
    "tsolve.solver.logistics_answer": "tsolve.families.logistics.answer_items",
    "tsolve.solver.logistics_readings": "tsolve.families.logistics.readings",
    "tsolve.solver.logistics_schedule": "tsolve.families.logistics.schedule",
    "tsolve.solver.puzzle": "tsolve.families.time_puzzles.solve",
    "tsolve.solver.relational": "tsolve.families.relational_puzzles.solve",
    "tsolve.solver.schedule_cpsat": "tsolve.families.logistics.schedule_cpsat",
    "tsolve.solver.text_puzzles": "tsolve.families.time_puzzles.solve_text",
    "tsolve.span_baseline": "tsolve.families.span.polar_baseline",
    "tsolve.stress.paper_battery": "tsolve.families.time_puzzles.paper_battery",
    "tsolve.stress.span_probes": "tsolve.families.span.yes_no_probes",
    "tsolve.stress.logistics_probes": "tsolve.families.logistics.tracking_probes",
    "tsolve.tempo": "tsolve.families.tempo",
    "tsolve.tempo.bench": "tsolve.families.tempo.bench",
    "tsolve.tempo.inputs": "tsolve.families.tempo.inputs",
    "tsolve.tempo.intent": "tsolve.families.tempo.intent",
    "tsolve.tempo.intervals": "tsolve.families.tempo.intervals",
    "tsolve.tempo.metrics": "tsolve.families.tempo.metrics",
    "tsolve.tempo.scoring": "tsolve.families.tempo.scoring",
    "tsolve.tempo.tagger": "tsolve.families.tempo.tagger",
    "tsolve.text_source": "tsolve.records.text_source",
    "tsolve.adapters.inspect_ai.tictoc_task": "tsolve.families.tictoc.inspect_task",
    "tsolve.tictoc": "tsolve.families.tictoc",
    "tsolve.tictoc.audit": "tsolve.families.tictoc.audit",
    "tsolve.tictoc.baseline": "tsolve.families.tictoc.baseline",
    "tsolve.tictoc.bench": "tsolve.families.tictoc.bench",
    "tsolve.tictoc.data": "tsolve.families.tictoc.data",
    "tsolve.tictoc.detect": "tsolve.families.tictoc.detect",
    "tsolve.tictoc.metrics": "tsolve.families.tictoc.metrics",
    "tsolve.tictoc.score": "tsolve.families.tictoc.scoring",
    "tsolve.tictoc.sensitivity": "tsolve.families.tictoc.sensitivity",
    "tsolve.tictoc.timestamp": "tsolve.families.tictoc.timestamp",
    "tsolve.validation": "tsolve.records.validation",
    "tsolve.verifiers.batch": "tsolve.verifiers.legacy_batch",
    "tsolve.verifiers.chunked": "tsolve.verifiers.verify_engine",
    "tsolve.verifiers.item": "tsolve.contract.item",
    "tsolve.verifiers.logistics_answer_scoring": "tsolve.families.logistics.answer_scoring",
    "tsolve.verifiers.logistics_scoring": "tsolve.families.logistics.score",
    "tsolve.verifiers.puzzle_scoring": "tsolve.families.time_puzzles.score",
    "tsolve.verifiers.relational_scoring": "tsolve.families.relational_puzzles.score",
    "tsolve.verifiers.span_scoring": "tsolve.families.span.score",
}


#: Old packages that held nothing but modules that moved (each listed above):
#: importing one gives an empty package, so that its old submodule paths import.
OLD_CONTAINERS: tuple[str, ...] = ("tsolve.parsing",)


# The loaders and the finder follow importlib's protocols by their methods
# alone: subclassing importlib.abc costs every tsolve command ~15 ms of
# imports, start-up that `tsolve --help` cannot spare (docs/startup.md).


class _Container:
    """Loads an old container package as an empty package."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = ModuleType(spec.name, f"{spec.name}: moved away (see tsolve.compat)")
        module.__path__ = []
        return module

    def exec_module(self, module: ModuleType) -> None:
        return None


class _Alias:
    """Loads an old path as the module at its new path."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.real_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; the old path goes in tsolve 0.2",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(self.new)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system set the old spec on the module; give it back its own.
        module.__spec__ = self.real_spec


class OldPathFinder:
    """The finder :func:`install` puts on ``sys.meta_path``: it answers only
    for the names in :data:`OLD_PATHS`, so every other import is untouched."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in OLD_CONTAINERS:
            return importlib.machinery.ModuleSpec(
                fullname, cast("Loader", _Container()), is_package=True
            )
        new = OLD_PATHS.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", _Alias(new)))


def install() -> None:
    """Put :class:`OldPathFinder` on ``sys.meta_path``, once."""
    if not any(isinstance(f, OldPathFinder) for f in sys.meta_path):
        # First, so that an editable install of another checkout cannot answer
        # for an old path with its own stale file.
        sys.meta_path.insert(0, OldPathFinder())
