"""Property tests: any physical way of making a move yields that move; noise never hurts.

A move is carried out as a person might: pieces lifted and put down in any
order the squares allow, the moving piece slid over other empty squares with
short pauses, unrelated pieces nudged and set straight, a capture done as a
capture with either piece lifted first, king and rook of a castling
interleaved in any way.  A swap (the target never reading empty) is no
capture at all: the board waits for the captured square to change.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.board import MoveMade, Reconciler, ReconcilerConfig, State
from boardctl.board.explain import footprint, occupancy
from boardctl.rules import VARIANTS, Game, Position
from boardctl.rules.moves import CASTLE, EN_PASSANT

from .helpers import Step, carried, hand_does, handled_squares, run, twin_squares

CONFIG = ReconcilerConfig()
FAST = CONFIG.settle * 0.8  # longest pause that never lets a reading settle

STARTS = [
    ("falcon", None),
    ("falcon", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("falcon", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1"),
    ("falcon", "r1n2k2br/1P3P1P2/10/10/10/10/1p3p1p2/R1N2K2BR w - - 0 1"),
    ("falcon", "k9/3p6/10/4P5/10/10/10/9K b - - 0 1"),
    ("falcon", "2f2k1f2/3n2p3/10/4F5/5f4/3N2F3/4PP4/5K4 b - - 0 1"),
    ("falcon-xboard", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPfP/R4K3R w KQkq - 0 1"),
    ("falcon-modified-free", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("falcon-8x8", None),
]


@st.composite
def games(draw: st.DrawFn) -> Game:
    variant, fen = draw(st.sampled_from(STARTS))
    game = Game(VARIANTS[variant], fen)
    for _ in range(draw(st.integers(0, 24))):
        moves = game.position.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(draw(st.sampled_from(moves)))
    return game


@st.composite
def handlings(draw: st.DrawFn, pos: Position, code: int, slow: bool) -> list[Step]:
    """The steps of carrying out ``code`` on the board, in a random physical order."""
    occ = occupancy(pos)
    pause = st.floats(0.02, 1.2 if slow else FAST)
    # Pieces to move: from-square to to-square; pieces to take off: squares.
    carries, removals = handled_squares(pos, code)

    def slide(dest: int, empty: list[int]) -> list[Step]:
        """Over a few empty squares first, never long enough to settle."""
        vias: list[Step] = []
        for _ in range(draw(st.integers(0, 2)) if not slow else 0):
            if not empty:
                break
            via = draw(st.sampled_from(empty))
            vias.append(Step("place", via, pause=draw(st.floats(0.02, FAST))))
            vias.append(Step("lift", via, pause=draw(st.floats(0.02, FAST))))
        return vias

    steps = carried(draw, pos.geometry.size, occ, carries, removals, pause, slide)
    # Nudges: an uninvolved piece knocked and set straight, quickly.
    if not slow:
        others = [s for s in pos.geometry.squares(occ & ~footprint(pos, code)[0])]
        twins = twin_squares(pos, code)
        others = [s for s in others if not twins >> s & 1]
        for _ in range(draw(st.integers(0, 2))):
            if not others:
                break
            sq = draw(st.sampled_from(others))
            # Never while a piece rests on a square it slides over (placed there,
            # lifted next): the nudge's pauses would add to the rest, which could
            # then settle, and a piece left on a legal square that long is a move.
            at = draw(st.sampled_from([i for i in range(len(steps) + 1) if not _resting(steps, i)]))
            steps[at:at] = [
                Step("lift", sq, pause=draw(st.floats(0.02, FAST))),
                Step("place", sq, pause=draw(st.floats(0.02, FAST))),
            ]
    promo = code >> 14 & 7
    if promo and (promo != CONFIG.default_promotion or draw(st.booleans())):
        steps.insert(draw(st.integers(0, len(steps))), Step("choose", piece=promo, pause=0.05))
    return steps


def _resting(steps: list[Step], at: int) -> bool:
    """True if ``at`` falls between a piece put down on a square and its lift from it."""
    if not 0 < at < len(steps):
        return False
    before, after = steps[at - 1], steps[at]
    return before.verb == "place" and after.verb == "lift" and before.square == after.square


def carry_out(rec: Reconciler, steps: list[Step], now: float) -> tuple[float, list[str]]:
    reading = rec.reading
    lines: list[str] = []
    for step in steps:
        reading, now = hand_does(rec, step, reading, now, lines)
    return now, lines


# BOARDCTL_EXAMPLES=5000 for a long soak; the suite's default keeps CI quick.
PROPERTY = settings(
    max_examples=int(os.environ.get("BOARDCTL_EXAMPLES", "250")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _check(data: st.DataObject, slow: bool) -> None:
    game = data.draw(games())
    pos = game.position
    codes = pos.legal_codes()
    if not codes or game.outcome() is not None:
        return
    code = data.draw(st.sampled_from(codes))
    move = pos.to_move(code)
    expected = pos.uci(move)
    steps = data.draw(handlings(pos, code, slow))
    start_fen = pos.fen()
    rec = Reconciler(game, CONFIG)
    played = len(game.moves)
    now, lines = carry_out(rec, steps, 0.0)
    now = run(rec, now, now + CONFIG.grace + CONFIG.promotion_wait + 1, lines)
    if rec.state is State.CHOOSING and rec.capture_choices:
        # Several captures fit what was handled: the player answers by lifting the
        # piece on the square it took and putting it down again.
        now, more = carry_out(
            rec, [Step("lift", move.to_square), Step("place", move.to_square)], now
        )
        lines += more
        run(rec, now, now + 30, lines)
    made = [rec.game.position.uci(m) for m in rec.game.moves[played:]]
    assert made == [expected], (start_fen, lines, steps)
    if not slow:
        assert not [line for line in lines if line.startswith("error")], (start_fen, lines, steps)


@PROPERTY
@given(st.data())
def test_any_quick_physical_handling_yields_exactly_the_move(data):
    _check(data, slow=False)


@PROPERTY
@given(st.data())
def test_slow_handling_with_pauses_yields_exactly_the_move(data):
    _check(data, slow=True)


@PROPERTY
@given(games(), st.data())
def test_noise_never_raises_and_restoring_the_board_brings_it_back(game, data):
    rec = Reconciler(game, CONFIG)
    size = game.position.geometry.size
    reading = rec.reading
    now = 0.0
    lines: list[str] = []
    for _ in range(data.draw(st.integers(1, 40))):
        now = run(rec, now, now + data.draw(st.floats(0.0, 3.0)), lines)
        if data.draw(st.integers(0, 9)) == 0:
            lines += [
                e.line()
                for e in rec.choose(data.draw(st.sampled_from(game.variant.promotions)), now)
            ]
            continue
        reading ^= 1 << data.draw(st.integers(0, size - 1))
        events = rec.feed(reading, now)
        for event in events:
            if isinstance(event, MoveMade):
                # Every committed move is in the game, and so was legal.
                assert (rec.game.moves and rec.game.moves[-1] == event.move) or any(
                    isinstance(e, MoveMade) for e in events[events.index(event) + 1 :]
                )
        lines += [e.line() for e in events]
    # The player sets the board to the game's position: all is well again.
    target = occupancy(rec.game.position)
    moves_before = list(rec.game.moves)
    rec.feed(target, now + 0.1)
    run(rec, now + 0.1, now + 60, lines)
    assert rec.game.moves == moves_before
    assert rec.state in (State.SYNCED, State.GAME_OVER)
    assert rec.prompt == "" or rec.state is State.GAME_OVER
    assert rec.scene().squares.keys() <= {rec.game.position.kings[rec.game.position.turn]}
    replay = Position(rec.game.start_fen, rec.game.variant)
    for move in rec.game.moves:
        replay.push(move)  # raises if any recorded move were illegal
    assert replay.fen() == rec.game.position.fen()


@PROPERTY
@given(games(), st.data())
def test_a_capture_never_seen_is_never_taken(game, data):
    """Pieces swapped so that the captured square never reads empty look just
    like the capturing piece held in the air: nothing is taken, no error is
    shown, however long it stays so; lifting and replacing the piece on the
    captured square then makes exactly that capture."""
    pos = game.position
    captures = [
        code
        for code in pos.legal_codes()
        if code >> 17 != EN_PASSANT
        and code >> 17 != CASTLE
        and occupancy(pos) >> (code >> 7 & 127) & 1
    ]
    if not captures or game.outcome() is not None:
        return
    code = data.draw(st.sampled_from(captures))
    frm, to = code & 127, code >> 7 & 127
    expected = pos.uci(pos.to_move(code))
    rec = Reconciler(game, CONFIG)
    played = len(game.moves)
    held = data.draw(st.floats(CONFIG.settle + 0.05, 20.0))
    now, lines = carry_out(rec, [Step("lift", frm)], 0.0)
    now = run(rec, now, now + held, lines)
    assert rec.game.moves[played:] == [], lines
    assert rec.state is State.BUSY, (rec.state, lines)
    assert not [line for line in lines if line.startswith(("error", "move"))], lines
    promotion = code >> 14 & 7
    more = [Step("choose", piece=promotion, pause=0.05)] if promotion else []
    now, after = carry_out(rec, [*more, Step("lift", to), Step("place", to)], now)
    run(rec, now, now + 30, after)
    made = [rec.game.position.uci(m) for m in rec.game.moves[played:]]
    assert made == [expected], (lines, after)
