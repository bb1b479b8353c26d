"""Turns and moves: the roll, doubles, prison, movement, salary, landing and cards (functions over the state).

What a payment leads to (a debt, the next turn, an auction) is in :mod:`~laspoly.engine.payments`, below;
:func:`resume_after_debt` carries on a move that a debt suspended, once the debt is paid.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.base import owned_by, rent
from laspoly.engine.chance import ROLL, Outcome, OutcomeQueue, draw_node
from laspoly.engine.events import BANK, POT
from laspoly.engine.gamestate import GameState
from laspoly.engine.payments import after_landing, charge, emit, end_move, next_turn, receive
from laspoly.engine.state import AUCTION, BUYING, DEBT, OVER, TURN, Continuation, Player
from laspoly.errors import ChanceError

# ------------------------------------------------------------ chance nodes


def chance_outcomes(s: GameState) -> list[tuple[Outcome, Fraction]]:
    """The outcomes of the roll a :class:`~laspoly.engine.actions.Roll` would make now, with exact probabilities.

    OpenSpiel's ``chance_outcomes``: the 36 ordered pairs of dice, 1/36 each,
    whenever a roll is due (to move, or in prison to try for the way out);
    empty when none is.  The chance events that may follow inside the same
    roll (a card draw, a second roll after leaving prison, C7, the roll for a
    utility card's rent) are nodes of their own, listed by
    :meth:`card_outcomes` or reached by :func:`~laspoly.engine.chance.walk_outcomes`.
    """
    if s.phase != TURN or not s.rolls_due:
        return []
    return list(ROLL.outcomes)


def card_outcomes(s: GameState, deck: str) -> list[tuple[Outcome, Fraction]]:
    """What a draw from ``deck`` gives now: each card 1/n under ``card_draw=random``; under ``cycle``, the top card for certain."""
    if deck not in s.decks:
        raise ChanceError(f"this board has no deck {deck!r}; decks are: {', '.join(s.decks)}")
    cards = s.decks[deck]
    if s.rules.card_draw == "cycle":
        return [((deck, cards[0]), Fraction(1))] if cards else []
    return list(draw_node(deck, len(cards)).outcomes)


def push_outcome(s: GameState, outcome: Outcome | Any) -> None:  # Any: bad input meets the check below, compiled too
    """Decide a coming chance event: dice ``(d1, d2)`` for the next roll, or ``(deck, card index)`` for the next draw from that deck.

    Pushed outcomes are played before the dice script and the seeded
    generator, each kind in the order pushed, and leave the generator
    untouched.  A game that took a pushed outcome no longer follows from its
    seed, so its save file does not replay; this is for solvers, lessons and
    tests.  An outcome that the event cannot have raises
    :class:`~laspoly.errors.ChanceError` and changes nothing.
    """
    deck = outcome_kind(s, outcome)
    queue = s.chance.chooser
    if queue is None:
        queue = s.chance.chooser = OutcomeQueue(s.chance)
    elif not isinstance(queue, OutcomeQueue):
        raise ChanceError("this game's chance events are chosen by a solver; no outcome can be pushed now")
    queue.push(deck, (outcome[0], outcome[1]))


def outcome_kind(s: GameState, outcome: Any) -> str | None:
    """Check a pushed outcome; the deck it is drawn from, or ``None`` for dice."""
    if not isinstance(outcome, tuple | list) or len(outcome) != 2:
        raise ChanceError(f"an outcome is two dice like (6, 6) or a card like ('chance', 3), not {outcome!r}")
    first, second = outcome
    if isinstance(second, bool) or not isinstance(second, int):
        raise ChanceError(f"an outcome is two dice like (6, 6) or a card like ('chance', 3), not {outcome!r}")
    if isinstance(first, str):
        if s.rules.card_draw == "cycle":
            raise ChanceError(f"with card_draw=cycle the order of the {first} deck decides the card: there is no chance to choose")
        if first not in s.decks:
            raise ChanceError(f"this board has no deck {first!r}; decks are: {', '.join(s.decks)}")
        if not 0 <= second < len(s.decks[first]):
            raise ChanceError(f"the {first} deck has cards 0 to {len(s.decks[first]) - 1}, not {second}")
        return first
    if isinstance(first, bool) or not isinstance(first, int) or not (1 <= first <= 6 and 1 <= second <= 6):
        raise ChanceError(f"each die shows 1 to 6, not {outcome!r}")
    return None


# ------------------------------------------------------------ the roll and the move


def do_roll(s: GameState, a: A.Roll) -> None:
    if s.claims:
        for (_, o, f, _) in s.claims:
            emit(s, E.RentLapsed(o, f))
        s.claims = []
    p = s.players[a.player]
    d1, d2 = s.dice = s.chance.roll()
    if s.record_events or s.observer is not None:
        emit(s, E.Rolled(a.player, d1, d2))
    if p.in_prison:
        prison_try(s, p, d1, d2)
        return
    r = s.rules
    if d1 == d2 and r.doubles == "extra_roll":
        s.doubles_count += 1
        s.rolls_due = True
        if s.doubles_count >= 3 and r.three_doubles != "nothing":
            s.rolls_due = False
            if r.three_doubles == "prison":
                send_to_prison(s, p, "third_doubles")
                return
            p.lose_turn = True
    else:
        s.rolls_due = False
    move(s, p, d1 + d2)


def prison_try(s: GameState, p: Player, d1: int, d2: int) -> None:
    """L14 / C7: a prisoner's roll for the way out."""
    r = s.rules
    s.prison_tries += 1
    way = r.jail_exit
    if (way == "doubles" and d1 == d2) or (way == "total_3" and d1 + d2 == 3) or (way == "any_die_3" and 3 in (d1, d2)):
        free(s, p, way)
        s.rolls_due = False
        if r.jail_exit_move == "roll_again":
            d1, d2 = s.dice = s.chance.roll()
            emit(s, E.Rolled(p.index, d1, d2))
        move(s, p, d1 + d2)
        return
    if s.prison_tries < r.jail_tries_per_turn:
        return
    p.prison_turns += 1
    s.rolls_due = False
    if p.prison_turns < r.jail_max_turns:
        emit(s, E.StayedInPrison(p.index))
        return
    free(s, p, "forced_fine")
    if charge(s, p.index, [(BANK, r.jail_fine)], "fine", -1, "prison_move"):
        move(s, p, d1 + d2)


def free(s: GameState, p: Player, reason: str) -> None:
    p.in_prison = False
    p.prison_turns = 0
    emit(s, E.LeftPrison(p.index, reason))


def send_to_prison(s: GameState, p: Player, reason: str) -> None:
    """L14: to prison at once, no salary, and the turn ends."""
    assert s.prison is not None  # set-up and board checks send to prison only on a board with one
    p.pos = s.prison
    p.in_prison = True
    p.prison_turns = 0
    s.rolls_due = False
    s.doubles_count = 0
    emit(s, E.SentToPrison(p.index, reason))
    if p.index == s.current and s.phase != OVER:
        next_turn(s)


def moved(s: GameState, who: int, src: int, dst: int) -> None:
    """A token has moved: its event (when the game keeps a log or has an observer) and its landing (when counted)."""
    if s.record_events or s.observer is not None:
        emit(s, E.Moved(who, src, dst))
    landings = s.landings
    if landings is not None:
        landings[dst] += 1


def move(s: GameState, p: Player, steps: int) -> None:
    """Move forward by a dice total and resolve the field."""
    src = p.pos
    dst = (src + steps) % len(s.fields)
    p.pos = dst
    moved(s, p.index, src, dst)
    if dst < src:
        hook = s.salary
        if hook is None:
            pay_salary(s, p, dst == 0)
        else:
            hook(s, p, dst == 0)
    land(s, p)


def pay_salary(s: GameState, p: Player, landed: bool) -> None:
    """L3, S3, C1: salary for passing Start; the landing salary for landing on it."""
    if not p.has_passed_start:
        p.has_passed_start = True
        if not s.rules.salary_on_first_pass:
            return
    if landed:
        receive(s, p.index, s.rules.landing_salary, "landing_salary", 0)
    else:
        receive(s, p.index, s.rules.salary, "salary", 0)


def land(s: GameState, p: Player) -> None:
    i = p.pos
    f = s.fields[i]
    kind = f.kind
    if kind in ("street", "station", "attraction"):
        o = s.owner[i]
        if o < 0:
            s.pending_field = i
            s.phase = BUYING
            return
        if o != p.index:
            if s.factory[i] and s.rules.factory_income_when == "landing":
                receive(s, o, f.factory_income, "factory_income", i)
            policy = s.rent_policy
            if policy is not None:
                amount = policy(s, i)
            else:
                amount = rent_on_landing(s, i) if s.card_rent_multiplier else rent(s, i)
            if amount:
                if s.rules.rent_claim:
                    s.claims.append((p.index, o, i, amount))
                    emit(s, E.RentDue(p.index, o, i, amount))
                elif not charge(s, p.index, [(o, amount)], "rent", i, "after_landing"):
                    return
        after_landing(s, p)
    elif kind == "card":
        assert f.deck is not None  # the board check gives every card field its deck
        draw(s, p, f.deck)
    elif kind == "tax":
        if charge(s, p.index, [(POT if f.to == "pot" else BANK, f.amount)], "tax", i, "end_move"):
            end_move(s)
    elif kind == "pot":
        pot_payout(s, p)
        end_move(s)
    elif kind == "go_to_prison":
        send_to_prison(s, p, "field")
    else:
        end_move(s)


def rent_on_landing(s: GameState, i: int) -> int:
    """The rent a card that moved the player here multiplies (L15, C4): the multiplier applies once."""
    mult = s.card_rent_multiplier
    if not mult:
        return rent(s, i)
    s.card_rent_multiplier = 0
    if s.fields[i].kind == "attraction":
        d1, d2 = s.chance.roll()
        emit(s, E.Rolled(s.current, d1, d2))
        return mult * (d1 + d2)
    return mult * rent(s, i)


def pot_payout(s: GameState, p: Player) -> None:
    """L8: a quarter of the pot on doubles, half on double six.  S4: the whole pot."""
    mode = s.rules.pot_payout
    d1, d2 = s.dice
    if mode == "all":
        amount = s.pot
    elif mode == "casino_doubles" and d1 == d2:
        amount = s.pot // 2 if d1 == 6 else s.pot // 4
    else:
        amount = 0
    receive(s, p.index, amount, "casino", p.pos, payer=POT)


def resume_after_debt(s: GameState, then: Continuation, player: int) -> None:
    """Carry on after a debt is paid: the continuation tags used by :meth:`_charge`."""
    p = s.players[player]
    if then == "after_landing":
        after_landing(s, p)
    elif then == "end_move":
        end_move(s)
    elif then == "prison_move":
        move(s, p, sum(s.dice))
    elif then == "collect_next":
        collect_next(s)


# ------------------------------------------------------------ cards


def draw(s: GameState, p: Player, deck_name: str) -> None:
    """L15: the top card acts and goes to the bottom (a kept jail card stays out).

    With ``card_draw=random`` every draw is a fresh random card of the whole deck
    and a kept jail card is a copy (the model of the published probability tables).
    """
    deck = s.decks[deck_name]
    cycle = s.rules.card_draw == "cycle"
    card_index = deck.popleft() if cycle else s.chance.draw(deck_name, len(deck))
    card = s.board.decks[deck_name][card_index]
    keep = card.effect == "get_out_of_prison"
    if keep:
        p.jail_cards.append((deck_name, card_index))
    elif cycle:
        deck.append(card_index)
    s.last_card = (deck_name, card_index)
    if s.record_events or s.observer is not None:
        emit(s, E.CardDrawn(p.index, deck_name, card_index))
    if keep:
        emit(s, E.GotJailCard(p.index))
        end_move(s)
        return
    _CARD_EFFECTS[card.effect](s, p, card.args)


def card_advance_to(s: GameState, p: Player, args: dict[str, Any]) -> None:
    card_move_to(s, p, args["field"])


def card_move_to(s: GameState, p: Player, dst: int) -> None:
    src = p.pos
    p.pos = dst
    moved(s, p.index, src, dst)
    if dst <= src:
        hook = s.salary
        if hook is None:
            pay_salary(s, p, dst == 0)
        else:
            hook(s, p, dst == 0)
    land(s, p)


def card_nearest(s: GameState, p: Player, args: dict[str, Any]) -> None:
    n = len(s.fields)
    dst = min((i for i in range(n) if s.fields[i].kind == args["kind"]), key=lambda i: (i - p.pos - 1) % n)
    s.card_rent_multiplier = args.get("rent_multiplier") or 0
    card_move_to(s, p, dst)
    s.card_rent_multiplier = 0


def card_move(s: GameState, p: Player, args: dict[str, Any]) -> None:
    steps = args["steps"]
    if steps > 0:
        card_move_to(s, p, (p.pos + steps) % len(s.fields))
        return
    src = p.pos
    p.pos = (src + steps) % len(s.fields)
    moved(s, p.index, src, p.pos)
    land(s, p)


def card_prison(s: GameState, p: Player, args: dict[str, Any]) -> None:
    send_to_prison(s, p, "card")


def card_pay(s: GameState, p: Player, args: dict[str, Any]) -> None:
    payee = POT if args.get("to") == "pot" else BANK
    if charge(s, p.index, [(payee, args["amount"])], "card", p.pos, "end_move"):
        end_move(s)


def card_collect(s: GameState, p: Player, args: dict[str, Any]) -> None:
    receive(s, p.index, args["amount"], "card", p.pos)
    end_move(s)


def card_pay_each(s: GameState, p: Player, args: dict[str, Any]) -> None:
    payments = [(q.index, args["amount"]) for q in s.players if q.active and q is not p]
    if charge(s, p.index, payments, "card", p.pos, "end_move"):
        end_move(s)


def card_collect_each(s: GameState, p: Player, args: dict[str, Any]) -> None:
    s.collect_queue = [(q.index, p.index, args["amount"]) for q in s.players if q.active and q is not p]
    collect_next(s)


def collect_next(s: GameState) -> None:
    """Charge the players still owing a collect-from-each card, one at a time."""
    while s.collect_queue:
        payer, payee, amount = s.collect_queue.pop(0)
        if not (s.players[payer].active and s.players[payee].active):
            continue
        if not charge(s, payer, [(payee, amount)], "card", s.players[payee].pos, "collect_next"):
            if s.phase in (DEBT, OVER, AUCTION) or not s.players[s.current].active:
                return
    end_move(s)


def card_repairs(s: GameState, p: Player, args: dict[str, Any]) -> None:
    total = 0
    for i in owned_by(s, p.index):
        if s.factory[i]:
            total += args.get("factory", 0)
        elif s.level[i] == s.hotel_level:
            total += args["hotel"]
        else:
            total += s.level[i] * args["house"]
    payee = POT if args.get("to") == "pot" else BANK
    if not total or charge(s, p.index, [(payee, total)], "repairs", p.pos, "end_move"):
        end_move(s)


#: One function per card effect (the effects a board file may name, :data:`laspoly.rules.board.CARD_EFFECTS`).
_CARD_EFFECTS: dict[str, Callable[[GameState, Player, dict[str, Any]], None]] = {
    "advance_to": card_advance_to, "advance_to_nearest": card_nearest, "move": card_move,
    "go_to_prison": card_prison, "pay": card_pay, "collect": card_collect,
    "pay_each_player": card_pay_each, "collect_from_each_player": card_collect_each,
    "repairs": card_repairs,
}
