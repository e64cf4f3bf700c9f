"""The pages in a real browser: headless Chromium driven by Selenium, against
a simulated game that runs in real time on a thread.

Needs Debian's ``chromium`` and ``chromium-driver`` (``make test`` installs
them when it runs as root); without them these tests skip and say so.
Screenshots go to ``$BOARDCTL_WEB_SHOTS`` when it is set (``docs/web`` for the
README: ``BOARDCTL_WEB_SHOTS=docs/web make test``), else to a temporary folder.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from boardctl.engine import Engine
from boardctl.review.analysis import analyse
from boardctl.review.background import Reviewer
from boardctl.review.grading import Grade
from boardctl.rules import WHITE, Game, get_variant, parse_uci, san
from boardctl.storage.records import StoredGame
from boardctl.storage.store import GameStore
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub, Snapshot, WebAction

from ..review.games import ERRATIC, LIMITS, QUEEN_LOST, stored
from .chromium import CHROMIUM, DRIVER
from .helpers import LiveGame, ThinkingOpponent

PIN = "1357"
WAIT = 30.0  # seconds a page may take to show something (a loaded machine is slow)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium/chromedriver: install Debian's chromium and chromium-driver "
    "(make test does it as root)",
)


@pytest.fixture(scope="module")
def browser(shared_chromium: Any) -> Any:
    """The worker's Chromium (tests/conftest.py) as a module found it when each started its own:
    a blank page at a laptop's size, no cookie (every server of the tests is
    127.0.0.1, whatever its port, so one module's PIN cookie would reach the
    next one's pages), no cached file, nothing on the console."""
    driver = shared_chromium
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.set_window_size(1280, 800)
    driver.get_log("browser")
    return driver


@pytest.fixture(autouse=True)
def no_policy_violations(browser: Any) -> Iterator[None]:
    """Every page runs under its Content-Security-Policy without a violation
    (Chromium reports each one on the console)."""
    browser.get_log("browser")
    yield
    blocked = [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]
    assert blocked == []


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BOARDCTL_WEB_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def served(game: LiveGame, pin: str = "") -> Iterator[WebServer]:
    """``game`` started and its page served on a free port; both stopped after."""
    game.start()
    server = WebServer(game.hub, host="127.0.0.1", port=0, pin=pin, db_path=game.db)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        game.stop()


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[LiveGame, WebServer]]:
    game = LiveGame(tmp_path / "games.sqlite", game={"clock": "10+5"}, web={"pin": PIN})
    with served(game, pin=PIN) as server:
        yield game, server


@contextlib.contextmanager
def socket_port() -> Iterator[int]:
    """A port free a moment ago (the caller's server takes it next)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        yield probe.getsockname()[1]


@contextlib.contextmanager
def live_page(browser: Any, db: Path, **options: Any) -> Iterator[LiveGame]:
    """A :class:`LiveGame` with ``options`` and its page open in ``browser`` at a laptop's size."""
    game = LiveGame(db, **options)
    with served(game) as server:
        browser.set_window_size(1280, 800)
        browser.get(server.url)
        yield game


def wait_for(driver: Any, what: Callable[[Any], Any], message: str) -> Any:
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(what)
    except TimeoutException:
        pytest.fail(f"{message} (page: {driver.find_element(By.TAG_NAME, 'body').text!r})")


def text(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def keep_texts(driver: Any, element_id: str) -> None:
    """From now on, every text the element ``element_id`` shows, for :func:`texts_kept`."""
    driver.execute_script(
        """const element = document.getElementById(arguments[0]);
        const kept = (window.keptTexts ??= {})[arguments[0]] = [];
        new MutationObserver(() => kept.push(element.textContent)).observe(
            element, {childList: true, characterData: true, subtree: true});""",
        element_id,
    )


def texts_kept(driver: Any, element_id: str) -> list[str]:
    return list(driver.execute_script("return window.keptTexts[arguments[0]]", element_id))


def shown(element_id: str) -> Callable[[Any], bool]:
    """For :func:`wait_for`: the element ``element_id`` is displayed."""
    return lambda d: bool(d.find_element(By.ID, element_id).is_displayed())


def type_pin(driver: Any, button: str, pin: str = PIN) -> None:
    """Type ``pin`` in the page's PIN field and press ``button`` (a CSS selector)."""
    driver.find_element(By.ID, "pin").send_keys(pin)
    driver.find_element(By.CSS_SELECTOR, button).click()


def pieces(driver: Any) -> int:
    """Pieces drawn on the board (none until the sprites they use are in the page)."""
    if not driver.execute_script("return document.getElementById('wF') !== null"):
        return 0
    return len(driver.find_elements(By.CSS_SELECTOR, "#board use.piece"))


def test_the_page_shows_the_board_and_a_move_after_it_is_made(browser, board, shots):
    game, server = board
    browser.set_window_size(1280, 800)
    browser.get(server.url)
    wait_for(browser, lambda d: pieces(d) == 40, "the start position is not drawn")
    assert text(browser, "turn") == "White to move"
    assert text(browser, "white-clock") == "10:00"
    for uci in ("e2e4", "e7e5", "i1h3"):
        game.do(uci)
    wait_for(browser, lambda d: "Nh3" in text(d, "moves"), "the moves did not appear")
    assert text(browser, "link") == "live"
    assert "1. e4 e5" in text(browser, "moves").replace("\n", " ")
    assert text(browser, "turn") == "Black to move"
    game.do("lift d8")  # Black's falcon: its open paths light up
    wait_for(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".ring.role-falcon-path"),
        "the lifted falcon's paths are not mirrored",
    )
    assert browser.find_elements(By.CSS_SELECTOR, "use.piece.lifted[data-piece=f]")
    browser.save_screenshot(str(shots / "web-live.png"))


def test_a_wrong_pin_is_refused_and_the_right_one_unlocks_the_actions(browser, board):
    game, server = board
    browser.get(server.url)
    wait_for(browser, shown("controls"), "no PIN form although a PIN is set")
    assert not browser.find_element(By.ID, "actions").is_displayed()
    type_pin(browser, "#pin-form button", "0000")
    wait_for(browser, lambda d: "wrong PIN" in text(d, "pin-status"), "a wrong PIN was not refused")
    assert not browser.find_element(By.ID, "actions").is_displayed()
    type_pin(browser, "#pin-form button")
    wait_for(browser, shown("actions"), "the right PIN did not unlock the actions")
    # Two players, no engine: no level to set.
    assert not browser.find_element(By.ID, "level-control").is_displayed()
    game.do("e2e4")
    wait_for(browser, lambda d: "e4" in text(d, "moves"), "the move did not appear")
    browser.find_element(By.CSS_SELECTOR, "#actions button[data-action=draw]").click()
    wait_for(browser, lambda d: "1/2-1/2" in text(d, "result"), "the draw did not reach the board")
    # The session is the cookie: a reload stays unlocked.
    browser.refresh()
    wait_for(browser, shown("actions"), "the session cookie was not kept")
    assert browser.execute_script("return document.cookie") == ""  # HttpOnly


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768)])
def test_the_projector_view_fits_the_screen_without_scrolling(browser, board, shots, size):
    game, server = board
    for uci in (
        "e2e4",
        "e7e5",
        "d2d4",
        "e5d4",
        "e1d2",
        "b8c6",
        "a2a3",
        "a7a6",
        "b2b3",
        "j7j6",
        "c2c3",
        "d4c3",
    ):
        game.do(uci)
    browser.set_window_size(*size)
    browser.get(server.url + "?view=projector")
    wait_for(
        browser,
        lambda d: (
            d.execute_script("return document.body.dataset.plies") == "12" and pieces(d) == 38
        ),
        "the game did not arrive",
    )
    overflow = browser.execute_script(
        "const e = document.documentElement;"
        "return [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight,"
        " document.body.scrollHeight - window.innerHeight];"
    )
    assert overflow[0] <= 0 and overflow[1] <= 0 and overflow[2] <= 0, overflow
    assert not browser.find_element(By.ID, "controls").is_displayed()
    check_projector_panel(browser)
    if size == (1920, 1080):
        browser.save_screenshot(str(shots / "web-projector.png"))


