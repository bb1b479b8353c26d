"""``tools/screenshots.py --states``: the option parses, and each state's scene is found quickly and holds what it shows.

No browser: the scenes are the seeded games the tool loads into the page.
"""

from __future__ import annotations

import argparse
import time

import pytest

from tests.helpers import load_tool


def test_states_option_parses_known_states_in_order_without_repeats() -> None:
    shots = load_tool("screenshots")
    assert shots.parse_states("lesson,predict,claim,offer") == ["lesson", "predict", "claim", "offer"]
    assert shots.parse_states(" offer , lesson,offer") == ["offer", "lesson"]


@pytest.mark.parametrize("bad", ["", ",", "lesson,auction", "LESSON"])
def test_states_option_refuses_an_unknown_or_empty_list_with_a_clear_error(bad: str) -> None:
    shots = load_tool("screenshots")
    with pytest.raises(argparse.ArgumentTypeError, match="comma-separated list of lesson, predict, claim, offer, buy, winner"):
        shots.parse_states(bad)


def test_states_option_reaches_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    shots = load_tool("screenshots")
    with pytest.raises(SystemExit):
        shots.main(["--states", "lesson,bogus"])
    assert "comma-separated list" in capsys.readouterr().err


def test_claim_scene_is_a_bot_owing_the_person_a_rent_to_claim_C6() -> None:
    shots = load_tool("screenshots")
    start = time.monotonic()
    game = shots.find_claim()
    assert time.monotonic() - start < 10
    assert game.actor != 0
    assert any(owner == 0 and payer != 0 for (payer, owner, _, _) in game.claims)
    assert any(a.__class__.__name__ == "ClaimRent" and a.player == 0 for a in game.legal_actions(0))


def test_offer_scene_is_the_persons_turn_with_a_bots_trade_offer_to_answer_L16() -> None:
    shots = load_tool("screenshots")
    start = time.monotonic()
    game = shots.find_offer()
    assert time.monotonic() - start < 10
    assert game.actor == 0 and game.rolls_due
    (offer,) = game.offers.values()
    assert offer.receiver == 0 and offer.proposer != 0
    assert any(a.__class__.__name__ == "AcceptTrade" and a.player == 0 for a in game.legal_actions(0))


def test_buy_scene_is_the_person_deciding_on_a_street_nobody_owns() -> None:
    shots = load_tool("screenshots")
    start = time.monotonic()
    game = shots.find_buy()
    assert time.monotonic() - start < 10
    assert game.actor == 0 and game.owner[game.pending_field] < 0
    assert {a.__class__.__name__ for a in game.legal_actions(0)} >= {"Buy", "DeclineBuy"}


def test_winner_scene_is_a_finished_game() -> None:
    shots = load_tool("screenshots")
    start = time.monotonic()
    game = shots.find_winner()
    assert time.monotonic() - start < 30
    assert game.is_over and game.winner is not None
    assert shots.STATE_PHONES == shots.PHONES  # every state is pictured on the three phones


def test_switch_states_start_at_the_persons_roll_on_a_rich_board() -> None:
    shots = load_tool("screenshots")
    start = time.monotonic()
    game = shots.state_position("lesson")
    assert time.monotonic() - start < 30
    assert game.actor == 0 and game.rolls_due and not game.claims and not game.offers
    assert shots.STATE_SWITCHES["lesson"] == "?lesson=1" and shots.STATE_SWITCHES["predict"] == "?predict=1"
