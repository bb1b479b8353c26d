"""Live odds in words and colours, for the Play tab: one line of stakes beside a decision, and the board's overlay.

With the lesson switch on (:class:`OddsView`, or ``?lesson=1`` in the page's address), the board colours
every field by the chance that the token of the player to move ends there (this roll, this turn, or the
long run), each field's tooltip gives it as a fraction and a percent, and each decision shows its stakes.

The numbers are :mod:`laspoly.analysis.odds`'s (the exact chain); this module
only says them in the page's language and turns them into the board's colours
and tooltips.  Each line is short enough to sit beside its button.
"""

from __future__ import annotations

import math
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.analysis.odds import build_stakes, buy_stakes, casino_stakes, live_odds, prison_stakes, show_probability
from laspoly.engine.game import BUYING, Game
from laspoly.ui.common import FOCUS_CSS, assign, esc
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel

#: What the board's overlay shows: where this roll ends, where this turn ends, or the long-run share.
OVERLAY_MODES = ("roll", "turn", "long_run")


def _rounds(x: float) -> str:
    return "∞" if math.isinf(x) else f"{x:.0f}"


def _opponent(count: float, key: str, lang: str) -> str:
    """A payback in whole opponent turns or rolls ("1 opponent turn", "12 opponent turns", "∞ opponent rolls")."""
    return trn(key, round(count) if math.isfinite(count) else count, lang, n=_rounds(count))


def money_tenths(game: Game, amount: float) -> str:
    """An expected amount of money to a tenth, in the game's currency ("0.4 LPD", "$0.4", "0.4€")."""
    return game.money(0).replace("0", f"{amount:.1f}", 1)


def buy_line(m: GameModel) -> str:
    """The stakes of the purchase on offer: payback in opponent turns and the chance of an early landing."""
    g, lang = m.game, m.lang
    if g.phase != BUYING or g.pending_field < 0:
        return ""
    s = buy_stakes(g, g.pending_field, g.current)
    return tr("odds.buy", lang, turns=_opponent(s.payback_opponent_turns, "odds.opponent_turns", lang), rent=money_tenths(g, s.rent_per_opponent_turn),
              chance=show_probability(s.p_landed_before_next_turn))


def prison_line(m: GameModel) -> str:
    """A prisoner's choice: doubles within the tries left against the fine, and the turns to expect in prison."""
    g, lang = m.game, m.lang
    p = g.players[g.current]
    if not p.in_prison or not g.rolls_due or g.is_over:
        return ""
    s = prison_stakes(g, g.current)
    return tr("odds.prison", lang, tries=trn("odds.tries", s.tries_left, lang), chance=show_probability(s.p_out_by_rolling),
              fine=g.money(s.fine), turns=more_turns(s.expected_turns_in_prison, lang))


def more_turns(turns: float, lang: str) -> str:
    """Turns to expect in prison, to a tenth: "1 more turn", "1.5 more turns"; under one, "less than one more turn"."""
    tenths = round(turns, 1)
    if tenths < 1:
        return tr("odds.under_a_turn", lang)
    return trn("odds.more_turns", tenths, lang, n=f"{tenths:.0f}" if tenths == int(tenths) else f"{tenths:.1f}")


def casino_line(m: GameModel) -> str:
    """The expected payout of the next landing on the pot field, from the pot as it stands."""
    g, lang = m.game, m.lang
    pot = next((f.index for f in g.fields if f.kind == "pot"), None)
    if pot is None or not g.pot:
        return ""
    s = casino_stakes(g, pot)
    return tr("odds.casino", lang, field=g.field_name(pot, lang), share=f"{100 * s.expected_share:.1f}%",
              payout=g.money(int(s.expected_payout)))


def build_line(m: GameModel, field: int) -> str:
    """One more building on the chosen street: the rent it adds per opponent roll against its price."""
    g, lang = m.game, m.lang
    if field < 0 or g.fields[field].kind != "street" or g.owner[field] != g.current or g.level[field] >= g.hotel_level:
        return ""
    s = build_stakes(g, field)
    return tr("odds.build", lang, gain=money_tenths(g, s.rent_gain_per_opponent_roll), cost=g.money(s.cost),
              rolls=_opponent(s.payback_opponent_rolls, "odds.opponent_rolls", lang))


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


def overlay_colour(p: float, top: float) -> str:
    """A sequential colour for a probability (white for 0, blue for the board's largest); field names stay readable on it."""
    t = 0.0 if top <= 0 else min(1.0, p / top) ** 0.7
    r, g, b = (int(255 + (c - 255) * t) for c in (49, 130, 189))  # to #3182BD: black text on it keeps a 5:1 contrast
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
        self.panel = pn.Column(pn.Row(self.switch, self.label), sizing_mode="stretch_width")
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
        self.panel.extend([self.mode, self.legend])

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
