"""A frame of square colours as each LED's colour: what every LED driver
(the Pi's SPI chain, the serial board's LED frame) computes the same way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..colour import Colour
from .base import OFF
from .errors import LedFrameError


def led_colours(
    colours: Mapping[int, Colour],
    squares: int,
    leds: int,
    leds_of: Callable[[int], Iterable[int]],
) -> list[Colour]:
    """The colour of each of ``leds`` LEDs, lit by ``colours`` (square to
    colour) through ``leds_of`` (a square's LEDs); an LED two lit squares
    share takes the brighter of each channel.

    :raises LedFrameError: for a square not in 0 to ``squares - 1``, or a
        colour that is not three 0–255.
    """
    out = [OFF] * leds
    for square, colour in colours.items():
        if not (isinstance(square, int) and 0 <= square < squares):
            raise LedFrameError(f"no square {square!r} on the board")
        if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
            raise LedFrameError(f"square {square}: colour {colour!r} is not three 0–255")
        for led in leds_of(square):
            old = out[led]
            out[led] = (max(old[0], colour[0]), max(old[1], colour[1]), max(old[2], colour[2]))
    return out


def dimmed(leds: Iterable[Colour], level: int) -> list[Colour]:
    """Each colour at brightness ``level`` (0–255), rounded to the nearest."""
    return [
        ((r * level + 127) // 255, (g * level + 127) // 255, (b * level + 127) // 255)
        for r, g, b in leds
    ]
