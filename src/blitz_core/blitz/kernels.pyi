"""Types of blitz_core.blitz.kernels (batch R10/R20 kernels over NumPy uint64 boards)."""

import numpy as np
import numpy.typing as npt

def has_line_batch(
    boards: npt.NDArray[np.uint64], *, size: int = 6, line_length: int = 4
) -> npt.NDArray[np.bool_]: ...
def lowest_line_batch(
    boards: npt.NDArray[np.uint64], *, size: int = 6, line_length: int = 4
) -> npt.NDArray[np.uint64]: ...
def timeout_score_batch(
    own: npt.NDArray[np.uint64],
    opponent: npt.NDArray[np.uint64],
    *,
    size: int = 6,
    line_length: int = 4,
) -> npt.NDArray[np.int8]: ...
