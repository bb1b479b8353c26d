"""The Probability tab: this game's landings and dice against the exact answers, and a simulation lab."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

import panel as pn
import param
from bokeh.models import ColumnDataSource, Label, Span, Whisker
from bokeh.plotting import figure

from laspoly.analysis.lab import LAB_MAX_GAMES, LAB_MIN_GAMES, LabPool, LabRequestError, LabRun, check_lab_request, shared_pool
from laspoly.analysis.markov import markov
from laspoly.analysis.simulate import GameRecord, Spec
from laspoly.analysis.stats import wilson
from laspoly.bots.registry import TEMPERAMENTS
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS
from laspoly.engine.compiled import is_compiled
from laspoly.ui.common import BUTTON_CSS, FOCUS_CSS, TabView, assign, esc, is_served, words
from laspoly.ui.i18n import tr, trn
from laspoly.ui.model import GameModel
from laspoly.ui.odds import board_overlay

#: The width of a bar of the game-length chart, in player-turns.
LENGTH_BIN = 20


def game_lengths(records: list[GameRecord]) -> tuple[dict[str, list[int]], int | None, int]:
    """The game-length chart's bars (games per :data:`LENGTH_BIN` player-turns), where the round cap stopped games
    (the fewest player-turns a capped game took; None when none was) and how many it stopped.

    A game still going after the lab's round cap (:data:`~laspoly.bots.runner.DEFAULT_MAX_ROUNDS`) is won by
    net worth (L20), so capped games pile up at the cap's rounds times the players left, which the chart marks."""
    bins: dict[int, int] = {}
    for r in records:
        middle = LENGTH_BIN * (r.turns // LENGTH_BIN) + LENGTH_BIN // 2
        bins[middle] = bins.get(middle, 0) + 1
    capped = [r.turns for r in records if r.capped]
    return ({"turns": sorted(bins), "games": [bins[k] for k in sorted(bins)]}, min(capped) if capped else None, len(capped))


class ProbabilityView(TabView):
    """This game's landings against the exact chain, dice totals against two dice, and a simulation lab."""

    model = param.ClassSelector(class_=GameModel)
    board = param.Parameter()
    heat = param.Boolean(default=False, doc="Colour the board by this game's landings against the chain.")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.heat_toggle = pn.widgets.Toggle(value=False, stylesheets=[BUTTON_CSS])
        self.heat_toggle.param.watch(lambda e: setattr(self, "heat", e.new), "value")
        self.dice_source = ColumnDataSource({"total": list(range(2, 13)), "share": [0.0] * 11, "exact": [0.0] * 11})
        fig = figure(height=220, sizing_mode="stretch_width", toolbar_location=None)
        fig.vbar("total", top="share", width=0.8, source=self.dice_source, fill_color="#56B4E9")
        # the exact law as markers on each bar, as on the teacher's page: a total between two whole numbers has no probability
        fig.scatter("total", "exact", source=self.dice_source, color="#D55E00", size=11, marker="diamond")
        self.dice_fig = pn.pane.Bokeh(fig, sizing_mode="stretch_width")
        self.dice_chart = fig
        self.heat_note = pn.pane.HTML()
        self.games = pn.widgets.IntInput(value=100, start=LAB_MIN_GAMES, end=LAB_MAX_GAMES, step=50, width=120,
                                         stylesheets=[FOCUS_CSS])
        self.lab_bots = pn.widgets.MultiChoice(options=list(TEMPERAMENTS), value=["dealer", "shark", "hotelier", "industrialist"], width=360,
                                               stylesheets=[FOCUS_CSS])
        self.run_lab = pn.widgets.Button(color="primary", stylesheets=[BUTTON_CSS])
        self.lab_title = pn.pane.HTML(sizing_mode="stretch_width")
        self.progress = pn.indicators.Progress(value=0, max=100, width=300, visible=False)
        self.lab_note = pn.pane.HTML()
        self.win_source = ColumnDataSource({"bot": [], "rate": [], "low": [], "high": []})
        win_fig = figure(height=240, sizing_mode="stretch_width", x_range=list(TEMPERAMENTS),
                         toolbar_location=None, y_range=(0, 1))
        win_fig.vbar("bot", top="rate", width=0.6, source=self.win_source, fill_color="#009E73")
        win_fig.add_layout(Whisker(source=self.win_source, base="bot", upper="high", lower="low"))
        self.win_fig = win_fig
        self.len_source = ColumnDataSource({"turns": [], "games": []})
        len_fig = figure(height=220, sizing_mode="stretch_width", toolbar_location=None)
        self.len_fig = len_fig
        len_fig.vbar("turns", top="games", width=LENGTH_BIN - 2, source=self.len_source, fill_color="#E69F00")
        # the round cap: a dashed line where capped games begin, named beside it (hidden until a game is capped)
        self.cap_line = Span(location=0, dimension="height", line_color="#333333", line_dash="dashed", line_width=2, visible=False)
        self.cap_label = Label(x=0, y=8, y_units="screen", x_offset=-6, text="", text_align="right", text_font_size="12px",
                               text_color="#222222", background_fill_color="#ffffff", background_fill_alpha=0.85, visible=False)
        len_fig.add_layout(self.cap_line)
        len_fig.add_layout(self.cap_label)
        self._capped = 0
        self.run_lab.on_click(self._lab)
        self.model.param.watch(self.changed, ["version", "lang"])
        self.param.watch(lambda *_: self.refresh(), ["heat"])
        self.lab_bots.param.watch(lambda *_: self._word(), "value")  # the empty chart names the bots chosen
        self._chain_key: tuple[str, str] | None = None
        self._chain: list[float] = []
        self._lab_owner = object()  # this page's place in the server's lab queue
        self._lab_pool: LabPool | None = None
        self._lab_run: LabRun | None = None
        if is_served():  # a closed page's lab stops: its queued games are dropped
            pn.state.on_session_destroyed(lambda _ctx: self.cancel_lab())
        self.refresh()
        self.panel = pn.Column(self.heat_toggle, self.heat_note, self.dice_fig, self.lab_title,
                               pn.FlexBox(self.games, self.lab_bots, self.run_lab, flex_wrap="wrap", align_items="flex-end"),
                               self.progress, self.lab_note,
                               pn.pane.Bokeh(win_fig, sizing_mode="stretch_width"),
                               pn.pane.Bokeh(len_fig, sizing_mode="stretch_width"), sizing_mode="stretch_width")

    def changed(self, *_: Any) -> None:
        """With the heatmap on, the board shows this view's colours, so it redraws even while hidden."""
        if self.heat:
            self.refresh()
        else:
            super().changed()

    def _word(self) -> None:
        """The tab's words in the page's language: buttons, labels, chart titles and axes."""
        t = self.model.t
        assign(self.heat_toggle, label=t("prob.heatmap"))
        assign(self.games, label=t("prob.games"))
        assign(self.lab_bots, label=t("prob.bots"), options={t(f"seat.{k}"): k for k in TEMPERAMENTS})
        assign(self.run_lab, label=t("prob.run_lab"))
        engine = t("prob.engine_compiled" if is_compiled() else "prob.engine_pure")  # the build that plays the lab's games
        assign(self.lab_title, object=f"<h3 style='margin:8px 0 4px'>{esc(t('prob.lab'))}</h3><p style='margin:0'>{esc(engine)}</p>")
        words(self.dice_chart, t("prob.dice_chart"), t("prob.dice_x"), t("prob.dice_y"))
        words(self.win_fig, t("prob.win_chart"), "", t("prob.win_y"))
        words(self.len_fig, t("prob.length_chart"), t("prob.length_x"), t("prob.length_y"))
        cap = trn("prob.round_cap", self._capped, self.model.lang, rounds=DEFAULT_MAX_ROUNDS) if self._capped else ""
        if self.cap_label.text != cap:  # a Bokeh model: set only when it changes
            self.cap_label.text = cap
        factors = [t(f"seat.{k}") for k in dict.fromkeys(self.lab_bots.value)]  # the chosen bots: twelve overlap on a tablet
        if not self.win_source.data["bot"] and list(self.win_fig.x_range.factors) != factors:
            self.win_fig.x_range.factors = factors

    def _exact(self) -> list[float]:
        g = self.model.game
        key = (g.preset.id, repr(sorted(g.setup["rules"].items())))
        if key != self._chain_key:
            r = markov(g.preset.id, rules=g.setup["rules"] or None)
            self._chain, self._chain_key = [float(p) for p in r.squares], key
        return self._chain

    def refresh(self) -> None:
        """Update the dice chart and, when on, the heatmap."""
        m = self.model
        self._word()
        totals = m.dice_totals()
        n = sum(totals)
        exact = [(6 - abs(t - 7)) / 36 for t in range(2, 13)]
        self.dice_source.data = {"total": list(range(2, 13)), "share": [c / n if n else 0 for c in totals], "exact": exact}
        if self.board is None:
            return
        if self.heat:
            land = m.landings()  # per field, then "in prison": what the chain's squares and in-prison share count
            total = sum(land)
            chain = self._exact()
            heat = [math.log((c / total) / p) if total and p > 0 and c else (-1.0 if p > 0 else 0.0)
                    for c, p in zip(land[:-1], chain, strict=True)]
            self.board.refresh(heat)
            self.heat_note.object = f"<p>{esc(m.t('prob.heat_note', landings=trn('count.landings', total, m.lang)))}</p>"
        else:
            self.board.refresh(odds=board_overlay(m))
            self.heat_note.object = ""

    async def _lab(self, _: Any) -> None:
        """Play the lab's games in the server's shared lab pool, chunk by chunk, so every page keeps answering.

        The games are played in worker processes (:mod:`laspoly.analysis.lab`),
        queued fairly with other pages' labs; this coroutine only waits for news
        of each chunk, and moves the progress bar.  Panel runs it without the
        page's document lock.  Panel's own widgets (the button, the progress bar)
        may change here; the charts' Bokeh sources may not, so the result is
        drawn in a callback that Panel schedules under the lock
        (``pn.state.execute``).  A new run replaces the page's previous one.
        """
        bots = tuple(self.lab_bots.value)
        if len(bots) < 2:
            self.lab_note.object = f"<p>{esc(self.model.t('prob.two_bots'))}</p>"
            return
        try:  # the page's game box stops at its range, but a page's JavaScript can send anything
            games, bots = check_lab_request(self.games.value, bots)
        except LabRequestError as exc:
            logging.getLogger("laspoly.ui").warning("a lab run was refused: %s", exc)
            self.lab_note.object = f"<p>{esc(self.model.t('lab.refused', low=LAB_MIN_GAMES, high=LAB_MAX_GAMES))}</p>"
            return
        g = self.model.game
        spec = Spec(g.preset.id, dict(g.setup["rules"]), bots, seed=g.setup["seed"], rotate=True)
        loop = asyncio.get_running_loop()
        news: asyncio.Queue[None] = asyncio.Queue()

        def tell(_run: LabRun) -> None:  # called from the pool's thread: wake this coroutine on its own loop
            try:
                loop.call_soon_threadsafe(news.put_nowait, None)
            except RuntimeError:  # the loop has closed (the server is stopping)
                pass

        self.run_lab.disabled = True
        self.progress.visible, self.progress.value = True, 0
        run: LabRun | None = None
        try:
            self._lab_pool = shared_pool()
            run = self._lab_run = self._lab_pool.start(self._lab_owner, spec, games, on_update=tell)
            while not run.finished:
                await news.get()
                self.progress.value = int(100 * run.done / games)
            if run.error is not None:
                raise run.error
        except Exception as exc:  # a failed simulation is reported on the page; the lab stays usable
            logging.getLogger("laspoly.ui").exception("the lab failed")
            self.lab_note.object = f"<p>{esc(tr('lab.failed', self.model.lang, error=type(exc).__name__))}</p>"
            return
        finally:
            if run is None or self._lab_run is run:  # a run that was replaced leaves the page to its successor
                if run is not None and not run.finished:  # this coroutine was stopped (the server is stopping)
                    self.cancel_lab()
                self.run_lab.disabled = False
                self.progress.visible = False
        if run.cancelled:
            return
        records = run.records
        pn.state.execute(lambda: self._show_lab(bots, records), schedule=True)

    def cancel_lab(self) -> None:
        """Stop this page's lab, if one runs: its queued games are dropped (the page closed, or it starts another)."""
        if self._lab_pool is not None:
            self._lab_pool.cancel(self._lab_owner)

    def _show_lab(self, bots: tuple[str, ...], records: list[Any]) -> None:
        """Draw the lab's win rates and game lengths (changes Bokeh sources: call it under the document's lock)."""
        wins = {b: 0 for b in bots}
        seats = {b: 0 for b in bots}
        for r in records:
            wins[r.winner_bot] += 1
            for b in r.seats:
                seats[b] += 1
        names = list(dict.fromkeys(bots))
        rates = [wins[b] / seats[b] for b in names]
        cis = [wilson(wins[b], seats[b]) for b in names]
        labels = [self.model.t(f"seat.{b}") for b in names]  # the bots by their names in the page's language
        self.win_fig.x_range.factors = labels
        self.win_source.data = {"bot": labels, "rate": rates, "low": [c[0] for c in cis], "high": [c[1] for c in cis]}
        self.len_source.data, cap_at, self._capped = game_lengths(records)
        self.cap_line.location = cap_at if cap_at is not None else 0
        self.cap_label.x = cap_at if cap_at is not None else 0
        self.cap_line.visible = self.cap_label.visible = cap_at is not None
        self._word()
        self.lab_note.object = f"<p>{esc(self.model.t('prob.lab_done', games=trn('count.games', len(records), self.model.lang), seed=self.model.game.setup['seed']))}</p>"

    def __panel__(self) -> pn.viewable.Viewable:
        return self.panel
