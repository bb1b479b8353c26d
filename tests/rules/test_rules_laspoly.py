"""Scenario tests, one group per Las Poly ruling L1-L20 (texts in docs/rules.md).

Dice are scripted; positions are set through the position API (``tests/helpers.py``).  Every expected amount is a
literal worked out from the rulebook and ``laspoly/data/boards/laspoly.json``:
Fremont Street (1) costs 60, rents 4/20/60/180/250/310, houses 50, factory 100
paying 11, mortgage 30; Glitter Gulch (3) 80, rent 5, mortgage 40; Hoover Dam
Road (7, a single-street group) 120, rents 8/40/120, factory income 22, mortgage 60;
Las Vegas Boulevard (39) mortgage 185.
"""

from __future__ import annotations

import pytest
from helpers import ANA, BEN, act, build, cash, fund_pot, give, jail, mortgage, new_game, place, script, set_cash, stack

from laspoly import Game, IllegalActionError
from laspoly.engine import actions as A
from laspoly.engine import events as E


# ---------------------------------------------------------------- L1 setup
def test_L1_players_start_with_1300_and_an_empty_casino_pot() -> None:
    g = new_game()
    assert cash(g) == [1300, 1300]
    assert g.pot == 0


def test_L1_a_seeded_draw_picks_the_first_player() -> None:
    firsts = [Game(["A", "B", "C"], seed=s).current for s in range(30)]
    assert set(firsts) == {0, 1, 2}
    assert firsts == [Game(["A", "B", "C"], seed=s).current for s in range(30)]


# ---------------------------------------------------------------- L2 turn
def test_L2_before_rolling_the_player_may_build_and_mortgage() -> None:
    g = new_game("1-2")
    give(g, ANA, "Hoover Dam Road", "Fremont Street")
    act(g, A.Build, 7, "house")
    act(g, A.Mortgage, 1)
    assert cash(g) == [1300 - 50 + 30, 1300]
    act(g, A.Roll)
    assert g.players[ANA].pos == 3 and g.phase == "buy"


# ---------------------------------------------------------------- L3 start
def test_L3_passing_start_pays_200() -> None:
    g = new_game("2-3")
    place(g, ANA, 36)
    act(g, A.Roll)
    assert g.players[ANA].pos == 1
    assert cash(g)[ANA] == 1500


def test_L3_landing_exactly_on_start_pays_400() -> None:
    g = new_game("1-3")
    place(g, ANA, 36)
    act(g, A.Roll)
    assert g.players[ANA].pos == 0
    assert cash(g)[ANA] == 1700


def test_L3_card_moving_forward_past_start_pays_200() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "union")
    act(g, A.Roll)
    assert g.players[ANA].pos == 5
    assert cash(g)[ANA] == 1500


def test_L3_card_moving_onto_start_pays_400() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "start")
    act(g, A.Roll)
    assert g.players[ANA].pos == 0
    assert cash(g)[ANA] == 1700


# ---------------------------------------------------------------- L4 buying
def test_L4_buy_from_the_bank_at_its_price() -> None:
    g = new_game("1-2")
    act(g, A.Roll)
    act(g, A.Buy)
    assert g.owner[3] == ANA
    assert cash(g) == [1220, 1300]


def test_L4_a_declined_property_stays_unsold_without_auction() -> None:
    g = new_game("1-2")
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    assert g.owner[3] == -1
    assert g.phase == "turn" and g.auction is None
    assert g.legal_actions() and all(not isinstance(a, A.PlaceBid) for a in g.legal_actions())
    assert cash(g) == [1300, 1300]


# ---------------------------------------------------------------- L5 street rent
def test_L5_base_rent_from_the_card() -> None:
    g = new_game("1-2")
    give(g, BEN, "Glitter Gulch")
    act(g, A.Roll)
    assert cash(g) == [1295, 1305]


