"""The web server's endpoints, through aiohttp's test client, against a
daemon on a simulated board (stepped by hand) and a real game store."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from boardctl.review.status import ReviewStatus
from boardctl.rules import Game
from boardctl.rules.pgn import NAG_BLUNDER, read_games
from boardctl.storage.reviews import Review, ReviewedPosition
from boardctl.storage.store import GameStore
from boardctl.web import guard
from boardctl.web import server as web_server
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub, Snapshot, WebAction

from .helpers import SimGame, running

PIN = "2468"
CLK = re.compile(r"\{\[%clk (\d+):(\d\d):(\d\d)\]\}")
Check = Callable[[TestClient], Awaitable[None]]


def serve(hub: Hub, check: Check, *, pin: str = "", db: Path | None = None) -> None:
    async def main() -> None:
        async with TestClient(TestServer(make_app(hub, pin=pin, db_path=db))) as client:
            await check(client)

    asyncio.run(main())


@pytest.fixture
def game(tmp_path: Path):
    with running(tmp_path / "games.sqlite", game={"clock": "5+3"}) as sim:
        yield sim


# ------------------------------------------------------------ pages
def test_the_live_page_and_its_projector_view_are_html(game):
    async def check(client: TestClient) -> None:
        for path in ("/", "/?view=projector"):
            response = await client.get(path)
            assert response.status == 200
            assert response.content_type == "text/html"
            text = await response.text()
            assert 'id="board"' in text and "/static/live.js" in text
        text = await (await client.get("/?view=projector")).text()
        assert 'class="view-projector"' in text
        response = await client.get("/?view=<script>")
        assert response.status == 400
        assert "<script>" not in await response.text()

    serve(game.hub, check)


def test_static_assets_are_shipped_in_the_package(game):
    async def check(client: TestClient) -> None:
        for name, kind in (
            ("board.js", "javascript"),
            ("live.js", "javascript"),
            ("speak.js", "javascript"),
            ("replay.js", "javascript"),
            ("pin.js", "javascript"),
            ("review.js", "javascript"),
            ("starts.js", "javascript"),
            ("hall.js", "javascript"),
            ("style.css", "text/css"),
            ("pieces.svg", "image/svg+xml"),
        ):
            response = await client.get(f"/static/{name}")
            assert response.status == 200, name
            assert kind in response.content_type, (name, response.content_type)
        text = await (await client.get("/static/pieces.svg")).text()
        assert 'id="wF"' in text and 'id="bF"' in text
        assert (await client.get("/static/../server.py")).status in (403, 404)

    serve(game.hub, check)


ICON_LINK = re.compile(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">')


def test_every_page_names_an_icon_that_is_there(game):
    """A browser asks for every page's icon: it must be there (it was a 404)."""

    async def check(client: TestClient) -> None:
        for path in ("/", "/?view=projector", "/games", "/settings"):
            text = await (await client.get(path)).text()
            named = ICON_LINK.search(text)
            assert named is not None, f"{path} names no icon"
            icon = await client.get(named.group(1))
            assert icon.status == 200 and icon.content_type == "image/svg+xml", path
            assert "<svg" in await icon.text()
        # A browser that asks anyway finds the same icon.
        asked = await client.get("/favicon.ico")
        assert asked.status == 200 and asked.content_type == "image/svg+xml"

    serve(game.hub, check)


def initial_state(page: str) -> dict[str, Any] | None:
    """The snapshot a live page carries for its first drawing, if any."""
    found = re.search(r'<script type="application/json" id="initial-state">(.*?)</script>', page)
    return None if found is None else dict(json.loads(found.group(1)))


def test_the_live_page_carries_the_latest_snapshot_and_the_sprites_for_its_first_drawing(game):
    game.move("e2e4")

    async def check(client: TestClient) -> None:
        state = await (await client.get("/api/state")).json()
        for path in ("/", "/?view=projector"):
            response = await client.get(path)
            assert response.headers["Cache-Control"] == "no-cache"  # never an old position
            page = await response.text()
            assert initial_state(page) == state
            assert page.count('<symbol id="wF"') == 1

    serve(game.hub, check)


