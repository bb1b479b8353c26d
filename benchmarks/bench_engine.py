"""Whole 4-player bot games on one core: player-turns per second for the standard and Las Poly presets.

Runs the shipped boards with the basic bot (``--bot`` picks another temperament, such as the default
trading bot ``dealer``) and events on, exactly as a
simulation runs them (``play_game`` through the trusted ``Game.push``).  Each
repeat plays the same batch of seeded games; the median of the repeats is
reported with the machine it ran on.  Time is the process's CPU time
(``time.process_time``), so other work on a shared machine slows the figure
less than it would a wall clock.  The memory a finished game holds (its state,
event log and actions, followed reference by reference) is reported per preset.

    python benchmarks/bench_engine.py [--games 200] [--repeats 7] [--preset standard --preset laspoly] [--bot basic]

It measures the build it runs on and says which (``laspoly.COMPILED``).  ``--builds pure,compiled``
measures both the pure-Python source and the mypyc build in ``build/compiled/`` (``make compiled``):
each repeat runs once per build in a fresh process, the order alternating from repeat to repeat, so
that other work on a shared machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import laspoly
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game

#: The figures the speed table of docs/performance.md states as goals, by preset.
GOALS = {"standard": 250_000, "laspoly": 200_000}
ROOT = Path(__file__).resolve().parents[1]
#: Where each build is imported from: the source tree, or the copy that ``make compiled`` builds.
BUILD_PATHS = {"pure": ROOT, "compiled": ROOT / "build" / "compiled"}


def play(preset: str, seed: int, max_rounds: int, bot: str = "basic") -> Game:
    """One seeded 4-player game of ``preset`` played to its end by four bots of one temperament."""
    return play_game(Game(4, preset=preset, seed=seed, max_rounds=max_rounds), [make_bot(bot, seed=seed + i) for i in range(4)])


def run_batch(preset: str, games: int, max_rounds: int, bot: str = "basic") -> tuple[float, int]:
    """Play ``games`` seeded games; return (CPU seconds, player-turns)."""
    turns = 0
    start = time.process_time()
    for seed in range(games):
        turns += play(preset, seed, max_rounds, bot).turns
    return time.process_time() - start, turns


def held_bytes(root: Any, shared: set[int]) -> int:
    """Bytes of the objects reachable from ``root``, each counted once, leaving out ``shared`` ones (board, rules)."""
    seen = set(shared)
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(_referents(obj))
    return total


def _referents(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, list | tuple | set | frozenset) or type(obj).__name__ == "deque":
        yield from obj
    if hasattr(obj, "__dict__"):
        yield vars(obj)
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name) and not name.startswith("__"):
                yield getattr(obj, name)


def game_bytes(game: Game) -> dict[str, int]:
    """What one finished game holds beyond the shared preset: everything, the event log, the actions."""
    shared = {id(game.preset), id(game.board), id(game.rules), id(game.fields)}
    shared |= {id(x) for x in (game.preset, game.board, game.rules)}
    return {
        "total": held_bytes(game, shared),
        "log": held_bytes(game.log, shared),
        "history": held_bytes(game.history, shared),
    }


def machine() -> str:
    """A one-line description of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, {platform.system()}"


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux), for the dashboard and load benchmarks."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 1e6


def quiet_threads(most: float = 3.0) -> float:
    """Wait until no other thread of this process uses the CPU; return the seconds waited.

    The exact chain the trading bots price with is solved with numpy, and OpenBLAS's worker threads go on
    spinning for about a tenth of a second after a solve. ``time.process_time`` counts that spin, which is
    no part of the games: a timed batch that starts right after a warm-up would be charged with it. A benchmark
    calls this after its warm-up, so the timed part counts only the work of the games.
    """
    start = time.perf_counter()
    while time.perf_counter() - start < most:
        cpu = time.process_time()
        time.sleep(0.05)
        if time.process_time() - cpu < 0.001:  # under a millisecond of CPU in 50 ms: every thread is idle
            break
    return time.perf_counter() - start


def build_key(compiled: bool) -> str:
    """The build's name in ``--builds``: ``compiled`` or ``pure``."""
    return "compiled" if compiled else "pure"


