"""Both sides' logs and the game they make: who may do what, and one game
from the same entries whatever order they came in."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.remote.entry import Entry, EntryError, Header
from boardctl.remote.keys import SigningKey
from boardctl.remote.record import ABSENCE_CLAIM, CLAIM_GRACE, MAX_ON_ONE_STATE, Record
from boardctl.remote.side import Side, Timer
from boardctl.rules import BLACK, WHITE, Termination

from .helpers import KEY, MemoryJournal, Pair, header, keys, record


def forged(
    rec: Record, side: int, kind: str, key: SigningKey | None = None, **fields: object
) -> Entry:
    """An entry in ``side``'s log, signed by ``key`` (the side's own by default)."""
    log = rec.logs[side]
    bare = Entry(KEY, side, log.n + 1, log.digest, rec.state.id, kind)  # type: ignore[arg-type]
    return replace(bare, **fields).signed(key or keys()[side])


def test_moves_alternate_and_make_the_line() -> None:
    pair = Pair.new()
    pair.play("e2e4", "e7e5", "i1h3")
    state = pair.record.state
    assert state.line == ("e2e4", "e7e5", "i1h3") and state.turn == BLACK
    assert pair.sides[WHITE].play("d2d4", 0.0) == "it is not your move"


def test_an_entry_signed_by_anyone_but_its_side_is_refused() -> None:
    rec = record()
    stranger = SigningKey()
    for key in (keys()[BLACK], stranger):
        entry = forged(rec, WHITE, "move", key, ply=1, uci="e2e4")
        assert rec.check(entry) == "entry 1 is not signed by its side"
        with pytest.raises(EntryError):
            rec.add(entry)
    assert rec.state.line == ()


def test_a_side_cannot_move_for_the_other_or_out_of_turn() -> None:
    rec = record()
    # Black's own log, Black's own key: a move of White's pieces.
    entry = forged(rec, BLACK, "move", ply=1, uci="e2e4")
    rec.add(entry)
    assert rec.state.line == ()  # in Black's log, and void: not Black's move
    rec.add(forged(rec, WHITE, "move", ply=1, uci="e2e4"))
    assert rec.state.line == ("e2e4",)


def test_a_takeback_needs_an_offer_and_the_other_sides_yes() -> None:
    pair = Pair.new()
    pair.play("e2e4", "e7e5")
    white, black = pair.sides
    assert black.answer("takeback", True, 0.0) == "nothing to answer"
    assert black.ask("takeback", 0.0) is None  # Black asks to take back e7e5
    assert pair.record.state.line == ("e2e4", "e7e5")  # asking changes nothing
    assert [s.what for s in white.asking()] == ["takeback"]
    assert white.answer("takeback", True, 0.0) is None
    state = pair.record.state
    assert state.line == ("e2e4",) and state.taken_back == ("e7e5",) and state.turn == BLACK


def test_an_accept_of_an_offer_never_made_does_nothing() -> None:
    pair = Pair.new()
    pair.play("e2e4", "e7e5")
    rec = pair.record
    # White "accepts" Black's entry 1 (its move), then an entry number Black never wrote.
    for to in (1, 7):
        rec.add(forged(rec, WHITE, "accept", to=to))
    assert rec.state.line == ("e2e4", "e7e5") and rec.state.over() is None


def test_a_draw_needs_both_and_a_no_is_final() -> None:
    pair = Pair.new()
    pair.play("e2e4")
    white, black = pair.sides
    assert white.ask("draw", 0.0) is None
    assert white.ask("draw", 0.0) == "offered already"
    assert black.answer("draw", False, 0.0) is None
    assert white.declined() == "draw" and black.asking() == ()
    # Black's log, Black's key: a yes after its own no.
    pair.record.add(forged(pair.record, BLACK, "accept", to=1))
    assert pair.record.state.over() is None
    pair.play("e7e5")
    assert white.ask("draw", 0.0) is None and black.answer("draw", True, 0.0) is None
    ending = pair.record.state.over()
    assert ending is not None and ending.termination is Termination.AGREEMENT


def test_a_resignation_is_its_own_sides_alone() -> None:
    pair = Pair.new()
    pair.play("e2e4")
    rec = pair.record
    with pytest.raises(EntryError):  # Black's resignation in White's log
        rec.add(forged(rec, WHITE, "resign", keys()[BLACK]))
    assert rec.state.over() is None
    assert pair.sides[BLACK].ask("resign", 0.0) is None
    ending = rec.state.over()
    assert ending is not None and ending.termination is Termination.RESIGNATION
    assert ending.winner == WHITE
    assert pair.sides[WHITE].play("d2d4", 0.0) == "the game is over"


def test_an_abort_needs_both() -> None:
    pair = Pair.new()
    white, black = pair.sides
    assert white.ask("abort", 0.0) is None and pair.record.state.over() is None
    assert black.answer("abort", True, 0.0) is None
    ending = pair.record.state.over()
    assert ending is not None and ending.termination is Termination.ABANDONED


def test_the_flag_falls_on_the_sides_own_clock_and_the_claim_waits_for_the_grace() -> None:
    pair = Pair.new(clock=(60.0, 0.0))
    pair.play("e2e4", now=0.0)  # White's first move is free
    white, black = pair.sides
    black.tick(59.0)
    white.tick(59.0 + CLAIM_GRACE)  # 60 s + grace is not yet past
    assert pair.record.state.over() is None
    white.tick(60.0 + CLAIM_GRACE)
    ending = pair.record.state.over()
    assert ending is not None and ending.termination is Termination.TIME_FORFEIT
    assert ending.winner == WHITE
    own = Pair.new(clock=(60.0, 0.0))
    own.play("e2e4", now=0.0)
    own.sides[BLACK].tick(60.0)
    ending = own.record.state.over()
    assert (
        ending is not None and ending.winner == WHITE and ending.termination.value == "time forfeit"
    )


def test_a_claim_on_time_or_absence_made_too_early_is_void() -> None:
    timed = Pair.new(clock=(60.0, 2.0))
    timed.play("e2e4", "e7e5", now=0.0)
    rec = timed.record
    assert rec.state.reported == [62.0, 60.0] or rec.state.reported[BLACK] == 62.0
    rec.add(forged(rec, BLACK, "claim", what="time", waited=60.0 + CLAIM_GRACE - 0.01))
    rec.add(forged(rec, BLACK, "claim", what="absence", waited=10_000.0))  # a clock runs
    assert rec.state.over() is None
    untimed = Pair.new()
    untimed.play("e2e4")
    rec = untimed.record
    rec.add(forged(rec, WHITE, "claim", what="absence", waited=ABSENCE_CLAIM - 1))
    rec.add(forged(rec, BLACK, "claim", what="absence", waited=ABSENCE_CLAIM))  # Black is to move
    assert rec.state.over() is None
    rec.add(forged(rec, WHITE, "claim", what="absence", waited=ABSENCE_CLAIM))
    ending = rec.state.over()
    assert ending is not None and ending.termination is Termination.FORFEIT
    assert ending.winner == WHITE


def test_entries_made_on_a_state_never_reached_are_void() -> None:
    pair = Pair.new()
    pair.play("e2e4")
    rec = pair.record
    other = replace(forged(rec, BLACK, "resign"), at="ffffffffffffffff").signed(keys()[BLACK])
    rec.add(other)
    assert rec.state.over() is None


def test_a_side_flooding_one_state_is_refused() -> None:
    rec = record()
    for _ in range(MAX_ON_ONE_STATE):
        rec.add(forged(rec, BLACK, "offer", what="draw"))
    with pytest.raises(EntryError, match="more than"):
        rec.add(forged(rec, BLACK, "offer", what="draw"))


# ---------------------------------------------------------------- two boards
class Board:
    """One board's record of a game both play (form 2): its own side, and
    the other's entries as they come."""

    def __init__(self, head: Header, me: int) -> None:
        self.record = record(head)
        self.timer = Timer()
        self.journal = MemoryJournal()
        self.side = Side(self.record, me, keys()[me], self.journal.keep, self.timer, 0.0)

    def mine(self) -> list[Entry]:
        return list(self.record.logs[self.side.me].entries)

    def take(self, entries: list[Entry]) -> None:
        """The other side's entries, in its log's order from where this one is."""
        other = self.record.logs[self.side.me ^ 1]
        for entry in entries:
            if entry.n == other.n + 1:
                self.record.add(entry)


