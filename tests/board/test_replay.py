"""``boardctl replay``: the log format, its errors, and the command line."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.board.replay import (
    MAX_LINE_BYTES,
    MAX_SECONDS,
    LogError,
    parse_log,
    read_log,
    replay,
    replay_events,
)
from boardctl.cli import main
from boardctl.progress import MIN_BYTES, Progress
from boardctl.rules import DEFAULT_VARIANT, Game, get_variant


def test_log_lines_with_comments_and_blank_lines():
    events = list(
        parse_log("# a game\n\n0 lift e2  # the pawn\n0.5 place e4\n1 choose f\n", DEFAULT_VARIANT)
    )
    assert [(e.time, e.verb) for e in events] == [(0.0, "lift"), (0.5, "place"), (1.0, "choose")]
    assert events[2].piece is not None and events[2].piece.symbol == "f"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("0 lift", "line 1"),
        ("0 lift e2 e4", "line 1"),
        ("soon lift e2", "not a time"),
        ("-1 lift e2", "not a time from 0"),
        ("nan lift e2", "not a time from 0"),
        ("1 lift e2\n0.5 place e4", "line 2: time 0.5 is earlier"),
        ("0 lift k2", "no square 'k2'"),
        ("0 lift e9", "no square 'e9'"),
        ("0 hover e2", "unknown event 'hover'"),
        ("0 choose k", "q, f, r, b or n"),
        ("\n\n0 choose queen", "line 3"),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(text, needle):
    with pytest.raises(LogError) as info:
        list(parse_log(text, DEFAULT_VARIANT))
    assert needle in str(info.value)


@pytest.mark.parametrize(
    ("variant", "text", "needle"),
    [
        ("falcon-hex", "0 choose q", "choose takes r, b, n or f, got 'q'"),
        ("falcon-8x8", "0 choose q", "choose takes f, r, b or n, got 'q'"),
        ("falcon-hex", "0 lift g1", "no cell 'g1' on the 121-cell hexagon"),
        ("falcon-hex", "0 lift j11", "no cell 'j11'"),
    ],
)
def test_squares_and_pieces_are_the_presets_own(variant, text, needle):
    # A queen on the hexagon would quietly become the default piece, and a
    # trimmed corner is no cell.
    with pytest.raises(LogError) as info:
        list(parse_log(text, get_variant(variant)))
    assert str(info.value).startswith(f"line 1: {needle}")


def test_a_preset_without_a_queen_takes_each_of_its_pieces():
    events = list(
        parse_log("0 choose r\n1 choose b\n2 choose n\n3 choose f\n", get_variant("falcon-hex"))
    )
    assert "".join(e.piece.symbol for e in events if e.piece) == "rbnf"


def test_an_empty_log_prints_the_game_and_the_position():
    assert replay("# nothing happened\n", Game()) == [
        "game",
        "fen rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
    ]


def test_replay_runs_on_after_the_last_event_so_moves_settle():
    # The last place is at 0.4 s; without running on, it would never settle.
    assert replay("0 lift e2\n0.4 place e4\n", Game())[0] == "move e2e4"


def test_cli_replay_with_fen_and_variant(tmp_path, capsys):
    log = tmp_path / "game.log"
    log.write_text("0 lift e1\n0.3 place e2\n")
    assert (
        main(
            [
                "replay",
                str(log),
                "--variant",
                "falcon-8x8",
                "--fen",
                "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out == ["move e1e2", "game e1e2", "fen 4k3/8/8/8/8/8/P3K3/8 b - - 1 1"]


def test_cli_replay_on_the_hexagon(tmp_path, capsys):
    log = tmp_path / "hex.log"
    log.write_text("0 lift e3\n0.6 place d7\n2 lift e13\n2.6 place c10\n")
    assert main(["replay", str(log), "--variant", "falcon-hex"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["move e3d7", "move e13c10", "game e3d7 e13c10"]
    assert out[3].startswith("fen prn1q/") and out[3].endswith(" w - - 2 2")


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        ("0 lift e2\n0.3 teleport e4\n", [], "line 2"),
        (None, [], "cannot read"),
        ("0 lift e2\n", ["--fen", "nonsense"], "FEN"),
        ("0 lift e2\n", ["--variant", "xiangqi"], "xiangqi"),
        ("0 lift a7\n", ["--variant", "falcon-hex"], "line 1: no cell 'a7'"),
        ("0 lift e3\n", ["--variant", "falcon-hex", "--fen", "5/8 w - - 0 1"], "FEN"),
    ],
)
def test_cli_replay_errors_are_one_line(tmp_path, content, args, needle):
    log = tmp_path / "game.log"
    if content is not None:
        log.write_text(content)
    result = subprocess.run(
        [sys.executable, "-m", "boardctl", "replay", str(log), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and needle in result.stderr


# ------------------------------------------------- numbers and squares (issue 11)
@pytest.mark.parametrize(
    "line",
    [
        "0 lift e²",
        "0 lift e٣",
        "0 lift e３",
        "0 lift e" + "2" * 5000,
        "0 lift e02",
        "² lift e2",
        "٣ lift e2",
        "1_0 lift e2",
        "1e3 lift e2",
        "inf lift e2",
        "1e400 lift e2",
        "9" * 5000 + " lift e2",
        "10000001 lift e2",
        "0x1 lift e2",
        "0 choose " + "q" * 5000,
        "0 " + "x" * 5000 + " e2",
    ],
)
def test_numbers_and_squares_from_outside_are_one_line(line):
    with pytest.raises(LogError) as info:
        list(parse_log(line, DEFAULT_VARIANT))
    message = str(info.value)
    assert message.startswith("line 1: ") and "\n" not in message and len(message) < 200


def test_the_latest_time_is_read():
    [event] = parse_log(f"{MAX_SECONDS:.3f} lift e2", DEFAULT_VARIANT)
    assert event.time == MAX_SECONDS


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=8),
        st.floats(allow_nan=True).map(str),
        st.integers(-(10**20), 10**20).map(str),
    ),
    st.sampled_from(["lift", "place", "choose"]),
    st.text(max_size=6),
)
def test_any_line_is_an_event_or_one_line_error(stamp, verb, what):
    line = f"{stamp} {verb} {what}"
    try:
        events = list(parse_log(line, DEFAULT_VARIANT))
    except LogError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        return
    for event in events:
        assert 0 <= event.time <= MAX_SECONDS


# ------------------------------------------------------ long logs (issue 11)
class CountingStream(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.most = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.most = max(self.most, self.tell())
        return line


def test_a_log_is_read_a_line_at_a_time():
    stream = CountingStream(b"0 lift e2\n0.4 place e4\n" + b"# filler\n" * 100_000)
    events = parse_log(read_log(stream), DEFAULT_VARIANT)
    assert next(events).verb == "lift"
    assert stream.most < 100


def test_replayed_lines_come_out_before_the_log_ends():
    def events():
        yield from parse_log("0 lift e2\n0.4 place e4\n2 lift e7\n", DEFAULT_VARIANT)
        raise RuntimeError("the rest of a long log")

    lines = replay_events(events(), Game())
    assert next(lines) == "move e2e4"
    with pytest.raises(RuntimeError):
        next(lines)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"0 lift e2\n" + b"#" * (MAX_LINE_BYTES + 1) + b"\n", "line 2: longer than"),
        (b"0 lift e2\n" + b"#" * (10 * MAX_LINE_BYTES), "line 2: longer than"),
        (b"0 lift e2\n0.4 place e4 \xff\n", "line 2: not UTF-8"),
    ],
)
def test_a_line_that_is_no_log_line_is_one_line(data, needle):
    with pytest.raises(LogError, match=needle):
        list(read_log(io.BytesIO(data)))


def test_a_long_log_replays_with_nothing_on_stderr_but_errors(tmp_path):
    log = tmp_path / "long.log"
    with log.open("w") as out:
        out.write("0 lift e2\n0.4 place e4\n")
        out.write("# a reading that changes nothing\n" * (MIN_BYTES // 30))
    result = subprocess.run(
        [sys.executable, "-m", "boardctl", "replay", str(log)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0] == "move e2e4"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_shown_on_a_terminal_and_cleared():
    screen = Terminal()
    with Progress("boardctl replay", 4 * MIN_BYTES, screen) as progress:
        for done in range(0, 4 * MIN_BYTES + 1, MIN_BYTES // 10):
            progress.update(done)
    shown = screen.getvalue().split("\r")
    assert shown[1] == "boardctl replay: 0% of 4.0 MB"
    assert "boardctl replay: 50% of 4.0 MB" in shown
    assert shown[-2] == "boardctl replay: 100% of 4.0 MB" and shown[-1] == "\x1b[K"


def test_no_progress_for_a_short_input_or_off_a_terminal():
    for stream, total in ((Terminal(), MIN_BYTES - 1), (io.StringIO(), 10 * MIN_BYTES)):
        with Progress("boardctl replay", total, stream) as progress:
            progress.update(total)
        assert stream.getvalue() == ""
