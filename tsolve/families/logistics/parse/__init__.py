"""UnSeenTimeQA English -> :class:`~tsolve.families.logistics.model.Scenario`
and :class:`~tsolve.families.logistics.model.Question`.

The benchmark renders each event with one of several templates per difficulty
(paper, Appendix C), and the real data adds wordings and typos the paper does
not list ("flys", "from09:51 AM", "a0at location", "thelocation"). Event
sentences are read in two tiers:

* a fast path (:mod:`.event_templates`): a sentence that is word for word one
  of the known templates (:mod:`tsolve.families.logistics.sentence_templates`, shared
  with the generator) is read by word positions, with no regular expression
  at all;
* the general reader for everything else (:mod:`.event_parts`), which reads a
  sentence by its *parts* rather than its wording: the words ``package``/
  ``truck``/``airplane``/``location`` are always followed by an identifier,
  ``unload`` decides between load and unload, "from location"/"to location"
  orient a move, clock times and "N minutes" give the timing. It takes any
  word order and every typo seen so far, and fails loudly (one line naming
  the sentence) on a sentence that lacks a part.

Both tiers give the same :class:`.event_text.EventText` on every template (the
tests check it), so the fast path changes the speed, not the answers.

The modules, from the words up: :mod:`.lexicon` (identifiers, sentence
splitting), :mod:`.event_text`, :mod:`.event_parts`, :mod:`.event_templates`,
:mod:`.events` (event lists on the time axis), :mod:`.world` (objects and
initial states), :mod:`.question` and :mod:`.item` (a whole benchmark item:
:func:`.item.parse_item`).
"""
