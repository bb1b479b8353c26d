"""The board drawn with Bokeh: fields round an 11 x 11 square, owners, buildings, tokens and the middle.

:func:`board_data` turns a model into plain columns (tested without a browser);
:class:`BoardFigure` keeps one Bokeh figure and refreshes its sources in place.
Clicking a field selects it (the property card shows beside the board).
"""

from __future__ import annotations

import math
from typing import Any

from bokeh.models import ColumnDataSource, HoverTool, TapTool
from bokeh.plotting import figure

from laspoly.ui.common import PLAYER_COLORS, PLAYER_MARKERS
from laspoly.ui.model import GameModel

SIDE = 11


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


def _short(name: str, width: int = 11) -> str:
    words, lines, line = name.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines[:3])


def board_data(model: GameModel, heat: list[float] | None = None) -> dict[str, list[Any]]:
    """Columns for the field cells: position, colours, labels, owner, buildings, mortgage mark, heat."""
    g = model.game
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "y", "ox", "oy", "index", "name", "label", "band", "price", "owner_color",
                                                   "owner_alpha", "owner", "buildings", "mortgaged", "fill", "kind")}
    for f in g.fields:
        x, y = cell_xy(f.index, len(g.fields))
        o = g.owner[f.index]
        name = f.label(model.lang)
        cols["x"].append(x)
        cols["y"].append(y)
        cols["ox"].append(x - 0.33)
        cols["oy"].append(y - 0.33)
        cols["index"].append(f.index)
        cols["name"].append(name)
        cols["label"].append(_short(name))
        cols["band"].append(g.board.groups[f.group].color if f.group in g.board.groups else "#ffffff")
        cols["price"].append(g.money(f.price) if f.price else "")
        cols["owner"].append(g.players[o].name if o >= 0 else "")
        cols["owner_color"].append(PLAYER_COLORS[o % len(PLAYER_COLORS)] if o >= 0 else "#ffffff")
        cols["owner_alpha"].append(1.0 if o >= 0 else 0.0)
        lvl = g.level[f.index]
        if g.factory[f.index]:
            b = "factory"
        elif lvl == g.hotel_level:
            b = "hotel"
        elif lvl:
            b = f"{lvl} house{'s' if lvl > 1 else ''}"
        else:
            b = ""
        cols["buildings"].append(b)
        cols["mortgaged"].append("mortgaged" if g.mortgaged[f.index] else "")
        cols["kind"].append(f.kind)
        if heat is not None:
            cols["fill"].append(_heat_color(heat[f.index]))
        else:
            cols["fill"].append("#fdfdf6")
    return cols


def _heat_color(value: float) -> str:
    """A blue (fewer landings than the chain predicts) to orange (more) scale; value is a log ratio."""
    v = max(-1.0, min(1.0, value))
    if v >= 0:
        r, gr, b = 255, int(255 - 90 * v), int(255 - 200 * v)
    else:
        r, gr, b = int(255 + 200 * v), int(255 + 90 * v), 255
    return f"#{r:02x}{gr:02x}{b:02x}"


def token_data(model: GameModel) -> dict[str, list[Any]]:
    """Columns for the players' tokens, spread inside their cell."""
    g = model.game
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "y", "color", "marker", "name")}
    for p in g.players:
        if not p.active:
            continue
        x, y = cell_xy(p.pos, len(g.fields))
        angle = 2 * math.pi * p.index / max(1, len(g.players))
        cols["x"].append(x + 0.22 * math.cos(angle))
        cols["y"].append(y - 0.15 + 0.12 * math.sin(angle))
        cols["color"].append(PLAYER_COLORS[p.index % len(PLAYER_COLORS)])
        cols["marker"].append(PLAYER_MARKERS[p.index % len(PLAYER_MARKERS)])
        cols["name"].append(p.name + (" (in prison)" if p.in_prison else ""))
    return cols


