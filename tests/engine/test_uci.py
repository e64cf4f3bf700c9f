"""``boardctl uci``: sessions with a GUI, read line by line.

Most tests drive :func:`run` with a fake engine that plays the first legal
move, so they test the protocol and never the engine's play.  A few use the
real engine, asking only that its move be legal.  Reads from a running
session wait at most ``TIMEOUT`` seconds, so a hang fails instead of blocking;
nothing here measures time.
"""

from __future__ import annotations

import io
import os
import queue
import re
import subprocess
import sys
import threading

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boardctl import __version__
from boardctl.engine import MAX_SKILL, Engine, Info, Limits
from boardctl.engine.uci import UciError, format_info, parse_go, run
from boardctl.rules import VARIANTS, Move, Position, get_variant, parse_uci

TIMEOUT = 30.0  # seconds a read may wait before the test fails: a hang, not a slow engine
START = get_variant("falcon").start_fen
EIGHT = "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1"
AFTER_E4 = "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq e3 0 1"
MATED = "k9/1Q8/1K8/10/10/10/10/10 b - - 0 1"  # black is checkmated
STALEMATE = "k9/10/1Q8/10/10/10/10/9K b - - 0 1"
INFO_LINE = re.compile(
    r"^info depth \d+ seldepth \d+( score (cp|mate) -?\d+)? nodes \d+ nps \d+ time \d+"
    r"( pv( [a-j]\d+[a-j]\d+[qfrbn]?)+)?$"
)


# ---------------------------------------------------------------- fakes
class FakeEngine:
    """Plays the first legal move after one ``Info``; remembers what it was asked.

    An infinite search blocks until ``stop()`` says so, polling it as the real
    engine does, so a test can act while a search is running.
    """

    def __init__(self) -> None:
        self.skill = MAX_SKILL
        self.vary = True
        self.nodes_per_second = None
        self.tt_bits = 20
        self.seeds: list[int | None] = []  # each reseed's seed
        self.new_games = 0
        self.searches: list[tuple[str, Limits]] = []  # (FEN, limits) of each go
        self.searching = threading.Event()

    def new_game(self) -> None:
        self.new_games += 1

    def reseed(self, seed: int | None) -> None:
        self.seeds.append(seed)

    def search(self, pos, limits, stop=None, on_info=None):
        self.searches.append((pos.fen(), limits))
        moves = pos.legal_moves()
        if limits.infinite and stop is not None:
            self.searching.set()
            quit_waiting = threading.Event()
            while not stop() and not quit_waiting.wait(0.001):
                pass
        if on_info is not None and moves:
            on_info(Info(1, 12, None, 100, 0.05, [moves[0]], 2))
        return moves[0] if moves else None

    @property
    def fens(self) -> list[str]:
        return [fen for fen, _ in self.searches]


class EagerEngine(FakeEngine):
    """Answers at once even when asked to search forever."""

    def search(self, pos, limits, stop=None, on_info=None):
        return super().search(pos, Limits(depth=1), stop, on_info)


class BrokenEngine(FakeEngine):
    def search(self, pos, limits, stop=None, on_info=None):
        raise RuntimeError("the search fell over")


def talk(text: str, engine: FakeEngine | None = None) -> list[str]:
    """The whole answer of a session fed ``text``, ended by end of input."""
    out = io.StringIO()
    the_engine = engine if engine is not None else FakeEngine()
    assert run(io.StringIO(text), out, lambda: the_engine) == 0
    return out.getvalue().splitlines()


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error: ")]


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def legal_in(fen: str | None, move: str, variant: str = "falcon") -> Move:
    return parse_uci(Position(fen, get_variant(variant)), move)


