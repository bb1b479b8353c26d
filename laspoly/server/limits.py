"""Limits a classroom server holds for every client, whatever its page's JavaScript sends.

* :class:`RateLimit`: a token bucket per client address, for new pages and
  class joins.  Each client may open ``burst`` pages at once, then one more
  every ``60 / per_minute`` seconds.  It remembers at most ``max_clients``
  addresses (the least recently seen are forgotten first), so a flood of
  addresses cannot grow the server's memory.  Its clock is injectable, for tests.
* :data:`ROOM_MAX_ACTIONS`: the longest loaded game the server stores in a room.
* :data:`WEBSOCKET_MAX_MESSAGE_BYTES`: the largest message a page may send the
  server; a longer one closes its connection as it arrives, unread.

The server's own machine (loopback) is not rate limited by :func:`client_limited`:
it is the teacher's, and it runs the tests and the load benchmark.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from laspoly.record import MAX_SAVE_BYTES

#: A loaded game longer than this is refused on the server, before it is stored (the command line takes
#: up to :data:`laspoly.record.MAX_ACTIONS`).  A class period's game is a few hundred to a few thousand actions.
ROOM_MAX_ACTIONS = 20_000

#: A save file of :data:`MAX_SAVE_BYTES` fits in one message even base64-encoded (4/3 of its size), with 1 MB to
#: spare for the message's own fields; anything much larger is cut off while it arrives.
WEBSOCKET_MAX_MESSAGE_BYTES = math.ceil(MAX_SAVE_BYTES * 4 / 3) + 1_000_000


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """A token bucket per key (a client address): ``burst`` at once, then ``per_minute`` a minute."""

    def __init__(self, burst: int, per_minute: float, *, max_clients: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or per_minute <= 0 or max_clients < 1:
            raise ValueError("a rate limit needs burst >= 1, per_minute > 0 and max_clients >= 1")
        self.burst = burst
        self.per_minute = per_minute
        self.max_clients = max_clients
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()  # sessions of ``panel serve --num-threads`` may ask at once

    def allow(self, key: str) -> bool:
        """Take one token of ``key``'s bucket: False (and nothing taken) when it is empty."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.pop(key, None)
            if bucket is None:
                bucket = _Bucket(float(self.burst), now)
            else:
                refill = max(0.0, now - bucket.at) * self.per_minute / 60.0
                bucket = _Bucket(min(float(self.burst), bucket.tokens + refill), now)
            allowed = bucket.tokens >= 1.0
            if allowed:
                bucket.tokens -= 1.0
            self._buckets[key] = bucket  # the most recently seen last
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
            return allowed

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again (0 when it may now)."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                return 0.0
            tokens = min(float(self.burst), bucket.tokens + max(0.0, self._clock() - bucket.at) * self.per_minute / 60.0)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) * 60.0 / self.per_minute

    def __len__(self) -> int:
        return len(self._buckets)


def is_loopback(address: str) -> bool:
    """True for the server's own machine (127.0.0.0/8, ::1); an address that is not an IP address is not."""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


#: New pages per client: a class's worth of reloads at once, then one every two seconds.
SESSIONS = RateLimit(burst=30, per_minute=30)
#: Class joins per client (a student link opened): a few at once, then one every six seconds.
CLASS_JOINS = RateLimit(burst=10, per_minute=10)


def client_limited(limit: RateLimit, address: str | None) -> bool:
    """True when the client at ``address`` is over ``limit`` (the server's own machine, or no address, never is)."""
    if not address or is_loopback(address):
        return False
    return not limit.allow(address)
