"""Speed of the probability lab: building and solving each preset's exact chain, and engine landings.

    python benchmarks/bench_analysis.py [--repeats 9] [--rolls 300000]

Reports medians of repeated runs, with the machine they ran on.  A chain is
walked through the engine from scratch (the cache emptied) and solved on every
repeat ("cold"), and solved again from the kept walk ("warm", what a second
``markov`` call of the same rules costs); landings are movement-only walkers
on the real engine, one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_engine import machine

from laspoly.analysis.landings import engine_landings
from laspoly.analysis.markov import MovementChain, clear_chain_cache
from laspoly.rules.presets import load_preset, preset_names


def chain_ms(preset: str, cold: bool = True) -> float:
    """Milliseconds to build and solve one chain: walked from scratch when ``cold``, else from the cache."""
    p = load_preset(preset)
    if cold:
        clear_chain_cache()
    start = time.perf_counter()
    MovementChain(p.board, p.rules, "leave", variant=preset).solve("roll")
    return 1000 * (time.perf_counter() - start)


def landings_rate(preset: str, rolls: int) -> float:
    """Rolls per second of movement-only walkers on the engine."""
    start = time.perf_counter()
    engine_landings(preset, rolls, seed=1)
    return rolls / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--rolls", type=int, default=300_000)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"{'preset':12} {'chain cold (ms, median)':>24} {'chain warm (ms)':>16} {'engine landings (rolls/s, median)':>36}")
    for preset in preset_names():
        chain_ms(preset)  # warm-up
        cold = statistics.median(chain_ms(preset) for _ in range(args.repeats))
        warm = statistics.median(chain_ms(preset, cold=False) for _ in range(args.repeats))
        rate = statistics.median(landings_rate(preset, args.rolls) for _ in range(max(3, args.repeats // 3)))
        print(f"{preset:12} {cold:>24.1f} {warm:>16.1f} {rate:>36,.0f}")


if __name__ == "__main__":
    main()
