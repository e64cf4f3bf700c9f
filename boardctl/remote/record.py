"""Both sides' logs, and the game they make (docs/remote.md, "The game").

Pure.  A :class:`SideLog` holds one side's entries, each checked as it is
added: the game's key, the side, the next number, the digest of the entry
before it, and the side's signature.  A :class:`Record` holds the two and
derives the game from them with :func:`derive`: from the header's start,
the entries made on the state the game is in are gathered, the valid
transitions among them ranked, and the first taken; again from the state
that makes, until no entry was made on it.  Entries made on a state the game
never reached are void.  So the game is a function of the two logs alone,
the same on both boards once they hold the same entries, whatever order the
entries came in; and no entry of one side can do what needs the other's
word (a takeback, a draw, an abort), or end the game for the other (a
resignation), or carry the other's move.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..rules import Game, IllegalMoveError, InvalidMoveError, Outcome, Termination, parse_uci
from .entry import Entry, EntryError, Header
from .keys import digest

# Seconds past the other side's time running out before this side may claim
# the game on time: the time a move may spend on the way (docs/remote.md).
CLAIM_GRACE = 5.0
# Seconds the other side must have been away, with no clock of its running,
# before this side may claim the game.
ABSENCE_CLAIM = 120.0

# Which of two transitions made on one state stands (lower first): an ending
# that needs nobody's word, then an agreement, then a move.
_RANK = {"resign": 0, "flag": 1, "claim": 2, "accept": 3, "move": 4}
_AGREEMENT_RANK = {"draw": 0, "abort": 1, "takeback": 2}
TRANSITIONS = frozenset(_RANK)


class SideLog:
    """One side's entries, as checked in (see the module docstring).
    ``public`` is the side's key; None while the seat is free."""

    def __init__(self, header: Header, side: int, public: str | None) -> None:
        self.header = header
        self.side = side
        self.public = public
        self.entries: list[Entry] = []
        self.digests = [header.root()]

    @property
    def n(self) -> int:
        return len(self.entries)

    @property
    def digest(self) -> str:
        return self.digests[-1]

    def check(self, entry: Entry) -> str | None:
        """Why ``entry`` cannot be this log's next entry, or None."""
        if entry.key != self.header.key:
            return "an entry of another game"
        if entry.side != self.side:
            return "an entry of the other side"
        if entry.n != self.n + 1:
            return f"entry {entry.n} is not the next ({self.n + 1})"
        if entry.prev != self.digest:
            return f"entry {entry.n} does not follow entry {self.n}"
        if self.public is None or not entry.signed_by(self.public):
            return f"entry {entry.n} is not signed by its side"
        return None

    def append(self, entry: Entry) -> None:
        """:raises EntryError: when :meth:`check` refuses ``entry``."""
        why = self.check(entry)
        if why is not None:
            raise EntryError(why)
        self.entries.append(entry)
        self.digests.append(entry.digest())

    def get(self, n: int) -> Entry | None:
        return self.entries[n - 1] if 1 <= n <= self.n else None


@dataclass(frozen=True)
class Standing:
    """An offer made on the game's present state, not yet answered."""

    side: int
    n: int
    what: str


@dataclass
class State:
    """The game as the logs make it, up to some transition."""

    id: str
    game: Game
    first: int  # the colour that makes ply 1
    reported: list[float]  # each side's time left at the start of its turn
    line: tuple[str, ...] = ()
    move_clocks: tuple[float | None, ...] = ()
    ending: Outcome | None = None  # declared by a transition
    version: int = 0  # transitions taken since the start
    by: Entry | None = None  # the transition that made this state
    taken_back: tuple[str, ...] = ()  # the moves it took back, if a takeback
    standing: tuple[Standing, ...] = ()
    declined: tuple[Standing, ...] = ()  # offers said no to on this state
    clocked: bool = False

    @property
    def plies(self) -> int:
        return len(self.line)

    @property
    def turn(self) -> int:
        return self.game.position.turn

    def over(self) -> Outcome | None:
        return self.ending or self.game.outcome()

    def mover_of(self, ply: int) -> int:
        return self.first ^ ((ply - 1) & 1)

    def last_move_of(self, side: int) -> int | None:
        """The ply of ``side``'s last move in the game, or None."""
        for ply in range(self.plies, 0, -1):
            if self.mover_of(ply) == side:
                return ply
        return None

    @property
    def running(self) -> int | None:
        """Whose clock runs: nobody's before the first move (White's first
        move is free, as at the board), after the end, or without clocks."""
        if not self.clocked or self.plies == 0 or self.over() is not None:
            return None
        return self.turn


def start(header: Header) -> State:
    game = header.game()
    seconds = header.clock[0] if header.clock is not None else 0.0
    return State(
        header.root(),
        game,
        game.position.turn,
        [seconds, seconds],
        clocked=header.clock is not None,
    )


