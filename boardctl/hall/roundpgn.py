"""The round as one PGN, the form broadcast tools read: every board's game
in board order, with ``[Round]``, ``[Board]``, the organiser's names and a
``[%clk]`` comment after each move its board timed.  A board not heard from
yet is an empty game with the result ``*``, so the games keep their places."""

from __future__ import annotations

from ..rules import Game, get_variant
from ..rules.pgn import date_tags, export
from .round import Round
from .watch import Table


def game_pgn(rnd: Round, table: Table) -> str:
    state = table.state
    game = table.game or Game(get_variant(state.variant if state else "falcon"))
    headers = {
        "Event": rnd.title,
        "Site": rnd.site or "?",
        "Round": str(rnd.number),
        "Board": str(table.seat.number),
        "White": table.white,
        "Black": table.black,
        "Result": table.result,
    }
    headers.update(date_tags(state.started if state else None))
    if table.reason and table.result != "*":
        headers["Termination"] = table.reason
    clocks = state.clocks if state is not None else ()
    return export(game, headers, clocks, sans=table.sans)


def round_pgn(rnd: Round, tables: list[Table]) -> str:
    return "\n".join(game_pgn(rnd, table) for table in tables)


class RoundPgn:
    """:func:`round_pgn`, with each game's text kept until its board sends a
    new state (the hall writes the round every second; a game's text is
    worked out again only when it changed)."""

    def __init__(self, rnd: Round) -> None:
        self.round = rnd
        self._games: dict[int, tuple[int, str]] = {}

    def text(self, tables: list[Table]) -> str:
        out = []
        for table in tables:
            number, stamp = table.seat.number, table.stamp
            kept = self._games.get(number)
            if kept is None or kept[0] != stamp:
                kept = (stamp, game_pgn(self.round, table))
                self._games[number] = kept
            out.append(kept[1])
        return "\n".join(out)
