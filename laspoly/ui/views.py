"""The dashboard's views: Panel ``Viewer`` components that depend on a :class:`GameModel`.

Each view watches the model's ``version`` and redraws; none of them changes
the game except through the model's methods.  Names typed by people are
always escaped before they reach HTML.
"""

from __future__ import annotations

import asyncio
import functools
import html
import io
import json
import logging
import math
from collections.abc import Callable
from importlib import resources
from typing import Any

import panel as pn
import param
from bokeh.models import ColumnDataSource, Whisker
from bokeh.plotting import figure
from panel.viewable import Viewer

from laspoly.analysis.markov import markov
from laspoly.analysis.simulate import Spec, play_many
from laspoly.analysis.stats import wilson
from laspoly.bots.basic import TEMPERAMENTS
from laspoly.engine import actions as A
from laspoly.engine.game import AUCTION, BUY, TRAVEL
from laspoly.record import MAX_SAVE_BYTES
from laspoly.ui.model import PERSON, PLAYER_COLORS, PLAYER_MARKERS, SEAT_CHOICES, GameModel

#: Disabled buttons must look disabled, whatever their colour.
BUTTON_CSS = ".bk-btn[disabled] { opacity: 0.4; cursor: not-allowed; filter: grayscale(0.6); }"

MARKER_GLYPHS = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "inverted_triangle": "▼", "hex": "⬢",
                 "star": "★", "plus": "✚"}


def assign(widget: param.Parameterized, **values: Any) -> None:
    """Set only the parameters whose value changes, in one batch.

    Autoplay redraws the controls every step; most of them stay as they were,
    and even an unchanged value costs param and Panel a full round of checks.
    """
    changed = {name: value for name, value in values.items() if getattr(widget, name) != value}
    if changed:
        widget.param.update(**changed)


def guarded(model: GameModel, callback: Callable[[Any], Any]) -> Callable[[Any], None]:
    """Run a click's callback; if it fails, show the error on the page and keep the session going."""

    def run(event: Any) -> None:
        try:
            callback(event)
        except Exception as exc:  # a bug must not end the session: say so and carry on
            logging.getLogger("laspoly.ui").exception("a dashboard callback failed")
            model.message = f"Something went wrong ({type(exc).__name__}: {str(exc)[:200]}). The game is unchanged; please try again."
            model.redraw()

    return run


def esc(text: Any) -> str:
    """Text for HTML: every name a person typed goes through here."""
    return html.escape(str(text), quote=True)


def player_badge(model: GameModel, i: int) -> str:
    """A player's colour and shape with the name, as safe HTML."""
    color = PLAYER_COLORS[i % len(PLAYER_COLORS)]
    glyph = MARKER_GLYPHS[PLAYER_MARKERS[i % len(PLAYER_MARKERS)]]
    return f'<span style="color:{color};font-size:1.2em" aria-hidden="true">{glyph}</span> {esc(model.game.players[i].name)}'


class TabView(Viewer):
    """A view that lives in a tab: while its tab is hidden it only notes that the game changed.

    Redrawing hidden tables and charts after every step costs the server most
    of a step under load, so the dashboard sets ``shown`` from the active tab
    and a hidden view redraws once, when it is shown again.  Outside the
    dashboard (a notebook cell) a view is always shown.
    """

    shown = param.Boolean(default=True, doc="Whether the view is on screen (its tab is the active one).")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._stale = False
        self.param.watch(self._on_shown, "shown")

    def changed(self, *_: Any) -> None:
        """The game changed: redraw now if on screen, else when shown."""
        if self.shown:
            self.refresh()
        else:
            self._stale = True

    def _on_shown(self, event: Any) -> None:
        if event.new and self._stale:
            self._stale = False
            self.refresh()

    def refresh(self) -> None:
        """Redraw the view from the model."""
        raise NotImplementedError


