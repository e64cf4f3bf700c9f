# Runs the firmware's logic (scanner, link, LED strip, app) through a board
# session with stand-ins for the hardware, so that it is exercised by the
# interpreter it ships on, not only by CPython; from the repository's root:
#
#     MICROPYPATH=firmware .venv/bin/micropython tests/firmware/check_logic.py
#     PYTHONPATH=firmware python3 tests/firmware/check_logic.py
#
# Prints one line per failed check and a summary; exits with status 1 on any
# failure.  A check beside the firmware, never flashed with it
# (tests/hw/test_firmware.py runs it under both).

import sys

import app
import hexboard
import link
import protocol
import scanner
import wire
import ws2812
from protocol_constants import DEFAULT_PALETTE, PROTOCOL_VERSION

START = ((1 << 20) - 1) | (((1 << 20) - 1) << 60)
SHAPE = protocol.Shape(10, 8, 80)


def sq(name):
    return "abcdefghij".index(name[0]) + (int(name[1:]) - 1) * 10


class Sensors:
    """A reader: the board's occupancy, optionally bouncing."""

    def __init__(self, occupancy):
        self.occupancy = occupancy

    def read(self, rows):
        for rank in range(8):
            rows[rank] = (self.occupancy >> (10 * rank)) & 0x3FF


class Output:
    def __init__(self):
        self.frames = []

    def write(self, words):
        self.frames.append([word >> 8 for word in words])  # the 24 bits on top

    def ready(self):
        return True


def take_waiting(source, start, end, buf, count, limit, stop):
    """As hal.UsbSerial.readinto reads the bytes waiting (source[start:end])
    into buf after its first `count`: the rest of a line once past limit,
    up to and including byte `stop`.  The count buf holds then."""
    while count < len(buf) and start < end:
        byte = source[start]
        buf[count] = byte
        count += 1
        start += 1
        if byte == stop or (byte == 0x0A and count >= limit):
            break
    return count


class Serial:
    def __init__(self):
        self.inbox = bytearray()
        self.lines = []
        self.full = False

    def readinto(self, buf, count, limit, stop, tick=None):
        filled = take_waiting(self.inbox, 0, len(self.inbox), buf, count, limit, stop)
        self.inbox = self.inbox[filled - count :]
        return filled

    def write(self, line):
        if self.full:
            return False
        self.lines.append(bytes(line))  # a port copies: the link reuses its buffers
        return True

    def take(self):
        """The lines written since the last take, decoded."""
        out = []
        for line in self.lines:
            out.append(protocol.decode(line[:-2], SHAPE))
        self.lines = []
        return out


class Checks:
    def __init__(self):
        self.count = 0
        self.failures = []

    def check(self, ok, what):
        self.count += 1
        if not ok:
            self.failures.append(what)


def commands(decoded, command):
    """The values of the decoded lines of `command`: a SNAP's board, without its stamp."""
    return [value[0] if c == "SNAP" else value for _, c, value in decoded if c == command]


