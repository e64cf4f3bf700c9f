"""FENs from outside (issue 11): every field that holds a number or a square,
probed with the numbers that str.isdigit() and int() wrongly take and with
huge ones.  Each probe is a Position or a FenError in one line, never another
exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.rules import FenError, Position, get_variant
from boardctl.rules.fen import MAX_FEN_COUNTER

START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
BAD_NUMBERS = [
    "²",
    "٣",
    "１",
    "1_0",
    "+1",
    "-1",
    "9" * 5000,
    str(MAX_FEN_COUNTER + 1),
    str(2**63),
    "1e3",
    "0x1",
]
BAD_COUNTS = ["²", "٣", "１", "²0", "11", "99", "9" * 5000, "01", "0"]


def _fen(**fields: str) -> str:
    placement, turn, castling, ep, half, full = START.split()
    values = {
        "placement": placement,
        "turn": turn,
        "castling": castling,
        "ep": ep,
        "half": half,
        "full": full,
        **fields,
    }
    return " ".join(values[k] for k in ("placement", "turn", "castling", "ep", "half", "full"))


def _refused(fen: str, field: str) -> None:
    with pytest.raises(FenError) as caught:
        Position(fen)
    assert caught.value.field == field
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize("text", BAD_NUMBERS)
def test_counters_are_ascii_and_bounded(text):
    _refused(_fen(half=text), "halfmove clock")
    _refused(_fen(full=text), "fullmove number")


@pytest.mark.parametrize("count", BAD_COUNTS)
def test_empty_counts_are_ascii_and_no_wider_than_the_board(count):
    _refused(
        _fen(placement=START.split()[0].replace("/10/10/10/", f"/{count}/10/10/", 1)),
        "piece placement",
    )


@pytest.mark.parametrize("square", ["e²", "e٣", "e３", "e" + "3" * 5000, "e03", "e+3"])
def test_en_passant_squares_are_ascii(square):
    _refused(_fen(turn="b", ep=square), "en passant")


def test_the_largest_counters_are_read():
    pos = Position(_fen(half="100", full=str(MAX_FEN_COUNTER)))
    assert pos.fullmove_number == MAX_FEN_COUNTER and pos.halfmove_clock == 100


FIELD_TEXT = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(BAD_NUMBERS + BAD_COUNTS),
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["placement", "turn", "castling", "ep", "half", "full"]),
    FIELD_TEXT,
    st.sampled_from(["falcon", "falcon-8x8", "falcon-10x10"]),
)
def test_any_field_is_read_or_refused_in_one_line(field, text, variant):
    fen = _fen(**{field: text.replace(" ", "")})
    try:
        Position(fen, get_variant(variant))
    except FenError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
