"""Snapshots of a native vector env (issue 28): :class:`NativeSnapshots`, the
``get_state``/``set_state`` and pickling of
:class:`~tictacblitz.envs.native.vector.NativeVectorEnv`."""

from __future__ import annotations

from typing import Any, Dict

__all__ = ["NativeSnapshots"]


class NativeSnapshots:
    """``get_state``/``set_state`` and pickling over the env's options (``_options``),
    its native batch's snapshot, its seed generator and its games' seeds."""

    _options: Dict[str, Any]
    num_games: int
    self_play: bool
    batch: Any
    _rng: Any
    episode_seeds: Any
    _out: Any

    def set_opponent(self, opponent: Any) -> None:  # pragma: no cover - the env's
        raise NotImplementedError

    def _collect(self) -> Any:  # pragma: no cover - the env's
        raise NotImplementedError

    def get_state(self) -> Dict[str, Any]:
        """A snapshot of the whole env: every game (position, random streams, steps,
        flags), the last step's buffers, the opponents, the seed generator and the
        games' seeds. :meth:`set_state` (on this env or one made with the same options)
        continues identically; ``pickle`` goes through it (a callable opponent must be
        picklable)."""
        return {
            "options": dict(self._options, num_envs=self.num_games),
            "batch": self.batch.get_state(),
            "rng": self._rng.bit_generator.state,
            "episode_seeds": self.episode_seeds.copy(),
        }

    def set_state(self, state: Dict[str, Any]) -> None:
        """Resume a :meth:`get_state` snapshot.

        :raises ValueError: when the snapshot is of an env with other options (named)."""
        mine = dict(self._options, num_envs=self.num_games)
        theirs = state["options"]
        diff = sorted(
            k for k in mine if k != "opponent" and not _same_option(mine[k], theirs.get(k))
        )
        if diff:
            raise ValueError(f"the snapshot is of an env with other options: {', '.join(diff)}")
        if not self.self_play:
            self.set_opponent(theirs["opponent"])
        self.batch.set_state(state["batch"])
        self._rng.bit_generator.state = state["rng"]
        self.episode_seeds[:] = state["episode_seeds"]
        self._out = self._collect()

    def __getstate__(self) -> Dict[str, Any]:
        return {"snapshot": self.get_state(), "num_threads": self.batch.num_threads}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        options = dict(state["snapshot"]["options"])
        num_envs = options.pop("num_envs")
        init: Any = type(self).__init__  # the env's own (its options)
        init(self, num_envs, num_threads=state["num_threads"], **options)
        self.set_state(state["snapshot"])


def _same_option(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except ValueError:  # pragma: no cover - arrays compare elementwise
        return a is b
