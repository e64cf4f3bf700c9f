"""The daemon loop, end to end on simulated hardware (headless, virtual time)."""

from __future__ import annotations

import time

import pytest

from boardctl.board import Role
from boardctl.board.explain import occupancy as occupancy_of
from boardctl.board.lights import LIGHTS
from boardctl.config import parse_config
from boardctl.daemon.headless import run_script
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.daemon.session import ENGINE_RETRIES
from boardctl.rules import Game

from ..daemon_fakes import FlakyOpponent, MemoryStore, ScriptedOpponent

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
ENGINE_BLACK = parse_config({"game": {"mode": "engine", "human": "white"}})
ENGINE_WHITE = parse_config({"game": {"mode": "engine", "human": "black"}})


def test_two_players_moves_are_stored_in_order():
    store = MemoryStore()
    lines: list[str] = []
    run_script(
        TWO_PLAYERS, "0 lift e2\n0.4 place e4\n2 lift e7\n2.4 place e5\n", store, emit=lines.append
    )
    assert lines[:2] == ["move e2e4", "move e7e5"]
    assert lines[-2] == "game e2e4 e7e5"
    assert store.moves(1) == ["e2e4", "e7e5"]


def engine_replies_e5(opponent, at):  # type: ignore[no-untyped-def]
    """White plays e2-e4 by hand and the engine's e7-e5 is carried out at
    ``at`` seconds: each move is shown, played and stored in turn."""
    store = MemoryStore()
    lines: list[str] = []
    daemon = run_script(
        ENGINE_BLACK,
        f"0 lift e2\n0.4 place e4\n{at} lift e7\n{at + 0.4} place e5\n",
        store,
        opponent=opponent,
        emit=lines.append,
    )
    assert lines[:3] == ["move e2e4", "engine e7e5", "move e7e5"]
    assert store.moves(1) == ["e2e4", "e7e5"]
    return daemon


def test_against_the_engine_its_move_is_shown_then_played_on_the_board():
    opponent = ScriptedOpponent(["e7e5"])
    daemon = engine_replies_e5(opponent, at=3)
    assert opponent.asked == [["e2e4"]]
    assert daemon.engine.text == "ready"


def test_the_larger_presets_play_headless():
    # 10 × 10 with the central pawns advanced: d3-d5 from the third rank, and
    # the engine's c9-c7 from the ninth, beyond the physical board's 80 squares.
    config = parse_config(
        {"game": {"mode": "engine", "human": "white", "variant": "falcon-10x10-central"}}
    )
    lines: list[str] = []
    daemon = run_script(
        config,
        "0 lift d3\n0.4 place d5\n3 lift c9\n3.4 place c7\n",
        MemoryStore(),
        opponent=ScriptedOpponent(["c9c7"]),
        emit=lines.append,
    )
    assert lines[:3] == ["move d3d5", "engine c9c7", "move c9c7"]
    assert lines[-1] == (
        "fen rnbfqkfbnr/pp5ppp/3pppp3/2p7/10/3P6/10/4PPP3/PPP4PPP/RNBFQKFBNR w KQkq c8 0 2"
    )
    # 9 × 10: Black's pawns start on the eighth rank.
    config = parse_config({"game": {"mode": "two-players", "variant": "falcon-9x10"}})
    lines = []
    run_script(
        config,
        "0 lift e2\n0.4 place e4\n2 lift e8\n2.4 place e6\n",
        MemoryStore(),
        emit=lines.append,
    )
    assert lines[:2] == ["move e2e4", "move e8e6"]
    assert daemon.hw.leds is None


def test_a_log_that_does_not_fit_the_board_changes_nothing_as_in_replay():
    # Lifting from the empty e3 and putting down on the full e2 are no
    # sensor changes; the run goes on (it used to end in a traceback).
    lines: list[str] = []
    run_script(
        TWO_PLAYERS,
        "0 lift e3\n0.2 place e2\n0.4 lift e2\n0.8 place e4\n",
        MemoryStore(),
        emit=lines.append,
    )
    assert lines[0] == "move e2e4"


