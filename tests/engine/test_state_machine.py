"""Stateful property-based tests over all four presets (hypothesis RuleBasedStateMachine).

Random legal and illegal actions, saves and loads, and undos are interleaved;
after every step an illegal action has raised the documented error and changed
nothing, and the invariants hold (money, ownership, buildings, elimination line, pots).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from laspoly import IllegalActionError
from laspoly.bots.registry import make_bot
from laspoly.engine import actions as A
from laspoly.engine import registry as R
from laspoly.engine.checked import CheckedGame
from laspoly.engine.invariants import problems
from laspoly.record import game_from_json, game_to_dict, rewind

PRESETS = ("laspoly", "sculptprice", "classic", "standard")


class GameMachine(RuleBasedStateMachine):
    """One game driven by hypothesis."""

    @initialize(preset=st.sampled_from(PRESETS), players=st.integers(2, 4), seed=st.integers(0, 2**31))
    def start(self, preset: str, players: int, seed: int) -> None:
        self.game = CheckedGame(players, preset=preset, seed=seed, max_rounds=40)
        self.bot = make_bot("greedy")

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions()
        self.game.apply(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: not self.game.is_over)
    @rule(steps=st.integers(1, 30))
    def bot_moves(self, steps: int) -> None:
        for _ in range(steps):
            if self.game.is_over:
                return
            for _, owner, field, _ in list(self.game.claims):
                if self.game.is_legal(A.ClaimRent(owner, field)):
                    self.game.apply(A.ClaimRent(owner, field))
            if self.game.is_over:  # a claimed rent can knock out the last opponent
                return
            self.game.apply(self.bot.choose(self.game.observe()))

    @rule(kind=st.sampled_from(sorted(R.ACTION_TYPES)), player=st.integers(-1, 4), field=st.integers(-2, 41),
          amount=st.integers(-50, 5000))
    def any_action(self, kind: str, player: int, field: int, amount: int) -> None:
        cls = R.ACTION_TYPES[kind]
        args: dict[str, object] = {"player": player}
        names = cls.__dataclass_fields__
        for name in names:
            if name in ("field", "offer"):
                args[name] = field
            elif name in ("amount", "cash"):
                args[name] = amount
            elif name == "to":
                args[name] = (player + 1) % 5
            elif name in ("give", "take"):
                args[name] = (field,)
        action = cls(**args)  # type: ignore[arg-type]
        before = self.game.digest()
        reason = self.game.why_illegal(action)
        if reason is None:
            self.game.apply(action)
        else:
            try:
                self.game.apply(action)
            except IllegalActionError as exc:
                assert exc.reason == reason
            else:
                raise AssertionError(f"{action} was applied although {reason}")
            assert self.game.digest() == before

    @rule()
    def save_and_load(self) -> None:
        again = game_from_json(json.dumps(game_to_dict(self.game)))
        assert again.digest() == self.game.digest()

    @precondition(lambda self: len(self.game.history) > 0)
    @rule()
    def undo_and_redo(self) -> None:
        last = self.game.history[-1]
        back = rewind(self.game)
        back.apply(last)
        assert back.digest() == self.game.digest()

    @invariant()
    def rules_hold(self) -> None:
        if hasattr(self, "game"):
            assert problems(self.game) == []


GameMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None, derandomize=True,
                                         suppress_health_check=[HealthCheck.too_slow])
test_game_machine = GameMachine.TestCase
