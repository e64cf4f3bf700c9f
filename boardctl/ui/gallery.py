"""The screen gallery (docs/screens.md), as code, so it can be made again.

Every state a player meets is scripted here, from a real game where there is
one, and drawn at both screen sizes.  ``python -m boardctl.ui.gallery docs``
writes the pictures and the page; the tests draw them all again and compare,
so the gallery cannot drift from the code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..board.events import MoveMade
from ..board.explain import occupancy
from ..board.setup import begin, instruction, observe
from ..board.stepping import Offer, followed, game_at, pressed
from ..board.stepping import begin as stepping_begin
from ..board.stepping import line as stepping_line
from ..board.stepping import status as stepping_status
from ..engine import levels
from ..review.coach import Evaluation, hint_words, remark
from ..rules import BLACK, WHITE, Game, PieceType, Position, get_variant
from ..rules.notation import parse_move, san
from .state import DisplayState, welcome_words

SIZES = ((480, 320), (800, 480))
MIDGAME = ("e4", "e5", "Nh3", "Nc6", "Ff4", "d6", "d3", "Bg4")
HEX = "falcon-hex"
HEX_MIDGAME = ("e8", "i6", "Fe4", "d9", "exd9")
PUZZLE = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"  # the essay's first problem


def start() -> DisplayState:
    """A new game against the engine: nothing to do but move."""
    return DisplayState.from_fen(
        None,
        engine_status="ready",
        level=20,
        rating=levels.rating(20),
        status="simulator",
        engine_side=BLACK,
    )


def two_players() -> DisplayState:
    """Two players, no engine: the board records and guides."""
    game = Game()
    for text in MIDGAME[:3]:
        game.push_text(text)
    return DisplayState.from_game(game)


def thinking() -> DisplayState:
    """The player has moved; the engine thinks, with its evaluation so far."""
    game = Game()
    for text in (*MIDGAME, "c3"):
        game.push_text(text)
    return DisplayState.from_game(
        game,
        engine_status="thinking",
        engine_depth=9,
        engine_score="-0.21",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
    )


def engine_move() -> DisplayState:
    """The engine has chosen; the player carries its move out on the board."""
    game = Game()
    for text in (*MIDGAME, "c3"):
        game.push_text(text)
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        engine_status="ready",
        engine_depth=14,
        engine_score="-0.35",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
        engine_move=("Bxh3", geo.parse_square("g4"), geo.parse_square("h3")),
    )


def remote_move() -> DisplayState:
    """A remote game: the opponent (in a browser or at another board) has
    moved; the player carries the move out, their own clock running."""
    game = Game()
    for text in (*MIDGAME, "c3"):
        game.push_text(text)
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
    game = Game()
    for text in MIDGAME:
        game.push_text(text)
    return DisplayState.from_game(
        game,
        engine_status="online",
        engine_side=BLACK,
        opponent="Opponent",
        white_clock=412.0,
        black_clock=377.0,
        prompt="Opponent asks to take back a move: OK = yes, \N{MINUS SIGN} = no",
    )


def fix() -> DisplayState:
    """White has moved the falcon from f4 like a knight, to e6; the board says so."""
    game = Game()
    for text in MIDGAME:
        game.push_text(text)
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        prompt="Move the falcon from e6 back to f4",
        prompt_kind="error",
        marks=(geo.parse_square("e6"), geo.parse_square("f4")),
        engine_status="ready",
        engine_depth=12,
        engine_score="+0.41",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
        white_clock=251.0,
        black_clock=232.0,
    )


def check_fix() -> DisplayState:
    """A move that would leave the king in check, to be taken back."""
    game = Game(fen="5k4/10/10/10/10/10/5B4/r4K4 w - - 0 40")
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        prompt="That move leaves your king in check: move the bishop back to f2",
        prompt_kind="error",
        marks=(geo.parse_square("f2"), geo.parse_square("c5")),
        engine_status="ready",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
    )


def promotion() -> DisplayState:
    """A pawn has reached the last rank: the player picks the new piece."""
    game = Game(fen="k9/3P6/10/p9/10/10/10/9K w - - 0 1")
    choices = (
        PieceType.QUEEN,
        PieceType.FALCON,
        PieceType.ROOK,
        PieceType.BISHOP,
        PieceType.KNIGHT,
    )
    return DisplayState.from_game(
        game,
        prompt="Choose the new piece: prev and next, then ok",
        prompt_kind="choice",
        choices=choices,
        chosen=1,
        engine_status="ready",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
    )


def not_saved() -> DisplayState:
    """The disk is full (or the card went read-only): the game goes on, and
    the screen says how many moves wait to be saved."""
    game = Game()
    for text in MIDGAME[:3]:
        game.push_text(text)
    return DisplayState.from_game(
        game,
        prompt="3 moves not saved (disk full)",
        prompt_kind="error",
        status="not saved",
        status_alert=True,
    )


def check() -> DisplayState:
    """Black's rook has come down to j1 and checks the white king."""
    game = Game(fen="5k3r/3f6/10/10/10/4F5/10/5K4 b - - 0 30")
    game.push_text("j8j1")
    return DisplayState.from_game(
        game,
        engine_status="ready",
        engine_score="-1.10",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
    )


