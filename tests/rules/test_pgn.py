"""PGN export and import."""

from __future__ import annotations

import pytest

from boardctl.rules import WHITE, Game, Outcome, PgnError, Termination, get_variant
from boardctl.rules.pgn import clk, export, read_game, read_games

OPEN = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"


def test_export_has_the_roster_the_variant_and_numbered_san():
    game = Game()
    for text in ("e2e4", "e7e5", "i1h3"):
        game.push_text(text)
    text = export(game, {"White": "Duke", "Event": "Club night"})
    assert '[Variant "Falcon"]' in text
    assert '[White "Duke"]' in text and '[Event "Club night"]' in text
    assert '[Result "*"]' in text
    assert "SetUp" not in text and "[FEN" not in text
    assert text.rstrip().endswith("1. e4 e5 2. Nh3 *")


def test_export_of_a_set_up_position_carries_setup_and_fen():
    game = Game(fen=OPEN.replace(" w ", " b "))
    game.push_text("f8i8")
    text = export(game)
    assert '[SetUp "1"]' in text
    assert f'[FEN "{game.start_fen}"]' in text
    assert "1... O-O:i8" in text


def test_export_gives_an_ending_declared_off_the_board_as_the_result():
    game = Game()
    game.push_text("e2e4")
    game.declare(Outcome(Termination.RESIGNATION, WHITE))  # Black resigns
    text = export(game)
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1. e4 1-0")


def test_round_trip_keeps_moves_and_result():
    game = Game()
    for text in ["Nc3", "Nc6", "Nb1", "Nb8", "Nc3", "Nc6", "Nb1", "Nb8"]:
        game.push_text(text)
    text = export(game)
    assert '[Result "1/2-1/2"]' in text
    _, again = read_game(text)
    assert again.moves == game.moves
    assert again.position.fen() == game.position.fen()


def test_other_presets_write_their_name_and_read_back():
    game = Game(get_variant("falcon-xboard"), OPEN)
    game.push_text("f1i1")
    text = export(game)
    assert '[Variant "falcon-xboard"]' in text
    _, again = read_game(text)
    assert again.variant.name == "falcon-xboard"
    assert again.position.fen() == game.position.fen()


def test_import_skips_comments_variations_nags_and_reads_coordinates():
    text = """[Event "?"]
[Variant "Falcon"]

1. e4 {a comment} e5 $1 (1... d5 2. exd5) 2. i1h3 ; to the rim
2... Nc6 1-0
"""
    _, game = read_game(text)
    assert game.sans() == ["e4", "e5", "Nh3", "Nc6"]


def test_two_games_in_one_file():
    one = export(Game())
    game = Game()
    game.push_text("e4")
    assert len(read_games(one + "\n" + export(game))) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Variant "Capablanca"]\n\n1. e4 *', "Capablanca"),
        ('[Variant "Falcon"]\n\n1. e4 e4 *', "ply 2"),
        ('[Variant "Falcon"]\n[SetUp "1"]\n[FEN "nonsense"]\n\n*', "FEN"),
        ('[Variant "Falcon"\n\n*', "malformed tag"),
    ],
)
def test_bad_pgn_says_what_is_wrong(text, message):
    with pytest.raises(PgnError) as info:
        read_games(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0:00:00"),
        (0.99, "0:00:00"),
        (59.5, "0:00:59"),
        (300.0, "0:05:00"),
        (3599.9, "0:59:59"),
        (3600.0, "1:00:00"),
        (36_000 + 61.2, "10:01:01"),
    ],
)
def test_a_clock_reading_is_h_mm_ss_rounded_down(seconds, text):
    assert clk(seconds) == text


@pytest.mark.parametrize("seconds", [-1.0, float("inf"), float("nan")])
def test_a_clock_reading_that_is_no_time_is_refused(seconds):
    with pytest.raises(ValueError):
        clk(seconds)


def test_clocks_follow_each_move_and_black_moves_after_a_comment_are_numbered():
    game = Game()
    for text in ("e2e4", "e7e5", "i1h3"):
        game.push_text(text)
    text = export(game, clocks=[299.5, 298.0, None])
    assert text.rstrip().endswith("1. e4 {[%clk 0:04:59]} 1... e5 {[%clk 0:04:58]} 2. Nh3 *")
    _, again = read_game(text)
    assert again.moves == game.moves


def test_without_clocks_or_a_date_the_movetext_is_plain_and_the_date_unknown():
    game = Game()
    game.push_text("e2e4")
    text = export(game)
    assert '[Date "????.??.??"]' in text and "%clk" not in text
    assert text.rstrip().endswith("1. e4 *")


@pytest.mark.parametrize("number", ["١.", "٣...", "²."])
def test_move_numbers_are_ascii_digits(number):
    # A move number in another script is a move that cannot be read, not a number.
    with pytest.raises(PgnError):
        read_games(f'[Variant "Falcon"]\n\n{number} e4 *')


HOSTILE_TAGS = [
    'Ann"]\n[Result "1-0"]',
    "Ann\r\n\r\n1. e4 1-0",
    'back\\slash and "quote"',
    "tab\there\x00nul\x1bescape\u2028line\u202eright-to-left",
    "\\",
]


@pytest.mark.parametrize("name", HOSTILE_TAGS)
def test_no_tag_value_can_break_the_pgn(name):
    # However a name got into the store, the export is one tag line per tag,
    # escaped as the standard says, and reads back as the same game.
    game = Game()
    game.push_text("e2e4")
    text = export(game, {"White": name, "Black": "Bo", "Event": name})
    tag_lines = [line for line in text.splitlines() if line.startswith("[")]
    assert len(tag_lines) == len(text.split("\n\n")[0].splitlines())
    assert all(line.isprintable() for line in text.splitlines())
    tags, again = read_game(text)
    assert tags["Result"] == "*" and tags["Black"] == "Bo"
    assert again.sans() == game.sans()
    # What was printable comes back as it was; the rest became spaces.
    assert tags["White"] == "".join(c if c.isprintable() else " " for c in name)