def exchanged(white: Board, black: Board) -> None:
    white.take(black.mine())
    black.take(white.mine())


def test_a_move_and_a_yes_made_at_once_settle_alike_on_both_boards() -> None:
    head = header()
    white, black = Board(head, WHITE), Board(head, BLACK)
    assert white.side.play("e2e4", 0.0) is None
    exchanged(white, black)
    assert white.side.ask("draw", 0.0) is None  # White, not to move, offers a draw
    exchanged(white, black)
    # Black moves and, before it hears of the move, ... no: Black accepts
    # while White, at once, resigns: both on the same state.
    assert black.side.answer("draw", True, 0.0) is None
    assert white.side.ask("resign", 0.0) is None
    exchanged(white, black)
    for board in (white, black):
        ending = board.record.state.over()
        assert ending is not None and ending.termination is Termination.RESIGNATION


def test_a_move_crossing_a_yes_to_its_movers_offer_gives_way_to_it() -> None:
    head = header()
    white, black = Board(head, WHITE), Board(head, BLACK)
    white.side.play("e2e4", 0.0)
    exchanged(white, black)
    assert black.side.ask("draw", 0.0) is None  # Black offers a draw, then moves at once
    white.take(black.mine())
    assert black.side.play("e7e5", 0.0) is None
    assert white.side.answer("draw", True, 0.0) is None  # White has not seen the move yet
    assert black.record.state.line == ("e2e4", "e7e5")  # Black has not seen the yes yet
    exchanged(white, black)
    for board in (white, black):
        state = board.record.state
        ending = state.over()
        assert ending is not None and ending.termination is Termination.AGREEMENT
        assert state.line == ("e2e4",), board.side.me


