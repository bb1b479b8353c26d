"""The projector's view of a room: the game as a class sees it on the wall, with nothing to click.

A room's watch link (``?room=ID&view=TOKEN``) opens this page instead of the
dashboard.  It shows a big board, a card per player, this turn (whose it is,
the dice, the last move, the card drawn, the pot) and the log, in large type,
and no control at all: the spectator cannot act, so nothing on the page looks
as if it could.  It follows the room as the players move, by polling the
store like every page of a room.  The board and the player cards are the
Play tab's own views, set larger.
"""

from __future__ import annotations

import logging
from typing import Any

import panel as pn
import param
from bokeh.models import TapTool
from panel.viewable import Viewer

from laspoly.errors import LaspolyError
from laspoly.ui.board import BoardFigure, centre_data
from laspoly.ui.common import LiveHTML, assign, esc, is_served
from laspoly.ui.guessing import scores_html
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel
from laspoly.ui.standings import PlayerCardsView
from laspoly.ui.timers import Timer
from laspoly.ui.views import LogView

#: How often the page asks the store for the players' moves, in milliseconds (as the dashboard's own poll).
POLL_MS = 500

#: Large type for a room at the back of a classroom: every pane of the page starts from 20 px (Panel's own is 12).
BASE_CSS = ":host { font-size: 20px; }"
PAGE_CSS = BASE_CSS + """
.lp-projector-head { font-size: 1.8em; font-weight: 700; margin: 2px 0; line-height: 1.2; overflow-wrap: anywhere; }
.lp-projector-title { font-size: 0.55em; font-weight: 400; color: #444; margin-right: 0.6em; }
"""
TURN_CSS = BASE_CSS + """
.lp-turn { font-size: 1.25em; line-height: 1.35; overflow-wrap: anywhere; }
.lp-turn div { margin: 2px 0; }
.lp-turn-pot { font-weight: 700; font-size: 1.15em; }
.lp-turn-card { border: 2px solid #b08900; background: #fff8e1; border-radius: 8px; padding: 4px 8px; }
.lp-turn-note { color: #7a0000; font-weight: 700; }
"""
CARDS_CSS = BASE_CSS + """
.lp-cards { font-size: 1.25em; row-gap: 18px; margin-top: 16px; }
.lp-card { flex: 1 1 200px; max-width: none; }
"""
#: The height the page keeps above and below its board (the heading, margins): the board is as tall as the rest.
HEADROOM = 110
#: The side column's least width (the cards, this turn, the log) and the gap beside the board, in pixels.
SIDE_WIDTH, GAP = 420, 16


def board_width(width: int, height: int) -> float:
    """How wide the board is drawn on a projector's screen of ``width`` x ``height`` CSS pixels (at least).

    The board is as wide as the screen's height allows (less :data:`HEADROOM`), and leaves the side column its
    least width, less a few pixels of the page's margins; the field names' size follows from it
    (:func:`~laspoly.ui.board.name_size`).
    """
    margins = 20
    return float(min(height - HEADROOM, width - SIDE_WIDTH - GAP - margins)) - margins
LOG_CSS = BASE_CSS + ".lp-log { font-size: 1.2em !important; line-height: 1.35; }"
HEADING = "<h3 style='font-size:1.4em;margin:6px 0 2px 0'>{text}</h3>"


def this_turn_html(model: GameModel) -> str:
    """This turn in words, as safe HTML: the pot, the roll, the card drawn, the last move, and any notice of the page."""
    centre = centre_data(model)
    pot = centre["head"]["text"][0]
    roll, card_title, card_text, move, _status = centre["lines"]["text"]
    rows = []
    if pot:
        rows.append(f"<div class='lp-turn-pot'>{esc(pot)}</div>")
    if roll:
        rows.append(f"<div class='lp-turn-roll'>{esc(roll)}</div>")
    if move:
        rows.append(f"<div class='lp-turn-move'>{esc(move.replace(chr(10), ' '))}</div>")
    if card_title:
        rows.append(f"<div class='lp-turn-card'><b>{esc(card_title)}</b><br>{esc(card_text.replace(chr(10), ' '))}</div>")
    if model.message:
        rows.append(f"<div class='lp-turn-note' role='status'>{esc(model.message)}</div>")
    return f"<div class='lp-turn'>{''.join(rows)}</div>"


