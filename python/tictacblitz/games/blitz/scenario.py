"""Scenario files (docs/replay-format.md): a timed script in, a result out.

:func:`load_scenario` validates a parsed JSON object strictly into a :class:`Scenario`;
:func:`run_scenario` plays it on any match with the engine API (``ReferenceMatch`` or
the native ``Match``) and returns the docs/replay-format.md result.  The same format is the
replay format.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

from .rules import Rules
from .streams import STREAM_LAYOUTS
from .types import Action, Player, PowerupKind, Reason, parse_cell

__all__ = ["ScenarioError", "ScriptEntry", "Scenario", "load_scenario", "run_scenario"]

_ENTRY_KEYS = {"t", "round", "player", "place", "knockout", "spawn", "cell"}


class ScenarioError(ValueError):
    """A scenario file that does not follow docs/replay-format.md."""


@dataclass(frozen=True)
class ScriptEntry:
    """One script entry: an action (``player`` and ``action``) or a scripted ``spawn``."""

    round: int
    t: int
    player: Optional[Player] = None
    action: Optional[Action] = None
    spawn: Optional[PowerupKind] = None
    cell: Optional[Tuple[int, int]] = None


@dataclass(frozen=True)
class Scenario:
    """A validated scenario; ``script`` is in play order (round, t, then file order)."""

    rules: Rules
    seed: int
    setup: Optional[Tuple[str, ...]]
    script: Tuple[ScriptEntry, ...]
    until: Optional[int]
    snapshots: Tuple[int, ...]
    stream: int = 1  # the random stream layout; files without the field are layout 1

    @property
    def scripted_powerups(self) -> bool:
        """A scenario with any spawn entry has no random spawns (R16 off)."""
        return any(entry.spawn is not None for entry in self.script)

    @property
    def last_round(self) -> int:
        """The last round the script names (round 1 for an empty script)."""
        return max((entry.round for entry in self.script), default=1)


MatchFactory = Callable[..., Any]


# -- loading ------------------------------------------------------------------------------


def load_scenario(data: Any) -> Scenario:
    """Validate a parsed scenario file.  Optional keys may be absent or null.

    :raises ScenarioError: naming the first thing wrong with it.
    """
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario is a JSON object, not {type(data).__name__}")
    rules = _load_rules(data.get("rules"))
    seed = data.get("seed")
    seed = 0 if seed is None else _integer(seed, "seed", minimum=None)
    stream = _load_stream(data.get("stream"))
    setup = _load_setup(data.get("setup"), rules)
    script = data.get("script")
    script = [] if script is None else script
    if not isinstance(script, list):
        raise ScenarioError(f"script must be a list of entries, not {script!r}")
    entries = [_load_entry(raw, i, rules) for i, raw in enumerate(script)]
    entries.sort(key=lambda e: (e.round, e.t))  # stable: equal keys keep file order
    _check_one_action_per_ms(entries)
    until = data.get("until")
    until = None if until is None else _integer(until, "until")
    snapshots = data.get("snapshots")
    snapshots = [] if snapshots is None else snapshots
    if not isinstance(snapshots, list):
        raise ScenarioError(f"snapshots must be a list of ms, not {snapshots!r}")
    snapshot_ms = sorted({_integer(ms, "snapshot") for ms in snapshots})
    return Scenario(rules, seed, setup, tuple(entries), until, tuple(snapshot_ms), stream)


def _load_stream(value: Any) -> int:
    """docs/replay-format.md ``stream``: absent (or null) means layout 1, the layout of
    every file written before the field existed (issue 22), so old files replay as
    they were recorded."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value not in STREAM_LAYOUTS:
        raise ScenarioError(f"stream must be a stream layout (1 or 2), not {value!r}")
    return int(value)


def _integer(value: Any, what: str, minimum: Optional[int] = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{what} must be an integer, not {value!r}")
    if minimum is not None and value < minimum:
        raise ScenarioError(f"{what} must be >= {minimum}, not {value}")
    return value


def _load_rules(raw: Any) -> Rules:
    if raw is None:
        return Rules()
    if not isinstance(raw, dict):
        raise ScenarioError(f"rules must be an object, not {raw!r}")
    try:
        return Rules.from_dict(raw)
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"rules: {exc}") from None


