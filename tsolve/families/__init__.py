"""The built-in task families, one folder each: ``time_puzzles``,
``relational_puzzles``, ``span``, ``logistics``, ``tempo`` and ``tictoc``.

Each folder is shaped like a third-party plug-in: ``family.py`` is its one
registration (a :class:`~tsolve.contract.Family` of lazy parts), and the
other modules are its parts, with the same names wherever they apply
(``generate``, ``solve``, ``score``, ``audit``, ``invariants``,
``fingerprint``, ``bench``, ``plot``, ``parse/``). The contract they register
through is :mod:`tsolve.contract`; its names are re-exported here, as they were
before the contract had a package of its own.
"""

from tsolve.contract.family import Family, Lazy, Record
from tsolve.contract.registry import (
    BUILTIN,
    ENTRY_POINT_GROUP,
    REGISTRY,
    all_families,
    builtin_families,
    describe,
    family_names,
    family_of,
    get_family,
    register_family,
    temporary_family,
    unregister_family,
)

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "REGISTRY",
    "Family",
    "Lazy",
    "Record",
    "all_families",
    "builtin_families",
    "describe",
    "family_names",
    "family_of",
    "get_family",
    "register_family",
    "temporary_family",
    "unregister_family",
]
