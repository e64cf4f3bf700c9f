# One step of the firmware: scan, talk, light.  No hardware here: the
# scanner's reader, the LED output, the serial port and the time are passed
# in (hal.py on the Pico, fakes in the tests).

import link
from protocol_constants import MAX_LINE

FIRMWARE_VERSION = "0.1.0"
SCAN_PERIOD_US = 2500  # 400 scans a second (the issue asks for at least 200)
DEBOUNCE_READS = 3  # a square changes after 3 equal reads: 5-7.5 ms (a reed
# switch bounces for about 1 ms; firmware/README.md, "What holds for the debounce")
READ_LIMIT = 64  # bytes taken from the host per step, and then the rest of the
# line: a new LED frame (with the ACK before it, 118 bytes on
# 8 x 10) is carried out in one step, the host's 260-byte
# refresh in two or three
STATUS_BLINK_MS = 500
HEAP_EVERY = 24000  # scans between looks at the free heap (a minute): a look
# walks the whole heap, 8.8 ms on the Pico
WATCHDOG_MS = 2000  # a step that has not ended by then is a hang: the chip resets.
# The longest step that is no hang is a write held up by a host that does not
# read (MicroPython's USB transmit timeout, 500 ms); a step is some 3 ms.
REPL_ESCAPE = 0x03  # never sent by a host; a developer's Ctrl-C or mpremote
_ESCAPE = bytes([REPL_ESCAPE])  # made once: a step that allocates sets off the collector
_STAT = b" STAT*"  # the host's request for the counters, as it stands in a line
LINE_ROOM = MAX_LINE + 2  # the longest frame and its CR LF
IDLE_POLL_US = 10  # the least a look at the port takes, for idle's bound