class Gui:
    """A session of :func:`run` on a thread, talked to through two OS pipes."""

    def __init__(self, engine_factory) -> None:
        read_end, write_end = os.pipe()
        engine_in, self._gui_out = os.fdopen(read_end, "r"), os.fdopen(write_end, "w")
        read_end, write_end = os.pipe()
        self._gui_in, engine_out = os.fdopen(read_end, "r"), os.fdopen(write_end, "w")
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.returned: list[int] = []

        def engine_side() -> None:
            try:
                self.returned.append(run(engine_in, engine_out, engine_factory))
            finally:
                engine_in.close()
                engine_out.close()

        def reader() -> None:
            for line in self._gui_in:
                self._lines.put(line.rstrip("\n"))
            self._lines.put(None)

        self._session = threading.Thread(target=engine_side, daemon=True)
        self._reader = threading.Thread(target=reader, daemon=True)
        self._session.start()
        self._reader.start()

    def send(self, *lines: str) -> None:
        for line in lines:
            self._gui_out.write(line + "\n")
        self._gui_out.flush()

    def read_until(self, prefix: str) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        lines: list[str] = []
        while not lines or not lines[-1].startswith(prefix):
            line = self._lines.get(timeout=TIMEOUT)
            assert line is not None, f"output ended before {prefix!r}: {lines}"
            lines.append(line)
        return lines

    def close(self) -> list[str]:
        """End the input; the lines said after that, up to the end of the output."""
        if self._gui_out.closed:
            return []
        self._gui_out.close()
        self._session.join(TIMEOUT)
        assert not self._session.is_alive(), "the session did not end at end of input"
        rest: list[str] = []
        while (line := self._lines.get(timeout=TIMEOUT)) is not None:
            rest.append(line)
        self._gui_in.close()
        return rest


@pytest.fixture
def gui():
    """``gui(engine_factory)`` starts a session; all are closed after the test."""
    started: list[Gui] = []

    def start(engine_factory=Engine) -> Gui:
        started.append(Gui(engine_factory))
        return started[-1]

    yield start
    for session in started:
        session.close()


# ---------------------------------------------------------------- handshake
def test_uci_names_the_engine_and_its_options_then_uciok():
    assert talk("uci\n") == [
        f"id name boardctl {__version__}",
        "id author boardctl developers",
        "option name UCI_Variant type combo default falcon "
        + " ".join(f"var {name}" for name in VARIANTS),
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Variety type check default false",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name Hash type spin default 16 min 1 max 1024",
        "uciok",
    ]


def test_isready_answers_readyok_and_blank_lines_are_ignored():
    assert talk("\n   \nisready\n\t\ndebug on\nisready\n") == ["readyok", "readyok"]


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("hello", "unknown command 'hello'"),
        ("ponderhit", "unknown command 'ponderhit'"),
        ("UCI", "unknown command 'UCI'"),
        ("isready now", "isready: unexpected 'now'"),
        ("uci please", "uci: unexpected 'please'"),
        ("stop it", "stop: unexpected 'it'"),
        ("ucinewgame 2", "ucinewgame: unexpected '2'"),
        ("debug maybe", "debug: expected 'debug on' or 'debug off'"),
    ],
)
def test_an_unknown_or_malformed_command_is_one_error_line_and_changes_nothing(line, needle):
    engine = FakeEngine()
    lines = talk(f"position startpos moves e2e4\n{line}\ngo depth 1\n", engine)
    assert errors(lines) == [f"info string error: {needle}"]
    assert not any(line.startswith(("readyok", "uciok", "id ")) for line in lines)
    assert engine.fens == [AFTER_E4]
    assert engine.new_games == 0


def test_input_that_is_not_text_is_an_error_and_not_a_crash():
    lines = talk("\x00\x01\ufffd\nisready\n")
    assert lines[-1] == "readyok"
    assert len(errors(lines)) == 1


# ---------------------------------------------------------------- position
@pytest.mark.parametrize(
    ("command", "fen"),
    [
        ("position startpos", START),
        ("position startpos moves", START),
        ("position startpos moves e2e4", AFTER_E4),
        ("position fen " + START + " moves e2e4", AFTER_E4),
        ("position fen " + AFTER_E4, AFTER_E4),
        ("position fen k9/10/10/10/10/10/10/9K w - -", "k9/10/10/10/10/10/10/9K w - - 0 1"),
        ("position    startpos   moves  e2e4  ", AFTER_E4),
    ],
)
def test_position_sets_up_the_board_that_go_searches(command, fen):
    engine = FakeEngine()
    assert errors(talk(f"{command}\ngo depth 1\n", engine)) == []
    assert engine.fens == [fen]


