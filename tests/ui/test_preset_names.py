"""People see a rulebook's name, never its preset id: lists, tables and the New game choice name it in their language."""

from __future__ import annotations

import pytest

from laspoly.rules.presets import preset_names, preset_title
from laspoly.ui.model import GameModel
from laspoly.ui.views import SetupView

NAMES = {"laspoly": ("Las Poly", "Las Poly"), "sculptprice": ("Sculptprice", "Sculptprice"),
         "classic": ("Classic (web edition)", "Clásico (edición web)"), "standard": ("Standard", "Estándar")}


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_has_a_name_for_people_in_both_languages(preset: str) -> None:
    assert (preset_title(preset, "en"), preset_title(preset, "es")) == NAMES[preset]


def test_an_id_that_is_not_shipped_is_shown_as_it_is() -> None:
    assert preset_title("my-house-rules", "es") == "my-house-rules"


def test_the_new_game_choice_lists_rulebooks_by_name_and_follows_the_language() -> None:
    m = GameModel()
    view = SetupView(model=m)
    assert view.preset.options == {NAMES[p][0]: p for p in preset_names()} and view.preset.value == "laspoly"
    m.lang = "es"
    assert "Clásico (edición web)" in view.preset.options and view.preset.options["Estándar"] == "standard"
    assert view.preset.value == "laspoly"