def one_repeat(build: str, preset: str, args: argparse.Namespace) -> dict[str, Any]:
    """One warmed-up batch of ``preset`` in a fresh process importing ``build``; its turns, seconds and build."""
    env = {**os.environ, "PYTHONPATH": str(BUILD_PATHS[build])}
    command = [sys.executable, __file__, "--child", "--preset", preset, "--games", str(args.games),
               "--max-rounds", str(args.max_rounds), "--bot", args.bot]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT / "benchmarks")
    result: dict[str, Any] = json.loads(out.stdout)
    if result["build"] != build:
        raise SystemExit(f"asked for the {build} build but {result['build']} ran (run `make compiled` first)")
    return result


def compare_builds(builds: list[str], args: argparse.Namespace) -> None:
    """Each preset on each build, repeats alternating between the builds; the median of each and their ratio."""
    for preset in args.preset or list(GOALS):
        rates: dict[str, list[float]] = {b: [] for b in builds}
        for k in range(args.repeats):
            for build in builds if k % 2 == 0 else builds[::-1]:
                r = one_repeat(build, preset, args)
                rates[build].append(r["turns"] / r["seconds"])
        print(f"preset {preset}: {args.games} four-player games of '{args.bot}' bots x {args.repeats} repeats per build, "
              "builds alternating, one core, events on, CPU time")
        goal = GOALS.get(preset)
        for build in builds:
            median = statistics.median(rates[build])
            verdict = f"; goal {goal:,}: {'met' if median >= goal else f'not met, {goal / median:.1f}x short'}" if goal else ""
            print(f"  {build:>8}: player-turns per second (median) {median:,.0f}  "
                  f"(min {min(rates[build]):,.0f}, max {max(rates[build]):,.0f}){verdict}")
        if len(builds) == 2:
            a, b = (statistics.median(rates[x]) for x in builds)
            print(f"  {builds[1]} / {builds[0]}: {b / a:.2f}x")


def main() -> None:
    """Measure each preset and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--preset", action="append", help="a preset to measure (repeatable; default: standard and laspoly)")
    parser.add_argument("--max-rounds", type=int, default=1000)
    parser.add_argument("--bot", default="basic", help="the temperament of all four bots (default: basic)")
    parser.add_argument("--builds", help="measure these builds side by side, e.g. pure,compiled (compiled: make compiled)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one repeat for --builds: the figures as JSON
        preset = args.preset[0]
        run_batch(preset, max(1, args.games // 10), args.max_rounds, args.bot)  # warm-up
        quiet_threads()
        seconds, turns = run_batch(preset, args.games, args.max_rounds, args.bot)
        print(json.dumps({"turns": turns, "seconds": seconds, "build": build_key(laspoly.COMPILED)}))
        return
    print(f"machine: {machine()}")
    if args.builds:
        builds = args.builds.split(",")
        unknown = [b for b in builds if b not in BUILD_PATHS]
        if unknown:
            parser.error(f"unknown build(s) {', '.join(unknown)}: choose from {', '.join(BUILD_PATHS)}")
        compare_builds(builds, args)
        return
    print(f"build: {build_key(laspoly.COMPILED)} ({laspoly.__file__})")
    for preset in args.preset or list(GOALS):
        run_batch(preset, max(1, args.games // 10), args.max_rounds, args.bot)  # warm-up
        quiet_threads()
        rates, game_rates, per_game = [], [], []
        for _ in range(args.repeats):
            seconds, turns = run_batch(preset, args.games, args.max_rounds, args.bot)
            rates.append(turns / seconds)
            game_rates.append(args.games / seconds)
            per_game.append(turns / args.games)
        held = [game_bytes(play(preset, seed, args.max_rounds, args.bot)) for seed in range(10)]
        goal = GOALS.get(preset)
        median = statistics.median(rates)
        verdict = f"; goal {goal:,}: {'met' if median >= goal else f'not met, {goal / median:.1f}x short'}" if goal else ""
        print(f"preset {preset}: {args.games} four-player games of '{args.bot}' bots x {args.repeats} repeats, one core, events on, CPU time")
        print(f"  player-turns per second (median): {median:,.0f}  (min {min(rates):,.0f}, max {max(rates):,.0f}){verdict}")
        print(f"  games per second (median): {statistics.median(game_rates):,.1f}")
        print(f"  player-turns per game (mean): {statistics.mean(per_game):,.1f}")
        print(f"  bytes held per finished game (mean of 10): {statistics.mean(h['total'] for h in held):,.0f} "
              f"(event log {statistics.mean(h['log'] for h in held):,.0f}, actions {statistics.mean(h['history'] for h in held):,.0f})")


if __name__ == "__main__":
    main()
