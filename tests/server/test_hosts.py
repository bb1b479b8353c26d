"""Only the names the server serves reach it, and a page's websocket cannot carry more than a save file.

The real-server tests start ``laspoly serve`` on loopback and speak raw HTTP and
raw websocket handshakes to it, with forged ``Host`` and ``Origin`` headers.
"""

from __future__ import annotations

import base64
import http.client
import os
import re
import socket
import sqlite3
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from laspoly.record import MAX_SAVE_BYTES
from laspoly.server.limits import WEBSOCKET_MAX_MESSAGE_BYTES
from laspoly.server.serving import ServedHostsOnly, allowed_hosts, host_allowed

# ------------------------------------------------------------------ the list of names, unit tests


def test_a_server_on_loopback_answers_to_localhost_and_127_0_0_1_on_its_port_only() -> None:
    assert allowed_hosts("127.0.0.1", 5006) == ["localhost:5006", "127.0.0.1:5006"]
    assert allowed_hosts("localhost", 8080) == ["localhost:8080", "127.0.0.1:8080"]


def test_a_server_on_every_network_adds_no_wildcard_name_but_its_classroom_address_and_each_extra_origin() -> None:
    hosts = allowed_hosts("0.0.0.0", 5006, lan="192.168.1.20", extra=["Teacher-PC:5006", "school.example"])
    assert hosts == ["localhost:5006", "127.0.0.1:5006", "192.168.1.20:5006", "teacher-pc:5006", "school.example:80"]
    assert allowed_hosts("::", 5006) == ["localhost:5006", "127.0.0.1:5006"]


def test_a_host_header_is_compared_with_its_port_and_without_regard_to_case() -> None:
    hosts = allowed_hosts("127.0.0.1", 5006)
    assert host_allowed("LOCALHOST:5006", hosts) and host_allowed("127.0.0.1:5006", hosts)
    for forged in ("evil.example:5006", "localhost:5007", "127.0.0.2:5006", "localhost.evil.example:5006",
                   "evil.example@localhost:5006", "localhost:5006/x", "", None, "localhost"):
        assert not host_allowed(forged, hosts), forged
    assert host_allowed("school.example", allowed_hosts("0.0.0.0", 80, extra=["school.example"]))


class _Handler:
    def __init__(self, host: str) -> None:
        self.request = type("Request", (), {"headers": {"Host": host}})()


def test_the_host_check_gives_a_user_for_a_served_host_and_refuses_any_other_with_403_and_one_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    from tornado.web import HTTPError

    guard = ServedHostsOnly(allowed_hosts("127.0.0.1", 5006))
    assert guard.get_user(_Handler("127.0.0.1:5006")) == "guest"
    with caplog.at_level("WARNING", logger="laspoly.server.serving"):
        assert guard.get_user(_Handler("evil.example:5006")) is None
    assert [r.getMessage() for r in caplog.records if "evil.example" in r.getMessage()]
    with pytest.raises(HTTPError) as refused:
        guard.get_login_url(_Handler("evil.example:5006"))
    assert refused.value.status_code == 403


def test_a_save_file_of_the_limit_fits_in_one_websocket_message_even_base64_encoded() -> None:
    assert len(base64.b64encode(b"x" * MAX_SAVE_BYTES)) < WEBSOCKET_MAX_MESSAGE_BYTES < 2 * MAX_SAVE_BYTES