def _load_setup(raw: Any, rules: Rules) -> Optional[Tuple[str, ...]]:
    """Setup board: ``size`` rows of ``size`` chars X/O/., at most mark_limit each."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ScenarioError(f"setup must be a list of {rules.size} strings, not {raw!r}")
    try:
        rules.setup_marks(raw)
    except (TypeError, ValueError) as exc:
        raise ScenarioError(str(exc)) from None
    return tuple(raw)


def _load_entry(raw: Any, number: int, rules: Rules) -> ScriptEntry:
    """One script entry: an action or a scripted spawn, never both."""
    where = f"script[{number}]"
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where} must be an object, not {raw!r}")
    unknown = sorted(set(raw) - _ENTRY_KEYS)
    if unknown:
        raise ScenarioError(f"{where} has unknown key(s) {', '.join(map(repr, unknown))}")
    if "t" not in raw:
        raise ScenarioError(f"{where} has no t")
    t = _integer(raw["t"], f"{where}.t")
    round_ = _integer(raw.get("round", 1), f"{where}.round", minimum=1)
    if "player" in raw and "spawn" in raw:
        raise ScenarioError(f"{where} has both player and spawn")
    if "spawn" in raw:
        if "place" in raw or "knockout" in raw:
            raise ScenarioError(f"{where}: a spawn entry has no place or knockout")
        kind = raw["spawn"]
        if kind not in [k.key for k in PowerupKind]:
            raise ScenarioError(
                f"{where}.spawn must be one of "
                f"{', '.join(k.key for k in PowerupKind)}, not {kind!r}"
            )
        cell = _cell(raw.get("cell"), f"{where}.cell", rules)
        return ScriptEntry(round_, t, spawn=PowerupKind.parse(kind), cell=cell)
    if "player" not in raw:
        raise ScenarioError(f"{where} has neither player nor spawn")
    if raw["player"] not in ("X", "O"):
        raise ScenarioError(f"{where}.player must be 'X' or 'O', not {raw['player']!r}")
    if "cell" in raw:
        raise ScenarioError(f"{where}: an action gives its cell as place or knockout, not cell")
    if ("place" in raw) == ("knockout" in raw):
        raise ScenarioError(f"{where} must have exactly one of place and knockout")
    if "place" in raw:
        action = Action.place(_cell(raw["place"], f"{where}.place", rules))
    else:
        action = Action.knockout(_cell(raw["knockout"], f"{where}.knockout", rules))
    return ScriptEntry(round_, t, player=Player[raw["player"]], action=action)


def _cell(raw: Any, what: str, rules: Rules) -> Tuple[int, int]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{what} must be a [row, col] list, not {raw!r}")
    try:
        return parse_cell(raw, rules.size)
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def _check_one_action_per_ms(entries: List[ScriptEntry]) -> None:
    seen = set()
    for entry in entries:
        if entry.player is None:
            continue
        key = (entry.round, entry.t, entry.player)
        if key in seen:
            raise ScenarioError(
                f"{entry.player.letter} acts twice at round {entry.round} t={entry.t}"
            )
        seen.add(key)


# -- running ------------------------------------------------------------------------------


def run_scenario(
    scenario: Scenario,
    match_factory: MatchFactory,
    *,
    on_call: Optional[Callable[[Any], None]] = None,
) -> Dict[str, Any]:
    """Play ``scenario`` on ``match_factory(rules, seed=, setup=, random_powerups=, stream=)``.

    Each round the script names is played in order; a round before the last is played to
    its end before the next starts.  Returns the docs/replay-format.md result.

    ``on_call(match)``, if given, is called after every call that changes the match
    (its ``events`` are that call's), and time then moves one timed event at a time, as
    a live match would push it; the result is the same either way (R1).
    """
    play = _Player(
        match_factory(
            scenario.rules,
            seed=scenario.seed,
            setup=list(scenario.setup) if scenario.setup is not None else None,
            random_powerups=not scenario.scripted_powerups,
            stream=scenario.stream,
        ),
        on_call,
    )
    match = play.match
    rejected: List[Dict[str, Any]] = []
    snapshots: Dict[str, Any] = {}
    last = scenario.last_round
    for round_ in range(1, last + 1):
        entries = [e for e in scenario.script if e.round == round_]
        if round_ > 1:
            play.to_round_end()
            if match.match_over:
                # The match is decided: the rounds left are never played, and their
                # actions are rejected in time order (a loop over round numbers that
                # are never played could be unbounded).
                later = [e for e in scenario.script if e.round >= round_ and e.player is not None]
                rejected += [
                    _round_over(e) for e in sorted(later, key=lambda e: (e.round, e.t, e.player))
                ]
                break
            play.call(match.start_next_round)
        if round_ == last:
            _play_last_round(play, scenario, entries, rejected, snapshots)
        else:
            for t, group in groupby(entries, key=lambda e: e.t):
                _play_ms(play, t, list(group), rejected)
    wins = match.round_wins
    result = None
    if match.match_over:
        result = match.match_result.letter if match.match_result is not None else "draw"
    return {
        "rounds": [record.to_dict() for record in match.rounds],
        "round_wins": {"X": wins[0], "O": wins[1]},
        "match": result,
        "rejected": rejected,
        "state": match.state_dict(),
        "snapshots": snapshots,
    }


class _Player:
    """Drives the match for the runner, telling ``on_call`` about every changing call."""

    def __init__(self, match: Any, on_call: Optional[Callable[[Any], None]]) -> None:
        self.match = match
        self.on_call = on_call
        if on_call is not None:
            on_call(match)  # the construction's events (ROUND_STARTED)

    def call(self, method: Callable[..., Any], *args: Any) -> Any:
        result = method(*args)
        if self.on_call is not None:
            self.on_call(self.match)
        return result

    def advance_to(self, t: int) -> None:
        match = self.match
        if self.on_call is not None:  # one timed event at a time, as live
            while not match.round_over:
                nxt = match.next_event_t()
                if nxt is None or nxt > t:
                    break
                self.call(match.advance_to_next_event)
        if not match.round_over and match.t < t:
            self.call(match.advance_to, t)

    def to_round_end(self) -> None:
        while not self.match.round_over:
            self.call(self.match.advance_to_next_event)


def _play_last_round(
    play: _Player,
    scenario: Scenario,
    entries: List[ScriptEntry],
    rejected: List[Dict[str, Any]],
    snapshots: Dict[str, Any],
) -> None:
    """Play the last round's entries and snapshots up to ``until`` (or its end)."""
    match = play.match
    until = scenario.until
    if until is not None:
        # Entries and snapshots after ``until`` are not played, not recorded.
        entries = [e for e in entries if e.t <= until]
        moments = sorted({e.t for e in entries} | {ms for ms in scenario.snapshots if ms <= until})
    else:
        moments = sorted({e.t for e in entries} | set(scenario.snapshots))
    for t in moments:
        _play_ms(play, t, [e for e in entries if e.t == t], rejected)
        if t in scenario.snapshots and not (match.round_over and t > match.t):
            snapshots[str(t)] = match.state_dict()
    if until is not None:
        play.advance_to(until)
    else:
        play.to_round_end()


def _play_ms(
    play: _Player, t: int, entries: List[ScriptEntry], rejected: List[Dict[str, Any]]
) -> None:
    """Everything the script does at ms ``t``: spawns first (R2 step 4), then actions."""
    match = play.match
    play.advance_to(t)
    actions = _actions_x_first(entries)
    if match.round_over:
        rejected += [_round_over(e) for e in actions]
        return
    for entry in entries:
        if entry.spawn is not None:
            play.call(match.spawn_powerup, entry.spawn, entry.cell)
    if len(actions) == 2:
        play.call(match.act_both, actions[0].action, actions[1].action)
    elif actions:
        play.call(match.act, actions[0].player, actions[0].action)
    if actions:
        # In the order the engine applied them (R3's coin for two).
        rejected += [
            {"round": ev.round, "t": ev.t, "player": ev.player.letter, "reason": ev.reason.value}
            for ev in match.events
            if ev.reason is not None
        ]


def _actions_x_first(entries: List[ScriptEntry]) -> List[ScriptEntry]:
    return sorted(
        (e for e in entries if e.player is not None), key=lambda e: cast(Player, e.player)
    )


def _round_over(entry: ScriptEntry) -> Dict[str, Any]:
    return {
        "round": entry.round,
        "t": entry.t,
        "player": entry.player.letter,  # type: ignore[union-attr]
        "reason": Reason.ROUND_OVER.value,
    }
