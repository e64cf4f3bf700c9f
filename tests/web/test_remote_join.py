"""A board joins another's game through the routes, both servers in one event
loop: the header fetched with the code, a game long enough to take several
exchanges sent in pages that fit a request, and a joining board that restarts
with its journal goes on where it was."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiohttp.test_utils import TestServer

from boardctl.remote.desk import Desk
from boardctl.rules import BLACK, WHITE
from boardctl.web.remote_link import MAX_ENTRIES, Link
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub

from ..e2e.kill9_child import long_game

PLIES = 3 * MAX_ENTRIES + 5  # more than three exchanges' worth
WAIT = 30.0


def whole(link: Link, plies: int) -> bool:
    return link.match is not None and link.match.log.seq == plies


async def until(done, what: str) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, f"gave up waiting: {what}"
        await asyncio.sleep(0.05)


def test_a_long_game_reaches_a_board_that_joins_and_one_that_restarts(tmp_path: Path):
    host = Link(Desk(), tmp_path / "host.sqlite3", colour=WHITE, name="Table A")

    async def main() -> None:
        async with TestServer(make_app(Hub(), pin="1234", link=host)) as served:
            match = host.match
            assert match is not None and match.table is not None
            for n, uci in enumerate(long_game(PLIES, 3)):  # played before anyone joined
                verdict = match.table.play(n % 2, match.key, match.log.seq, uci, 0.0).verdict
                assert verdict.value == "applied"
            link = f"{served.make_url('/')}?join={match.kept.code}"
            for attempt in range(2):  # joined, then the joining board restarts
                guest = Link(Desk(), tmp_path / "guest.sqlite3", colour=WHITE, offer_at_start=False)
                async with TestServer(make_app(Hub(), pin="1234", link=guest)):
                    if attempt == 0:
                        joined = await guest.join(link)
                        assert joined.colour == BLACK  # the host chose White
                    await until(lambda g=guest: whole(g, PLIES), "the whole game")
                    await until(lambda g=guest: g.figures.exchanges >= 3, "a few exchanges")
                    assert guest.match is not None
                    assert guest.match.log.digest == match.log.digest
                    assert guest.figures.failed == 0
                    assert guest.desk.view.name == "Table A"

    asyncio.run(main())
