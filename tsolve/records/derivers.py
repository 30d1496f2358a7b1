"""Who computes a table's derived ``question`` and ``answer`` columns.

The columns (:mod:`tsolve.records.hub_columns`) come from each record's
family, but the records layer sits below the families and the family
contract (docs/architecture.md), so it cannot ask them itself. The layer that
knows the families installs the function here instead, once, when the
package is imported (``tsolve/__init__.py`` installs
:func:`tsolve.verifiers.derived_columns.derive`): Python always imports
``tsolve`` before any of its modules, so every reader and writer of a table
finds it installed. It is one visible plug-in point, not a cache: it holds a
function, never a result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: record -> {"question": ..., "answer": ...}: the values its family derives.
Deriver = Callable[[Mapping[str, Any]], dict[str, str]]
#: record's family name -> whether that family is installed here.
Installed = Callable[[str], bool]

_installed: list[tuple[Deriver, Installed]] = []


def install(derive: Deriver, installed: Installed) -> None:
    """Make ``derive`` the one deriver of table columns (replacing any before)."""
    _installed[:] = [(derive, installed)]


def derive(record: Mapping[str, Any]) -> dict[str, str]:
    """The derived column values of ``record`` ({} where none is installed)."""
    return _installed[0][0](record) if _installed else {}


def family_installed(name: str) -> bool:
    """Whether the family ``name`` can check a derived cell here."""
    return bool(_installed) and _installed[0][1](name)
