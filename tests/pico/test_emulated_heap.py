"""What the firmware's hardware layer allocates, on the emulated Pico (issue 22).

tests/firmware/check_logic.py proves under MicroPython that the firmware's logic allocates
nothing in a minute of play; hal.py, which only runs on the chip, is checked
here, call by call, on the real interpreter: every call a step makes with
the board still and the host silent must allocate nothing, or the collector
(5.8 ms on the chip) would stop the scan every few seconds.  Taking a bound
method off the USB port in every read did: 16 bytes a step, a collection
about every 20 s.
"""

from __future__ import annotations

import time

import pytest
import serial

from .rig import harness

REASON = harness.missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

# Each call ten times after a first one; the bytes allocated a call, as the chip counts them.
SCRIPT = b"""
import array, gc, micropython
import hal, pins
micropython.kbd_intr(-1)

def measure(name, function, *args):
    function(*args)
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(10):
        function(*args)
    print("ALLOC", name, (gc.mem_alloc() - before) // 10)

measure("leds", hal.Ws2812Pio(pins.LED_PIN, pins.LED_PIO_SM).write, array.array("I", [0] * 80))
port = hal.UsbSerial()
measure("readinto", port.readinto, bytearray(266), 0, 64, 3)
measure("wait", port.wait, 1)
measure("write", port.write, bytearray(b"$00 ACK 00*00000000\\r\\n"))
measure("status", hal.StatusLed(pins.STATUS_LED_PIN).set, True)
clock = hal.Clock()
measure("ticks_us", clock.ticks_us)
measure("ticks_ms", clock.ticks_ms)
measure("ticks_diff", clock.ticks_diff, 5, 3)
measure("ticks_add", clock.ticks_add, 5, 3)
measure("sleep_us", clock.sleep_us, 10)
matrix = hal.MatrixPort(pins.MATRIX_RANK_PINS, pins.MATRIX_FILE_PINS, pins.MATRIX_SETTLE_US)
measure("read_rows", matrix.read_rows, array.array("I", [0] * len(pins.MATRIX_RANK_PINS)))
measure("heap_free", hal.heap_free)
print("DONE")
"""
CALLS = (
    "leds",
    "readinto",
    "wait",
    "write",
    "status",
    "ticks_us",
    "ticks_ms",
    "ticks_diff",
    "ticks_add",
    "sleep_us",
    "read_rows",
    "heap_free",
)


def test_a_step_of_the_hardware_layer_allocates_nothing_on_the_chip() -> None:
    files = harness.firmware_files()
    files["main.py"] = SCRIPT
    with harness.EmulatedPico(files) as pico:
        port = serial.serial_for_url(pico.url, timeout=0.2)
        out = b""
        deadline = time.monotonic() + 120
        while b"DONE" not in out and time.monotonic() < deadline and not pico.stopped():
            out += port.read(4096)
        port.close()
    text = out.decode(errors="replace")
    allocated = {}
    for line in text.splitlines():
        if line.startswith("ALLOC "):
            _, name, count = line.split()
            allocated[name] = int(count)
    assert tuple(allocated) == CALLS, text[-2000:]
    assert allocated == dict.fromkeys(CALLS, 0)
