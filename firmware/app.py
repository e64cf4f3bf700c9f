# One step of the firmware: scan, talk, light.  No hardware here: the
# scanner's reader, the LED output, the serial port and the time are passed
# in (hal.py on the Pico, fakes in the tests).

FIRMWARE_VERSION = "0.1.0"
SCAN_PERIOD_US = 2500         # 400 scans a second (the issue asks for at least 200)
DEBOUNCE_READS = 4            # a square changes after 4 equal reads: 7.5-10 ms
READ_LIMIT = 64               # bytes taken from the host per step: some 2.5 ms on the Pico,
                              # so the host's 260-byte LED refresh spreads over five scans
STATUS_BLINK_MS = 500
REPL_ESCAPE = 0x03            # never sent by a host; a developer's Ctrl-C or mpremote
_ESCAPE = bytes([REPL_ESCAPE])  # made once: a step that allocates sets off the collector


class Firmware:
    """step(now) scans once, reads what the host sent, answers and lights the
    LEDs.  It returns False when the host sent byte 0x03: the caller then
    stops and returns to the REPL.  A step in which nothing happens
    allocates nothing: on the Pico every allocation brings the next garbage
    collection closer, and a collection stops the scan for milliseconds."""

    def __init__(self, scanner, strip, serial, link, status=None):
        self.scanner = scanner
        self.strip = strip
        self.serial = serial
        self.link = link
        self.status = status
        self.overruns = 0             # counted by the caller's loop
        self.step_max = 0             # the caller's too: the longest step since STAT, us
        self._step_max_sent = False   # ... cleared after the step that sent it
        self.now = 0                  # the time of the last step, ms

    def step(self, now):
        self.now = now
        if self._step_max_sent:       # not before: the answer itself is a long step
            self._step_max_sent = False
            self.step_max = 0
        self.scanner.scan()           # the link compares occupancies itself
        data = self.serial.read(READ_LIMIT, REPL_ESCAPE)
        escape = data.find(_ESCAPE) if data else -1
        if escape >= 0:
            data = data[:escape]
        for command, value in self.link.feed(data, now):
            if command == "HELLO":
                self.strip.reset()
            elif command == "LED":
                self.strip.set_frame(value)
            elif command == "PAL":
                self.strip.set_palette(value)
            elif command == "STAT":
                self.link.send_counters(self.extra_counters(now), now)
                self._step_max_sent = True
        self.link.poll(now, self.scanner.occupancy())
        self.flush()
        present = self.link.host_present(now)
        self.strip.show(not present)
        if self.status is not None:
            self.status.set(present or (now // STATUS_BLINK_MS) % 2 == 0)
        return escape < 0

    def flush(self):
        """Write queued lines while the port takes them; the rest waits."""
        outbox = self.link.outbox
        while outbox:
            if not self.serial.write(outbox[0]):
                break
            outbox.pop(0)

    def extra_counters(self, now):
        return [("SCANS", self.scanner.scans), ("OVERRUN", self.overruns),
                ("STEPMAX", self.step_max), ("UPTIME", self.link.uptime_s(now))]

    def stop(self):
        """Leave the board dark (before handing over to the REPL)."""
        self.strip.show(True)
        if self.status is not None:
            self.status.set(False)
