"""Scenario tests for the classic web edition (C1-C12) and the standard rules.

Amounts come from ``laspoly/data/boards/classic.json`` (the standard board):
Mediterranean Avenue (1) 60, rents 2/10/30/90/160/250, mortgage 30; Baltic
Avenue (3) 60, rent 4, mortgage 30; Oriental Avenue (6) mortgage 50; the
railroads cost 200; Income Tax (4) is 200; Jail is 10.  The roll-off (C10)
dice come first in each script: "6-6 1-1" lets Ana start.
"""

from __future__ import annotations

import pytest
from helpers import ANA, BEN, CY, act, build, cash, give, give_jail_card, jail, mortgage, new_classic, place, set_cash, stack

from laspoly import Game, IllegalActionError
from laspoly.engine import actions as A
from laspoly.engine import events as E


# ---------------------------------------------------------------- C1 salary
def test_C1_the_first_pass_of_go_pays_nothing_later_passes_pay_200() -> None:
    g = new_classic("2-3 4-6 1-2")
    place(g, ANA, 36)
    act(g, A.Roll)  # to Mediterranean, first pass
    assert cash(g)[ANA] == 1500
    act(g, A.DeclineBuy)
    act(g, A.PassAuction)  # Ben
    act(g, A.EndTurn)
    act(g, A.Roll)  # Ben: just visiting
    act(g, A.EndTurn)
    place(g, ANA, 38)
    act(g, A.Roll)  # second pass
    assert cash(g)[ANA] == 1700


def test_C1_option_pays_the_first_pass_too() -> None:
    g = new_classic("2-3", rules={"salary_on_first_pass": True})
    place(g, ANA, 36)
    act(g, A.Roll)
    assert cash(g)[ANA] == 1700


# ---------------------------------------------------------------- C2 auctions
def test_C2_a_declined_property_is_auctioned_among_the_other_players() -> None:
    g = new_classic("1-2", players=3)
    act(g, A.Roll)  # Baltic Avenue
    act(g, A.DeclineBuy)
    assert g.phase == "auction" and g.actor == BEN
    act(g, A.PlaceBid, 10)
    act(g, A.PlaceBid, 20)  # Cy
    with pytest.raises(IllegalActionError, match="more than"):
        act(g, A.PlaceBid, 20)
    act(g, A.PassAuction)  # Ben leaves: Cy wins at 20
    assert g.owner[3] == CY and cash(g) == [1500, 1500, 1480]
    assert g.phase == "turn" and g.current == ANA


def test_C2_with_no_bid_the_property_stays_with_the_bank() -> None:
    g = new_classic("1-2", players=3)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.PassAuction)
    act(g, A.PassAuction)
    assert g.owner[3] == -1 and g.phase == "turn" and any(isinstance(e, E.AuctionStarted) for e in g.log)


# ---------------------------------------------------------------- C3 colour groups
def test_C3_whole_group_doubles_base_rent_even_with_a_mortgaged_street() -> None:
    g = new_classic("1-2")
    give(g, BEN, "Mediterranean Avenue", "Baltic Avenue")
    mortgage(g, 1)
    act(g, A.Roll)
    g.apply(A.ClaimRent(BEN, 3))
    assert cash(g) == [1492, 1508]


# ---------------------------------------------------------------- C4 railroads
@pytest.mark.parametrize(("owned", "rent"), [(1, 50), (2, 100), (3, 150), (4, 200)])
def test_C4_railroad_rent_is_50_times_the_number_owned(owned: int, rent: int) -> None:
    g = new_classic("1-4")
    give(g, BEN, *["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"][:owned])
    act(g, A.Roll)
    g.apply(A.ClaimRent(BEN, 5))
    assert cash(g) == [1500 - rent, 1500 + rent]


