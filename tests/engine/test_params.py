"""One source for every number: the compiled core holds none of its own.

The search's numbers live in params.py and the evaluation's in weights.py;
the compiled core gets them at construction.  These tests fail when the core
keeps a number of its own: it must report back exactly what it was given,
follow changed evaluation numbers to the centipawn, and its source may
define nothing but sizes, codes and ordering classes.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from boardctl.engine import Engine, Limits, core, evaluate, params, piecesquare, weights
from boardctl.engine.evaluate import evaluator_for, material_sums
from boardctl.rules import VARIANTS, Position, get_variant

CORE_SOURCES = Path(core.__file__).with_name("csrc")
# What the core's sources may define: array sizes, piece and move codes, the
# packed moves' layouts, ordering key classes and include guards; each is a
# fact of the representation, not a choice of play.
STRUCTURAL = {
    "PY_SSIZE_T_CLEAN",
    "NSQ",
    "MAX_CELLS",
    "OCC_WORDS",
    "MAX_STEPS",
    "MAX_LINES",
    "MAX_FALCON",
    "NPATHS",
    "OFF",
    "PAWN",
    "KNIGHT",
    "BISHOP",
    "ROOK",
    "QUEEN",
    "KING",
    "FALCON",
    "BLACKBIT",
    "TYPE_MASK",
    "COLOUR_SHIFT",
    "F_DOUBLE",
    "F_EP",
    "F_CASTLE",
    "PLY_CAPACITY",
    "MAX_STACK",
    "MAX_MOVES",
    "MAX_FILES",
    "MAX_FUTILITY",
    "MAX_LMR_DEPTHS",
    "MAX_LMR_MOVES",
    "EXACT",
    "LOWER",
    "UPPER",
    "NWEIGHTS",
    "NSEARCH",
    "KEY_TT",
    "KEY_CAPTURE",
    "KEY_KILLER",
    "KEY_LOSING",
    "ORDER_SCALE",
    "M_FROM",
    "M_TO",
    "M_PROMO",
    "M_FLAG",
    "MOVE",
    "CODE_FROM",
    "CODE_TO",
    "CODE_PROMO",
    "CODE_FLAG",
    "CODE",
}
# The files of the evaluation and the search: they use 0, 1 and 2 (sides,
# parity, halving) and otherwise only what Python gave them.
PLAYING_FILES = ("eval.c", "order.c", "tt.c", "search.c")
# Tables of numbers the source may hold: none (the board's steps come from core.py).
STRUCTURAL_TABLES: set[str] = set()

needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")


def _code(text: str) -> str:
    return re.sub(r'"(\\.|[^"\\])*"', '""', re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def _sources() -> str:
    return "\n".join(path.read_text() for path in sorted(CORE_SOURCES.glob("*.[ch]")))


def test_the_core_source_defines_only_structure():
    code = _code(_sources())
    defined = set(re.findall(r"^#define\s+(\w+)", code, flags=re.M))
    # Each header's guard (#ifndef X, #define X) names no number.
    guards = set(re.findall(r"^#ifndef\s+(\w+)\n#define\s+\1\n", code, flags=re.M))
    assert len(guards) == len(list(CORE_SOURCES.glob("*.h")))
    assert defined - guards - STRUCTURAL == set()
    # Tables of numbers (lists of piece codes by name are fine).
    tables = {
        name
        for name, body in re.findall(r"static const int (\w+)\s*\[[^]]*\]\s*=\s*\{([^}]*)\}", code)
        if re.search(r"\d", body)
    }
    assert tables - STRUCTURAL_TABLES == set()


@pytest.mark.parametrize("name", PLAYING_FILES)
def test_the_evaluation_and_search_in_c_spell_no_number(name):
    """The evaluation, ordering, table and search use 0, 1 and 2 (sides,
    parity, halving) and otherwise only what Python gave them."""
    code = _code((CORE_SOURCES / name).read_text())
    code = re.sub(r"^#include.*$", "", code, flags=re.M)
    literals = re.findall(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)", code)
    assert set(literals) <= {"0", "1", "2"}


@needs_core
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_core_reports_back_the_numbers_it_was_given(variant):
    engine = core.build(get_variant(variant), tt_bits=10)
    assert engine.numbers() == (params.core_search(), evaluate.core_weights(get_variant(variant)))


@needs_core
def test_the_core_refuses_numbers_it_cannot_hold():
    variant = get_variant("falcon")
    with pytest.raises(ValueError, match="search"):
        core.build(variant, search=params.core_search()[:-1])
    numbers = list(params.core_search())
    numbers[2] = 40_000  # INF beyond the table's 16-bit scores
    with pytest.raises(ValueError, match="range"):
        core.build(variant, search=tuple(numbers))


@pytest.fixture
def other_numbers(monkeypatch):
    """Every evaluation number changed, in weights.py only."""

    def change(name, value):
        monkeypatch.setattr(weights, name, value)

    for name in (
        "BISHOP_PAIR",
        "FALCON_MOBILITY",
        "DOUBLED",
        "ISOLATED",
        "ROOK_OPEN",
        "ROOK_HALF_OPEN",
        "SHIELD",
        "DANGER_SCALE",
        "DANGER_CAP",
        "DANGER_DIVISOR",
    ):
        change(name, getattr(weights, name) * 2 + 3)
    change("MOBILITY", {k: (w + 1, b + 1) for k, (w, b) in weights.MOBILITY.items()})
    change("ZONE_WEIGHT", {k: w + 2 for k, w in weights.ZONE_WEIGHT.items()})
    phase = {k: w + 1 for k, w in weights.PHASE_WEIGHT.items()}
    change("PHASE_WEIGHT", phase)
    change("FULL_PHASE", 3 * sum(phase.values()))
    change("PASSED", tuple(v * 2 + 7 for v in weights.PASSED))
    change("VALUES", {k: (mg + 13, eg + 17) for k, (mg, eg) in weights.VALUES.items()})
    caches = (piecesquare.square_tables, piecesquare.cell_tables, piecesquare.hex_values)
    for cached in caches:
        cached.cache_clear()
    yield
    for cached in caches:
        cached.cache_clear()


@needs_core
@pytest.mark.parametrize("variant", ["falcon", "falcon-hex"])
@pytest.mark.parametrize("seed", range(3))
def test_the_core_follows_every_evaluation_number(other_numbers, variant, seed):
    rng = random.Random(seed)
    pos = Position(None, get_variant(variant))
    engine = core.build(pos.variant, tt_bits=10)
    evaluator = evaluator_for(pos)
    changed = 0
    for _ in range(120):
        core.load(engine, pos)
        reference = evaluator.evaluate(pos, *material_sums(pos))
        assert engine.evaluate() == reference, pos.fen()
        codes = pos.legal_codes()
        if not codes:
            break
        pos.make(rng.choice(codes))
        changed += 1
    assert changed > 30


def test_the_python_search_halves_its_history_at_the_limit():
    """As the compiled core does: history scores stay below the killers' keys."""
    engine = Engine(compiled=False, seed=0)
    engine.history.update(dict.fromkeys(range(1 << 14), params.HISTORY_LIMIT))
    engine.search(Position(), Limits(depth=4))
    assert max(engine.history.values()) <= params.HISTORY_LIMIT
    assert min(engine.history.values()) < params.HISTORY_LIMIT
