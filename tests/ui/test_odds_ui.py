"""The live odds in words beside decisions, and the board overlay's values, tooltips and colours, in both languages."""

from __future__ import annotations

import pytest
from helpers import edit, jail

from laspoly.analysis.odds import live_odds
from laspoly.engine import actions as A
from laspoly.ui.model import GameModel
from laspoly.ui.odds import overlay, overlay_colour
from laspoly.ui.playview import build_line, buy_lines, casino_line, more_turns, prison_lines


def _model(dice: str = "3-4", lang: str = "en") -> GameModel:
    m = GameModel(lang=lang)
    assert m.new_game(["Ana", "Ben", "Cy"], ["person", "person", "person"], seed=4, dice=dice, lang=lang)
    return m


def test_buy_shows_its_payback_and_the_chance_of_an_early_landing_in_both_languages() -> None:
    m = _model()
    assert buy_lines(m) == ()  # nothing to buy before the roll
    m.act(A.Roll(0))
    long_run, soon = buy_lines(m)
    assert long_run.startswith("Long run") and "opponent turns" in long_run and "LPD" in long_run
    assert soon.startswith("Short run (before your next turn)")
    m.lang = "es"
    assert buy_lines(m)[0].startswith("A la larga")


def test_a_prisoner_sees_91_of_216_against_the_fine_L14() -> None:
    m = _model()
    jail(m.game, 0)
    assert prison_lines(m)[0] == "This turn: 91/216 = 42.1% to roll doubles within your 3 tries; the fine of 50 LPD frees you at once."
    m.lang = "es"
    assert prison_lines(m)[0].startswith("Este turno: 91/216 = 42.1% de sacar dobles en tus 3 intentos")


def test_a_prisoner_with_one_try_left_reads_your_last_try_and_whole_or_tenth_turns() -> None:
    m = _model()
    jail(m.game, 0)
    m.game.prison_tries = m.game.rules.jail_tries_per_turn - 1
    now, rolling_on = prison_lines(m)
    assert now.startswith("This turn: 1/6 = 16.7% to roll doubles within your last try") and "0." not in rolling_on
    m.lang = "es"
    assert prison_lines(m)[0].startswith("Este turno: 1/6 = 16.7% de sacar dobles en tu último intento")


@pytest.mark.parametrize(("turns", "en", "es"), [
    (0.01, "less than one more turn", "menos de un turno más"),
    (0.94, "less than one more turn", "menos de un turno más"),
    (0.96, "1 more turn", "1 turno más"),
    (1.04, "1 more turn", "1 turno más"),
    (1.46, "1.5 more turns", "1.5 turnos más"),
    (2.0, "2 more turns", "2 turnos más"),
])
def test_the_turns_to_expect_in_prison_are_said_to_a_tenth_never_0_01_turns(turns: float, en: str, es: str) -> None:
    assert (more_turns(turns, "en"), more_turns(turns, "es")) == (en, es)


def test_the_casino_line_follows_the_pot_L8() -> None:
    m = _model()
    assert casino_line(m) == ""  # an empty pot pays nothing
    edit(m.game, lambda p: p.update(pot=400))
    assert "from the pot of 400 LPD" in casino_line(m) and "%" not in casino_line(m)


def test_build_shows_the_rent_a_house_adds_against_its_price() -> None:
    m = _model()
    group = m.game.group_of[1]
    edit(m.game, lambda p: p["properties"].extend({"field": j, "owner": 0} for j in group))
    assert build_line(m, 1).startswith("One more building: about +") and build_line(m, 2) == ""


def test_the_overlay_tooltips_read_as_fractions_and_name_the_expected_rent_of_owned_fields() -> None:
    m = _model()
    edit(m.game, lambda p: p["properties"].append({"field": 7, "owner": 1}))
    probs, tips = overlay(m.game, "roll", "en")
    assert tips[7].startswith("1/6 = 16.7% · expected rent") and tips[8] == "5/36 = 13.9%"
    assert probs == [float(x) for x in live_odds(m.game).roll[: len(probs)]]
    _, turn_tips = overlay(m.game, "turn", "es")
    assert all("%" in t for t in turn_tips)


@pytest.mark.parametrize("mode", ["roll", "turn", "long_run"])
def test_overlay_colours_darken_with_the_probability(mode: str) -> None:
    probs, _ = overlay(_model().game, mode, "en")
    top = max(probs)
    assert overlay_colour(0, top) == "#ffffff" and overlay_colour(top, top) == "#6baed6"
    assert overlay_colour(top / 4, top) > overlay_colour(top / 2, top)  # lighter is a larger hex in every channel


def test_the_lesson_switch_colours_the_board_and_heads_each_tooltip_with_its_chance() -> None:
    from laspoly.ui.app import Dashboard

    m = _model()
    d = Dashboard(m)
    assert d.board.cells.data["fill"][7] == "#fdfdf6" and not d.controls.stakes.visible  # off: the plain board
    d.odds.switch.value = True
    assert m.odds and d.board.cells.data["tip"][7].startswith("1/6 = 16.7%")
    fills, _ = overlay(m.game, "roll", "en")
    assert d.board.cells.data["fill"][7] == overlay_colour(fills[7], max(fills))
    m.act(A.Roll(0))
    assert d.controls.stakes.visible and "comes back in about" in d.controls.stakes.object
    d.odds.mode.value = "turn"
    assert m.odds_mode == "turn" and "turn is more likely to end" in d.odds.legend.object
    m.lang = "es"
    assert "turno de Ana" in d.odds.legend.object and "se recupera" in d.controls.stakes.object
    d.odds.switch.value = False
    assert d.board.cells.data["fill"][7] == "#fdfdf6" and not d.controls.stakes.visible


def test_autoplay_defaults_to_one_turn_a_second_and_run_to_end_says_how_many_turns_it_played() -> None:
    m = GameModel()
    assert m.speed == 1.0
    assert m.new_game(["Ana", "Ben", "Cy"], ["basic", "dealer", "companion"], seed=5, max_rounds=300)
    m.advance(to_end=True)
    assert m.game.is_over and m.message == f"Run to end played {m.game.turns} turns."


def test_a_page_opened_in_lesson_mode_shows_the_odds_at_once() -> None:
    from laspoly.ui.app import Dashboard

    m = _model()
    m.odds = True
    d = Dashboard(m)
    assert d.board.cells.data["tip"][7].startswith("1/6 = 16.7%") and d.board.cells.data["fill"][7] != "#fdfdf6"


def test_turning_the_odds_on_in_a_shown_page_keeps_the_chosen_mode() -> None:
    """The modes are made the first time the switch is on; made in a page already shown, they keep the model's mode."""
    from bokeh.document import Document

    from laspoly.ui.odds import OddsView

    m = GameModel()
    view = OddsView(model=m)
    view.panel.get_root(Document())  # the page is shown before the switch is first turned on
    m.odds_mode = "turn"
    view.switch.value = True
    assert m.odds and m.odds_mode == "turn" and view.mode.value == "turn"
