"""What a bot sees: seeded bot games give the same games, pinned by their digests."""

from __future__ import annotations

import pytest

from laspoly.bots.basic import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game

#: (preset, players, seed, bots, digest of the finished game): every temperament, every preset, rent claims
#: (classic), auctions (classic), trades (trader) and a capped game (standard at 300 rounds).
PINNED_GAMES = [
    ("laspoly", 4, 1, ("basic", "basic", "basic", "basic"), "9ab124e7f300ba526b07c0661f28cdb0"),
    ("laspoly", 3, 5, ("trader", "factory", "greedy"), "303b69434b2a0ca54ab8704d1c7f05f8"),
    ("sculptprice", 4, 2, ("cautious", "hotel", "trader", "random"), "edc6ba046e6d918ef0fd06e5ef1d0d71"),
    ("classic", 4, 3, ("greedy", "trader", "basic", "random"), "50a5aeeee892527b96e352b3f96241c0"),
    ("standard", 3, 4, ("hotel", "cautious", "greedy"), "edbcae912680e8b480c4ab16526720c1"),
]


@pytest.mark.parametrize(("preset", "players", "seed", "bots", "digest"), PINNED_GAMES)
def test_seeded_bot_games_are_the_pinned_games(preset: str, players: int, seed: int, bots: tuple[str, ...], digest: str) -> None:
    g = Game(players, preset=preset, seed=seed, max_rounds=300)
    play_game(g, [make_bot(name, seed=k) for k, name in enumerate(bots)])
    assert g.digest() == digest
