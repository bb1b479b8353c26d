"""The board's columns, without a browser: owners, buildings, mortgages, this turn's dice and card, the last move."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from bokeh.document import Document
from bokeh.models import CustomJS, Glyph, GlyphRenderer, Text
from helpers import ANA, BEN, edit, fund_pot, give, mortgage, place

from laspoly.analysis.log import Move, last_move
from laspoly.analysis.log import card_this_turn as this_turn_card
from laspoly.bots.basic import BasicBot
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.rules.presets import preset_names
from laspoly.server.table import PERSON
from laspoly.ui.board import (
    CARD_LINES,
    CARD_WIDTH,
    NAME_LINES,
    NAME_WIDTH,
    NARROW_BELOW,
    BoardFigure,
    board_data,
    buildings_data,
    cell_xy,
    centre_data,
    dice_pips,
    mortgage_data,
    move_marks,
    picked_text,
    token_data,
    word,
    wrap,
)
from laspoly.ui.common import PLAYER_COLORS, PLAYER_MARKERS
from laspoly.ui.model import GameModel

#: Classic games begin with a roll for who starts: these dice make it Ana (6-5 against Ben's 1-2).
ANA_STARTS = "6-5 1-2"


def _model(dice: str = "", players: int = 2, preset: str = "laspoly", seed: int = 4) -> GameModel:
    m = GameModel()
    names = ["Ana", "Ben", "Cy", "Di", "Eve", "Flo"][:players]
    assert m.new_game(names, [PERSON] + ["basic"] * (players - 1), preset=preset, seed=seed, dice=dice), m.message
    return m


def _finish_turn(m: GameModel) -> None:
    """Play the current player's turn to its end with the basic bot."""
    bot, who = BasicBot(), m.game.current
    while m.game.current == who and not m.game.is_over:
        assert m.act(bot.choose(m.game.observe()), confirmed=True), m.message


# ---------------------------------------------------------------- owners


def test_each_owned_field_has_a_band_in_its_owners_colour_with_their_marker_and_name() -> None:
    m = _model(players=5)
    g = m.game
    give(g, ANA, "Fremont Street")
    give(g, 4, "Glitter Gulch")
    data = board_data(m)
    for field, seat in ((1, ANA), (3, 4)):
        assert data["owner_color"][field] == PLAYER_COLORS[seat]
        assert data["owner_marker"][field] == PLAYER_MARKERS[seat]  # colour is never the only cue
        assert data["owner_label"][field] == g.players[seat].name
        assert data["owner_alpha"][field] == 1.0 and data["price_alpha"][field] == 0.0
    assert data["owner_text"][1] == "#000000" and data["owner_text"][3] == "#ffffff"  # legible on orange and on blue
    assert data["owner_alpha"][6] == 0.0 and data["price_alpha"][6] == 1.0 and data["price"][6] == "100 LPD"


def test_a_long_owner_name_is_cut_to_fit_the_band() -> None:
    m = GameModel()
    assert m.new_game(["Bartholomew", "Ben"], [PERSON, "basic"], seed=4)
    give(m.game, ANA, "Fremont Street")
    assert board_data(m)["owner_label"][1] == "Bartho…" and board_data(m)["owner"][1] == "Bartholomew"


def test_tokens_stand_beside_their_field_and_never_on_it_nor_on_each_other() -> None:
    m = _model(players=6)
    for p in range(6):
        place(m.game, p, "Glitter Gulch")
    tokens = token_data(m)
    x, y = cell_xy(3)
    assert all(abs(ty - y) > 0.5 for ty in tokens["y"])  # inside the ring, off the field's owner band and marks
    assert all(abs(tx - x) < 0.5 for tx in tokens["x"])  # but beside this field, not a neighbour
    assert len(set(zip(tokens["x"], tokens["y"], strict=True))) == 6
    assert tokens["marker"] == list(PLAYER_MARKERS[:6]) and tokens["color"] == list(PLAYER_COLORS[:6])


# ---------------------------------------------------------------- buildings


