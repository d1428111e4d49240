"""Tic Tac Doh as the OpenSpiel game ``tictacblitz_doh`` (a pyspiel Python game).

Sequential, deterministic, perfect information, zero-sum, 2 to 4 players by the
``players`` rule (D10). Each pyspiel state holds a protocol state of the game from the
registry (the native engine), so legality, outcomes and returns are the project's.

Parameters: the rules' ``players``, ``pieces_per_size`` and ``grid`` (D1, D2, D10), and
``opening``: comma-separated action codes played before the root (``""``: none), so
that a search or a solver can be given a late-game subtree (docs/openspiel.md: CFR on
an endgame of 543 histories).

Observers: the observation is the protocol's (:meth:`DohState.observation`, 15 x 3 x 3
planes); the information state is the history (perfect information: OpenSpiel's
:class:`IIGObserverForPublicInfoGame`), as string only.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..games import game_type
from .openspiel_base import _SEP, Held, load_rules_game, rule_parameters, wants_information_state

__all__ = ["NAME", "GAME_TYPE", "DohSpielGame", "DohSpielState", "parse_opening"]

NAME = "tictacblitz_doh"
_TYPE = game_type("doh")

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name=_TYPE.long_name,
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,  # D: nothing is random
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_TYPE.max_num_players,
    min_num_players=_TYPE.min_num_players,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={**rule_parameters("doh"), "opening": ""},
)


def parse_opening(text: str) -> List[int]:
    """``"37;43"`` (or ``"37,43"``) as action codes. :raises ValueError: naming a part
    that is not one."""
    codes = []
    for part in (p.strip() for p in str(text).replace(",", _SEP).split(_SEP)):
        if not part:
            continue
        try:
            codes.append(int(part))
        except ValueError:
            raise ValueError(f"opening has {part!r}, not an action code") from None
    return codes


class DohSpielGame(pyspiel.Game):
    """``tictacblitz_doh``: one rules configuration and opening."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.engine_game = load_rules_game("doh", params)
        self.opening = parse_opening(params.get("opening", ""))
        root = self.engine_game.new_state()
        for code in self.opening:  # checked here, once: a bad opening loads no game
            if root.is_over() or root.apply(root.to_move()[0], code) is not None:
                raise ValueError(f"opening move {code} is not legal where it is played")
        self._root = root
        # kept with ";": serialisation writes the parameters into the game's name, where a
        # comma would end the parameter (a comma-separated opening failed to deserialise)
        params["opening"] = _SEP.join(str(code) for code in self.opening)
        players = self.engine_game.num_players
        rules = self.engine_game.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0 / (players - 1),  # the protocol's returns: -1/(N-1) a loser
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=3 * rules.pieces_per_size - len(self.opening),  # D1, D8
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> "DohSpielState":
        return DohSpielState(self, self._root.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if wants_information_state(iig_obs_type):
            return IIGObserverForPublicInfoGame(iig_obs_type, params)
        return DohObserver(self, params)


class DohSpielState(pyspiel.State):
    """A pyspiel state over a protocol :class:`DohState`."""

    def __init__(self, game: DohSpielGame, state: Any) -> None:
        super().__init__(game)
        self._held = Held(state)

    @property
    def engine_state(self) -> Any:
        """The protocol state (the project's engine) behind this one."""
        return self._held.state

    def current_player(self) -> int:
        seats = self._held.state.to_move()
        return int(pyspiel.PlayerId.TERMINAL) if not seats else seats[0]

    def _legal_actions(self, player: int) -> List[int]:
        return self._held.state.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        state = self._held.state
        reason = state.apply(state.to_move()[0], int(action))
        if reason is not None:
            raise ValueError(f"Doh action {action} is not legal here: {reason}")

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.state.game.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._held.state.is_over()

    def returns(self) -> List[float]:
        return list(self._held.state.returns())

    def __str__(self) -> str:
        return json.dumps(self._held.state.summary(), sort_keys=True)


class DohObserver:
    """The protocol's observation planes (a perfect-information game: every seat sees
    the whole position, from its own seat's view of who is to move)."""

    def __init__(self, game: DohSpielGame, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not offered; got {params!r}")
        shape = game.engine_game.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: DohSpielState, player: int) -> None:
        self.tensor[:] = state.engine_state.observation(player).ravel()

    def string_from(self, state: DohSpielState, player: int) -> str:
        return f"seat {player}: {state}"


pyspiel.register_game(GAME_TYPE, DohSpielGame)
