"""The words the board says: a pure function of the screen's state."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from boardctl.rules import BLACK, WHITE, Game, get_variant, parse_uci, san
from boardctl.ui.gallery import ALL_SCENES
from boardctl.ui.state import DisplayState, banner_line
from boardctl.voice import words
from boardctl.voice.words import (
    NATO,
    clock_words,
    destinations_words,
    last_move_words,
    move_words,
    pieces_words,
    said,
    square_words,
    turn_words,
    utterance,
)

FALCON = get_variant("falcon")


def game(*ucis: str, fen: str | None = None, variant: str = "falcon") -> Game:
    g = Game(get_variant(variant), fen)
    for uci in ucis:
        g.push(parse_uci(g.position, uci))
    return g


def state(g: Game, **fields: object) -> DisplayState:
    return DisplayState.from_game(g, **fields)


def offered(g: Game, uci: str, **fields: object) -> DisplayState:
    """The state while the engine's move ``uci`` waits to be carried out."""
    pos = g.position
    move = parse_uci(pos, uci)
    return state(g, engine_move=(san(pos, move), move.from_square, move.to_square), **fields)


def letters(text: str) -> list[str]:
    """Single capital letters standing as words: a piece said by its letter."""
    return re.findall(r"\b[KQRBNFP]\b|\b[KQRBNF][a-l]?x?[a-l]\d", text)


# ------------------------------------------------------------ moves in words
def test_a_players_move_is_said_with_the_piece_named():
    before = game()
    after = game("e2e4")
    assert utterance(state(before, engine_side=BLACK), state(after, engine_side=BLACK)) == (
        "Pawn e2 to e4."
    )


def test_in_a_two_player_game_the_mover_is_named():
    text = utterance(state(game("e2e4")), state(game("e2e4", "e7e5")))
    assert text == "Black, pawn e7 to e5."


def test_the_engines_move_is_said_when_offered_and_not_again_when_carried_out():
    g = game("e2e4")
    quiet = state(g, engine_side=BLACK)
    shown = offered(g, "e7e5", engine_side=BLACK)
    assert utterance(quiet, shown) == "Engine plays pawn e7 to e5."
    done = state(game("e2e4", "e7e5"), engine_side=BLACK)
    assert utterance(shown, done) == ""


def test_a_capture_names_the_piece_taken_and_a_check_is_said():
    # The falcon from the issue: d1 to f4 taking a pawn (a position built for it).
    fen = "4k5/10/10/10/5p4/10/10/3F1K4 w - - 0 1"
    g = game(fen=fen)
    pos = g.position
    move = parse_uci(pos, "d1f4")
    assert move_words(pos, move) == "falcon d1 to f4, takes the pawn"
    # Rook to the king's file: check.
    g2 = game(fen="4k5/10/10/10/10/10/10/R4K4 w - - 0 1")
    text = utterance(state(g2, engine_side=WHITE), offered(g2, "a1a8", engine_side=WHITE))
    assert text == "Engine plays rook a1 to a8, check."


def test_castling_and_promotion_are_said_in_words():
    g = game(fen="r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1")
    pos = g.position
    castle = next(m for m in pos.legal_moves() if pos.is_castling(m) and m.to_square > 5)
    assert move_words(pos, castle).startswith("castles king side, king to ")
    p = game(fen="5k4/1P8/10/10/10/10/10/5K4 w - - 0 1").position
    assert move_words(p, parse_uci(p, "b7b8f")) == "pawn b7 to b8, becomes a falcon"


def test_a_mate_is_left_to_the_result_and_the_result_is_said():
    before = state(game(fen="6k3/10/6K3/10/10/10/10/R9 w - - 0 1"))
    after = game(fen="6k3/10/6K3/10/10/10/10/R9 w - - 0 1")
    after.push(parse_uci(after.position, "a1a8"))
    over = state(after, prompt="Checkmate: White wins. Set up the pieces", prompt_kind="over")
    text = utterance(before, over)
    assert text == "White, rook a1 to a8. Checkmate: White wins. Set up the pieces."
    assert "check," not in text


def test_a_takeback_and_a_new_game_are_said():
    two = state(game("e2e4", "e7e5"))
    assert utterance(two, state(game("e2e4"))) == "Move taken back."
    assert utterance(two, state(game())) == "New game."


# ------------------------------------------------------------ the banner's text
@pytest.mark.parametrize(
    ("prompt", "kind", "spoken"),
    [
        ("Put the bishop back on c1", "error", "Put the bishop back on c1."),
        ("Choose the new piece: Queen, Falcon", "choice", "Choose the new piece: Queen, Falcon."),
        ("Hint: Fxf4+", "info", "Hint: falcon takes f4, check."),
        ("Hint: Fxh7 \N{EN DASH} f5 to h7", "info", "Hint: falcon f5 to h7, takes."),
        ("Hint: O-O \N{EN DASH} f1 to h1", "info", "Hint: castles king side."),
        ("Take back Nbd2: put the piece back", "info", "Take back knight from b to d2: put"),
        (
            "Keep the start position for 3 s for a new game",
            "info",
            "Keep the start position for 3 seconds for a new game.",  # not "three ess"
        ),
    ],
)
def test_every_new_banner_line_is_said_in_words(prompt, kind, spoken):
    g = game()
    text = utterance(state(g), state(g, prompt=prompt, prompt_kind=kind))
    assert text.startswith(spoken)
    assert not letters(text)


