"""A game against a person in a browser, kept by the board's server: every
request names the log it was made on, so any request repeated, delayed or
reordered is applied once or refused as stale, never applied twice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.remote.table import Table, Verdict
from boardctl.rules import BLACK, WHITE

from .helpers import KEY, MemoryJournal, header

BOARD, BROWSER = WHITE, BLACK


def table(clock: tuple[float, float] | None = None) -> tuple[Table, MemoryJournal]:
    journal = MemoryJournal(header(clock))
    return Table(journal.log(), BOARD, journal.keep, 0.0), journal


def test_a_move_repeated_is_a_copy_and_a_delayed_one_after_a_takeback_is_stale():
    t, journal = table()
    assert t.play(BOARD, KEY, 0, "e2e4", 0.0).verdict is Verdict.APPLIED
    assert t.play(BROWSER, KEY, 1, "e7e5", 0.1).verdict is Verdict.APPLIED
    assert t.play(BROWSER, KEY, 1, "e7e5", 0.2).verdict is Verdict.COPY
    assert t.play(BROWSER, KEY, 1, "d7d5", 0.2).verdict is Verdict.STALE
    assert t.ask(BROWSER, KEY, 2, "takeback", 0.3).verdict is Verdict.APPLIED
    assert t.answer(BOARD, KEY, 2, "takeback", True, 0.4).verdict is Verdict.APPLIED
    assert t.log.line == ("e2e4",) and t.log.to_move() == BROWSER
    # The old request for ply 2 arrives now: made on the log before the takeback.
    assert t.play(BROWSER, KEY, 1, "e7e5", 0.5).verdict is Verdict.COPY
    assert t.log.line == ("e2e4",)
    assert t.play(BROWSER, KEY, 3, "c7c5", 0.6).verdict is Verdict.APPLIED
    assert t.log.line == ("e2e4", "c7c5")
    assert set(journal.writes.values()) == {1}


def test_requests_that_cannot_be_are_refused():
    t, _ = table()
    assert t.play(BROWSER, KEY, 0, "e7e5", 0.0).verdict is Verdict.REFUSED  # not its move
    assert t.play(BOARD, KEY, 0, "e2e5", 0.0).verdict is Verdict.REFUSED  # not legal
    assert t.play(BOARD, "f" * 16, 0, "e2e4", 0.0).verdict is Verdict.STALE  # another game
    assert t.play(BOARD, KEY, 7, "e2e4", 0.0).verdict is Verdict.STALE  # a log not here
    assert t.ask(BROWSER, KEY, 0, "takeback", 0.0).verdict is Verdict.REFUSED  # no move yet
    assert t.answer(BOARD, KEY, 0, "draw", True, 0.0).verdict is Verdict.REFUSED  # not asked
    assert t.log.seq == 0


def test_draws_and_resignations_from_either_side():
    t, _ = table()
    t.play(BOARD, KEY, 0, "e2e4", 0.0)
    assert t.ask(BOARD, KEY, 1, "draw", 0.1).verdict is Verdict.APPLIED
    assert t.asking(BROWSER) == ("draw",)
    assert t.answer(BROWSER, KEY, 1, "draw", False, 0.2).verdict is Verdict.APPLIED
    assert t.declined[BOARD] == ("draw", 1) and t.asking(BROWSER) == ()
    assert t.ask(BOARD, KEY, 1, "resign", 0.3).verdict is Verdict.APPLIED  # not to move
    assert t.log.ending is not None and t.log.ending.winner == BROWSER
    assert t.ask(BOARD, KEY, 1, "resign", 0.4).verdict is Verdict.COPY


def test_the_browser_players_clock_stops_while_they_are_away():
    t, _ = table((60.0, 0.0))
    t.heard = 0.0
    t.play(BOARD, KEY, 0, "e2e4", 0.0)
    for n in range(1, 100):
        t.tick(float(n))  # the browser is never heard again
    assert t.clocks is not None
    assert t.clocks.left(100.0)[BROWSER] > 50.0  # charged only until it counted as away
    t.heard = 100.0
    for n in range(100, 200):
        t.tick(float(n))
        t.heard = float(n)
    assert t.log.ending is not None and t.log.ending.termination.value == "time forfeit"
    assert t.log.ending.winner == BOARD


@settings(max_examples=60)
@given(st.data())
def test_any_order_and_any_repeats_of_the_browsers_requests_apply_each_move_once(data):
    t, journal = table()
    sent: list[tuple[int, str]] = []  # every request the page made: (seq seen, move)
    for _ in range(data.draw(st.integers(5, 40))):
        mover = t.log.to_move()
        if mover is None:
            break
        moves = t.log.game.position.legal_moves()
        uci = t.log.game.position.uci(moves[data.draw(st.integers(0, len(moves) - 1))])
        if mover == BOARD:
            t.play(BOARD, KEY, t.log.seq, uci, 0.0)
        elif data.draw(st.booleans()):
            sent.append((t.log.seq, uci))
            t.play(BROWSER, KEY, t.log.seq, uci, 0.0)
        elif sent:  # an old request again, or a takeback asked and granted
            seq, old = data.draw(st.sampled_from(sent))
            verdict = t.play(BROWSER, KEY, seq, old, 0.0).verdict
            assert verdict in (Verdict.COPY, Verdict.STALE, Verdict.APPLIED)
            if t.ask(BROWSER, KEY, t.log.seq, "takeback", 0.0).verdict is Verdict.APPLIED:
                t.answer(BOARD, KEY, t.log.seq, "takeback", True, 0.0)
    assert set(journal.writes.values()) <= {1}
    moves = [e for e in t.log.entries if e.kind == "move" and e.by == BROWSER]
    requests = {(seq, uci) for seq, uci in sent}
    for entry in moves:  # every browser move in the log was asked for at that length
        assert (entry.seq - 1, entry.uci) in requests
