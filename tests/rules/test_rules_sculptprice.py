"""Scenario tests for Sculptprice, rulings S1-S9 (texts in docs/rules.md).

Amounts come from ``laspoly/data/boards/sculptprice.json``: Venus de Willendorf (1)
costs 60, rents 2/10/30/90/160 by Actualizaciones, upgrades 50, mortgage 30;
Dama de Elche (3) 60, rent 4; the Parques cost 200; the Restoration Tax (4) is
200 and the Collection Insurance (28) 150, both to the BOTE; the BOTE is field 20.
"""

from __future__ import annotations

import pytest
from helpers import ANA, BEN, act, build, cash, fund_pot, give, mortgage, new_sculptprice, place, script, set_cash, stack

from laspoly import IllegalActionError
from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine import events as E


def _claim_all(g) -> None:  # type: ignore[no-untyped-def]
    for _, owner, field, _ in list(g.claims):
        g.apply(A.ClaimRent(owner, field))


# ---------------------------------------------------------------- S1 properties
def test_S1_rent_depends_only_on_upgrades_no_group_doubling() -> None:
    g = new_sculptprice("1-2")
    give(g, BEN, "Venus de Willendorf", "Dama de Elche")
    act(g, A.Roll)  # Dama de Elche, rent 4 (not doubled)
    _claim_all(g)
    assert cash(g) == [1496, 1504]


def test_S1_upgrades_need_the_whole_group_evenly_up_to_four_and_no_hotel() -> None:
    g = new_sculptprice()
    give(g, ANA, "Venus de Willendorf")
    with pytest.raises(IllegalActionError, match="whole colour group"):
        act(g, A.Build, 1, "house")
    give(g, ANA, "Dama de Elche")
    act(g, A.Build, 1, "house")
    with pytest.raises(IllegalActionError, match="evenly"):
        act(g, A.Build, 1, "house")
    act(g, A.Build, 3, "house")
    for _ in range(3):
        act(g, A.Build, 1, "house")
        act(g, A.Build, 3, "house")
    with pytest.raises(IllegalActionError, match="at most 4"):
        act(g, A.Build, 1, "house")
    with pytest.raises(IllegalActionError, match="no hotels"):
        act(g, A.Build, 1, "hotel")
    assert g.rent(1) == 160 and cash(g)[ANA] == 1500 - 8 * 50


def test_S1_parque_rent_goes_by_the_number_of_parques_owned() -> None:
    g = new_sculptprice("1-4")
    give(g, BEN, "Parque del Retiro", "Parque Güell")
    act(g, A.Roll)
    _claim_all(g)
    assert cash(g) == [1400, 1600]


# ---------------------------------------------------------------- S2 doubles
def test_S2_third_doubles_move_and_play_then_lose_the_next_turn() -> None:
    g = new_sculptprice("5-5 5-5 4-4 1-2 2-5")
    act(g, A.Roll)  # 10, studio visit
    act(g, A.Roll)  # 20, the BOTE (empty)
    act(g, A.Roll)  # 28, Collection Insurance: 150 to the pot
    assert g.players[ANA].pos == 28 and cash(g)[ANA] == 1350 and g.pot == 150
    assert not g.rolls_due and g.players[ANA].lose_turn
    act(g, A.EndTurn)
    act(g, A.Roll)  # Ben: Dama de Elche
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    assert g.current == BEN and any(isinstance(e, E.LostTurn) for e in g.log)
    assert g.board.prison is None


# ---------------------------------------------------------------- S3 INICIO
@pytest.mark.parametrize(("start", "dice", "end"), [(36, "1-3", 0), (36, "2-3", 1)])
def test_S3_passing_or_landing_on_inicio_pays_200(start: int, dice: str, end: int) -> None:
    g = new_sculptprice(dice)
    place(g, ANA, start)
    act(g, A.Roll)
    assert g.players[ANA].pos == end and cash(g)[ANA] == 1700


# ---------------------------------------------------------------- S4 BOTE
def test_S4_taxes_and_card_payments_feed_the_pot_and_the_bote_takes_it_all() -> None:
    g = new_sculptprice("1-3 1-1 3-4")
    act(g, A.Roll)  # Restoration Tax: 200 to the pot
    assert g.pot == 200 and cash(g)[ANA] == 1300
    act(g, A.EndTurn)
    stack(g, "sculptprice", "vase")
    act(g, A.Roll)  # Ben: a card field, 50 to the pot
    assert g.pot == 250 and cash(g)[BEN] == 1450
    act(g, A.Roll)  # doubles: Ben again, 2 + 7 = 9
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    place(g, ANA, 13)
    script(g, "3-4")
    fund_pot(g, 1)
    act(g, A.Roll)  # 20: the BOTE
    assert g.pot == 0 and cash(g)[ANA] == 1300 + 251


# ---------------------------------------------------------------- S5 buying
def test_S5_a_declined_property_stays_unsold_and_doubles_still_roll_again() -> None:
    g = new_sculptprice("3-3")
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    assert g.owner[6] == -1 and g.auction is None and g.rolls_due


