"""The stakes in plain words, pinned in both languages: one unit (the opponent turn), the long run and the short run
each on a line of its own that says which it is, money as money, plural forms, and never "0 turns"."""

from __future__ import annotations

import pytest
from helpers import edit, jail

from laspoly.engine import actions as A
from laspoly.ui.model import GameModel
from laspoly.ui.playview import build_line, buy_lines, casino_line, opponent_turns, play_view, prison_lines


def _model(lang: str, preset: str = "laspoly") -> GameModel:
    m = GameModel(lang=lang)
    assert m.new_game(["Ana", "Ben", "Cy"], ["person"] * 3, preset=preset, seed=4, dice="3-4", lang=lang)
    return m


BUY = {
    "en": ("Long run (an average over many turns): about 0.4 LPD rent per opponent turn, so its price of 120 LPD comes back "
           "in about 287 opponent turns.",
           "Short run (before your next turn): 31.2% that an opponent lands here."),
    "es": ("A la larga (la media de muchos turnos): unos 0.4 LPD de alquiler por turno de rival, así que su precio de 120 LPD "
           "se recupera en cerca de 287 turnos de rival.",
           "A corto plazo (antes de tu próximo turno): 31.2% de que un rival caiga aquí."),
}
PRISON = {
    "en": ("This turn: 91/216 = 42.1% to roll doubles within your 3 tries; the fine of 50 LPD frees you at once.",
           "Rolling on (an average over many games): less than one more turn in prison."),
    "es": ("Este turno: 91/216 = 42.1% de sacar dobles en tus 3 intentos; la multa de 50 LPD te libera ya.",
           "Si sigues tirando (la media de muchas partidas): menos de un turno más en prisión."),
}
PRISON_LAST_TRY = {
    "en": ("This turn: 1/6 = 16.7% to roll doubles within your last try; the fine of 50 LPD frees you at once.",
           "Rolling on (an average over many games): 1.3 more turns in prison."),
    "es": ("Este turno: 1/6 = 16.7% de sacar dobles en tu último intento; la multa de 50 LPD te libera ya.",
           "Si sigues tirando (la media de muchas partidas): 1.3 turnos más en prisión."),
}
CASINO = {
    "en": "Casino: a landing there takes about 17 LPD from the pot of 400 LPD, on average over the dice.",
    "es": "Casino: caer ahí se lleva unos 17 LPD del bote de 400 LPD, de media según los dados.",
}
BOTE = {"en": "Pot: a landing there takes the whole pot, 400€.", "es": "BOTE: caer ahí se lleva todo el bote, 400€."}
BUILD = {
    "en": "One more building: about +0.3 LPD rent per opponent turn for 50 LPD; it pays back in about 163 opponent turns.",
    "es": "Un edificio más: unos +0.3 LPD de alquiler por turno de rival por 50 LPD; se recupera en cerca de 163 turnos de rival.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_buy_says_its_long_run_payback_and_its_short_run_chance_on_two_lines_per_opponent_turn(lang: str) -> None:
    m = _model(lang)
    m.odds = True
    assert buy_lines(m) == ()  # nothing to buy before the roll
    m.act(A.Roll(0))
    assert buy_lines(m) == BUY[lang]
    assert play_view(m).turn_stakes == BUY[lang]  # the Play tab shows both lines, each a line of its own


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_prisoner_reads_this_turns_chance_and_the_long_run_turns_in_prison_on_two_lines_L14(lang: str) -> None:
    m = _model(lang)
    jail(m.game, 0)
    assert prison_lines(m) == PRISON[lang]
    m.game.prison_tries = m.game.rules.jail_tries_per_turn - 1
    assert prison_lines(m) == PRISON_LAST_TRY[lang]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_casino_says_money_from_the_pot_not_a_percent_that_reads_as_a_chance_L8_S4(lang: str) -> None:
    m = _model(lang)
    edit(m.game, lambda p: p.update(pot=400))
    assert casino_line(m) == CASINO[lang] and "%" not in casino_line(m)
    bote = _model(lang, "sculptprice")
    edit(bote.game, lambda p: p.update(pot=400))
    assert casino_line(bote) == BOTE[lang]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_build_says_the_rent_a_house_adds_per_opponent_turn_and_its_payback_L11(lang: str) -> None:
    m = _model(lang)
    group = m.game.group_of[1]
    edit(m.game, lambda p: p["properties"].extend({"field": j, "owner": 0} for j in group))
    assert build_line(m, 1) == BUILD[lang]


@pytest.mark.parametrize(("turns", "en", "es"), [
    (0.01, "less than one opponent turn", "menos de un turno de rival"),
    (0.49, "less than one opponent turn", "menos de un turno de rival"),
    (0.5, "less than one opponent turn", "menos de un turno de rival"),  # rounds to 0: never "0 turns"
    (0.6, "about 1 opponent turn", "cerca de 1 turno de rival"),
    (1.4, "about 1 opponent turn", "cerca de 1 turno de rival"),
    (2.0, "about 2 opponent turns", "cerca de 2 turnos de rival"),
    (122.3, "about 122 opponent turns", "cerca de 122 turnos de rival"),
])
def test_a_payback_is_said_in_whole_opponent_turns_with_plural_forms_never_0_01_turns(turns: float, en: str, es: str) -> None:
    assert (opponent_turns(turns, "en"), opponent_turns(turns, "es")) == (en, es)


def test_every_stake_and_tooltip_speaks_of_opponent_turns_never_of_opponent_rolls() -> None:
    from laspoly.engine.words import catalogue

    for lang, roll in (("en", "opponent roll"), ("es", "tirada de rival")):
        texts = [form for (key, _), msg in catalogue(lang).messages.items() if key.startswith("odds.") for form in msg.forms]
        assert texts and not [t for t in texts if roll in t], lang


@pytest.mark.parametrize(("lang", "tip"), [("en", "1/6 = 16.7% · expected rent 0.4 LPD per opponent turn"),
                                           ("es", "1/6 = 16.7% · alquiler esperado 0.4 LPD por turno de rival")])
def test_the_boards_tooltip_gives_an_owned_fields_rent_per_opponent_turn_too(lang: str, tip: str) -> None:
    from laspoly.ui.odds import overlay

    m = _model(lang)
    edit(m.game, lambda p: p["properties"].append({"field": 7, "owner": 1}))
    assert overlay(m.game, "roll", lang)[1][7] == tip
