"""The class model: what the teacher's page shows of a class, computed without Panel.

:class:`ClassModel` sits between the teacher's page (:mod:`laspoly.ui.teacher`)
and the store: it keeps the class's rooms followed (:class:`~laspoly.server.classes.ClassData`,
which reads the store), the page of the room list in view and the exact answers
the pooled data is compared with, and :meth:`ClassModel.view` turns all of it
into a :class:`ClassView` in the page's language: the list's rows, its place
and page buttons, and the three charts' columns.  The page only draws it, so
the teacher's page is tested without a browser, and the page never reads the
store itself.

This module imports neither Panel nor Bokeh (an import-linter contract holds it).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass

from laspoly.analysis.lln import envelope, tv_curve
from laspoly.analysis.markov import markov
from laspoly.predict import TWO_DICE as PREDICT_TWO_DICE
from laspoly.rules.presets import preset_names, preset_title
from laspoly.server.classes import ClassData, ClassRecord, student_link
from laspoly.ui.i18n import tr

#: How many rooms one page of the teacher's list shows.
PAGE_SIZE = 25

#: The exact share of each total 2-12 of two dice.
TWO_DICE = list(PREDICT_TWO_DICE)


def ago(seconds: float, lang: str) -> str:
    """How long ago, in words a class reads at a glance."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return tr("class.just_now", lang)
    if minutes < 120:
        return tr("class.minutes_ago", lang, n=minutes)
    return tr("class.hours_ago", lang, n=minutes // 60)


@dataclass(frozen=True)
class RoomRow:
    """One room of the list, in words: players, rulebook, round, leader (or who won), last activity, its watch link's query."""

    players: str
    preset: str  # the rulebook by its name in the page's language
    round: int
    state: str
    ago: str
    watch: str


@dataclass(frozen=True)
class ClassView:
    """Everything the teacher's page shows of the class now, in the page's language."""

    name: str
    code: str
    #: The student link, as a query string (the page puts its own address before it).
    student_link: str
    rooms: tuple[RoomRow, ...]
    #: Where the page of the list is ("Games 1–25 of 40, newest first"; empty for no rooms), and the page buttons.
    place: str
    newer_on: bool
    older_on: bool
    #: The dice chart: the pooled share of each total 2-12, against :data:`TWO_DICE`, and the number of rolls.
    dice_shares: tuple[float, ...]
    rolls: int
    #: The law of large numbers: rolls so far, the distance of the pooled totals from two dice, and the 1/√n envelope.
    lln_n: tuple[int, ...]
    lln_tv: tuple[float, ...]
    lln_envelope: tuple[float, ...]
    #: The landing chart of the rulebook played most: each field's name (with its number), then "in prison".
    rulebook: str
    landing_names: tuple[str, ...]
    landing_shares: tuple[float, ...]
    landing_exact: tuple[float, ...]
    landed: int
    followed: int


class ClassModel:
    """A class as its teacher's page sees it: its rooms followed from the store, a page of the list, and the pooled data."""

    def __init__(self, data: ClassData, record: ClassRecord, clock: Callable[[], float] = time.time) -> None:
        self.data = data
        self.record = record
        self.clock = clock
        #: The page of the room list shown (0: the newest rooms).
        self.page = 0
        self._chains: dict[str, list[float]] = {}

    def refresh(self) -> None:
        """Catch up with every room of the class from the store."""
        self.data.refresh()

    def turn_page(self, step: int) -> None:
        """Show the next page of older rooms (``step`` 1) or of newer ones (-1)."""
        self.page = max(0, self.page + step)

    @property
    def last_page(self) -> int:
        """The last page of the list (0 when it fits on one)."""
        return max(0, (len(self.data.rooms) - 1) // PAGE_SIZE)

    def csv(self) -> io.StringIO:
        """Every roll and landing of the class as CSV (:meth:`ClassData.csv <laspoly.server.classes.ClassData.csv>`)."""
        return self.data.csv()

    def exact_landings(self, preset: str) -> list[float]:
        """The chain's per-roll landing probabilities of each field, then "in prison" (what the class's counts count)."""
        if preset not in self._chains:
            chain = markov(preset)
            self._chains[preset] = [*(float(p) for p in chain.squares), float(chain.in_prison)]
        return self._chains[preset]

    def view(self, lang: str) -> ClassView:
        """What the page shows, from the rooms as last caught up (:meth:`refresh`), in ``lang``."""
        data = self.data
        count = len(data.rooms)
        self.page = min(self.page, self.last_page)
        start = self.page * PAGE_SIZE
        now = self.clock()
        rows = tuple(RoomRow(", ".join(r.players), preset_title(r.preset, lang), r.round, tr("class.over", lang, name=r.leader) if r.over else r.leader,
                             ago(now - r.last_activity, lang), r.watch)
                     for r in data.summaries(start, PAGE_SIZE))
        place = tr("class.page", lang, first=start + 1, last=start + len(rows), count=count) if rows else ""
        if data.total > count:
            place += " · " + tr("class.followed_newest", lang, total=data.total, n=count)
        dice = data.dice_totals()
        n = sum(dice)
        ns, tvs = tv_curve(data.dice_sequence())
        landings = data.landings()
        preset = max(landings, key=lambda p: sum(landings[p])) if landings else None
        names: list[str] = []
        shares: list[float] = []
        exact: list[float] = []
        rulebook = "-"
        if preset is not None:
            counts, exact = landings[preset], self.exact_landings(preset)
            total = sum(counts) or 1
            game = next(f.game for f in data.rooms.values() if f.game.preset.id == preset)
            names = [*(f"{i} {game.field_name(i, lang)}" for i in range(len(game.fields))), tr("players.in_prison", lang)]
            shares = [c / total for c in counts]
            rulebook = preset_title(preset, lang) if preset in preset_names() else (game.preset.name.get(lang) or preset)
        return ClassView(
            name=self.record.name, code=self.record.code, student_link=student_link(self.record.code), rooms=rows, place=place,
            newer_on=self.page > 0, older_on=self.page < self.last_page,
            dice_shares=tuple(c / n if n else 0.0 for c in dice), rolls=n,
            lln_n=tuple(ns), lln_tv=tuple(tvs), lln_envelope=tuple(envelope(ns)),
            rulebook=rulebook, landing_names=tuple(names), landing_shares=tuple(shares), landing_exact=tuple(exact),
            landed=sum(sum(v) for v in landings.values()), followed=count,
        )
