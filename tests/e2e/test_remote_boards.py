"""Two simulated boards play each other on one machine, headless and in real
time, each with its own daemon, web server and link, and neither reachable
by the other: they meet only at a real mosquitto.  One offers a game, the
other joins with the invitation its page gives; moves, a takeback both
agree on and a resignation pass through the broker, signed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from boardctl.daemon.activity import SettingUp
from boardctl.rules import BLACK, WHITE
from boardctl.rules.game import Termination
from boardctl.storage.store import GameStore
from boardctl.web.snapshot import WebAction

from ..remote.broker import Broker
from ..remote.client import PageClient
from ..remote.live import PIN, LiveSide, LiveThread, Options

WAIT = 30.0  # real seconds for anything to cross from one board to the other


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    running = Broker(tmp_path / "broker")
    yield running
    running.close()


@pytest.fixture
def boards(tmp_path: Path, broker: Broker) -> Iterator[tuple[LiveThread, LiveThread]]:
    host = LiveThread(
        tmp_path / "a", Options(colour=WHITE, name="Table A", clock="10+0", broker=broker.url)
    )
    guest = LiveThread(
        tmp_path / "b", Options(colour=WHITE, name="Table B", offer=False, broker=broker.url)
    )
    host.start()
    guest.start()
    yield host, guest
    guest.stop()
    host.stop()


def side(live: LiveThread) -> LiveSide:
    assert live.side is not None
    return live.side


def line(live: LiveThread) -> tuple[str, ...]:
    match = side(live).link.match
    return match.record.state.line if match is not None else ()


def moves(live: LiveThread) -> int:
    return len(side(live).daemon.game.moves)


def plays(mover: LiveThread, other: LiveThread, uci: str) -> None:
    """``mover``'s player moves; it reaches the other board, whose hand carries it out."""
    before = line(mover)
    mover.do(lambda s: s.move(uci))
    for board in (mover, other):
        board.wait_for(lambda s, b=board: line(b) == (*before, uci), f"{uci} not in the log", WAIT)
    other.wait_for(lambda s: moves(other) == len(before) + 1, f"{uci} not carried out", WAIT)


def join(host: LiveThread, guest: LiveThread) -> tuple[int, dict[str, object]]:
    host.wait_for(lambda s: bool(s.link.invitation()), "no invitation", WAIT)
    owner = PageClient(side(guest).url)
    owner.owner(PIN)
    return owner.call("api/remote/join", {"link": side(host).link.invitation()})


def test_two_boards_play_take_back_by_agreement_and_one_resigns(boards):
    host, guest = boards
    status, body = join(host, guest)
    assert (status, body.get("colour")) == (200, BLACK), body  # the host plays White
    guest.wait_for(lambda s: s.daemon.engine_side == WHITE, "the guest does not play Black")
    host.wait_for(lambda s: s.desk.view.joined, "the host does not know it was joined", WAIT)
    assert side(host).desk.view.name == "Table B" and side(guest).desk.view.name == "Table A"
    plays(host, guest, "e2e4")
    plays(guest, host, "e7e5")
    # Black's owner asks from the page to take back Black's move; White's player says yes.
    guest.do(lambda s: s.daemon.web_action(WebAction("takeback"), s.daemon.now))
    host.wait_for(lambda s: "asks to take back" in s.daemon.status().prompt, "not asked", WAIT)
    host.do(lambda s: s.press("ok"))
    for board in (host, guest):  # both boards' hands put the pawn back where it was
        board.wait_for(lambda s, b=board: line(b) == ("e2e4",), "not taken back", WAIT)
        board.wait_for(
            lambda s, b=board: moves(b) == 1 and not isinstance(s.daemon.activity, SettingUp),
            "not guided",
        )
    plays(guest, host, "d7d5")
    for board in (host, guest):  # each board's own store, read as `boardctl pgn` would
        stored = GameStore(board.folder / "games.sqlite3", create=False)
        board.wait_for(
            lambda s, b=board, g=stored: g.load(side(b).daemon.game_id).moves == ("e2e4", "d7d5"),
            "the move is not stored",
            WAIT,
        )
        stored.close()
    host.do(lambda s: s.daemon.web_action(WebAction("resign"), s.daemon.now))
    for board in (host, guest):
        board.wait_for(lambda s: s.daemon.game.ending() is not None, "the game did not end", WAIT)
        ending = side(board).daemon.game.ending()
        assert ending is not None and ending.winner == BLACK
        assert ending.termination is Termination.RESIGNATION
    states = {side(b).link.match.record.state.id for b in (host, guest)}  # type: ignore[union-attr]
    assert len(states) == 1


def test_a_used_invitation_seats_no_third_board(boards, tmp_path: Path, broker: Broker):
    host, guest = boards
    invitation = side(host).link.invitation()
    assert join(host, guest)[0] == 200
    third = LiveThread(tmp_path / "c", Options(offer=False, broker=broker.url, name="Table C"))
    third.start()
    try:
        owner = PageClient(side(third).url)
        owner.owner(PIN)
        status, body = owner.call("api/remote/join", {"link": invitation})
        assert status == 504 and "used by another board" in str(body["error"]), body
        assert side(third).link.match is None
    finally:
        third.stop()


def test_two_boards_on_one_network_play_through_the_hosts_own_broker(tmp_path: Path):
    """No broker configured: the inviting board runs mosquitto itself, and
    its invitation names its address on the network."""
    from ..remote.broker import need_mosquitto

    need_mosquitto()
    host = LiveThread(tmp_path / "a", Options(colour=WHITE, name="Table A"))
    guest = LiveThread(tmp_path / "b", Options(colour=WHITE, name="Table B", offer=False))
    host.start()
    guest.start()
    try:
        invitation = ""

        def invited(s: LiveSide) -> bool:
            nonlocal invitation
            invitation = s.link.invitation()
            return bool(invitation)

        host.wait_for(invited, "no invitation", WAIT)
        lan = side(host).link.port.lan
        assert lan is not None  # its own mosquitto
        assert f":{lan.port}/" in invitation
        status, body = join(host, guest)
        assert (status, body.get("colour")) == (200, BLACK), body
        plays(host, guest, "e2e4")
        plays(guest, host, "e7e5")
    finally:
        guest.stop()
        host.stop()
    assert not (tmp_path / "a" / "broker" / "mosquitto.log").read_text().count("Error")