def test_names_in_the_pages_snapshot_cannot_close_its_element():
    hub = Hub()
    hub.publish(Snapshot(white=HOSTILE[0], black="</SCRIPT><script>alert(1)</script>&amp;"))

    async def check(client: TestClient) -> None:
        page = await (await client.get("/")).text()
        assert page.count("<script") == page.count("</script>") == 6  # the data and 5 scripts
        assert "alert" not in page.replace("\\u003cscript\\u003ealert", "")
        state = initial_state(page)
        assert state is not None and (state["white"], state["black"]) == (
            HOSTILE[0],
            "</SCRIPT><script>alert(1)</script>&amp;",
        )

    serve(hub, check)


def test_with_nothing_published_yet_the_page_waits_for_the_stream():
    async def check(client: TestClient) -> None:
        page = await (await client.get("/")).text()
        assert initial_state(page) is None and 'id="board"' in page

    serve(Hub(), check)


# ------------------------------------------------------------ feeds
def test_api_state_is_the_latest_snapshot_as_json(game):
    game.move("e2e4")

    async def check(client: TestClient) -> None:
        response = await client.get("/api/state")
        assert response.status == 200
        assert response.content_type == "application/json"
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        data = await response.json()
        assert data["moves"] == ["e2e4"] and data["sans"] == ["e4"]
        assert data["turn"] == "black" and data["result"] == "*"
        assert data["variant"] == "falcon" and data["board"]["shape"] == "square"
        assert len(data["board"]["cells"]) == 80 and data["board"]["cells"][0][0] == "a1"
        assert data["white_clock"] == 303.0 and data["clock_running"] == "black"
        assert data["seq"] == game.hub.latest.seq

    serve(game.hub, check)


@pytest.mark.parametrize("path", ["/api/state", "/live.pgn", "/games.pgn"])
def test_feeds_answer_304_until_they_change(game, path):
    async def check(client: TestClient) -> None:
        first = await client.get(path)
        assert first.status == 200
        etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
        same = await client.get(path, headers={"If-None-Match": etag})
        assert same.status == 304 and same.headers["ETag"] == etag
        assert await same.read() == b""
        since = await client.get(path, headers={"If-Modified-Since": modified})
        assert since.status == 304
        junk = await client.get(path, headers={"If-Modified-Since": "yesterday-ish"})
        assert junk.status == 200
        game.move("e2e4")
        changed = await client.get(path, headers={"If-None-Match": etag})
        assert changed.status == 200 and changed.headers["ETag"] != etag

    serve(game.hub, check, db=game.store.path)


def test_live_pgn_reads_back_to_the_same_game_with_its_clocks(game):
    for uci in ("e2e4", "e7e5", "i1h3", "b8c6"):
        game.move(uci)
    snap = game.hub.latest

    async def check(client: TestClient) -> None:
        response = await client.get("/live.pgn")
        assert response.content_type == "application/x-chess-pgn"
        text = await response.text()
        [(tags, replayed)] = read_games(text)
        assert tags["Variant"] == "Falcon"
        assert [replayed.position.uci(m) for m in replayed.moves] == list(snap.moves)
        clocks = [int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in CLK.findall(text)]
        assert clocks == [int(c) for c in snap.clocks_after if c is not None]
        assert len(clocks) == 4 and all(290 < c <= 312 for c in clocks)

    serve(game.hub, check)


def test_live_pgn_is_dated_as_the_stored_game_is(game):
    # The live game's Date was ????.??.?? while /games.pgn had the date:
    # broadcast tools read the live one.
    game.move("e2e4")

    async def check(client: TestClient) -> None:
        [(live, _)] = read_games(await (await client.get("/live.pgn")).text())
        stored = read_games(await (await client.get("/games.pgn")).text())
        [(tags, _)] = [(tags, g) for tags, g in stored if tags["Result"] == "*"]
        assert live["Date"] != "????.??.??"
        for name in ("Date", "UTCDate", "UTCTime"):
            assert live[name] == tags[name], name

    serve(game.hub, check, db=game.store.path)


def test_live_pgn_has_no_clock_comments_without_a_clock(tmp_path):
    sim = SimGame(tmp_path / "g.sqlite")
    sim.move("e2e4")

    async def check(client: TestClient) -> None:
        text = await (await client.get("/live.pgn")).text()
        assert "%clk" not in text and "1. e4 *" in text

    serve(sim.hub, check)
    sim.close()


def test_games_pgn_reads_back_to_the_stored_games(game):
    game.move("e2e4")
    game.move("e7e5")
    game.hub.request(WebAction("resign"))
    game.run(0.1)
    assert game.hub.latest.result == "0-1"  # White was to move, and resigned

    async def check(client: TestClient) -> None:
        response = await client.get("/games.pgn")
        assert response.status == 200 and response.content_type == "application/x-chess-pgn"
        games = read_games(await response.text())
        stored = game.store.games()
        assert len(games) == len(stored) == 1
        tags, replayed = games[0]
        assert [replayed.position.uci(m) for m in replayed.moves] == ["e2e4", "e7e5"]
        assert tags["Result"] == "0-1" and tags["Termination"] == "resignation"
        single = await client.get(f"/games/{stored[0].id}.pgn")
        assert single.status == 200
        assert "attachment" in single.headers["Content-Disposition"]
        assert read_games(await single.text())[0][1].moves == replayed.moves

    serve(game.hub, check, db=game.store.path)


def test_stored_games_list_replay_and_their_errors(game):
    game.move("e2e4")

    async def check(client: TestClient) -> None:
        listing = await client.get("/games")
        assert listing.status == 200 and "/games/1" in await listing.text()
        assert (await client.get("/games/1")).status == 200
        data = await (await client.get("/api/games/1")).json()
        assert data["sans"] == ["e4"] and len(data["fens"]) == 2
        assert data["moves"] == [[game.geo.parse_square("e2"), game.geo.parse_square("e4")]]
        for path in ("/api/games/99", "/games/99.pgn"):
            response = await client.get(path)
            assert response.status == 404 and "no game 99" in (await response.json())["error"]
        for bad in ("x", "-1", "1e3", "99999999999999999999", "%F0%9F%92%A3"):
            assert (await client.get(f"/games/{bad}")).status == 404, bad
            assert (await client.get(f"/api/games/{bad}")).status == 404, bad

    serve(game.hub, check, db=game.store.path)


# White has Re8 mate, plays a3, and Black's queen takes the rook with check;
# the review says so (the scores are the engine's, from the side to move).
MISSES_MATE = ("9k/7ppp/10/q9/10/10/P1P7/K3R5 w - - 0 1", ("a2a3", "a5e1"))
MISSES_MATE_REVIEW = Review(
    1_700_000_100.0,
    1.0,
    None,
    (
        ReviewedPosition(None, 1, "e1e8"),
        ReviewedPosition(900, None, "a5e1", NAG_BLUNDER),
        ReviewedPosition(-900, None, "a1b2"),
    ),
)


def stored_games(db: Path) -> tuple[int, int, int]:
    """An unfinished game, an ended one and the same ended and reviewed."""
    fen, moves = MISSES_MATE
    ids = []
    with GameStore(db) as store:
        for result in (None, "0-1", "0-1"):
            game_id = store.new_game("falcon", fen, "Ann", "Bob", "two-players", 1.7e9)
            for ply, uci in enumerate(moves, start=1):
                store.add_move(game_id, ply, uci, 1.7e9 + ply)
            if result is not None:
                store.finish(game_id, result, "resignation", 1.7e9 + 3)
            ids.append(game_id)
        store.save_review(ids[2], MISSES_MATE_REVIEW)
    return ids[0], ids[1], ids[2]


def test_a_review_is_asked_for_with_the_pin_and_only_for_an_ended_game(tmp_path):
    db = tmp_path / "games.sqlite"
    unfinished, ended, _ = stored_games(db)
    hub = Hub()
    hub.publish(Snapshot(reviews=()))  # a board that reviews games, reviewing none now

    async def check(client: TestClient) -> None:
        asked = {"kind": "review", "value": ended}
        assert (await client.post("/api/action", json=asked)).status == 401
        assert (await client.post("/api/login", json={"pin": PIN})).status == 200
        for game_id, status, words in (
            (99, 404, "no game 99"),
            (unfinished, 409, "has not ended"),
        ):
            response = await client.post("/api/action", json={"kind": "review", "value": game_id})
            assert response.status == status and words in (await response.json())["error"]
        assert hub.take_actions() == []
        assert (await client.post("/api/action", json=asked)).status == 202
        assert hub.take_actions() == [WebAction("review", ended)]

    serve(hub, check, pin=PIN, db=db)
    # A board that does not review games (no reviewer) refuses at once.
    serve(Hub(), check_refused(ended), pin=PIN, db=db)


