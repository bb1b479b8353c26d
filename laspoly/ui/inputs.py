"""Number widgets that check what the page sends against their own range before anything uses it.

A page's JavaScript can set any widget's value, whatever the widget shows:
1.5 in a whole-number box, 50 players on a slider that ends at 8, a speed of
1000.  Panel would pass such a value on to the game's model, which refuses it
with a traceback in the server's log.  These widgets refuse it first: a value
outside the widget's ``start``..``end``, not a finite number, or not a whole
number for a whole-number widget is dropped with one logged line, and the page
is shown the widget's value again.
"""

from __future__ import annotations

import logging
import math
from typing import Any, ClassVar

import panel as pn

log = logging.getLogger("laspoly.ui")

#: The value keys a number widget receives from the page.
_VALUE_KEYS = ("value", "value_throttled")


def checked_value(value: Any, start: float | None, end: float | None, *, whole: bool, allow_none: bool) -> tuple[bool, Any]:
    """(True, the value to use) when ``value`` fits the range (a whole float becomes an int), else (False, None)."""
    if value is None:
        return allow_none, None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False, None
    if isinstance(value, float):
        if not math.isfinite(value) or (whole and not value.is_integer()):
            return False, None
        value = int(value) if whole else value
    if (start is not None and value < start) or (end is not None and value > end):
        return False, None
    return True, value


class _RangeChecked:
    """Checks each value from the page before Panel sets it; see the module's docstring."""

    _whole: ClassVar[bool] = False
    _refused_from_page = False

    def _process_property_change(self, msg: dict[str, Any]) -> dict[str, Any]:
        msg = super()._process_property_change(msg)  # type: ignore[misc]
        for key in _VALUE_KEYS:
            if key not in msg:
                continue
            start, end = getattr(self, "start", None), getattr(self, "end", None)
            ok, value = checked_value(msg[key], start, end, whole=self._whole,
                                      allow_none=bool(self.param[key].allow_None))  # type: ignore[attr-defined]
            if ok:
                msg[key] = value
                continue
            if key == "value":  # the throttled twin of a refused value is refused silently: one line per refusal
                takes = ("whole numbers" if self._whole else "numbers") + (f" from {start}" if start is not None else "") + (
                    f" to {end}" if end is not None else "")
                log.warning("refused: %s sent from the page to %s, which takes %s", repr(msg[key])[:40], type(self).__name__, takes)
            del msg[key]
            self._refused_from_page = True
        return msg

    def _process_events(self, events: dict[str, Any]) -> None:
        super()._process_events(events)  # type: ignore[misc]
        if self._refused_from_page:  # show the page the value the widget kept
            self._refused_from_page = False
            self.param.trigger("value")  # type: ignore[attr-defined]


class IntInput(_RangeChecked, pn.widgets.IntInput):
    """Panel's ``IntInput``, taking only whole numbers within ``start``..``end`` from the page."""

    _whole = True


class IntSlider(_RangeChecked, pn.widgets.IntSlider):
    """Panel's ``IntSlider``, taking only whole numbers within ``start``..``end`` from the page."""

    _whole = True


class FloatSlider(_RangeChecked, pn.widgets.FloatSlider):
    """Panel's ``FloatSlider``, taking only finite numbers within ``start``..``end`` from the page."""
