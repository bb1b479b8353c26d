"""What a loaded game costs the server: storing its log in a room, and replaying it each time the room is opened.

A long bot game (eight cautious bots, about 6,700 actions) is saved, then:

* ``store, one commit per action``: the log stored as rooms stored it before (``Store.append`` per action);
* ``store, one transaction``: ``Store.append_many``, as ``open_room`` stores a loaded game now;
* ``read the save``: ``game_from_json``, the check and replay of the file a page uploads;
* ``open the room``: ``join_room``, which replays the stored log each time a link to the room is opened.

Each figure is the median of ``--repeats`` runs on a fresh SQLite database in a temporary folder, with the
store's own settings (WAL, ``synchronous=FULL``), and is also given per 20,000 actions, the server's limit
(``laspoly.server.limits.ROOM_MAX_ACTIONS``).

    python benchmarks/bench_rooms.py [--repeats 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game
from laspoly.record import game_from_json, game_to_dict
from laspoly.server.limits import ROOM_MAX_ACTIONS
from laspoly.server.rooms import join_room, open_room, seat_token
from laspoly.server.store import open_store

OWNER = "bench-owner"


def long_game() -> Game:
    """Eight cautious bots, seed 2: a legal game of about 6,700 actions."""
    game = Game([f"P{i + 1}" for i in range(8)], seed=2, max_rounds=2000)
    play_game(game, [make_bot("cautious", seed=k) for k in range(8)])
    return game


def timed(run: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``run`` in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    game = long_game()
    log = [a.as_dict() for a in game.history]
    raw = json.dumps(game_to_dict(game)).encode()
    with tempfile.TemporaryDirectory() as folder:
        counter = iter(range(10**6))

        def fresh() -> tuple[object, str]:
            store = open_store(f"sqlite:///{Path(folder) / f'rooms{next(counter)}.db'}")
            room = store.create_room(game.setup, ["person"] + ["basic"] * 7, OWNER).room.id
            return store, room

        def one_commit_each() -> None:
            store, room = fresh()
            for k, action in enumerate(log):
                store.append(room, k, action)  # type: ignore[attr-defined]

        def one_transaction() -> None:
            store, room = fresh()
            store.append_many(room, log)  # type: ignore[attr-defined]

        store = open_store(f"sqlite:///{Path(folder) / 'open.db'}")
        table = open_room(store, game, ["person"] + ["basic"] * 7, OWNER)
        secret = seat_token(OWNER, table.room_id, 0)
        figures = {
            "store, one commit per action": timed(one_commit_each, args.repeats),
            "store, one transaction": timed(one_transaction, args.repeats),
            "read the save": timed(lambda: game_from_json(raw, "game.json"), args.repeats),
            "open the room": timed(lambda: join_room(store, table.room_id, secret), args.repeats),
        }
    print(f"a save of {len(log):,} actions, {len(raw) / 1e6:.2f} MB; median of {args.repeats}")
    for name, seconds in figures.items():
        print(f"  {name:32} {seconds:8.3f} s   {seconds * ROOM_MAX_ACTIONS / len(log):8.3f} s per {ROOM_MAX_ACTIONS:,} actions")
    if args.json:
        Path(args.json).write_text(json.dumps({"actions": len(log), "bytes": len(raw), "seconds": figures}, indent=2))


if __name__ == "__main__":
    main()
