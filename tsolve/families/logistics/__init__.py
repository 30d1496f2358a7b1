"""The ``logistics`` family: UnSeenTimeQA-style logistics timelines.

A folder shaped like every built-in family (``docs/architecture.md``):
``family.py`` is the registration, exported here as ``FAMILY``.
"""

from tsolve.families.logistics.family import FAMILY

__all__ = ["FAMILY"]
