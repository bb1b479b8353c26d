"""The projector's view and the Invite tab's codes, without a browser: what they hold and what they say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import panel as pn
import pytest

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.errors import StoreError
from laspoly.server.rooms import join_room, open_room, seat_token
from laspoly.server.store import Store, open_store
from laspoly.ui.i18n import tr
from laspoly.ui.invite import InviteView, qr_svg
from laspoly.ui.model import GameModel
from laspoly.ui.presentation import ProjectorView, this_turn_html

OWNER = "owner-key-for-tests"


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")


def _owner(store: Store, lang: str = "en", names: tuple[str, ...] = ("Ana", "Ben", "Cy")) -> GameModel:
    table = open_room(store, Game(list(names), seed=4, dice="1-3 1-2"), ["person", "person", "basic"], OWNER, lang=lang)
    return GameModel(table=table, lang=lang)


def _spectator(store: Store, owner: GameModel) -> GameModel:
    room_id = owner.table.room_id  # type: ignore[attr-defined]
    table = join_room(store, room_id, seat_token(OWNER, room_id, "view"))
    return GameModel(table=table, lang=table.lang)


def _widgets(view: Any) -> list[Any]:
    return [w for w in view.__panel__().select(pn.widgets.Widget)]


def test_the_projector_view_holds_no_widget_at_all(store: Store) -> None:
    view = ProjectorView(_spectator(store, _owner(store)))
    assert _widgets(view) == []
    assert not view.model.can_drive


def test_the_projector_follows_the_room_when_it_catches_up(store: Store) -> None:
    owner = _owner(store)
    view = ProjectorView(_spectator(store, owner))
    assert owner.act(A.Roll(0))
    view._poll()
    assert view.model.game.digest() == owner.game.digest()
    assert "Ana rolled 1 + 3 = 4" in view.turn.object and view.model.status() in view.head.object
    assert owner.game.describe(owner.game.log[-1], "en") in view.log.pane.object


def test_a_database_that_is_down_is_said_on_the_projector_and_cleared_when_it_is_back(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    view = ProjectorView(_spectator(store, _owner(store)))

    def down() -> bool:
        raise StoreError("the database is locked")

    monkeypatch.setattr(view.model.table, "sync", down)
    view._poll()
    assert "the database is locked" in view.turn.object
    monkeypatch.undo()
    view._poll()
    assert "locked" not in view.turn.object and view.model.message == ""


def test_this_turn_names_the_pot_and_escapes_a_typed_name(store: Store) -> None:
    owner = _owner(store, names=("<b>Ana</b>", "Ben", "Cy"))
    owner.act(A.Roll(0))
    text = this_turn_html(owner)
    assert f"Casino pot: {owner.game.money(owner.game.pot)}" in text and owner.game.pot > 0 and "&lt;b&gt;Ana&lt;/b&gt; rolled" in text and "<b>Ana" not in text


def test_the_projector_speaks_the_rooms_language(store: Store) -> None:
    view = ProjectorView(_spectator(store, _owner(store, lang="es")))
    assert view.model.lang == "es"
    assert tr("projector.this_turn", "es") in view.turn_heading.object and "Bote del casino" in view.turn.object


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_invite_tab_has_a_copy_button_for_every_link_in_the_pages_language(store: Store, lang: str) -> None:
    owner = _owner(store, lang=lang)
    view = InviteView(model=owner)
    copies = [w for w in _widgets(view) if isinstance(w, pn.widgets.Button)]
    assert [b.label for b in copies] == [tr("invite.copy", lang)] * len(owner.links())
    texts = " ".join(text.object for text, _ in view._rows)
    assert tr("invite.seat", lang, n=3) in texts and tr("invite.watch", lang) in texts
    assert "lp-qr" not in str([p.object for p in view.__panel__().select(pn.pane.HTML)]), \
        "no code of a bare query string: outside a served page there is no address to encode"


def test_a_seat_that_is_not_the_owners_sees_no_links(store: Store) -> None:
    owner = _owner(store)
    room_id = owner.table.room_id  # type: ignore[attr-defined]
    ben = GameModel(table=join_room(store, room_id, seat_token(OWNER, room_id, 1)))
    view = InviteView(model=ben)
    assert view._rows == [] and tr("invite.owner_only", "en") in view.intro.object


def test_a_qr_code_is_svg_with_its_title_and_quiet_zone() -> None:
    svg = qr_svg("http://127.0.0.1:5006/?room=abc&view=def", "Spectator (projector)")
    assert svg.startswith("<svg") and "<title>Spectator (projector)</title>" in svg and 'fill="#fff"' in svg
    assert qr_svg("http://127.0.0.1:5006/?room=abc&view=def", "Spectator (projector)") is svg  # made once per link
