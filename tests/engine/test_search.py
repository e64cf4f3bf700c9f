"""The search: forced mates, legality, stop, limits, skill levels."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.engine import MAX_SKILL, Engine, Limits, params, tree
from boardctl.rules import VARIANTS, Game, Position
from tests.engine_mates import forces_mate_with

MATES = [
    (int(n), fen.strip())
    for n, fen in (
        line.split("|")
        for line in Path(__file__).with_name("mates.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
]


# Every test here runs on both search cores (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")


@pytest.mark.parametrize(
    ("n", "fen"), MATES, ids=[f"mate{n}-{i}" for i, (n, _) in enumerate(MATES)]
)
def test_finds_the_forced_mate(n, fen):
    pos = Position(fen)
    infos = []
    move = Engine(seed=0).search(pos, Limits(mate=n), on_info=infos.append)
    assert infos[-1].mate == n
    assert forces_mate_with(pos, pos.code_of(move), n)
    assert pos.fen() == fen


def test_reports_being_mated_with_a_negative_mate():
    # The rook ladder after 1. Ri2: Black's only move is Kj7, then Rj1 mates.
    pos = Position("9k/10/10/10/10/K9/8R1/R9 b - - 0 1")
    infos = []
    Engine().search(pos, Limits(depth=4), on_info=infos.append)
    assert infos[-1].mate == -1


def test_no_legal_move_gives_none():
    assert Engine().search(Position("10/10/10/10/10/3F6/2K7/k9 b - - 0 1"), Limits(depth=2)) is None


def test_stop_is_respected_and_still_gives_a_legal_move():
    pos = Position()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    move = Engine().search(pos, Limits(infinite=True), stop=stop)
    assert move in pos.legal_moves()
    assert len(calls) == 4  # it stopped at the first True
    assert pos.fen() == Position().fen()


def test_depth_and_node_limits():
    infos = []
    Engine().search(Position(), Limits(depth=3), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]
    engine = Engine()
    engine.search(Position(), Limits(nodes=2000))
    assert engine.nodes <= 2000 + 512


def test_clock_limits_give_a_move():
    pos = Position()
    move = Engine().search(pos, Limits(wtime=2.0, btime=2.0, winc=0.1, binc=0.1))
    assert move in pos.legal_moves()


def test_a_node_clock_counts_a_moves_time_in_positions_and_repeats_exactly():
    pos = Position()

    def search(limits: Limits) -> tuple[int, list[tuple[int, int, str]]]:
        engine = Engine(seed=3)
        engine.nodes_per_second = 20_000
        infos = []
        engine.search(pos, limits, on_info=infos.append)
        return engine.nodes, [(i.depth, i.nodes, " ".join(map(pos.uci, i.pv))) for i in infos]

    nodes, infos = search(Limits(movetime=0.5))
    assert 0 < nodes <= 0.5 * 20_000  # the move's time in positions, whatever the machine
    assert (nodes, infos) == search(Limits(movetime=0.5))
    nodes, _ = search(Limits(wtime=30.0, btime=30.0))
    assert 0 < nodes <= 30.0 * 0.4 * 20_000  # never more than a clock's hard limit


def test_the_first_ply_is_finished_however_little_time_there_is(monkeypatch):
    # The clock looked at every node, so that a time limit would cut the first ply short.
    monkeypatch.setattr(params, "CORE_CHECK_EVERY", 1)
    monkeypatch.setattr(tree, "CHECK_EVERY", 1)
    # The queen on e4 hangs; the first legal move is not its capture.
    pos = Position("k9/10/10/10/4q5/10/4R5/K9 w - - 0 1")
    assert pos.uci(pos.legal_moves()[0]) != "e2e4"
    assert pos.uci(Engine().search(pos, Limits(movetime=1e-6))) == "e2e4"


def test_skill_zero_is_shallow_and_varied():
    pos = Position()
    infos = []
    moves = set()
    for seed in range(12):
        infos.clear()
        move = Engine(skill=0, seed=seed).search(pos, Limits(depth=10), on_info=infos.append)
        moves.add(pos.uci(move))
        assert infos[-1].depth == 1
    assert len(moves) >= 4


def test_full_strength_varies_its_opening_but_not_its_endgame():
    pos = Position()
    firsts = {pos.uci(Engine(seed=s).search(pos, Limits(depth=2))) for s in range(10)}
    assert len(firsts) >= 2
    mate = Position(MATES[0][1])
    assert len({mate.uci(Engine(seed=s).search(mate, Limits(depth=4))) for s in range(4)}) == 1


def test_repetition_is_a_draw_inside_the_search():
    # Black can only shuffle; a position already seen twice scores as a draw.
    game = Game()
    for text in ("i1h3", "i8h6", "h3i1", "h6i8", "i1h3", "i8h6", "h3i1"):
        game.push_text(text)
    infos = []
    Engine().search(game.position, Limits(depth=3), on_info=infos.append)
    assert infos[-1].score_cp is not None


@st.composite
def positions(draw: st.DrawFn) -> Position:
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    pos = Position(None, variant)
    for _ in range(draw(st.integers(0, 50))):
        codes = pos.legal_codes()
        if not codes:
            break
        pos.make(draw(st.sampled_from(codes)))
    return pos


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 3000), st.integers(0, MAX_SKILL))
def test_never_an_illegal_move_and_the_position_is_left_alone(pos, nodes, skill):
    fen, key, depth = pos.fen(), pos.hash, len(pos.ply_stack)
    move = Engine(skill=skill, seed=nodes).search(pos, Limits(nodes=nodes))
    legal = pos.legal_moves()
    assert (move is None) == (not legal)
    assert move is None or move in legal
    assert pos.fen() == fen and pos.hash == key and len(pos.ply_stack) == depth
