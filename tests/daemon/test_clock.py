"""The chess clock on its own: who is charged, when the increment comes, the flag."""

from __future__ import annotations

from boardctl.daemon.clock import ChessClock


def test_no_clock_configured_is_no_clock():
    assert ChessClock.start(None, 0.0) is None


def test_the_side_to_move_is_charged_and_the_mover_gains_the_increment():
    clock = ChessClock.start((60.0, 2.0), 0.0)
    assert clock is not None
    clock.run(0, 5.0)  # White thinks for 5 s
    assert clock.press(0, 7.5) is False  # and moves at 7.5 s: 60 - 7.5 + 2
    assert clock.remaining == [54.5, 60.0]
    clock.run(1, 10.0)
    assert clock.remaining == [54.5, 57.5]


def test_the_last_moment_before_a_move_is_the_movers():
    # The loop ticks every few ms; the tick that carries the move is charged
    # to the side that moved, not to the side now to move.
    clock = ChessClock.start((60.0, 0.0), 0.0)
    assert clock is not None
    clock.run(0, 1.00)
    clock.press(0, 1.02)
    assert clock.remaining == [58.98, 60.0]


def test_held_time_is_nobodys():
    clock = ChessClock.start((60.0, 0.0), 0.0)
    assert clock is not None
    clock.hold(100.0)
    clock.run(0, 101.0)
    assert clock.remaining == [59.0, 60.0]


def test_the_flag_falls_once_and_then_the_clock_stands():
    clock = ChessClock.start((1.0, 5.0), 0.0)
    assert clock is not None
    assert clock.run(1, 0.5) is False
    assert clock.run(1, 2.0) is True and clock.flagged == 1
    assert clock.run(1, 3.0) is False and clock.remaining[1] == 0.0
    assert clock.press(1, 4.0) is False and clock.remaining[1] == 0.0  # no increment after


def test_a_delay_s_first_seconds_of_each_move_are_free_and_not_kept():
    clock = ChessClock.start((60.0, 0.0), 0.0, delay=5.0)
    assert clock is not None
    clock.run(0, 3.0)  # within the delay: nothing charged
    assert clock.remaining == [60.0, 60.0]
    assert clock.press(0, 8.0) is False  # 8 s thought, 5 of them free
    assert clock.remaining == [57.0, 60.0]
    clock.press(1, 2.0 + 8.0)  # Black moves within its delay: nothing charged ...
    assert clock.remaining == [57.0, 60.0]  # ... and the 3 s unused are not banked
    clock.run(0, 10.0 + 7.0)  # White's new move has its own 5 s, then 2 s charged
    assert clock.remaining == [55.0, 60.0]


def test_a_delay_does_not_save_a_flag():
    clock = ChessClock.start((2.0, 0.0), 0.0, delay=1.0)
    assert clock is not None
    assert clock.run(0, 2.5) is False and clock.remaining[0] == 0.5
    assert clock.run(0, 3.0) is True and clock.flagged == 0
