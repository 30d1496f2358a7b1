"""Adapters to third-party training and evaluation libraries.

Each module here speaks one outside library's conventions over tsolve's own
facade (:mod:`tsolve.facade`) and family registry, and imports that library
only when it is used, so ``import tsolve`` never needs it:

* :mod:`~tsolve.adapters.reasoning_gym`: typed configs and the registration in
  reasoning-gym's registry; :mod:`~tsolve.adapters.reasoning_gym_classes`:
  the dataset class and curricula (they subclass reasoning-gym's own);
* :mod:`~tsolve.adapters.verifiers_taskset`: a taskset for PrimeIntellect's
  ``verifiers`` (``verifiers.v1``), loaded by id through ``tsolve_taskset``;
* :mod:`~tsolve.adapters.lm_eval`: an lm-evaluation-harness task folder.

docs/rl.md shows each one in use.
"""
