"""The desktop simulator's window: the wooden board with its LEDs, and the Pi's screen.

The window is three things to the daemon, like the hardware it stands for:
its :attr:`SimWindow.leds` are a LED sink, its :attr:`SimWindow.display` a
display, and its mouse is a hand on the simulated sensors (a :class:`Hand`,
the hardware's simulated board in practice): :mod:`boardctl.daemon.wiring` wires them
exactly as it wires a Pi, so the simulator runs the same code paths.  Keys
become presses of the board's buttons (see :mod:`boardctl.ui.keys`).

The mouse can do what a hand does at a real table, and nothing more: pick up
a piece (two at once, for castling or a capture), put one down on an empty
square, take one off the board into the :class:`~boardctl.ui.tray.Tray`
beside it (a right-click, or a drag there) and put one back from the tray.
A piece never lands on an occupied square: a capture takes the captured
piece off first (or the capturing piece is lifted, the captured one taken
off, and then the capturing piece put down), as the sensors would see it
done by hand.  The window can be resized; the wooden board and the tray
scale with it.  The board is drawn through a
:class:`~boardctl.ui.boardview.BoardView`, so squares and the hexagon's
cells are lit, clicked and dragged the same way.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import singledispatch
from typing import Protocol

import pygame

from ..colour import Colour
from ..rules import PieceType, Position, get_variant
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import HexGeometry
from ..rules.pieces import piece_colour, piece_kind
from .boardview import BoardView, HexView, Measure, piece_box, square_views
from .display import Renderer
from .pieces import sprite
from .simpaint import (
    BACKGROUND,
    FRAME,
    LABEL,
    MARGIN,
    WOODS,
    led_glow,
    paint_hand,
    paint_help,
)
from .state import DisplayState
from .text import Fonts
from .tray import PAD, Tray

SQUARE = 52  # the wooden board's cells when the window opens, px high
MIN_SQUARE = 24  # the smallest a wooden cell gets, px; never below the Pi screen's own
FPS = 50
HAND = 2  # pieces a hand holds at once: enough to castle or to capture
HINT_ROW = 32  # px under the Pi screen for "? help", above the tray
TRAY = -1  # a press or a drop on the tray (squares are 0 and up)
BUTTON_OF_KEY = {
    "h": "hint",
    "+": "next",
    "=": "next",
    "-": "prev",
    "q": "q",
    "f": "f",
    "r": "r",
    "b": "b",
    "n": "n",
    # Questions, said aloud when speech is on (boardctl.voice).
    "l": "last",
    "c": "clocks",
    "t": "turn",
    "p": "pieces",
    "s": "squares",
    "d": "moves",
    "a": "repeat",
    "m": "mute",
}

# Stepping through a stored game: forward and back (the board's next and prev).
BUTTON_OF_ARROW = {pygame.K_RIGHT: "next", pygame.K_LEFT: "prev"}


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


def _on_screen(*, centre: bool) -> None:
    """Move the window onto the desktop: centred when it opens, else only as
    far as it must.  SDL keeps a window's corner where it was when it grows,
    and the window grew from the 1 px one that ``boardctl sim`` opens first
    to find a display: its corner stood at the screen's centre."""
    with warnings.catch_warnings():
        # The Window API is the one way to place the display module's window.
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    desktops = pygame.display.get_desktop_sizes()
    if not desktops:
        return
    (room_w, room_h), (width, height) = desktops[0], window.size
    x, y = ((room_w - width) // 2, (room_h - height) // 2) if centre else window.position
    window.position = (
        min(max(0, x), max(0, room_w - width)),
        min(max(0, y), max(0, room_h - height)),
    )


class SimWindow:
    """See the module docstring.  ``press`` takes a button name ("hint",
    "next", "prev", "ok", or a promotion letter)."""

    def __init__(
        self,
        hand: Hand,
        press: Callable[[str], None],
        screen_size: tuple[int, int],
        state: DisplayState | None = None,
        desktop: tuple[int, int] | None = None,
    ) -> None:
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
        # The pieces in hand, the one going down next last.
        self.held: list[int] = []
        self.tray = Tray()
        self.pressed_on: int | None = None  # a square, or TRAY: where a drag began
        self.mouse: tuple[int, int] = pygame.mouse.get_pos()
        self.help = False
        self.square = SQUARE
        self.views = self._views(SQUARE)
        # ``desktop`` (default: SDL's first) sets the size the window opens at.
        desktop = desktop or next(iter(pygame.display.get_desktop_sizes()), None)
        if desktop:  # a small desktop opens the window smaller, with room for a taskbar
            room = (desktop[0] * 9 // 10, desktop[1] * 9 // 10)
            self.square = self._largest_square(room, SQUARE)
            self.views = self._views(self.square)
        self.window = pygame.display.set_mode(self._size_for(self.square), pygame.RESIZABLE)
        _on_screen(centre=True)
        self._place_tray()
        pygame.display.set_caption(f"boardctl simulator — {variant.title}  (press ? for help)")

    # ----------------------------------------------------------- geometry
    @property
    def label_font(self) -> pygame.font.Font:
        return self.fonts.get(MARGIN * 3 // 4)

    def _views(self, cell: int) -> tuple[BoardView, BoardView]:
        """The wooden board with ``cell`` px cells, White and Black at the
        bottom; its frame (the views' bounds) starts at the window's corner."""
        return _views(self.geometry, cell, self.label_font.size)

    @property
    def view(self) -> BoardView:
        return self.views[self.state.orientation]

    @property
    def frame(self) -> pygame.Rect:
        return self.views[0].bounds.union(self.views[1].bounds)

    def _size_for(self, cell: int) -> tuple[int, int]:
        """The window's size for ``cell`` px cells: the board, and beside it
        the Pi screen over a tray at least a row of pieces high."""
        views = self.views if cell == self.square else self._views(cell)
        frame = views[0].bounds.union(views[1].bounds)
        return (
            frame.right + MARGIN + self.screen_size[0] + MARGIN,
            max(frame.bottom, self._tray_top + cell + 2 * PAD + MARGIN),
        )

    @property
    def _tray_top(self) -> int:
        return MARGIN + self.screen_size[1] + HINT_ROW

    def _place_tray(self) -> None:
        """The tray fills the window under the Pi screen, however tall it is."""
        left = self.frame.right + MARGIN
        self.tray.rect = pygame.Rect(
            left,
            self._tray_top,
            self.screen_size[0],
            self.window.get_height() - MARGIN - self._tray_top,
        )
        self.tray.largest = self.view.cell

    def _largest_square(self, size: tuple[int, int], largest: int) -> int:
        """The largest cell, up to ``largest``, whose window fits ``size``; the
        wooden cells never shrink below the Pi screen's picture of them."""
        smallest = max(MIN_SQUARE, self.renderer.board_layout(self.geometry).square)
        low, high = smallest, max(smallest, largest)
        while low < high:
            mid = (low + high + 1) // 2
            need = self._size_for(mid)
            if need[0] <= size[0] and need[1] <= size[1]:
                low = mid
            else:
                high = mid - 1
        return low

    def resize(self, size: tuple[int, int]) -> None:
        """Fit the wooden board to a new window size (the Pi screen keeps its own)."""
        low = self._largest_square(size, size[1])
        self.square = low
        self.views = self._views(low)
        need = self._size_for(low)
        self.window = pygame.display.set_mode(
            (max(size[0], need[0]), max(size[1], need[1])), pygame.RESIZABLE
        )
        _on_screen(centre=False)
        self._place_tray()

    def square_at(self, x: int, y: int) -> int | None:
        return self.view.cell_at((x, y))

    def square_rect(self, sq: int) -> pygame.Rect:
        return self.view.rect(sq)

    def spot_at(self, point: tuple[int, int]) -> int | None:
        """The square or cell under ``point``, :data:`TRAY`, or None (off both)."""
        if self.tray.rect.collidepoint(point):
            return TRAY
        return self.square_at(*point)

    # -------------------------------------------------------------- hands
    def lift(self, sq: int) -> None:
        """Pick up the piece on ``sq``, if a hand has room for it."""
        if len(self.held) < HAND and sq in self.pieces:
            self.held.append(self.pieces.pop(sq))
            self.hand.lift(sq)

    def place(self, sq: int) -> None:
        """Put the piece going down next on ``sq``: on an empty one only,
        since a hand cannot put a piece where one stands."""
        if self.held and sq not in self.pieces:
            self.pieces[sq] = self.held.pop()
            self.hand.place(sq)

    def take_off(self, sq: int) -> None:
        """Take the piece on ``sq`` off the board into the tray (a right-click:
        the other hand does it, whatever this one holds)."""
        if sq in self.pieces:
            self.tray.add(self.pieces.pop(sq))
            self.hand.lift(sq)

    def to_tray(self) -> None:
        if self.held:
            self.tray.add(self.held.pop())

    def from_tray(self, index: int) -> None:
        if len(self.held) < HAND:
            self.held.append(self.tray.take(index))

    def swap(self) -> None:
        """The other piece in hand goes down next."""
        self.held.reverse()

    def show_state(self, state: DisplayState) -> None:
        """A new screen state.  After a move or a set-up, the pieces are named as
        the game names them (a promoted pawn becomes its new piece) wherever the
        board agrees with the game."""
        variant = get_variant(state.variant)
        if variant.geometry != self.geometry:
            # Another board: the wooden board is built again around it.
            self.geometry = variant.geometry
            self.views = self._views(self.square)
            self.window = pygame.display.set_mode(self._size_for(self.square), pygame.RESIZABLE)
            self._place_tray()
        changed = state.moves != self.state.moves or state.fen != self.state.fen
        # A set-up's position is not yet on the board: once it is complete, every
        # piece stands where the guidance asked for it, and is named so.
        if not state.setting_up and (changed or self.state.setting_up):
            pos = Position(state.fen, variant)
            for sq in list(self.pieces):
                if pos.squares[sq]:
                    self.pieces[sq] = pos.squares[sq]
        self.state = state

    # --------------------------------------------------------------- loop
    def tick(self, now: float) -> bool:
        """Handle the window's events; False once the window is closed.  (The
        hand keeps no time: ``now`` is for the loop that calls every part.)"""
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            ):
                return False
            self.handle(event)
        return True

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            # Kept from the events, not asked of the mouse when drawing, so
            # that a window driven by posted events draws its hand there too.
            self.mouse = event.pos
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._press(event.pos)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
                sq = self.square_at(*event.pos)
                if sq is not None:
                    self.take_off(sq)
            elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
                spot = self.spot_at(event.pos)
                # A drag: let go somewhere else than where the piece was picked up.
                if self.pressed_on is not None and spot is not None and spot != self.pressed_on:
                    self._drop(spot)
                self.pressed_on = None
        elif event.type == pygame.MOUSEWHEEL:
            self.swap()
        elif event.type == pygame.KEYDOWN:
            if event.unicode == "?" or event.key == pygame.K_F1:
                self.help = not self.help
            elif event.key == pygame.K_TAB:
                self.swap()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.press("ok")
            elif event.key in BUTTON_OF_ARROW:
                self.press(BUTTON_OF_ARROW[event.key])
            elif event.unicode in BUTTON_OF_KEY:
                self.press(BUTTON_OF_KEY[event.unicode])

    def _press(self, point: tuple[int, int]) -> None:
        """A click: pick up what is under the pointer, or put down (or in
        the tray) the piece in hand."""
        spot = self.spot_at(point)
        self.pressed_on = None
        if spot == TRAY:
            index = self.tray.index_at(point)
            if self.held:
                self.to_tray()
            elif index is not None:
                self.from_tray(index)
                self.pressed_on = TRAY
        elif spot in self.pieces:
            if len(self.held) < HAND:
                self.lift(spot)
                self.pressed_on = spot
        elif spot is not None:
            self.place(spot)

    def _drop(self, spot: int) -> None:
        """The end of a drag: on an occupied square nothing happens and the
        piece stays in hand (the hand cannot put it there)."""
        if spot == TRAY:
            self.to_tray()
        else:
            self.place(spot)

    # ---------------------------------------------------------------- draw
    def draw(self) -> None:
        surface = self.window
        surface.fill(BACKGROUND)
        view, side = self.view, self.square
        frame = self.frame
        pygame.draw.rect(surface, FRAME, frame, border_radius=8)
        for sq in range(view.cells):
            view.fill(surface, sq, WOODS[view.shade(sq)])
        for sq in range(view.cells):  # over all the cells: hexagons share edges
            colour = self.colours.get(sq)
            if colour and max(colour):
                glow = led_glow(colour, view.cell)
                surface.blit(glow, glow.get_rect(center=view.centre(sq)))
            piece = self.pieces.get(sq)
            if piece:
                box = piece_box(view, sq, 3)
                kind = PieceType(piece_kind(piece))
                surface.blit(sprite(kind, piece_colour(piece), box.width), box)
        label = self.label_font
        for words, centre in view.labels():
            text = label.render(words, True, LABEL)
            surface.blit(text, text.get_rect(center=centre))
        self.renderer.render(self.state, self.screen)
        surface.blit(self.screen, (frame.right + MARGIN, MARGIN))
        hint = label.render("? help", True, (150, 150, 160))
        surface.blit(hint, (frame.right + MARGIN, MARGIN + self.screen_size[1] + 6))
        self._place_tray()
        self.tray.draw(
            surface, self.fonts, lit=bool(self.held) and self.tray.rect.collidepoint(self.mouse)
        )
        paint_hand(surface, self.held, self.mouse, side)
        if self.help:
            paint_help(surface, self.fonts)


# One drawing per shape, chosen by the geometry's type.
@singledispatch
def _views(geo: BoardGeometry, cell: int, measure: Measure) -> tuple[BoardView, BoardView]:
    raise TypeError(f"no board view for {geo!r}")


@_views.register
def _(geo: HexGeometry, cell: int, measure: Measure) -> tuple[BoardView, BoardView]:
    return HexView.pair(geo, cell, measure=measure, margin=MARGIN // 2)


@_views.register
def _(geo: Geometry, cell: int, measure: Measure) -> tuple[BoardView, BoardView]:
    return square_views(
        geo, pygame.Rect(MARGIN, MARGIN, geo.files * cell, geo.ranks * cell), MARGIN
    )
