"""The whole dashboard: board, controls, players, probability lab, rules, set-up and files.

``Dashboard(model)`` is a ``Viewer``: it renders inline in Jupyter and in
``panel serve apps/laspoly_app.py``.  Every session builds its own model, so two
browsers never share a game.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.ui.board import BoardFigure
from laspoly.ui.model import GameModel
from laspoly.ui.views import CardView, ControlsView, FilesView, LogView, PlayersView, ProbabilityView, RulesView, SetupView

CSS = """
.lp-players th, .lp-players td { padding: 3px 6px; border-bottom: 1px solid #ddd; text-align: left; }
button:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }
"""


class Dashboard(Viewer):
    """Las Poly in the browser or a notebook: play, watch and explore."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, model: GameModel | None = None, **params: Any) -> None:
        super().__init__(model=model or GameModel(), **params)
        m = self.model
        self.board = BoardFigure(m)
        self.controls = ControlsView(model=m)
        self.players = PlayersView(model=m)
        self.card = CardView(model=m)
        self.log = LogView(model=m)
        self.probability = ProbabilityView(model=m, board=self.board)
        self.rules = RulesView(model=m)
        self.setup = SetupView(model=m)
        self.files = FilesView(model=m)
        self.lang = pn.widgets.RadioButtonGroup(options={"English": "en", "Español": "es"}, value=m.lang, width=200)
        self.lang.param.watch(lambda e: setattr(m, "lang", e.new), "value")
        m.param.watch(lambda e: setattr(self.lang, "value", e.new), "lang")
        m.param.watch(lambda *_: self.board.refresh() if not self.probability.heat else None, ["version", "lang"])
        self.tabs = pn.Tabs(
            ("Play", pn.Row(pn.pane.Bokeh(self.board.figure, sizing_mode="scale_width", max_width=760, min_width=320),
                            pn.Column(self.controls, self.card, self.log, sizing_mode="stretch_width", min_width=360),
                            sizing_mode="stretch_width")),
            ("Players", self.players),
            ("Probability", self.probability),
            ("Rules", self.rules),
            ("New game", self.setup),
            ("Save and load", self.files),
            dynamic=False, sizing_mode="stretch_width",
        )
        self.layout = pn.Column(
            pn.Row(pn.pane.HTML("<h2 style='margin:4px 0'>Las Poly</h2>"), pn.HSpacer(), self.lang),
            self.tabs, sizing_mode="stretch_width", stylesheets=[CSS],
        )

    def close(self) -> None:
        """Stop this session's timers (called when the browser session ends)."""
        self.controls.stop_timer()

    def __panel__(self) -> pn.viewable.Viewable:
        return self.layout


def build_app() -> Dashboard:
    """A fresh dashboard with a fresh game, for one browser session."""
    dashboard = Dashboard(GameModel())
    if pn.state.curdoc is not None:
        pn.state.on_session_destroyed(lambda _ctx: dashboard.close())
    return dashboard
