"""The remote games on disk: entries kept once, a game read back after a restart."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from boardctl.remote.journal import Journal, JournalConflict
from boardctl.remote.log import Header, Log
from boardctl.rules import BLACK, WHITE

from .helpers import KEY, header


def test_a_game_and_its_entries_are_read_back_by_a_new_journal(tmp_path: Path):
    path = tmp_path / "remote.sqlite3"
    journal = Journal(path)
    head = header((300.0, 2.0))
    journal.create(head, "host", WHITE, "ABCDEFGH", "s3cret")
    log = Log(head)
    for uci in ("e2e4", "e7e5"):
        entry = log.move(log.to_move() or 0, uci, 299.0)
        journal.append(KEY, entry)
        journal.append(KEY, entry)  # again: nothing
        log.append(entry)
    journal.bind(KEY, 7)
    journal.seat(KEY, "browser", "Anna")
    assert journal.next_epoch(KEY) == 1
    journal.close()
    again = Journal(path)
    kept = again.current()
    assert kept is not None
    assert (kept.header, kept.role, kept.colour, kept.seat) == (head, "host", WHITE, "browser")
    assert (kept.code, kept.secret, kept.local_game) == ("ABCDEFGH", "s3cret", 7)
    assert kept.other == "Anna"
    assert again.next_epoch(KEY) == 2
    assert again.log(head).digest == log.digest
    with pytest.raises(JournalConflict):
        again.append(KEY, replace(log.entries[0], uci="d2d4"))


def test_a_new_game_closes_the_last(tmp_path: Path):
    journal = Journal(tmp_path / "remote.sqlite3")
    journal.create(header(), "host", WHITE, "AAAAAAAA", "x")
    other = Header("fedcba9876543210")
    journal.create(other, "guest", BLACK, "BBBBBBBB", "y", peer="http://10.0.0.2:8080/")
    kept = journal.current()
    assert kept is not None and kept.header.key == "fedcba9876543210"
    assert kept.seat == "board" and kept.peer == "http://10.0.0.2:8080/"
    journal.close_game("fedcba9876543210")
    assert journal.current() is None
