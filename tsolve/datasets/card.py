"""The dataset card (``README.md``) of a Hub folder (:mod:`tsolve.datasets.hub`).

A card is YAML front matter, which the Hub and ``datasets.load_dataset`` read
(``license``, ``pretty_name``, ``task_categories``, ``size_categories``,
``configs`` with each split's ``data_files``, and ``dataset_info.features``
in ``datasets``' own YAML form), then prose for people. Everything in it is
computed from the run: the family's declaration, the options, the seed, each
split's row count and summary counts (label balance and strata). The
family's own prose comes from its ``card`` part (:class:`tsolve.families.Family`),
a mapping with these keys, each optional:

* ``task``: what an item asks and what the gold is;
* ``readings``: the readings the gold is checked under;
* ``limitations``: what the data does not cover or may get wrong;
* ``papers``: the source papers, one line each;
* ``citation``: the full BibTeX entry of the source paper (the one home of
  it: the card lists every built-in family's paper after the family's own);
* ``citation_of``: instead of ``citation``, the family whose paper this
  family's task comes from;
* ``task_categories``: Hub task categories (default ``question-answering``);
* ``configs``: record fields to make one Hub config per value of (field ->
  label: ``{"style": "style", "solution_count": "M"}`` makes the configs
  ``style-implicit``, ``M-3``, ...), besides ``default``, which holds every
  record.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tsolve.datasets.split import SplitSummary
from tsolve.records import json_text
from tsolve.records.columns import Column

if TYPE_CHECKING:
    from tsolve.contract import Family

#: The license of the records tsolve writes (pyproject.toml: MIT).
LICENSE = "mit"
#: tsolve's own citation: the one home of the card's BibTeX and of tsolve's
#: own fields in the repository's ``CITATION.cff`` (title, version, license,
#: authors, abstract; a test holds the file to this and to pyproject's
#: version). There is no public repository yet, so no URL: cite by title and
#: version. No release has been made, so no release date either; the year is
#: the copyright year of LICENSE.
TSOLVE: dict[str, str] = {
    "title": "tsolve: a constraint-solver-centric engine for temporal reasoning benchmarks",
    "authors": "The tsolve contributors",
    "year": "2026",
    "license": "MIT",
    "abstract": (
        "A constraint-solver-centric engine for temporal reasoning benchmarks: time puzzles, "
        "cross-calendar questions and logistics timelines."
    ),
}


def tsolve_version() -> str:
    """The installed tsolve's version (the source tree's pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tsolve")
    except PackageNotFoundError:  # pragma: no cover - a source tree
        return "unknown"


def tsolve_bibtex(version: str | None = None) -> str:
    """tsolve's BibTeX entry, from :data:`TSOLVE`."""
    return (
        "@software{tsolve,\n"
        f"  title = {{{TSOLVE['title']}}},\n"
        f"  author = {{{{{TSOLVE['authors']}}}}},\n"
        f"  year = {{{TSOLVE['year']}}},\n"
        f"  version = {{{version or tsolve_version()}}},\n"
        "  note = {No public repository URL yet: cite by title and version},\n"
        f"  license = {{{TSOLVE['license']}}}\n"
        "}"
    )


def citation_of(fam: Family) -> str | None:
    """The family's source paper as a full BibTeX entry: its card's
    ``citation``, or that of the family its card's ``citation_of`` names (a
    family built on another's paper), or None."""
    from tsolve.contract import get_family
    from tsolve.errors import TsolveError

    prose = dict(fam.card or {})
    if prose.get("citation"):
        return str(prose["citation"]).strip()
    if prose.get("citation_of"):
        try:
            other = get_family(str(prose["citation_of"]))
        except TsolveError:
            return None
        return citation_of(other) if other.name != fam.name else None
    return None


def bibtex_key(entry: str) -> str:
    """The key of a BibTeX entry (``@misc{key, ...`` -> ``key``)."""
    return entry.split("{", 1)[1].split(",", 1)[0].strip()


def _papers() -> tuple[dict[str, str], dict[str, str]]:
    """Every paper the built-in families implement, by BibTeX key, in
    registry order, and the key of each family's paper (from the families'
    cards: each paper is written once, in the family that implements it)."""
    from tsolve.contract import builtin_families

    papers: dict[str, str] = {}
    family_paper: dict[str, str] = {}
    for fam in builtin_families():
        entry = citation_of(fam)
        if entry is not None:
            papers.setdefault(bibtex_key(entry), entry)
            family_paper[fam.name] = bibtex_key(entry)
    return papers, family_paper


