"""Playing a game to its end with one bot a seat, through the protocol only.

:func:`play_out` is the one driver loop of the platform for a person-facing run (the
``demo`` command, examples): it asks the bots as the game's time model wants and hands
every batch of events to a callback. Mass simulation does not come through here: it
uses each game's native batch runner (``tictacblitz.lab``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, cast

from .protocol import Bot, RealTimeState, State, TimeModel

__all__ = ["play_out", "IllegalBotMove"]


class IllegalBotMove(RuntimeError):
    """A bot chose an action the rules rejected (a bug in the bot)."""


def _check(bot: Bot, player: int, action: Optional[int], reason: Optional[str]) -> None:
    if reason is not None:
        raise IllegalBotMove(
            f"bot {bot.name!r} (seat {player}) chose action {action}, rejected: {reason}"
        )


def play_out(
    state: State,
    bots: Sequence[Bot],
    *,
    on_events: Optional[Callable[[List[Dict[str, Any]]], None]] = None,
    max_steps: int = 10_000_000,
) -> State:
    """Play ``state`` to its end with ``bots[k]`` in seat ``k`` (one a seat of
    ``state.game.num_players``); returns the state.

    Real time: both bots are asked at every decision point (something timed, a charge
    filling, or a ms a bot asked to be woken at through its ``wake_t``), their actions
    go in together (``apply_joint``), then time jumps to the next decision point.
    """
    seats = range(state.game.num_players)
    if len(bots) != len(seats):
        raise ValueError(f"play_out needs one bot per seat ({len(seats)}), not {len(bots)}")
    model = state.game.type.time_model

    def flush() -> None:
        events = state.drain_events()
        if on_events is not None and events:
            on_events(events)

    flush()
    for _ in range(max_steps):
        if state.is_over():
            break
        if model is TimeModel.ALTERNATING:
            (player,) = state.to_move()
            action = bots[player].choose(state, player)
            # The seat to move must act: a bot's None reaches apply, which refuses it.
            _check(bots[player], player, action, state.apply(player, cast(int, action)))
        else:
            movers = state.to_move()
            actions = tuple(bots[p].choose(state, p) if p in movers else None for p in seats)
            if any(a is not None for a in actions):
                for p, (action, reason) in enumerate(
                    zip(actions, state.apply_joint(actions), strict=True)
                ):
                    if model is TimeModel.SIMULTANEOUS:
                        _check(bots[p], p, action, reason)
            if model is TimeModel.REAL_TIME and not state.is_over():
                # A real-time rejection is part of play (R7: the other seat got there
                # first); time then jumps to the next decision point.
                clock = cast(RealTimeState, state)  # the REAL_TIME time model's state
                nxt = clock.next_decision_t()
                if nxt == 0:  # a round ended: the next one starts
                    clock.advance(0)
                else:
                    wakes = [getattr(bot, "wake_t", None) for bot in bots]
                    due = [t for t in (nxt, *wakes) if t is not None and t > clock.t]
                    clock.advance((min(due) if due else clock.t + 1) - clock.t)
        flush()
    else:
        raise RuntimeError(f"the game did not end within {max_steps} steps")
    flush()
    return state
