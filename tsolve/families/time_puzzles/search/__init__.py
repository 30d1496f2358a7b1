"""The time-puzzle search (Algorithms 1-3 of the Time Puzzles paper) over the
facts' packed domain masks: :class:`~.core.PuzzleSearch` runs one puzzle's
loop; :mod:`.plan` holds what a config fixes, :mod:`.windows` and
:mod:`.pools` a seed's candidates and their masks, :mod:`.default` and
:mod:`.minimal` the two ways of choosing a set, :mod:`.contradiction` the
zero-answer puzzles."""

from tsolve.families.time_puzzles.search.core import Found, PuzzleSearch

__all__ = ["Found", "PuzzleSearch"]
