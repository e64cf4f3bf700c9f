"""The hall: its configuration, its page, and the command line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from boardctl.cli import main
from boardctl.web.hall import Hall, HallError, load_hall, make_hall_app, parse_hall

TWO = {
    "board": [
        {"name": "Table 1", "url": "http://192.168.1.21:8080/"},
        {"name": "Table 2", "url": "http://192.168.1.22:8080"},
    ]
}


def test_a_hall_names_its_boards_and_their_urls():
    hall = parse_hall(TWO)
    assert hall.boards == (
        ("Table 1", "http://192.168.1.21:8080/"),
        ("Table 2", "http://192.168.1.22:8080/"),
    )
    assert hall.bind == "auto" and hall.port == 8090
    assert parse_hall({**TWO, "port": 9000, "bind": "127.0.0.1"}).port == 9000


BAD: list[tuple[dict[str, Any], str]] = [
    ({}, "at least one [[board]]"),
    ({"board": []}, "at least one [[board]]"),
    ({"board": "Table 1"}, "at least one [[board]]"),
    ({"board": [{"name": "x"}]}, "board 1: expected exactly the keys name and url"),
    ({"board": [{"name": "x", "url": "http://a/", "pin": "1"}]}, "exactly the keys"),
    ({"board": [{"name": "", "url": "http://a/"}]}, "board 1: name"),
    ({"board": [{"name": "x" * 81, "url": "http://a/"}]}, "board 1: name"),
    ({"board": [{"name": 7, "url": "http://a/"}]}, "board 1: name"),
    ({"board": [{"name": "x", "url": "javascript:alert(1)"}]}, "board 1: url"),
    ({"board": [{"name": "x", "url": 'http://a/"><script>'}]}, "board 1: url"),
    ({"board": [{"name": "x", "url": "http://a:99999/"}]}, "board 1: url"),
    ({"board": [{"name": "x", "url": "ftp://a/"}]}, "board 1: url"),
    ({"board": [{"name": "x", "url": "http:///"}]}, "board 1: url"),
    ({**TWO, "port": 0}, "port"),
    ({**TWO, "port": "8090"}, "port"),
    ({**TWO, "bind": "everywhere"}, "bind"),
    ({**TWO, "boards": []}, "unknown key 'boards'"),
    ({"board": [{"name": "x", "url": "http://a/"}] * 65}, "at most 64 boards"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_a_bad_hall_is_refused_with_the_reason(data, message):
    with pytest.raises(HallError, match=None) as caught:
        parse_hall(data, "hall.toml")
    assert message in str(caught.value) and "hall.toml" in str(caught.value)


def test_the_hall_page_escapes_names_and_links_each_board():
    hall = Hall(
        (
            ("<script>alert('x')</script>", "http://10.0.0.5:8080/"),
            ('"Table" & 2', "http://10.0.0.6:8080/"),
        )
    )

    async def check() -> None:
        async with TestClient(TestServer(make_hall_app(hall))) as client:
            response = await client.get("/")
            assert response.status == 200 and response.content_type == "text/html"
            text = await response.text()
            assert "<script>alert" not in text
            assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
            assert "&quot;Table&quot; &amp; 2" in text
            assert 'href="http://10.0.0.5:8080/"' in text and "/static/hall.js" in text
            assert (await client.get("/static/pieces.svg")).status == 200
            assert '<link rel="icon" href="/static/favicon.svg"' in text
            assert (await client.get("/static/favicon.svg")).status == 200
            assert (await client.get("/favicon.ico")).status == 200

    asyncio.run(check())


def test_the_hall_command_refuses_a_bad_file_in_one_line(tmp_path: Path, capsys):
    path = tmp_path / "hall.toml"
    path.write_text('[[board]]\nname = "x"\nurl = "javascript:1"\n')
    assert main(["hall", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board 1: url" in err
    assert main(["hall", str(tmp_path / "none.toml")]) == 2
    assert "cannot read it" in capsys.readouterr().err
    path.write_text("[[board]\n")
    assert main(["hall", str(path)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_load_hall_reads_toml(tmp_path: Path):
    path = tmp_path / "hall.toml"
    path.write_text('port = 8091\n[[board]]\nname = "A"\nurl = "http://127.0.0.1:8080/"\n')
    assert load_hall(path) == Hall((("A", "http://127.0.0.1:8080/"),), "auto", 8091)
