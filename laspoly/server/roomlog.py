"""A room's stored log: the actions played, and the entries that take decisions back.

A room stores every action as the next entry of its log (:mod:`laspoly.server.rooms`).
Undo in a room nobody else has joined appends one more entry, ``{"type": "undo",
"keep": N}``: from there on the game stands on the first ``N`` actions of the
game as it was, as if the later ones had never been played.  The entries are
never rewritten, so two processes, a reload and the teacher's page read the
same log and get the same game; a log with no undo entry (every room stored
before undo existed) replays exactly as before.

The game a log gives is the game *as it stands*: an undone roll is not one of
its rolls (the class's pooled dice and its CSV count the rolls of the games as
they stand, :mod:`laspoly.server.classes`).  Nothing here imports a UI library.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from laspoly.engine.game import Game
from laspoly.engine.registry import action_from_dict
from laspoly.errors import SaveFileError
from laspoly.record import replay

#: The ``type`` of a log entry that takes decisions back (no action has this name: actions are capitalised).
UNDO = "undo"


def undo_entry(keep: int) -> dict[str, Any]:
    """The log entry that takes the game back to its first ``keep`` actions."""
    return {"type": UNDO, "keep": keep}


def _keep(entry: dict[str, Any], played: int) -> int:
    """The number of actions an undo entry keeps, checked against the ``played`` ones it takes back."""
    keep = entry.get("keep")
    if set(entry) != {"type", "keep"} or not isinstance(keep, int) or isinstance(keep, bool) or not 0 <= keep <= played:
        raise SaveFileError(f"not an undo entry of a log with {played} action(s): {str(entry)[:120]}")
    return keep


def undo_keep(entry: Any, played: int) -> int | None:
    """For an undo entry, how many of the ``played`` actions it keeps (checked); None for any other entry."""
    if isinstance(entry, dict) and entry.get("type") == UNDO:
        return _keep(entry, played)
    return None


def played_actions(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions the game stands on after a log's entries, undo entries honoured."""
    actions: list[dict[str, Any]] = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("type") == UNDO:
            del actions[_keep(entry, len(actions)):]
        else:
            actions.append(entry)
    return actions


def played_count(entries: int, last_undo: tuple[int, Any] | None) -> int:
    """How many actions a game stands on, from its log's number of ``entries`` and its last undo entry (index, entry).

    An undo entry keeps the first ``keep`` actions of the game as it stood, so the game stands on
    those and every entry after it (all actions, as it is the last undo).
    """
    if last_undo is None:
        return entries
    index, entry = last_undo
    keep = undo_keep(entry, index)  # a log's undo entry keeps at most the entries before it
    return entries if keep is None else keep + entries - index - 1


def replay_log(setup: dict[str, Any], entries: Iterable[dict[str, Any]]) -> Game:
    """The game a room's stored log gives: its setup, then its actions with the undone ones left out."""
    return replay(setup, played_actions(entries))


def catch_up(game: Game, entries: Iterable[dict[str, Any]]) -> Game:
    """``game`` after the log's newer ``entries``: actions are played on it, an undo rebuilds it from its kept actions.

    Returns the game to use from now on (``game`` itself unless an entry undid something).
    """
    for entry in entries:
        if isinstance(entry, dict) and entry.get("type") == UNDO:
            keep = _keep(entry, len(game.history))
            if keep < len(game.history):
                game = replay(game.setup, list(game.history[:keep]))
        else:
            game.apply(action_from_dict(entry))
    return game
