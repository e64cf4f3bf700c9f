"""``boardctl hall``: this board's key for the organiser, and a round served
by the real command until it is told to stop."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from boardctl.cli import main
from boardctl.hall.boardkey import board_key
from boardctl.remote.keys import fingerprint

from ..remote.broker import Broker


def test_hall_key_shows_the_fingerprint_the_round_file_names(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert main(["hall", "key"]) == 0
    out = capsys.readouterr().out
    printed = re.search(r"fingerprint\s+([0-9a-f]{16})", out)
    key = board_key(tmp_path)
    assert printed is not None and key.public in out
    assert printed[1] == fingerprint(key.public)
    assert main(["hall", "key"]) == 0 and capsys.readouterr().out == out  # the same key


def test_hall_round_serves_from_the_configured_broker_until_stopped(tmp_path: Path):
    broker = Broker(tmp_path / "broker")
    try:
        config = tmp_path / "hall.toml"
        config.write_text(f'[hall]\nbroker = "{broker.url}"\n')
        rnd = tmp_path / "round5.toml"
        rnd.write_text(
            'event = "open"\nround = 5\n[[board]]\nnumber = 1\nid = "t1"\n'
            'key = "0123456789abcdef"\nwhite = "Anna"\nblack = "Ben"\n'
        )
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        hall = subprocess.Popen(
            [sys.executable, "-m", "boardctl", "hall", "--round", str(rnd), "--config",
             str(config), "--port", "0", "--bind", "127.0.0.1"],
            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env,
        )  # fmt: skip
        try:
            assert hall.stderr is not None
            line = hall.stderr.readline()
            url = re.search(r"on (http://\S+/);", line)
            assert url is not None, line
            with urllib.request.urlopen(url[1] + "api/round", timeout=60) as response:
                whole = json.load(response)
            assert whole["round"] == 5 and whole["boards"][0]["white"] == "Anna"
            hall.send_signal(signal.SIGTERM)
            assert hall.wait(60) == 0  # a child process ending at load
        finally:
            if hall.poll() is None:
                hall.kill()
                hall.wait()
        assert (tmp_path / "round5.pgn").exists()  # beside the round file, for upload
    finally:
        broker.close()


@pytest.mark.parametrize("argv", [["hall", "key", "extra"], ["hall", "--round"]])
def test_hall_arguments_that_do_not_parse_are_one_line(argv, capsys):
    assert main(argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
