"""The dashboard's smaller views: players, the property card, the log, rules, a new game, and files.

Each view watches the model's ``version`` and redraws; none of them changes
the game except through the model's methods.  Names typed by people are
always escaped before they reach HTML.  The controls, the probability lab and
the room views have modules of their own.
"""

from __future__ import annotations

import functools
import logging
from importlib import resources
from typing import Any, ClassVar

import panel as pn
import param
from panel.reactive import ReactiveHTML
from panel.viewable import Viewer

from laspoly.bots.registry import DEFAULT_OPPONENT
from laspoly.engine.events import default_names
from laspoly.engine.game import MAX_PLAYERS, MIN_PLAYERS
from laspoly.errors import SetupError
from laspoly.record import MAX_SAVE_BYTES
from laspoly.rules.presets import preset_title
from laspoly.server.table import PERSON
from laspoly.ui import inputs
from laspoly.ui.common import (
    BUTTON_CSS,
    CODE_CSS,
    FOCUS_CSS,
    LANGUAGES,
    LiveHTML,
    TabView,
    assign,
    esc,
    player_badge,
    seat_options,
    seat_words,
    words,
)
from laspoly.ui.common import is_served as _serving
from laspoly.ui.i18n import said, tr
from laspoly.ui.model import GameModel, check_seed, new_seed
from laspoly.ui.standings import PLAYERS_PHONE_CSS, STANDINGS_CSS, cash_chart, cash_chart_data

#: The Players tab's columns, in order, and those that hold numbers (aligned right, header and values alike).
PLAYERS_COLUMNS = ("player", "seat", "cash", "net_worth", "status", "jail_cards", "properties")
PLAYERS_NUMBERS = frozenset({"cash", "net_worth", "jail_cards"})
#: The columns whose values a phone shows under their header's word (the name, seat and status say what they are).
PLAYERS_LABELLED = ("cash", "net_worth", "jail_cards", "properties")
NUM = " class='lp-num'"


class PlayersView(TabView):
    """Cash, net worth, properties, prison status and cards of every player, and the cash chart."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.table = LiveHTML(sizing_mode="stretch_width", stylesheets=[STANDINGS_CSS, PLAYERS_PHONE_CSS])
        chart, self.source = cash_chart(tr("players.chart"), tr("players.turn_axis"), tr("players.cash_axis"))
        self.figure = chart
        self.chart = pn.pane.Bokeh(chart, sizing_mode="stretch_width")
        self.model.param.watch(self.changed, ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Redraw the table and the chart."""
        m, g = self.model, self.model.game
        rows = []
        # a phone shows each player as a card, these values under their column's word (PLAYERS_PHONE_CSS)
        label = {k: f" data-label='{esc(m.t(f'players.{k}'))}'" for k in PLAYERS_LABELLED}
        for p in g.players:
            props = [g.field_name(i, m.lang) for i in g.owned_by(p.index)]
            status = m.t("players.out") if not p.active else (m.t("players.in_prison") if p.in_prison else "")
            seat = seat_words(m, p.index)
            rows.append(
                f"<tr><td>{player_badge(m, p.index)}</td><td>{esc(seat)}</td><td class='lp-num'{label['cash']}>{esc(g.money(p.cash))}</td>"
                f"<td class='lp-num'{label['net_worth']}>{esc(g.money(g.net_worth(p.index)))}</td><td>{esc(status)}</td>"
                f"<td class='lp-num'{label['jail_cards']}>{len(p.jail_cards)}</td>"
                f"<td style='font-size:0.85em'{label['properties']}>{esc(', '.join(props))}</td></tr>")
        # one header per column, in the cells' order, aligned as its values are (money and counts to the right)
        heads = "".join(f"<th{NUM if k in PLAYERS_NUMBERS else ''}>{esc(m.t(f'players.{k}'))}</th>" for k in PLAYERS_COLUMNS)
        self.table.object = (f"<table class='lp-players lp-standings' style='width:100%;border-collapse:collapse'><thead><tr>{heads}</tr></thead>"
                             f"<tbody>{''.join(rows)}</tbody></table>")
        words(self.figure, m.t("players.chart"), m.t("players.turn_axis"), m.t("players.cash_axis"))
        self.source.data = cash_chart_data(m)

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.table, self.chart, sizing_mode="stretch_width")


