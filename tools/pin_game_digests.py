"""Pin the fingerprints of seeded bot games of every preset as a JSON fixture.

    python tools/pin_game_digests.py [--check]

Writes ``tests/fixtures/game_digests.json``: for each preset, :data:`GAMES`
four-player games, seeds 0 to ``GAMES - 1``, each played to the end by
:func:`~laspoly.bots.runner.play_game` with bots named by temperament
(:data:`LINEUPS`, one line-up per seed in turn, so a later change of the
default bot does not move the fixture).  Each game is pinned by

* ``digest``: :meth:`Game.digest` of the final state and the generator (what a save file stores);
* ``log``: a hash of every event as data (:meth:`Event.as_dict`) in order;
* ``history``: a hash of every action as data, in order;
* ``turns``: the player-turns played.

The first :data:`TEXT_GAMES` seeds of each preset also pin ``text``, a hash of
every event's sentence in English and Spanish, so that a change in how events
are stored cannot change what they say.

``tests/engine/test_digests.py`` replays these games with today's code and compares.
The fixture is a promise that the same seeds give the same games: regenerate
it only when a change of the rules or of a bot's choices is intended, and say
why in the commit.  ``--check`` compares without writing (exit status 1 on a
difference).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "game_digests.json"
PRESETS = ("laspoly", "sculptprice", "classic", "standard")
GAMES = 200
TEXT_GAMES = 10
MAX_ROUNDS = 300
#: The seats of game ``seed``: ``LINEUPS[seed % len(LINEUPS)]``.  The first is today's default (four basic bots);
#: the others reach bids, trades, factories, prison stays and every legal action (the random bot).
LINEUPS: tuple[tuple[str, ...], ...] = (
    ("basic", "basic", "basic", "basic"),
    ("greedy", "cautious", "trader", "factory"),
    ("hotel", "trader", "greedy", "basic"),
    ("random", "basic", "trader", "greedy"),
)


def _hash(items: Iterable[Any]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(json.dumps(item, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()[:24]


def play(preset: str, seed: int) -> Game:
    """Game ``seed`` of ``preset``, played to the end by its line-up of bots."""
    seats = LINEUPS[seed % len(LINEUPS)]
    bots = [make_bot(name, seed=seed + k) for k, name in enumerate(seats)]
    return play_game(Game(len(seats), preset=preset, seed=seed, max_rounds=MAX_ROUNDS), bots)


def fingerprint(preset: str, seed: int, *, text: bool = False) -> dict[str, Any]:
    """What the fixture pins of one game."""
    g = play(preset, seed)
    out: dict[str, Any] = {
        "digest": g.digest(),
        "log": _hash(e.as_dict() for e in g.log),
        "history": _hash(a.as_dict() for a in g.history),
        "turns": g.turns,
    }
    if text:
        out["text"] = _hash(e.text(g, lang) for lang in ("en", "es") for e in g.log)
    return out


def pin() -> dict[str, Any]:
    """Every preset's games, as the fixture holds them."""
    return {
        "games": GAMES, "max_rounds": MAX_ROUNDS, "lineups": [list(s) for s in LINEUPS], "text_games": TEXT_GAMES,
        "presets": {p: [fingerprint(p, s, text=s < TEXT_GAMES) for s in range(GAMES)] for p in PRESETS},
    }


def write_or_check(fixture: Path, pin: Callable[[], dict[str, Any]], description: str) -> int:
    """A pinning tool's command line: write ``pin()`` to ``fixture``, or with ``--check`` compare it game by game."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare with the fixture instead of writing it")
    args = parser.parse_args()
    data = pin()
    if args.check:
        old = json.loads(fixture.read_text())
        presets, games = list(data["presets"]), data["games"]
        bad = [(p, s) for p in presets for s in range(games) if old["presets"][p][s] != data["presets"][p][s]]
        for p, s in bad[:20]:
            print(f"{p} seed {s}: {old['presets'][p][s]} != {data['presets'][p][s]}")
        print(f"{len(bad)} of {len(presets) * games} games differ")
        return 1 if bad else 0
    fixture.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {fixture.relative_to(ROOT)}")
    return 0


def main() -> int:
    """Write the fixture, or with ``--check`` compare it with today's games."""
    return write_or_check(FIXTURE, pin, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
