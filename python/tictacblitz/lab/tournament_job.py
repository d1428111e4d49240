"""A tournament's checked job: its bots resolved once (issue 27, item 5).

:func:`prepare_tournament` (the API, :func:`~tictacblitz.lab.tournament.run_tournament`)
and the command line (:func:`~tictacblitz.lab.tournament.main`, in its own words) check a
tournament's bots and rules once; the :class:`TournamentJob` they make holds each bot as
the game's ``play_matches`` takes it (:meth:`~.adapter.LabAdapter.checked_bot`), and the
pilot and every batch take it from there. Before, the command line resolved each bot
once for its check, once a pair for the pilot, again in ``run_tournament``'s check, and
again for every batch of 512 matches (8 with a slow bot).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from ..games.rng import check_seed
from .jobs import resolve_game
from .policy_players import with_policies

__all__ = ["TournamentJob", "prepare_tournament", "resolve_players"]


@dataclass(frozen=True)
class TournamentJob:
    """A round robin checked before any match is played: ``hooks`` (taking ``policy:``
    players when one plays), ``game`` (under its rules), the bots' ``names``, ``bots``
    (each name's bot as ``play_matches`` takes it), ``slow`` (whether each is slow: small
    batches), ``matches`` a pair, the tournament ``seed`` and ``jobs`` (threads)."""

    hooks: Any
    game: Game
    names: Tuple[str, ...]
    bots: Mapping[str, Any]
    slow: Mapping[str, bool]
    matches: int
    seed: int
    jobs: int

    @classmethod
    def checked(
        cls,
        hooks: Any,
        game: Game,
        bots: Dict[str, Any],
        matches: int,
        seed: int,
        jobs: int,
    ) -> "TournamentJob":
        """The job of bots ``resolve_players`` gave and rules already checked (by
        :func:`prepare_tournament`, or by the command line in its words)."""
        slow = {name: bool(hooks.slow_bot(bot)) for name, bot in bots.items()}
        return cls(
            hooks,
            game,
            tuple(bots),
            MappingProxyType(dict(bots)),
            MappingProxyType(slow),
            matches,
            seed,
            jobs,
        )

    def seating(self, names: Sequence[str]) -> Tuple[Any, ...]:
        """The resolved bots of a seating of names (one a seat)."""
        return tuple(self.bots[name] for name in names)


def resolve_players(hooks: Any, names: Sequence[str]) -> Dict[str, Any]:
    """``{name: bot}``: each name checked and resolved once
    (:meth:`~.adapter.LabAdapter.checked_bot`), in order.
    :raises ValueError: one line naming the first bad bot."""
    return {name: hooks.checked_bot(name) for name in names}


def prepare_tournament(
    bots: Optional[Sequence[str]],
    matches: int,
    seed: int = 0,
    *,
    rules: Optional[Any] = None,
    jobs: int = 1,
    game: Union[str, Game] = DEFAULT_GAME,
) -> TournamentJob:
    """Check the arguments of :func:`~tictacblitz.lab.tournament.run_tournament` (see
    there) and resolve its bots, once.

    :raises ValueError: for an unknown game or rule, an unknown or repeated bot name,
        fewer than two bots, or ``matches`` < 1.
    """
    hooks, the_game = resolve_game(game, rules)
    names = list(hooks.tournament_bots if bots is None else bots)
    hooks = with_policies(hooks, names)  # issue 28: policy:PATH players
    resolved = resolve_players(hooks, names)
    if len(set(names)) != len(names):
        raise ValueError(f"a bot is named twice in {','.join(names)}")
    if len(names) < 2:
        raise ValueError("a tournament needs at least two bots")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches must be an integer >= 1, not {matches!r}")
    seed = check_seed(seed)
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    hooks.check_rules(the_game.rules)
    return TournamentJob.checked(hooks, the_game, resolved, matches, seed, jobs)
