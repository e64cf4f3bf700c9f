"""The compiled core against the rules core: moves, perft, hashes, evaluation.

The rules core (and its perft files, established with independent naive
generators) is the reference; the compiled core must agree everywhere, on
the rectangles and on the hexagons.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from boardctl.engine import Engine, Limits, core
from boardctl.engine.evaluate import evaluator_for, material_sums
from boardctl.rules import VARIANTS, Position, get_variant
from boardctl.rules.hexgeo import HexGeometry
from boardctl.rules.moves import EN_PASSANT
from boardctl.rules.pieces import PAWN

from ..rules.helpers import perft_cases

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

PERFT = [*perft_cases("perft.txt"), *perft_cases("perft_hex.txt")]


def _core_at(pos: Position) -> core.Core:
    engine = core.build(pos.variant, tt_bits=12)
    core.load(engine, pos)
    return engine


def _python_eval(pos: Position) -> int:
    evaluator = evaluator_for(pos)
    return evaluator.evaluate(pos, *material_sums(pos))


@pytest.mark.parametrize(
    ("name", "variant", "fen", "counts"), PERFT, ids=[f"{row[0]}-{row[1]}" for row in PERFT]
)
def test_perft_counts_match_the_reference(name, variant, fen, counts):
    pos = Position(fen, get_variant(variant))
    engine = _core_at(pos)
    assert [engine.perft(d) for d in range(1, len(counts) + 1)] == counts
    assert engine.hash() == pos.hash
    assert engine.evaluate() == _python_eval(pos)


def _play_random_game(variant: str, seed: int, pawn_bias: float) -> Counter[str]:
    """Moves, hash and evaluation after every move of a random game, kept in
    step by push/pop and checked against a fresh load of each position;
    returns how many special moves were checked along the way."""
    rng = random.Random(seed)
    pos = Position(None, get_variant(variant))
    engine = _core_at(pos)
    seen: Counter[str] = Counter()
    for _ in range(160):
        codes = pos.legal_codes()
        assert sorted(engine.legal_codes()) == sorted(codes), pos.fen()
        assert engine.hash() == pos.hash, pos.fen()
        assert engine.evaluate() == _python_eval(pos), pos.fen()
        fresh = _core_at(pos)
        assert fresh.hash() == pos.hash and fresh.evaluate() == engine.evaluate()
        seen["positions"] += 1
        if not codes or pos.halfmove_clock >= 100:
            break
        # Prefer pawn moves now and then, to reach endings, promotions and
        # en passant.
        pushes = [c for c in codes if pos.squares[c & 127] & 7 == PAWN]
        takes = [c for c in codes if c >> 17 == EN_PASSANT]
        code = rng.choice(
            takes
            if takes and rng.random() < pawn_bias
            else pushes
            if pushes and rng.random() < pawn_bias
            else codes
        )
        seen["en passant"] += code >> 17 == EN_PASSANT
        seen["promotion"] += bool(code >> 14 & 7)
        pos.make(code)
        engine.push(code)
        if rng.random() < 0.05:  # take a move back now and then
            pos.unmake()
            engine.pop()
    return seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_move_by_move(variant, seed):
    assert _play_random_game(variant, seed, 0.3)["positions"] > 10


@pytest.mark.parametrize(
    "variant", sorted(n for n, v in VARIANTS.items() if isinstance(v.geometry, HexGeometry))
)
def test_random_hex_games_reach_en_passant_and_promotions(variant):
    """Pawn-heavy games on the hexagon, until both special moves were checked."""
    seen: Counter[str] = Counter()
    for seed in range(20):
        seen += _play_random_game(variant, 100 + seed, 0.7)
        if seen["en passant"] >= 3 and seen["promotion"] >= 3:
            break
    assert seen["en passant"] >= 3 and seen["promotion"] >= 3, seen


def test_repetition_history_reaches_the_core():
    # Knights out and back twice: the start position has occurred twice, so
    # the side to move sees a draw by repeating once more.
    pos = Position()
    for text in ["b1c3", "b8c6", "c3b1", "c6b8"] * 2:
        pos.push(pos.legal_moves()[[pos.uci(m) for m in pos.legal_moves()].index(text)])
    engine = _core_at(pos)
    assert engine.hash() == pos.hash
    _score, move, stopped, *_ = engine.root(
        2, -32000, 32000, pos.legal_codes(), [0] * 24, -1, 0, None
    )
    assert not stopped and move in pos.legal_codes()


def test_bad_input_is_refused_with_a_clear_error():
    pos = Position()
    engine = _core_at(pos)
    with pytest.raises(ValueError, match="not a legal move"):
        engine.push(0)
    with pytest.raises(ValueError, match="not a legal move"):
        engine.root(1, -1, 1, [0], [0], -1, 0, None)
    with pytest.raises(ValueError, match="bad piece code"):
        engine.set_position([99, *pos.squares[1:]], 0, [], -1, 0, [])
    with pytest.raises(ValueError, match="needs a king"):
        engine.set_position([0] * 80, 0, [], -1, 0, [])
    with pytest.raises(ValueError, match="expected 80"):
        engine.set_position([0] * 10, 0, [], -1, 0, [])
    with pytest.raises(RuntimeError, match="no move to take back"):
        engine.pop()


def test_an_error_in_the_stop_callback_surfaces():
    pos = Position()
    engine = _core_at(pos)

    def broken() -> bool:
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        engine.root(30, -32000, 32000, pos.legal_codes(), [0] * 24, -1, 0, broken)
    # The core is usable again afterwards.
    assert engine.perft(2) == 576


def test_the_search_leaves_the_core_on_the_root_position():
    pos = Position("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1")
    engine = _core_at(pos)
    before = engine.hash(), engine.evaluate(), sorted(engine.legal_codes())
    engine.root(4, -32000, 32000, pos.legal_codes(), [0] * len(pos.legal_codes()), -1, 0, None)
    assert (engine.hash(), engine.evaluate(), sorted(engine.legal_codes())) == before


def test_both_cores_take_a_rook_the_falcon_reaches():
    # The falcon on e2 reaches c5, a zebra square (-2, +3), by open paths.
    pos = Position("5k4/10/10/2r7/10/10/4F5/5K4 w - - 0 1")
    fast = Engine(compiled=True).search(pos, Limits(depth=4))
    slow = Engine(compiled=False).search(pos, Limits(depth=4))
    assert fast is not None and slow is not None
    assert pos.is_capture(fast) and pos.is_capture(slow)


@pytest.mark.parametrize("variant", ["falcon", "falcon-hex"])
def test_a_mailbox_too_narrow_for_its_leaps_is_refused(variant, monkeypatch):
    box = core.mailbox(get_variant(variant))
    low = min(box.cells)
    monkeypatch.setattr(
        core, "mailbox", lambda _: dataclasses.replace(box, cells=tuple(c - low for c in box.cells))
    )
    with pytest.raises(ValueError, match="leaves the mailbox"):
        core.build(get_variant(variant), tt_bits=10)


def test_the_mailbox_pads_the_longest_leap():
    """The falcon's leap is the longest: 3 squares on 10x8, 5 cells on the hexagon."""
    square = core.mailbox(get_variant("falcon"))
    assert (square.width, square.height) == (10 + 2 * 3, 8 + 2 * 3)
    hexagon = core.mailbox(get_variant("falcon-hex"))
    assert (hexagon.width, hexagon.height) == (13 + 2 * 5, 13 + 2 * 5)
    assert len(hexagon.king) == len(hexagon.knight) == 12
    assert len(hexagon.falcon) == 24 * 7
