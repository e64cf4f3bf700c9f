"""Stepping through a stored game: the presses, the reconciler's events
followed, and the words the banner says."""

from __future__ import annotations

import pytest

from boardctl.board import MoveMade, MoveTakenBack, NewGame
from boardctl.board.stepping import (
    Ask,
    Asked,
    Offer,
    begin,
    ending_words,
    followed,
    game_at,
    line,
    move_words,
    played,
    pressed,
    status,
    undo_words,
)
from boardctl.rules import Game, Position, get_variant, parse_uci

# A falcon game with an en passant capture (ply 5), a falcon move (9), castling
# king side, O-O:g1 (15), and a capture by a bishop (16).
GAME = "e2e4 a7a6 e4e5 d7d5 e5d6 c7d6 g2g3 i7i6 g1i4 i6i5 h1d5 a6a5 i1h3 b7b6 f1j1 c8h3"


def stored(moves: str = GAME, result: str | None = "1-0", how: str | None = "resignation"):
    game = Game(get_variant("falcon"))
    for uci in moves.split():
        game.push_text(uci)
    return begin(7, game, result, how)


def at(ply: int):
    s = stored()
    while s.ply < ply:
        s = followed(s, MoveMade(s.moves[s.ply], "", ""))
    return s


def test_next_offers_the_games_next_move_once_and_the_move_made_steps_on():
    s = stored()
    s, action = pressed(s, "next")
    assert action == Offer(s.moves[0]) and s.asked is Asked.FORWARD
    assert pressed(s, "next") == (s, None)  # asked already: the move is to be carried out
    s = followed(s, MoveMade(s.moves[0], "e2e4", "e4"))
    assert (s.ply, s.asked) == (1, None)


def test_back_asks_for_a_takeback_and_the_takeback_steps_back():
    s, action = pressed(at(3), "prev")
    assert action is Ask.TAKE_BACK and s.asked is Asked.BACK
    s = followed(s, MoveTakenBack(s.moves[2], "e4e5"))
    assert (s.ply, s.asked) == (2, None)


def test_a_press_against_what_was_asked_withdraws_it():
    s, _ = pressed(at(3), "next")
    s, action = pressed(s, "prev")
    assert action is Ask.WITHDRAW and s.asked is None and s.ply == 3
    s, _ = pressed(s, "prev")
    s, action = pressed(s, "next")
    assert action is Ask.WITHDRAW and s.asked is None


def test_nothing_before_the_start_or_after_the_end():
    assert pressed(at(0), "prev") == (at(0), None)
    end = at(16)
    assert end.at_end and pressed(end, "next") == (end, None)


def test_ok_twice_plays_on_and_anything_between_asks_again():
    s, action = pressed(at(4), "ok")
    assert action is None and s.confirming
    s, action = pressed(s, "ok")
    assert action is Ask.PLAY_ON and not s.confirming
    s, _ = pressed(s, "ok")
    s, _ = pressed(s, "next")  # a step instead: the next ok asks again
    assert pressed(s, "ok")[1] is None
    s, _ = pressed(s, "ok")
    assert not followed(s, MoveMade(s.moves[4], "", "")).confirming


def test_other_buttons_and_events_change_nothing():
    s = at(2)
    assert pressed(s, "hint") == (s, None)
    assert followed(s, NewGame()) == s


def test_the_game_at_a_ply_and_its_moves_as_stored():
    s = at(6)
    assert played(s) == GAME.split()[:6]
    assert game_at(s).sans() == ["e4", "a6", "e5", "d5", "exd6", "cxd6"]
    assert game_at(s, 0).moves == [] and game_at(s, 0).start_fen == s.start_fen


@pytest.mark.parametrize(
    ("ply", "said", "undone"),
    [
        (0, "White pawn e2 to e4", "White pawn e4 back to e2"),
        (
            4,
            "White pawn e5 to d6, taking the black pawn on d5",
            "White pawn d6 back to e5, and the black pawn back on d5",
        ),
        (
            5,
            "Black pawn c7 to d6, taking the white pawn",
            "Black pawn d6 back to c7, and the white pawn back on d6",
        ),
        (8, "White falcon g1 to i4", "White falcon i4 back to g1"),
        (
            14,
            "White king f1 to g1, castling: rook j1 to f1",
            # The rook stands where the king goes back to: it goes first.
            "White rook f1 back to j1, king g1 back to f1",
        ),
        (
            15,
            "Black bishop c8 to h3, taking the white knight",
            "Black bishop h3 back to c8, and the white knight back on h3",
        ),
    ],
)
def test_each_kind_of_move_in_words_forward_and_undone(ply, said, undone):
    pos = game_at(at(ply)).position
    move = at(ply).moves[ply]
    assert move_words(pos, move) == said
    assert undo_words(pos, move) == undone


def test_a_promotion_in_words_forward_and_undone():
    pos = Position("4k5/P9/10/10/10/10/10/4K5 w - - 0 1")  # a pawn about to promote
    move = parse_uci(pos, "a7a8q")
    assert move_words(pos, move) == "White pawn a7 to a8, which becomes a queen"
    assert undo_words(pos, move) == "White queen off a8, a white pawn back on a7"


def test_the_banner_says_what_to_do_at_each_stage():
    engine = True
    assert line(at(0), game_at(at(0)).position, engine) == (
        "The start of game 7: press next for its first move"
    )
    s, _ = pressed(at(8), "next")
    assert line(s, game_at(s).position, engine) == "Move 5: White falcon g1 to i4"
    s, _ = pressed(at(9), "prev")
    assert line(s, game_at(s).position, engine) == "Take back move 5: White falcon i4 back to g1"
    assert line(at(9), game_at(at(9)).position, engine) == (
        "Press next or back, or OK to play on from here"
    )
    s, _ = pressed(at(9), "ok")
    assert line(s, game_at(s).position, engine).endswith("play on from here, against the engine")
    assert line(s, game_at(s).position, False).endswith("as two players")
    assert line(at(16), game_at(at(16)).position, engine) == (
        "The game ended: White wins by resignation. Press back, or OK to play on"
    )
    short = stored("e2e4", None, None)
    short = followed(short, MoveMade(short.moves[0], "", ""))
    assert line(short, game_at(short).position, engine).startswith("The game stops here")
    assert status(at(9)) == "step 9 of 16"


@pytest.mark.parametrize(
    ("result", "how", "said"),
    [
        ("1-0", "checkmate", "White wins by checkmate"),
        ("0-1", "time forfeit", "Black wins by time forfeit"),
        ("1/2-1/2", "stalemate", "draw by stalemate"),
        ("*", "abandoned", "game abandoned"),
        ("1-0", "unreadable", "it ended 1-0"),  # a termination boardctl did not write
        (None, None, ""),
    ],
)
def test_how_the_stored_game_ended_in_words(result, how, said):
    assert ending_words(result, how) == said