def test_engine_playing_white_moves_first():
    store = MemoryStore()
    lines: list[str] = []
    run_script(
        ENGINE_WHITE,
        "1 lift d2\n1.3 place d4\n",
        store,
        opponent=ScriptedOpponent(["d2d4"]),
        emit=lines.append,
    )
    assert lines[:2] == ["engine d2d4", "move d2d4"]


def test_takeback_is_removed_from_the_store():
    store = MemoryStore()
    run_script(
        TWO_PLAYERS,
        "0 lift e2\n0.4 place e4\n2 lift e4\n2.4 place e2\n",
        store,
        emit=lambda line: None,
    )
    assert store.moves(1) == []
    assert ("remove_last_move", 1) in store.calls


def test_amendment_rewrites_the_stored_move():
    store = MemoryStore()
    log = "0 lift a1\n0.2 place a3\n1.5 lift a3\n1.7 place a6\n"
    config = parse_config({"game": {"mode": "two-players", "variant": "falcon"}})
    lines: list[str] = []
    resume = (1, Game(fen="9k/10/10/10/10/10/10/R8K w - - 0 1"))
    store.new_game("falcon", resume[1].start_fen, "a", "b", "x", 0)
    run_script(config, log, store, resume=resume, emit=lines.append)
    assert lines[:2] == ["move a1a3", "amend a1a3 a1a6"]
    assert store.moves(1) == ["a1a6"]


def test_leds_show_the_engine_move_until_it_is_played():
    store = MemoryStore()
    frames: list[dict[int, tuple[int, int, int]]] = []
    daemon = run_script(
        ENGINE_BLACK,
        "0 lift e2\n0.4 place e4\n",
        store,
        opponent=ScriptedOpponent(["e7e5"]),
        emit=lambda line: None,
    )
    frames.append(daemon.led_colours(0.0))
    pos = daemon.game.position
    lit = {pos.geometry.name(sq) for sq in frames[-1]}
    assert {"e7", "e6", "e5"} <= lit
    assert daemon.hw.leds is not None


def test_moves_are_stored_before_the_display_shows_them():
    store = MemoryStore()
    seen: list[tuple[int, int]] = []

    class Display:
        def show(self, status):
            seen.append((len(status.moves), len(store.moves(1))))

    from boardctl.daemon.loop import Daemon
    from boardctl.hw.sim import SimBoard

    game = Game()
    board = SimBoard(
        game.position.geometry.squares(game.position.colors[0] | game.position.colors[1])
    )
    daemon = Daemon(TWO_PLAYERS, Hardware(board, display=Display()), store)
    now = 0.0
    for when, verb, square in ((0.0, "lift", "e2"), (0.3, "place", "e4")):
        while now < when:
            daemon.step(now)
            now += 0.01
        getattr(board, verb)(game.position.geometry.parse_square(square))
    while now < 2:
        daemon.step(now)
        now += 0.01
    assert seen[-1] == (1, 1)
    assert all(shown <= stored for shown, stored in seen)


def _stepped(daemon, seconds: float, start: float = 0.0) -> float:
    now = start
    while now < start + seconds:
        daemon.step(now)
        now += 0.01
    return now


