"""laspoly beside a peer simulator in the same run: the monopoly simulator of gamescomputersplay, one core each.

    python benchmarks/bench_peer.py --peer PATH [--games 300] [--repeats 5] [--builds pure,compiled]
    make bench PEER=PATH

``PATH`` is a checkout of https://github.com/gamescomputersplay/monopoly that you have on this machine
(for instance ``git clone https://github.com/gamescomputersplay/monopoly /tmp/peer``). It has no licence
file, so laspoly carries none of its code and never fetches it: this script only runs it. Without
``--peer`` it reads the ``PEER`` environment variable, and when that is unset too it prints one line and
stops (``make bench`` then skips the comparison).

How the peer is run: in a fresh Python process (this interpreter) with the checkout first on
``sys.path``, this script imports the peer's ``monopoly.core.game.monopoly_game`` and plays ``--games``
games one after another in that one process (one core; the peer's own ``scripts/simulate.py`` spreads
games over several processes), each with its own seed from ``random.Random(0)``. Everything else is the
peer's ``settings.py`` as it ships: classic rules, four players of its standard behaviour (buying,
building, two-way trades), at most 1000 turns a game. Its games are played twice. The timed play is the
first, with its event log off (``LogSettings.KEEP_GAME_LOG = False``), since ``laspoly simulate`` keeps no
event log either; like laspoly's, it follows a warm-up game, and it is a first play of its games, as a
user's run is (the same games played again in the same process run faster, on both sides). Then the same
seeded games are played with the log kept (written into a temporary directory instead of the checkout's
``results/``): its log only records, so they are the same games, and they give the peer's time with its
log (printed beside the figures) and its player-turns, counted from that log outside the timed part (each
"... goes: ===" line is a move, less the extra moves of doubles, "... so they go again.").

laspoly plays the ``standard`` preset (the official classic rules, on the same board) through
``laspoly.analysis.simulate.simulate``, as ``laspoly simulate`` does: ``--games`` games with its default
bots (the ``dealer`` trading bot), and as many with four ``basic`` bots, in a fresh process per build
(``pure``: this source tree; ``compiled``: ``build/compiled``, which ``make compiled`` builds). Each
repeat runs the peer and then every build, the builds' order alternating from repeat to repeat, so that
other work on a shared machine weighs on all of them alike. Time is the process's CPU time
(``time.process_time``) on both sides, after a warm-up game. On laspoly's side the clock starts once the
process's other threads are idle (``bench_engine.quiet_threads``): the warm-up solves the exact chain with
numpy, whose OpenBLAS threads spin for about a tenth of a second after it, CPU time that is no part of the
games (the peer uses no numpy). The medians of the repeats are compared:
games per second with the default bots (a whole game of trading bots, as a teacher waits for it) and
player-turns per second with basic bots (the engine and a simple bot), each against the peer's own
games and player-turns per second, and each target is printed with its ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The preset laspoly plays against the peer's classic rules.
PRESET = "standard"
#: The targets: (build, what is compared, the least ratio to the peer's figure).
TARGETS = [
    ("pure", "games", 1.5), ("pure", "turns", 2.5),
    ("compiled", "games", 4.0), ("compiled", "turns", 8.0),
]
#: What each figure is, in the printed table.
FIGURES = {"games": "games per second, default bots (dealer)", "turns": "player-turns per second, basic bots"}


def peer_child(peer: Path, games: int) -> dict[str, Any]:
    """Play ``games`` of the peer's games in this process (one core) and count them; run with the peer first on the path."""
    import random

    sys.path.insert(0, str(peer))
    from monopoly.core.game import monopoly_game  # the peer's own modules, from its checkout
    from monopoly.log_settings import LogSettings

    def play(pairs: list[tuple[int, int]], keep_log: bool) -> float:
        """The CPU time of the peer's games, with its event log kept or not (the log is its only output)."""
        LogSettings.KEEP_GAME_LOG = keep_log
        LogSettings.init_logs()
        start = time.process_time()
        for pair in pairs:
            monopoly_game(pair)
        return time.process_time() - start

    with tempfile.TemporaryDirectory(prefix="bench-peer-") as tmp:
        LogSettings.EVENTS_LOG_PATH = Path(tmp) / "events.log"
        LogSettings.BANKRUPTCIES_PATH = Path(tmp) / "bankruptcies.tsv"
        seeds = random.Random(0)
        pairs = [(i + 1, seeds.getrandbits(32)) for i in range(games + 1)]
        play(pairs[-1:], keep_log=False)  # warm-up: first calls and imports
        # timed: its games with its event log off, as laspoly's simulate keeps no log, and as a user's run plays them
        # (a first play: the same games played again in the same process run faster, on both sides); then the same
        # seeded games with the log kept (it only records: the games are the same) give its player-turns, and its
        # time with its log, for the record
        seconds = play(pairs[:-1], keep_log=False)
        seconds_log = play(pairs[:-1], keep_log=True)
        turns = count_peer_turns(Path(LogSettings.EVENTS_LOG_PATH))
    return {"games": games, "turns": turns, "seconds": seconds, "seconds_log": seconds_log}


