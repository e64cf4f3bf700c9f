"""The broadcast's messages: signed over what they say and where, read
within bounds, the round's key checked before any signature is."""

from __future__ import annotations

import json

import pytest

from boardctl.hall.wire import (
    MAX_MESSAGE,
    MessageError,
    Sealed,
    key_matches,
    seal,
    topic,
    unseal,
)
from boardctl.remote.keys import SigningKey, fingerprint

from .helpers import EVENT, board_keys

KEY = board_keys()[0]


def _message(**changes: object) -> Sealed:
    fields = {
        "kind": "state",
        "event": EVENT,
        "board": "table-1",
        "key": KEY.public,
        "session": "0123456789abcdef",
        "seq": 1,
        "stamp": 1_750_000_000_000,
        "body": {"online": True},
        **changes,
    }
    return Sealed(**fields)  # type: ignore[arg-type]


def test_a_sealed_message_opens_for_the_key_the_round_names_by_fingerprint_or_whole():
    raw = seal(KEY, _message())
    for trusted in (fingerprint(KEY.public), KEY.public):
        assert unseal(raw, "state", EVENT, "table-1", trusted) == _message()
    assert topic(EVENT, "table-1", "status") == "boardctl/hall/spring-open/table-1/status"


def test_another_boards_key_is_refused_before_its_signature_is_checked():
    forger = SigningKey()
    raw = seal(forger, _message(key=forger.public))  # a good signature, of the wrong key
    with pytest.raises(MessageError, match="another key than the round's"):
        unseal(raw, "state", EVENT, "table-1", fingerprint(KEY.public))
    assert not key_matches(forger.public, fingerprint(KEY.public))


def test_a_message_changed_or_moved_is_refused():
    raw = seal(KEY, _message())
    data = json.loads(raw)
    data["body"] = {"online": False}
    with pytest.raises(MessageError, match="signature"):
        unseal(json.dumps(data).encode(), "state", EVENT, "table-1", KEY.public)
    # Signed for table-1's state: not table-2's, not a status, not another event's.
    for kind, event, board in (
        ("state", EVENT, "table-2"),
        ("status", EVENT, "table-1"),
        ("state", "other", "table-1"),
    ):
        with pytest.raises(MessageError, match="another topic"):
            unseal(raw, kind, event, board, KEY.public)  # type: ignore[arg-type]
    data = json.loads(raw)
    data["kind"] = "status"  # relabelled: its signature was made for a state
    with pytest.raises(MessageError, match="signature"):
        unseal(json.dumps(data).encode(), "status", EVENT, "table-1", KEY.public)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"x" * (MAX_MESSAGE + 1), "more than"),
        (b"[" * 50 + b"]" * 50, "nested deeper"),
        (b"\xff\xfe", "not UTF-8"),
        (b"{}", "fields"),
        (b'"hello"', "fields"),
    ],
)
def test_a_malformed_message_is_refused_unread(raw, why):
    with pytest.raises(MessageError, match=why):
        unseal(raw, "state", EVENT, "table-1", KEY.public)


def test_a_message_whose_numbers_are_not_whole_is_refused_though_signed():
    for changes in ({"seq": -1}, {"stamp": 2.5}, {"session": "xyz"}):
        raw = seal(KEY, _message(**changes))
        with pytest.raises(MessageError, match="not a message"):
            unseal(raw, "state", EVENT, "table-1", KEY.public)
