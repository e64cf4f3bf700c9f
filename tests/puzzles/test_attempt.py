"""Judging a game played from a puzzle, move by move."""

from __future__ import annotations

import pytest

from boardctl.puzzles import Attempt, Goal, Puzzle, Solver, Status, find, hint, judge
from boardctl.puzzles.attempt import Mark
from boardctl.rules import Game, Position, get_variant, parse_uci
from tests.engine_mates import forces_mate_with


@pytest.fixture(scope="module")
def solver():
    return Solver()


def play(puzzle: Puzzle, *moves: str) -> Game:
    game = Game(get_variant(puzzle.variant), puzzle.fen)
    for text in moves:
        game.push(parse_uci(game.position, text))
    return game


def test_the_key_the_longest_defence_and_the_mate_solve_it(solver):
    puzzle = find("duke-a")
    attempt = Attempt(puzzle)
    assert attempt.banner() == ("White to mate in 2", "info")
    game = play(puzzle, "c1i7")  # 1. Qxi7+
    attempt = judge(attempt, game, solver)
    assert attempt.status is Status.DEFENDING
    assert game.position.uci(attempt.reply) == "i8i7"  # the only defence: Kxi7
    game.push(attempt.reply)
    attempt = judge(attempt, game, solver)
    assert attempt.banner() == ("White to mate in 1", "info")
    game.push(parse_uci(game.position, "j5j6"))  # 2. j6#
    attempt = judge(attempt, game, solver)
    assert attempt.status is Status.SOLVED
    assert attempt.banner() == ("Solved! Checkmate in 2 moves", "over")
    assert [p.mark for p in attempt.plies] == [Mark.RIGHT, Mark.DEFENCE, Mark.MATE]


def test_a_wrong_first_move_fails_and_names_the_key(solver):
    puzzle = find("duke-a")
    game = play(puzzle, "c1c7")  # 1. Qc7: no mate in 2
    attempt = judge(Attempt(puzzle), game, solver)
    assert attempt.status is Status.FAILED and attempt.reply is None
    assert attempt.banner() == (
        "Not the solution: 1. Qxi7 mates in 2. Take your move back to try again",
        "error",
    )


def test_a_wrong_last_move_fails_and_names_the_mate(solver):
    puzzle = find("duke-a")
    game = play(puzzle, "c1i7", "i8i7", "h4g6")  # 2. Ng6+ is no mate
    attempt = judge(Attempt(puzzle), game, solver)
    assert attempt.status is Status.FAILED
    assert attempt.banner()[0] == "Not the solution: 2. j6 mates. Take your move back to try again"


def test_taking_the_wrong_move_back_tries_again(solver):
    puzzle = find("duke-c")
    game = play(puzzle, "c3d3")
    attempt = judge(Attempt(puzzle), game, solver)
    assert attempt.status is Status.FAILED
    game.pop()
    attempt = judge(attempt, game, solver)
    assert attempt.status is Status.TO_PLAY and attempt.banner()[0] == "White to mate in 2"
    game.push(parse_uci(game.position, "d1a3"))  # the key, this time
    assert judge(attempt, game, solver).status is Status.DEFENDING


def test_another_move_that_mates_in_time_is_accepted_as_well_as_the_key(solver):
    # Two rooks against a king in the corner: the exhaustive checker finds
    # several first moves that mate in two; one is stored as the key.
    fen = "9k/10/10/10/10/K9/1R8/R9 w - - 0 1"
    pos = Position(fen, get_variant("falcon"))
    mating = sorted(
        pos.uci(m) for m in pos.legal_moves() if forces_mate_with(pos, pos.code_of(m), 2)
    )
    assert len(mating) > 1  # the test means something only if there is another
    key, *others = mating
    puzzle = Puzzle("ladder", "ladder", "falcon", fen, Goal("mate", 2), "test", "medium", key)
    for uci in others:
        game = play(puzzle, uci)
        attempt = judge(Attempt(puzzle), game, solver)
        assert attempt.status is Status.DEFENDING, uci
        game.push(attempt.reply)
        mate = solver.mating_move(game.position, 1)
        assert mate is not None
        game.push(mate)
        assert judge(attempt, game, solver).status is Status.SOLVED


def test_the_hint_is_the_key_then_the_engines_mate(solver):
    puzzle = find("duke-c")
    game = play(puzzle)
    attempt = judge(Attempt(puzzle), game, solver)
    assert game.position.uci(hint(attempt, game, solver)) == "d1a3"
    game.push(hint(attempt, game, solver))
    attempt = judge(attempt, game, solver)
    assert hint(attempt, game, solver) is None  # the engine's turn
    game.push(attempt.reply)
    attempt = judge(attempt, game, solver)
    move = hint(attempt, game, solver)
    game.push(move)
    assert judge(attempt, game, solver).status is Status.SOLVED