def test_a_hint_in_two_player_mode_comes_from_an_engine_started_for_it():
    from boardctl.daemon.loop import Daemon
    from boardctl.hw.sim import SimButtons

    game = Game()
    pos = game.position
    from boardctl.hw.sim import SimBoard

    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    buttons = SimButtons()
    advisers: list[ScriptedOpponent] = []

    def adviser() -> ScriptedOpponent:
        advisers.append(ScriptedOpponent(["g2g4"]))
        return advisers[-1]

    daemon = Daemon(
        TWO_PLAYERS, Hardware(board, buttons=buttons), MemoryStore(), Services(adviser=adviser)
    )
    now = _stepped(daemon, 0.2)
    buttons.press("hint", now)
    now = _stepped(daemon, 0.2, now)
    assert daemon.status().prompt == "Hint: g4 \N{EN DASH} g2 to g4"
    shown = {pos.geometry.name(sq): role for sq, role in daemon.scene().squares.items()}
    assert shown == {"g2": Role.HINT_FROM, "g4": Role.HINT_TO}
    # In the hint's own colour, not the engine's: its destination blinks.
    frames = [daemon.led_colours(now + t / 10) for t in range(10)]
    assert all(
        frame[pos.geometry.parse_square("g2")] == LIGHTS[Role.HINT_FROM].rgb for frame in frames
    )
    assert {LIGHTS[Role.HINT_TO].rgb, None} == {
        frame.get(pos.geometry.parse_square("g4")) for frame in frames
    }
    assert LIGHTS[Role.HINT_FROM].hue != LIGHTS[Role.ENGINE_FROM].hue
    assert len(advisers) == 1 and advisers[0].asked == [[]]
    daemon.close()


def test_a_flag_fall_ends_the_game_on_time():
    store = MemoryStore()
    config = parse_config({"game": {"mode": "two-players", "clock": "0.05+0"}})  # 3 s each
    daemon = run_script(
        config, "0 lift e2\n0.4 place e4\n1 lift e7\n1.4 place e5\n", store, emit=lambda line: None
    )
    # White's clock started with Black's reply and ran out during the 30 s run-on.
    assert daemon.flagged == 0
    assert store.games[1]["result"] == ("0-1", "time forfeit")
    assert daemon.status().prompt.startswith("White's time is up: Black wins")
    assert daemon.clocks is not None and daemon.clocks[0] == 0.0


def test_a_lost_engine_process_is_started_again_and_still_moves(caplog):
    opponent = FlakyOpponent(["e7e5"], failures=2)
    daemon = engine_replies_e5(opponent, at=6)
    assert opponent.asked == [["e2e4"]] * 3  # asked again after each loss
    assert daemon.engine.failures == 0
    assert sum("starting it again" in r.getMessage() for r in caplog.records) == 2


def test_an_engine_that_keeps_dying_is_left_alone_until_the_position_changes():
    store = MemoryStore()
    opponent = FlakyOpponent(["e7e5"], failures=99)
    daemon = run_script(
        ENGINE_BLACK, "0 lift e2\n0.4 place e4\n", store, opponent=opponent, emit=lambda line: None
    )
    # The first try and three more, then no more asking: the loop keeps running.
    assert len(opponent.asked) == 1 + ENGINE_RETRIES
    assert daemon.engine.text == "engine error"
    assert daemon.status().engine_status == "engine error"
    assert store.moves(1) == ["e2e4"]


def test_a_real_engine_process_killed_while_thinking_is_replaced():
    from boardctl.daemon.loop import Daemon
    from boardctl.engine.worker import EngineWorker
    from boardctl.hw.sim import SimBoard

    config = parse_config(
        {"game": {"mode": "engine", "human": "black"}, "engine": {"movetime": 0.3}}
    )
    pos = Game().position
    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    worker = EngineWorker(seed=0)
    daemon = Daemon(config, Hardware(board), MemoryStore(), Services(opponent=worker))
    try:
        now = _stepped(daemon, 0.05)
        assert daemon.engine.request is not None and worker.alive
        first = worker._process
        first.kill()
        first.join(5)
        deadline = time.monotonic() + 30
        while daemon.reconciler.engine_move is None and time.monotonic() < deadline:
            daemon.step(now)
            now += 0.05
            time.sleep(0.01)
        assert daemon.reconciler.engine_move is not None
        assert worker.alive and worker._process is not first
    finally:
        daemon.close()


