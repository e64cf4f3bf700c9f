"""Whole games read back from the hands that played them (issue 21).

A random legal game on any preset, square or hexagonal, is turned into the
sensor events of people playing it: each move carried out in a random order
a hand can use (mover or captured piece first; castling king first, rook
first or both in hand; en passant's victim before, during or after the
pawn's move; a promotion chosen before or just after the pawn lands, or
left to the default), the mover's own pieces picked up and put back before
moving, pauses short (a quick reply before the last move has settled) and
long (past every wait the reconciler has), and, for the engine's moves, the
piece first put down on a wrong square.  Replaying the events must give the
game that was played, move for move, and its position; the same game
against the engine, whose moves are handed to the reconciler as the daemon
does, must too.  One silent difference fails the property.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from boardctl.board import Reconciler, ReconcilerConfig, State
from boardctl.board.explain import footprint, occupancy
from boardctl.rules import VARIANTS, Game, Move, Position
from boardctl.rules.moves import (
    CASTLE,
    EN_PASSANT,
    NORMAL,
    code_flag,
    code_from,
    code_promotion,
    code_to,
)

from .helpers import Step, carried, hand_does, handled_squares, run, twin_squares

CONFIG = ReconcilerConfig()
LONGEST_WAIT = max(CONFIG.settle, CONFIG.grace, CONFIG.new_game_hold, CONFIG.promotion_wait)

# Every preset from its start, and positions where castling, en passant and
# promotions come within a few moves.
STARTS = [(name, None) for name in VARIANTS] + [
    ("falcon", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("falcon", "r1n2k2br/1P3P1P2/10/10/10/10/1p3p1p2/R1N2K2BR w - - 0 1"),
    ("falcon", "k9/3p6/10/4P5/10/10/10/9K b - - 0 1"),
    # Every double step here can be taken en passant.
    ("falcon", "4k5/pppppppppp/10/P1P1P1P1P1/10/10/10/4K5 b - - 0 1"),
    ("falcon", "4k5/10/10/10/p1p1p1p1p1/10/PPPPPPPPPP/4K5 w - - 0 1"),
    ("falcon", "2f2k1f2/3n2p3/10/4F5/5f4/3N2F3/4PP4/5K4 b - - 0 1"),
    ("falcon-orthodox-castling", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1"),
    ("falcon-xboard", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPfP/R4K3R w KQkq - 0 1"),
    ("falcon-modified-free", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("falcon-8x8", "r3k2r/pPpppppp/8/8/8/8/PpPPPPPP/R3K2R w KQkq - 0 1"),
    ("falcon-hex", "5/8/6P2/10/2k8/12/11/12/9p1/10/9/8/K4 w - - 0 1"),
    ("falcon-hex", "5/8/9/10/6k4/12/11/Np10/11/10/9/8/K4 b - - 0 1"),
]


short = st.floats(0.02, CONFIG.settle * 0.8)
long = st.floats(CONFIG.settle * 1.2, LONGEST_WAIT + 1.5)
pauses = st.one_of(short, short, long)


@st.composite
def played(draw: st.DrawFn) -> tuple[Game, list[Move]]:
    """A start, and the legal moves played from it."""
    name, fen = draw(st.sampled_from(STARTS))
    game = Game(VARIANTS[name], fen)
    pos = Position(game.start_fen, game.variant)
    moves: list[Move] = []
    for _ in range(draw(st.integers(1, 16))):
        legal = pos.legal_moves()
        if not legal:
            break
        # Half the time a move whose handling is special, where there is
        # one: random play alone seldom castles, takes en passant or promotes.
        special = [
            m
            for m in legal
            if m.promotion
            or code_flag(pos.code_of(m)) != NORMAL
            or occupancy(pos) >> m.to_square & 1
        ]
        move = draw(st.sampled_from(special if special and draw(st.booleans()) else legal))
        moves.append(move)
        pos.push(move)
        probe = Game(game.variant, game.start_fen)
        for m in moves:
            probe.push(m)
        if probe.outcome() is not None:
            break
    return game, moves


@st.composite
def handling(
    draw: st.DrawFn, pos: Position, code: int, by_engine: bool, avoid: int = 0
) -> list[Step]:
    """The steps of carrying out ``code`` in ``pos`` in an order a hand can
    use; no piece on ``avoid`` is picked up and put back."""
    frm, to, flag = code_from(code), code_to(code), code_flag(code)
    occ = occupancy(pos)
    carries, removals = handled_squares(pos, code)
    steps: list[Step] = []
    # Before moving, the mover may pick up one of their own pieces and put
    # it back (never on a twin's square: no sensor could tell that apart).
    mine = pos.colors[pos.turn] & ~footprint(pos, code)[0] & ~twin_squares(pos, code) & ~avoid
    if not by_engine and mine and draw(st.integers(0, 3)) == 0:
        sq = draw(st.sampled_from(pos.geometry.squares(mine)))
        steps += [Step("lift", sq, pause=draw(pauses)), Step("place", sq, pause=draw(short))]
    detoured = False

    def newcomer(dest: int, empty: list[int]) -> list[Step]:
        """A newcomer puts the engine's piece down on a wrong square first, once."""
        nonlocal detoured
        if not by_engine or detoured or draw(st.integers(0, 2)) != 0 or not empty:
            return []
        detoured = True
        wrong = draw(st.sampled_from(empty))
        return [Step("place", wrong, pause=draw(pauses)), Step("lift", wrong, pause=draw(pauses))]

    steps += carried(draw, pos.geometry.size, occ, carries, removals, pauses, newcomer)
    _classify(steps, frm, removals, carries, flag)
    promo = code_promotion(code)
    default = (
        CONFIG.default_promotion
        if CONFIG.default_promotion in pos.variant.promotions
        else pos.variant.promotions[0]
    )
    if promo and not by_engine and (promo != default or draw(st.booleans())):
        # Chosen once the pawn is in hand (before that, the buttons still
        # answer a promotion of the opponent's that waits), or within the
        # promotion wait after the pawn landed.
        landed = max(i for i, s in enumerate(steps) if s.verb == "place" and s.square == to)
        lifted = min(i for i, s in enumerate(steps) if s.verb == "lift" and s.square == frm)
        at = draw(st.integers(lifted + 1, landed + 1))
        steps.insert(at, Step("choose", piece=promo, pause=draw(short)))
        if at == landed + 1 and at + 1 < len(steps):
            steps[at + 1] = Step(steps[at + 1].verb, steps[at + 1].square, pause=draw(short))
        event(
            "promotion, chosen "
            + ("after the pawn landed" if at == landed + 1 else "with the pawn in hand")
        )
    elif promo:
        event("promotion, the default piece" if not by_engine else "promotion by the engine")
    return steps


