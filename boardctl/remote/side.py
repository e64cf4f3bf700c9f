"""One side of a remote game as its own board acts for it (docs/remote.md).

A :class:`Side` writes its side's entries, signed with its key, on the
state the game is in, and keeps its side's time: the move's clock, its own
flag when its time runs out, and the claim on time once the other side's
has run out by :data:`~.record.CLAIM_GRACE` on this board's clock.  It
reads no clock of its own (the caller passes ``now``) and writes nothing but
through ``keep``, which stores an entry *before* it joins the record, so a
status never acknowledges an entry that is not on disk.

The board's own player has a Side; so has the player in the browser,
whose side the board keeps (form 1): one set of rules for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .entry import Entry, Kind
from .keys import SigningKey
from .record import CLAIM_GRACE, Record, State

Keep = Callable[[Entry], None]
ASKS = ("takeback", "draw", "abort", "resign", "claim")


@dataclass
class Timer:
    """When the game's present state began, on this board's clock.

    ``fresh`` is False while the present state is the one this board found
    when it started: it has not seen that turn begin, so it cannot tell how
    long the turn has run (a claim against it is then taken as made)."""

    state_id: str = ""
    began: float = 0.0
    fresh: bool = False

    def follow(self, state: State, now: float) -> None:
        if state.id != self.state_id:
            self.fresh = bool(self.state_id)
            self.state_id, self.began = state.id, now

    def elapsed(self, now: float) -> float:
        return max(0.0, now - self.began)

    def left(self, state: State, now: float) -> tuple[float, float] | None:
        """White's and Black's time left now (None: no clocks)."""
        if not state.clocked:
            return None
        out = list(state.reported)
        running = state.running
        if running is not None:
            out[running] = max(0.0, out[running] - self.elapsed(now))
        return out[0], out[1]


@dataclass(eq=False)  # a side is itself, not its fields
class Side:
    """See the module docstring.  ``increment``: the clock's, in seconds."""

    record: Record
    me: int
    key: SigningKey
    keep: Keep
    timer: Timer
    increment: float

    @property
    def state(self) -> State:
        return self.record.state

    def _entry(self, kind: Kind, **fields: Any) -> Entry:
        log = self.record.logs[self.me]
        bare = Entry(self.record.header.key, self.me, log.n + 1, log.digest, self.state.id, kind)
        return replace(bare, **fields).signed(self.key)

    def _add(self, entry: Entry, now: float) -> str | None:
        why = self.record.why_not(entry)
        if why is not None:
            return why
        self.keep(entry)
        self.record.add(entry)
        self.timer.follow(self.record.state, now)
        return None

    # ------------------------------------------------------------ the player
    def play(self, uci: str, now: float) -> str | None:
        """The player's move; None once it is in, else why not."""
        state = self.state
        if state.over() is not None:
            return "the game is over"
        if state.turn != self.me:
            return "it is not your move"
        clock = None
        if state.clocked:
            left = self.timer.left(state, now)
            assert left is not None
            if left[self.me] <= 0.0:
                return "your time has run out"
            clock = round(left[self.me] + self.increment, 3)
        return self._add(self._entry("move", ply=state.plies + 1, uci=uci, clock=clock), now)

    def ask(self, kind: str, now: float, away: float = 0.0) -> str | None:
        """The player offers a takeback, a draw or an abort, resigns, or
        claims the game from an opponent ``away`` seconds gone."""
        if kind == "resign":
            return self._add(self._entry("resign"), now)
        if kind == "claim":
            return self._add(self._entry("claim", what="absence", waited=round(away, 3)), now)
        if kind not in ("takeback", "draw", "abort"):
            return f"no such request: {kind}"
        return self._add(self._entry("offer", what=kind), now)

    def answer(self, what: str, yes: bool, now: float) -> str | None:
        """The player says yes or no to the other side's offer of ``what``."""
        offer = next((s for s in self.asking() if s.what == what), None)
        if offer is None:
            return "nothing to answer"
        return self._add(self._entry("accept" if yes else "decline", to=offer.n), now)

    def asking(self) -> tuple[Any, ...]:
        """The other side's offers standing now."""
        return tuple(s for s in self.state.standing if s.side != self.me)

    def asked(self) -> tuple[str, ...]:
        """This side's offers standing now."""
        return tuple(s.what for s in self.state.standing if s.side == self.me)

    def declined(self) -> str:
        """This side's offer the other said no to on the present state, if any."""
        return next((s.what for s in self.state.declined if s.side == self.me), "")

    # ------------------------------------------------------------ time
    def tick(self, now: float, claim: bool = True) -> None:
        """This side's flag when its time has run out; its claim when the
        other's has, by the grace, on this board's clock (``claim``)."""
        state = self.state
        self.timer.follow(state, now)
        running = state.running
        if running is None or state.over() is not None:
            return
        elapsed = self.timer.elapsed(now)
        if running == self.me and elapsed >= state.reported[self.me]:
            self._add(self._entry("flag"), now)
        elif claim and running != self.me and elapsed >= state.reported[running] + CLAIM_GRACE:
            self._add(self._entry("claim", what="time", waited=round(elapsed, 3)), now)


__all__ = ["ASKS", "Side", "Timer"]