class CardView(Viewer):
    """The property card of the clicked field."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = LiveHTML(sizing_mode="stretch_width", min_height=60)
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang", "selected_field"])
        self.refresh()

    def refresh(self) -> None:
        """Show the selected field's card."""
        m, g = self.model, self.model.game
        i = m.selected_field
        if not 0 <= i < len(g.fields):
            self.pane.object = f"<p><i>{esc(m.t('field.hint'))}</i></p>"
            return
        f = g.fields[i]
        band = g.board.groups[f.group].color if f.group in g.board.groups else "#dddddd"
        rows = [f"<div style='background:{band};height:14px;border-radius:3px'></div><h4>{esc(f.label(m.lang))}</h4>"]
        if f.is_property:
            rows.append(f"<p>{esc(m.t('field.price', price=g.money(f.price), mortgage=g.money(f.mortgage)))}</p>")
        if f.kind == "street":
            labels = [m.t("field.rent"), m.t("field.with_house"), *[m.t("field.with_houses", n=k) for k in range(2, 5)], m.t("field.with_hotel")]
            rows.append("<table>" + "".join(f"<tr><td>{lab}</td><td style='text-align:right'>{esc(g.money(r))}</td></tr>"
                                            for lab, r in zip(labels, f.rents, strict=False)) + "</table>")
            costs = [m.t("field.house_price", price=g.money(g.house_price(i)))]
            if g.rules.hotels:
                costs.append(m.t("field.hotel_price", price=g.money(g.hotel_price(i))))
            if f.factory_price:
                costs.append(m.t("field.factory_price", price=g.money(f.factory_price), income=g.money(f.factory_income)))
            rows.append(f"<p>{esc(' · '.join(costs))}</p>")
        elif f.kind == "tax":
            rows.append(f"<p>{esc(m.t('field.tax_pot' if f.to == 'pot' else 'field.tax_bank', amount=g.money(f.amount)))}</p>")
        o = g.owner[i]
        if o >= 0:
            rows.append(f"<p>{esc(m.t('field.owner'))} {player_badge(m, o)}" + (f" · <b>{esc(m.t('field.mortgaged'))}</b>" if g.mortgaged[i] else "")
                        + "</p>")
            rent = m.t("field.rent_now_roll" if f.kind == "attraction" else "field.rent_now", amount=g.money(g.rent(i, 7)))
            rows.append(f"<p>{esc(rent)}</p>")
        self.pane.object = "".join(rows)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.pane


class LogView(Viewer):
    """The event log in the chosen language, newest last."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = LiveHTML(sizing_mode="stretch_width", height=260, styles={"overflow-y": "auto"})
        self.title = pn.pane.HTML(sizing_mode="stretch_width")
        # Each shown event's line, by the event's id (with the event, so an id is never mistaken), for the game and
        # language they were worded in: a step words only its new events, not the whole log again.
        self._worded_for: tuple[object, str] | None = None
        self._lines: dict[int, tuple[object, str]] = {}
        self.model.param.watch(lambda *_: self.refresh(), ["version", "lang"])
        self.refresh()

    def _log_lines(self, last: int) -> list[str]:
        """The last ``last`` events as sentences (as :meth:`GameModel.log_lines`), wording only those not shown before."""
        g, lang = self.model.game, self.model.lang
        if self._worded_for is None or self._worded_for[0] is not g or self._worded_for[1] != lang:
            self._worded_for, self._lines = (g, lang), {}
        worded: dict[int, tuple[object, str]] = {}
        lines = []
        for e in g.log[-last:]:
            known = self._lines.get(id(e))
            text = known[1] if known is not None and known[0] is e else g.describe(e, lang)
            worded[id(e)] = (e, text)
            lines.append(text)
        self._lines = worded
        return lines

    def refresh(self) -> None:
        """Show the last events."""
        lines = self._log_lines(120)
        # padding-left leaves room for a three-digit number: 1.5em clipped the numbers from entry 10 on
        assign(self.title, object=f"<h3 style='margin:4px 0'>{esc(self.model.t('log.title'))}</h3>")
        self.pane.object = "<ol class='lp-log' style='margin:0;padding-left:2.6em;font-size:0.9em'>" + "".join(
            f"<li>{esc(t)}</li>" for t in lines[::-1]) + "</ol>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.title, self.pane, sizing_mode="stretch_width")


def rules_text(preset: str, lang: str) -> str:
    """The preset's rules for players, in ``lang`` (English if there is no translation)."""
    base = resources.files("laspoly.data").joinpath("rules")
    for name in (f"{preset}.{lang}.md", f"{preset}.en.md"):
        path = base.joinpath(name)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return tr("rules.missing", lang, preset=preset)


