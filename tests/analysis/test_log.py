"""The game log's questions, answered once (laspoly.analysis.log): rolls, totals, landings, the last move and roll."""

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
    assert gamelog.dice_totals(g) == [0] * 11 and gamelog.roll_landings(g) == [0] * (len(g.fields) + 1)


def test_a_roll_is_one_landing_the_last_move_and_this_turns_roll() -> None:
    g = new_game("1-2")
    g.apply(A.Roll(ANA))
    assert gamelog.roll_landings(g)[3] == 1 and sum(gamelog.roll_landings(g)) == 1
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


def test_every_roll_not_made_from_prison_is_one_landing_and_go_into_prison_has_none() -> None:
    """The Probability tab's heatmap counts what the chain counts (analysis.log.RollLandings): one landing per roll
    that did not start in prison, "in prison" apart, so Go-Into-Prison itself is never a landing."""
    for preset in ("laspoly", "classic", "standard", "sculptprice"):
        g = Game(4, preset=preset, seed=11, max_rounds=60)
        shadow, rolls = Game(4, preset=preset, seed=11, max_rounds=60), 0
        _play(g, 3000)
        for action in g.history:
            rolls += isinstance(action, A.Roll) and not shadow.players[action.player].in_prison
            shadow.apply(action)
        counts = gamelog.roll_landings(g)
        assert len(counts) == len(g.fields) + 1 and sum(counts) == rolls > 100, preset
        sent = [i for i, f in enumerate(g.fields) if f.kind == "go_to_prison"]
        assert all(counts[i] == 0 for i in sent), preset
        if preset != "sculptprice":  # its board sends nobody to prison from a field
            assert sent and counts[-1] > 0, preset  # the scene: some roll ended in prison


def test_landings_kept_up_to_date_step_by_step_equal_those_counted_at_once_and_an_undo_starts_again() -> None:
    g = Game(3, seed=5, max_rounds=40)
    follower, bot = gamelog.RollLandings(), BasicBot()
    for _ in range(600):
        if g.is_over:
            break
        g.apply(bot.choose(g.observe()))
        assert follower.of(g) == gamelog.roll_landings(g)
    shorter = Game(3, seed=5, max_rounds=40)
    for action in g.history[: len(g.history) // 2]:
        shorter.apply(action)
    assert follower.of(shorter) == gamelog.roll_landings(shorter) != gamelog.roll_landings(g)


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
