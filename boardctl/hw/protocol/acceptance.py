"""Which snapshots the host passes on (PROTOCOL.md, section 4 and "Accepting
a snapshot"): the peer's sequence numbers, counted for repeats and missing
lines, and the snapshot held until the next one confirms it.

:class:`~.link.HostLink` keeps one :class:`SeqTracker` per numbering (a
HELLO starts a new one) and one :class:`SnapshotGate` for its life.
"""

from __future__ import annotations

from .constants import REPLAY_WINDOW, SEQ_MODULO, SNAP_MIN_INTERVAL
from .messages import Stamp

# A hand changes at most this many squares between two snapshots (20 ms or
# more apart): two hands, each lifting or putting down two pieces.  A snapshot
# that differs more from the last one passed on is held until the next one
# confirms it.
MAX_HAND_CHANGE = 4
# Two SNAPs closer than half the device's least interval are one burst (a
# replay), and never confirm each other.
SNAP_SPACING = SNAP_MIN_INTERVAL / 2
# The host's own counters: snapshots held for confirmation, those the next one
# did not confirm, those older than the last one passed on or of another boot
# of the device than its last HELLO's (a replayed run, a late line), and device
# HELLOs of an older boot (a late copy of one from before a restart).
HOST_COUNTER_NAMES = ("HELD", "UNCONFIRMED", "OLDSNAP", "OLDHELLO")


class SeqTracker:
    """Counts repeated (DUP) and missing (LOST) sequence numbers from the peer.

    A stray line from far ahead (a stale copy numbered just below the last
    one, seen from the other side of the 256 wrap) would leave every line
    after it looking like a repeat; two lines in a row judged repeats that
    number consecutively re-anchor the count on them (PROTOCOL.md, section 4).
    """

    def __init__(self, last: int | None = None) -> None:
        self.last = last
        self._repeat: int | None = None  # the last line judged a repeat
        # The number of the line whose snapshot was last passed on: in this
        # numbering no snapshot numbered at or before it is ever used again,
        # whatever re-anchoring does (a replayed run of old lines re-anchors).
        self.passed_on: int | None = None

    def older_than_passed_on(self, seq: int) -> bool:
        """True if ``seq`` is the line of the last snapshot passed on or one of
        the REPLAY_WINDOW lines before it.  Further back is not a replay of
        recent lines but a count gone astray (a stale line from far ahead
        moved it), which re-anchoring repairs: refusing those would leave the
        host deaf until the count came round."""
        if self.passed_on is None:
            return False
        return (self.passed_on - seq) % SEQ_MODULO < REPLAY_WINDOW

    def see(self, seq: int, counters: dict[str, int]) -> int | None:
        """How many lines went missing before ``seq``; None if ``seq`` does
        not advance (a repeat or an older line), which is then not to be used."""
        if self.last is None:
            self.last = seq
            return 0
        gap = (seq - self.last - 1) % SEQ_MODULO
        if gap >= SEQ_MODULO // 2:  # the last one again, or older: a repeat
            chained = self._repeat is not None and seq == (self._repeat + 1) % SEQ_MODULO
            self._repeat = seq
            if not chained:
                counters["DUP"] += 1
                return None
            gap = 1  # re-anchored: judged as after missing lines
        self._repeat = None
        counters["LOST"] += gap
        self.last = seq
        return gap


def squares_changed(before: int, after: int) -> int:
    """How many squares differ between two occupancies."""
    return (before ^ after).bit_count()


class SnapshotGate:
    """Passes a snapshot on, or holds it.

    A snapshot that follows missing lines, or that differs from the last
    one passed on in more squares than a hand changes at once, is held;
    the next snapshot confirms it if it shows the same board.  Damage that
    slipped through every check is not repeated by the next line, and a
    stale copy is followed by the board as it is now, so neither becomes a
    reading; a real jump (a sweep of the arm, a reset board) costs at most
    a heartbeat.

    A snapshot numbered at or before the one last passed on is older than
    it, whatever the count of repeats made of it: it is dropped
    (``OLDSNAP``).  Old lines replayed in a run (a USB hub replaying its
    buffer) re-anchor the count, and the third would otherwise pass.  A
    replayed run can also hold an old HELLO, which starts a new count: so
    the first snapshot after a HELLO mid-session is held (:attr:`recheck`),
    and a held snapshot is confirmed only by a later line (numbered after
    it, and arriving SNAP_SPACING or more after it): never by a copy of
    itself, nor by another line of one replayed burst.

    Above all, each snapshot carries its :class:`~.messages.Stamp`: one of
    another boot than the device's last HELLO named (:meth:`start_boot`), or
    not taken after the last one passed on, is dropped (``OLDSNAP``) however
    its sequence number reads.  Sequence numbers count round at 256, so a
    run of old lines from 43 back re-anchored the count and put an old board
    back for 1.8 s; a stamp counts round only after 16 million snapshots.
    """

    def __init__(self, counters: dict[str, int]) -> None:
        self._counters = counters  # the link's: HELD, UNCONFIRMED, OLDSNAP
        # The last snapshot passed on (kept across sessions: the pieces stay
        # where they are), and one waiting for the next to confirm it.
        self._accepted: int | None = None
        self.held: int | None = None
        self._held_at = 0.0
        self._held_seq = 0
        self._held_stamp: Stamp | None = None
        # The device's boot (its HELLO's) and the stamp of the last snapshot
        # passed on in it.
        self.epoch: int | None = None
        self._stamp: Stamp | None = None
        # After a HELLO mid-session (the device restarted, or an old HELLO
        # replayed with old snapshots behind it) the next snapshot is held.
        self.recheck = False
        self.doubt = False  # a line was lost or damaged since the last snapshot

    def start_boot(self, epoch: int) -> None:
        """The device's HELLO named its boot: snapshots of other boots are old."""
        if epoch != self.epoch:
            self.epoch = epoch
            self._stamp = None
            self.held = None

    def offer(
        self, seq: int, occupancy: int, stamp: Stamp, gap: int, now: float, tracker: SeqTracker
    ) -> bool:
        """True if the snapshot in line ``seq``, taken at ``stamp``, after
        ``gap`` missing lines, is to be passed on now; ``tracker`` is the
        numbering it came in."""
        if (
            stamp.epoch != self.epoch
            or (self._stamp is not None and not stamp.after(self._stamp))
            or tracker.older_than_passed_on(seq)
        ):
            self._counters["OLDSNAP"] += 1
            self.doubt = True
            return False
        held, self.held = self.held, None
        if held == occupancy and (
            now - self._held_at < SNAP_SPACING
            or not 0 < (seq - self._held_seq) % SEQ_MODULO < REPLAY_WINDOW
            or (self._held_stamp is not None and not stamp.after(self._held_stamp))
        ):
            # The same burst, or the same line again: no confirmation, but
            # this line is the one a later line may confirm.
            self.held, self._held_at, self._held_seq = occupancy, now, seq
            self._held_stamp = stamp
            return False
        confirmed = held == occupancy
        plausible = (
            not self.recheck
            and gap == 0
            and (
                self._accepted is None
                or squares_changed(self._accepted, occupancy) <= MAX_HAND_CHANGE
            )
        )
        if held is not None and not confirmed:
            self._counters["UNCONFIRMED"] += 1
        if confirmed or plausible:
            self._accepted = occupancy
            self._stamp = stamp
            tracker.passed_on = seq
            self.recheck = False
            self.doubt = False
            return True
        self.held = occupancy
        self._held_at = now
        self._held_seq = seq
        self._held_stamp = stamp
        self._counters["HELD"] += 1
        return False
