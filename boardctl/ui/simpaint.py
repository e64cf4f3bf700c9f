"""What the simulator's window paints besides the board itself: an LED's
glow through the wood, the pieces in the hand, and the help over it all."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..board.lights import DIM, ONE_PATH, legend
from ..colour import Colour
from ..rules import PieceType
from ..rules.pieces import piece_colour, piece_kind
from .display import CHOICE_CHOSEN_BG
from .keys import GROUPS
from .pieces import sprite
from .text import Fonts, wrap

MARGIN = 24
LIGHT_WOOD = (222, 190, 140)
MEDIUM_WOOD = (186, 145, 100)
DARK_WOOD = (150, 100, 60)
WOODS = (LIGHT_WOOD, MEDIUM_WOOD, DARK_WOOD)  # by a cell's shade
FRAME = (90, 55, 30)
LABEL = (240, 220, 190)
BACKGROUND = (40, 40, 44)
HELP_TEXT, HELP_TEXT_MIN = 20, 12  # the help's line height, px: largest, smallest
HELP_HEADING_MORE = 4  # px a heading's line is taller than the text's
HELP_GUTTER = 2 * MARGIN  # between the help's two columns
HELP_KEY_SHARE = 0.26  # the keys' column, at most, of a help column
HELP_VEIL = 235  # the veil's alpha: the board's pieces under it are not read as text
# Keys in the screen's chosen-option yellow, apart from what they do.
HELP_HEADING: Colour = (255, 255, 255)
HELP_KEY: Colour = CHOICE_CHOSEN_BG
HELP_INK: Colour = (225, 225, 225)
HAND_DISC = (128, 128, 136)  # behind the second piece in hand: light and dark pieces show

# An LED at or below this share of full brightness is a square on the way
# (lights.DIM): drawn as a dot, as the spectator page draws a path, so that no
# path is taken for a destination, whose glow fills the cell.
ON_THE_WAY = (DIM + ONE_PATH) / 2


def led_glow(colour: Colour, cell: int) -> pygame.Surface:
    """An LED seen through wood: a dim LED is a fainter glow of the same hue,
    not a darker one; one on the way is a dot."""
    peak = max(colour)
    hue = tuple(round(c * 255 / peak) for c in colour)
    glow = pygame.Surface((cell, cell), pygame.SRCALPHA)
    centre = (cell // 2, cell // 2)
    if peak <= ON_THE_WAY * 255:
        pygame.draw.circle(glow, (*hue, 230), centre, max(3, cell // 7))
    else:
        pygame.draw.circle(glow, (*hue, round(70 + 140 * peak / 255)), centre, cell // 2 - 2)
    return glow


def paint_hand(surface: pygame.Surface, held: list[int], mouse: tuple[int, int], side: int) -> None:
    """The pieces in hand over everything, each over its shadow (it is
    off the board): the one going down next under the pointer, the
    other smaller, up and to its right on a disc, so that it is not
    taken for a piece on the board under it."""
    x, y = mouse
    for index, piece in enumerate(held):
        next_down = index == len(held) - 1
        size = side - 6 if next_down else (side - 6) * 3 // 4
        centre = (x, y) if next_down else (x + side * 2 // 3, y - side * 2 // 3)
        if not next_down:
            disc = pygame.Surface((size + 12, size + 12), pygame.SRCALPHA)
            middle = disc.get_rect().center
            pygame.draw.circle(disc, (*HAND_DISC, 235), middle, size // 2 + 6)
            pygame.draw.circle(disc, LABEL, middle, size // 2 + 6, 2)
            surface.blit(disc, disc.get_rect(center=centre))
        image = sprite(PieceType(piece_kind(piece)), piece_colour(piece), size)
        if next_down:
            shadow = image.copy()
            shadow.fill((0, 0, 0, 110), special_flags=pygame.BLEND_RGBA_MIN)
            lift = size // 8
            surface.blit(shadow, image.get_rect(center=(x + lift, y + lift)))
        surface.blit(image, image.get_rect(center=centre))


@dataclass(frozen=True)
class Placed:
    """One line of the help where it is drawn: a heading, a key, what a key
    does, or what a light means (``hue``: the light's disc beside it)."""

    text: str
    rect: pygame.Rect
    ink: Colour
    height: int  # the font's line height, px
    hue: Colour | None = None
    heading: bool = False


_Row = tuple[str | Colour, str]  # a key (or a light's hue) and what it means


def _blocks() -> list[tuple[str, list[_Row]]]:
    """The help's lists: the keys by group, then the lights."""
    blocks: list[tuple[str, list[_Row]]] = [
        (title, [(key, words) for key, _, words in keys]) for title, keys in GROUPS
    ]
    blocks.append(("What the lights mean", [(hue.rgb, meaning) for hue, meaning in legend()]))
    return blocks


def _column(
    blocks: list[tuple[str, list[_Row]]], left: int, top: int, width: int, fonts: Fonts, size: int
) -> tuple[list[Placed], int]:
    """The lists of one column from ``top``: each key in a column of its own
    (as wide as the widest, at most :data:`HELP_KEY_SHARE` of the column),
    its meaning beside it.  Returns the lines and where the column ends."""
    font, bold = fonts.get(size), fonts.get(size + HELP_HEADING_MORE)
    gap = size
    keys = [key for _, rows in blocks for key, _ in rows if isinstance(key, str)]
    key_w = min(max((font.size(k)[0] for k in keys), default=0), round(width * HELP_KEY_SHARE))
    key_w = max(key_w, size)  # a light's disc
    placed: list[Placed] = []
    y = top
    for title, rows in blocks:
        if y > top:
            y += size // 2
        rect = pygame.Rect(left, y, bold.size(title)[0], bold.get_height())
        placed.append(Placed(title, rect, HELP_HEADING, size + HELP_HEADING_MORE, heading=True))
        y += bold.get_height() + size // 4
        for key, words in rows:
            meaning = wrap(words, font, width - key_w - gap)
            if isinstance(key, str):
                said = wrap(key, font, key_w)
                for index, line in enumerate(said):
                    rect = pygame.Rect(left, y + index * size, font.size(line)[0], size)
                    placed.append(Placed(line, rect, HELP_KEY, size))
            else:
                said = [""]
                disc = pygame.Rect(left, y, size, size)
                placed.append(Placed("", disc, key, size, hue=key))
            for index, line in enumerate(meaning):
                rect = pygame.Rect(left + key_w + gap, y + index * size, font.size(line)[0], size)
                placed.append(Placed(line, rect, HELP_INK, size))
            y += max(len(said), len(meaning)) * size + size // 5  # rows apart
    return placed, y


def help_layout(size: tuple[int, int], fonts: Fonts) -> list[Placed]:
    """Every line of the help on a window of ``size``: the lists in two
    columns, split where the columns come out most even, in the largest text
    with which both fit."""
    width, height = size
    blocks = _blocks()
    column_w = (width - 2 * MARGIN - HELP_GUTTER) // 2
    best: list[Placed] = []
    for text in range(HELP_TEXT, HELP_TEXT_MIN - 1, -1):
        options = []
        # The keys' groups in their order down the columns, the lights last.
        for split in range(1, len(blocks)):
            left, left_end = _column(blocks[:split], MARGIN, MARGIN, column_w, fonts, text)
            right_x = MARGIN + column_w + HELP_GUTTER
            right, right_end = _column(blocks[split:], right_x, MARGIN, column_w, fonts, text)
            options.append((max(left_end, right_end), left + right))
        end, best = min(options, key=lambda option: option[0])
        if end <= height - MARGIN:
            break
    return best


def paint_help(surface: pygame.Surface, fonts: Fonts) -> None:
    """The keys, the mouse and the LED colours, over the whole window
    (:func:`help_layout`)."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, HELP_VEIL))
    surface.blit(veil, (0, 0))
    for line in help_layout(surface.get_size(), fonts):
        if line.hue is not None:
            pygame.draw.circle(surface, line.hue, line.rect.center, line.height * 2 // 5)
            continue
        image = fonts.get(line.height).render(line.text, True, line.ink)
        surface.blit(image, line.rect.topleft)
