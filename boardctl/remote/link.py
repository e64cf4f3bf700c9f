"""This board's side of remote play, on a thread of its own.

The :class:`Link` owns the journal and the :class:`~.match.Match`, takes the
daemon's notes from the desk, lets time pass, publishes the view the daemon
plays from, and talks to the other board through the broker: its entries and
statuses out, the other's in; the host's offer and seat, the guest's join.
The web server's handlers call it (under :attr:`Link.lock`) for the owner
and for the player in the browser; nothing here waits on the network.

Whatever the broker delivers is hostile until its signature proves who sent
it: parsed within bounds (:mod:`boardctl.bounded`), at most
:data:`MAX_PER_SECOND` messages a second, and each kind of fault costs at
most a log line a minute (:class:`~boardctl.quietlog.QuietLog`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..bounded import BoundedJsonError, loads
from ..quietlog import QuietLog
from .desk import Desk, RemoteView
from .entry import EntryError
from .exchange import Status, parse
from .invite import (
    Invitation,
    InviteError,
    broker_url,
    join_message,
    offer_message,
    parse_invitation,
    read_answer,
    read_join,
    read_offer,
    side_topic,
    topic,
)
from .journal import Journal, JournalError, Kept
from .keys import SigningKey, fingerprint
from .lanbroker import LanBroker, lan_address
from .match import Match, new_game
from .port import LAN, BrokerPort, LanFor, TransportFor
from .transport import MAX_PACKET, BrokerSettings, MqttTransport

log = logging.getLogger("boardctl.remote")

TICK = 0.05  # seconds between the link's turns
REPUBLISH = 5.0  # seconds between repeats of the offer, the seat and a join
JOIN_WAIT = 15.0  # seconds the page's Join waits for the other board's answer


@dataclass(frozen=True)
class LinkSettings:
    """What a game this board offers is played with, and where its broker is."""

    colour: int
    variant: str = "falcon"
    clock: tuple[float, float] | None = None
    name: str = ""  # what the other side calls this board
    broker: BrokerSettings | None = None  # None: one of this board's own on its network
    lan_port: int = 18830
    offer_at_start: bool = True


@dataclass
class Joining:
    """A Join under way: the page waits on :attr:`done`."""

    invitation: Invitation
    deadline: float
    done: threading.Event = field(default_factory=threading.Event)
    error: str = ""
    kept: Kept | None = None
    refused: str = ""  # why an offer read on the broker was not the host's


@dataclass
class Figures:
    """What the link counts beside its port's counts, for the logs and the bench."""

    refused: int = 0  # messages that were not what they claimed to be


