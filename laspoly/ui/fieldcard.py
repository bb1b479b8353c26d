"""The clicked field's card over the board, beside the field that was clicked or tapped.

A click on the board (or a property chosen in the list) selects a field; its
card (:class:`~laspoly.ui.views.CardView`: price, rents, building costs, owner)
opens over the board, on the board's inner side of the field, so it shows where
the person is looking.  "Close" (or a click on another field) puts it away.  A
phone's narrow board writes the tapped field's card in its own middle instead
(:func:`~laspoly.ui.board.picked_text`), so there the card stays hidden.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.ui.board import SIDE, cell_xy
from laspoly.ui.common import BUTTON_CSS, NOT_ON_PHONES, assign
from laspoly.ui.model import GameModel
from laspoly.ui.views import CardView

#: The card's width as a share of the board's (in percent), and the height it is placed for (it may be shorter).
CARD_WIDTH, CARD_HEIGHT = 44.0, 50.0
#: The ring of fields as a share of the board: the card stays inside it, clear of the fields' row it was opened from.
RING = 100.0 / SIDE
#: The card's look: a white sheet with a shadow over the board, scrolling inside when the board is small.
CARD_STYLES = {"position": "absolute", "z-index": "5", "background": "#ffffff", "border": "2px solid #333333",
               "border-radius": "8px", "box-shadow": "0 4px 14px rgba(0,0,0,0.35)", "padding": "2px 8px",
               "max-height": f"{100 - 2 * RING:.1f}%", "overflow": "auto", "box-sizing": "border-box",
               "width": f"{CARD_WIDTH:.0f}%"}


def card_place(field: int, size: int = 40) -> dict[str, str]:
    """Where the card of ``field`` opens over the board, as CSS offsets in percent of the board's square.

    On a side of the board the card touches the inner edge of the field's row and
    is centred on the field along it (kept inside the ring); from a corner it opens
    towards the middle.  So it never covers the field that was clicked.
    """
    x, y = cell_xy(field, size)
    left = 100.0 * x / SIDE  # the field's centre, from the board's left and top
    top = 100.0 * (SIDE - y) / SIDE
    inner_left, inner_top = RING, RING
    max_left, max_top = 100.0 - RING - CARD_WIDTH, 100.0 - RING - CARD_HEIGHT
    place = {"top": "auto", "bottom": "auto", "left": "auto", "right": "auto"}  # every side set: a new place drops the old
    if y < 1:  # the bottom row: above it
        place["bottom"] = f"{RING:.2f}%"
    elif y > SIDE - 1:  # the top row: below it
        place["top"] = f"{RING:.2f}%"
    else:  # the left or right column: beside it, centred on it
        place["top"] = f"{min(max(top - CARD_HEIGHT / 2, inner_top), max_top):.2f}%"
    if x < 1:  # the left column: to its right
        place["left"] = f"{RING:.2f}%"
    elif x > SIDE - 1:  # the right column: to its left
        place["right"] = f"{RING:.2f}%"
    else:
        place["left"] = f"{min(max(left - CARD_WIDTH / 2, inner_left), max_left):.2f}%"
    return place


class FieldCardView(Viewer):
    """The selected field's card, over the board beside the field; hidden while no field is selected."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.card = CardView(model=m)
        self.close = pn.widgets.Button(label=m.t("field.close"), stylesheets=[BUTTON_CSS], align="end", margin=(4, 0, 0, 0))
        self.close.on_click(lambda _: setattr(m, "selected_field", -1))
        self.panel = pn.Column(self.close, self.card.pane, css_classes=["lp-field-card"], stylesheets=[NOT_ON_PHONES],
                               styles=CARD_STYLES, visible=False)
        m.param.watch(lambda *_: self.refresh(), ["selected_field", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Open the card beside the selected field, or put it away."""
        m = self.model
        field = m.selected_field
        assign(self.close, label=m.t("field.close"))
        if not 0 <= field < len(m.game.fields):
            assign(self.panel, visible=False)
            return
        assign(self.panel, styles={**CARD_STYLES, **card_place(field, len(m.game.fields))}, visible=True)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel
