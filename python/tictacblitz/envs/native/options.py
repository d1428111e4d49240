"""The options and conventions every game's RL faces share (issue 28), for
:mod:`tictacblitz.envs.native.vector` (the native steppers' base) and
:mod:`tictacblitz.envs` (the protocol environments): the info of a step, the observation
and mask spaces, ``rules=``, ``seat=``, ``opponent=`` (bot names or callables) and
``autoreset_mode=``, and :data:`NOOP_ACTION`.

gymnasium is imported by the two functions that build its objects, not by this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from ...games.rng import check_seed, check_seeds

if TYPE_CHECKING:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode

__all__ = [
    "RowOutputs",
    "NOOP_ACTION",
    "INFO_KEYS",
    "step_info",
    "observation_space",
    "rules_of",
    "reset_seeds",
    "check_render_mode",
    "seat_of",
    "opponents_of",
    "autoreset_of",
    "with_key_masks",
    "next_game_seed",
    "reject_self_play_options",
    "callable_codes",
    "action_code",
]

NOOP_ACTION = 0
"""The one legal action of a row that cannot act (its game is over, or in an alternating
game's self-play another seat is to move): every mask has at least one legal action, so
a masked softmax is never over nothing. Its action is ignored (issue 28; Blitz's code 0
is ``wait``, a real no-op)."""

INFO_KEYS: Tuple[str, ...] = ("round", "t", "round_wins", "reason", "rejected")
"""The info keys of every face, single, vector and PettingZoo (docs/rl.md); a face may
add its own (``steps`` on the turn-based games' faces, ``round_result`` on Blitz's)."""


def step_info(
    reasons: Sequence[str], reason: int, steps: int, num_players: int = 2
) -> Dict[str, Any]:
    """The protocol env's info of one step of a turn-based game (docs/rl.md): ``reason``
    -1 no action, 0 accepted, else the 1-based position in ``reasons`` (the game's
    ``GameType.reasons``); ``rejected`` the reason itself; ``round_wins`` one 0 a seat
    (a game without rounds)."""
    return {
        "round": 1,
        "t": int(steps),
        "round_wins": (0,) * num_players,
        "reason": int(reason),
        "rejected": reasons[reason - 1] if reason > 0 else None,
        "steps": int(steps),
    }


def observation_space(
    shape: Sequence[int],
    num_actions: int,
    mask: bool = True,
    bounds: Optional[Tuple[Any, Any]] = None,
) -> spaces.Dict:
    """One seat's observation: the game's tensor of ``shape`` and the legal-action mask
    (without it for ``mask=False``: the mask then travels in the info). ``bounds``:
    ``(low, high)``, scalars or arrays of ``shape``, the values the tensor can take (a
    game's rl hook's ``observation_bounds``); None: unbounded."""
    spaces = _gymnasium().spaces
    low, high = (-np.inf, np.inf) if bounds is None else bounds
    fields: Dict[str, Any] = {
        "observation": spaces.Box(
            np.broadcast_to(np.asarray(low, np.float32), tuple(shape)),
            np.broadcast_to(np.asarray(high, np.float32), tuple(shape)),
            tuple(shape),
            np.float32,
        )
    }
    if mask:
        fields["action_mask"] = spaces.Box(0, 1, (num_actions,), np.int8)
    return spaces.Dict(fields)


def rules_of(rules_type: Any, rules: Any) -> Any:
    """A stepper's ``rules=`` option: None (the defaults), a ``rules_type``, or a mapping
    of overrides (``rules_type.from_dict`` checks them)."""
    if rules is None:
        return rules_type()
    return rules if isinstance(rules, rules_type) else rules_type.from_dict(rules)


def seat_of(seat: Any, seat_names: Sequence[str]) -> int:
    """An env's ``seat=`` option, a seat's index (0 to N-1) or its name, as the index.

    :raises ValueError: naming the bad value.
    """
    n = len(seat_names)
    if isinstance(seat, bool) or seat not in (*range(n), *seat_names):
        indices = "0 or 1" if n == 2 else f"0 to {n - 1}"
        names = ", ".join(seat_names)
        raise ValueError(f"seat must be {indices} or a seat's name ({names}), not {seat!r}")
    return list(seat_names).index(seat) if isinstance(seat, str) else int(seat)


def opponents_of(
    opponent: Any, seat: int, num_players: int, bot_names: Optional[Sequence[str]]
) -> Tuple[Any, ...]:
    """An env's ``opponent=`` option as one bot name per other seat, in seat order (the
    agent's seat skipped; a name may be a player spec, ``greedy:error=10%``, issue 23,
    which the game's bots check; or, where the env takes them, a callable ``fn(obs, mask)
    -> actions``, a batched policy such as a frozen network): one for all of them,
    ``num_players - 1`` (the other seats in order), or ``num_players`` entries with
    ``None`` at the agent's seat.

    >>> opponents_of("greedy", 1, 3, ("random", "greedy"))
    ('greedy', 'greedy')
    >>> opponents_of(["random", None, "greedy"], 1, 3, ("random", "greedy"))
    ('random', 'greedy')

    :raises ValueError: naming the bad value (an unknown bot, a wrong count); with
        ``bot_names`` None the names are left to the caller to check.
    """
    if isinstance(opponent, str) or callable(opponent):
        names: Tuple[Any, ...] = (opponent,) * (num_players - 1)
    elif isinstance(opponent, Sequence) and len(opponent) == num_players - 1:
        names = tuple(opponent)
    elif isinstance(opponent, Sequence) and len(opponent) == num_players and opponent[seat] is None:
        names = tuple(name for k, name in enumerate(opponent) if k != seat)
    else:
        raise ValueError(
            f"opponent must be a bot name or a list of {num_players - 1} (the other seats in "
            f"order) or {num_players} (None at the agent's seat {seat}), not {opponent!r}"
        )
    if bot_names is not None:
        for name in names:  # a player spec (BOT:NAME=VALUE,...) the game's bots check
            if callable(name):
                continue
            if not isinstance(name, str) or (name not in bot_names and ":" not in name):
                known = ", ".join(bot_names)
                raise ValueError(f"unknown opponent {name!r}: expected one of {known}")
    return names


def _gymnasium() -> Any:
    try:
        import gymnasium
        import gymnasium.vector
    except ImportError as exc:  # pragma: no cover - the rl extra is missing
        raise ImportError(
            "the RL environments need gymnasium (pip install 'tictacblitz[rl]')"
        ) from exc
    return gymnasium


def reset_seeds(seed: Any, idx: np.ndarray, num_games: int, rng: Any) -> Tuple[np.ndarray, Any]:
    """A vector env's ``reset(seed=...)``: games ``idx``'s seeds and the env's generator
    (an int ``s`` reseeds it, game i plays ``s + i``; None draws from it; else one seed a
    game).

    :raises ValueError: naming the bad value."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        base = check_seed(seed)
        with np.errstate(over="ignore"):  # game i plays s + i, modulo 2**64
            return np.uint64(base) + idx.astype(np.uint64), np.random.default_rng(base)
    if seed is None:
        return rng.integers(0, 2**63, size=len(idx), dtype=np.uint64), rng
    all_seeds = np.asarray(seed)
    if all_seeds.shape != (num_games,) or all_seeds.dtype.kind not in "iu":
        raise ValueError(f"seed must be an int, None or {num_games} integers, not {seed!r}")
    return check_seeds(all_seeds, "seed")[idx], rng


