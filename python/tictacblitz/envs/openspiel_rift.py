"""Rift & Grid as the OpenSpiel game ``tictacblitz_rift`` (a pyspiel Python game).

Simultaneous moves (G3: both seats choose, then the turn resolves), imperfect
information (G12: secret objectives), zero-sum, two players. G12's deal is part of the
tree: the game starts with ``2 * objectives_per_player`` chance nodes, X's hand one
objective at a time, then O's, each draw uniform over the catalogue codes not yet in
that hand (the same distribution as the engine's seeded deal). Once dealt, each pyspiel
state holds a protocol :class:`RiftState` (the native engine) started with that deal;
a joint action is its ``apply_joint``, and returns are the protocol's.

Parameters: every integer rule (``energy_start``, ``objectives_per_player``, ...),
``rules`` (JSON: ``objectives``, ``objective_points``) and ``setup``: a starting grid
of 81 characters ``.XO#`` in grid rows (``/`` between rows allowed; ``""``: empty), as
in replay files, so that a solver can be given a small endgame.

Observers: the information state (perfect recall) is
:func:`~tictacblitz.games.rift.infostate.information_state_tensor` and its string; the
observation is the protocol's :meth:`RiftState.observation` and
:func:`~tictacblitz.games.rift.infostate.observation_string`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel

import tictacblitz.games.rift.infostate as hidden  # the game's hidden-information hook

from ..games import game_type
from .openspiel_base import load_rules_game, rule_parameters, wants_information_state

__all__ = ["NAME", "GAME_TYPE", "RiftSpielGame", "RiftSpielState", "parse_setup"]

NAME = "tictacblitz_rift"
_TYPE = game_type("rift")

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name=_TYPE.long_name,
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,  # G12's deal
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_TYPE.max_num_players,
    min_num_players=_TYPE.min_num_players,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={**rule_parameters("rift"), "setup": ""},
)

_SETUP_CHARS = frozenset(".XO#")


def parse_setup(text: str) -> Optional[Tuple[str, ...]]:
    """A ``setup`` parameter as 9 grid rows (None for ``""``).

    :raises ValueError: naming the text, unless it is 81 characters of ``.XO#``."""
    cells = "".join(str(text).split("/"))
    if not cells:
        return None
    if len(cells) != 81 or not set(cells) <= _SETUP_CHARS:
        raise ValueError(
            f"setup={text!r}: expected 81 characters of .XO# (rows may be /-separated)"
        )
    return tuple(cells[9 * r : 9 * r + 9] for r in range(9))