def projector_panel(driver: Any) -> dict[str, Any]:
    """Where the projector's panel puts things (CSS pixels, boxes as
    [left, top, right, bottom])."""
    return dict(
        driver.execute_script("""
        const box = (el) => {
          const r = el.getBoundingClientRect();
          return [r.left, r.top, r.right, r.bottom];
        };
        const shown = (el) => el.getClientRects().length > 0;
        const moves = document.getElementById('moves');
        let above = moves.previousElementSibling;  // the last thing shown above the moves
        while (above && !shown(above)) above = above.previousElementSibling;
        const rows = [...moves.querySelectorAll('li')];
        const turn = document.getElementById('turn');
        return {
          viewport: [innerWidth, innerHeight],
          panel: box(document.querySelector('.panel')),
          shown: [...document.querySelector('.panel').children].filter(shown)
            .filter((el) => el !== moves).map((el) => [el.id, box(el)]),
          above: box(above),
          moves: box(moves),
          rows: rows.map(box),
          turn: box(turn),
          turn_px: parseFloat(getComputedStyle(turn).fontSize),
          evalbar: shown(document.getElementById('evalbar')) ?
            box(document.getElementById('evalbar')) : null,
        };""")
    )


def check_projector_panel(driver: Any) -> dict[str, Any]:
    """The projector's panel, read from the back of a room: whose turn in
    letters that grow with the screen; the move list right under the players
    and the evaluation, its latest move in sight; nothing cut off."""
    got = projector_panel(driver)
    width, height = got["viewport"]
    left, top, right, bottom = got["panel"]
    assert got["turn_px"] >= max(32.0, 0.025 * width, 0.05 * height), got["turn_px"]
    for name, (x0, y0, x1, y1) in got["shown"]:
        assert left <= x0 and x1 <= right + 0.5 and top <= y0 and y1 <= bottom + 0.5, name
    if got["rows"]:
        assert got["rows"][0][1] - got["above"][3] <= 0.04 * height, (got["rows"][0], got["above"])
        # The latest move in sight, in the list's own box and so in the panel.
        last, (_, list_top, _, list_bottom) = got["rows"][-1], got["moves"]
        assert list_top - 0.5 <= last[1] and last[3] <= min(list_bottom, bottom) + 0.5, last
    return got


