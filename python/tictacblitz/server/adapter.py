"""The interface between the generic server and a game's adapter, and the lookup of it.

The generic server (:mod:`.lobby`, :mod:`.room`) runs rooms, seats, spectators,
tokens, countdowns, breaks between rounds, forfeits, rematches and replays for any game
of the registry: it speaks only the platform protocol (``Game``/``State``,
``GameType.time_model``) and the two classes below. What a game's matches need on top
lives in its own package, ``server/games/<name>/`` (named as the game in the registry),
which defines exactly one subclass of :class:`GameAdapter`; :func:`adapter_for` finds it
with the one lookup every layer uses (:func:`tictacblitz.games.adapters.adapter_class`,
issue 27, item 1): a folder there that names no registered game fails loudly.

``GameAdapter`` (one per server: the game's facts on the wire)
    - ``game``: the :class:`~tictacblitz.games.protocol.Game` every room plays;
    - ``time_model``: the ``TimeModel`` its sessions drive (checked against the game's);
    - ``seats``: the names of the seats in messages, one per player of the game's rules
      (``Game.num_players``; Blitz ``("X", "O")``, Doh ``first`` .. ``fourth``);
    - ``bot_levels``: what ``create`` may ask for (``bot``);
    - ``act_fields``: the fields of the ``act`` message (``{name: (checker, required)}``,
      checkers from :mod:`.protocol`); the protocol adds ``seat`` itself;
    - ``view``: the path of the browser client's view module for the game;
    - ``has_turn_clock``: whether ``Settings.rift_turn_s`` (``serve --rift-turn-s``)
      means anything to it (Rift & Grid's does; ``serve`` refuses it for others);
    - ``describe()``: what ``welcome`` tells a client about the game beyond its rules
      (e.g. Blitz's powerup kinds, so the client has no list of its own);
    - ``make_bot(level, seed)``: a bot seat's driver (kept by the room across
      rematches; it has ``level`` and ``reset()``);
    - ``new_session(host, seed)``: a :class:`MatchSession` for one match of a room;
    - ``replay_frames(data)``: a replay file (parsed JSON) played back as frames shaped
      like ``events`` messages, for the browser's replay viewer (raise ``ReplayError``
      for an invalid file).

``MatchSession`` (one per match: the game's moves and clock)
    - ``start()``: the match begins (after the countdown): emit its first events;
    - ``intent(seat, fields, ref, conn)``: a player's checked ``act`` (``fields`` are
      the adapter's ``act_fields``); raise ``ProtocolError("bad_field", ...)`` for what
      the checkers could not know (a cell off this board); answer a rules rejection to
      ``conn`` only;
    - ``tick()``: bring the match to the host's clock and do what is due (timed
      events, waiting intents, bots); ``wake_at()``: the wall ms of the next thing due,
      or None (the room keeps one timer on it: never a busy loop);
    - ``next_round()``: after the room's pause between rounds;
    - ``snapshot()``: the game's part of a ``state`` message; ``private(seats)``: the
      part only a connection holding ``seats`` may see (merged into its ``state``; a
      spectator's ``seats`` is empty; none by default); ``seat_status(seat)``:
      a seat's game status (merged into ``players``); ``position()``: ``round`` and
      ``t`` for ``pong``; ``result_fields()``: the game's part of ``match_end``;
      ``replay_file(name)``: the game's replay file of the match so far;
    - ``close()``: the match is over or abandoned: drop pending work.

The session calls back only through its :class:`SessionHost` (the room): ``emit``
(an ``events`` body; the room numbers and broadcasts it), ``round_ended(round)``,
``match_ended(result)``, ``now_ms()``, ``bots`` (the seats' bot drivers or None),
``live`` and ``run_job(job, done)`` (a bot's thinking off the event loop: ``done(result,
error)`` comes back on the loop, or at once when the server thinks inline).

**Time models.** ``REAL_TIME`` (Blitz, ``games/blitz/``): the session maps the wall clock
to game ms from an epoch, advances the state to now on every tick, applies intents at
the ms they arrive (both seats in one ms together: ``apply_joint``), and wakes at the
state's next timed event or bot decision. ``ALTERNATING`` (Doh, ``games/doh/``): ``intent``
applies the move if the seat is ``to_move()`` (else a rejection), a bot seat to move is
asked with ``run_job(bot.choose(state.clone(), seat))``; ``wake_at`` is None or a move
clock's deadline. ``SIMULTANEOUS`` (Rift, ``games/rift/``): ``intent`` locks the seat's
move in (a move stays private: ``private(seats)``); once every seat of ``to_move()`` has
locked, the turn resolves and the result is emitted; bots lock in through ``run_job``
the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from ..games.adapters import adapter_class, adapter_names, check_overrides
from ..games.protocol import Game, State, TimeModel
from . import games
from .protocol import Field

__all__ = [
    "GameAdapter",
    "MatchSession",
    "SessionHost",
    "NoAdapter",
    "adapter_for",
    "adapter_games",
]


class SessionHost(Protocol):
    """What a match session may use of its room."""

    @property
    def live(self) -> bool:
        """Whether a round is running (not the countdown, a break or the end)."""
        ...

    @property
    def bots(self) -> Sequence[Any]:
        """Per seat: the bot driver of ``GameAdapter.make_bot``, or None for a person."""
        ...

    def now_ms(self) -> float: ...

    def emit(self, body: Dict[str, Any]) -> None:
        """Broadcast an ``events`` message with this body (the room adds type, match id
        and ``seq``)."""
        ...

    def round_ended(self, round_: int) -> None:
        """The round ended and the match goes on: the room pauses, then ``next_round``."""
        ...

    def match_ended(self, result: str) -> None:
        """The match ended by the rules; ``result`` is a seat name or ``"draw"``."""
        ...

    def tick(self) -> None:
        """Bring the match to now and set the timer again (after work that came back
        from ``run_job`` off the loop)."""
        ...

    def run_job(
        self, job: Callable[[], Any], done: Callable[[Any, Optional[BaseException]], None]
    ) -> bool:
        """Run ``job`` off the loop; ``done(result, error)`` on the loop. True when it
        ran inline (``done`` was already called)."""
        ...


class ProtocolBotSeat:
    """A bot seat's driver for a game whose bots are its protocol's (``game.make_bot``),
    kept by the room across rematches. ``busy``: the bot is deciding off the event loop;
    only that decision's return clears it, so one bot never decides in two threads at
    once (a rematch leaves it: the old decision is dropped by its own turn check)."""

    def __init__(self, game: Game, level: str, seed: int) -> None:
        self.level = level
        self.bot = game.make_bot(level, seed)
        self.busy = False

    def reset(self) -> None:
        """A new match: nothing of the last one to forget (see ``busy``)."""


class MatchSession(ABC):
    """One match of one room (see the module docstring)."""

    state: State

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def intent(self, seat: int, fields: Mapping[str, Any], ref: Any, conn: Any) -> None: ...

    @abstractmethod
    def tick(self) -> None: ...

    @abstractmethod
    def wake_at(self) -> Optional[float]: ...

    @abstractmethod
    def next_round(self) -> None: ...

    @abstractmethod
    def snapshot(self) -> Dict[str, Any]: ...

    @abstractmethod
    def seat_status(self, seat: int) -> Dict[str, Any]: ...

    @abstractmethod
    def position(self) -> Dict[str, Any]: ...

    @abstractmethod
    def result_fields(self) -> Dict[str, Any]: ...

    @abstractmethod
    def replay_file(self, name: str) -> Dict[str, Any]: ...

    def private(self, seats: Tuple[int, ...]) -> Dict[str, Any]:
        """What only a connection holding ``seats`` may see (e.g. a hand of secret
        objectives), merged into its ``state``; nothing by default."""
        return {}

    def close(self) -> None:  # noqa: B027 (optional: most sessions have nothing to drop)
        """Drop pending work (a late bot decision of this match is then ignored)."""


class GameAdapter(ABC):
    """A game's face on the server (see the module docstring)."""

    time_model: TimeModel
    seats: Tuple[str, ...]
    bot_levels: Tuple[str, ...]
    act_fields: Dict[str, Field]
    view: str
    has_turn_clock = False  # whether ``Settings.rift_turn_s`` means anything to it

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A misspelled name (``replay_frame``) would leave the base's default or an
        # abstract method in force: refused when the class is made (issue 27, item 1).
        super().__init_subclass__(**kwargs)
        check_overrides(cls, GameAdapter)

    def __init__(self, game: Game, settings: Any) -> None:
        self.game = game
        self.settings = settings

    def describe(self) -> Dict[str, Any]:
        """The ``game`` section of ``welcome`` (a game adds its own vocabulary)."""
        kind = self.game.type
        return {
            "name": kind.name,
            "long_name": kind.long_name,
            "time_model": kind.time_model.value,
            "seats": list(self.seats),
            "view": self.view,
        }

    @abstractmethod
    def make_bot(self, level: str, seed: int) -> Any: ...

    @abstractmethod
    def new_session(self, host: SessionHost, seed: int) -> MatchSession: ...

    @abstractmethod
    def replay_frames(self, data: Any) -> Dict[str, Any]: ...


