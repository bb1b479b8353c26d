"""What ``laspoly serve`` adds to Panel's server: a port check first, served hosts only, a quieter log, a calmer collector.

Only the names the server serves may reach it (:func:`allowed_hosts`):
``localhost`` and ``127.0.0.1`` on its port, the address it listens on, a
classroom's LAN address, and each ``--allow-websocket-origin``.  A request
with any other ``Host`` header, the page or its websocket, gets 403
(:class:`ServedHostsOnly`), so a page served through another name that
resolves to this server (DNS rebinding) cannot load the dashboard or act in
it.  The websocket's ``Origin`` must be one of the same names.

A page closed while the server is still sending it (the dashboard arrives in
steps) makes Bokeh log "Failed sending message as connection was closed" once
for every message still queued, six for a page closed early.
:class:`ClosedConnectionFilter` keeps the first of these per page and drops the
repeats; ``laspoly serve`` and ``apps/laspoly_app.py`` (for ``panel serve``)
install it.
"""

from __future__ import annotations

import errno
import gc
import logging
import sys
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bokeh.server.auth_provider import AuthProvider
from bokeh.server.util import check_allowlist

from laspoly.errors import LaspolyError

CLOSED = "Failed sending message as connection was closed"
#: The loggers that report a message sent to a closed page: Bokeh's websocket handler, and Panel's write queue.
LOGGERS = ("bokeh.server.views.ws", "panel.io.document")
_STACK_DEPTH = 12


def check_can_listen(address: str, port: int) -> None:
    """Raise :class:`LaspolyError` if the server could not listen on ``address:port`` (taken, or no such address)."""
    from tornado.netutil import bind_sockets

    try:
        sockets = bind_sockets(port, address)  # as Tornado binds them when the server starts
    except OSError as exc:  # socket.gaierror for an unknown address is an OSError too
        hint = "; is another server running there? Choose another --port" if exc.errno == errno.EADDRINUSE else ""
        raise LaspolyError(f"cannot listen on {address}:{port}: {exc.strerror or exc}{hint}") from None
    for sock in sockets:
        sock.close()


#: Addresses that listen on every network: they are never a name a browser asks for.
_WILDCARDS = {"", "0.0.0.0", "::", "[::]", "*"}
log = logging.getLogger("laspoly.server.serving")


def allowed_hosts(address: str, port: int, lan: str | None = None, extra: Iterable[str] = ()) -> list[str]:
    """The ``host:port`` names this server answers to, lower case, in order, without repeats.

    ``localhost`` and ``127.0.0.1`` on ``port``; ``address`` unless it listens
    on every network (0.0.0.0); ``lan``, the classroom's address the server
    prints; and each of ``extra`` (``--allow-websocket-origin``) as given, a name
    without a port meaning port 80, as Bokeh reads it.  IPv6 addresses are left
    out: Bokeh's origin list cannot hold them (name the machine instead).
    """
    names = [f"localhost:{port}", f"127.0.0.1:{port}"]
    for name in (address, lan):
        name = (name or "").strip().lower()
        if name not in _WILDCARDS and ":" not in name:
            names.append(f"{name}:{port}")
    for origin in extra:
        origin = origin.strip().lower()
        if origin.count(":") > 1 or origin.startswith("["):
            continue
        names.append(origin if ":" in origin else f"{origin}:80")
    return list(dict.fromkeys(names))


def host_allowed(host: str | None, allowed: Sequence[str]) -> bool:
    """True if a request's ``Host`` header names one of ``allowed`` (no port: port 80, as a browser sends it)."""
    if not host or any(c.isspace() or c in "/@?#" for c in host):
        return False
    return check_allowlist(host.lower(), list(allowed))