def test_L5_whole_group_doubles_base_rent_even_with_a_mortgaged_street() -> None:
    g = new_game("1-2")
    give(g, BEN, "Glitter Gulch", "Fremont Street")
    mortgage(g, 1)
    act(g, A.Roll)
    assert cash(g) == [1290, 1310]


def test_L5_mortgaged_street_collects_nothing() -> None:
    g = new_game("1-2")
    give(g, BEN, "Glitter Gulch")
    mortgage(g, 3)
    act(g, A.Roll)
    assert cash(g) == [1300, 1300]


def test_L5_house_rent_comes_from_the_card() -> None:
    g = new_game("3-4")
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: 2})
    act(g, A.Roll)
    assert cash(g) == [1180, 1420]


def test_L5_L12_street_with_a_factory_collects_nothing() -> None:
    g = new_game("3-4")
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: "factory"})
    act(g, A.Roll)
    assert cash(g) == [1300, 1300]


# ---------------------------------------------------------------- L6 attractions
def test_L6_one_attraction_rents_dice_total_times_4() -> None:
    g = new_game("2-3")
    place(g, ANA, 7)
    give(g, BEN, "Ferris Wheel")
    act(g, A.Roll)
    assert cash(g) == [1280, 1320]


def test_L6_both_attractions_rent_dice_total_times_10() -> None:
    g = new_game("2-3")
    place(g, ANA, 7)
    give(g, BEN, "Ferris Wheel", "Circus")
    act(g, A.Roll)
    assert cash(g) == [1250, 1350]


def test_L6_card_to_an_attraction_uses_the_turns_dice_total() -> None:
    g = new_game("1-2")
    place(g, ANA, 39)
    give(g, BEN, "Ferris Wheel")
    stack(g, "action", "ferris")
    act(g, A.Roll)  # 39 + 3 = field 2 (action), passing Start: +200; card to the Ferris wheel: 3 x 4
    assert g.players[ANA].pos == 12
    assert cash(g) == [1488, 1312]


# ---------------------------------------------------------------- L7 stations
@pytest.mark.parametrize(("owned", "rent"), [(1, 50), (2, 100), (3, 200), (4, 400)])
def test_L7_station_rent_is_50_times_2_to_the_n_minus_1(owned: int, rent: int) -> None:
    g = new_game("1-4")
    give(g, BEN, *["Union Plaza Station", "Convention Center Station", "Airport Station", "Stratosphere Station"][:owned])
    act(g, A.Roll)
    assert cash(g) == [1300 - rent, 1300 + rent]


@pytest.mark.parametrize(("owned", "rent"), [(1, 100), (4, 800)])
def test_L7_option_doubling_from_2_gives_100_to_800(owned: int, rent: int) -> None:
    g = new_game("1-4", rules={"station_rent": "doubling_from_2"})
    give(g, BEN, *["Union Plaza Station", "Convention Center Station", "Airport Station", "Stratosphere Station"][:owned])
    act(g, A.Roll)
    assert cash(g)[ANA] == 1300 - rent


# ---------------------------------------------------------------- L8 casino
def test_L8_casino_with_doubles_pays_a_quarter_of_the_pot() -> None:
    g = new_game("2-2")
    place(g, ANA, 13)
    fund_pot(g, 1001)
    act(g, A.Roll)
    assert cash(g)[ANA] == 1550 and g.pot == 751
    assert g.rolls_due  # doubles: roll again


def test_L8_casino_with_double_six_pays_half_the_pot() -> None:
    g = new_game("6-6")
    place(g, ANA, 5)
    fund_pot(g, 1001)
    act(g, A.Roll)
    assert cash(g)[ANA] == 1800 and g.pot == 501


def test_L8_casino_without_doubles_pays_nothing() -> None:
    g = new_game("2-3")
    place(g, ANA, 12)
    fund_pot(g, 1000)
    act(g, A.Roll)
    assert cash(g)[ANA] == 1300 and g.pot == 1000


# ---------------------------------------------------------------- L9 pay into the casino
def test_L9_pay_into_the_casino_field_feeds_the_pot() -> None:
    g = new_game("1-3")
    act(g, A.Roll)
    assert cash(g)[ANA] == 1200 and g.pot == 100


