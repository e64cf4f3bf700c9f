"""The simulator's tray: the table beside the wooden board, where pieces
taken off the board stand until the game is over or they are put back.

The sensors under the board only see occupancy, so the tray keeps the pieces
themselves (their codes, as :mod:`boardctl.rules.pieces` numbers them): White's
in rows from the top, Black's in rows under them, strongest first, in slots
as large as the board's cells and smaller when that many no longer fit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pygame

from ..rules.pieces import LISTING_ORDER, WHITE, PieceType, piece_colour, piece_kind
from .pieces import sprite
from .text import Fonts, wrap

PAD = 6  # px between the tray's edge and its pieces
MIN_SLOT = 12  # px: the smallest a piece in the tray is drawn
FELT = (52, 78, 62)
EDGE = (90, 55, 30)  # the wooden board's frame
EDGE_LIT = (200, 170, 120)  # a piece in hand is over the tray: it would land here
CAPTION = (170, 190, 175)
CAPTION_TEXT = 16  # px, the empty tray's words
EMPTY_TEXT = "Tray: right-click a piece, or drag it here, to take it off"


def off_the_board(start: Sequence[int], now: Sequence[int]) -> list[int]:
    """The pieces of ``start`` (a position's squares, 0 for empty) that
    ``now`` no longer has: the captured ones, and a pawn for each piece it
    became.  A resumed game's tray starts with them, as the table beside a
    wooden board would."""
    missing = Counter(p for p in start if p) - Counter(p for p in now if p)
    return sorted(missing.elements(), key=_rank)


def _rank(piece: int) -> tuple[int, int]:
    return piece_colour(piece), LISTING_ORDER.index(PieceType(piece_kind(piece)))


class Tray:
    """The pieces off the board, laid out in ``rect`` (set by the window as
    it is resized) in slots of at most ``largest`` px."""

    def __init__(self) -> None:
        self.pieces: list[int] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.largest = 48

    def add(self, piece: int) -> None:
        self.pieces.append(piece)
        self.pieces.sort(key=_rank)

    def take(self, index: int) -> int:
        return self.pieces.pop(index)

    def slots(self) -> list[pygame.Rect]:
        """Where each piece stands, in the order of :attr:`pieces`: White's
        and Black's on rows of their own, or one after the other in a row
        when that lets them be drawn larger (a low tray, a few pieces)."""
        inner = self.rect.inflate(-2 * PAD, -2 * PAD)
        white = sum(1 for p in self.pieces if piece_colour(p) == WHITE)
        black = len(self.pieces) - white
        gap = 1 if white and black else 0  # an empty slot between the colours
        apart = self._fit(inner, (white, black))
        together = self._fit(inner, (white + gap + black,))
        if together > apart:
            flow = [*range(white), *range(white + gap, white + gap + black)]
            return self._lay(inner, together, (flow,))
        return self._lay(inner, apart, (range(white), range(black)))

    def _fit(self, inner: pygame.Rect, runs: tuple[int, ...]) -> int:
        """The largest slot in which ``runs`` of pieces, each from a new row, fit."""
        for slot in range(max(MIN_SLOT, min(self.largest, inner.height)), MIN_SLOT, -1):
            columns = max(1, inner.width // slot)
            if sum(-(-n // columns) for n in runs) * slot <= inner.height:
                return slot
        return MIN_SLOT

    @staticmethod
    def _lay(inner: pygame.Rect, slot: int, runs: tuple[Sequence[int], ...]) -> list[pygame.Rect]:
        columns = max(1, inner.width // slot)
        out: list[pygame.Rect] = []
        top = 0
        for run in runs:
            for place in run:
                row, column = divmod(place, columns)
                out.append(
                    pygame.Rect(
                        inner.left + column * slot, inner.top + (top + row) * slot, slot, slot
                    )
                )
            if run:
                top += run[-1] // columns + 1
        return out

    def index_at(self, point: tuple[int, int]) -> int | None:
        """The piece under ``point``, if any."""
        for index, slot in enumerate(self.slots()):
            if slot.collidepoint(point):
                return index
        return None

    def draw(self, surface: pygame.Surface, fonts: Fonts, lit: bool) -> None:
        pygame.draw.rect(surface, FELT, self.rect, border_radius=8)
        pygame.draw.rect(surface, EDGE_LIT if lit else EDGE, self.rect, 3, border_radius=8)
        if not self.pieces:
            # The tray says what it is for only while it is empty: its pieces
            # say it once there are some.
            font = fonts.get(CAPTION_TEXT)
            lines = wrap(EMPTY_TEXT, font, self.rect.width - 4 * PAD)
            y = self.rect.centery - len(lines) * font.get_height() // 2
            for line in lines:
                words = font.render(line, True, CAPTION)
                surface.blit(words, words.get_rect(midtop=(self.rect.centerx, y)))
                y += font.get_height()
        for piece, slot in zip(self.pieces, self.slots(), strict=True):
            size = slot.width - 4
            surface.blit(
                sprite(PieceType(piece_kind(piece)), piece_colour(piece), size),
                slot.inflate(-4, -4),
            )
