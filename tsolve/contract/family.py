"""What a task family is: one :class:`Family` object, declared once.

Every command that works across families (``dataset``, ``verify``,
``stress``, ``bench``, ``audit``, ``families`` and the CLI itself) reads the
family from this one object and from nowhere else. A family says:

* ``name`` and ``version``: the family's name is also the record's
  ``family`` field and its ``generator.name``; the version is the generator
  version, bumped whenever record ``i`` of a run changes;
* ``options`` / ``build``: the generator options it takes (name -> parser,
  :mod:`tsolve.generators.options`) and how a validated mapping of them becomes the
  generator's config (a plain dict when ``build`` is not given);
* ``generate(seed, index, config) -> record``: record ``index`` of a run must
  be a pure function of ``(seed, index)`` and the config. That is what makes
  multi-process, sharded and resumed datasets byte-identical;
* ``score(record, output, *, diagnose=True) -> ItemScore`` and optionally
  ``diagnose_batch``: how ``tsolve verify`` judges a model's output;
  ``scorers``: other scorers of the same signature by name, which
  ``tsolve verify --scorer NAME`` picks instead (time puzzles: ``paper``, the
  paper's own rules, for reproducing its figures);
* ``answer(record) -> str`` and ``answer_marker``: the record's gold answer as
  the bare text its scorer reads after the marker (``MY ANSWER:``), so that
  ``score(record, marker + " " + answer)`` is a perfect score (the
  reasoning-gym-style facade, :mod:`tsolve.facade`, and the gold baseline of
  ``tsolve predict``, :mod:`tsolve.verifiers.baselines`);
* ``compact_gold(record) -> dict`` and ``score_compact(gold, output) ->
  {metric: value}``: the few plain fields the scorer's metrics need (well
  under a kilobyte, JSON-ready), and the scorer that reads only them, for
  trainers that carry the gold in every row (:mod:`tsolve.rl`). Both or
  neither; the metrics are the scorer's own less the diagnostic ones, equal
  to ``score(record, output)``'s. A family without them ships the whole
  record as its gold (:mod:`tsolve.rl.gold`);
* what the cross-family adapters ask, each with a default, so a family that
  declares none of it still gets every command:

  - ``prompt(record) -> str``: the text a model is shown (Inspect, the
    reasoning-gym facade, lm-eval and the trainer exports; default: the
    record's ``prompt`` field, else its ``question``);
  - ``perturb(record, gold_output) -> str``: a near miss of the gold, for
    ``tsolve predict --baseline perturbed`` and ``--model tsolve/perturbed``
    (default: :func:`tsolve.contract.defaults.perturb`, one value moved;
    whatever the part returns, an output equal to the gold is replaced by
    :func:`tsolve.contract.defaults.never_gold`, so the baseline never
    scores the gold's marks by accident);
  - ``reward_metrics``, ``gameable_metrics`` and ``diagnostic_metrics``:
    the metrics that may be a reward (default: every metric the scorer
    reports, less the other two), the ones a policy that does not reason
    can farm (reported, never a reward; logistics' ``partial``) and the ones
    that count wrong answers of a kind (``alt_reading``): the Inspect
    scorer reports the diagnostic ones as 0 where an item has none
    (:mod:`tsolve.verifiers.rewards`; default: none of either);
  - ``difficulty(record) -> dict``: the knobs that set one record's
    difficulty, read off the record (reasoning-gym's ``metadata.difficulty``;
    default: the record's fields named like the curriculum's knobs);
  - ``curriculum``: generator option -> its levels, easiest first, with
    ``curriculum_notes`` (option -> what it is): reasoning-gym's curriculum
    (default: none, an empty curriculum). Every option in ``options`` (and
    every knob) is a field of the family's reasoning-gym config, made from
    these declarations (:mod:`tsolve.adapters.reasoning_gym_configs`);
  - ``report_columns`` and ``report_breakdowns(record) -> [{field: label}]``:
    the fields every row of the family's ``tsolve report`` table carries
    (``"all"`` where a row does not break down by one) and, per record, the
    extra rows it counts in beside its condition and style row (M, a
    reference year, a two-way cell: :mod:`tsolve.adapters.inspect_ai.report`;
    default: none, one row per condition and style);
  - ``inspect_tasks``: Inspect task name -> ``Lazy`` task function, the
    family's own tasks besides the generated one (TicToc's, whose items are
    not generated), registered as ``tsolve/<name>``; the task's module also
    answers the offline models, the scripted solver and ``tsolve report``
    for its samples (:mod:`tsolve.adapters.inspect_ai.family_tasks`);
  - ``row_hint``: what to do instead, when ``tsolve solve`` is handed this
    family's records and the family has no ``solve`` (one line);
* ``audit(record) -> AuditVerdict``: whether the gold holds under every
  reading (``tsolve audit``);
* ``summarize``, ``invariants`` and ``stress_choices``: dataset summaries and
  the property checks ``tsolve stress`` runs on random settings;
* ``domain_warnings(seed, start, count, config) -> [line, ...]``: when a
  run is larger than the content domain can keep distinct (within the run or
  from other seeds), the one-line warnings ``tsolve dataset`` prints;
* ``fingerprint(record) -> str``: the record's content, independent of its
  id, the order of its facts and its wording style, for ``tsolve dataset
  overlap`` (default: :func:`tsolve.generators.fingerprints.default_fingerprint`);
* ``answer_fingerprint(record) -> str``: what determines the record's
  answer, whatever the candidate, wording or names (``answer_overlap`` in
  ``tsolve dataset overlap``; default: the content fingerprint);
* ``distinct``: whether a dataset run keeps no two records with the same
  answer fingerprint, drawing a repeat again (:mod:`tsolve.datasets.distinct`).
  Default: on for a family that declares its own ``fingerprint`` or
  ``answer_fingerprint`` (it has said what makes two records the same; the
  default fingerprint of a family that has not may call all its records
  alike). Redraws reach the generator through
  :func:`tsolve.generators.seeding.record_rng`, so a family whose generator
  draws its randomness elsewhere sets it off;
* ``bench(size) -> measurements``: its cases for ``tsolve bench``;
* ``cli(app)``: its own command group, when it has one;
* ``card``: the prose of a Hub dataset card (``tsolve dataset --format
  hub``): what the task is, its papers and citation, the readings its gold is
  checked under, known limitations (:mod:`tsolve.datasets.card` lists the keys);
* ``strata``: the generator options ``tsolve dataset --balance`` may balance,
  each with the values it cycles through; a value may be a mapping of the
  options that reach it (``{"difficulty": "easy", "facts": 4}``):
  :mod:`tsolve.datasets.balance`;
* ``shortcut_cells``: the configurations ``tsolve stress --shortcuts`` probes
  one by one, as a mapping (or a function returning one) of cell name to
  generator options (``{"easy/serial/static": {"difficulty": "easy", ...}}``);
  every setting a user can ask for that could open a shortcut should be a
  cell (:mod:`tsolve.stress.shortcut_cells`; default: one cell, the
  adversarial suite's options); ``shortcut_train_options(options)``: the
  options of the runs its probes are fitted on, given a cell's (default: the
  cell's own); a family whose answers are entries of a finite table fits
  them on other entries, so that a probe finds shortcuts, not the table
  (:meth:`tsolve.stress.shortcut_cells.Cell.training`);
* ``commands``: the top-level commands its ``cli`` registers, each a
  :class:`Command` (name, one-line help, whether it is a group), so that
  ``tsolve --help`` lists them without importing the family's command
  module (:mod:`tsolve.cli.command_table`; default: none);
* ``import_cli(group)``: its subcommand of ``tsolve import`` (reading
  another benchmark's release into its records; default: none);
* ``adversarial_item(record, gold) -> (stratum, candidates)``: what a blind
  guesser of ``tsolve stress --adversarial`` may see of a record (its
  stratum, e.g. yes/no or date) and the single answers a hedger could list
  (default: one stratum; every date of the gold's year when the gold is a
  date, else the gold, ``Yes``, ``No``, ``None``, ``0``, ``1`` and the run's
  commonest golds: :func:`tsolve.stress.adversarial.default_item`,
  :func:`~tsolve.stress.adversarial.make_items`);
  ``adversarial_options``: the generator options the suites use (default:
  the family's defaults); ``adversarial_rotate``: an option whose stress
  choices the suites cycle through record by record, so that every stratum
  is in every run (default: none); ``adversarial_scale``: how many times
  ``n`` records a run uses (default 1; SPAN, half yes/no, takes 2);
* ``honest_gold(record) -> Gold`` and ``honest_styles``: the record's gold as
  the honest styles render it, and the family's own styles beside the
  marker wrappers every family gets (:mod:`tsolve.stress.honest`; default:
  the gold text of ``answer`` after ``answer_marker``, and no styles of its
  own);
* ``shortcut_probes``: references to tuples of
  :class:`tsolve.stress.shortcut_probes.Probe`, the family's own shortcut
  policies for ``tsolve stress --shortcuts`` (default: the generic probes,
  :func:`tsolve.stress.shortcut_probes.generic_probes`: the commonest gold,
  a random gold, a lookup by prompt, an n-gram classifier);
  ``shortcut_file_probes(records, train)``: rules that read a whole file in
  order (a label from a neighbour's), reported apart (default: none);
* ``explain(detail, record) -> [line, ...]``: its audit proofs as numbered
  lines a person can check, each quoting the item's text
  (``tsolve audit --explain``; default: the proof's summary and reasons,
  :func:`tsolve.audit.explain.fallback_lines`);
* ``fuzz_surfaces``: its own entry points beyond generating and scoring, for
  ``tsolve stress all --fuzz --budget N``: surface name -> ``case(rng) ->
  (label, call)``, where ``call()`` returns strict JSON or raises
  ``TsolveError`` (:mod:`tsolve.stress.fuzz_surfaces`; default: none);
* ``exports``: public name -> ``Lazy`` reference, the names of a built-in
  family's code the ``tsolve`` package serves as its own (``tsolve.NAME``,
  each listed in ``tsolve.__all__``; the time puzzles' ``generate_puzzle``
  and ``solve``), resolved on first use (default: none; a plug-in's names
  stay in its own package);
* ``agent_tools``: references to its own tools for agents, served by
  ``tsolve mcp`` after the calendar tools and before the scoring, claim and
  knowledge ones (:mod:`tsolve.adapters.mcp_server`): each a function of
  JSON values returning a JSON-ready dict, its parameters annotated for the
  tool's input schema (``Annotated`` + pydantic ``Field``) and its docstring
  the tool's description, raising ``TsolveError`` for bad input; its name is
  the tool's name, which must be new (default: none);
* ``scaling_surfaces() -> (Surface, ...)``: its parsers and scorers for
  ``tsolve stress --scaling``, each grown on text to check its work stays
  linear (:mod:`tsolve.stress.scaling`; default: none);
* ``typed_forms``: ``(which records, dotted path, type)`` of the stored
  forms its audit reads whose type is fixed (``which``: ``any``, ``with
  answers`` or ``FIELD=VALUE``), for the hostile-record campaign, which
  gives each a value of another type (:mod:`tsolve.stress.fuzz_records`;
  default: none);
* ``solve_check(records, check=True, time_limit=...) -> report``: the
  library call behind ``tsolve solve --check`` when the family has that
  command (default: none);
* ``paper_tables``: its papers' own tables, each a
  :class:`tsolve.plots.paper_tables.PaperTable` (name, Inspect task, rows
  builder, text grids), for ``tsolve report --table NAME`` and the figure of
  the same name (default: none);
* ``strategies``: hypothesis strategies of its own generator's configs by
  name, for its property tests (:mod:`tsolve.testing.strategies` serves
  them by name; default: none, :func:`~tsolve.testing.strategies.option_dicts`
  draws any family's options);
* ``recognise(record)``: for benchmark items without a ``family`` field;
* ``fuzz_records(seed)`` and ``rederive(record)``: for ``tsolve stress
  --fuzz``, a few valid records of every shape the family makes (default:
  six records with default options), and the family's own reader of a stored
  record besides its scorer (re-solving a puzzle, answering a logistics
  question), which the campaign throws mutated records at.
* ``solve(record, backend, limit, time_limit) -> dict``: the family's own
  solver of a stored record (``answers``, ``count``, ``status``,
  ``complete``, ``matches``), for ``tsolve solve`` and :func:`tsolve.solve`.
  A family reaches another family's records only through this part
  (:func:`tsolve.contract.registry.record_solver`), never by importing it.

Only ``name`` is required. A family without ``generate`` (TEMPO and TicToc
score data that exists elsewhere) is refused by ``tsolve dataset`` with a
one-line error, and likewise for every other optional part.

Every family, built-in or plug-in, passes the same guards
(:mod:`tsolve.contract.guards`): :meth:`Family.make_record` checks and
stamps each record (``family``, ``generator``), and :meth:`Family.scorer`
takes an ``ItemScore`` or a dict of metrics in [0, 1] from ``score``; any
other result, or a part that fails, is a one-line error naming the family.

Parts are usually :class:`Lazy` references (``"module:attribute"``), so that
declaring a family costs nothing: ``tsolve --help`` does not import a single
generator or solver, and a family whose code is not installed is listed but
refuses to run with a one-line error instead of breaking the others.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tsolve.errors import TsolveError
from tsolve.generators.options import Parser
from tsolve.generators.seeding import redrawing

Record = dict[str, Any]


class Lazy:
    """A ``"package.module:attribute"`` reference, imported on first use.

    Calling it calls the attribute; :meth:`get` returns the attribute itself.
    The import is Python's own module cache, so there is no cache here."""

    __slots__ = ("ref",)

    def __init__(self, ref: str) -> None:
        module, sep, attr = ref.partition(":")
        if not sep or not module or not attr:
            raise ValueError(f"Lazy reference {ref!r} is not 'module:attribute'")
        self.ref = ref

    @property
    def module(self) -> str:
        return self.ref.partition(":")[0]

    def importable(self) -> bool:
        """Is the referenced module installed (found without importing it)?"""
        try:
            return importlib.util.find_spec(self.module) is not None
        except ModuleNotFoundError:  # a parent package is missing
            return False

    def get(self) -> Any:
        obj: Any = importlib.import_module(self.module)
        for part in self.ref.partition(":")[2].split("."):
            obj = getattr(obj, part)
        return obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.get()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.ref!r})"