def test_L9_card_payment_to_the_casino_feeds_the_pot() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "blackjack")
    act(g, A.Roll)
    assert cash(g)[ANA] == 1250 and g.pot == 50


def test_L9_other_payments_to_the_bank_leave_the_game() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "parking")
    act(g, A.Roll)
    assert cash(g)[ANA] == 1270 and g.pot == 0 and g.bank == 30


# ---------------------------------------------------------------- L10 train travel
@pytest.mark.parametrize(("dest", "fare"), [(15, 75), (25, 150), (35, 225)])
def test_L10_fare_is_75_per_station_passed(dest: int, fare: int) -> None:
    g = new_game("1-4")
    act(g, A.Roll)
    act(g, A.Buy)
    assert g.phase == "travel"
    act(g, A.Travel, dest)
    assert g.players[ANA].pos == dest
    assert cash(g)[ANA] == 1300 - 200 - fare


def test_L10_rent_is_settled_before_travel_and_none_is_due_at_the_destination() -> None:
    g = new_game("1-4")
    give(g, BEN, "Union Plaza Station", "Airport Station")
    act(g, A.Roll)  # rent 100 for two stations
    act(g, A.Travel, 25)  # 150 to the bank, no rent at Ben's Airport Station
    assert cash(g) == [1300 - 100 - 150, 1400]
    assert g.phase == "turn"


def test_L10_no_purchase_at_the_destination() -> None:
    g = new_game("1-4")
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.Travel, 15)
    assert g.phase == "turn" and g.owner[15] == -1
    assert not g.is_legal(A.Buy(ANA))


def test_L10_travel_past_start_earns_no_salary() -> None:
    g = new_game("1-2")
    place(g, ANA, 32)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.Travel, 5)
    assert g.players[ANA].pos == 5
    assert cash(g)[ANA] == 1300 - 75


def test_L10_after_travel_doubles_still_roll_again() -> None:
    g = new_game("2-2")
    place(g, ANA, 1)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.Travel, 15)
    assert g.rolls_due and not g.is_legal(A.EndTurn(ANA))


# ---------------------------------------------------------------- L11 building
def test_L11_building_needs_the_whole_colour_group() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street")
    with pytest.raises(IllegalActionError, match="whole colour group"):
        act(g, A.Build, 1, "house")


def test_L11_building_only_on_ones_own_turn() -> None:
    g = new_game()
    give(g, BEN, "Hoover Dam Road")
    with pytest.raises(IllegalActionError, match="Ben cannot build a house on Hoover Dam Road"):
        g.apply(A.Build(BEN, 7, "house"))


def test_L11_no_building_while_a_street_of_the_group_is_mortgaged() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    mortgage(g, 3)
    with pytest.raises(IllegalActionError, match="mortgaged"):
        act(g, A.Build, 1, "house")


def test_L11_building_must_be_even() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    act(g, A.Build, 1, "house")
    with pytest.raises(IllegalActionError, match="evenly"):
        act(g, A.Build, 1, "house")
    act(g, A.Build, 3, "house")
    act(g, A.Build, 1, "house")
    assert g.level[1] == 2 and g.level[3] == 1


def test_L11_hotel_after_four_houses_everywhere_and_any_number_in_one_turn() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    for _ in range(4):
        act(g, A.Build, 1, "house")
        with pytest.raises(IllegalActionError, match="4 houses on every street"):
            act(g, A.Build, 1, "hotel")
        act(g, A.Build, 3, "house")
    act(g, A.Build, 1, "hotel")
    act(g, A.Build, 3, "hotel")
    assert g.level[1] == g.level[3] == 5
    assert cash(g)[ANA] == 1300 - 8 * 50 - 2 * 50
    assert g.rent(1) == 310


