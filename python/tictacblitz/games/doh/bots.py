"""The bots of Tic Tac Doh: ``random``, ``greedy``, ``perfect`` and the presets.

Every bot is one native policy (``blitz_core.doh.solver``), so a bot plays the same
move in Python (:class:`DohBot`) and in the native match loop (:func:`play_matches`):

- ``random``: a uniformly random legal move;
- ``greedy``: a move that wins now (D7, or D9: the opponent is left without a move);
  else one that does not hand the opponent a win next move (the pieces are shared, so
  any two-in-a-line one leaves is the opponent's); among those, the one leaving the
  opponent the fewest replies that do not hand a win back (a cornered opponent first);
- ``perfect``: the solver's move: the best value, then the fastest win or the slowest
  loss (docs/doh.md, "The solver"); with 3 or 4 players, the best *paranoid* value of
  its seat (its seat against a coalition of all the others, issue 25), then the same;
- presets: ``easy`` = greedy, but 30 % of its moves random; ``medium`` = perfect, but
  30 % of its moves greedy's; ``hard`` = perfect, but 10 % of its moves greedy's.

Ties are broken at random. A bot's randomness for one decision is drawn from
``mix64(seed ^ mix64(key + golden))`` with ``key`` the position's 64-bit key: a pure
function of its seed and the position, whatever it saw before.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, cast

import numpy as np

from blitz_core.doh.engine import Position
from blitz_core.doh.solver import END_NAMES, KIND_CODES

from ..players import PlayerModel, player_model
from ..rng import check_seed, check_seeds
from .rules import DohRules
from .solver import solver_for, thread_solver
from .types import SEATS, SIZES

__all__ = [
    "BOT_SPECS",
    "BOT_NAMES",
    "GUI_LEVELS",
    "END_NAMES",
    "OPENINGS",
    "DohBot",
    "make_bot",
    "play_matches",
    "bot_spec",
    "opening_code",
]

# name -> (policy, error rate, policy of an error): the presets are mixtures.
BOT_SPECS: Dict[str, Tuple[str, float, str]] = {
    "random": ("random", 0.0, "random"),
    "easy": ("greedy", 0.3, "random"),
    "greedy": ("greedy", 0.0, "greedy"),
    "medium": ("perfect", 0.3, "greedy"),
    "hard": ("perfect", 0.1, "greedy"),
    "perfect": ("perfect", 0.0, "perfect"),
}
BOT_NAMES: Tuple[str, ...] = tuple(BOT_SPECS)
"""Weakest first (the order docs/doh.md's tournament measures)."""
GUI_LEVELS: Tuple[str, ...] = ("easy", "medium", "hard", "perfect")
"""The levels a player picks in the GUI, weakest first (the server's BOT_LEVELS): each
beats the one below in both seats (issue 23 item 3; measured by
``python -m tictacblitz.lab.ladder``, docs/bots.md, "The GUI ladder")."""


def bot_spec(name: object) -> Tuple[Any, ...]:
    """The native spec ``(kind, error, fallback)`` of a bot name or a player spec
    (``perfect:error=20%``: :mod:`.players`).

    :raises ValueError: for an unknown name (listing the known ones).
    """
    if isinstance(name, str) and name not in BOT_SPECS:
        model = _model()  # a player spec (issue 23): the model builds on BOT_SPECS
        if ":" in name or name in model.presets:
            return cast(Tuple[Any, ...], model.resolve(name))
    if not isinstance(name, str) or name not in BOT_SPECS:
        raise ValueError(f"unknown Doh bot {name!r}: expected one of {', '.join(BOT_NAMES)}")
    kind, error, fallback = BOT_SPECS[name]
    return (KIND_CODES[kind], error, KIND_CODES[fallback])


OPENINGS = tuple(s.letter for s in SIZES)  # S, M, L
"""The sizes a fixed opening may name, in the native code order (0, 1, 2)."""


def opening_code(opening: object) -> int:
    """The native code of a fixed first piece: -1 for None (the bot chooses), else the
    index of ``"S"``, ``"M"`` or ``"L"``. :raises ValueError: naming a bad value."""
    if opening is None:
        return -1
    if not isinstance(opening, str) or opening.upper() not in OPENINGS:
        raise ValueError(f"unknown opening {opening!r}: expected one of {', '.join(OPENINGS)}")
    return OPENINGS.index(opening.upper())


def _seed(seed: object) -> int:
    return check_seed(seed)


class DohBot:
    """A bot by name with a seed (the protocol's ``Bot``)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        self._spec = bot_spec(name)
        self.name = name
        self.seed = _seed(seed)

    def choose(self, state: object, player: int) -> Optional[int]:
        """The action ``player`` plays in ``state`` (a DohState or a native Position),
        or None when that seat may not move."""
        position = getattr(state, "position", state)
        if not isinstance(position, Position):
            raise TypeError(f"a Doh bot plays a DohState or Position, not {type(state).__name__}")
        seats = SEATS[: position.players]
        if isinstance(player, bool) or player not in range(len(seats)):
            named = ", ".join(f"{i} ({name})" for i, name in enumerate(seats))
            raise ValueError(f"unknown seat {player!r}: expected {named}")
        if position.over or position.to_move != player:
            return None
        rules = DohRules(
            pieces_per_size=position.pieces_per_size, grid=position.grid, players=position.players
        )
        return solver_for(rules).choose(position, self._spec, self.seed)

    def __repr__(self) -> str:
        return f"DohBot({self.name!r}, seed={self.seed})"


def make_bot(name: str, seed: int = 0) -> DohBot:
    return DohBot(name, seed)


def play_matches(
    rules: DohRules,
    seat_bots: Sequence[str],
    seeds: np.ndarray,
    opening: Optional[str] = None,
) -> Dict[str, np.ndarray]:
    """Whole games between bots, one name per seat (``rules.players`` of them, in seat
    order), natively without the GIL: game ``i`` has every bot seeded ``seeds[i]``
    (``make_bot(name, seeds[i])`` plays the same game in Python).
    ``opening`` (``"S"``, ``"M"`` or ``"L"``; None: the first bot's choice): the first
    move is a piece of that size (where does not matter, D2), whatever the bot would play.

    :returns: columns ``winner`` (the winning seat, -1 draw), ``moves`` (the game's
        length), ``first_piece`` (the first move's size: 0 S, 1 M, 2 L), ``end`` (how
        the game ended, an index of ``END_NAMES``: 0 ``line`` D7, 1 ``stash_empty`` D8,
        2 ``no_move`` D9) and ``kingmade`` (3-4 players: 1 when a game won by a line
        could have been stopped by the player who moved just before the winner, that
        is, that player had a legal move after which no line could be completed at once;
        always 0 with two players).
    :raises ValueError: for a wrong number of bots or an unknown name.
    """
    if not isinstance(rules, DohRules):
        rules = DohRules.from_dict(rules or {})
    seeds = check_seeds(seeds)
    if isinstance(seat_bots, str) or len(seat_bots) != rules.players:
        raise ValueError(
            f"one bot per seat: {rules.players} names for players={rules.players}, "
            f"not {seat_bots!r}"
        )
    specs = [bot_spec(name) for name in seat_bots]
    winner, moves, first, end, kingmade = thread_solver(rules).play_matches(
        specs, seeds.astype(np.uint64), opening_code(opening)
    )
    return {
        "winner": winner,
        "moves": moves,
        "first_piece": first,
        "end": end,
        "kingmade": kingmade,
    }


def _model() -> PlayerModel:
    """This game's player model (``.players``, found by the platform: it builds on this
    module, so importing it here would be a cycle)."""
    return cast(PlayerModel, player_model("doh"))
