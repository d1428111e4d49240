"""Sweeping a player parameter like a rule number (issue 23, item 1).

A sweep's axis ``SEAT.PARAM`` varies one parameter of a seat's player model
(:mod:`tictacblitz.games.players`): ``--grid x.reaction=0,250,400``,
``--grid o.error=0%,5%,10%``, ``--grid all.error=0,0.1`` (every seat), ``--grid
third.error=...`` (a seat by name or number). SEAT is what ``--seat`` takes; PARAM one of
the game's player parameters (``tictacblitz players --game G``). Values are a list (no
ranges), each in the parameter's unit; the sweep's table holds them as numbers in the
stored unit (ms, a fraction, a count). At each point the seat's bot (``--x``, ``--seat``
or the game's default) gets ``PARAM=VALUE`` added, replacing the spec's own value of that
parameter (a reaction swept this way is fixed: no spread).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games.players import format_value, parse_value, player_model, split_spec
from .seating import EVERY, num_players, seat_bots, seat_index

__all__ = [
    "player_axis",
    "parse_player_axis",
    "rule_point",
    "point_players",
    "points_bots",
    "with_param",
]


def player_axis(hooks: Any, name: str) -> Optional[Tuple[int, Any]]:
    """``(seat index or EVERY, PlayerParam)`` when ``name`` is ``SEAT.PARAM`` of the
    game's player model, else None (a rule name)."""
    seat, dot, param_name = str(name).partition(".")
    model = player_model(hooks.name)
    if not dot or model is None or model.param(param_name) is None:
        return None
    names = hooks.type.seat_names[: getattr(hooks.type, "max_num_players", 2)]
    try:
        k = EVERY if seat.lower() == "all" else seat_index(seat, names, len(names))
    except ValueError:
        return None
    return k, model.param(param_name)


def parse_player_axis(hooks: Any, spec: str) -> Optional[Tuple[str, Dict[str, Any]]]:
    """``(name, {"values": [...]})`` of ``--grid SEAT.PARAM=V1,V2,...``, or None when
    the name is not a player axis. :raises ValueError: one line naming the bad value."""
    name, _, text = spec.partition("=")
    axis = player_axis(hooks, name.strip())
    if axis is None:
        return None
    _, param = axis
    if ":" in text:
        raise ValueError(f"--grid {spec!r}: a player parameter takes a list V1,V2,...")
    values: List[Any] = []
    for raw in (p.strip() for p in text.split(",") if p.strip()):
        try:
            value = parse_value(param, raw)
        except ValueError as exc:
            raise ValueError(f"--grid {spec!r}: {raw}: {exc}") from None
        if isinstance(value, tuple):
            if value[1]:
                raise ValueError(f"--grid {spec!r}: {raw}: a sweep varies one number (no spread)")
            value = value[0]
        values.append(value)
    if not values:
        raise ValueError(f"--grid {spec!r}: no values")
    if len(set(values)) != len(values):
        raise ValueError(f"--grid {spec!r}: a value is given twice")
    return name.strip(), {"values": values}


def rule_point(hooks: Any, point: Dict[str, Any]) -> Dict[str, Any]:
    """The rule numbers of a point (its player axes left out)."""
    return {k: v for k, v in point.items() if player_axis(hooks, k) is None}


def with_param(spec: str, param: Any, value: Any) -> str:
    """``spec`` with ``param`` set to ``value`` (replacing its own).

    >>> from tictacblitz.games.players import PlayerParam
    >>> with_param("greedy:error=5%", PlayerParam("error", "%", 0, 1, 0, ""), 0.1)
    'greedy:error=10%'
    """
    base, pairs = split_spec(spec)
    stored = (value, 0) if param.spread else value
    pairs = [(n, v) for n, v in pairs if n != param.name]
    pairs.append((param.name, format_value(param, stored)))
    return base + ":" + ",".join(f"{n}={v}" for n, v in pairs)


def point_players(hooks: Any, bots: Sequence[Any], point: Dict[str, Any]) -> List[Any]:
    """The bots of a point: ``bots`` (one a seat) with the point's player axes applied.
    :raises ValueError: naming the point, for a seat it does not have or a bad bot."""
    out = list(bots)
    for name, value in point.items():
        axis = player_axis(hooks, name)
        if axis is None:
            continue
        k, param = axis
        if k != EVERY and k >= len(out):
            raise ValueError(f"--grid {name}: a point of the sweep has {len(out)} seats")
        for seat in range(len(out)) if k == EVERY else [k]:
            out[seat] = with_param(str(out[seat]), param, value)
            hooks.check_bot(out[seat])
    return out


def points_bots(
    hooks: Any, chosen: Dict[int, Tuple[str, str]], games: Sequence[Any], points: Sequence[Any]
) -> List[List[Any]]:
    """One bot a seat at each point of a sweep: the command line's ``chosen`` seats
    (:func:`~.seating.seat_bots`, the game's default elsewhere) with the point's player
    axes. :raises ValueError: naming the point."""
    out = []
    for game, point in zip(games, points, strict=True):
        try:
            bots = seat_bots(chosen, game.type.seat_names, num_players(game), hooks.default_bot)
            out.append(point_players(hooks, bots, point))
        except ValueError as exc:
            where = ", ".join(f"{k}={v}" for k, v in point.items())
            raise ValueError(f"{exc} at the point {where}") from None
    return out
