"""Pictures of tsolve's records (the optional ``plot`` extra, matplotlib).

Each module splits a picture in two: a pure function that computes what to
draw from the solver (tested without matplotlib's help), and a ``draw_*``
function that renders it to a PNG or SVG file through :mod:`tsolve.plots.output`.
matplotlib is imported only there, when a picture is written, never when the
CLI starts.

* :mod:`~tsolve.families.logistics.plot`: a logistics schedule, one lane per vehicle and package;
* :mod:`~tsolve.families.time_puzzles.plot`: a time puzzle's facts and answers on a calendar strip;
* :mod:`~tsolve.families.relational_puzzles.plot`: a relational puzzle's dependency graph.
* :mod:`~tsolve.plots.conditions`: ``tsolve report --plot``'s overview of every panel the logs have;
* :mod:`~tsolve.plots.paper_tables` and :mod:`~tsolve.plots.paper_figures`: each paper's own
  table and figure from the report's rows (``--table NAME``, ``--figure NAME``);
* :mod:`~tsolve.plots.run_labels`: how a run and its condition are named in a legend or table;
  :mod:`~tsolve.plots.layout`: the report figures' print size and the checks that keep
  their texts apart.
"""
