"""What keeps a guest from taking the page over: seats for live streams, the
PIN's gate, the headers every response carries, a same-origin rule for actions,
and one quiet line for a malformed request.

Every rule here is a plain class or function of an address and a clock, so
that the tests (and the README's figures) can drive it in virtual time.

**Streams.** At most :data:`MAX_STREAMS` live event streams, at most
:data:`STREAMS_PER_ADDRESS` from one address, and the last
:data:`STREAMS_RESERVED` only for addresses that have none yet: whoever opens
streams and never reads them holds a few seats, never the hall.

**PIN guesses.** The PIN is checked at once for an address that has had fewer
than :data:`OWN_TRIES` wrong PINs in the last :data:`REMEMBERED` seconds (a
player who mistypes is never held up by anyone else's guessing).  Past that,
the address waits :data:`BACKOFF_FIRST` seconds after its next wrong PIN,
twice as long after each further one up to :data:`BACKOFF_MAX`, and all such
addresses together get at most :data:`SLOW_CHECKS` checks in
:data:`SLOW_WINDOW` seconds; anything more is 429 with Retry-After, unchecked.
So a guesser gets :data:`OWN_TRIES` guesses from each address it has, once,
and then a few a minute however many it has.  An IPv6 address counts by its
/64 network: a home or a club gets one prefix, and a guest cannot rotate
through its 2⁶⁴ addresses.

The gate remembers at most :data:`TRACKED_ADDRESSES` addresses that guessed
wrong, and it fails closed: while that table is full, an address it does not
hold (never seen, or pushed out by newer guessers) has no tries of its own,
only the slow lane.  A guesser with more addresses than the table therefore
gets at most ``TRACKED_ADDRESSES × OWN_TRIES`` quick guesses, once, and then
:data:`SLOW_CHECKS` a minute, never its free guesses back by rotating.  The
price falls on newcomers during such an attack, so the promise to the owner
is this: from a device (an address) that has given the right PIN since the
program started, the last :data:`TRUSTED_ADDRESSES` of them, and has not
guessed wrong :data:`OWN_TRIES` times since, the PIN is always checked at once;
from any other device that has not itself guessed wrong, it is checked at once
unless more than :data:`TRACKED_ADDRESSES` addresses have guessed wrong in the
last :data:`REMEMBERED` seconds, and then in the slow lane, a few a minute for
all of them.  No rule can do better for a device the board has never seen: to
the gate it is one more address of the guesser's.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

MAX_STREAMS = 256  # live SSE connections at once: 200 spectators and room to spare
STREAMS_PER_ADDRESS = 6  # a projector, a phone and a few tabs
STREAMS_RESERVED = 64  # of MAX_STREAMS, kept for addresses with no stream yet

OWN_TRIES = 2  # wrong PINs an address gets at once per REMEMBERED
REMEMBERED = 86_400.0  # seconds a wrong PIN is held against its address
BACKOFF_FIRST = 30.0  # seconds an address waits after a wrong PIN past its own tries
BACKOFF_MAX = 900.0  # ... doubling up to this
SLOW_CHECKS = 3  # checks for all addresses past their own tries together ...
SLOW_WINDOW = 60.0  # ... in this many seconds
TRACKED_ADDRESSES = 4096  # addresses remembered at once; the least recent go first
TRUSTED_ADDRESSES = 64  # addresses that gave the right PIN, kept checked at once

MALFORMED_LINES = 10  # log lines for malformed requests per MALFORMED_WINDOW ...
MALFORMED_WINDOW = 60.0  # ... seconds; the rest are counted into the next line


def client_key(address: str | None) -> str:
    """Whose request it is, for the limits: the address, or its /64 for IPv6."""
    if not address:
        return "?"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        mapped = parsed.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


# ---------------------------------------------------------------- streams
class Seats:
    """Who holds the live streams (see the module docstring); a hall, which
    serves a whole room, holds more (``total``, ``per_address``, ``reserved``)."""

    def __init__(
        self,
        total: int | None = None,
        per_address: int | None = None,
        reserved: int | None = None,
    ) -> None:
        # None: the board's own limits, read when the page starts (not when
        # this module was loaded), so that they stay the module's to set.
        self.limits = (
            MAX_STREAMS if total is None else total,
            STREAMS_PER_ADDRESS if per_address is None else per_address,
            STREAMS_RESERVED if reserved is None else reserved,
        )
        self.held: dict[str, int] = {}
        self.total = 0

    def take(self, key: str) -> str | None:
        """Take a seat for ``key``; None when it got one, else why not."""
        most, per_address, reserved = self.limits
        mine = self.held.get(key, 0)
        if mine >= per_address:
            return f"at most {per_address} live streams from one address"
        if self.total >= most or (mine and self.total >= most - reserved):
            return "too many spectators: try again later"
        self.held[key] = mine + 1
        self.total += 1
        return None

    def give_back(self, key: str) -> None:
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)
        self.total -= 1


# ------------------------------------------------------------------- PINs
@dataclass
class _Record:
    wrong: deque[float] = field(default_factory=deque)  # times of wrong PINs, oldest first
    not_before: float = 0.0  # no check before this time
    own: int = OWN_TRIES  # wrong PINs it may have checked at once (0: came by the slow lane)


class PinGate:
    """Whether a PIN may be checked now for an address (see the module docstring)."""

    def __init__(self) -> None:
        # Least recent wrong PIN first: the order the table forgets in.
        self._records: dict[str, _Record] = {}
        self._trusted: dict[str, None] = {}  # gave the right PIN; least recent first
        self._slow: deque[float] = deque()  # times of checks past own tries

    def _record(self, key: str, now: float) -> _Record | None:
        record = self._records.get(key)
        if record is None:
            return None
        while record.wrong and record.wrong[0] + REMEMBERED <= now:
            record.wrong.popleft()
        if not record.wrong and record.not_before <= now:
            del self._records[key]
            return None
        return record

    def _full(self, now: float) -> bool:
        """Whether the table holds as many addresses as it may, once the
        least recent ones that are wholly forgiven by time have left."""
        while self._records:
            oldest = next(iter(self._records))
            if self._record(oldest, now) is not None:
                break
        return len(self._records) >= TRACKED_ADDRESSES

    def _untracked(self, key: str, now: float) -> bool:
        """An address the gate holds nothing for while it can hold no more:
        it gets no tries of its own (fail closed)."""
        return key not in self._trusted and self._full(now)

    def admit(self, key: str, now: float) -> float:
        """0 when ``key`` may have its PIN checked now (and the check is
        counted), else the seconds until it may try again."""
        record = self._record(key, now)
        if record is None:
            if not self._untracked(key, now):
                return 0.0
        elif now < record.not_before:
            return record.not_before - now
        elif len(record.wrong) < record.own:
            return 0.0
        while self._slow and self._slow[0] + SLOW_WINDOW <= now:  # so that a wait is > 0
            self._slow.popleft()
        if len(self._slow) >= SLOW_CHECKS:
            return self._slow[0] + SLOW_WINDOW - now
        self._slow.append(now)
        return 0.0

    def wrong(self, key: str, now: float) -> None:
        """The PIN checked for ``key`` was wrong."""
        record = self._record(key, now)
        if record is None:
            record = _Record(own=0 if self._untracked(key, now) else OWN_TRIES)
        self._records.pop(key, None)
        self._records[key] = record  # the most recent last
        record.wrong.append(now)
        past = len(record.wrong) - record.own
        if past >= 0:
            record.not_before = now + min(BACKOFF_FIRST * 2**past, BACKOFF_MAX)
        while len(self._records) > TRACKED_ADDRESSES:
            forgotten = next(iter(self._records))
            del self._records[forgotten]
            # Trusted no more: it would have its tries back, forgotten.
            self._trusted.pop(forgotten, None)

    def right(self, key: str) -> None:
        """The PIN checked for ``key`` was right: its wrong ones are forgiven,
        and it is checked at once from now on (until it guesses wrong)."""
        self._records.pop(key, None)
        self._trusted.pop(key, None)
        self._trusted[key] = None
        while len(self._trusted) > TRUSTED_ADDRESSES:
            del self._trusted[next(iter(self._trusted))]


# ---------------------------------------------------------------- headers
def security_headers(
    connect: Sequence[str] = (),
) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """An ``on_response_prepare`` handler that puts the headers every page and
    feed carries: no sniffing, no framing, and a Content-Security-Policy that
    runs only the page's own scripts and styles.  ``connect`` lists the other
    origins the page's scripts may read (a hall's boards)."""
    sources = " ".join(("'self'", *connect))
    policy = (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {sources}; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )
    headers = {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": policy,
        "Referrer-Policy": "same-origin",
    }

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in headers.items():
            response.headers.setdefault(name, value)

    return add


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@web.middleware
async def same_origin(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Refuse a state-changing request that a browser sent from another page's
    origin.  A request with no Origin is no browser's (a browser names it on
    every POST), and cannot carry another site's intent."""
    origin = request.headers.get("Origin")
    if (
        request.method not in SAFE_METHODS
        and origin is not None
        and origin != f"{request.scheme}://{request.host}"
    ):
        return web.json_response({"error": "actions come from this board's own page"}, status=403)
    return await handler(request)


# -------------------------------------------------------- malformed requests
class RequestLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """The logger aiohttp's request handler reports to: a request aiohttp
    could not parse is one line (and past :data:`MALFORMED_LINES` a minute,
    only counted), never a traceback.  Anything else passes as it came."""

    def __init__(self, logger: logging.Logger, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(logger, {})
        self.clock = clock
        self._window = -MALFORMED_WINDOW
        self._lines = 0
        self._unlogged = 0

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            self._malformed(args[0] if args else "?", exc_info)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def _malformed(self, remote: object, exc: HttpProcessingError) -> None:
        now = self.clock()
        if now - self._window >= MALFORMED_WINDOW:
            self._window, self._lines = now, 0
        if self._lines >= MALFORMED_LINES:
            self._unlogged += 1
            return
        self._lines += 1
        reason = " ".join(str(exc.message or type(exc).__name__).split())[:120]
        more = f" ({self._unlogged} more not logged)" if self._unlogged else ""
        self._unlogged = 0
        self.logger.warning(
            "web: malformed request from %s refused (%d): %s%s", remote, exc.code, reason, more
        )