def test_phone_and_dark_layouts(browser, board, shots):
    game, server = board
    for uci in ("e2e4", "e7e5"):
        game.do(uci)
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    try:
        browser.set_window_size(1280, 800)
        browser.get(server.url)
        wait_for(
            browser,
            lambda d: "e5" in text(d, "moves") and pieces(d) == 40,
            "the moves did not appear",
        )
        background = browser.execute_script(
            "return getComputedStyle(document.body).backgroundColor"
        )
        assert background == "rgb(22, 23, 26)"
        browser.save_screenshot(str(shots / "web-dark.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.set_window_size(390, 844)
    browser.get(server.url)
    wait_for(
        browser, lambda d: "e5" in text(d, "moves") and pieces(d) == 40, "the moves did not appear"
    )
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390
    browser.save_screenshot(str(shots / "web-phone.png"))


def test_the_page_draws_the_rings_the_leds_show_the_hint_too(browser, tmp_path, shots):
    """A teaching board's hint lights its move on the board: the page draws
    the same squares in the same roles (it drew no ring for it)."""
    from ..daemon_fakes import EvaluatingOpponent

    with live_page(
        browser,
        tmp_path / "games.sqlite",
        adviser=lambda: EvaluatingOpponent({}, [("e2e4", 30), ("d2d4", 25), ("i1h3", 20)]),
        game={"mode": "teaching"},
    ) as game:
        wait_for(browser, lambda d: pieces(d) == 40, "the board did not arrive")
        game.do("hint")

        def drawn(driver: Any) -> dict[int, str]:
            rings = driver.find_elements(By.CSS_SELECTOR, "#board circle.ring")
            return {
                int(r.get_attribute("data-square")): next(
                    c[5:] for c in r.get_attribute("class").split() if c.startswith("role-")
                )
                for r in rings
            }

        wait_for(browser, lambda d: "Best: e4" in text(d, "prompt"), "no hint on the page")
        square = get_variant("falcon").geometry.parse_square
        hint = {square("e2"): "hint-from", square("e4"): "hint-to"}
        wait_for(browser, lambda d: drawn(d) == hint, "the hint's rings are not drawn")
        assert game.lit == hint
        browser.save_screenshot(str(shots / "web-hint.png"))


def test_a_stored_game_is_replayed_move_by_move(browser, board, shots):
    game, server = board
    for uci in ("e2e4", "e7e5", "i1h3"):
        game.do(uci)
    browser.set_window_size(390, 844)  # the gallery's shot is a phone's, beside web-phone.png
    browser.get(server.url)
    wait_for(browser, lambda d: "Nh3" in text(d, "moves"), "the moves did not appear")
    browser.get(server.url + "games")
    browser.find_element(By.LINK_TEXT, "1").click()
    wait_for(browser, lambda d: text(d, "ply") == "3 / 3", "the replay did not load")
    browser.find_element(By.ID, "prev").click()
    assert text(browser, "ply") == "2 / 3"
    assert browser.execute_script("return document.body.dataset.ply") == "2"
    browser.find_element(By.ID, "first").click()
    assert text(browser, "ply") == "0 / 3" and pieces(browser) == 40
    browser.find_element(By.ID, "next").click()
    assert text(browser, "ply") == "1 / 3"
    browser.save_screenshot(str(shots / "web-replay.png"))


def test_the_page_reconnects_and_resyncs_after_the_server_comes_back(browser, board):
    game, server = board
    browser.get(server.url)
    wait_for(browser, lambda d: text(d, "link") == "live", "the stream did not open")
    port = server.port
    server.stop()
    wait_for(browser, lambda d: text(d, "link") == "reconnecting…", "the drop was not noticed")
    game.do("e2e4")  # made while the page is cut off
    again = WebServer(game.hub, host="127.0.0.1", port=port, pin=PIN, db_path=game.db)
    again.start()
    try:
        wait_for(browser, lambda d: "e4" in text(d, "moves"), "no resync after reconnecting")
        assert text(browser, "link") == "live"
    finally:
        again.stop()


def test_an_engine_game_shows_the_engine_move_and_the_evaluation(browser, tmp_path, shots):
    opponent = ThinkingOpponent(["e7e5", "b8c6", "d7d6"], [-20, -35, 40])
    game = LiveGame(
        tmp_path / "games.sqlite",
        opponent=opponent,
        game={"mode": "engine", "human": "white", "clock": "5+3"},
    )
    with served(game) as server:
        browser.set_window_size(1280, 800)
        for uci in ("e2e4", "e7e5", "i1h3", "b8c6", "d2d4"):
            game.do(uci)
        browser.get(server.url)
        wait_for(
            browser,
            lambda d: d.find_elements(By.CSS_SELECTOR, "#board .engine-arrow") and pieces(d) == 40,
            "the engine's move to carry out is not drawn",
        )
        assert browser.find_element(By.ID, "evalbar").is_displayed()
        assert browser.find_elements(By.CSS_SELECTOR, "#evalgraph polyline")
        browser.save_screenshot(str(shots / "web-engine.png"))


def test_the_hall_shows_two_boards_side_by_side_live(browser, tmp_path, shots):
    from boardctl.web.hall import Hall, make_hall_app
    from boardctl.web.server import ServerThread

    games = [LiveGame(tmp_path / f"board{n}.sqlite", game={"clock": "15+10"}) for n in (1, 2)]
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(served(game)) for game in games]
        hall = Hall(tuple((f"Table {n}", s.url) for n, s in enumerate(servers, start=1)))
        hall_server = ServerThread(lambda: make_hall_app(hall), host="127.0.0.1", port=0)
        hall_server.start()
        stack.callback(hall_server.stop)
        for uci in ("e2e4", "e7e5", "i1h3"):
            games[0].do(uci)
        for uci in ("d2d4", "d7d5"):
            games[1].do(uci)
        browser.set_window_size(1280, 800)
        browser.get(hall_server.url)

        def plies(driver: Any) -> list[str]:
            return [
                tile.get_attribute("data-plies")
                for tile in driver.find_elements(By.CSS_SELECTOR, ".tile")
            ]

        wait_for(
            browser,
            lambda d: (
                plies(d) == ["3", "2"] and len(d.find_elements(By.CSS_SELECTOR, ".tile use")) == 80
            ),
            "the boards did not arrive",
        )
        # Black's move is numbered as the move list numbers it, not as White's.
        tiles = browser.find_elements(By.CSS_SELECTOR, ".tile")
        assert "last 1\N{HORIZONTAL ELLIPSIS} d5" in tiles[1].text
        games[1].do("c2c4")
        wait_for(browser, lambda d: plies(d) == ["3", "3"], "the second board's move is missing")
        tiles = browser.find_elements(By.CSS_SELECTOR, ".tile")
        assert "last 2. Nh3" in tiles[0].text and "last 2. c4" in tiles[1].text
        assert tiles[0].location["y"] == tiles[1].location["y"]  # side by side
        browser.save_screenshot(str(shots / "web-hall.png"))


def test_hostile_names_stay_text_in_the_browser(browser, tmp_path):
    from boardctl.rules import Game
    from boardctl.storage.store import GameStore
    from boardctl.web.snapshot import Hub

    white = '<img src=x onerror="document.body.dataset.pwned = 1">'
    black = "<script>document.body.dataset.pwned = 2</script>\"'" + "x" * 10_000
    db = tmp_path / "games.sqlite"
    with GameStore(db) as store:
        store.new_game("falcon", Game().start_fen, white, black, "two-players", 0.0)
    server = WebServer(Hub(), host="127.0.0.1", port=0, db_path=db)
    server.start()
    try:
        browser.get(server.url + "games")
        cells = browser.find_elements(By.CSS_SELECTOR, "table.games td")
        assert cells[2].text == white and cells[3].text.startswith("<script>")
        browser.get(server.url + "games/1")
        wait_for(browser, lambda d: white in text(d, "players"), "the names did not appear")
        assert browser.execute_script("return document.body.dataset.pwned") is None
        assert not browser.find_elements(By.CSS_SELECTOR, "img")
    finally:
        server.stop()


def test_boardctl_sim_web_serves_the_simulated_board(browser, tmp_path):
    """The command a club tries first: the simulator window (SDL's dummy
    driver here) with its page."""
    import subprocess
    import sys

    pytest.importorskip("pygame")
    config = tmp_path / "config.toml"
    with socket_port() as port:
        config.write_text(
            f'[game]\nmode = "two-players"\n[web]\nbind = "127.0.0.1"\nport = {port}\n'
        )
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "SDL_VIDEODRIVER": "dummy",
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    child = subprocess.Popen(
        [sys.executable, "-m", "boardctl", "sim", "--web", "--config", str(config)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        said = [child.stderr.readline() for _ in range(1)]
        while "web page on" not in said[-1] and said[-1] and len(said) < 20:
            said.append(child.stderr.readline())
        assert f"web page on http://127.0.0.1:{port}/" in said[-1], said
        browser.get(f"http://127.0.0.1:{port}/")
        wait_for(
            browser,
            lambda d: pieces(d) == 40 and text(d, "link") == "live",
            "the simulator's board is not on the page",
        )
        assert text(browser, "turn") == "White to move"
    finally:
        child.terminate()
        child.wait(WAIT)


# ------------------------------------------------------------ the hexagon
HEX_MOVES = ("h5h7", "i8i6", "e3d7")


@pytest.fixture
def hex_board(tmp_path: Path) -> Iterator[tuple[LiveGame, WebServer]]:
    game = LiveGame(tmp_path / "games.sqlite", game={"variant": "falcon-hex", "clock": "10+5"})
    with served(game) as server:
        yield game, server


def drawn_hexagon(driver: Any) -> dict[str, Any]:
    """What the page drew: each cell's name, fill and centre, each piece's
    cell, letter and centre, the names along the edges."""
    return dict(
        driver.execute_script("""
        const svg = document.getElementById('board');
        const middle = (el) => {
          const b = el.getBBox();
          return [b.x + b.width / 2, b.y + b.height / 2];
        };
        return {
          cells: [...svg.querySelectorAll('polygon.sq')].map((p) =>
            [p.dataset.name, getComputedStyle(p).fill, ...middle(p)]),
          // A piece's box, not its glyph: the sprites stand on a base.
          pieces: [...svg.querySelectorAll('use.piece')].map((u) =>
            [Number(u.dataset.square), u.dataset.piece,
             u.x.baseVal.value + u.width.baseVal.value / 2,
             u.y.baseVal.value + u.height.baseVal.value / 2]),
          labels: [...svg.querySelectorAll('text.coord')].map((t) => t.textContent),
        };""")
    )


def expected_pieces(game: Game) -> dict[int, str]:
    pos = game.position
    out = {}
    for cell in range(pos.geometry.size):
        piece = pos.piece_at(cell)
        if piece is not None:
            kind, colour = piece
            out[cell] = kind.symbol.upper() if colour == WHITE else kind.symbol.lower()
    return out


def check_hexagon(driver: Any, game: Game) -> None:
    geo = game.position.geometry
    drawn = drawn_hexagon(driver)
    assert [name for name, *_ in drawn["cells"]] == [geo.name(c) for c in range(121)]
    fills = {fill for _, fill, *_ in drawn["cells"]}
    assert len(fills) >= 3  # three colours, plus the last move's
    assert {cell: letter for cell, letter, *_ in drawn["pieces"]} == expected_pieces(game)
    for cell, _, x, y in drawn["pieces"]:
        _, _, cx, cy = drawn["cells"][cell]
        assert abs(x - cx) < 0.5 and abs(y - cy) < 0.5, geo.name(cell)  # centred
    assert set("abcdefghijklm") <= set(drawn["labels"])


def test_a_hex_game_is_drawn_and_replayed(browser, hex_board, shots):
    game, server = hex_board
    for uci in HEX_MOVES:
        game.do(uci)
    expected = Game(get_variant("falcon-hex"))
    for uci in HEX_MOVES:
        expected.push_text(uci)
    browser.set_window_size(390, 844)
    browser.get(server.url)
    wait_for(
        browser,
        lambda d: (
            d.execute_script("return document.body.dataset.plies") == "3"
            and pieces(d) == len(expected_pieces(expected))
        ),
        "the hex game is not drawn",
    )
    assert browser.find_element(By.ID, "board").get_attribute("data-shape") == "hex"
    check_hexagon(browser, expected)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    assert "Fd7" in text(browser, "moves") or "d7" in text(browser, "moves")
    browser.save_screenshot(str(shots / "web-hex-phone.png"))

    game.do("lift i11")  # Black's falcon: its open paths light up on the hexagon
    browser.set_window_size(1920, 1080)
    browser.get(server.url + "?view=projector")
    wait_for(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".ring.role-falcon-path"),
        "the lifted falcon's paths are not mirrored",
    )
    overflow = browser.execute_script(
        "const e = document.documentElement;"
        "return [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight];"
    )
    assert overflow[0] <= 0 and overflow[1] <= 0, overflow
    browser.save_screenshot(str(shots / "web-hex-projector.png"))

    browser.get(server.url + "games/1")
    wait_for(browser, lambda d: text(d, "ply") == "3 / 3", "the replay did not load")
    check_hexagon(browser, expected)
    browser.find_element(By.ID, "first").click()
    check_hexagon(browser, Game(get_variant("falcon-hex")))
    browser.find_element(By.ID, "next").click()
    assert text(browser, "ply") == "1 / 3"
    browser.save_screenshot(str(shots / "web-hex-replay.png"))


def test_a_hex_engine_move_is_an_arrow_on_the_hexagon_turned_for_black(browser, tmp_path, shots):
    opponent = ThinkingOpponent(["h5h7"], [15])
    with live_page(
        browser,
        tmp_path / "games.sqlite",
        opponent=opponent,
        game={"variant": "falcon-hex", "mode": "engine", "human": "black"},
    ):
        wait_for(
            browser,
            lambda d: d.find_elements(By.CSS_SELECTOR, "#board .engine-arrow"),
            "the engine's move to carry out is not drawn",
        )
        geo = get_variant("falcon-hex").geometry
        drawn = drawn_hexagon(browser)
        centre = {name: (x, y) for name, _, x, y in drawn["cells"]}
        assert centre["g2"][1] < centre["g12"][1]  # Black at the bottom
        # On a laptop the whole hexagon is in sight beside the panel.
        assert browser.execute_script(
            "return document.getElementById('board').getBoundingClientRect().bottom"
            " <= window.innerHeight"
        )
        arrow = browser.find_element(By.CSS_SELECTOR, "#board .engine-arrow")
        start = (float(arrow.get_attribute("x1")), float(arrow.get_attribute("y1")))
        end = (float(arrow.get_attribute("x2")), float(arrow.get_attribute("y2")))
        assert start == pytest.approx(centre["h5"], abs=0.5)
        # The shaft stops short of h7, on the line from h5 to it.
        (x0, y0), (x1, y1) = centre["h5"], centre["h7"]
        assert abs((x1 - x0) * (end[1] - y0) - (y1 - y0) * (end[0] - x0)) < 1.0
        assert (end[0] - x0) * (x1 - x0) + (end[1] - y0) * (y1 - y0) > 0
        assert len(drawn["pieces"]) == len(expected_pieces(Game(get_variant("falcon-hex"))))
        assert geo.size == len(drawn["cells"])
        # Said as the screen's banner says it, with the hexagon's cell names.
        start = Game(get_variant("falcon-hex")).position
        named = san(start, parse_uci(start, "h5h7"))
        assert engine_waiting(browser) == f"Engine: {named} \N{EN DASH} h5 to h7"
        browser.save_screenshot(str(shots / "web-hex-engine.png"))


# ------------------------------------------------------------ the Speak switch
# A stand-in for the browser's voice, put in before the page's own scripts run:
# it notes each cancel and each text spoken in window.__speech, and refuses to
# speak, as Chrome does on a page not yet touched, while window.__refuse is set;
# its voices are window.__voices (one unless a test empties it first), and
# window.__voicesCame() says that they changed, as a browser's "voiceschanged".
SPEECH_STUB = """
window.__speech = [];
window.__refuse = false;
if (!window.__voices) window.__voices = [{name: "Stand-in", lang: "en-GB"}];
const voiceListeners = [];
window.__voicesCame = () => {
  for (const listener of voiceListeners) listener(new Event("voiceschanged"));
};
const fakeVoice = {
  speaking: false, pending: false, paused: false,
  speak(utterance) {
    window.__speech.push(["speak", utterance.text]);
    if (window.__refuse) {
      setTimeout(() => utterance.dispatchEvent(
        new SpeechSynthesisErrorEvent("error", {utterance, error: "not-allowed"})));
    }
  },
  cancel() { window.__speech.push(["cancel"]); },
  pause() {}, resume() {}, getVoices() { return window.__voices; },
  addEventListener(kind, listener) { if (kind === "voiceschanged") voiceListeners.push(listener); },
};
Object.defineProperty(window, "speechSynthesis", {value: fakeVoice, configurable: true});
"""
NO_SPEECH = "delete window.speechSynthesis; delete window.SpeechSynthesisUtterance;"
START = Game().start_fen


@contextlib.contextmanager
def before_scripts(driver: Any, source: str) -> Iterator[None]:
    """``source`` runs in every page loaded meanwhile, before the page's scripts."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    try:
        yield
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )


def words(said_seq: int, said: str, **more: Any) -> Snapshot:
    """A snapshot of the start position that carries the board's words."""
    return Snapshot(
        start_fen=START, fen=START, white="Ana", black="Ben", said_seq=said_seq, said=said, **more
    )


@pytest.fixture
def talking_board(browser: Any) -> Iterator[tuple[Hub, WebServer]]:
    """A page fed straight from a hub, as the daemon feeds it; the browser
    remembers no Speak switch from an earlier test on the same port."""
    hub = Hub()
    hub.publish(words(0, ""))
    server = WebServer(hub, host="127.0.0.1", port=0)
    server.start()
    browser.set_window_size(1280, 800)
    browser.execute_cdp_cmd(
        "Storage.clearDataForOrigin",
        {"origin": server.url.rstrip("/"), "storageTypes": "local_storage"},
    )
    yield hub, server
    server.stop()


@pytest.fixture
def voice(browser: Any) -> Iterator[None]:
    with before_scripts(browser, SPEECH_STUB):
        yield


def said(driver: Any) -> list[list[str]]:
    return list(driver.execute_script("return window.__speech"))


def shown_seq(driver: Any) -> str | None:
    seq = driver.execute_script("return document.body.dataset.seq")
    return None if seq is None else str(seq)


def shows_latest(driver: Any, hub: Hub, message: str = "the snapshot did not arrive") -> None:
    """Wait until the page has drawn ``hub``'s latest snapshot."""
    latest = str(hub.latest.seq)
    wait_for(driver, lambda d: shown_seq(d) == latest, message)


def open_live(driver: Any, server: WebServer, view: str = "") -> None:
    driver.get(server.url + view)
    shows_latest(driver, server.hub)


def publish(driver: Any, hub: Hub, snapshot: Snapshot) -> None:
    """Publish ``snapshot`` and wait until the page has drawn it (and so has
    heard its words)."""
    assert hub.publish(snapshot)
    shows_latest(driver, hub)


def switch_speech_on(driver: Any) -> None:
    """Tick the page's speech switch and wait for the latest words to be said
    (a cancel, then the text)."""
    driver.find_element(By.ID, "speak").click()
    wait_for(driver, lambda d: len(said(d)) == 2, "switching on said nothing")


def speaking_page(
    driver: Any, talking_board: tuple[Hub, WebServer], first: Snapshot | None = None
) -> Hub:
    """The live page open with speech switched on, after the board said
    ``first`` (or nothing, and the page says "Speech on"); the page has said
    two things by then."""
    hub, server = talking_board
    if first is not None:
        hub.publish(first)
    open_live(driver, server)
    switch_speech_on(driver)
    return hub


def test_the_speak_switch_is_off_at_first_and_then_the_page_says_nothing(
    browser, talking_board, voice
):
    hub, server = talking_board
    open_live(browser, server)
    box = browser.find_element(By.ID, "speak")
    assert box.is_displayed() and box.is_enabled() and not box.is_selected()
    assert not browser.find_element(By.ID, "speak-note").is_displayed()
    publish(browser, hub, words(1, "White plays e4."))
    publish(browser, hub, words(2, "Black plays e5."))
    assert said(browser) == []


def test_switched_on_it_says_the_words_on_show_then_each_new_one_once(
    browser, talking_board, voice
):
    hub, server = talking_board
    hub.publish(words(4, "White plays e4."))
    open_live(browser, server, "?view=projector")
    assert said(browser) == []  # words said before the page opened are old news
    box = browser.find_element(By.ID, "speak")
    box.send_keys(Keys.SPACE)  # a real checkbox: the keyboard turns it on
    wait_for(browser, lambda d: said(d), "switching on said nothing")
    assert box.is_selected()
    publish(browser, hub, words(5, "Engine plays falcon d1 to f4, takes the pawn."))
    publish(browser, hub, words(6, "Check."))
    publish(browser, hub, words(6, "Check.", prompt="Black to move"))  # the same words again
    port = server.port
    server.stop()
    wait_for(browser, lambda d: text(d, "link") == "reconnecting…", "the drop was not noticed")
    hub.publish(words(6, "Check.", prompt="Black is thinking"))  # while the page is cut off
    again = WebServer(hub, host="127.0.0.1", port=port)
    again.start()
    try:
        shows_latest(browser, hub, "no resync after reconnecting")
    finally:
        again.stop()
    # Each text once, in order, each after a cancel that cuts a stale one short.
    assert said(browser) == [
        ["cancel"],
        ["speak", "White plays e4."],
        ["cancel"],
        ["speak", "Engine plays falcon d1 to f4, takes the pawn."],
        ["cancel"],
        ["speak", "Check."],
    ]


def test_with_nothing_said_yet_switching_on_says_speech_on_and_off_is_quiet_at_once(
    browser, talking_board, voice
):
    hub, server = talking_board
    open_live(browser, server)
    browser.find_element(By.CSS_SELECTOR, ".speak label").click()
    wait_for(browser, lambda d: said(d) == [["cancel"], ["speak", "Speech on"]], "no Speech on")
    browser.find_element(By.ID, "speak").click()
    wait_for(browser, lambda d: len(said(d)) == 3, "switching off did not stop the voice")
    assert said(browser)[2] == ["cancel"]
    publish(browser, hub, words(1, "White plays e4."))
    assert len(said(browser)) == 3


def test_the_switch_stays_on_after_a_reload_and_old_words_are_not_said_again(
    browser, talking_board, voice
):
    hub = speaking_page(browser, talking_board, words(1, "White plays e4."))
    browser.refresh()
    shows_latest(browser, hub, "the page did not come back")
    assert browser.find_element(By.ID, "speak").is_selected()
    assert said(browser) == []  # a new page, and White's move is not news to it
    publish(browser, hub, words(2, "Black plays e5."))
    assert said(browser) == [["cancel"], ["speak", "Black plays e5."]]


def test_words_from_a_restarted_daemon_are_counted_from_where_it_starts_again(
    browser, talking_board, voice
):
    hub = speaking_page(browser, talking_board, words(40, "Draw agreed."))
    publish(browser, hub, words(1, "New game."))  # a lower number: the count began again
    publish(browser, hub, words(2, "White plays e4."))
    assert said(browser)[2:] == [["cancel"], ["speak", "White plays e4."]]


def test_words_the_browser_refuses_before_a_tap_are_said_at_the_first_tap(
    browser, talking_board, voice
):
    hub = speaking_page(browser, talking_board)
    browser.execute_script("window.__refuse = true")
    publish(browser, hub, words(1, "White plays e4."))
    note = browser.find_element(By.ID, "speak-note")
    wait_for(browser, lambda d: note.is_displayed(), "a refusal is not shown")
    assert "tap" in note.text
    browser.execute_script("window.__refuse = false")
    browser.find_element(By.ID, "turn").click()
    wait_for(browser, lambda d: len(said(d)) == 6, "the tap did not say the refused words")
    assert said(browser)[4:] == [["cancel"], ["speak", "White plays e4."]]
    assert not note.is_displayed()


def test_a_browser_that_cannot_speak_shows_the_switch_disabled_and_why(browser, talking_board):
    hub, server = talking_board
    with before_scripts(browser, NO_SPEECH):
        browser.set_window_size(390, 844)
        open_live(browser, server)
        assert browser.execute_script("return 'speechSynthesis' in window") is False
        box = browser.find_element(By.ID, "speak")
        assert not box.is_enabled() and not box.is_selected()
        note = browser.find_element(By.ID, "speak-note")
        assert note.is_displayed() and note.text == "this browser cannot speak"
        assert box.get_attribute("aria-describedby") == "speak-note"
        publish(browser, hub, words(1, "White plays e4."))  # and nothing breaks
        assert text(browser, "turn") == "White to move"


def test_a_browser_with_no_voice_shows_the_switch_disabled_until_a_voice_comes(
    browser, talking_board
):
    """The speech API with no voice to speak with (Chromium on Linux without
    speech-dispatcher): the switch was enabled and said nothing."""
    _, server = talking_board
    with before_scripts(browser, "window.__voices = [];" + SPEECH_STUB):
        browser.set_window_size(390, 844)
        open_live(browser, server)
        box = browser.find_element(By.ID, "speak")
        assert not box.is_enabled() and not box.is_selected()
        note = browser.find_element(By.ID, "speak-note")
        assert note.is_displayed() and note.text == "this browser has no voice to speak with"
        # The browser's voices come late: the switch is the usual one then.
        browser.execute_script("window.__voices.push({name: 'Late', lang: 'en'}); __voicesCame()")
        wait_for(browser, lambda d: d.find_element(By.ID, "speak").is_enabled(), "still disabled")
        assert not browser.find_element(By.ID, "speak-note").is_displayed()
        browser.find_element(By.ID, "speak").click()
        wait_for(browser, lambda d: said(d) == [["cancel"], ["speak", "Speech on"]], "silent")


# ------------------------------------------------------------ as the board's screen says it
# The scores of the tester's report, and texts at the edges of the screen's
# mapping (exact halves, whitespace, underscores, other scripts' digits, no number).
SCORES = ("+0.35", "-0.29", "0.00", "M3", "M-2", "-12.50", "-1.20", "M1", "M-12", "+99.00")
ODD_SCORES = (
    *("", "-0.00", "0.004", "-0.005", "0.125", "-0.375", "0.625", "0.875", "2.5", "1e2", ".5"),
    *(" -1.5\n", "\xa03", "1_000.25", "1__0", "M0", "M+4", "M 3 ", "M1_0", "Mx", "M", "?"),
    *("inf", "-Infinity", "nan", "1e400", "9007199254740993", "M99999999999999999999"),
    *("\uff11\uff12.\uff15", "M\U0001d7db", "0x10", "+-1", "1e", "12.5.1"),
)


@pytest.fixture
def fed_page(browser: Any) -> Iterator[tuple[Hub, WebServer]]:
    """A page fed straight from a hub, as the daemon feeds it."""
    hub = Hub()
    hub.publish(Snapshot(start_fen=START, fen=START, white="Ana", black="Ben"))
    server = WebServer(hub, host="127.0.0.1", port=0)
    server.start()
    browser.set_window_size(1280, 800)
    yield hub, server
    server.stop()


def scored(score: str) -> Snapshot:
    """The start position with the engine's score, and the bar's value for it."""
    from boardctl.web.snapshot import score_value

    return Snapshot(
        start_fen=START,
        fen=START,
        white="Ana",
        black="Ben",
        engine="ready",
        level=8,
        score=score,
        evals=(score_value(score),),
    )


@pytest.mark.parametrize("view", ["", "?view=projector"])
def test_the_score_is_said_in_words_as_the_screen_says_it(browser, fed_page, view):
    from boardctl.scores import score_words

    hub, server = fed_page
    open_live(browser, server, view)
    for score in SCORES:
        words = score_words(score)
        publish(browser, hub, scored(score))
        assert text(browser, "score") == words, score
        bar = browser.find_element(By.ID, "evalbar")
        assert bar.is_displayed()
        assert (
            bar.get_attribute("title") == bar.get_attribute("aria-label") == f"evaluation: {words}"
        )
        # Nowhere else does the page show the bare number.
        shown = browser.find_element(By.TAG_NAME, "body").text
        assert score not in shown.replace(words, ""), (score, shown)
    # The page's mapping is the screen's, edge for edge.
    page = browser.execute_script("return arguments[0].map(scoreWords)", list(ODD_SCORES))
    assert page == [score_words(score) for score in ODD_SCORES]
    publish(browser, hub, scored(""))
    assert not browser.find_element(By.ID, "score-line").is_displayed()


@pytest.mark.parametrize("view", ["", "?view=projector"])
def test_against_the_engine_the_bar_is_there_before_its_first_score(browser, fed_page, view):
    """After a resume the projector showed no bar until the engine had searched
    (the scores of the moves before a restart are not kept)."""
    hub, server = fed_page
    open_live(browser, server, view)
    resumed = replace(scored(""), evals=(None, None, None), level=8, engine="ready")
    publish(browser, hub, resumed)
    bar = browser.find_element(By.ID, "evalbar")
    assert bar.is_displayed() and bar.get_attribute("aria-label") == "evaluation: none yet"
    fill = browser.execute_script("return document.getElementById('evalfill').style.height")
    assert fill == "50%"  # even
    assert not browser.find_element(By.ID, "evalgraph").is_displayed()
    publish(browser, hub, scored("+0.35"))
    assert bar.get_attribute("aria-label") == "evaluation: White +0.35"
    # Two players: no engine, no bar.
    publish(browser, hub, replace(scored(""), evals=(), level=None, engine="off"))
    assert not browser.find_element(By.ID, "evalbar").is_displayed()


def engine_waiting(driver: Any) -> str:
    """What the page says of the engine's move to carry out ("" when nothing)."""
    banner = driver.find_element(By.ID, "engine-move")
    return str(banner.text) if banner.is_displayed() else ""


@pytest.fixture
def engine_game(tmp_path: Path) -> Iterator[tuple[LiveGame, WebServer]]:
    """The player (White) against a scripted engine; the page can set its level."""
    opponent = ThinkingOpponent(["e7e5", "b8c6", "d7d6"], [29, -35, 40])
    game = LiveGame(
        tmp_path / "games.sqlite",
        opponent=opponent,
        game={"mode": "engine", "human": "white", "clock": "5+3"},
        web={"pin": PIN},
    )
    with served(game, pin=PIN) as server:
        yield game, server


def test_the_engines_move_waiting_on_the_board_is_said_until_it_is_played(
    browser, engine_game, shots
):
    game, server = engine_game
    game.do("e2e4")  # the engine answers e7e5, for the player to carry out
    browser.set_window_size(1280, 800)
    for view in ("", "?view=projector"):
        browser.get(server.url + view)
        wait_for(
            browser,
            lambda d: engine_waiting(d) == "Engine: e5 \N{EN DASH} e7 to e5",
            "the engine's move to carry out is not said",
        )
    game.do("e7e5")
    wait_for(browser, lambda d: "e5" in text(d, "moves"), "the engine's move was not played")
    wait_for(browser, lambda d: engine_waiting(d) == "", "the engine's move is still said")
    browser.get(server.url)
    assert engine_waiting(browser) == ""


def test_without_its_san_the_engines_move_is_said_by_its_squares(browser, fed_page):
    hub, server = fed_page
    geo = get_variant("falcon").geometry
    waiting = Snapshot(
        start_fen=START,
        fen=START,
        engine="ready",
        engine_move=(geo.parse_square("g4"), geo.parse_square("h3")),
    )
    for view in ("", "?view=projector"):
        open_live(browser, server, view)
        publish(browser, hub, waiting)
        assert engine_waiting(browser) == (
            "Engine's move: g4 to h3, waiting to be played on the board"
        )
        publish(browser, hub, Snapshot(start_fen=START, fen=START, engine="ready"))
        assert engine_waiting(browser) == ""


def contrast(driver: Any, element_id: str) -> float:
    """The WCAG contrast ratio of an element's text against the panel behind it."""
    colours = driver.execute_script(
        "const el = document.getElementById(arguments[0]);"
        "return [getComputedStyle(el).color,"
        " getComputedStyle(document.querySelector('.panel')).backgroundColor];",
        element_id,
    )

    def luminance(css: str) -> float:
        channels = [int(part) / 255 for part in css[css.index("(") + 1 : -1].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(c) for c in colours), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def unlock(driver: Any) -> None:
    wait_for(driver, shown("controls"), "no PIN form although a PIN is set")
    type_pin(driver, "#pin-form button")
    wait_for(driver, shown("actions"), "not unlocked")


def level_typed(browser: Any, server: WebServer, value: str) -> Any:
    """The live page, unlocked, with ``value`` typed in its level field (not sent)."""
    browser.get(server.url)
    unlock(browser)
    wait_for(browser, lambda d: "level" in text(d, "engine"), "the engine's level is not shown")
    level = browser.find_element(By.ID, "level")
    level.clear()
    level.send_keys(value)
    return level


def test_a_level_set_from_the_page_is_confirmed_beside_the_control_then_the_note_goes(
    browser, engine_game, shots
):
    game, server = engine_game
    browser.set_window_size(1280, 800)
    level = level_typed(browser, server, "12")
    browser.find_element(By.CSS_SELECTOR, "#level-control button[data-action=level]").click()
    note = browser.find_element(By.ID, "level-status")
    # The scripted engine rates level 12 at 600 + 50 x 12.
    wait_for(
        browser, lambda d: note.text == "Engine level set to 12 (about 1200)", "no confirmation"
    )
    assert game.hub.latest.level == 12  # said once the board has the level, not before
    assert "level 12 · about 1200" in text(browser, "engine")
    browser.save_screenshot(str(shots / "web-level.png"))
    # Readable, and beside the control that set it.
    size = browser.execute_script(
        "return parseFloat(getComputedStyle(document.getElementById('level-status')).fontSize)"
    )
    assert size >= 16 and contrast(browser, "level-status") >= 4.5
    button = browser.find_element(By.CSS_SELECTOR, "#level-control button[data-action=level]")
    assert 0 <= note.rect["y"] - button.rect["y"] < 2.5 * button.rect["height"]
    wait_for(browser, lambda d: note.text == "", "the confirmation does not go")
    # A value the board refuses says why, in the same place, for a few
    # seconds: every text the note shows is kept, so that a loaded machine's
    # slow polling cannot miss it.
    keep_texts(browser, "level-status")
    level.clear()
    browser.find_element(By.CSS_SELECTOR, "#level-control button[data-action=level]").click()
    wait_for(
        browser,
        lambda d: any("whole number from 0 to 20" in t for t in texts_kept(d, "level-status")),
        "no refusal",
    )
    assert game.hub.latest.level == 12


def test_a_level_typed_but_not_yet_sent_is_kept_through_the_boards_snapshots(browser, engine_game):
    # A snapshot that came between WebDriver's clear() (which leaves the field
    # unfocused) and the click put the board's level back in the field: the
    # board was sent its own level, and the refusal the test waited for never came.
    game, server = engine_game
    level = level_typed(browser, server, "7")
    browser.execute_script("document.getElementById('level').blur()")
    game.do("e2e4")  # snapshots: the move, the engine's answer
    wait_for(browser, lambda d: "e4" in text(d, "moves"), "the move is not shown")
    assert level.get_attribute("value") == "7"
    browser.find_element(By.CSS_SELECTOR, "#level-control button[data-action=level]").click()
    wait_for(browser, lambda d: game.hub.latest.level == 7, "the level typed was not sent")


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768)])
def test_the_projector_view_of_an_engine_game_reads_from_the_back_of_the_room(
    browser, engine_game, shots, size
):
    game, server = engine_game
    for uci in ("e2e4", "e7e5", "i1h3"):  # the engine answers Nc6, still to be carried out
        game.do(uci)
    browser.set_window_size(*size)
    browser.get(server.url + "?view=projector")
    wait_for(
        browser,
        lambda d: engine_waiting(d).startswith("Engine: Nc6") and pieces(d) == 40,
        "the engine's move is not said",
    )
    got = check_projector_panel(browser)
    width = got["viewport"][0]
    bar = got["evalbar"]
    assert bar is not None
    # The bar: wide enough to read across the room, as tall as the board.
    assert bar[2] - bar[0] >= max(28.0, 0.02 * width), bar
    board = browser.find_element(By.ID, "board").rect
    assert bar[3] - bar[1] >= 0.9 * board["height"]
    # The engine's move to carry out: as large as the players' names at least.
    banner = browser.find_element(By.ID, "engine-move")
    names = browser.find_element(By.ID, "white-row")
    banner_px = float(banner.value_of_css_property("font-size").removesuffix("px"))
    assert banner_px >= max(
        24.0, float(names.value_of_css_property("font-size").removesuffix("px"))
    )
    if size == (1920, 1080):
        browser.save_screenshot(str(shots / "web-projector-engine.png"))


