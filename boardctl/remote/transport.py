"""The broker between two boards: an MQTT client, and a bus in memory that
stands in for it in tests (docs/remote.md, "The broker").

:class:`MqttTransport` is paho-mqtt (the Eclipse project's client, the one
the field uses) on its own network thread, connecting outward, so nothing
needs a port opened on a home router.  The broker is not trusted: whatever it
delivers is bounded here before anybody reads it (a packet larger than
:data:`MAX_PACKET` drops the connection before it is read; past
:data:`MAX_WAITING` undelivered messages, new ones are dropped and counted)
and then checked by signature upstream.  Both transports offer the same four
calls, so the link is one code path either way.
"""

from __future__ import annotations

import logging
import queue
import secrets
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..queues import drain
from .invite import parse_broker

log = logging.getLogger("boardctl.remote")

MAX_PACKET = 8192  # bytes: a signed entry is some 600, a status some 500
MAX_WAITING = 256  # messages received and not yet taken by the link
# Seconds of silence before a ping; a link that died without a word (a router
# that dropped the connection's state) is noticed one more keepalive later, and
# the broker publishes the board's will after one and a half.
KEEPALIVE = 10
CONNECT_TIMEOUT = 10.0
# Seconds before the first try again after a loss, doubling at each failed
# try up to RETRY_MAX (and back to RETRY_FIRST once connected).
RETRY_FIRST = 1.0
RETRY_MAX = 60.0


class Transport(Protocol):
    """What the link needs of a broker."""

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None: ...
    def subscribe(self, pattern: str) -> None: ...
    def take(self) -> list[tuple[str, bytes]]: ...
    def connected(self) -> bool: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class BrokerSettings:
    """Where the broker is and how to log in (``[remote]`` in the configuration)."""

    url: str  # mqtt://HOST:PORT or mqtts://HOST:PORT
    username: str = ""
    password: str = ""
    ca_file: str = ""  # for a broker whose certificate no system CA signs


class _BoundedClient(mqtt.Client):
    """paho's client, refusing a packet past :data:`MAX_PACKET` before reading it.

    paho reads a packet's whole remaining length at once; that length is the
    first large read it asks for, so a packet too large is caught there,
    before any of it is in memory (tests/remote/test_transport.py holds paho
    to it)."""

    def _sock_recv(self, bufsize: int) -> bytes:
        if bufsize > MAX_PACKET:
            raise OSError(f"the broker sent a packet of {bufsize} bytes (at most {MAX_PACKET})")
        return super()._sock_recv(bufsize)