# ---------------------------------------------------------------- S6 sales
def test_S6_a_sale_to_a_player_loses_the_upgrades_without_refund() -> None:
    g = new_sculptprice("1-2")
    give(g, ANA, "Venus de Willendorf", "Dama de Elche")
    act(g, A.Build, 1, "house")
    act(g, A.Build, 3, "house")
    act(g, A.ProposeTrade, BEN, (1,), (), -120)
    act(g, A.Roll)
    act(g, A.DeclineBuy) if g.phase == "buy" else None
    _claim_all(g)
    act(g, A.EndTurn)
    act(g, A.AcceptTrade, 1)
    assert g.owner[1] == BEN and g.level[1] == 0 and g.level[3] == 1
    assert cash(g) == [1500 - 100 + 120, 1500 - 120]


def test_S6_upgrades_sell_back_for_half_evenly_then_the_property_for_half() -> None:
    g = new_sculptprice()
    give(g, ANA, "Venus de Willendorf", "Dama de Elche")
    build(g, {1: 1, 3: 1})
    with pytest.raises(IllegalActionError, match="buildings first"):
        act(g, A.SellProperty, 1)
    act(g, A.SellBuilding, 1)
    act(g, A.SellBuilding, 3)
    act(g, A.SellProperty, 1)
    assert cash(g)[ANA] == 1500 + 25 + 25 + 30


def test_S6_a_mortgaged_property_is_sold_only_to_a_player_who_takes_it_mortgaged() -> None:
    g = new_sculptprice("1-2")
    give(g, ANA, "Venus de Willendorf")
    mortgage(g, 1)
    with pytest.raises(IllegalActionError, match="mortgaged property cannot be sold to the bank"):
        act(g, A.SellProperty, 1)
    act(g, A.ProposeTrade, BEN, (1,), (), -10)
    act(g, A.Roll)
    act(g, A.DeclineBuy)
    act(g, A.EndTurn)
    act(g, A.AcceptTrade, 1)
    assert g.owner[1] == BEN and g.mortgaged[1]


# ---------------------------------------------------------------- S7 mortgage
def test_S7_mortgage_only_to_pay_a_debt_cash_cannot_cover() -> None:
    g = new_sculptprice("1-3")
    give(g, ANA, "Venus de Willendorf", "Dama de Elche")
    with pytest.raises(IllegalActionError, match="only to pay a debt"):
        act(g, A.Mortgage, 1)
    set_cash(g, ANA, 150)
    act(g, A.Roll)  # Restoration Tax 200 > 150
    assert g.phase == "debt"
    act(g, A.Mortgage, 1)
    assert g.phase == "debt"
    act(g, A.Mortgage, 3)
    assert g.phase == "turn" and cash(g)[ANA] == 150 + 30 + 30 - 200


def test_S7_lifting_a_mortgage_costs_its_value_plus_a_flat_100() -> None:
    g = new_sculptprice()
    give(g, ANA, "Venus de Willendorf")
    mortgage(g, 1)
    act(g, A.Repay, 1)
    assert cash(g)[ANA] == 1500 - 130


def test_S7_option_any_time_allows_mortgaging_on_ones_turn() -> None:
    g = new_sculptprice(rules={"mortgage_when": "any_time"})
    give(g, ANA, "Venus de Willendorf")
    act(g, A.Mortgage, 1)
    assert cash(g)[ANA] == 1530


# ---------------------------------------------------------------- S8 bankruptcy
def test_S8_a_bankrupt_players_properties_all_return_to_the_bank() -> None:
    g = new_sculptprice("1-3", players=3)
    give(g, ANA, "Venus de Willendorf")
    mortgage(g, 1)
    set_cash(g, ANA, 50)
    act(g, A.Roll)  # 200 tax to the pot; 50 cash and nothing to raise
    assert not g.players[ANA].active and g.owner[1] == -1 and not g.mortgaged[1]
    assert g.pot == 50 and g.current == BEN


# ---------------------------------------------------------------- S9 asking for rent
def test_S9_the_owner_must_claim_rent_before_the_next_roll() -> None:
    g = new_sculptprice("1-2 2-2")
    give(g, BEN, "Dama de Elche")
    act(g, A.Roll)
    assert cash(g) == [1500, 1500] and g.claims
    g.apply(A.ClaimRent(BEN, 3))
    assert cash(g) == [1496, 1504]
    with pytest.raises(IllegalActionError, match="no rent is waiting"):
        g.apply(A.ClaimRent(BEN, 3))


def test_S9_an_unclaimed_rent_lapses_at_the_next_roll() -> None:
    g = new_sculptprice("2-2 1-2")
    give(g, BEN, "Parque del Retiro")
    place(g, ANA, 1)
    act(g, A.Roll)  # doubles onto Ben's Parque
    act(g, A.Roll)
    assert not g.claims and cash(g) == [1500, 1500]
    assert any(isinstance(e, E.RentLapsed) for e in g.log)


def test_S9_bots_always_claim() -> None:
    g = new_sculptprice("1-2")
    give(g, BEN, "Dama de Elche")
    act(g, A.Roll)
    play_bot_turns(g, [None, BasicBot()])
    assert cash(g) == [1496, 1504]
