"""The LEDs' colour language: one meaning per colour, the same everywhere.

Six hues, chosen to stay apart for players with the common colour-vision
deficiencies (tests/board/test_lights.py simulates deuteranomaly,
protanomaly and tritanomaly at full severity and keeps every pair of hues at
least :data:`MIN_HUE_DISTANCE` apart in CAM02-UCS).  Within one hue,
brightness and blinking say more about the same meaning: a square to act on
blinks, a square on the way (a falcon's path, the squares a move passes)
glows dim.  The screen's banner uses the same hues for the engine's move and
for a fix.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..colour import Colour
from .scene import LedScene, Role

# CAM02-UCS distance between any two hues, for every simulated deficiency.
# About 20 is a clearly different colour at a glance; the best six of eleven
# candidate LED colours (white, red, orange, yellow, green, lime, cyan, blue,
# purple, magenta, pink) reach 20.8 (measured with colorspacious 1.1.2).
MIN_HUE_DISTANCE = 20.0
DIM = 0.2  # a square on the way
# A falcon's destination reached by one open path is lit this much: far enough
# above DIM that no destination is taken for a path (at 0.45 one was, in the
# simulator and on a strip, whose LEDs are not linear), and below the levels
# for two and three paths.
ONE_PATH = 0.55
FULL = 1.0
BLINK_HZ = 2.0  # on and off twice a second: urgent without being frantic


@dataclass(frozen=True)
class Hue:
    name: str
    rgb: Colour
    meaning: str


WHITE = Hue(
    "white",
    (255, 255, 255),
    "your hand: the square of the piece you lifted; blinking, the squares to lift a piece from",
)
BLUE = Hue(
    "blue",
    (0, 60, 255),
    "where the lifted piece can go; dim, a falcon's open paths "
    "(a falcon's destination is brighter the more paths reach it)",
)
YELLOW = Hue(
    "yellow",
    (255, 210, 0),
    "the engine's move, or a stored game's move stepped through (forward or back): "
    "from here, blinking to there",
)
CYAN = Hue(
    "cyan",
    (0, 220, 255),
    "advice, a hint or a move the teaching board offers back: from here, blinking to there",
)
RED = Hue("red", (255, 0, 0), "a fix: the blinking piece goes to the steady square")
PINK = Hue("pink", (255, 120, 160), "the king in check")
HUES = (WHITE, BLUE, YELLOW, CYAN, RED, PINK)


@dataclass(frozen=True)
class Light:
    hue: Hue
    level: float = FULL
    blink: bool = False

    @property
    def rgb(self) -> Colour:
        r, g, b = self.hue.rgb
        return round(r * self.level), round(g * self.level), round(b * self.level)


LIGHTS: dict[Role, Light] = {
    Role.LIFTED: Light(WHITE),
    Role.CANDIDATE: Light(WHITE, blink=True),
    Role.LEGAL: Light(BLUE),
    Role.LEGAL_ONE_PATH: Light(BLUE, ONE_PATH),
    Role.LEGAL_TWO_PATHS: Light(BLUE, 0.8),
    Role.LEGAL_THREE_PATHS: Light(BLUE),
    Role.FALCON_PATH: Light(BLUE, DIM),
    Role.ENGINE_FROM: Light(YELLOW),
    Role.ENGINE_PATH: Light(YELLOW, DIM),
    Role.ENGINE_TO: Light(YELLOW, blink=True),
    Role.HINT_FROM: Light(CYAN),
    Role.HINT_TO: Light(CYAN, blink=True),
    Role.CHECK: Light(PINK),
    Role.FIX_FROM: Light(RED, blink=True),
    Role.FIX_TO: Light(RED),
}


def frame(scene: LedScene, now: float) -> dict[int, Colour]:
    """The colour of each lit square at ``now`` (blinking squares are dark
    half of the time)."""
    off = int(now * BLINK_HZ * 2) % 2 == 1
    out = {}
    for sq, role in scene.squares.items():
        light = LIGHTS[role]
        if off and (light.blink or sq in scene.blink):
            continue
        out[sq] = light.rgb
    return out


def legend() -> list[tuple[Hue, str]]:
    """(hue, what it means) for the README, the simulator and ``boardctl diag``."""
    return [(hue, hue.meaning) for hue in HUES]