def test_games_pgn_carries_a_review_once_the_board_says_it_has_landed(tmp_path):
    db = tmp_path / "games.sqlite"
    _, ended, _ = stored_games(db)
    hub = Hub()
    hub.publish(Snapshot(reviews=(ReviewStatus(ended, "running", 1, 3),)))

    async def check(client: TestClient) -> None:
        before = await (await client.get("/games.pgn")).text()
        assert before.count("$4") == 1  # the game reviewed before
        with GameStore(db) as store:  # as the review's process keeps it
            store.save_review(ended, MISSES_MATE_REVIEW)
        hub.publish(Snapshot(reviews=(ReviewStatus(ended, "done", 3, 3),)))
        after = await (await client.get("/games.pgn")).text()
        assert after.count("$4") == 2

    serve(hub, check, db=db)


def check_refused(game_id: int) -> Check:
    async def check(client: TestClient) -> None:
        assert (await client.post("/api/login", json={"pin": PIN})).status == 200
        response = await client.post("/api/action", json={"kind": "review", "value": game_id})
        assert response.status == 409 and "does not review" in (await response.json())["error"]

    return check


def test_a_reviewed_game_carries_its_review_and_an_unreviewed_one_where_it_stands(tmp_path):
    db = tmp_path / "games.sqlite"
    unfinished, ended, reviewed = stored_games(db)
    hub = Hub()
    hub.publish(Snapshot(reviews=(ReviewStatus(ended, "running", 2, 3),)))
    square = Game().position.geometry.parse_square

    async def check(client: TestClient) -> None:
        data = await (await client.get(f"/api/games/{reviewed}")).json()
        review = data["review"]
        assert data["reviewable"] and data["reviews"] and data["review_status"] is None
        # White's chances, from mating in one, to lost after a3 and after Qxe1+.
        assert review["win"] == [97.5, 3.5, 3.5]
        assert review["marks"] == [
            {
                "ply": 1,
                "glyph": "??",
                "kind": "blunder",
                "better": "Re8#",
                "better_move": [square("e1"), square("e8")],
                "before": "White mates in 1",
                "after": "Black +9.00",
            }
        ]
        data = await (await client.get(f"/api/games/{ended}")).json()
        assert data["review"] is None and data["reviewable"]
        assert data["review_status"] == {
            "game_id": ended,
            "state": "running",
            "done": 2,
            "total": 3,
            "note": "",
        }
        data = await (await client.get(f"/api/games/{unfinished}")).json()
        assert not data["reviewable"] and data["review_status"] is None

    serve(hub, check, db=db)


def test_without_a_store_the_lists_are_empty(tmp_path):
    async def check(client: TestClient) -> None:
        assert "No stored games yet" in await (await client.get("/games")).text()
        assert (await client.get("/games.pgn")).status == 200
        assert (await client.get("/api/games/1")).status == 503

    serve(Hub(), check, db=tmp_path / "none.sqlite")


# ------------------------------------------------------------ the stream
def test_events_push_a_full_snapshot_then_every_change(game):
    async def check(client: TestClient) -> None:
        response = await client.get("/api/events")
        assert response.content_type == "text/event-stream"

        async def next_state() -> dict[str, Any]:
            data = None
            while True:
                line = (await response.content.readline()).decode()
                if line.startswith("data: "):
                    data = line[6:]
                elif line == "\n" and data is not None:
                    import json

                    return dict(json.loads(data))

        first = await asyncio.wait_for(next_state(), 5)
        assert first["moves"] == [] and first["seq"] == game.hub.latest.seq
        game.move("e2e4")  # the store's connection belongs to this thread
        later = await asyncio.wait_for(next_state(), 5)
        while later["moves"] != ["e2e4"]:
            later = await asyncio.wait_for(next_state(), 5)
        assert later["seq"] > first["seq"]
        response.close()

    serve(game.hub, check)


