"""The long runs a teacher starts, on the pure-Python and the compiled build: simulate, tournament, soak, lab.

Each is timed as its own entry point runs it, in one process (CPU time, ``time.process_time``):

* ``simulate``: ``laspoly simulate`` (``laspoly.analysis.simulate``) with its default bots, four ``dealer``
  trading bots, on ``standard`` and on Las Poly;
* ``tournament``: ``laspoly tournament`` of four temperaments on Las Poly, seats rotated;
* ``soak``: ``laspoly soak``'s games (every preset, the soak's mix of temperaments, every invariant
  checked after every event);
* ``lab``: the dashboard's lab, whose worker processes play ``play_many`` with the lab's default bots.

Each repeat runs every workload once per build in a fresh process, the builds alternating from repeat
to repeat, so that other work on a shared machine weighs on both alike. Each process first walks the exact
chain of every preset, which the trading bots price with (once per process, a fraction of a second each),
and plays a warm-up batch. The compiled build is the one ``make compiled`` builds.

``--before REV`` adds the pure-Python source of an earlier commit (``git archive`` into
``build/before-REV/``) as a third build, alternating with the others, and prints how many times faster
each build runs each workload than it did: the factor a teacher sees between two releases.

    python benchmarks/bench_runs.py [--games 150] [--repeats 5] [--builds pure,compiled] [--before REV]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_engine import BUILD_PATHS, build_key, machine, quiet_threads

ROOT = Path(__file__).resolve().parents[1]
#: The workloads, each with what it counts per second.
WORKLOADS = {
    "simulate standard": "player-turns", "simulate laspoly": "player-turns", "tournament laspoly": "player-turns",
    "soak": "games", "lab laspoly": "player-turns",
}


def workload(name: str) -> Callable[[int], int]:
    """The function that plays ``games`` games of a workload and returns what it counts (turns or games)."""
    from laspoly.analysis.simulate import Spec, play_many, simulate, tournament
    from laspoly.analysis.soak import soak_games

    if name.startswith("simulate "):
        variant = name.split()[1]
        return lambda games: sum(r.turns for r in simulate(variant, games=games).records)
    if name == "tournament laspoly":
        return lambda games: sum(r.turns for r in tournament(["dealer", "shark", "hotelier", "basic"], games=games).result.records)
    if name == "soak":
        return lambda games: soak_games(range(games), seed=0).games
    if name == "lab laspoly":  # the lab's default bots, seats rotated, as ProbabilityView._lab plays them
        spec = Spec("laspoly", {}, ("dealer", "shark", "hotelier", "industrialist"), seed=7, rotate=True)
        return lambda games: sum(r.turns for r in play_many(spec, range(games)))
    raise SystemExit(f"unknown workload {name!r}")


def child(name: str, games: int) -> dict[str, Any]:
    """One timed batch of a workload in this process, after a warm-up batch."""
    import laspoly
    from laspoly.bots.valuation import landings_per_turn
    from laspoly.rules.presets import load_preset, preset_names

    run = workload(name)
    for preset in map(load_preset, preset_names()):  # the exact chains the trading bots price with, once per process
        landings_per_turn(preset.board, preset.rules)
    run(max(1, games // 10))  # warm-up: imports and first calls
    quiet_threads()  # the chains' numpy threads stop spinning before the clock starts
    start = time.process_time()
    count = run(games)
    # an earlier commit may predate the compiled build, and so ``laspoly.COMPILED``
    return {"count": count, "seconds": time.process_time() - start, "build": build_key(getattr(laspoly, "COMPILED", False))}


def before_tree(rev: str, into: Path = ROOT / "build") -> Path:
    """The pure-Python source of commit ``rev``, unpacked once into ``<into>/before-<rev>/``."""
    commit = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    tree = into / f"before-{commit}"
    if not (tree / "laspoly" / "__init__.py").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit, "laspoly"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def one_repeat(build: str, name: str, games: int, paths: dict[str, Path]) -> dict[str, Any]:
    """A workload's batch in a fresh process importing ``build`` (a name in ``paths``)."""
    env = {**os.environ, "PYTHONPATH": str(paths[build])}
    command = [sys.executable, __file__, "--child", name, "--games", str(games)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT / "benchmarks")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    expected = "pure" if build == "before" else build
    if result["build"] != expected:
        raise SystemExit(f"asked for the {build} build but {result['build']} ran (run `make compiled` first)")
    return result


def main() -> None:
    """Measure every workload on each build and print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builds", default="pure,compiled", help="the builds to compare (compiled: make compiled)")
    parser.add_argument("--before", metavar="REV", help="also time the pure-Python source of this earlier commit")
    parser.add_argument("--workload", action="append", choices=list(WORKLOADS), help="one workload (repeatable; default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.games)))
        return
    builds = args.builds.split(",")
    paths = {build: Path(path) for build, path in BUILD_PATHS.items()}
    if args.before:
        paths["before"] = before_tree(args.before)
        builds.append("before")
    print(f"machine: {machine()}")
    print(f"{args.games} games per batch x {args.repeats} repeats per build, builds alternating, one core, CPU time"
          + (f"; before: the pure-Python source of {args.before}" if args.before else ""))
    for name in args.workload or list(WORKLOADS):
        rates: dict[str, list[float]] = {b: [] for b in builds}
        for k in range(args.repeats):
            for build in builds if k % 2 == 0 else builds[::-1]:
                r = one_repeat(build, name, args.games, paths)
                rates[build].append(r["count"] / r["seconds"])
        medians = {b: statistics.median(v) for b, v in rates.items()}
        line = ", ".join(f"{b} {medians[b]:,.0f} (min {min(rates[b]):,.0f}, max {max(rates[b]):,.0f})" for b in builds)
        ratio = f"; {builds[1]} / {builds[0]}: {medians[builds[1]] / medians[builds[0]]:.2f}x" if len(builds) >= 2 and builds[1] != "before" else ""
        if args.before:
            ratio += "".join(f"; {b} / before: {medians[b] / medians['before']:.2f}x" for b in builds if b != "before")
        print(f"{name}: {WORKLOADS[name]} per second (median): {line}{ratio}", flush=True)

if __name__ == "__main__":
    main()
