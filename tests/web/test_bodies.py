"""Every POST body is read within bounds, whatever its headers say: a hostile
client that sends compressed, truncated, deep or wide bodies to a real server
gets one clear 4xx each, and costs the board's log a bounded number of lines,
never a traceback per request."""

from __future__ import annotations

import gzip
import json
import logging
import socket
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardctl.settings import SettingsFile
from boardctl.web import server as web_server
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub, Snapshot

PIN = "864209"
REQUESTS = 101  # of each kind, as the report that found the 500s sent


@pytest.fixture
def board(tmp_path: Path) -> Iterator[WebServer]:
    hub = Hub()
    hub.publish(Snapshot(fen="start", prompt="hello"))
    path = tmp_path / "boardctl.toml"
    path.write_text(f'[web]\npin = "{PIN}"\n')
    web = WebServer(hub, host="127.0.0.1", port=0, pin=PIN, settings=SettingsFile(path))
    web.start()
    yield web
    web.stop()


def _post(path: str, body: bytes, *headers: str, cookie: str = "") -> bytes:
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        *headers,
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    if not any(h.lower().startswith("transfer-encoding") for h in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _chunked(body: bytes, size: int = 1000) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def _exchange(port: int, request: bytes) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            more = conn.recv(65536)
            if not more:
                break
            answer += more
        head, _, rest = answer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(rest) < length:
            more = conn.recv(65536)
            if not more:
                break
            rest += more
    return int(head.split()[1]), rest


def _cookie(port: int) -> str:
    body = json.dumps({"pin": PIN}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(_post("/api/login", body))
        head = conn.recv(65536).decode("latin-1")
    for line in head.split("\r\n"):
        if line.lower().startswith("set-cookie:"):
            return line.split(":", 1)[1].split(";")[0].strip()
    raise AssertionError(head)


PLAIN = b'{"note": "no PIN"}'  # whatever it reaches, it guesses no PIN
BOMB = gzip.compress(b" " * 20_000_000)  # 20 MB of spaces in about 20 kB


def hostile(cookie: str) -> dict[str, bytes]:
    """One request of each kind the report and its follow-up tried."""
    resign = b'{"kind": "resign"}'
    return {
        "gzip named, plain body": _post("/api/login", PLAIN, "Content-Encoding: gzip"),
        "gzip named, plain body, unlocked": _post(
            "/api/action", resign, "Content-Encoding: gzip", cookie=cookie
        ),
        "gzip named, plain body, locked": _post("/api/action", resign, "Content-Encoding: gzip"),
        "gzip named, settings": _post(
            "/api/settings", b"{}", "Content-Encoding: gzip", cookie=cookie
        ),
        "real gzip": _post("/api/login", gzip.compress(PLAIN), "Content-Encoding: gzip"),
        "deflate": _post("/api/login", zlib.compress(PLAIN), "Content-Encoding: deflate"),
        "brotli named": _post("/api/login", PLAIN, "Content-Encoding: br"),
        "two codings": _post("/api/login", PLAIN, "Content-Encoding: identity, gzip"),
        "gzip bomb, chunked": _post(
            "/api/login", _chunked(BOMB), "Content-Encoding: gzip", "Transfer-Encoding: chunked"
        ),
        "deep JSON": _post("/api/login", b"[" * 1000 + b"]" * 1000),
        "wide JSON": _post("/api/login", b"[" + b"0," * 1500 + b"0]"),
        "too long, chunked": _post(
            "/api/login", _chunked(b" " * 20_000 + PLAIN), "Transfer-Encoding: chunked"
        ),
    }


def test_hostile_bodies_get_a_4xx_and_cost_a_few_log_lines(board, caplog):
    caplog.set_level(logging.DEBUG)
    cookie = _cookie(board.port)
    caplog.clear()
    kinds = hostile(cookie)
    answers: dict[str, set[int]] = {}
    for name, request in kinds.items():
        for _ in range(REQUESTS):
            status, body = _exchange(board.port, request)
            answers.setdefault(name, set()).add(status)
            assert b"Traceback" not in body
    # The server is still there, and the owner still gets in.
    status, _ = _exchange(board.port, _post("/api/login", json.dumps({"pin": PIN}).encode()))
    assert status == 200
    for name, statuses in answers.items():
        assert all(400 <= s < 500 for s in statuses), (name, statuses)
    compressed = [name for name in kinds if "gzip" in name or "deflate" in name or "br" in name]
    compressed += ["two codings"]
    for name in compressed:
        if "locked" not in name or "unlocked" in name:
            assert answers[name] == {415}, (name, answers[name])
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert all(r.exc_info is None for r in lines), [r.getMessage() for r in lines]
    # At most one line per kind of fault in the minute, not one per request.
    assert len(lines) <= len(kinds), [r.getMessage() for r in lines]


def test_an_uncompressed_body_named_identity_is_read(board):
    status, body = _exchange(
        board.port,
        _post("/api/login", json.dumps({"pin": PIN}).encode(), "Content-Encoding: identity"),
    )
    assert status == 200, body


def test_the_refusal_says_why_in_one_line(board):
    status, body = _exchange(board.port, _post("/api/login", PLAIN, "Content-Encoding: gzip"))
    assert status == 415
    assert json.loads(body)["error"] == "send the body uncompressed (no Content-Encoding)"
    status, body = _exchange(board.port, _post("/api/login", b"[" * 1000 + b"]" * 1000))
    assert status == 400
    assert json.loads(body)["error"] == "the body is not JSON we accept: nested deeper than 8"


def test_a_failing_handler_logs_one_traceback_a_minute(board, caplog, monkeypatch):
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web_server, "puzzles_for", broken)
    caplog.set_level(logging.INFO)
    caplog.clear()
    get = b"GET /api/puzzles HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    statuses = {_exchange(board.port, get)[0] for _ in range(20)}
    assert statuses == {500}
    traces = [r for r in caplog.records if r.exc_info is not None]
    assert len(traces) == 1
