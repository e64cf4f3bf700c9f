"""The gallery's pictures that are not the status screen: the LEDs' colour
language, and the simulator window with a falcon lifted."""

from __future__ import annotations

from pathlib import Path

from ...engine import levels
from ...rules import BLACK, Game
from ..state import DisplayState
from .play import MIDGAME

SIZES = ((480, 320), (800, 480))  # the status screen's, each scene drawn at both
# The simulator drawn as it opens on a common desktop (the dummy video
# driver's is 1024 x 768, where it opens smaller).
GALLERY_DESKTOP = (1920, 1080)


def draw_legend(out: Path, width: int = 800) -> None:
    """The LEDs' colour language as a picture: a lit square of each hue, at
    full and dim brightness, with its meaning (see boardctl.board.lights)."""
    import pygame

    from ...board.lights import DIM, legend
    from ..display import BACKGROUND, TEXT
    from ..text import Fonts, wrap

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

    from ...board import Reconciler
    from ...board.explain import occupancy
    from ...board.lights import frame
    from ..sim import SimWindow

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
