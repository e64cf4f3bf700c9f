"""What a board restarted in the middle of a remote game finds: offers,
answers and resignations are entries on disk, not state in memory, so a
restart neither loses one nor brings one back."""

from __future__ import annotations

from pathlib import Path

from boardctl.rules import BLACK, WHITE

from .twolinks import joined, met, run


def test_a_declined_offer_stays_declined_across_restarts(tmp_path: Path):
    _bus, clock, host, guest = joined(tmp_path)
    host.play("e2e4")
    run(clock, host, guest, seconds=0.5)
    host.ask("draw")
    run(clock, host, guest, seconds=0.5)
    assert guest.desk.view.asks == ("draw",)
    guest.answer("draw", False)
    run(clock, host, guest, seconds=0.5)
    assert host.desk.view.declined == "draw"
    for board in (host, guest, host, guest):
        board.restart()
        run(clock, host, guest, seconds=1.0)
        assert guest.desk.view.asks == () and host.desk.view.ending is None
    guest.play("e7e5")
    run(clock, host, guest, seconds=0.5)
    assert host.line() == guest.line() == ("e2e4", "e7e5")


def test_a_resignation_survives_its_board_restarting_before_the_other_hears_of_it(
    tmp_path: Path,
):
    bus, clock, host, guest = joined(tmp_path)
    bus.up = False  # the broker is down: the resignation stays on the guest's disk
    guest.ask("resign")
    run(clock, host, guest, seconds=0.5)
    assert guest.desk.view.ending == (WHITE, "resignation")
    guest.restart()
    bus.up = True
    run(clock, host, guest, seconds=3.0)
    for board in (host, guest):
        assert board.desk.view.ending == (WHITE, "resignation")


def test_a_second_join_of_the_same_game_seats_the_same_board_again(tmp_path: Path):
    _bus, clock, host, guest = joined(tmp_path)
    match = host.link.match
    assert match is not None
    # The host's owner shows the invitation again (the game's page); the guest pastes it again.
    again = guest.link.join(
        f"mqtt://127.0.0.1:18830/{match.game_key}?code={match.kept.invite}"
        f"&host={_fingerprint(match.kept.header.host_key)}"
    )
    run(clock, host, guest, seconds=1.0)
    assert again.done.is_set() and not again.error
    assert guest.desk.view.colour == BLACK and guest.desk.view.joined


def _fingerprint(public: str) -> str:
    from boardctl.remote.keys import fingerprint

    return fingerprint(public)


def test_an_invitation_past_its_day_seats_nobody(tmp_path: Path):
    from boardctl.remote.invite import INVITATION_HOURS

    _, clock, host, guest = met(tmp_path)
    invitation = host.link.invitation()
    clock.wall += INVITATION_HOURS * 3600 + 60
    joining = guest.link.join(invitation)
    run(clock, host, guest, seconds=2.0)
    assert "expired" in joining.error
    assert guest.link.match is None


def test_a_join_through_a_broker_out_of_reach_says_so(tmp_path: Path):
    bus, clock, host, guest = met(tmp_path)
    invitation = host.link.invitation()
    bus.up = False
    joining = guest.link.join(invitation)
    run(clock, host, guest, seconds=20.0)
    assert joining.error.startswith("cannot reach the broker mqtt://")


def test_a_host_back_at_another_address_is_followed_with_its_new_invitation(tmp_path: Path):
    from boardctl.remote.invite import parse_invitation

    _, clock, host, guest = joined(tmp_path)
    match = host.link.match
    assert match is not None
    assert host.link.invitation() == ""  # seated: no invitation for anyone new ...
    old = parse_invitation(host.link.invitation(seated=True))  # ... but for that board again
    moved = old.link().replace(old.broker, "mqtt://192.0.2.77:18830")
    again = guest.link.join(moved)
    run(clock, host, guest, seconds=1.0)
    assert again.done.is_set() and not again.error
    assert guest.link.match is not None
    assert guest.link.match.kept.broker == "mqtt://192.0.2.77:18830"
    host.play("e2e4")
    run(clock, host, guest, seconds=1.0)
    assert guest.line() == ("e2e4",)


def test_after_a_game_a_rematch_is_offered_and_joined_at_once(tmp_path: Path):
    _, clock, host, guest = joined(tmp_path)
    guest.ask("resign")
    run(clock, host, guest, seconds=1.0)
    assert host.desk.view.ending == (WHITE, "resignation")
    first = host.desk.view.key
    with host.link.lock:
        host.link.offer()
    run(clock, host, guest, seconds=0.5)
    rematch = guest.link.join(host.link.invitation())
    run(clock, host, guest, seconds=1.0)
    assert rematch.done.is_set() and not rematch.error
    assert host.desk.view.key == guest.desk.view.key != first
    assert guest.desk.view.ending is None and host.desk.view.joined
