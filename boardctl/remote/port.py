"""The link's way to the broker its game needs (docs/remote.md, "The broker").

A :class:`BrokerPort` is connected to at most one broker at a time: the one
this board configured (with its login), another an invitation names, or one
it runs itself on its network (mosquitto, started the first time it is
needed and kept until the link closes); none for a game a player in the
browser plays.  What it hands on is at most :data:`MAX_PER_SECOND` messages
a second: a flood costs a count and a log line a minute, not the board's time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..quietlog import QuietLog
from .invite import InviteError, parse_broker
from .lanbroker import LanBroker, LanBrokerError
from .transport import BrokerSettings, Transport

LAN = "lan"  # a game's broker is the one this board runs itself
MAX_PER_SECOND = 100  # messages a second taken from the broker; the rest are dropped

TransportFor = Callable[[BrokerSettings], Transport]
LanFor = Callable[[int, Path], LanBroker]


@dataclass
class Counts:
    received: int = 0
    dropped: int = 0  # past MAX_PER_SECOND
    published: int = 0


class BrokerPort:
    """See the module docstring.  ``configured``: this board's own broker
    and login (None: one of its own on ``lan_port``, its files in ``folder``)."""

    def __init__(
        self,
        configured: BrokerSettings | None,
        lan_port: int,
        folder: Path,
        quiet: QuietLog,
        *,
        transport_for: TransportFor,
        lan_for: LanFor,
    ) -> None:
        self.configured = configured
        self.lan_port = lan_port
        self.folder = folder
        self.quiet = quiet
        self.transport_for = transport_for
        self.lan_for = lan_for
        self.problem = ""  # why no board can be invited or reached now
        self.lan: LanBroker | None = None
        self.counts = Counts()
        self._transport: Transport | None = None
        self._url = ""
        self._subscribed: set[str] = set()
        self._second = (0, 0)  # the second being counted, and its messages

    def settings_for(self, broker: str) -> BrokerSettings | None:
        """How this board reaches ``broker`` (a URL, :data:`LAN`, or "" for none)."""
        if broker == LAN:
            if self.lan is None:
                try:
                    self.lan = self.lan_for(self.lan_port, self.folder)
                except LanBrokerError as exc:
                    self.problem = str(exc)
                    return None
            return BrokerSettings(self.lan.url)
        if not broker:
            return None
        if self.configured is not None and same_broker(self.configured.url, broker):
            return self.configured
        return BrokerSettings(broker)

    def use(self, broker: str) -> None:
        """Be connected to ``broker`` (and to nothing else)."""
        settings = self.settings_for(broker)
        url = settings.url if settings is not None else ""
        if url == self._url:
            return
        self.disconnect()
        if settings is None:
            return
        try:
            self._transport = self.transport_for(settings)
        except (OSError, ValueError) as exc:
            self.problem = f"cannot use the broker {url}: {exc}"
            self.quiet.warn("broker", "remote: %s", self.problem)
            return
        self._url, self.problem = url, ""

    def connected(self) -> bool:
        return self._transport is not None and self._transport.connected()

    def disconnect(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self._transport, self._url = None, ""
        self._subscribed = set()

    def subscribe(self, pattern: str) -> None:
        if self._transport is not None and pattern not in self._subscribed:
            self._transport.subscribe(pattern)
            self._subscribed.add(pattern)

    def publish(self, where: str, data: dict[str, Any], retain: bool = False) -> None:
        if self._transport is not None:
            self._transport.publish(where, json.dumps(data).encode(), retain)
            self.counts.published += 1

    def take(self, now: float) -> list[tuple[str, bytes]]:
        """What the broker delivered, at most :data:`MAX_PER_SECOND` a second."""
        if self._transport is None:
            return []
        out = []
        for message in self._transport.take():
            second, count = self._second
            if int(now) != second:
                second, count = int(now), 0
            self._second = (second, count + 1)
            if count >= MAX_PER_SECOND:
                self.counts.dropped += 1
                self.quiet.warn(
                    "flood", "remote: more than %d messages a second: dropped", MAX_PER_SECOND
                )
                continue
            self.counts.received += 1
            out.append(message)
        return out

    def close(self) -> None:
        self.disconnect()
        if self.lan is not None:
            self.lan.close()
            self.lan = None


def same_broker(a: str, b: str) -> bool:
    try:
        return parse_broker(a) == parse_broker(b)
    except InviteError:
        return False
