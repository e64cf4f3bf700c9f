"""The web page from the configuration and the command line."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from boardctl.cli import _config, main
from boardctl.cliargs import build_parser
from boardctl.config import parse_config
from boardctl.daemon import services as app
from boardctl.daemon import wiring
from boardctl.rules import Game
from boardctl.storage.store import DB_NAME, GameStore
from boardctl.web.server import WebError, local_address


def test_sim_web_turns_the_page_on_and_keeps_the_web_section(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text('[web]\nport = 8123\npin = "9876"\n')
    args = build_parser().parse_args(
        ["sim", "--web", "--config", str(path), "--mode", "two-players"]
    )
    config = _config(args)
    assert config.game.mode == "two-players"  # the override rebuilds every section...
    assert (config.web.port, config.web.pin) == (8123, "9876")  # ...the web one too


def test_web_needs_the_window(capsys):
    assert main(["sim", "--web", "--headless", "--script", "x.log"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web needs the window" in err


def test_the_daemon_serves_its_page_when_the_configuration_says_so(tmp_path: Path):
    config = parse_config(
        {"game": {"mode": "two-players"}, "web": {"enabled": True, "bind": "127.0.0.1", "port": 1}}
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = replace(config, web=replace(config.web, port=port))
    with ExitStack() as stack:
        web = app.make_web(config, tmp_path / "games.sqlite")
        web.listen(stack)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session") as response:
            assert response.status == 200
        # The port is now taken: a second server says so in one line.
        with pytest.raises(WebError, match=f"cannot listen on 127.0.0.1:{port}"):
            app.make_web(config, tmp_path / "games.sqlite").listen(stack)
        assert web.hub.latest.seq == 0
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def test_the_page_listens_only_once_the_daemon_holds_the_resumed_game(tmp_path, monkeypatch):
    # A restarted program's page must not tell its new run (the settings page
    # waits for one) while the game it resumes is not yet on the page: every
    # answer of the page is made with the game there.
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    opening = ["e2e4", "e7e5"]
    with GameStore(tmp_path / DB_NAME) as store:
        game_id = store.new_game("falcon", Game().start_fen, "a", "b", "two-players", time.time())
        for ply, uci in enumerate(opening, start=1):
            store.add_move(game_id, ply, uci, time.time())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = parse_config(
        {
            "game": {"mode": "two-players"},
            "web": {"enabled": True, "bind": "127.0.0.1", "port": port},
        }
    )
    with ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)  # not one step of its loop yet
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session") as response:
            assert json.load(response)["run"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state") as response:
            state = json.load(response)
        assert (state["game_id"], state["moves"]) == (game_id, opening)
        assert daemon.game_id == game_id


def test_auto_is_an_address_of_this_machine():
    address = local_address()
    with socket.socket() as probe:
        probe.bind((address, 0))  # raises unless the address is one of ours
