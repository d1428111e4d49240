"""Tic Tac Doh: tic-tac-toe with one shared stash of pyramids on an imaginary 3x3 grid
(rules D1-D10, docs/doh.md).

Everything of this game on the Python side is in this folder:

- :mod:`.types`: sizes, square contents (D4, D5), rejection reasons (D6);
- :mod:`.rules`: :class:`DohRules`, the validated numbers of D1, D2 and D10;
- :mod:`.reference`: the plain-Python reference engine, the oracle of the native one;
- :mod:`.encoding`: the one integer action encoding (75 actions) and the observation;
- :mod:`.replay`: the replay file format (load, validate, play, result);
- :mod:`.solver`: the exact solver (native) and its values;
- :mod:`.bots`: random, greedy, perfect and the easy/medium/hard presets;
- :mod:`.game`: the adapter to the platform's Game/State protocol, and ``play_matches``.

The native core is ``blitz_core.doh``; it imports nothing from here. Importing this
package checks that the core's packed rule tables agree with :mod:`.types`.
"""

from blitz_core.doh import engine as _engine

from .rules import DohRules
from .types import CONTENTS, COUNTS_AS, PLACE_ONTO, REASONS, SIZES, Size


def _check_native_tables() -> None:
    """The core packs D4/D5 into constants; they must say what types.py says."""
    if tuple(_engine.CONTENTS) != CONTENTS or tuple(_engine.REASONS) != REASONS:
        raise ImportError("blitz_core.doh.engine's vocabulary differs from types.py")
    for code, (counts, pieces, onto, accepts) in enumerate(_engine.rule_tables()):
        text = CONTENTS[code]
        want_onto = {
            int(s): CONTENTS.index(PLACE_ONTO[(text, s)]) for s in SIZES if (text, s) in PLACE_ONTO
        }
        if (
            set(counts) != {int(s) for s in COUNTS_AS[text]}
            or set(pieces) != {int(s) for s in SIZES if s.letter in text}
            or onto != want_onto
            or set(accepts) != (set(want_onto) if text else set())
        ):
            raise ImportError(f"blitz_core.doh.engine's D4/D5 tables differ for {text!r}")


_check_native_tables()

__all__ = ["DohRules", "Size"]
