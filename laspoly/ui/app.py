"""The whole dashboard: board, controls, players, probability lab, rules, set-up and files.

``Dashboard(model)`` is a ``Viewer``: it renders inline in Jupyter and in
``panel serve apps/laspoly_app.py``.  Every session builds its own model, so two
browsers never share a game.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import panel as pn
import param
from bokeh.models import TabPanel
from panel.viewable import Viewer

from laspoly.errors import SetupError, StoreError
from laspoly.server.classes import ClassData, find_class, open_class
from laspoly.server.joining import join_class
from laspoly.server.limits import CLASS_JOINS, SESSIONS, client_limited
from laspoly.server.rooms import join_room, new_owner_key, open_room, owner_link, server_store, unplayed_page
from laspoly.ui.a11y import TAB_FOCUS_CSS, LiveRegion, PageAccessibility
from laspoly.ui.board import BoardFigure
from laspoly.ui.boardtext import announcement, board_table
from laspoly.ui.common import BUTTON_CSS, LANGUAGES, PHONE, PHONE_SIDEWAYS, LiveHTML, TabView, assign, esc
from laspoly.ui.common import is_served as _serving
from laspoly.ui.comms import guard_comm_stdout
from laspoly.ui.controls import ControlsView
from laspoly.ui.demonstrations import DemonstrationsView
from laspoly.ui.fieldcard import FieldCardView
from laspoly.ui.guessing import GuessView
from laspoly.ui.i18n import tr
from laspoly.ui.invite import InviteView, MyGamesView
from laspoly.ui.join import JoinView
from laspoly.ui.model import GameModel, check_seed, default_game, with_lesson, with_switches
from laspoly.ui.odds import OddsView, board_overlay
from laspoly.ui.presentation import ProjectorView
from laspoly.ui.probability import ProbabilityView
from laspoly.ui.replay import ReplayView
from laspoly.ui.standings import PlayerCardsView, WinnerView
from laspoly.ui.teacher import TeacherView
from laspoly.ui.timers import Timer
from laspoly.ui.views import FilesView, LogView, PlayersView, RulesView, SetupView

CSS = """
.lp-players th, .lp-players td { padding: 3px 6px; border-bottom: 1px solid #ddd; text-align: left; }
button:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }
"""
#: On a phone the page's title row and the tabs take little height, so the board and the turn's buttons fit the first
#: screen; the tabs stay targets of 44 px (the strip of tabs scrolls sideways by itself when they do not all fit).
TITLE_CSS = f"@media {PHONE} {{ h2 {{ font-size: 1.2em; margin: 0 !important; }} }}"
TABS_CSS = f"@media {PHONE} {{ .bk-tab {{ padding: 4px 10px; min-height: 44px; box-sizing: border-box; display: flex; align-items: center; }} }}"


@dataclass(frozen=True)
class Tab:
    """One tab of the dashboard, declared as data: one row of :data:`TABS` adds a tab.

    ``name`` is the tab's name in the page and the dashboard's attribute for its view
    (``Dashboard.players``); ``key`` its title in the catalogue; ``make`` builds its
    view from the dashboard the first time the tab is shown (the Play tab has none: it is
    built in pieces, :meth:`Dashboard._fill_play`); ``shared`` tabs are only on a room's page.
    """

    name: str
    key: str
    make: Callable[[Dashboard], Any] | None = None
    shared: bool = False


#: The dashboard's tabs, in the order they are shown.
TABS: tuple[Tab, ...] = (
    Tab("play", "tab.play"),
    Tab("players", "tab.players", lambda d: PlayersView(model=d.model)),
    Tab("probability", "tab.probability", lambda d: ProbabilityView(model=d.model, board=d.board)),
    Tab("replay", "tab.replay", lambda d: ReplayView(model=d.model)),
    Tab("rules", "tab.rules", lambda d: RulesView(model=d.model)),
    Tab("setup", "tab.new_game", lambda d: SetupView(model=d.model)),
    Tab("teacher", "tab.teacher", lambda d: DemonstrationsView(model=d.model)),
    Tab("files", "tab.files", lambda d: FilesView(model=d.model)),
    Tab("invite", "tab.invite", lambda d: InviteView(model=d.model), shared=True),
    Tab("my_games", "tab.my_games", lambda d: MyGamesView(model=d.model), shared=True),
)
#: Each tab's catalogue key.
TAB_TITLES = {tab.name: tab.key for tab in TABS}


#: The board keeps its square and fits the window: as wide as the page allows, at most 760 px, and never taller
#: than the window below the header (so at 1280 x 720, even zoomed, the whole board is in view).
#: Its square is kept from the page's first piece, before the board is drawn in it, so nothing beside it moves then.
BOARD_STYLES = {"width": "min(100%, 760px, calc(100vh - 92px))", "min-width": "240px", "flex": "0 0 auto", "aspect-ratio": "1 / 1"}
#: On an upright screen the controls go below the board, so the board leaves room under it for whose turn it is, the
#: player cards and the turn's buttons (at 768 x 1024 all of them are in view without scrolling).
BOARD_UPRIGHT_CSS = ("@media (orientation: portrait) { :host { width: min(100%, 760px, calc(100vh - 420px)) !important;"
                     " margin: 0 auto; } }"
                     # a phone on its side: the whole board below the title row and the tabs (their taller targets)
                     f"\n@media {PHONE_SIDEWAYS} {{ :host {{ width: min(100%, calc(100vh - 104px)) !important; }} }}")
#: The controls beside the board take the rest of the row, or go below the board when less than 340 px is left.
SIDE_STYLES = {"flex": "1 1 340px", "min-width": "300px"}


#: Each piece of a served page's Play tab logs its CPU time here at DEBUG level (``benchmarks/bench_dashboard.py`` reads it).
PIECES_LOG = logging.getLogger("laspoly.ui.pieces")


def _session_open(doc: Any) -> bool:
    """Whether ``doc``'s session is alive with a browser connected (always true for a document outside a server)."""
    context = doc.session_context
    session = getattr(context, "session", None)
    return session is None or (not session.destroyed and session.connection_count > 0)


