"""Tic Tac Blitz's integer action encoding: the one definition every consumer uses.

A seat's action at one ms is a code in ``range(num_actions(rules))``:

- ``0``: wait (always legal);
- ``1 + c``: place on cell ``c = row * size + col`` (R6);
- ``1 + cells + c``: knock out cell ``c`` (R9).

The native batched stepper (``blitz_core.blitz.rollouts.write_mask``) writes masks in
this layout; ``tests/test_one_source.py`` ties the two.

>>> action_code(None), action_code(Action.place((0, 1))), action_code(Action.knockout((0, 0)))
(0, 2, 37)
>>> decode_action(37)
Action(kind=<ActionKind.KNOCKOUT: 1>, cell=(0, 0))
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .rules import Rules
from .types import Action, ActionKind

__all__ = ["WAIT", "num_actions", "action_code", "decode_action"]

WAIT = 0
"""The code of waiting (no action this ms)."""


def num_actions(rules: Rules) -> int:
    """How many action codes there are for these rules: wait, place and knock out."""
    return 1 + 2 * rules.cells


def action_code(action: Optional[Action], size: int = 6) -> int:
    """An :class:`Action` (or None for wait) as an action code."""
    if action is None:
        return WAIT
    row, col = action.cell
    cell = row * size + col
    return 1 + cell + (size * size if action.kind == ActionKind.KNOCKOUT else 0)


def decode_action(code: int, size: int = 6) -> Optional[Action]:
    """An action code as an :class:`Action` (None for 0, wait).

    :raises ValueError: for a code outside ``[0, 1 + 2 * size * size)``.
    :raises TypeError: for a code that is not an integer.
    """
    cells = size * size
    if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
        raise TypeError(f"an action code is an integer, not {code!r}")
    if not 0 <= code <= 2 * cells:
        raise ValueError(f"action code {code!r} out of range [0, {2 * cells}]")
    code = int(code)
    if code == WAIT:
        return None
    if code <= cells:
        return Action.place(divmod(code - 1, size))
    return Action.knockout(divmod(code - 1 - cells, size))
