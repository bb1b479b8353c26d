"""The views of a stored room: invitation links with QR codes and seats, and the games started from this browser."""

from __future__ import annotations

import datetime
import functools
from typing import Any

import panel as pn
import param
import segno
from panel.viewable import Viewer

from laspoly.server.table import PERSON
from laspoly.ui.common import BUTTON_CSS, TabView, assign, base_url, esc, lan_note, seat_options
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel

#: What a copy button runs in the browser: the link made whole against the page's own address, put on the clipboard.
#: Outside a secure context (a classroom server on plain http) the Clipboard API is missing, so it falls back to
#: the older select-and-copy.
COPY_JS = """
const url = new URL(query, window.location.href).href;
const done = () => { button.label = copied; setTimeout(() => { button.label = label; }, 2000); };
const fallback = () => {
  const area = document.createElement("textarea");
  area.value = url;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try { if (document.execCommand("copy")) { done(); } } finally { area.remove(); }
};
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(url).then(done, fallback);
} else {
  fallback();
}
"""

INVITE_CSS = """
.lp-invite-text { font-size: 1.05em; line-height: 1.4; }
.lp-invite-text code { user-select: all; overflow-wrap: anywhere; word-break: break-all; }
.lp-qr svg { display: block; }
"""


@functools.lru_cache(maxsize=64)
def qr_svg(url: str, title: str, scale: int = 4) -> str:
    """A QR code of ``url`` as inline SVG, black on white with its quiet zone, ``scale`` pixels a module."""
    code = segno.make(url, error="m")
    return str(code.svg_inline(scale=scale, border=4, dark="#000000", light="#ffffff", title=title))


class InviteView(TabView):
    """Each seat's link and the projector's, with a QR code and a copy button; the owner swaps seats between people and bots."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.intro = pn.pane.HTML(sizing_mode="stretch_width")
        self.links = pn.Column(sizing_mode="stretch_width")
        self.swaps = pn.Column(sizing_mode="stretch_width")
        self.selects: list[pn.widgets.Select] = []
        self.heading = pn.pane.HTML()
        self._rows: list[tuple[pn.pane.HTML, pn.widgets.Button]] = []
        self._shown: tuple[Any, ...] = ()
        self.model.param.watch(self.changed, ["version", "lang"])
        if pn.state.location is not None:  # the page's address arrives after the first render
            pn.state.location.param.watch(lambda *_: self.refresh(), ["href"])
        self.refresh()

    def refresh(self) -> None:
        """Show the links with their codes (to the owner only) and the seat controls."""
        m, lang = self.model, self.model.lang
        links = m.links()
        if not links:
            assign(self.intro, object=f"<p>{esc(tr('invite.owner_only', lang))}</p>")
            return
        assign(self.intro, object=f"<p>{esc(tr('invite.intro', lang))}</p>{lan_note(lang)}")
        base = base_url()
        urls = [base + query for query in links.values()]
        shown = (lang, base, *urls)
        if shown != self._shown:  # a new address or language: new codes and buttons (not on every step)
            self._shown = shown
            self._build_rows(urls, links, base)
        for k, (text, _) in enumerate(self._rows):
            assign(text, object=self._row_text(k, urls[k]))
        self._refresh_seats()

    def _label(self, k: int) -> str:
        lang = self.model.lang
        return tr("invite.seat", lang, n=k + 1) if k < len(self.model.game.players) else tr("invite.watch", lang)

    def _row_text(self, k: int, url: str) -> str:
        """A link's label, who it is for, and the link itself, as safe HTML."""
        m, lang = self.model, self.model.lang
        if k < len(m.game.players):
            kind = tr("cards.person", lang) if m.seats[k] == PERSON else tr("cards.bot", lang, kind=tr(f"seat.{m.seats[k]}", lang))
            joined = f" · {tr('invite.joined', lang)}" if m.has_joined(k) else ""
            who = f"{esc(m.game.players[k].name)} — {esc(kind)}{esc(joined)}"
        else:
            who = esc(tr("invite.watch_who", lang))
        return (f"<div class='lp-invite-text'><b>{esc(self._label(k))}</b><br>{who}<br>"
                f"<code>{esc(url)}</code></div>")

    def _build_rows(self, urls: list[str], links: dict[str, str], base: str) -> None:
        """One row per link: its QR code (once the page's address is known), its text and a copy button."""
        lang = self.model.lang
        rows: list[Any] = []
        self._rows = []
        for k, (url, query) in enumerate(zip(urls, links.values(), strict=True)):
            text = pn.pane.HTML(self._row_text(k, url), sizing_mode="stretch_width", stylesheets=[INVITE_CSS])
            label, copied = tr("invite.copy", lang), tr("invite.copied", lang)
            copy = pn.widgets.Button(label=label, width=160, stylesheets=[BUTTON_CSS], css_classes=["lp-copy"])
            copy.js_on_click(args={"query": url or query, "button": copy, "label": label, "copied": copied}, code=COPY_JS)
            self._rows.append((text, copy))
            parts: list[Any] = []
            if base:  # a code of a bare query string would lead a phone nowhere
                title = tr("invite.qr", lang, label=self._label(k))
                parts.append(pn.pane.HTML(f"<div class='lp-qr' role='img' aria-label='{esc(title)}'>{qr_svg(url, title)}</div>",
                                          width=200, stylesheets=[INVITE_CSS]))
            parts.append(pn.Column(text, copy, sizing_mode="stretch_width"))
            rows.append(pn.Row(*parts, sizing_mode="stretch_width", styles={"border-bottom": "1px solid #ddd"}))
        self.links.objects = rows

    def _refresh_seats(self) -> None:
        m, lang = self.model, self.model.lang
        if len(self.selects) != len(m.game.players):
            self.selects = []
            for k, p in enumerate(m.game.players):
                select = pn.widgets.Select(label=tr("invite.seat_select", lang, n=k + 1, name=p.name), options=seat_options(m),
                                           value=m.seats[k], width=220)
                select.param.watch(lambda e, k=k: self.model.set_seat(k, e.new) if e.new != self.model.seats[k] else None, "value")
                self.selects.append(select)
            self.swaps.objects = [self.heading, pn.Row(*self.selects)]
        assign(self.heading, object=f"<b>{esc(tr('invite.seats', lang))}</b>")
        for k, select in enumerate(self.selects):
            assign(select, options=seat_options(m), value=m.seats[k],
                   label=tr("invite.seat_select", lang, n=k + 1, name=m.game.players[k].name))

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.intro, self.links, self.swaps, sizing_mode="stretch_width")


