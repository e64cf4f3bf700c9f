"""What the simulator's window paints besides the board itself: an LED's
glow through the wood, the pieces in the hand, and the help over it all."""

from __future__ import annotations

import pygame

from ..board.lights import DIM, ONE_PATH, legend
from ..colour import Colour
from ..rules import PieceType
from ..rules.pieces import piece_colour, piece_kind
from .keys import KEYS
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


def paint_help(surface: pygame.Surface, fonts: Fonts) -> None:
    """The keys, the mouse and the LED colours, over the whole window, in
    the largest text that fits it."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 215))
    surface.blit(veil, (0, 0))
    width = surface.get_width() - 4 * MARGIN
    for size in range(HELP_TEXT, HELP_TEXT_MIN - 1, -1):
        font, bold = fonts.get(size), fonts.get(size + 4)
        keys = [wrap(f"{key}: {words}", font, width) for key, _, words in KEYS]
        lights = [(hue, wrap(meaning, font, width - 30)) for hue, meaning in legend()]
        lines = sum(map(len, keys)) + sum(len(text) for _, text in lights)
        if (
            2 * MARGIN + 2 * (bold.get_height() + 6) + 10 + lines * font.get_height()
            <= surface.get_height()
        ):
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
