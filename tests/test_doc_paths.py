"""Every file path named in a docstring or a doc page exists.

A newcomer follows these names to find the code; a name left over from an
old layout sends them nowhere. What counts as a path:

* a token made of ``[A-Za-z0-9_./<>*-]`` that ends in ``.py``, ``.md``,
  ``.json``, ``.jsonl``, ``.csv``, ``.toml``, ``.yaml`` or ``.yml`` and
  contains a ``/`` (a bare ``solve.py`` names no place);
* not a URL (``://`` or ``www.`` before it on the same token), not a
  placeholder (``<...>``, ``*``, ``...``, ``~``, or a first folder in
  capitals, as in ``DIR/README.md``), not an absolute path
  (``/tmp/x.json`` is an example of output, not a file of this repo), not a
  file of ``../shared`` (it sits beside a clone, not in it), and
  not a path under a folder a command writes (``out/``, ``runs/``, ...:
  see :data:`OUTPUT_FOLDERS`), unless it names a file of
  ``benchmarks/results/`` (:data:`MEASURED`), where the measurements the
  docs quote live: ``results/2026-11-27-x.md`` in ``benchmarks/README.md``
  is checked.

Such a path exists when it names a file or folder relative to the repo
root, to ``tsolve/``, to ``tsolve/families/`` or to the folder of the file
that names it (a doc linking ``../README.md``). Docstrings are read from
``tsolve/`` and ``benchmarks/`` (module, class and function docstrings,
with :mod:`ast`, and comments, with :mod:`tokenize`); docs are ``docs/*.md``, ``README.md`` and
``benchmarks/README.md``.
"""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = re.compile(r"[A-Za-z0-9_./<>*~-]+\.(?:py|md|jsonl|json|csv|toml|ya?ml)\b")
#: Folders a command writes into: paths under them are examples of output.
OUTPUT_FOLDERS = ("out/", "runs/", "results/", "data/", "logs/", "my_", "mydata/", "tmp/")
BASES = (ROOT, ROOT / "tsolve", ROOT / "tsolve" / "families")
#: The measurements the docs link to: a path into this folder must exist,
#: although ``results/`` is otherwise a folder commands write.
MEASURED = ROOT / "benchmarks" / "results"


def _docstrings_and_comments(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef)))]  # fmt: skip
    docs = [d for n in nodes if (d := ast.get_docstring(n, clean=False))]
    with path.open("rb") as f:
        comments = [t.string for t in tokenize.tokenize(f.readline) if t.type == tokenize.COMMENT]
    return [*docs, *comments]


def _texts() -> list[tuple[Path, str]]:
    sources = [
        p for folder in ("tsolve", "benchmarks") for p in sorted((ROOT / folder).rglob("*.py"))
    ]
    out = [(p, d) for p in sources for d in _docstrings_and_comments(p)]
    docs = [
        *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "README.md",
        ROOT / "benchmarks" / "README.md",
    ]
    out += [(p, p.read_text(encoding="utf-8")) for p in docs if p.is_file()]
    return out


def _measured(token: str, where: Path | None) -> bool:
    """Whether ``token``, named in the file ``where``, lies in :data:`MEASURED`."""
    bases = (ROOT, *(() if where is None else (where.parent,)))
    return any((base / token).resolve().is_relative_to(MEASURED) for base in bases)


def named_paths(text: str, where: Path | None = None) -> list[str]:
    """The repo paths ``text`` names, by the rules in the module docstring;
    ``where`` is the file that holds ``text`` (relative names resolve from it)."""
    found = []
    for m in PATH.finditer(text):
        token = m.group(0).removeprefix("./")
        before = text[max(0, m.start() - 8) : m.start()]
        outside = token.startswith(("/", "~", "../shared/"))
        if "/" not in token or outside or "://" in before or "www." in token:
            continue
        if any(c in token for c in "<>*") or "..." in token or token.split("/")[0].isupper():
            continue
        if text[m.end() : m.end() + 1] == "/":
            continue
        if token.startswith(OUTPUT_FOLDERS) and not _measured(token, where):
            continue
        found.append(token)
    return found


def _exists(token: str, where: Path) -> bool:
    return any((base / token).exists() for base in (*BASES, where.parent))


def test_the_rules_find_paths_and_skip_what_is_no_path() -> None:
    text = (
        "see tsolve/cli/solve.py and docs/architecture.md, `families/span/score.py`; "
        "not https://x.org/a/b.py, /tmp/out.json, out/run.jsonl, families/<name>/family.py, "
        "DIR/README.md "
        "or a bare solve.py, ../shared/samples/x.jsonl (beside a clone, not in it)"
    )
    assert named_paths(text) == ["tsolve/cli/solve.py", "docs/architecture.md",
                                 "families/span/score.py"]  # fmt: skip
    assert named_paths("see ../README.md and ./docs/x.md") == ["../README.md", "docs/x.md"]


def test_paths_into_the_measured_results_are_checked() -> None:
    """``results/`` is an output folder anywhere but under ``benchmarks/``."""
    readme = ROOT / "benchmarks" / "README.md"
    text = "see results/2026-01-01-gone.md and benchmarks/results/2026-01-01-gone.md"
    both = ["results/2026-01-01-gone.md", "benchmarks/results/2026-01-01-gone.md"]
    assert named_paths(text, readme) == both
    assert not any(_exists(token, readme) for token in both)
    assert named_paths(text, ROOT / "docs" / "x.md") == both[1:]


def test_every_path_named_in_a_docstring_or_a_doc_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)}: {token}"
        for path, text in _texts()
        for token in named_paths(text, path)
        if not _exists(token, path)
    )
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)


LINK = re.compile(r"\]\(([^)#\s]+)(?:#([^)\s]+))?\)")


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of ``page``'s headings (fenced code left out)."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def test_the_anchor_rule_is_githubs() -> None:
    page = ROOT / "docs" / "formats.md"
    assert "equal-strata-tsolve-dataset---balance" in _anchors(page)
    assert "tsolve-verify---format-json" in _anchors(page)


def test_every_link_of_the_docs_index_resolves() -> None:
    """docs/index.md maps a user's questions to pages and sections: each
    link must reach an existing page and, where it names one, a heading."""
    index = ROOT / "docs" / "index.md"
    links = LINK.findall(index.read_text(encoding="utf-8"))
    assert len(links) > 30
    broken = [
        f"{target}#{anchor}"
        for target, anchor in links
        if not (index.parent / target).is_file()
        or (anchor and anchor not in _anchors(index.parent / target))
    ]
    assert not broken, "links of docs/index.md that lead nowhere:\n" + "\n".join(broken)
