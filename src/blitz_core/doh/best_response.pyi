"""Types of blitz_core.doh.best_response (a policy's best response, layer by layer); see
best_response.pyx."""

from typing import Tuple

import numpy as np
import numpy.typing as npt

ONGOING: int
DRAW: int

def start_key(rules: Tuple[int, ...]) -> int: ...
def expand(
    keys: npt.ArrayLike, rules: Tuple[int, ...]
) -> Tuple[
    npt.NDArray[np.int8],
    npt.NDArray[np.int8],
    npt.NDArray[np.int64],
    npt.NDArray[np.int16],
    npt.NDArray[np.uint64],
]: ...
def observe(
    keys: npt.ArrayLike, rules: Tuple[int, ...], seat: int
) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
def backup(
    winner: npt.NDArray[np.int8],
    to_move: npt.NDArray[np.int8],
    offsets: npt.NDArray[np.int64],
    child_index: npt.NDArray[np.int64],
    probs: npt.NDArray[np.float64],
    next_values: npt.NDArray[np.float64],
    responder: int,
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]: ...
