"""Issue 28, items 1 and 2: the default thread count, and the learner's path against the stepper.

Three measurements, 1,024 envs of the standard game, 50 ms steps, Blitz vs ``easy``:

- ``threads``: the native stepper (X the native random policy, O ``easy``, ``bits``, no
  masks) at one thread, two threads (libgomp's default wait policy) and the default
  (``num_threads=None``: measured, common/autothreads.pxd), each in a fresh process
  (libgomp reads its settings once per process), idle and with one busy neighbour: a
  process spinning on one core that this bench starts and stops. Rounds interleave the
  configurations so that they share the machine's load; the median of the rounds.
- ``learner``: in one process, rounds interleaved: the native stepper as above, and the
  learner's path, :class:`LearnerBatch` (the learner's actions in, here
  ``sample_actions()``; the learner seat's int64 bits, scalars, bool mask, float32
  rewards and flags out, in place), and for reference ``BlitzVectorEnv(copy=False)``
  (float32 planes, info dict) and the same with ``obs="bits"``.
- ``async``: a learner that spends time per step (a NumPy linear policy over the
  unpacked bits) stepping one :class:`LearnerBatch` of 1,024 in turn, against
  :class:`LearnerPool` (2 groups of 512, ``send``/``recv``: one group steps on a worker
  thread while the learner works on the other).

    PYTHONPATH=python python benches/bench_rl_speed.py [threads|learner|async] [--seconds S]

Prints steps/s (match-steps: one learner decision in each env) and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Tuple

import numpy as np

N_ENVS = 1024
OPPONENT = "easy"


def _threads_arg(text: str):
    return None if text == "default" else int(text)


def stepper(num_threads, n: int = N_ENVS):
    from tictacblitz.envs.games.blitz import BatchedMatches

    batch = BatchedMatches(
        n, seed=0, policies=("random", OPPONENT), obs="bits", masks=False, num_threads=num_threads
    )
    return batch, lambda: batch.step()


def learner(num_threads, n: int = N_ENVS):
    from tictacblitz.envs.games.blitz import LearnerBatch

    batch = LearnerBatch(n, opponent=OPPONENT, seed=0, num_threads=num_threads)

    def run() -> None:
        batch.step(batch.sample_actions())

    return batch, run


def vector_env(num_threads, obs: str, n: int = N_ENVS):
    from tictacblitz.envs.games.blitz import BlitzVectorEnv

    env = BlitzVectorEnv(n, opponent=OPPONENT, seed=0, copy=False, obs=obs, num_threads=num_threads)
    sampled = np.zeros((n, 2), dtype=np.int64)

    def run() -> None:
        env.step(env.batch.sample_actions(sampled)[:, 0])

    return env, run


def rate(run: Callable[[], None], seconds: float, n: int = N_ENVS) -> float:
    """Steps per second of ``run`` (n steps a call) over about ``seconds``."""
    return rates(run, seconds, n)[0]


def rates(run: Callable[[], None], seconds: float, n: int = N_ENVS) -> Tuple[float, float]:
    """Steps per wall-clock second and per second of the process's CPU time (all
    threads; the one that the machine's load does not change)."""
    calls = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        for _ in range(10):
            run()
        calls += 10
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * n / elapsed, calls * n / max(time.process_time() - cpu, 1e-9)


def _child(config: str, seconds: float, warm: float) -> None:
    """One configuration of ``threads`` in this fresh process: prints its steps/s."""
    _, run = stepper(_threads_arg(config))
    rate(run, warm)
    print(rate(run, seconds))


def _load() -> str:
    return "%.1f %.1f %.1f" % os.getloadavg()


def threads(
    seconds: float = 3.0, rounds: int = 3, warm: float = 2.0
) -> Dict[str, Dict[str, float]]:
    configs = ("1", "2", "default")
    out: Dict[str, Dict[str, float]] = {}
    env = dict(os.environ)
    for neighbour in ("no neighbour", "one busy neighbour"):
        spinner = None
        if neighbour != "no neighbour":
            spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            runs: Dict[str, List[float]] = {c: [] for c in configs}
            load = _load()
            for _ in range(rounds):
                for c in configs:
                    cmd = [sys.executable, __file__, "_child", c, str(seconds), str(warm)]
                    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
                    runs[c].append(float(res.stdout.split()[-1]))
        finally:
            if spinner is not None:
                spinner.kill()
                spinner.wait()
        med = {c: statistics.median(v) for c, v in runs.items()}
        best = max(med["1"], med["2"])
        print(f"{neighbour} (load average before: {load}):")
        for c in configs:
            spread = ", ".join(f"{x / 1e6:.2f}" for x in runs[c])
            print(f"  threads {c:>7}: {med[c] / 1e6:6.2f} M steps/s (rounds: {spread})")
        print(f"  default / best explicit: {med['default'] / best:.2f}")
        out[neighbour] = med
    return out


