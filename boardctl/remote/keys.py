"""Who wrote what: Ed25519 keys, one pair per side and game.

Each side of a remote game signs its own entries with a key made for that
game alone, so a board can tell its opponent's entries from anybody's, and
neither the broker nor the opponent can write an entry in its name.  Ed25519
(from ``cryptography``, OpenSSL underneath) because a signature is 64 bytes,
made and checked in well under a millisecond even on a Pi, and a public key
is 32 bytes that fit in an invitation.

What is signed is :func:`canonical` JSON (sorted keys, no spaces) after a
label naming what it is, so an entry's signature can never pass for a
status's, or one game's for another's.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

PUBLIC_HEX = re.compile(r"[0-9a-f]{64}")
SIGNATURE_HEX = re.compile(r"[0-9a-f]{128}")
FINGERPRINT_HEX = 16  # of a public key, in an invitation: 64 bits a forger must hit


def canonical(data: dict[str, Any]) -> bytes:
    """One byte string for one value, whoever serialises it."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def digest(data: bytes, length: int = 16) -> str:
    """A short SHA-256 hex digest (``length`` hex digits)."""
    return hashlib.sha256(data).hexdigest()[:length]


def fingerprint(public: str) -> str:
    """What an invitation names the host's key by."""
    return digest(bytes.fromhex(public), FINGERPRINT_HEX)


class SigningKey:
    """One side's private key.  ``secret``: 64 hex digits, as kept in the
    journal; a new key when omitted."""

    def __init__(self, secret: str | None = None) -> None:
        if secret is None:
            self._key = Ed25519PrivateKey.generate()
        else:
            self._key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(secret))
        raw = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = raw.hex()

    @property
    def secret(self) -> str:
        raw = self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return raw.hex()

    def sign(self, label: str, data: dict[str, Any]) -> str:
        return self._key.sign(label.encode() + b"\n" + canonical(data)).hex()


def verify(public: str, label: str, data: dict[str, Any], signature: str) -> bool:
    """Did the holder of ``public`` sign ``data`` under ``label``?  False for
    anything malformed: a signature is checked, never trusted."""
    if not PUBLIC_HEX.fullmatch(public) or not SIGNATURE_HEX.fullmatch(signature):
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
        key.verify(bytes.fromhex(signature), label.encode() + b"\n" + canonical(data))
    except (InvalidSignature, ValueError):
        return False
    return True
