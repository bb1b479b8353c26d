"""The game log's questions, answered once (laspoly.analysis.log): rolls, totals, arrivals, the last move and roll."""

from __future__ import annotations

from helpers import ANA, BEN, new_game

from laspoly.analysis import log as gamelog
from laspoly.analysis.log import Move
from laspoly.bots.basic import BasicBot
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game


def _play(game: Game, actions: int) -> None:
    """Let the basic bot play every seat for ``actions`` decisions (or to the end)."""
    bot = BasicBot()
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(bot.choose(game.observe()))


def test_a_new_game_has_no_roll_no_move_no_card_and_nothing_counted() -> None:
    g = new_game()
    assert gamelog.last_roll(g) is None and gamelog.last_move(g) is None and gamelog.card_this_turn(g) is None
    assert gamelog.rolls(g) == [] and gamelog.roll_totals(g) == []
    assert gamelog.dice_totals(g) == [0] * 11 and gamelog.arrivals(g) == [0] * len(g.fields)


def test_a_roll_is_one_arrival_the_last_move_and_this_turns_roll() -> None:
    g = new_game("1-2")
    g.apply(A.Roll(ANA))
    assert gamelog.arrivals(g)[3] == 1 and sum(gamelog.arrivals(g)) == 1
    assert gamelog.last_move(g) == Move(ANA, 0, 3, (0, 1, 2, 3))
    roll = gamelog.last_roll(g)
    assert roll is not None and (roll[0].who, roll[0].d1, roll[0].d2, roll[1]) == (ANA, 1, 2, True)
    assert gamelog.dice_totals(g)[3 - 2] == 1 and gamelog.roll_totals(g) == [3]


def test_the_last_roll_of_an_earlier_turn_is_told_apart_from_this_turns() -> None:
    g = new_game("1-2")
    g.apply(A.Roll(ANA))
    while g.current == ANA and not g.is_over:
        _play(g, 1)
    assert g.current == BEN
    roll = gamelog.last_roll(g)
    assert roll is not None and roll[0].who == ANA and roll[1] is False


def test_the_dice_totals_count_every_roll_of_the_log_in_order() -> None:
    g = new_game()
    _play(g, 400)
    rolled = [e for e in g.log if isinstance(e, E.Rolled)]
    assert gamelog.rolls(g) == rolled and gamelog.roll_totals(g) == [e.d1 + e.d2 for e in rolled]
    counts = gamelog.dice_totals(g)
    assert sum(counts) == len(rolled) > 0 and counts == gamelog.count_totals(gamelog.roll_totals(g))
    assert gamelog.rolls(g, since=len(g.log)) == [] and gamelog.rolls(g, since=0) == rolled


def test_every_move_by_dice_card_or_train_is_an_arrival() -> None:
    g = new_game()
    _play(g, 400)
    moves = [e for e in g.log if isinstance(e, (E.Moved, E.Travelled))]
    arrived = gamelog.arrivals(g)
    assert sum(arrived) == len(moves) and all(arrived[e.dst] > 0 for e in moves)


def test_a_roll_that_ends_in_prison_lands_in_prison_not_on_a_field() -> None:
    g = new_game("1-1 1-1 1-1")  # a third doubles sends Ana to prison
    for _ in range(2):
        g.apply(A.Roll(ANA))
        assert gamelog.roll_landing(g, A.Roll(ANA)) == (ANA, g.players[ANA].pos)
    g.apply(A.Roll(ANA))
    assert gamelog.roll_landing(g, A.Roll(ANA)) == (ANA, len(g.fields))
    assert gamelog.last_move(g) == Move(ANA, 4, g.prison, ())
    assert gamelog.roll_landing(g, A.EndTurn(ANA)) is None  # only a roll lands


def test_the_players_out_are_listed_the_last_one_out_first() -> None:
    g = new_game(players=3)
    _play(g, 20_000)
    out = [e.who for e in g.log if isinstance(e, E.Eliminated)]
    assert len(out) == 2 and gamelog.last_out_first(g) == list(reversed(out))  # two of three out: the game is over
