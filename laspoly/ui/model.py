"""The reactive game model: one engine game wrapped in a ``param.Parameterized``.

Views depend on this model, never the reverse, and every change bumps
:attr:`GameModel.version`, on which views redraw.  The model changes the game
only through its *table* (:class:`~laspoly.server.table.Table`): a
:class:`~laspoly.server.table.LocalTable` on one screen or a
:class:`~laspoly.server.rooms.RoomTable` stored in a room.  Both play actions through
:meth:`Game.apply` (the checked path), so a click, a bot's choice and a loaded
file are judged by the same rules.  Only the model talks to the table; each
browser session builds its own model, and there is no shared module-level state.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

import param

from laspoly.analysis import log as gamelog
from laspoly.bots.registry import DEFAULT_BOT, make_bot
from laspoly.bots.runner import play_bot_turns
from laspoly.csv_export import write_csv
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import AUCTION, BUYING, DEBT, OVER, TRAVEL, TURN, Game, check_player_count
from laspoly.engine.position_format import position_of
from laspoly.errors import LaspolyError, SetupError
from laspoly.position_files import load_demonstration
from laspoly.predict import Guess
from laspoly.record import MAX_ACTIONS, TooManyActions, game_from_json, game_to_dict, new_game_from_setup
from laspoly.rules.options import parse_rule_args
from laspoly.rules.presets import load_preset, preset_names
from laspoly.server.classes import NewClass
from laspoly.server.limits import ROOM_MAX_ACTIONS
from laspoly.server.table import LocalTable, OwnedGame, Table, check_seat, default_seats
from laspoly.ui.i18n import said, tr, trn

log = logging.getLogger("laspoly.ui")

#: What a person is told when another device stored the next action first.
MOVED_ON = tr("msg.moved_on")


#: The seeds a page draws: short enough to read out from a card and type again for a rematch.
DRAWN_SEEDS = 1_000_000
#: The largest seed a page takes (``?seed=N`` or the New game form): every drawn seed, and many more, but
#: few enough digits to type and for a browser's number box to keep exactly.
SEED_MAX = 999_999_999
#: The game a page opens with: a person and two of the dashboard's bots (:data:`~laspoly.bots.basic.DEFAULT_OPPONENT`).
DEFAULT_PLAYERS = ("Ana", "Bot 1", "Bot 2")
#: Its round cap, so that a game left to the bots ends by itself.
DEFAULT_MAX_ROUNDS = 200


def new_seed() -> int:
    """A fresh random seed for a new game, from the operating system's randomness (never the same sequence twice by design)."""
    return secrets.randbelow(DRAWN_SEEDS)


def check_seed(text: str | int, lang: str = "en") -> int:
    """A seed a person gave (the address's ``?seed=N``, the New game form) as a number from 0 to :data:`SEED_MAX`.

    Anything else (a sign, a fraction, letters, too many digits) is refused with a :class:`SetupError` in ``lang``.
    """
    raw = str(text).strip()
    if not re.fullmatch(r"[0-9]{1,12}", raw) or int(raw) > SEED_MAX:
        raise SetupError(tr("seed.bad", lang, value=raw[:20], max=SEED_MAX))
    return int(raw)


def default_game(seed: int | None = None) -> tuple[Game, list[str]]:
    """The game a page opens with, and its seats: a fresh random seed unless ``seed`` asks to reproduce one.

    The one definition of the default game, for a notebook's ``GameModel()``, the first page, a class's student link
    and a lesson link alike.
    """
    game = Game(list(DEFAULT_PLAYERS), seed=new_seed() if seed is None else seed, max_rounds=DEFAULT_MAX_ROUNDS)
    return game, default_seats(len(DEFAULT_PLAYERS))


def cash_by_turn(game: Game) -> list[list[int]]:
    """Every player's cash at the end of each turn so far (index 0: the start), rebuilt from the game's actions.

    The actions were checked when they were played, so they replay through the
    engine's trusted path; the last entry is the cash now.
    """
    shadow = new_game_from_setup(game.setup)
    history = [[p.cash for p in shadow.players]]
    for action in game.history:
        shadow.push(action)
        _note_cash(history, shadow)
    _note_cash(history, game)
    return history


