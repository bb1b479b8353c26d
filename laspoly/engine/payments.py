"""Money and what a payment may lead to: payments, debts (L19), elimination and the end of the game (L20).

Functions over a :class:`~laspoly.engine.gamestate.GameState`.  A payment can put a player out, and
that can pass the turn on or put the player's properties up for auction, so the turn order
(:func:`next_turn`, :func:`start_turn`), the opening and closing of an auction and the end of a move
are here too, below the roll and move (:mod:`~laspoly.engine.turns`) and the decisions
(:mod:`~laspoly.engine.decisions`) that call them.  Nothing here calls up: a debt paid off hands its
continuation back to its caller (:func:`settle_debt_if_covered`).
"""

from __future__ import annotations

from laspoly.engine import events as E
from laspoly.engine.base import active_players, building_refund_all, covers, liquidation_value, net_worth, owned_by
from laspoly.engine.events import BANK, POT
from laspoly.engine.gamestate import GameState
from laspoly.engine.legality import offer_problem
from laspoly.engine.state import AUCTION, DEBT, OVER, TRAVEL, TURN, AfterAuction, Auction, Continuation, Debt, Player

# ------------------------------------------------------------ events and money


def emit(s: GameState, event: E.Event) -> None:
    """Record an event in the log (when the game keeps one) and show it to the observer (when it has one)."""
    if s.record_events:
        s.log.append(event)
    observer = s.observer
    if observer is not None:
        observer(event)


def set_level(s: GameState, i: int, new: int) -> None:
    """Every change of houses and hotels goes through here, keeping the bank's supply counted."""
    old, top = s.level[i], s.hotel_level
    s.houses_left += (old if old < top else 0) - (new if new < top else 0)
    s.hotels_left += (old == top) - (new == top)
    s.level[i] = new


def clear_buildings(s: GameState, i: int) -> None:
    """Remove every building from ``i`` (back to the bank's supply)."""
    if s.level[i]:
        set_level(s, i, 0)
    if s.factory[i]:
        s.factory[i] = False
        s.factories -= 1


def set_owner(s: GameState, i: int, player: int) -> None:
    """Every change of ownership goes through here, so caches can watch ``owner_version``."""
    s.owner[i] = player
    s.owner_version += 1


def move_money(s: GameState, payer: int, payee: int, amount: int) -> None:
    if payer >= 0:
        s.players[payer].cash -= amount
    elif payer == POT:
        s.pot -= amount
    else:
        s.bank -= amount
    if payee >= 0:
        s.players[payee].cash += amount
    elif payee == POT:
        s.pot += amount
    else:
        s.bank += amount


def receive(s: GameState, player: int, amount: int, reason: str, field: int = -1, payer: int = BANK) -> None:
    """The bank (or pot) pays a player."""
    if amount:
        move_money(s, payer, player, amount)
        if s.record_events or s.observer is not None:
            emit(s, E.Paid(payer, player, amount, reason, field))


def pay_voluntary(s: GameState, player: int, payee: int, amount: int) -> bool:
    """A payment the player chose (buy, build, fare, fine): hitting zero is out (L19).

    Returns True if the player is still in the game.
    """
    move_money(s, player, payee, amount)
    if s.players[player].cash <= 0 and not covers(s, s.players[player].cash):
        eliminate(s, player, payee)
        return False
    return True


def charge(s: GameState, payer: int, payments: list[tuple[int, int]], reason: str, field: int, then: Continuation) -> bool:
    """A payment the rules impose.  True if paid now; otherwise a debt or bankruptcy follows."""
    p = s.players[payer]
    total = payments[0][1] if len(payments) == 1 else sum(amount for _, amount in payments)
    if p.cash - total >= s.min_cash:
        for payee, amount in payments:
            if amount:
                move_money(s, payer, payee, amount)
                if s.record_events or s.observer is not None:
                    emit(s, E.Paid(payer, payee, amount, reason, field))
        return True
    debt = Debt(payer, payments, reason, field, then, (s.phase, s.pending_field))
    if covers(s, p.cash + liquidation_value(s, payer) - total):
        s.debt = debt
        s.phase = DEBT
        emit(s, E.DebtStarted(payer, total))
    else:
        s.debt = debt
        bankrupt(s, debt)
    return False