def test_the_streams_of_one_address_are_bounded(game, monkeypatch):
    monkeypatch.setattr(guard, "STREAMS_PER_ADDRESS", 2)

    async def check(client: TestClient) -> None:
        streams = [await client.get("/api/events") for _ in range(2)]
        for stream in streams:
            await stream.content.readline()
        refused = await client.get("/api/events")
        assert refused.status == 503
        assert "at most 2 live streams from one address" in (await refused.json())["error"]
        streams[0].close()
        while client.app[web_server.STATE].seats.total == 2:
            await asyncio.sleep(0.01)
        again = await client.get("/api/events")  # a seat given back is free again
        assert again.status == 200
        for stream in (*streams, again):
            stream.close()

    serve(game.hub, check)


# ------------------------------------------------------------ controls
def test_no_pin_configured_means_no_actions(game):
    async def check(client: TestClient) -> None:
        answer = await (await client.get("/api/session")).json()
        assert (answer["actions"], answer["authorised"]) == (False, False)
        response = await client.post("/api/login", json={"pin": ""})
        assert response.status == 403
        response = await client.post("/api/action", json={"kind": "resign"})
        assert response.status == 403

    serve(game.hub, check)
    assert game.hub.take_actions() == []


def test_the_pin_is_refused_then_accepted_and_kept_in_a_strict_cookie(game):
    async def check(client: TestClient) -> None:
        assert (await client.post("/api/action", json={"kind": "resign"})).status == 401
        wrong = await client.post("/api/login", json={"pin": "1111"})
        assert wrong.status == 403 and "wrong PIN" in (await wrong.json())["error"]
        right = await client.post("/api/login", json={"pin": PIN})
        assert right.status == 200
        cookie = right.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and PIN not in cookie
        assert (await (await client.get("/api/session")).json())["authorised"] is True
        accepted = await client.post("/api/action", json={"kind": "level", "value": 7})
        assert accepted.status == 202

    serve(game.hub, check, pin=PIN)
    assert game.hub.take_actions() == [WebAction("level", 7)]


def test_a_forged_cookie_is_not_a_session(game):
    async def check(client: TestClient) -> None:
        client.session.cookie_jar.update_cookies({web_server.COOKIE: "0" * 64})
        assert (await client.post("/api/action", json={"kind": "draw"})).status == 401

    serve(game.hub, check, pin=PIN)


def test_wrong_pins_from_one_address_wait_and_say_how_long(game):
    async def check(client: TestClient) -> None:
        for _ in range(guard.OWN_TRIES):
            assert (await client.post("/api/login", json={"pin": "0000"})).status == 403
        refused = await client.post("/api/login", json={"pin": PIN})
        assert refused.status == 429
        assert refused.headers["Retry-After"] == str(int(guard.BACKOFF_FIRST))
        assert f"try again in {int(guard.BACKOFF_FIRST)} s" in (await refused.json())["error"]

    serve(game.hub, check, pin=PIN)


BAD_ACTIONS: list[tuple[Any, int]] = [
    ({"kind": "castle"}, 400),
    ({"kind": "<script>alert(1)</script>"}, 400),
    ({"kind": None}, 400),
    ({}, 400),
    ([1, 2], 400),
    ("resign", 400),
    ({"kind": "level"}, 400),
    ({"kind": "level", "value": 21}, 400),
    ({"kind": "level", "value": -1}, 400),
    ({"kind": "level", "value": 3.5}, 400),
    ({"kind": "level", "value": True}, 400),
    ({"kind": "level", "value": "5"}, 400),
    ({"kind": "level", "value": 10**40}, 400),
    ({"kind": "resign", "value": 1}, 400),
    ({"kind": "resign", "value": 0}, 400),
    ({"kind": "review"}, 400),
    ({"kind": "review", "value": 0}, 400),
    ({"kind": "review", "value": "1"}, 400),
    ({"kind": "review", "value": True}, 400),
    ({"kind": "review", "value": 10**40}, 400),
]


