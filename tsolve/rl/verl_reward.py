"""The file verl's ``reward.custom_reward_function.path`` names: ``compute_score``.

verl loads a reward file by path and calls the function named by
``reward.custom_reward_function.name``; this file is that, with tsolve's scorer
(:func:`tsolve.rl.rewards.compute_score`)."""

from tsolve.rl.rewards import compute_score

__all__ = ["compute_score"]
