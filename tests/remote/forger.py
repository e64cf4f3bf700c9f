"""A stranger on the broker who forges what it can (bench/remote_faults.py).

It reads both sides' entries as they pass, so each forgery is as good as a
forgery can be: the next number of the side's log, the digest of its last
entry, the state the game is in, every kind of entry in turn, only signed
with a key of its own.  Between forgeries it sends statuses with huge
counters, garbage, and bodies nested deep.  It runs on paho's thread and a
thread of its own until stopped; :attr:`Forger.sent` counts what it sent."""

from __future__ import annotations

import json
import random
import threading
from dataclasses import replace

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from boardctl.remote.entry import KINDS, Entry, EntryError
from boardctl.remote.exchange import STATUS_LABEL, Status, entry_json
from boardctl.remote.invite import parse_broker, side_topic, topic
from boardctl.remote.keys import SigningKey

EVERY = 0.3  # seconds between forgeries


class Forger:
    def __init__(self, broker: str, key: str, seed: int) -> None:
        self.key = key
        self.rng = random.Random(seed)
        self.mine = SigningKey()
        self.last: dict[int, Entry] = {}
        self.sent = 0
        self._stop = threading.Event()
        _, host, port = parse_broker(broker)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="forger")
        self.client.on_message = self._heard
        self.client.on_connect = lambda c, *_: c.subscribe(topic(key, "+", "log"))
        self.client.connect_async(host, port, 10)
        self.client.reconnect_delay_set(1, 2)
        self._thread = threading.Thread(target=self._run, name="forger", daemon=True)

    def start(self) -> None:
        self.client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    def _heard(self, client: mqtt.Client, _: object, message: mqtt.MQTTMessage) -> None:
        try:
            entry = Entry.from_json(json.loads(message.payload)["entry"])
        except (ValueError, KeyError, TypeError, EntryError, RecursionError):
            return
        last = self.last.get(entry.side)
        if last is None or entry.n > last.n:
            self.last[entry.side] = entry

    def _send(self, where: str, payload: bytes) -> None:
        self.client.publish(where, payload, qos=1)
        self.sent += 1

    def _run(self) -> None:
        kinds = list(KINDS)
        while not self._stop.wait(EVERY):
            side = self.rng.choice((0, 1))
            last = self.last.get(side)
            if last is not None:
                kind = kinds[self.sent % len(kinds)]
                forged = replace(
                    last,
                    n=last.n + 1,
                    prev=last.digest(),
                    kind=kind,
                    what={"offer": "draw", "claim": "time"}.get(kind, ""),
                    to=1 if kind in ("accept", "decline") else 0,
                    waited=10_000.0 if kind == "claim" else 0.0,
                    ply=last.ply + 2 if kind == "move" else 0,
                    uci=last.uci if kind == "move" else "",
                ).signed(self.mine)
                self._send(
                    side_topic(self.key, side, "log"), json.dumps(entry_json(forged)).encode()
                )
            lie = Status(self.key, side, 10**6, "0" * 16, 10**6, "0" * 16, "0" * 16, "00", "", "")
            body = {"t": "status", **lie.body(), "sig": self.mine.sign(STATUS_LABEL, lie.body())}
            self._send(side_topic(self.key, side, "status"), json.dumps(body).encode())
            self._send(side_topic(self.key, side, "log"), b"[" * 5000)