class MyGamesView(Viewer):
    """The games started from this browser's key: resume, delete, export."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.list = pn.Column(sizing_mode="stretch_width")
        self.refresh_button = pn.widgets.Button(label=tr("games.refresh", self.model.lang), stylesheets=[BUTTON_CSS])
        self.refresh_button.on_click(lambda _: self.refresh())
        self.model.param.watch(lambda *_: self.refresh(), ["lang"])
        self.refresh()

    def refresh(self) -> None:
        """List the owner's rooms, newest first."""
        m, lang = self.model, self.model.lang
        assign(self.refresh_button, label=tr("games.refresh", lang))
        games = m.my_games()
        if games is None:
            self.list.objects = [pn.pane.HTML(f"<p>{esc(tr('games.intro', lang))}</p>")]
            return
        base = base_url()
        rows: list[Any] = []
        for game in games:
            when = datetime.datetime.fromtimestamp(game.created).strftime("%Y-%m-%d %H:%M")
            text = tr("games.here" if game.here else "games.game", lang, when=when, actions=trn("games.actions", game.actions, lang))
            delete = pn.widgets.Button(label=tr("games.delete", lang), width=90, stylesheets=[BUTTON_CSS], disabled=game.here)
            delete.on_click(lambda _, r=game.room_id: (m.delete_game(r), self.refresh()))
            export = pn.widgets.FileDownload(callback=functools.partial(m.export_game, game.room_id),
                                             filename=f"laspoly-{game.room_id[:8]}.json", label=tr("games.export", lang), width=100)
            rows.append(pn.Row(pn.pane.HTML(f"<a href='{esc(base + game.query)}'>{esc(text)}</a>"), delete, export))
        self.list.objects = rows or [pn.pane.HTML(f"<p>{esc(tr('games.none', lang))}</p>")]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.refresh_button, self.list, sizing_mode="stretch_width")
