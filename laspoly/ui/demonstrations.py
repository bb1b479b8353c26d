"""The teacher's tab: start a shipped demonstration, edit a position and play on from it, or create a class.

A demonstration is a position shipped with the package (``laspoly positions``
lists them): the moment a lesson is about, set up in one click instead of a
dozen scripted rolls.  The editor starts from the game on the table; the
teacher changes cash, token fields, owners, buildings, mortgages, the pot and
the next dice, and "Play from this position" checks the whole position as a
save file is checked.  An impossible one is refused with its reasons and the
game on the table stays as it was.  "Create a class" gives a class code, the
students' link and the teacher's link (:mod:`laspoly.server.classes`, :mod:`laspoly.ui.teacher`).
"""

from __future__ import annotations

import copy
import io
from typing import Any

import panel as pn
import param

from laspoly.engine.chance import parse_dice_script
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError
from laspoly.position_files import demonstrations, dumps_position
from laspoly.server.classes import NewClass
from laspoly.ui import inputs
from laspoly.ui.common import BUTTON_CSS, TabView, base_url, esc, guarded
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel

#: The bank in the owner list.
BANK = -1


class DemonstrationsView(TabView):
    """A menu of the shipped demonstrations and a position editor, both opening a new game (in a room: a new room)."""

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.menu = pn.widgets.Select(width=360)
        self.about = pn.pane.HTML(sizing_mode="stretch_width", min_height=60)
        self.start = pn.widgets.Button(color="primary", stylesheets=[BUTTON_CSS])
        self.editor_head = pn.pane.HTML(sizing_mode="stretch_width")
        self.reload = pn.widgets.Button(stylesheets=[BUTTON_CSS])
        self.player = pn.widgets.Select(width=200)
        self.cash = inputs.IntInput(start=0, width=140)
        self.field = pn.widgets.Select(width=240)
        self.prison = pn.widgets.Checkbox()
        self.prop = pn.widgets.Select(width=240)
        self.owner = pn.widgets.Select(width=200)
        self.houses = inputs.IntInput(start=0, end=4, width=120)
        self.hotel = pn.widgets.Checkbox()
        self.factory = pn.widgets.Checkbox()
        self.mortgaged = pn.widgets.Checkbox()
        self.pot = inputs.IntInput(start=0, width=140)
        self.dice = pn.widgets.TextInput(placeholder="6-6 1-2", width=240)
        self.play = pn.widgets.Button(color="primary", stylesheets=[BUTTON_CSS])
        self.download = pn.widgets.FileDownload(callback=self._position_file, filename="laspoly-position.json", width=220)
        self.note = pn.pane.HTML(sizing_mode="stretch_width", min_height=24)
        self.class_head = pn.pane.HTML(sizing_mode="stretch_width")
        self.class_name = pn.widgets.TextInput(max_length=40, width=300)
        self.create_class = pn.widgets.Button(stylesheets=[BUTTON_CSS])
        self.class_note = pn.pane.HTML(sizing_mode="stretch_width", min_height=24)
        self.create_class.on_click(guarded(m, lambda _: self.new_class()))
        #: The position being edited, in normal form.
        self.draft: dict[str, Any] = m.position()
        self._loading = False
        self.menu.param.watch(lambda *_: self._describe(), "value")
        self.start.on_click(guarded(m, lambda _: self._start()))
        self.reload.on_click(guarded(m, lambda _: self.take_from_table()))
        self.play.on_click(guarded(m, lambda _: self.play_draft()))
        self.player.param.watch(lambda *_: self._show_player(), "value")
        self.prop.param.watch(lambda *_: self._show_property(), "value")
        for widget in (self.cash, self.field, self.prison):
            widget.param.watch(lambda *_: self._edit_player(), "value")
        for widget in (self.owner, self.houses, self.hotel, self.factory, self.mortgaged):
            widget.param.watch(lambda *_: self._edit_property(), "value")
        self.pot.param.watch(lambda *_: self._edit_rest(), "value")
        self.dice.param.watch(lambda *_: self._edit_rest(), "value")
        m.param.watch(lambda *_: self._words(), "lang")
        self._words()
        self.take_from_table()

    # ------------------------------------------------------------ words

    def _words(self) -> None:
        """Labels and the menu in the page's language."""
        lang = self.model.lang
        options = {d.title: d.id for d in demonstrations(lang)}
        chosen = self.menu.value if self.menu.value in options.values() else next(iter(options.values()))
        self.menu.param.update(label=tr("demo.menu", lang), options=options, value=chosen)
        self.start.label = tr("demo.start", lang)
        self.editor_head.object = f"<h3 style='margin:12px 0 2px'>{esc(tr('demo.editor', lang))}</h3><p style='margin:0'>{esc(tr('demo.editor_help', lang))}</p>"
        self.reload.label = tr("demo.reload", lang)
        for widget, key in ((self.player, "demo.player"), (self.cash, "demo.cash"), (self.field, "demo.field"),
                            (self.prison, "demo.prison"), (self.prop, "demo.property"), (self.owner, "demo.owner"),
                            (self.houses, "demo.houses"), (self.hotel, "demo.hotel"), (self.factory, "demo.factory"),
                            (self.mortgaged, "demo.mortgaged"), (self.pot, "demo.pot"), (self.dice, "demo.dice")):
            widget.label = tr(key, lang)
        self.play.label = tr("demo.play", lang)
        self.class_head.object = (f"<h3 style='margin:12px 0 2px'>{esc(tr('class.create_head', lang))}</h3>"
                                  f"<p style='margin:0'>{esc(tr('class.create_help', lang))}</p>")
        self.class_name.label = tr("class.name", lang)
        self.create_class.label = tr("class.create", lang)
        self.download.label = tr("demo.download", lang)
        self._describe()
        self._fill_lists()

    def _describe(self) -> None:
        lang = self.model.lang
        chosen = next((d for d in demonstrations(lang) if d.id == self.menu.value), None)
        self.about.object = "" if chosen is None else "".join(f"<p style='margin:2px 0'>{esc(line)}</p>" for line in chosen.explanation)

    # ------------------------------------------------------------ the draft

    def take_from_table(self) -> None:
        """Edit the game on the table, as it stands now."""
        self.draft = self.model.position()
        self.note.object = ""
        self._fill_lists()

    def _board(self) -> Game:
        return self.model.game

    def _fill_lists(self) -> None:
        """The player, field, property and owner lists of the draft's board and players."""
        lang, fields = self.model.lang, self._board().fields
        if self.draft["preset"] != self.model.game.preset.id:  # the table changed rulebook since: start again from it
            self.draft = self.model.position()
        names = [p["name"] for p in self.draft["players"]]
        self._loading = True
        try:
            self.player.options = {name: k for k, name in enumerate(names)}
            self.field.options = {f"{f.index} {f.label(lang)}": f.index for f in fields}
            self.prop.options = {f"{f.index} {f.label(lang)}": f.index for f in fields if f.is_property}
            self.owner.options = {tr("demo.bank", lang): BANK, **{name: k for k, name in enumerate(names)}}
            if self.player.value not in self.player.options.values():
                self.player.value = 0
            if self.prop.value not in self.prop.options.values():
                self.prop.value = next(iter(self.prop.options.values()))
            self.pot.value = self.draft["pot"]
            self.dice.value = " ".join(f"{a}-{b}" for a, b in self.draft["dice"])
        finally:
            self._loading = False
        self._show_player()
        self._show_property()

    def _show_player(self) -> None:
        p = self.draft["players"][self.player.value or 0]
        self._loading = True
        try:
            self.cash.value, self.field.value, self.prison.value = p["cash"], p["field"], p["in_prison"]
        finally:
            self._loading = False

    def _owned(self, field: int) -> dict[str, Any] | None:
        return next((d for d in self.draft["properties"] if d["field"] == field), None)

    def _show_property(self) -> None:
        d = self._owned(self.prop.value) or {"owner": BANK, "houses": 0, "hotel": False, "factory": False, "mortgaged": False}
        self._loading = True
        try:
            self.owner.value, self.houses.value = d["owner"], d["houses"]
            self.hotel.value, self.factory.value, self.mortgaged.value = d["hotel"], d["factory"], d["mortgaged"]
            on = d["owner"] != BANK
            for widget in (self.houses, self.hotel, self.factory, self.mortgaged):
                widget.disabled = not on
        finally:
            self._loading = False

    def _edit_player(self) -> None:
        if self._loading:
            return
        p = self.draft["players"][self.player.value or 0]
        p.update(cash=int(self.cash.value or 0), field=self.field.value, in_prison=bool(self.prison.value))
        if not p["in_prison"]:
            p["prison_turns"] = 0

    def _edit_property(self) -> None:
        if self._loading:
            return
        field, props = self.prop.value, self.draft["properties"]
        props[:] = [d for d in props if d["field"] != field]
        if self.owner.value != BANK:
            props.append({"field": field, "owner": self.owner.value, "houses": int(self.houses.value),
                          "hotel": bool(self.hotel.value), "factory": bool(self.factory.value), "mortgaged": bool(self.mortgaged.value)})
            props.sort(key=lambda d: d["field"])
        self._show_property()

    def _edit_rest(self) -> None:
        if self._loading:
            return
        self.draft["pot"] = int(self.pot.value or 0)

    # ------------------------------------------------------------ playing

    def _start(self) -> None:
        if self.menu.value and self.model.open_position(self.menu.value):
            self.take_from_table()
            self.note.object = f"<p>{esc(self.model.message)}</p>"
        else:
            self._refused()

    def play_draft(self) -> bool:
        """Check the edited position and play on from it; an impossible one is refused with its reasons."""
        position = copy.deepcopy(self.draft)
        try:
            position["dice"] = [list(pair) for pair in parse_dice_script(self.dice.value or "")]
        except LaspolyError as exc:
            self.note.object = f"<p style='color:#b00020'>{esc(tr('demo.bad_dice', self.model.lang, reason=str(exc)))}</p>"
            return False
        position.pop("generator", None)  # the dice after the script come from the seed, as in a new game
        position.pop("about", None)
        if not self.model.open_position(position):
            self._refused()
            return False
        self.take_from_table()
        self.note.object = f"<p>{esc(tr('demo.playing', self.model.lang))}</p>"
        return True

    def _refused(self) -> None:
        lines = self.model.message.splitlines()
        self.note.object = (f"<p style='color:#b00020;margin:2px 0'>{esc(lines[0] if lines else '')}</p>"
                            + "".join(f"<p style='color:#b00020;margin:0 0 0 1em'>{esc(line.strip())}</p>" for line in lines[1:]))

    def new_class(self) -> NewClass | None:
        """Create a class and show its code, its student link and (once) its teacher link."""
        lang = self.model.lang
        made = self.model.create_class(self.class_name.value or "")
        if made is None:
            self.class_note.object = f"<p style='color:#b00020'>{esc(self.model.message)}</p>"
            return None
        base = base_url()
        self.class_note.object = (
            f"<p><b>{esc(tr('class.created', lang, name=made.name, code=made.code))}</b></p>"
            f"<p>{esc(tr('class.student_link', lang))} <code style='user-select:all'>{esc(base + made.student_link)}</code></p>"
            f"<p>{esc(tr('class.teacher_link', lang))} <a href='{esc(base + made.teacher_link)}' target='_blank' rel='noopener'>"
            f"<code style='user-select:all'>{esc(base + made.teacher_link)}</code></a></p>")
        return made

    def _position_file(self) -> io.BytesIO:
        return io.BytesIO(dumps_position(self.model.position()).encode("utf-8"))

    def refresh(self) -> None:
        """The game changed: the lists follow its players and board (the draft is kept until reloaded)."""
        if self.draft["preset"] != self.model.game.preset.id or len(self.draft["players"]) != len(self.model.game.players):
            self.take_from_table()

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(
            self.menu, self.about, self.start,
            self.editor_head, self.reload,
            pn.Row(self.player, self.cash, self.field, self.prison),
            pn.Row(self.prop, self.owner, self.houses),
            pn.Row(self.hotel, self.factory, self.mortgaged),
            pn.Row(self.pot, self.dice),
            pn.Row(self.play, self.download), self.note,
            self.class_head, pn.Row(self.class_name, self.create_class), self.class_note,
            sizing_mode="stretch_width",
        )

