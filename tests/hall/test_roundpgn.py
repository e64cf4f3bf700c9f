"""The round as one PGN, read back by the project's own PGN reader."""

from __future__ import annotations

from boardctl.hall import roundpgn
from boardctl.hall.round import Round
from boardctl.hall.roundpgn import RoundPgn, round_pgn
from boardctl.hall.watch import Table
from boardctl.rules.pgn import read_games

from .helpers import MemoryRound, make_round, snapshot


def test_the_round_is_one_pgn_with_every_board_in_order_its_clocks_and_results():
    room = MemoryRound(3, make_round(3, site="Falcon Club"))
    room.boards[2].show(snapshot(["e2e4", "e7e5", "i1h3"]))
    room.boards[0].show(snapshot(["d2d4", "d7d5"], result="1-0", reason="resignation"))
    room.deliver()
    text = round_pgn(room.round, room.watch.tables)
    games = read_games(text)
    assert [tags["Board"] for tags, _ in games] == ["1", "2", "3"]
    tags, game = games[0]
    assert (tags["Event"], tags["Site"], tags["Round"]) == ("Spring Open", "Falcon Club", "3")
    assert (tags["White"], tags["Black"], tags["Result"]) == ("White 1", "Black 1", "1-0")
    assert tags["Termination"] == "resignation" and tags["Date"] == "2025.06.15"
    assert [game.position.uci(m) for m in game.moves] == ["d2d4", "d7d5"]
    assert games[1][0]["Result"] == "*" and not games[1][1].moves  # not heard from yet
    assert len(games[2][1].moves) == 3
    assert "{[%clk 0:04:59]}" in text


def test_a_game_s_text_is_made_again_only_when_its_board_sent_something_new(monkeypatch):
    made: list[int] = []
    real = roundpgn.game_pgn

    def counted(rnd: Round, table: Table) -> str:
        made.append(table.seat.number)
        return real(rnd, table)

    monkeypatch.setattr(roundpgn, "game_pgn", counted)
    room = MemoryRound(2)
    pgn = RoundPgn(room.round)
    room.boards[0].show(snapshot(["e2e4"]))
    room.deliver()
    first = pgn.text(room.watch.tables)
    assert pgn.text(room.watch.tables) == first and made == [1, 2]
    room.boards[1].show(snapshot(["d2d4"]))
    room.deliver()
    assert pgn.text(room.watch.tables) != first and made == [1, 2, 2]
