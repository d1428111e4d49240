"""Stable-Baselines3's ``VecEnv`` over any game's native vector env (issue 28 item 3).

:class:`SB3VecEnv` wraps a Gymnasium ``VectorEnv`` that has ``action_masks()`` and
Gymnasium 1.x's ``reset_mask`` (what :func:`tictacblitz.envs.make_vector_env` gives
for every game: Blitz's and Doh's/Rift's native batches, the generic one otherwise), so
SB3 and sb3-contrib's ``MaskablePPO`` step the whole batch in one call instead of N
single envs in Python:

>>> from tictacblitz.envs.sb3 import make_sb3_env
>>> venv = make_sb3_env("blitz", 8, opponent="easy", preset="tiny", seed=0)
>>> obs = venv.reset()
>>> obs.shape, venv.env_method("action_masks")[0].shape
((8, 206), (33,))

SB3 auto-resets in the same step: a row whose episode ended returns the next episode's
first observation, the last one in ``infos[i]["terminal_observation"]`` (and
``"TimeLimit.truncated"`` for a truncation). Over a SAME_STEP env the adapter takes it
from Gymnasium's ``final_obs``; over a NEXT_STEP or DISABLED one it resets the ended
rows with ``reset_mask`` right after the step. Needs stable-baselines3 (not a dependency
of tictacblitz: ``pip install stable-baselines3 sb3-contrib``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as exc:  # pragma: no cover - the optional extra is missing
    raise ImportError(
        "tictacblitz.envs.sb3 needs stable-baselines3 (pip install stable-baselines3)"
    ) from exc

__all__ = ["SB3VecEnv", "make_sb3_env"]

MASK_KEY = "action_mask"


def _box(space: Any, key: str) -> spaces.Box:
    if not isinstance(space, spaces.Box):
        raise TypeError(f"observation {key!r} is not a Box ({space!r}): use flatten=False")
    return space


class SB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over a Gymnasium ``VectorEnv`` with ``action_masks()``.

    :param env: the vector env (one learner seat a row).
    :param flatten: True (default): one float32 vector a row, the observation's arrays
        (all but ``action_mask``) flattened in key order, for ``"MlpPolicy"``; False:
        the dict without ``action_mask``, for ``"MultiInputPolicy"``.
    """

    def __init__(self, env: Any, *, flatten: bool = True) -> None:
        if not hasattr(env, "action_masks"):
            raise TypeError(f"{type(env).__name__} has no action_masks(): not a game's vector env")
        self.env = env
        self.flatten = flatten
        single = env.single_observation_space
        if not isinstance(single, spaces.Dict):
            raise TypeError(f"the vector env's observation is not a Dict, but {single!r}")
        self.keys = [k for k in single.spaces if k != MASK_KEY]
        obs_space: spaces.Space
        if flatten:
            boxes = [_box(single.spaces[k], k) for k in self.keys]
            low = np.concatenate([b.low.astype(np.float32).ravel() for b in boxes])
            high = np.concatenate([b.high.astype(np.float32).ravel() for b in boxes])
            obs_space = spaces.Box(low, high, low.shape, np.float32)
        else:
            obs_space = spaces.Dict({k: single.spaces[k] for k in self.keys})
        super().__init__(env.num_envs, obs_space, env.single_action_space)
        self._mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self._actions: Optional[np.ndarray] = None

    # -- observations ---------------------------------------------------------------------
    def _convert(self, obs: Dict[str, np.ndarray]) -> Union[np.ndarray, Dict[str, np.ndarray]]:
        """The rows' observation as SB3 takes it: a new array every call (SB3 keeps the
        last one while it asks for the next)."""
        if not self.flatten:
            return {k: np.array(obs[k]) for k in self.keys}
        n = len(obs[self.keys[0]])
        return np.concatenate(
            [np.asarray(obs[k]).reshape(n, -1).astype(np.float32, copy=False) for k in self.keys],
            axis=1,
        )

    def _row(self, obs: Dict[str, np.ndarray]) -> Union[np.ndarray, Dict[str, np.ndarray]]:
        """One row's observation dict (a final observation) in the same form."""
        batch = {k: np.asarray(obs[k])[None] for k in self.keys}
        out = self._convert(batch)
        return out[0] if isinstance(out, np.ndarray) else {k: v[0] for k, v in out.items()}

    # -- the VecEnv interface ---------------------------------------------------------------
    def reset(self):
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs, _ = self.env.reset(seed=seed, options=self._options[0] if self._options else None)
        self._reset_seeds()
        self._reset_options()
        return self._convert(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

    def step_wait(self):
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = np.logical_or(terminated, truncated)
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(dones)
        if self._mode == AutoresetMode.SAME_STEP:
            finals = info.get("final_obs")
            ended = np.flatnonzero(info.get("_final_obs", dones))
            for i in ended:  # Gymnasium's final_obs: a dict of rows (Dict spaces) or per row
                if isinstance(finals, dict):
                    row = {k: finals[k][i] for k in self.keys}
                else:
                    row = finals[i]
                infos[i]["terminal_observation"] = self._row(row)
        elif len(ended):
            for i in ended:
                infos[i]["terminal_observation"] = self._row({k: obs[k][i] for k in self.keys})
            obs, _ = self.env.reset(options={"reset_mask": dones.astype(bool)})
        for i in ended:
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return self._convert(obs), np.asarray(rewards, np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool (num_envs, n_actions): sb3-contrib's MaskablePPO reads it."""
        return np.asarray(self.env.action_masks(), dtype=bool)

    def close(self) -> None:
        self.env.close()

    def _indices(self, indices: Union[None, int, Iterable[int]]) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices=None) -> List[Any]:
        if attr_name == "action_masks":
            value = self.action_masks
        else:
            value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        """``action_masks`` gives each row's mask (what sb3-contrib stacks); any other
        method is the vector env's, called once, its result given to every row."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class, indices=None) -> List[bool]:
        return [False for _ in self._indices(indices)]


def make_sb3_env(
    game: str = "blitz", num_envs: int = 1, *, flatten: bool = True, **options: Any
) -> SB3VecEnv:
    """:func:`tictacblitz.envs.make_vector_env` (the game's native vector env) as an SB3
    ``VecEnv``; ``options`` go to the vector env (``opponent``, ``rules``, ``seed``,
    Blitz's ``preset``, ...)."""
    from . import make_vector_env

    return SB3VecEnv(make_vector_env(game, num_envs, **options), flatten=flatten)
