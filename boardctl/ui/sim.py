"""The desktop simulator's window: the wooden board with its LEDs, and the Pi's screen.

The window is three things to the daemon, like the hardware it stands for:
its :attr:`SimWindow.leds` are a LED sink, its :attr:`SimWindow.display` a
display, and its mouse is a hand on the simulated sensors (a :class:`Hand`,
the hardware's simulated board in practice): :mod:`boardctl.app` wires them
exactly as it wires a Pi, so the simulator runs the same code paths.  Keys
become presses of the board's buttons (see :mod:`boardctl.ui.keys`).

Putting a piece on an occupied square first takes the piece that stood there
off the board, as a hand would.  The window can be resized; the wooden board
scales with it.  The board is drawn through a
:class:`~boardctl.ui.boardview.BoardView`, so squares and the hexagon's
cells are lit, clicked and dragged the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pygame

from ..board.lights import legend
from ..rules import PieceType, Position, get_variant
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import HexGeometry
from ..rules.pieces import piece_colour, piece_kind
from .boardview import BoardView, HexView, piece_box, square_views
from .display import Renderer
from .keys import KEYS
from .pieces import sprite
from .state import DisplayState
from .text import Fonts, wrap

Colour = tuple[int, int, int]

SQUARE = 52          # the wooden board's cells when the window opens, px high
MIN_SQUARE = 24
MARGIN = 24
LIGHT_WOOD = (222, 190, 140)
MEDIUM_WOOD = (186, 145, 100)
DARK_WOOD = (150, 100, 60)
WOODS = (LIGHT_WOOD, MEDIUM_WOOD, DARK_WOOD)   # by a cell's shade
FRAME = (90, 55, 30)
LABEL = (240, 220, 190)
BACKGROUND = (40, 40, 44)
FPS = 50
HELP_TEXT, HELP_TEXT_MIN = 20, 12   # the help's line height, px: largest, smallest
CAPTURE_GAP = 0.1   # seconds between taking a piece off and landing on its square
BUTTON_OF_KEY = {"h": "hint", "+": "next", "=": "next", "-": "prev",
                 "q": "q", "f": "f", "r": "r", "b": "b", "n": "n"}


class Hand(Protocol):
    """What the mouse does to the board's sensors."""

    def lift(self, square: int) -> None: ...
    def place(self, square: int) -> None: ...


class _Leds:
    """The window as a LED sink."""

    def __init__(self, window: SimWindow) -> None:
        self.window = window

    def show(self, colours: dict[int, Colour]) -> None:
        self.window.colours = dict(colours)

    def close(self) -> None:
        pass


class _Screen:
    """The window's Pi screen as a display."""

    def __init__(self, window: SimWindow) -> None:
        self.window = window

    def show(self, state: DisplayState) -> None:
        self.window.show_state(state)


class SimWindow:
    """See the module docstring.  ``press`` takes a button name ("hint",
    "next", "prev", "ok", or a promotion letter)."""

    def __init__(self, hand: Hand, press: Callable[[str], None], screen_size: tuple[int, int],
                 state: DisplayState | None = None) -> None:
        self.hand = hand
        self.press = press
        self.state = state or DisplayState()
        variant = get_variant(self.state.variant)
        self.geometry: BoardGeometry = variant.geometry
        self.screen_size = screen_size
        self.renderer = Renderer(screen_size)
        self.screen = pygame.Surface(screen_size)
        self.fonts = Fonts()
        self.colours: dict[int, Colour] = {}
        self.leds = _Leds(self)
        self.display = _Screen(self)
        pos = Position(self.state.fen, variant)
        # What physically stands where (the sensors only see occupancy).
        self.pieces: dict[int, int] = {sq: p for sq, p in enumerate(pos.squares) if p}
        self.held: tuple[int, int] | None = None     # (piece code, square it came from)
        self.pressed_at: int | None = None
        self.landing: tuple[int, float] | None = None  # a capture's piece about to land
        self.help = False
        self.clock = 0.0
        self.square = SQUARE
        self.views = self._views(SQUARE)
        self.window = pygame.display.set_mode(self._size_for(SQUARE), pygame.RESIZABLE)
        pygame.display.set_caption(f"boardctl simulator — {variant.title}  (press ? for help)")

    # ----------------------------------------------------------- geometry
    @property
    def label_font(self) -> pygame.font.Font:
        return self.fonts.get(MARGIN * 3 // 4)

    def _views(self, cell: int) -> tuple[BoardView, BoardView]:
        """The wooden board with ``cell`` px cells, White and Black at the
        bottom; its frame (the views' bounds) starts at the window's corner."""
        geo = self.geometry
        if isinstance(geo, HexGeometry):
            return HexView.pair(geo, cell, measure=self.label_font.size, margin=MARGIN // 2)
        assert isinstance(geo, Geometry), geo   # the rectangles
        return square_views(geo, pygame.Rect(MARGIN, MARGIN, geo.files * cell, geo.ranks * cell),
                            MARGIN)

    @property
    def view(self) -> BoardView:
        return self.views[self.state.orientation]

    @property
    def frame(self) -> pygame.Rect:
        return self.views[0].bounds.union(self.views[1].bounds)

    def _size_for(self, cell: int) -> tuple[int, int]:
        views = self.views if cell == self.square else self._views(cell)
        frame = views[0].bounds.union(views[1].bounds)
        return (frame.right + MARGIN + self.screen_size[0] + MARGIN,
                max(frame.bottom, self.screen_size[1] + 2 * MARGIN))

    def resize(self, size: tuple[int, int]) -> None:
        """Fit the wooden board to a new window size (the Pi screen keeps its own)."""
        low, high = MIN_SQUARE, max(MIN_SQUARE, size[1])
        while low < high:   # the largest cell whose window fits ``size``
            mid = (low + high + 1) // 2
            need = self._size_for(mid)
            if need[0] <= size[0] and need[1] <= size[1]:
                low = mid
            else:
                high = mid - 1
        self.square = low
        self.views = self._views(low)
        need = self._size_for(low)
        self.window = pygame.display.set_mode((max(size[0], need[0]), max(size[1], need[1])),
                                              pygame.RESIZABLE)

    def square_at(self, x: int, y: int) -> int | None:
        return self.view.cell_at((x, y))

    def square_rect(self, sq: int) -> pygame.Rect:
        return self.view.rect(sq)

    # -------------------------------------------------------------- hands
    def lift(self, sq: int) -> None:
        if self.held is None and sq in self.pieces:
            self.held = (self.pieces.pop(sq), sq)
            self.hand.lift(sq)

    def place(self, sq: int) -> None:
        if self.held is None or self.landing is not None:
            return
        if sq in self.pieces:
            # A capture: the piece standing there comes off first, and the
            # capturing piece lands a moment later, as with a real hand.
            del self.pieces[sq]
            self.hand.lift(sq)
            self.landing = (sq, self.clock + CAPTURE_GAP)
            return
        self._land(sq)

    def _land(self, sq: int) -> None:
        assert self.held is not None
        self.pieces[sq] = self.held[0]
        self.held = None
        self.landing = None
        self.hand.place(sq)

    def show_state(self, state: DisplayState) -> None:
        """A new screen state.  After a move, the pieces are named as the game
        names them (a promoted pawn becomes its new piece) wherever the board
        agrees with the game."""
        variant = get_variant(state.variant)
        if variant.geometry != self.geometry:
            # Another board: the wooden board is built again around it.
            self.geometry = variant.geometry
            self.views = self._views(self.square)
            self.window = pygame.display.set_mode(self._size_for(self.square),
                                                  pygame.RESIZABLE)
        if state.moves != self.state.moves or state.fen != self.state.fen:
            pos = Position(state.fen, variant)
            for sq in list(self.pieces):
                if pos.squares[sq]:
                    self.pieces[sq] = pos.squares[sq]
        self.state = state

    # --------------------------------------------------------------- loop
    def tick(self, now: float) -> bool:
        """Handle the window's events and land a capturing piece when due;
        False once the window is closed."""
        self.clock = now
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            ):
                return False
            self.handle(event)
        if self.landing is not None and now >= self.landing[1]:
            self._land(self.landing[0])
        return True

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            sq = self.square_at(*event.pos)
            if sq is None:
                return
            if self.held is None:
                self.lift(sq)
                self.pressed_at = sq
            else:
                self.place(sq)
                self.pressed_at = None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            sq = self.square_at(*event.pos)
            # A drag: released on another square than the one picked up from.
            if self.held is not None and sq is not None and sq != self.pressed_at:
                self.place(sq)
            self.pressed_at = None
        elif event.type == pygame.KEYDOWN:
            if event.unicode == "?" or event.key == pygame.K_F1:
                self.help = not self.help
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.press("ok")
            elif event.unicode in BUTTON_OF_KEY:
                self.press(BUTTON_OF_KEY[event.unicode])

    # ---------------------------------------------------------------- draw
    def draw(self) -> None:
        surface = self.window
        surface.fill(BACKGROUND)
        view, side = self.view, self.square
        frame = self.frame
        pygame.draw.rect(surface, FRAME, frame, border_radius=8)
        for sq in range(view.cells):
            view.fill(surface, sq, WOODS[view.shade(sq)])
        for sq in range(view.cells):   # over all the cells: hexagons share edges
            colour = self.colours.get(sq)
            if colour and max(colour):
                # An LED seen through wood: a dim LED is a fainter glow of the
                # same hue, not a darker one.
                peak = max(colour)
                hue = tuple(round(c * 255 / peak) for c in colour)
                glow = pygame.Surface((view.cell, view.cell), pygame.SRCALPHA)
                pygame.draw.circle(glow, (*hue, round(70 + 140 * peak / 255)),
                                   (view.cell // 2, view.cell // 2), view.cell // 2 - 2)
                surface.blit(glow, piece_box(view, sq))
            piece = self.pieces.get(sq)
            if piece:
                surface.blit(sprite(PieceType(piece_kind(piece)), piece_colour(piece),
                                    view.cell - 6), piece_box(view, sq, 3))
        label = self.label_font
        for words, centre in view.labels():
            text = label.render(words, True, LABEL)
            surface.blit(text, text.get_rect(center=centre))
        if self.held is not None:
            x, y = pygame.mouse.get_pos()
            piece = self.held[0]
            surface.blit(sprite(PieceType(piece_kind(piece)), piece_colour(piece), side - 6),
                         (x - side // 2, y - side // 2))
        self.renderer.render(self.state, self.screen)
        surface.blit(self.screen, (frame.right + MARGIN, MARGIN))
        hint = label.render("? help", True, (150, 150, 160))
        surface.blit(hint, (frame.right + MARGIN, MARGIN + self.screen_size[1] + 6))
        if self.help:
            self._help(surface)

    def _help(self, surface: pygame.Surface) -> None:
        """The keys, the mouse and the LED colours, over the whole window, in
        the largest text that fits it."""
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 215))
        surface.blit(veil, (0, 0))
        width = surface.get_width() - 4 * MARGIN
        for size in range(HELP_TEXT, HELP_TEXT_MIN - 1, -1):
            font, bold = self.fonts.get(size), self.fonts.get(size + 4)
            keys = [wrap(f"{key}: {words}", font, width) for key, _, words in KEYS]
            lights = [(hue, wrap(meaning, font, width - 30)) for hue, meaning in legend()]
            lines = sum(map(len, keys)) + sum(len(text) for _, text in lights)
            if 2 * MARGIN + 2 * (bold.get_height() + 6) + 10 + lines * font.get_height() \
                    <= surface.get_height():
                break
        white, grey = (255, 255, 255), (235, 235, 235)
        y = MARGIN
        surface.blit(bold.render("Keys and mouse", True, white), (2 * MARGIN, y))
        y += bold.get_height() + 6
        for text in keys:
            for line in text:
                surface.blit(font.render(line, True, grey), (2 * MARGIN, y))
                y += font.get_height()
        y += 10
        surface.blit(bold.render("What the lights mean", True, white), (2 * MARGIN, y))
        y += bold.get_height() + 6
        for hue, text in lights:
            pygame.draw.circle(surface, hue.rgb, (2 * MARGIN + 8, y + font.get_height() // 2), 8)
            for line in text:
                surface.blit(font.render(line, True, grey), (2 * MARGIN + 26, y))
                y += font.get_height()
