"""Chance as outcomes: the engine lists each chance node's outcomes, and a chosen outcome plays like a sampled one."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from laspoly import Game
from laspoly.analysis.markov import chain_tables
from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.chance import ROLL, ROLL_UNORDERED, ChanceNode, Chooser, Outcome, walk_outcomes
from laspoly.errors import ChanceError
from laspoly.rules.presets import load_preset, preset_names


def test_a_roll_lists_the_36_ordered_pairs_each_one_in_36_summing_to_one() -> None:
    outcomes = Game(2, seed=3).chance_outcomes()
    assert len(outcomes) == 36 and {o for o, _ in outcomes} == {(a, b) for a in range(1, 7) for b in range(1, 7)}
    assert all(p == Fraction(1, 36) for _, p in outcomes) and sum(p for _, p in outcomes) == 1


def test_the_unordered_roll_has_21_pairs_and_the_two_dice_distribution() -> None:
    assert len(ROLL_UNORDERED.outcomes) == 21 and sum(p for _, p in ROLL_UNORDERED.outcomes) == 1
    totals: Counter[int] = Counter()
    for (a, b), p in ROLL_UNORDERED.outcomes:
        totals[a + b] += p  # type: ignore[assignment]
    assert totals == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert ROLL_UNORDERED.probabilities == tuple(float(p) for _, p in ROLL_UNORDERED.outcomes)


def test_only_a_due_roll_is_a_chance_node() -> None:
    g = Game(2, seed=1, dice="1-2")
    g.push(A.Roll(g.current))  # 1-2 from Start: onto a street for sale, and no doubles
    assert g.phase == "buy" and g.chance_outcomes() == []
    g.push(A.DeclineBuy(g.current))
    assert g.phase == "turn" and not g.rolls_due and g.chance_outcomes() == []
    g.push(A.EndTurn(g.current))
    assert len(g.chance_outcomes()) == 36


def test_a_card_fields_draw_lists_each_card_with_one_in_n_under_random_draws() -> None:
    g = Game(2, preset="standard", seed=2, rules={"card_draw": "random"})
    for deck in ("chance", "chest"):
        outcomes = g.card_outcomes(deck)
        n = len(g.board.decks[deck])
        assert [o for o, _ in outcomes] == [(deck, i) for i in range(n)]
        assert all(p == Fraction(1, n) for _, p in outcomes) and sum(p for _, p in outcomes) == 1


def test_a_cycling_deck_gives_its_top_card_for_certain() -> None:
    g = Game(2, preset="standard", seed=2)
    assert g.card_outcomes("chance") == [(("chance", g.decks["chance"][0]), Fraction(1))]
    with pytest.raises(ChanceError, match="no deck"):
        g.card_outcomes("tarot")


def _to_the_card_field(chooser: Chooser) -> list[E.Event]:
    """From Go, a standard token that rolls 3-4 reaches Chance (7) and draws: the walk's play."""
    g = Game(2, preset="standard", seed=5, rules={"card_draw": "random"})
    me = g.current
    g.chance.chooser = chooser
    g.push(A.Roll(me))
    return [e for e in g.log if isinstance(e, E.CardDrawn)]


def test_walking_a_roll_reaches_the_card_draw_with_each_card_one_in_16() -> None:
    leaves = list(walk_outcomes(_to_the_card_field))
    assert sum(p for p, _, _ in leaves) == pytest.approx(1.0, abs=1e-12)
    seven = [(p, path) for p, path, _ in leaves if path[0] in ((3, 4), (4, 3))]
    assert len(seven) == 2 * 16
    assert all(p == pytest.approx(1 / 36 / 16, abs=1e-18) and path[1][0] == "chance" for p, path in seven)
    assert {path[1][1] for _, path in seven} == set(range(16))


def test_the_walk_stops_a_loop_of_chance_events_with_a_clear_error() -> None:
    def play(chooser: Chooser) -> None:
        while True:  # a board whose cards send the token from card field to card field forever
            chooser.choose(ROLL)

    with pytest.raises(ChanceError, match="more than 4 chance events"):
        list(walk_outcomes(play, max_nodes=4))