def count_peer_turns(log: Path) -> int:
    """The player-turns in the peer's event log: its moves, less the extra moves that doubles give (0 without a log)."""
    moves = again = 0
    if log.exists():
        with log.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("=== ") and line.rstrip().endswith(" goes: ==="):
                    moves += 1
                elif line.rstrip().endswith("so they go again."):
                    again += 1
    return moves - again


def laspoly_child(games: int, bots: str) -> dict[str, Any]:
    """Play ``games`` ``standard`` games as ``laspoly simulate`` does, with its default bots or four of ``bots``."""
    from bench_engine import build_key, quiet_threads  # imported here: the peer's process never imports laspoly

    import laspoly
    from laspoly.analysis.simulate import simulate

    names = None if bots == "default" else [bots] * 4
    simulate(PRESET, games=2, bots=names)  # warm-up: imports, the exact chain the trading bots price with
    quiet_threads()  # the chain's numpy threads stop spinning before the clock starts
    start = time.process_time()
    records = simulate(PRESET, games=games, bots=names).records
    seconds = time.process_time() - start
    return {"games": games, "turns": sum(r.turns for r in records), "seconds": seconds,
            "build": build_key(getattr(laspoly, "COMPILED", False))}


def run_child(args: list[str], pythonpath: Path) -> dict[str, Any]:
    """This script's child mode in a fresh process, with ``pythonpath`` first on the path; its JSON answer."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    out = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True, cwd=ROOT / "benchmarks")
    if out.returncode:
        raise SystemExit(f"bench_peer: a child run failed ({' '.join(args)}):\n{out.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def peer_repeat(peer: Path, games: int) -> dict[str, Any]:
    """One timed batch of the peer's games in a fresh process."""
    return run_child(["--peer-child", str(peer), "--games", str(games)], peer)


def laspoly_repeat(build: str, games: int, bots: str) -> dict[str, Any]:
    """One timed batch of laspoly games on ``build`` in a fresh process."""
    from bench_engine import BUILD_PATHS

    result = run_child(["--laspoly-child", bots, "--games", str(games)], BUILD_PATHS[build])
    if result["build"] != build:
        raise SystemExit(f"bench_peer: asked for the {build} build but {result['build']} ran (run `make compiled` first)")
    return result


def targets(medians: dict[str, dict[str, float]]) -> list[str]:
    """One line per target whose build was measured: the figure, the peer's, the ratio and whether it is met."""
    lines = []
    peer = medians["peer"]
    for build, figure, least in TARGETS:
        if build not in medians or not peer.get(figure):
            continue
        ratio = medians[build][figure] / peer[figure]
        verdict = "met" if ratio >= least else "NOT met"
        lines.append(f"  {build}: {FIGURES[figure]} >= {least:g}x the peer's: {medians[build][figure]:,.1f} against "
                     f"{peer[figure]:,.1f}, {ratio:.2f}x: {verdict}")
    return lines


