"""The Las Poly dashboard, for ``panel serve apps/laspoly_app.py`` (``laspoly serve``, ``make app``)."""

import panel as pn

from laspoly.ui.app import build_app

pn.extension("filedropper", sizing_mode="stretch_width", notifications=False)
build_app().servable(title="Las Poly")
