# What the line checksum costs the firmware, per line, in microseconds:
# CRC-32 through binascii (C, when the build has it), CRC-32 in Python (the
# fallback, 16-bit halves) and version 1's CRC-8 (Python, one table lookup
# per byte) for comparison.  A bench beside the firmware, never flashed with
# it; from the repository's root:
#
#     MICROPYPATH=firmware .venv/bin/micropython bench/firmware/bench_checksum.py
#     PYTHONPATH=firmware python3 bench/firmware/bench_checksum.py
#     mpremote run bench/firmware/bench_checksum.py  (on the Pico, benchtime.py copied to it)

import sys

import protocol
from benchtime import per_call_us


def _crc8_table():
    table = bytearray(256)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table[byte] = crc
    return bytes(table)


_CRC8 = _crc8_table()


def crc8(data):
    crc = 0
    table = _CRC8
    for byte in data:
        crc = table[crc ^ byte]
    return crc


def main():
    shape = protocol.Shape()
    snap = protocol.frame(1, "SNAP", (1 << 80) - 1, shape)
    led = protocol.frame(2, "LED", bytes(80), shape)
    big = protocol.frame(3, "LED", bytes(180), protocol.Shape(10, 8, 180))
    bodies = (
        ("SNAP", snap[1 : snap.find(b"*")]),
        ("LED 80", led[1 : led.find(b"*")]),
        ("LED 180", big[1 : big.find(b"*")]),
    )
    checks = [("crc8 python", crc8), ("crc32 python", protocol.crc32_halves)]
    if protocol._crc32_c is not None:
        checks.insert(0, ("crc32 binascii", protocol._crc32_c))
    print("us per line, %s:" % sys.implementation.name)
    for name, body in bodies:
        figures = ["%s %.1f" % (check, per_call_us(function, body)) for check, function in checks]
        print("  %-7s (%3d bytes)  %s" % (name, len(body), ", ".join(figures)))


main()