# ---------------------------------------------------------------- C5 houses
def test_C5_a_house_costs_the_mortgage_value_and_a_hotel_one_more_house() -> None:
    g = new_classic()
    give(g, ANA, "Mediterranean Avenue", "Baltic Avenue")
    for _ in range(4):
        act(g, A.Build, 1, "house")
        act(g, A.Build, 3, "house")
    act(g, A.Build, 3, "hotel")
    assert cash(g)[ANA] == 1500 - 9 * 30
    act(g, A.SellBuilding, 3)  # the hotel sells as one house, leaving four
    act(g, A.SellBuilding, 3)
    assert g.level[3] == 3 and cash(g)[ANA] == 1500 - 9 * 30 + 15 + 15
    with pytest.raises(IllegalActionError, match="evenly"):
        act(g, A.SellBuilding, 3)


# ---------------------------------------------------------------- C6 claiming rent
def test_C6_rent_is_paid_only_when_claimed_and_may_be_claimed_until_the_next_roll() -> None:
    g = new_classic("1-2 2-2")
    give(g, BEN, "Baltic Avenue")
    act(g, A.Roll)
    act(g, A.EndTurn)
    assert cash(g) == [1500, 1500]
    act(g, A.ClaimRent, 3)  # Ben, before his roll
    assert cash(g) == [1496, 1504]


def test_C6_an_unclaimed_rent_lapses_at_the_next_roll() -> None:
    g = new_classic("1-2 2-2")
    give(g, BEN, "Baltic Avenue")
    act(g, A.Roll)
    act(g, A.EndTurn)
    act(g, A.Roll)
    assert not g.is_legal(A.ClaimRent(BEN, 3)) and cash(g)[ANA] == 1500


# ---------------------------------------------------------------- C7 jail
def test_C7_a_total_of_3_frees_and_the_player_rolls_again_and_moves() -> None:
    g = new_classic("1-2 4-5")
    jail(g, ANA)
    act(g, A.Roll)
    assert not g.players[ANA].in_prison and g.players[ANA].pos == 19
    assert not g.rolls_due


def test_C7_doubles_do_not_free_and_one_try_per_turn() -> None:
    g = new_classic("2-2")
    jail(g, ANA)
    act(g, A.Roll)
    assert g.players[ANA].in_prison and not g.rolls_due and g.players[ANA].prison_turns == 1


def test_C7_option_any_die_showing_3() -> None:
    g = new_classic("3-5 1-1", rules={"jail_exit": "any_die_3"})
    jail(g, ANA)
    act(g, A.Roll)
    assert not g.players[ANA].in_prison and g.players[ANA].pos == 12


def test_C7_fine_before_rolling_on_the_first_or_second_jail_turn_only() -> None:
    g = new_classic("2-2 4-6 2-2 4-6 1-4")
    jail(g, ANA)
    for _ in range(2):
        act(g, A.Roll)  # Ana fails
        act(g, A.EndTurn)
        act(g, A.Roll)  # Ben moves 10
        act(g, A.EndTurn)
    with pytest.raises(IllegalActionError, match="first 2 prison turns"):
        act(g, A.PayFine)
    act(g, A.Roll)  # third failure: pay 50 and move by that roll
    assert not g.players[ANA].in_prison and g.players[ANA].pos == 15 and cash(g)[ANA] == 1450


def test_C7_a_get_out_of_jail_free_card_is_kept_used_and_returned_to_the_deck() -> None:
    g = new_classic("3-4 1-1 1-2")
    stack(g, "chance", "jail_free")
    act(g, A.Roll)  # Chance at 7
    assert g.players[ANA].jail_cards and len(g.decks["chance"]) == 15
    act(g, A.EndTurn)
    act(g, A.Roll)
    act(g, A.EndTurn)
    jail(g, ANA)
    act(g, A.UseJailCard)
    assert not g.players[ANA].in_prison and len(g.decks["chance"]) == 16
    act(g, A.Roll)
    assert g.players[ANA].pos == 13