def middle_text(model: GameModel) -> list[str]:
    """The lines in the middle of the board: pot, last dice, last card, whose turn."""
    g = model.game
    lines = []
    if g.rules.pot_payout != "none":
        label = "Casino pot" if g.rules.pot_payout == "casino_doubles" else ("BOTE" if model.lang == "es" else "Pot")
        lines.append(f"{label}: {g.money(g.pot)}")
    if any(g.dice):
        lines.append(f"Dice: {g.dice[0]} + {g.dice[1]} = {sum(g.dice)}")
    if g.last_card is not None:
        deck, card = g.last_card
        lines.append(f"Card: {_short(g.card_text(deck, card, model.lang), 40)}")
    lines.append(model.status())
    return lines


class BoardFigure:
    """One Bokeh figure of the board, refreshed in place from the model."""

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.cells = ColumnDataSource(board_data(model))
        self.tokens = ColumnDataSource(token_data(model))
        self.middle = ColumnDataSource({"x": [SIDE / 2] * 4, "y": [6.8, 6.2, 5.6, 5.0], "text": ["", "", "", ""]})
        fig = figure(width=720, height=720, x_range=(0, SIDE), y_range=(0, SIDE), tools="", toolbar_location=None,
                     match_aspect=True, sizing_mode="scale_width", max_width=760, min_width=320)
        fig.axis.visible = False
        fig.grid.visible = False
        fig.outline_line_color = None
        cells = fig.rect("x", "y", 1, 1, source=self.cells, fill_color="fill", line_color="#444444",
                         selection_fill_color="#ffe680", nonselection_fill_alpha=1.0, selection_line_width=2)
        fig.rect("x", "y", 0.9, 0.9, source=self.cells, fill_alpha=0, line_color="band", line_width=5)  # colour band
        fig.text("x", "y", text="label", source=self.cells, text_font_size="7pt", text_align="center",
                 text_baseline="middle", y_offset=-8)
        fig.text("x", "y", text="price", source=self.cells, text_font_size="7pt", text_align="center", y_offset=22,
                 text_color="#333333")
        fig.text("x", "y", text="buildings", source=self.cells, text_font_size="7pt", text_align="center", y_offset=-28,
                 text_color="#7a0000", text_font_style="bold")
        fig.scatter("ox", "oy", source=self.cells, marker="square", size=10, fill_color="owner_color", line_color="#444444",
                    fill_alpha="owner_alpha", line_alpha="owner_alpha")
        fig.text("x", "y", text="mortgaged", source=self.cells, text_font_size="6pt", text_align="center", y_offset=30,
                 text_color="#b00020")
        fig.scatter("x", "y", source=self.tokens, marker="marker", size=16, fill_color="color", line_color="#000000",
                    line_width=1.5)
        fig.text("x", "y", text="text", source=self.middle, text_font_size="12pt", text_align="center")
        fig.add_tools(TapTool(renderers=[cells]),
                      HoverTool(renderers=[cells], tooltips=[("", "@name"), ("owner", "@owner"), ("", "@buildings @mortgaged")]))
        self.figure = fig
        self.cells.selected.on_change("indices", self._on_tap)
        self.refresh()

    def _on_tap(self, attr: str, old: list[int], new: list[int]) -> None:
        self.model.selected_field = new[0] if new else -1

    def refresh(self, heat: list[float] | None = None) -> None:
        """Redraw from the model (cells, tokens, the middle)."""
        _update(self.cells, board_data(self.model, heat))
        _update(self.tokens, token_data(self.model))
        _update(self.middle, {"text": [*middle_text(self.model), "", "", "", ""][:4]})


def _update(source: ColumnDataSource, data: dict[str, list[Any]]) -> None:
    """Send only the columns that changed: a step usually moves a token and a few owners, not the whole board.

    Columns whose length changes (a different number of players) replace the data whole.
    """
    old = source.data
    if any(len(v) != len(old.get(k, ())) for k, v in data.items()) or not set(data) <= set(old):
        source.data = {**old, **data}
        return
    changed = {k: v for k, v in data.items() if list(old[k]) != v}
    if changed:
        source.data.update(changed)

