"""The page a class's student link opens first: a name (or a team's), and how many people play at this device.

Joining makes the game, stores its room in the class at once (so the teacher's
list shows the name before the first move) and opens the game at its own address
(a reload resumes it).
A name is checked as a player's name is everywhere (1 to 40 printable
characters, kept as text and escaped when shown) and must be new in the class:
it is compared with the names of the people already playing there
(:func:`~laspoly.server.classes.class_names`).  Two or more people at one device are
the name followed by a number ("Team A", "Team A 2"); the other seats are bots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.engine.game import Game
from laspoly.engine.state import MAX_NAME, clean_name, name_key
from laspoly.errors import LaspolyError
from laspoly.server.classes import ClassRecord
from laspoly.server.joining import NameTaken
from laspoly.server.rooms import RoomTable, owner_link
from laspoly.server.table import PERSON, default_seats
from laspoly.ui.common import BUTTON_CSS, LANGUAGES, esc, is_served
from laspoly.ui.i18n import said, tr, trn
from laspoly.ui.model import DEFAULT_MAX_ROUNDS, GameModel, new_seed, with_lesson

#: Players in a game joined from a class: people at the device plus bots.
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def seat_names(name: str, people: int, bots: int) -> list[str]:
    """The players' names: the given name, then numbered ("Team A 2") for more people at the device, then the bots."""
    people_names = [name] + [f"{name[:MAX_NAME - 2].rstrip()} {k}" for k in range(2, people + 1)]
    taken = {name_key(n) for n in people_names}
    bot_names: list[str] = []
    k = 1
    while len(bot_names) < bots:
        candidate = f"Bot {k}"
        if name_key(candidate) not in taken:
            bot_names.append(candidate)
        k += 1
    return people_names + bot_names


class JoinView(Viewer):
    """The join form of a class's student link; once joined, the game's page in its place."""

    lang = param.Selector(default="en", objects=["en", "es"])

    def __init__(self, record: ClassRecord, joiner: Callable[[Game, list[str], str], RoomTable],
                 open_game: Callable[[GameModel], Any], *, seed: int | None = None, lesson: bool = False, **params: Any) -> None:
        """``joiner`` stores a game in the class (:func:`laspoly.server.joining.join_class`, bound to the store and the class);
        ``open_game`` makes the game's page."""
        super().__init__(**params)
        self.record, self.joiner, self.open_game = record, joiner, open_game
        self.seed, self.lesson = seed, lesson
        #: The game's model once joined (None: the form is showing).
        self.model: GameModel | None = None
        #: The game's page once joined (what ``open_game`` made of the model).
        self.game_page: Any = None
        lang = self.lang
        self.head = pn.pane.HTML(sizing_mode="stretch_width")
        self.name_input = pn.widgets.TextInput(label=tr("join.name", lang), max_length=MAX_NAME * 2, width=320)
        self.people = pn.widgets.Select(label=tr("join.people", lang), options=[1, 2, 3, 4], value=1, width=150)
        self.bots = pn.widgets.Select(label=tr("join.bots", lang), options=[0, 1, 2, 3], value=2, width=150)
        self.go = pn.widgets.Button(label=tr("join.go", lang), min_height=44, stylesheets=[BUTTON_CSS])
        self.go.on_click(lambda _: self.submit())
        self.name_input.param.watch(lambda _: self.submit(), "enter_pressed")
        self.message = pn.pane.HTML(sizing_mode="stretch_width")
        self.language = pn.widgets.RadioButtonGroup(options=LANGUAGES, value=lang, width=200, stylesheets=[BUTTON_CSS])
        self.language.param.watch(lambda e: setattr(self, "lang", e.new), "value")
        self.param.watch(lambda *_: self._words(), "lang")
        self._words()
        self.body = pn.Column(pn.Row(pn.HSpacer(), self.language), self.head, self.name_input, pn.Row(self.people, self.bots),
                              self.go, self.message, sizing_mode="stretch_width")

    def _words(self) -> None:
        """The form's words in the page's language."""
        lang = self.lang
        self.head.object = (f"<h2>{esc(tr('join.head', lang, name=self.record.name))}</h2>"
                            f"<p>{esc(tr('join.help', lang))}</p>")
        self.name_input.label, self.people.label = tr("join.name", lang), tr("join.people", lang)
        self.bots.label, self.go.label = tr("join.bots", lang), tr("join.go", lang)
        self.message.object = ""

    def _refuse(self, text: str) -> None:
        self.message.object = f"<p role='alert' style='color:#b00020'><b>{esc(text)}</b></p>"

    def submit(self) -> GameModel | None:
        """Join with the form's values (see :meth:`join`)."""
        return self.join(self.name_input.value_input or self.name_input.value, int(self.people.value), int(self.bots.value))

    def join(self, name: object, people: int, bots: int) -> GameModel | None:
        """Check the name and the seats, make the game in the class and show it; None (and why, on the page) if refused."""
        lang = self.lang
        if self.model is not None:
            return self.model
        try:
            name = clean_name(name)
        except LaspolyError as exc:
            self._refuse(tr("join.bad_name", lang, reason=said(exc, lang)))
            return None
        if not (1 <= people <= MAX_PLAYERS and 0 <= bots and MIN_PLAYERS <= people + bots <= MAX_PLAYERS):
            self._refuse(tr("join.count", lang, people=trn("count.people", people, lang), bots=trn("count.bots", bots, lang), total=people + bots))
            return None
        try:
            names = [clean_name(n) for n in seat_names(name, people, bots)]
        except LaspolyError as exc:
            self._refuse(tr("join.bad_name", lang, reason=said(exc, lang)))
            return None
        try:
            game = Game(names, seed=new_seed() if self.seed is None else self.seed, max_rounds=DEFAULT_MAX_ROUNDS)
        except LaspolyError as exc:
            self._refuse(tr("join.bad_name", lang, reason=said(exc, lang)))
            return None
        seats = [PERSON] * people + default_seats(bots + 1)[1:]
        try:
            table = self.joiner(game, seats, lang)
        except NameTaken as exc:
            self._refuse(tr("join.taken", lang, name=exc.name))
            return None
        me = table.owner_key or ""
        self.model = GameModel(table=table, lang=lang, message=tr("class.joined", lang, name=self.record.name), odds=self.lesson)
        query = with_lesson(owner_link(me, table.room_id), self.lesson)
        if is_served() and pn.state.location is not None:  # the browser opens the stored game at its own address
            pn.state.location.reload = True
            pn.state.location.search = query
            return self.model
        self.game_page = self.open_game(self.model)  # a notebook or a test: the game in the form's place
        self.body.objects = [self.game_page]
        return self.model

    def __panel__(self) -> pn.viewable.Viewable:
        return self.body
