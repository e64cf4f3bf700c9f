"""A guest cannot take the page over or flood it: stream seats, PIN guessing,
malformed requests, the headers on every response and the origin of actions.

The rules are driven in virtual time first (boardctl.web.guard is plain
classes of an address and a clock); then a real server on loopback is
attacked from many source addresses at once (the whole of 127.0.0.0/8 is this
machine, so each client binds its own).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from boardctl.rules import Game
from boardctl.storage.store import GameStore
from boardctl.web import guard
from boardctl.web.guard import PinGate, Seats, client_key
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub, Snapshot

PIN = "864209"


# ------------------------------------------------------------ PINs, in virtual time
def guessing(
    gate: PinGate, addresses: list[str], minutes: int, owner_probes: list[str], step: float = 0.1
) -> tuple[list[int], list[float]]:
    """Every address guesses wrong as often as the gate lets it, every
    ``step`` seconds, for ``minutes``; every 5 s the owner tries from each of
    ``owner_probes`` (right PIN, so forgiven at once).  The guesses checked
    in each minute, and the waits the owner was given."""
    checked = [0] * minutes
    owner_waits = []
    per_probe = round(5 / step)
    for tick in range(round(minutes * 60 / step)):
        now = tick * step
        for address in addresses:
            if gate.admit(address, now) == 0:
                gate.wrong(address, now)
                checked[int(now // 60)] += 1
        if tick % per_probe == 0:
            for owner in owner_probes:
                wait = gate.admit(owner, now)
                owner_waits.append(wait)
                if wait == 0:
                    gate.right(owner)
    return checked, owner_waits


@pytest.mark.parametrize("addresses", [1, 12, 500])
def test_a_guesser_gets_a_few_guesses_a_minute_however_many_addresses(addresses):
    gate = PinGate()
    checked, _ = guessing(gate, [f"10.0.{n // 250}.{n % 250}" for n in range(addresses)], 10, [])
    # Each address's own tries, once; then the slow lane for all of them together.
    assert checked[0] <= addresses * guard.OWN_TRIES + guard.SLOW_CHECKS
    assert all(count <= guard.SLOW_CHECKS for count in checked[1:]), checked
    assert sum(checked[1:]) >= 1 or addresses == 1  # slowed, not shut


def test_the_owner_is_never_locked_out_by_a_guesser():
    gate = PinGate()
    mistyped = "192.168.1.50"
    gate.wrong(mistyped, 0.0)  # the owner's phone mistyped once, just before
    _, waits = guessing(
        gate, [f"192.168.1.{n}" for n in range(100, 112)], 10, ["192.168.1.7", mistyped]
    )
    assert waits and all(wait == 0 for wait in waits)


def _addresses(count: int) -> list[str]:
    return [f"10.{n // 65536}.{n // 256 % 256}.{n % 256}" for n in range(count)]


@pytest.mark.parametrize("addresses", [guard.TRACKED_ADDRESSES + 1, 5000])
def test_more_addresses_than_the_gate_holds_get_no_guesses_back(addresses):
    gate = PinGate()
    owner = "192.168.1.7"
    assert gate.admit(owner, 0.0) == 0
    gate.right(owner)  # the owner's phone, unlocked before the attack
    checked, waits = guessing(gate, _addresses(addresses), 4, [owner], step=2.0)
    # As the module docstring says: the table's worth of own tries, once,
    # then the slow lane; a forgotten address is not forgiven.
    assert checked[0] <= guard.TRACKED_ADDRESSES * guard.OWN_TRIES + guard.SLOW_CHECKS
    assert all(count <= guard.SLOW_CHECKS for count in checked[1:]), checked
    assert waits and all(wait == 0 for wait in waits)
    # A device the board has never seen shares the slow lane while the table is full.
    assert gate.admit("192.168.1.8", 4 * 60.0 - 2.0) > 0  # the guessers took the last tick's


def test_a_trusted_address_that_guesses_wrong_is_trusted_no_more():
    gate = PinGate()
    gate.right("owner")
    for n in range(guard.TRACKED_ADDRESSES):
        gate.wrong(f"addr-{n}", 0.0)
    assert gate.admit("owner", 1.0) == 0  # trusted: checked though the table is full
    for _ in range(guard.OWN_TRIES):
        gate.wrong("owner", 1.0)
    assert gate.admit("owner", 2.0) > 0  # past its own tries, as anyone
    for n in range(guard.TRACKED_ADDRESSES):
        gate.wrong(f"next-{n}", 2.0)  # pushed out of the table by newer guessers ...
    assert "owner" not in gate._records
    # ... and not forgiven: it has no tries of its own, only the slow lane's,
    # which three newcomers take first.
    assert [gate.admit(f"new-{n}", 3.0) for n in range(guard.SLOW_CHECKS)] == [0.0] * 3
    assert gate.admit("owner", 3.0) > 0


def test_one_address_backs_off_doubling_and_is_forgiven_by_the_right_pin():
    gate = PinGate()
    now = 0.0
    for _ in range(guard.OWN_TRIES):
        assert gate.admit("a", now) == 0
        gate.wrong("a", now)
    waits = []
    for _ in range(4):
        wait = gate.admit("a", now)
        waits.append(wait)
        now += wait
        assert gate.admit("a", now) == 0
        gate.wrong("a", now)
    assert waits == [guard.BACKOFF_FIRST * 2**k for k in range(4)]
    now += gate.admit("a", now)
    assert gate.admit("a", now) == 0
    gate.right("a")
    assert gate.admit("a", now) == 0 and gate.admit("a", now) == 0


def test_wrong_pins_are_forgotten_after_a_day_and_addresses_are_bounded():
    gate = PinGate()
    for _ in range(guard.OWN_TRIES + 1):
        gate.wrong("a", 0.0)
    assert gate.admit("a", 1.0) > 0
    assert gate.admit("a", guard.REMEMBERED + guard.BACKOFF_MAX) == 0
    for n in range(guard.TRACKED_ADDRESSES + 100):
        gate.wrong(f"addr-{n}", 0.0)
    assert len(gate._records) == guard.TRACKED_ADDRESSES


def test_an_ipv6_guest_counts_as_its_network():
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:1234") == "2001:db8::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8::1")
    assert client_key("::ffff:192.168.1.9") == "192.168.1.9"
    assert client_key(None) == "?"


# ------------------------------------------------------------ seats, in virtual time
def test_a_squatter_holds_a_few_seats_and_new_addresses_always_find_one():
    seats = Seats()
    assert sum(seats.take("squatter") is None for _ in range(200)) == guard.STREAMS_PER_ADDRESS
    open_seats = guard.MAX_STREAMS - guard.STREAMS_RESERVED
    crowd = [f"10.0.0.{n}" for n in range(open_seats // guard.STREAMS_PER_ADDRESS - 1)]
    for key in crowd:  # a crowd that takes all it can
        while seats.take(key) is None:
            pass
    assert seats.total == open_seats
    assert all(seats.take(key) is not None for key in ["squatter", *crowd])
    newcomers = [f"10.0.1.{n}" for n in range(guard.STREAMS_RESERVED)]
    assert all(seats.take(key) is None for key in newcomers)  # one each, from the reserve
    assert seats.total == guard.MAX_STREAMS
    assert seats.take("10.0.2.1") is not None
    seats.give_back(newcomers[0])
    assert seats.take("10.0.2.1") is None


# ------------------------------------------------------------ a real server, many addresses
def _bind_check() -> None:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.2", 0))
        except OSError as exc:
            pytest.skip(f"cannot bind 127.0.0.2 here: {exc}")


@pytest.fixture
def server(tmp_path) -> Iterator[WebServer]:
    _bind_check()
    hub = Hub()
    hub.publish(Snapshot(fen="start", prompt="hello"))
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        store.new_game("falcon", Game().start_fen, "a", "b", "two-players", 1.7e9)
    web = WebServer(hub, host="127.0.0.1", port=0, pin=PIN, db_path=db)
    web.start()
    yield web
    web.stop()


async def _request(
    port: int, source: str, text: bytes
) -> tuple[int, dict[str, str], bytes, asyncio.StreamWriter]:
    """Send one request from ``source``; its status, headers and what came of
    the body so far (the stream is left open: the writer closes it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(text)
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:]) if k}
    body = b""
    if "content-length" in headers:
        body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
    elif headers.get("content-type", "").startswith("text/event-stream"):
        body = await asyncio.wait_for(reader.readuntil(b"event: state"), 10)
    return status, headers, body, writer


