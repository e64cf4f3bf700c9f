# The device end of the link (PROTOCOL.md, "Link rules"): sequence numbers,
# ACKs and retries, heartbeat snapshots, HELLO, counters, host presence.
#
# No I/O and no clock: the caller passes the time (ms, a count that only
# grows) and takes the lines to write from `outbox`.

import protocol

HEARTBEAT_MS = 1000
SNAP_MIN_INTERVAL_MS = 20
ACK_TIMEOUT_MS = 250
MAX_RETRIES = 3
LINK_TIMEOUT_MS = 3000
HELLO_INTERVAL_MS = 1000
OUTBOX_MAX = 16
REPLAY_WINDOW = 32            # lines before the last carried out that are taken as old

COUNTER_NAMES = (
    "RX", "TX", "NOISE", "TRUNC", "LONG", "CHAR", "FORMAT", "CRC", "CMD", "ARG", "VER",
    "DUP", "LOST", "RETRY", "GIVEUP", "NAKRX", "STALE", "TXDROP",
)

# Commands the device takes; SNAP and COUNTERS go the other way.
_FROM_HOST = ("HELLO", "LED", "PAL", "STAT", "ACK", "NAK")
# The host's lines worth remembering, so that a repeat is not decoded again.
_REMEMBERED = ("LED", "PAL")


