"""Images and info for the protocol environments, from the protocol only.

:func:`observation_rgb` draws any game's observation tensor as an RGB picture with NumPy
(no other dependency): a ``(planes, rows, cols)`` tensor becomes a grid of cells, each
coloured by a blend of its planes' colours; a flat vector becomes a strip of cells.

>>> import numpy as np
>>> observation_rgb(np.zeros((15, 3, 3), np.float32)).shape
(72, 72, 3)
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

__all__ = ["observation_rgb", "reason_code", "common_info", "CELL_PX"]

CELL_PX = 24

_PALETTE = np.array(
    [
        [40, 90, 200],
        [120, 160, 230],
        [210, 60, 50],
        [235, 140, 130],
        [80, 70, 60],
        [30, 30, 30],
        [80, 200, 230],
        [250, 190, 40],
        [160, 80, 200],
        [60, 170, 90],
        [200, 120, 40],
        [100, 100, 100],
        [20, 120, 120],
        [180, 180, 60],
        [140, 40, 90],
    ],
    np.float32,
)
_BACKGROUND = np.array([238, 236, 228], np.float32)


def observation_rgb(obs: np.ndarray, cell_px: int = CELL_PX) -> np.ndarray:
    """An observation tensor as a uint8 ``(H, W, 3)`` image (see the module)."""
    obs = np.asarray(obs, dtype=np.float32)
    if obs.ndim == 1:
        width = int(np.ceil(np.sqrt(obs.size)))
        grid = np.zeros(width * width, np.float32)
        grid[: obs.size] = obs
        obs = grid.reshape(1, width, width)
    elif obs.ndim == 2:
        obs = obs[None]
    elif obs.ndim > 3:
        obs = obs.reshape((-1,) + obs.shape[-2:])
    k = obs.shape[0]
    colours = _PALETTE[np.arange(k) % len(_PALETTE)]
    weights = np.clip(np.abs(obs), 0.0, 1.0)  # (k, rows, cols)
    total = weights.sum(axis=0)
    mixed = np.einsum("krc,kd->rcd", weights, colours) / np.maximum(total, 1e-9)[..., None]
    alpha = np.clip(total, 0.0, 1.0)[..., None]
    cells = _BACKGROUND * (1.0 - alpha) + mixed * alpha
    img = np.repeat(np.repeat(cells, cell_px, 0), cell_px, 1).astype(np.uint8)
    img[::cell_px, :] = 150
    img[:, ::cell_px] = 150
    img[-1, :] = 150
    img[:, -1] = 150
    return img


def reason_code(reasons: Tuple[str, ...], reason: Optional[str], acted: bool = True) -> int:
    """The info's ``reason`` code: -1 no action, 0 accepted, else the 1-based position
    of the rejection in ``reasons`` (the game's ``GameType.reasons``: its contract's
    checking order), or 1 for a reason not listed there."""
    if not acted:
        return -1
    if reason is None:
        return 0
    return reasons.index(reason) + 1 if reason in reasons else 1


def common_info(
    state: Any, seat: int, reason: Optional[str], acted: bool, steps: int
) -> Dict[str, Any]:
    """The info keys every face shares (docs/rl.md): ``round``, ``t`` (the game's clock
    in ms for a real-time game, else the steps played), ``round_wins`` (one entry a
    seat: own first, then the others in turn order from the next seat; zeros for a game
    without rounds), ``reason`` (code), ``rejected`` (the reason string or None),
    ``steps``."""
    summary = state.summary()
    names = state.game.seat_names
    order = [names[(seat + k) % len(names)] for k in range(len(names))]
    wins = (0,) * len(names)
    if all(isinstance(summary.get(n), dict) and "round_wins" in summary[n] for n in names):
        wins = tuple(int(summary[n]["round_wins"]) for n in order)
    return {
        "round": int(summary.get("round", 1)),
        "t": int(getattr(state, "t", steps)),
        "round_wins": wins,
        "reason": reason_code(state.game.type.reasons, reason, acted),
        "rejected": reason,
        "steps": steps,
    }
