"""What the OpenSpiel adapters of :mod:`tictacblitz.envs.openspiel` share: game
parameters from a game's rules, the engine state a pyspiel state holds, observer kinds.

OpenSpiel game parameters are ints, floats, bools and strings (``load_game("name",
{...})`` or ``"name(a=1,b=x)"``; a value holds no comma or parenthesis, since a game's
string, which serialisation writes, lists them so). Every rule of a game is a parameter
of the same name with the rules' default: an integer as is, a list as its items joined
by ``;`` (``objectives="centre;meta_line"``), a mapping as ``key:value`` pairs joined by
``;`` (``objective_points="centre:20"``, a partial mapping); the game's rules type
validates them.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping

import pyspiel

from ..games import Game, State, load_game

__all__ = ["rule_parameters", "load_rules_game", "Held", "wants_information_state"]

_SEP = ";"


def _as_parameter(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _SEP.join(f"{key}:{item}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return _SEP.join(str(item) for item in value)
    return value


def rule_parameters(name: str) -> Dict[str, Any]:
    """The OpenSpiel parameter specification of game ``name``'s rules (its defaults)."""
    return {key: _as_parameter(value) for key, value in load_game(name).rules.to_dict().items()}


def _from_parameter(key: str, text: Any, default: Any) -> Any:
    if isinstance(default, Mapping):
        pairs: Dict[str, Any] = {}
        for part in filter(None, str(text).split(_SEP)):
            item, colon, number = part.partition(":")
            try:
                pairs[item] = int(number) if colon else None
            except ValueError:
                pairs[item] = None
            if pairs[item] is None:
                raise ValueError(f"parameter {key}={text!r}: {part!r} is not id:integer")
        return pairs
    if isinstance(default, (list, tuple)):
        return [part for part in str(text).split(_SEP) if part]
    return text


def load_rules_game(name: str, params: Mapping[str, Any]) -> Game:
    """The protocol game ``name`` with the rules the parameters give.

    :raises ValueError: for a rule value the game refuses (its message names it) or a
        mapping parameter that is not ``id:integer`` pairs."""
    defaults = load_game(name).rules.to_dict()
    overrides = {
        key: _from_parameter(key, params[key], default)
        for key, default in defaults.items()
        if key in params and params[key] != _as_parameter(default)
    }
    return load_game(name, overrides)


class Held:
    """The protocol state a pyspiel state holds. pyspiel clones a Python state with
    ``copy.deepcopy`` of its attributes; this makes that the engine's own ``clone()``
    (a native copy) instead of a round trip through bytes."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Held":
        return Held(self.state.clone())


def wants_information_state(iig_obs_type: Any) -> bool:
    """Whether an observer request is for the information state (perfect recall) rather
    than the observation. Both are of the observing seat's private information and the
    public information; other kinds are not offered.

    :raises ValueError: naming the request, for a kind not offered."""
    if iig_obs_type is None:
        return False
    if (
        not iig_obs_type.public_info
        or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
    ):
        raise ValueError(
            f"observation type {iig_obs_type!r} is not offered: only the observing "
            "seat's view (public and its own private information)"
        )
    return bool(iig_obs_type.perfect_recall)