def main() -> None:
    """Time the peer and laspoly's builds alternately, and print the medians, the ratios and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", default=os.environ.get("PEER", ""), help="a checkout of the peer (default: $PEER)")
    parser.add_argument("--games", type=int, default=300, help="games per batch, for the peer and each laspoly run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builds", default="pure", help="laspoly's builds to time, e.g. pure,compiled (compiled: make compiled)")
    parser.add_argument("--peer-child", help=argparse.SUPPRESS)
    parser.add_argument("--laspoly-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer_child:  # the peer's process imports none of laspoly
        print(json.dumps(peer_child(Path(args.peer_child), args.games)))
        return
    if args.laspoly_child:
        print(json.dumps(laspoly_child(args.games, args.laspoly_child)))
        return
    from bench_engine import BUILD_PATHS, machine
    if not args.peer:
        print("bench_peer: PEER is unset, so laspoly is not timed beside the peer simulator "
              "(make bench PEER=path/to/a/checkout of github.com/gamescomputersplay/monopoly)")
        return
    peer = Path(args.peer).expanduser().resolve()
    if not (peer / "monopoly" / "core" / "game.py").exists():
        raise SystemExit(f"bench_peer: {peer} is not a checkout of the peer simulator (no monopoly/core/game.py)")
    builds = args.builds.split(",")
    unknown = [b for b in builds if b not in BUILD_PATHS]
    if unknown:
        parser.error(f"unknown build(s) {', '.join(unknown)}: choose from {', '.join(BUILD_PATHS)}")
    print(f"machine: {machine()}")
    print(f"peer: {peer}, {args.games} games per batch with its own settings (classic rules, 4 players, trades, "
          "timed with its event log off, as laspoly's simulate keeps none), one process")
    print(f"laspoly: `{PRESET}`, {args.games} games per batch as `laspoly simulate` plays them, default bots and basic bots; "
          f"{args.repeats} repeats, the peer then each build (alternating), one core each, CPU time", flush=True)
    rates: dict[str, dict[str, list[float]]] = {name: {"games": [], "turns": []} for name in ["peer", *builds]}
    logged: list[float] = []  # the peer's games per second with its event log kept, for the record
    for k in range(args.repeats):
        r = peer_repeat(peer, args.games)
        rates["peer"]["games"].append(r["games"] / r["seconds"])
        rates["peer"]["turns"].append(r["turns"] / r["seconds"])
        logged.append(r["games"] / r["seconds_log"])
        for build in builds if k % 2 == 0 else builds[::-1]:
            r = laspoly_repeat(build, args.games, "default")
            rates[build]["games"].append(r["games"] / r["seconds"])
            r = laspoly_repeat(build, args.games, "basic")
            rates[build]["turns"].append(r["turns"] / r["seconds"])
    medians = {name: {figure: statistics.median(values) for figure, values in by.items()} for name, by in rates.items()}
    for figure, label in FIGURES.items():
        cells = [f"peer {medians['peer'][figure]:,.1f}"]
        for build in builds:
            values = rates[build][figure]
            ratio = f", {medians[build][figure] / medians['peer'][figure]:.2f}x the peer" if medians["peer"][figure] else ""
            cells.append(f"{build} {medians[build][figure]:,.1f} (min {min(values):,.1f}, max {max(values):,.1f}{ratio})")
        print(f"{label} (median): {'; '.join(cells)}")
    print(f"the peer with its event log kept (median): {statistics.median(logged):,.1f} games per second")
    print("targets:")
    for line in targets(medians):
        print(line)


if __name__ == "__main__":
    main()
