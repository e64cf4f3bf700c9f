"""Legal moves against making and testing every move, where chess shortcuts fail.

In Falcon Chess a falcon checks and pins through paths that are on no line, so
the shortcuts of an orthodox generator (king moves only against a double check,
pins only along lines) are wrong here.  Each property builds positions around
one such case (tests/rules/motifs.py) and checks the generator's legal moves
against the definition: the pseudo-legal moves after which the mover's king is
not attacked, and against the naive second generator.
"""

from __future__ import annotations

import naive_falcon as naive
import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st

from boardctl.rules import VARIANTS, Game, Position, get_variant
from boardctl.rules.moves import CASTLE, EN_PASSANT
from boardctl.rules.pieces import FALCON, KING

from .motifs import CASTLING_VARIANTS, DOUBLE_CHECKS, NOT_MATE, SHORTCUTS, built

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def king_safe_after(pos: Position, code: int) -> bool:
    us = pos.turn
    pos.make(code)
    safe = not pos.is_attacked(pos.kings[us], us ^ 1)
    pos.unmake()
    return safe


def made_and_tested(pos: Position) -> set[int]:
    """The definition: pseudo-legal moves (castling aside) that leave the king safe."""
    return {
        code
        for code in pos.pseudo_legal_codes()
        if code >> 17 != CASTLE and king_safe_after(pos, code)
    }


def assert_legal_moves_are_right(variant: str, fen: str) -> None:
    pos = Position(fen, VARIANTS[variant])
    legal = pos.legal_codes()
    assert len(set(legal)) == len(legal), fen
    assert {c for c in legal if c >> 17 != CASTLE} == made_and_tested(pos), fen
    assert all(king_safe_after(pos, c) for c in legal if c >> 17 == CASTLE), fen
    assert sorted(pos.uci(m) for m in pos.legal_moves()) == naive.legal_moves(fen, variant), fen
    assert pos.count_legal() == len(legal), fen
    if pos.is_check():
        assert sorted(pos.legal_captures()) == sorted(legal), fen
    else:
        expected = [
            c
            for c in legal
            if c >> 14 & 7
            or c >> 17 == EN_PASSANT
            or (c >> 17 != CASTLE and pos.squares[c >> 7 & 127])
        ]
        assert sorted(pos.legal_captures()) == sorted(expected), fen
    assert pos.fen() == fen


@pytest.mark.parametrize("motif", sorted(DOUBLE_CHECKS))
@SETTINGS
@given(data=st.data())
def test_double_check(motif, data):
    variant, fen = data.draw(built(DOUBLE_CHECKS[motif]))
    assume(Position(fen, VARIANTS[variant]).checkers().bit_count() >= 2)
    assert_legal_moves_are_right(variant, fen)


@pytest.mark.parametrize("motif", sorted(SHORTCUTS))
@SETTINGS
@given(data=st.data())
def test_other_shortcuts(motif, data):
    variants = CASTLING_VARIANTS if motif == "castling" else None
    strategy = built(SHORTCUTS[motif], variants) if variants else built(SHORTCUTS[motif])
    assert_legal_moves_are_right(*data.draw(strategy))


def test_a_double_check_that_one_block_answers_is_not_mate():
    game = Game(get_variant("falcon"), NOT_MATE)
    assert [game.position.uci(m) for m in game.position.legal_moves()] == ["c4e3"]
    assert game.outcome() is None


# The builders must keep reaching the cases they are for: each search below
# fails if no position of the kind turns up.
FIND = settings(
    max_examples=2000,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _position(case: tuple[str, str]) -> Position:
    return Position(case[1], VARIANTS[case[0]])


def _one_block_answers_two_checks(case: tuple[str, str]) -> bool:
    pos = _position(case)
    king = pos.kings[pos.turn]
    return pos.checkers().bit_count() >= 2 and any(code & 127 != king for code in pos.legal_codes())


def _falcon_pins_a_piece_on_no_line(case: tuple[str, str]) -> bool:
    """Out of check, a piece may not move because a falcon would reach the king."""
    pos = _position(case)
    us, king = pos.turn, pos.kings[pos.turn]
    if pos.is_check():
        return False
    for code in pos.pseudo_legal_codes():
        frm = code & 127
        if frm == king or pos.tables.between[king][frm] or pos.tables.king[king] >> frm & 1:
            continue
        pos.make(code)
        attackers = pos.attackers(pos.kings[us], us ^ 1)
        pos.unmake()
        if attackers and attackers == attackers & pos.pieces[FALCON]:
            return True
    return False


def _en_passant_opens_a_falcon_path(case: tuple[str, str]) -> bool:
    pos = _position(case)
    us = pos.turn
    for code in pos.pseudo_legal_codes():
        if code >> 17 == EN_PASSANT and not pos.is_attacked(pos.kings[us], us ^ 1):
            pos.make(code)
            attackers = pos.attackers(pos.kings[us], us ^ 1)
            pos.unmake()
            if attackers & pos.pieces[FALCON]:
                return True
    return False


def _castling_refused_for_a_falcon(case: tuple[str, str]) -> bool:
    """A castling square is attacked only by a falcon, out of check."""
    pos = _position(case)
    us = pos.turn
    king = pos.kings[us]
    if not pos.castling or pos.is_check():
        return False
    rank = pos.tables.rank_bb[pos.geometry.rank_of(king)]
    for sq in pos.geometry.squares(rank & ~pos.pieces[KING]):
        attackers = pos.attackers(sq, us ^ 1)
        if attackers and attackers == attackers & pos.pieces[FALCON]:
            return True
    return False


@pytest.mark.parametrize(
    ("strategy", "condition"),
    [
        (built(DOUBLE_CHECKS["falcon and line piece"]), _one_block_answers_two_checks),
        (built(DOUBLE_CHECKS["two falcons"]), _one_block_answers_two_checks),
        (built(SHORTCUTS["pin along a falcon path"]), _falcon_pins_a_piece_on_no_line),
        (built(SHORTCUTS["en passant"]), _en_passant_opens_a_falcon_path),
        (built(SHORTCUTS["castling"], CASTLING_VARIANTS), _castling_refused_for_a_falcon),
    ],
    ids=[
        "one block, two checks",
        "one block, two falcons",
        "falcon pin",
        "en passant opening a falcon path",
        "castling past a falcon",
    ],
)
def test_the_builders_reach_their_case(strategy, condition):
    assert condition(find(strategy, condition, settings=FIND))
