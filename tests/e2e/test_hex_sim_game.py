"""A whole game of Falcon Hexagonal Chess in the simulator against the built-in engine.

The window, the daemon, the store, the engine process and the spectator
page's hub are wired by :func:`boardctl.daemon.wiring.build` as ``boardctl sim
--variant falcon-hex`` wires them; the LEDs go to the window and to the hex
e-board's own LED chain (the SPI driver on a recording bus).  The human
(White) plays greedily: a mate if there is one, else the biggest capture,
else a move picked by a seeded random generator.  Every move, the engine's
too, is carried out with the mouse on the wooden hexagon, click to lift and
click to put down, as a person does in the simulator; a capture, en passant
too, lifts the capturing piece, right-clicks the captured one off into the
tray and puts the capturing piece down.
Virtual time stands still while the engine thinks, as in ``--headless``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import ExitStack

import pytest

from boardctl.board import GameOver
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon import wiring as app
from boardctl.daemon.parts import Services
from boardctl.engine.worker import EngineWorker
from boardctl.hw import Colour, LedSink
from boardctl.hw.hexpins import default_hex_pinout
from boardctl.hw.sim import SimLeds
from boardctl.rules import Game, Move, Position, get_variant
from boardctl.rules.moves import EN_PASSANT, code_flag
from boardctl.rules.pgn import read_game
from boardctl.web.snapshot import Hub

from .simtable import DT, WindowTable, pygame

MOVE_WAIT = 20.0  # virtual seconds a move may take to be read before the test fails
MAX_PLIES = 800  # far more than the 50-move rule lets a game this greedy last
ENGINE_SKILL = 0  # one ply and large random errors: a quick, beatable opponent
VALUES = {"p": 1, "n": 3, "b": 3, "f": 4, "r": 5, "q": 9, "k": 0}


class Tee:
    """One LED sink for the daemon that shows every frame on two."""

    def __init__(self, *sinks: LedSink) -> None:
        self.sinks = sinks

    def show(self, colours: dict[int, Colour]) -> None:
        for sink in self.sinks:
            sink.show(colours)

    def close(self) -> None:
        pass


class Table(WindowTable):
    """The simulator and everything it is wired to, on a virtual clock; the
    engine thinks while virtual time stands still."""

    def __init__(self, stack: ExitStack, monkeypatch: pytest.MonkeyPatch) -> None:
        config = parse_config(
            {
                "game": {"mode": "engine", "human": "white", "variant": "falcon-hex"},
                "engine": {"skill": ENGINE_SKILL, "movetime": 0.5},
            }
        )
        # The app's engine, seeded so that the game is the same on every run.
        monkeypatch.setattr(
            app,
            "make_opponent",
            lambda cfg, vary=True: (
                EngineWorker(cfg.engine.skill, seed=14, vary=vary)
                if cfg.game.mode == "engine"
                else None
            ),
        )
        self.chain = SimLeds(default_hex_pinout().leds)
        self.hub = Hub()
        super().__init__(
            stack, config, Services(web=self.hub), lambda window: Tee(window.leds, self.chain)
        )
        self.geo = self.start.position.geometry
        self.kinds: dict[str, int] = {}  # captures, promotions, en passant carried out

    def between_steps(self) -> None:
        if self.daemon.engine.request is not None:
            self.daemon.wait_for_engine(30.0)

    def carry_out(self, pos: Position, move: Move) -> None:
        """Lift, take the captured piece off (a right-click), put down, as the
        hand in the window does it."""
        code = pos.code_of(move)
        kind = (
            "en passant"
            if code_flag(code) == EN_PASSANT
            else "promotion"
            if move.promotion
            else "capture"
            if pos.is_capture(move)
            else None
        )
        if kind:
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.click(move.from_square)
        if code_flag(code) == EN_PASSANT:
            self.click(pos.en_passant_victim(move.to_square), button=3)
        elif pos.is_capture(move):
            self.click(move.to_square, button=3)
        self.click(move.to_square)
        if move.promotion is not None:
            key = move.promotion.symbol
            self.window.handle(pygame.event.Event(pygame.KEYDOWN, unicode=key, key=ord(key)))

    def wait_for(self, done: Callable[[], bool]) -> None:
        waited = 0.0
        while not done():
            assert waited < MOVE_WAIT, f"stuck: {self.daemon.reconciler.prompt!r}"
            self.run(0.1)
            waited += 0.1


def greedy(pos: Position, rng: random.Random) -> Move:
    """A mate if there is one, else the move that wins the most (a capture,
    en passant included, or a promotion), else any move."""
    moves = pos.legal_moves()
    for move in moves:
        pos.push(move)
        mates = not pos.legal_moves() and pos.is_check()
        pos.pop()
        if mates:
            return move

    def gain(move: Move) -> int:
        code = pos.code_of(move)
        taken = (
            pos.en_passant_victim(move.to_square)
            if code_flag(code) == EN_PASSANT
            else move.to_square
        )
        found = pos.piece_at(taken)
        won = VALUES[found[0].symbol] if found else 0
        return won + (VALUES[move.promotion.symbol] - 1 if move.promotion else 0)

    best = max(gain(m) for m in moves)
    return rng.choice([m for m in moves if gain(m) == best])


def test_a_whole_falcon_hex_game_against_the_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    rng = random.Random(14)
    with ExitStack() as stack:
        table = Table(stack, monkeypatch)
        daemon = table.daemon
        table.run(0.5)
        while daemon.game.outcome() is None:
            plies = len(daemon.game.moves)
            assert plies < MAX_PLIES
            pos = daemon.game.position.copy()
            if pos.turn == daemon.engine_side:
                table.wait_for(lambda: daemon.reconciler.engine_move is not None)
                move = daemon.reconciler.engine_move
                table.run(DT)
                # The window shows the move to carry out.
                assert table.window.state.engine_move is not None
            else:
                move = greedy(pos, rng)
            table.carry_out(pos, move)
            table.wait_for(lambda n=plies: len(daemon.game.moves) > n)
            assert daemon.game.moves[plies] == move, daemon.game.position.uci(move)
            # The board, the sensors and the game agree after every move.
            assert table.board.occupancy == occupancy(daemon.game.position)
        table.run(1.0)
        game = daemon.game
        outcome = game.outcome()
        assert outcome is not None
        # The rules core, fed the moves afresh, reaches the same end.
        again = Game(get_variant("falcon-hex"))
        for move in game.moves:
            again.push(move)
        assert again.outcome() == outcome
        over = [e for e in daemon.events if isinstance(e, GameOver)]
        assert [e.outcome for e in over] == [outcome]
        # The other outputs ran on every step: the spectator page has the
        # end, the hex board's LED chain carried the frames.
        latest = table.hub.latest
        assert latest.variant == "falcon-hex" and latest.result == outcome.result
        assert latest.moves == tuple(game.position.uci(m) for m in game.moves)
        assert latest.to_json()["fen"] == game.position.fen()
        assert table.chain.frames and len(table.chain.pixels) == table.geo.size
        # The store holds the game with its result, and its PGN reads back.
        game_id, config = daemon.game_id, daemon.top.config
    tags, read = read_game(app.open_store(config).pgn(game_id))
    assert tags["Variant"] == "Falcon Hexagonal" and tags["Result"] == outcome.result
    assert read.moves == game.moves and read.outcome() == outcome
    print(f"{len(game.moves)} plies, {outcome.result} {outcome.termination.value}, {table.kinds}")
