"""The board's broadcast as the configuration turns it on, and a board at
home with none: nothing of it runs, and the page is as it was."""

from __future__ import annotations

import json
import logging
import socket
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from boardctl.config import Config, parse_config
from boardctl.daemon import wiring
from boardctl.hall.boardkey import key_path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _two_players(port: int, **more: dict[str, object]) -> Config:
    """Two players at the board, its page on ``port``, and the tables in ``more``."""
    return parse_config(
        {
            "game": {"mode": "two-players"},
            "web": {"enabled": True, "bind": "127.0.0.1", "port": port},
            **more,
        }
    )


def _play(daemon: wiring.Daemon, moves: list[tuple[str, str]]) -> None:
    board, geo, now = daemon.hw.sensors, daemon.game.position.geometry, daemon.now
    for frm, to in moves:
        for square, action in ((frm, "lift"), (to, "place")):
            getattr(board, action)(geo.parse_square(square))
            for _ in range(60):
                now += 0.01
                daemon.step(now)


def _state(port: int) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
        return dict(json.load(response))


def test_a_board_whose_broker_is_out_of_reach_plays_and_serves_its_page_as_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    port = _free_port()
    # Nothing listens there: the broadcast waits for it on its own thread.
    broker = f"mqtt://127.0.0.1:{_free_port()}"
    config = _two_players(port, hall={"broker": broker, "event": "open", "board": "t1"})
    with caplog.at_level(logging.INFO), ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)
        _play(daemon, [("e2", "e4"), ("e7", "e5")])
        assert _state(port)["moves"] == ["e2e4", "e7e5"]
    assert key_path(tmp_path).stat().st_mode & 0o777 == 0o600
    assert "broadcasting as t1 of open" in caplog.text


def test_a_board_with_no_hall_starts_no_broadcast_and_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    port = _free_port()
    config = _two_players(port)
    with ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)
        _play(daemon, [("d2", "d4")])
        assert _state(port)["moves"] == ["d2d4"]
    assert not key_path(tmp_path).exists()
    # Without a page either, nothing is published at all: the daemon as before.
    with ExitStack() as stack:
        daemon = wiring.build(parse_config({"game": {"mode": "two-players"}}), stack, now=0.0)
        assert daemon.page is None


def test_a_broker_without_event_and_board_broadcasts_nothing_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    config = parse_config({"hall": {"broker": "mqtt://127.0.0.1:1"}})
    with ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)
        assert daemon.page is None
    assert "broadcasts nothing" in caplog.text and not key_path(tmp_path).exists()
