# What the link's work costs the firmware, in microseconds per call: taking
# one LED frame or palette line from the host (cut, checked, decoded and
# answered), and writing a frame to the LEDs.  The LED output is a
# stand-in, so a write is the firmware's own cost, not the PIO's.  A
# development tool, not copied to the Pico:
#
#     micropython bench_link.py          (the unix port)
#     mpremote run bench_link.py         (on the Pico, with benchtime.py copied)
#     python3 bench_link.py              (CPython)
#
# bench/pico.py runs it on the emulated Pico.

import sys

import benchtime
import link
import protocol
import ws2812
from benchtime import per_call_us

benchtime.ROUNDS = 50         # a line costs milliseconds on the Pico


class Output:
    def write(self, words):
        pass


def lines(shape):
    frame = bytes(i % 16 for i in range(shape.leds))
    palette = [((37 * i) & 0xFF, (91 * i) & 0xFF, (53 * i) & 0xFF)
               for i in range(protocol.PALETTE_SIZE)]
    led = protocol.encode(1, "LED", frame, shape)
    pal = protocol.encode(2, "PAL", palette, shape)
    return led, pal, frame, palette


def main():
    boards = (("8 x 10", protocol.Shape(10, 8, 80), 10),
              ("hex 121", protocol.Shape(leds=121, board="hex121"), 121))
    print("us per call, %s:" % sys.implementation.name)
    for name, shape, width in boards:
        led, pal, frame, palette = lines(shape)
        device = link.DeviceLink(shape, [], 0)
        strip = ws2812.LedStrip(Output(), shape.leds, width)

        def take(line):
            device.feed(line, 0)
            device.outbox.clear()     # the ACKs: the bench writes nothing

        def show():
            strip._shown_dark = None
            strip.show(False)

        print("  %-8s LED line %.0f, PAL line %.0f, decode LED %.0f, PAL %.0f, "
              "write frame %.0f"
              % (name, per_call_us(take, led), per_call_us(take, pal),
                 per_call_us(protocol.decode, led.rstrip(b"\r\n"), shape),
                 per_call_us(protocol.decode, pal.rstrip(b"\r\n"), shape),
                 per_call_us(show)))


main()