class ServedHostsOnly(AuthProvider):
    """Bokeh's authentication hook, used to refuse every request whose ``Host`` is not one the server serves.

    Bokeh asks :attr:`get_user` before it builds a page or opens a websocket.
    A request for another host has no user: the page is refused with 403 (its
    "login page" is a 403), and Panel refuses the websocket's handshake with 403.
    Each refusal is logged as one line.
    """

    def __init__(self, hosts: Iterable[str]) -> None:
        self.hosts = list(hosts)
        super().__init__()

    @property
    def get_user(self) -> Callable[[Any], str | None]:
        return self._user

    @property
    def get_login_url(self) -> Callable[[Any], str]:
        return self._refuse

    def _user(self, handler: Any) -> str | None:
        request = handler.request
        if host_allowed(request.headers.get("Host"), self.hosts):
            return "guest"
        log.warning("refused: a request for host %r, which this server does not serve (it serves %s)",
                    str(request.headers.get("Host"))[:100], ", ".join(self.hosts))
        return None

    def _refuse(self, handler: Any) -> str:
        from tornado.web import HTTPError

        raise HTTPError(403, "not a host this server serves")


def sending_page(record: logging.LogRecord) -> Any:
    """The page whose message could not be sent: its Document, found on the logging call's stack, or None."""
    frame = sys._getframe(1)
    for _ in range(_STACK_DEPTH):
        if frame is None:
            return None
        local = frame.f_locals
        if frame.f_code.co_name == "send_message" and "self" in local:  # bokeh's WSHandler.send_message
            handler = local["self"]
            session = getattr(getattr(handler, "connection", None), "_session", None)
            return getattr(session, "document", None) or handler
        if frame.f_code.co_name == "_run_write_futures" and "doc" in local:  # panel.io.document
            return local["doc"]
        frame = frame.f_back
    return None


