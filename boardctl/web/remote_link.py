"""This board's side of remote play, in the web server's thread and event loop.

The :class:`Link` owns the journal and the :class:`~boardctl.remote.match.Match`
(the log and its rules), takes the daemon's notes from the desk, lets time
pass, publishes the view the daemon plays from, and does the talking: a
board that joined another's game (the *guest*) exchanges messages with its
host every ``POLL`` seconds, and at once when it has something new
(docs/remote.md).  The handlers of :mod:`.remote_routes` call it for the
browser's player and for a guest.  Nothing here blocks the loop for longer
than one journal write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from ..remote.desk import Desk, RemoteView
from ..remote.journal import Journal, JournalError
from ..remote.log import Header, LogError
from ..remote.match import Match, new_code, new_header
from ..remote.peer import Message, parse

log = logging.getLogger("boardctl.web")

TICK = 0.1  # seconds between the link's turns (clocks, the view, a guest's exchange)
POLL = 0.25  # seconds between a guest's exchanges with its host
EXCHANGE_TIMEOUT = 3.0  # seconds an exchange may take before it counts as lost
# Entries in one exchange: a side that comes back after a restart may lack a
# whole game, which goes over in exchanges of this many (each request fits the
# server's MAX_BODY of 4 KiB; an entry is some 200 bytes).
MAX_ENTRIES = 12
MAX_MESSAGES = MAX_ENTRIES + 4  # and a status: what an honest side sends at most
MAX_NAME = 40


class JoinError(Exception):
    """A board's link to another cannot be used; the message says why, for the page."""


@dataclass
class Figures:
    """What the link counts, for the logs and the bench."""

    exchanges: int = 0
    failed: int = 0  # exchanges lost (no answer, a bad answer)
    last_error: str = ""


def join_target(link: str) -> tuple[str, str]:
    """``http://HOST:PORT/?join=CODE`` → (the host's base URL, the code).

    :raises JoinError: for anything else.
    """
    parts = urlsplit(link.strip())
    codes = parse_qs(parts.query).get("join", [])
    if parts.scheme not in ("http", "https") or not parts.netloc or len(codes) != 1:
        raise JoinError("paste the whole link the other board's page gives: http://…/?join=…")
    return f"{parts.scheme}://{parts.netloc}/", codes[0].strip().upper()


