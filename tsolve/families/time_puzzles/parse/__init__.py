"""Reading a date puzzle written in English back into facts.

``read_puzzle(text) -> PuzzleReading`` splits the text into sentences and
reads each one as one of the 16 Time Puzzles fact kinds
(:mod:`tsolve.encodings.facts`), or lists it as unread. It reads tsolve's
own renderings in both styles, plain paraphrases and user-written facts that
name a knowledge-base anchor; what is recognised is documented in
docs/puzzle-text.md.

Why here: :mod:`tsolve.parsing` is the layer that turns benchmark English into
tsolve's models (above ``encodings``, below ``solver``), and the time puzzles
are such a benchmark. It borrows the word patterns of :mod:`tsolve.claims`
(months, weekdays, numbers); claims are checked, facts are solved, so the two
grammars are separate.

Layout: ``sentences`` (text -> numbered sentences), ``instructions`` (the
prompt's own wording, questions), ``rendered`` (tsolve's renderings, derived
from each fact's ``render``), ``paraphrases`` (plain wordings),
``anchors`` (knowledge-base anchors by name), ``reader`` (``read_puzzle``).
"""

from __future__ import annotations

from tsolve.families.time_puzzles.parse.reader import PuzzleReading, ReadFact, Sentence, read_puzzle

__all__ = ["PuzzleReading", "ReadFact", "Sentence", "read_puzzle"]
