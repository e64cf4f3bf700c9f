"""The desktop simulator: the wooden board with its LEDs, and the Pi's screen.

Pieces are lifted and placed with the mouse (click to lift, click to place;
dragging works too).  Every lift and place goes to a
:class:`~boardctl.hw.sim.SimBoard`, so the daemon sees exactly the sensor
readings the real board would give, and everything else (reconciler, engine,
store, LEDs, display) is the daemon's own.  Putting a piece on an occupied
square first takes the piece that stood there off the board, as a hand would.
Keys: q f r b n choose a promotion piece, h asks for a hint, + and - raise and
lower the engine's level (the board's next and prev buttons), Esc quits.
"""

from __future__ import annotations

import time

import pygame

from ..daemon import Daemon
from ..hw.sim import SimBoard
from ..rules import PieceType
from ..rules.pieces import SYMBOLS
from .display import Renderer
from .pieces import sprite

SQUARE = 52
MARGIN = 24
LIGHT_WOOD = (222, 190, 140)
DARK_WOOD = (150, 100, 60)
FRAME = (90, 55, 30)
FPS = 50
CAPTURE_GAP = 0.1   # seconds between taking a piece off and landing on its square


class SimWindow:
    """The simulator's window around a running daemon (see module docstring)."""

    def __init__(self, daemon: Daemon, board: SimBoard, screen_size: tuple[int, int]) -> None:
        self.daemon = daemon
        self.board = board
        geo = daemon.game.position.geometry
        self.files, self.ranks = geo.files, geo.ranks
        self.board_w = self.files * SQUARE + 2 * MARGIN
        self.board_h = self.ranks * SQUARE + 2 * MARGIN
        self.screen_size = screen_size
        width = self.board_w + MARGIN + screen_size[0] + MARGIN
        height = max(self.board_h, screen_size[1] + 2 * MARGIN)
        self.window = pygame.display.set_mode((width, height))
        pygame.display.set_caption("boardctl simulator — Falcon Chess")
        self.renderer = Renderer(screen_size)
        self.screen = pygame.Surface(screen_size)
        # What physically stands where (the sensors only see occupancy).
        pos = daemon.game.position
        self.pieces: dict[int, int] = {sq: p for sq, p in enumerate(pos.squares) if p}
        self.held: tuple[int, int] | None = None     # (piece code, square it came from)
        self.pressed_at: int | None = None
        self.flip = daemon.engine_side == 0          # black at the bottom if the engine is White
        self.moves_seen = -1
        self.landing: tuple[int, float] | None = None  # a capture's piece about to land
        self.clock = 0.0

    # ----------------------------------------------------------- geometry
    def square_at(self, x: int, y: int) -> int | None:
        column = (x - MARGIN) // SQUARE
        row = (y - MARGIN) // SQUARE
        if not (0 <= column < self.files and 0 <= row < self.ranks):
            return None
        file = self.files - 1 - column if self.flip else column
        rank = row if self.flip else self.ranks - 1 - row
        return rank * self.files + file

    def square_rect(self, sq: int) -> pygame.Rect:
        file, rank = sq % self.files, sq // self.files
        column = self.files - 1 - file if self.flip else file
        row = rank if self.flip else self.ranks - 1 - rank
        return pygame.Rect(MARGIN + column * SQUARE, MARGIN + row * SQUARE, SQUARE, SQUARE)

    # -------------------------------------------------------------- hands
    def lift(self, sq: int) -> None:
        if self.held is None and sq in self.pieces:
            self.held = (self.pieces.pop(sq), sq)
            self.board.lift(sq)

    def place(self, sq: int) -> None:
        if self.held is None or self.landing is not None:
            return
        if sq in self.pieces:
            # A capture: the piece standing there comes off first, and the
            # capturing piece lands a moment later, as with a real hand.
            del self.pieces[sq]
            self.board.lift(sq)
            self.landing = (sq, self.clock + CAPTURE_GAP)
            return
        self._land(sq)

    def _land(self, sq: int) -> None:
        assert self.held is not None
        self.pieces[sq] = self.held[0]
        self.held = None
        self.landing = None
        self.board.place(sq)

    def sync_identities(self) -> None:
        """After a committed move, name the pieces as the game does (a promoted
        pawn becomes its new piece), wherever the board agrees with the game."""
        pos = self.daemon.game.position
        for sq in list(self.pieces):
            if pos.squares[sq]:
                self.pieces[sq] = pos.squares[sq]

    # --------------------------------------------------------------- loop
    def now(self) -> float:
        return time.monotonic() - self.started

    def run(self) -> None:
        self.started = time.monotonic()
        clock = pygame.time.Clock()
        while True:
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (
                    event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                ):
                    return
                self.handle(event)
            self.tick(self.now())
            self.draw()
            pygame.display.flip()
            clock.tick(FPS)

    def tick(self, now: float) -> None:
        """One turn: land a capturing piece when due, run the daemon."""
        self.clock = now
        if self.landing is not None and now >= self.landing[1]:
            self._land(self.landing[0])
        self.daemon.step(now)
        if len(self.daemon.game.moves) != self.moves_seen:
            self.moves_seen = len(self.daemon.game.moves)
            self.sync_identities()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
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
        elif event.type == pygame.KEYDOWN and event.unicode in ("q", "f", "r", "b", "n"):
            self.daemon.choose(PieceType(SYMBOLS.index(event.unicode)), self.now())
        elif event.type == pygame.KEYDOWN and event.unicode == "h":
            self.daemon.request_hint()
        elif event.type == pygame.KEYDOWN and event.unicode in ("+", "=", "-"):
            self.daemon.change_level(-1 if event.unicode == "-" else 1, self.now())

    # ---------------------------------------------------------------- draw
    def draw(self) -> None:
        surface = self.window
        surface.fill((40, 40, 44))
        pygame.draw.rect(surface, FRAME, (0, 0, self.board_w, self.board_h), border_radius=8)
        leds = self.daemon.led_colours(self.now())
        for sq in range(self.files * self.ranks):
            rect = self.square_rect(sq)
            light = (sq % self.files + sq // self.files) % 2 == 0
            pygame.draw.rect(surface, LIGHT_WOOD if light else DARK_WOOD, rect)
            colour = leds.get(sq)
            if colour:
                glow = pygame.Surface(rect.size, pygame.SRCALPHA)
                pygame.draw.circle(glow, (*colour, 150), (SQUARE // 2, SQUARE // 2),
                                   SQUARE // 2 - 2)
                surface.blit(glow, rect)
            piece = self.pieces.get(sq)
            if piece:
                surface.blit(sprite(PieceType(piece & 7), piece >> 3, SQUARE - 6),
                             rect.move(3, 3))
        if self.held is not None:
            x, y = pygame.mouse.get_pos()
            piece = self.held[0]
            surface.blit(sprite(PieceType(piece & 7), piece >> 3, SQUARE - 6),
                         (x - SQUARE // 2, y - SQUARE // 2))
        self.renderer.render(self.daemon.status(), self.screen)
        surface.blit(self.screen, (self.board_w + MARGIN, MARGIN))
