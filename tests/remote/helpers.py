"""Shared pieces of the remote-play tests: headers and keys made once,
both sides of one game, and a journal in memory that counts every entry it
is asked to keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from boardctl.remote.entry import Entry, Header
from boardctl.remote.keys import SigningKey
from boardctl.remote.record import Record
from boardctl.remote.side import Side, Timer
from boardctl.rules import BLACK, WHITE

KEY = "0123456789abcdef"


@cache
def keys() -> tuple[SigningKey, SigningKey]:
    """White's and Black's keys (made once: the tests only need two)."""
    return SigningKey(), SigningKey()


def header(clock: tuple[float, float] | None = None, host: int = WHITE, fen: str = "") -> Header:
    return Header(KEY, "falcon", fen, host, clock, keys()[host].public)


def record(head: Header | None = None) -> Record:
    head = head or header()
    return Record(head, (keys()[WHITE].public, keys()[BLACK].public))


@dataclass
class MemoryJournal:
    """Keeps entries as the journal on disk does: one per side and number, a
    copy is nothing, another entry under a number kept is refused.  ``fail``
    makes the next keep raise, as a full disk would."""

    kept: dict[tuple[int, int], Entry] = field(default_factory=dict)
    writes: int = 0
    fail: bool = False

    def keep(self, entry: Entry) -> None:
        if self.fail:
            self.fail = False
            raise OSError("disk full")
        kept = self.kept.get((entry.side, entry.n))
        if kept is not None:
            assert kept == entry, f"entry {entry.side}/{entry.n} kept as {kept}, now {entry}"
            return
        self.kept[(entry.side, entry.n)] = entry
        self.writes += 1

    def entries(self) -> list[Entry]:
        return [self.kept[k] for k in sorted(self.kept)]


@dataclass
class Pair:
    """Both sides of one game on one record, as a board keeps a browser
    player's game (form 1): White's and Black's :class:`Side`."""

    record: Record
    journal: MemoryJournal
    timer: Timer
    sides: tuple[Side, Side]

    @classmethod
    def new(cls, clock: tuple[float, float] | None = None, fen: str = "") -> Pair:
        rec = record(header(clock, fen=fen))
        journal, timer = MemoryJournal(), Timer()
        inc = clock[1] if clock else 0.0
        sides = tuple(Side(rec, c, keys()[c], journal.keep, timer, inc) for c in (WHITE, BLACK))
        return cls(rec, journal, timer, (sides[0], sides[1]))

    def play(self, *ucis: str, now: float = 0.0) -> None:
        for uci in ucis:
            side = self.sides[self.record.state.turn]
            why = side.play(uci, now)
            assert why is None, (uci, why)
