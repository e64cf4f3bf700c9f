"""The daemon that tests/e2e/test_kill9.py kills: a long two-player game,
played headless on the simulated board, stored in a real game store.

Usage: ``python kill9_child.py DB MOVES``.  MOVES is a file of moves in
coordinate notation (see :func:`long_game`).  The child resumes the
unfinished game in DB, as the daemon does when it starts (or starts one),
and checks that it is the start of MOVES.  It prints ``ready <game id>
<plies>``, then plays the rest of MOVES on a :class:`SimBoard` in virtual
time, lifting and placing pieces as a person would, and prints ``committed
<ply> <uci>`` after each step of the daemon's loop in which a move was
committed: by then :meth:`Daemon.step` has handled the ``MoveMade`` event,
i.e. written the move to the store.  Every line is flushed at once, so the
parent knows which moves the daemon has promised to keep.  Anything else the
daemon reports is printed as ``event <line>``; ``done`` ends a full game.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from boardctl.board import MoveMade
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import NOTHING_LENT, Hardware, Start
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, Position
from boardctl.rules.moves import CASTLE, EN_PASSANT, code_flag
from boardctl.storage.store import GameStore

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
TICK = 0.01  # virtual seconds per loop turn (the simulated board scans at 100 Hz)
HAND = 0.1  # virtual seconds between one hand movement and the next
MOVE_LIMIT = 20.0  # virtual seconds a move may take to be committed


def long_game(plies: int, seed: int) -> list[str]:
    """A random legal game of ``plies`` moves that does not end, with no
    castling, en passant or promotion (each a several-step or a choosing
    affair at the board, which other tests cover).  Deterministic for a seed.
    """
    rng = random.Random(seed)
    game = Game()
    tried: list[list[int]] = []  # per ply, the moves still to try (backtracking)

    def options() -> list[int]:
        pos = game.position
        codes = [
            c
            for c in pos.legal_codes()
            if code_flag(c) not in (CASTLE, EN_PASSANT) and not c >> 14 & 7
        ]
        rng.shuffle(codes)
        return codes

    tried.append(options())
    while len(game.moves) < plies:
        if not tried[-1]:
            tried.pop()
            game.pop()
            continue
        code = tried[-1].pop()
        game.push(game.position.to_move(code))
        if game.outcome() is None:
            tried.append(options())
        else:
            game.pop()
    return ucis(game)


def ucis(game: Game) -> list[str]:
    """The game's moves in coordinate notation."""
    pos = Position(game.start_fen, game.variant)
    out = []
    for move in game.moves:
        out.append(pos.uci(move))
        pos.push(move)
    return out


def say(line: str) -> None:
    print(line, flush=True)


def main(db: Path, moves_file: Path) -> int:
    script = moves_file.read_text().split()
    store = GameStore(db)
    resume = store.resume()
    game = resume[1] if resume is not None else Game()
    pos = game.position
    done = ucis(game)
    if done != script[: len(done)]:
        say(f"error the stored game {done} is not the start of the script")
        return 3
    board = SimBoard(pos.geometry.squares(occupancy(pos)))
    daemon = Daemon(TWO_PLAYERS, Hardware(board), store, NOTHING_LENT, Start(resume=resume))
    ply = len(done)
    say(f"ready {daemon.game_id} {ply}")
    now = 0.0

    def turn() -> None:
        nonlocal now, ply
        for event in daemon.step(now):
            if isinstance(event, MoveMade):
                ply += 1
                say(f"committed {ply} {event.uci}")
            else:
                say(f"event {event.line()}")
        now = round(now + TICK, 6)

    def wait(seconds: float) -> None:
        end = now + seconds
        while now < end:
            turn()

    geo = pos.geometry
    for uci in script[ply:]:
        frm, to = geo.parse_square(uci[:2]), geo.parse_square(uci[2:4])
        wait(HAND)
        board.lift(frm)
        if board.occupancy >> to & 1:  # a capture: the mover first, then its prey
            wait(HAND)
            board.lift(to)
        wait(HAND)
        board.place(to)
        target = ply + 1
        end = now + MOVE_LIMIT
        while ply < target:
            if now > end:
                say(f"error {uci} was never committed")
                return 4
            turn()
    say("done")
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