# ---------------------------------------------------------------- L12 factories
def test_L12_factory_only_on_an_unbuilt_street_and_final() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    act(g, A.Build, 3, "house")
    with pytest.raises(IllegalActionError, match="no building"):
        act(g, A.Build, 3, "factory")
    act(g, A.Build, 1, "factory")
    assert cash(g)[ANA] == 1300 - 50 - 100
    for kind in ("house", "hotel", "factory"):
        with pytest.raises(IllegalActionError, match="final"):
            act(g, A.Build, 1, kind)


def test_L12_evenness_and_the_hotel_look_only_at_streets_without_a_factory() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    act(g, A.Build, 1, "factory")
    for _ in range(4):
        act(g, A.Build, 3, "house")
    act(g, A.Build, 3, "hotel")
    assert g.level[3] == 5 and g.factory[1]


def test_L12_bank_pays_factory_income_at_the_start_of_each_owners_turn_in_prison_too() -> None:
    g = new_game("1-2 2-4")
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    act(g, A.Build, 1, "factory")  # 1200 left
    jail(g, ANA)
    act(g, A.PayFine)  # 1150
    act(g, A.Roll)  # 10 + 3 = Elvis Chapel Lane
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    act(g, A.Roll)  # Ben: 6 = Boulder Highway
    act(g, A.DeclineBuy)
    jail(g, ANA)
    act(g, A.EndTurn)
    assert cash(g)[ANA] == 1150 + 11
    assert isinstance(g.log[-1], E.Paid) and g.log[-1].reason == "factory_income"


def test_L12_landers_on_a_factory_street_pay_nothing() -> None:
    g = new_game("1-2")
    give(g, BEN, "Glitter Gulch")
    build(g, {3: "factory"})
    act(g, A.Roll)
    assert cash(g) == [1300, 1300]


def test_L12_a_factory_sells_back_for_half_its_price_leaving_the_street_unbuilt() -> None:
    g = new_game()
    give(g, ANA, "Glitter Gulch", "Fremont Street")
    act(g, A.Build, 3, "factory")
    act(g, A.SellBuilding, 3)
    assert not g.factory[3] and g.level[3] == 0
    assert cash(g)[ANA] == 1300 - 100 + 50


def test_L12_L17_a_factory_sale_must_keep_the_group_even() -> None:
    g = new_game()
    give(g, ANA, "Glitter Gulch", "Fremont Street")
    act(g, A.Build, 3, "factory")
    act(g, A.Build, 1, "house")
    act(g, A.Build, 1, "house")
    before = g.digest()
    with pytest.raises(IllegalActionError, match="leave the group uneven"):
        g.apply(A.SellBuilding(ANA, 3))
    assert g.digest() == before
    act(g, A.SellBuilding, 1)
    act(g, A.SellBuilding, 3)
    assert not g.factory[3] and g.level[1] == 1 and g.level[3] == 0


def test_L12_option_landing_pays_factory_income_when_someone_lands() -> None:
    g = new_game("1-2", rules={"factory_income_when": "landing"})
    give(g, BEN, "Glitter Gulch")
    build(g, {3: "factory"})
    act(g, A.Roll)
    assert cash(g) == [1300, 1314]


# ---------------------------------------------------------------- L13 doubles
def test_L13_doubles_roll_again_and_third_doubles_go_to_prison_unmoved() -> None:
    g = new_game("5-5 5-5 6-6")
    act(g, A.Roll)
    assert g.players[ANA].pos == 10 and g.rolls_due
    act(g, A.Roll)
    assert g.players[ANA].pos == 20
    act(g, A.Roll)
    p = g.players[ANA]
    assert p.pos == 10 and p.in_prison
    assert g.current == BEN


def test_L13_third_doubles_crossing_start_earn_no_salary() -> None:
    g = new_game("2-2 1-1 3-3")
    place(g, ANA, 31)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.StayPut)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.Roll)
    assert g.players[ANA].in_prison and cash(g)[ANA] == 1300