def _board_daemon(config, store, opponent, resume=None):
    from boardctl.daemon.loop import Daemon
    from boardctl.hw.sim import SimBoard, SimButtons

    pos = (resume[1] if resume else Game()).position
    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    buttons = SimButtons()
    daemon = Daemon(
        config,
        Hardware(board, buttons=buttons),
        store,
        Services(opponent=opponent),
        Start(resume=resume),
    )
    return daemon, buttons


@pytest.mark.parametrize("stored", ["²", "٣", "21", "-1", "9" * 5000, ""])
def test_a_stored_level_that_is_no_level_is_ignored(stored):
    store = MemoryStore()
    store.set_setting("engine.level", stored)
    opponent = ScriptedOpponent([])
    config = parse_config({"game": {"mode": "engine"}, "engine": {"skill": 9}})
    daemon, _ = _board_daemon(config, store, opponent)
    assert daemon.engine.level == 9 and opponent.skills == []


def test_next_and_prev_change_the_engine_level_which_is_kept():
    store = MemoryStore()
    opponent = ScriptedOpponent([])
    config = parse_config({"game": {"mode": "engine", "human": "white"}, "engine": {"skill": 19}})
    daemon, buttons = _board_daemon(config, store, opponent)
    assert daemon.engine.level == 19 and opponent.skills == []
    for t, name in ((0.1, "next"), (0.2, "next"), (0.3, "prev"), (0.4, "prev"), (0.5, "prev")):
        buttons.press(name, t)
    now = _stepped(daemon, 0.6)
    assert opponent.skills == [20, 19, 18, 17]  # 20 is the top: the second next changes nothing
    assert daemon.engine.level == 17 and store.settings == {"engine.level": "17"}
    # The fake engine rates level 17 at 600 + 50 x 17.
    assert daemon.status().prompt == "Engine level 17 of 20, about 1450"
    assert daemon.status().rating == 1450
    _stepped(daemon, 3.5, now)
    assert daemon.status().prompt == ""  # the notice goes after a few seconds
    # The next start takes the level set at the board, and tells the engine.
    again = ScriptedOpponent([])
    daemon, _ = _board_daemon(config, store, again)
    assert daemon.engine.level == 17 and again.skills == [17]


def test_prev_and_next_pick_the_promotion_piece_while_one_is_chosen():
    store = MemoryStore()
    config = parse_config({"game": {"mode": "two-players"}})
    resume = (1, Game(fen="5k4/1P8/10/10/10/10/10/5K4 w - - 0 1"))
    store.new_game("falcon", resume[1].start_fen, "a", "b", "x", 0)
    daemon, buttons = _board_daemon(config, store, None, resume)
    board = daemon.hw.sensors
    pos = resume[1].position
    now = _stepped(daemon, 0.2)
    board.lift(pos.geometry.parse_square("b7"))
    now = _stepped(daemon, 0.3, now)
    board.place(pos.geometry.parse_square("b8"))
    now = _stepped(daemon, 1.0, now)
    assert daemon.status().prompt_kind == "choice"
    promotions = daemon.top.variant.promotions
    buttons.press("prev", now)
    buttons.press("prev", now + 0.1)
    buttons.press("next", now + 0.2)
    now = _stepped(daemon, 0.5, now)
    assert daemon.reconciler.promotion_piece == promotions[-1]
    assert daemon.status().chosen == len(promotions) - 1
    assert daemon.engine.level == 20 and store.settings == {}  # no level change while choosing
    buttons.press("ok", now)
    _stepped(daemon, 0.5, now)
    assert store.moves(1) == [f"b7b8{promotions[-1].symbol}"]


def test_the_level_buttons_say_so_in_two_player_mode():
    store = MemoryStore()
    daemon, buttons = _board_daemon(TWO_PLAYERS, store, None)
    buttons.press("next", 0.1)
    _stepped(daemon, 0.3)
    assert daemon.status().prompt == "The level is for games against the engine"
    assert store.settings == {}


PROMOTING = "k9/3P6/10/p9/10/10/10/9K w - - 0 1"


