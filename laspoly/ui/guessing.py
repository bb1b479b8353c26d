"""Predict, then roll, on the Play tab: the guess before each roll, the scores, and the law of large numbers live.

With the switch on, a person's "Roll" is off until a guess of the total is
clicked (the buttons 2 to 12 under Roll, :mod:`laspoly.ui.controls`).  The
guess is kept beside its roll (:mod:`laspoly.predict`), in the room's database when the game is shared, so every screen shows the same scores.
Below: every player's right guesses, the table's totals against two dice, and
the distance between them after each roll, which shrinks as the rolls add up.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from bokeh.models import ColumnDataSource
from bokeh.plotting import figure
from panel.viewable import Viewer

from laspoly.analysis import log as gamelog
from laspoly.predict import TWO_DICE, Guess, running_distance, scores
from laspoly.ui.common import FOCUS_CSS, assign, esc, player_badge
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel


def scores_html(m: GameModel, guesses: list[Guess]) -> str:
    """The last guess and every player's right guesses, as safe HTML (the Play tab and the projector)."""
    lang, g = m.lang, m.game
    rows = "".join(f"<tr><td>{player_badge(m, i)}</td><td style='text-align:right'>{right}</td><td style='text-align:right'>{made}</td></tr>"
                   for i, (right, made) in enumerate(scores(guesses, len(g.players))))
    last = ""
    if guesses:
        x = guesses[-1]
        last = f"<p style='margin:2px 0'>{esc(tr('predict.last', lang, name=g.players[x.player].name, guess=x.guess, total=x.total))}</p>"
    return (f"{last}<table class='lp-players'><tr><th>{esc(tr('predict.player', lang))}</th>"
            f"<th>{esc(tr('predict.right', lang))}</th><th>{esc(tr('predict.made', lang))}</th></tr>{rows}</table>")


class GuessView(Viewer):
    """The switch, the prompt, the scores and the two charts of predict-then-roll (the guess buttons sit under Roll).

    Only the switch and its label are made with the page; the rest (two charts
    among it) is made the first time the switch is on, and while it is off a
    step's redraw leaves this view alone.  The switch's row (:attr:`switch_row`)
    sits with the turn's controls; the rest (:attr:`panel`) further down the tab.
    """

    model = param.ClassSelector(class_=GameModel)
    # made the first time the switch is on
    prompt: pn.pane.HTML
    table: pn.pane.HTML
    totals: ColumnDataSource
    totals_fig: Any
    gap: ColumnDataSource
    gap_fig: Any
    body: pn.Column

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.switch = pn.widgets.Switch(value=m.predict, width=50, css_classes=["lp-predict-switch"], stylesheets=[FOCUS_CSS])
        self.switch_label = pn.pane.HTML(margin=(8, 4), css_classes=["lp-switch-label"])  # names the switch, and toggles it
        self.switch_row = pn.Row(self.switch, self.switch_label, margin=0)
        self.panel = pn.Column(sizing_mode="stretch_width", margin=0)
        self.switch.param.watch(lambda e: setattr(m, "predict", e.new), "value")
        m.param.watch(lambda *_: self.refresh(), ["lang", "predict"])
        m.param.watch(lambda *_: self.refresh() if m.predict else None, ["version", "guess"])
        self.refresh()

    @property
    def is_built(self) -> bool:
        """Whether the prompt, the scores and the charts have been made (the switch was on at least once)."""
        return "body" in self.__dict__

    def _build(self) -> None:
        self.prompt = pn.pane.HTML(sizing_mode="stretch_width", min_height=24)
        self.table = pn.pane.HTML(sizing_mode="stretch_width")
        self.totals = ColumnDataSource({"total": list(range(2, 13)), "share": [0.0] * 11, "exact": list(TWO_DICE)})
        self.totals_fig = figure(height=180, sizing_mode="stretch_width", toolbar_location=None)
        self.totals_fig.vbar("total", top="share", width=0.8, source=self.totals, fill_color="#56B4E9")
        self.totals_fig.line("total", "exact", source=self.totals, line_color="#D55E00", line_width=3)
        self.gap = ColumnDataSource({"rolls": [], "distance": []})
        self.gap_fig = figure(height=160, sizing_mode="stretch_width", toolbar_location=None, y_range=(0, 1))
        self.gap_fig.line("rolls", "distance", source=self.gap, line_color="#009E73", line_width=2)
        self.body = pn.Column(self.prompt, self.table, pn.pane.Bokeh(self.totals_fig, sizing_mode="stretch_width"),
                              pn.pane.Bokeh(self.gap_fig, sizing_mode="stretch_width"), sizing_mode="stretch_width")
        self.panel.append(self.body)

    def refresh(self) -> None:
        """Show the prompt, the scores and the charts as the game stands."""
        m, lang = self.model, self.model.lang
        g = m.game
        assign(self.switch, value=m.predict)
        assign(self.switch_label, object=f"<b>{esc(tr('predict.switch', lang))}</b>")
        if not m.predict:
            if self.is_built:
                self.body.visible = False
            return
        if not self.is_built:
            self._build()
        self.body.visible = True
        who = g.current
        # a person's guess is asked for, and said back, by the turn's header beside Roll; a bot's turn is said here
        waiting = not m.is_person(who) and not g.is_over
        self.prompt.object = f"<p style='margin:2px 0'>{esc(tr('predict.wait', lang))}</p>" if waiting else ""
        self.table.object = scores_html(m, m.guesses())
        totals = gamelog.roll_totals(g)
        counts = gamelog.count_totals(totals)
        n = len(totals)
        self.totals.data = {"total": list(range(2, 13)), "share": [c / n if n else 0.0 for c in counts], "exact": list(TWO_DICE)}
        distance = running_distance(totals)
        self.gap.data = {"rolls": list(range(1, n + 1)), "distance": distance}
        self.totals_fig.title.text = trn("predict.totals_chart", n, lang)
        self.gap_fig.title.text = tr("predict.distance_chart", lang)
        self.gap_fig.xaxis.axis_label, self.gap_fig.yaxis.axis_label = tr("predict.rolls", lang), tr("predict.distance", lang)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel
