"""The rules engine: one :class:`Game` plays any preset, exactly.

Design, after python-chess and OpenSpiel:

* The state changes in place.  :meth:`Game.apply` checks an action against the
  rules and raises :class:`IllegalActionError` (changing nothing) when it is not
  allowed; :meth:`Game.push` trusts its caller and is the fast path that bots
  and replays of engine-generated actions use.
* Legality is decided in one place: one ``_why_<action>`` method per action
  type (:mod:`~laspoly.engine.legality`) returns the reason an action is
  illegal, or ``None``.
  :meth:`legal_actions` enumerates candidates through the same methods.
* Each action type is one entry of the action registry (:data:`ACTIONS`, at the
  bottom of this module, filed in :mod:`~laspoly.engine.registry`): its check,
  its effect, its candidates and its words.
* Chance enters only through :class:`Chance`, seeded per game.
* Every change is an :mod:`event <laspoly.engine.events>` in :attr:`Game.log`.

The game moves through *phases*: ``turn`` (manage, roll, end the turn),
``buy``, ``travel``, ``auction``, ``debt`` (raise money to pay) and ``over``.
A debt suspends whatever was under way and a *continuation* tag says how to
carry on once it is paid.

The class is built in layers, each a module of its own and each knowing only
the ones below it: :mod:`~laspoly.engine.state` (the data types),
:mod:`~laspoly.engine.base` (the attributes and the questions asked of them),
:mod:`~laspoly.engine.wording`, :mod:`~laspoly.engine.legality`,
:mod:`~laspoly.engine.payments`, :mod:`~laspoly.engine.turns`, and here the
decisions, the auctions and the set-up.
"""

from __future__ import annotations

from typing import Any, Final

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import position_format
from laspoly.engine.actions import EndTurn, Roll  # named directly: the compiled build then checks a type natively
from laspoly.engine.chance import Chance, parse_dice_script
from laspoly.engine.events import BANK
from laspoly.engine.native import mypyc_attr
from laspoly.engine.observation import Observation
from laspoly.engine.registry import EFFECTS, NOT_LISTED, ActionEntry, any_seat, in_phase, on_field, register
from laspoly.engine.state import (
    AUCTION,
    BUYING,
    DEBT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    TRAVEL,
    TURN,
    AfterAuction,
    Auction,
    Debt,
    Phase,
    Player,
    TradeOffer,
    check_player_count,
    clean_name,
    name_key,
)
from laspoly.engine.turns import Turns
from laspoly.errors import IllegalActionError, SetupError
from laspoly.rules.board import Board
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset, load_preset