class RiftSpielGame(pyspiel.Game):
    """``tictacblitz_rift``: one rules configuration and starting grid."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.engine_game: Any = load_rules_game("rift", params)  # a RiftGame
        self.setup = parse_setup(params.get("setup", ""))
        rules = self.engine_game.rules
        self.draws = hidden.deal_draws(rules)
        # Checked here, once: a setup the engine refuses loads no game.
        probe = self._new_engine_state(self._any_deal())
        turns = sum(row.count(".") for row in self.setup) if self.setup else 81
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_actions,
            max_chance_outcomes=len(hidden.OBJECTIVE_IDS),
            num_players=self.engine_game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=0 if probe.is_over() else turns,  # G16: a turn fills a cell
        )
        super().__init__(GAME_TYPE, info, params)

    def _any_deal(self) -> List[int]:
        drawn: List[int] = []
        while len(drawn) < self.draws:
            drawn.append(hidden.deal_outcomes(self.engine_game.rules, drawn)[0])
        return drawn

    def _new_engine_state(self, drawn: Sequence[int]) -> Any:
        return hidden.new_dealt_state(self.engine_game, drawn, self.setup)

    def new_initial_state(self) -> "RiftSpielState":
        return RiftSpielState(self)

    def __deepcopy__(self, memo: Dict[int, Any]) -> "RiftSpielGame":
        # pyspiel clones a state by deep-copying its attributes; the game is immutable
        # and shared, as in C++ (a copy would be rebuilt without its attributes).
        return self

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not offered; got {params!r}")
        return RiftObserver(self, wants_information_state(iig_obs_type))


class _Play:
    """What a pyspiel state holds. pyspiel clones a Python state with
    ``copy.deepcopy`` of its attributes: this makes that the engine's native ``clone()``
    and two list copies (the records are immutable), not a recursive copy."""

    __slots__ = ("state", "drawn", "turns")

    def __init__(self, state: Any, drawn: List[int], turns: List[hidden.TurnRecord]) -> None:
        self.state = state
        self.drawn = drawn
        self.turns = turns

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Play":
        state = None if self.state is None else self.state.clone()
        return _Play(state, list(self.drawn), list(self.turns))


class RiftSpielState(pyspiel.State):
    """A pyspiel state: the deal so far, then a protocol :class:`RiftState` and the
    resolved turns' public records (what the information states are read from)."""

    def __init__(self, game: RiftSpielGame) -> None:
        super().__init__(game)
        self._spiel_game = game
        self._play = _Play(game._new_engine_state([]) if game.draws == 0 else None, [], [])

    @property
    def engine_state(self) -> Any:
        """The protocol state behind this one (None while the deal is under way)."""
        return self._play.state

    @property
    def drawn(self) -> List[int]:
        """The catalogue codes dealt so far, in draw order (X's hand, then O's)."""
        return self._play.drawn

    @property
    def turns(self) -> List[hidden.TurnRecord]:
        """The resolved turns' public records."""
        return self._play.turns

    def hand(self, player: int) -> List[int]:
        """The catalogue codes dealt to ``player`` so far."""
        per = self._spiel_game.engine_game.rules.objectives_per_player
        return self.drawn[:per] if player == 0 else self.drawn[per:]

    def current_player(self) -> int:
        if self._play.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._play.state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        codes = hidden.deal_outcomes(self._spiel_game.engine_game.rules, self.drawn)
        return [(code, 1.0 / len(codes)) for code in codes]

    def _legal_actions(self, player: int) -> List[int]:
        return self._play.state.legal_actions(player) if self._play.state is not None else []

    def _apply_action(self, action: int) -> None:
        """A chance outcome: the next objective of the deal (G12)."""
        self.drawn.append(int(action))
        if len(self.drawn) == self._spiel_game.draws:
            self._play.state = self._spiel_game._new_engine_state(self.drawn)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        assert self._play.state is not None  # pyspiel asks for joint actions only once dealt
        state = self._play.state
        rejected = state.apply_joint([int(a) for a in actions])
        if any(reason is not None for reason in rejected):
            raise ValueError(f"Rift joint action {list(actions)} is not legal here: {rejected}")
        reports = [event for event in state.drain_events() if event["kind"] == "turn"]
        self.turns.extend(hidden.TurnRecord.from_report(report) for report in reports)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            seat = hidden.deal_seat(self._spiel_game.engine_game.rules, len(self.drawn))
            return f"deal {seat.letter} {hidden.OBJECTIVE_IDS[action]}"
        return self._spiel_game.engine_game.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._play.state is not None and self._play.state.is_over()

    def returns(self) -> List[float]:
        return [0.0, 0.0] if self._play.state is None else list(self._play.state.returns())

    def __str__(self) -> str:
        if self._play.state is None:
            return "dealing " + ",".join(hidden.OBJECTIVE_IDS[code] for code in self.drawn)
        return json.dumps(self._play.state.summary(), sort_keys=True)


class RiftObserver:
    """One seat's information state (``perfect_recall``) or observation."""

    def __init__(self, game: RiftSpielGame, information_state: bool) -> None:
        self.information_state = information_state
        if information_state:
            self.tensor = np.zeros(hidden.INFOSTATE_SIZE, np.float32)
            pieces = [
                ("seat", (hidden.IS_HAND - hidden.IS_SEAT,)),
                ("hand", (hidden.CATALOGUE, hidden.CATALOGUE)),
                ("now", (hidden.OBSERVATION_SIZE,)),
                ("turns", (hidden.MAX_TURNS, hidden.TURN_SIZE)),
            ]
        else:
            self.tensor = np.zeros(hidden.OBSERVATION_SIZE, np.float32)
            pieces = [("observation", (hidden.OBSERVATION_SIZE,))]
        self.dict: Dict[str, np.ndarray] = {}
        offset = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size

    def set_from(self, state: RiftSpielState, player: int) -> None:
        engine = state.engine_state
        if not self.information_state:
            self.tensor[:] = 0.0 if engine is None else engine.observation(player)
        elif engine is None:
            self.tensor[:] = hidden.dealing_tensor(player, state.hand(player))
        else:
            self.tensor[:] = hidden.information_state_tensor(engine, player, state.turns)

    def string_from(self, state: RiftSpielState, player: int) -> str:
        engine = state.engine_state
        if engine is None:
            return hidden.dealing_string(player, state.hand(player))
        if self.information_state:
            return hidden.information_state_string(engine, player, state.turns)
        return hidden.observation_string(engine, player)


pyspiel.register_game(GAME_TYPE, RiftSpielGame)