class Dashboard(Viewer):
    """Las Poly in the browser or a notebook: play, watch and explore."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, model: GameModel | None = None, **params: Any) -> None:
        super().__init__(model=model or GameModel(), **params)
        m = self.model
        if _serving():  # every view's redraw after a step reaches the page as one message (a notebook keeps Panel's own)
            m.redraw_batch = pn.io.hold
        else:  # in a notebook, overlapping comm messages must not leave the kernel's print swapped out
            guard_comm_stdout()
        self._board: BoardFigure | None = None  # made when first drawn: on a served page, in pieces of its own
        self._board_started: BoardFigure | None = None  # its fields' layers, made in the piece before
        self._controls: ControlsView | None = None  # made when first read: on a served page, in the first piece
        self.field_card = FieldCardView(model=m)
        self.card = self.field_card.card
        self.log = LogView(model=m)
        self.cards = PlayerCardsView(model=m)
        self.winner = WinnerView(model=m)
        self.guessing = GuessView(model=m)
        self.odds = OddsView(model=m)
        m.param.watch(self._select_on_board, "selected_field")
        self.lang = pn.widgets.RadioButtonGroup(options=LANGUAGES, value=m.lang, width=200, stylesheets=[BUTTON_CSS])
        self.lang.param.watch(self._switch_language, "value")
        m.param.watch(lambda e: setattr(self.lang, "value", e.new), "lang")
        m.param.watch(self._refresh_board, ["version", "lang", "odds", "odds_mode"])
        # the board for screen readers: its fields as a table and the last move read out, both visually hidden
        self.board_text = LiveHTML(margin=0, sizing_mode="stretch_width")  # a step sends only its new text
        self.board_news = LiveRegion(margin=0)
        self._refresh_board_text()
        m.param.watch(self._refresh_board_text, ["version", "lang"])
        # The first page builds only "Play".  Every other tab starts as an empty slot; its view is made the
        # first time the tab is shown (or the attribute is read) and kept from then on.  Panel's own dynamic
        # tabs would rebuild a tab each time it is shown.
        self._views: dict[str, Any] = {}
        pages = [tab.name for tab in TABS if m.shared or not tab.shared]
        self._page_names = pages
        self._slots = [pn.Column(sizing_mode="stretch_width") for _ in pages]
        self.tabs = pn.Tabs(*((m.t(TAB_TITLES[name]), slot) for name, slot in zip(pages, self._slots, strict=True)),
                            dynamic=False, sizing_mode="stretch_width", stylesheets=[TABS_CSS, TAB_FOCUS_CSS])
        m.param.watch(self._title_tabs, "lang")
        self.tabs.param.watch(self._show_tab, "active")
        if _serving():  # a served page gets "Play" in steps once it has loaded; a notebook gets it at once
            self._slots[0].objects = [pn.pane.HTML(f"<p>{esc(m.t('app.loading'))}</p>")]
            pn.state.onload(self._fill_play)
        else:
            self._fill_play()
        self._show_tab()
        self._poller: Timer | None = None
        if m.shared and _serving():
            self._poller = Timer(self._poll, period=500)
        m.param.watch(self._navigate, "navigate")
        m.param.watch(self._keep_switches, ["odds", "predict"])
        if _serving():
            pn.state.on_session_destroyed(lambda _ctx: self.close())
        self.a11y = PageAccessibility(margin=0, height=0)
        self._word_a11y()
        m.param.watch(self._word_a11y, "lang")
        self.layout = pn.Column(
            pn.Row(pn.pane.HTML("<h2 style='margin:4px 0'>Las Poly</h2>", stylesheets=[TITLE_CSS]), pn.HSpacer(), self.lang),
            self.tabs, self.a11y, sizing_mode="stretch_width", stylesheets=[CSS],
        )

    def _word_a11y(self, *_: Any) -> None:
        """The words the page's accessibility script puts on the pickers' remove buttons, in the page's language."""
        m = self.model
        self.a11y.param.update(remove_word=m.t("a11y.remove"), remove_item=m.t("a11y.remove_item", value="{value}"))

    def _switch_language(self, event: Any) -> None:
        """Reword the whole page; on a served page every view's new words reach the browser as one message."""
        with self.model.redraw_batch():
            self.model.lang = event.new

    def _title_tabs(self, *_: Any) -> None:
        """Tab titles in the page's language.

        The browser draws a tab's title only when the list of tabs changes, so
        each tab gets a new header holding the same content: the content's views
        are kept, only the titles are drawn again.
        """
        titles = [self.model.t(TAB_TITLES[name]) for name in self._page_names]
        self.tabs._names = titles  # Panel keeps the titles beside the tabs, for the next time it draws them
        for ref, (root, _) in self.tabs._models.items():
            headers = [TabPanel(title=title, child=old.child, name=old.name, closable=old.closable)
                       for old, title in zip(root.tabs, titles, strict=True)]
            cache = self.tabs._panels.get(ref, {})
            for slot, header in zip(self._slots, headers, strict=True):
                cache[id(slot)] = header
            root.tabs = headers

    def _view(self, name: str) -> Any:
        """The view of a tab other than "Play", made on first use."""
        if name not in self._views:
            make = next(tab.make for tab in TABS if tab.name == name)
            assert make is not None, "the Play tab is built in pieces"
            view = self._views[name] = make(self)
            if isinstance(view, TabView):  # a view read before its tab is shown waits, hidden, like the others
                view.shown = self._page_names.index(name) == self.tabs.active
        return self._views[name]

    def _fill_play(self) -> None:
        """Put the Play tab on the page in pieces; on a served page each piece is its own turn of the server's event loop.

        Building a page's Bokeh models and sending them takes the one event loop
        a few hundred milliseconds, during which every other session's autoplay
        waits.  In pieces (the controls' widgets; whose turn it is, the player
        cards and, in the board's place, the property card and the board's text;
        the turn's controls; the lesson and predict switches; the other controls;
        the guessing and the log; the board's figure; the board drawn; the winner screen, hidden until the game is
        over, above it), other
        sessions' steps run in between.  The board's square is kept from the
        first piece, so nothing beside it moves when it arrives.  The decisions
        that come and go are not among them: their block keeps its height, and
        is filled the first time one comes
        (:meth:`~laspoly.ui.controls.ControlsView.refresh`).  Each piece that
        changes the page ends with one walk of the page's models by Bokeh (not one
        per layout changed), which costs the more the larger the page: the board's
        figure is most of it, so it comes last and no other piece pays for it.
        """
        side = pn.Column(sizing_mode="stretch_width", styles=SIDE_STYLES)
        # the board's place, kept from the start; the clicked field's card opens over it
        board = pn.Column(styles={**BOARD_STYLES, "position": "relative"}, stylesheets=[BOARD_UPRIGHT_CSS])
        row = pn.FlexBox(board, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")
        # Each piece that changes the page ends with Bokeh walking every model of the document, which costs the more
        # the larger the page has grown: the board's figure is most of it, so the pieces that are not its own go first.
        pieces: list[tuple[Callable[[], Any], bool]] = [  # (piece, whether it changes the page)
            (lambda: self.controls, False),  # made, not yet drawn: the widgets and their first words
            # the property card (hidden until a field is clicked) and the board's text (visually hidden) wait in the
            # board's place for the figure
            (lambda: (side.extend([self.controls.header, self.cards]), board.extend([self.field_card, self.board_text, self.board_news]),
                      self._slots[0].param.update(objects=[row])), True),
            # the turn's buttons; then the switches, the decisions' block (filled when one first comes) and the rest
            (lambda: side.append(self.controls.turn_controls(occasional=False, whole=False)), True),
            (lambda: (self.controls.switches.param.update(objects=[
                pn.Row(self.odds.switch_row, self.guessing.switch_row, styles={"flex-wrap": "wrap", "column-gap": "24px"},
                       sizing_mode="stretch_width", margin=0), self.odds.details]), self.controls.finish_turn_controls()), True),
            (lambda: side.append(self.controls.manage_controls()), True),
            (lambda: side.extend([self.guessing, self.log]), True),
            (self._start_board, False),  # made, not yet drawn: its sources and the fields' layers
            (lambda: self.board, False),  # then the middle and the tokens
            (lambda: board.insert(0, pn.pane.Bokeh(self.board.figure, sizing_mode="scale_width")), True),
            # the winner screen above the board (shown only once the game is over) comes after the board: BokehJS
            # lays out a figure added below another figure already drawn (the winner's cash chart) at zero size, so a
            # finished game's page showed no board
            (lambda: self._slots[0].insert(0, self.winner), True),
        ]
        doc = pn.state.curdoc if _serving() else None
        if doc is None:  # a notebook or a script: all at once
            for piece, _ in pieces:
                piece()
            return

        def run(index: int = 0) -> None:
            if not _session_open(doc):  # closed or reloaded before it was built: nothing to send the rest to
                return
            # Bokeh sends each piece's changes itself, when the piece ends; it copes with a page closed meanwhile
            # (a warning), where Panel's own write queue would log an unretrieved WebSocketClosedError.
            timed = PIECES_LOG.isEnabledFor(logging.DEBUG)
            started = time.thread_time() if timed else 0.0
            # Each change to a layout makes Bokeh walk every model of the document again: frozen, a piece's models
            # are walked once, at its end (and a piece that only makes Python objects walks none).
            piece, changes_page = pieces[index]
            doc.hold("combine")
            try:
                with doc.models.freeze() if changes_page else contextlib.nullcontext():
                    piece()
            finally:
                doc.unhold()
            if timed:  # CPU of the server's loop thread: making the piece's models and sending them
                PIECES_LOG.debug("piece %d of %d: %.1f ms", index + 1, len(pieces), (time.thread_time() - started) * 1000)
            if index + 1 < len(pieces):
                pn.state.execute(lambda: run(index + 1), schedule=True)

        run()

    @property
    def controls(self) -> ControlsView:
        """The turn's and the properties' controls, made the first time they are read (a served page: its first piece)."""
        if self._controls is None:
            self._controls = ControlsView(model=self.model)
            self._controls.shortcuts_on = self._page_names[self.tabs.active] == "play"
        return self._controls

    @property
    def board(self) -> BoardFigure:
        """The board's figure, made the first time it is read.

        It is the largest part of a page.  A served page draws it in its own
        piece (see :meth:`_fill_play`), so a new session's first moments on the
        server, which cannot be split, stay short.
        """
        if self._board is None:
            board = self._board_started or BoardFigure(self.model, whole=False)
            board.finish()
            self._board, self._board_started = board, None
            self._select_on_board()
            self._refresh_board()  # a lesson page opens with the live odds already on the board
        return self._board

    def _start_board(self) -> None:
        """Make the board's sources and its fields' layers; :attr:`board` adds the rest (a served page: in the next piece)."""
        if self._board is None and self._board_started is None:
            self._board_started = BoardFigure(self.model, whole=False)

    def _select_on_board(self, *_: Any) -> None:
        """The board highlights the selected field, however it was chosen (the board itself, or the property list)."""
        if self._board is None:  # not drawn yet: it starts from the selection
            return
        field = self.model.selected_field
        indices = [field] if field >= 0 else []
        if self._board.cells.selected.indices != indices:
            self._board.cells.selected.indices = indices
        self._board.show_selected()

    def _refresh_board(self, *_: Any) -> None:
        if self._board is None:  # not drawn yet: it starts from the game as it is then
            return
        probability = self._views.get("probability")
        if probability is None or not probability.heat:  # the heatmap's board is drawn by the probability view
            self._board.refresh(odds=board_overlay(self.model))

    def _refresh_board_text(self, *_: Any) -> None:
        """The board's text alternative follows the game and the page's language."""
        g, lang = self.model.game, self.model.lang
        assign(self.board_text, object=board_table(g, lang))
        self.board_news.param.update(text=announcement(g, lang), label=tr("boardtext.news", lang))  # plain text: set as text

    def _show_tab(self, *_: Any) -> None:
        active = self.tabs.active
        if self._controls is not None:  # r, e and n act on the Play tab only
            self._controls.shortcuts_on = self._page_names[active] == "play"
        if not self._slots[active].objects:
            self._slots[active].objects = [self._view(self._page_names[active])]
        # views in hidden tabs redraw when shown
        for index, name in enumerate(self._page_names):
            view = self._views.get(name)
            if isinstance(view, TabView):
                view.shown = index == active

    def _poll(self) -> None:
        """Catch up with other devices; in a room with several people, bots move by themselves."""
        m = self.model
        try:
            m.sync()
            if m.bots_move_alone:
                m.advance(max_actions=1)
        except StoreError as exc:
            m.message = m.t("msg.database", error=exc)
        except Exception:  # a poll must never stop the session's timer
            logging.getLogger("laspoly.server.rooms").exception("polling the room failed")

    def _keep_switches(self, *_: Any) -> None:
        """The lesson and predict switches are kept in the room's address, so a reload of the page keeps them."""
        location = pn.state.location if _serving() else None
        if location is not None and "room=" in (location.search or ""):
            query = with_switches(location.search, self.model.odds, self.model.predict)
            if query and query != location.search:
                location.search = query

    def _navigate(self, event: Any) -> None:
        if event.new and pn.state.location is not None:
            pn.state.location.reload = True
            pn.state.location.search = event.new

    def close(self) -> None:
        """Stop this session's timers (called when the browser session ends)."""
        if self._controls is not None:
            self._controls.stop_timer()
        if self._poller is not None:
            self._poller.stop()
            self._poller = None

    def __panel__(self) -> pn.viewable.Viewable:
        return self.layout


def _tab_view(name: str) -> property:
    """The dashboard's attribute for a tab's view (``Dashboard.players``), made on first use."""
    return property(lambda self: self._view(name), doc=f"The view of the {name!r} tab, made the first time it is read or shown.")


for _tab in TABS[1:]:  # every tab but Play has its view as an attribute of the dashboard
    setattr(Dashboard, _tab.name, _tab_view(_tab.name))


def _arg(name: str) -> str:
    values = (pn.state.session_args or {}).get(name) or [b""]
    return values[0].decode("utf-8", "replace")[:100]


def _has_arg(name: str) -> bool:
    """True if the address names ``name`` at all, even empty (``?class=CODE&teacher=``)."""
    return name in (pn.state.session_args or {})


def _client() -> str:
    """The address of the device this session serves ("" when unknown), to hold off one that keeps guessing keys."""
    context = getattr(pn.state.curdoc, "session_context", None)
    request = getattr(context, "request", None)
    try:
        return str(getattr(request, "remote_ip", "") or "")
    except Exception:  # a request without the address: every unknown device shares one count
        return ""


def _serve_stylesheets_locally() -> None:
    """Point this session's Panel stylesheets at the server, never at Panel's CDN.

    Panel rewrites stylesheet addresses from its CDN to the server only when it
    renders the page, through the document's ``dist_url``.  Under
    ``panel serve --num-procs`` the session's document is built before that,
    and components made later (a tab shown for the first time) would ask the
    CDN, which fails on a classroom network without internet.  Setting
    ``dist_url`` first, as Panel's page rendering does, keeps every stylesheet local.
    """
    doc = pn.state.curdoc
    if doc is None or doc.session_context is None or "dist_url" in doc._template_variables:
        return
    from panel.io.resources import LOCAL_DIST

    doc._template_variables["dist_url"] = f"{pn.state.rel_path}/{LOCAL_DIST}" if pn.state.rel_path else LOCAL_DIST


#: The page's head gains a viewport line: a phone lays the page out at its own width (else 980 px, shrunk to fit).
VIEWPORT_TEMPLATE = ('{% block postamble %}{{ super() }}'
                     '<meta name="viewport" content="width=device-width, initial-scale=1">{% endblock %}')


def _fit_phones() -> None:
    """Serve this session's page with a viewport line in its head (Panel renders the document's string template on its own)."""
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        doc.template = VIEWPORT_TEMPLATE


def _switched_on(name: str) -> bool:
    """``?NAME=1`` (or true, yes, on): a switch of the page on from the start."""
    return _arg(name).lower() in ("1", "true", "yes", "on")


def _lesson() -> bool:
    """``?lesson=1``: the page opens with the live odds on (a teacher's link for a probability lesson)."""
    return _switched_on("lesson")


def _client_address() -> str | None:
    """The address of the browser this session serves (None outside a server)."""
    context = getattr(pn.state.curdoc, "session_context", None)
    request = getattr(context, "request", None)
    address = getattr(request, "remote_ip", None) if request is not None else None
    return address if isinstance(address, str) else None


def over_rate_limit() -> pn.Column | None:
    """A page saying to wait, when this browser's computer opened too many pages, or class links, too fast; else None.

    Each new page takes one of the client's :data:`~laspoly.server.limits.SESSIONS`, and
    a student's class link one of its :data:`~laspoly.server.limits.CLASS_JOINS`
    (:mod:`laspoly.server.limits`), before anything is stored.  The server's own machine
    is never limited.  Each refusal is logged as one line.
    """
    address = _client_address()
    joins = bool(_arg("class")) and not _arg("teacher")
    for limit, key, what, applies in ((SESSIONS, "limit.sessions", "new pages", True),
                                      (CLASS_JOINS, "limit.class_joins", "class links opened", joins)):
        if applies and client_limited(limit, address):
            seconds = max(1, math.ceil(limit.wait(address or "")))
            logging.getLogger("laspoly.server.limits").warning("refused: too many %s from %s", what, address)
            return pn.Column(pn.pane.HTML(f"<h2>Las Poly</h2><p>{esc(tr(key, 'en', seconds=seconds))}</p>"
                                          f"<p>{esc(tr(key, 'es', seconds=seconds))}</p>"))
    return None


def _asked_seed() -> tuple[int | None, str]:
    """``?seed=N``: the seed a new game should reproduce (None: draw a fresh one), and why a bad one was not taken."""
    text = _arg("seed")
    if not text:
        return None, ""
    try:
        return check_seed(text), ""
    except SetupError as exc:
        return None, str(exc)


def build_app(db_url: str | None = None) -> Dashboard | ProjectorView | TeacherView | JoinView | pn.Column:
    """The dashboard for one browser session: the room in its URL, or a new room; or a class's teacher page.

    ``?room=ID&seat=TOKEN`` opens a seat, ``?room=ID&view=TOKEN`` the spectator's
    view (the projector's page, with no controls); ``me=KEY`` is the browser's owner key (its "My games"), taken
    only when the server issued it and it owns that room (:func:`~laspoly.server.rooms.adopt_owner_key`).  Without a
    room, a new game starts in a new room with a new key, and the URL is updated so that a reload
    or a restart of the server resumes it; the room is stored at its first decision.  ``?class=CODE`` asks for a
    name first and starts the game in the class (:class:`~laspoly.ui.join.JoinView`); ``?class=CODE&teacher=KEY`` is the class's teacher page (an empty key is refused).  A new
    game draws a fresh seed, unless ``?seed=N`` asks to reproduce one.
    """
    _serve_stylesheets_locally()
    _fit_phones()
    refused = over_rate_limit()  # before anything is stored
    if refused is not None:
        return refused
    store = server_store(db_url)
    room, secret, me = _arg("room"), _arg("seat") or _arg("view"), _arg("me") or None
    code, teacher = _arg("class"), _arg("teacher")
    note = ""
    if room and secret and unplayed_page(store, room, secret, me):
        room = ""  # the address of a page nobody played (its room was never stored): a new game, as then
    if room and secret:
        try:
            table = join_room(store, room, secret, owner_key=me)
            model = GameModel(table=table, lang=table.lang, odds=_lesson(), predict=_switched_on("predict"))
            return Dashboard(model) if model.can_drive else ProjectorView(model)
        except StoreError as exc:
            note = tr("msg.bad_link", error=exc)
    if code and _has_arg("teacher"):
        try:
            record = open_class(store, code, teacher, client=_client())
            return TeacherView(ClassData(store, record.code, teacher), record, projector=_arg("projector").lower() in ("1", "true", "yes", "on"))
        except StoreError as exc:
            return pn.Column(pn.pane.HTML(f"<h2>Las Poly</h2><p>{esc(tr('class.refused', 'en', reason=str(exc)))}</p>"
                                          f"<p>{esc(tr('class.refused', 'es', reason=str(exc)))}</p>"))
    if code:
        try:
            record = find_class(store, code)
        except StoreError as exc:
            note = tr("class.unknown", "en", reason=str(exc))
        else:  # the student link: a name first, then the game (stored in the class when joined)
            seed, _ = _asked_seed()
            return JoinView(record, functools.partial(join_class, store, record.code), Dashboard, seed=seed, lesson=_lesson())
    if me and not room:
        logging.getLogger("laspoly.server.rooms").warning("refused: an owner key in an address without its game: a new key is made")
    me = new_owner_key()  # never one from the address: a chosen or handed-on key would share this browser's games
    seed, bad_seed = _asked_seed()
    game, seats = default_game(seed)
    if bad_seed:
        note = " ".join(filter(None, (note, bad_seed, tr("seed.random", seed=game.setup["seed"]))))
    table = open_room(store, game, seats, me, stored=False)
    model = GameModel(table=table, lang=table.lang, message=note, odds=_lesson(), predict=_switched_on("predict"))
    query = with_lesson(owner_link(me, table.room_id), model.odds, model.predict)
    if _serving():
        def show_room_in_url() -> None:  # once the page has loaded, so that a reload resumes this room
            if pn.state.location is not None:
                pn.state.location.search = query
        pn.state.onload(show_room_in_url)
    return Dashboard(model)


def session_app() -> Dashboard | ProjectorView | TeacherView | JoinView | pn.Column:
    """What ``laspoly serve`` runs for each browser session: Panel's extensions, then this session's dashboard."""
    pn.extension("filedropper", sizing_mode="stretch_width", notifications=False)  # inside the session, as panel serve does
    return build_app()
