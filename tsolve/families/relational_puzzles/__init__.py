"""The ``relational-puzzles`` family, in one folder: Relational puzzles.

:mod:`.family` is its one registration (a :class:`~tsolve.families.Family`
of lazy parts); the other modules are its parts, named alike in every
built-in family (``generate``, ``solve``, ``score``, ``audit``,
``invariants``, ``bench``, ``plot``, ``parse/``). Importing this package
imports only the registration, so listing families stays cheap.
"""

from tsolve.families.relational_puzzles.family import FAMILY

__all__ = ["FAMILY"]