def _classify(
    steps: list[Step], frm: int, removals: list[int], carries: dict[int, int], flag: int
) -> None:
    """Name the handling for ``--hypothesis-show-statistics``: the closing
    note counts the orders covered."""
    order = [s.square for s in steps if s.verb == "lift"]
    if flag == CASTLE:
        rook = next(sq for sq in carries if sq != frm)
        both = (
            any(
                s.verb == "place"
                for s in steps[: max(i for i, s in enumerate(steps) if s.verb == "lift")]
            )
            is False
        )
        first = "king" if order.index(frm) < order.index(rook) else "rook"
        event(f"castling, {first} first{', both in hand' if both else ''}")
    elif flag == EN_PASSANT:
        victim = removals[0]
        lifted = order.index(victim) < order.index(frm)
        placed = [s.square for s in steps if s.verb in ("lift", "place")]
        after_place = placed.index(victim) > max(
            i for i, sq in enumerate(placed) if sq == carries[frm]
        )
        event(
            "en passant, victim "
            + ("first" if lifted else "last" if after_place else "between lift and place")
        )
    elif removals:
        event("capture, " + ("captured piece first" if order[0] == removals[0] else "mover first"))
    if any(s.pause > CONFIG.settle for s in steps):
        event("a pause past the settle time inside the move")
    if any(s.pause > LONGEST_WAIT for s in steps):
        event("a pause past every wait inside the move")


