"""Live odds and the stakes of decisions, held to a walk of the engine's own chance outcomes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from helpers import edit

from laspoly.analysis.figures import landing_model
from laspoly.analysis.odds import (
    as_fraction,
    build_stakes,
    buy_stakes,
    casino_stakes,
    live_odds,
    prison_stakes,
    show_probability,
)
from laspoly.engine import actions as A
from laspoly.engine.chance import Chooser, walk_outcomes
from laspoly.engine.game import BUYING, TRAVEL, TURN, Game
from laspoly.engine.position_format import position_of

RICH = 10**6
RANDOM_CARDS = {"card_draw": "random"}  # the odds' card model: a player does not know the deck's order


def _table(field: int = 0, *, prison: tuple[int, int] | None = None, doubles: int = 0) -> dict[str, Any]:
    """A two-player Las Poly position with Ana to roll from ``field`` (or in prison), rich enough never to pay a debt."""
    g = Game(["Ana", "Ben"], seed=4, rules=RANDOM_CARDS)
    pos = position_of(g)
    pos["players"][0].update(cash=RICH, field=field if prison is None else g.board.prison, in_prison=prison is not None,
                             prison_turns=prison[0] if prison else 0)
    pos["players"][1]["cash"] = RICH
    pos["turn"].update(player=0, first=0, doubles=doubles, prison_tries=prison[1] if prison else 0)
    return pos


def _walk(position: dict[str, Any], whole_turn: bool) -> np.ndarray:
    """P(where Ana's roll, or her turn, ends) by walking every chance outcome through the engine itself."""
    n = Game.from_position(position).board.size
    out = np.zeros(n + 1)

    def play(chooser: Chooser) -> int:
        g = Game.from_position(position, record_events=False, keep_history=False)
        g.chance.chooser = chooser
        g.apply(A.Roll(0))
        while whole_turn and g.current == 0 and not g.is_over:
            if g.phase == BUYING:
                g.apply(A.DeclineBuy(0))
            elif g.phase == TRAVEL:
                g.apply(A.StayPut(0))
            elif g.phase == TURN and g.rolls_due:
                g.apply(A.Roll(0))
            else:
                break
        me = g.players[0]
        return n if me.in_prison else me.pos

    for p, _, where in walk_outcomes(play, ordered_dice=False):
        out[where] += p
    return out


PINNED = {
    "from Start": _table(0),
    "on a card field after one doubles": _table(2, doubles=1),
    "in prison, second turn, one try failed": _table(prison=(1, 1)),
}


@pytest.mark.parametrize("name", list(PINNED))
def test_this_rolls_odds_equal_a_walk_of_the_engines_chance_outcomes(name: str) -> None:
    position = PINNED[name]
    odds = live_odds(Game.from_position(position), 0)
    assert np.allclose(odds.roll, _walk(position, whole_turn=False), atol=1e-12, rtol=0)


@pytest.mark.parametrize("name", ["on a card field after one doubles", "in prison, second turn, one try failed"])
def test_this_turns_odds_equal_a_walk_of_the_whole_turn(name: str) -> None:
    position = PINNED[name]
    odds = live_odds(Game.from_position(position), 0)
    assert np.allclose(odds.turn, _walk(position, whole_turn=True), atol=1e-12, rtol=0)


def test_from_start_a_plain_field_is_the_two_dice_share() -> None:
    odds = live_odds(Game.from_position(PINNED["from Start"]), 0)
    assert show_probability(float(odds.roll[7])) == "1/6 = 16.7%"  # 7 is no card field: six ways of 36
    assert show_probability(float(odds.roll[8])) == "5/36 = 13.9%"
    assert as_fraction(float(odds.roll[2])) == Fraction(1, 76)  # 1-1 onto an Action field whose card keeps you there
    assert odds.roll.sum() == pytest.approx(1) and odds.turn.sum() == pytest.approx(1) and odds.long_run.sum() == pytest.approx(1)


def test_a_prisoner_with_three_tries_gets_out_by_rolling_91_of_216_L14() -> None:
    g = Game.from_position(_table(prison=(0, 0)))
    stakes = prison_stakes(g, 0)
    assert as_fraction(stakes.p_out_by_rolling) == Fraction(91, 216) and stakes.tries_left == 3 and stakes.fine == 50
    one_left = prison_stakes(Game.from_position(_table(prison=(0, 2))), 0)
    assert as_fraction(one_left.p_out_by_rolling) == Fraction(1, 6) and one_left.tries_left == 1
    # turns ending in prison while rolling: after the first (125/216 stay) and the second; the third always leaves
    stay = 125 / 216
    assert stakes.expected_turns_in_prison == pytest.approx(stay + stay**2, abs=0.02)


def test_the_last_prison_turn_still_counts_only_doubles_as_rolling_out() -> None:
    stakes = prison_stakes(Game.from_position(_table(prison=(2, 0))), 0)
    assert stakes.last_turn and as_fraction(stakes.p_out_by_rolling) == Fraction(91, 216)
    assert stakes.expected_turns_in_prison < 0.02  # the fine and a move end it: only a way straight back counts


def test_expected_rent_is_per_opponent_turn_the_long_run_landing_share_times_the_rent_due_times_rolls_per_turn() -> None:
    g = Game.from_position(PINNED["from Start"])
    edit(g, lambda p: p["properties"].append({"field": 7, "owner": 1}))
    odds = live_odds(g, 0)
    rolls_per_turn = landing_model(g.preset.id).rolls_per_turn
    assert odds.expected_rent[7] == pytest.approx(g.rent(7) * float(odds.long_run[7]) * rolls_per_turn, rel=1e-9)
    assert odds.expected_rent[8] is None


def test_buy_stakes_pay_back_in_opponent_turns_and_say_how_likely_a_landing_is_before_the_next_turn() -> None:
    g = Game.from_position(PINNED["from Start"])
    stakes = buy_stakes(g, 7, buyer=1)  # Ben thinks of buying field 7; Ana, on Start, rolls next
    odds = live_odds(g, 0)
    assert stakes.price == g.fields[7].price and stakes.payback_opponent_turns == pytest.approx(stakes.price / stakes.rent_per_opponent_turn)
    # Ana lands on 7 this turn at least as often as her first roll ends there, and at most as often as a turn visits it
    assert float(odds.roll[7]) <= stakes.p_landed_before_next_turn < float(odds.roll[7]) + 0.05
    assert g.owner[7] == -1  # asking changed nothing


def test_casino_stakes_are_the_expected_share_of_the_pot_L8() -> None:
    pos = PINNED["from Start"] | {"pot": 400}
    g = Game.from_position(pos)
    casino = next(f.index for f in g.fields if f.kind == "pot")
    stakes = casino_stakes(g, casino)
    assert 0 < stakes.expected_share < 0.5 and stakes.expected_payout == pytest.approx(400 * stakes.expected_share)


def test_build_stakes_weigh_the_rent_a_house_adds_against_its_price_L11() -> None:
    g = Game.from_position(PINNED["from Start"])
    group = g.group_of[1]
    edit(g, lambda p: p["properties"].extend({"field": j, "owner": 0} for j in group))
    stakes = build_stakes(g, 1)
    assert stakes.cost == g.house_price(1) and stakes.rent_gain_per_opponent_turn > 0
    assert stakes.payback_opponent_turns == pytest.approx(stakes.cost / stakes.rent_gain_per_opponent_turn)
    model = landing_model(g.preset.id)  # per opponent turn: the rent per roll times the rolls a turn takes
    per_roll = (g.fields[1].rents[g.level[1] + 1] - g.rent(1)) * float(model.prob[1])
    assert stakes.rent_gain_per_opponent_turn == pytest.approx(per_roll * model.rolls_per_turn, rel=1e-9)
