"""The rules engine: one :class:`Game` plays any preset, exactly.

Design, after python-chess and OpenSpiel:

* The state changes in place.  :meth:`Game.apply` checks an action against the
  rules and raises :class:`IllegalActionError` (changing nothing) when it is not
  allowed; :meth:`Game.push` trusts its caller and is the fast path that bots
  and replays of engine-generated actions use.
* Legality is decided in one place: one ``_why_<action>`` method per action
  type returns the reason an action is illegal, or ``None``.
  :meth:`legal_actions` enumerates candidates through the same methods.
* Chance enters only through :class:`Chance`, seeded per game.
* Every change is an :mod:`event <laspoly.engine.events>` in :attr:`Game.log`.

The game moves through *phases*: ``turn`` (manage, roll, end the turn),
``buy``, ``travel``, ``auction``, ``debt`` (raise money to pay) and ``over``.
A debt suspends whatever was under way and a *continuation* tag says how to
carry on once it is paid.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.chance import Chance, parse_dice_script
from laspoly.engine.errors import IllegalActionError, SetupError
from laspoly.engine.events import BANK, POT
from laspoly.rules.board import Board, Field
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset, load_preset

TURN, BUY, TRAVEL, AUCTION, DEBT, OVER = "turn", "buy", "travel", "auction", "debt", "over"
MANAGING = (TURN, BUY, TRAVEL)  # phases in which the current player may build, sell, mortgage
MAX_NAME = 40
HOUSES, HOTELS = 32, 12  # the bank's supply with the building_shortage option
MIN_PLAYERS, MAX_PLAYERS = 2, 8


def check_player_count(count: Any) -> int:
    """The one player limit of every preset, the command line and the dashboard: 2 to 8 players."""
    if isinstance(count, bool) or not isinstance(count, int) or not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise SetupError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count!r}")
    return count


#: The zero-width joiner, which joins emoji into one picture (👩🏽‍🏫 is a woman, a skin tone and a school).
ZWJ = "\u200d"


def clean_name(name: Any) -> str:
    """Check a player's name: 1-40 printable characters.  Markup is kept as text; views escape it.

    Python's ``isprintable`` refuses every invisible format character, among them
    the direction overrides that could make a name read backwards.  The one
    allowed is the zero-width joiner, which emoji sequences need.
    """
    if not isinstance(name, str):
        raise SetupError(f"a player's name must be text, not {type(name).__name__}")
    name = " ".join(name.split())
    if not name:
        raise SetupError("a player's name must not be empty")
    if len(name) > MAX_NAME:
        raise SetupError(f"a player's name has at most {MAX_NAME} characters: {name[:MAX_NAME]!r}...")
    # the joiner is allowed only inside an emoji sequence: never at an end, beside a space or another joiner
    padded = f" {name} "
    stray_joiner = any(padded[k] == ZWJ and {padded[k - 1], padded[k + 1]} & {" ", ZWJ} for k in range(1, len(padded) - 1))
    visible = name.replace(ZWJ, "")
    if not visible or not visible.isprintable() or stray_joiner:
        raise SetupError(f"a player's name must be printable text: {name!r}")
    return name


class Player:
    """One seat: cash, position and prison status.  Ownership lives on the game."""

    __slots__ = (
        "active",
        "cash",
        "has_passed_start",
        "in_prison",
        "index",
        "jail_cards",
        "lose_turn",
        "name",
        "pos",
        "prison_turns",
    )

    def __init__(self, index: int, name: str, cash: int) -> None:
        self.index = index
        self.name = name
        self.cash = cash
        self.pos = 0
        self.active = True
        self.in_prison = False
        self.prison_turns = 0
        self.jail_cards: list[tuple[str, int]] = []
        self.lose_turn = False
        self.has_passed_start = False

    def snapshot(self) -> dict[str, Any]:
        """Every attribute as plain data."""
        return {k: getattr(self, k) if k != "jail_cards" else [list(c) for c in self.jail_cards] for k in self.__slots__}


@dataclass(slots=True)
class TradeOffer:
    """A pending offer (L16): ``cash`` > 0 is paid by the proposer, < 0 by the receiver."""

    id: int
    proposer: int
    receiver: int
    give: tuple[int, ...]
    take: tuple[int, ...]
    cash: int
    give_cards: int = 0
    take_cards: int = 0


@dataclass(slots=True)
class Debt:
    """A payment that cash could not cover: the debtor must raise money (L19)."""

    payer: int
    payments: list[tuple[int, int]]
    reason: str
    field: int
    then: str
    resume: tuple[str, int] = (TURN, -1)

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.payments)


@dataclass(slots=True)
class Auction:
    """An open ascending auction (C2): bidders take turns to bid or leave."""

    field: int
    bidders: list[int]
    turn: int = 0
    high: int = 0
    high_bidder: int = -1
    then: str = "after_landing"
    queue: list[int] = field(default_factory=list)


class Game:
    """A game of any preset, from setup to winner.  See the module docstring."""

    def __init__(
        self,
        players: list[str] | int = 4,
        *,
        preset: str | Preset = "laspoly",
        seed: int = 0,
        rules: dict[str, Any] | None = None,
        dice: Any = None,
        max_rounds: int | None = None,
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
        if len({n.casefold() for n in names}) != len(names):
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

    # ------------------------------------------------------------ setup

    def _check_rules_fit_board(self) -> None:
        r, b = self.rules, self.board
        if b.prison is None and r.three_doubles == "prison":
            raise SetupError("three_doubles=prison needs a board with a prison; choose lose_turn or nothing")
        if r.pot_payout == "none" and any(f.kind == "pot" for f in b.fields):
            raise SetupError("this board has a pot field but pot_payout is none")

    def _init_state(self, names: list[str]) -> None:
        b = self.board
        n = b.size
        self.players = [Player(i, name, self.rules.start_money) for i, name in enumerate(names)]
        self.fields: tuple[Field, ...] = b.fields
        self.owner = [-1] * n
        self.owner_version = 0  # bumped by every change of ownership
        self.level = [0] * n  # houses 0..max_houses; max_houses + 1 is a hotel
        self.factory = [False] * n
        self.mortgaged = [False] * n
        self.hotel_level = self.rules.max_houses + 1
        self.houses_left = HOUSES if self.rules.building_shortage else 0  # the bank's supply (counted always,
        self.hotels_left = HOTELS if self.rules.building_shortage else 0  # enforced with building_shortage)
        self.group_of: list[tuple[int, ...]] = [b.groups[f.group].fields if f.group in b.groups else (f.index,) for f in b.fields]
        self.board_groups: tuple[tuple[int, ...], ...] = tuple(g.fields for g in b.groups.values())
        self.stations = b.fields_of_kind("station")
        self.attractions = b.fields_of_kind("attraction")
        self.prison = b.prison
        self.pot = 0
        self.bank = 0  # money the bank has taken in, less what it paid out
        self.factories = 0
        self.decks: dict[str, deque[int]] = {}
        for name, cards in b.decks.items():
            order = list(range(len(cards)))
            self.chance.shuffle(order)
            self.decks[name] = deque(order)
        self.current = 0
        self.first = 0
        self.phase = TURN
        self.rolls_due = True
        self.doubles_count = 0
        self.prison_tries = 0
        self.dice: tuple[int, int] = (0, 0)
        self.last_card: tuple[str, int] | None = None
        self.round = 1
        self.turns = 0
        self.pending_field = -1
        self.arrived_by_card = False
        self.card_rent_multiplier = 0
        self.debt: Debt | None = None
        self.auction: Auction | None = None
        self.offers: dict[int, TradeOffer] = {}
        self.next_offer = 1
        self.claims: list[tuple[int, int, int, int]] = []  # (payer, owner, field, amount)
        self.collect_queue: list[tuple[int, int, int]] = []  # (payer, payee, amount)
        self.winner = -1
        self.end_reason = ""
        self.log: list[E.Event] = []
        self.history: list[A.Action] = []

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

    # ------------------------------------------------------------ queries

    @property
    def actor(self) -> int:
        """The player who must decide now (the debtor or bidder, else the current player)."""
        if self.phase == DEBT:
            return self.debt.payer  # type: ignore[union-attr]
        if self.phase == AUCTION:
            a = self.auction
            return a.bidders[a.turn]  # type: ignore[union-attr]
        return self.current

    @property
    def is_over(self) -> bool:
        """True once the game has a winner."""
        return self.phase == OVER

    @property
    def active_players(self) -> list[int]:
        """Indices of the players still in the game."""
        return [p.index for p in self.players if p.active]

    def owned_by(self, player: int) -> list[int]:
        """Fields owned by ``player``, in board order."""
        return [i for i, o in enumerate(self.owner) if o == player]

    def owns_group(self, player: int, index: int) -> bool:
        """True if ``player`` owns every street of ``index``'s colour group."""
        owner = self.owner
        return all(owner[j] == player for j in self.group_of[index])

    def group_has_buildings(self, index: int) -> bool:
        """True if any street of ``index``'s group has a house, hotel or factory."""
        return any(self.level[j] or self.factory[j] for j in self.group_of[index])

    def house_price(self, index: int) -> int:
        """What one house costs on this street (C5: the mortgage value in ``classic``)."""
        f = self.fields[index]
        return f.mortgage if self.rules.house_price == "mortgage_value" else f.house_price

    def hotel_price(self, index: int) -> int:
        """What the hotel costs on top of the houses (C5: one more house)."""
        f = self.fields[index]
        return f.mortgage if self.rules.house_price == "mortgage_value" else f.hotel_price

    def build_cost(self, index: int, building: str) -> int:
        """What a house, hotel or factory costs on this street."""
        if building == "factory":
            return self.fields[index].factory_price
        return self.hotel_price(index) if building == "hotel" else self.house_price(index)

    def cost_of(self, action: A.Action) -> int:
        """What a voluntary action would take from the player's cash now (0 for actions that pay nothing).

        This is the amount L19 looks at: a voluntary payment that leaves exactly zero puts the player out.
        """
        if isinstance(action, A.Buy):
            return self.fields[self.pending_field].price if self.pending_field >= 0 else 0
        if isinstance(action, A.Build):
            return self.build_cost(action.field, action.building)
        if isinstance(action, A.Repay):
            return self.repay_price(action.field)
        if isinstance(action, A.Travel):
            return self.train_fare(self.players[action.player].pos, action.field)
        if isinstance(action, A.PayFine):
            return self.rules.jail_fine
        if isinstance(action, A.PlaceBid):
            return action.amount
        if isinstance(action, A.AcceptTrade) and action.offer in self.offers:
            return max(0, -self.offers[action.offer].cash)
        if isinstance(action, A.ProposeTrade):
            return max(0, action.cash)
        return 0

    def repay_price(self, index: int) -> int:
        """Mortgage value plus interest rounded up (L18) plus any flat fee (S7)."""
        m = self.fields[index].mortgage
        return m + -(-m * self.rules.mortgage_interest_percent // 100) + self.rules.mortgage_fee

    def building_value(self, index: int) -> int:
        """What the buildings on ``index`` cost, at full price."""
        lvl = self.level[index]
        if self.factory[index]:
            return self.fields[index].factory_price
        if lvl == self.hotel_level:
            return self.rules.max_houses * self.house_price(index) + self.hotel_price(index)
        return lvl * self.house_price(index)

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise by selling every building and mortgaging or selling every property."""
        total = 0
        for i in self.owned_by(player):
            f = self.fields[i]
            total += self._building_refund_all(i)
            if not self.mortgaged[i]:
                total += max(f.mortgage, f.price // 2)
        return total

    def _building_refund_all(self, index: int) -> int:
        lvl = self.level[index]
        if self.factory[index]:
            return self.fields[index].factory_price // 2
        if lvl == self.hotel_level:
            return self.hotel_price(index) // 2 + self.rules.max_houses * (self.house_price(index) // 2)
        return lvl * (self.house_price(index) // 2)

    def net_worth(self, player: int) -> int:
        """L20: cash, plus property prices less mortgage values, plus buildings at their price."""
        p = self.players[player]
        if not p.active:
            return 0
        total = p.cash
        for i in self.owned_by(player):
            f = self.fields[i]
            total += f.price - (f.mortgage if self.mortgaged[i] else 0) + self.building_value(i)
        return total

    def rent(self, index: int, dice_total: int | None = None) -> int:
        """Rent due on ``index`` now, for a lander who rolled ``dice_total`` (L5-L7, C3-C4, S1)."""
        o = self.owner[index]
        if o < 0 or self.mortgaged[index]:
            return 0
        f = self.fields[index]
        kind = f.kind
        if kind == "street":
            if self.factory[index]:
                return 0
            lvl = self.level[index]
            if lvl:
                return f.rents[min(lvl, len(f.rents) - 1)]
            base = f.rents[0]
            return base * 2 if self.rules.group_doubles_rent and self.owns_group(o, index) else base
        if kind == "station":
            n = sum(1 for j in self.stations if self.owner[j] == o)
            r = self.rules
            if r.station_rent == "linear":
                return r.station_base_rent * n
            return r.station_base_rent * 2 ** (n - 1 if r.station_rent == "doubling" else n)
        n = sum(1 for j in self.attractions if self.owner[j] == o)
        mult = self.rules.attraction_all if n == len(self.attractions) else self.rules.attraction_one
        return mult * (sum(self.dice) if dice_total is None else dice_total)

    def train_fare(self, src: int, dst: int) -> int:
        """L10: 75 for each station passed in the direction of movement."""
        s = self.stations
        hops = (s.index(dst) - s.index(src)) % len(s)
        return self.rules.train_fare * hops

    def _covers(self, balance: int) -> bool:
        """Whether a balance after a payment keeps the player in (L19: hitting zero is out)."""
        return balance > 0 if self.rules.elimination == "zero" else balance >= 0

    # ------------------------------------------------------------ names (events.Namer)

    def party_name(self, who: int, lang: str = "en") -> str:
        """A player's name, or the bank or the pot in ``lang``."""
        if who == BANK:
            return "the bank" if lang == "en" else "la banca"
        if who == POT:
            pot = "the casino pot" if self.rules.pot_payout == "casino_doubles" else "the pot"
            return pot if lang == "en" else ("el bote del casino" if self.rules.pot_payout == "casino_doubles" else "el BOTE")
        return self.players[who].name

    def field_name(self, index: int, lang: str = "en") -> str:
        """A field's name in ``lang``."""
        return self.fields[index].label(lang) if index >= 0 else "-"

    def card_text(self, deck: str, card: int, lang: str = "en") -> str:
        """A card's text in ``lang``."""
        return self.board.decks[deck][card].label(lang)

    def money(self, amount: int) -> str:
        """An amount with the board's currency: ``150 LPD``, ``$150``, ``150€``."""
        c = self.board.currency
        if c == "$":
            return f"${amount}"
        return f"{amount}{c}" if c == "€" else f"{amount} {c}"

    def describe(self, event: E.Event, lang: str = "en") -> str:
        """One event as a sentence."""
        return event.text(self, lang)

    def describe_action(self, action: A.Action) -> str:
        """An action in words, naming fields: "build a house on Fremont Street"."""
        name = type(action).__name__
        fld = getattr(action, "field", None)
        words = {
            "Roll": "roll", "EndTurn": "end the turn", "Buy": "buy", "DeclineBuy": "decline to buy",
            "StayPut": "stay", "PayFine": "pay the prison fine", "UseJailCard": "use a Get-Out-of-Prison card",
            "PassAuction": "leave the auction",
        }
        if name in words:
            return words[name]
        if isinstance(action, A.Build):
            return f"build a {action.building} on {self._fname(fld)}"
        if isinstance(action, A.Travel):
            return f"take the train to {self._fname(fld)}"
        if isinstance(action, A.ProposeTrade):
            return f"offer a trade to {self._pname(action.to)}"
        if isinstance(action, A.PlaceBid):
            return f"bid {action.amount}"
        if isinstance(action, A.AcceptTrade | A.DeclineTrade):
            return f"{'accept' if isinstance(action, A.AcceptTrade) else 'decline'} trade #{action.offer}"
        verb = {"SellBuilding": "sell a building on", "SellProperty": "sell", "Mortgage": "mortgage",
                "Repay": "repay the mortgage on", "ClaimRent": "claim the rent for"}[name]
        return f"{verb} {self._fname(fld)}"

    def _fname(self, index: Any) -> str:
        return self.fields[index].label() if isinstance(index, int) and 0 <= index < len(self.fields) else f"field {index!r}"

    def _pname(self, index: Any) -> str:
        return self.players[index].name if isinstance(index, int) and 0 <= index < len(self.players) else f"player {E.player_number(index)}"

    # ------------------------------------------------------------ applying actions

    def apply(self, action: A.Action) -> None:
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
        _HANDLERS[type(action)](self, action)

    def is_legal(self, action: A.Action) -> bool:
        """True if :meth:`apply` would accept ``action`` now."""
        return self.why_illegal(action) is None

    def why_illegal(self, action: Any) -> str | None:
        """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
        if not isinstance(action, A.Action) or type(action) not in _CHECKS:
            return f"{action!r} is not a laspoly action"
        p = action.player
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(self.players):
            return f"there is no player {E.player_number(p)} (the players are 1 to {len(self.players)})"
        if self.phase == OVER:
            return "the game is over"
        if not self.players[p].active:
            return "that player is out of the game"
        if not isinstance(action, A.ClaimRent) and p != self.actor:
            return f"it is {self.players[self.actor].name}'s decision now"
        for name in ("field", "to", "offer", "amount", "cash", "give_cards", "take_cards"):
            v = getattr(action, name, 0)
            if not isinstance(v, int) or isinstance(v, bool):
                return f"{name} must be a whole number"
        fld = getattr(action, "field", None)
        if fld is not None and not 0 <= fld < len(self.fields):
            return f"there is no field {fld}"
        return _CHECKS[type(action)](self, action)

    def legal_actions(self, player: int | None = None) -> list[A.Action]:
        """Every legal action of ``player`` (default: the actor), except open-ended trade offers.

        Trade proposals cannot be listed (any mix of properties and cash); check
        one with :meth:`why_illegal`.  In an auction the minimum bid stands for
        every bid up to the bidder's cash.
        """
        if self.phase == OVER:
            return []
        p = self.actor if player is None else player
        candidates: list[A.Action] = [A.ClaimRent(p, f) for (_, o, f, _) in self.claims if o == p]
        if p == self.actor:
            candidates += self._candidates(p)
        return [a for a in candidates if self.why_illegal(a) is None]

    def _candidates(self, p: int) -> list[A.Action]:
        ph = self.phase
        out: list[A.Action]
        if ph == AUCTION:
            return [A.PlaceBid(p, self.auction.high + 1), A.PassAuction(p)]  # type: ignore[union-attr]
        if ph == TURN:
            out = [A.Roll(p), A.EndTurn(p), A.PayFine(p), A.UseJailCard(p)]
            out += [A.AcceptTrade(p, o.id) for o in self.offers.values() if o.receiver == p]
            out += [A.DeclineTrade(p, o.id) for o in self.offers.values() if o.receiver == p]
        elif ph == BUY:
            out = [A.Buy(p), A.DeclineBuy(p)]
        elif ph == TRAVEL:
            out = [A.Travel(p, s) for s in self.stations] + [A.StayPut(p)]
        else:
            out = []
        for i in self.owned_by(p):
            out += [A.Build(p, i, "house"), A.Build(p, i, "hotel"), A.Build(p, i, "factory"),
                    A.SellBuilding(p, i), A.SellProperty(p, i), A.Mortgage(p, i), A.Repay(p, i)]
        return out

    # ------------------------------------------------------------ legality (one method per action)

    def _why_roll(self, a: A.Roll) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if not self.rolls_due:
            return "no roll is due; end the turn"
        return None

    def _why_end_turn(self, a: A.EndTurn) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if self.rolls_due:
            return "you still have to roll" + (" (you rolled doubles)" if self.doubles_count else "")
        return None

    def _why_buy(self, a: A.Buy) -> str | None:
        if self.phase != BUY:
            return "there is nothing to buy now"
        price = self.fields[self.pending_field].price
        if price > self.players[a.player].cash:
            return f"it costs {self.money(price)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _why_decline(self, a: A.DeclineBuy) -> str | None:
        return None if self.phase == BUY else "there is nothing to buy now"

    def _why_travel(self, a: A.Travel) -> str | None:
        if self.phase != TRAVEL:
            return "you can take the train only right after landing on a station"
        here = self.players[a.player].pos
        if a.field not in self.stations or a.field == here:
            return "the train goes only to another station"
        fare = self.train_fare(here, a.field)
        if fare > self.players[a.player].cash:
            return f"the fare is {self.money(fare)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _why_stay(self, a: A.StayPut) -> str | None:
        return None if self.phase == TRAVEL else "there is no train to decline"

    def _own_turn_reason(self, a: A.Action) -> str | None:
        if self.phase not in MANAGING or a.player != self.current:
            return "you can do that only on your own turn, outside an auction or a debt"
        return None

    def _why_build(self, a: A.Build) -> str | None:
        reason = self._own_turn_reason(a) or self._owns_street(a.player, a.field)
        if reason:
            return reason
        i, r = a.field, self.rules
        if not self.owns_group(a.player, i):
            return "you need the whole colour group"
        if any(self.mortgaged[j] for j in self.group_of[i]):
            return "a street of this group is mortgaged"
        if self.factory[i]:
            return "a factory is final; nothing can be built on it"
        levels = self._even_levels(i)
        if a.building == "factory":
            if not self.fields[i].factory_price:
                return "this street allows no factory"
            if self.level[i]:
                return "a factory goes only on a street with no building"
        elif a.building == "hotel":
            if not r.hotels or r.max_houses == 0:
                return "these rules have no hotels"
            if self.level[i] == self.hotel_level:
                return "there is a hotel already"
            if self.level[i] != r.max_houses or min(levels) < r.max_houses:
                return f"a hotel needs {r.max_houses} houses on every street of the group without a factory"
            if r.building_shortage and self.hotels_left < 1:
                return "the bank has no hotels left"
        elif a.building == "house":
            if self.level[i] >= r.max_houses:
                return f"a street holds at most {r.max_houses} houses"
            if self.level[i] > min(levels):
                return "you must build evenly across the group"
            if r.building_shortage and self.houses_left < 1:
                return "the bank has no houses left"
        else:
            return f"there is no building called {a.building!r}"
        cost = self.build_cost(i, a.building)
        if cost > self.players[a.player].cash:
            return f"it costs {self.money(cost)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _owns_street(self, player: int, i: int) -> str | None:
        if self.owner[i] != player:
            return "you do not own it"
        if self.fields[i].kind != "street":
            return "only streets take buildings"
        return None

    def _manage_reason(self, a: A.Action) -> str | None:
        """Selling and mortgaging: on one's own turn, or as the debtor in a debt (C11)."""
        if self.phase == DEBT:
            return None if a.player == self.debt.payer else "only the debtor may sell now"  # type: ignore[union-attr]
        return self._own_turn_reason(a)

    def _even_levels(self, i: int, besides: int | None = None) -> list[int]:
        """The building levels that building and selling keep even (L17): the streets of ``i``'s group
        without a factory (L12), leaving out ``besides``."""
        return [self.level[j] for j in self.group_of[i] if not self.factory[j] and j != besides]

    def _why_sell_building(self, a: A.SellBuilding) -> str | None:
        reason = self._manage_reason(a) or self._owns_street(a.player, a.field)
        if reason:
            return reason
        i = a.field
        if self.factory[i]:
            # L12 with L17: the street comes back unbuilt and rejoins the group's evenness, so the sale
            # must keep the group even: the other streets without a factory hold at most one house
            if max(self._even_levels(i, besides=i), default=0) > 1:
                return "selling the factory would leave the group uneven: sell the other streets down to one house first"
            return None
        if self.level[i] == self.hotel_level:
            return None
        if not self.level[i]:
            return "there is no building on it"
        if self.level[i] < max(self._even_levels(i)):
            return "you must sell evenly: sell from the most built street first"
        return None

    def _why_sell_property(self, a: A.SellProperty) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if self.mortgaged[a.field]:
            return "a mortgaged property cannot be sold to the bank"
        if self.group_has_buildings(a.field):
            return "sell the group's buildings first"
        return None

    def _why_mortgage(self, a: A.Mortgage) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.rules.mortgage_when == "debt_only" and self.phase != DEBT:
            return "you may mortgage only to pay a debt that your cash cannot cover"
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if self.mortgaged[a.field]:
            return "it is mortgaged already"
        if self.group_has_buildings(a.field):
            return "sell the group's buildings first"
        return None

    def _why_repay(self, a: A.Repay) -> str | None:
        reason = self._own_turn_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if not self.mortgaged[a.field]:
            return "it is not mortgaged"
        cost = self.repay_price(a.field)
        if cost > self.players[a.player].cash:
            return f"repaying costs {self.money(cost)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _prison_start_reason(self, a: A.Action) -> str | None:
        p = self.players[a.player]
        if self.phase != TURN or not p.in_prison:
            return "you are not in prison"
        if self.prison_tries:
            return "you have already rolled this turn"
        return None

    def _why_pay_fine(self, a: A.PayFine) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        p = self.players[a.player]
        if p.prison_turns >= self.rules.jail_fine_turns:
            return f"the fine may be paid only on the first {self.rules.jail_fine_turns} prison turns"
        if self.rules.jail_fine > p.cash:
            return f"the fine is {self.money(self.rules.jail_fine)} and you have {self.money(p.cash)}"
        return None

    def _why_jail_card(self, a: A.UseJailCard) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        return None if self.players[a.player].jail_cards else "you hold no Get-Out-of-Prison card"

    def _why_propose(self, a: A.ProposeTrade) -> str | None:
        if self.phase != TURN or a.player != self.current:
            return "offers are sent only on your own turn (L16)"
        if not isinstance(a.to, int) or not 0 <= a.to < len(self.players) or a.to == a.player or not self.players[a.to].active:
            return "choose another player who is still in the game"
        if not (a.give or a.take or a.cash or a.give_cards or a.take_cards):
            return "the offer is empty"
        offer = TradeOffer(0, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
        return self._offer_problem(offer)

    def _offer_problem(self, o: TradeOffer) -> str | None:
        """Why an offer does not match what the players own, or None (L16, C9)."""
        for name, fields_, who in (("give", o.give, o.proposer), ("take", o.take, o.receiver)):
            if len(set(fields_)) != len(fields_):
                return f"{name} lists a field twice"
            for i in fields_:
                if not isinstance(i, int) or not 0 <= i < len(self.fields) or self.owner[i] != who:
                    return f"{self._pname(who)} does not own {self._fname(i)}"
                req = self.rules.trade_requires
                if req == "unbuilt_property" and (self.level[i] or self.factory[i]):
                    return f"{self._fname(i)} has buildings on it"
                if req == "unbuilt_group" and self.group_has_buildings(i):
                    return f"{self._fname(i)}'s group has buildings on it"
        for n in (o.give_cards, o.take_cards):
            if not isinstance(n, int) or n < 0:
                return "card counts must be whole numbers of at least 0"
        if (o.give_cards or o.take_cards) and not self.rules.jail_cards_tradable:
            return "Get-Out-of-Prison cards cannot be traded under these rules"
        if o.give_cards > len(self.players[o.proposer].jail_cards) or o.take_cards > len(self.players[o.receiver].jail_cards):
            return "not enough Get-Out-of-Prison cards"
        payer = o.proposer if o.cash > 0 else o.receiver
        if abs(o.cash) > self.players[payer].cash:
            return f"{self.players[payer].name} does not have {self.money(abs(o.cash))}"
        return None

    def _offer_to(self, a: A.AcceptTrade | A.DeclineTrade) -> TradeOffer | str:
        if self.phase != TURN or a.player != self.current:
            return "offers are answered only on your own turn (L16)"
        o = self.offers.get(a.offer)
        if o is None or o.receiver != a.player:
            return f"there is no pending offer #{a.offer} to you"
        return o

    def _why_accept(self, a: A.AcceptTrade) -> str | None:
        o = self._offer_to(a)
        if isinstance(o, str):
            return o
        problem = self._offer_problem(o)
        return f"the offer has lapsed: {problem}" if problem else None

    def _why_decline_trade(self, a: A.DeclineTrade) -> str | None:
        o = self._offer_to(a)
        return o if isinstance(o, str) else None

    def _why_bid(self, a: A.PlaceBid) -> str | None:
        if self.phase != AUCTION:
            return "there is no auction"
        if a.amount <= self.auction.high:  # type: ignore[union-attr]
            return f"a bid must be more than {self.money(self.auction.high)}"  # type: ignore[union-attr]
        if not self._covers(self.players[a.player].cash - a.amount):
            return f"you have only {self.money(self.players[a.player].cash)}"
        return None

    def _why_pass_auction(self, a: A.PassAuction) -> str | None:
        return None if self.phase == AUCTION else "there is no auction"

    def _why_claim(self, a: A.ClaimRent) -> str | None:
        if self.phase not in MANAGING:
            return "rent can be claimed once the current decision is made"
        if not any(o == a.player and f == a.field for (_, o, f, _) in self.claims):
            return "no rent is waiting to be claimed for that field"
        return None

    def _phase_reason(self) -> str:
        return {
            BUY: "first decide whether to buy", TRAVEL: "first decide whether to take the train",
            AUCTION: "an auction is running", DEBT: "a debt must be paid first",
        }.get(self.phase, "not now")

    # ------------------------------------------------------------ money

    def _set_level(self, i: int, new: int) -> None:
        """Every change of houses and hotels goes through here, keeping the bank's supply counted."""
        old, top = self.level[i], self.hotel_level
        self.houses_left += (old if old < top else 0) - (new if new < top else 0)
        self.hotels_left += (old == top) - (new == top)
        self.level[i] = new

    def _clear_buildings(self, i: int) -> None:
        """Remove every building from ``i`` (back to the bank's supply)."""
        if self.level[i]:
            self._set_level(i, 0)
        if self.factory[i]:
            self.factory[i] = False
            self.factories -= 1

    def _set_owner(self, i: int, player: int) -> None:
        """Every change of ownership goes through here, so caches can watch ``owner_version``."""
        self.owner[i] = player
        self.owner_version += 1

    def _emit(self, event: E.Event) -> None:
        if self.record_events:
            self.log.append(event)

    def _move_money(self, payer: int, payee: int, amount: int) -> None:
        if payer >= 0:
            self.players[payer].cash -= amount
        elif payer == POT:
            self.pot -= amount
        else:
            self.bank -= amount
        if payee >= 0:
            self.players[payee].cash += amount
        elif payee == POT:
            self.pot += amount
        else:
            self.bank += amount

    def _receive(self, player: int, amount: int, reason: str, field: int = -1, payer: int = BANK) -> None:
        """The bank (or pot) pays a player."""
        if amount:
            self._move_money(payer, player, amount)
            self._emit(E.Paid(payer, player, amount, reason, field))

    def _pay_voluntary(self, player: int, payee: int, amount: int) -> bool:
        """A payment the player chose (buy, build, fare, fine): hitting zero is out (L19).

        Returns True if the player is still in the game.
        """
        self._move_money(player, payee, amount)
        if self.players[player].cash <= 0 and not self._covers(self.players[player].cash):
            self._eliminate(player, payee)
            return False
        return True

    def _charge(self, payer: int, payments: list[tuple[int, int]], reason: str, field: int, then: str) -> bool:
        """A payment the rules impose.  True if paid now; otherwise a debt or bankruptcy follows."""
        p = self.players[payer]
        total = sum(amount for _, amount in payments)
        if self._covers(p.cash - total):
            for payee, amount in payments:
                if amount:
                    self._move_money(payer, payee, amount)
                    self._emit(E.Paid(payer, payee, amount, reason, field))
            return True
        debt = Debt(payer, payments, reason, field, then, (self.phase, self.pending_field))
        if self._covers(p.cash + self.liquidation_value(payer) - total):
            self.debt = debt
            self.phase = DEBT
            self._emit(E.DebtStarted(payer, total))
        else:
            self.debt = debt
            self._bankrupt(debt)
        return False

    def _settle_debt_if_covered(self) -> None:
        d = self.debt
        assert d is not None
        if not self._covers(self.players[d.payer].cash - d.total):
            return
        for payee, amount in d.payments:
            if amount:
                self._move_money(d.payer, payee, amount)
                self._emit(E.Paid(d.payer, payee, amount, d.reason, d.field))
        self.debt = None
        self.phase, self.pending_field = d.resume
        self._continue(d.then, d.payer)

    # ------------------------------------------------------------ elimination and the end

    def _bankrupt(self, d: Debt) -> None:
        """L19/S8/C8: the debtor cannot pay even after selling everything, and is out.

        ``bankruptcy_to=bank``: everything is sold to the bank, the cash goes to the
        creditors and the properties return to the bank.  ``creditor``: a player
        creditor takes every asset; a bank debt sends the properties to auction.
        """
        p = self.players[d.payer]
        creditors = [payee for payee, amount in d.payments if amount] or [BANK]
        creditor = creditors[0]
        queue: list[int] = []
        if self.rules.bankruptcy_to == "creditor":
            if creditor >= 0:
                self._hand_over(p, creditor)
                return
            queue = self.owned_by(p.index)
        else:
            self._move_money(BANK, p.index, self.liquidation_value(p.index))
        self._release_properties(p.index)
        self._return_jail_cards(p)
        amount = p.cash
        share, rest = divmod(amount, len(creditors))
        for k, c in enumerate(creditors):
            self._move_money(p.index, c, share + (rest if k == 0 else 0))
        self._emit(E.Eliminated(p.index, creditor, amount))
        self._after_elimination(p, auction_queue=queue)

    def _hand_over(self, p: Player, creditor: int) -> None:
        """C8: a player creditor takes every asset; buildings are sold to the bank first."""
        for i in self.owned_by(p.index):
            refund = self._building_refund_all(i)
            if refund:
                self._move_money(BANK, p.index, refund)
            self._clear_buildings(i)
            self._set_owner(i, creditor)
        amount = p.cash
        self._move_money(p.index, creditor, amount)
        self.players[creditor].jail_cards += p.jail_cards
        p.jail_cards = []
        self._emit(E.Eliminated(p.index, creditor, amount))
        self._after_elimination(p)

    def _eliminate(self, player: int, creditor: int) -> None:
        """L19: a voluntary payment hit zero; the player is out, properties return to the bank."""
        p = self.players[player]
        self._release_properties(player)
        self._return_jail_cards(p)
        self._emit(E.Eliminated(player, creditor, 0))
        self._after_elimination(p)

    def _release_properties(self, player: int) -> None:
        for i in self.owned_by(player):
            self._set_owner(i, -1)
            self._clear_buildings(i)
            self.mortgaged[i] = False

    def _return_jail_cards(self, p: Player) -> None:
        if self.rules.card_draw == "cycle":
            for deck, card in p.jail_cards:
                self.decks[deck].append(card)
        p.jail_cards = []

    def _after_elimination(self, p: Player, auction_queue: list[int] | None = None) -> None:
        p.active = False
        p.in_prison = False
        self.debt = None
        self.offers = {k: o for k, o in self.offers.items() if p.index not in (o.proposer, o.receiver)}
        self.claims = [c for c in self.claims if p.index not in (c[0], c[1])]
        if self._check_last_player():
            return
        if auction_queue:
            then = "next_turn" if p.index == self.current else "resume"
            self._start_auction(auction_queue[0], then=then, queue=auction_queue[1:], everyone=True)
        elif p.index == self.current:
            self._next_turn()

    def _check_last_player(self) -> bool:
        alive = self.active_players
        if len(alive) == 1:
            self._finish(alive[0], "last_player")
            return True
        return False

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = OVER
        self.auction = None
        self.debt = None
        self._emit(E.GameOver(winner, reason))

    def end_by_cap(self) -> None:
        """L20: stop now (a class period's time cap); the richest player by net worth wins."""
        if self.phase != OVER:
            best = max(self.active_players, key=lambda i: (self.net_worth(i), -i))
            self._finish(best, "net_worth")

    def standings(self) -> list[tuple[int, int]]:
        """Active players with their net worth, richest first (L20)."""
        return sorted(((i, self.net_worth(i)) for i in self.active_players), key=lambda t: (-t[1], t[0]))

    # ------------------------------------------------------------ turns

    def _start_turn(self, i: int) -> None:
        self.current = i
        self.phase = TURN
        self.rolls_due = True
        self.doubles_count = 0
        self.prison_tries = 0
        self.turns += 1
        p = self.players[i]
        if self.record_events:
            self._emit(E.TurnStarted(i, self.round))
        if self.offers:
            self._prune_offers()
        if p.lose_turn:
            p.lose_turn = False
            self._emit(E.LostTurn(i))
            self._next_turn()
            return
        if self.factories and self.rules.factory_income_when == "owner_turn":
            for j in self.owned_by(i):
                if self.factory[j]:
                    self._receive(i, self.fields[j].factory_income, "factory_income", j)

    def _next_turn(self) -> None:
        n = len(self.players)
        old = (self.current - self.first) % n
        i = self.current
        for _ in range(n):
            i = (i + 1) % n
            if self.players[i].active:
                break
        if (i - self.first) % n <= old:
            self.round += 1
            cap = self.setup["max_rounds"]
            if cap is not None and self.round > cap:
                self.end_by_cap()
                return
        self._start_turn(i)

    def _prune_offers(self) -> None:
        for k in list(self.offers):
            if self._offer_problem(self.offers[k]):
                del self.offers[k]
                self._emit(E.TradeLapsed(k))

    # ------------------------------------------------------------ handlers

    def _do_roll(self, a: A.Roll) -> None:
        if self.claims:
            for (_, o, f, _) in self.claims:
                self._emit(E.RentLapsed(o, f))
            self.claims = []
        p = self.players[a.player]
        d1, d2 = self.dice = self.chance.roll()
        if self.record_events:
            self._emit(E.Rolled(a.player, d1, d2))
        if p.in_prison:
            self._prison_try(p, d1, d2)
            return
        r = self.rules
        if d1 == d2 and r.doubles == "extra_roll":
            self.doubles_count += 1
            self.rolls_due = True
            if self.doubles_count >= 3 and r.three_doubles != "nothing":
                self.rolls_due = False
                if r.three_doubles == "prison":
                    self._send_to_prison(p, "third_doubles")
                    return
                p.lose_turn = True
        else:
            self.rolls_due = False
        self._move(p, d1 + d2)

    def _prison_try(self, p: Player, d1: int, d2: int) -> None:
        """L14 / C7: a prisoner's roll for the way out."""
        r = self.rules
        self.prison_tries += 1
        way = r.jail_exit
        if (way == "doubles" and d1 == d2) or (way == "total_3" and d1 + d2 == 3) or (way == "any_die_3" and 3 in (d1, d2)):
            self._free(p, way)
            self.rolls_due = False
            if r.jail_exit_move == "roll_again":
                d1, d2 = self.dice = self.chance.roll()
                self._emit(E.Rolled(p.index, d1, d2))
            self._move(p, d1 + d2)
            return
        if self.prison_tries < r.jail_tries_per_turn:
            return
        p.prison_turns += 1
        self.rolls_due = False
        if p.prison_turns < r.jail_max_turns:
            self._emit(E.StayedInPrison(p.index))
            return
        self._free(p, "forced_fine")
        if self._charge(p.index, [(BANK, r.jail_fine)], "fine", -1, "prison_move"):
            self._move(p, d1 + d2)

    def _free(self, p: Player, reason: str) -> None:
        p.in_prison = False
        p.prison_turns = 0
        self._emit(E.LeftPrison(p.index, reason))

    def _send_to_prison(self, p: Player, reason: str) -> None:
        """L14: to prison at once, no salary, and the turn ends."""
        p.pos = self.prison  # type: ignore[assignment]
        p.in_prison = True
        p.prison_turns = 0
        self.rolls_due = False
        self.doubles_count = 0
        self._emit(E.SentToPrison(p.index, reason))
        if p.index == self.current and self.phase != OVER:
            self._next_turn()

    def _move(self, p: Player, steps: int) -> None:
        """Move forward by a dice total and resolve the field."""
        src = p.pos
        dst = (src + steps) % len(self.fields)
        p.pos = dst
        if self.record_events:
            self._emit(E.Moved(p.index, src, dst))
        if dst < src:
            self._salary(p, dst == 0)
        self.arrived_by_card = False
        self._land(p)

    def _salary(self, p: Player, landed: bool) -> None:
        """L3, S3, C1: salary for passing Start; the landing salary for landing on it."""
        if not p.has_passed_start:
            p.has_passed_start = True
            if not self.rules.salary_on_first_pass:
                return
        if landed:
            self._receive(p.index, self.rules.landing_salary, "landing_salary", 0)
        else:
            self._receive(p.index, self.rules.salary, "salary", 0)

    def _land(self, p: Player) -> None:
        i = p.pos
        f = self.fields[i]
        kind = f.kind
        if kind in ("street", "station", "attraction"):
            o = self.owner[i]
            if o < 0:
                self.pending_field = i
                self.phase = BUY
                return
            if o != p.index:
                if self.factory[i] and self.rules.factory_income_when == "landing":
                    self._receive(o, f.factory_income, "factory_income", i)
                amount = self._rent_on_landing(i)
                if amount:
                    if self.rules.rent_claim:
                        self.claims.append((p.index, o, i, amount))
                        self._emit(E.RentDue(p.index, o, i, amount))
                    elif not self._charge(p.index, [(o, amount)], "rent", i, "after_landing"):
                        return
            self._after_landing(p)
        elif kind == "card":
            self._draw(p, f.deck)  # type: ignore[arg-type]
        elif kind == "tax":
            if self._charge(p.index, [(POT if f.to == "pot" else BANK, f.amount)], "tax", i, "end_move"):
                self._end_move()
        elif kind == "pot":
            self._pot_payout(p)
            self._end_move()
        elif kind == "go_to_prison":
            self._send_to_prison(p, "field")
        else:
            self._end_move()

    def _rent_on_landing(self, i: int) -> int:
        mult = self.card_rent_multiplier
        if not mult:
            return self.rent(i)
        self.card_rent_multiplier = 0
        if self.fields[i].kind == "attraction":
            d1, d2 = self.chance.roll()
            self._emit(E.Rolled(self.current, d1, d2))
            return mult * (d1 + d2)
        return mult * self.rent(i)

    def _pot_payout(self, p: Player) -> None:
        """L8: a quarter of the pot on doubles, half on double six.  S4: the whole pot."""
        mode = self.rules.pot_payout
        d1, d2 = self.dice
        if mode == "all":
            amount = self.pot
        elif mode == "casino_doubles" and d1 == d2:
            amount = self.pot // 2 if d1 == 6 else self.pot // 4
        else:
            amount = 0
        self._receive(p.index, amount, "casino", p.pos, payer=POT)

    def _after_landing(self, p: Player) -> None:
        if self.fields[p.pos].kind == "station" and self.rules.train_travel and p.active and len(self.stations) > 1:
            self.phase = TRAVEL
        else:
            self._end_move()

    def _end_move(self) -> None:
        self.phase = TURN
        self.pending_field = -1

    def _continue(self, then: str, player: int) -> None:
        """Carry on after a debt is paid: the continuation tags used by :meth:`_charge`."""
        p = self.players[player]
        if then == "after_landing":
            self._after_landing(p)
        elif then == "end_move":
            self._end_move()
        elif then == "prison_move":
            self._move(p, sum(self.dice))
        elif then == "collect_next":
            self._collect_next()
        # "resume": the suspended phase was already restored

    # -- cards

    def _draw(self, p: Player, deck_name: str) -> None:
        """L15: the top card acts and goes to the bottom (a kept jail card stays out).

        With ``card_draw=random`` every draw is a fresh random card of the whole deck
        and a kept jail card is a copy (the model of the published probability tables).
        """
        deck = self.decks[deck_name]
        cycle = self.rules.card_draw == "cycle"
        card_index = deck.popleft() if cycle else self.chance.choice_index(len(deck))
        card = self.board.decks[deck_name][card_index]
        keep = card.effect == "get_out_of_prison"
        if keep:
            p.jail_cards.append((deck_name, card_index))
        elif cycle:
            deck.append(card_index)
        self.last_card = (deck_name, card_index)
        self._emit(E.CardDrawn(p.index, deck_name, card_index))
        if keep:
            self._emit(E.GotJailCard(p.index))
            self._end_move()
            return
        _CARD_EFFECTS[card.effect](self, p, card.args)

    def _card_advance_to(self, p: Player, args: dict[str, Any]) -> None:
        self._card_move_to(p, args["field"])

    def _card_move_to(self, p: Player, dst: int) -> None:
        src = p.pos
        p.pos = dst
        if self.record_events:
            self._emit(E.Moved(p.index, src, dst))
        if dst <= src:
            self._salary(p, dst == 0)
        self._land(p)

    def _card_nearest(self, p: Player, args: dict[str, Any]) -> None:
        n = len(self.fields)
        dst = min((i for i in range(n) if self.fields[i].kind == args["kind"]), key=lambda i: (i - p.pos - 1) % n)
        self.card_rent_multiplier = args.get("rent_multiplier") or 0
        self._card_move_to(p, dst)
        self.card_rent_multiplier = 0

    def _card_move(self, p: Player, args: dict[str, Any]) -> None:
        steps = args["steps"]
        if steps > 0:
            self._card_move_to(p, (p.pos + steps) % len(self.fields))
            return
        src = p.pos
        p.pos = (src + steps) % len(self.fields)
        self._emit(E.Moved(p.index, src, p.pos))
        self._land(p)

    def _card_prison(self, p: Player, args: dict[str, Any]) -> None:
        self._send_to_prison(p, "card")

    def _card_pay(self, p: Player, args: dict[str, Any]) -> None:
        payee = POT if args.get("to") == "pot" else BANK
        if self._charge(p.index, [(payee, args["amount"])], "card", p.pos, "end_move"):
            self._end_move()

    def _card_collect(self, p: Player, args: dict[str, Any]) -> None:
        self._receive(p.index, args["amount"], "card", p.pos)
        self._end_move()

    def _card_pay_each(self, p: Player, args: dict[str, Any]) -> None:
        payments = [(q.index, args["amount"]) for q in self.players if q.active and q is not p]
        if self._charge(p.index, payments, "card", p.pos, "end_move"):
            self._end_move()

    def _card_collect_each(self, p: Player, args: dict[str, Any]) -> None:
        self.collect_queue = [(q.index, p.index, args["amount"]) for q in self.players if q.active and q is not p]
        self._collect_next()

    def _collect_next(self) -> None:
        """Charge the players still owing a collect-from-each card, one at a time."""
        while self.collect_queue:
            payer, payee, amount = self.collect_queue.pop(0)
            if not (self.players[payer].active and self.players[payee].active):
                continue
            if not self._charge(payer, [(payee, amount)], "card", self.players[payee].pos, "collect_next"):
                if self.phase in (DEBT, OVER, AUCTION) or not self.players[self.current].active:
                    return
        self._end_move()

    def _card_repairs(self, p: Player, args: dict[str, Any]) -> None:
        total = 0
        for i in self.owned_by(p.index):
            if self.factory[i]:
                total += args.get("factory", 0)
            elif self.level[i] == self.hotel_level:
                total += args["hotel"]
            else:
                total += self.level[i] * args["house"]
        payee = POT if args.get("to") == "pot" else BANK
        if not total or self._charge(p.index, [(payee, total)], "repairs", p.pos, "end_move"):
            self._end_move()

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

    def _start_auction(self, i: int, then: str, queue: list[int] | None = None, everyone: bool = False) -> None:
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

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal games."""
        return {
            "players": [p.snapshot() for p in self.players],
            "owner": list(self.owner), "level": list(self.level), "factory": list(self.factory),
            "mortgaged": list(self.mortgaged),
            "pot": self.pot, "bank": self.bank, "houses_left": self.houses_left, "hotels_left": self.hotels_left, "decks": {k: list(v) for k, v in self.decks.items()},
            "current": self.current, "phase": self.phase, "rolls_due": self.rolls_due,
            "doubles_count": self.doubles_count, "prison_tries": self.prison_tries, "dice": list(self.dice),
            "round": self.round, "turns": self.turns, "pending_field": self.pending_field,
            "offers": [[o.id, o.proposer, o.receiver, list(o.give), list(o.take), o.cash, o.give_cards, o.take_cards]
                       for o in self.offers.values()],
            "claims": [list(c) for c in self.claims], "collect_queue": [list(c) for c in self.collect_queue],
            "winner": self.winner, "end_reason": self.end_reason,
            "debt": None if self.debt is None else [self.debt.payer, self.debt.total, self.debt.then],
            "auction": None if self.auction is None else [self.auction.field, list(self.auction.bidders), self.auction.high, self.auction.high_bidder],
            "chance_next": self.chance.getstate()[1], "history": len(self.history),
        }

    def digest(self) -> str:
        """A short fingerprint of the state and the generator, stored in save files."""
        data = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        rng = repr(self.chance.getstate()[0])
        return hashlib.sha256((data + rng).encode()).hexdigest()[:32]

    def total_money(self) -> int:
        """Players' cash plus the pot plus the bank's takings: constant over a game."""
        return sum(p.cash for p in self.players) + self.pot + self.bank


_HANDLERS = {
    A.Roll: Game._do_roll, A.EndTurn: Game._do_end_turn, A.Buy: Game._do_buy, A.DeclineBuy: Game._do_decline,
    A.Travel: Game._do_travel, A.StayPut: Game._do_stay, A.Build: Game._do_build,
    A.SellBuilding: Game._do_sell_building, A.SellProperty: Game._do_sell_property,
    A.Mortgage: Game._do_mortgage, A.Repay: Game._do_repay, A.PayFine: Game._do_pay_fine,
    A.UseJailCard: Game._do_jail_card, A.ProposeTrade: Game._do_propose, A.AcceptTrade: Game._do_accept,
    A.DeclineTrade: Game._do_decline_trade, A.PlaceBid: Game._do_bid, A.PassAuction: Game._do_pass_auction,
    A.ClaimRent: Game._do_claim,
}
_CHECKS = {
    A.Roll: Game._why_roll, A.EndTurn: Game._why_end_turn, A.Buy: Game._why_buy, A.DeclineBuy: Game._why_decline,
    A.Travel: Game._why_travel, A.StayPut: Game._why_stay, A.Build: Game._why_build,
    A.SellBuilding: Game._why_sell_building, A.SellProperty: Game._why_sell_property,
    A.Mortgage: Game._why_mortgage, A.Repay: Game._why_repay, A.PayFine: Game._why_pay_fine,
    A.UseJailCard: Game._why_jail_card, A.ProposeTrade: Game._why_propose, A.AcceptTrade: Game._why_accept,
    A.DeclineTrade: Game._why_decline_trade, A.PlaceBid: Game._why_bid, A.PassAuction: Game._why_pass_auction,
    A.ClaimRent: Game._why_claim,
}
_CARD_EFFECTS = {
    "advance_to": Game._card_advance_to, "advance_to_nearest": Game._card_nearest, "move": Game._card_move,
    "go_to_prison": Game._card_prison, "pay": Game._card_pay, "collect": Game._card_collect,
    "pay_each_player": Game._card_pay_each, "collect_from_each_player": Game._card_collect_each,
    "repairs": Game._card_repairs,
}