def test_a_takeback_agreed_while_the_asker_moves_on_takes_both_moves_back() -> None:
    head = header()
    white, black = Board(head, WHITE), Board(head, BLACK)
    white.side.play("e2e4", 0.0)
    exchanged(white, black)
    black.side.play("e7e5", 0.0)
    exchanged(white, black)
    assert white.side.ask("takeback", 0.0) is None  # to move, White asks for e2e4 back
    black.take(white.mine())
    assert white.side.play("i1h3", 0.0) is None  # ... and moves before the answer
    assert black.side.answer("takeback", True, 0.0) is None
    exchanged(white, black)
    for board in (white, black):
        state = board.record.state
        assert state.line == () and state.taken_back == ("e2e4", "e7e5"), board.side.me


@settings(max_examples=60)
@given(st.randoms(use_true_random=False), st.integers(0, 40))
def test_any_order_of_arrival_derives_the_same_game(rnd: random.Random, plies: int) -> None:
    """Entries written by two boards that hear each other late, delivered to
    a third record in any order each side's log allows: the same game."""
    head = header()
    white, black = Board(head, WHITE), Board(head, BLACK)
    boards = (white, black)
    for _ in range(plies + 10):
        board = rnd.choice(boards)
        state = board.record.state
        if state.over() is not None:
            break
        act = rnd.random()
        if act < 0.6 and state.turn == board.side.me:
            moves = list(state.game.position.legal_moves())
            board.side.play(state.game.position.uci(rnd.choice(moves)), 0.0)
        elif act < 0.7:
            board.side.ask(rnd.choice(["takeback", "draw", "abort"]), 0.0)
        elif act < 0.8 and board.side.asking():
            board.side.answer(rnd.choice(board.side.asking()).what, rnd.random() < 0.5, 0.0)
        elif act < 0.82:
            board.side.ask("resign", 0.0)
        if rnd.random() < 0.5:  # the other hears late, or now
            exchanged(white, black)
    exchanged(white, black)
    exchanged(white, black)
    logs = [white.mine(), black.mine()]
    third = record(head)
    queues = [list(logs[0]), list(logs[1])]
    while queues[0] or queues[1]:
        side = rnd.choice([i for i in (0, 1) if queues[i]])
        third.add(queues[side].pop(0))
    ids = {white.record.state.id, black.record.state.id, third.state.id}
    assert len(ids) == 1
    assert white.record.state.line == black.record.state.line == third.state.line
