"""The settings form's side of the file (boardctl.settings): each value is
checked as the file's, each error belongs to its field, only what changed is
written, and each change is said to be taken now, with the next game or at
the next start, by the same rule the daemon follows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boardctl.config import Config, load_config, parse_config
from boardctl.engine import core, levels
from boardctl.settings import (
    FIELDS,
    Abilities,
    SettingsFile,
    When,
    config_keys,
    merged,
    name,
    when_taken,
)
from boardctl.web.owner import Change, Refused, Saved


@pytest.fixture
def owner(example_config: Path) -> SettingsFile:
    return SettingsFile(example_config)


def test_the_form_shows_what_the_file_holds(owner):
    owner.path.write_text(owner.path.read_text().replace('clock = ""', 'clock = "25+10"'))
    form = owner.form()
    assert set(form["values"]) == {name(key) for key in FIELDS}
    assert form["values"]["game.clock"] == "25+10"
    assert form["values"]["engine.skill"] == 20
    assert ("90+30", "90+30 classical") in form["choices"]["game.clock"]
    assert ("", "No clock") in form["choices"]["game.clock"]
    assert [key for key, _ in form["choices"]["game.mode"]] == [
        "engine",
        "two-players",
        "teaching",
        "remote",
    ]
    assert form["ranges"]["engine.skill"] == (0, 20)
    assert form["problem"] == ""


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_form_rates_each_level_where_the_levels_were_measured(owner):
    ratings = owner.form()["ratings"]
    assert ratings["falcon"] == [levels.rating(n) for n in range(levels.MAX_LEVEL + 1)]
    assert ratings["falcon-xboard"] == ratings["falcon"]
    assert "falcon-hex" not in ratings and "falcon-8x8" not in ratings
    # Another engine's levels are its own: no table.
    text = owner.path.read_text()
    owner.path.write_text(text.replace('external = ""', f'external = "{sys.executable}"', 1))
    form = owner.form()
    assert form["problem"] == "" and form["ratings"] == {}


def test_each_wrong_value_is_refused_beside_its_field_and_nothing_is_written(owner):
    before = owner.path.read_bytes()
    answer = owner.save(
        {
            "engine.skill": "21",
            "speech.rate": "fast",
            "game.clock": "5 + 3",
            "game.mode": "correspondence",
            "game.white_name": "x" * 41,
            "leds.brightness": 1.5,
            "speech.enabled": "yes",
            "game.black_name": "Bo",  # right, and not written either
            "web.pin": "0000",  # not this page's to set
        }
    )
    assert isinstance(answer, Refused) and answer.status == 400
    assert answer.errors == {
        "engine.skill": "must be between 0 and 20; got 21",
        "speech.rate": "expected a whole number, got 'fast'",
        "game.clock": answer.errors["game.clock"],
        "game.mode": "expected one of engine, two-players, teaching, remote; got 'correspondence'",
        "game.white_name": answer.errors["game.white_name"],
        "leds.brightness": "must be between 0 and 1; got 1.5",
        "speech.enabled": "expected bool, got 'yes'",
        "web.pin": "not a setting of this page",
    }
    assert answer.errors["game.clock"].startswith("expected minutes+increment such as 5+3")
    assert answer.errors["game.white_name"].startswith("expected a name of at most 40")
    assert owner.path.read_bytes() == before


@pytest.mark.parametrize("typed", ["١٢", "1_2", "1e1", "", "12.0"])
def test_numbers_are_read_as_the_files_reader_reads_them(owner, typed):
    answer = owner.save({"engine.skill": typed})
    assert isinstance(answer, Refused)
    assert answer.errors["engine.skill"].startswith("expected a whole number")


def test_what_changed_is_written_and_said_when_the_board_takes_it(owner):
    answer = owner.save(
        {
            "engine.skill": "12",
            "game.clock": "15+10",
            "game.white_name": "Ann",
            "game.mode": "engine",  # as it was: not a change
            "leds.brightness": 0.4,
        }
    )
    assert answer == Saved(
        (
            Change("engine.skill", "now"),
            Change("game.clock", "next game"),
            Change("game.white_name", "next game"),
            Change("leds.brightness", "restart"),  # these LEDs cannot dim while running
        ),
        answer.action,
    )
    assert answer.action is not None and answer.action.kind == "settings"
    config = load_config(owner.path)
    assert answer.action.config == config
    assert (config.engine.skill, config.game.clock, config.game.white_name) == (12, "15+10", "Ann")
    assert config.leds.brightness == 0.4


def test_saving_the_form_unchanged_writes_nothing(owner):
    before = owner.path.stat().st_mtime_ns, owner.path.read_bytes()
    assert owner.save(dict(owner.form()["values"])) == Saved()
    assert (owner.path.stat().st_mtime_ns, owner.path.read_bytes()) == before


def test_a_file_broken_by_hand_is_said_and_kept(owner):
    owner.path.write_text("[engine]\nskill = 99\n")
    assert "[engine] skill: must be between 0 and 20" in owner.form()["problem"]
    answer = owner.save({"game.clock": "5+3"})
    assert isinstance(answer, Refused)
    assert answer.errors[""].startswith("the configuration file has an error to fix first")
    assert owner.path.read_text() == "[engine]\nskill = 99\n"


def test_a_board_that_can_dim_and_speak_takes_those_at_once(owner):
    owner.abilities = Abilities(voice=True, dims=True)
    answer = owner.save({"leds.brightness": 0.1, "speech.rate": "200", "speech.enabled": True})
    assert isinstance(answer, Saved)
    assert {change.field: change.when for change in answer.changes} == {
        "leds.brightness": "now",
        "speech.rate": "now",
        "speech.enabled": "now",
    }


@pytest.mark.parametrize(
    ("key", "old", "new", "can", "when"),
    [
        (("engine", "skill"), {}, {"engine": {"skill": 3}}, Abilities(), When.NOW),
        (("game", "clock"), {}, {"game": {"clock": "5+3"}}, Abilities(), When.NEXT_GAME),
        (("game", "mode"), {}, {"game": {"mode": "teaching"}}, Abilities(), When.NEXT_GAME),
        # Remote play's link starts with the web server.
        (("game", "mode"), {}, {"game": {"mode": "remote"}}, Abilities(), When.RESTART),
        (("game", "human"), {}, {"game": {"human": "black"}}, Abilities(), When.NEXT_GAME),
        (
            ("game", "variant"),
            {},
            {"game": {"variant": "falcon-xboard"}},
            Abilities(),
            When.NEXT_GAME,
        ),
        # Another shape of board: other sensors, LEDs and screen.
        (("game", "variant"), {}, {"game": {"variant": "falcon-hex"}}, Abilities(), When.RESTART),
        (("speech", "rate"), {}, {"speech": {"rate": 200}}, Abilities(), When.RESTART),
        (("speech", "rate"), {}, {"speech": {"rate": 200}}, Abilities(voice=True), When.NOW),
        (("leds", "brightness"), {}, {"leds": {"brightness": 0.1}}, Abilities(dims=True), When.NOW),
        (("web", "port"), {}, {"web": {"port": 8081}}, Abilities(True, True), When.RESTART),
        (("display", "size"), {}, {"display": {"size": "800x480"}}, Abilities(), When.RESTART),
    ],
)
def test_when_each_change_is_taken(key, old, new, can, when):
    assert when_taken(key, parse_config(old), parse_config(new), can) is when


def test_merged_takes_only_the_keys_named():
    new = parse_config({"engine": {"skill": 3}, "game": {"clock": "5+3"}})
    mixed = merged(Config(), new, [("engine", "skill")])
    assert (mixed.engine.skill, mixed.game.clock) == (3, "")
    assert ("board", "sensors") in config_keys() and ("speech", "squares") in config_keys()
