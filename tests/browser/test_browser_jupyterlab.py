"""Lessons 01 and 05 in JupyterLab, started as ``make lab`` starts it (copies of the lessons, PANEL_INLINE=true),
with every request outside the machine blocked: all cells run, the figures draw, the dashboard plays, and a key
pressed in JupyterLab's command mode leaves the dashboard alone and ``print`` working."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_browser import NOTEBOOK, ROOT, changes, jupyter, lesson_01_draws_and_its_live_plot_moves, open_notebook, printed, ran
from test_lessons_offline import DRAWN_CANVASES

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """JupyterLab on loopback, over copies of lessons 01 and 05 (as make lab copies them into .lab/)."""
    pytest.importorskip("jupyterlab")
    with jupyter(tmp_path_factory.mktemp("lab"), "jupyterlab", ("01_two_dice.ipynb", "05_play_las_poly.ipynb")) as url:
        yield url


def test_lesson_01_runs_and_draws_its_figures_offline_in_jupyterlab(lab: str, page: Any) -> None:
    lesson_01_draws_and_its_live_plot_moves(page, f"{lab}/lab/tree/01_two_dice.ipynb", "jupyterlab_lesson_01.png")


def test_lesson_05_dashboard_takes_a_click_during_run_all_and_command_mode_keys_leave_it_alone(lab: str, page: Any) -> None:
    page.set_viewport_size({"width": 1300, "height": 1000})
    open_notebook(page, f"{lab}/lab/tree/05_play_las_poly.ipynb")
    # a click on Roll as soon as the dashboard shows, while the later cells still run, is acted on, not dropped
    roll = page.get_by_role("button", name=re.compile(r"^Roll")).first
    board = page.locator(".jp-OutputArea-output", has=roll).locator("canvas").first  # the board, drawn by Bokeh
    roll.wait_for(state="attached", timeout=240_000)
    roll.scroll_into_view_if_needed(timeout=60_000)
    board.wait_for(timeout=120_000)
    before = board.screenshot()
    roll.click(timeout=120_000)  # the page is busy while the later cells run and draw
    ran(page)
    page.wait_for_function(f"() => ({DRAWN_CANVASES})() >= 2", timeout=120_000)
    assert printed(page, "print(any(type(e).__name__ == 'Rolled' for e in m.game.log))") == "True\n", \
        "the click made during Run All was dropped"
    changes(board, before, "the board, after a roll,")  # the token moved on the board
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ROOT / "test-output" / "jupyterlab_lesson_05.png"))

    # command mode, the focus on a cell and not in the dashboard: r is JupyterLab's, not the dashboard's
    page.evaluate(f"() => {{ const nb = {NOTEBOOK}.content; nb.activeCellIndex = 0; nb.mode = 'command';"
                  " nb.activeCell.node.focus(); }")
    page.wait_for_function(f"() => {NOTEBOOK}.content.mode === 'command'")
    logged = int(printed(page, "print(len(m.game.log))"))
    page.keyboard.press("r")
    page.wait_for_function(f"() => {NOTEBOOK}.content.activeCell.model.type === 'raw'", timeout=30_000)
    assert int(printed(page, "print(len(m.game.log))")) == logged, "r in command mode played in the dashboard"
    assert printed(page, "print('print works')") == "print works\n"
