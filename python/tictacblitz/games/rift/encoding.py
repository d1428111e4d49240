"""Rift & Grid's one integer action encoding (a move of G3: a target cell and an ability).

``code = 81 * ability + cell`` with ``cell`` in 0-80 (G1's ids) and ``ability`` the
:class:`~.types.Ability` value (none 0, shield 1, swap 2, reveal 3): 324 codes. The first
81 codes are the plain moves, so ``code % 81`` is always the target and ``code // 81``
the ability. The native core (``blitz_core.rift.engine``) writes legal masks in this
layout; a test ties the two.

>>> encode(40, Ability.SHIELD), decode(121)
(121, (40, <Ability.SHIELD: 1>))
>>> action_to_string(121), action_to_string(5)
('shield@40', 'place@5')
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

from .types import CELLS, Ability

__all__ = ["NUM_ACTIONS", "encode", "decode", "check_code", "action_to_string"]

NUM_ACTIONS = CELLS * len(Ability)


def encode(cell: int, ability: Ability = Ability.NONE) -> int:
    """The code of a move. :raises ValueError: for a cell outside 0-80."""
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)):
        raise TypeError(f"a cell is an integer 0-80, not {cell!r}")
    if not 0 <= cell < CELLS:
        raise ValueError(f"cell {cell!r} outside 0-80")
    return CELLS * int(Ability.parse(ability)) + int(cell)


def check_code(code: object) -> int:
    """``code`` as a plain int after checking it is one.

    :raises TypeError: for a non-integer; :raises ValueError: outside ``[0, 324)``.
    """
    if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
        raise TypeError(f"an action code is an integer, not {code!r}")
    if not 0 <= code < NUM_ACTIONS:
        raise ValueError(f"action code {code!r} out of range [0, {NUM_ACTIONS})")
    return int(code)


def decode(code: object) -> Tuple[int, Ability]:
    """``(cell, ability)`` of a code (checked as :func:`check_code` does)."""
    ability, cell = divmod(check_code(code), CELLS)
    return cell, Ability(ability)


def action_to_string(code: object) -> str:
    """``"place@40"`` for a plain move, ``"shield@40"`` with an ability."""
    cell, ability = decode(code)
    return f"{'place' if ability == Ability.NONE else ability.key}@{cell}"
