"""A round on the hall's page in headless Chromium: boards broadcast through
a real mosquitto, the hall serves them; on a projector every board at a
glance and the results table, on a phone one board large; a move arrives
live, a board that drops off shows so, and the live PGN reads back.

Screenshots go to ``$BOARDCTL_WEB_SHOTS`` as the web page's do
(``BOARDCTL_WEB_SHOTS=docs/web make test`` for the gallery)."""

from __future__ import annotations

import random
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from boardctl.hall.round import Round, Seat
from boardctl.hall.service import Hall, make_round_app
from boardctl.remote.keys import fingerprint
from boardctl.remote.transport import BrokerSettings, MqttTransport
from boardctl.rules import Game, get_variant
from boardctl.rules.pgn import read_games
from boardctl.web.server import ServerThread

from ..remote.broker import Broker
from ..web import test_browser as base
from .helpers import EVENT, SimBoard, board_keys, snapshot

# The browser, its checks and its screenshots' folder are the page's other
# browser tests' own; without Chromium this skips as they do.
pytestmark = base.pytestmark
browser = base.browser
no_policy_violations = base.no_policy_violations
shots = base.shots
wait_for = base.wait_for

PLAYERS = [
    ("Anna Schmidt", "Ben Okafor"),
    ("Chen Wei", "Dara Murphy"),
    ("Emil Larsen", "Fatima Haddad"),
    ("Greta Novak", "Hugo Almeida"),
    ("Ines Ferreira", "Jonas Berg"),
    ("Kofi Mensah", "Lena Vogel"),
    ("Marta Kowalska", "Nils Eriksen"),
    ("Olga Petrova", "Pablo Ruiz"),
]


def line(seed: int, plies: int) -> list[str]:
    """A legal game of ``plies`` moves, the same every run."""
    rng = random.Random(seed)
    game = Game(get_variant("falcon"))
    out = []
    for _ in range(plies):
        move = rng.choice(sorted(game.position.legal_moves(), key=game.position.uci))
        out.append(game.position.uci(move))
        game.push(move)
    return out


SwitchOn = Callable[[int], SimBoard]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[SwitchOn, str, Path]]:
    seats = tuple(
        Seat(n, f"table-{n}", fingerprint(board_keys()[n - 1].public), *PLAYERS[n - 1])
        for n in range(1, 9)
    )
    rnd = Round(EVENT, 4, seats, "Spring Open 2025", "Falcon Club")
    with ExitStack() as stack:
        broker = Broker(tmp_path / "broker")
        stack.callback(broker.close)
        settings = BrokerSettings(broker.url)

        def switch_on(number: int) -> SimBoard:
            """Board ``number`` is switched on: it broadcasts on a thread of its own."""
            made = SimBoard(number, lambda will: MqttTransport(settings, will=will), thread=True)
            stack.callback(made.broadcast.close)
            return made

        transport = MqttTransport(settings, waiting=1024)
        stack.callback(transport.close)
        pgn = tmp_path / "round4.pgn"
        hall = Hall(rnd, transport, pgn)
        server = ServerThread(lambda: make_round_app(hall), host="127.0.0.1", port=0)
        server.start()
        stack.callback(server.stop)
        yield switch_on, server.url, pgn


def live(driver: Any) -> bool:
    return bool(driver.find_element(By.ID, "link").text == "live")


def plies(driver: Any) -> list[str]:
    return [t.get_attribute("data-plies") for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]