def run_session(c):
    sensors = Sensors(START)
    output = Output()
    serial = Serial()
    device = link.DeviceLink(SHAPE, [("FW", app.FIRMWARE_VERSION)], 0)
    strip = ws2812.LedStrip(output, 80, 10, True, 64)
    fw = app.Firmware(scanner.Scanner(sensors, 10, 8, app.DEBOUNCE_READS), strip, serial, device)
    now = [0]

    def steps(ms):
        end = now[0] + ms
        while now[0] < end:
            c.check(fw.step(now[0]), "no REPL escape expected")
            now[0] += 2  # a 500 Hz scan in this session
        return serial.take()

    host_seq = [0]

    def host(command, value):
        seq = host_seq[0]
        host_seq[0] = (seq + 1) & 0xFF
        serial.inbox.extend(protocol.encode(seq, command, value, SHAPE))
        return seq

    # Boot with nobody listening: HELLO at once, the board after 4 scans.
    out = steps(10)
    c.check([x[1] for x in out] == ["HELLO", "SNAP"], "boot: HELLO then SNAP")
    c.check(commands(out, "SNAP") == [START], "boot: the start position")
    c.check(output.frames and not any(output.frames[-1]), "no host: LEDs dark")

    # A second passes: heartbeat (and HELLO again, not yet acknowledged).
    out = steps(1000)
    c.check(commands(out, "SNAP") == [START], "heartbeat after 1 s")
    c.check(len(commands(out, "HELLO")) == 1, "HELLO repeated until acknowledged")

    # The host says hello: ACK, our HELLO, a SNAP at once.
    hello_seq = host("HELLO", (PROTOCOL_VERSION, None, None, None, [("SW", "check")]))
    out = steps(4)
    c.check(commands(out, "ACK") == [hello_seq], "host HELLO acknowledged")
    c.check(
        len(commands(out, "HELLO")) == 1 and commands(out, "SNAP") == [START],
        "HELLO and SNAP answer a host HELLO",
    )
    for seq, command, _ in out:
        if command in ("HELLO", "SNAP"):
            host("ACK", seq)
    out = steps(4)
    c.check(device.counters["STALE"] == 0, "ACKs matched")

    # An LED frame: e2 lit with palette 1 (red), capped at 64.
    frame = bytearray(80)
    frame[sq("e2")] = 1
    led_seq = host("LED", bytes(frame))
    out = steps(4)
    c.check(commands(out, "ACK") == [led_seq], "LED frame acknowledged")
    words = output.frames[-1]
    c.check(
        words[15] == 64 << 8 and sum(1 for w in words if w) == 1,
        "e2 red at chain position 15 (serpentine), nothing else",
    )

    # A damaged line: NAK with its claimed number, nothing changes.
    line = protocol.encode(host_seq[0], "LED", bytes(80), SHAPE)
    serial.inbox.extend(line.replace(b"LED 0", b"LED 1"))
    out = steps(4)
    c.check(commands(out, "NAK") == [(host_seq[0], "CRC")], "damaged line nakked")
    c.check(device.counters["CRC"] == 1, "damage counted")
    c.check(output.frames[-1][15] == 64 << 8, "the damaged frame was not shown")

    # Garbage and a cut line, then a good line: resynchronised.
    serial.inbox.extend(b"\x00\xffjunk\r\n$05 LE")
    stat_seq = host("STAT", None)
    out = steps(4)
    c.check(commands(out, "ACK") == [stat_seq], "STAT after garbage acknowledged")
    reports = commands(out, "COUNTERS")
    names = [name for report in reports for name, _ in report]
    c.check("SCANS" in names and "NOISE" in names, "counters reported")
    c.check(
        device.counters["NOISE"] == 1 and device.counters["TRUNC"] == 1, "garbage counted by reason"
    )

    # A pawn lifted from e2, bouncing first: one SNAP once it is still.
    for bounce in (0, 1, 0, 1):
        sensors.occupancy = START & ~(1 << sq("e2")) if bounce == 0 else START
        steps(2)
    sensors.occupancy = START & ~(1 << sq("e2"))
    out = steps(20)
    c.check(commands(out, "SNAP") == [START & ~(1 << sq("e2"))], "one SNAP for the lift")

    # Unacknowledged: sent again 3 times, 250 ms apart, then given up.
    out = steps(1200)
    snaps = commands(out, "SNAP")
    c.check(len(snaps) >= 4, "retries while the host is present")
    c.check(device.counters["RETRY"] >= 3, "retries counted")

    # The host falls silent: LEDs dark after 3 s, scanning goes on.
    scans = fw.scanner.scans
    steps(3000)
    c.check(not any(output.frames[-1]), "host gone: LEDs dark")
    c.check(fw.scanner.scans > scans + 1000, "scanning goes on")

    # The port takes nothing: no blocking, the outbox stays bounded.
    serial.full = True
    steps(20000)
    c.check(len(device.outbox) <= link.OUTBOX_MAX, "outbox bounded")
    c.check(device.counters["TXDROP"] > 0, "dropped lines counted")
    serial.full = False
    steps(10)

    # The host comes back (no HELLO): the frame shows again.
    host("ACK", 0)
    steps(4)
    c.check(output.frames[-1][15] == 64 << 8, "host back: the frame shows again")

    # Byte 0x03: step returns False, what follows stays unread.
    serial.inbox.extend(b"\r\x03\r\x01")
    c.check(fw.step(now[0]) is False, "0x03 stops the firmware")
    c.check(bytes(serial.inbox) == b"\r\x01", "bytes after 0x03 left for the REPL")