def test_a_long_game_keeps_its_latest_moves_in_sight_on_the_projector(browser, fed_page):
    hub, server = fed_page
    sans = ("Nh3", "Nc6", "Ng1", "Nb8") * 15 + ("e4", "Qh4")
    browser.set_window_size(1024, 768)
    open_live(browser, server, "?view=projector")
    publish(browser, hub, Snapshot(start_fen=START, fen=START, moves=sans, sans=sans))
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(rows) == 31 and rows[-1].get_attribute("textContent") == "31.e4Qh4"
    check_projector_panel(browser)  # the last row in sight, in the list's box


# Notes, from before the page's scripts run, what every early frame (each
# requestAnimationFrame runs just before a frame is painted) and the page at
# DOMContentLoaded show: cells drawn, and pieces that can be seen (a <use>
# draws nothing until its sprite is in the page); null before the board is parsed.
FRAMES_STUB = """
window.__frames = [];
const drawn = () => {
  const board = document.getElementById("board");
  if (!board) return null;
  const sprites = document.getElementById("wF") !== null;
  return [board.querySelectorAll(".sq").length,
          sprites ? board.querySelectorAll("use.piece").length : 0];
};
(function watch() {
  window.__frames.push(drawn());
  if (window.__frames.length < 20) requestAnimationFrame(watch);
})();
document.addEventListener("DOMContentLoaded", () => { window.__loaded = drawn(); });
"""


