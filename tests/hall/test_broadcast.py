"""The board's broadcast, stepped on a virtual clock over a broker in
memory: the game when it changes and not faster than a few times a second,
a heartbeat, a goodbye, and nothing of a board not playing a game."""

from __future__ import annotations

import json
from typing import Any

from boardctl.hall.broadcast import MIN_GAP, Place
from boardctl.hall.wire import HEARTBEAT, Kind, unseal
from boardctl.remote.transport import Bus, MemoryTransport

from .helpers import EVENT, SimBoard, board_keys, snapshot

STATE = f"boardctl/hall/{EVENT}/table-1/state"
STATUS = f"boardctl/hall/{EVENT}/table-1/status"


class Watched(SimBoard):
    """A board of the round, and a subscriber that hears all it sends."""

    def __init__(self, bus: Bus, **options: Any) -> None:
        self.wills: list[tuple[str, bytes]] = []

        def connect(will: tuple[str, bytes]) -> MemoryTransport:
            self.wills.append(will)
            return bus.client()

        super().__init__(1, connect, **options)
        self.spy = bus.client()
        self.spy.subscribe(f"boardctl/hall/{EVENT}/#")

    def heard(self) -> list[tuple[str, dict[str, Any]]]:
        """What it sent since the last call: (kind, body), each checked."""
        out = []
        for where, raw in self.spy.take():
            kind: Kind = "state" if where == STATE else "status"
            sealed = unseal(raw, kind, EVENT, "table-1", board_keys()[0].public)
            out.append((kind, sealed.body))
        return out

    def states(self) -> list[dict[str, Any]]:
        return [body for kind, body in self.heard() if kind == "state"]


def test_the_game_is_sent_when_it_changes_retained_and_signed():
    bus = Bus()
    board = Watched(bus)
    board.step(0.0)
    assert board.heard() == [("status", {"online": True})]  # nothing published yet: no game
    board.show(snapshot(["e2e4"]))
    heard = board.heard()
    assert [kind for kind, _ in heard] == ["state"]
    assert heard[0][1]["moves"] == "e2e4"
    assert json.loads(bus.retained[STATE])["body"]["moves"] == "e2e4"  # a late hall gets it


def test_the_running_clock_alone_sends_nothing_a_move_does():
    bus = Bus()
    board = Watched(bus)
    board.show(snapshot(["e2e4"]))
    board.heard()
    for left in range(299, 290, -1):
        board.show(snapshot(["e2e4"], black_clock=float(left)))
    assert [kind for kind, _ in board.heard()] == ["status"]  # a heartbeat, no state
    board.show(snapshot(["e2e4", "e7e5"]))
    assert [body["moves"] for kind, body in board.heard() if kind == "state"] == ["e2e4 e7e5"]


def test_a_burst_of_changes_is_sent_at_most_every_min_gap_and_the_last_is_never_lost():
    bus = Bus()
    board = Watched(bus)
    board.show(snapshot(["e2e4"]))
    board.heard()
    line = ["e2e4", "e7e5", "d2d4", "d7d5", "c2c4"]
    for ply in range(2, 6):
        board.hub.publish(snapshot(line[:ply]))
        board.step(MIN_GAP / 4)
    sent = [body["moves"] for kind, body in board.heard() if kind == "state"]
    assert len(sent) <= 2  # a second of moves in MIN_GAP: one or two messages, not four
    board.step(MIN_GAP)
    sent += [body["moves"] for kind, body in board.heard() if kind == "state"]
    assert sent[-1] == " ".join(line)


def test_a_heartbeat_every_few_seconds_and_a_goodbye_left_with_the_broker():
    bus = Bus()
    board = Watched(bus)
    board.step(0.0)
    for _ in range(int(3 * HEARTBEAT)):
        board.step(1.0)
    beats = [body for kind, body in board.heard() if kind == "status"]
    assert 3 <= len(beats) <= 4 and all(beat == {"online": True} for beat in beats)
    ((topic, will),) = board.wills
    assert topic == STATUS
    assert unseal(will, "status", EVENT, "table-1", board_keys()[0].public).body == {
        "online": False
    }
    board.broadcast.close()
    assert board.heard()[-1] == ("status", {"online": False})  # said on closing too
    assert json.loads(bus.retained[STATUS])["body"] == {"online": False}


def test_a_reconnection_is_announced_at_once():
    bus = Bus()
    board = Watched(bus)
    board.step(0.0)
    board.heard()
    bus.up = False
    board.step(0.5)
    bus.up = True
    board.step(0.5)
    assert board.heard() == [("status", {"online": True})]


def test_a_board_setting_up_or_stepping_leaves_its_game_on_the_broker():
    bus = Bus()
    board = Watched(bus)
    board.show(snapshot(["e2e4", "e7e5"], result="1-0", reason="resignation"))
    for mode in ("setup", "stepping", "puzzle"):
        board.show(snapshot(["d2d4"], mode=mode))
    assert [body["moves"] for body in board.states()] == ["e2e4 e7e5"]
    assert json.loads(bus.retained[STATE])["body"]["result"] == "1-0"


def test_the_round_and_number_the_board_says_travel_with_its_game():
    bus = Bus()
    board = Watched(bus, place=Place(EVENT, "table-1", round=3, number=5))
    board.show(snapshot(["e2e4"]))
    (body,) = board.states()
    assert (body["round"], body["number"]) == (3, 5)


def test_a_game_too_long_for_one_message_goes_without_its_clock_history():
    bus = Bus()
    board = Watched(bus)
    moves = ["b1c3", "b8c6", "c3b1", "c6b8"] * 250  # 1000 plies, each with a clock
    board.show(snapshot(moves, clock=36000.0))
    (body,) = board.states()
    assert body["moves"].count(" ") == 999 and body["clocks"] == ""
    assert board.broadcast.too_large == 0