class Link:
    """See the module docstring."""

    def __init__(
        self,
        desk: Desk,
        journal_path: Path,
        settings: LinkSettings,
        *,
        transport_for: TransportFor = MqttTransport,
        lan_for: LanFor = LanBroker,
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.desk = desk
        self.journal_path = journal_path
        self.settings = settings
        self.monotonic = monotonic
        self.wall = wall
        self.lock = threading.RLock()
        self.journal: Journal | None = None
        self.match: Match | None = None
        self.problem = ""  # why remote play cannot work here (the journal), in full
        self.invite_host = ""  # the address the other board reaches this one's broker at
        self.joining: Joining | None = None
        self.figures = Figures()
        self.quiet = QuietLog(log, monotonic)
        self.port = BrokerPort(
            settings.broker,
            settings.lan_port,
            journal_path.parent / "broker",
            self.quiet,
            transport_for=transport_for,
            lan_for=lan_for,
        )
        self._republished = -REPUBLISH
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        desk.on_note(self._wake.set)

    # ------------------------------------------------------------ life
    def open(self) -> None:
        """Open the journal and go on with its game (or offer one)."""
        with self.lock:
            try:
                self.journal = Journal(self.journal_path)
                kept = self.journal.current()
                if kept is not None:
                    self.match = Match(self.journal, kept, self.monotonic())
                    log.info("remote: going on with game %s", kept.header.key)
                elif self.settings.offer_at_start:
                    self.offer()
            except JournalError as exc:
                self.problem = f"remote play is off: {exc}"
                log.error("%s", self.problem)
            self.publish()

    def start(self) -> None:
        self.open()
        self._thread = threading.Thread(target=self._run, name="remote-link", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(TICK)
            self._wake.clear()
            try:
                self.turn()
            except JournalError as exc:  # a full disk: nothing acknowledged; try again
                self.quiet.warn("journal", "remote: %s", exc)
            except Exception:  # a bug must not stop the game's link: said, and go on
                log.exception("remote: the link's turn failed")

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5.0)
        with self.lock:
            self.port.close()
            if self.journal is not None:
                self.journal.close()

    # ------------------------------------------------------------ a turn
    def turn(self) -> None:
        """The daemon's notes, the broker's messages, time, what to send, the view."""
        with self.lock:
            now = self.monotonic()
            match = self.match
            if match is not None:
                for note in self.desk.take():
                    match.note(note, now)
            self._connect_for(match)
            self._receive(now)
            if self.match is not None:
                self.match.tick(now)
                self._send(self.match, now)
            if self.joining is not None:
                self._join_turn(self.joining, now)
            self.publish()

    def publish(self) -> None:
        now = self.monotonic()
        if self.match is None:
            self.desk.publish(RemoteView(problem=self.problem))
        else:
            self.desk.publish(self.match.view(now, self.invitation()))

    def poke(self) -> None:
        self._wake.set()

    # ------------------------------------------------------------ the broker
    @property
    def broker_problem(self) -> str:
        """Why no board can be invited or reached now ("" when one can)."""
        return self.port.problem

    def _connect_for(self, match: Match | None) -> None:
        """Be connected to the broker the game needs (none for a browser's)."""
        joining = self.joining
        if joining is not None:
            broker = joining.kept.broker if joining.kept is not None else joining.invitation.broker
        elif match is not None and match.kept.seat != "browser":
            broker = match.kept.broker
        else:
            broker = ""
        self.port.use(broker)

    def _receive(self, now: float) -> None:
        for where, payload in self.port.take(now):
            try:
                data = loads(payload, MAX_PACKET)
                self._message(where, data, now)
            except (BoundedJsonError, EntryError, InviteError) as exc:
                self.figures.refused += 1
                self.quiet.warn("message", "remote: a message on %s refused: %s", where, exc)

    def _message(self, where: str, data: Any, now: float) -> None:
        joining, match = self.joining, self.match
        if (
            joining is not None
            and joining.kept is None
            and where == topic(joining.invitation.key, "offer")
        ):
            try:
                self._offer_read(joining, data)
            except InviteError as exc:
                joining.refused = str(exc)  # said if no good offer comes before the deadline
                raise
            return
        if match is None:
            return
        key = match.game_key
        if where == topic(key, "join") and match.kept.role == "host":
            self._join_read(match, data)
        elif where in (topic(key, "seat"), topic(key, "refused")) and match.kept.role == "guest":
            self._answer_read(match, data)
        elif (
            where
            in (
                side_topic(key, match.colour ^ 1, "log"),
                side_topic(key, match.colour ^ 1, "status"),
            )
            and match.exchange is not None
            and match.joined
        ):
            message = parse(data)
            if isinstance(message, Status) != where.endswith("/status"):
                raise EntryError("a message on the wrong topic")
            match.exchange.receive(message, now)
            match.check_claim(now)
            match.update_seq()

    def _join_read(self, match: Match, data: Any) -> None:
        join = read_join(data)
        if join.key != match.game_key:
            raise InviteError("a join for another game")
        why, answer = match.take_board(join, self.wall())
        if answer.get("t") == "seat":
            self.port.publish(topic(match.game_key, "seat"), answer, retain=True)
        elif answer:
            self.port.publish(topic(match.game_key, "refused"), answer)
        if why:
            self.quiet.warn("join", "remote: a join refused: %s", why)

    # ------------------------------------------------------------ out
    def _send(self, match: Match, now: float) -> None:
        if not self.port.connected():
            return
        key = match.game_key
        kept = match.kept
        if kept.role == "host" and kept.seat in ("", "board"):
            self.port.subscribe(topic(key, "join"))
            if now - self._republished >= REPUBLISH:
                self._republished = now
                self.port.publish(
                    topic(key, "offer"),
                    offer_message(kept.header, self.settings.name, match.key),
                    retain=True,
                )
                if kept.seat_message:
                    self.port.publish(
                        topic(key, "seat"), json.loads(kept.seat_message), retain=True
                    )
        if kept.role == "guest" and not kept.seat_message:
            self.port.subscribe(topic(key, "seat"))
            self.port.subscribe(topic(key, "refused"))
            if now - self._republished >= REPUBLISH:
                self._republished = now
                invitation = Invitation(
                    kept.broker, key, kept.invite, fingerprint(kept.header.host_key)
                )
                self.port.publish(
                    topic(key, "join"),
                    join_message(invitation, self.settings.name, match.key),
                    retain=True,
                )
        exchange = match.exchange
        if exchange is None or not match.joined:
            return
        other = match.colour ^ 1
        self.port.subscribe(side_topic(key, other, "log"))
        self.port.subscribe(side_topic(key, other, "status"))
        for message in exchange.outgoing(now):
            if message["t"] == "status":
                self.port.publish(side_topic(key, match.colour, "status"), message, retain=True)
            else:
                self.port.publish(side_topic(key, match.colour, "log"), message)

    # ------------------------------------------------------------ games
    def offer(self, page_host: str = "") -> Match:
        """A new game this board hosts: a player in a browser takes the other
        seat with its code, or a board with the invitation.  :raises JournalError:"""
        assert self.journal is not None
        s = self.settings
        broker = s.broker.url if s.broker is not None else LAN
        kept = new_game(s.variant, s.colour, s.clock, broker, self.wall())
        self.journal.create(kept)
        self.match = Match(self.journal, kept, self.monotonic())
        self.invite_host = page_host
        self._republished = -REPUBLISH
        self.port.settings_for(
            kept.broker
        )  # a broker of its own starts now: the invitation names it
        log.info("remote: game %s offered", kept.header.key)
        self.publish()
        return self.match

    def invitation(self, seated: bool = False) -> str:
        """The invitation to the game offered, for a board, while its seat is
        free ("" when no broker can carry it).  ``seated``: also once a board
        has the seat, to send it again when this board is back at another
        address (it seats that board again, and no other)."""
        match = self.match
        seats = ("", "board") if seated else ("",)
        if match is None or match.kept.role != "host" or match.kept.seat not in seats:
            return ""
        kept = match.kept
        if kept.broker == LAN:
            lan = self.port.lan
            if self.port.problem or lan is None:
                return ""
            url = broker_url("mqtt", self.invite_host or lan_address(), lan.port)
        else:
            url = kept.broker
        return Invitation(
            url, kept.header.key, kept.invite, fingerprint(kept.header.host_key)
        ).link()

    def join(self, text: str) -> Joining:
        """Start joining the game another board's invitation names; the page
        waits on the result's ``done``.  :raises InviteError: for a bad invitation."""
        invitation = parse_invitation(text)
        if self.journal is None:
            raise InviteError(self.problem or "remote play is off")
        joining = Joining(invitation, self.monotonic() + JOIN_WAIT)
        match = self.match
        if match is not None and match.game_key == invitation.key and match.kept.role == "guest":
            if match.kept.broker != invitation.broker:  # the host's broker moved: follow it
                self.journal.update(match.game_key, broker=invitation.broker)
                match.kept = replace(match.kept, broker=invitation.broker)
            if match.kept.seat_message:
                joining.done.set()
                joining.kept = match.kept
                return joining
            joining.kept = match.kept
        self.joining = joining
        self.poke()
        return joining

    def _offer_read(self, joining: Joining, data: Any) -> None:
        header, name = read_offer(data, joining.invitation)
        assert self.journal is not None
        kept = Kept(
            header,
            "guest",
            header.host ^ 1,
            SigningKey().secret,
            "board",
            other_key=header.host_key,
            other=name,
            invite=joining.invitation.secret,
            broker=joining.invitation.broker,
        )
        self.journal.create(kept)  # a key kept before it is named to anyone
        current = self.journal.current()
        assert current is not None
        joining.kept = current
        self.match = Match(self.journal, current, self.monotonic())
        self._republished = -REPUBLISH

    def _join_turn(self, joining: Joining, now: float) -> None:
        invitation = joining.invitation
        self.port.subscribe(topic(invitation.key, "offer"))
        match = self.match
        if joining.kept is not None and match is not None and match.kept.seat_message:
            joining.done.set()
            self.joining = None
        elif now > joining.deadline:
            reached = self.port.connected()
            if joining.refused:
                joining.error = f"{joining.refused}: check the invitation"
            elif not reached:
                problem = f" ({self.broker_problem})" if self.broker_problem else ""
                joining.error = (
                    f"cannot reach the broker {invitation.broker}{problem}: "
                    "check the invitation and this board's network"
                )
            elif joining.kept is None:
                joining.error = "the broker holds no such game: check the invitation"
            else:
                joining.error = (
                    "the other board did not answer: check that it is on and that the "
                    "invitation is its latest, then try again"
                )
            joining.done.set()
            self.joining = None

    def _answer_read(self, match: Match, data: Any) -> None:
        why = read_answer(data, match.kept.header, match.key.public)
        assert self.journal is not None
        if why is None:
            if not match.kept.seat_message:
                self.journal.update(match.game_key, seat_message=json.dumps(data))
                match.kept = replace(match.kept, seat_message=json.dumps(data))
                log.info("remote: seated in game %s", match.game_key)
            return
        joining = self.joining
        self.journal.close_game(match.game_key)
        self.match = None
        if joining is not None:
            joining.error = why
            joining.done.set()
            self.joining = None
