"""tsolve's own citation, apart from the dataset card that renders it.

Its abstract names what tsolve generates, the task families among them, in
the words of the repository's ``CITATION.cff``: this is the one module
outside the families and the registry that names them on purpose, so that
the card, which renders every family alike, names none.
"""

from __future__ import annotations

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