def test_the_same_banner_is_not_said_twice_and_the_clock_ticking_says_nothing():
    g = game()
    a = state(g, prompt="Put the bishop back on c1", prompt_kind="error", white_clock=300.0)
    assert utterance(a, replace(a, white_clock=299.0)) == ""


def test_a_clock_is_said_as_it_falls_below_each_warning():
    g = game()
    a = state(g, white_clock=61.0, black_clock=200.0)
    assert utterance(a, replace(a, white_clock=59.9)) == "White has one minute left."
    b = replace(a, white_clock=30.5, black_clock=31.0)
    assert utterance(b, replace(b, white_clock=9.0, black_clock=29.0)) == (
        "White has 10 seconds left. Black has 30 seconds left."
    )


def test_squares_can_be_said_with_the_nato_letters():
    assert square_words("f4", "nato") == "foxtrot 4"
    assert said("Put the bishop back on c1", "nato") == "Put the bishop back on charlie 1"
    assert set(NATO) == set("abcdefghijkl")


# ------------------------------------------------------------ a blind player's questions
def test_the_last_move_clocks_and_turn_are_answered():
    s = state(game("e2e4", "f7f5", "e4f5"), engine_side=BLACK, white_clock=125.0, black_clock=59)
    assert last_move_words(s) == "Last move: White, pawn e4 takes f5."
    assert clock_words(s) == "White has 2 minutes 5 seconds, Black has 59 seconds."
    assert turn_words(s) == "Black to move, the engine's move."
    assert last_move_words(state(game())) == "No move yet."
    assert clock_words(state(game())) == "No clocks."


def test_the_pieces_are_listed_by_side_and_type():
    text = pieces_words(state(game()))
    assert text.startswith("White: king f1; queen e1; falcons d1, g1; rooks a1, j1;")
    assert "Black: king f8;" in text
    # Every piece of the start position is named once.
    assert sum(len(re.findall(r"\b[a-j][1-8]\b", part)) for part in text.split(";")) == 40


def test_a_lifted_pieces_destinations_are_read_out():
    s = state(game())
    b1 = FALCON.geometry.parse_square("b1")
    assert destinations_words(s, b1) == "Knight b1: a3 or c3."
    e1 = FALCON.geometry.parse_square("e1")
    assert destinations_words(s, e1) == "Queen e1 has no legal move."


def test_the_hexagon_is_said_too():
    g = game(variant="falcon-hex")
    move = g.position.legal_moves()[0]
    after = Game(g.variant)
    after.push(move)
    text = utterance(state(g), state(after))
    assert text.startswith("White, ") and not letters(text)


def test_words_never_letter_a_piece_in_a_random_game():
    import random

    rng = random.Random(7)
    g = Game(FALCON)
    before = state(g)
    for _ in range(60):
        moves = g.position.legal_moves()
        if not moves or g.outcome() is not None:
            break
        g.push(rng.choice(moves))
        now = state(g)
        text = utterance(before, now)
        assert text and not letters(text), text
        before = now
    assert words.SQUARE.search(text)


@pytest.mark.parametrize("scene", list(ALL_SCENES))
@pytest.mark.parametrize("style", ["plain", "nato"])
def test_every_banner_of_the_gallery_is_said_in_words(scene, style):
    """Every state a player meets (docs/screens.md): its banner line, said
    with the pieces named and every square it names."""
    state = ALL_SCENES[scene][1]()
    _, shown = banner_line(state)
    text = words.banner_words(state, style)
    assert text and not letters(text), (shown, text)
    for square in words.SQUARE.findall(shown):
        name = "".join(square)
        assert words.square_words(name, style) in text, (shown, text)
    if style == "nato":
        assert not words.SQUARE.search(text), text


def test_a_choice_names_its_options_and_each_piece_highlighted():
    """A player who cannot see the screen picks a promotion by ear."""
    state = ALL_SCENES["promotion"][1]()
    assert state.choices and state.chosen is not None
    before = replace(state, choices=(), chosen=None, prompt="", prompt_kind="info")
    text = utterance(before, state)
    assert "Queen, falcon, rook, bishop or knight." in text
    assert f"{state.choices[state.chosen].title.capitalize()} is highlighted." in text
    nxt = (state.chosen + 1) % len(state.choices)
    assert utterance(state, replace(state, chosen=nxt)) == (
        f"{state.choices[nxt].title.capitalize()}."
    )


def test_the_squares_are_read_rank_by_rank_from_the_top():
    s = state(game(fen="6k3/1p3ppp2/10/10/4p5/10/5PPP2/R2F1K4 w - - 0 1"))
    text = words.squares_words(s)
    assert text.startswith("Rank 8: g8 black king. Rank 7: b7 black pawn, f7 black pawn,")
    assert text.endswith("Rank 1: a1 white rook, d1 white falcon, f1 white king.")
    assert "Rank 3" not in text  # an empty rank is left out
    hexagon = words.squares_words(state(game(variant="falcon-hex")), "nato")
    assert hexagon.startswith("Rank 13: bravo 13 black pawn,") and not letters(hexagon)
