"""Values sent from the page are checked against their widget's range before anything uses them.

A page's JavaScript can set a widget's value to anything; Panel hands the
server such a change through the widget's ``_process_events``, as these tests do.
"""

from __future__ import annotations

import logging

import pytest

from laspoly.ui import inputs
from laspoly.ui.controls import ControlsView
from laspoly.ui.model import GameModel
from laspoly.ui.views import SetupView


def test_a_value_fits_only_within_its_range_and_a_whole_number_widget_takes_only_whole_numbers() -> None:
    check = inputs.checked_value
    assert check(5, 1, 8, whole=True, allow_none=False) == (True, 5)
    assert check(5.0, 1, 8, whole=True, allow_none=False) == (True, 5)
    assert check(2.5, 0.5, 20, whole=False, allow_none=False) == (True, 2.5)
    for bad in (1.5, 50, 0, float("nan"), float("inf"), True, "3", [3], None):
        assert check(bad, 1, 8, whole=True, allow_none=False)[0] is False, bad
    assert check(None, 0, None, whole=True, allow_none=True) == (True, None)
    assert check(-10**12, None, None, whole=True, allow_none=False) == (True, -10**12)


def _refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused:")]


def test_cash_of_one_and_a_half_sent_from_the_page_is_refused_with_one_line_and_no_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    controls = ControlsView(model=GameModel())
    with caplog.at_level(logging.WARNING):
        controls.cash._process_events({"value": 1.5})
    assert controls.cash.value == 0
    assert _refusals(caplog) == ["refused: 1.5 sent from the page to IntInput, which takes whole numbers"]
    controls.cash._process_events({"value": 30})
    assert controls.cash.value == 30


def test_fifty_players_sent_from_the_page_are_refused_and_the_player_rows_stay_as_they_were(
        caplog: pytest.LogCaptureFixture) -> None:
    setup = SetupView(model=GameModel())
    rows = len(setup.rows.objects)
    with caplog.at_level(logging.WARNING):
        setup.count._process_events({"value": 50, "value_throttled": 50})
    assert setup.count.value == 3 and len(setup.rows.objects) == rows
    assert len(_refusals(caplog)) == 1
    setup.count._process_events({"value": 5})
    assert setup.count.value == 5 and len(setup.rows.objects) == 5


def test_a_speed_of_a_thousand_sent_from_the_page_is_refused_and_the_game_keeps_its_pace(
        caplog: pytest.LogCaptureFixture) -> None:
    m = GameModel()
    controls = ControlsView(model=m)
    with caplog.at_level(logging.WARNING):
        controls.speed._process_events({"value": 1000})
        controls.speed._process_events({"value": float("nan")})
    assert m.speed == 1.0 and controls.speed.value == 1.0
    assert len(_refusals(caplog)) == 2
    controls.speed._process_events({"value": 4.0})
    assert controls.speed.value == 4.0


def test_a_refused_value_is_sent_back_to_the_page_as_the_widget_s_own_value() -> None:
    widget = inputs.IntInput(value=3, start=1, end=8)
    seen: list[int] = []
    widget.param.watch(lambda e: seen.append(e.new), "value")
    widget._process_events({"value": 99})
    assert widget.value == 3 and seen == [3]  # triggered again: Panel pushes the kept value to the page


def test_every_number_widget_the_page_can_set_checks_its_range() -> None:
    import inspect

    from laspoly.ui import controls, demonstrations, replay, views

    for module in (controls, demonstrations, replay, views):
        source = inspect.getsource(module)
        for unchecked in ("pn.widgets.IntInput(", "pn.widgets.IntSlider(", "pn.widgets.FloatSlider(", "pn.widgets.FloatInput("):
            assert unchecked not in source, f"{module.__name__} makes a {unchecked[11:-1]} that takes any value from the page"
