"""The Las Poly dashboard, for ``panel serve apps/laspoly_app.py`` (``laspoly serve``, ``make app``)."""

import panel as pn

from laspoly.server.serving import quiet_closed_connection_warnings, tune_collector
from laspoly.ui.app import build_app

quiet_closed_connection_warnings()  # one "connection was closed" line per page closed early, not six
tune_collector()  # the first time only: the libraries imported are frozen, full collections come less often
pn.extension("filedropper", sizing_mode="stretch_width", notifications=False)
build_app().servable(title="Las Poly")