def test_position_keeps_the_moves_played_so_the_search_can_see_repetitions():
    seen: list[list[str]] = []

    class HistoryEngine(FakeEngine):
        def search(self, pos, limits, stop=None, on_info=None):
            played = []
            while pos.ply_stack:
                played.append(pos.pop())
            played.reverse()
            seen.append([Position().uci(move) for move in played])
            for move in played:
                pos.push(move)
            return None

    talk("position startpos moves b1c3 b8c6 c3b1 c6b8\ngo depth 1\n", HistoryEngine())
    assert seen == [["b1c3", "b8c6", "c3b1", "c6b8"]]


@pytest.mark.parametrize(
    ("command", "needle"),
    [
        ("position", "position: expected startpos or fen <FEN>"),
        ("position middlegame", "expected startpos or fen <FEN>, got 'middlegame'"),
        ("position startpos e2e4", "unexpected 'e2e4' after startpos"),
        ("position fen", "position: fen needs a FEN"),
        ("position fen moves e2e4", "position: fen needs a FEN"),
        ("position fen rubbish", "invalid FEN layout"),
        ("position fen k9/10/10/10/10/10/10/9K w KQ - 0 1", "invalid FEN castling"),
        ("position fen " + EIGHT, "rank 8 has 8 squares where the board has 10"),
        ("position startpos moves e2e4 e7e5 e4e5", "move 3 (e4e5): illegal move e4e5"),
        ("position startpos moves e2e4 e7e5 zz", "move 3 (zz): not a move in coordinate"),
        ("position startpos moves e2e4 e7e5 k2k4", "move 3 (k2k4): no square 'k2'"),
        ("position startpos moves e2e4 e2e4", "move 2 (e2e4): illegal move"),
        ("position fen " + MATED + " moves a8a7", "move 1 (a8a7): illegal move"),
    ],
)
def test_a_bad_position_is_an_error_and_the_position_stays_as_it_was(command, needle):
    engine = FakeEngine()
    lines = talk(f"position startpos moves e2e4\n{command}\ngo depth 1\n", engine)
    [error] = errors(lines)
    assert error.startswith("info string error: position: ")
    assert needle in error
    assert engine.fens == [AFTER_E4]


# ---------------------------------------------------------------- go
@pytest.mark.parametrize(
    ("args", "limits"),
    [
        ("depth 3", Limits(depth=3)),
        ("movetime 1500", Limits(movetime=1.5)),
        ("nodes 5000", Limits(nodes=5000)),
        ("mate 2", Limits(mate=2)),
        ("infinite", Limits(infinite=True)),
        ("", Limits()),
        ("wtime 60000 btime 30000", Limits(wtime=60.0, btime=30.0)),
        (
            "wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20",
            Limits(wtime=60.0, btime=30.0, winc=1.0, binc=0.5, movestogo=20),
        ),
        ("btime 10 wtime -25", Limits(wtime=0.0, btime=0.01)),  # a clock past zero is zero
        ("depth 4 movetime 250", Limits(depth=4, movetime=0.25)),
    ],
)
def test_go_arguments_are_milliseconds_on_the_wire_and_seconds_in_limits(args, limits):
    assert parse_go(args.split()) == limits


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ("depth", "depth needs a value"),
        ("depth three", "depth: expected a whole number from 1 to 96, got 'three'"),
        ("depth 0", "depth: expected a whole number from 1 to 96, got '0'"),
        ("nodes 1.5", "nodes: expected a whole number"),
        ("movetime -1", "movetime: expected a whole number from 0 to"),
        ("winc -5", "winc: expected a whole number from 0 to"),
        ("mate -2", "mate: expected a whole number from 1 to 48"),
        ("wtime", "wtime needs a value"),
        ("depth 2 depth 3", "depth given twice"),
        ("infinite infinite", "infinite given twice"),
        ("sideways", "unknown argument 'sideways'"),
        ("movetime 100 fast", "unknown argument 'fast'"),
        ("searchmoves e2e4", "searchmoves is not supported"),
        ("ponder", "ponder is not supported"),
    ],
)
def test_bad_go_arguments_are_an_error_and_nothing_is_searched(args, needle):
    engine = FakeEngine()
    lines = talk(f"position startpos\ngo {args}\n", engine)
    [error] = errors(lines)
    assert error.startswith("info string error: go: ")
    assert needle in error
    assert bestmoves(lines) == []
    assert engine.searches == []


