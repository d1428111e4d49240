"""Computer players: the ``random``, ``greedy``, ``search`` and ``strong`` bots and their presets.

A bot decides like a person on the real-time clock: it is asked for a
:class:`Decision` (an action, or ``None`` to wait, and the ms at which to ask it next);
it acts ``reaction_ms`` after its charge fills and, at weaker levels, plays a random
legal action with probability ``error_rate``. The policies themselves are native
(``blitz_core.blitz.bots``, ``nogil``); this module is their Python face.

>>> from tictacblitz import Match, Rules
>>> bot = make_bot("greedy", seed=1)
>>> match = Match(Rules(), seed=3)
>>> decision = bot.decide(match, "X")
>>> decision.action is not None and decision.rule == "build"
True
>>> play_match(Rules(), "greedy", "random", seed=7)["winner"]
'X'

:data:`PRESETS` is the one table of bot names (what a GUI shows); docs/bots.md
describes each rule and the measured strength ladder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Optional,
    Protocol,
    Tuple,
    Union,
    cast,
    runtime_checkable,
)

from ..players import PlayerModel, player_model
from ..rng import check_seed, check_seeds
from . import strong
from .rules import Rules
from .streams import DEFAULT_STREAM
from .types import Action, ActionKind, Event, Player, PlayerStatus, index_cell

__all__ = [
    "BotSpec",
    "Bot",
    "Decision",
    "NativeBot",
    "PRESETS",
    "GUI_LEVELS",
    "BOT_NAMES",
    "make_bot",
    "reaction_due_t",
    "resolve",
    "match_records",
    "play_match",
    "play_matches",
    "drive",
]


@dataclass(frozen=True)
class BotSpec:
    """What a bot is: a policy ``kind`` (random, greedy, search, strong) and its parameters.

    ``reaction_ms``: the bot acts this long after its charge fills; with a spread
    ``reaction_sd`` > 0 that is the mean of a lognormal drawn per reaction (bots.pyx
    ``reaction_at``: a pure function of the seed and the ms the charge filled).
    ``attention`` (greedy only): the chance a decision notices the opponent's threats
    (else greedy's rules 1 and 3, knocking out a four and blocking a gap, are
    skipped: a lapse, issue 23).
    ``error_rate``: the chance of a uniformly random legal action instead of its own.
    ``budget``, ``horizon_ms``, ``candidates``: search only (simulations per decision,
    game ms a rollout plays, actions compared).
    """

    kind: str
    reaction_ms: int = 0
    error_rate: float = 0.0
    budget: int = 64
    horizon_ms: int = 3000
    candidates: int = 6
    description: str = ""
    reaction_sd: int = 0
    attention: float = 1.0

    def native(self) -> Tuple[Any, ...]:
        """The native tuple (``blitz_core.blitz.bots``): 6 fields, a 7th
        (``reaction_sd``) only with a spread; the one road to the native policies, so a
        ``strong`` spec loads the shipped tables here, once."""
        if self.kind == "strong":
            strong.load_native()
        spec = (
            self.kind,
            self.reaction_ms,
            float(self.error_rate),
            self.budget,
            self.horizon_ms,
            self.candidates,
        )
        if self.attention < 1.0:
            return (*spec, self.reaction_sd, float(self.attention))
        return (*spec, self.reaction_sd) if self.reaction_sd else spec

    def to_dict(self) -> Dict[str, Any]:
        return {
            "kind": self.kind,
            "reaction_ms": self.reaction_ms,
            "error_rate": self.error_rate,
            "budget": self.budget,
            "horizon_ms": self.horizon_ms,
            "candidates": self.candidates,
            **({"reaction_sd": self.reaction_sd} if self.reaction_sd else {}),
            **({"attention": self.attention} if self.attention < 1.0 else {}),
        }


PRESETS: Dict[str, BotSpec] = {
    # The raw policies: instant reactions, no errors.
    "random": BotSpec("random", description="a uniformly random legal action whenever charged"),
    "greedy": BotSpec("greedy", description="the seed's strategy as ordered rules"),
    "search": BotSpec("search", description="greedy-rollout search over candidate actions"),
    "strong": BotSpec(
        "strong", description="a learned window-pattern evaluation, one ply (greedy's cost)"
    ),
    # Difficulty levels (what a GUI shows): human-like reaction delays and errors.
    "easy": BotSpec(
        "greedy",
        reaction_ms=350,
        error_rate=0.35,
        description="greedy, slow (350 ms) and often careless (35 %)",
    ),
    "medium": BotSpec(
        "greedy",
        reaction_ms=150,
        error_rate=0.10,
        description="greedy, quick (150 ms), sometimes careless (10 %)",
    ),
    # hard: the strong evaluation at 55 ms reactions (issue 23 item 3: the top level beats
    # raw greedy; search at 80 ms won 47 % of decided matches against it). The share
    # against 0-ms greedy is not monotone in the reaction: 40 ms 29 %, 50-60 ms 95-98 %,
    # 65-80 ms 62-72 % (docs/bots.md, "The GUI ladder"); 55 ms is mid-plateau.
    "hard": BotSpec(
        "strong",
        reaction_ms=55,
        description="the strong evaluation, quick (55 ms), no errors",
    ),
}
"""The bot names a user can pick, one source of truth for their parameters."""

BOT_NAMES: Tuple[str, ...] = tuple(PRESETS)
GUI_LEVELS: Tuple[str, ...] = ("easy", "medium", "hard")
"""The levels a player picks in the GUI, weakest first (the server's BOT_LEVELS): each
beats the one below in both seats, and the top one beats raw greedy (issue 23 item 3; measured by
``python -m tictacblitz.lab.ladder``, docs/bots.md, "The GUI ladder")."""


def resolve(bot: Union[str, BotSpec]) -> BotSpec:
    """A preset name, a player spec (``greedy:reaction=250ms,error=3%``: :mod:`.players`)
    or a :class:`BotSpec` → a BotSpec.

    :raises ValueError: for an unknown name or a bad spec (one line naming it).
    :raises TypeError: for anything else.
    """
    if isinstance(bot, BotSpec):
        return bot
    if isinstance(bot, str):
        if bot in PRESETS:
            return PRESETS[bot]
        return cast(BotSpec, _model().resolve(bot))
    raise TypeError(f"a bot is a preset name or a BotSpec, not {type(bot).__name__}")


def reaction_due_t(status: PlayerStatus, reaction_ms: int) -> int:
    """The ms at which a bot with this reaction delay acts, for a seat in ``status``:
    ``reaction_ms`` after its charge became full (R5: ``charge_full_since``), or after it
    will be full (``charge_ready_t``) while it fills. The one timing rule of every bot
    (``NativeBot``, the server's bot seats, the load tool's clients)."""
    if not status.charge_full:
        return status.charge_ready_t + reaction_ms
    return cast(int, status.charge_full_since) + reaction_ms  # set while full (R5)


@dataclass(frozen=True)
class Decision:
    """A bot's answer: ``action`` now (or ``None`` to wait) and ``next_t``, the ms of
    this round at which to ask it again. ``rule`` names what chose the action
    (docs/bots.md); ``simulations`` is what a search spent on it."""

    action: Optional[Action]
    next_t: int
    rule: Optional[str] = None
    simulations: int = 0


@runtime_checkable
class Bot(Protocol):
    """A computer player: ``decide(match, seat) -> Decision``."""

    name: str

    def decide(self, match: Any, seat: Union[Player, str, int]) -> Decision: ...


class NativeBot:
    """A bot whose policy is native (``blitz_core.blitz.bots``), deciding on a ``Match``.

    Its reaction delay counts from ``status.charge_full_since`` (R5: the ms the charge
    became full), which is part of the match state: the bot keeps no memory of earlier
    calls, so asking it about a clone, a restored match or a late call gives the same
    decision. Ask it at least at every ``next_t`` it returns.
    """

    def __init__(
        self, spec: Union[str, BotSpec], *, seed: int = 0, name: Optional[str] = None
    ) -> None:
        from blitz_core.blitz.bots import NativePolicy

        self.spec = resolve(spec)
        self.name = (
            name if name is not None else (spec if isinstance(spec, str) else self.spec.kind)
        )
        self.seed = check_seed(seed)
        self._policy = NativePolicy(self.spec.native(), seed)

    def __repr__(self) -> str:
        return f"<NativeBot {self.name} {self.spec.to_dict()}>"

    def due_t(self, match: Any, seat: Union[Player, str, int]) -> Optional[int]:
        """The ms of this round at which the bot would act for ``seat``
        (:func:`reaction_due_t`), or None once the round is over."""
        if match.round_over:
            return None
        status = match.status(Player.parse(seat))
        if not self.spec.reaction_sd:
            return reaction_due_t(status, self.spec.reaction_ms)
        since = status.charge_full_since if status.charge_full else status.charge_ready_t
        return reaction_due_t(status, self._policy.reaction_at(since))  # this reaction's draw

    def decide(self, match: Any, seat: Union[Player, str, int]) -> Decision:
        """The bot's decision for ``seat`` now (see :class:`Decision`).

        A round that is over gets ``Decision(None, match.t)``: nothing to do until the
        next round starts.
        """
        p = int(Player.parse(seat))
        t = match.t
        due = self.due_t(match, p)
        if due is None:
            return Decision(None, t)
        if t < due:  # charging, or within the reaction delay
            return Decision(None, due)
        rule, kind, cell, sims = self._policy.decide(match, p)
        if kind < 0:
            nxt = match.next_event_t()
            return Decision(None, nxt if nxt is not None else t + 1, rule, sims)
        where = index_cell(cell, match.rules.size)
        action = Action.place(where) if kind == ActionKind.PLACE else Action.knockout(where)
        return Decision(action, t + 1, rule, sims)


def make_bot(bot: Union[str, BotSpec] = "greedy", *, seed: int = 0, **overrides: Any) -> NativeBot:
    """A bot from a preset name (``random``, ``greedy``, ``search``, ``strong``, ``easy``,
    ``medium``, ``hard``) or a :class:`BotSpec`, with optional field overrides.

    >>> make_bot("hard").spec.kind
    'strong'
    >>> make_bot("search", budget=16).spec.budget
    16

    :raises ValueError: for an unknown name or an out-of-range parameter.
    """
    spec = resolve(bot)
    if overrides:
        spec = replace(spec, **overrides)
    return NativeBot(spec, seed=seed, name=bot if isinstance(bot, str) else spec.kind)


def play_matches(
    rules: Optional[Rules],
    x_bot: Union[str, BotSpec],
    o_bot: Union[str, BotSpec],
    seeds: Iterable[int],
    *,
    random_powerups: bool = True,
    stream: int = DEFAULT_STREAM,
    timing: bool = False,
) -> Dict[str, Any]:
    """Whole matches between two bots in the native loop (no GIL), as columns of NumPy
    arrays, one row a match (the shape of every game's runner: ``winner`` 0 X, 1 O, -1
    draw, then Blitz's own; ``blitz_core.blitz.bots.play_matches`` lists them).
    ``stream``: the random stream layout (docs/engine.md);
    ``timing``: also ``decide_ns`` (n, seat), the ns spent deciding."""
    from blitz_core.blitz import bots as nb

    return nb.play_matches(
        rules if rules is not None else Rules(),
        resolve(x_bot).native(),
        resolve(o_bot).native(),
        check_seeds(seeds if hasattr(seeds, "dtype") else list(seeds)),
        random_powerups=random_powerups,
        stream=stream,
        timing=timing,
    )


def match_records(cols: Dict[str, Any], seeds: Iterable[int]) -> List[Dict[str, Any]]:
    """The rows of :func:`play_matches`' columns as match records (:func:`play_match`)."""
    from blitz_core.blitz.bots import match_record

    return [match_record(cols, i, int(seed)) for i, seed in enumerate(seeds)]


def play_match(
    rules: Optional[Rules],
    x_bot: Union[str, BotSpec],
    o_bot: Union[str, BotSpec],
    seed: int = 0,
    *,
    random_powerups: bool = True,
) -> Dict[str, Any]:
    """One whole match between two bots, natively. Returns its record: ``winner``
    (``"X"``, ``"O"`` or ``"draw"``), ``rounds``, ``round_wins``, ``round_results`` and
    per seat (``"X"``, ``"O"``) the counts: decisions, placements, knock-outs,
    retirements, powerups claimed by kind, marks bombed and stolen, simulations, and
    decisions by the rule that chose them."""
    seeds = [check_seed(seed)]
    cols = play_matches(rules, x_bot, o_bot, seeds, random_powerups=random_powerups)
    return match_records(cols, seeds)[0]


def drive(
    match: Any,
    x_bot: Bot,
    o_bot: Bot,
    *,
    whole_match: bool = True,
    on_events: Optional[Callable[[List[Event]], None]] = None,
) -> Any:
    """Play ``match`` on with two :class:`Bot` objects through the public API (what a
    GUI loop does, one decision at a time). Both bots decide on the same state;
    actions at one ms go through ``act_both`` (R3). ``on_events``, if given, receives
    the events of every call that changed the match. Returns the match.

    With the seat seeds of ``play_matches`` (``seed ^ SEAT_SALTS[seat]``) this plays the
    very match the native loop plays (tests/blitz/test_blitz_bots.py holds them together)."""
    bots = (x_bot, o_bot)

    def call(method: Callable[..., Any], *args: Any) -> Any:
        result = method(*args)
        if on_events is not None:
            on_events(match.events)
        return result

    while True:
        while not match.round_over:
            asks = [bots[p].decide(match, Player(p)) for p in (0, 1)]
            x_action, o_action = asks[0].action, asks[1].action
            if x_action is not None or o_action is not None:
                call(match.act_both, x_action, o_action)  # one alone: plain act
            if match.round_over:
                break
            nxt = match.next_event_t()
            for p in (0, 1):
                status = match.status(Player(p))
                if not status.charge_full:
                    nxt = min(nxt, status.charge_ready_t)
                if asks[p].next_t > match.t:
                    nxt = min(nxt, asks[p].next_t)
            call(match.advance_to, max(nxt, match.t + 1))
        if match.match_over or not whole_match:
            return match
        call(match.start_next_round)


def _model() -> PlayerModel:
    """This game's player model (``.players``, found by the platform: it builds on this
    module, so importing it here would be a cycle)."""
    return cast(PlayerModel, player_model("blitz"))
