"""The broker's client: paho through a real mosquitto (retained messages, a
broker restarted), and a hostile broker that sends a packet too large to
hold, which drops the connection before any of it is read."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from boardctl.remote.transport import MAX_PACKET, BrokerSettings, MqttTransport, matches

from .broker import RETRY, Broker
from .tcpproxy import TcpFaults, TcpProxy

WAIT = 15.0


def until(what, timeout: float = WAIT) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "gave up waiting"
        time.sleep(0.02)


def test_topic_filters_match_as_mqtt_says() -> None:
    assert matches("a/+/c", "a/b/c") and not matches("a/+/c", "a/b/d")
    assert matches("a/#", "a/b/c") and matches("a/b", "a/b") and not matches("a/b", "a/b/c")


def test_a_retained_message_reaches_a_late_subscriber_and_a_restarted_broker_keeps_it(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path / "broker")
    try:
        sender = MqttTransport(BrokerSettings(broker.url))
        assert sender.wait_connected(WAIT)
        sender.publish("boardctl/v2/t/offer", b"hello", retain=True)
        saved = tmp_path / "broker" / "mosquitto.db"
        until(lambda: saved.exists() and b"hello" in saved.read_bytes())  # its autosave
        sender.close()
        broker.kill()
        broker.start()
        late = MqttTransport(BrokerSettings(broker.url))
        late.subscribe("boardctl/v2/t/#")
        got: list[tuple[str, bytes]] = []
        until(lambda: bool(got.extend(late.take()) or got))
        assert got == [("boardctl/v2/t/offer", b"hello")]
        broker.kill()  # a power cut at the broker: the client comes back by itself
        broker.start()
        until(late.connected, 90.0)
        sender = MqttTransport(BrokerSettings(broker.url))
        assert sender.wait_connected(WAIT)

        def again() -> bool:  # sent until heard: the subscription comes back just after
            sender.publish("boardctl/v2/t/log", b"again")
            time.sleep(0.2)
            got.extend(late.take())
            return bool(got[1:])

        until(again)
        assert got[-1] == ("boardctl/v2/t/log", b"again")
        late.close()
        sender.close()
    finally:
        broker.close()


class HostileBroker:
    """Accepts one MQTT client, says it is connected, then announces a
    PUBLISH of 200 MB and sends it slowly: a client that read it whole
    would hold it all in memory."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.port = self.server.getsockname()[1]
        self.sent = 0
        self.closed_by_client = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        conn.recv(1024)  # CONNECT
        conn.sendall(bytes([0x20, 0x03, 0x00, 0x00, 0x00]))  # CONNACK (MQTT 5, no properties)
        size = 200 * 1024 * 1024
        length = bytearray()
        while True:  # MQTT's variable-length remaining length
            byte, size = size % 128, size // 128
            length.append(byte | (0x80 if size else 0))
            if not size:
                break
        try:
            conn.sendall(bytes([0x30]) + bytes(length))
            while self.sent < 10 * 1024 * 1024:
                conn.sendall(b"x" * 65536)
                self.sent += 65536
        except OSError:
            self.closed_by_client.set()
        finally:
            conn.close()


def test_a_packet_larger_than_the_bound_drops_the_connection_before_it_is_read() -> None:
    hostile = HostileBroker()
    # Closed while it waits to try again, paho's thread ends after its nap
    # (up to a second with the board's back-off).
    client = MqttTransport(BrokerSettings(f"mqtt://127.0.0.1:{hostile.port}"), retry=RETRY)
    try:
        assert hostile.closed_by_client.wait(WAIT)
        assert hostile.sent < 10 * 1024 * 1024  # it stopped reading at once
        until(lambda: not client.connected())
        assert "packet" in client.problem or "out of reach" in client.problem
        assert client.take() == []
        assert MAX_PACKET == 8192
    finally:
        client.close()


def test_a_bad_broker_address_is_refused_with_its_reason() -> None:
    from boardctl.remote.invite import InviteError

    with pytest.raises(InviteError, match="mqtt://HOST:PORT"):
        MqttTransport(BrokerSettings("http://example.invalid"))


def test_a_link_that_dies_without_a_word_is_noticed_and_joined_again(tmp_path: Path) -> None:
    """A router that dropped the connection's state: nothing passes, nothing
    closes.  Only the keepalive's unanswered ping can tell; with a keepalive
    of 1 s the client must say it is out of reach well within 8 s (with 30 s,
    as before, it took a minute), then connect again once the link carries."""
    broker = Broker(tmp_path / "broker")
    proxy = TcpProxy(broker.port, TcpFaults(delay=0, drip=0, reset=0, stall=0), seed=1)
    proxy.start()
    board = MqttTransport(BrokerSettings(proxy.url), retry=RETRY, keepalive=1)
    other = MqttTransport(BrokerSettings(broker.url), retry=RETRY)
    try:
        assert board.wait_connected(WAIT) and other.wait_connected(WAIT)
        board.subscribe("game/#")
        proxy.freeze()
        until(lambda: not board.connected(), timeout=8.0)
        assert "out of reach" in board.problem
        proxy.thaw()
        assert board.wait_connected(WAIT)
        seen: list[tuple[str, bytes]] = []

        def heard() -> bool:
            other.publish("game/1", b"after the thaw")
            seen.extend(board.take())
            return ("game/1", b"after the thaw") in seen

        until(heard)
    finally:
        board.close()
        other.close()
        proxy.stop()
        broker.close()
