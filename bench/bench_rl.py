"""Steps per second of the RL environments (playtest/rl/) beside the bare engine, random legal play.

Three loops, interleaved run by run so that the machine's drift hits them alike:

- the engine alone: ``legal_actions()`` and ``apply()`` of a uniformly random legal action;
- the PettingZoo AEC environment: each step reads the acting agent's observation and mask
  (``env.last()``) and applies a random legal action, as a training loop would;
- the vector environment (:class:`playtest.rl.SplendorVectorEnv`, ``--num-envs`` games):
  each step draws a random legal action per game from the batched masks (one numpy
  expression, outside the clock: a policy's work) and steps them all; its steps are
  decisions, one per game per step.

Figures are medians of --runs runs of CPU time (time.process_time); each environment's
cost reads as the ratio of the engine's decisions/s to its steps/s.

    python bench/bench_rl.py [--episodes 40] [--runs 5] [--num-envs 64] [--spec rulespec/official.yaml]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playtest import rl  # noqa: E402  (after the path is set)


def env_steps_per_second(env, episodes: int, seed: int) -> float:
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for episode in range(episodes):
        env.reset(seed=seed * 1000 + episode)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def engine_decisions_per_second(module, players: int, episodes: int, seed: int) -> float:
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    for episode in range(episodes):
        game = module.new_game(players, seed=seed * 1000 + episode)
        while not game.is_over():
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.process_time() - start)


def vector_steps_per_second(env, steps: int, seed: int) -> float:
    """Steps/s of the vector env's step() alone: the random actions (a policy's work) are drawn outside the clock."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed * 1000)
    spent = 0.0
    for _ in range(steps):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        start = time.process_time()
        _obs, _rewards, _terminated, _truncated, info = env.step(actions)
        spent += time.process_time() - start
    return steps * env.num_envs / spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--spec", default=str(ROOT / "rulespec" / "official.yaml"))
    args = parser.parse_args()
    module = rl.engine_module(args.spec)
    env = rl.aec_env(engine=module)
    players = rl.default_players(module)
    vector = rl.SplendorVectorEnv(args.num_envs, engine=module, players=players, copy=False)
    vector_steps = max(1, args.episodes * 60 // args.num_envs)  # about as many decisions as the other loops
    rates: dict[str, list[float]] = {"engine": [], "aec": [], "vector": []}
    for run in range(1, args.runs + 1):  # interleaved, so that drift hits all alike
        rates["engine"].append(engine_decisions_per_second(module, players, args.episodes, run))
        rates["aec"].append(env_steps_per_second(env, args.episodes, run))
        rates["vector"].append(vector_steps_per_second(vector, vector_steps, run))
    median = {name: statistics.median(values) for name, values in rates.items()}
    print(
        f"{module.SPEC_NAME}: {args.episodes} episodes x {args.runs} runs, {players} players, "
        f"{args.num_envs} games in the vector env, CPU time, Python {sys.version.split()[0]}"
    )

    def spread(name: str) -> str:
        return f"runs {min(rates[name]):,.0f}-{max(rates[name]):,.0f}"

    engine = median["engine"]
    print(f"engine alone:         {engine:,.0f} decisions/s ({spread('engine')})")
    for name, label in (("aec", "PettingZoo AEC env:  "), ("vector", "vector env (batched):")):
        print(
            f"{label} {median[name]:,.0f} steps/s ({spread(name)}); "
            f"a step costs {engine / median[name]:.2f}x a decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
