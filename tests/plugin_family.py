"""The extending guide's example family, built as a separate installed package.

:func:`write_plugin` writes the package ``docs/extending.md`` walks through
("weekday arithmetic", family ``weekday``) into a folder, with the
``*.dist-info`` folder an installer would write (``METADATA`` and
``entry_points.txt`` for the group ``tsolve.families``), and returns the
folder. Put it on ``sys.path`` (in-process, then call
:func:`forget_entry_points`) or on ``PYTHONPATH`` (a subprocess) and
``importlib.metadata`` finds the family as an installed distribution: no pip,
no build backend, no network.

:data:`SOURCE` is the module exactly as the guide prints it
(``tests/test_plugin_commands.py`` checks that the guide holds it verbatim),
so the tests run the family a user builds from the guide alone.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NAME = "weekday"
"""The family's name (its entry point's name)."""

MODULE = "weekday_family"
DISTRIBUTION = "tsolve-weekday-family"
VERSION = "1.0"

SOURCE = '''\
# weekday_family.py
import datetime as dt
import random

from tsolve.verifiers.answer_parsing import LOOSE_MARKER, final_answer

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class WeekdayFamily:
    name = "weekday"        # required: the family's name on the command line
    version = "1"           # optional: bump it whenever record i of a run changes
    description = "Weekday arithmetic: the weekday some days after a date"
    curriculum = {"max_offset": [7, 30, 365, 3650]}   # optional: easiest first

    def generate(self, seed, index, params):      # required
        """Record `index` of run `seed`: a pure function of the three arguments."""
        rng = random.Random(f"weekday:{self.version}:{seed}:{index}")
        start = dt.date(1900, 1, 1) + dt.timedelta(days=rng.randrange(73049))
        offset = rng.randint(1, int(params.get("max_offset", 100)))
        end = start + dt.timedelta(days=offset)
        return {"id": f"weekday-{seed}-{index}",
                "question": (f"{start.isoformat()} was a {WEEKDAYS[start.weekday()]}. "
                             f"What day of the week was it {offset} days later?"),
                "answer": WEEKDAYS[end.weekday()],
                "offset": offset}

    answer_marker = "Answer:"  # optional: the line the prompt asks for

    def prompt(self, record):                      # optional
        """What a model is shown: the question, and how to answer it."""
        return record["question"] + ' End with a line "Answer: <weekday>".'

    def score(self, record, output):               # required
        """Metrics in [0, 1] for one model output, read by tsolve's one
        final-answer rule (docs/scoring.md): the answer line names one
        weekday, the right one (a hedge naming two scores 0); without the
        marker only a bare weekday counts (an echo of the question, which
        names a weekday too, scores 0)."""
        found = final_answer(output, LOOSE_MARKER)
        line = " ".join(found.lines).lower()
        named = {w for w in WEEKDAYS if w.lower() in line}
        if found.how == "bare" and line.strip(" .!") not in {w.lower() for w in WEEKDAYS}:
            named = set()
        return {"accuracy": float(named == {record["answer"]})}

    def difficulty(self, record):                  # optional
        """What makes this record hard (reasoning-gym's metadata.difficulty)."""
        return {"offset": record["offset"]}

    def audit(self, record):                       # optional
        """Is the gold the one answer? Re-derived from the question's own words."""
        words = record["question"].split()   # "<date> was a <weekday>. ... it <n> days later?"
        derived = WEEKDAYS[(WEEKDAYS.index(words[3].rstrip(".")) + int(words[-3])) % 7]
        if derived == record["answer"]:
            return {"verdict": "ok"}
        return {"verdict": "inconsistent", "detail": {"proof": f"the question gives {derived}"}}


FAMILY = WeekdayFamily()
'''

ENTRY_POINTS = f"[tsolve.families]\n{NAME} = {MODULE}:FAMILY\n"


def write_plugin(folder: Path | str) -> Path:
    """Write the installed package into ``folder`` (created if missing) and
    return the folder to put on ``sys.path`` / ``PYTHONPATH``."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{MODULE}.py").write_text(SOURCE, encoding="utf-8")
    info = root / f"{DISTRIBUTION.replace('-', '_')}-{VERSION}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: {VERSION}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    (info / "top_level.txt").write_text(MODULE + "\n", encoding="utf-8")
    return root


def subprocess_env(site: Path | str) -> dict[str, str]:
    """The environment a ``python -m tsolve`` subprocess needs to see the
    plug-in (and this checkout's tsolve first)."""
    paths = [str(site), os.getcwd(), os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in paths if p))


def forget_entry_points() -> None:
    """Make the in-process registry read the entry points again (and drop a
    plug-in family it had loaded), e.g. after :func:`installed`."""
    from tsolve.contract import registry

    reg = registry.REGISTRY
    for name in [n for n, f in reg.families.items() if f.origin != "built-in"]:
        reg.families.pop(name, None)
    reg.broken.clear()
    reg.entry_points_loaded = False


@contextmanager
def installed(folder: Path | str) -> Iterator[Path]:
    """The plug-in installed in-process for the ``with`` block: written into
    ``folder``, put first on ``sys.path``, and the registry made to reload
    its entry points on entry and on exit."""
    site = write_plugin(folder)
    sys.path.insert(0, str(site))
    forget_entry_points()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(MODULE, None)
        forget_entry_points()
