"""Guided set-up: from whatever stands on the board to any position, one thing at a time."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.board.explain import occupancy
from boardctl.board.scene import Role
from boardctl.board.setup import SetUp, begin, complete, instruction, observe, scene
from boardctl.rules import VARIANTS, Game, Position

# The first of the essay's problems (PUZZLES-seed.md, A: mate in two).
PUZZLE_A = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"
PRESETS = ["falcon", "falcon-8x8", "falcon-10x10", "falcon-hex", "glinski"]
PUT = re.compile(r"Put a (white|black) (king|queen|rook|bishop|knight|falcon|pawn) on (\S+)")
OFF = re.compile(r"Take the piece off (\S+)")
MAX_MISTAKES = 8


def reading_after(s: SetUp, square: int, fill: bool) -> int:
    return s.reading | 1 << square if fill else s.reading & ~(1 << square)


def said_right(s: SetUp) -> None:
    """The instruction names a real square, and for a piece to put down,
    the target's piece there in words."""
    step = instruction(s)
    assert step is not None
    geo = s.target.geometry
    words = PUT.fullmatch(step.text) if step.put else OFF.fullmatch(step.text)
    assert words is not None, step.text
    assert geo.parse_square(words.groups()[-1]) == step.square
    if step.put:
        found = s.target.piece_at(step.square)
        assert found is not None
        assert (words[1], words[2]) == (("white", "black")[found[1]], found[0].title)
        assert not s.reading >> step.square & 1
    else:
        assert s.reading >> step.square & 1


@st.composite
def targets(draw: st.DrawFn) -> Position:
    game = Game(VARIANTS[draw(st.sampled_from(PRESETS))])
    for _ in range(draw(st.integers(0, 30))):
        moves = game.position.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(draw(st.sampled_from(moves)))
    return Position(game.position.fen(), game.variant)


@settings(max_examples=60)
@given(targets(), st.data())
def test_following_the_guidance_reaches_any_target_despite_mistakes(
    target: Position, data: st.DataObject
) -> None:
    size = target.geometry.size
    if data.draw(st.booleans(), "from the preset's start, known"):
        known: Position | None = Position(None, target.variant)
        reading = occupancy(known)
    else:
        known = None
        reading = data.draw(st.integers(0, (1 << size) - 1), "any occupancy")
    s = begin(target, reading, known)
    # Each step the player follows, or makes one more piece to take off or
    # put back: the steps needed are exactly the work at the start, plus two
    # for each mistake (making it and mending it).
    work = bin(s.reading & ~s.trusted).count("1") + bin(occupancy(target) & ~s.trusted).count("1")
    mistakes = steps = 0
    while (step := instruction(s)) is not None:
        assert steps <= work + 2 * mistakes
        said_right(s)
        steps += 1
        choice = data.draw(st.sampled_from(["follow", "other", "mistake"]))
        if choice == "mistake" and mistakes < MAX_MISTAKES:
            wrong = [
                sq
                for sq in range(size)
                if not s.reading >> sq & 1 and sq not in (step.square, s.asked)
            ] + [sq for sq in target.geometry.squares(s.trusted)]
            if wrong:
                sq = data.draw(st.sampled_from(wrong))
                s = observe(s, reading_after(s, sq, not s.reading >> sq & 1))
                mistakes += 1
                continue
        untrusted = target.geometry.squares(s.reading & ~s.trusted)
        if choice == "other" and untrusted:
            # Taking off any piece the guidance will ask off is right, in any order.
            s = observe(s, reading_after(s, data.draw(st.sampled_from(untrusted)), False))
            continue
        s = observe(s, reading_after(s, step.square, step.put))
    assert complete(s) and s.reading == occupancy(target)
    assert steps == work + 2 * mistakes


def test_from_the_start_position_to_the_first_puzzle_in_words() -> None:
    variant = VARIANTS["falcon"]
    start = Position(None, variant)
    s = begin(Position(PUZZLE_A, variant), occupancy(start), start)
    said = []
    while (step := instruction(s)) is not None:
        said.append(step.text)
        s = observe(s, reading_after(s, step.square, step.put))
    # Black's pawns on h7, i7 and j7 stood there already, known: untouched.
    off = said[:-8]
    assert len(off) == 37 and all(text.startswith("Take the piece off ") for text in off)
    assert "Take the piece off h7" not in said
    assert said[-8:] == [
        "Put a white king on h1",
        "Put a black king on i8",
        "Put a white queen on c1",
        "Put a white knight on h4",
        "Put a white falcon on h5",
        "Put a black rook on h8",
        "Put a white pawn on i5",
        "Put a white pawn on j5",
    ]
    assert complete(s)


def test_a_piece_put_down_where_it_was_not_asked_for_is_asked_off() -> None:
    variant = VARIANTS["falcon"]
    geo = variant.geometry
    target = Position(PUZZLE_A, variant)
    s = begin(target, 0)
    assert _text(s) == "Put a white king on h1"
    s = observe(s, 1 << geo.parse_square("i8"))  # a square the target fills, but not asked
    assert _text(s) == "Take the piece off i8"
    assert scene(instruction(s)).squares == {geo.parse_square("i8"): Role.FIX_FROM}
    s = observe(s, s.reading | 1 << geo.parse_square("h1"))  # the king, where asked
    assert _text(s) == "Take the piece off i8"
    s = observe(s, s.reading & ~(1 << geo.parse_square("i8")))
    assert _text(s) == "Put a black king on i8"
    lit = scene(instruction(s))
    assert lit.squares == {geo.parse_square("i8"): Role.FIX_TO}
    assert lit.blink == {geo.parse_square("i8")}


def test_the_targets_occupancy_with_an_unasked_piece_is_not_complete() -> None:
    variant = VARIANTS["falcon"]
    target = Position("k9/10/10/10/10/10/10/9K w - - 0 1", variant)
    geo = variant.geometry
    s = begin(target, 0)
    s = observe(s, 1 << geo.parse_square("a8"))  # the black king's square, unasked
    s = observe(s, s.reading | 1 << geo.parse_square("j1"))  # the white king, asked
    assert s.reading == occupancy(target)
    assert not complete(s) and _text(s) == "Take the piece off a8"


def test_the_hexagon_is_named_by_its_cells() -> None:
    target = Position(None, VARIANTS["falcon-hex"])
    s = begin(target, 0)
    first = instruction(s)
    assert first is not None and first.put
    assert first.text == f"Put a white king on {target.geometry.name(target.kings[0])}"


def _text(s: SetUp) -> str:
    step = instruction(s)
    return "" if step is None else step.text