class ClosedConnectionFilter(logging.Filter):
    """Let the first "connection was closed" warning of each page through and drop the repeats.

    ``page_of`` names the page a record is about (by default found on the
    stack); a record whose page cannot be found is always let through.
    """

    def __init__(self, page_of: Callable[[logging.LogRecord], Any] = sending_page) -> None:
        super().__init__()
        self._page_of = page_of
        self._seen: weakref.WeakSet[Any] = weakref.WeakSet()  # a closed page's objects are collected, and leave it

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a repeated "connection was closed" warning of a page already reported."""
        if record.getMessage() != CLOSED:
            return True
        page = self._page_of(record)
        if page is None:
            return True
        try:
            if page in self._seen:
                return False
            self._seen.add(page)
        except TypeError:  # an object that takes no weak reference: never hide its warnings
            pass
        return True


#: What asyncio says of a task's error that nothing awaited, as it starts its log line.
UNRETRIEVED = "Task exception was never retrieved"
#: One line for a write that found its page closed (said once per write, with no traceback).
CLOSED_WRITE = "a page closed while the server was sending it an update; the update was dropped"


class UnretrievedClosedWriteFilter(logging.Filter):
    """asyncio's "Task exception was never retrieved" for a write to a closed websocket, as one line.

    A page that closes while Panel's write queue sends it an update leaves that write's task failed with
    :class:`tornado.websocket.WebSocketClosedError` (or the stream's :class:`StreamClosedError`), which
    asyncio logs with a full traceback.  Nothing is wrong with the server: the update had nowhere to go.
    The record becomes one warning line; any other unretrieved error keeps its traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if (str(record.msg).startswith(UNRETRIEVED) and exc is not None
                and type(exc).__name__ in ("WebSocketClosedError", "StreamClosedError")):
            record.msg, record.args, record.exc_info, record.exc_text = CLOSED_WRITE, None, None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_closed_connection_warnings() -> None:
    """Install :class:`ClosedConnectionFilter` on Bokeh's and Panel's loggers and :class:`UnretrievedClosedWriteFilter`
    on asyncio's (once, however often called)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ClosedConnectionFilter) for f in logger.filters):
            logger.addFilter(ClosedConnectionFilter())
    asyncio_logger = logging.getLogger("asyncio")
    if not any(isinstance(f, UnretrievedClosedWriteFilter) for f in asyncio_logger.filters):
        asyncio_logger.addFilter(UnretrievedClosedWriteFilter())


#: Full collections wait for this many collections of the middle generation (Python's default is 10).
FULL_COLLECTION_AFTER = 100
_collector_tuned = [False]


def tune_collector() -> None:
    """Keep the garbage collector's full passes from stalling every game on the server while a class arrives (once).

    Each new page makes many Python objects that live as long as the page.
    Python runs a full collection, which walks every one of them while the one
    event loop waits, whenever the long-lived objects have grown by a quarter
    (and ten middle-generation passes have run), so a class opening the
    dashboard set off several.  The objects made at start-up (the imported
    libraries) are frozen, so no pass walks them again, and full passes wait
    for ten times as many middle passes.  Closed pages' cycles are
    still collected, a little later.  It is called before the first page is
    built (by ``laspoly serve``, and by ``apps/laspoly_app.py`` the first time
    ``panel serve`` runs it); later calls do nothing, so that a page's own
    objects are never frozen.
    """
    if _collector_tuned[0]:
        return
    _collector_tuned[0] = True
    gc.collect()
    gc.freeze()
    first, middle, _ = gc.get_threshold()
    gc.set_threshold(first, middle, FULL_COLLECTION_AFTER)


#: The environment variable that tells every page the classroom's LAN address (``laspoly serve --classroom`` sets it).
LAN_ENV = "LASPOLY_LAN_ADDRESS"
#: Names a browser uses for this machine itself: no phone can reach them.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def _lan_rank(text: str) -> int | None:
    """How good an address is for phones in the room to reach (lower is better); None: never one to print."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if ip.version != 4 or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return None
    if ip in ipaddress.ip_network("172.17.0.0/16"):  # Docker's default bridge: a network inside this machine
        return None
    for rank, net in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")):
        if ip in ipaddress.ip_network(net):
            return rank
    if ip in ipaddress.ip_network("100.64.0.0/10"):  # carrier-grade NAT, VPNs: reachable from few classrooms
        return 5
    return 4 if ip.is_global else 6


def lan_address(candidates: Iterable[str]) -> str | None:
    """The address phones in the room should use, from this machine's IPv4 addresses ``candidates``; None if none fits.

    Private ranges come first (192.168/16, then 10/8, then 172.16/12), then a
    public address; loopback, link-local (169.254/16, a network with no DHCP),
    Docker's bridge (172.17/16), IPv6 and anything that is not an address are
    skipped.  Among equals, the first given wins.
    """
    ranked = [(rank, k, text.strip()) for k, text in enumerate(candidates) if (rank := _lan_rank(text)) is not None]
    return min(ranked)[2] if ranked else None


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses, as the operating system reports them, without sending a single packet.

    The address of the machine's name, and the one the OS would send from
    toward a private network: connecting a UDP socket only picks a route, it
    sends nothing.
    """
    import socket

    found: list[str] = []
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    for target in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((target, 9))  # UDP: a route is chosen, no packet leaves
                found.append(str(sock.getsockname()[0]))
        except OSError:
            pass
    return list(dict.fromkeys(found))


def advertised_lan() -> str | None:
    """The classroom's LAN address this server prints and puts in links (None: not serving a classroom)."""
    import os

    value = os.environ.get(LAN_ENV, "").strip()
    return value or None


def phone_base(href: str, lan: str | None) -> tuple[str, bool]:
    """A page's address without its query, as phones should open it; and whether the LAN address replaced the page's host.

    A page opened at ``localhost`` or ``127.0.0.1`` names this machine only for
    itself: when the server knows its LAN address, links and QR codes use that
    instead (same scheme, port and path).
    """
    from urllib.parse import urlsplit, urlunsplit

    base = href.split("?")[0].split("#")[0]
    if not lan:
        return base, False
    parts = urlsplit(base)
    if (parts.hostname or "").lower() not in LOOPBACK_NAMES:
        return base, False
    netloc = lan + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")), True