@pytest.mark.parametrize("view", ["", "?view=projector"])
def test_the_position_is_drawn_at_once_without_waiting_for_the_event_stream(browser, board, view):
    game, server = board
    for uci in ("e2e4", "e7e5"):
        game.do(uci)
    wait_for(browser, lambda d: len(game.hub.latest.moves) == 2, "the moves were not made")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
    try:
        with before_scripts(browser, FRAMES_STUB):
            browser.set_window_size(1920, 1080)
            browser.get(server.url + view)
            wait_for(
                browser,
                lambda d: d.execute_script("return window.__frames.length") >= 20,
                "the page paints no frames",
            )
        frames = browser.execute_script("return window.__frames")
        assert browser.execute_script("return window.__loaded") == [80, 40]
        # The first frame that shows the board shows the position: never the
        # cells without their pieces, nor an empty space where the board goes.
        assert frames[-1] == [80, 40] and all(f in (None, [80, 40]) for f in frames), frames
        assert text(browser, "link") != "live"  # the stream never opened
        assert "e5" in text(browser, "moves") and text(browser, "turn") == "White to move"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.execute_cdp_cmd("Network.disable", {})


# ------------------------------------------------------------ reviews
REVIEW_WAIT = 60.0  # seconds a review from the page may take: its process starts Python


