"""The board drawn with Bokeh: fields round an 11 x 11 square, owners, buildings, tokens and this turn in the middle.

:func:`board_data` and the other ``*_data`` functions turn a model into plain
columns (tested without a browser); :class:`BoardFigure` keeps one Bokeh figure
and refreshes its sources in place, sending only the columns that changed.
Clicking a field selects it (the property card shows beside the board).

A field reads from top to bottom: its colour group's band, its name (wrapped),
its price while nobody owns it (else its buildings as pips, or the mortgage
mark), and the owner's band: the owner's colour with their marker shape and
name, so colour is never the only cue.  Tokens stand just inside the ring, next
to their field, so they never cover a field's marks.  The middle shows this
turn: the pot, the dice as faces, the card drawn this turn and by whom, the last
move (also drawn on the board, from its start to its end) and the status line.

A narrow board (a phone's, under :data:`NARROW_BELOW` pixels) would shrink all that to
unreadable specks, so it is drawn for its size instead: each field shows its number
in large type with its colour band and its owner's colour and shape; prices, owners'
names and the last move's line give way, and the middle shows the tapped field's
card (name, price or owner and rent).  The page's script picks the drawing from the
board's width as it is laid out, so a phone turned on its side redraws by itself.
"""

from __future__ import annotations

import math
from typing import Any

from bokeh.models import (
    CDSView,
    Circle,
    ColumnDataSource,
    CustomJS,
    GlyphRenderer,
    HoverTool,
    IndexFilter,
    Line,
    Patches,
    Rect,
    Scatter,
    TapTool,
    Text,
)
from bokeh.plotting import figure

from laspoly.analysis.log import card_this_turn, last_move, last_roll
from laspoly.engine.game import Game
from laspoly.ui.common import PLAYER_COLORS, PLAYER_MARKERS
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel

SIDE = 11
#: A property's cell from top to bottom, in cells from its centre: the colour band, the name, the row of the price
#: (or buildings, or the mortgage mark) and the owner's band.
BAND_H, BAND_Y = 0.12, 0.44
NAME_Y = 0.16
ROW_Y = -0.165
OWNER_H, OWNER_Y = 0.2, -0.4
#: The figure's width in pixels for which the text and marker sizes below are given; the page scales them.
BASE_WIDTH = 720
#: A board drawn narrower than this (in pixels) is drawn for a phone: field numbers, and the tapped field's card in the middle.
NARROW_BELOW = 540
#: The board's width for which the narrow drawing's sizes are given (a phone upright); the page scales them too.
NARROW_WIDTH = 380
#: Characters per line of a field's name, and lines at most (the longest single word of any board fits), and its size
#: in pixels on a board :data:`BASE_WIDTH` wide.
NAME_WIDTH, NAME_LINES, NAME_SIZE = 13, 3, 8.5
#: On a projector: the size of a field's name on a board :data:`BASE_WIDTH` wide (at 1920 x 1080 the board is about
#: 960 px wide, so names of 20 px or more), and its short name's characters per line and lines at most.
PROJECTOR_NAME_SIZE, SHORT_WIDTH, SHORT_LINES = 15.2, 8, 2
#: Words a short name leaves out, written in lower case inside a name ("of", "de", "la"...): they carry little there.
FILLER_WORDS = frozenset({"the", "of", "and", "at", "de", "del", "la", "el", "los", "las", "y", "a", "al", "sobre", "que"})
#: Characters per line of a card's text in the middle, and lines at most.
CARD_WIDTH, CARD_LINES = 46, 4
HOUSE_COLOR, HOTEL_COLOR, FACTORY_COLOR = "#1b7e3c", "#c0392b", "#4b4b4b"
MORTGAGE_COLOR = "#8b0000"
#: The text drawn on a field (its name; its price), a field's plain fill and the selected field's fill.  Every fill a
#: field takes (plain, selected, the live odds' overlay, the landings' heatmap) keeps both texts at 4.5:1 (WCAG AA).
NAME_COLOR, PRICE_COLOR = "#111111", "#333333"
PLAIN_FILL, SELECTED_FILL = "#fdfdf6", "#ffe680"


def word(key: str, lang: str, preset: str | None = None, **values: Any) -> str:
    """The board's words for ``key`` (the catalogue's row ``board.<key>``) in ``lang`` and ``preset``'s own terms."""
    return tr(f"board.{key}", lang, preset, **values)


# ---------------------------------------------------------------- geometry


