"""Tic Tac Blitz's RL info keys and reward shaping, shared by its faces
(:mod:`tictacblitz.envs.games.blitz`): :func:`step_info` (docs/rl.md), SAME_STEP's
:func:`final_step_info`, :class:`_Shaping` (potential-based, off by default) and
:func:`marks_potential`, an example potential."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np

from ._blitz_batched import BatchedMatches

__all__ = ["final_step_info", "marks_potential", "row_info", "step_info"]


def final_step_info(batch: BatchedMatches, seats: Sequence[int]) -> Dict[str, Any]:
    """SAME_STEP's ``final_info``: the info keys of the step an episode ended on. The
    step's own keys (``reason``, ``round_result``, ...) are the step's buffers; the
    state's (``round``, ``t``, ``round_wins``) are read back from the final scalars
    (their exact fractions of ``round_ms``, ``max_rounds`` and ``rounds_to_win``)."""
    out = step_info(batch, seats)
    rules = batch.rules
    sc = batch.buffer("final_scalars")
    rows = np.stack([sc[:, batch.observe.index(s)] for s in seats], axis=1)
    rows = rows.reshape(batch.num_envs * len(seats), -1).astype(np.float64)
    out["t"] = np.rint(rows[:, 8] * rules.round_ms).astype(np.int64)
    out["round"] = np.rint(rows[:, 11] * rules.max_rounds).astype(np.int64)
    out["round_wins"] = np.rint(rows[:, 9:11] * rules.rounds_to_win).astype(np.int64)
    return out


def step_info(
    batch: BatchedMatches, seats: Sequence[int], mask_in_info: bool = False
) -> Dict[str, Any]:
    """The info keys every face shares (docs/rl.md), as arrays over (env, seat) rows:
    ``round``, ``t``, ``round_wins`` (own, opponent), ``reason`` (-1 no action, 0
    accepted, else the R7 code), ``rejected``, ``round_result``, ``match_result``; and
    ``action_mask`` when the mask travels in the info."""
    state = batch.state_info()  # fresh arrays (the native batch's info_arrays)
    n, k = batch.num_envs, len(seats)
    seats = list(seats)
    info = batch.info
    # The rows in (env, seat) order; with one seat, the arrays as they are (this runs at
    # every step of every face: no np.repeat of one).
    wins = state["round_wins"][:, [i for s in seats for i in (s, 1 - s)]]  # own first
    reasons = info["reasons"][:, seats].astype(np.int64).reshape(n * k)
    rounds, t = state["round"], state["t"]
    if k > 1:
        rounds, t = rounds.repeat(k), t.repeat(k)
    out: Dict[str, Any] = {
        "round": rounds,
        "t": t,
        "round_wins": wins.reshape(n * k, 2),
        "reason": reasons,
        "rejected": reasons > 0,
        "round_result": info["round_result"].repeat(k).astype(np.int64, copy=False),
        "match_result": info["match_result"].repeat(k).astype(np.int64, copy=False),
    }
    if mask_in_info:
        out["action_mask"] = batch.buffer("masks")[:, seats].reshape(n * k, -1).view(np.int8).copy()
    return out


def row_info(rows: Dict[str, Any], i: int, mask_in_info: bool) -> Dict[str, Any]:
    """Row i of a vector env's :func:`step_info` as a one-match face's info (Python
    scalars; ``round_wins`` a tuple, own first): ``BlitzEnv``'s and the PettingZoo env's."""
    info: Dict[str, Any] = {
        "round": int(rows["round"][i]),
        "t": int(rows["t"][i]),
        "round_wins": tuple(int(w) for w in rows["round_wins"][i]),
        "reason": int(rows["reason"][i]),
        "rejected": bool(rows["rejected"][i]),
        "round_result": int(rows["round_result"][i]),
        "match_result": int(rows["match_result"][i]),
    }
    if mask_in_info:
        info["action_mask"] = rows["action_mask"][i]
    return info


class _Shaping:
    """Potential-based shaping (Ng, Harada & Russell 1999): ``gamma * phi(s') - phi(s)``
    added to the reward, with phi = 0 at an episode's end, so optimal policies are
    unchanged. ``potential(obs) -> (rows,)`` takes the rows' observation dict."""

    def __init__(self, potential: Callable, gamma: float) -> None:
        if not callable(potential):
            raise TypeError(f"shaping must be a callable obs -> potentials, not {potential!r}")
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"shaping_gamma must be in [0, 1], not {gamma!r}")
        self.potential, self.gamma = potential, gamma
        self.last: Optional[np.ndarray] = None

    def start(self, obs: Dict[str, np.ndarray], rows: Optional[np.ndarray] = None) -> None:
        phi = np.asarray(self.potential(obs), dtype=np.float64)
        if self.last is None or rows is None:
            self.last = phi.copy()
        else:
            self.last[rows] = phi[rows]

    def bonus(self, obs: Dict[str, np.ndarray], done: np.ndarray, fresh: np.ndarray) -> np.ndarray:
        """Per row: ``done`` = the episode ended in this step, ``fresh`` = this step
        began a new episode (NEXT_STEP auto-reset: no shaping across the boundary)."""
        phi = np.asarray(self.potential(obs), dtype=np.float64)
        nxt = np.where(done, 0.0, phi)
        last = phi if self.last is None else self.last
        bonus = np.where(fresh, 0.0, self.gamma * nxt - last)
        self.last = phi
        return bonus


def marks_potential(obs: Dict[str, np.ndarray]) -> np.ndarray:
    """A simple potential for :class:`_Shaping`: 0.1 * (own marks - opponent marks) /
    mark_limit, from the scalars (``own_marks``, ``opp_marks``)."""
    sc = obs["scalars"]
    return 0.1 * (sc[..., 12] - sc[..., 13])