# ---------------------------------------------------------------- L14 prison
def test_L14_pay_50_before_rolling_then_move_normally() -> None:
    g = new_game("3-4")
    jail(g, ANA)
    act(g, A.PayFine)
    act(g, A.Roll)
    assert g.players[ANA].pos == 17 and not g.players[ANA].in_prison
    assert cash(g)[ANA] == 1250


def test_L14_three_tries_per_turn_then_the_turn_ends() -> None:
    g = new_game("1-2 1-3 1-4")
    jail(g, ANA)
    for _ in range(3):
        act(g, A.Roll)
    assert g.players[ANA].in_prison and g.players[ANA].pos == 10
    assert not g.rolls_due and g.players[ANA].prison_turns == 1
    with pytest.raises(IllegalActionError, match="already rolled"):
        act(g, A.PayFine)


def test_L14_doubles_free_the_player_who_moves_by_that_roll_without_another_roll() -> None:
    g = new_game("1-2 3-3")
    jail(g, ANA)
    act(g, A.Roll)
    act(g, A.Roll)
    assert g.players[ANA].pos == 16 and not g.players[ANA].in_prison
    act(g, A.DeclineBuy)
    assert not g.rolls_due
    assert cash(g)[ANA] == 1300


def test_L14_after_three_prison_turns_pay_50_and_move_by_the_last_roll() -> None:
    g = new_game("1-2 1-3 1-4  4-6  1-2 1-3 1-4  4-6  1-2 1-3 2-4")
    jail(g, ANA)
    for _round in range(2):
        for _ in range(3):
            act(g, A.Roll)
        act(g, A.EndTurn)
        act(g, A.Roll)  # Ben: 10 more fields (just visiting, then free parking)
        act(g, A.EndTurn)
    for _ in range(3):
        act(g, A.Roll)
    assert not g.players[ANA].in_prison
    assert g.players[ANA].pos == 16
    assert cash(g)[ANA] == 1250


def test_L14_a_prisoner_still_collects_rent() -> None:
    g = new_game("1-2 1-2")
    jail(g, ANA)
    give(g, ANA, "Glitter Gulch")
    place(g, BEN, 0)
    act(g, A.Roll)
    act(g, A.Roll)
    act(g, A.Roll)
    act(g, A.EndTurn)
    script(g, "1-2")
    act(g, A.Roll)
    assert cash(g) == [1305, 1295]


# ---------------------------------------------------------------- L15 cards
def test_L15_drawn_card_acts_and_goes_to_the_bottom() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "tips")
    top = g.decks["action"][0]
    act(g, A.Roll)
    assert cash(g)[ANA] == 1400
    assert g.decks["action"][-1] == top and len(g.decks["action"]) == len(g.board.decks["action"])


def test_L15_go_to_prison_card_ends_the_turn() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    stack(g, "action", "prison")
    act(g, A.Roll)
    assert g.players[ANA].in_prison and g.players[ANA].pos == 10 and g.current == BEN


def test_L15_repairs_are_charged_per_house_hotel_and_factory() -> None:
    g = new_game("1-3")
    place(g, ANA, 29)
    give(g, ANA, "Hoover Dam Road", "Fremont Street", "Glitter Gulch")
    build(g, {7: 2, 1: "hotel", 3: "factory"})
    stack(g, "action", "repairs")
    act(g, A.Roll)
    assert cash(g)[ANA] == 1300 - (2 * 25 + 100 + 50)


def test_L15_the_deck_is_data_with_the_required_cards() -> None:
    g = new_game()
    cards = g.board.decks["action"]
    effects = [c.effect for c in cards]
    assert len(cards) >= 16
    assert "go_to_prison" in effects and "advance_to" in effects and "repairs" in effects
    assert sum(1 for c in cards if c.effect == "pay" and c.args["to"] == "pot") >= 2
    steps = [c.args["steps"] for c in cards if c.effect == "move"]
    assert any(s > 0 for s in steps) and any(s < 0 for s in steps)
    repairs = next(c for c in cards if c.effect == "repairs").args
    assert repairs["house"] and repairs["hotel"] and repairs["factory"]