def check_render_mode(mode: Any, modes: Sequence[str]) -> None:
    """An env's ``render_mode=`` option: None or one of ``modes``.

    :raises ValueError: naming the bad value."""
    if mode is not None and mode not in modes:
        names = ["None", *map(repr, modes)]
        raise ValueError(
            f"render_mode must be {', '.join(names[:-1])} or {names[-1]}, not {mode!r}"
        )


def autoreset_of(mode: Union[str, AutoresetMode]) -> AutoresetMode:
    """An env's ``autoreset_mode=`` option: an ``AutoresetMode`` or its name
    (``"next_step"``, ``"same_step"``, ``"disabled"``).

    :raises ValueError: naming the bad value."""
    modes = _gymnasium().vector.AutoresetMode
    if isinstance(mode, modes):
        return mode
    names = {m.name.lower(): m for m in modes}
    if isinstance(mode, str) and mode.lower() in names:
        return names[mode.lower()]
    raise ValueError(f"unknown autoreset mode {mode!r}: next_step, same_step or disabled")


class RowOutputs:
    """One step's outputs, one entry per row: ``obs`` (a dict of arrays), ``rewards``
    (float64), ``terminated``, ``truncated``, ``reasons``, ``steps``, ``winners``."""

    __slots__ = ("obs", "rewards", "terminated", "truncated", "reasons", "steps", "winners")

    def __init__(self, obs, rewards, terminated, truncated, reasons, steps, winners) -> None:
        self.obs: Dict[str, np.ndarray] = obs
        self.rewards, self.terminated, self.truncated = rewards, terminated, truncated
        self.reasons, self.steps, self.winners = reasons, steps, winners