def test_go_sends_each_info_and_then_a_legal_bestmove():
    engine = FakeEngine()
    lines = talk("position startpos moves e2e4\ngo depth 1\n", engine)
    first = Position(AFTER_E4).legal_moves()[0]
    move = Position(AFTER_E4).uci(first)
    assert lines == [
        f"info depth 1 seldepth 2 score cp 12 nodes 100 nps 2000 time 50 pv {move}",
        f"bestmove {move}",
    ]


def test_go_with_no_legal_move_answers_bestmove_0000():
    for fen in (MATED, STALEMATE):
        assert bestmoves(talk(f"position fen {fen}\ngo depth 1\n")) == ["0000"]
        assert bestmoves(talk(f"position fen {fen}\ngo depth 1\n", Engine())) == ["0000"]


def test_a_failing_search_is_reported_and_still_ends_in_a_legal_bestmove():
    lines = talk("position startpos\ngo depth 1\nisready\n", BrokenEngine())
    [error] = errors(lines)
    assert error.startswith("info string error: search failed: RuntimeError")
    [move] = bestmoves(lines)
    legal_in(None, move)
    assert "readyok" in lines


@pytest.mark.parametrize(
    ("info", "line"),
    [
        (
            Info(3, 25, None, 1200, 0.5, [], 7),
            "info depth 3 seldepth 7 score cp 25 nodes 1200 nps 2400 time 500",
        ),
        (
            Info(5, None, -2, 10, 0.0, [], 5),
            "info depth 5 seldepth 5 score mate -2 nodes 10 nps 0 time 0",
        ),
        (Info(1, None, None, 1, 0.001, [], 1), "info depth 1 seldepth 1 nodes 1 nps 1000 time 1"),
    ],
)
def test_info_lines(info, line):
    assert format_info(info, Position()) == line


@pytest.mark.parametrize(
    ("fen", "pv"),
    [
        ("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", "f1j1 f8a8"),
        ("9k/1P8/10/10/10/10/10/K9 w - - 0 1", "b7b8f j8i8"),
    ],
)
def test_info_pv_is_in_the_rules_cores_coordinates(fen, pv):
    pos = Position(fen)
    moves = []
    for text in pv.split():
        moves.append(parse_uci(pos, text))
        pos.push(moves[-1])
    line = format_info(Info(2, 0, None, 50, 0.01, moves, 2), Position(fen))
    assert line.endswith(" pv " + pv)
    assert INFO_LINE.match(line)


# ---------------------------------------------------------------- while searching
def test_go_infinite_ends_only_on_stop_and_isready_answers_meanwhile(gui):
    engine = FakeEngine()
    session = gui(lambda: engine)
    session.send("position startpos moves e2e4", "go infinite")
    assert engine.searching.wait(TIMEOUT)
    session.send("isready")
    assert session.read_until("readyok") == ["readyok"]
    session.send("stop")
    lines = session.read_until("bestmove")
    legal_in(AFTER_E4, lines[-1].split()[1])
    assert engine.searches == [(AFTER_E4, Limits(infinite=True))]


