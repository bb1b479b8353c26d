"""Play a game with bots: the loop shared by the CLI, simulations and tests."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from laspoly.bots.basic import Bot
from laspoly.bots.registry import DEFAULT_BOT, make_bot
from laspoly.engine import actions as A
from laspoly.engine.game import OVER, TURN, Game
from laspoly.engine.observation import Observation

DEFAULT_MAX_ROUNDS = 1000

#: Allocations between young garbage collections while bots play (Python's default is 700).
BATCHED_YOUNG_COLLECTIONS = 10_000

_batch_lock = threading.Lock()
_batches = [0, 0]  # [loops now playing, the young threshold to put back when the last one ends]


@contextmanager
def young_collections_batched() -> Iterator[None]:
    """Let the garbage collector look at young objects every 10,000 allocations instead of 700, while bots play.

    A game makes tens of thousands of small objects (its events, above all) that form no cycles. With
    Python's default, collections took a large share of the compiled build's time: each young pass moves
    the events the log keeps into the older generations, and the full passes that follow walk them all
    again. Batching the young passes makes those rarer; a few thousand more short-lived objects wait a
    little longer for their pass. The threshold is put back when the last loop ends (loops may run in
    several threads, such as the dashboard's lab), and only the first threshold is touched.
    """
    with _batch_lock:
        if _batches[0] == 0:
            first, middle, full = gc.get_threshold()
            _batches[1] = first
            if 0 < first < BATCHED_YOUNG_COLLECTIONS:
                gc.set_threshold(BATCHED_YOUNG_COLLECTIONS, middle, full)
        _batches[0] += 1
    try:
        yield
    finally:
        with _batch_lock:
            _batches[0] -= 1
            if _batches[0] == 0:
                _, middle, full = gc.get_threshold()
                gc.set_threshold(_batches[1], middle, full)


#: How an action is played: :meth:`Game.apply`, :meth:`Game.push`, or a caller's own commit.
#: A commit that returns ``False`` did not play the action (a shared game moved on elsewhere).
Play = Callable[[A.Action], "bool | None"]


def play_bot_turns(game: Game, bots: Sequence[Bot | None], *, validate: bool = False,
                   until: Callable[[Game], bool] | None = None, max_actions: int = 1_000_000,
                   commit: Play | None = None) -> int:
    """Let bots decide until the game ends, a person (``None`` seat) must decide, or ``until`` is true.

    Bots see the game through one :class:`~laspoly.engine.observation.Observation`
    (built here, once).  Bots always claim rent owed to them first (C6).  With ``validate`` every
    bot action goes through :meth:`Game.apply`; otherwise through the fast
    :meth:`Game.push`.  A ``commit`` plays each action instead (the dashboard
    stores a room's action before playing it); when it returns ``False`` the
    action was not played and the loop stops.  Returns the number of actions played.
    """
    play: Play = commit if commit is not None else game.apply if validate else game.push
    trusted = commit is None and not validate  # game.push called directly: the compiled build's native call
    seen = game.observe()  # what the bots see: one read-only view for the whole loop
    s = game.state  # the loop's own reads go to the state's slots (a position set in place keeps this object)
    roll, end_turn, merge = A.Roll, A.END_TURN, until is None
    done = 0
    with young_collections_batched():
        while done < max_actions:
            phase = s.phase
            if phase == OVER:
                break
            if s.claims:
                claimed = _claim_for_bots(game, seen, bots, play)
                if claimed is False:
                    break
                if claimed:
                    done += 1
                    continue
            bot = bots[s.current if phase == TURN else game.actor]
            if bot is None or (until is not None and until(game)):
                break
            action = bot.choose(seen)
            if trusted:
                game.push(action)
            elif play(action) is False:
                break
            done += 1
            # a bot that always ends its turn once no roll is due is not asked again: the loop's next
            # round would find the same bot with nothing else to do (no claim, no offer, no roll due)
            if (type(action) is roll and not s.rolls_due and merge and bot.ends_turn_after_roll and s.phase == TURN
                    and not s.claims and not s.offers and s.current == action.player and done < max_actions):
                if trusted:
                    game.push(end_turn[action.player])
                elif play(end_turn[action.player]) is False:
                    break
                done += 1
    return done


def _claim_for_bots(game: Game, seen: Observation, bots: Sequence[Bot | None], play: Play) -> bool | None:
    """C6: a bot claims rent owed to it before anyone moves on.

    True if one claimed, None if none did, False if the claim was not played.
    Claims owed to people wait for their click, and lapse at the next roll.
    """
    for _, owner, field, _ in game.claims:
        bot = bots[owner]
        claim = A.ClaimRent(owner, field)
        if bot is not None and bot.claims_rent(seen, owner) and game.is_legal(claim):
            return play(claim) is not False
    return None


def play_game(game: Game, bots: Sequence[Bot] | None = None, *, validate: bool = False) -> Game:
    """Play ``game`` to the end with one bot per seat (default: the :data:`DEFAULT_BOT` temperament everywhere)."""
    seats: Sequence[Bot] = bots if bots is not None else [make_bot(DEFAULT_BOT, seed=k) for k in range(len(game.players))]
    if len(seats) != len(game.players):
        raise ValueError("give one bot per player")
    play_bot_turns(game, seats, validate=validate)
    if not game.is_over:
        game.end_by_cap()
    return game
