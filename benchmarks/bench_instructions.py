"""The engine's work per player-turn in machine instructions, counted by Valgrind's callgrind: a figure other work
on a shared machine does not change.

    python benchmarks/bench_instructions.py [--games 20] [--presets standard laspoly] [--builds pure,compiled] [--bots basic,dealer] [--before REV] [--simulate]

A batch of seeded 4-player games of ``basic`` bots (as ``bench_engine.py`` plays them; ``--bots`` names other
temperaments, such as the default trading bot ``dealer``, each measured on its own) runs under
``valgrind --tool=callgrind`` once with ``--games`` games and once with none; the difference in
instructions, over the player-turns played, is the work of one player-turn.  ``--simulate`` plays the
games as ``laspoly simulate`` does instead (``laspoly.analysis.simulate.simulate``, its record per game and
its landings; what ``bench_peer.py`` times).  Timings on a busy 2-core
machine scatter by 20% or more from run to run; this count repeats to within a fraction of a percent, so
two releases compare on it where their timings cannot.

``--before REV`` measures the source of an earlier commit beside this one (unpacked into
``build/before-REV/`` as ``bench_runs.py --before`` does; its compiled build is made there with
``make compiled``), and prints each figure's ratio to it.  Valgrind must be installed
(``apt-get install -y valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bench_runs import before_tree

ROOT = Path(__file__).resolve().parents[1]

#: What each measured process runs: imports and a warm-up batch in both runs, then ``games`` games in the second.
CHILD = """
import sys
sys.path.insert(0, {benchmarks!r})
from bench_engine import run_batch
run_batch({preset!r}, 2, 200, {bot!r})
if {games}:
    print("turns", run_batch({preset!r}, {games}, 200, {bot!r})[1])
"""
#: The same, with the games played as ``laspoly simulate`` plays them (``--simulate``).
SIMULATE_CHILD = """
from laspoly.analysis.simulate import simulate
simulate({preset!r}, games=2, bots=[{bot!r}] * 4)
if {games}:
    print("turns", sum(r.turns for r in simulate({preset!r}, games={games}, bots=[{bot!r}] * 4).records))
"""


def build_path(tree: Path, build: str) -> Path:
    """Where ``build`` of the source ``tree`` is imported from."""
    return tree / "build" / "compiled" if build == "compiled" else tree


def count(tree: Path, build: str, preset: str, games: int, bot: str = "basic", as_simulate: bool = False) -> tuple[int, int]:
    """(instructions, player-turns) of a process playing ``games`` games of ``preset`` by four ``bot`` on ``build`` of ``tree``."""
    code = (SIMULATE_CHILD if as_simulate else CHILD).format(benchmarks=str(ROOT / "benchmarks"), preset=preset, games=games, bot=bot)
    # a fixed hash seed, and one BLAS thread for the exact chain the trading bots solve: a BLAS thread that spins
    # while it waits, or string hashing that changes the order of sets, made the warm-up run that is subtracted do
    # more or less work from process to process (the trading bots' counts scattered by millions)
    env = {**os.environ, "PYTHONPATH": str(build_path(tree, build)), "PYTHONHASHSEED": "0",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-P", "-c", code],
                         env=env, capture_output=True, text=True, check=True, cwd=tree)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count: {out.stderr[-500:]}")
    turns = re.search(r"turns (\d+)", out.stdout)
    return int(found.group(1)), int(turns.group(1)) if turns else 0


def per_turn(tree: Path, build: str, preset: str, games: int, bot: str = "basic", as_simulate: bool = False) -> tuple[float, int]:
    """Instructions per player-turn (the batch's count less the warm-up's), and the player-turns counted."""
    base, _ = count(tree, build, preset, 0, bot, as_simulate)
    total, turns = count(tree, build, preset, games, bot, as_simulate)
    return (total - base) / turns, turns


def compiled_before(tree: Path) -> None:
    """Compile the earlier commit's engine in its own tree, with this checkout's virtual environment."""
    if (tree / "build" / "compiled" / ".synced").exists():
        return
    for name in ("Makefile", "setup.py", "pyproject.toml", "README.md"):
        if not (tree / name).exists():
            data = subprocess.run(["git", "show", f"{tree.name.removeprefix('before-')}:{name}"], cwd=ROOT,
                                  capture_output=True, check=True).stdout
            (tree / name).write_bytes(data)
    subprocess.run(["make", "--no-print-directory", "compiled", f"VENV={Path(sys.executable).parents[1]}"], cwd=tree, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--presets", nargs="+", default=["standard", "laspoly"])
    parser.add_argument("--builds", default="pure,compiled")
    parser.add_argument("--bots", default="basic", help="temperaments measured one after another (basic,dealer)")
    parser.add_argument("--before", help="an earlier commit to measure beside this one")
    parser.add_argument("--simulate", action="store_true", help="play the games as `laspoly simulate` does")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (apt-get install -y valgrind)")
    builds = args.builds.split(",")
    trees = {"this": ROOT}
    if args.before:
        trees["before"] = before_tree(args.before)
        if "compiled" in builds:
            compiled_before(trees["before"])
    how = "as `laspoly simulate` plays them" if args.simulate else "as bench_engine.py plays them"
    print(f"{args.games} seeded four-player games of one temperament per figure, {how}, instructions per player-turn (callgrind)")
    for bot in args.bots.split(","):
        for preset in args.presets:
            for build in builds:
                figures = {name: per_turn(tree, build, preset, args.games, bot, args.simulate) for name, tree in trees.items()}
                line = f"{bot:7} {preset:9} {build:9} " + "  ".join(f"{name}: {ipt:,.0f} ({turns} turns)" for name, (ipt, turns) in figures.items())
                if "before" in figures:
                    line += f"  this/before: {figures['this'][0] / figures['before'][0]:.3f}"
                print(line, flush=True)


if __name__ == "__main__":
    main()
