"""Remote play against a hostile peer and a hostile broker.

Two boards meet on a broker in memory; a third party (anyone on the broker)
and the other board itself (which holds its own key) send what an attacker
would: every kind of entry forged in the victim's name, entries of its own
that claim what is not its to claim, replays, reordering, numbers far ahead,
lying statuses, oversized and deeply nested bodies, reused invitations.
Nothing forged is applied, nothing stops the real peer from being heard,
and each kind of fault costs at most a log line a minute."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

import pytest

from boardctl.remote.entry import KINDS, Entry
from boardctl.remote.exchange import STATUS_LABEL, Status, entry_json
from boardctl.remote.invite import parse_invitation, side_topic, topic
from boardctl.remote.keys import SigningKey
from boardctl.remote.transport import Bus
from boardctl.rules import BLACK, WHITE

from .twolinks import Board, Clock, joined, run


@pytest.fixture
def game(tmp_path: Path) -> tuple[Bus, Clock, Board, Board]:
    bus, clock, host, guest = joined(tmp_path)
    host.play("e2e4")
    run(clock, host, guest, seconds=0.5)
    guest.play("e7e5")
    run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == ("e2e4", "e7e5")
    return bus, clock, host, guest


def key_of(board: Board) -> SigningKey:
    assert board.link.match is not None
    return board.link.match.key


def next_entry(board: Board, side: int, kind: str, key: SigningKey, **fields: object) -> Entry:
    """The next entry of ``side``'s log as ``board`` holds it, made on its
    present state, signed with ``key``."""
    match = board.link.match
    assert match is not None
    log = match.record.logs[side]
    bare = Entry(match.game_key, side, log.n + 1, log.digest, match.record.state.id, kind)  # type: ignore[arg-type]
    return replace(bare, **fields).signed(key)


def publish(bus: Bus, where: str, data: object) -> None:
    stranger = bus.client()
    stranger.publish(where, json.dumps(data).encode() if not isinstance(data, bytes) else data)
    stranger.close()


def fields_for(kind: str) -> dict[str, object]:
    return {
        "move": {"ply": 3, "uci": "d2d4"},
        "offer": {"what": "draw"},
        "accept": {"to": 1},
        "decline": {"to": 1},
        "claim": {"what": "absence", "waited": 10_000.0},
    }.get(kind, {})


def same_game(host: Board, guest: Board) -> None:
    assert host.link.match is not None and guest.link.match is not None
    assert host.link.match.record.state.id == guest.link.match.record.state.id
    assert not host.desk.view.problem and not guest.desk.view.problem


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("victim", [WHITE, BLACK])
def test_no_entry_in_a_sides_name_is_taken_without_its_key(game, kind: str, victim: int):
    """A stranger on the broker and the other board itself, each forging an
    entry of every kind in the victim's log: refused by both boards."""
    bus, clock, host, guest = game
    boards = {WHITE: host, BLACK: guest}
    before = host.line()
    for key in (SigningKey(), key_of(boards[victim ^ 1])):
        entry = next_entry(host, victim, kind, key, **fields_for(kind))
        publish(bus, side_topic(entry.key, victim, "log"), entry_json(entry))
        run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == before
    assert host.desk.view.ending is None and guest.desk.view.ending is None
    same_game(host, guest)
    assert host.link.figures.refused == 0  # well formed, only not theirs: dropped quietly
    host.play("d2d4")  # the real players go on
    run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == (*before, "d2d4")


def test_the_other_board_cannot_resign_take_back_or_agree_for_this_one(game):
    """The hostile board writes, in its own log and with its own key, what
    would end or change the game for the other side without its word."""
    bus, clock, host, guest = game
    guest_key, match = key_of(guest), guest.link.match
    assert match is not None
    forged = [
        ("move", {"ply": 3, "uci": "d2d4"}),  # White's move, in Black's log
        ("accept", {"to": 1}),  # "yes" to White's entry 1, which is a move
        ("accept", {"to": 99}),  # to an entry White never wrote
        ("claim", {"what": "time", "waited": 10_000.0}),  # no clock runs in this game
        ("flag", {}),  # no clock of Black's runs
        ("claim", {"what": "absence", "waited": 10_000.0}),  # White is there
    ]
    for kind, fields in forged:
        entry = next_entry(guest, BLACK, kind, guest_key, **fields)
        match.record.add(entry)  # into the hostile board's own log...
        match.journal.append(entry)
        publish(bus, side_topic(entry.key, BLACK, "log"), entry_json(entry))  # ... and out
        run(clock, host, guest, seconds=0.3)
    assert host.line() == ("e2e4", "e7e5") and host.desk.view.ending is None
    # The claim of absence was valid as far as the logs go (no clock runs, and it
    # says 10,000 s): but this board was heard a moment ago, and says so.
    assert "claims this board was away 10000 s" in host.desk.view.problem


