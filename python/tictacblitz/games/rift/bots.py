"""Rift & Grid's bots: the ``random`` and ``greedy`` policies and their presets.

The policies are native (``blitz_core.rift.engine``, ``nogil``), so a bot driven from
Python and a game of the native batch loop (``game.play_matches``) make the same
choices. A bot owns a SplitMix64 stream seeded with its seed; its choice is a pure
function of that stream and the state, so games replay exactly.

- ``random``: uniform over the legal action codes (every legal target with every
  usable ability);
- ``greedy``: per target cell, +100 to win a sector now (+50 if that also completes a
  meta line, G11), +60 to block the opponent's win there (+25 more in a sector that a
  revealed objective of the opponent needs), +2 per open line through the cell (+3
  more with an own symbol on it), and, as X (whose final target names the next sector,
  G9), -40 for a cell that sends the opponent to a sector it can win at once, +8 for
  one where X can, -6 for one that gives a free turn. Ties go to the bot's stream.
  Abilities are weighed against their price (issue 23, item 4): each usable one gets a
  value in the same units (a shield: the chance of a collision on the target, from
  the opponent's predicted greedy target, times what owning the cell is worth; a swap:
  taking a predicted block of its winning cell; a reveal: a fixed worth of knowing an
  objective) minus its energy cost and the idle gain forgone (G13, G14) at 9 units an
  energy point; the best positive one is played. So the rules' costs change its play.
- ``greedy_fixed``: greedy's target with the ability rules of before issue 23: shield
  when a collision is likely, else reveal whenever affordable, whatever the costs (kept
  to measure against, not a preset);
- ``lookahead``: predicts the opponent's greedy target; when that is a cell where it
  would win the sector (the opponent blocking it), it swaps from its best other cell
  and so takes it (G6.2); otherwise greedy's target and shield. It never reveals,
  keeping its energy for shields and swaps.
- ``search``: a simultaneous-move Monte Carlo tree search (SM-MCTS, decoupled UCT over
  joint moves; ``nogil`` in the native core) with a budget of ``simulations`` a
  decision. Each simulation first *determinizes* the opponent's hidden objectives: it
  draws them from what the searching seat's information set allows (distinct catalogue
  ids, none of the opponent's revealed or accomplished ones, none whose condition
  already holds), so the search never peeks at the real hand. At a node each seat
  considers at most 12 moves: its 6 best targets by greedy's score, the best 3 with
  shield, the best 2 with swap, the best with reveal (when usable). Leaves are played
  out to the end by a cheap rollout policy (win the active sector if possible, else
  block half the time, else a random target). The root move visited most is played.
- ``search_cut``: the same search whose rollouts stop after a few turns; the state is
  then scored by an evaluation (a logistic of the lead in points, open-sector threats
  and energy). Shorter, less noisy rollouts: stronger than ``search`` at a fraction of
  its cost (docs/rift.md, the ladder).
- presets ``easy``, ``medium``: greedy playing a uniformly random legal move with
  probability 0.5 and 0.2; ``hard``: ``search_cut`` with HARD_SIMULATIONS a decision;
  ``lookahead`` as a preset of its own.

>>> from tictacblitz.games.rift.game import make_game
>>> state = make_game().new_state(seed=3)
>>> bot = make_bot("greedy", seed=1)
>>> code = bot.choose(state, 0)
>>> bool(state.legal_mask(0)[code])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple, cast

from ..players import PlayerModel, player_model
from ..rng import check_seed
from .types import Player

__all__ = ["BotSpec", "PRESETS", "BOT_NAMES", "GUI_LEVELS", "RiftBot", "make_bot", "resolve_bot"]

KINDS = {
    "random": 0,
    "greedy": 1,
    "lookahead": 2,
    "search": 3,
    "search_cut": 4,
    "greedy_fixed": 5,
}
"""Policy names -> the native core's policy codes (BOT_RANDOM, BOT_GREEDY, BOT_LOOKAHEAD,
BOT_SEARCH, BOT_SEARCH_CUT, BOT_GREEDY_FIXED)."""
SEARCHES = ("search", "search_cut")
"""The policies that take a budget of simulations."""

HARD_SIMULATIONS = 1000
"""The ``hard`` preset's search budget: simulations a decision (docs/rift.md, the ladder).
Before issue 23, ``hard`` was ``search`` (full rollouts) with 2,000."""

MAX_SIMULATIONS = 1_000_000
"""The largest budget the native search takes (``engine.MAX_SIMULATIONS``)."""


@dataclass(frozen=True)
class BotSpec:
    """What a bot is: a native policy ``kind``, the chance ``error_rate`` of a
    uniformly random legal move instead of the policy's, and (``search`` only) its
    budget of ``simulations`` a decision."""

    kind: str
    error_rate: float = 0.0
    description: str = ""
    simulations: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown policy {self.kind!r}: expected one of {', '.join(KINDS)}")
        if isinstance(self.error_rate, bool) or not isinstance(self.error_rate, (int, float)):
            raise TypeError(f"error_rate={self.error_rate!r}: must be a number")
        if not 0.0 <= self.error_rate <= 1.0:
            raise ValueError(f"error_rate={self.error_rate!r}: must be from 0 to 1")
        if isinstance(self.simulations, bool) or not isinstance(self.simulations, int):
            raise TypeError(f"simulations={self.simulations!r}: must be an integer")
        if not 0 <= self.simulations <= MAX_SIMULATIONS:
            raise ValueError(
                f"simulations={self.simulations!r}: must be from 0 to {MAX_SIMULATIONS}"
            )
        if self.kind in SEARCHES and self.simulations < 1:
            raise ValueError("a search bot needs simulations >= 1")

    def native(self) -> Tuple[int, float, int]:
        """(policy code, error rate, simulations) as the native core takes them."""
        return KINDS[self.kind], float(self.error_rate), int(self.simulations)

    def to_dict(self) -> Dict[str, object]:
        out: Dict[str, object] = {"kind": self.kind, "error_rate": self.error_rate}
        if self.kind in SEARCHES:
            out["simulations"] = self.simulations
        return out


PRESETS: Dict[str, BotSpec] = {
    "random": BotSpec("random", description="a uniformly random legal move"),
    "easy": BotSpec("greedy", 0.5, description="greedy, half of its moves random"),
    "medium": BotSpec("greedy", 0.2, description="greedy, one move in five random"),
    "lookahead": BotSpec(
        "lookahead", description="greedy that answers the opponent's predicted block with a swap"
    ),
    "greedy": BotSpec(
        "greedy", description="win, block, steer the next sector; abilities priced in energy"
    ),
    "hard": BotSpec(
        "search_cut",
        simulations=HARD_SIMULATIONS,
        description=f"SM-MCTS, {HARD_SIMULATIONS:,} simulations a move, rollouts cut and scored",
    ),
}
"""The one table of bot names (what a GUI shows), weakest first."""

BOT_NAMES: Tuple[str, ...] = tuple(PRESETS)
GUI_LEVELS: Tuple[str, ...] = ("easy", "medium", "hard")
"""The levels a player picks in the GUI, weakest first (the server's BOT_LEVELS): each
beats the one below in both seats (issue 23 item 3; measured by
``python -m tictacblitz.lab.ladder``, docs/bots.md, "The GUI ladder")."""


def resolve_bot(name: object) -> BotSpec:
    """The spec of a preset name (or a BotSpec as is).

    :raises ValueError: for an unknown name, listing the known ones."""
    if isinstance(name, BotSpec):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a bot name is a string, not {name!r}")
    if name not in PRESETS:
        model = _model()  # a player spec (issue 23, item 1)
        if ":" in name or name in model.presets:
            return cast(BotSpec, model.resolve(name))
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return PRESETS[name]


class RiftBot:
    """A bot of the protocol: ``choose(state, player)`` -> an action code."""

    def __init__(self, name: str, seed: int = 0) -> None:
        self.spec = resolve_bot(name)
        self.name = name if isinstance(name, str) else self.spec.kind
        self.seed = check_seed(seed)
        self._rng = self.seed

    def choose(self, state, player: int) -> Optional[int]:
        """The code ``player`` plays now; None when the seat may not act (the game is
        over). Advances the bot's stream; ``state`` is unchanged."""
        seat = Player.parse(player)
        if state.is_over():
            return None
        kind, error, simulations = self.spec.native()
        code, self._rng = state.engine.core.choose(int(seat), kind, error, self._rng, simulations)
        return None if code < 0 else code

    def __repr__(self) -> str:
        return f"RiftBot({self.name!r}, seed={self.seed})"


def make_bot(name: str, seed: int = 0) -> RiftBot:
    """A bot by preset name. :raises ValueError: for an unknown name."""
    return RiftBot(name, seed)


def _model() -> PlayerModel:
    """This game's player model (``.players``, found by the platform: it builds on this
    module, so importing it here would be a cycle)."""
    return cast(PlayerModel, player_model("rift"))