def test_every_bad_input_gets_a_clear_4xx_and_reaches_no_daemon(game):
    async def check(client: TestClient) -> None:
        assert (await client.post("/api/login", json={"pin": PIN})).status == 200
        for body, status in BAD_ACTIONS:
            response = await client.post("/api/action", json=body)
            assert response.status == status, body
            assert "error" in await response.json(), body
        raw = [
            (b"{not json", "application/json", 400),
            (b"\xff\xfe", "application/json", 400),
            (b"kind=resign", "application/x-www-form-urlencoded", 415),
            (b'{"kind": "resign"}', "text/plain", 415),
            (b'{"kind": "' + b"x" * 10_000 + b'"}', "application/json", 413),
        ]
        for data, kind, status in raw:
            response = await client.post("/api/action", data=data, headers={"Content-Type": kind})
            assert response.status == status, (data[:20], kind)
            assert "Traceback" not in await response.text()
        for pin in (None, 1234, "", "x" * 100, ["2468"]):
            response = await client.post("/api/login", json={"pin": pin})
            assert response.status in (400, 413), pin
        assert (await client.get("/api/action")).status == 405
        assert (await client.get("/nowhere")).status == 404

    serve(game.hub, check, pin=PIN)
    assert game.hub.take_actions() == []


HOSTILE = [
    "<script>alert('x')</script>",
    "\"quoted\" & 'single' <b>",
    "x" * 10_000,
    "</td></tr></table><img src=x onerror=alert(1)>",
]


def test_hostile_names_from_the_store_are_escaped(tmp_path):
    db = tmp_path / "games.sqlite"
    with GameStore(db) as store:
        for name in HOSTILE:
            game_id = store.new_game(
                "falcon", Game().start_fen, name, name[::-1], "two-players", 0.0
            )
            store.finish(game_id, "*", name[:50], 1.0)

    async def check(client: TestClient) -> None:
        text = await (await client.get("/games")).text()
        for name in HOSTILE:
            assert name not in text or name == "x" * 10_000
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
        assert "<img" not in text and "<b>" not in text
        assert "&quot;quoted&quot; &amp;" in text
        data = await (await client.get("/api/games/1")).json()
        assert data["white"] == HOSTILE[0]  # JSON carries the text; the page sets textContent
        pgn = await (await client.get("/games.pgn")).text()
        assert [tags["White"] for tags, _ in read_games(pgn)] == HOSTILE

    serve(Hub(), check, db=db)


BREAKING = ['Ann"]\n[Result "1-0"]', "Bo\r\n\r\n1. e4 1-0", "tab\tnul\x00esc\x1b"]


def test_no_stored_or_live_name_can_break_the_pgn_feeds(tmp_path):
    # However a name with a newline got into the store (an older version, a
    # peer), /games.pgn and /live.pgn stay one tag per line and read back.
    db = tmp_path / "games.sqlite"
    with GameStore(db) as store:
        for name in BREAKING:
            store.new_game("falcon", Game().start_fen, name, "Bo", "two-players", 0.0)
    hub = Hub()
    hub.publish(Snapshot(fen="start", white=BREAKING[0], black=BREAKING[1], result="*"))
    spaced = ["".join(c if c.isprintable() else " " for c in name) for name in BREAKING]

    async def check(client: TestClient) -> None:
        stored = read_games(await (await client.get("/games.pgn")).text())
        assert [tags["White"] for tags, _ in stored] == spaced
        assert all(tags["Result"] == "*" for tags, _ in stored)
        [(live, _)] = read_games(await (await client.get("/live.pgn")).text())
        assert (live["White"], live["Black"], live["Result"]) == (spaced[0], spaced[1], "*")

    serve(hub, check, db=db)


def test_a_failing_handler_answers_500_without_a_traceback(monkeypatch):
    def broken(snap: Snapshot) -> str:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(web_server, "state_json", broken)

    async def check(client: TestClient) -> None:
        response = await client.get("/api/state")
        assert response.status == 500
        text = await response.text()
        assert "secret detail" not in text and "Traceback" not in text

    serve(Hub(), check)


