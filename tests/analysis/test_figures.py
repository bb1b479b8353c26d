"""Derived figures: rents, payback, the pot, game lengths and win chances."""

from __future__ import annotations

import pytest

from laspoly import Game
from laspoly.analysis import figures as F
from laspoly.analysis.markov import markov
from laspoly.analysis.simulate import simulate
from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns
from laspoly.record import save_game


def test_street_rent_per_opponent_roll_is_rent_times_landing_probability() -> None:
    table = F.rent_table("laspoly")
    p = markov("laspoly").squares[1]
    fremont = table[table["field"] == "Fremont Street"].set_index("level")
    assert fremont.loc["group", "expected_rent_per_roll"] == pytest.approx(8 * p)
    assert fremont.loc["3 houses", "expected_rent_per_roll"] == pytest.approx(180 * p)
    assert fremont.loc["factory", "expected_rent_per_roll"] == 0


def test_attraction_rent_weights_each_landing_by_its_dice_total() -> None:
    table = F.rent_table("laspoly")
    ferris = table[table["field"] == "Ferris Wheel"].set_index("level")
    p = ferris.loc["one owned", "landing_per_roll"]
    mean_total = ferris.loc["one owned", "expected_rent_per_roll"] / 4 / p
    assert 2 < mean_total < 12 and mean_total != pytest.approx(7, abs=0.01)
    assert ferris.loc["all owned", "expected_rent_per_roll"] == pytest.approx(2.5 * ferris.loc["one owned", "expected_rent_per_roll"])


def test_standard_utility_card_pays_ten_times_a_fresh_roll_and_railroad_cards_double() -> None:
    table = F.rent_table("standard").set_index(["field", "level"])
    reading = table.loc[("Reading Railroad", "1 owned")]
    assert reading["expected_rent_per_roll"] > 25 * reading["landing_per_roll"]
    groups = F.group_rent_table("standard")
    assert set(groups["group"]) >= {"Brown", "Dark Blue"}


def test_payback_in_rounds_follows_the_formula() -> None:
    m = F.landing_model("laspoly")
    landings = float(m.prob[1]) * m.rolls_per_turn * 3
    table = F.payback_table("laspoly").set_index("field")
    assert table.loc["Fremont Street", "3_houses"] == pytest.approx(3 * 50 / ((180 - 8) * landings))
    assert table.loc["Fremont Street", "factory"] == pytest.approx(100 / (11 - 8 * landings))
    assert "factory" not in F.payback_table("standard").columns


def test_casino_pays_a_quarter_or_half_on_doubles_and_the_bote_everything() -> None:
    casino = F.pot_payout_per_landing("laspoly")["fields"][0]
    share = 0.25 * casino["p_doubles_given_landing"] + 0.5 * casino["p_double_six_given_landing"]
    assert casino["expected_share_per_landing"] == pytest.approx(share) and 0.01 < share < 0.25
    assert F.pot_payout_per_landing("sculptprice")["fields"][0]["expected_share_per_landing"] == 1.0
    assert F.pot_payout_per_landing("standard")["fields"] == []


def test_the_pot_grows_over_the_first_rounds() -> None:
    frame = F.pot_over_time("laspoly", games=20, rounds=15, seed=1)
    assert list(frame.columns) == ["round", "games", "mean_pot", "ci_low", "ci_high"]
    assert frame["mean_pot"].iloc[0] == 0 and frame["mean_pot"].iloc[-1] > 50
    assert (frame["ci_low"] <= frame["mean_pot"]).all() and (frame["mean_pot"] <= frame["ci_high"]).all()


def test_game_lengths_are_a_distribution_over_all_games() -> None:
    lengths = simulate(games=30, seed=4).game_lengths()
    assert lengths["games"].sum() == 30 and lengths["share"].sum() == pytest.approx(1)


def test_win_probability_from_a_saved_mid_game_position(tmp_path) -> None:  # type: ignore[no-untyped-def]
    g = Game(["Ana", "Ben", "Cy"], seed=1)
    play_bot_turns(g, [BasicBot()] * 3, max_actions=300)
    path = save_game(g, tmp_path / "mid.json")
    frame = F.win_probability(path, games=40, seed=2)
    assert frame["wins"].sum() == 40 and frame["win_probability"].sum() == pytest.approx(1)
    leader = frame["net_worth"].idxmax()
    assert frame.loc[leader, "win_probability"] == frame["win_probability"].max()
    assert frame.equals(F.win_probability(path, games=40, seed=2))
    assert (frame["ci_low"] <= frame["win_probability"]).all()


def test_branches_differ_in_future_dice_but_not_in_the_past() -> None:
    g = Game(3, seed=1)
    play_bot_turns(g, [BasicBot()] * 3, max_actions=100)
    a, b = F.branch(g, 1), F.branch(g, 2)
    assert a.snapshot()["owner"] == g.snapshot()["owner"] == b.snapshot()["owner"]
    assert [a.chance.roll() for _ in range(5)] != [b.chance.roll() for _ in range(5)]
    assert g.history and not a.history