def cell_xy(index: int, size: int = 40) -> tuple[float, float]:
    """Centre of a field's cell: 0 bottom right, then left along the bottom, up, right along the top, down."""
    per_side = size // 4
    side, k = divmod(index, per_side)
    last = SIDE - 1
    if side == 0:
        return (last - k + 0.5, 0.5)
    if side == 1:
        return (0.5, k + 0.5)
    if side == 2:
        return (k + 0.5, last + 0.5)
    return (last + 0.5, last - k + 0.5)


def inward(index: int, size: int = 40) -> tuple[float, float]:
    """The direction from a field's cell towards the middle of the board (diagonal at the corners)."""
    x, y = cell_xy(index, size)
    edge = (0.5, SIDE - 0.5)
    dx = (1.0 if x < SIDE / 2 else -1.0) if x in edge else 0.0
    dy = (1.0 if y < SIDE / 2 else -1.0) if y in edge else 0.0
    return dx, dy


def _ring_point(index: int, size: int, depth: float) -> tuple[float, float]:
    """A point ``depth`` cells from a field's centre towards the middle of the board."""
    x, y = cell_xy(index, size)
    dx, dy = inward(index, size)
    return x + depth * dx, y + depth * dy


def wrap(text: str, width: int, lines: int) -> str:
    """``text`` broken at spaces into at most ``lines`` lines of about ``width`` characters; a cut ends in "…"."""
    out: list[str] = []
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: max(1, width - 1)].rstrip() + "…"
    return "\n".join(out)


def luminance(color: str) -> float:
    """A colour's relative luminance (WCAG 2), from ``#rrggbb``."""
    r, g, b = (int(color[k:k + 2], 16) / 255 for k in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white); text needs 4.5."""
    low, high = sorted((luminance(a), luminance(b)))
    return (high + 0.05) / (low + 0.05)


def short_label(name: str, width: int = SHORT_WIDTH, lines: int = SHORT_LINES) -> str:
    """A field's name for a projector, in at most ``lines`` lines of at most ``width`` characters.

    Small filler words inside a name go first ("Winged Victory of Samothrace" loses "of"), a word longer than a
    line is cut with a full stop ("Samothrace" is "Samoth."), and a name still too long keeps its first lines, which
    tell fields apart, ending in "…" ("Elvis Chapel…", not "Lane").
    """
    words = [w for w in name.split() if w not in FILLER_WORDS] or name.split()
    words = [w if len(w) <= width else w[: width - 1] + "." for w in words]
    out: list[str] = []
    for w in words:
        if out and len(out[-1]) + 1 + len(w) <= width:
            out[-1] += " " + w
        else:
            out.append(w)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1].rstrip(".") + "…"
    return "\n".join(out)


def name_size(board_width: float, projector: bool = False) -> float:
    """The size in pixels of a field's name on a board ``board_width`` pixels wide, as the page's script scales it."""
    size = PROJECTOR_NAME_SIZE if projector else NAME_SIZE
    return size * max(0.3, min(2.0, board_width / BASE_WIDTH))


def _contrast_text(color: str) -> str:
    """Black or white, whichever reads better on ``color`` (WCAG relative luminance)."""
    return "#000000" if contrast_ratio(color, "#000000") >= contrast_ratio(color, "#ffffff") else "#ffffff"


def player_color(player: int) -> str:
    """A seat's colour (Okabe-Ito)."""
    return PLAYER_COLORS[player % len(PLAYER_COLORS)]


def player_marker(player: int) -> str:
    """A seat's marker shape, the cue besides colour."""
    return PLAYER_MARKERS[player % len(PLAYER_MARKERS)]


# ---------------------------------------------------------------- columns


def _buildings_text(game: Game, index: int, lang: str) -> str:
    lvl = game.level[index]
    if game.factory[index]:
        return word("factory", lang, game.preset.id)
    if lvl == game.hotel_level:
        return word("hotel", lang, game.preset.id)
    if lvl:
        return word("house", lang, game.preset.id) if lvl == 1 else word("houses", lang, game.preset.id, n=lvl)
    return ""


#: Per board and language, the columns that never change during a game (kept with the board, so its id stays unique).
_FIXED: dict[tuple[int, str], tuple[Any, dict[str, list[Any]]]] = {}


