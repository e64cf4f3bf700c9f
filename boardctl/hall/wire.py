"""The messages a board broadcasts, and how the hall reads them.

Each board writes two retained topics of its own under
``boardctl/hall/<event>/<board>/``: ``state``, its game (:mod:`.state`), at
most a few times a second, and ``status``, a heartbeat every
:data:`HEARTBEAT` seconds (``online: true``) or its goodbye (``online:
false``: said on closing, and left with the broker as its last will, which
the broker publishes when the board drops off).  Every message is signed with
the board's key over what it says and where (event, board, kind), so that it
cannot be moved to another board's topic or pass for another kind; ``stamp``
(the board's wall clock, in milliseconds, growing with every message) lets
the hall keep only the newest, whatever the broker repeats or replays.

:func:`unseal` reads a message as the hall must: bounded in size and depth
first, the key checked against the round's before any signature is, the
signature last.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from .. import bounded
from ..bounded import BoundedJsonError
from ..errors import BoardctlError
from ..remote.keys import FINGERPRINT_HEX, PUBLIC_HEX, SigningKey, fingerprint, verify
from ..remote.transport import MAX_PACKET

Kind = Literal["state", "status"]
KINDS: tuple[Kind, ...] = ("state", "status")
ROOT = "boardctl/hall"
VERSION = 1
HEARTBEAT = 5.0  # seconds between a board's heartbeats
SILENT = 3 * HEARTBEAT  # seconds without a word after which the hall shows a board offline
# A message and its topic fit one packet that the transport reads (MAX_PACKET).
MAX_MESSAGE = MAX_PACKET - 512
MAX_DEPTH = 3  # the envelope, its body, and nothing deeper
SESSION = re.compile(r"[0-9a-f]{16}", re.ASCII)
_FIELDS = frozenset(("v", "kind", "event", "board", "key", "session", "seq", "stamp", "body"))
_LARGEST = 2**53  # a stamp or a count: what JSON carries exactly


TRUSTED = re.compile(f"[0-9a-f]{{{FINGERPRINT_HEX}}}|[0-9a-f]{{64}}", re.ASCII)
TRUSTED_RULE = f"a key's fingerprint ({FINGERPRINT_HEX} hex digits) or its whole public key (64)"


def key_matches(public: str, trusted: str) -> bool:
    """Is ``public`` the key a round names by ``trusted``: the key itself, or
    its fingerprint (what ``boardctl hall key`` shows)?"""
    if len(trusted) == FINGERPRINT_HEX:
        return fingerprint(public) == trusted
    return public == trusted


class MessageError(BoardctlError, ValueError):
    """A message the hall does not take; the message says why, for its log."""


def topic(event: str, board: str, kind: Kind) -> str:
    return f"{ROOT}/{event}/{board}/{kind}"


def label(kind: Kind) -> str:
    """What a signature is made over besides the message: its kind."""
    return f"boardctl hall {kind}"


@dataclass(frozen=True)
class Sealed:
    """A message whose signature holds: who sent it (``key``), in which run of
    its program (``session``), its number in that run (``seq``, one count per
    kind) and when (``stamp``), and what it says (``body``)."""

    kind: Kind
    event: str
    board: str
    key: str
    session: str
    seq: int
    stamp: int
    body: dict[str, Any]


def seal(key: SigningKey, message: Sealed) -> bytes:
    """``message`` signed with ``key`` (its ``key`` field must be that key's)."""
    data = _signed_part(message)
    data["sig"] = key.sign(label(message.kind), data)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True).encode()


def _signed_part(message: Sealed) -> dict[str, Any]:
    return {
        "v": VERSION,
        "kind": message.kind,
        "event": message.event,
        "board": message.board,
        "key": message.key,
        "session": message.session,
        "seq": message.seq,
        "stamp": message.stamp,
        "body": message.body,
    }


def unseal(raw: bytes, kind: Kind, event: str, board: str, trusted: str) -> Sealed:
    """The message ``raw`` on ``board``'s ``kind`` topic, if the board's key,
    as the round names it (``trusted``: its public key or fingerprint, see
    :func:`key_matches`), signed it.

    :raises MessageError: for anything else, saying why.
    """
    try:
        data = bounded.loads(raw, MAX_MESSAGE, MAX_DEPTH)
    except BoundedJsonError as exc:
        raise MessageError(f"not a message: {exc}") from None
    if not isinstance(data, dict) or set(data) != _FIELDS | {"sig"}:
        raise MessageError("not a message: expected exactly a message's fields")
    if data["v"] != VERSION:
        raise MessageError(f"a message of version {data['v']!r}, not {VERSION}")
    if (data["kind"], data["event"], data["board"]) != (kind, event, board):
        raise MessageError("a message for another topic")
    public, signature = data["key"], data.pop("sig")
    if not isinstance(public, str) or not PUBLIC_HEX.fullmatch(public):
        raise MessageError("not a message: no public key")
    if not key_matches(public, trusted):
        raise MessageError(f"signed by another key than the round's ({public[:16]}…)")
    if not isinstance(signature, str) or not verify(public, label(kind), data, signature):
        raise MessageError("a signature that does not hold")
    session, seq, stamp, body = data["session"], data["seq"], data["stamp"], data["body"]
    if not isinstance(session, str) or not SESSION.fullmatch(session):
        raise MessageError("not a message: its session is not 16 hex digits")
    for value in (seq, stamp):
        if type(value) is not int or not 0 <= value < _LARGEST:
            raise MessageError("not a message: its count or stamp is not a whole number")
    if not isinstance(body, dict):
        raise MessageError("not a message: no body")
    return Sealed(kind, event, board, public, session, seq, stamp, body)
