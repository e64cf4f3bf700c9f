"""Game history and outcomes (RULES.md, "End of the game")."""

from __future__ import annotations

import pytest

from boardctl.rules import (
    BLACK,
    RESULTS,
    WHITE,
    Game,
    Outcome,
    Termination,
    get_variant,
    is_dead_position,
)

from .helpers import pos


def play(game: Game, moves: str) -> None:
    for text in moves.split():
        game.push_text(text)


def test_history_push_and_pop():
    game = Game()
    play(game, "e2e4 e7e5 Nc3")
    assert [game.position.uci(m) for m in game.moves] == ["e2e4", "e7e5", "b1c3"]
    assert game.sans() == ["e4", "e5", "Nc3"]
    assert game.position.uci(game.pop()) == "b1c3"
    assert len(game.moves) == 2
    game.pop()
    game.pop()
    assert game.position.fen() == game.start_fen
    with pytest.raises(IndexError):
        game.pop()


def test_checkmate_with_king_and_falcon():
    # RULES.md: White Kc2, Fd3, Black Ka1 is mate.
    game = Game(fen="10/10/10/10/10/3F6/2K7/k9 b - - 0 1")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.CHECKMATE
    assert outcome.result == "1-0"
    assert str(outcome) == "White wins by checkmate"


def test_stalemate():
    # Black king a8, white queen c7 and king j1: no move, no check.
    game = Game(fen="k9/2Q7/10/10/10/10/10/9K b - - 0 1")
    assert game.outcome().termination is Termination.STALEMATE
    assert game.outcome().result == "1/2-1/2"


def test_threefold_repetition_counts_the_same_position_three_times():
    game = Game()
    shuffle = "Nc3 Nc6 Nb1 Nb8"
    play(game, shuffle)
    assert game.repetitions() == 2 and game.outcome() is None
    play(game, shuffle)
    assert game.repetitions() == 3
    assert game.outcome().termination is Termination.THREEFOLD_REPETITION


def test_fifty_move_rule():
    game = Game(fen="k9/10/10/10/10/10/10/1R7K w - - 99 80")
    assert game.outcome() is None
    play(game, "b1b2")
    assert game.outcome().termination is Termination.FIFTY_MOVES


def test_mate_on_the_hundredth_halfmove_is_still_mate():
    game = Game(fen="k9/10/1K8/10/10/10/10/9R w - - 99 80")
    play(game, "j1j8")
    assert game.outcome().termination is Termination.CHECKMATE


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("k9/10/10/10/10/10/10/9K w - - 0 1", True),  # K v K
        ("k9/10/10/10/10/10/10/8BK w - - 0 1", True),  # K+B v K
        ("k9/10/10/10/10/10/10/8NK w - - 0 1", True),  # K+N v K
        ("k9/10/10/10/10/10/10/8FK w - - 0 1", False),  # K+F v K: mates exist
        ("k9/10/10/10/10/10/10/7NNK w - - 0 1", False),  # two knights
        ("kb8/10/10/10/10/10/10/8BK w - - 0 1", True),  # b8, i1: both light
        ("k1b7/10/10/10/10/10/10/8BK w - - 0 1", False),  # c8 dark, i1 light
        ("k9/10/10/10/10/10/P9/9K w - - 0 1", False),  # a pawn
    ],
)
def test_dead_positions(fen, dead):
    assert is_dead_position(pos(fen)) is dead


def test_insufficient_material_ends_the_game():
    game = Game(fen="k9/10/10/10/10/10/10/8BK w - - 0 1")
    assert game.outcome().termination is Termination.INSUFFICIENT_MATERIAL


def test_game_of_another_variant():
    game = Game(get_variant("falcon-8x8"))
    play(game, "e2e4")
    assert game.position.fen().startswith("rnbfkbnr/pppppppp/8/8/4P3")


def test_the_outcome_is_worked_out_once_per_position_and_follows_every_push_and_pop():
    game = Game()
    calls = []
    original = game._outcome_now

    def counted():
        calls.append(1)
        return original()

    game._outcome_now = counted  # type: ignore[method-assign]
    for _ in range(5):
        assert game.outcome() is None
    assert len(calls) == 1  # asked five times, worked out once
    game.push_text("e2e4")
    assert game.outcome() is None and len(calls) == 2
    game.pop()
    assert game.outcome() is None and len(calls) == 3
    # A position changed behind the game's back is not read from the cache.
    move = game.position.legal_moves()[0]
    game.position.push(move)
    game.outcome()
    assert len(calls) == 4
    game.position.unmake()


def test_a_cached_outcome_turns_into_mate_when_the_mating_move_is_pushed():
    game = Game(fen="10/10/10/10/10/10/F1K7/k9 w - - 0 1")  # Fa2-d3 mates
    assert game.outcome() is None

    def mates(move):
        game.push(move)
        outcome = game.outcome()
        game.pop()
        return outcome is not None and outcome.termination is Termination.CHECKMATE

    mating = [m for m in game.position.legal_moves() if mates(m)]
    assert [game.position.uci(m) for m in mating] == ["a2d3"]
    assert game.outcome() is None  # each pop brought the open game back
    game.push(mating[0])
    assert game.outcome().termination is Termination.CHECKMATE
    game.pop()
    assert game.outcome() is None


@pytest.mark.parametrize(
    ("termination", "winner", "result", "text"),
    [
        (Termination.RESIGNATION, BLACK, "0-1", "Black wins by resignation"),
        (Termination.TIME_FORFEIT, WHITE, "1-0", "White wins by time forfeit"),
        (Termination.AGREEMENT, None, "1/2-1/2", "draw agreed"),
        (Termination.ABANDONED, None, "*", "game abandoned"),
    ],
)
def test_an_ending_declared_off_the_board_is_the_games_ending(termination, winner, result, text):
    game = Game(fen="10/10/10/10/10/10/F1K7/k9 w - - 0 1")  # Fa2-d3 mates
    outcome = Outcome(termination, winner)
    game.declare(outcome)
    assert game.ending() is outcome and game.outcome() is None
    assert (outcome.result, str(outcome)) == (result, text)
    # The board may be played on (nothing counts until a new game): it stands
    # over what the position shows, and through a takeback.
    play(game, "a2d3")
    assert game.outcome() is not None and game.ending() is outcome
    game.pop()
    assert game.ending() is outcome


def test_an_ending_off_the_board_is_declared_once_and_the_rules_find_their_own():
    game = Game()
    with pytest.raises(ValueError, match="for the rules to find"):
        game.declare(Outcome(Termination.CHECKMATE, WHITE))
    game.declare(Outcome(Termination.RESIGNATION, WHITE))
    with pytest.raises(ValueError, match="over already"):
        game.declare(Outcome(Termination.AGREEMENT, None))
    assert game.ending() == Outcome(Termination.RESIGNATION, WHITE)


def test_every_termination_is_a_stored_termination_of_the_one_result_set():
    # The store keeps termination.value and result: the old rows' texts must still read.
    assert {t.value for t in Termination if t.off_board} == {
        "time forfeit",
        "resignation",
        "draw agreed",
        "abandoned",
        "forfeit",
    }
    for termination in Termination:
        for winner in (WHITE, BLACK, None):
            assert Outcome(termination, winner).result in RESULTS
