"""What two boards say to each other through the broker (docs/remote.md,
"Messages"), as one board keeps it: pure, driven with the caller's time.

Two messages, each signed by the side that sends it: an **entry** of the
sender's log, and a **status** ("I hold N of my entries and M of yours,
whose digests are these; my problem, if I stopped").  A status is this
side's acknowledgement, so it counts only entries already stored, and it is
what the other side resends from.  Nothing in a status changes the game:
the game is the logs'.  A status says the other board is *there* only when
it echoes a nonce this side sent lately, so an old status replayed by the
broker does not make an absent board look present.

Whatever comes in is checked before it is used: its signature, its game,
its side.  An entry of the other side's beyond the next is held (a few) for
when the gap fills; one that contradicts an entry held under its number is
the other side signing two logs, and stops the game.
"""

from __future__ import annotations

import re
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .entry import KEY, Entry, EntryError, colour_of
from .invite import printable
from .keys import SigningKey, verify
from .record import Record

STATUS_LABEL = "boardctl remote status v2"
HEARTBEAT = 2.0  # seconds between statuses when nothing changes
AWAY = 10.0  # seconds without a fresh status before the other board counts as away
RESEND_AFTER = 1.0  # seconds an entry may go unacknowledged before it is sent again
BATCH = 12  # entries sent again at once: a board back from a long absence gets the rest next
AHEAD = 64  # entries of the other side held beyond a gap
MAX_PROBLEM = 200  # characters of a problem text sent or taken
_HEX = re.compile(r"[0-9a-f]{0,128}")

Keep = Callable[[Entry], None]


@dataclass(frozen=True)
class Status:
    """One side's acknowledgement and presence (see the module docstring)."""

    key: str
    side: int
    mine: int  # entries of its own log it holds
    mine_digest: str
    yours: int  # entries of the other side's log it holds, stored
    yours_digest: str
    state: str  # the state its logs make
    nonce: str
    echo: str  # the last nonce it heard from the other side
    problem: str = ""
    sig: str = ""

    def body(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "sig"}

    def to_json(self) -> dict[str, Any]:
        return {"t": "status", **self.body(), "sig": self.sig}

    @classmethod
    def from_json(cls, data: Any) -> Status:
        """:raises EntryError: for anything but a status boardctl writes."""
        names = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or set(data) != {"t", *names}:
            raise EntryError("status: expected exactly its fields")
        mine, yours, problem = data["mine"], data["yours"], data["problem"]
        if type(mine) is not int or type(yours) is not int or not min(mine, yours) >= 0:
            raise EntryError("status: counts are whole numbers")
        if not isinstance(problem, str) or len(problem) > MAX_PROBLEM:
            raise EntryError(f"status: a problem is a text of at most {MAX_PROBLEM} characters")
        texts = ("key", "mine_digest", "yours_digest", "state", "nonce", "echo", "sig")
        for name in texts:
            value = data[name]
            if not isinstance(value, str) or not _HEX.fullmatch(value):
                raise EntryError(f"status: {name} is a digest")
        if not KEY.fullmatch(data["key"]):
            raise EntryError("status: key is 16 hex digits")
        return cls(
            data["key"],
            colour_of(data["side"], "status: side"),
            mine,
            data["mine_digest"],
            yours,
            data["yours_digest"],
            data["state"],
            data["nonce"],
            data["echo"],
            problem,
            data["sig"],
        )


def parse(data: Any) -> Entry | Status:
    """An entry or a status from its JSON.  :raises EntryError: for anything else."""
    if isinstance(data, dict) and data.get("t") == "status":
        return Status.from_json(data)
    if isinstance(data, dict) and data.get("t") == "entry" and set(data) == {"t", "entry"}:
        return Entry.from_json(data["entry"])
    raise EntryError("message: expected an entry or a status")


def entry_json(entry: Entry) -> dict[str, Any]:
    return {"t": "entry", "entry": entry.to_json()}