def game_over() -> DisplayState:
    """Checkmate: the result, and how to start again."""
    game = Game(fen="6k3/10/6K3/10/10/10/10/R9 w - - 0 50")
    game.push_text("Ra8#")
    return DisplayState.from_game(
        game,
        prompt="Checkmate: White wins. Set up the pieces for a new game",
        prompt_kind="over",
        engine_status="ready",
        level=12,
        rating=levels.rating(12),
        engine_side=BLACK,
    )


def clocks_low() -> DisplayState:
    """A clock game in its last seconds, Black to move."""
    game = Game()
    for text in MIDGAME[:5]:
        game.push_text(text)
    return DisplayState.from_game(
        game,
        white_clock=41.0,
        black_clock=7.3,
        engine_status="thinking",
        engine_depth=6,
        engine_score="+0.18",
        level=12,
        rating=levels.rating(12),
        engine_side=WHITE,
        orientation=BLACK,
    )


def _said(
    game: Game, played: str, before: tuple[int, str] | None, after: tuple[int, str] | None
) -> str:
    """What the coach says of ``played`` in ``game``, by the coach's own words
    (review/coach.py), given the engine's two evaluations as (centipawns of
    the side to move, its line in SAN) — hand-set here, a second's search on
    the board — or None for the falcon's lessons alone; ``played`` is pushed."""

    def evaluation(pos: Position, seen: tuple[int, str] | None) -> Evaluation | None:
        if seen is None:
            return None
        board, line = pos.copy(), []
        for text in seen[1].split():
            line.append(parse_move(board, text))
            board.push(line[-1])
        return Evaluation(seen[0], None, tuple(line))

    pos = game.position.copy()
    move = parse_move(pos, played)
    left = pos.copy()
    left.push(move)
    said = remark(pos, move, evaluation(pos, before), evaluation(left, after), offer=True)
    assert said is not None, f"the coach says nothing of {played}"
    game.push(move)
    return said.text


def coach() -> DisplayState:
    """Teaching mode: White's queen has gone to e2, where the bishop takes it.
    The coach says so and offers the move back; the LEDs light the queen and e1."""
    game = Game()
    for text in MIDGAME:
        game.push_text(text)
    said = _said(game, "Qe2", (60, "Fxh7"), (850, "Bxe2 Kxe2"))
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_falcon() -> DisplayState:
    """A knight left where only a falcon takes it: the coach says so."""
    game = Game(fen="9k/10/10/2f7/4N5/10/10/K9 w - - 0 30")
    said = _said(game, "Nf6", (250, "Nxc5"), (240, "Fxf6"))
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_lesson() -> DisplayState:
    """A falcon move that the last move opened the way for, played: the coach
    says which piece opened it, and the falcon's path."""
    game = Game(fen="r3k4r/ppp2p1p2/3p1pn3/4F5/4P5/10/PPP2PPPPP/R3K4R b - - 0 20")
    game.push_text("Ne7")
    said = _said(game, "Fxh7", None, None)
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_hint() -> DisplayState:
    """A hint in teaching mode: the best move (lit on the board) and the other
    good ones, ranked by the engine (scores hand-set here)."""
    game = Game()
    for text in MIDGAME:
        game.push_text(text)
    pos = game.position
    ranked = [
        (parse_move(pos, text), (cp, None)) for text, cp in (("Fxh7", 80), ("Ng5", 60), ("Ni5", 55))
    ]
    return DisplayState.from_game(game, prompt=hint_words(pos, ranked))


