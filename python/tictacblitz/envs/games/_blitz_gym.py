"""The single-agent Gymnasium environment ``tictacblitz/Blitz-v0``: one match against a bot.

>>> import gymnasium, tictacblitz.envs
>>> env = gymnasium.make("tictacblitz/Blitz-v0", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), sorted(info)[:4]
(['action_mask', 'planes', 'scalars'], ['match_result', 'reason', 'rejected', 'round'])
>>> obs, reward, terminated, truncated, info = env.step(0)       # wait 50 ms
>>> bool(obs["scalars"][8] > 0)                                 # the clock moved
True

The agent plays ``seat`` (X by default); the other seat is ``opponent``. One step is one
decision: the action at the current ms, then ``interval_ms`` of game time (docs/rl.md).
An episode is a whole match (R22), or a round with ``episode="round"``; its rewards are
the agent's (zero-sum).
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict

from ..native.single import NativeSingleEnv
from ._blitz_info import row_info

__all__ = ["BlitzEnv"]


class BlitzEnv(NativeSingleEnv):
    """One match of Tic Tac Blitz against a built-in bot, as a ``gymnasium.Env``: the
    shared :class:`~tictacblitz.envs.native.single.NativeSingleEnv` over
    :class:`~tictacblitz.envs.games.blitz.BlitzVectorEnv` with one match and auto-reset
    disabled (docs/rl.md: an ended match does nothing until ``reset()``).

    :param opponent: a bot name of ``tictacblitz.games.blitz.bots.PRESETS`` (``random``,
        the default, ``greedy``, ``search``, ``easy``, ``medium``, ``hard``), a
        ``BotSpec``, ``"wait"`` (all native), or a callable ``fn(obs, mask) -> actions``
        over a batch of one.
    :param seat: the agent's seat, ``"X"`` (the default) or ``"O"``.
    :param rules: a :class:`Rules` or a dict of its fields (default rules if None).
    :param interval_ms: game time per step (default 50).
    :param episode: ``"match"`` (default) or ``"round"``.
    :param round_reward / match_reward: see docs/rl.md (default 1 and 1).
    :param max_steps: truncate after this many steps (None: the match always ends).
    :param mask_in_info: the legal-action mask in ``info["action_mask"]`` instead of
        the observation (``action_masks()`` gives it either way).
    :param shaping: None (default) or a potential ``phi(obs) -> (1,)`` over a batch of
        one (see ``marks_potential``); adds ``shaping_gamma * phi(s') - phi(s)``.
    :param render_mode: None, ``"ansi"`` (the board as text) or ``"rgb_array"``.

    Other options of :class:`BlitzVectorEnv` (``random_powerups``, ``obs`` ...) pass on.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 20}
    vector_options: ClassVar[Dict[str, Any]] = {"autoreset_mode": "disabled"}
    # vector_type: BlitzVectorEnv, set where it is defined (envs/games/blitz.py)

    def _info(self, rows: Dict[str, Any]) -> Dict[str, Any]:
        """Row 0 of the vector env's info (docs/rl.md), as Python scalars."""
        return row_info(rows, 0, self.vec.mask_in_info)

    @property
    def batch(self) -> Any:
        """The native batch of one match (:class:`BatchedMatches`)."""
        return self.vec.batch

    def get_match(self):
        """A :class:`tictacblitz.Match` copy of the current state."""
        return self.vec.batch.get_match(0)
