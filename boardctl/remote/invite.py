"""Invitations, and the messages that seat a board (docs/remote.md, "Joining").

The host's page shows an invitation, a line its owner sends to the other
board's owner by any means (a message, a call):

    mqtt://broker.example.net:1883/0123456789abcdef?code=SECRET&host=FINGERPRINT

It names the broker, the game, a secret that only the two owners have seen
(never the broker), and the fingerprint of the host's key.  The joining
board reads the host's signed **offer** from the broker and checks it
against the fingerprint (so the broker cannot hand it another game), makes a
key of its own for the game and sends a **join** naming it, with a proof
that it holds the secret.  The host seats the first board that proves it,
before the invitation expires, and says so in a signed **seat**; any other
board gets a signed **refusal** that says why.  So an invitation is used
once: once redeemed it is bound to the key of the board that redeemed it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from ..errors import BoardctlError
from ..names import MAX_NAME
from .entry import KEY, EntryError, Header
from .keys import FINGERPRINT_HEX, PUBLIC_HEX, SigningKey, fingerprint, verify

INVITATION_HOURS = 24.0  # how long an invitation may wait to be used
ROOT = "boardctl/v2"  # every topic of remote play starts so
SECRET = re.compile(r"[A-Za-z0-9_-]{22}")  # 128 bits, URL-safe base64
SIDE_LETTERS = "wb"
SCHEMES = {"mqtt": 1883, "mqtts": 8883}


class InviteError(BoardctlError, ValueError):
    """An invitation or a seating message that cannot be used; the message
    says why, for the page."""


def new_secret() -> str:
    return secrets.token_urlsafe(16)


def topic(key: str, *parts: str) -> str:
    return "/".join((ROOT, key, *parts))


def side_topic(key: str, side: int, what: str) -> str:
    """``log`` or ``status`` of one side: what that side alone publishes."""
    return topic(key, SIDE_LETTERS[side], what)


@dataclass(frozen=True)
class Invitation:
    broker: str  # mqtt://host:port or mqtts://host:port
    key: str
    secret: str
    host: str  # the fingerprint of the host's key

    def link(self) -> str:
        return f"{self.broker}/{self.key}?code={quote(self.secret)}&host={self.host}"


def broker_url(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def parse_broker(url: str) -> tuple[str, str, int]:
    """``mqtt[s]://HOST[:PORT]`` → (scheme, host, port).  :raises InviteError:"""
    parts = urlsplit(url.strip())
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise InviteError("a broker is mqtt://HOST:PORT, or mqtts://HOST:PORT for TLS")
    try:
        port = parts.port or SCHEMES[parts.scheme]
    except ValueError:
        raise InviteError("the broker's port is a number") from None
    return parts.scheme, parts.hostname, port


def parse_invitation(text: str) -> Invitation:
    """:raises InviteError: for anything but an invitation a board's page shows."""
    text = text.strip()
    if len(text) > 400:
        raise InviteError("that is not an invitation: it is too long")
    parts = urlsplit(text)
    query = parse_qs(parts.query)
    key = parts.path.strip("/")
    codes, hosts = query.get("code", []), query.get("host", [])
    if (
        parts.scheme not in SCHEMES
        or not KEY.fullmatch(key)
        or len(codes) != 1
        or len(hosts) != 1
        or not SECRET.fullmatch(codes[0])
        or not re.fullmatch(f"[0-9a-f]{{{FINGERPRINT_HEX}}}", hosts[0])
    ):
        raise InviteError(
            "paste the whole invitation the other board's page shows: mqtt://…?code=…&host=…"
        )
    scheme, host, port = parse_broker(f"{parts.scheme}://{parts.netloc}")
    return Invitation(broker_url(scheme, host, port), key, codes[0], hosts[0])


def proof(secret: str, key: str, guest_key: str) -> str:
    """That the joining board knows the invitation's secret, bound to its key."""
    message = f"join:{key}:{guest_key}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


# ------------------------------------------------------------ messages
def offer_message(header: Header, name: str, key: SigningKey) -> dict[str, Any]:
    body = {"header": header.to_json(), "name": name}
    return {"t": "offer", **body, "sig": key.sign("boardctl remote offer v2", body)}


