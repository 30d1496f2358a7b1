"""The files shipped in ``tsolve/calendars/data/`` (listed, with their sources,
in that folder's README.md).

They are found next to this module, so in an installed wheel as in a source
checkout, offline, and never from the working directory. A plain file read is
the path every install takes (``importlib.resources`` and the readers it
loads cost ~5 ms of the first puzzle's start-up, docs/startup.md); only a
package that is not on the file system (imported from a zip archive) reads
through :mod:`importlib.resources`.
"""

from __future__ import annotations

import os

_PACKAGE = "tsolve.calendars"
_FOLDER = "data"
_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), _FOLDER)


def data_text(filename: str) -> str:
    """The UTF-8 text of ``tsolve/calendars/data/<filename>``."""
    try:
        with open(os.path.join(_HERE, filename), encoding="utf-8") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        if os.path.isdir(_HERE):  # on the file system, and no such file
            raise
    from importlib import resources

    return resources.files(_PACKAGE).joinpath(_FOLDER).joinpath(filename).read_text("utf-8")
