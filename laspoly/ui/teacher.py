"""The teacher's page of a class: its rooms live, and the whole class's dice and landings against the exact answers.

Opened by the class's teacher link (``?class=CODE&teacher=KEY``).  It lists
the class's rooms, newest first and a page at a time (players, rulebook,
round, leader, last activity, a read-only watch link of the room's own, which
never holds the teacher's key) and pools every roll and landing of all of them
into one dice chart and one landing chart, each against its exact distribution
(two dice; the preset's Markov chain), drawn as bars against the exact values as
dots.  A landing is counted as the chain counts it: where a roll ended, with "in
prison" apart, and a try for doubles from prison is none (:func:`~laspoly.analysis.log.roll_landing`); the
fields are named on the axis.  A third chart shows
the law of large numbers: the distance (total variation) of the pooled totals from two dice as the rolls add
up, taken in turn from the rooms, with the 1/√n envelope (:mod:`laspoly.analysis.lln`).  Projector mode
(a toggle, or ``&projector=1`` in the teacher link) sets the page and its charts in large type.  It refreshes
itself every two seconds on a served page; the data downloads as CSV, with the players' names.
"""

from __future__ import annotations

import logging
from typing import Any

import panel as pn
import param
from bokeh.models import ColumnDataSource, FactorRange
from bokeh.plotting import figure
from panel.viewable import Viewer

from laspoly.server.classes import ClassData, ClassRecord
from laspoly.ui.classview import TWO_DICE, ClassModel, ClassView
from laspoly.ui.common import BUTTON_CSS, base_url, esc, is_served, lan_note
from laspoly.ui.i18n import tr, trn
from laspoly.ui.invite import COPY_JS, qr_svg
from laspoly.ui.timers import Timer

#: Projector mode: the page's words in large type (the charts' words grow with :data:`PROJECTOR_FONTS`).
PROJECTOR_CSS = """
:host(.lp-projector) { font-size: 160%; }
:host(.lp-projector) h2 { font-size: 2em; }
:host(.lp-projector) table, :host(.lp-projector) p, :host(.lp-projector) button { font-size: 1.25em; }
"""

#: Projector mode inside each HTML pane of the page (the list, the class's code and link, the totals).
PROJECTOR_PANE_CSS = ":host { font-size: 150%; } table { font-size: 1em; } th, td { padding: 2px 10px; }"

#: Pixels a module of the student link's QR code in projector mode (4 on a laptop screen).
QR_PROJECTOR_SCALE = 12

#: The charts' font sizes (title, axis label, tick labels): normal, then in projector mode.
NORMAL_FONTS = ("13px", "13px", "11px")
PROJECTOR_FONTS = ("24px", "22px", "18px")


