"""What the hall's page is sent: the round whole when a spectator arrives,
then, batch by batch, only the boards that changed.

A board's entry sets its fields outright, and its moves from a place on:
``sans_at`` is how many of the moves the spectator has stay, ``sans`` the
moves from there (one new move, most of the time; a takeback cuts back).
Applying an entry twice, or after the whole round that already holds it,
leaves the page as it was, so a spectator who arrives between two batches
misses nothing and doubles nothing.
"""

from __future__ import annotations

import json
from typing import Any

from ..web.layout import board_layout
from .round import Round
from .watch import Table, Watch


def board_json(table: Table, now: float, sans_at: int = 0) -> dict[str, Any]:
    """One board for the page, its moves from ``sans_at`` on."""
    state, game = table.state, table.game
    entry: dict[str, Any] = {
        "number": table.seat.number,
        "board": table.seat.board,
        "white": table.white,
        "black": table.black,
        "presence": table.presence.value,
        "refused": table.refused,
        "result": table.result,
        "reason": table.reason,
        "variant": state.variant if state else None,
        "fen": None,
        "ply": 0,
        "sans_at": sans_at,
        "sans": table.sans[sans_at:],
        "last_move": None,
        "check": None,
        "turn": "white",
        "white_clock": table.clock("white", now),
        "black_clock": table.clock("black", now),
        "running": state.running if state and table.result == "*" else "",
        "stamp": table.stamp,
    }
    if game is not None:
        pos = game.position
        entry["fen"] = pos.fen()
        entry["ply"] = len(game.moves)
        entry["turn"] = "white" if pos.turn == 0 else "black"
        if game.moves:
            entry["last_move"] = [game.moves[-1].from_square, game.moves[-1].to_square]
        if pos.is_check():
            entry["check"] = pos.kings[pos.turn]
    return entry


def layouts(watch: Watch) -> dict[str, Any]:
    """Each variant's board drawing, sent once (the entries name the variant)."""
    names = {t.state.variant for t in watch.tables if t.state is not None} | {"falcon"}
    return {name: board_layout(name, False) for name in sorted(names)}


def round_json(watch: Watch, now: float) -> dict[str, Any]:
    rnd: Round = watch.round
    return {
        "event": rnd.event,
        "title": rnd.title,
        "round": rnd.number,
        "boards": [board_json(t, now) for t in watch.tables],
        "layouts": layouts(watch),
    }


class Shown:
    """The moves every spectator holds, as of the last batch: what the next
    batch's entries go on from."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self._sans: dict[int, list[str]] = {t.seat.number: [] for t in watch.tables}
        self._variants = {"falcon"}

    def whole(self, now: float) -> bytes:
        return _dumps(round_json(self.watch, now))

    def batch(self, now: float) -> bytes | None:
        """The boards that changed since the last batch (None: none did)."""
        watch = self.watch
        if not watch.changed:
            return None
        entries = []
        for number in sorted(watch.changed):
            table = watch.table(number)
            held = self._sans[number]
            common, limit = 0, min(len(held), len(table.sans))
            while common < limit and held[common] == table.sans[common]:
                common += 1
            entries.append(board_json(table, now, common))
            self._sans[number] = list(table.sans)
        watch.changed.clear()
        data: dict[str, Any] = {"boards": entries}
        variants = {e["variant"] for e in entries if e["variant"]} - self._variants
        if variants:  # a hexagon seen for the first time: its drawing comes with it
            data["layouts"] = {name: board_layout(name, False) for name in sorted(variants)}
            self._variants |= variants
        return _dumps(data)


def _dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