def _fixed_columns(game: Game, lang: str) -> dict[str, list[Any]]:
    """The columns of the cells that depend only on the board and the language: places, names, bands, prices."""
    key = (id(game.board), lang)
    hit = _FIXED.get(key)
    if hit is not None and hit[0] is game.board:
        return hit[1]
    n = len(game.fields)
    groups = game.board.groups
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "y", "band_y", "price_y", "owner_y", "owner_x", "owner_label_x",
                                                   "index", "name", "label", "short", "number", "label_y", "band", "band_alpha", "price",
                                                   "kind")}
    for f in game.fields:
        x, y = cell_xy(f.index, n)
        name = f.label(lang)
        grouped = f.group is not None and f.group in groups
        for k, v in (("x", x), ("y", y), ("band_y", y + BAND_Y), ("price_y", y + ROW_Y), ("owner_y", y + OWNER_Y),
                     ("owner_x", x - 0.33), ("owner_label_x", x + 0.08), ("index", f.index), ("name", name),
                     ("label", wrap(name, NAME_WIDTH, NAME_LINES)), ("short", short_label(name)), ("number", str(f.index)),
                     ("label_y", y + (NAME_Y if f.is_property else 0.2 if is_corner(f.index, n) else 0.04)),
                     ("band", groups[f.group].color if grouped else "#ffffff"),  # type: ignore[index]
                     ("band_alpha", 1.0 if grouped else 0.0), ("price", game.money(f.price) if f.price else ""),
                     ("kind", f.kind)):
            cols[k].append(v)
    if len(_FIXED) > 32:
        _FIXED.clear()
    _FIXED[key] = (game.board, cols)
    return cols


def board_data(model: GameModel, heat: list[float] | None = None,
               odds: tuple[list[str], list[str]] | None = None) -> dict[str, list[Any]]:
    """Columns for the field cells: place, name, colour band, price, owner's band, buildings, mortgage, last move, heat.

    ``odds`` colours the cells and heads their tooltips with the live odds overlay: a fill and a tip per field.
    """
    g, lang = model.game, model.lang
    cols = {k: list(v) for k, v in _fixed_columns(g, lang).items()}
    move = last_move(g)
    src, dst = (move.src, move.dst) if move is not None and move.src != move.dst else (-1, move.dst if move else -1)
    mortgaged_word = word("mortgaged", lang)
    players = [(p.name, player_color(p.index), player_marker(p.index), _short_name(p.name), _contrast_text(player_color(p.index)))
               for p in g.players]
    nobody = ("", "#ffffff", "circle", "", "#000000")
    dynamic: dict[str, list[Any]] = {k: [] for k in (
        "price_alpha", "owner", "owner_color", "owner_alpha", "owner_marker", "owner_label", "owner_text", "houses",
        "hotel", "factory", "buildings", "mortgaged", "mortgage_alpha", "last_move",
        "from_alpha", "to_alpha", "fill", "tip")}
    top = g.hotel_level
    for i, price in enumerate(cols["price"]):
        o, lvl, mortgaged = g.owner[i], g.level[i], g.mortgaged[i]
        owned = o >= 0
        owner, color, marker, label, text = players[o] if owned else nobody
        buildings = _buildings_text(g, i, lang)
        mark = "from" if i == src else "to" if i == dst else ""
        tip = [word("owned_by", lang, who=owner)] if owned else []
        tip += [t for t in (buildings, mortgaged_word if mortgaged else "") if t]
        for k, v in (("price_alpha", 0.0 if owned else 1.0), ("owner", owner), ("owner_color", color),
                     ("owner_alpha", 1.0 if owned else 0.0), ("owner_marker", marker), ("owner_label", label),
                     ("owner_text", text), ("houses", lvl if lvl < top else 0), ("hotel", lvl == top),
                     ("factory", bool(g.factory[i])), ("buildings", buildings),
                     ("mortgaged", mortgaged_word if mortgaged else ""), ("mortgage_alpha", 1.0 if mortgaged else 0.0),
                     ("last_move", mark), ("from_alpha", 1.0 if mark == "from" else 0.0),
                     ("to_alpha", 1.0 if mark == "to" else 0.0),
                     ("fill", odds[0][i] if odds is not None else _heat_color(heat[i]) if heat is not None else PLAIN_FILL),
                     ("tip", (odds[1][i] + (" · " if tip else "") if odds is not None else "") + (", ".join(tip) if tip else
                                                                                                  "" if odds is not None else price))):
            dynamic[k].append(v)
    cols.update(dynamic)
    return cols


def mortgage_data(model: GameModel) -> dict[str, list[Any]]:
    """The hatched squares over mortgaged fields: one row per mortgaged field (none in most games for a while).

    The hatching is a layer of its own, fed by its own source.  A browser makes a pattern canvas for every
    row of a hatched layer each time that layer's source changes; sharing the cells' source, which changes
    on almost every step, it kept a page from keeping up with autoplay.
    """
    g = model.game
    fixed = _fixed_columns(g, model.lang)
    rows = [i for i, m in enumerate(g.mortgaged) if m]
    return {"field": rows, "x": [fixed["x"][i] for i in rows], "y": [fixed["y"][i] for i in rows]}