@pytest.mark.parametrize(("level", "factory", "expected"), [
    (0, False, {}), (1, False, {"house": 1}), (2, False, {"house": 2}), (3, False, {"house": 3}),
    (4, False, {"house": 4}), (5, False, {"hotel": 1}), (0, True, {"factory": 1}),
])
def test_buildings_are_pips_a_square_per_house_one_block_for_a_hotel_and_a_factory_icon(
        level: int, factory: bool, expected: dict[str, int]) -> None:
    m = _model()
    g = m.game
    i = g.board.find("Glitter Gulch")
    group = [{"field": j, "owner": ANA, "houses": level % 5, "hotel": level == 5, "factory": factory and j == i}
             for j in g.group_of[i]]  # the whole group, built evenly (L11)
    edit(g, lambda position: position.update(properties=group))
    shapes = buildings_data(m)
    assert Counter(kind for kind, f in zip(shapes["kind"], shapes["field"], strict=True) if f == i) == Counter(expected)
    data = board_data(m)
    assert (data["houses"][i], data["hotel"][i], data["factory"][i]) == (level % 5, level == 5, factory)
    widths = {kind: max(xs) - min(xs) for kind, xs in zip(shapes["kind"], shapes["xs"], strict=True)}
    if "house" in widths:
        assert len(shapes["xs"][0]) == 4 and widths["house"] == pytest.approx(max(shapes["ys"][0]) - min(shapes["ys"][0]))
    if "hotel" in widths:
        assert widths["hotel"] > 0.3  # one mark, wider than two houses side by side
    if "factory" in widths:
        assert len(shapes["xs"][0]) > 8  # a saw-tooth roof and a chimney, unlike any house or hotel


def test_buildings_stay_inside_their_cell() -> None:
    m = _model()
    g = m.game
    edit(g, lambda position: position.update(properties=[{"field": i, "owner": ANA, "houses": 4} for i in (1, 3)]))
    shapes = buildings_data(m)
    for f, xs, ys in zip(shapes["field"], shapes["xs"], shapes["ys"], strict=True):
        x, y = cell_xy(f)
        assert all(abs(v - x) < 0.5 for v in xs) and all(abs(v - y) < 0.5 for v in ys)


# ---------------------------------------------------------------- mortgages


def test_a_mortgaged_field_is_hatched_in_a_layer_of_its_own_and_marked_in_the_games_language() -> None:
    m = _model()
    (i,) = give(m.game, ANA, "Glitter Gulch")
    board = BoardFigure(m)
    # a browser remakes a hatched layer's pattern for every row whenever its source changes: the hatching must not
    # share the cells' source, which changes on almost every step (autoplay fell 12 s behind in 60 s when it did)
    hatched_layers = [r for r in board.figure.renderers if isinstance(r, GlyphRenderer)
                      and getattr(r.glyph, "hatch_pattern", None)]
    assert [r.data_source for r in hatched_layers] == [board.mortgages] and board.mortgages.data["field"] == []
    mortgage(m.game, i)
    board.refresh()
    assert board.mortgages.data["field"] == [i]
    data = board_data(m)
    assert data["mortgage_alpha"][i] == 1.0 and data["mortgaged"][i] == "mortgaged"
    assert data["mortgage_alpha"][1] == 0.0 and data["mortgaged"][1] == ""
    hatched = mortgage_data(m)  # the hatching: its own layer and source, one square per mortgaged field
    assert hatched == {"field": [i], "x": [data["x"][i]], "y": [data["y"][i]]}
    assert data["owner_alpha"][i] == 1.0  # the owner stays visible
    m.lang = "es"
    assert board_data(m)["mortgaged"][i] == "hipotecada"
    assert "propiedad de Ana" in board_data(m)["tip"][i]


# ---------------------------------------------------------------- this turn


def test_the_dice_show_as_faces_with_their_pips() -> None:
    pips = dice_pips(5, 3)
    shown = [(x, y) for x, y, a in zip(pips["x"], pips["y"], pips["alpha"], strict=True) if a]
    assert len(pips["x"]) == 12 and len(shown) == 8
    first, second = shown[:5], shown[5:]
    centre = (sum(x for x, _ in first) / 5, sum(y for _, y in first) / 5)
    assert centre in first  # a five has a centre pip, and four round it
    assert len({x for x, _ in second}) == 3 and len({y for _, y in second}) == 3  # a three is a diagonal


def test_the_roll_of_this_turn_shows_in_full_and_an_earlier_one_faded() -> None:
    m = _model("5-3 2-4")
    assert centre_data(m)["faces"]["alpha"] == [0.0, 0.0]  # nothing rolled yet
    assert m.act(A.Roll(ANA))
    centre = centre_data(m)
    assert centre["faces"]["alpha"] == [1.0, 1.0] and sum(centre["pips"]["alpha"]) == 8
    assert "Ana rolled 5 + 3 = 8" in centre["lines"]["text"]
    _finish_turn(m)
    assert centre_data(m)["faces"]["alpha"] == [0.35, 0.35]  # Ben has not rolled yet: Ana's roll, faded
    m.lang = "es"
    assert "Ana sacó 5 + 3 = 8" in centre_data(m)["lines"]["text"]


