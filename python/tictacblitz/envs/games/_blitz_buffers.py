"""The in-place buffers of Tic Tac Blitz's native batch (:class:`BatchBuffers`, a base
of :class:`~tictacblitz.envs.games._blitz_batched.BatchedMatches`): observation, mask,
reward, flag and info arrays that every native step overwrites."""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from ...games.base import check_count

__all__ = ["BatchBuffers"]


class BatchBuffers:
    """Read-only views of the native stepper's buffers (``_native``), by name."""

    _native: Any
    obs_mode: str

    @property
    def num_threads(self) -> int:
        return self._native.num_threads

    @num_threads.setter
    def num_threads(self, value: Optional[int]) -> None:
        check_count(value, "num_threads", optional=True)
        self._native.num_threads = value

    @property
    def interval_ms(self) -> int:
        return self._native.interval_ms

    @property
    def planes(self) -> Optional[np.ndarray]:
        return self._native.planes

    @property
    def bits(self) -> Optional[np.ndarray]:
        return self._native.bits

    @property
    def scalars(self) -> np.ndarray:
        return self._native.scalars

    @property
    def masks(self) -> Optional[np.ndarray]:
        return self._native.masks

    @property
    def rewards(self) -> np.ndarray:
        return self._native.rewards

    @property
    def terminated(self) -> np.ndarray:
        return self._native.terminated

    @property
    def truncated(self) -> np.ndarray:
        return self._native.truncated

    @property
    def observation(self) -> Dict[str, np.ndarray]:
        """The in-place buffers, by name: ``planes`` or ``bits``, ``scalars``,
        ``action_mask`` (if masks are on). Indexed [env, k, ...] for the k-th seat of
        ``observe`` (by default both: [env, seat, ...])."""
        out = {self.obs_mode: getattr(self._native, self.obs_mode), "scalars": self._native.scalars}
        if self._native.masks is not None:
            out["action_mask"] = self._native.masks
        return out

    @property
    def info(self) -> Dict[str, np.ndarray]:
        """The in-place per-step info: ``round_result`` / ``match_result`` (0 X, 1 O,
        2 draw, -1 none ended this step), ``reasons`` (N, 2: -1 no action, 0 accepted,
        else the R7 rejection code); with SAME_STEP also ``final_ended`` and the final
        observation buffers (``final_planes``/``final_bits``, ``final_scalars``)."""
        n = self._native
        out: Dict[str, np.ndarray] = {
            "round_result": n.round_result,
            "match_result": n.match_result,
            "reasons": n.reasons,
        }
        if n.final_ended is not None:
            out["final_ended"] = n.final_ended
            out["final_" + self.obs_mode] = getattr(n, "final_" + self.obs_mode)
            out["final_scalars"] = self.buffer("final_scalars")
        return out

    def buffer(self, name: str) -> np.ndarray:
        """A buffer that this batch's options keep (``planes``, ``bits``, ``masks``, ...).

        :raises ValueError: for one the options leave out (``masks=False``, ...)."""
        out = getattr(self._native, name, None)
        if out is None:
            raise ValueError(f"this batch keeps no {name!r} buffer (see its options)")
        return out

    @property
    def state_bytes(self) -> int:
        """Native bytes per env besides the observation buffers."""
        return self._native.state_bytes
