"""The headless simulator never hangs (issue 11): not on a script whose lines
are hours apart, not on an engine that thinks for ever."""

from __future__ import annotations

import pytest

from boardctl.board.replay import RUN_ON
from boardctl.cli import main
from boardctl.config import HEADLESS_SEED, parse_config
from boardctl.daemon import wiring
from boardctl.daemon.headless import HeadlessError, run_script
from boardctl.engine import Limits
from boardctl.engine.interface import BestMove, Message
from boardctl.engine.levels import PI_NODES_PER_SECOND
from boardctl.engine.worker import EngineWorker
from boardctl.rules import BLACK

from ..daemon_fakes import MemoryStore, ScriptedOpponent

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
ENGINE_BLACK = parse_config({"game": {"mode": "engine", "human": "white"}})


def _lines(config, script, **kwargs):
    lines: list[str] = []
    run_script(config, script, MemoryStore(), emit=lines.append, **kwargs)
    return lines


@pytest.mark.parametrize("gap", [2.0, 5_000.0, 9_000_000.0])
def test_lines_far_apart_play_as_lines_close_together(gap):
    # At 100 scans a second, 9,000,000 s would be 900 million steps.
    script = f"0 lift e2\n0.4 place e4\n{gap} lift e7\n{gap + 0.4} place e5\n"
    assert _lines(TWO_PLAYERS, script)[:3] == ["move e2e4", "move e7e5", "game e2e4 e7e5"]


def test_a_clock_runs_out_in_a_long_wait_as_in_a_short_one():
    clock = parse_config({"game": {"mode": "two-players", "clock": "1+0"}})
    results = []
    for wait in (61.0, 86_400.0):
        store = MemoryStore()
        daemon = run_script(
            clock, f"0 lift e2\n0.4 place e4\n{wait} lift e7\n", store, emit=lambda line: None
        )
        results.append((daemon.flagged, store.games[1]["result"]))
    assert results[0] == results[1] == (BLACK, ("1-0", "time forfeit"))


class ThinksUntilStopped(ScriptedOpponent):
    """An engine on an endless search: its move comes only after ``stop()``."""

    def __init__(self, moves: list[str], answers_stop: bool = True) -> None:
        super().__init__(moves)
        self.answers_stop = answers_stop
        self.pending: list[Message] = []

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        request = super().go(fen, moves, limits, variant)
        self.pending, self.outbox = self.outbox, []
        return request

    def stop(self) -> None:
        super().stop()
        if self.answers_stop:
            self.outbox, self.pending = self.outbox + self.pending, []


def test_an_engine_that_thinks_too_long_is_stopped_and_its_move_taken(monkeypatch):
    monkeypatch.setattr("boardctl.daemon.headless.ENGINE_WAIT", 0.1)
    engine = ThinksUntilStopped(["e7e5"])
    lines = _lines(
        ENGINE_BLACK, "0 lift e2\n0.4 place e4\n3 lift e7\n3.4 place e5\n", opponent=engine
    )
    assert lines[:3] == ["move e2e4", "engine e7e5", "move e7e5"]
    assert engine.stops >= 1


def test_an_engine_that_never_answers_ends_the_run_in_one_line(monkeypatch):
    monkeypatch.setattr("boardctl.daemon.headless.ENGINE_WAIT", 0.1)
    monkeypatch.setattr("boardctl.daemon.headless.STOP_WAIT", 0.1)
    with pytest.raises(HeadlessError) as caught:
        _lines(
            ENGINE_BLACK,
            "0 lift e2\n0.4 place e4\n",
            opponent=ThinksUntilStopped(["e7e5"], answers_stop=False),
        )
    assert "did not answer" in str(caught.value) and "\n" not in str(caught.value)


def test_the_fakes_premise_an_answer_waits_for_stop():
    engine = ThinksUntilStopped(["e7e5"])
    engine.go("", [], Limits(infinite=True))
    assert engine.poll() == []
    engine.stop()
    assert engine.poll() == [BestMove(1, "e7e5")]