def test_an_infinite_search_holds_its_bestmove_back_until_stop(gui):
    session = gui(EagerEngine)
    session.send("position startpos", "go infinite", "isready")
    assert bestmoves(session.read_until("readyok")) == []
    session.send("isready")
    assert bestmoves(session.read_until("readyok")) == []
    session.send("stop")
    assert len(bestmoves(session.read_until("bestmove"))) == 1


def test_a_second_go_stops_the_first_whose_bestmove_is_still_sent(gui):
    engine = FakeEngine()
    session = gui(lambda: engine)
    session.send("position startpos", "go infinite")
    assert engine.searching.wait(TIMEOUT)
    session.send("position startpos moves e2e4", "go depth 1")
    first = session.read_until("bestmove")
    second = session.read_until("bestmove")
    legal_in(None, bestmoves(first)[0])
    legal_in(AFTER_E4, bestmoves(second)[0])
    assert engine.searches == [(START, Limits(infinite=True)), (AFTER_E4, Limits(depth=1))]


def test_stop_without_a_search_says_nothing():
    assert talk("stop\nisready\nposition startpos\ngo depth 1\nstop\nisready\n")[-1] == "readyok"
    assert talk("stop\nstop\n") == []


def test_quit_stops_the_search_sends_its_bestmove_and_ends_the_session(gui):
    engine = FakeEngine()
    session = gui(lambda: engine)
    session.send("go infinite")
    assert engine.searching.wait(TIMEOUT)
    session.send("quit", "isready")  # nothing after quit is read
    rest = session.close()
    assert len(bestmoves(rest)) == 1 and "readyok" not in rest
    assert session.returned == [0]


def test_end_of_input_is_quit():
    engine = FakeEngine()
    lines = talk("position startpos\ngo infinite\n", engine)
    assert len(bestmoves(lines)) == 1
    assert engine.searches == [(START, Limits(infinite=True))]


# ---------------------------------------------------------------- options, new game
def test_ucinewgame_resets_the_position_and_tells_the_engine():
    engine = FakeEngine()
    talk("position startpos moves e2e4\nucinewgame\ngo depth 1\n", engine)
    assert engine.new_games == 1
    assert engine.fens == [START]


@pytest.mark.parametrize(
    "line",
    [
        "setoption name Skill Level value 3",
        "setoption name skill level value 3",
        "setoption name SKILL LEVEL value  3 ",
    ],
)
def test_skill_level_sets_the_engines_skill(line):
    engine = FakeEngine()
    assert talk(line + "\n", engine) == []
    assert engine.skill == 3


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("setoption name Skill Level value 21", "from 0 to 20, got '21'"),
        ("setoption name Skill Level value -1", "from 0 to 20, got '-1'"),
        ("setoption name Skill Level value high", "Skill Level: expected a whole number"),
        ("setoption name Skill Level value", "Skill Level needs a value"),
        ("setoption name Skill Level", "Skill Level needs a value"),
        ("setoption name Ponder value true", "unknown option 'Ponder'"),
        ("setoption name Hash value 0", "Hash: expected a whole number from 1 to 1024, got '0'"),
        ("setoption name Variety value maybe", "Variety is true or false, not 'maybe'"),
        ("setoption name Seed value -3", "Seed: expected a whole number from 0 to 2147483647"),
        ("setoption name UCI_Variant value shogi", "unknown variant 'shogi'"),
        ("setoption name UCI_Variant", "UCI_Variant needs a value"),
        ("setoption", "expected 'setoption name <name> [value <value>]'"),
        ("setoption name", "expected 'setoption name <name> [value <value>]'"),
        ("setoption name value 3", "expected 'setoption name <name> [value <value>]'"),
        ("setoption Skill Level value 3", "expected 'setoption name <name> [value <value>]'"),
    ],
)
def test_a_bad_option_is_an_error_and_changes_nothing(line, needle):
    engine = FakeEngine()
    engine.skill = 7
    lines = talk(f"position startpos moves e2e4\n{line}\ngo depth 1\n", engine)
    [error] = errors(lines)
    assert error.startswith("info string error: setoption: ")
    assert needle in error
    assert engine.skill == 7
    assert engine.fens == [AFTER_E4]


