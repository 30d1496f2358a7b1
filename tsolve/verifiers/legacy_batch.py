"""The old ``tsolve.verifiers.batch``, until 0.2 (:mod:`tsolve.compat`):
:mod:`tsolve.verifiers.verify_batch`, plus :func:`verify_files`, which moved to
:mod:`tsolve.verifiers.verify_files` so that the two ways of verifying no longer
import each other."""

from tsolve.verifiers.verify_batch import *  # noqa: F403
from tsolve.verifiers.verify_batch import VerifyReport, verify
from tsolve.verifiers.verify_files import verify_files

__all__ = ["VerifyReport", "verify", "verify_files"]
