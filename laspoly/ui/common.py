"""What every dashboard view shares: safe HTML, batched widget updates, guarded clicks and tabs that wait while hidden."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from typing import Any

import panel as pn
import param
from panel.reactive import ReactiveHTML
from panel.viewable import Viewer

from laspoly.server.table import SEAT_CHOICES
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel

#: Okabe-Ito colours (safe for colour-blind players), with a marker shape per seat so colour is never the only cue.
PLAYER_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
PLAYER_MARKERS = ("circle", "square", "triangle", "diamond", "inverted_triangle", "hex", "star", "plus")

#: A focus ring a keyboard user can see: 3 px of Okabe-Ito blue (contrast 5:1 on white), kept clear of the control.
#: Each widget draws itself in its own shadow root, so every widget takes this in its ``stylesheets``.
FOCUS_CSS = ":focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }"

#: A phone: a narrow screen upright, or a touch screen on its side.  Its own look is in CSS rules under this
#: media query (bigger targets, smaller headings, less beside the essentials), never in Python branches.
PHONE_SIDEWAYS = "(pointer: coarse) and (max-height: 500px)"
PHONE = f"(max-width: 600px), {PHONE_SIDEWAYS}"

#: Disabled buttons must look disabled, whatever their colour; and the focus ring.  On a phone a button is a
#: target of at least 44 px (WCAG 2.5.5).
BUTTON_CSS = (".bk-btn[disabled] { opacity: 0.4; cursor: not-allowed; filter: grayscale(0.6); }\n" + FOCUS_CSS
              + f"\n@media {PHONE} {{ .bk-btn {{ min-height: 44px; }} }}")

#: Code samples (rule option names and values) in near-black on a light grey: the Markdown theme's grey code text
#: falls short of WCAG AA contrast (4.5:1) on white.
CODE_CSS = "code { color: #1F2328 !important; background: #EFF1F3; border-radius: 3px; padding: 0 3px; }"

#: Hidden on a phone (the keyboard shortcuts, a status line the turn's header repeats).
NOT_ON_PHONES = f"@media {PHONE} {{ :host {{ display: none !important; }} }}"

#: The language switch: each language named in its own words, as is usual.
LANGUAGES = {"English": "en", "Español": "es"}

MARKER_GLYPHS = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "inverted_triangle": "▼", "hex": "⬢",
                 "star": "★", "plus": "✚"}


def assign(widget: param.Parameterized, **values: Any) -> None:
    """Set only the parameters whose value changes, in one batch.

    Autoplay redraws the controls every step; most of them stay as they were,
    and even an unchanged value costs param and Panel a full round of checks.
    """
    changed = {name: value for name, value in values.items() if getattr(widget, name) != value}
    if changed:
        widget.param.update(**changed)


def guarded(model: GameModel, callback: Callable[[Any], Any]) -> Callable[[Any], None]:
    """Run a click's callback; if it fails, show the error on the page and keep the session going."""

    def run(event: Any) -> None:
        try:
            callback(event)
        except Exception as exc:  # a bug must not end the session: say so and carry on
            logging.getLogger("laspoly.ui").exception("a dashboard callback failed")
            model.message = model.t("msg.went_wrong", error=f"{type(exc).__name__}: {str(exc)[:200]}")
            model.redraw()

    return run


def esc(text: Any) -> str:
    """Text for HTML: every name a person typed goes through here."""
    return html.escape(str(text), quote=True)


def player_glyph(i: int) -> str:
    """A seat's token shape in its colour, as HTML (decoration: the name always goes with it)."""
    color = PLAYER_COLORS[i % len(PLAYER_COLORS)]
    glyph = MARKER_GLYPHS[PLAYER_MARKERS[i % len(PLAYER_MARKERS)]]
    return f'<span style="color:{color};font-size:1.2em" aria-hidden="true">{glyph}</span>'


def player_badge(model: GameModel, i: int) -> str:
    """A player's colour and shape with the name, as safe HTML."""
    return f"{player_glyph(i)} {esc(model.game.players[i].name)}"


def seat_words(model: GameModel, i: int) -> str:
    """Who plays a seat, in words: a person, or a bot and its temperament."""
    if model.is_person(i):
        return model.t("seat.person")
    return model.t("seat.bot", kind=model.t(f"seat.{model.seats[i]}"))


def seat_options(model: GameModel) -> dict[str, str]:
    """The choices of a seat (a person or a bot temperament) as a select's options, in the page's language."""
    return {model.t(f"seat.{kind}"): kind for kind in SEAT_CHOICES}


def words(fig: Any, title: str, x: str = "", y: str = "") -> None:
    """Set a Bokeh chart's title and axis labels (only those that changed, as :func:`assign` does)."""
    for model, value in ((fig.title, title), (fig.xaxis[0], x), (fig.yaxis[0], y)):
        attr = "text" if model is fig.title else "axis_label"
        if value and getattr(model, attr) != value:
            setattr(model, attr, value)