def settle_debt_if_covered(s: GameState) -> Debt | None:
    """Pay the debt once the debtor's cash covers it: the debt paid, whose continuation the caller carries on, or None."""
    d = s.debt
    assert d is not None
    if not covers(s, s.players[d.payer].cash - d.total):
        return None
    for payee, amount in d.payments:
        if amount:
            move_money(s, d.payer, payee, amount)
            emit(s, E.Paid(d.payer, payee, amount, d.reason, d.field))
    s.debt = None
    s.phase, s.pending_field = d.resume
    return d


# ------------------------------------------------------------ elimination and the end


def bankrupt(s: GameState, d: Debt) -> None:
    """L19/S8/C8: the debtor cannot pay even after selling everything, and is out.

    ``bankruptcy_to=bank``: everything is sold to the bank, the cash goes to the
    creditors and the properties return to the bank.  ``creditor``: a player
    creditor takes every asset; a bank debt sends the properties to auction.
    """
    p = s.players[d.payer]
    creditors = [payee for payee, amount in d.payments if amount] or [BANK]
    creditor = creditors[0]
    queue: list[int] = []
    if s.rules.bankruptcy_to == "creditor":
        if creditor >= 0:
            hand_over(s, p, creditor)
            return
        queue = owned_by(s, p.index)
    else:
        move_money(s, BANK, p.index, liquidation_value(s, p.index))
    release_properties(s, p.index)
    return_jail_cards(s, p)
    amount = p.cash
    share, rest = divmod(amount, len(creditors))
    for k, c in enumerate(creditors):
        move_money(s, p.index, c, share + (rest if k == 0 else 0))
    emit(s, E.Eliminated(p.index, creditor, amount))
    after_elimination(s, p, auction_queue=queue)


def hand_over(s: GameState, p: Player, creditor: int) -> None:
    """C8: a player creditor takes every asset; buildings are sold to the bank first."""
    for i in owned_by(s, p.index):
        refund = building_refund_all(s, i)
        if refund:
            move_money(s, BANK, p.index, refund)
        clear_buildings(s, i)
        set_owner(s, i, creditor)
    amount = p.cash
    move_money(s, p.index, creditor, amount)
    s.players[creditor].jail_cards += p.jail_cards
    p.jail_cards = []
    emit(s, E.Eliminated(p.index, creditor, amount))
    after_elimination(s, p)


def eliminate(s: GameState, player: int, creditor: int) -> None:
    """L19: a voluntary payment hit zero; the player is out, properties return to the bank."""
    p = s.players[player]
    release_properties(s, player)
    return_jail_cards(s, p)
    emit(s, E.Eliminated(player, creditor, 0))
    after_elimination(s, p)


def release_properties(s: GameState, player: int) -> None:
    for i in owned_by(s, player):
        set_owner(s, i, -1)
        clear_buildings(s, i)
        s.mortgaged[i] = False


def return_jail_cards(s: GameState, p: Player) -> None:
    if s.rules.card_draw == "cycle":
        for deck, card in p.jail_cards:
            s.decks[deck].append(card)
    p.jail_cards = []


def after_elimination(s: GameState, p: Player, auction_queue: list[int] | None = None) -> None:
    p.active = False
    p.in_prison = False
    s.debt = None
    for k in [k for k, o in s.offers.items() if p.index in (o.proposer, o.receiver)]:
        del s.offers[k]  # in place: an observation holds this dict for the whole game
    s.claims = [c for c in s.claims if p.index not in (c[0], c[1])]
    if check_last_player(s):
        return
    if auction_queue:
        then: AfterAuction = "next_turn" if p.index == s.current else "resume"
        start_auction(s, auction_queue[0], then=then, queue=auction_queue[1:], everyone=True)
    elif p.index == s.current:
        next_turn(s)


def check_last_player(s: GameState) -> bool:
    alive = active_players(s)
    if len(alive) == 1:
        finish(s, alive[0], "last_player")
        return True
    return False


