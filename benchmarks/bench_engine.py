"""Whole 4-player bot games on one core: player-turns per second, games per second, turns per game.

Runs the shipped Las Poly board with the default bot and events on, exactly as a
simulation runs them (``play_game`` through the trusted ``Game.push``).  Each
repeat plays the same batch of seeded games; the median of the repeats is
reported with the machine it ran on.

    python benchmarks/bench_engine.py [--games 200] [--repeats 7] [--preset laspoly]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game


def run_batch(preset: str, games: int, max_rounds: int) -> tuple[float, int]:
    """Play ``games`` seeded games; return (seconds, player-turns)."""
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        g = play_game(Game(4, preset=preset, seed=seed, max_rounds=max_rounds), [BasicBot() for _ in range(4)])
        turns += g.turns
    return time.perf_counter() - start, turns


def machine() -> str:
    """A one-line description of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux)."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--preset", default="laspoly")
    parser.add_argument("--max-rounds", type=int, default=1000)
    args = parser.parse_args()
    run_batch(args.preset, max(1, args.games // 10), args.max_rounds)  # warm-up
    rates, game_rates, per_game = [], [], []
    for _ in range(args.repeats):
        seconds, turns = run_batch(args.preset, args.games, args.max_rounds)
        rates.append(turns / seconds)
        game_rates.append(args.games / seconds)
        per_game.append(turns / args.games)
    print(f"machine: {machine()}")
    print(f"preset {args.preset}: {args.games} four-player bot games x {args.repeats} repeats, one core, events on")
    print(f"player-turns per second (median): {statistics.median(rates):,.0f}  (min {min(rates):,.0f}, max {max(rates):,.0f})")
    print(f"games per second (median): {statistics.median(game_rates):,.1f}")
    print(f"player-turns per game (mean): {statistics.mean(per_game):,.1f}")


if __name__ == "__main__":
    main()