class TabView(Viewer):
    """A view that lives in a tab: while its tab is hidden it only notes that the game changed.

    Redrawing hidden tables and charts after every step costs the server most
    of a step under load, so the dashboard sets ``shown`` from the active tab
    and a hidden view redraws once, when it is shown again.  Outside the
    dashboard (a notebook cell) a view is always shown.
    """

    shown = param.Boolean(default=True, doc="Whether the view is on screen (its tab is the active one).")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._stale = False
        self.param.watch(self._on_shown, "shown")

    def changed(self, *_: Any) -> None:
        """The game changed: redraw now if on screen, else when shown."""
        if self.shown:
            self.refresh()
        else:
            self._stale = True

    def _on_shown(self, event: Any) -> None:
        if event.new and self._stale:
            self._stale = False
            self.refresh()

    def refresh(self) -> None:
        """Redraw the view from the model."""
        raise NotImplementedError


class LiveHTML(pn.pane.HTML):
    """An HTML pane for text that changes every step: new content sets only the page's text.

    Panel's own HTML pane, given a new ``object``, works out every property of
    its Bokeh model again (styles, stylesheets, sizes) and sets them all, which
    costs a served step about a millisecond per pane; the other properties are
    kept in step by Panel as they change, so only the text needs setting here.
    """

    def _update(self, ref: str, model: Any) -> None:
        if self.enable_streaming:  # Panel's streaming sends a text's new end; keep its own path
            super()._update(ref, model)
            return
        text = self._transform_object(self.object)["object"]
        if model.text != text:
            model.text = text


def is_served() -> bool:
    """Whether this runs in a served session (``panel serve``), not a notebook or a script."""
    return pn.state.curdoc is not None and pn.state.curdoc.session_context is not None


def base_url() -> str:
    """The page's address without its query, as phones can open it (empty outside a served page).

    A page opened at ``localhost`` gets the classroom's LAN address instead, when
    the server knows it (``laspoly serve --classroom``): see :func:`on_loopback`.
    """
    return _phone_base()[0]


def on_loopback() -> bool:
    """True when this page was opened at ``localhost`` and its links name the classroom's LAN address instead."""
    return _phone_base()[1]


def _phone_base() -> tuple[str, bool]:
    from laspoly.server.serving import advertised_lan, phone_base

    loc = pn.state.location
    if loc is None or not loc.href or not loc.href.startswith("http"):
        return "", False
    return phone_base(loc.href, advertised_lan())


class KeyShortcuts(ReactiveHTML):
    """Single-key shortcuts for the whole page, shown as a line of text; ``press`` reports each key as "<key> <time>".

    A key typed into a text box, a number box or a list is not a shortcut, nor
    one held with Ctrl, Alt or Cmd.  The widgets live in shadow roots, so the
    element typed into is the first of the event's composed path.

    ``scoped`` (a dashboard in a notebook): a key is a shortcut only when the focus is inside this component's own
    output (its outermost element, found through the shadow roots), never page-wide, and a key it takes stops
    there, so JupyterLab's command mode (where ``r`` makes a cell Raw) and other dashboards never see it.
    """

    hint = param.String(default="", doc="The shortcuts in words, shown on the page.")
    keys = param.List(default=["r", "e", "n"], doc="The keys that are shortcuts (lower case).")
    press = param.String(default="", doc="The last shortcut pressed and when, so that pressing a key twice is two changes.")
    scoped = param.Boolean(default=False, doc="Keys act only with the focus inside this component's output (a notebook).")

    _template = '<div id="hint" class="lp-keys" style="font-size:0.85em;color:#444">${hint}</div>'

    _scripts = {  # noqa: RUF012 (Panel reads these class attributes)
        "render": """
            state.onkey = (e) => {
              if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
              const target = e.composedPath()[0];
              if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
              const key = (e.key || '').toLowerCase();
              if (!data.keys.includes(key)) return;
              if (data.scoped) {
                // this output's outermost element, out of each shadow root to its host (found now: at render the
                // element is not in the page yet); a key pressed with the focus elsewhere is not this output's
                let root = view.el;
                while (root && root.getRootNode() instanceof ShadowRoot) root = root.getRootNode().host;
                if (!root || !e.composedPath().includes(root)) return;
                e.stopPropagation();  // heard first (capture, on the document), so the page's own keys never see it
                e.preventDefault();
              }
              data.press = key + ' ' + Date.now();
            };
            state.capture = !!data.scoped;
            document.addEventListener('keydown', state.onkey, state.capture);
        """,
        "remove": "document.removeEventListener('keydown', state.onkey, state.capture);",
    }


def lan_note(lang: str) -> str:
    """A paragraph saying the page was opened at ``localhost`` and its links use the LAN address instead ("" otherwise)."""
    from urllib.parse import urlsplit

    from laspoly.server.serving import advertised_lan

    if not on_loopback():
        return ""
    loc = pn.state.location
    host = (urlsplit(loc.href).hostname if loc is not None else None) or "localhost"
    text = tr("lan.note", lang, host=host, lan=advertised_lan() or "")
    return f"<p class='lp-lan-note' style='background:#fff3cd;padding:6px 8px;border-radius:4px'>{esc(text)}</p>"
