"""The file OpenRLHF's ``--reward.remote_url`` (before 0.11 ``--remote_rm_url``) may name.

OpenRLHF loads a ``.py`` reward file and calls its ``reward_func(queries,
prompts, labels)``; this file is that, with tsolve's scorer
(:func:`tsolve.rl.rewards.reward_func`)."""

from tsolve.rl.rewards import reward_func

__all__ = ["reward_func"]