@pytest.fixture
def reviewed(tmp_path: Path) -> Iterator[tuple[WebServer, StoredGame]]:
    """A stored game with its review (ERRATIC, reviewed at a depth cap, so
    the same on any machine), served by a board that reviews games."""
    db = tmp_path / "games.sqlite"
    game = Game()
    for uci in ERRATIC:
        game.push_text(uci)
    review = analyse(game, Engine(seed=0), LIMITS, 1_700_000_000.0)
    with GameStore(db) as store:
        game_id = stored(store, game.start_fen, ERRATIC, result="0-1")
        store.save_review(game_id, review)
        kept = store.load(game_id)
    hub = Hub()
    hub.publish(Snapshot(reviews=()))
    server = WebServer(hub, host="127.0.0.1", port=0, pin=PIN, db_path=db)
    server.start()
    yield server, kept
    server.stop()


def graph_points(driver: Any) -> list[tuple[float, float]]:
    points = driver.find_element(By.CSS_SELECTOR, "#reviewgraph polyline.curve")
    return [tuple(map(float, p.split(","))) for p in points.get_attribute("points").split()]


def marked_plies(review: Any) -> dict[int, str]:
    """The marked moves of a stored review: ply → glyph."""
    return {
        ply: Grade.of_nag(p.nag).glyph
        for ply, p in enumerate(review.positions)
        if p.nag is not None
    }


