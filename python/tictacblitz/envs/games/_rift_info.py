"""What Rift & Grid's vector env (``rift.py``) and parallel env (``_rift_parallel.py``)
both read from the native batch: a step's info and the true global state (one place
for both, so the parallel face needs no import of the adapter's module)."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ...games.rift.types import Reason
from ..native.options import step_info

__all__ = ["REASONS", "info_of", "global_state"]

REASONS = tuple(r.value for r in Reason)


def info_of(reason: int, steps: int) -> Dict[str, Any]:
    """The protocol env's info of one step (:func:`~tictacblitz.envs.native.options.step_info`)."""
    return step_info(REASONS, reason, steps)


def global_state(batch: Any, i: int) -> np.ndarray:
    """Game i's true global state (PettingZoo's ``state()``): X's observation then O's,
    which together hold both seats' secret objectives (G12) and everything public."""
    x, o = (batch.obs, batch.obs_other) if batch.seat == 0 else (batch.obs_other, batch.obs)
    return np.concatenate([x[i], o[i]])