def test_the_card_drawn_this_turn_shows_with_who_drew_it_and_clears_when_the_turn_passes() -> None:
    m = _model(f"{ANA_STARTS} 3-4 1-2 2-3", preset="classic")
    g = m.game
    assert m.act(A.Roll(ANA))  # 7: Chance
    card = this_turn_card(g)
    assert card is not None and card.who == ANA
    lines = centre_data(m)["lines"]["text"]
    assert "Chance card drawn by Ana" in lines and wrap(g.card_text(card.deck, card.card), CARD_WIDTH, CARD_LINES) in lines
    assert centre_data(m)["card_box"]["alpha"] == [1.0]
    _finish_turn(m)
    assert g.current == BEN and g.last_card is not None  # the engine still remembers it, the board does not show it
    assert this_turn_card(g) is None and centre_data(m)["card_box"]["alpha"] == [0.0]
    assert not any("card" in line for line in centre_data(m)["lines"]["text"])


def test_the_card_and_the_dice_have_their_own_places_in_the_middle() -> None:
    m = _model(f"{ANA_STARTS} 3-4", preset="classic")
    assert m.act(A.Roll(ANA))
    centre = centre_data(m)
    roll, title, card = centre["lines"]["y"][:3]
    dice_bottom = min(centre["faces"]["y"]) - 0.5
    assert dice_bottom > roll > title > card  # dice, then the roll's line, then the card's title and text, top to bottom


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice"])
def test_the_middle_shows_the_pot_in_the_games_words(preset: str) -> None:
    m = _model(preset=preset)
    fund_pot(m.game, 350)
    m.lang = "en"
    heading = centre_data(m)["head"]["text"][0]
    assert heading == {"laspoly": "Casino pot: 350 LPD", "sculptprice": "Pot: 350€"}[preset]
    m.lang = "es"
    assert centre_data(m)["head"]["text"][0] == {"laspoly": "Bote del casino: 350 LPD", "sculptprice": "BOTE: 350€"}[preset]
    assert centre_data(_model(preset="classic"))["head"]["text"] == [""]


# ---------------------------------------------------------------- the last move


def test_the_last_move_marks_its_start_and_end_fields_and_the_path_walked() -> None:
    m = _model("1-2")
    assert last_move(m.game) is None and move_marks(m.game) == ([], None)
    assert m.act(A.Roll(ANA))
    assert last_move(m.game) == Move(ANA, 0, 3, (0, 1, 2, 3))
    data = board_data(m)
    assert data["last_move"][0] == "from" and data["last_move"][3] == "to"
    assert data["from_alpha"][0] == data["to_alpha"][3] == 1.0 and sum(data["to_alpha"]) == 1.0
    points, arrow = move_marks(m.game)
    assert len(points) == 4 and arrow is not None
    x, y = cell_xy(3)
    assert arrow[0] == pytest.approx(x) and arrow[1] > y + 0.5  # just inside the ring, by Glitter Gulch
    assert math.cos(arrow[2] + math.pi / 2) == pytest.approx(0, abs=1e-9) and math.sin(arrow[2] + math.pi / 2) < 0  # points down, into it
    assert "Last move: Ana, Start → Glitter Gulch" in centre_data(m)["lines"]["text"]


def test_a_trip_to_prison_is_a_jump_from_where_the_token_was() -> None:
    m = _model("1-1 1-1 1-1")  # a third doubles sends Ana to prison
    for _ in range(3):
        assert m.act(A.Roll(ANA))
    g = m.game
    assert g.players[ANA].in_prison
    assert last_move(g) == Move(ANA, 4, g.prison, ())  # from where the second roll left her, no path walked
    points, arrow = move_marks(g)
    assert points == [] and arrow is not None
    assert board_data(m)["last_move"][4] == "from" and board_data(m)["last_move"][g.prison] == "to"


def test_a_go_back_card_walks_backwards() -> None:
    g = Game(["Ana", "Ben"], preset="classic", seed=4, dice=f"{ANA_STARTS} 1-2")
    deck = g.board.decks["chance"]
    back = next(k for k, c in enumerate(deck) if c.effect == "move" and c.args["steps"] < 0)
    g.decks["chance"].remove(back)
    g.decks["chance"].appendleft(back)
    place(g, ANA, 4)
    g.apply(A.Roll(ANA))  # 4 + 3 = 7: Chance, "go back 3 spaces" to 4
    move = last_move(g)
    assert move is not None and move.path == (7, 6, 5, 4)


# ---------------------------------------------------------------- nothing clipped


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_field_name_and_card_fits_its_place_without_a_cut(preset: str, lang: str) -> None:
    m = _model(preset=preset)
    m.lang = lang
    for label in board_data(m)["label"]:
        lines = label.split("\n")
        assert len(lines) <= NAME_LINES and "…" not in label
        assert all(len(line) <= NAME_WIDTH for line in lines), label
    for deck in m.game.board.decks.values():
        for card in deck:
            text = wrap(card.label(lang), CARD_WIDTH, CARD_LINES)
            assert "…" not in text and len(text.split("\n")) <= CARD_LINES


