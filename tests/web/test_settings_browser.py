"""The settings page in headless Chromium (as test_browser.py drives it): the
owner unlocks it with the PIN, fills the form in and saves; the configuration
file changes and the running daemon takes the level.  A wrong value is shown
beside its field and nothing is written.  Screenshots at a phone's and a
laptop's width go to ``$BOARDCTL_WEB_SHOTS`` (docs/web for the README)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from boardctl.config import load_config
from boardctl.engine import core, levels
from boardctl.settings import MODE_HINTS, MODE_WORDS, SettingsFile
from boardctl.web.server import WebServer

from ..daemon_fakes import ScriptedOpponent
from . import test_browser as chromium
from .helpers import LiveGame
from .test_browser import CHROMIUM, DRIVER, text, wait_for

# The browser pages' fixtures: one Chromium for the module, no policy violated,
# screenshots where $BOARDCTL_WEB_SHOTS says.
browser = chromium.browser
no_policy_violations = chromium.no_policy_violations
shots = chromium.shots

PIN = "482915"
EXAMPLE = Path(__file__).parent.parent.parent / "systemd" / "config.example.toml"
PHONE = (390, 844)
LAPTOP = (1280, 900)
DEADLINE = 30.0  # seconds the daemon has to take a saved setting (a loaded machine is slow)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium/chromedriver: install Debian's chromium and chromium-driver",
)


@pytest.fixture
def owned(tmp_path: Path) -> Iterator[tuple[LiveGame, WebServer, Path]]:
    """A game against the engine, its page with a PIN, and the file it started from."""
    path = tmp_path / "config.toml"
    path.write_text(
        EXAMPLE.read_text()
        .replace('pin = ""', f'pin = "{PIN}"')
        .replace("skill = 20", "skill = 12")
    )
    config = load_config(path)
    game = LiveGame(
        tmp_path / "games.sqlite",
        opponent=ScriptedOpponent([]),
        game={"mode": "engine"},
        engine={"skill": config.engine.skill},
        web={"pin": PIN},
    )
    game.start()
    server = WebServer(
        game.hub,
        host="127.0.0.1",
        port=0,
        pin=PIN,
        db_path=game.db,
        settings=SettingsFile(path),
    )
    server.start()
    yield game, server, path
    server.stop()
    game.stop()


def unlock(driver: Any, url: str) -> None:
    driver.get(url + "settings")
    wait_for(driver, lambda d: d.find_element(By.ID, "pin-form").is_displayed(), "no PIN form")
    assert not driver.find_element(By.ID, "settings-form").is_displayed()
    driver.find_element(By.ID, "pin").send_keys(PIN)
    driver.find_element(By.CSS_SELECTOR, "#pin-form button").click()
    wait_for(
        driver,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"),
        "the form did not open",
    )


def field(driver: Any, element_id: str) -> Any:
    return driver.find_element(By.ID, element_id)


def whole_page(driver: Any, path: Path) -> None:
    """A screenshot of the whole page at the window's width, not only what fits."""
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    chrome = driver.get_window_size()["height"] - driver.execute_script("return innerHeight")
    driver.set_window_size(width, height + chrome)
    driver.save_screenshot(str(path))


