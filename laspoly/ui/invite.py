"""The views of a stored room: invitation links and seats, and the games started from this browser."""

from __future__ import annotations

import datetime
import functools
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.table import PERSON, SEAT_CHOICES
from laspoly.ui.common import BUTTON_CSS, TabView, base_url, esc
from laspoly.ui.model import GameModel


class InviteView(TabView):
    """Links for each seat and for the projector's read-only view; the owner swaps seats between people and bots."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.links = pn.pane.HTML(sizing_mode="stretch_width")
        self.swaps = pn.Column(sizing_mode="stretch_width")
        self.selects: list[pn.widgets.Select] = []
        self.model.param.watch(self.changed, ["version"])
        if pn.state.location is not None:  # the page's address arrives after the first render
            pn.state.location.param.watch(lambda *_: self.refresh(), ["href"])
        self.refresh()

    def refresh(self) -> None:
        """Show the links (to the owner only) and the seat controls."""
        m = self.model
        links = m.links()
        if not links:
            self.links.object = "<p>Only the person who started this game can invite others and swap seats.</p>"
            return
        base = base_url()
        rows = []
        for k, (label, query) in enumerate(links.items()):
            who = ""
            if k < len(m.game.players):
                kind = "person" if m.seats[k] == PERSON else f"bot ({m.seats[k]})"
                joined = " · joined" if m.has_joined(k) else ""
                who = f"{esc(m.game.players[k].name)} — {esc(kind)}{joined}"
            else:
                who = "read-only view for the projector"
            rows.append(f"<tr><td><b>{esc(label)}</b></td><td>{who}</td><td><code style='user-select:all'>{esc(base + query)}</code></td></tr>")
        self.links.object = ("<p>Send each person their seat's link; open the spectator link on the projector. "
                             "Person seats nobody has joined are played here, on this screen, in turn, until someone opens their link.</p>"
                             f"<table>{''.join(rows)}</table>")
        if len(self.selects) != len(m.game.players):
            self.selects = []
            for k, p in enumerate(m.game.players):
                select = pn.widgets.Select(label=f"Seat {k + 1}: {p.name}", options=list(SEAT_CHOICES), value=m.seats[k], width=220)
                select.param.watch(lambda e, k=k: self.model.set_seat(k, e.new) if e.new != self.model.seats[k] else None, "value")
                self.selects.append(select)
            self.swaps.objects = [pn.pane.HTML("<b>Who plays each seat</b>"), pn.Row(*self.selects)]
        for k, select in enumerate(self.selects):
            if select.value != m.seats[k]:
                select.value = m.seats[k]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.links, self.swaps, sizing_mode="stretch_width")


class MyGamesView(Viewer):
    """The games started from this browser's key: resume, delete, export."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.list = pn.Column(sizing_mode="stretch_width")
        self.refresh_button = pn.widgets.Button(label="Refresh list", stylesheets=[BUTTON_CSS])
        self.refresh_button.on_click(lambda _: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """List the owner's rooms, newest first."""
        m = self.model
        games = m.my_games()
        if games is None:
            self.list.objects = [pn.pane.HTML("<p>Games you start from this browser's link are listed here.</p>")]
            return
        base = base_url()
        rows: list[Any] = []
        for game in games:
            when = datetime.datetime.fromtimestamp(game.created).strftime("%Y-%m-%d %H:%M")
            here = " (this game)" if game.here else ""
            delete = pn.widgets.Button(label="Delete", width=90, stylesheets=[BUTTON_CSS], disabled=game.here)
            delete.on_click(lambda _, r=game.room_id: (m.delete_game(r), self.refresh()))
            export = pn.widgets.FileDownload(callback=functools.partial(m.export_game, game.room_id),
                                             filename=f"laspoly-{game.room_id[:8]}.json", label="Export", width=100)
            rows.append(pn.Row(pn.pane.HTML(f"<a href='{esc(base + game.query)}'>{esc(when)} · {game.actions} actions{here}</a>"),
                               delete, export))
        self.list.objects = rows or [pn.pane.HTML("<p>No saved games yet.</p>")]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.refresh_button, self.list, sizing_mode="stretch_width")
