"""A board's public state: what the page's snapshot gives the hall, and
nothing it refuses once it comes over the network."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boardctl.hall.state import MAX_PLIES, BoardState, StateError, from_snapshot, parse_body

from .helpers import STARTED, snapshot


def test_a_snapshot_becomes_the_public_state_and_reads_back_from_its_json():
    snap = snapshot(["e2e4", "e7e5", "i1h3"], rings=(), prompt="Lift the knight", said="e4")
    state = from_snapshot(snap, 3, 7)
    assert state == BoardState(
        variant="falcon",
        start="",  # the variant's own start is left out
        moves=("e2e4", "e7e5", "i1h3"),
        clocks=(299, 299, 298),
        white_clock=298,
        black_clock=299,
        running="black",
        white="Board's White",
        black="Board's Black",
        started=int(STARTED),
        game=1,
        round=3,
        number=7,
    )
    body = json.loads(json.dumps(state.body()))
    assert "Lift" not in json.dumps(body)  # no prompt, no LED, nothing of the owner's
    assert body["moves"] == "e2e4 e7e5 i1h3" and body["clocks"] == "299 299 298"
    assert parse_body(body) == state


def test_a_board_not_playing_a_game_has_no_public_state():
    for mode in ("setup", "puzzle", "stepping"):
        assert from_snapshot(snapshot(["e2e4"], mode=mode)) is None


def test_the_news_leave_the_running_clock_out():
    still = from_snapshot(snapshot(["e2e4"]))
    ticking = from_snapshot(snapshot(["e2e4"], white_clock=250.0))
    moved = from_snapshot(snapshot(["e2e4", "e7e5"]))
    assert still is not None and ticking is not None and moved is not None
    assert ticking != still and ticking.news() == still.news()
    assert moved.news() != still.news()


def _body(**changes: Any) -> dict[str, Any]:
    state = from_snapshot(snapshot(["e2e4"]))
    assert state is not None
    return {**state.body(), **changes}


BAD: list[tuple[dict[str, Any], str]] = [
    ({"variant": "chess"}, "variant"),
    ({"moves": "e2e4 <script>"}, "moves"),
    ({"moves": "e2e4 " * (MAX_PLIES + 1)}, "moves"),
    ({"moves": 7}, "moves"),
    ({"clocks": "1 2"}, "more readings than moves"),
    ({"clocks": "²"}, "clocks"),
    ({"clocks": "-5"}, "clocks"),
    ({"white_clock": -1}, "white_clock"),
    ({"white_clock": 1.5}, "white_clock"),
    ({"white_clock": True}, "white_clock"),
    ({"running": "red"}, "running"),
    ({"result": "2-0"}, "result"),
    ({"white": "a\nb"}, "white"),
    ({"black": "x" * 41}, "black"),
    ({"reason": "\x1b[2J"}, "reason"),
    ({"game": -1}, "game"),
    ({"round": 1000}, "round"),
    ({"start": "x" * 201}, "start"),
]


@pytest.mark.parametrize(("changes", "field"), BAD)
def test_a_hostile_state_is_refused_naming_its_field(changes, field):
    with pytest.raises(StateError, match=field):
        parse_body(_body(**changes))


def test_a_state_with_a_field_missing_or_added_is_refused():
    body = _body()
    del body["game"]
    with pytest.raises(StateError):
        parse_body(body)
    with pytest.raises(StateError):
        parse_body({**_body(), "fen": "8/8/8/8/8/8/8/8 w - - 0 1"})
    with pytest.raises(StateError):
        parse_body(["not", "a", "state"])
