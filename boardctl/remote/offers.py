"""What a side asks and answers beyond its moves: takebacks, draws, resigning.

Offers are state, not events (docs/remote.md): each side holds its own
:class:`Offers` and repeats them until the log makes them moot.  An offer
names the log's length when it was made and is void once the log has grown
past it.  :func:`due` says which entry the side to move must add because of
them; both forms of remote play use it, so they follow one rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from ..rules import Termination
from .log import Entry, Log, LogError

Ask = Literal["takeback", "draw", "resign"]
ASKS: tuple[Ask, ...] = ("takeback", "draw", "resign")
Answerable = Literal["takeback", "draw"]
ANSWERABLE: tuple[Answerable, ...] = ("takeback", "draw")


@dataclass(frozen=True)
class Offers:
    """One side's standing offers and answers; ``at`` values are log lengths."""

    takeback: int | None = None  # asked to take back its last move, at this length
    draw: int | None = None  # offered a draw at this length
    resign: bool = False  # resigned (until an entry says so)
    accept: tuple[Answerable, int] | None = None  # yes to the other's offer made at that length
    decline: tuple[Answerable, int] | None = None  # no to it

    def made(self, kind: Answerable) -> int | None:
        return self.takeback if kind == "takeback" else self.draw

    def current(self, log: Log) -> Offers:
        """These offers without the ones the log has made moot."""
        if log.to_move() is None:
            return Offers()
        seq = log.seq

        def live(at: int | None) -> int | None:
            return at if at == seq else None

        def answer(it: tuple[Answerable, int] | None) -> tuple[Answerable, int] | None:
            return it if it is not None and it[1] == seq else None

        return Offers(
            live(self.takeback),
            live(self.draw),
            self.resign,
            answer(self.accept),
            answer(self.decline),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "takeback": self.takeback,
            "draw": self.draw,
            "resign": self.resign,
            "accept": list(self.accept) if self.accept else None,
            "decline": list(self.decline) if self.decline else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Offers:
        """:raises LogError: for anything but offers boardctl writes."""
        if not isinstance(data, dict) or set(data) != set(Offers().to_json()):
            raise LogError("offers: expected takeback, draw, resign, accept and decline")

        def at(value: Any) -> int | None:
            if value is not None and (type(value) is not int or value < 0):
                raise LogError("offers: a log length is a whole number")
            return None if value is None else int(value)

        def answer(value: Any) -> tuple[Answerable, int] | None:
            if value is None:
                return None
            if not (
                isinstance(value, list)
                and len(value) == 2
                and value[0] in ANSWERABLE
                and type(value[1]) is int
                and value[1] >= 0
            ):
                raise LogError("offers: an answer is [kind, log length]")
            return value[0], value[1]

        if type(data["resign"]) is not bool:
            raise LogError("offers: resign is true or false")
        return cls(
            at(data["takeback"]),
            at(data["draw"]),
            data["resign"],
            answer(data["accept"]),
            answer(data["decline"]),
        )


def asked(log: Log, me: int, mine: Offers, kind: Ask) -> Offers | str:
    """``me``'s offers once it asks ``kind``, or why it cannot."""
    if log.to_move() is None:
        return "the game is over"
    if kind == "resign":
        return replace(mine, resign=True)
    if kind == "takeback":
        if log.last_move_of(me) is None:
            return "you have no move to take back"
        return replace(mine, takeback=log.seq)
    return replace(mine, draw=log.seq)


def asking(log: Log, theirs: Offers) -> tuple[Answerable, ...]:
    """What the other side asks now that has not been made moot."""
    live = theirs.current(log)
    return tuple(kind for kind in ANSWERABLE if live.made(kind) is not None)


def accepted(log: Log, me: int, kind: Answerable) -> Entry | None:
    """The entry that grants the other side's ``kind``, when ``me`` is to move
    and adds it at once (else ``me`` says yes in its offers)."""
    if log.to_move() != me:
        return None
    if kind == "takeback":
        return log.takeback(me, me ^ 1)
    return log.end(me, Termination.AGREEMENT, None)


def due(log: Log, me: int, mine: Offers, theirs: Offers) -> Entry | None:
    """The entry ``me`` must add now because of the offers, if it is to move:
    a resignation (its own, or the other's, which it cannot refuse), or its
    own offer that the other accepted at the log as it stands."""
    if log.to_move() != me:
        return None
    if mine.resign:
        return log.end(me, Termination.RESIGNATION, me ^ 1)
    if theirs.resign:
        return log.end(me, Termination.RESIGNATION, me)
    yes = theirs.current(log).accept
    if yes is None or mine.current(log).made(yes[0]) is None:
        return None
    if yes[0] == "takeback":
        return log.takeback(me, me)
    return log.end(me, Termination.AGREEMENT, None)


def answered(log: Log, mine: Offers, kind: Answerable, yes: bool) -> Offers:
    """``mine`` once the side answers the other's ``kind`` (when it is not to
    move, or says no)."""
    answer = (kind, log.seq)
    return replace(mine, accept=answer) if yes else replace(mine, decline=answer)


def declined(log: Log, mine: Offers, theirs: Offers) -> tuple[Offers, Answerable | None]:
    """``mine`` without an offer the other has said no to, and which."""
    no = theirs.current(log).decline
    if no is None or mine.current(log).made(no[0]) is None:
        return mine, None
    if no[0] == "takeback":
        return replace(mine, takeback=None), "takeback"
    return replace(mine, draw=None), "draw"


__all__ = ["ASKS", "Ask", "LogError", "Offers"]
