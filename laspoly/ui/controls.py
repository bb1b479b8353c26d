"""The Play tab's controls: whose turn it is, every decision of the rules as a button, and the pace of the bots.

The header says in large type whose turn it is and what to do next; a
decision's button shows what is at stake (the price, the fare, the fine, the
tries left, the rent to claim).  The property list and the board share one
selection, the model's ``selected_field``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.engine import actions as A
from laspoly.engine.game import AUCTION, BUYING, DEBT, TRAVEL, TURN
from laspoly.ui import inputs
from laspoly.ui.common import (
    BUTTON_CSS,
    FOCUS_CSS,
    NOT_ON_PHONES,
    PHONE,
    PHONE_SIDEWAYS,
    PLAYER_COLORS,
    KeyShortcuts,
    LiveHTML,
    assign,
    esc,
    guarded,
    is_served,
    player_badge,
    player_glyph,
)
from laspoly.ui.model import GameModel
from laspoly.ui.odds import build_line, buy_line, prison_line
from laspoly.ui.timers import Timer

#: No property chosen in the list (the board may have selected a field that is not the player's).
NO_FIELD = -1


class ControlsView(Viewer):
    """Every decision of the rules as a button; only legal ones are enabled, the others say why."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        b = functools.partial(pn.widgets.Button, stylesheets=[BUTTON_CSS])
        self.header = LiveHTML(sizing_mode="stretch_width", css_classes=["lp-turn"], stylesheets=[TURN_PHONE_CSS])
        #: Every widget's words as (widget, parameter, catalogue key), set again when the language changes.
        self._words: list[tuple[Any, str, str]] = []
        self._worded_in: tuple[str, str] | None = None
        w = self._worded
        # the status line repeats the header's words; a phone keeps its height for the turn's buttons
        self.status = LiveHTML(sizing_mode="stretch_width", css_classes=["lp-status"], stylesheets=[NOT_ON_PHONES])
        # the message keeps a line's height when empty, so the buttons below do not jump when one appears
        # (a phone on its side has no height to spare: there the buttons move down when a message shows)
        self.message = LiveHTML("", sizing_mode="stretch_width", stylesheets=[
            f":host {{ min-height: {MESSAGE_HEIGHT}px; }}\n@media {PHONE_SIDEWAYS} {{ :host {{ min-height: 0; }} }}"])
        self.confirm = w(b(color="danger"), "play.confirm")
        self.cancel = w(b(), "play.cancel")
        self.roll = w(b(color="primary"), "play.roll")
        self.buy = w(b(color="success"), "play.buy")
        self.decline = w(b(), "play.decline")
        self.end_turn = w(b(), "play.end_turn")
        self.next = w(b(), "play.next")
        self.autoplay = w(pn.widgets.Toggle(stylesheets=[BUTTON_CSS]), "play.autoplay")
        self.speed = w(inputs.FloatSlider(start=0.5, end=20, step=0.5, value=m.speed, width=180), "play.speed")
        self.run_end = w(b(), "play.run_end")
        self.undo = w(b(), "play.undo")
        self.fine = w(b(), "play.fine")
        self.jail_card = w(b(), "play.jail_card")
        # the station list and the bid box have no label above them: their button beside them says what they are for,
        # and their rows then take no more height than a row of buttons
        self.station = pn.widgets.Select(options={}, width=220, stylesheets=[FOCUS_CSS])
        self.travel = w(b(), "play.travel")
        self.stay = w(b(), "play.stay")
        self.bid_amount = inputs.IntInput(value=10, start=1, step=10, width=120, stylesheets=[FOCUS_CSS])
        self.bid = w(b(), "play.bid")
        self.pass_auction = w(b(), "play.pass")
        self.claim = w(b(), "play.claim")
        self.field = w(pn.widgets.Select(options={}, width=240, stylesheets=[FOCUS_CSS]), "play.property")
        self.house = w(b(), "play.house")
        self.hotel = w(b(), "play.hotel")
        self.factory = w(b(), "play.factory")
        self.sell_building = w(b(), "play.sell_building")
        self.sell_property = w(b(), "play.sell_property")
        self.mortgage = w(b(), "play.mortgage")
        self.repay = w(b(), "play.repay")
        self.partner = w(pn.widgets.Select(options={}, width=200, stylesheets=[FOCUS_CSS]), "play.trade_with")
        self.give = w(pn.widgets.MultiChoice(options={}, width=260, stylesheets=[FOCUS_CSS]), "play.you_give")
        self.take = w(pn.widgets.MultiChoice(options={}, width=260, stylesheets=[FOCUS_CSS]), "play.you_get")
        self.cash = w(inputs.IntInput(value=0, step=10, width=260, stylesheets=[FOCUS_CSS]), "play.cash")
        self.propose = w(b(), "play.propose")
        self.accept = w(b(color="success"), "play.accept")
        self.reject = w(b(), "play.reject")
        self.offer_text = LiveHTML(sizing_mode="stretch_width")
        self.trade_why = LiveHTML(sizing_mode="stretch_width")
        # room for a few reasons, so the cards below stay put as the reasons change from step to step
        self.why = LiveHTML(sizing_mode="stretch_width", min_height=WHY_HEIGHT, styles={"font-size": "0.85em", "color": "#444"})
        # a phone has no keys; in a notebook the keys act only inside this dashboard
        self.keys = KeyShortcuts(sizing_mode="stretch_width", stylesheets=[NOT_ON_PHONES], scoped=not is_served())
        #: Lesson mode: the stakes of the turn's decision (buy, prison) and of building on the chosen street, in numbers.
        self.stakes = LiveHTML(sizing_mode="stretch_width", styles={"font-size": "0.9em", "color": "#08306b"})
        self.build_stakes = LiveHTML(sizing_mode="stretch_width", styles={"font-size": "0.9em", "color": "#08306b"})
        #: Whether the keyboard shortcuts act (the dashboard turns them off while another tab is shown).
        self.shortcuts_on = True
        self.keys.param.watch(self._on_key, "press")
        self._occasional = pn.Column(min_height=RESERVED_ROW, sizing_mode="stretch_width")  # see turn_controls
        self.manage_card = pn.Card(collapsed=False, sizing_mode="stretch_width", stylesheets=[FOCUS_CSS])
        self.trade_card = pn.Card(collapsed=True, sizing_mode="stretch_width", stylesheets=[FOCUS_CSS])
        self._words += [(self.manage_card, "title", "play.manage"), (self.trade_card, "title", "play.trade")]
        self.trade_card.param.watch(self._fill_trade, "collapsed")
        #: The catalogue keys of the buttons whose label shows a decision's stakes while it is on offer.
        self._plain = {widget: key for widget, _, key in self._words if widget in (self.roll, self.buy, self.fine, self.travel, self.claim)}
        self._timer: Timer | None = None
        self._setting_field = False
        self._wire()
        m.param.watch(lambda *_: self.refresh(), ["version", "lang", "selected_field", "pending_confirm"])
        self.refresh()

    def _worded(self, widget: Any, key: str) -> Any:
        """Give ``widget`` its words from the catalogue (its label) and keep them up to date."""
        self._words.append((widget, "label", key))
        return widget

    # -- keyboard
    def press(self, key: str) -> bool:
        """A keyboard shortcut: r rolls, e ends the turn, n lets the bots move; only an enabled, shown button is pressed."""
        button = {"r": self.roll, "e": self.end_turn, "n": self.next}.get(key.lower())
        if button is None or button.disabled or not button.visible:
            return False
        button.clicks += 1
        return True

    def _on_key(self, event: Any) -> None:
        if self.shortcuts_on and event.new:
            self.press(event.new.split()[0])

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
            self._on(button, lambda p, kind=kind: A.Build(p, f, kind) if (f := self._chosen_field(p)) is not None else None)
        for button, cls in ((self.sell_building, A.SellBuilding), (self.sell_property, A.SellProperty),
                            (self.mortgage, A.Mortgage), (self.repay, A.Repay)):
            self._on(button, lambda p, cls=cls: cls(p, f) if (f := self._chosen_field(p)) is not None else None)
        self.field.param.watch(self._pick_field, "value")
        self.station.param.watch(lambda *_: self.refresh(), "value")
        self._on(self.propose, self._trade)
        self._on(self.accept, lambda p: self._offer_action(p, A.AcceptTrade))
        self._on(self.reject, lambda p: self._offer_action(p, A.DeclineTrade))
        self.claim.on_click(guarded(m, lambda _: [m.act(c) for c in m.person_claims()[:1]]))
        self.confirm.on_click(guarded(m, lambda _: m.confirm()))
        self.cancel.on_click(guarded(m, lambda _: m.cancel()))
        self.next.on_click(guarded(m, lambda _: m.advance()))
        self.run_end.on_click(guarded(m, lambda _: m.advance(to_end=True)))
        self.undo.on_click(guarded(m, lambda _: m.undo()))
        self.autoplay.param.watch(self._toggle_autoplay, "value")
        self.speed.param.watch(self._set_speed, "value")
        self.partner.param.watch(lambda *_: self._refresh_trade(), "value")
        for w in (self.give, self.take, self.cash):
            w.param.watch(lambda *_: self._refresh_propose(), "value")

    def _chosen_field(self, player: int) -> int | None:
        """The selected field (list or board) when ``player`` owns it, else None."""
        f = self.model.selected_field
        return f if 0 <= f < len(self.model.game.fields) and self.model.game.owner[f] == player else None

    def _pick_field(self, event: Any) -> None:
        """A property chosen in the list is the selection, as a click on the board is."""
        if not self._setting_field and event.new is not None and event.new != self.model.selected_field:
            self.model.selected_field = int(event.new)

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
            self._timer = Timer(self._tick, period=max(50, int(1000 / self.model.speed)))
        elif not event.new:
            self.stop_timer()

    def _set_speed(self, event: Any) -> None:
        self.model.speed = float(event.new)
        if self._timer is not None:
            self._timer.period = max(50, int(1000 / self.model.speed))

    def _tick(self) -> None:
        """One autoplay step, as "Next"; autoplay stops when a person must decide or the game is over."""
        m = self.model
        if m.autoplay and not m.game.is_over and m.person_to_move is None:
            m.advance()
        else:
            m.autoplay = False
        if not m.autoplay:
            self.autoplay.value = False

    def stop_timer(self) -> None:
        """Stop the autoplay callback (also when the session closes)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- refreshing
    def refresh(self) -> None:
        """Enable exactly the legal choices and say why the others are off."""
        m, g = self.model, self.model.game
        claims = m.person_claims()
        if self._worded_in != (m.lang, g.preset.id):  # words change with the language and a rulebook's own terms
            self._worded_in = (m.lang, g.preset.id)
            for widget, name, key in self._words:
                assign(widget, **{name: m.t(key)})
            assign(self.keys, hint=m.t("play.keys"))
        assign(self.header, object=self._header(claims))
        assign(self.status, object=f"<b>{esc(m.status())}</b>")
        self._refresh_odds()
        assign(self.message, object=f"<div role='status' class='lp-message' style='{MESSAGE_STYLE}'>{esc(m.message)}</div>" if m.message else "")
        for button in (self.confirm, self.cancel):
            assign(button, visible=m.pending_confirm is not None)
        if not m.autoplay and self.autoplay.value:
            self.autoplay.value = False
        off: list[tuple[pn.widgets.Button, str]] = []

        def set_(button: pn.widgets.Button, make: Callable[[int], A.Action | None]) -> None:
            choice = m.choice(make)
            assign(button, disabled=not choice.enabled)
            if not choice.enabled and choice.reason and m.person_to_move is not None:
                off.append((button, choice.reason))

        for button, cls in ((self.roll, A.Roll), (self.end_turn, A.EndTurn)):
            set_(button, cls)
        for button, cls in ((self.buy, A.Buy), (self.decline, A.DeclineBuy)):
            set_(button, cls)
            assign(button, visible=g.phase == BUYING)
        for button, cls in ((self.fine, A.PayFine), (self.jail_card, A.UseJailCard)):
            set_(button, cls)
            assign(button, visible=any(p.in_prison for p in g.players if m.is_person(p.index)))
        self._refresh_travel(set_)
        self._refresh_auction(set_)
        self._refresh_manage(set_)
        self._refresh_trade()
        assign(self.claim, visible=bool(claims) or g.rules.rent_claim, disabled=not claims,
               color="primary" if claims else "default")
        self._refresh_stakes(claims)
        watching = not m.can_drive
        for widget in (self.next, self.run_end, self.autoplay):
            assign(widget, disabled=g.is_over or watching)
        # Undo is on exactly when it would take a decision back; off, it says why (never on only to refuse)
        undo_off = m.undo_refusal()
        assign(self.undo, disabled=undo_off is not None)
        if undo_off is not None and g.history:
            off.append((self.undo, undo_off))
        grouped: dict[str, list[str]] = {}
        for b, r in off:
            if b.visible:
                grouped.setdefault(r, []).append(b.label)
        reasons = [f"<li><b>{esc(', '.join(names))}</b>: {esc(r)}</li>" for r, names in grouped.items()]
        assign(self.why, object=(f"<details open><summary>{esc(m.t('play.why_off'))}</summary><ul>" + "".join(reasons) + "</ul></details>"
                                 if reasons else ""))

    def _stake(self, button: pn.widgets.Button, stake: str | None) -> None:
        """The button's label, with what is at stake when there is something."""
        plain = self.model.t(self._plain[button])
        assign(button, label=self.model.t("stakes.label", label=plain, stake=stake) if stake else plain)

    def _refresh_stakes(self, claims: list[A.ClaimRent]) -> None:
        """Buy shows the price, the train its fare, the fine its amount, Roll a prisoner's tries left, a claim its rent."""
        m, g = self.model, self.model.game
        who = m.person_to_move
        self._stake(self.buy, g.money(g.fields[g.pending_field].price) if g.phase == BUYING and g.pending_field >= 0 else None)
        station = self.station.value
        fare = (g.train_fare(g.players[g.actor].pos, station)
                if g.phase == TRAVEL and station is not None and station in g.stations and station != g.players[g.actor].pos else None)
        self._stake(self.travel, g.money(fare) if fare is not None else None)
        self._stake(self.fine, g.money(g.rules.jail_fine) if self.fine.visible else None)
        prisoner = who is not None and g.phase == TURN and g.rolls_due and g.players[who].in_prison
        tries = g.rules.jail_tries_per_turn - g.prison_tries
        self._stake(self.roll, m.t("stakes.tries", tries=tries) if prisoner else None)
        assign(self.roll, color="default" if claims else "primary")
        # once the roll is done, ending the turn is what comes next: it takes the primary colour Roll had
        assign(self.end_turn, color="primary" if self.roll.disabled and not self.end_turn.disabled and not claims else "default")
        if claims:
            payer, amount = m.claim_amount(claims[0])
            self._stake(self.claim, m.t("stakes.claim", amount=g.money(amount), payer=g.players[payer].name))
        else:
            self._stake(self.claim, None)

    def _header(self, claims: list[A.ClaimRent]) -> str:
        """Whose turn it is, in large type, and what to do next; rent to claim and offers waiting for an answer."""
        m, g, lang = self.model, self.model.game, self.model.lang
        if g.is_over:
            who = g.winner
            title, hint = m.t("table.turn.over", name=g.players[who].name), m.t("table.hint.over")
        else:
            who = g.actor
            name = g.players[who].name
            if m.person_to_move is not None:
                title, hint = m.t("table.turn.yours" if g.phase == TURN else "table.turn.decide", name=name), self._hint()
            elif not m.is_person(who):
                hint_key = "table.hint.bots_alone" if m.bots_move_alone else "table.hint.next" if m.can_drive else "table.hint.watch"
                title, hint = m.t("table.turn.bot", name=name), m.t(hint_key)
            else:
                title, hint = m.t("table.turn.wait", name=name), m.t("table.hint.wait", name=name)
        alerts = []
        for claim in claims:
            payer, amount = m.claim_amount(claim)
            alerts.append(m.t("stakes.claim_hint", owner=g.players[claim.player].name, amount=g.money(amount),
                             payer=g.players[payer].name, field=g.field_name(claim.field, lang)))
        me = m.person_to_move
        alerts += [m.t("table.offer_waiting", name=g.players[o.proposer].name, id=o.id)
                   for o in g.offers.values() if me is not None and o.receiver == me]
        return (f"<div style='border-left:8px solid {PLAYER_COLORS[who % len(PLAYER_COLORS)]};padding:2px 10px;margin:2px 0' aria-live='polite'>"
                f"<div class='lp-turn-title' style='font-size:1.7em;font-weight:700;line-height:1.2'>{player_glyph(who)} {esc(title)}</div>"
                f"<div class='lp-turn-hint' style='font-size:1.1em'>{esc(hint)}</div>"
                + "".join(f"<div class='lp-turn-alert' style='font-weight:700;color:#7a3d00'>{esc(a)}</div>" for a in alerts)
                + "</div>")

    def _hint(self) -> str:
        """What the person to move can do now, with the stakes."""
        m, g, lang = self.model, self.model.game, self.model.lang
        if g.phase == DEBT and g.debt is not None:
            return m.t("table.hint.debt", amount=g.money(g.debt.total))
        if g.phase == AUCTION and g.auction is not None:
            return m.t("table.hint.auction", field=g.field_name(g.auction.field, lang), high=g.money(g.auction.high))
        if g.phase == BUYING and g.pending_field >= 0:
            return m.t("table.hint.buy", field=g.field_name(g.pending_field, lang), price=g.money(g.fields[g.pending_field].price))
        if g.phase == TRAVEL:
            return m.t("table.hint.travel")
        if not g.rolls_due:
            return m.t("table.hint.end")
        if g.players[g.actor].in_prison:
            return m.t("table.hint.prison", tries=g.rules.jail_tries_per_turn - g.prison_tries, fine=g.money(g.rules.jail_fine))
        return m.t("table.hint.roll")

    def _refresh_travel(self, set_: Callable[..., None]) -> None:
        g, m = self.model.game, self.model
        here = g.players[g.actor].pos if not g.is_over else -1
        show = g.phase == TRAVEL
        if show:  # the stations only matter while the train is on offer; the list shows the first, so choose it
            options = {g.field_name(s, m.lang): s for s in g.stations if s != here}
            assign(self.station, options=options)
            if options and self.station.value not in options.values():
                assign(self.station, value=next(iter(options.values())))
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
        field = m.selected_field if m.selected_field in owned else None
        self._setting_field = True
        try:
            assign(self.field, options={m.t("table.choose_property"): NO_FIELD, **{g.field_name(i, m.lang): i for i in owned}},
                   value=NO_FIELD if field is None else field)
        finally:
            self._setting_field = False
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

        def fields(indices: tuple[int, ...]) -> str:
            return esc(", ".join(g.field_name(i, m.lang) for i in indices) or m.t("play.nothing"))

        if offer is not None:
            cash = (m.t("play.offer_they_pay", amount=g.money(offer.cash)) if offer.cash > 0
                    else m.t("play.offer_you_pay", amount=g.money(-offer.cash)) if offer.cash < 0 else "")
            text = "<p>" + m.t("play.offer_to_you", id=offer.id, name=player_badge(m, offer.proposer), give=fields(offer.give),
                               take=fields(offer.take), cash=esc(cash)) + "</p>"
            assign(self.accept, disabled=g.why_illegal(A.AcceptTrade(offer.receiver, offer.id)) is not None)
        mine = [o for o in g.offers.values() if who is not None and o.proposer == who]
        for o in mine:
            cash = (m.t("play.mine_you_pay", amount=g.money(o.cash)) if o.cash > 0
                    else m.t("play.mine_you_receive", amount=g.money(-o.cash)) if o.cash < 0 else "")
            text += "<p>" + m.t("play.offer_yours", id=o.id, name=player_badge(m, o.receiver), give=fields(o.give), take=fields(o.take),
                                cash=esc(cash)) + "</p>"
        assign(self.offer_text, object=text)
        self._refresh_propose()

    def _refresh_propose(self) -> None:
        m, who = self.model, self.model.person_to_move
        action = self._trade(who) if who is not None else None
        reason = m.explain(m.game.why_illegal(action)) if action is not None else m.t("why.choose_partner")
        assign(self.propose, disabled=reason is not None)
        assign(self.trade_why, object=f"<small>{esc(reason)}</small>" if reason else "")

    def _refresh_odds(self) -> None:
        """In lesson mode, one line of stakes beside the decision on offer and beside the build buttons."""
        m = self.model
        on = m.odds and m.person_to_move is not None
        turn = [line for line in (buy_line(m), prison_line(m)) if line] if on else []
        build = build_line(m, m.selected_field) if on else ""
        assign(self.stakes, visible=bool(turn), object="".join(f"<p style='margin:2px 0'>{esc(line)}</p>" for line in turn))
        assign(self.build_stakes, visible=bool(build), object=f"<p style='margin:2px 0'>{esc(build)}</p>" if build else "")

    def turn_controls(self, occasional: bool = True) -> pn.Column:
        """The status line and the decisions of a turn, with the autoplay controls.

        Rows wrap on a narrow screen.  The decisions that come and go (confirm,
        buy, prison, train, auction) share one block that keeps the height of a
        row of buttons, so nothing a person is about to click moves when one
        of them appears.  A served page puts them in their block a moment
        later (``occasional=False``, then :meth:`fill_occasional`): they are
        hidden most of the time, and a new page's first pieces stay small.
        """
        self._occasional = pn.Column(min_height=RESERVED_ROW, sizing_mode="stretch_width")
        if occasional:
            self.fill_occasional()
        return pn.Column(
            self.status, self.message,
            _flex(self.roll, self.end_turn, self.claim),
            self._occasional, self.stakes,
            _flex(self.next, self.autoplay, self.run_end, self.undo, self.speed),
            self.keys, self.why,
            sizing_mode="stretch_width",
        )

    def fill_occasional(self) -> None:
        """Put the decisions that come and go in their block of :meth:`turn_controls` (once)."""
        if not self._occasional.objects:
            self._occasional.objects = [_flex(self.confirm, self.cancel), self.offer_text, _flex(self.accept, self.reject),
                                        _flex(self.buy, self.decline), _flex(self.fine, self.jail_card, self.station, self.travel, self.stay),
                                        _flex(self.bid_amount, self.bid, self.pass_auction)]

    def manage_controls(self) -> pn.Column:
        """Building, selling and mortgaging, then trading.

        The trade card starts folded and is filled the first time it is opened:
        most players never open it, and its widgets are a good part of the page.
        """
        self.manage_card.objects = [pn.Column(self.field, _flex(self.house, self.hotel, self.factory), self.build_stakes,
                                              _flex(self.sell_building, self.sell_property, self.mortgage, self.repay),
                                              sizing_mode="stretch_width")]
        return pn.Column(self.manage_card, self.trade_card, sizing_mode="stretch_width")

    def _fill_trade(self, event: Any) -> None:
        if not event.new and not self.trade_card.objects:
            self.trade_card.objects = [pn.Column(self.partner, _flex(self.give, self.take),
                                                 self.cash, self.propose, self.trade_why, sizing_mode="stretch_width")]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.header, self.turn_controls(), self.manage_controls(), sizing_mode="stretch_width")