def resolve(part: Any) -> Any:
    """A family part as the object itself (a :class:`Lazy` is imported)."""
    return part.get() if isinstance(part, Lazy) else part


class Command(NamedTuple):
    """One top-level command a family's ``cli`` registers: its name, the help
    ``tsolve --help`` shows beside it (the first paragraph of the command's
    help, one line), and whether it is a group of subcommands (Typer lists
    single commands before groups)."""

    name: str
    help: str
    group: bool = False


def _no_choices() -> dict[str, list[Any]]:
    return {}


@dataclass(frozen=True)
class Family:
    """One task family, declared once (see the module docstring).

    ``origin`` says where the declaration came from: ``built-in`` or the
    distribution and entry point that provided it."""

    name: str
    description: str = ""
    version: str | Lazy = ""
    # ---- generation
    generate: Callable[[int, int, Any], Record] | Lazy | None = None
    options: Mapping[str, Parser] = field(default_factory=dict)
    build: Callable[[dict[str, Any]], Any] | Lazy | None = None
    summarize: Callable[[Record], dict[str, list[str]]] | Lazy | None = None
    domain_warnings: Callable[[int, int, int, Any], list[str]] | Lazy | None = None
    fingerprint: Callable[[Record], str] | Lazy | None = None
    answer_fingerprint: Callable[[Record], str] | Lazy | None = None
    distinct: bool | None = None
    # ---- checking generators (tsolve stress)
    invariants: Callable[[Record, int, int, Any], list[tuple[str, str]]] | Lazy | None = None
    stress_choices: Callable[[], dict[str, list[Any]]] | Lazy = _no_choices
    # ---- judging answers and gold
    score: Callable[..., Any] | Lazy | None = None
    scorers: Mapping[str, Callable[..., Any] | Lazy] = field(default_factory=dict)
    diagnose_batch: Callable[[Sequence[tuple[Record, Any]]], list[str | None]] | Lazy | None = None
    answer: Callable[[Record], str] | Lazy | None = None
    answer_marker: str = ""
    compact_gold: Callable[[Record], dict[str, Any]] | Lazy | None = None
    score_compact: Callable[[dict[str, Any], str], Mapping[str, float]] | Lazy | None = None
    # ---- what the adapters ask (each has a default: module docstring)
    prompt: Callable[[Record], str] | Lazy | None = None
    perturb: Callable[[Record, str], str] | Lazy | None = None
    reward_metrics: tuple[str, ...] = ()
    gameable_metrics: tuple[str, ...] = ()
    diagnostic_metrics: tuple[str, ...] = ()
    difficulty: Callable[[Record], Mapping[str, Any]] | Lazy | None = None
    curriculum: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    curriculum_notes: Mapping[str, str] = field(default_factory=dict)
    report_columns: tuple[str, ...] = ()
    report_breakdowns: Callable[[Record], Sequence[Mapping[str, Any]]] | Lazy | None = None
    inspect_tasks: Mapping[str, Lazy] = field(default_factory=dict)
    row_hint: str = ""
    audit: Callable[[Record], Any] | Lazy | None = None
    recognise: Callable[[Record], bool] | None = None
    fuzz_records: Callable[[int], list[Record]] | Lazy | None = None
    rederive: Callable[[Record], Any] | Lazy | None = None
    solve: Callable[..., dict[str, Any]] | Lazy | None = None
    # ---- measuring and the command line
    bench: Callable[[Any], list[Any]] | Lazy | None = None
    cli: Callable[[Any], None] | Lazy | None = None
    # ---- publishing (tsolve dataset --format hub / --balance)
    card: Mapping[str, Any] | None = None
    strata: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    shortcut_cells: (
        Mapping[str, Mapping[str, Any]]
        | Callable[[], Mapping[str, Mapping[str, Any]]]
        | Lazy
        | None
    ) = None
    shortcut_train_options: Callable[[Mapping[str, Any]], Mapping[str, Any]] | Lazy | None = None
    # ---- what the cross-family commands ask (each with a default: see the docstring)
    commands: tuple[Command, ...] = ()
    import_cli: Callable[[Any], None] | Lazy | None = None
    adversarial_item: Callable[[Record, str], tuple[str, tuple[str, ...]]] | Lazy | None = None
    adversarial_options: Mapping[str, Any] = field(default_factory=dict)
    adversarial_rotate: str = ""
    adversarial_scale: int = 1
    honest_gold: Callable[[Record], Any] | Lazy | None = None
    honest_styles: Mapping[str, Callable[[Any], str | None]] | Lazy | None = None
    shortcut_probes: tuple[Sequence[Any] | Lazy, ...] = ()
    shortcut_file_probes: Callable[[Sequence[Record], Sequence[Record]], Any] | Lazy | None = None
    explain: Callable[[dict[str, Any], Record], list[str]] | Lazy | None = None
    fuzz_surfaces: Mapping[str, Callable[[Any], tuple[str, Callable[[], Any]]] | Lazy] = field(
        default_factory=dict
    )
    strategies: Mapping[str, Callable[..., Any] | Lazy] = field(default_factory=dict)
    exports: Mapping[str, Lazy] = field(default_factory=dict)
    agent_tools: tuple[Callable[..., dict[str, Any]] | Lazy, ...] = ()
    scaling_surfaces: Callable[[], Sequence[Any]] | Lazy | None = None
    typed_forms: tuple[tuple[str, str, type], ...] = ()
    paper_tables: Sequence[Any] | Lazy | None = None
    solve_check: Callable[..., Any] | Lazy | None = None
    origin: str = "built-in"

    # ------------------------------------------------------------ capabilities

    def capabilities(self) -> list[str]:
        """What this family can do, in the words the CLI uses."""
        parts = {
            "dataset": self.generate,
            "verify": self.score,
            "audit": self.audit,
            "stress": self.invariants if self.generate is not None else None,
            "bench": self.bench,
            "cli": self.cli,
        }
        return [name for name, part in parts.items() if part is not None]

    def available(self) -> bool:
        """Is the family's code installed? Judged on its main part (the
        generator, else the scorer, ...), found without importing it."""
        parts = (self.generate, self.score, self.audit, self.bench, self.cli)
        main = next((p for p in parts if p is not None), None)
        return not isinstance(main, Lazy) or main.importable()

    def require(self, part: str = "generate") -> Any:
        """The family's ``part`` (resolved), or a one-line error saying why not."""
        value = getattr(self, part)
        if value is None:
            what = {
                "generate": "does not generate records (nothing for tsolve dataset)",
                "score": "has no scorer (nothing for tsolve verify)",
                "audit": "has no auditor (nothing for tsolve audit)",
                "invariants": "declares no invariants (nothing for tsolve stress)",
                "bench": "has no bench cases",
            }.get(part, f"has no {part}")
            raise TsolveError(f"family: {self.name!r} {what}")
        if isinstance(value, Lazy) and not value.importable():
            raise TsolveError(
                f"family: {self.name!r} is not available in this installation "
                f"({value.module} is not installed)"
            )
        return resolve(value)

    @property
    def distinct_runs(self) -> bool:
        """Does a dataset run of this family hold no answer twice (``distinct``)?"""
        if self.distinct is not None:
            return self.distinct
        return self.generate is not None and (
            self.fingerprint is not None or self.answer_fingerprint is not None
        )

    def version_text(self) -> str:
        return str(resolve(self.version))

    # ------------------------------------------------------------ options

    def parse_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Normalise option names (``-`` -> ``_``) and values; reject unknown names."""
        out: dict[str, Any] = {}
        for key, value in raw.items():
            name = str(key).strip().replace("-", "_")
            if name not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise TsolveError(
                    f"option: {key!r} is not an option of family {self.name} (options: {known})"
                )
            out[name] = self.options[name](value, name.replace("_", "-"))
        return out

    def make_options(self, raw: Mapping[str, Any] | None = None) -> Any:
        """The validated config object the generator takes."""
        self.require("generate")
        parsed = self.parse_options(raw or {})
        return resolve(self.build)(parsed) if self.build is not None else parsed

    def make_record(self, seed: int, index: int, config: Any, redraw: int = 0) -> Record:
        """Record ``index`` of the run with ``seed``, checked as every family's
        is (:mod:`tsolve.contract.guards`): a dict with a non-empty string
        ``id``, stamped with ``family`` and ``generator`` when it lacks them,
        so that every later command can route and resume it; anything else
        is a one-line error naming the family. ``redraw`` > 0 draws it again
        as that attempt (:func:`tsolve.generators.seeding.redrawing`), which a
        run does when the record repeats an earlier one
        (:mod:`tsolve.datasets.distinct`)."""
        if self.generate is None:
            self.require("generate")  # raises the one-line error
        # Per record, so no installation check here (``make_options`` did it).
        from tsolve.contract.guards import checked_record

        generate = resolve(self.generate)
        if not redraw:
            return checked_record(self, generate(seed, index, config), seed, index)
        with redrawing(redraw):
            record = generate(seed, index, config)
        return checked_record(self, record, seed, index)

    def scorer(self, name: str | None = None) -> Callable[..., Any]:
        """The family's scorer (``score``, or the one in ``scorers`` called
        ``name``) behind the guards every family's has
        (:func:`tsolve.contract.guards.checked_scorer`): it returns an
        ``ItemScore`` whose metrics are numbers in [0, 1], or raises a
        one-line error naming the family."""
        from tsolve.contract.guards import checked_scorer

        if name is None:
            return checked_scorer(self, self.require("score"))
        part = self.scorers.get(name)
        if part is None:
            known = ", ".join(sorted(self.scorers)) or "none"
            raise TsolveError(
                f"scorer: family {self.name!r} has no scorer {name!r} (named: {known})"
            )
        if isinstance(part, Lazy) and not part.importable():
            raise TsolveError(f"scorer: {name!r} of {self.name!r} is not installed ({part.module})")
        return checked_scorer(self, resolve(part))

    # ------------------------------------------------------------ what adapters ask

    def prompt_text(self, record: Record) -> str:
        """The text a model is shown for ``record``: the family's ``prompt``
        part, else the record's ``prompt`` field, else its ``question``."""
        from tsolve.contract.guards import family_call

        if self.prompt is not None:
            text = family_call(self, "prompt", resolve(self.prompt), record)
            if not isinstance(text, str) or not text.strip():
                raise TsolveError(
                    f"family {self.name}: prompt returned {type(text).__name__}, not text"
                )
            return text
        for name in ("prompt", "question"):
            text = record.get(name)
            if isinstance(text, str) and text.strip():
                return text
        raise TsolveError(f"record {record.get('id')!r}: no 'prompt' or 'question' text to ask")

    def perturbed_output(self, record: Record, gold_output: str) -> str:
        """A near miss of ``gold_output`` (the record's gold as a model writes
        it): the family's ``perturb`` part, else one value moved
        (:func:`tsolve.contract.defaults.perturb`); never the gold itself
        (:func:`tsolve.contract.defaults.never_gold`)."""
        from tsolve.contract.defaults import never_gold, perturb
        from tsolve.contract.guards import family_call

        if self.perturb is not None:
            text = family_call(self, "perturb", resolve(self.perturb), record, gold_output)
            if not isinstance(text, str):
                raise TsolveError(
                    f"family {self.name}: perturb returned {type(text).__name__}, not text"
                )
        else:
            text = perturb(gold_output)
        return never_gold(gold_output) if text.strip() == gold_output.strip() else text

    def difficulty_of(self, record: Record) -> dict[str, Any]:
        """The knobs that set ``record``'s difficulty (the ``difficulty``
        part; default: the record's fields named like a curriculum knob),
        JSON-ready."""
        from tsolve.contract.guards import family_call

        if self.difficulty is None:
            return {knob: record[knob] for knob in self.curriculum if knob in record}
        found = family_call(self, "difficulty", resolve(self.difficulty), record)
        if not isinstance(found, Mapping):
            raise TsolveError(
                f"family {self.name}: difficulty returned {type(found).__name__}, not a dict"
            )
        return dict(found)

    def report_keys(self, record: Record) -> list[dict[str, Any]]:
        """The extra ``tsolve report`` rows ``record`` counts in, each as
        ``{field: label}`` (the ``report_breakdowns`` part; default: none)."""
        if self.report_breakdowns is None:
            return []
        found = resolve(self.report_breakdowns)(record)
        return [dict(key) for key in found]

    def coverage_warnings(self, seed: int, start: int, count: int, config: Any) -> list[str]:
        """One-line warnings when records ``start .. start+count-1`` of run
        ``seed`` go beyond what the family's content domain can keep distinct
        (repeats within the run, or content shared with other seeds). Empty
        for families whose domain is large enough (no ``domain_warnings``)."""
        if self.domain_warnings is None:
            return []
        out: list[str] = resolve(self.domain_warnings)(seed, start, count, config)
        return out

    def content_fingerprint(self, record: Record) -> str:
        """What ``tsolve dataset overlap`` compares: two records with the same
        fingerprint ask the same thing, whatever their ids, fact order or
        wording style. The family's ``fingerprint`` part, else
        :func:`tsolve.generators.fingerprints.default_fingerprint` (the record
        without the fields that name it: id, pair, family, generator stamp)."""
        part = self.fingerprint or Lazy("tsolve.generators.fingerprints:default_fingerprint")
        out: str = resolve(part)(record)
        return out

    def answer_content_fingerprint(self, record: Record) -> str:
        """What ``answer_overlap`` compares: two records with the same answer
        fingerprint are answered by the same reasoning on the same content
        (a SPAN question whatever its candidate, a logistics scenario whatever
        its objects are named), so a model that saw one has seen the other's
        answer. The family's ``answer_fingerprint`` part, else the content
        fingerprint (records that ask the same thing have the same answer)."""
        if self.answer_fingerprint is None:
            return self.content_fingerprint(record)
        out: str = resolve(self.answer_fingerprint)(record)
        return out

    def buckets(self, record: Record) -> dict[str, list[str]]:
        """The labels a dataset summary counts ``record`` under."""
        if self.summarize is None:
            return {}
        out: dict[str, list[str]] = resolve(self.summarize)(record)
        return out

    def sample_records(self, seed: int) -> list[Record]:
        """Valid records for the hostile-input campaign (see ``fuzz_records``)."""
        if self.fuzz_records is not None:
            out: list[Record] = resolve(self.fuzz_records)(seed)
            return out
        config = self.make_options({})
        return [self.make_record(seed, i, config) for i in range(6)]

    def choices(self) -> dict[str, list[Any]]:
        """The pools ``tsolve stress`` draws random settings from."""
        out: dict[str, list[Any]] = resolve(self.stress_choices)()
        return out

    # ------------------------------------------------------------ records

    @staticmethod
    def redraw_of(record: Record) -> int:
        """The redraw attempt a stored record was made as (``generator.redraw``;
        0 when absent: the record as first drawn)."""
        gen = record.get("generator")
        value = gen.get("redraw", 0) if isinstance(gen, dict) else 0
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TsolveError(f"generator.redraw: expected a non-negative integer, got {value!r}")
        return value

    @staticmethod
    def index_of(record: Record) -> int:
        """The record's index in its run (``generator.index``, which every family writes)."""
        gen = record.get("generator")
        if (
            not isinstance(gen, dict)
            or isinstance(gen.get("index"), bool)
            or not isinstance(gen.get("index"), int)
        ):
            raise TsolveError(f"record {record.get('id', '?')!r}: no generator.index")
        return int(gen["index"])

    @staticmethod
    def seed_of(record: Record) -> int | None:
        gen = record.get("generator")
        seed = gen.get("seed") if isinstance(gen, dict) else None
        return seed if isinstance(seed, int) and not isinstance(seed, bool) else None