def test_a_client_that_stops_reading_is_dropped_and_holds_up_nobody(monkeypatch):
    """A hostile spectator opens the stream and never reads: the daemon's
    publish never waits for it, the server drops it once a write stalls, and
    a spectator who reads goes on getting every state."""
    monkeypatch.setattr(web_server, "SEND_TIMEOUT", 0.5)
    hub = Hub()
    big = "x" * 200_000  # a snapshot this big fills the socket buffers in a few updates

    async def check(client: TestClient) -> None:
        state = client.app[web_server.STATE]
        _never_read, writer = await asyncio.open_connection(client.host, client.port)
        writer.write(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        while state.seats.total == 0:
            await asyncio.sleep(0.01)
        honest = await client.get("/api/events")
        received = bytearray()

        async def follow() -> None:
            while chunk := await honest.content.read(1 << 20):
                received.extend(chunk)

        following = asyncio.create_task(follow())
        while state.seats.total < 2:
            await asyncio.sleep(0.01)
        for number in range(1, 2000):
            assert hub.publish(Snapshot(fen=str(number), prompt=big)) is True
            await asyncio.sleep(0.02)
            if state.seats.total == 1:
                break
        else:
            pytest.fail("the stream that stopped reading was never dropped")
        assert number > 1

        async def arrived(seq: int) -> None:
            while f"id: {seq}\n".encode() not in received:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(arrived(hub.latest.seq), 30)
        following.cancel()
        honest.close()
        writer.close()

    serve(hub, check)


# ------------------------------------------------------------ the hexagon
HEX_MOVES = ("h5h7", "i8i6", "e3d7")  # a pawn's double step each, then White's falcon


@pytest.fixture
def hex_game(tmp_path: Path):
    with running(tmp_path / "games.sqlite", game={"variant": "falcon-hex"}) as sim:
        yield sim


def test_api_state_of_a_hex_game_carries_the_hexagon_and_cell_numbers(hex_game):
    geo = hex_game.geo
    for uci in HEX_MOVES:
        hex_game.move(uci)
    replayed = Game(hex_game.daemon.top.variant)
    for uci in HEX_MOVES:
        replayed.push_text(uci)
    hex_game.lift("i11")  # Black's falcon: its paths light up

    async def check(client: TestClient) -> None:
        data = await (await client.get("/api/state")).json()
        assert data["variant"] == "falcon-hex" and data["moves"] == list(HEX_MOVES)
        assert data["fen"] == replayed.position.fen()
        assert data["sans"] == replayed.sans()
        assert data["last_move"] == [geo.parse_square("e3"), geo.parse_square("d7")]
        board = data["board"]
        assert board["shape"] == "hex" and len(board["cells"]) == 121
        assert [name for name, *_ in board["cells"]] == [geo.name(c) for c in range(121)]
        rings = {ring["square"]: ring["role"] for ring in data["rings"]}
        assert rings[geo.parse_square("i11")] == "lifted"
        paths = {
            cell
            for paths in geo.falcon_paths(geo.parse_square("i11")).values()
            for path in paths
            for cell in path
        }
        lit = {cell for cell, role in rings.items() if role == "falcon-path"}
        assert lit and lit <= paths

    serve(hex_game.hub, check)


def test_a_hex_game_is_fed_and_replayed_as_pgn_and_json(hex_game):
    for uci in HEX_MOVES:
        hex_game.move(uci)

    async def check(client: TestClient) -> None:
        [(tags, replayed)] = read_games(await (await client.get("/live.pgn")).text())
        assert tags["Variant"] == "Falcon Hexagonal"
        assert [replayed.position.uci(m) for m in replayed.moves] == list(HEX_MOVES)
        data = await (await client.get("/api/games/1")).json()
        assert data["variant"] == "falcon-hex" and len(data["fens"]) == 4
        assert data["board"]["shape"] == "hex" and len(data["board"]["cells"]) == 121
        assert data["fens"][-1] == replayed.position.fen()
        geo = hex_game.geo
        assert data["moves"][0] == [geo.parse_square("h5"), geo.parse_square("h7")]

    serve(hex_game.hub, check, db=hex_game.store.path)
