"""The K+F v K tablebase: built right, shipped right, and played by the engine."""

from __future__ import annotations

from functools import cache

import pytest

from boardctl.engine import Engine, Limits, tablebase
from boardctl.engine.tablebase import DRAW, ILLEGAL, FalconTable
from boardctl.rules import (
    DEFAULT_VARIANT,
    VARIANTS,
    FenError,
    Game,
    Geometry,
    Position,
    Termination,
    Variant,
)
from tests.engine_mates import mates_in

# A small board where the whole table is checked against the rules core in
# a second or two.  6×4 has every kind of position the 10×8 table has: the
# falcon's side wins from everywhere (on 5×5 it cannot, and a wrong rule for
# the falcon's capture goes unseen there), mates in 18, stalemates, and a
# falcon the bare king may take.
SMALL = Variant("kfk-6x4", "K+F v K on 6×4", Geometry(6, 4), "k5/6/6/K5 w - - 0 1", king_file=0)
# The longest mate on 10×8 (README, "The engine"): 33 moves.
LONGEST = "10/10/10/10/10/10/10/KFk7 w - - 0 1"
LONGEST_DTM = 65


@cache
def small_table() -> FalconTable:
    return tablebase.generate(SMALL.geometry)


def positions(variant: Variant):
    """Every placement of K, F and k on distinct squares, both sides to move."""
    geo = variant.geometry
    n = geo.size
    for k in range(n):
        for f in range(n):
            for b in range(n):
                if len({k, f, b}) == 3:
                    for strong_to_move in (True, False):
                        yield k, f, b, strong_to_move


def test_illegal_exactly_where_the_rules_core_refuses_the_position():
    table = small_table()
    geo = SMALL.geometry
    for k, f, b, strong_to_move in positions(SMALL):
        stored = (table.strong if strong_to_move else table.weak)[table.index(k, f, b)]
        try:
            Position(tablebase.fen_of(geo, k, f, b, strong_to_move), SMALL)
        except FenError:
            assert stored == ILLEGAL
        else:
            assert stored != ILLEGAL


def test_every_value_follows_from_the_legal_moves_of_the_rules_core():
    """Won in d: a move to lost in d-1 and none sooner; lost in d: every
    move to won, the slowest in d-1; mate is lost in 0; the falcon's
    capture and stalemate are draws."""
    table = small_table()
    geo = SMALL.geometry
    for k, f, b, strong_to_move in positions(SMALL):
        side = table.strong if strong_to_move else table.weak
        if side[table.index(k, f, b)] == ILLEGAL:
            continue
        pos = Position(tablebase.fen_of(geo, k, f, b, strong_to_move), SMALL)
        after = []
        for code in pos.legal_codes():
            pos.make(code)
            after.append(tablebase.value(pos, table))
            pos.unmake()
        dtm = table.dtm(k, f, b, strong_to_move)
        if not after:
            assert dtm == (0 if pos.is_check() else None), pos.fen()
        elif strong_to_move:
            wins = [d for d in after if d is not None]
            assert dtm == (min(wins) + 1 if wins else None), pos.fen()
        elif None in after:
            assert dtm is None, pos.fen()
        else:
            assert dtm == max(d for d in after if d is not None) + 1, pos.fen()


def test_the_tables_mates_are_checkmates_for_the_game():
    table = small_table()
    geo = SMALL.geometry
    mates = [
        (k, f, b)
        for k, f, b, strong_to_move in positions(SMALL)
        if not strong_to_move and table.weak[table.index(k, f, b)] == 1
    ]
    assert mates
    for k, f, b in mates:
        outcome = Game(SMALL, tablebase.fen_of(geo, k, f, b, False)).outcome()
        assert outcome is not None and outcome.termination is Termination.CHECKMATE