def _note_cash(history: list[list[int]], game: Game) -> None:
    """Write the cash now as the current turn's entry of ``history``; turns skipped unseen repeat it."""
    turn = game.turns
    del history[turn + 1:]
    cash = [p.cash for p in game.players]
    while len(history) <= turn:
        history.append(cash)
    history[turn] = cash


def with_lesson(query: str, lesson: bool, predict: bool = False) -> str:
    """A room's address that keeps a page's switches: lesson mode (``&lesson=1``) and predict-then-roll (``&predict=1``).

    The page it opens (a reload, a new room) has the live odds, and the guesses before each roll, on too.
    """
    if not query:
        return query
    return query + ("&lesson=1" if lesson else "") + ("&predict=1" if predict else "")


#: The address's words for the page's switches, which :func:`with_switches` keeps up to date.
SWITCHES = ("lesson", "predict")


def with_switches(query: str, lesson: bool, predict: bool) -> str:
    """``query`` (a page's address, ``?room=…``) with its switches set as the page has them now, the rest as it was."""
    kept = [(k, v) for k, v in parse_qsl(query.lstrip("?"), keep_blank_values=True) if k not in SWITCHES]
    rest = urlencode(kept, safe=":/")
    return with_lesson("?" + rest, lesson, predict) if rest else ""


