"""``boardctl uci`` over a whole game: the position kept between ``position``
commands (only the new moves are played), and play that repeats with a seed.

The position tests use the fake engine of ``test_uci.py``; the seed tests
the real one, at a fixed depth, so that only the random points can differ.
"""

from __future__ import annotations

import io
import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engine import Engine
from boardctl.engine.frontend import Output
from boardctl.engine.uci import UciSession, parse_position
from boardctl.rules import Game, get_variant

from .test_uci import START, TIMEOUT, FakeEngine, bestmoves, errors, talk

FALCON = get_variant("falcon")


def session(engine: FakeEngine | None = None) -> tuple[UciSession, io.StringIO]:
    out = io.StringIO()
    return UciSession(Output(out), engine or FakeEngine()), out


def random_game(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    game = Game(FALCON)
    moves = []
    for _ in range(plies):
        if game.outcome() is not None:
            break
        move = rng.choice(game.position.legal_moves())
        moves.append(game.position.uci(move))
        game.push(move)
    return moves


def command(moves: list[str]) -> str:
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def same_as_replayed(the_session: UciSession, moves: list[str]) -> None:
    fresh = parse_position(command(moves).split()[1:], FALCON)
    pos = the_session.position
    assert pos.fen() == fresh.fen()
    assert pos.ply_stack == fresh.ply_stack  # the history repetitions are judged by
    assert pos.hash_history() == fresh.hash_history()


# ---------------------------------------------------------------- one position
def test_a_game_sent_whole_before_each_move_is_played_on_one_position():
    the_session, out = session()
    moves = random_game(1, 40)
    the_session.handle(command(moves[:2]))
    kept = the_session.position
    for plies in range(4, len(moves) + 1, 2):
        the_session.handle(command(moves[:plies]))
        assert the_session.position is kept
    same_as_replayed(the_session, moves)
    assert out.getvalue() == ""


def test_moves_taken_back_and_others_played_are_the_game_the_gui_sent():
    the_session, _ = session()
    moves = random_game(2, 30)
    other = random_game(3, 30)
    game = Game(FALCON)
    for text in moves[:11]:
        game.push_text(text)
    branch = next(m for m in map(game.position.uci, game.position.legal_moves()) if m != moves[11])
    for line in (moves, moves[:11], [*moves[:11], branch], [], other, moves):
        the_session.handle(command(line))
        same_as_replayed(the_session, line)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 24), min_size=1, max_size=8))
def test_any_sequence_of_prefixes_of_a_game_gives_what_a_replay_gives(seed, lengths):
    the_session, _ = session()
    moves = random_game(seed, 24)
    for length in lengths:
        the_session.handle(command(moves[:length]))
        same_as_replayed(the_session, moves[:length])


def test_an_illegal_move_in_an_extension_leaves_the_position_as_it_was():
    the_session, out = session()
    moves = random_game(4, 20)
    the_session.handle(command(moves))
    the_session.handle(command([*moves[:12], "a1a8"]))
    [error] = errors(out.getvalue().splitlines())
    assert error.startswith("info string error: position: move 13 (a1a8): illegal move")
    same_as_replayed(the_session, moves)
    the_session.handle(command(moves[:18]))  # and it goes on from there
    same_as_replayed(the_session, moves[:18])


def test_a_position_sent_while_a_search_runs_leaves_the_searched_one_alone():
    class Watching(FakeEngine):
        """Records the position at the end of each search too."""

        def __init__(self) -> None:
            super().__init__()
            self.after: list[str] = []

        def search(self, pos, limits, stop=None, on_info=None):
            move = super().search(pos, limits, stop, on_info)
            self.after.append(pos.fen())
            return move

    engine = Watching()
    lines = talk(
        "position startpos\ngo infinite\nposition startpos moves e2e4 e7e5\nstop\ngo depth 1\n",
        engine,
    )
    assert len(bestmoves(lines)) == 2
    assert engine.fens[0] == engine.after[0] == START
    assert engine.fens[1].startswith("rnbfqkfbnr/pppp1ppppp/10/4p5/4P5/")


# ---------------------------------------------------------------- seeds
def best_at_depth(options: str, depth: int = 3, games: int = 1) -> list[str]:
    """The real engine's moves from the start, ``games`` games in one session,
    each search waited for (end of input would stop it where it is)."""
    the_session, out = session(Engine())  # type: ignore[arg-type]
    script = options + f"ucinewgame\nposition startpos\ngo depth {depth}\n" * games
    for line in script.splitlines():
        # Counted before the command: a search at depth 3 can answer before
        # handle() returns, and a count taken after it would wait for a second.
        wanted = out.getvalue().count("bestmove") + 1
        the_session.handle(line)
        if line.startswith("go"):
            deadline = time.monotonic() + TIMEOUT
            while out.getvalue().count("bestmove") < wanted and time.monotonic() < deadline:
                time.sleep(0.001)
            assert out.getvalue().count("bestmove") >= wanted, f"no bestmove for {line!r}"
    the_session.close()
    return bestmoves(out.getvalue().splitlines())


def test_the_same_seed_gives_the_same_moves_run_after_run_and_game_after_game():
    seeded = "setoption name Seed value 1234\n"
    first = best_at_depth(seeded, games=3)
    assert first == best_at_depth(seeded, games=3)
    assert len(set(first)) == 1  # each ucinewgame starts from the seed again


def test_without_options_the_same_position_gets_the_same_move_every_run():
    first = best_at_depth("", games=3)
    assert len(set(first)) == 1 and first == best_at_depth("", games=3)


def test_with_variety_the_seed_picks_among_near_equal_moves():
    options = "setoption name Variety value true\nsetoption name Seed value {}\n"
    moves = {best_at_depth(options.format(seed))[0] for seed in range(1, 13)}
    assert len(moves) > 1


def test_without_variety_every_seed_gives_the_one_best_move():
    options = "setoption name Variety value false\nsetoption name Seed value {}\n"
    moves = {best_at_depth(options.format(seed))[0] for seed in range(1, 13)}
    assert len(moves) == 1


def test_seed_zero_draws_from_the_system_again():
    engine = FakeEngine()
    talk(
        "setoption name Seed value 9\nucinewgame\nsetoption name Seed value 0\nucinewgame\n", engine
    )
    assert engine.seeds == [9, 9, None]
