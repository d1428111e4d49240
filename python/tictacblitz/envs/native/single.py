"""One game as a ``gymnasium.Env``: a game's native vector env with one row
(:class:`NativeSingleEnv`), for the games' RL adapters (``envs/games/<name>.py``)."""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional, Sequence

import numpy as np

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError("the RL environments need gymnasium (pip install 'tictacblitz[rl]')") from exc

from .options import action_code, render_game, step_info

__all__ = ["NativeSingleEnv"]


class NativeSingleEnv(gymnasium.Env):
    """One game against a bot as a ``gymnasium.Env``: the game's stepper with one env
    (``vector_type``, a :class:`NativeVectorEnv`). ``reset(seed=s)`` plays the game of
    seed ``s`` (as the protocol env's ``GameEnv.reset(seed=s)`` does).

    A game's options beyond the shared ones go to its vector env as they are;
    ``vector_options`` are the ones its single env always sets (Blitz's:
    ``autoreset_mode="disabled"``, docs/rl.md: an ended match then does nothing until
    ``reset()``, where a game whose stepper would restart it refuses the step)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}
    vector_type: type
    vector_options: ClassVar[Dict[str, Any]] = {}
    reasons: Sequence[str] = ()

    def __init__(
        self,
        *,
        opponent: Any = "random",
        seat: Any = 0,
        rules: Any = None,
        max_steps: Optional[int] = None,
        mask_in_info: bool = False,
        render_mode: Optional[str] = None,
        **options: Any,
    ) -> None:
        if opponent is None:
            raise ValueError(
                "a single-game env needs an opponent (a bot name or a callable), not None: "
                "self-play is the vector env's opponent=None"
            )
        self.vec = self.vector_type(
            1,
            opponent=opponent,
            seat=seat,
            rules=rules,
            max_steps=max_steps,
            mask_in_info=mask_in_info,
            num_threads=1,
            render_mode=render_mode,
            copy=False,  # the vector env's buffers: _one copies row 0 alone
            **options,
            **self.vector_options,
        )
        if self.vec.num_envs != 1:  # e.g. Blitz's seat="both" (self-play)
            raise ValueError(f"a single-game env plays one seat, not seat={seat!r}")
        self._idle_after_end = self.vec.autoreset_mode.name == "DISABLED"
        self.render_mode = render_mode
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space
        self.seat, self.rules = self.vec.seat, self.vec.rules
        self._over = True

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        match_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63))
        obs, rows = self.vec.reset(seed=[match_seed])
        self._over = False
        return self._one(obs), self._info(rows)

    def step(self, action: Any):
        """:raises TypeError: for an action that is not an integer code; ValueError: for
        a code outside the action space (each in one line naming it)."""
        if self._over and not self._idle_after_end:
            raise RuntimeError("the episode is over: call reset()")
        code = action_code(action, self.vec.num_actions)
        obs, rewards, terminated, truncated, rows = self.vec.step(np.array([code]))
        self._over = bool(terminated[0] or truncated[0])
        return (
            self._one(obs),
            float(rewards[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            self._info(rows),
        )

    def _one(self, obs: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        return {k: v[0].copy() for k, v in obs.items()}

    def _info(self, rows: Dict[str, Any]) -> Dict[str, Any]:
        """The step's info (``rows``: the vector env's, which a game with info keys of
        its own reads row 0 of; the default is the protocol env's turn-based info)."""
        b = self.vec.batch
        info = step_info(self.reasons, int(b.reasons[0]), int(b.steps[0]), len(self.vec.seat_names))
        if self.vec.mask_in_info:
            info["action_mask"] = b.masks[0].copy()
        return info

    def action_masks(self) -> np.ndarray:
        return np.asarray(self.vec.action_masks()[0])

    @property
    def opponent(self) -> Any:
        return self.vec.opponent

    def set_opponent(self, opponent: Any) -> None:
        self.vec.set_opponent(opponent)

    def get_state(self) -> Dict[str, Any]:
        """A snapshot (the game, its streams, ``np_random``) that :meth:`set_state`
        resumes identically (issue 28)."""
        return {"vec": self.vec.get_state(), "over": self._over, "np_random": self._np_state()}

    def set_state(self, state: Dict[str, Any]) -> None:
        self.vec.set_state(state["vec"])
        self._over = state["over"]
        if state["np_random"] is not None:
            self.np_random.bit_generator.state = state["np_random"]

    def _np_state(self) -> Any:
        return None if self._np_random is None else self.np_random.bit_generator.state

    @property
    def match_seed(self) -> int:
        return int(self.vec.episode_seeds[0])

    def render(self) -> Any:
        """``ansi``: the game as text; ``rgb_array``: its image (a game that draws one)."""
        return render_game(self.vec, self.render_mode)