@dataclass(frozen=True)
class _Loaded:
    """A save file read (and, in a room, stored): the game and its room's address, or why it was refused."""

    game: Game | None = None
    query: str = ""
    error: str = ""


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
    """One game, the table it is played at, and what the dashboard shows of it."""

    version = param.Integer(default=0, doc="Bumped after every change of the game; views redraw on it.")
    lang: param.Selector[str] = param.Selector(default="en", objects=["en", "es"], doc="Language of the whole page: words, names, cards and the log.")
    message = param.String(default="", doc="The last error or notice for the person at the screen.")
    autoplay = param.Boolean(default=False, doc="Bots play on by themselves until a person must decide.")
    speed = param.Number(default=1.0, bounds=(0.5, 20.0),
                         doc="Autoplay pace, in bot turns per second: one a second by default, so a class can follow each move.")
    selected_field = param.Integer(default=-1, doc="The field whose property card is shown (-1: none).")
    pending_confirm = param.Parameter(default=None, doc="An action that would leave cash at zero, awaiting confirmation (L19).")
    deadline = param.Number(default=None, allow_None=True, doc="Epoch seconds at which a class-period game stops (L20).")
    navigate = param.String(default="", doc="A query string the page should move to (a game opened in a new room).")
    odds = param.Boolean(default=False, doc="Lesson mode: live odds on the board and the stakes of each decision in numbers.")
    odds_mode: param.Selector[str] = param.Selector(default="roll", objects=["roll", "turn", "long_run"],
                               doc="What the board's overlay shows: this roll, this turn or the long run.")
    predict = param.Boolean(default=False, doc="Predict, then roll: a person types a guess of the total before each roll.")
    guess = param.Integer(default=None, allow_None=True, bounds=(2, 12), doc="The guess typed for the next roll of a person.")

    def __init__(self, game: Game | None = None, seats: Sequence[str] | None = None, *, table: Table | None = None,
                 **params: Any) -> None:
        super().__init__(**params)
        #: Where the game is played; the only way the model changes the game.
        if table is None:
            if game is None:  # the default game, with a seed of its own
                game, seats = default_game()
            table = LocalTable(game, seats)
        self.table: Table = table
        #: Every player's cash at the end of each turn (index 0: the start; the last entry: now), for the cash chart.
        self.cash_history: list[list[int]] = cash_by_turn(self.game)
        self._roll_landings = gamelog.RollLandings()
        #: The class period of this game in minutes (None: no time cap), kept for a rematch.
        self.minutes: float | None = None
        #: Wraps the views' redraw after each change.  The dashboard puts Panel's ``hold`` here, so that
        #: one step reaches the page as one message instead of one per changed widget.
        self.redraw_batch: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext

    @property
    def game(self) -> Game:
        """The game on the table."""
        return self.table.game

    @property
    def seats(self) -> list[str]:
        """Per seat: 'person' or a bot temperament."""
        return self.table.seats

    # ------------------------------------------------------------ set-up

    def new_game(self, names: Sequence[str], seats: Sequence[str], *, preset: str = "laspoly", rules: str | dict[str, Any] = "",
                 seed: int = 0, dice: str = "", lang: str | None = None, max_rounds: int | None = None,
                 minutes: float | None = None) -> bool:
        """Start a new game (in a room: a new room, and the page moves there); bad settings keep the current game."""
        try:
            check_player_count(len(names))
            if len(seats) != len(names):
                raise SetupError("give every player a seat: a person or one of the bots")
            kinds = [check_seat(s) for s in seats]
            overrides = parse_rule_args(rules.split()) if isinstance(rules, str) else dict(rules)
            game = Game(list(names), preset=preset, seed=seed, rules=overrides or None, dice=dice or None, max_rounds=max_rounds)
        except LaspolyError as exc:
            return self._say(self.t("msg.could_not_start", error=said(exc, self.lang)))
        if self._open(game, kinds, lang or load_preset(preset).lang):
            self.minutes = minutes or None
            self.deadline = time.time() + 60 * minutes if minutes else None
            self.message = ""
            self._changed()
        return True

    def rematch(self, *, same_seed: bool) -> bool:
        """The same players, seats and rules again: with the same seed (and dice script) to replay it, or a new random seed."""
        s = self.game.setup
        dice = " ".join(f"{d1}-{d2}" for d1, d2 in s["dice"]) if same_seed else ""
        return self.new_game(s["players"], self.seats, preset=s["preset"], rules=dict(s["rules"]),
                             seed=s["seed"] if same_seed else new_seed(), dice=dice, lang=self.lang,
                             max_rounds=s["max_rounds"], minutes=self.minutes)

    def _open(self, game: Game, seats: list[str], lang: str) -> bool:
        """Put a new or loaded game on the table; False when it went to a new room and the page moves there."""
        query = self.table.open(game, seats, lang)
        if query:
            self.navigate = with_lesson(query, self.odds, self.predict)
            return False
        self.autoplay = False
        self.pending_confirm = None
        self.selected_field = -1
        self.cash_history = cash_by_turn(game)
        self.lang = lang
        return True

    def _changed(self) -> None:
        if self._time_is_up() and not self.game.is_over:
            self.game.end_by_cap()
        _note_cash(self.cash_history, self.game)
        self.redraw()

    def _time_is_up(self) -> bool:
        return self.deadline is not None and time.time() >= self.deadline

    def redraw(self) -> None:
        """Tell the views to redraw (bumps :attr:`version`), batched by :attr:`redraw_batch`."""
        with self.redraw_batch():
            self.version += 1

    def t(self, key: str, **values: Any) -> str:
        """The page's words for ``key`` (:func:`~laspoly.ui.i18n.tr`) in its language and this preset's own terms."""
        return tr(key, self.lang, self.game.preset.id, **values)

    def explain(self, reason: str | None) -> str | None:
        """A refusal reason of the engine (or the table) in the page's language."""
        return self.game.explain(reason, self.lang) if reason is not None else None

    def refusal(self, exc: LaspolyError) -> str:
        """An error as the person at the screen reads it: a refusal of the table in the page's words, others as they are."""
        return said(exc, self.lang)

    def _say(self, message: str) -> bool:
        """Show a refusal or an error and redraw; False, for the request that was not carried out."""
        self.message = message
        self.redraw()
        return False

    # ------------------------------------------------------------ who decides

    def is_person(self, player: int) -> bool:
        """True if a person plays this seat."""
        return self.table.is_person(player)

    def has_joined(self, player: int) -> bool:
        """True if a person has opened this seat's link (a room)."""
        return self.table.has_joined(player)

    @property
    def shared(self) -> bool:
        """True for a game stored in a room that other devices may open."""
        return self.table.shared

    @property
    def can_drive(self) -> bool:
        """Whether this screen may move the bots ("Next", "Autoplay", "Run to end"); a spectator's may not."""
        return self.table.can_drive

    @property
    def person_to_move(self) -> int | None:
        """The seat of the person at this screen who must decide now, or None (a bot, another device, the game is over)."""
        if self.game.is_over:
            return None
        actor = self.game.actor
        return actor if self.table.plays_here(actor) else None

    def person_claims(self) -> list[A.ClaimRent]:
        """Rent claims the people at this screen may make now (C6, S9)."""
        return [a for (_, owner, field, _) in self.game.claims if self.table.plays_here(owner)
                for a in [A.ClaimRent(owner, field)] if self.game.is_legal(a)]

    def claim_amount(self, claim: A.ClaimRent) -> tuple[int, int]:
        """The payer and the amount of a rent claim that is still open."""
        return next((payer, amount) for (payer, owner, field, amount) in self.game.claims
                    if (owner, field) == (claim.player, claim.field))

    def choice(self, make: Any) -> Choice:
        """The action ``make(actor)`` for the person to move, with the engine's reason if it is illegal."""
        who = self.person_to_move
        if who is None:
            return Choice(None, self.t("why.not_a_person") if not self.game.is_over else self.t("why.over"))
        action = make(who)
        if action is None:
            return Choice(None, self.t("why.choose_property"))
        return Choice(action, self.explain(self.game.why_illegal(action)))

    # ------------------------------------------------------------ acting

    def act(self, action: A.Action, *, confirmed: bool = False) -> bool:
        """A person's decision.  Illegal or refused ones leave the game as it was and set :attr:`message`."""
        self.sync()  # first, so that a seat someone has just joined is no longer played here
        try:
            self.table.check_act(action)
        except LaspolyError as exc:
            return self._say(self.refusal(exc))
        reason = self.game.why_illegal(action)
        if reason is not None:
            return self._say(self.t("msg.cannot", name=self.game.players[action.player].name, action=self.describe(action),
                                    reason=self.explain(reason)))
        if self.predict and isinstance(action, A.Roll) and self.guess is None:
            return self._say(tr("predict.first", self.lang, name=self.game.players[action.player].name))
        if not confirmed and self._hits_zero(action):
            self.pending_confirm = action
            what = self.describe(action)
            return self._say(self.t("msg.confirm_zero", action=what[:1].upper() + what[1:], name=self.game.players[action.player].name))
        self.pending_confirm = None
        self.message = ""
        index, seen = len(self.game.history), len(self.game.log)
        if not self._commit(action):
            self.message = MOVED_ON
            self._changed()
            return False
        if self.predict and isinstance(action, A.Roll) and self.guess is not None:
            self._keep_guess(index, action.player, self.guess, seen)
        self._changed()
        return True

    def _keep_guess(self, index: int, player: int, guess: int, seen: int) -> None:
        """Put the guess beside the roll it was made for, with the total that came."""
        rolled = next(iter(gamelog.rolls(self.game, since=seen)), None)
        if rolled is not None:
            self.table.add_guess(Guess(index, player, guess, rolled.d1 + rolled.d2))
        self.guess = None

    def guesses(self) -> list[Guess]:
        """Every guess kept in this game (on every screen of a room), in the order of the rolls."""
        return self.table.guesses()

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

    def _commit(self, action: A.Action) -> bool:
        """Play a checked action at the table and note the cash, so that the chart has every turn."""
        if not self.table.commit(action):
            return False
        _note_cash(self.cash_history, self.game)
        return True

    def sync(self) -> bool:
        """Catch up with what other devices did in a room (actions, seats joined or swapped); True if anything changed."""
        game, turn, seen = self.game, self.game.turns, len(self.game.log)
        if not self.table.sync():
            return False
        declined = self.declined_offers(seen) if self.game is game and len(game.log) >= seen else ""
        if declined:  # a bot moved on another screen of the room and turned down this screen's offer
            self.message = declined
        if self.game.turns > turn + 1:  # several turns went by unseen (a page back from sleep): rebuild the chart
            self.cash_history = cash_by_turn(self.game)
        self._changed()
        return True

    # ------------------------------------------------------------ bots and pace

    def advance(self, *, to_end: bool = False, max_actions: int | None = None) -> int:
        """Let the bots move, through the one bot loop (:func:`~laspoly.bots.runner.play_bot_turns`), and redraw once.

        By default ("Next", an autoplay tick) bots play until the turn passes or
        a person must decide; ``max_actions=1`` is one decision (a shared room's
        poll).  With ``to_end`` ("Run to end") every seat, people's too, is
        played by a bot until the game ends; at the latest after ``max_actions``
        (a million) or when the class period ends, the richest wins (L20).  Bots
        claim their rent first (C6).  Returns the number of actions played.
        """
        try:
            self.table.check_advance(to_end)
        except LaspolyError as exc:
            return int(self._say(self.refusal(exc)))
        game, turn, seen = self.game, self.game.turns, len(self.game.log)
        budget = max_actions if max_actions is not None else 1_000_000 if to_end else 10_000
        stand_in = make_bot(DEFAULT_BOT)
        bots = [bot or stand_in for bot in self.table.bots] if to_end else self.table.bots
        done = play_bot_turns(game, bots, max_actions=budget, commit=self._commit,
                              until=lambda g: self._time_is_up() or (not to_end and g.turns != turn))
        if to_end and not self.game.is_over and (done >= budget or self._time_is_up()):
            self.game.end_by_cap()
        declined = self.declined_offers(seen)
        if declined:
            self.message = declined
        if to_end:
            self.message = self.t("msg.ran_to_end", turns=trn("count.turns", self.game.turns - turn + 1, self.lang))  # the turn it began in, too
        if to_end or self.person_to_move is not None:
            self.autoplay = False
        self._changed()
        return done

    def declined_offers(self, since: int) -> str:
        """The offers of a person at this screen that a bot declined in the log after ``since``, in the page's words
        (the log says it too, but the message line is where a person looks for the answer); "" when none was."""
        g = self.game
        return " ".join(self.t("msg.offer_declined", who=g.players[e.who].name, offer=e.offer)
                        for e in g.log[since:] if type(e) is E.TradeDeclined and self.is_person(e.to) and not self.is_person(e.who))

    @property
    def bots_move_alone(self) -> bool:
        """True where nobody presses "Next": in a room two or more people play, a bot is to move, and this is a seat's screen."""
        t = self.table
        return (t.shared and t.can_drive and not self.game.is_over and t.bots[self.game.actor] is not None
                and sum(1 for i in range(len(t.seats)) if t.is_person(i)) >= 2)

    def undo_refusal(self) -> str | None:
        """Why Undo is off now, in the page's words; None when it would take a decision back."""
        refusal = self.table.undo_refusal()
        return None if refusal is None else self.refusal(refusal)

    def undo(self) -> bool:
        """Take back the last decision of a person (and the bot moves after it); refused where the table says why (:meth:`undo_refusal`)."""
        try:
            self.table.undo()
        except LaspolyError as exc:
            return self._say(self.refusal(exc))
        self.autoplay = False
        self.pending_confirm = None
        self.message = self.t("msg.undone")
        self._changed()
        return True

    def set_seat(self, player: int, seat: str) -> None:
        """Make a seat a person or a bot (in a room, only its owner may)."""
        try:
            self.table.set_seat(player, seat)
        except LaspolyError as exc:
            self._say(self.refusal(exc))
            return
        self.redraw()

    def links(self) -> dict[str, str]:
        """Query strings of every seat's and the spectator's link (only a room's owner has them)."""
        return self.table.links()

    # ------------------------------------------------------------ files

    def save_json(self) -> io.BytesIO:
        """The game as a save file (for "Save game")."""
        return _save_file(self.game)

    @property
    def max_actions(self) -> int:
        """The longest save file this table takes: a room on the server stores at most :data:`ROOM_MAX_ACTIONS`."""
        return ROOM_MAX_ACTIONS if self.shared else MAX_ACTIONS

    def read_save(self, raw: bytes, name: str = "save file") -> Game | None:
        """Check and replay a save file; a bad one gives None and a message, leaving the game untouched."""
        loaded = self._read(raw, name)
        if loaded.game is None:
            self._say(loaded.error)
        return loaded.game

    def _read(self, raw: bytes, name: str) -> _Loaded:
        """A save file checked and replayed, or why not (in the page's language); changes nothing on the page."""
        try:  # game_from_json refuses files over MAX_SAVE_BYTES before parsing them, and long games before replaying
            return _Loaded(game=game_from_json(raw, name, self.max_actions))
        except TooManyActions as exc:
            log.warning("refused: a save file of %d actions (the limit is %d)", exc.count, exc.limit)
            return _Loaded(error=self.t("msg.too_long", name=name, count=exc.count, limit=exc.limit))
        except LaspolyError as exc:
            return _Loaded(error=self.t("msg.could_not_load", name=name, error=said(exc, self.lang)))

    def _read_and_store(self, raw: bytes, name: str) -> _Loaded:
        """Read a save file and, in a room, store it in a new room (one transaction).

        It changes nothing on the page, so that a served page can run it in a
        worker thread (:meth:`load_json_off_loop`).
        """
        loaded = self._read(raw, name)
        if loaded.game is None or not self.shared:
            return loaded
        try:
            query = self.table.open(loaded.game, default_seats(len(loaded.game.players)), self.lang)
        except LaspolyError as exc:
            return _Loaded(error=self.t("msg.database", error=exc))
        return _Loaded(game=loaded.game, query=query)

    def _show_loaded(self, loaded: _Loaded, name: str) -> bool:
        """Put what :meth:`_read_and_store` gave on the page: the game, a move to its room, or why not."""
        if loaded.game is None:
            return self._say(loaded.error)
        self.message = self.t("msg.loaded", name=name)
        if loaded.query:  # stored in a new room: the page moves there
            self.navigate = with_lesson(loaded.query, self.odds, self.predict)
            return True
        n = len(loaded.game.players)
        seats = list(self.seats) if not self.shared and len(self.seats) == n else default_seats(n)
        if self._open(loaded.game, seats, self.lang):
            self._changed()
        return True

    def load_json(self, raw: bytes, name: str = "save file") -> bool:
        """Load a save file (in a room: into a new room); a bad one leaves the current game untouched and sets :attr:`message`."""
        return self._show_loaded(self._read_and_store(raw, name), name)

    async def load_json_off_loop(self, raw: bytes, name: str = "save file") -> bool:
        """:meth:`load_json`, with the replay and the storing in a worker thread: every other page on the server goes on.

        SQLite and PostgreSQL release Python's lock while they write, and the
        replay yields it every few milliseconds, so the server's one event loop
        keeps serving the other pages meanwhile.
        """
        loaded = await asyncio.to_thread(self._read_and_store, raw, name)
        return self._show_loaded(loaded, name)

    def open_position(self, position: dict[str, Any] | str) -> bool:
        """Play on from a position or a shipped demonstration's id (in a room: a new room); a bad one keeps the game.

        The seats (person or bot) come from the position's players; the page keeps its language.
        """
        try:
            data = load_demonstration(position) if isinstance(position, str) else position
            game = Game.from_position(data)
            seats = [check_seat(p["seat"]) for p in position_of(game)["players"]]
        except LaspolyError as exc:
            return self._say(self.t("msg.position_failed", error=said(exc, self.lang)))
        about = position_of(game).get("about")
        self.message = (self.t("msg.position_from", title=about["title"].get(self.lang) or about["title"]["en"]) if about
                        else self.t("msg.position"))
        if self._open(game, seats, self.lang):
            self._changed()
        return True

    def position(self) -> dict[str, Any]:
        """The game on the table as a position in normal form, with each seat's kind (for the editor and a download)."""
        return position_of(self.game, seats=self.seats)

    def create_class(self, name: str) -> NewClass | None:
        """A new class (code, student link, teacher link with its key); None, with the reason in :attr:`message`."""
        try:
            return self.table.create_class(name)
        except LaspolyError as exc:
            self._say(said(exc, self.lang))
            return None

    def my_games(self) -> list[OwnedGame] | None:
        """The games started with this browser's key, newest first; None when it has no key."""
        return self.table.my_games()

    def delete_game(self, room_id: str) -> bool:
        """Delete one of this browser's other stored games."""
        return self.table.delete_game(room_id)

    def export_game(self, room_id: str) -> io.BytesIO:
        """One of this browser's stored games as a save file."""
        return _save_file(self.table.export_game(room_id))

    def log_csv(self) -> io.StringIO:
        """The event log as CSV: index, event type, sentence."""
        g = self.game
        return _csv(["index", "event", "text"], ([k, type(e).__name__, g.describe(e, self.lang)] for k, e in enumerate(g.log)))

    def dice_csv(self) -> io.StringIO:
        """Every roll so far as CSV: player, die 1, die 2, total."""
        return _csv(["player", "die1", "die2", "total"], ([self.game.players[e.who].name, e.d1, e.d2, e.d1 + e.d2]
                                                         for e in gamelog.rolls(self.game)))

    def landings_csv(self) -> io.StringIO:
        """Where this game's rolls ended (:meth:`landings`) as CSV: a row per field, then "in prison" with no index."""
        *fields, prison = self.landings()
        rows: list[list[object]] = [[i, self.game.field_name(i, self.lang), n] for i, n in enumerate(fields)]
        return _csv(["index", "field", "landings"], [*rows, ["", self.t("players.in_prison"), prison]])

    # ------------------------------------------------------------ what the views show

    def landings(self) -> list[int]:
        """Where this game's rolls ended, as the exact chain counts a landing: one count per field, then "in prison" last.

        A roll's landing is its token's field after the roll and its cards, before a train journey; a roll made from
        prison is none (:class:`~laspoly.analysis.log.RollLandings`), so the counts compare with the chain's squares.
        """
        return self._roll_landings.of(self.game)

    def dice_totals(self) -> list[int]:
        """How often each total 2-12 was rolled (index 0 is a total of 2): :func:`~laspoly.analysis.log.dice_totals`."""
        return gamelog.dice_totals(self.game)

    def log_lines(self, last: int = 200) -> list[str]:
        """The last ``last`` events as sentences in the chosen language (plain text, not markup)."""
        return [self.game.describe(e, self.lang) for e in self.game.log[-last:]]

    def status(self) -> str:
        """One line: whose turn or decision it is, or who won."""
        g = self.game
        if g.is_over:
            return self.t("status.won_cap" if g.end_reason == "net_worth" else "status.won_last", name=g.players[g.winner].name)
        phase = {TURN: "play", BUYING: "buy", TRAVEL: "travel", AUCTION: "auction", DEBT: "debt", OVER: "play"}[g.phase]
        return self.t(f"status.{phase}", round=g.round, turn=g.turns, name=g.players[g.actor].name)

    def describe(self, action: A.Action) -> str:
        """An action in words in the page's language ("build a house on Fremont Street"): the engine's words for it."""
        return self.game.describe_action(action, self.lang)

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The presets a new game can use."""
        return preset_names()


def _save_file(game: Game) -> io.BytesIO:
    return io.BytesIO(json.dumps(game_to_dict(game), ensure_ascii=False).encode())


def _csv(header: list[str], rows: Iterable[list[Any]]) -> io.StringIO:
    return write_csv(header, rows)
