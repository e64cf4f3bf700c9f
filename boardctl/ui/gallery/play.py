"""The gallery's scenes of a game at the board: a game against the engine
or a person, the fixes and prompts along the way, a remote opponent, a
set-up, stepping through a stored game (docs/screens.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...board.events import MoveMade
from ...board.explain import occupancy
from ...board.setup import begin, instruction, observe
from ...board.stepping import Offer, followed, game_at, pressed
from ...board.stepping import begin as stepping_begin
from ...board.stepping import line as stepping_line
from ...board.stepping import status as stepping_status
from ...engine import levels
from ...rules import BLACK, DEFAULT_VARIANT, WHITE, Game, Position, get_variant
from ..state import DisplayState, welcome_words

MIDGAME = ("e4", "e5", "Nh3", "Nc6", "Ff4", "d6", "d3", "Bg4")
PUZZLE = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"  # the essay's first problem


def played(
    moves: Sequence[str], variant: str = DEFAULT_VARIANT.name, fen: str | None = None
) -> Game:
    """A game of ``variant`` from ``fen`` (default: its start) after ``moves``."""
    game = Game(get_variant(variant), fen)
    for text in moves:
        game.push_text(text)
    return game


def against_engine(
    level: int = 12, variant: str = DEFAULT_VARIANT.name, **fields: Any
) -> dict[str, Any]:
    """A game's fields against the engine at ``level``, the engine Black and
    ready, its rating where the levels were measured (``fields`` change them)."""
    return {
        "engine_status": "ready",
        "level": level,
        "rating": levels.rating(level, variant),
        "engine_side": BLACK,
        **fields,
    }


def start() -> DisplayState:
    """A new game against the engine: nothing to do but move."""
    return DisplayState.from_fen(None, **against_engine(20, status="simulator"))


def two_players() -> DisplayState:
    """Two players, no engine: the board records and guides."""
    return DisplayState.from_game(played(MIDGAME[:3]))


def thinking() -> DisplayState:
    """The player has moved; the engine thinks, with its evaluation so far."""
    game = played((*MIDGAME, "c3"))
    return DisplayState.from_game(
        game, **against_engine(engine_status="thinking", engine_depth=9, engine_score="-0.21")
    )


def engine_move() -> DisplayState:
    """The engine has chosen; the player carries its move out on the board."""
    game = played((*MIDGAME, "c3"))
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        **against_engine(
            engine_depth=14,
            engine_score="-0.35",
            engine_move=("Bxh3", geo.parse_square("g4"), geo.parse_square("h3")),
        ),
    )


def remote_move() -> DisplayState:
    """A remote game: the opponent (in a browser or at another board) has
    moved; the player carries the move out, their own clock running."""
    game = played((*MIDGAME, "c3"))
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        engine_status="online",
        engine_side=BLACK,
        opponent="Opponent",
        engine_move=("Bxh3", geo.parse_square("g4"), geo.parse_square("h3")),
        white_clock=412.0,
        black_clock=377.0,
    )


def remote_asks() -> DisplayState:
    """A remote game: the opponent asks to take back their move."""
    return DisplayState.from_game(
        played(MIDGAME),
        engine_status="online",
        engine_side=BLACK,
        opponent="Opponent",
        white_clock=412.0,
        black_clock=377.0,
        prompt="Opponent asks to take back a move: OK = yes, \N{MINUS SIGN} = no",
    )


def wrong(game: Game, prompt: str, marks: tuple[str, str], **fields: Any) -> DisplayState:
    """``game`` with the error ``prompt`` and the two squares it names marked."""
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        prompt=prompt,
        prompt_kind="error",
        marks=tuple(geo.parse_square(name) for name in marks),
        **fields,
    )


def fix() -> DisplayState:
    """White has moved the falcon from f4 like a knight, to e6; the board says so."""
    game = played(MIDGAME)
    return wrong(
        game,
        "Move the falcon from e6 back to f4",
        ("e6", "f4"),
        white_clock=251.0,
        black_clock=232.0,
        **against_engine(engine_depth=12, engine_score="+0.41"),
    )


def check_fix() -> DisplayState:
    """A move that would leave the king in check, to be taken back."""
    game = Game(fen="5k4/10/10/10/10/10/5B4/r4K4 w - - 0 40")
    return wrong(
        game,
        "That move leaves your king in check: move the bishop back to f2",
        ("f2", "c5"),
        **against_engine(),
    )


def promotion() -> DisplayState:
    """A pawn has reached the last rank: the player picks the new piece."""
    game = Game(fen="k9/3P6/10/p9/10/10/10/9K w - - 0 1")
    choices = game.variant.promotions
    return DisplayState.from_game(
        game,
        prompt="Choose the new piece: prev and next, then ok",
        prompt_kind="choice",
        choices=choices,
        chosen=1,
        **against_engine(),
    )


def not_saved() -> DisplayState:
    """The disk is full (or the card went read-only): the game goes on, and
    the screen says how many moves wait to be saved."""
    return DisplayState.from_game(
        played(MIDGAME[:3]),
        prompt="3 moves not saved (disk full)",
        prompt_kind="error",
        status="not saved",
        status_alert=True,
    )


def check() -> DisplayState:
    """Black's rook has come down to j1 and checks the white king."""
    game = played(["j8j1"], fen="5k3r/3f6/10/10/10/4F5/10/5K4 b - - 0 30")
    return DisplayState.from_game(game, **against_engine(engine_score="-1.10"))