def read_offer(data: Any, invitation: Invitation) -> tuple[Header, str]:
    """The host's header and name, once its signature and key check out."""
    if not isinstance(data, dict) or set(data) != {"t", "header", "name", "sig"}:
        raise InviteError("the broker holds no offer of this game")
    try:
        header = Header.from_json(data["header"])
    except EntryError as exc:
        raise InviteError(f"the other board's offer is damaged ({exc})") from None
    body = {"header": data["header"], "name": data["name"]}
    signature = data["sig"] if isinstance(data["sig"], str) else ""
    if (
        header.key != invitation.key
        or fingerprint(header.host_key) != invitation.host
        or not verify(header.host_key, "boardctl remote offer v2", body, signature)
    ):
        raise InviteError("the offer on the broker is not the inviting board's")
    return header, name_of(data["name"])


def join_message(invitation: Invitation, name: str, key: SigningKey) -> dict[str, Any]:
    body = {
        "key": invitation.key,
        "guest_key": key.public,
        "name": name,
        "proof": proof(invitation.secret, invitation.key, key.public),
    }
    return {"t": "join", **body, "sig": key.sign("boardctl remote join v2", body)}


@dataclass(frozen=True)
class Join:
    key: str
    guest_key: str
    name: str
    proof: str


def read_join(data: Any) -> Join:
    """A join whose key signed it (the proof is for the host to check)."""
    names = {"t", "key", "guest_key", "name", "proof", "sig"}
    if not isinstance(data, dict) or set(data) != names:
        raise InviteError("not a join")
    body = {k: data[k] for k in names - {"t", "sig"}}
    if not all(isinstance(v, str) for v in body.values()) or not isinstance(data["sig"], str):
        raise InviteError("not a join")
    if not PUBLIC_HEX.fullmatch(body["guest_key"]) or not verify(
        body["guest_key"], "boardctl remote join v2", body, data["sig"]
    ):
        raise InviteError("a join not signed by its key")
    return Join(body["key"], body["guest_key"], name_of(body["name"]), body["proof"])


def seat_message(key: str, guest_key: str, name: str, host: SigningKey) -> dict[str, Any]:
    body = {"key": key, "guest_key": guest_key, "name": name}
    return {"t": "seat", **body, "sig": host.sign("boardctl remote seat v2", body)}


def refusal_message(key: str, guest_key: str, why: str, host: SigningKey) -> dict[str, Any]:
    body = {"key": key, "guest_key": guest_key, "why": why}
    return {"t": "refused", **body, "sig": host.sign("boardctl remote refused v2", body)}


def read_answer(data: Any, header: Header, guest_key: str) -> str | None:
    """None when the host seated ``guest_key``; why not when it refused it.

    :raises InviteError: for anything the host did not sign about this board."""
    if not isinstance(data, dict) or data.get("t") not in ("seat", "refused"):
        raise InviteError("not an answer")
    kind = str(data["t"])
    field = "name" if kind == "seat" else "why"
    names = {"t", "key", "guest_key", field, "sig"}
    if set(data) != names or not all(isinstance(data[k], str) for k in names):
        raise InviteError("not an answer")
    body = {k: data[k] for k in names - {"t", "sig"}}
    if (
        body["key"] != header.key
        or body["guest_key"] != guest_key
        or not verify(header.host_key, f"boardctl remote {kind} v2", body, data["sig"])
    ):
        raise InviteError("an answer the host did not sign for this board")
    return None if kind == "seat" else str(body["why"])[:200]


def printable(value: Any, limit: int) -> str:
    """A text from the network as a screen may show it: printable, one line,
    at most ``limit`` characters (anything else is dropped)."""
    if not isinstance(value, str):
        return ""
    kept = "".join(c for c in value[: limit * 4] if c.isprintable())
    return " ".join(kept.split())[:limit]


def name_of(value: Any) -> str:
    """A name another board sent: cleaned, not refused (nobody there to tell)."""
    return printable(value, MAX_NAME)
