"""The hall's view of the round, fed through a broker in memory: each
board's game as the rules core replays it, trusted only from the key the
round names, kept newest-first, and each board live or offline."""

from __future__ import annotations

import json

from boardctl.hall.broadcast import Place
from boardctl.hall.watch import BURST, Presence
from boardctl.hall.wire import HEARTBEAT, SILENT, Sealed, seal, topic
from boardctl.remote.keys import SigningKey
from boardctl.rules import Game, get_variant

from .helpers import EVENT, MemoryRound, SimBoard, board_keys, make_round, snapshot


def test_each_board_s_game_arrives_replayed_with_the_round_s_names():
    room = MemoryRound(3)
    room.boards[0].show(snapshot(["e2e4", "e7e5", "i1h3"]))
    room.boards[2].show(snapshot(["d2d4"], result="0-1", reason="resignation"))
    room.deliver()
    one, two, three = room.watch.tables
    assert one.sans == ["e4", "e5", "Nh3"] and one.presence is Presence.LIVE
    assert (one.white, one.black) == ("White 1", "Black 1")  # the organiser's, not the board's
    assert two.state is None and two.presence is Presence.WAITING
    assert (three.result, three.reason) == ("0-1", "resignation")
    assert room.watch.changed == {1, 3}


def test_the_running_clock_counts_down_on_the_hall_s_clock_from_the_state_s_reading():
    room = MemoryRound(1)
    room.boards[0].show(snapshot(["e2e4", "e7e5"]))  # White's clock runs: 299 at the move
    room.deliver(0.0)
    table = room.watch.tables[0]
    assert (table.clock("white", room.now), table.clock("black", room.now)) == (299, 299)
    assert table.clock("white", room.now + 10.5) == 289 and table.clock("black", 99.0) == 299


def test_a_takeback_cuts_the_moves_back_and_a_new_game_starts_afresh():
    room = MemoryRound(1)
    board = room.boards[0]
    board.show(snapshot(["e2e4", "e7e5", "d2d4"]))
    room.deliver()
    board.show(snapshot(["e2e4", "e7e5"]))
    room.deliver()
    table = room.watch.tables[0]
    assert table.sans == ["e4", "e5"] and table.game is not None and len(table.game.moves) == 2
    board.show(snapshot(["d2d4"], game_id=2))
    room.deliver()
    assert table.sans == ["d4"]


def test_a_state_signed_by_another_key_is_refused_and_logged_once(caplog):
    room = MemoryRound(1)
    room.boards[0].show(snapshot(["e2e4"]))
    room.deliver()
    forger = SimBoard(1, lambda will: room.bus.client(), key=SigningKey())
    for moves in (["f2f4"], ["g2g4"], ["h2h4"]):
        forger.show(snapshot(moves))
    room.deliver()
    table = room.watch.tables[0]
    assert table.sans == ["e4"]  # the forger's word changed nothing
    assert caplog.text.count("another key than the round's") == 1


def test_an_older_state_replayed_by_the_broker_changes_nothing():
    room = MemoryRound(1)
    board = room.boards[0]
    board.show(snapshot(["e2e4"]))
    old = room.bus.retained[topic(EVENT, "table-1", "state")]
    board.show(snapshot(["e2e4", "e7e5"]))
    room.deliver()
    room.bus.deliver(topic(EVENT, "table-1", "state"), old, retain=False)
    room.deliver()
    assert room.watch.tables[0].sans == ["e4", "e5"]


def test_an_illegal_move_is_refused_whole_and_the_game_stays_as_it_was():
    room = MemoryRound(1)
    board = room.boards[0]
    board.show(snapshot(["e2e4"]))
    room.deliver()
    key = board_keys()[0]
    body = {**json.loads(room.bus.retained[topic(EVENT, "table-1", "state")])["body"]}
    body["moves"] = "e2e4 e7e5 e1e8"  # the king across the board
    forged = Sealed("state", EVENT, "table-1", key.public, "0" * 16, 9, 2**52, body)
    room.bus.deliver(topic(EVENT, "table-1", "state"), seal(key, forged), retain=True)
    room.deliver()
    table = room.watch.tables[0]
    assert table.sans == ["e4"] and table.game is not None and len(table.game.moves) == 1
    assert "e1e8" in table.refused