class ProjectorView(Viewer):
    """A room shown on a projector: big board, player cards, this turn and the log, following the room live."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, model: GameModel, **params: Any) -> None:
        super().__init__(model=model, **params)
        m = self.model
        if is_served():  # every view's redraw after a catch-up reaches the page as one message
            m.redraw_batch = pn.io.hold
        self.board = BoardFigure(m, projector=True)  # short names in large type, read from the back of the room
        fig = self.board.figure
        fig.tools = [t for t in fig.tools if not isinstance(t, TapTool)]  # nothing to select: no property card here
        fig.max_width = 2000
        self.cards = PlayerCardsView(model=m)
        self.cards.pane.stylesheets = [*self.cards.pane.stylesheets, CARDS_CSS]
        self.log = LogView(model=m)
        self.log.pane.stylesheets = [*self.log.pane.stylesheets, LOG_CSS]
        self.log.pane.height = 320
        self.head = LiveHTML(sizing_mode="stretch_width", stylesheets=[PAGE_CSS])
        self.turn = LiveHTML(sizing_mode="stretch_width", min_height=150, stylesheets=[TURN_CSS])
        self.turn_heading = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[BASE_CSS])
        self.log_heading = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[BASE_CSS])
        self.guesses = LiveHTML(sizing_mode="stretch_width", stylesheets=[CARDS_CSS], visible=False)
        m.param.watch(lambda *_: self.refresh(), ["version", "lang", "message"])
        self.refresh()
        # the board is as wide as the column or the screen's height, whichever is less, so it is seen whole
        board = pn.Column(pn.pane.Bokeh(fig, sizing_mode="scale_width", min_width=300), sizing_mode="stretch_width",
                          styles={"flex": "1 1 560px", "max-width": f"min(100%, calc(100vh - {HEADROOM}px))"})
        side = pn.Column(self.cards, self.guesses, self.turn_heading, self.turn, self.log_heading, self.log.pane,
                         sizing_mode="stretch_width", styles={"flex": f"1 1 {SIDE_WIDTH}px", "min-width": "300px"})
        self.layout = pn.Column(self.head, pn.FlexBox(board, side, flex_wrap="wrap", gap=f"{GAP}px", sizing_mode="stretch_width"),
                                sizing_mode="stretch_width", stylesheets=[PAGE_CSS], css_classes=["lp-projector"])
        self._poller: Timer | None = None
        if is_served():
            self._poller = Timer(self._poll, period=POLL_MS)
            pn.state.on_session_destroyed(lambda _ctx: self.close())

    def refresh(self) -> None:
        """Redraw the board, the header and this turn from the model (the cards and the log redraw themselves)."""
        m = self.model
        self.board.refresh()
        lang = m.lang
        assign(self.head, object=f"<div class='lp-projector-head' role='heading' aria-level='1' aria-live='polite'>"
                                 f"<span class='lp-projector-title'>{esc(tr('projector.title', lang))}</span>"
                                 f"<span class='lp-projector-status'>{esc(m.status())}</span></div>")
        assign(self.turn, object=this_turn_html(m))
        assign(self.turn_heading, object=HEADING.format(text=esc(tr("projector.this_turn", lang))))
        assign(self.log_heading, object=HEADING.format(text=esc(tr("projector.log", lang))))
        guesses = m.guesses()  # predict, then roll: the guesses are stored beside their rolls in the room
        assign(self.guesses, visible=bool(guesses),
               object=HEADING.format(text=esc(tr("predict.switch", lang))) + scores_html(m, guesses) if guesses else "")

    def _poll(self) -> None:
        """Catch up with the players' devices; the projector itself never moves a bot."""
        m = self.model
        try:
            m.sync()
        except LaspolyError as exc:  # the store's errors (a views module never imports the store itself)
            m.message = tr("projector.store_down", m.lang, error=str(exc))
        except Exception:  # a poll must never stop the session's timer
            logging.getLogger("laspoly.server.rooms").exception("polling the room failed")
        else:
            if m.message:
                m.message = ""

    def close(self) -> None:
        """Stop following the room (called when the browser session ends)."""
        if self._poller is not None:
            self._poller.stop()
            self._poller = None

    def __panel__(self) -> pn.viewable.Viewable:
        return self.layout