def shown_marks(driver: Any) -> dict[int, str]:
    """The marks on the page's move list (ply → glyph), checked against the graph's."""
    listed = {}
    for span in driver.find_elements(By.CSS_SELECTOR, "#moves .san.mark"):
        ply = int(span.get_attribute("data-ply")) + 1
        listed[ply] = span.text[len(span.text.rstrip("?!")) :]
    dots = driver.find_elements(By.CSS_SELECTOR, "#reviewgraph circle.mark")
    assert sorted(int(dot.get_attribute("data-ply")) for dot in dots) == sorted(listed)
    return listed


def arrow(driver: Any, kind: str) -> tuple[str, str]:
    line = driver.find_element(By.CSS_SELECTOR, f"#board .{kind}-arrow")
    return line.get_attribute("data-from"), line.get_attribute("data-to")


def test_a_reviewed_game_shows_its_graph_its_marks_and_the_better_move_as_an_arrow(
    browser, reviewed, shots
):
    server, kept = reviewed
    review = kept.review
    assert review is not None
    marks = marked_plies(review)
    assert set(marks.values()) == {"?!", "?", "??"}  # every grade, for the page to show
    browser.set_window_size(1280, 800)
    browser.get(f"{server.url}games/{kept.id}")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#reviewgraph .curve"), "no graph")
    points = graph_points(browser)
    assert len(points) == len(ERRATIC) + 1  # one a ply, and the start
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert shown_marks(browser) == marks
    blunders = sum(glyph == "??" for glyph in marks.values())
    assert f"{blunders} blunder{'s' if blunders > 1 else ''}" in text(browser, "review-status")
    blunder = next(ply for ply, glyph in marks.items() if glyph == "??")
    browser.find_element(By.CSS_SELECTOR, f"#moves .san[data-ply='{blunder - 1}']").click()
    wait_for(
        browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .better-arrow"), "no arrow"
    )
    # The position the move was played in, the better move and the move played as arrows.
    assert text(browser, "ply") == f"{blunder - 1} / {len(ERRATIC)}"
    best = review.positions[blunder - 1].best
    assert best is not None
    assert arrow(browser, "better") == (best[:2], best[2:4])
    assert arrow(browser, "played") == (ERRATIC[blunder - 1][:2], ERRATIC[blunder - 1][2:4])
    replay = Game()
    for uci in ERRATIC[: blunder - 1]:
        replay.push_text(uci)
    better = san(replay.position, parse_uci(replay.position, best))
    assert f"was a blunder: {better} was better" in text(browser, "advice")
    browser.save_screenshot(str(shots / "web-review.png"))
    # A mark on the graph does the same; any other step leaves the arrows.
    other = min(ply for ply in marks if ply != blunder)
    browser.find_element(By.CSS_SELECTOR, f"#reviewgraph circle.mark[data-ply='{other}']").click()
    assert text(browser, "ply") == f"{other - 1} / {len(ERRATIC)}"
    best = review.positions[other - 1].best
    assert best is not None and arrow(browser, "better") == (best[:2], best[2:4])
    browser.find_element(By.ID, "next").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .better-arrow")
    assert not browser.find_element(By.ID, "advice").is_displayed()