@pytest.mark.parametrize(("preset", "rules"), [("laspoly", {"card_draw": "random"}), ("standard", {"card_draw": "random"}),
                                               ("classic", {"jail_exit_move": "roll_again", "card_draw": "random"})])
def test_pushed_outcomes_give_the_same_game_as_the_seeded_one_that_rolled_them(preset: str, rules: dict) -> None:
    """A game told each roll and card of a seeded twin plays the twin's game, state for state and event for event."""
    seeded = Game(3, preset=preset, seed=7, rules=rules, max_rounds=40)
    forced = Game(3, preset=preset, seed=7, rules=rules, max_rounds=40)
    bots = [BasicBot() for _ in range(3)]
    while not seeded.is_over:
        start = len(seeded.log)
        if not play_bot_turns(seeded, bots, max_actions=1):
            break
        for e in seeded.log[start:]:
            if isinstance(e, E.Rolled):
                forced.push_outcome((e.d1, e.d2))
            elif isinstance(e, E.CardDrawn):
                forced.push_outcome((e.deck, e.card))
        forced.push(seeded.history[-1])
        assert forced.chance.chooser is None  # every pushed outcome was used, and the queue took itself off
        assert forced.snapshot() == seeded.snapshot()
    assert forced.log == seeded.log and len(seeded.history) > 300


def test_a_pushed_double_six_is_played_before_the_dice_script() -> None:
    g = Game(2, seed=1, dice="1-2 1-2")
    g.push_outcome((6, 6))
    g.push(A.Roll(g.current))
    assert g.dice == (6, 6) and g.chance.script_left == 2


@pytest.mark.parametrize(("outcome", "words"), [((7, 1), "1 to 6"), ((0, 3), "1 to 6"), ((True, 2), "1 to 6"),
                                                 ((1, 2, 3), "two dice"), ("6-6", "two dice"), (("tarot", 1), "no deck"),
                                                 (("action", 99), "cards 0 to 18"), (("action", 1.5), "two dice")])
def test_an_outcome_that_cannot_happen_is_refused_and_changes_nothing(outcome: object, words: str) -> None:
    g = Game(2, seed=4, rules={"card_draw": "random"})
    before = g.snapshot()
    with pytest.raises(ChanceError, match=words):
        g.push_outcome(outcome)  # type: ignore[arg-type]
    assert g.snapshot() == before and g.chance.chooser is None


def test_a_card_cannot_be_pushed_where_the_deck_order_decides() -> None:
    g = Game(2, seed=4)
    with pytest.raises(ChanceError, match="card_draw=cycle"):
        g.push_outcome(("action", 1))


def test_a_chooser_that_leaves_every_outcome_to_the_seed_changes_no_byte() -> None:
    class Decline(Chooser):
        def choose(self, node: ChanceNode) -> Outcome | None:
            return None

    plain, watched = Game(4, seed=9, rules={"card_draw": "random"}), Game(4, seed=9, rules={"card_draw": "random"})
    watched.chance.chooser = Decline()
    for _ in range(300):
        action = plain.legal_actions()[0] if not plain.chance_outcomes() else A.Roll(plain.current)
        plain.push(action)
        watched.push(action)
    assert plain.digest() == watched.digest() and plain.log == watched.log


@pytest.mark.parametrize("preset", preset_names())
def test_no_rule_reads_the_order_of_the_dice(preset: str) -> None:
    """The chain walked with 21 unordered pairs equals the chain walked with all 36 ordered ones."""
    p = load_preset(preset)
    rules = p.rules.with_overrides({"jail_exit": "any_die_3", "jail_exit_move": "roll_again"} if p.board.prison else None)
    for r in (p.rules, rules):
        fast = chain_tables(p.board, r, "stay")
        full = chain_tables(p.board, r, "stay", ordered_dice=True)
        for name in ("P", "land", "turn_end", "land_total", "land_card", "land_double", "land_double6"):
            assert np.allclose(getattr(fast, name), getattr(full, name), rtol=0, atol=1e-12), name