def test_L15_card_moving_back_earns_no_salary() -> None:
    g = new_game("1-1 1-2")
    stack(g, "action", "back3")
    act(g, A.Roll)  # field 2: back 3 to field 39
    assert g.players[ANA].pos == 39 and cash(g)[ANA] == 1300


# ---------------------------------------------------------------- L16 trades
def test_L16_offer_sent_on_own_turn_answered_on_receivers_turn() -> None:
    g = new_game("1-2 3-5")
    give(g, ANA, "Fremont Street")
    give(g, BEN, "Ferris Wheel")
    mortgage(g, 1)
    act(g, A.ProposeTrade, BEN, (1,), (12,), 50)
    with pytest.raises(IllegalActionError, match="Ana's decision"):
        g.apply(A.AcceptTrade(BEN, 1))
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    act(g, A.AcceptTrade, 1)
    assert g.owner[1] == BEN and g.owner[12] == ANA
    assert g.mortgaged[1]  # changes hands mortgaged
    assert cash(g) == [1250, 1350]


def test_L16_offers_are_sent_only_on_ones_own_turn() -> None:
    g = new_game()
    give(g, BEN, "Ferris Wheel")
    with pytest.raises(IllegalActionError, match="decision"):
        g.apply(A.ProposeTrade(BEN, ANA, (12,), (), 0))


def test_L16_an_offer_that_no_longer_matches_lapses() -> None:
    g = new_game("1-2")
    give(g, ANA, "Fremont Street")
    act(g, A.ProposeTrade, BEN, (1,), (), -10)
    act(g, A.SellProperty, 1)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    assert g.offers == {}
    assert any(isinstance(e, E.TradeLapsed) for e in g.log)


def test_L16_properties_with_buildings_cannot_be_offered() -> None:
    g = new_game()
    give(g, ANA, "Hoover Dam Road")
    build(g, {7: 1})
    with pytest.raises(IllegalActionError, match="buildings"):
        act(g, A.ProposeTrade, BEN, (7,), (), 0)


# ---------------------------------------------------------------- L17 selling
def test_L17_buildings_sell_for_half_and_evenly() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    build(g, {1: 2, 3: 2})
    act(g, A.SellBuilding, 1)
    assert cash(g)[ANA] == 1325
    with pytest.raises(IllegalActionError, match="evenly"):
        act(g, A.SellBuilding, 1)


def test_L17_hotel_sells_for_half_and_turns_back_into_four_houses() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    build(g, {1: "hotel", 3: "hotel"})
    act(g, A.SellBuilding, 3)
    assert g.level[3] == 4 and cash(g)[ANA] == 1325


def test_L17_street_sells_for_half_only_once_its_group_has_no_buildings() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    build(g, {3: 1})
    with pytest.raises(IllegalActionError, match="buildings first"):
        act(g, A.SellProperty, 1)
    act(g, A.SellBuilding, 3)
    act(g, A.SellProperty, 1)
    assert g.owner[1] == -1 and cash(g)[ANA] == 1300 + 25 + 30


def test_L17_mortgaged_street_cannot_be_sold_to_the_bank() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street")
    mortgage(g, 1)
    with pytest.raises(IllegalActionError, match="mortgaged property cannot be sold"):
        act(g, A.SellProperty, 1)


# ---------------------------------------------------------------- L18 mortgage
def test_L18_mortgage_pays_the_card_value_and_repaying_adds_10_percent_rounded_up() -> None:
    g = new_game()
    give(g, ANA, "Las Vegas Boulevard")
    act(g, A.Mortgage, 39)
    assert cash(g)[ANA] == 1485
    act(g, A.Repay, 39)
    assert cash(g)[ANA] == 1485 - 204 and not g.mortgaged[39]


def test_L18_mortgage_only_when_the_group_has_no_buildings() -> None:
    g = new_game()
    give(g, ANA, "Las Vegas Boulevard", "Penthouse Row")
    build(g, {37: 1})
    with pytest.raises(IllegalActionError, match="buildings first"):
        act(g, A.Mortgage, 39)