def test_a_hex_game_lights_the_hex_boards_led_chain():
    # The headless run drove no LEDs on the hexagon: the LED scene of a hex
    # game went through no driver at all.
    config = parse_config({"game": {"mode": "two-players", "variant": "falcon-hex"}})
    daemon = run_script(config, "0 lift e3\n", MemoryStore(), emit=lambda _: None)
    leds = daemon.hw.leds
    assert leds is not None and len(leds.pixels) == 121
    geo = daemon.game.position.geometry
    # The falcon still in the hand: its cell and its four destinations lit.
    assert {"e3", "b8", "c8", "d7", "i2"} <= {geo.name(cell) for cell in leds.last}
    assert sum(1 for pixel in leds.pixels if pixel != (0, 0, 0)) >= 5


def test_a_delay_clock_gives_each_move_its_seconds_before_it_charges_and_tells_the_engine():
    def black_clock(clock: str, wait: float) -> tuple[float, int | None]:
        config = parse_config({"game": {"mode": "two-players", "clock": clock}})
        script = f"0 lift e2\n0.4 place e4\n{wait} lift e7\n"
        daemon = run_script(config, script, MemoryStore(), emit=lambda line: None)
        assert daemon.top.clocks.clock is not None
        return daemon.top.clocks.clock.remaining[1], daemon.flagged

    # The run goes on RUN_ON seconds after the script's last line.
    fischer, delay = black_clock("1+0", 1.0), black_clock("1d5", 1.0)
    assert delay[0] - fischer[0] == pytest.approx(5.0)  # Black's move began with 5 s free
    late = 32.0 - RUN_ON  # Black thinks some 31.5 s of its 30
    assert black_clock("0.5+0", late)[1] == BLACK
    assert black_clock("0.5d5", late)[1] is None

    class Asked(ScriptedOpponent):
        def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
            self.limits = limits
            return super().go(fen, moves, limits, variant)

    engine = Asked(["e7e5"])
    engine_plays = parse_config({"game": {"mode": "engine", "human": "white", "clock": "1d5"}})
    script = "0 lift e2\n0.4 place e4\n"
    run_script(engine_plays, script, MemoryStore(), emit=lambda line: None, opponent=engine)
    assert engine.limits.binc == 5.0 and engine.limits.btime == 60.0  # a delay's seconds are free


# ---------------------------------------------------------------- a seed
SEEDED = {"game": {"mode": "engine", "human": "white"}, "engine": {"movetime": 0.05}}


def _engine_lines(seed: int) -> list[str]:
    """The engine's replies in a headless game through the real engine process."""
    config = parse_config({**SEEDED, "engine": {**SEEDED["engine"], "seed": seed}})
    opponent = wiring.make_opponent(config)
    assert opponent is not None
    try:
        lines = _lines(config, "0 lift e2\n0.4 place e4\n", opponent=opponent)
    finally:
        opponent.close()
    return [line for line in lines if line.startswith("engine ")]


def test_a_seeded_script_gets_the_same_replies_every_run():
    first = _engine_lines(17)
    assert len(first) == 1 and first == _engine_lines(17)


def test_the_board_varies_its_play_by_default_and_a_seed_makes_it_repeat():
    def worker(**engine: object) -> EngineWorker:
        opponent = wiring.make_opponent(parse_config({**SEEDED, "engine": engine}))
        assert isinstance(opponent, EngineWorker)
        return opponent

    default = worker()
    assert (default._seed, default._nodes_per_second, default.vary) == (None, None, True)
    seeded = worker(seed=5)
    assert (seeded._seed, seeded._nodes_per_second) == (5, PI_NODES_PER_SECOND)


@pytest.mark.parametrize(
    ("args", "seed"), [((), HEADLESS_SEED), (("--seed", "9"), 9), (("--seed", "0"), 0)]
)
def test_sim_takes_the_seed_from_the_command_line_and_a_script_repeats_by_default(
    tmp_path, monkeypatch, args, seed
):
    seen: list[int] = []

    def no_engine(config, vary=True):
        seen.append(config.engine.seed)

    monkeypatch.setattr(wiring, "make_opponent", no_engine)
    script = tmp_path / "e4.log"
    script.write_text("0 lift e2\n0.4 place e4\n")
    sim = ["sim", "--headless", "--script", str(script), "--mode", "two-players", *args]
    assert main(sim) == 0
    assert seen == [seed]
