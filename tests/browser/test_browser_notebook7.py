"""Lesson 01 in Jupyter Notebook 7 (``jupyter notebook``), with PANEL_INLINE=true as ``make lab`` sets it and every
request outside the machine blocked: all cells run, the figures draw, and the player moves the live plot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_browser import jupyter, lesson_01_draws_and_its_live_plot_moves

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Jupyter Notebook 7 on loopback, over a copy of lesson 01."""
    notebook = pytest.importorskip("notebook")
    assert int(notebook.__version__.split(".")[0]) >= 7, notebook.__version__
    with jupyter(tmp_path_factory.mktemp("notebook7"), "notebook", ("01_two_dice.ipynb",)) as url:
        yield url


def test_lesson_01_runs_draws_its_figures_and_moves_its_live_plot_offline_in_notebook_7(notebook7: str, page: Any) -> None:
    lesson_01_draws_and_its_live_plot_moves(page, f"{notebook7}/notebooks/01_two_dice.ipynb", "notebook7_lesson_01.png")