def _get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


def _login(pin: str, origin: str | None = None) -> bytes:
    body = json.dumps({"pin": pin}).encode()
    extra = f"Origin: {origin}\r\n" if origin else ""
    return (
        f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
        f"\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
    ).encode() + body


def test_a_squatter_and_a_guesser_at_once_lock_out_neither_spectators_nor_the_owner(server):
    async def attack() -> None:
        port = server.port
        # The squatter: 200 streams from one address, never read.
        squatted = []
        for _ in range(200):
            status, _, _, writer = await _request(port, "127.0.0.2", _get("/api/events"))
            squatted.append((status, writer))
        assert sum(status == 200 for status, _ in squatted) == guard.STREAMS_PER_ADDRESS
        # The guesser: wrong PINs from 12 addresses, as fast as it is answered.
        answers: list[int] = []
        for _round in range(5):
            for n in range(12):
                status, _, _, writer = await _request(port, f"127.0.1.{n + 1}", _login("000000"))
                answers.append(status)
                writer.close()
        assert answers.count(403) <= 12 * guard.OWN_TRIES + guard.SLOW_CHECKS
        assert set(answers) == {403, 429}
        # Spectators from 30 addresses all get the live state.
        watching = []
        for n in range(30):
            status, _, body, writer = await _request(port, f"127.0.2.{n + 1}", _get("/api/events"))
            assert status == 200 and b"event: state" in body
            watching.append(writer)
        # And the owner, from a device that has not guessed, gets in at once.
        status, headers, _, owner = await _request(port, "127.0.3.1", _login(PIN))
        assert status == 200 and "boardctl_session" in headers.get("set-cookie", "")
        for writer in [w for _, w in squatted] + watching + [owner]:
            writer.close()

    asyncio.run(attack())


