"""The server side: where a dashboard game is played, rooms and classes in a database, and the server's limits.

``table`` (one screen or a stored room), ``rooms`` and ``roomlog`` (a game stored entry by entry),
``store`` (SQLite or PostgreSQL), ``classes`` and ``joining`` (a class and its student link),
``limits`` (what every client is held to) and ``serving`` (what ``laspoly serve`` adds to Panel's server).
The engine, the bots and the analysis never import it; the UI reaches the store only through it.
"""