class PlayersView(TabView):
    """Cash, net worth, properties, prison status and cards of every player, and the cash chart."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.table = pn.pane.HTML(sizing_mode="stretch_width")
        self.source = ColumnDataSource({"xs": [], "ys": [], "color": [], "name": []})
        chart = figure(height=220, sizing_mode="stretch_width", title="Cash over the turns", tools="hover",
                       tooltips=[("", "@name")], toolbar_location=None, x_axis_label="turn", y_axis_label="cash")
        chart.multi_line("xs", "ys", source=self.source, line_color="color", line_width=2)
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
        hist = m.cash_history
        self.source.data = {
            "xs": [list(range(len(hist))) for _ in g.players],
            "ys": [[row[i] for row in hist] for i in range(len(g.players))],
            "color": [PLAYER_COLORS[i % len(PLAYER_COLORS)] for i in range(len(g.players))],
            "name": [p.name for p in g.players],
        }

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


class ControlsView(Viewer):
    """Every decision of the rules as a button; only legal ones are enabled, the others say why."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        b = functools.partial(pn.widgets.Button, stylesheets=[BUTTON_CSS])
        self.status = pn.pane.HTML(sizing_mode="stretch_width")
        self.message = pn.pane.Alert("", alert_type="warning", visible=False, sizing_mode="stretch_width")
        self.confirm = b(label="Confirm", color="danger")
        self.cancel = b(label="Cancel")
        self.roll = b(label="Roll", color="primary")
        self.buy = b(label="Buy", color="success")
        self.decline = b(label="Don't buy")
        self.end_turn = b(label="End turn")
        self.next = b(label="Next")
        self.autoplay = pn.widgets.Toggle(label="Autoplay", stylesheets=[BUTTON_CSS])
        self.speed = pn.widgets.FloatSlider(label="Turns per second", start=0.5, end=20, step=0.5, value=m.speed, width=180)
        self.run_end = b(label="Run to end")
        self.undo = b(label="Undo")
        self.fine = b(label="Pay fine")
        self.jail_card = b(label="Use jail card")
        self.station = pn.widgets.Select(label="Station", options={}, width=220)
        self.travel = b(label="Take the train")
        self.stay = b(label="Stay")
        self.bid_amount = pn.widgets.IntInput(label="Bid", value=10, start=1, step=10, width=120)
        self.bid = b(label="Bid")
        self.pass_auction = b(label="Pass")
        self.claim = b(label="Claim rent")
        self.field = pn.widgets.Select(label="Property", options={}, width=240)
        self.house = b(label="Build house")
        self.hotel = b(label="Build hotel")
        self.factory = b(label="Build factory")
        self.sell_building = b(label="Sell building")
        self.sell_property = b(label="Sell to bank")
        self.mortgage = b(label="Mortgage")
        self.repay = b(label="Repay")
        self.partner = pn.widgets.Select(label="Trade with", options={}, width=200)
        self.give = pn.widgets.MultiChoice(label="You give", options={}, width=260)
        self.take = pn.widgets.MultiChoice(label="You get", options={}, width=260)
        self.cash = pn.widgets.IntInput(label="Cash you pay (negative: you receive)", value=0, step=10, width=260)
        self.propose = b(label="Propose trade")
        self.accept = b(label="Accept offer", color="success")
        self.reject = b(label="Decline offer")
        self.offer_text = pn.pane.HTML(sizing_mode="stretch_width")
        self.trade_why = pn.pane.HTML(sizing_mode="stretch_width")
        self.why = pn.pane.HTML(sizing_mode="stretch_width", styles={"font-size": "0.85em", "color": "#444"})
        self._timer: Any = None
        self._wire()
        m.param.watch(lambda *_: self.refresh(), ["version", "lang", "selected_field", "pending_confirm"])
        self.refresh()

    # -- wiring
    def _on(self, button: pn.widgets.Button, make: Callable[[int], A.Action | None]) -> None:
        def click(_: Any) -> None:
            who = self.model.person_to_move
            if who is not None:
                action = make(who)
                if action is not None:
                    self.model.act(action)
        button.on_click(guarded(self.model, click))

    def _wire(self) -> None:
        m = self.model
        self._on(self.roll, A.Roll)
        self._on(self.buy, A.Buy)
        self._on(self.decline, A.DeclineBuy)
        self._on(self.end_turn, A.EndTurn)
        self._on(self.fine, A.PayFine)
        self._on(self.jail_card, A.UseJailCard)
        self._on(self.stay, A.StayPut)
        self._on(self.pass_auction, A.PassAuction)
        self._on(self.travel, lambda p: A.Travel(p, self.station.value) if self.station.value is not None else None)
        self._on(self.bid, lambda p: A.PlaceBid(p, int(self.bid_amount.value or 0)))
        for button, kind in ((self.house, "house"), (self.hotel, "hotel"), (self.factory, "factory")):
            self._on(button, lambda p, kind=kind: A.Build(p, self.field.value, kind) if self.field.value is not None else None)
        for button, cls in ((self.sell_building, A.SellBuilding), (self.sell_property, A.SellProperty),
                            (self.mortgage, A.Mortgage), (self.repay, A.Repay)):
            self._on(button, lambda p, cls=cls: cls(p, self.field.value) if self.field.value is not None else None)
        self._on(self.propose, self._trade)
        self._on(self.accept, lambda p: self._offer_action(p, A.AcceptTrade))
        self._on(self.reject, lambda p: self._offer_action(p, A.DeclineTrade))
        self.claim.on_click(guarded(m, lambda _: [m.act(c) for c in m.person_claims()[:1]]))
        self.confirm.on_click(guarded(m, lambda _: m.confirm()))
        self.cancel.on_click(guarded(m, lambda _: m.cancel()))
        self.next.on_click(guarded(m, lambda _: m.step()))
        self.run_end.on_click(guarded(m, lambda _: m.run_to_end()))
        self.undo.on_click(guarded(m, lambda _: m.undo()))
        self.autoplay.param.watch(self._toggle_autoplay, "value")
        self.speed.param.watch(self._set_speed, "value")
        self.partner.param.watch(lambda *_: self._refresh_trade(), "value")
        for w in (self.give, self.take, self.cash):
            w.param.watch(lambda *_: self._refresh_propose(), "value")

    def _trade(self, p: int) -> A.Action | None:
        if self.partner.value is None:
            return None
        return A.ProposeTrade(p, int(self.partner.value), tuple(self.give.value), tuple(self.take.value), int(self.cash.value or 0))

    def _offer_action(self, p: int, cls: type[A.AcceptTrade] | type[A.DeclineTrade]) -> A.Action | None:
        offer = next((o for o in self.model.game.offers.values() if o.receiver == p), None)
        return cls(p, offer.id) if offer is not None else None

    # -- autoplay
    def _toggle_autoplay(self, event: Any) -> None:
        self.model.autoplay = bool(event.new)
        if event.new and self._timer is None:
            self._timer = pn.state.add_periodic_callback(self._tick, period=max(50, int(1000 / self.model.speed)))
        elif not event.new:
            self.stop_timer()

    def _set_speed(self, event: Any) -> None:
        self.model.speed = float(event.new)
        if self._timer is not None:
            self._timer.period = max(50, int(1000 / self.model.speed))

    def _tick(self) -> None:
        m = self.model
        if not m.autoplay or m.game.is_over or m.person_to_move is not None:
            m.autoplay = False
            self.autoplay.value = False
            return
        m.step()

    def stop_timer(self) -> None:
        """Stop the autoplay callback (also when the session closes)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- refreshing
    def refresh(self) -> None:
        """Enable exactly the legal choices and say why the others are off."""
        m, g = self.model, self.model.game
        assign(self.status, object=f"<b>{esc(m.status())}</b>")
        assign(self.message, object=esc(m.message), visible=bool(m.message))
        for button in (self.confirm, self.cancel):
            assign(button, visible=m.pending_confirm is not None)
        if not m.autoplay and self.autoplay.value:
            self.autoplay.value = False
        off: list[tuple[pn.widgets.Button, str]] = []

        def set_(button: pn.widgets.Button, make: Callable[[int], A.Action | None]) -> None:
            choice = m.choice(make)
            assign(button, disabled=not choice.enabled, description=choice.reason or None)
            if not choice.enabled and choice.reason and m.person_to_move is not None:
                off.append((button, choice.reason))

        for button, cls in ((self.roll, A.Roll), (self.end_turn, A.EndTurn)):
            set_(button, cls)
        for button, cls in ((self.buy, A.Buy), (self.decline, A.DeclineBuy)):
            set_(button, cls)
            assign(button, visible=g.phase == BUY)
        for button, cls in ((self.fine, A.PayFine), (self.jail_card, A.UseJailCard)):
            set_(button, cls)
            assign(button, visible=any(p.in_prison for p in g.players if m.is_person(p.index)))
        self._refresh_travel(set_)
        self._refresh_auction(set_)
        self._refresh_manage(set_)
        self._refresh_trade()
        claims = m.person_claims()
        assign(self.claim, visible=bool(claims) or g.rules.rent_claim, disabled=not claims)
        watching = not getattr(m, "can_drive", lambda: True)()
        for widget in (self.next, self.run_end, self.autoplay):
            assign(widget, disabled=g.is_over or watching)
        assign(self.undo, disabled=not any(m.is_person(a.player) for a in g.history))
        grouped: dict[str, list[str]] = {}
        for b, r in off:
            if b.visible:
                grouped.setdefault(r, []).append(b.label)
        reasons = [f"<li><b>{esc(', '.join(names))}</b>: {esc(r)}</li>" for r, names in grouped.items()]
        assign(self.why, object=("<details open><summary>Why some buttons are off</summary><ul>" + "".join(reasons) + "</ul></details>"
                                 if reasons else ""))

    def _refresh_travel(self, set_: Callable[..., None]) -> None:
        g, m = self.model.game, self.model
        here = g.players[g.actor].pos if not g.is_over else -1
        show = g.phase == TRAVEL
        if show:  # the stations only matter while the train is on offer
            assign(self.station, options={g.field_name(s, m.lang): s for s in g.stations if s != here})
        for w in (self.station, self.travel, self.stay):
            assign(w, visible=show)
        set_(self.travel, lambda p: A.Travel(p, self.station.value if self.station.value is not None else -1))
        set_(self.stay, A.StayPut)

    def _refresh_auction(self, set_: Callable[..., None]) -> None:
        g = self.model.game
        show = g.phase == AUCTION
        for w in (self.bid_amount, self.bid, self.pass_auction):
            assign(w, visible=show)
        if show and g.auction is not None and (self.bid_amount.value or 0) <= g.auction.high:
            self.bid_amount.value = g.auction.high + 10
        set_(self.bid, lambda p: A.PlaceBid(p, int(self.bid_amount.value or 0)))
        set_(self.pass_auction, A.PassAuction)

    def _refresh_manage(self, set_: Callable[..., None]) -> None:
        m, g = self.model, self.model.game
        who = m.person_to_move
        owned = g.owned_by(who) if who is not None else []
        assign(self.field, options={g.field_name(i, m.lang): i for i in owned})
        if m.selected_field in owned:
            assign(self.field, value=m.selected_field)
        field = self.field.value
        for button, kind in ((self.house, "house"), (self.hotel, "hotel"), (self.factory, "factory")):
            set_(button, lambda p, kind=kind: A.Build(p, field, kind) if field is not None else None)
        assign(self.hotel, visible=g.rules.hotels)
        assign(self.factory, visible=any(f.factory_price for f in g.fields))
        for button, cls in ((self.sell_building, A.SellBuilding), (self.sell_property, A.SellProperty),
                            (self.mortgage, A.Mortgage), (self.repay, A.Repay)):
            set_(button, lambda p, cls=cls: cls(p, field) if field is not None else None)

    def _refresh_trade(self) -> None:
        m, g = self.model, self.model.game
        who = m.person_to_move
        others = {g.players[i].name: i for i in g.active_players if i != who}
        assign(self.partner, options=others)
        partner = self.partner.value if self.partner.value in others.values() else None
        assign(self.give, options={g.field_name(i, m.lang): i for i in g.owned_by(who)} if who is not None else {})
        assign(self.take, options={g.field_name(i, m.lang): i for i in g.owned_by(partner)} if partner is not None else {})
        offer = next((o for o in g.offers.values() if who is not None and o.receiver == who), None)
        for button in (self.accept, self.reject):
            assign(button, visible=offer is not None)
        text = ""
        if offer is not None:
            give = ", ".join(g.field_name(i, m.lang) for i in offer.give) or "nothing"
            take = ", ".join(g.field_name(i, m.lang) for i in offer.take) or "nothing"
            cash = (f"; they pay {g.money(offer.cash)}" if offer.cash > 0 else f"; you pay {g.money(-offer.cash)}" if offer.cash < 0 else "")
            text = f"<p>Offer #{offer.id} from {player_badge(m, offer.proposer)}: they give {esc(give)}, you give {esc(take)}{esc(cash)}.</p>"
            assign(self.accept, disabled=g.why_illegal(A.AcceptTrade(offer.receiver, offer.id)) is not None)
        mine = [o for o in g.offers.values() if who is not None and o.proposer == who]
        text += "".join(
            f"<p>Your offer #{o.id} to {player_badge(m, o.receiver)}: you give "
            f"{esc(', '.join(g.field_name(i, m.lang) for i in o.give) or 'nothing')}, you get "
            f"{esc(', '.join(g.field_name(i, m.lang) for i in o.take) or 'nothing')}"
            f"{esc(f', you pay {g.money(o.cash)}' if o.cash > 0 else f', you receive {g.money(-o.cash)}' if o.cash < 0 else '')}"
            " (answered on their turn).</p>" for o in mine)
        assign(self.offer_text, object=text)
        self._refresh_propose()

    def _refresh_propose(self) -> None:
        g, who = self.model.game, self.model.person_to_move
        action = self._trade(who) if who is not None else None
        reason = g.why_illegal(action) if action is not None else "choose a player to trade with"
        assign(self.propose, disabled=reason is not None, description=reason)
        assign(self.trade_why, object=f"<small>{esc(reason)}</small>" if reason else "")

    def turn_controls(self) -> pn.Column:
        """The status line and the decisions of a turn, with the autoplay controls."""
        row = pn.Row
        return pn.Column(
            self.status, self.message, row(self.confirm, self.cancel),
            row(self.roll, self.buy, self.decline, self.end_turn, self.claim),
            row(self.fine, self.jail_card, self.station, self.travel, self.stay),
            row(self.bid_amount, self.bid, self.pass_auction),
            row(self.next, self.autoplay, self.speed, self.run_end, self.undo),
            self.why,
            sizing_mode="stretch_width",
        )

    def manage_controls(self) -> pn.Column:
        """Building, selling and mortgaging, then trading.

        The trade card starts folded and is filled the first time it is opened:
        most players never open it, and its widgets are a good part of the page.
        """
        row = pn.Row
        trade = pn.Card(title="Trade", collapsed=True, sizing_mode="stretch_width")

        def fill(event: Any) -> None:
            if not event.new and not trade.objects:
                trade.objects = [pn.Column(self.offer_text, row(self.accept, self.reject), self.partner, row(self.give, self.take),
                                           self.cash, self.propose, self.trade_why, sizing_mode="stretch_width")]

        trade.param.watch(fill, "collapsed")
        return pn.Column(
            pn.Card(pn.Column(self.field, row(self.house, self.hotel, self.factory),
                              row(self.sell_building, self.sell_property, self.mortgage, self.repay)),
                    title="Build, sell, mortgage", collapsed=False, sizing_mode="stretch_width"),
            trade, sizing_mode="stretch_width",
        )

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.turn_controls(), self.manage_controls(), sizing_mode="stretch_width")


class ProbabilityView(TabView):
    """This game's landings against the exact chain, dice totals against two dice, and a simulation lab."""

    model = param.ClassSelector(class_=GameModel)
    board = param.Parameter()
    heat = param.Boolean(default=False, doc="Colour the board by this game's landings against the chain.")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.heat_toggle = pn.widgets.Toggle(label="Landing heatmap on the board", value=False)
        self.heat_toggle.param.watch(lambda e: setattr(self, "heat", e.new), "value")
        self.dice_source = ColumnDataSource({"total": list(range(2, 13)), "share": [0.0] * 11, "exact": [0.0] * 11})
        fig = figure(height=220, sizing_mode="stretch_width", title="Dice totals: this game (bars) and two dice (line)",
                     toolbar_location=None, x_axis_label="total", y_axis_label="share of rolls")
        fig.vbar("total", top="share", width=0.8, source=self.dice_source, fill_color="#56B4E9")
        fig.line("total", "exact", source=self.dice_source, line_color="#D55E00", line_width=3)
        self.dice_fig = pn.pane.Bokeh(fig, sizing_mode="stretch_width")
        self.heat_note = pn.pane.HTML()
        self.games = pn.widgets.IntInput(label="Games", value=100, start=4, end=5000, step=50, width=120)
        self.lab_bots = pn.widgets.MultiChoice(label="Bots (one per seat)", options=list(TEMPERAMENTS),
                                               value=["greedy", "cautious", "hotel", "factory"], width=360)
        self.run_lab = pn.widgets.Button(label="Run lab", color="primary")
        self.progress = pn.indicators.Progress(value=0, max=100, width=300, visible=False)
        self.lab_note = pn.pane.HTML()
        self.win_source = ColumnDataSource({"bot": [], "rate": [], "low": [], "high": []})
        win_fig = figure(height=240, sizing_mode="stretch_width", title="Win rate with 95% interval", x_range=list(TEMPERAMENTS),
                         toolbar_location=None, y_range=(0, 1))
        win_fig.vbar("bot", top="rate", width=0.6, source=self.win_source, fill_color="#009E73")
        win_fig.add_layout(Whisker(source=self.win_source, base="bot", upper="high", lower="low"))
        self.win_fig = win_fig
        self.len_source = ColumnDataSource({"turns": [], "games": []})
        len_fig = figure(height=220, sizing_mode="stretch_width", title="Game lengths (player-turns)", toolbar_location=None)
        len_fig.vbar("turns", top="games", width=18, source=self.len_source, fill_color="#E69F00")
        self.run_lab.on_click(self._lab)
        self.model.param.watch(self.changed, ["version"])
        self.param.watch(lambda *_: self.refresh(), ["heat"])
        self._chain_key: tuple[str, str] | None = None
        self._chain: list[float] = []
        self.refresh()
        self.panel = pn.Column(self.heat_toggle, self.heat_note, self.dice_fig, "### Lab",
                               pn.Row(self.games, self.lab_bots, self.run_lab), self.progress, self.lab_note,
                               pn.pane.Bokeh(win_fig, sizing_mode="stretch_width"),
                               pn.pane.Bokeh(len_fig, sizing_mode="stretch_width"), sizing_mode="stretch_width")

    def changed(self, *_: Any) -> None:
        """With the heatmap on, the board shows this view's colours, so it redraws even while hidden."""
        if self.heat:
            self.refresh()
        else:
            super().changed()

    def _exact(self) -> list[float]:
        g = self.model.game
        key = (g.preset.id, repr(sorted(g.setup["rules"].items())))
        if key != self._chain_key:
            r = markov(g.preset.id, rules=g.setup["rules"] or None)
            self._chain, self._chain_key = [float(p) for p in r.squares], key
        return self._chain

    def refresh(self) -> None:
        """Update the dice chart and, when on, the heatmap."""
        m = self.model
        totals = m.dice_totals()
        n = sum(totals)
        exact = [(6 - abs(t - 7)) / 36 for t in range(2, 13)]
        self.dice_source.data = {"total": list(range(2, 13)), "share": [c / n if n else 0 for c in totals], "exact": exact}
        if self.board is None:
            return
        if self.heat:
            land = m.landings()
            total = sum(land)
            chain = self._exact()
            heat = [math.log((c / total) / p) if total and p > 0 and c else (-1.0 if p > 0 else 0.0)
                    for c, p in zip(land, chain, strict=True)]
            self.board.refresh(heat)
            self.heat_note.object = (f"<p>Orange: landed on more often than the exact chain predicts; blue: less. "
                                     f"{total} landings so far — with few landings, chance dominates.</p>")
        else:
            self.board.refresh()
            self.heat_note.object = ""

    async def _lab(self, _: Any) -> None:
        """Simulate games in a worker thread, chunk by chunk, so the page keeps answering."""
        bots = tuple(self.lab_bots.value)
        if len(bots) < 2:
            self.lab_note.object = "<p>Choose at least two bots.</p>"
            return
        games = int(self.games.value or 0)
        g = self.model.game
        spec = Spec(g.preset.id, dict(g.setup["rules"]), bots, seed=g.setup["seed"], rotate=True)
        self.run_lab.disabled = True
        self.progress.visible, self.progress.value = True, 0
        loop = asyncio.get_running_loop()
        records: list[Any] = []
        step = max(1, games // 20)
        for start in range(0, games, step):
            part = await loop.run_in_executor(None, play_many, spec, list(range(start, min(games, start + step))))
            records += part
            self.progress.value = int(100 * len(records) / games)
        self.run_lab.disabled = False
        self.progress.visible = False
        self._show_lab(bots, records)

    def _show_lab(self, bots: tuple[str, ...], records: list[Any]) -> None:
        wins = {b: 0 for b in bots}
        seats = {b: 0 for b in bots}
        for r in records:
            wins[r.winner_bot] += 1
            for b in r.seats:
                seats[b] += 1
        names = list(dict.fromkeys(bots))
        rates = [wins[b] / seats[b] for b in names]
        cis = [wilson(wins[b], seats[b]) for b in names]
        self.win_fig.x_range.factors = names
        self.win_source.data = {"bot": names, "rate": rates, "low": [c[0] for c in cis], "high": [c[1] for c in cis]}
        bins: dict[int, int] = {}
        for r in records:
            bins[20 * (r.turns // 20) + 10] = bins.get(20 * (r.turns // 20) + 10, 0) + 1
        self.len_source.data = {"turns": sorted(bins), "games": [bins[k] for k in sorted(bins)]}
        self.lab_note.object = f"<p>{len(records)} games, seats rotated; seed {self.model.game.setup['seed']}.</p>"

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel


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


class SetupView(Viewer):
    """A new game: preset, rule overrides, players and seats, seed or scripted dice, language, class-period cap."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.preset = pn.widgets.Select(label="Rulebook", options=list(GameModel.presets()), value="laspoly", width=200)
        self.lang = pn.widgets.Select(label="Language", options={"English": "en", "Español": "es"}, value="en", width=140)
        self.rules = pn.widgets.TextInput(label="Rule overrides (name=value, space-separated)", placeholder="jail_exit=any_die_3",
                                          width=420)
        self.count = pn.widgets.IntSlider(label="Players", start=2, end=6, value=3, width=220)
        self.names = [pn.widgets.TextInput(label=f"Player {i + 1}", value=["Ana", "Ben", "Cy", "Di", "Eve", "Fay"][i],
                                           max_length=40, width=220) for i in range(6)]
        self.seat_kinds = [pn.widgets.Select(label="Seat", options=list(SEAT_CHOICES), value=PERSON if i == 0 else "basic", width=140)
                           for i in range(6)]
        self.seed = pn.widgets.IntInput(label="Seed", value=7, start=0, width=140)
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


def _base_url() -> str:
    loc = pn.state.location
    if loc is None or not loc.href or not loc.href.startswith("http"):
        return ""
    return loc.href.split("?")[0]


class InviteView(TabView):
    """Links for each seat and for the projector's read-only view; the owner swaps seats between people and bots."""

    model = param.Parameter()

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.links = pn.pane.HTML(sizing_mode="stretch_width")
        self.swaps = pn.Column(sizing_mode="stretch_width")
        self.selects: list[pn.widgets.Select] = []
        self.model.param.watch(self.changed, ["version"])
        if pn.state.location is not None:  # the page's address arrives after the first render
            pn.state.location.param.watch(lambda *_: self.refresh(), ["href"])
        self.refresh()

    def refresh(self) -> None:
        """Show the links (to the owner only) and the seat controls."""
        m = self.model
        links = m.links()
        if not links:
            self.links.object = "<p>Only the person who started this game can invite others and swap seats.</p>"
            return
        base = _base_url()
        rows = []
        for k, (label, query) in enumerate(links.items()):
            who = ""
            if k < len(m.game.players):
                kind = "person" if m.seats[k] == PERSON else f"bot ({m.seats[k]})"
                joined = " · joined" if m._joined_flags[k] else ""
                who = f"{esc(m.game.players[k].name)} — {esc(kind)}{joined}"
            else:
                who = "read-only view for the projector"
            rows.append(f"<tr><td><b>{esc(label)}</b></td><td>{who}</td><td><code style='user-select:all'>{esc(base + query)}</code></td></tr>")
        self.links.object = ("<p>Send each person their seat's link; open the spectator link on the projector. "
                             "Seats nobody has joined are played by a bot until someone opens their link.</p>"
                             f"<table>{''.join(rows)}</table>")
        if len(self.selects) != len(m.game.players):
            self.selects = []
            for k, p in enumerate(m.game.players):
                select = pn.widgets.Select(label=f"Seat {k + 1}: {p.name}", options=list(SEAT_CHOICES), value=m.seats[k], width=220)
                select.param.watch(lambda e, k=k: self.model.set_seat(k, e.new) if e.new != self.model.seats[k] else None, "value")
                self.selects.append(select)
            self.swaps.objects = [pn.pane.HTML("<b>Who plays each seat</b>"), pn.Row(*self.selects)]
        for k, select in enumerate(self.selects):
            if select.value != m.seats[k]:
                select.value = m.seats[k]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.links, self.swaps, sizing_mode="stretch_width")


class MyGamesView(Viewer):
    """The games started from this browser's key: resume, delete, export."""

    model = param.Parameter()

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.list = pn.Column(sizing_mode="stretch_width")
        self.refresh_button = pn.widgets.Button(label="Refresh list", stylesheets=[BUTTON_CSS])
        self.refresh_button.on_click(lambda _: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """List the owner's rooms, newest first."""
        import datetime

        from laspoly.ui.room import seat_token

        m = self.model
        if m.owner_key is None:
            self.list.objects = [pn.pane.HTML("<p>Games you start from this browser's link are listed here.</p>")]
            return
        rows: list[Any] = []
        base = _base_url()
        for room_id, created, count in m.store.rooms_of(m.owner_key)[:50]:
            when = datetime.datetime.fromtimestamp(created).strftime("%Y-%m-%d %H:%M")
            link = f"{base}?room={room_id}&seat={seat_token(m.owner_key, room_id, 0)}&me={m.owner_key}"
            here = " (this game)" if room_id == m.room_id else ""
            delete = pn.widgets.Button(label="Delete", width=90, stylesheets=[BUTTON_CSS], disabled=room_id == m.room_id)
            delete.on_click(lambda _, r=room_id: (m.store.delete_room(r, m.owner_key), self.refresh()))
            export = pn.widgets.FileDownload(callback=functools.partial(self._export, room_id), filename=f"laspoly-{room_id[:8]}.json",
                                             label="Export", width=100)
            rows.append(pn.Row(pn.pane.HTML(f"<a href='{esc(link)}'>{esc(when)} · {count} actions{here}</a>"), delete, export))
        self.list.objects = rows or [pn.pane.HTML("<p>No saved games yet.</p>")]

    def _export(self, room_id: str) -> io.BytesIO:
        from laspoly.record import game_to_dict, replay

        room = self.model.store.room(room_id)
        game = replay(room.setup, self.model.store.actions(room_id))
        return io.BytesIO(json.dumps(game_to_dict(game), ensure_ascii=False).encode())

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.refresh_button, self.list, sizing_mode="stretch_width")
