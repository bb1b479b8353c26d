"""Who stands where: a card per player always on the Play tab, the cash chart, and the winner screen.

The cards answer what a student at the table looks for between two moves:
whose turn it is, every balance, who is in prison and for how long, and an
offer that waits for an answer.  When the game ends, the winner screen gives
the final standings, how the game ended, the cash over every turn, and a new
game or a rematch with the same seed.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from bokeh.core.properties import field
from bokeh.models import ColumnDataSource, Legend, LegendItem
from bokeh.plotting import figure
from panel.viewable import Viewer

from laspoly.analysis import log as gamelog
from laspoly.engine.game import TURN
from laspoly.ui.common import BUTTON_CSS, PHONE, PLAYER_COLORS, LiveHTML, assign, esc, guarded, player_badge, player_glyph
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel
from laspoly.ui.playview import prison_tries_left

#: The cards' look: a row that wraps, the player to move outlined in their colour and marked in words.
CARDS_CSS = """
.lp-cards { display: flex; flex-wrap: wrap; gap: 10px 6px; margin: 10px 0 4px 0; }
.lp-card { flex: 1 1 150px; max-width: 260px; border: 1px solid #bbb; border-left-width: 8px; border-radius: 6px;
           padding: 4px 8px; background: #fff; line-height: 1.3; position: relative; }
.lp-card.lp-now { border-width: 3px 3px 3px 8px; background: #fff8dc; box-shadow: 0 0 0 2px #333 inset; }
.lp-card.lp-out { opacity: 0.55; }
.lp-card-name { font-weight: 700; font-size: 1.05em; overflow-wrap: anywhere; }
.lp-card-cash { font-size: 1.35em; font-weight: 700; }
.lp-card-small { font-size: 0.85em; color: #333; }
.lp-card-now { position: absolute; top: -0.75em; right: 6px; white-space: nowrap; font-size: 0.8em; font-weight: 700;
               background: #333; color: #fff; border-radius: 3px; padding: 0 4px; line-height: 1.3; }
.lp-card-note { min-height: 1.3em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 0.85em; }
.lp-card-alert { font-weight: 700; color: #7a3d00; }
.lp-cards-foot { flex-basis: 100%; font-size: 0.8em; color: #555; }
@media PHONE {
  .lp-cards { gap: 4px; margin: 0 0 2px 0; }
  .lp-card { flex: 1 1 0; min-width: 6.5em; max-width: none; padding: 2px 6px; line-height: 1.2; }
  .lp-card-name { font-size: 0.9em; }
  .lp-card-name .lp-card-small, .lp-card-worth { display: none; }
  .lp-card-cash { font-size: 1.15em; }
  .lp-cards-foot { font-size: 0.75em; }
  .lp-card-note:empty { display: none; }
}
""".replace("PHONE", PHONE)

#: The final standings' table and the Players tab's: every header over its own values (text to the left, money to the
#: right, headers too), with room between the columns.
STANDINGS_CSS = """
.lp-standings th, .lp-standings td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
.lp-standings th { border-bottom: 2px solid #999; }
.lp-standings .lp-num { text-align: right; white-space: nowrap; }
"""

#: The winner screen's standings on a phone: a row per player of place, name, cash and net worth, its properties on a line
#: of their own under it, so the table fits the screen's width instead of running past its right edge.
FINAL_PHONE_CSS = """
@media PHONE {
  .lp-final, .lp-final thead, .lp-final tbody { display: block; width: 100%; }
  .lp-final tr { display: grid; grid-template-columns: 1.6em minmax(0, 1fr) minmax(5.5em, auto) minmax(5.5em, auto);
                 column-gap: 6px; border-bottom: 1px solid #ddd; padding: 2px 0; }
  .lp-final thead tr { border-bottom: 2px solid #999; }
  .lp-final th, .lp-final td { display: block; border: 0; padding: 1px 2px; overflow-wrap: anywhere; }
  .lp-final .lp-num { white-space: normal; }
  .lp-final .lp-props { grid-column: 2 / -1; }
  .lp-final tr > :nth-child(2) { grid-column: 2; }
  /* the places' numbers say what they are: their header stays for screen readers, out of the narrow column */
  .lp-final th.lp-place { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
}
""".replace("PHONE", PHONE)

#: The Players tab's table on a phone: a card per player, its name and seat on the first line, its cash, net worth and
#: get-out cards each under its own header's word on the next, then its status and properties (when it has any) on lines
#: of their own; the header row stays for screen readers.  Seven columns side by side are wider than a phone.
PLAYERS_PHONE_CSS = """
@media PHONE {
  .lp-players, .lp-players tbody { display: block; width: 100%; }
  .lp-players thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .lp-players tr { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); column-gap: 8px;
                   border-bottom: 1px solid #ddd; padding: 4px 0; }
  .lp-players td { display: block; border: 0; padding: 1px 2px; overflow-wrap: anywhere; }
  .lp-players td:empty { display: none; }
  .lp-players .lp-num { text-align: left; white-space: normal; }
  .lp-players td[data-label]::before { content: attr(data-label); display: block; font-size: 0.8em; color: #555; }
  .lp-players tr > :nth-child(1) { grid-column: 1 / 3; font-weight: bold; }
  .lp-players tr > :nth-child(2) { order: 1; }
  .lp-players tr > :nth-child(3), .lp-players tr > :nth-child(4), .lp-players tr > :nth-child(6) { order: 2; }
  .lp-players tr > :nth-child(5) { order: 3; grid-column: 1 / -1; }
  .lp-players tr > :nth-child(7) { order: 4; grid-column: 1 / -1; }
}
""".replace("PHONE", PHONE)


def cash_chart_data(model: GameModel) -> dict[str, list[Any]]:
    """One line per player: the cash at the end of every turn so far."""
    g, hist = model.game, model.cash_history
    return {
        "xs": [list(range(len(hist))) for _ in g.players],
        "ys": [[row[i] for row in hist] for i in range(len(g.players))],
        "color": [PLAYER_COLORS[i % len(PLAYER_COLORS)] for i in range(len(g.players))],
        "name": [p.name for p in g.players],
    }


def cash_chart(title: str, x_label: str, y_label: str, height: int = 220) -> tuple[Any, ColumnDataSource]:
    """A Bokeh chart of the players' cash over the turns, and the source that feeds it."""
    source = ColumnDataSource({"xs": [], "ys": [], "color": [], "name": []})
    chart = figure(height=height, sizing_mode="stretch_width", title=title, tools="hover", tooltips=[("", "@name")],
                   toolbar_location=None, x_axis_label=x_label, y_axis_label=y_label)
    lines = chart.multi_line("xs", "ys", source=source, line_color="color", line_width=2)
    # the legend names each line's player: one item per name in the source, above the chart so no line is hidden
    legend = Legend(items=[LegendItem(label=field("name"), renderers=[lines])], orientation="horizontal",
                    location="top_left", margin=0, padding=4, border_line_alpha=0, label_text_font_size="12px")
    chart.add_layout(legend, "above")
    return chart, source


def prison_text(model: GameModel, player: int) -> str:
    """A prisoner's state in words: tries left this turn for the player to move, else the prison turn."""
    g, lang = model.game, model.lang
    p, r = g.players[player], g.rules
    if player == g.current and g.phase == TURN and g.rolls_due:
        return tr("cards.prison_tries", lang, tries=prison_tries_left(g), of=r.jail_tries_per_turn)
    return tr("cards.prison_turn", lang, turn=p.prison_turns + 1, of=r.jail_max_turns)


class PlayerCardsView(Viewer):
    """A card per player, always on the Play tab: colour and shape, name, cash, net worth, prison, cards, seat, turn."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = LiveHTML(sizing_mode="stretch_width", stylesheets=[CARDS_CSS])
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Redraw every card (one HTML string: a step sends it only when something on it changed)."""
        g, lang = self.model.game, self.model.lang
        now = g.actor if not g.is_over else -1
        cards = [self._card(i, i == now) for i in range(len(g.players))]
        foot = tr("cards.footer", lang, rules=g.preset.name.get(lang) or g.preset.name.get("en") or g.preset.id,
                  seed=g.setup["seed"], round=g.round)
        assign(self.pane, object=f"<div class='lp-cards' role='list'>{''.join(cards)}<div class='lp-cards-foot'>{esc(foot)}</div></div>")

    def _card(self, i: int, now: bool) -> str:
        m, g, lang = self.model, self.model.game, self.model.lang
        p = g.players[i]
        seat = tr("cards.person", lang) if m.is_person(i) else tr("cards.bot", lang, kind=tr(f"seat.{m.seats[i]}", lang))
        lines = [f"<div class='lp-card-name'>{player_badge(m, i)} <span class='lp-card-small'>· {esc(seat)}</span>"
                 + (f" <span class='lp-card-now'>{esc(tr('cards.to_move', lang))}</span>" if now else "") + "</div>"]
        if not p.active:
            lines.append(f"<div class='lp-card-cash'>{esc(tr('cards.out', lang))}</div>")
        else:
            lines.append(f"<div class='lp-card-cash' title='{esc(tr('cards.cash', lang))}'>{esc(g.money(p.cash))}</div>")
            lines.append(f"<div class='lp-card-small lp-card-worth'>{esc(tr('cards.worth', lang, worth=g.money(g.net_worth(i)), count=len(g.owned_by(i))))}</div>")
        status = []
        if p.active and p.in_prison:
            status.append(prison_text(m, i))
        if p.jail_cards:
            status.append(tr("cards.jail_cards", lang, count=len(p.jail_cards)))
        offers = [tr("cards.offer", lang, name=g.players[o.proposer].name, id=o.id) for o in g.offers.values() if o.receiver == i]
        notes = [f"<span class='lp-card-small'>{esc(' · '.join(status))}</span>"] if status else []
        notes += [f"<span class='lp-card-alert'>{esc(text)}</span>" for text in offers]
        # one line, always there: prison, jail cards and an offer waiting never make a card, and the buttons below, taller
        # (cut with "…" when they do not fit; the tooltip, the header's hint and the alerts say them in full)
        title = " · ".join([" · ".join(status)] * bool(status) + offers)
        lines.append(f"<div class='lp-card-note' title='{esc(title)}'>{' · '.join(notes)}</div>")
        color = PLAYER_COLORS[i % len(PLAYER_COLORS)]
        classes = "lp-card" + (" lp-now" if now else "") + ("" if p.active else " lp-out")
        current = " aria-current='true'" if now else ""
        return f"<div class='{classes}' role='listitem' style='border-color:{color}'{current}>{''.join(lines)}</div>"

    def __panel__(self) -> pn.viewable.Viewable:
        return self.pane


def final_standings(model: GameModel) -> list[int]:
    """The players in their final places: the winner, the others still in by net worth, then the last out first."""
    g = model.game
    order = [i for i, _ in g.standings()]
    if g.winner is not None and g.winner in order:
        order.remove(g.winner)
        order.insert(0, g.winner)
    places = order + [i for i in gamelog.last_out_first(g) if i not in order]
    return places + [i for i in range(len(g.players)) if i not in places]


def how_it_ended(model: GameModel) -> str:
    """How the game ended, in words: the last player left, or the cap (rounds, the class period, or stopped)."""
    g, lang = model.game, model.lang
    name = g.players[g.winner].name
    if g.end_reason != "net_worth":
        out = ", ".join(g.players[i].name for i in range(len(g.players)) if not g.players[i].active)
        return tr("winner.how_last", lang, out=out, name=name)
    cap = g.setup["max_rounds"]
    if cap is not None and g.round > cap:
        return trn("winner.how_rounds", cap, lang, name=name)
    if model.deadline is not None:
        return tr("winner.how_minutes", lang, name=name)
    return tr("winner.how_stopped", lang, name=name)


class WinnerView(Viewer):
    """The end of a game: final standings, how it ended, the cash over every turn, a new game or a rematch.

    It is made when a game first ends (most page views never need its chart),
    and shows only while the game on the table is over.
    """

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.panel = pn.Column(sizing_mode="stretch_width", visible=False, css_classes=["lp-winner"])
        self._built = False
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang"])
        self.refresh()

    def _build(self) -> None:
        m = self.model
        self.title = pn.pane.HTML(sizing_mode="stretch_width")
        self.table = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[STANDINGS_CSS, FINAL_PHONE_CSS])
        self.chart, self.source = cash_chart("", "", "", height=240)
        # at most 240 px wide, narrower on a phone: a fixed width made the screen's row wider than a phone
        self.new_game = pn.widgets.Button(label="", color="primary", sizing_mode="stretch_width", max_width=240, stylesheets=[BUTTON_CSS])
        self.rematch = pn.widgets.Button(label="", sizing_mode="stretch_width", max_width=240, stylesheets=[BUTTON_CSS])
        self.new_game.on_click(guarded(m, lambda _: m.rematch(same_seed=False)))
        self.rematch.on_click(guarded(m, lambda _: m.rematch(same_seed=True)))
        self.panel.objects = [self.title, self.table, pn.pane.Bokeh(self.chart, sizing_mode="stretch_width"),
                              pn.Row(self.new_game, self.rematch, styles={"flex-wrap": "wrap"}, sizing_mode="stretch_width")]
        self.panel.styles = {"border": "3px solid #333", "border-radius": "8px", "padding": "4px 12px", "background": "#fffdf2"}
        self._built = True

    def refresh(self) -> None:
        """Show the winner screen while the game is over, up to date."""
        m, g = self.model, self.model.game
        if not g.is_over:
            assign(self.panel, visible=False)
            return
        if not self._built:
            self._build()
        lang = m.lang
        name = g.players[g.winner].name
        assign(self.title, object=f"<h2 style='margin:6px 0'>{player_glyph(g.winner)} {esc(tr('table.turn.over', lang, name=name))}</h2>"
                                  f"<p style='font-size:1.1em;margin:2px 0'>{esc(how_it_ended(m))}</p>"
                                  f"<p style='margin:2px 0'>{esc(tr('winner.seed', lang, seed=g.setup['seed']))}</p>")
        head = "".join(f"<th{num}>{esc(tr(k, lang))}</th>" for k, num in (
            ("winner.col.place", " class='lp-place'"), ("winner.col.player", ""), ("winner.col.cash", " class='lp-num'"),
            ("winner.col.worth", " class='lp-num'"), ("winner.col.properties", " class='lp-props'")))
        rows = []
        for place, i in enumerate(final_standings(m), 1):
            p = g.players[i]
            props = [g.field_name(f, lang) for f in g.owned_by(i)]
            cash = esc(g.money(p.cash)) if p.active else esc(tr("cards.out", lang))
            rows.append(f"<tr><td>{place}</td><td>{player_badge(m, i)}</td><td class='lp-num'>{cash}</td>"
                        f"<td class='lp-num'>{esc(g.money(g.net_worth(i)))}</td>"
                        f"<td class='lp-props'><b>{len(props)}</b> <span style='font-size:0.85em'>{esc(', '.join(props))}</span></td></tr>")
        self.table.object = f"<table class='lp-standings lp-final' style='width:100%;border-collapse:collapse'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        self.chart.title.text = tr("winner.chart", lang)
        self.chart.xaxis.axis_label = tr("winner.turn", lang)
        self.chart.yaxis.axis_label = tr("winner.col.cash", lang)
        data = cash_chart_data(m)
        if self.source.data != data:  # Bokeh sends a source's whole data when it is set, even the same again
            self.source.data = data
        assign(self.new_game, label=tr("winner.new_game", lang))
        assign(self.rematch, label=tr("winner.rematch", lang))
        assign(self.panel, visible=True)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel
