"""Log lines under systemd carry their priority, so journalctl -p err shows
the board's errors (boardctl/journald.py); anywhere else they read as before."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardctl import journald


def stream_id(path: Path) -> str:
    info = os.stat(path)
    return f"{info.st_dev}:{info.st_ino}"


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (logging.CRITICAL, 2),
        (logging.ERROR, 3),
        (logging.WARNING, 4),
        (35, 4),
        (logging.INFO, 6),
        (logging.DEBUG, 7),
    ],
)
def test_levels_map_to_syslog_priorities(level, expected):
    assert journald.priority(level) == expected


def test_every_line_of_a_traceback_is_prefixed():
    assert journald.prefixed(logging.ERROR, "boom\n  File x\nValueError") == (
        "<3>boom\n<3>  File x\n<3>ValueError"
    )


def test_only_the_stream_systemd_names_is_the_journal(tmp_path):
    path = tmp_path / "stderr"
    with open(path, "w") as stream:
        assert journald.to_journal(stream, {"JOURNAL_STREAM": stream_id(path)})
        assert not journald.to_journal(stream, {})
        assert not journald.to_journal(stream, {"JOURNAL_STREAM": "1:2"})
        assert not journald.to_journal(stream, {"JOURNAL_STREAM": "garbage"})
        other = tmp_path / "other"
        other.write_text("")
        assert not journald.to_journal(stream, {"JOURNAL_STREAM": stream_id(other)})
        # The error line is prefixed only for the journal.
        assert journald.line(logging.ERROR, "x", stream) == "x"


def run_boardctl(tmp_path: Path, *args: str, journal: bool) -> str:
    """``boardctl ARGS`` with stderr to a file, which $JOURNAL_STREAM names
    when ``journal``: what systemd does for a service."""
    err = tmp_path / "stderr"
    err.write_text("")
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    if journal:
        env["JOURNAL_STREAM"] = stream_id(err)
    with open(err, "a") as out:
        subprocess.run(
            [sys.executable, "-m", "boardctl", *args],
            stdout=subprocess.DEVNULL,
            stderr=out,
            env=env,
            check=False,
            timeout=120,
        )
    return err.read_text()


@pytest.mark.parametrize("journal", [True, False])
def test_an_error_at_start_is_filed_as_an_error_in_the_journal(tmp_path, journal):
    # A configuration that cannot start: the one line that says why.
    config = tmp_path / "config.toml"
    config.write_text('[board]\nsensors = "abacus"\n')
    text = run_boardctl(tmp_path, "run", "--config", str(config), journal=journal)
    assert "boardctl run: " in text
    assert text.startswith("<3>boardctl run: ") == journal


def test_a_log_record_is_prefixed_with_its_level_for_the_journal(tmp_path, monkeypatch):
    err = tmp_path / "stderr"
    with open(err, "w") as stream:
        root = logging.getLogger()
        handlers, level = root.handlers[:], root.level
        root.handlers = []
        try:
            monkeypatch.setenv("JOURNAL_STREAM", stream_id(err))
            journald.setup_logging("%(levelname)s %(message)s", stream)
            logging.getLogger("boardctl").warning("the board is %s", "tilted")
            logging.getLogger("boardctl").info("a move")
            for handler in root.handlers:
                handler.flush()
        finally:
            root.handlers, root.level = handlers, level
    assert err.read_text().splitlines() == ["<4>WARNING the board is tilted", "<6>INFO a move"]
