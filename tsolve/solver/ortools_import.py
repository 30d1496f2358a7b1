"""OR-Tools' ``cp_model`` without paying for pandas at start-up.

``ortools.sat.python.cp_model`` (9.x) runs ``import pandas as pd`` at module
level, for its ``*_series`` helpers and one type alias, and pandas costs
about 410 ms of a 530 ms import (and imports were 80 % of
``tsolve puzzle --solutions 3``). tsolve never uses the pandas helpers. So
:func:`load_cp_model` imports ``cp_model`` with a stand-in registered as
``pandas`` for the length of that one import, and takes it out of
``sys.modules`` again straight after. ``cp_model`` keeps the stand-in as its
``pd``; it is not a stub but a deferral: every attribute it is asked for
(``pd.Series(...)``, ``isinstance(x, pd.Index)``, ``pd.DataFrame``) is the
real pandas's, imported on that first use. So the ``*_series`` helpers still
work for anyone who calls them, they only pay for pandas when they do.

If pandas is already imported (a Parquet dataset run, a notebook), the real
module is used and nothing is stood in. ``tests/test_cli_startup.py`` checks
that ``tsolve puzzle`` loads no pandas and that ``cp_model``'s pandas helpers
still give real pandas objects.

The stand-in leaves ``cp_model``'s module-level names untouched except
``pd``; its type alias ``_IndexOrSeries`` (annotations only) names the
forwarding classes. Nothing outlives the import but that reference.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_CP_MODEL = "ortools.sat.python.cp_model"


def _real_pandas() -> types.ModuleType:
    """The real pandas, imported on first use (never while the stand-in is
    registered: then ``import pandas`` would return the stand-in itself)."""
    if isinstance(sys.modules.get("pandas"), _DeferredPandas):
        raise ImportError("pandas: asked for while cp_model is being imported")
    return importlib.import_module("pandas")


class _Forwarding(type):
    """A class whose instances, subclasses and calls are those of the real
    pandas class of the same name: what ``cp_model`` reads at import time
    (``Union[pd.Index, pd.Series]``) must exist before pandas does."""

    def real(cls) -> Any:
        return getattr(_real_pandas(), cls.__name__)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls.real())

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, cls.real())

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls.real()(*args, **kwargs)


class _DeferredPandas(types.ModuleType):
    """Stands in for ``pandas`` inside ``cp_model``: ``Index`` and ``Series``
    are forwarding classes (needed at import time), anything else is looked
    up on the real pandas when first asked for."""

    Index = _Forwarding("Index", (), {})
    Series = _Forwarding("Series", (), {})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_real_pandas(), name)


def load_cp_model() -> types.ModuleType:
    """``ortools.sat.python.cp_model``, imported without importing pandas
    (unless pandas is already loaded)."""
    loaded = sys.modules.get(_CP_MODEL)
    if loaded is not None:
        return loaded
    if "pandas" in sys.modules:
        return importlib.import_module(_CP_MODEL)
    stand_in = _DeferredPandas("pandas")
    sys.modules["pandas"] = stand_in
    try:
        return importlib.import_module(_CP_MODEL)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
