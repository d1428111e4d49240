"""MaskablePPO (sb3-contrib) on Tic Tac Blitz: a short run for researchers who use
Stable-Baselines3. Needs ``pip install sb3-contrib`` (PyTorch); not a dependency of
tictacblitz.

    PYTHONPATH=python python examples/maskable_ppo.py --timesteps 20000

The env is ``BlitzEnv`` on the ``tiny`` preset (one 10 s round on 4x4, lines of 3)
against ``random``, with the legal-action mask in the info (``mask_in_info=True``) so
that the observation is only the board and scalars; MaskablePPO reads the mask through
``action_masks()`` (sb3-contrib's ``ActionMasker`` wrapper forwards it).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def make_env(opponent: str = "random", seed: int = 0):
    from gymnasium.wrappers import FlattenObservation
    from sb3_contrib.common.wrappers import ActionMasker

    from tictacblitz.envs.games.blitz import make_env as blitz_env

    base = blitz_env("tiny", opponent=opponent, mask_in_info=True)
    env = FlattenObservation(base)  # planes + scalars as one vector
    return ActionMasker(env, lambda _env: base.action_masks())


def win_rate(model, opponent: str, matches: int, seed: int = 1000) -> float:
    env = make_env(opponent)
    wins = 0
    for k in range(matches):
        obs, info = env.reset(seed=seed + k)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                wins += info["match_result"] == 0
                break
    return wins / matches


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="MaskablePPO on Tic Tac Blitz (tiny preset)")
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--eval", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    from sb3_contrib import MaskablePPO

    env = make_env(args.opponent, args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=args.seed, verbose=0)
    before = win_rate(model, args.opponent, args.eval)
    model.learn(total_timesteps=args.timesteps)
    after = win_rate(model, args.opponent, args.eval)
    print(
        f"win rate vs {args.opponent}: {before:.2f} before, {after:.2f} after "
        f"{args.timesteps} steps ({args.eval} matches each)"
    )
    return 0 if np.isfinite(after) else 1


if __name__ == "__main__":
    sys.exit(main())