def hex_game(moves: Sequence[str] = HEX_MIDGAME) -> Game:
    game = Game(get_variant(HEX))
    for text in moves:
        game.push_text(text)
    return game


def hex_start() -> DisplayState:
    """Falcon Hexagonal Chess: a new game against the engine."""
    return DisplayState.from_fen(
        None, HEX, engine_status="ready", level=20, status="simulator", engine_side=BLACK
    )


def hex_engine_move() -> DisplayState:
    """The engine's reply on the hexagon, to carry out: its falcon from e13 to d10."""
    game = hex_game()
    move = parse_move(game.position, "Fd10")
    return DisplayState.from_game(
        game,
        engine_status="ready",
        engine_depth=8,
        engine_score="+0.62",
        level=12,
        engine_side=BLACK,
        engine_move=(san(game.position, move), move.from_square, move.to_square),
    )


def hex_fix() -> DisplayState:
    """White's falcon has gone from e4 to f7, where no falcon move goes."""
    game = hex_game(HEX_MIDGAME[:4])
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        prompt="Move the falcon from f7 back to e4",
        prompt_kind="error",
        marks=(geo.parse_square("f7"), geo.parse_square("e4")),
        engine_status="ready",
        engine_score="+0.40",
        level=12,
        engine_side=BLACK,
    )


def hex_promotion() -> DisplayState:
    """A pawn on the last cell of file f: a rook, bishop, knight or falcon (no queen)."""
    game = Game(get_variant(HEX), "5/5P1k/9/4f5/2p8/12/11/12/11/6R3/9/8/K4 w - - 0 41")
    return DisplayState.from_game(
        game,
        prompt="Choose the new piece: prev and next, then ok",
        prompt_kind="choice",
        choices=get_variant(HEX).promotions,
        chosen=3,
        engine_status="ready",
        level=12,
        engine_side=BLACK,
    )


def hex_black() -> DisplayState:
    """The player has Black: the hexagon turned half round, with clocks."""
    game = hex_game(HEX_MIDGAME[:4])
    return DisplayState.from_game(
        game,
        white_clock=288.0,
        black_clock=295.0,
        engine_status="thinking",
        engine_depth=7,
        engine_score="+0.31",
        level=12,
        engine_side=WHITE,
        orientation=BLACK,
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
        engine_side=BLACK,
        level=20,
        rating=levels.rating(20),
        engine_status="ready",
        setting_up=True,
    )


def first_start() -> DisplayState:
    """The first start, with no configuration: the banner says where the
    settings page is and the PIN that opens it."""
    return replace(start(), prompt=welcome_words("http://192.168.1.20:8080/", "482915"))


def _puzzle(*moves: str) -> DisplayState:
    """``--puzzle duke-a`` (the essay's first problem) after ``moves``, as the
    daemon shows it: the attempt's banner line, the engine defending."""
    from ..puzzles import Attempt, Solver, find, judge

    puzzle = find("duke-a")
    game = Game(get_variant(puzzle.variant), puzzle.fen)
    for text in moves:
        game.push(parse_move(game.position, text))
    text, kind = judge(Attempt(puzzle), game, Solver()).banner()
    return DisplayState.from_game(
        game, prompt=text, prompt_kind=kind, engine_side=BLACK, status="puzzle"
    )


def puzzle() -> DisplayState:
    """A puzzle under way: the key played, the engine's defence carried out;
    the banner says what is left to do."""
    return _puzzle("c1i7", "i8i7")


def puzzle_solved() -> DisplayState:
    """The mate: solved."""
    return _puzzle("c1i7", "i8i7", "j5j6")


def puzzle_failed() -> DisplayState:
    """A move that does not mate in time: what would have, and how to try again."""
    return _puzzle("c1c7")


def stepping() -> DisplayState:
    """``--replay``: a stored game stepped through on the board; its next
    move is lit for the player to carry out, and said in the banner."""
    game = Game()
    for text in (*MIDGAME, "c3", "Bxh3"):
        game.push_text(text)
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


