# WS2812 LEDs: from LED frames (a palette index per LED) to the words the
# PIO state machine in hal.py shifts out.
#
# LEDs are numbered in the protocol's logical order: row by row from the a1
# corner, `width` LEDs per row (the files for one LED per square, files + 1
# for a grid of corner LEDs).  How the chain really runs is described as in
# hardware/pinout.toml [leds]: lines along ranks or along files, starting at
# the corner `first` (a1, j1, a8 or j8), straight or serpentine.  On the hex
# board LED i is cell i, and each one's chain position is listed (`positions`,
# hexboard.LED_CHAIN).  Colours are capped at `max_level` per channel: 80 LEDs
# at full white draw about 5 A.

import array
import sys

import wire
from protocol_constants import DEFAULT_PALETTE, PALETTE_SIZE

if sys.implementation.name == "micropython":
    import micropython

    @micropython.viper
    def _fill(words, positions, colours, frame, count: int):
        # words[positions[i]] = colours[frame[i]] << 8: a Python loop over 80
        # LEDs cost the Pico a millisecond before the first bit went out.  The
        # PIO shifts a word out from its top bit, so the 24 bits go on top: as
        # a Python int that would be a heap object, here it is a machine word.
        w = ptr32(words)  # noqa: F821
        at = ptr16(positions)  # noqa: F821
        c = ptr32(colours)  # noqa: F821
        f = ptr8(frame)  # noqa: F821
        i = 0
        while i < count:
            w[at[i]] = c[f[i]] << 8
            i += 1
else:  # CPython: the same, in Python

    def _fill(words, positions, colours, frame, count):
        for i in range(count):
            words[positions[i]] = colours[frame[i]] << 8


# DEFAULT_PALETTE as the strip takes colours: 0xRRGGBB.
DEFAULT_COLOURS = tuple((r << 16) | (g << 8) | b for r, g, b in DEFAULT_PALETTE)


def chain_positions(count, width, serpentine=False, along="ranks", first="a1"):
    """The chain position of each logical LED."""
    height = count // width
    if (
        height * width != count
        or first not in ("a1", "j1", "a8", "j8")
        or along not in ("ranks", "files")
    ):
        raise ValueError("LED layout")
    positions = []
    for i in range(count):
        y, x = divmod(i, width)  # x along a rank, y along a file
        if first[0] == "j":
            x = width - 1 - x
        if first[1] == "8":
            y = height - 1 - y
        if along == "ranks":
            line, step, length = y, x, width
        else:
            line, step, length = x, y, height
        if serpentine and line % 2:
            step = length - 1 - step
        positions.append(line * length + step)
    return positions


def pack(rgb, max_level, order="GRB"):
    """One LED's 24-bit word from a colour 0xRRGGBB, each channel scaled to
    at most max_level."""
    r = (rgb >> 16) * max_level // 255
    g = ((rgb >> 8) & 0xFF) * max_level // 255
    b = (rgb & 0xFF) * max_level // 255
    if order == "RGB":
        return (r << 16) | (g << 8) | b
    return (g << 16) | (r << 8) | b


class LedStrip:
    """output.write(words) sends one word per LED, in chain order, its 24
    bits of colour on top (as the PIO shifts them out);
    output.ready() is False while the last frame is still on its way (the
    words are not touched until it is over)."""

    def __init__(
        self,
        output,
        count,
        width,
        serpentine=False,
        max_level=255,
        along="ranks",
        first="a1",
        order="GRB",
        positions=None,
    ):
        self._out = output
        self.count = count
        self._max = max_level
        self._order = order
        if positions is None:
            positions = chain_positions(count, width, serpentine, along, first)
        elif sorted(positions) != list(range(count)):
            raise ValueError("LED chain positions")
        self._positions = array.array("H", positions)
        self._dark = array.array("I", [0] * (PALETTE_SIZE + 1))
        self._words = array.array("I", [0] * count)
        self._colours = array.array("I", [0] * (PALETTE_SIZE + 1))
        self.frame = bytearray(count)
        self.writes = 0
        self._shown_dark = None
        self.reset()

    def reset(self):
        """Dark, with the default palette (the state at boot and after a host HELLO)."""
        self.set_palette(DEFAULT_COLOURS)
        self.set_frame(bytes(self.count))

    def set_palette(self, colours):
        """Colours 0xRRGGBB for indices 1, 2, ...; the indices not given
        are off.  A palette that lights the LEDs as the last one did (the
        host repeats it) changes nothing: they are not written again."""
        table = self._colours
        changed = False
        for index in range(1, PALETTE_SIZE + 1):
            word = pack(colours[index - 1], self._max, self._order) if index <= len(colours) else 0
            if table[index] != word:
                table[index] = word
                changed = True
        if changed:
            self._shown_dark = None

    def set_frame(self, frame):
        if len(frame) != self.count:
            raise ValueError("LED frame length")
        if frame == self.frame:
            return  # the host's repeat: nothing to write
        wire.copy(frame, 0, self.count, self.frame, 0)
        self._shown_dark = None

    def show(self, dark):
        """Write the frame (all off if dark) if anything changed and the last
        frame is out; True if written (else the next show tries again)."""
        if dark == self._shown_dark or not self._out.ready():
            return False
        _fill(
            self._words,
            self._positions,
            self._dark if dark else self._colours,
            self.frame,
            self.count,
        )
        self._out.write(self._words)
        self._shown_dark = dark
        self.writes += 1
        return True