def test_uci_variant_switches_the_rules_and_the_start_position():
    engine = FakeEngine()
    lines = talk(
        "setoption name UCI_Variant value falcon-8x8\n"
        "go depth 1\n"
        f"position fen {EIGHT} moves e2e4\n"
        "go depth 1\n"
        "position startpos moves e2e4 e7e5\n"
        "go depth 1\n"
        "setoption name UCI_Variant value falcon\n"
        "go depth 1\n",
        engine,
    )
    assert errors(lines) == []
    after_e4 = Position(EIGHT, get_variant("falcon-8x8"))
    after_e4.push(legal_in(EIGHT, "e2e4", "falcon-8x8"))
    assert engine.fens[:2] == [EIGHT, after_e4.fen()]
    assert engine.fens[2].startswith("rnbfkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBFKBNR w")
    assert engine.fens[3] == START
    for fen, move in zip(engine.fens[:3], bestmoves(lines)[:3], strict=True):
        legal_in(fen, move, "falcon-8x8")


def test_an_unknown_variant_keeps_the_current_one():
    engine = FakeEngine()
    lines = talk(
        "setoption name UCI_Variant value falcon-8x8\n"
        "setoption name UCI_Variant value falcon-9x9\n"
        "position startpos\ngo depth 1\n",
        engine,
    )
    assert len(errors(lines)) == 1 and "falcon-9x9" in errors(lines)[0]
    assert engine.fens == [EIGHT]


# ---------------------------------------------------------------- the real engine
def test_the_real_engines_bestmove_is_legal_and_its_info_lines_are_well_formed(gui):
    session = gui(Engine)
    for go in (
        "go depth 1",
        "go movetime 20",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go nodes 200",
    ):
        session.send("position startpos moves e2e4", go)
        lines = session.read_until("bestmove")
        assert all(INFO_LINE.match(line) for line in lines[:-1]), lines
        legal_in(AFTER_E4, lines[-1].split()[1])


def test_the_real_engine_plays_the_8x8_variant(gui):
    session = gui(Engine)
    session.send(
        "setoption name UCI_Variant value falcon-8x8",
        "ucinewgame",
        "position startpos moves d2d4",
        "go depth 1",
    )
    move = session.read_until("bestmove")[-1].split()[1]
    pos = Position(None, get_variant("falcon-8x8"))
    pos.push(parse_uci(pos, "d2d4"))
    parse_uci(pos, move)


@pytest.mark.parametrize(
    ("variant", "moves", "en_passant"),
    [
        # Nine ranks: Black's pawns step twice from the eighth.
        ("falcon-9x10", "e2e4 a8a7 e4e5 a7a6 e5e6 d8d6", "e6d7"),
        # Central pawns from the third rank (g3-g5), the others from the second (a9-a8
        # is Black's single step), and en passant on Black's third rank.
        ("falcon-10x10-central", "g3g5 a9a8 g5g6 f8f6", "g6f7"),
    ],
)
def test_the_real_engine_plays_the_larger_presets(gui, variant, moves, en_passant):
    session = gui(Engine)
    session.send(
        f"setoption name UCI_Variant value {variant}",
        "ucinewgame",
        f"position startpos moves {moves}",
        "go depth 3",
    )
    lines = session.read_until("bestmove")
    assert all(INFO_LINE.match(line) for line in lines[:-1]), lines
    pos = Position(None, get_variant(variant))
    for move in moves.split():
        pos.push(parse_uci(pos, move))
    assert en_passant in [pos.uci(m) for m in pos.legal_moves()]
    parse_uci(pos, lines[-1].split()[1])


def test_the_real_engine_stops_an_infinite_search(gui):
    session = gui(Engine)
    session.send("position startpos", "go infinite", "isready")
    session.read_until("readyok")
    session.send("stop")
    legal_in(None, session.read_until("bestmove")[-1].split()[1])


