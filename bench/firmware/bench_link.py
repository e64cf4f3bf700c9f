# What the link's work costs the firmware, in microseconds per call: taking
# one LED frame (whole, LED, or four LEDs lit, LEDS) or palette line from the
# host (cut, checked, decoded and answered), new or a repeat of the last, and
# writing a frame to the LEDs.  The LED output is a stand-in, so a write is
# the firmware's own cost, not the PIO's.  A bench
# beside the firmware, never flashed with it; from the repository's root:
#
#     MICROPYPATH=firmware .venv/bin/micropython bench/firmware/bench_link.py
#     PYTHONPATH=firmware python3 bench/firmware/bench_link.py
#     mpremote run bench/firmware/bench_link.py  (on the Pico, benchtime.py copied to it)
#
# bench/pico.py runs it on the emulated Pico.

import sys

import benchtime
import link
import protocol
import ws2812
from benchtime import per_call_us
from protocol_constants import PALETTE_SIZE

benchtime.ROUNDS = 50  # a line costs milliseconds on the Pico


class Output:
    def write(self, words):
        pass

    def ready(self):
        return True


def values(shape):
    """Two different LED frames, two with four LEDs lit (a lifted piece's
    square and moves) and two palettes."""
    frames = [bytes((i + k) % 16 for i in range(shape.leds)) for k in (0, 1)]
    few = [bytearray(shape.leds) for k in (0, 1)]
    for k in (0, 1):
        for led in (14, 24, 34, 44):
            few[k][led + k] = 2
    palettes = [
        [((37 * i + k) & 0xFF, (91 * i) & 0xFF, (53 * i) & 0xFF) for i in range(PALETTE_SIZE)]
        for k in (0, 1)
    ]
    return frames, few, palettes


def feeder(device, shape, command, choices):
    """A call that feeds the link the next line, numbered in turn, its value
    taken from choices in turn (one choice: the host's repeat)."""
    lines = [
        protocol.encode((i + 1) & 0xFF, command, choices[i % len(choices)], shape)
        for i in range(benchtime.ROUNDS)
    ]
    position = [0]

    def take():
        device.feed(lines[position[0]], 0)
        position[0] += 1
        device.outbox.clear()  # the ACKs: the bench writes nothing

    return take


def shower(strip):
    def show():
        strip._shown_dark = None
        strip.show(False)

    return show


def main():
    boards = (
        ("8 x 10", protocol.Shape(10, 8, 80), 10),
        ("hex 121", protocol.Shape(leds=121, board="hex121"), 121),
    )
    print("us per call, " + sys.implementation.name + ":")
    for name, shape, width in boards:
        frames, few, palettes = values(shape)
        figures = []
        for command, choices in (("LED", frames), ("LEDS", few), ("PAL", palettes)):
            for kept in (choices, choices[:1]):  # a new line each time, then repeats
                device = link.DeviceLink(shape, [], 0)
                figures.append(per_call_us(feeder(device, shape, command, kept)))
        figures.append(per_call_us(shower(ws2812.LedStrip(Output(), shape.leds, width))))
        print(
            "  %-8s LED line %.0f (repeated %.0f), LEDS line of 4 %.0f (repeated %.0f), "
            "PAL line %.0f (repeated %.0f), write frame %.0f" % tuple([name] + figures)
        )


main()