#: On a phone, whose turn it is in smaller type: the turn's buttons stay in the first screen below the board.
TURN_PHONE_CSS = (f"@media {PHONE} {{ .lp-turn-title {{ font-size: 1.25em !important; }}"
                  " .lp-turn-hint { font-size: 0.95em !important; } }")

#: Height kept for the decisions that come and go: one row of buttons.
RESERVED_ROW = 51
#: Height kept for the message line, and how a message looks.
MESSAGE_HEIGHT = 30
MESSAGE_STYLE = "background:#fff3cd;border:1px solid #e6c65c;border-radius:4px;padding:4px 8px;color:#4d3a00"
#: Height kept for the reasons why buttons are off (about four of them).
WHY_HEIGHT = 90


def _flex(*objects: Any) -> pn.Row:
    """A row of controls that share its width and wrap onto the next line on a narrow screen instead of scrolling sideways.

    A plain row with CSS wrapping: Panel's FlexBox is a templated component,
    two Bokeh models a row and several times the server's work to make.
    """
    for obj in objects:
        obj.styles = {**obj.styles, "flex": "1 1 7em", "width": "auto", "min-width": "max-content"}
    return pn.Row(*objects, styles={"flex-wrap": "wrap", "align-items": "flex-end"}, sizing_mode="stretch_width")
