"""What a chess player misses about the falcon, on hand-made positions."""

from __future__ import annotations

from boardctl.review.falcon import (
    falcon_threats,
    opened_path,
    opened_words,
    threat_words,
)
from boardctl.rules import Position, parse_uci
from boardctl.rules.pieces import KNIGHT, PAWN, QUEEN

from ..positions import after

# White's falcon on e5 looks at h7, a (+3, +2) move: its paths run e5-f6-g7-h7,
# e5-f6-g6-h7 and e5-f5-g6-h7.  The pawn on f6 blocks the first two, the
# knight on g6 the last two.
BLOCKED = "9k/7p2/5pn3/4F5/10/10/10/K9 b - - 0 1"


def test_a_falcon_move_opened_by_the_knight_leaving_its_path():
    pos = after(BLOCKED, "g6e7")
    capture = parse_uci(pos, "e5h7")
    opened = opened_path(pos, capture)
    assert opened is not None
    name = pos.geometry.name
    assert (name(opened.vacated), opened.piece, opened.taken) == ("g6", KNIGHT, False)
    assert [name(sq) for sq in opened.path] == ["f5", "g6"]
    assert opened_words(pos, opened) == (
        "The falcon could go e5-f5-g6-h7 only because the knight left g6"
    )


def test_no_opening_when_the_path_was_open_before_or_stays_shut():
    # The king's move opens nothing: the capture is not even legal.
    pos = after(BLOCKED, "j8i8")
    square = pos.geometry.parse_square
    assert not pos.open_falcon_paths(square("e5"), square("h7"))
    # Without the pawn on f6 the way by f6 and g7 was open all along.
    pos = after("9k/7p2/6n3/4F5/10/10/10/K9 b - - 0 1", "g6e7")
    assert opened_path(pos, parse_uci(pos, "e5h7")) is None
    # A falcon move elsewhere, and a move that is no falcon's.
    pos = after(BLOCKED, "g6e7")
    assert opened_path(pos, parse_uci(pos, "e5f8")) is None
    assert opened_path(pos, parse_uci(pos, "a1b2")) is None
    # No history: nothing to have opened it.
    assert opened_path(Position(pos.fen()), parse_uci(pos, "e5h7")) is None


def test_a_pawn_taken_en_passant_opens_the_path_too():
    # The falcon on c3 looks at f5 by c3-d4-e5-f5, c3-d4-e4-f5 and c3-d3-e4-f5:
    # the knight on d4 shuts the first two, the pawn that steps to e4 the last,
    # until Black takes it en passant.
    pos = after("9k/10/10/10/3N1p4/2F7/4P5/K9 w - - 0 1", "e2e4", "f4e3")
    opened = opened_path(pos, parse_uci(pos, "c3f5"))
    assert opened is not None
    assert (opened.piece, opened.taken) == (PAWN, True)
    assert opened_words(pos, opened) == (
        "The falcon could go c3-d3-e4-f5 only because the pawn was taken on e4"
    )


def test_a_knight_attacked_by_the_falcon_alone_and_unguarded():
    # White has just put the knight on f6: the black falcon on c5 takes it (+3, +1).
    pos = Position("9k/10/5N4/2f7/10/10/10/K9 b - - 0 1")
    threats = falcon_threats(pos)
    assert len(threats) == 1
    threat = threats[0]
    assert (pos.geometry.name(threat.target), threat.piece, threat.guarded) == ("f6", KNIGHT, False)
    assert threat_words(pos, threat) == "The falcon on c5 can take the knight on f6 by c5-d5-e5-f6"


def test_no_falcon_threat_when_another_piece_attacks_or_it_is_guarded():
    # A bishop on h8 attacks f6 as well: a chess player sees that one.
    assert falcon_threats(Position("7b1k/10/5N4/2f7/10/10/10/K9 b - - 0 1")) == []
    # Guarded by the pawn on e5, the knight is worth less than the falcon.
    assert falcon_threats(Position("9k/10/5N4/2f1P5/10/10/10/K9 b - - 0 1")) == []
    # Guarded, a queen is still worth more than the falcon.
    threats = falcon_threats(Position("9k/10/5Q4/2f1P5/10/10/10/K9 b - - 0 1"))
    assert [(t.piece, t.guarded) for t in threats] == [(QUEEN, True)]
    # The side to move's own pieces are not threatened by its falcon.
    assert falcon_threats(Position("9k/10/5N4/2f7/10/10/10/K9 w - - 0 1")) == []


def test_a_pinned_falcon_threatens_nothing():
    # The falcon on c5 stands between its king on c8 and White's rook on c1.
    assert falcon_threats(Position("2k7/10/5N4/2f7/10/10/10/K1R7 b - - 0 1")) == []
    # Unpinned (the rook on d1), it does.
    threats = falcon_threats(Position("2k7/10/5N4/2f7/10/10/10/K2R6 b - - 0 1"))
    assert [t.piece for t in threats] == [KNIGHT]


def test_a_pawn_is_named_as_a_pawn():
    threats = falcon_threats(Position("9k/10/5P4/2f7/10/10/10/K9 b - - 0 1"))
    assert [t.piece for t in threats] == [PAWN]