def __getattr__(name: str) -> Any:
    # ``PAPERS`` (every paper tsolve implements, docs/papers.md, as each paper
    # states itself and as its public record confirms: authors, year, venue or
    # arXiv id, URL) and ``FAMILY_PAPER`` (the paper behind each family): views
    # of the families' cards.
    if name == "PAPERS":
        return _papers()[0]
    if name == "FAMILY_PAPER":
        return _papers()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: What each common record field holds, for the card's field table; a field
#: not listed is the family's own (docs/hf.md has every family's fields).
FIELD_NOTES = {
    "id": "the record's id: family, seed and index (stable across runs)",
    "family": "the task family that made the record",
    "question": "the text a model is shown: the record's `prompt`, with the answer-format "
    "instruction",
    "answer": "the gold as the family's scorer reads an honest answer",
    "answers": "every gold answer (the full solution set)",
    "gold": "gold: the answer as data (never shown beside the prompt)",
    "gold_detail": "gold: fields that restate the answer (a polar candidate's kind and "
    "Gregorian date, a festival's year); never shown beside the prompt",
    "facts": "the constraints of the puzzle, each a typed fact",
    "prompt": "the full prompt, with the answer-format instructions",
    "generator": "generator name, version and the full parameters of the run",
    "solutions": "M: the number of dates that satisfy the facts",
    "style": "implicit (facts name events) or explicit (facts give dates)",
    "difficulty": "the difficulty level",
    "level": "the measured difficulty level",
}


#: A marker line in the card, so that a folder tsolve wrote may be replaced.
CARD_MARKER = "<!-- written by tsolve dataset --format hub -->"


@dataclass
class HubSummary:
    """What ``write_hub`` wrote: the split run's summary and the files."""

    out: str
    split: SplitSummary
    files: dict[str, str] = field(default_factory=dict)  # split -> path inside out
    rows: dict[str, int] = field(default_factory=dict)
    configs: dict[str, dict[str, str]] = field(default_factory=dict)  # config -> split -> path
    config_rows: dict[str, dict[str, int]] = field(default_factory=dict)
    config_where: dict[str, tuple[str, Any]] = field(default_factory=dict)  # config -> field, value

    def to_json(self) -> dict[str, Any]:
        parts = self.split.to_json()["parts"]
        for name, part in parts.items():  # the spool's paths are gone: name the files
            part.update(out=self.out, format="hub", path=self.files.get(name))
        return {
            "out": self.out,
            "format": "hub",
            "files": dict(self.files),
            "rows": dict(self.rows),
            "configs": {name: dict(files) for name, files in self.configs.items()},
            "parts": parts,
        }


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket for ``n`` rows."""
    bounds = [
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
        (10_000_000, "1M<n<10M"),
    ]
    for bound, name in bounds:
        if n < bound:
            return name
    return "n>10M"


def config_axes(fam: Family) -> dict[str, str]:
    """The record fields the family's Hub configs are made by (field ->
    label), from its card's ``configs`` part."""
    axes = dict(fam.card or {}).get("configs") or {}
    return {str(k): str(v) for k, v in dict(axes).items()}


