"""The compiled core's legal moves where chess shortcuts fail, against the rules core.

The core makes and tests every pseudo-legal move; the rules core generates
evasions and pins directly.  Both must agree in the positions built for each
case (tests/rules/motifs.py): double checks a single block answers, pins along
falcon paths, en passant and castling beside falcons.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boardctl.engine import Engine, Limits, core
from boardctl.rules import VARIANTS, Position, perft

from ..rules.motifs import CASTLING_VARIANTS, DOUBLE_CHECKS, NOT_MATE, SHORTCUTS, built

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

MOTIFS = {**DOUBLE_CHECKS, **SHORTCUTS}


@pytest.mark.parametrize("motif", sorted(MOTIFS))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_both_cores_agree(motif, data):
    variants = CASTLING_VARIANTS if motif == "castling" else None
    strategy = built(MOTIFS[motif], variants) if variants else built(MOTIFS[motif])
    variant, fen = data.draw(strategy)
    pos = Position(fen, VARIANTS[variant])
    if motif in DOUBLE_CHECKS:
        assume(pos.checkers().bit_count() >= 2)
    engine = core.build(pos.variant, tt_bits=10)
    core.load(engine, pos)
    assert sorted(engine.legal_codes()) == sorted(pos.legal_codes()), fen
    assert engine.perft(2) == perft(pos, 2), fen


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_the_engine_answers_a_double_check_with_the_one_block(compiled):
    pos = Position(NOT_MATE)
    move = Engine(compiled=compiled).search(pos, Limits(depth=3))
    assert move is not None and pos.uci(move) == "c4e3"
