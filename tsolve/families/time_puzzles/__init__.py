"""The ``time-puzzles`` family: every date that satisfies a set of facts (Time Puzzles).

A folder shaped like every built-in family (``docs/architecture.md``):
``family.py`` is the registration, exported here as ``FAMILY``.
"""

from tsolve.families.time_puzzles.family import FAMILY

__all__ = ["FAMILY"]
