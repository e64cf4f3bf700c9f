"""Remote play in a real browser (headless Chromium, as the page's other
browser tests): a person plays one side from the live page against the
simulated board, which lights their move for the hand to carry out.

Needs Debian's ``chromium`` and ``chromium-driver``; without them these
tests skip and say so.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from boardctl.board import Role
from boardctl.daemon.activity import SettingUp
from boardctl.remote.journal import JOURNAL_NAME, Journal
from boardctl.remote.match import new_game
from boardctl.rules import WHITE, Game, get_variant
from boardctl.rules.game import Termination
from boardctl.storage.store import GameStore
from boardctl.web.snapshot import WebAction

from ..remote.live import LiveSide, LiveThread, Options
from . import test_browser as base

# The browser and its checks are the page's other browser tests' own.
pytestmark = base.pytestmark
browser = base.browser
no_policy_violations = base.no_policy_violations
wait_for = base.wait_for

GEO = get_variant("falcon").geometry
PROMOTING = "k9/10/10/10/10/10/1p8/9K w - - 0 1"  # Black's pawn on b2 is about to queen


def sq(name: str) -> int:
    return GEO.parse_square(name)


@pytest.fixture
def board(tmp_path: Path, request: Any) -> Iterator[LiveThread]:
    marker = request.node.get_closest_marker("start")
    if marker is not None:
        bound_game(tmp_path, marker.args[0])
    live = LiveThread(tmp_path, Options(colour=WHITE, carry_out=False))
    live.start()
    yield live
    live.stop()


def bound_game(folder: Path, fen: str) -> None:
    """A remote game from ``fen``, already bound to a stored game, as a board
    that restarts in the middle of one finds it."""
    kept = new_game("falcon", WHITE, None, "", 0.0, start_fen=fen)
    journal = Journal(folder / JOURNAL_NAME)
    journal.create(kept)
    store = GameStore(folder / "games.sqlite3")
    game_id = store.new_game("falcon", Game(fen=fen).start_fen, "Player", "", "remote", 0.0)
    journal.update(kept.header.key, local_game=game_id)
    store.close()
    journal.close()


def side(live: LiveThread) -> LiveSide:
    assert live.side is not None
    return live.side


def join(browser: Any, live: LiveThread) -> None:
    """Open the page with the code in its link and start playing."""
    match = side(live).link.match
    assert match is not None
    browser.delete_all_cookies()
    browser.get(f"{side(live).url}?join={match.kept.code}")
    wait_for(browser, lambda d: d.find_element(By.ID, "code-form").is_displayed(), "no code form")
    browser.find_element(By.ID, "player-name").send_keys("Anna")
    browser.find_element(By.CSS_SELECTOR, "#code-form button").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "play").is_displayed(), "not let in")


def piece(browser: Any, name: str) -> Any:
    return browser.find_element(By.CSS_SELECTOR, f"#board use.piece[data-square='{sq(name)}']")


def targets(browser: Any) -> set[str]:
    circles = browser.find_elements(By.CSS_SELECTOR, "#board circle.target")
    return {GEO.name(int(c.get_attribute("data-target"))) for c in circles}


def page_seq(driver: Any) -> str:
    """The length of the log the page has drawn."""
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-remote-seq"))


def text(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def centre(element: Any) -> tuple[int, int]:
    box = element.rect
    return round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2)


def remote_line(live: LiveThread) -> tuple[str, ...]:
    match = side(live).link.match
    return match.record.state.line if match is not None else ()


def board_moves(live: LiveThread, uci: str) -> None:
    live.do(lambda s: s.move(uci))
    live.wait_for(lambda s: remote_line(live)[-1:] == (uci,), f"{uci} did not reach the log")


def test_the_player_moves_from_the_page_and_the_board_lights_it(browser, board):
    join(browser, board)
    assert "You play Black" in browser.find_element(By.ID, "you").text
    board_moves(board, "e2e4")
    wait_for(browser, lambda d: page_seq(d) == "1", "the board's move did not reach the page")
    assert targets(browser) == set()
    piece(browser, "e7").click()
    wait_for(browser, lambda d: targets(d) == {"e6", "e5"}, "the pawn's moves are not shown")
    browser.find_element(By.CSS_SELECTOR, f"#board circle.target[data-target='{sq('e5')}']").click()
    board.wait_for(lambda s: remote_line(board) == ("e2e4", "e7e5"), "the move was not taken")
    board.wait_for(lambda s: s.daemon.reconciler.engine_move is not None, "not lit")
    lit = {GEO.name(q): r for q, r in side(board).daemon.scene().squares.items()}
    assert lit == {"e7": Role.ENGINE_FROM, "e6": Role.ENGINE_PATH, "e5": Role.ENGINE_TO}
    board.do(lambda s: s.move("e7e5"))  # the hand carries it out
    board.wait_for(lambda s: len(s.daemon.game.moves) == 2, "not carried out on the board")
    wait_for(browser, lambda d: "e5" in d.find_element(By.ID, "moves").text, "not in the list")


def test_a_piece_dragged_to_its_square_is_a_move(browser, board):
    join(browser, board)
    board_moves(board, "d2d4")
    wait_for(browser, lambda d: page_seq(d) == "1", "the board's move did not reach the page")
    knight = piece(browser, "i8")  # Black's knight on i8 goes to h6
    square = browser.find_element(By.CSS_SELECTOR, "#board rect[data-name='h6']")
    # By offset: picking the knight up draws the board again, with new elements.
    start, end = centre(knight), centre(square)
    chain = ActionChains(browser).move_to_element(knight).click_and_hold()
    chain.move_by_offset(end[0] - start[0], end[1] - start[1]).release().perform()
    board.wait_for(lambda s: remote_line(board) == ("d2d4", "i8h6"), "the drag was not a move")


@pytest.mark.start(PROMOTING)
def test_the_player_chooses_the_piece_a_pawn_becomes(browser, board):
    join(browser, board)
    board_moves(board, "j1j2")
    wait_for(browser, lambda d: page_seq(d) == "1", "the board's move did not reach the page")
    piece(browser, "b2").click()
    wait_for(browser, lambda d: "b1" in targets(d), "the promotion square is not shown")
    browser.find_element(By.CSS_SELECTOR, f"#board circle.target[data-target='{sq('b1')}']").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "promotion").is_displayed(), "no chooser")
    names = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#promotion button")]
    assert "Falcon" in names and "Knight" in names
    browser.find_element(By.CSS_SELECTOR, "#promotion button[data-uci='b2b1f']").click()
    board.wait_for(lambda s: remote_line(board) == ("j1j2", "b2b1f"), "not promoted to a falcon")


def test_a_takeback_asked_on_the_page_is_answered_at_the_board(browser, board):
    join(browser, board)
    board_moves(board, "e2e4")
    wait_for(browser, lambda d: page_seq(d) == "1", "the board's move did not reach the page")
    piece(browser, "e7").click()
    browser.find_element(By.CSS_SELECTOR, f"#board circle.target[data-target='{sq('e5')}']").click()
    board.wait_for(lambda s: s.daemon.reconciler.engine_move is not None, "not lit")
    board.do(lambda s: s.move("e7e5"))
    board.wait_for(lambda s: len(s.daemon.game.moves) == 2, "not carried out")
    browser.find_element(By.ID, "ask-takeback").click()
    board.wait_for(
        lambda s: "asks to take back" in s.daemon.status().prompt, "the board's screen did not ask"
    )
    waiting = "Waiting for the board"
    wait_for(browser, lambda d: waiting in text(d, "play-status"), "the page does not wait")
    board.do(lambda s: s.press("ok"))  # the board player says yes with the OK button
    board.wait_for(lambda s: remote_line(board) == ("e2e4",), "not taken back")
    board.do(lambda s: setattr(s.options, "carry_out", True))  # the hand puts the pawn back
    board.wait_for(
        lambda s: not isinstance(s.daemon.activity, SettingUp) and len(s.daemon.game.moves) == 1,
        "not guided",
    )
    wait_for(browser, lambda d: "Your move" in d.find_element(By.ID, "you").text, "not their move")


def test_the_board_offers_a_draw_and_the_player_accepts_it(browser, board):
    join(browser, board)
    board_moves(board, "e2e4")
    board.do(lambda s: s.daemon.web_action(WebAction("draw"), s.daemon.now))  # the owner's page
    wait_for(browser, lambda d: d.find_element(By.ID, "remote-asks").is_displayed(), "not asked")
    assert "offers a draw" in browser.find_element(By.ID, "remote-ask-text").text
    browser.find_element(By.ID, "accept").click()
    board.wait_for(lambda s: s.daemon.game.ending() is not None, "the board did not end it")
    ending = side(board).daemon.game.ending()
    assert ending is not None and ending.termination is Termination.AGREEMENT
    wait_for(browser, lambda d: "draw agreed" in d.find_element(By.ID, "you").text, "not shown")


def test_a_spectator_is_never_taken_for_the_player(browser, board):
    join(browser, board)
    board_moves(board, "e2e4")
    browser.delete_all_cookies()  # another person, on the same page
    browser.refresh()
    wait_for(browser, lambda d: d.find_element(By.ID, "code-form").is_displayed(), "no code form")
    assert not browser.find_element(By.ID, "play").is_displayed()
    piece(browser, "e7").click()
    assert targets(browser) == set()
    match = side(board).link.match
    assert match is not None
    status = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/remote/move', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        f"body: JSON.stringify({{key: '{match.game_key}', seq: 1, uci: 'e7e5'}})}})"
        ".then((r) => done(r.status));"
    )
    assert status == 401
    assert remote_line(board) == ("e2e4",)