class Firmware:
    """step(now) scans once, reads what the host sent, answers and lights the
    LEDs.  It returns False when the host sent byte 0x03: the caller then
    stops and returns to the REPL.  A step in which nothing happens
    allocates nothing: on the Pico every allocation brings the next garbage
    collection closer, and a collection stops the scan for milliseconds.

    Reading the host costs 25 us a byte (a hex board's LED line 6.5 ms), so
    a scan falling due while a line is read is made in the read itself
    (_tick, every 16 bytes the port reads): with the host sending frames the scans
    came late, and contacts the debounce should have read were missed."""

    def __init__(self, scanner, strip, serial, link, status=None, heap=None, collect=None):
        self.scanner = scanner
        # The board read and the board last sent, compared at each scan made
        # in a long step (two calls cost the chip some 44 us).
        self._bits = scanner.bits
        self._sent_bits = link.sent_board
        # heap() is the free heap in bytes (gc.mem_free on the Pico); the
        # free heap only grows when the collector has run, so a rise between
        # two looks counts one collection, which stops the scan for a while.
        self._heap = heap
        # collect() collects the garbage (gc.collect on the Pico).  Called
        # after a step in which the link allocated: with a few KB of garbage
        # in the heap (a HELLO, the counters, a damaged line) the chip never
        # slept again and a new frame's first bit came 1-2 ms later, until a
        # collection, which nothing else would make (play allocates nothing).
        self._collect = collect
        self.heap_free = None
        self.heap_min = None
        self.collections = 0
        self.strip = strip
        self.serial = serial
        self.link = link
        self._rx = bytearray(READ_LIMIT + LINE_ROOM)
        self._rx_count = 0  # bytes in _rx not yet given to the link
        self._rx_open = True  # False once this step's share is read
        self._present = False  # the host's, at the last _serve
        # The loop's clock and when the next scan is due (ticks_us): a read
        # that runs past it scans there and moves it on.
        self.clock = None
        self.due = 0
        self._ticker = self._tick  # the bound method made once: no allocation
        self.status = status
        self.overruns = 0  # counted by the caller's loop
        self.step_max = 0  # the caller's too: the longest step since STAT, us
        self._step_max_sent = False  # ... cleared after the step that sent it
        self.now = 0  # the time of the last step, ms (link.TIME_WRAP)
        self._step_ms = 0  # and the clock's ticks_ms then
        self.uptime_s = 0  # counted here: as ms it would outgrow a small int
        self._uptime_ms = 0
        self.watchdog_resets = 0  # since power-on (main.run sets it from the chip)

    def step(self, now):
        self._uptime_ms += link.age(now, self.now)
        while self._uptime_ms >= 1000:
            self._uptime_ms -= 1000
            self.uptime_s += 1
        self.now = now
        if self.clock is not None:
            self._step_ms = self.clock.ticks_ms()
        if self._step_max_sent:  # not before: the answer itself is a long step
            self._step_max_sent = False
            self.step_max = 0
        self.scanner.scan()  # the link compares occupancies itself
        if self._heap is not None and self.scanner.scans % HEAP_EVERY == 0:
            self._watch_heap()
        self._receive()
        self._tick()  # each part of the step looks: a scan due comes on time, give or take one part
        go_on = self._serve(now)
        if self.status is not None:
            self.status.set(self._present or (now // STATUS_BLINK_MS) % 2 == 0)
        return go_on

    def _serve(self, now):
        """Carry out the lines read, light the LEDs and report: a step's
        work but the scan.  False if the host sent byte 0x03."""
        data = self._rx
        count = self._rx_count
        self._rx_count = 0
        self._rx_open = True
        escape = data.find(_ESCAPE, 0, count) if count else -1
        if escape >= 0:
            count = escape
        for command, value in self.link.feed(data, now, count):
            if command == "HELLO":
                self.strip.reset()
            elif command == "LED":
                self.strip.set_frame(value)
            elif command == "PAL":
                self.strip.set_palette(value)
            elif command == "STAT":
                if self._heap is not None:
                    self._watch_heap()  # the answer is a long step anyway
                self.link.send_counters(self.extra_counters(now), now)
                self._step_max_sent = True
            self._tick()
        # The LEDs first: a new frame's first bit goes out now, the lines
        # after it (writing the frame blocks while the PIO shifts it out).
        present = self.link.host_present(now)
        self._present = present
        self.strip.show(not present)
        self._tick()
        self._report()
        if self.link.garbage and self._collect is not None:
            # After the answer, where it was made (a step, or the wait
            # between two): some 6 ms, and not a step of play's.
            self.link.garbage = False
            self._collect()
        return escape < 0

    def _receive(self):
        """Read what the host sent into _rx, up to this step's share:
        READ_LIMIT bytes and the rest of the line, or byte 0x03."""
        if not self._rx_open:
            return
        rx = self._rx
        count = self.serial.readinto(rx, self._rx_count, READ_LIMIT, REPL_ESCAPE, self._ticker)
        if count > self._rx_count:
            last = rx[count - 1]
            self._rx_open = not (
                count == len(rx) or last == REPL_ESCAPE or (last == 0x0A and count >= READ_LIMIT)
            )
        self._rx_count = count

    def _tick(self):
        """While a line is read: scan if a scan is due, on time, and report
        what it read (a change read in a long step must not wait for its
        end: the contact may be gone by then, and its closing never sent)."""
        clock = self.clock
        if clock is not None and clock.ticks_diff(clock.ticks_us(), self.due) >= 0:
            self.scanner.scan()
            self.due = clock.ticks_add(self.due, SCAN_PERIOD_US)
            # Only when the board read is not the one last sent (a change, or
            # one held back): the report costs the read time (the LEDs' line waits).
            if self._bits != self._sent_bits:
                self._report()

    def _report(self):
        """The link's timers and the board (a SNAP if it changed), timed
        now: the step's start is some milliseconds back after a long read,
        which held a change back as sent too soon after the last."""
        self.link.poll(self._now(), self.scanner.reading())
        self.flush()

    def _now(self):
        """The link's time (ms) now: the last step's, and the clock since."""
        clock = self.clock
        if clock is None:
            return self.now
        return (self.now + clock.ticks_diff(clock.ticks_ms(), self._step_ms)) & (link.TIME_WRAP - 1)

    def idle(self, clock, due):
        """Wait for the next scan (due, in ticks_us), reading the host's
        bytes as they arrive and carrying out each line as soon as it is
        whole: the host's answer to a SNAP, some 0.3 ms after it, is lit
        in the wait, not in the next step (on the Pico 1.3 ms later on
        average, 2.5 at most).  A line read past `due` scans on time
        meanwhile (_tick); returns when the next step is due."""
        # The port waits in whole milliseconds, so the last one is polled
        # (13 us a look on the Pico).  The looks that find nothing are
        # bounded, for a clock that does not move (the tests') or a port
        # that does not wait.
        self.clock = clock
        self.due = due
        polls = 2 + clock.ticks_diff(due, clock.ticks_us()) // IDLE_POLL_US
        while self._rx_open and polls > 0:
            left = clock.ticks_diff(self.due, clock.ticks_us())
            if left <= 0:
                return self.due
            if self.serial.wait(left // 1000):
                self._receive()
                self._serve_whole_lines()
            else:
                polls -= 1
        left = clock.ticks_diff(self.due, clock.ticks_us())
        if left > 0:
            clock.sleep_us(left)
        return self.due

    def _serve_whole_lines(self):
        """_serve what was read if it ends a line and holds neither 0x03
        nor STAT: those wait for the step, which stops at 0x03, and whose
        time STEPMAX leaves out when it answered STAT (answered here, the
        answer and its collection made the next scan late, and that step
        the longest)."""
        count = self._rx_count
        rx = self._rx
        if (
            count
            and rx[count - 1] == 0x0A
            and rx.find(_ESCAPE, 0, count) < 0
            and rx.find(_STAT, 0, count) < 0
        ):
            self._serve(self._now())

    def _watch_heap(self):
        free = self._heap()
        if self.heap_free is not None and free > self.heap_free:
            self.collections += 1
        self.heap_free = free
        if self.heap_min is None or free < self.heap_min:
            self.heap_min = free

    def flush(self):
        """Write queued lines while the port takes them; the rest waits."""
        outbox = self.link.outbox
        while outbox:
            if not self.serial.write(outbox[0]):
                break
            outbox.pop(0)

    def extra_counters(self, now):
        pairs = [
            ("SCANS", self.scanner.scans),
            ("OVERRUN", self.overruns),
            ("STEPMAX", self.step_max),
            ("WDT", self.watchdog_resets),
            ("UPTIME", self.uptime_s),
        ]
        if self.heap_free is not None:
            pairs += [
                ("HEAP", self.heap_free),
                ("HEAPMIN", self.heap_min),
                ("GCS", self.collections),
            ]
        return pairs

    def stop(self):
        """Leave the board dark (before handing over to the REPL)."""
        self.strip.show(True)
        if self.status is not None:
            self.status.set(False)