class MqttTransport:
    """See the module docstring.  Connects at once and again after any
    loss, backing off to :data:`RETRY_MAX`; ``take`` never waits."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        will: tuple[str, bytes] | None = None,
        waiting: int = MAX_WAITING,
        retry: tuple[float, float] = (RETRY_FIRST, RETRY_MAX),
        keepalive: int = KEEPALIVE,
    ) -> None:
        """``will``: a topic and payload the broker publishes, retained, when
        this client drops without a goodbye (a board's broadcast says it is
        offline so); ``waiting``: messages held for :meth:`take` (a hall
        subscribes to a whole round's boards); ``retry``: the first and the
        longest wait before connecting again, in seconds; ``keepalive``: see
        :data:`KEEPALIVE`."""
        scheme, host, port = parse_broker(settings.url)
        self.settings = settings
        self.dropped = 0  # messages dropped because the link fell behind
        self.problem = ""  # why it is not connected, for the page
        self._patterns: list[str] = []
        self._inbox: queue.Queue[tuple[str, bytes]] = queue.Queue(waiting)
        self._up = threading.Event()
        client = _BoundedClient(
            CallbackAPIVersion.VERSION2,
            client_id=f"boardctl-{secrets.token_hex(6)}",
            protocol=mqtt.MQTTv5,
        )
        client.max_queued_messages_set(MAX_WAITING)
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        # paho annotates whole seconds but waits for any float (time.sleep).
        client.reconnect_delay_set(*retry)  # type: ignore[arg-type]
        client.connect_timeout = CONNECT_TIMEOUT
        if settings.username:
            client.username_pw_set(settings.username, settings.password or None)
        if scheme == "mqtts":
            client.tls_set(ca_certs=settings.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.MaximumPacketSize = MAX_PACKET  # a broker that keeps to MQTT sends no more
        self._client = client
        client.connect_async(host, port, keepalive, clean_start=True, properties=props)
        client.loop_start()

    def _on_connect(self, client: mqtt.Client, _: Any, __: Any, reason: Any, ___: Any) -> None:
        if reason.is_failure:
            self.problem = f"the broker refused the connection ({reason})"
            log.warning("remote: %s", self.problem)
            return
        self.problem = ""
        self._up.set()
        for pattern in list(self._patterns):
            client.subscribe(pattern, qos=1)

    def _on_disconnect(self, _: Any, __: Any, ___: Any, reason: Any, ____: Any) -> None:
        self._up.clear()
        self.problem = f"the broker is out of reach ({reason})"

    def _on_message(self, _: Any, __: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self._inbox.put_nowait((message.topic, bytes(message.payload)))
        except queue.Full:
            self.dropped += 1

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self._client.publish(topic, payload, qos=1, retain=retain)

    def subscribe(self, pattern: str) -> None:
        if pattern not in self._patterns:
            self._patterns.append(pattern)
            if self._up.is_set():
                self._client.subscribe(pattern, qos=1)

    def take(self) -> list[tuple[str, bytes]]:
        return drain(self._inbox)

    def connected(self) -> bool:
        return self._up.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._up.wait(timeout)

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


# ------------------------------------------------------------ in memory
@dataclass
class Bus:
    """A broker in memory for tests: topics, retained messages, and a
    ``fault`` hook that may drop, repeat or change any message on its way."""

    retained: dict[str, bytes] = field(default_factory=dict)
    clients: list[MemoryTransport] = field(default_factory=list)
    fault: Callable[[str, bytes], list[bytes]] | None = None
    up: bool = True

    def deliver(self, topic: str, payload: bytes, retain: bool) -> None:
        if not self.up:
            return
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        copies = self.fault(topic, payload) if self.fault is not None else [payload]
        for client in list(self.clients):
            if client.wants(topic):
                for copy in copies:
                    client.inbox.append((topic, copy))

    def client(self) -> MemoryTransport:
        transport = MemoryTransport(self)
        self.clients.append(transport)
        return transport


def matches(pattern: str, topic: str) -> bool:
    """MQTT's topic filter: ``+`` one level, ``#`` the rest."""
    want, got = pattern.split("/"), topic.split("/")
    for i, part in enumerate(want):
        if part == "#":
            return True
        if i >= len(got) or (part != "+" and part != got[i]):
            return False
    return len(want) == len(got)


@dataclass
class MemoryTransport:
    bus: Bus
    patterns: list[str] = field(default_factory=list)
    inbox: list[tuple[str, bytes]] = field(default_factory=list)
    closed: bool = False

    def wants(self, topic: str) -> bool:
        return not self.closed and any(matches(p, topic) for p in self.patterns)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if not self.closed:
            self.bus.deliver(topic, payload, retain)

    def subscribe(self, pattern: str) -> None:
        if pattern not in self.patterns:
            self.patterns.append(pattern)
            if not self.bus.up:
                return
            for topic, payload in self.bus.retained.items():
                if matches(pattern, topic):
                    self.inbox.append((topic, payload))

    def take(self) -> list[tuple[str, bytes]]:
        out, self.inbox = self.inbox, []
        return out

    def connected(self) -> bool:
        return self.bus.up and not self.closed

    def close(self) -> None:
        self.closed = True
        if self in self.bus.clients:
            self.bus.clients.remove(self)