def test_C7_C9_a_jail_card_can_be_bought_from_another_player() -> None:
    g = new_classic("1-2")
    give_jail_card(g, BEN, "chance", "jail_free")
    act(g, A.ProposeTrade, BEN, (), (), 40, 0, 1)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.PassAuction)
    act(g, A.EndTurn)
    act(g, A.AcceptTrade, 1)
    assert len(g.players[ANA].jail_cards) == 1 and not g.players[BEN].jail_cards
    assert cash(g) == [1460, 1540]


def test_C7_C11_a_prisoner_may_build_and_mortgage_on_their_turn() -> None:
    g = new_classic()
    jail(g, ANA)
    give(g, ANA, "Mediterranean Avenue", "Baltic Avenue", "Reading Railroad")
    act(g, A.Build, 1, "house")
    act(g, A.Mortgage, 5)
    assert cash(g)[ANA] == 1500 - 30 + 100


# ---------------------------------------------------------------- C8 bankruptcy
def test_C8_a_debt_to_a_player_hands_that_player_every_asset_mortgages_kept() -> None:
    g = new_classic("1-3", players=3)
    place(g, ANA, 35)
    set_cash(g, ANA, 10)
    give(g, ANA, "Mediterranean Avenue", "Oriental Avenue")
    mortgage(g, 1)
    give(g, BEN, "Boardwalk", "Park Place")  # a house needs the whole group, and C9 keeps built groups whole
    build(g, {39: 1})
    act(g, A.Roll)
    g.apply(A.ClaimRent(BEN, 39))  # 200 owed; Ana can raise only 10 + 50
    assert not g.players[ANA].active
    assert g.owner[1] == BEN and g.mortgaged[1] and g.owner[6] == BEN
    assert cash(g) == [0, 1510, 1500] and g.current == BEN


def test_C8_a_debt_to_the_bank_sends_the_properties_to_auction() -> None:
    g = new_classic("1-3", players=3)
    set_cash(g, ANA, 10)
    give(g, ANA, "Oriental Avenue")
    act(g, A.Roll)  # Income Tax 200
    assert not g.players[ANA].active and g.phase == "auction" and g.auction.field == 6
    act(g, A.PassAuction)  # Ben
    act(g, A.PlaceBid, 60)  # Cy
    assert g.owner[6] == CY and cash(g)[CY] == 1440 and g.current == BEN and g.phase == "turn"


# ---------------------------------------------------------------- C9 selling property
def test_C9_a_property_is_sold_to_a_player_only_when_its_group_has_no_buildings() -> None:
    g = new_classic()
    give(g, ANA, "Mediterranean Avenue", "Baltic Avenue")
    build(g, {3: 1})
    with pytest.raises(IllegalActionError, match="group has buildings"):
        act(g, A.ProposeTrade, BEN, (1,), (), -100)


def test_C9_the_buyer_of_a_mortgaged_property_may_lift_it_at_once() -> None:
    g = new_classic("1-2")
    give(g, ANA, "Oriental Avenue")
    mortgage(g, 6)
    act(g, A.ProposeTrade, BEN, (6,), (), -20)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.PassAuction)
    act(g, A.EndTurn)
    act(g, A.AcceptTrade, 1)
    act(g, A.Repay, 6)
    assert g.owner[6] == BEN and not g.mortgaged[6]
    assert cash(g)[BEN] == 1500 - 20 - 55


# ---------------------------------------------------------------- C10 first player
def test_C10_the_highest_roll_starts() -> None:
    g = Game(["Ana", "Ben", "Cy"], preset="classic", dice="3-4 6-5 1-1")
    assert g.current == BEN


def test_C10_a_tie_is_settled_by_rolling_again_among_the_tied() -> None:
    g = Game(["Ana", "Ben", "Cy"], preset="classic", dice="6-6 6-6 1-1 2-2 5-5")
    assert g.current == BEN
    assert sum(isinstance(e, E.Rolled) for e in g.log) == 5


