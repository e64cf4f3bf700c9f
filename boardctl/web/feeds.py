"""The feeds' bodies, and the HTTP caching that lets polling tools fetch
only changes: plain functions of a snapshot or of the stored games.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime

from ..rules import Game, get_variant
from ..rules.pgn import date_tags, export
from .snapshot import Snapshot


def live_game(snap: Snapshot) -> Game:
    """The snapshot's game replayed by the rules core.

    :raises BoardctlError: when its moves do not replay (never for a snapshot
        the daemon built).
    """
    game = Game(get_variant(snap.variant), snap.start_fen or None)
    for uci in snap.moves:
        game.push_text(uci)
    return game


def live_pgn(snap: Snapshot) -> str:
    """The current game as PGN, with ``[%clk]`` comments when clocks run."""
    headers = {
        "Event": "boardctl live",
        "White": snap.white,
        "Black": snap.black,
        "Result": snap.result,
    }
    if snap.reason:
        headers["Termination"] = snap.reason
    # As /games.pgn has them: broadcast tools read the live game's date.
    headers.update(date_tags(snap.started_at))
    return export(live_game(snap), headers, snap.clocks_after)


def state_json(snap: Snapshot) -> str:
    return json.dumps(snap.to_json(), separators=(",", ":"))


@dataclass(frozen=True)
class Version:
    """What a conditional GET compares: an entity tag and a modification time."""

    etag: str
    modified: float  # seconds since the epoch


class Versions:
    """Remembers, per resource, when its body last changed: the ETag is a
    hash of the body, Last-Modified the time the hash was first seen."""

    def __init__(self) -> None:
        self._seen: dict[str, Version] = {}

    def of(self, name: str, body: bytes, now: float) -> Version:
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        known = self._seen.get(name)
        if known is None or known.etag != etag:
            known = Version(etag, now)
            self._seen[name] = known
        return known


def http_date(when: float) -> str:
    return formatdate(when, usegmt=True)


def not_modified(
    version: Version, if_none_match: str | None, if_modified_since: str | None
) -> bool:
    """Whether a request with these headers already has ``version`` (RFC 9110:
    If-None-Match wins over If-Modified-Since)."""
    if if_none_match is not None:
        tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
        return "*" in tags or version.etag in tags
    if if_modified_since is not None:
        try:
            since = parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False  # a malformed date is ignored, as the standard says
        return int(version.modified) <= since
    return False
