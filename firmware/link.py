# The device end of the link (PROTOCOL.md, "Link rules"): sequence numbers,
# ACKs and retries, heartbeat snapshots, HELLO, counters, host presence.
#
# No I/O and no clock: the caller passes the time (ms, counting round at
# TIME_WRAP) and takes the lines to write from `outbox`.
#
# The frequent lines are read and written in place (wire.py): a SNAP and its
# ACK every second, the host's palette and frame every few seconds, an LED
# frame after every move.  None of them allocates, so the collector, which
# stops the scan, does not run in play.

import array

import protocol
import wire
from protocol_constants import (
    ACK_TIMEOUT_MS,
    CHECK_DIGITS,
    COUNT_DIGITS,
    EPOCH_DIGITS,
    EPOCH_KEY,
    HEARTBEAT_MS,
    HELLO_INTERVAL_MS,
    LINK_TIMEOUT_MS,
    MAX_LINE,
    MAX_RETRIES,
    NONCE_KEY,
    PALETTE_SIZE,
    PROTOCOL_VERSION,
    REPLAY_WINDOW,
    SNAP_MIN_INTERVAL_MS,
    SPARSE_KEY,
)
from protocol_constants import COUNTER_NAMES as SHARED_COUNTER_NAMES

OUTBOX_MAX = 16
TIME_WRAP = 1 << 29  # ms: the firmware's clock counts round at 6.2 days, so that
# it stays a small int (from 2**30 on, an int is a heap object
# on the Pico, and every step would allocate)

# The counters both ends keep, and the device's own: lines thrown away
# because the port was busy and the outbox full.
COUNTER_NAMES = SHARED_COUNTER_NAMES + ("TXDROP",)

# Commands the device takes; SNAP and COUNTERS go the other way.
_FROM_HOST = ("HELLO", "LED", "PAL", "STAT", "ACK", "NAK")
# The host's lines that set the LEDs: one older than the last carried out is refused.
_STATE = ("LED", "PAL")
# Commands as they stand in a line, after "$NN ".
_ACK_WORD = b"ACK "
_LED_WORD = b"LED "
_LEDS_WORD = b"LEDS"
_PAL_WORD = b"PAL "
_STAT_WORD = b"STAT"
_SNAP_DIGITS_AT = len("$00 SNAP ")
_COUNT_WRAP = 1 << 4 * COUNT_DIGITS
# "*" and the checksum: the end of every line.
_TAIL = 1 + CHECK_DIGITS