# ------------------------------------------------------------------ a real server on loopback


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int, Path]]:
    """``laspoly serve`` on a free loopback port: (port, process id, log file); its database is ``rooms.db`` beside the log."""
    from servers import start_server

    folder = tmp_path_factory.mktemp("hosts")
    log = folder / "server.log"
    proc, url = start_server(f"sqlite:///{folder / 'rooms.db'}", log=log)
    yield urlsplit(url).port or 0, proc.pid, log
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _page(port: int, host: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.putrequest("GET", "/", skip_host=True)
        conn.putheader("Host", host)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


def _handshake(port: int, host: str, origin: str, token: str = "") -> tuple[bytes, socket.socket]:
    """A raw websocket handshake to the page's socket: the status line, and the open socket."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    key = base64.b64encode(os.urandom(16)).decode()
    protocol = f"bokeh, {token}" if token else "bokeh"
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
                  f"Sec-WebSocket-Protocol: {protocol}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return head.split(b"\r\n")[0], sock


def _token(page: str) -> str:
    found = re.search(r'token[\\"]*:[\\"]*([A-Za-z0-9_\-.]+)', page)
    assert found, "the page carries its session's token"
    return found.group(1)


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _rooms(log: Path) -> int:
    with sqlite3.connect(log.parent / "rooms.db") as db:
        return int(db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0])


@pytest.mark.slow
def test_a_page_asked_for_under_another_host_name_is_refused_with_403_logged_and_stores_nothing(
        served: tuple[int, int, Path]) -> None:
    port, _, log = served
    rooms = _rooms(log)
    for _ in range(5):
        status, body = _page(port, f"evil.example:{port}")
        assert status == 403 and "Las Poly" not in body
    assert f"refused: a request for host 'evil.example:{port}'" in log.read_text()
    assert _rooms(log) == rooms  # no session was made, so no room


@pytest.mark.slow
def test_the_page_loads_under_localhost_and_under_127_0_0_1(served: tuple[int, int, Path]) -> None:
    port, _, _ = served
    for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
        status, body = _page(port, host)
        assert status == 200 and "Las Poly" in body, host


@pytest.mark.slow
def test_dns_rebinding_a_websocket_with_host_and_origin_both_evil_example_is_refused_with_403(
        served: tuple[int, int, Path]) -> None:
    port, _, _ = served
    status, sock = _handshake(port, f"evil.example:{port}", f"http://evil.example:{port}")
    sock.close()
    assert status.startswith(b"HTTP/1.1 403"), status


@pytest.mark.slow
def test_a_websocket_from_another_site_to_the_served_host_is_refused_with_403(served: tuple[int, int, Path]) -> None:
    port, _, _ = served
    status, sock = _handshake(port, f"127.0.0.1:{port}", f"http://evil.example:{port}")
    sock.close()
    assert status.startswith(b"HTTP/1.1 403"), status


@pytest.mark.slow
def test_the_websocket_opens_from_localhost_and_from_127_0_0_1_either_way(served: tuple[int, int, Path]) -> None:
    port, _, _ = served
    for host, origin in ((f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"), (f"localhost:{port}", f"http://localhost:{port}"),
                         (f"localhost:{port}", f"http://127.0.0.1:{port}")):
        _, page = _page(port, host)
        status, sock = _handshake(port, host, origin, _token(page))
        sock.close()
        assert status.startswith(b"HTTP/1.1 101"), (host, origin, status)


def _frame_header(length: int) -> bytes:
    """A masked, final, binary frame's header announcing ``length`` bytes of payload."""
    return bytes([0x82, 0x80 | 127]) + struct.pack(">Q", length) + os.urandom(4)


@pytest.mark.slow
def test_an_oversized_websocket_message_is_refused_as_it_arrives_and_never_buffered_whole(
        served: tuple[int, int, Path]) -> None:
    """Three save files' worth announced (Bokeh alone would take 20 MB): the server closes the socket at once (1009,
    message too big), having read next to none of it."""
    port, pid, _ = served
    host = f"127.0.0.1:{port}"
    _, page = _page(port, host)
    status, sock = _handshake(port, host, f"http://{host}", _token(page))
    assert status.startswith(b"HTTP/1.1 101"), status
    before = _rss_kb(pid)
    sock.settimeout(30)
    start = time.monotonic()
    sent, closed, size = 0, False, 3 * MAX_SAVE_BYTES
    try:
        sock.sendall(_frame_header(size))
        block = os.urandom(1 << 16)
        while sent < size and time.monotonic() - start < 60:
            sock.sendall(block)
            sent += len(block)
    except OSError:  # reset or broken pipe: the server closed the connection while the message arrived
        closed = True
    if not closed:  # all of it was written into the socket's buffers: the server must still have closed it
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except OSError:
            pass
        closed = True
    sock.close()
    assert closed and sent < size, f"{sent} bytes of {size} accepted"
    assert _rss_kb(pid) - before < 20_000, "the server's memory grew by the upload"
