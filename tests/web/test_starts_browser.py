"""The owner's starts in headless Chromium (as test_browser.py drives it):
unlocked with the PIN, the live page sets up a position and starts a
puzzle, a stored game's page steps through it on the board, and each time
the board's prompt on the page changes to the set-up's first instruction.
The screenshot of the controls goes to ``$BOARDCTL_WEB_SHOTS`` (docs/web)."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from . import test_browser as chromium
from .test_browser import CHROMIUM, DRIVER, text, wait_for

# test_browser.py's fixtures: one Chromium for the module, no policy violated,
# screenshots where $BOARDCTL_WEB_SHOTS says, and a live board with a PIN.
browser = chromium.browser
no_policy_violations = chromium.no_policy_violations
shots = chromium.shots
board = chromium.board

PIN = chromium.PIN
PROBLEM_A = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"  # the essay's problem A

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium/chromedriver: install Debian's chromium and chromium-driver",
)


def unlock(browser: Any, form: str = "pin-form") -> None:
    wait_for(browser, lambda d: d.find_element(By.ID, form).is_displayed(), "no PIN form")
    browser.find_element(By.ID, "pin").send_keys(PIN)
    browser.find_element(By.CSS_SELECTOR, f"#{form} button").click()


def test_the_owner_sets_up_a_position_then_a_puzzle_and_the_prompt_follows(browser, board, shots):
    game, server = board
    browser.set_window_size(1280, 800)
    browser.get(server.url)
    unlock(browser)
    wait_for(browser, lambda d: d.find_element(By.ID, "on-board").is_displayed(), "no controls")
    assert not browser.find_element(By.ID, "normal-game").is_displayed()  # a normal game
    wait_for(
        browser,
        lambda d: "problem B: White to mate in 1 (easy)" in text(d, "puzzle-list"),
        "the puzzles are not listed",
    )
    assert "falcon-hex" not in browser.find_element(By.ID, "puzzle-list").text
    before = text(browser, "prompt")
    fen = browser.find_element(By.ID, "setup-fen")
    fen.send_keys("not a fen")
    browser.find_element(By.CSS_SELECTOR, "#setup-form button").click()
    wait_for(
        browser,
        lambda d: "not a falcon position" in text(d, "start-status"),
        "a bad FEN was not refused in words",
    )
    assert text(browser, "prompt") == before
    fen.clear()
    fen.send_keys(PROBLEM_A)
    browser.find_element(By.CSS_SELECTOR, "#setup-form button").click()
    wait_for(
        browser,
        lambda d: text(d, "prompt").startswith("Take the piece off "),
        "the board's prompt did not turn to the set-up",
    )
    assert browser.find_element(By.ID, "normal-game").is_displayed()
    Select(browser.find_element(By.ID, "puzzle-list")).select_by_value("duke-b")
    browser.find_element(By.CSS_SELECTOR, "#puzzle-form button").click()
    wait_for(browser, lambda d: game.hub.latest.mode == "puzzle", "the puzzle did not start")
    wait_for(
        browser,
        lambda d: text(d, "prompt").startswith("Take the piece off "),
        "the puzzle's set-up is not shown",
    )
    browser.execute_script("document.getElementById('on-board').scrollIntoView({block: 'end'})")
    browser.save_screenshot(str(shots / "web-starts.png"))
    browser.find_element(By.ID, "normal-game").click()
    wait_for(browser, lambda d: game.hub.latest.mode == "setup", "no way back to a normal game")


def test_a_stored_game_is_stepped_through_on_the_board_from_its_page(browser, board):
    game, server = board
    for uci in ("e2e4", "e7e5"):
        game.do(uci)
    browser.get(server.url)
    wait_for(browser, lambda d: game.hub.latest.moves == ("e2e4", "e7e5"), "no moves made")
    game_id = game.hub.latest.game_id
    browser.get(f"{server.url}games/{game_id}")
    unlock(browser, "review-pin")
    button = wait_for(
        browser,
        lambda d: (
            d.find_element(By.ID, "step-button").is_displayed()
            and d.find_element(By.ID, "step-button")
        ),
        "no step button once unlocked",
    )
    button.click()
    wait_for(
        browser,
        lambda d: "Finish or end the game first" in text(d, "step-status"),
        "a game under way was not refused",
    )
    game.hub.request(chromium.WebAction("resign"))
    wait_for(browser, lambda d: game.hub.latest.result != "*", "the game did not end")
    button.click()
    wait_for(browser, lambda d: game.hub.latest.mode == "stepping", "the stepping did not start")
    browser.get(server.url)
    wait_for(
        browser,
        lambda d: text(d, "prompt").startswith("Take the piece off "),
        "the stepping's set-up is not shown on the live page",
    )