class Link:
    """See the module docstring.  ``colour``, ``variant`` and ``clock`` are
    what a game this board offers is played with; ``name`` is what the
    other side calls this board."""

    def __init__(
        self,
        desk: Desk,
        journal_path: Path,
        *,
        colour: int,
        variant: str = "falcon",
        clock: tuple[float, float] | None = None,
        name: str = "",
        offer_at_start: bool = True,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.desk = desk
        self.journal_path = journal_path
        self.colour = colour
        self.variant = variant
        self.clock = clock
        self.name = name
        self.offer_at_start = offer_at_start
        self.monotonic = monotonic
        self.journal: Journal | None = None
        self.match: Match | None = None
        self.problem = ""  # why remote play cannot work here (the journal), in full
        self.figures = Figures()
        self._wake: asyncio.Event | None = None
        self._session: aiohttp.ClientSession | None = None
        self._exchanged = 0.0
        self._poked = False

    # ------------------------------------------------------------ life
    async def run(self, app: Any) -> AsyncIterator[None]:
        """The link's life, as an aiohttp ``cleanup_ctx``: open the journal,
        go on with its game (or offer one), turn until the server stops."""
        self._wake = asyncio.Event()
        loop = asyncio.get_running_loop()

        def woken() -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self.poke)

        self.desk.on_note(woken)
        self._open()
        task = asyncio.ensure_future(self._turns())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if self._session is not None:
                await self._session.close()
            if self.journal is not None:
                self.journal.close()

    def _open(self) -> None:
        try:
            self.journal = Journal(self.journal_path)
            kept = self.journal.current()
            if kept is not None:
                self.match = Match(self.journal, kept, self.monotonic())
                log.info("remote: going on with game %s", kept.header.key)
            elif self.offer_at_start:
                self.offer()
        except JournalError as exc:
            self.problem = f"remote play is off: {exc}"
            log.error("%s", self.problem)
        self.publish()

    async def _turns(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)
            self._wake.clear()
            try:
                self.turn()
                await self._guest_exchange()
            except JournalError as exc:  # a full disk: nothing acknowledged; try again
                log.error("remote: %s", exc)
            except Exception:  # a bug must not stop the game's link: said, and go on
                log.exception("remote: the link's turn failed")

    def turn(self) -> None:
        """The daemon's notes, time, and the view."""
        now = self.monotonic()
        if self.match is not None:
            for note in self.desk.take():
                self.match.note(note, now)
            self.match.tick(now)
        self.publish()

    def publish(self) -> None:
        now = self.monotonic()
        if self.match is None:
            self.desk.publish(RemoteView(problem=self.problem))
        else:
            self.desk.publish(self.match.view(now))

    def poke(self) -> None:
        """Something changed: the next turn comes at once, with an exchange."""
        self._poked = True
        if self._wake is not None:
            self._wake.set()

    # ------------------------------------------------------------ games
    def offer(self) -> Match:
        """A new game this board hosts: a browser's player or a board takes
        the other seat with its code.  :raises JournalError:"""
        assert self.journal is not None
        header = new_header(self.variant, self.colour, self.clock)
        code = new_code()
        self.journal.create(header, "host", self.colour, code, secrets.token_hex(16))
        kept = self.journal.current()
        assert kept is not None
        self.match = Match(self.journal, kept, self.monotonic())
        log.info("remote: game %s offered", header.key)
        self.publish()
        return self.match

    async def join(self, link: str) -> Match:
        """Join the game another board offers at ``link``.

        :raises JoinError: when it cannot be reached or refuses.
        """
        if self.journal is None:
            raise JoinError(self.problem or "remote play is off")
        base, code = join_target(link)
        try:
            data = await self._get(f"{base}api/remote/invite", {"code": code})
            header = Header.from_json(data.get("header"))
            name = data.get("name")
        except (aiohttp.ClientError, TimeoutError, ValueError, LogError) as exc:
            raise JoinError(f"cannot reach the other board ({exc or type(exc).__name__})") from None
        other = name[:MAX_NAME] if isinstance(name, str) else ""
        secret = secrets.token_hex(16)
        self.journal.create(header, "guest", header.host ^ 1, code, secret, base, other)
        kept = self.journal.current()
        assert kept is not None
        self.match = Match(self.journal, kept, self.monotonic())
        log.info("remote: joined game %s at %s", header.key, base)
        self.publish()
        self.poke()
        return self.match

    # ------------------------------------------------------------ the guest's exchanges
    async def _guest_exchange(self) -> None:
        match = self.match
        if match is None or match.kept.role != "guest":
            return
        now = self.monotonic()
        if now - self._exchanged < POLL and not self._poked:
            return
        self._exchanged, self._poked = now, False
        mine = match.outgoing(MAX_ENTRIES)
        self.figures.exchanges += 1
        body = {
            "code": match.kept.code,
            "name": self.name,
            "messages": [m.to_json() for m in mine],
        }
        try:
            data = await self._post(f"{match.kept.peer}api/remote/peer", body)
            messages = messages_in(data.get("messages"))
        except (aiohttp.ClientError, TimeoutError, ValueError, LogError) as exc:
            self.figures.failed += 1
            self.figures.last_error = str(exc) or type(exc).__name__
            log.debug("remote: exchange with %s lost: %s", match.kept.peer, exc)
            return
        if self.match is match:
            match.receive(messages, self.monotonic())
            self.publish()

    def host_exchange(self, code: str, name: str, messages: list[Message]) -> list[dict[str, Any]]:
        """A guest's exchange: its messages in, this side's out.

        :raises JoinError: for a wrong code or a seat a browser has taken.
        """
        match = self.match
        if match is None or match.kept.role != "host":
            raise JoinError("this board offers no game")
        if not secrets.compare_digest(code.encode(), match.kept.code.encode()):
            raise JoinError("wrong code")
        now = self.monotonic()
        if not match.take_seat("board", name[:MAX_NAME], now):
            raise JoinError("a player in a browser has taken this game's seat")
        match.receive(messages, now)
        self.figures.exchanges += 1
        self.publish()
        return [m.to_json() for m in match.outgoing(MAX_ENTRIES)]

    # ------------------------------------------------------------ HTTP
    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=EXCHANGE_TIMEOUT)
            self._session = aiohttp.ClientSession(timeout=timeout)
        return self._session

    async def _get(self, url: str, params: dict[str, str]) -> dict[str, Any]:
        async with self._client().get(url, params=params) as response:
            return await _json_of(response)

    async def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self._client().post(url, json=body) as response:
            return await _json_of(response)


async def _json_of(response: aiohttp.ClientResponse) -> dict[str, Any]:
    data = await response.json(content_type=None)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if response.status != 200:
        raise ValueError(str(data.get("error") or f"refused ({response.status})"))
    return data


def messages_in(data: Any) -> list[Message]:
    """:raises LogError: for anything but a list of messages boardctl writes."""
    if not isinstance(data, list) or len(data) > MAX_MESSAGES:
        raise LogError(f"messages: expected a list of at most {MAX_MESSAGES}")
    return [parse(item) for item in data]
