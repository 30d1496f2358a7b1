"""Names a package exports without importing them until first used (PEP 562).

``tsolve``, ``tsolve.solver``, ``tsolve.records``, ``tsolve.families.tempo``
and ``tsolve.families.tictoc`` export names whose modules are costly to import
(OR-Tools, NumPy, the record reader); importing the package, which every
``tsolve`` command and the family registry do, must not pay for them. The
table is plain data in the package; this is the one function that serves it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, exports: Mapping[str, tuple[str, str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``exports`` maps a name to
    ``(module, attribute)``, imported when the name is first asked for (an
    empty attribute: the module itself, for a submodule the package used to
    import eagerly)."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            module, attr = exports[name]
            loaded = importlib.import_module(module)
            return getattr(loaded, attr) if attr else loaded
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
