"""The board's broadcast: its public game state and a heartbeat, to a broker.

It listens to the page's :class:`~boardctl.web.snapshot.Hub` (the daemon
publishes its snapshots there whether or not a page is served) and works on
a thread of its own: the loop's only cost is the hub's wake-up call, a
``threading.Event`` set, so a board's step time does not depend on the
broker, the network or how many people watch.  The spectators reach the
broker and the hall, never the board.

What it sends (:mod:`.wire`): the game whenever it changes (a move, a
result, the names; not the clock's every second, which each page counts down
itself), at most every :data:`MIN_GAP` seconds; a heartbeat every
:data:`~.wire.HEARTBEAT` seconds and at once after each reconnection; a
goodbye when it closes, and the same goodbye left with the broker as its
last will.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..quietlog import QuietLog
from ..remote.keys import SigningKey
from ..remote.transport import Transport
from ..web.snapshot import Hub
from .state import BoardState, from_snapshot
from .wire import HEARTBEAT, MAX_MESSAGE, Kind, Sealed, seal, topic

log = logging.getLogger("boardctl")

MIN_GAP = 0.25  # seconds between two states: at most four a second
CHECK = 1.0  # seconds between looks at the connection while nothing happens


@dataclass(frozen=True)
class Place:
    """Where the board broadcasts: its event and its own id there (the
    ``[hall]`` configuration), and the round and board number it says it
    plays (0: it does not say; the round file places it)."""

    event: str
    board: str
    round: int = 0
    number: int = 0


Will = tuple[str, bytes]


class Broadcast:
    """See the module docstring.  ``connect`` makes the transport, given the
    last will to leave with the broker; ``wall`` is the wall clock the
    messages are stamped with, ``clock`` the one that times them.  With
    ``thread=False`` nothing runs by itself: the caller calls :meth:`step`."""

    def __init__(
        self,
        hub: Hub,
        key: SigningKey,
        place: Place,
        connect: Callable[[Will], Transport],
        *,
        wall: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
        thread: bool = True,
    ) -> None:
        self.hub, self.key, self.place = hub, key, place
        self.wall, self.clock = wall, clock
        self.session = secrets.token_hex(8)
        self.sent: BoardState | None = None  # the latest state sent, its clocks included
        self.too_large = 0  # states left unsent: too long a game for one message
        self._seq = {"state": 0, "status": 0}
        self._stamp = 0
        self._next_state = 0.0
        self._next_beat = 0.0
        self._was_connected = False
        self._quiet = QuietLog(log)
        self._wake = threading.Event()
        self._closing = threading.Event()
        goodbye, self._stamp = self._message("status", {"online": False})
        self.transport = connect((topic(place.event, place.board, "status"), goodbye))
        self._unsubscribe = hub.on_change(self._wake.set)
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="boardctl-hall", daemon=True)
            self._thread.start()

    def _message(self, kind: Kind, body: dict[str, object]) -> tuple[bytes, int]:
        """The next message of ``kind``, signed, and its stamp; counted only
        once :meth:`_publish` sends it."""
        # Stamps grow even if the wall clock steps back: the hall keeps the newest.
        stamp = max(self._stamp + 1, math.floor(self.wall() * 1000))
        place = self.place
        sealed = Sealed(
            kind,
            place.event,
            place.board,
            self.key.public,
            self.session,
            self._seq[kind] + 1,
            stamp,
            body,
        )
        return seal(self.key, sealed), stamp

    def _publish(self, kind: Kind, message: tuple[bytes, int]) -> None:
        self._seq[kind] += 1
        self._stamp = message[1]
        where = topic(self.place.event, self.place.board, kind)
        self.transport.publish(where, message[0], retain=True)

    def step(self, now: float) -> float:
        """Send what is due at ``now``; returns when to look again."""
        connected = self.transport.connected()
        if connected and (not self._was_connected or now >= self._next_beat):
            self._publish("status", self._message("status", {"online": True}))
            self._next_beat = now + HEARTBEAT
        self._was_connected = connected
        due = now + min(CHECK, max(0.0, self._next_beat - now))
        snap = self.hub.latest
        if snap.seq == 0:
            return due  # the daemon has not published its game yet
        state = from_snapshot(snap, self.place.round, self.place.number)
        if state is None or (self.sent is not None and state.news() == self.sent.news()):
            return due
        if now < self._next_state:
            return min(due, self._next_state)
        self._send_state(state)
        self._next_state = now + MIN_GAP
        return due

    def _send_state(self, state: BoardState) -> None:
        self.sent = state  # if it cannot be sent, not tried again until the game changes
        for shape in (state, state.without_clock_history()):
            message = self._message("state", shape.body())
            if len(message[0]) <= MAX_MESSAGE:
                self._publish("state", message)
                return
        self.too_large += 1
        self._quiet.warn("large", "hall: a game of %d moves is too long to send", len(state.moves))

    def _run(self) -> None:
        while not self._closing.is_set():
            due = self.step(self.clock())
            self._wake.wait(max(0.0, due - self.clock()))
            self._wake.clear()

    def close(self) -> None:
        """Say goodbye (retained: the hall shows the board offline at once)
        and let go of the broker."""
        self._closing.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
        self._unsubscribe()
        if self.transport.connected():
            self._publish("status", self._message("status", {"online": False}))
        self.transport.close()