def play_back(
    game: Game, moves: list[Move], data: st.DataObject, engine_side: int | None
) -> tuple[Reconciler, list[str], list[Step]]:
    rec = Reconciler(game, CONFIG, engine_side=engine_side)
    pos = Position(game.start_fen, game.variant)
    reading = rec.reading
    now = 0.0
    lines: list[str] = []
    done: list[Step] = []
    quick = False
    avoid = 0
    for ply, move in enumerate(moves):
        by_engine = pos.turn == engine_side
        if by_engine:
            # The daemon asks the engine once the human move is in the game
            # (an amendment asks again), and the player carries out the move
            # the LEDs show once the board has settled on the human move.
            limit = now + LONGEST_WAIT + 1
            while (
                not (
                    len(rec.game.moves) == ply
                    and rec.state is State.SYNCED
                    and rec.next_deadline() is None
                )
                and now < limit
            ):
                now = run(rec, now, now + 0.1, lines)
            assert len(rec.game.moves) == ply, (lines, done)
            rec.set_engine_move(move)
            done.append(Step("engine", move.from_square, pause=0.0))
        code = pos.code_of(move)
        for step in data.draw(handling(pos, code, by_engine, avoid)):
            done.append(step)
            reading, now = hand_does(rec, step, reading, now, lines)
        # Nor, in a quick reply, on the squares of the move's twins: the
        # last move has not settled, and no sensor could tell that apart.
        avoid = twin_squares(pos, code)
        pos.push(move)
        if engine_side is not None and ply + 1 < len(moves) and pos.turn == engine_side:
            continue
        # A quick reply (the next hand before this move has settled), but
        # never two in a row: nobody plays three moves in under a second.
        pause = data.draw(long if quick else pauses)
        quick = pause < CONFIG.settle
        done.append(Step("wait", pause=pause))
        if not quick:
            avoid = 0
        now = run(rec, now, now + pause, lines)
    run(rec, now, now + 30, lines)
    return rec, lines, done


def ucis(start: Position, moves: list[Move]) -> list[str]:
    pos, out = start.copy(), []
    for move in moves:
        out.append(pos.uci(move))
        pos.push(move)
    return out


def check(game: Game, moves: list[Move], data: st.DataObject, engine_side: int | None) -> None:
    start = Position(game.start_fen, game.variant)
    end = start.copy()
    for move in moves:
        end.push(move)
    rec, lines, steps = play_back(game, moves, data, engine_side)
    got, want = ucis(start, rec.game.moves), ucis(start, moves)
    shown = (
        game.variant.name,
        game.start_fen,
        want,
        lines,
        [f"{s.pause:.3f} {s.verb} {s.piece if s.verb == 'choose' else s.square}" for s in steps],
    )
    assert got == want, shown
    assert rec.game.position.fen() == end.fen(), shown
    assert rec.reading == occupancy(end), shown
    assert rec.state in (State.SYNCED, State.GAME_OVER), shown


# BOARDCTL_EXAMPLES=3000 for the soak the closing note reports; CI runs fewer.
PROPERTY = settings(
    max_examples=int(os.environ.get("BOARDCTL_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@PROPERTY
@given(played(), st.data())
def test_two_players_games_are_read_back_exactly(game_and_moves, data):
    game, moves = game_and_moves
    check(game, moves, data, engine_side=None)


@PROPERTY
@given(played(), st.sampled_from([0, 1]), st.data())
def test_games_against_the_engine_are_read_back_exactly(game_and_moves, engine_side, data):
    game, moves = game_and_moves
    check(game, moves, data, engine_side=engine_side)