class DeviceLink:
    """feed(data, now) returns what the host asked for, as a list of
    (command, value): ("HELLO", hello) when the host (re)started, ("LED",
    frame), ("PAL", colours), ("STAT", None).  poll(now, occupancy) runs
    the timers.  Lines to write pile up in `outbox` (oldest first)."""

    def __init__(self, shape, info, now):
        self.shape = shape
        self.info = info                    # HELLO pairs after P F R L: [("FW", "0.1.0"), ...]
        self.counters = {}
        for name in COUNTER_NAMES:
            self.counters[name] = 0
        self.outbox = []
        self._assembler = protocol.LineAssembler()
        self._seq = 0
        self._rx_last = None                # the host's last sequence number
        self._rx_repeat = None              # the last one judged a repeat
        self._pending = []                  # [seq, command, line, sent_at, retries]
        self._last_rx = None                # when a good line last came from the host
        self._hello_acked = False
        self._last_hello = None
        self._last_snap = None
        self._sent_occupancy = None
        self._snap_now = False
        self._started = now
        self._known = {}                    # {command: (arguments text, value)}
        self._carried_out = None            # the number of the last LED or PAL line carried out

    # -- state

    def host_present(self, now):
        return self._last_rx is not None and now - self._last_rx < LINK_TIMEOUT_MS

    # -- receiving

    def feed(self, data, now):
        if not data:
            return ()                       # the usual step: no allocation
        requests = []
        for item in self._assembler.feed(data):
            if isinstance(item, str):
                self.counters[item] += 1
            else:
                self._receive(item, now, requests)
        return requests

    def _receive(self, raw, now, requests):
        try:
            seq, command, value = protocol.decode(raw, self.shape, self._known)
        except protocol.ProtocolError as error:
            self.counters[error.reason] += 1
            if error.nak is not None:
                if error.reason != protocol.CRC:    # the checksum held: it is the host
                    self._heard(error.nak, now, error.reason == protocol.VER)
                self._send("NAK", (error.nak, error.reason), now)
            return
        if command not in _FROM_HOST:
            self.counters["CMD"] += 1
            self._heard(seq, now, False)
            self._send("NAK", (seq, protocol.CMD), now)
            return
        self.counters["RX"] += 1
        if command in _REMEMBERED:
            star = raw.find(b"*")
            self._known[command] = (raw[5 + len(command):star].decode(), value)
        fresh = self._heard(seq, now, command == "HELLO")
        if fresh and command in _REMEMBERED:
            # Numbered at or before the last frame carried out: older than
            # it, however the count was re-anchored (a replayed run of old
            # lines re-anchors it), so an old frame never comes back.
            # Only REPLAY_WINDOW back: further is a count gone astray, which
            # re-anchoring repairs, and refusing it would leave the LEDs deaf.
            last = self._carried_out
            if last is not None and ((last - seq) & 0xFF) < REPLAY_WINDOW:
                self.counters["DUP"] += 1
                fresh = False
            else:
                self._carried_out = seq
        if command == "ACK":
            entry = self._take(value)
            if entry is None:
                self.counters["STALE"] += 1
            elif entry[1] == "HELLO":
                self._hello_acked = True
        elif command == "NAK":
            self.counters["NAKRX"] += 1
            self._nak(value[0], value[1], now)
        elif not fresh:
            # A repeat (its ACK was lost) or an older line: acknowledged
            # again, never carried out again, so a late LED frame cannot
            # replace a newer one.
            self._send("ACK", seq, now)
        else:
            self._send("ACK", seq, now)
            if command == "HELLO":
                # The host (re)started: announce ourselves and the board again.
                self._hello_acked = False
                self._send_hello(now)
                self._snap_now = True
            requests.append((command, value))

    def _heard(self, seq, now, restart):
        """A line whose checksum held: False if its number does not advance."""
        self._last_rx = now
        if restart or self._rx_last is None:
            self._rx_last = seq
            self._rx_repeat = None
            self._carried_out = None            # a new numbering
            return True
        gap = (seq - self._rx_last - 1) & 0xFF
        if gap >= 128:                            # the last one again, or older: a repeat
            # ... unless it follows the last repeat: two in a row numbered
            # one after the other mean a stray line derailed the count.
            chained = self._rx_repeat is not None and seq == (self._rx_repeat + 1) & 0xFF
            self._rx_repeat = seq
            if not chained:
                self.counters["DUP"] += 1
                return False
            gap = 1
        self._rx_repeat = None
        self.counters["LOST"] += gap
        self._rx_last = seq
        return True

    def _nak(self, ref, reason, now):
        for entry in self._pending:
            if entry[0] == ref:
                if reason == protocol.CRC and entry[1] != "HELLO":
                    self._retry(entry, now)
                else:
                    self._pending.remove(entry)
                return
        self.counters["STALE"] += 1

    def _take(self, seq):
        for entry in self._pending:
            if entry[0] == seq:
                self._pending.remove(entry)
                return entry
        return None

    # -- sending

    def _send(self, command, value, now):
        seq = self._seq
        self._seq = (seq + 1) & 0xFF
        line = protocol.encode(seq, command, value, self.shape)
        if command != "ACK" and command != "NAK":
            if command != "COUNTERS":             # newest wins
                for entry in self._pending:
                    if entry[1] == command:
                        self._pending.remove(entry)
                        break
            self._pending.append([seq, command, line, now, 0])
        self._queue(line)

    def _queue(self, line):
        self.counters["TX"] += 1
        self.outbox.append(line)
        if len(self.outbox) > OUTBOX_MAX:
            self.outbox.pop(0)
            self.counters["TXDROP"] += 1

    def _send_hello(self, now):
        self._last_hello = now
        shape = self.shape
        hello = (protocol.VERSION, shape.files, shape.ranks, shape.leds,
                 shape.hello_info() + list(self.info))
        self._send("HELLO", hello, now)

    def _retry(self, entry, now):
        if entry[4] >= MAX_RETRIES or not self.host_present(now):
            self._pending.remove(entry)
            self.counters["GIVEUP"] += 1
            return
        entry[4] += 1
        entry[3] = now
        self.counters["RETRY"] += 1
        self._queue(entry[2])

    def send_counters(self, extra, now):
        """Answer STAT: every counter, plus the caller's (name, value) pairs,
        in as many COUNTERS lines as it takes."""
        pairs = [(name, self.counters[name]) for name in COUNTER_NAMES] + list(extra)
        empty = len("$00 COUNTERS*") + protocol.CHECK_DIGITS
        batch = []
        size = empty
        for name, number in pairs:
            token = len(name) + len(str(number)) + 2
            if batch and size + token > protocol.MAX_LINE:
                self._send("COUNTERS", batch, now)
                batch = []
                size = empty
            batch.append((name, number))
            size += token
        self._send("COUNTERS", batch, now)

    def poll(self, now, occupancy):
        """Timers: HELLO until acknowledged, snapshots on change and as a
        heartbeat, retries.  occupancy is None until the scanner has settled."""
        if self._last_rx is not None and not self.host_present(now):
            self._last_rx = None                  # the host is gone: start afresh
            self._rx_last = None
        if not self._hello_acked and (
                self._last_hello is None or now - self._last_hello >= HELLO_INTERVAL_MS):
            self._send_hello(now)
        if occupancy is not None:
            since = None if self._last_snap is None else now - self._last_snap
            changed = occupancy != self._sent_occupancy
            if (self._snap_now or since is None or since >= HEARTBEAT_MS
                    or (changed and since >= SNAP_MIN_INTERVAL_MS)):
                self._snap_now = False
                self._last_snap = now
                self._sent_occupancy = occupancy
                self._send("SNAP", occupancy, now)
        pending = self._pending
        for i in range(len(pending) - 1, -1, -1):     # backwards: a retry may remove it
            entry = pending[i]
            # HELLO is not retried: it is repeated above until acknowledged.
            if entry[1] != "HELLO" and now - entry[3] >= ACK_TIMEOUT_MS:
                self._retry(entry, now)

    def uptime_s(self, now):
        return (now - self._started) // 1000