SCENES: dict[str, tuple[str, Callable[[], DisplayState]]] = {
    "first-start": ("The first start: where the settings page is, and its PIN", first_start),
    "start": ("A new game against the engine", start),
    "two-players": ("Two players, no engine", two_players),
    "thinking": ("The engine is thinking", thinking),
    "engine-move": ("The engine's move, to carry out on the board", engine_move),
    "fix": ("A piece out of place, and the fix", fix),
    "check-fix": ("A move that leaves the king in check", check_fix),
    "promotion": ("A promotion: choosing the new piece", promotion),
    "check": ("Check", check),
    "not-saved": ("The disk is full: the game goes on, not saved yet", not_saved),
    "game-over": ("Game over", game_over),
    "clocks-low": ("Clocks in the last seconds (the player has Black)", clocks_low),
    "setup": ("Setting up a position (`--setup`): one piece at a time", setup),
    "coach": ("Teaching mode: the coach offers a losing move back", coach),
    "coach-falcon": ("Teaching mode: a piece lost to a falcon", coach_falcon),
    "coach-lesson": ("Teaching mode: a falcon's path the last move opened", coach_lesson),
    "coach-hint": ("Teaching mode: a hint names the good moves, best first", coach_hint),
    "puzzle": ("A puzzle (`--puzzle`): the goal, and the moves left", puzzle),
    "puzzle-solved": ("A puzzle solved", puzzle_solved),
    "puzzle-failed": ("A puzzle failed: the move that would have mated", puzzle_failed),
    "stepping": ("Stepping through a stored game (`--replay`): the next move", stepping),
    "remote-move": ("A remote game: the opponent's move, to carry out on the board", remote_move),
    "remote-asks": ("A remote game: the opponent asks to take back a move", remote_asks),
}
HEX_SCENES: dict[str, tuple[str, Callable[[], DisplayState]]] = {
    "hex-start": ("A new game against the engine", hex_start),
    "hex-engine-move": ("The engine's move, to carry out on the board", hex_engine_move),
    "hex-fix": ("A piece out of place, and the fix", hex_fix),
    "hex-promotion": ("A promotion: rook, bishop, knight or falcon", hex_promotion),
    "hex-black": ("The player has Black: the board turned", hex_black),
}
ALL_SCENES = {**SCENES, **HEX_SCENES}  # ``boardctl screenshot --state NAME``


def file_name(scene: str, size: tuple[int, int]) -> str:
    return f"{scene}-{size[0]}x{size[1]}.png"


def page() -> str:
    """docs/screens.md: every scene at both sizes."""
    lines = [
        "# The status screen, state by state",
        "",
        "Made by `python -m boardctl.ui.gallery docs` from the scripted states in",
        "`boardctl/ui/gallery.py`; `tests/ui/test_gallery.py` draws them again and fails",
        "when a picture or this page is out of date.",
        "",
    ]
    lines += [
        "## The LEDs",
        "",
        "Six colours, one meaning each; a square to act on blinks, a square on the way",
        "glows dim (`boardctl/board/lights.py`).",
        "",
        "![The LED colours and what they mean](screens/leds.png)",
        "",
    ]
    lines += [
        "## The simulator",
        "",
        "`make run`: the wooden board with its LEDs (here a falcon lifted: its destinations",
        "lit brighter the more open paths reach them, its paths dim) and the Pi's screen.",
        "The window can be resized; `?` shows the keys and the lights.",
        "",
        "![The simulator window](screens/simulator.png)",
        "",
        "![The simulator's help](screens/simulator-help.png)",
        "",
    ]
    lines += _scenes(SCENES, "##")
    lines += [
        "## Falcon Hexagonal Chess",
        "",
        "`boardctl sim --variant falcon-hex`: the 121-cell hexagon of flat-topped cells in",
        "three colours, the file letters under their columns and each rank's number at its",
        "outer end. Here White's falcon on e4 is lifted: its destinations and open paths",
        "light as on the square board.",
        "",
        "![The simulator window, Falcon Hexagonal Chess](screens/hex-simulator.png)",
        "",
    ]
    lines += _scenes(HEX_SCENES, "###")
    return "\n".join(lines)


