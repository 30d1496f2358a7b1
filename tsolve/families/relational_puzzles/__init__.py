"""The ``relational-puzzles`` family: several events, one or more unknown dates.

A folder shaped like every built-in family (``docs/architecture.md``):
``family.py`` is the registration, exported here as ``FAMILY``.
"""

from tsolve.families.relational_puzzles.family import FAMILY

__all__ = ["FAMILY"]