__all__ = [
    "AUCTION", "BUYING", "DEBT", "MAX_PLAYERS", "MIN_PLAYERS", "OVER", "TRAVEL", "TURN",
    "Auction", "Debt", "Game", "Phase", "Player", "TradeOffer", "check_player_count", "clean_name",
]


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed in Python: a checked game, the exact chain's walker
class Game(Turns):
    """A game of any preset, from setup to winner.  See the module docstring."""

    # ``| Any``: the set-up checks these itself and names a wrong one in a SetupError; a compiled build would
    # otherwise refuse a wrong type first with a bare TypeError that names nothing.
    def __init__(
        self,
        players: list[str] | int | Any = 4,
        *,
        preset: str | Preset | Any = "laspoly",
        seed: int | Any = 0,
        rules: dict[str, Any] | Any | None = None,
        dice: Any = None,
        max_rounds: int | Any | None = None,
        board: Board | None = None,
        record_events: bool = True,
        keep_history: bool = True,
    ) -> None:
        self.preset = preset if isinstance(preset, Preset) else load_preset(preset)
        self.board: Board = board or self.preset.board
        self.rules: RuleOptions = self.preset.rules.with_overrides(rules)
        if isinstance(players, int) and not isinstance(players, bool):
            names: Any = [f"Player {i + 1}" for i in range(check_player_count(players))]
        else:
            names = players
        if not isinstance(names, list | tuple):
            raise SetupError(f"players must be a count or a list of names, not {type(names).__name__}")
        check_player_count(len(names))
        names = [clean_name(n) for n in names]
        if len({name_key(n) for n in names}) != len(names):
            raise SetupError("players' names must differ")
        if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1):
            raise SetupError(f"max_rounds must be a positive whole number, not {max_rounds!r}")
        script = parse_dice_script(dice)
        self.setup: dict[str, Any] = {
            "preset": self.preset.id, "players": list(names), "seed": seed,
            "rules": dict(rules or {}), "dice": [list(p) for p in script], "max_rounds": max_rounds,
        }
        self.chance = Chance(seed, script)
        self.record_events = record_events
        self.keep_history = keep_history  # off only for throw-away simulations: such a game cannot be saved
        self._check_rules_fit_board()
        self._init_state(names)
        self._begin()

    @classmethod
    def from_position(cls, data: Any, *, record_events: bool = True, keep_history: bool = True) -> Game:
        """A game that plays on from a position (:mod:`~laspoly.engine.position_format`); a bad one raises PositionError."""
        return position_format.game_from_position(cls, data, record_events=record_events, keep_history=keep_history)

    def set_position(self, data: Any) -> None:
        """Replace the whole state by a position, as python-chess's ``Board.set_fen`` does; a bad one changes nothing."""
        position_format.set_position(self, data)

    # ------------------------------------------------------------ setup

    def _check_rules_fit_board(self) -> None:
        r, b = self.rules, self.board
        if b.prison is None and r.three_doubles == "prison":
            raise SetupError("three_doubles=prison needs a board with a prison; choose lose_turn or nothing")
        if r.pot_payout == "none" and any(f.kind == "pot" for f in b.fields):
            raise SetupError("this board has a pot field but pot_payout is none")

    def _begin(self) -> None:
        n = len(self.players)
        if self.rules.first_player == "roll_off":
            self.first = self._roll_off(list(range(n)))
        else:
            self.first = self.chance.choice_index(n)
        self._emit(E.GameStarted(self.first))
        self._start_turn(self.first)

    def _roll_off(self, seats: list[int]) -> int:
        """C10: everyone rolls; the highest total starts; ties roll again."""
        while True:
            totals = {}
            for i in seats:
                d1, d2 = self.chance.roll()
                self._emit(E.Rolled(i, d1, d2))
                totals[i] = d1 + d2
            best = max(totals.values())
            seats = [i for i in seats if totals[i] == best]
            if len(seats) == 1:
                return seats[0]

    def observe(self) -> Observation:
        """What a player at the table may know: the read-only view bots decide from (build it once per game)."""
        return Observation(self)

    # ------------------------------------------------------------ applying actions

    def apply(self, action: A.Action | Any) -> None:  # Any: anything else is refused with a reason, compiled too
        """Check ``action`` against the rules and play it; an illegal one raises and changes nothing."""
        reason = self.why_illegal(action)
        if reason is not None:
            who = self._pname(getattr(action, "player", None))
            what = self.describe_action(action) if isinstance(action, A.Action) else repr(action)
            raise IllegalActionError(who, what, reason)
        self.push(action)

    def push(self, action: A.Action) -> None:
        """Play an action already known to be legal (the fast path; no checks)."""
        if self.keep_history:
            self.history.append(action)
        # the two actions of nearly every turn are called directly, the rest through the table: the compiled
        # build calls a method it knows natively, and one found in a table through Python's generic call
        if type(action) is Roll:
            self._do_roll(action)
        elif type(action) is EndTurn:
            self._do_end_turn(action)
        else:
            EFFECTS[type(action)](self, action)

    # -- decisions

    def _do_end_turn(self, a: A.EndTurn) -> None:
        self._next_turn()

    def _do_buy(self, a: A.Buy) -> None:
        i = self.pending_field
        price = self.fields[i].price
        self._end_move()
        self._set_owner(i, a.player)
        self._emit(E.Bought(a.player, i, price))
        if self._pay_voluntary(a.player, BANK, price):
            self._after_landing(self.players[a.player])

    def _do_decline(self, a: A.DeclineBuy) -> None:
        i = self.pending_field
        if self.record_events:
            self._emit(E.Declined(a.player, i))
        if self.rules.auctions:
            self._start_auction(i, then="after_landing")
        else:
            self._after_landing(self.players[a.player])

    def _do_travel(self, a: A.Travel) -> None:
        p = self.players[a.player]
        src = p.pos
        fare = self.train_fare(src, a.field)
        p.pos = a.field
        self._emit(E.Travelled(a.player, src, a.field, fare))
        self._end_move()
        self._pay_voluntary(a.player, BANK, fare)

    def _do_stay(self, a: A.StayPut) -> None:
        self._end_move()

    def _do_build(self, a: A.Build) -> None:
        i = a.field
        cost = self.build_cost(i, a.building)
        if a.building == "factory":
            self.factory[i] = True
            self.factories += 1
        elif a.building == "hotel":
            self._set_level(i, self.hotel_level)
        else:
            self._set_level(i, self.level[i] + 1)
        self._emit(E.Built(a.player, i, a.building, cost))
        self._pay_voluntary(a.player, BANK, cost)

    def _do_sell_building(self, a: A.SellBuilding) -> None:
        i = a.field
        if self.factory[i]:
            self.factory[i] = False
            self.factories -= 1
            kind, refund = "factory", self.fields[i].factory_price // 2
        elif self.level[i] == self.hotel_level:
            # with a building shortage, the hotel comes down to the houses the bank still has
            houses = min(self.rules.max_houses, self.houses_left) if self.rules.building_shortage else self.rules.max_houses
            self._set_level(i, houses)
            kind = "hotel"
            refund = self.hotel_price(i) // 2 + (self.rules.max_houses - houses) * (self.house_price(i) // 2)
        else:
            self._set_level(i, self.level[i] - 1)
            kind, refund = "house", self.house_price(i) // 2
        self._move_money(BANK, a.player, refund)
        self._emit(E.SoldBuilding(a.player, i, kind, refund))
        self._after_raise()

    def _do_sell_property(self, a: A.SellProperty) -> None:
        i = a.field
        refund = self.fields[i].price // 2
        self._set_owner(i, -1)
        self._move_money(BANK, a.player, refund)
        self._emit(E.SoldProperty(a.player, i, refund))
        self._after_raise()

    def _do_mortgage(self, a: A.Mortgage) -> None:
        i = a.field
        amount = self.fields[i].mortgage
        self.mortgaged[i] = True
        self._move_money(BANK, a.player, amount)
        self._emit(E.Mortgaged(a.player, i, amount))
        self._after_raise()

    def _after_raise(self) -> None:
        if self.phase == DEBT:
            self._settle_debt_if_covered()

    def _do_repay(self, a: A.Repay) -> None:
        cost = self.repay_price(a.field)
        self.mortgaged[a.field] = False
        self._emit(E.Repaid(a.player, a.field, cost))
        self._pay_voluntary(a.player, BANK, cost)

    def _do_pay_fine(self, a: A.PayFine) -> None:
        p = self.players[a.player]
        self._free(p, "fine")
        self._emit(E.Paid(a.player, BANK, self.rules.jail_fine, "fine", -1))
        self._pay_voluntary(a.player, BANK, self.rules.jail_fine)

    def _do_jail_card(self, a: A.UseJailCard) -> None:
        p = self.players[a.player]
        deck, card = p.jail_cards.pop(0)
        if self.rules.card_draw == "cycle":
            self.decks[deck].append(card)
        self._free(p, "jail_card")

    def _do_propose(self, a: A.ProposeTrade) -> None:
        k = self.next_offer
        self.next_offer += 1
        self.offers[k] = TradeOffer(k, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
        self._emit(E.TradeProposed(a.player, a.to, k))

    def _do_accept(self, a: A.AcceptTrade) -> None:
        o = self.offers.pop(a.offer)
        self._emit(E.TradeAccepted(a.player, o.proposer, o.id))
        for i in o.give:
            self._transfer_property(i, o.receiver)
        for i in o.take:
            self._transfer_property(i, o.proposer)
        for _ in range(o.give_cards):
            self.players[o.receiver].jail_cards.append(self.players[o.proposer].jail_cards.pop())
        for _ in range(o.take_cards):
            self.players[o.proposer].jail_cards.append(self.players[o.receiver].jail_cards.pop())
        if o.cash:
            payer, payee = (o.proposer, o.receiver) if o.cash > 0 else (o.receiver, o.proposer)
            self._emit(E.Paid(payer, payee, abs(o.cash), "trade", -1))
            self._pay_voluntary(payer, payee, abs(o.cash))

    def _transfer_property(self, i: int, to: int) -> None:
        """L16/S6: mortgages go along; buildings are lost when the rules say so."""
        self._set_owner(i, to)
        if self.rules.upgrades_lost_on_sale:
            self._clear_buildings(i)

    def _do_decline_trade(self, a: A.DeclineTrade) -> None:
        o = self.offers.pop(a.offer)
        self._emit(E.TradeDeclined(a.player, o.proposer, o.id))

    def _do_claim(self, a: A.ClaimRent) -> None:
        for k, (payer, o, f, amount) in enumerate(self.claims):
            if o == a.player and f == a.field:
                del self.claims[k]
                self._charge(payer, [(o, amount)], "rent", f, "resume")
                return

    # -- auctions (C2, C8)

    def _start_auction(self, i: int, then: AfterAuction, queue: list[int] | None = None, everyone: bool = False) -> None:
        n = len(self.players)
        start = self.current if everyone else self.current + 1
        order = [(start + k) % n for k in range(n)]
        bidders = [j for j in order if self.players[j].active and (everyone or j != self.current)]
        self._emit(E.AuctionStarted(i))
        self.auction = Auction(i, bidders, then=then, queue=list(queue or []))
        self.pending_field = i
        self.phase = AUCTION
        if not bidders:
            self._end_auction()

    def _do_bid(self, a: A.PlaceBid) -> None:
        au = self.auction
        assert au is not None
        au.high, au.high_bidder = a.amount, a.player
        self._emit(E.Bid(a.player, a.amount))
        self._next_bidder()

    def _do_pass_auction(self, a: A.PassAuction) -> None:
        self._emit(E.AuctionPassed(a.player))
        self._leave_auction(a.player)

    def _leave_auction(self, player: int) -> None:
        au = self.auction
        assert au is not None
        k = au.bidders.index(player)
        au.bidders.pop(k)
        if au.high_bidder == player:
            au.high, au.high_bidder = 0, -1
        if k < au.turn:
            au.turn -= 1
        au.turn -= 1
        self._next_bidder()

    def _next_bidder(self) -> None:
        au = self.auction
        assert au is not None
        others = [b for b in au.bidders if b != au.high_bidder]
        if not others:
            self._end_auction()
            return
        au.turn = (au.turn + 1) % len(au.bidders)
        if au.bidders[au.turn] == au.high_bidder:
            au.turn = (au.turn + 1) % len(au.bidders)

    def _end_auction(self) -> None:
        au = self.auction
        assert au is not None
        self.auction = None
        i = au.field
        winner = au.high_bidder
        if winner >= 0:
            self._set_owner(i, winner)
            self._emit(E.AuctionEnded(winner, i, au.high))
            self._move_money(winner, BANK, au.high)
        if au.queue:
            self._start_auction(au.queue[0], au.then, au.queue[1:], everyone=True)
            return
        self.pending_field = -1
        if au.then == "after_landing":
            self.phase = TURN
            self._after_landing(self.players[self.current])
        elif au.then == "next_turn":
            self.phase = TURN
            self._next_turn()
        else:
            self.phase = TURN


#: The phases in which the player to move may build, sell, mortgage and repay on their own fields: all but an
#: auction (whether the phase allows it is the check's to say; a debt allows selling and mortgaging, C11).
_FIELD_PHASES: Final = (TURN, BUYING, TRAVEL, DEBT)

#: The action registry: one entry per action type (its check, effect, candidates and words), in the order
#: ``legal_actions`` lists their candidates.  Adding an action: its dataclass, its ``_why_*`` check and
#: ``_do_*`` effect, one entry here and its messages in the catalogues (``laspoly/locale/*/LC_MESSAGES/laspoly.po``).
ACTIONS: Final[tuple[ActionEntry, ...]] = (
    ActionEntry(A.Roll, Game._why_roll, Game._do_roll, in_phase(TURN, seats=A.ROLL), "action.Roll"),
    ActionEntry(A.EndTurn, Game._why_end_turn, Game._do_end_turn, in_phase(TURN, seats=A.END_TURN),
                "action.EndTurn"),
    ActionEntry(A.Buy, Game._why_buy, Game._do_buy, in_phase(BUYING, seats=A.BUY), "action.Buy"),
    ActionEntry(A.DeclineBuy, Game._why_decline, Game._do_decline, in_phase(BUYING, seats=A.DECLINE_BUY),
                "action.DeclineBuy"),
    ActionEntry(A.Travel, Game._why_travel, Game._do_travel,
                in_phase(TRAVEL, lambda g, p: [A.Travel(p, s) for s in g.stations]), "action.Travel"),
    ActionEntry(A.StayPut, Game._why_stay, Game._do_stay, in_phase(TRAVEL, seats=A.STAY_PUT), "action.StayPut"),
    ActionEntry(A.Build, Game._why_build, Game._do_build,
                on_field(_FIELD_PHASES, lambda p, i: (A.Build(p, i, "house"), A.Build(p, i, "hotel"), A.Build(p, i, "factory"))),
                "action.Build.{building}"),
    ActionEntry(A.SellBuilding, Game._why_sell_building, Game._do_sell_building,
                on_field(_FIELD_PHASES, lambda p, i: (A.SellBuilding(p, i),)), "action.SellBuilding"),
    ActionEntry(A.SellProperty, Game._why_sell_property, Game._do_sell_property,
                on_field(_FIELD_PHASES, lambda p, i: (A.SellProperty(p, i),)), "action.SellProperty"),
    ActionEntry(A.Mortgage, Game._why_mortgage, Game._do_mortgage,
                on_field(_FIELD_PHASES, lambda p, i: (A.Mortgage(p, i),)), "action.Mortgage"),
    ActionEntry(A.Repay, Game._why_repay, Game._do_repay, on_field(_FIELD_PHASES, lambda p, i: (A.Repay(p, i),)),
                "action.Repay"),
    ActionEntry(A.PayFine, Game._why_pay_fine, Game._do_pay_fine, in_phase(TURN, seats=A.PAY_FINE),
                "action.PayFine"),
    ActionEntry(A.UseJailCard, Game._why_jail_card, Game._do_jail_card,
                in_phase(TURN, seats=A.USE_JAIL_CARD), "action.UseJailCard"),
    ActionEntry(A.ProposeTrade, Game._why_propose, Game._do_propose, NOT_LISTED, "action.ProposeTrade"),
    ActionEntry(A.AcceptTrade, Game._why_accept, Game._do_accept,
                in_phase(TURN, lambda g, p: [A.AcceptTrade(p, o.id) for o in g.offers.values() if o.receiver == p]),
                "action.AcceptTrade"),
    ActionEntry(A.DeclineTrade, Game._why_decline_trade, Game._do_decline_trade,
                in_phase(TURN, lambda g, p: [A.DeclineTrade(p, o.id) for o in g.offers.values() if o.receiver == p]),
                "action.DeclineTrade"),
    ActionEntry(A.PlaceBid, Game._why_bid, Game._do_bid, in_phase(AUCTION, lambda g, p: (A.PlaceBid(p, g.auction.high + 1),)),
                "action.PlaceBid"),
    ActionEntry(A.PassAuction, Game._why_pass_auction, Game._do_pass_auction,
                in_phase(AUCTION, seats=A.PASS_AUCTION), "action.PassAuction"),
    ActionEntry(A.ClaimRent, Game._why_claim, Game._do_claim,
                any_seat(lambda g, p: [A.ClaimRent(p, f) for (_, o, f, _) in g.claims if o == p]), "action.ClaimRent"),
)

register(ACTIONS)
