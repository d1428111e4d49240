"""Issue 28 item 3: MaskablePPO's samples per second on SB3VecEnv against N single envs.

MaskablePPO("MlpPolicy") on Blitz's ``tiny`` preset against ``random``, 64 envs, the
same hyper-parameters, timed over ``learn`` (collection and updates) on one thread of
torch: ``SB3VecEnv`` over the native vector env against SB3's ``DummyVecEnv`` of 64
``BlitzEnv`` (sb3-contrib's ``ActionMasker``, flattened observations), the recipe of
examples/maskable_ppo.py. Needs stable-baselines3, sb3-contrib and torch.

    PYTHONPATH=python python benches/bench_rl_sb3.py [--steps 16384]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

N_ENVS = 64


def _single_envs():
    import gymnasium
    from sb3_contrib.common.wrappers import ActionMasker
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tictacblitz.envs.games.blitz import make_env

    def one(i: int):
        def build():
            env = make_env("tiny", opponent="random")
            env = gymnasium.wrappers.FilterObservation(env, ["planes", "scalars"])
            env = gymnasium.wrappers.FlattenObservation(env)
            return ActionMasker(env, lambda e: e.unwrapped.action_masks())

        return build

    return DummyVecEnv([one(i) for i in range(N_ENVS)])


def samples_per_second(venv, steps: int) -> float:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=1024, n_epochs=2, seed=0)
    model.learn(total_timesteps=N_ENVS * 64)  # warm-up: one rollout and update
    start = time.perf_counter()
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=16_384)
    args = parser.parse_args()
    from tictacblitz.envs.sb3 import make_sb3_env

    load = "%.1f %.1f %.1f" % os.getloadavg()
    rates = {"SB3VecEnv": [], "DummyVecEnv of BlitzEnv": []}
    for _ in range(2):  # interleaved: both see the same load
        rates["SB3VecEnv"].append(
            samples_per_second(make_sb3_env("blitz", N_ENVS, preset="tiny", seed=0), args.steps)
        )
        rates["DummyVecEnv of BlitzEnv"].append(samples_per_second(_single_envs(), args.steps))
    print(f"MaskablePPO learn, {N_ENVS} envs, tiny vs random, load average before: {load}")
    for k, v in rates.items():
        print(f"  {k:25s} {np.median(v):8.0f} samples/s ({', '.join(f'{x:.0f}' for x in v)})")
    ratio = np.median(rates["SB3VecEnv"]) / np.median(rates["DummyVecEnv of BlitzEnv"])
    print(f"  SB3VecEnv / DummyVecEnv: {ratio:.2f}")


if __name__ == "__main__":
    main()
