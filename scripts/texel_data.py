#!/usr/bin/env python3
"""Positions for tuning the evaluation: quiet positions from the engine's
self-play games, each labelled with how its game ended.

Run (CPU-heavy: under ``nice``, sized by games and nodes, not by the clock)::

    nice -n 19 .venv/bin/python scripts/texel_data.py --games 400 --nodes 4000 \\
        --jobs 2 --out ~/.cache/boardctl/texel.txt

Each game starts from the initial position of the ``falcon-xboard`` preset
(the rules Fairy-Max plays) with ``--plies`` random legal moves, then the
compiled engine plays both sides at ``--nodes`` nodes a move.  A game ends by
the rules (mate, stalemate, repetition, fifty moves, dead position), or is
adjudicated: won once the side ahead has been at least ``WIN_SCORE`` up (or
mating) for ``WIN_PLIES`` plies in a row, drawn at ``MAX_PLIES``.

Kept: positions after the random opening in which the side to move is not in
check and a quiescence search of captures and promotions does not change the
static evaluation (so the label belongs to the evaluation, not to a capture
in flight).  Output, one position a line::

    <FEN>;<result>;<score>

with the result ``1-0``, ``1/2-1/2`` or ``0-1`` (from White's side, as in
PGN) and the score in centipawns, from White's side, that the engine's
search of the move played there gave the position (a less noisy label than
the result; texel_tune.py's ``--blend`` mixes the two).  Lines are appended,
so several runs with different ``--seed`` add up.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
import random
import signal
import sys
import time
from pathlib import Path

from boardctl.engine import Engine, Info, Limits, core
from boardctl.rules import BLACK, WHITE, Game, Position, get_variant

VARIANT = "falcon-xboard"
MAX_PLIES = 300
WIN_SCORE = 1000  # centipawns: a lead no engine gives back at these node counts
WIN_PLIES = 6
MATE_SCORE = 3000  # a mate's score in the data: beyond any material lead
QUIESCE_PLIES = 8  # deeper capture chains are rare; the filter stops there
INF = 32_000
RESULTS = ("1-0", "1/2-1/2", "0-1")


def quiesce(engine: core.Core, pos: Position, alpha: int, beta: int, ply: int) -> int:
    """Captures-and-promotions search on ``engine`` (the compiled core's
    static evaluation) and ``pos`` (the rules core's moves), kept in step."""
    stand = engine.evaluate()
    if stand >= beta or ply >= QUIESCE_PLIES:
        return stand
    alpha = max(alpha, stand)
    for code in pos.legal_captures():
        pos.make(code)
        engine.push(code)
        score = -quiesce(engine, pos, -beta, -alpha, ply + 1)
        engine.pop()
        pos.unmake()
        if score > alpha:
            alpha = score
            if alpha >= beta:
                break
    return alpha


def is_quiet(engine: core.Core, pos: Position) -> bool:
    """Not in check, and no capture or promotion changes the static evaluation."""
    if pos.is_check():
        return False
    core.load(engine, pos)
    static = engine.evaluate()
    return quiesce(engine, pos, -INF, INF, 0) == static


def opening(rng: random.Random, plies: int) -> Game:
    """A game after ``plies`` random legal moves from the start that do not end it."""
    variant = get_variant(VARIANT)
    while True:
        game = Game(variant)
        for _ in range(plies):
            game.push(rng.choice(game.position.legal_moves()))
        if game.outcome() is None:
            return game


def play_out(
    game: Game,
    engines: dict[int, Engine],
    limits: Limits,
    checker: core.Core | None = None,
) -> tuple[str, list[str]]:
    """Play ``game`` to its end with ``engines`` (by colour): the result and,
    when there is a ``checker`` core, the quiet positions on the way, each as
    its FEN and the score the search of the move played there gave it (from
    White's side, a mate counted as ``MATE_SCORE``)."""
    fens: list[tuple[str, int]] = []
    ahead = 0  # plies in a row with one side WIN_SCORE up: + White, - Black
    while True:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.result, fens
        if len(game.moves) >= MAX_PLIES:
            return "1/2-1/2", fens
        pos = game.position
        quiet = pos.fen() if checker is not None and is_quiet(checker, pos) else None
        last: list[Info] = []
        move = engines[pos.turn].search(pos, limits, on_info=last.append)
        if move is None:
            raise RuntimeError(f"bug: the engine found no move in {pos.fen()}")
        own = 0
        if last:
            mate = last[-1].mate
            own = (
                (MATE_SCORE if mate > 0 else -MATE_SCORE)
                if mate is not None
                else (last[-1].score_cp or 0)
            )
        white = own if pos.turn == WHITE else -own
        if quiet is not None:
            fens.append((quiet, white))
        if white >= WIN_SCORE:
            ahead = max(ahead, 0) + 1
        elif white <= -WIN_SCORE:
            ahead = min(ahead, 0) - 1
        else:
            ahead = 0
        game.push(move)
        if abs(ahead) >= WIN_PLIES:
            return ("1-0" if ahead > 0 else "0-1"), fens


def play(seed: int, nodes: int, plies: int) -> tuple[list[tuple[str, int]], str]:
    """One self-play game: the quiet positions' FENs and the result."""
    game = opening(random.Random(seed), plies)
    engine = Engine(seed=seed, compiled=True)
    checker = core.build(game.variant, tt_bits=10)
    result, fens = play_out(game, {WHITE: engine, BLACK: engine}, Limits(nodes=nodes), checker)
    return fens, result


def _play_job(job: tuple[int, int, int]) -> tuple[list[tuple[str, int]], str]:
    return play(*job)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--nodes", type=int, default=4000, help="nodes the engine searches a move (default 4000)"
    )
    parser.add_argument("--plies", type=int, default=8, help="random opening plies (default 8)")
    parser.add_argument("--jobs", type=int, default=1, help="games in parallel (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="file to append positions to")
    args = parser.parse_args(argv)
    if args.games < 1 or args.nodes < 1 or args.plies < 0 or args.jobs < 1:
        parser.error("--games, --nodes and --jobs must be 1 or more, --plies 0 or more")
    return args


def worker_pool(jobs: int) -> multiprocessing.pool.Pool:
    """A pool of fresh interpreters that die on SIGTERM.  Forked workers
    would inherit the parent's signal handlers: a process that had initialised
    SDL (pygame: the simulator's tests) keeps SDL's SIGTERM handler, which
    only queues a quit event, and the pool's shutdown, which terminates its
    workers, then waited for ever.  A spawned worker starts with no handler;
    the initializer also undoes a SIGTERM the parent ignores (that survives exec)."""
    return multiprocessing.get_context("spawn").Pool(jobs, initializer=_default_sigterm)


def _default_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def core_missing(program: str) -> bool:
    """Whether the compiled core is missing, said on stderr as ``program``'s:
    the Texel scripts play and score with it."""
    if core.available():
        return False
    print(f"{program}: the compiled core is not built (see setup.py)", file=sys.stderr)
    return True


def unreadable(program: str, exc: Exception) -> int:
    """Say on stderr, as ``program``'s, why an input could not be read (a
    file's name and the system's reason, or what was wrong in it); 2, the exit
    status."""
    message = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) else str(exc)
    print(f"{program}: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if core_missing("texel_data"):
        return 2
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        out = args.out.open("a", encoding="utf-8")
    except OSError as exc:
        print(f"texel_data: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    jobs = [(args.seed + i, args.nodes, args.plies) for i in range(args.games)]
    started = time.perf_counter()
    counts = dict.fromkeys(RESULTS, 0)
    positions = 0
    with out, worker_pool(args.jobs) as pool:
        for fens, result in pool.imap_unordered(_play_job, jobs):
            counts[result] += 1
            positions += len(fens)
            out.writelines(f"{fen};{result};{score}\n" for fen, score in fens)
            out.flush()
    print(
        f"{args.games} games ({counts['1-0']} won by White, {counts['1/2-1/2']} drawn,"
        f" {counts['0-1']} won by Black) at {args.nodes} nodes a move:"
        f" {positions} quiet positions appended to {args.out}"
        f" in {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