class QuietSensors:
    """A reader that allocates nothing: the rows are worked out when the
    board is set (an 80-bit occupancy is a heap integer on MicroPython)."""

    def __init__(self, occupancy):
        self.rows = [0] * 8
        self.set(occupancy)

    def set(self, occupancy):
        for rank in range(8):
            self.rows[rank] = (occupancy >> (10 * rank)) & 0x3FF

    def read(self, rows):
        for rank in range(8):
            rows[rank] = self.rows[rank]


class QuietSerial:
    """A port that allocates nothing, for counting what the firmware
    allocates: the host's lines wait in a buffer made beforehand and are let
    through by `arrive`; of the device's lines only the numbers of those the
    host must acknowledge are kept."""

    def __init__(self):
        self.inbox = bytearray(4096)
        self.taken = 0  # bytes read by the device
        self.arrived = 0  # bytes the host has sent
        self.to_ack = bytearray(32)  # numbers of the device's lines to acknowledge
        self.waiting = 0
        self.written = 0
        self.board = bytearray(20)  # the last SNAP's digits (80 squares)
        self.boards = 0  # SNAPs that brought a new board

    def arrive(self, line, size):
        if self.taken == self.arrived:  # all read: start the buffer again
            self.taken = self.arrived = 0
        wire.copy(line, 0, size, self.inbox, self.arrived)
        self.arrived += size

    def readinto(self, buf, count, limit, stop, tick=None):
        filled = take_waiting(self.inbox, self.taken, self.arrived, buf, count, limit, stop)
        self.taken += filled - count
        return filled

    def write(self, line):
        self.written += 1
        if wire.same(line, 4, b"SNAP", 4) and not wire.same(line, 9, self.board, 20):
            wire.copy(line, 9, 20, self.board, 0)
            self.boards += 1
        if not wire.same(line, 4, b"ACK ", 4) and self.waiting < len(self.to_ack):
            self.to_ack[self.waiting] = wire.hex_value(line, 1, 2)
            self.waiting += 1
        return True