# ---------------------------------------------------------------- end to end
def test_boardctl_uci_as_a_subprocess_with_pipes():
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardctl", "uci"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()

    def send(text: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def read_until(prefix: str) -> list[str]:
        got: list[str] = []
        while not got or not got[-1].startswith(prefix):
            line = lines.get(timeout=TIMEOUT)
            assert line is not None, f"boardctl uci ended before {prefix!r}: {got}"
            got.append(line)
        return got

    try:
        send("uci")
        assert read_until("uciok")[0] == f"id name boardctl {__version__}"
        send("isready")
        assert read_until("readyok") == ["readyok"]
        send("position startpos moves e2e4 e7e5")
        send("go depth 1")
        move = read_until("bestmove")[-1].split()[1]
        pos = Position()
        for text in ("e2e4", "e7e5", move):
            pos.push(parse_uci(pos, text))
        send("position fen rubbish")
        assert read_until("info string error")[-1].startswith("info string error: position:")
        send("go infinite")
        send("isready")
        assert "readyok" in read_until("readyok")
        send("stop")
        read_until("bestmove")
        send("quit")
        assert proc.wait(timeout=TIMEOUT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=TIMEOUT)
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        stderr = proc.stderr.read()
        proc.stderr.close()
    assert stderr == ""


# ---------------------------------------------------------------- numbers (issue 11)
# What str.isdigit() and int() take that is no number on the wire, and numbers
# too large for the engine: each is one error line, never "internal error".
WIRE_PROBES = [
    "²",
    "٣",
    "１０",
    "1_000",
    "+5",
    "1e3",
    "9" * 400,
    "9" * 5000,
    str(2**63),
    "-" + "9" * 30,
    "0x10",
    "inf",
    "nan",
]


@pytest.mark.parametrize(
    "name", ["depth", "nodes", "mate", "movestogo", "movetime", "wtime", "btime", "winc", "binc"]
)
@pytest.mark.parametrize("text", WIRE_PROBES)
def test_go_numbers_from_outside_are_one_clear_error(name, text):
    engine = FakeEngine()
    lines = talk(f"position startpos\ngo {name} {text}\n", engine)
    [error] = errors(lines)
    assert error.startswith(f"info string error: go: {name}: expected a whole number")
    assert "internal error" not in error and len(error) < 200
    assert bestmoves(lines) == [] and engine.searches == []


@pytest.mark.parametrize("text", WIRE_PROBES)
def test_skill_level_numbers_from_outside_are_one_clear_error(text):
    engine = FakeEngine()
    lines = talk(f"setoption name Skill Level value {text}\n", engine)
    [error] = errors(lines)
    assert "expected a whole number from 0 to 20" in error and len(error) < 200
    assert engine.skill == MAX_SKILL


@pytest.mark.parametrize("fen_tail", ["- ² 1", "- 0 ²", "- 0 " + "9" * 5000, "e² 0 1"])
def test_position_numbers_from_outside_are_one_clear_error(fen_tail):
    placement = START.split()[0]
    lines = talk(f"position fen {placement} w KQkq {fen_tail}\n")
    [error] = errors(lines)
    assert error.startswith("info string error: position: invalid FEN") and len(error) < 200


def test_a_clock_that_has_run_out_is_still_a_search():
    engine = FakeEngine()
    lines = talk("position startpos\ngo wtime -3000 btime 1000\n", engine)
    assert errors(lines) == [] and len(bestmoves(lines)) == 1
    assert engine.searches[0][1].wtime == 0.0


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["depth", "nodes", "mate", "movestogo", "movetime", "wtime", "winc"]),
    st.one_of(
        st.text(alphabet=st.characters(blacklist_categories=["Zs", "Cc"]), min_size=1, max_size=20),
        st.integers(-(10**30), 10**30).map(str),
    ),
)
def test_go_with_any_number_searches_or_is_one_error(name, text):
    assume(text.split() == [text])
    try:
        limits = parse_go([name, text])
    except UciError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        return
    value = getattr(limits, name)
    assert value is not None and 0 <= value < 10**19
