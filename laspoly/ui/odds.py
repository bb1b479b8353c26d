"""Live odds in words and colours, for the Play tab: one line of stakes beside a decision, and the board's overlay.

With the lesson switch on (:class:`OddsView`, or ``?lesson=1`` in the page's address), the board colours
every field by the chance that the token of the player to move ends there (this roll, this turn, or the
long run), each field's tooltip gives it as a fraction and a percent, and each decision shows its stakes.

The numbers are :mod:`laspoly.analysis.odds`'s (the exact chain); this module
only says them in the page's language and turns them into the board's colours
and tooltips.  Each line is short enough to sit beside its button.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.analysis.odds import live_odds, show_probability
from laspoly.engine.game import Game
from laspoly.ui.common import FOCUS_CSS, assign, esc
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel
from laspoly.ui.playview import casino_line, money_tenths

#: What the board's overlay shows: where this roll ends, where this turn ends, or the long-run share.
OVERLAY_MODES = ("roll", "turn", "long_run")


def overlay(game: Game, mode: str, lang: str) -> tuple[list[float], list[str]]:
    """Per field: the probability the board colours by, and its tooltip ("5/36 = 13.9%", with the expected rent)."""
    odds = live_odds(game)
    values = {"roll": odds.roll, "turn": odds.turn, "long_run": odds.long_run}[mode]
    probs = [float(values[i]) for i in range(len(game.fields))]
    tips = []
    for i, p in enumerate(probs):
        tip = show_probability(p)
        rent = odds.expected_rent[i]
        if rent is not None and game.owner[i] != odds.player:
            tip += " · " + tr("odds.rent_tip", lang, rent=money_tenths(game, rent))
        tips.append(tip)
    return probs, tips


#: The overlay's darkest colour, for the board's likeliest field: a blue on which the fields' names and grey prices keep
#: 4.5:1 (WCAG AA; 7.8:1 and 5.2:1), as on every lighter step to white.
OVERLAY_TOP = (107, 174, 214)  # #6BAED6


def overlay_colour(p: float, top: float) -> str:
    """A sequential colour for a probability (white for 0, :data:`OVERLAY_TOP` for the board's largest); the text stays readable."""
    t = 0.0 if top <= 0 else min(1.0, p / top) ** 0.7
    r, g, b = (int(255 + (c - 255) * t) for c in OVERLAY_TOP)
    return f"#{r:02x}{g:02x}{b:02x}"


def legend(mode: str, lang: str, player: str) -> str:
    """The overlay's legend in plain words."""
    return tr(f"odds.legend_{mode}", lang, name=player)


def board_overlay(m: GameModel) -> tuple[list[str], list[str]] | None:
    """The board's fills and tooltips for the live odds, or None when the overlay is off (or the game is over)."""
    if not m.odds or m.game.is_over:
        return None
    probs, tips = overlay(m.game, m.odds_mode, m.lang)
    top = max(probs) if probs else 0.0
    return [overlay_colour(p, top) for p in probs], tips


class OddsView(Viewer):
    """The lesson switch, what the overlay shows, and its legend in plain words (with the casino's expected payout).

    Only the switch and its label are made with the page.  The modes and the
    legend are made the first time the switch is on (or the page opens in lesson
    mode), and while it is off a step's redraw leaves this view alone: most pages
    never turn it on, and a class's pages arrive on one server at once.
    """

    model = param.ClassSelector(class_=GameModel)
    mode: pn.widgets.RadioButtonGroup  # made with the legend, the first time the switch is on
    legend: pn.pane.HTML

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.switch = pn.widgets.Switch(value=m.odds, width=50, css_classes=["lp-odds-switch"], stylesheets=[FOCUS_CSS])
        self.label = pn.pane.HTML(margin=(8, 4), css_classes=["lp-switch-label"])  # names the switch, and toggles it
        self.switch_row = pn.Row(self.switch, self.label, margin=0)
        #: The modes and the legend, under the switches (made the first time the switch is on).
        self.details = pn.Column(sizing_mode="stretch_width", margin=0)
        self.panel = pn.Column(self.switch_row, self.details, sizing_mode="stretch_width", margin=0)
        self.switch.param.watch(lambda e: self._set(odds=e.new), "value")
        m.param.watch(lambda *_: self.refresh(), ["lang", "odds", "odds_mode"])
        m.param.watch(lambda *_: self.refresh() if m.odds else None, "version")
        self.refresh()

    @property
    def is_built(self) -> bool:
        """Whether the modes and the legend have been made (the switch was on at least once)."""
        return "mode" in self.__dict__

    def _build(self) -> None:
        m = self.model
        # made with its options, so its value is never outside them (an empty options list reads back as None)
        self.mode = pn.widgets.RadioButtonGroup(options=self._options(m.lang), value=m.odds_mode, color="light",
                                                sizing_mode="stretch_width")
        self.legend = pn.pane.HTML(sizing_mode="stretch_width", min_height=24)
        self.mode.param.watch(lambda e: self._set(odds_mode=e.new) if e.new in OVERLAY_MODES else None, "value")
        self.details.extend([self.mode, self.legend])

    @staticmethod
    def _options(lang: str) -> dict[str, str]:
        return {tr(f"odds.mode_{mode}", lang): mode for mode in OVERLAY_MODES}

    def _set(self, **values: Any) -> None:
        m = self.model
        if any(getattr(m, k) != v for k, v in values.items()):
            with m.redraw_batch():
                m.param.update(**values)
                m.redraw()

    def refresh(self) -> None:
        """The switch, the modes and the legend as the model stands."""
        m, lang = self.model, self.model.lang
        assign(self.switch, value=m.odds)
        assign(self.label, object=f"<b>{esc(tr('odds.switch', lang))}</b>")
        if not m.odds and not self.is_built:
            return
        if not self.is_built:
            self._build()
        options = self._options(lang)
        if self.mode.options != options:
            self.mode.options = options
        assign(self.mode, value=m.odds_mode, visible=m.odds)
        if m.odds and not m.game.is_over:
            who = m.game.players[m.game.current].name
            casino = casino_line(m)
            assign(self.legend, visible=True, object=f"<p style='margin:2px 0'>{esc(legend(m.odds_mode, lang, who))}</p>"
                                                       + (f"<p style='margin:2px 0'>{esc(casino)}</p>" if casino else ""))
        else:
            assign(self.legend, visible=False, object="")

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel
