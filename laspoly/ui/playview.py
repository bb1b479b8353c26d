"""What the Play tab shows, computed without Panel: the header, the hint, the stakes, and every control's state.

:func:`play_view` reads a :class:`~laspoly.ui.model.GameModel` (the game, the
seats played at this screen, the page's language) and the values the person
has typed or chosen (:class:`PlayInputs`: the station, the bid, the property,
the trade) and returns a :class:`PlayView`: whose turn it is and what to do
next, the stakes of the decision on offer, and for every control its label,
whether it is shown and enabled, and why not when it is off.  The rules that
decide those (prison tries left, train fares, undo eligibility, ownership)
are asked here and nowhere else; :mod:`laspoly.ui.controls` only renders the
result, so the Play tab's states are tested without a browser.

The controls are declared as data (:data:`CONTROLS`): one :class:`ControlRow`
gives a control's catalogue key, the action it plays (or the model's method
it calls), when it is shown and what stake its label carries, and the row of
the tab it sits in.  Adding a control is adding a row.

This module imports neither Panel nor Bokeh (an import-linter contract holds it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from laspoly.analysis.odds import build_stakes, buy_stakes, casino_stakes, prison_stakes, show_probability
from laspoly.engine import actions as A
from laspoly.engine.game import AUCTION, BUYING, DEBT, TRAVEL, TURN, Game
from laspoly.engine.state import TradeOffer
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel

#: No property chosen in the list (the board may have selected a field that is not the player's).
NO_FIELD = -1
#: How much the bid box goes above the highest bid when it is at or below it.
BID_STEP = 10


# ---------------------------------------------------------------- stakes in words
#
# One unit everywhere: rent is per opponent turn, and a payback counts opponent turns (all opponents together).
# A long-run average and a short-run chance never share a line: each line says which it is.


def opponent_turns(count: float, lang: str) -> str:
    """A payback in opponent turns, in whole turns: "about 1 opponent turn", "about 122 opponent turns";
    under half a turn, "less than one opponent turn" (never "0 turns").  ``count`` is finite."""
    n = round(count)
    if n < 1:
        return tr("odds.under_an_opponent_turn", lang)
    return trn("odds.about_opponent_turns", n, lang)


def money_tenths(game: Game, amount: float) -> str:
    """An expected amount of money to a tenth, in the game's currency ("0.4 LPD", "$0.4", "0.4€")."""
    return game.money(0).replace("0", f"{amount:.1f}", 1)


def buy_lines(m: GameModel) -> tuple[str, ...]:
    """The stakes of the purchase on offer: the long-run payback, and apart, the short-run chance of an early landing."""
    g, lang = m.game, m.lang
    if g.phase != BUYING or g.pending_field < 0:
        return ()
    s = buy_stakes(g, g.pending_field, g.current)
    price = g.money(s.price)
    if math.isfinite(s.payback_opponent_turns):
        long_run = tr("odds.buy_long_run", lang, rent=money_tenths(g, s.rent_per_opponent_turn), price=price,
                      turns=opponent_turns(s.payback_opponent_turns, lang))
    else:
        long_run = tr("odds.buy_no_rent", lang, price=price)
    return long_run, tr("odds.buy_soon", lang, chance=show_probability(s.p_landed_before_next_turn))


def prison_lines(m: GameModel) -> tuple[str, ...]:
    """A prisoner's choice: this turn's doubles against the fine, and apart, the turns to expect in prison rolling on."""
    g, lang = m.game, m.lang
    p = g.players[g.current]
    if not p.in_prison or not g.rolls_due or g.is_over:
        return ()
    s = prison_stakes(g, g.current)
    return (tr("odds.prison_now", lang, tries=trn("odds.tries", s.tries_left, lang), chance=show_probability(s.p_out_by_rolling),
               fine=g.money(s.fine)),
            tr("odds.prison_long_run", lang, turns=more_turns(s.expected_turns_in_prison, lang)))


def more_turns(turns: float, lang: str) -> str:
    """Turns to expect in prison, to a tenth: "1 more turn", "1.5 more turns"; under one, "less than one more turn"."""
    tenths = round(turns, 1)
    if tenths < 1:
        return tr("odds.under_a_turn", lang)
    return trn("odds.more_turns", tenths, lang, n=f"{tenths:.0f}" if tenths == int(tenths) else f"{tenths:.1f}")


def casino_line(m: GameModel) -> str:
    """The money the next landing on the pot field takes from the pot as it stands, on average (not a chance)."""
    g, lang = m.game, m.lang
    pot = next((f.index for f in g.fields if f.kind == "pot"), None)
    if pot is None or not g.pot:
        return ""
    s = casino_stakes(g, pot)
    if s.expected_share >= 1:
        return tr("odds.casino_all", lang, field=g.field_name(pot, lang), pot=g.money(g.pot))
    return tr("odds.casino", lang, field=g.field_name(pot, lang), payout=g.money(round(s.expected_payout)), pot=g.money(g.pot))


def build_line(m: GameModel, field: int) -> str:
    """One more building on the chosen street: the rent it adds per opponent turn against its price (a long-run average)."""
    g, lang = m.game, m.lang
    if field < 0 or g.fields[field].kind != "street" or g.owner[field] != g.current or g.level[field] >= g.hotel_level:
        return ""
    s = build_stakes(g, field)
    if not math.isfinite(s.payback_opponent_turns):
        return tr("odds.build_no_rent", lang, cost=g.money(s.cost))
    return tr("odds.build", lang, gain=money_tenths(g, s.rent_gain_per_opponent_turn), cost=g.money(s.cost),
              turns=opponent_turns(s.payback_opponent_turns, lang))


def prison_tries_left(game: Game) -> int:
    """How many rolls for doubles the player to move has left in prison this turn."""
    return game.rules.jail_tries_per_turn - game.prison_tries


def is_rolling_prisoner(game: Game, player: int | None) -> bool:
    """Whether ``player`` is to roll this turn from prison (Roll then tries for doubles)."""
    return player is not None and game.phase == TURN and game.rolls_due and game.players[player].in_prison


def train_fare(game: Game, station: int | None) -> int | None:
    """The fare of the train on offer to ``station``, or None when there is no journey to price."""
    if game.phase != TRAVEL or station is None or station not in game.stations:
        return None
    here = game.players[game.actor].pos
    return None if station == here else game.train_fare(here, station)


def owned_field(m: GameModel, player: int | None, field: int) -> int | None:
    """``field`` when ``player`` owns it (the property to build on, sell or mortgage), else None."""
    g = m.game
    return field if player is not None and 0 <= field < len(g.fields) and g.owner[field] == player else None


# ---------------------------------------------------------------- what the person typed or chose


@dataclass(frozen=True)
class PlayInputs:
    """The values of the Play tab's inputs: the station, the bid, the trade being written (the property is the model's)."""

    station: int | None = None
    bid: int = BID_STEP
    partner: int | None = None
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    cash: int = 0


def trade_action(player: int, inputs: PlayInputs) -> A.Action | None:
    """The trade offer written in the inputs, or None when no partner is chosen."""
    if inputs.partner is None:
        return None
    return A.ProposeTrade(player, inputs.partner, inputs.give, inputs.take, inputs.cash)


def offer_to(game: Game, player: int | None) -> TradeOffer | None:
    """The first open offer made to ``player``, or None."""
    return next((o for o in game.offers.values() if player is not None and o.receiver == player), None)


# ---------------------------------------------------------------- the controls, as data

#: Makes the action of a control for the person to move from the inputs (None: something is still to be chosen).
Make = Callable[[GameModel, int, PlayInputs], "A.Action | None"]


def _plain(cls: type[A.Action]) -> Make:
    return lambda m, p, i: cls(p)


def _on_field(cls: Callable[[int, int], A.Action]) -> Make:
    def make(m: GameModel, p: int, i: PlayInputs) -> A.Action | None:
        f = owned_field(m, p, m.selected_field)
        return cls(p, f) if f is not None else None
    return make


def _build(kind: str) -> Make:
    return _on_field(lambda p, f: A.Build(p, f, kind))


def _travel(m: GameModel, p: int, i: PlayInputs) -> A.Action | None:
    return A.Travel(p, i.station if i.station is not None else -1)


def _offer_answer(cls: type[A.AcceptTrade] | type[A.DeclineTrade]) -> Make:
    def make(m: GameModel, p: int, i: PlayInputs) -> A.Action | None:
        offer = offer_to(m.game, p)
        return cls(p, offer.id) if offer is not None else None
    return make


def _in_phase(phase: str) -> Callable[[GameModel], bool]:
    return lambda m: m.game.phase == phase


def _someone_here_in_prison(m: GameModel) -> bool:
    return any(p.in_prison for p in m.game.players if m.is_person(p.index))


def _buy_stake(m: GameModel, i: PlayInputs) -> str | None:
    g = m.game
    return g.money(g.fields[g.pending_field].price) if g.phase == BUYING and g.pending_field >= 0 else None


def _travel_stake(m: GameModel, i: PlayInputs) -> str | None:
    fare = train_fare(m.game, i.station)
    return m.game.money(fare) if fare is not None else None


def _fine_stake(m: GameModel, i: PlayInputs) -> str | None:
    return m.game.money(m.game.rules.jail_fine) if _someone_here_in_prison(m) else None


def _roll_stake(m: GameModel, i: PlayInputs) -> str | None:
    return m.t("stakes.tries", tries=prison_tries_left(m.game)) if is_rolling_prisoner(m.game, m.person_to_move) else None


def _claim_stake(m: GameModel, i: PlayInputs) -> str | None:
    claims = m.person_claims()
    if not claims:
        return None
    payer, amount = m.claim_amount(claims[0])
    return m.t("stakes.claim", amount=m.game.money(amount), payer=m.game.players[payer].name)


@dataclass(frozen=True)
class ControlRow:
    """One control of the Play tab, declared as data.

    ``name`` is the control's attribute on the controls view and its key in
    :attr:`PlayView.controls`; ``key`` its label in the catalogue.  A decision
    of the rules has ``make`` (the action for the person to move, judged by the
    engine: enabled, or off with the reason); a control of the page has
    ``call`` (a method of the model, such as undo).  ``shown`` says when it is
    visible (always, by default), ``stake`` what its label adds while a
    decision is on offer ("Buy (200 LPD)"), ``place`` the row of the tab it
    sits in, ``color`` its colour when nothing changes it.
    """

    name: str
    key: str
    place: str
    make: Make | None = None
    call: Callable[[GameModel], Any] | None = None
    shown: Callable[[GameModel], bool] | None = None
    stake: Callable[[GameModel, PlayInputs], str | None] | None = None
    color: str = "default"


#: The Play tab's buttons, in the order their reasons are listed; the rows of the tab (``place``) in
#: :data:`PLACES`.  Roll, End turn, Claim, Next, Run to end and Undo change with the game in ways
#: :func:`play_view` computes for each by name (colours, the watch screen, the table's undo rule).
CONTROLS: tuple[ControlRow, ...] = (
    ControlRow("roll", "play.roll", "turn", make=_plain(A.Roll), stake=_roll_stake, color="primary"),
    ControlRow("end_turn", "play.end_turn", "turn", make=_plain(A.EndTurn)),
    ControlRow("buy", "play.buy", "buy", make=_plain(A.Buy), shown=_in_phase(BUYING), stake=_buy_stake, color="success"),
    ControlRow("decline", "play.decline", "buy", make=_plain(A.DeclineBuy), shown=_in_phase(BUYING)),
    ControlRow("fine", "play.fine", "prison", make=_plain(A.PayFine), shown=_someone_here_in_prison, stake=_fine_stake),
    ControlRow("jail_card", "play.jail_card", "prison", make=_plain(A.UseJailCard), shown=_someone_here_in_prison),
    ControlRow("travel", "play.travel", "prison", make=_travel, shown=_in_phase(TRAVEL), stake=_travel_stake),
    ControlRow("stay", "play.stay", "prison", make=_plain(A.StayPut), shown=_in_phase(TRAVEL)),
    ControlRow("bid", "play.bid", "auction", make=lambda m, p, i: A.PlaceBid(p, i.bid), shown=_in_phase(AUCTION)),
    ControlRow("pass_auction", "play.pass", "auction", make=_plain(A.PassAuction), shown=_in_phase(AUCTION)),
    ControlRow("house", "play.house", "build", make=_build("house")),
    ControlRow("hotel", "play.hotel", "build", make=_build("hotel"), shown=lambda m: m.game.rules.hotels),
    ControlRow("factory", "play.factory", "build", make=_build("factory"),
               shown=lambda m: any(f.factory_price for f in m.game.fields)),
    ControlRow("sell_building", "play.sell_building", "sell", make=_on_field(A.SellBuilding)),
    ControlRow("sell_property", "play.sell_property", "sell", make=_on_field(A.SellProperty)),
    ControlRow("mortgage", "play.mortgage", "sell", make=_on_field(A.Mortgage)),
    ControlRow("repay", "play.repay", "sell", make=_on_field(A.Repay)),
    ControlRow("accept", "play.accept", "answer", make=_offer_answer(A.AcceptTrade),
               shown=lambda m: offer_to(m.game, m.person_to_move) is not None, color="success"),
    ControlRow("reject", "play.reject", "answer", make=_offer_answer(A.DeclineTrade),
               shown=lambda m: offer_to(m.game, m.person_to_move) is not None),
    ControlRow("propose", "play.propose", "propose", make=lambda m, p, i: trade_action(p, i)),
    ControlRow("claim", "play.claim", "claim", call=lambda m: [m.act(c) for c in m.person_claims()[:1]],
               shown=lambda m: bool(m.person_claims()) or m.game.rules.rent_claim, stake=_claim_stake),
    ControlRow("confirm", "play.confirm", "confirm", call=lambda m: m.confirm(), shown=lambda m: m.pending_confirm is not None,
               color="danger"),
    ControlRow("cancel", "play.cancel", "confirm", call=lambda m: m.cancel(), shown=lambda m: m.pending_confirm is not None),
    ControlRow("next", "play.next", "pace", call=lambda m: m.advance()),
    ControlRow("run_end", "play.run_end", "pace", call=lambda m: m.advance(to_end=True)),
    ControlRow("undo", "play.undo", "pace", call=lambda m: m.undo()),
)

#: The order of the controls in the rows of the Play tab where it matters, with the inputs and toggles that are not
#: buttons (``station``, ``bid_amount``, ``autoplay``, ``speed``) where they sit; a control not listed goes at the end of
#: the row its ``place`` names (:func:`names_in`).
PLACES: dict[str, tuple[str, ...]] = {
    "turn": ("roll", "end_turn"),
    # a row of its own under Roll: its label grows with the rent to claim, and a row that wrapped would move the buttons
    "claim": ("claim",),
    "confirm": ("confirm", "cancel"),
    "answer": ("accept", "reject"),
    "buy": ("buy", "decline"),
    "prison": ("fine", "jail_card", "station", "travel", "stay"),
    "auction": ("bid_amount", "bid", "pass_auction"),
    "pace": ("next", "autoplay", "run_end", "undo", "speed"),
    "build": ("house", "hotel", "factory"),
    "sell": ("sell_building", "sell_property", "mortgage", "repay"),
    "propose": ("propose",),
}

def names_in(place: str) -> tuple[str, ...]:
    """The controls and inputs of a row of the tab, in order: those :data:`PLACES` lists, then any other row placed there."""
    listed = PLACES.get(place, ())
    return listed + tuple(row.name for row in CONTROLS if row.place == place and row.name not in listed)


#: The decisions whose reasons are not listed under the buttons (the trade card says its own).
_UNLISTED = {"accept", "reject", "propose"}


# ---------------------------------------------------------------- the view-model


@dataclass(frozen=True)
class ControlState:
    """A control as the page shows it: its label (with the stake), shown, enabled, and why not when off."""

    label: str
    enabled: bool = True
    visible: bool = True
    reason: str | None = None
    color: str = "default"


@dataclass(frozen=True)
class Header:
    """Whose turn it is (``seat`` gives the colour), what to do next, and the alerts (rent to claim, offers waiting)."""

    seat: int
    title: str
    hint: str
    alerts: tuple[str, ...] = ()


@dataclass(frozen=True)
class OfferLine:
    """An open trade offer as the trade card words it: the catalogue key, the offer's id, the other player, and its parts."""

    key: str
    id: int
    other: int
    give: str
    take: str
    cash: str


@dataclass(frozen=True)
class PlayView:
    """Everything the Play tab shows of the game now, in the page's language."""

    header: Header
    status: str
    message: str
    controls: dict[str, ControlState]
    #: The reasons why shown buttons are off, each with the labels of the buttons it holds back, in the buttons' order.
    reasons: tuple[tuple[str, tuple[str, ...]], ...]
    #: Lesson mode: the stakes of the turn's decision (buy, prison: the long run and the short run each a line of
    #: its own) and of building on the chosen street.
    turn_stakes: tuple[str, ...] = ()
    build_stakes: str = ""
    #: The train's destinations (name to field) and the one chosen; shown only while the train is on offer.
    stations: dict[str, int] = field(default_factory=dict)
    station: int | None = None
    #: The bid box's value: raised above the highest bid when it is not.
    bid: int = BID_STEP
    #: The properties of the person to move (the first entry chooses none), and the chosen one.
    properties: dict[str, int] = field(default_factory=dict)
    chosen_field: int = NO_FIELD
    #: The trade card: partners, the properties each side may give, the offers open, and why Propose is off.
    partners: dict[str, int] = field(default_factory=dict)
    partner: int | None = None
    give_options: dict[str, int] = field(default_factory=dict)
    take_options: dict[str, int] = field(default_factory=dict)
    offers: tuple[OfferLine, ...] = ()
    propose_reason: str | None = None
    #: Predict, then roll: a button per total (2 to 12) beside Roll, by total; the chosen one is primary.
    guesses: dict[int, ControlState] = field(default_factory=dict)


def play_view(m: GameModel, inputs: PlayInputs | None = None) -> PlayView:
    """What the Play tab shows now, for the person (or spectator) at this screen, in the page's language."""
    g, lang = m.game, m.lang
    who = m.person_to_move
    i = inputs or PlayInputs()
    claims = m.person_claims()
    # the inputs as the page will show them: a station of the list, a bid above the highest, a property of the player
    stations: dict[str, int] = {}
    station = i.station
    if g.phase == TRAVEL:
        here = g.players[g.actor].pos
        stations = {g.field_name(s, lang): s for s in g.stations if s != here}
        if stations and station not in stations.values():
            station = next(iter(stations.values()))
    bid = i.bid
    if g.phase == AUCTION and g.auction is not None and bid <= g.auction.high:
        bid = g.auction.high + BID_STEP
    owned = g.owned_by(who) if who is not None else []
    chosen = m.selected_field if m.selected_field in owned else NO_FIELD
    partners = {g.players[p].name: p for p in g.active_players if p != who}
    partner = i.partner if i.partner in partners.values() else None
    i = PlayInputs(station, bid, partner, i.give, i.take, i.cash)

    controls: dict[str, ControlState] = {}
    for row in CONTROLS:
        controls[row.name] = _state(m, row, i)
    roll, end = controls["roll"], controls["end_turn"]
    controls["roll"] = _with(roll, color="default" if claims else "primary")
    # once the roll is done, ending the turn is what comes next: it takes the primary colour Roll had
    controls["end_turn"] = _with(end, color="primary" if not roll.enabled and end.enabled and not claims else "default")
    controls["claim"] = _with(controls["claim"], enabled=bool(claims), color="primary" if claims else "default")
    guesses = guess_states(m)
    if roll.enabled and guesses and who is not None and m.guess is None:  # predict, then roll: the guess comes first
        controls["roll"] = _with(controls["roll"], enabled=False, reason=m.t("predict.first", name=g.players[who].name))
        controls["end_turn"] = _with(controls["end_turn"], color="default")
    watching = not m.can_drive
    for name in ("next", "run_end", "autoplay"):
        controls[name] = ControlState(m.t(f"play.{name}"), enabled=not (g.is_over or watching))
    # Next plays bots' turns: while a person must decide it would do nothing, so it is off and says why
    if not (g.is_over or watching) and m.table.is_person(g.actor):
        controls["next"] = ControlState(m.t("play.next"), enabled=False, reason=m.t("why.next_person", who=g.players[g.actor].name))
    # Undo is on exactly when it would take a decision back; off, it says why (never on only to refuse)
    undo_off = m.undo_refusal()
    controls["undo"] = ControlState(m.t("play.undo"), enabled=undo_off is None, reason=undo_off if g.history else None)
    offer = offer_to(g, who)
    if offer is not None:
        controls["accept"] = _with(controls["accept"], enabled=g.why_illegal(A.AcceptTrade(offer.receiver, offer.id)) is None)
    controls["reject"] = _with(controls["reject"], enabled=True, reason=None)
    action = trade_action(who, i) if who is not None else None
    propose_reason = m.explain(g.why_illegal(action)) if action is not None else m.t("why.choose_partner")
    controls["propose"] = _with(controls["propose"], enabled=propose_reason is None, reason=None)

    grouped: dict[str, list[str]] = {}
    for name, state in controls.items():
        if state.reason and state.visible and not state.enabled and name not in _UNLISTED:
            grouped.setdefault(state.reason, []).append(state.label)
    on = m.odds and who is not None
    return PlayView(
        header=_header(m, claims), status=m.status(), message=m.message, controls=controls,
        reasons=tuple((r, tuple(names)) for r, names in grouped.items()),
        turn_stakes=(*buy_lines(m), *prison_lines(m)) if on else (),
        build_stakes=build_line(m, m.selected_field) if on else "",
        stations=stations, station=station, bid=bid,
        properties={m.t("table.choose_property"): NO_FIELD, **{g.field_name(f, lang): f for f in owned}}, chosen_field=chosen,
        partners=partners, partner=partner,
        give_options={g.field_name(f, lang): f for f in owned} if who is not None else {},
        take_options={g.field_name(f, lang): f for f in g.owned_by(partner)} if partner is not None else {},
        offers=_offers(m, who), propose_reason=propose_reason, guesses=guesses,
    )


#: The totals a guess of predict-then-roll may name.
TOTALS = tuple(range(2, 13))


def guess_states(m: GameModel) -> dict[int, ControlState]:
    """The guess buttons of predict-then-roll, by total: none while the switch is off; on while a person here may roll.

    The chosen guess is the primary one.  A bot's turn, a spectator's screen and a
    turn whose roll is done keep the buttons in place, off.
    """
    if not m.predict:
        return {}
    g, who = m.game, m.person_to_move
    on = who is not None and not g.is_over and g.why_illegal(A.Roll(who)) is None
    return {t: ControlState(str(t), enabled=on, color="primary" if on and m.guess == t else "default") for t in TOTALS}


