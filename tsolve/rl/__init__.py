"""Where RL trainers train: TRL, verl and OpenRLHF rows, rewards and a curriculum.

* :mod:`tsolve.rl.gold`: the compact ground truth a row carries and the
  metrics read from it (the family contract's ``compact_gold`` and
  ``score_compact``);
* :mod:`tsolve.rl.rewards`: :func:`trl_reward`, :func:`trl_reward_async`,
  :func:`compute_score` (verl) and :func:`reward_func` (OpenRLHF), each the
  number ``tsolve verify`` reports;
* :mod:`tsolve.rl.rows` and :mod:`tsolve.rl.export`: ``tsolve export
  trl|verl|openrlhf``;
* :mod:`tsolve.rl.server`: ``tsolve serve-rewards``;
* :mod:`tsolve.rl.curriculum`: :class:`Curriculum`;
* :mod:`tsolve.rl.trl_curriculum`: ``CurriculumCallback``, a curriculum wired
  to TRL (imported on its own: it loads transformers when installed).

docs/rl.md shows each with a command that runs as written.
"""

from tsolve.rl.curriculum import Curriculum, equal_reward_filter
from tsolve.rl.gold import ground_truth
from tsolve.rl.rewards import compute_score, reward_func, trl_reward, trl_reward_async

__all__ = ["Curriculum", "compute_score", "equal_reward_filter", "ground_truth", "reward_func",
           "trl_reward", "trl_reward_async"]  # fmt: skip
