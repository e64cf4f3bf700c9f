"""A remote game from the configuration: [game] mode = "remote" builds the
daemon with its remote seat and the web server with the link."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from boardctl.config import parse_config
from boardctl.daemon import wiring
from boardctl.daemon.activity import RemoteGame
from boardctl.daemon.wiring import StartError

WAIT = 30.0  # real seconds the remote side may take to start (a loaded machine is slow)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_remote_mode_needs_the_web_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    config = parse_config({"game": {"mode": "remote"}})
    with ExitStack() as stack, pytest.raises(StartError, match="web server"):
        wiring.build(config, stack)


def test_remote_mode_offers_a_game_whose_code_the_board_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    port = free_port()
    config = parse_config(
        {
            "game": {"mode": "remote", "human": "black"},
            "web": {"enabled": True, "bind": "127.0.0.1", "port": port, "pin": "1234"},
            "remote": {"name": "Table 3", "lan_port": free_port()},
        }
    )
    with ExitStack() as stack:
        daemon = wiring.build(config, stack)
        assert (
            isinstance(daemon.activity, RemoteGame) and daemon.engine_side == 0
        )  # the other side: White
        end = time.monotonic() + WAIT
        while not daemon.activity.seat.view.code and time.monotonic() < end:
            daemon.step(time.monotonic())
            time.sleep(0.02)
        code = daemon.activity.seat.view.code
        assert len(code) == 8 and code in daemon.status().prompt
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/remote/state") as response:
            state = json.loads(response.read())
        assert state["board_colour"] == 1 and state["code"] == ""  # not for spectators
    assert (tmp_path / "remote.sqlite3").exists()  # beside the game store