def test_a_stalemate_is_not_the_solution(solver):
    # White: Kc6, Qb1; Black: Ka8.  1. Qb7 mates; 1. Qb6 stalemates.
    fen = "k9/10/2K7/10/10/10/10/1Q8 w - - 0 1"
    puzzle = Puzzle("s", "s", "falcon", fen, Goal("mate", 2), "test", "medium")
    attempt = judge(Attempt(puzzle), play(puzzle, "b1b6"), solver)
    assert attempt.status is Status.FAILED
    assert attempt.banner()[0] == (
        "That is stalemate: 1. Qb7 mates. Take your move back to try again"
    )


def test_a_mate_on_the_hexagon_is_judged_the_same_way(solver):
    puzzle = find("hex-3")  # 1. Fd13 f4 2. Fe9#
    game = play(puzzle, "c10d13")
    attempt = judge(Attempt(puzzle), game, solver)
    assert attempt.status is Status.DEFENDING
    game.push(attempt.reply)
    game.push(solver.mating_move(game.position, 1))
    assert judge(attempt, game, solver).banner() == ("Solved! Checkmate in 2 moves", "over")
    wrong = judge(Attempt(puzzle), play(puzzle, "d11e11"), solver)
    assert wrong.banner()[0].startswith("Not the solution: 1. Fd13 mates in 2.")


# ------------------------------------------------------------ drills
# Drills of their own (the library's are drawn from the table anew): Ka5, Ff8
# v Ka8 is a mate in 5, with a move of slack; Kc6, Fc8 v Ka4 a mate in 11.
EASY = Puzzle(
    "e", "e", "falcon", "k4F4/10/10/K9/10/10/10/10 w - - 0 1", Goal("drill", 5, 1), "", "easy"
)
HANGING = Puzzle(
    "h", "h", "falcon", "2F7/10/2K7/10/k9/10/10/10 w - - 0 1", Goal("drill", 11, 3), "", "medium"
)


def test_a_drill_played_as_the_table_says_is_solved_in_the_best_number_of_moves(solver):
    puzzle = EASY
    game = play(puzzle)
    attempt = judge(Attempt(puzzle), game, solver)
    assert attempt.banner()[0] == "White to mate in 6 moves or fewer"
    while attempt.status is not Status.SOLVED:
        move = attempt.reply if attempt.status is Status.DEFENDING else hint(attempt, game, solver)
        game.push(move)
        attempt = judge(attempt, game, solver)
    assert attempt.banner() == ("Solved! Checkmate in 5 moves", "over")


def test_a_drill_move_that_puts_mate_further_off_than_allowed_fails(solver):
    puzzle = EASY
    pos = puzzle.position()
    graded = {}
    for move in pos.legal_moves():
        attempt = judge(Attempt(puzzle), play(puzzle, pos.uci(move)), solver)
        after = pos.copy()
        after.push(move)
        plies = solver.table_value(after)
        graded[pos.uci(move)] = (attempt.status, None if plies is None else plies // 2 + 1)
    # Right exactly when mate comes within the six moves the drill allows.
    for uci, (status, moves) in graded.items():
        assert (status is Status.DEFENDING) == (moves is not None and moves <= 6), uci
    assert any(s is Status.FAILED for s, m in graded.values() if m is not None)
    slow = next(u for u, (s, m) in graded.items() if s is Status.FAILED and m is not None)
    text = judge(Attempt(puzzle), play(puzzle, slow), solver).banner()[0]
    assert text.startswith("Too slow: mate now takes ")
    assert text.endswith("was the way. Take your move back to try again")


def test_a_drill_move_that_loses_the_falcon_lets_the_king_draw(solver):
    puzzle = HANGING
    attempt = judge(Attempt(puzzle), play(puzzle, "c8a5"), solver)  # 1. Fa5?? Kxa5
    assert attempt.status is Status.FAILED
    assert attempt.banner()[0].startswith("That lets the king draw. 1. F")
    assert attempt.banner()[0].endswith(" was the way. Take your move back to try again")


def test_judging_again_keeps_what_was_judged(solver):
    puzzle = find("duke-a")
    game = play(puzzle, "c1i7")
    first = judge(Attempt(puzzle), game, solver)
    assert judge(first, game, solver) is first


def test_hint_uses_the_key_only_at_the_start():
    # A key that is no move of the position: the engine's move is given instead.
    puzzle = find("duke-c")
    broken = Puzzle(
        puzzle.id, puzzle.name, puzzle.variant, puzzle.fen, puzzle.goal, "", "medium", "a1a2"
    )
    game = play(broken)
    move = hint(Attempt(broken), game, Solver())
    assert game.position.uci(move) == "d1a3"
