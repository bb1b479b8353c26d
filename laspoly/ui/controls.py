"""The Play tab's controls: whose turn it is, every decision of the rules as a button, and the pace of the bots.

The header says in large type whose turn it is and what to do next; a
decision's button shows what is at stake (the price, the fare, the fine, the
tries left, the rent to claim).  The property list and the board share one
selection, the model's ``selected_field``.

What the tab shows is computed by :mod:`laspoly.ui.playview` without Panel; this
module only renders it: it makes one button per row of
:data:`~laspoly.ui.playview.CONTROLS`, lays them out in the rows the rows name,
and on each change of the game sets every button's label, state and colour from
:func:`~laspoly.ui.playview.play_view`.
"""

from __future__ import annotations

import functools
from typing import Any

import panel as pn
import param
from panel.viewable import Viewer

from laspoly.ui import inputs
from laspoly.ui.common import (
    BUTTON_CSS,
    FOCUS_CSS,
    NOT_ON_PHONES,
    PHONE,
    PLAYER_COLORS,
    KeyShortcuts,
    LiveHTML,
    assign,
    esc,
    guarded,
    is_served,
    player_badge,
    player_glyph,
)
from laspoly.ui.model import GameModel
from laspoly.ui.playview import BID_STEP, CONTROLS, TOTALS, ControlRow, PlayInputs, PlayView, names_in, play_view
from laspoly.ui.timers import Timer


