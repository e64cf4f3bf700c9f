"""The first start (issue 27): ``boardctl run --config PATH`` with no file at
PATH writes one with the web page on and a new PIN, and the screen's banner
says the settings page's address and that PIN until the owner saves there."""

from __future__ import annotations

import json
import socket
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from boardctl.cli import _run_config
from boardctl.cliargs import build_parser
from boardctl.config import Config, ConfigError, load_config
from boardctl.daemon import wiring as app
from boardctl.ui.state import welcome_words
from boardctl.web.snapshot import WebAction


def run_args(path: Path):
    return build_parser().parse_args(["run", "--config", str(path)])


def test_no_file_at_the_configured_path_is_the_first_start(tmp_path):
    path = tmp_path / "config.toml"
    config, first = _run_config(run_args(path))
    # Written once every other argument is found good (tests/test_cli_refusals.py).
    assert first is not None and not path.exists()
    first.write()
    assert config == load_config(path)
    assert config.web.enabled and len(config.web.pin) == 6 and config.web.pin.isdigit()
    again, first = _run_config(run_args(path))
    assert first is None and again.web.pin == config.web.pin  # the next start is not a first one


def test_a_missing_folder_is_refused_as_before(tmp_path):
    with pytest.raises(ConfigError, match="cannot read it"):
        _run_config(run_args(tmp_path / "nowhere" / "config.toml"))
    assert not (tmp_path / "nowhere").exists()


def test_the_screen_shows_where_the_settings_are_until_the_owner_saves_them(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    path = tmp_path / "config.toml"
    path.write_text('[web]\nenabled = true\nbind = "127.0.0.1"\nport = 0\npin = "482915"\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    path.write_text(path.read_text().replace("port = 0", f"port = {port}"))
    config = load_config(path)
    with ExitStack() as stack:
        daemon = app.build(config, stack, now=0.0, first_start=True)
        words = welcome_words(f"http://127.0.0.1:{port}/", "482915")
        assert words == f"Settings: PIN 482915 at 127.0.0.1:{port}/settings"
        daemon.step(0.0)
        assert daemon.status().prompt == words
        # For the owner at the board only: not on the page, nor in its words.
        assert daemon.page is not None
        snap = daemon.page.hub.latest
        assert "482915" not in snap.prompt + snap.said + snap.status
        assert "482915" not in json.dumps(snap.to_json())
        # The page it names is there, and opens with that PIN.
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/settings") as page:
            assert page.status == 200
        login = urllib.request.Request(
            f"{base}/api/login",
            data=json.dumps({"pin": "482915"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(login) as answer:
            assert answer.status == 200
        daemon.page.hub.request(WebAction("settings", config=load_config(path)))
        daemon.step(0.1)
        assert daemon.status().prompt == ""


def test_a_start_that_is_not_the_first_shows_nothing_of_the_kind(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    with ExitStack() as stack:
        daemon = app.build(Config(), stack, now=0.0, first_start=True)  # no web page
        daemon.step(0.0)
        assert daemon.welcome is None and daemon.status().prompt == ""
