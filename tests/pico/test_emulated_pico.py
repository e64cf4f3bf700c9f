"""The firmware on an emulated Pico (MicroPython v1.28 on rp2040js), driven by
the real host: for the 8 x 10 matrix board, the 74HC165 board and the hex
board, what the sensors read, what the LED line carries, and what the link
does when the cable, the device or the line misbehaves (issue 22).

Each board boots once for the module; the tests run on it in order, each
leaving the board empty and the host connected.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from boardctl.hw.protocol.codec import crc32, encode
from boardctl.hw.protocol.constants import DEFAULT_PALETTE
from boardctl.hw.protocol.messages import BoardShape, Frame, Led, Palette

from ..hw.helpers import crc8_smbus
from .rig import Rig, app_constant, bits, harness

REASON = harness.missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

BOARDS = harness.boards()
os.environ["PICO_LINES"] = "1"  # the emulator says when each line leaves the chip

# WS2812B-V5 datasheet (Worldsemi): T0H 220-380 ns, T1H 580-1000 ns, a bit
# 1.25 us nominal (T0L/T1L 580-1000 ns / 580 ns-1 us), reset low >= 280 us in
# V5, > 50 us in the original WS2812B.
T0H = (220, 380)
T1H = (580, 1000)
BIT_PERIOD = (1100, 1400)

# Pieces walking the board at once: two, since a reading that changes more
# than a hand's four squares is held by the host until the next heartbeat.
WALKERS = 2
WALK_DWELL = 0.04  # seconds each rests on a square


WATCHDOG_MS = app_constant("WATCHDOG_MS")


@pytest.fixture(scope="module", params=sorted(BOARDS), ids=sorted(BOARDS))
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    rig = Rig.start(BOARDS[request.param])
    try:
        rig.connect(limit=6.0)
        yield rig
    finally:
        rig.close()


def test_it_boots_says_hello_and_sends_the_board(rig: Rig) -> None:
    hello = rig.host.device
    assert hello is not None
    if rig.board.hex:
        assert hello.board == "hex121" and hello.leds == 121
    else:
        assert (hello.files, hello.ranks, hello.leds) == (10, 8, 80)
    assert rig.readings[0][1] == 0  # nothing on the board


def test_every_square_reads_as_its_own_square(rig: Rig) -> None:
    # Two pieces walk the board's two halves at once, square after
    # square, each closing as the one before opens, 40 ms apart: faster than
    # any hand (the debounce needs 5-7.5 ms, a SNAP 20 ms after the one
    # before, and the host's LED refresh holds the scan up to some 15 ms).
    # Every state of the walk must be read, in order.
    n = rig.board.squares
    length = -(-n // WALKERS)
    steps = [
        {q * length + i for q in range(WALKERS) if i < length and q * length + i < n}
        for i in range(length)
    ]
    rig.place(
        [(WALK_DWELL * (i + 1), closed) for i, closed in enumerate(steps)]
        + [(WALK_DWELL * (length + 1), set())]
    )
    since = rig.now()
    rig.pump(WALK_DWELL * (length + 2) + 0.1)
    # A step that lands while the scan is between the two squares' ranks is
    # read in two scans: the reading in between must be a state the
    # contacts really passed through, each square either before or after.
    # Read in the SNAPs the chip sent: a host slowed by a loaded machine
    # takes only the latest of several (the host's reading of a SNAP is
    # tests/hw's, and the other tests here read through it).
    expected = [bits(closed) for closed in steps] + [0]
    at = 0
    for when, occupancy in sent_snaps(rig, since):
        if at < len(expected) and occupancy == expected[at]:
            at += 1
            continue
        before = expected[at - 1] if at > 0 else 0  # the board starts empty
        after = expected[at] if at < len(expected) else 0
        assert between(before, after, occupancy), (
            round(when, 4),
            [sq for sq in range(n) if occupancy >> sq & 1],
            at,
        )
    assert at == len(expected), f"read {at} of the walk's {len(expected)} states"
    assert set().union(*steps) == set(range(n))


def between(before: int, after: int, occupancy: int) -> bool:
    """True if every square of `occupancy` is as in `before` or as in `after`."""
    return occupancy & ~(before | after) == 0 and before & after & ~occupancy == 0


def test_several_squares_and_a_whole_rank_at_once(rig: Rig) -> None:
    n = rig.board.squares
    rank = set(range(10, 20)) if not rig.board.hex else set(range(66, 78))  # rank 2; hex rank 8
    scattered = {0, 7, n // 2, n - 1}
    # More than a hand's four squares at once is held by the host until the
    # device's next snapshot confirms it (PROTOCOL.md): a heartbeat, 1 s.
    before = 0
    for closed, wait in ((rank, 1.5), (rank | scattered, 0.3), (set(), 1.5)):
        start = len(rig.readings)
        rig.place([(0.0, closed)])
        assert rig.settle(bits(closed), wait), (sorted(closed), rig.latest())
        rig.pump(0.03)
        seen = [occ for _, occ in rig.readings[start:]]
        assert seen[-1] == bits(closed)
        # A change that lands while the matrix scan is between two ranks can
        # be read half done first: each square as before or as after, never
        # anything else.  A 74HC165 chain latches every input at once, and a
        # whole rank of the 8 x 10 matrix is read at once: one reading.
        assert all(between(before, bits(closed), occ) for occ in seen), seen
        if rig.board.sensor == "shiftreg" or (not rig.board.hex and closed == rank):
            assert seen == [bits(closed)]
        before = bits(closed)


def test_bounces_shorter_than_the_debounce_are_never_read(rig: Rig) -> None:
    sq = rig.board.squares // 3
    changes: list[tuple[float, set[int]]] = []
    t = 0.01
    for _ in range(8):  # 3 ms closed, 20 ms open: never 3 equal reads
        changes += [(t, {sq}), (t + 0.003, set())]
        t += 0.023
    for k in range(20):  # then chatter every 2 ms and settle closed
        changes.append((t + 0.002 * k, {sq} if k % 2 else set()))
    t += 0.04
    changes.append((t, {sq}))
    start = len(rig.readings)
    rig.place(changes)
    rig.pump(t + 0.05)
    assert [occ for _, occ in rig.readings[start:]] == [1 << sq]
    rig.place([(0.0, set())])
    assert rig.settle(0)


def test_a_contact_two_scans_past_the_debounce_is_read_while_the_host_sends_frames(
    rig: Rig,
) -> None:
    # The firmware read each line in one go, 25 us a byte (a hex LED line:
    # some 6.5 ms), so with the host sending frames the scans came late:
    # contacts of 12.5 ms, a scan period past the debounce's reads, were
    # missed 8 times in 16 with a frame every 20 ms (the daemon's loop
    # period), and 10.5 ms ones 7 in 16 in the issue.  A scan due during a
    # read is now made in the read, but decoding a hex LED line still makes
    # one up to some 1.5 ms late: a contact one scan past the debounce's reads
    # was then missed once in 16 now and again (firmware/README.md), so what
    # holds under traffic is two scans past them.  Counted in the SNAP lines
    # the chip sent, not the host's readings: a host slowed by a loaded
    # machine reads only the latest of several.
    if not rig.board.hex:
        # The same code (app.py) on every board; the hex board's line is the
        # longest, and 16 contacts cost a minute of emulation.
        pytest.skip("the read is the same on every board: run on the hex board")
    period = app_constant("SCAN_PERIOD_US")
    held = (app_constant("DEBOUNCE_READS") + 2) * period / 1e6
    sq = rig.board.squares // 2 + 1
    contacts = 16
    gap = 0.0317  # open between contacts: the contacts fall at every phase of the scan
    first = 0.1  # (changes due sooner could come together)
    since = rig.now()
    rig.place(
        [
            (first + k * (held + gap) + d, closed)
            for k in range(contacts)
            for d, closed in ((0.0, {sq}), (held, set()))
        ]
    )
    end = since + first + 0.03 + contacts * (held + gap)
    for k in range(10_000):  # a new frame every 20 ms
        if rig.now() >= end:
            break
        rig.show({(k * 5) % rig.board.squares: (0, 0, 255), sq: (k % 2 * 255, 0, 0)})
        rig.pump(0.02)
    rig.pump(0.05)
    rig.show({})
    sent = [occupancy >> sq & 1 for _, occupancy in sent_snaps(rig, since)]
    closings = sum(1 for a, b in zip([0, *sent], sent, strict=False) if b and not a)
    assert closings == contacts, sent
    assert rig.latest() == 0


def test_a_contact_is_reported_whenever_a_burst_of_host_lines_lands_in_it(rig: Rig) -> None:
    # A step fed the host's lines whole and reported the board at its end,
    # timed from its start: with a burst of lines (the host's 5 s repeat of
    # palette and frame, or frames sent one after another by a busy host)
    # the step ran 10 ms, the closing of a contact that had opened again by
    # then never went out, and the host never saw the piece (a loaded
    # machine's test run, 14 of 16).  A burst now lands at every phase of a
    # contact two scans past the debounce's reads; each closing is sent.
    if not rig.board.hex:
        pytest.skip("the read is the same on every board: run on the hex board")
    period = app_constant("SCAN_PERIOD_US") / 1e6
    held = (app_constant("DEBOUNCE_READS") + 2) * period
    sq = rig.board.squares // 2 + 2
    shape = BoardShape.named("hex121")
    # Old numbers, none following another: each is read, checked, decoded
    # and acknowledged, and never carried out (the host's own frames stay).
    seq = rig.host._link._seq
    lit = tuple((i % 15) + 1 if i % 3 == 0 else 0 for i in range(rig.board.squares))
    burst = b"".join(
        encode(Frame((seq - 40 + 2 * k) % 256, message), shape)
        for k, message in enumerate(
            (Palette(tuple(DEFAULT_PALETTE)), Led(lit), Led(tuple(reversed(lit))))
        )
    )
    contacts = 16
    gap = 0.0317
    start = rig.now() + 0.1
    changes = []
    for k in range(contacts):
        at = start + k * (held + gap)
        changes += [{**rig.board.change({sq}), "at": round(at * 1e9)}]
        changes += [{**rig.board.change(set()), "at": round((at + held) * 1e9)}]
        landing = at + k * held / contacts  # every phase of the contact
        rig.pico.command("inject", data=harness.b64(burst), at=round(landing * 1e9))
    rig.pico.command("sensors", changes=changes)
    since = start - 0.01
    rig.pump(start - rig.now() + contacts * (held + gap) + 0.05)
    sent = [occupancy >> sq & 1 for _, occupancy in sent_snaps(rig, since)]
    closings = sum(1 for a, b in zip([0, *sent], sent, strict=False) if b and not a)
    assert closings == contacts, sent
    assert device_counter(rig, "DUP") > 0  # the bursts did arrive
    assert rig.settle(0)


def test_after_the_counters_and_a_new_host_the_chip_still_sleeps(rig: Rig) -> None:
    # Play allocates nothing, so the garbage of the lines that do (the
    # counters' answer, a HELLO, a damaged line) stayed in the heap, and with
    # a few KB of it the chip never slept again: 100 % busy against some 60 %
    # before, and a new frame's first bit 1-2 ms later, until the port was
    # reopened... which made more.  The firmware now collects after them.
    if rig.board.name != "matrix":
        pytest.skip("the heap is the same on every board: run on the matrix board")

    def asleep(seconds: float) -> float:
        before = rig.pico.stats()
        rig.pump(seconds)
        after = rig.pico.stats()
        return (after["idle_ns"] - before["idle_ns"]) / (after["ns"] - before["ns"])

    quiet = asleep(0.5)
    for _ in range(3):
        device_counter(rig, "SCANS")
    rig.reopen()
    rig.connect()
    rig.pico.command("inject", data=harness.b64(b"$07 LED 0000*DEADBEEF\n~~~\n$08 LE\n"))
    rig.pump(0.2)
    assert quiet > 0.25  # the chip waits for its next scan asleep
    assert asleep(0.5) > quiet - 0.05


def sent_snaps(rig: Rig, since: float) -> list[tuple[float, int]]:
    """(simulated s, occupancy) of each SNAP line the chip sent from `since` on."""
    return [
        (int(str(e["ns"])) / 1e9, int(str(e["text"]).split(" SNAP ")[1].split()[0], 16))
        for e in rig.pico.log
        if e.get("ev") == "line"
        and e.get("dir") == "tx"
        and " SNAP " in str(e["text"])
        and int(str(e["ns"])) >= since * 1e9
    ]


def frame_after(rig: Rig, since: int, words: list[int], limit: float = 1.0) -> harness.Frame:
    """The first LED frame after `since` frames that carries `words`."""
    found: list[harness.Frame] = []

    def shown() -> bool:
        found[:] = [f for f in rig.pico.frames[since:] if list(f.words) == words]
        return bool(found)

    assert rig.pump(limit, until=shown), [f.words for f in rig.pico.frames[since:]][-1:]
    return found[0]


def expected_words(rig: Rig, colours: dict[int, tuple[int, int, int]]) -> list[int]:
    """The chain's words: each lit square's LED at its place in the chain,
    GRB, every channel capped at the board's brightness cap."""
    words = [0] * rig.board.squares
    cap = rig.board.max_level
    for sq, (r, g, b) in colours.items():
        words[rig.board.led_position[sq]] = (
            (g * cap // 255) << 16 | (r * cap // 255) << 8 | (b * cap // 255)
        )
    return words


def test_led_frames_carry_colour_cap_and_chain_order_with_ws2812_timing(rig: Rig) -> None:
    n = rig.board.squares
    colours = {
        0: (255, 0, 0),
        1: (0, 255, 0),
        11: (0, 0, 255),
        n - 1: (255, 255, 255),
        n // 2: (255, 200, 0),
    }
    since = len(rig.pico.frames)
    rig.show(colours)
    frame = frame_after(rig, since, expected_words(rig, colours))
    assert frame.bits == 24 * n
    assert frame.zero_high is not None and frame.one_high is not None
    assert T0H[0] <= frame.zero_high[0] and frame.zero_high[1] <= T0H[1]
    assert T1H[0] <= frame.one_high[0] and frame.one_high[1] <= T1H[1]
    assert frame.period is not None
    assert BIT_PERIOD[0] <= frame.period[0] and frame.period[1] <= BIT_PERIOD[1]
    # Every square on its own place in the chain: walk a light along the board.
    for sq in range(0, n, 7):
        since = len(rig.pico.frames)
        rig.show({sq: (0, 0, 255)})
        frame_after(rig, since, expected_words(rig, {sq: (0, 0, 255)}))


def test_host_bytes_arriving_while_a_frame_goes_out_never_split_it(rig: Rig) -> None:
    # Serving the USB port while a frame was written starved the LED line: 12
    # LEDs, a gap of a millisecond (a latch), then the rest of the frame on the
    # first LEDs.  Bytes from the host now land at several points of each frame.
    n = rig.board.squares
    since = len(rig.pico.frames)
    spoilt = b"$ZZ LED " + b"0" * n + b"*00000000\n"  # a damaged line: read, counted, dropped
    for k in range(4):
        lit = {(k * 7 + 3) % n: (0, 0, 255), (k * 11 + 1) % n: (255, 0, 0)}
        at = (200 + 500 * k) * 1000  # ns after the frame's first bit
        rig.pico.command("inject", data=harness.b64(spoilt), on_frame=at)
        start = len(rig.pico.frames)
        rig.show(lit)
        frame_after(rig, start, expected_words(rig, lit))
    frames = rig.pico.frames[since:]
    assert [f.bits for f in frames] == [24 * n] * len(frames), [f.bits // 24 for f in frames]
    assert device_counter(rig, "CRC") >= 4  # the bytes did arrive, during the frames
    rig.show({})


def test_the_leds_go_dark_when_the_host_goes_silent_and_come_back_with_it(rig: Rig) -> None:
    if rig.board.name != "matrix":
        # The same code (app.py) on every board, and 3 s of silence cost
        # some 20 s of emulation: once is enough.
        pytest.skip("host presence is the same on every board: run on the matrix board")
    colours = {5: (255, 0, 0)}
    since = len(rig.pico.frames)
    rig.show(colours)
    frame_after(rig, since, expected_words(rig, colours))
    since = len(rig.pico.frames)
    rig.pico.sleep(3.3)  # the host reads nothing, sends nothing
    dark = [f for f in rig.pico.frames[since:] if not any(f.words)]
    assert dark, "the board stayed lit with nobody listening"
    assert dark[0].start - rig.pico.frames[since - 1].end >= 2.9e9  # not before 3 s
    since = len(rig.pico.frames)
    frame_after(rig, since, expected_words(rig, colours), limit=1.5)
    rig.show({})


def test_a_damaged_line_either_way_is_counted_and_never_read(rig: Rig) -> None:
    device_counter(rig, "SCANS")  # a new answer, not one an earlier test left
    before = dict(rig.host.device_counters)
    dropped_before = sum(rig.host.dropped.values())
    # Host to device: a line with a bad check, noise, a truncated line.
    rig.pico.command("inject", data=harness.b64(b"$07 LED 0000*DEADBEEF\n~~~\n$08 LE\n"))
    rig.pump(0.1)
    # Device to host: spoil the next five lines while a piece moves.
    rig.pico.command("damage", lines=5)
    start = len(rig.readings)
    truth = [set(), {3}, {3, 4}, {4}, set()]
    rig.place([(0.05 * (i + 1), closed) for i, closed in enumerate(truth)])
    rig.pump(0.5)
    seen = [occ for _, occ in rig.readings[start:]]
    assert all(occ in {bits(c) for c in truth} for occ in seen), seen
    assert rig.settle(0)
    assert sum(rig.host.dropped.values()) > dropped_before

    def grew(*names: str) -> bool:
        after = rig.host.device_counters
        return sum(after.get(n, 0) for n in names) > sum(before.get(n, 0) for n in names)

    # Until the whole answer is in: a line of it the damage above spoiled
    # comes again, later.
    rig.host.request_device_counters()
    rig.pump(1.0, until=lambda: grew("CRC") and grew("NOISE", "TRUNC"))
    assert grew("CRC")
    assert grew("NOISE", "TRUNC")


def cut_hello(header: bytes) -> bytes:
    """A version-2 HELLO (`header` after the sequence number) cut after two
    of its eight checksum digits, numbered so that version 1's CRC-8 holds on
    what is left: a damaged line that looks like a version-1 peer."""
    for tag in range(100):  # one value in the HELLO varied, if need be
        for seq in range(256):
            body = b"%02X %s X=%d" % (seq, header, tag)
            line = b"$" + body + b"*%08X" % crc32(body)
            if int(line[len(body) + 2 : len(body) + 4], 16) == crc8_smbus(body):
                return line[: len(body) + 4] + b"\n"
    raise AssertionError("no sequence number makes the CRC-8 hold")


def device_counter(rig: Rig, name: str) -> int:
    before = rig.host.device_counters.get("SCANS")
    rig.host.request_device_counters()
    assert rig.pump(1.0, until=lambda: rig.host.device_counters.get("SCANS") != before)
    return rig.host.device_counters[name]


def test_replayed_old_lines_and_a_damaged_hello_are_never_believed(rig: Rig) -> None:
    # A piece moves: five snapshots, each read.
    for closed in ({4}, {4, 5}, {5}, {5, 6}, {6}):
        rig.place([(0.0, closed)])
        assert rig.settle(bits(closed))
        rig.pump(0.03)
    # An adapter replays the device's last lines, old snapshots among them.
    for run, skip in ((3, 1), (5, 1), (4, 2), (8, 0)):
        start = len(rig.readings)
        rig.pico.command("replay", lines=run, skip=skip)
        rig.pump(0.3)
        assert all(occ == bits({6}) for _, occ in rig.readings[start:]), rig.readings[start:]
    assert rig.host.counters["OLDSNAP"] + rig.host.counters["DUP"] > 0
    # A damaged version-2 HELLO that reads as version 1, each way: counted, not believed.
    ver = device_counter(rig, "VER")
    rig.pico.command("inject", data=harness.b64(cut_hello(b"HELLO P=3 SW=boardctl-test")))
    rig.pico.command("tohost", data=harness.b64(cut_hello(b"HELLO P=3 F=10 R=8 L=80")))
    rig.pump(0.3)
    assert rig.host.status.value == "up" and rig.host.counters["VER"] == 0
    assert device_counter(rig, "VER") == ver
    rig.place([(0.0, set())])
    assert rig.settle(0)


def test_unplugged_and_reset_it_comes_back_with_the_board_as_it_is(rig: Rig) -> None:
    closed = {2, 9}
    rig.place([(0.0, closed)])
    assert rig.settle(bits(closed))
    colours = {2: (0, 255, 0)}
    rig.show(colours)
    rig.pico.command("unplug")
    rig.place([(0.05, closed | {40})])  # moved while the cable was out
    start = len(rig.readings)
    assert rig.pump(
        3.0, until=lambda: rig.latest() == bits(closed | {40}) and rig.host.status.value == "up"
    )
    assert all(occ == bits(closed | {40}) for _, occ in rig.readings[start:])
    since = len(rig.pico.frames)
    frame_after(rig, since, expected_words(rig, colours), limit=1.0)
    # A reset: the chip starts afresh (MicroPython boots again).
    rig.pico.command("reset")
    rig.place([(0.05, closed)])
    start = len(rig.readings)
    assert rig.pump(
        6.0, until=lambda: rig.latest() == bits(closed) and rig.host.status.value == "up"
    )
    assert all(occ in (bits(closed), bits(closed | {40})) for _, occ in rig.readings[start:])
    rig.show({})
    rig.place([(0.0, set())])
    assert rig.settle(0)


def test_a_hung_firmware_is_reset_by_its_watchdog_and_says_so(rig: Rig) -> None:
    if rig.board.name != "matrix":
        pytest.skip("the watchdog is the same on every board: run on the matrix board")
    before = device_counter(rig, "WDT")
    # The hang's time is the emulator's, from its answer: a hung chip only
    # ticks its clock, so on a loaded machine it can run to its watchdog
    # reset before this process reads the clock (the reset then seemed to
    # come at the instant of the hang).  The events come in the emulator's
    # order, so the resets after the hang are those logged after its answer.
    done = rig.pico.command("hang")  # the CPU stops; its timers and the watchdog go on
    hung_at = int(str(done["ns"])) / 1e9
    after_hang = rig.pico.log.index(done) + 1

    def resets_since_hang() -> list[dict[str, object]]:
        return [e for e in rig.pico.log[after_hang:] if e["ev"] == "reset"]

    assert rig.pump(
        10.0, until=lambda: bool(resets_since_hang()) and rig.host.status.value == "up"
    ), "the hung chip was never reset"
    reset = resets_since_hang()[0]
    assert reset["by"] == "watchdog"
    assert int(str(reset["ns"])) / 1e9 - hung_at >= WATCHDOG_MS / 1000 * 0.9  # not before its time
    assert device_counter(rig, "WDT") == before + 1
    rig.place([(0.0, set())])
    assert rig.settle(0, 1.0)


def test_the_repl_escape_hands_the_watchdog_back(rig: Rig) -> None:
    # Last: the firmware stops for the REPL, then a soft reset starts it again.
    if rig.board.name != "matrix":
        pytest.skip("the watchdog is the same on every board: run on the matrix board")
    before = device_counter(rig, "WDT")
    resets = sum(1 for e in rig.pico.log if e["ev"] == "reset")
    since = len(rig.pico.frames)
    rig.show({5: (255, 0, 0)})
    frame_after(rig, since, expected_words(rig, {5: (255, 0, 0)}))
    # The host lets go of the port, and mpremote takes it (the REPL would echo
    # the host's HELLOs back to it).
    rig.host.close()
    since = len(rig.pico.frames)
    rig.pico.command("inject", data=harness.b64(b"\r\x03"))
    rig.pico.sleep(0.2)
    assert any(not any(f.words) for f in rig.pico.frames[since:]), "the firmware did not stop"
    rig.pico.sleep(WATCHDOG_MS / 1000 + 1.0)  # the REPL idles past the watchdog's timeout
    assert sum(1 for e in rig.pico.log if e["ev"] == "reset") == resets
    rig.pico.command("inject", data=harness.b64(b"\r\x04"))  # Ctrl-D: a soft reset
    rig.reopen()
    assert rig.pump(6.0, until=lambda: rig.host.status.value == "up")
    assert sum(1 for e in rig.pico.log if e["ev"] == "reset") == resets  # no chip reset
    assert device_counter(rig, "WDT") == before  # and none counted
