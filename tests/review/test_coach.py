"""The coach's judgement of a move and its words, on hand-made evaluations."""

from __future__ import annotations

import pytest

from boardctl.review.coach import (
    WARN_AT,
    Evaluation,
    Remark,
    hint_words,
    judge,
    material_cost,
    remark,
)
from boardctl.review.grading import MISTAKE, Grade, win_percent
from boardctl.rules import Position, parse_uci

# White's knight on c3 may go to d5, where Black's pawn on e6 takes it.
KNIGHT_HANGS = "9k/10/4p5/10/10/2N7/10/K9 w - - 0 1"


def moves(pos: Position, *texts: str) -> tuple:
    """The line ``texts`` from ``pos``, as moves (``pos`` is left as it was)."""
    board = pos.copy()
    out = []
    for text in texts:
        out.append(parse_uci(board, text))
        board.push(out[-1])
    return tuple(out)


def after(pos: Position, text: str) -> Position:
    board = pos.copy()
    board.push(parse_uci(board, text))
    return board


def remark_on(
    pos: Position, played: str, best: int, line: str, score: int, reply: str, offer: bool = True
) -> Remark | None:
    """The coach's remark on ``played``, the best move's ``line`` scoring
    ``best`` and ``played`` scoring ``score`` with the ``reply`` to it."""
    best_eval = Evaluation(best, None, moves(pos, *line.split()))
    played_eval = Evaluation(score, None, moves(after(pos, played), reply))
    return remark(pos, parse_uci(pos, played), best_eval, played_eval, offer=offer)


def test_the_margin_is_grading_s_mistake():
    assert WARN_AT == MISTAKE == 20.0


def test_a_move_that_loses_the_margin_is_warned_about_and_one_just_short_is_not():
    pos = Position(KNIGHT_HANGS)
    best = Evaluation(0, None, moves(pos, "c3e4"))
    played = parse_uci(pos, "c3d5")
    # After the move the opponent's score: 0 from the mover's side is no loss at all.
    assert judge(pos, played, best, Evaluation(0, None)).loss == pytest.approx(0.0)
    # Find the opponent's centipawns that cost the mover 20 points of win%, and one fewer.
    cp = next(c for c in range(1000) if win_percent(c, None) - 50 >= WARN_AT)
    at = judge(pos, played, best, Evaluation(cp, None))
    short = judge(pos, played, best, Evaluation(cp - 1, None))
    assert at is not None and at.warn and at.grade is Grade.MISTAKE
    assert short is not None and not short.warn


def test_the_engine_s_own_move_and_forced_moves_are_not_judged_against():
    pos = Position(KNIGHT_HANGS)
    best = Evaluation(0, None, moves(pos, "c3d5"))
    verdict = judge(pos, parse_uci(pos, "c3d5"), best, Evaluation(900, None))
    assert verdict is not None and verdict.loss == 0.0 and not verdict.warn
    # Black's king, checked by the rook on j1, has one move: i7 is the bishop's.
    forced = Position("9k/10/7B2/10/10/10/10/K8R b - - 0 1")
    assert forced.count_legal() == 1
    only = forced.legal_moves()[0]
    assert judge(forced, only, Evaluation(-900, None, (only,)), Evaluation(900, None)) is None


def test_a_hanging_knight_is_named():
    pos = Position(KNIGHT_HANGS)
    said = remark_on(pos, "c3d5", 250, "c3e4 j8i8", 90, "e6d5")
    assert said == Remark("That move loses a knight: Ne4 was better. Take it back?", True)


def test_without_takebacks_the_move_is_not_offered_back():
    pos = Position(KNIGHT_HANGS)
    said = remark_on(pos, "c3d5", 250, "c3e4", 90, "e6d5", offer=False)
    assert said == Remark("That move loses a knight: Ne4 was better.", False)


def test_a_queen_left_uncaptured_is_a_missed_win():
    # White's knight on c3 can take the queen on d5; it goes to b5 instead.
    pos = Position("9k/10/10/3q6/10/2N7/10/K9 w - - 0 1")
    said = remark_on(pos, "c3b5", 800, "c3d5", 800, "d5b5")
    assert said is not None
    assert said.text.startswith("That move loses a knight")  # the queen then takes it
    cost = material_cost(pos, parse_uci(pos, "c3b5"), moves(pos, "c3d5"), ())
    assert cost == "misses winning the queen"


def test_material_is_counted_while_it_is_won_or_lost_not_along_the_whole_line():
    # 1. Nc3 e6 2. Nd5?: the engine's lines at depth 9.  Counted whole, the best
    # line's later exchange (its knight for a bishop) hid the knight the move
    # loses, and the coach said "misses winning a pawn".
    pos = Position("rnbfqkfbnr/pppp1ppppp/4p5/10/10/2N7/PPPPPPPPPP/R1BFQKFBNR w KQkq - 2 2")
    best = moves(pos, *["d2d4", "d8f5", "c1f4", "g7g5", "g2g4", "f5c3", "e1c3", "g5f4", "d1f4"])
    reply = moves(
        after(pos, "c3d5"),
        *["e6d5", "g2g4", "d7d6", "h2h3", "c8e6", "d2d3", "i8h6", "c1g5", "d8g6"],
    )
    assert material_cost(pos, parse_uci(pos, "c3d5"), best, reply) == "loses a knight"


