"""The Demonstrations tab: a shipped demonstration in one click, and a position editor that refuses the impossible."""

from __future__ import annotations

import json

import pytest

from laspoly.engine import actions as A
from laspoly.position_files import demonstration_ids
from laspoly.ui.app import Dashboard
from laspoly.ui.demonstrations import BANK, DemonstrationsView
from laspoly.ui.model import GameModel


@pytest.mark.parametrize("demo_id", demonstration_ids())
def test_every_shipped_demonstration_starts_from_the_menu_and_plays_on(demo_id: str) -> None:
    m = GameModel()
    view = DemonstrationsView(model=m)
    view.menu.value = demo_id
    assert view.about.object  # its explanation is shown before it starts
    view.start.clicks += 1
    assert m.game.setup.get("position", {}).get("about", {}).get("id") == demo_id, m.message
    assert m.game.legal_actions()  # someone can play on


def test_casino_6_6_from_the_menu_pays_half_the_pot_on_the_first_roll_L8() -> None:
    m = GameModel()
    view = DemonstrationsView(model=m)
    view.menu.value = "casino-6-6"
    view.start.clicks += 1
    before = m.game.players[m.game.actor].cash
    assert m.act(A.Roll(m.game.actor)), m.message
    assert m.game.players[0].cash - before == 87 and m.game.pot == 175 - 87


def test_the_menu_and_the_editor_speak_spanish_when_the_page_does() -> None:
    m = GameModel()
    view = DemonstrationsView(model=m)
    m.lang = "es"
    assert view.start.label == "Empezar esta demostración" and "El bote" in " ".join(view.menu.options)
    assert view.owner.options["la banca"] == BANK


def test_the_editor_sets_cash_owner_buildings_pot_and_dice_and_the_game_plays_on_from_them() -> None:
    m = GameModel()
    assert m.new_game(["Ana", "Ben"], ["person", "person"], seed=3)
    view = DemonstrationsView(model=m)
    view.player.value = 1
    view.cash.value = 900
    view.field.value = 10
    view.prop.value = 1
    view.owner.value = 0
    view.houses.value = 1  # one house even without the whole group: as if built, then the rest traded away
    view.pot.value = 120
    view.dice.value = "1-2 3-3"
    assert view.play_draft(), view.note.object
    g = m.game
    assert g.players[1].cash == 900 and g.players[1].pos == 10 and g.owner[1] == 0 and g.level[1] == 1 and g.pot == 120
    assert g.chance.script_left == 2


def test_an_impossible_position_is_refused_with_its_reason_and_the_game_stays() -> None:
    m = GameModel()
    assert m.new_game(["Ana", "Ben"], ["person", "person"], seed=3)
    before = m.game
    view = DemonstrationsView(model=m)
    view.prop.value = 1
    view.owner.value = 0
    view.houses.value = 4  # four houses on one street of a group she does not own (L11)
    assert not view.play_draft()
    assert m.game is before and "group (Neon)" in view.note.object and "L11" in view.note.object


def test_bad_next_dice_are_refused_in_the_pages_language() -> None:
    m = GameModel(lang="es")
    view = DemonstrationsView(model=m)
    view.dice.value = "7-1"
    assert not view.play_draft() and "Los próximos dados" in view.note.object


def test_the_position_download_is_the_game_on_the_table() -> None:
    m = GameModel()
    view = DemonstrationsView(model=m)
    data = json.loads(view._position_file().read())
    assert data["format"] == "laspoly-position" and [p["name"] for p in data["players"]] == [p.name for p in m.game.players]


def test_the_dashboard_has_a_tab_for_teachers_with_the_demonstrations() -> None:
    d = Dashboard(GameModel())
    assert "teacher" in d._page_names and isinstance(d.teacher, DemonstrationsView)
