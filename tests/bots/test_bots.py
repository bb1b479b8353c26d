"""Bot temperaments: each pinned by a behaviour test.  Bots choose; they never change the state."""

from __future__ import annotations

import pytest
from helpers import ANA, BEN, act, give, jail, new_game

import laspoly
from laspoly import Game
from laspoly.bots.basic import BasicBot
from laspoly.bots.registry import TEMPERAMENTS, make_bot
from laspoly.bots.runner import play_bot_turns, play_game
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import legality
from laspoly.engine import registry as R


def _built(game: Game, player: int, building: str) -> int:
    return sum(1 for e in game.log if isinstance(e, E.Built) and e.who == player and e.building == building)


@pytest.mark.parametrize("name", list(TEMPERAMENTS))
def test_every_temperament_plays_whole_games_of_every_preset_with_legal_actions(name: str) -> None:
    for preset in ("laspoly", "sculptprice", "classic", "standard"):
        g = Game(3, preset=preset, seed=9, max_rounds=60)
        play_game(g, [make_bot(name, seed=1), make_bot("basic"), make_bot(name, seed=2)], validate=True)
        assert g.is_over


def test_the_factory_builder_builds_factories_and_the_hotel_builder_never_does() -> None:
    factories = hotels_factories = 0
    for seed in range(40):
        g = Game(2, seed=seed, max_rounds=200)
        play_game(g, [make_bot("factory"), make_bot("hotel")])
        factories += _built(g, 0, "factory")
        hotels_factories += _built(g, 1, "factory")
        assert _built(g, 0, "house") == 0
    assert factories > 0 and hotels_factories == 0


def test_the_trader_completes_a_group_through_an_accepted_offer() -> None:
    g = new_game("1-2 1-2")
    give(g, ANA, "Fremont Street")
    give(g, BEN, "Glitter Gulch")
    trader, other = make_bot("trader"), make_bot("basic")
    offer = trader.choose(g.observe())
    assert isinstance(offer, A.ProposeTrade) and offer.take == (3,) and offer.cash == 128
    g.apply(offer)
    play_bot_turns(g, [trader, other], until=lambda game: game.current == ANA and game.turns > 1)
    assert any(isinstance(e, E.TradeAccepted) for e in g.log)
    assert g.owner[1] == g.owner[3] == ANA and g.owns_group(ANA, 1)


def test_the_cautious_bot_never_goes_below_its_reserve_by_choice() -> None:
    by_choice = (A.Buy, A.Build, A.Repay, A.Travel, A.PayFine, A.PlaceBid, A.AcceptTrade)
    checked = 0
    for preset in ("laspoly", "classic"):
        for seed in range(20):
            g = Game(3, preset=preset, seed=seed, max_rounds=150)
            bots = [make_bot("cautious"), make_bot("greedy"), make_bot("trader")]
            while not g.is_over:
                if g.claims or g.actor != 0:
                    play_bot_turns(g, bots, max_actions=1)
                    continue
                action = bots[0].choose(g.observe())
                g.apply(action)
                if isinstance(action, by_choice) and g.players[0].active:
                    assert g.players[0].cash >= 500, (preset, seed, action)
                    checked += 1
    assert checked > 100


def test_jail_and_train_choices_are_bot_parameters() -> None:
    g = new_game("3-4")
    jail(g, ANA)
    assert isinstance(BasicBot(jail="leave").choose(g.observe()), A.PayFine)
    assert isinstance(BasicBot(jail="stay").choose(g.observe()), A.Roll)
    g2 = new_game("1-4")
    act(g2, A.Roll)
    act(g2, A.DeclineBuy)
    assert BasicBot(train=25).choose(g2.observe()) == A.Travel(ANA, 25)
    assert BasicBot().choose(g2.observe()) == A.StayPut(ANA)


def test_a_bot_chooses_without_changing_the_state() -> None:
    g = Game(4, seed=2, max_rounds=50)
    bots = [make_bot(n) for n in ("greedy", "trader", "factory", "random")]
    for _ in range(300):
        if g.is_over:
            break
        before = g.digest()
        action = bots[g.actor].choose(g.observe())
        assert g.digest() == before
        g.apply(action)


def test_unknown_bot_names_are_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match="greedy"):
        make_bot("nobody")


def _every_candidate(game: Game, player: int) -> list[A.Action]:
    """What a player might try now, built anew: the shared values' equals, and a few that are plainly wrong."""
    out: list[A.Action] = [A.Roll(player), A.EndTurn(player), A.Buy(player), A.DeclineBuy(player), A.PayFine(player),
                           A.UseJailCard(player), A.StayPut(player), A.PassAuction(player), A.PlaceBid(player, 10)]
    for i in range(len(game.fields)):
        out += [A.Build(player, i, "house"), A.Build(player, i, "hotel"), A.Build(player, i, "factory"),
                A.SellBuilding(player, i), A.SellProperty(player, i), A.Mortgage(player, i), A.Repay(player, i)]
    return out


def test_legal_actions_and_is_legal_agree_with_why_illegal_and_leave_its_refusals_worded() -> None:
    """``legal_actions`` and ``is_legal`` ask the same checks without wording a refusal nobody reads."""
    g = new_game(None, players=2)
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    for _ in range(30):
        me = g.actor
        candidates = _every_candidate(g, me)
        legal = g.legal_actions()
        assert all(g.why_illegal(a) is None for a in legal)
        assert {a for a in candidates if g.why_illegal(a) is None and not isinstance(a, A.PlaceBid)} <= set(legal)
        for a in candidates:
            reason = g.why_illegal(a)
            assert g.is_legal(a) is (reason is None) and g.observe().is_legal(a) is (reason is None)
            if reason is not None:  # worded as ever, after the quiet questions
                assert reason != "refused" and g.explain(reason, "es") != "refused" and reason.key  # type: ignore[attr-defined]
        play_bot_turns(g, [make_bot("greedy"), make_bot("greedy")], max_actions=1)


def test_listing_the_legal_actions_words_no_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    if laspoly.COMPILED:
        pytest.skip("the compiled build calls its refusal function natively, past the module's name")
    worded: list[str] = []
    monkeypatch.setattr(legality, "refusal", lambda namer, key, **values: worded.append(key) or key)
    g = new_game(None, players=2)
    assert g.legal_actions() and not g.is_legal(A.Buy(ANA)) and worded == []
    assert g.why_illegal(A.Buy(ANA)) == "buy.nothing" and worded == ["buy.nothing"]


def test_the_actions_on_a_field_are_made_once_per_seat_and_shared() -> None:
    first = R.field_actions(1, 7)
    assert first is R.field_actions(1, 7)
    assert first == (A.Build(1, 7, "house"), A.Build(1, 7, "hotel"), A.Build(1, 7, "factory"), A.SellBuilding(1, 7),
                     A.SellProperty(1, 7), A.Mortgage(1, 7), A.Repay(1, 7))
    stranger = R.field_actions(-1, 7)  # a seat that cannot exist: its own values, never another seat's
    assert stranger[0] == A.Build(-1, 7, "house") and stranger is not R.field_actions(-1, 7)