def _short_name(name: str, width: int = 7) -> str:
    """A name cut to fit an owner's band."""
    return name if len(name) <= width else name[: width - 1].rstrip() + "…"


def _heat_color(value: float) -> str:
    """A blue (fewer landings than the chain predicts) to orange (more) scale; value is a log ratio."""
    v = max(-1.0, min(1.0, value))
    if v >= 0:
        r, gr, b = 255, int(255 - 90 * v), int(255 - 200 * v)
    else:
        r, gr, b = int(255 + 200 * v), int(255 + 90 * v), 255
    return f"#{r:02x}{gr:02x}{b:02x}"


def _house(x: float, y: float) -> tuple[list[float], list[float]]:
    h = 0.065
    return [x - h, x + h, x + h, x - h], [y - h, y - h, y + h, y + h]


def _hotel(x: float, y: float) -> tuple[list[float], list[float]]:
    w, h = 0.2, 0.085
    return [x - w, x + w, x + w, x - w], [y - h, y - h, y + h, y + h]


#: A factory's outline around its centre: a saw-tooth roof on the right, a chimney on the left.
_FACTORY = ((-0.2, -0.08), (0.2, -0.08), (0.2, 0.02), (0.133, 0.07), (0.133, 0.02), (0.067, 0.07), (0.067, 0.02),
            (0.0, 0.07), (0.0, 0.02), (-0.1, 0.02), (-0.1, 0.1), (-0.16, 0.1), (-0.16, 0.02), (-0.2, 0.02))


def _factory(x: float, y: float) -> tuple[list[float], list[float]]:
    return [x + dx for dx, _ in _FACTORY], [y + dy for _, dy in _FACTORY]


def buildings_data(model: GameModel) -> dict[str, list[Any]]:
    """One shape per building: a small square per house, one wide block for a hotel, a factory's outline."""
    g = model.game
    n = len(g.fields)
    cols: dict[str, list[Any]] = {"xs": [], "ys": [], "field": [], "kind": [], "color": []}

    def add(i: int, kind: str, color: str, shape: tuple[list[float], list[float]]) -> None:
        cols["xs"].append(shape[0])
        cols["ys"].append(shape[1])
        cols["field"].append(i)
        cols["kind"].append(kind)
        cols["color"].append(color)

    for i in range(n):
        x, y = cell_xy(i, n)
        y += ROW_Y
        lvl = g.level[i]
        if g.factory[i]:
            add(i, "factory", FACTORY_COLOR, _factory(x, y))
        elif lvl == g.hotel_level:
            add(i, "hotel", HOTEL_COLOR, _hotel(x, y))
        elif lvl:
            gap = 0.17
            for k in range(lvl):
                add(i, "house", HOUSE_COLOR, _house(x + (k - (lvl - 1) / 2) * gap, y))
    return cols


def token_data(model: GameModel) -> dict[str, list[Any]]:
    """Columns for the players' tokens: just inside the ring next to their field, side by side when they share it."""
    g = model.game
    n = len(g.fields)
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "y", "color", "marker", "name", "line_width")}
    here: dict[int, list[int]] = {}
    for p in g.players:
        if p.active:
            here.setdefault(p.pos, []).append(p.index)
    for p in g.players:
        if not p.active:
            continue
        group = here[p.pos]
        slot = group.index(p.index)
        row, col = divmod(slot, 3)
        in_row = min(3, len(group) - 3 * row)
        along = (col - (in_row - 1) / 2) * 0.3
        x, y = cell_xy(p.pos, n)
        if is_corner(p.pos, n):  # a corner has room inside, under its name
            cols["x"].append(x + along)
            cols["y"].append(y - 0.2 + 0.27 * row)
        else:  # beside the field, just inside the ring
            dx, dy = inward(p.pos, n)
            depth = 0.78 + 0.3 * row
            cols["x"].append(x + depth * dx - along * dy)
            cols["y"].append(y + depth * dy + along * dx)
        cols["color"].append(player_color(p.index))
        cols["marker"].append(player_marker(p.index))
        cols["name"].append(word("in_prison", model.lang, who=p.name) if p.in_prison else p.name)
        cols["line_width"].append(3.0 if p.index == g.actor and not g.is_over else 1.5)
    return cols


#: Pip places on a die face, as multiples of the pip spacing from the face's centre.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, 1), (1, 1), (-1, -1), (1, -1)),
    5: ((-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)),
    6: ((-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)),
}
DICE_Y, DICE_X, DIE_SIZE, PIP_STEP = 7.5, (4.85, 6.15), 1.0, 0.26