class Exchange:
    """One board's talk with the other (see the module docstring).  ``keep``
    stores an entry of the other side's before it joins the record."""

    def __init__(self, record: Record, me: int, key: SigningKey, keep: Keep) -> None:
        self.record = record
        self.me = me
        self.key = key
        self.keep = keep
        self.problem: str | None = None  # why this side stopped
        self.their_problem = ""  # why the other side says it stopped
        self.their_yours = 0  # entries of ours the other side holds, by its last status
        self.their_mine = 0  # entries of its own it says it holds
        self.heard: float | None = None  # its last fresh status
        self.echoed: float | None = None  # when we sent the newest status it has echoed
        self.held: dict[int, Entry] = {}  # its entries beyond a gap
        self.sent: dict[int, float] = {}  # when each of our entries last went out
        self.taken = 0  # entries taken from the other side (for the figures)
        self._nonces: deque[tuple[str, float]] = deque(maxlen=16)
        self._echo = ""
        self._status_due = 0.0
        self._said: tuple[int, int, str] | None = None

    @property
    def other(self) -> int:
        return self.me ^ 1

    def away(self, now: float) -> bool:
        return self.heard is None or now - self.heard > AWAY

    def stop(self, why: str) -> None:
        if self.problem is None:
            self.problem = why[:MAX_PROBLEM]

    # ------------------------------------------------------------ out
    def status(self, now: float) -> Status:
        nonce = secrets.token_hex(8)
        self._nonces.append((nonce, now))
        mine, theirs = self.record.logs[self.me], self.record.logs[self.other]
        bare = Status(
            self.record.header.key,
            self.me,
            mine.n,
            mine.digest,
            theirs.n,
            theirs.digest,
            self.record.state.id,
            nonce,
            self._echo,
            self.problem or "",
        )
        return Status(**{**bare.body(), "sig": self.key.sign(STATUS_LABEL, bare.body())})

    def outgoing(self, now: float) -> list[dict[str, Any]]:
        """What to send now: our entries the other side has not acknowledged
        (new ones at once, others again after :data:`RESEND_AFTER`), and a
        status when anything changed or a heartbeat is due."""
        out: list[dict[str, Any]] = []
        log = self.record.logs[self.me]
        if self.problem is None:
            for entry in log.entries[self.their_yours : self.their_yours + BATCH]:
                last = self.sent.get(entry.n)
                if last is None or now - last >= RESEND_AFTER:
                    self.sent[entry.n] = now
                    out.append(entry_json(entry))
        said = (log.n, self.record.logs[self.other].n, self.problem or "")
        if out or said != self._said or now >= self._status_due:
            self._said, self._status_due = said, now + HEARTBEAT
            out.append(self.status(now).to_json())
        return out

    # ------------------------------------------------------------ in
    def receive(self, message: Entry | Status, now: float) -> bool:
        """Take one message of the other side's; True when the record changed.

        :raises: whatever ``keep`` raises (the entry is then not taken).
        """
        if isinstance(message, Status):
            self._status(message, now)
            return False
        return self._entry(message)

    def _entry(self, entry: Entry) -> bool:
        theirs = self.record.logs[self.other]
        if entry.key != self.record.header.key or entry.side != self.other:
            return False  # not the other side's entry in this game: not its to send
        if theirs.public is None or not entry.signed_by(theirs.public):
            return False  # anybody's: nothing the other side said
        if entry.n <= theirs.n:
            held = theirs.get(entry.n)
            if held is not None and held.digest() != entry.digest():
                self.stop(f"the other side signed two different entries {entry.n}")
            return False
        if entry.n > theirs.n + AHEAD or self.problem is not None:
            return False
        self.held[entry.n] = entry
        changed = False
        while theirs.n + 1 in self.held:
            nxt = self.held.pop(theirs.n + 1)
            why = self.record.check(nxt)
            if why is not None:
                self.stop(f"the other side's {why}")
                return changed
            self.keep(nxt)  # on disk before a status can acknowledge it
            self.record.add(nxt)
            self.taken += 1
            changed = True
        return changed

    def _status(self, status: Status, now: float) -> None:
        theirs = self.record.logs[self.other]
        if status.key != self.record.header.key or status.side != self.other:
            return
        if theirs.public is None or not verify(
            theirs.public, STATUS_LABEL, status.body(), status.sig
        ):
            return
        self._echo = status.nonce
        sent = next((at for nonce, at in self._nonces if nonce == status.echo), None)
        if sent is not None:
            self.echoed = max(sent, self.echoed if self.echoed is not None else sent)
            if now - sent <= AWAY:
                self.heard = now
        self.their_problem = printable(status.problem, MAX_PROBLEM)
        mine = self.record.logs[self.me]
        if status.yours > mine.n:
            self.stop("the other side holds entries of this board that it does not have")
        elif mine.digests[status.yours] != status.yours_digest:
            self.stop(f"the other side holds another entry {status.yours} of this board's")
        if status.mine <= theirs.n and theirs.digests[status.mine] != status.mine_digest:
            self.stop(f"the other side's entry {status.mine} is not the one held here")
        self.their_yours = min(status.yours, mine.n)
        self.their_mine = status.mine