def test_a_fork_is_counted_and_a_capture_after_two_quiet_plies_is_not():
    pos = Position("r3r4k/10/10/1N8/10/10/10/8K1 w - - 0 1")
    fork = moves(pos, "b5c7", "e8e5", "c7a8")
    assert material_cost(pos, parse_uci(pos, "i1i2"), fork, ()) == "misses winning a rook"
    pos = Position(KNIGHT_HANGS)
    slow = moves(pos, "c3b5", "j8i8", "b5c7", "i8j8", "c7e6")  # the pawn, two quiet plies on
    assert material_cost(pos, parse_uci(pos, "a1b1"), slow, ()) is None


def test_a_piece_given_for_a_smaller_one_says_both():
    # White's queen goes where the bishop takes it, and the knight takes the bishop.
    pos = Position("9k/10/10/10/10/4N2b2/10/K2Q6 w - - 0 1")
    played = parse_uci(pos, "d1g4")
    reply = moves(after(pos, "d1g4"), "h3g4", "e3g4")
    assert material_cost(pos, played, moves(pos, "d1d7"), reply) == "loses the queen for a bishop"


def test_mates_allowed_and_missed_come_before_material():
    pos = Position(KNIGHT_HANGS)
    played = parse_uci(pos, "c3d5")
    best = Evaluation(100, None, moves(pos, "c3e4"))
    said = remark(pos, played, best, Evaluation(None, 2), offer=True)
    assert said is not None and said.text.startswith("That move allows mate in 2: Ne4")
    mating = Evaluation(None, 3, moves(pos, "c3e4"))
    said = remark(pos, played, mating, Evaluation(0, None), offer=True)
    assert said is not None and said.text.startswith("That move misses a mate in 3: Ne4")


def test_a_loss_with_no_material_to_name_is_called_by_its_grade():
    pos = Position(KNIGHT_HANGS)
    played = parse_uci(pos, "a1b1")
    best = Evaluation(0, None, moves(pos, "c3e4"))
    said = remark(pos, played, best, Evaluation(600, None), offer=True)
    assert said is not None and said.text.startswith("That move is a blunder: Ne4 was better.")


def test_a_good_move_says_nothing():
    pos = Position(KNIGHT_HANGS)
    best = Evaluation(250, None, moves(pos, "c3e4"))
    assert remark(pos, parse_uci(pos, "c3b5"), best, Evaluation(-240, None), offer=True) is None


def test_a_knight_left_to_a_falcon_is_said_once():
    # White's knight goes to f6, where Black's falcon on c5 takes it: the
    # engine's scores say nothing is lost (a trap, say), the falcon lesson stands.
    pos = Position("9k/10/10/2f7/4N5/10/10/K9 w - - 0 1")
    played = parse_uci(pos, "e4f6")
    best = Evaluation(0, None, moves(pos, "a1b1"))
    said = remark(pos, played, best, Evaluation(0, None), offer=True)
    assert said == Remark("The falcon on c5 can take the knight on f6 by c5-d5-e5-f6.", False)
    # A knight already there when White moves elsewhere was said before.
    pos = Position("9k/10/5N4/2f7/10/10/10/K9 w - - 0 1")
    assert remark(pos, parse_uci(pos, "a1b1"), best, Evaluation(0, None), offer=True) is None


def test_a_piece_lost_to_a_falcon_names_the_falcon():
    pos = Position("9k/10/10/2f7/4N5/10/10/K9 w - - 0 1")
    said = remark_on(pos, "e4f6", 0, "e4c5", 300, "c5f6")
    assert said == Remark(
        "That move loses a knight to a falcon: Nxc5 was better. Take it back?", True
    )


def test_without_the_engine_the_falcon_lessons_alone():
    pos = Position("9k/10/10/2f7/4N5/10/10/K9 w - - 0 1")
    said = remark(pos, parse_uci(pos, "e4f6"), None, None, offer=True)
    assert said is not None and said.text.startswith("The falcon on c5 can take the knight")


def test_a_falcon_move_the_last_move_opened_is_taught():
    pos = Position("9k/7p2/5pn3/4F5/10/10/10/K9 b - - 0 1")
    pos.push(parse_uci(pos, "g6e7"))
    capture = parse_uci(pos, "e5h7")
    said = remark(pos, capture, Evaluation(90, None, (capture,)), Evaluation(-90, None), True)
    assert said == Remark(
        "The falcon could go e5-f5-g6-h7 only because the knight left g6.",
        False,
    )


def test_a_hint_names_the_good_moves_best_first():
    pos = Position(KNIGHT_HANGS)
    ranked = [
        (parse_uci(pos, "c3e4"), (60, None)),
        (parse_uci(pos, "c3b5"), (40, None)),  # 20 centipawns worse: still good
        (parse_uci(pos, "c3d5"), (-250, None)),  # loses the knight: not named
    ]
    assert hint_words(pos, ranked) == "Best: Ne4 \N{EN DASH} c3 to e4; also good: Nb5"
    ranked[2] = (parse_uci(pos, "c3a4"), (55, None))
    assert hint_words(pos, ranked) == "Best: Ne4 \N{EN DASH} c3 to e4; also good: Nb5 or Na4"
    assert hint_words(pos, ranked[:1]) == "Best: Ne4 \N{EN DASH} c3 to e4"
    assert hint_words(pos, []) == ""


def test_a_hinted_falcon_move_the_last_move_opened_is_taught():
    pos = Position("9k/7p2/5pn3/4F5/10/10/10/K9 b - - 0 1")
    pos.push(parse_uci(pos, "g6e7"))
    ranked = [(parse_uci(pos, "e5h7"), (90, None)), (parse_uci(pos, "a1b1"), (80, None))]
    assert hint_words(pos, ranked) == "Best: Fxh7 (open since the knight left g6); also good: Kb1"
