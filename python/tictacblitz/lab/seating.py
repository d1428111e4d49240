"""The seats of a run, for any number of players (issue 25, item 1).

A game declares its seats (``GameType.seat_names``, ``min_num_players`` to
``max_num_players``) and a game object how many it has under its rules
(``Game.num_players``). The lab names every per-seat result by the seat's *key*:

- with two seats, ``x`` and ``o`` (seat 0 and seat 1), the names the lab has always used
  (``x_wins``, ``o_win_rate``, ``x_bot``...), so that a two-player run's summary, records
  and reports stay exactly what they were (tests/test_lab_golden.py);
- with three or four, the game's own seat names in lower case (``first_wins``,
  ``third_win_rate``, ``fourth_bot``...), listed in the summary's ``seat_keys``.

On the command line a run names one bot per seat (a name or a player spec,
``greedy:reaction=250ms``: :mod:`tictacblitz.games.players`): ``--seat NAME=BOT``
(repeatable; NAME a seat name of the game, in any case, or its number from 1), with
``--x BOT`` and ``--o BOT`` kept as the spellings of seats 1 and 2, and ``--seat
all=BOT`` for every seat no other option names (a sweep over the number of players); a
seat nobody names gets the game's default bot (:func:`seat_bots`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

__all__ = [
    "LEGACY_KEYS",
    "EVERY",
    "seat_keys",
    "summary_keys",
    "num_players",
    "seat_bots",
    "seat_choices",
    "seat_index",
    "parse_seat",
    "bots_label",
    "point_seats",
    "bot_meta",
    "bots_text",
    "same_bots",
]

LEGACY_KEYS: Tuple[str, str] = ("x", "o")
"""The keys of seats 0 and 1 in a two-player run."""
EVERY = -1
"""The seat index of ``--seat all=BOT``: every seat no other option names."""


def seat_keys(seat_names: Sequence[str], players: int) -> Tuple[str, ...]:
    """The keys of a run's ``players`` seats: ``("x", "o")`` for two, else the first
    ``players`` seat names in lower case.

    >>> seat_keys(("first", "second", "third", "fourth"), 3)
    ('first', 'second', 'third')
    >>> seat_keys(("first", "second", "third", "fourth"), 2)
    ('x', 'o')
    """
    if players == 2:
        return LEGACY_KEYS
    return tuple(str(n).lower() for n in seat_names[:players])


def summary_keys(summary: Dict[str, Any]) -> Tuple[str, ...]:
    """The seat keys of a summary (its ``seat_keys``; a two-player summary has none)."""
    return tuple(summary.get("seat_keys") or LEGACY_KEYS)


def num_players(game: Any) -> int:
    """The seats of a game object under its rules (``Game.num_players``; two for a game
    that does not say)."""
    return int(getattr(game, "num_players", 2))


def seat_index(seat: str, seat_names: Sequence[str], players: int) -> int:
    """The index of the seat ``seat`` names (a seat name in any case, ``x``/``o`` for
    seats 0/1, or a number from 1). :raises ValueError: naming it and the seats."""
    text = str(seat).strip()
    names = [str(n).lower() for n in seat_names[:players]]
    if text.isdigit() and 1 <= int(text) <= players:
        return int(text) - 1
    if text.lower() in names:
        return names.index(text.lower())
    if text.lower() in LEGACY_KEYS:
        return LEGACY_KEYS.index(text.lower())
    raise ValueError(
        f"unknown seat {seat!r}: this game has {players} seats, "
        f"{', '.join(seat_names[:players])} (or 1-{players})"
    )


def seat_choices(
    given: Sequence[Tuple[str, str, str]],
    seat_names: Sequence[str],
    known: Sequence[str],
    check: Optional[Callable[[str], Any]] = None,
) -> Dict[int, Tuple[str, str]]:
    """``{seat index: (bot, how it was given)}`` from the command line's ``given``
    ``(flag, seat, bot)`` triples (``("--x", "x", "greedy")``, ``("--seat", "third",
    "random")``), over every seat the game may have (``seat_names``). A bot is one of
    ``known``, or, with ``check`` (the game's player model: issue 23), any text
    ``check`` accepts (a player spec, ``greedy:reaction=250ms``).

    :raises ValueError: one line naming the flag and its bad value (an unknown seat or
        bot, a seat named twice).
    """
    out: Dict[int, Tuple[str, str]] = {}
    for flag, seat, bot in given:
        shown = f"{flag} {seat}={bot}" if flag == "--seat" else f"{flag} {bot}"
        try:
            k = EVERY if seat.lower() == "all" else seat_index(seat, seat_names, len(seat_names))
        except ValueError as exc:
            raise ValueError(f"{shown}: {exc}") from None
        if k in out:
            which = "every seat" if k == EVERY else f"seat {seat_names[k]}"
            raise ValueError(f"{shown}: {which} already has a bot ({out[k][1]})")
        if bot not in known and check is not None:
            try:
                check(bot)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{flag if flag != '--seat' else shown}: {exc}") from None
        elif bot not in known:
            named = f"--seat {seat}={bot!r}" if flag == "--seat" else f"{flag} {bot!r}"
            raise ValueError(f"{named}: unknown bot; expected one of {', '.join(known)}")
        out[k] = (bot, shown)
    return out


def seat_bots(
    choices: Dict[int, Tuple[str, str]], seat_names: Sequence[str], players: int, default: str
) -> Tuple[str, ...]:
    """One bot name a seat of a ``players``-seat run: the chosen ones, else ``default``.

    >>> seat_bots({2: ("random", "--seat 3=random")}, ("a", "b", "c"), 3, "greedy")
    ('greedy', 'greedy', 'random')

    :raises ValueError: for a seat the run does not have (naming it).
    """
    default = choices[EVERY][0] if EVERY in choices else default
    for k, (_, shown) in sorted(choices.items()):
        if k >= players:
            raise ValueError(
                f"{shown}: this run has {players} seats ({', '.join(seat_names[:players])})"
            )
    return tuple(choices[k][0] if k in choices else default for k in range(players))


def parse_seat(text: str) -> Tuple[str, str]:
    """``NAME=BOT`` of ``--seat``. :raises ValueError: naming it."""
    seat, sep, bot = str(text).partition("=")
    if not sep or not seat.strip() or not bot.strip():
        raise ValueError(f"--seat {text!r}: expected NAME=BOT (e.g. --seat third=greedy)")
    return seat.strip(), bot.strip()


def bots_label(names: Sequence[str], keys: Optional[Sequence[str]] = None) -> str:
    """``X = greedy, O = random`` for two seats, ``first = greedy, ...`` for more."""
    keys = list(keys or LEGACY_KEYS)
    shown = [k.upper() if k in LEGACY_KEYS else k for k in keys]
    return ", ".join(f"{s} = {n}" for s, n in zip(shown, names, strict=False))


def point_seats(hooks: Any, game: Any, chosen: Mapping[int, Any]) -> List[Any]:
    """One bot a seat of ``game`` (a sweep's point): ``chosen`` ``{seat index: bot}``
    (:data:`EVERY`: every seat not named), the game's default bot elsewhere.
    :raises ValueError: for a seat it does not have."""
    players = num_players(game)
    default = chosen.get(EVERY, hooks.default_bot)
    for k in chosen:
        if k != EVERY and not 0 <= k < players:
            raise ValueError(
                f"seat {k + 1} has a bot, but a point of the sweep has {players} seats"
            )
    return [chosen.get(k, default) for k in range(players)]


def bot_meta(summaries: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The bots of a sweep's meta: ``x_bot``/``o_bot`` as always for two seats; with
    three or four at some point, ``bots``, each point's one a seat."""
    keys = [summary_keys(s) for s in summaries]
    if all(k == LEGACY_KEYS for k in keys):
        return {"x_bot": summaries[0]["x_bot"], "o_bot": summaries[0]["o_bot"]}
    return {"bots": [[s[f"{k}_bot"] for k in ks] for s, ks in zip(summaries, keys, strict=True)]}


def bots_text(d: Dict[str, Any]) -> str:
    """The bots of a summary or a sweep's meta, as reports head them: ``X = greedy, O =
    random`` (two seats), ``first = greedy, second = random, third = greedy``, or, for a
    sweep whose points seat different numbers, ``greedy in every seat``."""
    if "bots" in d:  # a sweep over the number of players
        names = {n for point in d["bots"] for n in point}
        if len(names) == 1:
            return f"{names.pop()} in every seat"
        return "bots by seat " + "; ".join(sorted({", ".join(p) for p in d["bots"]}))
    keys = summary_keys(d)
    return bots_label([d[f"{k}_bot"] for k in keys], keys)


def same_bots(d: Dict[str, Any]) -> bool:
    """Whether every seat of a summary or a sweep's meta has the same bot."""
    if "bots" in d:
        return len({n for point in d["bots"] for n in point}) == 1
    return len({d[f"{k}_bot"] for k in summary_keys(d)}) == 1
