"""The status screen, read back pixel by pixel: squares, tints, pieces, panel text."""

from __future__ import annotations

import itertools

import pygame
import pytest

from boardctl.colour import Colour
from boardctl.rules import BLACK, WHITE, FenError, Game, PieceType, Position, get_variant
from boardctl.ui import display
from boardctl.ui.display import Renderer
from boardctl.ui.pieces import PALETTES
from boardctl.ui.state import DisplayState, engine_lines, iter_move_rows, level_words

GEO = get_variant("falcon").geometry
SQ = GEO.parse_square


def rgb(surface: pygame.Surface, at: tuple[int, int]) -> Colour:
    colour = surface.get_at(at)
    return (colour.r, colour.g, colour.b)


def corner(surface: pygame.Surface, rect: pygame.Rect) -> Colour:
    """A pixel just inside the square's top-left corner, where no piece reaches."""
    return rgb(surface, (rect.left + 1, rect.top + 1))


def cell(renderer: Renderer, state: DisplayState, square: int) -> pygame.Rect:
    return renderer.square_rect(state, square)


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> list[tuple[tuple[int, int], Colour]]:
    return [
        ((x, y), rgb(surface, (x, y)))
        for y in range(rect.top, rect.bottom)
        for x in range(rect.left, rect.right)
    ]


def count(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> int:
    return sum(1 for _, found in pixels(surface, rect) if found == colour)


def plain(square: int) -> Colour:
    return display.LIGHT if GEO.is_light(square) else display.DARK


def checked_game() -> Game:
    """Black's rook comes down from j8 to j1 and checks the white king on f1."""
    game = Game(get_variant("falcon"), "5k3r/3f6/10/10/10/4F5/10/5K4 b - - 0 30")
    game.push_text("j8j1")
    return game


# ---------------------------------------------------------------- the board
@pytest.mark.parametrize("orientation", [WHITE, BLACK], ids=["white-bottom", "black-bottom"])
def test_every_square_of_the_start_position_has_its_colour(size, draw, orientation):
    state = DisplayState(orientation=orientation)
    surface, renderer = draw(state, size)
    for square in range(GEO.size):
        assert corner(surface, cell(renderer, state, square)) == plain(square), GEO.name(square)
    assert plain(SQ("a1")) == display.LIGHT and plain(SQ("j1")) == display.DARK


@pytest.mark.parametrize("orientation", [WHITE, BLACK], ids=["white-bottom", "black-bottom"])
@pytest.mark.parametrize("variant", ["falcon-9x10", "falcon-10x10-central"])
def test_the_larger_boards_are_coloured_and_set_up_square_by_square(
    size, draw, orientation, variant
):
    state = DisplayState.from_fen(None, variant, orientation=orientation)
    surface, renderer = draw(state, size)
    pos = Game(get_variant(variant)).position
    geo = pos.geometry
    for square in range(geo.size):
        rect = cell(renderer, state, square)
        shade = display.LIGHT if geo.is_light(square) else display.DARK
        # On small squares a falcon's wing may reach one corner, never all four.
        corners = [
            rgb(surface, at)
            for at in (
                (rect.left + 1, rect.top + 1),
                (rect.right - 2, rect.top + 1),
                (rect.left + 1, rect.bottom - 2),
                (rect.right - 2, rect.bottom - 2),
            )
        ]
        assert shade in corners, geo.name(square)
        piece = pos.squares[square]
        # The middle of the square: a piece's body in its colour's fill, or
        # nothing but the plain square.
        middle = rect.inflate(-rect.width // 2, -rect.height // 2)
        if piece:
            assert count(surface, middle, PALETTES[piece >> 3].fill) > 0, geo.name(square)
        else:
            assert count(surface, middle, shade) == middle.width * middle.height, geo.name(square)


def test_a1_is_bottom_left_for_white_and_top_right_for_black(size, draw):
    white, black = DisplayState(), DisplayState(orientation=BLACK)
    surface_w, renderer = draw(white, size)
    surface_b, _ = draw(black, size)
    board = renderer.layout(10, 8).board
    a1_w, a1_b = cell(renderer, white, SQ("a1")), cell(renderer, black, SQ("a1"))
    assert a1_w.bottomleft == board.bottomleft
    assert a1_b.topright == board.topright
    # The same screen square holds the white rook one way round and the black rook the other.
    assert rgb(surface_w, a1_w.center) == PALETTES[WHITE].fill
    assert rgb(surface_b, a1_w.center) == PALETTES[BLACK].fill


@pytest.mark.parametrize("orientation", [WHITE, BLACK], ids=["white-bottom", "black-bottom"])
@pytest.mark.parametrize("variant", ["falcon", "falcon-8x8", "falcon-9x10", "falcon-10x10"])
def test_a_tap_finds_the_square_under_it(size, orientation, variant):
    renderer = Renderer(size)
    state = DisplayState.from_fen(None, variant, orientation=orientation)
    squares = get_variant(variant).geometry.size
    for square in range(squares):
        rect = renderer.square_rect(state, square)
        assert renderer.square_at(state, rect.center) == square
        assert renderer.square_at(state, (rect.right - 1, rect.bottom - 1)) == square
    assert renderer.square_at(state, (size[0] - 2, size[1] // 2)) is None  # the panel


def test_turning_the_board_moves_the_last_move_tint_to_the_mirrored_squares(size, draw):
    fen = "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1"
    white = DisplayState(fen=fen, last_move=(SQ("e2"), SQ("e4")))
    black = DisplayState(fen=fen, last_move=(SQ("e2"), SQ("e4")), orientation=BLACK)
    surface_w, renderer = draw(white, size)
    surface_b, _ = draw(black, size)
    e2_on_screen = cell(renderer, white, SQ("e2"))
    assert corner(surface_w, e2_on_screen) == display.LAST_MOVE_DARK  # e2 is dark
    assert corner(surface_b, e2_on_screen) == plain(SQ("f7"))  # now f7 stands there
    assert corner(surface_b, cell(renderer, black, SQ("e2"))) == display.LAST_MOVE_DARK


def test_check_square_is_red_and_the_last_move_is_tinted(size, draw):
    state = DisplayState.from_game(checked_game())
    assert state.check_square == SQ("f1")
    assert state.last_move == (SQ("j8"), SQ("j1"))
    surface, renderer = draw(state, size)
    red = corner(surface, cell(renderer, state, SQ("f1")))
    assert red == (display.CHECK_LIGHT if GEO.is_light(SQ("f1")) else display.CHECK_DARK)
    assert red[0] > red[1] + 120 and red[0] > red[2] + 120
    assert corner(surface, cell(renderer, state, SQ("j8"))) == display.LAST_MOVE_LIGHT
    assert corner(surface, cell(renderer, state, SQ("j1"))) == display.LAST_MOVE_DARK
    for square in set(range(GEO.size)) - {SQ("f1"), SQ("j8"), SQ("j1")}:
        assert corner(surface, cell(renderer, state, square)) == plain(square)


def test_a_square_the_prompt_names_is_outlined(size, draw):
    state = DisplayState(prompt="Put the knight back on h3", marks=(SQ("h3"),))
    surface, renderer = draw(state, size)
    rect = cell(renderer, state, SQ("h3"))
    assert corner(surface, rect) == display.MARK
    assert corner(surface, cell(renderer, state, SQ("g3"))) == plain(SQ("g3"))


def _footprint(draw, size, letter: str) -> set[tuple[int, int]]:
    """Pixels of the d1 square that a piece changes (relative to the square)."""
    empty = DisplayState(fen="k9/10/10/10/10/10/10/9K w - - 0 1")
    with_piece = DisplayState(fen=f"k9/10/10/10/10/10/10/3{letter}5K w - - 0 1")
    bare, renderer = draw(empty, size)
    surface, _ = draw(with_piece, size)
    rect = cell(renderer, with_piece, SQ("d1"))
    return {
        (x - rect.left, y - rect.top)
        for (x, y), colour in pixels(surface, rect)
        if colour != rgb(bare, (x, y))
    }


def _overlap(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    return len(a & b) / len(a | b)


@pytest.mark.parametrize("colour", ["white", "black"])
def test_the_falcon_looks_like_no_orthodox_piece(size, draw, colour):
    """A falcon on d1 changes a pattern of pixels unlike a queen's, rook's, bishop's or
    knight's there: further from its nearest orthodox piece than any of those four is
    from its own nearest."""
    shapes = {
        symbol: _footprint(draw, size, symbol.upper() if colour == "white" else symbol)
        for symbol in "fqrbn"
    }
    square = draw(DisplayState(), size)[1].layout(10, 8).square
    falcon = shapes.pop("f")
    assert len(falcon) > square * square // 5
    nearest_to_falcon = max(_overlap(falcon, shape) for shape in shapes.values())
    nearest_among_orthodox = min(
        max(_overlap(shape, other) for name, other in shapes.items() if name != own)
        for own, shape in shapes.items()
    )
    assert nearest_to_falcon < 0.7
    assert nearest_to_falcon < nearest_among_orthodox - 0.05
    # Spread wings: the falcon reaches the outer sixths of the square in its upper half.
    edge = square // 6
    assert any(x < edge and y < square // 2 for x, y in falcon)
    assert any(x >= square - edge and y < square // 2 for x, y in falcon)


# ---------------------------------------------------------------- the panel
def _panel_only(renderer: Renderer) -> pygame.Rect:
    return renderer.layout(10, 8).panel


def _banner_only(renderer: Renderer) -> pygame.Rect:
    return renderer.layout(10, 8).banner


def test_prompt_text_occupies_pixels_in_the_banner(size, draw):
    quiet = DisplayState()
    prompted = DisplayState(prompt="Put the knight back on h3", prompt_kind="error")
    before, renderer = draw(quiet, size)
    after, _ = draw(prompted, size)
    banner = _banner_only(renderer)
    box = count(after, banner, display.BANNER_BG["error"])
    ink = [
        at
        for at, colour in pixels(after, banner)
        if colour == display.TEXT and rgb(before, at) != display.TEXT
    ]
    assert box > 5000
    assert len(ink) > 300
    assert all(banner.collidepoint(at) for at in ink)


def test_prompt_lines_are_readable_at_arms_length(draw):
    text = "That move leaves your king in check: move the bishop back to f2"
    state = DisplayState(prompt=text, prompt_kind="error")
    surface, renderer = draw(state, (480, 320))
    layout = renderer.layout(10, 8)
    assert layout.body >= 18
    assert renderer.cut == []
    ink = [y for (x, y), colour in pixels(surface, layout.banner) if colour == display.TEXT]
    rows = sorted(set(ink))
    # Two lines, each with the cap height plus descender of an 18 px line.
    gaps = [b - a for a, b in itertools.pairwise(rows) if b - a > 1]
    assert len(gaps) == 1
    assert max(rows) - min(rows) + 1 >= 2 * 15


def test_an_error_is_drawn_in_a_strong_colour_and_info_is_not(size, draw):
    error, renderer = draw(DisplayState(prompt="Take the piece off e5", prompt_kind="error"), size)
    info, _ = draw(DisplayState(prompt="Take the piece off e5"), size)
    banner = _banner_only(renderer)
    assert count(error, banner, display.BANNER_BG["error"]) > 5000
    assert count(info, banner, display.BANNER_BG["error"]) == 0
    assert count(info, banner, display.BANNER_BG["info"]) > 5000
    r, g, b = display.BANNER_BG["error"]
    assert r > 180 and g < 60 and b < 60


def test_a_long_prompt_stays_inside_the_banner(size, draw):
    text = (
        "That move leaves your king in check: move the falcon back to d1 and "
        "then think again about the knight on h3 before touching anything else"
    )
    surface, renderer = draw(DisplayState(prompt=text, prompt_kind="error"), size)
    bare, _ = draw(DisplayState(), size)
    banner = _banner_only(renderer)
    outside = [
        at
        for at, colour in pixels(surface, surface.get_rect())
        if colour != rgb(bare, at) and not banner.collidepoint(at)
    ]
    assert outside == []


def test_panel_and_banner_never_draw_over_the_board(size, draw):
    busy = DisplayState.from_game(
        checked_game(),
        engine_status="thinking",
        engine_depth=17,
        engine_score="-M3",
        white_clock=3725.0,
        black_clock=7.5,
        prompt="Put the rook back on j8",
        status="sensor link lost",
        status_alert=True,
        level=7,
    )
    quiet = DisplayState.from_game(checked_game())
    surface, renderer = draw(busy, size)
    bare, _ = draw(quiet, size)
    lay = renderer.layout(10, 8)
    left = pygame.Rect(0, 0, lay.panel.left, lay.banner.top)
    assert all(colour == rgb(bare, at) for at, colour in pixels(surface, left))


def test_the_engine_move_is_in_san_and_squares_in_the_engine_colour(size, draw):
    state = DisplayState.from_fen(
        "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1",
        engine_move=("Nh6", SQ("i8"), SQ("h6")),
        engine_status="ready",
    )
    surface, renderer = draw(state, size)
    assert renderer.banner(state) == ("engine", "Engine: Nh6 \N{EN DASH} i8 to h6")
    assert renderer.cut == []
    assert count(surface, _banner_only(renderer), display.BANNER_BG["engine"]) > 5000


def test_once_carried_out_the_banner_says_whose_turn_it_is(draw):
    state = DisplayState.from_fen(
        "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1",
        engine_status="thinking",
    )
    _, renderer = draw(state, (480, 320))
    assert renderer.banner(state) == ("idle", "Black to move: the engine is thinking")
    checked = DisplayState.from_game(checked_game())
    assert renderer.banner(checked) == ("idle", "Check! White to move")


def test_after_a_resume_the_move_list_keeps_its_numbers(draw):
    # Resumed at move 5 with Black to move: the list starts "5. … Qxb2".
    state = DisplayState(
        fen="rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR b KQkq - 0 6",
        moves=("Qxb2", "Nf3"),
        engine_status="ready",
        level=3,
    )
    rows = list(iter_move_rows(state))
    assert rows == [(5, None, "Qxb2"), (6, "Nf3", None)]
    _, renderer = draw(state, (480, 320))
    assert renderer.cut == []


def test_the_side_to_move_row_is_lit_and_low_time_is_red(size, draw):
    state = DisplayState(
        fen="rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1",
        white_clock=300.0,
        black_clock=8.4,
    )
    surface, renderer = draw(state, size)
    panel = _panel_only(renderer)
    top = pygame.Rect(panel.left, panel.top, panel.width, panel.height // 4)
    bottom = pygame.Rect(
        panel.left, panel.bottom - panel.height // 4, panel.width, panel.height // 4
    )
    assert count(surface, top, display.ROW_ACTIVE) > 500  # Black (top) to move
    assert count(surface, bottom, display.ROW_ACTIVE) == 0
    assert count(surface, top, display.LOW_TIME) > 20


def test_engine_state_depth_and_score_are_shown(size, draw):
    thinking = DisplayState(engine_status="thinking", engine_depth=12, engine_score="+0.35")
    surface, renderer = draw(thinking, size)
    off, _ = draw(DisplayState(), size)
    panel = _panel_only(renderer)
    assert count(surface, panel, display.ENGINE_DOT["thinking"]) > 5
    assert count(off, panel, display.ENGINE_DOT["thinking"]) == 0
    assert count(surface, panel, display.TEXT) > count(off, panel, display.TEXT) + 50


@pytest.mark.parametrize("status", ["ready", "thinking"])
def test_the_level_is_shown_with_its_rating_whole_on_either_screen(size, draw, status, monkeypatch):
    state = DisplayState(engine_status=status, engine_score="+0.35", level=12, rating=1450)
    drawn: list[str] = []
    _, renderer = draw(state, size)
    original = renderer._line

    def spy(surface, font, words, *args, **where):
        drawn.append(words)
        return original(surface, font, words, *args, **where)

    monkeypatch.setattr(renderer, "_line", spy)
    renderer.cut.clear()
    renderer.render(state, pygame.Surface(size))
    text = " ".join(drawn)
    assert "level 12" in text and "about 1450" in text
    assert renderer.cut == []  # nothing cut short


def test_the_engine_lines_go_from_one_line_to_one_fact_a_line():
    rated = DisplayState(engine_status="thinking", level=12, rating=1450)
    assert engine_lines(rated) == [
        ["engine thinking, level 12 \N{MIDDLE DOT} about 1450"],
        ["thinking, level 12 \N{MIDDLE DOT} about 1450"],
        ["thinking", "level 12 \N{MIDDLE DOT} about 1450"],
        ["thinking", "level 12", "about 1450"],
    ]
    # Another engine's levels have no rating: the level alone.
    unrated = DisplayState(engine_status="ready", level=3)
    assert engine_lines(unrated)[-1] == ["ready", "level 3"]
    assert level_words(3, None) == "level 3"
    assert engine_lines(DisplayState(engine_status="off")) == [["engine off"], ["off"]]


def test_the_last_move_in_the_list_is_highlighted(size, draw):
    game = Game()
    for text in ("e4", "e5", "Nh3", "Nc6"):
        game.push_text(text)
    surface, renderer = draw(DisplayState.from_game(game), size)
    assert count(surface, _panel_only(renderer), display.LAST_PLY_BG) > 30


def test_promotion_choices_are_drawn_large_with_the_chosen_one_framed(size, draw):
    choices = (
        PieceType.QUEEN,
        PieceType.FALCON,
        PieceType.ROOK,
        PieceType.BISHOP,
        PieceType.KNIGHT,
    )
    fen = "4k5/1P8/10/10/10/10/10/5K4 w - - 0 40"
    state = DisplayState(
        fen=fen, prompt="Choose the new piece", prompt_kind="choice", choices=choices, chosen=1
    )
    surface, renderer = draw(state, size)
    plain_surface, _ = draw(DisplayState(fen=fen), size)
    board = renderer.layout(10, 8).board
    assert count(surface, board, display.CHOICE_CHOSEN_BG) > 200
    assert count(surface, board, display.MARK) > 100
    # The board underneath is dimmed.
    a8 = cell(renderer, state, SQ("a8"))
    assert sum(corner(surface, a8)) < sum(corner(plain_surface, a8)) - 150


# ---------------------------------------------------------------- sizes and errors
@pytest.mark.parametrize("other", [(400, 240), (1024, 600), (1280, 720), (480, 480), (480, 272)])
@pytest.mark.parametrize("variant", ["falcon", "falcon-8x8", "falcon-9x10", "falcon-10x10-central"])
def test_other_sizes_and_board_shapes_render(draw, other, variant):
    start = DisplayState.from_fen(None, variant)
    state = DisplayState(
        fen=start.fen,
        variant=variant,
        moves=("e4", "e5"),
        prompt="Put the knight back on h3",
        engine_status="thinking",
        engine_depth=3,
        engine_score="+0.1",
        white_clock=59.0,
        black_clock=61.0,
        choices=(PieceType.FALCON, "undo"),
        chosen=0,
        status="ok",
    )
    surface, renderer = draw(state, other)
    files, ranks = get_variant(variant).files, get_variant(variant).ranks
    layout = renderer.layout(files, ranks)
    assert surface.get_rect().contains(layout.board)
    assert layout.panel.width > 0 and layout.panel.left >= layout.board.right
    assert layout.square * ranks + layout.labels <= other[1]


def test_bad_inputs_fail_clearly():
    renderer = Renderer((480, 320))
    with pytest.raises(ValueError, match="surface"):
        renderer.render(DisplayState(), pygame.Surface((800, 480)))
    with pytest.raises(FenError):
        renderer.render(DisplayState(fen="not a fen"), pygame.Surface((480, 320)))
    with pytest.raises(ValueError, match="smaller"):
        Renderer((100, 80))


def test_against_the_engine_the_rows_say_who_is_who():
    from boardctl.ui.display import player_label

    state = DisplayState(engine_side=BLACK)
    assert player_label(state, WHITE, True) == "Your move"
    assert player_label(state, BLACK, False) == "Engine"
    assert player_label(DisplayState(), WHITE, True) == "White to move"


def test_nobody_is_to_move_while_a_position_is_set_up_or_once_it_is_over():
    from boardctl.ui.display import to_move

    assert to_move(DisplayState(engine_side=BLACK), WHITE)
    assert not to_move(DisplayState(engine_side=BLACK), BLACK)
    assert not to_move(DisplayState(engine_side=BLACK, setting_up=True), WHITE)
    assert not to_move(DisplayState(prompt_kind="over"), WHITE)


def without_pieces(renderer: Renderer, state: DisplayState, monkeypatch) -> pygame.Surface:
    """The screen of ``state`` with every piece drawn as nothing."""
    blank = pygame.Surface((1, 1), pygame.SRCALPHA)
    monkeypatch.setattr(display, "sprite", lambda *args: blank)
    without = pygame.Surface(renderer.size)
    renderer.render(state, without)
    return without


@pytest.mark.parametrize("variant", ["falcon-hex", "falcon"])
@pytest.mark.parametrize("orientation", [WHITE, BLACK])
def test_every_piece_is_drawn_inside_its_own_cell(size, draw, variant, orientation, monkeypatch):
    # On the hexagon the pieces were drawn the cell's full height: their
    # crowns stood out past the slanting sides and, on the top row, looked
    # cut by the screen's edge.  The pieces' ink is what changes when they
    # are drawn as nothing; every changed pixel must be in its own cell.
    state = DisplayState.from_fen(None, variant=variant, orientation=orientation)
    with_pieces, renderer = draw(state, size)
    without = without_pieces(renderer, state, monkeypatch)
    view = renderer.view(state)
    pos = Position(state.fen, get_variant(variant))
    pieces = {sq for sq in range(view.cells) if pos.piece_at(sq) is not None}
    strays, inked = [], 0
    for x, y in itertools.product(
        range(view.board.left, view.board.right), range(view.board.top, view.board.bottom)
    ):
        if with_pieces.get_at((x, y)) != without.get_at((x, y)):
            inked += 1
            # A pixel on a cell's edge may be counted to its neighbour.
            near = {view.cell_at((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            if not near & pieces:
                strays.append((x, y))
    assert inked > 1000 and strays == []


@pytest.mark.parametrize("variant", ["falcon-hex", "falcon"])
def test_a_pawn_stands_as_tall_as_a_capital_of_the_smallest_text(size, draw, variant, monkeypatch):
    """The hexagon's pieces were about 10 px at 480x320 (its 11 rows shared
    the height with the banner: 20 px cells, 16 px pieces): a pawn's ink 13 px
    high, under the 17 px of a capital of the smallest text the screen shows.
    A pawn, the smallest piece, is a shape to tell apart at a glance too."""
    from boardctl.ui.layout import legible_px

    state = DisplayState.from_fen(None, variant=variant)
    with_pieces, renderer = draw(state, size)
    without = without_pieces(renderer, state, monkeypatch)
    view = renderer.view(state)
    pos = Position(state.fen, get_variant(variant))
    pawns = [sq for sq in range(view.cells) if pos.piece_at(sq) == (PieceType.PAWN, WHITE)]
    rect = view.rect(pawns[0])
    rows = [
        y
        for y in range(rect.top, rect.bottom)
        if any(
            with_pieces.get_at((x, y)) != without.get_at((x, y))
            for x in range(rect.left, rect.right)
        )
    ]
    capital = renderer.fonts.get(legible_px(size)).render("H", True, (255, 255, 255))
    assert rows[-1] - rows[0] + 1 >= capital.get_bounding_rect().height


def test_the_engines_move_is_tinted_on_the_board_not_the_players_last(size, draw):
    # Only the banner named the engine's move, while the board tinted the
    # player's last move: a glance at the screen pointed at the wrong squares.
    fen = "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1"
    waiting = DisplayState.from_fen(
        fen, last_move=(SQ("e2"), SQ("e4")), engine_move=("Nh6", SQ("i8"), SQ("h6"))
    )
    surface, renderer = draw(waiting, size)
    view = renderer.view(waiting)
    for name in ("i8", "h6"):
        sq = SQ(name)
        assert corner(surface, view.rect(sq)) == display.ENGINE_MOVE[view.shade(sq)], name
    for name in ("e2", "e4"):
        sq = SQ(name)
        assert corner(surface, view.rect(sq)) == display.SHADES[view.shade(sq)], name
    done = DisplayState.from_fen(fen, last_move=(SQ("e2"), SQ("e4")))
    surface, renderer = draw(done, size)
    for name in ("e2", "e4"):
        sq = SQ(name)
        assert corner(surface, view.rect(sq)) == display.LAST_MOVE[view.shade(sq)], name


# ------------------------------------------------------------ the move list's pairs
LONG_SANS = ("e4", "e5", "Nh3", "Nc6", "Ff4", "d6", "d3", "Bg4", "Fxe5+", "Kd7", "Qxg4+", "Kc7")


@pytest.mark.parametrize("size", [(480, 320), (400, 240), (800, 480)], ids=str)
def test_the_move_list_keeps_pairs_on_a_line_after_a_long_move(size):
    """After "Fxe5+" it fell to one ply a line: 6 plies shown of 12."""
    from dataclasses import replace

    from boardctl.ui.gallery import ALL_SCENES

    state = replace(ALL_SCENES["two-players"][1](), moves=LONG_SANS)
    renderer = Renderer(size)
    renderer.render(state, pygame.Surface(size))
    lines = renderer.move_list
    assert all(len(line) == 3 and line[0].endswith(".") for line in lines), lines
    assert sum(len(line) - 1 for line in lines) >= 10  # plies shown
    assert lines[-1] == ("6.", "Qxg4+", "Kc7") and renderer.cut == []


def test_a_pair_too_wide_for_the_panel_puts_blacks_move_under_its_column():
    """At 480x320 with the engine's lines, "5. Fxe5+ Nxe5" is wider than the panel
    at the smallest legible size: that pair takes two lines, none cut, and the
    solved puzzle's "1. Qxi7+ Kxi7" stays on one."""
    from dataclasses import replace

    from boardctl.ui.gallery import ALL_SCENES

    renderer = Renderer((480, 320))
    surface = pygame.Surface((480, 320))
    renderer.render(ALL_SCENES["puzzle-solved"][1](), surface)
    assert renderer.move_list == [("1.", "Qxi7+", "Kxi7"), ("2.", "j6#")]
    state = replace(ALL_SCENES["engine-move"][1](), moves=(*LONG_SANS[:8], "Fxe5+", "Nxe5"))
    renderer.render(state, surface)
    assert renderer.move_list[-2:] == [("5.", "Fxe5+"), ("Nxe5",)]
    assert renderer.cut == []


# ------------------------------------------------------------ the banner's margins
def ink_margins(renderer: Renderer, state: DisplayState, surface: pygame.Surface) -> int:
    """The fewest pixels between the banner's words and its left or right edge,
    as drawn (columns of the banner's straight middle that hold anything but
    its colour)."""
    renderer.render(state, surface)
    assert renderer.drawn is not None
    box = renderer.drawn.banner
    background = display.BANNER_BG[renderer.banner(state)[0]]
    rows = range(box.top + box.height // 6, box.bottom - box.height // 6)
    inked = [
        x
        for x in range(box.left + 1, box.right - 1)
        if any(rgb(surface, (x, y)) != background for y in rows)
    ]
    return min(inked[0] - box.left, box.right - 1 - inked[-1])


def beside(renderer: Renderer, state: DisplayState) -> bool:
    """Whether the banner of ``state`` stands beside the board."""
    return renderer.board_layout(get_variant(state.variant).geometry).beside


@pytest.mark.parametrize("size", [(480, 320), (800, 480)], ids=str)
def test_the_banners_words_keep_clear_of_its_edges(size):
    """ "Solved! Checkmate in 2 moves" and the player-code banner ran to the
    banner's edges (6 px at 480x320): a quarter of its height on each side now,
    for every state of the gallery but two long lines that need the width to
    the pad (the coach's, at 480x320), which keep the pad as before.  A
    banner beside the hexagon (152 px wide at 480x320) keeps the pad."""
    from boardctl.ui.gallery import ALL_SCENES

    renderer = Renderer(size)
    surface = pygame.Surface(size)
    lay = renderer.layout(10, 8)
    clear = round(lay.banner.height / 4) - 1  # antialiasing
    code = DisplayState.from_fen(Game().start_fen, prompt="Remote game: player code WXYZ7KQM")
    states = {name: build() for name, (_, build) in ALL_SCENES.items()} | {"code": code}
    margins = {name: ink_margins(renderer, state, surface) for name, state in states.items()}
    assert renderer.cut == []
    for name in ("puzzle-solved", "first-start", "code"):
        assert margins[name] >= clear, name
    along = {name for name, state in states.items() if not beside(renderer, state)}
    assert along >= {"puzzle-solved", "first-start", "code", "coach"}
    narrow = sorted(name for name in along if margins[name] < clear)
    assert narrow == (["coach"] if size == (480, 320) else [])
    assert min(margins.values()) >= lay.pad


# ------------------------------------------------------------ the banner beside the hexagon
@pytest.mark.parametrize("size", [(480, 320), (400, 240)], ids=str)
@pytest.mark.parametrize("scene", ["hex-promotion", "hex-black", "hex-fix"])
def test_a_short_panel_beside_the_hexagon_draws_nothing_over_the_players_rows(
    size, scene, monkeypatch
):
    """Beside the hexagon the banner stands under the panel, as tall as its
    words: under a prompt of five lines the evaluation and a move were drawn
    over the bottom player's row.  The panel's middle shows what fits."""
    from dataclasses import replace

    from boardctl.ui.gallery import ALL_SCENES

    state = replace(
        ALL_SCENES[scene][1](), level=12, rating=1275, engine_score="+0.31", engine_depth=7
    )
    renderer = Renderer(size)
    rows: list[pygame.Rect] = []
    texts: list[tuple[str, pygame.Rect]] = []
    side, line, ply = renderer._side, renderer._line, renderer._ply

    def spy_side(surface, lay, st, colour, rect):
        rows.append(pygame.Rect(rect))
        return side(surface, lay, st, colour, rect)

    def spy_line(surface, font, words, ink, width, **where):
        texts.append((words, pygame.Rect((0, 0), font.size(words)).move_to(**where)))
        return line(surface, font, words, ink, width, **where)

    def spy_ply(surface, font, text, at, last):
        texts.append((text, pygame.Rect(at, font.size(text))))
        return ply(surface, font, text, at, last)

    monkeypatch.setattr(renderer, "_side", spy_side)
    monkeypatch.setattr(renderer, "_line", spy_line)
    monkeypatch.setattr(renderer, "_ply", spy_ply)
    renderer.render(state, pygame.Surface(size))
    assert renderer.drawn is not None and renderer.drawn.beside
    assert renderer.cut == []
    assert len(rows) == 2 and len(texts) >= 4
    over = [
        words
        for words, rect in texts
        for row in rows
        if rect.colliderect(row) and not row.contains(rect)
    ]
    assert over == []
    assert all(renderer.drawn.panel.contains(rect) for _, rect in texts)