def test_replays_and_reordering_apply_each_entry_once(game):
    bus, clock, host, guest = game
    guest_key = key_of(guest)
    match = guest.link.match
    assert match is not None
    # Black's next three entries, published last first, and the old ones again.
    first = next_entry(guest, BLACK, "offer", guest_key, what="draw")
    match.record.add(first)
    second = next_entry(guest, BLACK, "offer", guest_key, what="abort")
    match.record.add(second)
    for entry in (second, first, *match.record.logs[BLACK].entries[:1], second):
        publish(bus, side_topic(entry.key, BLACK, "log"), entry_json(entry))
    run(clock, host, guest, seconds=0.5)
    assert host.desk.view.asks == ("draw", "abort")
    assert host.link.match is not None and host.link.match.record.logs[BLACK].n == 3


def test_an_entry_numbered_far_ahead_is_dropped_and_the_game_goes_on(game):
    bus, clock, host, guest = game
    match = guest.link.match
    assert match is not None
    far = replace(next_entry(guest, BLACK, "resign", key_of(guest)), n=5000).signed(key_of(guest))
    publish(bus, side_topic(far.key, BLACK, "log"), entry_json(far))
    run(clock, host, guest, seconds=0.5)
    host.play("d2d4")
    run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == ("e2e4", "e7e5", "d2d4")
    assert host.desk.view.ending is None


def test_a_forged_status_with_huge_counters_does_not_stop_the_real_peer(game):
    bus, clock, host, guest = game
    match = host.link.match
    assert match is not None
    lie = Status(match.game_key, BLACK, 10**9, "0" * 16, 10**9, "0" * 16, "0" * 16, "ab", "", "")
    stranger = SigningKey()
    forged = {**lie.body(), "t": "status", "sig": stranger.sign(STATUS_LABEL, lie.body())}
    publish(bus, side_topic(match.game_key, BLACK, "status"), forged)
    publish(bus, side_topic(match.game_key, BLACK, "status"), {**forged, "problem": "x" * 100})
    run(clock, host, guest, seconds=0.5)
    for uci, mover in (("d2d4", host), ("d7d5", guest), ("i1h3", host)):
        mover.play(uci)
        run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == ("e2e4", "e7e5", "d2d4", "d7d5", "i1h3")
    same_game(host, guest)


def test_a_board_that_signs_two_different_entries_under_one_number_stops_the_game(game):
    bus, clock, host, guest = game
    match = guest.link.match
    assert match is not None
    old = match.record.logs[BLACK].entries[-1]
    other = replace(old, uci="d7d5").signed(key_of(guest))  # the same number, another move
    publish(bus, side_topic(old.key, BLACK, "log"), entry_json(other))
    run(clock, host, guest, seconds=0.5)
    assert "two different entries" in host.desk.view.problem
    run(clock, host, guest, seconds=3.0)
    assert "stopped" in guest.desk.view.problem  # and the other side says so too


@pytest.mark.parametrize(
    "payload",
    [
        b"x" * 100_000,
        b"[" * 50_000 + b"]" * 50_000,
        b'{"t": "entry", "entry": ' * 20 + b"{}" + b"}" * 20,
        b"\xff\xfe not text",
        b'{"t": "status"}',
    ],
)
def test_oversized_deep_and_bad_bodies_cost_one_log_line_a_minute(
    game, payload: bytes, caplog: pytest.LogCaptureFixture
):
    bus, clock, host, guest = game
    match = host.link.match
    assert match is not None
    with caplog.at_level(logging.WARNING, "boardctl.remote"):
        for _ in range(200):
            publish(bus, side_topic(match.game_key, BLACK, "log"), payload)
            run(clock, host, guest, seconds=0.05)
    lines = [r for r in caplog.records if r.name == "boardctl.remote"]
    assert 1 <= len(lines) <= 2, [r.getMessage() for r in lines]  # 10 s: one line, at most two
    assert all(r.exc_info is None for r in lines)  # never a traceback
    host.play("d2d4")
    run(clock, host, guest, seconds=0.5)
    assert guest.line() == ("e2e4", "e7e5", "d2d4")