def test_a_game_of_another_round_or_board_is_not_this_round_s():
    room = MemoryRound(2)
    room.boards[0] = SimBoard(
        1, lambda will: room.bus.client(), place=Place(EVENT, "table-1", round=2)
    )
    room.boards[1] = SimBoard(
        2, lambda will: room.bus.client(), place=Place(EVENT, "table-2", number=5)
    )
    room.boards[0].show(snapshot(["e2e4"]))
    room.boards[1].show(snapshot(["d2d4"]))
    room.deliver()
    one, two = room.watch.tables
    assert one.state is None and "round 2, not 3" in one.refused
    assert two.state is None and "board 5, not 2" in two.refused
    assert one.presence is Presence.LIVE  # it is there, playing another game


def test_once_the_round_s_game_is_over_a_later_game_on_the_board_is_not_shown():
    room = MemoryRound(1)
    board = SimBoard(1, lambda will: room.bus.client(), place=Place(EVENT, "table-1", round=3))
    room.boards[0] = board
    board.show(snapshot(["e2e4", "e7e5"], result="1/2-1/2", reason="agreement"))
    room.deliver()
    board.show(snapshot(["d2d4"], game_id=2))
    room.deliver()
    table = room.watch.tables[0]
    assert table.sans == ["e4", "e5"] and table.result == "1/2-1/2"
    assert "after the round's ended" in table.refused


def test_a_board_that_drops_off_is_offline_until_it_speaks_again():
    room = MemoryRound(2)
    one, two = room.boards
    one.show(snapshot(["e2e4"]))
    two.show(snapshot(["d2d4"]))
    room.deliver()
    # Board 1's connection drops: the broker publishes its last will.
    will_topic, will = room.wills[0]
    room.bus.deliver(will_topic, will, retain=True)
    room.deliver()
    assert room.watch.tables[0].presence is Presence.OFFLINE
    assert room.watch.tables[0].sans == ["e4"]  # its game stays shown
    # Board 2 just falls silent (its power cut, the will not yet sent).
    room.deliver(SILENT + 1)
    assert room.watch.tables[1].presence is Presence.OFFLINE
    two.step(HEARTBEAT)  # back: its next heartbeat
    one.show(snapshot(["e2e4", "e7e5"]))
    room.deliver()
    assert [t.presence for t in room.watch.tables] == [Presence.LIVE, Presence.LIVE]
    assert room.watch.tables[0].sans == ["e4", "e5"]


def test_a_goodbye_of_an_earlier_run_replayed_does_not_mark_a_board_offline():
    room = MemoryRound(1)
    board = room.boards[0]
    board.show(snapshot(["e2e4"]))
    room.deliver()
    stale = Sealed(
        "status", EVENT, "table-1", board_keys()[0].public, "f" * 16, 1, 1, {"online": False}
    )
    room.bus.deliver(topic(EVENT, "table-1", "status"), seal(board_keys()[0], stale), False)
    room.deliver()
    assert room.watch.tables[0].presence is Presence.LIVE


def test_a_flood_on_a_board_s_topic_is_dropped_past_its_rate_unchecked():
    room = MemoryRound(1)
    where = topic(EVENT, "table-1", "state")
    for _ in range(int(BURST) * 5):
        room.bus.deliver(where, b"{}", retain=False)
    room.deliver(0.0)
    table = room.watch.tables[0]
    assert table.dropped == int(BURST) * 4 - 1  # the newest is held for later
    assert list(table.held) == ["state"]
    assert room.watch.quiet.lines <= 2  # a line for the refused, one for the dropped


def test_a_backlog_past_the_rate_loses_no_board_s_latest_game():
    """A hall that fell behind takes a board's states all at once: past the
    rate the middle ones go unread, the newest is read as soon as the rate
    allows."""
    room = MemoryRound(1)
    game = Game(get_variant("falcon"))
    moves: list[str] = []
    for _ in range(int(BURST) + 10):
        move = sorted(game.position.legal_moves(), key=game.position.uci)[0]
        moves.append(game.position.uci(move))
        game.push(move)
        room.boards[0].show(snapshot(moves))
    room.deliver(0.0)
    table = room.watch.tables[0]
    assert len(table.sans) < len(moves)  # the rate held the newest back
    room.deliver(1.0)
    assert len(table.sans) == len(moves) and not table.held


def test_a_message_on_a_topic_not_of_the_round_is_ignored():
    rnd = make_round(1)
    room = MemoryRound(1, rnd)
    room.hall.subscribe("boardctl/hall/#")
    room.bus.deliver(f"boardctl/hall/{EVENT}/table-9/state", b"{}", retain=False)
    room.deliver()
    assert room.watch.changed == set()