# ------------------------------------------------------------ validity
def _offer_valid(state: State, side: int, what: str) -> bool:
    if what == "takeback":
        return state.last_move_of(side) is not None
    return what in ("draw", "abort")


def why_not(entry: Entry, state: State, here: list[Entry], other: SideLog) -> str | None:
    """Why ``entry``, made on ``state``, cannot change it (None: it can).
    ``here`` is every entry made on ``state``; ``other`` the other side's log."""
    if state.over() is not None:
        return "the game is over"
    side = entry.side
    match entry.kind:
        case "move":
            return _move_why_not(entry, state)
        case "resign":
            return None
        case "flag":
            if state.running != side:
                return "no clock of this side runs"
            return None
        case "claim":
            return _claim_why_not(entry, state)
        case "accept":
            offer = other.get(entry.to)
            if offer is None or offer.kind != "offer" or offer.at != state.id:
                return "no such offer on this state"
            if not _offer_valid(state, side ^ 1, offer.what):
                return "an offer that cannot be granted"
            if any(
                e.kind == "decline" and e.side == side and e.to == entry.to and e.n < entry.n
                for e in here
            ):
                return "the offer was declined"
            return None
    return "not a transition"


def _move_why_not(entry: Entry, state: State) -> str | None:
    if entry.side != state.turn:
        return "not this side's move"
    if entry.ply != state.plies + 1:
        return f"a move for ply {entry.ply}, not {state.plies + 1}"
    if state.clocked != (entry.clock is not None):
        return "the clock's time is missing or not wanted"
    try:
        parse_uci(state.game.position, entry.uci)
    except (IllegalMoveError, InvalidMoveError):
        return f"{entry.uci or 'no move'} is not legal at ply {entry.ply}"
    return None


def _claim_why_not(entry: Entry, state: State) -> str | None:
    other = entry.side ^ 1
    if state.turn != other:
        return "a claim against the side to move only"
    if entry.what == "time":
        if state.running != other:
            return "the other side's clock does not run"
        if entry.waited < state.reported[other] + CLAIM_GRACE:
            return "the other side's time has not run out"
        return None
    if entry.what == "absence":
        if state.running is not None:
            return "a clock runs: claim on time"
        if entry.waited < ABSENCE_CLAIM:
            return "the other side has not been away long enough"
        return None
    return "no such claim"


# ---------------------------------------------------------- transitions
def _rank(entry: Entry, state: State, logs: list[SideLog]) -> tuple[int, int, int, int]:
    agreement = 0
    if entry.kind == "accept":
        offer = logs[entry.side ^ 1].get(entry.to)
        agreement = _AGREEMENT_RANK[offer.what] if offer is not None else 0
    return (_RANK[entry.kind], agreement, int(entry.side != state.turn), entry.n)


def after(state: State, entry: Entry, logs: list[SideLog]) -> State:
    """The state ``entry`` (a valid transition on ``state``) makes.
    ``state`` is spent: its game is the new state's, moved on."""
    game = state.game
    new = replace(
        state,
        id=digest(f"{state.id}:{entry.side}:{entry.n}".encode()),
        game=game,
        reported=list(state.reported),
        version=state.version + 1,
        by=entry,
        taken_back=(),
        standing=(),
        declined=(),
    )
    side = entry.side
    match entry.kind:
        case "move":
            game.push(parse_uci(game.position, entry.uci))
            new.line = (*state.line, entry.uci)
            new.move_clocks = (*state.move_clocks, entry.clock)
            if entry.clock is not None:
                new.reported[side] = entry.clock
        case "resign":
            new.ending = Outcome(Termination.RESIGNATION, side ^ 1)
        case "flag":
            new.ending = Outcome(Termination.TIME_FORFEIT, side ^ 1)
        case "claim":
            why = Termination.TIME_FORFEIT if entry.what == "time" else Termination.FORFEIT
            new.ending = Outcome(why, side)
        case "accept":
            offer = logs[side ^ 1].get(entry.to)
            assert offer is not None
            _agreed(new, state, offer)
    return new


def _agreed(new: State, state: State, offer: Entry) -> None:
    if offer.what == "draw":
        new.ending = Outcome(Termination.AGREEMENT, None)
    elif offer.what == "abort":
        new.ending = Outcome(Termination.ABANDONED, None)
    else:  # the asker's last move goes, and the reply to it
        ply = state.last_move_of(offer.side)
        assert ply is not None
        for _ in range(state.plies - ply + 1):
            new.game.pop()
        new.line, new.taken_back = state.line[: ply - 1], state.line[ply - 1 :]
        new.move_clocks = state.move_clocks[: ply - 1]


