"""Pictures of the board for ``render()``: an RGB image drawn with NumPy only, and text.

>>> import numpy as np
>>> from tictacblitz.envs.games._blitz_render import board_rgb
>>> board_rgb(np.zeros((12, 6, 6), np.float32)).shape
(144, 144, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["board_rgb", "board_ansi", "CELL_PX"]

CELL_PX = 24
"""Pixels per cell side of :func:`board_rgb`."""

_BACKGROUND = np.array([238, 236, 228], np.float32)
_GRID = np.array([150, 150, 150], np.uint8)
_X = np.array([40, 90, 200], np.float32)  # own = X in X's planes
_O = np.array([210, 60, 50], np.float32)
_CRATER = np.array([80, 70, 60], np.float32)
_POWERUPS = np.array(
    [
        [30, 30, 30],  # bomb, freeze, haste, swap (planes 5-8)
        [80, 200, 230],
        [250, 190, 40],
        [160, 80, 200],
    ],
    np.float32,
)


def _blend(img: np.ndarray, where: np.ndarray, colour: np.ndarray, alpha) -> None:
    a = (where * alpha)[..., None]
    img[:] = img * (1.0 - a) + colour * a


def board_rgb(planes: np.ndarray, cell_px: int = CELL_PX) -> np.ndarray:
    """X's ``planes`` (12, size, size) of one match as a uint8 (H, W, 3) image.

    Set marks are solid (X blue, O red), setting marks pale, filling in as they set
    (plane 9); craters dark; powerups a coloured square in the cell centre (bomb black,
    freeze cyan, haste amber, swap violet); the marks next to retire (R12) ringed.
    """
    planes = np.asarray(planes, dtype=np.float32)
    size = planes.shape[-1]
    cells = np.broadcast_to(_BACKGROUND, (size, size, 3)).copy()
    progress = planes[9]
    _blend(cells, planes[0], _X, 1.0)
    _blend(cells, planes[1], _X, 0.25 + 0.5 * progress)
    _blend(cells, planes[2], _O, 1.0)
    _blend(cells, planes[3], _O, 0.25 + 0.5 * progress)
    _blend(cells, planes[4], _CRATER, 1.0)
    img = np.repeat(np.repeat(cells, cell_px, 0), cell_px, 1)
    inner = np.zeros((cell_px, cell_px), np.float32)
    q = cell_px // 3
    inner[q : cell_px - q, q : cell_px - q] = 1.0
    ring = np.zeros((cell_px, cell_px), np.float32)
    ring[2:4, 2:-2] = ring[-4:-2, 2:-2] = ring[2:-2, 2:4] = ring[2:-2, -4:-2] = 1.0
    for k in range(4):
        _blend(img, np.kron(planes[5 + k], inner), _POWERUPS[k], 1.0)
    _blend(img, np.kron(np.maximum(planes[10], planes[11]), ring), np.zeros(3, np.float32), 0.8)
    out = np.clip(img, 0, 255).astype(np.uint8)
    out[::cell_px, :] = _GRID
    out[:, ::cell_px] = _GRID
    out[-1, :] = _GRID
    out[:, -1] = _GRID
    return out


def board_ansi(match: Any) -> str:
    """One match as text: a status line, then ``Match.board_text``."""
    wins = match.round_wins
    return f"round {match.round} t={match.t} wins X {wins[0]} O {wins[1]}\n" + "\n".join(
        match.board_text()
    )