# ---------------------------------------------------------------- L19 out of money
def test_L19_a_debtor_must_raise_money_first() -> None:
    g = new_game("1-3", players=3)
    place(g, ANA, 3)
    set_cash(g, ANA, 100)
    give(g, ANA, "Fremont Street", "Glitter Gulch")
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: 2})
    act(g, A.Roll)  # rent 120 > 100 cash
    assert g.phase == "debt" and g.actor == ANA
    assert not g.is_legal(A.EndTurn(ANA))
    act(g, A.Mortgage, 1)  # +30: 130 covers 120 with 10 left
    assert g.phase == "turn"
    assert cash(g) == [10, 1420, 1300]


def test_L19_a_debtor_who_cannot_pay_is_out_and_the_creditor_gets_what_is_left() -> None:
    g = new_game("1-3", players=3)
    place(g, ANA, 3)
    set_cash(g, ANA, 50)
    give(g, ANA, "Glitter Gulch", "Fremont Street")
    mortgage(g, 1)
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: 2})
    act(g, A.Roll)  # owes 120; 50 cash + 40 from Glitter Gulch = 90
    assert not g.players[ANA].active
    assert cash(g) == [0, 1390, 1300]
    assert g.owner[1] == g.owner[3] == -1 and not g.mortgaged[1]
    assert g.current == BEN


def test_L19_a_payment_that_hits_exactly_zero_is_out() -> None:
    g = new_game("1-3", players=3)
    place(g, ANA, 3)
    set_cash(g, ANA, 120)
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: 2})
    act(g, A.Roll)
    assert not g.players[ANA].active
    assert cash(g) == [0, 1420, 1300]


def test_L19_a_voluntary_purchase_that_hits_zero_is_out() -> None:
    g = new_game("1-2", players=3)
    set_cash(g, ANA, 80)
    act(g, A.Roll)
    act(g, A.Buy)  # Glitter Gulch for exactly 80
    assert not g.players[ANA].active and g.owner[3] == -1
    assert g.current == BEN


def test_L19_option_below_zero_keeps_a_player_at_zero_in() -> None:
    g = new_game("1-2", players=3, rules={"elimination": "below_zero"})
    set_cash(g, ANA, 80)
    act(g, A.Roll)
    act(g, A.Buy)
    assert g.players[ANA].active and cash(g)[ANA] == 0


# ---------------------------------------------------------------- L20 end
def test_L20_the_last_player_left_wins() -> None:
    g = new_game("1-3")
    place(g, ANA, 3)
    set_cash(g, ANA, 100)
    give(g, BEN, "Hoover Dam Road")
    build(g, {7: 2})
    act(g, A.Roll)
    assert g.is_over and g.winner == BEN and g.end_reason == "last_player"
    assert g.legal_actions() == []


def test_L20_at_the_round_cap_the_richest_by_net_worth_wins() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="1-2 1-4", max_rounds=1)
    act(g, A.Roll)
    act(g, A.Buy)  # Glitter Gulch: 1220 cash + 80
    act(g, A.EndTurn)
    act(g, A.Roll)  # Ben: Union Plaza Station
    act(g, A.Buy)  # 1100 cash + 200
    act(g, A.Mortgage, 5)  # +100 cash, worth 200 - 100
    act(g, A.StayPut)
    act(g, A.EndTurn)
    assert g.is_over and g.end_reason == "net_worth"
    assert g.net_worth(ANA) == 1300 and g.net_worth(BEN) == 1300
    assert g.winner == ANA  # a tie goes to the earlier seat
    assert "net worth" in g.describe(g.log[-1])


def test_L20_net_worth_counts_cash_prices_less_mortgages_and_buildings() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street", "Hoover Dam Road", "Glitter Gulch")
    mortgage(g, 1)
    build(g, {7: 2, 3: "factory"})
    assert g.net_worth(ANA) == 1300 + (60 - 30) + (120 + 100) + (80 + 100)
