"""``boardctl diag`` against the simulated board: sessions with a scripted user
in virtual time, with and without wiring faults."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace

import pytest

from boardctl.config import load_config
from boardctl.diag import (
    CHECK_SQUARES,
    STEPS,
    DiagError,
    Diagnostics,
    DiagReport,
    LedCheck,
    LineFault,
    LineKind,
    Phase,
    ReopeningSource,
    ScriptedUser,
    StuckSquare,
    chain_layouts,
    led_order_advice,
    parse_square,
    parse_steps,
    render_board,
    run_scripted,
    run_terminal,
    seen_square,
)
from boardctl.diag.command import diag_command
from boardctl.hw.base import Colour, Reading
from boardctl.hw.errors import HardwareError
from boardctl.hw.pins import LedLayout, default_pinout
from boardctl.hw.sim import DiodeMatrix, SimBoard, SimLeds

from ..hw.helpers import START, sq

LAYOUT = default_pinout().leds  # serpentine along the ranks from a1
START_SQUARES = [s for s in range(80) if START >> s & 1]


class FaultyMatrix:
    """The switch matrix as the scanner sees it through wiring faults.

    ``open_squares`` never close (a reversed diode, a dead reed switch),
    ``dead_ranks`` have a broken row wire, ``live_files`` a column shorted
    high, ``joined_ranks`` all their columns shorted together.
    """

    def __init__(
        self,
        inner: DiodeMatrix,
        *,
        open_squares: Iterable[str] = (),
        dead_ranks: Iterable[int] = (),
        live_files: Iterable[str] = (),
        joined_ranks: Iterable[int] = (),
    ) -> None:
        self.inner = inner
        self.open = sum(1 << sq(name) for name in open_squares)
        self.dead_rows = {rank - 1 for rank in dead_ranks}
        self.live_columns = sum(1 << "abcdefghij".index(f) for f in live_files)
        self.joined_rows = {rank - 1 for rank in joined_ranks}

    def pulled_columns(self, selected_rows: Iterable[int]) -> int:
        rows = set(selected_rows)
        pulled = 0
        for row in rows - self.dead_rows:
            switches = (self.inner.closed & ~self.open) >> (row * 10) & 0x3FF
            if row in self.joined_rows and switches:
                switches = 0x3FF
            pulled |= switches
        return pulled | (self.live_columns if rows else 0)


def faulty_board(**faults: Iterable[int] | Iterable[str]) -> SimBoard:
    board = SimBoard(START_SQUARES)
    board.lines.matrix = FaultyMatrix(board.matrix, **faults)  # type: ignore[arg-type,assignment]
    return board


def session(
    board: SimBoard | None = None,
    *,
    actual: LedLayout | None = None,
    steps: Iterable[Phase] = STEPS,
    on_tick: Callable[[Diagnostics, float], None] | None = None,
) -> DiagReport:
    """A whole session at the simulated board, the LEDs really wired as ``actual``."""
    board = board or SimBoard(START_SQUARES)
    leds = SimLeds(LAYOUT)
    diag = Diagnostics(board, leds, layout=LAYOUT, steps=tuple(steps))
    hook = None if on_tick is None else (lambda now: on_tick(diag, now))
    report = run_scripted(diag, ScriptedUser(board, leds, actual=actual), on_tick=hook, limit=600.0)
    assert diag.phase is Phase.DONE
    assert leds.last == {}, "the LEDs go dark at the end"
    return report


# ---------------------------------------------------------------- a healthy board


def test_a_healthy_board_has_no_faults_and_every_led_check_matches() -> None:
    report = session()
    assert report.ok, report.summary()
    assert report.swept == 80
    assert report.stuck == () and report.line_faults == ()
    assert [c.square for c in report.led_checks] == list(CHECK_SQUARES)
    assert all(c.matched for c in report.led_checks)
    assert report.led_advice == ()
    assert report.outages == ()
    assert "result: no faults found" in report.summary()


def test_the_walk_lights_every_square_once_in_order() -> None:
    board = SimBoard(START_SQUARES)
    leds = SimLeds(LAYOUT, keep=200)
    diag = Diagnostics(board, leds, steps=(Phase.WALK,), walk_dwell=0.1)
    run_scripted(diag, ScriptedUser(board, leds))
    lit = [next(iter(frame)) for frame in leds.frames if frame]
    assert lit == list(range(80))
    assert len({frame[s] for frame in leds.frames if frame for s in frame}) == 8  # a colour a rank


def test_the_live_board_is_drawn_rank_8_first_with_the_lit_square_bracketed() -> None:
    text = render_board(START, lit=sq("e4"))
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].split() == ["8", *"#" * 10]
    assert lines[5] == "  4  .  .  .  . [.] .  .  .  .  ."
    assert lines[8].split() == ["1", *"#" * 10]
    assert "?" in render_board(None)


# ---------------------------------------------------------------- sensor faults


@pytest.mark.parametrize(
    ("faults", "stuck"),
    [
        ({"open_squares": ["e4"]}, [StuckSquare(sq("e4"), occupied=False)]),
        (
            {"open_squares": ["e4", "h7"]},
            [StuckSquare(sq("e4"), occupied=False), StuckSquare(sq("h7"), occupied=False)],
        ),
    ],
)
def test_a_switch_that_never_closes_is_a_stuck_square(faults, stuck) -> None:
    report = session(faulty_board(**faults), steps=(Phase.SWEEP,))
    assert list(report.stuck) == stuck
    assert report.line_faults == ()
    assert not report.ok
    assert f"stuck squares: {stuck[0]}" in report.summary()


def test_a_stuck_square_under_an_led_check_is_skipped_not_mismatched() -> None:
    report = session(faulty_board(open_squares=["j1"]), steps=(Phase.SWEEP, Phase.ORDER))
    assert report.stuck == (StuckSquare(sq("j1"), occupied=False),)
    assert report.skipped == (LedCheck(sq("j1"), ()),)
    assert report.mismatches == ()
    assert report.led_advice == ()


@pytest.mark.parametrize(
    ("faults", "fault", "words"),
    [
        (
            {"dead_ranks": [3]},
            LineFault(False, 2, LineKind.NEVER_OCCUPIED),
            "rank 3 never reads occupied: the row wire of rank 3 is open",
        ),
        (
            {"dead_ranks": [1]},
            LineFault(False, 0, LineKind.NEVER_OCCUPIED),
            "rank 1 never reads occupied",
        ),
        (
            {"live_files": ["c"]},
            LineFault(True, 2, LineKind.ALWAYS_OCCUPIED),
            "file c always reads occupied: the column line of file c is shorted",
        ),
        (
            {"joined_ranks": [5]},
            LineFault(False, 4, LineKind.TOGETHER),
            "rank 5 only ever changes as one",
        ),
    ],
)
def test_a_row_or_column_fault_is_a_rank_or_file_fault(faults, fault, words) -> None:
    report = session(faulty_board(**faults), steps=(Phase.SWEEP,))
    assert report.line_faults == (fault,)
    assert report.stuck == (), "the line fault explains its squares"
    assert words in report.summary()


def test_a_sweep_where_nothing_moves_says_so_instead_of_listing_80_squares() -> None:
    board = SimBoard(START_SQUARES)
    diag = Diagnostics(board, None, steps=(Phase.SWEEP,))
    for i in range(10):
        diag.tick(i * 0.01)
    report = diag.finish(0.1)
    assert report.swept == 0 and report.stuck == () and report.line_faults == ()
    assert not report.ok
    assert "no square changed" in report.summary()


# ---------------------------------------------------------------- LED order


@pytest.mark.parametrize(
    ("wired", "pattern", "setting"),
    [
        ({"first": "j1"}, "mirrored across the files", 'set first = "j1"'),
        ({"first": "a8"}, "mirrored across the ranks", 'set first = "a8"'),
        ({"order": "rows"}, "reversed on every other rank (2, 4, 6, 8)", 'set order = "rows"'),
        ({"along": "files"}, None, 'set along = "files"'),
    ],
)
def test_a_miswired_led_chain_names_the_setting_to_change(wired, pattern, setting) -> None:
    report = session(actual=replace(LAYOUT, **wired), steps=(Phase.ORDER,))
    assert report.mismatches, report.summary()
    assert report.skipped == ()
    for check in report.led_checks:
        assert check.observed == (seen_square(LAYOUT, replace(LAYOUT, **wired), check.square),)
    advice = " ".join(report.led_advice)
    assert setting in advice
    if pattern:
        assert pattern in advice
    for check in report.mismatches:
        assert f"mismatch: {check}" in report.summary()


def test_a_files_mirror_mentions_the_sensor_columns_too() -> None:
    report = session(actual=replace(LAYOUT, first="j1"), steps=(Phase.ORDER,))
    assert report.mismatches[0] == LedCheck(sq("a1"), (sq("j1"),))
    assert any("sensor rows or columns are reversed" in a for a in report.led_advice)


@pytest.mark.parametrize("configured", chain_layouts(LAYOUT))
def test_the_check_squares_tell_every_chain_order_apart(configured) -> None:
    for actual in chain_layouts(configured)[1:]:
        checks = [LedCheck(s, (seen_square(configured, actual, s),)) for s in CHECK_SQUARES]
        advice = [a for a in led_order_advice(configured, checks) if "behave as if" in a]
        assert len(advice) == 1, (actual, advice)
        for key in ("order", "along", "first"):
            if getattr(actual, key) != getattr(configured, key):
                assert f'{key} = "{getattr(actual, key)}"' in advice[0]


def test_squares_no_chain_order_explains_point_at_the_sensor_wiring() -> None:
    checks = [LedCheck(sq("a1"), (sq("e4"),)), LedCheck(sq("b1"), (sq("a1"),))]
    assert any("sensor wiring" in a for a in led_order_advice(LAYOUT, checks))


def test_the_corner_grid_matches_when_wired_as_configured() -> None:
    corners = replace(LAYOUT, count=99)
    board = SimBoard(START_SQUARES)
    leds = SimLeds(corners)
    diag = Diagnostics(board, leds, layout=corners, steps=(Phase.ORDER,))
    report = run_scripted(diag, ScriptedUser(board, leds), limit=60.0)
    assert report.ok, report.summary()


# ---------------------------------------------------------------- disconnects and failures


@pytest.mark.parametrize("phase", [Phase.WALK, Phase.SWEEP, Phase.ORDER])
def test_a_disconnect_mid_run_is_reported_and_the_session_goes_on(phase) -> None:
    events: list[str] = []

    def unplug(diag: Diagnostics, now: float) -> None:
        board = diag.sensors
        assert isinstance(board, SimBoard)
        if diag.phase is phase and not events:
            board.disconnect("sensor cable unplugged")
            events.append(f"out {now}")
        elif len(events) == 1 and now >= float(events[0].split()[1]) + 0.5:
            assert diag.status_line() == "board not connected (sensor cable unplugged)"
            board.reconnect()
            events.append(f"back {now}")

    report = session(on_tick=unplug)
    assert len(events) == 2
    assert len(report.outages) == 1
    outage = report.outages[0]
    assert outage.reason == "sensor cable unplugged"
    assert outage.end is not None and outage.end - outage.start == pytest.approx(0.5, abs=0.02)
    assert report.stuck == () and report.line_faults == ()
    assert all(c.matched for c in report.led_checks)
    assert not report.ok
    assert "board not connected 1 time(s)" in report.summary()


class NeverThere:
    """A sensor source whose board never answers."""

    healthy = False
    last_error = "no such device /dev/ttyACM0"

    def read(self, now: float) -> Reading | None:
        return None

    def close(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.001)


class Keys:
    """Enter presses at chosen calls, then the end of input."""

    def __init__(self, enters: Iterable[int], end: int) -> None:
        self.calls = 0
        self.enters = set(enters)
        self.end = end

    def take(self) -> list[bool]:
        self.calls += 1
        if self.calls >= self.end:
            return [False]
        return [True] if self.calls in self.enters else []


def test_a_board_that_never_connects_shows_it_and_ends_with_a_summary() -> None:
    clock, out = Clock(), io.StringIO()
    diag = Diagnostics(NeverThere(), SimLeds(LAYOUT), layout=LAYOUT)
    report = run_terminal(
        diag, Keys(enters=[5, 6], end=50), clock=clock, sleep=clock.sleep, out=out
    )
    assert "board not connected (no such device /dev/ttyACM0)" in out.getvalue()
    assert report.outages[0].end is None
    assert "until the end: no such device /dev/ttyACM0" in report.summary()


def test_a_driver_that_cannot_open_is_retried_with_backoff() -> None:
    attempts: list[float] = []
    board = SimBoard(START_SQUARES)

    def open_board() -> SimBoard:
        attempts.append(clock.now)
        if len(attempts) < 3:
            raise HardwareError("cannot open GPIO chip")
        return board

    clock = Clock()
    source = ReopeningSource(open_board, retry=1.0)
    diag = Diagnostics(source, None, steps=(Phase.LIVE,))
    report = run_terminal(
        diag, Keys(enters=[], end=600), clock=clock, sleep=clock.sleep, out=io.StringIO()
    )
    assert [round(t - attempts[0], 1) for t in attempts] == [0.0, 1.0, 3.0]
    assert report.outages[0].reason == "cannot open GPIO chip"
    assert diag.connected


class BrokenSpi:
    def show(self, colours: dict[int, Colour]) -> None:
        raise HardwareError("SPI write failed: broken pipe")

    def close(self) -> None:
        pass


def test_failing_leds_are_reported_not_fatal() -> None:
    board = SimBoard(START_SQUARES)
    diag = Diagnostics(board, BrokenSpi(), steps=(Phase.WALK,), walk_dwell=0.01)
    report = run_scripted(diag, ScriptedUser(board))
    assert report.led_errors and "SPI write failed" in report.led_errors[0]
    assert "LEDs: SPI write failed" in report.summary()


def test_a_sensor_read_that_raises_is_an_outage() -> None:
    class Raising(NeverThere):
        def read(self, now: float) -> Reading | None:
            raise OSError("I/O error")

    diag = Diagnostics(Raising(), None, steps=(Phase.LIVE,))
    diag.tick(0.0)
    assert diag.status_line() == "board not connected (I/O error)"
    assert diag.finish(1.0).outages[0].reason == "I/O error"


def test_without_leds_the_led_steps_are_skipped_with_a_note() -> None:
    board = SimBoard(START_SQUARES)
    diag = Diagnostics(board, None)
    report = run_scripted(diag, ScriptedUser(board))
    assert report.led_checks == ()
    assert report.swept == 80
    assert any("no LEDs" in note for note in report.notes)


# ---------------------------------------------------------------- steps and the command line


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("walk", (Phase.WALK,)),
        ("order,walk", (Phase.WALK, Phase.ORDER)),
        ("sweep, live", (Phase.LIVE, Phase.SWEEP)),
        ("walk,live,sweep,order", STEPS),
    ],
)
def test_steps_run_in_their_own_order(text, steps) -> None:
    assert parse_steps(text) == steps


@pytest.mark.parametrize("text", ["", "dance", "walk,dance"])
def test_unknown_steps_are_refused(text) -> None:
    with pytest.raises(DiagError, match="--steps"):
        parse_steps(text)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardctl", "diag", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_diag_sim_runs_end_to_end_and_prints_a_summary() -> None:
    result = run_cli("--sim")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "boardctl diag: summary" in result.stdout
    assert "LED order: 7 of 7 checked squares matched" in result.stdout
    assert "result: no faults found" in result.stdout
    assert result.stderr == ""


def test_diag_sim_runs_only_the_steps_asked_for() -> None:
    result = run_cli("--sim", "--steps", "walk")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "steps: walk\n" in result.stdout
    assert "sweep: not run" in result.stdout


def test_diag_with_bad_steps_is_one_line_on_stderr() -> None:
    result = run_cli("--sim", "--steps", "dance")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "unknown step 'dance'" in result.stderr


def test_diag_runs_against_the_sim_when_the_config_says_sim(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[board]\nsensors = "sim"\n')
    result = run_cli("--config", str(config), "--steps", "sweep")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "sweep: 80 of 80" in result.stdout


def test_every_pair_of_chain_orders_is_covered() -> None:
    # 16 orders: 2 directions × 2 line axes × 4 corners, all distinct as maps.
    layouts = chain_layouts(LAYOUT)
    assert len(layouts) == 16
    maps = {tuple(seen_square(LAYOUT, a, s) for s in range(80)) for a in layouts}
    assert len(maps) == 16


def test_the_board_grid_explains_its_marks_and_the_prompts_name_the_lights():
    text = render_board(START, lit=sq("e4"))
    legend = text.splitlines()[-1]
    for mark in ("#", ".", "[ ]", "?"):
        assert mark in legend
    from boardctl.board import lights
    from boardctl.diag import core

    assert lights.BLUE.rgb == core.DONE_COLOUR
    assert lights.WHITE.rgb == core.CHECK_COLOUR


@pytest.mark.parametrize("name", ["e²", "e٣", "e３", "e" + "4" * 5000, "e04", "k1", "e9"])
def test_a_square_name_from_outside_is_one_line(name):
    with pytest.raises(DiagError) as caught:
        parse_square(name)
    assert "no square" in str(caught.value) and len(str(caught.value)) < 100


def test_diag_without_a_configuration_or_sim_says_there_is_no_board(tmp_path, monkeypatch) -> None:
    # It used to check the defaults' simulated board and report "no faults
    # found", exit 0: a false clean bill on a Pi whose configuration is missing.
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "absent.toml")
    out = io.StringIO()
    with pytest.raises(DiagError, match=r"no board to test.*--config.*--sim"):
        diag_command(load_config(None), out=out)
    assert out.getvalue() == ""
    assert diag_command(load_config(None), sim=True, steps="walk", out=out) == 0


def test_diag_cli_without_a_configuration_is_one_line_and_status_2(tmp_path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, boardctl.config as c, pathlib; "
            f"c.DEFAULT_PATH = pathlib.Path({str(tmp_path / 'absent.toml')!r}); "
            "from boardctl.cli import main; sys.exit(main(['diag']))",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no board to test" in result.stderr


class Connecting:
    """A board that answers after ``reads`` readings, with no error meanwhile
    (a serial board waiting for its first line), or with ``error``."""

    def __init__(self, reads: int, error: str | None = None) -> None:
        self.reads, self.last_error, self.board = reads, error, SimBoard(START_SQUARES)

    @property
    def healthy(self) -> bool:
        return self.reads <= 0

    def read(self, now: float) -> Reading | None:
        self.reads -= 1
        return self.board.read(now) if self.reads <= 0 else None

    def close(self) -> None:
        pass


def test_connecting_at_the_start_is_a_note_and_a_failure_to_open_is_an_outage() -> None:
    # Every serial session used to report "board not connected 1 time(s)".
    clock = Clock()
    quiet = Diagnostics(Connecting(20), None, steps=(Phase.LIVE,))
    report = run_terminal(
        quiet, Keys([], end=60), clock=clock, sleep=clock.sleep, out=io.StringIO()
    )
    assert report.outages == () and report.ok, report.summary()
    assert any(note.startswith("the board answered") for note in report.notes)
    failing = Diagnostics(Connecting(20, "cannot open /dev/ttyACM0"), None, steps=(Phase.LIVE,))
    report = run_terminal(
        failing, Keys([], end=60), clock=clock, sleep=clock.sleep, out=io.StringIO()
    )
    assert [o.reason for o in report.outages] == ["cannot open /dev/ttyACM0"] and not report.ok
