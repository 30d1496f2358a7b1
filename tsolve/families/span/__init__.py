"""The ``span`` family: SPAN-style cross-calendar questions.

A folder shaped like every built-in family (``docs/architecture.md``):
``family.py`` is the registration, exported here as ``FAMILY``.
"""

from tsolve.families.span.family import FAMILY

__all__ = ["FAMILY"]
