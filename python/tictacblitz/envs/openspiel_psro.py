"""OpenSpiel's PSRO (``open_spiel.python.algorithms.psro_v2``) on the registered games.

A thin face over ``psro_v2.PSROSolver`` with its exact best-response oracle
(``best_response_oracle.BestResponseOracle``), for what every caller would otherwise
redo (issue 28, docs/openspiel.md "PSRO"):

- a simultaneous game (Rift) is solved in its turn-based form
  (``pyspiel.convert_to_turn_based``): the oracle and the policy aggregator walk a
  sequential tree;
- the run owns its randomness: PSRO samples the meta-game and the policies to train
  against with the global ``random`` and ``np.random``, so the run swaps its own states
  in for each call and the caller's back out (reproducible by ``seed``, and nothing
  else's random draws change);
- psro_v2 prints its settings on construction: that goes to a buffer;
- a missing ``cvxpy`` (psro_v2's meta-solvers import it; the ``openspiel`` extra installs
  it) or a meta-solver that cannot run is one clear error.

::

    run = PSRO(pyspiel.load_game("tictacblitz_doh", {"pieces_per_size": 3}), seed=1)
    run.iterate(3)
    run.exploitability()  # of the meta-strategy's mixture of the population
"""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any, Iterator, List

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as exploitability_lib
from open_spiel.python.algorithms import policy_aggregator

__all__ = ["PSRO", "META_STRATEGIES"]

META_STRATEGIES = ("prd", "nash", "uniform", "uniform_biased", "rm")
"""psro_v2's meta-solvers by name (``meta_strategies.META_STRATEGY_METHODS``)."""


def _psro_modules() -> Any:
    try:
        from open_spiel.python.algorithms.psro_v2 import best_response_oracle, psro_v2
    except ModuleNotFoundError as missing:
        if missing.name != "cvxpy":
            raise
        raise ImportError(
            "PSRO needs cvxpy (open_spiel's psro_v2 imports it): "
            "pip install 'tictacblitz[openspiel]'"
        ) from None
    return psro_v2, best_response_oracle


def _check_meta_strategy(name: str) -> None:
    if name not in META_STRATEGIES:
        raise ValueError(f"meta_strategy={name!r}: must be one of {', '.join(META_STRATEGIES)}")
    if name == "nash":
        import cvxpy

        # lp_solver fixes cvxpy's ECOS solver, which cvxpy >= 1.6 no longer installs.
        if "ECOS" not in cvxpy.installed_solvers():
            raise ValueError("meta_strategy='nash' needs cvxpy's ECOS solver: pip install ecos")


class PSRO:
    """A PSRO run on ``game`` (a 2-player pyspiel game): a population per seat that
    starts with the uniform random policy; each :meth:`iterate` adds an exact best
    response to the meta-strategy's mixture of the other seat's population.

    :param meta_strategy: one of :data:`META_STRATEGIES` (``"prd"``: projected
        replicator dynamics, Lanctot et al. 2017).
    :param sims_per_entry: games sampled per meta-game entry.
    :raises ValueError: a bad ``meta_strategy``, or a game that is not 2-player.
    :raises ImportError: without cvxpy.
    """

    def __init__(
        self,
        game: pyspiel.Game,
        *,
        meta_strategy: str = "prd",
        sims_per_entry: int = 20,
        seed: int = 0,
        prd_iterations: int = 10_000,
    ) -> None:
        if game.num_players() != 2:
            raise ValueError(f"PSRO here takes a 2-player game, not {game.num_players()}")
        _check_meta_strategy(meta_strategy)
        psro_v2, best_response_oracle = _psro_modules()
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        self.game = game
        """The game PSRO runs on (a simultaneous one in its turn-based form)."""
        self._py_random = random.Random(seed).getstate()
        self._np_random = np.random.RandomState(seed).get_state()
        uniform = policy_lib.TabularPolicy(game)
        oracle = best_response_oracle.BestResponseOracle(game=game, policy=uniform)
        with self._own_randomness(), contextlib.redirect_stdout(io.StringIO()):
            self.solver = psro_v2.PSROSolver(
                game,
                oracle,
                sims_per_entry=sims_per_entry,
                initial_policies=[uniform.__copy__() for _ in range(2)],
                training_strategy_selector="probabilistic",
                meta_strategy_method=meta_strategy,
                sample_from_marginals=True,
                prd_iterations=prd_iterations,
                prd_gamma=1e-10,
            )

    @contextlib.contextmanager
    def _own_randomness(self) -> Iterator[None]:
        saved = random.getstate(), np.random.get_state()
        random.setstate(self._py_random)
        np.random.set_state(self._np_random)
        try:
            yield
        finally:
            self._py_random, self._np_random = random.getstate(), np.random.get_state()
            random.setstate(saved[0])
            np.random.set_state(saved[1])

    def iterate(self, iterations: int = 1) -> None:
        """``iterations`` PSRO iterations (a best response per seat, then the meta-game
        and the meta-strategy updated)."""
        with self._own_randomness():
            for _ in range(iterations):
                self.solver.iteration()

    def population_sizes(self) -> List[int]:
        return [len(policies) for policies in self.solver.get_policies()]

    def meta_strategies(self) -> List[np.ndarray]:
        """Per seat, the meta-strategy's probability of each policy of its population."""
        return [np.asarray(p, dtype=np.float64) for p in self.solver.get_meta_strategies()]

    def policy(self) -> policy_lib.Policy:
        """The meta-strategy's mixture of the populations as one policy of the game
        (``policy_aggregator``: each seat's policies weighted by its meta-strategy)."""
        aggregator = policy_aggregator.PolicyAggregator(self.game)
        return aggregator.aggregate(range(2), self.solver.get_policies(), self.meta_strategies())

    def exploitability(self) -> float:
        """OpenSpiel's exploitability of :meth:`policy` (the mean over both seats of what a
        best response gains against it; 1 = a sure win)."""
        return float(exploitability_lib.exploitability(self.game, self.policy()))