class ControlsView(Viewer):
    """Every decision of the rules as a button; only legal ones are enabled, the others say why.

    What the buttons say and whether they are on comes from :func:`~laspoly.ui.playview.play_view`;
    the buttons themselves are made from :data:`~laspoly.ui.playview.CONTROLS`, one per row.
    """

    model = param.ClassSelector(class_=GameModel)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        m = self.model
        self.header = LiveHTML(sizing_mode="stretch_width", css_classes=["lp-turn"], stylesheets=[TURN_PHONE_CSS])
        #: The words of the widgets that are not buttons as (widget, parameter, catalogue key), set again when the language changes.
        self._words: list[tuple[Any, str, str]] = []
        self._worded_in: tuple[str, str] | None = None
        w = self._worded
        # the status line repeats the header's words; a phone, and a small laptop's narrow column beside the board, keep
        # its height for the turn's buttons and the lesson's legend
        self.status = LiveHTML(sizing_mode="stretch_width", css_classes=["lp-status"], stylesheets=[NOT_ON_PHONES, STATUS_CSS])
        # the message shows under the turn's buttons, with the decisions that come and go
        self.message = LiveHTML("", sizing_mode="stretch_width")
        #: Every button, by its row's name; each is also an attribute of the same name (``self.roll``).
        self.buttons: dict[str, pn.widgets.Button] = {}
        for row in CONTROLS:
            button = pn.widgets.Button(label=m.t(row.key), color=row.color, stylesheets=[BUTTON_CSS])
            self.buttons[row.name] = button
            setattr(self, row.name, button)
        #: Predict, then roll: a button per total, in a strip under Roll that keeps its height while the switch is off.
        #: The buttons are made the first time a guess is asked for (most pages never ask): until then the strip is empty.
        self.guess_buttons: dict[int, pn.widgets.Button] = {}
        self.guess_row = pn.Row(css_classes=["lp-guesses"], stylesheets=[GUESS_ROW_CSS, PHONE_FIRST_CSS],
                                sizing_mode="stretch_width", min_height=GUESS_HEIGHT, margin=(0, 10))
        #: Rent to claim and offers waiting for an answer, in words, where the decisions that come and go show.
        self.alerts = LiveHTML("", sizing_mode="stretch_width")
        self.autoplay = w(pn.widgets.Toggle(stylesheets=[BUTTON_CSS]), "play.autoplay")
        self.speed = w(inputs.FloatSlider(start=0.5, end=20, step=0.5, value=m.speed, width=180), "play.speed")
        # the station list and the bid box have no label above them: their button beside them says what they are for,
        # and their rows then take no more height than a row of buttons
        self.station = pn.widgets.Select(options={}, width=220, stylesheets=[FOCUS_CSS])
        self.bid_amount = inputs.IntInput(value=BID_STEP, start=1, step=BID_STEP, width=120, stylesheets=[FOCUS_CSS])
        self.field = w(pn.widgets.Select(options={}, width=240, stylesheets=[FOCUS_CSS]), "play.property")
        self.partner = w(pn.widgets.Select(options={}, width=200, stylesheets=[FOCUS_CSS]), "play.trade_with")
        self.give = w(pn.widgets.MultiChoice(options={}, width=260, stylesheets=[FOCUS_CSS]), "play.you_give")
        self.take = w(pn.widgets.MultiChoice(options={}, width=260, stylesheets=[FOCUS_CSS]), "play.you_get")
        self.cash = w(inputs.IntInput(value=0, step=10, width=260, stylesheets=[FOCUS_CSS]), "play.cash")
        self.offer_text = LiveHTML(sizing_mode="stretch_width")
        self.trade_why = LiveHTML(sizing_mode="stretch_width")
        # room for a few reasons, so the cards below stay put as the reasons change from step to step
        self.why = LiveHTML(sizing_mode="stretch_width", min_height=WHY_HEIGHT, styles={"font-size": "0.85em", "color": "#444"})
        # a phone has no keys; in a notebook the keys act only inside this dashboard
        self.keys = KeyShortcuts(sizing_mode="stretch_width", stylesheets=[NOT_ON_PHONES], scoped=not is_served())
        #: Lesson mode: the stakes of the turn's decision (buy, prison) and of building on the chosen street, in numbers.
        self.stakes = LiveHTML(sizing_mode="stretch_width", styles={"font-size": "0.9em", "color": "#08306b"})
        self.build_stakes = LiveHTML(sizing_mode="stretch_width", styles={"font-size": "0.9em", "color": "#08306b"})
        #: Whether the keyboard shortcuts act (the dashboard turns them off while another tab is shown).
        self.shortcuts_on = True
        self.keys.param.watch(self._on_key, "press")
        self._occasional = pn.Column(min_height=RESERVED_ROW, sizing_mode="stretch_width")  # see turn_controls
        self._turn_column: pn.Column | None = None
        #: The lesson and predict switches, under the turn's decisions (filled by the dashboard).
        self.switches = pn.Column(sizing_mode="stretch_width", margin=0)
        self.manage_card = pn.Card(collapsed=False, sizing_mode="stretch_width", stylesheets=[FOCUS_CSS])
        self.trade_card = pn.Card(collapsed=True, sizing_mode="stretch_width", stylesheets=[FOCUS_CSS])
        self._words += [(self.manage_card, "title", "play.manage"), (self.trade_card, "title", "play.trade")]
        self.trade_card.param.watch(self._fill_trade, "collapsed")
        #: What the tab showed at the last refresh.
        self.view: PlayView | None = None
        self._timer: Timer | None = None
        self._setting_field = False
        self._wire()
        m.param.watch(lambda *_: self.refresh(), ["version", "lang", "selected_field", "pending_confirm", "predict", "guess"])
        self.refresh()

    def _worded(self, widget: Any, key: str) -> Any:
        """Give ``widget`` its words from the catalogue (its label) and keep them up to date."""
        self._words.append((widget, "label", key))
        return widget

    # -- keyboard
    def press(self, key: str) -> bool:
        """A keyboard shortcut: r rolls, e ends the turn, n lets the bots move; only an enabled, shown button is pressed."""
        button = {"r": self.buttons["roll"], "e": self.buttons["end_turn"], "n": self.buttons["next"]}.get(key.lower())
        if button is None or button.disabled or not button.visible:
            return False
        button.clicks += 1
        return True

    def _on_key(self, event: Any) -> None:
        if self.shortcuts_on and event.new:
            self.press(event.new.split()[0])

    # -- wiring
    def inputs(self) -> PlayInputs:
        """The values typed or chosen in the tab's inputs, as the view-model reads them."""
        return PlayInputs(station=self.station.value, bid=int(self.bid_amount.value or 0),
                          partner=int(self.partner.value) if self.partner.value is not None else None,
                          give=tuple(self.give.value), take=tuple(self.take.value), cash=int(self.cash.value or 0))

    def _wire(self) -> None:
        m = self.model
        for row in CONTROLS:
            self.buttons[row.name].on_click(guarded(m, functools.partial(self._click, row)))
        self.field.param.watch(self._pick_field, "value")
        for widget in (self.station, self.partner, self.give, self.take, self.cash):
            widget.param.watch(lambda *_: self.refresh(), "value")
        self.autoplay.param.watch(self._toggle_autoplay, "value")
        self.speed.param.watch(self._set_speed, "value")

    def _click(self, row: ControlRow, _: Any) -> None:
        """A button pressed: its row's decision for the person to move, or its row's call on the model."""
        m = self.model
        if row.call is not None:
            row.call(m)
            return
        who = m.person_to_move
        if who is not None and row.make is not None:
            action = row.make(m, who, self.inputs())
            if action is not None:
                m.act(action)

    def _make_guesses(self) -> None:
        """The guess buttons, in their strip under Roll: made once, the first time predict-then-roll asks for a guess."""
        m = self.model
        for total in TOTALS:
            button = pn.widgets.Button(label=str(total), stylesheets=[BUTTON_CSS, GUESS_CSS], visible=False, margin=(2, 1),
                                       css_classes=["lp-guess"])
            button.on_click(guarded(m, functools.partial(self._guess, total)))
            self.guess_buttons[total] = button
        self.guess_row.objects = list(self.guess_buttons.values())

    def _guess(self, total: int, _: Any) -> None:
        """A guess of predict-then-roll clicked: it is the one Roll waits for (another click changes it)."""
        self.model.guess = total

    def _pick_field(self, event: Any) -> None:
        """A property chosen in the list is the selection, as a click on the board is."""
        if not self._setting_field and event.new is not None and event.new != self.model.selected_field:
            self.model.selected_field = int(event.new)

    # -- autoplay
    def _toggle_autoplay(self, event: Any) -> None:
        self.model.autoplay = bool(event.new)
        if event.new and self._timer is None:
            self._timer = Timer(self._tick, period=max(50, int(1000 / self.model.speed)))
        elif not event.new:
            self.stop_timer()

    def _set_speed(self, event: Any) -> None:
        self.model.speed = float(event.new)
        if self._timer is not None:
            self._timer.period = max(50, int(1000 / self.model.speed))

    def _tick(self) -> None:
        """One autoplay step, as "Next"; autoplay stops when a person must decide or the game is over."""
        m = self.model
        if m.autoplay and not m.game.is_over and m.person_to_move is None:
            m.advance()
        else:
            m.autoplay = False
        if not m.autoplay:
            self.autoplay.value = False

    def stop_timer(self) -> None:
        """Stop the autoplay callback (also when the session closes)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- refreshing
    def refresh(self) -> None:
        """Show the view-model: the header, the stakes, and each control enabled or off with why."""
        m, g = self.model, self.model.game
        if self._worded_in != (m.lang, g.preset.id):  # words change with the language and a rulebook's own terms
            self._worded_in = (m.lang, g.preset.id)
            for widget, name, key in self._words:
                assign(widget, **{name: m.t(key)})
            assign(self.keys, hint=m.t("play.keys"))
        typed = self.inputs()
        view = self.view = play_view(m, typed)
        assign(self.header, object=self._header(view))
        assign(self.status, object=f"<b>{esc(view.status)}</b>")
        assign(self.stakes, visible=bool(view.turn_stakes),
               object="".join(f"<p style='margin:2px 0'>{esc(line)}</p>" for line in view.turn_stakes))
        assign(self.build_stakes, visible=bool(view.build_stakes),
               object=f"<p style='margin:2px 0'>{esc(view.build_stakes)}</p>" if view.build_stakes else "")
        # shown only while they have something to say: an empty pane's margins would push the decisions below it down
        assign(self.message, visible=bool(view.message),
               object=f"<div role='status' class='lp-message' style='{MESSAGE_STYLE}'>{esc(view.message)}</div>" if view.message else "")
        if not m.autoplay and self.autoplay.value:
            self.autoplay.value = False
        self._show_inputs(view, typed)
        for name, state in view.controls.items():
            widget = self.buttons.get(name)
            if widget is not None:
                assign(widget, label=state.label, disabled=not state.enabled, visible=state.visible, color=state.color)
        assign(self.autoplay, disabled=not view.controls["autoplay"].enabled)
        if view.guesses and not self.guess_buttons:
            self._make_guesses()
        if not self._occasional.objects and self._occasional_wanted(view):
            self.fill_occasional()
        for total, button in self.guess_buttons.items():
            state = view.guesses.get(total)
            assign(button, visible=state is not None, disabled=state is None or not state.enabled,
                   color=state.color if state is not None else "default")
        assign(self.alerts, visible=bool(view.header.alerts), object="".join(f"<div class='lp-turn-alert' role='status' style='{ALERT_STYLE}'>{esc(a)}</div>"
                                           for a in view.header.alerts))
        offers = "".join("<p>" + m.t(o.key, id=o.id, name=player_badge(m, o.other), give=esc(o.give), take=esc(o.take),
                                     cash=esc(o.cash)) + "</p>" for o in view.offers)
        assign(self.offer_text, object=offers)
        assign(self.trade_why, object=f"<small>{esc(view.propose_reason)}</small>" if view.propose_reason else "")
        reasons = [f"<li><b>{esc(', '.join(names))}</b>: {esc(r)}</li>" for r, names in view.reasons]
        assign(self.why, object=(f"<details open><summary>{esc(m.t('play.why_off'))}</summary><ul>" + "".join(reasons) + "</ul></details>"
                                 if reasons else ""))

    def _show_inputs(self, view: PlayView, typed: PlayInputs) -> None:
        """The inputs as the view-model has them: the stations, the bid above the highest, the properties, the partners."""
        show = bool(view.controls["travel"].visible)
        if show:  # the stations only matter while the train is on offer; the list shows the first, so choose it
            assign(self.station, options=view.stations)
            if view.station is not None and self.station.value != view.station:
                assign(self.station, value=view.station)
        assign(self.station, visible=show)
        assign(self.bid_amount, visible=view.controls["bid"].visible)
        if view.bid != typed.bid:
            self.bid_amount.value = view.bid
        self._setting_field = True
        try:
            assign(self.field, options=view.properties, value=view.chosen_field)
        finally:
            self._setting_field = False
        assign(self.partner, options=view.partners)
        assign(self.give, options=view.give_options)
        assign(self.take, options=view.take_options)

    def _header(self, view: PlayView) -> str:
        """Whose turn it is, in large type, and what to do next (rent to claim and offers waiting show with the decisions)."""
        h = view.header
        return (f"<div style='border-left:8px solid {PLAYER_COLORS[h.seat % len(PLAYER_COLORS)]};padding:2px 10px;margin:2px 0' aria-live='polite'>"
                f"<div class='lp-turn-title' style='font-size:1.7em;font-weight:700;line-height:1.2'>{player_glyph(h.seat)} {esc(h.title)}</div>"
                f"<div class='lp-turn-hint' style='{HINT_STYLE}'>{esc(h.hint)}</div></div>")

    def _row(self, place: str, stylesheets: tuple[str, ...] = ()) -> pn.Row:
        """A row of the tab: the controls and inputs placed in it (:func:`~laspoly.ui.playview.names_in`), wrapping."""
        row = _flex(*(getattr(self, name) for name in names_in(place)))
        row.stylesheets = [*row.stylesheets, *stylesheets]
        return row

    def turn_controls(self, occasional: bool = True, whole: bool = True) -> pn.Column:
        """The status line and the turn's buttons, then the switches, the decisions that come and go and the stakes.

        The turn's buttons (Roll, End turn; Claim rent in a row of its own; the guesses of predict-then-roll
        in a strip of their own under them; Next, Autoplay, Run to end, Undo) come
        first and keep their places: everything that comes and goes shows below
        them: the lesson and predict switches with the lesson's modes and legend
        (:attr:`switches`, filled by the dashboard), then the message, rent to
        claim, a trade offer, confirm, buy, prison, train and auction in a block
        that keeps the height of a row of buttons, and the lesson's stakes.  Rows
        wrap on a narrow screen.  A phone shows that block right under Roll and End
        turn, above Next and the rest, so a decision's buttons are in its first screen; it keeps no height
        there while empty, so Next follows Roll when no decision waits.  A served page puts the decisions in
        their block only when one first comes (``occasional=False``; :meth:`refresh` calls :meth:`fill_occasional`):
        they are hidden most of the time, and a new page's pieces stay small.  With ``whole=False`` the column
        holds only the status line and the turn's buttons until :meth:`finish_turn_controls`.
        """
        self._occasional = pn.Column(min_height=RESERVED_ROW, sizing_mode="stretch_width", stylesheets=[PHONE_FIRST_CSS, PHONE_NO_RESERVE_CSS])
        if occasional or (self.view is not None and self._occasional_wanted(self.view)):
            self.fill_occasional()
        column = pn.Column(self.status, self._row("turn", (PHONE_FIRST_CSS,)), self._row("claim", (PHONE_FIRST_CSS,)), self.guess_row,
                           self._row("pace"), sizing_mode="stretch_width")
        self._turn_column = column
        if whole:
            self.finish_turn_controls()
        return column

    def finish_turn_controls(self) -> None:
        """Put what follows the turn's buttons in :meth:`turn_controls` (the switches, the decisions' block, the stakes,
        the keys' hint and the reasons why buttons are off); a served page does it in a piece of its own."""
        column = self._turn_column
        if column is not None and self.switches not in column.objects:
            column.extend([self.switches, self._occasional, self.stakes, self.keys, self.why])

    @staticmethod
    def _occasional_wanted(view: PlayView) -> bool:
        """Whether the decisions' block has something to show: a message, rent to claim or an offer, or a decision's button."""
        return bool(view.message or view.header.alerts or view.offers
                    or any(view.controls[name].visible for name in OCCASIONAL if name in view.controls))

    def fill_occasional(self) -> None:
        """Put the decisions that come and go in their block of :meth:`turn_controls` (once).

        A served page fills it the first time it has something to show (:meth:`refresh`): until then the block
        only keeps its height, and its buttons (a dozen, hidden most of the time) are not sent to the page.
        """
        if not self._occasional.objects:
            self._occasional.objects = [self.message, self.alerts, self._row("confirm"), self.offer_text, self._row("answer"), self._row("buy"),
                                        self._row("prison"), self._row("auction")]

    def manage_controls(self) -> pn.Column:
        """Building, selling and mortgaging, then trading.

        The trade card starts folded and is filled the first time it is opened:
        most players never open it, and its widgets are a good part of the page.
        """
        self.manage_card.objects = [pn.Column(self.field, self._row("build"), self.build_stakes, self._row("sell"),
                                              sizing_mode="stretch_width")]
        return pn.Column(self.manage_card, self.trade_card, sizing_mode="stretch_width")

    def _fill_trade(self, event: Any) -> None:
        if not event.new and not self.trade_card.objects:
            self.trade_card.objects = [pn.Column(self.partner, _flex(self.give, self.take),
                                                 self.cash, *(getattr(self, name) for name in names_in("propose")), self.trade_why,
                                                 sizing_mode="stretch_width")]

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.header, self.turn_controls(), self.manage_controls(), sizing_mode="stretch_width")