def test_on_a_phone_a_marked_move_brings_the_board_back_into_sight(browser, reviewed, shots):
    server, kept = reviewed
    marks = marked_plies(kept.review)
    browser.set_window_size(390, 844)
    browser.get(f"{server.url}games/{kept.id}")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#reviewgraph .curve"), "no graph")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    last = max(marks)
    move = browser.find_element(By.CSS_SELECTOR, f"#moves .san[data-ply='{last - 1}']")
    browser.execute_script("arguments[0].scrollIntoView()", move)
    move.click()
    wait_for(
        browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .better-arrow"), "no arrow"
    )
    top = browser.execute_script(
        "return document.getElementById('board').getBoundingClientRect().top"
    )
    assert abs(top) < 1
    assert browser.find_element(By.ID, "advice").is_displayed()
    browser.save_screenshot(str(shots / "web-review-phone.png"))


def test_the_review_button_asks_the_board_and_the_page_shows_the_review_when_ready(
    browser, tmp_path
):
    db = tmp_path / "games.sqlite"
    game = LiveGame(db, reviewer=Reviewer(db, LIMITS), review={"at_end": False})
    with served(game, pin=PIN) as server:
        for uci in QUEEN_LOST:
            game.do(uci)
        browser.get(server.url)
        wait_for(
            browser,
            lambda d: d.execute_script("return document.body.dataset.plies") == "4",
            "no moves",
        )
        game.hub.request(WebAction("resign"))
        wait_for(browser, lambda d: "0-1" in text(d, "result"), "the game did not end")
        browser.get(f"{server.url}games/1")
        wait_for(browser, lambda d: text(d, "review-status") == "Not reviewed yet.", "no status")
        assert not browser.find_element(By.ID, "review-button").is_displayed()
        type_pin(browser, "#review-pin button")
        wait_for(browser, shown("review-button"), "the PIN did not unlock the review")
        browser.find_element(By.ID, "review-button").click()
        try:
            WebDriverWait(browser, REVIEW_WAIT, poll_frequency=0.1).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "#reviewgraph .curve")
            )
        except TimeoutException:
            pytest.fail(f"the review did not come: {text(browser, 'review-status')!r}")
        assert len(graph_points(browser)) == len(QUEEN_LOST) + 1
        assert shown_marks(browser) == {3: "??"}
        assert "1 blunder" in text(browser, "review-status")
        # The live page, still on that game, says its review is ready and links to it.
        browser.get(server.url)
        wait_for(browser, lambda d: "Review ready" in text(d, "review-note"), "no word of it")
        link = browser.find_element(By.CSS_SELECTOR, "#review-note a")
        assert link.get_attribute("href") == f"{server.url}games/1"


# Every piece of text the live page shows, with the size it is drawn at in
# CSS pixels (an SVG text's font scaled as its board is) and its colour and
# the page's background as "rgb(r, g, b)".
SHOWN_TEXT = """
const out = [];
const background = getComputedStyle(document.body).backgroundColor;
for (const el of document.querySelectorAll('body *')) {
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const box = el.getBoundingClientRect();
  if (!own || box.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
  let size = parseFloat(getComputedStyle(el).fontSize);
  let colour = getComputedStyle(el).color;
  if (el instanceof SVGElement) {
    size = Number(el.getAttribute('font-size')) * el.getScreenCTM().a;
    colour = getComputedStyle(el).fill;
  }
  out.push([el.textContent.trim(), size, colour, background]);
}
return out;
"""


def _contrast(one: str, two: str) -> float:
    """WCAG 2's contrast ratio of two "rgb(r, g, b)" colours."""

    def luminance(text: str) -> float:
        channels = [int(c) / 255 for c in text[text.index("(") + 1 : -1].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("variant", ["falcon", "falcon-10x10", "falcon-hex"])
def test_on_a_phone_every_name_and_number_of_the_page_is_readable(browser, variant):
    """The board's coordinates were 6 px of grey on a 360 px phone.  Every
    text of the live page (the board's names, the moves, the clocks, the
    score beside the evaluation bar) is at least the layout's MIN_LABEL_PX
    high on a phone, in a colour that stands out of the background (WCAG AA,
    4.5:1)."""
    from boardctl.web.layout import MIN_LABEL_PX

    game, moves = Game(get_variant(variant)), []
    for _ in range(3):
        move = game.position.legal_moves()[0]
        moves.append(game.position.uci(move))
        game.push(move)
    pos = game.position
    snap = Snapshot(
        variant=variant,
        start_fen=game.start_fen,
        fen=pos.fen(),
        turn="black",
        moves=tuple(moves),
        sans=tuple(game.sans()),
        white="Ana",
        black="Ben",
        white_clock=293.0,
        black_clock=300.0,
        clock_running="black",
        engine="ready",
        level=8,
        score="+0.35",
        evals=(0.2, 0.3, 0.35, 0.35),
    )
    count = len(pos.geometry.squares(pos.colors[0] | pos.colors[1]))  # pieces to draw
    hub = Hub()
    hub.publish(snap)
    server = WebServer(hub, host="127.0.0.1", port=0)
    server.start()
    try:
        for width, height in ((360, 740), (390, 844)):
            browser.set_window_size(width, height)
            browser.get(server.url)
            wait_for(browser, lambda d: pieces(d) == count, "the board did not arrive")
            shown = browser.execute_script(SHOWN_TEXT)
            labels = {label[0] for label in snap.to_json()["board"]["labels"]}
            assert labels <= {row[0] for row in shown}, "the board's names are not all drawn"
            small = [(text, round(size, 2)) for text, size, _, _ in shown if size < MIN_LABEL_PX]
            assert small == [], f"at {width} px"
            faint = [
                (text, colour, ground)
                for text, _, colour, ground in shown
                if _contrast(colour, ground) < 4.5
            ]
            assert faint == [], f"at {width} px"
    finally:
        server.stop()
