"""Properties that hold in every position reached by random legal play."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.rules import VARIANTS, FenError, Game, Position, movegen, parse_san, parse_uci, san
from boardctl.rules.pgn import export, read_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn) -> Game:
    game = Game(VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))])
    for _ in range(draw(st.integers(0, 60))):
        moves = game.position.legal_moves()
        if not moves or game.outcome():
            break
        game.push(draw(st.sampled_from(moves)))
    return game


@SETTINGS
@given(games())
def test_make_unmake_and_the_incremental_hash(game):
    pos = game.position
    fen, key = pos.fen(), pos.hash
    assert key == pos.compute_hash()
    assert Position(fen, game.variant).hash == key
    for code in pos.legal_codes():
        pos.make(code)
        assert pos.hash == pos.compute_hash()
        assert Position(pos.fen(), game.variant).fen() == pos.fen()
        pos.unmake()
        assert pos.fen() == fen and pos.hash == key


@SETTINGS
@given(games(), st.randoms(use_true_random=False))
def test_the_kept_legal_moves_are_always_the_positions_own(game, rng):
    # Position keeps its legal codes for the position they were made for:
    # whatever moves, takes back, passes, copies or turns, what it answers is
    # what the generator says now, and a caller's changes to the list it was
    # handed change nothing.
    pos = game.position

    def fresh(p: Position) -> list[int]:
        return sorted(movegen.legal_codes(p))

    for _ in range(12):
        handed = pos.legal_codes()
        assert sorted(handed) == fresh(pos)
        handed.clear()
        assert sorted(pos.legal_codes()) == fresh(pos)
        assert [pos.code_of(m) for m in pos.legal_moves()] == pos.legal_codes()
        other = pos.copy() if rng.random() < 0.3 else pos
        step = rng.random()
        if step < 0.5 and other.legal_codes():
            other.make(rng.choice(other.legal_codes()))
        elif step < 0.7 and other.ply_stack:
            other.unmake()
        elif step < 0.8 and not other.is_check():
            other.make_null()
            assert sorted(other.legal_codes()) == fresh(other)
            other.unmake_null()
        elif step < 0.9:
            with contextlib.suppress(FenError):  # the side not to move would be in check
                other = other.with_turn(other.turn ^ 1)
        else:
            other.set_fen(other.fen())
        assert sorted(other.legal_codes()) == fresh(other)
        assert sorted(pos.legal_codes()) == fresh(pos)


@SETTINGS
@given(games())
def test_every_legal_move_round_trips_through_both_notations(game):
    pos = game.position
    texts = set()
    for move in pos.legal_moves():
        assert parse_uci(pos, pos.uci(move)) == move
        text = san(pos, move)
        assert parse_san(pos, text) == move
        texts.add(text)
    assert len(texts) == len(pos.legal_moves())


@SETTINGS
@given(games())
def test_no_legal_move_leaves_the_own_king_attacked(game):
    pos = game.position
    us = pos.turn
    for code in pos.legal_codes():
        pos.make(code)
        assert not pos.is_attacked(pos.kings[us], us ^ 1)
        pos.unmake()


@SETTINGS
@given(games())
def test_pgn_round_trip(game):
    _, again = read_game(export(game))
    assert again.moves == game.moves
    assert again.position.fen() == game.position.fen()
    assert again.variant == game.variant


@SETTINGS
@given(games())
def test_legal_moves_are_the_pseudo_legal_ones_that_keep_the_king_safe(game):
    pos = game.position
    us = pos.turn
    safe = set()
    for code in pos.pseudo_legal_codes():
        pos.make(code)
        if not pos.is_attacked(pos.kings[us], us ^ 1):
            safe.add(code)
        pos.unmake()
    assert safe == set(pos.legal_codes())


@SETTINGS
@given(games())
def test_legal_captures_are_the_captures_and_promotions_among_legal_moves(game):
    pos = game.position
    if pos.is_check():
        assert sorted(pos.legal_captures()) == sorted(pos.legal_codes())
        return
    expected = []
    for code in pos.legal_codes():
        flag = code >> 17
        target = pos.squares[code >> 7 & 127]
        if (target and flag != 3) or flag == 2 or code >> 14 & 7:
            expected.append(code)
    assert sorted(pos.legal_captures()) == sorted(expected)


@SETTINGS
@given(games())
def test_null_move_passes_the_turn_and_comes_back(game):
    pos = game.position
    if pos.is_check():
        return
    fen, key = pos.fen(), pos.hash
    pos.make_null()
    assert pos.hash == pos.compute_hash()
    assert pos.fen().split()[1] != fen.split()[1]
    pos.unmake_null()
    assert pos.fen() == fen and pos.hash == key


@SETTINGS
@given(games())
def test_copy_is_independent_and_keeps_the_history(game):
    pos = game.position
    clone = pos.copy()
    assert clone.fen() == pos.fen() and clone.hash_history() == pos.hash_history()
    fen = pos.fen()
    codes = clone.legal_codes()
    if codes:
        clone.make(codes[0])
        assert pos.fen() == fen
    while clone.ply_stack:
        clone.unmake()
    assert clone.fen() == game.start_fen
    assert pos.fen() == fen