# ------------------------------------------------------------ malformed requests
HOST = b"Host: 127.0.0.1\r\n"
MALFORMED = {
    "100 kB cookie": b"GET / HTTP/1.1\r\n" + HOST + b"Cookie: " + b"a" * 100_000 + b"\r\n\r\n",
    "100 kB header": b"GET / HTTP/1.1\r\n" + HOST + b"X-A: " + b"a" * 100_000 + b"\r\n\r\n",
    "1,000 headers": b"GET / HTTP/1.1\r\n"
    + HOST
    + b"".join(b"X-%d: 1\r\n" % i for i in range(1000))
    + b"\r\n",
    "obs-fold": b"GET / HTTP/1.1\r\n" + HOST + b"X-A: 1\r\n  folded\r\n\r\n",
    "Content-Length with Transfer-Encoding": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "no Host": b"GET / HTTP/1.1\r\n\r\n",
    "bad method": b"G@T / HTTP/1.1\r\n" + HOST + b"\r\n",
    "unknown version": b"GET / HTTP/9.9\r\n" + HOST + b"\r\n",
    "100 kB target": b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",
    "Content-Length not a number": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Content-Length: abc\r\n\r\n",
    "two Content-Lengths": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    "NUL in a header": b"GET / HTTP/1.1\r\n" + HOST + b"X-A: a\x00b\r\n\r\n",
    "bad chunk": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "space before the colon": b"GET / HTTP/1.1\r\n" + HOST + b"X-A : 1\r\n\r\n",
    "bare LF": b"GET / HTTP/1.1\n" + HOST.replace(b"\r", b"") + b"\n",
    "Transfer-Encoding gzip": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Transfer-Encoding: gzip\r\n\r\n",
    "JSON 2,048 deep": b"POST /api/login HTTP/1.1\r\n"
    + HOST
    + b"Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
    + b"[" * 2048
    + b"]" * 2048,
}


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        return conn.recv(200)


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_request_is_a_4xx_and_at_most_one_log_line(server, caplog, name):
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    answer = _raw(server.port, MALFORMED[name])
    status = int(answer.split()[1])
    assert 400 <= status < 500, answer
    _raw(server.port, _get("/api/state"))  # the server still answers, and has logged by now
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) <= 1, [r.getMessage() for r in lines]
    assert all(r.exc_info is None and "Traceback" not in r.getMessage() for r in lines)


def test_a_flood_of_malformed_requests_is_a_few_lines_with_a_count(server, caplog):
    caplog.set_level(logging.INFO)
    for _ in range(3 * guard.MALFORMED_LINES):
        _raw(server.port, MALFORMED["obs-fold"])
    _raw(server.port, _get("/api/state"))
    assert (
        len([r for r in caplog.records if "malformed" in r.getMessage()]) == guard.MALFORMED_LINES
    )


# ------------------------------------------------------------ headers and origins
PATHS = [
    "/",
    "/?view=projector",
    "/games",
    "/games/1",
    "/games/1.pgn",
    "/live.pgn",
    "/api/state",
    "/api/session",
    "/static/board.js",
    "/static/style.css",
    "/nowhere",
    "/?view=<x>",
]


def test_every_response_carries_the_security_headers(server):
    async def fetch_all() -> list[tuple[str, int, dict[str, str]]]:
        answers = []
        for path in PATHS:
            status, headers, _, writer = await _request(server.port, "127.0.0.1", _get(path))
            answers.append((path, status, headers))
            writer.close()
        for request in (_get("/api/events"), _login("wrong"), _login("x", "http://evil.test")):
            status, headers, _, writer = await _request(server.port, "127.0.0.1", request)
            answers.append((request.split(b"\r\n")[0].decode(), status, headers))
            writer.close()
        return answers

    for what, status, headers in asyncio.run(fetch_all()):
        assert headers.get("x-content-type-options") == "nosniff", what
        assert headers.get("x-frame-options") == "DENY", what
        policy = headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, what
        assert "unsafe" not in policy, what
        assert status < 500, what


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        (None, 403),  # no Origin: not a browser, checked
        ("http://127.0.0.1", 403),  # the page itself (as Host says): checked
        ("http://evil.test", 403),  # another site: refused unchecked
        ("null", 403),  # a sandboxed frame or a file
    ],
)
def test_an_action_from_another_origin_is_refused(server, origin, status):
    async def post() -> dict[str, Any]:
        _, _, body, writer = await _request(server.port, "127.0.0.1", _login("000000", origin))
        writer.close()
        return dict(json.loads(body))

    answer = asyncio.run(post())
    if origin in ("http://evil.test", "null"):
        assert answer["error"] == "actions come from this board's own page"
    else:
        assert answer["error"] == "wrong PIN"