def _scenes(scenes: dict[str, tuple[str, Callable[[], DisplayState]]], level: str) -> list[str]:
    lines = []
    for scene, (title, _) in scenes.items():
        lines += [f"{level} {title}", ""]
        lines += [f"![{title}, {w}×{h}](screens/{file_name(scene, (w, h))})" for w, h in SIZES]
        lines.append("")
    return lines


# The simulator drawn as it opens on a common desktop (the dummy video
# driver's is 1024 x 768, where it opens smaller).
GALLERY_DESKTOP = (1920, 1080)


def draw_legend(out: Path, width: int = 800) -> None:
    """The LEDs' colour language as a picture: a lit square of each hue, at
    full and dim brightness, with its meaning (see boardctl.board.lights)."""
    import pygame

    from ..board.lights import DIM, legend
    from .display import BACKGROUND, TEXT
    from .text import Fonts, wrap

    fonts = Fonts()
    font = fonts.get(24)
    square, pad = 48, 12
    rows = []
    for hue, meaning in legend():
        lines = wrap(f"{hue.name}: {meaning}", font, width - 3 * square - 4 * pad)
        rows.append((hue, lines, max(square, len(lines) * font.get_height())))
    surface = pygame.Surface((width, sum(h for *_, h in rows) + pad * (len(rows) + 1)))
    surface.fill(BACKGROUND)
    y = pad
    for hue, lines, height in rows:
        for index, level in enumerate((1.0, DIM)):
            rect = pygame.Rect(pad + index * (square + pad), y, square, square)
            surface.fill((90, 70, 50), rect)
            colour = tuple(round(c * level) for c in hue.rgb)
            pygame.draw.circle(surface, colour, rect.center, square // 3)
        ty = y + (height - len(lines) * font.get_height()) // 2
        for line in lines:
            surface.blit(font.render(line, True, TEXT), (3 * square, ty))
            ty += font.get_height()
        y += height + pad
    pygame.image.save(surface, str(out))


class _StillHand:
    """A hand that touches nothing: the gallery's window only poses."""

    def lift(self, square: int) -> None:
        pass

    def place(self, square: int) -> None:
        pass


def draw_simulator(
    out: Path, with_help: bool = False, game: Game | None = None, lifted: str = "f4"
) -> None:
    """The simulator window with a falcon lifted (by default in the middle
    game of the square board): its destinations lit by how many open paths
    reach them, its paths dim."""
    import pygame

    from ..board import Reconciler
    from ..board.explain import occupancy
    from ..board.lights import frame
    from .sim import SimWindow

    if game is None:
        game = Game()
        for text in MIDGAME[:6]:
            game.push_text(text)
    geo = game.position.geometry
    square = geo.parse_square(lifted)
    rec = Reconciler(game, reading=occupancy(game.position) & ~(1 << square))
    pygame.display.init()
    window = SimWindow(
        _StillHand(),
        lambda name: None,
        SIZES[0],
        DisplayState.from_game(
            game, engine_status="ready", level=12, rating=levels.rating(12), engine_side=BLACK
        ),
        desktop=GALLERY_DESKTOP,
    )
    window.pieces.pop(square)
    window.colours = frame(rec.scene(), 0.0)
    window.help = with_help
    window.draw()
    pygame.image.save(window.window, str(out))


def save_all(docs: Path) -> list[Path]:
    """Render every scene into ``docs/screens/`` and write ``docs/screens.md``."""
    from .screenshot import render_state

    folder = docs / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for scene, (_, build) in ALL_SCENES.items():
        for size in SIZES:
            out = folder / file_name(scene, size)
            render_state(build(), out, size)
            written.append(out)
    draw_legend(folder / "leds.png")
    draw_simulator(folder / "simulator.png")
    draw_simulator(folder / "simulator-help.png", with_help=True)
    draw_simulator(folder / "hex-simulator.png", game=hex_game(HEX_MIDGAME[:4]), lifted="e4")
    written += [
        folder / "leds.png",
        folder / "simulator.png",
        folder / "simulator-help.png",
        folder / "hex-simulator.png",
    ]
    index = docs / "screens.md"
    index.write_text(page(), encoding="utf-8")
    return [*written, index]


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    for path in save_all(Path(args[0] if args else "docs")):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