# ---------------------------------------------------------------- C11 "at any time"
def test_C11_building_and_mortgaging_only_on_ones_turn_or_to_raise_money() -> None:
    g = new_classic()
    give(g, BEN, "Mediterranean Avenue", "Baltic Avenue")
    with pytest.raises(IllegalActionError, match="Ana's decision"):
        g.apply(A.Build(BEN, 1, "house"))
    with pytest.raises(IllegalActionError, match="Ana's decision"):
        g.apply(A.Mortgage(BEN, 1))


# ---------------------------------------------------------------- C12 doubles
def test_C12_in_classic_doubles_give_no_extra_roll_and_three_do_nothing() -> None:
    g = new_classic("2-2")
    act(g, A.Roll)
    assert not g.rolls_due and g.players[ANA].pos == 4


def test_C12_option_doubles_standard_restores_the_official_rule() -> None:
    g = new_classic("5-5 5-5 6-6", rules={"doubles": "standard"})
    act(g, A.Roll)
    assert g.rolls_due
    act(g, A.Roll)
    act(g, A.Roll)
    assert g.players[ANA].in_prison and g.current == BEN


# ---------------------------------------------------------------- cards shared by classic and standard
def test_nearest_railroad_card_pays_twice_the_rent() -> None:
    g = new_classic("3-4")
    give(g, BEN, "Pennsylvania Railroad")
    stack(g, "chance", "railroad1")
    act(g, A.Roll)  # Chance at 7, nearest railroad is 15
    g.apply(A.ClaimRent(BEN, 15))
    assert g.players[ANA].pos == 15 and cash(g) == [1400, 1600]


def test_nearest_utility_card_throws_the_dice_for_ten_times_the_total() -> None:
    g = new_classic("3-4 2-3")
    give(g, BEN, "Electric Company")
    stack(g, "chance", "utility")
    act(g, A.Roll)
    g.apply(A.ClaimRent(BEN, 12))
    assert cash(g) == [1450, 1550]


# ---------------------------------------------------------------- standard
def test_standard_railroads_pay_25_50_100_200() -> None:
    for owned, rent in ((1, 25), (2, 50), (3, 100), (4, 200)):
        g = new_classic("1-4", preset="standard")
        give(g, BEN, *["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"][:owned])
        act(g, A.Roll)
        assert cash(g) == [1500 - rent, 1500 + rent]


def test_standard_doubles_leave_jail_one_try_a_turn_and_pass_go_pays_200() -> None:
    g = new_classic("1-2 4-6 3-3", preset="standard")
    jail(g, ANA)
    act(g, A.Roll)
    assert g.players[ANA].in_prison and not g.rolls_due
    act(g, A.EndTurn)
    act(g, A.Roll)  # Ben: just visiting
    act(g, A.EndTurn)
    act(g, A.Roll)
    assert not g.players[ANA].in_prison and g.players[ANA].pos == 16 and not g.rolls_due
    g2 = new_classic("2-3", preset="standard")
    place(g2, ANA, 36)
    act(g2, A.Roll)
    assert cash(g2)[ANA] == 1700


def test_standard_houses_cost_what_the_card_says() -> None:
    g = new_classic(preset="standard")
    give(g, ANA, "Mediterranean Avenue", "Baltic Avenue")
    act(g, A.Build, 1, "house")
    assert cash(g)[ANA] == 1450


def test_standard_option_building_shortage_limits_houses_to_32() -> None:
    g = new_classic(preset="standard", rules={"building_shortage": True})
    give(g, ANA, "Mediterranean Avenue", "Baltic Avenue")
    # Ben's 31 houses leave the bank 1
    give(g, BEN, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue", "St. Charles Place", "States Avenue",
         "Virginia Avenue", "St. James Place", "Tennessee Avenue", "New York Avenue")
    build(g, {6: 4, 8: 4, 9: 4, 11: 4, 13: 4, 14: 4, 16: 3, 18: 2, 19: 2})
    assert g.houses_left == 1
    act(g, A.Build, 1, "house")
    with pytest.raises(IllegalActionError, match="no houses left"):
        act(g, A.Build, 3, "house")