def run_play_allocates_nothing(c):
    """A minute of play with the host, across the moment the firmware's
    clock counts round (link.TIME_WRAP): heartbeats and their ACKs, the
    host's refresh of palette and frame every 5 s, a new frame and a piece
    lifted and put down again every 5 s (each a new board to spell out in a
    SNAP), the frames written whole (LED) and sparsely (LEDS).  Under
    MicroPython it allocates nothing, so the collector, which
    stops the scan for milliseconds, never runs."""
    import gc

    sensors = QuietSensors(START)
    serial = QuietSerial()
    device = link.DeviceLink(SHAPE, [("FW", app.FIRMWARE_VERSION)], 0)
    strip = ws2812.LedStrip(Output(), 80, 10, True, 64)
    strip._out.write = len  # no frames kept
    fw = app.Firmware(scanner.Scanner(sensors, 10, 8, app.DEBOUNCE_READS), strip, serial, device)
    host_seq = [0]
    # Frames as LED and as LEDS (the few lit LEDs of a lifted piece's moves).
    sparse = (bytearray(80), bytearray(80))
    for led, index in ((0, 1), (14, 6), (24, 2), (34, 2)):
        sparse[0][led] = index
    sparse[1][0] = 2
    sparse[1][79] = 3
    frames = [
        bytearray(protocol.encode(0, "LED", bytes([1] * 80), SHAPE)),
        bytearray(protocol.encode(0, "LEDS", sparse[0], SHAPE)),
        bytearray(protocol.encode(0, "LED", bytes([2] * 80), SHAPE)),
        bytearray(protocol.encode(0, "LEDS", sparse[1], SHAPE)),
    ]
    palette = bytearray(protocol.encode(0, "PAL", DEFAULT_PALETTE, SHAPE))
    ack = bytearray(protocol.encode(0, "ACK", 0, SHAPE))
    hello = protocol.encode(0, "HELLO", (PROTOCOL_VERSION, None, None, None, []), SHAPE)
    serial.arrive(hello, len(hello))
    host_seq[0] = 1
    boards = (QuietSensors(START).rows, QuietSensors(START & ~(1 << sq("e2"))).rows)
    wrap = link.TIME_WRAP - 1
    present = [True]

    def send(line):
        wire.renumber(line, len(line), host_seq[0])
        host_seq[0] = (host_seq[0] + 1) & 0xFF
        serial.arrive(line, len(line))

    def play(now, ms):
        for step in range(ms // 2):
            fw.step(now)
            present[0] = present[0] and fw.link.host_present(now)
            for i in range(serial.waiting):
                wire.put_hex(ack, 8, serial.to_ack[i], 2)
                send(ack)
            serial.waiting = 0
            if step % 2500 == 0:
                send(palette)
                send(frames[(step // 2500) % 4])
            elif step % 2500 == 1250:
                send(frames[(step // 2500) % 4])  # the same frame again
                sensors.rows = boards[(step // 2500) % 2]
            now = (now + 2) & wrap
        return now

    now = play(link.TIME_WRAP - 42000, 12000)  # every buffer made, every line seen once
    measure = hasattr(gc, "mem_alloc")  # MicroPython
    if measure:
        gc.collect()
        before = gc.mem_alloc()
    sent = serial.written
    new_boards = serial.boards
    uptime = fw.uptime_s
    present[0] = True
    now = play(now, 60000)  # the clock counts round 30 s in
    if measure:
        allocated = gc.mem_alloc() - before
        c.check(allocated == 0, "a minute of play allocated " + str(allocated) + " bytes")
    c.check(now == 30000, "the clock counted round")
    c.check(
        serial.written - sent >= 90
        and device.counters["STALE"] == 0
        and device.counters["RETRY"] == 0,
        "the minute of play was talked through",
    )
    c.check(serial.boards - new_boards == 12, "the moves were sent")
    c.check(present[0] and strip.frame[0] in (1, 2), "the host was present and its frames shown")
    c.check(
        bytes(strip.frame) == bytes(sparse[1]) and device.counters["ARG"] == 0,
        "the last frame, sent as LEDS, shown",
    )
    c.check(fw.uptime_s - uptime == 60, "uptime counted on across the clock's round")


class HexMatrix:
    """A port for the hex board's matrix: read_row(row) gives the column
    lines of one row line, from the cells that are closed."""

    def __init__(self):
        self.closed = 0

    def read_row(self, row):
        width = len(hexboard.MATRIX_COLUMN_PINS)
        bits = 0
        for column in range(width):
            cell = hexboard.MATRIX_CELLS[row * width + column]
            if cell >= 0 and self.closed >> cell & 1:
                bits |= 1 << column
        return bits


def run_hex(c):
    """The hex board's scan through its cell map, and its HELLO and SNAP."""
    shape = protocol.Shape(leds=hexboard.LED_COUNT, board=hexboard.BOARD)
    port = HexMatrix()
    rows = len(hexboard.MATRIX_ROW_PINS)
    width = len(hexboard.MATRIX_COLUMN_PINS)
    scan = scanner.Scanner(
        scanner.MatrixReader(port, rows), width, rows, 4, False, hexboard.MATRIX_CELLS
    )
    for cell in (0, 4, 60, 66, 120):  # h1, l1, g7, a8, f13
        port.closed = 1 << cell
        for _ in range(4):
            scan.scan()
        c.check(scan.occupancy() == 1 << cell, "hex cell " + hexboard.CELL_NAMES[cell])
    port.closed = (1 << 121) - 1
    for _ in range(4):
        scan.scan()
    c.check(scan.occupancy() == (1 << 121) - 1, "hex: all 121 cells")
    device = link.DeviceLink(shape, [("FW", app.FIRMWARE_VERSION)], 0)
    device.poll(0, scan.reading())
    hello = protocol.decode(device.outbox[0][:-2], shape)
    c.check(
        hello[2][1:4] == (None, None, 121) and hello[2][4][0] == ("B", "hex121"),
        "hex HELLO names the board",
    )
    strip = ws2812.LedStrip(Output(), 121, 121, max_level=255, positions=hexboard.LED_CHAIN)
    frame = bytearray(121)
    frame[60] = 7  # g7 white
    strip.set_frame(frame)
    strip.show(False)
    words = strip._out.frames[-1]
    c.check([i for i in range(121) if words[i]] == [hexboard.LED_CHAIN[60]], "hex LED chain")


def main():
    c = Checks()
    for run in (run_session, run_hex, run_play_allocates_nothing):
        try:
            run(c)
        except Exception as error:  # a crash is a failure too
            c.failures.append(f"{run.__name__} raised {error!r}")
    for failure in c.failures:
        print("FAIL " + failure)
    print(f"{c.count} checks, {len(c.failures)} failed ({sys.implementation.name})")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