def game_over() -> DisplayState:
    """Checkmate: the result, and how to start again."""
    game = played(["Ra8#"], fen="6k3/10/6K3/10/10/10/10/R9 w - - 0 50")
    return DisplayState.from_game(
        game,
        prompt="Checkmate: White wins. Set up the pieces for a new game",
        prompt_kind="over",
        **against_engine(),
    )


def clocks_low() -> DisplayState:
    """A clock game in its last seconds, Black to move."""
    return DisplayState.from_game(
        played(MIDGAME[:5]),
        white_clock=41.0,
        black_clock=7.3,
        orientation=BLACK,
        **against_engine(
            engine_status="thinking", engine_depth=6, engine_score="+0.18", engine_side=WHITE
        ),
    )


def setup() -> DisplayState:
    """``--setup``: the board has been cleared of what the essay's first problem
    does not need; the player is asked for its pieces one at a time."""
    variant = get_variant("falcon")
    start = Position(None, variant)
    s = begin(Position(PUZZLE, variant), occupancy(start), start)
    for _ in range(variant.geometry.size):  # every square at most once
        step = instruction(s)
        if step is None or step.put:
            break
        s = observe(s, s.reading & ~(1 << step.square))
    s = observe(s, s.reading | 1 << s.target.kings[WHITE])  # the white king, as asked
    step = instruction(s)
    assert step is not None
    return DisplayState.from_fen(
        s.target.fen(),
        prompt=step.text,
        marks=(step.square,),
        setting_up=True,
        **against_engine(20),
    )


def first_start() -> DisplayState:
    """The first start, with no configuration: the banner says where the
    settings page is and the PIN that opens it."""
    return replace(start(), prompt=welcome_words("http://192.168.1.20:8080/", "482915"))


def stepping() -> DisplayState:
    """``--replay``: a stored game stepped through on the board; its next
    move is lit for the player to carry out, and said in the banner."""
    game = played((*MIDGAME, "c3", "Bxh3"))
    s = stepping_begin(12, game, "0-1", "resignation")
    for move in game.moves[:8]:
        s = followed(s, MoveMade(move, "", ""))
    s, action = pressed(s, "next")
    assert isinstance(action, Offer)
    here = game_at(s)
    return DisplayState.from_game(
        here,
        prompt=stepping_line(s, here.position, engine=True),
        marks=(action.move.from_square, action.move.to_square),
        status=stepping_status(s),
    )