def _with(state: ControlState, **changes: Any) -> ControlState:
    return ControlState(**{**state.__dict__, **changes})


def _state(m: GameModel, row: ControlRow, i: PlayInputs) -> ControlState:
    """A row's control now: a decision is enabled when the engine takes it, and its reason is kept when a person is to move."""
    label = m.t(row.key)
    stake = row.stake(m, i) if row.stake is not None else None
    if stake:
        label = m.t("stakes.label", label=label, stake=stake)
    visible = row.shown(m) if row.shown is not None else True
    if row.make is None:
        return ControlState(label, visible=visible, color=row.color)
    choice = m.choice(lambda p: row.make(m, p, i) if row.make is not None else None)
    reason = choice.reason if not choice.enabled and m.person_to_move is not None else None
    return ControlState(label, enabled=choice.enabled, visible=visible, reason=reason, color=row.color)


def _header(m: GameModel, claims: list[A.ClaimRent]) -> Header:
    """Whose turn it is and what to do next; rent to claim and offers waiting for an answer."""
    g, lang = m.game, m.lang
    if g.is_over:
        who = g.winner
        title, hint = m.t("table.turn.over", name=g.players[who].name), m.t("table.hint.over")
    else:
        who = g.actor
        name = g.players[who].name
        if m.person_to_move is not None:
            title, hint = m.t("table.turn.yours" if g.phase == TURN else "table.turn.decide", name=name), _hint(m)
        elif not m.is_person(who):
            hint_key = "table.hint.bots_alone" if m.bots_move_alone else "table.hint.next" if m.can_drive else "table.hint.watch"
            if claims and hint_key == "table.hint.next":  # the rent lapses at the next roll: the claim comes before Next
                hint_key = "table.hint.next_claim"
            title, hint = m.t("table.turn.bot", name=name), m.t(hint_key, name=g.players[claims[0].player].name if claims else name)
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
    return Header(who, title, hint, tuple(alerts))


def _hint(m: GameModel) -> str:
    """What the person to move can do now, with the stakes."""
    g, lang = m.game, m.lang
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
        return m.t("table.hint.prison", tries=prison_tries_left(g), fine=g.money(g.rules.jail_fine))
    if m.predict:  # predict, then roll: the guess comes first
        return m.t("predict.ask" if m.guess is None else "predict.locked", name=g.players[g.actor].name, guess=m.guess)
    offer = next((o for o in g.offers.values() if o.receiver == g.actor), None)
    if offer is not None:  # the answer's buttons come under the turn's, after the offer in words: the hint tells they are there
        return m.t("table.hint.roll_offer", name=g.players[offer.proposer].name)
    return m.t("table.hint.roll")


def _offers(m: GameModel, who: int | None) -> tuple[OfferLine, ...]:
    """The offer made to the person to move (first) and the ones they made, as the trade card words them."""
    g, lang = m.game, m.lang
    if who is None:
        return ()

    def fields(indices: tuple[int, ...]) -> str:
        return ", ".join(g.field_name(f, lang) for f in indices) or m.t("play.nothing")

    lines = []
    offer = offer_to(g, who)
    if offer is not None:
        cash = (m.t("play.offer_they_pay", amount=g.money(offer.cash)) if offer.cash > 0
                else m.t("play.offer_you_pay", amount=g.money(-offer.cash)) if offer.cash < 0 else "")
        lines.append(OfferLine("play.offer_to_you", offer.id, offer.proposer, fields(offer.give), fields(offer.take), cash))
    for o in g.offers.values():
        if o.proposer == who:
            cash = (m.t("play.mine_you_pay", amount=g.money(o.cash)) if o.cash > 0
                    else m.t("play.mine_you_receive", amount=g.money(-o.cash)) if o.cash < 0 else "")
            lines.append(OfferLine("play.offer_yours", o.id, o.receiver, fields(o.give), fields(o.take), cash))
    return tuple(lines)