def front_matter(
    fam: Family,
    seed: int,
    summary: HubSummary,
    columns: list[Column],
    ids: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The card's YAML metadata as a mapping: ``configs`` lists ``default``
    (every record) and each config of :func:`config_axes`, with its files."""
    from tsolve.records.hf import features

    prose = dict(fam.card or {})
    total = sum(summary.rows.values())
    files = {"default": summary.files, **summary.configs}
    return {
        "license": LICENSE,
        "pretty_name": f"tsolve {fam.name} (seed {seed})",
        "language": ["en"],
        "annotations_creators": ["machine-generated"],
        "language_creators": ["machine-generated"],
        "multilinguality": ["monolingual"],
        "source_datasets": ["original"],
        "task_categories": list(prose.get("task_categories") or ["question-answering"]),
        "task_ids": list(prose.get("task_ids") or ["closed-domain-qa"]),
        "size_categories": [size_category(total)],
        "tags": ["tsolve", "temporal-reasoning", "synthetic", fam.name],
        "configs": [
            {
                "config_name": config,
                "data_files": [{"split": name, "path": p} for name, p in parts.items()],
            }
            for config, parts in files.items()
        ],
        "dataset_info": [
            # a fresh list each: YAML would otherwise write anchors and aliases
            {"config_name": config, "features": features(columns, ids)._to_yaml_list()}
            for config in files
        ],
    }


def render_card(
    fam: Family,
    options: dict[str, Any],
    seed: int,
    count: int,
    summary: HubSummary,
    columns: list[Column],
    balance: str | None = None,
    ids: dict[str, str] | None = None,
) -> str:
    """The whole ``README.md``: front matter, then the prose sections.
    ``ids`` mark the derived columns (:mod:`tsolve.records.hub_columns`)."""
    import yaml

    prose = dict(fam.card or {})
    meta = yaml.safe_dump(
        front_matter(fam, seed, summary, columns, ids), sort_keys=False, allow_unicode=True
    )
    total = sum(summary.rows.values())
    out = [f"---\n{meta}---", CARD_MARKER, f"# tsolve {fam.name}", ""]
    out += [f"{fam.description}. {total} records, generated by tsolve.", ""]
    if prose.get("task"):
        out += ["## The task", "", str(prose["task"]), ""]
    # As parsed (names normalised, values typed, sorted): the same run reads the same.
    parsed = dict(sorted(fam.parse_options(options).items()))
    out += _generation(fam, parsed, seed, count, summary, balance)
    out += _splits(summary)
    out += _configs(fam, summary)
    out += _balance(summary)
    if prose.get("readings"):
        out += ["## Readings checked", "", str(prose["readings"]), ""]
    out += _columns(fam, columns, ids or {})
    if prose.get("limitations"):
        out += ["## Known limitations", "", str(prose["limitations"]), ""]
    out += _citations(fam, prose)
    return "\n".join(out)


def _citations(fam: Family, prose: dict[str, Any]) -> list[str]:
    """The family's source paper first, tsolve, then every other paper tsolve
    implements: each in full (:data:`PAPERS`, from the families' cards)."""
    papers, _family_paper = _papers()
    entry = citation_of(fam)
    own = bibtex_key(entry) if entry is not None else None
    out = ["## Source papers and citation", ""]
    out += [f"- {line}" for line in prose.get("papers") or []]
    out += ["", "Please cite the source paper of this family and tsolve:", "", "```bibtex"]
    if entry is not None:
        out.append(entry)
    out += [tsolve_bibtex(), "```", "", "The other papers tsolve implements:", "", "```bibtex"]
    out += [text for key, text in papers.items() if key != own]
    return [*out, "```", ""]


def _generation(
    fam: Family,
    options: dict[str, Any],
    seed: int,
    count: int,
    summary: HubSummary,
    balance: str | None,
) -> list[str]:
    parts = summary.split.parts.items()
    split = ",".join(f"{name}={len(range(p.start, p.stop))}" for name, p in parts)
    flags = " ".join(
        f"--set {shlex.quote(f'{k}={_flag_value(v)}')}" for k, v in sorted(options.items())
    )
    if balance:
        flags += f" --balance {balance}"
    command = (
        f"tsolve dataset {fam.name} --count {count} --seed {seed} --format hub "
        f"--split {split} {flags}".rstrip()
        + " --out DIR"
    )
    return [
        "## How it was generated",
        "",
        f"- family: `{fam.name}`, generator version {fam.version_text()}, "
        f"tsolve {tsolve_version()}",
        f"- seed: {seed}; record i of the run is a pure function of (seed, i, options)",
        f"- balanced by index over: {balance or 'nothing (the natural mix of the family)'}",
        f"- options: `{json_text(options)}` (every other option at its default; each "
        "record's `generator.params` holds the full config)",
        f"- to regenerate the same records: `{command}`",
        "",
    ]


def _flag_value(value: Any) -> str:
    return value if isinstance(value, str) else json_text(value)


def _splits(summary: HubSummary) -> list[str]:
    out = [
        "## Splits",
        "",
        "The splits are consecutive index blocks of one run, which holds no puzzle twice. "
        "A record of a later split whose answer-determining content (the family's answer "
        "fingerprint: same facts in any order or wording, same question whatever its "
        "candidate) repeats an earlier split's is dropped, so the splits are disjoint "
        "by content (`tsolve dataset overlap` finds neither overlap nor answer_overlap).",
        "",
        "| split | rows | indices | dropped as repeats | failed |",
        "|---|---|---|---|---|",
    ]
    for name, part in summary.split.parts.items():
        rows = summary.rows.get(name, 0)
        dropped = summary.split.dropped.get(name, 0)
        span = f"{part.start}..{part.stop - 1}"
        out.append(f"| {name} | {rows} | {span} | {dropped} | {part.failures} |")
    return [*out, ""]


def _balance(summary: HubSummary) -> list[str]:
    """Label balance and strata: each split's summary counts, as a table per bucket.
    (Counted as generated, before the disjointness guard dropped repeats.)"""
    out = ["## Label balance and strata", ""]
    out.append("Counts per split as generated (before any repeat was dropped).")
    out.append("")
    for name, part in summary.split.parts.items():
        counts = part.to_json()["counts"]
        if not counts:
            continue
        out += [f"**{name}**", "", "| bucket | counts |", "|---|---|"]
        for key, values in counts.items():
            out.append(f"| {key} | " + ", ".join(f"{v}: {n}" for v, n in values.items()) + " |")
        out.append("")
    return out


def _configs(fam: Family, summary: HubSummary) -> list[str]:
    """The configs besides ``default``, and what each holds."""
    if not summary.configs:
        return []
    out = [
        "## Configs",
        "",
        "`default` holds every record (the split files above). Each other config holds the "
        "records with one value of one field, stored again under `data/CONFIG/`: "
        f"`datasets.load_dataset(DIR, name=CONFIG)`. ({fam.name} makes configs by "
        + ", ".join(f"`{k}`" for k in config_axes(fam))
        + ".)",
        "",
        "| config | records where | rows per split |",
        "|---|---|---|",
    ]
    for config, rows in summary.config_rows.items():
        key, value = summary.config_where[config]
        counts = ", ".join(f"{split}: {n}" for split, n in rows.items())
        out.append(f"| `{config}` | `{key}` = `{value}` | {counts} |")
    return [*out, ""]


def _answer_note(fam: Family) -> str:
    """What the ``answer`` column holds for ``fam``: the first line of its
    ``answer`` part's docstring, the one place the format is stated."""
    from tsolve.contract.family import resolve

    note = FIELD_NOTES["answer"]
    if fam.answer is None:
        return note + " (the record's own `answer`)"
    doc = " ".join((resolve(fam.answer).__doc__ or "").strip().split("\n\n")[0].split())
    doc = doc.replace("``", "`").rstrip(".")
    return f"{note}: {doc[:1].lower()}{doc[1:]}" if doc else note


def _note(fam: Family, c: Column, ids: dict[str, str]) -> str:
    """The field table's note on column ``c``."""
    from tsolve.records.hub_columns import DERIVED, RENAMED

    fid = ids.get(c.name, "")
    if fid.startswith(RENAMED):
        own = fid[len(RENAMED) :]
        return (
            f"the record's own `{own}` field, named so beside the derived `{own}` column "
            f"(tsolve reads it back as `{own}`)"
        )
    note = _answer_note(fam) if c.field == "answer" else FIELD_NOTES.get(c.field)
    note = note or "a field of the family"
    if fid == DERIVED:
        note += " (derived from the record; checked and dropped when tsolve reads it back)"
    return note.replace("|", "\\|")


def _columns(fam: Family, columns: list[Column], ids: dict[str, str]) -> list[str]:
    json_cols = [c.name for c in columns if c.kind == "json"]
    table = ["| column | type | what it holds |", "|---|---|---|"]
    for c in columns:
        kind = "JSON text" if c.kind == "json" else c.kind
        table.append(f"| `{c.name}` | {kind} | {_note(fam, c, ids)} |")
    return [
        "## Columns",
        "",
        "One column per top-level field of a tsolve record, led by the plain `question` and "
        "`answer` strings (tsolve derives them from the record where it has no such field, "
        "so they are never a second truth: a derived cell that does not match its record "
        "makes that row a bad row when tsolve reads it). Dates are ISO strings. "
        + (
            f"Nested values are canonical JSON text in `*_json` columns ({', '.join(json_cols)}). "
            if json_cols
            else ""
        )
        + "`tsolve.records.hf.from_dataset(load_dataset(DIR)['train'])` gives the records back "
        "exactly as tsolve wrote them, nulls included; every tsolve command also reads "
        "the Parquet files directly (`tsolve verify data/test-00000-of-00001.parquet ...`).",
        "",
        *table,
        "",
    ]