def finish(s: GameState, winner: int, reason: str) -> None:
    s.winner = winner
    s.end_reason = reason
    s.phase = OVER
    s.auction = None
    s.debt = None
    emit(s, E.GameOver(winner, reason))


def end_by_cap(s: GameState) -> None:
    """L20: stop now (a class period's time cap); the richest player by net worth wins."""
    if s.phase != OVER:
        best = max(active_players(s), key=lambda i: (net_worth(s, i), -i))
        finish(s, best, "net_worth")


def standings(s: GameState) -> list[tuple[int, int]]:
    """Active players with their net worth, richest first (L20)."""
    return sorted(((i, net_worth(s, i)) for i in active_players(s)), key=lambda t: (-t[1], t[0]))


# ------------------------------------------------------------ the turn order


def start_turn(s: GameState, i: int) -> None:
    s.current = i
    s.phase = TURN
    s.rolls_due = True
    s.doubles_count = 0
    s.prison_tries = 0
    s.turns += 1
    p = s.players[i]
    if s.record_events or s.observer is not None:
        emit(s, E.TurnStarted(i, s.round))
    if s.offers:
        prune_offers(s)
    if p.lose_turn:
        p.lose_turn = False
        emit(s, E.LostTurn(i))
        next_turn(s)
        return
    if s.factories and s.rules.factory_income_when == "owner_turn":
        for j in owned_by(s, i):
            if s.factory[j]:
                receive(s, i, s.fields[j].factory_income, "factory_income", j)


def next_turn(s: GameState) -> None:
    players = s.players
    n = len(players)
    i = s.current
    old = (i - s.first) % n
    i = (i + 1) % n
    if not players[i].active:  # the next seat is usually still in: look further only when it is not
        for _ in range(n - 1):
            i = (i + 1) % n
            if players[i].active:
                break
    if (i - s.first) % n <= old:
        s.round += 1
        cap = s.setup["max_rounds"]
        if cap is not None and s.round > cap:
            end_by_cap(s)
            return
    start_turn(s, i)


def prune_offers(s: GameState) -> None:
    """Drop the offers that no longer match what the players own (L16); only the fact of a problem counts, not its words."""
    lapsed: list[int] = []
    s.quiet += 1
    try:
        for k in list(s.offers):
            if offer_problem(s, s.offers[k]):
                lapsed.append(k)
    finally:
        s.quiet -= 1
    for k in lapsed:
        del s.offers[k]
        emit(s, E.TradeLapsed(k))


def after_landing(s: GameState, p: Player) -> None:
    if s.fields[p.pos].kind == "station" and s.rules.train_travel and p.active and len(s.stations) > 1:
        s.phase = TRAVEL
    else:
        end_move(s)


def end_move(s: GameState) -> None:
    s.phase = TURN
    s.pending_field = -1


# ------------------------------------------------------------ auctions opened and closed (C2, C8)


def start_auction(s: GameState, i: int, then: AfterAuction, queue: list[int] | None = None, everyone: bool = False) -> None:
    n = len(s.players)
    start = s.current if everyone else s.current + 1
    order = [(start + k) % n for k in range(n)]
    bidders = [j for j in order if s.players[j].active and (everyone or j != s.current)]
    emit(s, E.AuctionStarted(i))
    s.auction = Auction(i, bidders, then=then, queue=list(queue or []))
    s.pending_field = i
    s.phase = AUCTION
    if not bidders:
        end_auction(s)


def end_auction(s: GameState) -> None:
    au = s.auction
    assert au is not None
    s.auction = None
    i = au.field
    winner = au.high_bidder
    if winner >= 0:
        set_owner(s, i, winner)
        emit(s, E.AuctionEnded(winner, i, au.high))
        move_money(s, winner, BANK, au.high)
    if au.queue:
        start_auction(s, au.queue[0], au.then, au.queue[1:], everyone=True)
        return
    s.pending_field = -1
    if au.then == "after_landing":
        s.phase = TURN
        after_landing(s, s.players[s.current])
    elif au.then == "next_turn":
        s.phase = TURN
        next_turn(s)
    else:
        s.phase = TURN
