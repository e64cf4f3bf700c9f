"""The remote games on disk: the owner's file alone, each entry kept once,
a second Join of one game keeps its first key, and a journal of the first
protocol set aside rather than misread."""

from __future__ import annotations

import sqlite3
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from boardctl.remote.journal import Journal, JournalConflict, JournalError
from boardctl.remote.match import Match, new_game
from boardctl.rules import WHITE

from .helpers import Pair


def test_the_journal_is_the_owners_alone_from_the_start(tmp_path: Path):
    Journal(tmp_path / "remote.sqlite3").close()
    assert stat.S_IMODE((tmp_path / "remote.sqlite3").stat().st_mode) == 0o600


def test_an_entry_is_kept_once_and_another_under_its_number_is_refused(tmp_path: Path):
    pair = Pair.new()
    pair.play("e2e4")
    (entry,) = pair.journal.entries()
    journal = Journal(tmp_path / "remote.sqlite3")
    journal.append(entry)
    journal.append(entry)
    assert journal.entries(entry.key) == [entry]
    with pytest.raises(JournalConflict):
        journal.append(replace(entry, uci="d2d4"))


def test_a_second_join_of_one_game_keeps_its_first_key(tmp_path: Path):
    journal = Journal(tmp_path / "remote.sqlite3")
    kept = new_game("falcon", WHITE, None, "", 0.0)
    journal.create(kept)
    journal.create(replace(kept, secret="00" * 32))
    current = journal.current()
    assert current is not None and current.secret == kept.secret


def test_a_journal_of_the_first_protocol_is_set_aside(tmp_path: Path):
    path = tmp_path / "remote.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (key TEXT PRIMARY KEY, header TEXT, closed INTEGER);"
        "CREATE TABLE entries (key TEXT, seq INTEGER, body TEXT);"
        "INSERT INTO games VALUES ('00112233aabbccdd', '{}', 0);"
    )
    old.commit()
    old.close()
    journal = Journal(path)
    assert journal.current() is None
    journal.create(new_game("falcon", WHITE, None, "", 0.0))
    assert journal.current() is not None
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert {"games_v1", "entries_v1"} <= tables


def test_a_damaged_entry_is_one_clear_error(tmp_path: Path):
    journal = Journal(tmp_path / "remote.sqlite3")
    kept = new_game("falcon", WHITE, None, "", 0.0)
    journal.create(kept)
    with sqlite3.connect(tmp_path / "remote.sqlite3") as db:
        db.execute(
            'INSERT INTO entries VALUES (?, 0, 1, \'{"not": "an entry"}\')', (kept.header.key,)
        )
    with pytest.raises(JournalError, match="remote games journal: game"):
        Match(journal, kept, 0.0)
