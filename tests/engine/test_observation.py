"""What a bot sees: an observation of the game, with no secret and no move; and seeded bot games stay the same."""

from __future__ import annotations

import pytest

from laspoly.bots.basic import BasicBot
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.engine.observation import Observation

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


# ---------------------------------------------------------------- what the view shows and hides

#: Everything a bot may read or ask: adding a name is a decision about what players may know.
SHOWN = {
    # the table
    "preset", "board", "rules", "fields", "board_groups", "group_of", "stations", "attractions", "prison", "hotel_level",
    "players", "owner", "level", "factory", "mortgaged", "owner_version", "houses_left", "hotels_left", "pot",
    # the state of play
    "phase", "actor", "current", "is_over", "winner", "end_reason", "round", "turns", "max_rounds", "rolls_due",
    "doubles_count", "prison_tries", "dice", "last_card", "pending_field", "offers", "claims", "auction", "debt",
    "active_players",
    # questions and words
    "why_illegal", "is_legal", "legal_actions", "cost_of", "rent", "net_worth", "standings", "liquidation_value",
    "owned_by", "owns_group", "group_has_buildings", "build_cost", "house_price", "hotel_price", "building_value",
    "repay_price", "train_fare", "describe", "describe_action", "money",
}
#: What no player at the table knows or can do: the future (decks, generator, script, seed), the record, the moves.
HIDDEN = ["decks", "chance", "setup", "history", "log", "snapshot", "digest", "apply", "push", "end_by_cap",
          "observe", "bank", "collect_queue", "record_events", "keep_history", "state", "observer", "rent_policy", "salary"]


def test_an_observation_shows_exactly_the_allowed_names() -> None:
    obs = Game(2, seed=1).observe()
    assert {name for name in dir(obs) if not name.startswith("_")} == SHOWN


@pytest.mark.parametrize("name", HIDDEN)
def test_a_bot_cannot_read_the_decks_the_generator_or_the_record_through_its_observation(name: str) -> None:
    g = Game(2, seed=1)
    assert hasattr(g, name)
    with pytest.raises(AttributeError):
        getattr(g.observe(), name)


@pytest.mark.parametrize("name", ["game", "_game", "__game"])
def test_an_observation_gives_no_plain_way_back_to_the_game(name: str) -> None:
    with pytest.raises(AttributeError):
        getattr(Game(2, seed=1).observe(), name)


def test_a_bot_cannot_change_the_game_through_its_observation() -> None:
    g = Game(2, seed=1)
    obs = g.observe()
    before = g.digest()
    for name, value in (("pot", 10**6), ("phase", "over"), ("owner", []), ("players", []), ("decks", {})):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(obs, name, value)
    with pytest.raises(AttributeError, match="read-only"):
        del obs.owner
    assert g.digest() == before and obs.owner is g.owner


def test_an_observation_reads_the_live_game_without_copies() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="6-5")
    obs = g.observe()
    assert (obs.phase, obs.rolls_due, obs.dice) == ("turn", True, (0, 0))
    g.apply(A.Roll(g.actor))
    assert obs.dice == (6, 5) and obs.phase == g.phase and obs.actor == g.actor
    assert obs.why_illegal(A.Roll(obs.actor)) == g.why_illegal(A.Roll(g.actor)) is not None
    assert obs.legal_actions() == g.legal_actions()


def test_the_lists_an_observation_holds_stay_the_games_own_through_whole_games() -> None:
    """The view holds the game's lists once; the engine changes them in place, never replacing one."""
    for preset in ("laspoly", "sculptprice", "classic", "standard"):
        g = Game(4, preset=preset, seed=6, max_rounds=300)
        obs = g.observe()
        play_game(g, [make_bot(name, seed=k) for k, name in enumerate(("greedy", "trader", "cautious", "random"))])
        assert any(not p.active for p in g.players), preset  # eliminations happened
        for name in ("preset", "board", "rules", "fields", "board_groups", "group_of", "stations", "attractions",
                     "players", "owner", "level", "factory", "mortgaged"):
            assert getattr(obs, name) is getattr(g, name), (preset, name)
        assert obs.offers is g.offers and obs.claims is g.claims and obs.standings() == g.standings()


class _Spy(BasicBot):
    """A basic bot that records what it was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[type] = set()

    def choose(self, game: Observation) -> A.Action:
        self.seen.add(type(game))
        return super().choose(game)

    def claims_rent(self, game: Observation, player: int) -> bool:
        self.seen.add(type(game))
        return True


def test_the_bot_runner_hands_bots_an_observation_never_the_game() -> None:
    spies = [_Spy() for _ in range(3)]
    play_game(Game(3, preset="classic", seed=2, max_rounds=80), spies)  # classic: rent is claimed (C6)
    assert set().union(*(s.seen for s in spies)) == {Observation}
