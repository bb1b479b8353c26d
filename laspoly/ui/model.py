"""The reactive game model: one engine game wrapped in a ``param.Parameterized``.

Views depend on this model, never the reverse.  Every change bumps
:attr:`GameModel.version`; views watch it and redraw.  The model never touches
the engine's state directly: it sends actions through :meth:`Game.apply` (the
checked path), so a click, a bot's choice and a loaded file are all judged by
the same rules.  Each browser session builds its own model: there is no shared
module-level state.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import param

from laspoly.bots.basic import TEMPERAMENTS, BasicBot, Bot, make_bot
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import AUCTION, BUY, DEBT, OVER, TRAVEL, TURN, Game
from laspoly.errors import LaspolyError
from laspoly.record import game_from_json, game_to_dict, replay
from laspoly.rules.options import parse_rule_args
from laspoly.rules.presets import load_preset, preset_names

PERSON = "person"
#: Okabe-Ito colours (safe for colour-blind players), with a marker shape per seat so colour is never the only cue.
PLAYER_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
PLAYER_MARKERS = ("circle", "square", "triangle", "diamond", "inverted_triangle", "hex", "star", "plus")
SEAT_CHOICES = (PERSON, *TEMPERAMENTS)


@dataclass(frozen=True)
class Choice:
    """A button's action for the person to move: enabled, or disabled with the engine's reason."""

    action: A.Action | None
    reason: str | None

    @property
    def enabled(self) -> bool:
        """True when the action is legal now."""
        return self.action is not None and self.reason is None


class GameModel(param.Parameterized):
    """One game and what the dashboard shows of it."""

    version = param.Integer(default=0, doc="Bumped after every change of the game; views redraw on it.")
    lang = param.Selector(default="en", objects=["en", "es"], doc="Language of the log, names and cards.")
    seats = param.List(default=[PERSON, "basic", "basic"], item_type=str, doc="Per seat: 'person' or a bot temperament.")
    message = param.String(default="", doc="The last error or notice for the person at the screen.")
    autoplay = param.Boolean(default=False, doc="Bots play on by themselves until a person must decide.")
    speed = param.Number(default=4.0, bounds=(0.5, 20.0), doc="Autoplay pace, in bot turns per second.")
    selected_field = param.Integer(default=-1, doc="The field whose property card is shown (-1: none).")
    pending_confirm = param.Parameter(default=None, doc="An action that would leave cash at zero, awaiting confirmation (L19).")
    deadline = param.Number(default=None, allow_None=True, doc="Epoch seconds at which a class-period game stops (L20).")

    def __init__(self, game: Game | None = None, seats: Sequence[str] | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.game: Game = game or Game(["Ana", "Bot 1", "Bot 2"], seed=7, max_rounds=200)
        if seats is not None:
            self.seats = list(seats)
        if len(self.seats) != len(self.game.players):
            self.seats = [PERSON] + ["basic"] * (len(self.game.players) - 1)
        self._bots: dict[int, Bot] = {}
        self.cash_history: list[list[int]] = [[p.cash for p in self.game.players]]
        #: Wraps the views' redraw after each change.  The dashboard puts Panel's ``hold`` here, so that
        #: one step reaches the page as one message instead of one per changed widget.
        self.redraw_batch: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext
        self._rebuild_bots()

    # ------------------------------------------------------------ set-up

    def _rebuild_bots(self) -> None:
        self._bots = {i: make_bot(s, seed=self.game.setup["seed"] + i) for i, s in enumerate(self.seats) if s != PERSON}

    def new_game(self, names: Sequence[str], seats: Sequence[str], *, preset: str = "laspoly", rules: str | dict[str, Any] = "",
                 seed: int = 0, dice: str = "", lang: str | None = None, max_rounds: int | None = None,
                 minutes: float | None = None) -> bool:
        """Start a new game; on bad settings the current game stays and :attr:`message` says why."""
        try:
            if len(names) != len(seats) or not 2 <= len(names) <= 6:
                raise LaspolyError("choose 2 to 6 players, each a person or a bot")
            for s in seats:
                if s not in SEAT_CHOICES:
                    raise LaspolyError(f"a seat is a person or one of the bots: {', '.join(TEMPERAMENTS)}")
            overrides = parse_rule_args(rules.split()) if isinstance(rules, str) else dict(rules)
            game = Game(list(names), preset=preset, seed=seed, rules=overrides or None, dice=dice or None, max_rounds=max_rounds)
        except LaspolyError as exc:
            self.message = f"Could not start the game: {exc}"
            return False
        self._install(game, list(seats))
        self.lang = lang or load_preset(preset).lang
        self.deadline = time.time() + 60 * minutes if minutes else None
        self.message = ""
        self._changed()
        return True

    def _install(self, game: Game, seats: list[str]) -> None:
        self.game = game
        self.seats = seats
        self.autoplay = False
        self.pending_confirm = None
        self.selected_field = -1
        self.cash_history = [[p.cash for p in game.players]]
        self._rebuild_bots()

    def _changed(self) -> None:
        if self.deadline is not None and time.time() >= self.deadline and not self.game.is_over:
            self.game.end_by_cap()
        if not self.cash_history or self.game.turns != len(self.cash_history) - 1:
            self.cash_history.append([p.cash for p in self.game.players])
        self.redraw()

    def redraw(self) -> None:
        """Tell the views to redraw (bumps :attr:`version`), batched by :attr:`redraw_batch`."""
        with self.redraw_batch():
            self.version += 1

    # ------------------------------------------------------------ who decides

    def is_person(self, player: int) -> bool:
        """True if a person plays this seat."""
        return self.seats[player] == PERSON

    @property
    def person_to_move(self) -> int | None:
        """The seat of the person who must decide now, or None when a bot decides (or the game is over)."""
        if self.game.is_over:
            return None
        actor = self.game.actor
        return actor if self.is_person(actor) else None

    def person_claims(self) -> list[A.ClaimRent]:
        """Rent claims people may make now (C6, S9)."""
        return [a for (_, owner, field, _) in self.game.claims if self.is_person(owner)
                for a in [A.ClaimRent(owner, field)] if self.game.is_legal(a)]

    def choice(self, make: Any) -> Choice:
        """The action ``make(actor)`` for the person to move, with the engine's reason if it is illegal."""
        who = self.person_to_move
        if who is None:
            return Choice(None, "it is not a person's decision" if not self.game.is_over else "the game is over")
        action = make(who)
        if action is None:
            return Choice(None, "choose one of your properties first")
        return Choice(action, self.game.why_illegal(action))

    # ------------------------------------------------------------ acting

    def act(self, action: A.Action, *, confirmed: bool = False) -> bool:
        """A person's decision.  Illegal ones leave the game as it was and set :attr:`message`."""
        reason = self.game.why_illegal(action)
        if reason is not None:
            self.message = f"{self.game.players[action.player].name} cannot {self.game.describe_action(action)}: {reason}"
            self.redraw()
            return False
        if not confirmed and self._hits_zero(action):
            self.pending_confirm = action
            self.message = (f"{self.game.describe_action(action).capitalize()} would leave "
                            f"{self.game.players[action.player].name} with no money, which is out of the game (L19). Confirm?")
            self.redraw()
            return False
        self.pending_confirm = None
        self.message = ""
        if not self._commit(action):
            self.redraw()
            return False
        self._changed()
        return True

    def _commit(self, action: A.Action) -> bool:
        """Play a checked action.  A shared room first stores it, and may find the game has moved on."""
        self.game.apply(action)
        return True

    def confirm(self) -> bool:
        """Carry out the action that waited for confirmation."""
        action, self.pending_confirm = self.pending_confirm, None
        return self.act(action, confirmed=True) if action is not None else False

    def cancel(self) -> None:
        """Drop the action that waited for confirmation."""
        self.pending_confirm = None
        self.message = ""
        self.redraw()

    def _hits_zero(self, action: A.Action) -> bool:
        """L19: would this voluntary payment leave the player's cash at exactly zero?"""
        g = self.game
        cost = g.cost_of(action)
        return g.rules.elimination == "zero" and cost > 0 and g.players[action.player].cash == cost

    # ------------------------------------------------------------ bots and pace

    def _bot_step(self) -> bool:
        """One bot decision (or a bot's rent claim).  False when a person must decide or the game is over."""
        g = self.game
        if g.is_over:
            return False
        for _, owner, field, _ in g.claims:
            bot = self._bots.get(owner)
            claim = A.ClaimRent(owner, field)
            if bot is not None and g.is_legal(claim):
                return self._commit(claim)
        bot = self._bots.get(g.actor)
        if bot is None:
            return False
        return self._commit(bot.choose(g.observe()))

    def step(self) -> int:
        """"Next": bots play until the turn passes or a person must decide.  Returns actions played."""
        turn, done = self.game.turns, 0
        while self.game.turns == turn and self._bot_step():
            done += 1
            if done > 10_000:
                break
        self._changed()
        if self.person_to_move is not None:
            self.autoplay = False
        return done

    def run_to_end(self) -> None:
        """"Run to end": every seat, people's too, is played by the basic bot until the game ends."""
        stand_in = BasicBot()
        g = self.game
        budget = 1_000_000  # actions; a game that has not ended by then stops at the cap (L20)
        while not self.game.is_over:
            g = self.game
            budget -= 1
            if budget < 0:
                g.end_by_cap()
                break
            if not self._bot_step():
                if g.is_over:
                    break
                if g.claims:
                    for _, owner, field, _ in list(g.claims):
                        if g.is_legal(A.ClaimRent(owner, field)):
                            self._commit(A.ClaimRent(owner, field))
                    continue
                self._commit(stand_in.choose(g.observe()))
                g = self.game
            if self.deadline is not None and time.time() >= self.deadline:
                g.end_by_cap()
        self.autoplay = False
        self._changed()

    def undo(self) -> bool:
        """Take back the last decision of a person (and the bot moves after it)."""
        history = self.game.history
        last = max((k for k, a in enumerate(history) if self.is_person(a.player)), default=None)
        if last is None:
            self.message = "There is no decision of a person to take back."
            self.redraw()
            return False
        self.game = replay(self.game.setup, history[:last])
        self.cash_history = self.cash_history[: self.game.turns + 1]
        self.autoplay = False
        self.pending_confirm = None
        self.message = "Took back the last decision."
        self._changed()
        return True

    def set_seat(self, player: int, seat: str) -> None:
        """Make a seat a person or a bot."""
        if seat not in SEAT_CHOICES:
            raise LaspolyError(f"a seat is a person or one of the bots: {', '.join(TEMPERAMENTS)}")
        seats = list(self.seats)
        seats[player] = seat
        self.seats = seats
        self._rebuild_bots()
        self.redraw()

    # ------------------------------------------------------------ files

    def save_json(self) -> io.BytesIO:
        """The game as a save file (for "Save game")."""
        data = game_to_dict(self.game)
        data_bytes = json.dumps(data, ensure_ascii=False).encode()
        return io.BytesIO(data_bytes)

    def read_save(self, raw: bytes, name: str = "save file") -> Game | None:
        """Check and replay a save file; a bad one gives None and a message, leaving the game untouched."""
        try:  # game_from_json refuses files over MAX_SAVE_BYTES before parsing them
            return game_from_json(raw, name)
        except LaspolyError as exc:
            self.message = f"Could not load {name}: {exc}"
            self.redraw()
            return None

    def load_json(self, raw: bytes, name: str = "save file") -> bool:
        """Load a save file; a bad one leaves the current game untouched and sets :attr:`message`."""
        game = self.read_save(raw, name)
        if game is None:
            return False
        seats = self.seats if len(self.seats) == len(game.players) else [PERSON] + ["basic"] * (len(game.players) - 1)
        self._install(game, seats)
        self.message = f"Loaded {name}."
        self._changed()
        return True

    def log_csv(self) -> io.StringIO:
        """The event log as CSV: index, event type, sentence."""
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["index", "event", "text"])
        for k, e in enumerate(self.game.log):
            w.writerow([k, type(e).__name__, self.game.describe(e, self.lang)])
        out.seek(0)
        return out

    def dice_csv(self) -> io.StringIO:
        """Every roll so far as CSV: player, die 1, die 2, total."""
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["player", "die1", "die2", "total"])
        for e in self.game.log:
            if isinstance(e, E.Rolled):
                w.writerow([self.game.players[e.who].name, e.d1, e.d2, e.d1 + e.d2])
        out.seek(0)
        return out

    def landings_csv(self) -> io.StringIO:
        """Landings of this game by field as CSV."""
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["index", "field", "landings"])
        for i, n in enumerate(self.landings()):
            w.writerow([i, self.game.field_name(i, self.lang), n])
        out.seek(0)
        return out

    # ------------------------------------------------------------ what the views show

    def landings(self) -> list[int]:
        """How often a token arrived on each field in this game (moves by dice, cards and train)."""
        counts = [0] * len(self.game.fields)
        for e in self.game.log:
            if isinstance(e, E.Moved):
                counts[e.dst] += 1
            elif isinstance(e, E.Travelled):
                counts[e.dst] += 1
        return counts

    def dice_totals(self) -> list[int]:
        """How often each total 2-12 was rolled (index 0 is a total of 2)."""
        counts = [0] * 11
        for e in self.game.log:
            if isinstance(e, E.Rolled):
                counts[e.d1 + e.d2 - 2] += 1
        return counts

    def log_lines(self, last: int = 200) -> list[str]:
        """The last ``last`` events as sentences in the chosen language (plain text, not markup)."""
        return [self.game.describe(e, self.lang) for e in self.game.log[-last:]]

    def status(self) -> str:
        """One line: whose turn or decision it is, or who won."""
        g = self.game
        if g.is_over:
            name = g.players[g.winner].name
            how = "by net worth at the cap (L20)" if g.end_reason == "net_worth" else "as the last player left"
            return f"{name} wins {how}." if self.lang == "en" else f"Gana {name}" + (" por patrimonio (L20)." if g.end_reason == "net_worth" else ".")
        who = g.players[g.actor].name
        what = {TURN: "to play", BUY: "to decide whether to buy", TRAVEL: "to decide about the train",
                AUCTION: "to bid", DEBT: "to raise money", OVER: ""}[g.phase]
        return f"Round {g.round} (turn {g.turns}): {who} {what}."

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The presets a new game can use."""
        return preset_names()