class DeviceLink:
    """feed(data, now) returns what the host asked for, as a list of
    (command, value): ("HELLO", hello) when the host (re)started, ("LED",
    frame), ("PAL", colours), ("STAT", None).  A frame is one palette index
    a byte; colours are 15 words 0xRRGGBB, those the host did not give 0.
    The list and the values in it are the link's own, reused by the next
    feed.  poll(now, board) runs the timers.  Lines to write pile up in
    `outbox` (oldest first); some are the link's own buffers, which it
    copies there before it writes one again.

    epoch is this boot's number (hal.next_epoch, counted in the flash): the
    HELLO names it, and every SNAP carries it with its own number in the
    boot, so that the host can tell an old snapshot from a new one across
    restarts, where sequence numbers count round at 256."""

    def __init__(self, shape, info, now, epoch=0):
        self.shape = shape
        self.info = info  # HELLO pairs after P F R L: [("FW", "0.1.0"), ...]
        self.epoch = epoch
        self._nonce = None  # the nonce of the host's last HELLO, which ours repeats
        self.counters = {}
        for name in COUNTER_NAMES:
            self.counters[name] = 0
        self.outbox = []
        self._assembler = protocol.LineAssembler()
        self._seq = 0
        self._rx_last = None  # the host's last sequence number
        self._rx_repeat = None  # the last one judged a repeat
        self._pending = []  # [seq, command, line, sent_at, retries]
        self._last_rx = None  # when a good line last came from the host
        self._hello_acked = False
        self._last_hello = None
        self._last_snap = None
        self.sent_board = bytearray((shape.squares + 7) // 8)  # the last SNAP's (app.py reads it)
        self._snap_now = False
        self._carried_out = None  # the number of the last LED or PAL line carried out
        self._sink = self._frame  # made once: a bound method is an allocation
        self._now = now  # the time of the feed being read
        self._requests = []
        # What a line read in place decoded to (its command, and for an ACK its
        # reference), and where LED and PAL values are decoded before they are
        # known to be new; the requests hand out the second buffer of each.
        self._command = None
        self._reference = 0
        self._frame_in = bytearray(shape.leds)
        self._colours_in = array.array("I", [0] * PALETTE_SIZE)
        self._led_request = ("LED", bytearray(shape.leds))
        self._pal_request = ("PAL", array.array("I", [0] * PALETTE_SIZE))
        self._stat_request = ("STAT", None)
        # The lines sent most: made once, numbered and checked in place.
        self._ack_line = bytearray(protocol.encode(0, "ACK", 0, shape))
        self._snap_line = bytearray(protocol.encode(0, "SNAP", (0, epoch, 0), shape))
        self._count_at = _SNAP_DIGITS_AT + shape.snap_digits + 1 + EPOCH_DIGITS
        self._snap_count = 0  # snapshots sent in this boot
        self._hello_line = None  # made at the first HELLO
        # True once the link has allocated (a line read or written the slow
        # way, the counters, a HELLO): the firmware then collects the garbage.
        self.garbage = False
        self._entries = {}  # {command: its pending entry, reused}

    # -- state

    def host_present(self, now):
        return self._last_rx is not None and age(now, self._last_rx) < LINK_TIMEOUT_MS

    # -- receiving

    def feed(self, data, now, count=None):
        """What the host asked for in data (bytes, or the first `count`
        bytes of a buffer)."""
        if count is None:
            count = len(data)
        if not count:
            return ()  # the usual step
        requests = self._requests
        requests.clear()
        self._now = now
        self._assembler.feed(data, count, self._sink)
        return requests

    def _frame(self, line, size, reason):
        """The assembler's sink: one frame in line[0:size], or a drop reason."""
        if line is None:
            self.counters[reason] += 1
            return
        seq = self._read_in_place(line, size)
        if seq >= 0:
            self._receive(seq, self._command, None, self._now)
            return
        self.garbage = True  # what follows allocates
        try:
            seq, command, value = protocol.decode(bytes(line[:size]), self.shape)
        except protocol.ProtocolError as error:
            self.counters[error.reason] += 1
            if error.nak is not None:
                if error.reason != protocol.CRC:  # the checksum held: it is the host
                    self._heard(error.nak, self._now, error.reason == protocol.VER)
                self._send("NAK", (error.nak, error.reason), self._now)
            return
        if command == "LED" or command == "LEDS":  # one frame, two spellings
            command = "LED"
            wire.copy(value, 0, len(value), self._frame_in, 0)
        elif command == "PAL":
            colours = self._colours_in
            for i in range(PALETTE_SIZE):
                r, g, b = value[i] if i < len(value) else (0, 0, 0)
                colours[i] = (r << 16) | (g << 8) | b
        elif command == "ACK":
            self._reference = value
        self._receive(seq, command, value, self._now)

    def _read_in_place(self, line, size):
        """The number of an ACK, LED, LEDS, PAL or STAT line that is whole and
        whose checksum holds, its command in _command and its value decoded
        (into _reference, _frame_in or _colours_in); -1 for any other line,
        which protocol.decode then reads, or refuses with its reason."""
        seq = wire.frame_seq(line, size)
        if seq < 0:
            return -1
        star = size - _TAIL
        if wire.same(line, 4, _ACK_WORD, 4):
            self._reference = wire.hex_value(line, 8, 2)
            if star != 10 or self._reference < 0:
                return -1
            self._command = "ACK"
        elif wire.same(line, 4, _LED_WORD, 4):
            if star != 8 + self.shape.leds or not wire.nibbles(line, 8, star - 8, self._frame_in):
                return -1
            self._command = "LED"
        elif wire.same(line, 4, _LEDS_WORD, 4):
            # Nothing (all off), or a space and three digits a lit LED:
            # the same frame as LED's, decoded into the same buffer.
            count = (star - 9) // 3
            if star == 8:
                count = 0
            elif count < 1 or star != 9 + 3 * count or line[8] != 0x20:
                return -1
            if not wire.sparse(line, 9, count, self._frame_in, self.shape.leds):
                return -1
            self._command = "LED"
        elif wire.same(line, 4, _PAL_WORD, 3):
            # " RRGGBB" per colour, 1 to 15 of them.
            count = (star - 7) // 7
            if (
                star != 7 + 7 * count
                or not 1 <= count <= PALETTE_SIZE
                or not wire.colours(line, 7, count, self._colours_in, PALETTE_SIZE)
            ):
                return -1
            self._command = "PAL"
        elif wire.same(line, 4, _STAT_WORD, 4) and star == 8:
            self._command = "STAT"
        else:
            return -1
        return seq

    def _receive(self, seq, command, value, now):
        """A line whose checksum held.  value: HELLO's and NAK's; the others
        are in _reference, _frame_in and _colours_in."""
        requests = self._requests
        if command not in _FROM_HOST:
            self.counters["CMD"] += 1
            self._heard(seq, now, False)
            self._send("NAK", (seq, protocol.CMD), now)
            return
        self.counters["RX"] += 1
        fresh = self._heard(seq, now, command == "HELLO")
        if fresh and command in _STATE:
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
            entry = self._take(self._reference)
            if entry is None:
                self.counters["STALE"] += 1
            elif entry[1] == "HELLO":
                self._hello_acked = True
            return
        if command == "NAK":
            self.counters["NAKRX"] += 1
            self._nak(value[0], value[1], now)
            return
        # A repeat (its ACK was lost) or an older line is acknowledged
        # again, never carried out again, so a late LED frame cannot
        # replace a newer one.
        self._send_ack(seq)
        if not fresh:
            return
        if command == "HELLO":
            # The host (re)started: announce ourselves and the board again,
            # repeating its nonce, so that the host knows the answer is ours.
            self._hello_acked = False
            nonce = None
            for key, text in value[4]:
                if key == NONCE_KEY:
                    nonce = text
            if nonce != self._nonce:
                self._nonce = nonce
                self._hello_line = None
            self._send_hello(now)
            self._snap_now = True
            requests.append((command, value))
        elif command == "LED":
            self._hand_out(self._led_request, self._frame_in)
        elif command == "PAL":
            self._hand_out(self._pal_request, self._colours_in)
        else:
            requests.append(self._stat_request)

    def _hand_out(self, request, decoded):
        """Put a decoded LED frame or palette into its request.  A second
        one in the same feed (rare) leaves the first its own copy."""
        requests = self._requests
        held = request[1]
        for i in range(len(requests)):
            if requests[i] is request:
                self.garbage = True
                requests[i] = (request[0], held[:])
        if request is self._led_request:
            wire.copy(decoded, 0, len(held), held, 0)
        else:
            for i in range(len(held)):
                held[i] = decoded[i]
        requests.append(request)

    def _heard(self, seq, now, restart):
        """A line whose checksum held: False if its number does not advance."""
        self._last_rx = now
        if restart or self._rx_last is None:
            self._rx_last = seq
            self._rx_repeat = None
            self._carried_out = None  # a new numbering
            return True
        gap = (seq - self._rx_last - 1) & 0xFF
        if gap >= 128:  # the last one again, or older: a repeat
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

    def _next_seq(self):
        seq = self._seq
        self._seq = (seq + 1) & 0xFF
        return seq

    def _send(self, command, value, now, line=None):
        """Send a line: encoded from value, or `line`, one of the link's
        buffers, numbered here."""
        seq = self._next_seq()
        if line is None:
            self.garbage = True
            line = protocol.encode(seq, command, value, self.shape)
        else:
            self._unshare(line)
            wire.renumber(line, len(line), seq)
        if command != "NAK":
            entry = None
            if command != "COUNTERS":  # newest wins
                entry = self._entries.get(command)
                for old in self._pending:
                    if old[1] == command:
                        self._pending.remove(old)
                        break
            if entry is None:
                entry = [seq, command, line, now, 0]
                if command != "COUNTERS":
                    self._entries[command] = entry
            else:
                entry[0] = seq
                entry[2] = line
                entry[3] = now
                entry[4] = 0
            self._pending.append(entry)
        self._queue(line)

    def _send_ack(self, ref):
        line = self._ack_line
        if self.outbox:
            self._unshare(line)
        wire.put_hex(line, 8, ref, 2)
        wire.renumber(line, len(line), self._next_seq())
        self._queue(line)

    def _unshare(self, line):
        """Before one of the link's buffers is written again: a copy of it
        for the outbox if it still waits there (the port was full)."""
        outbox = self.outbox
        for i in range(len(outbox)):
            if outbox[i] is line:
                outbox[i] = bytes(line)

    def _queue(self, line):
        self.counters["TX"] += 1
        self.outbox.append(line)
        if len(self.outbox) > OUTBOX_MAX:
            self.outbox.pop(0)
            self.counters["TXDROP"] += 1

    def _send_hello(self, now):
        self._last_hello = now
        if self._hello_line is None:
            self.garbage = True
            shape = self.shape
            # S=1: this firmware takes LEDS, the sparse LED frame.
            info = shape.hello_info() + [(EPOCH_KEY, "%04X" % self.epoch), (SPARSE_KEY, "1")]
            info.extend(self.info)
            if self._nonce is not None:
                info.append((NONCE_KEY, self._nonce))
            hello = (PROTOCOL_VERSION, shape.files, shape.ranks, shape.leds, info)
            self._hello_line = bytearray(protocol.encode(0, "HELLO", hello, shape))
        self._send("HELLO", None, now, self._hello_line)

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
        empty = len("$00 COUNTERS*") + CHECK_DIGITS
        batch = []
        size = empty
        for name, number in pairs:
            token = len(name) + len(str(number)) + 2
            if batch and size + token > MAX_LINE:
                self._send("COUNTERS", batch, now)
                batch = []
                size = empty
            batch.append((name, number))
            size += token
        self._send("COUNTERS", batch, now)

    def poll(self, now, board):
        """Timers: HELLO until acknowledged, snapshots on change and as a
        heartbeat, retries.  board: the scanner's bit string (bit sq is bit
        sq % 8 of byte sq // 8), None until the scanner has settled."""
        if self._last_rx is not None and not self.host_present(now):
            self._last_rx = None  # the host is gone: start afresh
            self._rx_last = None
        if not self._hello_acked and (
            self._last_hello is None or age(now, self._last_hello) >= HELLO_INTERVAL_MS
        ):
            self._send_hello(now)
        if board is not None:
            since = None if self._last_snap is None else age(now, self._last_snap)
            changed = board != self.sent_board
            if (
                self._snap_now
                or since is None
                or since >= HEARTBEAT_MS
                or (changed and since >= SNAP_MIN_INTERVAL_MS)
            ):
                self._snap_now = False
                self._last_snap = now
                line = self._snap_line
                self._unshare(line)
                if changed:
                    wire.put_bits_hex(board, self.shape.snap_digits, line, _SNAP_DIGITS_AT)
                    wire.copy(board, 0, len(board), self.sent_board, 0)
                # Each snapshot its own number (a retry repeats the line as it is).
                self._snap_count = (self._snap_count + 1) % _COUNT_WRAP
                wire.put_hex(line, self._count_at, self._snap_count, COUNT_DIGITS)
                self._send("SNAP", None, now, line)
        pending = self._pending
        for i in range(len(pending) - 1, -1, -1):  # backwards: a retry may remove it
            entry = pending[i]
            # HELLO is not retried: it is repeated above until acknowledged.
            if entry[1] != "HELLO" and age(now, entry[3]) >= ACK_TIMEOUT_MS:
                self._retry(entry, now)


def age(now, then):
    """Milliseconds from then to now on the clock that counts round at
    TIME_WRAP (right for anything younger than 6.2 days)."""
    return (now - then) & (TIME_WRAP - 1)
