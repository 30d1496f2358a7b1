"""A dataset run's generator options, gathered from where a user gives them.

Three sources, later ones winning: a JSON file (``--config``), the options
with their own command-line flags, and ``--set KEY=VALUE``. Values stay as
given (JSON values or command-line text); the family's own parsers check them
when the run builds its config.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tsolve.contract import Family
from tsolve.errors import TsolveError
from tsolve.records import read_json_file


def read_options_file(path: str | Path) -> dict[str, Any]:
    """A JSON object of generator options (or a stress config's ``{"options": {...}}``)."""
    name = Path(path).name
    data = read_json_file(path, "config")
    if isinstance(data, dict) and isinstance(data.get("options"), dict):
        data = data["options"]
    if not isinstance(data, dict):
        raise TsolveError(f"config: {name} must hold a JSON object of generator options")
    return dict(data)


def parse_set(items: Iterable[str]) -> dict[str, str]:
    """``--set KEY=VALUE`` items -> ``{KEY: VALUE}`` (values stay text)."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise TsolveError(f"set: expected KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def gather_options(
    fam: Family,
    config: str | Path | None = None,
    flags: Mapping[str, Any] | None = None,
    sets: Iterable[str] = (),
) -> dict[str, Any]:
    """``config``'s options, then each flag that is not None (it must be an
    option of ``fam``), then the ``--set`` items."""
    options: dict[str, Any] = read_options_file(config) if config else {}
    for name, value in (flags or {}).items():
        if value is not None:
            if name not in fam.options:
                raise TsolveError(f"{name.replace('_', '-')}: not an option of family {fam.name}")
            options[name] = value
    options.update(parse_set(sets))
    return options
