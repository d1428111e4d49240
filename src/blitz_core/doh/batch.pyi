"""Types of blitz_core.doh.batch (the batched RL stepper); see batch.pyx."""

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

PLANES: int
NUM_ACTIONS: int
NOOP: int

_BotSpec = Tuple[int, float, int]

@disjoint_base
class DohBatch:
    num_envs: int
    pieces_per_size: int
    grid: int
    players: int
    rules: Tuple[int, ...]
    seat: int
    max_steps: int
    obs: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float64]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.int8]
    steps: npt.NDArray[np.int32]
    winners: npt.NDArray[np.int8]
    movers: npt.NDArray[np.int8]
    move_reasons: npt.NDArray[np.int8]
    autoreset: bool
    def __init__(
        self,
        num_envs: int,
        rules: Tuple[int, ...],
        bot_spec: Union[None, _BotSpec, Sequence[Optional[_BotSpec]]],
        seat: int,
        max_steps: int = 0,
        num_threads: Optional[int] = None,
    ) -> None: ...
    def set_threads(self, num_threads: Optional[int] = None) -> None: ...
    @property
    def num_threads(self) -> int: ...
    def set_bot(self, bot_spec: Union[None, _BotSpec, Sequence[Optional[_BotSpec]]]) -> None: ...
    def reset(self, seeds: npt.ArrayLike, idx: Optional[npt.ArrayLike] = None) -> None: ...
    def step(self, actions: npt.ArrayLike, reset_seeds: npt.ArrayLike) -> None: ...
    def position_keys(self) -> npt.NDArray[np.uint64]: ...
    def done(self) -> npt.NDArray[np.bool_]: ...
    def sample_actions(self, seed: int) -> npt.NDArray[np.int64]: ...
    def play(
        self,
        actions: npt.ArrayLike,
        active: npt.ArrayLike,
        reset_seeds: npt.ArrayLike,
        count_step: bool = True,
    ) -> None: ...
    def waiting(self) -> npt.NDArray[np.int8]: ...
    def to_move(self) -> npt.NDArray[np.int8]: ...
    def observe(
        self, seat: int, obs_out: npt.NDArray[np.float32], mask_out: npt.NDArray[np.int8]
    ) -> None: ...
    def get_state(self) -> Dict[str, Any]: ...
    def set_state(self, state: Dict[str, Any]) -> None: ...
