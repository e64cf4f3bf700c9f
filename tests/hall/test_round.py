"""The round file: what the organiser writes, checked line by line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardctl.hall.round import MAX_BOARDS, Round, RoundError, Seat, load_round, parse_round

FP = "3f2a9c01d4e5f607"
ONE = {"number": 1, "id": "table-7", "key": FP, "white": "Anna", "black": "Ben"}
GOOD = {"event": "spring-open", "round": 3, "board": [ONE]}


def test_a_round_names_its_boards_in_number_order(tmp_path: Path):
    path = tmp_path / "round3.toml"
    path.write_text(
        'event = "spring-open"\nname = "Spring Open 2025"\nround = 3\n'
        '[[board]]\nnumber = 2\nid = "table-2"\nkey = "3F2A 9C01 D4E5 F608"\n'
        '[[board]]\nnumber = 1\nid = "table-7"\nkey = "3f2a9c01d4e5f607"\n'
        'white = "Anna"\nblack = "Ben"\n'
    )
    rnd = load_round(path)
    assert rnd == Round(
        "spring-open",
        3,
        (Seat(1, "table-7", FP, "Anna", "Ben"), Seat(2, "table-2", "3f2a9c01d4e5f608")),
        "Spring Open 2025",
    )
    assert rnd.title == "Spring Open 2025"


BAD: list[tuple[dict[str, Any], str]] = [
    ({**GOOD, "event": "a/b"}, "event"),
    ({**GOOD, "event": "+"}, "event"),
    ({**GOOD, "round": 0}, "round"),
    ({**GOOD, "round": "3"}, "round"),
    ({**GOOD, "rounds": 3}, "unknown key 'rounds'"),
    ({**GOOD, "board": []}, "at least one [[board]]"),
    ({**GOOD, "board": [ONE] * (MAX_BOARDS + 1)}, f"at most {MAX_BOARDS} boards"),
    ({**GOOD, "board": [{**ONE, "key": "abc"}]}, "board 1: key"),
    ({**GOOD, "board": [{**ONE, "id": "#"}]}, "board 1: id"),
    ({**GOOD, "board": [{**ONE, "number": 1000}]}, "board 1: number"),
    ({**GOOD, "board": [{**ONE, "white": "x\ny"}]}, "board 1: white"),
    ({**GOOD, "board": [{**ONE, "pin": 1}]}, "board 1: unknown key 'pin'"),
    ({**GOOD, "board": [ONE, {**ONE, "id": "t2"}]}, "two boards with the number 1"),
    ({**GOOD, "board": [ONE, {**ONE, "number": 2}]}, "two boards with the id 'table-7'"),
    ({**GOOD, "name": "x" * 81}, "name"),
]


@pytest.mark.parametrize(("data", "why"), BAD)
def test_a_bad_round_is_refused_saying_where(data, why):
    with pytest.raises(RoundError) as caught:
        parse_round(data, "round3.toml")
    assert why in str(caught.value) and "round3.toml" in str(caught.value)


def test_a_round_file_that_cannot_be_read_is_one_line(tmp_path: Path):
    with pytest.raises(RoundError, match="cannot read it"):
        load_round(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[board]\n")
    with pytest.raises(RoundError, match="not valid TOML"):
        load_round(bad)
