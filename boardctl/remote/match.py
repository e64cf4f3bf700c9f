"""This board's remote game, whoever plays the other side: the journal, the
log (in a :class:`~.table.Table` while the board's server keeps it alone, in a
:class:`~.peer.Peer` once another board plays), the daemon's notes applied,
and the view the daemon plays from.

No I/O beyond the journal and no clock of its own: the link in the web
server's thread (boardctl.web.remote_link) calls it with the time, and does
the talking.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace

from .clocks import Clocks
from .desk import Answered, Asked, Bound, Note, Played, RemoteView
from .journal import Journal, Kept, Seat
from .log import Entry, Header
from .offers import ASKS, Answerable, Ask, Offers
from .peer import Message, Peer
from .table import Answer, Table, Verdict

logger = logging.getLogger("boardctl.remote")

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no O/0 or I/1 to mistake
CODE_LENGTH = 8  # 32^8: about 10^12 codes, and wrong ones are slowed down


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def new_header(variant: str, host: int, clock: tuple[float, float] | None) -> Header:
    return Header(secrets.token_hex(8), variant, "", host, clock)


class Match:
    """See the module docstring.  ``kept`` is the game as the journal has it."""

    def __init__(self, journal: Journal, kept: Kept, now: float) -> None:
        self.journal = journal
        self.kept = kept
        key = kept.header.key
        self.log = journal.log(kept.header)
        self.table: Table | None = None
        self.peer: Peer | None = None
        if kept.seat == "board":
            self.peer = Peer(self.log, kept.colour, self._keep, journal.next_epoch(key), now)
        else:
            self.table = Table(self.log, kept.colour, self._keep, now)

    @property
    def key(self) -> str:
        return self.kept.header.key

    @property
    def colour(self) -> int:
        """The board player's colour."""
        return self.kept.colour

    def _keep(self, entry: Entry) -> None:
        self.journal.append(self.key, entry)

    # ------------------------------------------------------------ the seat
    def take_seat(self, seat: Seat, name: str, now: float) -> bool:
        """A browser's player or a board takes the other seat; False when
        the other kind has it already."""
        if self.kept.seat not in ("", seat):
            return False
        if self.kept.seat == "":
            self.journal.seat(self.key, seat, name)
            self.kept = replace(self.kept, seat=seat, other=name)
            if seat == "board":
                epoch = self.journal.next_epoch(self.key)
                self.peer = Peer(self.log, self.colour, self._keep, epoch, now)
                self.table = None
        return True

    # ------------------------------------------------------------ the daemon's notes
    def note(self, note: Note, now: float) -> None:
        """Apply the daemon's ``note`` if it is about this game and this log."""
        if note.key != self.key:
            return
        match note:
            case Bound(_, game_id):
                if self.kept.local_game != game_id:
                    self.journal.bind(self.key, game_id)
                    self.kept = replace(self.kept, local_game=game_id)
            case Played(_, seq, uci):
                self._board_plays(seq, uci, now)
            case Asked(_, seq, kind):
                self._board_asks(seq, kind, now)
            case Answered(_, seq, kind, yes):
                if self.peer is not None and seq == self.log.seq:
                    self.peer.answer(kind, yes, now)
                elif self.table is not None:
                    self.table.answer(self.colour, self.key, seq, kind, yes, now)

    def _board_plays(self, seq: int, uci: str, now: float) -> None:
        if self.table is not None:
            answer = self.table.play(self.colour, self.key, seq, uci, now)
        elif self.peer is None or seq != self.log.seq:
            return  # made on another log: the daemon follows the view
        else:
            why = self.peer.play(uci, now)
            answer = Answer(Verdict.APPLIED if why is None else Verdict.REFUSED, why or "")
        if answer.verdict is Verdict.REFUSED:
            logger.warning("remote: the board's move %s refused: %s", uci, answer.why)

    def _board_asks(self, seq: int, kind: Ask, now: float) -> None:
        if self.table is not None:
            self.table.ask(self.colour, self.key, seq, kind, now)
        elif self.peer is not None and (seq == self.log.seq or kind == "resign"):
            self.peer.ask(kind, now)

    # ------------------------------------------------------------ time
    def tick(self, now: float) -> None:
        if self.peer is not None:
            self.peer.tick(now)
        elif self.table is not None:
            self.table.tick(now)

    # ------------------------------------------------------------ another board
    def outgoing(self, limit: int | None = None) -> list[Message]:
        return self.peer.outgoing(limit) if self.peer is not None else []

    def receive(self, messages: list[Message], now: float) -> None:
        if self.peer is not None:
            self.peer.receive(messages, now)

    # ------------------------------------------------------------ the view
    def away(self, now: float) -> bool:
        if self.peer is not None:
            return self.peer.away(now)
        return self.table is None or self.table.away(now)

    def mine(self) -> Offers:
        if self.peer is not None:
            return self.peer.mine.current(self.log)
        assert self.table is not None
        return self.table.offers[self.colour].current(self.log)

    def asks_of(self, side: int) -> tuple[Answerable, ...]:
        """What ``side`` is asked now by the other."""
        if self.peer is not None:
            return self.peer.asking() if side == self.colour else ()
        assert self.table is not None
        return self.table.asking(side)

    def declined(self, side: int) -> str:
        """The offer of ``side``'s that the other said no to, on the log as it is."""
        if self.peer is not None:
            said = self.peer.declined if side == self.colour else None
        else:
            assert self.table is not None
            said = self.table.declined.get(side)
        return said[0] if said is not None and said[1] == self.log.seq else ""

    def view(self, now: float, invite: str = "") -> RemoteView:
        """The view the daemon plays from."""
        clocks = self._clocks()
        mine = self.mine()
        ending = self.log.ending
        free = self.kept.seat == "" and self.kept.role == "host"
        return RemoteView(
            key=self.key,
            local_game=self.kept.local_game,
            colour=self.colour,
            variant=self.kept.header.variant,
            start_fen=self.kept.header.start_fen,
            line=self.log.line,
            move_clocks=self.log.clocks,
            seq=self.log.seq,
            taken_back=self.log.retracted,
            ending=(ending.winner, ending.termination.value) if ending is not None else None,
            clocks=clocks.left(now) if clocks is not None else None,
            away=self.away(now),
            joined=not free,
            asks=self.asks_of(self.colour),
            asked=tuple(k for k in ASKS if _asked(mine, k)),
            declined=self.declined(self.colour),
            code=self.kept.code if free else "",
            invite=invite if free else "",
            name=self.kept.other,
            opponent="board" if self.peer is not None else "browser",
            problem=(self.peer.problem or "") if self.peer is not None else "",
        )

    def _clocks(self) -> Clocks | None:
        if self.peer is not None:
            return self.peer.clocks
        assert self.table is not None
        return self.table.clocks


def _asked(offers: Offers, kind: Ask) -> bool:
    if kind == "resign":
        return offers.resign
    return offers.made(kind) is not None
