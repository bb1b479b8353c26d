"""The board in words for screen readers: the table of fields and the sentence announcing the last move, in both languages."""

from __future__ import annotations

from helpers import build, give, mortgage

from laspoly.engine import actions as A
from laspoly.server.table import PERSON
from laspoly.ui.a11y import LiveRegion
from laspoly.ui.boardtext import SR_ONLY, announcement, board_table, field_rows
from laspoly.ui.model import GameModel


def _model(dice: str = "", lang: str = "en") -> GameModel:
    m = GameModel()
    assert m.new_game(["Ana", "Ben"], [PERSON, PERSON], seed=4, dice=dice, lang=lang), m.message
    return m


def test_each_field_has_a_row_with_its_owner_buildings_mortgage_and_tokens() -> None:
    g = _model().game
    give(g, 1, "Fremont Street", "Glitter Gulch", "Sahara Avenue")
    build(g, {"Fremont Street": 2, "Glitter Gulch": 2})
    rows = field_rows(g, "en")
    assert len(rows) == len(g.fields)
    assert rows[0].name == "Start" and rows[0].tokens == "Ana, Ben" and rows[0].owner == ""
    fremont = rows[g.board.find("Fremont Street")]
    assert (fremont.owner, fremont.buildings, fremont.mortgaged, fremont.tokens) == ("Ben", "2 houses", "", "")
    mortgage(g, "Sahara Avenue")
    assert field_rows(g, "en")[g.board.find("Sahara Avenue")].mortgaged == "yes"
    assert field_rows(g, "es")[g.board.find("Sahara Avenue")].mortgaged == "sí"


def test_the_table_is_visually_hidden_with_a_caption_and_headers_in_the_page_language() -> None:
    g = _model().game
    english, spanish = board_table(g, "en"), board_table(g, "es")
    assert SR_ONLY in english and "<caption>The board, field by field</caption>" in english
    assert "<th scope='col'>Owner</th>" in english and "<th scope='row'>Start</th>" in english
    assert "<caption>El tablero, casilla por casilla</caption>" in spanish and "<th scope='col'>Propietario</th>" in spanish


def test_a_roll_onto_someone_elses_field_is_announced_in_one_sentence_then_the_rent() -> None:
    m = _model(dice="1-2")  # Ana walks 3 fields
    g = m.game
    landing = g.fields[3].label("en")
    give(g, 1, landing)
    assert m.act(A.Roll(0))
    words = announcement(g, "en")
    assert words.startswith(f"Ana rolled 1 and 2 and landed on {landing}, owned by Ben.")
    assert f"cayó en {g.fields[3].label('es')}, de Ben." in announcement(g, "es")
    assert announcement(g, "es").startswith("Ana sacó 1 y 2 y cayó en")


def test_a_roll_onto_a_free_field_is_announced_and_a_purchase_follows_it() -> None:
    m = _model(dice="1-2")
    g = m.game
    assert m.act(A.Roll(0))
    landing = g.fields[3].label("en")
    assert announcement(g, "en") == f"Ana rolled 1 and 2 and landed on {landing}."
    assert m.act(A.Buy(0))
    assert announcement(g, "en").startswith(f"Ana rolled 1 and 2 and landed on {landing}. Ana bought {landing} for ")


def test_before_any_roll_the_news_is_the_last_event_and_it_sits_in_a_polite_status_region() -> None:
    g = _model().game
    assert announcement(g, "en") == g.describe(g.log[-1], "en")
    template = LiveRegion._template
    assert 'role="status"' in template and 'aria-live="polite"' in template and SR_ONLY in template
