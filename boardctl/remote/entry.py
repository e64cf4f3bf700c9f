"""A remote game's header and its signed entries (docs/remote.md).

Everything here is read from the network too, so every ``from_json`` trusts
nothing: exact fields, exact types, bounded values.  An :class:`Entry` is
one side's act, numbered in that side's own log and signed with its key;
what it does to the game is for :mod:`.record` to work out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from ..errors import BoardctlError
from ..rules import BLACK, WHITE, FenError, Game, UnknownVariantError, get_variant
from .keys import PUBLIC_HEX, SIGNATURE_HEX, SigningKey, canonical, digest, verify

KEY = re.compile(r"[0-9a-f]{16}")  # a game's key, and every digest
UCI = re.compile(r"[a-z]{1,2}[0-9]{1,2}[a-z]{1,2}[0-9]{1,2}[a-z]?")
MAX_N = 100_000  # entries in one side's log: far more than any game
MAX_CLOCK = 100_000.0  # seconds
MAX_FEN = 200

Kind = Literal["move", "offer", "accept", "decline", "resign", "flag", "claim"]
KINDS: tuple[Kind, ...] = ("move", "offer", "accept", "decline", "resign", "flag", "claim")
# What an offer asks the other side to agree to.
Offer = Literal["takeback", "draw", "abort"]
OFFERS: tuple[Offer, ...] = ("takeback", "draw", "abort")
# Why a side claims the game: the other's time ran out on this side's clock,
# or the other has been away while no clock of its runs.
Claim = Literal["time", "absence"]
CLAIMS: tuple[Claim, ...] = ("time", "absence")

ENTRY_LABEL = "boardctl remote entry v2"
HEADER_LABEL = "boardctl remote header v2"


class EntryError(BoardctlError, ValueError):
    """A header or an entry that cannot be taken; the message says why."""


def colour_of(value: Any, what: str) -> int:
    if type(value) is not int or value not in (WHITE, BLACK):
        raise EntryError(f"{what}: expected 0 (White) or 1 (Black)")
    return int(value)


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise EntryError(f"{what}: a whole number from {low} to {high}")
    return int(value)


def _seconds(value: Any, what: str) -> float:
    if type(value) not in (int, float) or not 0 <= value <= MAX_CLOCK:
        raise EntryError(f"{what}: seconds from 0 to {MAX_CLOCK:g}")
    return float(value)


def _text(value: Any, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise EntryError(f"{what}: not in the expected form")
    return value


@dataclass(frozen=True)
class Header:
    """What the host sets before the first entry; the guest takes it as the
    host signed it.  ``host_key`` is the host's public key."""

    key: str
    variant: str
    start_fen: str  # "": the preset's own start
    host: int  # the colour the host's player plays
    clock: tuple[float, float] | None  # (seconds, increment); None: no clocks
    host_key: str

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "variant": self.variant,
            "start_fen": self.start_fen,
            "host": self.host,
            "clock": list(self.clock) if self.clock is not None else None,
            "host_key": self.host_key,
        }

    def root(self) -> str:
        """The digest every log and the game's first state start from."""
        return digest(canonical(self.to_json()))

    def game(self) -> Game:
        return Game(get_variant(self.variant), self.start_fen or None)

    @classmethod
    def from_json(cls, data: Any) -> Header:
        """:raises EntryError: for anything but a header boardctl writes."""
        if not isinstance(data, dict) or set(data) != set(_HEADER_FIELDS):
            raise EntryError(f"header: expected exactly {', '.join(_HEADER_FIELDS)}")
        variant, fen, clock = data["variant"], data["start_fen"], data["clock"]
        if not isinstance(variant, str) or len(variant) > 40:
            raise EntryError("header: the variant is a name")
        if not isinstance(fen, str) or len(fen) > MAX_FEN:
            raise EntryError(f"header: the start is a FEN of at most {MAX_FEN} characters")
        if clock is not None and not (isinstance(clock, list) and len(clock) == 2):
            raise EntryError("header: clock is null or [seconds, increment]")
        held = None
        if clock is not None:
            held = (_seconds(clock[0], "header: clock"), _seconds(clock[1], "header: increment"))
            if held[0] <= 0:
                raise EntryError("header: a clock has some time")
        header = cls(
            _text(data["key"], KEY, "header: key"),
            variant,
            fen,
            colour_of(data["host"], "header: host"),
            held,
            _text(data["host_key"], PUBLIC_HEX, "header: host_key"),
        )
        try:
            header.game()
        except (UnknownVariantError, FenError) as exc:
            raise EntryError(f"header: {exc}") from None
        return header


_HEADER_FIELDS = ("key", "variant", "start_fen", "host", "clock", "host_key")


@dataclass(frozen=True)
class Entry:
    """One act of one side (see docs/remote.md for each kind's fields).

    ``n`` numbers it in its side's own log, ``prev`` is the digest of that
    side's entry before it (the header's root for the first), ``at`` the id
    of the game's state it was made on, and ``sig`` its side's signature over
    all the rest.
    """

    key: str
    side: int
    n: int
    prev: str
    at: str
    kind: Kind
    ply: int = 0  # move: the ply it makes (1 = the game's first)
    uci: str = ""  # move
    clock: float | None = None  # move: its mover's time left after it, increment included
    what: str = ""  # offer: an Offer; claim: a Claim
    to: int = 0  # accept, decline: the other side's entry that made the offer
    waited: float = 0.0  # claim: seconds this side counted since the other's turn began
    sig: str = ""

    def body(self) -> dict[str, Any]:
        """What the signature covers: every field but itself."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "sig"}

    def to_json(self) -> dict[str, Any]:
        return {**self.body(), "sig": self.sig}

    def digest(self) -> str:
        """What the side's next entry names as ``prev``."""
        return digest(canonical(self.to_json()))

    def signed(self, key: SigningKey) -> Entry:
        return replace(self, sig=key.sign(ENTRY_LABEL, self.body()))

    def signed_by(self, public: str) -> bool:
        return verify(public, ENTRY_LABEL, self.body(), self.sig)

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        """:raises EntryError: for anything but an entry boardctl writes
        (the signature is checked by whoever knows the side's key)."""
        if not isinstance(data, dict) or set(data) != set(_ENTRY_FIELDS):
            raise EntryError(f"entry: expected exactly the fields {', '.join(_ENTRY_FIELDS)}")
        kind, uci, what, clock = data["kind"], data["uci"], data["what"], data["clock"]
        if kind not in KINDS:
            raise EntryError(f"entry: kind is one of {', '.join(KINDS)}")
        if not isinstance(uci, str) or (uci and not UCI.fullmatch(uci)):
            raise EntryError("entry: uci is a move in coordinate notation")
        if what not in ("", *OFFERS, *CLAIMS):
            raise EntryError("entry: what is an offer or a claim")
        return cls(
            key=_text(data["key"], KEY, "entry: key"),
            side=colour_of(data["side"], "entry: side"),
            n=_whole(data["n"], 1, MAX_N, "entry: n"),
            prev=_text(data["prev"], KEY, "entry: prev"),
            at=_text(data["at"], KEY, "entry: at"),
            kind=kind,
            ply=_whole(data["ply"], 0, MAX_N, "entry: ply"),
            uci=uci,
            clock=None if clock is None else _seconds(clock, "entry: clock"),
            what=what,
            to=_whole(data["to"], 0, MAX_N, "entry: to"),
            waited=_seconds(data["waited"], "entry: waited"),
            sig=_text(data["sig"], SIGNATURE_HEX, "entry: sig"),
        )


_ENTRY_FIELDS = tuple(Entry("", 0, 1, "", "", "move").to_json())