def _settled(state: State, here: list[Entry]) -> State:
    """``state`` with the offers made on it that still stand, and those declined."""
    if state.over() is not None:
        return state
    answered = {(e.side ^ 1, e.to) for e in here if e.kind in ("accept", "decline")}
    declined = {(e.side ^ 1, e.to) for e in here if e.kind == "decline"}
    standing, no = [], []
    for e in here:
        if e.kind != "offer" or not _offer_valid(state, e.side, e.what):
            continue
        offer = Standing(e.side, e.n, e.what)
        if (e.side, e.n) in declined:
            no.append(offer)
        elif (e.side, e.n) not in answered:
            standing.append(offer)
    return replace(state, standing=tuple(standing), declined=tuple(no))


def derive(header: Header, logs: list[SideLog]) -> State:
    """The game the two logs make (see the module docstring)."""
    made_on: dict[str, list[Entry]] = {}
    for log in logs:
        for entry in log.entries:
            made_on.setdefault(entry.at, []).append(entry)
    return _forward(start(header), made_on, logs, set())


def _forward(
    state: State, made_on: dict[str, list[Entry]], logs: list[SideLog], passed: set[str]
) -> State:
    """From ``state`` on, as far as the entries take the game; ``passed``
    gathers the ids of the states left behind."""
    while True:
        here = made_on.get(state.id, [])
        valid = [
            e
            for e in here
            if e.kind in TRANSITIONS and why_not(e, state, here, logs[e.side ^ 1]) is None
        ]
        if not valid:
            return _settled(state, here)
        best = min(valid, key=lambda e: _rank(e, state, logs))
        passed.add(state.id)
        state = after(state, best, logs)


# An honest side adds a handful of entries on one state (its offers, its
# answers, one transition), and a few thousand in a whole game; more is a
# side flooding the other's memory and disk.
MAX_ON_ONE_STATE = 16
MAX_ENTRIES = 5000


@dataclass
class Record:
    """The header, both logs (White's and Black's) and the game they make.

    ``keys``: each side's public key (None while a seat is free).  Adding an
    entry made on the present state moves the game on from there; one made
    on a state the game has passed derives it again from the start (two
    transitions made on one state at once are rare); one made on a state not
    reached waits for the game to get there."""

    header: Header
    keys: tuple[str | None, str | None]
    logs: list[SideLog] = field(init=False)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.logs = [SideLog(self.header, side, self.keys[side]) for side in (0, 1)]
        self._made_on: dict[str, list[Entry]] = {}
        self._passed: set[str] = set()
        self.state = _forward(start(self.header), self._made_on, self.logs, self._passed)

    def seat(self, side: int, public: str) -> None:
        """The side's key is known now (a guest has joined)."""
        self.logs[side].public = public

    def check(self, entry: Entry) -> str | None:
        """Why ``entry`` cannot be added to its side's log (None: it can)."""
        why = self.logs[entry.side].check(entry)
        if why is not None:
            return why
        if self.logs[entry.side].n >= MAX_ENTRIES:
            return f"more than {MAX_ENTRIES} entries from one side"
        mine = [e for e in self._made_on.get(entry.at, []) if e.side == entry.side]
        if len(mine) >= MAX_ON_ONE_STATE:
            return f"more than {MAX_ON_ONE_STATE} entries from one side on one state"
        return None

    def add(self, entry: Entry) -> State:
        """Add ``entry`` to its side's log; the game as it now stands.

        :raises EntryError: when :meth:`check` refuses it.
        """
        why = self.check(entry)
        if why is not None:
            raise EntryError(why)
        self.logs[entry.side].append(entry)
        self._made_on.setdefault(entry.at, []).append(entry)
        if entry.at == self.state.id:
            self.state = _forward(self.state, self._made_on, self.logs, self._passed)
        elif entry.at in self._passed and entry.kind in TRANSITIONS:
            self._passed = set()
            self.state = _forward(start(self.header), self._made_on, self.logs, self._passed)
        return self.state

    def made_on(self, state_id: str) -> list[Entry]:
        return list(self._made_on.get(state_id, []))

    def why_not(self, entry: Entry) -> str | None:
        """Why ``entry``, not yet added, would do nothing on the present state
        (an offer or an answer that stands is something)."""
        state = self.state
        if entry.at != state.id:
            return "made on another state"
        here = self.made_on(state.id)
        if entry.kind in TRANSITIONS:
            return why_not(entry, state, [*here, entry], self.logs[entry.side ^ 1])
        if state.over() is not None:
            return "the game is over"
        if entry.kind == "offer":
            if any(s.side == entry.side and s.what == entry.what for s in state.standing):
                return "offered already"
            return None if _offer_valid(state, entry.side, entry.what) else "nothing to offer"
        offered = {(s.side, s.n) for s in state.standing}
        return None if (entry.side ^ 1, entry.to) in offered else "no such offer standing"
