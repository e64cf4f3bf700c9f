"""What the hall knows of each board of the round, from what it has checked.

:meth:`Watch.feed` takes one message from the broker as it came (its topic
and its bytes) and believes it only as far as it holds up, cheapest check
first: a topic of the round's, within the board's rate
(:data:`RATE` messages a second, :data:`BURST` at once: past it, a board's
newest message of each kind is held until the rate allows, the ones it
replaces dropped unread, so that a hall that fell behind and takes a backlog
at once never loses a board's latest word), within the bounds
of size and depth, signed by the key the round file names for that board,
newer than what the hall has (its stamp), for this round and board number
where the board says which, and a game the rules core replays move by move.
Whatever fails costs a log line a minute at most (:class:`~boardctl.quietlog.QuietLog`).

A board is *live* from any word that holds, *offline* at its goodbye (its
last will, when the broker saw it drop) or after :data:`~.wire.SILENT`
seconds of silence, and live again at its next word; its game stays shown
meanwhile.  Nothing here does I/O or reads a clock: the caller passes ``now``.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from enum import Enum

from ..errors import BoardctlError
from ..quietlog import QuietLog
from ..rules import Game, get_variant, parse_uci, san
from .round import Round, Seat
from .state import BoardState, StateError, parse_body
from .wire import KINDS, SILENT, Kind, MessageError, Sealed, topic, unseal

log = logging.getLogger("boardctl.hall")

RATE = 10.0  # messages a second a board's topics may bring (it sends some 4 at most)
BURST = 20.0


class Presence(Enum):
    WAITING = "waiting"  # nothing heard from the board yet
    LIVE = "live"
    OFFLINE = "offline"


@dataclass
class Table:
    """One board of the round as the hall has it (see the module docstring).
    ``sans`` is the game's moves in SAN; ``received`` when the state came (on
    the hall's clock: the running clock counts down from then); ``refused``
    why the board's latest state was not taken ("" when it was)."""

    seat: Seat
    state: BoardState | None = None
    game: Game | None = None
    sans: list[str] = field(default_factory=list)
    stamp: int = 0  # of the newest state taken
    beat: int = 0  # of the newest status taken
    session: str = ""  # the board's run of its program, from its newest word
    presence: Presence = Presence.WAITING
    heard: float = -math.inf
    received: float = 0.0
    refused: str = ""
    dropped: int = 0  # messages past the board's rate, replaced by a newer one unread
    held: dict[Kind, bytes] = field(default_factory=dict)  # the newest past the rate
    tokens: float = BURST
    filled: float = -math.inf

    @property
    def result(self) -> str:
        """The rules' result where the position ends the game, else the board's."""
        ending = self.game.ending() if self.game is not None else None
        if ending is not None:
            return ending.result
        return self.state.result if self.state is not None else "*"

    @property
    def reason(self) -> str:
        ending = self.game.ending() if self.game is not None else None
        if ending is not None:
            return ending.termination.value
        return self.state.reason if self.state is not None else ""

    @property
    def white(self) -> str:
        return self.seat.white or (self.state.white if self.state else "") or "White"

    @property
    def black(self) -> str:
        return self.seat.black or (self.state.black if self.state else "") or "Black"

    def clock(self, colour: str, now: float) -> int | None:
        """``colour``'s clock now, counted down from the state's reading."""
        state = self.state
        if state is None:
            return None
        reading = state.white_clock if colour == "white" else state.black_clock
        if reading is None or state.running != colour or self.result != "*":
            return reading
        return max(0, math.ceil(reading - (now - self.received)))

    def admit(self, now: float) -> bool:
        """Whether one more message is within the board's rate (counted if not)."""
        if self.filled > -math.inf:
            self.tokens = min(BURST, self.tokens + (now - self.filled) * RATE)
        self.filled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Watch:
    """The round's boards (see the module docstring); :attr:`changed` holds
    the tables that changed since the caller last emptied it."""

    def __init__(self, rnd: Round, quiet: QuietLog | None = None) -> None:
        self.round = rnd
        self.tables = [Table(seat) for seat in rnd.seats]
        self._by_number = {t.seat.number: t for t in self.tables}
        self.changed: set[int] = set()  # board numbers
        self.quiet = quiet or QuietLog(log)
        self._by_topic: dict[str, tuple[Table, Kind]] = {
            topic(rnd.event, t.seat.board, kind): (t, kind) for t in self.tables for kind in KINDS
        }

    def topics(self) -> list[str]:
        """The topics to subscribe to: two for each board."""
        return list(self._by_topic)

    def table(self, number: int) -> Table:
        return self._by_number[number]

    def feed(self, where: str, raw: bytes, now: float) -> None:
        """One message from the broker (see the module docstring)."""
        found = self._by_topic.get(where)
        if found is None:
            self.quiet.warn("topic", "hall: a message on %s, not a topic of the round", where[:120])
            return
        table, kind = found
        if not table.admit(now):
            if kind in table.held:
                table.dropped += 1
            table.held[kind] = raw
            self.quiet.warn(
                f"rate {table.seat.board}", "hall: %s sends too fast: only its newest kept", where
            )
            return
        if table.held.pop(kind, None) is not None:
            table.dropped += 1  # older than this one: the broker keeps a topic's order
        self._open(table, kind, raw, now)

    def _open(self, table: Table, kind: Kind, raw: bytes, now: float) -> None:
        seat = table.seat
        try:
            sealed = unseal(raw, kind, self.round.event, seat.board, seat.key)
        except MessageError as exc:
            self.quiet.warn(f"refused {seat.board}", "hall: board %d: %s", seat.number, exc)
            return
        if sealed.kind == "status":
            self._status(table, sealed, now)
        else:
            self._state(table, sealed, now)

    def tick(self, now: float) -> None:
        """Messages held past a board's rate are read as it allows; boards
        silent for :data:`~.wire.SILENT` seconds are offline."""
        for table in self.tables:
            for kind in list(table.held):
                if table.admit(now):
                    self._open(table, kind, table.held.pop(kind), now)
            if table.presence is Presence.LIVE and now - table.heard > SILENT:
                table.presence = Presence.OFFLINE
                self.changed.add(table.seat.number)

    def _heard(self, table: Table, session: str, now: float) -> None:
        table.heard = now
        table.session = session
        if table.presence is not Presence.LIVE:
            table.presence = Presence.LIVE
            self.changed.add(table.seat.number)

    def _status(self, table: Table, sealed: Sealed, now: float) -> None:
        online = sealed.body.get("online")
        if set(sealed.body) != {"online"} or not isinstance(online, bool):
            self.quiet.warn(f"status {table.seat.board}", "hall: a status without online")
            return
        if online and sealed.stamp > table.beat:
            table.beat = sealed.stamp
            self._heard(table, sealed.session, now)
        elif not online and (sealed.session == table.session or sealed.stamp > table.beat):
            # A goodbye of the run the hall knows (the last will is stamped when
            # the board connected, before its heartbeats), or a newer one.
            table.beat = max(table.beat, sealed.stamp)
            if table.presence is not Presence.OFFLINE:
                table.presence = Presence.OFFLINE
                self.changed.add(table.seat.number)

    def _state(self, table: Table, sealed: Sealed, now: float) -> None:
        if sealed.stamp <= table.stamp:
            return  # a repeat (QoS 1 may bring one twice) or an older state replayed
        seat = table.seat
        try:
            state = parse_body(sealed.body)
            why = self._misplaced(table, state)
            if why:
                raise StateError(why)
            self._replay(table, state)
        except BoardctlError as exc:
            self.quiet.warn(f"state {seat.board}", "hall: board %d: %s", seat.number, exc)
            table.refused = str(exc)
        else:
            table.state, table.stamp, table.received, table.refused = state, sealed.stamp, now, ""
        self.changed.add(seat.number)
        self._heard(table, sealed.session, now)

    def _misplaced(self, table: Table, state: BoardState) -> str:
        """Why ``state`` is not this board's game of the round ("": it is)."""
        seat, number = table.seat, self.round.number
        if state.round and state.round != number:
            return f"the board says it plays round {state.round}, not {number}"
        if state.number and state.number != seat.number:
            return f"the board says it is board {state.number}, not {seat.number}"
        old = table.state
        if state.round and old is not None and old.game != state.game and table.result != "*":
            # Its game of the round is over: a game played after it is not the round's.
            return f"a game after the round's ended ({table.result})"
        return ""

    def _replay(self, table: Table, state: BoardState) -> None:
        """The state's game on the table, move by move through the rules core
        (from the moves the table has, where the new state goes on from them).

        :raises BoardctlError: for a position or a move that is not legal;
            the table is then as it was.
        """
        old, game = table.state, table.game
        kept = (old.variant, old.start, old.game) if old is not None else None
        if game is None or old is None or kept != (state.variant, state.start, state.game):
            fresh = Game(get_variant(state.variant), state.start or None)
            played: list[str] = []
            _extend(fresh, played, state.moves)
            table.game, table.sans = fresh, played
            return
        common, limit = 0, min(len(old.moves), len(state.moves))
        while common < limit and old.moves[common] == state.moves[common]:
            common += 1
        popped = [game.pop() for _ in range(len(game.moves) - common)][::-1]
        sans = table.sans[:common]
        try:
            _extend(game, sans, state.moves[common:])
        except BoardctlError:
            while len(game.moves) > common:
                game.pop()
            for move in popped:
                game.push(move)
            raise
        table.sans = sans


def _extend(game: Game, sans: list[str], moves: tuple[str, ...]) -> None:
    """Play ``moves`` (coordinate notation) on ``game``, their SAN onto ``sans``.

    :raises BoardctlError: at the first that is not legal (the ones before it stay played).
    """
    for text in moves:
        move = parse_uci(game.position, text)
        sans.append(san(game.position, move))
        game.push(move)