class TeacherView(Viewer):
    """A class's rooms and pooled data, for its teacher: it draws what its :class:`~laspoly.ui.classview.ClassModel` says."""

    lang = param.Selector(default="en", objects=["en", "es"])
    projector = param.Boolean(default=False, doc="Large type for a projector (``&projector=1`` in the teacher link, or the toggle).")

    def __init__(self, data: ClassData, record: ClassRecord, **params: Any) -> None:
        super().__init__(**params)
        self.record = record
        #: The class as the page sees it; the only part of the page that reads the store (through the rooms it follows).
        self.model = ClassModel(data, record)
        self.language = pn.widgets.RadioButtonGroup(options={"English": "en", "Español": "es"}, value=self.lang, width=200)
        self.language.param.watch(lambda e: setattr(self, "lang", e.new), "value")
        self.head = pn.pane.HTML(sizing_mode="stretch_width")
        #: The student link's QR code, for the projector, and its copy button (built anew when the address or language changes).
        self.invite = pn.Row(sizing_mode="stretch_width")
        self._invite_shown: tuple[str, str, bool] | None = None
        self.rooms = pn.pane.HTML(sizing_mode="stretch_width", min_height=80)
        self.pages = pn.pane.HTML(sizing_mode="stretch_width")
        self.newer = pn.widgets.Button(width=170, stylesheets=[BUTTON_CSS])
        self.older = pn.widgets.Button(width=170, stylesheets=[BUTTON_CSS])
        self.newer.on_click(lambda _: self.turn_page(-1))
        self.older.on_click(lambda _: self.turn_page(+1))
        self.totals = pn.pane.HTML(sizing_mode="stretch_width")
        self.dice_source = ColumnDataSource({"total": list(range(2, 13)), "share": [0.0] * 11, "exact": TWO_DICE})
        self.dice_fig = figure(height=240, sizing_mode="stretch_width", toolbar_location=None)
        self.dice_fig.vbar("total", top="share", width=0.8, source=self.dice_source, fill_color="#56B4E9")
        # the exact law as markers on each bar, not a line: a total between two whole numbers has no probability
        self.dice_fig.scatter("total", "exact", source=self.dice_source, color="#D55E00", size=11, marker="diamond")
        self.land_source = ColumnDataSource({"field": [], "share": [], "exact": [], "name": []})
        # the fields by name (with their number) on the x axis, "in prison" last
        self.land_fig = figure(height=380, sizing_mode="stretch_width", toolbar_location=None, x_range=FactorRange(),
                               tooltips=[("", "@field"), ("", "@share{0.000} / @exact{0.000}")])
        self.land_fig.xaxis.major_label_orientation = 1.2
        self.land_fig.xgrid.grid_line_color = None
        self.land_fig.vbar("field", top="share", width=0.8, source=self.land_source, fill_color="#009E73")
        self.land_fig.scatter("field", "exact", source=self.land_source, color="#D55E00", size=7)
        # the law of large numbers: the distance of the pooled totals from two dice, against the rolls so far (log scale)
        self.lln_source = ColumnDataSource({"n": [], "tv": [], "envelope": []})
        self.lln_fig = figure(height=300, sizing_mode="stretch_width", toolbar_location=None, x_axis_type="log", y_range=(0, 1.05),
                              tooltips=[("n", "@n"), ("TV", "@tv{0.000}"), ("1/√n", "@envelope{0.000}")])
        self.lln_fig.line("n", "envelope", source=self.lln_source, color="#D55E00", line_width=2, line_dash="dashed")
        self.lln_fig.line("n", "tv", source=self.lln_source, color="#0072B2", line_width=3)
        self.lln_fig.scatter("n", "tv", source=self.lln_source, color="#0072B2", size=5)
        self.projector_toggle = pn.widgets.Toggle(value=self.projector, width=220, stylesheets=[BUTTON_CSS], css_classes=["lp-projector-toggle"])
        self.projector_toggle.param.watch(lambda e: setattr(self, "projector", e.new), "value")
        self.download = pn.widgets.FileDownload(callback=self.model.csv, filename=f"laspoly-class-{record.code}.csv", width=260)
        self.layout = pn.Column(pn.Row(pn.HSpacer(), self.projector_toggle, self.language), self.head, self.invite, self.rooms,
                                pn.Row(self.newer, self.older, self.pages, sizing_mode="stretch_width"), self.totals,
                                pn.pane.Bokeh(self.dice_fig, sizing_mode="stretch_width"),
                                pn.pane.Bokeh(self.lln_fig, sizing_mode="stretch_width"),
                                pn.pane.Bokeh(self.land_fig, sizing_mode="stretch_width"), self.download,
                                sizing_mode="stretch_width", stylesheets=[PROJECTOR_CSS])
        self.param.watch(lambda *_: self.refresh(), "lang")
        self.param.watch(lambda *_: self._show_projector(), "projector")
        self._show_projector()
        self.refresh()
        self._timer: Timer | None = None
        if is_served():
            self._timer = Timer(self._tick, period=2000)
            pn.state.on_session_destroyed(lambda _ctx: self.close())

    def _tick(self) -> None:
        doc = pn.state.curdoc
        # Bokeh sends the refresh's changes itself, when it ends: it copes with a page closed meanwhile (a
        # warning), where Panel's own write queue would log an unretrieved WebSocketClosedError
        if doc is not None:
            doc.hold("combine")
        try:
            self.refresh()
        except Exception:  # a refresh must never stop the page's timer
            logging.getLogger("laspoly.server.classes").exception("refreshing the teacher's page failed")
        finally:
            if doc is not None:
                doc.unhold()

    @property
    def data(self) -> ClassData:
        """The class's rooms, followed from the store."""
        return self.model.data

    @property
    def page(self) -> int:
        """The page of the room list shown (0: the newest rooms)."""
        return self.model.page

    def turn_page(self, step: int) -> None:
        """Show the next page of older rooms (``step`` 1) or of newer ones (-1)."""
        self.model.turn_page(step)
        self._list_rooms(self.model.view(self.lang))

    def _list_rooms(self, view: ClassView) -> None:
        """The page of the room list in view, newest first, with its place in the list and the page buttons."""
        lang, base = self.lang, base_url()
        rows = [f"<tr><td>{esc(r.players)}</td><td>{esc(r.preset)}</td><td>{r.round}</td><td>{esc(r.state)}</td><td>{esc(r.ago)}</td>"
                f"<td><a href='{esc(base + r.watch)}' target='_blank' rel='noopener'>{esc(tr('class.watch', lang))}</a></td></tr>"
                for r in view.rooms]
        header = "".join(f"<th>{esc(tr(k, lang))}</th>" for k in ("class.players", "class.rulebook", "class.round", "class.leader",
                                                                   "class.last_activity", "class.watch_head"))
        self.rooms.object = (f"<table class='lp-players' aria-label='{esc(tr('class.rooms', lang))}'><tr>{header}</tr>{''.join(rows)}</table>"
                             if rows else f"<p>{esc(tr('class.no_rooms', lang))}</p>")
        self.pages.object = f"<p>{esc(view.place)}</p>"
        self.newer.label, self.older.label = tr("class.newer", lang), tr("class.older", lang)
        self.newer.disabled, self.older.disabled = not view.newer_on, not view.older_on

    def refresh(self) -> None:
        """Catch up with every room (the class model reads the store) and redraw the list and the pooled charts."""
        lang = self.lang
        self.model.refresh()
        view = self.model.view(lang)
        base = base_url()
        self.head.object = (f"<h2 style='margin:4px 0'>{esc(tr('class.title', lang, name=view.name))}</h2>"
                            f"<p style='font-size:1.2em'>{esc(tr('class.code', lang))} <b style='letter-spacing:0.1em'>{esc(view.code)}</b>"
                            f" · {esc(tr('class.student_link', lang))} <code style='user-select:all'>{esc(base + view.student_link)}</code></p>"
                            f"{lan_note(lang)}")
        self._show_invite(base + view.student_link)
        self._list_rooms(view)
        self.dice_source.data = {"total": list(range(2, 13)), "share": list(view.dice_shares), "exact": TWO_DICE}
        self.dice_fig.title.text = tr("class.dice_chart", lang)
        self.dice_fig.xaxis.axis_label, self.dice_fig.yaxis.axis_label = tr("class.total", lang), tr("class.share_rolls", lang)
        self.lln_source.data = {"n": list(view.lln_n), "tv": list(view.lln_tv), "envelope": list(view.lln_envelope)}
        self.lln_fig.title.text = tr("class.lln_chart", lang)
        self.lln_fig.xaxis.axis_label, self.lln_fig.yaxis.axis_label = tr("class.rolls_n", lang), tr("class.distance", lang)
        self.projector_toggle.name = tr("class.projector", lang)
        if view.landing_names:
            names = list(view.landing_names)
            self.land_fig.x_range.factors = names
            self.land_source.data = {"field": names, "share": list(view.landing_shares), "exact": list(view.landing_exact), "name": names}
        # ``preset`` is tr's own argument (a rulebook's words): the chart's rulebook goes in as ``rulebook``
        self.land_fig.title.text = tr("class.landing_chart", lang, rulebook=view.rulebook)
        self.land_fig.xaxis.axis_label, self.land_fig.yaxis.axis_label = tr("class.field", lang), tr("class.share_landings", lang)
        pooled = tr("class.pooled", lang, rolls=trn("count.rolls", view.rolls, lang), landings=trn("count.landings", view.landed, lang),
                    rooms=trn("count.games", view.followed, lang))
        self.totals.object = f"<p><b>{esc(pooled)}</b></p>"
        self.download.label = tr("class.download", lang)

    def _show_projector(self) -> None:
        """Projector mode on or off: large type on the page and in the charts, taller charts."""
        on = self.projector
        self.projector_toggle.value = on
        self.layout.css_classes = ["lp-teacher", "lp-projector"] if on else ["lp-teacher"]
        for pane in (self.head, self.rooms, self.totals, self.pages):  # each pane's words sit in a shadow root of their own
            pane.stylesheets = [PROJECTOR_PANE_CSS] if on else []
        title, label, ticks = PROJECTOR_FONTS if on else NORMAL_FONTS
        for fig, height in ((self.dice_fig, 240), (self.lln_fig, 300), (self.land_fig, 380)):
            fig.title.text_font_size = title
            for axis in (*fig.xaxis, *fig.yaxis):
                axis.axis_label_text_font_size, axis.major_label_text_font_size = label, ticks
            fig.height = int(height * 1.5) if on else height
        if self._invite_shown is not None:  # the student link's code, large on a projector
            self._show_invite(self._invite_shown[1])

    def _show_invite(self, url: str) -> None:
        """The student link's QR code (once the page's address is known) and a button that copies the link."""
        lang, big = self.lang, self.projector
        if self._invite_shown == (lang, url, big):
            return
        self._invite_shown = (lang, url, big)
        label, copied = tr("invite.copy", lang), tr("invite.copied", lang)
        copy = pn.widgets.Button(label=label, width=160, stylesheets=[BUTTON_CSS], css_classes=["lp-copy"])
        copy.js_on_click(args={"query": url, "button": copy, "label": label, "copied": copied}, code=COPY_JS)
        parts: list[Any] = []
        if url.startswith("http"):  # a code of a bare query string would lead a phone nowhere
            title = tr("class.student_qr", lang)
            # on a projector the code is read from the back of the room: about three times the size
            scale, width = (QR_PROJECTOR_SCALE, 560) if big else (4, 200)
            parts.append(pn.pane.HTML(f"<div class='lp-qr lp-class-qr' role='img' aria-label='{esc(title)}'>"
                                      f"{qr_svg(url, title, scale)}</div>", width=width))
        parts.append(copy)
        self.invite.objects = parts

    def close(self) -> None:
        """Stop the page's timer (when the browser session ends)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def __panel__(self) -> pn.viewable.Viewable:
        return self.layout