def test_a_flood_is_cut_to_a_rate_and_the_game_goes_on(game):
    bus, clock, host, guest = game
    match = host.link.match
    assert match is not None
    stranger = bus.client()
    for _ in range(2000):
        stranger.publish(side_topic(match.game_key, BLACK, "status"), b"{}")
    run(clock, host, guest, seconds=0.1)
    assert host.link.port.counts.dropped > 0
    host.play("d2d4")
    run(clock, host, guest, seconds=2.0)
    assert guest.line() == ("e2e4", "e7e5", "d2d4")


def test_a_used_invitation_and_a_wrong_proof_seat_nobody(tmp_path: Path):
    bus, clock, host, guest = joined(tmp_path)
    assert host.link.invitation() == ""  # the seat is taken: no invitation is shown
    match = host.link.match
    assert match is not None
    invitation = parse_invitation(
        f"mqtt://127.0.0.1:1/{match.game_key}?code={match.kept.invite}&host=0000000000000000"
    )
    third = Board(tmp_path / "third", bus, clock, offer_at_start=False)
    joining = third.link.join(invitation.link())
    run(clock, host, guest, third, seconds=20.0)
    assert joining.error.startswith("the offer on the broker is not the inviting board's")
    # With the right fingerprint, the secret and all: the seat is another board's.
    real = replace(invitation, host=_fingerprint(host))
    joining = third.link.join(real.link())
    run(clock, host, guest, third, seconds=3.0)
    assert "used by another board" in joining.error
    assert third.link.match is None
    same_game(host, guest)


def test_a_forged_seat_or_refusal_is_not_believed(tmp_path: Path):
    bus, clock = Bus(), Clock()
    host = Board(tmp_path / "host", bus, clock, name="Table A")
    guest = Board(tmp_path / "guest", bus, clock, offer_at_start=False)
    run(clock, host, guest, seconds=0.2)
    invitation = host.link.invitation()
    key = parse_invitation(invitation).key
    stranger = SigningKey()
    joining = guest.link.join(invitation)
    run(clock, guest, seconds=0.3)  # the host is busy: only the guest turns
    guest_match = guest.link.match
    assert guest_match is not None
    body = {"key": key, "guest_key": guest_match.key.public, "why": "used"}
    publish(bus, topic(key, "refused"), {"t": "refused", **body, "sig": stranger.sign("x", body)})
    run(clock, guest, seconds=0.3)
    assert not joining.done.is_set()
    run(clock, host, guest, seconds=1.0)  # the host answers for real
    assert joining.done.is_set() and not joining.error


def _fingerprint(board: Board) -> str:
    from boardctl.remote.keys import fingerprint

    assert board.link.match is not None
    return fingerprint(board.link.match.kept.header.host_key)


def test_a_claim_on_time_the_claimed_boards_clock_does_not_bear_out_stops_the_game(
    tmp_path: Path,
):
    _bus, clock, host, guest = joined(tmp_path, clock=(60.0, 0.0))
    for uci, mover in (("e2e4", host), ("e7e5", guest), ("d2d4", host)):
        mover.play(uci)
        run(clock, host, guest, seconds=1.0)
    match = host.link.match
    assert match is not None and guest.line() == ("e2e4", "e7e5", "d2d4")
    # The hostile host says Black's minute ran out long ago: 3 s into Black's turn.
    lie = next_entry(host, WHITE, "claim", key_of(host), what="time", waited=1000.0)
    match.record.add(lie)
    match.journal.append(lie)
    run(clock, host, guest, seconds=3.0)
    assert "claims this board's time ran out after 1000 s" in guest.desk.view.problem
    assert guest.desk.view.ending is None  # stopped, not lost


def test_a_board_cut_off_on_its_move_loses_on_the_other_boards_clock(tmp_path: Path):
    """The policy a tournament keeps: the absent side's clock runs."""
    bus, clock, host, guest = joined(tmp_path, clock=(60.0, 0.0))
    for uci, mover in (("e2e4", host), ("e7e5", guest), ("d2d4", host)):
        mover.play(uci)
        run(clock, host, guest, seconds=1.0)
    bus.up = False  # Black's board is cut off from the broker on its move
    run(clock, host, guest, seconds=70.0)
    bus.up = True
    run(clock, host, guest, seconds=5.0)
    for board in (host, guest):
        assert board.desk.view.ending == (WHITE, "time forfeit"), board.desk.view
        assert not board.desk.view.problem