def test_a_round_on_a_projector_and_a_phone_live_with_its_pgn(browser, room, shots):
    switch_on, url, pgn = room
    boards = [switch_on(n) for n in range(1, 8)]  # board 8 is not switched on yet
    one, three = boards[0], boards[2]
    ended = {2: ("1-0", "resignation"), 5: ("1/2-1/2", "agreement"), 6: ("0-1", "time forfeit")}
    lengths = [23, 30, 18, 41, 36, 52, 12]
    for n, (board, plies_played) in enumerate(zip(boards, lengths, strict=True), start=1):
        result, reason = ended.get(n, ("*", ""))
        board.hub.publish(
            snapshot(line(n, plies_played), clock=900.0, result=result, reason=reason)
        )
    browser.set_window_size(1920, 1080)
    browser.get(url)
    expected = [str(n) for n in lengths]
    wait_for(browser, lambda d: plies(d)[:7] == expected, "the boards did not arrive")
    results = browser.find_elements(By.CSS_SELECTOR, ".results-table tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[2].text for r in results] == [
        "*",
        "1-0",
        "*",
        "*",
        "1/2-1/2",
        "0-1",
        "*",
        "*",
    ]
    tiles = browser.find_elements(By.CSS_SELECTOR, ".tile")
    assert "waiting for the board" in tiles[7].text and "Olga Petrova" in tiles[7].text
    height = browser.execute_script("return window.innerHeight")
    assert tiles[7].rect["y"] + tiles[7].rect["height"] <= height  # every board in sight

    one.hub.publish(snapshot(line(1, 24), clock=900.0))  # a move, live
    wait_for(browser, lambda d: plies(d)[0] == "24", "the move did not arrive")
    three.broadcast.close()  # board 3 is switched off: it says goodbye
    wait_for(
        browser,
        lambda d: d.find_element(By.ID, "board-3").get_attribute("data-presence") == "offline",
        "board 3 is not shown offline",
    )
    assert "board offline" in browser.find_element(By.ID, "board-3").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board-3 use.piece")) > 20  # its game stays
    wait_for(browser, live, "the page's stream is not open")
    browser.save_screenshot(str(shots / "hall-projector.png"))

    # Board 3 is back, two moves on; board 8 is switched on at last.
    switch_on(3).hub.publish(snapshot(line(3, 20), clock=900.0))
    switch_on(8).hub.publish(snapshot(line(8, 2), clock=900.0))
    wait_for(
        browser,
        lambda d: plies(d)[2] == "20" and plies(d)[7] == "2",
        "board 3 or board 8 did not fill in",
    )
    for n in (3, 8):
        assert browser.find_element(By.ID, f"board-{n}").get_attribute("data-presence") == "live"
    assert "offline" not in browser.find_element(By.ID, "board-3").text

    browser.set_window_size(390, 844)
    browser.get(url)
    wait_for(browser, lambda d: plies(d)[0] == "24" and live(d), "the phone did not get the round")
    tiles = browser.find_elements(By.CSS_SELECTOR, ".tile")
    assert tiles[0].location["y"] == tiles[1].location["y"] < tiles[2].location["y"]  # two a row
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone
    browser.save_screenshot(str(shots / "hall-phone.png"))
    tiles[1].find_element(By.CSS_SELECTOR, "a.open").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "detail").is_displayed(), "no board 2")
    detail = browser.find_element(By.ID, "detail")
    assert "Board 2: Chen Wei – Dara Murphy" in detail.text and "1-0 (resignation)" in detail.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#detail-moves .san[data-ply]")) == 30
    browser.save_screenshot(str(shots / "hall-board-phone.png"))
    browser.find_element(By.CSS_SELECTOR, "#detail a[href='#']").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "boards").is_displayed(), "no way back")

    with urllib.request.urlopen(url + "round.pgn", timeout=10) as response:
        games = read_games(response.read().decode())
    now_played = [24, 30, 20, *lengths[3:], 2]
    assert [(tags["Round"], tags["Board"], len(game.moves)) for tags, game in games] == [
        ("4", str(n), plies_played) for n, plies_played in enumerate(now_played, 1)
    ]
    assert games[1][0]["Result"] == "1-0" and games[0][0]["White"] == "Anna Schmidt"
    served = lambda d: pgn.exists() and pgn.read_text() == read_back(url)  # noqa: E731
    wait_for(browser, served, "the PGN file is not the one served")


def read_back(url: str) -> str:
    with urllib.request.urlopen(url + "round.pgn", timeout=10) as response:
        return str(response.read().decode())