def until(what: Any, message: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not what():
        if time.monotonic() > deadline:
            pytest.fail(message)
        time.sleep(0.05)


def test_a_guest_sees_only_the_pin_and_a_wrong_one_is_refused(browser, owned):
    _, server, path = owned
    before = path.read_bytes()
    browser.get(server.url + "settings")
    wait_for(browser, lambda d: d.find_element(By.ID, "pin-form").is_displayed(), "no PIN form")
    field(browser, "pin").send_keys("000000")
    browser.find_element(By.CSS_SELECTOR, "#pin-form button").click()
    wait_for(browser, lambda d: text(d, "pin-status") == "wrong PIN", "a wrong PIN was not refused")
    assert not field(browser, "settings-form").is_displayed()
    assert path.read_bytes() == before


def test_the_mode_hint_describes_the_mode_chosen(browser, owned):
    """The hint said what Remote is while "Against the engine" was chosen."""
    _, server, _ = owned
    browser.set_window_size(*LAPTOP)
    unlock(browser, server.url)
    mode = Select(field(browser, "game-mode"))
    assert mode.first_selected_option.get_attribute("value") == "engine"
    assert text(browser, "game-mode-hint") == MODE_HINTS["engine"]
    assert "Remote" not in text(browser, "game-mode-hint")
    for chosen in MODE_WORDS:
        mode.select_by_value(chosen)
        assert text(browser, "game-mode-hint") == MODE_HINTS[chosen], chosen
    assert len(set(MODE_HINTS.values())) == len(MODE_WORDS)


def test_the_owner_saves_the_form_the_file_changes_and_the_daemon_takes_the_level(
    browser, owned, shots
):
    game, server, path = owned
    browser.set_window_size(*LAPTOP)
    unlock(browser, server.url)
    assert field(browser, "engine-skill").get_attribute("value") == "12"
    assert Select(field(browser, "clock-preset")).first_selected_option.text == "No clock"
    modes = Select(field(browser, "game-mode")).options
    assert [m.get_attribute("value") for m in modes] == list(MODE_WORDS)
    assert all(m.is_enabled() for m in modes)  # remote play is one of them

    # Each level is shown with its approximate rating, as it is typed.
    def about(level: int) -> str:
        return f"about {levels.rating(level)}" if core.available() else ""

    assert text(browser, "engine-skill-about") == about(12)
    skill = field(browser, "engine-skill")
    skill.clear()
    skill.send_keys("7")
    assert text(browser, "engine-skill-about") == about(7)
    Select(field(browser, "clock-preset")).select_by_value("15+10")
    field(browser, "game-white_name").send_keys("Ann")
    field(browser, "save").click()
    wait_for(browser, lambda d: text(d, "save-status") == "Saved.", "the form was not saved")
    taken = text(browser, "taken-list").splitlines()
    assert taken == [
        "Engine level: now",
        "Time control: when a new game starts (at once while no move has been made)",
        "White: when a new game starts (at once while no move has been made)",
    ]
    assert field(browser, "engine-skill").get_attribute("value") == "7"  # as the file has it
    config = load_config(path)
    assert (config.engine.skill, config.game.clock, config.game.white_name) == (7, "15+10", "Ann")
    assert "# 0 (beginner, makes mistakes) to 20 (full strength)." in path.read_text()
    until(lambda: game.hub.latest.level == 7, "the daemon did not take the new level")
    # No move was made yet: the game started again with the new clock and name.
    until(lambda: game.hub.latest.white == "Ann", "the daemon did not take the name")
    assert game.hub.latest.white_clock == 900
    whole_page(browser, shots / "web-settings.png")


def test_a_wrong_value_is_shown_beside_its_field_and_nothing_is_written(browser, owned, shots):
    game, server, path = owned
    before = path.read_bytes()
    browser.set_window_size(*PHONE)
    unlock(browser, server.url)
    Select(field(browser, "clock-preset")).select_by_value("other")
    clock = field(browser, "game-clock")
    assert clock.is_displayed()
    clock.send_keys("90+")
    field(browser, "save").click()
    wait_for(browser, lambda d: text(d, "game-clock-error"), "no error beside the clock")
    assert text(browser, "game-clock-error").startswith(
        "expected minutes+increment such as 5+3, or minutes d delay"
    )
    assert clock.get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element == clock
    assert text(browser, "save-status") == "Not saved: see what is wrong above."
    assert path.read_bytes() == before
    whole_page(browser, shots / "web-settings-phone.png")
    assert game.hub.take_actions() == []


def test_the_page_fits_a_phone_without_sideways_scrolling(browser, owned):
    _, server, _ = owned
    browser.set_window_size(*PHONE)
    unlock(browser, server.url)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    inner = browser.execute_script("return window.innerWidth")
    assert width <= inner


def test_the_restart_button_names_what_waits_asks_first_and_comes_back(browser, owned, shots):
    game, server, path = owned
    browser.set_window_size(*LAPTOP)
    unlock(browser, server.url)
    assert field(browser, "restart-ask").is_displayed()
    assert not field(browser, "restart-waiting").is_displayed()
    Select(field(browser, "game-variant")).select_by_value("falcon-hex")
    field(browser, "save").click()
    wait_for(browser, lambda d: text(d, "restart-waiting"), "nothing said to wait for a restart")
    assert text(browser, "restart-waiting") == "Saved, waiting for a restart: Variant."
    field(browser, "restart-ask").click()
    assert field(browser, "restart-confirm").is_displayed()
    # Another variant: the game is not resumed, and the page says so.
    assert "a new game of the new variant begins" in text(browser, "restart-confirm")
    whole_page(browser, shots / "web-settings-restart.png")
    browser.set_window_size(*LAPTOP)
    field(browser, "restart-yes").click()
    # Shown only once the server has taken the restart (202).
    wait_for(browser, lambda d: text(d, "restart-note").startswith("Restarting"), "no Restarting…")
    # The program starts again: another server (another run) on the same port.
    server.stop()
    again = WebServer(
        game.hub,
        host="127.0.0.1",
        port=server.port,
        pin=PIN,
        db_path=game.db,
        settings=SettingsFile(path),
    )
    again.start()
    try:
        wait_for(
            browser,
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-restarted"),
            "the page did not come back",
        )
        assert text(browser, "restart-note").startswith("The board's program has restarted")
        # A new start knows no session: the PIN again.
        wait_for(browser, lambda d: d.find_element(By.ID, "pin-form").is_displayed(), "no PIN form")
    finally:
        again.stop()
