"""Money: payments, debts (L19), elimination and the end of the game (L20)."""

from __future__ import annotations

from laspoly.engine import events as E
from laspoly.engine.events import BANK, POT
from laspoly.engine.legality import Legality
from laspoly.engine.native import mypyc_attr
from laspoly.engine.state import DEBT, OVER, AfterAuction, Continuation, Debt, Player


@mypyc_attr(allow_interpreted_subclasses=True)  # a layer of Game, which Python classes subclass
class Payments(Legality):
    """Every movement of money, and what happens to a player who cannot pay."""

    # Played by the classes above, which continue what a payment suspended.  Real methods, not stubs under
    # ``TYPE_CHECKING``, so that a compiled build (mypyc) knows them; the layers above override each one.

    def _next_turn(self) -> None:
        """Pass the turn on (:class:`~laspoly.engine.turns.Turns`)."""
        raise NotImplementedError

    def _continue(self, then: Continuation, player: int) -> None:
        """Carry on what a payment suspended (:class:`~laspoly.engine.turns.Turns`)."""
        raise NotImplementedError

    def _start_auction(self, i: int, then: AfterAuction, queue: list[int] | None = None, everyone: bool = False) -> None:
        """Open an auction (:class:`~laspoly.engine.game.Game`)."""
        raise NotImplementedError

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
            if self.record_events:
                self.log.append(E.Paid(payer, player, amount, reason, field))

    def _pay_voluntary(self, player: int, payee: int, amount: int) -> bool:
        """A payment the player chose (buy, build, fare, fine): hitting zero is out (L19).

        Returns True if the player is still in the game.
        """
        self._move_money(player, payee, amount)
        if self.players[player].cash <= 0 and not self._covers(self.players[player].cash):
            self._eliminate(player, payee)
            return False
        return True

    def _charge(self, payer: int, payments: list[tuple[int, int]], reason: str, field: int, then: Continuation) -> bool:
        """A payment the rules impose.  True if paid now; otherwise a debt or bankruptcy follows."""
        p = self.players[payer]
        total = payments[0][1] if len(payments) == 1 else sum(amount for _, amount in payments)
        if p.cash - total >= self.min_cash:
            for payee, amount in payments:
                if amount:
                    self._move_money(payer, payee, amount)
                    if self.record_events:
                        self.log.append(E.Paid(payer, payee, amount, reason, field))
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
        for k in [k for k, o in self.offers.items() if p.index in (o.proposer, o.receiver)]:
            del self.offers[k]  # in place: an observation holds this dict for the whole game
        self.claims = [c for c in self.claims if p.index not in (c[0], c[1])]
        if self._check_last_player():
            return
        if auction_queue:
            then: AfterAuction = "next_turn" if p.index == self.current else "resume"
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