class RulesView(TabView):
    """The chosen preset's rules in English or Spanish."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.pane = pn.pane.Markdown(sizing_mode="stretch_width", disable_math=True, stylesheets=[CODE_CSS])
        self.options = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CODE_CSS])
        self.model.param.watch(self.changed, ["version", "lang"])
        self.refresh()

    def refresh(self) -> None:
        """Show the rules of this game's preset and its rule options."""
        g = self.model.game
        self.pane.object = rules_text(g.preset.id, self.model.lang)
        # option names and values are what a teacher types as overrides (name=value), so they read as code in every language
        rows = "".join(f"<tr><td><code>{esc(k)}</code></td><td><code>{esc(str(v).lower() if isinstance(v, bool) else v)}</code></td></tr>"
                       for k, v in g.rules.as_dict().items())
        self.options.object = f"<details><summary>{esc(self.model.t('rules.options'))}</summary><table>{rows}</table></details>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.pane, self.options, sizing_mode="stretch_width")


#: The names a new game offers, one per seat up to the engine's limit.
DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


class SetupView(Viewer):
    """A new game: preset, rule overrides, players and seats, seed or scripted dice, language, class-period cap."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.preset = pn.widgets.Select(options=self._presets(m.lang), value="laspoly", width=200, stylesheets=[FOCUS_CSS])
        self.lang = pn.widgets.Select(options=LANGUAGES, value=m.lang, width=140, stylesheets=[FOCUS_CSS])
        self.lang.param.watch(lambda *_: self._placeholders(), "value")
        self.rules = pn.widgets.TextInput(placeholder="jail_exit=any_die_3", width=420, stylesheets=[FOCUS_CSS])
        self.count = inputs.IntSlider(start=MIN_PLAYERS, end=MAX_PLAYERS, value=3, width=220, stylesheets=[FOCUS_CSS])
        self.names = [pn.widgets.TextInput(value=name, max_length=40, width=220, stylesheets=[FOCUS_CSS])
                      for name in DEFAULT_NAMES[:MAX_PLAYERS]]
        self.seat_kinds = [pn.widgets.Select(options=seat_options(m), value=PERSON if i == 0 else DEFAULT_OPPONENT, width=160, stylesheets=[FOCUS_CSS])
                           for i in range(MAX_PLAYERS)]
        # a fresh random seed; the cards show it, and typing it here again replays that game (no upper bound here:
        # the box would silently clamp a seed that is too large, where starting says why it is refused)
        self.seed = inputs.IntInput(value=new_seed(), start=0, width=140, stylesheets=[FOCUS_CSS])
        self.dice = pn.widgets.TextInput(width=300, stylesheets=[FOCUS_CSS])
        self.rounds = inputs.IntInput(value=0, start=0, width=200, stylesheets=[FOCUS_CSS])
        self.minutes = inputs.IntInput(value=0, start=0, width=200, stylesheets=[FOCUS_CSS])
        self.start = pn.widgets.Button(color="primary", stylesheets=[BUTTON_CSS])
        self.note = pn.pane.HTML()
        self.rows = pn.Column()
        self.count.param.watch(lambda *_: self._rows(), "value")
        self.start.on_click(self._start)
        m.param.watch(lambda *_: self._word(), "lang")
        self._word()
        self._rows()

    def _word(self) -> None:
        """Label every widget in the page's language (a new game's words follow the language switch at the top)."""
        m = self.model
        t = functools.partial(tr, lang=m.lang)
        for widget, key in ((self.preset, "setup.rulebook"), (self.lang, "setup.language"), (self.rules, "setup.rules"),
                            (self.count, "setup.players"), (self.seed, "setup.seed"), (self.dice, "setup.dice"),
                            (self.rounds, "setup.rounds"), (self.minutes, "setup.minutes")):
            assign(widget, label=t(key))
        assign(self.preset, options=self._presets(m.lang))
        for i, (name, seat) in enumerate(zip(self.names, self.seat_kinds, strict=True)):
            assign(name, label=t("setup.player", n=i + 1))
            assign(seat, label=t("setup.seat"), options=seat_options(m))
        assign(self.start, label=t("setup.start"))
        assign(self.lang, value=m.lang)
        self._placeholders()

    @staticmethod
    def _presets(lang: str) -> dict[str, str]:
        """The rulebooks by their names in ``lang``, each standing for its preset id."""
        return {preset_title(p, lang): p for p in GameModel.presets()}

    def _placeholders(self) -> None:
        """An empty name box shows the name the player gets ("Jugador 2" in a Spanish game)."""
        for name, default in zip(self.names, default_names(len(self.names), self.lang.value), strict=True):
            assign(name, placeholder=default)

    def _rows(self) -> None:
        self.rows.objects = [pn.FlexBox(self.names[i], self.seat_kinds[i], flex_wrap="wrap") for i in range(self.count.value)]

    def _start(self, _: Any) -> None:
        n = self.count.value
        blank = default_names(n, self.lang.value)  # a name left empty is "Player 2", or "Jugador 2" in a Spanish game
        try:  # an empty seed box draws a fresh seed; a typed one must be a seed a page takes
            seed = new_seed() if self.seed.value is None else check_seed(self.seed.value, self.model.lang)
        except SetupError as exc:
            self.note.object = f"<p style='color:#b00020'>{esc(said(exc, self.model.lang))}</p>"
            return
        ok = self.model.new_game(
            [w.value.strip() or blank[i] for i, w in enumerate(self.names[:n])], [w.value for w in self.seat_kinds[:n]], preset=self.preset.value,
            rules=self.rules.value, seed=seed, dice=self.dice.value, lang=self.lang.value,
            max_rounds=int(self.rounds.value) or None, minutes=int(self.minutes.value) or None)
        self.note.object = f"<p>{esc(self.model.t('setup.started'))}</p>" if ok else f"<p style='color:#b00020'>{esc(self.model.message)}</p>"
        if ok:  # the next game gets a seed of its own; this one's stays on the player cards
            self.seed.value = new_seed()

    def __panel__(self) -> pn.viewable.Viewable:
        flex = functools.partial(pn.FlexBox, flex_wrap="wrap")
        return pn.Column(flex(self.preset, self.lang), self.rules, self.count, self.rows, flex(self.seed, self.dice),
                         flex(self.rounds, self.minutes), self.start, self.note, sizing_mode="stretch_width")


log = logging.getLogger("laspoly.ui")


class SaveFileDropper(pn.widgets.FileDropper):
    """Panel's file dropper, holding at most :attr:`limit` bytes of one upload on the server.

    The dropper sends a file in chunks, and Panel gathers them until the last
    one arrives; the page's size limit is only the browser's.  Here a file's
    chunks are counted as they arrive: past the limit the upload is dropped at
    once, its name goes to :attr:`refused` and one line is logged.  Only one
    upload is gathered at a time, and a chunk of an upload that was dropped or
    never began is ignored.
    """

    limit = param.Integer(default=MAX_SAVE_BYTES, bounds=(1, None), doc="The most bytes of one upload kept on the server.")
    refused = param.String(default="", doc="The name of the last upload dropped for being over the limit.")

    _rename: ClassVar[dict[str, str | None]] = {**pn.widgets.FileDropper._rename, "limit": None, "refused": None}  # the server's own: never sent to the page

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._received = 0

    def _process_event(self, event: Any) -> None:
        if event.event_name != "upload_event":
            super()._process_event(event)
            return
        data = event.data if isinstance(event.data, dict) else {}
        name = str(data.get("name", ""))[:200]
        payload = data.get("data")
        if data.get("chunk") == 1:
            self._file_buffer.clear()  # one upload at a time: a new one drops any unfinished other
            self._received = 0
        elif name not in self._file_buffer:
            return
        self._received += len(payload) if isinstance(payload, bytes | bytearray | str) else 0
        if self._received > self.limit:
            self._file_buffer.clear()
            self._received = 0
            log.warning("refused: an upload over the %d-byte limit for save files", self.limit)
            self.param.update(refused=name)
            self.param.trigger("refused")
            return
        super()._process_event(event)


#: FilePond's words (the library under Panel's file dropper), each a catalogue message ``files.pond.<option>``.
POND_WORDS = ("labelInvalidField", "labelFileWaitingForSize", "labelFileSizeNotAvailable", "labelFileLoading",
              "labelFileLoadError", "labelFileProcessing", "labelFileProcessingComplete", "labelFileProcessingAborted",
              "labelFileProcessingError", "labelTapToCancel", "labelTapToRetry", "labelTapToUndo", "labelButtonRemoveItem",
              "labelButtonAbortItemLoad", "labelButtonRetryItemLoad", "labelButtonAbortItemProcessing",
              "labelButtonUndoItemProcessing", "labelButtonRetryItemProcessing", "labelButtonProcessItem",
              "labelMaxFileSizeExceeded", "labelMaxFileSize", "labelFileTypeNotAllowed", "fileValidateTypeLabelExpectedTypes")


def dropper_words(lang: str) -> dict[str, str]:
    """The file dropper's words in ``lang``, as FilePond's options: its drop area's invitation (HTML, escaped here, with
    its "Browse" link), its buttons and its messages.  ``{filesize}`` and the like are FilePond's own, left for it to fill."""
    words_ = {k: tr(f"files.pond.{k}", lang, filesize="{filesize}") for k in POND_WORDS}
    words_["labelIdle"] = (f"{esc(tr('files.pond.labelIdle', lang))} "
                           f"<span class=\"filepond--label-action\">{esc(tr('files.pond.labelIdleBrowse', lang))}</span>")
    return words_


