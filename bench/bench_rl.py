"""Steps per second of the PettingZoo environment (playtest/rl/) under random legal play.

Each step reads the acting agent's observation and mask (`env.last()`) and applies a
uniformly random legal action, as a training loop would. Figures are medians of --runs
runs of CPU time (time.process_time); the engine's own random-playout rate is printed
beside them, so the cost of the environment (observations, masks, the AEC protocol)
reads as a ratio.

    python bench/bench_rl.py [--episodes 40] [--runs 5] [--spec rulespec/official.yaml]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--spec", default=str(ROOT / "rulespec" / "official.yaml"))
    args = parser.parse_args()
    env = rl.aec_env(engine=args.spec)
    module = rl.engine_module(args.spec)
    players = rl.default_players(module)
    env_rates, engine_rates = [], []
    for run in range(1, args.runs + 1):  # interleaved, so that drift hits both alike
        env_rates.append(env_steps_per_second(env, args.episodes, run))
        engine_rates.append(engine_decisions_per_second(module, players, args.episodes, run))
    env_rate, engine_rate = statistics.median(env_rates), statistics.median(engine_rates)
    print(f"{args.episodes} episodes x {args.runs} runs, {players} players, CPU time, Python {sys.version.split()[0]}")
    print(f"PettingZoo AEC env: {env_rate:,.0f} steps/s (runs {min(env_rates):,.0f}-{max(env_rates):,.0f})")
    print(f"engine alone: {engine_rate:,.0f} decisions/s; the environment costs {engine_rate / env_rate:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
