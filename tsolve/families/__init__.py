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

from tsolve.contract import *  # noqa: F403  (the contract's names, as before)
from tsolve.contract import __all__ as __all__