class DropperWords(ReactiveHTML):
    """Says the file dropper's words in the page's language: Panel's dropper has no words of its own to set, so this
    sets FilePond's options (every dropper of the page, and any made later) whenever :attr:`labels` changes."""

    labels = param.Dict(default={}, doc="FilePond's options: its labels in the page's language (dropper_words).")

    _template = '<div id="words" style="display:none"></div>'

    _scripts = {  # noqa: RUF012 (Panel reads these class attributes)
        "render": """
            state.apply = () => {
              if (window.FilePond) { window.FilePond.setOptions(data.labels); return; }
              setTimeout(state.apply, 100);  // the dropper's library is still on its way
            };
            state.apply();
        """,
        "labels": "state.apply();",
    }


class FilesView(Viewer):
    """Save and load games; export the log, dice and landings as CSV."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.save = pn.widgets.FileDownload(callback=m.save_json, filename="laspoly-game.json", color="primary", width=160,
                                            stylesheets=[BUTTON_CSS])
        # a file of the limit arrives as one chunk; the server drops an upload past the limit as it arrives
        self.load = SaveFileDropper(accepted_filetypes=[".json", "application/json"], multiple=False,
                                    max_file_size=f"{MAX_SAVE_BYTES // 1_000_000}MB", chunk_size=MAX_SAVE_BYTES + 1, width=320)
        self.load.param.watch(self._loaded, "value")
        self.load.param.watch(self._too_large, "refused")
        self.load_words = DropperWords(height=0, margin=0)
        self.note = pn.pane.HTML()
        self.load_title = pn.pane.HTML()
        self.export_title = pn.pane.HTML()
        self.log_csv = pn.widgets.FileDownload(callback=m.log_csv, filename="laspoly-log.csv", width=160, stylesheets=[BUTTON_CSS])
        self.dice_csv = pn.widgets.FileDownload(callback=m.dice_csv, filename="laspoly-dice.csv", width=160, stylesheets=[BUTTON_CSS])
        self.landings_csv = pn.widgets.FileDownload(callback=m.landings_csv, filename="laspoly-landings.csv", width=180,
                                                    stylesheets=[BUTTON_CSS])
        self.csvs = pn.FlexBox(self.log_csv, self.dice_csv, self.landings_csv, flex_wrap="wrap")
        m.param.watch(lambda *_: self._word(), "lang")
        self._word()

    def _word(self) -> None:
        m = self.model
        for widget, key in ((self.save, "files.save"), (self.load, "files.load"), (self.log_csv, "files.log_csv"),
                            (self.dice_csv, "files.dice_csv"), (self.landings_csv, "files.landings_csv")):
            assign(widget, label=m.t(key))
        assign(self.load_title, object=f"<b>{esc(m.t('files.load'))}</b> {esc(m.t('files.load_limit', mb=MAX_SAVE_BYTES // 1_000_000))}")
        assign(self.load_words, labels=dropper_words(m.lang))
        assign(self.export_title, object=f"<h4 style='margin:8px 0 4px'>{esc(m.t('files.export'))}</h4>")

    def _loaded(self, event: Any) -> None:
        """Load the file dropped; on a served page in a room, replayed and stored off the server's event loop."""
        for name, data in (event.new or {}).items():
            raw = data.encode() if isinstance(data, str) else bytes(data)
            if _serving() and self.model.shared:
                async def load(raw: bytes = raw, name: str = name) -> None:
                    await self.model.load_json_off_loop(raw, name)
                    self.note.object = f"<p>{esc(self.model.message)}</p>"
                pn.state.execute(load, schedule=True)
            else:
                self.model.load_json(raw, name)
                self.note.object = f"<p>{esc(self.model.message)}</p>"

    def _too_large(self, event: Any) -> None:
        self.note.object = f"<p>{esc(self.model.t('files.too_large', name=event.new, mb=MAX_SAVE_BYTES // 1_000_000))}</p>"

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.save, self.load_title, self.load, self.load_words, self.note, self.export_title, self.csvs,
                         sizing_mode="stretch_width")
