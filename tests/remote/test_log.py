"""The remote game's log: entries chained by digests, checked before they are added."""

from __future__ import annotations

from dataclasses import replace

import pytest

from boardctl.remote.log import Entry, Header, Log, LogError, replayed
from boardctl.rules import BLACK, WHITE, Termination

from .helpers import KEY, header


def played(*ucis: str) -> Log:
    log = Log(header())
    for uci in ucis:
        log.append(log.move(log.to_move() or 0, uci))
    return log


def test_moves_make_the_line_and_the_side_to_move_alternates():
    log = played("e2e4", "e7e5")
    assert log.line == ("e2e4", "e7e5")
    assert log.seq == 2 and log.plies == 2
    assert log.to_move() == WHITE
    assert [e.ply for e in log.entries] == [1, 2]


def test_the_digest_names_the_whole_game_so_far():
    a, b = played("e2e4", "e7e5"), played("e2e4", "e7e6")
    assert a.digests[1] == b.digests[1]
    assert a.digest != b.digest
    assert Log(header()).digest != Log(header(clock=(60.0, 0.0))).digest  # the header counts


def test_an_entry_is_refused_unless_it_is_the_next_from_the_side_to_move():
    log = played("e2e4")
    good = log.move(BLACK, "e7e5")
    assert log.check(good) is None
    assert "not the next" in (log.check(replace(good, seq=3)) or "")
    assert "another game" in (log.check(replace(good, prev=log.digests[0])) or "")
    assert "side to move" in (log.check(replace(good, by=WHITE)) or "")
    assert "ply" in (log.check(replace(good, ply=5)) or "")
    assert "not legal" in (log.check(log.move(BLACK, "e7e3")) or "")
    with pytest.raises(LogError):
        log.append(replace(good, by=WHITE))
    assert log.seq == 1  # nothing was added


def test_a_takeback_returns_the_asker_to_move_and_the_ply_is_played_again():
    log = played("e2e4", "e7e5", "d2d4")
    entry = log.takeback(BLACK, BLACK)  # Black asks: its move and White's reply go
    assert entry is not None and entry.ply == 1
    log.append(entry)
    assert log.line == ("e2e4",) and log.to_move() == BLACK
    log.append(log.move(BLACK, "d7d5"))
    assert log.line == ("e2e4", "d7d5") and log.seq == 5
    assert [e.ply for e in log.entries if e.kind == "move"] == [1, 2, 3, 2]


def test_a_takeback_needs_a_move_to_take_back():
    assert Log(header()).takeback(WHITE, BLACK) is None
    log = played("e2e4")
    assert "takeback to ply 1 of 1" in (log.check(replace(log.takeback(BLACK, WHITE), ply=1)) or "")


def test_endings_are_checked_and_end_the_game():
    log = played("e2e4")
    assert log.check(log.end(BLACK, Termination.AGREEMENT, WHITE)) is not None
    assert log.check(log.end(BLACK, Termination.TIME_FORFEIT, BLACK)) is not None
    assert log.check(log.end(BLACK, Termination.CHECKMATE, WHITE)) is not None
    log.append(log.end(BLACK, Termination.RESIGNATION, WHITE))  # the mover may add White's too
    assert log.to_move() is None
    assert log.ending is not None and log.ending.winner == WHITE
    assert log.check(log.move(BLACK, "e7e5")) == "the game is over"


def test_a_mate_on_the_board_ends_the_log_without_an_entry():
    log = Log(Header(KEY, start_fen="k9/1Q8/1K8/10/10/10/10/10 b - - 0 1"))
    assert log.over() is not None and log.to_move() is None
    assert log.check(log.move(BLACK, "a8a7")) == "the game is over"


def test_entries_and_headers_round_trip_through_json_and_nothing_else_is_taken():
    log = played("e2e4", "e7e5")
    for entry in log.entries:
        assert Entry.from_json(entry.to_json()) == entry
    assert replayed(log.header, list(log.entries)).digest == log.digest
    head = header(clock=(300.0, 2.0))
    assert Header.from_json(head.to_json()) == head
    good = log.entries[0].to_json()
    for bad in (
        {**good, "seq": 0},
        {**good, "seq": True},
        {**good, "kind": "teleport"},
        {**good, "by": 2},
        {**good, "uci": "e2e4; drop table"},
        {**good, "prev": "x"},
        {**good, "clock": -1},
        {**good, "extra": 1},
        [good],
    ):
        with pytest.raises(LogError):
            Entry.from_json(bad)
    for bad_header in (
        {**head.to_json(), "key": "ZZ"},
        {**head.to_json(), "variant": "nonesuch"},
        {**head.to_json(), "clock": [0, 0]},
        {**head.to_json(), "start_fen": "not a fen"},
    ):
        with pytest.raises(LogError):
            Header.from_json(bad_header)


def test_the_log_keeps_each_moves_clock_through_a_takeback() -> None:
    log = Log(Header("00112233aabbccdd", clock=(300.0, 2.0)))
    log.append(log.move(WHITE, "e2e4", 301.5))
    log.append(log.move(BLACK, "e7e5", 299.25))
    log.append(log.move(WHITE, "d2d4", 290.0))
    assert log.clocks == (301.5, 299.25, 290.0)
    log.append(log.takeback(BLACK, WHITE))
    assert log.line == ("e2e4", "e7e5") and log.clocks == (301.5, 299.25)
