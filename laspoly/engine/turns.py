"""Turns and moves: turn order, the roll, doubles, prison, movement, salary, landing and cards."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.chance import ROLL, Outcome, OutcomeQueue, draw_node
from laspoly.engine.events import BANK, POT
from laspoly.engine.native import mypyc_attr
from laspoly.engine.payments import Payments
from laspoly.engine.state import AUCTION, BUYING, DEBT, OVER, TRAVEL, TURN, Continuation, Player
from laspoly.errors import ChanceError


@mypyc_attr(allow_interpreted_subclasses=True)  # a layer of Game, which Python classes subclass
class Turns(Payments):
    """A turn from its start to its end: the roll, the move and what the field does."""

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
            self.log.append(E.TurnStarted(i, self.round))
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
        players = self.players
        n = len(players)
        i = self.current
        old = (i - self.first) % n
        i = (i + 1) % n
        if not players[i].active:  # the next seat is usually still in: look further only when it is not
            for _ in range(n - 1):
                i = (i + 1) % n
                if players[i].active:
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

    # ------------------------------------------------------------ chance nodes

    def chance_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """The outcomes of the roll a :class:`~laspoly.engine.actions.Roll` would make now, with exact probabilities.

        OpenSpiel's ``chance_outcomes``: the 36 ordered pairs of dice, 1/36 each,
        whenever a roll is due (to move, or in prison to try for the way out);
        empty when none is.  The chance events that may follow inside the same
        roll (a card draw, a second roll after leaving prison, C7, the roll for a
        utility card's rent) are nodes of their own, listed by
        :meth:`card_outcomes` or reached by :func:`~laspoly.engine.chance.walk_outcomes`.
        """
        if self.phase != TURN or not self.rolls_due:
            return []
        return list(ROLL.outcomes)

    def card_outcomes(self, deck: str) -> list[tuple[Outcome, Fraction]]:
        """What a draw from ``deck`` gives now: each card 1/n under ``card_draw=random``; under ``cycle``, the top card for certain."""
        if deck not in self.decks:
            raise ChanceError(f"this board has no deck {deck!r}; decks are: {', '.join(self.decks)}")
        cards = self.decks[deck]
        if self.rules.card_draw == "cycle":
            return [((deck, cards[0]), Fraction(1))] if cards else []
        return list(draw_node(deck, len(cards)).outcomes)

    def push_outcome(self, outcome: Outcome | Any) -> None:  # Any: bad input meets the check below, compiled too
        """Decide a coming chance event: dice ``(d1, d2)`` for the next roll, or ``(deck, card index)`` for the next draw from that deck.

        Pushed outcomes are played before the dice script and the seeded
        generator, each kind in the order pushed, and leave the generator
        untouched.  A game that took a pushed outcome no longer follows from its
        seed, so its save file does not replay; this is for solvers, lessons and
        tests.  An outcome that the event cannot have raises
        :class:`~laspoly.errors.ChanceError` and changes nothing.
        """
        deck = self._outcome_kind(outcome)
        queue = self.chance.chooser
        if queue is None:
            queue = self.chance.chooser = OutcomeQueue(self.chance)
        elif not isinstance(queue, OutcomeQueue):
            raise ChanceError("this game's chance events are chosen by a solver; no outcome can be pushed now")
        queue.push(deck, (outcome[0], outcome[1]))

    def _outcome_kind(self, outcome: Any) -> str | None:
        """Check a pushed outcome; the deck it is drawn from, or ``None`` for dice."""
        if not isinstance(outcome, tuple | list) or len(outcome) != 2:
            raise ChanceError(f"an outcome is two dice like (6, 6) or a card like ('chance', 3), not {outcome!r}")
        first, second = outcome
        if isinstance(second, bool) or not isinstance(second, int):
            raise ChanceError(f"an outcome is two dice like (6, 6) or a card like ('chance', 3), not {outcome!r}")
        if isinstance(first, str):
            if self.rules.card_draw == "cycle":
                raise ChanceError(f"with card_draw=cycle the order of the {first} deck decides the card: there is no chance to choose")
            if first not in self.decks:
                raise ChanceError(f"this board has no deck {first!r}; decks are: {', '.join(self.decks)}")
            if not 0 <= second < len(self.decks[first]):
                raise ChanceError(f"the {first} deck has cards 0 to {len(self.decks[first]) - 1}, not {second}")
            return first
        if isinstance(first, bool) or not isinstance(first, int) or not (1 <= first <= 6 and 1 <= second <= 6):
            raise ChanceError(f"each die shows 1 to 6, not {outcome!r}")
        return None

    # ------------------------------------------------------------ handlers

    def _do_roll(self, a: A.Roll) -> None:
        if self.claims:
            for (_, o, f, _) in self.claims:
                self._emit(E.RentLapsed(o, f))
            self.claims = []
        p = self.players[a.player]
        d1, d2 = self.dice = self.chance.roll()
        if self.record_events:
            self.log.append(E.Rolled(a.player, d1, d2))
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
        assert self.prison is not None  # set-up and board checks send to prison only on a board with one
        p.pos = self.prison
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
            self.log.append(E.Moved(p.index, src, dst))
        if dst < src:
            self._salary(p, dst == 0)
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
                self.phase = BUYING
                return
            if o != p.index:
                if self.factory[i] and self.rules.factory_income_when == "landing":
                    self._receive(o, f.factory_income, "factory_income", i)
                amount = self._rent_on_landing(i) if self.card_rent_multiplier else self.rent(i)
                if amount:
                    if self.rules.rent_claim:
                        self.claims.append((p.index, o, i, amount))
                        self._emit(E.RentDue(p.index, o, i, amount))
                    elif not self._charge(p.index, [(o, amount)], "rent", i, "after_landing"):
                        return
            self._after_landing(p)
        elif kind == "card":
            assert f.deck is not None  # the board check gives every card field its deck
            self._draw(p, f.deck)
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
        """The rent a card that moved the player here multiplies (L15, C4): the multiplier applies once."""
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

    def _continue(self, then: Continuation, player: int) -> None:
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
        card_index = deck.popleft() if cycle else self.chance.draw(deck_name, len(deck))
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


#: One method per card effect (the effects a board file may name, :data:`laspoly.rules.board.CARD_EFFECTS`).
_CARD_EFFECTS: dict[str, Callable[[Turns, Player, dict[str, Any]], None]] = {
    "advance_to": Turns._card_advance_to, "advance_to_nearest": Turns._card_nearest, "move": Turns._card_move,
    "go_to_prison": Turns._card_prison, "pay": Turns._card_pay, "collect": Turns._card_collect,
    "pay_each_player": Turns._card_pay_each, "collect_from_each_player": Turns._card_collect_each,
    "repairs": Turns._card_repairs,
}