@pytest.mark.parametrize("dtm", [1, 3, 5])
def test_short_wins_agree_with_a_brute_force_search(dtm):
    table = small_table()
    geo = SMALL.geometry
    found = [
        (k, f, b)
        for k, f, b, strong_to_move in positions(SMALL)
        if strong_to_move and table.strong[table.index(k, f, b)] == dtm + 1
    ]
    for k, f, b in found[:: max(1, len(found) // 12)]:
        pos = Position(tablebase.fen_of(geo, k, f, b, True), SMALL)
        moves = (dtm + 1) // 2
        assert mates_in(pos, moves), pos.fen()
        assert moves == 1 or not mates_in(pos, moves - 1), pos.fen()


def test_the_table_is_the_same_under_the_mirror_of_the_files():
    table = small_table()
    geo = SMALL.geometry

    def mirror(sq: int) -> int:
        return geo.square(geo.files - 1 - geo.file_of(sq), geo.rank_of(sq))

    for k, f, b, strong_to_move in positions(SMALL):
        side = table.strong if strong_to_move else table.weak
        assert side[table.index(k, f, b)] == side[table.index(mirror(k), mirror(f), mirror(b))]


@pytest.mark.parametrize("variant", [DEFAULT_VARIANT, VARIANTS["falcon-8x8"]], ids=lambda v: v.name)
def test_the_shipped_table_is_what_the_generator_builds(variant):
    geo = variant.geometry
    shipped = tablebase.table_for(geo.files, geo.ranks)
    assert shipped == tablebase.generate(geo)


def test_on_10x8_the_falcon_wins_from_every_position_within_33_moves():
    table = tablebase.table_for(10, 8)
    assert table is not None
    assert DRAW not in table.strong
    assert max(v for v in table.strong if v != ILLEGAL) - 1 == LONGEST_DTM
    pos = Position(LONGEST)
    assert tablebase.value(pos, table) == LONGEST_DTM


def test_a_damaged_table_is_refused():
    data = small_table().to_bytes()
    for broken in (data[:-40], b"x" + data, data[: len(tablebase.MAGIC) + 8]):
        with pytest.raises(ValueError):
            FalconTable.from_bytes(broken)


def test_with_a_damaged_table_the_search_plays(monkeypatch):
    def damaged(files, ranks):
        raise ValueError("damaged K+F v K table: wrong length")

    monkeypatch.setattr(tablebase, "table_for", damaged)
    pos = Position(LONGEST)
    assert tablebase.answer(pos) is None
    assert Engine(seed=0).search(pos, Limits(depth=2)) in pos.legal_moves()


def test_the_answer_leaves_the_position_as_it_was():
    game = Game(fen=LONGEST)
    game.push_text("Fe3")
    pos = game.position
    before = (pos.fen(), pos.hash, list(pos.ply_stack))
    move, info = tablebase.answer(pos)
    assert (pos.fen(), pos.hash, list(pos.ply_stack)) == before
    assert info.pv[0] == move and len(info.pv) == LONGEST_DTM - 1


def test_the_mirror_gives_black_the_falcon():
    table = tablebase.table_for(10, 8)
    assert table is not None
    # LONGEST with the ranks mirrored and the colours swapped.
    pos = Position("kfK7/10/10/10/10/10/10/10 b - - 0 1")
    assert tablebase.value(pos, table) == LONGEST_DTM


def test_other_material_is_not_in_the_table():
    for fen in (
        "10/10/10/10/10/10/7R2/KFk7 w - - 0 1",
        "10/10/10/10/10/10/10/KFk4f2 w - - 0 1",
        "10/10/10/10/10/10/10/K1k7 w - - 0 1",
    ):
        assert tablebase.answer(Position(fen)) is None


@pytest.mark.parametrize(
    "fen", [LONGEST, "kfK7/10/10/10/10/10/10/10 b - - 0 1"], ids=["white-falcon", "black-falcon"]
)
def test_the_engine_mates_within_the_dtm_against_the_best_defence(backend, fen):
    table = tablebase.table_for(10, 8)
    assert table is not None
    game = Game(fen=fen)
    engine = Engine(seed=0)
    defender = game.position.turn ^ 1
    plies = 0
    while game.outcome() is None:
        pos = game.position
        if pos.turn == defender:
            choice = tablebase.choose(pos, table)
            assert choice is not None
            move = pos.to_move(choice[0])
        else:
            infos = []
            move = engine.search(pos.copy(), Limits(movetime=0.05), on_info=infos.append)
            assert move is not None
            assert infos[-1].mate == (LONGEST_DTM - plies + 1) // 2
        game.push(move)
        plies += 1
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner == defender ^ 1
    assert plies == LONGEST_DTM


def test_the_bare_king_defends_longest_and_takes_a_loose_falcon(backend):
    table = tablebase.table_for(10, 8)
    assert table is not None
    lost = Position("10/10/10/10/10/10/10/KFk7 b - - 0 1")
    infos = []
    move = Engine(seed=0).search(lost, Limits(depth=3), on_info=infos.append)
    assert move is not None
    assert infos[-1].mate == -33
    lost.push(move)
    assert tablebase.value(lost, table) == 65
    loose = Position("10/10/10/10/10/10/10/K4Fk3 b - - 0 1")
    move = Engine(seed=0).search(loose, Limits(depth=3))
    assert move is not None and loose.squares[move.to_square]


def test_a_mate_the_fifty_move_rule_would_cut_scores_as_a_draw(backend):
    fen = LONGEST.replace(" 0 1", " 40 60")
    infos = []
    move = Engine(seed=0).search(Position(fen), Limits(depth=3), on_info=infos.append)
    assert infos[-1].mate is None and infos[-1].score_cp == 0
    full = []
    assert Engine(seed=0).search(Position(LONGEST), Limits(depth=3), on_info=full.append) == move
    assert full[-1].mate == 33


def test_below_full_strength_the_engine_searches_instead(backend, monkeypatch):
    def refuse(pos):
        raise AssertionError("the table was asked")

    monkeypatch.setattr(tablebase, "answer", refuse)
    assert Engine(skill=10, seed=0).search(Position(LONGEST), Limits(depth=2)) is not None


def test_a_board_without_a_shipped_table_is_searched():
    seven = Variant("kfk-7x7", "7×7", Geometry(7, 7), "k6/7/7/7/7/7/K6 w - - 0 1", king_file=0)
    assert tablebase.table_for(7, 7) is None
    assert tablebase.answer(Position("7/7/7/7/7/7/KFk4 w - - 0 1", seven)) is None


def test_the_hexagon_is_searched_not_looked_up_in_a_rectangles_table():
    from boardctl.rules import Position, get_variant

    pos = Position("5/7k/9/10/11/12/11/12/11/10/9/8/FK3 w - - 0 1", get_variant("falcon-hex"))
    assert tablebase.placement(pos) is None and tablebase.answer(pos) is None
