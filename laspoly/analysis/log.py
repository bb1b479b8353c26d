"""The game log's questions, answered once: the last move, the card drawn this turn, the last roll, landings, dice totals.

The board, the Probability tab, predict-then-roll and the teacher's page all ask
the same few things of a game's event log (:attr:`Game.log
<laspoly.engine.game.Game.log>`).  They ask them here, so that "a landing" or
"this turn" means the same on every screen.  A landing is counted one way: where
a roll ended, as the movement chain counts it (:func:`roll_landing`), one per roll
not made from prison, with "in prison" apart.  Every chart that compares landings
with the chain counts these: the Probability tab's heatmap and its CSV
(:class:`RollLandings`), and the class's pooled landings on the teacher's page.

Nothing here imports a UI library; the functions read the log and never change the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.record import new_game_from_setup

#: The dice totals, 2 to 12, in the order the count lists of :func:`dice_totals` hold them.
TOTALS = tuple(range(2, 13))


@dataclass(frozen=True)
class Move:
    """The last move on the board: who, from which field to which, and the fields walked (empty for a jump)."""

    who: int
    src: int
    dst: int
    path: tuple[int, ...]


def turn_start(log: list[E.Event]) -> int:
    """Index in ``log`` of the last TurnStarted event (0 when the first turn has not started yet)."""
    for k in range(len(log) - 1, -1, -1):
        if isinstance(log[k], E.TurnStarted):
            return k
    return 0


def card_this_turn(game: Game) -> E.CardDrawn | None:
    """The card drawn in the current turn, if any (a card from an earlier turn is not shown)."""
    log = game.log
    for k in range(len(log) - 1, turn_start(log) - 1, -1):
        event = log[k]
        if isinstance(event, E.CardDrawn):
            return event
    return None


def last_roll(game: Game) -> tuple[E.Rolled, bool] | None:
    """The last roll of the game and whether it was made in the current turn."""
    this_turn = True
    for e in reversed(game.log):
        if isinstance(e, E.Rolled):
            return e, this_turn
        if isinstance(e, E.TurnStarted):
            this_turn = False
    return None


def walked_back(game: Game, before: E.Event | None) -> bool:
    """Whether a move came from a "go back N fields" card (the event just before it drew that card)."""
    if not isinstance(before, E.CardDrawn):
        return False
    card = game.board.decks[before.deck][before.card]
    return card.effect == "move" and int(card.args.get("steps", 0)) < 0


def last_move(game: Game) -> Move | None:
    """The last move of a token: a walk by dice or card, a train ride, or a trip to prison (those two jump)."""
    log, n = game.log, len(game.fields)
    prison_of: int | None = None
    for k in range(len(log) - 1, -1, -1):
        e = log[k]
        if isinstance(e, E.SentToPrison) and prison_of is None:
            prison_of = e.who
        elif isinstance(e, (E.Moved, E.Travelled)) and (prison_of is None or e.who == prison_of):
            if prison_of is not None:
                return Move(e.who, e.dst, game.prison if game.prison is not None else e.dst, ())
            if isinstance(e, E.Travelled):
                return Move(e.who, e.src, e.dst, ())
            step = -1 if walked_back(game, log[k - 1] if k else None) else 1
            steps = (e.dst - e.src) * step % n
            return Move(e.who, e.src, e.dst, tuple((e.src + step * j) % n for j in range(steps + 1)))
    if prison_of is not None and game.prison is not None:
        return Move(prison_of, game.prison, game.prison, ())
    return None


def rolls(game: Game, since: int = 0) -> list[E.Rolled]:
    """Every roll of the game, in order (those logged from index ``since`` on)."""
    return [e for e in game.log[since:] if isinstance(e, E.Rolled)]


def roll_totals(game: Game) -> list[int]:
    """The total of every roll of the game, in order."""
    return [e.d1 + e.d2 for e in rolls(game)]


def count_totals(totals: Iterable[int]) -> list[int]:
    """How often each total 2-12 occurs in ``totals`` (index 0 is a total of 2)."""
    counts = [0] * len(TOTALS)
    for t in totals:
        counts[t - TOTALS[0]] += 1
    return counts


def dice_totals(game: Game) -> list[int]:
    """How often each total 2-12 was rolled in the game (index 0 is a total of 2)."""
    return count_totals(roll_totals(game))


def last_out_first(game: Game) -> list[int]:
    """The players eliminated so far, the last one out first (each once)."""
    return list(dict.fromkeys(e.who for e in reversed(game.log) if isinstance(e, E.Eliminated)))


def roll_landing(game: Game, action: A.Action, from_prison: bool = False) -> tuple[int, int] | None:
    """Where a roll just played ended, as the movement chain counts a landing; None for any other action.

    As :mod:`laspoly.chain.movement` counts per roll: the roller's field after the
    roll, its cards and a go-to-prison, before any train journey (a separate
    decision), with "in prison" apart from "just visiting": (player, slot), where
    slot ``len(game.fields)`` is "in prison".  A token sent to prison by
    Go-Into-Prison therefore lands *in prison*, never on Go-Into-Prison.

    A roll made ``from_prison`` (a try for doubles) is no landing: the chain the
    class is compared with pays the fine before rolling, so none of its rolls
    starts in prison.  Counted, every failed try would be one more "in prison",
    and the class's bar would stand at several times the chain's.
    """
    if not isinstance(action, A.Roll) or from_prison:
        return None
    player = game.players[action.player]
    return action.player, len(game.fields) if player.in_prison else player.pos


class RollLandings:
    """Where each roll of one game ended, as the movement chain counts it (:func:`roll_landing`), kept up to date.

    The log says where tokens went, but not where a roll ended before a train
    journey, nor whether it started in prison; so a shadow game replays the game's
    actions (already checked when played) and asks :func:`roll_landing` after each
    roll.  Asked again, it plays only the actions new since the last question; an
    undo, a loaded game or a new game starts the shadow again.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._shadow: Game | None = None
        self._last: A.Action | None = None
        self._seen = 0
        self._counts: list[int] = []

    def of(self, game: Game) -> list[int]:
        """The landings of ``game`` so far: one count per field, then "in prison" last."""
        history = game.history
        if (game is not self._game or self._shadow is None or len(history) < self._seen
                or (self._seen and history[self._seen - 1] is not self._last)):
            self._game, self._shadow, self._seen = game, new_game_from_setup(game.setup), 0
            self._counts = [0] * (len(game.fields) + 1)
        shadow, counts = self._shadow, self._counts
        for action in history[self._seen:]:
            from_prison = isinstance(action, A.Roll) and shadow.players[action.player].in_prison
            shadow.push(action)
            landing = roll_landing(shadow, action, from_prison)
            if landing is not None:
                counts[landing[1]] += 1
        self._seen = len(history)
        self._last = history[-1] if history else None
        return list(counts)


def roll_landings(game: Game) -> list[int]:
    """Where every roll of ``game`` ended, as the chain counts it: one count per field, then "in prison" last."""
    return RollLandings().of(game)
