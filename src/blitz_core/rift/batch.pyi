"""Types of blitz_core.rift.batch (the batched RL stepper); see batch.pyx."""

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

OBSERVATION_SIZE: int
NUM_ACTIONS: int
NOOP: int
OFFSETS: Dict[str, int]

@disjoint_base
class RiftBatch:
    num_envs: int
    seat: int
    max_steps: int
    obs: npt.NDArray[np.float32]
    obs_other: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    masks_other: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float32]
    rewards_other: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.int8]
    reasons_other: npt.NDArray[np.int8]
    steps: npt.NDArray[np.int32]
    winners: npt.NDArray[np.int8]
    autoreset: bool
    def __init__(
        self,
        num_envs: int,
        rules: Sequence[int],
        bot_spec: Tuple[int, float, int],
        seat: int = 0,
        max_steps: int = 0,
        num_threads: Optional[int] = None,
    ) -> None: ...
    def set_threads(self, num_threads: Optional[int] = None) -> None: ...
    @property
    def num_threads(self) -> int: ...
    def set_bot(self, bot_spec: Tuple[int, float, int]) -> None: ...
    def reset(self, seeds: npt.ArrayLike, idx: Optional[npt.ArrayLike] = None) -> None: ...
    def step(self, actions: npt.ArrayLike, reset_seeds: npt.ArrayLike) -> None: ...
    def step_joint(
        self,
        x_actions: npt.ArrayLike,
        o_actions: npt.ArrayLike,
        reset_seeds: Optional[npt.ArrayLike] = None,
    ) -> None: ...
    def done(self) -> npt.NDArray[np.bool_]: ...
    def locked(self, i: int) -> Tuple[Optional[int], Optional[int]]: ...
    def state_bytes(self, i: int) -> bytes: ...
    def sample_actions(self, seed: int) -> npt.NDArray[np.int64]: ...
    def get_state(self) -> Dict[str, Any]: ...
    def set_state(self, state: Dict[str, Any]) -> None: ...
