"""Writing the configuration back (boardctl.configfile): the owner's comments
and layout survive, the file reads back as the values set, it is replaced
whole or not at all, and a read-only or full disk is one clear message."""

from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl import configfile
from boardctl.config import (
    CHOICES,
    NAME_LENGTH,
    RANGES,
    Config,
    ConfigError,
    load_config,
)
from boardctl.configfile import ConfigWriteError, edit_config, first_config, write_atomic

from .mounts import fill, read_only_view, tiny_filesystem

EXAMPLE = Path(__file__).parent.parent / "systemd" / "config.example.toml"


@pytest.fixture
def config_file(example_config: Path) -> Path:
    return example_config


def leftovers(folder: Path) -> list[str]:
    """Files the writer may have left behind (its temporary files start with a dot)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_change_is_that_one_line_and_every_comment_stays(config_file):
    before = config_file.read_text().splitlines()
    config = edit_config(config_file, {("engine", "skill"): 7})
    after = config_file.read_text().splitlines()
    assert config.engine.skill == 7
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [
        ("skill = 20", "skill = 7")
    ]
    assert load_config(config_file) == config


def test_a_comment_after_the_value_stays_and_a_new_key_joins_its_table(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('# mine\n[game]\nmode = "engine"  # against the board\n\n[web]\npin = "1234"\n')
    edit_config(path, {("game", "mode"): "two-players", ("game", "white_name"): "Ann"})
    text = path.read_text()
    assert text.startswith("# mine\n[game]\n")
    assert 'mode = "two-players"  # against the board\n' in text
    assert text.index('white_name = "Ann"') < text.index("[web]")
    assert load_config(path).game.white_name == "Ann"


def test_a_hand_edit_after_a_save_still_works(config_file):
    edit_config(config_file, {("game", "clock"): "15+10"})
    with config_file.open("a") as handle:
        handle.write("\n# added by hand\n")
    text = config_file.read_text().replace('human = "white"', 'human = "black"')
    config_file.write_text(text)
    config = load_config(config_file)
    assert (config.game.clock, config.game.human) == ("15+10", "black")
    assert edit_config(config_file, {("engine", "skill"): 3}).game.human == "black"


@pytest.mark.parametrize(
    "text",
    [
        'game = { mode = "engine" }\n',  # an inline table
        'game.mode = "engine"\n',  # a dotted key
        "",  # an empty file
    ],
)
def test_tables_written_any_way_take_the_change(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    config = edit_config(path, {("game", "mode"): "teaching", ("speech", "rate"): 200})
    assert (config.game.mode, config.speech.rate) == ("teaching", 200)
    assert load_config(path) == config


def test_no_file_yet_is_made_with_a_private_mode(tmp_path):
    path = tmp_path / "config.toml"
    edit_config(path, {("web", "pin"): "2468"})
    assert load_config(path).web.pin == "2468"
    assert stat.S_IMODE(path.stat().st_mode) == configfile.NEW_FILE_MODE


def test_an_old_file_keeps_its_mode_and_a_link_stays_a_link(tmp_path, config_file):
    config_file.chmod(0o604)
    link = tmp_path / "link.toml"
    link.symlink_to(config_file)
    edit_config(link, {("engine", "skill"): 5})
    assert link.is_symlink()
    assert load_config(config_file).engine.skill == 5
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o604


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({("engine", "skill"): 21}, "[engine] skill: must be between 0 and 20"),
        ({("game", "clock"): "5+"}, "[game] clock: expected minutes+increment"),
        ({("game", "mode"): "correspondence"}, "[game] mode: expected one of"),
        ({("game", "black_name"): "x" * (NAME_LENGTH + 1)}, "[game] black_name: expected a name"),
    ],
)
def test_a_value_that_would_not_start_is_refused_and_nothing_is_written(
    config_file, changes, needle
):
    before = config_file.read_bytes()
    with pytest.raises(ConfigError) as refused:
        edit_config(config_file, changes)
    assert needle in str(refused.value)
    assert refused.value.key == next(iter(changes))
    assert config_file.read_bytes() == before
    assert leftovers(config_file.parent) == []


def test_a_file_broken_by_hand_is_refused_not_overwritten(config_file):
    config_file.write_text("[game\nmode = 1\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        edit_config(config_file, {("engine", "skill"): 5})
    assert config_file.read_text() == "[game\nmode = 1\n"


def test_a_crash_before_the_rename_leaves_the_old_file_whole(config_file, monkeypatch):
    before = config_file.read_bytes()

    def power_cut(source: str, target: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(configfile.os, "replace", power_cut)
    with pytest.raises(
        ConfigWriteError, match=r"Input/output error \(.*config.toml is unchanged\)"
    ):
        edit_config(config_file, {("engine", "skill"): 5})
    assert config_file.read_bytes() == before
    assert leftovers(config_file.parent) == []


def test_a_read_only_disk_is_one_clear_line_and_the_file_as_it_was(tmp_path):
    source = tmp_path / "etc"
    source.mkdir()
    (source / "config.toml").write_text(EXAMPLE.read_text())
    with read_only_view(source, tmp_path / "ro") as view:
        path = view / "config.toml"
        with pytest.raises(ConfigWriteError) as refused:
            edit_config(path, {("engine", "skill"): 5})
        message = str(refused.value)
        assert "\n" not in message
        assert message.startswith("cannot save the settings: ")
        assert "read-only" in message or "may not write" in message
        assert load_config(path).engine.skill == 20


def test_a_full_disk_is_one_clear_line_and_the_file_as_it_was(tmp_path):
    with tiny_filesystem(tmp_path / "small", "64k") as folder:
        path = folder / "config.toml"
        path.write_text(EXAMPLE.read_text())
        filler = fill(folder)
        with pytest.raises(ConfigWriteError, match=r"^cannot save the settings: the disk is full"):
            edit_config(path, {("game", "white_name"): "A much longer name than before"})
        assert path.read_text() == EXAMPLE.read_text()
        assert leftovers(folder) == []
        filler.unlink()
        assert edit_config(path, {("game", "white_name"): "Ann"}).game.white_name == "Ann"


def test_write_atomic_replaces_the_whole_file(tmp_path):
    path = tmp_path / "f.toml"
    path.write_text("x = 1\n" * 1000)
    write_atomic(path, "y = 2\n")
    assert path.read_text() == "y = 2\n"


def test_the_first_configuration_turns_the_page_on_with_a_new_pin(tmp_path):
    path = tmp_path / "config.toml"
    config = first_config(path)
    assert config.web.enabled
    assert len(config.web.pin) == configfile.PIN_DIGITS and config.web.pin.isdigit()
    assert load_config(path) == config
    assert path.read_text().startswith("# boardctl configuration, written at the first start")
    assert replace(config, web=Config().web, source=Config().source) == Config()


def test_the_first_configuration_on_a_read_only_disk_says_so(tmp_path):
    source = tmp_path / "etc"
    source.mkdir()
    with read_only_view(source, tmp_path / "ro") as view:
        with pytest.raises(ConfigWriteError, match=r"^cannot write the first configuration: "):
            first_config(view / "config.toml")
        assert not (view / "config.toml").exists()


def test_a_cards_own_settings_are_written_into_its_first_configuration(tmp_path):
    (tmp_path / configfile.FIRST_DEFAULTS).write_text(
        '[display]\n# the card draws into the frame buffer\nframebuffer = "/dev/fb0"\n'
        '[web]\nbind = "auto"\npin = "000000"\n'
    )
    path = tmp_path / "config.toml"
    config = first_config(path)
    assert config.display.framebuffer == "/dev/fb0"
    assert config.web.enabled and config.web.pin != "000000"  # a new PIN, whatever it said
    assert load_config(path) == config
    assert "# the card draws into the frame buffer" in path.read_text()


@pytest.mark.parametrize(
    ("own", "message"),
    [
        (
            '[display]\nframebuffer = "/tmp/screen"\n',
            r"\[display\] framebuffer.*\(set in .*first-start.toml\)$",
        ),
        ("[display\n", r"first-start.toml: not TOML"),
        ("a = " + "[" * 200 + "]" * 200 + "\n", r"first-start.toml: not TOML"),
        (b"\xff", r"first-start.toml is not UTF-8"),
    ],
)
def test_a_cards_settings_that_would_not_start_write_nothing(tmp_path, own, message):
    defaults = tmp_path / configfile.FIRST_DEFAULTS
    defaults.write_bytes(own if isinstance(own, bytes) else own.encode())
    with pytest.raises(ConfigError, match=message):
        first_config(tmp_path / "config.toml")
    assert not (tmp_path / "config.toml").exists()


# ---------------------------------------------------------------- round trip
NAMES = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=NAME_LENGTH
).filter(lambda text: text.strip() == text and text.isprintable())


def _in_range(section: str, key: str, kind: type) -> st.SearchStrategy[object]:
    low, high = RANGES[section, key]
    if kind is int:
        return st.integers(int(low), int(high))
    return st.floats(low, high, allow_nan=False)


SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        ("game", "mode"): st.sampled_from(CHOICES["game", "mode"]),
        ("game", "human"): st.sampled_from(CHOICES["game", "human"]),
        ("game", "variant"): st.sampled_from(CHOICES["game", "variant"]),
        ("game", "clock"): st.one_of(
            st.just(""),
            st.builds(
                "{}+{}".format,
                st.integers(1, 600),
                st.sampled_from(["0", "3", "10", "2.5", "600"]),
            ),
        ),
        ("game", "white_name"): NAMES,
        ("game", "black_name"): NAMES,
        ("game", "takeback"): st.booleans(),
        ("engine", "skill"): _in_range("engine", "skill", int),
        ("engine", "movetime"): _in_range("engine", "movetime", float),
        ("speech", "enabled"): st.booleans(),
        ("speech", "rate"): _in_range("speech", "rate", int),
        ("speech", "volume"): _in_range("speech", "volume", int),
        ("leds", "brightness"): _in_range("leds", "brightness", float),
        ("web", "port"): _in_range("web", "port", int),
        ("web", "pin"): st.text(
            st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=4, max_size=64
        ),
    },
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=SETTINGS)
def test_any_valid_settings_read_back_as_set_and_the_comments_stay(tmp_path, changes):
    path = tmp_path / "config.toml"
    path.write_text(EXAMPLE.read_text())
    comments = [line for line in EXAMPLE.read_text().splitlines() if line.startswith("#")]
    written = edit_config(path, changes)
    loaded = load_config(path)
    assert loaded == written
    for (section, key), value in changes.items():
        assert getattr(getattr(loaded, section), key) == value
    untouched = {
        (section, key)
        for section in ("board", "display", "buttons")
        for key in vars(getattr(Config(), section))
    }
    for section, key in untouched:
        assert getattr(getattr(loaded, section), key) == getattr(getattr(Config(), section), key)
    lines = path.read_text().splitlines()
    assert [line for line in lines if line.startswith("#")] == comments
    assert leftovers(tmp_path) == []
    os.unlink(path)
