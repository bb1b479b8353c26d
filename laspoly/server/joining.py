"""Joining a class from its student link: the game's room, stored in the class at once, under a name new in the class.

The page (:mod:`laspoly.ui.join`) checks the name and the number of players; this
module makes the room: it refuses a person's name already playing in the class
(compared by :func:`~laspoly.engine.state.name_key`, :func:`~laspoly.server.classes.class_names`),
and stores the room at once, so the teacher's list shows the name before the first move.
The names are held in the database (:meth:`~laspoly.server.store.Store.claim_names`), so two devices
joining with one name at the same moment get one room, and the other a :class:`NameTaken`.
"""

from __future__ import annotations

from collections.abc import Sequence

from laspoly.engine.game import Game
from laspoly.engine.state import name_key
from laspoly.errors import LaspolyError
from laspoly.server.classes import class_names
from laspoly.server.rooms import RoomTable, new_owner_key, open_room
from laspoly.server.store import Store
from laspoly.server.table import PERSON


class NameTaken(LaspolyError):
    """A person's name that is already playing in the class."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is already playing in this class")
        self.name = name


def join_class(store: Store, code: str, game: Game, seats: Sequence[str], lang: str = "en") -> RoomTable:
    """Store ``game`` in a new room of the class ``code``, owned by a new key; :class:`NameTaken` if a person's name is taken."""
    known = class_names(store, code)
    people = [player.name for player, kind in zip(game.players, seats, strict=True) if kind == PERSON]
    for name in people:
        if name_key(name) in known:
            raise NameTaken(name)
    table = open_room(store, game, seats, new_owner_key(), lang, class_code=code, stored=False)
    if not store.claim_names(code, table.room_id, [name_key(name) for name in people]):
        held = store.held_names(code)  # the name another device took a moment ago
        raise NameTaken(next((n for n in people if name_key(n) in held), people[0]))
    try:
        table.keep()
    except BaseException:
        store.release_names(table.room_id)
        raise
    return table
