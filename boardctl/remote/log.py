"""The remote game as a log of entries, chained by digests (docs/remote.md).

Pure: a :class:`Log` replays its entries with the rules core and says which
entry may come next (:meth:`Log.check`); :meth:`Log.move`,
:meth:`Log.takeback` and :meth:`Log.end` build the next entry for a side,
and :meth:`Log.append` adds one.  Entries come from the network too, so
:meth:`Entry.from_json` trusts nothing it reads.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..rules import (
    BLACK,
    WHITE,
    BoardctlError,
    FenError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    Termination,
    UnknownVariantError,
    get_variant,
    parse_uci,
)
from ..rules.game import BLACK_WINS, DRAWN, WHITE_WINS

Kind = Literal["move", "takeback", "end"]
KINDS: tuple[Kind, ...] = ("move", "takeback", "end")
# The endings an entry may declare: the rest the position shows by itself.
REASONS = {
    t.value: t for t in (Termination.RESIGNATION, Termination.AGREEMENT, Termination.TIME_FORFEIT)
}
DIGEST_HEX = 16  # 64 bits: two honest logs never share one by chance
KEY = re.compile(r"[0-9a-f]{16}")
_UCI = re.compile(r"[a-z]{1,2}[0-9]{1,2}[a-z]{1,2}[0-9]{1,2}[a-z]?")
MAX_PLY = 100_000
MAX_CLOCK = 100_000.0


class LogError(BoardctlError, ValueError):
    """An entry or a header that cannot be taken; the message says why."""


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_HEX]


def _colour(value: Any, what: str) -> int:
    if value not in (WHITE, BLACK) or type(value) is not int:
        raise LogError(f"{what}: expected 0 (White) or 1 (Black)")
    return int(value)


@dataclass(frozen=True)
class Header:
    """What both sides agree on before the first entry."""

    key: str
    variant: str = "falcon"
    start_fen: str = ""  # "" : the preset's own start
    host: int = WHITE  # the colour of the side that offered the game
    clock: tuple[float, float] | None = None  # (seconds, increment), None: no clocks

    def root(self) -> str:
        """The digest of the empty log."""
        return _hash(json.dumps(self.to_json(), sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        clock = list(self.clock) if self.clock is not None else None
        return {
            "key": self.key,
            "variant": self.variant,
            "start_fen": self.start_fen,
            "host": self.host,
            "clock": clock,
        }

    @classmethod
    def from_json(cls, data: Any) -> Header:
        """:raises LogError: for anything but a header boardctl writes."""
        if not isinstance(data, dict) or set(data) != {
            "key",
            "variant",
            "start_fen",
            "host",
            "clock",
        }:
            raise LogError("header: expected key, variant, start_fen, host and clock")
        key, variant, fen, clock = data["key"], data["variant"], data["start_fen"], data["clock"]
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise LogError("header: the key is 16 hex digits")
        if not isinstance(variant, str) or not isinstance(fen, str) or len(fen) > 200:
            raise LogError("header: variant and start_fen are texts")
        if clock is not None and not (
            isinstance(clock, list)
            and len(clock) == 2
            and all(type(v) in (int, float) and 0 <= v <= MAX_CLOCK for v in clock)
            and clock[0] > 0
        ):
            raise LogError("header: clock is null or [seconds, increment]")
        header = cls(
            key,
            variant,
            fen,
            _colour(data["host"], "header: host"),
            None if clock is None else (float(clock[0]), float(clock[1])),
        )
        try:
            Game(get_variant(variant), fen or None)
        except (UnknownVariantError, FenError) as exc:
            raise LogError(f"header: {exc}") from None
        return header


@dataclass(frozen=True)
class Entry:
    """One entry of the log (see docs/remote.md for what each field means)."""

    seq: int
    kind: Kind
    by: int
    prev: str
    ply: int = 0
    uci: str = ""
    clock: float | None = None
    result: str = ""
    reason: str = ""

    def digest(self) -> str:
        """The log's digest once this entry is added (it names the one before)."""
        return _hash(json.dumps(self.to_json(), sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "by": self.by,
            "prev": self.prev,
            "ply": self.ply,
            "uci": self.uci,
            "clock": self.clock,
            "result": self.result,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        """:raises LogError: for anything but an entry boardctl writes."""
        if not isinstance(data, dict) or set(data) != set(_FIELDS):
            raise LogError(f"entry: expected exactly the fields {', '.join(_FIELDS)}")
        seq, ply, clock = data["seq"], data["ply"], data["clock"]
        if type(seq) is not int or not 1 <= seq <= MAX_PLY * 2:
            raise LogError("entry: seq is a whole number from 1")
        if type(ply) is not int or not 0 <= ply <= MAX_PLY:
            raise LogError("entry: ply is a whole number from 0")
        if clock is not None and not (type(clock) in (int, float) and 0 <= clock <= MAX_CLOCK):
            raise LogError("entry: clock is null or seconds")
        kind, prev, uci = data["kind"], data["prev"], data["uci"]
        result, reason = data["result"], data["reason"]
        if kind not in KINDS:
            raise LogError(f"entry: kind is one of {', '.join(KINDS)}")
        if not isinstance(prev, str) or len(prev) != DIGEST_HEX:
            raise LogError("entry: prev is a digest")
        if not isinstance(uci, str) or (uci and not _UCI.fullmatch(uci)):
            raise LogError("entry: uci is a move in coordinate notation")
        if result not in ("", WHITE_WINS, BLACK_WINS, DRAWN) or not isinstance(reason, str):
            raise LogError("entry: result and reason are texts")
        return cls(
            seq,
            kind,
            _colour(data["by"], "entry: by"),
            prev,
            ply,
            uci,
            None if clock is None else float(clock),
            result,
            reason,
        )


_FIELDS = tuple(Entry(1, "move", WHITE, "").to_json())


def winner_of(result: str) -> int | None:
    return {WHITE_WINS: WHITE, BLACK_WINS: BLACK}.get(result)


def result_of(winner: int | None) -> str:
    return DRAWN if winner is None else (WHITE_WINS if winner == WHITE else BLACK_WINS)


class Log:
    """The entries of one remote game, and the game they replay to.

    It grows in place (:meth:`append`), an entry at a time, each checked
    first; nothing else ever changes it.
    """

    def __init__(self, header: Header) -> None:
        self.header = header
        self.entries: list[Entry] = []
        self.digests = [header.root()]
        self.game = Game(get_variant(header.variant), header.start_fen or None)
        self.ending: Outcome | None = None  # declared by an entry
        self._line: tuple[str, ...] = ()
        self._clocks: tuple[float | None, ...] = ()  # each move's mover's time left
        self._first = self.game.position.turn  # who makes ply 1
        # The moves the last entry took back, while it is the last (a board
        # that restarts tells them from a move of its player's made since).
        self.retracted: tuple[str, ...] = ()

    @property
    def seq(self) -> int:
        return len(self.entries)

    @property
    def digest(self) -> str:
        return self.digests[-1]

    @property
    def line(self) -> tuple[str, ...]:
        """The game's moves now, in coordinate notation."""
        return self._line

    @property
    def clocks(self) -> tuple[float | None, ...]:
        """The time left its mover after each move of :attr:`line` (None: no clocks)."""
        return self._clocks

    @property
    def plies(self) -> int:
        return len(self.game.moves)

    def over(self) -> Outcome | None:
        """How the game ended (an entry, or the position), or None."""
        return self.ending or self.game.outcome()

    def to_move(self) -> int | None:
        """The colour that may add the next entry; None once the game is over."""
        return None if self.over() is not None else self.game.position.turn

    def mover_of(self, ply: int) -> int:
        """The colour that makes the move of ``ply`` in this game."""
        return self._first ^ ((ply - 1) & 1)

    def last_move_of(self, colour: int) -> int | None:
        """The ply of ``colour``'s last move in the game now, or None."""
        for ply in range(self.plies, 0, -1):
            if self.mover_of(ply) == colour:
                return ply
        return None

    # ------------------------------------------------------------- checking
    def check(self, entry: Entry) -> str | None:
        """Why ``entry`` cannot be the next entry, or None when it can."""
        if entry.seq != self.seq + 1:
            return f"entry {entry.seq} is not the next ({self.seq + 1})"
        if entry.prev != self.digest:
            return f"entry {entry.seq} follows another game"
        mover = self.to_move()
        if mover is None:
            return "the game is over"
        if entry.by != mover:
            return f"entry {entry.seq} is not from the side to move"
        if entry.kind == "move":
            return self._check_move(entry)
        if entry.kind == "takeback":
            if not 0 <= entry.ply < self.plies:
                return f"a takeback to ply {entry.ply} of {self.plies}"
            return None
        return self._check_end(entry)

    def _check_move(self, entry: Entry) -> str | None:
        if entry.ply != self.plies + 1:
            return f"a move for ply {entry.ply}, not {self.plies + 1}"
        try:
            parse_uci(self.game.position, entry.uci)
        except (IllegalMoveError, InvalidMoveError):
            return f"{entry.uci or 'no move'} is not legal at ply {entry.ply}"
        return None

    def _check_end(self, entry: Entry) -> str | None:
        reason = REASONS.get(entry.reason)
        if reason is None:
            return f"no such ending: {entry.reason!r}"
        winner = winner_of(entry.result)
        if reason is Termination.AGREEMENT and entry.result != DRAWN:
            return "a draw agreed is 1/2-1/2"
        if reason is Termination.RESIGNATION and winner is None:
            return "a resignation has a winner"
        if reason is Termination.TIME_FORFEIT and winner != entry.by ^ 1:
            return "a side declares only its own time forfeit"
        return None

    # --------------------------------------------------------------- adding
    def append(self, entry: Entry) -> None:
        """Add ``entry``.  :raises LogError: when :meth:`check` refuses it."""
        why = self.check(entry)
        if why is not None:
            raise LogError(why)
        self.retracted = ()
        if entry.kind == "move":
            self.game.push(parse_uci(self.game.position, entry.uci))
            self._line = (*self._line, entry.uci)
            self._clocks = (*self._clocks, entry.clock)
        elif entry.kind == "takeback":
            while self.plies > entry.ply:
                self.game.pop()
            self._line, self.retracted = self._line[: entry.ply], self._line[entry.ply :]
            self._clocks = self._clocks[: entry.ply]
        else:
            self.ending = Outcome(REASONS[entry.reason], winner_of(entry.result))
        self.entries.append(entry)
        self.digests.append(entry.digest())

    def _next(self, by: int, kind: Kind, **fields: Any) -> Entry:
        return replace(Entry(self.seq + 1, kind, by, self.digest), **fields)

    def move(self, by: int, uci: str, clock: float | None = None) -> Entry:
        """The entry for ``by``'s move ``uci`` (checked only when appended)."""
        held = None if clock is None else round(clock, 3)
        return self._next(by, "move", ply=self.plies + 1, uci=uci, clock=held)

    def takeback(self, by: int, asker: int) -> Entry | None:
        """The entry that takes back ``asker``'s last move (and the reply to
        it), added by ``by``; None when ``asker`` has no move to take back."""
        ply = self.last_move_of(asker)
        return None if ply is None else self._next(by, "takeback", ply=ply - 1)

    def end(self, by: int, reason: Termination, winner: int | None) -> Entry:
        return self._next(by, "end", result=result_of(winner), reason=reason.value)

    def copy_of(self, seq: int) -> Entry | None:
        """The entry numbered ``seq``, if the log has it."""
        return self.entries[seq - 1] if 1 <= seq <= self.seq else None


def replayed(header: Header, entries: list[Entry]) -> Log:
    """A log of ``entries`` in order.  :raises LogError: at the first that does not fit."""
    log = Log(header)
    for entry in entries:
        log.append(entry)
    return log
