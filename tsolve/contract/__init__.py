"""The family contract: what a task family is (:mod:`.family`), what its
scorer returns (:mod:`.item`), where families are found (:mod:`.registry`) and
how another package's family is adapted (:mod:`.plugin`).

This is how families plug into the engine. Engine layers (datasets, verify,
audit, bench, stress) import this package and never a family: a built-in
family (``tsolve/families/<name>/``) and a third-party one register the same
way, and the engine sits below both.

Importing this package is cheap: declarations hold :class:`Lazy` references,
so nothing of a family's generator, scorer or solver is imported until used.
"""

from tsolve.contract.family import Command, Family, Lazy, Record
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
    "Command",
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
