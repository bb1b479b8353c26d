"""The Replay tab: scrub through a game's history with the board, the player cards, the log and the cash chart.

A step is a number of the game's saved actions.  The game shown at step ``k``
is the game's setup with its first ``k`` actions pushed again through the
engine's trusted path (they were checked when they were played): no state is
stored per step, so a long game costs memory only while it is being looked at.
Moving forward pushes the actions in between; moving back replays from the
start.  "Jump to" lists the moments a lesson asks about (a purchase, prison, a
pot won, a player out) with the step that follows each.  The position at the
step downloads as a position file, to play on from it in a new game.
"""

from __future__ import annotations

import io
from typing import Any

import panel as pn
import param

from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.position_format import position_of
from laspoly.position_files import dumps_position
from laspoly.record import new_game_from_setup
from laspoly.server.table import LocalTable
from laspoly.ui import inputs
from laspoly.ui.board import BoardFigure
from laspoly.ui.common import BUTTON_CSS, TabView, esc, words
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel, cash_by_turn
from laspoly.ui.standings import PlayerCardsView, cash_chart, cash_chart_data
from laspoly.ui.views import LogView

#: The widest the replay's board grows (px): at the top of the tab it then ends above the bottom of a 1280 x 720
#: window, so its bottom row is in view; a narrower row makes it narrower still, and it stays square.
BOARD_MAX = 600

#: The events "Jump to" offers, and how each is told.
MOMENTS: tuple[type[E.Event], ...] = (E.Bought, E.SentToPrison, E.Eliminated, E.GameOver, E.TradeAccepted, E.Built)


def moments(game: Game, lang: str) -> list[tuple[str, int]]:
    """The game's notable events as ``(words, step)``: the step right after the action that caused each."""
    shadow = new_game_from_setup(game.setup)
    out: list[tuple[str, int]] = []
    seen = 0

    def note(step: int) -> None:
        nonlocal seen
        for event in shadow.log[seen:]:
            if isinstance(event, MOMENTS):
                out.append((f"{step}: {shadow.describe(event, lang)}", step))
        seen = len(shadow.log)

    note(0)
    for k, action in enumerate(game.history, 1):
        shadow.push(action)
        note(k)
    return out


class ReplayView(TabView):
    """A slider over the game's actions, and the table as it stood at the chosen step."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        #: The game at the chosen step, in a model of its own, drawn by the same views as the Play tab.
        self.past = GameModel(game=new_game_from_setup(m.game.setup), seats=list(m.seats), lang=m.lang)
        self.at = 0
        self._setup = m.game.setup
        self._total = 0
        self.step = inputs.IntSlider(start=0, end=max(1, len(m.game.history)), value=0, sizing_mode="stretch_width")
        self.back = pn.widgets.Button(label="◀", width=50, stylesheets=[BUTTON_CSS])
        self.forward = pn.widgets.Button(label="▶", width=50, stylesheets=[BUTTON_CSS])
        self.jump = pn.widgets.Select(width=420)
        self.head = pn.pane.HTML(sizing_mode="stretch_width")
        self.board = BoardFigure(self.past)
        self.board.figure.max_width = BOARD_MAX  # the figure's own bound, which its pane's cannot lift
        self.cards = PlayerCardsView(model=self.past)
        self.log = LogView(model=self.past)
        chart, self.source = cash_chart("", "turn", "cash")
        self.chart = chart
        self.download = pn.widgets.FileDownload(callback=self._position_file, filename="laspoly-position.json", width=240)
        self.step.param.watch(lambda e: self.show(e.new), "value_throttled")
        self.back.on_click(lambda _: self._nudge(-1))
        self.forward.on_click(lambda _: self._nudge(1))
        self.jump.param.watch(lambda e: self._jump(e.new), "value")
        m.param.watch(self.changed, ["version"])
        m.param.watch(lambda *_: self.refresh(), ["lang"])
        self.refresh()

    # ------------------------------------------------------------ moving through the history

    def show(self, step: int) -> None:
        """Put the game as it stood after ``step`` actions on the replay's table."""
        history = self.model.game.history
        step = max(0, min(step, len(history)))
        game = self.past.game
        if step < self.at or self._setup is not self.model.game.setup:  # back, or another game: replay from the start
            self._setup = self.model.game.setup
            game, self.at = new_game_from_setup(self._setup), 0
        for action in history[self.at:step]:
            game.push(action)
        self.at = step
        self.past.table = LocalTable(game, list(self.model.seats))
        self.past.cash_history = cash_by_turn(game)
        self.past.lang = self.model.lang
        if self.step.value != step:
            self.step.value = step
        self._draw()

    def _nudge(self, by: int) -> None:
        self.show(self.at + by)

    def _jump(self, step: Any) -> None:
        if isinstance(step, int) and step >= 0:
            self.show(step)

    def _draw(self) -> None:
        lang, g = self.model.lang, self.past.game
        total = len(self.model.game.history)
        self.head.object = (f"<p style='font-size:1.1em;margin:4px 0'><b>{esc(tr('replay.step', lang, step=self.at, total=total))}</b>"
                            f" · {esc(tr('replay.round', lang, round=g.round))}</p>")
        self.source.data = cash_chart_data(self.past)
        self.past.redraw()
        self.board.refresh()

    def refresh(self) -> None:
        """The live game changed (or the language): the slider reaches its new end; a finished game's replay stays put."""
        lang = self.model.lang
        total = len(self.model.game.history)
        self.step.param.update(end=max(1, total), label=tr("replay.slider", lang))
        self.jump.param.update(label=tr("replay.jump", lang),
                               options={tr("replay.choose", lang): -1, **dict(moments(self.model.game, lang))}, value=-1)
        self.download.label = tr("replay.download", lang)
        words(self.chart, tr("replay.cash", lang), tr("players.turn_axis", lang), tr("players.cash_axis", lang))
        following = self.at == self._total or self._setup is not self.model.game.setup  # at the end: stay there
        self._total = total
        self.show(total if following else self.at)

    def _position_file(self) -> io.BytesIO:
        return io.BytesIO(dumps_position(position_of(self.past.game, seats=list(self.model.seats))).encode("utf-8"))

    def __panel__(self) -> pn.viewable.Viewable:
        # the board first, at the top of the tab, with the step, the slider, "Jump to", the cards and the log beside it:
        # below them it started some 140 px lower, and its bottom row fell out of a laptop's window
        side = pn.Column(self.head, pn.Row(self.back, self.step, self.forward, sizing_mode="stretch_width"),
                         pn.FlexBox(self.jump, self.download, flex_wrap="wrap"), self.cards, self.log,
                         sizing_mode="stretch_width", min_width=300)
        return pn.Column(
            pn.Row(pn.pane.Bokeh(self.board.figure, sizing_mode="scale_width", max_width=BOARD_MAX, min_width=280), side,
                   sizing_mode="stretch_width"),
            pn.pane.Bokeh(self.chart, sizing_mode="stretch_width"), sizing_mode="stretch_width",
        )