def _promotion_daemon(config, opponent):
    store = MemoryStore()
    resume = (1, Game(fen=PROMOTING))
    store.new_game("falcon", resume[1].start_fen, "a", "b", "x", 0)
    daemon, buttons = _board_daemon(config, store, opponent, resume)
    pos = resume[1].position
    now = _stepped(daemon, 0.2)
    daemon.hw.sensors.lift(pos.geometry.parse_square("d7"))
    now = _stepped(daemon, 0.3, now)
    daemon.hw.sensors.place(pos.geometry.parse_square("d8"))
    now = _stepped(daemon, 1.0, now)
    assert daemon.status().prompt_kind == "choice"
    return daemon, buttons, store, now


def test_against_the_engine_it_thinks_only_once_the_promotion_piece_is_settled():
    opponent = ScriptedOpponent([])
    daemon, buttons, store, now = _promotion_daemon(ENGINE_BLACK, opponent)
    # The pawn stands on d8 but which piece it is remains open: no move yet,
    # so nothing for the engine to think about.
    now = _stepped(daemon, 2.0, now)
    assert opponent.asked == [] and store.moves(1) == []
    buttons.press("next", now)  # queen -> falcon
    buttons.press("ok", now + 0.1)
    _stepped(daemon, 0.5, now)
    assert store.moves(1) == ["d7d8f"]
    assert opponent.asked == [["d7d8f"]]


def test_a_promotion_left_open_takes_the_highlighted_piece():
    opponent = ScriptedOpponent([])
    daemon, buttons, store, now = _promotion_daemon(ENGINE_BLACK, opponent)
    buttons.press("prev", now)  # queen -> knight, the last of the list
    now = _stepped(daemon, daemon.reconciler.config.promotion_wait + 0.5, now)
    assert store.moves(1) == ["d7d8n"]
    assert opponent.asked == [["d7d8n"]]


def test_the_opponent_reaching_for_a_piece_takes_the_highlighted_promotion():
    daemon, buttons, store, now = _promotion_daemon(TWO_PLAYERS, None)
    buttons.press("next", now)
    buttons.press("next", now + 0.1)  # queen -> falcon -> rook
    now = _stepped(daemon, 0.3, now)
    pos = daemon.game.position
    daemon.hw.sensors.lift(pos.geometry.parse_square("a8"))  # out of the rook's check
    now = _stepped(daemon, 0.3, now)
    daemon.hw.sensors.place(pos.geometry.parse_square("a7"))
    _stepped(daemon, 1.0, now)
    assert store.moves(1) == ["d7d8r", "a8a7"]


def test_the_store_gets_wall_clock_times_not_the_loop_clock():
    """The loop's clock here is virtual (0.0, 0.01, …), as the Pi's is
    monotonic: neither is a date.  What is stored comes from the wall clock."""
    store = MemoryStore()
    calls: list[float] = []

    def wall_clock() -> float:
        calls.append(1_700_000_000.0 + len(calls))
        return calls[-1]

    run_script(
        TWO_PLAYERS,
        "0 lift e2\n0.4 place e4\n2 lift e7\n2.4 place e5\n",
        store,
        emit=lambda line: None,
        wall_clock=wall_clock,
    )
    assert [what for what, _ in store.times] == ["new_game", "add_move", "add_move"]
    assert [when for _, when in store.times] == calls
    assert store.clocks == [None, None]  # no clocks configured


def test_each_stored_move_carries_the_time_its_mover_has_left():
    store = MemoryStore()
    config = parse_config({"game": {"mode": "two-players", "clock": "5+3"}})
    daemon = run_script(
        config, "0 lift e2\n0.4 place e4\n2 lift e7\n2.4 place e5\n", store, emit=lambda line: None
    )
    assert daemon.clocks is not None
    # White's clock starts with Black's reply, so White's first move only
    # gains the increment; Black's time went on its thinking, then gained it.
    assert store.clocks == [303.0, daemon.clocks[1]]
    assert 300.0 < daemon.clocks[1] < 303.0


