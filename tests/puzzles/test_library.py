"""The puzzle library: what it ships, and that every puzzle is what it says."""

from __future__ import annotations

import pytest

from boardctl.puzzles import Solver, UnknownPuzzleError, find, library
from boardctl.puzzles.drills import BANDS, data_path, generate, render
from boardctl.puzzles.library import PuzzleDataError, parse
from boardctl.puzzles.verify import verify
from boardctl.rules import WHITE, Position, get_variant
from tests.engine_mates import forces_mate_with

# PUZZLES-seed.md: George W. Duke's essay (January 2000), section VI.
ESSAY = {
    "duke-a": ("7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1", 2, "c1i7"),
    "duke-b": ("10/p1P1r5/9R/k9/10/PP1bq5/6K3/10 w - - 0 1", 1, "c7c8f"),
    "duke-c": ("10/7p2/8p1/2k1P5/P9/2K7/3N6/3F6 w - - 0 1", 2, "d1a3"),
    "duke-d": ("10/4kp1N2/4p5/3p6/1PpF1P4/10/10/R3FK4 w - - 0 1", 2, "e1c4"),
    "duke-e": ("2b7/10/pknF6/2p7/2R1F5/P9/10/4K5 w - - 0 1", 2, "c4b4"),
}
MATES = [p.id for p in library() if p.goal.kind == "mate"]
DRILLS = [p.id for p in library() if p.goal.kind == "drill"]


@pytest.fixture(scope="module")
def solver():
    return Solver()


def test_the_inventors_five_are_shipped_as_the_seed_gives_them():
    for puzzle_id, (fen, moves, key) in ESSAY.items():
        puzzle = find(puzzle_id)
        assert (puzzle.fen, puzzle.goal.kind, puzzle.goal.moves, puzzle.key) == (
            fen,
            "mate",
            moves,
            key,
        )
        assert puzzle.variant == "falcon" and puzzle.side == WHITE
        assert "George W. Duke" in puzzle.source and "2000" in puzzle.source


def test_the_library_has_square_and_hexagon_mates_and_drills_of_each_grade():
    variants = {find(i).variant for i in MATES}
    assert {"falcon", "falcon-hex"} <= variants
    grades = {(find(i).variant, find(i).difficulty) for i in DRILLS}
    assert {("falcon", band) for band in BANDS} <= grades
    assert len({p.id for p in library()}) == len(library())


@pytest.mark.parametrize("puzzle_id", sorted(ESSAY))
def test_each_of_the_inventors_problems_mates_with_its_key_and_no_sooner(puzzle_id, solver):
    report = verify(find(puzzle_id), solver)
    assert report.ok, report.problems
    assert any("the key" in line for line in report.found)


@pytest.mark.parametrize("puzzle_id", sorted(set(MATES) - set(ESSAY)))
def test_each_of_our_own_mates_is_a_mate_in_its_moves_and_no_sooner(puzzle_id, solver):
    report = verify(find(puzzle_id), solver)
    assert report.ok, report.problems


@pytest.mark.parametrize("puzzle_id", DRILLS)
def test_each_drill_is_the_tables_distance_to_mate_and_its_grade(puzzle_id, solver):
    report = verify(find(puzzle_id), solver)
    assert report.ok, report.problems
    puzzle = find(puzzle_id)
    low, high, slack = BANDS[puzzle.difficulty]
    assert low <= puzzle.goal.moves <= high and puzzle.goal.slack == slack


# One test per mate (some take seconds, one 13 s): a parallel run spreads them.
@pytest.mark.parametrize("puzzle_id", [p.id for p in library() if p.goal.kind == "mate"])
def test_every_first_move_that_mates_is_found_and_the_brute_force_checker_agrees(puzzle_id, solver):
    """The engine's mate search names every first move of each mate that
    mates in time, and for the mates in one and two the exhaustive checker
    (which shares no code with the engine) finds the same; each key is the
    only one (no puzzle has a second solution)."""
    puzzle = find(puzzle_id)
    report = verify(puzzle, solver, every_move=True)
    assert set(report.solutions or ()) == {puzzle.key}
    if puzzle.goal.moves > 2:
        return  # the checker would take minutes
    pos = puzzle.position()
    brute = {
        pos.uci(m)
        for m in pos.legal_moves()
        if forces_mate_with(pos, pos.code_of(m), puzzle.goal.moves)
    }
    assert brute == {puzzle.key}


def test_the_shipped_drills_are_what_the_generator_writes():
    assert data_path().read_text(encoding="utf-8") == render(generate())


def test_a_wrong_puzzle_is_caught_by_the_verification(solver):
    # Problem A with another key, and as a mate in one (it is a mate in two).
    a = find("duke-a")
    wrong_key = parse(_entry(a.fen, 2, "c1c2"), "test")[0]
    assert "the key c1c2 does not mate in 2" in verify(wrong_key, solver).problems
    too_short = parse(_entry(a.fen, 1, None), "test")[0]
    assert "the engine finds no mate in 1" in verify(too_short, solver).problems
    shorter = parse(_entry(find("duke-b").fen, 2, None), "test")[0]
    assert "there is a mate in 1" in verify(shorter, solver).problems


def _entry(fen: str, moves: int, key: str | None) -> str:
    key_line = f'key = "{key}"\n' if key else ""
    return (
        f'[[puzzle]]\nid = "t"\nname = "t"\nvariant = "falcon"\nfen = "{fen}"\n'
        f'goal = "mate"\nmoves = {moves}\nsource = "test"\n{key_line}'
    )


def test_an_unknown_id_names_the_command_that_lists_them():
    with pytest.raises(UnknownPuzzleError, match="boardctl puzzles"):
        find("duke-z")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[puzzle]]\nid = "x"\n', "no goal"),
        (_entry("10/10/10 w - - 0 1", 2, None), "invalid FEN"),
        (_entry(Position().fen(), 2, None).replace('"mate"', '"win"'), "mate or drill"),
        ("[[puzzle", "test"),
    ],
)
def test_a_damaged_puzzle_file_says_what_is_wrong(text, message):
    with pytest.raises(PuzzleDataError, match=message):
        parse(text, "test")


def test_a_puzzles_position_is_one_of_its_preset():
    for puzzle in library():
        pos = puzzle.position()
        assert pos.variant is get_variant(puzzle.variant)
        assert pos.legal_codes(), puzzle.id