def test_the_boards_words_come_from_the_catalogue_in_both_languages() -> None:
    from laspoly.ui.i18n import catalogue

    rows = {k: v for k, v in catalogue().items() if k.startswith("board.")}
    assert {"board.pot", "board.rolled", "board.owned_by", "board.last_move"} <= set(rows)
    assert all(set(texts) == {"en", "es"} and texts["es"] for texts in rows.values())
    assert word("houses", "es", "sculptprice", n=2) == "2 Actualizaciones"


def test_every_text_and_marker_of_the_figure_scales_with_the_boards_width() -> None:
    board = BoardFigure(_model())
    (callback,) = board.figure.js_property_callbacks["change:inner_width"]
    assert isinstance(callback, CustomJS)
    scaled = {id(item[0]) for item in callback.args["items"]}
    texts = [r.glyph for r in board.figure.renderers if isinstance(r.glyph, Text)]
    assert texts and all(id(t) in scaled for t in texts)


def test_a_narrow_board_numbers_its_fields_hides_the_small_print_and_shows_the_tapped_fields_card() -> None:
    m = _model()
    board = BoardFigure(m)
    (callback,) = board.figure.js_property_callbacks["change:inner_width"]
    assert callback.args["narrow_below"] == NARROW_BELOW
    assert [(wide, narrow) for _, wide, narrow in callback.args["texts"]] == [("label", "number")]
    assert board.cells.data["number"][:3] == ["0", "1", "2"]
    narrow = {id(glyph): small for glyph, _, _, small, _ in callback.args["items"]}
    hidden = [r for r in board.figure.renderers if isinstance(r.glyph, Text) and narrow[id(r.glyph)] == 0.0]
    assert {getattr(r.glyph.text, "field", r.glyph.text) for r in hidden} >= {"price", "owner_label", "mortgaged"}  # prices, names: on the card
    picked = board.centre["picked"]
    assert picked.data["text"] == ["Tap a field to see its card."]
    m.selected_field = 1
    board.show_selected()
    assert picked.data["text"][0].startswith("1. Fremont Street\nPrice 60 LPD")
    give(m.game, BEN, "Fremont Street")
    board.refresh()
    assert "owned by Ben" in picked.data["text"][0] and "Rent now:" in picked.data["text"][0]
    m.lang = "es"
    board.refresh()
    assert "propiedad de Ben" in picked.data["text"][0]


def test_the_tapped_fields_card_names_a_tax_and_a_corner_plainly() -> None:
    m = _model()
    g = m.game
    tax = next(f.index for f in g.fields if f.kind == "tax")
    m.selected_field = tax
    assert picked_text(m).startswith(f"{tax}. ") and "Pay " in picked_text(m)
    m.selected_field = 0
    assert picked_text(m) == f"0. {g.fields[0].label('en')}"


def test_the_figure_is_plain_layers_only_the_cells_light_up_when_a_field_is_selected() -> None:
    """A class opening the dashboard makes the server build one board each: no axes, no faded copies of glyphs."""
    board = BoardFigure(_model())
    doc = Document()
    doc.add_root(board.figure)
    assert not board.figure.xaxis and not board.figure.yaxis and not board.figure.grid
    layers = [r for r in board.figure.renderers if isinstance(r, GlyphRenderer)]
    cells = [r for r in layers if r.data_source is board.cells and r.selection_glyph is not r.glyph]
    assert len(cells) == 1 and cells[0].selection_glyph.fill_color == "#ffe680"
    assert all(r.nonselection_glyph is r.glyph for r in layers)
    assert all(r.selection_glyph is r.glyph for r in layers if r is not cells[0])
    glyphs = [m for m in doc.models if isinstance(m, Glyph)]
    assert len(glyphs) == len(layers) + 1  # one glyph a layer, and the selected cells' highlight


def test_a_board_made_in_two_pieces_is_the_board_made_at_once() -> None:
    """A served page makes the board's fields first and its middle, tokens and sizing script in the next piece."""
    m = _model()
    whole, started = BoardFigure(m), BoardFigure(m, whole=False)
    assert not started.finished and len(started.figure.renderers) < len(whole.figure.renderers)
    started.finish()
    started.finish()  # once
    assert started.finished and len(started.figure.renderers) == len(whole.figure.renderers)
    assert [type(r.glyph).__name__ for r in started.figure.renderers] == [type(r.glyph).__name__ for r in whole.figure.renderers]
    assert len(started.figure.js_property_callbacks["change:inner_width"]) == 1 and started.centre["head"].data == whole.centre["head"].data