def dice_pips(d1: int, d2: int) -> dict[str, list[float]]:
    """The pips of two dice faces: six rows per die, the ones a face does not show hidden (alpha 0) at its centre.

    A fixed number of rows lets a new roll change the columns in place.
    """
    cols: dict[str, list[float]] = {"x": [], "y": [], "alpha": []}
    for cx, value in zip(DICE_X, (d1, d2), strict=True):
        spots = PIPS.get(value, ())
        for k in range(6):
            px, py = spots[k] if k < len(spots) else (0, 0)
            cols["x"].append(cx + px * PIP_STEP)
            cols["y"].append(DICE_Y + py * PIP_STEP)
            cols["alpha"].append(1.0 if k < len(spots) else 0.0)
    return cols


#: How far inside the ring (in cells from a field's centre) the last move's path runs: inside the tokens beside the fields.
PATH_DEPTH = 1.12


def is_corner(index: int, size: int = 40) -> bool:
    """Whether a field sits in a corner of the board."""
    return index % (size // 4) == 0


def move_marks(game: Game) -> tuple[list[tuple[float, float]], tuple[float, float, float] | None]:
    """The last move drawn: its path just inside the ring (for a walk), and an arrow head (x, y, angle) towards the field reached.

    A jump (a train ride, a trip to prison) has no path: its start and end fields are marked on the board instead.
    """
    move = last_move(game)
    if move is None or move.src == move.dst:
        return [], None
    n = len(game.fields)
    last = len(move.path) - 1
    cells = [i for k, i in enumerate(move.path) if k in (0, last) or not is_corner(i, n)]  # turn corners on the diagonal
    tip = _ring_point(move.dst, n, PATH_DEPTH)
    points = [_ring_point(i, n, PATH_DEPTH) for i in cells]
    dx, dy = inward(move.dst, n)
    return points, (tip[0], tip[1], math.atan2(-dy, -dx) - math.pi / 2)  # a triangle points up at angle 0


#: Heights in the middle of the board of its lines: pot, the roll's caption, the card's title and text, last move, status;
#: and, on a narrow board (in place of the last two), the tapped field's card.
CENTRE_Y = {"pot": 8.85, "roll": 6.65, "card_title": 5.75, "card": 4.85, "move": 3.45, "status": 2.55, "picked": 2.8}
#: Characters per line of the tapped field's card in the middle of a narrow board, and lines at most.
PICKED_WIDTH, PICKED_LINES = 34, 4
CARD_BOX = {"x": 5.5, "y": 4.95, "width": 6.9, "height": 2.05}


def picked_text(model: GameModel) -> str:
    """The tapped field's card in a few words, for the middle of a narrow board: number and name, then price or owner and rent.

    Without a tapped field, the hint to tap one.
    """
    g, lang, i = model.game, model.lang, model.selected_field
    if not 0 <= i < len(g.fields):
        return wrap(word("tap_hint", lang), PICKED_WIDTH, PICKED_LINES)
    f = g.fields[i]
    lines = [wrap(f"{i}. {f.label(lang)}", PICKED_WIDTH, 2)]
    facts: list[str] = []
    if g.owner[i] >= 0:
        facts.append(word("owned_by", lang, who=g.players[g.owner[i]].name))
        facts += [t for t in (_buildings_text(g, i, lang), word("mortgaged", lang) if g.mortgaged[i] else "") if t]
        facts.append(model.t("field.rent_now", amount=g.money(g.rent(i, 7))))
    elif f.is_property:
        facts.append(model.t("field.price", price=g.money(f.price), mortgage=g.money(f.mortgage)))
    elif f.kind == "tax":
        facts.append(model.t("field.tax_pot" if f.to == "pot" else "field.tax_bank", amount=g.money(f.amount)))
    if facts:
        lines.append(wrap(" · ".join(facts), PICKED_WIDTH, PICKED_LINES - lines[0].count("\n") - 1))
    return "\n".join(lines)


def centre_data(model: GameModel) -> dict[str, dict[str, list[Any]]]:
    """What the middle of the board shows this turn: headline, lines, dice, the card's box and the last move's path."""
    g, lang = model.game, model.lang
    pot = ""
    if g.rules.pot_payout != "none":
        pot = word("casino_pot" if g.rules.pot_payout == "casino_doubles" else "pot", lang, g.preset.id, amount=g.money(g.pot))
    roll = last_roll(g)
    caption, dice, faded = "", (0, 0), True
    if roll is not None:
        e, now = roll
        dice, faded = (e.d1, e.d2), not now
        caption = word("rolled", lang, who=g.players[e.who].name, d1=e.d1, d2=e.d2, total=e.d1 + e.d2)
        if e.d1 == e.d2:
            caption = word("doubles", lang, text=caption)
    card = card_this_turn(g)
    title = text = ""
    if card is not None:
        deck = next((f.label(lang) for f in g.fields if f.deck == card.deck), card.deck)
        title = word("card", lang, deck=deck, who=g.players[card.who].name)
        text = wrap(g.card_text(card.deck, card.card, lang), CARD_WIDTH, CARD_LINES)
    move = last_move(g)
    move_text = ""
    if move is not None:
        move_text = wrap(word("last_move", lang, who=g.players[move.who].name, src=g.field_name(move.src, lang),
                              dst=g.field_name(move.dst, lang)), 64, 2)
    head = {"x": [SIDE / 2], "y": [CENTRE_Y["pot"]], "text": [pot]}
    lines = {"x": [SIDE / 2] * 5, "y": [CENTRE_Y[k] for k in ("roll", "card_title", "card", "move", "status")],
             "text": [caption, title, text, move_text, wrap(model.status(), 64, 2)]}
    faces = {"x": list(DICE_X), "y": [DICE_Y] * 2, "alpha": [0.0 if roll is None else 0.35 if faded else 1.0] * 2}
    points, arrow = move_marks(g)
    path = {"x": [p[0] for p in points], "y": [p[1] for p in points]}
    hx, hy, angle = arrow or (0.0, 0.0, 0.0)
    picked = {"x": [SIDE / 2], "y": [CENTRE_Y["picked"]], "text": [picked_text(model)]}
    return {
        "head": head, "lines": lines, "faces": faces, "pips": dice_pips(*dice), "picked": picked,
        "card_box": {"alpha": [1.0 if card is not None else 0.0]},
        "path": path, "arrow": {"x": [hx], "y": [hy], "angle": [angle], "alpha": [1.0 if arrow else 0.0]},
    }


# ---------------------------------------------------------------- the figure

#: The page's script that keeps every registered text and marker size in proportion to the board's width, and draws
#: a narrow board for its size: each item's narrow size (0 hides it), and each switching text's narrow column.
SCALE_JS = """
const w = fig.inner_width;
const narrow = w > 0 && w < narrow_below;
const s = Math.max(0.3, Math.min(2.0, w / base));
const n = Math.max(0.7, Math.min(1.4, w / narrow_base));
for (const [glyph, prop, size, small, least] of items) {
    const v = narrow && small !== null ? Math.max(small * n, least) : size * s;
    glyph[prop] = prop.endsWith("font_size") ? {value: `${v.toFixed(2)}px`} : {value: v};
}
for (const [glyph, wide, small] of texts) {
    const field = narrow ? small : wide;
    if (glyph.text.field !== field) glyph.text = {field: field};
}
"""


class BoardFigure:
    """One Bokeh figure of the board, refreshed in place from the model.

    The figure is the largest part of a new page, and a class opening the
    dashboard at once makes the server build one per student, so its layers are
    made as plain renderers: no axes or grid, and no faded copies of the glyphs
    for unselected fields (every layer but the cells keeps its look whatever is
    selected).  Bokeh's glyph methods would make and then drop such copies.
    """

    def __init__(self, model: GameModel, projector: bool = False, whole: bool = True) -> None:
        """The board of ``model``; with ``whole=False`` only its fields' layers, until :meth:`finish` (a served page's pieces)."""
        #: A projector's board: fields' short names in large type (:data:`PROJECTOR_NAME_SIZE`), read from the back of a room.
        self.projector = projector
        self.model = model
        self.cells = ColumnDataSource(board_data(model))
        self.buildings = ColumnDataSource(buildings_data(model))
        self.mortgages = ColumnDataSource(mortgage_data(model))
        self.tokens = ColumnDataSource(token_data(model))
        centre = centre_data(model)
        self.centre = {k: ColumnDataSource(v) for k, v in centre.items()}
        fig = figure(width=BASE_WIDTH, height=BASE_WIDTH, x_range=(0, SIDE), y_range=(0, SIDE), tools="",
                     x_axis_type=None, y_axis_type=None, toolbar_location=None, sizing_mode="scale_width",
                     aspect_ratio=1, max_width=760, min_width=240,
                     align="start")  # a row stretches its children to its height; the board stays square
        fig.outline_line_color = None
        fig.min_border = 0
        self._scaled: list[tuple[Any, str, float, float | None, float]] = []
        self._switched: list[tuple[Any, str, str]] = []
        self._draw_cells(fig)
        self.figure = fig
        self.finished = False
        if whole:
            self.finish()

    def finish(self) -> None:
        """Draw the middle of the board and the tokens, and keep the sizes in proportion to the board (once)."""
        if self.finished:
            return
        self.finished = True
        fig = self.figure
        self._draw_centre(fig)
        fig.js_on_change("inner_width", CustomJS(args={"fig": fig, "base": BASE_WIDTH, "items": self._scaled,
                                                       "texts": self._switched, "narrow_below": NARROW_BELOW,
                                                       "narrow_base": NARROW_WIDTH}, code=SCALE_JS))
        self.cells.selected.on_change("indices", self._on_tap)
        self.refresh()

    @staticmethod
    def _layer(fig: Any, source: ColumnDataSource, glyph: Any, rows: list[int] | None = None) -> GlyphRenderer:
        """Add ``glyph`` drawn from ``source`` (only its ``rows``, if given) as a layer that looks the same whichever field is selected."""
        renderer = GlyphRenderer(data_source=source, glyph=glyph, selection_glyph=glyph, nonselection_glyph=glyph)
        if rows is not None:
            renderer.view = CDSView(filter=IndexFilter(rows))
        fig.renderers.append(renderer)
        return renderer

    def _scale(self, renderer: GlyphRenderer, prop: str, size: float, narrow: float | None = None,
               least: float = 0.0) -> GlyphRenderer:
        """Keep ``renderer``'s ``prop`` at ``size`` pixels on a board :data:`BASE_WIDTH` wide, in proportion otherwise.

        On a narrow board (below :data:`NARROW_BELOW`) it is ``narrow`` pixels at :data:`NARROW_WIDTH` instead, when
        given (0 hides the layer there), and never less than ``least`` (text that has room to stay legible).
        """
        renderer.glyph.update(**{prop: f"{size}px" if prop.endswith("font_size") else size})
        self._scaled.append((renderer.glyph, prop, size, narrow, least))
        return renderer

    def _draw_cells(self, fig: Any) -> None:
        src, layer = self.cells, self._layer
        plain = Rect(x="x", y="y", width=1, height=1, fill_color="fill", line_color="#555555")
        cells = GlyphRenderer(data_source=src, glyph=plain, nonselection_glyph=plain,
                              selection_glyph=Rect(x="x", y="y", width=1, height=1, fill_color=SELECTED_FILL,
                                                   line_color="#555555", line_width=2))
        fig.renderers.append(cells)
        layer(fig, self.mortgages, Rect(x="x", y="y", width=1, height=1, fill_color="#bdbdbd", fill_alpha=0.45, line_alpha=0,
                                        hatch_pattern="/", hatch_color="#8a8a8a", hatch_alpha=0.45, hatch_scale=10,
                                        hatch_weight=1.2))
        layer(fig, src, Rect(x="x", y="band_y", width=1, height=BAND_H, fill_color="band", fill_alpha="band_alpha",
                             line_color="#555555", line_alpha="band_alpha"))
        label, size = ("short", PROJECTOR_NAME_SIZE) if self.projector else ("label", NAME_SIZE)
        names = self._scale(layer(fig, src, Text(x="x", y="label_y", text=label, text_align="center", text_baseline="middle",
                                                 text_line_height=1.0, text_color=NAME_COLOR)), "text_font_size", size, 12.0, 10.0)
        self._switched.append((names.glyph, label, "number"))  # a narrow board numbers its fields
        self._scale(layer(fig, src, Text(x="x", y="price_y", text="price", text_alpha="price_alpha", text_align="center",
                                         text_baseline="middle", text_color=PRICE_COLOR)), "text_font_size", 8.0, 0.0)
        layer(fig, self.buildings, Patches(xs="xs", ys="ys", fill_color="color", line_color="#ffffff", line_width=0.8))
        self._scale(layer(fig, src, Text(x="x", y="price_y", text="mortgaged", text_align="center", text_baseline="middle",
                                         text_color=MORTGAGE_COLOR, text_font_style="bold", background_fill_color="#ffffff",
                                         background_fill_alpha="mortgage_alpha", border_line_color=MORTGAGE_COLOR,
                                         border_line_alpha="mortgage_alpha", padding=2)), "text_font_size", 8.0, 0.0)
        layer(fig, src, Rect(x="x", y="owner_y", width=1, height=OWNER_H, fill_color="owner_color", fill_alpha="owner_alpha",
                             line_color="#333333", line_alpha="owner_alpha"))
        self._scale(layer(fig, src, Scatter(x="owner_x", y="owner_y", marker="owner_marker", fill_color="#ffffff",
                                            line_color="#000000", fill_alpha="owner_alpha", line_alpha="owner_alpha")),
                    "size", 9.0, 7.0)
        self._scale(layer(fig, src, Text(x="owner_label_x", y="owner_y", text="owner_label", text_color="owner_text",
                                         text_align="center", text_baseline="middle", text_font_style="bold")),
                    "text_font_size", 8.0, 0.0)
        layer(fig, src, Rect(x="x", y="y", width=0.94, height=0.94, fill_alpha=0, line_color="#111111", line_width=2.5,
                             line_dash="dashed", line_alpha="from_alpha"))
        layer(fig, src, Rect(x="x", y="y", width=0.94, height=0.94, fill_alpha=0, line_color="#111111", line_width=4,
                             line_alpha="to_alpha"))
        self._tapped = cells
        fig.add_tools(TapTool(renderers=[cells]), HoverTool(renderers=[cells], tooltips=[("", "@name"), ("", "@tip")]))

    def _draw_centre(self, fig: Any) -> None:
        c, layer = self.centre, self._layer
        layer(fig, c["path"], Line(x="x", y="y", line_color="#333333", line_width=3, line_alpha=0.75))
        self._scale(layer(fig, c["arrow"], Scatter(x="x", y="y", marker="triangle", angle="angle", fill_color="#333333",
                                                   line_color="#333333", fill_alpha="alpha", line_alpha="alpha")),
                    "size", 14.0, 10.0)
        tokens = self._scale(layer(fig, self.tokens, Scatter(x="x", y="y", marker="marker", fill_color="color",
                                                             line_color="#000000", line_width="line_width")), "size", 20.0, 14.0)
        fig.add_tools(HoverTool(renderers=[tokens], tooltips=[("", "@name")]))
        self._scale(layer(fig, c["head"], Text(x="x", y="y", text="text", text_align="center", text_baseline="middle",
                                               text_font_style="bold", text_color="#222222")), "text_font_size", 16.0, 14.0, 11.0)
        layer(fig, c["faces"], Rect(x="x", y="y", width=DIE_SIZE, height=DIE_SIZE, fill_color="#ffffff", line_color="#222222",
                                    line_width=2, fill_alpha="alpha", line_alpha="alpha", border_radius=6))
        layer(fig, c["pips"], Circle(x="x", y="y", radius=0.085, fill_color="#222222", fill_alpha="alpha", line_color=None))
        layer(fig, c["card_box"], Rect(x=CARD_BOX["x"], y=CARD_BOX["y"], width=CARD_BOX["width"], height=CARD_BOX["height"],
                                       fill_color="#fff8e1", line_color="#b08900", line_width=2, fill_alpha="alpha",
                                       line_alpha="alpha", border_radius=8))
        # the roll, the card's title and the card; then the last move and the status, which a narrow board leaves out
        # (the move is drawn on the board, the status heads the page) for the tapped field's card
        for rows, narrow in (([0, 1, 2], 10.5), ([3, 4], 0.0)):
            self._scale(layer(fig, c["lines"], Text(x="x", y="y", text="text", text_align="center", text_baseline="middle",
                                                    text_line_height=1.25, text_color="#222222"), rows), "text_font_size", 13.0, narrow)
        self._scale(layer(fig, c["picked"], Text(x="x", y="y", text="text", text_align="center", text_baseline="middle",
                                                 text_line_height=1.25, text_color="#111111", text_font_style="bold")),
                    "text_font_size", 0.0, 11.5, 11.0)

    def _on_tap(self, attr: str, old: list[int], new: list[int]) -> None:
        self.model.selected_field = new[0] if new else -1

    def show_selected(self) -> None:
        """Write the selected field's card in the middle (a narrow board shows it there)."""
        _update(self.centre["picked"], {"text": [picked_text(self.model)]})

    def refresh(self, heat: list[float] | None = None, odds: tuple[list[str], list[str]] | None = None) -> None:
        """Redraw from the model (cells, buildings, tokens, the middle), sending only what changed."""
        _update(self.cells, board_data(self.model, heat, odds))
        _update(self.buildings, buildings_data(self.model))
        _update(self.mortgages, mortgage_data(self.model))
        _update(self.tokens, token_data(self.model))
        for key, data in centre_data(self.model).items():
            _update(self.centre[key], data)


def _update(source: ColumnDataSource, data: dict[str, list[Any]]) -> None:
    """Send only the columns that changed: a step usually moves a token and a few owners, not the whole board.

    When the number of rows changes (a player leaves, a house is built, a longer path), every column is sent,
    in one message.
    """
    old = source.data
    if not set(data) <= set(old):
        source.data = {**old, **data}
        return
    if any(len(v) != len(old[k]) for k, v in data.items()):
        source.data.update(data)
        return
    changed = {k: v for k, v in data.items() if list(old[k]) != v}
    if changed:
        source.data.update(changed)
