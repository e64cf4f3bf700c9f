"""One side of a game between two boards: the pure state machine of docs/remote.md.

A :class:`Peer` holds its side's :class:`~.log.Log`, its clocks and offers,
and what it knows of the other side.  The transport calls :meth:`Peer.outgoing`
for the messages of an exchange and :meth:`Peer.receive` with the other
side's; the link calls :meth:`Peer.play`, :meth:`Peer.ask`,
:meth:`Peer.answer` for its own player, and :meth:`Peer.tick` as time passes.
It reads no clock and does no I/O but one: every entry goes through ``keep``
(the journal on disk) *before* it joins the log, so that a status, which
acknowledges the log, never acknowledges an entry that is not stored.  When
``keep`` raises, the entry is not taken and the error reaches the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Termination
from . import offers as o
from .clocks import Clocks
from .log import DIGEST_HEX, KEY, Entry, Log, LogError
from .offers import Answerable, Ask, Offers

AWAY = 5.0  # seconds without a word from the other side before it counts as away
MAX_PROBLEM = 200  # characters of a problem text taken from the other side

Keep = Callable[[Entry], None]


@dataclass(frozen=True)
class Status:
    """A side's acknowledgement (it has stored entries 1..``have``, whose
    digest is ``digest``), its offers, and the problem that stopped it."""

    key: str
    have: int
    digest: str
    stamp: tuple[int, int]  # (epoch, count): orders one side's statuses
    offers: Offers
    problem: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "status",
            "key": self.key,
            "have": self.have,
            "digest": self.digest,
            "stamp": list(self.stamp),
            "offers": self.offers.to_json(),
            "problem": self.problem,
        }


@dataclass(frozen=True)
class EntryMessage:
    key: str
    entry: Entry

    def to_json(self) -> dict[str, Any]:
        return {"t": "entry", "key": self.key, "entry": self.entry.to_json()}


Message = Status | EntryMessage


def parse(data: Any) -> Message:
    """A message from its JSON.  :raises LogError: for anything else."""
    if not isinstance(data, dict) or data.get("t") not in ("status", "entry"):
        raise LogError("message: expected an object with t = status or entry")
    key = data.get("key")
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise LogError("message: key is 16 hex digits")
    if data["t"] == "entry":
        if set(data) != {"t", "key", "entry"}:
            raise LogError("entry message: expected t, key and entry")
        return EntryMessage(key, Entry.from_json(data["entry"]))
    if set(data) != {"t", "key", "have", "digest", "stamp", "offers", "problem"}:
        raise LogError("status: expected t, key, have, digest, stamp, offers and problem")
    have, digest, stamp, problem = data["have"], data["digest"], data["stamp"], data["problem"]
    if type(have) is not int or have < 0:
        raise LogError("status: have is a whole number")
    if not isinstance(digest, str) or len(digest) != DIGEST_HEX:
        raise LogError("status: digest is a digest")
    if not (
        isinstance(stamp, list) and len(stamp) == 2 and all(type(v) is int for v in stamp)
    ) or not isinstance(problem, str):
        raise LogError("status: stamp is [epoch, count], problem a text")
    offers = Offers.from_json(data["offers"])
    return Status(key, have, digest, (stamp[0], stamp[1]), offers, problem[:MAX_PROBLEM])


class Peer:
    """See the module docstring.  ``epoch`` must grow at every start of this
    side (the journal counts them), so the other side can order its statuses."""

    def __init__(self, log: Log, me: int, keep: Keep, epoch: int, now: float) -> None:
        self.log = log
        self.me = me
        self.keep = keep
        self.epoch = epoch
        self.count = 0
        self.mine = Offers()
        self.theirs = Offers()
        self.their_stamp = (-1, -1)
        self.their_have = 0  # entries the other side has acknowledged
        self.heard: float | None = None  # when it was last heard from
        self.problem: str | None = None
        self.declined: tuple[Answerable, int] | None = None  # which of mine it said no to
        self.clocks = Clocks.replayed(log, now)
        self.taken = 0  # entries taken from the other side (for the figures)

    @property
    def key(self) -> str:
        return self.log.header.key

    def away(self, now: float) -> bool:
        return self.heard is None or now - self.heard > AWAY

    # ------------------------------------------------------------ messages
    def status(self) -> Status:
        self.count += 1
        offers = self.mine.current(self.log)
        return Status(
            self.key,
            self.log.seq,
            self.log.digest,
            (self.epoch, self.count),
            offers,
            self.problem or "",
        )

    def outgoing(self, limit: int | None = None) -> list[Message]:
        """This side's part of an exchange: its status, and the entries the
        other side has not acknowledged, the oldest ``limit`` of them (none
        once stopped); the rest go in the next exchanges."""
        out: list[Message] = [self.status()]
        if self.problem is None:
            end = None if limit is None else self.their_have + limit
            out += [EntryMessage(self.key, e) for e in self.log.entries[self.their_have : end]]
        return out

    def receive(self, messages: Sequence[Message], now: float) -> None:
        """Take the other side's part of an exchange: entries in order of
        their numbers, then statuses.  :raises: whatever ``keep`` raises."""
        self.heard = now
        entries = sorted(
            (m for m in messages if isinstance(m, EntryMessage)), key=lambda m: m.entry.seq
        )
        for entry in entries:
            self._entry(entry, now)
        for message in messages:
            if isinstance(message, Status):
                self._status(message)
        self._settle(now)

    def _entry(self, message: EntryMessage, now: float) -> None:
        if self.problem is not None:
            return
        if message.key != self.key:
            self._stop("the other side plays another game")
            return
        entry, have = message.entry, self.log.seq
        if entry.seq <= have:
            if self.log.copy_of(entry.seq) != entry:
                self._stop(f"the two sides hold different entries {entry.seq}")
            return
        if entry.seq > have + 1:
            return  # a gap: the next exchange brings what is missing, in order
        why = self.log.check(entry)
        if why is not None:
            self._stop(why)
            return
        self._add(entry, now)
        self.taken += 1

    def _status(self, status: Status) -> None:
        if status.key != self.key:
            self._stop("the other side plays another game")
            return
        if status.problem:
            self._stop(f"the other side stopped: {status.problem}")
        if status.have <= self.log.seq and self.log.digests[status.have] != status.digest:
            self._stop(f"the two sides hold different games at entry {status.have}")
        if status.stamp > self.their_stamp:
            # Only the latest status counts: a side that restarted from an
            # older copy of its journal says so, and is sent what it lacks.
            self.their_stamp = status.stamp
            self.their_have = status.have
            self.theirs = status.offers

    def _stop(self, why: str) -> None:
        if self.problem is None:
            self.problem = why

    # ------------------------------------------------------------ this side
    def play(self, uci: str, now: float) -> str | None:
        """This side's player moves: the entry is kept and added; None, or why not."""
        if self.problem is not None:
            return "the game is stopped"
        if self.log.to_move() != self.me:
            return "it is not this side's move"
        clock = None
        if self.clocks is not None:
            clock = self.clocks.after_my_move(self.me, now, self.away(now))
        entry = self.log.move(self.me, uci, clock)
        why = self.log.check(entry)
        if why is not None:
            return why
        self._add(entry, now)
        self._settle(now)
        return None

    def ask(self, kind: Ask, now: float) -> str | None:
        """This side's player asks for a takeback or a draw, or resigns."""
        if self.problem is not None:
            return "the game is stopped"
        mine = o.asked(self.log, self.me, self.mine, kind)
        if isinstance(mine, str):
            return mine
        self.mine = mine
        self._settle(now)
        return None

    def answer(self, kind: Answerable, yes: bool, now: float) -> str | None:
        """This side's player answers the other's offer of ``kind``."""
        if self.problem is not None:
            return "the game is stopped"
        if kind not in o.asking(self.log, self.theirs):
            return "nothing to answer"
        entry = o.accepted(self.log, self.me, kind) if yes else None
        if entry is not None:
            self._add(entry, now)
        else:
            self.mine = o.answered(self.log, self.mine, kind, yes)
        self._settle(now)
        return None

    def tick(self, now: float) -> None:
        """Time passes: the clocks run (not while the other side is away);
        this side declares its own time forfeit."""
        away = self.away(now)
        if self.clocks is not None:
            self.clocks.charge(now, away)
            if (
                not away
                and self.problem is None
                and self.log.to_move() == self.me
                and self.clocks.flagged(now) == self.me
            ):
                self._add(self.log.end(self.me, Termination.TIME_FORFEIT, self.me ^ 1), now)
        self._settle(now)

    def asking(self) -> tuple[Answerable, ...]:
        """What the other side asks of this side's player now."""
        if self.problem is not None:
            return ()
        return o.asking(self.log, self.theirs)

    # ------------------------------------------------------------ the log
    def _add(self, entry: Entry, now: float) -> None:
        self.keep(entry)  # on disk first: a status may acknowledge it from now on
        self.log.append(entry)
        if self.clocks is not None:
            self.clocks.after(entry, self.log, now)

    def _settle(self, now: float) -> None:
        """Drop moot offers; add the entry the offers call for, if any."""
        if self.problem is not None:
            return
        self.mine, no = o.declined(self.log, self.mine, self.theirs)
        if no is not None:
            self.declined = (no, self.log.seq)
        self.mine = self.mine.current(self.log)
        entry = o.due(self.log, self.me, self.mine, self.theirs)
        if entry is not None:
            self._add(entry, now)
            self.mine = self.mine.current(self.log)