def with_key_masks(info: Dict[str, Any], present: np.ndarray) -> Dict[str, Any]:
    """Gymnasium's vector info convention: next to every key ``k`` a bool ``_k`` saying
    which rows have it (here ``present``: every row, or the rows an episode ended in)."""
    for key in list(info):
        if not key.startswith("_"):
            info["_" + key] = present
    return info


def next_game_seed(
    stream: Optional[np.random.Generator], seed: Optional[int]
) -> Tuple[np.random.Generator, int]:
    """A reset's game seed and the stream to keep: ``seed``, or (None) a fresh one from
    ``stream``, seeded by the last seeded reset, or from OS entropy before any (issue 28:
    the games differ from reset to reset, the secret deal of a hidden-information game
    included; seeded resets replay)."""
    if seed is not None:
        return np.random.default_rng(int(seed)), int(seed)
    if stream is None:
        stream = np.random.default_rng()  # never seeded: OS entropy
    return stream, int(stream.integers(0, 2**63))


def reject_self_play_options(options: Dict[str, Any], seats: str) -> None:
    """Self-play has no ``opponent`` or ``seat`` (``seats`` says whose the seats are).

    :raises ValueError: naming the first of them given.
    """
    for bad in ("opponent", "seat"):
        if bad in options:
            raise ValueError(f"self-play has no {bad}: {seats}")


def callable_codes(out: np.ndarray, seat: int, num_games: int, num_actions: int) -> np.ndarray:
    """A callable opponent's answer (``out``) as int64 codes, one a game.

    :raises ValueError: naming the seat and what it returned instead.
    """
    if out.shape != (num_games,) or out.dtype.kind not in "iu":
        raise ValueError(
            f"the callable opponent of seat {seat} must return {num_games} "
            f"integer codes, not {out.dtype} {out.shape}"
        )
    if out.min(initial=0) < 0 or out.max(initial=0) >= num_actions:
        raise ValueError(
            f"the callable opponent of seat {seat} returned codes outside [0, {num_actions})"
        )
    return out.astype(np.int64)


def action_code(action: Any, num_actions: int, agent: str = "", idle: Optional[int] = None) -> int:
    """One action given to a one-game face (a NumPy scalar too) as an int code in
    ``[0, num_actions)``, or ``idle`` (a parallel env's missing agent's code).

    :raises TypeError: for an action that is not an integer; ValueError: for a code out
        of range (each one line, naming ``agent`` when given)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    whose = f"{agent}'s " if agent else ""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{whose}action must be an integer code, not {action!r}")
    if action != idle and not 0 <= action < num_actions:
        also = "" if idle is None or 0 <= idle < num_actions else f" (or {idle}: idle)"
        raise ValueError(f"{whose}action code {action} out of range [0, {num_actions}){also}")
    return int(action)


def render_game(vec: Any, render_mode: Optional[str]) -> Any:
    """The one game of a one-game face (its vector env's game 0) rendered: ``ansi`` its
    text, ``rgb_array`` its image (a game that draws one), otherwise nothing."""
    if render_mode == "ansi":
        return vec.describe(0)
    if render_mode == "rgb_array":
        return vec.frame(0)
    return None
