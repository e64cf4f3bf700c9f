"""A game between the board and a person in a browser, kept by the board's
server alone (form 1 of docs/remote.md).

The :class:`Table` holds the one log, both sides' offers and the clocks; the
board's side and the browser's side act on it through the same methods.  A
request names the log's length it was made at (``seq``), so a request
repeated or delayed is answered as it was the first time and applied once:
a move at the log's length is the next entry; a move at an earlier length is
a copy when the entry that followed is this very move, and stale otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ..rules import Termination
from . import offers as o
from .clocks import Clocks
from .log import Entry, Log
from .offers import Answerable, Ask, Offers
from .peer import AWAY


class Verdict(Enum):
    APPLIED = "applied"
    COPY = "copy"  # the same request again: nothing more is done
    STALE = "stale"  # made on a log that has moved on (or another game's)
    REFUSED = "refused"  # not a move or an offer this side may make now


@dataclass(frozen=True)
class Answer:
    verdict: Verdict
    why: str = ""


class Table:
    """See the module docstring.  ``board`` is the board player's colour;
    ``keep`` writes an entry to the journal before it joins the log."""

    def __init__(self, log: Log, board: int, keep: Callable[[Entry], None], now: float) -> None:
        self.log = log
        self.board = board
        self.keep = keep
        self.offers = [Offers(), Offers()]  # White's and Black's
        self.declined: dict[int, tuple[Answerable, int]] = {}  # whose offer was declined
        self.heard: float | None = None  # the browser's last request
        self.clocks = Clocks.replayed(log, now)

    @property
    def key(self) -> str:
        return self.log.header.key

    def away(self, now: float) -> bool:
        """Is the browser's player away (or not come yet)?"""
        return self.heard is None or now - self.heard > AWAY

    def _stale(self, key: str, seq: int) -> Answer | None:
        if key != self.key:
            return Answer(Verdict.STALE, "another game")
        if seq > self.log.seq:
            return Answer(Verdict.STALE, "a log this board has not got")
        return None

    def play(self, side: int, key: str, seq: int, uci: str, now: float) -> Answer:
        """``side`` moves ``uci``, having seen the log at length ``seq``."""
        stale = self._stale(key, seq)
        if stale is not None:
            return stale
        if seq < self.log.seq:
            done = self.log.entries[seq]
            if done.kind == "move" and done.by == side and done.uci == uci:
                return Answer(Verdict.COPY)
            return Answer(Verdict.STALE, "the game has moved on")
        if self.log.to_move() != side:
            return Answer(Verdict.REFUSED, "it is not your move")
        clock = None
        if self.clocks is not None:
            clock = self.clocks.after_my_move(side, now, self.away(now))
        entry = self.log.move(side, uci, clock)
        why = self.log.check(entry)
        if why is not None:
            return Answer(Verdict.REFUSED, why)
        self._add(entry, now)
        self._settle(now)
        return Answer(Verdict.APPLIED)

    def ask(self, side: int, key: str, seq: int, kind: Ask, now: float) -> Answer:
        """``side`` asks for a takeback or a draw, or resigns."""
        stale = self._stale(key, seq)
        if stale is not None:
            return stale
        if kind == "resign" and self._resigned(side):
            return Answer(Verdict.COPY)
        if kind != "resign" and seq < self.log.seq:
            return Answer(Verdict.STALE, "the game has moved on")
        if self.offers[side] == (mine := o.asked(self.log, side, self.offers[side], kind)):
            return Answer(Verdict.COPY)
        if isinstance(mine, str):
            return Answer(Verdict.REFUSED, mine)
        self.offers[side] = mine
        self._settle(now)
        return Answer(Verdict.APPLIED)

    def _resigned(self, side: int) -> bool:
        ending = self.log.ending
        return (
            ending is not None
            and ending.termination is Termination.RESIGNATION
            and ending.winner == side ^ 1
        )

    def answer(
        self, side: int, key: str, seq: int, kind: Answerable, yes: bool, now: float
    ) -> Answer:
        """``side`` answers the other's offer of ``kind``."""
        stale = self._stale(key, seq)
        if stale is not None:
            return stale
        if seq < self.log.seq:
            return Answer(Verdict.STALE, "the game has moved on")
        if kind not in self.asking(side):
            return Answer(Verdict.REFUSED, "nothing to answer")
        entry = o.accepted(self.log, side, kind) if yes else None
        if entry is not None:
            self._add(entry, now)
        else:
            self.offers[side] = o.answered(self.log, self.offers[side], kind, yes)
        self._settle(now)
        return Answer(Verdict.APPLIED)

    def asking(self, side: int) -> tuple[Answerable, ...]:
        """What the other side asks of ``side`` now."""
        return o.asking(self.log, self.offers[side ^ 1])

    def tick(self, now: float) -> None:
        """Time passes: the clocks run while the browser's player is there,
        and a flag that falls ends the game (this server keeps both clocks)."""
        if self.clocks is not None:
            away = self.away(now)
            self.clocks.charge(now, away)
            mover = self.log.to_move()
            if not away and mover is not None and self.clocks.flagged(now) == mover:
                self._add(self.log.end(mover, Termination.TIME_FORFEIT, mover ^ 1), now)
        self._settle(now)

    def _add(self, entry: Entry, now: float) -> None:
        self.keep(entry)
        self.log.append(entry)
        if self.clocks is not None:
            self.clocks.after(entry, self.log, now)

    def _settle(self, now: float) -> None:
        for side in (self.board, self.board ^ 1):
            mine, no = o.declined(self.log, self.offers[side], self.offers[side ^ 1])
            if no is not None:
                self.declined[side] = (no, self.log.seq)
            self.offers[side] = mine
        mover = self.log.to_move()
        if mover is not None:
            entry = o.due(self.log, mover, self.offers[mover], self.offers[mover ^ 1])
            if entry is not None:
                self._add(entry, now)
        self.offers = [self.offers[0].current(self.log), self.offers[1].current(self.log)]