def test_a_level_edited_into_the_store_that_is_no_level_is_ignored():
    config = parse_config({"game": {"mode": "engine", "human": "white"}, "engine": {"skill": 12}})
    for text in ("²", "٣", "-1", "21", "7.5", ""):
        store = MemoryStore()
        store.settings["engine.level"] = text
        daemon, _ = _board_daemon(config, store, ScriptedOpponent([]))
        assert daemon.engine.level == 12, text


def test_lifting_a_piece_that_cannot_move_says_so():
    store = MemoryStore()
    daemon, _ = _board_daemon(TWO_PLAYERS, store, None)
    now = _stepped(daemon, 0.1)
    daemon.hw.sensors.lift(daemon.game.position.geometry.parse_square("g1"))  # a shut-in falcon
    _stepped(daemon, 0.5, now)
    assert daemon.status().prompt == "The falcon on g1 has no legal move: put it back"


def test_a_long_session_keeps_the_last_events_only_and_headless_still_says_them_all(monkeypatch):
    import boardctl.daemon.loop as daemon_module

    monkeypatch.setattr(daemon_module, "EVENTS_KEPT", 10)
    script = "".join(
        f"{4 * n} lift e{2 if n % 2 == 0 else 4}\n{4 * n + 0.4} place e{4 if n % 2 == 0 else 2}\n"
        for n in range(30)
    )
    lines: list[str] = []
    store = MemoryStore()
    daemon = run_script(TWO_PLAYERS, script, store, emit=lines.append)
    assert len(daemon.events) == 10 and daemon.event_count >= 30
    said = [line for line in lines if line.startswith(("move ", "takeback "))]
    assert said == ["move e2e4", "takeback e2e4"] * 15


def test_the_loop_waits_on_a_source_that_can_wake_it():
    """With the serial board the loop waits on the port (SerialBoard.wait)
    for the rest of its period instead of sleeping; other sources sleep."""
    from boardctl.daemon.loop import LOOP_HZ, Daemon
    from boardctl.hw.sim import SimBoard

    start = occupancy_of(Game().position)

    class WakingBoard(SimBoard):
        def __init__(self) -> None:
            super().__init__([s for s in range(80) if start >> s & 1])
            self.waits: list[float] = []

        def wait(self, timeout: float) -> None:
            self.waits.append(timeout)
            if len(self.waits) == 3:
                daemon.stopping = True

    board = WakingBoard()
    daemon = Daemon(TWO_PLAYERS, Hardware(board), MemoryStore(), now=0.0)
    ticks = iter([0.0, 0.005, 0.02, 0.021, 0.04, 0.05])
    daemon.run(lambda: next(ticks), lambda seconds: pytest.fail("slept"))
    period = 1.0 / LOOP_HZ
    assert board.waits == pytest.approx([period - 0.005, period - 0.001, period - 0.01])
    slept: list[float] = []
    plain = Daemon(
        TWO_PLAYERS,
        Hardware(SimBoard([s for s in range(80) if start >> s & 1])),
        MemoryStore(),
        now=0.0,
    )
    ticks = iter([0.0, 0.005])

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        plain.stopping = True

    plain.run(lambda: next(ticks), sleep)
    assert slept == pytest.approx([period - 0.005])


def test_the_level_logged_at_start_is_the_one_it_plays_at(caplog):
    # It used to log the configuration's skill while playing the level kept in the store.
    import logging

    caplog.set_level(logging.INFO, logger="boardctl")
    store = MemoryStore()
    store.set_setting("engine.level", "12")
    config = parse_config({"game": {"mode": "engine"}, "engine": {"skill": 20}})
    daemon, _ = _board_daemon(config, store, ScriptedOpponent([]))
    assert daemon.engine.level == 12
    logged = [r.getMessage() for r in caplog.records]
    assert "engine level 12 of 20 (set at the board)" in logged
    assert not any("skill 20" in line or "level 20" in line for line in logged)
