"""The Play tab's layout without a browser: text that reads on every fill of the board, the projector's type, where the
clicked field's card opens, and the switches a room's address keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laspoly.ui.board import (
    MORTGAGE_COLOR,
    NAME_COLOR,
    PLAIN_FILL,
    PRICE_COLOR,
    SELECTED_FILL,
    SHORT_LINES,
    SHORT_WIDTH,
    SIDE,
    _contrast_text,
    _heat_color,
    cell_xy,
    contrast_ratio,
    name_size,
    short_label,
)
from laspoly.ui.common import PLAYER_COLORS
from laspoly.ui.fieldcard import CARD_HEIGHT, CARD_WIDTH, card_place
from laspoly.ui.model import with_lesson, with_switches
from laspoly.ui.odds import overlay_colour
from laspoly.ui.presentation import board_width

BOARDS = Path(__file__).resolve().parents[2] / "laspoly" / "data" / "boards"
#: WCAG 2 AA for text.
AA = 4.5


def _every_fill() -> list[str]:
    """Every fill a field takes: plain, selected, each step of the live odds' overlay, each step of the landings' heatmap."""
    steps = [k / 200 for k in range(201)]
    return ([PLAIN_FILL, SELECTED_FILL] + [overlay_colour(p, 1.0) for p in steps]
            + [_heat_color(2 * p - 1) for p in steps])


def test_the_known_contrast_ratios() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#3182bd", PRICE_COLOR) == pytest.approx(3.04, abs=0.01)  # the overlay's old darkest blue: 3:1


def test_names_and_prices_keep_4_5_to_1_on_every_fill_of_the_board_overlays_included() -> None:
    worst = {(text, fill): contrast_ratio(text, fill) for text in (NAME_COLOR, PRICE_COLOR) for fill in _every_fill()}
    low = {pair: round(ratio, 2) for pair, ratio in worst.items() if ratio < AA}
    assert low == {}
    assert contrast_ratio(MORTGAGE_COLOR, "#ffffff") >= AA  # "mortgaged" is drawn on its own white box


def test_an_owners_name_on_its_band_keeps_4_5_to_1_in_every_players_colour() -> None:
    assert {color: round(contrast_ratio(color, _contrast_text(color)), 2) for color in PLAYER_COLORS
            if contrast_ratio(color, _contrast_text(color)) < AA} == {}


def test_a_1920_by_1080_projector_draws_field_names_of_20_px_or_more() -> None:
    width = board_width(1920, 1080)
    assert 900 < width < 980
    assert name_size(width, projector=True) >= 20
    assert name_size(width) < 13  # the Play tab's own board at that width: the names the class could not read


def _names() -> list[str]:
    names = []
    for path in sorted(BOARDS.glob("*.json")):
        for f in json.loads(path.read_text(encoding="utf-8"))["fields"]:
            n = f["name"]
            names += list(n.values()) if isinstance(n, dict) else [n]
    return names


def test_every_fields_short_name_fits_its_projector_cell() -> None:
    for name in _names():
        lines = short_label(name).split("\n")
        assert 1 <= len(lines) <= SHORT_LINES and all(0 < len(line) <= SHORT_WIDTH for line in lines), (name, lines)
    assert short_label("Hoover Dam Road") == "Hoover\nDam Road"  # short enough: every word kept
    assert short_label("Winged Victory of Samothrace") == "Winged\nVictory…"
    assert short_label("Busto de Nefertiti") == "Busto\nNeferti."
    assert short_label("Mediterranean Avenue") == "Mediter.\nAvenue"


def _percent(value: str) -> float:
    return float(value.rstrip("%"))


@pytest.mark.parametrize("field", range(40))
def test_a_fields_card_opens_over_the_board_inside_the_ring_and_never_over_the_field(field: int) -> None:
    place = card_place(field)
    ring = 100 / SIDE
    x, y = cell_xy(field)
    left = _percent(place["left"]) if place["left"] != "auto" else 100 - _percent(place["right"]) - CARD_WIDTH
    top = _percent(place["top"]) if place["top"] != "auto" else None
    assert ring - 0.01 <= left and left + CARD_WIDTH <= 100 - ring + 0.01, place
    cell_left, cell_top = 100 * (x - 0.5) / SIDE, 100 * (SIDE - y - 0.5) / SIDE
    if top is None:  # from the bottom row: above it
        assert _percent(place["bottom"]) >= ring - 0.01 and y < 1
    else:
        assert ring - 0.01 <= top <= 100 - ring - CARD_HEIGHT + 0.01, place
        beside = left >= cell_left + 100 / SIDE - 0.01 or left + CARD_WIDTH <= cell_left + 0.01
        below = top >= cell_top + 100 / SIDE - 0.01
        assert beside or below, (field, place)


def test_a_rooms_address_keeps_the_lesson_and_predict_switches_and_the_rest_as_it_was() -> None:
    room = "?room=r1&seat=abc-_1&me=key"
    assert with_lesson(room, True, True) == room + "&lesson=1&predict=1" and with_lesson("", True, True) == ""
    assert with_switches(room, False, True) == room + "&predict=1"
    assert with_switches(room + "&lesson=1&predict=1", False, False) == room
    assert with_switches(room + "&predict=1", True, True) == room + "&lesson=1&predict=1"
    assert with_switches("", True, True) == ""