class NoAdapter(ValueError):
    """A game the server cannot run (no ``server/games/<name>/`` package)."""


def adapter_games() -> List[str]:
    """The registered games the server has an adapter for (``server/games/<name>/``).

    :raises AdapterError: for a folder there that names no registered game.
    """
    return list(adapter_names(games))


def adapter_for(game: Game, settings: Any) -> GameAdapter:
    """The server adapter of ``game``.

    :raises NoAdapter: one line naming the game and the games the server can run.
    :raises AdapterError: for a misnamed folder in ``server/games/`` or an adapter
        package without exactly one ``GameAdapter`` subclass.
    """
    name = game.type.name
    if name not in adapter_games():  # (an unregistered game, too: the tests' toy)
        raise NoAdapter(
            f"the server cannot run {game.type.long_name} ({name!r}) yet: no server "
            f"adapter (server/games/{name}/); it runs {', '.join(adapter_games())}"
        )
    # (the lookup takes the abstract base on purpose: it returns a concrete subclass)
    adapter_type = adapter_class(games, name, GameAdapter)  # type: ignore[type-abstract]
    assert adapter_type is not None  # adapter_games() listed it
    adapter = adapter_type(game, settings)
    if adapter.time_model != game.type.time_model:  # the adapter drives the game's clock
        raise RuntimeError(
            f"server/games/{name}/ drives a {adapter.time_model.value} game, but "
            f"{name!r} is {game.type.time_model.value}"
        )
    return adapter
