"""The dashboard's smaller views: players, the property card, the log, rules, a new game, and files.

Each view watches the model's ``version`` and redraws; none of them changes
the game except through the model's methods.  Names typed by people are
always escaped before they reach HTML.  The controls, the probability lab and
the room views have modules of their own.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.bots.basic import DEFAULT_OPPONENT
from laspoly.engine.game import MAX_PLAYERS, MIN_PLAYERS
from laspoly.record import MAX_SAVE_BYTES
from laspoly.table import PERSON, SEAT_CHOICES
from laspoly.ui.common import TabView, esc, player_badge
from laspoly.ui.model import GameModel, new_seed
from laspoly.ui.standings import cash_chart, cash_chart_data


class PlayersView(TabView):
    """Cash, net worth, properties, prison status and cards of every player, and the cash chart."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.table = pn.pane.HTML(sizing_mode="stretch_width")
        chart, self.source = cash_chart("Cash over the turns", "turn", "cash")
        self.chart = pn.pane.Bokeh(chart, sizing_mode="stretch_width")
        self.model.param.watch(self.changed, ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Redraw the table and the chart."""
        m, g = self.model, self.model.game
        rows = []
        for p in g.players:
            props = [g.field_name(i, m.lang) for i in g.owned_by(p.index)]
            status = "out" if not p.active else ("in prison" if p.in_prison else "")
            seat = "person" if m.is_person(p.index) else f"bot ({m.seats[p.index]})"
            rows.append(
                f"<tr><td>{player_badge(m, p.index)}</td><td>{esc(seat)}</td><td style='text-align:right'>{esc(g.money(p.cash))}</td>"
                f"<td style='text-align:right'>{esc(g.money(g.net_worth(p.index)))}</td><td>{esc(status)}</td>"
                f"<td>{len(p.jail_cards)}</td><td style='font-size:0.85em'>{esc(', '.join(props))}</td></tr>")
        self.table.object = ("<table class='lp-players' style='width:100%;border-collapse:collapse'><thead><tr><th>Player</th><th>Seat</th>"
                             "<th>Cash</th><th>Net worth</th><th>Status</th><th>Jail cards</th><th>Properties</th></tr></thead>"
                             f"<tbody>{''.join(rows)}</tbody></table>")
        self.source.data = cash_chart_data(m)

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.table, self.chart, sizing_mode="stretch_width")


class CardView(Viewer):
    """The property card of the clicked field."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = pn.pane.HTML(sizing_mode="stretch_width", min_height=60)
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang", "selected_field"])
        self.refresh()

    def refresh(self) -> None:
        """Show the selected field's card."""
        m, g = self.model, self.model.game
        i = m.selected_field
        if not 0 <= i < len(g.fields):
            self.pane.object = "<p><i>Click a field on the board to see its card.</i></p>"
            return
        f = g.fields[i]
        band = g.board.groups[f.group].color if f.group in g.board.groups else "#dddddd"
        rows = [f"<div style='background:{band};height:14px;border-radius:3px'></div><h4>{esc(f.label(m.lang))}</h4>"]
        if f.is_property:
            rows.append(f"<p>Price {esc(g.money(f.price))} · mortgage {esc(g.money(f.mortgage))}</p>")
        if f.kind == "street":
            labels = ["Rent", *[f"with {k} house{'s' if k > 1 else ''}" for k in range(1, 5)], "with a hotel"]
            rows.append("<table>" + "".join(f"<tr><td>{lab}</td><td style='text-align:right'>{esc(g.money(r))}</td></tr>"
                                            for lab, r in zip(labels, f.rents, strict=False)) + "</table>")
            rows.append(f"<p>House {esc(g.money(g.house_price(i)))}" + (f" · hotel {esc(g.money(g.hotel_price(i)))}" if g.rules.hotels else "")
                        + (f" · factory {esc(g.money(f.factory_price))}, pays {esc(g.money(f.factory_income))} a turn" if f.factory_price else "") + "</p>")
        elif f.kind == "tax":
            rows.append(f"<p>Pay {esc(g.money(f.amount))} to {'the pot' if f.to == 'pot' else 'the bank'}.</p>")
        o = g.owner[i]
        if o >= 0:
            rows.append(f"<p>Owner: {player_badge(m, o)}" + (" · <b>mortgaged</b>" if g.mortgaged[i] else "") + "</p>")
            rows.append(f"<p>Rent now: {esc(g.money(g.rent(i, 7)))}" + (" (for a roll of 7)" if f.kind == "attraction" else "") + "</p>")
        self.pane.object = "".join(rows)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.pane


class LogView(Viewer):
    """The event log in the chosen language, newest last."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = pn.pane.HTML(sizing_mode="stretch_width", height=260, styles={"overflow-y": "auto"})
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Show the last events."""
        lines = self.model.log_lines(120)
        self.pane.object = "<ol class='lp-log' style='margin:0;padding-left:1.5em;font-size:0.9em'>" + "".join(
            f"<li>{esc(t)}</li>" for t in lines[::-1]) + "</ol>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column("### Log (newest first)", self.pane, sizing_mode="stretch_width")


def rules_text(preset: str, lang: str) -> str:
    """The preset's rules for players, in ``lang`` (English if there is no translation)."""
    base = resources.files("laspoly.data").joinpath("rules")
    for name in (f"{preset}.{lang}.md", f"{preset}.en.md"):
        path = base.joinpath(name)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return f"# {preset}\n\nSee docs/rules.md for how laspoly plays this preset."


class RulesView(TabView):
    """The chosen preset's rules in English or Spanish."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = pn.pane.Markdown(sizing_mode="stretch_width", disable_math=True)
        self.options = pn.pane.HTML(sizing_mode="stretch_width")
        self.model.param.watch(self.changed, ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Show the rules of this game's preset and its rule options."""
        g = self.model.game
        self.pane.object = rules_text(g.preset.id, self.model.lang)
        rows = "".join(f"<tr><td><code>{esc(k)}</code></td><td>{esc(str(v).lower() if isinstance(v, bool) else v)}</td></tr>"
                       for k, v in g.rules.as_dict().items())
        self.options.object = f"<details><summary>Rule options of this game</summary><table>{rows}</table></details>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.pane, self.options, sizing_mode="stretch_width")


#: The names a new game offers, one per seat up to the engine's limit.
DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


class SetupView(Viewer):
    """A new game: preset, rule overrides, players and seats, seed or scripted dice, language, class-period cap."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.preset = pn.widgets.Select(label="Rulebook", options=list(GameModel.presets()), value="laspoly", width=200)
        self.lang = pn.widgets.Select(label="Language", options={"English": "en", "Español": "es"}, value="en", width=140)
        self.rules = pn.widgets.TextInput(label="Rule overrides (name=value, space-separated)", placeholder="jail_exit=any_die_3",
                                          width=420)
        self.count = pn.widgets.IntSlider(label="Players", start=MIN_PLAYERS, end=MAX_PLAYERS, value=3, width=220)
        self.names = [pn.widgets.TextInput(label=f"Player {i + 1}", value=name, max_length=40, width=220)
                      for i, name in enumerate(DEFAULT_NAMES[:MAX_PLAYERS])]
        self.seat_kinds = [pn.widgets.Select(label="Seat", options=list(SEAT_CHOICES), value=PERSON if i == 0 else DEFAULT_OPPONENT, width=140)
                           for i in range(MAX_PLAYERS)]
        self.seed = pn.widgets.IntInput(label="Seed", value=new_seed(), start=0, width=140)  # random; the cards show it for a replay
        self.dice = pn.widgets.TextInput(label="Scripted dice (optional), e.g. 6-6 2-3", width=300)
        self.rounds = pn.widgets.IntInput(label="Stop after rounds (0: no cap)", value=0, start=0, width=200)
        self.minutes = pn.widgets.IntInput(label="Stop after minutes (0: no cap)", value=0, start=0, width=200)
        self.start = pn.widgets.Button(label="New game", color="primary")
        self.note = pn.pane.HTML()
        self.rows = pn.Column()
        self.count.param.watch(lambda *_: self._rows(), "value")
        self.start.on_click(self._start)
        self._rows()

    def _rows(self) -> None:
        self.rows.objects = [pn.Row(self.names[i], self.seat_kinds[i]) for i in range(self.count.value)]

    def _start(self, _: Any) -> None:
        n = self.count.value
        ok = self.model.new_game(
            [w.value for w in self.names[:n]], [w.value for w in self.seat_kinds[:n]], preset=self.preset.value,
            rules=self.rules.value, seed=int(self.seed.value or 0), dice=self.dice.value, lang=self.lang.value,
            max_rounds=int(self.rounds.value) or None, minutes=int(self.minutes.value) or None)
        self.note.object = "<p>Game started.</p>" if ok else f"<p style='color:#b00020'>{esc(self.model.message)}</p>"
        if ok:  # the next game gets a seed of its own; this one's stays on the player cards
            self.seed.value = new_seed()

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(pn.Row(self.preset, self.lang), self.rules, self.count, self.rows, pn.Row(self.seed, self.dice),
                         pn.Row(self.rounds, self.minutes), self.start, self.note, sizing_mode="stretch_width")


class FilesView(Viewer):
    """Save and load games; export the log, dice and landings as CSV."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.save = pn.widgets.FileDownload(callback=m.save_json, filename="laspoly-game.json", label="Save game",
                                            color="primary", width=160)
        self.load = pn.widgets.FileDropper(accepted_filetypes=[".json", "application/json"], multiple=False,
                                           max_file_size=f"{MAX_SAVE_BYTES // 1_000_000}MB", label="Load game", width=320)
        self.load.param.watch(self._loaded, "value")
        self.note = pn.pane.HTML()
        self.csvs = pn.Row(
            pn.widgets.FileDownload(callback=m.log_csv, filename="laspoly-log.csv", label="Log as CSV", width=140),
            pn.widgets.FileDownload(callback=m.dice_csv, filename="laspoly-dice.csv", label="Dice as CSV", width=140),
            pn.widgets.FileDownload(callback=m.landings_csv, filename="laspoly-landings.csv", label="Landings as CSV", width=160))

    def _loaded(self, event: Any) -> None:
        for name, data in (event.new or {}).items():
            raw = data.encode() if isinstance(data, str) else bytes(data)
            ok = self.model.load_json(raw, name)
            self.note.object = f"<p>{'Loaded' if ok else ''} {esc(self.model.message) if not ok else esc(name)}</p>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.save, pn.pane.HTML(f"<b>Load game</b> (a laspoly save file, at most {MAX_SAVE_BYTES // 1_000_000} MB)"),
                         self.load, self.note, "#### Export", self.csvs, sizing_mode="stretch_width")
