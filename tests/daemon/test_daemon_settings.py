"""The daemon takes the settings saved from the page (a "settings" action with
the configuration the file now holds): the level, the voice and the LEDs at
once; who plays, the clock, the names and the variant with the next game, or
at once while no move has been made; the rest at the next start."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from boardctl.colour import Colour
from boardctl.config import Config, parse_config
from boardctl.ui.state import welcome_words
from boardctl.voice.engines import VoiceSettings
from boardctl.voice.speaker import Recorder
from boardctl.web.snapshot import WebAction

from ..daemon_fakes import ScriptedOpponent
from ..web.helpers import SimGame


def saved(sim: SimGame, **sections: dict[str, object]) -> Config:
    """The page saved the configuration the game started with, with ``sections`` changed."""
    data = {
        "game": {"mode": sim.config.game.mode, **sections.pop("game", {})},
        **{name: {**vars(getattr(sim.config, name)), **keys} for name, keys in sections.items()},
    }
    config = parse_config(data)
    sim.hub.request(WebAction("settings", config=config))
    sim.run(0.05)
    return config


def new_game_on_the_board(sim: SimGame) -> None:
    """End the game from the page and put both moved pawns back: the next game begins."""
    sim.hub.request(WebAction("newgame"))
    sim.run(0.05)
    for square in ("e4", "e5"):
        sim.board.lift(sim.geo.parse_square(square))
    for square in ("e2", "e7"):
        sim.board.place(sim.geo.parse_square(square))
    sim.run(5.0)


@pytest.fixture
def engine_game(tmp_path: Path):
    opponent = ScriptedOpponent(["e7e5"] * 3)
    sim = SimGame(
        tmp_path / "g.sqlite", opponent=opponent, game={"mode": "engine"}, engine={"skill": 10}
    )
    sim.run(0.1)
    yield sim, opponent
    sim.close()


def test_the_level_is_taken_at_once_and_kept_for_the_next_start(engine_game):
    sim, opponent = engine_game
    saved(sim, engine={"skill": 4})
    assert sim.daemon.engine.level == 4 and opponent.skills == [4]
    assert sim.hub.latest.level == 4
    assert sim.store.setting("engine.level") == "4"
    assert "Engine level 4" in sim.hub.latest.prompt


def test_the_clock_and_names_wait_for_the_next_game_once_one_is_under_way(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    sim.move("e2e4")
    sim.move("e7e5")
    first = sim.hub.latest.game_id
    saved(sim, game={"clock": "5+3", "white_name": "Ann", "black_name": "Bo"})
    snap = sim.hub.latest
    assert (snap.white_clock, snap.white, snap.game_id) == (None, "Player", first)
    new_game_on_the_board(sim)
    snap = sim.hub.latest
    assert snap.game_id != first
    assert (snap.white, snap.black, snap.white_clock) == ("Ann", "Bo", 300)
    stored = sim.store.load(snap.game_id)
    assert (stored.white, stored.black) == ("Ann", "Bo")
    sim.close()


def test_before_the_first_move_the_game_starts_again_as_the_settings_say(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    sim.run(0.1)
    first = sim.hub.latest.game_id
    saved(sim, game={"clock": "15+10", "white_name": "Ann"})
    snap = sim.hub.latest
    assert (snap.white, snap.white_clock, snap.moves) == ("Ann", 900, ())
    assert snap.game_id != first
    assert sim.store.load(snap.game_id).white == "Ann"
    sim.move("e2e4")
    assert sim.hub.latest.moves == ("e2e4",)
    sim.close()


def test_an_engine_game_becomes_a_two_players_game_and_back(engine_game):
    sim, opponent = engine_game
    saved(sim, game={"mode": "two-players"})
    assert sim.daemon.engine.opponent is None and sim.hub.latest.level is None
    assert (sim.hub.latest.white, sim.hub.latest.black) == ("Player", "Player")
    sim.move("e2e4")
    sim.move("e7e5")  # a second player moves Black: no engine waits
    assert opponent.requests == 0
    saved(sim, game={"mode": "engine", "human": "black"})  # waits for the next game
    assert sim.daemon.engine.opponent is None
    new_game_on_the_board(sim)
    assert sim.daemon.engine.opponent is opponent  # the engine it had, kept
    assert (sim.hub.latest.white, sim.hub.latest.black) == ("boardctl", "Player")
    sim.run(0.5)
    assert opponent.requests == 1  # the engine has White and moves first


def test_a_two_players_board_starts_an_engine_when_one_is_asked_for(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    started: list[ScriptedOpponent] = []

    def start() -> ScriptedOpponent:
        started.append(ScriptedOpponent(["e7e5"]))
        return started[-1]

    sim.daemon.top.players.engines.start = start
    sim.run(0.1)
    saved(sim, game={"mode": "engine"})
    assert len(started) == 1 and sim.daemon.engine.opponent is started[0]
    sim.move("e2e4")
    sim.run(0.5)
    assert sim.hub.latest.engine_move is not None  # its answer, to carry out
    sim.close()


def test_a_variant_of_the_same_board_is_taken_with_the_next_game(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    sim.move("e2e4")
    sim.move("e7e5")
    saved(sim, game={"variant": "falcon-xboard"})
    assert sim.hub.latest.variant == "falcon"
    new_game_on_the_board(sim)
    assert sim.hub.latest.variant == "falcon-xboard"
    assert sim.store.load(sim.hub.latest.game_id).variant == "falcon-xboard"
    sim.close()


def test_a_variant_of_another_board_waits_for_a_restart(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    sim.run(0.1)
    first = sim.hub.latest.game_id
    saved(sim, game={"variant": "falcon-hex"})
    assert (sim.hub.latest.variant, sim.hub.latest.game_id) == ("falcon", first)
    assert sim.daemon.top.pending is None
    sim.close()


class DimLeds:
    def __init__(self) -> None:
        self.brightness: list[float] = []

    def show(self, colours: dict[int, Colour]) -> None:
        pass

    def set_brightness(self, brightness: float) -> None:
        self.brightness.append(brightness)

    def close(self) -> None:
        pass


def test_the_voice_and_the_lights_are_taken_at_once(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    recorder, leds = Recorder(), DimLeds()
    sim.daemon.voice.speaker = recorder
    sim.daemon.hw = replace(sim.daemon.hw, leds=leds)
    sim.run(0.1)
    saved(sim, speech={"enabled": True, "rate": 220, "volume": 80}, leds={"brightness": 0.6})
    assert recorder.voice == VoiceSettings("en", 220, 80)
    assert leds.brightness == [0.6]
    assert not recorder.muted
    saved(sim, speech={"enabled": False})
    assert recorder.muted
    sim.close()


def test_the_first_starts_address_and_pin_stay_on_the_screen_until_the_settings_are_saved(
    tmp_path: Path,
):
    sim = SimGame(tmp_path / "g.sqlite")
    words = welcome_words("http://192.168.1.20:8080/", "482915")
    sim.daemon.welcome = words
    sim.run(0.1)
    assert sim.daemon.status().prompt == words
    sim.board.lift(sim.geo.parse_square("e2"))
    sim.run(0.1)
    sim.board.place(sim.geo.parse_square("e4"))
    sim.run(0.6)
    assert sim.daemon.status().prompt == words  # a move made: still there
    saved(sim, game={"white_name": "Ann"})
    assert sim.daemon.status().prompt == ""
    sim.close()


def test_a_settings_action_without_a_configuration_changes_nothing(tmp_path: Path):
    sim = SimGame(tmp_path / "g.sqlite")
    before = sim.daemon.top.config
    sim.hub.request(WebAction("settings"))
    sim.run(0.05)
    assert sim.daemon.top.config is before
    assert replace(before) == before
    sim.close()


def test_a_board_set_to_teaching_coaches_and_ranks_its_hints_and_stops_when_set_back(
    tmp_path: Path,
):
    sim = SimGame(tmp_path / "g.sqlite")
    started: list[ScriptedOpponent] = []

    def start() -> ScriptedOpponent:
        started.append(ScriptedOpponent([]))
        return started[-1]

    sim.daemon.top.players.engines.start = start
    sim.run(0.1)
    assert not sim.daemon.engine.ranked_hints
    saved(sim, game={"mode": "teaching"})  # no move made: taken at once
    sim.run(0.1)
    # The coach's engine is started to judge the first position, and hints are ranked.
    assert len(started) == 1 and sim.daemon.engine.ranked_hints
    saved(sim, game={"mode": "two-players"})
    assert started[0].closed and not sim.daemon.engine.ranked_hints
    sim.move("e2e4")
    sim.run(0.5)
    assert len(started) == 1  # nobody judges a two-players game
    sim.close()
