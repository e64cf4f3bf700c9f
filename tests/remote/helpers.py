"""Shared pieces of the remote-play tests: a journal in memory that counts
every entry it is asked to keep, and headers."""

from __future__ import annotations

from boardctl.remote.log import Entry, Header, Log, replayed
from boardctl.rules import WHITE

KEY = "0123456789abcdef"


def header(clock: tuple[float, float] | None = None, host: int = WHITE) -> Header:
    return Header(KEY, clock=clock, host=host)


class MemoryJournal:
    """Keeps entries as the journal on disk does: one per number, a copy is
    nothing, another entry under a number kept is refused.  ``fail`` makes
    the next keep raise, as a full disk would."""

    def __init__(self, head: Header) -> None:
        self.header = head
        self.kept: dict[int, Entry] = {}
        self.writes: dict[int, int] = {}  # entry number: times it was written anew
        self.fail = False

    def keep(self, entry: Entry) -> None:
        if self.fail:
            self.fail = False
            raise OSError("disk full")
        kept = self.kept.get(entry.seq)
        if kept is not None:
            assert kept == entry, f"entry {entry.seq} kept as {kept}, now {entry}"
            return
        self.kept[entry.seq] = entry
        self.writes[entry.seq] = self.writes.get(entry.seq, 0) + 1

    def log(self) -> Log:
        return replayed(self.header, [self.kept[n] for n in sorted(self.kept)])