def learner_path(seconds: float = 1.0, rounds: int = 5, num_threads=None) -> Dict[str, float]:
    faces = {
        "native stepper (random X, bits, no masks)": stepper(num_threads),
        "LearnerBatch: sample_actions + step": learner(num_threads),
        "BlitzVectorEnv(copy=False), planes": vector_env(num_threads, "planes"),
        "BlitzVectorEnv(copy=False), bits": vector_env(num_threads, "bits"),
    }
    for _, run in faces.values():
        rate(run, 0.5)
    runs: Dict[str, List[float]] = {k: [] for k in faces}
    cpus: Dict[str, List[float]] = {k: [] for k in faces}
    load = _load()
    for _ in range(rounds):
        for k, (_, run) in faces.items():
            wall, cpu = rates(run, seconds)
            runs[k].append(wall)
            cpus[k].append(cpu)
    med = {k: statistics.median(v) for k, v in runs.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpus.items()}
    key = "native stepper (random X, bits, no masks)"
    base, base_cpu = med[key], med_cpu[key]
    label = "default (measured)" if num_threads is None else str(num_threads)
    print(f"threads {label}, load average before: {load}, after: {_load()}")
    print(f"  {'':45s} {'wall-clock':>16s} {'':>9s} {'per CPU-second':>16s}")
    for k, v in med.items():
        c = med_cpu[k]
        print(
            f"  {k:45s} {v / 1e6:6.2f} M steps/s {v / base:5.2f}x   "
            f"{c / 1e6:6.2f} M steps/s {c / base_cpu:5.2f}x"
        )
    return med


def _policy(weights: np.ndarray):
    """A linear policy over the unpacked bits: the learner's work per step."""
    shifts = np.arange(36, dtype=np.int64)

    def act(obs: Dict[str, np.ndarray]) -> np.ndarray:
        cells = ((obs["bits"][:, :, None] >> shifts) & 1).reshape(len(obs["bits"]), -1)
        logits = cells.astype(np.float32) @ weights
        logits[~obs["action_mask"]] = -np.inf
        return logits.argmax(axis=1)

    return act


def async_pool(seconds: float = 2.0, rounds: int = 3) -> Dict[str, float]:
    from tictacblitz.envs.games.blitz import LearnerBatch, LearnerPool

    weights = np.random.default_rng(0).standard_normal((11 * 36, 73)).astype(np.float32)
    act = _policy(weights)
    sync = LearnerBatch(N_ENVS, opponent=OPPONENT, seed=0, num_threads=1)
    sync.reset(seed=0)
    pool = LearnerPool(N_ENVS // 2, 2, opponent=OPPONENT)
    pool.reset(seed=0)

    def run_sync() -> None:
        sync.step(act(sync.obs))

    def run_pool() -> None:
        (obs, _, _, _), _ = pool.recv()
        pool.send(act(obs))

    runs: Dict[str, List[float]] = {"sync": [], "pool": []}
    load = _load()
    for _ in range(rounds):
        runs["sync"].append(rate(run_sync, seconds))
        runs["pool"].append(rate(run_pool, seconds, N_ENVS // 2))
    pool.close()
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"learner with a linear policy, 1,024 envs, load average before: {load}")
    print(f"  one LearnerBatch, step in turn:    {med['sync'] / 1e6:6.3f} M steps/s")
    print(f"  LearnerPool, 2 x 512, send/recv:   {med['pool'] / 1e6:6.3f} M steps/s")
    print(f"  pool / sync: {med['pool'] / med['sync']:.2f}")
    return med


def main() -> None:
    if sys.argv[1:2] == ["_child"]:
        _child(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", nargs="?", default="all", choices=("all", "threads", "learner", "async")
    )
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--threads", default="default", help="learner: 1, 2 or default")
    args = parser.parse_args()
    if args.what in ("all", "threads"):
        threads(seconds=args.seconds or 3.0)
    if args.what in ("all", "learner"):
        learner_path(seconds=args.seconds or 1.0, num_threads=_threads_arg(args.threads))
    if args.what in ("all", "async"):
        async_pool(seconds=args.seconds or 2.0)


if __name__ == "__main__":
    main()