#: On a phone, whose turn it is in smaller type: the turn's buttons stay in the first screen below the board.
TURN_PHONE_CSS = (f"@media {PHONE} {{ .lp-turn-title {{ font-size: 1.25em !important; }}"
                  " .lp-turn-hint { font-size: 0.95em !important; min-height: 0 !important; } }")
#: On a phone, the turn's buttons, the guesses and the decisions that come and go (buy, prison, auction, an offer's answer)
#: first, in that order, and Next, the switches and the rest after them: a decision's buttons are then in the first screen.
PHONE_FIRST_CSS = f"@media {PHONE} {{ :host {{ order: -1; }} }}"
#: There, the decisions' block keeps no height while empty: Next, which a person's decision turns off, moves down
#: under a decision's buttons, and is right under Roll otherwise.
PHONE_NO_RESERVE_CSS = f"@media {PHONE} {{ :host {{ min-height: 0 !important; }} }}"
#: What to do next keeps two lines' height, so a longer hint (a guess to make, a purchase) never moves the buttons.
HINT_STYLE = "font-size:1.1em;line-height:1.3;min-height:2.6em"

#: The status line is left out below 1100 px of width, where the column beside the board is narrow.
STATUS_CSS = "@media (max-width: 1100px) { :host { display: none !important; } }"
#: The rows of the decisions that come and go, in their block's order (see :meth:`ControlsView.turn_controls`).
OCCASIONAL_PLACES = ("confirm", "answer", "buy", "prison", "auction")
#: The controls and inputs in those rows.
OCCASIONAL = frozenset(name for place in OCCASIONAL_PLACES for name in names_in(place))
#: Height kept for the decisions that come and go: one row of buttons.
RESERVED_ROW = 51
#: How a message looks.
MESSAGE_STYLE = "background:#fff3cd;border:1px solid #e6c65c;border-radius:4px;padding:4px 8px;color:#4d3a00"
#: Height kept for the reasons why buttons are off (about four of them).
WHY_HEIGHT = 90
#: Rent to claim and an offer waiting, with the decisions that come and go.
ALERT_STYLE = "font-weight:700;color:#7a3d00;margin:2px 0"
#: Height kept under Roll for the guess buttons of predict-then-roll, switch on or off (a phone keeps none).
GUESS_HEIGHT = 40
#: The guess buttons: eleven in one line, sharing it, each a target of at least 24 px (44 px on a phone, where they wrap).
GUESS_ROW_CSS = (":host { display: grid !important; grid-template-columns: repeat(11, minmax(24px, 1fr)); gap: 2px;"
                 " width: auto !important; box-sizing: border-box; }"
                 f"\n@media {PHONE} {{ :host {{ min-height: 0 !important; grid-template-columns: repeat(6, minmax(44px, 1fr)); }} }}")
GUESS_CSS = (":host { width: auto !important; min-width: 0 !important; margin: 0 !important; }"
             " .bk-btn { padding: 4px 0; font-weight: 700; font-size: 1.05em; }")


def _flex(*objects: Any) -> pn.Row:
    """A row of controls that share its width and wrap onto the next line on a narrow screen instead of scrolling sideways.

    A plain row with CSS wrapping: Panel's FlexBox is a templated component,
    two Bokeh models a row and several times the server's work to make.
    """
    for obj in objects:
        obj.styles = {**obj.styles, "flex": "1 1 7em", "width": "auto", "min-width": "max-content"}
    return pn.Row(*objects, styles={"flex-wrap": "wrap", "align-items": "flex-end"}, sizing_mode="stretch_width")
