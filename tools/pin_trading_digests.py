"""Pin the fingerprints of seeded games of the trading bots as a JSON fixture.

    python tools/pin_trading_digests.py [--check]

The games of ``tools/pin_game_digests.py`` are played by bots that price nothing. These are played by the
trading temperaments (``dealer``, ``shark``, ``companion``, ``hotelier``, ``industrialist``, with a basic and a
greedy bot among them): :data:`GAMES` four-player games per preset, seeds 0 to ``GAMES - 1``, one line-up
of :data:`LINEUPS` per seed in turn. Each is pinned as the other fixture pins its games (the final
state's digest, a hash of the events and of the actions, the player-turns), so that a change to how a
trading bot works out its prices (what its appraisal keeps between decisions, its memos) must leave every
decision, every bid and every offer as it was. The fixture was first written by the trading bots of the
release before their appraisal was kept between decisions.

``tests/bots/test_trading_digests.py`` replays these games and compares. Regenerate the fixture only when a
change of the rules or of a trading bot's choices is intended, and say why in the commit. ``--check``
compares without writing (exit status 1 on a difference).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from pin_game_digests import _hash, write_or_check  # noqa: E402  (the pinning tools share their hash and command line)

FIXTURE = ROOT / "tests" / "fixtures" / "trading_digests.json"
PRESETS = ("laspoly", "sculptprice", "classic", "standard")
GAMES = 50
MAX_ROUNDS = 300
#: The seats of game ``seed``: ``LINEUPS[seed % len(LINEUPS)]``; the first is the default of a simulation.
LINEUPS: tuple[tuple[str, ...], ...] = (
    ("dealer", "dealer", "dealer", "dealer"),
    ("dealer", "shark", "companion", "hotelier"),
    ("industrialist", "dealer", "basic", "shark"),
    ("companion", "greedy", "dealer", "hotelier"),
)


def fingerprint(preset: str, seed: int) -> dict[str, Any]:
    """What the fixture pins of game ``seed`` of ``preset``, played to the end by its line-up."""
    seats = LINEUPS[seed % len(LINEUPS)]
    bots = [make_bot(name, seed=seed + k) for k, name in enumerate(seats)]
    g = play_game(Game(len(seats), preset=preset, seed=seed, max_rounds=MAX_ROUNDS), bots)
    return {"digest": g.digest(), "log": _hash(e.as_dict() for e in g.log),
            "history": _hash(a.as_dict() for a in g.history), "turns": g.turns}


def pin() -> dict[str, Any]:
    """Every preset's games, as the fixture holds them."""
    return {"games": GAMES, "max_rounds": MAX_ROUNDS, "lineups": [list(s) for s in LINEUPS],
            "presets": {p: [fingerprint(p, s) for s in range(GAMES)] for p in PRESETS}}


def main() -> int:
    """Write the fixture, or with ``--check`` compare it with today's games."""
    return write_or_check(FIXTURE, pin, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
