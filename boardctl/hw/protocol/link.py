"""The host end of the link: a state machine, ``feed(event, now) -> actions``.

:class:`HostLink` turns what happens (:mod:`.events`: bytes read from the
port, time passing, a frame to show) into what to do (bytes to write,
snapshots to pass on, state changes to show), by the link rules of
``firmware/PROTOCOL.md``: HELLO until the device answers, ACK and bounded
retries, the heartbeat's timeout, the LED refresh, and the snapshot held
when it jumps further than a hand can move or follows missing lines, until
the next one confirms it.  ``now`` is in seconds from any monotonic clock;
the link does no I/O and reads no clock.

Example::

    link = HostLink(BoardShape(files=10, ranks=8, leds=80))
    for action in link.feed(Tick(), now=0.0):
        if isinstance(action, Send):
            port.write(action.data)     # b"$00 HELLO P=3 SW=boardctl-0.1.0 N=8F3A61C2*980272B8\\n"
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ... import __version__
from ...colour import Colour
from .acceptance import HOST_COUNTER_NAMES, SeqTracker, SnapshotGate
from .codec import LineAssembler, ProtocolError, decode, encode, is_value, shorter_led
from .constants import (
    ACK_TIMEOUT,
    COUNTER_NAMES,
    DEFAULT_PALETTE,
    HELLO_INTERVAL,
    LINK_TIMEOUT,
    MAX_RETRIES,
    NONCE_DIGITS,
    NONCE_KEY,
    PROTOCOL_VERSION,
    SEQ_MODULO,
    DropReason,
    NakReason,
)
from .events import (
    Action,
    DeviceCounters,
    Event,
    LinkState,
    Received,
    Reopened,
    RequestCounters,
    Send,
    SetPalette,
    ShowLeds,
    SnapshotReceived,
    StateChanged,
    Tick,
)
from .messages import (
    DEFAULT_SHAPE,
    Ack,
    BoardShape,
    Counters,
    Frame,
    Hello,
    Led,
    Message,
    Nak,
    Palette,
    Snap,
    Stat,
    epoch_after,
)

LED_REFRESH = 5.0  # seconds: the host repeats palette and LED frame this often
_FROM_DEVICE = (Hello, Snap, Counters, Ack, Nak)  # LED, PAL and STAT go the other way


def version_mismatch(version: int | None) -> str:
    """The one line that says which side to update when the versions differ."""
    if version is None:
        return "the board's firmware refused this boardctl's protocol version"
    fix = (
        "install the firmware from this boardctl's firmware/ directory (firmware/README.md)"
        if version < PROTOCOL_VERSION
        else "update boardctl"
    )
    return (
        f"the board's firmware speaks protocol version {version}, this boardctl "
        f"speaks {PROTOCOL_VERSION}: {fix}"
    )


@dataclass
class _Pending:
    """A sent line waiting for its ACK."""

    seq: int
    kind: type
    line: bytes
    sent: float
    retries: int = 0


class HostLink:
    """The host end of the link (PROTOCOL.md, "Link rules").

    Feed it every event with the current time (seconds, any monotonic
    clock); carry out the actions it returns, in order.  It never blocks,
    never reads a clock, and never raises for anything the device sends:
    bad input is dropped and counted in :attr:`counters`.

    ``shape`` is the board the configuration expects; a device that
    announces another one makes the link :attr:`LinkState.INCOMPATIBLE`.
    ``nonces`` numbers the host's HELLOs (PROTOCOL.md 4.1): by default from
    a random start, so that no HELLO of an earlier run is taken for an
    answer to this one's.
    """

    def __init__(
        self,
        shape: BoardShape = DEFAULT_SHAPE,
        software: str = f"boardctl-{__version__}",
        nonces: Iterator[int] | None = None,
    ) -> None:
        if not is_value(software):
            raise ValueError(f"software name {software!r} is not a HELLO value")
        self.shape = shape
        self.software = software
        self._state = LinkState.CONNECTING
        self._device: Hello | None = None
        self._counters = dict.fromkeys(COUNTER_NAMES + HOST_COUNTER_NAMES, 0)
        self._assembler = LineAssembler()
        self._tracker = SeqTracker()
        self._seq = 0
        self._pending: list[_Pending] = []
        self._last_rx: float | None = None
        self._last_hello: float | None = None
        self._last_refresh: float | None = None
        self._leds: tuple[int, ...] = (0,) * shape.leds
        self._palette: tuple[Colour, ...] = DEFAULT_PALETTE
        self._sent_leds: tuple[int, ...] | None = None
        self._sent_palette: tuple[Colour, ...] | None = None
        self._gate = SnapshotGate(self._counters)
        # The device answers a host HELLO with its own, which repeats the
        # host HELLO's nonce (PROTOCOL.md 4.1 and 7.2): the answer is no
        # restart, and it is the device as it is now, whatever boot it names.
        # The nonces of our recent HELLOs, and when each was sent.
        self._nonces = nonces if nonces is not None else _random_nonces()
        self._sent_nonces: dict[str, float] = {}
        self._hello_seqs: dict[int, float] = {}  # their lines' numbers -> when sent
        # The device's boot, as its last believed HELLO named it: a HELLO of
        # an older boot that answers none of ours is a late copy, and kept
        # across a reopened port, since lines from before may still come.
        self._epoch: int | None = None
        # The link is incompatible because of a version-1 HELLO (a peer that
        # cannot read a NAK): a line of this version after it undoes that.
        self._version_1 = False
        self.answered = False  # the last device HELLO answered one of ours

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def healthy(self) -> bool:
        """True while snapshots flow."""
        return self._state is LinkState.UP

    @property
    def device(self) -> Hello | None:
        """The device's last HELLO."""
        return self._device

    @property
    def behind(self) -> bool:
        """True while the last snapshot passed on may no longer be the board:
        one is held for confirmation, or a line went missing or arrived
        damaged since (it may have been a SNAP).  The next snapshot passed
        on settles it, a heartbeat at the latest."""
        return self._state is not LinkState.UP or self._gate.held is not None or self._gate.doubt

    @property
    def counters(self) -> Mapping[str, int]:
        """This end's counters, named as in the device's COUNTERS."""
        return dict(self._counters)

    def feed(self, event: Event, now: float) -> list[Action]:
        """Handle one event; return what to do, in order.

        :raises ValueError: for an LED frame or palette that does not fit the board.
        """
        actions: list[Action] = []
        match event:
            case Received(data):
                for item in self._assembler.feed(data):
                    if isinstance(item, DropReason):
                        self._counters[item.value] += 1
                        self._gate.doubt = True
                    else:
                        self._receive(item, now, actions)
            case ShowLeds(indices):
                encode(Frame(0, Led(tuple(indices))), self.shape)  # validates
                self._leds = tuple(indices)
                if self._state is LinkState.UP and self._leds != self._sent_leds:
                    self._send_leds(now, actions)
            case SetPalette(colours):
                encode(Frame(0, Palette(tuple(colours))), self.shape)  # validates
                self._palette = tuple(colours)
                if self._state is LinkState.UP and self._palette != self._sent_palette:
                    self._send_palette(now, actions)
            case RequestCounters():
                if self._state is LinkState.UP:
                    self._send(Stat(), now, actions)
            case Reopened():
                self._pending.clear()
                self._assembler = LineAssembler()
                self._tracker = SeqTracker()
                self._gate.held = None
                self._last_rx = None
                self._set_state(LinkState.CONNECTING, "port reopened", actions)
                self._last_hello = None
            case Tick():
                pass
        self._service(now, actions)
        return actions

    # -- receiving

    def _refused(self, error: ProtocolError, now: float, actions: list[Action]) -> None:
        """A line that did not decode: counted, and answered if it can be."""
        self._counters[error.reason.value] += 1
        self._gate.doubt = True
        if error.nak is not None:
            if error.reason is not DropReason.CRC:  # the checksum held: it is them
                self._heard(error.nak, now, error.reason is DropReason.VER)
            self._send(Nak(error.nak, NakReason[error.reason.value]), now, actions)
        if error.reason is DropReason.VER:
            self._last_rx = now  # a sign of life all the same
            self._device = None
            self._version_1 = error.nak is None  # a version-1 frame
            self._set_state(LinkState.INCOMPATIBLE, version_mismatch(error.version), actions)

    def _receive(self, raw: bytes, now: float, actions: list[Action]) -> None:
        try:
            frame = decode(raw, self.shape)
        except ProtocolError as error:
            self._refused(error, now, actions)
            return
        if self._version_1 and self._state is LinkState.INCOMPATIBLE:
            # A line of this version after a version-1 HELLO: that HELLO was
            # a damaged line whose 8-bit check held, or the board has since
            # been flashed.  Ask the device to introduce itself again, rather
            # than refuse its snapshots until the port is opened again.
            self._set_state(LinkState.CONNECTING, "the board speaks this version", actions)
        self._version_1 = False
        message = frame.message
        if not isinstance(message, _FROM_DEVICE):  # LED, PAL, STAT go the other way
            self._counters["CMD"] += 1
            self._heard(frame.seq, now)
            self._send(Nak(frame.seq, NakReason.CMD), now, actions)
            return
        self._counters["RX"] += 1
        believed = isinstance(message, Hello) and self._believe(message, now)
        gap = self._heard(frame.seq, now, believed)
        match message:
            case Ack(ref):
                # The ACK of one of our HELLOs comes after it left the pending
                # lines (the device's answer brought the link up): not stale.
                hello = self._hello_seqs.pop(ref, None)
                if self._take(ref) is None and hello is None:
                    self._counters["STALE"] += 1
            case Nak(ref, reason):
                self._counters["NAKRX"] += 1
                self._nak(ref, reason, now, actions)
            case Hello():
                self._send(Ack(frame.seq), now, actions)
                if believed:
                    self._hello(message, now, actions)
                else:
                    self._stale_hello(message, now, actions)
            case Snap(occupancy, stamp) if stamp is not None:
                self._send(Ack(frame.seq), now, actions)
                if self._epoch is not None and epoch_after(stamp.epoch, self._epoch):
                    # A later boot whose HELLO the host missed (a late ACK of
                    # an old line can stop the device repeating it): ask.
                    self._ask(now, actions)
                if (
                    self._state is LinkState.UP
                    and gap is not None
                    and self._gate.offer(frame.seq, occupancy, stamp, gap, now, self._tracker)
                ):
                    actions.append(SnapshotReceived(occupancy, now))
            case Counters(values):
                self._send(Ack(frame.seq), now, actions)
                actions.append(DeviceCounters(values))

    def _heard(self, seq: int, now: float, restart: bool = False) -> int | None:
        """A line with a good checksum came in; a HELLO restarts the count.
        The number of lines missing before it, or None for a repeat."""
        self._last_rx = now
        if restart:
            self._tracker = SeqTracker(seq)
            return 0
        gap = self._tracker.see(seq, self._counters)
        if gap:
            self._gate.doubt = True
        return gap

    def _answers_us(self, hello: Hello, now: float) -> bool:
        """True if the device's HELLO repeats the nonce of a recent HELLO of ours."""
        sent = self._sent_nonces.get(hello.nonce or "")
        return sent is not None and now - sent < LINK_TIMEOUT

    def _believe(self, hello: Hello, now: float) -> bool:
        """True if a device HELLO is the device as it is now: an answer to one
        of our HELLOs, or the first of a boot after the one the host knows.
        Another HELLO of the boot the host knows (a repeat whose ACK was
        lost, or a copy) starts nothing; one of an older boot is a late
        copy from before a restart, whose old snapshots may follow it."""
        epoch = hello.epoch
        return (
            self._answers_us(hello, now)
            or epoch is None  # no boot: _hello says what is wrong
            or self._epoch is None
            or epoch_after(epoch, self._epoch)
        )

    def _stale_hello(self, hello: Hello, now: float, actions: list[Action]) -> None:
        """A device HELLO not believed: a late copy of an older boot's is
        counted, and the host says HELLO (once a second at most), in case the
        device really counts its boots from further back now (its flash
        erased): its answer, repeating our nonce, is believed."""
        if hello.epoch == self._epoch:
            return
        self._counters["OLDHELLO"] += 1
        self._ask(now, actions)

    def _ask(self, now: float, actions: list[Action]) -> None:
        """Say HELLO, once a second at most: the device answers with its own."""
        if self._last_hello is None or now - self._last_hello >= HELLO_INTERVAL:
            self._say_hello(now, actions)

    def _hello(self, hello: Hello, now: float, actions: list[Action]) -> None:
        self.answered = self._answers_us(hello, now)
        self._gate.recheck = self._state is LinkState.UP and not self.answered
        self._device = hello
        self._gate.held = None
        shape = hello.shape()
        if shape != self.shape:
            self._set_state(
                LinkState.INCOMPATIBLE,
                f"the board is {hello.describe_board()}, but the game needs "
                f"{self.shape.describe()}",
                actions,
            )
            return
        epoch = hello.epoch
        if epoch is None:
            self._set_state(
                LinkState.INCOMPATIBLE,
                "the board's firmware names no boot (HELLO without E): install the "
                "firmware from this boardctl's firmware/ directory (firmware/README.md)",
                actions,
            )
            return
        self._epoch = epoch
        self._gate.start_boot(epoch)
        self._set_state(LinkState.UP, f"device firmware {dict(hello.info).get('FW', '?')}", actions)
        # The device starts every session dark with its default palette.
        self._send_palette(now, actions)
        self._send_leds(now, actions)

    def _nak(self, ref: int, reason: NakReason, now: float, actions: list[Action]) -> None:
        pending = next((p for p in self._pending if p.seq == ref), None)
        if pending is None:
            self._counters["STALE"] += 1
        elif reason is NakReason.CRC and pending.kind is not Hello:
            self._retry(pending, now, actions)
        else:
            self._pending.remove(pending)
            if reason is NakReason.VER:
                self._set_state(LinkState.INCOMPATIBLE, version_mismatch(None), actions)

    # -- sending

    def _send(self, message: Message, now: float, actions: list[Action]) -> None:
        seq = self._seq
        self._seq = (seq + 1) % SEQ_MODULO
        line = encode(Frame(seq, message), self.shape)
        if not isinstance(message, Ack | Nak):
            kind = type(message)
            self._pending = [p for p in self._pending if p.kind is not kind]  # newest wins
            self._pending.append(_Pending(seq, kind, line, now))
        self._counters["TX"] += 1
        actions.append(Send(line))

    def _send_leds(self, now: float, actions: list[Action]) -> None:
        self._sent_leds = self._leds
        self._last_refresh = now
        sparse = self._device is not None and self._device.sparse
        self._send(shorter_led(self._leds, sparse), now, actions)

    def _send_palette(self, now: float, actions: list[Action]) -> None:
        self._sent_palette = self._palette
        self._send(Palette(self._palette), now, actions)

    def _take(self, seq: int) -> _Pending | None:
        for pending in self._pending:
            if pending.seq == seq:
                self._pending.remove(pending)
                return pending
        return None

    def _retry(self, pending: _Pending, now: float, actions: list[Action]) -> None:
        if pending.retries >= MAX_RETRIES:
            self._pending.remove(pending)
            self._counters["GIVEUP"] += 1
            return
        pending.retries += 1
        pending.sent = now
        self._counters["RETRY"] += 1
        self._counters["TX"] += 1
        actions.append(Send(pending.line))

    def _service(self, now: float, actions: list[Action]) -> None:
        """The timers: link timeout, HELLO while connecting, retries, LED refresh."""
        if (
            self._state is not LinkState.CONNECTING
            and self._last_rx is not None
            and now - self._last_rx >= LINK_TIMEOUT
        ):
            self._pending.clear()
            self._tracker = SeqTracker()
            self._gate.held = None
            self._set_state(LinkState.CONNECTING, "the device is silent", actions)
        if self._state is LinkState.CONNECTING and (
            self._last_hello is None or now - self._last_hello >= HELLO_INTERVAL
        ):
            self._say_hello(now, actions)
        for pending in list(self._pending):
            if pending.kind is Hello:  # repeated by the HELLO timer, not retried
                if self._state is not LinkState.CONNECTING:
                    self._pending.remove(pending)
            elif now - pending.sent >= ACK_TIMEOUT:
                self._retry(pending, now, actions)
        if (
            self._state is LinkState.UP
            and self._last_refresh is not None
            and now - self._last_refresh >= LED_REFRESH
        ):
            self._send_palette(now, actions)
            self._send_leds(now, actions)

    def _say_hello(self, now: float, actions: list[Action]) -> None:
        """Send our HELLO with a new nonce, which the device's answer repeats."""
        self._last_hello = now
        self._sent_nonces = {
            nonce: at for nonce, at in self._sent_nonces.items() if now - at < LINK_TIMEOUT
        }
        self._hello_seqs = {
            seq: at for seq, at in self._hello_seqs.items() if now - at < LINK_TIMEOUT
        }  # before the numbers come round
        nonce = f"{next(self._nonces) % (1 << 4 * NONCE_DIGITS):0{NONCE_DIGITS}X}"
        self._sent_nonces[nonce] = now
        self._hello_seqs[self._seq] = now
        info = (("SW", self.software), (NONCE_KEY, nonce))
        self._send(Hello(PROTOCOL_VERSION, info=info), now, actions)

    def _set_state(self, state: LinkState, detail: str, actions: list[Action]) -> None:
        if state is self._state:
            return
        self._state = state
        if state is LinkState.CONNECTING:
            self._last_hello = None
            self._sent_leds = self._sent_palette = None
        actions.append(StateChanged(state, detail))


def _random_nonces() -> Iterator[int]:
    """HELLO nonces: from a random start, one after the other."""
    nonce = secrets.randbits(4 * NONCE_DIGITS)
    while True:
        nonce += 1
        yield nonce
